/* ptosim — parameter blocks of the tile matrix multiply and matrix data movement ops
 * (src/isa/tile_matrix.c, src/isa/tile_mov.c). A tile operand is a ptosim_tile (tile.h);
 * its space is its loc: left = L0A, right = L0B, acc = L0C, bias = BT, scaling = FB,
 * mat = L1, vec = UB, scale_left / scale_right (MX) = L0A_MX / L0B_MX. */
#ifndef PTOSIM_TILE_MATRIX_H
#define PTOSIM_TILE_MATRIX_H

#include <stdbool.h>
#include <stdint.h>

#include "ptosim/ops.h" /* ptosim_tf32_mode, ptosim_relu_mode */
#include "ptosim/tile.h"
#include "ptosim/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* PTOAS AccPhase (#pto.acc_phase<...>): the unit flag of the underlying MAD; it orders the
 * cube against FIXPIPE and does not change any byte. */
typedef enum ptosim_acc_phase {
  PTOSIM_ACC_PHASE_UNSPECIFIED = 0,
  PTOSIM_ACC_PHASE_PARTIAL = 2,
  PTOSIM_ACC_PHASE_FINAL = 3
} ptosim_acc_phase;

/* pto.tmatmul, pto.tmatmul.acc, pto.tmatmul.bias, pto.tgemv, pto.tgemv.acc, pto.tgemv.bias and
 * the MX forms pto.tmatmul.mx[.acc|.bias], pto.tgemv.mx[.acc|.bias] (A5).
 * m = lhs valid rows (1 for tgemv*), k = lhs valid cols (rhs valid rows for tgemv*),
 * n = rhs valid cols. Unused tiles are ignored (leave them zeroed). */
typedef struct ptosim_tmatmul_params {
  ptosim_tile dst;       /* outs: acc tile C, m x n */
  ptosim_tile acc_in;    /* .acc forms: ins %acc_in / %c_in, the C0 the FMA chains start from */
  ptosim_tile lhs;       /* ins %lhs / %a: left tile A, m x k */
  ptosim_tile rhs;       /* ins %rhs / %b: right tile B, k x n */
  ptosim_tile bias;      /* .bias forms: ins %bias, a 1-row bias tile of the dst element type */
  ptosim_tile lhs_scale; /* .mx forms: ins %a_scale, scale_left tile of e8m0, m x k/32 */
  ptosim_tile rhs_scale; /* .mx forms: ins %b_scale, scale_right tile of e8m0, k/32 x n */
  ptosim_acc_phase phase;
  /* MAD TF32 mode of the core (CTRL bits 46/47 written by pto.settf32mode; A5, f32 x f32
   * only; ignored elsewhere). Lives here until the core models the CTRL register. */
  ptosim_tf32_mode tf32;
} ptosim_tmatmul_params;

/* PTOAS AccToVecMode (#pto.acc_to_vec_mode<...>) of an acc -> vec move (A5): the whole tile
 * to the UB of vector sub-block 0 or 1, or rows (split_m) / columns (split_n) halved
 * between the two sub-blocks, each half at the same UB address. */
typedef enum ptosim_acc_to_vec_mode {
  PTOSIM_A2V_SINGLE_VEC0 = 0,
  PTOSIM_A2V_SINGLE_VEC1 = 1,
  PTOSIM_A2V_DUAL_SPLIT_M = 2,
  PTOSIM_A2V_DUAL_SPLIT_N = 3
} ptosim_acc_to_vec_mode;

/* pto.tmov, pto.tmov.fp, pto.textract, pto.textract_fp, pto.tinsert, pto.tinsert_fp.
 * textract: dst[i][j] = src[index_row + i][index_col + j];
 * tinsert:  dst[index_row + i][index_col + j] = src[i][j];
 * tmov:     dst[i][j] = src[i][j] (index_row = index_col = 0).
 * From an acc tile the elements pass the FIXPIPE conversion (pre_quant, relu, narrowing):
 * a cast for f32 -> f16 / bf16, the scalar quant mode of the type pair with quant_scalar,
 * the vector quant mode with fp (per output column, 8-byte words in the scaling tile). */
typedef struct ptosim_tmov_params {
  ptosim_tile src;
  ptosim_tile dst;
  bool has_fp;
  ptosim_tile fp; /* ins %fp: scaling tile (FB) of u64/i64 quant words */
  bool has_quant_scalar;
  uint64_t quant_scalar;             /* ins %preQuantScalar (i64): the raw QUANT_PRE word:
                                        f32 scale [31:0], signed offset [45:37], sign [46] */
  ptosim_acc_to_vec_mode acc_to_vec; /* accToVecMode attribute (acc -> vec only) */
  ptosim_relu_mode relu;             /* reluPreMode attribute: NONE / NO_RELU or NORMAL */
  int64_t index_row, index_col;      /* textract / tinsert offsets, elements */
  int insert_split;                  /* tinsertMode (A5 NZ vec -> mat tinsert): 0 none, 2 (split2) or 4
                                        (split4) copies of the column blocks; rows rounded up to 16 */
} ptosim_tmov_params;

#ifdef __cplusplus
}
#endif
#endif
