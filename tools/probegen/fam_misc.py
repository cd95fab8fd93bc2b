"""fam_misc.py -- barriers, fences, warp-level ops (shfl, vote, match,
redux, activemask), control flow (branches, loops, brx.idx, calls through
.func with parameters, recursion, indirect calls, returns, exit, trap),
nanosleep, pmevent, texture/surface-free misc."""
from core import CLS

FUNCS = """
.func (.param .b32 r) fadd1(.param .b32 a, .param .b32 b)
{
	.reg .b32 %x<4>;
	ld.param.b32 %x1, [a];
	ld.param.b32 %x2, [b];
	add.s32 %x3, %x1, %x2;
	st.param.b32 [r], %x3;
	ret;
}
.func (.param .b64 r) frec(.param .b64 a)
{
	.reg .b64 %y<4>; .reg .pred %q;
	ld.param.b64 %y1, [a];
	setp.lt.u64 %q, %y1, 2;
	@%q bra DONE;
	sub.u64 %y2, %y1, 1;
	{
	.param .b64 pa; .param .b64 pr;
	st.param.b64 [pa], %y2;
	call (pr), frec, (pa);
	ld.param.b64 %y3, [pr];
	}
	add.u64 %y1, %y1, %y3;
DONE:
	st.param.b64 [r], %y1;
	ret;
}
.func (.param .align 16 .b8 r[16]) fvec(.param .align 16 .b8 a[16], .param .f64 s)
{
	.reg .b32 %z<6>; .reg .f64 %w;
	ld.param.v4.b32 {%z1, %z2, %z3, %z4}, [a];
	ld.param.f64 %w, [s];
	cvt.rzi.s32.f64 %z5, %w;
	add.s32 %z1, %z1, %z5;
	st.param.v4.b32 [r], {%z4, %z3, %z2, %z1};
	ret;
}
.func fnoret(.param .b64 p, .param .b32 v)
{
	.reg .b64 %u; .reg .b32 %v;
	ld.param.b64 %u, [p];
	ld.param.b32 %v, [v];
	st.global.b32 [%u], %v;
	ret;
}
"""


def generate(g):
	b = g.batch("sync", per_kernel=40, decls=".shared .align 16 .b8 sbuf[1024];\n")
	k = b.k(10)
	for bid in ["0", "1", "15", k.inp("r")]:
		k.emit(f"bar.sync {bid};")
		k.emit(f"bar.sync {bid}, 64;")
		k.emit(f"bar.sync {bid}, {k.inp('r')};")
		k.emit(f"bar.arrive {bid}, 96;")
		k.emit(f"barrier.sync {bid};")
		k.emit(f"barrier.sync.aligned {bid}, 128;")
		k.emit(f"barrier.arrive.aligned {bid}, 32;")
	for red in ["popc.u32", "and.pred", "or.pred"]:
		k = b.k()
		if red == "popc.u32":
			d = k.new("r")
			k.emit(f"bar.red.popc.u32 {d}, 0, {k.pin()};")
			k.st(d, "r")
			k.emit(f"barrier.red.popc.u32 {d}, 2, 64, !{k.pin()};")
			k.st(d, "r")
		else:
			p = k.new("p")
			k.emit(f"bar.red.{red} {p}, 1, {k.pin()};")
			k.st(p, "p")
			k.emit(f"barrier.red.{red} {p}, 3, 96, !{k.pin()};")
			k.st(p, "p")
	k = b.k(10)
	for m in ["membar.cta", "membar.gl", "membar.sys", "fence.sc.cta", "fence.sc.gpu", "fence.sc.sys",
			"fence.acq_rel.cta", "fence.acq_rel.gpu", "fence.acq_rel.sys", "fence.proxy.alias",
			"bar.warp.sync -1", "bar.warp.sync 0xffff", f"bar.warp.sync {k.inp('r')}",
			"membar.proxy.alias"] + (["fence.sc.cluster", "fence.acq_rel.cluster", "fence.proxy.async",
			"fence.proxy.async.global", "fence.proxy.async.shared::cta", "fence.proxy.async.shared::cluster",
			"fence.mbarrier_init.release.cluster", "fence.proxy.tensormap::generic.release.gpu",
			"fence.acquire.sync_restrict::shared::cluster.cluster" if False else "fence.proxy.alias",
			"griddepcontrol.launch_dependents", "griddepcontrol.wait"] if g.sm >= 90 else []):
		k = b.k()
		k.emit(f"st.global.b32 [%out+4], {k.inp('r')};")
		k.emit(m + ";")
		d = k.new("r")
		k.emit(f"ld.global.b32 {d}, [%in+8];")
		k.st(d, "r")
	if g.sm >= 90:
		k = b.k()
		k.emit("fence.proxy.tensormap::generic.acquire.gpu [%in], 128;")
	b = g.batch("syncreg", per_kernel=40)
	# barrier id and thread count in registers (session 3, isa-bar):
	# ptxas packs a register id and a register count into one register
	# (BAR.SYNC R4, R4); bar.red with a negated predicate; guarded forms;
	# each kernel computes the operands so they are not folded
	for i, (kind, bid, cnt) in enumerate([(x, b_, c_) for x in ("sync", "arrive", "red.popc.u32", "red.and.pred",
			"red.or.pred", "barrier.sync", "barrier.arrive", "barrier.red.popc.u32")
			for b_, c_ in (("r", "r"), ("r", "i"), ("i", "r"), ("r", ""))]):
		if cnt == "" and ("arrive" in kind):
			continue	# arrive needs a count
		k = b.k()
		idr = k.new("r")
		k.emit(f"and.b32 {idr}, {k.inp('r')}, 15;")
		cr = k.new("r")
		k.emit(f"shl.b32 {cr}, {k.inp('r')}, 5;")
		bid_ = idr if bid == "r" else str(i % 16)
		cnt_ = {"r": ", " + cr, "i": ", %d" % (32 * (1 + i % 8)), "": ""}[cnt]
		op = kind if kind.startswith("barrier") else "bar." + kind
		gd = ["", "@%s " % k.pin(), "@!%s " % k.pin()][i % 3]
		if "red" in kind:
			pr = ("!" if i % 2 else "") + k.pin()
			d = k.new("p" if kind.endswith("pred") else "r")
			k.emit(f"{gd}{op} {d}, {bid_}{cnt_}, {pr};")
			k.st(d, "p" if kind.endswith("pred") else "r")
		else:
			al = ".aligned" if op.startswith("barrier") and i % 2 else ""
			k.emit(f"{gd}{op}{al} {bid_}{cnt_};")
	# warp ops
	b = g.batch("warp", per_kernel=50)
	for mode in ["up", "down", "bfly", "idx"]:
		for lane in ["1", "0", "16", "31", "r", "c"]:
			for clamp in ["31", "0", "0x1f", "0x1c1f", "r"]:
				for mask in ["-1", "0xffff", "r"]:
					if (lane in ("r", "c")) + (clamp == "r") + (mask == "r") > 2:
						continue
					if mask != "-1" and clamp not in ("31", "r"):
						continue
					k = b.k()
					d, p = k.new("r"), k.new("p")
					ln = k.inp("r") if lane == "r" else k.par("r") if lane == "c" else lane
					cl = k.inp("r") if clamp == "r" else clamp
					mk = k.inp("r") if mask == "r" else mask
					k.emit(f"shfl.sync.{mode}.b32 {d}|{p}, {k.inp('r')}, {ln}, {cl}, {mk};")
					k.st(d, "r")
					k.st(p, "p")
					if clamp == "31" and mask == "-1":
						d = k.new("r")
						k.emit(f"shfl.sync.{mode}.b32 {d}, {k.inp('r')}, {ln}, {cl}, {mk};")
						k.st(d, "r")
	for mode in ["all", "any", "uni"]:
		for mk in ["-1", "0xff", "r"]:
			k = b.k()
			p = k.new("p")
			m = k.inp("r") if mk == "r" else mk
			k.emit(f"vote.sync.{mode}.pred {p}, {k.pin()}, {m};")
			k.st(p, "p")
			k.emit(f"vote.sync.{mode}.pred {p}, !{k.pin()}, {m};")
			k.st(p, "p")
	for mk in ["-1", "0xff", "r"]:
		k = b.k()
		d = k.new("r")
		m = k.inp("r") if mk == "r" else mk
		k.emit(f"vote.sync.ballot.b32 {d}, {k.pin()}, {m};")
		k.st(d, "r")
		k.emit(f"vote.sync.ballot.b32 {d}, !{k.pin()}, {m};")
		k.st(d, "r")
		k.emit(f"activemask.b32 {d};")
		k.st(d, "r")
		for t in ["b32", "b64"]:
			c = CLS[t]
			d = k.new("r")
			k.emit(f"match.any.sync.{t} {d}, {k.inp(c)}, {m};")
			k.st(d, "r")
			p = k.new("p")
			k.emit(f"match.all.sync.{t} {d}|{p}, {k.inp(c)}, {m};")
			k.st(d, "r")
			k.st(p, "p")
			k.emit(f"match.all.sync.{t} {d}, {k.par(c)}, {m};")
			k.st(d, "r")
	for o in ["add", "min", "max", "and", "or", "xor"]:
		for t in (["u32", "s32"] if o in ("add", "min", "max") else ["b32"]):
			for src in ["r", "c", "i"]:
				for mk in ["-1", "0xf0f0", "r"]:
					k = b.k()
					d = k.new("r")
					m = k.inp("r") if mk == "r" else mk
					s = k.inp("r") if src == "r" else k.par("r") if src == "c" else "5"
					if src == "i":
						k.emit(f"mov.b32 {d}, 5;")
						s = d
						d = k.new("r")
					k.emit(f"redux.sync.{o}.{t} {d}, {s}, {m};")
					k.st(d, "r")
	# control flow
	b = g.batch("ctrl", per_kernel=30, decls=FUNCS)
	b.funcs = []
	k = b.k(10)
	for i in range(8):
		x, n, acc = k.inp("r"), k.new("r"), k.new("r")
		p = k.new("p")
		k.emit(f"mov.u32 {n}, 0;")
		k.emit(f"mov.u32 {acc}, {k.inp('r')};")
		k.emit(f"L{i}:")
		k.emit(f"mad.lo.u32 {acc}, {acc}, {x}, {i + 3};")
		k.emit(f"add.u32 {n}, {n}, 1;")
		k.emit(f"setp.lt.u32 {p}, {n}, {k.par('r') if i % 2 else x};")
		k.emit(f"@{p} bra{'.uni' if i % 3 == 0 else ''} L{i};")
		k.st(acc, "r")
	for i in range(6):
		k = b.k(5)
		x = k.inp("r")
		p = k.new("p")
		d = k.new("r")
		k.emit(f"mov.u32 {d}, 0;")
		k.emit(f"setp.gt.s32 {p}, {x}, {i * 3};")
		k.emit(f"@!{p} bra E{i};")
		k.emit(f"mul.lo.u32 {d}, {x}, {x};")
		k.emit(f"bar.sync 0;" if i % 2 else f"ld.global.b32 {d}, [%in+{4 * i}];")
		k.emit(f"E{i}:")
		k.st(d, "r")
		if i == 2:
			k.emit("trap;")
		if i == 3:
			k.emit(f"@{p} exit;")
			k.emit("brkpt;")
		if i == 4:
			k.emit(f"@!{p} trap;")
	# brx.idx
	for n in [3, 5, 4, 6]:
		k = b.k(5)
		x = k.inp("r") if n in (3, 5) else k.par("r")
		d = k.new("r")
		k.emit(f"mov.u32 {d}, 1;")
		k.emit(f"rem.u32 {x}, {x}, {n};")
		labs = [f"T{n}_{i}" for i in range(n)]
		k.emit(f"ts{n}: .branchtargets {', '.join(labs)};")
		k.emit(f"brx.idx{'.uni' if n in (4, 6) else ''} {x}, ts{n};")
		for i, l in enumerate(labs):
			k.emit(f"{l}:")
			k.emit(f"add.u32 {d}, {d}, {i * 7 + 1};")
			k.emit(f"bra.uni J{n};")
		k.emit(f"J{n}:")
		k.st(d, "r")
	# calls
	k = b.k(10)
	k.emit("{ .param .b32 pa; .param .b32 pb; .param .b32 pr;")
	k.emit(f"st.param.b32 [pa], {k.inp('r')}; st.param.b32 [pb], {k.par('r')};")
	k.emit("call.uni (pr), fadd1, (pa, pb);")
	d = k.new("r")
	k.emit(f"ld.param.b32 {d}, [pr]; }}")
	k.st(d, "r")
	k.emit("{ .param .b64 pa; .param .b64 pr;")
	k.emit(f"st.param.b64 [pa], {k.inp('rd')};")
	k.emit("call (pr), frec, (pa);")
	d = k.new("rd")
	k.emit(f"ld.param.b64 {d}, [pr]; }}")
	k.st(d, "rd")
	k.emit("{ .param .align 16 .b8 pa[16]; .param .f64 ps; .param .align 16 .b8 pr[16];")
	k.emit(f"st.param.v4.b32 [pa], {{{k.inp('r')}, {k.inp('r')}, {k.inp('r')}, {k.inp('r')}}};")
	k.emit(f"st.param.f64 [ps], {k.inp('rd')};")
	k.emit(f"@{k.pin()} call (pr), fvec, (pa, ps);")
	ds = [k.new("r") for _ in range(4)]
	k.emit(f"ld.param.v4.b32 {{{', '.join(ds)}}}, [pr]; }}")
	for d in ds:
		k.st(d, "r")
	k.emit("{ .param .b64 pa; .param .b32 pb;")
	k.emit("st.param.b64 [pa], %out; st.param.b32 [pb], 77;")
	k.emit("call fnoret, (pa, pb); }")
	# indirect call
	k = b.k(10)
	k.emit("{ .reg .b64 %fp; .param .b32 pa; .param .b32 pb; .param .b32 pr;")
	k.emit("proto: .callprototype (.param .b32 _) _ (.param .b32 _, .param .b32 _);")
	k.emit("mov.u64 %fp, fadd1;")
	k.emit(f"st.param.b32 [pa], {k.inp('r')}; st.param.b32 [pb], {k.inp('r')};")
	k.emit("call (pr), %fp, (pa, pb), proto;")
	d = k.new("r")
	k.emit(f"ld.param.b32 {d}, [pr]; }}")
	k.st(d, "r")
	k = b.k(10)
	k.emit("{ .reg .b64 %fp; .param .b32 pa; .param .b32 pb; .param .b32 pr;")
	k.emit("proto2: .callprototype (.param .b32 _) _ (.param .b32 _, .param .b32 _);")
	k.emit(f"mov.u64 %fp, {k.par('rd')};")
	k.emit(f"st.param.b32 [pa], {k.inp('r')}; st.param.b32 [pb], {k.inp('r')};")
	k.emit("call.uni (pr), %fp, (pa, pb), proto2;")
	d = k.new("r")
	k.emit(f"ld.param.b32 {d}, [pr]; }}")
	k.st(d, "r")
	# misc
	k = b.k(10)
	for v in ["0", "100", "0xFFFF", k.inp("r")]:
		k.emit(f"nanosleep.u32 {v};")
	k.emit("pmevent 3;")
	k.emit("pmevent.mask 0x5;")
	d = k.new("r")
	k.emit(f"mov.u32 {d}, %clock;")
	k.st(d, "r")
	k.emit(f"@{k.pin()} exit;")
	k.emit("exit;")
	# printf / malloc through extern functions
	b2 = g.batch("extern", per_kernel=10, decls=""".extern .func (.param .b32 r) vprintf(.param .b64 f, .param .b64 a);
.extern .func (.param .b64 r) malloc(.param .b64 n);
.extern .func free(.param .b64 p);
.global .align 1 .b8 fmt[8] = {104, 105, 32, 37, 100, 10, 0, 0};
""")
	k = b2.k(10)
	k.shared.append(".local .align 8 .b8 argbuf[8];")
	k.emit("{ .reg .b64 %f, %a; .param .b64 p0; .param .b64 p1; .param .b32 r;")
	k.emit(f"st.local.b32 [argbuf], {k.inp('r')};")
	k.emit("mov.u64 %a, argbuf; cvta.local.u64 %a, %a;")
	k.emit("mov.u64 %f, fmt; cvta.global.u64 %f, %f;")
	k.emit("st.param.b64 [p0], %f; st.param.b64 [p1], %a;")
	k.emit("call.uni (r), vprintf, (p0, p1); }")
	k.emit("{ .param .b64 n; .param .b64 r; .reg .b64 %m;")
	k.emit(f"st.param.b64 [n], {k.inp('rd')};")
	k.emit("call.uni (r), malloc, (n);")
	k.emit("ld.param.b64 %m, [r];")
	k.emit(f"st.b32 [%m], {k.inp('r')};")
	k.emit("st.global.b64 [%out], %m; }")
	k.emit("{ .param .b64 p; st.param.b64 [p], %in; call.uni free, (p); }")
