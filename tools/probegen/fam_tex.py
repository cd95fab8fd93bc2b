"""fam_tex.py -- textures and surfaces through kernel-parameter handles
(unified mode): tex in every geometry with offsets, depth compare, explicit
LOD and gradients, tld4, txq, istypep; suld/sust (.b and .p), sured, suq."""

GEOM = [("1d", 1), ("2d", 2), ("3d", 3), ("a1d", 2), ("a2d", 3), ("cube", 3), ("acube", 4)]


def coords(k, geom, n, ct):
	cs = []
	for i in range(n):
		if geom.startswith("a") and i == 0:
			cs.append(k.inp("r"))
		else:
			cs.append(k.inp("r"))
	if geom in ("3d", "a2d", "cube") or (geom == "acube"):
		while len(cs) < 4:
			cs.append(cs[-1])
	return "{" + ", ".join(cs) + "}"


def tk(b):
	k = b.k()
	if not k.extra_params:
		k.extra_params = [".param .texref t0", ".param .texref t1", ".param .surfref s0"]
	return k


def generate(g):
	b = g.batch("tex", per_kernel=16)
	for geom, n in GEOM:
		for dt in ["f32", "s32", "u32", "f16" if False else "f32"]:
			for ct in (["f32", "s32"] if geom in ("1d", "2d", "3d") else ["f32"]):
				for variant in ["", "level", "grad", "off", "pred"]:
					if geom in ("cube", "acube") and variant in ("off", "grad"):
						continue
					if ct == "s32" and variant in ("level", "grad"):
						continue
					k = tk(b)
					ds = [k.new("r") for _ in range(4)]
					D = "{" + ", ".join(ds) + "}"
					C = coords(k, geom, n, ct)
					tail = ""
					op = "tex"
					if variant == "level":
						op = "tex.level"
						tail = f", {k.inp('r')}"
					elif variant == "grad":
						nd = {"1d": 1, "a1d": 1, "2d": 2, "a2d": 2, "3d": 4}[geom]
						gr = "{" + ", ".join(k.inp("r") for _ in range(nd)) + "}"
						op = "tex.grad"
						tail = f", {gr}, {gr}"
					elif variant == "off":
						no = {"1d": 1, "a1d": 1, "2d": 2, "a2d": 2, "3d": 4}[geom]
						tail = ", {" + ", ".join(str(i - 1) if i < 2 else k.inp("r") for i in range(no)) + "}"
					t = "t1" if variant == "pred" else "t0"
					pd = ""
					if variant == "pred" and geom in ("2d", "1d"):
						pd = "|" + k.new("p")
					k.emit(f"{op}.{geom}.v4.{dt}.{ct} {D}{pd}, [{t}, {C}]{tail};")
					for d in ds:
						k.st(d, "r")
					if pd:
						k.st(pd[1:], "p")
	for geom, n in [("2d", 2), ("a2d", 3), ("cube", 3), ("acube", 4)]:
		for comp in ["r", "g", "b", "a"]:
			for dt in ["f32", "s32", "u32"]:
				k = tk(b)
				ds = [k.new("r") for _ in range(4)]
				D = "{" + ", ".join(ds) + "}"
				C = coords(k, geom, n, "f32")
				off = ", {1, -1}" if geom == "2d" and comp == "g" else ""
				k.emit(f"tld4.{comp}.{geom}.v4.{dt}.f32 {D}, [t0, {C}]{off};")
				for d in ds:
					k.st(d, "r")
	k = tk(b)
	for q in ["width", "height", "depth", "channel_data_type", "channel_order", "normalized_coords",
			"array_size", "num_mipmap_levels", "num_samples"]:
		d = k.new("r")
		k.emit(f"txq.{q}.b32 {d}, [t0];")
		k.st(d, "r")
	for q in ["width", "height", "depth"]:
		d = k.new("r")
		k.emit(f"txq.level.{q}.b32 {d}, [t1], {k.inp('r')};")
		k.st(d, "r")
	for q in ["width", "height", "depth", "channel_data_type", "channel_order", "array_size", "memory_layout"]:
		d = k.new("r")
		k.emit(f"suq.{q}.b32 {d}, [s0];")
		k.st(d, "r")
	p = k.new("p")
	h = k.new("rd")
	k.emit(f"mov.u64 {h}, t0;")
	k.emit(f"istypep.texref {p}, {h};")
	k.st(p, "p")
	k.emit(f"mov.u64 {h}, s0;")
	k.emit(f"istypep.surfref {p}, {h};")
	k.st(p, "p")
	# bindless: texture and surface objects are 64-bit handles loaded from memory
	b = g.batch("bindless", per_kernel=12)
	for i, (geom, n) in enumerate(GEOM):
		for v in ["", "level", "tld4", "txq", "suq", "suld", "sust", "sured"]:
			if v in ("suld", "sust", "sured") and geom not in ("1d", "2d", "3d", "a1d", "a2d")[:5 if v != "sured" else 3]:
				continue
			if v == "tld4" and geom not in ("2d", "a2d", "cube", "acube"):
				continue
			k = b.k()
			h = k.inp("rd")
			ds = [k.new("r") for _ in range(4)]
			D = "{" + ", ".join(ds) + "}"
			C = coords(k, geom, n, "f32")
			if v == "":
				k.emit(f"tex.{geom}.v4.f32.f32 {D}, [{h}, {C}];")
			elif v == "level":
				k.emit(f"tex.level.{geom}.v4.f32.f32 {D}, [{h}, {C}], {k.inp('r')};")
			elif v == "tld4":
				k.emit(f"tld4.{'rgba'[i % 4]}.{geom}.v4.f32.f32 {D}, [{h}, {C}];")
			elif v == "txq":
				for j, q in enumerate(["width", "height", "depth", "num_mipmap_levels"]):
					k.emit(f"txq.{q}.b32 {ds[j]}, [{h}];")
			elif v == "suq":
				for j, q in enumerate(["width", "height", "depth", "array_size"]):
					k.emit(f"suq.{q}.b32 {ds[j]}, [{h}];")
			else:
				cs = [k.inp("r") for _ in range(n)]
				if n == 3:
					cs.append(cs[-1])
				C = "{" + ", ".join(cs) + "}"
				if v == "suld":
					k.emit(f"suld.b.{geom}.v4.b32.{['trap', 'clamp', 'zero'][i % 3]} {D}, [{h}, {C}];")
				elif v == "sust":
					k.emit(f"sust.b.{geom}.v4.b32.trap [{h}, {C}], {{{', '.join(k.inp('r') for _ in range(4))}}};")
					k.emit(f"sust.p.{geom}.v4.b32.trap [{h}, {C}], {{{', '.join(k.inp('r') for _ in range(4))}}};")
					ds = []
				else:
					k.emit(f"sured.b.add.{geom}.u32.trap [{h}, {C}], {k.inp('r')};")
					k.emit(f"sured.b.max.{geom}.s64.trap [{h}, {C}], {k.inp('rd')};")
					ds = []
			for d in ds:
				k.st(d, "r")
	# surfaces
	b = g.batch("surf", per_kernel=20)
	for geom, n in [("1d", 1), ("2d", 2), ("3d", 3), ("a1d", 2), ("a2d", 3)]:
		for vt, c, nv in [("b8", "h", 1), ("b16", "h", 1), ("b32", "r", 1), ("b64", "rd", 1), ("v2.b32", "r", 2),
				("v4.b32", "r", 4), ("v2.b16", "h", 2), ("v4.b8", "h", 4), ("v2.b64", "rd", 2)]:
			for mode in ["trap", "clamp", "zero"]:
				if mode != "trap" and vt not in ("b32", "v4.b32"):
					continue
				k = tk(b)
				cs = [k.inp("r") for _ in range(n)]
				while len(cs) in (3,):
					cs.append(cs[-1])
				C = "{" + ", ".join(cs) + "}"
				ds = [k.new(c) for _ in range(nv)]
				D = ds[0] if nv == 1 else "{" + ", ".join(ds) + "}"
				k.emit(f"suld.b.{geom}.{vt}.{mode} {D}, [s0, {C}];")
				for d in ds:
					k.st(d, c)
				S = D.replace(ds[0], k.inp(c))
				k.emit(f"sust.b.{geom}.{vt}.{mode} [s0, {C}], {S};")
				if vt in ("b32", "v4.b32") and mode == "trap":
					k.emit(f"sust.p.{geom}.{vt}.{mode} [s0, {C}], {S};")
	for o, t in [("add", "u32"), ("add", "s32"), ("min", "u32"), ("max", "s32"), ("and", "b32"), ("or", "b32"),
			("add", "u64"), ("min", "s64")]:
		for geom, n in [("1d", 1), ("2d", 2), ("3d", 3)]:
			k = tk(b)
			cs = [k.inp("r") for _ in range(n)]
			if n == 3:
				cs.append(cs[-1])
			c = "rd" if "64" in t else "r"
			k.emit(f"sured.b.{o}.{geom}.{t}.trap [s0, {{{', '.join(cs)}}}], {k.inp(c)};")
			if t == "b32":
				k.emit(f"sured.p.{o}.{geom}.{t}.trap [s0, {{{', '.join(cs)}}}], {k.inp(c)};")
