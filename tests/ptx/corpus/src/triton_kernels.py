# triton_kernels.py -- a few Triton kernels compiled to PTX without a GPU
# (triton.compile with an explicit target).  Run with a Python that has
# `pip install triton` (3.9.0 was used):  python3 triton_kernels.py
# writes ../triton_<name>.sm_<arch>.ptx.  TRITON_PTXAS_PATH=$(which ptxas) and
# TRITON_PTXAS_BLACKWELL_PATH=$(which ptxas) make
# Triton target the PTX version of our CUDA 13.0 ptxas (9.0) instead of its own.
import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


@triton.jit
def softmax_kernel(out_ptr, in_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(in_ptr + row * stride + cols, mask=cols < n_cols, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    y = num / tl.sum(num, axis=0)
    tl.store(out_ptr + row * stride + cols, y, mask=cols < n_cols)


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = a_ptr + rm[:, None] * sam + rk[None, :] * sak
    b = b_ptr + rk[:, None] * sbk + rn[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        acc += tl.dot(tl.load(a), tl.load(b))
        a += BK * sak
        b += BK * sbk
    c = c_ptr + rm[:, None] * scm + rn[None, :] * scn
    tl.store(c, acc.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))


kernels = [
    ("add", add_kernel, {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32",
                         "BLOCK": "constexpr"}, {"BLOCK": 1024}),
    ("softmax", softmax_kernel, {"out_ptr": "*fp32", "in_ptr": "*fp32", "stride": "i32",
                                 "n_cols": "i32", "BLOCK": "constexpr"}, {"BLOCK": 1024}),
    ("matmul", matmul_kernel, dict({k: "*fp16" for k in ("a_ptr", "b_ptr", "c_ptr")},
                                   **{k: "i32" for k in ("M", "N", "K", "sam", "sak", "sbk",
                                                          "sbn", "scm", "scn")},
                                   **{k: "constexpr" for k in ("BM", "BN", "BK")}),
     {"BM": 128, "BN": 128, "BK": 64}),
]

for name, fn, sig, consts in kernels:
    for arch in (80, 90):
        src = ASTSource(fn=fn, signature=sig, constexprs=consts)
        k = triton.compile(src, target=GPUTarget("cuda", arch, 32))
        with open("../triton_%s.sm_%d.ptx" % (name, arch), "w") as f:
            f.write(k.asm["ptx"])
        print(name, arch, len(k.asm["ptx"]))
