"""fam_regs.py -- register-field coverage: many values kept live across a
barrier so ptxas allocates high register numbers (R100..R254), many live
predicates (P0..P6), 64-bit pairs at high numbers, and uniform registers
from many kernel parameters."""

OPS32 = ["add.u32 {d}, {a}, {b};", "mul.lo.u32 {d}, {a}, {b};", "mad.lo.u32 {d}, {a}, {b}, {c};",
	"xor.b32 {d}, {a}, {b};", "lop3.b32 {d}, {a}, {b}, {c}, 0x96;", "shf.l.wrap.b32 {d}, {a}, {b}, {c};",
	"fma.rn.f32 {d}, {a}, {b}, {c};", "add.f32 {d}, {a}, {b};", "mul.f32 {d}, {a}, {b};",
	"min.s32 {d}, {a}, {b};", "prmt.b32 {d}, {a}, {b}, {c};", "fma.rn.f16x2 {d}, {a}, {b}, {c};",
	"sub.s32 {d}, {a}, {b};", "shl.b32 {d}, {a}, {b};", "max.f32 {d}, {a}, {b};", "popc.b32 {d}, {a};",
	"cvt.rn.f32.s32 {d}, {a};", "cvt.rzi.s32.f32 {d}, {a};", "and.b32 {d}, {a}, 0xff00ff;",
	"add.u32 {d}, {a}, 0x12345;", "mul.lo.u32 {d}, {a}, 1234567;", "fma.rn.f32 {d}, {a}, 0f3FC00000, {c};"]
OPS64 = ["add.u64 {d}, {a}, {b};", "fma.rn.f64 {d}, {a}, {b}, {c};", "mul.lo.u64 {d}, {a}, {b};",
	"add.f64 {d}, {a}, {b};", "shl.b64 {d}, {a}, 7;", "mad.wide.u32 {d}, {x}, {y}, {a};"]


def generate(g):
	cbank(g)
	b = g.batch("regs", per_kernel=1, per_module=4)
	for i, o in enumerate(OPS32):
		for n in [96, 200]:
			k = b.k()
			xs = [k.new("r") for _ in range(n)]
			for j, x in enumerate(xs):
				k.emit(f"ld.volatile.global.b32 {x}, [%in+{4 * j}];")
			ds = []
			for j in range(n):
				d = k.new("r")
				k.emit(o.format(d=d, a=xs[j], b=xs[(j * 7 + 3) % n], c=xs[(j * 13 + 5) % n]))
				ds.append(d)
			k.emit("bar.sync 0;")
			for j, d in enumerate(ds):
				k.emit(f"st.volatile.global.b32 [%out+{4 * j}], {d};")
	for o in OPS64:
		k = b.k()
		n = 100
		xs = [k.new("rd") for _ in range(n)]
		ys = [k.new("r") for _ in range(8)]
		for j, x in enumerate(xs):
			k.emit(f"ld.volatile.global.b64 {x}, [%in+{8 * j}];")
		for j, y in enumerate(ys):
			k.emit(f"ld.volatile.global.b32 {y}, [%in+{1024 + 4 * j}];")
		ds = []
		for j in range(n):
			d = k.new("rd")
			k.emit(o.format(d=d, a=xs[j], b=xs[(j * 7 + 3) % n], c=xs[(j * 13 + 5) % n], x=ys[j % 8], y=ys[(j + 3) % 8]))
			ds.append(d)
		k.emit("bar.sync 0;")
		for j, d in enumerate(ds):
			k.emit(f"st.volatile.global.b64 [%out+{8 * j}], {d};")
	# many live predicates
	for t in ["s32", "f32", "u64", "f64"]:
		for cmp in ["lt", "ne", "ge"]:
			k = b.k()
			c = "rd" if "64" in t else "r"
			xs = [k.new(c) for _ in range(16)]
			for j, x in enumerate(xs):
				k.emit(f"ld.volatile.global.b{32 if c == 'r' else 64} {x}, [%in+{8 * j}];")
			ps = [k.new("p") for _ in range(12)]
			for j, p in enumerate(ps):
				k.emit(f"setp.{cmp}.{t} {p}, {xs[j]}, {xs[j + 3]};")
			k.emit("bar.sync 0;")
			for j, p in enumerate(ps):
				d = k.new("r")
				k.emit(f"selp.b32 {d}, {j}, {j + 100}, {p};")
				k.emit(f"@!{p} st.volatile.global.b32 [%out+{4 * j}], {d};")
	# many parameters -> uniform registers
	k = b.k()
	k.extra_params = [f".param .b32 q{j}" for j in range(64)]
	qs = [k.new("r") for _ in range(64)]
	for j, q in enumerate(qs):
		k.head.append(f"\tld.param.b32 {q}, [q{j}];")
	acc = [k.new("r") for _ in range(64)]
	for j in range(64):
		k.emit(f"mad.lo.u32 {acc[j]}, {qs[j]}, {qs[(j + 1) % 64]}, {qs[(j + 5) % 64]};")
	k.emit("bar.sync 0;")
	for j in range(64):
		k.emit(f"add.u32 {acc[j]}, {acc[j]}, %t0;")
		k.emit(f"st.global.b32 [%out+{4 * j}], {acc[j]};")


CB_OPS = [("add.u32", "r", 2), ("sub.s32", "r", 2), ("mul.lo.u32", "r", 2), ("mad.lo.u32", "r", 3),
	("mul.wide.u32", "rdw", 2), ("min.s32", "r", 2), ("max.u32", "r", 2), ("and.b32", "r", 2), ("xor.b32", "r", 2),
	("shl.b32", "r", 2), ("shr.s32", "r", 2), ("add.f32", "r", 2), ("mul.f32", "r", 2), ("fma.rn.f32", "r", 3),
	("min.f32", "r", 2), ("max.f32", "r", 2), ("add.f64", "rd", 2), ("mul.f64", "rd", 2), ("fma.rn.f64", "rd", 3),
	("add.u64", "rd", 2), ("setp.lt.s32", "p", 2), ("setp.gt.f32", "p", 2), ("setp.eq.u64", "p", 2),
	("setp.ge.f64", "p", 2), ("selp.b32", "sel", 2), ("fma.rn.f16x2", "r", 3), ("add.rn.bf16x2", "r", 2),
	("mad.hi.u32", "r", 3), ("lop3.b32", "lop", 3), ("shf.l.wrap.b32", "r", 3), ("prmt.b32", "r", 3),
	("popc.b32", "r", 1), ("cvt.rn.f32.s32", "r", 1), ("cvt.rzi.s32.f32", "r", 1), ("cvt.f64.f32", "rdc", 1)]


def cbank(g):
	"""Operands read from user .const memory at fixed offsets: ptxas folds them
	into c[0x3][offset] operands of ALU instructions."""
	b = g.batch("cbank", per_kernel=12, decls=".const .align 16 .b8 cb[65536];\n")
	for j, (o, kind, n) in enumerate(CB_OPS):
		for pos in range(n):
			for off in [0, 8, 0x100, 0x1230, 0xfff0]:
				k = b.k()
				wide = kind in ("rd", "rdw") or o.endswith("64")
				sc = "rd" if kind == "rd" or o.endswith(".u64") or o.endswith(".f64") else "r"
				c = k.new(sc)
				k.emit(f"ld.const.b{64 if sc == 'rd' else 32} {c}, [cb+{off}];")
				srcs = [k.inp(sc) for _ in range(n)]
				srcs[pos] = c
				if kind == "rdw":
					d = k.new("rd")
					k.emit(f"{o} {d}, {', '.join(srcs)};")
					k.st(d, "rd")
				elif kind == "rdc":
					d = k.new("rd")
					k.emit(f"{o} {d}, {srcs[0]};")
					k.st(d, "rd")
				elif kind == "p":
					d = k.new("p")
					k.emit(f"{o} {d}, {', '.join(srcs)};")
					k.st(d, "p")
				elif kind == "sel":
					d = k.new("r")
					k.emit(f"{o} {d}, {', '.join(srcs)}, {k.pin()};")
					k.st(d, "r")
				elif kind == "lop":
					d = k.new("r")
					k.emit(f"{o} {d}, {', '.join(srcs)}, {[0x96, 0xe8, 0xf8, 0x3c, 0x80][off % 5 if off else 0]};")
					k.st(d, "r")
				else:
					d = k.new(sc)
					k.emit(f"{o} {d}, {', '.join(srcs)};")
					k.st(d, sc)
