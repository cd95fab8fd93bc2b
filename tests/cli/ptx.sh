# ptx.sh -- the PTX front end: every module of the kernel suite, the
# CUB/Thrust corpus and the hand-written family tests parses and checks;
# --dump round-trips; each line of tests/ptx/invalid/cases.txt and each
# tests/ptx/invalid/*.ptx fails with its expected message at its position.
. tests/cli/lib.bash

n=0; bad=0
for f in tests/kernels/*/*.ptx tests/ptx/corpus/*.ptx tests/ptx/valid/*.ptx; do
	[ -e "$f" ] || continue
	n=$((n + 1))
	if ! "$OA" parse -q "$f" 2>"$tmp/err"; then
		bad=$((bad + 1)); echo "  $f:"; head -3 "$tmp/err"
	fi
done
[ "$bad" -eq 0 ] && [ "$n" -gt 20 ] && echo "PASS ptx_parse_all ($n modules)" || echo "FAIL ptx_parse_all: $bad of $n modules failed"

ok ptx_summary "$OA" parse tests/ptx/valid/int.ptx
grep -q 'int.ptx: PTX 8.0 sm_80: 1 entries, 0 functions, 0 variables, 96 registers, 123 instructions' "$tmp/out" &&
	echo "PASS ptx_summary_line" || { echo "FAIL ptx_summary_line"; cat "$tmp/out"; }

bad=0
for f in tests/ptx/corpus/*.ptx tests/ptx/valid/*.ptx tests/kernels/*/kernel.sm_90.ptx; do
	[ -e "$f" ] || continue
	"$OA" parse --dump "$f" >"$tmp/d1.ptx" 2>/dev/null &&
	"$OA" parse --dump "$tmp/d1.ptx" >"$tmp/d2.ptx" 2>"$tmp/err" &&
	cmp -s "$tmp/d1.ptx" "$tmp/d2.ptx" || { bad=$((bad + 1)); echo "  round trip: $f"; head -3 "$tmp/err"; }
done
[ "$bad" -eq 0 ] && echo "PASS ptx_dump_roundtrip" || echo "FAIL ptx_dump_roundtrip: $bad modules"

# One-instruction invalid cases.
bad=0; n=0
while IFS= read -r line; do
	case $line in '#'*|'') continue;; esac
	target=${line%% | *}; rest=${line#* | }
	instr=${rest%% | *}; msg=${rest#* | }
	n=$((n + 1))
	awk -v t="$target" -v i="	$instr" '{ gsub("@TARGET@", t); if ($0 == "@INSTR@") print i; else print }' \
		tests/ptx/invalid/preamble.ptx >"$tmp/case.ptx"
	"$OA" parse "$tmp/case.ptx" >/dev/null 2>"$tmp/err"; rc=$?
	case $msg in
	ok-*) [ $rc -eq 0 ] || { bad=$((bad + 1)); echo "  should pass: $instr"; head -2 "$tmp/err"; } ;;
	*)	if [ $rc -ne 1 ] || ! grep -qF "case.ptx:21:" "$tmp/err" || ! grep -qF -- "$msg" "$tmp/err" ||
		   [ "$(sed -n 3p "$tmp/err" | tr -d ' \t')" != "^" ]; then
			bad=$((bad + 1)); echo "  case: $instr (want: $msg, rc $rc)"; head -3 "$tmp/err"
		fi ;;
	esac
done < tests/ptx/invalid/cases.txt
[ "$bad" -eq 0 ] && echo "PASS ptx_invalid_cases ($n)" || echo "FAIL ptx_invalid_cases: $bad of $n"

# Whole-module invalid files: first line "// expect: LINE:COL: message".
bad=0; n=0
for f in tests/ptx/invalid/*.ptx; do
	[ "$f" = tests/ptx/invalid/preamble.ptx ] && continue
	n=$((n + 1))
	want=$(sed -n '1s|^// expect: ||p' "$f")
	"$OA" parse "$f" >/dev/null 2>"$tmp/err"; rc=$?
	if [ $rc -ne 1 ] || ! grep -qF -- "$f:$want" "$tmp/err"; then
		bad=$((bad + 1)); echo "  $f: want '$want', rc $rc"; head -3 "$tmp/err"
	fi
done
[ "$bad" -eq 0 ] && echo "PASS ptx_invalid_files ($n)" || echo "FAIL ptx_invalid_files: $bad of $n"

fails ptx_no_file "$OA" parse tests/ptx/no-such-file.ptx
fails ptx_no_args "$OA" parse
ok ptx_help "$OA" parse --help

# Coverage: the lexical opcode count agrees with the parser's instruction
# count, every opcode of the family tests is known, interp support is shown.
"$OA" coverage tests/ptx/valid >"$tmp/cov" 2>"$tmp/err"
lex=$(awk '/^opcode/{f=1;next} /^directive/{f=0} f&&NF>=5{s+=$2} END{print s+0}' "$tmp/cov")
prs=$(for f in tests/ptx/valid/*.ptx; do "$OA" parse "$f"; done | awk '{s+=$(NF-1)} END{print s+0}')
nv=$(ls tests/ptx/valid/*.ptx | wc -l)
if [ "$lex" = "$prs" ] && [ "$lex" -gt 900 ] && grep -q "^files: $nv, $nv parse and check, 0 fail" "$tmp/cov" &&
   grep -q '^wgmma.mma_async  *4  *1  yes  ' "$tmp/cov" && ! grep -q ' partial ' "$tmp/cov"; then
	echo "PASS ptx_coverage ($lex instructions)"
else
	echo "FAIL ptx_coverage: lexical $lex vs parsed $prs"; head -5 "$tmp/cov"
fi
"$OA" coverage tests/ptx/invalid >"$tmp/cov" 2>&1
grep -q 'parse and check, [1-9][0-9]* fail' "$tmp/cov" && grep -q 'frobnicate' "$tmp/cov" &&
	echo "PASS ptx_coverage_failures" || echo "FAIL ptx_coverage_failures"
fails ptx_coverage_noargs "$OA" coverage

# Long (make check-long): ptxas compiles our --dump of every corpus and
# family module to the same SASS as the original, function by function
# (needs ptxas and the nvdisasm oracle).
if [ -z "${OA_LONG:-}" ]; then
	skip ptx_dump_same_sass "long test (make check-long)"
elif ! command -v ptxas >/dev/null || [ ! -x oracle/nvdisasm ]; then
	skip ptx_dump_same_sass "needs ptxas and oracle/nvdisasm"
else
	bad=0; n=0
	# ptxas numbers the symbols of function-scope variables (__25) by
	# declaration order; our dump hoists declarations, so ignore the numbers
	norm='s/(\$[A-Za-z0-9_$]*)__[0-9]+/\1__N/g'
	for f in tests/ptx/corpus/*.ptx tests/ptx/valid/*.ptx; do
		arch=$(grep -o 'sm_[0-9]*a*' "$f" | head -1)
		n=$((n + 1))
		"$OA" parse --dump "$f" >"$tmp/d.ptx" &&
		ptxas -c -arch="$arch" "$f" -o "$tmp/a.cubin" 2>/dev/null &&
		ptxas -c -arch="$arch" "$tmp/d.ptx" -o "$tmp/b.cubin" 2>/dev/null &&
		oracle/nvdisasm "$tmp/a.cubin" | awk -f tests/ptx/sass-by-function.awk | sed -E "$norm" | sort >"$tmp/a.sass" &&
		oracle/nvdisasm "$tmp/b.cubin" | awk -f tests/ptx/sass-by-function.awk | sed -E "$norm" | sort >"$tmp/b.sass" &&
		[ -s "$tmp/a.sass" ] && cmp -s "$tmp/a.sass" "$tmp/b.sass" || { bad=$((bad + 1)); echo "  SASS differs: $f"; }
	done
	[ $bad -eq 0 ] && echo "PASS ptx_dump_same_sass ($n modules)" || echo "FAIL ptx_dump_same_sass: $bad of $n"
fi
