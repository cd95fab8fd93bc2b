/* test_ptx_hash.c -- the generated name tables (src/ptx/tables_hash.h,
 * tools/gen-ptx-hash) answer every lookup as a hash map built from the
 * .def names at run time would: each opcode, modifier and special register
 * name, and near misses (a byte more, a byte less, one byte changed). */
#include <stdlib.h>
#include <string.h>

#include "ptx/ptxint.h"
#include "test.h"

typedef int (*Lookup)(const char *s, size_t n);

static int
op_lookup(const char *s, size_t n)
{
	PtxOp op = ptx_op_lookup(s, n);
	return op == PTX_OP_NONE ? -1 : (int)op;
}

static const char *
op_name(int i)
{
	return ptx_op_name((PtxOp)i);
}

static const char *
mod_name(int i)
{
	return ptx_mod_name((PtxModId)i);
}

static const char *
sreg_name(int i)
{
	return ptx_sreg_name((PtxSreg)i);
}

/* Returns the number of disagreements between lookup and a map built
 * with hm_put (later names win, as the old start-up tables did). */
static int
agree(int count, const char *(*name)(int), Lookup lookup)
{
	HMap m = {0};
	char t[128];
	int i, k, bad = 0;

	for (i = 1; i < count; i++)
		hm_put(&m, name(i), strlen(name(i)), i);
	for (i = 0; i < count; i++) {
		const char *s = name(i);
		size_t n = strlen(s);
		if (n + 2 > sizeof t)
			continue;
		bad += lookup(s, n) != hm_get(&m, s, n);
		memcpy(t, s, n);
		t[n] = 'x';
		bad += lookup(t, n + 1) != hm_get(&m, t, n + 1);
		if (n)
			bad += lookup(t, n - 1) != hm_get(&m, t, n - 1);
		for (k = 0; k < (int)n; k++) {
			memcpy(t, s, n);
			t[k] ^= 1;
			bad += lookup(t, n) != hm_get(&m, t, n);
		}
	}
	bad += lookup("", 0) != hm_get(&m, "", 0);
	hm_free(&m);
	return bad;
}

TEST(ptx_hash_ops)
{
	CHECK(agree(PTX_NOPS, op_name, op_lookup) == 0);
	CHECK(ptx_op_lookup("add", 3) == PTX_OP_add);
}

TEST(ptx_hash_mods)
{
	CHECK(agree(PTX_NMODS, mod_name, ptx_mod_lookup) == 0);
	CHECK(ptx_mod_lookup(".u32", 4) == PTX_M_u32);
}

TEST(ptx_hash_sregs)
{
	CHECK(agree(PTX_NSREGS, sreg_name, ptx_sreg_lookup) == 0);
	CHECK(ptx_sreg_lookup("%tid", 4) == PTX_SR_tid);
}
