/* Tile matrix data movement: pto.tmov, pto.tmov.fp, pto.textract, pto.textract_fp,
 * pto.tinsert, pto.tinsert_fp.
 * Spec: pto-isa docs/isa/tile/ops/layout-and-rearrangement/{tmov,textract,tinsert}.md;
 * PTOAS docs/PTO_IR_manual.md (pto.tmov, pto.tmov.fp, pto.textract, pto.tinsert); hardware
 * evidence: pto-isa include/pto/npu/{a2a3,a5}/{TMov,TExtract,TInsert}.hpp. */
#include <inttypes.h>
#include <string.h>

#include "isa/fixpipe_quant.h"
#include "isa/tile_geom.h"

/* ---- the moves ------------------------------------------------------------------------- */

typedef enum mv_op { MV_TMOV, MV_EXTRACT, MV_INSERT } mv_op;

/* Data paths, by source and destination loc. */
typedef enum mv_path {
  P_L0,   /* mat -> left / right / scale_left / scale_right: fractals (MTE1) */
  P_BIAS, /* mat -> bias: one row, f16 / bf16 widened to f32 (MTE1) */
  P_FB,   /* mat -> scaling: one row of 8-byte quant words (MTE1) */
  P_VV,   /* vec -> vec (V) */
  P_VM,   /* vec -> mat (A5, MTE3) */
  P_ACC   /* acc -> mat / vec through the FIXPIPE conversions (FIX) */
} mv_path;

#define OPS(a, b, c) ((a) << MV_TMOV | (b) << MV_EXTRACT | (c) << MV_INSERT)

/* Legal loc pairs per op and target: tmov.md, textract.md and tinsert.md "Supported ...
 * pairs" / "implementation checks"; vec -> vec extraction on both targets (PTO_IR_manual.md
 * pto.textract; pto-isa a2a3/TExtract.hpp TExtractVecToVecND). */
static const struct {
  ptosim_space src, dst;
  mv_path path;
  unsigned a2a3, a5; /* op bits */
} k_pairs[] = {
    {PTOSIM_L1, PTOSIM_L0A, P_L0, OPS(1, 1, 0), OPS(1, 1, 0)},
    {PTOSIM_L1, PTOSIM_L0B, P_L0, OPS(1, 1, 0), OPS(1, 1, 0)},
    {PTOSIM_L1, PTOSIM_L0A_MX, P_L0, 0, OPS(1, 1, 0)},
    {PTOSIM_L1, PTOSIM_L0B_MX, P_L0, 0, OPS(1, 1, 0)},
    {PTOSIM_L1, PTOSIM_BT, P_BIAS, OPS(1, 0, 0), OPS(1, 0, 0)},
    {PTOSIM_L1, PTOSIM_FB, P_FB, OPS(1, 0, 0), OPS(1, 0, 0)},
    {PTOSIM_UB, PTOSIM_UB, P_VV, OPS(1, 1, 1), OPS(1, 1, 1)}, /* a2a3 TInsert.hpp TINSERT_IMPL: vec -> vec ND / NZ */
    {PTOSIM_UB, PTOSIM_L1, P_VM, 0, OPS(1, 1, 1)},
    {PTOSIM_L0C, PTOSIM_L1, P_ACC, OPS(1, 1, 1), OPS(1, 1, 1)},
    {PTOSIM_L0C, PTOSIM_UB, P_ACC, 0, OPS(1, 1, 1)},
};

static const ptosim_pipe k_pipe[] = {[P_L0] = PTOSIM_PIPE_MTE1, [P_BIAS] = PTOSIM_PIPE_MTE1, [P_FB] = PTOSIM_PIPE_MTE1,
                                     [P_VV] = PTOSIM_PIPE_V,    [P_VM] = PTOSIM_PIPE_MTE3,   [P_ACC] = PTOSIM_PIPE_FIX};

/* One move: the op, its path, both tiles and the region dst[dr + i][dc + j] = src[sr + i][sc + j],
 * i < h, j < w. */
typedef struct mv {
  mv_op op;
  const char *fam; /* rule-id prefix: "tmov", "textract", "tinsert" */
  mv_path path;
  bool a5;
  tg_geom s, d;
  int64_t sr, sc, dr, dc, h, w;
  int64_t lh, lw; /* the logical window the page's bounds rules speak of; h x w rounds it up to
                     whole boxes where the hardware moves them */
} mv;

#define RULE(v, r) PT_TILE_RULE((v)->fam, (r)) /* "tmov.<r>", "textract.<r>", "tinsert.<r>" */

/* Layout kinds (tile_check.h); a one-row left tile is the dense GEMV vector (tile_geom.h). */
#define LK(k) (1u << PT_TK_##k)

static pt_tile_kind kind_of(const ptosim_tile *t) {
  return t->space == PTOSIM_L0A && t->rows == 1 ? PT_TK_VEC : pt_tile_kind_of(t);
}

/* textract of an ND vec window into an NZ vec tile: one window of pto-isa's two-destination
 * TEXTRACT(dst0, dst1, src, ...) (a5 / a2a3 TExtract.hpp TEXTRACT_ND2XNZ_IMPL runs the two
 * windows one after the other; the single-destination TEXTRACT_IMPL refuses the pair). */
static bool nd_to_nz(const ptosim_tmov_params *p, const mv *v) {
  return v->op == MV_EXTRACT && v->path == P_VV && kind_of(&p->src) == PT_TK_ND && kind_of(&p->dst) == PT_TK_NZ;
}

/* A 1 x 1 vec -> vec window moves one element to / from anywhere: textract on both targets
 * (TExtractVecToVec{ND,NZ}Scalar*), tinsert on a2a3 (tinsert_common.hpp
 * TInsertVecToVec{ND,NZ}Scalar) and into a5 ND tiles; a5 NZ inserts have no scalar path
 * (TInsertVecToVecNZImpl moves whole 32-byte stripes). */
static bool one_elem(const mv *v) {
  return v->path == P_VV && v->op != MV_TMOV && v->lh == 1 && v->lw == 1 &&
         (v->op == MV_EXTRACT || !v->a5 || !v->d.boxed);
}

/* A5 tinsert vec -> mat from a row-major source whose boxes are not column-major (ND, ZZ):
 * a5 TInsert.hpp TInsertVecToMatImpl sends it to TInsertNDImpl, a flat copy (run_flat). */
static bool flat_insert(const ptosim_tmov_params *p, const mv *v) {
  pt_tile_kind k = kind_of(&p->src);
  return v->op == MV_INSERT && v->path == P_VM && (k == PT_TK_ND || k == PT_TK_ZZ);
}

/* Layout kinds a path takes (source mask, destination mask). */
static void legal_kinds(const mv *v, const ptosim_tile *dst, unsigned *src, unsigned *dm) {
  switch (v->path) {
    case P_L0: /* textract.md "Layout requirements"; a 1-row ND source feeds a GEMV vector */
      if (dst->space == PTOSIM_L0A_MX)
        *src = *dm = LK(ZZ);
      else if (dst->space == PTOSIM_L0B_MX)
        *src = *dm = LK(NN);
      else
        *src = LK(NZ) | LK(ZN) | LK(ND), *dm = dst->space == PTOSIM_L0B ? LK(ZN) : LK(VEC) | (v->a5 ? LK(NZ) : LK(ZZ));
      return;
    case P_BIAS:
    case P_FB: *src = *dm = LK(ND); return;
    case P_VV: /* tmov.md ND -> NZ / ZN (A5); tinsert / textract ND and NZ vec -> vec (TInsert.hpp /
                  TExtract.hpp VecToVec, the layouts matching); textract ND -> NZ (nd_to_nz); tmov DN
                  -> DN of one column (check_layouts): the row-wise vec copy of a2a3/a5 TMov.hpp
                  TMovToVec moves element r */
      *src = LK(ND) | (v->op != MV_TMOV ? LK(NZ) : 0) | (v->op == MV_TMOV ? LK(DN) : 0);
      *dm = LK(ND) | (v->a5 && v->op == MV_TMOV ? LK(NZ) | LK(ZN) : 0) | (v->op != MV_TMOV ? LK(NZ) : 0) |
            (v->op == MV_TMOV ? LK(DN) : 0);
      return;
    case P_VM: /* pto-isa a5 TExtractVecToMat / TInsert ND, NZ; TInsert also ZN (TInsertZNImpl) and
                  ZZ (flat_insert) */
      *src = *dm = LK(ND) | LK(NZ) | (v->op == MV_INSERT ? LK(ZN) | LK(ZZ) : 0);
      return;
    case P_ACC: /* CheckTMovAccValid: nz2nd, nz2dn, nz2nz (A5); A2/A3 and extract/insert to mat: NZ */
      *src = LK(NZ);
      *dm = LK(NZ) | (v->a5 && (v->op == MV_TMOV || dst->space == PTOSIM_UB) ? LK(ND) | LK(DN) : 0);
      return;
  }
}

static ptosim_status check_pair(pt_ctx *x, const ptosim_tmov_params *p, mv *v) {
  for (size_t i = 0; i < sizeof k_pairs / sizeof k_pairs[0]; i++) {
    if (k_pairs[i].src != p->src.space || k_pairs[i].dst != p->dst.space) continue;
    PT_VERIFY(x, ((v->a5 ? k_pairs[i].a5 : k_pairs[i].a2a3) >> v->op) & 1, RULE(v, "loc"),
              "see the supported tile-type pairs of the op's page for this target",
              "pto.%s from %s to %s is not available on target %s", v->fam, pt_space_name(p->src.space),
              pt_space_name(p->dst.space), x->m->prof->name);
    v->path = k_pairs[i].path;
    bool vec_src = p->src.space == PTOSIM_UB;
    PT_VERIFY(x, (x->core->kind != PTOSIM_AIC) == vec_src, RULE(v, "unit"),
              vec_src ? "moves out of a vec tile are issued by the vector core that owns the UB"
                      : "moves out of mat / acc tiles are issued by the cube core",
              "pto.%s from %s issued on the %s core", v->fam, pt_space_name(p->src.space),
              x->core->kind == PTOSIM_AIC ? "cube" : "vector");
    pt_set_pipe(x, k_pipe[v->path]);
    return PTOSIM_OK;
  }
  return pt_fail(x, PTOSIM_E_VERIFY, RULE(v, "loc"),
                 "pairs: mat -> left/right/bias/scaling/scale, vec -> vec/mat, acc -> mat/vec",
                 "pto.%s has no %s -> %s form", v->fam, pt_space_name(p->src.space), pt_space_name(p->dst.space));
}

static ptosim_status check_layouts(pt_ctx *x, const ptosim_tmov_params *p, const mv *v) {
  unsigned sm = 0, dm = 0;
  legal_kinds(v, &p->dst, &sm, &dm);
  pt_tile_kind s = kind_of(&p->src), d = kind_of(&p->dst);
  bool mx = p->dst.space == PTOSIM_L0A_MX || p->dst.space == PTOSIM_L0B_MX;
  bool ok = ((sm >> s) & 1) && ((dm >> d) & 1);
  switch (v->path) {
    case P_L0: /* fractal copies; a GEMV vector comes from a 1-row ND source (TExtractToAVector) */
      ok = ok && (d == PT_TK_VEC) == (s == PT_TK_ND && p->src.rows == 1) &&
           (d == PT_TK_VEC || (p->dst.fractal == (mx ? 32 : 512) && p->src.fractal == p->dst.fractal));
      break;
    case P_VV:
    case P_VM: /* 32-byte blocks of 512-byte fractals; vec -> mat and NZ vec -> vec keep the layout;
                  a flat insert copies ND / ZZ bytes whatever the boxes (a5 TInsertNDImpl); a2a3's
                  ND -> NZ extract writes plain NZ only (CheckTExtractNdToNz: no row_plus_one) */
      ok = ok && (s == PT_TK_ND || s == PT_TK_ZZ || p->src.fractal == 512) &&
           (d == PT_TK_ND || d == PT_TK_ZZ || p->dst.fractal == 512) &&
           (s == d || (v->path == P_VV && s == PT_TK_ND && v->op == MV_TMOV) || nd_to_nz(p, v)) &&
           (s != PT_TK_DN || v->path != P_VV || (p->src.cols == 1 && p->dst.cols == 1)) &&
           (!nd_to_nz(p, v) || v->a5 || p->dst.compact != 2);
      break;
    case P_ACC: ok = ok && p->src.fractal == 1024; break;
    default: break;
  }
  PT_VERIFY(x, ok, RULE(v, "layout"),
            "left NZ (a2a3 ZZ), right ZN, scale_left ZZ, scale_right NN (fractal 512 / 32) from NZ / ZN mat tiles of "
            "the same fractal; acc NZ (fractal 1024) to NZ (also ND / DN on a5); vec ND to ND, NZ or ZN",
            "%s %s tile (fractal %d) to %s %s tile (fractal %d) is not a supported layout pair", pt_tile_kind_name(s),
            pt_space_name(p->src.space), p->src.fractal, pt_tile_kind_name(d), pt_space_name(p->dst.space),
            p->dst.fractal);
  return PTOSIM_OK;
}

/* ---- element types ----------------------------------------------------------------------- */

#define T(x) (1u << PTOSIM_DT_##x)
/* Element types of the fractal moves: pto-isa a2a3 TExtract.hpp CheckTExtract (i8, f16, bf16,
 * f32); a5 is_textract_supported_type (also fp8, hif8; fp4 has no ptosim type). */
#define L0_A2A3 (T(I8) | T(F16) | T(BF16) | T(F32))
#define L0_A5 (L0_A2A3 | T(HIF8) | T(F8E4M3) | T(F8E5M2))
/* ND -> NZ / ZN in UB (tmov.md "ND -> ZN ... Supported element types"). */
#define VEC_NZ (T(F16) | T(BF16) | T(F32) | T(I32) | T(I8) | T(U8) | T(F8E4M3) | T(F8E5M2) | T(HIF8))
/* NZ vec -> vec textract / tinsert: a2a3 textract_common.hpp CheckTExtractVecToVecCommon and
 * tinsert_common.hpp CheckTInsertVecToVecCommon; a5 TExtract.hpp / TInsert.hpp TEXTRACT_IMPL /
 * TINSERT_IMPL vec -> vec lists: VEC_NZ without u8, with e8m0. */
#define VV_NZ_A2A3 (T(I8) | T(U8) | T(I16) | T(U16) | T(F16) | T(BF16) | T(F32) | T(I32) | T(U32))
#define VV_NZ_A5 ((VEC_NZ & ~T(U8)) | T(F8E8M0))
/* ND -> NZ vec textract: a2a3 / a5 TExtract.hpp CheckTExtractNdToNz (fp4 has no ptosim type). */
#define ND2NZ_A2A3 (T(I8) | T(F16) | T(BF16) | T(F32) | T(I32))
#define ND2NZ_A5 (ND2NZ_A2A3 | T(HIF8) | T(F8E4M3) | T(F8E5M2) | T(F8E8M0))

/* Element types of a vec -> vec move into an NZ tile. */
static unsigned vv_nz_types(const ptosim_tmov_params *p, const mv *v) {
  if (v->op == MV_TMOV) return VEC_NZ;
  if (nd_to_nz(p, v)) return v->a5 ? ND2NZ_A5 : ND2NZ_A2A3;
  return v->a5 ? VV_NZ_A5 : VV_NZ_A2A3;
}

/* Quant modes of an acc -> mat / vec move per (acc, dst) pair: the cast of the plain and relu
 * forms, the scalar (%preQuantScalar) and vector (%fp) quant modes. pto-isa a5/common.hpp
 * GetCast/Scalar/VectorPreQuantMode with CheckTMovAccValid; A2/A3 (a2a3/common.hpp
 * CheckTMovAccToMat): casts f32 -> f16 / bf16 only, quant f32 -> i8 and i32 -> i8 / u8 / f16. */
#define NA PTOSIM_QUANT_COUNT /* no such form */
static const struct {
  ptosim_dtype acc, dst;
  ptosim_quant_mode cast, scalar, vec;
  bool a2a3_cast, a2a3_quant;
} k_acc_conv[] = {
    {PTOSIM_DT_F32, PTOSIM_DT_F32, PTOSIM_QUANT_NONE, PTOSIM_QUANT_NONE, PTOSIM_QUANT_NONE, false, false},
    {PTOSIM_DT_F32, PTOSIM_DT_F16, PTOSIM_QUANT_F32_F16, PTOSIM_QUANT_QF322F16_PRE_SCALAR,
     PTOSIM_QUANT_QF322F16_PRE_VEC, true, false},
    {PTOSIM_DT_F32, PTOSIM_DT_BF16, PTOSIM_QUANT_F32_BF16, PTOSIM_QUANT_QF322BF16_PRE_SCALAR,
     PTOSIM_QUANT_QF322BF16_PRE_VEC, true, false},
    {PTOSIM_DT_F32, PTOSIM_DT_I8, NA, PTOSIM_QUANT_QF322B8_PRE_SCALAR, PTOSIM_QUANT_QF322B8_PRE_VEC, false, true},
    {PTOSIM_DT_F32, PTOSIM_DT_U8, NA, PTOSIM_QUANT_QF322B8_PRE_SCALAR, PTOSIM_QUANT_QF322B8_PRE_VEC, false, false},
    {PTOSIM_DT_F32, PTOSIM_DT_HIF8, NA, PTOSIM_QUANT_QF322HIF8_PRE_SCALAR, PTOSIM_QUANT_QF322HIF8_PRE_VEC, false,
     false},
    /* a5 GetScalarPreQuantMode picks the vector mode VQF322FP8_PRE here; with a scalar payload
     * that reads fb garbage, so ptosim takes the scalar mode of the same family. */
    {PTOSIM_DT_F32, PTOSIM_DT_F8E4M3, NA, PTOSIM_QUANT_QF322FP8_PRE_SCALAR, PTOSIM_QUANT_QF322FP8_PRE_VEC, false,
     false},
    {PTOSIM_DT_I32, PTOSIM_DT_I32, PTOSIM_QUANT_NONE, NA, NA, false, false},
    {PTOSIM_DT_I32, PTOSIM_DT_I8, NA, PTOSIM_QUANT_REQ8_SCALAR, PTOSIM_QUANT_REQ8_VEC, false, true},
    {PTOSIM_DT_I32, PTOSIM_DT_U8, NA, PTOSIM_QUANT_REQ8_SCALAR, PTOSIM_QUANT_REQ8_VEC, false, true},
    {PTOSIM_DT_I32, PTOSIM_DT_F16, NA, PTOSIM_QUANT_DEQF16_SCALAR, PTOSIM_QUANT_DEQF16_VEC, false, true},
    {PTOSIM_DT_I32, PTOSIM_DT_BF16, NA, PTOSIM_QUANT_QS322BF16_PRE_SCALAR, PTOSIM_QUANT_QS322BF16_PRE_VEC, false,
     false},
};

/* The FIXPIPE quant mode of an acc move, or a diagnostic. */
static ptosim_status acc_mode(pt_ctx *x, const ptosim_tmov_params *p, const mv *v, ptosim_quant_mode *q) {
  const char *form = p->has_fp ? "vector quant" : p->has_quant_scalar ? "scalar quant" : "plain";
  for (size_t i = 0; i < sizeof k_acc_conv / sizeof k_acc_conv[0]; i++) {
    if (k_acc_conv[i].acc != p->src.dtype || k_acc_conv[i].dst != p->dst.dtype) continue;
    bool quant = p->has_fp || p->has_quant_scalar;
    *q = p->has_fp ? k_acc_conv[i].vec : p->has_quant_scalar ? k_acc_conv[i].scalar : k_acc_conv[i].cast;
    bool ok = *q != NA && (v->a5 || (quant ? k_acc_conv[i].a2a3_quant : k_acc_conv[i].a2a3_cast));
    PT_VERIFY(x, ok, RULE(v, "dtype"), "see the acc -> mat / vec type pairs of tmov.md for this target and form",
              "%s %s -> %s move on target %s", form, pt_dtype_name(p->src.dtype), pt_dtype_name(p->dst.dtype),
              x->m->prof->name);
    return PTOSIM_OK;
  }
  if (p->src.dtype == PTOSIM_DT_I32 && p->dst.dtype == PTOSIM_DT_I16 && !v->a5 && (p->has_fp || p->has_quant_scalar)) {
    return pt_fail(x, PTOSIM_E_UNSUPPORTED, RULE(v, "quant_unsupported"), "quantize to i8, u8 or f16 instead",
                   "the a2a3 i32 -> i16 shift quant mode (SHIFTS322S16) has no documented arithmetic");
  }
  return pt_fail(x, PTOSIM_E_VERIFY, RULE(v, "dtype"),
                 "an acc tile converts f32 -> f32 / f16 / bf16 / i8 / u8 / hif8 / fp8, "
                 "i32 -> i32 / i8 / u8 / f16 / bf16",
                 "%s %s -> %s move", form, pt_dtype_name(p->src.dtype), pt_dtype_name(p->dst.dtype));
}

static ptosim_status check_dtypes(pt_ctx *x, const ptosim_tmov_params *p, const mv *v) {
  ptosim_dtype s = p->src.dtype, d = p->dst.dtype;
  unsigned ok = 1;
  switch (v->path) {
    case P_L0:
      ok = s == d &&
           (p->dst.space == PTOSIM_L0A_MX || p->dst.space == PTOSIM_L0B_MX ? s == PTOSIM_DT_F8E8M0
                                                                           : ((v->a5 ? L0_A5 : L0_A2A3) >> s) & 1);
      break;
    case P_VM: /* a5 TInsert.hpp TINSERT_IMPL also inserts i32 and e8m0 (its static_assert type list) */
      ok = s == d && ((L0_A5 | (v->op == MV_INSERT ? T(I32) | T(F8E8M0) : 0)) >> s) & 1;
      break;
    case P_VV: ok = s == d && (kind_of(&p->dst) == PT_TK_ND || (vv_nz_types(p, v) >> s) & 1); break;
    case P_BIAS: /* tmov.md: i32 -> i32, f32 -> f32, f16 -> f32, a5 also bf16 -> f32 */
      ok = (s == PTOSIM_DT_I32 && d == s) ||
           (d == PTOSIM_DT_F32 && (s == PTOSIM_DT_F32 || s == PTOSIM_DT_F16 || (v->a5 && s == PTOSIM_DT_BF16)));
      break;
    case P_FB: ok = s == d && (s == PTOSIM_DT_U64 || s == PTOSIM_DT_I64); break;
    case P_ACC: break;
  }
  PT_VERIFY(x, ok, RULE(v, "dtype"),
            "same element types (bias: f16 / bf16 -> f32 widen); left/right i8, f16, bf16, f32 (a5 also fp8, hif8); "
            "scale e8m0; scaling u64 / i64; NZ vec -> vec: a2a3 8 / 16 / 32-bit ints, f16, bf16, f32, a5 i8, i32, "
            "f16, bf16, f32, fp8, hif8, e8m0; ND -> NZ extract: i8, i32, f16, bf16, f32 (a5 also fp8, hif8, e8m0)",
            "pto.%s %s -> %s: %s -> %s is not a supported type pair on target %s", v->fam, pt_space_name(p->src.space),
            pt_space_name(p->dst.space), pt_dtype_name(s), pt_dtype_name(d), x->m->prof->name);
  return PTOSIM_OK;
}

/* ---- clauses ----------------------------------------------------------------------------- */

static ptosim_status check_forms(pt_ctx *x, const ptosim_tmov_params *p, const mv *v, bool fp_op) {
  bool acc = v->path == P_ACC, quant = p->has_fp || p->has_quant_scalar;
  PT_VERIFY(x, p->relu == PTOSIM_RELU_NONE || p->relu == PTOSIM_RELU_NO_RELU || p->relu == PTOSIM_RELU_NORMAL,
            RULE(v, "relu"), "reluPreMode is no_relu or normal_relu (tmov.md)", "relu mode %d", (int)p->relu);
  PT_VERIFY(x, acc || (!quant && (p->relu == PTOSIM_RELU_NONE || p->relu == PTOSIM_RELU_NO_RELU)), RULE(v, "acc_only"),
            "relu, fp and preQuantScalar apply to moves out of an acc tile", "pto.%s from %s with %s", v->fam,
            pt_space_name(p->src.space), quant ? "a quant parameter" : "relu");
  /* the plain ops take an optional fp tile too (PTOAS's `fp %fp` operand) */
  PT_VERIFY(x, p->has_fp || !fp_op, RULE(v, "fp"), "the _fp forms take a scaling tile: set has_fp and fp",
            "pto.%s_fp needs a scaling tile", v->fam);
  PT_VERIFY(x, !(p->has_fp && p->has_quant_scalar), RULE(v, "fp"), "give either fp or preQuantScalar",
            "both a vector (fp) and a scalar quant parameter");
  if (p->has_fp)
    PT_VERIFY(x, p->fp.space == PTOSIM_FB && pt_dtype_size(p->fp.dtype) == 8, RULE(v, "fp"),
              "fp is a loc = scaling tile of 8-byte (u64 / i64) quant words", "fp tile of %s in %s",
              pt_dtype_name(p->fp.dtype), pt_space_name(p->fp.space));
  PT_VERIFY(x,
            (unsigned)p->acc_to_vec <= PTOSIM_A2V_DUAL_SPLIT_N &&
                (p->acc_to_vec == PTOSIM_A2V_SINGLE_VEC0 || (acc && p->dst.space == PTOSIM_UB)),
            RULE(v, "acc_to_vec"), "accToVecMode is for acc -> vec moves", "accToVecMode %d on a %s -> %s move",
            (int)p->acc_to_vec, pt_space_name(p->src.space), pt_space_name(p->dst.space));
  /* tinsertMode: a5 TInsert.hpp TINSERT_IMPL<TInsertMode> static_asserts (NZ vec -> mat) */
  PT_VERIFY(x,
            !p->insert_split || ((p->insert_split == 2 || p->insert_split == 4) && v->a5 && v->op == MV_INSERT &&
                                 v->path == P_VM && kind_of(&p->src) == PT_TK_NZ),
            RULE(v, "split"), "tinsertMode split2 / split4 is an A5 tinsert of an NZ vec tile into a mat tile",
            "insert split %d on %s: pto.%s of a %s %s tile to %s", p->insert_split, x->m->prof->name, v->fam,
            pt_tile_kind_name(kind_of(&p->src)), pt_space_name(p->src.space), pt_space_name(p->dst.space));
  return PTOSIM_OK;
}

/* ---- region ------------------------------------------------------------------------------ */

/* The region an op moves (pto-isa a5 TMov.hpp / TExtract.hpp / TInsert.hpp):
 *   left / right / scale destinations are written whole: the static shape, or the valid shape
 *     rounded up to whole fractals when compact (TExtractToA / TExtractToACompact); a GEMV
 *     vector in whole 512-byte fractals of its valid columns (TExtractToAVector);
 *   bias / scaling: the source row (TMovToBt / TMovToFb);
 *   vec -> vec tmov: the smaller valid shape of the two (TMovToVec); extract: dst valid shape;
 *   vec -> mat: the destination valid shape, in whole fractals for NZ (TExtractVecToMat);
 *   insert from vec: the source valid shape, NZ columns in whole 32-byte blocks (TInsert NZ);
 *   from acc (FIXPIPE): m x n of the source valid shape (tmov, tinsert) or the destination valid
 *     shape (textract); into NZ every stored acc row (tmov, tinsert: SrcTileData::Rows) and n
 *     rounded up to the destination block width (TMovCcToCb "nz2nz", TInsertAccToMat). */
static void plan(const ptosim_tmov_params *p, mv *v) {
  const ptosim_tile *s = &p->src, *d = &p->dst;
  const ptosim_tile *shape = v->op == MV_INSERT || (v->op == MV_TMOV && v->path == P_ACC) ? s : d;
  bool nz = v->d.boxed;
  v->lh = shape->valid_rows, v->lw = shape->valid_cols;
  if (v->op == MV_TMOV && v->path == P_VV)
    v->lh = tg_min(s->valid_rows, d->valid_rows), v->lw = tg_min(s->valid_cols, d->valid_cols);
  if (v->path == P_BIAS || v->path == P_FB) v->lh = 1, v->lw = s->cols;
  if (v->path == P_L0 && kind_of(d) == PT_TK_VEC) v->lh = 1, v->lw = tg_align(d->valid_cols, 512 / v->d.es);
  if (v->path == P_L0 && kind_of(d) != PT_TK_VEC) v->lh = v->d.rows, v->lw = v->d.cols;
  v->h = v->lh, v->w = v->lw;
  /* a5 ZN vec -> mat inserts copy 32-byte columns of whole row boxes (TInsertZNImpl: ceil(validRow
   * / irSize) bursts of validCol columns) */
  bool zn_insert = v->op == MV_INSERT && v->path == P_VM && kind_of(s) == PT_TK_ZN;
  if (zn_insert) v->h = tg_align(v->h, v->s.ir);
  /* split inserts copy whole 16-row fractals of every column block (TInsertSplitImpl: alignedRow
   * rows per burst; the 2 or 4 copies together cover all ceil(vC / C0) blocks) */
  if (p->insert_split) v->lh = v->h = tg_align(v->h, 16);
  if (v->op == MV_INSERT && v->s.boxed && v->path != P_ACC && !zn_insert && !one_elem(v))
    v->w = tg_align(v->w, v->s.ic);
  /* a2a3 NZ vec -> vec inserts copy the whole 32-byte stripes, then the tail columns with a
   * vcopy of 2-byte units (TInsert.hpp TInsertVecToVecNZUnaligned): an odd 1-byte tail
   * column is not copied. */
  if (v->op == MV_INSERT && v->s.boxed && v->path == P_VV && !v->a5 && !one_elem(v))
    v->w = v->lw - (v->lw * v->s.es) % 2;
  /* NZ vec -> vec extracts (TExtractVecToVecNZ*): a5 copies whole 32-byte stripes of the valid
   * columns, a2a3 as its inserts above */
  if (v->op == MV_EXTRACT && v->s.boxed && v->d.boxed && v->path == P_VV && !one_elem(v))
    v->w = v->a5 ? tg_align(v->w, v->d.ic) : v->lw - (v->lw * v->d.es) % 2;
  /* ND -> NZ extracts write exactly the window (a5 predicated vsstb / vsts, a2a3 masked vcopy /
   * element copies), the column blocks of dst apart by: a5 the valid rows rounded up to 16
   * rows (+ 1 for row_plus_one) whatever the tile's rows (TExtractNdToNz blockStride); a2a3
   * the tile's Rows (DispatchNdToNz's three paths). */
  if (nd_to_nz(p, v)) v->d.sc = (v->a5 ? tg_align(d->valid_rows, 16) + (d->compact == 2) : d->rows) * v->d.ic;
  if (v->op != MV_INSERT && v->path == P_VM && nz) v->h = tg_align(v->h, v->d.ir), v->w = tg_align(v->w, v->d.ic);
  if (v->path == P_ACC && nz && v->op != MV_EXTRACT) v->h = tg_min(v->s.rows, v->s.sc / v->s.ic); /* rows of a block */
  if (v->path == P_ACC && nz) v->w = tg_align(v->w, v->d.ic);
  bool from_index = v->op == MV_EXTRACT;
  v->sr = from_index ? p->index_row : 0, v->sc = from_index ? p->index_col : 0;
  v->dr = v->op == MV_INSERT ? p->index_row : 0, v->dc = v->op == MV_INSERT ? p->index_col : 0;
}

static bool inside(const tg_geom *g, int64_t r, int64_t c, int64_t h, int64_t w) {
  return r >= 0 && c >= 0 && r + h <= g->rows && c + w <= g->cols;
}

static ptosim_status check_region(pt_ctx *x, const ptosim_tmov_params *p, const mv *v) {
  /* Dual acc -> vec modes put half of the rows / columns into each sub-block's tile. */
  int64_t dh = p->acc_to_vec == PTOSIM_A2V_DUAL_SPLIT_M ? v->lh / 2 : v->lh;
  int64_t dw = p->acc_to_vec == PTOSIM_A2V_DUAL_SPLIT_N ? v->lw / 2 : v->lw;
  PT_VERIFY(x, inside(&v->s, v->sr, v->sc, v->lh, v->lw) && inside(&v->d, v->dr, v->dc, dh, dw), RULE(v, "bounds"),
            "the moved window must lie inside both tiles: index + extent <= rows / cols",
            "pto.%s moves %" PRId64 "x%" PRId64 " from (%" PRId64 ", %" PRId64 ") of a %" PRId64 "x%" PRId64
            " source to (%" PRId64 ", %" PRId64 ") of a %" PRId64 "x%" PRId64 " destination",
            v->fam, v->lh, v->lw, v->sr, v->sc, v->s.rows, v->s.cols, v->dr, v->dc, v->d.rows, v->d.cols);
  /* Fractal moves start on whole fractals (load_cbuf_to_c* mStart / kStart count 16 rows and
   * 32 bytes); 32-byte block moves and FIXPIPE NZ writes on whole blocks of a row. */
  bool ok = true;
  if (v->path == P_L0 && v->s.boxed) ok = v->sr % v->s.ir == 0 && v->sc % v->s.ic == 0;
  bool scalar = one_elem(v);                                                       /* any element */
  bool flat = flat_insert(p, v);                                                   /* run_flat checks it */
  if ((v->path == P_VV || v->path == P_VM) && v->s.boxed && !scalar && !flat) ok = v->sc % v->s.ic == 0;
  /* a2a3 NZ vec -> vec extracts start on a fractal row too (TExtractVecToVecNZDispatch's "A3
   * limitation" asserts) */
  if (v->path == P_VV && v->op == MV_EXTRACT && !v->a5 && v->s.boxed && !scalar) ok = ok && v->sr % v->s.ir == 0;
  bool zn = v->path == P_VM && kind_of(&p->dst) == PT_TK_ZN; /* rows in whole boxes, any column */
  if ((v->path == P_VV || v->path == P_VM || v->path == P_ACC) && v->d.boxed && !zn && !flat && !scalar)
    ok = ok && v->dc % v->d.ic == 0;
  if (zn) ok = ok && v->dr % v->d.ir == 0 && v->lh % v->d.ir == 0; /* a5 TInsertVecToMatImpl's ZN asserts */
  /* a2a3 ND vec -> vec inserts of more than one element start on a 32-byte block (TInsert.hpp
   * TInsertVecToVecNDDispatch's "A3 limitation" assert) */
  if (v->path == P_VV && v->op == MV_INSERT && !v->a5 && !v->d.boxed && !scalar)
    ok = ok && (v->dc * v->d.es) % 32 == 0;
  PT_VERIFY(x, ok, RULE(v, "index_align"),
            "fractal tiles move whole fractals (16 rows x 32 bytes) or whole 32-byte row blocks; ZN vec -> mat "
            "inserts whole row boxes (32 / elem bytes rows) from a row-box boundary",
            "index (%" PRId64 ", %" PRId64 ") does not start a %s box", p->index_row, p->index_col,
            v->path == P_L0 ? "source" : "row");
  /* the rows an ND -> NZ extract writes must lie inside dst (a5 steps its column blocks by the
   * rounded valid rows, more than the rows of a tile that has fewer) */
  PT_VERIFY(x,
            !nd_to_nz(p, v) || (uint64_t)(tg_off(&v->d, v->lh - 1, v->lw - 1) + 1) <= (uint64_t)p->dst.rows * p->dst.cols,
            RULE(v, "bounds"), "give the NZ tile at least its valid rows rounded up to 16 (+ 1 for row_plus_one)",
            "ND -> NZ extract of %" PRId64 "x%" PRId64 " writes past the %dx%d destination tile", v->lh, v->lw,
            p->dst.rows, p->dst.cols);
  PT_VERIFY(x, v->path != P_VV || kind_of(&p->dst) != PT_TK_ZN || (v->h % v->d.ir == 0 && v->w % 16 == 0),
            RULE(v, "zn_shape"),
            "ND -> ZN repacks whole K0 x 16 fractals: rows a multiple of 32 / es, cols a multiple of 16 (tmov.md)",
            "ND -> ZN of %" PRId64 "x%" PRId64 " %s elements", v->h, v->w, pt_dtype_name(p->dst.dtype));
  return PTOSIM_OK;
}

/* Shape rules of single paths (tmov.md "implementation checks"). */
static ptosim_status check_path_shape(pt_ctx *x, const ptosim_tmov_params *p, const mv *v) {
  const ptosim_tile *s = &p->src, *d = &p->dst;
  PT_VERIFY(x, v->op != MV_TMOV || !(s->space == PTOSIM_L1 || !v->a5) || (s->rows == d->rows && s->cols == d->cols),
            RULE(v, "static_shape"), "tmov from a mat tile (any tmov on a2a3) keeps the static shape",
            "source %dx%d, destination %dx%d", s->rows, s->cols, d->rows, d->cols);
  if (v->path == P_BIAS || v->path == P_FB) {
    bool bias = v->path == P_BIAS;
    int64_t unit = bias ? 64 : 128, bytes = v->a5 ? (int64_t)d->cols * v->d.es : (int64_t)s->cols * v->s.es;
    PT_VERIFY(x, s->rows == 1 && d->rows == 1 && bytes % unit == 0 && (!v->a5 || bytes <= 4096),
              RULE(v, bias ? "bias_shape" : "scaling_shape"),
              bias ? "bias: one row, cols * elem bytes a multiple of 64 (a5: of the f32 destination, <= 4096 bytes)"
                   : "scaling: one row, cols * 8 a multiple of 128 (a5: <= 4096 bytes)",
              "%s tile of %d row(s), %" PRId64 " bytes per row", bias ? "bias" : "scaling", s->rows, bytes);
  }
  if (v->path == P_ACC) { /* CheckTMovAccValid / CheckTMovAccToMat: dst stride * es a multiple of 32 */
    pt_tile_kind k = kind_of(d);
    int64_t stride = k == PT_TK_DN ? d->rows : k == PT_TK_ND || !v->a5 ? d->cols : 32 / (int64_t)v->d.es;
    PT_VERIFY(x, stride * (int64_t)v->d.es % 32 == 0, RULE(v, "dst_stride"),
              "the FIXPIPE destination stride is whole 32-byte blocks: ND cols / DN rows * elem bytes % 32 == 0",
              "%s destination with a %" PRId64 "-element stride of %s", pt_tile_kind_name(k), stride,
              pt_dtype_name(d->dtype));
  }
  return PTOSIM_OK;
}

/* ---- execution --------------------------------------------------------------------------- */

static ptosim_core *block_core(pt_ctx *x, ptosim_core_kind k) { return ptosim_core_of(x->m, x->core->block, k); }

/* The core owning the destination: the cube core for mat from a vector core, the vector
 * sub-block of accToVecMode for vec from the cube core. */
static ptosim_core *dst_owner(pt_ctx *x, const ptosim_tmov_params *p) {
  if (p->dst.space == PTOSIM_L1) return block_core(x, PTOSIM_AIC);
  if (p->dst.space == PTOSIM_UB && x->core->kind == PTOSIM_AIC)
    return block_core(x, p->acc_to_vec == PTOSIM_A2V_SINGLE_VEC1 ? PTOSIM_AIV1 : PTOSIM_AIV0);
  return x->core;
}

/* a2a3 DispatchNdToNz takes an i8 window of an odd column count from a 32-byte column block
 * (not 1 x 1) through UB scratch at TMP_UB_OFFSET (pto-isa common/constants.hpp: 184 KiB, 8
 * KiB): TExtractNdToNzWiden converts each 32-column block of it, 128 rows (TMP_UB_SIZE / 64)
 * at a time, to f16 rows 64 bytes apart there (vconv_s82f16 on the block's column lanes), then
 * back to i8 into dst (exact). The scratch keeps the last f16 written to each lane. */
#define WIDEN_TMP (184 * 1024)
static ptosim_status widen_scratch(pt_ctx *x, const ptosim_tmov_params *p, const mv *v, const uint8_t *sb) {
  if (v->a5 || v->s.es != 1 || v->lw % 2 == 0 || (v->lh == 1 && v->lw == 1) || p->index_col % 32) return PTOSIM_OK;
  int64_t one = 1, step = 0;
  uint8_t *tmp;
  PT_TRY(pt_region_on(x, x->core, PTOSIM_UB, WIDEN_TMP, 1, &one, &step, (uint64_t)tg_min(v->lh, 128) * 64, 32,
                      PT_WRITE, &tmp));
  for (int64_t c = 0; c < v->lw; c += 32)
    for (int64_t r = 0; r < v->lh; r++)
      for (int64_t j = c; j < tg_min(c + 32, v->lw); j++)
        pt_store_from_f32(PTOSIM_DT_F16, tmp + r % 128 * 64 + (j - c) * 2,
                          (float)(int8_t)sb[tg_off(&v->s, v->sr + r, v->sc + j)], PT_RND_RINT, PT_SAT_OFF);
  return PTOSIM_OK;
}

/* Copies, with the f16 / bf16 -> f32 widening of bias tables (exact). */
static ptosim_status run_copy(pt_ctx *x, const ptosim_tmov_params *p, const mv *v) {
  uint8_t *sb, *db;
  PT_TRY(pt_tile_map(x, x->core, &v->s, v->sr, v->sc, v->h, v->w, PT_READ, &sb));
  PT_TRY(pt_tile_map(x, dst_owner(x, p), &v->d, v->dr, v->dc, v->h, v->w, PT_WRITE, &db));
  if (v->s.dt == v->d.dt) {
    pt_tile_copy(&v->d, db, v->dr, v->dc, &v->s, sb, v->sr, v->sc, v->h, v->w);
    return nd_to_nz(p, v) ? widen_scratch(x, p, v, sb) : PTOSIM_OK;
  }
  for (int64_t j = 0; j < v->w; j++)
    pt_store_from_f32(v->d.dt, db + tg_off(&v->d, 0, j) * v->d.es,
                      pt_load_as_f32(v->s.dt, sb + tg_off(&v->s, 0, j) * v->s.es), PT_RND_RINT, PT_SAT_OFF);
  return PTOSIM_OK;
}

/* a5 TInsertNDImpl (TInsert.hpp:305-330): the source's storage bytes, read as an ND array of
 * src cols elements per row, to the destination's, written as one of dst cols per row, from
 * dst element index_row * dst cols + index_col, in 32-byte blocks (copy_ubuf_to_cbuf bursts),
 * whatever boxes the tiles have. With B = vR * vC * es bytes:
 *   vC = src cols = dst cols and B >= 32: one burst of floor(B / 32) blocks;
 *   else vC * es >= 32: vR bursts of floor(vC * es / 32) blocks, the next burst of each side
 *     floor((cols - vC) * es / 32) blocks after the end of the last;
 *   else: one burst of ceil(B / 32) blocks.
 * Bytes past the whole blocks are not moved. */
static ptosim_status run_flat(pt_ctx *x, const ptosim_tmov_params *p, const mv *v) {
  int64_t es = v->s.es, vr = p->src.valid_rows, vc = p->src.valid_cols, row = vc * es, bytes = vr * row;
  int64_t sb = p->src.cols * es, db = p->dst.cols * es; /* bytes per ND row */
  int64_t n = 1, len = tg_align(bytes, 32), ss = 0, ds = 0;
  if (vc == p->src.cols && vc == p->dst.cols && bytes >= 32)
    len = bytes / 32 * 32;
  else if (row >= 32)
    n = vr, len = row / 32 * 32, ss = len + (sb - row) / 32 * 32, ds = len + (db - row) / 32 * 32;
  int64_t off = (p->index_row * p->dst.cols + p->index_col) * es;
  PT_VERIFY(x, off % 32 == 0, RULE(v, "index_align"),
            "a flat (ND / ZZ) vec -> mat insert starts on a 32-byte block: (index_row * dst cols + index_col) * "
            "elem bytes % 32 == 0",
            "flat insert at byte %" PRId64 " of the destination", off);
  PT_VERIFY(x, off + (n - 1) * ds + len <= p->dst.rows * db && (n - 1) * ss + len <= p->src.rows * sb,
            RULE(v, "bounds"), "the 32-byte blocks a flat insert moves must lie inside both tiles",
            "%" PRId64 " burst(s) of %" PRId64 " bytes from byte %" PRId64 " leave a %d-byte source or a %d-byte "
            "destination",
            n, len, off, p->src.rows * p->src.cols * (int)es, p->dst.rows * p->dst.cols * (int)es);
  uint8_t *sp, *dp;
  PT_TRY(pt_region_on(x, x->core, p->src.space, p->src.addr, 1, &n, &ss, (uint64_t)len, 32, PT_READ, &sp));
  PT_TRY(pt_region_on(x, dst_owner(x, p), p->dst.space, p->dst.addr + (uint64_t)off, 1, &n, &ds, (uint64_t)len, 32,
                      PT_WRITE, &dp));
  for (int64_t i = 0; i < n; i++) memcpy(dp + i * ds, sp + i * ss, (size_t)len);
  return PTOSIM_OK;
}

/* FIXPIPE conversion of rows [0, h) x columns [0, w) of the region: runs along an acc
 * fractal row (16 columns, or longer from a 16-aligned column: the converter steps blocks by
 * the acc column-block stride) converted straight into row-contiguous destinations, through
 * a buffer into column-major ones. Channel (vector quant word) = source column. */
static void acc_walk(const pt_fq_conv *cv, const mv *v, const uint8_t *sb, uint8_t *db, int64_t r0, int64_t c0,
                     int64_t h, int64_t w, int64_t dr, int64_t dc) {
  const tg_geom *s = &v->s, *d = &v->d;
  int64_t blk = s->sc * 4;
  uint8_t tmp[16 * 4];
  for (int64_t i = 0; i < h; i++)
    for (int64_t j = 0, n; j < w; j += n) {
      int64_t c = c0 + j;
      const uint8_t *sp = sb + tg_off(s, r0 + i, c) * 4;
      n = tg_min(w - j, c % 16 ? 16 - c % 16 : w);
      if (!d->in_col) {
        n = tg_min(n, tg_run(d, dr + i, dc + j));
        cv->run(cv, sp, blk, c, (int)n, db + tg_off(d, dr + i, dc + j) * d->es);
        continue;
      }
      n = tg_min(n, 16);
      cv->run(cv, sp, blk, c, (int)n, tmp);
      for (int64_t t = 0; t < n; t++) memcpy(db + tg_off(d, dr + i, dc + j + t) * d->es, tmp + t * d->es, d->es);
    }
}

/* The converter of an acc move: quant mode of the form, QUANT_PRE word or fp words, relu;
 * saturation as the reset CTRL state (nosat, like pto.mte_l0c_*). */
static ptosim_status make_conv(pt_ctx *x, const ptosim_tmov_params *p, const mv *v, pt_fq_conv *cv) {
  ptosim_quant_mode q = PTOSIM_QUANT_NONE;
  PT_TRY(acc_mode(x, p, v, &q));
  memset(cv, 0, sizeof *cv);
  cv->mode = pt_fq_mode_of(q);
  cv->acc = p->src.dtype;
  cv->dst = p->dst.dtype;
  cv->sat = PT_SAT_OFF;
  cv->relu = p->relu == PTOSIM_RELU_NORMAL ? PTOSIM_RELU_NORMAL : PTOSIM_RELU_NONE;
  /* QUANT_PRE word (SET_QUANT_SCALAR, tmov %preQuantScalar): the whole f32 in bits [31:0] as
   * the scale (as pto.mte_l0c_* scalar payloads), offset [45:37] and sign [46] as the fb words. */
  cv->q = pt_fq_decode(p->quant_scalar);
  uint32_t lo = (uint32_t)p->quant_scalar;
  memcpy(&cv->q.scale, &lo, 4);
  if (p->has_fp) {
    PT_VERIFY(x, p->fp.valid_cols >= v->sc + v->lw, RULE(v, "fp"), "the fp tile holds one quant word per source column",
              "fp tile has %d words, the move reads %" PRId64, p->fp.valid_cols, v->sc + v->lw);
    uint8_t *h;
    PT_TRY(pt_span(x, PTOSIM_FB, p->fp.addr, (uint64_t)(v->sc + v->w) * 8, 128, PT_READ, &h));
    cv->qvec = h;
  }
  pt_fq_select(cv);
  return PTOSIM_OK;
}

static ptosim_status run_acc(pt_ctx *x, const ptosim_tmov_params *p, const mv *v) {
  pt_fq_conv cv;
  PT_TRY(make_conv(x, p, v, &cv));
  ptosim_acc_to_vec_mode mode = p->acc_to_vec;
  bool dual = mode == PTOSIM_A2V_DUAL_SPLIT_M || mode == PTOSIM_A2V_DUAL_SPLIT_N;
  /* tmov.md A5 checks: dual modes without quant and not nz2dn; split_n of 32-bit data needs
   * n % 32 == 0; split_m halves m (even, as pto.mte_l0c_ub). */
  PT_VERIFY(
      x,
      !dual || (cv.mode->kind == PT_FQ_NONE && cv.acc == cv.dst && cv.relu == PTOSIM_RELU_NONE &&
                kind_of(&p->dst) != PT_TK_DN && (mode == PTOSIM_A2V_DUAL_SPLIT_M ? v->h % 2 == 0 : v->w % 32 == 0)),
      RULE(v, "dual"),
      "dual modes move the accumulator type without relu, to ND / NZ, split_m with even rows, split_n "
      "with columns a multiple of 32",
      "dual mode %d on a %" PRId64 "x%" PRId64 " %s -> %s %s move", (int)mode, v->h, v->w, pt_dtype_name(cv.acc),
      pt_tile_kind_name(kind_of(&p->dst)), pt_dtype_name(cv.dst));
  uint8_t *sb, *db[2];
  PT_TRY(pt_tile_map(x, x->core, &v->s, v->sr, v->sc, v->h, v->w, PT_READ, &sb));
  if (!dual) {
    PT_TRY(pt_tile_map(x, dst_owner(x, p), &v->d, v->dr, v->dc, v->h, v->w, PT_WRITE, &db[0]));
    acc_walk(&cv, v, sb, db[0], v->sr, v->sc, v->h, v->w, v->dr, v->dc);
    return PTOSIM_OK;
  }
  /* Halves: rows [0, h/2) / columns [0, w/2) to sub-block 0, the rest to sub-block 1, each at
   * the destination origin of its own UB. */
  int64_t hh = mode == PTOSIM_A2V_DUAL_SPLIT_M ? v->h / 2 : v->h,
          hw = mode == PTOSIM_A2V_DUAL_SPLIT_N ? v->w / 2 : v->w;
  for (int i = 0; i < 2; i++)
    PT_TRY(pt_tile_map(x, block_core(x, i ? PTOSIM_AIV1 : PTOSIM_AIV0), &v->d, v->dr, v->dc, hh, hw, PT_WRITE, &db[i]));
  for (int i = 0; i < 2; i++)
    acc_walk(&cv, v, sb, db[i], v->sr + (hh < v->h ? i * hh : 0), v->sc + (hw < v->w ? i * hw : 0), hh, hw, v->dr,
             v->dc);
  return PTOSIM_OK;
}

/* The NPU's 1-byte moves into left / right tiles whose source fractals have the other inner
 * order (a transposing load) store the compact layout whatever the tile's compact mode:
 * TExtractTo{A,B}TransCompact by the valid shape (a5 TMov.hpp TMovToLeft / TMovToRight and
 * TExtract.hpp TExtractToLeft / TExtractToRight: `Compact == Normal || sizeof(T) == 1`;
 * a2a3 tmov_common.hpp the same). docs/spec-notes.md section 34. */
static bool packs(const ptosim_tmov_params *p, const mv *v) {
  return v->path == P_L0 && (p->dst.space == PTOSIM_L0A || p->dst.space == PTOSIM_L0B) &&
         kind_of(&p->dst) != PT_TK_VEC && v->d.es == 1 && p->src.slayout != PTOSIM_SL_NONE_BOX &&
         p->src.slayout != p->dst.slayout && p->dst.compact != 1;
}

/* The rows of each 16-column block an acc read steps over: a compact tile's valid rows
 * rounded to 16; on A5 also for tmov of a tile whose valid rows are given at run time (a5
 * TMov.hpp GetTmovAccSrcStride) and for tinsert into a row-major vec tile (a5 TInsert.hpp
 * TInsertAccToVec); else the tile's rows (a5 TExtract.hpp, TInsert.hpp to mat, a2a3
 * tmov_common.hpp). The cube may have written the tile with another (pt_acc_pitch_check). */
static int64_t acc_pitch(const ptosim_tmov_params *p, const mv *v) {
  const ptosim_tile *s = &p->src;
  bool valid = s->compact == 1 || (v->a5 && v->op == MV_TMOV && (s->dyn_valid & PTOSIM_DYN_VALID_ROWS)) ||
               (v->a5 && v->op == MV_INSERT && p->dst.space == PTOSIM_UB && kind_of(&p->dst) == PT_TK_ND);
  return valid ? tg_align(s->valid_rows, 16) : v->s.rows;
}

static ptosim_status run(pt_ctx *x, const ptosim_tmov_params *p, mv_op op, bool fp_op) {
  static const char *const fams[] = {"tmov", "textract", "tinsert"};
  mv v = {.op = op, .fam = fams[op], .a5 = x->m->target == PTOSIM_TARGET_A5};
  PT_TRY(check_pair(x, p, &v));
  PT_TRY(pt_tile_geom(x, "src", &p->src, &v.s));
  PT_TRY(pt_tile_geom(x, "dst", &p->dst, &v.d));
  PT_TRY(check_layouts(x, p, &v));
  PT_TRY(check_forms(x, p, &v, fp_op));
  PT_TRY(check_dtypes(x, p, &v));
  PT_TRY(check_path_shape(x, p, &v));
  if (v.path == P_ACC) {
    int64_t pitch = acc_pitch(p, &v);
    PT_TRY(pt_acc_pitch_check(x, RULE(&v, "acc_pitch"), &p->src, pitch));
    v.s.sc = pitch * v.s.ic;
  }
  bool packed = packs(p, &v);
  if (packed) {
    ptosim_tile c = p->dst;
    c.compact = 1;
    PT_TRY(pt_tile_geom(x, "dst", &c, &v.d));
  }
  plan(p, &v);
  PT_TRY(check_region(x, p, &v));
  if (v.path == P_ACC) return run_acc(x, p, &v);
  if (flat_insert(p, &v)) return run_flat(x, p, &v);
  PT_TRY(run_copy(x, p, &v));
  if (p->dst.space == PTOSIM_L0A || p->dst.space == PTOSIM_L0B) {
    pt_l0_layout r = {v.d.addr, v.d.addr + tg_bytes(&v.d), p->dst.space, p->dst.dtype, p->dst.valid_rows,
                      p->dst.valid_cols, 0};
    pt_l0_note(x->core, p->dst.space, r.addr, r.end, packed ? &r : NULL);
  }
  return PTOSIM_OK;
}

ptosim_status pt_exec_tmov(pt_ctx *x, const ptosim_tmov_params *p) { return run(x, p, MV_TMOV, false); }
ptosim_status pt_exec_tmov_fp(pt_ctx *x, const ptosim_tmov_params *p) { return run(x, p, MV_TMOV, true); }
ptosim_status pt_exec_textract(pt_ctx *x, const ptosim_tmov_params *p) { return run(x, p, MV_EXTRACT, false); }
ptosim_status pt_exec_textract_fp(pt_ctx *x, const ptosim_tmov_params *p) { return run(x, p, MV_EXTRACT, true); }
ptosim_status pt_exec_tinsert(pt_ctx *x, const ptosim_tmov_params *p) { return run(x, p, MV_INSERT, false); }
ptosim_status pt_exec_tinsert_fp(pt_ctx *x, const ptosim_tmov_params *p) { return run(x, p, MV_INSERT, true); }
