/* isel_seq.c -- emit a fixed SASS sequence written with ptxas's own
 * register names (copied from ptxas's output) over fresh virtual registers.
 *
 * Each line is one instruction in nvdisasm's spelling, e.g.
 *
 *     "IMAD.WIDE.U32 R8:2, P0, R6, R13, R8:2"
 *     "@!P2 LOP3.LUT R7, RZ, R8, RZ, 0x33, !PT"
 *
 * Rn names a 32-bit register, Rn:2 the aligned pair Rn, Rn+1 (the text
 * keeps Rn), Pn a predicate.  Operand 0 is written; so is operand 1 when
 * it is a predicate (carry out: IADD3 R7, P1, ...) or operand 0 is one
 * (ISETP P0, PT, ...).  A write to Rn:p (n even) starts a fresh pair
 * whose low half it is; Rn:p (n odd) then writes its high half, so that
 * Rn-1:2 reads the two without copies.  Every other unguarded write gets a fresh vreg (SSA
 * renaming), so the allocator is free to place values as it likes; a
 * guarded write updates the current vreg in place.  Inputs are bound with
 * seq_bind before the first line; results read with seq_get afterwards.
 * The PTX instruction's own guard is lifted for the sequence (temporaries
 * only) and restored by seq_end, so the caller's final moves to the PTX
 * destination carry it. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/isel.h"
#include "codegen/reconv.h"

void
seq_init(Seq *q, Sel *s)
{
	int i;

	memset(q, 0, sizeof *q);
	q->s = s;
	for (i = 0; i < SEQ_NR; i++)
		q->R[i].v = -1;
	for (i = 0; i < SEQ_NP; i++)
		q->P[i].v = -1;
	q->guard = s->mf->guard;
	q->guard_neg = s->mf->guard_neg;
	s->mf->guard = -1;
	s->mf->guard_neg = 0;
}

void
seq_end(Seq *q)
{
	q->s->mf->guard = q->guard;
	q->s->mf->guard_neg = q->guard_neg;
}

void
seq_bind(Seq *q, int r, MRef v)
{
	ASSERT(r >= 0 && r < SEQ_NR);
	q->R[r] = v;
	q->own[r] = 0;
}

void
seq_bind64(Seq *q, int r, MRef pair)
{
	MFunc *f = q->s->mf;

	if (pair.v == f->rz) {
		seq_bind(q, r, pair);
		seq_bind(q, r + 1, pair);
		return;
	}
	seq_bind(q, r, mpart(pair.v, pair.sub, 1));
	seq_bind(q, r + 1, mpart(pair.v, pair.sub + 1, 1));
}

/* ---- shared subroutines: a body's inputs ---- */

enum { SUB_NIN = 32, SUB_NOUT = 4 };
typedef struct SeqSub {
	struct SeqSub *next;
	const char *const *key;   /* the template's SKIP line */
	int block;                /* the body's block */
	MRef ra;                  /* return address pair */
	int nin, nout;
	struct { int r, pred, w; MRef v; } in[SUB_NIN];
	struct { int r; MRef v; } out[SUB_NOUT];
} SeqSub;

/* A body reads R[r] (w = 1 or 2 registers) or P[r] that it has not
 * written: a new input, which every call copies in. */
static void
seq_miss(Seq *q, int r, int pred, int w)
{
	SeqSub *b = q->sub;
	MRef v;

	if (!b)
		die("seq: %c%d read before it is written", pred ? 'P' : 'R', r);
	if (b->nin == SUB_NIN)
		die("seq: more than %d subroutine inputs", SUB_NIN);
	v = pred ? sel_ptmp(q->s) : sel_tmp(q->s, w);
	b->in[b->nin].r = r;
	b->in[b->nin].pred = pred;
	b->in[b->nin].w = w;
	b->in[b->nin++].v = v;
	if (pred) {
		q->P[r] = v;
		q->pown[r] = 1;
	} else if (w == 1) {
		q->R[r] = v;
		q->own[r] = 1;
	} else {
		q->R[r] = mpart(v.v, 0, 1);
		q->R[r + 1] = mpart(v.v, 1, 1);
		q->own[r] = q->own[r + 1] = 1;
	}
}

MRef
seq_get(Seq *q, int r)
{
	if (q->R[r].v < 0)
		seq_miss(q, r, 0, 1);
	return q->R[r];
}

/* R[r], R[r+1] as one pair operand (copied into a fresh pair when they
 * are not already the two halves of one). */
MRef
seq_pair(Seq *q, int r)
{
	MFunc *f = q->s->mf;
	MRef a, b, t;

	if (q->sub && q->R[r].v < 0 && q->R[r + 1].v < 0)
		seq_miss(q, r, 0, 2);
	a = seq_get(q, r);
	b = seq_get(q, r + 1);
	if (a.v == f->rz && b.v == f->rz)
		return a;
	if (a.v == b.v && b.sub == a.sub + 1 && (a.sub & 1) == 0 && f->vr.v[a.v].w >= 2)
		return mpart(a.v, a.sub, 2);
	t = sel_tmp(q->s, 2);
	sel_mov32(q->s, mpart(t.v, 0, 1), mopd_reg(a));
	sel_mov32(q->s, mpart(t.v, 1, 1), mopd_reg(b));
	return t;
}

/* A write to R[r] (w = 1 or 2 registers) or P[r] (pred). */
static MRef
def_reg(Seq *q, int r, int w, int pred, int guarded)
{
	Sel *s = q->s;
	MRef t;

	if (guarded && q->sub && (pred ? q->P[r].v : q->R[r].v) < 0 && w != 3)
		seq_miss(q, r, pred, pred ? 1 : w);   /* the old value is an input */
	if (pred) {
		if (!guarded || q->P[r].v < 0 || !q->pown[r]) {
			MRef old = q->P[r];
			t = sel_ptmp(s);
			if (guarded && old.v >= 0)
				mi(s->mf, "PLOP3.LUT %D, PT, %U, PT, PT, 0x80, 0x0", t, old);
			q->P[r] = t;
			q->pown[r] = 1;
		}
		return q->P[r];
	}
	if (w == 3 && (r & 1)) {  /* the high half of the pair begun at r-1 */
		MRef lo = q->R[r - 1];
		if (guarded || !q->own[r - 1] || lo.v < 0 || (lo.sub & 1) || s->mf->vr.v[lo.v].w < 2)
			die("seq: R%d:p without a pair begun at R%d", r, r - 1);
		q->R[r] = mpart(lo.v, lo.sub + 1, 1);
		q->own[r] = 1;
		return q->R[r];
	}
	if (w == 3) {
		if (guarded)
			die("seq: guarded R%d:p", r);
		t = sel_tmp(s, 2);
		q->R[r] = mpart(t.v, 0, 1);
		q->R[r + 1] = mpart(t.v, 1, 1);
		q->own[r] = q->own[r + 1] = 1;
		return q->R[r];
	}
	if (guarded && q->own[r] && (w == 1 || (q->own[r + 1] && q->R[r + 1].v == q->R[r].v &&
	                                        q->R[r + 1].sub == q->R[r].sub + 1)))
		return w == 1 ? q->R[r] : mpart(q->R[r].v, q->R[r].sub, 2);
	t = sel_tmp(s, w);
	if (guarded) {  /* keep the old value where the guard is false */
		int k;
		for (k = 0; k < w; k++)
			if (q->R[r + k].v >= 0)
				sel_mov32(s, w == 1 ? t : mpart(t.v, k, 1), mopd_reg(q->R[r + k]));
	}
	if (w == 1) {
		q->R[r] = t;
		q->own[r] = 1;
	} else {
		q->R[r] = mpart(t.v, 0, 1);
		q->R[r + 1] = mpart(t.v, 1, 1);
		q->own[r] = q->own[r + 1] = 1;
	}
	return t;
}

/* isalnum (the C locale: the program sets none) or '_', without a call */
static int
is_word(int c)
{
	return (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z') || c == '_';
}

/* Is there a register token at p ("R12", "P3"; not RZ, PT, UR4, SR_)?
 * Returns its number and sets *pred, *w and *len. */
static int
reg_token(const char *start, const char *p, int *pred, int *w, int *len)
{
	const char *e;
	int n = 0;

	if ((*p != 'R' && *p != 'P') || (p > start && is_word((unsigned char)p[-1])))
		return -1;
	if (!isdigit((unsigned char)p[1]))
		return -1;
	for (e = p + 1; isdigit((unsigned char)*e); e++)
		n = n * 10 + (*e - '0');
	if (is_word((unsigned char)*e))
		return -1;
	*pred = *p == 'P';
	*w = 1;
	if (e[0] == ':' && (e[1] == '2' || e[1] == 'p')) {
		*w = e[1] == '2' ? 2 : 3;
		e += 2;
	}
	*len = (int)(e - p);
	return n;
}

void
seq_emit(Seq *q, const char *line)
{
	MFunc *f = q->s->mf;
	char txt[256];   /* the line with mi's register holes */
	MRef refs[MI_MAXREF], gref = mref(-1);
	u8 rf[MI_MAXREF];
	int nref = 0, guarded = 0, gneg = 0, opd = 0, op0_pred = 0, fl = 0, i;
	const char *p = line, *ops;
	MIns *m;

	if (*p == '@') {
		int pr, w, len;
		p++;
		gneg = *p == '!';
		p += gneg;
		pr = reg_token(line, p, &(int){0}, &w, &len);
		if (pr >= 0 && pr < SEQ_NP && q->P[pr].v < 0 && q->sub)
			seq_miss(q, pr, 1, 1);
		if (pr < 0 || pr >= SEQ_NP || q->P[pr].v < 0)
			die("seq: bad guard in \"%s\"", line);
		gref = q->P[pr];
		guarded = 1;
		p += len;
		while (*p == ' ')
			p++;
	}
	ops = strchr(p, ' ');
	fl = ops ? (int)(ops + 1 - p) : (int)strlen(p);   /* the opcode and the space after it */
	if (fl > (int)sizeof txt - 4)
		die("seq: line too long");
	memcpy(txt, p, (size_t)fl);
	p += fl;
	/* operand boundaries: count ", " separators as we copy */
	for (; *p; ) {
		int pred, w, len, r = -1;
		if (*p == ',') {
			opd++;
			txt[fl++] = *p++;
			continue;
		}
		if (*p == 'R' || *p == 'P')   /* a register token starts so: no call for the rest */
			r = reg_token(line, p, &pred, &w, &len);
		if (r < 0) {
			if (fl >= (int)sizeof txt - 4)
				die("seq: line too long");
			txt[fl++] = *p++;
			continue;
		}
		if (r >= (pred ? SEQ_NP : SEQ_NR - 1) || nref == MI_MAXREF)
			die("seq: bad register in \"%s\"", line);
		{
			int def = opd == 0 || (opd == 1 && pred && p[-1] != '!' &&
			                       (op0_pred || strchr(p, ',')));
			if (opd == 0)
				op0_pred = pred;
			/* uses are resolved before this instruction's defs */
			if (def) {
				refs[nref] = mref(-2 - (r * 8 + pred * 4 + (w - 1)));
			} else if (pred) {
				if (q->P[r].v < 0)
					seq_miss(q, r, 1, 1);
				refs[nref] = q->P[r];
			} else {
				if (w == 3)
					die("seq: R%d:p read in \"%s\"", r, line);
				refs[nref] = w == 2 ? seq_pair(q, r) : seq_get(q, r);
			}
			txt[fl++] = 1;   /* the hole of ref nref */
			txt[fl++] = (char)(nref + 1);
			rf[nref++] = def ? MF_DEF : MF_USE;
			p += len;
		}
	}
	/* now the defs */
	for (i = 0; i < nref; i++)
		if (refs[i].v <= -2) {
			int code = -2 - refs[i].v;
			int r = code / 8, pred = code / 4 & 1, w = 1 + (code & 3);
			refs[i] = def_reg(q, r, w, pred, guarded);
		}
	if (guarded) {
		f->guard = gref.v;
		f->guard_neg = (u8)gneg;
	}
	m = mi_holes(f, txt, (size_t)fl, refs, rf, nref);
	if (!guarded && nref == 2 && fl == 10 && !memcmp(txt, "MOV \1\1, \1\2", 10))
		m->copy = 1;
	f->guard = -1;
	f->guard_neg = 0;
}

static const char *const *seq_call(Seq *q, const char *const *skip);

/* Lines "SKIP P6" / "SKIP !P6" and "JOIN" call seq_skip / seq_join (with
 * q->share: the lines between them become a shared subroutine). */
void
seq_lines(Seq *q, const char *const *lines)
{
	for (; *lines; lines++) {
		if (!strncmp(*lines, "SKIP ", 5) && q->share)
			lines = seq_call(q, lines);
		else if (!strncmp(*lines, "SKIP ", 5))
			seq_skip(q, *lines + 5);
		else if (!strcmp(*lines, "JOIN"))
			seq_join(q);
		else
			seq_emit(q, *lines);
	}
}

/* ---- out-of-line slow paths ----
 *
 * seq_skip emits "@!P BRA join" (P = the predicate register named, e.g.
 * "P6", or "!P6"): the instructions up to seq_join run only when P holds.
 * seq_join ends them with "BRA join".  Join targets are marks until
 * seq_link (run right after instruction selection) splits the block after
 * each closing branch, points both branches at the new block and drops
 * the closing one (it only fell through).  The skipped instructions are a
 * block of their own after the reconvergence pass splits after the first
 * branch. */
enum { JOIN_MARK = -2000000 };
static int njoins;

void
seq_skip(Seq *q, const char *pred)
{
	MFunc *f = q->s->mf;
	int neg = pred[0] == '!', r = atoi(pred + neg + 1);

	if (r < 0 || r >= SEQ_NP || q->P[r].v < 0)
		die("seq: bad skip predicate %s", pred);
	q->join = JOIN_MARK - njoins++;
	f->guard = q->P[r].v;
	f->guard_neg = (u8)!neg;
	mi(f, "BRA %L", q->join);
	f->guard = -1;
	f->guard_neg = 0;
}

void
seq_join(Seq *q)
{
	mi(q->s->mf, "BRA %L", q->join);
}

/* A fresh mark for branches that seq_label later places. */
int
seq_mark(void)
{
	return JOIN_MARK - njoins++;
}

/* Place mark here: an unguarded "BRA mark" that seq_link turns into the
 * start of a block (the target of every branch to the mark, before or
 * after it: a loop head or a join). */
void
seq_label(MFunc *f, int mark)
{
	int g = f->guard, gn = f->guard_neg;

	f->guard = -1;
	f->guard_neg = 0;
	mi(f, "BRA %L", mark);
	f->guard = g;
	f->guard_neg = (u8)gn;
}

/* Side-effect-free instructions whose results nobody reads (sequences'
 * unused temporaries, address arithmetic folded into an offset) go, to
 * a fixpoint.  Only the pure opcodes below, and only when every register
 * the instruction writes is a vreg read nowhere (fixed registers are
 * written literally and keep their instruction). */
static int
pure_op(const char *t)
{
	static const char *const ops[] = {
		"MOV", "IMAD", "IADD3", "VIADD", "LOP3", "SHF", "ISETP", "FSETP", "DSETP", "PLOP3", "SEL", "FSEL",
		"LEA", "IABS", "IMNMX", "VIMNMX", "FADD", "FMUL", "FFMA", "FMNMX", "DADD", "DMUL", "DFMA", "PRMT",
		"POPC", "FLO", "BREV", "BMSK", "LDC", "ULDC", "UMOV", "UIADD3", "ULOP3", "USHF", "UIMAD", "ULEA",
		"HADD2", "HMUL2", "HFMA2", "I2F", "F2I", "F2F", "I2FP", "F2FP", "FRND", "MUFU", "CS2R", NULL,
	};
	int i;

	for (i = 0; ops[i]; i++)
		if (mir_op_is(t, ops[i]))
			return 1;
	return 0;
}

/* uses[] counts the reads of each vreg; an instruction that goes takes
 * its reads off at once, and another sweep follows only when a count
 * reached 0 (some instruction may have lost its last reader).  Removal
 * only enables removal, so the order of the sweeps does not change what
 * goes. */
static int
drop_reads(const MIns *m, int *uses)
{
	int k, zeroed = 0;

	for (k = 0; k < m->nr; k++)
		if (m->rf[k] & MF_USE)
			zeroed |= --uses[m->r[k].v] == 0;
	if (m->guard >= 0)
		zeroed |= --uses[m->guard] == 0;
	return zeroed;
}

static void
mir_dce(MFunc *f)
{
	MCounts c;
	int *uses, k, zeroed = 1;
	size_t b, i, j;

	mir_counts(f, &c);
	uses = c.uses;
	while (zeroed) {
		zeroed = 0;
		for (b = 0; b < f->b.n; b++) {
			MBlock *B = &f->b.v[b];
			for (i = j = 0; i < B->ins.n; i++) {
				const MIns *m = &B->ins.v[i];
				int dead = m->target < 0, defs = 0;
				for (k = 0; k < m->nr && dead; k++)
					if (m->rf[k] & MF_DEF) {
						defs++;
						dead = !uses[m->r[k].v] && !f->vr.v[m->r[k].v].fixed;
					}
				if (dead && defs && pure_op(m->text)) {   /* the name last: the dearest test */
					zeroed |= drop_reads(m, uses);
					continue;
				}
				if (j != i)   /* an MIns is 128 bytes: most stay where they are */
					B->ins.v[j] = *m;
				j++;
			}
			B->ins.n = j;
		}
	}
	mir_counts_free(&c);
}

void
seq_link(MFunc *f)
{
	size_t b, i, k;

	for (b = 0; b < f->b.n; b++)
		for (i = 0; i < f->b.v[b].ins.n; i++) {
			const MIns *m = &f->b.v[b].ins.v[i];
			int t = m->target;
			MBlock *B, *N;
			size_t bb, ii;
			if (t > JOIN_MARK || m->guard >= 0 || strncmp(m->text, "BRA ", 4))
				continue;
			mir_insert_block(f, (int)b + 1);
			B = &f->b.v[b];
			N = &f->b.v[b + 1];
			for (k = i + 1; k < B->ins.n; k++)
				vec_push(&N->ins, B->ins.v[k]);
			B->ins.n = i;  /* the closing branch goes too */
			for (bb = 0; bb < f->b.n; bb++)
				for (ii = 0; ii < f->b.v[bb].ins.n; ii++)
					if (f->b.v[bb].ins.v[ii].target == t)
						f->b.v[bb].ins.v[ii].target = (int)b + 1;
			break;
		}
	mir_cfg_recompute(f);
	mir_dce(f);
}

/* ---- shared slow paths ----
 *
 * ptxas emits a slow path once per kernel as a subroutine and calls it
 * from every use.  seq_call does the same for the lines between "SKIP P"
 * and "JOIN": the first use in a function emits them as a body in a
 * block of its own at the end of the function, with fresh vregs; every
 * register the body reads before writing it is an input, copied in at
 * each call; the lines guarded by the skip condition itself ("@P6 MOV
 * R24, R40" after "SKIP P6") write the results, which each call copies
 * out into the caller's registers.  A call is
 *
 *     @!P6 BRA join ; MOV inputs ; MOV ra, ret ; CALL.REL.NOINC body
 *   ret: MOV results
 *   join:
 *
 * and the body ends MOV ra.hi, RZ ; RET.REL.NODEC ra.  reconv_link_calls
 * (reconv.c) gives the register allocator the body's place in the CFG. */

/* "@P6 MOV R24, R40" (cond "P6"): the line without its guard, and the
 * register it writes in *r; NULL when the guard is something else. */
static const char *
result_line(const char *line, const char *cond, int *r)
{
	size_t n = strlen(cond);
	const char *p;

	if (line[0] != '@' || strncmp(line + 1, cond, n) || line[1 + n] != ' ')
		return NULL;
	p = line + 2 + n;
	if (strncmp(p, "MOV R", 5) || !isdigit((unsigned char)p[5]))
		return NULL;
	*r = atoi(p + 5);
	return p;
}

static SeqSub *
sub_body(Seq *q, const char *const *skip)
{
	Sel *s = q->s;
	MFunc *f = s->mf;
	SeqSub *b = arena_alloc(f->a, sizeof *b);
	MBlock mb = {0};
	const char *const *l;
	const char *cond = *skip + 5;
	int cur = f->cur, r, k;
	Seq qb;

	memset(b, 0, sizeof *b);
	b->key = skip;
	mb.succ[0] = mb.succ[1] = -1;
	vec_push(&f->b, mb);
	b->block = (int)f->b.n - 1;
	f->cur = b->block;
	seq_init(&qb, s);
	qb.sub = b;
	for (l = skip + 1; *l && strcmp(*l, "JOIN"); l++) {
		const char *t = result_line(*l, cond, &r);
		if (!strncmp(*l, "SKIP ", 5))
			die("seq: SKIP inside a shared body");
		seq_emit(&qb, t ? t : *l);
		if (!t)
			continue;
		for (k = 0; k < b->nout && b->out[k].r != r; k++)
			;
		if (k == b->nout) {
			if (b->nout == SUB_NOUT)
				die("seq: more than %d subroutine results", SUB_NOUT);
			b->out[b->nout++].r = r;
		}
	}
	if (!*l)
		die("seq: SKIP without JOIN");
	for (k = 0; k < b->nout; k++)
		b->out[k].v = seq_get(&qb, b->out[k].r);
	b->ra = sel_tmp(s, 2);
	mi(f, "MOV %D, RZ", mpart(b->ra.v, 1, 1));
	mi(f, "RET.REL.NODEC %U 0x0", b->ra);
	seq_end(&qb);
	f->cur = cur;
	b->next = s->subs;
	s->subs = b;
	return b;
}

/* The call of the shared body of the lines at skip ("SKIP P" .. "JOIN");
 * returns the JOIN line. */
static const char *const *
seq_call(Seq *q, const char *const *skip)
{
	Sel *s = q->s;
	MFunc *f = s->mf;
	SeqSub *b;
	const char *const *l;
	int k, ret = seq_mark();

	for (b = s->subs; b && b->key != skip; b = b->next)
		;
	if (!b)
		b = sub_body(q, skip);
	for (l = skip + 1; *l && strcmp(*l, "JOIN"); l++)
		;
	seq_skip(q, *skip + 5);
	for (k = 0; k < b->nin; k++) {
		int r = b->in[k].r;
		MRef v = b->in[k].v;
		/* a guarded write in the body of what the caller never wrote
		 * made an input of it: undefined where the guard is false,
		 * as inline */
		if (b->in[k].pred ? q->P[r].v < 0 : q->R[r].v < 0 && (b->in[k].w == 1 || q->R[r + 1].v < 0))
			continue;
		if (b->in[k].pred) {
			mi(f, "PLOP3.LUT %D, PT, %U, PT, PT, 0x80, 0x0", v, q->P[r]);
		} else if (b->in[k].w == 2) {
			MRef pr = seq_pair(q, r);
			if (pr.v == f->rz) {
				sel_mov32(s, mpart(v.v, 0, 1), mopd_reg(pr));
				sel_mov32(s, mpart(v.v, 1, 1), mopd_reg(pr));
			} else {
				sel_mov32(s, mpart(v.v, 0, 1), mopd_reg(mpart(pr.v, pr.sub, 1)));
				sel_mov32(s, mpart(v.v, 1, 1), mopd_reg(mpart(pr.v, pr.sub + 1, 1)));
			}
		} else {
			sel_mov32(s, v, mopd_reg(seq_get(q, r)));
		}
	}
	mi(f, "MOV %D, %L", mpart(b->ra.v, 0, 1), ret);
	mi(f, "CALL.REL.NOINC %L", b->block);
	seq_label(f, ret);
	for (k = 0; k < b->nout; k++) {
		int r = b->out[k].r;
		if (q->R[r].v < 0 || !q->own[r])
			die("seq: subroutine result R%d is not the sequence's own", r);
		sel_mov32(s, q->R[r], mopd_reg(b->out[k].v));
	}
	seq_join(q);
	return l;
}

/* seq_emit of a printf-formatted line. */
void
seq_emitf(Seq *q, const char *fmt, ...)
{
	char line[160];
	va_list ap;

	va_start(ap, fmt);
	str_vprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	seq_emit(q, line);
}


/* R(d):R(d+1) = the high 64 bits of the unsigned 128-bit product of the
 * pairs at a and b (temporaries R40..R47, P3, P4), ptxas's seven
 * instructions: m = a0*b1 + a1*b0 (65 bits: carry P3), the carry P4 of
 * (a0*b0).hi + m.lo, then a1*b1 + {m.hi, P3} + P4. */
void
seq_mulhi_u64(Seq *q, int d, int a, int b)
{
	seq_emitf(q, "IMAD.WIDE.U32 R40:2, R%d, R%d, RZ", a + 1, b);
	seq_emitf(q, "IMAD.WIDE.U32 R42:2, R%d, R%d, RZ", a, b);
	seq_emitf(q, "IMAD.WIDE.U32 R44:2, P3, R%d, R%d, R40:2", a, b + 1);
	seq_emit(q, "IADD3 RZ, P4, R43, R44, RZ");
	seq_emit(q, "MOV R46:p, R45");
	seq_emit(q, "IADD3.X R47:p, RZ, RZ, RZ, P3, !PT");
	seq_emitf(q, "IMAD.WIDE.U32.X R%d:2, R%d, R%d, R46:2, P4", d, a + 1, b + 1);
}

/* R(d):R(d+1) = the low 64 bits of a * b (pairs). */
void
seq_mullo_u64(Seq *q, int d, int a, int b)
{
	seq_emitf(q, "IMAD.WIDE.U32 R54:2, R%d, R%d, RZ", a, b);
	seq_emitf(q, "IMAD R56, R%d, R%d, R55", a, b + 1);
	seq_emitf(q, "IMAD R%d, R%d, R%d, R56", d + 1, a + 1, b);
	seq_emitf(q, "MOV R%d, R54", d);
}
