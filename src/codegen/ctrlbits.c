/* ctrlbits.c -- the control-bit assigner.  Start from neutral bits (stall
 * 1 or the class minimum, no yield, no scoreboards), give every variable-
 * latency producer of a register a write scoreboard and every late reader
 * a read scoreboard (round robin over the six, leaving alone one that a
 * DEPBAR in the code names), then let the hazard data flow add the wait
 * bits and raise the stalls each hazard needs, until nothing changes.
 * Mode 0 uses LAT_SAFE for every fixed latency, mode 1 the mined tables. */
#include <stdlib.h>
#include <string.h>

#include "codegen/ctrlbits.h"
#include "codegen/hazard.h"

enum { MAX_ROUNDS = 200 };

static int
writes_reg(const HIns *x, int r)
{
	int k;

	for (k = 0; k < x->nwr; k++)
		if (r >= x->wr[k].s && r < x->wr[k].s + x->wr[k].n)
			return 1;
	return 0;
}

/* Operand reuse: instruction i keeps slot k's value for i+1 when i+1 (the
   next instruction, same block, no wait) reads the same register in the
   same slot and i does not write it; never with the yield bit 0. */
/* The word with these flags still decodes and shows as many ".reuse". */
static int
reuse_ok(const Arch *a, Word w, Ctrl c, size_t i, Buf *b)
{
	const char *p;
	int n = 0, want = (c.reuse & 1) + (c.reuse >> 1 & 1) + (c.reuse >> 2 & 1);

	b->n = 0;
	if (b->s)
		b->s[0] = 0;
	if (isa_print(a, ctrl_set(w, c), (u64)i * 16, NULL, b) < 0 || !b->s)
		return 0;
	for (p = b->s; (p = strstr(p, ".reuse")); p++)
		n++;
	return n == want;
}

static void
set_reuse(const Arch *a, const Word *code, HIns *ins, size_t n, const u8 *lead)
{
	size_t i;
	int k, r;
	Buf b = {0};

	for (i = 0; i + 1 < n; i++) {
		HIns *x = &ins[i], *y = &ins[i + 1];
		if (lead[i + 1] || x->kind != HK_NORMAL || x->never || y->never || x->cond != y->cond ||
		    x->c.yield == 0 || x->c.stall > 11 || y->c.wait)
			continue;
		/* src: 0xff where the slot holds no plain register (hz_decode.c) */
		for (k = 0; k < 3; k++)
			if ((r = x->src[k]) != 0xff && r == y->src[k] && !writes_reg(x, r)) {
				Ctrl c = x->c;
				c.reuse |= (u8)(1u << k);
				if (reuse_ok(a, code[i], c, i, &b))
					x->c = c;
			}
	}
	buf_free(&b);
}

static void
initial(const Arch *a, HIns *ins, size_t n)
{
	size_t i;
	int rr = 0, depsb = -1, k, ldgdepbar = hz_opid("LDGDEPBAR");

	for (i = 0; i < n; i++)
		if (ins[i].kind == HK_DEPBAR && ins[i].sb < 6)
			depsb = ins[i].sb;
	for (i = 0; i < n; i++) {
		HIns *x = &ins[i];
		Ctrl c = {0};
		c.stall = x->minst;
		c.yield = 1;
		c.wrsb = c.rdsb = 7;
		if (!x->never) {
			if (x->opid == ldgdepbar)
				c.wrsb = (u8)(depsb >= 0 ? depsb : 0);
			else if (x->lat.var && x->nwr > 0) {
				for (k = 0; k < 6 && (rr % 6) == depsb; k++)
					rr++;
				c.wrsb = (u8)(rr++ % 6);
			}
			if ((x->lat.rd_late || x->lat.var) && x->nrd > x->cond) {
				for (k = 0; k < 6 && (rr % 6) == depsb; k++)
					rr++;
				c.rdsb = (u8)(rr++ % 6);
			}
		}
		x->c = c;
	}
}

int
ctrl_assign(const Arch *a, Word *code, size_t n, int mode)
{
	Arena ar = {0};
	HIns *ins = xmalloc((n + 1) * sizeof *ins);  /* hz_decode fills [0, n) */
	size_t bad;
	int rc = -1;

	if (hz_decode(a, code, n, ins, &ar, &bad) == 0)
		rc = ctrl_assign_decoded(a, code, n, ins, mode);
	free(ins);
	arena_free(&ar);
	return rc;
}

int
ctrl_assign_decoded(const Arch *a, Word *code, size_t n, HIns *ins, int mode)
{
	size_t i;
	int round, r = 0;
	Hz *h;

	initial(a, ins, n);
	/* mode 1: the mined tables with the GPU floors (hz_decode.c) */
	h = hz_new(a, ins, n, mode ? HN_FLOOR : HN_SAFE);
	for (round = 0; round < MAX_ROUNDS; round++) {
		hz_solve(h);
		if (!hz_solved_fixes(h)) {  /* a fix pass would find nothing to do */
			r = 0;
			break;
		}
		r = hz_fix(h);
		if (r <= 0)
			break;
	}
	for (i = 0; i < n; i++)
		if (ins[i].c.stall > 11)
			ins[i].c.yield = 0;  /* stalls above 11 are only legal with the yield bit 0 */
	if (mode == CTRL_REUSE) {
		u8 *lead = xcalloc(n + 1, 1);
		for (i = 0; i < n; i++)
			if (ins[i].target >= 0)
				lead[ins[i].target] = 1;
		set_reuse(a, code, ins, n, lead);
		free(lead);
	}
	hz_free(h);
	for (i = 0; i < n; i++)
		code[i] = ctrl_set(code[i], ins[i].c);
	return r == -2 ? -2 : 0;
}
