/* What tile_reduce.c shares with tile_irregular.c: the checks of a vec tile operand and the
 * typed elementwise loops (one per operation and element type, looked up once per op). */
#ifndef PT_TILE_BCAST_H
#define PT_TILE_BCAST_H

#include <stdint.h>

#include "isa/tile_check.h"

/* d[j] = f(a[j & am], b[j & bm]) for j < n, elements of one type: a mask of -1 walks the
 * operand, 0 repeats its element 0, 2^k - 1 a block of 2^k. */
typedef void (*pt_tile_bc_fn)(uint8_t *d, const uint8_t *a, int64_t am, const uint8_t *b, int64_t bm, int64_t n);
typedef enum pt_tile_binop { PT_TB_ADD, PT_TB_MUL, PT_TB_MAX, PT_TB_MIN } pt_tile_binop;
/* The loop of f = op on element type dt; NULL when there is none. */
pt_tile_bc_fn pt_tile_bc_loop(pt_tile_binop op, ptosim_dtype dt);

/* A vec tile: the common tile rules, then space UB (rule "<op>.space"). */
ptosim_status pt_tile_vec(pt_ctx *x, const char *op, const char *what, const ptosim_tile *t);
/* dt is in the type set (bits 1 << dtype) of the current target (rule "<op>.dtype"). */
ptosim_status pt_tile_dtype_in(pt_ctx *x, const char *op, const char *what, ptosim_dtype dt, uint32_t a2a3, uint32_t a5);
/* a and b have one element type (rule "<op>.dtype"; what names a). */
ptosim_status pt_tile_same_dtype(pt_ctx *x, const char *op, const char *what, const ptosim_tile *a,
                                 const ptosim_tile *b);
/* Host byte of rows [0, n) x columns [0, w) of row-major tile t, accessed with acc. */
ptosim_status pt_tile_rows(pt_ctx *x, const ptosim_tile *t, int64_t n, int64_t w, pt_access acc, uint8_t **out);

/* Caps the vector level of the reduction loops (tile_reduce.c: 1 portable C, 2 AVX2 + F16C,
 * 3 AVX-512, 4 AVX512-FP16; the host's level when higher than the cap is not used), so that
 * the tests run every level the host has. Default 4. */
void pt_tile_reduce_cap_level(int level);

/* Element type sets (bit 1 << dtype). */
#define PT_TB_T(t) (1u << PTOSIM_DT_##t)
#define PT_TB_BASE (PT_TB_T(I16) | PT_TB_T(I32) | PT_TB_T(F16) | PT_TB_T(F32)) /* PTOAS: i16/i32/f16/f32 */

#endif
