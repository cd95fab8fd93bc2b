"""core.py -- the probe generator's building blocks: Gen (one arch's output
folder and manifest), Batch (a run of kernels of one family, split into
modules of bounded size) and K (one kernel: inputs loaded from global
memory, kernel-parameter operands, fresh registers, stores that keep every
result alive)."""
import os, re

CLS = {  # PTX type -> register class
	"pred": "p",
	"b8": "h", "u8": "h", "s8": "h",
	"b16": "h", "u16": "h", "s16": "h", "f16": "h", "bf16": "h", "e4m3x2": "h", "e5m2x2": "h",
	"b32": "r", "u32": "r", "s32": "r", "f32": "r", "f16x2": "r", "bf16x2": "r", "tf32": "r",
	"u16x2": "r", "s16x2": "r",
	"b64": "rd", "u64": "rd", "s64": "rd", "f64": "rd", "b128": "q",
}
DECL = {"p": ".pred", "h": ".b16", "r": ".b32", "rd": ".b64", "q": ".b128"}
SIZE = {"p": 4, "h": 2, "r": 4, "rd": 8, "q": 16}
PARAM = {"h": "ph", "r": "pr", "rd": "prd"}

IMM = {
	"i16": [0, 1, -1, 2, 0x7FFF, 0x1234, -128, 255],
	"i32": [0, 1, 2, -1, 3, 7, 31, 32, 0x7F, 0x80, -129, 0xFF, 0xFFFF, 0x10000, 0x7FFFFFFF, -0x80000000,
		0x12345678, 0x3F800000, -8, 1000, 0x800000],
	"i64": [0, 1, -1, 2, 63, 0xFFFFFFFF, 0x100000000, 0x123456789ABCDEF, -2, 0x7FFFFFFFFFFFFFFF, 4096],
	"f32": [0x00000000, 0x3F800000, 0xBF800000, 0x40490FDB, 0x7F800000, 0xFF800000, 0x7FFFFFFF,
		0x00000001, 0x3F000000, 0x4B000000, 0x80000000, 0x42F60000, 0x3DCCCCCD, 0x7F7FFFFF, 0xC1200000],
	"f64": [0x0000000000000000, 0x3FF0000000000000, 0xBFF0000000000000, 0x7FF0000000000000,
		0x400921FB54442D18, 0x3FE0000000000000, 0x0000000000000001, 0x7FF8000000000000,
		0x3FB999999999999A, 0x4330000000000000, 0xC024000000000000],
	"f16": [0x0000, 0x3C00, 0xBC00, 0x7C00, 0x7E00, 0x3800, 0x0001, 0x4248, 0x57D0],
	"f16x2": [0x00000000, 0x3C003C00, 0x3C00BC00, 0x7C000000, 0x38003800, 0x40004200, 0x00013C00],
	"bf16": [0x0000, 0x3F80, 0xBF80, 0x7F80, 0x4049, 0x3F00],
	"bf16x2": [0x00000000, 0x3F803F80, 0x3F80BF80, 0x7F800000, 0x40493F00],
}


SM90_ONLY = re.compile(r"^(@!?%p\d+ )?((add|sub|mul|ex2|setp?|atom|red)\.[.\w:]*bf16|\w*\.[.\w]*xorsign|(min|max)\.relu"
	r"|mov\.u32 \S+ %aggr_smem_size)")


def sm80_ok(s):
	"""False for instruction text that needs sm_90 (dropped on sm_80)."""
	if SM90_ONLY.match(s):
		return False
	m = s.split()[1] if s.startswith("@") else s.split()[0]
	if m.startswith("cvt.") and "bf16" in m and "x2" not in m:
		ts = m.split(".")[-2:]
		if "ftz" in m or (ts[0] == "bf16" and ts[1] != "f32") or (ts[1] == "bf16" and ts[0] != "f32"):
			return False
	return True


def immkind(ty):
	if ty in ("f32", "f64", "f16", "f16x2", "bf16", "bf16x2"):
		return ty
	if ty == "tf32":
		return "f32"
	c = CLS[ty]
	return {"h": "i16", "r": "i32", "rd": "i64"}.get(c, "i32")


def lit(ty, v):
	k = immkind(ty)
	if k == "f32":
		return "0f%08X" % (v & 0xFFFFFFFF)
	if k == "f64":
		return "0d%016X" % (v & 0xFFFFFFFFFFFFFFFF)
	if isinstance(v, int) and (v < 0 or v < 10):
		return str(v)
	return hex(v)


class K:
	"""One kernel under construction."""

	def __init__(self, name, target):
		self.name, self.target = name, target
		self.body, self.head = [], []
		self.n = {c: 0 for c in DECL}
		self.inputs, self.params = {}, {}
		self.off = 0
		self.nops = 0
		self.rot = {c: 0 for c in DECL}
		self.pred = None
		self.extra_params = []
		self.directives = ""
		self.shared = []

	def new(self, cls):
		self.n[cls] += 1
		return f"%{cls}{self.n[cls]}"

	def inp(self, cls, i=None):
		"""An input register of class cls, loaded from global memory."""
		if i is None:
			i = self.rot[cls] % 6
			self.rot[cls] += 1
		key = (cls, i)
		if key not in self.inputs:
			self.inputs[key] = self.new(cls)
		return self.inputs[key]

	def par(self, cls):
		if cls not in self.params:
			self.params[cls] = self.new(cls)
		return self.params[cls]

	def pin(self):
		if self.pred is None:
			self.pred = self.new("p")
			self.inp("r", 0)
		return self.pred

	def emit(self, s):
		if int(self.target[3:5]) < 90 and not sm80_ok(s):
			return
		self.body.append("\t" + s)

	def st(self, reg, cls):
		"""Store reg (of class cls) so it stays alive."""
		if cls == "p":
			r = self.new("r")
			self.emit(f"selp.u32 {r}, 1, 0, {reg};")
			reg, cls = r, "r"
		sz = SIZE[cls]
		self.off = (self.off + sz - 1) // sz * sz
		self.emit(f"st.global.b{sz * 8} [%out+{self.off}], {reg};")
		self.off += sz

	def operand(self, ty, kind):
		"""kind: 'r' input register, 'c' kernel parameter, ('i', v) immediate,
		('m', v) immediate materialised by mov (f16 types have no literals)."""
		cls = CLS[ty]
		if kind == "r":
			return self.inp(cls)
		if kind == "c":
			return self.par(cls)
		if kind[0] == "m" or immkind(ty) in ("f16", "f16x2", "bf16", "bf16x2"):
			r = self.new(cls)
			w = {"h": 16, "r": 32, "rd": 64}[cls]
			self.emit(f"mov.b{w} {r}, {hex(kind[1] & ((1 << w) - 1))};")
			return r
		return lit(ty, kind[1])

	def guard(self, g):
		if not g:
			return ""
		p = self.pin()
		return f"@{p} " if g == "p" else f"@!{p} "

	def text(self):
		out = [f".visible .entry {self.name}(.param .u64 pout, .param .u64 pin, .param .b16 ph, "
			f".param .b32 pr, .param .b64 prd{''.join(', ' + p for p in self.extra_params)})" + self.directives, "{"]
		for c in DECL:
			if self.n[c] or c in ("r", "rd"):
				out.append(f"\t.reg {DECL[c]} %{c}<{self.n[c] + 1}>;")
		out.append("\t.reg .b64 %out, %in, %t64;")
		out.append("\t.reg .b32 %t0;")
		out += ["\t" + s for s in self.shared]
		out.append("\tmov.u32 %t0, %tid.x;")
		out.append("\tld.param.u64 %out, [pout];")
		out.append("\tld.param.u64 %in, [pin];")
		out.append("\tcvta.to.global.u64 %out, %out;")
		out.append("\tcvta.to.global.u64 %in, %in;")
		out.append("\tmul.wide.u32 %t64, %t0, 256;")
		out.append("\tadd.u64 %in, %in, %t64;")
		out.append("\tmul.wide.u32 %t64, %t0, 65536;")
		out.append("\tadd.u64 %out, %out, %t64;")
		for cls, r in sorted(self.params.items()):
			out.append(f"\tld.param.b{SIZE[cls] * 8} {r}, [{PARAM[cls]}];")
		base = {"h": 0, "r": 16, "rd": 48, "q": 128, "p": 0}
		for (cls, i), r in sorted(self.inputs.items()):
			if cls == "p":
				continue
			out.append(f"\tld.global.b{SIZE[cls] * 8} {r}, [%in+{base[cls] + i * SIZE[cls]}];")
		if self.pred:
			out.append(f"\tsetp.ne.u32 {self.pred}, {self.inputs[('r', 0)]}, 0;")
		out += self.head
		out += self.body
		out.append("\tret;")
		out.append("}")
		return "\n".join(out) + "\n"


class Batch:
	"""Kernels of one family, rolled over every per_kernel ops, written as
	modules of per_module kernels."""

	def __init__(self, gen, name, target, opts, per_kernel, per_module, decls=""):
		self.gen, self.name, self.target, self.opts = gen, name, target, opts
		self.per_kernel, self.per_module, self.decls = per_kernel, per_module, decls
		self.kernels, self.cur, self.funcs = [], None, []
		gen.batches.append(self)

	def k(self, weight=1):
		if self.cur is None or self.cur.nops >= self.per_kernel:
			self.cur = K(f"{self.name}_{len(self.kernels)}", self.target)
			self.kernels.append(self.cur)
		self.cur.nops += weight
		return self.cur

	def fresh(self):
		"""Force the next k() to start a new kernel."""
		self.cur = None

	def modules(self):
		ks = self.kernels
		if self.gen.quick:
			ks = ks[:1]
		for i in range(0, len(ks), self.per_module):
			part = ks[i:i + self.per_module]
			txt = [".version 9.0", f".target {self.target}", ".address_size 64", "", self.decls]
			txt += self.funcs
			txt += [k.text() for k in part]
			yield f"{self.name}_{i // self.per_module}.ptx", "\n".join(txt)


MORE_OPT = {"ldst_qual", "atom", "surf", "bindless", "tex", "wgmma", "bulk", "cluster", "mbarrier", "cvt", "mma"}


class Gen:
	def __init__(self, arch, outdir, quick=False):
		self.arch, self.outdir, self.quick = arch, outdir, quick
		self.batches = []
		self.sm = int(arch[3:])

	def batch(self, name, target=None, opts=None, per_kernel=100, per_module=8, decls=""):
		if opts is None:	# families with many rare modifier combinations get -O1 too
			opts = ("O3", "O0", "O1") if name in MORE_OPT else ("O3", "O0")
		return Batch(self, name, target or self.arch, opts, per_kernel, per_module, decls)

	def finish(self):
		os.makedirs(self.outdir, exist_ok=True)
		for f in os.listdir(self.outdir):
			if f.endswith(".ptx"):
				os.remove(os.path.join(self.outdir, f))
		man = ["# file\ttarget\topt levels -- written by tools/probe-gen"]
		n = 0
		for b in self.batches:
			for fname, txt in b.modules():
				with open(os.path.join(self.outdir, fname), "w") as f:
					f.write(txt)
				man.append(f"{fname}\t{b.target}\t{' '.join(b.opts)}")
				n += 1
		with open(os.path.join(self.outdir, "manifest.txt"), "w") as f:
			f.write("\n".join(man) + "\n")
		return n


def forms(nsrc, ty, guards=True, imms=None, params=True, immpos=None):
	"""Operand-kind patterns for an op with nsrc sources of type ty:
	yields (guard, [kind per source])."""
	ik = immkind(ty)
	vals = IMM.get(ik, IMM["i32"]) if imms is None else imms
	yield "", ["r"] * nsrc
	if guards:
		yield "p", ["r"] * nsrc
		yield "n", ["r"] * nsrc
	pos = range(nsrc) if immpos is None else immpos
	for i in pos:
		for v in vals:
			ks = ["r"] * nsrc
			ks[i] = ("i", v)
			yield "", ks
		if params:
			ks = ["r"] * nsrc
			ks[i] = "c"
			yield "", ks


def op(b, mnem, dty, stys, guards=True, imms=None, params=True, immpos=None, limit=None):
	"""Emit mnem over all forms: d = mnem(srcs); store d.  A limit keeps at
	least the register form and the two guarded forms (@p, @!p)."""
	n = 0
	if limit is not None and guards:
		limit = max(limit, 3)
	for g, kinds in forms(len(stys), stys[0], guards, imms, params, immpos):
		if limit is not None and n >= limit:
			break
		k = b.k()
		srcs = [k.operand(t, kd) for t, kd in zip(stys, kinds)]
		dc = CLS[dty]
		d = k.new(dc)
		if g:
			k.emit(f"mov.b{SIZE[dc] * 8 if dc != 'p' else 32} {d}, 0;" if dc != "p" else f"setp.ne.u32 {d}, %t0, 0;")
		k.emit(f"{k.guard(g)}{mnem} {d}, {', '.join(srcs)};")
		k.st(d, dc)
		n += 1
