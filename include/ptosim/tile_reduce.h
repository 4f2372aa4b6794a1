/* ptosim — parameter blocks of the tile reduce and expand ops (src/isa/tile_reduce.c) and of
 * the irregular tile ops (src/isa/tile_irregular.c).
 * All tiles are vec (UB) tiles; the iteration domain is the destination's valid region and
 * nothing else of the destination is written. Orders of evaluation: docs/spec-notes-tilereduce.md. */
#ifndef PTOSIM_TILE_REDUCE_H
#define PTOSIM_TILE_REDUCE_H

#include <stdbool.h>

#include "ptosim/ops.h"
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

/* ---- irregular tile ops (src/isa/tile_irregular.c) ---------------------------------------- */

/* pto.tci ins(%start {descending = B} : iN) outs(%dst): dst(0, c) = start + c (descending:
 * start - c) wrapped to the element type, c < dst.valid_cols; only the first row is written
 * (pto-isa tci.md: the sequence length is valid_cols, valid_rows is not consulted). i16 / u16 /
 * i32 / u32 tiles. */
typedef struct ptosim_tci_params {
  ptosim_tile dst;
  int64_t start;
  bool descending;
} ptosim_tci_params;

/* pto.ttri ins(%diagonal {upperOrLower = U} : iN) outs(%dst): over dst's valid region,
 * lower (U = 0): dst(i, j) = 1 if j <= i + diagonal else 0; upper (U = 1): 0 if
 * j < i + diagonal else 1 (1 and 0 in the element type). */
typedef struct ptosim_ttri_params {
  ptosim_tile dst;
  int64_t diagonal;
  int32_t upper;
} ptosim_ttri_params;

/* %v = pto.tgetval ins(%src, %offset : T, index) outs : E: the element at storage offset
 * `offset` (elements from the tile address, 0 <= offset < rows * cols) of a vec tile. Integers
 * are written to *ivalue (sign-extended; unsigned types zero-extended), floats to *fvalue;
 * either pointer may be NULL. */
typedef struct ptosim_tgetval_params {
  ptosim_tile src;
  int64_t offset;
  int64_t *ivalue;
  double *fvalue;
} ptosim_tgetval_params;

/* pto.tsetval ins(%offset, %val : index, E) outs(%dst): the element at storage offset
 * `offset` of dst = value (whose dtype must be dst's element type). */
typedef struct ptosim_tsetval_params {
  ptosim_tile dst;
  int64_t offset;
  ptosim_scalar value;
} ptosim_tsetval_params;

/* pto.tpart{add,mul,max,min} ins(%src0, %src1) outs(%dst) take ptosim_texpand_params (no
 * tmp): one source's valid region equals dst's, the other's lies inside it; dst(r, c) =
 * f(src0(r, c), src1(r, c)) where both are valid, the value of the source that is valid elsewhere. */

#ifdef __cplusplus
}
#endif
#endif
