/* Cost model: how many cycles one executed op occupies its pipe, from its event (pipe, byte
 * ranges, matmul work), and what the scalar unit pays to issue it. The per-pipe timeline
 * engine places these durations; waits, flags and barriers are its business, not ours.
 * Every parameter and its source: src/cost/cost_params.c and docs/cost-model.md. */
#ifndef PT_COST_H
#define PT_COST_H

#include <stdint.h>

#include "core/event.h"
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

/* A vector op on the V pipe (one 256-byte repeat processes one 256-byte block of every
 * operand): one contiguous run of `reps` repeats costs fixed_1d + slope_1d * reps; `rows`
 * separate rows of `reps` repeats each cost fixed_2d + rows * (row_2d + slope_2d * reps). */
typedef struct pt_cost_vec {
  double fixed_1d, slope_1d;
  double fixed_2d, row_2d, slope_2d;
} pt_cost_vec;

/* Vector op classes: one source operand (unary, tile-scalar) or two and more (binary). */
enum { PT_VEC_UNARY = 0, PT_VEC_BINARY = 1, PT_VEC_CLASSES = 2 };

typedef struct pt_cost_params {
  const char *target;                  /* profile name the table belongs to */
  uint32_t issue;                      /* scalar cycles to issue one instruction */
  uint32_t scalar;                     /* S-pipe duration of a scalar load/store or register write */
  int dma_levels;                      /* range levels one DMA instruction runs (nburst + hardware loops) */
  pt_cost_xfer xfer[PT_PATH_COUNT];
  uint32_t mad_head;                   /* cycles of every mad before its first repeat */
  uint32_t mad_repeat[2];              /* cycles per 16 x 16 x (32 bytes of k) repeat: [0] inputs of
                                          1-2 bytes (or less), [1] 4-byte inputs (f32 / tf32) */
  pt_cost_vec vec[PT_VEC_CLASSES];
  uint32_t vec_partial;                /* added to a binary op with a row that is not whole repeats */
  int vec_runs;                        /* 1: rows that abut in memory form one contiguous run */
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

/* Cycles of one mad of m x k by k x n with input elements of type `in`. */
uint64_t pt_cost_mad(const pt_profile *prof, uint64_t m, uint64_t n, uint64_t k, ptosim_dtype in);

#endif
