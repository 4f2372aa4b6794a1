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

#ifdef __cplusplus
}
#endif
#endif
