/* refs.c -- the C references of the CUB tests (tests/cub/NAME/ref.c), in
 * one unit, and their table.  Each writes the expected outputs of its
 * (last) launch from that launch's inputs. */
#include "../kernels/ref.h"

#include "block_reduce/ref.c"
#include "block_scan/ref.c"
#include "block_radix_sort/ref.c"
#include "block_histogram/ref.c"
#include "device_reduce/ref.c"
#include "device_scan/ref.c"
#include "device_radix_sort/ref.c"
#include "thrust_seq/ref.c"
#include "struct_arg/ref.c"
#include "device_reduce_tiles/ref.c"
#include "device_histogram/ref.c"
#include "device_radix_sort_tiles/ref.c"

typedef struct {
	const char *name;
	void (*ref)(Launch *l);
} CubRef;

static const CubRef cub_refs[] = {
	{"block_reduce", ref_block_reduce},
	{"block_scan", ref_block_scan},
	{"block_radix_sort", ref_block_radix_sort},
	{"block_histogram", ref_block_histogram},
	{"device_reduce", ref_device_reduce},
	{"device_scan", ref_device_scan},
	{"device_radix_sort", ref_device_radix_sort},
	{"thrust_seq", ref_thrust_seq},
	{"struct_arg", ref_struct_arg},
	{"device_reduce_tiles", ref_device_reduce_tiles},
	{"device_histogram", ref_device_histogram},
	{"device_radix_sort_tiles", ref_device_radix_sort_tiles},
};
