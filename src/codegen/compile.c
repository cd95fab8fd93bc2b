/* compile.c -- the compiler pipeline (see compile.h). */
#include <stdlib.h>
#include <string.h>

#include "codegen/compile.h"
#include "codegen/ctrlbits.h"
#include "codegen/hazard.h"
#include "codegen/isel.h"
#include "codegen/isel_call.h"
#include "codegen/peep.h"
#include "codegen/sched.h"
#include "codegen/ra.h"
#include "codegen/reconv.h"
#include "cubin/build.h"
#include "cubin/listing.h"
#include "ir/ir.h"
#include "ir/walk.h"
#include "isa/isa.h"

typedef VEC(Word) WordVec;

static const char *opt_names[] = { "safe", "mined", "sched", "opt" };

int
compile_opt_lookup(const char *name)
{
	int i;
	for (i = 0; i < 4; i++)
		if (!strcmp(name, opt_names[i]))
			return i;
	return -1;
}

const char *
compile_opt_name(int opt)
{
	return opt >= 0 && opt < 4 ? opt_names[opt] : "?";
}

static void
dump_ir(const CompileOpts *o, const IrFunc *f, const char *pass, int n)
{
	Buf b = {0};
	if (!o->dump)
		return;
	ir_dump(f, &b);
	fprintf(o->dump, "// after %s (%d changes)\n%s", pass, n, b.s ? b.s : "");
	buf_free(&b);
}

/* The IR passes of each level, then the checker.  A pass that reports
 * no change has left the IR as it was (OA_VERIFY=1 proves it with
 * ir_hash after every pass, and checks after every pass, naming the
 * pass that broke an invariant): the checker runs once after the passes
 * when one of them changed something, and a pass that already ran on
 * the current IR without a change is not run again. */
static void
run_passes(IrFunc *f, const CompileOpts *o)
{
	static const struct {
		const char *name;
		int (*fn)(IrFunc *);
		int level;
	} passes[] = {
		{"paramaddr", ir_paramaddr, OPT_SAFE},
		{"constfold", ir_constfold, OPT_MINED},
		{"copyprop", ir_copyprop, OPT_MINED},
		{"widen", ir_widen, OPT_MINED},
		{"cse", ir_cse, OPT_MINED},
		{"constfold", ir_constfold, OPT_MINED},   /* what CSE made equal */
		{"copyprop", ir_copyprop, OPT_MINED},
		{"unroll", ir_unroll, OPT_OPT},
		{"constfold", ir_constfold, OPT_OPT},   /* the unrolled induction variables */
		{"copyprop", ir_copyprop, OPT_OPT},
		{"fuse", ir_fuse, OPT_MINED},
		{"ifconv", ir_ifconv, OPT_MINED},
		{"dce", ir_dce, OPT_SAFE},
		{"compact", ir_compact, OPT_MINED},
	};
	int full = ir_verify_all();
	int (*idle[16])(IrFunc *);   /* passes that left the current IR unchanged */
	size_t i, nidle = 0, k;
	int changed = 0;   /* since the build's check */
	u64 ptx = full ? ir_ptx_hash(f->f) : 0;

	dump_ir(o, f, "build", 0);
	ir_count_forget();
	for (i = 0; i < sizeof passes / sizeof *passes; i++) {
		int n, rerun;
		u64 h = 0;
		if (o->opt < passes[i].level)
			continue;
		for (k = 0; k < nidle && idle[k] != passes[i].fn; k++)
			;
		rerun = k < nidle;
		if (rerun && !full) {
			dump_ir(o, f, passes[i].name, 0);
			continue;
		}
		if (full)
			h = ir_hash(f);
		ir_count_offer(f);
		n = passes[i].fn(f);
		if (n)
			ir_count_changed();
		changed |= n != 0;
		if (full) {
			ir_verify(f, passes[i].name);
			if ((rerun || !n) && ir_hash(f) != h)
				die("IR changed by %s, which %s", passes[i].name,
				    rerun ? "had left it unchanged before" : "reported no change");
			if (rerun)
				n = 0;
		}
		if (n)
			nidle = 0;
		else if (!rerun)
			idle[nidle++] = passes[i].fn;
		dump_ir(o, f, passes[i].name, n);
	}
	if (!full && changed)
		ir_verify(f, "the IR passes (OA_VERIFY=1 names the pass)");
	if (full && ir_ptx_hash(f->f) != ptx)
		die("the IR passes wrote the PTX operands they share (not through ir_opds_w)");
	ir_count_forget();
}

/* Encode the allocated MIR: block addresses, then each instruction. */
static int
encode(const MFunc *mf, const Arch *a, WordVec *code, u8 **leader, u32 **where, const char *kname)
{
	size_t b, i, n = 0;
	u64 *baddr = xcalloc(mf->b.n + 1, sizeof *baddr);
	Buf t = {0};
	int rc = 0;

	for (b = 0; b < mf->b.n; b++) {
		baddr[b] = 16 * n;
		n += mf->b.v[b].ins.n;
	}
	*leader = xcalloc(n + 1, 1);
	*where = xcalloc(n + 1, sizeof **where);
	for (b = 0; b < mf->b.n; b++) {
		(*leader)[baddr[b] / 16] = 1;
		for (i = 0; i < mf->b.v[b].ins.n; i++)
			(*where)[baddr[b] / 16 + i] = (u32)(b << 16 | i);
	}
	for (b = 0; b < mf->b.n && !rc; b++)
		for (i = 0; i < mf->b.v[b].ins.n; i++) {
			Word w;
			char err[200];
			size_t pos;
			t.n = 0;
			if (t.s)
				t.s[0] = 0;
			mi_render(mf, &mf->b.v[b].ins.v[i], baddr, &t);
			if (isa_parse(a, t.s, 16 * code->n, NULL, &w, err, sizeof err, &pos) < 0) {
				fprintf(stderr, "openassembler: internal error: %s: cannot encode `%s` for %s: %s\n",
					kname, t.s, arch_name(a), err);
				abort();
			}
			vec_push(code, w);
		}
	buf_free(&t);
	free(baddr);
	return rc;
}

static int
cmp_desc(const void *x, const void *y)
{
	u32 a = *(const u32 *)x, b = *(const u32 *)y;
	return (a < b) - (a > b);
}

/* A latency the control bits cannot cover between two instructions
 * (more than 15 stall cycles needed where there is no room): insert a NOP
 * before each consumer the hazard checker found too close to its producer
 * (HZ_LATENCY, HZ_SBWAIT), in the MIR, and encode again.  Returns the
 * number of NOPs inserted. */
static int
pad_consumers(MFunc *mf, const HzFoundVec *found, const u32 *perm, const u32 *where, size_t n)
{
	int added = 0;
	VEC(u32) at = {0};
	size_t i;

	for (i = 0; i < found->n; i++) {
		const HzFound *f = &found->v[i];
		if ((f->kind == HZ_LATENCY || f->kind == HZ_SBWAIT) && f->at < n)
			vec_push(&at, where[perm[f->at]]);
	}
	/* from the last position backwards, so earlier indices stay valid */
	if (at.n)
		qsort(at.v, at.n, sizeof *at.v, cmp_desc);
	for (i = 0; i < at.n; i++) {
		MBlock *B = &mf->b.v[at.v[i] >> 16];
		MIns nop = {0};
		u32 k = at.v[i] & 0xffff;
		if (i && at.v[i] == at.v[i - 1])
			continue;
		nop.text = arena_strdup(mf->a, "NOP");
		nop.guard = -1;
		nop.target = -1;
		mir_insert(B, k, nop);
		added++;
	}
	vec_free(&at);
	return added;
}

/* Encode, schedule, assign control bits and prove them; pad with NOPs
 * where a latency cannot be covered.  Aborts when the hazard checker
 * still objects: a compiler bug.  *rmax: the highest register the words'
 * texts name (sass_reg_max, which hz_decode counted). */
static int
emit_code(const CompileOpts *o, const Arch *arch, MFunc *mf, const char *name, WordVec *code, int *rmax)
{
	int round, ctrl, hz, again;

	for (round = 0;; round++) {
		u8 *leader = NULL;
		u32 *where = NULL, *perm;
		Buf rep = {0};
		HzFoundVec found = {0};
		Arena ar = {0};  /* the decoded words' */
		HIns *ins;
		size_t k, bad;
		code->n = 0;
		encode(mf, arch, code, &leader, &where, name);
		perm = xcalloc(code->n + 1, sizeof *perm);
		ins = xmalloc((code->n + 1) * sizeof *ins);  /* hz_decode fills [0, n) */
		if (hz_decode(arch, code->v, code->n, ins, &ar, &bad) < 0)
			die("%s: our own code does not decode (word %zu)", name, bad);
		for (k = 0; k < code->n; k++)
			perm[k] = (u32)k;
		if (o->opt >= OPT_SCHED)
			sched_blocks(code->v, code->n, leader, perm, ins);
		ctrl = ctrl_assign_decoded(arch, code->v, code->n, ins, o->opt >= OPT_MINED);
		hz = hazard_find_assigned(arch, code->v, code->n, ins, name, &rep, &found, ir_verify_all());
		for (*rmax = -1, k = 0; k < code->n; k++)
			*rmax = MAX(*rmax, ins[k].rmax);
		free(ins);
		arena_free(&ar);
		again = hz > 0 && round < 8 && pad_consumers(mf, &found, perm, where, code->n) > 0;
		vec_free(&found);
		free(leader);
		free(where);
		free(perm);
		if (hz != 0 && !again) {
			fprintf(stderr, "openassembler: internal error: %s: control bits (ctrl_assign %d) fail the hazard"
				" check:\n%s", name, ctrl, rep.s);
			abort();
		}
		buf_free(&rep);
		if (!again)
			return 0;
	}
}

/* The kernel's bank 2 after its code is final: at each function's slot
 * (sel_ftab) its offset in the section; 1 at 0, as ptxas writes. */
static void
ftab_bytes(Sel *s, KernelDesc *kd, Arena *a)
{
	u32 n = (u32)sel_ftab(s), at = 0;
	u8 *t = arena_alloc(a, 8 * (size_t)(n + 1));
	size_t b;

	memset(t, 0, 8 * (size_t)(n + 1));
	t[0] = 1;
	for (b = 0; b < s->mf->b.n; b++) {
		int f = s->mf->b.v[b].func;
		if (f && s->fslot[f - 1])
			memcpy(t + s->fslot[f - 1], &at, 4);
		at += 16 * (u32)s->mf->b.v[b].ins.n;
	}
	kd->cb2 = t;
	kd->ncb2 = 8 * (n + 1);
}

/* Parameter layout in constant bank 0: each parameter's address
 * c[0x0][base + off] aligned to its alignment, as ptxas (a __grid_constant__
 * CUtensorMap, .align 64 or 128, lands at 0x70 on sm_90: 0x280). */
static KParam *
layout_params(const PtxFunc *fn, u32 base, u32 *offs, Arena *a)
{
	KParam *kp = arena_alloc(a, sizeof(KParam) * (size_t)(fn->nparams + 1));
	u32 off = 0;
	int i;

	for (i = 0; i < fn->nparams; i++) {
		u32 al = fn->params[i].align ? fn->params[i].align : 4;
		off = (base + off + al - 1) / al * al - base;
		offs[i] = off;
		off += (u32)fn->params[i].size;
		kp[i].size = (u32)fn->params[i].size;
		kp[i].align = al;
	}
	return kp;
}

/* The MIR checker runs after isel, the peepholes and allocation under
 * OA_VERIFY=1; the allocated code is checked always, by mi_render as
 * encode renders each instruction (mir.h). */
static void
dump_mir(const CompileOpts *o, const MFunc *mf, const char *what, const char *name, int phys)
{
	Buf b = {0};
	if (ir_verify_all())
		mir_verify(mf, what);
	if (!o->dump)
		return;
	mir_dump(mf, &b, phys);
	fprintf(o->dump, "// MIR of %s %s\n%s", name, what, b.s ? b.s : "");
	buf_free(&b);
}

/* isel, allocation, encoding and control bits of one entry. */
/* The kernel's REGCOUNT: the highest general register its code touches
 * (callees and the call ABI's registers included: they share the code)
 * plus 3, as ptxas always writes it (docs/findings-cubin.md).  A count
 * of only the allocator's registers made the H200 raise "illegal
 * instruction" in kernels that call .func code (tools/gpu-check). */
static u32
kernel_regs(const Arch *arch, const RaResult *rr, const KernelDesc *kd, int rmax)
{
	int n = code_regcount_of(arch, (const u8 *)kd->code, (u64)kd->ncode * sizeof(Word), rmax,
				 ir_verify_all());

	if (n < rr->regs + 2)
		n = rr->regs + 2;
	return (u32)(n > 255 ? 255 : n);
}

static int
lower(const PtxModule *m, const PtxFunc *fn, const CompileOpts *o, IrFunc *ir, MFunc *mf,
      KernelDesc *kd, KernelStats *ks, Arena *a)
{
	Sel s;
	RaOpts ro = {0};
	RaResult rr;
	WordVec code = {0};
	char err[200];
	const Arch *arch = arch_lookup(o->sm == 90 ? "sm_90" : "sm_80");
	int i, rmax, rc = -1;

	memset(&s, 0, sizeof s);
	s.mf = mf;
	s.ir = ir;
	s.m = m;
	s.fn = fn;
	s.sm = o->sm;
	s.param_base = o->sm >= 90 ? 0x210 : 0x160;
	s.param_off = arena_alloc(a, sizeof(u32) * (size_t)(fn->nparams + 1));
	kd->params = layout_params(fn, s.param_base, s.param_off, a);
	if (isel_func(&s) < 0)
		goto out;
	seq_link(mf);  /* out-of-line slow paths of the math sequences (isel_seq.c) */
	if (call_link(&s) < 0)
		goto out;
	/* selected, callees too: the IR's instruction vectors are done with,
	 * and the passes below take their pages (its arena data stays in a) */
	ir_free(ir);
	{
		ReconvStats rs;
		reconv_run(mf, &rs);
	}
	dump_mir(o, mf, "after isel", fn->name, 0);
	if (o->opt >= OPT_MINED) {
		peep_copies(mf);
		peep_ldc64(mf);
		peep_uniform(mf, arch, o->sm);
		dump_mir(o, mf, "after copy forwarding", fn->name, 0);
	}
	/* REGCOUNT is the highest register touched + 3 (kernel_regs): keep
	 * the 2 spare registers inside the limit */
	ro.max_r = ra_reg_limit(fn->maxnreg, fn->maxntid, fn->minnctapersm) - 2;
	if (s.maxnreg_cap)   /* setmaxnreg: within the smallest count (isel_sm90.c) */
		ro.max_r = MIN(ro.max_r, s.maxnreg_cap - 2);
	ro.frame_base = s.local_size;
	ro.coalesce = o->opt >= OPT_MINED;
	if (ra_run(mf, &ro, &rr, err, sizeof err) < 0) {
		diag_at(&m->src, fn->pos, "cannot compile %s: %s", fn->name, err);
		goto out;
	}
	if (o->opt >= OPT_MINED)
		peep_stack(mf);  /* no R1 load when nothing uses the stack (peep.c) */
	dump_mir(o, mf, "after register allocation", fn->name, 1);
	if (emit_code(o, arch, mf, fn->name, &code, &rmax) < 0)
		goto out;
	if (s.indirect)
		ftab_bytes(&s, kd, a);
	kd->name = fn->name;
	kd->sm = o->sm;
	kd->arch_a = (u8)(o->sm == 90 && m->arch_a);
	kd->code = code.v;
	kd->ncode = code.n;
	code.v = NULL;
	kd->nparams = (size_t)fn->nparams;
	kd->regs = kernel_regs(arch, &rr, kd, rmax);
	if (s.maxnreg_cap) {   /* setmaxnreg: REGCOUNT is the count at entry, as ptxas */
		kd->regs = (u32)sel_entry_regs(fn);
		kd->reg_reconfig = 1;
	}
	/* the deepest call chain too, and the arguments of a system call
	 * staged below R1 (in a callee: below its frame, hence the sum) */
	kd->frame = rr.frame + rr.call_stack + s.sys_area;
	kd->shared = s.shared_size;
	kd->uses_shared = s.uses_shared;
	kd->reserved_smem = s.reserved_smem;
	kd->barriers = (u8)s.barriers;
	for (kd->nexterns = 0; kd->nexterns < s.next; kd->nexterns++)
		kd->externs[kd->nexterns] = sel_sys_names[s.ext[kd->nexterns]];
	for (i = 0; i < 3; i++) {
		kd->max_threads[i] = fn->maxntid[i];
		kd->reqntid[i] = fn->reqntid[i];
	}
	ks->name = fn->name;
	ks->regs = (int)kd->regs;
	ks->shared = s.shared_size;
	ks->local = rr.frame;
	ks->barriers = s.barriers;
	ks->ninstr = kd->ncode;
	rc = 0;
out:
	vec_free(&code);
	vec_free(&s.shared_vars);
	vec_free(&s.shared_offs);
	vec_free(&s.local_vars);
	vec_free(&s.local_offs);
	return rc;
}

static int
compile_entry(const PtxModule *m, const PtxFunc *fn, const CompileOpts *o, KernelDesc *kd,
	      KernelStats *ks, Arena *a)
{
	IrFunc ir;
	MFunc mf;
	int rc = -1;

	memset(kd, 0, sizeof *kd);
	if (ir_build(&ir, m, fn, a) == 0) {
		run_passes(&ir, o);
		mfunc_init(&mf, a);
		rc = lower(m, fn, o, &ir, &mf, kd, ks, a);
		mfunc_free(&mf);
	}
	ir_free(&ir);
	return rc;
}

int
compile_module(const PtxModule *m, const CompileOpts *o, CompileResult *r)
{
	VEC(KernelDesc) kds = {0};
	Arena a = {0};
	int i, rc = 0;

	memset(r, 0, sizeof *r);
	cubin_init(&r->cubin);
	for (i = 0; i < m->nfuncs && !rc; i++) {
		const PtxFunc *fn = m->funcs[i];
		KernelDesc kd;
		KernelStats ks;
		if (!fn->is_entry || !fn->has_body)
			continue;
		if (compile_entry(m, fn, o, &kd, &ks, &a) < 0) {
			rc = -1;
			break;
		}
		vec_push(&kds, kd);
		vec_push(&r->k, ks);
	}
	if (!rc && !kds.n) {
		diag(m->src.path, "no .entry with a body to compile");
		rc = -1;
	}
	if (!rc && cubin_build_module(&r->cubin, kds.v, kds.n) < 0) {
		diag(m->src.path, "internal error: the cubin writer refused the kernels");
		rc = -1;
	}
	if (!rc && sel_module_data(m, &r->cubin, o->sm) < 0) /* .const/.global variables */
		rc = -1;
	for (i = 0; i < (int)kds.n; i++)
		free((void *)kds.v[i].code);
	vec_free(&kds);
	arena_free(&a);
	return rc;
}

void
compile_free(CompileResult *r)
{
	cubin_free(&r->cubin);
	vec_free(&r->k);
}
