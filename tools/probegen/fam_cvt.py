"""fam_cvt.py -- every cvt pair with its rounding/ftz/sat modifiers, packed
conversions (f16x2, bf16x2, tf32, fp8), cvta, mov and special registers."""
from core import op, CLS

INTS = ["u8", "s8", "u16", "s16", "u32", "s32", "u64", "s64"]
FLTS = ["f16", "bf16", "f32", "f64"]
FW = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}
SREGS = ["%tid.x", "%tid.y", "%tid.z", "%ntid.x", "%ntid.y", "%ntid.z", "%ctaid.x", "%ctaid.y", "%ctaid.z",
	"%nctaid.x", "%nctaid.y", "%nctaid.z", "%laneid", "%warpid", "%nwarpid", "%smid", "%nsmid",
	"%lanemask_eq", "%lanemask_le", "%lanemask_lt", "%lanemask_ge", "%lanemask_gt", "%clock", "%clock_hi",
	"%pm0", "%pm1", "%pm2", "%pm3", "%pm4", "%pm5", "%pm6", "%pm7", "%envreg0", "%envreg1", "%envreg31",
	"%total_smem_size", "%dynamic_smem_size", "%aggr_smem_size",
	"%reserved_smem_offset_begin", "%globaltimer_lo", "%globaltimer_hi", "%reserved_smem_offset_0", "%reserved_smem_offset_1", "%reserved_smem_offset_end", "%reserved_smem_offset_cap"]
SREGS64 = ["%clock64", "%gridid", "%globaltimer", "%pm0_64", "%pm7_64", ]
SREGS90 = ["%clusterid.x", "%clusterid.y", "%clusterid.z", "%nclusterid.x", "%nclusterid.y", "%nclusterid.z",
	"%cluster_ctaid.x", "%cluster_ctaid.y", "%cluster_ctaid.z", "%cluster_nctaid.x", "%cluster_nctaid.y",
	"%cluster_nctaid.z", "%cluster_ctarank", "%cluster_nctarank"]


def rnd_for(dt, st):
	"""Rounding modifier sets legal for cvt.dt.st."""
	if dt in FLTS and st in INTS:
		return [".rn", ".rz", ".rm", ".rp"]
	if dt in INTS and st in FLTS:
		return [".rni", ".rzi", ".rmi", ".rpi"]
	if dt in FLTS and st in FLTS:
		if FW[dt] < FW[st] or (dt != st and FW[dt] == FW[st]):
			return [".rn", ".rz", ".rm", ".rp"]
		if dt != st:
			return [""]
		return ["", ".rni", ".rzi", ".rmi", ".rpi"]
	return [""]


def generate(g):
	b = g.batch("cvt", per_kernel=100)
	for dt in INTS + FLTS:
		for st in INTS + FLTS:
			if "bf16" in (dt, st) and ("8" in dt + st):
				continue
			for r in rnd_for(dt, st):
				ftzs = [""]
				if "f32" in (dt, st):
					ftzs = ["", ".ftz"]
				sats = [""]
				if (dt in INTS or dt in ("f16", "f32", "f64")) and st != "bf16":
					sats = ["", ".sat"]
				for ftz in ftzs:
					for sat in sats:
						if sat and dt in INTS and st in INTS and int(dt[1:]) >= int(st[1:]):
							continue
						m = f"cvt{r}{ftz}{sat}.{dt}.{st}"
						full = not (ftz or sat) and r in ("", ".rn", ".rni", ".rzi")
						op(b, m, dt, [st], guards=full, params=full, imms=[] if not full else None,
							limit=None if full else 1)
						if full and st in INTS:
							op(b, m, dt, [st], guards=False, params=False, imms=None)
	for t in ["f16x2", "bf16x2"]:
		for m in ["", ".relu"]:
			for s in ["", ".satfinite"] if t == "bf16x2" or True else [""]:
				op(b, f"cvt.rn{m}{s}.{t}.f32", t, ["f32", "f32"], limit=6)
		op(b, f"cvt.rz.{t}.f32", t, ["f32", "f32"], limit=3)
	op(b, "cvt.rn.relu.f16.f32", "f16", ["f32"], limit=3)
	op(b, "cvt.rn.relu.bf16.f32", "bf16", ["f32"], limit=3)
	op(b, "cvt.rna.tf32.f32", "tf32", ["f32"], limit=4)
	if g.sm >= 90:
		op(b, "cvt.rn.tf32.f32", "tf32", ["f32"], limit=3)
		op(b, "cvt.rz.tf32.f32", "tf32", ["f32"], limit=3)
		op(b, "cvt.rna.satfinite.tf32.f32", "tf32", ["f32"], limit=3)
		for f8 in ["e4m3x2", "e5m2x2"]:
			for relu in ["", ".relu"]:
				op(b, f"cvt.rn.satfinite{relu}.{f8}.f32", f8, ["f32", "f32"], limit=4)
				op(b, f"cvt.rn.satfinite{relu}.{f8}.f16x2", f8, ["f16x2"], limit=3)
				op(b, f"cvt.rn{relu}.f16x2.{f8}", "f16x2", [f8], limit=3)
	for t in ["u8", "s8"]:
		for s in ["s32"]:
			op(b, f"cvt.pack.sat.{t}.{s}.b32", "b32", [s, s, "b32"], limit=4)
	for t in ["u16", "s16"]:
		op(b, f"cvt.pack.sat.{t}.s32", "b32", ["s32", "s32"], limit=4)
	for a in ["u8", "s8", "u16", "s16", "u32", "s32"]:
		for t in ["u32", "s32", "u64", "s64"] if a[1:] != "64" else []:
			pass

	b = g.batch("mov", per_kernel=100)
	for t in ["b16", "b32", "b64", "u32", "f32", "f64", "u64"]:
		op(b, f"mov.{t}", t, [t], params=True)
	k = b.k(6)
	for i in range(4):
		d = k.new("rd")
		k.emit(f"mov.b64 {d}, {{{k.inp('r')}, {k.inp('r')}}};")
		k.st(d, "rd")
		lo, hi = k.new("r"), k.new("r")
		k.emit(f"mov.b64 {{{lo}, {hi}}}, {k.inp('rd')};")
		k.st(lo, "r"); k.st(hi, "r")
		d = k.new("r")
		k.emit(f"mov.b32 {d}, {{{k.inp('h')}, {k.inp('h')}}};")
		k.st(d, "r")
		h0, h1 = k.new("h"), k.new("h")
		k.emit(f"mov.b32 {{{h0}, {h1}}}, {k.inp('r')};")
		k.st(h0, "h"); k.st(h1, "h")
	regs = SREGS + (SREGS90 if g.sm >= 90 else [])
	for s in regs:
		k = b.k()
		d = k.new("r")
		k.emit(f"mov.u32 {d}, {s};")
		k.st(d, "r")
	if g.sm >= 90:
		k = b.k()
		p = k.new("p")
		k.emit(f"mov.pred {p}, %is_explicit_cluster;")
		k.st(p, "p")
	for s in SREGS64 + (["%current_graph_exec"] if g.sm >= 90 else []):
		k = b.k()
		d = k.new("rd")
		k.emit(f"mov.u64 {d}, {s};")
		k.st(d, "rd")
	for sp in ["global", "shared", "local", "const", "param"] + (["shared::cluster", "shared::cta"] if g.sm >= 90 else []):
		k = b.k(2)
		d = k.new("rd")
		k.emit(f"cvta.to.{sp}.u64 {d}, {k.inp('rd')};")
		k.st(d, "rd")
		d = k.new("rd")
		k.emit(f"cvta.{sp}.u64 {d}, {k.inp('rd')};")
		k.st(d, "rd")
		d = k.new("r")
		if sp in ("shared", "local", "const"):
			k.emit(f"cvta.to.{sp}.u32 {d}, {k.inp('r')};") if False else None
	for sp in ["global", "shared", "local", "const"] + (["shared::cluster"] if g.sm >= 90 else []):
		k = b.k()
		p = k.new("p")
		k.emit(f"isspacep.{sp} {p}, {k.inp('rd')};")
		k.st(p, "p")
