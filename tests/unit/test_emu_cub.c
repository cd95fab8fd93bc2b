/* test_emu_cub.c -- CUB device code (tests/cub/): block-level primitives
 * in our own kernels and CUB's own device-level kernels, ptxas's cubins
 * for sm_90 and sm_80 in the SASS emulator and the same PTX in the PTX
 * interpreter, both checked against plain C (tests/cub/NAME/ref.c).
 *
 * A test is one launch (NAME/spec.json) or a sequence of launches
 * (NAME/steps.ARCH: one spec file a line, run in order): a buffer of a
 * later step named like a buffer of an earlier step starts with that
 * buffer's final contents (temporary storage passed between the
 * launches of one device algorithm); the last step's checked buffers are
 * compared with the reference run on that step's initial inputs.
 * Where the built-in decoder cannot run a kernel yet and oracle/nvdisasm
 * is installed, it is rerun with the oracle decoding. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test.h"
#include "cubin/cubin.h"
#include "emu/emu.h"
#include "ptx/interp.h"
#include "ptx/ptx.h"
#include "../cub/refs.c"

#define MAXSTEP 8
#define ORACLE "oracle/nvdisasm"

typedef struct {
	Spec s[MAXSTEP];
	int n;
} Steps;

static int
load_steps(const char *name, const char *arch, Steps *st)
{
	char path[512], line[256];
	FILE *f;

	st->n = 0;
	snprintf(path, sizeof path, "tests/cub/%s/steps.%s", name, arch);
	if (!(f = fopen(path, "r"))) {
		snprintf(path, sizeof path, "tests/cub/%s/spec.json", name);
		if (spec_load(path, &st->s[0]) < 0)
			return -1;
		st->n = 1;
		return 0;
	}
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\r\n")] = 0;
		if (!line[0])
			continue;
		snprintf(path, sizeof path, "tests/cub/%s/%s", name, line);
		if (st->n == MAXSTEP || spec_load(path, &st->s[st->n]) < 0)
			break;
		st->n++;
	}
	fclose(f);
	return st->n ? 0 : -1;
}

/* Copy buffers of earlier launches into same-named buffers of l. */
static void
carry(Launch *prev, int nprev, Launch *l)
{
	size_t i, j;
	int k;

	for (i = 0; i < l->spec->nall; i++) {
		if (!l->spec->args[i].is_buffer)
			continue;
		for (k = 0; k < nprev; k++)
			for (j = 0; j < prev[k].spec->nall; j++)
				if (prev[k].spec->args[j].is_buffer &&
				    !strcmp(prev[k].spec->args[j].name, l->spec->args[i].name))
					memcpy(l->data[i], prev[k].data[j], MIN(l->bytes[i], prev[k].bytes[j]));
	}
}

/* Run every step (emulator: cubin set; interpreter: m set); EMU_OK and
 * *nbad, or the failing step's outcome. */
static int
run_steps(Steps *st, const CubRef *r, const Cubin *c, const char *path, PtxModule *m,
	  const char *oracle, size_t *nbad)
{
	Launch got[MAXSTEP], want;
	EmuOpts o = {0};
	int k, rc = EMU_OK;

	o.quiet = 1;
	o.oracle = oracle;
	o.max_steps = 100000000;
	for (k = 0; k < st->n && rc == EMU_OK; k++) {
		launch_init(&got[k], &st->s[k]);
		carry(got, k, &got[k]);
		if (c)
			rc = emu_run(c, path, NULL, &got[k], &o);
		else if (interp_run(m, NULL, &got[k], NULL) < 0)
			rc = EMU_ERROR;
	}
	/* k launches are initialised */
	if (rc == EMU_OK) {
		launch_init(&want, &st->s[st->n - 1]);
		r->ref(&want);
		*nbad = launch_compare(&got[st->n - 1], &want, stderr);
		launch_free(&want);
	}
	while (k-- > 0)
		launch_free(&got[k]);
	return rc;
}

static int
run_emu(Steps *st, const CubRef *r, const char *arch, const char *oracle, size_t *nbad)
{
	char path[256];
	Cubin c;
	u8 *data;
	size_t n;
	int rc = EMU_ERROR;

	snprintf(path, sizeof path, "tests/cub/%s/kernel.%s.cubin", r->name, arch);
	if (!(data = (u8 *)read_file(path, &n)))
		return EMU_ERROR;
	if (cubin_read(&c, path, data, n) == 0)
		rc = run_steps(st, r, &c, path, NULL, oracle, nbad);
	cubin_free(&c);
	free(data);
	return rc;
}

static int
run_interp(Steps *st, const CubRef *r, const char *arch, size_t *nbad)
{
	char path[256], *text;
	PtxModule *m;
	size_t n;
	int rc = EMU_ERROR;

	snprintf(path, sizeof path, "tests/cub/%s/kernel.%s.ptx", r->name, arch);
	if (!(text = read_file(path, &n)))
		return EMU_ERROR;
	m = ptx_parse(path, text, n);
	if (m && ptx_check(m) == 0)
		rc = run_steps(st, r, NULL, path, m, NULL, nbad);
	ptx_free(m);
	free(text);
	return rc;
}

static void
cub(TestState *t_, const char *arch)
{
	size_t i, nbad;
	int verbose = getenv("OA_EMU_VERBOSE") != NULL, pass = 0;

	for (i = 0; i < NELEM(cub_refs); i++) {
		const CubRef *r = &cub_refs[i];
		Steps st;
		int rc, k;
		if (load_steps(r->name, arch, &st) < 0) {
			FAIL("%s (%s): cannot load its specs", r->name, arch);
			continue;
		}
		nbad = 0;
		rc = run_interp(&st, r, arch, &nbad);
		if (rc != EMU_OK || nbad)
			FAIL("%s (%s PTX interpreter): %s, %zu elements differ", r->name, arch,
			     rc == EMU_OK ? "ran" : "failed", nbad);
		nbad = 0;
		rc = run_emu(&st, r, arch, NULL, &nbad);
		if (rc == EMU_UNSUPPORTED && !access(ORACLE, X_OK)) {
			fprintf(stderr, "  cub %s %s: built-in decoder: %s; rerun with the oracle\n",
				arch, r->name, emu_why);
			rc = run_emu(&st, r, arch, ORACLE, &nbad);
		}
		if (rc != EMU_OK)
			FAIL("%s (%s): %s", r->name, arch, emu_why);
		else if (nbad)
			FAIL("%s (%s): %zu elements differ from the C reference", r->name, arch, nbad);
		else {
			pass++;
			if (verbose)
				fprintf(stderr, "  cub %s %s: ok (%d launch%s, %llu warp-instructions in the last)\n",
					arch, r->name, st.n, st.n > 1 ? "es" : "", (unsigned long long)emu_steps);
		}
		for (k = 0; k < st.n; k++)
			spec_free(&st.s[k]);
	}
	fprintf(stderr, "  emu cub %s: %d of %zu match the C reference\n", arch, pass, NELEM(cub_refs));
}

TEST(emu_cub_sm90) { cub(t_, "sm_90"); }
TEST(emu_cub_sm80) { cub(t_, "sm_80"); }
