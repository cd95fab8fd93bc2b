#!/bin/sh
# gen.sh -- regenerate the PTX and launch specs of tests/compile/clang7 with clang 14 and
# llc 14 (LLVM's NVPTX back end, not nvcc; make check needs neither).  gen.sh --cases
# prints the lines of tests/compile/cases.txt for them instead.
#   FILE.On.ptx    clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 -On FILE.cu
#                  (-nocudainc -nocudalib: c7.h stands in for CUDA's headers;
#                  +ptx72: .version 7.2, .target sm_80)
#   misc7.O0g.ptx  -O0 -g (full DWARF: .section .debug_info/.debug_abbrev, .loc)
#   coll7.sp.On.ptx  -On -fcuda-short-ptr (32-bit .shared/.local/.const pointers:
#                  mov.u32 %r, SHAREDVAR; ld.shared [%r])
#   cstyle7.O2.ptx plain C: clang -target nvptx64-nvidia-cuda -O2 -fcommon -emit-llvm,
#                  the kernel annotation appended, llc -O2
#   ir7.On.ptx     llc -march=nvptx64 -mcpu=sm_80 -mattr=+ptx72 -On ir7.ll
# Cases (make check cost): -O0 and -O2 for sm_80 and sm_90, -O1 for sm_80,
# -O3 for sm_90; misc7.O0g for three kernels; coll7.sp.O2 for both, coll7.sp.O0
# for sm_90.  The specs come from the //@
# lines (../real2/gen-specs.py); ir7.spec.json is by hand.
cd "$(dirname "$0")" || exit 1
cases=; [ "$1" = --cases ] && cases=1
CL="clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 -nocudainc -nocudalib -Xclang -target-feature -Xclang +ptx72 -Wno-unknown-cuda-version"
line() { # PTX ARCHS KERNELS...
	p=$1 as=$2; shift 2
	for k in "$@"; do
		for a in $as; do echo "tests/compile/clang7/$p $a tests/compile/clang7/$k.spec.json"; done
	done
}
for f in basic7 coll7 misc7 nvvm7 async7; do
	ks=$(sed -n 's,^//@ \([a-z_0-9]*\) .*,\1,p' $f.cu)
	for o in O0 O1 O2 O3; do
		if [ -n "$cases" ]; then
			case $o in O1) as=sm_80 ;; O3) as=sm_90 ;; *) as="sm_80 sm_90" ;; esac
			line $f.$o.ptx "$as" $ks
		else
			$CL -$o -S -o $f.$o.ptx $f.cu || exit 1
		fi
	done
done
for o in O0 O2; do
	if [ -n "$cases" ]; then
		case $o in O0) as=sm_90 ;; *) as="sm_80 sm_90" ;; esac
		line coll7.sp.$o.ptx "$as" $(sed -n 's,^//@ \([a-z_0-9]*\) .*,\1,p' coll7.cu)
	else
		$CL -$o -mllvm --nvptx-short-ptr -Xclang -fcuda-short-ptr -S -o coll7.sp.$o.ptx coll7.cu || exit 1
	fi
done
for o in O0 O2; do
	if [ -n "$cases" ]; then line ir7.$o.ptx "sm_80 sm_90" ir7
	else llc -march=nvptx64 -mcpu=sm_80 -mattr=+ptx72 -$o ir7.ll -o ir7.$o.ptx || exit 1; fi
done
if [ -n "$cases" ]; then line cstyle7.O2.ptx "sm_80 sm_90" kc7
else
	clang -target nvptx64-nvidia-cuda -march=sm_80 -O2 -fcommon -S -emit-llvm -o - cstyle7.c |
		grep -v '^!llvm.ident\|^!llvm.module.flags\|^source_filename' > /tmp/cstyle7.$$.ll || exit 1
	printf '!nvvm.annotations = !{!100}\n!100 = !{void (i32*, i32*)* @kc7, !"kernel", i32 1}\n' >> /tmp/cstyle7.$$.ll
	llc -march=nvptx64 -mcpu=sm_80 -mattr=+ptx72 -O2 /tmp/cstyle7.$$.ll -o cstyle7.O2.ptx || exit 1
	rm -f /tmp/cstyle7.$$.ll
fi
if [ -n "$cases" ]; then line misc7.O0g.ptx sm_90 recs7 chain7 rec7
else $CL -O0 -g -fdebug-prefix-map="$PWD"=tests/compile/clang7 -S -o misc7.O0g.ptx misc7.cu || exit 1; fi
[ -n "$cases" ] || python3 ../real2/gen-specs.py *.cu cstyle7.c > /dev/null
