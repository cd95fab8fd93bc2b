#!/usr/bin/env bash
# misc.sh -- the SASS ptxas 13.0 selects for special registers, cache hints,
# cache policies and szext (tests/compile/misc/*.ptx, verified by compile.sh),
# and the clean refusals of what the compiler does not select.
. tests/cli/lib.bash

has() { # name sass-file fixed-string...
	local name=$1 f=$2 s; shift 2
	for s in "$@"; do
		if ! grep -qF -- "$s" "$f"; then echo "FAIL $name: no '$s' in $f"; return; fi
	done
	echo "PASS $name"
}

for a in sm_90 sm_80; do
	for t in sreg hints policy szext video; do
		"$OA" compile tests/compile/misc/$t.ptx --arch $a --out-dir "$tmp/$a" >/dev/null 2>&1 ||
			echo "FAIL misc_compile_${t}_$a"
	done
	has misc_sreg_$a "$tmp/$a/sass/sreg.sass" "S2R R" "SR_VIRTUALSMID" "SR_SMEMSZ" "c[0x0][0x10c]" \
		"c[0x0][0x114]" "c[0x0][0x2c]" "CS2R.32 R" "SR_GLOBALTIMERHI" "SR_CLOCKHI" "SR_PM3" "SR_PM5" \
		"SR_VIRTID" "SGXT.U32" "CS2R R"
	has misc_hints_$a "$tmp/$a/sass/hints.sass" "CCTL.E.PF1 [R" "CCTL.E.PF2 [R" "CCTL.E.PML2 [R" \
		"CCTL.E.RML2 [R" "CCTL.E.DML2 [R" "CCTLL.PF1 [R" "CCTLL.PF2 [R" "LDG.E.NA R" "LDG.E.EL R" \
		"LDG.E.EF R" "LDG.E.EU R" "LDG.E.LTC64B R" "LDG.E.LTC256B R" "LDG.E.EF.LTC256B R" "LD.E.EL R" \
		"LDG.E.EL.LTC128B.64 R" "STG.E.NA" "STG.E.EL" "STG.E.EU" "ST.E.NA" "STG.E.EL.128"
	has misc_policy_$a "$tmp/$a/sass/policy.sass" "0x14f00000" "0x13b00000" "0x10100000" "F2I.U32.TRUNC.NTZ" \
		"R2UR UR" "LDG.E R" "STG.E desc[UR"
	has misc_video_$a "$tmp/$a/sass/video.sass" "PRMT R" "0x8880, RZ" "0xbbb3, RZ" "0x7773, RZ" "0xbb32, RZ" \
		"0x7710, RZ" "IABS R" "SHF.R.S32.HI R" "0xff000000" "VABSDIFF4.U8 R" "VABSDIFF4.U8.ACC R"
	has misc_szext_$a "$tmp/$a/sass/szext.sass" "SGXT.W.U32 R" "SGXT.U32 R" "SGXT.W R" "SGXT R" "BMSK.W R" "BMSK R"
done
has misc_sm80_nwarpid "$tmp/sm_80/sass/sreg.sass" "MOV R" "0x40 ;" "c[0x0][0x88]" "c[0x0][0x104]"
has misc_sm90_nwarpid "$tmp/sm_90/sass/sreg.sass" "SR_VIRTCFG" "c[0x0][0x40]" "c[0x0][0xbc]"
has misc_sm80_nc_ltc "$tmp/sm_80/sass/hints.sass" "LDG.E.EL.LTC128B.CONSTANT"
has misc_sm90_nc_ltc "$tmp/sm_90/sass/hints.sass" "LDG.E.EL.LTC256B.CONSTANT"

# refused: file:line:col and the construct, exit 1
refuse() { # name arch construct-regexp ptx-body
	local name=$1 a=$2 want=$3
	printf '.version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n.reg .b32 %%r<4>;\n.reg .b64 %%rd<4>;\nld.param.u64 %%rd1, [p];\n%s\nret;\n}\n' "$4" > "$tmp/$name.ptx"
	"$OA" compile "$tmp/$name.ptx" --arch $a --out-dir "$tmp/r" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	if [ $rc -eq 1 ] && grep -qE "$name.ptx:[0-9]+:1: error: unsupported by the compiler for $a: .*$want" "$tmp/err"; then
		echo "PASS misc_refuse_$name"
	else echo "FAIL misc_refuse_$name: exit $rc"; head -3 "$tmp/err"; fi
}
refuse generic_hint sm_80 'generic ld/st for sm_80' \
	'createpolicy.fractional.L2::evict_last.b64 %rd2, 1.0;
ld.L2::cache_hint.u32 %r1, [%rd1], %rd2;
st.global.u32 [%rd1], %r1;'
refuse range sm_90 'createpolicy.range' \
	'createpolicy.range.L2::evict_last.L2::evict_first.b64 %rd2, [%rd1], 1024, 65536;
st.global.u64 [%rd1], %rd2;'
refuse aggr sm_90 'special register' \
	'mov.u32 %r1, %aggr_smem_size;
st.global.u32 [%rd1], %r1;'
refuse vmax_max sm_90 'ptxas takes .add only' \
	'ld.global.u32 %r1, [%rd1];
vmax4.u32.u32.u32.max %r2, %r1, %r1, %r1;
st.global.u32 [%rd1], %r2;'
refuse evict_cg sm_80 'an L1 eviction priority with a cache operator' \
	'ld.global.cg.L1::evict_last.u32 %r1, [%rd1];
st.global.u32 [%rd1], %r1;'
refuse alloca_align sm_80 'alloca with this alignment' \
	'alloca.u64 %rd2, 16, 3;
st.global.u64 [%rd1], %rd2;'
# atom/red .L2::cache_hint: sm_90 only (sm_80's tables lack ptxas's
# forms), and not on the CAS-loop paths (tests/compile/mem/atomhint.ptx)
refuse atom_hint_sm80 sm_80 'atom/red with .L2::cache_hint for sm_80' \
	'createpolicy.fractional.L2::evict_last.b64 %rd2, 1.0;
atom.global.L2::cache_hint.add.u32 %r1, [%rd1], 1, %rd2;
st.global.u32 [%rd1], %r1;'
refuse atom_hint_s64loop sm_90 'atom/red .L2::cache_hint with this operation' \
	'createpolicy.fractional.L2::evict_last.b64 %rd2, 1.0;
atom.global.L2::cache_hint.max.s64 %rd3, [%rd1], 1, %rd2;
st.global.u64 [%rd1], %rd3;'
refuse atom_cluster_sm80 sm_80 'atom/red with .cluster scope before sm_90' \
	'atom.relaxed.cluster.global.add.u32 %r1, [%rd1], 1;
st.global.u32 [%rd1], %r1;'
# real5's atom5.cu: the 128-bit atomics (sm_90)
refuse atom_b128 sm_90 'this atom/red operation and type on this state space' \
	'{ .reg .b128 c, n, r;
mov.b128 c, {%rd1, %rd1};
mov.b128 n, {%rd1, %rd1};
atom.global.cas.b128 r, [%rd1], c, n;
mov.b128 {%rd2, %rd3}, r; }
st.global.u64 [%rd1], %rd2;'
# (rcp.rp.f32 compiles since session 11: tests/compile/math/fdir; still refused:)
refuse rcp_approx64 sm_80 'rcp.approx.f64 without .ftz' \
	'ld.global.u64 %rd2, [%rd1];
{ .reg .f64 x, y;
mov.b64 x, %rd2;
rcp.approx.f64 y, x;
mov.b64 %rd2, y; }
st.global.u64 [%rd1], %rd2;'
# real6's asm6.cu: bf16 comparisons need sm_90 (no HSET2/HSETP2.BF16_V2 on sm_80; was an internal error)
refuse bf16_set sm_80 'bf16 set \(needs sm_90\)' \
	'ld.global.u32 %r1, [%rd1];
set.lt.u32.bf16x2 %r2, %r1, %r1;
st.global.u32 [%rd1], %r2;'
refuse bf16_setp sm_80 'bf16 setp \(needs sm_90\)' \
	'ld.global.u32 %r1, [%rd1];
{ .reg .pred p, q;
setp.lt.bf16x2 p|q, %r1, %r1;
selp.u32 %r2, 1, 0, q; }
st.global.u32 [%rd1], %r2;'
