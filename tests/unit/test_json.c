/* test_json.c -- the strict JSON parser: values, escapes, numbers, and
 * one test per error message; a short random-mutation fuzz. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test.h"
#include "util/json.h"

/* Parse text; capture stderr into err (NUL-terminated). */
static Json *
parse(Arena *a, const char *text, char *err, size_t nerr)
{
	Src src = {"t.json", text, strlen(text)};
	TestStderr c;
	Json *j;

	test_stderr_begin(&c);
	j = json_parse(a, &src);
	test_stderr_end(&c, err, nerr);
	return j;
}

TEST(json_values)
{
	Arena a = {0};
	char e[512];
	Json *j = parse(&a, " {\"a\": [1, -2.5e3, true, false, null, \"x\\n\\u00e9\\ud83d\\ude00\"], \"b\": {}} ",
			e, sizeof e);
	Json *arr;
	i64 v;

	CHECK(j && j->kind == J_OBJ && j->n == 2);
	arr = json_get(j, "a");
	CHECK(arr && arr->kind == J_ARR && arr->n == 6);
	if (!arr || arr->n != 6)
		return;
	CHECK(json_i64(arr->elem[0], &v) && v == 1);
	CHECK(arr->elem[1]->num == -2500.0);
	CHECK_STR(arr->elem[1]->text, "-2.5e3");
	CHECK(json_i64(arr->elem[1], &v) && v == -2500);
	CHECK(arr->elem[2]->kind == J_BOOL && arr->elem[2]->b == 1);
	CHECK(arr->elem[3]->kind == J_BOOL && arr->elem[3]->b == 0);
	CHECK(arr->elem[4]->kind == J_NULL);
	CHECK_STR(arr->elem[5]->text, "x\n\xc3\xa9\xf0\x9f\x98\x80");
	CHECK(json_get(j, "b")->kind == J_OBJ && json_get(j, "b")->n == 0);
	CHECK(json_get(j, "c") == NULL);
	arena_free(&a);
}

TEST(json_integers)
{
	Arena a = {0};
	char e[512];
	Json *j = parse(&a, "[18446744073709551615, -9223372036854775808, 1.5, 0.5e1, -1]", e, sizeof e);
	u64 u;
	i64 i;

	CHECK(j && j->n == 5);
	if (!j)
		return;
	CHECK(json_u64(j->elem[0], &u) && u == ~(u64)0);
	CHECK(!json_i64(j->elem[0], &i));
	CHECK(json_i64(j->elem[1], &i) && i == INT64_MIN);
	CHECK(!json_i64(j->elem[2], &i));
	CHECK(json_i64(j->elem[3], &i) && i == 5);
	CHECK(!json_u64(j->elem[4], &u));
	arena_free(&a);
}

static void
want_error(TestState *t_, const char *text, const char *msg, const char *where)
{
	Arena a = {0};
	char e[1024];
	Json *j = parse(&a, text, e, sizeof e);

	if (j)
		FAIL("parsed %s", text);
	if (!strstr(e, msg))
		FAIL("%s: message \"%s\" not in \"%s\"", text, msg, e);
	if (!strstr(e, where))
		FAIL("%s: position \"%s\" not in \"%s\"", text, where, e);
	arena_free(&a);
}

TEST(json_err_unexpected_char) { want_error(t_, "[1, @]", "unexpected character", "t.json:1:5: error:"); }
TEST(json_err_end) { want_error(t_, "[1,\n", "unexpected end of input", "t.json:2:1:"); }
TEST(json_err_trailing_comma) { want_error(t_, "[1,]", "unexpected character", ":1:4:"); }
TEST(json_err_array_sep) { want_error(t_, "[1 2]", "expected ',' or ']'", ":1:4:"); }
TEST(json_err_object_sep) { want_error(t_, "{\"a\":1 \"b\":2}", "expected ',' or '}'", ":1:8:"); }
TEST(json_err_key) { want_error(t_, "{a:1}", "expected a string key", ":1:2:"); }
TEST(json_err_colon) { want_error(t_, "{\"a\" 1}", "expected ':'", ":1:6:"); }
TEST(json_err_dup_key) { want_error(t_, "{\"a\":1,\"a\":2}", "duplicate key \"a\"", ":1:8:"); }
TEST(json_err_nul_key) { want_error(t_, "{\"a\\u0000\":1}", "NUL character in object key", ":1:2:"); }
TEST(json_err_unterminated) { want_error(t_, "\"abc", "unterminated string", ":1:1:"); }
TEST(json_err_control) { want_error(t_, "\"a\tb\"", "control character", ":1:3:"); }
TEST(json_err_escape) { want_error(t_, "\"\\x\"", "bad escape", ":1:2:"); }
TEST(json_err_uescape) { want_error(t_, "\"\\u12g4\"", "bad \\u escape", ":1:2:"); }
TEST(json_err_low_surrogate) { want_error(t_, "\"\\udc00\"", "lone low surrogate", ":1:2:"); }
TEST(json_err_high_surrogate) { want_error(t_, "\"\\ud800x\"", "high surrogate", ":1:2:"); }
TEST(json_err_leading_zero) { want_error(t_, "012", "leading zero", ":1:1:"); }
TEST(json_err_number) { want_error(t_, "-x", "bad number", ":1:1:"); }
TEST(json_err_fraction) { want_error(t_, "1.", "digit expected after '.'", ":1:1:"); }
TEST(json_err_exponent) { want_error(t_, "1e+", "digit expected in exponent", ":1:1:"); }
TEST(json_err_range) { want_error(t_, "1e999", "number out of range", ":1:1:"); }
TEST(json_err_literal) { want_error(t_, "tru", "unexpected character", ":1:1:"); }
TEST(json_err_after) { want_error(t_, "{} x", "unexpected text after", ":1:4:"); }
TEST(json_err_utf8) { want_error(t_, "[\"ok\xc3\xa9\", \"\xc3(\"]", "invalid UTF-8", ":1:11:"); }
TEST(json_err_utf8_overlong) { want_error(t_, "\"\xc0\xaf\"", "invalid UTF-8", ":1:2:"); }
TEST(json_err_utf8_surrogate) { want_error(t_, "\"\xed\xa0\x80\"", "invalid UTF-8", ":1:2:"); }
TEST(json_err_utf8_truncated) { want_error(t_, "\"\xf0\x9f\x98\"", "invalid UTF-8", ":1:2:"); }

TEST(json_utf8_ok)
{
	Arena a = {0};
	char e[256];
	Json *j = parse(&a, "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"", e, sizeof e);

	CHECK(j && j->len == 9);
	arena_free(&a);
}

TEST(json_err_nan) { want_error(t_, "NaN", "unexpected character", ":1:1:"); }

TEST(json_err_depth)
{
	char s[2 * JSON_MAXDEPTH + 8];
	int i;

	for (i = 0; i <= JSON_MAXDEPTH; i++)
		s[i] = '[';
	s[i] = 0;
	want_error(t_, s, "nested too deeply", ":1:");
}

TEST(json_err_caret)
{
	Arena a = {0};
	char e[1024];

	parse(&a, "{\n  \"k\": ?\n}", e, sizeof e);
	CHECK(strstr(e, "t.json:2:8: error:") != NULL);
	CHECK(strstr(e, "\n  \"k\": ?\n       ^\n") != NULL);
	arena_free(&a);
}

/* Random byte mutations of a valid document never crash (run under
 * SANITIZE=1 to catch out-of-bounds reads). */
TEST(json_fuzz)
{
	static const char base[] = "{\"kernel\": \"k\", \"a\": [1, -2.5e-3, \"s\\u00e9\\n\", true, null, {\"x\": [[]]}]}";
	static const char alphabet[] = "{}[]\",:\\u0123456789eE+-.tfnrl \t\nabx";
	char buf[sizeof base + 1], e[4096];
	u64 st = 42;
	int it, k;

	for (it = 0; it < 3000; it++) {
		Arena a = {0};
		size_t n = sizeof base - 1;
		memcpy(buf, base, sizeof base);
		for (k = 0; k < 1 + it % 4; k++) {
			st = st * 6364136223846793005ull + 1442695040888963407ull;
			buf[(st >> 33) % n] = alphabet[(st >> 13) % (sizeof alphabet - 1)];
		}
		st = st * 6364136223846793005ull + 1442695040888963407ull;
		if (it % 3 == 0)
			n = (st >> 33) % n;  /* truncations */
		buf[n] = 0;
		parse(&a, buf, e, sizeof e);
		arena_free(&a);
	}
	CHECK(1);
}
