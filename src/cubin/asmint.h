/* asmint.h -- state shared by the passes of the cubin assembler. */
#ifndef OA_ASMINT_H
#define OA_ASMINT_H

#include "cubin/listing.h"

#define SIZE_AUTO (~0ull) /* symbol size= auto: its whole code section */

typedef struct {
	char s[4096];
	size_t n;
	int quoted;
	const char *at;
} Tok;

typedef struct {
	char *name;
	size_t sec;
	u64 addr;
} Label;

typedef struct {
	Cubin *c;
	Src src;
	int errors;
	const Arch *arch;
	VEC(char *) secnames; /* index 0 = null section */
	VEC(char *) symnames;
	VEC(Label) labels;
	VEC(size_t) ninsn;    /* instructions per section (pass 1) */
	VEC(Buf) data;        /* contents per section */
	size_t cur;           /* current section index */
	int code;             /* current section holds code (pass 1) */
	size_t cursec;
	int have_elf;
	int have_target;
	Label *last_label;    /* the label addr_of resolved last */
	VEC(size_t) regs_auto; /* code sections with regs=auto */
} Asm;

int asm_error(Asm *s, const char *at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int asm_tok(Asm *s, const char **pp, const char *e, Tok *t);
int asm_num(Asm *s, const Tok *t, const char *str, i64 lo, u64 hi, u64 *v);
char *asm_kv(Tok *t);
int asm_secref(Asm *s, const Tok *t, const char *str, u32 *v);
int asm_symref(Asm *s, const Tok *t, const char *str, u32 *v);
int asm_num_or_sym(Asm *s, const Tok *t, u64 max, u64 *v);
void asm_pass2_line(Asm *s, const char *p, const char *e);
void asm_pass3_line(Asm *s, const char *p, const char *e);
void asm_finish(Asm *s);
/* Encode one instruction line of a code section (asm_code.c). */
void asm_insn(Asm *s, const char *p, const char *e);
void asm_attr(Asm *s, Tok *t, const char *q, const char *e);

#endif
