/* cstyle7.c -- tests/compile/clang7: plain C for nvptx64 (clang -target
 * nvptx64-nvidia-cuda -emit-llvm, a kernel annotation appended by gen.sh,
 * llc): a tentative definition (.weak .global with -fcommon), an
 * initialized table, a read-only byte string (ld.global.nc.u8), a
 * non-static .visible .func and bar.sync through the NVVM builtins. */
int counter;
int table[4] = {1, 2, 3, 4};
static const char msg[] = "hello";
__attribute__((noinline)) int f(int x) { return x * table[x & 3] + counter + msg[x % 5]; }
//@ kc7 grid=1 block=64 | o:s32[64] check | a:s32[64] rand(0,100)
void kc7(int *o, const int *a) {
	int i = __nvvm_read_ptx_sreg_tid_x();
	if (i == 0) counter = 7;
	__nvvm_bar_sync(0);
	o[i] = f(a[i]);
}
