/* test_kernels.c -- the kernel suite (tests/kernels/): every spec loads and
 * names its directory's entry, every C reference runs on its initialised
 * launch, writes its checked outputs and is deterministic, and every
 * directory is registered with its generated PTX and cubins committed. */
#include <dirent.h>
#include <string.h>
#include <sys/stat.h>

#include "test.h"
#include "../kernels/refs.c"

static int
exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && st.st_size > 0;
}

static int
load(const KernelRef *k, Spec *s)
{
	char path[256];

	snprintf(path, sizeof path, "tests/kernels/%s/spec.json", k->name);
	return spec_load(path, s);
}

TEST(kernels_specs_load)
{
	size_t i;

	CHECK(nkernel_refs >= 40);
	for (i = 0; i < nkernel_refs; i++) {
		Spec s;
		if (load(&kernel_refs[i], &s)) {
			FAIL("%s: spec does not load", kernel_refs[i].name);
			continue;
		}
		if (!s.kernel || strcmp(s.kernel, kernel_refs[i].name))
			FAIL("%s: spec names kernel %s", kernel_refs[i].name, s.kernel ? s.kernel : "(none)");
		spec_free(&s);
	}
}

/* Every generated file is there; the PTX of each arch targets it and has
 * the entry named like the directory; the cubins are CUDA ELF files. */
TEST(kernels_generated_files)
{
	static const char *const gen[] = {"kernel.cu", "kernel.sm_90.ptx", "kernel.sm_80.ptx",
					  "kernel.sm_90.cubin", "kernel.sm_80.cubin", "ref.c"};
	size_t i, g;

	for (i = 0; i < nkernel_refs; i++) {
		const char *n = kernel_refs[i].name;
		char path[256], entry[128], *text;
		size_t len;
		for (g = 0; g < NELEM(gen); g++) {
			snprintf(path, sizeof path, "tests/kernels/%s/%s", n, gen[g]);
			if (!exists(path))
				FAIL("%s missing", path);
		}
		for (g = 0; g < 2; g++) {
			const char *sm = g ? "sm_80" : "sm_90";
			snprintf(path, sizeof path, "tests/kernels/%s/kernel.%s.ptx", n, sm);
			snprintf(entry, sizeof entry, ".entry %s(", n);
			if ((text = read_file(path, &len))) {
				if (!strstr(text, entry))
					FAIL("%s: no %s", path, entry);
				snprintf(entry, sizeof entry, ".target %s", sm);
				if (!strstr(text, entry))
					FAIL("%s: no %s", path, entry);
				free(text);
			}
			/* a CUDA ELF: magic, 64-bit, e_machine EM_CUDA (190) */
			snprintf(path, sizeof path, "tests/kernels/%s/kernel.%s.cubin", n, sm);
			if ((text = read_file(path, &len))) {
				if (len < 64 || memcmp(text, "\x7f" "ELF", 4) || text[4] != 2 ||
				    (uchar)text[18] != 190 || text[19] != 0)
					FAIL("%s: not a 64-bit CUDA ELF file", path);
				free(text);
			}
		}
	}
}

/* Every directory with a kernel.cu is in list.def. */
TEST(kernels_all_registered)
{
	DIR *d = opendir("tests/kernels");
	struct dirent *e;
	int n = 0;

	if (!d)
		{ FAIL("cannot open tests/kernels"); return; }
	while ((e = readdir(d))) {
		char path[512];
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "tests/kernels/%s/kernel.cu", e->d_name);
		if (!exists(path))
			continue;
		n++;
		if (!kernel_ref_lookup(e->d_name))
			FAIL("tests/kernels/%s is not in list.def", e->d_name);
	}
	closedir(d);
	CHECK(n == (int)nkernel_refs);
	CHECK(kernel_ref_lookup("no_such_kernel") == NULL);
}

static int
same_buffers(const Launch *a, const Launch *b)
{
	size_t i;

	for (i = 0; i < a->spec->nargs; i++)
		if (a->bytes[i] != b->bytes[i] || (a->bytes[i] && memcmp(a->data[i], b->data[i], a->bytes[i])))
			return 0;
	return 1;
}

/* A reference writes every checked buffer (it differs from its initial
 * contents somewhere), compares equal to itself, and runs the same twice. */
TEST(kernels_refs_run)
{
	size_t i, a;

	for (i = 0; i < nkernel_refs; i++) {
		const KernelRef *k = &kernel_refs[i];
		Spec s;
		Launch init, r1, r2;
		if (load(k, &s))
			continue;
		launch_init(&init, &s);
		launch_init(&r1, &s);
		launch_init(&r2, &s);
		k->ref(&r1);
		k->ref(&r2);
		if (!same_buffers(&r1, &r2))
			FAIL("%s: reference is not deterministic", k->name);
		if (launch_compare(&r1, &r2, stderr))
			FAIL("%s: reference does not match itself", k->name);
		for (a = 0; a < s.nargs; a++)
			if (s.args[a].is_buffer && s.args[a].check.enabled &&
			    !memcmp(init.data[a], r1.data[a], init.bytes[a]))
				FAIL("%s: reference leaves checked buffer %s as initialised", k->name, s.args[a].name);
		if (!launch_compare(&init, &r1, NULL))
			FAIL("%s: the initial launch already matches the reference", k->name);
		launch_free(&init);
		launch_free(&r1);
		launch_free(&r2);
		spec_free(&s);
	}
}
