; ir7.ll -- tests/compile/clang7: LLVM IR straight to llc (gen.sh), the NVPTX back end's
; shapes for i1/i8/i16 kernel parameters, <4 x i8> and <2 x i16> vector loads
; and stores (ld.global.v4.u8 into .b16 registers), 16-bit select/div/abs,
; mul.hi.s16, i128 arithmetic, st.u32 of a 64-bit register.  Spec: ir7.spec.json
; (by hand).
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @ir7(<4 x i8> addrspace(1)* %o8, <2 x i16> addrspace(1)* %o16, <4 x i8> addrspace(1)* %a, <2 x i16> addrspace(1)* %b, i8 %k, i16 %h, i1 %flag, <4 x float> addrspace(1)* %of, i32 addrspace(1)* %oi) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %t to i64
  %pa = getelementptr <4 x i8>, <4 x i8> addrspace(1)* %a, i64 %t64
  %va = load <4 x i8>, <4 x i8> addrspace(1)* %pa, align 4
  %pb = getelementptr <2 x i16>, <2 x i16> addrspace(1)* %b, i64 %t64
  %vb = load <2 x i16>, <2 x i16> addrspace(1)* %pb, align 4
  %ki = insertelement <4 x i8> undef, i8 %k, i32 0
  %ks = shufflevector <4 x i8> %ki, <4 x i8> undef, <4 x i32> zeroinitializer
  %s1 = add <4 x i8> %va, %ks
  %m1 = mul <4 x i8> %s1, %va
  %c1 = icmp ult <4 x i8> %m1, <i8 100, i8 50, i8 200, i8 7>
  %r1 = select <4 x i1> %c1, <4 x i8> %m1, <4 x i8> %va
  %sh = lshr <4 x i8> %r1, <i8 1, i8 2, i8 3, i8 4>
  %fl = select i1 %flag, <4 x i8> %sh, <4 x i8> %r1
  %po = getelementptr <4 x i8>, <4 x i8> addrspace(1)* %o8, i64 %t64
  store <4 x i8> %fl, <4 x i8> addrspace(1)* %po, align 4
  %hi = insertelement <2 x i16> undef, i16 %h, i32 1
  %hv = insertelement <2 x i16> %hi, i16 3, i32 0
  %d16 = sdiv <2 x i16> %vb, %hv
  %x16 = xor <2 x i16> %d16, %vb
  %c2 = icmp slt <2 x i16> %x16, zeroinitializer
  %n16 = sub <2 x i16> zeroinitializer, %x16
  %ab = select <2 x i1> %c2, <2 x i16> %n16, <2 x i16> %x16
  %pc = getelementptr <2 x i16>, <2 x i16> addrspace(1)* %o16, i64 %t64
  store <2 x i16> %ab, <2 x i16> addrspace(1)* %pc, align 4
  %f = uitofp <4 x i8> %va to <4 x float>
  %g = sitofp <2 x i16> %vb to <2 x float>
  %g4 = shufflevector <2 x float> %g, <2 x float> undef, <4 x i32> <i32 1, i32 0, i32 1, i32 0>
  %fm = fmul <4 x float> %f, %g4
  %pf = getelementptr <4 x float>, <4 x float> addrspace(1)* %of, i64 %t64
  store <4 x float> %fm, <4 x float> addrspace(1)* %pf, align 16
  %e0 = extractelement <4 x i8> %va, i32 2
  %e1 = extractelement <2 x i16> %vb, i32 1
  %z0 = sext i8 %e0 to i32
  %z1 = zext i16 %e1 to i32
  %w = mul i32 %z0, %z1
  %c3 = icmp eq i32 %w, 0
  %b1 = zext i1 %c3 to i32
  %ww = add i32 %w, %b1
  %big = zext i32 %ww to i128
  %bm = mul i128 %big, 340282366920938463463374607431768211
  %bs = lshr i128 %bm, 70
  %bt = trunc i128 %bs to i32
  %pi = getelementptr i32, i32 addrspace(1)* %oi, i64 %t64
  store i32 %bt, i32 addrspace(1)* %pi, align 4
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{void (<4 x i8> addrspace(1)*, <2 x i16> addrspace(1)*, <4 x i8> addrspace(1)*, <2 x i16> addrspace(1)*, i8, i16, i1, <4 x float> addrspace(1)*, i32 addrspace(1)*)* @ir7, !"kernel", i32 1}
