/* cmd_gpucheck.c -- openassembler gpucheck: runs oa-gpucheck, the
 * dynamically linked runner next to this program (src/cli/gpucheck/:
 * it loads the CUDA driver with dlopen, which a static program cannot do
 * reliably), with the same arguments. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

int
cmd_gpucheck(int argc, char **argv)
{
	char path[PATH_MAX + 16];
	ssize_t n = readlink("/proc/self/exe", path, PATH_MAX);
	char *slash;

	(void)argc;
	if (n <= 0) {
		fprintf(stderr, "openassembler gpucheck: error: cannot find this program's folder\n");
		return 1;
	}
	path[n] = 0;
	slash = strrchr(path, '/');
	strcpy(slash ? slash + 1 : path, "oa-gpucheck");
	argv[0] = path;
	fflush(stdout);
	fflush(stderr);
	execv(path, argv);
	fprintf(stderr, "openassembler gpucheck: error: cannot run %s (make builds it next to openassembler)\n", path);
	return 1;
}
