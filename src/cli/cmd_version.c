/* cmd_version.c -- openassembler version */
#include <stdio.h>

#include "cli.h"
#include "openassembler.h"

int
cmd_version(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("openassembler %s\n", OA_VERSION);
	return 0;
}
