/* FIXPIPE writeback: pto.mte_l0c_l1, pto.mte_l0c_gm, pto.mte_l0c_ub.
 * Spec: vpto docs/isa/micro-isa/16-cube-matmul.md "FIXPIPE MTE Ops" (clauses, constraints);
 * pto-isa docs/isa/cube/fixpipe-model.md and ops/data-movement/mte-l0c-*.md. Lowering evidence:
 * PTOAS lib/PTO/Transforms/VPTOExpandWrapperOps.cpp (ExpandAccStore*Pattern) and pto-isa
 * include/pto/common/arch/register/tstore_common.hpp, include/pto/npu/a5/TMov.hpp.
 *
 * Source: the L0C accumulator (f32 or i32), N1 M1 M0 N0 fractals of 16 x 16 elements:
 *   acc[m][n] at src + (n / 16) * src_stride * 64 + m * loop0 * 64 + (n % 16) * 4   (bytes)
 * src_stride, loop0_src_stride and the loop3 source stride count "C0-size units" of the
 * accumulator: one 16-element row, 64 bytes (real programs store m = 40 rows with
 * src_stride = 48 = ceil16(40); pto-isa TStoreAccNHWC steps loop3 by rows * cols / 16).
 * The spec's loop3 pseudo code multiplies by 32 instead; that would not match src_stride.
 * loop0 is loop0_src_stride for nz2dn (1 = packed rows) and 1 otherwise.
 *
 * Destination, element offsets from dst (dst_stride ds and loop3 dst stride ds3 in
 * destination elements, r = loop3 repetition):
 *   nz2nd   r * ds3 + m * ds + n                                      (row-major)
 *   nz2dn   r * ds3 + n * ds + m                                      (column-major)
 *   nz2nz   (n / c0) * ds + m * c0 + n % c0, f32 only, c0 = 16 f32 (64-byte rows) or 8 with
 *           channel split (pto-isa TStoreAccNZ / GetTmovAccDstStride)
 * No layout clause: PTOAS lowers it with NZ2ND_EN = 1, so it is nz2nd for every destination
 * (the spec's "normal writeback layout" wording names no other order).
 *
 * Elements are written in the order loop3 repetition, row m, column n. Per-channel fb
 * parameters are indexed by the logical column n. The conversion pipeline is in
 * fixpipe_quant.c. unit_flag is validated only: ptosim keeps no unit-flag state (ordering
 * against pto.mad is the hazard checker's business); sid and l2_cache_ctrl are hints. */
#include <inttypes.h>
#include <string.h>

#include "isa/fixpipe_quant.h"
#include "isa/isa.h"

#define ACC_ROW 64 /* bytes of one 16-element accumulator row: the L0C C0-size unit */
#define MAX16 65535
#define MAX32 4294967295LL

/* How one op walks source and destination. */
typedef struct fix_plan {
  unsigned es;                           /* destination element bytes; 0 for i4 (nibbles) */
  int64_t reps;                          /* loop3 count, 1 without loop3 */
  int64_t src_rep, src_blk, src_row;     /* source bytes per repetition / 16-column block / row */
  int64_t dst_rep;                       /* destination elements per repetition */
  int64_t row_step, blk_step, elem_step; /* destination elements per row / run / column in a run */
  int w;                                 /* columns per run: a fractal row, split at dst blocks */
} fix_plan;

/* One destination tile: the whole result, or one half of a dual-destination store. */
typedef struct fix_tile {
  ptosim_core *core; /* owner of the destination space */
  int64_t row0, col0, rows, cols;
  const uint8_t *src; /* host byte of acc[row0][col0] */
  uint8_t *dst;       /* host byte of destination element 0 */
} fix_tile;

/* ---- constraints -------------------------------------------------------------------- */

static bool is_payload_float(ptosim_dtype t) {
  return t == PTOSIM_DT_F16 || t == PTOSIM_DT_BF16 || t == PTOSIM_DT_F32;
}

static ptosim_status check_shape(pt_ctx *x, const ptosim_fixpipe_params *p) {
  PT_TRY(pt_expect_space(x, "src", p->src, PTOSIM_L0C));
  PT_VERIFY(x, p->src.dtype == PTOSIM_DT_F32 || p->src.dtype == PTOSIM_DT_I32, "fixpipe.src_dtype",
            "the accumulator is !pto.ptr<f32, l0c> or !pto.ptr<i32, l0c>", "accumulator element type %s is not f32 or i32",
            pt_dtype_name(p->src.dtype));
  /* Field widths of the lowering (Xm[15:4] n, Xm[31:16] m, Xt[15:0] src stride, Xm[63:32] dst
   * stride): PTOAS packCopyMatrixCcToGmXm / packCopyMatrixCcToGmXt. */
  PT_VERIFY(x, p->m >= 1 && p->m <= MAX16 && p->n >= 1 && p->n <= 4095, "fixpipe.shape",
            "m is in [1, 65535] and n in [1, 4095]", "result shape m = %" PRId64 ", n = %" PRId64 " is out of range",
            p->m, p->n);
  PT_VERIFY(x, p->src_stride >= 0 && p->src_stride <= MAX16 && p->dst_stride >= 0 && p->dst_stride <= MAX32,
            "fixpipe.stride", "src_stride is in [0, 65535] C0 units, dst_stride in [0, 2^32 - 1] elements",
            "src_stride = %" PRId64 " or dst_stride = %" PRId64 " is out of range", p->src_stride, p->dst_stride);
  PT_VERIFY(x,
            (unsigned)p->quant < PTOSIM_QUANT_COUNT && (unsigned)p->relu <= PTOSIM_RELU_VECTOR &&
                (unsigned)p->layout <= PTOSIM_FIX_NZ2NZ && (unsigned)p->sat <= PTOSIM_SAT_NOSAT &&
                (unsigned)p->atomic <= PTOSIM_ATOMIC_MIN,
            "fixpipe.clause", "use the enumerators of ptosim/ops.h",
            "invalid clause value (quant %d, relu %d, layout %d, sat %d, atomic %d)", (int)p->quant, (int)p->relu,
            (int)p->layout, (int)p->sat, (int)p->atomic);
  PT_VERIFY(x, p->unit_flag != PTOSIM_UNIT_FLAG_CHECK_AND_SET && (unsigned)p->unit_flag <= PTOSIM_UNIT_FLAG_CHECK_AND_CLEAR,
            "fixpipe.unit_flag", "FIXPIPE takes unit_flag(check_only) or unit_flag(check_and_clear)",
            "unit_flag mode %d is not a FIXPIPE mode (check_and_set belongs to pto.mad)", (int)p->unit_flag);
  return PTOSIM_OK;
}

static ptosim_status check_quant(pt_ctx *x, const ptosim_fixpipe_params *p) {
  const pt_fq_mode *q = pt_fq_mode_of(p->quant);
  ptosim_dtype src = p->src.dtype, dst = p->dst.dtype;
  if (p->quant == PTOSIM_QUANT_NONE) {
    PT_VERIFY(x, p->quant_scalar.dtype == PTOSIM_DT_NONE && p->quant_vec.dtype == PTOSIM_DT_NONE,
              "fixpipe.quant_payload", "pre_quant takes its payload and mode together",
              "a pre_quant payload is given without a pre_quant mode");
    PT_VERIFY(x, dst == src, "fixpipe.quant_dtype", "store the accumulator type, or add a pre_quant mode that converts",
              "without pre_quant the destination type %s must be the accumulator type %s", pt_dtype_name(dst),
              pt_dtype_name(src));
    return PTOSIM_OK;
  }
  PT_VERIFY(x, src == q->acc && (dst == q->dst[0] || dst == q->dst[1]), "fixpipe.quant_dtype",
            "pick the pre_quant mode of the source/destination type pair (spec: pre_quant mode families)",
            "pre_quant mode %s is incompatible with source %s and destination %s", q->name, pt_dtype_name(src),
            pt_dtype_name(dst));
  if (q->vec)
    PT_VERIFY(x, p->quant_vec.space == PTOSIM_FB && is_payload_float(p->quant_vec.dtype), "fixpipe.quant_payload",
              "vector pre_quant modes take a !pto.ptr<f16|bf16|f32, fb> payload",
              "pre_quant mode %s needs an fb pointer of f16/bf16/f32, got a %s pointer in %s", q->name,
              pt_dtype_name(p->quant_vec.dtype), pt_space_name(p->quant_vec.space));
  else
    PT_VERIFY(x, is_payload_float(p->quant_scalar.dtype), "fixpipe.quant_payload",
              "scalar pre_quant modes take an f16, bf16 or f32 scalar payload",
              "pre_quant mode %s needs an f16/bf16/f32 scalar payload, got %s", q->name,
              pt_dtype_name(p->quant_scalar.dtype));
  if (q->stochastic)
    return pt_fail(x, PTOSIM_E_UNSUPPORTED, "fixpipe.hif8_hybrid", "use qf322hif8_pre_vec / _scalar",
                   "pre_quant mode %s rounds stochastically (hybrid hif8 rounding) and cannot be reproduced", q->name);
  return PTOSIM_OK;
}

static ptosim_status check_relu_clip(pt_ctx *x, const ptosim_fixpipe_params *p) {
  bool scalar = p->relu_scalar.dtype != PTOSIM_DT_NONE, vec = p->relu_vec.dtype != PTOSIM_DT_NONE;
  switch (p->relu) {
    case PTOSIM_RELU_SCALAR:
      PT_VERIFY(x, is_payload_float(p->relu_scalar.dtype), "fixpipe.relu_payload",
                "scalar_relu takes an f16, bf16 or f32 alpha", "scalar_relu alpha has type %s",
                pt_dtype_name(p->relu_scalar.dtype));
      break;
    case PTOSIM_RELU_VECTOR:
      PT_VERIFY(x, p->relu_vec.space == PTOSIM_FB && is_payload_float(p->relu_vec.dtype), "fixpipe.relu_payload",
                "vector_relu takes a !pto.ptr<f16|bf16|f32, fb> alpha pointer",
                "vector_relu needs an fb pointer of f16/bf16/f32, got a %s pointer in %s",
                pt_dtype_name(p->relu_vec.dtype), pt_space_name(p->relu_vec.space));
      break;
    default:
      PT_VERIFY(x, !scalar && !vec, "fixpipe.relu_payload", "only scalar_relu and vector_relu take a payload",
                "relu mode %d does not accept a payload", (int)p->relu);
  }
  if (!p->has_clip) return PTOSIM_OK;
  ptosim_dtype d = p->dst.dtype, c = p->clip.dtype;
  PT_VERIFY(x, p->relu != PTOSIM_RELU_NONE, "fixpipe.clip_relu", "write pre_relu(mode = no_relu, clip = %c)",
            "clip appears without a pre_relu clause");
  PT_VERIFY(x,
            d == PTOSIM_DT_F16 || d == PTOSIM_DT_U8 || d == PTOSIM_DT_I4 || d == PTOSIM_DT_I8 || d == PTOSIM_DT_I16,
            "fixpipe.clip_dtype", "clip is for f16, ui8, i4, i8 and i16 destinations", "clip on a %s destination",
            pt_dtype_name(d));
  bool ok = d == PTOSIM_DT_F16   ? c == PTOSIM_DT_F16
            : d == PTOSIM_DT_U8  ? (c == PTOSIM_DT_U16 || c == PTOSIM_DT_I16)
                                 : (c == PTOSIM_DT_I4 || c == PTOSIM_DT_I8 || c == PTOSIM_DT_I16);
  PT_VERIFY(x, ok, "fixpipe.clip_payload", "clip payload: f16 for f16, 16-bit integer for ui8, i4/i8/i16 otherwise",
            "clip payload of type %s does not match the %s destination", pt_dtype_name(c), pt_dtype_name(d));
  return PTOSIM_OK;
}

static ptosim_status check_layout(pt_ctx *x, const ptosim_fixpipe_params *p) {
  if (p->layout == PTOSIM_FIX_NZ2DN) {
    PT_VERIFY(x, p->loop0_src_stride >= 1 && p->loop0_src_stride <= MAX16, "fixpipe.nz2dn_stride",
              "nz2dn(%loop0_src_stride) takes a stride in [1, 65535] C0 units (1 = packed rows)",
              "nz2dn loop0_src_stride = %" PRId64 " is out of range", p->loop0_src_stride);
    PT_VERIFY(x, p->unit_flag == PTOSIM_UNIT_FLAG_NONE || p->loop0_src_stride == 1, "fixpipe.unit_flag_nz2dn",
              "drop unit_flag or use nz2dn(1)", "unit_flag with nz2dn(%" PRId64 "): only loop0_src_stride = 1 allows it",
              p->loop0_src_stride);
  } else {
    PT_VERIFY(x, p->loop0_src_stride == 0, "fixpipe.loop0_stride", "only nz2dn takes a loop0_src_stride",
              "loop0_src_stride = %" PRId64 " given without nz2dn", p->loop0_src_stride);
  }
  if (p->layout == PTOSIM_FIX_NZ2NZ) {
    /* The channel-split enable is one bit (PTOAS packCopyMatrixCcToGmXt, Xt[42]). */
    PT_VERIFY(x, p->split == 0 || p->split == 1, "fixpipe.split", "nz2nz(%split) takes 0 or 1 (channel split)",
              "nz2nz split = %" PRId64 " is not 0 or 1", p->split);
    PT_VERIFY(x, p->dst.dtype == PTOSIM_DT_F32, "fixpipe.nz2nz_dtype", "nz2nz writes f32 destinations only",
              "nz2nz with a %s destination", pt_dtype_name(p->dst.dtype));
    PT_VERIFY(x, !p->has_loop3, "fixpipe.nz2nz_loop3", "drop loop3 or use nz2nd / nz2dn", "nz2nz does not accept loop3");
  } else {
    PT_VERIFY(x, p->split == 0, "fixpipe.split", "only nz2nz takes a split", "split = %" PRId64 " given without nz2nz",
              p->split);
  }
  if (p->has_loop3)
    PT_VERIFY(x,
              p->loop3.count >= 1 && p->loop3.count <= MAX16 && p->loop3.src_stride >= 0 &&
                  p->loop3.src_stride <= MAX16 && p->loop3.dst_stride >= 0 && p->loop3.dst_stride <= MAX32,
              "fixpipe.loop3", "loop3 count in [1, 65535], src stride in [0, 65535] C0 units, dst stride in [0, 2^32 - 1]",
              "loop3(%" PRId64 ", %" PRId64 ", %" PRId64 ") is out of range", p->loop3.count, p->loop3.src_stride,
              p->loop3.dst_stride);
  /* fp8 / hif8 exist on A5 only: pto-isa docs/isa/state-and-types/type-system.md. */
  PT_VERIFY(x,
            x->m->target == PTOSIM_TARGET_A5 || (p->dst.dtype != PTOSIM_DT_F8E4M3 && p->dst.dtype != PTOSIM_DT_HIF8),
            "fixpipe.target", "fp8 and hif8 destinations need the a5 target", "%s destination on target %s",
            pt_dtype_name(p->dst.dtype), x->m->prof->name);
  return PTOSIM_OK;
}

/* Constraints shared by the three ops; `space` is the destination space of the op. */
static ptosim_status check_common(pt_ctx *x, const ptosim_fixpipe_params *p, ptosim_space space) {
  PT_TRY(check_shape(x, p));
  PT_TRY(pt_expect_space(x, "dst", p->dst, space));
  PT_TRY(check_quant(x, p));
  PT_TRY(check_relu_clip(x, p));
  PT_TRY(check_layout(x, p));
  if (space == PTOSIM_GM) return PTOSIM_OK;
  PT_VERIFY(x, p->atomic == PTOSIM_ATOMIC_NONE && p->atomic_type == PTOSIM_DT_NONE, "fixpipe.atomic_space",
            "atomic(...) is valid on pto.mte_l0c_gm only", "atomic update on a %s destination", pt_space_name(space));
  return PTOSIM_OK;
}

static ptosim_status check_gm(pt_ctx *x, const ptosim_fixpipe_params *p) {
  PT_VERIFY(x, p->sid >= 0 && p->sid <= 3, "fixpipe.sid", "sid is in [0, 3]; use 0", "sid = %" PRId64 " is out of range",
            p->sid);
  PT_VERIFY(x, p->l2_cache_ctrl >= 0 && p->l2_cache_ctrl <= 15, "fixpipe.l2_cache_ctrl", "l2_cache_ctrl is in [0, 15]",
            "l2_cache_ctrl = %" PRId64 " is out of range", p->l2_cache_ctrl);
  PT_VERIFY(x, (p->atomic == PTOSIM_ATOMIC_NONE) == (p->atomic_type == PTOSIM_DT_NONE), "fixpipe.atomic",
            "atomic(type = T, op = add|max|min) needs both", "atomic clause with only a %s",
            p->atomic == PTOSIM_ATOMIC_NONE ? "type" : "op");
  if (p->atomic == PTOSIM_ATOMIC_NONE) return PTOSIM_OK;
  ptosim_dtype t = p->atomic_type;
  PT_VERIFY(x,
            (t == PTOSIM_DT_F32 || t == PTOSIM_DT_F16 || t == PTOSIM_DT_BF16 || t == PTOSIM_DT_I32 ||
             t == PTOSIM_DT_I16 || t == PTOSIM_DT_I8) &&
                t == p->dst.dtype,
            "fixpipe.atomic_type", "the atomic type is f32, f16, bf16, s32, s16 or s8 and equals the destination type",
            "atomic type %s with a %s destination", pt_dtype_name(t), pt_dtype_name(p->dst.dtype));
  return PTOSIM_OK;
}

static ptosim_status check_ub(pt_ctx *x, const ptosim_fixpipe_params *p) {
  /* The L0C -> UB path and its 1 -> 2 split are A5 features (pto-isa cube/fixpipe-model.md;
   * the A2/A3 TMov has no Acc -> Vec form). */
  PT_VERIFY(x, x->m->target == PTOSIM_TARGET_A5, "fixpipe.target", "write to GM or L1 on this target",
            "pto.mte_l0c_ub needs the L0C -> UB path of the a5 target, not %s", x->m->prof->name);
  PT_VERIFY(x, (unsigned)p->dst_mode <= PTOSIM_DST_SPLIT_N, "fixpipe.dst_mode", "use dst_mode(%sub_blockid | split_m | split_n)",
            "invalid dst_mode %d", (int)p->dst_mode);
  if (p->dst_mode == PTOSIM_DST_SUBBLOCK) {
    PT_VERIFY(x, p->sub_blockid == 0 || p->sub_blockid == 1, "fixpipe.sub_blockid", "sub_blockid is 0 or 1",
              "sub_blockid = %" PRId64 " names no vector sub-block", p->sub_blockid);
    return PTOSIM_OK;
  }
  PT_VERIFY(x, p->layout == PTOSIM_FIX_NORMAL || p->layout == PTOSIM_FIX_NZ2ND, "fixpipe.dual_layout",
            "split_m / split_n write the normal or nz2nd layout", "dual destination with layout %d", (int)p->layout);
  PT_VERIFY(x, p->quant == PTOSIM_QUANT_NONE && p->relu == PTOSIM_RELU_NONE && !p->has_clip && !p->has_loop3,
            "fixpipe.dual_transform", "split the store, or drop pre_quant / pre_relu / clip / loop3",
            "dual destination mode cannot be combined with pre_quant, pre_relu, clip or loop3");
  if (p->dst_mode == PTOSIM_DST_SPLIT_M)
    PT_VERIFY(x, p->m % 2 == 0, "fixpipe.split_m_odd", "split_m needs an even m", "split_m with odd m = %" PRId64, p->m);
  else
    PT_VERIFY(x, p->n % 32 == 0, "fixpipe.split_n_align", "split_n needs n to be a multiple of 32",
              "split_n with n = %" PRId64 " (not a multiple of 32)", p->n);
  return PTOSIM_OK;
}

/* ---- conversion setup ---------------------------------------------------------------- */

static float payload_f32(ptosim_scalar s) {
  uint32_t b = (uint32_t)s.bits;
  if (s.dtype == PTOSIM_DT_F16) return pt_f16_to_f32((uint16_t)b);
  if (s.dtype == PTOSIM_DT_BF16) return pt_bf16_to_f32((uint16_t)b);
  float f;
  memcpy(&f, &b, sizeof f);
  return f;
}

/* Clip value: f16 for f16, zero-extended 16 bits for ui8, sign-extended i4/i8/i16 otherwise
 * (PTOAS materializeAccStoreClipPayload). */
static float clip_value(ptosim_scalar c, ptosim_dtype dst) {
  if (dst == PTOSIM_DT_F16) return pt_f16_to_f32((uint16_t)c.bits);
  if (dst == PTOSIM_DT_U8) return (float)(c.bits & 0xFFFFu);
  unsigned bits = pt_dtype_bits(c.dtype);
  int64_t v = (int64_t)(c.bits & ((1ull << bits) - 1));
  return (float)(v >= (1ll << (bits - 1)) ? v - (1ll << bits) : v);
}

/* Without a clause PTOAS leaves CTRL[48] as it is (EXP configureAccStoreCtrl): pt_sat_mode. */
static pt_sat sat_of(pt_ctx *x, ptosim_sat_mode clause) {
  ptosim_sat_mode s = pt_sat_mode(x, clause);
  return s == PTOSIM_SAT_SAT ? PT_SAT_ON : s == PTOSIM_SAT_SAT_PRESERVE_NAN ? PT_SAT_KEEPNAN : PT_SAT_OFF;
}

/* Fill cv and read the fb parameter rows (at pt_fb_addr, aligned to their 128-byte quant /
 * 64-byte relu rows). qword: scalar parameters decoded from a whole QUANT_PRE word, NULL for
 * the f32 payload of the clause. */
static ptosim_status make_conv(pt_ctx *x, const ptosim_fixpipe_params *p, const pt_fq_param *qword, pt_fq_conv *cv) {
  memset(cv, 0, sizeof *cv);
  cv->mode = pt_fq_mode_of(p->quant);
  cv->acc = p->src.dtype;
  cv->dst = p->dst.dtype;
  cv->sat = sat_of(x, p->sat);
  cv->relu = p->relu;
  cv->q.scale = payload_f32(p->quant_scalar);
  cv->q.sign = cv->dst == PTOSIM_DT_I8 || cv->dst == PTOSIM_DT_I4;
  if (qword) cv->q = *qword;
  uint8_t *h;
  if (cv->mode->vec) {
    PT_TRY(pt_span(x, PTOSIM_FB, pt_fb_addr(p->quant_vec.addr), (uint64_t)p->n * 8, 128, PT_READ, &h));
    cv->qvec = h;
  }
  cv->alpha = payload_f32(p->relu_scalar);
  if (p->relu == PTOSIM_RELU_VECTOR) {
    PT_TRY(pt_span(x, PTOSIM_FB, pt_fb_addr(p->relu_vec.addr), (uint64_t)p->n * 4, 64, PT_READ, &h));
    cv->avec = h;
  }
  cv->has_clip = p->has_clip;
  if (p->has_clip) cv->clip = clip_value(p->clip, cv->dst);
  pt_fq_select(cv);
  return PTOSIM_OK;
}

/* ---- geometry ------------------------------------------------------------------------ */

static fix_plan make_plan(const ptosim_fixpipe_params *p) {
  fix_plan pl = {0};
  int64_t ds = p->dst_stride;
  pl.es = pt_dtype_size(p->dst.dtype);
  pl.reps = p->has_loop3 ? p->loop3.count : 1;
  pl.src_rep = p->has_loop3 ? p->loop3.src_stride * ACC_ROW : 0;
  pl.dst_rep = p->has_loop3 ? p->loop3.dst_stride : 0;
  pl.src_blk = p->src_stride * ACC_ROW;
  pl.src_row = (p->layout == PTOSIM_FIX_NZ2DN ? p->loop0_src_stride : 1) * ACC_ROW;
  pl.w = 16;
  switch (p->layout) {
    case PTOSIM_FIX_NZ2DN: pl.row_step = 1, pl.blk_step = 16 * ds, pl.elem_step = ds; break;
    case PTOSIM_FIX_NZ2NZ:
      pl.w = p->split ? 8 : 16;
      pl.row_step = pl.w, pl.blk_step = ds, pl.elem_step = 1;
      break;
    default: pl.row_step = ds, pl.blk_step = 16, pl.elem_step = 1; break;
  }
  return pl;
}

/* A strided piece of a region at byte offset `off` from its base: see pt_region. */
typedef struct fix_piece {
  uint64_t off;
  int64_t count[3], stride[3];
  uint64_t len;
} fix_piece;

/* Check the non-empty pieces (the first non-empty one is at offset 0) and return the host
 * byte of `addr`. The pieces must share one host block (a GM store may not
 * jump across mapped buffers). */
static ptosim_status map_pieces(pt_ctx *x, ptosim_core *c, ptosim_space sp, uint64_t addr, const fix_piece *pc, int n,
                                pt_access acc, uint8_t **host) {
  *host = NULL;
  for (int i = 0; i < n; i++) {
    if (!pc[i].len || !pc[i].count[0] || !pc[i].count[1] || !pc[i].count[2]) continue;
    uint8_t *h;
    unsigned align = pc[i].off ? 1 : x->m->prof->align[sp];
    PT_TRY(pt_region_on(x, c, sp, addr + pc[i].off, 3, pc[i].count, pc[i].stride, pc[i].len, align, acc, &h));
    if (!*host)
      *host = h;
    else if ((uintptr_t)h != (uintptr_t)*host + pc[i].off)
      return pt_fail(x, PTOSIM_E_FAULT, "mem.bounds", "keep the whole destination inside one mapped buffer",
                     "%s destination at 0x%" PRIx64 " spans two mapped buffers", pt_space_name(sp), addr);
  }
  return PTOSIM_OK;
}

static ptosim_status map_src(pt_ctx *x, const ptosim_fixpipe_params *p, const fix_plan *pl, fix_tile *t) {
  uint64_t addr = p->src.addr + (uint64_t)(t->row0 * pl->src_row + t->col0 / 16 * pl->src_blk);
  int64_t full = t->cols / 16;
  fix_piece pc[2] = {
      {0, {pl->reps, full, t->rows}, {pl->src_rep, pl->src_blk, pl->src_row}, ACC_ROW},
      {(uint64_t)(full * pl->src_blk), {pl->reps, 1, t->rows}, {pl->src_rep, 0, pl->src_row}, (uint64_t)(t->cols % 16) * 4},
  };
  uint8_t *h;
  PT_TRY(map_pieces(x, x->core, PTOSIM_L0C, addr, pc, 2, PT_READ, &h));
  t->src = h;
  return PTOSIM_OK;
}

static ptosim_status map_dst(pt_ctx *x, const ptosim_fixpipe_params *p, const fix_plan *pl, fix_tile *t) {
  ptosim_space sp = p->dst.space;
  pt_access acc = p->atomic != PTOSIM_ATOMIC_NONE ? PT_RW | PT_ATOMIC : PT_WRITE;
  int64_t es = pl->es, ds = p->dst_stride;
  fix_piece pc[2] = {{0}, {0}};
  if (!es) { /* i4: the bounding bytes of the nibbles written */
    int64_t runs = (t->cols + pl->w - 1) / pl->w, last = t->cols - (runs - 1) * pl->w;
    int64_t top = (pl->reps - 1) * pl->dst_rep + (t->rows - 1) * pl->row_step + (runs - 1) * pl->blk_step +
                  (last - 1) * pl->elem_step;
    pc[0] = (fix_piece){0, {1, 1, 1}, {0, 0, 0}, (uint64_t)top / 2 + 1};
  } else if (p->layout == PTOSIM_FIX_NZ2DN) {
    pc[0] = (fix_piece){0, {pl->reps, t->cols, 1}, {pl->dst_rep * es, ds * es, 0}, (uint64_t)(t->rows * es)};
  } else if (p->layout == PTOSIM_FIX_NZ2NZ) {
    int64_t c0 = pl->w, full = t->cols / c0;
    pc[0] = (fix_piece){0, {full, t->rows, 1}, {ds * es, c0 * es, 0}, (uint64_t)(c0 * es)};
    pc[1] = (fix_piece){(uint64_t)(full * ds * es), {1, t->rows, 1}, {0, c0 * es, 0}, (uint64_t)(t->cols % c0 * es)};
  } else {
    pc[0] = (fix_piece){0, {pl->reps, t->rows, 1}, {pl->dst_rep * es, ds * es, 0}, (uint64_t)(t->cols * es)};
  }
  return map_pieces(x, t->core, sp, p->dst.addr, pc, 2, acc, &t->dst);
}

/* ---- writing ------------------------------------------------------------------------- */

/* GM atomic read-modify-write of one element. add: floats in f32 rounded once to T (exact
 * for f16 / bf16 operands: f32 has >= 2p + 2 bits), no saturation; integers wrap. max / min
 * replace the old value only when the new one compares greater / less (a NaN never wins). */
void pt_fq_atomic(ptosim_dtype t, ptosim_atomic_op op, uint8_t *mem, const uint8_t *v) {
  unsigned es = pt_dtype_size(t);
  bool take;
  if (pt_dtype_is_float(t)) {
    float a = pt_load_as_f32(t, mem), b = pt_load_as_f32(t, v);
    if (op == PTOSIM_ATOMIC_ADD) {
      /* A NaN operand propagates quieted, the old value's first: which NaN a + b returns
       * depends on the operand order the compiler picks, so it is chosen explicitly. */
      float sum = a != a ? a + a : b != b ? b + b : a + b;
      pt_store_from_f32(t, mem, sum, PT_RND_RINT, PT_SAT_OFF);
      return;
    }
    take = op == PTOSIM_ATOMIC_MAX ? b > a : b < a;
  } else {
    int64_t a = pt_load_int(t, mem), b = pt_load_int(t, v);
    if (op == PTOSIM_ATOMIC_ADD) {
      uint64_t s = (uint64_t)a + (uint64_t)b; /* low es bytes: little-endian host */
      memcpy(mem, &s, es);
      return;
    }
    take = op == PTOSIM_ATOMIC_MAX ? b > a : b < a;
  }
  if (take) memcpy(mem, v, es);
}

/* Store cnt converted elements (packed in vals) at destination elements e, e + elem_step, ... */
static void scatter(const fix_plan *pl, const fix_tile *t, ptosim_dtype dt, ptosim_atomic_op op, int64_t e, int cnt,
                    const uint8_t *vals) {
  for (int i = 0; i < cnt; i++, e += pl->elem_step) {
    if (!pl->es) { /* i4: two per byte, low nibble first */
      uint8_t *b = t->dst + e / 2;
      unsigned sh = (unsigned)(e & 1) * 4;
      *b = (uint8_t)((*b & ~(0xFu << sh)) | ((vals[i] & 0xFu) << sh));
    } else if (op != PTOSIM_ATOMIC_NONE) {
      pt_fq_atomic(dt, op, t->dst + e * pl->es, vals + i * pl->es);
    } else {
      memcpy(t->dst + e * pl->es, vals + i * pl->es, pl->es);
    }
  }
}

/* Walk one tile. nz2nd rows are contiguous in the destination: one conversion call per row.
 * Otherwise, per repetition and row, runs of up to 16 columns (one fractal row, or one
 * destination block of nz2nz) are converted straight into contiguous destinations, or into
 * a buffer and scattered (nz2dn, i4, atomic). */
static void walk(const fix_plan *pl, const pt_fq_conv *cv, const fix_tile *t, ptosim_atomic_op op) {
  const bool direct = pl->elem_step == 1 && pl->es && op == PTOSIM_ATOMIC_NONE;
  const bool whole_row = direct && pl->blk_step == pl->w;
  uint8_t tmp[16 * 4];
  for (int64_t r = 0; r < pl->reps; r++) {
    for (int64_t m = 0; m < t->rows; m++) {
      const uint8_t *s = t->src + r * pl->src_rep + m * pl->src_row;
      int64_t e = r * pl->dst_rep + m * pl->row_step;
      if (whole_row) {
        cv->run(cv, s, pl->src_blk, t->col0, (int)t->cols, t->dst + e * pl->es);
        continue;
      }
      for (int64_t col = 0; col < t->cols; col += pl->w, e += pl->blk_step) {
        int cnt = (int)(t->cols - col < pl->w ? t->cols - col : pl->w);
        const uint8_t *sp = s + (col >> 4) * pl->src_blk + (col & 15) * 4;
        if (direct) {
          cv->run(cv, sp, pl->src_blk, t->col0 + col, cnt, t->dst + e * pl->es);
        } else {
          cv->run(cv, sp, pl->src_blk, t->col0 + col, cnt, tmp);
          scatter(pl, t, cv->dst, op, e, cnt, tmp);
        }
      }
    }
  }
}

/* Check everything, then write: a failing op leaves every destination untouched. */
static ptosim_status run_tiles(pt_ctx *x, const ptosim_fixpipe_params *p, const pt_fq_param *qword, fix_tile *t,
                               int nt) {
  fix_plan pl = make_plan(p);
  pt_fq_conv cv;
  for (int i = 0; i < nt; i++) PT_TRY(map_src(x, p, &pl, &t[i]));
  PT_TRY(make_conv(x, p, qword, &cv));
  for (int i = 0; i < nt; i++) PT_TRY(map_dst(x, p, &pl, &t[i]));
  for (int i = 0; i < nt; i++) walk(&pl, &cv, &t[i], p->atomic);
  return PTOSIM_OK;
}

static ptosim_status run_single(pt_ctx *x, const ptosim_fixpipe_params *p, ptosim_core *owner) {
  fix_tile t = {owner, 0, 0, p->m, p->n, NULL, NULL};
  return run_tiles(x, p, NULL, &t, 1);
}

ptosim_status pt_exec_mte_l0c_l1(pt_ctx *x, const ptosim_fixpipe_params *p) {
  PT_TRY(check_common(x, p, PTOSIM_L1));
  return run_single(x, p, x->core);
}

ptosim_status pt_fixpipe_gm(pt_ctx *x, const ptosim_fixpipe_params *p, const pt_fq_param *qword) {
  PT_TRY(check_common(x, p, PTOSIM_GM));
  PT_TRY(check_gm(x, p));
  fix_tile t = {x->core, 0, 0, p->m, p->n, NULL, NULL};
  return run_tiles(x, p, qword, &t, 1);
}

ptosim_status pt_exec_mte_l0c_gm(pt_ctx *x, const ptosim_fixpipe_params *p) { return pt_fixpipe_gm(x, p, NULL); }

/* UB of vector sub-block s of the cluster. dst_mode(%sub_blockid): the whole tile to one
 * sub-block. split_m: rows [0, m/2) to sub-block 0, [m/2, m) to 1; split_n: columns [0, n/2)
 * to 0, [n/2, n) to 1; each half at dst in its own UB with the same dst_stride (golden of
 * cv-mixed/fixpipe-acc-store-dual-ub-cv). */
ptosim_status pt_exec_mte_l0c_ub(pt_ctx *x, const ptosim_fixpipe_params *p) {
  PT_TRY(check_common(x, p, PTOSIM_UB));
  PT_TRY(check_ub(x, p));
  ptosim_core *aiv0 = ptosim_core_of(x->m, x->core->block, PTOSIM_AIV0);
  ptosim_core *aiv1 = ptosim_core_of(x->m, x->core->block, PTOSIM_AIV1);
  if (p->dst_mode == PTOSIM_DST_SUBBLOCK) return run_single(x, p, p->sub_blockid ? aiv1 : aiv0);
  int64_t hm = p->m / 2, hn = p->n / 2;
  fix_tile t[2] = {{aiv0, 0, 0, p->m, p->n, NULL, NULL}, {aiv1, 0, 0, p->m, p->n, NULL, NULL}};
  if (p->dst_mode == PTOSIM_DST_SPLIT_M)
    t[0].rows = t[1].rows = hm, t[1].row0 = hm;
  else
    t[0].cols = t[1].cols = hn, t[1].col0 = hn;
  return run_tiles(x, p, NULL, t, 2);
}
