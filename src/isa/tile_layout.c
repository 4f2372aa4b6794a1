/* Tile layout and rearrangement family (src/isa/ops.def "TILE_LAYOUT" rows).
 *
 * Tiles are ptosim_tile (include/ptosim/tile.h). Addresses used here:
 *   ND (row_major, none_box):  element (r, c) at addr + (r * cols + c) * es
 *   NZ (col_major, row_major boxes of 512 B, L1 / L0A on A5): 32-byte rows of 16-row
 *      fractals, column blocks of C0 = 32 / es elements:
 *      addr + (c / C0) * rows * 32 + r * 32 + (c % C0) * es
 * Every access goes through one pt_region per strided rectangle; the loops then run on
 * the host pointer the accessor returned. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "isa/isa.h"

/* ---- tiles -------------------------------------------------------------------------- */

static unsigned esize(const ptosim_tile *t) { return pt_dtype_size(t->dtype); }

static int is_nd(const ptosim_tile *t) { return t->blayout == PTOSIM_BL_ROW_MAJOR && t->slayout == PTOSIM_SL_NONE_BOX; }

/* Shape rules every tile obeys (pto-isa include/pto/common/pto_tile.hpp, struct Tile):
 * a byte-sized element type, 0 < valid <= shape, and for none_box tiles a 32-byte aligned
 * major dimension (row_major: cols * es, col_major: rows * es). */
static ptosim_status tile_check(pt_ctx *x, const char *what, const ptosim_tile *t) {
  PT_VERIFY(x, t->dtype > PTOSIM_DT_NONE && t->dtype < PTOSIM_DT_COUNT && esize(t), "tile.dtype",
            "give the tile a byte-sized element type", "%s tile has element type %s", what, pt_dtype_name(t->dtype));
  PT_VERIFY(x, t->rows > 0 && t->cols > 0, "tile.shape", "tile rows and cols are positive", "%s tile shape %d x %d",
            what, t->rows, t->cols);
  PT_VERIFY(x, t->valid_rows > 0 && t->valid_rows <= t->rows && t->valid_cols > 0 && t->valid_cols <= t->cols,
            "tile.valid", "keep 0 < valid <= shape in both dimensions", "%s tile valid %d x %d outside shape %d x %d",
            what, t->valid_rows, t->valid_cols, t->rows, t->cols);
  if (t->slayout != PTOSIM_SL_NONE_BOX) return PTOSIM_OK;
  int64_t major = (t->blayout == PTOSIM_BL_ROW_MAJOR ? t->cols : t->rows) * (int64_t)esize(t);
  PT_VERIFY(x, major % PT_C0 == 0, "tile.align", "pad the major dimension to a multiple of 32 bytes",
            "%s tile %s dimension is %" PRId64 " bytes, not a multiple of 32", what,
            t->blayout == PTOSIM_BL_ROW_MAJOR ? "row" : "column", major);
  return PTOSIM_OK;
}

static ptosim_status tile_space(pt_ctx *x, const char *rule, const char *what, const ptosim_tile *t,
                                ptosim_space want) {
  PT_VERIFY(x, t->space == want, rule, "place the tile in the memory the op works on", "%s tile is in %s, not %s",
            what, pt_space_name(t->space), pt_space_name(want));
  return PTOSIM_OK;
}

/* The rectangle of `n` rows of `len` bytes, `stride` bytes apart, from byte `off` of tile t. */
static ptosim_status rows_of(pt_ctx *x, const ptosim_tile *t, uint64_t off, int64_t n, int64_t stride, int64_t len,
                             pt_access acc, uint8_t **out) {
  return pt_region(x, t->space, t->addr + off, 1, &n, &stride, (uint64_t)len, x->m->prof->align[t->space], acc, out);
}

/* ---- TTRANS --------------------------------------------------------------------------- */

/* Element types of one width that the transpose moves (ttrans.md "Implementation checks":
 * 4 bytes u32 i32 f32, 2 bytes u16 i16 f16 bf16, 1 byte u8 i8). */
static int trans_dtype(ptosim_dtype t) {
  switch (t) {
  case PTOSIM_DT_U8: case PTOSIM_DT_I8: case PTOSIM_DT_U16: case PTOSIM_DT_I16: case PTOSIM_DT_F16:
  case PTOSIM_DT_BF16: case PTOSIM_DT_U32: case PTOSIM_DT_I32: case PTOSIM_DT_F32:
    return 1;
  default:
    return 0;
  }
}

/* A2/A3 stages the transpose in tmp when the strides allow its vector path (ttrans.md
 * "Temporary tile": dst stride a multiple of RowStride, src stride a multiple of the
 * 32-byte block and at most 255 blocks); tmp must then hold
 * W * ceil(H / RowStride) * RowStride elements, W = src valid cols, H = src valid rows. */
static ptosim_status trans_tmp(pt_ctx *x, const ptosim_ttrans_params *p, unsigned es) {
  int64_t row_stride = es == 1 ? 32 : 16, blk = PT_C0 / es;
  if (x->m->target != PTOSIM_TARGET_A2A3 || p->dst.cols % row_stride || p->src.cols / blk > 255) return PTOSIM_OK;
  int64_t need = (int64_t)p->src.valid_cols * (int64_t)pt_align_up((uint64_t)p->src.valid_rows, (uint64_t)row_stride);
  int64_t have = (int64_t)p->tmp.rows * p->tmp.cols;
  PT_VERIFY(x, have >= need, "ttrans.tmp_size", "enlarge the tmp tile",
            "tmp tile holds %" PRId64 " elements, the A2/A3 staged transpose needs %" PRId64, have, need);
  return PTOSIM_OK;
}

ptosim_status pt_exec_ttrans(pt_ctx *x, const ptosim_ttrans_params *p) {
  const ptosim_tile *s = &p->src, *d = &p->dst;
  PT_TRY(tile_check(x, "src", s));
  PT_TRY(tile_check(x, "tmp", &p->tmp));
  PT_TRY(tile_check(x, "dst", d));
  PT_TRY(tile_space(x, "ttrans.space", "src", s, PTOSIM_UB));
  PT_TRY(tile_space(x, "ttrans.space", "tmp", &p->tmp, PTOSIM_UB));
  PT_TRY(tile_space(x, "ttrans.space", "dst", d, PTOSIM_UB));
  unsigned es = esize(s);
  PT_VERIFY(x, trans_dtype(s->dtype) && esize(d) == es && esize(&p->tmp) == es, "ttrans.dtype",
            "use u8/i8, u16/i16/f16/bf16 or u32/i32/f32 tiles of one element width",
            "element types src %s, tmp %s, dst %s", pt_dtype_name(s->dtype), pt_dtype_name(p->tmp.dtype),
            pt_dtype_name(d->dtype));
  /* Both targets' implementations address src and dst as row-major arrays (their RowStride). */
  PT_VERIFY(x, is_nd(s) && is_nd(d), "ttrans.layout", "use row_major none_box src and dst tiles",
            "src or dst tile is not row_major none_box");
  /* The transposed domain is the source valid region (both NPU implementations take
   * GetValidRow/GetValidCol of src; ttrans.md's "A5 ... does not consult GetValidRow" is
   * contradicted by include/pto/npu/a5/TTrans.hpp). */
  int64_t h = s->valid_rows, w = s->valid_cols;
  PT_VERIFY(x, d->rows >= w && d->cols >= h, "ttrans.shape", "make dst at least valid_cols x valid_rows of src",
            "dst tile %d x %d cannot hold the %" PRId64 " x %" PRId64 " transpose", d->rows, d->cols, w, h);
  PT_TRY(trans_tmp(x, p, es));
  uint8_t *sp, *dp;
  PT_TRY(rows_of(x, s, 0, h, (int64_t)s->cols * es, w * es, PT_READ, &sp));
  PT_TRY(rows_of(x, d, 0, w, (int64_t)d->cols * es, h * es, PT_WRITE, &dp));
  /* Stage the source when the rectangles share bytes (an in-place transpose). */
  uint64_t s_end = s->addr + (uint64_t)((h - 1) * s->cols + w) * es, d_end = d->addr + (uint64_t)((w - 1) * d->cols + h) * es;
  uint8_t *copy = NULL;
  if (s->addr < d_end && d->addr < s_end) {
    copy = malloc(s_end - s->addr);
    if (!copy) return pt_fail(x, PTOSIM_E_NOMEM, "sim.nomem", NULL, "out of host memory");
    memcpy(copy, sp, s_end - s->addr);
    sp = copy;
  }
  for (int64_t i = 0; i < h; i++)
    for (int64_t j = 0; j < w; j++) memcpy(dp + (j * d->cols + i) * es, sp + (i * s->cols + j) * es, es);
  free(copy);
  return PTOSIM_OK;
}
