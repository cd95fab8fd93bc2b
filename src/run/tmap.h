/* tmap.h -- the tensor-map (CUtensorMap) model shared by the PTX
 * interpreter and the SASS emulator: OUR 128-byte encoding of a tiled
 * tensor map, written by the launch spec into the kernel parameter (or
 * wherever the kernel copies it), and the copies TMA makes with it.
 * NVIDIA's own 128-byte layout is undocumented and not modelled; on a GPU
 * the runner would pass cuTensorMapEncodeTiled's bytes instead.  The
 * encoding and the rules are in docs/compiler-tma.md. */
#ifndef OA_TMAP_H
#define OA_TMAP_H

#include "run/spec.h"

enum { TMAP_BYTES = 128, TMAP_MAXRANK = 5, TMAP_MAGIC = 0x4d54414f /* "OATM" */ };
enum { TMAP_SWZ_NONE, TMAP_SWZ_32B, TMAP_SWZ_64B, TMAP_SWZ_128B };
enum { TMAP_OOB_ZERO, TMAP_OOB_NAN };

/* cuTensorMapEncodeTiled's arguments (interleave: none only). */
typedef struct Tmap {
	u64 addr;                       /* global address (written at launch) */
	ElemType type;
	int rank;                       /* 1..5 */
	u32 dims[TMAP_MAXRANK];         /* globalDim, elements */
	u64 strides[TMAP_MAXRANK];      /* globalStrides, bytes; [0] = element size */
	u32 box[TMAP_MAXRANK];          /* boxDim, 1..256 */
	u32 estr[TMAP_MAXRANK];         /* elementStrides, 1..8 */
	int swizzle, l2promo, oobfill;
} Tmap;

/* The 128 bytes of m (our encoding) and back; tmap_decode returns a
 * message when the bytes are no tensor map of ours, else NULL. */
void tmap_encode(const Tmap *m, u8 out[TMAP_BYTES]);
const char *tmap_decode(const u8 in[TMAP_BYTES], Tmap *m);
/* Why m is not a valid tiled tensor map (cuTensorMapEncodeTiled's rules),
 * or NULL. */
const char *tmap_check(const Tmap *m);
/* Bytes from the global address to the end of the tensor's last element. */
u64 tmap_span(const Tmap *m);
/* Bytes one box occupies in shared memory (what complete_tx counts). */
u32 tmap_box_bytes(const Tmap *m);

/* Global memory as the caller sees it: read or write n bytes at a global
 * address; 0 on success, -1 out of bounds (the model stops and returns -1). */
typedef struct {
	void *ctx;
	int (*read)(void *ctx, u64 addr, void *p, u32 n);
	int (*write)(void *ctx, u64 addr, const void *p, u32 n);
} TmapMem;

/* Reductions of cp.reduce.async.bulk.tensor. */
enum { TMAP_RED_NONE, TMAP_RED_ADD, TMAP_RED_MIN, TMAP_RED_MAX, TMAP_RED_INC, TMAP_RED_DEC,
       TMAP_RED_AND, TMAP_RED_OR, TMAP_RED_XOR };

/* Load the box at coordinates c[0..rank) into box (tmap_box_bytes bytes,
 * the shared-memory image at shared offset soff: swizzled as m says),
 * out-of-bounds elements filled.  Store (red = TMAP_RED_NONE) or reduce
 * the image back, skipping out-of-bounds elements.  -1 when an in-bounds
 * element is not readable/writable through mem, or a reduction does not
 * apply to the type (red_ok). */
int tmap_load(const Tmap *m, const i32 *c, u32 soff, const TmapMem *mem, u8 *box);
int tmap_store(const Tmap *m, const i32 *c, u32 soff, const u8 *box, int red, const TmapMem *mem);
int tmap_red_ok(ElemType t, int red);

#endif
