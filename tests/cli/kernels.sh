# kernels.sh -- launch specifications through the CLI, and the kernel suite's generated files:
#   openassembler spec: every suite spec checks; malformed specs fail with file:line:col errors;
#   spec --init writes the documented initial contents;
#   regen --check: the committed PTX is what nvcc 13.0 produces now (SKIP without nvcc);
#   OA_LONG=1 only: hostsim (each kernel.cu run as host C++ matches its ref.c, ~90 s) and
#   tools/spec-init (a Python reimplementation from the docs) agrees with spec --init.
source tests/cli/lib.bash

ok spec_check_suite "$OA" spec tests/kernels/*/spec.json
fails spec_no_file "$OA" spec
fails spec_init_two "$OA" spec --init tests/kernels/ew_s32/spec.json tests/kernels/ew_u64/spec.json
fails spec_missing_file "$OA" spec "$tmp/nonexistent.json"

bad() {	# name json expected-message
	printf '%s\n' "$2" >"$tmp/$1.json"
	"$OA" spec "$tmp/$1.json" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	if [ $rc -eq 1 ] && grep -q "^$tmp/$1.json:[0-9]*:[0-9]*: error: .*$3" "$tmp/err" && grep -q '\^' "$tmp/err"
	then echo "PASS spec_bad_$1"
	else echo "FAIL spec_bad_$1: exit $rc, want 1 and '$3' with a position and caret"; head -3 "$tmp/err"; fi
}
bad json '{"args": [1,]}' 'unexpected character'
bad unknown_key '{"args": [], "blok": [1]}' 'unknown key "blok" in the spec'
bad count '{"args": [{"name": "x", "buffer": "f32", "count": 0}]}' 'count must be an integer'
bad type '{"args": [{"name": "x", "buffer": "f8", "count": 1}]}' 'unknown element type "f8"'
bad fits '{"args": [{"name": "n", "scalar": "u8", "value": 256}]}' 'value 256 does not fit u8'
bad check '{"args": [{"name": "x", "buffer": "f32", "count": 1, "check": {"exact": true, "ulp": 1}}]}' '"exact" excludes'
bad block '{"block": [64, 64], "args": []}' 'more than 1024 threads'

"$OA" spec --init tests/kernels/ew_saxpy_f32/spec.json >"$tmp/init" 2>"$tmp/err"
if [ $? -eq 0 ] && [ "$(grep -c '^x\[' "$tmp/init")" = 1000 ] && grep -qx 'y\[3\] = 1.5' "$tmp/init" &&
   grep -qx 'y\[999\] = 499.5' "$tmp/init"
then echo "PASS spec_init_saxpy"; else echo "FAIL spec_init_saxpy"; head -3 "$tmp/err"; fi

tests/kernels/regen --check
if [ "${OA_LONG:-0}" = 1 ]; then
	tests/kernels/hostsim/run
	if command -v python3 >/dev/null; then
		n=0
		for s in tests/kernels/*/spec.json; do
			"$OA" spec --init "$s" >"$tmp/c.txt" && tools/spec-init "$s" >"$tmp/p.txt" &&
				cmp -s "$tmp/c.txt" "$tmp/p.txt" || { echo "FAIL spec_init_python: $s"; n=1; }
		done
		[ $n = 0 ] && echo "PASS spec_init_python"
	else
		skip spec_init_python "no python3"
	fi
else
	skip kernels_hostsim "long test (make check-long)"
	skip spec_init_python "long test (make check-long)"
fi
