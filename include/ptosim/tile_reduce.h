/* ptosim — parameter blocks of the tile reduce and expand ops (src/isa/tile_reduce.c).
 * All tiles are vec (UB) tiles; the iteration domain is the destination's valid region and
 * nothing else of the destination is written. Orders of evaluation: docs/spec-notes-tilereduce.md. */
#ifndef PTOSIM_TILE_REDUCE_H
#define PTOSIM_TILE_REDUCE_H

#include <stdbool.h>

#include "ptosim/tile.h"

#ifdef __cplusplus
extern "C" {
#endif

/* pto.trow{sum,max,min,prod,argmax,argmin} ins(%src [, %tmp]) outs(%dst):
 *   dst(r, 0) = reduce over c < src.valid_cols of src(r, c), r < dst.valid_rows
 * (arg forms: the smallest c of the extremum, as u32 / i32); dst is ND or a one-column DN tile.
 * pto.tcol{sum,max,min,prod} ins(%src [, %tmp]) outs(%dst), pto.tcolarg{max,min} ins(%src, %tmp):
 *   dst(0, c) = reduce over r < src.valid_rows of src(r, c), c < dst.valid_cols
 * (tcolsum with binary = true: the pairwise tree of pto-isa's isBinary form).
 * pto.tpairreducesum ins(%src) outs(%dst): dst(r, c) = src(r, 2c) + src(r, 2c + 1).
 * tmp is the NPU's scratch tile: checked (vec tile of src's element type), never read or written. */
typedef struct ptosim_treduce_params {
  ptosim_tile src;
  ptosim_tile tmp;
  bool has_tmp;
  bool binary; /* tcolsum isBinary */
  ptosim_tile dst;
} ptosim_treduce_params;

/* pto.trowexpand / pto.tcolexpand ins(%src0) outs(%dst):
 *   dst(r, c) = src0(r, 0) (row) / src0(0, c) (col), over dst's valid region.
 * pto.trowexpand{add,sub,mul,div,max,min,expdif} ins(%src0, %src1 [, %tmp]) outs(%dst):
 *   dst(r, c) = f(x0, x1): the operand whose valid region equals dst's (src0 first) gives
 *   its element (r, c), the other one a per-row value: element (r, 0) of a column-major
 *   (DN) tile of one valid column, or b_r[c mod (32 / es)] of a row-major tile whose valid
 *   columns are one 32-byte block (pto-isa trowexpand*.md mode 2).
 * pto.tcolexpand{add,sub,mul,div,max,min,expdif} ins(%src0, %src1) outs(%dst):
 *   dst(r, c) = f(src0(r, c), src1(0, c)).
 * f: add, sub, mul, div, max, min, expdif = exp(x0 - x1). */
typedef struct ptosim_texpand_params {
  ptosim_tile src0;
  ptosim_tile src1; /* not used by trowexpand / tcolexpand */
  ptosim_tile tmp;
  bool has_tmp;
  ptosim_tile dst;
} ptosim_texpand_params;

#ifdef __cplusplus
}
#endif
#endif
