/* ptosim — parameter blocks of the tile matrix tile ops (src/isa/tile_matrix.c). */
#ifndef PTOSIM_TILE_MATRIX_H
#define PTOSIM_TILE_MATRIX_H

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
