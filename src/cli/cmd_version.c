/* cmd_version.c -- openassembler version */
#include <stdio.h>

#include "cli.h"
#include "openassembler.h"

int
cmd_version(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("openassembler %s (%s C library)\n", OA_VERSION,
#ifdef __GLIBC__
	       "glibc"
#else
	       "musl or other"
#endif
	);
	return 0;
}
