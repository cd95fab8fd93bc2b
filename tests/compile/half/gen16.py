#!/usr/bin/env python3
"""Writes int16.ptx and int16.spec.json: 16-bit integer operations on
registers whose upper halves are garbage.  Run from this directory."""
ops = [
    "add.s16 %d, %a, %b", "sub.u16 %d, %a, %b", "add.u16 %d, %a, 0x7fff", "sub.s16 %d, %a, -3",
    "sub.s16 %d, 5, %a", "add.s16 %d, 1000, %b",
    "mul.lo.s16 %d, %a, %b", "mul.lo.u16 %d, %a, 300", "mul.hi.s16 %d, %a, %b", "mul.hi.u16 %d, %a, %b",
    "mad.lo.s16 %d, %a, %b, %c", "mad.lo.u16 %d, %a, 7, %b", "mad.hi.s16 %d, %a, %b, %c", "mad.hi.u16 %d, %a, %b, %c",
    "shl.b16 %d, %a, 8", "shl.b16 %d, %a, 15", "shl.b16 %d, %a, %n", "shl.b16 %d, 3, %n",
    "shr.u16 %d, %a, 3", "shr.s16 %d, %a, 3",
    "shr.u16 %d, %a, %n", "shr.s16 %d, %a, %n", "shr.b16 %d, %a, %n", "shr.s16 %d, %a, 17",
    "and.b16 %d, %a, %b", "or.b16 %d, %a, %b", "xor.b16 %d, %a, %b", "not.b16 %d, %a", "and.b16 %d, %a, 0xff0f",
    "xor.b16 %d, %a, 0x8001", "cnot.b16 %d, %a", "cnot.b16 %d, %c",
    "min.s16 %d, %a, %b", "min.u16 %d, %a, %b", "max.s16 %d, %a, %b", "max.u16 %d, %a, %b", "min.s16 %d, %a, -5",
    "max.u16 %d, %a, 1000", "min.s16 %d, 7, %a", "max.u16 %d, 40000, %b",
    "neg.s16 %d, %a", "abs.s16 %d, %a",
    "cvt.u16.u32 %d, %w", "cvt.s16.s32 %d, %w", "cvt.u16.s8 %d, %a", "cvt.s16.u8 %d, %a",
]
# 32-bit results of 16-bit operands, stored as two halves
wide = ["mul.wide.s16 %D, %a, %b", "mul.wide.u16 %D, %a, %b", "mad.wide.s16 %D, %a, %b, %w",
        "mad.wide.u16 %D, %a, 300, %w", "cnot.b32 %D, %x", "cvt.s32.s16 %D, %a", "cvt.u32.u16 %D, %b"]
cmps = ["eq.s16", "ne.u16", "lt.s16", "le.s16", "gt.s16", "ge.s16", "lo.u16", "ls.u16", "hi.u16", "hs.u16",
        "lt.u16", "ne.b16", "lt.s16 imm", "ge.u16 imm", "lt.s16 immfirst", "ge.u16 immfirst", "eq.b16 immfirst"]
lines, outs = [], []


def reg():
    return "%%rs%d" % (20 + len(outs))


def sub(o, d):
    return (o.replace("%d", d).replace("%a", "%rs1").replace("%b", "%rs2").replace("%c", "%rs3")
            .replace("%n", "%r5").replace("%w", "%r3").replace("%x", "%r6"))


for o in ops:
    d = reg()
    lines.append("\t" + sub(o, d) + ";")
    outs.append(d)
for i, o in enumerate(wide):
    lines.append("\t" + sub(o, "%%r%d" % (10 + i)).replace("%D", "%%r%d" % (10 + i)) + ";")
    lo = reg(); outs.append(lo)
    hi = reg(); outs.append(hi)
    lines.append("\tmov.b32 {%s, %s}, %%r%d;" % (lo, hi, 10 + i))
# cnot.b64: zero, and a value whose low word is zero
for i, hi in enumerate(("%r6", "%r2")):
    lines.append("\tmov.b64 %%rd%d, {%%r6, %s};" % (6 + i, hi))
    lines.append("\tcnot.b64 %%rd%d, %%rd%d;" % (6 + i, 6 + i))
    d = reg()
    lines.append("\tcvt.u16.u64 %s, %%rd%d;" % (d, 6 + i))
    outs.append(d)
for c in cmps:
    d = reg()
    if c.endswith(" imm"):
        c = c[:-4]
        lines.append("\tsetp.%s %%p1, %%rs1, %s;" % (c, "-200" if c.endswith("s16") else "40000"))
    elif c.endswith(" immfirst"):
        c = c[:-9]
        lines.append("\tsetp.%s %%p1, %s, %%rs2;" % (c, "-200" if c.endswith("s16") else "40000"))
    else:
        lines.append("\tsetp.%s %%p1, %%rs1, %%rs2;" % c)
    lines.append("\tselp.b16 %s, %%rs1, %%rs2, %%p1;" % d)
    outs.append(d)
# a register redefined between two extending readers in one block, and in
# a loop whose body reads it before and after redefining it (the reuse of
# an earlier extension must stop at the write)
for k, o in enumerate(("max.s16 %d, %rs9, %rs2", "shr.s16 %d, %rs9, 3")):
    d = reg()
    lines.append("\tmov.b16 %rs9, %rs1;" if k == 0 else "\tadd.s16 %rs9, %rs9, 0x7000;")
    lines.append("\tmin.s16 %s, %%rs9, %%rs2;" % d)
    outs.append(d)
    d = reg()
    lines.append("\t" + o.replace("%d", d) + ";")
    outs.append(d)
acc = reg(); outs.append(acc)
lines.append("\tmov.u32 %r7, 0;")
lines.append("\tmov.b16 %s, 0;" % acc)
lines.append("LOOP:")
lines.append("\tmax.s16 %rs10, %rs9, %rs2;")
lines.append("\tadd.s16 %rs9, %rs9, 0x3001;")
lines.append("\tmin.s16 %rs11, %rs9, %rs2;")
lines.append("\txor.b16 %s, %s, %%rs10;" % (acc, acc))
lines.append("\tmad.lo.s16 %s, %s, 3, %%rs11;" % (acc, acc))
lines.append("\tadd.u32 %r7, %r7, 1;")
lines.append("\tsetp.lt.u32 %p3, %r7, 5;")
lines.append("\t@%p3 bra LOOP;")
# setp combined with a predicate, selp with an immediate
d = reg()
lines.append("\tsetp.lt.s16 %p2, %rs2, %rs3;")
lines.append("\tsetp.gt.u16.and %p1, %rs1, %rs2, %p2;")
lines.append("\tselp.b16 %s, 0x1234, %%rs2, %%p1;" % d)
outs.append(d)
N = len(outs)
body = "\n".join(lines)
stores = "\n".join("\tst.global.u16 [%%rd4+%d], %s;" % (2 * i, r) for i, r in enumerate(outs))
ptx = f"""// 16-bit integer arithmetic (add/sub/mul/mad (.lo .hi .wide)/shifts/logic/
// cnot (16/32/64-bit)/min/max/neg/abs/setp/selp/cvt, immediates first and second) on
// registers whose upper 16 bits are garbage (unpacked from 32-bit words),
// shift counts 0..40, edge values 0, 1, -1, -32768, 32767.  Written by
// gen16.py.
.version 8.0
.target sm_80
.address_size 64

.visible .entry int16(.param .u64 pA, .param .u64 pB, .param .u64 pO)
{{
	.reg .pred %p<4>;
	.reg .b16 %rs<{20 + N}>;
	.reg .b32 %r<20>;
	.reg .b64 %rd<10>;
	mov.u32 %r1, %tid.x;
	mov.u32 %r9, %ctaid.x;
	mad.lo.s32 %r1, %r9, 128, %r1;
	mul.wide.u32 %rd1, %r1, 4;
	ld.param.u64 %rd2, [pA];
	add.s64 %rd2, %rd2, %rd1;
	ld.global.u32 %r2, [%rd2];
	ld.param.u64 %rd3, [pB];
	add.s64 %rd3, %rd3, %rd1;
	ld.global.u32 %r3, [%rd3];
	mov.b32 {{%rs1, %rs2}}, %r2;
	mov.b32 {{%rs3, %rs4}}, %r3;
	and.b32 %r5, %r3, 0x3f;
	min.u32 %r5, %r5, 40;
	and.b32 %r6, %r3, 0xffff0000;
{body}
	mul.wide.u32 %rd5, %r1, {2 * N};
	ld.param.u64 %rd4, [pO];
	add.s64 %rd4, %rd4, %rd5;
{stores}
	ret;
}}
"""
open("int16.ptx", "w").write(ptx)
vals = [65536, 1, 4294901767, 2147450880, 2147483647, 4294967295, 6553700, 458752, 4294508544, 196608,
        2147516416, 65535, 4294836224, 32768, 7, 100, 6619236, 4294967289, 32767]
bvals = [0x12340000, 0xffff0010, 0x80000011, 0x7fff000f, 1, 0x00010008, 0xfffe0020, 0x8000ffff, 0x55550028,
         0x00090003, 0xabcd0017, 0x0000001f, 0xffffff00, 0x00000000]
spec = ('{ "kernel": "int16", "grid": [2], "block": [128],\n  "comment": "A: each word low half a, high half b '
        '(edge pairs, 19 entries); B: low half c and the shift count (low 6 bits, at most 40), upper half '
        'garbage, 14 entries",\n  "args": [\n')
spec += '    {"name": "A", "buffer": "u32", "count": 256, "init": {"values": %s}},\n' % vals
spec += '    {"name": "B", "buffer": "u32", "count": 256, "init": {"values": %s}},\n' % bvals
spec += '    {"name": "O", "buffer": "u16", "count": %d, "check": {"exact": true}} ] }\n' % (256 * N)
open("int16.spec.json", "w").write(spec)
