/* Shape and inputs shared by the two drivers of bench/ptoisa_baseline.sh: ptoisa_ops.cpp
 * (pto-isa's CPU simulator, C++) and ptosim_ops.c (ptosim's C API), so that both time the
 * same op on the same bytes and their outputs can be compared bit for bit. */
#ifndef PB_INPUTS_H
#define PB_INPUTS_H

/* The tile of bench_tile_elem.c and bench_tile_reduce.c: 64 x 512 f32 = 128 KiB. */
enum { PB_ROWS = 64, PB_COLS = 512, PB_N = PB_ROWS * PB_COLS };

/* Source element i (row-major): ((i mod 97) - 40) * 0.0311, in [-1.244, 1.742]. 0.0311 has
 * no short binary form, so the values use every f32 mantissa bit: TCVT f32 -> f16 must
 * round, TROWSUM's result depends on its summation order, TEXP stays finite. Off centre,
 * so that no row sums to about 0 (where units in the last place mean nothing). */
static inline float pb_input(int i) { return (float)(i % 97 - 40) * 0.0311f; }

/* src1 of the TROWEXPANDMUL compared run: row r is scaled by 0.625 + (r mod 7) / 8. (The
 * timed runs scale by 1, in place, so the tile keeps its values run after run.) */
static inline float pb_row_factor(int r) { return 0.625f + (float)(r % 7) * 0.125f; }

#endif
