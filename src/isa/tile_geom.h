/* Storage geometry of a tile (ptosim_tile) for the tile matrix ops: where each logical
 * element (r, c) sits, and region mapping / copying on top of it (tile_geom.c), used by
 * tile_mov.c and tile_matrix.c.
 *
 * A tile is stored in boxes of ir x ic elements; the element offset of (r, c) is
 *
 *   (r / ir) * sr + (c / ic) * sc + (in_col ? (c % ic) * ir + r % ir : (r % ir) * ic + c % ic)
 *
 * which covers every layout of pto-isa include/pto/common/pto_tile.hpp (GetTileOffset):
 *   none_box, row_major blayout (ND)  ir = 1, ic = cols, sr = cols
 *   none_box, col_major blayout (DN)  ir = rows, ic = 1, sc = rows, column-major inside
 *   boxed (slayout row_major / col_major = inner order, blayout = box order): the box holds
 *     fractal bytes; row-major inside: ir = 16, ic = fractal / (16 es); column-major inside:
 *     ir = fractal / (16 es), ic = 16. So 512-byte fractals are 16 x C0 (NZ, ZZ) or C0 x 16
 *     (ZN), the 1024-byte acc fractal 16 x 16 of 4-byte elements, the 32-byte MX scale box
 *     16 x 2 (scale_left) or 2 x 16 (scale_right).
 *     Column-major boxes: sr = ir * ic, sc = R * ic; row-major boxes: sc = ir * ic, sr = C * ir,
 *     where R / C are the rows / columns rounded up to whole boxes, of the valid shape when
 *     compact = normal (pto-isa TileLeftCompact / TileAccCompact: the cube and FIXPIPE
 *     address those tiles by their valid extent), and R = rows exactly when compact =
 *     row_plus_one (TMOV.md: Rows = S0 + 1 staggers the column blocks).
 *   a left tile of one row is a GEMV vector: dense, element k at k * es (docs/spec-notes.md
 *     2.5; pto-isa TExtractToAVector moves whole 512-byte fractals of it unchanged). */
#ifndef PT_TILE_GEOM_H
#define PT_TILE_GEOM_H

#include <stdbool.h>
#include <stdint.h>

#include "isa/tile_check.h"

typedef struct tg_geom {
  ptosim_space space;
  uint64_t addr; /* byte address of the tile in its space */
  ptosim_dtype dt;
  unsigned es;        /* element bytes */
  bool boxed;         /* fractal boxes (slayout != none_box) */
  bool in_col;        /* column-major inside a box */
  int64_t ir, ic;     /* box rows / columns, elements */
  int64_t sr, sc;     /* elements between consecutive box rows / box columns */
  int64_t rows, cols; /* addressable extent: whole boxes */
} tg_geom;

/* Element offset of (r, c). */
static inline int64_t tg_off(const tg_geom *g, int64_t r, int64_t c) {
  int64_t in = g->in_col ? (c % g->ic) * g->ir + r % g->ir : (r % g->ir) * g->ic + c % g->ic;
  return (r / g->ir) * g->sr + (c / g->ic) * g->sc + in;
}

static inline int64_t tg_min(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t tg_align(int64_t a, int64_t b) { return (a + b - 1) / b * b; } /* a rounded up to b */

/* Elements contiguous in storage from (r, c) on: along the row inside a row-major box (the
 * whole rest of the row for ND), along the column inside a column-major one. */
static inline int64_t tg_run(const tg_geom *g, int64_t r, int64_t c) {
  return g->in_col ? g->ir - r % g->ir : g->ic - c % g->ic;
}

/* Storage bytes from the tile address to the end of its last box. */
static inline uint64_t tg_bytes(const tg_geom *g) {
  return (uint64_t)(tg_off(g, g->rows - 1, g->cols - 1) + 1) * g->es;
}

/* Check the tile (pt_tile_check, the matrix family's rules; `what` names it in messages)
 * and describe its storage. */
ptosim_status pt_tile_geom(pt_ctx *x, const char *what, const ptosim_tile *t, tg_geom *g);

/* L0 layout records (pt_l0_layout) of core c. pt_l0_note: an op wrote bytes [addr, end) of
 * space s: forget the records overlapping them, then keep r when given (at most
 * PT_L0_LAYOUT_MAX, the oldest dropped first: a reader then sees no record). pt_l0_find: the
 * newest record of a tile stored at addr of space s, or NULL. */
void pt_l0_note(ptosim_core *c, ptosim_space s, uint64_t addr, uint64_t end, const pt_l0_layout *r);
const pt_l0_layout *pt_l0_find(const ptosim_core *c, ptosim_space s, uint64_t addr);
/* Whether t, a matmul operand in L0A / L0B, was stored compact by its move although its type
 * is not (same address, type and valid shape as the record): read it with the compact geometry. */
bool pt_tile_packed(const ptosim_core *c, const ptosim_tile *t);
/* An acc tile t that a reader reads with `pitch` rows per 16-column block: fail (rule, from
 * `what`) when the cube wrote it with another pitch and the read spans more than one block,
 * which reads the wrong elements on the NPU too. */
ptosim_status pt_acc_pitch_check(pt_ctx *x, const char *rule, const ptosim_tile *t, int64_t pitch);

/* Map the boxes holding region rows [r0, r0 + h) x columns [c0, c0 + w) of the tile through
 * the accessor layer of core c (bounds, alignment of the tile address, event record), and
 * return the host byte of the tile address. A non-boxed tile maps exactly the region's
 * rows (ND) or columns (DN); a boxed one the whole boxes the region touches. */
ptosim_status pt_tile_map(pt_ctx *x, ptosim_core *c, const tg_geom *g, int64_t r0, int64_t c0, int64_t h, int64_t w,
                          pt_access acc, uint8_t **base);

/* dst(dr + i, dc + j) = src(sr + i, sc + j) for i < h, j < w, elements of equal size. Tiles
 * that store runs along the same dimension: one memcpy per stretch contiguous in both (whole
 * boxes, ND rows) or per run (a 32-byte fractal row); otherwise blocks transposed in 16-byte
 * squares (pt_tile_transposer). */
void pt_tile_copy(const tg_geom *d, uint8_t *dbase, int64_t dr, int64_t dc, const tg_geom *s, const uint8_t *sbase,
                  int64_t sr, int64_t sc, int64_t h, int64_t w);


/* dst row i element o = src row o element i, for o < bh, i < bw: elements of es bytes, rows
 * dstr / sstr bytes apart. */
typedef void (*pt_tile_transpose_fn)(uint8_t *d, int64_t dstr, const uint8_t *s, int64_t sstr, unsigned es, int64_t bh,
                                     int64_t bw);

/* The transpose kernel for es-byte elements. simd: whole 16-byte squares through the host's
 * vector unit where it has one (x86-64: AVX2 two squares at a time, else SSE2), else element
 * by element; all give the same bytes. */
pt_tile_transpose_fn pt_tile_transposer(unsigned es, bool simd);

#endif
