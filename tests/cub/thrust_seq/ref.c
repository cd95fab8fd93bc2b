/* thrust_seq reference: per 8-int chunk, the sum of squares, the reversed
 * chunk, its inclusive prefix sum and the position of its first maximum. */
static void
ref_thrust_seq(Launch *l)
{
	const i32 *in = launch_buf(l, "in");
	i32 *sq = launch_buf(l, "sumsq"), *rv = launch_buf(l, "rev"), *sc = launch_buf(l, "scan");
	i32 *mp = launch_buf(l, "maxpos");
	int n = SI32(l, "n"), t, i;

	for (t = 0; t * 8 < n && t < (int)(GX(l) * BX(l)); t++) {
		i32 s = 0, m = 0;
		for (i = 0; i < 8; i++) {
			i32 x = in[t * 8 + 7 - i];
			s += in[t * 8 + i] * in[t * 8 + i];
			rv[t * 8 + i] = x;
			if (x > rv[t * 8 + m])
				m = i;
		}
		sq[t] = s;
		mp[t] = m;
		for (s = 0, i = 0; i < 8; i++)
			sc[t * 8 + i] = s += rv[t * 8 + i];
	}
}
