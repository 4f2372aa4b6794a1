/* Tile matrix multiply: pto.tmatmul, pto.tmatmul.acc, pto.tmatmul.bias, pto.tgemv,
 * pto.tgemv.acc, pto.tgemv.bias and the MX forms pto.tmatmul.mx[.acc|.bias],
 * pto.tgemv.mx[.acc|.bias].
 * Spec: pto-isa docs/isa/tile/ops/matrix-and-matrix-vector/ (tmatmul*.md, tgemv*.md); hardware evidence: pto-isa
 * include/pto/npu/{a2a3,a5}/TMatmul.hpp (each op is one MAD over the tiles' valid shape).
 *
 * Each op is one MAD of the cube (src/isa/mad.c, the same FMA chains, k ascending, seeded with
 * 0, the old accumulator or the bias) over m = lhs v_row, k = lhs v_col, n = rhs v_col; the
 * tgemv forms use m = 1, k = rhs v_row (MX: lhs v_col), n = rhs v_col. The cube addresses its
 * operands by m, n and k alone (docs/spec-notes.md 3.1): column blocks of L0A (A5) / L0C hold
 * ceil16(m) rows, L0B row blocks ceil16(n) columns, A2/A3 L0A row blocks ceil(k / C0)
 * fractals. A tile whose storage puts its elements elsewhere (say a 64-row left tile with
 * v_row = 20) would give the hardware's wrong answer, not the page's formula; ptosim rejects
 * it (tmatmul.fractal_extent): use v_row = rows, or a compact tile.
 * Readings of the pages (cited beside the code):
 *   GEMV mode: tgemv* run the cube's GEMV mode, whose left operand is a dense vector (a left
 *     tile of one row, see tile_geom.h). pto.tmatmul* on A5 runs GEMV mode when the left tile
 *     has one row (TMatmul.hpp GetGemvCtrl); on A2/A3, m = 1 is raised to 16, so the cube
 *     computes and writes 16 rows (TMatmul.hpp: "avoid gemv mode").
 *   acc forms: C1 = C0 + A B with C0 = acc_in, the chain seeded with C0 (tmatmul-acc.md). The
 *     NPU code seeds from the destination and never reads cIn; the two agree when acc_in and
 *     dst are the same tile, the PTOAS in-place form. A distinct acc_in is copied to dst first.
 *   MX: the cube finds the scales of a data tile at L0A_MX / L0B_MX address data >> 4
 *     (isa/mx_layout.h); the scale tiles must sit there (TASSIGN(scale, GetScaleAddr(a))).
 *   tf32: f32 x f32 rounds its operands to the target's TF32 (A5 e8m10, A2/A3 HF32 e8m11: mad.c)
 *     when the params' tf32 field asks for it (C API) or, left NONE, when CTRL[46] is set
 *     (pto.settf32mode, or pto.sethf32mode on A2/A3; pto-isa pto_tile.hpp SetMadTF32Mode),
 *     CTRL[47] choosing CAST_ROUND (1: ties away) or CAST_RINT (0: ties to even).
 *   phase (AccPhase) is the MAD unit flag: ordering only. */
#include <inttypes.h>

#include "isa/mad.h"
#include "isa/mx_layout.h"
#include "isa/tile_geom.h"
#include "isa/tile_mode.h"

#define MAD_MAX_DIM 4095
#define MX_K_STEP 64

typedef enum mm_form { MM_MATMUL, MM_GEMV } mm_form;

/* One op of the family. */
typedef struct mm_kind {
  mm_form form;
  pt_mad_seed seed;
  bool mx;
} mm_kind;

/* The operands as the op reads them. */
typedef struct mm_op {
  mm_kind kind;
  tg_geom lhs, rhs, dst, acc_in, bias, sa, sb;
  int64_t m, n, k;
  bool gemv;     /* the cube's GEMV mode: dense left vector */
  int64_t mad_m; /* rows the cube computes (16 for m = 1 on A2/A3 outside GEMV) */
} mm_op;

typedef struct mm_combo {
  ptosim_dtype a, b, c;
  bool a2a3, mx; /* also on A2/A3; also the MX forms */
} mm_combo;

/* (lhs, rhs, dst) element types: tmatmul.md / tgemv.md "Target-Profile Restrictions" (A2/A3:
 * the first four; A5: all); tmatmul-mx.md (the fp8 pairs, A5; ptosim has no fp4 types). */
static const mm_combo k_combos[] = {
    {PTOSIM_DT_I8, PTOSIM_DT_I8, PTOSIM_DT_I32, true, false},
    {PTOSIM_DT_F16, PTOSIM_DT_F16, PTOSIM_DT_F32, true, false},
    {PTOSIM_DT_F32, PTOSIM_DT_F32, PTOSIM_DT_F32, true, false},
    {PTOSIM_DT_BF16, PTOSIM_DT_BF16, PTOSIM_DT_F32, true, false},
    {PTOSIM_DT_F8E4M3, PTOSIM_DT_F8E4M3, PTOSIM_DT_F32, false, true},
    {PTOSIM_DT_F8E4M3, PTOSIM_DT_F8E5M2, PTOSIM_DT_F32, false, true},
    {PTOSIM_DT_F8E5M2, PTOSIM_DT_F8E4M3, PTOSIM_DT_F32, false, true},
    {PTOSIM_DT_F8E5M2, PTOSIM_DT_F8E5M2, PTOSIM_DT_F32, false, true},
    {PTOSIM_DT_HIF8, PTOSIM_DT_HIF8, PTOSIM_DT_F32, false, false},
};

static bool legal_combo(const ptosim_tmatmul_params *p, bool mx, ptosim_target t) {
  for (size_t i = 0; i < sizeof k_combos / sizeof k_combos[0]; i++) {
    const mm_combo *c = &k_combos[i];
    if (c->a == p->lhs.dtype && c->b == p->rhs.dtype && c->c == p->dst.dtype && (t == PTOSIM_TARGET_A5 || c->a2a3) &&
        (!mx || c->mx))
      return true;
  }
  return false;
}

/* ---- checks ---------------------------------------------------------------------------- */

static const char *bl_name(ptosim_blayout b) { return b == PTOSIM_BL_COL_MAJOR ? "col_major" : "row_major"; }
static const char *sl_name(ptosim_slayout s) {
  return s == PTOSIM_SL_ROW_MAJOR ? "row_major" : s == PTOSIM_SL_COL_MAJOR ? "col_major" : "none_box";
}

/* A tile operand: its loc (space), its geometry, and its declared layout: blayout, slayout
 * and fractal bytes (tmatmul.md "Fractal/layout constraints"). */
static ptosim_status operand(pt_ctx *x, const char *what, const ptosim_tile *t, ptosim_space loc, ptosim_blayout bl,
                             ptosim_slayout sl, int32_t fractal, tg_geom *g) {
  PT_TRY(pt_tile_in(x, "tmatmul.loc", "left = l0a, right = l0b, acc = l0c, bias = bt, MX scales = l0a_mx / l0b_mx",
                    what, t, loc));
  ptosim_tile c = *t;
  if (t->compact != 1 && pt_tile_packed(x->core, t)) c.compact = 1; /* stored compact by its move (tile_mov.c packs) */
  PT_TRY(pt_tile_geom(x, what, &c, g));
  PT_VERIFY(x, t->blayout == bl && t->slayout == sl && t->fractal == fractal, "tmatmul.layout",
            "left: col_major / row_major (a2a3: row_major / row_major), right: row_major / col_major, acc: "
            "col_major / row_major, fractal 512 (acc 1024, MX scales 32)",
            "%s tile has blayout %s, slayout %s, fractal %d; the cube needs %s, %s, %d", what, bl_name(t->blayout),
            sl_name(t->slayout), t->fractal, bl_name(bl), sl_name(sl), fractal);
  return PTOSIM_OK;
}

static ptosim_status check_types(pt_ctx *x, const ptosim_tmatmul_params *p, const mm_kind *k) {
  PT_VERIFY(x, !k->mx || x->m->prof->has_mx, "tmatmul.mx_target", "MX matmul exists on a5 only",
            "target %s has no MX matmul", x->m->prof->name);
  const char *hint = k->mx ? "MX: {f8E4M3FN, f8E5M2} x {f8E4M3FN, f8E5M2} -> f32"
                     : x->m->target == PTOSIM_TARGET_A5
                         ? "a5: i8 x i8 -> i32, f16 / bf16 / f32 x same -> f32, fp8 pairs -> f32, hif8 x hif8 -> f32"
                         : "a2a3: i8 x i8 -> i32, f16 / bf16 / f32 x same -> f32";
  PT_VERIFY(x, legal_combo(p, k->mx, x->m->target), "tmatmul.dtype", hint,
            "%s x %s -> %s is not a legal type combination on target %s", pt_dtype_name(p->lhs.dtype),
            pt_dtype_name(p->rhs.dtype), pt_dtype_name(p->dst.dtype), x->m->prof->name);
  if (k->seed == PT_MAD_SEED_ACC)
    PT_VERIFY(x, p->acc_in.dtype == p->dst.dtype, "tmatmul.acc_dtype", "acc_in and dst are acc tiles of one type",
              "acc_in element type %s differs from dst type %s", pt_dtype_name(p->acc_in.dtype),
              pt_dtype_name(p->dst.dtype));
  if (k->seed == PT_MAD_SEED_BIAS)
    PT_VERIFY(x, p->bias.dtype == p->dst.dtype, "tmatmul.bias_dtype", "the bias tile has the dst element type",
              "bias element type %s differs from dst type %s (tmatmul-bias.md)", pt_dtype_name(p->bias.dtype),
              pt_dtype_name(p->dst.dtype));
  if (k->mx)
    PT_VERIFY(x, p->lhs_scale.dtype == PTOSIM_DT_F8E8M0 && p->rhs_scale.dtype == PTOSIM_DT_F8E8M0,
              "tmatmul.scale_dtype", "MX scale tiles hold f8E8M0FNU", "scale tiles are %s / %s",
              pt_dtype_name(p->lhs_scale.dtype), pt_dtype_name(p->rhs_scale.dtype));
  return PTOSIM_OK;
}

static ptosim_status check_layouts(pt_ctx *x, const ptosim_tmatmul_params *p, mm_op *o) {
  bool a5 = x->m->target == PTOSIM_TARGET_A5;
  /* A2/A3 L0A is ZZ (pto_tile.hpp TileLeft for PTO_NPU_ARCH_A2A3: RowMajor boxes). */
  PT_TRY(operand(x, "lhs", &p->lhs, PTOSIM_L0A, a5 ? PTOSIM_BL_COL_MAJOR : PTOSIM_BL_ROW_MAJOR, PTOSIM_SL_ROW_MAJOR,
                 512, &o->lhs));
  PT_TRY(operand(x, "rhs", &p->rhs, PTOSIM_L0B, PTOSIM_BL_ROW_MAJOR, PTOSIM_SL_COL_MAJOR, 512, &o->rhs));
  PT_TRY(operand(x, "dst", &p->dst, PTOSIM_L0C, PTOSIM_BL_COL_MAJOR, PTOSIM_SL_ROW_MAJOR, 1024, &o->dst));
  if (o->kind.seed == PT_MAD_SEED_ACC)
    PT_TRY(operand(x, "acc_in", &p->acc_in, PTOSIM_L0C, PTOSIM_BL_COL_MAJOR, PTOSIM_SL_ROW_MAJOR, 1024, &o->acc_in));
  if (o->kind.seed == PT_MAD_SEED_BIAS) {
    PT_TRY(pt_tile_in(x, "tmatmul.loc", "the bias tile is loc = bias (bt)", "bias", &p->bias, PTOSIM_BT));
    PT_TRY(pt_tile_geom(x, "bias", &p->bias, &o->bias));
    /* tmatmul-bias.md: Rows == 1 (both targets), row-major on A5. */
    PT_VERIFY(x, p->bias.rows == 1 && p->bias.blayout == PTOSIM_BL_ROW_MAJOR && !o->bias.boxed, "tmatmul.bias_shape",
              "declare the bias as one row-major row: rows = 1, blayout = row_major, slayout = none_box",
              "bias tile has %d rows, blayout %d, slayout %d", p->bias.rows, (int)p->bias.blayout,
              (int)p->bias.slayout);
  }
  if (o->kind.mx) {
    PT_TRY(operand(x, "lhs_scale", &p->lhs_scale, PTOSIM_L0A_MX, PTOSIM_BL_ROW_MAJOR, PTOSIM_SL_ROW_MAJOR, 32, &o->sa));
    PT_TRY(operand(x, "rhs_scale", &p->rhs_scale, PTOSIM_L0B_MX, PTOSIM_BL_COL_MAJOR, PTOSIM_SL_COL_MAJOR, 32, &o->sb));
  }
  return PTOSIM_OK;
}

static ptosim_status check_shape(pt_ctx *x, const ptosim_tmatmul_params *p, mm_op *o) {
  const ptosim_tile *a = &p->lhs, *b = &p->rhs, *c = &p->dst;
  bool gemv = o->kind.form == MM_GEMV;
  o->m = gemv ? 1 : a->valid_rows;
  o->k = gemv && !o->kind.mx ? b->valid_rows : a->valid_cols; /* tgemv.md: K = b v_row; TGEMV_MX_IMPL: a v_col */
  o->n = b->valid_cols;
  PT_VERIFY(x, o->m <= MAD_MAX_DIM && o->k <= MAD_MAX_DIM && o->n <= MAD_MAX_DIM, "tmatmul.range",
            "m, k and n are in [1, 4095] (the MAD's 12-bit fields): split the matmul",
            "m = %" PRId64 ", k = %" PRId64 ", n = %" PRId64 " exceeds 4095", o->m, o->k, o->n);
  /* tmatmul.md asks dst v_row = m and dst v_col = n. The NPU code reads m, k, n from the
   * operands alone and checks nothing of dst (a5 / a2a3 TMatmul.hpp TMATMUL_IMPL), and
   * pto-isa's hardware test TMOVTest.case11-13 (runTMOV_UNALIGN: a 96 x 40 left tile, a 65 x 66
   * valid acc) relies on it: the cube writes all of m x n (check_extents: inside dst's storage)
   * and dst's valid region is the part the program keeps. A dst valid region larger than
   * m x n would promise elements the cube never writes: refused. */
  PT_VERIFY(x,
            a->valid_rows == o->m && a->valid_cols == o->k && b->valid_rows == o->k && c->valid_rows <= o->m &&
                c->valid_cols <= o->n,
            "tmatmul.shape",
            gemv ? "tgemv: lhs v_row = 1, lhs v_col = rhs v_row = k, dst v_row = 1, dst v_col <= rhs v_col = n"
                 : "lhs v_col = rhs v_row = k, dst v_row <= lhs v_row = m, dst v_col <= rhs v_col = n",
            "valid shapes lhs %dx%d, rhs %dx%d, dst %dx%d do not chain", a->valid_rows, a->valid_cols, b->valid_rows,
            b->valid_cols, c->valid_rows, c->valid_cols);
  /* Static shapes: tmatmul.md (A2/A3). tgemv.md asks the same of tgemv, but the NPU code checks
   * none (a5 / a2a3 TMatmul.hpp TGEMV_IMPL: k and n from the right tile's valid shape) and
   * pto-isa's own GEMV kernels break it (a 1 x align(k, 512 B) left tile, a 16-row acc). */
  if (!gemv && x->m->target == PTOSIM_TARGET_A2A3)
    PT_VERIFY(x, a->rows == c->rows && a->cols == b->rows && b->cols == c->cols, "tmatmul.static_shape",
              "declare lhs rows = dst rows, lhs cols = rhs rows, rhs cols = dst cols",
              "static shapes lhs %dx%d, rhs %dx%d, dst %dx%d do not chain", a->rows, a->cols, b->rows, b->cols, c->rows,
              c->cols);
  if (o->kind.seed == PT_MAD_SEED_ACC)
    PT_VERIFY(x, p->acc_in.valid_rows == c->valid_rows && p->acc_in.valid_cols == c->valid_cols, "tmatmul.shape",
              "acc_in has the valid shape of dst", "acc_in valid shape %dx%d differs from dst %dx%d",
              p->acc_in.valid_rows, p->acc_in.valid_cols, c->valid_rows, c->valid_cols);
  if (o->kind.seed == PT_MAD_SEED_BIAS)
    PT_VERIFY(x, p->bias.valid_cols >= o->n, "tmatmul.shape", "the bias holds one value per output column",
              "bias v_col = %d < n = %" PRId64, p->bias.valid_cols, o->n);
  if (o->kind.mx)
    PT_VERIFY(x, a->cols % MX_K_STEP == 0 && o->k % MX_K_STEP == 0, "tmatmul.mx_k",
              "MX consumes k in steps of 64 (two 32-element scale groups): lhs cols and k are multiples of 64",
              "lhs cols = %d, k = %" PRId64, a->cols, o->k);
  return PTOSIM_OK;
}

/* The cube's GEMV mode and the rows it computes. */
static ptosim_status pick_mode(pt_ctx *x, const ptosim_tmatmul_params *p, mm_op *o) {
  bool vector = p->lhs.rows == 1; /* the dense GEMV vector (tile_geom.h) */
  bool a5 = x->m->target == PTOSIM_TARGET_A5;
  o->gemv = o->kind.form == MM_GEMV || (a5 && vector); /* A5 TMatmul.hpp GetGemvCtrl */
  o->mad_m = !o->gemv && o->m == 1 ? 16 : o->m;        /* A2/A3 TMatmul.hpp: m 1 -> 16 */
  PT_VERIFY(x, o->gemv == vector || (o->gemv && o->k <= o->lhs.ic), "tmatmul.gemv_left",
            o->gemv ? "GEMV reads a dense vector: declare the left tile with rows = 1"
                    : "on a2a3 pto.tmatmul never runs GEMV mode: use pto.tgemv, or a left tile of 16 rows",
            "%s with a %d-row left tile on target %s", o->gemv ? "GEMV mode" : "a matmul", p->lhs.rows,
            x->m->prof->name);
  return PTOSIM_OK;
}

/* Whether the tile stores every element the cube reads where the cube reads it: the cube's
 * stride between box rows (sr) / box columns (sc) matters only when it reads several. */
static bool strides_match(const tg_geom *g, int64_t rows, int64_t cols, int64_t sr, int64_t sc) {
  return (rows <= g->ir || g->sr == sr) && (cols <= g->ic || g->sc == sc);
}

static ptosim_status check_extent(pt_ctx *x, const char *what, const tg_geom *g, int64_t rows, int64_t cols, int64_t sr,
                                  int64_t sc) {
  PT_VERIFY(x, rows <= g->rows && cols <= g->cols && strides_match(g, rows, cols, sr, sc), "tmatmul.fractal_extent",
            "the cube addresses the operands by m, n, k: use v_row = rows / v_col = cols, or compact = normal",
            "%s tile stores %" PRId64 " x %" PRId64 " elements in %" PRId64 "x%" PRId64 " boxes with strides (%" PRId64
            ", %" PRId64 "); the cube reads them with strides (%" PRId64 ", %" PRId64 ")",
            what, rows, cols, g->ir, g->ic, g->sr, g->sc, sr, sc);
  return PTOSIM_OK;
}

/* Every operand against the cube's addressing (docs/spec-notes.md 3.1, isa/mx_layout.h). */
static ptosim_status check_extents(pt_ctx *x, const ptosim_tmatmul_params *p, const mm_op *o) {
  int64_t m16 = (o->mad_m + 15) / 16 * 16, n16 = (o->n + 15) / 16 * 16;
  int64_t cw = o->lhs.ic, k1 = (o->k + cw - 1) / cw;
  bool a5 = x->m->target == PTOSIM_TARGET_A5;
  if (!o->gemv) /* A5 NZ: column blocks of m16 rows; A2/A3 ZZ: row blocks of k1 fractals */
    PT_TRY(check_extent(x, "lhs", &o->lhs, o->mad_m, o->k, a5 ? 16 * cw : k1 * 16 * cw, a5 ? m16 * cw : 16 * cw));
  /* ZN: row blocks of n16 / 16 fractals of C0 x 16. */
  PT_TRY(check_extent(x, "rhs", &o->rhs, o->k, o->n, n16 * o->rhs.ir, o->rhs.ir * 16));
  /* The cube writes dst in column blocks of m16 rows whatever the tile's pitch (the readers
   * check theirs against it: pt_acc_pitch_check); they must lie inside dst's storage. */
  PT_VERIFY(x, m16 <= o->dst.rows && o->n <= o->dst.cols, "tmatmul.fractal_extent",
            "the cube writes m16 x n of dst (m16 = m rounded up to 16): make dst that large",
            "dst tile stores %" PRId64 " x %" PRId64 " elements; the cube writes %" PRId64 " x %" PRId64, o->dst.rows,
            o->dst.cols, m16, o->n);
  if (!o->kind.mx) return PTOSIM_OK;
  int64_t g = o->k / 32, boxes = (int64_t)pt_mx_boxes_per_row((uint64_t)o->k);
  PT_TRY(check_extent(x, "lhs_scale", &o->sa, o->mad_m, g, boxes * 32, 32));
  PT_TRY(check_extent(x, "rhs_scale", &o->sb, g, o->n, 32, boxes * 32));
  PT_VERIFY(x, p->lhs_scale.addr == pt_mx_scale_base(p->lhs.addr) && p->rhs_scale.addr == pt_mx_scale_base(p->rhs.addr),
            "tmatmul.scale_addr", "place each scale tile at its data tile's address >> 4 (pto.tget_scale_addr)",
            "scale tiles at 0x%" PRIx64 " / 0x%" PRIx64 ", the cube reads them at 0x%" PRIx64 " / 0x%" PRIx64,
            p->lhs_scale.addr, p->rhs_scale.addr, pt_mx_scale_base(p->lhs.addr), pt_mx_scale_base(p->rhs.addr));
  return PTOSIM_OK;
}

/* acc forms with a distinct acc_in: dst[i][j] = acc_in[i][j] before the chains start. */
static ptosim_status seed_from_acc_in(pt_ctx *x, const mm_op *o) {
  tg_geom cube = o->dst; /* dst as the cube reads the seeds: column blocks of m16 rows */
  cube.sc = tg_align(o->mad_m, 16) * cube.ic;
  const tg_geom *s = &o->acc_in, *d = &cube;
  if (s->addr == d->addr) return PTOSIM_OK;
  uint64_t s_end = s->addr + tg_bytes(s), d_end = d->addr + tg_bytes(d);
  PT_VERIFY(x, s_end <= d->addr || d_end <= s->addr, "tmatmul.acc_in_overlap",
            "pass the same tile as acc_in and dst, or two disjoint tiles",
            "acc_in [0x%" PRIx64 ", 0x%" PRIx64 ") partly overlaps dst [0x%" PRIx64 ", 0x%" PRIx64 ")", s->addr, s_end,
            d->addr, d_end);
  uint8_t *sh, *dh;
  PT_TRY(pt_tile_map(x, x->core, s, 0, 0, o->m, o->n, PT_READ, &sh));
  PT_TRY(pt_tile_map(x, x->core, d, 0, 0, o->m, o->n, PT_WRITE, &dh));
  pt_tile_copy(d, dh, 0, 0, s, sh, 0, 0, o->m, o->n);
  return PTOSIM_OK;
}

/* The TF32 mode of an f32 x f32 matmul: the params' field, else CTRL's MAD mode bits. */
static ptosim_tf32_mode mm_tf32(pt_ctx *x, const ptosim_tmatmul_params *p) {
  if (p->tf32 != PTOSIM_TF32_NONE) return p->tf32;
  uint64_t c = pt_sreg_get(x, PT_SREG_CTRL);
  if (!(c >> PT_CTRL_MAD_MODE_BIT & 1)) return PTOSIM_TF32_NONE;
  return c >> PT_CTRL_MAD_ROUND_BIT & 1 ? PTOSIM_TF32_ROUND_AWAY : PTOSIM_TF32_ROUND_EVEN;
}

static ptosim_status run(pt_ctx *x, const ptosim_tmatmul_params *p, mm_kind kind) {
  mm_op o = {.kind = kind};
  PT_TRY(check_types(x, p, &kind));
  PT_TRY(check_layouts(x, p, &o));
  PT_TRY(check_shape(x, p, &o));
  PT_TRY(pick_mode(x, p, &o));
  PT_TRY(check_extents(x, p, &o));
  if (kind.seed == PT_MAD_SEED_ACC) PT_TRY(seed_from_acc_in(x, &o));
  bool a5 = x->m->target == PTOSIM_TARGET_A5;
  ptosim_mad_params mp = {
      .lhs = ptosim_ptr_make(PTOSIM_L0A, p->lhs.dtype, p->lhs.addr),
      .rhs = ptosim_ptr_make(PTOSIM_L0B, p->rhs.dtype, p->rhs.addr),
      .dst = ptosim_ptr_make(PTOSIM_L0C, p->dst.dtype, p->dst.addr),
      .bias = ptosim_ptr_make(PTOSIM_BT, p->bias.dtype, p->bias.addr),
      .m = o.mad_m,
      .n = o.n,
      .k = o.k,
      .unit_flag = p->phase == PTOSIM_ACC_PHASE_PARTIAL ? PTOSIM_UNIT_FLAG_CHECK_ONLY
                   : p->phase == PTOSIM_ACC_PHASE_FINAL ? PTOSIM_UNIT_FLAG_CHECK_AND_SET
                                                        : PTOSIM_UNIT_FLAG_NONE,
      .disable_gemv = a5 && !o.gemv,
      .tf32 = p->lhs.dtype == PTOSIM_DT_F32 && !kind.mx ? mm_tf32(x, p) : PTOSIM_TF32_NONE,
  };
  PT_TRY(pt_mad_run(x, &mp, kind.seed, kind.mx, false));
  int64_t m16 = tg_align(o.mad_m, 16); /* the pitch this matmul wrote dst with */
  pt_l0_layout r = {o.dst.addr, o.dst.addr + (uint64_t)(tg_align(o.n, 16) * m16) * o.dst.es, PTOSIM_L0C, p->dst.dtype,
                    0, 0, m16};
  pt_l0_note(x->core, PTOSIM_L0C, r.addr, r.end, &r);
  return PTOSIM_OK;
}

/* The executors: form, chain seed, MX; each form comes with the three seeds. */
#define MM_EXEC(id, form, seed, mx)                                       \
  ptosim_status pt_exec_##id(pt_ctx *x, const ptosim_tmatmul_params *p) { \
    return run(x, p, (mm_kind){MM_##form, PT_MAD_SEED_##seed, mx});       \
  }
#define MM_SEEDS(id, form, mx) \
  MM_EXEC(id, form, ZERO, mx) MM_EXEC(id##_acc, form, ACC, mx) MM_EXEC(id##_bias, form, BIAS, mx)

MM_SEEDS(tmatmul, MATMUL, false)
MM_SEEDS(tgemv, GEMV, false)
MM_SEEDS(tmatmul_mx, MATMUL, true)
MM_SEEDS(tgemv_mx, GEMV, true)
