/* latency.h -- per-architecture latency classes of SASS instructions:
 * which producers are fixed-latency (the consumer waits by stall counts)
 * and which are variable-latency (the consumer waits on a scoreboard).
 * Numbers come from specs/sm_XX/latency.txt (mined from ptxas schedules,
 * A100 hardware measurements from the seeds, or assumed); see
 * docs/findings-ctrl.md. */
#ifndef OA_LATENCY_H
#define OA_LATENCY_H

#include "isa/isa.h"
#include "isa/insn.h"

typedef struct {
	u8 var;      /* 1: variable latency, the result is tracked by a write scoreboard */
	u8 lat;      /* fixed latency: issue-to-issue cycles before a consumer may read the result */
	u8 rd_late;  /* reads its source registers after issue (stores, ...): needs a read scoreboard
			before a later instruction may overwrite them */
} Lat;

/* Latency class of a decoded instruction (in = insn_parse of isa_print's text). */
Lat lat_of(const Arch *a, const Insn *in);

/* Conservative fixed latency used when no table row matches (safe mode). */
#define LAT_SAFE 15

/* The high register of a fixed-latency .WIDE result (IMAD.WIDE ...) is
 * written later than the low one: 5 cycles after issue on the H200
 * for an ALU consumer (IADD3; tools/lat-sweep, specs/sm_90/
 * latency-measured.txt), while ptxas's schedules, read without operand
 * halves, give the class 3 (its FMA-pipe consumers, IMAD, read the high
 * half 4 cycles after).  The checker and the emulator's timing mode hold
 * an ALU read of the high half to this.  (sm_80 is not measured; it gets
 * the same.) */
#define LAT_WIDE_HI 5
/* 1 when cls is a fixed-latency class with a 64-bit .WIDE result. */
int lat_is_wide(const char *cls);

/* Name of the latency class of in: the opcode and the modifiers that
 * change latency ("IMAD.WIDE", "HFMA2.MMA", "FFMA").  The string lives in
 * the arena ar. */
const char *lat_class(const Insn *in, Arena *ar);
/* What of in its class name depends on besides the opcode: the kept
 * modifiers in order, 4 bits each.  -1 when that does not fit (MMA
 * opcodes keep every modifier). */
int lat_class_key(const Insn *in, u64 *key);
/* Latency of a class by name (what lat_of returns for its instructions). */
Lat lat_of_class(const Arch *a, const char *cls);

/* ---- the tables (generated from specs/sm_XX/latency.txt) ---- */

/* Consumer categories: who reads the result of a fixed-latency producer. */
enum { LC_ALU, LC_FMA, LC_OTHER, LC_VAR, LC_GUARD, LC_NCAT };
/* Register files of a producer's destination. */
enum { LF_R, LF_UR, LF_P, LF_UP, LF_N };

/* A consumer class that ptxas lets read sooner than its category. */
typedef struct {
	u32 key;                  /* the producer's file << 20 | the category << 16 | the
				     consumer class's row id (every one has a row) */
	u8 lat;                   /* the distance */
} LatExc;

typedef struct {
	const char *cls;          /* "IMAD.WIDE" */
	u8 var, rd_late;
	u8 minstall;              /* smallest own stall ptxas gives it (0 = no rule) */
	u8 maxexc;                /* the largest distance in exc (0 = none) */
	u8 lat[LF_N][LC_NCAT];    /* issue distance producer -> consumer; 0 = never observed */
	u8 need[LF_N][LC_NCAT];   /* lat_need_row(row, f, c, 1) of each entry */
	u8 maxneed;               /* the largest of need and maxexc */
	u16 id;                   /* its index in its table */
	const LatExc *exc;        /* per consumer class exceptions (smaller distances) */
	int nexc;
} LatRow;

extern const LatRow lat_rows_sm90[], lat_rows_sm80[];  /* sorted by cls; end with cls == NULL */
/* Their index by class name: slot lat_hash(cls) holds the row's index + 1,
   or the first free slot after it does (open addressing; 0: empty). */
enum { LAT_HASH_BITS = 10 };
extern const u16 lat_slots_sm90[1 << LAT_HASH_BITS], lat_slots_sm80[1 << LAT_HASH_BITS];
/* An opcode's LCO_* flags (tools/mine-latency's lists of opcodes, for both
   archs), hashed the same way: an empty name ends a probe. */
typedef struct {
	char name[15];
	u8 f;
} LatOp;
enum { LAT_OP_BITS = 8 };
extern const LatOp lat_ops[1 << LAT_OP_BITS];
/* 1 when the indexes find every row of both tables and every opcode (a
   unit test asks: the generator hashes as latency.c does). */
int lat_tables_indexed(void);

/* Consumer category of an instruction (LC_ALU .. LC_VAR; guards are LC_GUARD). */
int lat_cat(const Arch *a, const Insn *in);
/* Issue distance a consumer of category cat needs after a fixed-latency
 * producer of class cls wrote register file f.  mode 0: conservative
 * (LAT_SAFE, or the table when larger); mode 1: the table, falling back
 * to the largest number of the producer's file row, then LAT_SAFE. */
int lat_need(const Arch *a, const char *cls, int f, int cat, int mode);
/* The distance a consumer of class cons (reading as category cat) needs
 * after producer class cls wrote file f, when the table has an exception
 * for that pair, else -1. */
int lat_exc(const Arch *a, const char *cls, int f, int cat, const char *cons);
/* The table row of a class (NULL if none), and lat_exc on the producer's
   and the consumer's rows (from one arch's table). */
const LatRow *lat_row(const Arch *a, const char *cls);
int lat_exc_in(const LatRow *r, int f, int cat, const LatRow *cons);
/* The same from a row found once (r may be NULL: no row). */
Lat lat_of_row(const LatRow *r, const char *cls);
int lat_cat_row(const Insn *in, const LatRow *r);
/* lat_cat_row in two parts: the opcode's flags (LCO_*, computed once per
   opcode by callers that cache), then the row's. */
enum { LCO_VAR = 1, LCO_FMA = 2, LCO_OTHER = 4,
       LCO_LATE = 8 /* lat_ops' only: reads its sources after issue (no row) */ };
int lat_cat_op(const char *op);
int lat_cat_flags(int f, const LatRow *r);
int lat_need_row(const LatRow *r, int f, int cat, int mode);
int lat_min_stall_row(const LatRow *r, const Insn *in);
/* The largest exception distance of cls writing f (0 if none). */
int lat_exc_max(const Arch *a, const char *cls, int f);
/* Smallest own stall an instruction needs (DEPBAR 4, the table's
 * minstall for branches and EXIT ...), 1 if no rule. */
int lat_min_stall(const Arch *a, const Insn *in);

#endif
