#!/usr/bin/env python3
# tests/compile/math/gen.py NAME -- writes NAME.ptx and NAME.spec.json:
# one kernel that applies a list of operations to per-thread inputs
# a, b, c (32-bit: A B C; 64-bit: A64 B64 C64; f32: F G; f64: FD GD)
# and stores every result.  The lists below are the test cases; the value
# lists in the specs have coprime lengths so that every combination of
# edge values meets.  Run from the repository root:
#   python3 tests/compile/math/gen.py bits
import json, sys

U32 = [0, 1, 2, 3, 7, 31, 32, 33, 0xff, 0x100, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffe,
       0x12345678, 0xdeadbeef, 0x80000001, 255 + 256 * 9, 64, 0x3f00]
U32B = [0, 1, 5, 8, 16, 24, 31, 32, 33, 63, 64, 255, 256 + 3, 0xffffffff, 0x80000000, 0x7fffffff,
        0x12345678, 0xcafe0004, 0x10, 0x3210]
U32C = [0, 1, 4, 8, 13, 31, 32, 40, 255, 256 + 5, 0xffffffff, 0x80000000, 0x55555555, 0x7654, 2, 16, 9]
U64 = [0, 1, 0xffffffffffffffff, 0x8000000000000000, 0x7fffffffffffffff, 0xffffffff, 0x100000000,
       0x123456789abcdef0, 0xfedcba9876543210, 0x00000000ffff0000, 0x8000000000000001, 0xffffffff00000000, 5]
U64B = [0, 1, 2, 31, 32, 33, 63, 64, 65, 127, 0xffffffffffffffff, 0x8000000000000000, 0x100000000, 0xfffffffe, 7, 40, 0x7fffffffffffffff]

KERNELS = {
	'carry': {
		'ops32': [
			'add.cc.u32 %d, %a, %b;', 'addc.cc.u32 %d, %c, %a;', 'addc.u32 %d, %b, %c;',
			'sub.cc.u32 %d, %a, %b;', 'subc.cc.u32 %d, %c, %a;', 'subc.u32 %d, %b, %c;',
			'mad.lo.cc.u32 %d, %a, %b, %c;', 'madc.hi.cc.u32 %d, %a, %c, %b;', 'madc.lo.u32 %d, %b, %c, %a;',
			'add.cc.u32 %d, %a, %b;', 'subc.cc.u32 %d, %c, %a;', 'addc.u32 %d, %b, %c;',
			'sub.cc.u32 %d, %a, 5;', 'addc.cc.u32 %d, %c, 7;', 'subc.u32 %d, %b, 3;',
			'mad.hi.cc.s32 %d, %a, %b, %c;', 'madc.hi.s32 %d, %b, %c, %a;',
		],
		'ops64': [
			'add.cc.u64 %D, %A, %B;', 'addc.cc.u64 %D, %C, %A;', 'addc.u64 %D, %B, %C;',
			'sub.cc.u64 %D, %A, %B;', 'subc.cc.u64 %D, %C, %A;', 'subc.u64 %D, %B, %C;',
		],
	},
	'bits': {
		'ops32': [
			'popc.b32 %d, %a;', 'clz.b32 %d, %a;', 'brev.b32 %d, %a;', 'bfind.u32 %d, %a;', 'bfind.s32 %d, %a;',
			'bfind.shiftamt.u32 %d, %a;', 'bfind.shiftamt.s32 %d, %a;', 'bfe.u32 %d, %a, %b, %c;',
			'bfe.s32 %d, %a, %b, %c;', 'bfe.u32 %d, %a, 4, 8;', 'bfe.s32 %d, %a, 28, 8;',
			'bfi.b32 %d, %a, %b, %c, %b;', 'bfi.b32 %d, %a, %b, %c, 5;', 'bmsk.clamp.b32 %d, %a, %b;',
			'bmsk.wrap.b32 %d, %a, %b;', 'prmt.b32 %d, %a, %b, %c;', 'prmt.b32 %d, %a, %b, 0x5140;',
			'prmt.b32.f4e %d, %a, %b, %c;', 'prmt.b32.b4e %d, %a, %b, %c;', 'prmt.b32.rc8 %d, %a, %b, %c;',
			'prmt.b32.ecl %d, %a, %b, %c;', 'prmt.b32.ecr %d, %a, %b, %c;', 'prmt.b32.rc16 %d, %a, %b, %c;',
			'lop3.b32 %d, %a, %b, %c, 0x96;', 'lop3.b32 %d, %a, %b, %c, 0xe8;', 'lop3.b32 %d, %a, 0xff00, %c, 0xca;',
			'shf.l.clamp.b32 %d, %a, %b, %c;', 'shf.l.wrap.b32 %d, %a, %b, %c;', 'shf.r.clamp.b32 %d, %a, %b, %c;',
			'shf.r.wrap.b32 %d, %a, %b, %c;', 'shf.r.clamp.b32 %d, %a, %b, 12;',
			'mul24.lo.u32 %d, %a, %b;', 'mul24.lo.s32 %d, %a, %b;', 'mul24.hi.u32 %d, %a, %b;', 'mul24.hi.s32 %d, %a, %b;',
			'mad24.lo.s32 %d, %a, %b, %c;', 'mad24.hi.u32 %d, %a, %b, %c;', 'sad.u32 %d, %a, %b, %c;', 'sad.s32 %d, %a, %b, %c;',
			'dp4a.u32.u32 %d, %a, %b, %c;', 'dp4a.s32.s32 %d, %a, %b, %c;', 'dp4a.s32.u32 %d, %a, %b, %c;',
			'dp2a.lo.u32.s32 %d, %a, %b, %c;', 'dp2a.hi.s32.s32 %d, %a, %b, %c;',
			'mad.hi.u32 %d, %a, %b, %c;', 'mad.hi.s32 %d, %a, %b, %c;',
			'add.sat.s32 %d, %a, %b;', 'sub.sat.s32 %d, %a, %b;',
		],
		'ops64': [
			'popc.b64 %w, %A;', 'clz.b64 %w, %A;', 'bfind.u64 %w, %A;', 'bfind.s64 %w, %A;',
			'bfind.shiftamt.u64 %w, %A;', 'bfind.shiftamt.s64 %w, %A;',
			'brev.b64 %D, %A;', 'mul.hi.u64 %D, %A, %B;', 'mul.hi.s64 %D, %A, %B;', 'mad.hi.u64 %D, %A, %B, %C;',
			'mad.hi.s64 %D, %A, %B, %C;', 'mad.lo.s64 %D, %A, %B, %C;', 'min.s64 %D, %A, %B;', 'max.s64 %D, %A, %B;',
			'min.u64 %D, %A, %B;', 'max.u64 %D, %A, %B;', 'abs.s64 %D, %A;', 'neg.s64 %D, %A;',
			'shl.b64 %D, %A, %b;', 'shr.u64 %D, %A, %b;', 'shr.s64 %D, %A, %b;',
			'shl.b64 %D, %A, 40;', 'shr.u64 %D, %A, 40;', 'shr.s64 %D, %A, 40;',
			'shl.b64 %D, %A, 32;', 'shr.u64 %D, %A, 32;', 'shr.s64 %D, %A, 63;', 'shr.s64 %D, %A, 0;',
			'bfe.u64 %D, %A, %b, %c;', 'bfe.s64 %D, %A, %b, %c;', 'bfe.s64 %D, %A, 60, 8;', 'bfe.u64 %D, %A, 20, 40;',
			'bfi.b64 %D, %A, %B, %b, %c;', 'bfi.b64 %D, %A, %B, 33, 7;',
		],
	},
}

F32 = [0, 0x80000000, 0x3f800000, 0xbf800000, 0x40000000, 0x40400000, 0x3dcccccd, 0x40e00000, 1, 0x007fffff,
       0x00800000, 0x7f7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0x7fffffff, 0x3fc00000, 0x3f7fffff,
       0x7149f2ca, 0x0da24260, 0x42f6e979, 0xbf000000, 0x00400000, 0x4b800000, 0x5f800000, 0x1f800000,
       0x7f0f0000, 0x00000003, 0x80000001, 0xc2f6e979, 0x3eaaaaab]
F32B = [0x40400000, 0, 0x3f800000, 0x80000000, 0x7f800000, 0x00000001, 0x7f7fffff, 0xc0e00000, 0x3dcccccd,
        0x00800000, 0xff800000, 0x7fc00000, 0x007fffff, 0x3f7fffff, 0x1f800000, 0x5f800000, 0x40000000,
        0x0da24260, 0x7149f2ca, 0xbeaaaaab, 0x00000300, 0x00c00000, 0x3fc00001]

FLOAT = {
	'fmath': {
		'exact': [
			'div.rn.f32 %d, %a, %b;', 'div.rn.ftz.f32 %d, %a, %b;', 'div.rn.f32 %d, %b, %a;',
			'rcp.rn.f32 %d, %a;', 'rcp.rn.ftz.f32 %d, %b;', 'sqrt.rn.f32 %d, %a;', 'sqrt.rn.ftz.f32 %d, %a;',
			'sqrt.rn.f32 %d, %b;', 'copysign.f32 %d, %a, %b;', 'fma.rn.sat.f32 %d, %a, %b, %a;',
			'testp.finite.f32 %p1, %a; selp.b32 %d, 1, 0, %p1;', 'testp.infinite.f32 %p1, %a; selp.b32 %d, 1, 0, %p1;',
			'testp.number.f32 %p1, %a; selp.b32 %d, 1, 0, %p1;', 'testp.notanumber.f32 %p1, %a; selp.b32 %d, 1, 0, %p1;',
			'testp.normal.f32 %p1, %a; selp.b32 %d, 1, 0, %p1;', 'testp.subnormal.f32 %p1, %a; selp.b32 %d, 1, 0, %p1;',
			'max.NaN.f32 %d, %a, %b;', 'min.NaN.f32 %d, %a, %b;',
			# .approx: bit for bit ptxas's sequences on the MUFU model (ptx/arith.c f32_approx)
			'div.full.f32 %d, %a, %b;', 'div.approx.f32 %d, %a, %b;', 'div.approx.ftz.f32 %d, %a, %b;',
			'rcp.approx.f32 %d, %a;', 'rcp.approx.ftz.f32 %d, %a;', 'sqrt.approx.f32 %d, %a;',
			'sqrt.approx.ftz.f32 %d, %a;', 'rsqrt.approx.f32 %d, %a;', 'rsqrt.approx.ftz.f32 %d, %a;',
			'ex2.approx.f32 %d, %a;', 'ex2.approx.ftz.f32 %d, %a;', 'lg2.approx.f32 %d, %a;',
			'lg2.approx.ftz.f32 %d, %a;', 'sin.approx.f32 %d, %a;', 'cos.approx.ftz.f32 %d, %a;',
			'tanh.approx.f32 %d, %a;',
		],
		'approx': [],
	},
}

FLOAT['frand'] = {
	'exact': ['div.rn.f32 %d, %a, %b;', 'div.rn.ftz.f32 %d, %a, %b;', 'sqrt.rn.f32 %d, %a;',
	          'rcp.rn.f32 %d, %b;', 'sqrt.rn.ftz.f32 %d, %b;', 'div.full.f32 %d, %a, %b;',
	          'div.approx.f32 %d, %a, %b;', 'rcp.approx.f32 %d, %b;', 'ex2.approx.f32 %d, %a;'],
	'approx': [],
	'random': True,
}

def fmain(name):
	k = FLOAT[name]
	ex, ap = k['exact'], k['approx']
	L = ['// %s: generated by tests/compile/math/gen.py %s (edit the lists there)' % (name, name),
	     '.version 8.0', '.target sm_80', '.address_size 64', '',
	     '.visible .entry %s(.param .u64 pF, .param .u64 pG, .param .u64 pO%s)' % (name, ', .param .u64 pOA' if ap else ''), '{',
	     '\t.reg .b32 %r<10>;', '\t.reg .f32 %f<200>;', '\t.reg .b64 %rd<40>;', '\t.reg .pred %p<4>;',
	     '\tmov.u32 %r1, %tid.x;', '\tmov.u32 %r2, %ctaid.x;', '\tmov.u32 %r3, %ntid.x;',
	     '\tmad.lo.s32 %r4, %r2, %r3, %r1;', '\tmul.wide.u32 %rd1, %r4, 4;',
	     '\tld.param.u64 %rd20, [pF];', '\tadd.s64 %rd20, %rd20, %rd1;', '\tld.global.f32 %f1, [%rd20];',
	     '\tld.param.u64 %rd21, [pG];', '\tadd.s64 %rd21, %rd21, %rd1;', '\tld.global.f32 %f2, [%rd21];',
	     '\tmul.wide.u32 %%rd30, %%r4, %d;' % (4 * len(ex)), '\tld.param.u64 %rd32, [pO];',
	     '\tadd.s64 %rd32, %rd32, %rd30;']
	if ap:
		L += ['\tmul.wide.u32 %%rd31, %%r4, %d;' % (4 * len(ap)), '\tld.param.u64 %rd33, [pOA];',
		      '\tadd.s64 %rd33, %rd33, %rd31;']
	for lst, base, reg in ((ex, 10, '%rd32'), (ap, 100, '%rd33')):
		for i, op in enumerate(lst):
			t = op.replace('%d', '%%f%d' % (base + i)).replace('%a', '%f1').replace('%b', '%f2')
			if 'selp' in t:
				t = t.replace('selp.b32', 'selp.f32').replace(', 1, 0,', ', 0f3F800000, 0f00000000,')
			L += ['\t' + t, '\tst.global.f32 [%s+%d], %%f%d;' % (reg, 4 * i, base + i)]
	L += ['\tret;', '}', '']
	open('tests/compile/math/%s.ptx' % name, 'w').write('\n'.join(L))
	rnd = k.get('random')
	n = 2048 if rnd else 256
	fi = {'random': {'seed': 7, 'min': 0, 'max': 4294967295}} if rnd else {'values': F32}
	gi = {'random': {'seed': 8, 'min': 0, 'max': 4294967295}} if rnd else {'values': F32B}
	spec = {'kernel': name, 'grid': [n // 128], 'block': [128],
	        'comment': 'generated by tests/compile/math/gen.py %s; inputs are f32 bit patterns' % name,
	        'args': [
	            {'name': 'F', 'buffer': 'u32', 'count': n, 'init': fi},
	            {'name': 'G', 'buffer': 'u32', 'count': n, 'init': gi},
	            {'name': 'O', 'buffer': 'u32', 'count': n * len(ex), 'check': {'exact': True}}]}
	if ap:
		spec['args'].append({'name': 'OA', 'buffer': 'f32', 'count': n * len(ap), 'check': {'ulp': 4, 'nan_any': True}})
	open('tests/compile/math/%s.spec.json' % name, 'w').write(json.dumps(spec, indent=1) + '\n')

F64 = [0, 0x8000000000000000, 0x3ff0000000000000, 0xbff0000000000000, 0x4008000000000000,
       0x3fb999999999999a, 1, 0x000fffffffffffff, 0x0010000000000000, 0x7fefffffffffffff,
       0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000, 0x7ff0000000000001, 0x3ff8000000000000,
       0x3fefffffffffffff, 0x4415af1d78b58c40, 0x3bc79ca10c924223, 0x0008000000000000, 0x5fe0000000000000,
       0x2000000000000000, 0x8000000000000003, 0x7fd0000000000000, 0x0030000000000000, 0xc05edd2f1a9fbe77]
F64B = [0x4008000000000000, 0, 0x3ff0000000000000, 0x8000000000000000, 0x7ff0000000000000, 1,
        0x7fefffffffffffff, 0xc01c000000000000, 0x3fb999999999999a, 0x0010000000000000, 0xfff0000000000000,
        0x7ff8000000000000, 0x000fffffffffffff, 0x3fefffffffffffff, 0x2000000000000000, 0x5fe0000000000000,
        0x4000000000000000, 0x3bc79ca10c924223, 0x4415af1d78b58c40, 0xbfd5555555555555, 0x0000000000000300,
        0x0018000000000000, 0x3ff8000000000001]

DOUBLE = {
	'dmath': ['div.rn.f64 %d, %a, %b;', 'div.rn.f64 %d, %b, %a;', 'sqrt.rn.f64 %d, %a;', 'rcp.rn.f64 %d, %a;',
	          'sqrt.rn.f64 %d, %b;', 'rcp.rn.f64 %d, %b;', 'min.f64 %d, %a, %b;', 'max.f64 %d, %a, %b;',
	          'abs.f64 %d, %a;', 'neg.f64 %d, %a;', 'copysign.f64 %d, %a, %b;',
	          'testp.normal.f64 %p1, %a; selp.f64 %d, 0d3FF0000000000000, 0d0000000000000000, %p1;',
	          'testp.subnormal.f64 %p1, %a; selp.f64 %d, 0d3FF0000000000000, 0d0000000000000000, %p1;',
	          'testp.finite.f64 %p1, %a; selp.f64 %d, 0d3FF0000000000000, 0d0000000000000000, %p1;',
	          'testp.notanumber.f64 %p1, %b; selp.f64 %d, 0d3FF0000000000000, 0d0000000000000000, %p1;'],
	'drand': ['div.rn.f64 %d, %a, %b;', 'sqrt.rn.f64 %d, %a;', 'rcp.rn.f64 %d, %b;', 'sqrt.rn.f64 %d, %b;'],
}

def dmain(name):
	ops = DOUBLE[name]
	L = ['// %s: generated by tests/compile/math/gen.py %s (edit the lists there)' % (name, name),
	     '.version 8.0', '.target sm_80', '.address_size 64', '',
	     '.visible .entry %s(.param .u64 pF, .param .u64 pG, .param .u64 pO%s)' % (name, ', .param .u64 pS' if name == 'dmath' else ''), '{',
	     '\t.reg .b32 %r<10>;', '\t.reg .f64 %fd<200>;', '\t.reg .b64 %rd<40>;', '\t.reg .pred %p<4>;',
	     '\tmov.u32 %r1, %tid.x;', '\tmov.u32 %r2, %ctaid.x;', '\tmov.u32 %r3, %ntid.x;',
	     '\tmad.lo.s32 %r4, %r2, %r3, %r1;', '\tmul.wide.u32 %rd1, %r4, 8;',
	     '\tld.param.u64 %rd20, [pF];', '\tadd.s64 %rd20, %rd20, %rd1;', '\tld.global.f64 %fd1, [%rd20];',
	     '\tld.param.u64 %rd21, [pG];', '\tadd.s64 %rd21, %rd21, %rd1;', '\tld.global.f64 %fd2, [%rd21];',
	     '\tmul.wide.u32 %%rd30, %%r4, %d;' % (8 * len(ops)), '\tld.param.u64 %rd32, [pO];',
	     '\tadd.s64 %rd32, %rd32, %rd30;']
	for i, op in enumerate(ops):
		t = op.replace('%d', '%%fd%d' % (10 + i)).replace('%a', '%fd1').replace('%b', '%fd2')
		L += ['\t' + t, '\tst.global.f64 [%%rd32+%d], %%fd%d;' % (8 * i, 10 + i)]
	if name == 'dmath':
		L += ['\tmul.wide.u32 %rd34, %r4, 16;', '\tld.param.u64 %rd35, [pS];', '\tadd.s64 %rd35, %rd35, %rd34;',
		      '\tabs.f64 %fd190, %fd1;', '\tneg.f64 %fd191, %fd2;',
		      '\tst.global.f64 [%rd35], %fd190;', '\tst.global.f64 [%rd35+8], %fd191;']
	L += ['\tret;', '}', '']
	open('tests/compile/math/%s.ptx' % name, 'w').write('\n'.join(L))
	rnd = name == 'drand'
	n = 2048 if rnd else 256
	fi = {'random': {'seed': 9, 'min': 0, 'max': 18446744073709551615}} if rnd else {'values': F64}
	gi = {'random': {'seed': 10, 'min': 0, 'max': 18446744073709551615}} if rnd else {'values': F64B}
	spec = {'kernel': name, 'grid': [n // 128], 'block': [128],
	        'comment': 'generated by tests/compile/math/gen.py %s; inputs are f64 bit patterns' % name,
	        'args': [
	            {'name': 'F', 'buffer': 'u64', 'count': n, 'init': fi},
	            {'name': 'G', 'buffer': 'u64', 'count': n, 'init': gi},
	            {'name': 'O', 'buffer': 'f64', 'count': n * len(ops), 'check': {'ulp': 0, 'nan_any': True}}]}
	if name == 'dmath':  # sign-bit operations keep NaN payloads: compared exactly
		spec['args'].append({'name': 'S', 'buffer': 'u64', 'count': n * 2, 'check': {'exact': True}})
	open('tests/compile/math/%s.spec.json' % name, 'w').write(json.dumps(spec, indent=1) + '\n')

def main(name):
	if name in DOUBLE:
		return dmain(name)
	if name in FLOAT:
		return fmain(name)
	k = KERNELS[name]
	o32, o64 = k['ops32'], k['ops64']
	L = ['// %s: generated by tests/compile/math/gen.py %s (edit the lists there)' % (name, name),
	     '.version 8.0', '.target sm_80', '.address_size 64', '',
	     '.visible .entry %s(.param .u64 pA, .param .u64 pB, .param .u64 pC, .param .u64 pA64,' % name,
	     '\t.param .u64 pB64, .param .u64 pC64, .param .u64 pO, .param .u64 pO64)', '{',
	     '\t.reg .b32 %r<400>;', '\t.reg .b64 %rd<400>;', '\t.reg .pred %p<4>;',
	     '\tmov.u32 %r1, %tid.x;', '\tmov.u32 %r2, %ctaid.x;', '\tmov.u32 %r3, %ntid.x;',
	     '\tmad.lo.s32 %r4, %r2, %r3, %r1;', '\tmul.wide.u32 %rd1, %r4, 4;', '\tmul.wide.u32 %rd2, %r4, 8;']
	for i, (p, t, r) in enumerate([('pA', 'u32', '%r10'), ('pB', 'u32', '%r11'), ('pC', 'u32', '%r12'),
	                              ('pA64', 'u64', '%rd10'), ('pB64', 'u64', '%rd11'), ('pC64', 'u64', '%rd12')]):
		L += ['\tld.param.u64 %%rd%d, [%s];' % (20 + i, p),
		      '\tadd.s64 %%rd%d, %%rd%d, %%rd%d;' % (20 + i, 20 + i, 1 if t == 'u32' else 2),
		      '\tld.global.%s %s, [%%rd%d];' % (t, r, 20 + i)]
	L += ['\tmul.wide.u32 %%rd30, %%r4, %d;' % (4 * len(o32)), '\tmul.wide.u32 %%rd31, %%r4, %d;' % (8 * len(o64)),
	      '\tld.param.u64 %rd32, [pO];', '\tld.param.u64 %rd33, [pO64];',
	      '\tadd.s64 %rd32, %rd32, %rd30;', '\tadd.s64 %rd33, %rd33, %rd31;']
	sub = {'%a': '%r10', '%b': '%r11', '%c': '%r12', '%A': '%rd10', '%B': '%rd11', '%C': '%rd12'}
	for i, op in enumerate(o32):
		t = op.replace('%d', '%%r%d' % (100 + i))
		for a, b in sub.items():
			t = t.replace(a, b)
		L += ['\t' + t, '\tst.global.u32 [%%rd32+%d], %%r%d;' % (4 * i, 100 + i)]
	for i, op in enumerate(o64):
		t = op.replace('%D', '%%rd%d' % (100 + i)).replace('%w', '%%r%d' % (300 + i))
		for a, b in sub.items():
			t = t.replace(a, b)
		if '%w' in op:
			t += '\n\tcvt.u64.u32 %%rd%d, %%r%d;' % (100 + i, 300 + i)
		L += ['\t' + t, '\tst.global.u64 [%%rd33+%d], %%rd%d;' % (8 * i, 100 + i)]
	L += ['\tret;', '}', '']
	open('tests/compile/math/%s.ptx' % name, 'w').write('\n'.join(L))
	n = 256
	spec = {'kernel': name, 'grid': [2], 'block': [128],
	        'comment': 'generated by tests/compile/math/gen.py %s' % name,
	        'args': [
	            {'name': 'A', 'buffer': 'u32', 'count': n, 'init': {'values': U32}},
	            {'name': 'B', 'buffer': 'u32', 'count': n, 'init': {'values': U32B[:19]}},
	            {'name': 'C', 'buffer': 'u32', 'count': n, 'init': {'values': U32C}},
	            {'name': 'A64', 'buffer': 'u64', 'count': n, 'init': {'values': U64}},
	            {'name': 'B64', 'buffer': 'u64', 'count': n, 'init': {'values': U64B}},
	            {'name': 'C64', 'buffer': 'u64', 'count': n, 'init': {'values': U64[:11]}},
	            {'name': 'O', 'buffer': 'u32', 'count': n * len(o32), 'check': {'exact': True}},
	            {'name': 'O64', 'buffer': 'u64', 'count': n * len(o64), 'check': {'exact': True}}]}
	open('tests/compile/math/%s.spec.json' % name, 'w').write(json.dumps(spec, indent=1) + '\n')

main(sys.argv[1])
