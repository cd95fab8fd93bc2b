/* ptxint.h -- internals shared by the PTX lexer, parser and checker. */
#ifndef OA_PTXINT_H
#define OA_PTXINT_H

#include <setjmp.h>

#include "ptx/hash.h"
#include "ptx/ptx.h"

/* Tokens.  An IDENT is a name (%r1, $L__BB0_1, _Z3fooi, ld); a DOT is a
 * directive or modifier including its dot (.global, .shared::cta, .2d);
 * punctuation is PUNCT with ch. */
enum { TK_EOF, TK_IDENT, TK_DOT, TK_INT, TK_FLOAT, TK_STRING, TK_PUNCT };

typedef struct {
	u8 kind;
	char ch;      /* PUNCT */
	u8 is_f64;    /* FLOAT: 0f form is f32 (is_f64 and ival: set for
			 numbers only, stale after other tokens) */
	u8 space;     /* whitespace or a comment precedes the token */
	u32 pos, len;
	u64 ival;     /* INT value; FLOAT bits */
} Tok;

typedef struct {
	const char *s;
	size_t n, p;
	size_t stop;  /* lex_init */
	const Src *src;
	jmp_buf *fail;
} Lex;

void lex_init(Lex *l, const char *s, size_t n);
void lex_next(Lex *l, Tok *t);
_Noreturn void lex_error(Lex *l, size_t pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Skip to the end of the current line (for .loc, .file arguments). */
void lex_skip_line(Lex *l);

/* String -> int hash map over (pointer, length) keys; the keys are not
 * copied.  Values are ints; lookups of absent keys return -1. */
typedef struct {
	const char *k;
	u32 n, h;
	int v;
} HEnt;
typedef struct {
	HEnt *e;
	u32 cap, len;
} HMap;
int hm_get(const HMap *m, const char *s, size_t n);
/* Sets key to v; returns the previous value or -1. */
int hm_put(HMap *m, const char *s, size_t n, int v);
void hm_free(HMap *m);

/* Tables (tables.c). */
int ptx_mod_lookup(const char *s, size_t n); /* PtxModId or -1 */
int ptx_mod_class(PtxModId m);
int ptx_mod_value(PtxModId m);
int ptx_sreg_lookup(const char *s, size_t n);
int ptx_sreg_ncomp(PtxSreg s);
enum { MC_TYPE, MC_RND, MC_CMP, MC_AOP, MC_MODE, MC_SEM, MC_SCOPE, MC_CACHE,
       MC_VEC, MC_SPACE, MC_FLAG, MC_OTHER };


/* Parser state (parse.c, instr.c). */
typedef struct {
	u8 kind;      /* PTX_SYM_* */
	int index;
	PtxVar *var;
	int depth;    /* scope depth of the declaration */
} Sym;

typedef struct {
	HMap *map;
	const char *k;
	u32 n;
	int old;
} Undo;

typedef struct {
	Lex lx;
	Tok t;
	PtxModule *m;
	Arena *a;
	jmp_buf fail;
	HMap strs;             /* interned strings -> index in strv */
	VEC(const char *) strv;
	HMap gsyms;            /* module symbols -> index in gsym */
	VEC(Sym) gsym;
	VEC(PtxVar *) vars;
	VEC(PtxFunc *) funcs;
	VEC(PtxSection) sections;
	VEC(PtxOperand *) gfix; /* operands naming symbols not yet declared */
	/* the function being parsed */
	PtxFunc *f;
	HMap regmap, rangemap, lsyms, labels;
	/* lookup_reg's memo of range prefixes (%r, %rd, %f: a handful per
	 * function, read by most operands): the prefix's bytes -> its decl
	 * index (or -1), valid while rangegen, bumped whenever rangemap may
	 * change, is the same */
	struct { u64 key; u32 gen; int decl; } rmemo[8];
	u32 rangegen;
	u64 regfilt[4];        /* bits of regmap's names (reg_bit): most
				  operands are range registers, not in it */
	VEC(Sym) lsym;
	VEC(Undo) undo;
	VEC(size_t) scopes;
	VEC(PtxInstr) instrs;   /* the function's, in the arena (body_room) */
	PtxOperand *opd;        /* room for the next instructions' operands */
	int opdroom;
	VEC(PtxReg) regs;
	VEC(PtxRegDecl) decls;
	VEC(int) declscope;     /* scope depth of each decl */
	size_t prev_end;        /* end of the previous token */
	int cdepth;             /* constant-expression nesting */
	int loc_file, loc_line; /* the last .loc in the function */
	VEC(PtxVar *) locals;
	VEC(const char *) labelnames;
	VEC(int) labelat;
	VEC(PtxProto) protos;
	VEC(PtxBtargets) btargets;
	VEC(PtxOperand *) btnames; /* branch-target labels, per btargets */
	VEC(size_t) fixmark;    /* lfix.n at each scope's start */
	VEC(int) labeldepth;    /* scope depth of each label */
	VEC(int) btcount;
	VEC(PtxOperand *) lfix; /* operands to resolve at the end of the function */
	int unresolved;         /* parse_instr: an operand's symbol is not declared yet */
	VEC(PtxPragma) pragmas;
	/* decoded opcode+modifier spellings, keyed by their text */
	HMap tmplmap;
	VEC(PtxInstr) tmpl;
	/* scratch reused by declarations (freed on errors too) */
	Buf ibytes;
	VEC(PtxReloc) irel;
	VEC(PtxVar) pvec;
} P;

_Noreturn void perr(P *p, size_t pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The next token (inline: the parser asks for ~1 per 5 bytes of PTX). */
static inline void
next(P *p)
{
	p->prev_end = p->t.pos + p->t.len;
	lex_next(&p->lx, &p->t);
}

static inline int
is_punct(const P *p, char c)
{
	return p->t.kind == TK_PUNCT && p->t.ch == c;
}

int is_dot(P *p, const char *s);
int is_ident(P *p, const char *s);
void expect_punct(P *p, char c);
const char *tok_str(P *p, const Tok *t); /* interned, NUL-terminated copy */
i64 const_expr(P *p);
void parse_instr(P *p);
int lookup_reg(P *p, const char *s, size_t n);
int resolve_sym(P *p, PtxOperand *o, int labels_too);

#endif
