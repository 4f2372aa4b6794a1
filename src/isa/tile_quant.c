/* pto.tquant.mx: MX quantization of a vec tile (src/isa/ops.def "tquant_mx" row; pto-isa
 * include/pto/npu/a5/TQuant.hpp, PTOAS tonibohnlein lib/PTO/IR/PTO.cpp TQuantMxOp::verify).
 *
 * Modelled (the exp_zz form is refused, tquant_mx.form):
 *   groups of 32 rows (grpAxis axis0, quant_dn): f32 / bf16 / f16 sources, OCP or NV,
 *     MXFP8 or MXFP4 (b16), exp tile [M/32, N] or interleaved [M/64, 2N] (b16);
 *   groups of 32 columns (grpAxis axis1):
 *   - bf16 / f16 source, OCP, flat exp [1, M*N/32], tight source (the only b16 axis1 form
 *     PTOAS accepts): MXFP8 (e4m3) or MXFP4 (e2m1 pairs), bf16 max / scaling bits (quant_b16);
 *   - f32 source, MXFP8 (e4m3), OCP or NV scale, in the two exp tile forms PTOAS accepts:
 *     canonical [M, N/32] exp (TQuant_MXFP8_F32_2D): per valid row r, group g < N/32:
 *       max[r*G + g] = max |src(r, 32g .. 32g+31)|, exp(r, g) = e, scaling[r*G + g] = s,
 *       dst(r, c) = e4m3(src(r, c) * s(r, c/32)), G = N/32 groups per row; max and scaling
 *       packed, exp at its own row stride;
 *     flat [1, M*N/32] exp with a tight source (cols = N; TQuant_MXFP8_F32 and its
 *       _Quantize): the M*N elements as one run of groups.
 * Bytes the hardware writes beyond the groups are written too (cited where they come from):
 * the half-register max a row or run ending on 32 mod 64 elements stores, and the rounded-up
 * exp / scaling entries of the flat loop. Every conversion runs with CTRL = 1 << 50 (the
 * op's set_ctrl: saturate, NaN preserved), which the core keeps afterwards. */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "isa/tile_bcast.h"
#include "isa/vec_lanes.h" /* pt_vl_f32_bits / pt_vl_f32_of / pt_vl_f16_to_f32 / pt_vl_bf16_to_f32 */

#define MX_GROUP 32     /* elements per shared exponent */
#define MX_VL_F32 64    /* f32 lanes of one vector register */
#define MX_CTRL (1ull << 50)

/* Shared exponent byte *e and scaling bits *s (f32) of a group whose max |a| has the f32
 * bits m (sign clear), for the e4m3 (fp4 false) or e2m1 destination.
 * OCP (ComputeF32ExpScalingOCP, TQuant.hpp:2011-2034; ComputeB16OcpExpAndScalingRegs
 *   :536-558): e = E(m) - emin, 0 when E(m) <= emin (emin e4m3 8, e2m1 2: the specs'
 *   f32Emax / maxExp, :106-117); an infinite m keeps the formula (e = 0xFF - emin).
 * NV (ComputeF32ExpScalingNV :1970-2008, ComputeB16NvExpAndScalingRegs :911-939): q = m *
 *   descale in f32 (1/448, e2m1 1/6: NvMxFp*Spec), e = E(q), plus 1 when q is not a power
 *   of two (normal below 0xFE) or a subnormal above 2^-127; inf: e = 0xFE, s = 2^-127.
 * s = 2^(127 - e) (e = 0xFE: 0); NaN m: e = 0xFF, s NaN. */
static void scale_of(ptosim_mx_scale_alg alg, bool fp4, uint32_t m, uint8_t *e, uint32_t *s) {
  unsigned emin = fp4 ? 2 : 8;
  if (alg == PTOSIM_MX_NV) m = pt_vl_f32_bits(pt_vl_f32_of(m) * (fp4 ? 1.0f / 6.0f : 1.0f / 448.0f));
  uint32_t ex = m >> 23 & 0xFF, man = m & 0x7FFFFF, sh;
  if (ex == 0xFF) { /* NaN: the E8M0 NaN and a NaN scale; inf: OCP keeps the formula, NV 0xFE */
    bool nan = man != 0, nv = alg == PTOSIM_MX_NV;
    *e = nan ? 0xFF : nv ? 0xFE : (uint8_t)(0xFF - emin);
    *s = nan ? 0x7FC00000u : nv ? 0x00400000u : (emin - 1) << 23;
    return;
  }
  if (alg == PTOSIM_MX_NV) /* ceil: round a non-power-of-two up, a subnormal above 2^-127 too */
    sh = ex + ((man && ex > 0 && ex < 0xFE) || (ex == 0 && man > 0x400000u));
  else /* E(m) <= emin: the smallest exponent, scale 2^127 */
    sh = ex <= emin ? 0 : ex - emin;
  *e = (uint8_t)sh;
  *s = (0xFEu - sh) << 23;
}

/* The scaling element of scale bits s (f32) in the scaling tile: f32 as is; b16 sources
 * store bf16 bits (s is a power of two, 0 or 2^-127: exact), NaN as the spec's b16 NaN
 * (e4m3 0x7F81, e2m1 0x7FC0: b16Nan / b16SpecialScaleBits, :96-117). */
static void put_scale(unsigned size, bool fp4, uint32_t s, uint8_t *p) {
  if (size == 4) {
    memcpy(p, &s, 4);
    return;
  }
  uint16_t b = s > 0x7F800000u ? (fp4 ? 0x7FC0 : 0x7F81) : (uint16_t)(s >> 16);
  memcpy(p, &b, 2);
}

/* max |a| of n f32 values as bits (sign cleared): numbers compare as their bit patterns;
 * a NaN beats every number (the largest payload wins). n < 32 pads with +0 (the zeroed
 * lanes of AbsReduceMax_Naive, TQuant.hpp:150-170). */
static uint32_t group_max(const uint8_t *a, int64_t n) {
  uint32_t m = 0, u;
  for (int64_t i = 0; i < n; i++) {
    memcpy(&u, a + 4 * i, 4);
    u &= 0x7FFFFFFFu;
    if (u > m) m = u;
  }
  return m;
}

/* AbsReduceMax_Naive over n elements: two group maxes per 64-element register, so a run
 * ending 32 elements into a register also stores a +0 max after its last group. */
static void naive_max(const uint8_t *a, int64_t n, uint8_t *mx) {
  int64_t k = 0;
  for (int64_t i = 0; i < n; i += MX_GROUP, k++) {
    uint32_t m = group_max(a + 4 * i, n - i < MX_GROUP ? n - i : MX_GROUP);
    memcpy(mx + 4 * k, &m, 4);
  }
  if (k % 2) memset(mx + 4 * k, 0, 4);
}

/* Source and scaling element loads of one source dtype (chosen once per op). f32 sources
 * keep f32 scaling values; b16 sources store bf16 scaling bits, the f16 source too
 * (ApplyHalfScalingToFP8Window, TQuant.hpp:1126-1128). */
typedef struct mx_kind {
  unsigned size;                    /* bytes of a source / max / scaling element */
  float (*load)(const uint8_t *p);  /* source element as f32 (exact) */
  float (*scale)(const uint8_t *p); /* scaling element as f32 (exact) */
  uint16_t (*key)(uint16_t v);      /* b16: |v| as the bits the max compares and stores */
  uint32_t (*mval)(uint16_t m);     /* b16: f32 bits of a stored max */
} mx_kind;

static float ld_f32(const uint8_t *p) {
  float f;
  memcpy(&f, p, 4);
  return f;
}
static uint16_t u16_at(const uint8_t *p) {
  uint16_t v;
  memcpy(&v, p, 2);
  return v;
}
static float ld_bf16(const uint8_t *p) { return pt_vl_bf16_to_f32(u16_at(p)); }
static float ld_f16(const uint8_t *p) { return pt_vl_f16_to_f32(u16_at(p)); }

/* |a| bits of a b16 max: bf16, and f16 on the NV path (AbsReduceMax_b16_* with
 * fp16AsBf16ForMax false, :1581-1587), compare their own bits; f16 on the OCP path is first
 * converted to bf16 toward zero, inf -> 0x7F80, NaN -> 0x7FC0 (Fp16ToBf16PreserveSpecial
 * :243-288; AbsReduceMax_b16_DintlvWindow :290-319, UpdateDnAbsMax4 :2701-2740). */
static uint16_t abs_b16(uint16_t v) { return v & 0x7FFF; }
static uint16_t abs_f16_as_bf16(uint16_t v) {
  uint16_t a = v & 0x7FFF;
  return a > 0x7C00 ? 0x7FC0 : a == 0x7C00 ? 0x7F80 : (uint16_t)(pt_vl_f32_bits(pt_vl_f16_to_f32(a)) >> 16);
}
static uint32_t bf16_bits_f32(uint16_t m) { return (uint32_t)m << 16; }
static uint32_t f16_bits_f32(uint16_t m) { return pt_vl_f32_bits(pt_vl_f16_to_f32(m)); }

static const mx_kind k_f32 = {4, ld_f32, ld_f32, NULL, NULL}, k_bf16 = {2, ld_bf16, ld_bf16, abs_b16, bf16_bits_f32},
                     k_f16_ocp = {2, ld_f16, ld_bf16, abs_f16_as_bf16, bf16_bits_f32},
                     k_f16_nv = {2, ld_f16, ld_bf16, abs_b16, f16_bits_f32};

static const mx_kind *kind_of(ptosim_dtype t, ptosim_mx_scale_alg alg) {
  return t == PTOSIM_DT_F32 ? &k_f32 : t == PTOSIM_DT_BF16 ? &k_bf16 : alg == PTOSIM_MX_NV ? &k_f16_nv : &k_f16_ocp;
}

/* 4-bit e2m1 code (sign bit 3) of y: CalcE2M1SignedCodeI32 (TQuant.hpp:1256-1288). The
 * biased exponent E of |y| clamped to [127, 129] picks the step 2^(E-128); adding the magic
 * 2^(E-105) in f32 rounds |y| to a multiple of the step (nearest even) and the bit difference
 * counts steps; code = steps + 2(E - 127), at most 7 (6.0). NaN -> 7 without sign (the bf16
 * path turns NaN into +inf first, SaturateBf16NaNToPosInf, :1305-1317: also 7). */
static unsigned e2m1_code(float y) {
  uint32_t b = pt_vl_f32_bits(y), a = b & 0x7FFFFFFFu;
  if (a > 0x7F800000u) return 7;
  uint32_t e = a >> 23 < 127 ? 127 : a >> 23 > 129 ? 129 : a >> 23, magic = (e + 22) << 23;
  uint32_t c = pt_vl_f32_bits(pt_vl_f32_of(a) + pt_vl_f32_of(magic)) - magic + ((e - 127) << 1);
  return (b >> 31) << 3 | (c > 7 ? 7 : c);
}

/* a * s; a NaN a stays itself (its sign reaches the e4m3 NaN), a NaN s alone gives +NaN
 * (the C product of two NaNs may be either: fixed here, so the bits are deterministic). */
static inline float mx_mul(float a, float s) { return isnan(a) ? a : a * s; }

/* dst = q(src[i] * s(i)) for i < n, s(i) the scaling element at scaling + size * stride *
 * (i >> shift) (ND: shift 5, one scale a group; DN rows: shift 0, one a column), products in
 * f32 (exact: s is a power of two; the bf16 source's vmul rounds to bf16 only below 2^-126,
 * where both destinations give a signed zero).
 * MXFP8: vcvt f32 -> e4m3 ROUND_R with RS_ENABLE under CTRL[50] (saturate, keep NaN;
 * CalcQuantizedFP8Values :1084-1103, CalcQuantizedFP8Values_B16_Window :1156-1204);
 * MXFP4: e2m1 codes packed two a byte, element 2j in the low nibble (PackE2M1SignedCodeBytes
 * :1290-1303 with the vintlv of :1360); n even. */
static void quantize(const mx_kind *k, bool fp4, const uint8_t *src, const uint8_t *scaling, unsigned shift,
                     int64_t stride, int64_t n, uint8_t *dst) {
#define MX_Y(i) mx_mul(k->load(src + k->size * (i)), k->scale(scaling + k->size * stride * ((i) >> shift)))
  if (fp4)
    for (int64_t i = 0; i + 1 < n; i += 2) dst[i / 2] = (uint8_t)(e2m1_code(MX_Y(i)) | e2m1_code(MX_Y(i + 1)) << 4);
  else
    for (int64_t i = 0; i < n; i++) dst[i] = pt_f32_to_f8(PTOSIM_DT_F8E4M3, MX_Y(i), PT_RND_RINT, PT_SAT_KEEPNAN);
#undef MX_Y
}

/* Exp byte *e and scaling value *s (bits) from max entry k. */
static void scale_entry(ptosim_mx_scale_alg alg, const uint8_t *mx, int64_t k, uint8_t *e, uint32_t *s) {
  uint32_t m;
  memcpy(&m, mx + 4 * k, 4);
  scale_of(alg, false, m & 0x7FFFFFFFu, e, s);
}

/* UB bytes [t.addr, + len) with access acc. */
static ptosim_status span(pt_ctx *x, const ptosim_tile *t, int64_t len, pt_access acc, uint8_t **out) {
  return pt_tile_at(x, x->core, PTOSIM_UB, t->addr, (uint64_t)len, acc, out);
}

/* Canonical exp tile, row by row (TQuant_MXFP8_F32_2D, TQuant.hpp:2074-2100): a row's
 * maxes packed at r*G; its trailing +0 max (G odd) is overwritten by the next row's first. */
static ptosim_status quant_2d(pt_ctx *x, const ptosim_tquant_mx_params *p, int64_t vr, int64_t vc) {
  int64_t g = vc / MX_GROUP, cols = p->src.cols, ec = p->exp.cols;
  uint8_t *src, *dst, *mx, *exp, *sc;
  PT_TRY(pt_tile_rows(x, &p->src, vr, vc, PT_READ, &src));
  PT_TRY(span(x, &p->max, (vr * g + g % 2) * 4, PT_RW, &mx));
  PT_TRY(span(x, &p->exp, (vr - 1) * ec + g, PT_WRITE, &exp));
  PT_TRY(span(x, &p->scaling, vr * g * 4, PT_RW, &sc));
  PT_TRY(pt_tile_rows(x, &p->dst, vr, vc, PT_WRITE, &dst));
  for (int64_t r = 0; r < vr; r++) naive_max(src + r * cols * 4, vc, mx + r * g * 4);
  for (int64_t r = 0; r < vr; r++) /* ExtractB8ExponentAndScalingF32_2D_Packed */
    for (int64_t k = 0; k < g; k++) {
      uint32_t s;
      scale_entry(p->alg, mx, r * g + k, exp + r * ec + k, &s);
      memcpy(sc + 4 * (r * g + k), &s, 4);
    }
  for (int64_t r = 0; r < vr; r++) quantize(&k_f32, false, src + r * cols * 4, sc + r * g * 4, 5, 1, vc, dst + r * p->dst.cols);
  return PTOSIM_OK;
}

/* Flat exp tile over the n = M*N elements of a tight source (TQuant_MXFP8_F32,
 * TQuant.hpp:1538-1571, and TQuant_MXFP8_F32_Quantize, :1507-1535).
 *   max: n <= 1024 one AbsReduceMax_Naive run; else whole 256-element blocks exactly
 *     (AbsReduceMax_f32_opt*), the rest a Naive run;
 *   unrolled (src rows*cols > 1024, both it and n multiples of 256): exp[k] for k < G, each
 *     scaling value stored twice (StoreScalingUnrolled: s0 s0 s1 s1 ...);
 *   otherwise 64 groups per register, each register storing min(G, 64) lanes
 *     (ExtractF32OcpExponentAndScalingCore's predicate is not counted down), so G > 64 writes
 *     exp and scaling up to the next multiple of 64, from the max bytes found there. */
static ptosim_status quant_flat(pt_ctx *x, const ptosim_tquant_mx_params *p, int64_t n) {
  int64_t g = n / MX_GROUP, phys = (int64_t)p->src.rows * p->src.cols;
  bool unroll = phys > 1024 && phys % 256 == 0 && n % 256 == 0;
  int64_t aligned = n <= 1024 ? 0 : n / 256 * 256, tail_g = (n - aligned) / MX_GROUP;
  int64_t nmax = aligned / MX_GROUP + tail_g + tail_g % 2;
  int64_t ne = unroll || g < MX_VL_F32 ? g : (g + MX_VL_F32 - 1) / MX_VL_F32 * MX_VL_F32, nsc = unroll ? 2 * g : ne;
  int64_t need = (nsc + MX_VL_F32 - 1) / MX_VL_F32 * MX_VL_F32, have = (int64_t)p->scaling.rows * p->scaling.cols;
  PT_VERIFY(x, have >= need, "tquant_mx.capacity", "enlarge the scaling tile (PTOAS: align64 of the scaling entries)",
            "scaling tile holds %" PRId64 " f32, the flat %s form needs %" PRId64, have, unroll ? "unrolled" : "f32", need);
  uint8_t *src, *dst, *mx, *exp, *sc;
  PT_TRY(span(x, &p->src, n * 4, PT_READ, &src));
  PT_TRY(span(x, &p->max, (nmax > ne ? nmax : ne) * 4, PT_RW, &mx));
  PT_TRY(span(x, &p->exp, ne, PT_WRITE, &exp));
  PT_TRY(span(x, &p->scaling, nsc * 4, PT_RW, &sc));
  PT_TRY(span(x, &p->dst, n, PT_WRITE, &dst));
  for (int64_t k = 0; k < aligned / MX_GROUP; k++) {
    uint32_t m = group_max(src + k * MX_GROUP * 4, MX_GROUP);
    memcpy(mx + 4 * k, &m, 4);
  }
  if (n > aligned) naive_max(src + aligned * 4, n - aligned, mx + aligned / MX_GROUP * 4);
  for (int64_t k = 0; k < ne; k++) {
    uint32_t s;
    scale_entry(p->alg, mx, k, exp + k, &s);
    for (int64_t j = 0; j < nsc / ne; j++) memcpy(sc + 4 * (k * (nsc / ne) + j), &s, 4);
  }
  quantize(&k_f32, false, src, sc, 5, nsc / ne, n, dst);
  return PTOSIM_OK;
}

/* Max of the 32 elements step apart at a, stored at mx; returns it as f32 bits. b16: the
 * integer max of the key bits (the b16 ND windows :290-319, AbsReduceMax_DN :2722-2738);
 * f32 (axis0 only, AbsReduceMax_DN :2762-2806): a float vmax of |a| (vabs; any NaN gives the
 * default NaN, as ptosim's vmax). */
static uint32_t strided_group_max(const mx_kind *k, const uint8_t *a, int64_t step, uint8_t *mx) {
  if (k->size == 4) {
    uint32_t m = 0, u;
    for (int i = 0; i < MX_GROUP; i++) {
      memcpy(&u, a + i * step * 4, 4);
      u &= 0x7FFFFFFFu;
      m = u > 0x7F800000u || m > 0x7F800000u ? 0x7FC00000u : u > m ? u : m;
    }
    memcpy(mx, &m, 4);
    return m;
  }
  uint16_t m = 0;
  for (int i = 0; i < MX_GROUP; i++) {
    uint16_t v = k->key(u16_at(a + i * step * 2));
    m = v > m ? v : m;
  }
  memcpy(mx, &m, 2);
  return k->mval(m);
}

/* bf16 / f16 source, flat exp, OCP, tight source: the n = M*N elements as one run
 * (TQuant_MXFP8_B16, TQuant.hpp:2232-2256; TQuant_MXFP4_E2M1_B16, :2258-2276).
 *   max: one bf16-bits entry per group; AbsReduceMax_b16_ND (:321-361) with more than one
 *     256-element window stores 8 entries a window (+0 past the last group), so
 *     8 * ceil(n / 256) entries; one window (n <= 256) stores exactly G (and so does the
 *     n % 4096 == 0 largesizes path, :363-415, ReduceMxB16AbsMaxFlat :1575-1595, where
 *     8 * n / 256 = G anyway);
 *   exp and scaling: G entries (ExtractMxOcpExponentAndScaling :797-811, predicated);
 *   dst: n bytes (MXFP8) or n / 2 (MXFP4, 16 a group). */
static ptosim_status quant_b16(pt_ctx *x, const ptosim_tquant_mx_params *p, int64_t n) {
  bool fp4 = p->quant == PTOSIM_QUANT_MXFP4_E2M1;
  const mx_kind *k = kind_of(p->src.dtype, PTOSIM_MX_OCP);
  int64_t g = n / MX_GROUP, nmax = n <= 256 ? g : (n + 255) / 256 * 8;
  int64_t need = (g + 127) / 128 * 128, have = (int64_t)p->scaling.rows * p->scaling.cols;
  PT_VERIFY(x, have >= need, "tquant_mx.capacity", "enlarge the scaling tile (PTOAS: align128 of the groups)",
            "scaling tile holds %" PRId64 " b16, the flat b16 form needs %" PRId64, have, need);
  uint8_t *src, *dst, *mx, *exp, *sc;
  PT_TRY(span(x, &p->src, n * 2, PT_READ, &src));
  PT_TRY(span(x, &p->max, nmax * 2, PT_RW, &mx));
  PT_TRY(span(x, &p->exp, g, PT_WRITE, &exp));
  PT_TRY(span(x, &p->scaling, g * 2, PT_RW, &sc));
  PT_TRY(span(x, &p->dst, fp4 ? n / 2 : n, PT_WRITE, &dst));
  for (int64_t q = 0; q < g; q++) {
    uint32_t s, m = strided_group_max(k, src + 2 * q * MX_GROUP, 1, mx + 2 * q);
    scale_of(PTOSIM_MX_OCP, fp4, m, exp + q, &s);
    put_scale(2, fp4, s, sc + 2 * q);
  }
  memset(mx + 2 * g, 0, (size_t)(2 * (nmax - g)));
  quantize(k, fp4, src, sc, 5, 1, n, dst);
  return PTOSIM_OK;
}

/* grpAxis axis0: groups of 32 rows in each column (TQuant_MXFP8_DN :3118-3141,
 * TQuant_MXFP4_E2M1_DN :3176-3191); vr % 32 == 0, C = src cols, group row j < vr / 32.
 *   b16 source: first its columns [vc, C) of rows < vr are zeroed (ZeroPadSourceTile
 *     :2409-2420, both of its store paths);
 *   max (strided_group_max) of (j, c < vc) at j*C + c;
 *   exp and scaling at j*C + c (ExtractDnLinearExponentAndScaling :3026-3060, rows of
 *     StaticCols = C); interleave (b16; PTOAS refuses f32): exp byte (j/2)*exp.cols + 2c + j%2
 *     (ExtractDnInterleavedPairVL :2656-2683, StoreDnInterleavedExponentB16 :2602-2610);
 *   dst (calcQuantized*_DN :2810-3015) of (r, c < vc) at r*dst.cols (+ c, or c/2 for MXFP4)
 *     with the scale of (r/32, c). */
static ptosim_status quant_dn(pt_ctx *x, const ptosim_tquant_mx_params *p, int64_t vr, int64_t vc) {
  const mx_kind *k = kind_of(p->src.dtype, p->alg);
  bool fp4 = p->quant == PTOSIM_QUANT_MXFP4_E2M1, il = p->interleave, pad = k->size == 2 && vc < p->src.cols;
  int64_t C = p->src.cols, gr = vr / MX_GROUP, es = k->size;
  uint8_t *src, *dst, *mx, *exp, *sc; /* row-wise: the bytes between rows are not the op's */
  PT_TRY(pt_tile_rows(x, &p->src, vr, pad ? C : vc, pad ? PT_RW : PT_READ, &src));
  PT_TRY(pt_tile_rows(x, &p->max, gr, vc, PT_RW, &mx));
  PT_TRY(pt_tile_rows(x, &p->scaling, gr, vc, PT_RW, &sc));
  PT_TRY(il ? pt_tile_rows(x, &p->exp, gr / 2, 2 * vc, PT_WRITE, &exp) : pt_tile_rows(x, &p->exp, gr, vc, PT_WRITE, &exp));
  PT_TRY(pt_tile_rows(x, &p->dst, vr, fp4 ? vc / 2 : vc, PT_WRITE, &dst));
  if (pad)
    for (int64_t r = 0; r < vr; r++) memset(src + (r * C + vc) * 2, 0, (size_t)((C - vc) * 2));
  for (int64_t j = 0; j < gr; j++)
    for (int64_t c = 0; c < vc; c++) {
      uint32_t s, m = strided_group_max(k, src + (j * MX_GROUP * C + c) * es, C, mx + (j * C + c) * es);
      scale_of(p->alg, fp4, m, exp + (il ? j / 2 * p->exp.cols + 2 * c + j % 2 : j * C + c), &s);
      put_scale((unsigned)es, fp4, s, sc + (j * C + c) * es);
    }
  for (int64_t r = 0; r < vr; r++)
    quantize(k, fp4, src + r * C * es, sc + r / MX_GROUP * C * es, 0, 1, vc, dst + r * p->dst.cols);
  return PTOSIM_OK;
}

/* axis1 shapes (PTO.cpp:12590-12612, :12719-12786): exp / max / scaling valid canonical
 * [M, N/32] or legacy flat [1, M*N/32] (exp flat only with a tight source), max and scaling
 * compact. */
static ptosim_status check_nd(pt_ctx *x, const ptosim_tquant_mx_params *p) {
  const ptosim_tile *s = &p->src, *m = &p->max, *sc = &p->scaling, *t[] = {&p->exp, m, sc};
  static const char *const what[] = {"exp", "max", "scaling"};
  int64_t vr = s->valid_rows, vc = s->valid_cols, g = vr * (vc / MX_GROUP);
  bool flat = p->exp.rows == 1;
  int64_t gr = flat ? 1 : vr, gc = flat ? g : vc / MX_GROUP;
  for (int i = 0; i < 3; i++)
    PT_VERIFY(x, (t[i]->valid_rows == vr && t[i]->valid_cols == vc / MX_GROUP) ||
                     (t[i]->valid_rows == 1 && t[i]->valid_cols == g && (i > 0 || flat)),
              "tquant_mx.shape", flat ? "give the flat exp tile valid shape [1, M*N/32]" : "give exp, max and scaling valid shape [M, N/32] or [1, M*N/32]",
              "%s valid %d x %d for %" PRId64 " x %" PRId64 " groups", what[i], t[i]->valid_rows, t[i]->valid_cols, gr, gc);
  PT_VERIFY(x, !flat || s->cols == vc, "tquant_mx.shape", "use a source whose columns are its valid columns with a flat exp tile",
            "flat exp tile with a %d-column source of %" PRId64 " valid columns", s->cols, vc);
  PT_VERIFY(x, (m->valid_rows == 1 || m->cols == m->valid_cols) && (sc->valid_rows == 1 || sc->cols == sc->valid_cols),
            "tquant_mx.shape", "give max and scaling tiles no padding columns (they are written packed)",
            "max %d x %d valid %d x %d, scaling %d x %d valid %d x %d", m->rows, m->cols, m->valid_rows, m->valid_cols,
            sc->rows, sc->cols, sc->valid_rows, sc->valid_cols);
  return PTOSIM_OK;
}

/* axis0 shapes (PTO.cpp:12590-12612, :12656-12718): max, scaling and (not interleaved) exp
 * valid [M/32, N] in rows of the source's columns, holding (M/32) * C; interleaved exp:
 * M % 64 == 0, source rows % 64 == 0, exp [rows/64, align32(2C)] valid [M/64, 2N]. */
static ptosim_status check_dn(pt_ctx *x, const ptosim_tquant_mx_params *p) {
  const ptosim_tile *s = &p->src, *e = &p->exp, *t[] = {e, &p->max, &p->scaling};
  static const char *const what[] = {"exp", "max", "scaling"};
  int64_t vr = s->valid_rows, vc = s->valid_cols, C = s->cols;
  for (int i = p->interleave ? 1 : 0; i < 3; i++)
    PT_VERIFY(x, t[i]->valid_rows == vr / MX_GROUP && t[i]->valid_cols == vc && t[i]->cols == C &&
                     (int64_t)t[i]->rows * t[i]->cols >= vr / MX_GROUP * C,
              "tquant_mx.shape", "give exp, max and scaling the source's columns and valid shape [M/32, N]",
              "%s %d x %d valid %d x %d for a %d x %d source of valid %" PRId64 " x %" PRId64, what[i], t[i]->rows,
              t[i]->cols, t[i]->valid_rows, t[i]->valid_cols, s->rows, s->cols, vr, vc);
  PT_VERIFY(x, !p->interleave || (vr % 64 == 0 && s->rows % 64 == 0 && e->rows == s->rows / 64 &&
                                  e->cols == (2 * C + 31) / 32 * 32 && e->valid_rows == vr / 64 && e->valid_cols == 2 * vc),
            "tquant_mx.shape", "interleave: 64-row multiples, exp [src rows/64, align32(2 * src cols)] valid [M/64, 2N]",
            "interleaved exp %d x %d valid %d x %d for a %d x %d source of valid %" PRId64 " x %" PRId64, e->rows,
            e->cols, e->valid_rows, e->valid_cols, s->rows, s->cols, vr, vc);
  return PTOSIM_OK;
}

/* The rules of PTOAS TQuantMxOp::verify (tonibohnlein PTO.cpp:12413-12800) for the modelled
 * forms; the forms ptosim does not model are refused with tquant_mx.form. */
ptosim_status pt_exec_tquant_mx(pt_ctx *x, const ptosim_tquant_mx_params *p) {
  const char *op = "tquant_mx";
  const ptosim_tile *s = &p->src, *d = &p->dst, *e = &p->exp, *m = &p->max, *sc = &p->scaling;
  PT_VERIFY(x, x->m->target == PTOSIM_TARGET_A5, "tquant_mx.target", "run it on the a5 target",
            "tquant.mx exists on A5 only (PTOAS TQuantMxOp::verify), not on %s", x->m->prof->name);
  PT_VERIFY(x, p->quant == PTOSIM_QUANT_MXFP8 || p->quant == PTOSIM_QUANT_MXFP4_E2M1, "tquant_mx.mode",
            "use quant_type MXFP8 or MXFP4_E2M1", "quant type %d", (int)p->quant);
  PT_VERIFY(x, (unsigned)p->alg <= PTOSIM_MX_NV && (p->grp_axis == 0 || p->grp_axis == 1), "tquant_mx.mode",
            "use quantScaleAlg ocp / nv and grpAxis axis0 / axis1", "scale algorithm %d, group axis %d", (int)p->alg,
            (int)p->grp_axis);
  PT_VERIFY(x, !p->interleave || p->grp_axis == 0, "tquant_mx.mode", "use interleave with grpAxis = axis0 only",
            "interleave with grpAxis = axis1");
  const ptosim_tile *t[] = {s, d, e, m, sc};
  static const char *const what[] = {"src", "dst", "exp", "max", "scaling"};
  for (int i = 0; i < 5; i++) {
    PT_TRY(pt_tile_vec(x, op, what[i], t[i]));
    PT_VERIFY(x, pt_tile_kind_of(t[i]) == PT_TK_ND, "tquant_mx.layout", "use row_major none_box tiles",
              "%s is a %s tile", what[i], pt_tile_kind_name(pt_tile_kind_of(t[i])));
  }
  bool fp4 = p->quant == PTOSIM_QUANT_MXFP4_E2M1, b16 = s->dtype != PTOSIM_DT_F32;
  PT_TRY(pt_tile_dtype_in(x, op, "src", s->dtype, 0,
                          fp4 ? PT_TB_T(F16) | PT_TB_T(BF16) : PT_TB_T(F32) | PT_TB_T(F16) | PT_TB_T(BF16)));
  PT_VERIFY(x, !p->has_exp_zz && (p->grp_axis == 0 ? !p->interleave || b16 : !b16 || (p->alg == PTOSIM_MX_OCP && e->rows == 1)),
            "tquant_mx.form",
            "ptosim models grpAxis = axis1 (f32 sources with either exp form, bf16 / f16 sources OCP with a flat "
            "[1, M*N/32] exp tile) and axis0 (interleave with b16 sources); PTOAS refuses the others; the exp_zz form "
            "has no code in pto-isa",
            "%s from %s with grpAxis axis%d%s is not modelled", fp4 ? "MXFP4_E2M1" : "MXFP8", pt_dtype_name(s->dtype),
            (int)p->grp_axis,
            p->has_exp_zz ? " and exp_zz" : p->grp_axis == 0 ? " and interleave" : p->alg == PTOSIM_MX_NV ? " (NV)" : " (canonical exp)");
  PT_TRY(pt_tile_dtype_in(x, op, "dst", d->dtype, 0,
                          fp4 ? PT_TB_T(F4E2M1X2) : PT_TB_T(I8) | PT_TB_T(U8) | PT_TB_T(F8E4M3)));
  PT_TRY(pt_tile_dtype_in(x, op, "exp", e->dtype, 0, PT_TB_T(I8) | PT_TB_T(U8) | PT_TB_T(F8E8M0)));
  PT_TRY(pt_tile_same_dtype(x, op, "max", m, s));
  PT_TRY(pt_tile_same_dtype(x, op, "scaling", sc, s));
  int64_t vr = s->valid_rows, vc = s->valid_cols;
  int pack = fp4 ? 2 : 1; /* MXFP4: two codes a byte, dst [M, N/2] of cols = src cols / 2 */
  bool dn = p->grp_axis == 0;
  PT_VERIFY(x, (dn ? vr : vc) % MX_GROUP == 0 && vc % pack == 0, "tquant_mx.valid",
            dn ? "make the source valid rows a multiple of 32 (MXFP4: valid columns even)"
               : "make the source valid columns a multiple of 32",
            "src valid %" PRId64 " x %" PRId64 " with grpAxis axis%d", vr, vc, (int)p->grp_axis);
  PT_VERIFY(x, d->valid_rows == vr && d->valid_cols == vc / pack && s->cols % pack == 0 &&
                   (d->cols == s->cols / pack || (dn && !fp4)),
            "tquant_mx.valid",
            fp4 ? "give dst valid shape [M, N/2] and half the (even) source columns"
                : dn ? "give dst the source's valid shape" : "give dst the source's valid shape and columns",
            "src %d x %d valid %" PRId64 " x %" PRId64 ", dst %d x %d valid %d x %d", s->rows, s->cols, vr, vc, d->rows,
            d->cols, d->valid_rows, d->valid_cols);
  PT_TRY(dn ? check_dn(x, p) : check_nd(x, p));
  PT_TRY(dn ? quant_dn(x, p, vr, vc) : b16 ? quant_b16(x, p, vr * vc) : e->rows == 1 ? quant_flat(x, p, vr * vc) : quant_2d(x, p, vr, vc));
  pt_record_work(x, (uint64_t)(vr * vc), s->dtype);
  x->core->sreg[PT_SREG_CTRL] = MX_CTRL; /* set_ctrl(1 << 50), TQuant.hpp:2442 */
  return PTOSIM_OK;
}
