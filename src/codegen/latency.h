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

/* Name of the latency class lat_of used for in ("IMAD", "FFMA", ...,
 * "default"): for reports and the miner. */
const char *lat_class(const Arch *a, const Insn *in);

#endif
