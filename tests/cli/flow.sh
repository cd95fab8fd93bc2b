#!/usr/bin/env bash
# flow.sh -- the compiler's control flow, calls and spilling
# (docs/compiler-flow.md), beyond "it verifies" (tests/cli/compile.sh runs
# the focused cases in tests/compile/flow/ under the emulator):
# reconvergence brackets only divergent regions, spilling keeps .maxnreg
# and reserves a frame, calls use CALL/RET, unsupported forms fail cleanly.
. tests/cli/lib.bash
d=tests/compile/flow

sass() { # ptx arch -> listing on stdout (mined: safe control bits are being reworked)
	"$OA" compile "$1" --arch "$2" --opt-level mined --out-dir "$tmp/s" -o k >/dev/null 2>&1 && cat "$tmp/s/sass/"*.sass
}
count() { grep -c -- "$1" || true; }

for a in sm_90 sm_80; do
	n=$(sass $d/diverge.ptx $a | count 'BSSY B')
	m=$(sass $d/diverge.ptx $a | count 'BSYNC B')
	if [ "$n" -ge 3 ] && [ "$n" = "$m" ]; then echo "PASS flow_bssy_divergent_$a"
	else echo "FAIL flow_bssy_divergent_$a: $n BSSY, $m BSYNC (want >= 3, equal)"; fi
	n=$(sass $d/uniform.ptx $a | count 'BSSY')
	if [ "$n" = 0 ]; then echo "PASS flow_no_bssy_uniform_$a"
	else echo "FAIL flow_no_bssy_uniform_$a: $n BSSY around uniform branches"; fi
	# nested regions use different B registers
	n=$(sass $d/diverge.ptx $a | grep -o 'BSSY B[0-9]*' | sort -u | wc -l)
	if [ "$n" -ge 2 ]; then echo "PASS flow_nested_bregs_$a"
	else echo "FAIL flow_nested_bregs_$a: one B register for nested regions"; fi
	# @p bra to an exit becomes @p EXIT
	if sass $d/diverge.ptx $a | grep -q '@P[0-6] EXIT'; then echo "PASS flow_exit_threading_$a"
	else echo "FAIL flow_exit_threading_$a: no @P EXIT"; fi
done

# spilling: .maxnreg 32 is kept, slots are stored and loaded, a frame is reserved
out=$("$OA" compile $d/spill.ptx --arch sm_90 --opt-level mined --out-dir "$tmp/sp" -v 2>&1)
regs=$(printf '%s\n' "$out" | sed -n 's/.*Used \([0-9]*\) registers.*/\1/p' | head -1)
if [ -n "$regs" ] && [ "$regs" -le 32 ]; then echo "PASS flow_spill_maxnreg"
else echo "FAIL flow_spill_maxnreg: used '$regs' registers under .maxnreg 32"; fi
s=$(cat "$tmp/sp/sass/"*.sass)
if printf '%s' "$s" | grep -q 'STL' && printf '%s' "$s" | grep -q 'LDL' &&
   printf '%s' "$s" | grep -q 'IADD3 R1, R1, -0x'; then echo "PASS flow_spill_code"
else echo "FAIL flow_spill_code: no STL/LDL or no frame"; fi
if printf '%s' "$s" | grep -q 'SEL R[0-9]*, RZ, 0x1, !P'; then echo "PASS flow_spill_predicates"
else echo "FAIL flow_spill_predicates: predicates not spilled through SEL"; fi
ok flow_spill_frame_attr grep -q 'stack frame' <(printf '%s\n' "$out" | grep -v ' 0 bytes stack frame')

# brx.idx becomes a compare chain: one ISETP per table entry but the last
n=$(sass $d/brx.ptx sm_90 | count 'ISETP.EQ.U32.AND')
if [ "$n" -ge 6 ]; then echo "PASS flow_brx_chain"; else echo "FAIL flow_brx_chain: $n compares"; fi

# calls: direct, recursive, indirect
s=$(sass $d/calls.ptx sm_90)
if printf '%s' "$s" | grep -q 'CALL.REL.NOINC' && printf '%s' "$s" | grep -q 'RET.REL.NODEC'; then
	echo "PASS flow_calls_code"
else echo "FAIL flow_calls_code: no CALL/RET"; fi

# unsupported forms: a clean error, exit 1
cat > "$tmp/nobody.ptx" <<'P'
.version 8.0
.target sm_90
.address_size 64
.extern .func g();
.visible .entry k()
{
	call g, ();
	ret;
}
P
fails flow_call_without_body "$OA" compile "$tmp/nobody.ptx" --arch sm_90 --out-dir "$tmp/b"

# OA_LONG: every kernel of tests/compile/expect.txt again under .maxnreg 16
# (the allocator's floor), so that most of them spill: they must still verify.
if [ -n "$OA_LONG" ]; then
	while read -r k a; do
		case "$k" in ''|'#'*) continue ;; esac
		python3 - "tests/kernels/$k/kernel.$a.ptx" "$tmp/m16.ptx" <<'P' || { skip "flow_maxnreg16_${k}_$a" "no python3"; continue; }
import re, sys
s = open(sys.argv[1]).read()
s = re.sub(r'(\.entry\s+\w+\s*\((?:[^()]|\([^)]*\))*\))', r'\1\n.maxnreg 16', s)
open(sys.argv[2], 'w').write(s)
P
		out=$("$OA" compile "$tmp/m16.ptx" --arch "$a" --opt-level opt --out-dir "$tmp/m" -o m \
			--spec "tests/kernels/$k/spec.json" --verify 2>&1)
		if [ $? -eq 0 ]; then echo "PASS flow_maxnreg16_${k}_$a"
		else echo "FAIL flow_maxnreg16_${k}_$a"; printf '%s\n' "$out" | tail -2; fi
	done < tests/compile/expect.txt
fi
