/* test_spec.c -- launch specifications: every init and check form, the
 * float conversions, the generator, and one test per error message. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spec_check.h"
#include "run/spec.h"

/* every refusal here names its position */
#define want_error(t, text, msg) want_spec_error(t, text, msg, 1)

static const char saxpy[] =
	"{ \"kernel\": \"saxpy\", \"grid\": [4,1,1], \"block\": [256], \"shared\": 0, \"cluster\": [1,1,1],\n"
	"  \"args\": [\n"
	"    {\"name\": \"x\", \"buffer\": \"f32\", \"count\": 1024, \"init\": {\"random\": {\"seed\": 1, \"min\": -1, \"max\": 1}}},\n"
	"    {\"name\": \"y\", \"buffer\": \"f32\", \"count\": 1024, \"init\": {\"range\": {\"start\": 0, \"step\": 0.5}},\n"
	"                     \"check\": {\"abs\": 1e-6, \"rel\": 1e-6}},\n"
	"    {\"name\": \"a\", \"scalar\": \"f32\", \"value\": 0.1},\n"
	"    {\"name\": \"n\", \"scalar\": \"u32\", \"value\": 1024} ] }\n";

TEST(spec_example)
{
	Spec s;
	Launch l;
	char e[1024];
	float *x, *y;
	size_t i;
	int inrange = 1;

	CHECK(spec_parse_capture(saxpy, &s, e, sizeof e) == 0);
	if (s.nargs != 4)
		{ FAIL("nargs %zu: %s", s.nargs, e); return; }
	CHECK_STR(s.kernel, "saxpy");
	CHECK(s.grid[0] == 4 && s.grid[1] == 1 && s.block[0] == 256 && s.block[1] == 1 && s.block[2] == 1);
	CHECK(s.args[0].is_buffer && s.args[0].type == T_F32 && s.args[0].count == 1024);
	CHECK(s.args[1].check.enabled && s.args[1].check.abs_tol == 1e-6);
	CHECK(!s.args[0].check.enabled);
	CHECK(!s.args[2].is_buffer && s.args[2].scalar == (double)0.1f);
	CHECK_EQ_U64(s.args[2].scalar_bits, 0x3dcccccd);
	CHECK_EQ_U64(s.args[3].scalar_bits, 1024);
	launch_init(&l, &s);
	x = launch_buf(&l, "x");
	y = launch_buf(&l, "y");
	CHECK(y[3] == 1.5f && y[1023] == 511.5f);
	for (i = 0; i < 1024; i++)
		inrange &= x[i] >= -1 && x[i] < 1;
	CHECK(inrange);
	CHECK(x[0] != x[1]);
	CHECK(launch_scalar(&l, "n") == 1024);
	CHECK(l.bytes[0] == 4096 && l.data[2] == NULL);
	launch_free(&l);
	spec_free(&s);
}

TEST(spec_defaults)
{
	Spec s;
	char e[512];

	CHECK(spec_parse_capture("{\"args\": []}", &s, e, sizeof e) == 0);
	CHECK(s.kernel == NULL && s.nargs == 0 && s.shared == 0);
	CHECK(s.grid[0] == 1 && s.grid[2] == 1 && s.block[1] == 1 && s.cluster[2] == 1);
	spec_free(&s);
	CHECK(spec_parse_capture("{\"grid\": 7, \"block\": [32, 4], \"args\": []}", &s, e, sizeof e) == 0);
	CHECK(s.grid[0] == 7 && s.grid[1] == 1 && s.block[0] == 32 && s.block[1] == 4 && s.block[2] == 1);
	spec_free(&s);
}

/* splitmix64 reference values (seed 1234567: Vigna's reference code). */
TEST(spec_splitmix64)
{
	u64 st = 1234567;

	CHECK_EQ_U64(splitmix64(&st), 6457827717110365317ull);
	CHECK_EQ_U64(splitmix64(&st), 3203168211198807973ull);
	CHECK_EQ_U64(splitmix64(&st), 9817491932198370423ull);
}

TEST(spec_f16_bf16)
{
	CHECK_EQ_U64(f16_from_double(1.0), 0x3c00);
	CHECK_EQ_U64(f16_from_double(-2.0), 0xc000);
	CHECK_EQ_U64(f16_from_double(65504.0), 0x7bff);
	CHECK_EQ_U64(f16_from_double(65520.0), 0x7c00);      /* rounds to inf */
	CHECK_EQ_U64(f16_from_double(65519.99), 0x7bff);
	CHECK_EQ_U64(f16_from_double(0x1p-24), 0x0001);      /* smallest subnormal */
	CHECK_EQ_U64(f16_from_double(0x1p-25), 0x0000);      /* tie to even: 0 */
	CHECK_EQ_U64(f16_from_double(0x1.8p-25), 0x0001);
	CHECK_EQ_U64(f16_from_double(1.0 + 0x1p-11), 0x3c00); /* tie to even */
	CHECK_EQ_U64(f16_from_double(1.0 + 0x1p-11 + 0x1p-40), 0x3c01); /* no double rounding */
	CHECK_EQ_U64(f16_from_double(1.0 + 3 * 0x1p-11), 0x3c02);
	CHECK_EQ_U64(f16_from_double(-0.0), 0x8000);
	CHECK_EQ_U64(f16_from_double(NAN) & 0x7e00, 0x7e00);
	CHECK_EQ_U64(f16_from_double(-INFINITY), 0xfc00);
	CHECK_EQ_U64(bf16_from_double(1.0), 0x3f80);
	CHECK_EQ_U64(bf16_from_double(3.140625), 0x4049);
	CHECK_EQ_U64(bf16_from_double(1.0 + 0x1p-8), 0x3f80);
	CHECK_EQ_U64(bf16_from_double(1.0 + 3 * 0x1p-8), 0x3f82);
	CHECK(f16_to_double(0x3555) == 0x1.554p-2);
	CHECK(f16_to_double(0x0001) == 0x1p-24);
	CHECK(bf16_to_double(0xc049) == -3.140625);
	CHECK(isinf(f16_to_double(0x7c00)) && isnan(bf16_to_double(0x7fc1)));
	/* round trip of every finite f16 */
	{
		u32 h;
		int ok = 1;
		for (h = 0; h < 0x10000; h++)
			if ((h & 0x7c00) != 0x7c00)
				ok &= f16_from_double(f16_to_double((u16)h)) == h;
		CHECK(ok);
	}
}

static Spec *
load_ok(TestState *t_, const char *text, Spec *s)
{
	char e[1024];

	if (spec_parse_capture(text, s, e, sizeof e)) {
		FAIL("parse failed: %s", e);
		return NULL;
	}
	return s;
}

TEST(spec_init_forms)
{
	Spec s;
	Launch l;
	const char *t =
		"{\"args\": ["
		"{\"name\":\"f\",\"buffer\":\"s8\",\"count\":3,\"init\":{\"fill\":-5}},"
		"{\"name\":\"v\",\"buffer\":\"u16\",\"count\":5,\"init\":{\"values\":[1,2]}},"
		"{\"name\":\"r\",\"buffer\":\"s32\",\"count\":4,\"init\":{\"range\":{\"start\":10,\"step\":-3}}},"
		"{\"name\":\"q\",\"buffer\":\"s32\",\"count\":1000,\"init\":{\"random\":{\"seed\":7,\"min\":-3,\"max\":3}}},"
		"{\"name\":\"h\",\"buffer\":\"f16\",\"count\":3,\"init\":{\"values\":[0.1, \"inf\", \"nan\"]}},"
		"{\"name\":\"b\",\"buffer\":\"bf16\",\"count\":1,\"init\":{\"fill\":0.1}},"
		"{\"name\":\"d\",\"buffer\":\"f64\",\"count\":2,\"init\":{\"range\":{\"start\":0.25,\"step\":0.5}}},"
		"{\"name\":\"z\",\"buffer\":\"u64\",\"count\":4},"
		"{\"name\":\"w\",\"buffer\":\"u64\",\"count\":64,\"init\":{\"random\":{\"seed\":3,\"min\":0,\"max\":1}}}"
		"]}";
	int8_t *f;
	u16 *v, *h, *b;
	i32 *r, *q;
	double *d;
	u64 *z, *w;
	int lo = 0, hi = 0, bad = 0, ones = 0;
	size_t i;

	if (!load_ok(t_, t, &s))
		return;
	launch_init(&l, &s);
	f = launch_buf(&l, "f"), v = launch_buf(&l, "v"), r = launch_buf(&l, "r");
	q = launch_buf(&l, "q"), h = launch_buf(&l, "h"), b = launch_buf(&l, "b");
	d = launch_buf(&l, "d"), z = launch_buf(&l, "z"), w = launch_buf(&l, "w");
	CHECK(f[0] == -5 && f[2] == -5);
	CHECK(v[0] == 1 && v[1] == 2 && v[2] == 1 && v[4] == 1);
	CHECK(r[0] == 10 && r[3] == 1);
	for (i = 0; i < 1000; i++) {
		bad += q[i] < -3 || q[i] > 3;
		lo += q[i] == -3;
		hi += q[i] == 3;
	}
	CHECK(!bad && lo > 50 && hi > 50);
	CHECK_EQ_U64(h[0], 0x2e66);
	CHECK_EQ_U64(h[1], 0x7c00);
	CHECK((h[2] & 0x7c00) == 0x7c00 && (h[2] & 0x3ff));
	CHECK_EQ_U64(b[0], 0x3dcd);
	CHECK(d[0] == 0.25 && d[1] == 0.75);
	CHECK(z[0] == 0 && z[3] == 0);
	for (i = 0; i < 64; i++)
		ones += w[i] == 1;
	CHECK(ones > 10 && ones < 54);
	/* the documented formula: element 0 of q = -3 + splitmix64(7) % 7 */
	{
		u64 st = 7;
		CHECK(q[0] == (i32)(-3 + (i64)(splitmix64(&st) % 7)));
	}
	launch_free(&l);
	spec_free(&s);
}

TEST(spec_random_float_formula)
{
	Spec s;
	Launch l;
	float *x;
	u64 st = 99, z;

	if (!load_ok(t_, "{\"args\":[{\"name\":\"x\",\"buffer\":\"f32\",\"count\":2,"
			 "\"init\":{\"random\":{\"seed\":99,\"min\":-2,\"max\":6}}}]}", &s))
		return;
	launch_init(&l, &s);
	x = launch_buf(&l, "x");
	z = splitmix64(&st);
	CHECK(x[0] == (float)(-2 + (double)(z >> 11) * 0x1p-53 * 8));
	z = splitmix64(&st);
	CHECK(x[1] == (float)(-2 + (double)(z >> 11) * 0x1p-53 * 8));
	launch_free(&l);
	spec_free(&s);
}

/* Two launches of one spec: set got[i] and compare under check. */
static size_t
cmp1(TestState *t_, const char *type, const char *check, double want, double got, u64 wbits, u64 gbits)
{
	char text[512];
	Spec s;
	Launch a, b;
	size_t r;
	ElemType et;
	FILE *null = fopen("/dev/null", "w");

	snprintf(text, sizeof text, "{\"args\":[{\"name\":\"o\",\"buffer\":\"%s\",\"count\":1,\"check\":%s}]}",
		 type, check);
	if (!load_ok(t_, text, &s))
		return 999;
	launch_init(&a, &s);
	launch_init(&b, &s);
	et = s.args[0].type;
	if (wbits || gbits) {
		memcpy(a.data[0], &gbits, elem_size(et));
		memcpy(b.data[0], &wbits, elem_size(et));
	} else {
		elem_set(et, a.data[0], 0, got);
		elem_set(et, b.data[0], 0, want);
	}
	r = launch_compare(&a, &b, null);
	fclose(null);
	launch_free(&a);
	launch_free(&b);
	spec_free(&s);
	return r;
}

TEST(spec_check_forms)
{
	const char *ex = "{\"exact\":true}";

	CHECK(cmp1(t_, "f32", ex, 1.0, 1.0, 0, 0) == 0);
	CHECK(cmp1(t_, "f32", ex, 1.0, 1.0 + 0x1p-23, 0, 0) == 1);
	CHECK(cmp1(t_, "f32", ex, 0, 0, 0x00000000, 0x80000000) == 1);          /* -0 != +0 exactly */
	CHECK(cmp1(t_, "s32", ex, -7, -7, 0, 0) == 0);
	CHECK(cmp1(t_, "u8", ex, 7, 8, 0, 0) == 1);
	CHECK(cmp1(t_, "f32", "{\"abs\":0.01}", 1.0, 1.005, 0, 0) == 0);
	CHECK(cmp1(t_, "f32", "{\"abs\":0.01}", 1.0, 1.02, 0, 0) == 1);
	CHECK(cmp1(t_, "f32", "{\"rel\":0.01}", 100.0, 100.9, 0, 0) == 0);
	CHECK(cmp1(t_, "f32", "{\"rel\":0.01}", 100.0, 101.1, 0, 0) == 1);
	CHECK(cmp1(t_, "f64", "{\"abs\":1e-9,\"rel\":1e-9}", 1e6, 1e6 + 2e-3, 0, 0) == 1);
	CHECK(cmp1(t_, "f64", "{\"abs\":1e-9,\"rel\":1e-9}", 1e6, 1e6 + 5e-4, 0, 0) == 0);
	CHECK(cmp1(t_, "f32", "{\"ulp\":2}", 1.0, 1.0 + 2 * 0x1p-23, 0, 0) == 0);
	CHECK(cmp1(t_, "f32", "{\"ulp\":2}", 1.0, 1.0 + 3 * 0x1p-23, 0, 0) == 1);
	CHECK(cmp1(t_, "f32", "{\"ulp\":2}", 1.0, 1.0 - 0x1p-24, 0, 0) == 0);      /* across a binade */
	CHECK(cmp1(t_, "f32", "{\"ulp\":1}", 0, 0, 0x00000000, 0x80000001) == 0); /* -min .. +0 */
	CHECK(cmp1(t_, "f16", "{\"ulp\":1}", 1.0, 1.0 + 0x1p-10, 0, 0) == 0);
	CHECK(cmp1(t_, "f16", "{\"ulp\":1}", 1.0, 1.0 + 0x1p-9, 0, 0) == 1);
	CHECK(cmp1(t_, "bf16", "{\"abs\":0.01}", 1.0, 1.0078125, 0, 0) == 0);
	CHECK(cmp1(t_, "f32", "{\"abs\":1}", INFINITY, INFINITY, 0, 0) == 0);
	CHECK(cmp1(t_, "f32", "{\"abs\":1}", INFINITY, -INFINITY, 0, 0) == 1);
	CHECK(cmp1(t_, "f32", "{\"abs\":1e30}", INFINITY, 1e30, 0, 0) == 1);
}

TEST(spec_check_nan)
{
	/* exact: NaN only matches the same bits unless nan_any */
	CHECK(cmp1(t_, "f32", "{\"exact\":true}", 0, 0, 0x7fc00000, 0x7fc00000) == 0);
	CHECK(cmp1(t_, "f32", "{\"exact\":true}", 0, 0, 0x7fc00000, 0x7fffffff) == 1);
	CHECK(cmp1(t_, "f32", "{\"exact\":true,\"nan_any\":true}", 0, 0, 0x7fc00000, 0xffffffff) == 0);
	/* tolerances: NaN never matches unless nan_any */
	CHECK(cmp1(t_, "f32", "{\"abs\":1}", 0, 0, 0x7fc00000, 0x7fc00000) == 1);
	CHECK(cmp1(t_, "f32", "{\"ulp\":4,\"nan_any\":true}", 0, 0, 0x7fc00000, 0x7f800001) == 0);
	CHECK(cmp1(t_, "f32", "{\"abs\":1,\"nan_any\":true}", 0, 0, 0x7fc00000, 0x3f800000) == 1);
	CHECK(cmp1(t_, "f16", "{\"exact\":true,\"nan_any\":true}", 0, 0, 0x7e00, 0xfe01) == 0);
}

TEST(spec_compare_message)
{
	Spec s;
	Launch a, b;
	char out[512] = {0};
	FILE *f = tmpfile();
	size_t n, r;

	if (!load_ok(t_, "{\"args\":[{\"name\":\"o\",\"buffer\":\"s32\",\"count\":20,\"check\":{\"exact\":true}},"
			 "{\"name\":\"p\",\"buffer\":\"s32\",\"count\":2}]}", &s))
		return;
	launch_init(&a, &s);
	launch_init(&b, &s);
	((i32 *)a.data[0])[3] = 42;
	((i32 *)a.data[1])[0] = 42;   /* unchecked buffer */
	r = launch_compare(&a, &b, f);
	rewind(f);
	n = fread(out, 1, sizeof out - 1, f);
	out[n] = 0;
	fclose(f);
	CHECK(r == 1);
	CHECK_STR(out, "o[3]: got 42, want 0\n");
	launch_free(&a);
	launch_free(&b);
	spec_free(&s);
}

TEST(spec_write)
{
	Spec s;
	Launch l;
	char path[] = "/tmp/oa-spec-write-XXXXXX";
	int fd = mkstemp(path);
	size_t n;
	char *text;

	close(fd);
	if (!load_ok(t_, "{\"args\":[{\"name\":\"a\",\"buffer\":\"f32\",\"count\":2,\"init\":{\"values\":[0.1,\"nan\"]}},"
			 "{\"name\":\"k\",\"scalar\":\"s32\",\"value\":-1},"
			 "{\"name\":\"b\",\"buffer\":\"s16\",\"count\":1,\"init\":{\"fill\":-3}},"
			 "{\"name\":\"h\",\"buffer\":\"f16\",\"count\":1,\"init\":{\"fill\":0.1}}]}", &s))
		return;
	launch_init(&l, &s);
	CHECK(launch_write(&l, path) == 0);
	text = read_file(path, &n);
	CHECK_STR(text, "a[0] = 0.100000001\na[1] = nan\nb[0] = -3\nh[0] = 0.099976\n");
	free(text);
	unlink(path);
	CHECK_EQ_U64(s.args[1].scalar_bits, 0xffffffff);
	launch_free(&l);
	spec_free(&s);
}

#define A(x) "{\"args\":[" x "]}"
#define B(x) A("{\"name\":\"b\",\"buffer\":\"f32\",\"count\":4," x "}")
#define I(x) A("{\"name\":\"b\",\"buffer\":\"u8\",\"count\":4," x "}")

TEST(spec_err_json) { want_error(t_, "{\"args\": [}", "unexpected character"); }
TEST(spec_err_top_type) { want_error(t_, "[]", "the spec must be an object, not array"); }
TEST(spec_err_unknown_top) { want_error(t_, "{\"args\":[],\"gird\":[1]}", "unknown key \"gird\" in the spec"); }
TEST(spec_err_no_args) { want_error(t_, "{\"grid\":[1]}", "needs \"args\""); }
TEST(spec_err_args_type) { want_error(t_, "{\"args\":{}}", "args must be an array, not object"); }
TEST(spec_err_kernel_type) { want_error(t_, "{\"kernel\":1,\"args\":[]}", "kernel must be a string"); }
TEST(spec_err_kernel_empty) { want_error(t_, "{\"kernel\":\"\",\"args\":[]}", "kernel name is empty"); }
TEST(spec_err_comment_type) { want_error(t_, "{\"comment\":1,\"args\":[]}", "comment must be a string"); }
TEST(spec_err_grid_zero) { want_error(t_, "{\"grid\":[0],\"args\":[]}", "grid must be an integer in [1,"); }
TEST(spec_err_grid_dims) { want_error(t_, "{\"grid\":[1,1,1,1],\"args\":[]}", "grid must have 1 to 3 dimensions"); }
TEST(spec_err_grid_type) { want_error(t_, "{\"grid\":\"4\",\"args\":[]}", "grid must be an array, not string"); }
TEST(spec_err_block_big) { want_error(t_, "{\"block\":[2048],\"args\":[]}", "block must be an integer in [1, 1024]"); }
TEST(spec_err_block_threads) { want_error(t_, "{\"block\":[64,64],\"args\":[]}", "more than 1024 threads"); }
TEST(spec_err_block_frac) { want_error(t_, "{\"block\":[1.5],\"args\":[]}", "block must be an integer"); }
TEST(spec_err_cluster_big) { want_error(t_, "{\"grid\":[16,2],\"cluster\":[8,4],\"args\":[]}", "more than 16 CTAs"); }
TEST(spec_err_cluster_mult) { want_error(t_, "{\"grid\":[3],\"cluster\":[2],\"args\":[]}", "not a multiple of the cluster"); }
TEST(spec_err_shared) { want_error(t_, "{\"shared\":1000000,\"args\":[]}", "shared must be an integer in [0, 232448]"); }
TEST(spec_err_arg_type) { want_error(t_, A("3"), "argument must be an object, not number"); }
TEST(spec_err_arg_noname) { want_error(t_, A("{\"buffer\":\"f32\",\"count\":1}"), "argument needs a \"name\""); }
TEST(spec_err_arg_name_type) { want_error(t_, A("{\"name\":1}"), "name must be a string"); }
TEST(spec_err_arg_name_empty) { want_error(t_, A("{\"name\":\"\",\"scalar\":\"u32\",\"value\":1}"), "non-empty"); }
TEST(spec_err_arg_dup) { want_error(t_, A("{\"name\":\"a\",\"scalar\":\"u32\",\"value\":1},{\"name\":\"a\",\"scalar\":\"u32\",\"value\":1}"), "duplicate argument name \"a\""); }
TEST(spec_err_arg_kind) { want_error(t_, A("{\"name\":\"a\"}"), "exactly one of \"buffer\" and \"scalar\""); }
TEST(spec_err_arg_both) { want_error(t_, A("{\"name\":\"a\",\"buffer\":\"u8\",\"scalar\":\"u8\"}"), "exactly one of"); }
TEST(spec_err_buf_unknown) { want_error(t_, B("\"value\":1"), "unknown key \"value\" in buffer argument"); }
TEST(spec_err_type_name) { want_error(t_, A("{\"name\":\"a\",\"buffer\":\"f8\",\"count\":1}"), "unknown element type \"f8\""); }
TEST(spec_err_type_type) { want_error(t_, A("{\"name\":\"a\",\"buffer\":4,\"count\":1}"), "type must be a string"); }
TEST(spec_err_count_missing) { want_error(t_, A("{\"name\":\"a\",\"buffer\":\"u8\"}"), "needs a \"count\""); }
TEST(spec_err_count_zero) { want_error(t_, A("{\"name\":\"a\",\"buffer\":\"u8\",\"count\":0}"), "count must be an integer in [1, 268435456]"); }
TEST(spec_err_count_absurd) { want_error(t_, A("{\"name\":\"a\",\"buffer\":\"u8\",\"count\":1e15}"), "count must be an integer in"); }
TEST(spec_err_total_bytes) { want_error(t_, A("{\"name\":\"a\",\"buffer\":\"f64\",\"count\":268435456}"), "exceed 1073741824 bytes"); }
TEST(spec_err_init_type) { want_error(t_, B("\"init\":[1]"), "init must be an object, not array"); }
TEST(spec_err_init_unknown) { want_error(t_, B("\"init\":{\"zeros\":1}"), "unknown key \"zeros\" in init"); }
TEST(spec_err_init_two) { want_error(t_, B("\"init\":{\"fill\":1,\"values\":[1]}"), "exactly one of \"fill\""); }
TEST(spec_err_fill_type) { want_error(t_, B("\"init\":{\"fill\":true}"), "fill value must be a number, not boolean"); }
TEST(spec_err_fill_string) { want_error(t_, B("\"init\":{\"fill\":\"pi\"}"), "want a number or \"nan\""); }
TEST(spec_err_fill_int_frac) { want_error(t_, I("\"init\":{\"fill\":1.5}"), "fill value 1.5 does not fit u8"); }
TEST(spec_err_fill_int_range) { want_error(t_, I("\"init\":{\"fill\":256}"), "fill value 256 does not fit u8"); }
TEST(spec_err_fill_int_nan) { want_error(t_, I("\"init\":{\"fill\":\"nan\"}"), "does not fit u8"); }
TEST(spec_err_fill_f16_range) { want_error(t_, A("{\"name\":\"h\",\"buffer\":\"f16\",\"count\":1,\"init\":{\"fill\":70000}}"), "does not fit f16"); }
TEST(spec_err_values_type) { want_error(t_, B("\"init\":{\"values\":1}"), "values must be an array"); }
TEST(spec_err_values_empty) { want_error(t_, B("\"init\":{\"values\":[]}"), "values must have 1 to"); }
TEST(spec_err_values_elem) { want_error(t_, I("\"init\":{\"values\":[1,-1]}"), "value -1 does not fit u8"); }
TEST(spec_err_range_type) { want_error(t_, B("\"init\":{\"range\":0}"), "range must be an object"); }
TEST(spec_err_range_unknown) { want_error(t_, B("\"init\":{\"range\":{\"start\":0,\"step\":1,\"end\":3}}"), "unknown key \"end\" in range"); }
TEST(spec_err_range_missing) { want_error(t_, B("\"init\":{\"range\":{\"start\":0}}"), "range needs \"start\" and \"step\""); }
TEST(spec_err_range_inf) { want_error(t_, B("\"init\":{\"range\":{\"start\":0,\"step\":\"inf\"}}"), "must be finite"); }
TEST(spec_err_range_step_int) { want_error(t_, I("\"init\":{\"range\":{\"start\":0,\"step\":0.5}}"), "range step must be an integer for u8"); }
TEST(spec_err_range_end) { want_error(t_, I("\"init\":{\"range\":{\"start\":250,\"step\":3}}"), "range end 259 does not fit u8"); }
TEST(spec_err_random_type) { want_error(t_, B("\"init\":{\"random\":1}"), "random must be an object"); }
TEST(spec_err_random_unknown) { want_error(t_, B("\"init\":{\"random\":{\"seed\":1,\"min\":0,\"max\":1,\"dist\":1}}"), "unknown key \"dist\" in random"); }
TEST(spec_err_random_missing) { want_error(t_, B("\"init\":{\"random\":{\"seed\":1,\"min\":0}}"), "random needs \"seed\", \"min\" and \"max\""); }
TEST(spec_err_random_seed) { want_error(t_, B("\"init\":{\"random\":{\"seed\":-1,\"min\":0,\"max\":1}}"), "seed must be an integer in"); }
TEST(spec_err_random_order) { want_error(t_, B("\"init\":{\"random\":{\"seed\":1,\"min\":2,\"max\":1}}"), "random min is above max"); }
TEST(spec_err_random_inf) { want_error(t_, B("\"init\":{\"random\":{\"seed\":1,\"min\":0,\"max\":\"inf\"}}"), "min and max must be finite"); }
TEST(spec_err_random_int) { want_error(t_, I("\"init\":{\"random\":{\"seed\":1,\"min\":0,\"max\":300}}"), "random max 300 does not fit u8"); }
TEST(spec_err_check_type) { want_error(t_, B("\"check\":true"), "check must be an object, not boolean"); }
TEST(spec_err_check_unknown) { want_error(t_, B("\"check\":{\"tol\":1}"), "unknown key \"tol\" in check"); }
TEST(spec_err_check_empty) { want_error(t_, B("\"check\":{}"), "check needs \"exact\""); }
TEST(spec_err_check_exact_false) { want_error(t_, B("\"check\":{\"exact\":false}"), "\"exact\": false means nothing"); }
TEST(spec_err_check_exact_type) { want_error(t_, B("\"check\":{\"exact\":1}"), "exact must be a boolean"); }
TEST(spec_err_check_exact_abs) { want_error(t_, B("\"check\":{\"exact\":true,\"abs\":1}"), "\"exact\" excludes"); }
TEST(spec_err_check_abs) { want_error(t_, B("\"check\":{\"abs\":-1}"), "abs must be a finite number >= 0"); }
TEST(spec_err_check_rel) { want_error(t_, B("\"check\":{\"rel\":\"inf\"}"), "rel must be a finite number >= 0"); }
TEST(spec_err_check_ulp) { want_error(t_, B("\"check\":{\"ulp\":0.5}"), "ulp must be an integer in"); }
TEST(spec_err_check_nan_any) { want_error(t_, B("\"check\":{\"exact\":true,\"nan_any\":1}"), "nan_any must be a boolean"); }
TEST(spec_err_scalar_unknown) { want_error(t_, A("{\"name\":\"n\",\"scalar\":\"u32\",\"value\":1,\"count\":1}"), "unknown key \"count\" in scalar argument"); }
TEST(spec_err_scalar_value) { want_error(t_, A("{\"name\":\"n\",\"scalar\":\"u32\"}"), "scalar \"n\" needs a \"value\""); }
TEST(spec_err_scalar_value_type) { want_error(t_, A("{\"name\":\"n\",\"scalar\":\"u32\",\"value\":\"1\"}"), "value must be a number, not string"); }
TEST(spec_err_scalar_u32) { want_error(t_, A("{\"name\":\"n\",\"scalar\":\"u32\",\"value\":4294967296}"), "value 4294967296 does not fit u32"); }
TEST(spec_err_scalar_s8) { want_error(t_, A("{\"name\":\"n\",\"scalar\":\"s8\",\"value\":-129}"), "value -129 does not fit s8"); }
TEST(spec_err_scalar_neg_u) { want_error(t_, A("{\"name\":\"n\",\"scalar\":\"u64\",\"value\":-1}"), "value -1 does not fit u64"); }
TEST(spec_err_scalar_frac) { want_error(t_, A("{\"name\":\"n\",\"scalar\":\"s32\",\"value\":2.5}"), "value 2.5 does not fit s32"); }
TEST(spec_err_scalar_f32) { want_error(t_, A("{\"name\":\"n\",\"scalar\":\"f32\",\"value\":1e39}"), "value 1e39 does not fit f32"); }

/* Integer buffers take exact 64-bit values (beyond 2^53) in fill, values
 * and random bounds. */
TEST(spec_init_exact_ints)
{
	Spec s;
	Launch l;
	u64 *a, *c, *e;
	i64 *b;
	size_t i;
	int ok = 1;

	if (!load_ok(t_, A("{\"name\":\"a\",\"buffer\":\"u64\",\"count\":3,\"init\":{\"values\":[18446744073709551615,9007199254740993,1e3]}},"
			   "{\"name\":\"b\",\"buffer\":\"s64\",\"count\":2,\"init\":{\"values\":[-9223372036854775808,-9007199254740995]}},"
			   "{\"name\":\"c\",\"buffer\":\"u64\",\"count\":64,\"init\":{\"random\":{\"seed\":5,\"min\":18446744073709551610,\"max\":18446744073709551615}}},"
			   "{\"name\":\"e\",\"buffer\":\"u64\",\"count\":1,\"init\":{\"fill\":12345678901234567891}}"), &s))
		return;
	launch_init(&l, &s);
	a = launch_buf(&l, "a"), b = launch_buf(&l, "b"), c = launch_buf(&l, "c"), e = launch_buf(&l, "e");
	CHECK_EQ_U64(a[0], ~0ull);
	CHECK_EQ_U64(a[1], 9007199254740993ull);
	CHECK_EQ_U64(a[2], 1000);
	CHECK(b[0] == INT64_MIN && b[1] == -9007199254740995ll);
	for (i = 0; i < 64; i++)
		ok &= c[i] >= 18446744073709551610ull;
	CHECK(ok);
	CHECK_EQ_U64(e[0], 12345678901234567891ull);
	launch_free(&l);
	spec_free(&s);
}

TEST(spec_err_int_above_i64) { want_error(t_, A("{\"name\":\"b\",\"buffer\":\"s64\",\"count\":1,\"init\":{\"fill\":9223372036854775808}}"), "fill value 9223372036854775808 does not fit s64"); }
TEST(spec_err_random_order_u64) { want_error(t_, A("{\"name\":\"b\",\"buffer\":\"u64\",\"count\":1,\"init\":{\"random\":{\"seed\":1,\"min\":18446744073709551615,\"max\":18446744073709551614}}}"), "random min is above max"); }

TEST(spec_scalar_forms)
{
	Spec s;

	if (!load_ok(t_, A("{\"name\":\"a\",\"scalar\":\"s64\",\"value\":-9223372036854775808},"
			   "{\"name\":\"b\",\"scalar\":\"u64\",\"value\":18446744073709551615},"
			   "{\"name\":\"c\",\"scalar\":\"f16\",\"value\":0.1},"
			   "{\"name\":\"d\",\"scalar\":\"f64\",\"value\":\"-inf\"},"
			   "{\"name\":\"e\",\"scalar\":\"s16\",\"value\":-2},"
			   "{\"name\":\"f\",\"scalar\":\"b32\",\"value\":3e0}"), &s))
		return;
	CHECK_EQ_U64(s.args[0].scalar_bits, 0x8000000000000000ull);
	CHECK_EQ_U64(s.args[1].scalar_bits, ~0ull);
	CHECK_EQ_U64(s.args[2].scalar_bits, 0x2e66);
	CHECK(s.args[2].scalar == f16_to_double(0x2e66));
	CHECK_EQ_U64(s.args[3].scalar_bits, 0xfff0000000000000ull);
	CHECK_EQ_U64(s.args[4].scalar_bits, 0xfffe);
	CHECK(s.args[5].type == T_U32 && s.args[5].scalar_bits == 3);
	spec_free(&s);
}

TEST(spec_load_missing)
{
	Spec s;
	FILE *tmp = tmpfile();
	int saved = dup(2), r;

	fflush(stderr);
	dup2(fileno(tmp), 2);
	r = spec_load("/nonexistent/spec.json", &s);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	fclose(tmp);
	CHECK(r == -1);
}

/* Mutated specs never crash (SANITIZE=1 checks memory). */
TEST(spec_fuzz)
{
	static const char alphabet[] = "{}[]\",:0123456789-.e \"nameufsbtrgcklxpv";
	char buf[sizeof saxpy], e[8192];
	u64 st = 7;
	int it, k;

	for (it = 0; it < 2000; it++) {
		Spec s;
		size_t n = sizeof saxpy - 1;
		memcpy(buf, saxpy, sizeof saxpy);
		for (k = 0; k < 1 + it % 3; k++) {
			u64 z = splitmix64(&st);
			buf[z % n] = alphabet[(z >> 32) % (sizeof alphabet - 1)];
		}
		if (spec_parse_capture(buf, &s, e, sizeof e) == 0) {
			Launch l;
			if (s.nargs <= 8) {
				launch_init(&l, &s);
				launch_free(&l);
			}
			spec_free(&s);
		}
	}
	CHECK(1);
}

/* ---- struct arguments (CUB's by-value GridEvenShare, ScaleTransform,
 * ...) and the "buffers" only struct fields point to: parsing, the bytes
 * launch_param() lays out, and one test per error message.  The
 * struct_arg kernel of tests/cub/ runs such a spec in both engines. ---- */

static const char sspec[] =
	"{\"args\": [\n"
	" {\"name\": \"p\", \"buffer\": \"u8\", \"count\": 4},\n"
	" {\"name\": \"es\", \"struct\": 40, \"fields\": [\n"
	"   {\"offset\": 0, \"scalar\": \"s32\", \"value\": -2},\n"
	"   {\"offset\": 4, \"scalar\": \"u16\", \"value\": 65535},\n"
	"   {\"offset\": 6, \"scalar\": \"u8\", \"value\": 7},\n"
	"   {\"offset\": 8, \"pointer\": \"hidden\"},\n"
	"   {\"offset\": 16, \"scalar\": \"f32\", \"value\": 0.1},\n"
	"   {\"offset\": 24, \"pointer\": \"p\"},\n"
	"   {\"offset\": 32, \"scalar\": \"f64\", \"value\": -1.5} ]},\n"
	" {\"name\": \"empty\", \"struct\": 1, \"fields\": []},\n"
	" {\"name\": \"n\", \"scalar\": \"u32\", \"value\": 9},\n"
	" {\"name\": \"pp\", \"pointer\": \"hidden\", \"plus\": 8} ],\n"
	" \"buffers\": [{\"name\": \"hidden\", \"buffer\": \"s32\", \"count\": 3, \"init\": {\"fill\": 5},\n"
	"               \"check\": {\"exact\": true}}] }\n";

TEST(spec_struct_layout)
{
	static const u8 want[40] = {
		0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 7, 0,
		0x22, 0x22, 0, 0, 0, 0, 0, 0,           /* hidden's address */
		0xcd, 0xcc, 0xcc, 0x3d, 0, 0, 0, 0,     /* 0.1f */
		0x11, 0x11, 0, 0, 0, 0, 0, 0,           /* p's address */
		0, 0, 0, 0, 0, 0, 0xf8, 0xbf,           /* -1.5 */
	};
	Spec s;
	Launch l;
	char e[1024];
	u8 out[SPEC_MAX_STRUCT];
	u64 addr[6] = {0x1111, 0, 0, 0, 0, 0x2222};

	if (spec_parse_capture(sspec, &s, e, sizeof e) < 0) {
		FAIL("rejected: %s", e);
		return;
	}
	CHECK(s.nargs == 5 && s.nall == 6);
	CHECK(s.args[1].is_struct && !s.args[1].is_buffer && s.args[1].size == 40 && s.args[1].nfields == 7);
	CHECK(s.args[5].is_buffer && spec_arg_index(&s, "hidden") == 5);
	launch_init(&l, &s);
	CHECK(l.bytes[5] == 12 && ((i32 *)launch_buf(&l, "hidden"))[2] == 5);
	memset(out, 0xaa, sizeof out);
	CHECK(launch_param(&l, 1, addr, out) == 40);
	CHECK(!memcmp(out, want, 40));
	CHECK(launch_param(&l, 0, addr, out) == 8 && out[0] == 0x11 && out[1] == 0x11 && !out[2]);
	CHECK(launch_param(&l, 2, addr, out) == 1 && out[0] == 0);
	CHECK(launch_param(&l, 3, addr, out) == 4 && out[0] == 9 && !out[3]);
	CHECK(launch_param(&l, 4, addr, out) == 8 && out[0] == 0x2a && out[1] == 0x22 && !out[2]);
	CHECK_EQ_U64(launch_field(&l, "es", 0), 0xfffffffe);
	CHECK_EQ_U64(launch_field(&l, "es", 32), 0xbff8000000000000ull);
	/* the hidden buffer is compared like any other */
	{
		Launch w;
		launch_init(&w, &s);
		CHECK(launch_compare(&l, &w, NULL) == 0);
		((i32 *)launch_buf(&w, "hidden"))[1] = 6;
		CHECK(launch_compare(&l, &w, NULL) == 1);
		launch_free(&w);
	}
	launch_free(&l);
	spec_free(&s);
}

#define S(x) "{\"args\":[{\"name\":\"b\",\"buffer\":\"u8\",\"count\":4},{\"name\":\"s\",\"struct\":16," x "}]}"
#define F(x) S("\"fields\":[" x "]")

TEST(spec_struct_errors)
{
	want_error(t_, "{\"args\":[{\"name\":\"s\",\"struct\":0,\"fields\":[]}]}", "struct size must be an integer in [1, 4096]");
	want_error(t_, "{\"args\":[{\"name\":\"s\",\"struct\":4097,\"fields\":[]}]}", "struct size must be an integer");
	want_error(t_, "{\"args\":[{\"name\":\"s\",\"struct\":\"8\",\"fields\":[]}]}", "struct size must be a number");
	want_error(t_, S("\"count\":4"), "unknown key \"count\" in struct argument");
	want_error(t_, S("\"comment\":\"x\""), "needs \"fields\"");
	want_error(t_, S("\"fields\":{}"), "fields must be an array");
	want_error(t_, F("1"), "field must be an object");
	want_error(t_, F("{\"scalar\":\"u8\",\"value\":1}"), "needs an \"offset\"");
	want_error(t_, F("{\"offset\":16,\"scalar\":\"u8\",\"value\":1}"), "offset must be an integer in [0, 15]");
	want_error(t_, F("{\"offset\":0}"), "exactly one of \"scalar\" and \"pointer\"");
	want_error(t_, F("{\"offset\":0,\"scalar\":\"u8\",\"pointer\":\"b\"}"), "exactly one of");
	want_error(t_, F("{\"offset\":0,\"scalar\":\"u8\"}"), "needs a \"value\"");
	want_error(t_, F("{\"offset\":0,\"scalar\":\"u8\",\"value\":256}"), "value 256 does not fit u8");
	want_error(t_, F("{\"offset\":0,\"scalar\":\"x32\",\"value\":1}"), "unknown element type");
	want_error(t_, F("{\"offset\":0,\"pointer\":\"b\",\"value\":1}"), "takes no \"value\"");
	want_error(t_, F("{\"offset\":0,\"pointer\":3}"), "pointer must be a string");
	want_error(t_, F("{\"offset\":0,\"scalar\":\"u8\",\"value\":1,\"size\":1}"), "unknown key \"size\" in struct field");
	want_error(t_, F("{\"offset\":2,\"scalar\":\"u32\",\"value\":1}"), "not aligned to its size (4 bytes)");
	want_error(t_, F("{\"offset\":12,\"scalar\":\"u64\",\"value\":1}"), "not aligned");
	want_error(t_, "{\"args\":[{\"name\":\"s\",\"struct\":12,\"fields\":[{\"offset\":8,\"scalar\":\"u64\",\"value\":1}]}]}",
		   "ends past the struct's 12 bytes");
	want_error(t_, F("{\"offset\":0,\"scalar\":\"u32\",\"value\":1},{\"offset\":2,\"scalar\":\"u16\",\"value\":1}"),
		   "field at offset 2 overlaps the field at offset 0");
	want_error(t_, F("{\"offset\":8,\"pointer\":\"nope\"}"), "pointer field names \"nope\", which is no argument");
	want_error(t_, F("{\"offset\":8,\"pointer\":\"s\"}"), "\"s\", which is not a buffer");
	want_error(t_, "{\"args\":[{\"name\":\"s\",\"struct\":2,\"fields\":[{\"offset\":0,\"scalar\":\"u8\",\"value\":1},"
		   "{\"offset\":1,\"scalar\":\"u8\",\"value\":1},{\"offset\":1,\"scalar\":\"u8\",\"value\":1}]}]}",
		   "more fields than bytes");
	want_error(t_, "{\"args\":[{\"name\":\"b\",\"struct\":4,\"buffer\":\"u8\",\"count\":1}]}", "exactly one of");
	want_error(t_, "{\"args\":[],\"buffers\":{}}", "buffers must be an array");
	want_error(t_, "{\"args\":[{\"name\":\"p\",\"pointer\":\"q\"}]}", "which is no argument");
	want_error(t_, "{\"args\":[{\"name\":\"p\",\"pointer\":1}]}", "pointer must be a string");
	want_error(t_, "{\"args\":[{\"name\":\"p\",\"pointer\":\"b\",\"plus\":5},{\"name\":\"b\",\"buffer\":\"u8\",\"count\":4}]}",
		   "\"plus\" 5 points past the end of buffer \"b\"");
	want_error(t_, "{\"args\":[{\"name\":\"p\",\"pointer\":\"b\",\"count\":5}]}", "unknown key \"count\" in pointer argument");
	want_error(t_, F("{\"offset\":0,\"scalar\":\"u8\",\"value\":1,\"plus\":1}"), "\"plus\" belongs to a pointer field");
	want_error(t_, "{\"args\":[],\"buffers\":[{\"name\":\"x\",\"scalar\":\"u8\",\"value\":1}]}",
		   "\"x\": the spec's \"buffers\" hold buffers only");
	want_error(t_, "{\"args\":[{\"name\":\"x\",\"scalar\":\"u8\",\"value\":1}],\"buffers\":[{\"name\":\"x\",\"buffer\":\"u8\",\"count\":1}]}",
		   "duplicate argument name \"x\"");
}
