#!/usr/bin/env python3
"""gen-specs.py -- write the launch specs of tests/compile/real2 (and real3) from the //@ lines of the .cu files.

A line  //@ KERNEL grid=X[,Y] block=X[,Y] [shared=B] | ARG | ARG ...  where ARG is
  NAME=TYPE:VALUE                          a scalar
  NAME:struct[SIZE] TYPE@OFF=VALUE ...     a struct by value (bytes not named are zero)
  NAME:TYPE[COUNT] [INIT] [check[(TOL)]]   a buffer; INIT is rand(lo,hi), range(start,step) or
                                           values(v,...); check is exact, check(TOL) abs+rel TOL
Writes KERNEL.spec.json next to the .cu file, and prints "FILE.cu KERNEL" per spec."""
import json, re, sys, os

def num(t):
	return float(t) if re.search(r'[.eE]', t) or t in ('inf', '-inf') else int(t)

def arg(a, seed):
	m = re.fullmatch(r'(\w+)=(\w+):(\S+)', a)
	if m:
		return {"name": m[1], "scalar": m[2], "value": num(m[3])}
	m = re.fullmatch(r'(\w+):(\w+)\[(\d+)\]\s*(.*)', a)
	if not m:
		sys.exit(f"bad argument: {a}")
	if m[2] == 'struct':  # NAME:struct[SIZE] TYPE@OFFSET=VALUE ...: a parameter passed by value
		return {"name": m[1], "struct": int(m[3]), "fields": [
			{"offset": int(f[1]), "scalar": f[0], "value": num(f[2])}
			for f in re.findall(r'(\w+)@(\d+)=(\S+)', m[4])]}
	b = {"name": m[1], "buffer": m[2], "count": int(m[3])}
	for w in re.findall(r'\w+(?:\([^)]*\))?', m[4]):
		f, _, p = w.partition('(')
		v = [num(x) for x in p.rstrip(')').split(',')] if p else []
		if f == 'rand':
			b["init"] = {"random": {"seed": seed, "min": v[0], "max": v[1]}}
		elif f == 'range':
			b["init"] = {"range": {"start": v[0], "step": v[1]}}
		elif f == 'values':
			b["init"] = {"values": v}
		elif f == 'check':
			b["check"] = {"abs": v[0], "rel": v[0]} if v else {"exact": True}
		else:
			sys.exit(f"bad word {w} in {a}")
	return b

for cu in sys.argv[1:]:
	for line in open(cu):
		if not line.startswith('//@ '):
			continue
		head, *args = [x.strip() for x in line[4:].split('|')]
		k, *kv = head.split()
		spec = {"kernel": k, "comment": f"tests/compile/{os.path.basename(os.path.dirname(os.path.abspath(cu)))}/{os.path.basename(cu)}: {k}"}
		for x in kv:
			key, val = x.split('=')
			spec[key] = [int(v) for v in val.split(',')] if key != 'shared' else int(val)
		spec["args"] = [arg(a, 11 + i) for i, a in enumerate(args)]
		with open(os.path.join(os.path.dirname(cu), k + '.spec.json'), 'w') as f:
			json.dump(spec, f, indent=1)
			f.write('\n')
		print(os.path.basename(cu), k)
