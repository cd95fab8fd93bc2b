"""fam_mma.py -- warp-level matrix ops: mma.sync (every shape and type
sm_80/sm_90 offer), mma.sp, wmma, ldmatrix/stmatrix/movmatrix, cp.async."""

# shape, layout, dtype, atype, btype, ctype, nA, nB, nC(=nD), min sm
MMA = [
	("m16n8k16", "row.col", "f32", "f16", "f16", "f32", 4, 2, 4, 80),
	("m16n8k16", "row.col", "f16", "f16", "f16", "f16", 4, 2, 2, 80),
	("m16n8k8", "row.col", "f32", "f16", "f16", "f32", 2, 1, 4, 80),
	("m16n8k8", "row.col", "f16", "f16", "f16", "f16", 2, 1, 2, 80),
	("m16n8k16", "row.col", "f32", "bf16", "bf16", "f32", 4, 2, 4, 80),
	("m16n8k8", "row.col", "f32", "bf16", "bf16", "f32", 2, 1, 4, 80),
	("m16n8k4", "row.col", "f32", "tf32", "tf32", "f32", 2, 1, 4, 80),
	("m16n8k8", "row.col", "f32", "tf32", "tf32", "f32", 4, 2, 4, 80),
	("m8n8k4", "row.col", "f64", "f64", "f64", "f64", 1, 1, 2, 80),
	("m8n8k4", "row.col", "f32", "f16", "f16", "f32", 2, 2, 8, 80),
	("m8n8k4", "row.row", "f16", "f16", "f16", "f16", 2, 2, 4, 80),
	("m8n8k4", "col.row", "f32", "f16", "f16", "f32", 2, 2, 8, 80),
	("m8n8k16", "row.col", "s32", "s8", "s8", "s32", 1, 1, 2, 80),
	("m8n8k16", "row.col", "s32", "u8", "s8", "s32", 1, 1, 2, 80),
	("m16n8k16", "row.col", "s32", "s8", "s8", "s32", 2, 1, 4, 80),
	("m16n8k16", "row.col", "s32", "u8", "u8", "s32", 2, 1, 4, 80),
	("m16n8k32", "row.col", "s32", "s8", "s8", "s32", 4, 2, 4, 80),
	("m16n8k32", "row.col", "s32", "s8", "u8", "s32", 4, 2, 4, 80),
	("m8n8k32", "row.col", "s32", "s4", "s4", "s32", 1, 1, 2, 80),
	("m16n8k32", "row.col", "s32", "u4", "s4", "s32", 2, 1, 4, 80),
	("m16n8k64", "row.col", "s32", "s4", "s4", "s32", 4, 2, 4, 80),
	("m8n8k128", "row.col", "s32", "b1", "b1", "s32", 1, 1, 2, 80),
	("m16n8k128", "row.col", "s32", "b1", "b1", "s32", 2, 1, 4, 80),
	("m16n8k256", "row.col", "s32", "b1", "b1", "s32", 4, 2, 4, 80),
	("m16n8k4", "row.col", "f64", "f64", "f64", "f64", 2, 1, 4, 90),
	("m16n8k8", "row.col", "f64", "f64", "f64", "f64", 4, 2, 4, 90),
	("m16n8k16", "row.col", "f64", "f64", "f64", "f64", 8, 4, 4, 90),
	("m16n8k32", "row.col", "f32", "e4m3", "e4m3", "f32", 4, 2, 4, 90),
	("m16n8k32", "row.col", "f32", "e5m2", "e4m3", "f32", 4, 2, 4, 90),
	("m16n8k32", "row.col", "f16", "e4m3", "e5m2", "f16", 4, 2, 2, 90),
]


def regs(k, cls, n, src=True):
	rs = [k.inp(cls) if src else k.new(cls) for _ in range(n)]
	return rs, "{" + ", ".join(rs) + "}"


def generate(g):
	b = g.batch("mma", per_kernel=12)
	for shape, lay, dt, at, bt, ct, na, nb, nc, sm in MMA:
		if g.sm < sm:
			continue
		ac = "rd" if at == "f64" else "r"
		cc = "rd" if ct == "f64" else "r"
		ints = ct == "s32"
		bops = [""]
		if at == "b1":
			bops = [".xor.popc", ".and.popc"]
		sats = [""] if not ints or at == "b1" else ["", ".satfinite"]
		for bop in bops:
			for sat in sats:
				for v in range(3):
					k = b.k()
					_, A = regs(k, ac, na)
					_, B = regs(k, ac, nb)
					cs, C = regs(k, cc, nc)
					ds, D = regs(k, cc, nc, src=False)
					rnd = ".rn" if (at == "f64" and v == 2) else ""
					m = f"mma.sync.aligned.{shape}.{lay}{sat}{rnd}.{dt}.{at}.{bt}.{ct}{bop}"
					if bop:
						m = f"mma.sync.aligned.{shape}.{lay}.{dt}.{at}.{bt}.{ct}{bop}"
					if v == 1 and dt == ct:
						k.emit(f"{m} {D}, {A}, {B}, {C};")
						k.emit(f"{m} {D}, {A}, {B}, {D};")
					else:
						k.emit(f"{m} {D}, {A}, {B}, {C};")
					for d in ds:
						k.st(d, cc)
	# sparse mma
	SP = [("m16n8k16", "f32", "f16", "f16", "f32", 2, 2, 4), ("m16n8k32", "f32", "f16", "f16", "f32", 4, 4, 4),
		("m16n8k16", "f32", "bf16", "bf16", "f32", 2, 2, 4), ("m16n8k16", "f16", "f16", "f16", "f16", 2, 2, 2),
		("m16n8k8", "f32", "tf32", "tf32", "f32", 2, 2, 4), ("m16n8k32", "s32", "s8", "s8", "s32", 2, 2, 4),
		("m16n8k64", "s32", "s8", "u8", "s32", 4, 4, 4), ("m16n8k128", "s32", "s4", "s4", "s32", 4, 4, 4)]
	for shape, dt, at, bt, ct, na, nb, nc in SP:
		for sel in ["0x0", "0x1"]:
			if ct == "s32" and sel == "0x1" and ordered_sat_only(shape):
				pass
			for ordered in ["", "::ordered_metadata"]:
				k = b.k()
				_, A = regs(k, "r", na)
				_, B = regs(k, "r", nb)
				_, C = regs(k, "r", nc)
				ds, D = regs(k, "r", nc, src=False)
				sat = ".satfinite" if ct == "s32" and sel == "0x1" else ""
				if ct == "s32":
					sel = "0x0"
				k.emit(f"mma.sp{ordered}.sync.aligned.{shape}.row.col{sat}.{dt}.{at}.{bt}.{ct} {D}, {A}, {B}, {C}, {k.inp('r')}, {sel};")
				for d in ds:
					k.st(d, "r")
	# ldmatrix / stmatrix / movmatrix
	b = g.batch("ldmatrix", per_kernel=20, decls=".shared .align 16 .b8 sbuf[8192];\n")
	for x in [1, 2, 4]:
		for tr in ["", ".trans"]:
			for a in ["[%sa]", "[%sa+512]", "[sbuf+256]", "[%sa64]"]:
				k = b.k()
				sa(k)
				ds, D = regs(k, "r", x, src=False)
				k.emit(f"ldmatrix.sync.aligned.m8n8.x{x}{tr}.shared.b16 {D}, {a.replace('%sa', k.sa) if '64' not in a else '[' + k.sa64 + ']'};")
				for d in ds:
					k.st(d, "r")
				if g.sm >= 90:
					_, S = regs(k, "r", x)
					k.emit(f"stmatrix.sync.aligned.m8n8.x{x}{tr}.shared.b16 {a.replace('%sa', k.sa) if '64' not in a else '[' + k.sa64 + ']'}, {S};")
	k = b.k()
	d = k.new("r")
	k.emit(f"movmatrix.sync.aligned.m8n8.trans.b16 {d}, {k.inp('r')};")
	k.st(d, "r")
	# cp.async
	b = g.batch("cpasync", per_kernel=24, decls=".shared .align 16 .b8 sbuf[8192];\n")
	for c, sizes in [("ca", [4, 8, 16]), ("cg", [16])]:
		for sz in sizes:
			for hint in ["", ".L2::64B", ".L2::128B", ".L2::256B"]:
				for form in range(4):
					k = b.k()
					sa(k)
					dst = f"[{k.sa}+{sz * form}]"
					if form == 0:
						k.emit(f"cp.async.{c}.shared.global{hint} {dst}, [%in+{64 * form}], {sz};")
					elif form == 1:
						k.emit(f"cp.async.{c}.shared.global{hint} {dst}, [%in+16], {sz}, {k.inp('r')};")
					elif form == 2:
						k.emit(f"cp.async.{c}.shared.global{hint} {dst}, [%in+32], {sz}, 2;")
					else:
						k.emit(f"cp.async.{c}.shared.global{hint} {dst}, [%in+48], {sz}, {k.pin()};")
					k.emit("cp.async.commit_group;")
					k.emit(f"cp.async.wait_group {form};")
					d = k.new("r")
					k.emit(f"ld.shared.b32 {d}, [{k.sa}];")
					k.st(d, "r")
	k = b.k()
	sa(k)
	k.emit(f"cp.async.ca.shared.global [{k.sa}], [%in], 16;")
	k.emit("cp.async.wait_all;")
	k.shared.append(".shared .align 8 .b64 mbar;")
	k.emit("mbarrier.init.shared.b64 [mbar], 32;")
	k.emit(f"cp.async.mbarrier.arrive.b64 [mbar];")
	k.emit(f"cp.async.mbarrier.arrive.noinc.shared.b64 [mbar];")
	d = k.new("r")
	k.emit(f"ld.shared.b32 {d}, [{k.sa}+4];")
	k.st(d, "r")
	# wmma
	b = g.batch("wmma", per_kernel=8)
	WM = [("m16n16k16", "f16", "f16", 8, 8, "f32", 8), ("m16n16k16", "f16", "f16", 8, 8, "f16", 4),
		("m32n8k16", "f16", "f16", 8, 8, "f32", 8), ("m8n32k16", "f16", "f16", 8, 8, "f16", 4),
		("m16n16k16", "bf16", "bf16", 4, 4, "f32", 8), ("m32n8k16", "bf16", "bf16", 8, 2, "f32", 8),
		("m16n16k8", "tf32", "tf32", 4, 4, "f32", 8), ("m16n16k16", "s8", "s8", 2, 2, "s32", 8),
		("m16n16k16", "u8", "u8", 2, 2, "s32", 8), ("m32n8k16", "s8", "s8", 4, 1, "s32", 8),
		("m8n8k4", "f64", "f64", 1, 1, "f64", 2), ("m8n8k32", "s4", "s4", 1, 1, "s32", 2),
		("m8n8k128", "b1", "b1", 1, 1, "s32", 2)]
	for shape, at, bt, na, nb, ct, nc in WM:
		for la, lb in [("row", "col"), ("col", "row")]:
			if at in ("s4", "b1") and (la, lb) != ("row", "col"):
				continue
			k = b.k()
			ac = "rd" if at == "f64" else "r"
			A, AA = regs(k, ac, na, src=False)
			B, BB = regs(k, ac, nb, src=False)
			C, CC = regs(k, ac if ct == "f64" else "r", nc, src=False)
			D, DD = regs(k, ac if ct == "f64" else "r", nc, src=False)
			k.emit(f"wmma.load.a.sync.aligned.{la}.{shape}.global.{at} {AA}, [%in], {k.par('r')};")
			k.emit(f"wmma.load.b.sync.aligned.{lb}.{shape}.global.{bt} {BB}, [%in+512], 16;")
			k.emit(f"wmma.load.c.sync.aligned.{la}.{shape}.global.{ct} {CC}, [%in+1024], 32;")
			if at in ("f16",):
				m = f"wmma.mma.sync.aligned.{la}.{lb}.{shape}.{ct}.{ct}"
			elif at == "b1":
				m = f"wmma.mma.xor.popc.sync.aligned.{la}.{lb}.{shape}.{ct}.{at}.{bt}.{ct}"
			else:
				m = f"wmma.mma.sync.aligned.{la}.{lb}.{shape}.{ct}.{at}.{bt}.{ct}"
			k.emit(f"{m} {DD}, {AA}, {BB}, {CC};")
			k.emit(f"wmma.store.d.sync.aligned.{lb}.{shape}.global.{ct} [%out], {DD}, {k.par('r')};")
			k.emit(f"wmma.store.d.sync.aligned.{la}.{shape}.global.{ct} [%out+4096], {CC};")


def ordered_sat_only(shape):
	return True


def sa(k):
	if "sa" not in k.__dict__:
		k.sa = k.new("r")
		k.head.append(f"\tmov.u32 {k.sa}, sbuf;")
		k.head.append(f"\tmad.lo.u32 {k.sa}, %t0, 16, {k.sa};")
		k.sa64 = k.new("rd")
		k.head.append(f"\tcvt.u64.u32 {k.sa64}, {k.sa};")
		k.head.append(f"\tcvta.shared.u64 {k.sa64}, {k.sa64};")
		k.head.append(f"\tcvta.to.shared.u64 {k.sa64}, {k.sa64};")
