#!/usr/bin/env bash
# extern.sh -- calls to the CUDA system externals (vprintf, malloc, free,
# __assertfail; docs/compiler-flow.md "Calls to system externals"): the
# cubin pieces the driver needs are there, as ptxas writes them, for both
# arches (tests/cli/compile.sh verifies the same kernels in the emulator).
. tests/cli/lib.bash
d=tests/compile/extern

# want NAME LISTING PATTERN: the listing has a line matching PATTERN
want() {
	if grep -Eq -- "$3" "$2"; then echo "PASS $1"
	else echo "FAIL $1: no line matching '$3'"; fi
}

for a in sm_90 sm_80; do
	for f in printf assert malloc; do
		case $f in
		printf) ext=vprintf ;;
		assert) ext=__assertfail ;;
		malloc) ext='malloc free' ;;
		esac
		if ! "$OA" compile $d/$f.ptx --arch $a --out-dir "$tmp/$a" >/dev/null 2>"$tmp/err"; then
			echo "FAIL extern_${f}_$a: does not compile"; head -5 "$tmp/err"; continue
		fi
		"$OA" disasm "$tmp/$a/cubin/$f.cubin" >"$tmp/l" 2>&1
		n=$(grep -c 'CALL.ABS.NOINC R' "$tmp/l")
		s=$(grep -o 'EIATTR_SYSCALL_OFFSETS.*' "$tmp/l" | wc -w)
		if [ "$n" -ge 1 ] && [ "$s" = $((n + 1)) ]; then echo "PASS extern_${f}_syscall_offsets_$a"
		else echo "FAIL extern_${f}_syscall_offsets_$a: $n CALL.ABS.NOINC, SYSCALL_OFFSETS has $((s - 1))"; fi
		want "extern_${f}_externs_$a" "$tmp/l" "EIATTR_EXTERNS $ext\$"
		want "extern_${f}_crs_$a" "$tmp/l" 'EIATTR_CRS_STACK_SIZE 0x0'
		for e in $ext; do
			want "extern_${f}_${e}_symbol_$a" "$tmp/l" "\.sym \"$e\" FUNC GLOBAL	"
			want "extern_${f}_${e}_reloc_$a" "$tmp/l" "\.reloc 0x[0-9a-f]+ R_CUDA_64 $e"
			want "extern_${f}_${e}_edge_$a" "$tmp/l" "\.edge k_$f $e\$"
		done
		if [ $a = sm_90 ]; then want "extern_${f}_lepc_$a" "$tmp/l" 'LEPC R20, `'
		else
			# LEPC's address + 0x40 must be the instruction after the CALL
			l=$(sed -n 's|.*/\*\([0-9a-f]*\)\*/   LEPC R20 ;.*|\1|p' "$tmp/l" | head -1)
			c=$(sed -n 's|.*/\*\([0-9a-f]*\)\*/   CALL.ABS.NOINC R2 ;.*|\1|p' "$tmp/l" | head -1)
			if [ -n "$l" ] && [ -n "$c" ] && [ $((0x$c - 0x$l)) = 48 ]; then echo "PASS extern_${f}_lepc_$a"
			else echo "FAIL extern_${f}_lepc_$a: LEPC at '$l', CALL at '$c' (want 0x30 apart)"; fi
		fi
		want "extern_${f}_slot_$a" "$tmp/l" 'LDC.64 R2, c\[0x4\]'
		# what the cubin says is what it holds: listed, assembled back, identical
		"$OA" as "$tmp/l" -o "$tmp/re.cubin" 2>/dev/null
		same "extern_${f}_reassembles_$a" "$tmp/$a/cubin/$f.cubin" "$tmp/re.cubin"
	done
done
# printf's format string is in .nv.global.init, relocated into c[0x4]
"$OA" disasm "$tmp/sm_90/cubin/printf.cubin" >"$tmp/p" 2>&1
want extern_printf_string_data "$tmp/p" '\.reloc 0x[0-9a-f]+ R_CUDA_64 \$str'

# another function without a body is still refused cleanly
cat > "$tmp/other.ptx" <<'P'
.version 8.0
.target sm_90
.address_size 64
.extern .func (.param .b32 r) puts(.param .b64 s);
.visible .entry k()
{
	.param .b64 p0;
	.param .b32 r0;
	st.param.b64 [p0], 0;
	call.uni (r0), puts, (p0);
	ret;
}
P
fails extern_other_refused "$OA" compile "$tmp/other.ptx" --arch sm_90 --out-dir "$tmp/o"

# the emulator runs our cubins' calls: printf prints what the interpreter
# prints (as sorted lines: threads print in no defined order), a failed
# assert prints CUDA's message and stops both with an error
for a in sm_90 sm_80; do
	"$OA" emu "$tmp/$a/cubin/printf.cubin" --spec $d/printf.spec.json -o "$tmp/o" 2>/dev/null | sort >"$tmp/pe"
	"$OA" emu --ptx $d/printf.ptx --spec $d/printf.spec.json -o "$tmp/o" 2>/dev/null | sort >"$tmp/pi"
	if [ "$(wc -l <"$tmp/pe")" = 12 ] && grep -q '^\[odd\] p=0x1001 f=12.000000 e=1.000000e-03 g=0.25 ld=-1 lld=2501999792982 llx=2468acf1356     1|1   |03.14%$' "$tmp/pe"; then
		same "extern_printf_text_$a" "$tmp/pe" "$tmp/pi"
	else echo "FAIL extern_printf_text_$a: the emulator printed $(wc -l <"$tmp/pe") lines, not the expected ones"; fi
	sed 's/"start": 3/"start": -3/' $d/assert.spec.json >"$tmp/neg.spec.json"
	for side in emu interp; do
		if [ $side = emu ]; then "$OA" emu "$tmp/$a/cubin/assert.cubin" --spec "$tmp/neg.spec.json" -o "$tmp/o" >"$tmp/am" 2>&1
		else "$OA" emu --ptx $d/assert.ptx --spec "$tmp/neg.spec.json" -o "$tmp/o" >"$tmp/am" 2>&1; fi
		rc=$?
		if [ $rc = 1 ] && grep -q 'block: \[0,0,0\], thread: \[0,0,0\] Assertion `a\[t\] >= 0` failed\.$' "$tmp/am" &&
		   grep -q 'error:.*assertion failed' "$tmp/am"; then echo "PASS extern_assert_fails_${side}_$a"
		else echo "FAIL extern_assert_fails_${side}_$a: exit $rc"; head -3 "$tmp/am"; fi
	done
done

# the second kernel of guarded.ptx (compile.sh verifies the first): both
# kernels name the one vprintf symbol, each has its own EXTERNS and edge
for a in sm_90 sm_80; do
	ok "extern_second_kernel_verifies_$a" "$OA" compile $d/guarded.ptx --arch $a --out-dir "$tmp/g" \
		--spec $d/guarded.k2.spec.json --verify
	"$OA" disasm "$tmp/g/cubin/guarded.cubin" >"$tmp/gl" 2>&1
	n=$(grep -c '\.sym "vprintf" FUNC GLOBAL' "$tmp/gl"); e=$(grep -c 'EIATTR_EXTERNS vprintf' "$tmp/gl")
	if [ "$n" = 1 ] && [ "$e" = 2 ] && grep -q '\.edge k1 vprintf' "$tmp/gl" && grep -q '\.edge k2 vprintf' "$tmp/gl"
	then echo "PASS extern_two_kernels_$a"
	else echo "FAIL extern_two_kernels_$a: $n vprintf symbols, $e EXTERNS records"; fi
done

# a system external declared with a parameter the register ABI does not
# cover here (a 16-byte aggregate) is refused cleanly
cat > "$tmp/agg.ptx" <<'P'
.version 8.0
.target sm_90
.address_size 64
.extern .func (.param .b32 r) vprintf(.param .b64 f, .param .align 8 .b8 a[16]);
.visible .entry k()
{
	.param .b64 p0;
	.param .align 8 .b8 p1[16];
	.param .b32 r0;
	st.param.b64 [p0], 0;
	st.param.b64 [p1], 0;
	st.param.b64 [p1+8], 0;
	call.uni (r0), vprintf, (p0, p1);
	ret;
}
P
fails extern_aggregate_param_refused "$OA" compile "$tmp/agg.ptx" --arch sm_90 --out-dir "$tmp/a"
grep -q 'not 4 or 8 bytes' "$tmp/err" && echo "PASS extern_aggregate_param_message" ||
	echo "FAIL extern_aggregate_param_message: $(head -1 "$tmp/err")"
