/* Element formulas shared by the register-level vector ops (vec_binary.c, vec_unary.c) and
 * the vector tile ops (tile_elem.c): F(K, x[, y]) on compute-type values of lane kind K
 * (src/isa/vec_lanes.h). Integers wrap; floats are computed in f32 and rounded by the caller. */
#ifndef PT_VEC_FORMULAS_H
#define PT_VEC_FORMULAS_H

#include <math.h>

#include "isa/vec_lanes.h"

#define ADD_I(K, x, y) PT_VL_WRAP(K, x, +, y)
#define SUB_I(K, x, y) PT_VL_WRAP(K, x, -, y)
#define MUL_I(K, x, y) PT_VL_WRAP(K, x, *, y)
#define ADD_F(K, x, y) ((x) + (y))
#define SUB_F(K, x, y) ((x) - (y))
#define MUL_F(K, x, y) ((x) * (y))
#define DIV_F(K, x, y) ((x) / (y))
#define MAX_I(K, x, y) ((x) > (y) ? (x) : (y))
#define MIN_I(K, x, y) ((x) < (y) ? (x) : (y))
#define AND_B(K, x, y) ((pt_vl_c_##K)((x) & (y)))
#define OR_B(K, x, y) ((pt_vl_c_##K)((x) | (y)))
#define XOR_B(K, x, y) ((pt_vl_c_##K)((x) ^ (y)))
#define NOT_B(K, x) ((pt_vl_c_##K)~(x))
#define NEG_I(K, x) PT_VL_WRAP(K, 0, -, x)
#define ABS_I(K, x) ((x) < 0 ? PT_VL_WRAP(K, 0, -, x) : (x))
#define EXP_F(K, x) expf(x)
#define LN_F(K, x) logf(x)

#endif
