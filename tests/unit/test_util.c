/* test_util.c -- arenas, buffers, vectors. */
#include <string.h>

#include "test.h"
#include "util/util.h"

TEST(util_arena)
{
	Arena a = {0};
	char *s = arena_strdup(&a, "hello");
	int i;

	CHECK_STR(s, "hello");
	for (i = 0; i < 1000; i++) {
		unsigned char *p = arena_alloc(&a, 1000);

		CHECK(((uintptr_t)p & 15) == 0);
		CHECK(p[999] == 0);
	}
	arena_free(&a);
	CHECK(a.head == NULL);
}

TEST(util_buf_vec)
{
	Buf b = {0};
	VEC(int) v = {0};
	int i;

	buf_printf(&b, "%d-%s", 42, "x");
	buf_putc(&b, '!');
	CHECK_STR(b.s, "42-x!");
	CHECK(b.n == 5);
	buf_free(&b);
	for (i = 0; i < 100; i++)
		vec_push(&v, i * i);
	CHECK(v.n == 100 && v.v[99] == 99 * 99);
	vec_free(&v);
}
