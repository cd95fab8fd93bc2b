"""fam_mem.py -- loads and stores in every state space, width, vector size,
cache/eviction qualifier and memory order; atomics and reductions of every
operation and type; prefetch."""
from core import CLS, SIZE

DECLS = """.global .align 16 .b8 gbuf[4096];
.const .align 16 .b8 cbuf[4096];
.shared .align 16 .b8 sbuf[8192];
"""
TYPES = ["u8", "s8", "u16", "s16", "b16", "b32", "u32", "s32", "f32", "b64", "f64", "u64", "s64"]
VECT = ["b16", "b32", "f32", "b64", "u8"]


def rcls(t):
	return "r" if t in ("u8", "s8") and False else ("h" if t in ("u8", "s8", "u16", "s16", "b16") else CLS[t])


def addr(k, space, i):
	"""An address operand for space, varied by i."""
	if space == "shared":
		if "sa" not in k.__dict__:
			k.sa = k.new("r")
			k.head.append(f"\tmov.u32 {k.sa}, sbuf;")
			k.head.append(f"\tmad.lo.u32 {k.sa}, %t0, 16, {k.sa};")
			k.sa64 = k.new("rd")
			k.head.append(f"\tcvt.u64.u32 {k.sa64}, {k.sa};")
		return [f"[{k.sa}]", f"[{k.sa}+16]", f"[{k.sa}+-32]", "[sbuf+128]", f"[{k.sa}+4096]", f"[{k.sa64}+64]"][i % 6]
	if space == "local":
		if "la" not in k.__dict__:
			k.shared.append(".local .align 16 .b8 lbuf[1024];")
			k.la = k.new("rd")
			k.head.append(f"\tmov.u64 {k.la}, lbuf;")
			k.head.append(f"\tmul.wide.u32 %t64, %t0, 16;")
			k.head.append(f"\tand.b64 %t64, %t64, 255;")
			k.head.append(f"\tadd.u64 {k.la}, {k.la}, %t64;")
		return [f"[{k.la}]", f"[{k.la}+16]", f"[{k.la}+512]", f"[{k.la}+-16]"][i % 4]
	if space == "const":
		if "ca" not in k.__dict__:
			k.ca = k.new("rd")
			k.head.append(f"\tmov.u64 {k.ca}, cbuf;")
			k.head.append(f"\tmul.wide.u32 %t64, %t0, 16;")
			k.head.append(f"\tadd.u64 {k.ca}, {k.ca}, %t64;")
		return [f"[{k.ca}]", f"[{k.ca}+16]", "[cbuf+64]", f"[{k.ca}+1024]", "[cbuf]"][i % 5]
	# global, generic
	return [f"[%in+{128 + 16 * (i % 8)}]", "[%in]", f"[%in+-256]", "[%in+0x100000]", "[gbuf+32]",
		"[%in+4]"][i % 6]


def generate(g):
	b = g.batch("ldst", per_kernel=60, decls=DECLS)
	spaces = ["global", "shared", "local", "const", ""]
	i = 0
	for sp in spaces:
		for t in TYPES:
			for vec in ["", ".v2", ".v4"]:
				if vec == ".v4" and t[1:] == "64":
					continue
				for j in range(3):
					k = b.k()
					c = rcls(t)
					n = {"": 1, ".v2": 2, ".v4": 4}[vec]
					ds = [k.new(c) for _ in range(n)]
					dd = ds[0] if n == 1 else "{" + ", ".join(ds) + "}"
					sps = "." + sp if sp else ""
					g_ = ["", f"@{k.pin()} ", f"@!{k.pin()} "][j] if j and sp != "const" else ""
					if g_:
						for d in ds:
							k.emit(f"mov.b{SIZE[c] * 8} {d}, 0;")
					k.emit(f"{g_}ld{sps}{vec}.{t} {dd}, {addr(k, sp or 'global', i)};")
					i += 1
					for d in ds:
						k.st(d, c)
					if sp != "const":
						srcs = [k.inp(c) for _ in range(n)]
						ss = srcs[0] if n == 1 else "{" + ", ".join(srcs) + "}"
						k.emit(f"{g_}st{sps}{vec}.{t} {addr(k, sp or 'global', i)}, {ss};")
						i += 1
						if j == 2 and t in ("b32", "b64"):
							k.emit(f"st{sps}{vec}.{t} {addr(k, sp or 'global', i)}, {ss.replace(srcs[0], '0')};")
	if g.sm >= 80:
		for sp in ["global", "shared", ""]:
			k = b.k(2)
			d = k.new("q")
			sps = "." + sp if sp else ""
			k.emit(f"ld{sps}.b128 {d}, {addr(k, sp or 'global', i)};")
			k.emit(f"st{sps}.b128 {addr(k, sp or 'global', i + 1)}, {d};")
	# cache operators, eviction priorities, memory order
	b = g.batch("ldst_qual", per_kernel=60, decls=DECLS)
	lds = ["ca", "cg", "cs", "lu", "cv", "volatile", "nc", "nc.ca", "nc.cg", "nc.cs",
		"L1::evict_normal", "L1::evict_unchanged", "L1::evict_first", "L1::evict_last", "L1::no_allocate",
		"L2::64B", "L2::128B", "L2::256B", "nc.L1::no_allocate", "nc.L2::128B", "L1::evict_last.L2::256B",
		"relaxed.cta", "relaxed.gpu", "relaxed.sys", "acquire.cta", "acquire.gpu", "acquire.sys", "weak",
		"volatile.L2::128B"]
	sts = ["wb", "cg", "cs", "wt", "volatile", "relaxed.cta", "relaxed.gpu", "relaxed.sys", "release.cta",
		"release.gpu", "release.sys", "L1::evict_first", "L1::evict_last", "L1::no_allocate", "weak",
		"L1::evict_unchanged", "L1::evict_normal"]
	if g.sm >= 90:
		lds += ["relaxed.cluster", "acquire.cluster", "mmio.relaxed.sys"]
		sts += ["relaxed.cluster", "release.cluster", "mmio.relaxed.sys"]
	for q in lds:
		for t in ["u8", "s16", "b32", "b64", "f32"]:
			for vec in ["", ".v2", ".v4"]:
				if (vec and ("relax" in q or "acq" in q or "mmio" in q)) or (vec == ".v4" and t == "b64"):
					continue
				for sp in ["global"] + (["", "shared"] if "nc" not in q and "L2" not in q else []):
					if sp == "shared" and "mmio" in q:
						continue
					if sp == "shared" and not ("volatile" in q or "relax" in q or "acq" in q or q == "weak"):
						continue
					if sp == "" and t not in ("b32",):
						continue
					k = b.k()
					c = rcls(t)
					n = {"": 1, ".v2": 2, ".v4": 4}[vec]
					ds = [k.new(c) for _ in range(n)]
					dd = ds[0] if n == 1 else "{" + ", ".join(ds) + "}"
					sps = "." + sp if sp else ""
					qq = "." + q
					if q.startswith("relax") or q.startswith("acq") or q.startswith("mmio") or q == "volatile":
						k.emit(f"ld{qq}{sps}{vec}.{t} {dd}, {addr(k, sp or 'global', len(k.body))};")
					else:
						k.emit(f"ld{sps}{qq}{vec}.{t} {dd}, {addr(k, sp or 'global', len(k.body))};")
					for d in ds:
						k.st(d, c)
	for q in sts:
		for t in ["u8", "b16", "b32", "b64", "f64"]:
			for vec in ["", ".v2", ".v4"]:
				if (vec and ("rel" in q or "mmio" in q)) or (vec == ".v4" and t[1:] == "64"):
					continue
				for sp in ["global", "", "shared", "local"]:
					if sp in ("shared", "local") and q not in ("volatile", "wb", "relaxed.cta", "release.cta", "weak", "cg" if sp == "local" else "-") or (sp == "shared" and "mmio" in q):
						continue
					if sp == "local" and (q.startswith("rel") or q == "volatile"):
						continue
					if sp == "" and t != "b32":
						continue
					k = b.k()
					c = rcls(t)
					n = {"": 1, ".v2": 2, ".v4": 4}[vec]
					srcs = [k.inp(c) for _ in range(n)]
					ss = srcs[0] if n == 1 else "{" + ", ".join(srcs) + "}"
					sps = "." + sp if sp else ""
					if q.startswith("rel") or q.startswith("mmio") or q == "volatile":
						k.emit(f"st.{q}{sps}{vec}.{t} {addr(k, sp or 'global', len(k.body))}, {ss};")
					else:
						k.emit(f"st{sps}.{q}{vec}.{t} {addr(k, sp or 'global', len(k.body))}, {ss};")
	for t in ["u8", "b16", "b32", "b64", "f32"]:
		for vec in ["", ".v2", ".v4"]:
			if vec == ".v4" and t == "b64":
				continue
			k = b.k()
			c = rcls(t)
			n = {"": 1, ".v2": 2, ".v4": 4}[vec]
			ds = [k.new(c) for _ in range(n)]
			dd = ds[0] if n == 1 else "{" + ", ".join(ds) + "}"
			k.emit(f"ldu.global{vec}.{t} {dd}, [%in+{64 * len(k.body)}];")
			for d in ds:
				k.st(d, c)
	# cache hints
	for q in ["L2::cache_hint", "L1::evict_last.L2::cache_hint", "nc.L2::cache_hint"]:
		k = b.k(2)
		pol, d = k.new("rd"), k.new("r")
		k.emit(f"createpolicy.fractional.L2::evict_last.b64 {pol}, 1.0;")
		k.emit(f"ld.global.{q}.b32 {d}, [%in+64], {pol};")
		k.st(d, "r")
		if "nc" not in q:
			k.emit(f"st.global.{q.replace('evict_last', 'evict_first') if 'L1' in q else q}.b32 [%in+128], {d}, {pol};") if "L1" not in q else None
			k.emit(f"st.global.L2::cache_hint.b32 [%in+192], {d}, {pol};")
	for m in ["createpolicy.fractional.L2::evict_last.L2::evict_unchanged.b64 {d}, 0.5;",
			"createpolicy.fractional.L2::evict_first.b64 {d}, 0.25;",
			"createpolicy.fractional.L2::evict_unchanged.b64 {d}, 1.0;",
			"createpolicy.range.L2::evict_last.L2::evict_first.b64 {d}, [%in], 128, 4096;",
			"createpolicy.cvt.L2.b64 {d}, {s};"]:
		k = b.k()
		d = k.new("rd")
		k.emit(m.format(d=d, s=k.inp("rd")))
		k.st(d, "rd")
	for q in ["global.L1", "global.L2", "L1", "L2", "local.L1", "local.L2", "global.L2::evict_last",
			"global.L2::evict_normal", "global.L1::evict_last" if False else "global.L2::evict_last"]:
		k = b.k()
		sp = "local" if "local" in q else "global"
		k.emit(f"prefetch.{q} {addr(k, sp, len(k.body))};")
	k = b.k()
	k.emit("prefetchu.L1 [%in+64];")
	# atomics and reductions
	b = g.batch("atom", per_kernel=60, decls=DECLS)
	ops = [("add", ["u32", "s32", "u64", "f32", "f64", "f16", "f16x2", "bf16", "bf16x2"]),
		("inc", ["u32"]), ("dec", ["u32"]),
		("min", ["u32", "s32", "u64", "s64"]), ("max", ["u32", "s32", "u64", "s64"]),
		("and", ["b32", "b64"]), ("or", ["b32", "b64"]), ("xor", ["b32", "b64"]),
		("exch", ["b32", "b64"]), ("cas", ["b32", "b64", "b16"])]
	if g.sm >= 90:
		ops += [("exch", ["b128"]),
			("cas", ["b128"])]
	sems = ["", ".relaxed.gpu", ".acquire.gpu", ".release.gpu", ".acq_rel.gpu", ".relaxed.cta", ".relaxed.sys",
		".acq_rel.sys"] + ([".relaxed.cluster"] if g.sm >= 90 else [])
	for o, ts in ops:
		for t in ts:
			for sp in ["global", "shared", ""]:
				if t == "b128" and sp == "":
					continue
				for si, sem in enumerate(sems):
					if si > 1 and not (t in ("u32", "b32", "f32") and sp != "shared"):
						continue
					for red in ([False, True] if o not in ("exch", "cas") else [False]):
						for vk in ["r", "c", "i"]:
							if vk == "i" and t[0] in "fb" and "x2" not in t and t != "b32":
								continue
							if vk != "r" and (si or red or t in ("f16", "bf16", "b16", "f16x2", "bf16x2", "b128")):
								continue
							k = b.k()
							c = CLS[t]
							v = k.inp(c) if vk == "r" else k.par(c) if vk == "c" else ("1" if t[0] in "usb" else "0f3F800000")
							if "x2" in t and vk == "i":
								v = k.par(c)
							nf = ".noftz" if t in ("f16", "bf16", "f16x2", "bf16x2") else ""
							sps = "." + sp if sp else ""
							a = addr(k, sp or "global", len(k.body))
							if red and ("acq" in sem):
								continue
							if red:
								k.emit(f"red{sem}{sps}.{o}{nf}.{t} {a}, {v};")
							else:
								d = k.new(c)
								extra = f", {k.inp(c)}" if o == "cas" else ""
								k.emit(f"atom{sem}{sps}.{o}{nf}.{t} {d}, {a}, {v}{extra};")
								k.st(d, c)
	if g.sm >= 90:
		for o in ["add", "min", "max"]:
			for vt in ["v2.f32", "v4.f32", "v2.f16x2", "v4.f16x2", "v8.f16", "v8.bf16", "v4.bf16x2"]:
				if o != "add" and "f32" in vt:
					continue
				n = int(vt[1])
				k = b.k()
				c = "h" if vt.endswith(".f16") or vt.endswith(".bf16") else "r"
				src = "{" + ", ".join(k.inp(c) for _ in range(n)) + "}"
				nf = ".noftz" if "16" in vt else ""
				k.emit(f"red.global.{o}{nf}.{vt} [%in+64], {src};")
				ds = [k.new(c) for _ in range(n)]
				k.emit(f"atom.global.{o}{nf}.{vt} {{{', '.join(ds)}}}, [%in+128], {src};")
				for d in ds:
					k.st(d, c)
