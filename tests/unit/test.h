/* test.h -- a tiny unit-test harness.
 *
 *   TEST(name) { CHECK(x == 1); CHECK_EQ_U64(a, b); if (!have) SKIP("why"); }
 *
 * Tests register themselves at load time; tests/unit/main.c runs them and
 * prints one line per test: "PASS name", "FAIL name", "SKIP name: why".
 * Paths in tests are relative to the repository root (make check runs there). */
#ifndef OA_TEST_H
#define OA_TEST_H

#include <inttypes.h>
#include <stdio.h>

typedef struct {
	int failed;
	const char *skip;
} TestState;

void test_register(const char *name, void (*fn)(TestState *));
void test_fail(TestState *t, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#define TEST(name)                                                        \
	static void test_##name(TestState *t_);                           \
	__attribute__((constructor)) static void reg_##name(void)         \
	{                                                                 \
		test_register(#name, test_##name);                        \
	}                                                                 \
	static void test_##name(TestState *t_)

#define CHECK(c)                                                              \
	do {                                                                  \
		if (!(c))                                                     \
			test_fail(t_, __FILE__, __LINE__, "CHECK(%s)", #c);   \
	} while (0)
#define CHECK_EQ_U64(a, b)                                                          \
	do {                                                                        \
		uint64_t a_ = (a), b_ = (b);                                        \
		if (a_ != b_)                                                       \
			test_fail(t_, __FILE__, __LINE__, "%s == %s: 0x%" PRIx64    \
				  " != 0x%" PRIx64, #a, #b, a_, b_);                \
	} while (0)
#define CHECK_STR(a, b)                                                             \
	do {                                                                        \
		const char *a_ = (a), *b_ = (b);                                    \
		if (!a_ || !b_ || strcmp(a_, b_))                                   \
			test_fail(t_, __FILE__, __LINE__, "%s == %s: \"%s\" != \"%s\"", \
				  #a, #b, a_ ? a_ : "(null)", b_ ? b_ : "(null)");  \
	} while (0)
/* Capture what the code under test writes to stderr (error messages):
 * between test_stderr_begin and test_stderr_end, which puts it in err
 * (NUL-terminated, at most nerr - 1 bytes). */
typedef struct {
	FILE *tmp;
	int saved;
} TestStderr;
void test_stderr_begin(TestStderr *c);
void test_stderr_end(TestStderr *c, char *err, size_t nerr);

#define FAIL(...) test_fail(t_, __FILE__, __LINE__, __VA_ARGS__)
#define SKIP(why)               \
	do {                    \
		t_->skip = why; \
		return;         \
	} while (0)

#endif
