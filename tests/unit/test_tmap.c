/* test_tmap.c -- tensor-map launch specs (one test per error message),
 * our 128-byte encoding, and the TMA box model (src/run/tmap.c): element
 * order, element strides, out-of-bounds fill and clipping, swizzles,
 * reductions. */
#include <string.h>

#include "spec_check.h"
#include "run/tmap.h"

/* every refusal here (positions: test_spec.c) */
#define want_error(t, text, msg) want_spec_error(t, text, msg, 0)

#define B ",\"buffers\":[{\"name\":\"A\",\"buffer\":\"f32\",\"count\":256}]}"
#define T(x) "{\"args\":[{\"name\":\"m\",\"tensormap\":\"A\",\"type\":\"f32\",\"dims\":[16,16],\"box\":[8,8]" x "}]" B

TEST(tmap_spec_errors)
{
	want_error(t_, T(",\"swizzle\":\"16B\""), "unknown swizzle \"16B\"");
	want_error(t_, T(",\"interleave\":\"32B\""), "unknown interleave (our model: none) \"32B\"");
	want_error(t_, T(",\"oobFill\":\"ones\""), "unknown OOB fill \"ones\"");
	want_error(t_, T(",\"l2promotion\":\"512B\""), "unknown L2 promotion \"512B\"");
	want_error(t_, T(",\"strides\":[65]"), "global strides must be multiples of 16 below 2^40");
	want_error(t_, T(",\"strides\":[64, 64]"), "strides needs 1 entries");
	want_error(t_, T(",\"elementStrides\":[1,9]"), "elementStrides must be an integer in [1, 8]");
	want_error(t_, "{\"args\":[{\"name\":\"m\",\"tensormap\":\"A\",\"type\":\"f32\",\"dims\":[16,16],\"box\":[16,8],\"swizzle\":\"32B\"}]" B,
		   "the box's inner dimension exceeds the swizzle span");
	want_error(t_, "{\"args\":[{\"name\":\"m\",\"tensormap\":\"A\",\"type\":\"f32\",\"dims\":[16,17],\"box\":[4,4]}]" B,
		   "spans 1088 bytes, more than buffer \"A\" holds");
	want_error(t_, T(",\"gather\":1"), "unknown key \"gather\" in tensor map argument");
	want_error(t_, "{\"args\":[{\"name\":\"m\",\"tensormap\":\"A\",\"type\":\"f32\",\"dims\":[16],\"box\":[2]}]" B,
		   "the box's inner dimension must be a multiple of 16 bytes");
	want_error(t_, "{\"args\":[{\"name\":\"m\",\"tensormap\":\"A\",\"type\":\"f32\",\"dims\":[16],\"box\":[300]}]" B,
		   "box must be an integer in [1, 256]");
	want_error(t_, "{\"args\":[{\"name\":\"m\",\"tensormap\":\"A\",\"type\":\"f32\",\"box\":[4]}]" B,
		   "needs \"dims\" (1 to 5 global dimensions)");
	want_error(t_, "{\"args\":[{\"name\":\"m\",\"tensormap\":\"A\",\"type\":\"f32\",\"dims\":[16]}]" B, "needs a \"box\"");
	want_error(t_, "{\"args\":[{\"name\":\"m\",\"tensormap\":\"A\",\"type\":\"u32\",\"dims\":[16],\"box\":[4],\"oobFill\":\"nan\"}]" B,
		   "NaN fill needs a floating-point type");
	want_error(t_, "{\"args\":[{\"name\":\"m\",\"tensormap\":\"B\",\"type\":\"f32\",\"dims\":[16],\"box\":[4]}]" B,
		   "pointer field names \"B\", which is no argument");
	want_error(t_, "{\"args\":[{\"name\":\"m\",\"tensormap\":\"A\",\"type\":\"f32\",\"dims\":[4,4,4,4,4,4],\"box\":[4]}]" B,
		   "needs \"dims\" (1 to 5 global dimensions)");
}

/* The spec writes our encoding into the parameter, the buffer's address first. */
TEST(tmap_spec_param)
{
	const char *text = "{\"args\":[{\"name\":\"m\",\"tensormap\":\"A\",\"type\":\"f32\",\"dims\":[16,16],"
			   "\"box\":[8,8],\"swizzle\":\"32B\",\"elementStrides\":[1,2]}]" B;
	u64 addr[2] = { 0, 0x7f0000001000ull };
	u8 p[SPEC_MAX_STRUCT];
	char e[2048];
	Spec s;
	Tmap m;

	if (spec_parse_capture(text, &s, e, sizeof e)) {
		FAIL("%s", e);
		return;
	}
	CHECK_EQ_U64(launch_param_size(&s.args[0]), 128);
	CHECK_EQ_U64(launch_param(&(Launch){ .spec = &s }, 0, addr, p), 128);
	CHECK(tmap_decode(p, &m) == NULL);
	CHECK_EQ_U64(m.addr, 0x7f0000001000ull);
	CHECK_EQ_U64(m.rank, 2);
	CHECK_EQ_U64(m.strides[1], 64);
	CHECK_EQ_U64(m.estr[1], 2);
	CHECK_EQ_U64(m.swizzle, TMAP_SWZ_32B);
	CHECK_EQ_U64(tmap_box_bytes(&m), 8 * 4 * 4);
	p[8] ^= 1;
	CHECK(tmap_decode(p, &m) != NULL);
	spec_free(&s);
}

/* Global memory of the model tests: 4096 bytes at address 0x1000. */
static u8 gmem[4096];

static int
rd(void *ctx, u64 a, void *p, u32 n)
{
	(void)ctx;
	if (a < 0x1000 || a + n > 0x1000 + sizeof gmem)
		return -1;
	memcpy(p, gmem + (a - 0x1000), n);
	return 0;
}

static int
wr(void *ctx, u64 a, const void *p, u32 n)
{
	(void)ctx;
	if (a < 0x1000 || a + n > 0x1000 + sizeof gmem)
		return -1;
	memcpy(gmem + (a - 0x1000), p, n);
	return 0;
}

static const TmapMem mem = { NULL, rd, wr };

/* A u32 tensor of w x h elements, element (x, y) = 1000 * y + x + 1. */
static Tmap
grid(u32 w, u32 h, u32 bw, u32 bh)
{
	Tmap m = { .addr = 0x1000, .type = T_U32, .rank = 2, .dims = { w, h }, .strides = { 4, 4 * w },
		   .box = { bw, bh }, .estr = { 1, 1 } };
	u32 v;

	for (u32 y = 0; y < h; y++)
		for (u32 x = 0; x < w; x++) {
			v = 1000 * y + x + 1;
			memcpy(gmem + 4 * (y * w + x), &v, 4);
		}
	return m;
}

static u32
at(const u8 *box, u32 off)
{
	u32 v;

	memcpy(&v, box + off, 4);
	return v;
}

TEST(tmap_load_oob)
{
	Tmap m = grid(20, 10, 8, 4);
	u8 box[128];

	CHECK(tmap_check(&m) == NULL);
	CHECK(tmap_load(&m, (const i32[]){ -2, 8 }, 0, &mem, box) == 0);
	CHECK_EQ_U64(at(box, 0), 0);                     /* x = -2 */
	CHECK_EQ_U64(at(box, 8), 8001);                  /* (0, 8) */
	CHECK_EQ_U64(at(box, 4 * 8 + 4 * 7), 9006);      /* row 1: (5, 9) */
	CHECK_EQ_U64(at(box, 4 * 16 + 8), 0);            /* y = 10 */
	m.estr[0] = 2;                                   /* ignored (the driver's documentation) */
	m.estr[1] = 3;                                   /* 8 x 2 elements */
	CHECK_EQ_U64(tmap_box_bytes(&m), 64);
	CHECK(tmap_load(&m, (const i32[]){ 1, 0 }, 0, &mem, box) == 0);
	CHECK_EQ_U64(at(box, 4), 3);                     /* (2, 0) */
	CHECK_EQ_U64(at(box, 32 + 28), 3009);            /* (8, 3) */
}

/* 128B swizzle: 16-byte chunk c of row r lands at chunk c ^ (r & 7). */
TEST(tmap_swizzle)
{
	Tmap m = grid(64, 16, 32, 8);
	static u8 box[1024];

	m.swizzle = TMAP_SWZ_128B;
	CHECK(tmap_check(&m) == NULL);
	CHECK(tmap_load(&m, (const i32[]){ 0, 0 }, 1024, &mem, box) == 0);
	CHECK_EQ_U64(at(box, 0), 1);
	CHECK_EQ_U64(at(box, 128 + 16 * (0 ^ 1)), 1001);        /* (0, 1) */
	CHECK_EQ_U64(at(box, 5 * 128 + 16 * (2 ^ 5) + 4), 5010);  /* (9, 5) */
	CHECK(tmap_load(&m, (const i32[]){ 0, 0 }, 1024 + 256, &mem, box) == 0);
	CHECK_EQ_U64(at(box, 128 + 16 * (0 ^ 3)), 1001);        /* address row 3 */
	m.swizzle = TMAP_SWZ_64B;
	m.box[0] = 16;
	CHECK(tmap_load(&m, (const i32[]){ 0, 0 }, 0, &mem, box) == 0);
	CHECK_EQ_U64(at(box, 2 * 64 + 16 * (1 ^ 1)), 2005);     /* (4, 2): address row 1 */
	m.swizzle = TMAP_SWZ_32B;
	m.box[0] = 8;
	CHECK(tmap_load(&m, (const i32[]){ 0, 0 }, 0, &mem, box) == 0);
	CHECK_EQ_U64(at(box, 4 * 32 + 16 * (0 ^ 1)), 4001);     /* (0, 4): address row 1 */
	CHECK_EQ_U64(at(box, 2 * 32), 2001);                    /* address row 0 */
}

TEST(tmap_store_reduce)
{
	Tmap m = grid(20, 10, 8, 2);
	u32 img[16];

	for (u32 i = 0; i < 16; i++)
		img[i] = 100 + i;
	CHECK(tmap_store(&m, (const i32[]){ 16, 9 }, 0, (const u8 *)img, TMAP_RED_NONE, &mem) == 0);
	CHECK_EQ_U64(at(gmem, 4 * (9 * 20 + 16)), 100);
	CHECK_EQ_U64(at(gmem, 4 * (9 * 20 + 19)), 103);
	CHECK_EQ_U64(at(gmem, 4 * (8 * 20 + 16)), 8017);       /* untouched */
	CHECK(tmap_store(&m, (const i32[]){ 0, 0 }, 0, (const u8 *)img, TMAP_RED_ADD, &mem) == 0);
	CHECK_EQ_U64(at(gmem, 4 * 21), 1002 + 109);
	CHECK(tmap_store(&m, (const i32[]){ 0, 0 }, 0, (const u8 *)img, TMAP_RED_MIN, &mem) == 0);
	CHECK_EQ_U64(at(gmem, 0), 1 + 100 < 100 ? 0 : 100);
	CHECK(tmap_store(&m, (const i32[]){ 0, 2 }, 0, (const u8 *)img, TMAP_RED_XOR, &mem) == 0);
	CHECK_EQ_U64(at(gmem, 4 * 40), 2001 ^ 100);
	m.type = T_F32;
	CHECK(tmap_store(&m, (const i32[]){ 0, 0 }, 0, (const u8 *)img, TMAP_RED_XOR, &mem) == -1);
	CHECK(!tmap_red_ok(T_F32, TMAP_RED_MIN) && tmap_red_ok(T_F16, TMAP_RED_MIN));
}
