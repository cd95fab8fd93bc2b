# cubin_gpu.sh -- tools/gpu-check on a machine without a GPU: everything
# short of the launch runs (read, reassemble byte-exact, from scratch), and
# the missing driver is reported clearly.
. tests/cli/lib.bash
OA_LIBCUDA=/nonexistent/libcuda.so.1 tools/gpu-check "$OA" > "$tmp/gc" 2>&1
rc=$?
[ $rc -eq 0 ] && echo "PASS gpu_check_without_driver" || { echo "FAIL gpu_check_without_driver: exit $rc"; grep FAIL "$tmp/gc" | head -3; }
grep -q '^SKIP gpucheck: no CUDA driver: launch skipped' "$tmp/gc" &&
	echo "PASS gpu_check_says_no_driver" || echo "FAIL gpu_check_says_no_driver"
n=$(grep -c '^PASS read ' "$tmp/gc")
[ "$n" -ge 20 ] && grep -q 'PASS read .*single.sm_90.scratch.cubin' "$tmp/gc" &&
grep -q 'PASS read .*single.sm_90.re.cubin' "$tmp/gc" && ! grep -q '^FAIL' "$tmp/gc" &&
	echo "PASS gpu_check_lists_cubins" || echo "FAIL gpu_check_lists_cubins ($n read)"
OA_LIBCUDA=/nonexistent/libcuda.so.1 "$OA" gpucheck --require-driver tests/cubin/single.sm_90.cubin > "$tmp/gc2" 2>&1
[ $? -eq 1 ] && echo "PASS gpu_check_require_driver" || echo "FAIL gpu_check_require_driver"
stub=/usr/local/cuda/lib64/stubs/libcuda.so
if [ -e $stub ]; then
	OA_LIBCUDA=$stub "$OA" gpucheck tests/cubin/single.sm_90.cubin > "$tmp/gc3" 2>&1
	[ $? -eq 0 ] && grep -q 'no CUDA driver: launch skipped' "$tmp/gc3" &&
		echo "PASS gpu_check_stub_driver" || echo "FAIL gpu_check_stub_driver"
else
	skip gpu_check_stub_driver "no CUDA stub library at $stub"
fi
grep -q '^PASS read tests/kernels/.*/kernel.sm_90.cubin' "$tmp/gc" &&
grep -q '^PASS read .*\.90\.re\.cubin' "$tmp/gc" &&
	echo "PASS gpu_check_covers_suite" || echo "FAIL gpu_check_covers_suite"
