#!/usr/bin/env bash
# emu.sh -- the SASS emulator through `openassembler emu FILE.cubin`: the
# hand-made SIMT kernel (tests/emu/) and a suite kernel give the same
# buffers as the PTX interpreter on their PTX; errors exit 1 with a message.
. tests/cli/lib.bash

# cubin vs PTX interpreter, both arches.  A word the built-in decoder does
# not know yet makes the run "unsupported": reported as SKIP, with why,
# and run again with the oracle decoding (when oracle/nvdisasm exists).
vs_ptx() {	# name cubin ptx spec
	local n=$1
	"$OA" emu --ptx "$3" --spec "$4" -o "$tmp/$n.want" 2>"$tmp/$n.perr" ||
		{ echo "FAIL $n: the interpreter failed"; head -3 "$tmp/$n.perr"; return; }
	if "$OA" emu "$2" --spec "$4" -o "$tmp/$n.got" 2>"$tmp/$n.err"; then
		same "$n" "$tmp/$n.got" "$tmp/$n.want"
	elif grep -q "unsupported instruction" "$tmp/$n.err"; then
		skip "$n" "$(sed 's/.*unsupported/unsupported/' "$tmp/$n.err" | head -1)"
		# the semantics still get checked when the oracle can decode
		if [ -x oracle/nvdisasm ]; then
			if "$OA" emu "$2" --spec "$4" --oracle oracle/nvdisasm -o "$tmp/$n.got" 2>"$tmp/$n.err"; then
				same "${n}_oracle" "$tmp/$n.got" "$tmp/$n.want"
			else
				echo "FAIL ${n}_oracle: emu failed"; head -3 "$tmp/$n.err"
			fi
		fi
	else
		echo "FAIL $n: emu failed"; head -3 "$tmp/$n.err"
	fi
}
for a in sm_90 sm_80; do
	vs_ptx "emu_simt_$a" tests/emu/simt.$a.cubin tests/emu/simt.ptx tests/emu/simt.json
	vs_ptx "emu_extra_$a" tests/emu/extra.$a.cubin tests/emu/extra.ptx tests/emu/extra.json
	vs_ptx "emu_spin_$a" tests/emu/spin.$a.cubin tests/emu/spin.ptx tests/emu/spin.json
	k=tests/kernels/reduce_shared_f32
	vs_ptx "emu_reduce_shared_$a" $k/kernel.$a.cubin $k/kernel.$a.ptx $k/spec.json
	# ptxas's VABSDIFF4, its per-lane createpolicy (sm_90: an R2UR P waterfall);
	# in a folder of their own: check.sh's ptxas-cubin loop would fail on
	# latency pairs the model is stricter on (docs/session6-misc.md)
	vs_ptx "emu_misc_video_$a" tests/emu/misc/video.$a.cubin tests/emu/misc/video.ptx tests/compile/misc/video.spec.json
	vs_ptx "emu_misc_policy_$a" tests/emu/misc/policy.$a.cubin tests/compile/misc/policy.ptx \
		tests/compile/misc/policy.spec.json
	# collectives under per-lane member masks: WARPSYNC.EXCLUSIVE groups run alone
	vs_ptx "emu_wsync_$a" tests/emu/wsync/wsync.$a.cubin tests/emu/wsync/wsync.ptx tests/emu/wsync/wsync.json
	# a per-lane member mask, then warp-wide collectives: "@!P0 BRA.CONV/DIV"
	# goes one way for the whole warp (the guard votes).  The wconv cubins
	# lie one folder down, out of check.sh's ptxas-cubin loop: the latency
	# model is stricter on SHF -> WARPSYNC/REDUX/R2UR and FMNMX -> IMAD
	# than these schedules (until the tables are re-mined with them)
	vs_ptx "emu_wconv_$a" tests/emu/wconv/ptxas/wconv.$a.cubin tests/emu/wconv/wconv.ptx tests/emu/wconv/wconv.json
	# ptxas's I2IP (cvt.pack.sat) and real4 zoo4's PLOP3 R.SIGN inputs (in
	# ptxas/ for the same reason as wconv's)
	vs_ptx "emu_pack_$a" tests/emu/pack/ptxas/pack.$a.cubin tests/emu/pack/pack.ptx tests/emu/pack/pack.json
	vs_ptx "emu_pack_zoo_int_$a" tests/emu/pack/ptxas/zoo4.$a.cubin tests/compile/real4/zoo4.$a.ptx \
		tests/compile/real4/zoo_int.spec.json
	# ptxas's division by a constant: FCHK P, R, imm and MUFU.RCP64H R, imm
	vs_ptx "emu_fdiv_imm_$a" tests/emu/fdiv/ptxas/fdiv.$a.cubin tests/emu/fdiv/fdiv.ptx tests/emu/fdiv/fdiv.json
	# ptxas's FMUL.D8/.D4/.D2/.M2/.M4/.M8 (a power-of-two factor folded in)
	vs_ptx "emu_fscale_$a" tests/emu/fscale/fscale.$a.cubin tests/emu/fscale/fscale.ptx tests/emu/fscale/fscale.json
	# isspacep (QSPC.E.G/S/L, the const window taken out of .global), cvta.const
	vs_ptx "emu_misc_gspace_$a" tests/emu/misc/gspace.$a.cubin tests/compile/mem/gspace.ptx \
		tests/compile/mem/gspace.spec.json
	for t in fetch sample2d sample1d surf surfx; do   # ptxas's TEX/TLD/SULD/SUST
		vs_ptx "emu_tex_${t}_$a" tests/emu/tex_$t.$a.cubin tests/compile/tex/$t.ptx tests/compile/tex/$t.spec.json
	done
	# ptxas's 3D TEX (sm_80: x, y in Ra, z and the level in Rb), tex.level,
	# TLD 2D, SULD/SUST 3D (session 12; in ptxas/ like wconv's: the latency
	# model is stricter than these schedules on TEX/SULD operand reads)
	for t in sample3d surf3d fetch2d; do
		vs_ptx "emu_tex_${t}_$a" tests/emu/tex12/ptxas/$t.$a.cubin tests/compile/tex/$t.ptx tests/compile/tex/$t.spec.json
	done
done
# cg tiles (sm_90): BRA.DIV to WARPSYNC.COLLECTIVE ... ENDCOLLECTIVE, run
# once per tile mask (every tile got the warp's sum before)
vs_ptx emu_wconv_cggroups_sm_90 tests/emu/wconv/ptxas/cggroups.sm_90.cubin tests/emu/wconv/cggroups.ptx \
	tests/compile/real4/cg_groups.spec.json
# libcu++'s pipeline (sm_90): a 64-bit waterfall R2UR P / R2UR.OR P
vs_ptx emu_pack_pipe4_sm_90 tests/emu/pack/ptxas/pipe4.sm_90.cubin tests/compile/real4/pipe4.sm_90.ptx \
	tests/compile/real4/ws_pipeline.spec.json
# ptxas's sm_90a wgmma code (UIADD3.64 descriptor arithmetic, HGMMA/QGMMA,
# register A, transposed operands) against the interpreter
for t in f16 loop pred types rs trans; do
	vs_ptx "emu_wgmma_${t}_sm_90" tests/emu/wgmma/$t.sm_90.cubin tests/compile/wgmma/$t.ptx tests/compile/wgmma/$t.spec.json
done
# IGMMA (integer wgmma: every s8/u8 pair, .SAT, register A, UP scale-d);
# in ptxas/ (out of check.sh's ptxas-cubin loop): the latency tables lack
# most IGMMA shapes, so the checker's fallback (15) is stricter than
# ptxas's 3-cycle accumulator chaining
# st.async (STAS[.64|.128] [Ra.64], Rb: the store into the peer CTA and
# complete_tx on its mbarrier), cluster of 2; in ptxas/: the checker's
# STAS and UPRMT latencies are stricter than ptxas's
vs_ptx emu_mbar_stasync_sm_90 tests/emu/mbar/ptxas/stasync.sm_90.cubin tests/compile/mbar/stasync.ptx \
	tests/compile/mbar/stasync.spec.json
# red.async (REDAS.op [Ra.64], Rb: the atomic on the peer CTA, then
# complete_tx on its mbarrier), cluster of 2; in ptxas/ like stasync
vs_ptx emu_mbar_redasync_sm_90 tests/emu/mbar/ptxas/redasync.sm_90.cubin tests/compile/mbar/redasync.ptx \
	tests/compile/mbar/redasync.spec.json
# guarded wgmma: ptxas's "@!P BRA; ARRIVE; HGMMA" and its no-op
# "HGMMA.64x8x16.F16 RZ, gdesc[URZ], RZ, !UPT, gsb0", both guard values
vs_ptx emu_wgmma_guard_sm_90 tests/emu/wgmma/guard.sm_90.cubin tests/compile/wgmma/guard.ptx tests/compile/wgmma/guard.spec.json
vs_ptx emu_wgmma_guard0_sm_90 tests/emu/wgmma/guard.sm_90.cubin tests/compile/wgmma/guard.ptx tests/compile/wgmma/guard0.spec.json
vs_ptx emu_wgmma_igmma_sm_90 tests/emu/wgmma/ptxas/igmma.sm_90.cubin tests/compile/wgmma/igmma.ptx \
	tests/compile/wgmma/igmma.spec.json
# ptxas's cp.async.mbarrier.arrive[.noinc] pipelines: sm_90's SYNCS...A0T1
# and ARRIVES.LDGSTSBAR.64.TRANSCNT / .ARVCNT, sm_80's ARRIVES; in a folder
# of their own like misc/: check.sh's ptxas-cubin loop reports latency
# pairs the model is stricter on (docs/compiler-mbarrier.md)
vs_ptx emu_mbar_cparrive90_sm_90 tests/emu/mbar/cparrive90.sm_90.cubin tests/compile/mbar/cparrive90.ptx \
	tests/compile/mbar/cparrive90.spec.json
vs_ptx emu_mbar_cppipe80_sm_80 tests/emu/mbar/cppipe80.sm_80.cubin tests/compile/mbar/cppipe80.ptx \
	tests/compile/mbar/cppipe80.spec.json
# ptxas's VIMNMX.S16x2/.U16x2/.RELU, VIMNMX3 (sm_90 min/max.{s16x2,u16x2,relu})
vs_ptx emu_vmnmx_sm_90 tests/emu/vmnmx/vmnmx.sm_90.cubin tests/emu/vmnmx/vmnmx.ptx tests/emu/vmnmx/vmnmx.json
# cooperative launches (cg grid sync): every CTA at once, %envreg1:2 the
# workspace; without "cooperative" the kernel traps, as on a GPU; a
# cooperative launch of clusters is refused.  (ptxas's sm_80 cubin also
# matches, but is not kept: it reads an IMAD result 2 cycles later across
# an ERRBAR, which the hazard model does not count as a drain.)
vs_ptx emu_coop_gsync_sm_90 tests/emu/coop/gsync.sm_90.cubin tests/compile/coop/gsync.sm_90.ptx \
	tests/compile/coop/gsync.spec.json
sed 's/"cooperative": true,//' tests/compile/coop/gsync.spec.json > "$tmp/nocoop.json"
fails emu_coop_missing_traps "$OA" emu tests/emu/coop/gsync.sm_90.cubin --spec "$tmp/nocoop.json" -o "$tmp/nocoop.out"
sed 's/"cooperative": true,/"cooperative": true, "cluster": [2],/' tests/compile/coop/gsync.spec.json > "$tmp/coopcl.json"
fails emu_coop_cluster_refused "$OA" emu tests/emu/coop/gsync.sm_90.cubin --spec "$tmp/coopcl.json"
# ptxas -g (device debug): the stack check against SR_LMEMHIOFF
vs_ptx emu_misc_gspace_g_sm_80 tests/emu/misc/gspace.g.sm_80.cubin tests/compile/mem/gspace.ptx \
	tests/compile/mem/gspace.spec.json
# sm_80's arrive.noComplete / arrive_drop[.noComplete] (warp-aggregated
# ATOMS.ADD, ATOMS.POPC.INC) and test_wait.parity
vs_ptx emu_mbar_nocomplete80_sm_80 tests/emu/mbar/nocomplete80.sm_80.cubin tests/compile/mbar/nocomplete80.ptx \
	tests/compile/mbar/nocomplete80.spec.json
# ptxas's sm_90a TMA code (UTMALDG/UTMASTG/UTMAREDG/UTMAPF, SYNCS.ARRIVE.TRANS64
# of arrive.expect_tx, EXIT Pp) with the tensor-map model (docs/compiler-tma.md)
for t in load swz store pipe; do
	vs_ptx "emu_tma_tile_${t}_sm_90" tests/emu/tma/tile.sm_90.cubin tests/compile/tma/tile.ptx \
		tests/compile/tma/tile_$t.spec.json
done
vs_ptx emu_tma_interp_sm_90 tests/emu/tma/tma.sm_90.cubin tests/interp/tma.ptx tests/interp/tma.json
vs_ptx emu_tma_tmax_sm_90 tests/emu/tma/tmax.sm_90.cubin tests/compile/tma/tmax.ptx tests/compile/tma/tmax.spec.json
vs_ptx emu_tma_barrier_sm_90 tests/emu/tma/barrier.sm_90.cubin tests/compile/tma/barrier.ptx \
	tests/compile/tma/barrier.spec.json
vs_ptx emu_tma_gemm_sm_90 tests/emu/tma/gemm.sm_90.cubin tests/compile/tma/gemm.ptx tests/compile/tma/gemm.spec.json

# --stats reports warp-instructions
orc=
[ -x oracle/nvdisasm ] && orc="--oracle oracle/nvdisasm"
# shellcheck disable=SC2086
if "$OA" emu tests/emu/simt.sm_90.cubin --spec tests/emu/simt.json -o "$tmp/o" --stats $orc 2>"$tmp/err"; then
	if grep -q "warp-instructions" "$tmp/err"; then echo "PASS emu_stats"
	else echo "FAIL emu_stats: no count on stderr"; fi
else
	skip emu_stats "$(head -1 "$tmp/err")"
fi

# errors: exit 1, "error:", no crash
fails emu_err_nospec "$OA" emu tests/emu/simt.sm_90.cubin
fails emu_err_kernel "$OA" emu tests/emu/simt.sm_90.cubin --spec tests/emu/simt.json --kernel nope
printf 'not an ELF file at all' >"$tmp/bad.cubin"
fails emu_err_badcubin "$OA" emu "$tmp/bad.cubin" --spec tests/emu/simt.json
# shellcheck disable=SC2086
"$OA" emu tests/emu/simt.sm_90.cubin --spec tests/emu/simt.json --steps 10 $orc >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 1 ] && grep -q "error: .*\(more than 10 warp-instructions\|unsupported\)" "$tmp/err"; then
	echo "PASS emu_err_steps"
else
	echo "FAIL emu_err_steps: want exit 1 and 'more than 10 warp-instructions'"; head -3 "$tmp/err"
fi

# session 3: struct arguments (a 40-byte struct, buffers only it points to)
# and the timing mode, from the command line
for a in sm_90 sm_80; do
	vs_ptx "emu_struct_arg_$a" tests/cub/struct_arg/kernel.$a.cubin tests/cub/struct_arg/kernel.$a.ptx \
		tests/cub/struct_arg/spec.json
	if "$OA" emu tests/cub/struct_arg/kernel.$a.cubin --spec tests/cub/struct_arg/spec.json --timing \
		-o "$tmp/timed_$a" 2>"$tmp/err"; then
		same "emu_timing_$a" "$tmp/timed_$a" "$tmp/emu_struct_arg_$a.want"
	else
		echo "FAIL emu_timing_$a: emu --timing failed"; head -3 "$tmp/err"
	fi
done
if "$OA" spec tests/cub/struct_arg/spec.json | grep -q "2 args, 2 buffers"; then echo "PASS spec_struct_summary"
else echo "FAIL spec_struct_summary: want '2 args, 2 buffers'"; fi
printf '{"args": [{"name": "s", "struct": 8, "fields": [{"offset": 6, "scalar": "u32", "value": 1}]}]}\n' \
	>"$tmp/bad_struct.json"
fails spec_struct_err "$OA" spec "$tmp/bad_struct.json"
if grep -q 'bad_struct.json:1:.*not aligned' "$tmp/err"; then echo "PASS spec_struct_err_pos"
else echo "FAIL spec_struct_err_pos: want file:line:col and 'not aligned'"; head -3 "$tmp/err"; fi
# a struct whose size is not the parameter's: exit 1 in both engines
sed 's/"struct": 40/"struct": 48/' tests/cub/struct_arg/spec.json >"$tmp/wrong_size.json"
fails emu_struct_err_size "$OA" emu tests/cub/struct_arg/kernel.sm_90.cubin --spec "$tmp/wrong_size.json"
fails interp_struct_err_size "$OA" emu --ptx tests/cub/struct_arg/kernel.sm_90.ptx --spec "$tmp/wrong_size.json"
