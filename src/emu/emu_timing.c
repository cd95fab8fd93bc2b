/* emu_timing.c -- the emulator's timing mode (emu --timing): a register
 * read that comes before its producer's result is due returns the stale
 * value, as it would on hardware, so a kernel with too-short stall counts
 * or a missing scoreboard wait computes the wrong answer.
 *
 * Model (the hazard checker's, src/codegen/hazard.c, read forward):
 * each warp has a cycle count that every issue advances by the
 * instruction's stall field.  A fixed-latency producer's result is due
 * to a consumer once the cycles since its issue reach lat_need() for
 * the producer's class, the register file and the consumer's category
 * (or the table's exception for the consumer's class).  A variable-
 * latency producer's result is due only after an instruction waits on
 * the write scoreboard it set (the wait mask, or DEPBAR.LE SBk, n for
 * all but the n newest).  The register writes of each instruction are
 * logged by the write helpers (e_setr, e_wr, e_wrp: emu_tlog); until a
 * write is due for the instruction at hand, the old values are swapped
 * in while it runs (OA_TIMING_DEBUG=1 prints each such write).
 * Not modelled: read scoreboards (sources are read at issue), memory
 * (loads see memory as of their issue; stores land at once), other
 * warps (each warp has its own clock). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/latency.h"
#include "emu/emu_int.h"

enum { TF_R, TF_UR, TF_P, TF_UP };   /* the order of LF_R .. LF_UP */

/* A register write in flight: file, register, the lanes it wrote and
 * their values before it. */
typedef struct {
	u8 file, sb, swapped;   /* sb: write scoreboard (variable latency), 7: fixed */
	u16 reg;
	u32 lanes;
	u32 old[32], cur[32];   /* cur: the new values while old is swapped in */
	u64 t, seq;             /* issue cycle, issue number */
	u32 prod;               /* the producer's index in E->code */
	int due;                /* fixed: cycles after which every consumer sees it */
} Flight;

/* Per instruction facts, computed once. */
typedef struct {
	Ctrl ctrl;
	const char *cls;        /* latency class (producer and consumer) */
	u8 var, cat;
	int dep_sb, dep_n;      /* DEPBAR.LE SBk, n: k and n; dep_sb -1 if not one */
	int wide_hi;            /* a fixed .WIDE result's high register, else -1 */
} TInsn;

typedef struct {
	u64 cycle, seq;
	Flight *f;
	int nf, cap;
} TWarp;

typedef struct {
	u8 file;
	u16 reg;
	u8 lane;
	u32 old;
} TWrite;

struct TLog {
	u32 r[256], p[8];       /* lanes written, per register */
	u64 ur;
	u8 up;
	TWrite *v;
	int n, cap;
};

struct EmuTiming {
	const Arch *a;
	TInsn *ti;
	TWarp *tw;              /* one per warp of E->w */
	Arena ar;
	int ntw;
	Flight *nw;             /* the writes of the instruction at hand */
	int cap;
	TLog log;
};

static u32
get(Warp *w, int file, int reg, int l)
{
	switch (file) {
	case TF_R: return w->r[reg][l];
	case TF_UR: return w->ur[reg];
	case TF_P: return w->p[l] >> reg & 1;
	default: return w->up >> reg & 1;
	}
}

static void
set(Warp *w, int file, int reg, int l, u32 v)
{
	switch (file) {
	case TF_R: w->r[reg][l] = v; break;
	case TF_UR: w->ur[reg] = v; break;
	case TF_P: w->p[l] = (u8)((w->p[l] & ~(1u << reg)) | (v & 1) << reg); break;
	default: w->up = (u8)((w->up & ~(1u << reg)) | (v & 1) << reg); break;
	}
}

/* The cycles consumer c needs after producer p wrote file f (LF_*). */
static int
need(EmuTiming *T, const TInsn *p, const TInsn *c, const EInsn *cI, int f, int reg)
{
	int cat = c->cat, n, e;

	/* a predicate read as the guard counts in the guard category */
	if (f == TF_P && cI->in.guard == reg && !cI->in.guard_up)
		cat = LC_GUARD;
	if (f == TF_UP && cI->in.guard == reg && cI->in.guard_up)
		cat = LC_GUARD;
	n = lat_need(T->a, p->cls, f, cat, 1);
	e = lat_exc(T->a, p->cls, f, cat, c->cls);
	if (e >= 0)
		n = e;  /* a consumer's own number, less or more (hazard.c) */
	return f == TF_R && reg == p->wide_hi && cat == LC_ALU ? MAX(n, LAT_WIDE_HI) : n;
}

/* The most any consumer needs: after that the write is visible to all. */
static int
due_all(EmuTiming *T, const TInsn *p, int f)
{
	int c, n = 0;

	for (c = 0; c < LC_NCAT; c++)
		n = MAX(n, lat_need(T->a, p->cls, f, c, 1));
	if (f == TF_R && p->wide_hi >= 0)
		n = MAX(n, LAT_WIDE_HI);
	return MAX(n, lat_exc_max(T->a, p->cls, f));
}

/* "DEPBAR.LE SB0, 0x1": scoreboard and count, else -1. */
static void
depbar(const Insn *in, int *sb, int *n)
{
	*sb = -1;
	*n = 0;
	if (strcmp(in->op, "DEPBAR") || in->nops < 2 || in->o[0].kind != OPK_SB || in->o[1].kind != OPK_IMM)
		return;
	*sb = in->o[0].reg;
	*n = (int)in->o[1].imm;
}

EmuTiming *
emu_timing_new(Emu *E, const u8 *code)
{
	EmuTiming *T = xcalloc(1, sizeof *T);
	u32 i;

	T->a = arch_lookup(E->sm == 90 ? "sm_90" : "sm_80");
	T->ti = xcalloc(E->ncode + 1, sizeof *T->ti);
	T->ntw = (int)(E->csize * E->nwarps);
	T->tw = xcalloc((size_t)T->ntw, sizeof *T->tw);
	for (i = 0; i < E->ncode; i++) {
		TInsn *t = &T->ti[i];
		const EInsn *I = &E->code[i];
		Word wd;
		memcpy(&wd.lo, code + 16 * i, 8);
		memcpy(&wd.hi, code + 16 * i + 8, 8);
		t->ctrl = ctrl_get(wd);
		t->dep_sb = -1;
		t->wide_hi = -1;
		if (!I->decoded || !I->in.op)
			continue;
		t->cls = lat_class(&I->in, &T->ar);
		t->var = lat_of_class(T->a, t->cls).var;
		t->cat = (u8)lat_cat(T->a, &I->in);
		if (!t->var && lat_is_wide(t->cls) && I->in.nops > 0 && I->in.o[0].kind == OPK_R)
			t->wide_hi = I->in.o[0].reg + 1;
		depbar(&I->in, &t->dep_sb, &t->dep_n);
	}
	return T;
}

void
emu_timing_free(EmuTiming *T)
{
	int i;

	if (!T)
		return;
	free(T->ti);
	for (i = 0; i < T->ntw; i++)
		free(T->tw[i].f);
	free(T->tw);
	free(T->nw);
	free(T->log.v);
	arena_free(&T->ar);
	free(T);
}

/* A new launch of the warp's slot: forget its writes in flight. */
void
emu_timing_reset(EmuTiming *T, int wi)
{
	T->tw[wi].nf = 0;
	T->tw[wi].cycle = T->tw[wi].seq = 0;
}

static void
drop(TWarp *tw, int k)
{
	tw->f[k] = tw->f[--tw->nf];
}

/* Writes that have become due for everyone, or waited for. */
static void
retire(EmuTiming *T, TWarp *tw, const TInsn *c)
{
	int k, j;

	for (k = tw->nf - 1; k >= 0; k--) {
		Flight *f = &tw->f[k];
		if (!f->lanes || (f->sb == 7 && tw->cycle - f->t >= (u64)f->due) ||
		    (f->sb != 7 && (c->ctrl.wait >> f->sb & 1)))
			drop(tw, k);
	}
	if (c->dep_sb >= 0) {
		/* all but the dep_n newest producers on the scoreboard */
		for (k = tw->nf - 1; k >= 0; k--) {
			Flight *f = &tw->f[k];
			int newer = 0;
			u64 seen[64];
			int ns = 0, s;
			if (f->sb != c->dep_sb)
				continue;
			for (j = 0; j < tw->nf; j++) {
				if (tw->f[j].sb != c->dep_sb || tw->f[j].seq <= f->seq)
					continue;
				for (s = 0; s < ns && seen[s] != tw->f[j].seq; s++)
					;
				if (s == ns && ns < 64)
					seen[ns++] = tw->f[j].seq, newer++;
			}
			if (newer >= c->dep_n)
				drop(tw, k);
		}
	}
}

static int
cmp_seq_desc(const void *a, const void *b)
{
	const Flight *x = a, *y = b;

	return (x->seq < y->seq) - (x->seq > y->seq);
}

static void
push(TWarp *tw, const Flight *f)
{
	if (tw->nf == tw->cap) {
		tw->cap = tw->cap ? 2 * tw->cap : 16;
		tw->f = xrealloc(tw->f, tw->cap * sizeof *tw->f);
	}
	tw->f[tw->nf++] = *f;
}

/* ---- the write log: every register write a handler makes (e_setr,
 * e_wr, e_wrp, R2P) while a timed instruction runs, with the value it
 * replaced ---- */

TLog *emu_tlog;

void
emu_tlog_write(int file, int reg, int lane, u32 old)
{
	TLog *g = emu_tlog;
	u32 bit = 1u << lane;

	switch (file) {
	case TF_R: if (g->r[reg] & bit) return; g->r[reg] |= bit; break;
	case TF_UR: if (g->ur >> reg & 1) return; g->ur |= 1ull << reg; lane = 0; break;
	case TF_P: if (g->p[reg] & bit) return; g->p[reg] |= bit; break;
	default: if (g->up >> reg & 1) return; g->up |= (u8)(1u << reg); lane = 0; break;
	}
	if (g->n == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 256;
		g->v = xrealloc(g->v, g->cap * sizeof *g->v);
	}
	g->v[g->n].file = (u8)file;
	g->v[g->n].reg = (u16)reg;
	g->v[g->n].lane = (u8)lane;
	g->v[g->n++].old = old;
}

static u32
logged(const TLog *g, int file, int reg)
{
	switch (file) {
	case TF_R: return g->r[reg];
	case TF_UR: return (u32)(g->ur >> reg & 1);
	case TF_P: return g->p[reg];
	default: return g->up >> reg & 1;
	}
}

/* Issue I on lanes gm of warp w (index wi) under the timing model. */
void
emu_timing_issue(Emu *E, Warp *w, int wi, const EInsn *I, u32 gm)
{
	EmuTiming *T = E->timing;
	TWarp *tw = &T->tw[wi];
	const TInsn *c = &T->ti[I->pc / 16];
	TLog *g = &T->log;
	int k, j, nn = 0;
	u32 l;

	retire(T, tw, c);
	if (!strcmp(I->in.op, "CALL") && insn_has(&I->in, "ABS"))
		/* a call out of the code (vprintf...): the callee reads its
		 * arguments and R20:R21 many cycles later, when every fixed-
		 * latency result is there (pending loads were waited for) */
		for (k = tw->nf - 1; k >= 0; k--)
			if (tw->f[k].sb == 7)
				drop(tw, k);
	/* newest first, so the oldest write's old value ends up in place */
	if (tw->nf > 1)
		qsort(tw->f, tw->nf, sizeof *tw->f, cmp_seq_desc);
	for (k = 0; k < tw->nf; k++) {
		Flight *f = &tw->f[k];
		const TInsn *p = &T->ti[f->prod];
		f->swapped = f->sb != 7 || tw->cycle - f->t < (u64)need(T, p, c, I, f->file, f->reg);
		if (!f->swapped)
			continue;
		if (getenv("OA_TIMING_DEBUG"))
			fprintf(stderr, "timing: %04x %s: file %d reg %d from %04x (sb %d) at distance %llu, needs %d\n",
				I->pc, I->in.text, f->file, f->reg, f->prod * 16, f->sb,
				(unsigned long long)(tw->cycle - f->t), need(T, p, c, I, f->file, f->reg));
		for (l = 0; l < 32; l++)
			if (f->lanes >> l & 1) {
				f->cur[l] = get(w, f->file, f->reg, l);
				set(w, f->file, f->reg, l, f->old[l]);
			}
	}
	/* the guard is read at issue too: with the values swapped in */
	gm = emu_guard(w, I, w->act);
	if (I->uni)
		gm &= -gm;
	g->n = 0;
	emu_tlog = g;
	I->fn(E, w, I, gm);
	emu_tlog = NULL;
	/* restore the swapped writes I did not overwrite, oldest first; a
	   lane I wrote is no longer in flight from the older producer */
	for (k = tw->nf - 1; k >= 0; k--) {
		Flight *f = &tw->f[k];
		u32 over = logged(g, f->file, f->reg);
		if (f->swapped)
			for (l = 0; l < 32; l++)
				if ((f->lanes >> l & 1) && !(over >> l & 1))
					set(w, f->file, f->reg, l, f->cur[l]);
		f->lanes &= ~over;
		f->swapped = 0;
	}
	/* I's own writes: in flight from now (grouped by register) */
	tw->seq++;
	if (c->cls && !(c->var && c->ctrl.wrsb == 7))
		for (j = 0; j < g->n; j++) {
			const TWrite *x = &g->v[j];
			Flight *f = NULL;
			for (k = 0; k < nn; k++)
				if (T->nw[k].file == x->file && T->nw[k].reg == x->reg)
					f = &T->nw[k];
			if (!f) {
				if (nn == T->cap) {
					T->cap = T->cap ? 2 * T->cap : 16;
					T->nw = xrealloc(T->nw, T->cap * sizeof *T->nw);
				}
				f = &T->nw[nn++];
				memset(f, 0, sizeof *f);
				f->file = x->file;
				f->reg = x->reg;
				f->t = tw->cycle;
				f->seq = tw->seq;
				f->prod = I->pc / 16;
				f->sb = c->var ? c->ctrl.wrsb : 7;
				f->due = f->sb == 7 ? due_all(T, c, x->file) : 0;
			}
			f->lanes |= 1u << x->lane;
			f->old[x->lane] = x->old;
		}
	for (k = 0; k < nn; k++)
		if (T->nw[k].sb != 7 || T->nw[k].due > 0)
			push(tw, &T->nw[k]);
	/* clear the log's marks */
	for (j = 0; j < g->n; j++) {
		const TWrite *x = &g->v[j];
		if (x->file == TF_R)
			g->r[x->reg] = 0;
		else if (x->file == TF_P)
			g->p[x->reg] = 0;
	}
	g->ur = 0;
	g->up = 0;
	tw->cycle += c->ctrl.stall;
}
