# lib.bash -- helpers for CLI tests; source it.  $OA is the binary under test.
#   ok NAME CMD...        passes when CMD exits 0
#   fails NAME CMD...     passes when CMD exits 1 with an "error:" message and no crash
#   same NAME FILE1 FILE2 passes when the files are byte-identical
#   skip NAME WHY
: "${OA:?run through make check}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() {
	local name=$1; shift
	if "$@" >"$tmp/out" 2>"$tmp/err"; then echo "PASS $name"
	else echo "FAIL $name: '$*' exited $?"; head -5 "$tmp/err"; fi
}
fails() {
	local name=$1; shift
	"$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	if [ $rc -eq 1 ] && grep -q 'error:' "$tmp/err"; then echo "PASS $name"
	else echo "FAIL $name: '$*' exited $rc (want 1 with an error message)"; head -5 "$tmp/err"; fi
}
same() {
	if cmp -s "$2" "$3"; then echo "PASS $1"; else echo "FAIL $1: $2 and $3 differ"; fi
}
skip() { echo "SKIP $1: $2"; }
