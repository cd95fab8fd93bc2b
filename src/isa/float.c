/* float.c -- float immediates as nvdisasm prints them.
 *
 * Measured against nvdisasm 13.2 (docs/findings-encoding.md):
 *   NaN  -> "+QNAN " / "-SNAN " (quiet bit decides; payload not shown)
 *   inf  -> "+INF " / "-INF "      -0.0 -> "-0.0 "      +0 -> "0"
 *   |x| >= 1e9 -> "%.20e"          otherwise -> "%.20g"
 * The special values carry a trailing space ("+INF , PT"). */
#include <math.h>
#include <string.h>

#include "isa/isa_impl.h"

static double
half_to_double(u32 h)
{
	int e = (h >> 10) & 31;
	double m = h & 1023;
	double v;

	if (e == 0)
		v = ldexp(m, -24);
	else if (e == 31)
		v = m ? NAN : INFINITY;
	else
		v = ldexp(m + 1024, e - 25);
	return h & 0x8000 ? -v : v;
}

void
isa_fmt_float(Buf *out, u64 raw, int bits)
{
	u64 sign = raw >> (bits - 1) & 1, quiet;
	double x;

	if (bits == 16) {
		x = half_to_double((u32)raw);
		quiet = 0x200;
	} else if (bits == 32) {
		float f;
		u32 r = (u32)raw;

		memcpy(&f, &r, 4);
		x = f;
		quiet = 0x400000;
	} else {
		memcpy(&x, &raw, 8);
		quiet = 0x8000000000000ull;
	}
	if (isnan(x))
		buf_printf(out, "%c%s ", sign ? '-' : '+', raw & quiet ? "QNAN" : "SNAN");
	else if (isinf(x))
		buf_puts(out, sign ? "-INF " : "+INF ");
	else if (x == 0)
		buf_puts(out, sign ? "-0.0 " : "0");
	else if (fabs(x) >= 1e9)
		buf_printf(out, "%.20e", x);
	else
		buf_printf(out, "%.20g", x);
}
