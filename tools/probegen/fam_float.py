"""fam_float.py -- f32, f64, f16/f16x2, bf16/bf16x2 arithmetic, special
functions, min/max, compare, testp, copysign probes."""
from core import op, CLS
from fam_alu import CMPF

RND = ["rn", "rz", "rm", "rp"]


def generate(g):
	b = g.batch("f32", per_kernel=80)
	for r in [""] + ["." + x for x in RND]:
		for ftz in ["", ".ftz"]:
			for sat in ["", ".sat"]:
				lim = None if (r in ("", ".rn") and not sat) else 6
				op(b, f"add{r}{ftz}{sat}.f32", "f32", ["f32", "f32"], limit=lim)
				op(b, f"sub{r}{ftz}{sat}.f32", "f32", ["f32", "f32"], limit=lim)
				op(b, f"mul{r}{ftz}{sat}.f32", "f32", ["f32", "f32"], limit=lim)
				if r:
					op(b, f"fma{r}{ftz}{sat}.f32", "f32", ["f32"] * 3, limit=lim if lim else 40)
	op(b, "mad.rn.f32", "f32", ["f32"] * 3, limit=8)
	for ftz in ["", ".ftz"]:
		op(b, f"abs{ftz}.f32", "f32", ["f32"], limit=4)
		op(b, f"neg{ftz}.f32", "f32", ["f32"], limit=4)
		for n in ["", ".NaN"]:
			op(b, f"min{ftz}{n}.f32", "f32", ["f32", "f32"], limit=10)
			op(b, f"max{ftz}{n}.f32", "f32", ["f32", "f32"], limit=10)
		op(b, f"max{ftz}.xorsign.abs.f32", "f32", ["f32", "f32"], limit=3)
		op(b, f"div.approx{ftz}.f32", "f32", ["f32", "f32"], limit=5)
		op(b, f"div.full{ftz}.f32", "f32", ["f32", "f32"], limit=5)
		for r in RND:
			op(b, f"div.{r}{ftz}.f32", "f32", ["f32", "f32"], limit=3)
			op(b, f"rcp.{r}{ftz}.f32", "f32", ["f32"], limit=3)
			op(b, f"sqrt.{r}{ftz}.f32", "f32", ["f32"], limit=3)
		op(b, f"rcp.approx{ftz}.f32", "f32", ["f32"], limit=5)
		op(b, f"sqrt.approx{ftz}.f32", "f32", ["f32"], limit=5)
		op(b, f"rsqrt.approx{ftz}.f32", "f32", ["f32"], limit=5)
		for f in ["sin", "cos", "lg2", "ex2"]:
			op(b, f"{f}.approx{ftz}.f32", "f32", ["f32"], limit=5)
	op(b, "tanh.approx.f32", "f32", ["f32"], limit=5)
	op(b, "copysign.f32", "f32", ["f32", "f32"], limit=6)
	for t in ["f32", "f64"]:
		for tp in ["finite", "infinite", "number", "notanumber", "normal", "subnormal"]:
			op(b, f"testp.{tp}.{t}", "pred", [t], limit=2)

	b = g.batch("f32_cmp", per_kernel=100)
	for t in ["f32", "f64"]:
		for c in CMPF:
			for ftz in ([""] if t == "f64" else ["", ".ftz"]):
				op(b, f"setp.{c}{ftz}.{t}", "pred", [t, t], guards=False, limit=None if c in ("lt", "geu") else 8)
				for v in range(3):
					k = b.k()
					p = k.new("p")
					k.emit(f"setp.{c}.and{ftz}.{t} {p}, {k.inp(CLS[t])}, {k.inp(CLS[t])}, {k.pin()};")
					k.st(p, "p")
					src = [k.par(CLS[t]), k.inp(CLS[t]), "0f3F800000" if t == "f32" else "0d3FF0000000000000"][v]
					k.emit(f"setp.{c}.or{ftz}.{t} {p}, {k.inp(CLS[t])}, {src}, !{k.pin()};")
					k.st(p, "p")
					k.emit(f"setp.{c}.xor{ftz}.{t} {p}, {src}, {k.inp(CLS[t])}, {k.pin()};")
					k.st(p, "p")
			for dt in ["u32", "f32", "s32"]:
				op(b, f"set.{c}.{dt}.{t}", dt, [t, t], guards=False, limit=3)

	b = g.batch("f64", per_kernel=60)
	for r in RND:
		op(b, f"add.{r}.f64", "f64", ["f64", "f64"], limit=None if r == "rn" else 8)
		op(b, f"sub.{r}.f64", "f64", ["f64", "f64"], limit=8)
		op(b, f"mul.{r}.f64", "f64", ["f64", "f64"], limit=None if r == "rn" else 8)
		op(b, f"fma.{r}.f64", "f64", ["f64"] * 3, limit=None if r == "rn" else 8)
		op(b, f"div.{r}.f64", "f64", ["f64", "f64"], limit=2)
		op(b, f"rcp.{r}.f64", "f64", ["f64"], limit=2)
		op(b, f"sqrt.{r}.f64", "f64", ["f64"], limit=2)
	op(b, "mad.rn.f64", "f64", ["f64"] * 3, limit=6)
	op(b, "add.f64", "f64", ["f64", "f64"], limit=10)
	op(b, "abs.f64", "f64", ["f64"], limit=3)
	op(b, "neg.f64", "f64", ["f64"], limit=3)
	op(b, "min.f64", "f64", ["f64", "f64"])
	op(b, "max.f64", "f64", ["f64", "f64"])
	op(b, "rcp.approx.ftz.f64", "f64", ["f64"], limit=3)
	op(b, "rsqrt.approx.f64", "f64", ["f64"], limit=3)
	op(b, "rsqrt.approx.ftz.f64", "f64", ["f64"], limit=3)
	op(b, "copysign.f64", "f64", ["f64", "f64"], limit=4)

	b = g.batch("f16", per_kernel=80)
	for t in ["f16", "f16x2", "bf16", "bf16x2"]:
		for r in ["", ".rn"]:
			for ftz in (["", ".ftz"] if t[0] == "f" else [""]):
				for sat in (["", ".sat"] if t[0] == "f" else [""]):
					lim = None if not (ftz or sat) else 6
					op(b, f"add{r}{ftz}{sat}.{t}", t, [t, t], limit=lim)
					op(b, f"sub{r}{ftz}{sat}.{t}", t, [t, t], limit=lim)
					op(b, f"mul{r}{ftz}{sat}.{t}", t, [t, t], limit=lim)
					if r:
						op(b, f"fma{r}{ftz}{sat}.{t}", t, [t] * 3, limit=lim)
		op(b, f"fma.rn.relu.{t}", t, [t] * 3, limit=6)
		op(b, f"neg.{t}", t, [t], limit=3)
		op(b, f"abs.{t}", t, [t], limit=3)
		for n in ["", ".NaN"]:
			op(b, f"min{n}.{t}", t, [t, t], limit=8)
			op(b, f"max{n}.{t}", t, [t, t], limit=8)
		op(b, f"max.xorsign.abs.{t}", t, [t, t], limit=3)
		if t[0] == "f":
			op(b, f"fma.rn.ftz.relu.{t}", t, [t] * 3, limit=3)
			op(b, f"neg.ftz.{t}", t, [t], limit=2)
			op(b, f"min.ftz.{t}", t, [t, t], limit=4)
			op(b, f"ex2.approx.{t}", t, [t], limit=3)
			op(b, f"tanh.approx.{t}", t, [t], limit=3)
		else:
			op(b, f"ex2.approx.ftz.{t}", t, [t], limit=3)
		for c in ["eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"]:
			if "x2" in t:
				k = b.k()
				p, q = k.new("p"), k.new("p")
				k.emit(f"setp.{c}.{t} {p}|{q}, {k.inp('r')}, {k.inp('r')};")
				k.st(p, "p"); k.st(q, "p")
				op(b, f"set.{c}.u32.{t}", "u32", [t, t], guards=False, limit=2)
				op(b, f"set.{c}.{t}.{t}", t, [t, t], guards=False, limit=2)
			else:
				op(b, f"setp.{c}.{t}", "pred", [t, t], guards=False, limit=3)
