# gen-ptx.sh -- sourced by tests/compile/real*/gen.sh (from their folder):
# ptx OUT ARCH FLAGS... FILE.cu makes OUT with nvcc, or with --cases
# ($cases set) prints the tests/compile/cases.txt line of each kernel that
# FILE.cu marks with a //@ line.
ptx() {
	o=$1 a=$2; shift 2
	if [ -n "$cases" ]; then
		for k in $(sed -n 's,^//@ \([a-z_0-9]*\) .*,\1,p' "$(echo "$@" | awk '{print $NF}')"); do
			echo "tests/compile/${PWD##*/}/$o $a tests/compile/${PWD##*/}/$k.spec.json"
		done
	else
		nvcc --ptx -arch=$a -o "$o" "$@" || exit 1
	fi
}
cases=; [ "$1" = --cases ] && cases=1
