#!/usr/bin/env bash
# fold.sh -- constants as operands (src/codegen/peep_fold.c,
# peep_combine.c): at --opt-level opt the listing of
# tests/compile/fold/imm.ptx has each constant inside its reader, in the
# slot's own spelling, and no MOV of it left; compile.sh verifies the same
# kernel against the interpreter at every level (tests/compile/cases.txt).
. tests/cli/lib.bash
src=tests/compile/fold/imm.ptx

has() { # name sass regex: the listing has an instruction matching regex
	if grep -qE "^\s+/\*[0-9a-f]{4}\*/\s+$3 ;" "$2"; then echo "PASS $1"
	else echo "FAIL $1: no instruction matches '$3' in $2"; fi
}
hasnt() {
	if grep -qE "^\s+/\*[0-9a-f]{4}\*/\s+$3 ;" "$2"; then echo "FAIL $1: '$3' is still in $2"
	else echo "PASS $1"; fi
}

R='R[0-9]+'
for a in 90 80; do
	if ! "$OA" compile $src --arch sm_$a --opt-level opt --out-dir "$tmp/$a" >/dev/null 2>"$tmp/err"; then
		echo "FAIL fold_compile_sm_$a"; head -3 "$tmp/err"; continue
	fi
	s="$tmp/$a/sass/imm.sass"
	has fold_f32_sm_$a "$s" "FFMA $R, $R, 1.4426950216293334961, -RZ"
	hasnt fold_f32_mov_gone_sm_$a "$s" "MOV $R, 0x3fb8aa3b"
	has fold_f32_neg_sm_$a "$s" "FADD $R, $R, -1"
	has fold_f32_minmax_sm_$a "$s" "FMNMX $R, $R, -0.5, !PT"
	has fold_f16_scalar_sm_$a "$s" "HADD2 $R, $R\.H0_H0, 1, 1"
	has fold_f16_pair_order_sm_$a "$s" "HFMA2(\.MMA)? $R, $R, 2, -1, $R"
	has fold_bf16_pair_order_sm_$a "$s" "HFMA2(\.MMA)?\.BF16_V2 $R, $R, 1, -2, $R"
	has fold_f16_setp_sm_$a "$s" "HSETP2\.GT\.AND P[0-9], PT, $R\.H0_H0, 0\.5, 0\.5, PT"
	has fold_f64_sm_$a "$s" "DADD $R, $R, 0\.5"
	has fold_f64_neg_sm_$a "$s" "DADD $R, $R, -10"
	has fold_f64_fma_sm_$a "$s" "DFMA $R, $R, -3, $R"
	has fold_int_commuted_sm_$a "$s" "IADD3 $R, -$R, 0x3e8, RZ"
	has fold_int_signed_sm_$a "$s" "IADD3 $R, $R, -0x11, RZ"
	has fold_int_rz_sm_$a "$s" "SEL $R, RZ, $R, P[0-9]"
done
has fold_cbank_pair_sm_80 "$tmp/80/sass/imm.sass" "IMAD\.WIDE\.U32 $R, $R, $R, c\[0x0\]\[0x170\]"
has fold_cbank_sm_80 "$tmp/80/sass/imm.sass" "FADD $R, $R, c\[0x0\]\[0x190\]"
has fold_uniform_sm_90 "$tmp/90/sass/imm.sass" "FADD $R, $R, UR[0-9]+"
for a in 90 80; do
	s="$tmp/$a/sass/imm.sass"
	has fold_setp_xor_sm_$a "$s" "FSETP\.GT\.XOR P[0-9], PT, $R, RZ, P[0-9]"
	has fold_setp_or_sm_$a "$s" "FSETP\.GE\.OR P[0-9], PT, $R, 10, P[0-9]"
done
for a in 90 80; do
	has fold_f64_zero_pair_sm_$a "$tmp/$a/sass/imm.sass" "DFMA $R, $R, -1, RZ"
done
for a in 90 80; do
	has fold_not_pred_sm_$a "$tmp/$a/sass/imm.sass" "ISETP\.NE\.U32\.AND P[0-9], PT, $R, 0x7, !P[0-9]"
	hasnt fold_not_plop3_gone_sm_$a "$tmp/$a/sass/imm.sass" "PLOP3\.LUT .*"
done
has fold_shared_address_sm_80 "$tmp/80/sass/imm.sass" "@P[0-9] STS \[0x8\], $R"
has fold_shared_address_ld_sm_80 "$tmp/80/sass/imm.sass" "@P[0-9] LDS $R, \[0x8\]"
# the stack pointer load goes when nothing uses the stack, stays otherwise
hasnt fold_no_stack_sm_80 "$tmp/80/sass/imm.sass" "MOV R1, c\[0x0\]\[0x28\]"
hasnt fold_no_stack_sm_90 "$tmp/90/sass/imm.sass" "LDC R1, c\[0x0\]\[0x28\]"
for a in 90 80; do
	"$OA" compile tests/kernels/local_array/kernel.sm_$a.ptx --arch sm_$a --opt-level opt --out-dir "$tmp/l$a" >/dev/null 2>&1
	has fold_stack_kept_sm_$a "$tmp/l$a/sass/kernel.sm_$a.sass" "(MOV|LDC) R1, c\[0x0\]\[0x28\]"
done
# a bit test: LOP3's own predicate output (EQ: the reader takes !p)
for a in 90 80; do
	has fold_lop_pred_eq_sm_$a "$tmp/$a/sass/imm.sass" "LOP3\.LUT P[0-9], RZ, $R, 0x4, RZ, 0xc0, !PT"
	has fold_lop_pred_eq_reader_sm_$a "$tmp/$a/sass/imm.sass" "SEL $R, $R, 0xa, !P[0-9]"
	has fold_lop_pred_ne_sm_$a "$tmp/$a/sass/imm.sass" "LOP3\.LUT P[0-9], RZ, $R, 0x8, RZ, 0xc0, !PT"
done
# a predicate through an integer (selp 1, 0; setp.eq) and back is !p
for a in 90 80; do
	has fold_pred_roundtrip_sm_$a "$tmp/$a/sass/imm.sass" "SEL $R, $R, 0xe, !P[0-9]"
done
# a .const word at a fixed address is read straight from bank 3 (sm_80)
has fold_bank3_sm_80 "$tmp/80/sass/imm.sass" "FFMA $R, $R, $R, c\[0x3\]\[0x8\]"
