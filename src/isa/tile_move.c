/* Tile data movement (ops.def section "tile data movement"):
 *   pto.tload             GM view -> vec (UB) or mat (L1) tile                          MTE2
 *   pto.tstore            vec (UB), a2a3 mat (L1) tile -> GM view                       MTE3
 *                         acc (L0C) tile -> GM view through the FIXPIPE (fixpipe.c)      FIX
 *   pto.tstore_fp         acc tile -> GM view, per-column quantization from an FB tile   FIX
 *   pto.tprefetch         GM view slices staged in a vec tile                           MTE2
 *   pto.tprefetch_async   L2 prefetch hint of a flat view (no data change)              S
 *   pto.mgather           GM table -> vec tile through a vec index tile                 MTE2 (a5: V)
 *                         GM table -> NZ mat tile through GM indices (+ GM scratch)     MTE2
 *   pto.mscatter          vec tile -> GM table through a vec index tile                 MTE3 (a5: V)
 * Spec: pto-isa docs/isa/tile/ops/memory-and-data-movement/ (one page per op); hardware
 * evidence: pto-isa include/pto/common/arch/{memory,register}/{tload,tstore}_common.hpp and
 * include/pto/npu/{a2a3,a5}/{TLoad,TStore,TPrefetch,MGather,MScatter}.hpp; op syntax PTOAS
 * include/PTO/IR/PTOOps.td.
 *
 * Tiles (ptosim/tile.h). A tile is rows x cols elements of es bytes stored in boxes of
 * ir x ic elements (pto-isa include/pto/common/pto_tile.hpp getInnerRow / getInnerCol):
 *   none_box          1 x 1 (ND = row_major blayout, DN = col_major)
 *   fractal 512       16 x C0 (slayout row_major) or C0 x 16 (col_major), C0 = 32 / es
 *   fractal 1024      16 x 16 (the 4-byte accumulator)       fractal 32   16 x 2 / 2 x 16 (MX scales)
 * Boxes are ordered row-major for blayout row_major, column-major otherwise; a box is stored
 * row-major for slayout row_major (and none_box row-major tiles), column-major otherwise:
 *   off(r, c) = (box(r / ir, c / ic) * ir * ic + inner(r % ir, c % ic)) * es
 * Named by (blayout, slayout): ND, DN, NZ (col, row), ZN (row, col), ZZ (row, row),
 * NN (col, col). NZ is pt_nz_off with row = 32 and blk = rows * 32.
 *
 * GM views (ptosim/tile.h): element i = (i0..i4) at addr + sum(i_d * stride_d) * es. How a
 * tile element (r, c) maps to view indices depends on the view layout (pto-isa
 * include/pto/cpu/tile_offsets.hpp MapTileIndicesToGlobalOffset, the NPU loops agree):
 *   ND  r = ((i0 * s1 + i1) * s2 + i2) * s3 + i3, c = i4
 *   DN  c = ((i0 * s1 + i1) * s2 + i2) * s4 + i4, r = i3
 *   NZ  r = i2 * 16 + i3, c = (i0 * s1 + i1) * C0 + i4          (s3 = 16, s4 = C0)
 *   MX_A_ZZ r = (i0 * s1 + i1) * 16 + i3, c = i2 * 2 + i4     MX_B_NN  the same with r <-> c
 *   MX_A_ND r = i2, c = i3 * 2 + i4    MX_A_DN c = i2 * 2 + i4, r = i3
 *   MX_B_ND r = i2 * 2 + i4, c = i3    MX_B_DN c = i2, r = i3 * 2 + i4
 * The DMA engines move contiguous runs, so each pair requires the view's inner dimensions
 * to be contiguous (rule <op>.view_stride) instead of silently reading other bytes.
 *
 * Padding (docs: state-and-types/layout.md "Padding", data-format.md "Pad Value
 * Encoding"): every element of the tile outside the valid region receives the pad value;
 * pad null leaves those bytes as they are, except the bytes the hardware itself zeroes
 * (the C0 tail lanes of nd2nz / dn2nz fractal loads and the 32-byte tail of A5 L1 row
 * loads). The pad values are those of pto-isa include/pto/common/constants.hpp PadValueMap:
 * floats +-inf, integers their max / min (0 for unsigned min), 0 for 64-bit integers and
 * 8-bit floats. A TLOAD never writes a byte outside its tile (the hardware DMA pads only to
 * the next 32 bytes of each row, which always lies inside the tile). */
#include <inttypes.h>
#include <string.h>

#include "isa/fixpipe_quant.h"
#include "isa/tile_check.h"
#include "isa/tile_geom.h"

#define BLK 32                 /* bytes: C0, the UB / L1 row alignment */
#define MAXL 4                 /* loop levels of one move */
#define MAX_EXTENT (1ll << 50) /* bytes one view dimension may span: more than any GM buffer */

/* Rule id "<op>.<rule>" of the running op (the spelling without "pto."). */
#define RULE(x, r) PT_TILE_RULE(ptosim_op_spelling((x)->op) + 4, (r))
#define VERIFY(x, cond, rule, hint, ...) PT_VERIFY((x), (cond), RULE((x), (rule)), (hint), __VA_ARGS__)

static bool is_a5(const pt_ctx *x) { return x->m->target == PTOSIM_TARGET_A5; }

/* A UB tile belongs to the vector core issuing the op, L1 / L0C / FB tiles to the cube core
 * (the machine lets the cube core reach the UB of sub-block 0 for the micro-level copies, so
 * the tile ops check the core themselves). */
static ptosim_status check_unit(pt_ctx *x, const char *what, ptosim_space sp) {
  bool vec = sp == PTOSIM_UB, aic = x->core->kind == PTOSIM_AIC;
  VERIFY(x, vec != aic, "unit", vec ? "issue it from a vector core" : "issue it from the cube core",
         "%s tile in %s cannot be reached from the %s core", what, pt_space_name(sp), aic ? "cube" : "vector");
  return PTOSIM_OK;
}

/* ==== tiles ================================================================================ */

typedef struct tgeo {
  pt_tile_kind kind;
  unsigned es;
  int64_t rows, cols, vr, vc;
  int64_t ir, ic; /* box rows / columns, elements */
  bool row_boxes; /* boxes in row-major order */
  bool row_inner; /* row-major inside a box: lines run along columns */
} tgeo;

static int64_t t_off(const tgeo *g, int64_t r, int64_t c) {
  int64_t br = r / g->ir, bc = c / g->ic, ri = r % g->ir, ci = c % g->ic;
  int64_t box = g->row_boxes ? br * (g->cols / g->ic) + bc : bc * (g->rows / g->ir) + br;
  return (box * g->ir * g->ic + (g->row_inner ? ri * g->ic + ci : ci * g->ir + ri)) * g->es;
}

static int64_t t_bytes(const tgeo *g) { return g->rows * g->cols * g->es; }

/* The checks every tile operand passes (tile_check.h); `what` names it in messages. */
static ptosim_status tile_geo(pt_ctx *x, const char *what, const ptosim_tile *t, tgeo *g) {
  pt_tile_info i;
  PT_TRY(pt_tile_check(x, PT_TILE_MOVE, what, t, &i));
  *g = (tgeo){.kind = pt_tile_kind_of(t),
              .es = i.es,
              .rows = t->rows,
              .cols = t->cols,
              .vr = t->valid_rows,
              .vc = t->valid_cols,
              .ir = i.ir,
              .ic = i.ic,
              .row_boxes = t->blayout == PTOSIM_BL_ROW_MAJOR,
              .row_inner = !i.in_col};
  return PTOSIM_OK;
}

/* ---- pad values and pad fill ------------------------------------------------------------- */

/* n bytes at p from a 32-byte pattern that starts an element. */
static void pattern(uint8_t *p, int64_t n, const uint8_t *pat) {
  for (int64_t k = 0; k < n; k += BLK) memcpy(p + k, pat, (size_t)(n - k < BLK ? n - k : BLK));
}

/* Every element of tile g outside its valid region gets the pad pattern (host base t).
 * The tile is walked line by line: a line is one box row (column) of ic (ir) elements, or
 * a whole row (column) of a none_box tile. */
static void fill_pad(const tgeo *g, uint8_t *t, const uint8_t *pat) {
  bool fc = g->row_inner; /* lines run along columns */
  int64_t nf = fc ? g->cols : g->rows, ns = fc ? g->rows : g->cols;
  int64_t vf = fc ? g->vc : g->vr, vs = fc ? g->vr : g->vc;
  int64_t lw = g->ir == 1 && g->ic == 1 ? nf : (fc ? g->ic : g->ir);
  for (int64_t s = 0; s < ns; s++)
    for (int64_t f = 0; f < nf; f += lw) {
      int64_t from = s >= vs ? 0 : vf - f < 0 ? 0 : vf - f;
      if (from >= lw) continue;
      pattern(t + t_off(g, fc ? s : f, fc ? f : s) + from * g->es, (lw - from) * g->es, pat);
    }
}

/* ==== moves: strided runs between a GM view and a tile ====================================== */

/* One transfer: for every index of the levels (outermost first), a run of len bytes at
 * goff + sum(i * gs) in GM and toff + sum(i * ts) in the tile (bytes from the view / tile
 * base). A load zeroes zlen more tile bytes after each run; len = 0 is a pure zero fill. */
typedef struct mv {
  int nd;
  int64_t cnt[MAXL], gs[MAXL], ts[MAXL];
  int64_t goff, toff, len, zlen;
  uint8_t *g, *t; /* host bytes of the first run (set when mapped) */
} mv;

typedef struct plan {
  int n;
  mv m[3];
} plan;

/* Start a new move in pl. */
static mv *mv_new(plan *pl, int64_t goff, int64_t toff, int64_t len, int64_t zlen) {
  mv *m = &pl->m[pl->n++];
  memset(m, 0, sizeof *m);
  m->goff = goff, m->toff = toff, m->len = len, m->zlen = zlen;
  return m;
}

static void lv(mv *m, int64_t cnt, int64_t gs, int64_t ts) {
  m->cnt[m->nd] = cnt, m->gs[m->nd] = gs, m->ts[m->nd] = ts;
  m->nd++;
}

static void drop_level(mv *m, int i) {
  for (int j = i; j + 1 < m->nd; j++) m->cnt[j] = m->cnt[j + 1], m->gs[j] = m->gs[j + 1], m->ts[j] = m->ts[j + 1];
  m->nd--;
}

/* Same bytes, fewer and longer runs: drop single-iteration levels, fold an inner level whose
 * runs touch on both sides into the run, and merge levels that continue each other. */
static void drop_single(mv *m) {
  for (int i = m->nd - 1; i >= 0; i--)
    if (m->cnt[i] == 1) drop_level(m, i);
}

static void mv_simplify(mv *m) {
  drop_single(m);
  for (bool again = true; again;) {
    again = false;
    int in = m->nd - 1;
    if (in >= 0 && !m->zlen && m->len && m->gs[in] == m->len && m->ts[in] == m->len) {
      m->len *= m->cnt[in];
      drop_level(m, in);
      again = true;
    }
    for (int i = 0; i + 1 < m->nd; i++)
      if (m->gs[i] == m->cnt[i + 1] * m->gs[i + 1] && m->ts[i] == m->cnt[i + 1] * m->ts[i + 1]) {
        m->cnt[i + 1] *= m->cnt[i];
        drop_level(m, i);
        again = true;
        break;
      }
  }
}

/* Check both regions of every move through the accessor layer (nothing is written before
 * all of them pass) and record the host pointers. load: GM -> tile, else tile -> GM. The
 * regions are recorded with the view's own levels (one DMA instruction per level index for
 * the cost model, docs/cost-model.md); the copy loop then runs on merged levels. */
static ptosim_status plan_map(pt_ctx *x, plan *pl, uint64_t gaddr, ptosim_space sp, uint64_t taddr, bool load,
                              pt_access gacc) {
  for (int i = 0; i < pl->n; i++) {
    mv *m = &pl->m[i];
    drop_single(m);
    PT_TRY(pt_region(x, PTOSIM_GM, gaddr + (uint64_t)m->goff, m->nd, m->cnt, m->gs, (uint64_t)m->len, 1,
                     load ? PT_READ : gacc, &m->g));
    PT_TRY(pt_region(x, sp, taddr + (uint64_t)m->toff, m->nd, m->cnt, m->ts, (uint64_t)(m->len + m->zlen), 1,
                     load ? PT_WRITE : PT_READ, &m->t));
    mv_simplify(m);
  }
  return PTOSIM_OK;
}

/* n runs of len bytes, steps ds / ss: the tight inner loop of every move. A run of one
 * 32-byte C0 row (the fractal conversions) is a constant-size copy. */
static void copy_runs(uint8_t *d, const uint8_t *s, int64_t n, int64_t ds, int64_t ss, int64_t len) {
  if (len == BLK)
    for (int64_t i = 0; i < n; i++) memcpy(d + i * ds, s + i * ss, BLK);
  else
    for (int64_t i = 0; i < n; i++) memcpy(d + i * ds, s + i * ss, (size_t)len);
}

/* The innermost level of move m at byte offsets go / to: n runs. A load also zeroes the zlen
 * tail of each run; a store with add != NONE adds each element of type add to GM instead of
 * copying (the MTE3 atomic add). */
static void inner(const mv *m, int64_t go, int64_t to, int64_t n, int64_t gs, int64_t ts, bool load, ptosim_dtype add) {
  if (load && !m->zlen) {
    if (m->len) copy_runs(m->t + to, m->g + go, n, ts, gs, m->len);
  } else if (!load && add == PTOSIM_DT_NONE) {
    copy_runs(m->g + go, m->t + to, n, gs, ts, m->len);
  } else if (load) {
    for (int64_t i = 0; i < n; i++) {
      uint8_t *t = m->t + to + i * ts;
      if (m->len) memcpy(t, m->g + go + i * gs, (size_t)m->len);
      memset(t + m->len, 0, (size_t)m->zlen);
    }
  } else {
    unsigned es = pt_dtype_size(add);
    for (int64_t i = 0; i < n; i++)
      for (int64_t k = 0; k < m->len; k += es)
        pt_fq_atomic(add, PTOSIM_ATOMIC_ADD, m->g + go + i * gs + k, m->t + to + i * ts + k);
  }
}

/* Run every move: odometer over the outer levels, one inner loop per step. */
static void plan_copy(const plan *pl, bool load, ptosim_dtype add) {
  for (int i = 0; i < pl->n; i++) {
    const mv *m = &pl->m[i];
    int in = m->nd - 1;
    int64_t idx[MAXL] = {0}, go = 0, to = 0, n = in >= 0 ? m->cnt[in] : 1;
    for (;;) {
      inner(m, go, to, n, in >= 0 ? m->gs[in] : 0, in >= 0 ? m->ts[in] : 0, load, add);
      int l = in - 1;
      for (; l >= 0; l--) {
        go += m->gs[l], to += m->ts[l];
        if (++idx[l] < m->cnt[l]) break;
        go -= m->cnt[l] * m->gs[l], to -= m->cnt[l] * m->ts[l];
        idx[l] = 0;
      }
      if (l < 0) break;
    }
  }
}

/* ==== GM views ============================================================================== */

static const char *const layout_name[PTOSIM_GL_COUNT] = {"nd",      "dn",      "nz",      "mx_a_zz", "mx_a_nd",
                                                         "mx_a_dn", "mx_b_nn", "mx_b_nd", "mx_b_dn"};

/* Shape, stride and element-size checks of a view paired with a tile of element size es; the
 * view of an empty valid region (empty) may have dimensions of 0. */
static ptosim_status check_view(pt_ctx *x, const ptosim_gm_view *v, unsigned es, bool empty) {
  VERIFY(x, (unsigned)v->layout < PTOSIM_GL_COUNT, "view_layout", "use a ptosim_gm_layout enumerator",
         "invalid view layout %d", (int)v->layout);
  VERIFY(x, pt_dtype_size(v->dtype) == es, "elem_size", "use view and tile element types of the same size",
         "view element %s and tile element of %u bytes differ in size", pt_dtype_name(v->dtype), es);
  for (int d = 0; d < PTOSIM_VIEW_DIMS; d++) {
    VERIFY(x, v->shape[d] >= !empty && v->shape[d] <= INT32_MAX, "view_shape",
           "every view dimension is in [1, 2^31) (0 allowed for an empty valid region)",
           "view shape[%d] = %" PRId64 " is out of range", d, v->shape[d]);
    int64_t n = v->shape[d] ? v->shape[d] : 1;
    VERIFY(x, v->stride[d] >= 0 && v->stride[d] <= MAX_EXTENT / (int64_t)es / n, "view_stride",
           "view strides are non-negative element counts and a view spans less than 2^50 bytes",
           "view stride[%d] = %" PRId64 " is negative or too large", d, v->stride[d]);
  }
  return PTOSIM_OK;
}

/* a * b for positive extents, saturated at MAX_EXTENT (products are compared, never used). */
static int64_t mul(int64_t a, int64_t b) { return a > MAX_EXTENT / b ? MAX_EXTENT : a * b; }

/* The view must carry the tile's valid region: rows = prod of row dims, cols = prod of
 * column dims (hardware PTO_ASSERTs of every TLOAD / TSTORE path). */
static ptosim_status want_valid(pt_ctx *x, const tgeo *g, int64_t rows, int64_t cols, const char *rows_of,
                                const char *cols_of) {
  VERIFY(x, g->vr == rows && g->vc == cols, "view_shape",
         "the view's row dimensions must multiply to the valid rows, its column dimensions to the valid columns",
         "valid region %" PRId64 "x%" PRId64 " differs from the view's %" PRId64 " (%s) x %" PRId64 " (%s)", g->vr,
         g->vc, rows, rows_of, cols, cols_of);
  return PTOSIM_OK;
}

/* View dimension d must have stride `want` (elements): the DMA reads that dimension as a
 * contiguous run. */
static ptosim_status want_stride(pt_ctx *x, const ptosim_gm_view *v, int d, int64_t want) {
  VERIFY(x, v->stride[d] == want, "view_stride",
         "the DMA reads this dimension as one contiguous run: give it the packed stride",
         "%s view stride[%d] = %" PRId64 ", the transfer needs %" PRId64, layout_name[v->layout], d, v->stride[d],
         want);
  return PTOSIM_OK;
}

static ptosim_status want_2d(pt_ctx *x, const ptosim_gm_view *v) {
  VERIFY(x, v->shape[0] == 1 && v->shape[1] == 1 && v->shape[2] == 1, "view_2d",
         "fractal conversions take a 2-D view {1, 1, 1, rows, cols}",
         "%s view with shape[0..2] = %" PRId64 ", %" PRId64 ", %" PRId64 " is not 2-D", layout_name[v->layout],
         v->shape[0], v->shape[1], v->shape[2]);
  return PTOSIM_OK;
}

static ptosim_status in_range(pt_ctx *x, const char *what, int64_t v, int64_t lo, int64_t hi) {
  VERIFY(x, v >= lo && v <= hi, "range", "keep the value inside the hardware field that encodes it",
         "%s = %" PRId64 " is outside [%" PRId64 ", %" PRId64 "]", what, v, lo, hi);
  return PTOSIM_OK;
}

/* ==== transfer plans (shared by TLOAD and TSTORE) ============================================ */

typedef struct xctx {
  const ptosim_gm_view *v;
  const tgeo *g;
  int64_t T[PTOSIM_VIEW_DIMS]; /* view strides in bytes */
  bool nz_rows_le;             /* NZ: the view may have more rows than the tile's valid rows (a5 vec loads) */
} xctx;

/* ND <-> ND and DN <-> DN: lines along the contiguous view dimension (ND: 4, a row of
 * valid_cols elements; DN: 3, a column of valid_rows elements); the line index runs over the
 * other four dimensions, outermost first, tile lines (rows / columns) apart. */
static ptosim_status plan_line(pt_ctx *x, const xctx *c, plan *pl) {
  bool nd = c->g->kind == PT_TK_ND;
  const int run = nd ? 4 : 3, d[4] = {0, 1, 2, nd ? 3 : 4};
  const int64_t *s = c->v->shape;
  int64_t lines = mul(mul(s[d[0]], s[d[1]]), mul(s[d[2]], s[d[3]]));
  PT_TRY(nd ? want_valid(x, c->g, lines, s[4], "shape[0..3]", "shape[4]")
            : want_valid(x, c->g, s[3], lines, "shape[3]", "shape[0..2] * shape[4]"));
  PT_TRY(want_stride(x, c->v, run, 1));
  mv *m = mv_new(pl, 0, 0, s[run] * c->g->es, 0);
  int64_t pitch = lines * (nd ? c->g->cols : c->g->rows) * c->g->es; /* lines equals a valid extent here */
  for (int k = 0; k < 4; k++) {
    pitch /= s[d[k]];
    lv(m, s[d[k]], c->T[d[k]], pitch);
  }
  return PTOSIM_OK;
}

/* NZ <-> NZ: each column block (i0, i1) is valid_rows 32-byte rows, contiguous on both sides.
 * An a5 vec load copies valid_rows rows of each column block whatever the view's rows (pto-isa
 * register/tload_common.hpp TLoadVecNZ2NZ: lenBurst = validRow * 32 B, the view's rows only in
 * its stride[1]), so there the view may hold more rows than the tile's valid rows. */
static ptosim_status plan_nz(pt_ctx *x, const xctx *c, plan *pl) {
  const int64_t *s = c->v->shape, cw = BLK / c->g->es, B = c->g->rows * BLK;
  VERIFY(x, s[3] == 16 && s[4] == cw, "view_shape", "an NZ view is {.., .., rows / 16, 16, 32 / es}",
         "NZ view inner shape %" PRId64 "x%" PRId64 " is not 16x%" PRId64, s[3], s[4], cw);
  int64_t rows = mul(s[2], 16);
  if (c->nz_rows_le && c->g->vr < rows) rows = c->g->vr;
  PT_TRY(want_valid(x, c->g, rows, mul(mul(s[0], s[1]), cw), "shape[2] * 16", "shape[0] * shape[1] * C0"));
  PT_TRY(want_stride(x, c->v, 4, 1));
  PT_TRY(want_stride(x, c->v, 3, cw));
  PT_TRY(want_stride(x, c->v, 2, 16 * cw));
  mv *m = mv_new(pl, 0, 0, c->g->vr * BLK, 0);
  lv(m, s[0], c->T[0], s[1] * B);
  lv(m, s[1], c->T[1], B);
  return PTOSIM_OK;
}

/* nd2nz-style fractal load: n lines of d elements of es bytes, contiguous in GM, lines gn
 * bytes apart; destination C0 blocks of 32-byte rows, blocks bt bytes apart. The last block
 * keeps d % C0 lanes and zeroes the rest (copy_gm_to_cbuf_multi_nd2nz pads the D tail). */
static void frac_rows(plan *pl, int64_t n, int64_t d, unsigned es, int64_t gn, int64_t bt) {
  int64_t cw = BLK / es, full = d / cw, tail = d % cw;
  if (full) {
    mv *m = mv_new(pl, 0, 0, BLK, 0);
    lv(m, full, BLK, bt);
    lv(m, n, gn, BLK);
  }
  if (tail) lv(mv_new(pl, full * BLK, full * bt, tail * es, BLK - tail * es), n, gn, BLK);
}

/* dn2nz-style fractal load: d lines (one per lane index) of n elements, lines gd bytes
 * apart, elements gn bytes apart; element (line k, element j) goes to lane k % C0 of row j
 * of block k / C0. Lanes past d in the last block are zeroed. */
static void frac_lanes(plan *pl, int64_t n, int64_t d, unsigned es, int64_t gd, int64_t gn, int64_t bt) {
  int64_t cw = BLK / es, full = d / cw, tail = d % cw;
  if (full) {
    mv *m = mv_new(pl, 0, 0, es, 0);
    lv(m, full, cw * gd, bt);
    lv(m, cw, gd, es);
    lv(m, n, gn, BLK);
  }
  if (tail) {
    mv *m = mv_new(pl, full * cw * gd, full * bt, es, 0);
    lv(m, tail, gd, es);
    lv(m, n, gn, BLK);
    lv(mv_new(pl, 0, full * bt + tail * es, 0, BLK - tail * es), n, 0, BLK);
  }
}

/* The 2-D fractal conversions (Mat): ND -> NZ by rows (TLoadGm2L1Nd2nz / TLoadCubeND2NZ),
 * DN -> ZN as the nd2nz of the transpose (view columns become ZN column rows), and A5 DN -> NZ
 * by lanes (TLoadCubeND2NZ with a DN view: copy_gm_to_cbuf_multi_dn2nz). */
static ptosim_status plan_frac(pt_ctx *x, const xctx *c, plan *pl) {
  const int64_t *s = c->v->shape;
  bool dn = c->v->layout == PTOSIM_GL_DN;
  unsigned es = c->g->es;
  PT_TRY(want_2d(x, c->v));
  PT_TRY(want_valid(x, c->g, s[3], s[4], "shape[3]", "shape[4]"));
  PT_TRY(want_stride(x, c->v, dn ? 3 : 4, 1));
  if (!dn)
    frac_rows(pl, s[3], s[4], es, c->T[3], c->g->rows * BLK);
  else if (c->g->kind == PT_TK_ZN)
    frac_rows(pl, s[4], s[3], es, c->T[4], c->g->cols * BLK);
  else
    frac_lanes(pl, s[3], s[4], es, c->T[4], es, c->g->rows * BLK);
  return PTOSIM_OK;
}

/* MX scale views are 5-D with pairs of e8m0 scales (two K groups) in dimension 4; the
 * pairs are contiguous and the hardware moves them as 16-bit elements. */
static ptosim_status mx_pairs(pt_ctx *x, const xctx *c, bool boxed) {
  const int64_t *s = c->v->shape;
  VERIFY(x, s[4] == 2 && (!boxed || s[3] == 16), "mx_shape",
         boxed ? "MX_A_ZZ / MX_B_NN views are {.., .., K / 64, 16, 2}" : "MX_*_ND / _DN views are {1, 1, .., .., 2}",
         "%s view inner shape %" PRId64 "x%" PRId64, layout_name[c->v->layout], s[3], s[4]);
  if (!boxed)
    VERIFY(x, s[0] == 1 && s[1] == 1, "mx_shape", "MX_*_ND / _DN views are {1, 1, .., .., 2}",
           "%s view with shape[0..1] = %" PRId64 ", %" PRId64, layout_name[c->v->layout], s[0], s[1]);
  PT_TRY(want_stride(x, c->v, 4, 1));
  return want_stride(x, c->v, 3, 2);
}

/* MX_A_ZZ -> ZZ and MX_B_NN -> NN: the view is already in 16 x 2 boxes; each 16-row (A) or
 * 16-column (B) block is shape[2] contiguous boxes (TLoadMxCubeZZ2ZZ / NN2NN). The whole view
 * is copied; it must fit the tile's static shape, not equal its valid region (a5 TLoad.hpp
 * TLoadMxCubeCheck: Rows >= 16 * shape[0..1] and Cols >= 2 * shape[2] for A, transposed for
 * B; pto-isa's tmatmul_mx kernels load scales padded to 16 rows into a tile of fewer valid
 * rows). */
static ptosim_status plan_mx_box(pt_ctx *x, const xctx *c, plan *pl) {
  const int64_t *s = c->v->shape;
  bool a = c->g->kind == PT_TK_ZZ;
  PT_TRY(mx_pairs(x, c, true));
  PT_TRY(want_stride(x, c->v, 2, 32));
  int64_t blocks = mul(mul(s[0], s[1]), 16), groups = mul(s[2], 2), pitch = 16 * (a ? c->g->cols : c->g->rows);
  int64_t vr = a ? blocks : groups, vc = a ? groups : blocks;
  VERIFY(x, vr <= c->g->rows && vc <= c->g->cols, "view_shape",
         a ? "an MX_A_ZZ view of 16 * shape[0..1] rows x 2 * shape[2] columns must fit the tile's static shape"
           : "an MX_B_NN view of 2 * shape[2] rows x 16 * shape[0..1] columns must fit the tile's static shape",
         "the view's %" PRId64 " x %" PRId64 " scales exceed the %" PRId64 " x %" PRId64 " tile", vr, vc, c->g->rows,
         c->g->cols);
  mv *m = mv_new(pl, 0, 0, s[2] * 32, 0);
  lv(m, s[0], c->T[0], s[1] * pitch);
  lv(m, s[1], c->T[1], pitch);
  return PTOSIM_OK;
}

/* MX_A_ND / MX_B_DN (dn2nz of 16-bit pairs) and MX_A_DN / MX_B_ND (nd2nz of pairs) into
 * ZZ (A) or NN (B) scale tiles: the 16 rows (A) / columns (B) of a box are the C0 lanes. */
static ptosim_status plan_mx_nd(pt_ctx *x, const xctx *c, plan *pl) {
  const int64_t *s = c->v->shape;
  ptosim_gm_layout l = c->v->layout;
  bool a = c->g->kind == PT_TK_ZZ, lanes = l == PTOSIM_GL_MX_A_ND || l == PTOSIM_GL_MX_B_DN;
  PT_TRY(mx_pairs(x, c, false));
  /* lanes: s2 = lane count (m or n), s3 = pairs; rows: s2 = pairs, s3 = lanes. */
  int64_t nl = lanes ? s[2] : s[3], np = lanes ? s[3] : s[2];
  PT_TRY(a ? want_valid(x, c->g, nl, mul(np, 2), "lanes", "2 * pairs")
           : want_valid(x, c->g, mul(np, 2), nl, "2 * pairs", "lanes"));
  int64_t bt = 16 * (a ? c->g->cols : c->g->rows);
  if (lanes)
    frac_lanes(pl, np, nl, 2, c->T[2], 2, bt);
  else
    frac_rows(pl, np, nl, 2, c->T[2], bt);
  return PTOSIM_OK;
}

/* ==== TLOAD ================================================================================= */

typedef ptosim_status (*plan_fn)(pt_ctx *, const xctx *, plan *);

/* Legal (view layout, tile kind) pairs: where (V = vec, M = mat on both targets, 5 = mat on
 * a5 only) and the planner. Sources: tload.md "Layout Compatibility"; A5 adds DN -> NZ and the
 * MX scale loads (register/tload_common.hpp TLoadCubeCheck, a5/TLoad.hpp TLoadMxCubeCheck). */
enum { W_VEC = 1, W_MAT = 2, W_MAT5 = 4 };
static const struct {
  ptosim_gm_layout view;
  pt_tile_kind tile;
  unsigned where;
  plan_fn fn;
} k_pairs[] = {
    {PTOSIM_GL_ND, PT_TK_ND, W_VEC | W_MAT, plan_line}, {PTOSIM_GL_DN, PT_TK_DN, W_VEC | W_MAT, plan_line},
    {PTOSIM_GL_NZ, PT_TK_NZ, W_VEC | W_MAT, plan_nz},   {PTOSIM_GL_ND, PT_TK_NZ, W_MAT, plan_frac},
    {PTOSIM_GL_DN, PT_TK_ZN, W_MAT, plan_frac},         {PTOSIM_GL_DN, PT_TK_NZ, W_MAT5, plan_frac},
    {PTOSIM_GL_MX_A_ZZ, PT_TK_ZZ, W_MAT5, plan_mx_box}, {PTOSIM_GL_MX_B_NN, PT_TK_NN, W_MAT5, plan_mx_box},
    {PTOSIM_GL_MX_A_ND, PT_TK_ZZ, W_MAT5, plan_mx_nd},  {PTOSIM_GL_MX_A_DN, PT_TK_ZZ, W_MAT5, plan_mx_nd},
    {PTOSIM_GL_MX_B_ND, PT_TK_NN, W_MAT5, plan_mx_nd},  {PTOSIM_GL_MX_B_DN, PT_TK_NN, W_MAT5, plan_mx_nd},
};

static plan_fn find_pair(ptosim_gm_layout view, pt_tile_kind tile, unsigned where) {
  for (size_t i = 0; i < sizeof k_pairs / sizeof k_pairs[0]; i++)
    if (k_pairs[i].view == view && k_pairs[i].tile == tile && (k_pairs[i].where & where)) return k_pairs[i].fn;
  return NULL;
}

static bool is_mx(ptosim_gm_layout l) { return l >= PTOSIM_GL_MX_A_ZZ; }

/* Element types (tload.md target restrictions): A2/A3 integers of 8..64 bits, f16, bf16,
 * f32; A5 also the 8-bit floats and e8m0 (every 1-, 2-, 4- or 8-byte type). */
static ptosim_status check_dtype(pt_ctx *x, ptosim_dtype t) {
  bool f8 = t == PTOSIM_DT_F8E4M3 || t == PTOSIM_DT_F8E5M2 || t == PTOSIM_DT_HIF8 || t == PTOSIM_DT_F8E8M0;
  bool ok = t != PTOSIM_DT_NONE && t != PTOSIM_DT_I4 && (is_a5(x) || !f8);
  VERIFY(x, ok, "dtype", "use i8..i64, u8..u64, f16, bf16, f32 (a5 also fp8, hif8, e8m0)",
         "element type %s is not supported on target %s", pt_dtype_name(t), x->m->prof->name);
  return PTOSIM_OK;
}

static bool is_empty(const tgeo *g) { return g->vr == 0 || g->vc == 0; }

/* TLOAD / TSTORE of an empty valid region: pto-isa's vec ND / DN paths (a5 TLoadVecND2ND,
 * a2a3 TLoad.hpp, TStore.hpp) issue their DMA with nBurst (view rows) or lenBurst (view
 * columns) of 0, and the tpart* hardware tests load and store such tiles: nothing moves and
 * nothing is accessed (the tile's address is still checked). The view must still carry the
 * valid region. The pad fill of a load (acc PT_WRITE), mat / acc tiles and fractal layouts
 * have no defined empty form (rule "<op>.empty"). */
static ptosim_status empty_move(pt_ctx *x, const ptosim_gm_view *v, const tgeo *g, const ptosim_tile *t, pt_access acc) {
  bool nd = g->kind == PT_TK_ND;
  VERIFY(x,
         t->space == PTOSIM_UB && (t->pad == PTOSIM_PAD_NULL || acc == PT_READ) &&
             ((nd && v->layout == PTOSIM_GL_ND) || (g->kind == PT_TK_DN && v->layout == PTOSIM_GL_DN)),
         "empty", "move an empty valid region only between ND / DN views and vec tiles (a load: pad null)",
         "empty valid region %" PRId64 "x%" PRId64 " of a %s %s tile (pad %d, %s view): only the vec ND / DN DMA "
         "of 0 bursts is defined, with no pad fill",
         g->vr, g->vc, pt_space_name(t->space), pt_tile_kind_name(g->kind), (int)t->pad, layout_name[v->layout]);
  const int64_t *s = v->shape;
  int64_t lines = 1; /* the view dimensions other than the contiguous one (ND: 4, DN: 3) */
  for (int d = 0; d < PTOSIM_VIEW_DIMS; d++)
    if (d != (nd ? 4 : 3)) lines = lines && s[d] ? mul(lines, s[d]) : 0;
  PT_TRY(nd ? want_valid(x, g, lines, s[4], "shape[0..3]", "shape[4]")
            : want_valid(x, g, s[3], lines, "shape[3]", "shape[0..2] * shape[4]"));
  uint8_t *h;
  return pt_tile_at(x, x->core, t->space, t->addr, 0, acc, &h);
}

/* The rules that depend on the pair, the target and the tile location. */
static ptosim_status tload_rules(pt_ctx *x, const ptosim_tload_params *p, const tgeo *g, bool mat) {
  const ptosim_gm_view *v = &p->src;
  bool b64 = g->es == 8, frac = g->kind == PT_TK_NZ || g->kind == PT_TK_ZN;
  VERIFY(x,
         !b64 ||
             ((v->layout == PTOSIM_GL_ND && g->kind == PT_TK_ND) || (v->layout == PTOSIM_GL_DN && g->kind == PT_TK_DN)),
         "b64_layout", "load 64-bit elements ND -> ND or DN -> DN", "64-bit elements with %s view into %s tile",
         layout_name[v->layout], pt_tile_kind_name(g->kind));
  VERIFY(x, !b64 || !is_a5(x) || p->dst.pad == PTOSIM_PAD_NULL || p->dst.pad == PTOSIM_PAD_ZERO, "b64_pad",
         "64-bit tiles take pad null or zero on a5", "64-bit tile with pad value %d", (int)p->dst.pad);
  VERIFY(x, !frac || p->dst.fractal == 512, "fractal", "NZ / ZN tiles use 512-byte fractals",
         "%s tile with fractal size %d", pt_tile_kind_name(g->kind), p->dst.fractal);
  if (is_mx(v->layout))
    VERIFY(x, p->dst.dtype == PTOSIM_DT_F8E8M0 && v->dtype == PTOSIM_DT_F8E8M0 && p->dst.fractal == 32, "mx_shape",
           "MX scale loads move f8E8M0FNU scales into 32-byte-fractal tiles", "%s view of %s into a fractal-%d tile",
           layout_name[v->layout], pt_dtype_name(v->dtype), p->dst.fractal);
  if (is_a5(x)) {
    /* TLoadCubeCheck / TLoadMxCubeCheck: L1 tiles of at most 16384 rows and 512 K elements. */
    if (mat) PT_TRY(in_range(x, "tile rows", g->rows, 1, 16384));
    if (mat) PT_TRY(in_range(x, "tile elements", g->rows * g->cols, 1, 512 * 1024));
    return PTOSIM_OK;
  }
  /* A2/A3 burst counts (12-bit nBurst) and fractal operand ranges (a2a3/TLoad.hpp,
   * memory/tload_common.hpp). */
  const int64_t *s = v->shape;
  if (!mat) PT_TRY(in_range(x, "tile rows", g->rows, 1, 4095));
  if (g->kind == PT_TK_ND && v->layout == PTOSIM_GL_ND) PT_TRY(in_range(x, "shape[3] (bursts)", s[3], 1, 4095));
  if (g->kind == PT_TK_DN) PT_TRY(in_range(x, "shape[4] (bursts)", s[4], 1, 4095));
  if (g->kind == PT_TK_NZ && v->layout == PTOSIM_GL_NZ) PT_TRY(in_range(x, "shape[1] (bursts)", s[1], 1, 4095));
  if (g->kind == PT_TK_NZ && v->layout == PTOSIM_GL_ND) {
    PT_TRY(in_range(x, "shape[3]", s[3], 1, 16384));
    PT_TRY(in_range(x, "shape[4]", s[4], 1, 65535));
    PT_TRY(in_range(x, "stride[3]", v->stride[3], 1, 65535));
    PT_TRY(in_range(x, "tile rows", g->rows, 1, 16384));
  }
  if (g->kind == PT_TK_ZN) {
    PT_TRY(in_range(x, "shape[4]", s[4], 1, 16384));
    PT_TRY(in_range(x, "shape[3]", s[3], 1, 65535));
    PT_TRY(in_range(x, "stride[4]", v->stride[4], 1, 65535));
    PT_TRY(in_range(x, "tile cols", g->cols, 1, 16384));
  }
  /* copy_gm_to_cbuf moves whole 32-byte blocks: L1 rows (columns) of more than one line. */
  if (mat && g->kind == PT_TK_ND && g->rows > 1)
    VERIFY(x, s[4] * g->es % BLK == 0, "mat_align", "load whole 32-byte rows into L1 on a2a3",
           "row of %" PRId64 " bytes is not a multiple of 32", s[4] * g->es);
  if (mat && g->kind == PT_TK_DN && g->cols > 1)
    VERIFY(x, s[3] * g->es % BLK == 0, "mat_align", "load whole 32-byte columns into L1 on a2a3",
           "column of %" PRId64 " bytes is not a multiple of 32", s[3] * g->es);
  return PTOSIM_OK;
}

/* Bytes the hardware zeroes after each ND / DN run of an L1 load: the row continues to the
 * next 32-byte boundary (A5 copy_gm_to_cbuf_align_v2 always pads; A2/A3 loads one-line L1
 * tiles through nd2nz), never past the tile line. */
static int64_t line_tail(const tgeo *g, int64_t len) {
  int64_t line = (g->kind == PT_TK_ND ? g->cols : g->rows) * (int64_t)g->es,
          end = (int64_t)pt_align_up((uint64_t)len, BLK);
  return (end < line ? end : line) - len;
}

ptosim_status pt_exec_tload(pt_ctx *x, const ptosim_tload_params *p) {
  tgeo g;
  PT_TRY(check_dtype(x, p->dst.dtype));
  PT_TRY(tile_geo(x, "dst", &p->dst, &g));
  PT_TRY(check_view(x, &p->src, g.es, is_empty(&g)));
  bool mat = p->dst.space == PTOSIM_L1;
  VERIFY(x, mat || p->dst.space == PTOSIM_UB, "loc", "TLOAD writes a vec (UB) or mat (L1) tile",
         "destination tile in %s", pt_space_name(p->dst.space));
  PT_TRY(check_unit(x, "destination", p->dst.space));
  if (is_empty(&g)) return empty_move(x, &p->src, &g, &p->dst, PT_WRITE);
  unsigned where = mat ? (is_a5(x) ? W_MAT | W_MAT5 : W_MAT) : W_VEC;
  plan_fn fn = find_pair(p->src.layout, g.kind, where);
  VERIFY(x, fn, "layout_pair", "vec: ND->ND, DN->DN, NZ->NZ; mat adds ND->NZ, DN->ZN (a5: DN->NZ and MX scales)",
         "%s view into a %s %s tile is not a supported pair on %s", layout_name[p->src.layout], mat ? "mat" : "vec",
         pt_tile_kind_name(g.kind), x->m->prof->name);
  PT_TRY(tload_rules(x, p, &g, mat));

  xctx c = {&p->src, &g, {0}, !mat && is_a5(x)};
  for (int d = 0; d < PTOSIM_VIEW_DIMS; d++) c.T[d] = p->src.stride[d] * g.es;
  plan pl = {0};
  PT_TRY(fn(x, &c, &pl));
  bool line = g.kind == PT_TK_ND || g.kind == PT_TK_DN, one_line = g.kind == PT_TK_ND ? g.rows == 1 : g.cols == 1;
  if (mat && line && (is_a5(x) || one_line)) pl.m[0].zlen = line_tail(&g, pl.m[0].len);

  uint8_t *t, pat[BLK];
  PT_TRY(pt_tile_at(x, x->core, p->dst.space, p->dst.addr, 0, PT_WRITE, &t));
  PT_TRY(plan_map(x, &pl, p->src.addr, p->dst.space, p->dst.addr, true, PT_READ));
  bool pad = p->dst.pad != PTOSIM_PAD_NULL;
  if (pad) PT_TRY(pt_span(x, p->dst.space, p->dst.addr, (uint64_t)t_bytes(&g), 1, PT_WRITE, &t));
  plan_copy(&pl, true, PTOSIM_DT_NONE);
  if (!pad) return PTOSIM_OK;
  pt_tile_pad_pattern(p->dst.dtype, p->dst.pad, pat);
  fill_pad(&g, t, pat);
  return PTOSIM_OK;
}

/* ==== TSTORE ================================================================================ */

/* Vec (UB, MTE3) and, on A2/A3, Mat (L1) tiles: the same-layout pairs of TLOAD in reverse
 * (pto-isa memory/tstore_common.hpp TStoreUb2gm*, TStoreMat2Gm*; register/tstore_common.hpp). */
static ptosim_status tstore_tile(pt_ctx *x, const ptosim_tstore_params *p, const tgeo *g, bool mat) {
  const ptosim_gm_view *v = &p->dst;
  VERIFY(x, p->relu == PTOSIM_RELU_NONE && !p->has_quant_scalar && p->phase == PTOSIM_UNIT_FLAG_NONE, "acc_only",
         "relu, pre-quant scalar and store phase apply to acc tiles only", "%s tile store with an acc-only operand",
         mat ? "mat" : "vec");
  plan_fn fn = find_pair(v->layout, g->kind, W_VEC);
  VERIFY(x, fn, "layout_pair", "store ND -> ND, DN -> DN or NZ -> NZ",
         "%s %s tile into a %s view is not a supported pair", mat ? "mat" : "vec", pt_tile_kind_name(g->kind),
         layout_name[v->layout]);
  VERIFY(x, g->es != 8 || g->kind != PT_TK_NZ, "b64_layout", "store 64-bit elements ND -> ND or DN -> DN",
         "64-bit elements from an NZ tile");
  const int64_t *s = v->shape;
  if (!is_a5(x)) { /* 12-bit burst counts; copy_cbuf_to_gm moves whole 32-byte blocks */
    PT_TRY(in_range(x, "bursts", g->kind == PT_TK_ND ? s[3] : g->kind == PT_TK_DN ? s[4] : s[1], 1, 4095));
    if (mat && g->kind != PT_TK_NZ)
      VERIFY(x, (g->kind == PT_TK_ND ? s[4] : s[3]) * g->es % BLK == 0, "mat_align",
             "store whole 32-byte L1 lines on a2a3", "an L1 line of %" PRId64 " bytes is not a multiple of 32",
             (g->kind == PT_TK_ND ? s[4] : s[3]) * g->es);
  } else if (g->kind != PT_TK_NZ) { /* A5 CheckStaticVec: 32-byte lines, or a single column (row) */
    int64_t line = g->kind == PT_TK_ND ? g->cols : g->rows, other = g->kind == PT_TK_ND ? g->rows : g->cols;
    VERIFY(x, line * g->es % BLK == 0 || (line == 1 && other * g->es % BLK == 0), "tile_align",
           "a5 stores 32-byte UB lines (or one 32-byte column)", "%s tile %" PRId64 "x%" PRId64 " has unaligned lines",
           pt_tile_kind_name(g->kind), g->rows, g->cols);
  }
  ptosim_dtype add = PTOSIM_DT_NONE;
  if (p->atomic == PTOSIM_ATOMIC_ADD) add = p->src.dtype;
  xctx c = {v, g, {0}, false};
  for (int d = 0; d < PTOSIM_VIEW_DIMS; d++) c.T[d] = v->stride[d] * g->es;
  plan pl = {0};
  PT_TRY(fn(x, &c, &pl));
  uint8_t *t;
  PT_TRY(pt_tile_at(x, x->core, p->src.space, p->src.addr, 0, PT_READ, &t));
  PT_TRY(plan_map(x, &pl, v->addr, p->src.space, p->src.addr, false, add ? PT_RW | PT_ATOMIC : PT_WRITE));
  plan_copy(&pl, false, add);
  return PTOSIM_OK;
}

/* Accumulator -> GM type pairs and their FIXPIPE pre_quant modes (tstore.md tables; pto-isa
 * a2a3/common.hpp GetCastPreQuantMode / GetScalarPreQuantMode / GetVectorPreQuantMode,
 * a5/TStore.hpp Get*PreQuantModeGm, CheckAcc2gm / CheckStaticAcc). cast: the plain
 * TSTORE(dst, acc); a2: the quantizing pair exists on A2/A3 too. */
static const struct {
  ptosim_dtype acc, dst;
  bool cast, a2;
  ptosim_quant_mode cast_mode, vec; /* vec + 1 is the _scalar mode */
} k_acc[] = {
    {PTOSIM_DT_F32, PTOSIM_DT_F32, true, false, PTOSIM_QUANT_NONE, PTOSIM_QUANT_QF322F32_PRE_VEC},
    {PTOSIM_DT_F32, PTOSIM_DT_F16, true, false, PTOSIM_QUANT_F32_F16, PTOSIM_QUANT_QF322F16_PRE_VEC},
    {PTOSIM_DT_F32, PTOSIM_DT_BF16, true, false, PTOSIM_QUANT_F32_BF16, PTOSIM_QUANT_QF322BF16_PRE_VEC},
    {PTOSIM_DT_F32, PTOSIM_DT_I8, false, true, 0, PTOSIM_QUANT_QF322B8_PRE_VEC},
    {PTOSIM_DT_F32, PTOSIM_DT_U8, false, true, 0, PTOSIM_QUANT_QF322B8_PRE_VEC},
    {PTOSIM_DT_F32, PTOSIM_DT_HIF8, false, false, 0, PTOSIM_QUANT_QF322HIF8_PRE_VEC},
    {PTOSIM_DT_F32, PTOSIM_DT_F8E4M3, false, false, 0, PTOSIM_QUANT_QF322FP8_PRE_VEC},
    {PTOSIM_DT_I32, PTOSIM_DT_I32, true, false, PTOSIM_QUANT_NONE, PTOSIM_QUANT_NONE},
    {PTOSIM_DT_I32, PTOSIM_DT_I8, false, true, 0, PTOSIM_QUANT_REQ8_VEC},
    {PTOSIM_DT_I32, PTOSIM_DT_U8, false, true, 0, PTOSIM_QUANT_REQ8_VEC},
    {PTOSIM_DT_I32, PTOSIM_DT_F16, false, true, 0, PTOSIM_QUANT_DEQF16_VEC},
    {PTOSIM_DT_I32, PTOSIM_DT_BF16, false, false, 0, PTOSIM_QUANT_QS322BF16_PRE_VEC},
};

/* The pre_quant mode of an acc store: cast (none), scalar word or fp tile (vector). */
static ptosim_status acc_mode(pt_ctx *x, ptosim_dtype acc, ptosim_dtype dst, int quant, ptosim_quant_mode *mode) {
  for (size_t i = 0; i < sizeof k_acc / sizeof k_acc[0]; i++) {
    if (k_acc[i].acc != acc || k_acc[i].dst != dst) continue;
    bool ok = quant ? k_acc[i].vec != PTOSIM_QUANT_NONE && (is_a5(x) || k_acc[i].a2) : k_acc[i].cast;
    if (!ok) break;
    *mode = !quant ? k_acc[i].cast_mode : (ptosim_quant_mode)(k_acc[i].vec + (quant == 1));
    return PTOSIM_OK;
  }
  return pt_fail(x, PTOSIM_E_VERIFY, RULE(x, "acc_dtype"),
                 "acc stores: f32 -> f32/f16/bf16, i32 -> i32; quantized: f32 -> i8/u8 (a5: + f16/bf16/f32/hif8/fp8), "
                 "i32 -> i8/u8/f16 (a5: + bf16)",
                 "%s store of a %s accumulator into %s is not supported on %s",
                 quant == 1 ? "scalar-quantized"
                 : quant    ? "vector-quantized"
                            : "plain",
                 pt_dtype_name(acc), pt_dtype_name(dst), x->m->prof->name);
}

/* Shape and view rules of an acc store; sets the NZ block width (0 for ND). */
static ptosim_status acc_view(pt_ctx *x, const ptosim_tstore_params *p, const tgeo *g, int64_t *w) {
  const ptosim_gm_view *v = &p->dst;
  const int64_t *s = v->shape, *st = v->stride;
  bool nd = v->layout == PTOSIM_GL_ND;
  VERIFY(x, g->kind == PT_TK_NZ && p->src.fractal == 1024 && (g->es == 4), "acc_layout",
         "an acc tile is f32 / i32 in 16x16 boxes (blayout col_major, slayout row_major, fractal 1024)",
         "acc tile %s with fractal %d", pt_tile_kind_name(g->kind), p->src.fractal);
  VERIFY(x, nd || v->layout == PTOSIM_GL_NZ, "layout_pair", "acc tiles store into ND or NZ views",
         "acc tile into a %s view", layout_name[v->layout]);
  PT_TRY(in_range(x, "tile cols", g->cols, 1, 4095));
  PT_TRY(in_range(x, "tile rows", g->rows, 1, nd ? 8192 : 65535));
  *w = 0;
  if (nd) {
    PT_TRY(want_2d(x, v));
    PT_TRY(want_valid(x, g, s[3], s[4], "shape[3]", "shape[4]"));
    PT_TRY(want_stride(x, v, 4, 1));
    /* No 32-byte rule on the destination row (docs/spec-notes.md 34, "acc -> ND rows"): the
     * NPU's acc check (a5 TStore.hpp CheckStaticAcc) has none; tstore.md's "ND row-major
     * width in bytes must be a multiple of 32" is met by the acc tile's own rows. */
    return PTOSIM_OK;
  }
  /* NZ: fractal rows of C0 = 32 / es elements; f32 also 16 (64-byte rows) or 8 (channel
   * split), i32 16 (TStoreAccNz2nz / TStoreAccNZ static checks). */
  unsigned des = pt_dtype_size(v->dtype);
  bool f32 = v->dtype == PTOSIM_DT_F32, i32 = v->dtype == PTOSIM_DT_I32;
  VERIFY(x,
         s[3] == 16 && (i32   ? s[4] == 16
                        : f32 ? (s[4] == 8 || s[4] == 16)
                              : s[4] == BLK / des),
         "view_shape", "acc -> NZ views are {.., .., rows / 16, 16, C0}: C0 = 32 / es, f32 8 or 16, i32 16",
         "NZ view inner shape %" PRId64 "x%" PRId64 " for %s", s[3], s[4], pt_dtype_name(v->dtype));
  PT_TRY(want_valid(x, g, mul(s[2], 16), mul(mul(s[0], s[1]), s[4]), "shape[2] * 16", "shape[0..1] * shape[4]"));
  /* The FIXPIPE derives the column-block pitch from the shape (valid_rows * C0), so the
   * view must be packed. */
  PT_TRY(want_stride(x, v, 4, 1));
  PT_TRY(want_stride(x, v, 3, s[4]));
  PT_TRY(want_stride(x, v, 2, 16 * s[4]));
  PT_TRY(want_stride(x, v, 1, g->vr * s[4]));
  PT_TRY(want_stride(x, v, 0, s[1] * st[1]));
  if (!is_a5(x))
    VERIFY(x, g->cols % 16 == 0 && g->vc % 16 == 0, "acc_shape", "a2a3 acc -> NZ stores whole 16-column blocks",
           "valid columns %" PRId64 " are not a multiple of 16", g->vc);
  *w = s[4];
  return PTOSIM_OK;
}

/* Acc (L0C) tiles: the FIXPIPE writeback of fixpipe.c (pipe FIX). ND: nz2nd with the view's
 * row stride. NZ: f32 by nz2nz (split for 8-wide blocks); other types one nz2nd store per
 * C0 column block (the FIXPIPE nz2nz of fixpipe.c writes f32 only), whose per-channel
 * parameters start at the block's first column. */
static ptosim_status tstore_acc(pt_ctx *x, const ptosim_tstore_params *p, const tgeo *g, bool fp) {
  const ptosim_gm_view *v = &p->dst;
  int quant = fp ? 2 : p->has_quant_scalar ? 1 : 0;
  ptosim_quant_mode mode = PTOSIM_QUANT_NONE;
  int64_t w;
  pt_set_pipe(x, PTOSIM_PIPE_FIX);
  VERIFY(x, p->src.dtype == PTOSIM_DT_F32 || p->src.dtype == PTOSIM_DT_I32, "acc_dtype", "accumulators are f32 or i32",
         "acc tile of %s", pt_dtype_name(p->src.dtype));
  PT_TRY(acc_mode(x, p->src.dtype, v->dtype, quant, &mode));
  PT_TRY(acc_view(x, p, g, &w));
  VERIFY(x,
         p->relu == PTOSIM_RELU_NONE || p->relu == PTOSIM_RELU_NO_RELU || p->relu == PTOSIM_RELU_NORMAL ||
             p->relu == PTOSIM_RELU_SCALAR || p->relu == PTOSIM_RELU_VECTOR,
         "relu", "use no_relu or normal_relu", "invalid relu mode %d", (int)p->relu);
  if (p->relu == PTOSIM_RELU_SCALAR || p->relu == PTOSIM_RELU_VECTOR)
    return pt_fail(x, PTOSIM_E_UNSUPPORTED, RULE(x, "relu"), "use no_relu or normal_relu",
                   "relu mode %d takes its alpha from FIXPIPE state that TSTORE does not set", (int)p->relu);
  VERIFY(x, p->atomic == PTOSIM_ATOMIC_NONE || p->atomic == PTOSIM_ATOMIC_ADD, "atomic", "atomic_none or atomic_add",
         "atomic mode %d", (int)p->atomic);
  VERIFY(x,
         p->phase == PTOSIM_UNIT_FLAG_NONE || p->phase == PTOSIM_UNIT_FLAG_CHECK_ONLY ||
             p->phase == PTOSIM_UNIT_FLAG_CHECK_AND_CLEAR,
         "phase", "stPhase is unspecified (NONE), partial (CHECK_ONLY) or final (CHECK_AND_CLEAR)", "store phase %d",
         (int)p->phase);
  ptosim_fixpipe_params f;
  memset(&f, 0, sizeof f);
  f.src = ptosim_ptr_make(PTOSIM_L0C, p->src.dtype, p->src.addr);
  f.dst = ptosim_ptr_make(PTOSIM_GM, v->dtype, v->addr);
  f.m = g->vr, f.n = g->vc;
  f.src_stride = p->src.compact == 1 ? (int64_t)pt_align_up((uint64_t)g->vr, 16) : g->rows; /* CompactMode::Normal */
  PT_TRY(pt_acc_pitch_check(x, RULE(x, "acc_pitch"), &p->src, f.src_stride));
  f.unit_flag = p->phase;
  f.quant = mode;
  f.relu = p->relu;
  f.atomic = p->atomic;
  f.atomic_type = p->atomic ? v->dtype : PTOSIM_DT_NONE;
  pt_fq_param word = pt_fq_decode(p->quant_scalar);
  if (mode != PTOSIM_QUANT_NONE && quant != 2) /* the f32_f16 / f32_bf16 casts take an unused payload too */
    f.quant_scalar = (ptosim_scalar){PTOSIM_DT_F32, 0};
  if (quant == 2) f.quant_vec = ptosim_ptr_make(PTOSIM_FB, PTOSIM_DT_F32, p->fp.addr);
  const pt_fq_param *qw = quant == 1 ? &word : NULL;
  f.layout = w == 8 || (w && v->dtype == PTOSIM_DT_F32) ? PTOSIM_FIX_NZ2NZ : PTOSIM_FIX_NZ2ND;
  f.split = w == 8;
  f.dst_stride = !w ? v->stride[3] : f.layout == PTOSIM_FIX_NZ2NZ ? v->stride[1] : w;
  if (!w || f.layout == PTOSIM_FIX_NZ2NZ) return pt_fixpipe_gm(x, &f, qw);
  f.n = w;
  for (int64_t j = 0; j < g->vc / w; j++) {
    ptosim_fixpipe_params b = f;
    b.src.addr += (uint64_t)(j * w / 16 * f.src_stride * 64);
    b.dst.addr += (uint64_t)(j * v->stride[1]) * pt_dtype_size(v->dtype);
    b.quant_vec.addr += (uint64_t)(j * w * 8);
    PT_TRY(pt_fixpipe_gm(x, &b, qw));
  }
  return PTOSIM_OK;
}

/* TSTORE element types: tload's list (tstore.md: A5 vec adds the 8-bit floats). */
static ptosim_status tstore_common(pt_ctx *x, const ptosim_tstore_params *p, tgeo *g, bool *acc) {
  PT_TRY(check_dtype(x, p->src.dtype));
  PT_TRY(tile_geo(x, "src", &p->src, g));
  ptosim_space sp = p->src.space;
  *acc = sp == PTOSIM_L0C; /* the FIXPIPE converts: any byte-sized view type, checked per pair */
  PT_TRY(check_view(x, &p->dst, *acc && pt_dtype_size(p->dst.dtype) ? pt_dtype_size(p->dst.dtype) : g->es, is_empty(g)));
  VERIFY(x, sp == PTOSIM_UB || sp == PTOSIM_L0C || (sp == PTOSIM_L1 && !is_a5(x)), "loc",
         "store a vec (UB) or acc (L0C) tile (a2a3 also mat)", "source tile in %s on %s", pt_space_name(sp),
         x->m->prof->name);
  return check_unit(x, "source", sp);
}

ptosim_status pt_exec_tstore(pt_ctx *x, const ptosim_tstore_params *p) {
  tgeo g;
  bool acc;
  if (p->has_fp) return pt_exec_tstore_fp(x, p); /* PTOAS's `ins(%acc fp %fp)` form */
  PT_TRY(tstore_common(x, p, &g, &acc));
  if (is_empty(&g)) return empty_move(x, &p->dst, &g, &p->src, PT_READ);
  if (acc) return tstore_acc(x, p, &g, false);
  VERIFY(x, p->atomic == PTOSIM_ATOMIC_NONE || p->atomic == PTOSIM_ATOMIC_ADD, "atomic", "atomic_none or atomic_add",
         "atomic mode %d", (int)p->atomic);
  /* MTE3 atomic add types (SetAtomicAdd of both targets; tstore.md lists acc only, pto-isa
   * TSTORE_IMPL and TPUT also use it on vec tiles). */
  ptosim_dtype t = p->src.dtype;
  VERIFY(x,
         !p->atomic || t == PTOSIM_DT_F32 || t == PTOSIM_DT_F16 || t == PTOSIM_DT_BF16 || t == PTOSIM_DT_I32 ||
             t == PTOSIM_DT_I16 || t == PTOSIM_DT_I8,
         "atomic_dtype", "atomic add stores f32, f16, bf16, i32, i16 or i8", "atomic add of %s", pt_dtype_name(t));
  return tstore_tile(x, p, &g, p->src.space == PTOSIM_L1);
}

/* TSTORE_FP: an acc tile quantized per column by the 64-bit words of a scaling tile in FB
 * (set_fpc takes the tile address >> 7, so the tile sits on a 128-byte FB row: mem.align). */
ptosim_status pt_exec_tstore_fp(pt_ctx *x, const ptosim_tstore_params *p) {
  tgeo g, f;
  bool acc;
  VERIFY(x, p->src.space == PTOSIM_L0C, "loc", "tstore_fp stores acc (L0C) tiles", "source tile in %s",
         pt_space_name(p->src.space));
  PT_TRY(tstore_common(x, p, &g, &acc));
  if (is_empty(&g)) return empty_move(x, &p->dst, &g, &p->src, PT_READ); /* refused: an acc tile */
  VERIFY(x, !p->has_quant_scalar, "quant_mix", "tstore_fp takes its parameters from the fp tile only",
         "a pre-quant scalar given to tstore_fp");
  PT_TRY(tile_geo(x, "fp", &p->fp, &f));
  VERIFY(x, p->fp.space == PTOSIM_FB && f.es == 8, "fp_tile", "the fp operand is a scaling tile of 64-bit words in FB",
         "fp tile of %s in %s", pt_dtype_name(p->fp.dtype), pt_space_name(p->fp.space));
  VERIFY(x, f.vc >= g.vc, "fp_tile", "the fp tile holds one word per stored column",
         "fp tile of %" PRId64 " valid columns for %" PRId64 " stored columns", f.vc, g.vc);
  return tstore_acc(x, p, &g, true);
}

/* ==== TPREFETCH ============================================================================= */

/* Stage n rows of len bytes (GM rows gs bytes apart) at the tile base, rows packed at the
 * next 32-byte boundary (the UB row alignment of the GM -> UB DMA). */
static void stage_rows(uint8_t *t, const uint8_t *g, int64_t n, int64_t gs, int64_t len) {
  int64_t pitch = (int64_t)pt_align_up((uint64_t)len, BLK);
  for (int64_t r = 0; r < n; r++) memcpy(t + r * pitch, g + r * gs, (size_t)len);
}

/* TPREFETCH: every 2-D slice (i0, i1, i2) of the view is staged at the start of the vec tile
 * in program order, later slices over earlier ones (pto-isa a2a3/a5 TPrefetch.hpp): a slice
 * that fits the tile's bytes is one copy of shape[3] rows of shape[4] elements; a larger
 * slice goes in chunks of at most `rows` rows by one tile row of bytes, each chunk again at
 * the tile start. The view's element type sets the row bytes; no layout or type pairing is
 * required. Rows land 32-byte aligned (A5 asks for a packed UB stride, which the GM -> UB DMA
 * accepts only as a multiple of 32). */
ptosim_status pt_exec_tprefetch(pt_ctx *x, const ptosim_tload_params *p) {
  tgeo g;
  const ptosim_gm_view *v = &p->src;
  PT_TRY(tile_geo(x, "dst", &p->dst, &g));
  if (p->dst.space == PTOSIM_L1)
    return pt_fail(x, PTOSIM_E_UNSUPPORTED, RULE(x, "loc"), "prefetch into a vec tile",
                   "the TPREFETCH of both targets stages data in UB only; a mat tile has no such path");
  VERIFY(x, p->dst.space == PTOSIM_UB, "loc", "prefetch into a vec (UB) tile", "destination tile in %s",
         pt_space_name(p->dst.space));
  PT_TRY(check_unit(x, "destination", p->dst.space));
  unsigned ves = pt_dtype_size(v->dtype);
  VERIFY(x, ves, "dtype", "give the view a byte-sized element type", "view element type %s", pt_dtype_name(v->dtype));
  PT_TRY(check_view(x, v, ves, false));
  PT_TRY(want_stride(x, v, 4, 1));
  const int64_t *s = v->shape, tb = t_bytes(&g), rowb = g.cols * g.es, maxc = rowb / ves;
  VERIFY(x, maxc >= 1, "tile_shape", "a tile row holds at least one view element",
         "tile rows of %" PRId64 " bytes are narrower than a %s element", rowb, pt_dtype_name(v->dtype));
  bool fits = s[3] * s[4] * (int64_t)ves <= tb;
  if (fits && s[3] * (int64_t)pt_align_up((uint64_t)(s[4] * ves), BLK) > tb)
    return pt_fail(x, PTOSIM_E_FAULT, RULE(x, "overflow"), "use a tile whose rows are as wide as the view's rows",
                   "%" PRId64 " staged rows of %" PRId64 " bytes, 32-byte aligned, run past the %" PRId64 "-byte tile",
                   s[3], s[4] * (int64_t)ves, tb);
  int64_t T[PTOSIM_VIEW_DIMS];
  for (int d = 0; d < PTOSIM_VIEW_DIMS; d++) T[d] = v->stride[d] * ves;
  uint8_t *gm, *t;
  PT_TRY(pt_region(x, PTOSIM_GM, v->addr, 4, s, T, (uint64_t)(s[4] * ves), 1, PT_READ, &gm));
  PT_TRY(pt_tile_at(x, x->core, PTOSIM_UB, p->dst.addr, (uint64_t)tb, PT_WRITE, &t));
  for (int64_t i0 = 0; i0 < s[0]; i0++)
    for (int64_t i1 = 0; i1 < s[1]; i1++)
      for (int64_t i2 = 0; i2 < s[2]; i2++) {
        const uint8_t *b = gm + i0 * T[0] + i1 * T[1] + i2 * T[2];
        if (fits) {
          stage_rows(t, b, s[3], T[3], s[4] * ves);
          continue;
        }
        for (int64_t r = 0; r < s[3]; r += g.rows)
          for (int64_t c = 0; c < s[4]; c += maxc)
            stage_rows(t, b + r * T[3] + c * ves, s[3] - r < g.rows ? s[3] - r : g.rows, T[3],
                       (s[4] - c < maxc ? s[4] - c : maxc) * ves);
      }
  return PTOSIM_OK;
}

/* TPREFETCH_ASYNC: an SDMA cache-maintenance prefetch of a flat contiguous view into L2
 * (tprefetch-async.md, pto-isa comm/async/sdma/TPrefetchAsyncImpl.hpp). Values never change;
 * ptosim checks the operands and records the GM read. */
ptosim_status pt_exec_tprefetch_async(pt_ctx *x, const ptosim_tprefetch_async_params *p) {
  const ptosim_gm_view *v = &p->src;
  unsigned es = pt_dtype_size(v->dtype);
  VERIFY(x, es, "dtype", "give the view a byte-sized element type", "view element type %s", pt_dtype_name(v->dtype));
  PT_TRY(check_view(x, v, es, false));
  const int64_t *s = v->shape, *st = v->stride;
  VERIFY(x,
         s[0] == 1 && s[1] == 1 && s[2] == 1 && s[3] == 1 && st[4] == 1 && st[3] == s[4] && st[2] == st[3] &&
             st[1] == st[2] && st[0] == st[1],
         "view", "prefetch a packed 1-D view {1, 1, 1, 1, n} with strides {n, n, n, n, 1}",
         "the view is not flat and contiguous (shape %" PRId64 "x%" PRId64 "x%" PRId64 "x%" PRId64 "x%" PRId64 ")",
         s[0], s[1], s[2], s[3], s[4]);
  VERIFY(x, p->workspace, "workspace", "build the context from the SDMA workspace prepared by the host",
         "the prefetch context has no SDMA workspace");
  uint8_t *h;
  PT_TRY(pt_span(x, PTOSIM_GM, v->addr, (uint64_t)(s[4] * es), 1, PT_READ, &h));
  if (p->event) *p->event = PTOSIM_ASYNC_EVENT_DONE;
  return PTOSIM_OK;
}

/* ==== MGATHER / MSCATTER ===================================================================== */

/* Index policies of both ops: use as is, clamp, wrap, or drop the element (gather ZERO writes
 * zeros, scatter SKIP writes nothing). */
enum { IX_UNDEF, IX_CLAMP, IX_WRAP, IX_DROP };

typedef struct ix {
  bool gather, row, nz;
  ptosim_atomic_op atomic;
  ptosim_dtype dt;
  int oob;
  tgeo d, i; /* data tile, index tile */
  const ptosim_gm_view *v;
  int64_t T[PTOSIM_VIEW_DIMS]; /* view strides, bytes */
  int64_t cap, ncols, rowb;    /* capacity (rows or elements), NZ logical columns, ND row pitch */
  uint8_t *dh, *ih, *gh;       /* host bytes: data tile, index tile, GM at gmin */
  int64_t gmin, gmax;          /* GM byte range touched, from the table base */
} ix;

/* a * b for offsets, saturated at 2^62 (an access there fails the bounds check). */
static int64_t smul(int64_t a, int64_t b) { return b && a > (INT64_MAX / 2) / b ? INT64_MAX / 2 : a * b; }

/* Index k of the item at (r, c): row mode reads idx[r] of the [1, R] / [R, 1] index tile. */
static uint32_t ix_raw(const ix *s, int64_t r, int64_t c) {
  int64_t off = !s->row ? t_off(&s->i, r, c) : s->i.kind == PT_TK_ND ? t_off(&s->i, 0, r) : t_off(&s->i, r, 0);
  uint32_t k;
  memcpy(&k, s->ih + off, 4);
  return k;
}

static int64_t ix_remap(const ix *s, uint32_t k, bool *drop) {
  *drop = s->oob == IX_DROP && k >= s->cap;
  if (s->oob == IX_CLAMP && k >= s->cap) return s->cap - 1;
  return s->oob == IX_WRAP ? k % s->cap : k;
}

/* GM offset of logical NZ table element (lr, lc): C0 column block lc / C0 split over
 * dimensions 0 and 1 (pto-isa a2a3 MGatherNZGmOffset). */
static int64_t nz_off(const ix *s, int64_t lr, int64_t lc) {
  int64_t cw = BLK / s->d.es, cb = lc / cw, s1 = s->v->shape[1];
  return smul(cb / s1, s->T[0]) + smul(cb % s1, s->T[1]) + smul(lr / 16, s->T[2]) + (lr % 16) * s->T[3] +
         (lc % cw) * s->T[4];
}

typedef void (*ix_fn)(ix *s, int64_t go, int64_t to, int64_t n, bool drop);

/* Visit every piece in program order (row-major over the index tile): n elements at GM byte
 * offset go (from the table base) and data tile byte offset to. ROW moves table row k to tile
 * row r: ND tables vc elements (one piece for ND tiles, elementwise for DN tiles); NZ tables
 * the 32-byte row of every column block (a2a3 MGatherRowNzImpl). ELEM moves one element:
 * k is the element offset from the table base (ND) or a logical row-major index (NZ). */
static void ix_walk(ix *s, ix_fn fn) {
  int64_t es = s->d.es, cw = BLK / es, nb = s->v->shape[0] * s->v->shape[1];
  for (int64_t r = 0; r < s->d.vr; r++) {
    if (s->row) {
      bool drop;
      int64_t k = ix_remap(s, ix_raw(s, r, 0), &drop);
      if (s->nz)
        for (int64_t b = 0; b < nb; b++) fn(s, nz_off(s, k, b * cw), b * s->d.rows * BLK + r * BLK, cw, drop);
      else if (s->d.kind == PT_TK_ND)
        fn(s, smul(k, s->rowb), t_off(&s->d, r, 0), s->d.vc, drop);
      else
        for (int64_t c = 0; c < s->d.vc; c++) fn(s, smul(k, s->rowb) + c * es, t_off(&s->d, r, c), 1, drop);
      continue;
    }
    for (int64_t c = 0; c < s->d.vc; c++) {
      bool drop;
      int64_t k = ix_remap(s, ix_raw(s, r, c), &drop);
      fn(s, s->nz ? nz_off(s, k / s->ncols, k % s->ncols) : smul(k, es), t_off(&s->d, r, c), 1, drop);
    }
  }
}

static void ix_bounds(ix *s, int64_t go, int64_t to, int64_t n, bool drop) {
  (void)to;
  if (drop) return;
  int64_t end = go + n * s->d.es;
  if (go < s->gmin) s->gmin = go;
  if (end > s->gmax) s->gmax = end;
}

static void ix_move(ix *s, int64_t go, int64_t to, int64_t n, bool drop) {
  size_t len = (size_t)(n * s->d.es);
  uint8_t *t = s->dh + to;
  if (drop) {
    if (s->gather) memset(t, 0, len);
    return;
  }
  uint8_t *g = s->gh + (go - s->gmin);
  if (s->gather)
    memcpy(t, g, len);
  else if (s->atomic == PTOSIM_ATOMIC_NONE)
    memcpy(g, t, len);
  else
    for (size_t k = 0; k < len; k += s->d.es) pt_fq_atomic(s->dt, s->atomic, g + k, t + k);
}

/* Map the valid region of an ND, DN or NZ tile (one strided region). */
static ptosim_status map_valid(pt_ctx *x, const ptosim_tile *t, const tgeo *g, pt_access acc, uint8_t **h) {
  int64_t cnt, pitch, len;
  if (g->kind == PT_TK_NZ)
    cnt = (g->vc + g->ic - 1) / g->ic, pitch = g->rows * BLK, len = g->vr * BLK;
  else if (g->kind == PT_TK_ND)
    cnt = g->vr, pitch = g->cols * g->es, len = g->vc * g->es;
  else
    cnt = g->vc, pitch = g->rows * g->es, len = g->vr * g->es;
  return pt_region(x, t->space, t->addr, 1, &cnt, &pitch, (uint64_t)len, x->m->prof->align[t->space], acc, h);
}

/* Element types of the gathers and scatters (MGatherCheck / MScatterCheck / MGatherCheckGm2L1). */
static ptosim_status gather_dtype(pt_ctx *x, ptosim_dtype t) {
  bool f8 = t == PTOSIM_DT_HIF8 || t == PTOSIM_DT_F8E4M3 || t == PTOSIM_DT_F8E5M2;
  VERIFY(x,
         t == PTOSIM_DT_I8 || t == PTOSIM_DT_U8 || t == PTOSIM_DT_I16 || t == PTOSIM_DT_U16 || t == PTOSIM_DT_I32 ||
             t == PTOSIM_DT_U32 || t == PTOSIM_DT_F16 || t == PTOSIM_DT_BF16 || t == PTOSIM_DT_F32 || (f8 && is_a5(x)),
         "dtype", "use i8/u8/i16/u16/i32/u32/f16/bf16/f32 (a5 also hif8, f8E4M3FN, f8E5M2)", "element type %s on %s",
         pt_dtype_name(t), x->m->prof->name);
  return PTOSIM_OK;
}

/* Operand rules shared by both ops (mgather.md / mscatter.md "Tile Constraints", pto-isa
 * a2a3 MGatherCheck / MScatterCheck, a5 MGatherCheck / MScatterCheck). */
static ptosim_status ix_setup(pt_ctx *x, ix *s, const ptosim_gm_view *v, const ptosim_tile *data, const char *dname,
                              const ptosim_tile *idx, ptosim_coalesce co, int oob) {
  ptosim_dtype t = data->dtype;
  PT_TRY(gather_dtype(x, t));
  PT_TRY(tile_geo(x, dname, data, &s->d));
  PT_TRY(tile_geo(x, "idx", idx, &s->i));
  VERIFY(x, data->space == PTOSIM_UB && idx->space == PTOSIM_UB, "loc", "data and index tiles are vec (UB) tiles",
         "%s tile in %s, index tile in %s", dname, pt_space_name(data->space), pt_space_name(idx->space));
  PT_TRY(check_unit(x, dname, data->space));
  VERIFY(x, idx->dtype == PTOSIM_DT_I32 || idx->dtype == PTOSIM_DT_U32, "idx_dtype", "indices are i32 or u32",
         "index tile of %s", pt_dtype_name(idx->dtype));
  PT_TRY(check_view(x, v, s->d.es, false));
  VERIFY(x, (unsigned)co <= PTOSIM_COALESCE_ELEM && (unsigned)oob <= 3, "mode",
         "use the enumerators of ptosim/tile_move.h", "coalesce %d / oob %d", (int)co, oob);
  s->v = v, s->dt = t, s->row = co == PTOSIM_COALESCE_ROW, s->nz = v->layout == PTOSIM_GL_NZ;
  for (int d = 0; d < PTOSIM_VIEW_DIMS; d++) s->T[d] = v->stride[d] * s->d.es;
  /* Layout pairs: a2a3 ND table + ND tile or NZ table + NZ tile, ND index; a5 ND table with
   * ND or DN tiles and indices. */
  pt_tile_kind dk = s->d.kind, ik = s->i.kind;
  bool pair = is_a5(x)
                  ? v->layout == PTOSIM_GL_ND && (dk == PT_TK_ND || dk == PT_TK_DN)
                  : (v->layout == PTOSIM_GL_ND && dk == PT_TK_ND) || (s->nz && dk == PT_TK_NZ && data->fractal == 512);
  VERIFY(x, pair, "layout_pair", "a2a3: ND table + ND tile or NZ table + NZ tile; a5: ND table + ND / DN tile",
         "%s table with a %s %s tile on %s", layout_name[v->layout], pt_tile_kind_name(dk), dname, x->m->prof->name);
  VERIFY(x, ik == PT_TK_ND || (is_a5(x) && ik == PT_TK_DN), "idx_layout", "index tiles are ND (a5 also DN)",
         "index tile %s", pt_tile_kind_name(ik));
  VERIFY(x, dk != PT_TK_ND || s->d.cols * s->d.es % BLK == 0, "tile_align", "data tile rows are whole 32-byte blocks",
         "%s tile row of %" PRId64 " bytes", dname, s->d.cols * s->d.es);
  VERIFY(x, dk != PT_TK_DN || s->d.rows * s->d.es % BLK == 0, "tile_align",
         "data tile columns are whole 32-byte blocks", "%s tile column of %" PRId64 " bytes", dname,
         s->d.rows * s->d.es);
  /* Index tile valid shape: ROW [1, R] (a5 also [R, 1] col-major), ELEM the data shape. */
  bool shape = s->row ? (ik == PT_TK_ND && s->i.vr == 1 && s->i.vc == s->d.vr) ||
                            (ik == PT_TK_DN && s->i.vc == 1 && s->i.vr == s->d.vr)
                      : s->i.vr == s->d.vr && s->i.vc == s->d.vc;
  VERIFY(x, shape, "idx_shape",
         s->row ? "row mode takes a [1, R] index tile (a5 also [R, 1] col-major)"
                : "elem mode takes an index tile of the data tile's valid shape",
         "index valid shape %" PRId64 "x%" PRId64 " for %s valid shape %" PRId64 "x%" PRId64, s->i.vr, s->i.vc, dname,
         s->d.vr, s->d.vc);
  const int64_t *sh = v->shape;
  int64_t cw = BLK / s->d.es;
  if (s->nz) { /* a2a3 NZ tables: {B, column blocks, row blocks, 16, C0} */
    VERIFY(x, sh[3] == 16 && sh[4] == cw && (!s->row || s->d.vc == sh[0] * sh[1] * cw), "table_shape",
           "NZ tables are {.., .., .., 16, 32 / es}; row mode moves all sh[0] * sh[1] * C0 columns",
           "NZ table inner shape %" PRId64 "x%" PRId64 ", %" PRId64 " column blocks for %" PRId64 " valid columns",
           sh[3], sh[4], sh[0] * sh[1], s->d.vc);
    s->ncols = sh[0] * sh[1] * cw;
    s->cap = s->row ? sh[2] * 16 : sh[2] * 16 * s->ncols;
  } else if (s->row && is_a5(x)) { /* a5 row kernel: packed rows of valid_cols, table rows = shape[3] */
    VERIFY(x, sh[0] == 1 && sh[1] == 1 && sh[2] == 1 && sh[4] == s->d.vc, "table_shape",
           "a5 row mode takes a {1, 1, 1, rows, valid_cols} table",
           "table shape[4] = %" PRId64 " for %" PRId64 " valid columns", sh[4], s->d.vc);
    PT_TRY(want_stride(x, v, 4, 1));
    PT_TRY(want_stride(x, v, 3, sh[4]));
    s->cap = sh[3];
  } else if (s->row) { /* a2a3 ND rows: table rows = shape[0..3], stride[3] apart */
    VERIFY(x, s->d.vc <= sh[4], "table_shape", "row mode moves at most a table row",
           "%" PRId64 " valid columns from table rows of %" PRId64, s->d.vc, sh[4]);
    PT_TRY(want_stride(x, v, 4, 1));
    s->cap = mul(mul(sh[0], sh[1]), mul(sh[2], sh[3]));
  } else {
    s->cap = mul(mul(mul(sh[0], sh[1]), mul(sh[2], sh[3])), sh[4]);
  }
  s->rowb = s->T[3];
  return PTOSIM_OK;
}

/* Map the tiles and the GM bounding box of every access (one checked range: the accesses
 * of an indexed op are data dependent), then walk. */
static ptosim_status ix_run(pt_ctx *x, ix *s, const ptosim_tile *data, const ptosim_tile *idx) {
  uint8_t *u;
  PT_TRY(map_valid(x, idx, &s->i, PT_READ, &s->ih));
  PT_TRY(map_valid(x, data, &s->d, s->gather ? PT_WRITE : PT_READ, &s->dh));
  s->gmin = INT64_MAX, s->gmax = 0;
  ix_walk(s, ix_bounds);
  /* Atomic at the memory side except an a2a3 Elem-mode scatter, a scalar read-add-write
   * per element (mscatter.md "Conflict Resolution"): that one is an ordinary read and write. */
  pt_access acc = s->gather ? PT_READ : !s->atomic ? PT_WRITE : s->row || is_a5(x) ? PT_RW | PT_ATOMIC : PT_RW;
  if (s->gmax > s->gmin)
    PT_TRY(pt_span(x, PTOSIM_GM, s->v->addr + (uint64_t)s->gmin, (uint64_t)(s->gmax - s->gmin), 1, acc, &s->gh));
  /* a2a3 NZ row ZERO pre-zeroes the whole destination tile (MGatherRowNzImpl). */
  if (s->gather && s->nz && s->row && s->oob == IX_DROP) {
    PT_TRY(pt_span(x, PTOSIM_UB, data->addr, (uint64_t)t_bytes(&s->d), 1, PT_WRITE, &u));
    memset(u, 0, (size_t)t_bytes(&s->d));
  }
  ix_walk(s, ix_move);
  return PTOSIM_OK;
}

/* Operand rules of the GM -> L1 gather (a2a3 / a5 MGather.hpp MGatherCheckGm2L1): an NZ mat
 * tile (fractal 512, rows % 16 == 0, cols % C0 == 0) of the vec form's types (a5 also the
 * 8-bit floats), an ND table of its element type, i32 / u32 GM indices; row mode copies whole
 * column blocks (vc % C0 == 0: the nd2nz tail of a partial block is not modelled). */
static ptosim_status l1_setup(pt_ctx *x, const ptosim_mgather_params *p, ix *s) {
  tgeo *d = &s->d;
  PT_TRY(tile_geo(x, "dst", &p->dst, d));
  PT_TRY(check_unit(x, "dst", p->dst.space));
  int64_t c0 = BLK / d->es;
  ptosim_dtype t = p->dst.dtype;
  PT_TRY(gather_dtype(x, t));
  VERIFY(x, d->kind == PT_TK_NZ && p->dst.fractal == 512 && d->rows % 16 == 0 && d->cols % c0 == 0, "l1_tile",
         "the mat tile is NZ (col_major, row_major boxes, fractal 512), rows % 16 == 0, cols % (32 / elem bytes) == 0",
         "%s mat tile %" PRId64 "x%" PRId64, pt_tile_kind_name(d->kind), d->rows, d->cols);
  PT_TRY(check_view(x, &p->table, d->es, false));
  PT_TRY(check_view(x, &p->idx_gm, 4, false));
  VERIFY(x, p->table.layout == PTOSIM_GL_ND && p->table.dtype == t, "layout_pair",
         "the table is an ND view of the tile's element type", "%s table of %s for a %s tile",
         layout_name[p->table.layout], pt_dtype_name(p->table.dtype), pt_dtype_name(t));
  VERIFY(x, p->idx_gm.dtype == PTOSIM_DT_I32 || p->idx_gm.dtype == PTOSIM_DT_U32, "idx_dtype", "indices are i32 or u32",
         "index view of %s", pt_dtype_name(p->idx_gm.dtype));
  const int64_t *sh = p->table.shape;
  s->row = p->coalesce == PTOSIM_COALESCE_ROW;
  s->cap = mul(mul(sh[0], sh[1]), mul(sh[2], sh[3]));
  s->rowb = p->table.stride[3] * d->es;
  if (!s->row) { /* the scratch: a GM view of the tile's type holding the whole tile */
    const ptosim_gm_view *w = &p->scratch;
    PT_TRY(check_view(x, w, d->es, false));
    int64_t have = mul(mul(mul(w->shape[0], w->shape[1]), mul(w->shape[2], w->shape[3])), w->shape[4]);
    VERIFY(x, w->dtype == t && have >= d->rows * d->cols, "scratch",
           "elem mode stages the whole tile in a GM scratch view of its element type",
           "scratch of %" PRId64 " %s elements for a %" PRId64 "x%" PRId64 " %s tile", have, pt_dtype_name(w->dtype),
           d->rows, d->cols, pt_dtype_name(t));
    return PTOSIM_OK;
  }
  VERIFY(x, d->vc % c0 == 0 && d->vc <= sh[4] && p->table.stride[4] == 1, "table_shape",
         "row mode moves whole 32-byte column blocks of at most a (contiguous) table row",
         "%" PRId64 " valid columns from table rows of %" PRId64 " (stride %" PRId64 ")", d->vc, sh[4],
         p->table.stride[4]);
  return PTOSIM_OK;
}

/* MGATHER GM -> L1 (a2a3 / a5 MGather.hpp MGatherGm2L1RowImpl / MGatherGm2L1ElemImpl, the cube
 * core's scalar loops and MTE2 copies; the indices are read from GM in order):
 *   row: tile row r = the first vc elements of table row remap(idx[r]) (rows stride[3] apart,
 *     shape[0..3] of them), nd2nz into the row's column blocks; ZERO zeroes the whole tile
 *     first (pto_create_cbuf_matrix), other modes leave the rows of dropped indices as they were;
 *   elem: scratch[0, rows * cols) = 0, scratch[NZ offset of (r, c)] = table[remap(idx[r *
 *     idx stride[3] + c])] (the table flat, shape[0..4] elements; dropped: 0), then the
 *     scratch image into the whole tile (one burst). */
static ptosim_status mgather_l1(pt_ctx *x, const ptosim_mgather_params *p, ix *s) {
  PT_TRY(l1_setup(x, p, s));
  const tgeo *d = &s->d;
  int64_t es = d->es, c0 = BLK / es, istep = s->row ? 1 : p->idx_gm.stride[3], n = t_bytes(d);
  if (!s->row) s->cap = mul(s->cap, p->table.shape[4]);
  uint8_t *ib, *tb, *db, *sb = NULL;
  int64_t icount = smul(d->vr - 1, istep) + (s->row ? 1 : d->vc), kmax = -1;
  PT_TRY(pt_span(x, PTOSIM_GM, p->idx_gm.addr, (uint64_t)smul(icount, 4), 1, PT_READ, &ib));
  for (int64_t r = 0; r < d->vr; r++) /* the GM span the gather reads: up to the largest index */
    for (int64_t c = 0; c < (s->row ? 1 : d->vc); c++) {
      uint32_t k;
      bool drop;
      memcpy(&k, ib + (r * istep + c) * 4, 4);
      int64_t m = ix_remap(s, k, &drop);
      if (!drop && m > kmax) kmax = m;
    }
  int64_t tlen = kmax < 0 ? 0 : s->row ? smul(kmax, s->rowb) + d->vc * es : smul(kmax + 1, es);
  if (tlen) PT_TRY(pt_span(x, PTOSIM_GM, p->table.addr, (uint64_t)tlen, 1, PT_READ, &tb));
  if (!s->row) {
    PT_TRY(pt_span(x, PTOSIM_GM, p->scratch.addr, (uint64_t)n, 1, PT_WRITE, &sb));
    memset(sb, 0, (size_t)n);
  } else if (s->oob == IX_DROP) {
    PT_TRY(pt_span(x, PTOSIM_L1, p->dst.addr, (uint64_t)n, 1, PT_WRITE, &db));
    memset(db, 0, (size_t)n);
  }
  for (int64_t r = 0; r < d->vr; r++)
    for (int64_t c = 0; c < d->vc; c += s->row ? c0 : 1) {
      uint32_t k;
      bool drop;
      memcpy(&k, ib + (r * istep + (s->row ? 0 : c)) * 4, 4);
      int64_t m = ix_remap(s, k, &drop), to = ((c / c0 * d->rows + r) * c0 + c % c0) * es;
      if (drop) continue;
      if (!s->row) {
        memcpy(sb + to, tb + m * es, (size_t)es);
        continue;
      }
      PT_TRY(pt_span(x, PTOSIM_L1, p->dst.addr + (uint64_t)to, BLK, 1, PT_WRITE, &db));
      memcpy(db, tb + m * s->rowb + c * es, BLK);
    }
  if (s->row) return PTOSIM_OK;
  PT_TRY(pt_span(x, PTOSIM_L1, p->dst.addr, (uint64_t)n, 1, PT_WRITE, &db));
  memcpy(db, sb, (size_t)n);
  return PTOSIM_OK;
}

/* MGATHER: vec destination through a vec index tile (pipe V on a5, the SIMT kernel; MTE2 on
 * a2a3), or the GM -> L1 form (mgather_l1, pipe MTE2). */
ptosim_status pt_exec_mgather(pt_ctx *x, const ptosim_mgather_params *p) {
  static const int oob_of[4] = {IX_UNDEF, IX_CLAMP, IX_WRAP, IX_DROP};
  ix s;
  memset(&s, 0, sizeof s);
  s.gather = true, s.oob = (unsigned)p->oob < 4 ? oob_of[p->oob] : 99;
  VERIFY(x, (unsigned)p->coalesce <= PTOSIM_COALESCE_ELEM && s.oob != 99, "mode", "use the enumerators of ptosim/tile_move.h",
         "coalesce %d / oob %d", (int)p->coalesce, (int)p->oob);
  if (p->gm_idx || p->dst.space == PTOSIM_L1) {
    VERIFY(x, p->gm_idx && p->dst.space == PTOSIM_L1, "l1_form",
           "the GM -> L1 gather takes GM indices and a mat tile, the vec gather a vec index tile",
           "%s indices with a %s destination", p->gm_idx ? "GM" : "tile", pt_space_name(p->dst.space));
    return mgather_l1(x, p, &s);
  }
  if (is_a5(x)) pt_set_pipe(x, PTOSIM_PIPE_V);
  PT_TRY(ix_setup(x, &s, &p->table, &p->dst, "dst", &p->idx, p->coalesce, (int)p->oob));
  /* Every index is read twice (the bounds, then the moves): a destination over the index
   * tile would change indices between the two. Two ranges overlap when one starts inside
   * the other (unsigned differences: no overflow). */
  uint64_t db = (uint64_t)t_bytes(&s.d), ib = (uint64_t)t_bytes(&s.i);
  VERIFY(x, p->idx.addr - p->dst.addr >= db && p->dst.addr - p->idx.addr >= ib, "overlap",
         "place the index tile outside the destination tile", "dst [0x%" PRIx64 ", +%" PRIu64 ") overlaps idx [0x%" PRIx64
         ", +%" PRIu64 ")", p->dst.addr, db, p->idx.addr, ib);
  return ix_run(x, &s, &p->dst, &p->idx);
}

/* MSCATTER: sequential in row-major index order, so the last write wins (a2a3; a5
 * ScatterConflict::Last; the scheduler-dependent Default order is not modelled). Atomic
 * types: a2a3 add of i8/i16/i32/f16/bf16/f32; a5 add of i32/u32/f16/bf16/f32, max / min of
 * i32/u32/f32 (mscatter.md "Atomic Type Support"). Pipe: V on a5, MTE3 on a2a3. */
ptosim_status pt_exec_mscatter(pt_ctx *x, const ptosim_mscatter_params *p) {
  static const int oob_of[4] = {IX_UNDEF, IX_DROP, IX_CLAMP, IX_WRAP};
  ix s;
  memset(&s, 0, sizeof s);
  if (is_a5(x)) pt_set_pipe(x, PTOSIM_PIPE_V);
  s.oob = (unsigned)p->oob < 4 ? oob_of[p->oob] : 99;
  s.atomic = p->atomic;
  PT_TRY(ix_setup(x, &s, &p->table, &p->src, "src", &p->idx, p->coalesce, (int)p->oob));
  ptosim_dtype t = p->src.dtype;
  bool i32 = t == PTOSIM_DT_I32, u32 = t == PTOSIM_DT_U32,
       f = t == PTOSIM_DT_F32 || t == PTOSIM_DT_F16 || t == PTOSIM_DT_BF16;
  bool ok = p->atomic == PTOSIM_ATOMIC_NONE;
  if (p->atomic == PTOSIM_ATOMIC_ADD)
    ok = is_a5(x) ? i32 || u32 || f : i32 || f || t == PTOSIM_DT_I8 || t == PTOSIM_DT_I16;
  if (p->atomic == PTOSIM_ATOMIC_MAX || p->atomic == PTOSIM_ATOMIC_MIN)
    ok = is_a5(x) && (i32 || u32 || t == PTOSIM_DT_F32);
  VERIFY(x, ok, "atomic",
         "a2a3: add of i8/i16/i32/f16/bf16/f32; a5: add of i32/u32/f16/bf16/f32, max/min of i32/u32/f32",
         "atomic op %d on %s elements on %s", (int)p->atomic, pt_dtype_name(t), x->m->prof->name);
  return ix_run(x, &s, &p->src, &p->idx);
}
