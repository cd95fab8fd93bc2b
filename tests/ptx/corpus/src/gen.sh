#!/bin/sh
# Regenerate the corpus PTX (needs nvcc 13): run from this folder.
#   nvcc --ptx -O3 -arch=sm_XX -o ../NAME.sm_XX.ptx NAME.cu
# (misc2.cu also with -lineinfo; *90.cu for sm_90 only, also with -G).  Triton kernels:
# see triton_kernels.py (needs pip install triton); LLVM NVPTX kernels: see
# the command at the top of llvm_kernels.cu (clang 14).
set -e
for f in *.cu; do
	case $f in
	llvm_*) continue ;;
	*90.cu) nvcc --ptx -O3 -arch=sm_90 -o ../${f%.cu}.sm_90.ptx $f
		nvcc --ptx -G -arch=sm_90 -o ../${f%.cu}_debug.sm_90.ptx $f; continue ;;
	esac
	extra=
	[ $f = misc2.cu ] && extra=-lineinfo
	for a in 80 90; do
		nvcc --ptx -O3 $extra -arch=sm_$a -o ../${f%.cu}.sm_$a.ptx $f
	done
done
