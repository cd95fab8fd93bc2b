/* test_latency.c -- the generator's need and maxneed of every row (what
 * the hazard decoder takes from the table) against lat_need_row entry by
 * entry and the row's exceptions, in both tables. */
#include "test.h"
#include "codegen/latency.h"

static int
row_agrees(const LatRow *r)
{
	int f, c, mx = r->maxexc;

	for (f = 0; f < LF_N; f++)
		for (c = 0; c < LC_NCAT; c++) {
			if (r->need[f][c] != lat_need_row(r, f, c, 1))
				return 0;
			mx = MAX(mx, r->need[f][c]);
		}
	return r->maxneed == mx;
}

TEST(lat_row_need)
{
	const LatRow *tabs[] = {lat_rows_sm90, lat_rows_sm80};
	size_t t, i;

	for (t = 0; t < NELEM(tabs); t++)
		for (i = 0; tabs[t][i].cls; i++)
			CHECK(row_agrees(&tabs[t][i]));
}

/* The generated indexes (tools/mine-latency hashes as latency.c does)
   find every row and every opcode. */
TEST(lat_tables_indexed)
{
	CHECK(lat_tables_indexed());
}

/* The generator's maxexc is the largest exception of each row (the hazard
   decoder keeps a producer tracked that long). */
TEST(lat_row_maxexc)
{
	const LatRow *tabs[] = {lat_rows_sm90, lat_rows_sm80};
	size_t t, i;
	int k, mx, rows = 0;

	for (t = 0; t < NELEM(tabs); t++)
		for (i = 0; tabs[t][i].cls; i++) {
			for (k = 0, mx = 0; k < tabs[t][i].nexc; k++)
				mx = MAX(mx, tabs[t][i].exc[k].lat);
			CHECK(tabs[t][i].maxexc == mx);
			rows += mx > 0;
		}
	CHECK(rows > 0);
}

/* A consumer the decoder does not know has no class: no exception (emu
 * --timing crashed on ptxas's UIADD3.64 before the emulator refused it). */
TEST(lat_exc_no_consumer_class)
{
	size_t i;

	for (i = 0; lat_rows_sm90[i].cls; i++)
		CHECK(lat_exc_in(&lat_rows_sm90[i], LF_R, LC_ALU, NULL) == -1);
}
