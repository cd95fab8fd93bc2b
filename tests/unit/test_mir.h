/* test_mir.h -- helpers for unit tests that build machine IR by hand
 * (test_flow.c, test_ra.c). */
#ifndef TEST_MIR_H
#define TEST_MIR_H

#include <string.h>

#include "codegen/mir.h"

/* Start a new block without successors and append to it. */
static inline void
block(MFunc *f)
{
	MBlock b = {0};
	b.succ[0] = b.succ[1] = -1;
	vec_push(&f->b, b);
	f->cur = (int)f->b.n - 1;
}

/* Instructions whose text starts with prefix. */
static inline int
count_text(const MFunc *f, const char *prefix)
{
	size_t b, i;
	int n = 0;
	for (b = 0; b < f->b.n; b++)
		for (i = 0; i < f->b.v[b].ins.n; i++)
			n += !strncmp(f->b.v[b].ins.v[i].text, prefix, strlen(prefix));
	return n;
}

#endif
