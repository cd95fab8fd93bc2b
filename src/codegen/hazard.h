/* hazard.h -- the static hazard checker: walks the control flow graph of
 * one kernel's code and reports every instruction that could read (or
 * overwrite) a register, predicate or uniform register before its
 * producer (or a pending reader) has finished, under the latency model of
 * latency.h.  Fixed-latency producers are covered by the stall counts
 * between issue slots, variable-latency ones by write scoreboards and the
 * wait masks of later instructions.  State flows along CFG edges (join =
 * worst case) and loops iterate to a fixed point. */
#ifndef OA_HAZARD_H
#define OA_HAZARD_H

#include "isa/isa.h"

/* Check the control bits of one kernel's code (n words at code address 0).
   Appends one line per hazard to report ("kernel+0x1a0: R4 read by FADD before IMAD at 0x180
   finished (stall sum 3 < latency 5)"), returns the number of hazards, -1 if a word does not decode. */
int hazard_check(const Arch *a, const Word *code, size_t n, const char *kernel, Buf *report);

/* Kinds of hazard. */
enum {
	HZ_LATENCY,  /* a fixed-latency result read before the stalls cover it */
	HZ_SBWAIT,   /* a wait on a scoreboard less than 2 cycles after it was set */
	HZ_NOSB,     /* a variable-latency result read, its producer sets no scoreboard */
	HZ_RAW,      /* a variable-latency result read without waiting on its scoreboard */
	HZ_WAW,      /* a register overwritten before a variable-latency write to it */
	HZ_WAR,      /* a register overwritten before a late reader read it */
	HZ_DEPBAR,   /* a DEPBAR whose stall is too short to take effect */
};
/* One hazard, as hazard_find lists them (in the report's order). */
typedef struct {
	u32 at;      /* consumer: instruction index */
	i32 prod;    /* producer: instruction index, -1 when none or on another path */
	i32 slot;    /* register slot (see SLOT_* below), -1 when none */
	u8 kind;     /* HZ_* */
	u8 file;     /* register file of slot (LF_R, LF_UR, LF_P, LF_UP), 0xff when none */
} HzFound;
typedef VEC(HzFound) HzFoundVec;
/* hazard_check, also appending each hazard to found (when not NULL). */
int hazard_find(const Arch *a, const Word *code, size_t n, const char *kernel, Buf *report,
		HzFoundVec *found);

/* ---- shared with ctrlbits.c and check --observe ---- */

#include "codegen/latency.h"

/* Register slots: R0..R254 = 0..254, UR0..UR62 = 256.., P0..P6 = 320..,
 * UP0..UP6 = 328..; RZ, URZ, PT, UPT are never tracked. */
enum { SLOT_UR = 256, SLOT_P = 320, SLOT_UP = 328, NSLOT = 336 };
/* Control-flow kinds. */
enum { HK_NORMAL, HK_BRA, HK_EXIT, HK_CALL, HK_RET, HK_BRX, HK_DEPBAR };
/* Rows of need and maxneed (hz_new's mode): every fixed latency raised to
   LAT_SAFE; the mined tables; the mined tables with the assigner's GPU
   floors (ctrlbits.c). */
enum { HN_SAFE, HN_MINED, HN_FLOOR, HN_N };
typedef u8 HNeedRow[LF_N][LC_NCAT];

typedef struct {
	u16 s;   /* first slot */
	u8 n;    /* number of consecutive slots */
	u8 cat;  /* reads: consumer category of this operand (LC_GUARD for guards) */
} HRange;

/* One instruction.  Everything but c, kind and target is the same for
 * every copy of a memoised word; the pointers lead to read-only data
 * that those copies share. */
typedef struct {
	Ctrl c;
	u8 kind;           /* HK_* */
	u8 cond;           /* has a guard predicate other than PT */
	u8 never;          /* guarded by @!PT: does nothing */
	u8 pipe;           /* in-order pipe of variable-latency results, 0 none */
	u8 memf;           /* HF_MEM: a memory access (LD*, ST*, ATOM*, RED*); HF_ATOM */
	u8 async_ur;       /* the TMA unit or UBLKCP: reads its uniform registers late */
	u8 minst;          /* smallest own stall (lat_min_stall) */
	u8 fence;          /* the scheduler moves nothing across it: effects beyond
			      its registers other than a load's, or a clock read (sched.c) */
	u8 nrd, nwr;
	u8 nd;             /* destination operands at the front of the operand list */
	u8 mods;           /* has modifiers */
	u8 gnot;           /* the guard is negated (@!P0) */
	u8 src[3];         /* operand reuse's A, B, C slots: the general register
			      there, 0xff when none (or no reuse slots) */
	u16 gslot;         /* cond: the guard predicate's slot */
	u8 maxneed[HN_N];  /* the largest of need[row] */
	u16 opid;          /* the opcode as a small number (hz_opid) */
	short rmax;        /* the highest register its text names (sass_reg_max:
			      the kernel's REGCOUNT, compile.c) */
	short wide_hi;     /* fixed .WIDE producer: its high destination slot
			      (needs LAT_WIDE_HI), else -1 */
	Lat lat;
	u8 sb;             /* HK_DEPBAR: DEPBAR.LE SBsb, sbn (sbn at most 256) */
	u16 sbn;
	i32 target;        /* HK_BRA/HK_CALL: instruction index, -1 if none */
	const char *cls;   /* latency class name */
	const LatRow *row; /* its table row, NULL if none */
	const HNeedRow *need;  /* [HN_N]: lat_need per row */
	const HRange *rd;  /* [nrd] registers read */
	const HRange *wr;  /* [nwr] registers written */
} HIns;

/* Decode n words into ins[] (texts and strings in ar).  Returns 0, or -1
 * with the failing index in *bad. */
int hz_decode(const Arch *a, const Word *code, size_t n, HIns *ins, Arena *ar, size_t *bad);
/* One word decoded without the memo (at address addr, in code of n words;
 * *t: the address a branch or call names): by its fields where its form
 * has an operand program (text 0), or by its printed text (text 1); the
 * unit test ctrl_decode_direct holds the two equal.  Returns 0 or -1. */
int hz_decode_one(const Arch *a, Word w, u64 addr, size_t n, int text, HIns *h, u64 *t, Arena *ar);
/* Do x and y say the same of their instructions (pointers compared by
   what they point to)? */
int hz_same_view(const HIns *x, const HIns *y);
/* After the n words hz_decode has just decoded into ins were reordered
   (the word now at k was at perm[k]): ins, and what the next hz_decode
   remembers of them, in the new order. */
void hz_reorder(HIns *ins, const u32 *perm, size_t n);
/* hazard_find of the n words that ctrl_assign_decoded has just given
   their control bits: ins is the view it analysed (it changes only the
   bits, which the checker reads again from code) and its CFG.  verify
   (OA_VERIFY=1): die unless ins is a fresh decode's view of code. */
int hazard_find_assigned(const Arch *a, const Word *code, size_t n, HIns *ins, const char *kernel, Buf *report,
			 HzFoundVec *found, int verify);
enum { HF_MEM = 1, HF_ATOM = 2 };
/* A small number per opcode name, the same for the life of the process,
   and the name of such a number. */
int hz_opid(const char *op);
const char *hz_op_name(int id);
/* 1 when hz_decode's opcode table is in the order its binary search needs
   (a unit test asks). */
int hz_op_list_sorted(void);
/* Slot name ("R4", "UR6", "P0") in buf. */
const char *hz_slot_name(int s, char *buf, size_t n);
/* Register file (LF_*) of a slot. */
static inline int
hz_file(int s)
{
	return s < SLOT_UR ? LF_R : s < SLOT_P ? LF_UR : s < SLOT_UP ? LF_P : LF_UP;
}

/* The analysis: the CFG of n decoded instructions and the state at each
 * block entry after the fixed point (see hazard.c); mode: the HN_* row of
 * need the latencies come from. */
typedef struct Hz Hz;
Hz *hz_new(const Arch *a, HIns *ins, size_t n, int mode);
void hz_free(Hz *h);
/* Runs the data flow to its fixed point with the current control bits. */
void hz_solve(Hz *h);
/* After hz_solve: the number of hazards hz_pass would report, and of the
 * events hz_fix acts on (0: hz_fix would change nothing and return 0). */
int hz_solved_hazards(const Hz *h);
int hz_solved_fixes(const Hz *h);
/* One pass over every reachable block from its entry state.  With report,
 * hazard lines go there (prefix kernel); with observe, "obs" lines for the
 * miner.  Returns the number of hazards. */
int hz_pass(Hz *h, const char *kernel, Buf *report, Buf *observe);
/* Keep every fixed-latency producer in flight until AGE_DROP cycles, not
 * only until the table's latency: for --observe, whose distances must
 * not depend on the table being mined. */
void hz_keep_producers(Hz *h);
/* For the assigner, after hz_solve: one pass that adds the wait bits every
 * instruction needs and raises stalls where a fixed latency is short or a
 * wait comes less than 2 cycles after its scoreboard was set, the waits
 * it adds included (over the blocks where the solve saw something to fix;
 * the next solve then mostly finds nothing left).  Returns the
 * number of changes, or -2 when a latency cannot be met without padding
 * instructions (a producer right before its consumer needs more than 15
 * cycles).  It uses up the solve's states: hz_solve again before another
 * hz_pass or hz_fix. */
int hz_fix(Hz *h);

#endif
