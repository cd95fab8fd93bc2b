#!/usr/bin/env bash
# hopper.sh -- sm_90a wgmma in the compiler (src/codegen/isel_wgmma.c):
# the SASS forms ptxas uses, and clean "unsupported" errors for what is
# not done (the verified runs are tests/compile/wgmma/ in cases.txt).
. tests/cli/lib.bash
w=tests/compile/wgmma
"$OA" compile $w/f16.ptx --arch sm_90 --out-dir "$tmp/f" >/dev/null 2>&1
s="$tmp/f/sass/f16.sass"
ok wgmma_arrive grep -q 'WARPGROUP.ARRIVE ;' "$s"
ok wgmma_r2ur grep -q 'R2UR UR[0-9]*, R[0-9]* ;' "$s"
# the first mma of a chain has no gsb0, the last before commit_group has
ok wgmma_chain grep -Eq 'HGMMA.64x32x16.F32 (R[0-9]+), gdesc\[UR[0-9]+\], \1 ;' "$s"
ok wgmma_chain_gsb0 grep -Eq 'HGMMA.64x32x16.F32 (R[0-9]+), gdesc\[UR[0-9]+\], \1, gsb0 ;' "$s"
ok wgmma_scale_d0 grep -Eq 'HGMMA.64x16x16.F16 R[0-9]+, gdesc\[UR[0-9]+\], RZ, !UPT, gsb0 ;' "$s"
ok wgmma_wait1 grep -q 'WARPGROUP.DEPBAR.LE gsb0, 0x1 ;' "$s"
ok wgmma_wait0 grep -q 'WARPGROUP.DEPBAR.LE gsb0, 0x0 ;' "$s"
ok wgmma_fence_proxy grep -q 'FENCE.VIEW.ASYNC.S ;' "$s"
"$OA" compile $w/types.ptx --arch sm_90 --out-dir "$tmp/t" >/dev/null 2>&1
ok wgmma_qgmma grep -Eq 'QGMMA.64x16x32.F32.E5M2.E4M3 (R[0-9]+), gdesc\[UR[0-9]+\], \1 ;' "$tmp/t/sass/types.sass"
ok wgmma_tf32 grep -q 'HGMMA.64x16x8.F32.TF32' "$tmp/t/sass/types.sass"
# transposed (MN-major) operands: .tnspA/.tnspB after .negA/.negB, as ptxas
"$OA" compile $w/trans.ptx --arch sm_90 --out-dir "$tmp/tr" >/dev/null 2>&1
s="$tmp/tr/sass/trans.sass"
ok wgmma_tnsp_ab grep -Eq 'HGMMA.64x32x16.F32 (R[0-9]+), gdesc\[UR[0-9]+\].tnspA.tnspB, \1 ;' "$s"
ok wgmma_tnsp_a grep -Eq 'HGMMA.64x32x16.F32 (R[0-9]+), gdesc\[UR[0-9]+\].tnspA, \1, gsb0 ;' "$s"
ok wgmma_tnsp_b_rs grep -Eq 'HGMMA.64x16x16.F16 R[0-9]+, R[0-9]+, gdesc\[UR[0-9]+\].tnspB, RZ, !UPT ;' "$s"
ok wgmma_tnsp_neg grep -Eq 'HGMMA.64x16x16.F32.BF16 R[0-9]+, gdesc\[UR[0-9]+\].negA.tnspA, RZ, !UPT, gsb0 ;' "$s"
# stmatrix (src/codegen/isel_tensor.c): STSM, every count, plain and .trans
"$OA" compile tests/compile/sm90/stmatrix.ptx --arch sm_90 --out-dir "$tmp/st" >/dev/null 2>&1
s="$tmp/st/sass/stmatrix.sass"
ok stsm_x4_trans grep -Eq 'STSM.16.MT88.4 \[R[0-9]+\], R[0-9]+ ;' "$s"
ok stsm_x2 grep -Eq 'STSM.16.M88.2 \[R[0-9]+\+0x400\], R[0-9]+ ;' "$s"
ok stsm_x1_negoff grep -Eq 'STSM.16.M88 \[R[0-9]+\+-0x200\], R[0-9]+ ;' "$s"
fails stsm_sm80 "$OA" compile tests/compile/sm90/stmatrix.ptx --arch sm_80 --out-dir "$tmp/b"
cp "$tmp/err" "$tmp/stsm80.err"
ok stsm_sm80_named grep -q 'error: .target sm_90 is above --arch sm_80' "$tmp/stsm80.err"

refused_mutant() { # file name sed-expression message: the edited file is refused with message
	sed "$3" "$1" > "$tmp/$2.ptx"
	fails "$2" "$OA" compile "$tmp/$2.ptx" --arch sm_90 --out-dir "$tmp/b"
	if grep -q "error: .*$4" "$tmp/err"; then echo "PASS $2_named"
	else echo "FAIL $2_named: want '$4'"; head -3 "$tmp/err"; fi
}
bad() { refused_mutant $w/f16.ptx "$@"; }
m='m64n32k16.f32.f16.f16 {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8, %f9, %f10, %f11, %f12, %f13, %f14, %f15, %f16}, %rd7, %rd9'
bad wgmma_trans_2 "s/$m, 1, 1, 1, 0, 0;/$m, 1, 1, 1, 0, 2;/" 'imm-trans'
bad wgmma_scale_2 "s/$m, 1, 1, 1, 0, 0;/$m, 1, 2, 1, 0, 0;/" 'imm-scale'
bad wgmma_wait_reg 's/wgmma.wait_group.sync.aligned 1;/wgmma.wait_group.sync.aligned %r1;/' 'constant group count'
# sm_80 keeps refusing (the PTX says sm_90a; --arch sm_80)
grep -v fence.proxy $w/f16.ptx > "$tmp/f80.ptx"
fails wgmma_sm80 "$OA" compile "$tmp/f80.ptx" --arch sm_80 --out-dir "$tmp/b"
cp "$tmp/err" "$tmp/sm80.err"
ok wgmma_sm80_named grep -q 'error: .target sm_90a is above --arch sm_80' "$tmp/sm80.err"
fails fence_proxy_sm80 "$OA" compile $w/f16.ptx --arch sm_80 --out-dir "$tmp/b"
cp "$tmp/err" "$tmp/fp80.err"
ok fence_proxy_sm80_named grep -q 'error: .target sm_90a is above --arch sm_80' "$tmp/fp80.err"

# elect.sync, griddepcontrol, setmaxnreg (src/codegen/isel_sm90.c)
c=tests/compile/sm90/ctl.ptx
"$OA" compile $c --arch sm_90 --out-dir "$tmp/c" >/dev/null 2>&1
s="$tmp/c/sass/ctl.sass"
ok sm90_acqbulk grep -q 'ACQBULK ;' "$s"
ok sm90_preexit grep -q 'PREEXIT ;' "$s"
ok sm90_elect grep -Eq 'ELECT P[0-6], UR[0-9]+, PT ;' "$s"
ok sm90_elect_mask grep -q 'WARPSYNC R' "$s"
ok setmaxnreg_dealloc grep -q 'USETMAXREG.DEALLOC.CTAPOOL 0x28 ;' "$s"
ok setmaxnreg_alloc grep -Eq 'USETMAXREG.TRY_ALLOC.CTAPOOL UP[0-6], 0xe8 ;' "$s"
"$OA" disasm "$tmp/c/cubin/ctl.cubin" > "$tmp/c.lst" 2>&1
ok setmaxnreg_regcount grep -q 'EIATTR_REGCOUNT ctl 0xa8' "$tmp/c.lst"
ok setmaxnreg_reconfig grep -q 'EIATTR_REG_RECONFIG' "$tmp/c.lst"
# without a count at entry (.maxntid alone) ptxas ignores setmaxnreg; so do we
grep -v minnctapersm $c > "$tmp/nocount.ptx"
"$OA" compile "$tmp/nocount.ptx" --arch sm_90 --out-dir "$tmp/n" >/dev/null 2>&1
if grep -q USETMAXREG "$tmp/n/sass/nocount.sass"; then echo "FAIL setmaxnreg_ignored"; else echo "PASS setmaxnreg_ignored"; fi
"$OA" disasm "$tmp/n/cubin/nocount.cubin" > "$tmp/n.lst" 2>&1
if grep -q 'REG_RECONFIG' "$tmp/n.lst"; then echo "FAIL setmaxnreg_ignored_attr"; else echo "PASS setmaxnreg_ignored_attr"; fi
"$OA" compile $w/pred.ptx --arch sm_90 --out-dir "$tmp/p" >/dev/null 2>&1
ok wgmma_scale_pred_voteu grep -Eq 'VOTEU.ANY UP[0-6], !P[0-6] ;' "$tmp/p/sass/pred.sass"
ok wgmma_scale_pred_hgmma grep -Eq 'HGMMA.64x32x16.F32 (R[0-9]+), gdesc\[UR[0-9]+\], \1, UP[0-6] ;' "$tmp/p/sass/pred.sass"
# (TMA: tests/compile/tma/, listed in tests/compile/cases.txt)
# A from registers: the A quad before gdesc, B's descriptor only
"$OA" compile $w/rs.ptx --arch sm_90 --out-dir "$tmp/r" >/dev/null 2>&1
ok wgmma_rs_hgmma grep -Eq 'HGMMA.64x16x16.F32 (R[0-9]+), R[0-9]+, gdesc\[UR[0-9]+\], \1 ;' "$tmp/r/sass/rs.sass"
ok wgmma_rs_qgmma grep -Eq 'QGMMA.64x16x32.F32.E4M3.E5M2 R[0-9]+, R[0-9]+, gdesc\[UR[0-9]+\], RZ, !UPT, gsb0 ;' "$tmp/r/sass/rs.sass"
# .target sm_90a: the cubin says so (.nv.compat ACCELERATOR_TARGET 1, tkinfo "-arch sm_90a"), as ptxas
"$OA" disasm "$tmp/f/cubin/f16.cubin" > "$tmp/f.lst" 2>&1
ok sm90a_compat grep -q 'EICOMPAT_ATTR_CUDA_ACCELERATOR_TARGET 0x1' "$tmp/f.lst"
ok sm90a_options grep -q 'options: "-arch sm_90a "' "$tmp/f.lst"
"$OA" compile examples/vector_add.ptx --arch sm_90 --out-dir "$tmp/v" >/dev/null 2>&1
"$OA" disasm "$tmp/v/cubin/vector_add.cubin" > "$tmp/v.lst" 2>&1
ok sm90_compat_plain grep -q 'EICOMPAT_ATTR_CUDA_ACCELERATOR_TARGET 0x0' "$tmp/v.lst"
# imm-scale-a/b = -1: the descriptor's .negA/.negB suffixes
"$OA" compile $w/neg.ptx --arch sm_90 --out-dir "$tmp/g" >/dev/null 2>&1
ok wgmma_neg_ab grep -Eq 'HGMMA.64x32x16.F32 (R[0-9]+), gdesc\[UR[0-9]+\].negA.negB, \1, gsb0 ;' "$tmp/g/sass/neg.sass"
ok wgmma_neg_b grep -Eq 'HGMMA.64x16x16.F16 R[0-9]+, gdesc\[UR[0-9]+\].negB, RZ, !UPT, gsb0 ;' "$tmp/g/sass/neg.sass"
# integer wgmma (IGMMA.64xNx32.A.B[.SAT], tests/compile/wgmma/igmma.ptx)
"$OA" compile $w/igmma.ptx --arch sm_90 --out-dir "$tmp/i" >/dev/null 2>&1
s="$tmp/i/sass/igmma.sass"
ok igmma_scale_d0 grep -Eq 'IGMMA.64x16x32.S8.S8 R[0-9]+, gdesc\[UR[0-9]+\], RZ, !UPT ;' "$s"
ok igmma_uu_chain grep -Eq 'IGMMA.64x16x32.U8.U8 (R[0-9]+), gdesc\[UR[0-9]+\], \1 ;' "$s"
ok igmma_sat grep -Eq 'IGMMA.64x16x32.S8.S8.SAT (R[0-9]+), gdesc\[UR[0-9]+\], \1, gsb0 ;' "$s"
ok igmma_rs grep -Eq 'IGMMA.64x32x32.U8.S8 R[0-9]+, R[0-9]+, gdesc\[UR[0-9]+\], RZ, !UPT ;' "$s"
ok igmma_rs_pred grep -Eq 'IGMMA.64x32x32.S8.S8 (R[0-9]+), R[0-9]+, gdesc\[UR[0-9]+\], \1, UP[0-6] ;' "$s"
ok igmma_n8_sat grep -Eq 'IGMMA.64x8x32.S8.U8.SAT (R[0-9]+), gdesc\[UR[0-9]+\], \1 ;' "$s"
ibad() { refused_mutant $w/igmma.ptx "$@"; }
d20='{%d0, %d1, %d2, %d3, %d4, %d5, %d6, %d7, %d8, %d9, %d10, %d11, %d12, %d13, %d14, %d15, %d16, %d17, %d18, %d19}'
ibad igmma_n40 "s/m64n8k32.satfinite.s32.s8.u8 {%d64, %d65, %d66, %d67}, %rd7/m64n40k32.s32.s8.u8 $d20, %rd7/" 'this wgmma.mma_async shape'
ibad igmma_imm_scale 's/m64n16k32.s32.s8.s8 \(.*\), 0;/m64n16k32.s32.s8.s8 \1, 0, 1, 1;/' 'integer wgmma.mma_async with imm-scale'
ibad igmma_mixed 's/m64n16k32.s32.s8.s8/m64n16k32.s32.s8.e4m3/' 'with these types (s8/u8 x s8/u8 into s32 are)'
grep -v fence.proxy $w/igmma.ptx > "$tmp/i80.ptx"
fails igmma_sm80 "$OA" compile "$tmp/i80.ptx" --arch sm_80 --out-dir "$tmp/b"
cp "$tmp/err" "$tmp/i80.err"
ok igmma_sm80_named grep -q 'error: .target sm_90a is above --arch sm_80' "$tmp/i80.err"
# atom/red .L2::cache_hint (the policy pair is the descriptor, not the
# global one in UR4) and .cluster scope (.gpu's code), as ptxas
"$OA" compile tests/compile/mem/atomhint.ptx --arch sm_90 --out-dir "$tmp/ah" >/dev/null 2>&1
s="$tmp/ah/sass/atomhint.sass"
nd='desc\[UR([0-35-9]|[1-9][0-9])\]'
ok atom_hint_atomg grep -Eq "ATOMG.E.EXCH.STRONG.GPU PT, R[0-9]+, $nd\[R[0-9]+.64\+0x4\], R[0-9]+ ;" "$s"
ok atom_hint_redg grep -Eq "REDG.E.ADD.64.STRONG.GPU $nd\[R[0-9]+.64\+0x8\], R[0-9]+ ;" "$s"
ok atom_hint_generic grep -Eq "ATOM.E.MIN.STRONG.GPU PT, R[0-9]+, $nd\[R[0-9]+.64\+0x1c\], R[0-9]+ ;" "$s"
ok atom_cluster_relaxed grep -Eq 'ATOMG.E.ADD.STRONG.GPU PT, R[0-9]+, desc\[UR4\]\[R[0-9]+.64\+0x24\], R[0-9]+ ;' "$s"
ok atom_cluster_release grep -Pzq 'MEMBAR.ALL.GPU ;[^\n]*\n[^\n]*ERRBAR ;[^\n]*\n[^\n]*CGAERRBAR ;[^\n]*\n[^\n]*ATOMG.E.OR.STRONG.GPU' "$s"
# st.async: STAS[.64|.128] [Ra.64], Rb with the mbarrier in Ra+1, as ptxas
"$OA" compile tests/compile/mbar/stasync.ptx --arch sm_90 --out-dir "$tmp/sa" >/dev/null 2>&1
s="$tmp/sa/sass/stasync.sass"
ok stas_32 grep -Eq 'STAS \[R[0-9]+.64\], R[0-9]+ ;' "$s"
ok stas_64 grep -Eq 'STAS.64 \[R[0-9]+.64\], R[0-9]+ ;' "$s"
ok stas_128 grep -Eq 'STAS.128 \[R[0-9]+.64\], R[0-9]+ ;' "$s"
sed 's/st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 \[%r15\]/st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [buf]/' \
	tests/compile/mbar/stasync.ptx > "$tmp/stasvar.ptx"
fails stas_var "$OA" compile "$tmp/stasvar.ptx" --arch sm_90 --out-dir "$tmp/b"
cp "$tmp/err" "$tmp/stasvar.err"
ok stas_var_named grep -q "stasvar.ptx:[0-9]*:2: error: unsupported by the compiler for sm_90: st.async with an address or mbarrier that is not a register" "$tmp/stasvar.err"
# red.async: REDAS.op [Ra.64], Rb with ATOM's operation names, as ptxas
"$OA" compile tests/compile/mbar/redasync.ptx --arch sm_90 --out-dir "$tmp/ra" >/dev/null 2>&1
s="$tmp/ra/sass/redasync.sass"
ok redas_add_s32 grep -Eq 'REDAS.ADD.S32 \[R[0-9]+.64\], R[0-9]+ ;' "$s"
ok redas_min grep -Eq 'REDAS.MIN \[R[0-9]+.64\], R[0-9]+ ;' "$s"
ok redas_max_s32 grep -Eq 'REDAS.MAX.S32 \[R[0-9]+.64\], R[0-9]+ ;' "$s"
ok redas_dec grep -Eq 'REDAS.DEC \[R[0-9]+.64\], R[0-9]+ ;' "$s"
ok redas_add_64 grep -Eq 'REDAS.ADD.64 \[R[0-9]+.64\], R[0-9]+ ;' "$s"
printf '.version 8.4\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u32 p)\n{\n.reg .b32 %%r<4>;\nld.param.u32 %%r1, [p];\nred.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.min.u64 [%%r1], 1, [%%r1];\nret;\n}\n' > "$tmp/ramin64.ptx"
fails redas_min64 "$OA" compile "$tmp/ramin64.ptx" --arch sm_90 --out-dir "$tmp/b"
cp "$tmp/err" "$tmp/ramin64.err"
ok redas_min64_named grep -q 'ramin64.ptx:8:1: error: unsupported by the compiler for sm_90: this red.async operation and type' "$tmp/ramin64.err"
# guarded wgmma.mma_async: "@!P BRA skip; ARRIVE; HGMMA ..., gsb0", and
# ptxas's no-op HGMMA closing a commit group whose last MMA is guarded
"$OA" compile $w/guard.ptx --arch sm_90 --out-dir "$tmp/g" >/dev/null 2>&1
s="$tmp/g/sass/guard.sass"
ok wgmma_guard_skip grep -Pzq '@!P[0-6] BRA [^\n]*\n[^\n]*WARPGROUP.ARRIVE ;[^\n]*\n[^\n]*HGMMA.64x32x16.F32 R[0-9]+, gdesc\[UR[0-9]+\], RZ, !UPT, gsb0 ;' "$s"
ok wgmma_guard_noop grep -q 'HGMMA.64x8x16.F16 RZ, gdesc\[URZ\], RZ, !UPT, gsb0 ;' "$s"
sed 's/^\twgmma.commit_group.sync.aligned;/\t@%p2 wgmma.commit_group.sync.aligned;/' $w/guard.ptx > "$tmp/gcommit.ptx"
fails wgmma_guard_commit "$OA" compile "$tmp/gcommit.ptx" --arch sm_90 --out-dir "$tmp/b"
cp "$tmp/err" "$tmp/gcommit.err"
ok wgmma_guard_commit_named grep -q 'unsupported by the compiler for sm_90: a guarded wgmma.fence, commit_group or wait_group' "$tmp/gcommit.err"
# an empty commit group counts for wait_group: ptxas's no-op HGMMA closes it
"$OA" compile $w/empty.ptx --arch sm_90 --out-dir "$tmp/e" >/dev/null 2>&1
ok wgmma_empty_group grep -Pzq 'HGMMA.64x16x16.F16 R[0-9]+, gdesc\[UR[0-9]+\], R[0-9]+, UP[0-6], gsb0 ;[^\n]*\n([^\n]*\n)?[^\n]*HGMMA.64x8x16.F16 RZ, gdesc\[URZ\], RZ, !UPT, gsb0 ;[^\n]*\n[^\n]*WARPGROUP.DEPBAR.LE gsb0, 0x1 ;' "$tmp/e/sass/empty.sass"
