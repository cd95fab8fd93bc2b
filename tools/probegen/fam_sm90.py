"""fam_sm90.py -- Hopper features: wgmma (sm_90a), setmaxnreg (sm_90a),
mbarrier (the sm_80 subset too), cp.async.bulk and cp.async.bulk.tensor,
cp.reduce.async.bulk, elect.sync, clusters and distributed shared memory
(mapa, getctarank, barrier.cluster, ld/st/atom on shared::cluster,
st.async, red.async), multimem, tensormap.replace, misc."""

SM = ".shared .align 128 .b8 sbuf[16384];\n.shared .align 8 .b64 mbar[4];\n"


def mb(k, i=0):
	if "mb" not in k.__dict__:
		k.mb = k.new("r")
		k.head.append(f"\tmov.u32 {k.mb}, mbar;")
		k.sb = k.new("r")
		k.head.append(f"\tmov.u32 {k.sb}, sbuf;")
	return f"[{k.mb}+{8 * i}]"


def generate(g):
	b = g.batch("mbarrier", per_kernel=30, decls=SM)
	k = b.k(10)
	mb(k)
	st = k.new("rd")
	p = k.new("p")
	k.emit(f"mbarrier.init.shared.b64 {mb(k)}, {k.inp('r')};")
	k.emit("mbarrier.init.shared.b64 [mbar+8], 32;")
	k.emit("mbarrier.init.b64 [%in], 1;")
	k.emit(f"mbarrier.arrive.shared.b64 {st}, {mb(k)};")
	k.st(st, "rd")
	k.emit(f"mbarrier.arrive.noComplete.shared.b64 {st}, {mb(k, 1)}, 2;")
	k.st(st, "rd")
	k.emit(f"mbarrier.arrive_drop.shared.b64 {st}, {mb(k)};")
	k.st(st, "rd")
	k.emit(f"mbarrier.arrive_drop.noComplete.shared.b64 {st}, {mb(k)}, {k.inp('r')};")
	k.emit(f"mbarrier.test_wait.shared.b64 {p}, {mb(k)}, {st};")
	k.st(p, "p")
	k.emit(f"mbarrier.test_wait.parity.shared.b64 {p}, {mb(k, 1)}, 1;")
	k.st(p, "p")
	d = k.new("r")
	k.emit(f"mbarrier.pending_count.b64 {d}, {st};")
	k.st(d, "r")
	k.emit(f"mbarrier.arrive.b64 {st}, [%in+8];")
	k.st(st, "rd")
	k.emit(f"mbarrier.inval.shared.b64 {mb(k, 1)};")
	if g.sm < 90:
		return
	for sem in ["", ".release.cta", ".release.cluster", ".relaxed.cta" if False else ".release.cta"]:
		for sp in [".shared::cta", ".shared::cluster"]:
			k = b.k(6)
			mb(k)
			st, p, d = k.new("rd"), k.new("p"), k.new("r")
			if sp == ".shared::cta":
				k.emit(f"mbarrier.arrive{sem}{sp}.b64 {st}, {mb(k)};")
				k.st(st, "rd")
				k.emit(f"mbarrier.arrive.expect_tx{sem}{sp}.b64 {st}, {mb(k, 1)}, {k.inp('r')};")
				k.st(st, "rd")
				k.emit(f"mbarrier.arrive{sem}{sp}.b64 {st}, {mb(k, 2)}, 4;")
				k.st(st, "rd")
			else:
				k.emit(f"mbarrier.arrive{sem}{sp}.b64 _, {mb(k)};")
				k.emit(f"mbarrier.arrive.expect_tx{sem}{sp}.b64 _, {mb(k, 1)}, 256;")
			k.emit(f"mbarrier.expect_tx.relaxed.cta{sp}.b64 {mb(k, 2)}, 128;")
			k.emit(f"mbarrier.complete_tx.relaxed.cta{sp}.b64 {mb(k, 2)}, {k.inp('r')};")
	for w in ["try_wait", "test_wait"]:
		for par in ["", ".parity"]:
			for sem in ["", ".acquire.cta", ".acquire.cluster"]:
				k = b.k(3)
				mb(k)
				st, p = k.new("rd"), k.new("p")
				k.emit(f"mbarrier.arrive.shared::cta.b64 {st}, {mb(k)};")
				arg = "1" if par else st
				if par and sem:
					arg = k.inp("r")
				k.emit(f"mbarrier.{w}{par}{sem}.shared::cta.b64 {p}, {mb(k)}, {arg};")
				k.st(p, "p")
				if w == "try_wait":
					k.emit(f"mbarrier.{w}{par}{sem}.shared::cta.b64 {p}, {mb(k)}, {arg}, 1000;")
					k.st(p, "p")
	# wait loop, the CUTLASS way
	k = b.k(5)
	mb(k)
	k.emit("{ .reg .pred %w;")
	k.emit("WAIT:")
	k.emit(f"mbarrier.try_wait.parity.shared::cta.b64 %w, {mb(k)}, {k.inp('r')};")
	k.emit("@!%w bra WAIT; }")
	# bulk copies
	b = g.batch("bulk", per_kernel=12, decls=SM)
	for i in range(6):
		k = b.k(4)
		mb(k)
		sz = [16, 128, 4096, 256, 1024, 64][i]
		size = k.inp("r") if i == 3 else str(sz)
		k.emit(f"mbarrier.init.shared::cta.b64 {mb(k)}, 1;")
		k.emit(f"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [{k.sb}+{i * 128}], [%in+{i * 256}], {size}, {mb(k)};")
		if i == 1:
			k.emit(f"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [{k.sb}], [%in], 256, {mb(k)}, {k.inp('h')};")
			pol = k.new("rd")
			k.emit(f"createpolicy.fractional.L2::evict_first.b64 {pol}, 1.0;")
			k.emit(f"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [{k.sb}], [%in], 256, {mb(k)}, {pol};")
			k.emit(f"cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [%out+256], [{k.sb}], 128, {pol};")
		k.emit(f"cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [{k.sb}+4096], [{k.sb}+{i * 16}], {size}, {mb(k)};")
		k.emit(f"cp.async.bulk.global.shared::cta.bulk_group [%out+{i * 512}], [{k.sb}], {size};")
		k.emit(f"cp.reduce.async.bulk.global.shared::cta.bulk_group.{['add.f32', 'min.u32', 'max.s32', 'and.b32', 'inc.u32', 'add.noftz.f16'][i]} [%out+{i * 64}], [{k.sb}], {size};")
		k.emit(f"cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.{['add.u32', 'min.s32', 'max.u32', 'or.b32', 'dec.u32', 'xor.b32'][i]} [{k.sb}+8192], [{k.sb}], {size}, {mb(k)};")
		k.emit(f"cp.async.bulk.prefetch.L2.global [%in+{i * 1024}], {size};")
		k.emit("cp.async.bulk.commit_group;")
		k.emit(f"cp.async.bulk.wait_group {i % 3};")
		k.emit(f"cp.async.bulk.wait_group.read {i % 2};")
		d = k.new("r")
		k.emit(f"ld.shared.b32 {d}, [{k.sb}+{i * 4}];")
		k.st(d, "r")
	# tensor copies: tensormap is a kernel parameter (its generic address)
	for dim in range(1, 6):
		for mode in ["tile", "im2col"]:
			if mode == "im2col" and dim < 3:
				continue
			k = b.k(4)
			mb(k)
			k.extra_params = [".param .u64 .ptr .align 64 tmap"]
			tm = k.new("rd")
			k.head.append(f"\tmov.u64 {tm}, tmap;")
			crd = "{" + ", ".join(k.inp("r") for _ in range(dim)) + "}"
			im = ""
			if mode == "im2col":
				im = ", {" + ", ".join(k.inp("h") for _ in range(dim - 2)) + "}"
			k.emit(f"cp.async.bulk.tensor.{dim}d.shared::cluster.global.{mode}.mbarrier::complete_tx::bytes [{k.sb}], [{tm}, {crd}], {mb(k)}{im};")
			if mode == "tile":
				k.emit(f"cp.async.bulk.tensor.{dim}d.shared::cluster.global.{mode}.mbarrier::complete_tx::bytes.multicast::cluster [{k.sb}], [{tm}, {crd}], {mb(k)}, {k.inp('h')};")
				k.emit(f"cp.async.bulk.tensor.{dim}d.global.shared::cta.{mode}.bulk_group [{tm}, {crd}], [{k.sb}];")
				k.emit(f"cp.reduce.async.bulk.tensor.{dim}d.global.shared::cta.{['add', 'min', 'max', 'inc', 'and'][dim - 1]}.{mode}.bulk_group [{tm}, {crd}], [{k.sb}];")
				k.emit(f"cp.async.bulk.prefetch.tensor.{dim}d.L2.global.{mode} [{tm}, {crd}];")
			k.emit("cp.async.bulk.commit_group;")
			k.emit("cp.async.bulk.wait_group.read 0;")
			k.emit(f"fence.proxy.tensormap::generic.acquire.gpu [{tm}], 128;")
			k.emit(f"prefetch.tensormap [{tm}];")
	# elect, cluster, distributed shared memory
	b = g.batch("cluster", per_kernel=20, decls=SM)
	for m in ["-1", "0xffff", "r"]:
		k = b.k()
		d, p = k.new("r"), k.new("p")
		mk = k.inp("r") if m == "r" else m
		k.emit(f"elect.sync {d}|{p}, {mk};")
		k.st(d, "r")
		k.st(p, "p")
		k.emit(f"elect.sync _|{p}, {mk};")
		k.emit(f"@{p} st.global.b32 [%out+64], {d};")
	k = b.k(8)
	for m in ["barrier.cluster.arrive", "barrier.cluster.arrive.relaxed", "barrier.cluster.wait",
			"barrier.cluster.arrive.aligned", "barrier.cluster.wait.aligned", "barrier.cluster.arrive.release",
			"barrier.cluster.wait.acquire", "barrier.cluster.arrive.relaxed.aligned"]:
		k.emit(m + ";")
	for v in range(4):
		k = b.k(5)
		mb(k)
		rank = k.inp("r") if v % 2 else str(v)
		d, d2 = k.new("r"), k.new("r")
		k.emit(f"mapa.shared::cluster.u32 {d}, {k.sb}, {rank};")
		k.st(d, "r")
		a64 = k.new("rd")
		k.emit(f"mapa.u64 {a64}, {k.inp('rd')}, {rank};")
		k.st(a64, "rd")
		k.emit(f"getctarank.shared::cluster.u32 {d2}, {d};")
		k.st(d2, "r")
		k.emit(f"getctarank.u64 {d2}, {a64};")
		k.st(d2, "r")
		x = k.new("r")
		k.emit(f"ld.shared::cluster.b32 {x}, [{d}+{v * 8}];")
		k.st(x, "r")
		k.emit(f"ld.relaxed.cluster.shared::cluster.b32 {x}, [{d}];")
		k.st(x, "r")
		k.emit(f"ld.acquire.cluster.shared::cluster.v2.b32 {{{x}, {d2}}}, [{d}+8];") if False else None
		k.emit(f"st.shared::cluster.b32 [{d}+{v * 16}], {k.inp('r')};")
		k.emit(f"st.shared::cluster.v2.b32 [{d}+32], {{{k.inp('r')}, {k.inp('r')}}};")
		k.emit(f"st.release.cluster.shared::cluster.b32 [{d}], {x};")
		k.emit(f"atom.shared::cluster.add.u32 {x}, [{d}+4], 1;")
		k.st(x, "r")
		k.emit(f"atom.release.cluster.shared::cluster.cas.b32 {x}, [{d}+4], {x}, 3;")
		k.st(x, "r")
		k.emit(f"red.shared::cluster.add.u32 [{d}], {k.inp('r')};")
		k.emit(f"red.shared::cluster.max.s32 [{d}+12], {k.inp('r')};")
		k.emit(f"st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [{d}], {x}, [{d2}];")
		k.emit(f"st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.b32 [{d}+8], {{{x}, {d2}}}, [{d2}];")
		k.emit(f"st.async.shared::cluster.mbarrier::complete_tx::bytes.b64 [{d}+16], {a64}, [{d2}];")
		k.emit(f"st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.f32 [{d}+32], {{{x}, {d2}, {x}, {d2}}}, [{d2}];")
		k.emit(f"red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [{d}], {x}, [{d2}];")
		k.emit(f"red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.{['min.s32', 'max.u32', 'inc.u32', 'and.b32'][v]} [{d}+4], {x}, [{d2}];")
		k.emit(f"red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u64 [{d}+8], {a64}, [{d2}];")
	# multimem, misc sm_90
	k = b.k(8)
	x = k.new("r")
	for o in ["add.f32", "add.u32", "min.s32", "max.u32", "and.b32", "xor.b64", "add.v2.f32" if False else "add.f64"]:
		c = "rd" if "64" in o else "r"
		d = k.new(c)
		k.emit(f"multimem.ld_reduce.relaxed.sys.global.{o} {d}, [%in];")
		k.st(d, c)
		k.emit(f"multimem.red.relaxed.sys.global.{o} [%out+8], {d};")
	k.emit(f"multimem.ld_reduce.relaxed.sys.global.add.acc::f32.v4.f16x2 {{{x}, {k.new('r')}, {k.new('r')}, {k.new('r')}}}, [%in];") if False else None
	k.emit(f"multimem.st.relaxed.sys.global.f32 [%out+16], {k.inp('r')};")
	k.emit(f"multimem.st.release.gpu.global.v4.f32 [%out+32], {{{k.inp('r')}, {k.inp('r')}, {k.inp('r')}, {k.inp('r')}}};")
	for m in ["applypriority.global.L2::evict_normal [%in], 128;", "discard.global.L2 [%in+128], 128;"]:
		k.emit(m)
	# sm_90a only: setmaxnreg, wgmma, tensormap.replace
	b = g.batch("sm90a", target="sm_90a", per_kernel=4, per_module=1, decls=SM)
	for inc, n in [("inc", 240), ("dec", 40), ("inc", 232), ("dec", 24), ("inc", 168)]:
		k = b.k(4)
		k.directives = f" .maxnreg {128 if inc == 'inc' else 232}"
		d = k.new("r")
		k.emit(f"setmaxnreg.{inc}.sync.aligned.u32 {n};")
		k.emit(f"mov.u32 {d}, %warpid;")
		k.st(d, "r")
	for f in ["global_address", "rank", "box_dim", "global_dim", "global_stride", "element_stride",
			"elemtype", "interleave_layout", "swizzle_mode", "fill_mode"]:
		k = b.k()
		mb(k)
		ord_ = "" if f in ("global_address", "rank", "elemtype", "interleave_layout", "swizzle_mode", "fill_mode") else ", 1"
		ty = "b64" if f in ("global_address", "global_stride") else "b32"
		v = k.inp("rd" if ty == "b64" else "r") if ord_ or f in ("global_address", "rank") else "1"
		k.emit(f"tensormap.replace.tile.{f}.shared::cta.b1024.{ty} [{k.sb}]{ord_}, {v};")
	b = g.batch("wgmma", target="sm_90a", per_kernel=3, per_module=2, decls=SM)
	WG = [("f16", "f16", "f32", 16, True), ("f16", "f16", "f16", 16, True), ("bf16", "bf16", "f32", 16, True),
		("tf32", "tf32", "f32", 8, False), ("e4m3", "e4m3", "f32", 32, False), ("e5m2", "e4m3", "f16", 32, False),
		("s8", "s8", "s32", 32, None), ("u8", "s8", "s32", 32, None), ("b1", "b1", "s32", 256, None)]
	for at, bt, ct, kk, trans in WG:
		for n in ([8, 16, 24, 32, 64, 96, 128, 192, 256] if at in ("f16", "bf16", "tf32") else [8, 32, 128, 256]):
			for asrc in ["desc", "reg"]:
				if asrc == "reg" and n not in (8, 64, 256):
					continue
				k = b.k()
				mb(k)
				nd = n // 2 if ct in ("f32", "s32") else n // 4
				D = "{" + ", ".join(k.new("r") for _ in range(nd)) + "}"
				da, db = k.inp("rd"), k.inp("rd")
				sat = ".satfinite" if ct == "s32" and n == 32 else ""
				ab = "" if at == "b1" else ""
				mn = f"wgmma.mma_async.sync.aligned.m64n{n}k{kk}{sat}.{ct}.{at}.{bt}"
				if at == "b1":
					mn = f"wgmma.mma_async.sync.aligned.m64n{n}k{kk}.{ct}.{at}.{bt}.and.popc"
				if asrc == "reg":
					A = "{" + ", ".join(k.inp("r") for _ in range(4)) + "}"
				else:
					A = da
				if trans is True:
					args = "1, 1, 0, 1" if asrc == "desc" else "1, 1, 1"
					args = ("1, -1, 0, 1" if asrc == "desc" else "1, -1, 1") if n == 64 else args
				elif trans is False:
					args = "1, -1" if n == 64 else "1, 1"
				else:
					args = ""
				p = k.pin()
				k.emit("wgmma.fence.sync.aligned;")
				k.emit(f"{mn} {D}, {A}, {db}, {p}{', ' + args if args else ''};")
				k.emit(f"{mn} {D}, {A}, {db}, 1{', ' + args if args else ''};") if n == 8 else None
				k.emit("wgmma.commit_group.sync.aligned;")
				k.emit(f"wgmma.wait_group.sync.aligned {0 if n != 16 else 1};")
				regs_ = D[1:-1].split(", ")
				for r in regs_[:8] if n > 64 else regs_:
					k.st(r, "r")
				if n > 64:
					k.emit(f"st.global.v4.b32 [%out+4096], {{{', '.join(regs_[-4:])}}};")
					s = k.new("r")
					k.emit(f"add.u32 {s}, {regs_[8]}, {regs_[-5]};")
					for r in regs_[9:-5]:
						k.emit(f"add.u32 {s}, {s}, {r};")
					k.st(s, "r")
