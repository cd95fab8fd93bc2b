#!/usr/bin/env python3
"""ctrl_stalls.py -- static cost of control bits: the sum of the stall counts
of every suite kernel as ptxas scheduled it and after `openassembler check
--reassign 0|1` (same instructions, control bits re-assigned).

usage: python3 tools/lib/ctrl_stalls.py [OPENASSEMBLER]
"""
import glob, os, re, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
O = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "openassembler")

def stalls(path):
    out = subprocess.run([O, "disasm", path], capture_output=True, text=True).stdout
    return sum(int(m) for m in re.findall(r"/\*[0-9a-f]{4,}\*/.*:S(\d\d)\]", out))

with tempfile.TemporaryDirectory() as tmp:
    for arch in ("sm_90", "sm_80"):
        t = {"ptxas": 0, "m0": 0, "m1": 0}
        for f in sorted(glob.glob(os.path.join(ROOT, "tests/kernels/*/kernel.%s.cubin" % arch))):
            t["ptxas"] += stalls(f)
            for m in ("0", "1"):
                o = os.path.join(tmp, "r.cubin")
                r = subprocess.run([O, "check", f, "--reassign", m, "-o", o], capture_output=True, text=True)
                if r.returncode:
                    print("hazards after reassign:", f, "mode", m)
                    continue
                t["m" + m] += stalls(o)
        print("%s: ptxas %d, mode 0 %d (%.2fx), mode 1 %d (%.2fx)" % (
            arch, t["ptxas"], t["m0"], t["m0"] / t["ptxas"], t["m1"], t["m1"] / t["ptxas"]))
