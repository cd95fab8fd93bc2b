/* latency.c -- latency classes and the lookup into the generated tables
 * (src/sm90/latency.c, src/sm80/latency.c from specs/sm_XX/latency.txt).
 * An instruction's class is its opcode plus the modifiers that change its
 * latency; a class missing from the table falls back to a built-in list
 * of variable-latency opcodes (everything else fixed, LAT_SAFE cycles). */
#include <string.h>

#include "codegen/latency.h"

/* Modifiers kept in a class name (all of them for the MMA opcodes):
 * WIDE, HI, MMA, F64, S64, U64, 64, 128 -- numbered 1..8, 0 = not kept. */
static int
keep_mod(const char *m)
{
	switch (m[0]) {
	case 'W': return !strcmp(m, "WIDE");
	case 'H': return !strcmp(m, "HI") ? 2 : 0;
	case 'M': return !strcmp(m, "MMA") ? 3 : 0;
	case 'F': case 'S': case 'U': return !strcmp(m + 1, "64") ? (m[0] == 'F' ? 4 : m[0] == 'S' ? 5 : 6) : 0;
	case '6': return !strcmp(m, "64") ? 7 : 0;
	case '1': return !strcmp(m, "128") ? 8 : 0;
	}
	return 0;
}

/* HMMA, IMMA, DMMA, BMMA, HGMMA, IGMMA, QGMMA?  By character, without a
   strlen: it runs for every word the hazard decoder decodes. */
static int
is_mma(const char *op)
{
	switch (op[0]) {
	case 'B': case 'D':
		return op[1] == 'M' && op[2] == 'M' && op[3] == 'A' && !op[4];
	case 'H': case 'I':
		if (op[1] == 'M')
			return op[2] == 'M' && op[3] == 'A' && !op[4];
		/* fall through */
	case 'Q':	/* and HGMMA, IGMMA */
		return op[1] == 'G' && op[2] == 'M' && op[3] == 'M' && op[4] == 'A' && !op[5];
	}
	return 0;
}

int
lat_class_key(const Insn *in, u64 *key)
{
	int i, k, n = 0;

	*key = 0;
	if (is_mma(in->op))
		return -1;
	for (i = 0; i < in->nmods; i++)
		if ((k = keep_mod(in->mods[i]))) {
			if (++n > 16)
				return -1;
			*key = *key << 4 | (u64)k;
		}
	return 0;
}

const char *
lat_class(const Insn *in, Arena *ar)
{
	char buf[128];
	size_t n, i, l;
	int all = is_mma(in->op);

	n = strlen(in->op);
	if (n >= sizeof buf)
		n = sizeof buf - 1;
	memcpy(buf, in->op, n);
	for (i = 0; i < (size_t)in->nmods && n < sizeof buf - 1; i++) {
		if (!all && !keep_mod(in->mods[i]))
			continue;
		l = strlen(in->mods[i]);
		buf[n++] = '.';
		if (l > sizeof buf - 1 - n)
			l = sizeof buf - 1 - n;
		memcpy(buf + n, in->mods[i], l);
		n += l;
	}
	buf[n] = 0;
	return arena_strdup(ar, buf);
}

/* Opcodes with variable latency when the table does not know the class
 * (assumed: memory, SFU, conversions, special registers, warp ops).  Not
 * HGMMA/QGMMA/IGMMA: every class of them in specs/sm_90/latency.txt is
 * var=0 rd_late=0 (ptxas gives them no scoreboard; WARPGROUP.DEPBAR
 * guards their registers), so a shape the table lacks is fixed too. */
static const char *const var_ops[] = {
	"ARRIVES", "ATOM", "ATOMG", "ATOMS", "BMOV", "BREV", "CCTL", "DADD", "DFMA", "DMMA",
	"DMNMX", "DMUL", "DSETP", "ELECT", "F2F", "F2I", "FCHK", "FLO", "FRND", "HMMA", "I2F", "IMMA", "LD", "LDC", "LDG", "LDGDEPBAR", "LDGSTS", "LDL", "LDS", "LDSM",
	"MATCH", "MEMBAR", "MOVM", "MUFU", "POPC", "QSPC", "R2UR", "RED", "REDG", "REDUX",
	"S2R", "S2UR", "SHFL", "ST", "STG", "STL", "STS", "SULD", "SUST", "SYNCS", "TEX",
	"TLD", "UBLKCP", "UBREV", "UFLO", "UPOPC", "UTMACCTL", "UTMALDG", "UTMAPF", "UTMAREDG", "UTMASTG",
	"VOTEU",
};
/* Read their source registers after issue (assumed, same fallback). */
static const char *const late_ops[] = {
	"ATOM", "ATOMG", "ATOMS", "BREV", "DADD", "DFMA", "DMMA", "DMUL", "F2F", "F2I", "FLO",
	"FRND", "HMMA", "I2F", "IMMA", "LD", "LDC", "LDG", "LDGSTS", "LDL", "LDS",
	"LDSM", "MATCH", "MOVM", "MUFU", "POPC", "R2UR", "RED", "REDG", "REDUX", "SHFL", "ST",
	"STG", "STL", "STS", "SYNCS", "UBLKCP", "UTMACCTL", "UTMALDG", "UTMAPF", "UTMAREDG", "UTMASTG",
};

/* Is op in the list l of n names?  By binary search (by hand: bsearch's
   callback per probe costs more than the compare): the lists are kept in
   strcmp order (lat_lists_sorted, a unit test). */
static int
in_list_sorted(const char *op, const char *const *l, size_t n)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = l[mid][0] != op[0] ? (uchar)l[mid][0] - (uchar)op[0] : strcmp(l[mid], op);

		if (!c)
			return 1;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

static int
is_var_op(const char *op)
{
	return in_list_sorted(op, var_ops, NELEM(var_ops));
}

static int
is_late_op(const char *op)
{
	return in_list_sorted(op, late_ops, NELEM(late_ops));
}

static const LatRow *
rows_of(const Arch *a)
{
	return arch_sm(a) == 80 ? lat_rows_sm80 : lat_rows_sm90;
}

static const LatRow *
find_row(const Arch *a, const char *cls)
{
	const LatRow *rows = rows_of(a);
	/* the generator's count: counting the rows would read the whole table */
	size_t lo = 0, hi = rows == lat_rows_sm80 ? lat_nrows_sm80 : lat_nrows_sm90, mid;
	int c;

	while (lo < hi) {  /* the generator sorts rows by class name (strcmp order) */
		mid = (lo + hi) / 2;
		c = rows[mid].cls[0] != cls[0] ? (uchar)rows[mid].cls[0] - (uchar)cls[0] : strcmp(rows[mid].cls, cls);
		if (!c)
			return &rows[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const LatRow *
lat_row(const Arch *a, const char *cls)
{
	return find_row(a, cls);
}

int
lat_exc(const Arch *a, const char *cls, int f, int cat, const char *cons)
{
	return lat_exc_in(find_row(a, cls), f, cat, cons);
}

int
lat_is_wide(const char *cls)
{
	/* by hand: strstr's setup costs more than this scan of a short name */
	for (; cls && *cls; cls++)
		if (cls[0] == '.' && !strncmp(cls + 1, "WIDE", 4))
			return 1;
	return 0;
}

/* The exceptions are sorted by (file, category, consumer) (tools/mine-latency
 * writes them so): a binary search.  Every consumer class that differs from
 * its category has one, so rows hold dozens.  A consumer without a class
 * (an instruction the decoder does not know) has none. */
int
lat_exc_in(const LatRow *r, int f, int cat, const char *cons)
{
	int lo = 0, hi = r && cons ? r->nexc : 0;

	while (lo < hi) {
		int mid = (lo + hi) / 2, d;
		const LatExc *e = &r->exc[mid];

		/* the first letters inline (strcmp's order), most names differ there */
		d = e->f != f ? e->f - f : e->cat != cat ? e->cat - cat :
		    e->cons[0] != cons[0] ? (uchar)e->cons[0] - (uchar)cons[0] : strcmp(e->cons, cons);
		if (!d)
			return e->lat;
		if (d < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* The opcode part of a class name, in buf. */
static const char *
cls_op(const char *cls, char *buf, size_t n)
{
	size_t k = strcspn(cls, ".");

	if (k >= n)
		k = n - 1;
	memcpy(buf, cls, k);
	buf[k] = 0;
	return buf;
}

Lat
lat_of_row(const LatRow *r, const char *cls)
{
	Lat l = {0};
	char op[64];
	int c;

	if (r) {
		l.var = r->var;
		l.rd_late = r->rd_late;
	} else {
		cls_op(cls, op, sizeof op);
		l.var = is_var_op(op);
		l.rd_late = is_late_op(op);
	}
	if (l.var)
		return l;
	/* the largest lat_need_row(r, LF_R, c, 1): the row's largest R entry
	   (what each unobserved entry gets), LAT_SAFE when none */
	for (c = 0; r && c < LC_NCAT; c++)
		l.lat = MAX(l.lat, r->lat[LF_R][c]);
	if (!l.lat)
		l.lat = LAT_SAFE;
	return l;
}

Lat
lat_of_class(const Arch *a, const char *cls)
{
	return lat_of_row(find_row(a, cls), cls);
}

Lat
lat_of(const Arch *a, const Insn *in)
{
	Arena ar = {0};
	Lat l = lat_of_class(a, lat_class(in, &ar));

	arena_free(&ar);
	return l;
}

static const char *const fma_ops[] = {
	"FADD", "FFMA", "FMUL", "FSWZADD", "IDP", "IMAD", "IMADSP", "IMUL",
};

static int
is_fma_op(const char *op)
{
	return in_list_sorted(op, fma_ops, NELEM(fma_ops));
}

static int
sorted(const char *const *l, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (strcmp(l[i - 1], l[i]) >= 0)
			return 0;
	return 1;
}

int
lat_lists_sorted(void)
{
	const LatRow *tabs[] = {lat_rows_sm90, lat_rows_sm80};
	size_t t, i, nrows[] = {lat_nrows_sm90, lat_nrows_sm80};

	for (t = 0; t < NELEM(tabs); t++) {
		for (i = 1; tabs[t][0].cls && tabs[t][i].cls; i++)
			if (strcmp(tabs[t][i - 1].cls, tabs[t][i].cls) >= 0)
				return 0;
		if (tabs[t][nrows[t]].cls || (nrows[t] && !tabs[t][nrows[t] - 1].cls))
			return 0;  /* the count is not the rows before the NULL one */
	}
	return sorted(var_ops, NELEM(var_ops)) && sorted(late_ops, NELEM(late_ops)) &&
	       sorted(fma_ops, NELEM(fma_ops));
}

/* The opcode's part of lat_cat_row: LCO_* flags. */
int
lat_cat_op(const char *op)
{
	int f = 0;

	if (is_var_op(op))
		f |= LCO_VAR;
	if (is_fma_op(op))
		f |= LCO_FMA;
	if ((op[0] == 'H' && strcmp(op, "HMMA")) || op[0] == 'D' || is_mma(op))
		f |= LCO_OTHER;
	return f;
}

/* lat_cat_row from the opcode's flags (lat_cat_op) and the row. */
int
lat_cat_flags(int f, const LatRow *r)
{
	if (f & LCO_VAR) {
		/* the table may know a fixed form: fixed only when the table has
		   fixed latencies for it (DFMA on sm_90) */
		int var = 1, fl, c;
		if (r && !r->var)
			for (fl = 0; fl < LF_N; fl++)
				for (c = 0; c < LC_NCAT; c++)
					if (r->lat[fl][c])
						var = 0;
		if (var)
			return LC_VAR;
	}
	if (f & LCO_FMA)
		return LC_FMA;
	if (f & LCO_OTHER)
		return LC_OTHER;
	return LC_ALU;
}

/* r: the row of in's class (NULL if none). */
int
lat_cat_row(const Insn *in, const LatRow *r)
{
	return lat_cat_flags(lat_cat_op(in->op), r);
}

int
lat_cat(const Arch *a, const Insn *in)
{
	Arena ar = {0};
	int c = lat_cat_row(in, find_row(a, lat_class(in, &ar)));

	arena_free(&ar);
	return c;
}

int
lat_need_row(const LatRow *r, int f, int cat, int mode)
{
	int v = 0, c;

	if (r) {
		v = r->lat[f][cat];
		if (!v)
			for (c = 0; c < LC_NCAT; c++)
				v = MAX(v, r->lat[f][c]);
		/* guards wait at least as long as any other reader of a predicate */
		if (!v && (f == LF_P || f == LF_UP))
			for (c = 0; c < LC_NCAT; c++)
				v = MAX(v, r->lat[LF_P][c]);
	}
	if (!v)
		v = LAT_SAFE;
	if (mode == 0)
		v = MAX(v, LAT_SAFE);
	return v;
}

int
lat_need(const Arch *a, const char *cls, int f, int cat, int mode)
{
	return lat_need_row(find_row(a, cls), f, cat, mode);
}

int
lat_min_stall_row(const LatRow *r, const Insn *in)
{
	int v = r && r->minstall ? r->minstall : 1;

	if (in->op[0] == 'D' && !strcmp(in->op, "DEPBAR"))
		v = MAX(v, 4);  /* Huerta et al.: DEPBAR needs stall >= 4 to take effect */
	return v;
}

int
lat_min_stall(const Arch *a, const Insn *in)
{
	Arena ar = {0};
	int v = lat_min_stall_row(find_row(a, lat_class(in, &ar)), in);

	arena_free(&ar);
	return v;
}

int
lat_exc_max(const Arch *a, const char *cls, int f)
{
	const LatRow *r = find_row(a, cls);
	int k, v = 0;

	for (k = 0; r && k < r->nexc; k++)
		if (r->exc[k].f == f)
			v = MAX(v, r->exc[k].lat);
	return v;
}
