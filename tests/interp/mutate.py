#!/usr/bin/env python3
# mutate.py SEED N -- robustness sweep for the PTX interpreter (not part of make check):
# mutate 1-3 tokens (numbers, registers, opcodes) of suite/interp PTX files and run
# each through the sanitizer build's emu with a step limit; any exit other than 0/1
# or a sanitizer report is a crash (saved to /tmp/fz2/crashN.ptx).
# Run from the repo root after make SANITIZE=1 BUILD=build/interp-san.
import random,re,sys,subprocess,os,glob
random.seed(int(sys.argv[1]))
files=sorted(glob.glob('tests/kernels/*/kernel.sm_90.ptx'))+sorted(glob.glob('tests/interp/*.ptx'))
crashes=0; runs=0
for it in range(int(sys.argv[2])):
    f=random.choice(files)
    d=os.path.dirname(f)
    spec=os.path.join(d,'spec.json') if 'kernels' in f else f[:-4]+'.json'
    if not os.path.exists(spec): continue
    txt=open(f).read()
    toks=list(re.finditer(r'\b(\d+)\b|%r\d+|%rd\d+|%f\d+|\b(add|sub|mul|shl|shr|and|or|xor|min|max)\b', txt))
    if not toks: continue
    for _ in range(random.randint(1,3)):
        m=random.choice(toks)
        s=m.group(0)
        if s.isdigit(): r=str(random.choice([0,1,2,3,4,7,8,15,16,31,32,33,63,64,127,255,1024,4096,65535,2**31-1]))
        elif s.startswith('%'): r=re.sub(r'\d+', str(random.randint(0,20)), s)
        else: r=random.choice(['add','sub','mul','shl','shr','and','or','xor','min','max'])
        txt=txt[:m.start()]+r+txt[m.end():]
        toks=list(re.finditer(r'\b(\d+)\b|%r\d+|%rd\d+|%f\d+|\b(add|sub|mul|shl|shr|and|or|xor|min|max)\b', txt))
    os.makedirs('/tmp/fz2', exist_ok=True); open('/tmp/fz2/m.ptx','w').write(txt)
    p=subprocess.run(['build/interp-san/openassembler','emu','--ptx','/tmp/fz2/m.ptx','--spec',spec,'-o','/dev/null','--steps','3000000'],capture_output=True,timeout=120); p.stderr=p.stderr.decode('latin1')
    runs+=1
    if p.returncode not in (0,1) or 'Sanitizer' in p.stderr or 'runtime error' in p.stderr:
        crashes+=1
        open('/tmp/fz2/crash%d.ptx'%crashes,'w').write(txt)
        print('CRASH', p.returncode, f, spec, p.stderr[-600:])
print('runs', runs, 'crashes', crashes)
