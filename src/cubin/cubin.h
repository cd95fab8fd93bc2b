/* cubin.h -- the CUDA ELF container (cubin) for sm_80 and sm_90: an
 * in-memory model, a bounds-checked reader, a writer that lays the file out
 * the way ptxas 13 does, the .nv.info attribute tables, the text listing
 * (disasm) and its assembler (as), and a from-scratch kernel builder.
 *
 * Model.  A Cubin is the ELF header fields, the sections in file order
 * (index 0 is the null section), the symbols of .symtab and the program
 * headers.  Section contents are bytes, except that .symtab is regenerated
 * from the symbol list and the string tables gain any missing names when
 * the file is written.  File offsets are derived, not stored: each section
 * starts at its alignment after the previous one, plus `gap` bytes of
 * zeros (ptxas sometimes leaves such holes; keeping them makes the round
 * trip byte-exact).  See docs/findings-cubin.md. */
#ifndef OA_CUBIN_H
#define OA_CUBIN_H

#include "util/util.h"

/* ELF constants we use. */
enum {
	SHT_NULL = 0, SHT_PROGBITS = 1, SHT_SYMTAB = 2, SHT_STRTAB = 3,
	SHT_RELA = 4, SHT_NOTE = 7, SHT_NOBITS = 8, SHT_REL = 9,
	SHT_CUDA_INFO = 0x70000000, SHT_CUDA_CALLGRAPH = 0x70000001,
	SHT_CUDA_RELOCINFO = 0x7000000b, SHT_CUDA_COMPAT = 0x70000086,
};
enum { SHF_WRITE = 1, SHF_ALLOC = 2, SHF_EXECINSTR = 4, SHF_INFO_LINK = 0x40 };
enum { PT_LOAD = 1, PT_PHDR = 6 };
enum { STT_NOTYPE, STT_OBJECT, STT_FUNC, STT_SECTION };
enum { STB_LOCAL, STB_GLOBAL, STB_WEAK = 2 };
enum { EM_CUDA = 190 };
/* Section types without file bytes: SHT_NOBITS, and in relocatable cubins
 * (ptxas -c) .nv.global (0x70000007) and .nv.shared.* (0x7000000a). */
static inline int sec_nobits(u32 type)
{
	return type == 8 || type == 0x70000007 || type == 0x7000000a;
}
#define PH_TABLE (-1) /* a program header's range: the phdr table itself */

typedef struct {
	const char *name;
	u32 type, link, info;
	u64 flags, align, entsize;
	u64 size;   /* bytes of data, or the NOBITS size */
	u8 *data;   /* size bytes; NULL for NOBITS */
	u64 gap;    /* zero bytes before the data beyond alignment */
	u64 offset; /* file offset (set by the reader and by layout) */
	u32 name_off;
} CSection;

typedef struct {
	const char *name;
	u32 name_off;
	u8 info, other;
	u16 shndx;
	u64 value, size;
} CSymbol;

typedef struct {
	u32 type, flags;
	u64 align;
	int first, last; /* section index range, or PH_TABLE */
	u64 offset, filesz, memsz;
} CPhdr;

typedef struct {
	Arena arena;
	u16 type;        /* ET_EXEC 2 */
	u8 osabi, abiversion;
	u32 version, flags;
	u16 machine;
	u16 phentsize;   /* as read; 0: 56 with program headers, else 0 */
	u8 ident_pad[7]; /* e_ident[9..15], normally zero */
	u64 entry;
	VEC(CSection) sec;
	VEC(CSymbol) sym;
	VEC(CPhdr) ph;
	int symtab, strtab, shstrtab; /* section indices, 0 if absent */
	struct CubinNames *names;     /* cubin_find_*'s index (write.c), made on demand */
} Cubin;

/* The real SM of a cubin from e_flags (80, 90), 0 if unknown. */
int cubin_sm(const Cubin *c);

/* Read a cubin from memory; on bad input reports "path: error: ..." and
 * returns -1 (nothing leaks: call cubin_free either way). */
int cubin_read(Cubin *c, const char *path, const u8 *p, size_t n);
void cubin_free(Cubin *c);

/* Lay out and serialise.  Regenerates .symtab, adds missing names to the
 * string tables, computes offsets and program-header extents. */
void cubin_write(Cubin *c, Buf *out);
/* Offset and sizes of a program header from its section range. */
void cubin_phdr_extent(const Cubin *c, CPhdr *p, u64 phoff);

/* Helpers for building a model. */
int cubin_add_section(Cubin *c, const char *name, u32 type, u64 flags, u64 align);
/* The same with name kept, not copied: a literal or a string of c's arena. */
int cubin_add_section_ref(Cubin *c, const char *name, u32 type, u64 flags, u64 align);
int cubin_find_section(const Cubin *c, const char *name);
/* first[i] = 1 for each section i that is the first with its name (first:
 * c->sec.n entries, zeroed; section 0 never), read off the name index. */
void cubin_first_sections(const Cubin *c, u8 *first);
/* The section named PREFIX followed by KNAME (".text." and a kernel's name of any length). */
int cubin_find_ksection(const Cubin *c, const char *prefix, const char *kname);
int cubin_find_symbol(const Cubin *c, const char *name);
void cubin_set_data(Cubin *c, int sec, const void *p, u64 n);
void cubin_init(Cubin *c);

/* .nv.info attributes (EIATTR_*). */
enum { EIFMT_NVAL = 1, EIFMT_BVAL = 2, EIFMT_HVAL = 3, EIFMT_SVAL = 4 };
const char *eiattr_name(int id); /* "EIATTR_REGCOUNT", NULL if unknown */
int eiattr_lookup(const char *name); /* id, or -1 */
const char *eicompat_name(int id);
int eicompat_lookup(const char *name);
const char *rcuda_name(u32 type); /* "R_CUDA_64", NULL if unknown */
int rcuda_lookup(const char *name);
/* Walks the records of an info section; returns 0 or -1 after a diag. */
typedef struct {
	u8 fmt, id;
	u16 len;           /* payload length (SVAL) or value (BVAL/HVAL) */
	const u8 *payload; /* SVAL payload */
	u32 off;           /* record offset in the section */
} InfoRec;
int info_next(const u8 *p, u64 n, u64 *pos, InfoRec *r, const char *path, const char *sec);

/* Listing and assembler (listing.c, asm.c). */
typedef struct {
	int raw;      /* print instructions as .word pairs (no ISA decode) */
	int no_ctrl;  /* omit control-bit comments */
} ListOpts;
/* Appends the complete listing of c; path names the input in messages. */
int cubin_list(const Cubin *c, const char *path, const ListOpts *o, Buf *out);
/* Assemble a listing into a model; diagnostics are file:line:col. */
int cubin_asm(Cubin *c, const char *path, const char *text, size_t len);

/* Fat binaries and host objects (fatbin.c). */
typedef struct {
	int kind;         /* 1 PTX, 2 ELF */
	int sm;
	u8 *data;         /* malloc'd, decompressed */
	size_t size;
	const char *what; /* "fatbin entry N" */
} FatEntry;
/* If p holds a fatbin, a host ELF with .nv_fatbin, or neither: returns the
 * number of entries found (0: not a container), -1 on malformed input. */
int fatbin_extract(const char *path, const u8 *p, size_t n, FatEntry **out);
void fatbin_free(FatEntry *e, int n);

/* Fuzzing entry points (fuzz.c): never crash, whatever the bytes. */
int cubin_fuzz_binary(const u8 *p, size_t n);
int cubin_fuzz_text(const u8 *p, size_t n);

#endif
