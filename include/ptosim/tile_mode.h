/* Parameters of the tile mode-configuration ops pto.settf32mode / pto.sethf32mode
 * (src/isa/tile_mode.c): `pto.settf32mode {enable = true, mode = #pto<round_mode ROUND>}`. */
#ifndef PTOSIM_TILE_MODE_H
#define PTOSIM_TILE_MODE_H

#include <stdbool.h>

/* RoundMode of the transform: CAST_ROUND (nearest, ties away from zero; the default of
 * SETTF32MODE / SETHF32MODE) or CAST_RINT (nearest, ties to even). */
typedef enum ptosim_tmode_round { PTOSIM_TMODE_ROUND = 0, PTOSIM_TMODE_RINT } ptosim_tmode_round;

typedef struct ptosim_tmode_params {
  bool enable;             /* turn the mode on (true) or off (false) */
  ptosim_tmode_round mode; /* rounding of the transform when enabled */
} ptosim_tmode_params;

#endif
