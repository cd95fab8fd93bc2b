# lat-sweep.sh -- mkcubin's "sass" directive, and tools/lat-sweep on the CPU:
# the sweep run in the emulator's timing mode must find exactly the
# distances the hazard checker derives from the same latency table (both
# use lat_need; the emulator by running, the checker by reading).
. tests/cli/lib.bash
cat > "$tmp/k.sass" <<'S'
        MOV R2, 0x1 ;   /* [B------:R-:W-:Y:S04] */
top:
        @!PT BRA `(top) ;   /* [B------:R-:W-:Y:S05] */
        EXIT ;   /* [B------:R-:W-:-:S05] */
end:
        BRA `(end) ;   /* [B------:R-:W-:Y:S00] */
S
printf 'kernel k\ntarget sm_90\nregs 8\nsass k.sass\n' > "$tmp/k.desc"
"$OA" mkcubin "$tmp/k.desc" -o "$tmp/k.cubin" > "$tmp/out" 2>&1 &&
	"$OA" disasm "$tmp/k.cubin" | grep -q 'MOV R2, 0x1 ;   /\* \[B------:R-:W-:Y:S04\] \*/' &&
	"$OA" disasm "$tmp/k.cubin" | grep -q '/\*0010\*/   @!PT BRA `(.L_x_0) ;' &&
	echo "PASS mkcubin_sass" || { echo "FAIL mkcubin_sass"; head -5 "$tmp/out"; }
echo "        FROB R1 ;" >> "$tmp/k.sass"
fails mkcubin_sass_bad_insn "$OA" mkcubin "$tmp/k.desc" -o "$tmp/k2.cubin"
printf 'kernel k\nsass k.sass\n' > "$tmp/k3.desc"
fails mkcubin_sass_needs_target "$OA" mkcubin "$tmp/k3.desc" -o "$tmp/k3.cubin"
# a 64-bit operand in an odd register (the first GPU sweep's IMAD.HI R20,
# R7, R8, R9) is illegal on the H200; the emulator refuses the same forms
OA="$OA" tools/lat-sweep --pairs --emu > "$tmp/pairs" 2>&1 &&
	grep -q "^# 0 of 16 probes differ from the H200" "$tmp/pairs" &&
	grep -q "imadhi_odd .*operand 4 (R9) is a register pair" "$tmp/pairs" &&
	echo "PASS lat_sweep_pairs_emu_as_h200" || { echo "FAIL lat_sweep_pairs_emu_as_h200"; grep -v "H200 refused .*unsupp\|ran .*H200 ran" "$tmp/pairs" | head -5; }

OA="$OA" tools/lat-sweep --emu --warps 1 --out "$tmp/emu.txt" > /dev/null 2> "$tmp/err1"
OA="$OA" tools/lat-sweep --check --warps 1 --out "$tmp/chk.txt" > /dev/null 2> "$tmp/err2"
n=$(grep -c '^measured ' "$tmp/emu.txt" 2>/dev/null)
if [ "${n:-0}" -ge 80 ] && diff <(sed 1d "$tmp/emu.txt") <(sed 1d "$tmp/chk.txt") > "$tmp/d"; then
	echo "PASS lat_sweep_emu_recovers_table ($n pairs)"
else
	echo "FAIL lat_sweep_emu_recovers_table ($n pairs)"; head -5 "$tmp/d" "$tmp/err1" "$tmp/err2"
fi
# the numbers are the table's (specs/sm_90/latency.txt read by the tool:
# every pair it has a number for): FFMA -> IMAD.MOV 4 (fma), ISETP -> guard 13;
# but for the high half of IMAD.WIDE read by an ALU op, 5 as on the H200
# (LAT_WIDE_HI; the table, without operand halves, says 3)
grep -q "^# 1 pairs differ from ptxas's table (measured/ptxas): IMAD.WIDE->hi 5/3$" "$tmp/emu.txt" &&
grep -q '^measured IMAD.WIDE .* hi .* safe=5 ' "$tmp/emu.txt" &&
grep -q '^measured FFMA .* fma .* safe=4 ' "$tmp/emu.txt" &&
grep -q '^measured ISETP .* guard .* safe=13 ' "$tmp/emu.txt" &&
	echo "PASS lat_sweep_known_pairs" || echo "FAIL lat_sweep_known_pairs"
OA="$OA" tools/lat-sweep --gpu --only FADD --warps 1 > "$tmp/gpu" 2>&1
rc=$?
if [ $rc -eq 2 ]; then
	grep -q 'no GPU' "$tmp/gpu" && echo "PASS lat_sweep_says_no_gpu" || echo "FAIL lat_sweep_says_no_gpu"
else
	skip lat_sweep_says_no_gpu "a CUDA driver is present (exit $rc)"
fi
# the --gpu path (oa-gpucheck --dump, raw buffers) with a stand-in runner
# that runs the emulator: the same table as --emu
mkdir -p "$tmp/fake"
ln -s "$(cd "$(dirname "$OA")" && pwd)/$(basename "$OA")" "$tmp/fake/openassembler"
cat > "$tmp/fake/oa-gpucheck" <<'P'
#!/usr/bin/env python3
import os, re, struct, subprocess, sys
a = sys.argv[1:]
spec, dump = a[a.index("--spec") + 1], a[a.index("--dump") + 1]
oa = os.path.join(os.path.dirname(sys.argv[0]), "openassembler")
print("gpucheck: device stand-in (sm_90)")
bad = os.environ.get("FAKE_FAULT", "-") + ".cubin"   # faults, and spoils the rest
fault = False
for f in [x for x in a if x.endswith(".cubin")]:
    open(os.environ["FAKE_LOG"], "a").write("%s %s\n" % (spec, os.path.basename(f)))
    if fault or f.endswith("/" + bad):
        print("FAIL %s %s: CUDA_ERROR_ILLEGAL_INSTRUCTION (715)" % ("load" if fault else "run", f))
        fault = True
        continue
    t = subprocess.run([oa, "emu", f, "--spec", spec, "--timing"], stdout=subprocess.PIPE,
                       universal_newlines=True, check=True).stdout
    v = [int(m.group(1)) for m in re.finditer(r"out\[\d+\] = (\d+)", t)]
    open(os.path.join(dump, os.path.basename(f) + ".out"), "wb").write(struct.pack("<%dI" % len(v), *v))
P
chmod +x "$tmp/fake/oa-gpucheck"
# IMAD.HI faults in the stand-in: every other class still gets its data
# (run alone after the failed process), at both warp counts; IMAD.HI runs
# twice (with all, then alone) and not at all with 2 warps
FAKE_FAULT=IMAD.HI FAKE_LOG="$tmp/fake.log" OA="$tmp/fake/openassembler" \
	tools/lat-sweep --gpu --only FADD,IMAD.HI,ISETP,DFMA --warps 1,2 --out "$tmp/g.txt" > /dev/null 2> "$tmp/err3"
OA="$OA" tools/lat-sweep --emu --only FADD,ISETP,DFMA --warps 1,2 --out "$tmp/e.txt" > /dev/null 2> "$tmp/err4"
n=$(grep -c "^measured" "$tmp/g.txt"); grep -q "stand-in" "$tmp/g.txt" && [ "$n" = 10 ] &&
	grep -q "^# no data (the launch failed; see the log): IMAD.HI$" "$tmp/g.txt" &&
	[ "$(grep -c IMAD.HI "$tmp/fake.log")" = 2 ] && ! grep -q "w2.json IMAD.HI" "$tmp/fake.log" &&
	[ "$(grep -c "w2.json" "$tmp/fake.log")" = 3 ] &&
	diff <(sed 1d "$tmp/g.txt" | grep -v "^# no data") <(sed 1d "$tmp/e.txt") > "$tmp/d2" &&
	echo "PASS lat_sweep_gpu_path" || { echo "FAIL lat_sweep_gpu_path"; head -5 "$tmp/d2" "$tmp/err3" "$tmp/fake.log"; }
