/* ptosim — parameter blocks of the tile layout tile ops (src/isa/tile_layout.c). */
#ifndef PTOSIM_TILE_LAYOUT_H
#define PTOSIM_TILE_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

#include "ptosim/tile.h"
#include "ptosim/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* pto.ttrans ins(%src, %tmp) outs(%dst): dst[j][i] = src[i][j] over the source valid
 * region. All three are vec (UB) tiles; tmp is the A2/A3 staging tile (never read). */
typedef struct ptosim_ttrans_params {
  ptosim_tile src;
  ptosim_tile tmp;
  ptosim_tile dst;
  bool no_tmp; /* ins(%src) only: PTOAS materializes tmp; neither target's result depends on it */
} ptosim_ttrans_params;

/* pto.tfillpad / pto.tfillpad_inplace / pto.tfillpad_expand ins(%src) outs(%dst): copy the
 * source valid region into dst and write dst's pad value (dst.pad, not null) around it:
 * rows < src.valid_rows get the pad value after the copied columns, rows from
 * src.valid_rows to dst.valid_rows are pad value in full (A2/A3 with equal src and dst
 * pad values: the source columns run on to the next 32-byte boundary, as the hardware
 * copies them). The _inplace form does not copy
 * (src only supplies the valid region); the _expand form allows a larger dst. tfillpad
 * also takes one NZ mat (L1) tile as both operands: then it zeroes the L1 padding.
 * pto.tpack ins(%src) outs(%dst) (A5) takes the same operands: dst(r, c) = the low bytes of
 * src(r, c) over the common valid region (4 -> 2, 4 -> 1 or 2 -> 1 bytes). */
typedef struct ptosim_tfillpad_params {
  ptosim_tile src;
  ptosim_tile dst;
} ptosim_tfillpad_params;

/* %result = pto.treshape %src : T -> R: the same bytes seen as another tile type. `result`
 * holds the new type on entry (dtype, shape, valid, layouts; its space must be src's); the
 * op sets result->addr to src.addr. No data moves. */
typedef struct ptosim_treshape_params {
  ptosim_tile src;
  ptosim_tile *result;
} ptosim_treshape_params;

/* pto.tget_scale_addr ins(%src : L) outs(%dst : S) (A5): places the scaling tile dst (loc
 * scaling) at the MX scale bytes of the left / right tile src: dst->space = L0A_MX / L0B_MX,
 * dst->addr = src.addr >> 4. dst holds its type on entry; no data moves. */
typedef struct ptosim_tget_scale_addr_params {
  ptosim_tile src;
  ptosim_tile *dst;
} ptosim_tget_scale_addr_params;

/* pto.tconcat ins(%src0, %src1) outs(%dst): for rows i < dst.valid_rows,
 * dst[i][j] = src0[i][j] (j < src0.valid_cols), dst[i][src0.valid_cols + j] = src1[i][j]
 * (j < src1.valid_cols). Row-major vec (UB) tiles of one element type. */
typedef struct ptosim_tconcat_params {
  ptosim_tile src0;
  ptosim_tile src1;
  ptosim_tile dst;
} ptosim_tconcat_params;

/* ---- img2col (A2/A3 and A5 cube core) ----------------------------------------------------
 * The set-up ops write core registers that pto.timg2col reads, as on the hardware; each
 * has an A and a B register set (fmatrix_b). A2/A3 has one repeat and one padding
 * register: its B forms of set_img2col_rpt / set_img2col_padding write the A register. */

/* pto.setfmatrix: feature map size and padding of the NC1HWC0 image in L1. */
typedef struct ptosim_setfmatrix_params {
  int64_t fmap_h, fmap_w;     /* image height / width, elements, [0, 65535] */
  int64_t pad_left, pad_right, pad_top, pad_bottom; /* rows / columns of padding, [0, 255] */
  bool fmatrix_b;
} ptosim_setfmatrix_params;

/* pto.set_img2col_rpt: repeat control. */
typedef struct ptosim_img2col_rpt_params {
  int64_t repeat_stride;      /* [0, 65535]: mode 0 in 16 rows, mode 1 in C0 columns */
  int64_t repeat_time;        /* [0, 255] */
  int64_t repeat_mode;        /* 0: repeat along M, 1: along K */
  int64_t dst_stride;         /* A5: 512-byte fractals between destination column blocks, [0, 65535]; A2/A3: 0 */
  int64_t dst_m_position;     /* A5: destination offset in 512-byte fractals, [0, 65535]; A2/A3: 0 */
  bool fmatrix_b;
} ptosim_img2col_rpt_params;

/* pto.set_img2col_padding: the value written where the window leaves the image. */
typedef struct ptosim_img2col_padding_params {
  ptosim_dtype dtype;         /* element type of the image, 1, 2 or 4 bytes */
  uint64_t bits;              /* bit pattern of the value in dtype */
  bool fmatrix_b;
} ptosim_img2col_padding_params;

/* pto.timg2col ins(%src) outs(%dst): dst[m][k] = im2col(src)[pos_m + m][pos_k + k] for
 * m < dst.valid_rows, k < dst.valid_cols rounded up to C0 (= 32 / es). src is the mat (L1)
 * image [C1][H][W][C0], C1 = channel_size / C0, H / W / padding from FMATRIX; row m is the
 * output pixel (m / OW, m % OW), OW = (W + pad_l + pad_r - dilation_w * (filter_w - 1) - 1)
 * / stride_w + 1; column k is (c1, kh, kw, c0) = ordered [C1][filter_h][filter_w][C0].
 * dst is a left (L0A) tile, ZZ on A2/A3, NZ with the register's dst stride on A5. */
typedef struct ptosim_timg2col_params {
  ptosim_tile src;
  ptosim_tile dst;
  int64_t pos_m, pos_k;           /* first im2col row / column, [0, 65535] */
  int64_t filter_h, filter_w;     /* [1, 511] */
  int64_t stride_h, stride_w;     /* [1, 63] */
  int64_t dilation_h, dilation_w; /* [1, 255] */
  int64_t channel_size;           /* C, a positive multiple of C0, [1, 65535] */
  bool transpose;                 /* transposed destination (not modelled: unsupported) */
  bool fmatrix_b;                 /* read the B register set */
} ptosim_timg2col_params;

#ifdef __cplusplus
}
#endif
#endif
