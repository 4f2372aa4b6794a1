/* ptosim — parameter blocks of the tile move tile ops (src/isa/tile_move.c). */
#ifndef PTOSIM_TILE_MOVE_H
#define PTOSIM_TILE_MOVE_H

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
