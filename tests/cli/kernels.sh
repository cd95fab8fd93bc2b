# kernels.sh -- the kernel suite's generated files and C references:
#   regen --check: the committed PTX is what nvcc 13.0 produces now (SKIP without nvcc);
#   hostsim: each kernel.cu run as host C++ matches its ref.c (OA_LONG=1 only: ~1 s a kernel).
source tests/cli/lib.bash
tests/kernels/regen --check
if [ "${OA_LONG:-0}" = 1 ]; then
	tests/kernels/hostsim/run
else
	skip kernels_hostsim "long test (make check-long)"
fi
