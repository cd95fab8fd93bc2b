/* cmd_divconst.c -- openassembler divconst: print the SASS plan for x / d
 * or x % d by a constant (src/codegen/divconst.h), or run it on values.
 *
 *   openassembler divconst [--type u32|s32|u64|s64] [--rem] [--eval X...] D...
 *
 * tools/prove-divconst reads this output and proves it with z3. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "codegen/divconst.h"

static const char *mname[] = { "zero", "one", "pow2", "compare", "mul", "muladd", "smul" };

static int
num(const char *s, u64 *v)
{
	char *end;

	errno = 0;
	if (*s == '-')
		*v = (u64)strtoll(s, &end, 0);
	else
		*v = strtoull(s, &end, 0);
	if (!*s || *end || errno) {
		fprintf(stderr, "openassembler divconst: error: bad number '%s'\n", s);
		return -1;
	}
	return 0;
}

int
cmd_divconst(int argc, char **argv)
{
	int bits = 32, sgn = 0, rem = 0, i, j, neval = 0, nd = 0;
	u64 ev[64], ds[256];

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--type") && i + 1 < argc) {
			const char *t = argv[++i];
			if (strlen(t) != 3 || (t[0] != 'u' && t[0] != 's') || (strcmp(t + 1, "32") && strcmp(t + 1, "64"))) {
				fprintf(stderr, "openassembler divconst: error: --type is u32, s32, u64 or s64\n");
				return 1;
			}
			sgn = t[0] == 's';
			bits = atoi(t + 1);
		} else if (!strcmp(argv[i], "--rem")) {
			rem = 1;
		} else if (!strcmp(argv[i], "--eval") && i + 1 < argc) {
			if (neval == (int)NELEM(ev) || num(argv[++i], &ev[neval++]))
				return 1;
		} else if (argv[i][0] == '-' && argv[i][1] && (argv[i][1] < '0' || argv[i][1] > '9')) {
			fprintf(stderr, "usage: openassembler divconst [--type u32|s32|u64|s64] [--rem] [--eval X]... D...\n");
			return 1;
		} else {
			if (nd == (int)NELEM(ds) || num(argv[i], &ds[nd++]))
				return 1;
		}
	}
	if (!nd) {
		fprintf(stderr, "openassembler divconst: error: no divisor\n");
		return 1;
	}
	for (i = 0; i < nd; i++) {
		DivPlan p;
		Buf b = { 0 };
		int n = divconst_plan(&p, ds[i], bits, sgn, rem);
		u64 d = p.d;
		printf("# %s%d %s %lld: %d instructions, method %s", sgn ? "s" : "u", bits, rem ? "%" : "/",
		       sgn ? (long long)(bits == 32 ? (i64)(i32)(u32)d : (i64)d) : (long long)d, n, mname[p.method]);
		if (p.method >= DM_MUL)
			printf(", magic 0x%llx, shift %d, preshift %d", (unsigned long long)p.magic, p.shift,
			       p.preshift);
		printf("\n");
		divconst_print(&p, &b);
		fputs(b.s, stdout);
		buf_free(&b);
		for (j = 0; j < neval; j++)
			printf("eval 0x%llx -> 0x%llx\n", (unsigned long long)ev[j],
			       (unsigned long long)divconst_eval(&p, ev[j]));
	}
	return 0;
}
