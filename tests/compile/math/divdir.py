#!/usr/bin/env python3
# tests/compile/math/divdir.py -- writes divdir.ptx and divdir.spec.json (run from anywhere):
# div.rz/rm/rp.f32 (and .ftz) and rcp.rz/rm/rp.f32 on 2048 input pairs: every pair of
# special values, random bit patterns, quotients within an ulp or two of an f32 value
# (a = RN(q*b)), exact quotients, subnormal and overflowing quotients.
import json, os, random, struct
d = os.path.dirname(os.path.abspath(__file__))
def bits(x): return struct.unpack('<I', struct.pack('<f', x))[0]
def flt(u): return struct.unpack('<f', struct.pack('<I', u))[0]
r = random.Random(7)
S = [0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x3f800000, 0xbf800000, 0x00800000, 0x007fffff,
     1, 0x80000001, 0x7f7fffff, 0x40400000, 0xc0e00000, 0x3dcccccd, 0x00400000]
A, B = [], []
for x in S:
	for y in S: A.append(x); B.append(y)
for _ in range(512): A.append(r.getrandbits(32)); B.append(r.getrandbits(32))
def rf(lo, hi): return r.choice([1, -1]) * r.uniform(1, 2) * 2.0 ** r.randint(lo, hi)
for _ in range(512):
	q, b = bits(rf(-20, 20)), bits(rf(-20, 20))
	A.append(bits(flt(q) * flt(b))); B.append(b)
for _ in range(256):
	q = r.randint(1, 4095) * 2.0 ** r.randint(-12, 12) * r.choice([1, -1]); b = r.randint(1, 4095) * 2.0 ** r.randint(-12, 12)
	A.append(bits(q * b)); B.append(bits(b))
for _ in range(256):
	if r.random() < 0.5: A.append(bits(rf(-126, -110))); B.append(bits(rf(5, 30)))
	else: A.append(bits(rf(110, 127))); B.append(bits(rf(-30, 0)))
while len(A) < 2048: A.append(bits(rf(-60, 60))); B.append(bits(rf(-60, 60)))
ops = ['div.rz.f32 %f3, %f1, %f2;', 'div.rm.f32 %f3, %f1, %f2;', 'div.rp.f32 %f3, %f1, %f2;',
       'div.rz.ftz.f32 %f3, %f1, %f2;', 'div.rm.ftz.f32 %f3, %f1, %f2;', 'div.rp.ftz.f32 %f3, %f1, %f2;',
       'rcp.rz.f32 %f3, %f1;', 'rcp.rm.f32 %f3, %f2;', 'rcp.rp.ftz.f32 %f3, %f1;']
body = ''.join(f'\t{o}\n\tst.global.f32 [%rd6+{4 * i}], %f3;\n' for i, o in enumerate(ops))
open(os.path.join(d, 'divdir.ptx'), 'w').write(f'''// div.rz/rm/rp.f32 (.ftz too) and rcp.rz/rm/rp.f32 on 2048 input pairs (divdir.py writes
// this file and the spec): special pairs, random bit patterns, quotients next to an f32
// value, exact quotients, subnormal and overflowing quotients; {len(ops)} results per pair.
.version 8.0
.target sm_80
.address_size 64
.visible .entry divdir(.param .u64 out, .param .u64 ina, .param .u64 inb)
{{
	.reg .f32 %f<4>;
	.reg .b32 %r<4>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [out];
	ld.param.u64 %rd2, [ina];
	ld.param.u64 %rd7, [inb];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %ntid.x;
	mov.u32 %r3, %tid.x;
	mad.lo.s32 %r1, %r1, %r2, %r3;
	mul.wide.u32 %rd3, %r1, 4;
	add.s64 %rd4, %rd2, %rd3;
	add.s64 %rd5, %rd7, %rd3;
	ld.global.f32 %f1, [%rd4];
	ld.global.f32 %f2, [%rd5];
	mul.wide.u32 %rd5, %r1, {4 * len(ops)};
	add.s64 %rd6, %rd1, %rd5;
{body}	ret;
}}
''')
json.dump({"kernel": "divdir", "grid": [8], "block": [256],
	"comment": "tests/compile/math/divdir.ptx: 2048 pairs (divdir.py)",
	"args": [{"name": "out", "buffer": "u32", "count": 2048 * len(ops), "check": {"exact": True}},
		{"name": "ina", "buffer": "u32", "count": 2048, "init": {"values": A}},
		{"name": "inb", "buffer": "u32", "count": 2048, "init": {"values": B}}]},
	open(os.path.join(d, 'divdir.spec.json'), 'w'))
