#!/usr/bin/env python3
"""Writes vatom.ptx and vatom.spec.json: sm_90 vector atomics on global
memory, each thread on slots of its own.  Run from this directory."""
# (PTX type and op suffix, vector length, element type, red)
cases = [
    ("v2.f32.add", 2, "f32", 0), ("v4.f32.add", 4, "f32", 0), ("v4.f32.add", 4, "f32", 1), ("v2.f32.add", 2, "f32", 1),
    ("v2.f16.add.noftz", 2, "f16", 0), ("v4.f16.add.noftz", 4, "f16", 0), ("v8.f16.add.noftz", 8, "f16", 0),
    ("v2.f16x2.add.noftz", 2, "f16x2", 0), ("v4.f16x2.add.noftz", 4, "f16x2", 0),
    ("v4.bf16x2.add.noftz", 4, "bf16x2", 0), ("v8.bf16.add.noftz", 8, "bf16", 0),
    ("v4.f16.min.noftz", 4, "f16", 0), ("v8.f16.max.noftz", 8, "f16", 0), ("v2.f16x2.max.noftz", 2, "f16x2", 0),
    ("v8.bf16.max.noftz", 8, "bf16", 0), ("v4.bf16x2.min.noftz", 4, "bf16x2", 0),
    ("v4.f16.add.noftz", 4, "f16", 1), ("v8.f16.min.noftz", 8, "f16", 1), ("v4.bf16x2.add.noftz", 4, "bf16x2", 1),
    ("v2.f16x2.min.noftz", 2, "f16x2", 1),
]
size = {"f32": 4, "f16": 2, "bf16": 2, "f16x2": 4, "bf16x2": 4}
regs = {"f32": "%f", "f16": "%rs", "bf16": "%rs", "f16x2": "%r", "bf16x2": "%r"}
lines, stores = [], []
off = roff = 0
cnt = {"%f": 40, "%rs": 40, "%r": 40}


def fresh(p):
    cnt[p] += 1
    return "%s%d" % (p, cnt[p])


for text, vec, ty, red in cases:
    off = (off + 15) // 16 * 16
    p = regs[ty]
    # sources: the 8 words of B as f32, f16x2 or their halves
    src = ["%s%d" % (p, (1 if p != "%r" else 11) + i % 8) for i in range(vec)]
    if red:
        lines.append("\tred.global.%s [%%rd5+%d], {%s};" % (text, off, ", ".join(src)))
    else:
        dst = [fresh(p) for _ in range(vec)]
        lines.append("\tatom.global.%s {%s}, [%%rd5+%d], {%s};" % (text, ", ".join(dst), off, ", ".join(src)))
        for d in dst:
            st, sz = {"%rs": ("u16", 2), "%f": ("f32", 4), "%r": ("u32", 4)}[p]
            stores.append("\tst.global.%s [%%rd7+%d], %s;" % (st, roff, d))
            roff += sz
    off += vec * size[ty]
M = (off + 15) // 16 * 16
R = (roff + 15) // 16 * 16
decl = "\t.reg .b16 %%rs<%d>;\n\t.reg .b32 %%r<%d>;\n\t.reg .f32 %%f<%d>;" % (cnt["%rs"] + 1, cnt["%r"] + 1, cnt["%f"] + 1)
ptx = f"""// sm_90 vector atomics on global memory (ATOMG/REDG .F32x2/x4.FTZ.RN,
// .F16x2/x4/x8.RN, .BF16x8.RN; add, min, max): atom/red.global.v2/.v4/.v8
// on f32, f16, bf16, f16x2, bf16x2, each thread on slots of its own
// (random bit patterns: NaN, inf, denormals), old values and memory checked.
// Written by genvatom.py.
.version 8.3
.target sm_90
.address_size 64

.visible .entry vatom(.param .u64 pM, .param .u64 pB, .param .u64 pR)
{{
{decl}
	.reg .b64 %rd<10>;
	mov.u32 %r1, %tid.x;
	ld.param.u64 %rd1, [pM];
	cvta.to.global.u64 %rd1, %rd1;
	mul.wide.u32 %rd2, %r1, {M};
	add.s64 %rd5, %rd1, %rd2;
	ld.param.u64 %rd3, [pB];
	cvta.to.global.u64 %rd3, %rd3;
	mul.wide.u32 %rd4, %r1, 32;
	add.s64 %rd3, %rd3, %rd4;
	ld.global.v4.u32 {{%r11, %r12, %r13, %r14}}, [%rd3];
	ld.global.v4.u32 {{%r15, %r16, %r17, %r18}}, [%rd3+16];
	mov.b32 %f1, %r11; mov.b32 %f2, %r12; mov.b32 %f3, %r13; mov.b32 %f4, %r14;
	mov.b32 %f5, %r15; mov.b32 %f6, %r16; mov.b32 %f7, %r17; mov.b32 %f8, %r18;
	mov.b32 {{%rs1, %rs2}}, %r11; mov.b32 {{%rs3, %rs4}}, %r13;
	mov.b32 {{%rs5, %rs6}}, %r16; mov.b32 {{%rs7, %rs8}}, %r18;
	ld.param.u64 %rd6, [pR];
	cvta.to.global.u64 %rd6, %rd6;
	mul.wide.u32 %rd8, %r1, {R};
	add.s64 %rd7, %rd6, %rd8;
""" + "\n".join(lines) + "\n" + "\n".join(stores) + "\n\tret;\n}\n"
open("vatom.ptx", "w").write(ptx)
T = 64
s = '{ "kernel": "vatom", "grid": [1], "block": [%d],\n' % T
s += '  "comment": "M: each thread\'s slots (random words); B: 8 random words per thread, the operands",\n  "args": [\n'
s += ('    {"name": "M", "buffer": "u32", "count": %d, "init": {"random": {"seed": 91, "min": 0, "max": 4294967295}}, '
      '"check": {"exact": true}},\n' % (T * M // 4))
s += '    {"name": "B", "buffer": "u32", "count": %d, "init": {"random": {"seed": 92, "min": 0, "max": 4294967295}}},\n' % (T * 8)
s += '    {"name": "R", "buffer": "u32", "count": %d, "check": {"exact": true}} ] }\n' % (T * R // 4)
open("vatom.spec.json", "w").write(s)
