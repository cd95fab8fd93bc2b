# cubin.sh -- openassembler disasm / as on cubins, fat binaries and host
# objects: byte-exact round trips, hand edits, and bad input.
. tests/cli/lib.bash
d=tests/cubin

# --- round trip: disasm then as gives the identical file -----------------
for f in $d/*.cubin; do
	b=$(basename "$f" .cubin)
	if "$OA" disasm "$f" -o "$tmp/$b.sass" 2>"$tmp/err" &&
	   "$OA" as "$tmp/$b.sass" -o "$tmp/$b.cubin" 2>>"$tmp/err"; then
		same "roundtrip_$b" "$f" "$tmp/$b.cubin"
	else
		echo "FAIL roundtrip_$b"; head -3 "$tmp/err"
	fi
	if "$OA" disasm -raw "$f" -o "$tmp/$b.raw.sass" &&
	   "$OA" as "$tmp/$b.raw.sass" -o "$tmp/$b.raw.cubin"; then
		same "roundtrip_raw_$b" "$f" "$tmp/$b.raw.cubin"
	else
		echo "FAIL roundtrip_raw_$b"
	fi
done

# --- the listing names things ------------------------------------------
l=$tmp/kernels.sm_90.sass
grep -q '^	EIATTR_KPARAM_INFO ordinal=3 offset=0x18 size=4$' "$l" &&
grep -q '^	EIATTR_PARAM_CBANK .nv.constant0.vadd 0x210 0x1c$' "$l" &&
grep -q '^	EIATTR_REGCOUNT vadd ' "$l" &&
grep -q '^	EIATTR_EXIT_INSTR_OFFSETS auto' "$l" &&
grep -q '^.section .nv.shared.shared_static NOBITS flags=0x43 info=.text.shared_static align=16 size=0x890' "$l" &&
grep -q '^	.sym "vadd" FUNC GLOBAL other=0x10 section=.text.vadd size=auto' "$l" &&
grep -q '^.phdr LOAD R-X align=8 .text.atomics .. .text.vadd$' "$l" &&
grep -q '^	.reloc 0x0 R_CUDA_64 ' "$l" &&
	echo "PASS listing_names" || echo "FAIL listing_names"
grep -q '^	EIATTR_SW2861232_WAR$' "$tmp/kernels.sm_80.sass" &&
grep -q '^	EIATTR_MAX_THREADS 0x80 0x1 0x1$' "$tmp/kernels.sm_80.sass" &&
grep -q '^	EIATTR_CTA_PER_CLUSTER 0x2 0x1 0x1$' "$tmp/cluster.sm_90.sass" &&
grep -q '^	EIATTR_MAXREG_COUNT 0x20$' "$tmp/probes.sm_90.sass" &&
grep -q '^	EIATTR_REQNTID 0x40 0x2 0x1$' "$tmp/probes.sm_90.sass" &&
	echo "PASS listing_attributes" || echo "FAIL listing_attributes"
grep -q '^// kernel shared_static: 14 registers, 640 code bytes, 1 exit, local frame 0, min stack 0, shared 0x890, 1 barrier$' "$l" &&
grep -q '^//   4 params, 28 bytes at c\[0x0\]\[0x210\]: 8@0x0 8@0x8 8@0x10 4@0x18$' "$l" &&
grep -q '^// kernel bounded: .*max 128 threads, maxreg 128$' "$tmp/kernels.sm_80.sass" &&
grep -q '^// kernel calls: .*local frame 64, min stack 64' "$tmp/kernels.sm_80.sass" &&
	echo "PASS listing_kernel_summary" || echo "FAIL listing_kernel_summary"
# every kernel in the summary (it stopped at 64): a module of 70, compiled
{ printf '.version 7.8\n.target sm_90\n.address_size 64\n'
  for i in $(seq 0 69); do printf '.visible .entry k%d(.param .u32 p)\n{\n\tret;\n}\n' "$i"; done; } > "$tmp/k70.ptx"
if "$OA" compile "$tmp/k70.ptx" --arch sm_90 --out-dir "$tmp/k70" >/dev/null 2>&1 &&
   [ "$(grep -c '^// kernel k[0-9]*: ' "$tmp/k70/sass/k70.sass")" = 70 ] &&
   grep -q '^// kernel k69: ' "$tmp/k70/sass/k70.sass" && ! grep -q 'more kernels' "$tmp/k70/sass/k70.sass"; then
	echo "PASS listing_kernel_summary_all"
else echo "FAIL listing_kernel_summary_all"; fi

# --- hand edits are honoured and derived values recomputed -----------------
sed 's/^\(	EIATTR_MAXREG_COUNT\) 0xff$/\1 0x40/' "$tmp/cluster.sm_90.sass" > "$tmp/e1.sass"
ok edit_attr_as "$OA" as "$tmp/e1.sass" -o "$tmp/e1.cubin"
"$OA" disasm "$tmp/e1.cubin" > "$tmp/e1.out" 2>&1
grep -q '^	EIATTR_MAXREG_COUNT 0x40$' "$tmp/e1.out" && echo "PASS edit_attr" || echo "FAIL edit_attr"
# one more instruction (a NOP word) before the code: EXIT moves by 16, the
# text and the kernel symbol grow, the file stays loadable by our reader
awk '/^\.section \.text\.clustered /{print; print "        UNKNOWN 0x0000000000007918, 0x000fc00000000000 ;"; next} {print}' \
	"$tmp/cluster.sm_90.raw.sass" > "$tmp/e2.sass"
ok edit_code_as "$OA" as "$tmp/e2.sass" -o "$tmp/e2.cubin"
"$OA" disasm -raw "$tmp/e2.cubin" > "$tmp/e2.out" 2>&1
grep -q 'EIATTR_EXIT_INSTR_OFFSETS auto	// 0xb0$' "$tmp/e2.out" &&
grep -q 'EXIT_INSTR_OFFSETS auto	// 0xa0$' "$tmp/cluster.sm_90.raw.sass" &&
grep -q '^.section .text.clustered .*// #12' "$tmp/e2.out" &&
grep -q '/\*0180\*/' "$tmp/e2.out" &&
	echo "PASS edit_code_recomputes" || echo "FAIL edit_code_recomputes"

# --- containers -----------------------------------------------------------
ok fatbin "$OA" disasm $d/kernels.fatbin -o "$tmp/fat.sass"
[ "$(grep -c '^// ==== .*cubin for sm_' "$tmp/fat.sass")" = 2 ] &&
	echo "PASS fatbin_entries" || echo "FAIL fatbin_entries"
ok fatbin_lz4 "$OA" disasm $d/kernels.lz4.fatbin -o "$tmp/lz4.sass"
grep -q '^// ==== .*entry 0: cubin for sm_80' "$tmp/lz4.sass" &&
grep -q 'EIATTR_PARAM_CBANK .nv.constant0.vadd 0x160 0x1c' "$tmp/lz4.sass" &&
	echo "PASS fatbin_lz4_content" || echo "FAIL fatbin_lz4_content"
ok host_object "$OA" disasm $d/cluster.host.o -o "$tmp/host.sass"
grep -q 'EIATTR_CTA_PER_CLUSTER 0x2 0x1 0x1' "$tmp/host.sass" &&
	echo "PASS host_object_content" || echo "FAIL host_object_content"

# --- raw words (-b) ------------------------------------------------------
printf '\x4d\x79\x00\x00\x00\x00\x00\x00\x00\x00\x80\x03\x00\xea\x0f\x00' > "$tmp/exit.bin"
ok raw_words "$OA" disasm -b SM90 "$tmp/exit.bin"
grep -q '/\*0000\*/' "$tmp/out" && echo "PASS raw_words_listed" || echo "FAIL raw_words_listed"
fails raw_words_bad_arch "$OA" disasm -b SM42 "$tmp/exit.bin"
head -c 15 "$tmp/exit.bin" > "$tmp/odd.bin"
fails raw_words_partial "$OA" disasm -b SM80 "$tmp/odd.bin"

# --- bad binary input: clear error, exit 1, no crash ----------------------
c=$d/cluster.sm_90.cubin
u64() { od -An -t u8 -j "$2" -N 8 "$1" | tr -d ' '; }
u32() { od -An -t u4 -j "$2" -N 4 "$1" | tr -d ' '; }
poke() {	# file offset hexbytes
	printf "$(echo "$3" | sed 's/../\\x&/g')" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
head -c 40 $c > "$tmp/trunc.cubin"
fails bad_truncated_header "$OA" disasm "$tmp/trunc.cubin"
head -c 2000 $c > "$tmp/trunc2.cubin"
fails bad_truncated_body "$OA" disasm "$tmp/trunc2.cubin"
cp $c "$tmp/magic.cubin"; poke "$tmp/magic.cubin" 0 7f454c47
fails bad_magic "$OA" disasm "$tmp/magic.cubin"
shoff=$(u64 $c 40)
cp $c "$tmp/off.cubin"; poke "$tmp/off.cubin" $((shoff + 64 * 4 + 24)) 00000000ff000000
fails bad_section_offset "$OA" disasm "$tmp/off.cubin"
cp $c "$tmp/size.cubin"; poke "$tmp/size.cubin" $((shoff + 64 * 13 + 32)) 00000000000000ff
fails bad_absurd_size "$OA" disasm "$tmp/size.cubin"
cp $c "$tmp/shnum.cubin"; poke "$tmp/shnum.cubin" 60 ffff
fails bad_section_count "$OA" disasm "$tmp/shnum.cubin"
info=$(u64 $c $((shoff + 64 * 9 + 24)))
cp $c "$tmp/attr.cubin"; poke "$tmp/attr.cubin" $((info + 1)) 7f
fails bad_attribute_id "$OA" disasm "$tmp/attr.cubin"
grep -q 'unknown attribute id 0x7f' "$tmp/err" && echo "PASS bad_attribute_id_message" || echo "FAIL bad_attribute_id_message"
cp $c "$tmp/alen.cubin"; poke "$tmp/alen.cubin" $((info + 2)) ff7f
fails bad_attribute_length "$OA" disasm "$tmp/alen.cubin"
cp $c "$tmp/sym.cubin"; poke "$tmp/sym.cubin" $(( $(u64 $c $((shoff + 64 * 3 + 24))) + 24 * 8 + 6)) ff00
fails bad_symbol_section "$OA" disasm "$tmp/sym.cubin"
printf 'hello' > "$tmp/text.bin"
fails bad_not_a_container "$OA" disasm "$tmp/text.bin"
fails bad_missing_file "$OA" disasm "$tmp/nonexistent.cubin"
cp $d/kernels.fatbin "$tmp/fat.bin"; poke "$tmp/fat.bin" 8 ffffff00
fails bad_fatbin_size "$OA" disasm "$tmp/fat.bin"
cp $d/kernels.lz4.fatbin "$tmp/lz4.bin"; poke "$tmp/lz4.bin" 100 ffffffffffffffff
fails bad_fatbin_lz4 "$OA" disasm "$tmp/lz4.bin"

# --- bad assembler input: file:line:col, exit 1 -----------------------------
asm_fails() {	# name text-file pattern
	"$OA" as "$2" -o "$tmp/x.cubin" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	if [ $rc -eq 1 ] && grep -Eq "^$2:[0-9]+:[0-9]+: error: .*$3" "$tmp/err" && grep -q '\^' "$tmp/err"; then
		echo "PASS $1"
	else
		echo "FAIL $1: exit $rc"; head -3 "$tmp/err"
	fi
}
s=$tmp/cluster.sm_90.sass
sed 's/^\(        \/\*0000\*\/   \).*/\1FROBNICATE R1, R2 ;/' $s > "$tmp/a1.sass"
asm_fails as_unknown_opcode "$tmp/a1.sass" ''
sed 's/^\(        \/\*0010\*\/   \).*/\1UNKNOWN 0x12, ;/' $s > "$tmp/a2.sass"
asm_fails as_bad_operand "$tmp/a2.sass" 'high word'
sed 's/^\(	EIATTR_MAXREG_COUNT\) 0xff$/\1 0x10000/' $s > "$tmp/a3.sass"
asm_fails as_immediate_range "$tmp/a3.sass" 'out of range'
sed 's/^\(	EIATTR_SW_WAR\) 0x8$/EIATTR_NO_SUCH 1/' $s > "$tmp/a4.sass"
asm_fails as_unknown_attr "$tmp/a4.sass" 'unknown'
sed 's/ info=.text.clustered / info=.text.nothere /' $s > "$tmp/a5.sass"
asm_fails as_unknown_section "$tmp/a5.sass" "unknown section"
sed 's/R_CUDA_64 clustered/R_CUDA_64 nobody/' $s > "$tmp/a6.sass"
asm_fails as_unknown_symbol "$tmp/a6.sass" "unknown symbol"
awk '/\/\*0000\*\//{sub(/;.*/, "; /* [B------:R9:W-:Y:S05] */")} {print}' "$tmp/cluster.sm_90.raw.sass" > "$tmp/a7.sass"
sed -i 's/^\(        \/\*0000\*\/   \).*/\1NOP ; \/* [B------:R9:W-:Y:S05] *\//' "$tmp/a7.sass"
"$OA" as "$tmp/a7.sass" -o "$tmp/x.cubin" 2>"$tmp/err"; [ $? -eq 1 ] && grep -q ':[0-9]*:[0-9]*: error:' "$tmp/err" &&
	echo "PASS as_bad_ctrl_or_opcode" || echo "FAIL as_bad_ctrl_or_opcode"
printf '.target sm_90\n.elf type=2 osabi=0x41 abiversion=8 version=1 flags=0x6005a04\n.section .shstrtab STRTAB\n\t.string "\n' > "$tmp/a8.sass"
asm_fails as_unterminated_string "$tmp/a8.sass" 'unterminated'
printf '.target gfx90a\n' > "$tmp/a9.sass"
asm_fails as_bad_target "$tmp/a9.sass" 'unknown target'
fails as_missing_file "$OA" as "$tmp/none.sass" -o "$tmp/x.cubin"

# --- from scratch: mkcubin's file lists like ptxas's except for the
# string tables and the tool named in .note.nv.tkinfo --------------------
strip_listing() {	# drop strings, comments, gap= and the tkinfo note's bytes
	awk '/^\.section \.note\.nv\.tkinfo/{print; skip=1; next} /^\.section/{skip=0}
	     skip || /^\t\.string/ || /^\/\// {next} {sub(/ gap=0x[0-9a-f]+/, ""); print}' "$1"
}
for b in single shared two; do
for a in 80 90; do
	if "$OA" mkcubin $d/$b.sm_$a.desc -o "$tmp/scratch$a.cubin"; then
		"$OA" disasm "$tmp/scratch$a.cubin" > "$tmp/scratch$a.sass"
		"$OA" disasm $d/$b.sm_$a.cubin > "$tmp/ref$a.sass"
		if diff <(strip_listing "$tmp/scratch$a.sass") <(strip_listing "$tmp/ref$a.sass") > "$tmp/diff"; then
			echo "PASS mkcubin_matches_ptxas_${b}_sm$a"
		else
			echo "FAIL mkcubin_matches_ptxas_${b}_sm$a"; head -5 "$tmp/diff"
		fi
		grep -q 'openassembler' "$tmp/scratch$a.cubin" && ! grep -q 'ptxas' "$tmp/scratch$a.cubin" &&
			echo "PASS mkcubin_no_ptxas_bytes_${b}_sm$a" || echo "FAIL mkcubin_no_ptxas_bytes_${b}_sm$a"
	else
		echo "FAIL mkcubin_${b}_sm$a"
	fi
done
done
printf 'kernel k\ntarget sm_90\nregs 999\n' > "$tmp/bad.desc"
fails mkcubin_bad_desc "$OA" mkcubin "$tmp/bad.desc" -o "$tmp/x.cubin"
grep -q 'bad.desc:3:1: error' "$tmp/err" && echo "PASS mkcubin_bad_desc_position" || echo "FAIL mkcubin_bad_desc_position"

# --- REGCOUNT "auto": recomputed from the decoded code -----------------------
if grep -q '^	EIATTR_REGCOUNT vadd auto	// 0xc$' "$tmp/single.sm_90.sass"; then
	echo "PASS regcount_auto_listed"
	# pin a different count: the pinned number wins
	sed 's/^	EIATTR_REGCOUNT vadd auto.*/	EIATTR_REGCOUNT vadd 0x20/' "$tmp/single.sm_90.sass" > "$tmp/r1.sass"
	"$OA" as "$tmp/r1.sass" -o "$tmp/r1.cubin" && "$OA" disasm "$tmp/r1.cubin" | grep -q '^	EIATTR_REGCOUNT vadd 0x20$' &&
		echo "PASS regcount_pinned" || echo "FAIL regcount_pinned"
else
	skip regcount_auto_listed "the ISA tables do not decode vadd for sm_90 yet"
fi

# --- every other cubin in the tree (kernel suite, examples) round-trips -------
n=0; bad=
for f in $(find tests examples -name '*.cubin' ! -path 'tests/cubin/*' 2>/dev/null | sort); do
	[ -e "$f" ] || continue
	n=$((n + 1))
	if ! "$OA" disasm "$f" -o "$tmp/s.sass" 2>/dev/null || ! "$OA" as "$tmp/s.sass" -o "$tmp/s.cubin" 2>/dev/null ||
	   ! cmp -s "$f" "$tmp/s.cubin"; then
		bad="$bad $f"
	fi
done
if [ $n -eq 0 ]; then skip roundtrip_suite "no other cubins"
elif [ -z "$bad" ]; then echo "PASS roundtrip_suite ($n cubins)"
else echo "FAIL roundtrip_suite:$bad" | cut -c1-300; fi

# --- sm_80 .text sh_info register count follows REGCOUNT ("regs=auto") -------
sed 's/^\(	EIATTR_REGCOUNT vadd\) .*/\1 0x20/' "$tmp/single.sm_80.raw.sass" > "$tmp/r80.sass"
if grep -q 'regs=auto' "$tmp/r80.sass" && "$OA" as "$tmp/r80.sass" -o "$tmp/r80.cubin"; then
	"$OA" disasm -raw "$tmp/r80.cubin" > "$tmp/r80.out"
	grep -q '^	EIATTR_REGCOUNT vadd 0x20$' "$tmp/r80.out" && grep -q '^.section .text.vadd .*regs=auto' "$tmp/r80.out" &&
	[ "$(od -An -t u1 -j $(( $(od -An -t u8 -j 40 -N 8 "$tmp/r80.cubin") + 64 * 13 + 47 )) -N 1 "$tmp/r80.cubin" | tr -d ' ')" = 32 ] &&
		echo "PASS regs_auto_follows_regcount" || echo "FAIL regs_auto_follows_regcount"
else
	echo "FAIL regs_auto_follows_regcount: not listed or not assembled"
fi

# --- notes and data objects are annotated ------------------------------------
grep -q '^	// tool: "ptxas"$' "$tmp/kernels.sm_90.sass" &&
grep -q '^	// note type 1000, 8-byte descriptor: version 2, virtual sm_90, CUDA API 130$' "$tmp/kernels.sm_90.sass" &&
grep -q '^	// object cval at 0x100, 0x4 bytes$' "$tmp/kernels.sm_90.sass" &&
	echo "PASS listing_annotations" || echo "FAIL listing_annotations"

# --- zstd-compressed fat binary (our own decoder, src/cubin/zstd.c) ---------
ok fatbin_zstd "$OA" disasm $d/single.zstd.fatbin -o "$tmp/z.sass"
grep -q 'EIATTR_PARAM_CBANK .nv.constant0.vadd 0x160 0x1c' "$tmp/z.sass" &&
	echo "PASS fatbin_zstd_content" || echo "FAIL fatbin_zstd_content"

# --- hand-tuning: change one instruction's text, reassemble, list again -------
if grep -q '/\*0110\*/   FADD R9, R4, R3 ;' "$tmp/single.sm_90.sass"; then
	sed 's|/\*0110\*/   FADD R9, R4, R3 ;|/*0110*/   FMUL R9, R4, R3 ;|' "$tmp/single.sm_90.sass" > "$tmp/h.sass"
	if "$OA" as "$tmp/h.sass" -o "$tmp/h.cubin" 2>"$tmp/err"; then
		"$OA" disasm "$tmp/h.cubin" > "$tmp/h.out"
		grep -q '/\*0110\*/   FMUL R9, R4, R3 ;   /\* \[B---3--:R-:W-:Y:S05\] \*/' "$tmp/h.out" &&
		[ "$(cmp -l $d/single.sm_90.cubin "$tmp/h.cubin" | wc -l)" -le 4 ] &&
			echo "PASS hand_edit_instruction" || echo "FAIL hand_edit_instruction"
	else
		skip hand_edit_instruction "the ISA tables cannot assemble FMUL yet: $(head -1 "$tmp/err")"
	fi
else
	skip hand_edit_instruction "the ISA tables do not decode vadd's FADD yet"
fi

# --- a listing without its string tables: as rebuilds them (only the names
# the file uses), everything else lists the same ------------------------------
grep -v '^	\.string' "$tmp/kernels.sm_90.sass" | sed 's/ gap=0x[0-9a-f]*//' > "$tmp/ns.sass"
if "$OA" as "$tmp/ns.sass" -o "$tmp/ns.cubin" && "$OA" disasm "$tmp/ns.cubin" > "$tmp/ns.out"; then
	drop() { grep -v '^	\.string' "$1" | sed 's/ gap=0x[0-9a-f]*//' | grep -v '^// '; }
	if diff <(drop "$tmp/ns.out") <(drop "$tmp/kernels.sm_90.sass") > "$tmp/diff" &&
	   [ $(stat -c %s "$tmp/ns.cubin") -lt $(stat -c %s $d/kernels.sm_90.cubin) ]; then
		echo "PASS strings_rebuilt"
	else
		echo "FAIL strings_rebuilt"; head -5 "$tmp/diff"
	fi
else
	echo "FAIL strings_rebuilt: does not assemble"
fi

# --- SASS operand errors point into the line (ISA parser messages) ----------
if grep -q '/\*0040\*/   IMAD R9, R9, UR4, R0 ;' "$tmp/single.sm_90.sass"; then
	sed 's|/\*0040\*/   IMAD R9, R9, UR4, R0 ;|/*0040*/   IMAD R9, R9, 0x1ffffffff, R0 ;|' "$tmp/single.sm_90.sass" > "$tmp/o1.sass"
	asm_fails as_immediate_too_wide "$tmp/o1.sass" ''
	sed 's|/\*0040\*/   IMAD R9, R9, UR4, R0 ;|/*0040*/   IMAD R9, R9, R300, R0 ;|' "$tmp/single.sm_90.sass" > "$tmp/o2.sass"
	asm_fails as_bad_register "$tmp/o2.sass" ''
else
	skip as_immediate_too_wide "the ISA tables do not decode vadd's IMAD yet"
	skip as_bad_register "the ISA tables do not decode vadd's IMAD yet"
fi

# --- calls to device functions read as their names --------------------------
if grep -q 'CALL.REL.NOINC `(\$calls\$_Z7helper1i) ;' "$tmp/kernels.sm_90.sass"; then
	grep -q '^\$calls\$_Z7helper1i:	// function$' "$tmp/kernels.sm_90.sass" &&
		echo "PASS call_labels" || echo "FAIL call_labels"
else
	skip call_labels "the ISA tables do not decode CALL.REL yet"
fi

# --- -x writes the embedded cubins out; they round-trip too -------------------
mkdir -p "$tmp/x"
if "$OA" disasm -x "$tmp/x" $d/kernels.lz4.fatbin -o "$tmp/x.sass" && [ -s "$tmp/x/entry0.sm_80.cubin" ] &&
   "$OA" disasm "$tmp/x/entry0.sm_80.cubin" -o "$tmp/x0.sass" && "$OA" as "$tmp/x0.sass" -o "$tmp/x0.cubin" &&
   cmp -s "$tmp/x/entry0.sm_80.cubin" "$tmp/x0.cubin"; then
	echo "PASS extract_entries"
else
	echo "FAIL extract_entries"
fi
