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

static void
initial(const Arch *a, HIns *ins, size_t n)
{
	size_t i;
	int rr = 0, depsb = -1, k;

	for (i = 0; i < n; i++)
		if (ins[i].kind == HK_DEPBAR && ins[i].sb < 6)
			depsb = ins[i].sb;
	for (i = 0; i < n; i++) {
		HIns *x = &ins[i];
		Ctrl c = {0};
		c.stall = (u8)lat_min_stall(a, &x->in);
		c.yield = 1;
		c.wrsb = c.rdsb = 7;
		if (!x->never) {
			if (!strcmp(x->in.op, "LDGDEPBAR"))
				c.wrsb = (u8)(depsb >= 0 ? depsb : 0);
			else if (x->lat.var && x->nwr > 0) {
				for (k = 0; k < 6 && (rr % 6) == depsb; k++)
					rr++;
				c.wrsb = (u8)(rr++ % 6);
			}
			if ((x->lat.rd_late || x->lat.var) && x->nrd > (x->in.guard >= 0 && x->in.guard != 7)) {
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
	HIns *ins = xcalloc(n + 1, sizeof *ins);
	size_t bad, i;
	int rc = -1, round, r = 0;
	Hz *h;

	if (hz_decode(a, code, n, ins, &ar, &bad) < 0)
		goto out;
	initial(a, ins, n);
	h = hz_new(a, ins, n, mode);
	for (round = 0; round < MAX_ROUNDS; round++) {
		hz_solve(h);
		r = hz_fix(h);
		if (r <= 0)
			break;
	}
	hz_free(h);
	for (i = 0; i < n; i++) {
		Ctrl c = ins[i].c;
		if (c.stall > 11)
			c.yield = 0;  /* stalls above 11 are only legal with the yield bit 0 */
		c.reuse = 0;
		code[i] = ctrl_set(code[i], c);
	}
	rc = r == -2 ? -2 : 0;
out:
	free(ins);
	arena_free(&ar);
	return rc;
}
