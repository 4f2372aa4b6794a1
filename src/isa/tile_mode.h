/* The MAD mode bits of CTRL that pto.settf32mode / pto.sethf32mode write (tile_mode.c) and
 * the tile matmuls read (tile_matrix.c): pto-isa include/pto/common/constants.hpp
 * MAD_MODE_BIT = 46, MAD_ROUND_MODE_BIT = 47; pto_tile.hpp SetMadTF32Mode sets bit 46 and
 * bit 47 = 1 for CAST_ROUND, 0 for CAST_RINT; ResetMadMode clears bit 46. */
#ifndef PT_TILE_MODE_H
#define PT_TILE_MODE_H

#define PT_CTRL_MAD_MODE_BIT 46
#define PT_CTRL_MAD_ROUND_BIT 47

#endif
