"""fam_alu.py -- integer arithmetic, logic, shifts, funnel shifts, bit
manipulation, compare/select probes."""
from core import op, forms, CLS, IMM

I16 = ["u16", "s16"]
I32 = ["u32", "s32"]
I64 = ["u64", "s64"]
INT = I16 + I32 + I64
CMPI = ["eq", "ne", "lt", "le", "gt", "ge"]
CMPU = ["lo", "ls", "hi", "hs"]
CMPF = ["eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"]


def generate(g):
	b = g.batch("int_arith", per_kernel=80)
	for t in INT:
		op(b, f"add.{t}", t, [t, t])
		op(b, f"sub.{t}", t, [t, t])
		op(b, f"mul.lo.{t}", t, [t, t])
		op(b, f"mul.hi.{t}", t, [t, t])
		op(b, f"mad.lo.{t}", t, [t, t, t])
		op(b, f"mad.hi.{t}", t, [t, t, t], limit=12)
		op(b, f"min.{t}", t, [t, t])
		op(b, f"max.{t}", t, [t, t])
		op(b, f"div.{t}", t, [t, t], limit=14)
		op(b, f"rem.{t}", t, [t, t], limit=14)
	for t in ["s16", "s32", "s64"]:
		op(b, f"abs.{t}", t, [t])
		op(b, f"neg.{t}", t, [t])
	op(b, "add.sat.s32", "s32", ["s32", "s32"])
	op(b, "sub.sat.s32", "s32", ["s32", "s32"])
	op(b, "mad.hi.sat.s32", "s32", ["s32"] * 3, limit=8)
	op(b, "max.relu.s32", "s32", ["s32", "s32"], limit=8)
	op(b, "min.relu.s32", "s32", ["s32", "s32"], limit=8)
	for t in ["u16x2", "s16x2"]:
		if g.sm >= 90:
			op(b, f"min.{t}", t, [t, t], imms=[])
			op(b, f"max.{t}", t, [t, t], imms=[])
			if t == "s16x2":
				op(b, "max.relu.s16x2", t, [t, t], imms=[])
				op(b, "min.relu.s16x2", t, [t, t], imms=[])
	for t in ["u16", "s16", "u32", "s32"]:
		dt = {"u16": "u32", "s16": "s32", "u32": "u64", "s32": "s64"}[t]
		op(b, f"mul.wide.{t}", dt, [t, t])
		op(b, f"mad.wide.{t}", dt, [t, t, dt])
	for t in I32:
		op(b, f"mul24.lo.{t}", t, [t, t], limit=8)
		op(b, f"mul24.hi.{t}", t, [t, t], limit=8)
		op(b, f"mad24.lo.{t}", t, [t, t, t], limit=8)
		op(b, f"mad24.hi.{t}", t, [t, t, t], limit=6)
	for t in INT:
		op(b, f"sad.{t}", t, [t, t, t], limit=6)
	# carry chains
	b.fresh()
	for t in ["u32", "s32", "u64", "s64"]:
		for v in IMM["i32"][:10]:
			k = b.k(4)
			c = CLS[t]
			a0, a1, b0, b1 = k.inp(c, 0), k.inp(c, 1), k.inp(c, 2), k.inp(c, 3)
			d0, d1, d2 = k.new(c), k.new(c), k.new(c)
			for x, y in (("add", "addc"), ("sub", "subc")):
				k.emit(f"{x}.cc.{t} {d0}, {a0}, {v};")
				k.emit(f"{y}.cc.{t} {d1}, {a1}, {b1};")
				k.emit(f"{y}.{t} {d2}, {b0}, 0;")
				k.st(d0, c); k.st(d1, c); k.st(d2, c)
			k.emit(f"mad.lo.cc.{t} {d0}, {a0}, {b0}, {a1};")
			k.emit(f"madc.hi.cc.{t} {d1}, {a0}, {b0}, {b1};")
			k.emit(f"madc.lo.{t} {d2}, {a1}, {b1}, {v};")
			k.st(d0, c); k.st(d1, c); k.st(d2, c)

	b = g.batch("int_logic", per_kernel=80)
	for t in ["b16", "b32", "b64"]:
		for o in ["and", "or", "xor"]:
			op(b, f"{o}.{t}", t, [t, t])
		op(b, f"not.{t}", t, [t])
		op(b, f"cnot.{t}", t, [t])
	for lut in [0x00, 0x01, 0x03, 0x0F, 0x11, 0x1E, 0x28, 0x3C, 0x56, 0x5A, 0x69, 0x80, 0x96, 0xB4, 0xCA,
			0xE2, 0xE8, 0xF0, 0xF8, 0xFE, 0xFF, 0x6A, 0x78, 0xD2, 0x2D]:
		k = b.k()
		d = k.new("r")
		k.emit(f"lop3.b32 {d}, {k.inp('r')}, {k.inp('r')}, {k.inp('r')}, {lut};")
		k.st(d, "r")
		k = b.k()
		d = k.new("r")
		k.emit(f"lop3.b32 {d}, {k.inp('r')}, 0xff00ff, {k.par('r')}, {lut};")
		k.st(d, "r")
	for o in ["and", "or", "xor"]:
		k = b.k()
		p1, p2, p3 = k.new("p"), k.new("p"), k.new("p")
		k.emit(f"setp.lt.s32 {p1}, {k.inp('r')}, {k.inp('r')};")
		k.emit(f"setp.ne.s32 {p2}, {k.inp('r')}, 5;")
		k.emit(f"{o}.pred {p3}, {p1}, {p2};")
		k.st(p3, "p")
		k.emit(f"not.pred {p3}, {p1};")
		k.emit(f"{o}.pred {p3}, {p3}, {p2};")
		k.st(p3, "p")
	for t in ["b16", "b32", "b64"]:
		op(b, f"shl.{t}", t, [t, "u32"])
		sh = t.replace("b", "u"), t.replace("b", "s")
		for s in sh:
			op(b, f"shr.{s}", s, [s, "u32"])
		op(b, f"shr.{t}", t, [t, "u32"], limit=6)
	for d in ["l", "r"]:
		for m in ["wrap", "clamp"]:
			op(b, f"shf.{d}.{m}.b32", "b32", ["b32", "b32", "u32"])
	for t in ["b32", "b64"]:
		op(b, f"popc.{t}", "u32", [t], imms=[0x12345])
		op(b, f"clz.{t}", "u32", [t], imms=[0x12345])
		op(b, f"brev.{t}", t, [t], imms=[0x12345])
	for t in I32 + I64:
		op(b, f"bfind.{t}", "u32", [t], imms=[0x12345])
		op(b, f"bfind.shiftamt.{t}", "u32", [t], limit=3)
		op(b, f"bfe.{t}", t, [t, "u32", "u32"], imms=[0, 1, 3, 8, 16, 31, 40])
	for t in ["b32", "b64"]:
		op(b, f"bfi.{t}", t, [t, t, "u32", "u32"], imms=[0, 1, 4, 8, 16, 24])
	op(b, "fns.b32", "b32", ["b32", "b32", "s32"], imms=[0, 1, 5, -1])
	for m in ["clamp", "wrap"]:
		op(b, f"bmsk.{m}.b32", "b32", ["b32", "b32"], imms=[0, 1, 4, 31, 32])
		for t in I32:
			op(b, f"szext.{m}.{t}", t, [t, "u32"], imms=[0, 1, 8, 16, 31])
	for mode in ["", ".f4e", ".b4e", ".rc8", ".ecl", ".ecr", ".rc16"]:
		op(b, f"prmt.b32{mode}", "b32", ["b32", "b32", "b32"], guards=False,
			imms=[0x3210, 0x0123, 0x5140, 0x7654, 0x1, 0x4444, 0x8880, 0x2301] if mode == "" else [0, 1, 2, 3])
	for a in ["u32", "s32"]:
		for c in ["u32", "s32"]:
			op(b, f"dp4a.{a}.{c}", "s32" if "s" in a + c else "u32", [a, c, a], limit=8)
			for hl in ["lo", "hi"]:
				op(b, f"dp2a.{hl}.{a}.{c}", "s32" if "s" in a + c else "u32", [a, c, a], limit=5)

	b = g.batch("int_cmp", per_kernel=100)
	for t in INT + ["b16", "b32", "b64"]:
		cmps = CMPI + (CMPU if t[0] in "ub" else [])
		if t[0] == "b":
			cmps = ["eq", "ne"]
		for c in cmps:
			op(b, f"setp.{c}.{t}", "pred", [t, t], guards=(c == "lt"), limit=None if t in ("u32", "s32") else 8)
			for bo in ["and", "or", "xor"]:
				if t in ("s32", "u64") or c == "ne":
					k = b.k()
					p = k.new("p")
					k.emit(f"setp.{c}.{bo}.{t} {p}, {k.inp(CLS[t])}, {k.inp(CLS[t])}, {k.pin()};")
					k.st(p, "p")
					k.emit(f"setp.{c}.{bo}.{t} {p}, {k.inp(CLS[t])}, 7, !{k.pin()};")
					k.st(p, "p")
			k = b.k()
			p, q = k.new("p"), k.new("p")
			k.emit(f"setp.{c}.{t} {p}|{q}, {k.inp(CLS[t])}, {k.par(CLS[t])};")
			k.st(p, "p"); k.st(q, "p")
		for c in cmps[:4]:
			for dt in ["u32", "s32", "f32"]:
				op(b, f"set.{c}.{dt}.{t}", dt, [t, t], guards=False, limit=4)
	for t in ["b16", "b32", "b64", "u32", "s32", "f32", "f64", "u64"]:
		for g2 in ["", "p"]:
			k = b.k()
			c = CLS[t]
			d = k.new(c)
			k.emit(f"selp.{t} {d}, {k.inp(c)}, {k.inp(c)}, {k.pin()};")
			k.st(d, c)
			for v in [1, 0, -1, 0x3F800000, 100000]:
				k = b.k()
				d = k.new(c)
				imm = k.operand(t, ("i", v))
				k.emit(f"selp.{t} {d}, {k.inp(c)}, {imm}, {k.pin()};")
				k.st(d, c)
				d = k.new(c)
				k.emit(f"selp.{t} {d}, {imm}, {k.par(c)}, {k.pin()};")
				k.st(d, c)
	for dt in ["b32", "u32", "s32", "f32", "b64", "u64", "s64", "f64"]:
		for ct in ["s32", "f32"]:
			k = b.k()
			c = CLS[dt]
			d = k.new(c)
			k.emit(f"slct.{dt}.{ct} {d}, {k.inp(c)}, {k.inp(c)}, {k.inp('r')};")
			k.st(d, c)
			d = k.new(c)
			k.emit(f"slct.{dt}.{ct} {d}, {k.inp(c)}, {k.par(c)}, {k.inp('r')};")
			k.st(d, c)
