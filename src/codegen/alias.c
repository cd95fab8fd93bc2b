/* alias.c -- nvdisasm prints some encodings under another mnemonic that
 * depends on operand values, so the spelling selection would naturally
 * write is not one the ISA tables can parse back.  The known cases, all
 * of IMAD (from the golden corpora):
 *
 *   IMAD[.U32] d, a, 0x1, c      prints as  IMAD.IADD[.U32] d, a, 0x1, c
 *   IMAD[.U32] d, a, RZ|0x0, c   prints as  IMAD.MOV[.U32] ...
 *   IMAD[.U32] d, a, 2^k, RZ     prints as  IMAD.SHL[.U32] ...
 *
 * codegen_alias() rewrites such text to the printed spelling; the encoder
 * tries it when the plain text does not parse. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/alias.h"

static int
pow2(const char *s)
{
	unsigned long v;
	char *end;

	if (strncmp(s, "0x", 2))
		return 0;
	v = strtoul(s + 2, &end, 16);
	return (*end == ',' || *end == 0) && v >= 2 && v <= 0x80000000ul && !(v & (v - 1));
}

int
codegen_alias(const char *text, char *out, size_t n)
{
	const char *p = text, *op, *b, *c;
	size_t pre;
	const char *alias = NULL;

	if (*p == '@')
		p = strchr(p, ' ') + 1;
	op = p;
	if (strncmp(op, "IMAD ", 5) && strncmp(op, "IMAD.U32 ", 9))
		return 0;
	/* operands: d, a, b, c */
	b = strchr(op, ',');
	b = b ? strchr(b + 1, ',') : NULL;
	c = b ? strchr(b + 1, ',') : NULL;
	if (!b || !c)
		return 0;
	b += 2;
	c += 2;
	if (!strncmp(b, "0x1,", 4))
		alias = ".IADD";
	else if (!strncmp(b, "RZ,", 3) || !strncmp(b, "0x0,", 4))
		alias = ".MOV";
	else if (!strcmp(c, "RZ") && pow2(b))
		alias = ".SHL";
	if (!alias)
		return 0;
	pre = (size_t)(op - text) + 4;  /* through "IMAD" */
	return snprintf(out, n, "%.*s%s%s", (int)pre, text, alias, text + pre) < (int)n;
}
