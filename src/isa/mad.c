/* Cube matrix multiply: pto.mad, pto.mad_acc, pto.mad_bias, pto.mad_mx, pto.mad_mx_acc,
 * pto.mad_mx_bias. Spec: vpto docs/isa/micro-isa/16-cube-matmul.md "Cube Compute Ops";
 * pto-isa docs/isa/cube/ops/mad/mad*.md; facts and their sources: docs/spec-notes.md sections 2, 3.4, 6.
 *
 * Operands (byte offsets from the pointer; core/layout.h, isa/mx_layout.h). cw = elements per
 * 32-byte fractal row, es = element bytes (i4: nibbles, low nibble first, cw = 64),
 * M16 = 16 * ceil(m / 16), N16 likewise, K1 = ceil(k / cw):
 *   lhs a[m][k]  A5 L0A, NZ (K1 M1 M0 K0):   (k / cw) * 32 * M16 + m * 32 + (k % cw) * es
 *                A2/A3 L0A, ZZ (M1 K1 M0 K0): (m / 16) * 512 * K1 + (k / cw) * 512 + (m % 16) * 32 + (k % cw) * es
 *                GEMV (m == 1, no disable_gemv): k * es, a dense vector (spec-notes 2.5)
 *   rhs b[k][n]  L0B holds B^T as NZ:          (k / cw) * 32 * N16 + n * 32 + (k % cw) * es
 *   dst c[m][n]  L0C (N1 M1 M0 N0), 4 bytes:   (n / 16) * M16 * 64 + m * 64 + (n % 16) * 4
 *   bias[n]      BT, dst type:                 n * 4
 *   MX scales    E8M0 sa[m][k / 32] in L0A_MX and sb[k / 32][n] in L0B_MX, tile base = data
 *                address >> 4, boxes of mx_layout.h
 * The op reads whole footprints (fractals rounded up to 16 rows) and writes only the logical
 * m x n elements of dst; the padding of the dst fractals keeps its bytes.
 *
 * Numerics (DESIGN.md section 4): for every output element one fused multiply-add per k, k
 * ascending, seeded with 0 (mad, mad_mx), the old dst value (mad_acc, mad_mx_acc: it seeds the
 * chain, it is not added afterwards) or bias[n] (mad_bias, mad_mx_bias). Integer forms wrap
 * around in i32. Clauses:
 *   tf32_mode  f32 operands are first rounded to the target's TF32 (pto-isa pto_tile.hpp
 *              SetMadTF32Mode: "a2/a3: e8m11, a5: e8m10"): D = 13 (A5) or 12 (A2/A3) low bits
 *              are dropped, round_even adds 2^(D-1) - 1 + bit D of the pattern, round_away adds
 *              2^(D-1), then bits D-1..0 are cleared (A5: goldens of corpus cube-matmul/mad_tf32,
 *              mad_tf32_round_away). A2/A3 (HF32) flushes subnormal operands to +-0 (golden of
 *              pto-isa tests/npu/a2a3 tmatmul, float32_to_hf32). inf and NaN pass unchanged.
 *   sat        operand values (after tf32 rounding) and seeds: NaN -> 0, +-inf -> +-largest finite
 *              value of their type; MX-scaled values saturate again to +-FLT_MAX; every step
 *              result is clamped to +-FLT_MAX (spec "MAD Common Clauses", spec-notes 2.4).
 *   nosat      IEEE. Also the mode when the clause is omitted: the spec defers to CTRL[48], and a
 *              clause-less mad in corpus cv-mixed/fixpipe-acc-store-sat-f16-cv keeps NaN and inf
 *              (spec-notes 2.4), so ptosim models the non-saturating reset state.
 *   MX         operand values are a * 2^(sa - 127) and b * 2^(sb - 127), rounded to f32
 *              (exact unless out of the f32 range; E8M0 0xFF is NaN).
 *   unit_flag, n_dir  synchronization and production order only: no effect on the bytes.
 * A NaN result is written as the quiet NaN 0x7FC00000 (PT_MAD_QNAN): the payload is not
 * specified, and one pattern keeps every kernel variant (mad_kernel.c) bit-identical. */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "isa/mad.h"
#include "isa/mad_kernel.h"
#include "isa/mx_layout.h"

#define MAD_MAX_DIM 4095 /* 12-bit m / k / n fields of the MAD instruction (spec-notes 2.2) */
#define MX_GROUP 32      /* K elements per MX scale */
#define MX_K_STEP 64     /* MX consumes K in steps of two scale groups (spec "MX Matmul Model") */
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* A legal (lhs, rhs, dst) element type combination and the targets that have it.
 * A2/A3: pto-isa include/pto/npu/a2a3/TMatmul.hpp CheckStaticMad; A5: npu/a5/TMatmul.hpp
 * CheckMadValid; MX: PTOAS lib/PTO/IR/VPTO.cpp isMxElementType, f8E4M3FN only (pto-isa's tile
 * TMATMUL_MX also pairs e5m2; the micro-op verifier does not). i4 x i4 -> i32 on A2/A3: the
 * spec's "packed 4-bit integer data requires even K" rule names an int4 form and the A2/A3
 * cube has one; pto-isa's tables omit it (docs/spec-notes.md 2.1 calls it unspecified). */
typedef struct mad_combo {
  ptosim_dtype a, b, c;
  bool a2a3, a5;
} mad_combo;

static const mad_combo plain_combos[] = {
    {PTOSIM_DT_F16, PTOSIM_DT_F16, PTOSIM_DT_F32, true, true},
    {PTOSIM_DT_BF16, PTOSIM_DT_BF16, PTOSIM_DT_F32, true, true},
    {PTOSIM_DT_F32, PTOSIM_DT_F32, PTOSIM_DT_F32, true, true},
    {PTOSIM_DT_I8, PTOSIM_DT_I8, PTOSIM_DT_I32, true, true},
    {PTOSIM_DT_I4, PTOSIM_DT_I4, PTOSIM_DT_I32, true, false},
    {PTOSIM_DT_F8E4M3, PTOSIM_DT_F8E4M3, PTOSIM_DT_F32, false, true},
    {PTOSIM_DT_F8E4M3, PTOSIM_DT_F8E5M2, PTOSIM_DT_F32, false, true},
    {PTOSIM_DT_F8E5M2, PTOSIM_DT_F8E4M3, PTOSIM_DT_F32, false, true},
    {PTOSIM_DT_F8E5M2, PTOSIM_DT_F8E5M2, PTOSIM_DT_F32, false, true},
    {PTOSIM_DT_HIF8, PTOSIM_DT_HIF8, PTOSIM_DT_F32, false, true},
};
static const mad_combo mx_combos[] = {{PTOSIM_DT_F8E4M3, PTOSIM_DT_F8E4M3, PTOSIM_DT_F32, false, true}};

/* One matrix operand as the op reads it. Its decoded form (4-byte values, f32 or i32) keeps
 * the fractal order: element (r, k) (r = m for lhs, n for rhs) at index
 *   (r / 16) * gblk + (r % 16) * cw + (k / cw) * kblk + k % cw. */
typedef struct mad_operand {
  ptosim_dtype t;
  int64_t rows, rows16; /* logical rows and rows of the decoded fractals */
  int64_t cw, k1;       /* elements per fractal row, fractal columns */
  int64_t gblk, kblk;
  bool dense;           /* stored as a dense vector (GEMV lhs) */
  bool lhs;             /* MX scales: sa[m][g] (lhs) or sb[g][n] (rhs) */
  const uint8_t *host;  /* stored operand */
  const uint8_t *scale; /* MX scales, NULL for other forms */
  float max;            /* largest finite value of the type (sat) */
  float lut[256];       /* decode table of 8-bit floats */
} mad_operand;

typedef struct mad_op {
  pt_mad_seed seed;
  bool mx, sat, is_int;
  ptosim_tf32_mode tf32;
  bool hf32; /* A2/A3: the TF32 mode is HF32 (e8m11, subnormals flushed) */
  int64_t m, n, k, m16;
  mad_operand a, b;
  uint8_t *dst;        /* L0C footprint */
  const uint8_t *bias; /* BT, bias forms */
} mad_op;

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

static int64_t elem_at(const mad_operand *o, int64_t r, int64_t k) {
  return (r / 16) * o->gblk + (r % 16) * o->cw + (k / o->cw) * o->kblk + k % o->cw;
}

static int64_t decoded_count(const mad_operand *o) { return o->k1 * o->rows16 * o->cw; }

/* ---- verification ----------------------------------------------------------------------- */

static bool legal_combo(const ptosim_mad_params *p, bool mx, ptosim_target target) {
  const mad_combo *t = mx ? mx_combos : plain_combos;
  for (size_t i = 0, n = mx ? COUNT(mx_combos) : COUNT(plain_combos); i < n; i++)
    if (t[i].a == p->lhs.dtype && t[i].b == p->rhs.dtype && t[i].c == p->dst.dtype &&
        (target == PTOSIM_TARGET_A5 ? t[i].a5 : t[i].a2a3))
      return true;
  return false;
}

static ptosim_status check_types(pt_ctx *x, const ptosim_mad_params *p, pt_mad_seed seed, bool mx,
                                 bool check_combo) {
  PT_TRY(pt_expect_space(x, "lhs", p->lhs, PTOSIM_L0A));
  PT_TRY(pt_expect_space(x, "rhs", p->rhs, PTOSIM_L0B));
  PT_TRY(pt_expect_space(x, "dst", p->dst, PTOSIM_L0C));
  if (seed == PT_MAD_SEED_BIAS) {
    PT_TRY(pt_expect_space(x, "bias", p->bias, PTOSIM_BT));
    PT_VERIFY(x, p->bias.dtype == p->dst.dtype, "mad.bias_dtype", "declare the bias as !pto.ptr<dst type, bt>",
              "bias element type %s differs from the dst element type %s", pt_dtype_name(p->bias.dtype),
              pt_dtype_name(p->dst.dtype));
  }
  PT_VERIFY(x, !mx || x->m->prof->has_mx, "mad.mx_target", "MX matmul exists on a5 only",
            "target %s has no MX matmul", x->m->prof->name);
  const char *hint = mx ? "pto.mad_mx* takes f8E4M3FN x f8E4M3FN -> f32"
                     : x->m->target == PTOSIM_TARGET_A5
                         ? "a5: f16/bf16/f32 x same -> f32, {f8E4M3FN, f8E5M2} x {f8E4M3FN, f8E5M2} -> f32, "
                           "hif8 x hif8 -> f32, i8 x i8 -> i32"
                         : "a2a3: f16/bf16/f32 x same -> f32, i8 x i8 -> i32, i4 x i4 -> i32";
  PT_VERIFY(x, !check_combo || legal_combo(p, mx, x->m->target), "mad.dtype", hint,
            "%s x %s -> %s is not a legal type combination of %s on target %s",
            pt_dtype_name(p->lhs.dtype), pt_dtype_name(p->rhs.dtype), pt_dtype_name(p->dst.dtype),
            mx ? "pto.mad_mx*" : "pto.mad*", x->m->prof->name);
  return PTOSIM_OK;
}

static ptosim_status check_clauses(pt_ctx *x, const ptosim_mad_params *p, bool mx) {
  PT_VERIFY(x, (unsigned)p->unit_flag <= PTOSIM_UNIT_FLAG_CHECK_AND_SET, "mad.unit_flag",
            "pto.mad* takes unit_flag(check_only) or unit_flag(check_and_set)",
            "unit_flag mode %d is not a mad mode (check_and_clear belongs to FIXPIPE)", (int)p->unit_flag);
  PT_VERIFY(x, p->sat == PTOSIM_SAT_DEFAULT || p->sat == PTOSIM_SAT_SAT || p->sat == PTOSIM_SAT_NOSAT, "mad.sat",
            "pto.mad* takes sat or nosat (sat(preserve_nan) belongs to FIXPIPE)", "sat mode %d is not a mad mode",
            (int)p->sat);
  PT_VERIFY(x, p->sat == PTOSIM_SAT_DEFAULT || pt_dtype_is_float(p->dst.dtype), "mad.sat",
            "drop sat/nosat: integer mad forms have no exceptional values",
            "sat/nosat needs a floating type combination, got %s x %s -> %s", pt_dtype_name(p->lhs.dtype),
            pt_dtype_name(p->rhs.dtype), pt_dtype_name(p->dst.dtype));
  PT_VERIFY(x, (unsigned)p->tf32 <= PTOSIM_TF32_ROUND_AWAY, "mad.tf32", "use tf32_mode(round_even | round_away)",
            "tf32 mode %d is not defined", (int)p->tf32);
  PT_VERIFY(x, p->tf32 == PTOSIM_TF32_NONE || (!mx && p->lhs.dtype == PTOSIM_DT_F32), "mad.tf32",
            "tf32_mode applies to pto.mad / mad_acc / mad_bias with f32 x f32 -> f32 only",
            "tf32_mode on %s with %s x %s -> %s", mx ? "an MX mad" : "a mad", pt_dtype_name(p->lhs.dtype),
            pt_dtype_name(p->rhs.dtype), pt_dtype_name(p->dst.dtype));
  /* A2/A3 has no GEMV-disable control: m == 1 always reads a GEMV vector, which is why
   * pto-isa npu/a2a3/TMatmul.hpp raises m to 16 (spec-notes 2.5). */
  PT_VERIFY(x, !(p->m == 1 && p->disable_gemv && x->m->target == PTOSIM_TARGET_A2A3), "mad.disable_gemv",
            "on a2a3 pass m = 16 with zero padding rows to get the normal left-tile organization",
            "disable_gemv with m = 1 is not available on target a2a3");
  return PTOSIM_OK;
}

static ptosim_status check_shape(pt_ctx *x, const ptosim_mad_params *p, bool mx) {
  PT_VERIFY(x, p->m >= 1 && p->m <= MAD_MAX_DIM && p->n >= 1 && p->n <= MAD_MAX_DIM && p->k >= 1 && p->k <= MAD_MAX_DIM,
            "mad.shape", "m, n and k are element counts in [1, 4095]",
            "shape m = %" PRId64 ", n = %" PRId64 ", k = %" PRId64 " is out of range", p->m, p->n, p->k);
  PT_VERIFY(x, p->lhs.dtype != PTOSIM_DT_I4 || p->k % 2 == 0, "mad.k_even",
            "packed 4-bit operands hold two k elements per byte: use an even k", "k = %" PRId64 " is odd for i4 data",
            p->k);
  PT_VERIFY(x, !mx || p->k % MX_K_STEP == 0, "mad.mx_k", "MX matmul consumes k in multiples of 64 (two scale groups)",
            "k = %" PRId64 " is not a multiple of 64", p->k);
  return PTOSIM_OK;
}

/* Map a footprint of `bytes` bytes after checking it fits the space at all (a static limit of
 * the shape) and then, through the accessor, at this address. */
static ptosim_status map_footprint(pt_ctx *x, const char *what, ptosim_ptr ptr, uint64_t bytes, unsigned align,
                                   pt_access acc, uint8_t **out) {
  uint64_t cap = x->m->prof->capacity[ptr.space];
  PT_VERIFY(x, bytes <= cap, "mad.capacity", "split the matmul into tiles that fit the buffer",
            "%s needs %" PRIu64 " bytes of %s, more than its %" PRIu64 "-byte capacity on target %s", what, bytes,
            pt_space_name(ptr.space), cap, x->m->prof->name);
  return pt_span(x, ptr.space, ptr.addr, bytes, align, acc, out);
}

/* ---- operand setup ---------------------------------------------------------------------- */

/* Largest finite value of a float type (the sat replacement of infinity). */
static float type_max(ptosim_dtype t) {
  switch (t) {
    case PTOSIM_DT_F32: return FLT_MAX;
    case PTOSIM_DT_F16: return pt_f16_to_f32(pt_f32_to_f16(INFINITY, PT_RND_RINT, PT_SAT_ON));
    case PTOSIM_DT_BF16: return pt_bf16_to_f32(pt_f32_to_bf16(INFINITY, PT_RND_RINT, PT_SAT_ON));
    default: return pt_f8_to_f32(t, pt_f32_to_f8(t, INFINITY, PT_RND_RINT, PT_SAT_ON));
  }
}

/* Describe an operand with `rows` logical rows stored in `zz` (A2/A3 L0A) or NZ order. */
static void operand_init(mad_operand *o, ptosim_dtype t, int64_t rows, int64_t k, bool zz, bool dense, bool lhs) {
  o->t = t;
  o->rows = rows;
  o->rows16 = (int64_t)pt_align_up((uint64_t)rows, PT_FRAC_ROWS);
  o->cw = PT_C0 * 8 / pt_dtype_bits(t);
  o->k1 = (int64_t)pt_ceil_div((uint64_t)k, (uint64_t)o->cw);
  o->gblk = zz ? o->k1 * PT_FRAC_ROWS * o->cw : PT_FRAC_ROWS * o->cw;
  o->kblk = zz ? PT_FRAC_ROWS * o->cw : o->rows16 * o->cw;
  o->dense = dense;
  o->lhs = lhs;
  o->scale = NULL;
  if (pt_dtype_is_float(t)) o->max = type_max(t);
  if (pt_dtype_bits(t) == 8 && pt_dtype_is_float(t))
    for (int v = 0; v < 256; v++) o->lut[v] = pt_f8_to_f32(t, (uint8_t)v);
}

static uint64_t operand_bytes(const mad_operand *o, int64_t k) {
  if (o->dense) return pt_ceil_div((uint64_t)k * pt_dtype_bits(o->t), 8);
  return (uint64_t)(o->k1 * o->rows16) * PT_C0;
}

static ptosim_status setup(pt_ctx *x, const ptosim_mad_params *p, pt_mad_seed seed, bool mx, bool check_combo,
                           mad_op *o) {
  PT_TRY(check_types(x, p, seed, mx, check_combo));
  PT_TRY(check_clauses(x, p, mx));
  PT_TRY(check_shape(x, p, mx));
  const pt_profile *prof = x->m->prof;
  o->seed = seed;
  o->mx = mx;
  o->sat = pt_sat_mode(x, p->sat) == PTOSIM_SAT_SAT;
  o->tf32 = p->tf32;
  o->hf32 = x->m->target != PTOSIM_TARGET_A5;
  o->is_int = !pt_dtype_is_float(p->dst.dtype);
  o->m = p->m;
  o->n = p->n;
  o->k = p->k;
  o->m16 = (int64_t)pt_align_up((uint64_t)p->m, PT_FRAC_ROWS);
  bool gemv = p->m == 1 && !p->disable_gemv;
  operand_init(&o->a, p->lhs.dtype, p->m, p->k, prof->l0a_zz && !gemv, gemv, true);
  operand_init(&o->b, p->rhs.dtype, p->n, p->k, false, false, false);
  uint8_t *host;
  PT_TRY(map_footprint(x, "lhs", p->lhs, operand_bytes(&o->a, p->k), prof->align[PTOSIM_L0A], PT_READ, &host));
  o->a.host = host;
  PT_TRY(map_footprint(x, "rhs", p->rhs, operand_bytes(&o->b, p->k), prof->align[PTOSIM_L0B], PT_READ, &host));
  o->b.host = host;
  uint64_t dst_bytes = (uint64_t)(o->m16 * (int64_t)pt_align_up((uint64_t)p->n, PT_FRAC_ROWS)) * 4;
  PT_TRY(map_footprint(x, "dst", p->dst, dst_bytes, prof->align[PTOSIM_L0C],
                       seed == PT_MAD_SEED_ACC ? PT_RW : PT_WRITE, &o->dst));
  if (seed == PT_MAD_SEED_BIAS) {
    PT_TRY(map_footprint(x, "bias", p->bias, (uint64_t)p->n * 4, prof->align[PTOSIM_BT], PT_READ, &host));
    o->bias = host;
  }
  if (mx) {
    ptosim_ptr sa = ptosim_ptr_make(PTOSIM_L0A_MX, PTOSIM_DT_F8E8M0, pt_mx_scale_base(p->lhs.addr));
    ptosim_ptr sb = ptosim_ptr_make(PTOSIM_L0B_MX, PTOSIM_DT_F8E8M0, pt_mx_scale_base(p->rhs.addr));
    PT_TRY(map_footprint(x, "lhs MX scales", sa, pt_mx_tile_bytes((uint64_t)p->m, (uint64_t)p->k), 1, PT_READ, &host));
    o->a.scale = host;
    PT_TRY(map_footprint(x, "rhs MX scales", sb, pt_mx_tile_bytes((uint64_t)p->n, (uint64_t)p->k), 1, PT_READ, &host));
    o->b.scale = host;
  }
  return PTOSIM_OK;
}

/* ---- decoding ----------------------------------------------------------------------------- */

/* Decode `count` stored elements starting at byte src into 4-byte values: f32 for float
 * types, i32 for integer types. */
static void decode_run(const mad_operand *o, const pt_mad_kernel *kr, const uint8_t *src, int64_t count, void *out) {
  float *f = out;
  int32_t *s = out;
  switch (o->t) {
    case PTOSIM_DT_F32: memcpy(out, src, (size_t)count * 4); break;
    case PTOSIM_DT_F16: kr->f16(src, f, count); break;
    case PTOSIM_DT_BF16:
      for (int64_t i = 0; i < count; i++) {
        uint16_t h;
        memcpy(&h, src + 2 * i, 2);
        f[i] = pt_bf16_to_f32(h);
      }
      break;
    case PTOSIM_DT_I8:
      for (int64_t i = 0; i < count; i++) s[i] = (int8_t)src[i];
      break;
    case PTOSIM_DT_I4:
      for (int64_t i = 0; i < count; i++) {
        int v = (src[i / 2] >> (4 * (i % 2))) & 0xF;
        s[i] = v >= 8 ? v - 16 : v;
      }
      break;
    default: /* 8-bit floats */
      for (int64_t i = 0; i < count; i++) f[i] = o->lut[src[i]];
  }
}

/* The decoded operand (see mad_operand): a dense GEMV vector becomes row 0 of 16 zero rows. */
static void decode_operand(const mad_operand *o, const pt_mad_kernel *kr, int64_t k, uint8_t *out) {
  if (!o->dense) {
    decode_run(o, kr, o->host, decoded_count(o), out);
    return;
  }
  memset(out, 0, (size_t)decoded_count(o) * 4);
  for (int64_t kb = 0; kb < o->k1; kb++)
    decode_run(o, kr, o->host + kb * PT_C0, min64(o->cw, k - kb * o->cw), out + kb * o->kblk * 4);
}

/* v rounded to a TF32 with 23 - drop mantissa bits (ties away or to even); ftz: subnormals -> +-0. */
static float tf32_round(float v, bool away, unsigned drop, bool ftz) {
  uint32_t u, half = 1u << (drop - 1);
  memcpy(&u, &v, 4);
  if ((u & 0x7F800000u) == 0x7F800000u) return v;
  if (ftz && (u & 0x7F800000u) == 0) u &= 0x80000000u;
  u = (away ? u + half : u + half - 1 + ((u >> drop) & 1u)) & ~(2 * half - 1);
  memcpy(&v, &u, 4);
  return v;
}

/* sat normalization: NaN -> 0, values beyond +-max (infinities) -> +-max. */
static float sat_value(float v, float max) {
  if (v != v) return 0.0f;
  return v > max ? max : v < -max ? -max : v;
}

static void sat_values(float *v, int64_t n, float max) {
  for (int64_t i = 0; i < n; i++) v[i] = sat_value(v[i], max);
}

/* tf32 rounding, sat normalization and MX scaling of a decoded float operand, in place. */
static void prepare_values(const mad_op *op, const mad_operand *o, float *v) {
  int64_t n = decoded_count(o);
  if (op->tf32 != PTOSIM_TF32_NONE)
    for (int64_t i = 0; i < n; i++)
      v[i] = tf32_round(v[i], op->tf32 == PTOSIM_TF32_ROUND_AWAY, op->hf32 ? 12 : 13, op->hf32);
  if (op->sat) sat_values(v, n, o->max);
  if (!op->mx) return;
  /* MX: k % 64 == 0 and cw == 32 == MX_GROUP, so fractal column kb is scale group kb. */
  for (int64_t r = 0; r < o->rows; r++)
    for (int64_t g = 0; g < o->k1; g++) {
      uint64_t off = o->lhs ? pt_mx_left_off((uint64_t)r, (uint64_t)g, (uint64_t)op->k)
                            : pt_mx_right_off((uint64_t)g, (uint64_t)r, (uint64_t)op->k);
      float s = pt_f8_to_f32(PTOSIM_DT_F8E8M0, o->scale[off]), *run = v + elem_at(o, r, g * MX_GROUP);
      for (int64_t t = 0; t < MX_GROUP; t++) run[t] *= s;
      if (op->sat) sat_values(run, MX_GROUP, FLT_MAX);
    }
}

/* Decoded operand values, in `buf` unless the stored f32 operand can be read as it is. */
static const void *operand_values(const mad_op *op, const mad_operand *o, const pt_mad_kernel *kr, uint8_t *buf) {
  bool as_is = o->t == PTOSIM_DT_F32 && !o->dense && op->tf32 == PTOSIM_TF32_NONE && !op->sat;
  if (as_is) return o->host;
  decode_operand(o, kr, op->k, buf);
  if (!op->is_int) prepare_values(op, o, (float *)(void *)buf);
  return buf;
}

/* ---- arithmetic --------------------------------------------------------------------------- */

/* Index of c[r][n] in L0C, counted in 4-byte values from dst (NZ with 16-value fractal rows). */
static int64_t acc_index(const mad_op *op, int64_t r, int64_t n) {
  return (int64_t)pt_nz_off((uint64_t)r, (uint64_t)n, 1, 16, 16, (uint64_t)op->m16 * 16);
}

/* Copy the logical part (h x w) of a row-major tile of nr columns to / from L0C at (r0, n0). */
static void move_tile(const mad_op *op, int64_t r0, int64_t n0, int64_t h, int64_t w, float *tile, int nr,
                      bool to_l0c) {
  for (int64_t i = 0; i < h; i++)
    for (int64_t j = 0; j < w; j++) {
      uint8_t *c = op->dst + acc_index(op, r0 + i, n0 + j) * 4, *s = (uint8_t *)(tile + i * nr + j);
      memcpy(to_l0c ? c : s, to_l0c ? s : c, 4);
    }
}

/* sat: seeds are normalized like operands (the bias row here, old accumulators in place). */
static void sat_seeds(const mad_op *op, float *seed_row) {
  if (seed_row) {
    sat_values(seed_row, op->n, FLT_MAX);
    return;
  }
  float *acc = (float *)(void *)op->dst;
  for (int64_t r = 0; r < op->m; r++)
    for (int64_t n = 0; n < op->n; n++) acc[acc_index(op, r, n)] = sat_value(acc[acc_index(op, r, n)], FLT_MAX);
}

/* Float forms: micro-tiles of mr x nr computed into L0C, through a scratch tile at the
 * edges so that only logical elements are written. seed_row: bias or zeros padded to whole
 * panels, NULL for the accumulating forms. */
static void gemm_float(const mad_op *op, const pt_mad_kernel *kr, const float *a, const float *panels,
                       const float *seed_row, float *scratch) {
  pt_mad_tile_fn *tile = op->sat ? kr->tile_sat : kr->tile;
  pt_mad_tile t = {.k = op->k, .cw = op->a.cw, .kblk = op->a.kblk};
  for (int64_t n0 = 0; n0 < op->n; n0 += kr->nr)
    for (int64_t r0 = 0; r0 < op->m; r0 += kr->mr) {
      int64_t h = min64(kr->mr, op->m - r0), w = min64(kr->nr, op->n - n0);
      t.a = a + elem_at(&op->a, r0, 0);
      t.b = panels + n0 * op->k;
      t.seed = seed_row ? seed_row + n0 : NULL;
      bool edge = h < kr->mr || w < kr->nr;
      if (edge) {
        memset(scratch, 0, (size_t)(kr->mr * kr->nr) * sizeof(float));
        if (!seed_row) move_tile(op, r0, n0, h, w, scratch, kr->nr, false);
        t.c = scratch, t.crow = kr->nr, t.cblk = 16;
      } else {
        t.c = (float *)(void *)op->dst + acc_index(op, r0, n0), t.crow = 16, t.cblk = op->m16 * 16;
      }
      tile(&t);
      if (edge) move_tile(op, r0, n0, h, w, scratch, kr->nr, true);
    }
}

/* Integer forms: exact products, accumulation modulo 2^32 (the order does not matter). */
static void gemm_int(const mad_op *op, const int32_t *a, const int32_t *b) {
  for (int64_t r = 0; r < op->m; r++)
    for (int64_t n = 0; n < op->n; n++) {
      uint32_t acc = 0;
      uint8_t *c = op->dst + acc_index(op, r, n) * 4;
      if (op->seed != PT_MAD_SEED_ZERO) memcpy(&acc, op->seed == PT_MAD_SEED_ACC ? c : op->bias + n * 4, 4);
      for (int64_t k0 = 0; k0 < op->k; k0 += op->a.cw) {
        const int32_t *ar = a + elem_at(&op->a, r, k0), *br = b + elem_at(&op->b, n, k0);
        for (int64_t s = 0, kk = min64(op->a.cw, op->k - k0); s < kk; s++) acc += (uint32_t)ar[s] * (uint32_t)br[s];
      }
      memcpy(c, &acc, 4);
    }
}

/* Float forms from decoded operands: pack B into panels, build the seed row, run the tiles.
 * work: np * k panel values, np seed values, one mr x nr scratch tile (np = n rounded up to nr). */
static void run_float(const mad_op *op, const pt_mad_kernel *kr, const float *a, const float *b, float *work) {
  int64_t np = (int64_t)pt_align_up((uint64_t)op->n, (uint64_t)kr->nr);
  float *panels = work, *seed_row = work + np * op->k;
  for (int64_t n0 = 0; n0 < op->n; n0 += kr->nr)
    kr->pack(b + elem_at(&op->b, n0, 0), op->b.cw, op->b.kblk, op->k, min64(kr->nr, op->n - n0), panels + n0 * op->k);
  memset(seed_row, 0, (size_t)np * sizeof(float));
  if (op->seed == PT_MAD_SEED_BIAS) memcpy(seed_row, op->bias, (size_t)op->n * 4);
  if (op->sat) sat_seeds(op, op->seed == PT_MAD_SEED_ACC ? NULL : seed_row);
  gemm_float(op, kr, a, panels, op->seed == PT_MAD_SEED_ACC ? NULL : seed_row, seed_row + np);
}

/* ---- driver ------------------------------------------------------------------------------- */

/* Bytes of a work area for `values` 4-byte values, rounded to a 64-byte line. */
static size_t area(int64_t values) { return (size_t)pt_align_up((uint64_t)values * 4, 64); }

ptosim_status pt_mad_run(pt_ctx *x, const ptosim_mad_params *p, pt_mad_seed seed, bool mx, bool check_combo) {
  mad_op op;
  PT_TRY(setup(x, p, seed, mx, check_combo, &op));
  pt_record_work(x, (uint64_t)(op.m * op.n * op.k), p->lhs.dtype);
  const pt_mad_kernel *kr = pt_mad_kernel_get();
  int64_t np = (int64_t)pt_align_up((uint64_t)op.n, (uint64_t)kr->nr);
  size_t sa = area(decoded_count(&op.a)), sb = area(decoded_count(&op.b));
  size_t sw = op.is_int ? 0 : area(np * op.k + np + kr->mr * kr->nr);
  uint8_t *mem = aligned_alloc(64, sa + sb + sw);
  if (!mem)
    return pt_fail(x, PTOSIM_E_NOMEM, "mad.nomem", NULL, "out of host memory for a %" PRId64 " x %" PRId64 " x %" PRId64
                   " matmul", op.m, op.n, op.k);
  const void *a = operand_values(&op, &op.a, kr, mem), *b = operand_values(&op, &op.b, kr, mem + sa);
  if (op.is_int)
    gemm_int(&op, a, b);
  else
    run_float(&op, kr, a, b, (float *)(void *)(mem + sa + sb));
  free(mem);
  return PTOSIM_OK;
}

/* The micro-ops check the micro-op type tables. */
static ptosim_status run(pt_ctx *x, const ptosim_mad_params *p, pt_mad_seed seed, bool mx) {
  return pt_mad_run(x, p, seed, mx, true);
}

ptosim_status pt_exec_mad(pt_ctx *x, const ptosim_mad_params *p) { return run(x, p, PT_MAD_SEED_ZERO, false); }
ptosim_status pt_exec_mad_acc(pt_ctx *x, const ptosim_mad_params *p) { return run(x, p, PT_MAD_SEED_ACC, false); }
ptosim_status pt_exec_mad_bias(pt_ctx *x, const ptosim_mad_params *p) { return run(x, p, PT_MAD_SEED_BIAS, false); }
ptosim_status pt_exec_mad_mx(pt_ctx *x, const ptosim_mad_params *p) { return run(x, p, PT_MAD_SEED_ZERO, true); }
ptosim_status pt_exec_mad_mx_acc(pt_ctx *x, const ptosim_mad_params *p) { return run(x, p, PT_MAD_SEED_ACC, true); }
ptosim_status pt_exec_mad_mx_bias(pt_ctx *x, const ptosim_mad_params *p) { return run(x, p, PT_MAD_SEED_BIAS, true); }
