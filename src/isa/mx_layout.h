/* MX scale layouts (A5): where pto.mte_l1_l0a_mx / pto.mte_l1_l0b_mx put the E8M0 scales and
 * where pto.mad_mx* reads them. One scale byte applies to one 32-element K group g = k / 32.
 *
 *   left scales  sa[m][g], m < M, g < ceil(K/32)   in the L0A_MX buffer
 *   right scales sb[g][n], g < ceil(K/32), n < N   in the L0B_MX buffer
 *
 * Both are stored in 32-byte boxes of 16 rows x 2 groups (row = m for sa, n for sb; the two
 * groups of a row are adjacent bytes). Boxes go row-block major: all boxes of rows 0..15,
 * then rows 16..31, ...; a row block holds ceil(K/64) boxes (K is consumed in 64-element
 * steps = two groups per box). Byte offset from the scale tile base:
 *
 *   off(r, g) = ((r / 16) * ceil(K/64) + g / 2) * 32 + (r % 16) * 2 + g % 2
 *
 * Sources: pto-isa include/pto/common/pto_tile.hpp (ScaleLeft "ZZ" / ScaleRight "NN" with
 * 16x2 boxes), include/pto/npu/a5/TExtract.hpp TExtractToAmx / TExtractToBmx (box row pitch
 * = scale columns / 2); golden of corpus cube-matmul/mad_mx (byte m*2+g for M = 16, K = 64).
 * The L1 source image of the loads has exactly this layout; the loads copy it unchanged.
 *
 * Tile base: the hardware finds the scales of a data tile at L0A / L0B byte address A at
 * scale-buffer address A >> 4 (pto-isa include/pto/npu/a5/utils.hpp SHIFT_MX_ADDR = 4,
 * docs TGET_SCALE_ADDR). The scale loads take their %dst address as the scale-buffer
 * address as is (PTOAS VPTOCANN900LLVMEmitter passes the pointer value unchanged), so a
 * program pairs a load with a data tile at A by passing dst address A >> 4 (equal for A = 0,
 * the only address real programs use). */
#ifndef PT_MX_LAYOUT_H
#define PT_MX_LAYOUT_H

#include <stdint.h>

#include "core/layout.h"

#define PT_MX_BOX_BYTES  32u /* one box: 16 rows x 2 scale bytes */
#define PT_MX_ADDR_SHIFT 4u  /* scale-buffer address = data address >> 4 */

/* Boxes per 16-row block for a K extent of k elements. */
static inline uint64_t pt_mx_boxes_per_row(uint64_t k) { return pt_ceil_div(k, 64); }

/* Bytes of a scale tile with `rows` rows (M for sa, N for sb) and K extent k. */
static inline uint64_t pt_mx_tile_bytes(uint64_t rows, uint64_t k) {
  return pt_ceil_div(rows, PT_FRAC_ROWS) * pt_mx_boxes_per_row(k) * PT_MX_BOX_BYTES;
}

/* Offset of the scale of row r (m or n) and K group g in a tile of K extent k. */
static inline uint64_t pt_mx_off(uint64_t r, uint64_t g, uint64_t k) {
  return ((r / PT_FRAC_ROWS) * pt_mx_boxes_per_row(k) + g / 2) * PT_MX_BOX_BYTES + (r % PT_FRAC_ROWS) * 2 + g % 2;
}

/* Left scale sa[m][g] and right scale sb[g][n]. */
static inline uint64_t pt_mx_left_off(uint64_t m, uint64_t g, uint64_t k) { return pt_mx_off(m, g, k); }
static inline uint64_t pt_mx_right_off(uint64_t g, uint64_t n, uint64_t k) { return pt_mx_off(n, g, k); }

/* Scale-buffer base address of the scales of a data tile at L0A / L0B address data_addr. */
static inline uint64_t pt_mx_scale_base(uint64_t data_addr) { return data_addr >> PT_MX_ADDR_SHIFT; }

#endif
