/* ptosim — the tile level: a tile is a place in a local memory with a shape, a valid
 * region and layouts; a GM view is a 5-D window of global memory. Tile ops (TLOAD,
 * TSTORE, TMATMUL, ...) are rows of the same op table as the micro-instructions and take
 * these structs in their parameter blocks. C11, no compiler extensions. */
#ifndef PTOSIM_TILE_H
#define PTOSIM_TILE_H

#include <stdint.h>

#include "ptosim/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Base layout of a tile (PTOAS BLayout). */
typedef enum ptosim_blayout { PTOSIM_BL_ROW_MAJOR = 0, PTOSIM_BL_COL_MAJOR = 1 } ptosim_blayout;

/* Secondary (fractal box) layout of a tile (PTOAS SLayout): none_box is a plain 2-D
 * array; row_major / col_major arrange the data in fractal boxes of `fractal` bytes. */
typedef enum ptosim_slayout {
  PTOSIM_SL_NONE_BOX = 0,
  PTOSIM_SL_ROW_MAJOR = 1,
  PTOSIM_SL_COL_MAJOR = 2
} ptosim_slayout;

/* Value written into the padding of a tile (PTOAS PadValue): null leaves the padding
 * untouched; max / min are +inf / -inf for f32, f16 and bf16, the numeric limits for
 * integers, and 0 for the 8-bit float types (pto-isa docs tfillpad.md and
 * include/pto/common/constants.hpp PadValueMap). */
typedef enum ptosim_pad_value {
  PTOSIM_PAD_NULL = 0,
  PTOSIM_PAD_ZERO = 1,
  PTOSIM_PAD_MAX = 2,
  PTOSIM_PAD_MIN = 3
} ptosim_pad_value;

/* A tile: the C form of !pto.tile_buf<loc=..., dtype=..., rows=..., cols=..., v_row=...,
 * v_col=..., blayout=..., slayout=..., fractal=..., pad=..., compact=...>.
 * The space follows from loc: vec = UB, mat = L1, left = L0A, right = L0B, acc = L0C,
 * bias = BT, scaling = FB (MX scale tiles live in L0A_MX / L0B_MX). */
typedef struct ptosim_tile {
  ptosim_space space;
  uint64_t addr;          /* byte offset of element storage in `space` */
  ptosim_dtype dtype;
  int32_t rows, cols;     /* static shape, elements */
  int32_t valid_rows;     /* valid region, elements: 0 < valid_rows <= rows */
  int32_t valid_cols;     /* 0 < valid_cols <= cols */
  ptosim_blayout blayout;
  ptosim_slayout slayout;
  int32_t fractal;        /* fractal box size in bytes (PTOAS s_fractal, default 512) */
  ptosim_pad_value pad;
  int32_t compact;        /* CompactMode: 0 null, 1 normal, 2 row_plus_one (PTOAS), 3 row_aligned_padding (pto-isa) */
  int32_t dyn_valid;      /* PTOSIM_DYN_VALID_* bits: the valid rows / cols are set at run time (v_row=? /
                             v_col=?), so pto-isa's static ValidRow / ValidCol is -1; a few NPU paths test
                             it (tpairreducesum's 1-D path, A2/A3's fixed f32 row sums). 0: static. */
} ptosim_tile;

enum { PTOSIM_DYN_VALID_ROWS = 1, PTOSIM_DYN_VALID_COLS = 2 };

/* Layout of a GM view (pto-isa GlobalTensor Layout). ND is row-major, DN column-major,
 * NZ fractal; the MX layouts describe the shared-scale tensors of MX matmuls (A5). */
typedef enum ptosim_gm_layout {
  PTOSIM_GL_ND = 0,
  PTOSIM_GL_DN,
  PTOSIM_GL_NZ,
  PTOSIM_GL_MX_A_ZZ,
  PTOSIM_GL_MX_A_ND,
  PTOSIM_GL_MX_A_DN,
  PTOSIM_GL_MX_B_NN,
  PTOSIM_GL_MX_B_ND,
  PTOSIM_GL_MX_B_DN,
  PTOSIM_GL_COUNT
} ptosim_gm_layout;

#define PTOSIM_VIEW_DIMS 5

/* A GM view: element [i0][i1][i2][i3][i4] is at byte
 * addr + (i0*stride[0] + ... + i4*stride[4]) * elem_size, for i_d < shape[d].
 * Dimensions are outermost first, as in pto-isa's GlobalTensor Shape<...> / Stride<...>;
 * a 2-D view has shape {1, 1, 1, rows, cols}. Strides are in elements. */
typedef struct ptosim_gm_view {
  uint64_t addr;          /* GM byte address of element [0][0][0][0][0] */
  ptosim_dtype dtype;
  int64_t shape[PTOSIM_VIEW_DIMS];
  int64_t stride[PTOSIM_VIEW_DIMS];
  ptosim_gm_layout layout;
} ptosim_gm_view;

#ifdef __cplusplus
}
#endif
#endif
