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
