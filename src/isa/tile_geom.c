/* Storage geometry of a tile for the tile matrix ops (tile_geom.h). */
#include <string.h>

#include "isa/tile_geom.h"

ptosim_status pt_tile_geom(pt_ctx *x, const char *what, const ptosim_tile *t, tg_geom *g) {
  pt_tile_info i;
  PT_TRY(pt_tile_check(x, PT_TILE_MATRIX, what, t, &i));
  memset(g, 0, sizeof *g);
  g->space = t->space;
  g->addr = t->addr;
  g->dt = t->dtype;
  g->es = i.es;
  g->in_col = i.in_col;
  if (!i.boxed) { /* ND, DN or the GEMV vector: one box of the whole tile */
    g->ir = i.in_col ? t->rows : 1;
    g->ic = i.in_col ? 1 : t->cols;
    g->sr = i.in_col ? 0 : t->cols;
    g->sc = i.in_col ? t->rows : 0;
    g->rows = t->rows;
    g->cols = t->cols;
    return PTOSIM_OK;
  }
  g->boxed = true;
  g->ir = i.ir;
  g->ic = i.ic;
  bool compact = t->compact == 1;
  g->rows = tg_align(compact ? t->valid_rows : t->rows, g->ir);
  g->cols = tg_align(compact ? t->valid_cols : t->cols, g->ic);
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
  PT_TRY(pt_tile_at(x, c, g->space, g->addr, 0, acc, &host));
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

void pt_tile_copy(const tg_geom *d, uint8_t *dbase, int64_t dr, int64_t dc, const tg_geom *s, const uint8_t *sbase,
                  int64_t sr, int64_t sc, int64_t h, int64_t w) {
  unsigned es = d->es;
  bool by_col = d->in_col && s->in_col;
  int64_t outer = by_col ? w : h, inner = by_col ? h : w;
  for (int64_t o = 0; o < outer; o++)
    for (int64_t i = 0, n; i < inner; i += n) {
      int64_t r = by_col ? i : o, c = by_col ? o : i;
      n = d->in_col == s->in_col ? tg_min(inner - i, tg_min(tg_run(d, dr + r, dc + c), tg_run(s, sr + r, sc + c))) : 1;
      memcpy(dbase + tg_off(d, dr + r, dc + c) * es, sbase + tg_off(s, sr + r, sc + c) * es, (size_t)n * es);
    }
}
