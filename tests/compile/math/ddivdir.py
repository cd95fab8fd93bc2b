#!/usr/bin/env python3
# tests/compile/math/ddivdir.py -- writes ddivdir.ptx and ddivdir.spec.json (run from anywhere):
# div.rz/rm/rp.f64, rcp.rz/rm/rp.f64 and sqrt.rz/rm/rp.f64 on 2048 input pairs: every pair of special values,
# random bit patterns, quotients next to an f64 value (a = RN(q*b)), exact quotients, tiny and
# subnormal dividends, subnormal, underflowing and overflowing quotients, squares next to a double.  Exact but for NaN
# payloads (ddiv quiets an input NaN as ptxas's code does; the interpreter gives the canonical NaN).
import json, os, random, struct
d = os.path.dirname(os.path.abspath(__file__))
def bits(x): return struct.unpack('<Q', struct.pack('<d', x))[0]
def flt(u): return struct.unpack('<d', struct.pack('<Q', u))[0]
r = random.Random(11)
S = [0, 1 << 63, 0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000, 0x3ff0000000000000,
     0xbff0000000000000, 0x0010000000000000, 0x000fffffffffffff, 1, 0x8000000000000001,
     0x7fefffffffffffff, 0x4008000000000000, 0xc01c000000000000, 0x3fb999999999999a, 0x0008000000000000]
A, B = [], []
for x in S:
	for y in S: A.append(x); B.append(y)
for _ in range(384): A.append(r.getrandbits(64)); B.append(r.getrandbits(64))
def rf(lo, hi): return r.choice([1, -1]) * r.uniform(1, 2) * 2.0 ** r.randint(lo, hi)
for _ in range(512):
	q, b = rf(-40, 40), rf(-40, 40)
	A.append(bits(q * b)); B.append(bits(b))
for _ in range(256):
	q = r.randint(1, 1 << 26) * 2.0 ** r.randint(-30, 30) * r.choice([1, -1]); b = r.randint(1, 1 << 26) * 2.0 ** r.randint(-30, 30)
	A.append(bits(q * b)); B.append(bits(b))
for _ in range(512):
	k = r.randrange(6)
	if k == 0: A.append(bits(rf(-1022, -1000))); B.append(bits(rf(5, 60)))        # subnormal quotients
	elif k == 1: A.append(bits(rf(1000, 1023))); B.append(bits(rf(-60, 0)))       # overflow
	elif k == 2: A.append(r.getrandbits(52) | r.getrandbits(1) << 63); B.append(bits(rf(-3, 3)))  # subnormal a
	elif k == 3: A.append(bits(rf(-1022, -900))); B.append(bits(rf(-100, 100)))   # tiny a (scaled residual)
	elif k == 4: A.append(bits(rf(-60, 0))); B.append(bits(rf(1000, 1023)))       # underflow to 0
	else: A.append(r.getrandbits(52)); B.append(r.getrandbits(52) | 1)           # subnormal / subnormal
for _ in range(256):   # squares next to a double (and tiny ones: sqrt's scaled residual)
	x = rf(-520, -460) if r.random() < 0.3 else rf(-300, 300)
	A.append(bits(x * x)); B.append(bits(x * x) + r.choice([1, -1, 2]))
while len(A) < 2048: A.append(bits(rf(-300, 300))); B.append(bits(rf(-300, 300)))
ops = ['div.rz.f64 %fd3, %fd1, %fd2;', 'div.rm.f64 %fd3, %fd1, %fd2;', 'div.rp.f64 %fd3, %fd1, %fd2;',
       'rcp.rz.f64 %fd3, %fd1;', 'rcp.rm.f64 %fd3, %fd2;', 'rcp.rp.f64 %fd3, %fd1;',
       'sqrt.rz.f64 %fd3, %fd1;', 'sqrt.rm.f64 %fd3, %fd2;', 'sqrt.rp.f64 %fd3, %fd1;', 'sqrt.rp.f64 %fd3, %fd2;']
body = ''.join(f'\t{o}\n\tst.global.f64 [%rd6+{8 * i}], %fd3;\n' for i, o in enumerate(ops))
open(os.path.join(d, 'ddivdir.ptx'), 'w').write(f'''// div.rz/rm/rp.f64, rcp.rz/rm/rp.f64 and sqrt.rz/rm/rp.f64 on 2048 input pairs (ddivdir.py writes this file
// and the spec): special pairs, random bit patterns, quotients next to an f64 value, exact
// quotients, tiny and subnormal dividends, subnormal / underflowing / overflowing quotients,
// squares next to a double (sqrt).
.version 8.0
.target sm_80
.address_size 64
.visible .entry ddivdir(.param .u64 out, .param .u64 ina, .param .u64 inb)
{{
	.reg .f64 %fd<4>;
	.reg .b32 %r<4>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [out];
	ld.param.u64 %rd2, [ina];
	ld.param.u64 %rd7, [inb];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %ntid.x;
	mov.u32 %r3, %tid.x;
	mad.lo.s32 %r1, %r1, %r2, %r3;
	mul.wide.u32 %rd3, %r1, 8;
	add.s64 %rd4, %rd2, %rd3;
	add.s64 %rd5, %rd7, %rd3;
	ld.global.f64 %fd1, [%rd4];
	ld.global.f64 %fd2, [%rd5];
	mul.wide.u32 %rd5, %r1, {8 * len(ops)};
	add.s64 %rd6, %rd1, %rd5;
{body}	ret;
}}
''')
json.dump({"kernel": "ddivdir", "grid": [8], "block": [256],
	"comment": "tests/compile/math/ddivdir.ptx: 2048 pairs (ddivdir.py)",
	"args": [{"name": "out", "buffer": "f64", "count": 2048 * len(ops), "check": {"ulp": 0, "nan_any": True}},
		{"name": "ina", "buffer": "u64", "count": 2048, "init": {"values": A}},
		{"name": "inb", "buffer": "u64", "count": 2048, "init": {"values": B}}]},
	open(os.path.join(d, 'ddivdir.spec.json'), 'w'))
