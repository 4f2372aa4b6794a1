/* Layout address formulas. Each returns the byte offset of logical element (r, c) of a
 * 2-D matrix from the base of its storage; `es` is the element size in bytes.
 * C0 = 32 bytes; a fractal is 16 rows x 32 bytes (16 x 16 f16, 16 x 8 f32, 16 x 32 i8),
 * except the L0C accumulator fractal, 16 x 16 elements of 4 bytes.
 *
 * Names used in ptosim (defined by the formulas, not by the many names in the docs):
 *   ND   row-major:                 r * row_stride + c                       (elements)
 *   DN   column-major:              c * col_stride + r                       (elements)
 *   NZ   column blocks of fractals, each fractal row-major:
 *          (c / cw) * blk + r * row + (c % cw) * es                          (bytes)
 *        cw = C0 / es elements per fractal row, blk = bytes between column blocks,
 *        row = bytes between rows (32 when rows are packed). L1 "NZ" after
 *        mte_gm_l1_frac has row = loop2 * 32, blk = loop3 * 32. L0A on A5 (K1 M1 M0 K0)
 *        is NZ with row = 32, blk = 32 * ceil16(M). L0B (K1 N1 N0 K0, "ZN") stores B^T
 *        [n][k] as NZ with row = 32, blk = 32 * ceil16(N). L0C (N1 M1 M0 N0) is NZ with
 *        cw = 16, row = 16 * es, blk = src_stride * 16 * es.
 *   ZZ   row blocks of fractals, each fractal row-major (L0A on A2/A3, M1 K1 M0 K0):
 *          (r / 16) * rblk + (c / cw) * 512 + (r % 16) * 32 + (c % cw) * es (bytes)
 *        rblk = 512 * ceil(K / cw). */
#ifndef PT_LAYOUT_H
#define PT_LAYOUT_H

#include <stdint.h>

#define PT_C0 32u       /* bytes in one fractal row */
#define PT_FRAC_ROWS 16u /* rows in one fractal */
#define PT_FRAC_BYTES 512u

static inline uint64_t pt_ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
static inline uint64_t pt_align_up(uint64_t a, uint64_t b) { return pt_ceil_div(a, b) * b; }

static inline uint64_t pt_nd_off(uint64_t r, uint64_t c, uint64_t row_stride) { return r * row_stride + c; }
static inline uint64_t pt_dn_off(uint64_t r, uint64_t c, uint64_t col_stride) { return c * col_stride + r; }

static inline uint64_t pt_nz_off(uint64_t r, uint64_t c, unsigned es, unsigned cw, uint64_t row, uint64_t blk) {
  return (c / cw) * blk + r * row + (c % cw) * es;
}

static inline uint64_t pt_zz_off(uint64_t r, uint64_t c, unsigned es, unsigned cw, uint64_t rblk) {
  return (r / PT_FRAC_ROWS) * rblk + (c / cw) * PT_FRAC_BYTES + (r % PT_FRAC_ROWS) * PT_C0 + (c % cw) * es;
}

#endif
