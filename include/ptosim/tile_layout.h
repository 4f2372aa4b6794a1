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
} ptosim_ttrans_params;

/* pto.tfillpad / pto.tfillpad_inplace / pto.tfillpad_expand ins(%src) outs(%dst): copy the
 * source valid region into dst and write dst's pad value (dst.pad, not null) around it:
 * rows < src.valid_rows get the pad value after the copied columns, rows from
 * src.valid_rows to dst.valid_rows are pad value in full. The _inplace form does not copy
 * (src only supplies the valid region); the _expand form allows a larger dst. tfillpad
 * also takes one NZ mat (L1) tile as both operands: then it zeroes the L1 padding. */
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

#ifdef __cplusplus
}
#endif
#endif
