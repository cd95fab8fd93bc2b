#!/usr/bin/env python3
# tests/compile/cvt/gen.py -- writes the cvt tests NAME.ptx + NAME.spec.json
# (i2i, f2i, i2f, f2f, pack; *_sm80 variants without the sm_90-only forms).
# Each kernel: thread i loads raw bit patterns (special values: +-0, inf,
# NaN with payloads, denormals, 0.5/1.5/2.5 ties, 2^31, -2^31-1, type
# limits +-1 ...) and stores the FULL destination register of every cvt
# case into its own 8-byte slot of `out` (out[i*NCASES + case]), so a
# wrong extension into a wider register shows, not only the type's bits.
# Sources narrower than their register come from registers holding the
# whole 32/64-bit pattern (cvt.s32.s8 %r, %r reads 8 bits of it).
# NOTE: ptxas turns cvt.f32.bf16 into a 16-bit shift and cvt.rna.tf32.f32
# into integer rounding, so NaN payloads pass through (0x7fc0 -> 0x7fc00000,
# tf32 of 0x7f800001 -> 0x7f800000); the PTX interpreter returns the
# canonical NaN there, so those two cases get NaN-free inputs.
# Run from the repository root:  python3 tests/compile/cvt/gen.py
# Every file is valid PTX for ptxas 13.0 (checked with `ptxas -arch=sm_XX`
# when it is on PATH; nothing in make check needs it).
import json, os, shutil, subprocess, sys

D = os.path.dirname(os.path.abspath(__file__))
INTS = ['u8', 's8', 'u16', 's16', 'u32', 's32', 'u64', 's64']
BITS = {'u8': 8, 's8': 8, 'u16': 16, 's16': 16, 'u32': 32, 's32': 32, 'u64': 64, 's64': 64,
        'f16': 16, 'bf16': 16, 'f32': 32, 'f64': 64}
RNDF = ['rn', 'rz', 'rm', 'rp']
RNDI = ['rni', 'rzi', 'rmi', 'rpi']

I64 = [0, 1, 2, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff, 0x80000000,
       0xffffffff, 0x100000000, 0x7fffffffffffffff, 0x8000000000000000, 0xffffffffffffffff,
       0xffffffffffffff80, 0xffffffffffffff7f, 0xffffffffffff8000, 0xffffffffffff7fff,
       0xffffffff80000000, 0xffffffff7fffffff, 0x123456789abcdef0, 0xfedcba9876543210, 0xdeadbeef,
       0x1000001, 0x1000003, 0x20000000000001, 0xffffff7f, 0x8001, 0x81, 0x7ffffffffffffc00,
       0x8000000000000001, 0x00000001ffffffff, 0xfff, 0x7ff, 0x800, 0x801, 0xffffffffffffffc0,
       0x0000000080000001, 0xfffffffffffff801, 0x3ff, 0x400, 0x401, 0xffffffff00000001,
       0x1fffffffffffff, 0x40000000000001, 0x7fff7fff, 0x12345, 0x55555555, 0xaaaaaaaaaaaaaaaa,
       0xff80, 0x7f7f, 0x10001, 0x8080, 0x0100000000000001, 0x7f000000, 0x81000000, 0xfe, 0x17f, 0x180, 0xffffffffffff0000]

F32 = [0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7fffffff, 0xffc00001,
       0x7f800001, 0x00000001, 0x807fffff, 0x00800000, 0x3f000000, 0x3fc00000, 0x40200000, 0xbf000000,
       0xbfc00000, 0x3f800000, 0xbf800000, 0x4f000000, 0xcf000000, 0xcf000001, 0x4f800000, 0x5f000000,
       0xdf000000, 0x5f800000, 0x477fe000, 0x477ff000, 0x47800000, 0x38800000, 0x33800000, 0x33000000,
       0x3f7fffff, 0x3f800001, 0x42fe0000, 0x43000000, 0x437f0000, 0x43800000, 0xc3000000, 0xc3010000,
       0x46fffe00, 0x47000000, 0xc7000080, 0x4b000001, 0x40490fdb, 0x7f7fffff, 0xff7fffff, 0x3effffff,
       0x3f400000, 0x3f801000, 0x3f803000, 0x3f800fff, 0x477fefff, 0x33000001, 0xb3000000, 0x387fc000,
       0x3f808000, 0x3f818000, 0x437f8000, 0xc3008000, 0x4effffff, 0x4f7fffff, 0xbf7fffff, 0x007fffff,
       0xc2fe0000]
F64 = [0x0000000000000000, 0x8000000000000000, 0x7ff0000000000000, 0xfff0000000000000,
       0x7ff8000000000000, 0x7ff0000000000001, 0xfff8000000000001, 0x0000000000000001,
       0x3fe0000000000000, 0x3ff8000000000000, 0x4004000000000000, 0xbfe0000000000000,
       0xbff8000000000000, 0x41e0000000000000, 0xc1e0000000200000, 0x41dfffffffe00000,
       0x41f0000000000000, 0x43e0000000000000, 0xc3e0000000000000, 0x43f0000000000000,
       0x41efffffffff0000, 0x7e37e43c8800759c, 0x01a56e1fc2f8f359, 0x380cb5bc8a34ac9a,
       0x40effc0000000000, 0x40effe0000000000, 0x36a0000000000000, 0x3690000000000000,
       0x36a8000000000000, 0x47efffffe0000000, 0x47efffffd0000000, 0x3ff0000000000000,
       0xbff0000000000000, 0x3fefffffffffffff, 0x3ff0000000000001, 0x405fc00000000000,
       0x4060000000000000, 0x406fe00000000000, 0xc060000000000000, 0xc060200000000000,
       0x40dfffc000000000, 0x40e0000000000000, 0xc0e0001000000000, 0x400921fb54442d18,
       0x3e70000000000000, 0x3e68000000000000, 0x3f10000000000000, 0x3810000000000000,
       0x3ff0000010000000, 0x3ff0000008000000, 0x3ff0000018000000, 0x3ff0020000000000,
       0x3ff0010000000000, 0x3ff0030000000000, 0xc3dfffffffffffff, 0x43dfffffffffffff,
       0x4330000000000001, 0xbfdfffffffffffff, 0x7fefffffffffffff, 0x000fffffffffffff,
       0xc1dfffffffc00000, 0x3fe0000000000001, 0x4070000000000000, 0xc05fc00000000000]
H16 = [0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe01, 0x0001, 0x8001, 0x03ff, 0x3800, 0x3e00,
       0x4100, 0xb800, 0xbe00, 0x3c00, 0xbc00, 0x7bff, 0xfbff, 0x5bf8, 0x5c00, 0x57f0, 0x5800, 0xd800,
       0xd808, 0x3555, 0x6400, 0x6401, 0x77ff, 0x7800, 0xf800, 0xf801, 0x7f80, 0xff80, 0x7fc0, 0x7f81,
       0x3f00, 0x3fc0, 0x4020, 0x4f00, 0xcf00, 0x5f00, 0x4380, 0x437f, 0x4700, 0xc700, 0x477f, 0x0400,
       0x3bff, 0x3c01, 0xbbff, 0x5a00, 0x4b00, 0xcb00, 0x3f80, 0xbf80, 0x4f80, 0x5f80, 0xdf00, 0x0080,
       0x8080, 0x007f, 0x3f7f, 0x7f7f]
N = 64
assert len(I64) == N and len(F32) == N and len(F64) == N and len(H16) == N, (len(I64), len(F32), len(F64), len(H16))

REGTY = {16: 'b16', 32: 'b32', 64: 'b64'}


def contained(s, d):
	"""the range of int type s inside that of d (ptxas rejects .sat then)"""
	def rng(t):
		b = BITS[t]
		return (-(1 << (b - 1)), (1 << (b - 1)) - 1) if t[0] == 's' else (0, (1 << b) - 1)
	a, b = rng(s), rng(d)
	return a[0] >= b[0] and a[1] <= b[1]


class K:
	def __init__(self, name):
		self.name, self.cases, self.body = name, [], []

	def case(self, text, dreg_bits, src, comment):
		"""text has %d for the destination and %s for the source register"""
		c = len(self.cases)
		d = '%%d%d_%d' % (dreg_bits, c)
		self.body.append('\t' + text.replace('%d', d).replace('%s', src))
		self.body.append('\tst.global.b%d [%%rd_o+%d], %s;  // %s' % (dreg_bits, 8 * c, d, comment))
		self.cases.append((dreg_bits, d))

	def ptx(self, sm):
		regs = '\n'.join('\t.reg .%s %s;' % (REGTY[b], d) for b, d in self.cases)
		return f'''//
// {self.name}: generated by tests/compile/cvt/gen.py -- do not edit
//
.version 8.4
.target sm_{sm}
.address_size 64

.visible .entry {self.name}(.param .u64 p_i64, .param .u64 p_f32, .param .u64 p_f64, .param .u64 p_h16, .param .u64 p_out)
{{
	.reg .b64 %rd<16>;
	.reg .b64 %rd_o;
	.reg .b32 %r<8>;
	.reg .b16 %h<8>;
	.reg .f32 %f<4>;
	.reg .f64 %fd<4>;
	.reg .pred %p<4>;
{regs}
	ld.param.u64 %rd1, [p_i64];
	ld.param.u64 %rd2, [p_f32];
	ld.param.u64 %rd3, [p_f64];
	ld.param.u64 %rd4, [p_h16];
	ld.param.u64 %rd5, [p_out];
	cvta.to.global.u64 %rd1, %rd1;
	cvta.to.global.u64 %rd2, %rd2;
	cvta.to.global.u64 %rd3, %rd3;
	cvta.to.global.u64 %rd4, %rd4;
	cvta.to.global.u64 %rd5, %rd5;
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd6, %r1, 8;
	mul.wide.u32 %rd7, %r1, 4;
	mul.wide.u32 %rd8, %r1, 2;
	mul.wide.u32 %rd9, %r1, {8 * len(self.cases)};
	add.s64 %rd_o, %rd5, %rd9;
	add.s64 %rd10, %rd1, %rd6;
	ld.global.u64 %rd11, [%rd10];          // integer pattern (64 bits)
	mov.b64 {{%r2, %r3}}, %rd11;            // its low 32 bits
	cvt.u16.u32 %h1, %r2;                  // its low 16 bits
	add.s64 %rd10, %rd2, %rd7;
	ld.global.f32 %f1, [%rd10];
	add.s64 %rd10, %rd3, %rd6;
	ld.global.f64 %fd1, [%rd10];
	add.s64 %rd10, %rd4, %rd8;
	ld.global.b16 %h3, [%rd10];
	cvt.u32.u16 %r5, %h3;
	shl.b32 %r6, %r2, 16;
	or.b32 %r4, %r5, %r6;                  // f16 bits with garbage above
	and.b32 %r7, %r5, 0x7fff;
	setp.gt.u32 %p1, %r7, 0x7f80;
	selp.b16 %h4, 0x7f80, %h3, %p1;        // bf16 NaN -> inf (see NOTE)
	setp.nan.f32 %p2, %f1, %f1;
	selp.f32 %f3, 0f7F800000, %f1, %p2;     // f32 NaN -> inf (see NOTE)
{chr(10).join(self.body)}
	ret;
}}
'''

	def spec(self):
		return {'kernel': self.name, 'grid': [1], 'block': [N], 'args': [
			{'name': 'i64', 'buffer': 'u64', 'count': N, 'init': {'values': I64}},
			{'name': 'f32', 'buffer': 'u32', 'count': N, 'init': {'values': F32}},
			{'name': 'f64', 'buffer': 'u64', 'count': N, 'init': {'values': F64}},
			{'name': 'h16', 'buffer': 'u16', 'count': N, 'init': {'values': H16}},
			{'name': 'out', 'buffer': 'u64', 'count': N * len(self.cases), 'check': {'exact': True}}]}


def isrc(t):
	"""the register holding the integer pattern for source type t"""
	return {64: '%rd11', 32: '%r2', 16: '%h1', 8: '%h1'}[BITS[t]]


def fsrc(t):
	return {'f32': '%f1', 'f64': '%fd1', 'f16': '%h3', 'bf16': '%h3'}[t]


def dbits(t):
	return max(16, BITS[t])


def k_i2i():
	k = K('cvt_i2i')
	for s in INTS:
		for d in INTS:
			if d != s:
				k.case(f'cvt.{d}.{s} %d, %s;', dbits(d), isrc(s), f'{d} <- {s}')
			if not contained(s, d):
				k.case(f'cvt.sat.{d}.{s} %d, %s;', dbits(d), isrc(s), f'sat {d} <- {s}')
	# narrow sources read from wider registers; narrow results into wider registers
	for s in ['u8', 's8', 'u16', 's16']:
		for d in ['s32', 'u32', 's64', 'u64']:
			k.case(f'cvt.{d}.{s} %d, %s;', BITS[d], '%r2', f'{d} <- {s} (32-bit register)')
	for s in ['u8', 's8', 'u16', 's16', 'u32', 's32']:
		k.case(f'cvt.{s}.u64 %d, %s;', 64, '%rd11', f'{s} <- u64 into a 64-bit register')
		k.case(f'cvt.{s}.s64 %d, %s;', 32, '%rd11', f'{s} <- s64 into a 32-bit register')
		k.case(f'cvt.sat.{s}.s64 %d, %s;', 64, '%rd11', f'sat {s} <- s64 into a 64-bit register')
	for s, d in [('s8', 'u16'), ('s8', 'u32'), ('s16', 'u32'), ('s8', 's16'), ('u8', 's16')]:
		k.case(f'cvt.{d}.{s} %d, %s;', 64, '%r2', f'{d} <- {s} into a 64-bit register')
		k.case(f'cvt.{d}.{s} %d, %s;', 32, '%r2', f'{d} <- {s} into a 32-bit register')
	return k


def k_f2i(sm):
	k = K('cvt_f2i' if sm == 90 else 'cvt_f2i_sm80')
	for s in ['f16', 'bf16', 'f32', 'f64']:
		if s == 'bf16' and sm < 90:
			continue
		for d in INTS:
			if s == 'bf16' and BITS[d] == 8:
				continue
			for r in RNDI:
				k.case(f'cvt.{r}.{d}.{s} %d, %s;', dbits(d), fsrc(s), f'{d} <- {s} {r}')
			if s == 'f32':
				for r in RNDI:
					k.case(f'cvt.{r}.ftz.{d}.{s} %d, %s;', dbits(d), fsrc(s), f'{d} <- {s} {r} ftz')
				k.case(f'cvt.rni.sat.{d}.{s} %d, %s;', dbits(d), fsrc(s), f'{d} <- {s} rni sat')
	for d in ['s8', 'u8', 's16', 'u16']:
		k.case(f'cvt.rzi.{d}.f32 %d, %s;', 32, '%f1', f'{d} <- f32 into a 32-bit register')
		k.case(f'cvt.rmi.{d}.f64 %d, %s;', 64, '%fd1', f'{d} <- f64 into a 64-bit register')
	k.case('cvt.rni.s32.f16 %d, %s;', 32, '%r4', 's32 <- f16 from a 32-bit register')
	return k


def k_i2f(sm):
	k = K('cvt_i2f' if sm == 90 else 'cvt_i2f_sm80')
	for s in INTS:
		for d in ['f16', 'bf16', 'f32', 'f64']:
			if d == 'bf16' and (sm < 90 or BITS[s] == 8):
				continue
			for r in RNDF:
				k.case(f'cvt.{r}.{d}.{s} %d, %s;', dbits(d), isrc(s), f'{d} <- {s} {r}')
			if d != 'bf16':
				k.case(f'cvt.rn.sat.{d}.{s} %d, %s;', dbits(d), isrc(s), f'{d} <- {s} rn sat')
		k.case(f'cvt.rn.f16.{s} %d, %s;', 32, isrc(s), f'f16 <- {s} into a 32-bit register')
	for s in ['u8', 's8', 'u16', 's16']:
		k.case(f'cvt.rn.f32.{s} %d, %s;', 32, '%r2', f'f32 <- {s} from a 32-bit register')
	return k


def k_f2f(sm):
	k = K('cvt_f2f' if sm == 90 else 'cvt_f2f_sm80')
	F = ['f16', 'bf16', 'f32', 'f64']
	for s in F:
		for d in F:
			if s == 'bf16' and d == 'f32':   # exact: no NaN source (see NOTE)
				k.case('cvt.f32.bf16 %d, %s;', 32, '%h4', 'f32 <- bf16')
				k.case('cvt.sat.f32.bf16 %d, %s;', 32, '%h4', 'f32 <- bf16 .sat') if False else None
				continue
			if sm < 90 and 'bf16' in (s, d) and {s, d} != {'bf16', 'f32'}:
				continue
			mods = []
			if s == d:
				mods = ['.' + r for r in RNDI]
				if s == 'f32':
					mods += ['.ftz', '.sat', '.ftz.sat', '.rni.ftz', '.rzi.sat', '.rpi.ftz.sat']
				if s == 'f64':
					mods += ['.sat', '.rmi.sat']
				if s == 'f16':
					mods += ['.rni.sat']
			elif BITS[d] > BITS[s]:
				mods = ['']
				if s != 'bf16':
					mods += ['.sat']
				if s == 'f32':
					mods += ['.ftz', '.ftz.sat']
			else:
				mods = ['.' + r for r in RNDF]
				if 'bf16' not in (s, d):
					mods += ['.rn.sat', '.rp.sat']
				if s == 'f32':
					mods += ['.' + r + '.ftz' for r in RNDF]
				if s == 'f32' and d in ('f16', 'bf16') and not (sm < 90 and d == 'bf16'):
					mods += ['.rn.relu', '.rz.relu']
			for m in mods:
				k.case(f'cvt{m}.{d}.{s} %d, %s;', dbits(d), fsrc(s), f'{d} <- {s} {m}')
	k.case('cvt.f32.f16 %d, %s;', 32, '%r4', 'f32 <- f16 from a 32-bit register')
	k.case('cvt.rn.f16.f32 %d, %s;', 32, '%f1', 'f16 <- f32 into a 32-bit register')
	k.case('cvt.rni.f16.f16 %d, %s;', 32, '%r4', 'f16 rni into a 32-bit register')
	return k


def k_pack(sm):
	k = K('cvt_pack' if sm == 90 else 'cvt_pack_sm80')
	for d in ['f16x2', 'bf16x2']:
		for m in ['.rn', '.rz', '.rn.relu', '.rz.relu']:
			k.case(f'cvt{m}.{d}.f32 %d, %s, %f1;', 32, '%f2', f'{d} {m}')
			k.case(f'cvt{m}.{d}.f32 %d, %f1, %s;', 32, '%f2', f'{d} {m} swapped')
	k.body.insert(0, '\tmov.b32 %f2, %r2;                      // a second f32 operand')
	k.case('cvt.rna.tf32.f32 %d, %s;', 32, '%f3', 'tf32 rna (no NaN)')
	return k


def main():
	made = []
	for k, sms in [(k_i2i(), [90, 80])] + [(f(90), [90]) for f in (k_f2i, k_i2f, k_f2f, k_pack)] + \
			[(f(80), [80]) for f in (k_f2i, k_i2f, k_f2f, k_pack)]:
		sm = min(sms)
		base = k.name.replace('cvt_', '')
		p = os.path.join(D, base + '.ptx')
		with open(p, 'w') as f:
			f.write(k.ptx(sm))
		with open(os.path.join(D, base + '.spec.json'), 'w') as f:
			json.dump(k.spec(), f, indent=1)
			f.write('\n')
		made.append((p, sms, len(k.cases)))
		if shutil.which('ptxas'):
			for a in sms:
				r = subprocess.run(['ptxas', f'-arch=sm_{a}', '-o', '/dev/null', p], capture_output=True, text=True)
				if r.returncode:
					sys.exit(f'ptxas rejects {p} for sm_{a}:\n{r.stderr}')
	for p, sms, n in made:
		print(f'{os.path.relpath(p)}: {n} cases, sm_{" sm_".join(map(str, sms))}')


main()
