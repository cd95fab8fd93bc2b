/* tables.c -- names and lookups for PTX opcodes, modifiers, special
 * registers, types and state spaces; a small string hash map. */
#include <stdlib.h>
#include <string.h>

#include "ptx/ptxint.h"

/* ---- hash map ---- */

static inline HEnt *
hm_find(const HMap *m, const char *s, size_t n, u32 h)
{
	u32 i, mask = m->cap - 1;

	for (i = h & mask;; i = (i + 1) & mask) {
		HEnt *e = &m->e[i];
		if (!e->k || (e->h == h && e->n == n && hm_same(e->k, s, n)))
			return e;
	}
}

int
hm_get(const HMap *m, const char *s, size_t n)
{
	HEnt *e;

	if (!m->cap)
		return -1;
	e = hm_find(m, s, n, hm_hash(s, n));
	return e->k ? e->v : -1;
}

int
hm_put(HMap *m, const char *s, size_t n, int v)
{
	u32 h = hm_hash(s, n);
	HEnt *e;
	int old;

	if (2 * (m->len + 1) > m->cap) {
		HMap g = {0};
		u32 i;

		g.cap = m->cap ? 2 * m->cap : 64;
		/* cleared by a write, not left to the fresh pages' zeros: a
		 * lookup that misses first would map a page read-only and the
		 * put after it fault a second time */
		g.e = memset(xmalloc(g.cap * sizeof *g.e), 0, g.cap * sizeof *g.e);
		for (i = 0; i < m->cap; i++)
			if (m->e[i].k) {
				*hm_find(&g, m->e[i].k, m->e[i].n, m->e[i].h) = m->e[i];
				g.len++;
			}
		free(m->e);
		*m = g;
	}
	e = hm_find(m, s, n, h);
	old = e->k ? e->v : -1;
	if (!e->k) {
		e->k = s;
		e->n = (u32)n;
		e->h = h;
		m->len++;
	}
	e->v = v;
	return old;
}

void
hm_free(HMap *m)
{
	free(m->e);
	m->e = NULL;
	m->cap = m->len = 0;
}

/* ---- tables ---- */

static const char *const opnames[] = {
	"<none>",
#define OP(id, text) text,
#include "ptx/ops.def"
#undef OP
};

static const struct {
	const char *text;
	u8 cls;
	int val;
} modtab[] = {
	{ "<none>", MC_OTHER, 0 },
#define MOD(id, text, cls, val) { text, MC_##cls, val },
#include "ptx/mods.def"
#undef MOD
};

static const struct {
	const char *text;
	int ncomp;
} sregtab[] = {
	{ "<none>", 0 },
#define SREG(id, text, ncomp) { text, ncomp },
#include "ptx/sregs.def"
#undef SREG
};

/* Generated hash tables of the names above (tools/gen-ptx-hash): no
 * table is built at start-up (that cost 0.23 M instructions a process). */
typedef struct {
	u32 h;     /* hm_hash of the name */
	u16 id;    /* index in its table; 0 = empty slot */
	u16 n;     /* length of the name */
} PtxHashSlot;

#include "ptx/tables_hash.h"

static int
slot_find(const PtxHashSlot *t, u32 cap, const char *const *names, size_t stride, const char *s, size_t n)
{
	u32 h = hm_hash(s, n), i;

	for (i = h & (cap - 1); t[i].id; i = (i + 1) & (cap - 1))
		if (t[i].h == h && t[i].n == n &&
		    hm_same(*(const char *const *)((const char *)names + t[i].id * stride), s, n))
			return t[i].id;
	return -1;
}

const char *
ptx_op_name(PtxOp op)
{
	return (unsigned)op < NELEM(opnames) ? opnames[op] : "<bad>";
}

PtxOp
ptx_op_lookup(const char *text, size_t n)
{
	int v = slot_find(OP_slot, OP_CAP, opnames, sizeof *opnames, text, n);

	return v < 0 ? PTX_OP_NONE : (PtxOp)v;
}

int
ptx_mod_lookup(const char *s, size_t n)
{
	return slot_find(MOD_slot, MOD_CAP, &modtab[0].text, sizeof *modtab, s, n);
}

const char *
ptx_mod_name(PtxModId m)
{
	return (unsigned)m < NELEM(modtab) ? modtab[m].text : "<bad>";
}

int
ptx_mod_class(PtxModId m)
{
	return modtab[m].cls;
}

int
ptx_mod_value(PtxModId m)
{
	return modtab[m].val;
}

int
ptx_sreg_lookup(const char *s, size_t n)
{
	return slot_find(SREG_slot, SREG_CAP, &sregtab[0].text, sizeof *sregtab, s, n);
}

int
ptx_sreg_ncomp(PtxSreg s)
{
	return sregtab[s].ncomp;
}

const char *
ptx_sreg_name(PtxSreg s)
{
	return (unsigned)s < NELEM(sregtab) ? sregtab[s].text : "<bad>";
}

int
ptx_has_mod(const PtxInstr *in, PtxModId m)
{
	int i;

	for (i = 0; i < in->nmods; i++)
		if (in->mods[i] == m)
			return 1;
	return 0;
}

int
ptx_tensor_dims(const PtxInstr *in)
{
	static const PtxModId d[] = { PTX_M_d1d, PTX_M_d2d, PTX_M_d3d, PTX_M_d4d, PTX_M_d5d };

	for (int i = 0; i < 5; i++)
		if (ptx_has_mod(in, d[i]))
			return i + 1;
	return 0;
}

int
ptx_evict_priorities(const PtxInstr *in, int *primary, int *secondary)
{
	int i, n = 0, k;

	*primary = *secondary = 0;
	for (i = 0; i < in->nmods; i++) {
		switch (in->mods[i]) {
		case PTX_M_L2_evict_unchanged: k = 0; break;
		case PTX_M_L2_evict_first: k = 1; break;
		case PTX_M_L2_evict_last: k = 2; break;
		case PTX_M_L2_evict_normal: k = 3; break;
		default: continue;
		}
		*(n++ ? secondary : primary) = k;
	}
	return n;
}

const PtxTypeInfo ptx_typetab[PTX_NTYPES] = {
	[PTX_T_NONE] = { "none", 0, 0, 0 },
	[PTX_T_B8] = { "b8", 1, 0, 0 }, [PTX_T_B16] = { "b16", 2, 0, 0 },
	[PTX_T_B32] = { "b32", 4, 0, 0 }, [PTX_T_B64] = { "b64", 8, 0, 0 },
	[PTX_T_B128] = { "b128", 16, 0, 0 },
	[PTX_T_U8] = { "u8", 1, 0, 0 }, [PTX_T_U16] = { "u16", 2, 0, 0 },
	[PTX_T_U32] = { "u32", 4, 0, 0 }, [PTX_T_U64] = { "u64", 8, 0, 0 },
	[PTX_T_S8] = { "s8", 1, 0, 1 }, [PTX_T_S16] = { "s16", 2, 0, 1 },
	[PTX_T_S32] = { "s32", 4, 0, 1 }, [PTX_T_S64] = { "s64", 8, 0, 1 },
	[PTX_T_F16] = { "f16", 2, 1, 0 }, [PTX_T_F16X2] = { "f16x2", 4, 1, 0 },
	[PTX_T_BF16] = { "bf16", 2, 1, 0 }, [PTX_T_BF16X2] = { "bf16x2", 4, 1, 0 },
	[PTX_T_TF32] = { "tf32", 4, 1, 0 }, [PTX_T_F32] = { "f32", 4, 1, 0 },
	[PTX_T_F64] = { "f64", 8, 1, 0 },
	[PTX_T_E4M3] = { "e4m3", 1, 1, 0 }, [PTX_T_E5M2] = { "e5m2", 1, 1, 0 },
	[PTX_T_E4M3X2] = { "e4m3x2", 2, 1, 0 }, [PTX_T_E5M2X2] = { "e5m2x2", 2, 1, 0 },
	[PTX_T_S4] = { "s4", 1, 0, 1 }, [PTX_T_U4] = { "u4", 1, 0, 0 },
	[PTX_T_B1] = { "b1", 1, 0, 0 }, [PTX_T_F32X2] = { "f32x2", 8, 1, 0 },
	[PTX_T_PRED] = { "pred", 1, 0, 0 },
	[PTX_T_TEXREF] = { "texref", 8, 0, 0 },
	[PTX_T_SAMPLERREF] = { "samplerref", 8, 0, 0 },
	[PTX_T_SURFREF] = { "surfref", 8, 0, 0 },
	[PTX_T_U16X2] = { "u16x2", 4, 0, 0 }, [PTX_T_S16X2] = { "s16x2", 4, 0, 1 },
};

const char *
ptx_type_name(PtxType t)
{
	return (unsigned)t < PTX_NTYPES ? ptx_typetab[t].name : "<bad>";
}

static const char *const spacenames[PTX_NSPACES] = {
	"none", "reg", "sreg", "const", "global", "local", "param", "shared",
	"shared::cluster", "tex", "generic",
};

const char *
ptx_space_name(PtxSpace s)
{
	return (unsigned)s < PTX_NSPACES ? spacenames[s] : "<bad>";
}

const char *
ptx_reg_name(const PtxFunc *f, int id)
{
	static char buf[256];
	const PtxRegDecl *d;

	if (!f || id < 0 || id >= f->nregs)
		return "<noreg>";
	d = &f->regdecls[f->regs[id].decl];
	if (!d->range)
		snprintf(buf, sizeof buf, "%s", d->name);
	else
		snprintf(buf, sizeof buf, "%s%d", d->name, id - d->first);
	return buf;
}

PtxFunc *
ptx_find_func(const PtxModule *m, const char *name)
{
	int i;

	for (i = 0; i < m->nfuncs; i++)
		if (!strcmp(m->funcs[i]->name, name))
			return m->funcs[i];
	return NULL;
}

PtxVar *
ptx_find_var(const PtxModule *m, const char *name)
{
	int i;

	for (i = 0; i < m->nvars; i++)
		if (!strcmp(m->vars[i]->name, name))
			return m->vars[i];
	return NULL;
}
