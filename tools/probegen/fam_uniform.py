"""fam_uniform.py -- the uniform datapath under pressure: brx.idx on an index
ptxas keeps in a uniform register (BRXU), sign extension of uniform values
(USGXT), and more live uniform predicates than UP0..UP6 hold, which ptxas
spills to uniform registers (UP2UR).  Whole kernels, written out as text:
the K helper's per-thread operands would move the values off the uniform
datapath."""

HEAD = ".version 9.0\n.target {target}\n.address_size 64\n"


def brxu(name, n):
	idx = f"and.b32 %r1, %r1, {n - 1};" if n & (n - 1) == 0 else f"rem.u32 %r1, %r1, {n};"
	cases = "\n".join(f"C{i}:\tmov.u32 %r3, {10 * (i + 1) + n};\n\tbra.uni DONE;" for i in range(n))
	return f"""
.visible .entry {name}(.param .u64 pout, .param .u32 psel)
{{
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [pout];
	cvta.to.global.u64 %rd1, %rd1;
	mov.u32 %r1, %ctaid.x;
	ld.param.u32 %r2, [psel];
	add.u32 %r1, %r1, %r2;
	{idx}
	ts: .branchtargets {", ".join(f"C{i}" for i in range(n))};
	brx.idx.uni %r1, ts;
{cases}
DONE:
	mov.u32 %r4, %tid.x;
	mul.wide.u32 %rd2, %r4, 4;
	add.u64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r3;
	ret;
}}
"""


def sgxt(name, ext):
	return f"""
.visible .entry {name}(.param .u64 pout, .param .u32 pa, .param .u32 pb)
{{
	.reg .b32 %r<12>;
	.reg .b64 %rd<6>;
	ld.param.u64 %rd1, [pout];
	cvta.to.global.u64 %rd1, %rd1;
	ld.param.u32 %r1, [pa];
	ld.param.u32 %r2, [pb];
	mov.u32 %r3, %ctaid.x;
	add.u32 %r1, %r1, %r3;
	{ext}
	cvt.s64.s32 %rd2, %r6;
	shl.b64 %rd2, %rd2, 2;
	add.u64 %rd3, %rd1, %rd2;
	mov.u32 %r8, %tid.x;
	st.global.u32 [%rd3], %r8;
	ret;
}}
"""


EXTS = [
	"cvt.s32.s8 %r4, %r1;\n\tbfe.s32 %r5, %r2, 3, 9;\n\tadd.u32 %r6, %r4, %r5;",
	"cvt.s32.s16 %r4, %r1;\n\tmov.u32 %r5, %ctaid.y;\n\tadd.u32 %r6, %r4, %r5;",
	"szext.clamp.s32 %r4, %r1, %r2;\n\tszext.wrap.s32 %r5, %r2, 7;\n\tadd.u32 %r6, %r4, %r5;",
	"bfe.s32 %r4, %r1, %r2, 5;\n\tbfe.s32 %r5, %r2, 0, 12;\n\tadd.u32 %r6, %r4, %r5;",
]


def upspill(name, n, shape):
	"""n predicates on kernel parameters, all live across a loop whose
	trip count is uniform; shape 0 guards uniform arithmetic with them,
	shape 1 per-thread arithmetic."""
	acc = "%u" if shape == 0 else "%t"
	out = [f".visible .entry {name}(.param .u64 pout, .param .u64 pin, "
	       + ", ".join(f".param .u32 a{i}" for i in range(n)) + ")", "{",
	       f"\t.reg .b32 %a<{n}>;\n\t.reg .pred %q<{n}>;\n\t.reg .b32 %v, %i, %t, %n, %u, %w;",
	       "\t.reg .b64 %o, %in, %x;\n\t.reg .pred %lp;",
	       "\tld.param.u64 %o, [pout];\n\tld.param.u64 %in, [pin];",
	       "\tcvta.to.global.u64 %o, %o;\n\tcvta.to.global.u64 %in, %in;"]
	for i in range(n):
		out.append(f"\tld.param.u32 %a{i}, [a{i}];\n\tsetp.gt.s32 %q{i}, %a{i}, {i * 3 + 1};")
	out.append("\tmov.u32 %i, 0;\n\tmov.u32 %v, 0;\n\tmov.u32 %u, 0;\n\tld.param.u32 %n, [a0];")
	out.append("LOOP:")
	out.append("\tmov.u32 %w, %tid.x;\n\tadd.u32 %w, %w, %u;\n\tmul.wide.u32 %x, %w, 4;")
	out.append("\tadd.u64 %x, %in, %x;\n\tld.global.u32 %t, [%x];")
	for i in range(n):
		out.append(f"\t@%q{i} add.u32 {acc}, {acc}, {i + 1};\n\t@!%q{i} xor.b32 {acc}, {acc}, {77 * i + 3};")
	out.append("\tadd.u32 %v, %v, %t;\n\tadd.u32 %i, %i, 1;\n\tsetp.lt.u32 %lp, %i, %n;\n\t@%lp bra LOOP;")
	out.append("\tmov.u32 %w, %tid.x;\n\tmul.wide.u32 %x, %w, 4;\n\tadd.u64 %x, %o, %x;")
	out.append("\tadd.u32 %v, %v, %u;\n\tst.global.u32 [%x], %v;\n\tret;\n}")
	return "\n".join(out) + "\n"


class Raw:
	"""A batch of whole kernels given as text (see core.Gen.finish)."""

	def __init__(self, gen, name, kernels):
		self.name, self.target, self.opts = name, gen.arch, ("O3", "O0")
		self.kernels = kernels
		gen.batches.append(self)

	def modules(self):
		yield f"{self.name}_0.ptx", HEAD.format(target=self.target) + "".join(self.kernels)


def generate(g):
	ks = [brxu(f"brxu_{n}", n) for n in (3, 4, 5, 8)]
	ks += [sgxt(f"usgxt_{i}", e) for i, e in enumerate(EXTS)]
	ks += [upspill(f"upspill_{n}_{s}", n, s) for n in (8, 12, 14) for s in (0, 1)]
	Raw(g, "uniform", ks)
