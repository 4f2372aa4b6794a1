/* Cube-vector tile pipes (pto-isa docs/isa/system/ops/TPUSH.md, TPOP.md, TFREE.md; IR forms of
 * vpto-dev/PTOAS docs/designs/ptoas-tpush-tpop-design.md): a ring FIFO of slot_num slots of
 * slot_size bytes in the consumer's local memory (C2V: the vector core's UB, V2C: the cube
 * core's L1), one per frontend pipe id, with the producer's tile count and the consumer's.
 * A push waits for a free slot, writes the tile into slot (pushed % slot_num) of the
 * consumer(s) and signals them; a pop waits for a pushed tile and returns a tile placed on
 * slot (popped % slot_num); a free gives the slot back to the producer. */
#ifndef PTOSIM_TILE_PIPE_H
#define PTOSIM_TILE_PIPE_H

#include <stdint.h>

#include "ptosim/tile.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Frontend pipe ids 0..PTOSIM_TPIPE_IDS-1; pipe id i uses the cross-core flags 4i..4i+3
 * (+16 for vector sub-block 1), as pto-isa's DIR_BOTH TPipe<FlagID = 4i>. */
#define PTOSIM_TPIPE_IDS 4

/* TileSplitAxis: how a tile is divided between the two vector sub-blocks. */
typedef enum ptosim_tile_split {
  PTOSIM_SPLIT_NONE = 0,       /* one consumer / producer: vector sub-block 0 */
  PTOSIM_SPLIT_UP_DOWN = 1,    /* rows halved: sub-block s holds rows [s*m/2, (s+1)*m/2) */
  PTOSIM_SPLIT_LEFT_RIGHT = 2  /* columns halved */
} ptosim_tile_split;

/* pto.aic_initialize_pipe / pto.aiv_initialize_pipe {id, dir_mask, slot_size, slot_num}
 * ([gm_slot_buffer = %g : !pto.ptr<T>,] c2v_consumer_buf = %a : i32, v2c_consumer_buf = %b : i32):
 * dir_mask 1 C2V, 2 V2C, 3 both; slot_num 0 = the default (8, or 4 when dir_mask is 3);
 * buffers are byte addresses in UB (c2v) and L1 (v2c); gm_slot is the GM FIFO of the A2/A3
 * path (space PTOSIM_GM; zero when absent). */
typedef struct ptosim_pipe_init_params {
  int64_t id;
  int64_t dir_mask;
  int64_t slot_size;
  int64_t slot_num;
  int64_t c2v_buf;
  int64_t v2c_buf;
  ptosim_ptr gm_slot;
} ptosim_pipe_init_params;

/* pto.tpush_to_aiv / pto.tpush_to_aic (%tile) {id, split}: C2V from an acc tile (converted
 * through the FIXPIPE path as pto.tmov acc -> vec), V2C from a vec tile (inserted into an NZ
 * mat tile of the slot). */
typedef struct ptosim_tpush_params {
  ptosim_tile tile;
  int64_t id;
  ptosim_tile_split split;
} ptosim_tpush_params;

/* %t = pto.tpop_from_aic / pto.tpop_from_aiv {id, split} -> tile type: *result (its type's
 * shape) is placed on the slot; pto.tfree_from_aic / _from_aiv {id, split} (result NULL). */
typedef struct ptosim_tpop_params {
  ptosim_tile *result;
  int64_t id;
  ptosim_tile_split split;
} ptosim_tpop_params;

/* %n = pto.tile_valid_rows / pto.tile_valid_cols %t : !pto.tile_buf<...> -> index:
 * *result = src.valid_rows / src.valid_cols. */
typedef struct ptosim_tile_valid_params {
  ptosim_tile src;
  int64_t *result;
} ptosim_tile_valid_params;

#ifdef __cplusplus
}
#endif
#endif
