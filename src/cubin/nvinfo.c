/* nvinfo.c -- names of .nv.info attributes (EIATTR_*), .nv.compat
 * attributes (EICOMPAT_*) and R_CUDA relocation types, and a bounds-checked
 * walker over attribute records.  Record format (docs/findings-cubin.md):
 *   u8 fmt, u8 id, then NVAL: u16 0; BVAL: u8 v, u8 0; HVAL: u16 v;
 *   SVAL: u16 len, len payload bytes.  Records are 4-byte aligned. */
#include <string.h>

#include "cubin/cubin.h"
#include "cubin/elfio.h"

/* Ids 0x00..0x60 in the order of the public EIATTR enumeration; names
 * marked C in the research note were confirmed with cuobjdump. */
static const char *const eiattr[] = {
	"EIATTR_ERROR", "EIATTR_PAD", "EIATTR_IMAGE_SLOT", "EIATTR_JUMPTABLE_RELOCS",
	"EIATTR_CTAIDZ_USED", "EIATTR_MAX_THREADS", "EIATTR_IMAGE_OFFSET", "EIATTR_IMAGE_SIZE",
	"EIATTR_TEXTURE_NORMALIZED", "EIATTR_SAMPLER_INIT", "EIATTR_PARAM_CBANK",
	"EIATTR_SMEM_PARAM_OFFSETS", "EIATTR_CBANK_PARAM_OFFSETS", "EIATTR_SYNC_STACK",
	"EIATTR_TEXID_SAMPID_MAP", "EIATTR_EXTERNS", "EIATTR_REQNTID", "EIATTR_FRAME_SIZE",
	"EIATTR_MIN_STACK_SIZE", "EIATTR_SAMPLER_FORCE_UNNORMALIZED", "EIATTR_BINDLESS_IMAGE_OFFSETS",
	"EIATTR_BINDLESS_TEXTURE_BANK", "EIATTR_BINDLESS_SURFACE_BANK", "EIATTR_KPARAM_INFO",
	"EIATTR_SMEM_PARAM_SIZE", "EIATTR_CBANK_PARAM_SIZE", "EIATTR_QUERY_NUMATTRIB",
	"EIATTR_MAXREG_COUNT", "EIATTR_EXIT_INSTR_OFFSETS", "EIATTR_S2RCTAID_INSTR_OFFSETS",
	"EIATTR_CRS_STACK_SIZE", "EIATTR_NEED_CNP_WRAPPER", "EIATTR_NEED_CNP_PATCH",
	"EIATTR_EXPLICIT_CACHING", "EIATTR_ISTYPEP_USED", "EIATTR_MAX_STACK_SIZE",
	"EIATTR_SUQ_USED", "EIATTR_LD_CACHEMOD_INSTR_OFFSETS", "EIATTR_LOAD_CACHE_REQUEST",
	"EIATTR_ATOM_SYS_INSTR_OFFSETS", "EIATTR_COOP_GROUP_INSTR_OFFSETS",
	"EIATTR_COOP_GROUP_MAX_REGIDS", "EIATTR_SW1850030_WAR", "EIATTR_WMMA_USED",
	"EIATTR_HAS_PRE_V10_OBJECT", "EIATTR_ATOMF16_EMUL_INSTR_OFFSETS",
	"EIATTR_ATOM16_EMUL_INSTR_REG_MAP", "EIATTR_REGCOUNT", "EIATTR_SW2393858_WAR",
	"EIATTR_INT_WARP_WIDE_INSTR_OFFSETS", "EIATTR_SHARED_SCRATCH", "EIATTR_STATISTICS",
	"EIATTR_INDIRECT_BRANCH_TARGETS", "EIATTR_SW2861232_WAR", "EIATTR_SW_WAR",
	"EIATTR_CUDA_API_VERSION", "EIATTR_NUM_MBARRIERS", "EIATTR_MBARRIER_INSTR_OFFSETS",
	"EIATTR_COROUTINE_RESUME_OFFSETS", "EIATTR_SAM_REGION_STACK_SIZE",
	"EIATTR_PER_REG_TARGET_PERF_STATS", "EIATTR_CTA_PER_CLUSTER", "EIATTR_EXPLICIT_CLUSTER",
	"EIATTR_MAX_CLUSTER_RANK", "EIATTR_INSTR_REG_MAP", "EIATTR_RESERVED_SMEM_USED",
	"EIATTR_RESERVED_SMEM_0_SIZE", "EIATTR_UCODE_SECTION_DATA", "EIATTR_UNUSED_LOAD_BYTE_OFFSET",
	"EIATTR_KPARAM_INFO_V2", "EIATTR_SYSCALL_OFFSETS", "EIATTR_SW_WAR_MEMBAR_SYS_INSTR_OFFSETS",
	"EIATTR_GRAPHICS_GLOBAL_CBANK", "EIATTR_SHADER_TYPE", "EIATTR_VRC_CTA_INIT_COUNT",
	"EIATTR_TOOLS_PATCH_FUNC", "EIATTR_NUM_BARRIERS", "EIATTR_TEXMODE_INDEPENDENT",
	"EIATTR_PERF_STATISTICS", "EIATTR_AT_ENTRY_FRAGMENTS", "EIATTR_SPARSE_MMA_MASK",
	"EIATTR_TCGEN05_1CTA_USED", "EIATTR_TCGEN05_2CTA_USED", "EIATTR_GEN_ERRBAR_AT_EXIT",
	"EIATTR_REG_RECONFIG", "EIATTR_ANNOTATIONS", "EIATTR_UNKNOWN",
	"EIATTR_STACK_CANARY_TRAP_OFFSETS", "EIATTR_STUB_FUNCTION_KIND",
	"EIATTR_LOCAL_CTA_ASYNC_STORE_OFFSETS", "EIATTR_MERCURY_FINALIZER_OPTIONS",
	"EIATTR_BLOCKS_ARE_CLUSTERS", "EIATTR_SANITIZE", "EIATTR_SYSCALLS_FALLBACK",
	"EIATTR_CUDA_REQ", "EIATTR_MERCURY_ISA_VERSION", "EIATTR_ERROR_LAST",
};

const char *
eiattr_name(int id)
{
	return id >= 0 && id < (int)NELEM(eiattr) ? eiattr[id] : NULL;
}

int
eiattr_lookup(const char *name)
{
	size_t i;

	for (i = 0; i < NELEM(eiattr); i++)
		if (!strcmp(eiattr[i], name))
			return i;
	return -1;
}

/* .nv.compat ids (names from public reverse engineering; see the note). */
static const struct {
	int id;
	const char *name;
} eicompat[] = {
	{0x02, "EICOMPAT_ATTR_ISA_CLASS"},
	{0x03, "EICOMPAT_ATTR_INST_TENSORMAP_V1"},
	{0x05, "EICOMPAT_ATTR_INST_TCGEN05_MMA"},
	{0x06, "EICOMPAT_ATTR_ENABLE_OPPORTUNISTIC_FINALIZATION"},
	{0x07, "EICOMPAT_ATTR_MERCURY_ISA_MAJOR_MINOR_VERSION"},
	{0x09, "EICOMPAT_ATTR_CUDA_ACCELERATOR_TARGET"},
	{0x0b, "EICOMPAT_ATTR_CAN_FASTPATH_FINALIZE"},
};

const char *
eicompat_name(int id)
{
	size_t i;

	for (i = 0; i < NELEM(eicompat); i++)
		if (eicompat[i].id == id)
			return eicompat[i].name;
	return NULL;
}

int
eicompat_lookup(const char *name)
{
	size_t i;

	for (i = 0; i < NELEM(eicompat); i++)
		if (!strcmp(eicompat[i].name, name))
			return eicompat[i].id;
	return -1;
}

static const struct {
	u32 type;
	const char *name;
} rcuda[] = {
	{0, "R_CUDA_NONE"}, {1, "R_CUDA_32"}, {2, "R_CUDA_64"}, {3, "R_CUDA_G32"},
	{4, "R_CUDA_G64"}, {0x38, "R_CUDA_ABS32_LO_32"}, {0x39, "R_CUDA_ABS32_HI_32"},
	{0x3a, "R_CUDA_ABS47_34"}, {0x3b, "R_CUDA_ABS16_32"}, {0x42, "R_CUDA_CONST_FIELD21_38"},
	{0x49, "R_CUDA_UNUSED_CLEAR64"}, {0x4a, "R_CUDA_ABS24_40"}, {0x4b, "R_CUDA_ABS55_16_34"},
	{0x54, "R_CUDA_8_0"}, {0x55, "R_CUDA_8_8"}, {0x56, "R_CUDA_8_16"}, {0x57, "R_CUDA_8_24"},
	{0x58, "R_CUDA_8_32"}, {0x59, "R_CUDA_8_40"}, {0x5a, "R_CUDA_8_48"}, {0x5b, "R_CUDA_8_56"},
};

const char *
rcuda_name(u32 type)
{
	size_t i;

	for (i = 0; i < NELEM(rcuda); i++)
		if (rcuda[i].type == type)
			return rcuda[i].name;
	return NULL;
}

int
rcuda_lookup(const char *name)
{
	size_t i;

	for (i = 0; i < NELEM(rcuda); i++)
		if (!strcmp(rcuda[i].name, name))
			return rcuda[i].type;
	return -1;
}

int
info_next(const u8 *p, u64 n, u64 *pos, InfoRec *r, const char *path, const char *sec)
{
	u64 at = *pos;

	if (n - at < 4) {
		diag(path, "%s: truncated attribute record at offset 0x%llx", sec, (unsigned long long)at);
		return -1;
	}
	r->off = at;
	r->fmt = p[at];
	r->id = p[at + 1];
	r->len = rd16(p + at + 2);
	r->payload = NULL;
	switch (r->fmt) {
	case EIFMT_NVAL:
	case EIFMT_BVAL:
	case EIFMT_HVAL:
		*pos = at + 4;
		return 0;
	case EIFMT_SVAL:
		if (n - at - 4 < r->len) {
			diag(path, "%s: attribute 0x%02x at offset 0x%llx: payload of %u bytes runs past the section end",
			     sec, r->id, (unsigned long long)at, r->len);
			return -1;
		}
		r->payload = p + at + 4;
		*pos = at + 4 + r->len;
		return 0;
	default:
		diag(path, "%s: bad attribute format %u at offset 0x%llx", sec, r->fmt, (unsigned long long)at);
		return -1;
	}
}
