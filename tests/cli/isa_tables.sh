# isa_tables.sh -- src/sm90/forms.c and src/sm80/forms.c are exactly what
# tools/isa-gentab makes from specs/sm_XX/forms.txt, the decoder index and
# string table included (nobody edited them by hand or forgot to rerun the
# generator after changing it).  Needs python3; SKIP without it.
. tests/cli/lib.bash

for sm in 90 80; do
	if ! command -v python3 >/dev/null; then
		skip isa_tables_fresh_sm_$sm "python3 not found (tools/isa-gentab is Python)"
		continue
	fi
	if ! python3 tools/isa-gentab "$PWD/specs/sm_$sm/forms.txt" "$tmp/forms.c" arch_sm$sm $sm 2>"$tmp/err"; then
		echo "FAIL isa_tables_fresh_sm_$sm: tools/isa-gentab failed"; head -3 "$tmp/err"; continue
	fi
	# line 1 names the spec by the path it was given
	tail -n +2 "$tmp/forms.c" >"$tmp/want"
	tail -n +2 src/sm$sm/forms.c >"$tmp/have"
	same isa_tables_fresh_sm_$sm "$tmp/want" "$tmp/have"
done
