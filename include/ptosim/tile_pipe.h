/* Cube-vector tile pipes (pto-isa docs/isa/system/ops/TPUSH.md, TPOP.md, TFREE.md; IR forms of
 * vpto-dev/PTOAS docs/designs/ptoas-tpush-tpop-design.md): a ring FIFO of slot_num slots of
 * slot_size bytes, with the producer's tile count and the consumer's. On A5 the slots are the
 * consumer's local memory (C2V: the vector core's UB, V2C: the cube core's L1); on A2/A3
 * they are in GM and the consumer loads each popped tile into a ring of local_slot_num
 * slots of its local memory. A push waits for a free slot, writes the tile into slot
 * (pushed % slot_num) and signals the consumer(s); a pop waits for a pushed tile and
 * returns a tile placed on its local slot; a free gives the slot back to the producer. */
#ifndef PTOSIM_TILE_PIPE_H
#define PTOSIM_TILE_PIPE_H

#include <stdint.h>

#include "ptosim/ops.h" /* ptosim_relu_mode */
#include "ptosim/tile.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Frontend pipe ids 0..PTOSIM_TPIPE_IDS-1; pipe id i uses the cross-core flags 4i..4i+3
 * (+16 for vector sub-block 1), as pto-isa's DIR_BOTH TPipe<FlagID = 4i>. A pipe of
 * pto.initialize_l2l_pipe / initialize_l2g2l_pipe uses the flags flag_base.. (2 of them, 4
 * for dir_mask 3; TPipe<FlagID = flag_base>) and its handle is flag_base. Each core keeps
 * one pipe per flag base (PTOSIM_TPIPE_FLAGS hardware flags). */
#define PTOSIM_TPIPE_IDS 4
#define PTOSIM_TPIPE_FLAGS 16

/* TileSplitAxis: how a tile is divided between the two vector sub-blocks. */
typedef enum ptosim_tile_split {
  PTOSIM_SPLIT_NONE = 0,       /* one consumer / producer: vector sub-block 0 */
  PTOSIM_SPLIT_UP_DOWN = 1,    /* rows halved: sub-block s holds rows [s*m/2, (s+1)*m/2) */
  PTOSIM_SPLIT_LEFT_RIGHT = 2  /* columns halved */
} ptosim_tile_split;

/* pto.aic_initialize_pipe / pto.aiv_initialize_pipe {id, dir_mask, slot_size, slot_num,
 * local_slot_num} ([gm_slot_buffer = %g : !pto.ptr<T>,] c2v_consumer_buf = %a : i32,
 * v2c_consumer_buf = %b : i32), and
 *   %p = pto.initialize_l2l_pipe {dir_mask, slot_size, slot_num, flag_base}(%local : i32 [, %peer : i32]) -> !pto.pipe
 *   %p = pto.initialize_l2g2l_pipe {dir_mask, slot_size, slot_num, local_slot_num, flag_base}
 *          (%gm : !pto.ptr<T> [, %local : i32 [, %peer : i32]]) -> !pto.pipe
 * dir_mask 1 C2V, 2 V2C, 3 both; slot_num 0 = the default (8, or 4 when dir_mask is 3; the
 * generic forms require it); local_slot_num 0 = slot_num; buffers are byte addresses in UB
 * (c2v) and L1 (v2c) (a local / peer operand is c2v_buf for dir_mask 1 and 3, v2c_buf for 2,
 * the peer the v2c_buf of dir_mask 3); gm_slot is the GM FIFO (A2/A3: required; zero when
 * absent); flag_base is the first hardware flag of a generic pipe (the frontend forms use
 * 4 * id); *handle receives the pipe handle of the generic forms (NULL for the frontend);
 * gm_stride: the element strides of the GM FIFO when given as a view (gm_slot_tensor = %v,
 * or a view as the l2g2l GM operand), which its GM entries keep (PTOAS lit
 * tpush_tpop_globaltensor_split_half_slot_a3.pto); all 0 for a pointer. */
typedef struct ptosim_pipe_init_params {
  int64_t id;
  int64_t dir_mask;
  int64_t slot_size;
  int64_t slot_num;
  int64_t local_slot_num;
  int64_t flag_base;
  int64_t c2v_buf;
  int64_t v2c_buf;
  ptosim_ptr gm_slot;
  int64_t gm_stride[5];
  int64_t *handle;
  /* placed: set by the text binder of the frontend forms. 1: the pipe is at the hardware flags
   * PTOAS gives it (flag_base for the initialize, id for the other ops: its first flag; 2
   * flags, 4 for dir_mask 3), frontend ids being any integer; 0: frontend id 0..3 keeps flags
   * 4 id .. 4 id + 3. */
  int placed;
} ptosim_pipe_init_params;

/* The quantization parameter of a C2V push's epilogue: none (a plain cast, or no
 * conversion), the QUANT_PRE word (set_quant_scalar, SET_QUANT_SCALAR), or the FB quant
 * words at the address FPC holds, one 8-byte word per acc column (set_quant_vector). */
typedef enum ptosim_push_quant {
  PTOSIM_PUSH_QUANT_NONE = 0,
  PTOSIM_PUSH_QUANT_SCALAR,
  PTOSIM_PUSH_QUANT_VECTOR
} ptosim_push_quant;

/* The consumer layout of a C2V push's epilogue (pto-isa LayoutMode_t, the slot's vec tile
 * TPush.hpp FixpipeVecTile): ND rows (row-major), DN columns (col-major), NZ fractals
 * (col-major blocks of row-major 512-byte fractals). */
typedef enum ptosim_fixpipe_layout {
  PTOSIM_FIXPIPE_NZ2ND = 0,
  PTOSIM_FIXPIPE_NZ2DN,
  PTOSIM_FIXPIPE_NZ2NZ
} ptosim_fixpipe_layout;

/* pto.tpush_to_aiv / pto.tpush_to_aic (%tile) {id, split} and pto.tpush(%tile, %pipe) {split}
 * (id = the pipe handle; the direction is the issuing core's: cube C2V, vector V2C): C2V
 * from an acc tile, V2C from a vec tile. A5: through the FIXPIPE path as pto.tmov acc -> vec
 * into the UB slot, or inserted into a mat tile of the L1 slot. A2/A3: stored (pto.tstore)
 * as row-major rows of the valid region into the GM slot. gm_entry = 1: the GM-entry form
 * (pto.tpush(%entry, %pipe) of a GM view pto.talloc gave, which the producer wrote): it
 * only signals the consumer (tile unused). */
typedef struct ptosim_tpush_params {
  ptosim_tile tile;
  int64_t id;
  ptosim_tile_split split;
  int64_t gm_entry;
  int placed; /* as ptosim_pipe_init_params.placed */
  /* The FIXPIPE epilogue of a C2V push (pto.aic_initialize_pipe acc_push_epilogue, pto-isa
   * TPUSH<..., FixpipeParams<layout, quant, relu>>), set by the text binder; all zero: none
   * (the acc type, ND rows). The slot receives what pto.tmov acc -> vec into a vec tile of
   * element type out_dtype and the layout's shape (A5 local FIFO), or pto.tstore acc -> GM of
   * the valid region as ND rows of out_dtype (GM FIFO), writes with the quantization
   * parameter of `quant` and pre-relu `relu`. */
  ptosim_dtype out_dtype;           /* NONE: the acc type */
  ptosim_push_quant quant;
  ptosim_relu_mode relu;            /* NONE / NO_RELU, or NORMAL */
  ptosim_fixpipe_layout layout;
} ptosim_tpush_params;

/* %t = pto.tpop_from_aic / pto.tpop_from_aiv {id, split} -> tile type: *result (its type's
 * shape) is placed on the slot (A2/A3: on the local slot, loaded from the GM slot);
 * pto.tfree_from_aic / _from_aiv {id, split} and pto.tfree(%pipe) {split} (result NULL).
 * entry (not NULL): the GM-entry forms of A2/A3 (%e = tpop_from_aic {..} -> !pto.tensor_view,
 * pto.tpop(%e, %pipe), tfree_from_aic(%e), pto.tfree(%e, %pipe)): the pop points *entry at
 * the GM slot (a vector consumer of a split C2V entry at its part: + s * M * N elements
 * up-down, + s * N left-right, M x N the entry's shape; with the strides of the FIFO view
 * when it was given as one, else row-major) and signals nothing; the free
 * signals the producer at the end of a period. */
typedef struct ptosim_tpop_params {
  ptosim_tile *result;
  int64_t id;
  ptosim_tile_split split;
  ptosim_gm_view *entry;
  /* tpop_from_aic / _from_aiv(%valid_row, %valid_col) {..} -> a tile of dynamic valid shape:
   * has_valid = 1 sets the result's valid region to valid_rows x valid_cols before the pop
   * (PTOAS: Tile(vr, vc), SetValidShape, then TPOP); 0 <= valid <= the tile's shape. */
  int has_valid;
  int64_t valid_rows, valid_cols;
  int placed; /* as ptosim_pipe_init_params.placed */
} ptosim_tpop_params;

/* %e = pto.talloc_to_aiv / talloc_to_aic {id, split} -> !pto.tensor_view<MxNxT> and
 * pto.talloc(%e, %pipe) {split} (A2/A3 GM FIFOs, pto-isa a2a3 TAlloc.hpp): waits for a free
 * slot as a push does, points *entry at GM slot k = pushed % slot_num (a vector producer of a
 * split V2C entry at its part, as the pop above) and counts it pushed; the producer writes
 * it (pto.tstore) and commits it with the GM-entry form of tpush. */
typedef struct ptosim_talloc_params {
  ptosim_gm_view *entry;
  int64_t id;
  ptosim_tile_split split;
  int placed; /* as ptosim_pipe_init_params.placed */
} ptosim_talloc_params;

/* %n = pto.tile_valid_rows / pto.tile_valid_cols %t : !pto.tile_buf<...> -> index:
 * *result = src.valid_rows / src.valid_cols. */
typedef struct ptosim_tile_valid_params {
  ptosim_tile src;
  int64_t *result;
} ptosim_tile_valid_params;

/* Core types of pto.syncall (#pto.sync_core_type<...>). */
typedef enum ptosim_sync_core_type {
  PTOSIM_SYNC_AIV_ONLY = 0, /* the vector cores of every block */
  PTOSIM_SYNC_AIC_ONLY = 1, /* the cube cores */
  PTOSIM_SYNC_MIX = 2       /* every core */
} ptosim_sync_core_type;

/* pto.syncall() mode = #pto.sync_all_mode<hard>, core_type = #pto.sync_core_type<T>, and
 * pto.syncall(%ws [, %used] : W [, i32]) mode = #pto.sync_all_mode<soft>, core_type = ...
 * (W: !pto.ptr<i32, gm>, a tensor_view or partition_tensor_view of i32): a barrier of the
 * cores of core_type in every block, after each drained its pipes. Soft: the i32 at
 * workspace is the arrival counter (each arrival adds 1; zero it before the first use), and
 * used_cores the number of participants (0: blocks, or blocks * 3 for mix, as pto-isa's
 * get_block_num() * (1 + sub-blocks)). workspace_elems: i32 elements the view holds (-1 for
 * a pointer). */
typedef struct ptosim_syncall_params {
  int64_t soft;
  ptosim_sync_core_type core_type;
  ptosim_ptr workspace;
  int64_t workspace_elems;
  int64_t used_cores;
} ptosim_syncall_params;

/* pto.tsync ins(%e0, %e1 : T0, T1): waits for the events of the tile ops that produced its
 * operands (tiles or GM views); with none it does nothing (pto-isa tsync.md). */
typedef struct ptosim_tsync_params {
  int64_t nevents;
} ptosim_tsync_params;

#ifdef __cplusplus
}
#endif
#endif
