/* Cost model: how many cycles one executed op occupies its pipe, from its event (pipe, byte
 * ranges, matmul work), and what the scalar unit pays to issue it. The per-pipe timeline
 * engine places these durations; waits, flags and barriers are its business, not ours.
 * Every parameter and its source: src/cost/cost_params.c and docs/cost-model.md. */
#ifndef PT_COST_H
#define PT_COST_H

#include <stdint.h>

#include "core/event.h"
#include "core/optable.h"
#include "core/profile.h"

/* Data paths of the movement pipes (MTE1, MTE2, MTE3, FIX), named source_destination. */
typedef enum pt_cost_path {
  PT_PATH_NONE = 0, /* no byte moved, or a pair of spaces no op connects */
  PT_PATH_GM_UB,
  PT_PATH_GM_L1,
  PT_PATH_UB_GM,
  PT_PATH_L1_GM,
  PT_PATH_UB_UB,
  PT_PATH_UB_L1,
  PT_PATH_L1_UB,
  PT_PATH_L1_L1,
  PT_PATH_L1_L0A, /* also the MX scale buffer of L0A */
  PT_PATH_L1_L0B, /* also the MX scale buffer of L0B */
  PT_PATH_L1_BT,
  PT_PATH_L1_FB,
  PT_PATH_L0C_GM,
  PT_PATH_L0C_L1,
  PT_PATH_L0C_UB,
  PT_PATH_COUNT
} pt_cost_path;

/* One data path: each issued instruction pays `startup` cycles, then the bytes stream at
 * `bytes_per_cycle` (bytes of the larger side: for FIX the 4-byte accumulators read). */
typedef struct pt_cost_xfer {
  double startup;
  double bytes_per_cycle;
} pt_cost_xfer;

/* One curve of a vector op on the V pipe: one contiguous run of `reps` repeat units costs
 * fixed_1d + slope_1d * reps; `rows` separate rows of `reps` units each cost
 * fixed_2d + rows * (row_2d + slope_2d * reps). A unit is one 256-byte repeat of every
 * operand, or `lane` elements for ops that run at the f32 lane width (pt_cost_vop). */
typedef struct pt_cost_vec {
  double fixed_1d, slope_1d;
  double fixed_2d, row_2d, slope_2d;
} pt_cost_vec;

/* Vector cost classes: pt_vec_class in core/optable.h (the cost column of the op table). */

/* How a class's cost follows from the shape of its widest UB operand: `rows` rows of `len`
 * bytes (n = ceil(len / 256) repeats per row). */
typedef enum pt_vec_form {
  PT_VF_NONE = 0,   /* not modelled on this target: costed as the op's generic class */
  PT_VF_ELEM,       /* elementwise: curve[], see pt_vec_rows */
  PT_VF_ROW_REDUCE, /* fixed + stage * (n - 1) + rows * (row + rep * (n - 1)), + partial when a
                       row is not whole repeats */
  PT_VF_COL_REDUCE, /* copy of the first row on the ub->ub path, then rows - 1 dependent
                       instructions of n repeats: (rows - 1) * (row + rep * n); with `split`
                       the partial repeat of a row is an instruction of its own */
  PT_VF_ROW_EXPAND, /* fixed + rows * (row + rep * n) */
} pt_vec_form;

/* Elementwise lowering: how rows become repeats. */
typedef enum pt_vec_rows {
  PT_ROWS_MERGE, /* rows that abut in memory form one run; otherwise each row is its own */
  PT_ROWS_SPLIT, /* every row is its own repeats, even when rows abut */
  PT_ROWS_SMALL, /* as MERGE, but abutting rows under 256 bytes stay one (masked) repeat each */
} pt_vec_rows;

typedef struct pt_cost_vop {
  pt_vec_form form;
  pt_vec_rows rows;
  unsigned lane;          /* ELEM: elements per repeat unit (ops at the f32 lane width), 0: 256 bytes */
  pt_cost_vec curve[2];   /* ELEM: [0] f32 elements (or an event without an element type), [1] others */
  double partial;         /* ELEM, ROW_REDUCE: added once when a row is not whole repeats */
  double fixed, row, rep, stage; /* reductions and expansion, see pt_vec_form */
  int split;              /* COL_REDUCE: partial repeat of a row is a separate instruction */
} pt_cost_vop;

/* Vector micro-ops (A5 VF): the execution unit ports an op issues on (pto-isa VfSim
 * params/uarch.csv load_ports 2, store_ports 1, issue_ports 2; isa.csv dispatch_exu). */
typedef enum pt_vf_unit {
  PT_VFU_LOAD,  /* either load port */
  PT_VFU_STORE, /* the store port */
  PT_VFU_EXU01, /* either execution port */
  PT_VFU_EXU0,  /* execution port 0 only (isa.csv EXU0_ONLY) */
} pt_vf_unit;

#define PT_VF_WAITS 0x1u /* waits for the value of the latest JOINS op (its register operand) */
#define PT_VF_JOINS 0x2u /* produces the register value later ops wait for */

/* One micro-op class on the VF timeline (cycles; [0] 32- and 64-bit lanes: VfSim's fp32 row,
 * [1] 8- and 16-bit lanes: its fp16 row). */
typedef struct pt_vf_op {
  uint8_t unit;   /* pt_vf_unit */
  uint8_t flags;  /* PT_VF_WAITS, PT_VF_JOINS */
  uint8_t wait;   /* a compute consumer's extra cycles before it may use its operand */
  uint8_t dsc;    /* as a producer: cycles a store of its result takes (isa.csv data_store_cost) */
  uint8_t lat[2]; /* issue -> done (isa.csv latency); a store: its cycles beyond the producer's dsc */
  uint8_t fwd[2]; /* as a producer: issue -> its result usable by a compute op (forwarding.csv) */
  uint8_t fst[2]; /* as a producer: issue -> its result usable by a store (forwarding.csv) */
  uint8_t ii[2];  /* issue -> the same op may issue again on that port (initiation_interval.csv) */
} pt_vf_op;

typedef struct pt_cost_params {
  const char *target;                  /* profile name the table belongs to */
  uint32_t issue;                      /* scalar cycles to issue one instruction */
  uint32_t scalar;                     /* S-pipe duration of a scalar load/store or register write */
  int dma_levels;                      /* range levels one DMA instruction runs (nburst + hardware loops) */
  pt_cost_xfer xfer[PT_PATH_COUNT];
  uint32_t mad_head;                   /* cycles of every mad before its first repeat */
  uint32_t mad_repeat[2];              /* cycles per 16 x 16 x (32 bytes of k) repeat: [0] inputs of
                                          1-2 bytes (or less), [1] 4-byte inputs (f32 / tf32) */
  const pt_cost_vop *vec;              /* vector classes, PT_VC_COUNT entries */
  const pt_vf_op *vf;                  /* micro-op classes, index cls - PT_VC_VF_FIRST (NULL: none) */
  uint32_t vf_startup, vf_drain;       /* cycles from a vector scope's launch to its first issue,
                                          and from its last op done to its end */
} pt_cost_params;

/* The parameter table of a profile (matched by name; NULL for an unknown profile). */
const pt_cost_params *pt_cost_params_of(const pt_profile *prof);

/* Cycles the op of `ev` occupies its pipe (0 for synchronization ops: their effect is the
 * timeline's). */
uint64_t pt_cost_cycles(const pt_profile *prof, const pt_event *ev);

/* Scalar-unit cycles to issue one instruction. */
uint64_t pt_cost_issue_cycles(const pt_profile *prof);

/* The data path an event moves bytes on: spaces of its largest read and written ranges. */
pt_cost_path pt_cost_path_of(const pt_event *ev);
const char *pt_cost_path_name(pt_cost_path path);

/* Cycles of `issues` instructions moving `bytes` in total on `path`. */
uint64_t pt_cost_xfer_cycles(const pt_profile *prof, pt_cost_path path, uint64_t bytes, uint64_t issues);


/* Cycles of the V-pipe event `ev` as an op of class `cls` (PT_VC_GENERIC or PT_VC_NONE: the generic class of its
 * number of UB sources). pt_cost_cycles uses the class of the event's op. */
uint64_t pt_cost_vec_cycles(const pt_profile *prof, const pt_event *ev, pt_vec_class cls);

/* Cycles of a vector scope holding only micro-op `ev` of class cls (p->vf set). */
uint64_t pt_cost_vf_alone(const pt_cost_params *p, const pt_event *ev, pt_vec_class cls);

/* The micro-op record of class cls on this profile (NULL: not a micro-op class, or none). */
const pt_vf_op *pt_cost_vf_op(const pt_profile *prof, pt_vec_class cls);

/* The timeline's cost state: per vector core, the vector scope (VF) in flight. */
typedef struct pt_cost_timeline pt_cost_timeline;
pt_cost_timeline *pt_cost_timeline_new(int blocks);
void pt_cost_timeline_free(pt_cost_timeline *t);
/* pt_cost_cycles and pt_cost_issue_cycles for the event stream of a timeline: a vector
 * micro-op is charged the cycles it adds to the modelled end of its scope (src/cost/cost_vf.c),
 * and costs the scalar unit nothing to issue (the vector core fetches the VF itself). */
uint64_t pt_cost_step(pt_cost_timeline *t, const pt_profile *prof, const pt_event *ev, uint64_t *issue);

/* Cycles of one mad of m x k by k x n with input elements of type `in`. */
uint64_t pt_cost_mad(const pt_profile *prof, uint64_t m, uint64_t n, uint64_t k, ptosim_dtype in);

#endif
