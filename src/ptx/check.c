/* check.c -- semantic checks on a parsed PTX module. */
#include "ptx/ptxint.h"

int
ptx_check(PtxModule *m)
{
	(void)m;
	return 0;
}
