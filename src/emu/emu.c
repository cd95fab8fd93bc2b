/* emu.c -- the SASS emulator's driver: find the kernel, predecode its
 * code, lay out constant bank 0 as the driver does, then run the grid one
 * CTA after another, the warps of a CTA cooperatively (see emu.h for the
 * SIMT model). */
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "cubin/kinfo.h"
#include "cubin/listing.h"
#include "emu/emu_int.h"
#include "isa/isa.h"

u64 emu_steps, emu_lane_steps;
double emu_seconds;
char emu_why[256];

void
eerr(Emu *E, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(emu_why, sizeof emu_why, fmt, ap);
	va_end(ap);
	if (!E->o || !E->o->quiet)
		fprintf(stderr, "%s: error: emu: kernel %s, CTA (%u,%u,%u): %s\n", E->path, E->kname,
			E->ctaid[0], E->ctaid[1], E->ctaid[2], emu_why);
	longjmp(E->fail, 1);
}

void
eunsup(Emu *E, const EInsn *I, const char *why)
{
	E->unsupported = 1;
	eerr(E, "unsupported instruction at %s+0x%x: %s%s%s", E->kname, I->pc, I->in.text,
	     why ? ": " : "", why ? why : "");
}

static void
h_unsup(Emu *E, Warp *w, const EInsn *I, u32 mask)
{
	(void)w, (void)mask;
	eunsup(E, I, I->why ? I->why : I->decoded ? "no semantics for this opcode" : NULL);
}

/* ---- decoding ---- */

/* Texts of undecodable words from an external nvdisasm (-b SMxx). */
static void
oracle_texts(Emu *E, const u8 *code, u32 n, char **texts)
{
	char tmp[] = "/tmp/oa-emu-XXXXXX", cmd[1024], line[1024];
	int fd = mkstemp(tmp);
	FILE *f;

	if (fd < 0)
		return;
	if (write(fd, code, (size_t)n * 16) != (ssize_t)n * 16) {
		close(fd);
		unlink(tmp);
		return;
	}
	close(fd);
	snprintf(cmd, sizeof cmd, "'%s' -b SM%d '%s' 2>/dev/null", E->o->oracle, E->sm, tmp);
	if ((f = popen(cmd, "r"))) {
		while (fgets(line, sizeof line, f)) {
			char *p = strstr(line, "/*"), *e;
			unsigned long a;
			if (!p || !(e = strstr(p, "*/")))
				continue;
			a = strtoul(p + 2, NULL, 16);
			if (a % 16 || a / 16 >= n || texts[a / 16])
				continue;
			e += 2;
			while (*e == ' ' || *e == '\t')
				e++;
			p = e + strlen(e);
			while (p > e && (p[-1] == '\n' || p[-1] == ' ' || p[-1] == ';'))
				*--p = 0;
			texts[a / 16] = xstrdup(e);
		}
		pclose(f);
	}
	unlink(tmp);
}

static int
predecode(Emu *E, Arena *ar, const u8 *code, u32 n)
{
	const Arch *a = arch_lookup(E->sm == 90 ? "sm_90" : "sm_80");
	char **texts = xcalloc(n ? n : 1, sizeof *texts), err[256];
	const char *m;
	Buf b = {0};
	u32 i;
	int k, need;

	E->code = arena_alloc(ar, (n ? n : 1) * sizeof *E->code);
	E->ncode = n;
	/* with an oracle, its text is the reference for every word */
	if (E->o && E->o->oracle)
		oracle_texts(E, code, n, texts);
	for (i = 0; i < n; i++) {
		if (texts[i])
			continue;
		Word wd;
		memcpy(&wd.lo, code + 16 * i, 8);
		memcpy(&wd.hi, code + 16 * i + 8, 8);
		b.n = 0;
		if (b.s)
			b.s[0] = 0;
		if (isa_print(a, wd, (u64)i * 16, NULL, &b) == 0)
			texts[i] = xstrdup(b.s);
	}
	for (i = 0; i < n; i++) {
		EInsn *I = &E->code[i];
		I->pc = i * 16;
		if (!texts[i]) {
			Word wd;
			memcpy(&wd.lo, code + 16 * i, 8);
			memcpy(&wd.hi, code + 16 * i + 8, 8);
			b.n = 0;
			buf_printf(&b, "UNKNOWN 0x%016llx, 0x%016llx", (unsigned long long)wd.lo,
				   (unsigned long long)wd.hi);
			I->in.text = arena_strdup(ar, b.s);
			I->in.op = "UNKNOWN";
			I->fn = h_unsup;
			continue;
		}
		I->decoded = 1;
		if (insn_parse(texts[i], &I->in, ar, err, sizeof err) < 0) {
			/* the printer wrote something we cannot read */
			I->in.text = arena_strdup(ar, texts[i]);
			I->why = arena_strdup(ar, err);
			I->fn = h_unsup;
			continue;
		}
		I->fn = emu_handler(I->in.op);
		if (!I->fn)
			I->fn = h_unsup;
		else if (emu_check_regs(I) < 0) {
			I->why = "register number out of range";
			I->fn = h_unsup;
		} else if ((k = emu_check_align(I, &need)) >= 0) {
			b.n = 0;
			buf_printf(&b, "operand %d (%sR%u) is a register %s: it must start at %s register",
				   k + 1, I->in.o[k].kind == OPK_UR || I->in.o[k].rk == OPK_UR ? "U" : "",
				   I->in.o[k].reg, need == 2 ? "pair" : "quad",
				   need == 2 ? "an even" : "a multiple-of-4");
			I->why = arena_strdup(ar, b.s);
			I->fn = h_unsup;
		} else if (!emu_is_nop(I->fn) && (m = emu_check_mods(I))) {
			b.n = 0;
			buf_printf(&b, "modifier .%s is not emulated", m);
			I->why = arena_strdup(ar, b.s);
			I->fn = h_unsup;
		} else
			emu_prep(E, I);
	}
	for (i = 0; i < n; i++)
		free(texts[i]);
	free(texts);
	buf_free(&b);
	return 0;
}

/* The hardware gives a thread REGCOUNT registers: code that touches one
 * beyond them is broken (an H200 raises "illegal instruction"), so the
 * emulator refuses it instead of running it on its 255. */
static int
regs_beyond_count(const Emu *E, const char *path)
{
	u32 i;

	for (i = 0; i < E->ncode; i++) {
		const EInsn *I = &E->code[i];
		int r = I->decoded && I->in.text ? sass_reg_max(I->in.text) : -1;

		if (r >= (int)E->nregs) {
			diag(path, "the instruction at 0x%x (%s) touches R%d, but the kernel's REGCOUNT is %u",
			     I->pc, I->in.text, r, E->nregs);
			return -1;
		}
	}
	return 0;
}

/* ---- launch set-up ---- */

static void
put32(u8 *p, u32 v) { memcpy(p, &v, 4); }
static void
put64(u8 *p, u64 v) { memcpy(p, &v, 8); }

static int
setup_banks(Emu *E, const KernelInfo *k, Arena *ar)
{
	const Spec *s = E->l->spec;
	u32 base = k->param_base ? k->param_base : (E->sm == 90 ? 0x210 : 0x160);
	u32 size = base + MAX(k->param_bytes, 8) + 16, i;
	u8 *cb;
	u64 *addr;
	char name[32];
	int j;

	cb = arena_alloc(ar, size);
	E->cb[0] = cb;
	E->cbsize[0] = size;
	for (i = 0; i < 3; i++) {
		put32(cb + 4 * i, E->ntid[i]);
		put32(cb + 0xc + 4 * i, E->nctaid[i]);
	}
	put64(cb + 0x18, GW_SHARED);
	put64(cb + 0x20, GW_LOCAL);
	put32(cb + 0x28, (u32)E->local_size);
	put32(cb + 0x2c, s->shared);
	put64(cb + 0x30, SPEC_GRIDID);
	put32(cb + 0x10c, SPEC_NSMID);
	put32(cb + 0x114, E->smem_reserve);
	put64(cb + 0x118, 0);
	/* %reserved_smem_offset_end and _1 (a model: the reserve's end; CG's
	   multi-warp scratch 0x100 into it, room for its 288 bytes) */
	put32(cb + (E->sm == 90 ? 0x68 : 0x120), E->sm == 90 ? E->smem_reserve : E->smemsz);
	put32(cb + (E->sm == 90 ? 0x6c : 0x124), (E->sm == 90 ? 0 : E->smemsz - E->smem_reserve) + SPEC_RESV1);
	if (E->sm == 90) {
		float rc;
		put32(cb + 0x140, 1);
		for (i = 0; i < 3; i++) {
			u32 cd = E->coop ? 1 : E->cdim[i];
			put32(cb + 0x144 + 4 * i, cd);
			rc = 1.0f / (float)cd;
			memcpy(cb + 0x150 + 4 * i, &rc, 4);
			put32(cb + 0x15c + 4 * i, E->nctaid[i] / cd);
		}
		put32(cb + 0x188, E->coop ? 1 : E->csize);
		put64(cb + 0x198, GW_PARAM + base);   /* generic address of the parameters */
	}
	if (s->nargs != k->nparams) {
		diag(E->path, "kernel %s has %u parameters, the spec gives %zu", E->kname, k->nparams, s->nargs);
		return -1;
	}
	if (E->coop) {   /* %envreg1:%envreg2 = the workspace (c[0x0][0x40 + 4n], sm_80 0x88 + 4n) */
		u64 ws = emu_add_global(E, arena_alloc(ar, SPEC_COOP_BYTES), SPEC_COOP_BYTES);
		put32(cb + (E->sm == 90 ? 0x44 : 0x8c), (u32)(ws >> 32));
		put32(cb + (E->sm == 90 ? 0x48 : 0x90), (u32)ws);
	}
	addr = arena_alloc(ar, (s->nall + 1) * sizeof *addr);
	for (i = 0; i < s->nall; i++)
		if (s->args[i].is_buffer)
			addr[i] = emu_add_global(E, E->l->data[i], E->l->bytes[i]);
	for (i = 0; i < k->nparams; i++) {
		const SpecArg *a = &s->args[i];
		u8 bytes[SPEC_MAX_STRUCT];
		u32 off, sz, n;
		if (cubin_kparam(E->c, k, i, &off, &sz) < 0 || base + off + MIN(sz, 8) > size) {
			diag(E->path, "kernel %s: no layout for parameter %u", E->kname, i);
			return -1;
		}
		n = launch_param(E->l, i, addr, bytes);
		if ((a->is_buffer || a->is_struct) && sz != n) {
			diag(E->path, "kernel %s: parameter %u receives %s %s of %u bytes but is %u bytes",
			     E->kname, i, a->is_buffer ? "buffer" : "struct", a->name, n, sz);
			return -1;
		}
		if (base + off + sz > size) {
			diag(E->path, "kernel %s: parameter %u (%u bytes at 0x%x) lies outside the parameter space",
			     E->kname, i, sz, off);
			return -1;
		}
		memcpy(cb + base + off, bytes, MIN(sz, n));
	}
	/* other banks from the cubin: c[0x2] per kernel, c[0x3] __constant__ */
	for (j = 1; j < 18; j++) {
		int si;
		snprintf(name, sizeof name, ".nv.constant%d.", j);
		if ((si = cubin_find_ksection(E->c, name, E->kname)) < 0) {
			name[strlen(name) - 1] = 0; /* the module's bank */
			si = cubin_find_section(E->c, name);
		}
		if (si < 0)
			continue;
		const CSection *sec = &E->c->sec.v[si];
		E->cbsize[j] = (u32)sec->size;
		E->cb[j] = arena_alloc(ar, sec->size + 16);
		if (sec->data)
			memcpy(E->cb[j], sec->data, sec->size);
	}
	return 0;
}

/* The cubin's global variables (.nv.global.init, .nv.global) become
 * global regions; secbase[i] is section i's address (0 if none),
 * secdata[i] its bytes.  Called after setup_banks: bank 3 (.nv.constant3,
 * the __constant__ variables) is a global region too, the same bytes, for
 * their generic addresses; its base goes where ptxas's cvta.const reads
 * it, c[0x0][0x50] (sm_80) / c[0x0][0xd0] (sm_90). */
static void
setup_globals(Emu *E, u64 *secbase, u8 **secdata, Arena *ar)
{
	size_t i;

	for (i = 1; i < E->c->sec.n; i++) {
		const CSection *s = &E->c->sec.v[i];
		u8 *d;
		if (!strcmp(s->name, ".nv.constant3") && E->cb[3]) {
			secdata[i] = E->cb[3];
			secbase[i] = emu_add_global(E, E->cb[3], E->cbsize[3] ? E->cbsize[3] : 1);
			put64(E->cb[0] + (E->sm == 90 ? 0xd0 : 0x50), secbase[i]);
			continue;
		}
		if (strcmp(s->name, ".nv.global.init") && strcmp(s->name, ".nv.global"))
			continue;
		d = arena_alloc(ar, s->size + 16);
		if (s->data && !sec_nobits(s->type))
			memcpy(d, s->data, s->size);
		secdata[i] = d;
		secbase[i] = emu_add_global(E, d, s->size ? s->size : 1);
	}
}

static void
rd_le(const u8 *p, void *v, size_t n)
{
	memcpy(v, p, n);
}

/* Relocations of the constant banks (.rel[a].nv.constantN: addresses of
 * global variables and driver functions) and of the global variables'
 * initial bytes (.rel[a].nv.global.init: generic addresses, whole or one
 * byte).  Code relocations and other types are not emulated: the kernel
 * is then reported unsupported rather than run wrongly. */
static int
apply_relocs(Emu *E, const u64 *secbase, u8 *const *secdata)
{
	size_t i;

	for (i = 1; i < E->c->sec.n; i++) {
		const CSection *s = &E->c->sec.v[i];
		int rela = s->type == SHT_RELA, bank;
		u64 ent = rela ? 24 : 16, k, tsize;
		const char *tgt;
		u8 *t;
		if ((s->type != SHT_RELA && s->type != SHT_REL) || !s->size || !s->data)
			continue;
		tgt = s->name + (rela ? 5 : 4);
		if (!strcmp(tgt, ".nv.global.init")) {
			if (s->info >= E->c->sec.n || !(t = secdata[s->info]))
				return snprintf(emu_why, sizeof emu_why, "a relocation of a missing section"), -1;
			tsize = E->c->sec.v[s->info].size;
		} else if (!strncmp(tgt, ".nv.constant", 12)) {
			bank = atoi(tgt + 12);
			if (bank <= 0 || bank >= 18 || !E->cb[bank])
				continue;
			t = E->cb[bank];
			tsize = E->cbsize[bank];
		} else {
			if (!strncmp(tgt, ".text.", 6) && !strcmp(tgt + 6, E->kname))
				return snprintf(emu_why, sizeof emu_why, "code relocations are not emulated"), -1;
			continue;
		}
		for (k = 0; k + ent <= s->size; k += ent) {
			u64 off, info, addr;
			i64 add = 0;
			u32 sym, type;
			rd_le(s->data + k, &off, 8);
			rd_le(s->data + k + 8, &info, 8);
			if (rela)
				rd_le(s->data + k + 16, &add, 8);
			sym = (u32)(info >> 32), type = (u32)info;
			if (sym >= E->c->sym.n)
				return snprintf(emu_why, sizeof emu_why, "relocation of a missing symbol"), -1;
			const CSymbol *y = &E->c->sym.v[sym];
			addr = (y->shndx < E->c->sec.n ? secbase[y->shndx] : 0) + y->value + (u64)add;
			if (!y->shndx && (y->info & 0xf) == STT_FUNC) {   /* a function of the driver */
				if (!(addr = emu_extern_addr(y->name)))
					return snprintf(emu_why, sizeof emu_why, "the external function %s is not emulated",
							y->name), -1;
				addr += (u64)add;
			}
			if ((type == 2 || type == 4) && off + 8 <= tsize)   /* R_CUDA_64, R_CUDA_G64 */
				memcpy(t + off, &addr, 8);
			else if (type == 1 && off + 4 <= tsize)
				memcpy(t + off, &addr, 4);
			else if (type >= 0x54 && type <= 0x5b && off < tsize)   /* R_CUDA_8_<8k> */
				t[off] = (u8)(addr >> 8 * (type - 0x54));
			else
				return snprintf(emu_why, sizeof emu_why, "relocation type 0x%x in %s is not emulated", type,
						tgt), -1;
		}
	}
	return 0;
}

/* ---- scheduling ---- */

/* Release lanes blocked at a BSYNC or WARPSYNC whose partners have all
 * arrived (or exited).  Each waiting lane keeps the mask it waits for
 * (for BSYNC, the B register as it was when the lane arrived: another
 * path may reuse the register meanwhile).  A WARPSYNC.EXCLUSIVE group
 * goes only when no lane runs, and one group at a time.  Returns 1 if
 * some lane was released. */
int
emu_release(Warp *w)
{
	u32 l, k, m, q, same, blocked = (emu_st_lanes(w, L_BSYNC) | emu_st_lanes(w, L_WSYNC)) & w->live;
	int any = 0, excl = !(emu_st_lanes(w, L_RUN) & w->live);

	/* lanes only leave these states here (to L_RUN), so blocked covers
	   every lane the scan below can still find waiting; lanes waiting
	   together for the same mask get the same answer: one test each */
	for (m = blocked; m; m &= ~same) {
		u32 waiting = 0, need;
		l = __builtin_ctz(m);
		same = 1u << l;
		if (w->st[l] != L_BSYNC && w->st[l] != L_WSYNC)
			continue;
		for (q = blocked; q; q &= q - 1) {
			k = __builtin_ctz(q);
			if (w->st[k] == w->st[l] && w->warg[k] == w->warg[l])
				waiting |= 1u << k;
		}
		for (q = waiting; q; q &= q - 1) {
			k = __builtin_ctz(q);
			if (w->wmask[k] == w->wmask[l])
				same |= 1u << k;
		}
		need = w->wmask[l] & w->live;
		if ((need & ~waiting) == 0 && (w->st[l] != L_WSYNC || !(w->wexcl >> l & 1) || excl)) {
			for (q = same; q; q &= q - 1)
				w->st[__builtin_ctz(q)] = L_RUN;
			if (w->st[l] == L_RUN && (w->wexcl >> l & 1))
				excl = 0, w->wexcl &= ~same;
			any = 1;
		}
	}
	return any;
}

static void
trace(Emu *E, Warp *w, const EInsn *I, u32 mask)
{
	(void)w;
	fprintf(E->o->trace, "  %04x [%08x] %s\n", I->pc, mask, I->in.text);
}

static u32
popc(u32 x)
{
	x = x - (x >> 1 & 0x55555555u);
	x = (x & 0x33333333u) + (x >> 2 & 0x33333333u);
	return ((x + (x >> 4)) & 0x0f0f0f0fu) * 0x01010101u >> 24;
}

/* The lanes whose PC is pc. */
static u32
pc_eq(const Warp *w, u32 pc)
{
	u32 m = 0;
	int l;

#ifdef __SSE2__
	__m128i p = _mm_set1_epi32((int)pc);
	for (l = 0; l < 32; l += 4) {
		__m128i v = _mm_loadu_si128((const __m128i *)(w->pc + l));
		m |= (u32)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(v, p))) << l;
	}
#else
	for (l = 0; l < 32; l++)
		m |= (u32)(w->pc[l] == pc) << l;
#endif
	return m;
}

/* One warp-instruction by the general rule: run = the runnable lanes, pc
 * and hi their lowest and highest PC. */
static int
warp_step(Emu *E, Warp *w, u32 run, u32 pc, u32 hi)
{
	u32 mask = 0, gm = 0, l;
	const EInsn *I;

	if ((++w->issues & 0xfff) == 0)
		/* every 4096th issue goes to the highest-PC lanes instead, so a
		   lane spinning on a flag another lane of its warp sets cannot
		   starve that lane (independent thread scheduling) */
		pc = hi;
	mask = run & pc_eq(w, pc);
	if (pc % 16 || pc / 16 >= E->ncode)
		eerr(E, "warp %d jumped to 0x%x, outside the kernel's code", w->id, pc);
	I = &E->code[pc / 16];
	for (l = mask; l; l &= l - 1)
		w->pc[__builtin_ctz(l)] = pc + 16;
	gm = emu_guard(w, I, mask);
	if (I->uni)
		gm &= -gm;
	if (E->o && E->o->trace && w->id == E->o->trace_warp &&
	    w->ctaid[0] + E->nctaid[0] * (w->ctaid[1] + E->nctaid[1] * w->ctaid[2]) == (u32)E->o->trace_cta)
		trace(E, w, I, gm);
	if (++E->steps > E->max_steps)
		eerr(E, "more than %llu warp-instructions (an endless loop?)", (unsigned long long)E->max_steps);
	E->lane_steps += popc(gm);
	w->act = mask;
	if (E->timing)
		emu_timing_issue(E, w, (int)(w - E->w), I, gm);
	else
		I->fn(E, w, I, gm);
	return 1;
}

/* The fast issue loop: while the lanes of mask (runnable, all at pc) are
 * the only ones at the lowest PC of the warp's runnable lanes, issue
 * straight-line code (and plain branches taken by all or none) without
 * the per-lane PC scan; the lane PCs are written back when it stops (at
 * anything else that changes PCs or lane states, at a divergent branch,
 * at stop (the next PC other runnable lanes wait at: warp_step would
 * issue both groups together there), or after budget instructions).
 * This issues exactly what warp_step would, one instruction at a time.
 * Returns the number of instructions issued (0: a control instruction
 * comes first; warp_step then issues it). */
static int
warp_fast(Emu *E, Warp *w, int budget, u32 mask, u32 pc, u32 stop)
{
	u32 l;
	int k = 0;

	w->act = mask;
	while (k < budget && pc < stop && pc % 16 == 0 && pc / 16 < E->ncode) {
		const EInsn *I = &E->code[pc / 16];
		u32 gm;
		if (I->ctl == 1)
			break;
		gm = emu_guard(w, I, mask);
		if (I->uni)
			gm &= -gm;
		w->issues++;
		if (++E->steps > E->max_steps)
			eerr(E, "more than %llu warp-instructions (an endless loop?)", (unsigned long long)E->max_steps);
		E->lane_steps += popc(gm);
		k++;
		if (I->ctl == 3) {   /* EXIT: the others go on */
			pc += 16;
			I->fn(E, w, I, gm);
			mask &= ~gm;
			w->act = mask;
			if (!mask)
				return k;
			continue;
		}
		if (I->ctl == 2) {   /* BRA target */
			u32 t = (u32)I->in.o[0].imm;
			if (gm == mask)
				pc = t;
			else if (!gm)
				pc += 16;
			else {
				for (l = 0; l < 32; l++)
					if (mask >> l & 1)
						w->pc[l] = gm >> l & 1 ? t : pc + 16;
				return k;
			}
			continue;
		}
		pc += 16;
		I->fn(E, w, I, gm);
	}
	if (mask == ~0u)
		for (l = 0; l < 32; l++)
			w->pc[l] = pc;
	else
		for (l = mask; l; l &= l - 1)
			w->pc[__builtin_ctz(l)] = pc;
	return k;
}

/* Issue from warp w (up to budget instructions when it is converged and
 * fast is set); returns the number issued, or whether blocked lanes were
 * released when none can run (0: the warp is stuck for now). */
static int
warp_issue(Emu *E, Warp *w, int budget, int fast)
{
	u32 run = 0, pc = ~0u, hi = 0, l, at;
	int k, left;

	run = emu_st_lanes(w, L_RUN) & w->live;
	if (!run)
		return emu_release(w);
	/* usually converged: every runnable lane at the first one's PC */
	pc = hi = w->pc[__builtin_ctz(run)];
	if (!(run & ~(at = pc_eq(w, pc)))) {
		if (fast && (k = warp_fast(E, w, budget, run, pc, ~0u)))
			return k;
		return warp_step(E, w, run, pc, hi);
	}
	for (l = 0; l < 32; l++)
		if (run >> l & 1) {
			pc = MIN(pc, w->pc[l]);
			hi = MAX(hi, w->pc[l]);
		}
	/* diverged: the lowest group runs fast up to the next group's PC, but
	   never through an issue count that sends warp_step to the highest
	   PC (every 4096th) */
	if (fast && (left = 0xfff - (w->issues & 0xfff))) {
		u32 next = ~0u;
		at = run & pc_eq(w, pc);
		for (l = 0; l < 32; l++)
			if ((run >> l & 1) && w->pc[l] > pc)
				next = MIN(next, w->pc[l]);
		if ((k = warp_fast(E, w, MIN(budget, left), at, pc, next)))
			return k;
	}
	return warp_step(E, w, run, pc, hi);
}

/* Wake w's lanes waiting at barrier b (16: the cluster barrier). */
static void
bar_wake(Warp *w, u32 b)
{
	u32 m;

	for (m = emu_st_lanes(w, L_BAR); m; m &= m - 1)
		if (w->warg[__builtin_ctz(m)] == b)
			w->st[__builtin_ctz(m)] = L_RUN;
}

/* Release CTA barriers whose threads have all arrived, and the cluster
 * barrier when every live thread of the cluster arrived. */
static int
release_bars(Emu *E)
{
	u32 live[16] = {0}, all = 0, i, b, r, n = E->csize * E->nwarps;
	int any = 0;

	for (i = 0; i < n; i++) {
		live[E->w[i].rank] += __builtin_popcount(E->w[i].live);
		all += __builtin_popcount(E->w[i].live);
	}
	for (r = 0; r < E->csize; r++)
		for (b = 0; b < 16; b++) {
			u32 want = E->bar_expect[r][b] ? E->bar_expect[r][b] : live[r];
			if (!E->bar_arrived[r][b] || E->bar_arrived[r][b] < want)
				continue;
			for (i = r * E->nwarps; i < (r + 1) * E->nwarps; i++)
				bar_wake(&E->w[i], b);
			if (E->bar_op[r][b]) {
				u32 t = E->bar_true[r][b];
				int v = E->bar_op[r][b] == 1 ? t != 0 : E->bar_op[r][b] == 2 ?
					t == E->bar_arrived[r][b] : t != 0;
				E->red_val[r] = E->bar_op[r][b] == 1 ? t : (u32)v;
				E->red_bool[r] = (u8)v;
			}
			E->bar_arrived[r][b] = 0;
			E->bar_expect[r][b] = 0;
			E->bar_true[r][b] = 0;
			E->bar_op[r][b] = 0;
			any = 1;
		}
	if (E->cl_arrived && E->cl_arrived >= all) {
		E->cl_gen++;
		E->cl_arrived = 0;
		for (i = 0; i < n; i++)
			bar_wake(&E->w[i], 16);
		any = 1;
	}
	return any;
}

/* A warp's state at its CTA's start: the register file is 32 KiB a warp,
 * zero only what the kernel uses; warg and wmask are written whenever a
 * lane blocks and read only then (they keep the previous CTA's values). */
static void
warp_init(Emu *E, Warp *w, int id, u32 rank, const u32 *cta)
{
	u32 left = E->nthreads - (u32)id * 32;

	memset(w->r, 0, E->nregs * sizeof w->r[0]);
	memset(w->p, 0x80, sizeof w->p);
	memset(w->pc, 0, sizeof w->pc);
	memset(w->ur, 0, sizeof w->ur);
	memset(w->b, 0, sizeof w->b);
	memset(w->cgen, 0, sizeof w->cgen);
	w->live = left >= 32 ? ~0u : (1u << left) - 1;
	memset(w->st, L_OFF, sizeof w->st);
	memset(w->st, L_RUN, MIN(left, 32));
	w->up = 0x80;
	w->act = 0;
	w->issues = 0;
	w->id = id;
	w->rank = rank;
	memcpy(w->ctaid, cta, sizeof w->ctaid);
	w->tid0 = (u32)id * 32;
}

/* Run the CTAs of one cluster (one CTA without clusters) cooperatively;
 * E->ctaid is the cluster's first CTA. */
static void
run_cluster(Emu *E)
{
	u32 i, r, id, n = E->csize * E->nwarps;
	int fast = !E->o->trace && !E->timing;

	/* shared memory starts zeroed in every CTA; local memory keeps what the
	   previous CTA left (its contents are undefined at launch) */
	memset(E->shared, 0, E->shared_size * E->csize);
	memset(E->bar_arrived, 0, E->csize * sizeof E->bar_arrived[0]);
	memset(E->bar_expect, 0, E->csize * sizeof E->bar_expect[0]);
	memset(E->bar_true, 0, E->csize * sizeof E->bar_true[0]);
	memset(E->bar_op, 0, E->csize * sizeof E->bar_op[0]);
	E->cl_arrived = E->cl_gen = 0;
	E->nmtx = 0;
	for (r = 0, i = 0; r < E->csize; r++) {
		u32 cta[3];
		cta[0] = E->ctaid[0] + r % E->cdim[0];
		cta[1] = E->ctaid[1] + r / E->cdim[0] % E->cdim[1];
		cta[2] = E->ctaid[2] + r / (E->cdim[0] * E->cdim[1]);
		for (id = 0; id < E->nwarps; id++, i++)
			warp_init(E, &E->w[i], (int)id, r, cta);
		if (E->timing)
			for (id = 0; id < E->nwarps; id++)
				emu_timing_reset(E->timing, (int)(i - E->nwarps + id));
	}
	for (;;) {
		int progress = 0, alive = 0;
		for (i = 0; i < n; i++) {
			Warp *w = &E->w[i];
			int k = 0;
			while (w->live && k < 4096) {
				int f = warp_issue(E, w, 4096 - k, fast);
				if (!f)
					break;
				k += f;
			}
			progress |= k > 0;
			alive |= w->live != 0;
		}
		if (!alive)
			break;
		if (!progress && !release_bars(E))
			eerr(E, "deadlock: every live thread waits (barrier or convergence)");
	}
}

u64
emu_add_global(Emu *E, u8 *data, u64 size)
{
	u64 base = GW_GLOBAL;
	int n = E->ngl;

	if (n)
		base = (E->gl[n - 1].base + E->gl[n - 1].size + 256 + 255) & ~255ull;
	E->gl = xrealloc(E->gl, (n + 1) * sizeof *E->gl);
	E->gl[n].base = base;
	E->gl[n].size = size;
	E->gl[n].data = data;
	E->ngl = n + 1;
	return base;
}

static int
find_kernel(Emu *E, const char *want, KernelInfo *k)
{
	size_t n, i;
	KernelInfo *ks = cubin_kernels(E->c, &n);

	for (i = 0; i < n; i++)
		if (!want || !strcmp(ks[i].name, want)) {
			if (!want && n > 1) {
				diag(E->path, "the cubin has %zu kernels; name one (--kernel or the spec's \"kernel\")", n);
				free(ks);
				return -1;
			}
			*k = ks[i];
			free(ks);
			return 0;
		}
	free(ks);
	if (want)
		diag(E->path, "no kernel named '%s'", want);
	else
		diag(E->path, "no kernel in this cubin");
	return -1;
}

int
emu_run(const Cubin *c, const char *path, const char *kernel, Launch *l, const EmuOpts *o)
{
	static const EmuOpts none;
	Emu *E = xcalloc(1, sizeof *E);
	Arena ar = {0};
	KernelInfo k;
	int si, rc = EMU_ERROR;
	u32 x, y, z, i;
	u64 *secbase = NULL;
	u8 **secdata = NULL;
	struct timespec t0, t1;
	const Spec *s = l->spec;

	emu_steps = emu_lane_steps = 0;
	emu_seconds = 0;
	emu_why[0] = 0;
	E->c = c;
	E->path = path;
	E->o = o ? o : &none;
	E->l = l;
	E->sm = cubin_sm(c);
	E->max_steps = E->o->max_steps ? E->o->max_steps : (1ull << 32);
	if (E->sm != 80 && E->sm != 90) {
		diag(path, "emu: only sm_80 and sm_90 cubins can run (this one is sm_%d)", E->sm);
		goto out;
	}
	if (find_kernel(E, kernel ? kernel : s->kernel, &k) < 0)
		goto out;
	E->kname = k.name;
	if ((si = cubin_find_ksection(c, ".text.", k.name)) < 0 || !c->sec.v[si].data) {
		diag(path, "kernel %s has no code section", k.name);
		goto out;
	}
	for (i = 0; i < 3; i++) {
		E->ntid[i] = s->block[i] ? s->block[i] : 1;
		E->nctaid[i] = s->grid[i] ? s->grid[i] : 1;
	}
	E->nthreads = E->ntid[0] * E->ntid[1] * E->ntid[2];
	if (E->nthreads == 0 || E->nthreads > 1024) {
		diag(path, "a CTA of %u threads (1..1024 allowed)", E->nthreads);
		goto out;
	}
	/* cluster shape: the spec's, else the kernel's CTA_PER_CLUSTER */
	for (i = 0; i < 3; i++) {
		E->cdim[i] = s->cluster[i] ? s->cluster[i] : k.cluster[i] ? k.cluster[i] : 1;
		if (E->sm < 90)   /* no clusters before sm_90: every CTA is its own */
			E->cdim[i] = 1;
		if (E->nctaid[i] % E->cdim[i]) {
			diag(path, "the grid (%u,%u,%u) is not a multiple of the cluster (%u,%u,%u)", E->nctaid[0],
			     E->nctaid[1], E->nctaid[2], E->cdim[0], E->cdim[1], E->cdim[2]);
			goto out;
		}
	}
	if ((E->coop = s->cooperative))   /* every CTA at once: one scheduling group */
		memcpy(E->cdim, E->nctaid, sizeof E->cdim);
	E->csize = E->cdim[0] * E->cdim[1] * E->cdim[2];
	if (E->csize > 16) {
		diag(path, E->coop ? "a cooperative grid of %u CTAs (the emulator runs at most 16 at once)"
				   : "a cluster of %u CTAs (at most 16)", E->csize);
		goto out;
	}
	E->nwarps = (E->nthreads + 31) / 32;
	E->nregs = k.regs && k.regs < 255 ? k.regs : 255;
	E->local_size = ((u64)k.frame + k.min_stack + 4096 + 15) & ~15ull;
	/* SR_SMEMSZ: the CTA's allocation, the driver's 1 KiB reserve (its
	   size at c[0x0][0x114]) + static + dynamic.  sm_90: the reserve is
	   the window's first 1 KiB, which .nv.shared.K's size includes when
	   the kernel uses shared memory; sm_80: it follows the dynamic bytes
	   (%reserved_smem_offset_begin = SR_SMEMSZ - c[0x0][0x114]).  The
	   whole allocation is backed. */
	E->smem_reserve = SPEC_RESV;
	E->smemsz = (u32)((E->sm == 90 ? MAX(k.shared, E->smem_reserve) : k.shared) + 15) / 16 * 16 + s->shared +
		    (E->sm == 90 ? 0 : E->smem_reserve);
	E->shared_size = E->smemsz;
	E->shared = xcalloc(E->csize, E->shared_size + 16);
	E->local = xcalloc((size_t)E->csize * E->nwarps * 32, E->local_size);
	E->w = xcalloc((size_t)E->csize * E->nwarps, sizeof *E->w);
	if (setjmp(E->fail)) {
		rc = E->unsupported ? EMU_UNSUPPORTED : EMU_ERROR;
		goto out;
	}
	secbase = xcalloc(c->sec.n + 1, sizeof *secbase);
	secdata = xcalloc(c->sec.n + 1, sizeof *secdata);
	if (predecode(E, &ar, c->sec.v[si].data, (u32)(c->sec.v[si].size / 16)) < 0 ||
	    regs_beyond_count(E, path) < 0 || setup_banks(E, &k, &ar) < 0)
		goto out;
	setup_globals(E, secbase, secdata, &ar);
	if (apply_relocs(E, secbase, secdata) < 0) {
		if (!E->o->quiet)
			fprintf(stderr, "%s: error: emu: kernel %s: %s\n", path, k.name, emu_why);
		rc = EMU_UNSUPPORTED;
		goto out;
	}
	/* after the relocations: the fast forms fold constant bank values
	   (not in timing mode: it logs writes through the general handlers) */
	if (E->o->timing)
		E->timing = emu_timing_new(E, c->sec.v[si].data);
	else
		emu_fast_prep(E);
	for (i = 0; i < E->ncode; i++) {
		EInsn *I = &E->code[i];
		I->ctl = emu_is_control(I->fn);
		if (emu_is_bra(I->fn) && I->in.nops == 1 && I->in.o[0].kind == OPK_IMM &&
		    !insn_has(&I->in, "DIV") && !insn_has(&I->in, "CONV") && !insn_has(&I->in, "ANY"))
			I->ctl = 2;   /* a plain branch: warp_fast takes it */
		if (I->ctl && !strcmp(I->in.op, "EXIT") && I->in.nops == 0 && I->in.nmods == 0)
			I->ctl = 3;   /* likewise */
	}
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);   /* one core: CPU time */
	for (z = 0; z < E->nctaid[2]; z += E->cdim[2])
		for (y = 0; y < E->nctaid[1]; y += E->cdim[1])
			for (x = 0; x < E->nctaid[0]; x += E->cdim[0]) {
				E->ctaid[0] = x, E->ctaid[1] = y, E->ctaid[2] = z;
				run_cluster(E);
			}
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);   /* one core: CPU time */
	emu_seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
	rc = EMU_OK;
out:
	emu_steps = E->steps;
	emu_lane_steps = E->lane_steps;
	free(E->shared);
	free(E->local);
	free(E->w);
	free(E->gl);
	free(E->heap_data);
	dev_heap_free(&E->heap);
	free(secbase);
	free(secdata);
	emu_timing_free(E->timing);
	emu_tlog = NULL;   /* a run stopped inside a timed instruction */
	free(E);
	arena_free(&ar);
	return rc;
}
