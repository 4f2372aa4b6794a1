/* ptosim — parameter blocks of the tile data movement ops (src/isa/tile_move.c):
 * pto.tload, pto.tstore, pto.tstore_fp, pto.tprefetch, pto.tprefetch_async, pto.mgather,
 * pto.mscatter. Tiles and GM views are the structs of ptosim/tile.h; every extent is in
 * elements, every view stride in elements. */
#ifndef PTOSIM_TILE_MOVE_H
#define PTOSIM_TILE_MOVE_H

#include <stdbool.h>
#include <stdint.h>

#include "ptosim/ops.h" /* ptosim_atomic_op, ptosim_relu_mode, ptosim_unit_flag */
#include "ptosim/tile.h"
#include "ptosim/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* pto.tload and pto.tprefetch: GM view -> tile (ins(%src) outs(%dst)). TLOAD moves the
 * dst valid region; TPREFETCH stages every 2-D slice of the view into the tile buffer. */
typedef struct ptosim_tload_params {
  ptosim_gm_view src;
  ptosim_tile dst;
} ptosim_tload_params;

/* pto.tstore (ins(%src [, %preQuantScalar]) outs(%dst)) and pto.tstore_fp
 * (ins(%src, %fp) outs(%dst)): tile valid region -> GM view.
 * The acc-only fields feed the FIXPIPE pipeline; for vec / mat tiles they must stay at
 * their zero values (atomic ADD excepted). */
typedef struct ptosim_tstore_params {
  ptosim_tile src;
  ptosim_gm_view dst;
  ptosim_atomic_op atomic; /* atomicType: NONE (atomic_none) or ADD (atomic_add) */
  ptosim_relu_mode relu;   /* acc: reluPreMode NONE / NO_RELU (no_relu) or NORMAL (normal_relu) */
  bool has_quant_scalar;   /* acc: the preQuantScalar operand is present (pto.tstore only) */
  uint64_t quant_scalar;   /* acc: QUANT_PRE register image: scale M1 = bits [31:13] of an f32,
                              offset = signed bits [45:37], bit 46 = signed 8-bit result */
  ptosim_unit_flag phase;  /* acc: stPhase unspecified = NONE, partial = CHECK_ONLY,
                              final = CHECK_AND_CLEAR (the FIXPIPE unit-flag control) */
  ptosim_tile fp;          /* pto.tstore_fp: scaling tile in FB, one 64-bit quant word per
                              output column (pto.tstore: when has_fp) */
  bool has_fp;             /* pto.tstore: the `fp %fp` operand is present (as pto.tstore_fp) */
} ptosim_tstore_params;

/* pto.tprefetch_async (%src, %ctx): L2 warm-up of a flat contiguous view; no data changes.
 * workspace is the GM address of the SDMA workspace the context was made from (0: the
 * context is empty and the op does nothing). */
typedef struct ptosim_tprefetch_async_params {
  ptosim_gm_view src;
  uint64_t workspace;
  int64_t *event;   /* out (may be NULL): the event handle, PTOSIM_ASYNC_EVENT_DONE */
} ptosim_tprefetch_async_params;

/* Asynchronous DMA handles (PTOAS !pto.prefetch_async_context, !pto.async_session,
 * !pto.async_event; pto-isa include/pto/comm/async_common). ptosim runs one device and
 * completes every asynchronous copy when it is issued, so a handle is an integer:
 *   context = the GM byte address of its SDMA workspace (0: no workspace);
 *   session = the GM byte address of the workspace it was built on (0: invalid session);
 *   event   = PTOSIM_ASYNC_EVENT_DONE for a started (and so finished) copy, 0 for the empty
 *             event (pto-isa AsyncEvent handle 0, which Wait / Test report as complete). */
#define PTOSIM_ASYNC_EVENT_DONE 1

/* %ctx = pto.make_prefetch_async_context(%workspace : !pto.ptr<i8>) -> !pto.prefetch_async_context
 * (*ctx = the workspace's GM address), and %s = pto.get_prefetch_async_session %ctx (*ctx =
 * the context's own session: its workspace address; workspace unused). */
typedef struct ptosim_async_context_params {
  ptosim_ptr workspace;   /* make: a GM pointer to 8-bit elements */
  int64_t handle;         /* get_prefetch_async_session: the context */
  int64_t *out;
} ptosim_async_context_params;

/* %s = pto.build_async_session / pto.comm.build_async_session(%scratch, %workspace : T, W)
 * {sync_id, block_bytes, comm_block_offset, queue_num, channel_group_idx}: *session = the
 * workspace's GM address. Absent attributes take PTOAS's lowering defaults (PTOToEmitC emits
 * SdmaBaseConfig {32768, 0, 1}): sync_id 0, block_bytes 32768, comm_block_offset 0, queue_num 1,
 * channel_group_idx auto = -1. */
typedef struct ptosim_async_session_params {
  ptosim_tile scratch;    /* vec tile of at least 8 bytes (SQE staging on the NPU; not modelled) */
  ptosim_ptr workspace;   /* GM pointer to 8-bit elements */
  int64_t sync_id, block_bytes, comm_block_offset, queue_num, channel_group_idx;
  int64_t *session;
} ptosim_async_session_params;

/* %done = pto.[comm.]wait_async_event / test_async_event(%event, %session : E, S) -> i1:
 * *completed = 1 (every copy is complete when issued); a started event needs a valid session. */
typedef struct ptosim_async_event_params {
  int64_t event, session;
  int64_t *completed;
} ptosim_async_event_params;

/* MGATHER / MSCATTER operating mode: ROW moves whole table rows table[idx[r], :] (index
 * tile [1, R] row-major or, A5, [R, 1] col-major); ELEM moves single elements
 * table_flat[idx[r][c]] (index tile of the data tile's valid shape). PTOAS has no
 * attribute for it: the index tile's valid shape selects it. */
typedef enum ptosim_coalesce { PTOSIM_COALESCE_ROW = 0, PTOSIM_COALESCE_ELEM = 1 } ptosim_coalesce;

/* MGATHER out-of-range index policy (gatherOob). capacity = table rows (ROW) or elements
 * (ELEM). UNDEFINED uses the index as is; CLAMP min(idx, capacity - 1); WRAP idx % capacity;
 * ZERO writes zero elements for an index >= capacity. Indices are read as uint32. */
typedef enum ptosim_gather_oob {
  PTOSIM_GATHER_UNDEFINED = 0,
  PTOSIM_GATHER_CLAMP = 1,
  PTOSIM_GATHER_WRAP = 2,
  PTOSIM_GATHER_ZERO = 3
} ptosim_gather_oob;

/* MSCATTER out-of-range index policy (scatterOob): SKIP drops the write. */
typedef enum ptosim_scatter_oob {
  PTOSIM_SCATTER_UNDEFINED = 0,
  PTOSIM_SCATTER_SKIP = 1,
  PTOSIM_SCATTER_CLAMP = 2,
  PTOSIM_SCATTER_WRAP = 3
} ptosim_scatter_oob;

/* pto.mgather ins(%table, %idx) outs(%dst): GM table -> UB tile through a UB index tile
 * (int32 / uint32); or GM table -> NZ mat tile through GM indices (gm_idx, see below). */
typedef struct ptosim_mgather_params {
  ptosim_gm_view table;
  ptosim_tile idx;
  ptosim_tile dst;
  ptosim_coalesce coalesce;
  ptosim_gather_oob oob;
  /* GM -> L1 form (dst a mat tile): the indices are the GM view idx_gm (i32 / u32), not idx;
   * elem mode stages through the GM view scratch (dst rows x cols elements). */
  bool gm_idx;
  ptosim_gm_view idx_gm;
  ptosim_gm_view scratch;
} ptosim_mgather_params;

/* pto.mscatter ins(%src, %idx) outs(%table): UB tile -> GM table through a UB index tile.
 * Duplicate destinations: the write of the largest flat source index wins (row-major order);
 * atomic ADD / MAX / MIN accumulate in that order (scatterAtomicOp). */
typedef struct ptosim_mscatter_params {
  ptosim_tile src;
  ptosim_tile idx;
  ptosim_gm_view table;
  ptosim_coalesce coalesce;
  ptosim_atomic_op atomic;
  ptosim_scatter_oob oob;
} ptosim_mscatter_params;

#ifdef __cplusplus
}
#endif
#endif
