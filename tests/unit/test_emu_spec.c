/* test_emu_spec.c -- struct arguments of launch specifications (CUB's
 * by-value GridEvenShare, ScaleTransform, ...) and the "buffers" only
 * struct fields point to: parsing, the bytes launch_param() lays out,
 * and one test per error message.  The struct_arg kernel of tests/cub/
 * runs such a spec in both engines. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test.h"
#include "run/spec.h"

static int
parse_quiet(const char *text, Spec *s, char *err, size_t nerr)
{
	FILE *tmp = tmpfile();
	int saved = dup(2), r;
	size_t n;

	fflush(stderr);
	dup2(fileno(tmp), 2);
	r = spec_parse("s.json", text, strlen(text), s);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	n = fread(err, 1, nerr - 1, tmp);
	err[n] = 0;
	fclose(tmp);
	return r;
}

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

	if (parse_quiet(sspec, &s, e, sizeof e) < 0) {
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

static void
want_error(TestState *t_, const char *text, const char *msg)
{
	Spec s;
	char e[2048];

	if (parse_quiet(text, &s, e, sizeof e) == 0) {
		FAIL("accepted: %s", text);
		spec_free(&s);
		return;
	}
	if (!strstr(e, msg))
		FAIL("message \"%s\" not in \"%s\"", msg, e);
	if (!strstr(e, "s.json:1:"))
		FAIL("no position in \"%s\"", e);
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
