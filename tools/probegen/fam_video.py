"""fam_video.py -- PTX scalar and SIMD video instructions (vadd..vset,
vadd2/4 ...), alloca/stacksave/stackrestore, vector kernel-parameter
loads, and a few sm_90 odds (tensormap.cp_fenceproxy, sparse wgmma)."""

SC = ["vadd", "vsub", "vabsdiff", "vmin", "vmax"]
SIMD = ["vadd2", "vsub2", "vavrg2", "vabsdiff2", "vmin2", "vmax2", "vadd4", "vsub4", "vavrg4", "vabsdiff4",
	"vmin4", "vmax4"]


def generate(g):
	b = g.batch("video", per_kernel=40)
	for o in SC:
		for dt, at, bt in [("s32", "s32", "s32"), ("u32", "u32", "u32"), ("s32", "u32", "s32"), ("u32", "s32", "u32")]:
			for sel, sat, sec in [("", "", ""), (".b0", ".sat", ""), (".h1", "", ".add"), ("", ".sat", ".min"),
					(".b3", "", ".max")]:
				k = b.k()
				d = k.new("r")
				asel = sel if sel else ""
				bsel = ".h0" if sel == ".h1" else (".b2" if sel.startswith(".b") else "")
				if sec:
					k.emit(f"{o}.{dt}.{at}.{bt}{sat}{sec} {d}, {k.inp('r')}{asel}, {k.inp('r')}{bsel}, {k.inp('r')};")
				else:
					k.emit(f"{o}.{dt}.{at}.{bt}{sat} {d}, {k.inp('r')}{asel}, {k.inp('r')}{bsel};")
				k.st(d, "r")
	for o in ["vshl", "vshr"]:
		for mode in ["clamp", "wrap"]:
			for dt, at in [("u32", "u32"), ("s32", "s32")]:
				k = b.k()
				d = k.new("r")
				k.emit(f"{o}.{dt}.{at}.u32.{mode} {d}, {k.inp('r')}, {k.inp('r')};")
				k.st(d, "r")
				k.emit(f"{o}.{dt}.{at}.u32.{mode}.add {d}, {k.inp('r')}.b1, {k.inp('r')}, {k.inp('r')};")
				k.st(d, "r")
	for dt, at, bt in [("u32", "u32", "u32"), ("s32", "s32", "s32"), ("s32", "u32", "s32")]:
		for po in ["", ".po"]:
			k = b.k()
			d = k.new("r")
			k.emit(f"vmad.{dt}.{at}.{bt}{po} {d}, {k.inp('r')}, {k.inp('r')}, {k.inp('r')};")
			k.st(d, "r")
			k.emit(f"vmad.{dt}.{at}.{bt}.sat{'.shr7' if not po else '.shr15'} {d}, {k.inp('r')}.h0, {k.inp('r')}.h1, {k.inp('r')};")
			k.st(d, "r")
	for c in ["eq", "ne", "lt", "le", "gt", "ge"]:
		k = b.k()
		d = k.new("r")
		k.emit(f"vset.s32.s32.{c} {d}, {k.inp('r')}, {k.inp('r')};")
		k.st(d, "r")
		k.emit(f"vset.u32.u32.{c}.add {d}, {k.inp('r')}.b0, {k.inp('r')}.b1, {k.inp('r')};")
		k.st(d, "r")
		for w in ["2", "4"]:
			k.emit(f"vset{w}.u32.u32.{c} {d}, {k.inp('r')}, {k.inp('r')}, {k.inp('r')};")
			k.st(d, "r")
	for o in SIMD:
		for t in ["u32.u32.u32", "s32.s32.s32", "s32.u32.s32"]:
			for sat in ["", ".sat"]:
				if sat and ("min" in o or "max" in o or "abs" in o):
					pass
				k = b.k()
				d = k.new("r")
				k.emit(f"{o}.{t}{sat} {d}, {k.inp('r')}, {k.inp('r')}, {k.inp('r')};")
				k.st(d, "r")
				if not sat:
					k.emit(f"{o}.{t}.add {d}, {k.inp('r')}, {k.inp('r')}, {k.inp('r')};")
					k.st(d, "r")
	# dynamic stack
	b = g.batch("stack", per_kernel=4)
	for n in ["16", "r", "1024"]:
		k = b.k()
		sp, p = k.new("rd"), k.new("rd")
		k.emit(f"stacksave.u64 {sp};")
		size = k.inp("r") if n == "r" else n
		k.emit(f"alloca.u64 {p}, {size}, 16;") if n != "r" else k.emit(f"{{ .reg .b64 %sz; cvt.u64.u32 %sz, {size}; and.b64 %sz, %sz, 0xff0; alloca.u64 {p}, %sz, 8; }}")
		k.emit(f"st.local.b32 [{p}], {k.inp('r')};")
		d = k.new("r")
		k.emit(f"ld.local.b32 {d}, [{p}+4];")
		k.st(d, "r")
		k.emit(f"stackrestore.u64 {sp};")
	# vector kernel-parameter loads
	b = g.batch("param", per_kernel=10)
	for vt, c, n in [("v2.b32", "r", 2), ("v4.b32", "r", 4), ("v2.b64", "rd", 2), ("v2.b16", "h", 2),
			("v4.b16", "h", 4), ("b8", "h", 1), ("v4.b8", "h", 4)]:
		k = b.k()
		k.extra_params = [".param .align 16 .b8 pv[32]"]
		ds = [k.new(c) for _ in range(n)]
		D = ds[0] if n == 1 else "{" + ", ".join(ds) + "}"
		k.emit(f"ld.param.{vt} {D}, [pv+16];")
		for d in ds:
			k.st(d, c)
		ds = [k.new(c) for _ in range(n)]
		D = ds[0] if n == 1 else "{" + ", ".join(ds) + "}"
		k.emit(f"ld.param.{vt} {D}, [pv];")
		for d in ds:
			k.st(d, c)
	if g.sm < 90:
		return
	b = g.batch("sm90a_sp", target="sm_90a", per_kernel=2, per_module=4,
		decls=".shared .align 128 .b8 sbuf[16384];\n")
	k = b.k()
	k.emit("{ .reg .b32 %a; mov.u32 %a, sbuf;")
	k.emit("tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%in], [%a], 128; }")
	for at, ct, kk in [("f16", "f32", 32), ("bf16", "f32", 32), ("tf32", "f32", 16), ("e4m3", "f32", 64),
			("s8", "s32", 64)]:
		for n in [8, 64]:
			k = b.k()
			nd = n // 2
			ds = [k.new("r") for _ in range(nd)]
			D = "{" + ", ".join(ds) + "}"
			args = ", 1, 1, 0, 1" if at in ("f16", "bf16") else (", 1, 1" if at != "s8" else "")
			k.emit("wgmma.fence.sync.aligned;")
			k.emit(f"wgmma.mma_async.sp.sync.aligned.m64n{n}k{kk}.{ct}.{at}.{at} {D}, {k.inp('rd')}, {k.inp('rd')}, {k.inp('r')}, 0, {k.pin()}{args};")
			k.emit("wgmma.commit_group.sync.aligned;")
			k.emit("wgmma.wait_group.sync.aligned 0;")
			for d in ds[:8]:
				k.st(d, "r")
			k.emit(f"st.global.v4.b32 [%out+1024], {{{', '.join(ds[-4:])}}};")
