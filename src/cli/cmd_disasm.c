/* cmd_disasm.c -- openassembler disasm: list a cubin (or every cubin in a
 * fat binary or host executable) as text that `openassembler as` reads
 * back, or disassemble raw instruction bytes with -b SM80|SM90. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cubin/cubin.h"
#include "cubin/listing.h"

static void
usage(FILE *f)
{
	fputs("usage: openassembler disasm [options] FILE\n"
	      "  FILE is a .cubin, a fat binary, or an executable/shared object/object\n"
	      "  file with embedded cubins (.nv_fatbin).\n"
	      "  -b SM90|SM80   FILE holds raw instruction words (like nvdisasm -b)\n"
	      "  -raw           print instructions as UNKNOWN 0x<lo>, 0x<hi> (no decoding)\n"
	      "  -no-ctrl       omit the control-bit comments\n"
	      "  -o OUT         write the listing to OUT instead of stdout\n"
	      "  -x DIR         also write each embedded cubin (decompressed) to\n"
	      "                 DIR/entryN.sm_XX.cubin\n", f);
}

static int
raw_words(const char *path, const char *arch, const u8 *p, size_t n, const ListOpts *o, Buf *out)
{
	const Arch *a = arch_lookup(arch);
	Cubin c;
	int sec;

	if (!a) {
		diag(path, "unknown architecture '%s' (want SM80 or SM90)", arch);
		return -1;
	}
	if (n % 16) {
		diag(path, "%zu bytes is not a whole number of 16-byte instructions", n);
		return -1;
	}
	cubin_init(&c);
	sec = cubin_add_section(&c, ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 128);
	cubin_set_data(&c, sec, p, n);
	list_code(&c, a, sec, o, out);
	cubin_free(&c);
	return 0;
}

static int
one_cubin(const char *path, const u8 *p, size_t n, const ListOpts *o, Buf *out)
{
	Cubin c;
	int rc;

	rc = cubin_read(&c, path, p, n);
	if (rc == 0)
		rc = cubin_list(&c, path, o, out);
	cubin_free(&c);
	return rc;
}

static const char *extract_dir;

static int
container(const char *path, const u8 *p, size_t n, const ListOpts *o, Buf *out)
{
	FatEntry *e;
	int k = fatbin_extract(path, p, n, &e), i, listed = 0, rc = 0;

	if (k < 0)
		return -1;
	if (k == 0) {
		diag(path, "not a cubin, fat binary or host file with embedded cubins");
		return -1;
	}
	for (i = 0; i < k && rc == 0; i++) {
		char what[512];

		if (e[i].kind != 2) {
			buf_printf(out, "// %s: fatbin entry %d: PTX for sm_%d (not listed)\n", path, i, e[i].sm);
			continue;
		}
		if (e[i].sm != 80 && e[i].sm != 90) {
			buf_printf(out, "// %s: fatbin entry %d: cubin for sm_%d (architecture not supported; skipped)\n",
				   path, i, e[i].sm);
			continue;
		}
		if (extract_dir) {
			char file[1024];

			snprintf(file, sizeof file, "%s/entry%d.sm_%d.cubin", extract_dir, i, e[i].sm);
			if ((rc = write_file(file, e[i].data, e[i].size)) < 0)
				break;
		}
		snprintf(what, sizeof what, "%s[entry %d]", path, i);
		buf_printf(out, "// ==== %s: fatbin entry %d: cubin for sm_%d\n", path, i, e[i].sm);
		rc = one_cubin(what, e[i].data, e[i].size, o, out);
		listed++;
	}
	fatbin_free(e, k);
	if (rc == 0 && !listed) {
		diag(path, "no sm_80 or sm_90 cubin in this file");
		return -1;
	}
	return rc;
}

int
cmd_disasm(int argc, char **argv)
{
	ListOpts o = {0};
	const char *arch = NULL, *path = NULL, *outp = NULL;
	Buf out = {0};
	u8 *p;
	size_t n;
	int i, rc;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "-b") && i + 1 < argc) {
			arch = argv[++i];
		} else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			outp = argv[++i];
		} else if (!strcmp(argv[i], "-x") && i + 1 < argc) {
			extract_dir = argv[++i];
		} else if (!strcmp(argv[i], "-raw") || !strcmp(argv[i], "--raw")) {
			o.raw = 1;
		} else if (!strcmp(argv[i], "-no-ctrl") || !strcmp(argv[i], "--no-ctrl")) {
			o.no_ctrl = 1;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "openassembler disasm: error: unknown option '%s'\n", argv[i]);
			usage(stderr);
			return 1;
		} else if (!path) {
			path = argv[i];
		} else {
			fprintf(stderr, "openassembler disasm: error: more than one input file\n");
			return 1;
		}
	}
	if (!path) {
		usage(stderr);
		return 1;
	}
	if (!(p = (u8 *)read_file(path, &n)))
		return 1;
	if (arch)
		rc = raw_words(path, arch, p, n, &o, &out);
	else if (n >= 4 && !memcmp(p, "\177ELF", 4) && n >= 20 && p[18] == 190 && p[19] == 0)
		rc = one_cubin(path, p, n, &o, &out);
	else
		rc = container(path, p, n, &o, &out);
	free(p);
	if (rc == 0) {
		if (outp)
			rc = write_file(outp, out.s ? out.s : "", out.n);
		else
			fwrite(out.s ? out.s : "", 1, out.n, stdout);
	}
	buf_free(&out);
	return rc == 0 ? 0 : 1;
}
