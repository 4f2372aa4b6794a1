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
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "isa/mx_layout.h"
#include "isa/tile_check.h"

/* ---- tiles -------------------------------------------------------------------------- */

static unsigned esize(const ptosim_tile *t) { return pt_dtype_size(t->dtype); }

static bool is_nd(const ptosim_tile *t) { return pt_tile_kind_of(t) == PT_TK_ND; }

/* Check the operands (pto-isa include/pto/common/pto_tile.hpp, struct Tile; tile_check.h),
 * then that each is in its space (rule: the op's "<op>.space"; ANY: the op checks it). */
#define ANY PTOSIM_SPACE_COUNT
typedef struct operand {
  const char *what;
  const ptosim_tile *t;
  ptosim_space sp;
} operand;

static ptosim_status operands(pt_ctx *x, const char *rule, int n, const operand *o) {
  for (int i = 0; i < n; i++) PT_TRY(pt_tile_check(x, PT_TILE_LAYOUT, o[i].what, o[i].t, NULL));
  for (int i = 0; i < n; i++)
    if (o[i].sp != ANY) PT_TRY(pt_tile_in(x, rule, NULL, o[i].what, o[i].t, o[i].sp));
  return PTOSIM_OK;
}

/* *out = host byte of the tile's address, which must have the alignment of its space. */
static ptosim_status tile_base(pt_ctx *x, const ptosim_tile *t, pt_access acc, uint8_t **out) {
  return pt_tile_at(x, x->core, t->space, t->addr, 0, acc, out);
}

/* The rectangle of `n` rows of `len` bytes, `stride` bytes apart, from byte `off` of tile t. */
static ptosim_status rows_of(pt_ctx *x, const ptosim_tile *t, uint64_t off, int64_t n, int64_t stride, int64_t len,
                             pt_access acc, uint8_t **out) {
  PT_TRY(tile_base(x, t, acc, out));
  return pt_region(x, t->space, t->addr + off, 1, &n, &stride, (uint64_t)len, 1, acc, out);
}

/* When the source bytes [src.addr, + slen) overlap the destination bytes [dst.addr, + dlen),
 * copy the source to the heap first so the result is that of reading everything before
 * writing (*sp then points at the copy, *copy owns it; free(*copy) after use). */
static ptosim_status stage(pt_ctx *x, const ptosim_tile *src, uint64_t slen, const ptosim_tile *dst, uint64_t dlen,
                           uint8_t **sp, uint8_t **copy) {
  *copy = NULL;
  if (src->space != dst->space || src->addr >= dst->addr + dlen || dst->addr >= src->addr + slen) return PTOSIM_OK;
  *copy = malloc(slen);
  if (!*copy)
    return pt_fail(x, PTOSIM_E_NOMEM, "sim.nomem", NULL, "out of host memory staging a %" PRIu64 "-byte source", slen);
  memcpy(*copy, *sp, slen);
  *sp = *copy;
  return PTOSIM_OK;
}

/* ---- TTRANS --------------------------------------------------------------------------- */

/* Element types ttrans and tconcat move (ttrans.md "Implementation checks": 4 bytes u32 i32
 * f32, 2 bytes u16 i16 f16 bf16, 1 byte u8 i8; tconcat.md "Data Type Constraints": the same). */
static int moved_dtype(ptosim_dtype t) {
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
  if (p->no_tmp || x->m->target != PTOSIM_TARGET_A2A3 || p->dst.cols % row_stride || p->src.cols / blk > 255)
    return PTOSIM_OK;
  int64_t need = (int64_t)p->src.valid_cols * (int64_t)pt_align_up((uint64_t)p->src.valid_rows, (uint64_t)row_stride);
  int64_t have = (int64_t)p->tmp.rows * p->tmp.cols;
  PT_VERIFY(x, have >= need, "ttrans.tmp_size", "enlarge the tmp tile",
            "tmp tile holds %" PRId64 " elements, the A2/A3 staged transpose needs %" PRId64, have, need);
  return PTOSIM_OK;
}

ptosim_status pt_exec_ttrans(pt_ctx *x, const ptosim_ttrans_params *p) {
  const ptosim_tile *s = &p->src, *d = &p->dst;
  /* without tmp (PTOAS materializes it) the checks see dst in its place */
  const ptosim_tile *t = p->no_tmp ? d : &p->tmp;
  const operand o[] = {{"src", s, PTOSIM_UB}, {"dst", d, PTOSIM_UB}, {"tmp", t, PTOSIM_UB}};
  PT_TRY(operands(x, "ttrans.space", p->no_tmp ? 2 : 3, o));
  unsigned es = esize(s);
  PT_VERIFY(x, moved_dtype(s->dtype) && moved_dtype(d->dtype) && esize(d) == es && esize(t) == es, "ttrans.dtype",
            "use u8/i8, u16/i16/f16/bf16 or u32/i32/f32 tiles of one element width",
            "element types src %s, tmp %s, dst %s", pt_dtype_name(s->dtype), pt_dtype_name(t->dtype),
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
  uint8_t *copy = NULL;
  PT_TRY(stage(x, s, (uint64_t)((h - 1) * s->cols + w) * es, d, (uint64_t)((w - 1) * d->cols + h) * es, &sp, &copy));
  for (int64_t i = 0; i < h; i++)
    for (int64_t j = 0; j < w; j++) memcpy(dp + (j * d->cols + i) * es, sp + (i * s->cols + j) * es, es);
  free(copy);
  return PTOSIM_OK;
}

/* ---- TFILLPAD ------------------------------------------------------------------------- */

/* Elements [c0, c0 + len) of rows [r0, r0 + n) of ND tile t get the pad value. */
static ptosim_status pad_rows(pt_ctx *x, const ptosim_tile *t, int64_t r0, int64_t c0, int64_t n, int64_t len) {
  if (n <= 0 || len <= 0) return PTOSIM_OK;
  unsigned es = esize(t);
  uint8_t pat[PT_C0], *p;
  pt_tile_pad_pattern(t->dtype, t->pad, pat);
  PT_TRY(rows_of(x, t, (uint64_t)(r0 * t->cols + c0) * es, n, (int64_t)t->cols * es, len * es, PT_WRITE, &p));
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < len; j++) memcpy(p + (i * t->cols + j) * es, pat, es);
  return PTOSIM_OK;
}

/* Elements [0, n) of rows [0, rows) of ND tile s to columns [col, col + n) of the same
 * rows of ND tile d, as if all were read before any is written. */
static ptosim_status copy_rows(pt_ctx *x, const ptosim_tile *s, const ptosim_tile *d, int64_t rows, int64_t col,
                               int64_t n) {
  if (rows <= 0 || n <= 0) return PTOSIM_OK;
  int64_t es = esize(s), ss = s->cols * es, ds = d->cols * es;
  uint8_t *sp, *dp, *copy;
  PT_TRY(rows_of(x, s, 0, rows, ss, n * es, PT_READ, &sp));
  PT_TRY(rows_of(x, d, (uint64_t)(col * es), rows, ds, n * es, PT_WRITE, &dp));
  uint64_t s_len = (uint64_t)((rows - 1) * ss + n * es), d_len = (uint64_t)((rows - 1) * ds + (col + n) * es);
  PT_TRY(stage(x, s, s_len, d, d_len, &sp, &copy));
  for (int64_t i = 0; i < rows; i++) memmove(dp + i * ds, sp + i * ss, (size_t)(n * es));
  free(copy);
  return PTOSIM_OK;
}

/* Vec tiles (pto-isa include/pto/npu/a5/TFillPad.hpp TFillPad, a2a3 likewise): rows below
 * the source valid rows get the valid columns copied (unless in place) and the pad value up
 * to dst.cols; rows from src.valid_rows to dst.valid_rows are pad value in full; rows from
 * dst.valid_rows on are not written. A2/A3 copies whole source rows and pads from the next
 * 32-byte boundary after valid_cols, filling the gap with the pad value only when src and
 * dst pad values differ (a2a3 TFillPad.hpp Handle32BAlignedPad_*): with equal pad values
 * those columns keep the source's bytes. */
static ptosim_status fillpad_vec(pt_ctx *x, const ptosim_tfillpad_params *p, int copy) {
  const ptosim_tile *s = &p->src, *d = &p->dst;
  PT_TRY(pt_tile_in(x, "tfillpad.space", NULL, "src", s, PTOSIM_UB));
  PT_TRY(pt_tile_in(x, "tfillpad.space", NULL, "dst", d, PTOSIM_UB));
  PT_VERIFY(x, is_nd(s) && is_nd(d), "tfillpad.layout", "use row_major none_box vec tiles",
            "vec tfillpad addresses its tiles as row-major arrays; src or dst is not row_major none_box");
  int64_t vr = s->valid_rows, vc = s->valid_cols;
  PT_VERIFY(x, vr <= d->valid_rows, "tfillpad.valid", "give dst at least the source's valid rows",
            "src valid rows %" PRId64 " exceed dst valid rows %d", vr, d->valid_rows);
  if (x->m->target == PTOSIM_TARGET_A2A3 && s->pad == d->pad)
    vc = (int64_t)pt_align_up((uint64_t)vc, PT_C0 / esize(s));
  if (copy) PT_TRY(copy_rows(x, s, d, vr, 0, vc));
  PT_TRY(pad_rows(x, d, 0, vc, vr, d->cols - vc));
  return pad_rows(x, d, vr, 0, d->valid_rows - vr, d->cols);
}

/* Mat tiles (pto-isa TFillPad.hpp TFILLPAD_IMPL for TileType::Mat, create_cbuf_matrix on
 * MTE2): one NZ tile, pad value zero (tfillpad.md). In each 32-byte column block that holds
 * valid columns, rows valid_rows .. rows become zero (compact mode 3, pto-isa
 * CompactMode::RowAlignedPadding: only up to valid_rows rounded up to 16); every later
 * column block becomes zero in full (not in compact mode 3). The columns after valid_cols
 * inside the last valid block keep their bytes (the fill works in whole 32-byte rows). */
static ptosim_status fillpad_mat(pt_ctx *x, const ptosim_tfillpad_params *p) {
  const ptosim_tile *s = &p->src, *d = &p->dst;
  int same = s->space == d->space && s->dtype == d->dtype && s->rows == d->rows && s->cols == d->cols &&
             s->valid_rows == d->valid_rows && s->valid_cols == d->valid_cols && s->blayout == d->blayout &&
             s->slayout == d->slayout && s->fractal == d->fractal && s->pad == d->pad && s->compact == d->compact;
  PT_VERIFY(x, same, "tfillpad.mat_same", "pass the same tile type as src and dst",
            "mat tfillpad takes one tile type for src and dst (pto-isa has only the homogeneous overload)");
  PT_VERIFY(x, d->blayout == PTOSIM_BL_COL_MAJOR && d->slayout == PTOSIM_SL_ROW_MAJOR && d->fractal == PT_FRAC_BYTES,
            "tfillpad.layout", "use an NZ mat tile (blayout col_major, slayout row_major, fractal 512)",
            "mat tfillpad supports only the NZ layout");
  /* pto-isa a5 / a2a3 TFillPad.hpp TFILLPAD_IMPL (mat): PadVal Zero or Null, both fill zero. */
  PT_VERIFY(x, d->pad == PTOSIM_PAD_ZERO || d->pad == PTOSIM_PAD_NULL, "tfillpad.pad", "use pad zero (or null) for mat tiles",
            "mat tfillpad fills with zero only; dst pad is %d", (int)d->pad);
  pt_set_pipe(x, PTOSIM_PIPE_MTE2);
  int64_t es = esize(d), cw = PT_C0 / es, rows = d->rows, vr = d->valid_rows;
  int64_t nb = (int64_t)pt_ceil_div((uint64_t)d->valid_cols, (uint64_t)cw);
  int64_t hi = d->compact == 3 ? (int64_t)pt_align_up((uint64_t)vr, PT_FRAC_ROWS) : rows;
  uint8_t *q;
  if (hi > vr) {
    PT_TRY(rows_of(x, d, (uint64_t)vr * PT_C0, nb, rows * PT_C0, (hi - vr) * PT_C0, PT_WRITE, &q));
    for (int64_t b = 0; b < nb; b++) memset(q + b * rows * PT_C0, 0, (size_t)(hi - vr) * PT_C0);
  }
  int64_t rest = (d->cols - nb * cw) * rows * es;
  if (d->compact == 3 || rest <= 0) return PTOSIM_OK;
  PT_TRY(rows_of(x, d, (uint64_t)(nb * rows * PT_C0), 1, 0, rest, PT_WRITE, &q));
  memset(q, 0, (size_t)rest);
  return PTOSIM_OK;
}

/* Checks shared by the three forms (tfillpad.md "Constraints", PTOAS verifyTFillPadLike):
 * dst pad value not null (mat tiles: see fillpad_mat), element widths equal and 1, 2 or 4 bytes; same shape, or
 * (expand) dst at least as large. */
static ptosim_status fillpad(pt_ctx *x, const ptosim_tfillpad_params *p, int copy, int expand) {
  const ptosim_tile *s = &p->src, *d = &p->dst;
  const operand o[] = {{"src", s, ANY}, {"dst", d, ANY}};
  PT_TRY(operands(x, NULL, 2, o));
  int mat = d->space == PTOSIM_L1 && copy && !expand;
  PT_VERIFY(x, mat || d->pad != PTOSIM_PAD_NULL, "tfillpad.pad", "give dst a pad value (zero, max or min)",
            "dst pad value is null");
  unsigned es = esize(s);
  PT_VERIFY(x, esize(d) == es && (es == 1 || es == 2 || es == 4), "tfillpad.dtype",
            "use element types of one width, 1, 2 or 4 bytes", "src %s and dst %s", pt_dtype_name(s->dtype),
            pt_dtype_name(d->dtype));
  int fits = expand ? d->rows >= s->rows && d->cols >= s->cols : d->rows == s->rows && d->cols == s->cols;
  PT_VERIFY(x, fits, "tfillpad.shape",
            expand ? "make dst at least as large as src" : "give src and dst the same shape (or use tfillpad_expand)",
            "src %d x %d, dst %d x %d", s->rows, s->cols, d->rows, d->cols);
  bool src_empty = !s->valid_rows || !s->valid_cols, dst_empty = !d->valid_rows || !d->valid_cols;
  if (src_empty || dst_empty) { /* tile_check.c lets every empty region through to here */
    PT_VERIFY(x, !mat, "tfillpad.empty", "give the mat tile a valid region of at least one element",
              "mat tile valid %d x %d is empty: TFillPad_cube would issue create_cbuf_matrix with a repeat count "
              "of 0", d->valid_rows, d->valid_cols);
    if (x->m->target == PTOSIM_TARGET_A2A3) { /* a2a3 TFillPad.hpp:288/316/389 return on an empty dst */
      PT_VERIFY(x, dst_empty, "tfillpad.empty", "give src a valid region of at least one element on a2a3 (a5 pads)",
                "src valid %d x %d is empty under dst valid %d x %d: a2a3 TFillPad issues vcopy with a repeat "
                "count of 0 in count mode and pads row 0", s->valid_rows, s->valid_cols, d->valid_rows, d->valid_cols);
      uint8_t *h;
      return pt_tile_at(x, x->core, d->space, d->addr, 0, PT_WRITE, &h);
    }
  }
  if (mat) return fillpad_mat(x, p);
  return fillpad_vec(x, p, copy);
}

ptosim_status pt_exec_tfillpad(pt_ctx *x, const ptosim_tfillpad_params *p) { return fillpad(x, p, 1, 0); }
ptosim_status pt_exec_tfillpad_inplace(pt_ctx *x, const ptosim_tfillpad_params *p) { return fillpad(x, p, 0, 0); }
ptosim_status pt_exec_tfillpad_expand(pt_ctx *x, const ptosim_tfillpad_params *p) { return fillpad(x, p, 1, 1); }

/* ---- TRESHAPE ------------------------------------------------------------------------- */

/* treshape.md "Constraints" (pto-isa TRESHAPE_IMPL, PTOAS TReshapeOp::verify): same tile
 * location, same total bytes, no change between boxed and none_box layouts. The result
 * aliases the source storage (TASSIGN of src.data()). */
ptosim_status pt_exec_treshape(pt_ctx *x, const ptosim_treshape_params *p) {
  const ptosim_tile *s = &p->src;
  ptosim_tile *r = p->result;
  if (!r) return pt_fail(x, PTOSIM_E_USAGE, "api.args", "pass the result tile", "treshape result pointer is null");
  const operand o[] = {{"src", s, ANY}, {"result", r, ANY}};
  PT_TRY(operands(x, NULL, 2, o));
  PT_VERIFY(x, r->space == s->space, "treshape.loc", "reshape within one memory",
            "src tile is in %s, result in %s", pt_space_name(s->space), pt_space_name(r->space));
  int64_t sb = (int64_t)s->rows * s->cols * esize(s), rb = (int64_t)r->rows * r->cols * esize(r);
  PT_VERIFY(x, sb == rb, "treshape.bytes", "keep rows * cols * element size unchanged",
            "src tile has %" PRId64 " bytes, result %" PRId64, sb, rb);
  PT_VERIFY(x, (s->slayout == PTOSIM_SL_NONE_BOX) == (r->slayout == PTOSIM_SL_NONE_BOX), "treshape.box",
            "reshape boxed tiles to boxed tiles and none_box to none_box",
            "cannot reshape between boxed and none_box layouts");
  r->addr = s->addr;
  return PTOSIM_OK;
}

/* ---- TCONCAT -------------------------------------------------------------------------- */

/* tconcat.md "Constraints": vec row-major tiles, one element type among i8 u8 i16 u16 i32
 * u32 f16 bf16 f32, valid rows equal, dst valid cols = the sum of the sources'. A5
 * (include/pto/npu/a5/TConcat.hpp) writes exactly the valid columns. A2/A3
 * (include/pto/npu/a2a3/TConcat.hpp) moves src0 rows in whole 32-byte blocks, and src1 rows
 * too when src0.valid_cols is a multiple of 32 bytes, so the bytes after each copied run up
 * to the next 32-byte boundary get the source row's padding bytes. */
ptosim_status pt_exec_tconcat(pt_ctx *x, const ptosim_tconcat_params *p) {
  const ptosim_tile *s0 = &p->src0, *s1 = &p->src1, *d = &p->dst;
  const operand o[] = {{"src0", s0, PTOSIM_UB}, {"src1", s1, PTOSIM_UB}, {"dst", d, PTOSIM_UB}};
  PT_TRY(operands(x, "tconcat.space", 3, o));
  PT_VERIFY(x, is_nd(s0) && is_nd(s1) && is_nd(d), "tconcat.layout", "use row_major none_box tiles",
            "a tconcat tile is not row_major none_box");
  PT_VERIFY(x, s0->dtype == d->dtype && s1->dtype == d->dtype && moved_dtype(d->dtype),
            "tconcat.dtype", "use one of i8 u8 i16 u16 i32 u32 f16 bf16 f32 for all three tiles",
            "element types src0 %s, src1 %s, dst %s", pt_dtype_name(s0->dtype), pt_dtype_name(s1->dtype),
            pt_dtype_name(d->dtype));
  int64_t vr = d->valid_rows, c0 = s0->valid_cols, c1 = s1->valid_cols;
  PT_VERIFY(x, s0->valid_rows == vr && s1->valid_rows == vr && c0 + c1 == d->valid_cols, "tconcat.valid",
            "give src0, src1 and dst the same valid rows and dst valid cols = src0 + src1 valid cols",
            "valid regions src0 %d x %d, src1 %d x %d, dst %d x %d", s0->valid_rows, s0->valid_cols, s1->valid_rows,
            s1->valid_cols, d->valid_rows, d->valid_cols);
  int64_t blk = PT_C0 / esize(d), n0 = c0, n1 = c1;
  if (x->m->target == PTOSIM_TARGET_A2A3) {
    n0 = (int64_t)pt_align_up((uint64_t)c0, (uint64_t)blk);
    if (c0 % blk == 0) n1 = (int64_t)pt_align_up((uint64_t)c1, (uint64_t)blk);
  }
  PT_TRY(copy_rows(x, s0, d, vr, 0, n0));
  return copy_rows(x, s1, d, vr, c0, n1);
}

/* ---- TPACK ---------------------------------------------------------------------------- */

/* pto-isa include/pto/npu/a5/TPack.hpp (removed by pto-isa commit 83f16ef4; read at its
 * parent): per valid row, vlds of the source lanes, then vsts with PK_B32 / PK4_B32 / PK_B16,
 * which store the low 2 / 1 / 1 bytes of each lane, under a predicate of valid_cols source
 * lanes. So dst(r, c) = the low esize(dst) bytes of src(r, c) (bits truncated, no value
 * conversion), r < valid_rows, c < valid_cols; nothing else is written. */
ptosim_status pt_exec_tpack(pt_ctx *x, const ptosim_tfillpad_params *p) {
  const ptosim_tile *s = &p->src, *d = &p->dst;
  PT_VERIFY(x, x->m->target == PTOSIM_TARGET_A5, "tpack.target", "run it on the a5 target",
            "tpack exists on A5 only (PTOAS TPackOp::verify), not on %s", x->m->prof->name);
  const operand o[] = {{"src", s, PTOSIM_UB}, {"dst", d, PTOSIM_UB}};
  PT_TRY(operands(x, "tpack.space", 2, o));
  PT_VERIFY(x, is_nd(s) && is_nd(d), "tpack.layout", "use row_major none_box src and dst tiles",
            "src or dst tile is not row_major none_box");
  unsigned ses = esize(s), des = esize(d);
  PT_VERIFY(x, (ses == 4 && (des == 2 || des == 1)) || (ses == 2 && des == 1), "tpack.dtype",
            "pack 4-byte elements to 2 or 1 bytes, or 2-byte elements to 1 byte",
            "element types src %s, dst %s", pt_dtype_name(s->dtype), pt_dtype_name(d->dtype));
  int64_t vr = s->valid_rows, vc = s->valid_cols;
  PT_VERIFY(x, d->valid_rows == vr && d->valid_cols == vc, "tpack.valid", "give src and dst the same valid shape",
            "valid regions src %d x %d, dst %d x %d", s->valid_rows, s->valid_cols, d->valid_rows, d->valid_cols);
  int64_t ss = (int64_t)s->cols * ses, ds = (int64_t)d->cols * des;
  uint8_t *sp, *dp, *copy;
  PT_TRY(rows_of(x, s, 0, vr, ss, vc * ses, PT_READ, &sp));
  PT_TRY(rows_of(x, d, 0, vr, ds, vc * des, PT_WRITE, &dp));
  PT_TRY(stage(x, s, (uint64_t)((vr - 1) * ss + vc * ses), d, (uint64_t)((vr - 1) * ds + vc * des), &sp, &copy));
  for (int64_t i = 0; i < vr; i++)
    for (int64_t j = 0; j < vc; j++) memcpy(dp + i * ds + j * des, sp + i * ss + j * ses, des); /* little-endian low bytes */
  free(copy);
  return PTOSIM_OK;
}

/* ---- TGET_SCALE_ADDR ------------------------------------------------------------------ */

/* pto-isa docs/isa/TGET_SCALE_ADDR.md, include/pto/npu/a5/TGetScaleAddr.hpp and utils.hpp
 * (GetScaleAddr: addr >> SHIFT_MX_ADDR, SHIFT_MX_ADDR = 4): the scaling tile dst is placed
 * at byte src.addr >> 4 of the MX scale buffer of src's space (L0A -> L0A_MX, L0B ->
 * L0B_MX), where the cube looks for the scales of src (tile_matrix.c). No data moves. Spaces
 * and shapes as PTOAS TGetScaleAddrOp::verify (tonibohnlein PTO.cpp): a left M x K src gives
 * a [M, ceil(vK/32)] dst (valid [vM, ceil(vK/32)]), a right K x N src a [ceil(vK/32), N] dst
 * (valid [ceil(vK/32), vN]). */
ptosim_status pt_exec_tget_scale_addr(pt_ctx *x, const ptosim_tget_scale_addr_params *p) {
  const ptosim_tile *s = &p->src;
  ptosim_tile *d = p->dst;
  if (!d) return pt_fail(x, PTOSIM_E_USAGE, "api.args", "pass the scaling tile", "tget_scale_addr dst pointer is null");
  PT_VERIFY(x, x->m->prof->has_mx, "tget_scale_addr.target", "run it on the a5 target",
            "MX scale buffers exist on A5 only, not on %s", x->m->prof->name);
  PT_TRY(pt_tile_check(x, PT_TILE_MATRIX, "src", s, NULL));
  PT_TRY(pt_tile_check(x, PT_TILE_MATRIX, "dst", d, NULL));
  bool left = s->space == PTOSIM_L0A;
  ptosim_space mx = left ? PTOSIM_L0A_MX : PTOSIM_L0B_MX;
  PT_VERIFY(x, left || s->space == PTOSIM_L0B, "tget_scale_addr.space", "take the address of a left or right tile",
            "src tile is in %s, not L0A or L0B", pt_space_name(s->space));
  PT_VERIFY(x, d->space == PTOSIM_FB || d->space == mx, "tget_scale_addr.space",
            "bind a scaling tile (loc=scaling)", "dst tile is in %s, not a scaling tile for %s",
            pt_space_name(d->space), pt_space_name(s->space));
  int32_t k = left ? s->valid_cols : s->valid_rows, kb = (k + 31) / 32;
  int32_t rows = left ? s->rows : kb, cols = left ? kb : s->cols;
  int32_t vr = left ? s->valid_rows : kb, vc = left ? kb : s->valid_cols;
  PT_VERIFY(x, d->rows == rows && d->cols == cols && d->valid_rows == vr && d->valid_cols == vc,
            "tget_scale_addr.shape", left ? "give dst shape [M, ceil(K/32)]" : "give dst shape [ceil(K/32), N]",
            "dst tile %d x %d valid %d x %d, the scales of src need %d x %d valid %d x %d", d->rows, d->cols,
            d->valid_rows, d->valid_cols, rows, cols, vr, vc);
  d->space = mx;
  d->addr = pt_mx_scale_base(s->addr);
  return PTOSIM_OK;
}

/* ---- img2col set-up ops --------------------------------------------------------------- *
 * Register images as pto-isa packs them (include/pto/npu/{a2a3,a5}/SetFmatrix.hpp,
 * SetImg2colRpt.hpp, SetImg2colPadding.hpp); field layouts in src/core/machine.h. */

static ptosim_status in_range(pt_ctx *x, const char *rule, const char *what, int64_t v, int64_t lo, int64_t hi) {
  PT_VERIFY(x, v >= lo && v <= hi, rule, "the value is encoded in a fixed-width register field",
            "%s = %" PRId64 " outside [%" PRId64 ", %" PRId64 "]", what, v, lo, hi);
  return PTOSIM_OK;
}

/* The register of a pair (A, B = A + 1) an op selects; `shared`: A2/A3 has only the A one. */
static pt_sreg reg_of(pt_ctx *x, pt_sreg a, bool b, int shared) {
  return (pt_sreg)(a + (b && !(shared && x->m->target == PTOSIM_TARGET_A2A3)));
}

ptosim_status pt_exec_setfmatrix(pt_ctx *x, const ptosim_setfmatrix_params *p) {
  const int64_t pads[4] = {p->pad_left, p->pad_right, p->pad_top, p->pad_bottom};
  PT_TRY(in_range(x, "setfmatrix.field", "fmap_h", p->fmap_h, 0, 0xFFFF));
  PT_TRY(in_range(x, "setfmatrix.field", "fmap_w", p->fmap_w, 0, 0xFFFF));
  uint64_t v = (uint64_t)p->fmap_w | (uint64_t)p->fmap_h << 16;
  for (int i = 0; i < 4; i++) {
    PT_TRY(in_range(x, "setfmatrix.field", "pad", pads[i], 0, 0xFF));
    v |= (uint64_t)pads[i] << (32 + 8 * i);
  }
  x->core->sreg[reg_of(x, PT_SREG_FMATRIX, p->fmatrix_b, 0)] = v;
  return PTOSIM_OK;
}

ptosim_status pt_exec_set_img2col_rpt(pt_ctx *x, const ptosim_img2col_rpt_params *p) {
  int64_t a5 = x->m->target == PTOSIM_TARGET_A5 ? 0xFFFF : 0; /* A2/A3 has no dst fields */
  PT_TRY(in_range(x, "set_img2col_rpt.field", "repeat_stride", p->repeat_stride, 0, 0xFFFF));
  PT_TRY(in_range(x, "set_img2col_rpt.field", "repeat_time", p->repeat_time, 0, 0xFF));
  PT_TRY(in_range(x, "set_img2col_rpt.field", "repeat_mode", p->repeat_mode, 0, 1));
  PT_TRY(in_range(x, "set_img2col_rpt.field", "dst_stride", p->dst_stride, 0, a5));
  PT_TRY(in_range(x, "set_img2col_rpt.field", "dst_m_position", p->dst_m_position, 0, a5));
  x->core->sreg[reg_of(x, PT_SREG_L3D_RPT, p->fmatrix_b, 1)] =
      (uint64_t)p->repeat_stride | (uint64_t)p->repeat_time << 16 | (uint64_t)p->repeat_mode << 24 |
      (uint64_t)p->dst_stride << 32 | (uint64_t)p->dst_m_position << 48;
  return PTOSIM_OK;
}

ptosim_status pt_exec_set_img2col_padding(pt_ctx *x, const ptosim_img2col_padding_params *p) {
  unsigned es = pt_dtype_size(p->dtype);
  PT_VERIFY(x, es == 1 || es == 2 || es == 4, "set_img2col_padding.dtype", "use a 1, 2 or 4-byte element type",
            "pad value type %s", pt_dtype_name(p->dtype));
  PT_VERIFY(x, es == 8 || p->bits >> (8 * es) == 0, "set_img2col_padding.value", "pass the bit pattern of one element",
            "pad value bits 0x%" PRIx64 " wider than %s", p->bits, pt_dtype_name(p->dtype));
  x->core->sreg[reg_of(x, PT_SREG_PADDING, p->fmatrix_b, 1)] = es == 1 ? p->bits << 8 | p->bits : p->bits;
  return PTOSIM_OK;
}

/* ---- TIMG2COL ------------------------------------------------------------------------- */

/* Element types per target (docs/isa/TIMG2COL.md "Implementation checks"). */
static int img2col_dtype(const pt_ctx *x, ptosim_dtype t) {
  switch (t) {
  case PTOSIM_DT_I8: case PTOSIM_DT_F16: case PTOSIM_DT_BF16: case PTOSIM_DT_F32:
    return 1;
  case PTOSIM_DT_U8: case PTOSIM_DT_I16: case PTOSIM_DT_U16: case PTOSIM_DT_I32: case PTOSIM_DT_U32:
    return x->m->target == PTOSIM_TARGET_A5;
  default:
    return 0;
  }
}

/* Geometry of one img2col: image from FMATRIX, window from the op. */
typedef struct img2col {
  int64_t h, w, pl, pt, ow;           /* image, left / top padding, output width */
  int64_t fh, fw, sh, sw, dh, dw, c1; /* window, strides, dilations, channel blocks */
  int64_t c0, es;
} img2col;

/* Operand field widths of the img2col instruction (pto-isa TImg2col.hpp passes them as
 * uint16 positions, 6-bit strides, 9-bit filter sizes (low byte + high flag), 8-bit
 * dilations, a uint16 channel size; the M step is the dst valid rows, uint16). */
static ptosim_status img2col_fields(pt_ctx *x, const ptosim_timg2col_params *p) {
  static const struct {
    const char *name;
    size_t off;
    int64_t lo, hi;
  } f[] = {
#define F(field, lo, hi) {#field, offsetof(ptosim_timg2col_params, field), lo, hi}
      F(pos_m, 0, 0xFFFF),     F(pos_k, 0, 0xFFFF),        F(filter_h, 1, 511),  F(filter_w, 1, 511),
      F(stride_h, 1, 63),      F(stride_w, 1, 63),         F(dilation_h, 1, 255), F(dilation_w, 1, 255),
      F(channel_size, 1, 0xFFFF),
#undef F
  };
  for (size_t i = 0; i < sizeof f / sizeof *f; i++) {
    int64_t v;
    memcpy(&v, (const char *)p + f[i].off, sizeof v);
    PT_TRY(in_range(x, "timg2col.field", f[i].name, v, f[i].lo, f[i].hi));
  }
  return in_range(x, "timg2col.field", "dst valid rows", p->dst.valid_rows, 1, 0xFFFF);
}

/* Operand and state checks; fills g. Source tile, destination tile, element types and
 * layouts from include/pto/npu/{a2a3,a5}/TImg2col.hpp (src Mat, dst Left: ZZ on A2/A3, NZ
 * on A5; equal element types). */
static ptosim_status img2col_setup(pt_ctx *x, const ptosim_timg2col_params *p, uint64_t fm, uint64_t rpt, img2col *g) {
  const ptosim_tile *s = &p->src, *d = &p->dst;
  const operand o[] = {{"src", s, PTOSIM_L1}, {"dst", d, PTOSIM_L0A}};
  PT_TRY(operands(x, "timg2col.space", 2, o));
  PT_VERIFY(x, s->dtype == d->dtype && img2col_dtype(x, d->dtype), "timg2col.dtype",
            "use equal src / dst element types the target's img2col supports", "src %s, dst %s on %s",
            pt_dtype_name(s->dtype), pt_dtype_name(d->dtype), x->m->prof->name);
  ptosim_blayout bl = x->m->prof->l0a_zz ? PTOSIM_BL_ROW_MAJOR : PTOSIM_BL_COL_MAJOR;
  PT_VERIFY(x, d->blayout == bl && d->slayout == PTOSIM_SL_ROW_MAJOR && d->fractal == PT_FRAC_BYTES,
            "timg2col.layout", x->m->prof->l0a_zz ? "use a ZZ left tile (row_major / row_major)"
                                                  : "use an NZ left tile (col_major / row_major)",
            "dst tile layout does not match the %s L0A layout", x->m->prof->name);
  PT_TRY(img2col_fields(x, p));
  if (p->transpose)
    return pt_fail(x, PTOSIM_E_UNSUPPORTED, "timg2col.transpose", NULL,
                   "the transposed img2col layout is not modelled");
  if (rpt && (rpt >> 16 & 0xFF) != 1)
    return pt_fail(x, PTOSIM_E_UNSUPPORTED, "timg2col.repeat", "set repeat_time 1",
                   "img2col repeats (repeat_time %u) are not modelled", (unsigned)(rpt >> 16 & 0xFF));
  g->es = esize(d);
  g->c0 = PT_C0 / g->es;
  if (p->channel_size % g->c0)
    return pt_fail(x, PTOSIM_E_UNSUPPORTED, "timg2col.channel_size", "use a multiple of C0 channels",
                   "channel_size %" PRId64 " is not a multiple of C0 = %" PRId64
                   " (small-channel packing is not modelled)",
                   p->channel_size, g->c0);
  g->w = (int64_t)(fm & 0xFFFF), g->h = (int64_t)(fm >> 16 & 0xFFFF);
  g->pl = (int64_t)(fm >> 32 & 0xFF), g->pt = (int64_t)(fm >> 48 & 0xFF);
  int64_t pr = (int64_t)(fm >> 40 & 0xFF);
  PT_VERIFY(x, g->h > 0 && g->w > 0, "timg2col.fmatrix", "issue pto.setfmatrix with the image size first",
            "FMATRIX%s holds image %" PRId64 " x %" PRId64, p->fmatrix_b ? "_B" : "", g->h, g->w);
  g->fh = p->filter_h, g->fw = p->filter_w, g->sh = p->stride_h, g->sw = p->stride_w;
  g->dh = p->dilation_h, g->dw = p->dilation_w, g->c1 = p->channel_size / g->c0;
  int64_t span = g->w + g->pl + pr - g->dw * (g->fw - 1) - 1;
  PT_VERIFY(x, span >= 0, "timg2col.geometry", "the dilated window must fit the padded image width",
            "window width %" PRId64 " exceeds padded width %" PRId64, g->dw * (g->fw - 1) + 1, g->w + g->pl + pr);
  g->ow = span / g->sw + 1;
  int64_t need = g->c1 * g->h * g->w * PT_C0, have = (int64_t)s->rows * s->cols * g->es;
  PT_VERIFY(x, have >= need, "timg2col.src_size", "size the src tile for the whole [C1][H][W][C0] image",
            "src tile has %" PRId64 " bytes, the image %" PRId64, have, need);
  return PTOSIM_OK;
}

/* Source element of im2col position (m, k), NULL for padding. */
static const uint8_t *img2col_at(const img2col *g, const uint8_t *src, int64_t m, int64_t k) {
  int64_t c1 = k / (g->fh * g->fw * g->c0), kw = k / g->c0 % g->fw, kh = k / (g->fw * g->c0) % g->fh;
  int64_t ih = m / g->ow * g->sh - g->pt + kh * g->dh, iw = m % g->ow * g->sw - g->pl + kw * g->dw;
  if (c1 >= g->c1 || ih < 0 || ih >= g->h || iw < 0 || iw >= g->w) return NULL;
  return src + (((c1 * g->h + ih) * g->w + iw) * g->c0 + k % g->c0) * g->es;
}

/* Record the destination rows: A2/A3 ZZ, row blocks of nkb = ceil(step_k / C0) fractals
 * (the full 16-row blocks, then the rows of a partial last block); A5 NZ, column block kb
 * at fractal m_pos + kb * dst_stride (register fields), rows m < step_m of it. */
static ptosim_status img2col_dst(pt_ctx *x, const ptosim_tile *d, int64_t step_m, int64_t nkb, uint64_t rpt) {
  uint8_t *q;
  if (!x->m->prof->l0a_zz)
    return rows_of(x, d, (rpt >> 48) * PT_FRAC_BYTES, nkb, (int64_t)(rpt >> 32 & 0xFFFF) * PT_FRAC_BYTES,
                   step_m * PT_C0, PT_WRITE, &q);
  int64_t full = step_m / PT_FRAC_ROWS, rblk = nkb * PT_FRAC_BYTES;
  int64_t count[2] = {nkb, step_m % PT_FRAC_ROWS}, stride[2] = {PT_FRAC_BYTES, PT_C0};
  if (full) PT_TRY(rows_of(x, d, 0, 1, 0, full * rblk, PT_WRITE, &q));
  return pt_region(x, d->space, d->addr + (uint64_t)(full * rblk), 2, count, stride, PT_C0, 1, PT_WRITE, &q);
}

ptosim_status pt_exec_timg2col(pt_ctx *x, const ptosim_timg2col_params *p) {
  uint64_t fm = pt_sreg_get(x, reg_of(x, PT_SREG_FMATRIX, p->fmatrix_b, 0));
  uint64_t rpt = pt_sreg_get(x, reg_of(x, PT_SREG_L3D_RPT, p->fmatrix_b, 1));
  uint64_t padv = pt_sreg_get(x, reg_of(x, PT_SREG_PADDING, p->fmatrix_b, 1));
  img2col g = {0};
  PT_TRY(img2col_setup(x, p, fm, rpt, &g));
  int64_t step_m = p->dst.valid_rows, nkb = (int64_t)pt_ceil_div((uint64_t)p->dst.valid_cols, (uint64_t)g.c0);
  uint8_t *src, *dst, pad[4];
  PT_TRY(rows_of(x, &p->src, 0, 1, 0, g.c1 * g.h * g.w * PT_C0, PT_READ, &src));
  PT_TRY(img2col_dst(x, &p->dst, step_m, nkb, rpt));
  PT_TRY(tile_base(x, &p->dst, PT_WRITE, &dst));
  for (int64_t b = 0; b < g.es; b++) pad[b] = (uint8_t)(padv >> (8 * b));
  uint64_t blk = (rpt >> 32 & 0xFFFF) * PT_FRAC_BYTES, m_pos = (rpt >> 48) * PT_FRAC_BYTES;
  /* One 32-byte destination row (m, column block kb) at a time, copied in runs of source
   * elements that share (c1, kh, kw), i.e. up to the next multiple of C0 of k. */
  for (int64_t m = 0; m < step_m; m++)
    for (int64_t kb = 0; kb < nkb; kb++) {
      uint64_t um = (uint64_t)m, ub = (uint64_t)kb; /* (row, block) with cw = 1: the row start */
      uint8_t *row = dst + (x->m->prof->l0a_zz ? pt_zz_off(um, ub, 0, 1, (uint64_t)nkb * PT_FRAC_BYTES)
                                               : m_pos + pt_nz_off(um, ub, 0, 1, PT_C0, blk));
      for (int64_t j = 0, n; j < g.c0; j += n) {
        int64_t k = p->pos_k + kb * g.c0 + j;
        n = g.c0 - (j > k % g.c0 ? j : k % g.c0);
        const uint8_t *v = img2col_at(&g, src, p->pos_m + m, k);
        if (v) memcpy(row + j * g.es, v, (size_t)(n * g.es));
        else
          for (int64_t e = j; e < j + n; e++) memcpy(row + e * g.es, pad, (size_t)g.es);
      }
    }
  return PTOSIM_OK;
}
