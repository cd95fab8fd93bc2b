/* latency.c -- latency classes and the lookup into the generated tables
 * (src/sm90/latency.c, src/sm80/latency.c from specs/sm_XX/latency.txt).
 * An instruction's class is its opcode plus the modifiers that change its
 * latency; a class missing from the table falls back to a list of
 * variable-latency opcodes (src/codegen/lat_ops.c, generated from
 * tools/mine-latency's; everything else fixed, LAT_SAFE cycles). */
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

/* FNV-1a's top bits (tools/mine-latency's lat_hash). */
static size_t
lat_hash(const char *s, int bits)
{
	u32 h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (uchar)*s) * 16777619u;
	return h >> (32 - bits);
}

/* By the generated index: a class touches its slot's line, its row and
   its name, where a bisection of the rows read nine of each. */
static const LatRow *
row_in(const LatRow *rows, const u16 *slots, const char *cls)
{
	size_t i;

	for (i = lat_hash(cls, LAT_HASH_BITS); slots[i]; i = (i + 1) & ((1 << LAT_HASH_BITS) - 1)) {
		const LatRow *r = &rows[slots[i] - 1];
		if (r->cls[0] == cls[0] && !strcmp(r->cls, cls))
			return r;
	}
	return NULL;
}

/* The opcode's LCO_* flags from lat_ops (0: none of the lists has it). */
static int
op_bits(const char *op)
{
	size_t i;

	for (i = lat_hash(op, LAT_OP_BITS); lat_ops[i].name[0]; i = (i + 1) & ((1 << LAT_OP_BITS) - 1))
		if (lat_ops[i].name[0] == op[0] && !strcmp(lat_ops[i].name, op))
			return lat_ops[i].f;
	return 0;
}

static const LatRow *
find_row(const Arch *a, const char *cls)
{
	return arch_sm(a) == 80 ? row_in(lat_rows_sm80, lat_slots_sm80, cls) :
				  row_in(lat_rows_sm90, lat_slots_sm90, cls);
}

const LatRow *
lat_row(const Arch *a, const char *cls)
{
	return find_row(a, cls);
}

int
lat_exc(const Arch *a, const char *cls, int f, int cat, const char *cons)
{
	return lat_exc_in(find_row(a, cls), f, cat, cons ? find_row(a, cons) : NULL);
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

/* The exceptions are sorted by (file, category, consumer's row id)
 * (tools/mine-latency writes them so): a binary search of 8-byte entries
 * by integer keys, given the consumer's row (every consumer class that
 * differs from its category has one, so rows hold dozens).  A consumer
 * without a row (NULL: an instruction the decoder or the table does not
 * know) has none.  c is from r's table (the callers find both for one
 * arch). */
int
lat_exc_in(const LatRow *r, int f, int cat, const LatRow *c)
{
	int lo = 0, hi;
	u32 key;

	if (!r || !r->nexc || !c)
		return -1;
	key = (u32)f << 20 | (u32)cat << 16 | c->id;
	for (hi = r->nexc; lo < hi;) {
		int mid = (lo + hi) / 2;
		const LatExc *e = &r->exc[mid];

		if (e->key == key)
			return e->lat;
		if (e->key < key)
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
	int c, b;

	if (r) {
		l.var = r->var;
		l.rd_late = r->rd_late;
	} else {
		cls_op(cls, op, sizeof op);
		b = op_bits(op);
		l.var = (b & LCO_VAR) != 0;
		l.rd_late = (b & LCO_LATE) != 0;
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

int
lat_tables_indexed(void)
{
	const LatRow *tabs[] = {lat_rows_sm90, lat_rows_sm80};
	const u16 *slots[] = {lat_slots_sm90, lat_slots_sm80};
	size_t t, i;

	for (t = 0; t < NELEM(tabs); t++)
		for (i = 0; tabs[t][i].cls; i++)
			if (tabs[t][i].id != i || row_in(tabs[t], slots[t], tabs[t][i].cls) != &tabs[t][i])
				return 0;
	for (i = 0; i < NELEM(lat_ops); i++)
		if (lat_ops[i].name[0] && op_bits(lat_ops[i].name) != lat_ops[i].f)
			return 0;
	return 1;
}

/* The opcode's part of lat_cat_row: LCO_* flags. */
int
lat_cat_op(const char *op)
{
	int f = op_bits(op) & (LCO_VAR | LCO_FMA);

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
		if (r->exc[k].key >> 20 == (u32)f)
			v = MAX(v, r->exc[k].lat);
	return v;
}
