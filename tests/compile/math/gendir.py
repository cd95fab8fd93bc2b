#!/usr/bin/env python3
# tests/compile/math/gendir.py -- writes the directed-rounding tests
# fdir (f32 div/rcp .rz/.rm/.rp, with and without .ftz), ddir (f64
# div/rcp/sqrt .rz/.rm/.rp) and fdir1/ddir1 (one use each: the slow path
# inline instead of a shared subroutine), each NAME.ptx + NAME.spec.json.
# Inputs: special x special pairs, random bit patterns, and pairs built
# near rounding boundaries (a = RN(q*b) +- 0..2 ulp, a = RN(s*s) +- ulp),
# with quotients near the subnormal threshold, in the subnormals and near
# overflow.  Deterministic (seeded).  Run from the repository root:
#   python3 tests/compile/math/gendir.py
import json, random, struct
from fractions import Fraction

def f32(x):
	return struct.unpack('<I', struct.pack('<f', x))[0]
def f32v(b):
	return struct.unpack('<f', struct.pack('<I', b))[0]
def f64(x):
	return struct.unpack('<Q', struct.pack('<d', x))[0]
def f64v(b):
	return struct.unpack('<d', struct.pack('<Q', b))[0]

S32 = [0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7fffffff, 0x7fa00000, 1, 0x80000001, 2, 0x7fffff,
       0x807fffff, 0x400000, 0x800000, 0x80800000, 0x800001, 0x7f7fffff, 0xff7fffff, 0x7f7ffffe, 0x3f800000,
       0xbf800000, 0x40000000, 0x3f7fffff, 0x3f800001, 0x40400000, 0xc0e00000, 0x5f800000, 0x1f800000,
       0x12800000, 0x127fffff, 0x12800001, 0x0c800000, 0x7e800000, 0x7e7fffff, 0x00c00000, 0x3eaaaaab, 0x4b800000]
S64 = [0, 1 << 63, 0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000, 0x7ff4000000000000, 1, (1 << 63) | 1, 2,
       0x000fffffffffffff, 0x800fffffffffffff, 0x0008000000000000, 0x0010000000000000, 0x8010000000000000,
       0x0010000000000001, 0x7fefffffffffffff, 0xffefffffffffffff, 0x7feffffffffffffe, 0x3ff0000000000000,
       0xbff0000000000000, 0x4000000000000000, 0x3fefffffffffffff, 0x3ff0000000000001, 0x4008000000000000,
       0x03f0000000000000, 0x03efffffffffffff, 0x07b0000000000000, 0x07afffffffffffff, 0x6570000000000000,
       0x7fd0000000000000, 0x7fcfffffffffffff, 0x3fd5555555555555, 0x0018000000000000, 0x4340000000000000]

def rnd_f32(R):
	e = R.choice([R.randrange(0, 256), R.randrange(0, 256), R.randrange(100, 155), 0, 254, R.randrange(1, 30)])
	return (R.randrange(2) << 31) | (e << 23) | R.getrandbits(23)

def rnd_f64(R):
	e = R.choice([R.randrange(0, 2048), R.randrange(0, 2048), R.randrange(900, 1150), 0, 2046, R.randrange(1, 70)])
	return (R.randrange(2) << 63) | (e << 52) | R.getrandbits(52)

def finite32(b):
	return (b & 0x7f800000) != 0x7f800000
def finite64(b):
	return (b & 0x7ff0000000000000) != 0x7ff0000000000000

def near32(R, n):
	"""(a, b): a = RN32(q*b) + d ulp, so a/b is within a few ulp of a float q
	(or exactly q); q drawn over every range, subnormal and huge too."""
	out = []
	while len(out) < n:
		b = rnd_f32(R) & 0x7fffffff
		q = rnd_f32(R) & 0x7fffffff
		kind = R.randrange(4)
		if kind == 0:          # small mantissas: exact products
			b &= 0xfffff000
			q &= 0xfffff000
		elif kind == 1:        # quotient near the subnormal threshold
			q = (R.randrange(0, 3) << 23) | R.getrandbits(23)
		elif kind == 2:        # quotient near overflow
			q = (R.randrange(252, 255) << 23) | R.getrandbits(23)
		if not finite32(b) or not finite32(q) or b == 0:
			continue
		prod = f32v(q) * f32v(b)
		if abs(prod) > 3.4e38:
			continue
		a = f32(prod) + R.choice([0, 0, 1, -1, 2, -2])
		if not finite32(a) or a < 0 or a & 0x80000000:
			continue
		sa, sb = R.randrange(2), R.randrange(2)
		out.append((a | sa << 31, b | sb << 31))
	return out

def round64(fr):
	return f64(float(fr)) if abs(fr) <= Fraction(f64v(0x7fefffffffffffff)) else 0x7ff0000000000000

def near64(R, n, sq=False):
	out = []
	while len(out) < n:
		b = rnd_f64(R) & ~(1 << 63)
		q = rnd_f64(R) & ~(1 << 63)
		kind = R.randrange(4)
		if kind == 0:
			b &= ~0xffffffff
			q &= ~0xffffffff
		elif kind == 1:
			q = (R.randrange(0, 3) << 52) | R.getrandbits(52)
		elif kind == 2:
			q = (R.randrange(2044, 2047) << 52) | R.getrandbits(52)
		if sq:
			b = q
		if not finite64(b) or not finite64(q) or b == 0:
			continue
		a = round64(Fraction(f64v(q)) * Fraction(f64v(b))) + R.choice([0, 0, 1, -1, 2, -2])
		if not finite64(a) or a < 0 or a >> 63:
			continue
		if sq:
			out.append((a, rnd_f64(R)))
		else:
			out.append((a | R.randrange(2) << 63, b | R.randrange(2) << 63))
	return out

def pairs(width, n, seed):
	R = random.Random(seed)
	S, rnd, near = (S32, rnd_f32, near32) if width == 32 else (S64, rnd_f64, near64)
	p = [(a, b) for a in S for b in S]
	k = (n - len(p)) // 3
	p += near(R, k)
	if width == 64:
		p += near64(R, k // 2, sq=True)
	while len(p) < n:
		p.append((rnd(R), rnd(R)))
	return p[:n]

F32OPS = ['div.rz.f32 %d, %a, %b;', 'div.rm.f32 %d, %a, %b;', 'div.rp.f32 %d, %a, %b;',
	  'div.rz.ftz.f32 %d, %a, %b;', 'div.rm.ftz.f32 %d, %a, %b;', 'div.rp.ftz.f32 %d, %a, %b;',
	  'rcp.rz.f32 %d, %a;', 'rcp.rm.f32 %d, %a;', 'rcp.rp.f32 %d, %a;',
	  'rcp.rz.ftz.f32 %d, %b;', 'rcp.rm.ftz.f32 %d, %b;', 'rcp.rp.ftz.f32 %d, %b;']
F64OPS = ['div.rz.f64 %d, %a, %b;', 'div.rm.f64 %d, %a, %b;', 'div.rp.f64 %d, %a, %b;',
	  'rcp.rz.f64 %d, %b;', 'rcp.rm.f64 %d, %b;', 'rcp.rp.f64 %d, %b;',
	  'sqrt.rz.f64 %d, %a;', 'sqrt.rm.f64 %d, %a;', 'sqrt.rp.f64 %d, %a;']

def write(name, width, ops, n, seed, comment):
	ty, bt, sz = ('f32', 'u32', 4) if width == 32 else ('f64', 'u64', 8)
	blk = 128
	L = ['// %s: generated by tests/compile/math/gendir.py (edit the lists there)' % name, '// ' + comment,
	     '.version 8.0', '.target sm_80', '.address_size 64', '',
	     '.visible .entry %s(.param .u64 pF, .param .u64 pG, .param .u64 pO)' % name, '{',
	     '\t.reg .b32 %r<10>;', '\t.reg .%s %%x<%d>;' % (ty, len(ops) + 4), '\t.reg .b64 %rd<40>;',
	     '\tmov.u32 %r1, %tid.x;', '\tmov.u32 %r2, %ctaid.x;', '\tmov.u32 %r3, %ntid.x;',
	     '\tmad.lo.s32 %r4, %r2, %r3, %r1;', '\tmul.wide.u32 %%rd1, %%r4, %d;' % sz,
	     '\tld.param.u64 %rd20, [pF];', '\tadd.s64 %rd20, %rd20, %rd1;', '\tld.global.%s %%x1, [%%rd20];' % ty,
	     '\tld.param.u64 %rd21, [pG];', '\tadd.s64 %rd21, %rd21, %rd1;', '\tld.global.%s %%x2, [%%rd21];' % ty,
	     '\tmul.wide.u32 %%rd30, %%r4, %d;' % (sz * len(ops)), '\tld.param.u64 %rd32, [pO];',
	     '\tadd.s64 %rd32, %rd32, %rd30;']
	for i, op in enumerate(ops):
		d = '%%x%d' % (i + 3)
		L.append('\t' + op.replace('%d', d).replace('%a', '%x1').replace('%b', '%x2'))
		L.append('\tst.global.%s [%%rd32+%d], %s;' % (ty, i * sz, d))
	L += ['\tret;', '}', '']
	open('tests/compile/math/%s.ptx' % name, 'w').write('\n'.join(L))
	p = pairs(width, n, seed)
	chk = {'exact': True} if width == 32 else {'ulp': 0, 'nan_any': True}
	spec = {'kernel': name, 'grid': [n // blk], 'block': [blk],
		'comment': 'generated by tests/compile/math/gendir.py; ' + comment,
		'args': [{'name': 'F', 'buffer': bt, 'count': n, 'init': {'values': [a for a, b in p]}},
			 {'name': 'G', 'buffer': bt, 'count': n, 'init': {'values': [b for a, b in p]}},
			 {'name': 'O', 'buffer': bt if width == 32 else 'f64', 'count': n * len(ops), 'check': chk}]}
	open('tests/compile/math/%s.spec.json' % name, 'w').write(json.dumps(spec) + '\n')

write('fdir', 32, F32OPS, 4096, 71, 'f32 div/rcp .rz/.rm/.rp (.ftz) on special x special pairs, near-boundary quotients, random bit patterns')
write('ddir', 64, F64OPS, 2048, 72, 'f64 div/rcp/sqrt .rz/.rm/.rp on special x special pairs, near-boundary quotients and squares, random bit patterns')
write('fdir1', 32, ['div.rp.ftz.f32 %d, %a, %b;'], 1024, 73, 'one div.rp.ftz.f32: its slow path inline')
write('ddir1', 64, ['div.rm.f64 %d, %a, %b;'], 1024, 74, 'one div.rm.f64: its slow path inline')
