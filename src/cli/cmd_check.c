/* cmd_check.c -- openassembler check: the static hazard checker on every
 * kernel (every .text.* section) of a cubin.
 *
 *   check FILE.cubin [--kernel K] [--reassign MODE] [-o OUT] [--observe]
 *
 * Prints "K: ok" or one line per hazard, and exits 1 if any kernel has a
 * hazard.  --reassign 0|1|2 first erases the control bits and fills them
 * again with ctrl_assign (mode 0 safe, 1 mined tables), then checks, and
 * with -o OUT writes the cubin with the new bits.  --observe prints the
 * raw producer/consumer observations tools/mine-latency aggregates. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "codegen/ctrlbits.h"
#include "codegen/hazard.h"
#include "cubin/cubin.h"

static void
usage(FILE *f)
{
	fputs("usage: openassembler check FILE.cubin [--kernel K] [--reassign 0|1|2] [-o OUT] [--observe]\n"
	      "Check the control bits (stalls, scoreboards, wait masks) of every kernel\n"
	      "against the latency model: prints \"KERNEL: ok\" or one line per hazard;\n"
	      "exit status 1 if any.\n"
	      "  --kernel K      check only .text.K\n"
	      "  --reassign M    erase the control bits and assign them again first\n"
	      "                  (M = 0: conservative latencies, 1: the mined tables,\n"
	      "                  2: mined + operand reuse flags)\n"
	      "  -o OUT          with --reassign: write the cubin with the new bits\n"
	      "  --observe       print producer/consumer distances for tools/mine-latency\n", f);
}

static int
check_section(const Arch *a, CSection *s, const char *path, int reassign, int observe)
{
	const char *kname = s->name + 6;
	size_t n = s->size / 16, i;
	Word *code;
	Buf rep = {0};
	int rc = 0, nh;

	if (s->size % 16 || !s->data) {
		diag(path, "section %s: size 0x%llx is not a whole number of instructions", s->name,
		     (unsigned long long)s->size);
		return 1;
	}
	code = xcalloc(n + 1, sizeof *code);
	for (i = 0; i < n; i++) {
		memcpy(&code[i].lo, s->data + 16 * i, 8);
		memcpy(&code[i].hi, s->data + 16 * i + 8, 8);
	}
	if (reassign >= 0) {
		int r = ctrl_assign(a, code, n, reassign);
		if (r == -1) {
			diag(path, "%s: a word does not decode; cannot assign control bits", kname);
			free(code);
			return 1;
		}
		if (r == -2)
			printf("%s: warning: a latency needs padding instructions\n", kname);
		for (i = 0; i < n; i++) {
			memcpy(s->data + 16 * i, &code[i].lo, 8);
			memcpy(s->data + 16 * i + 8, &code[i].hi, 8);
		}
	}
	if (observe) {
		Arena ar = {0};
		HIns *ins = xcalloc(n + 1, sizeof *ins);
		size_t bad;
		if (hz_decode(a, code, n, ins, &ar, &bad) == 0) {
			Hz *h = hz_new(a, ins, n, HN_MINED);
			Buf ob = {0};
			hz_keep_producers(h);
			hz_solve(h);
			hz_pass(h, kname, NULL, &ob);
			if (ob.s)
				fputs(ob.s, stdout);
			buf_free(&ob);
			hz_free(h);
		}
		free(ins);
		arena_free(&ar);
		free(code);
		return 0;
	}
	nh = hazard_check(a, code, n, kname, &rep);
	if (nh < 0) {
		diag(path, "%s", rep.s ? rep.s : "a word does not decode");
		rc = 1;
	} else if (nh > 0) {
		fputs(rep.s, stdout);
		printf("%s: %d hazard%s\n", kname, nh, nh == 1 ? "" : "s");
		rc = 1;
	} else
		printf("%s: ok\n", kname);
	buf_free(&rep);
	free(code);
	return rc;
}

int
cmd_check(int argc, char **argv)
{
	const char *path = NULL, *kernel = NULL, *out = NULL;
	int reassign = -1, observe = 0, i, rc = 0, found = 0;
	size_t n, k;
	u8 *data;
	Cubin c;
	const Arch *a;
	char an[16];

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--kernel") && i + 1 < argc)
			kernel = argv[++i];
		else if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
		else if (!strcmp(argv[i], "--reassign") && i + 1 < argc) {
			const char *m = argv[++i];
			if (strcmp(m, "0") && strcmp(m, "1") && strcmp(m, "2")) {
				fprintf(stderr, "openassembler check: error: --reassign takes 0, 1 or 2\n");
				return 1;
			}
			reassign = m[0] - '0';
		} else if (!strcmp(argv[i], "--observe"))
			observe = 1;
		else if (argv[i][0] == '-' || path) {
			usage(stderr);
			return 1;
		} else
			path = argv[i];
	}
	if (!path) {
		usage(stderr);
		return 1;
	}
	if (!(data = (u8 *)read_file(path, &n)))
		return 1;
	if (cubin_read(&c, path, data, n) < 0) {
		cubin_free(&c);
		free(data);
		return 1;
	}
	snprintf(an, sizeof an, "sm_%d", cubin_sm(&c));
	if (!(a = arch_lookup(an))) {
		diag(path, "not an sm_80 or sm_90 cubin");
		rc = 1;
		goto done;
	}
	for (k = 1; k < c.sec.n; k++) {
		CSection *s = &c.sec.v[k];
		if (!s->name || strncmp(s->name, ".text.", 6) || (kernel && strcmp(s->name + 6, kernel)))
			continue;
		found++;
		rc |= check_section(a, s, path, reassign, observe);
	}
	if (kernel && !found) {
		diag(path, "no kernel '%s' (no section .text.%s)", kernel, kernel);
		rc = 1;
	}
	if (out && !rc) {
		Buf b = {0};
		cubin_write(&c, &b);
		if (write_file(out, b.s, b.n) < 0)
			rc = 1;
		buf_free(&b);
	}
done:
	cubin_free(&c);
	free(data);
	return rc;
}
