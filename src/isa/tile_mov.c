/* Tile matrix data movement: pto.tmov, pto.tmov.fp, pto.textract, pto.textract_fp,
 * pto.tinsert, pto.tinsert_fp, and the tile storage geometry of tile_geom.h.
 * Spec: pto-isa docs/isa/tile/ops/layout-and-rearrangement/{tmov,textract,tinsert}.md;
 * PTOAS docs/PTO_IR_manual.md (pto.tmov, pto.tmov.fp, pto.textract, pto.tinsert); hardware
 * evidence: pto-isa include/pto/npu/{a2a3,a5}/{TMov,TExtract,TInsert}.hpp. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "isa/tile_geom.h"

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t align64(int64_t a, int64_t b) { return (a + b - 1) / b * b; }

/* ---- geometry -------------------------------------------------------------------------- */

ptosim_status pt_tile_geom(pt_ctx *x, const char *fam, const char *what, const ptosim_tile *t, tg_geom *g) {
  char rule[64];
  snprintf(rule, sizeof rule, "%s.tile", fam);
  unsigned es = pt_dtype_size(t->dtype);
  PT_VERIFY(x, es > 0, rule, "tiles hold whole-byte element types", "%s tile has element type %s", what,
            pt_dtype_name(t->dtype));
  PT_VERIFY(x,
            t->rows >= 1 && t->cols >= 1 && t->valid_rows >= 1 && t->valid_rows <= t->rows && t->valid_cols >= 1 &&
                t->valid_cols <= t->cols,
            rule, "a tile needs 0 < v_row <= rows and 0 < v_col <= cols",
            "%s tile: rows = %d, cols = %d, v_row = %d, v_col = %d", what, t->rows, t->cols, t->valid_rows,
            t->valid_cols);
  PT_VERIFY(x,
            (unsigned)t->blayout <= PTOSIM_BL_COL_MAJOR && (unsigned)t->slayout <= PTOSIM_SL_COL_MAJOR &&
                t->compact >= 0 && t->compact <= 2,
            rule, "use the enumerators of ptosim/tile.h", "%s tile: invalid blayout %d, slayout %d or compact %d", what,
            (int)t->blayout, (int)t->slayout, t->compact);
  memset(g, 0, sizeof *g);
  g->space = t->space;
  g->addr = t->addr;
  g->dt = t->dtype;
  g->es = es;
  bool vector = t->space == PTOSIM_L0A && t->rows == 1; /* the GEMV vector (see tile_geom.h) */
  if (t->slayout == PTOSIM_SL_NONE_BOX || vector) {
    bool col = t->blayout == PTOSIM_BL_COL_MAJOR && !vector;
    g->in_col = col;
    g->ir = col ? t->rows : 1;
    g->ic = col ? 1 : t->cols;
    g->sr = col ? 0 : t->cols;
    g->sc = col ? t->rows : 0;
    g->rows = t->rows;
    g->cols = t->cols;
    return PTOSIM_OK;
  }
  int64_t line = 16 * (int64_t)es; /* bytes of 16 elements: the fixed box side */
  PT_VERIFY(x, t->fractal >= line && t->fractal % line == 0, rule,
            "fractal is the box size in bytes: 512 (mat / left / right), 1024 (acc), 32 (MX scales)",
            "%s tile: fractal %d is not a multiple of 16 %s elements", what, t->fractal, pt_dtype_name(t->dtype));
  g->boxed = true;
  g->in_col = t->slayout == PTOSIM_SL_COL_MAJOR;
  g->ir = g->in_col ? t->fractal / line : 16;
  g->ic = g->in_col ? 16 : t->fractal / line;
  bool compact = t->compact == 1;
  g->rows = align64(compact ? t->valid_rows : t->rows, g->ir);
  g->cols = align64(compact ? t->valid_cols : t->cols, g->ic);
  if (t->blayout == PTOSIM_BL_COL_MAJOR) {
    if (t->compact == 2) g->rows = t->rows; /* row_plus_one: column blocks of exactly rows rows */
    g->sr = g->ir * g->ic;
    g->sc = g->rows * g->ic;
  } else {
    g->sc = g->ir * g->ic;
    g->sr = g->cols * g->ir;
  }
  return PTOSIM_OK;
}

ptosim_status pt_tile_map(pt_ctx *x, ptosim_core *c, const tg_geom *g, int64_t r0, int64_t c0, int64_t h, int64_t w,
                          pt_access acc, uint8_t **base) {
  uint8_t *host;
  PT_TRY(pt_span_on(x, c, g->space, g->addr, 0, x->m->prof->align[g->space], acc, &host));
  int64_t first, count[2] = {1, 1}, stride[2] = {0, 0}, len;
  if (g->boxed) {
    int64_t br = r0 / g->ir, bc = c0 / g->ic;
    first = br * g->sr + bc * g->sc;
    count[0] = (r0 + h - 1) / g->ir - br + 1, stride[0] = g->sr * g->es;
    count[1] = (c0 + w - 1) / g->ic - bc + 1, stride[1] = g->sc * g->es;
    len = g->ir * g->ic;
  } else if (g->in_col) { /* DN: columns */
    first = tg_off(g, r0, c0), count[0] = w, stride[0] = g->sc * g->es, len = h;
  } else { /* ND: rows */
    first = tg_off(g, r0, c0), count[0] = h, stride[0] = g->sr * g->es, len = w;
  }
  PT_TRY(pt_region_on(x, c, g->space, g->addr + (uint64_t)first * g->es, 2, count, stride, (uint64_t)len * g->es, 1,
                      acc, &host));
  *base = host - first * g->es;
  return PTOSIM_OK;
}

/* Elements contiguous in storage from (r, c) on: along the row inside a row-major box (the
 * whole rest of the row for ND), along the column inside a column-major one. */
static int64_t run_len(const tg_geom *g, int64_t r, int64_t c) {
  return g->in_col ? g->ir - r % g->ir : g->ic - c % g->ic;
}

void pt_tile_copy(const tg_geom *d, uint8_t *dbase, int64_t dr, int64_t dc, const tg_geom *s, const uint8_t *sbase,
                  int64_t sr, int64_t sc, int64_t h, int64_t w) {
  unsigned es = d->es;
  bool by_col = d->in_col && s->in_col;
  int64_t outer = by_col ? w : h, inner = by_col ? h : w;
  for (int64_t o = 0; o < outer; o++)
    for (int64_t i = 0, n; i < inner; i += n) {
      int64_t r = by_col ? i : o, c = by_col ? o : i;
      n = d->in_col == s->in_col ? min64(inner - i, min64(run_len(d, dr + r, dc + c), run_len(s, sr + r, sc + c))) : 1;
      memcpy(dbase + tg_off(d, dr + r, dc + c) * es, sbase + tg_off(s, sr + r, sc + c) * es, (size_t)n * es);
    }
}
