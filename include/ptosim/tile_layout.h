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

#ifdef __cplusplus
}
#endif
#endif
