/* Elementwise vector tile ops (src/isa/ops.def "tile elementwise" rows): tile-tile, ternary,
 * tile-scalar, unary, texpands and the fused forms; tcvt is in tile_cvt.c.
 *
 * d(r, c) = F(a(r, c), b(r, c), ..., s) for r < dst.valid_rows, c < dst.valid_cols, every
 * operand an ND vec tile (tile_elem.h). Arithmetic as the vector unit does it (vec_lanes.h):
 * integers wrap in their own width; f32 in float; f16 / bf16 loaded exactly to float,
 * computed there and rounded once to nearest even (for + - * / sqrt the correctly rounded
 * result); every NaN result is the positive quiet NaN of the type. Multi-step ops (trem,
 * tfmod, trsqrt, the fused forms) round after each step, as their NPU sequences do
 * (docs/spec-notes.md section 14).
 *
 * Each op is a descriptor (operand shape, loop table by element type, legal types per
 * target) found by opcode once per op; the loop of the element type runs one row at a time. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "isa/tile_elem.h"
#include "isa/vec_formulas.h"

/* ---- shared operand checks (tile_elem.h) ---------------------------------------------- */

ptosim_status pt_te_tile(pt_ctx *x, const char *name, const char *what, const ptosim_tile *t) {
  PT_TRY(pt_tile_check(x, PT_TILE_LAYOUT, what, t, NULL));
  PT_TRY(pt_tile_in_op(x, name, "space", "vector tile ops work on vec (UB) tiles", what, t, PTOSIM_UB));
  PT_VERIFY(x, pt_tile_kind_of(t) == PT_TK_ND, PT_TILE_RULE(name, "layout"), "use blayout=row_major, slayout=none_box",
            "%s tile is %s; the op takes row-major none_box tiles only", what, pt_tile_kind_name(pt_tile_kind_of(t)));
  return PTOSIM_OK;
}

ptosim_status pt_te_dtype(pt_ctx *x, const char *name, const char *what, ptosim_dtype t, const uint32_t set[2]) {
  uint32_t legal = set[x->m->target == PTOSIM_TARGET_A5];
  PT_VERIFY(x, (unsigned)t < 32 && (legal >> t & 1u), PT_TILE_RULE(name, "dtype"),
            "see the op's type list in pto-isa docs/isa/tile/ops and include/pto/npu", "%s element type %s is not supported on %s", what, pt_dtype_name(t), x->m->prof->name);
  return PTOSIM_OK;
}

ptosim_status pt_te_valid(pt_ctx *x, const char *name, const char *what, const ptosim_tile *s, const ptosim_tile *d) {
  PT_VERIFY(x, s->valid_rows == d->valid_rows && s->valid_cols == d->valid_cols, PT_TILE_RULE(name, "valid"),
            "give the source the destination's valid shape (pto-isa asserts they are equal)",
            "%s valid region %d x %d differs from dst valid region %d x %d", what, s->valid_rows, s->valid_cols,
            d->valid_rows, d->valid_cols);
  return PTOSIM_OK;
}

ptosim_status pt_te_rows(pt_ctx *x, const ptosim_tile *t, int64_t vr, int64_t vc, pt_access acc, uint8_t **out,
                         int64_t *stride) {
  int64_t es = pt_dtype_size(t->dtype);
  *stride = t->cols * es;
  PT_TRY(pt_tile_at(x, x->core, t->space, t->addr, 0, acc, out));
  return pt_region(x, t->space, t->addr, 1, &vr, stride, (uint64_t)(vc * es), 1, acc, out);
}

ptosim_status pt_te_stage(pt_ctx *x, const ptosim_tile *s, const ptosim_tile *d, int64_t vr, int64_t vc,
                          const uint8_t **sp, uint8_t **copy) {
  *copy = NULL;
  if (!vr || !vc) return PTOSIM_OK; /* an empty region: nothing is read */
  uint64_t ses = pt_dtype_size(s->dtype), des = pt_dtype_size(d->dtype);
  uint64_t slen = (uint64_t)((vr - 1) * s->cols + vc) * ses, dlen = (uint64_t)((vr - 1) * d->cols + vc) * des;
  bool apart = s->space != d->space || s->addr >= d->addr + dlen || d->addr >= s->addr + slen;
  bool in_place = s->addr == d->addr && ses == des && s->cols == d->cols; /* each element read, then written */
  if (apart || in_place) return PTOSIM_OK;
  *copy = malloc(slen);
  if (!*copy)
    return pt_fail(x, PTOSIM_E_NOMEM, "sim.nomem", NULL, "out of host memory staging a %" PRIu64 "-byte source", slen);
  memcpy(*copy, *sp, slen);
  *sp = *copy;
  return PTOSIM_OK;
}

/* ---- f16 rows <-> f32 ------------------------------------------------------------------- */

typedef void (*te_f16_in_fn)(const uint8_t *p, int64_t n, float *out);
typedef void (*te_f16_out_fn)(const uint8_t *in, int64_t n, uint8_t *p);

/* Portable forms: the lane conversions of vec_lanes.h (loops the compiler vectorizes), kept
 * out of line so that they stay compiled for the baseline target (no FMA to contract into)
 * where the wider builds below call them for tails and NaNs. */
__attribute__((noinline)) static void te_f16_to_f32_c(const uint8_t *p, int64_t n, float *out) {
  for (int64_t i = 0; i < n; i++) out[i] = te_ld_f16(p, i);
}
__attribute__((noinline)) static void te_f32_to_f16_c(const uint8_t *in, int64_t n, uint8_t *p) {
  for (int64_t i = 0; i < n; i++) te_st_f16(p, i, te_ld_f32(in, i));
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#include <stdatomic.h>
#include <immintrin.h>
#define TE_F16C __attribute__((target("avx,f16c")))
/* F16C: vcvtph2ps is exact but quiets signaling NaNs, so groups holding a NaN are redone
 * the portable way (which keeps the payload bits, as tcvt f16 -> f32 stores them);
 * vcvtps2ph with round-to-nearest-even rounds as pt_vl_to_f16 does, and NaN lanes then get
 * 0x7E00 (all 2^32 f32 and 2^16 f16 inputs checked against the portable forms). */
TE_F16C static void te_f16_to_f32_x86(const uint8_t *p, int64_t n, float *out) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m256 x = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(p + 2 * i)));
    _mm256_storeu_ps(out + i, x);
    if (_mm256_movemask_ps(_mm256_cmp_ps(x, x, _CMP_UNORD_Q))) te_f16_to_f32_c(p + 2 * i, 8, out + i);
  }
  te_f16_to_f32_c(p + 2 * i, n - i, out + i);
}
TE_F16C static void te_f32_to_f16_x86(const uint8_t *in, int64_t n, uint8_t *p) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m256 x = _mm256_loadu_ps((const float *)(in + 4 * i));
    __m256i nan = _mm256_castps_si256(_mm256_cmp_ps(x, x, _CMP_UNORD_Q));
    __m128i nan16 = _mm_packs_epi32(_mm256_castsi256_si128(nan), _mm256_extractf128_si256(nan, 1));
    __m128i h = _mm256_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    _mm_storeu_si128((__m128i *)(p + 2 * i), _mm_blendv_epi8(h, _mm_set1_epi16(0x7E00), nan16));
  }
  te_f32_to_f16_c(in + 4 * i, n - i, p + 2 * i);
}
/* The same with AVX-512, 16 or 32 lanes a step: vcvtph2ps / vcvtps2ph are the F16C instructions
 * on wider registers. TE_AVX512 code runs when te_avx512() (reads the flags the compiler's
 * runtime asked CPUID for once at start-up). */
#define TE_AVX512 __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq")))
static bool te_avx512(void) {
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("fma");
}
TE_AVX512 static void te_f16_to_f32_avx512(const uint8_t *p, int64_t n, float *out) {
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) { /* two registers a step, one test for NaNs */
    __m512 x = _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(p + 2 * i)));
    __m512 y = _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(p + 2 * i + 32)));
    _mm512_storeu_ps(out + i, x), _mm512_storeu_ps(out + i + 16, y);
    if (!_kortestz_mask16_u8(_mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q), _mm512_cmp_ps_mask(y, y, _CMP_UNORD_Q)))
      te_f16_to_f32_c(p + 2 * i, 32, out + i);
  }
  te_f16_to_f32_x86(p + 2 * i, n - i, out + i);
}
TE_AVX512 static void te_f32_to_f16_avx512(const uint8_t *in, int64_t n, uint8_t *p) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    __m512 x = _mm512_loadu_ps((const float *)(in + 4 * i));
    __m256i h = _mm512_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    h = _mm256_mask_mov_epi16(h, _mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q), _mm256_set1_epi16(0x7E00));
    _mm256_storeu_si256((__m256i *)(p + 2 * i), h);
  }
  te_f32_to_f16_x86(in + 4 * i, n - i, p + 2 * i);
}
/* F16C is CPUID.1:ECX bit 29 (clang's __builtin_cpu_supports has no "f16c"); "avx" also
 * checks that the OS saves the YMM registers. CPUID traps to the hypervisor in a virtual
 * machine (microseconds), so the answer is asked once and kept (0 unknown, 1 none, 2 F16C,
 * 3 AVX-512 as well). */
static int te_f16c_level(void) {
  static _Atomic int known;
  int k = atomic_load_explicit(&known, memory_order_relaxed);
  if (!k) {
    unsigned a, b, c, d;
    k = __builtin_cpu_supports("avx") && __get_cpuid(1, &a, &b, &c, &d) && (c >> 29 & 1u) ? 2 : 1;
    k += k == 2 && te_avx512();
    atomic_store_explicit(&known, k, memory_order_relaxed);
  }
  return k;
}
#else
#define te_f16_to_f32_x86 te_f16_to_f32_c
#define te_f32_to_f16_x86 te_f32_to_f16_c
#define te_f16_to_f32_avx512 te_f16_to_f32_c
#define te_f32_to_f16_avx512 te_f32_to_f16_c
static int te_f16c_level(void) { return 1; }
#endif

void pt_te_f16_to_f32(const uint8_t *p, int64_t n, float *out) {
  static const te_f16_in_fn fn[] = {te_f16_to_f32_c, te_f16_to_f32_c, te_f16_to_f32_x86, te_f16_to_f32_avx512};
  fn[te_f16c_level()](p, n, out);
}
void pt_te_f32_to_f16(const uint8_t *in, int64_t n, uint8_t *p) {
  static const te_f16_out_fn fn[] = {te_f32_to_f16_c, te_f32_to_f16_c, te_f32_to_f16_x86, te_f32_to_f16_avx512};
  fn[te_f16c_level()](in, n, p);
}

/* ---- texp rows: the fast exp, pt_exp_f32 where it is not proven ------------------------- */

/* The lanes of y that slow marks get pt_exp_f32(x) (NaN results as 0x7FC00000, as te_st_f32). */
static void te_exp_slow(const pt_v8f *x, pt_v8f *y, const pt_v8i *slow) {
  for (int j = 0; j < 8; j++)
    if ((*slow)[j]) {
      float r = pt_exp_f32((*x)[j]);
      (*y)[j] = te_isnan(r) ? pt_vl_f32_of(0x7FC00000u) : r;
    }
}

/* Sixteen lanes at a into d (d may be a), ANY(&v) true when a lane of v is set; inlined
 * into each build of the row loop. The vectors stay in registers: the rare slow call
 * works on copies. */
#define TE_EXP16(a, d, ANY)                                                                  \
  do {                                                                                       \
    pt_v8f x0, x1, y0, y1;                                                                   \
    pt_v8i s0, s1;                                                                           \
    memcpy(&x0, a, 32), memcpy(&x1, a + 32, 32); /* before any store: d may be a */          \
    pt_exp_f32x8(&x0, &y0, &s0);                                                             \
    pt_exp_f32x8(&x1, &y1, &s1);                                                             \
    pt_v8i any_ = s0 | s1;                                                                   \
    if (ANY(&any_)) {                                                                        \
      pt_v8f xs[2] = {x0, x1}, ys[2] = {y0, y1};                                             \
      pt_v8i ss[2] = {s0, s1};                                                               \
      te_exp_slow(&xs[0], &ys[0], &ss[0]), te_exp_slow(&xs[1], &ys[1], &ss[1]);              \
      y0 = ys[0], y1 = ys[1];                                                                \
    }                                                                                        \
    memcpy(d, &y0, 32), memcpy(d + 32, &y1, 32);                                             \
  } while (0)

static inline bool te_any_c(const pt_v8i *v) {
  uint64_t w[4];
  memcpy(w, v, sizeof w);
  return (w[0] | w[1] | w[2] | w[3]) != 0;
}

typedef void (*te_exp_fn)(const uint8_t *a, int64_t n, uint8_t *d);

/* The row loop on pt_exp_f32x8, compiled portable and for AVX2 hosts (same C, same values). */
#define TE_EXP_ROW(name, ATTR, ANY)                                                          \
  ATTR static void name(const uint8_t *a, int64_t n, uint8_t *d) {                           \
    int64_t i = 0;                                                                           \
    for (; i + 16 <= n; i += 16) TE_EXP16(a + 4 * i, d + 4 * i, ANY);                        \
    if (i < n) { /* the tail through a zero-padded block */                                  \
      uint8_t t[64] = {0};                                                                   \
      memcpy(t, a + 4 * i, (size_t)(n - i) * 4);                                             \
      TE_EXP16(t, t, ANY);                                                                   \
      memcpy(d + 4 * i, t, (size_t)(n - i) * 4);                                             \
    }                                                                                        \
  }
TE_EXP_ROW(te_exp_c, , te_any_c)
#if defined(__x86_64__) && defined(__GNUC__)
/* Fused multiply-adds only make the double steps more exact (the error bound holds either way);
 * gcc contracts with -ffp-contract=fast only (clang's default contracts within expressions). */
#ifdef __clang__
#define TE_FMA(t) __attribute__((target(t ",fma")))
#else
#define TE_FMA(t) __attribute__((target(t ",fma"), optimize("fp-contract=fast")))
#endif
#define TE_ANY_AVX(v) (!_mm256_testz_si256((__m256i)*(v), (__m256i)*(v)))
TE_EXP_ROW(te_exp_avx2, TE_FMA("avx2"), TE_ANY_AVX)
static bool te_avx2(void) { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); }

/* The AVX-512 build: the steps of pt_exp_f32x8 with its constants, written with intrinsics
 * so that the lane masks live in mask registers (gcc's generic vectors keep them in vector
 * registers and pack them: twice the instructions), and the range tests are made on 16
 * lanes at once. te_exp8d_avx512 gives y (step 5) of 8 lanes at a (f32) in double, and in
 * *near the lanes near a halfway point: the low 29 bits minus 2^28 plus PT_EXP_NEAR, mod
 * 2^29, below 2 PT_EXP_NEAR = 2^22, i.e. their bits 22..28 zero. */
TE_AVX512 static inline __m512d te_exp8d_avx512(const uint8_t *a, __mmask8 *near) {
  const __m512i tlo = _mm512_sub_epi64(_mm512_castpd_si512((__m512d){PT_EXP_TAB_LO}),
                                       _mm512_setr_epi64(0, 1ll << 48, 2ll << 48, 3ll << 48, 4ll << 48, 5ll << 48, 6ll << 48, 7ll << 48));
  const __m512i thi = _mm512_sub_epi64(_mm512_castpd_si512((__m512d){PT_EXP_TAB_HI}),
                                       _mm512_setr_epi64(8ll << 48, 9ll << 48, 10ll << 48, 11ll << 48, 12ll << 48, 13ll << 48, 14ll << 48, 15ll << 48));
  const __m512d shift = _mm512_set1_pd(PT_EXP_SHIFT), one = _mm512_set1_pd(1.0);
  __m512d xd = _mm512_cvtps_pd(_mm256_loadu_ps((const float *)a));
  __m512d t = _mm512_fmadd_pd(xd, _mm512_set1_pd(PT_EXP_N_LN2), shift), kd = _mm512_sub_pd(t, shift);
  __m512d r = _mm512_fnmadd_pd(kd, _mm512_set1_pd(PT_EXP_LN2_N), xd);
  __m512d p = _mm512_fmadd_pd(r, _mm512_set1_pd(1.0 / 120), _mm512_set1_pd(1.0 / 24));
  p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(1.0 / 6));
  p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(0.5));
  p = _mm512_fmadd_pd(p, r, one);
  p = _mm512_fmadd_pd(p, r, one);
  __m512i ti = _mm512_castpd_si512(t);
  __m512i s = _mm512_add_epi64(_mm512_permutex2var_epi64(tlo, ti, thi), _mm512_slli_epi64(ti, 48));
  __m512d y = _mm512_mul_pd(_mm512_castsi512_pd(s), p);
  __m512i low = _mm512_add_epi64(_mm512_castpd_si512(y), _mm512_set1_epi64(PT_EXP_NEAR - 0x10000000));
  *near = _mm512_testn_epi64_mask(low, _mm512_set1_epi64(0x1FFFFFFF & -(2 * PT_EXP_NEAR)));
  return y;
}
/* The lanes of 16 (sources v) that slow marks get pt_exp_f32 at y (NaN results as
 * 0x7FC00000): about 1 lane in 2^16 of the fast range, so out of line. */
TE_AVX512 __attribute__((noinline, cold)) static void te_exp_fix16(__m512 v, __mmask16 slow, uint8_t *y) {
  float x[16];
  _mm512_storeu_ps(x, v);
  for (unsigned l = slow; l; l &= l - 1) te_st_f32(y, __builtin_ctz(l), pt_exp_f32(x[__builtin_ctz(l)]));
}
/* Sixteen lanes a step; x < -104 gives +0 (the zeroing stores), the lanes not proven go to
 * te_exp_fix16 from the loaded sources (so d may be a). */
TE_AVX512 TE_FMA("avx512f") static void te_exp_avx512(const uint8_t *a, int64_t n, uint8_t *d) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    __mmask8 n0, n1;
    __m512 v = _mm512_loadu_ps((const float *)(a + 4 * i));
    __m512d y0 = te_exp8d_avx512(a + 4 * i, &n0), y1 = te_exp8d_avx512(a + 4 * i + 32, &n1);
    __mmask16 in = _mm512_mask_cmp_ps_mask(_mm512_cmp_ps_mask(v, _mm512_set1_ps(PT_EXP_MIN), _CMP_GE_OQ), v,
                                           _mm512_set1_ps(PT_EXP_MAX), _CMP_LE_OQ);
    __mmask16 live = _mm512_cmp_ps_mask(v, _mm512_set1_ps(PT_EXP_ZERO), _CMP_NLT_UQ); /* not +0 */
    __mmask16 slow = live & (~in | _mm512_kunpackb(n1, n0));
    _mm256_storeu_ps((float *)(d + 4 * i), _mm512_maskz_cvtpd_ps((__mmask8)live, y0));
    _mm256_storeu_ps((float *)(d + 4 * i + 32), _mm512_maskz_cvtpd_ps((__mmask8)(live >> 8), y1));
    if (slow) te_exp_fix16(v, slow, d + 4 * i);
  }
  i = n & ~(int64_t)15;
  if (i < n) (te_avx2() ? te_exp_avx2 : te_exp_c)(a + 4 * i, n - i, d + 4 * i);
}
#else
#define te_exp_avx2 te_exp_c
#define te_exp_avx512 te_exp_c
static bool te_avx2(void) { return false; }
static bool te_avx512(void) { return false; }
#endif

bool pt_te_exp_f32_build(int b, const uint8_t *a, int64_t n, uint8_t *d) {
  bool have[PT_TE_EXP_BUILDS] = {true, te_avx2(), te_avx512()};
  static const te_exp_fn fn[PT_TE_EXP_BUILDS] = {te_exp_c, te_exp_avx2, te_exp_avx512};
  if ((unsigned)b >= PT_TE_EXP_BUILDS || !have[b]) return false;
  fn[b](a, n, d);
  return true;
}
void pt_te_exp_f32(const uint8_t *a, int64_t n, uint8_t *d) { (te_avx512() ? te_exp_avx512 : te_avx2() ? te_exp_avx2 : te_exp_c)(a, n, d); }

/* ---- row loops, one per operand shape: F(K, ...) on compute-type values ------------------ */

/* TE_LOOP(op, K, BODY, F) defines the row loop op##_##K: BODY(K, IO, F) is the element loop
 * with loads and stores of kind IO. f16 rows run it with IO = f32 on f32 copies of the row,
 * TE_CHUNK elements at a time (te_f16_chunks): the f16 conversions are then whole-chunk
 * loops (F16C where the host has it), the same values as the per-element ones. */
#define TE_DIRECT(op, K, BODY, F) \
  TE_CLONES static void op##_##K(const te_row *g) { BODY(K, K, F) }
#define TE_VIA_F32(op, K, BODY, F)                                                          \
  TE_CLONES static void op##_##K##_f32(const te_row *g) { BODY(K, f32, F) }                 \
  TE_VIA_F32_ROW(op, K, op##_##K##_f32)
#define TE_VIA_F32_ROW(op, K, F32ROW) \
  static void op##_##K(const te_row *g) { te_f16_chunks(g, F32ROW); }
#define TE_LOOP_i8 TE_DIRECT
#define TE_LOOP_u8 TE_DIRECT
#define TE_LOOP_i16 TE_DIRECT
#define TE_LOOP_u16 TE_DIRECT
#define TE_LOOP_i32 TE_DIRECT
#define TE_LOOP_u32 TE_DIRECT
#define TE_LOOP_i64 TE_DIRECT
#define TE_LOOP_u64 TE_DIRECT
#define TE_LOOP_f32 TE_DIRECT
#define TE_LOOP_bf16 TE_DIRECT /* its conversions are shifts: the loops vectorize as they are */
#define TE_LOOP_f16 TE_VIA_F32
#define TE_LOOP(op, K, BODY, F) TE_LOOP_##K(op, K, BODY, F)

enum { TE_CHUNK = 512 };

/* Run the f32 loop `inner` of an f16 op on row g: each source chunk converted to f32 (exact),
 * the result converted back with one rounding to nearest even (NaN: 0x7E00, as te_st_f16).
 * A source that is the destination (in place, or the fused forms reading d) is read chunk
 * by chunk before that chunk is written, as the element loop would. */
static void te_f16_chunks(const te_row *g, te_fn inner) {
  float buf[4][TE_CHUNK];
  const uint8_t *src[3] = {g->a, g->b, g->c};
  for (int64_t j = 0; j < g->n; j += TE_CHUNK) {
    int64_t m = g->n - j < TE_CHUNK ? g->n - j : TE_CHUNK;
    te_row h = {.d = (uint8_t *)buf[3], .n = m, .s = g->s};
    const uint8_t **hs[3] = {&h.a, &h.b, &h.c};
    for (int k = 0; k < 3; k++)
      if (src[k]) pt_te_f16_to_f32(src[k] + 2 * j, m, buf[k]), *hs[k] = (const uint8_t *)buf[k];
    inner(&h);
    pt_te_f32_to_f16((const uint8_t *)buf[3], m, g->d + 2 * j);
  }
}

#define TE_BODY1(K, IO, F) /* d = F(a) */                                                    \
  uint8_t *d = g->d;                                                                         \
  const uint8_t *a = g->a;                                                                   \
  for (int64_t i = 0, n = g->n; i < n; i++) te_st_##IO(d, i, F(K, te_ld_##IO(a, i)));
#define TE_BODY2(K, IO, F) /* d = F(a, b) */                                                 \
  uint8_t *d = g->d;                                                                         \
  const uint8_t *a = g->a, *b = g->b;                                                        \
  for (int64_t i = 0, n = g->n; i < n; i++) te_st_##IO(d, i, F(K, te_ld_##IO(a, i), te_ld_##IO(b, i)));
#define TE_BODYS(K, IO, F) /* d = F(a, s) */                                                 \
  uint8_t *d = g->d;                                                                         \
  const uint8_t *a = g->a;                                                                   \
  pt_vl_c_##K s = te_s_##K(g);                                                               \
  for (int64_t i = 0, n = g->n; i < n; i++) te_st_##IO(d, i, F(K, te_ld_##IO(a, i), s));
#define TE_BODY3(K, IO, F) /* d = F(a, b, c) */                                              \
  uint8_t *d = g->d;                                                                         \
  const uint8_t *a = g->a, *b = g->b, *c = g->c;                                             \
  for (int64_t i = 0, n = g->n; i < n; i++)                                                  \
    te_st_##IO(d, i, F(K, te_ld_##IO(a, i), te_ld_##IO(b, i), te_ld_##IO(c, i)));
#define TE_BODY2S(K, IO, F) /* d = F(a, b, s) */                                             \
  uint8_t *d = g->d;                                                                         \
  const uint8_t *a = g->a, *b = g->b;                                                        \
  pt_vl_c_##K s = te_s_##K(g);                                                               \
  for (int64_t i = 0, n = g->n; i < n; i++) te_st_##IO(d, i, F(K, te_ld_##IO(a, i), te_ld_##IO(b, i), s));
#define TE_BODYDUP(K, IO, F) /* d = s */                                                     \
  uint8_t *d = g->d;                                                                         \
  pt_vl_c_##K s = te_s_##K(g);                                                               \
  for (int64_t i = 0, n = g->n; i < n; i++) te_st_##IO(d, i, s);

/* The loops copy the row's fields to locals first: the stores go through byte pointers,
 * which may alias *g as far as the compiler knows, and would keep it from vectorizing. */
#define TE_MAP1(op, K, F) TE_LOOP(op, K, TE_BODY1, F)
#define TE_MAP2(op, K, F) TE_LOOP(op, K, TE_BODY2, F)
#define TE_MAPS(op, K, F) TE_LOOP(op, K, TE_BODYS, F)

/* + - * / (F written with C operators, which apply to vector registers too): TE_MAP2V /
 * TE_MAPSV are TE_MAP2 / TE_MAPS, and f16 rows on AVX-512 hosts take one pass instead of the
 * chunks: 16 elements converted exactly (vcvtph2ps), F on them in f32 as the f32 loop does,
 * rounded once to nearest even (vcvtps2ph), NaN results 0x7E00. A NaN source only matters
 * as a NaN here (vcvtph2ps quiets signaling ones: no payload reaches an f16 result). Each
 * step reads its 16 sources before it writes: d may be a source. The tail goes through the
 * chunks. */
#define TE_MAP2V(op, K, F) TE_V_##K(op, K, TE_BODY2, F, 0)
#define TE_MAPSV(op, K, F) TE_V_##K(op, K, TE_BODYS, F, 1)
#define TE_V_i8(op, K, BODY, F, SC) TE_LOOP(op, K, BODY, F)
#define TE_V_u8 TE_V_i8
#define TE_V_i16 TE_V_i8
#define TE_V_u16 TE_V_i8
#define TE_V_i32 TE_V_i8
#define TE_V_u32 TE_V_i8
#define TE_V_i64 TE_V_i8
#define TE_V_u64 TE_V_i8
#define TE_V_f32 TE_V_i8
#define TE_V_bf16 TE_V_i8
#if defined(__x86_64__) && defined(__GNUC__)
#define TE_V_f16(op, K, BODY, F, SC)                                                        \
  TE_CLONES static void op##_f16_f32(const te_row *g) { BODY(K, f32, F) }                   \
  TE_AVX512 static void op##_f16_avx512(const te_row *g) {                                  \
    uint8_t *d = g->d;                                                                      \
    const uint8_t *a = g->a, *b = g->b;                                                     \
    const __m512 s = _mm512_set1_ps(g->s.f);                                                \
    int64_t i = 0, n = g->n;                                                                \
    for (; i + 16 <= n; i += 16) {                                                          \
      __m512 x = _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(a + 2 * i)));         \
      __m512 y = SC ? s : _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(b + 2 * i))); \
      __m512 r = F(K, x, y);                                                                \
      __m256i h = _mm512_cvtps_ph(r, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);        \
      h = _mm256_mask_mov_epi16(h, _mm512_cmp_ps_mask(r, r, _CMP_UNORD_Q), _mm256_set1_epi16(0x7E00)); \
      _mm256_storeu_si256((__m256i *)(d + 2 * i), h);                                      \
    }                                                                                       \
    te_row t = {.d = d + 2 * i, .a = a + 2 * i, .b = SC ? NULL : b + 2 * i, .n = n - i, .s = g->s}; \
    if (t.n) te_f16_chunks(&t, op##_f16_f32);                                               \
  }                                                                                         \
  static void op##_f16(const te_row *g) {                                                   \
    if (te_f16c_level() == 3) op##_f16_avx512(g);                                           \
    else te_f16_chunks(g, op##_f16_f32);                                                    \
  }
#else
#define TE_V_f16(op, K, BODY, F, SC) TE_LOOP(op, K, BODY, F)
#endif
#define TE_MAP3(op, K, F) TE_LOOP(op, K, TE_BODY3, F)
#define TE_MAP2S(op, K, F) TE_LOOP(op, K, TE_BODY2S, F)
#define TE_DUP(op, K, F) TE_DIRECT(op, K, TE_BODYDUP, F)

/* ---- element formulas ------------------------------------------------------------------- */

/* x rounded to kind K: the result of one step of a multi-instruction sequence on T. */
#define RND(K, x) te_rnd_##K(x)

#define RDIV_F(K, x, y) ((y) / (x)) /* tdivs with the scalar first */
#define MAX_F(K, x, y) pt_vl_fmax(x, y) /* IEEE maximum / minimum (vec_lanes.h) */
#define MIN_F(K, x, y) pt_vl_fmin(x, y)
/* Shift count = the unsigned value of y; a count >= the width shifts every bit out
 * (arithmetic right shifts of signed kinds leave the sign in every bit). The 64-bit kinds (A5
 * only) take the count mod 64: a5 Int64Binary.hpp Int64ShiftRegs shifts by `cnt & 63`. */
#define SHCNT(K, y) (PT_VL_E_##K == 8 ? (pt_vl_u_##K)(y) % 64u : (pt_vl_u_##K)(y))
#define SHL_I(K, x, y) \
  (SHCNT(K, y) >= PT_VL_E_##K * 8u ? (pt_vl_c_##K)0 : PT_VL_WRAP(K, x, <<, SHCNT(K, y)))
#define SHR_I(K, x, y)                                                                   \
  (SHCNT(K, y) >= PT_VL_E_##K * 8u ? (pt_vl_c_##K)(PT_VL_S_##K ? (x) >> (PT_VL_E_##K * 8u - 1) : 0) \
                                   : (pt_vl_c_##K)((x) >> SHCNT(K, y)))
#define NEG_F(K, x) (-(x))
#define SQRT_F(K, x) sqrtf(x)
#define RSQRT_F(K, x) (1.0f / RND(K, sqrtf(x))) /* vsqrt, then a division */
#define REC_F(K, x) (1.0f / (x))
#define RELU_I(K, x) ((x) > 0 ? (x) : 0)
#define RELU_F(K, x) ((x) > 0.0f ? (x) : 0.0f)
/* tfmod: x - trunc(x / y) * y, each step rounded in f32 (a2a3 TFmod.hpp: vdiv, cast to zero,
 * vmul, vsub; f32 only there). f16 (A5 only): the same steps in f32, then vcvt f32 -> f16
 * ROUND_Z with RS_ENABLE (a5 TFMod.hpp, TFModS.hpp, TRem.hpp, TRemS.hpp): toward zero and
 * saturating, NaN -> 0 and +-inf -> +-65504 (the vcvt reading, docs/spec-notes.md section 11).
 * CVZ_K: that conversion for f16, nothing for f32. */
static inline float te_cvz_f16(float v) { return pt_f16_to_f32(pt_f32_to_f16(v, PT_RND_TRUNC, PT_SAT_ON)); }
#define CVZ_f16(v) te_cvz_f16(v)
#define CVZ_f32(v) (v)
#define FMOD_F(K, x, y) CVZ_##K((x) - truncf((x) / (y)) * (y))
/* trem: r = x - floor(x / y) * y (converted as tfmod's on f16), then r + y where y r < 0 (a2a3 /
 * a5 TRem.hpp, a2a3 TRemS.hpp; te_remfix_K, the product rounded to K); trems on A5: r alone,
 * no sign correction (a5 TRemS.hpp RemSOp has none). */
#define REMS5_F(K, x, y) CVZ_##K((x) - floorf((x) / (y)) * (y))
#define REM_F(K, x, y) te_remfix_##K(REMS5_F(K, x, y), y)
/* tlrelu / tprelu: x where x > 0, else x * slope (a5 TLRelu.hpp: vmuls then a select on x > 0). */
#define LRELU_F(K, x, s) ((x) > 0.0f ? (x) : (x) * (s))
#define ADDC_I(K, x, y, z) ADD_I(K, ADD_I(K, x, y), z)
#define SUBC_I(K, x, y, z) ADD_I(K, SUB_I(K, x, y), z)
#define ADDC_F(K, x, y, z) (RND(K, (x) + (y)) + (z)) /* two vadds, each rounded to T */
#define SUBC_F(K, x, y, z) (RND(K, (x) - (y)) + (z))
#define ADDSC_I(K, x, y, s) ADD_I(K, ADD_I(K, x, s), y)
#define SUBSC_I(K, x, y, s) ADD_I(K, SUB_I(K, x, s), y)
#define ADDSC_F(K, x, y, s) (RND(K, (x) + (s)) + (y))
#define SUBSC_F(K, x, y, s) (RND(K, (x) - (s)) + (y))
/* taxpy: d = d + a * s, one vaxpy (a2a3 / a5 TAxpy.hpp). A5 as ptosim's vaxpy: product and sum
 * each rounded to f32 (f16: the product is exact there), then the store's rounding to T; A2/A3
 * rounds the product to T first (the two hardware tests' goldens, docs/spec-notes.md 14.3). */
#define AXPY_F(K, x, y, s) ((y) + (x) * (s))
#define AXPY2_F(K, x, y, s) ((y) + RND(K, (x) * (s)))
/* Fused forms, c = d where the op reads the destination. */
#define SUBRELU_F(K, x, y) RELU_F(K, (x) - (y))
#define ADDRELU_I(K, x, y) RELU_I(K, ADD_I(K, x, y))
#define SUBRELU_I(K, x, y) RELU_I(K, SUB_I(K, x, y))
/* tfusedmuladd (a * d + b), tfusedmuladdrelu and tmuladddst (a * b + d) are one vmadd /
 * vmaddrelu / vmla (A2/A3) or vmadd / vmula (A5) each: fused as ptosim's vmadd / vmula, one
 * rounding to f32 (then the store's to f16). */
#define FMA_F(K, x, y, z) fmaf(x, z, y)
#define FMARELU_F(K, x, y, z) RELU_F(K, fmaf(x, z, y))
#define MULADDDST_F(K, x, y, z) fmaf(x, y, z)
#define POW2_F(K, x, y) te_pow_a2(x, y)
#define POW5_F(K, x, y) te_pow_a5(x, y, pt_exp_f32(logf(fabsf(x)) * (y)))
/* HIGH_PRECISION (a5 TPowFloatHighPrecisionImpl: a two-word log): r rounded once. */
#define POWHP_F(K, x, y) te_pow_a5(x, y, (float)exp((double)(y) * log(fabs((double)(x)))))
/* Whether kind K's values read as signed: a2a3 passes elements as int, so a u32 exponent
 * from 2^31 is negative there and 0xFFFFFFFF is -1. */
#define POW_SIGNED(K, a2) (PT_VL_S_##K || ((a2) && PT_VL_E_##K == 4))
#define POW_NEG(K, y, a2) (POW_SIGNED(K, a2) && (uint64_t)(pt_vl_u_##K)(y) >> (PT_VL_E_##K * 8 - 1))
#define POW_M1(K, x, a2) (POW_SIGNED(K, a2) && (pt_vl_u_##K)(x) == (pt_vl_u_##K)~(pt_vl_u_##K)0)
#define POWI(K, x, y, a2) ((pt_vl_c_##K)te_powi((uint64_t)(x), (uint64_t)(y), POW_NEG(K, y, a2), POW_M1(K, x, a2)))
#define POW2_I(K, x, y) POWI(K, x, y, 1)
#define POW5_I(K, x, y) POWI(K, x, y, 0)

/* trem's sign fix of remainder r by y (the f16 sum r + y rounds to f16 at the store). */
static inline float te_remfix_f32(float r, float y) { return y * r < 0.0f ? r + y : r; }
static inline float te_remfix_f16(float r, float y) { return te_rnd_f16(y * r) < 0.0f ? r + y : r; }

/* tpow / tpows on floats: the NPU computes r = exp(ln|b| * e) (each step in f32; 16-bit types
 * are loaded to f32 on A5) and fixes up the special cases after, differently per target.
 * e is odd when e - 2 floor(e / 2) = 1 (a5 ComputeExpoOddInt; no odd value beyond 2^24). */
static inline bool te_odd(float e) { return e - 2.0f * floorf(0.5f * e) == 1.0f; }

/* a2a3 TPow.hpp SwitchPowFResult, in its order: e = 0 -> 1; b = 0 -> e > 0 ? 0 : inf;
 * b = -1, e = +-inf -> 1; e integral -> (e odd and b < 0 ? -r : r); else exp(ln b * e). */
static inline float te_pow_a2(float b, float e) {
  if (e == 0.0f) return 1.0f;
  if (b == 0.0f) return e > 0.0f ? 0.0f : INFINITY;
  if (b == -1.0f && isinf(e)) return 1.0f;
  if (isfinite(e) && floorf(e) == e) return te_odd(e) && b < 0.0f ? -pt_exp_f32(logf(fabsf(b)) * e) : pt_exp_f32(logf(fabsf(b)) * e);
  return pt_exp_f32(logf(b) * e);
}

/* a5 TPow.hpp ProcessFloatSpecialCase on r: e = 0 or b = 1 -> 1; a NaN -> NaN; b = +-inf or
 * +-0 -> b with inf and 0 swapped when e < 0, its sign kept for odd e only; b = -1, e = +-inf
 * -> 1; b < 0 -> NaN for a fractional e, -r for an odd one, else r. */
static inline float te_pow_a5(float b, float e, float r) {
  if (e == 0.0f || b == 1.0f) return 1.0f;
  if (isnan(b) || isnan(e)) return NAN;
  if (isinf(b) || b == 0.0f) {
    float t = e < 0.0f ? pt_vl_f32_of(pt_vl_f32_bits(b) ^ 0x7F800000u) : b;
    return te_odd(e) ? t : fabsf(t);
  }
  if (b == -1.0f && isinf(e)) return 1.0f;
  if (b < 0.0f) return floorf(e) != e ? NAN : te_odd(e) ? -r : r;
  return r;
}

/* Integer tpow (a2a3 TPowICore, a5 TPowInteger): e >= 0: b^e wrapped to the width by
 * squaring (0^0 = 1); e negative: 1 for b = 1, (-1)^e for b = -1, else 0. Computed on 64
 * bits, the caller keeps the low bits. */
static inline uint64_t te_powi(uint64_t b, uint64_t e, bool neg, bool minus1) {
  if (neg) return b == 1 ? 1 : minus1 ? ((e & 1) ? UINT64_MAX : 1) : 0;
  uint64_t r = 1;
  for (; e; e >>= 1, b *= b)
    if (e & 1) r *= b;
  return r;
}

/* ---- integer division: tdiv tdivs tfmod tfmods trem trems on integers ------------------- */

/* docs/spec-notes.md section 14.8. Quotients truncate toward zero: A5's vdiv (tdiv) and the
 * scalar unit's C `/` (tdivs on both targets: TDivs_naive / TSDiv_naive). tfmod is A5's vdiv,
 * vmul, vsub, x - (x / y) y, which is C's x % y (the remainder with x's sign). trem / trems
 * on A5 are one vmod, read as the remainder with y's sign (x % y, plus y where the two signs
 * differ): trem.md's floor(x / y) formula, pto-isa's CPU simulator and the hardware test's
 * numpy `%` all say so; no page defines vmod itself. A lane whose result no source defines
 * (y = 0; MIN / -1) never reaches these formulas: te_guards fails the op first. */
#define IDIV_I(K, x, y) ((pt_vl_c_##K)((x) / (y)))
#define IRDIV_I(K, x, s) ((pt_vl_c_##K)((s) / (x))) /* tdivs with the scalar first */
#define IFMOD_I(K, x, y) ((pt_vl_c_##K)((x) % (y)))
/* 1 where v (a value of K) is negative; 0 for unsigned K (no compare with 0 there). */
#define INEG(K, v) ((unsigned)((pt_vl_u_##K)(v) >> (PT_VL_E_##K * 8 - 1)) & (unsigned)PT_VL_S_##K)
#define IREM_I(K, x, y) \
  ((pt_vl_c_##K)(IFMOD_I(K, x, y) + (IFMOD_I(K, x, y) != 0 && INEG(K, IFMOD_I(K, x, y) ^ (y)) ? (y) : 0)))

/* A5 64-bit division (a5 Int64Div.hpp; docs/spec-notes.md 14.8): tdiv, tdivs (both forms), trem,
 * trems on i64 / u64 run a software sequence on 32-bit halves, which defines every lane:
 * x / 0 = 0 and x % 0 = 0 (zeroMask), |y| = 1 gives +-|x| (oneMask: MIN / -1 = MIN), an
 * unsigned y >= 2^63 gives x >= y (largeResultOne / Zero); else the magnitudes go through
 * te_udiv64_core, then the sign (negated where the signs differ). The remainder is x - q y
 * (wrapping; Int64RemRegs). te_mulhi64: the high 64 bits of a b (Int64B128Calc). */
static inline uint64_t te_mulhi64(uint64_t a, uint64_t b) {
  uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
  uint64_t lh = al * bh, hl = ah * bl, mid = (al * bl >> 32) + (uint32_t)lh + (uint32_t)hl;
  return ah * bh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}
/* Quotient of n by d (d > 1) as Int64DivUnsignedRegs / Int64DivSignedRegs compute it: r about
 * 2^64 / d from f32 (d converted as a SIGNED 64-bit value to nearest, 1 / that, the bits plus
 * 0x1FFFFFFE = times 2^64 less two ulps, back toward zero), two Newton steps r += hi(r (-d r)),
 * q = hi(n r), then q + 1 while n - q d >= d (twice). Exact for every d below 2^63 (a
 * transcription checked on 3 x 10^5 pairs against exact division); d = 2^63 (the signed path's
 * |INT64_MIN|) converts as -2^63 and gives what the steps give (e.g. 3 / INT64_MIN = -2). */
static uint64_t te_udiv64_core(uint64_t n, uint64_t d) {
  float f = 1.0f / (float)(int64_t)d;
  uint64_t r = (uint64_t)(int64_t)pt_vl_f32_of(pt_vl_f32_bits(f) + 0x1FFFFFFEu); /* in (-2, 2^63) */
  r += te_mulhi64(r, -(d * r));
  r += te_mulhi64(r, -(d * r));
  uint64_t q = te_mulhi64(n, r), rem = n - q * d;
  if (rem >= d) rem -= d, q++;
  return q + (rem >= d);
}
static uint64_t te_div64_u64(uint64_t x, uint64_t y) {
  return y == 0 ? 0 : y == 1 ? x : y >> 63 ? x >= y : te_udiv64_core(x, y);
}
static uint64_t te_div64_i64(int64_t x, int64_t y) {
  uint64_t ux = (uint64_t)x, uy = (uint64_t)y, mx = x < 0 ? -ux : ux, my = y < 0 ? -uy : uy;
  uint64_t q = my == 1 ? mx : my ? te_udiv64_core(mx, my) : 0;
  return (x < 0) == (y < 0) ? q : -q;
}
#define IDIV_I64(K, x, y) ((pt_vl_c_##K)te_div64_##K(x, y))
#define IRDIV_I64(K, x, s) ((pt_vl_c_##K)te_div64_##K(s, x))
#define IREM_I64(K, x, y) ((pt_vl_c_##K)((y) ? (uint64_t)(x) - te_div64_##K(x, y) * (uint64_t)(y) : 0))

/* The guards: te_guard_fn returns -1 when every lane of row g is defined, else 2 i + o for
 * the first lane i that is not (o = 1: MIN / -1, o = 0: a zero divisor). IBAD: divisor y is
 * 0, or (OVF, signed K) x is K's minimum and y is -1. Vector-unit division (vdiv, vmod)
 * overflows at every width; the scalar unit's C `/` computes 8- and 16-bit operands in int,
 * where MIN / -1 = 2^(w-1) is defined and wraps to MIN on the store (the NPU compiler's
 * conversion keeps the low bits), so only 32-bit operands overflow there. One OR over the row
 * first: the search runs only on a failing row. */
typedef int64_t (*te_guard_fn)(const te_row *g);
#define IBAD(K, x, y, OVF) PT_TE_IDIV_BAD(K, x, y, OVF)
#define TE_GUARD(op, K, X, Y, OVF)                                                           \
  static int64_t op##_##K(const te_row *g) {                                                 \
    const uint8_t *a = g->a, *b = g->b;                                                      \
    pt_vl_c_##K s = te_s_##K(g);                                                             \
    unsigned bad = 0;                                                                        \
    (void)b, (void)s;                                                                        \
    for (int64_t i = 0, n = g->n; i < n; i++) bad |= IBAD(K, X, Y, OVF);                     \
    for (int64_t i = 0, n = g->n; bad && i < n; i++)                                         \
      if (IBAD(K, X, Y, OVF)) return 2 * i + (IBAD(K, X, Y, OVF) > 1);                       \
    return -1;                                                                               \
  }
#define LD_A(K) te_ld_##K(a, i)
#define LD_B(K) te_ld_##K(b, i)
#define G_VEC2(op, K, F) TE_GUARD(op, K, LD_A(K), LD_B(K), 1)   /* vdiv / vmod x by tile y */
#define G_VECS(op, K, F) TE_GUARD(op, K, LD_A(K), s, 1)         /* vdiv / vmod x by scalar */
#define G_C(op, K, F) TE_GUARD(op, K, LD_A(K), s, PT_VL_E_##K == 4)  /* C x / s */
#define G_CR(op, K, F) TE_GUARD(op, K, s, LD_A(K), PT_VL_E_##K == 4) /* C s / x */
#define INT16_32(M, op, F) M(op, i16, F) M(op, u16, F) M(op, i32, F) M(op, u32, F)
/* The integer kinds of A5 tdiv / tdivs / trem: F on 16 / 32 bits, F##64 (the Int64Div.hpp
 * sequence) on 64. */
#define IDIV_KINDS(M, op, F) INT16_32(M, op, F) M(op, i64, F##64) M(op, u64, F##64)
#define RDIV_KINDS(M, op, F) PT_VL_INTS(M, op, F) M(op, i64, F##64) M(op, u64, F##64)
#define GENTRY(op, K, F) [PT_VL_DT_##K] = op##_##K,
#define GUARDS(op, G, KINDS) \
  KINDS(G, op, _) static const te_guard_fn op##_guards[PTOSIM_DT_COUNT] = {KINDS(GENTRY, op, _)};
GUARDS(gvec2, G_VEC2, INT16_32)
GUARDS(gvecs, G_VECS, INT16_32)
GUARDS(gc, G_C, INT16_32)
GUARDS(gcr, G_CR, PT_VL_INTS)

/* A2/A3 trem / trems on i32 (a2a3 TRem.hpp RemInt32Instr, TRemS.hpp RemSInt32Instr), one lane
 * at a time with each instruction's loads and stores in order: every instruction of those
 * sequences works lane for lane, so a tile that is two operands (dst = src0, src0 = src1)
 * sees the earlier instructions' writes as on the NPU. The sources are converted IN PLACE
 * and end up changed: src0 (trems: src) holds its value rounded to f32 and back to s32
 * (nearest even), trem's src1 the bits of that value as f32. Conversions: s32 -> f32 to
 * nearest even; f32 -> s32 saturating, NaN -> 0 (pt_f32_to_int); vdiv / vmul / vadd in f32;
 * vmul / vmuls / vsub on s32 wrap. The scratch tile is not used (section 14.4). */
static inline float te_ldf(const uint8_t *p) { return te_ld_f32(p, 0); }
static inline int32_t te_ldi(const uint8_t *p) { return te_ld_i32(p, 0); }
static inline void te_stf(uint8_t *p, float v) { memcpy(p, &v, 4); }
static inline void te_sti(uint8_t *p, int32_t v) { te_st_i32(p, 0, v); }
static inline void te_i2f(uint8_t *p) { te_stf(p, (float)te_ldi(p)); }        /* vconv_s322f32 in place */
static inline int32_t te_f2i(float v, pt_round r) { return (int32_t)pt_f32_to_int(v, r, INT32_MIN, INT32_MAX); }
static inline void te_f2i_at(uint8_t *p, pt_round r) { te_sti(p, te_f2i(te_ldf(p), r)); } /* vconv_f322s32{r,z} */
static inline int32_t te_mulw(int32_t x, int32_t y) { return PT_VL_WRAP(i32, x, *, y); }
static inline int32_t te_subw(int32_t x, int32_t y) { return PT_VL_WRAP(i32, x, -, y); }
/* The sign fix on dst_f = r (already stored at d) by divisor y in f32: r + y where r y < 0
 * (vmul, vcmpvs_lt, vadd(s), vsel), then truncated to s32 (vconv_f322s32z). */
static inline void te_rem2_fix(uint8_t *d, float r, float y) {
  if (r * y < 0.0f) te_stf(d, r + y);
  te_f2i_at(d, PT_RND_TRUNC);
}
static void rem2_i32(const te_row *g) {
  for (int64_t i = 0; i < g->n; i++) {
    uint8_t *d = g->d + 4 * i, *a = (uint8_t *)g->a + 4 * i, *b = (uint8_t *)g->b + 4 * i;
    te_i2f(a), te_i2f(b);
    int32_t q = te_f2i(te_ldf(a) / te_ldf(b), PT_RND_FLOOR); /* vdiv, vconv_f322s32f into tmp */
    te_f2i_at(a, PT_RND_RINT), te_f2i_at(b, PT_RND_RINT);
    te_sti(d, te_mulw(q, te_ldi(b)));
    te_sti(d, te_subw(te_ldi(a), te_ldi(d)));
    te_i2f(d), te_i2f(b);
    te_rem2_fix(d, te_ldf(d), te_ldf(b));
  }
}
static void rems2_i32(const te_row *g) {
  int32_t y = te_s_i32(g);
  float yf = (float)y; /* the scalar unit's (float)x */
  for (int64_t i = 0; i < g->n; i++) {
    uint8_t *d = g->d + 4 * i, *a = (uint8_t *)g->a + 4 * i;
    te_i2f(a);
    int32_t q = te_f2i(te_ldf(a) / yf, PT_RND_FLOOR);
    te_f2i_at(a, PT_RND_RINT);
    te_sti(d, te_mulw(q, y));
    te_sti(d, te_subw(te_ldi(a), te_ldi(d)));
    te_i2f(d);
    te_rem2_fix(d, te_ldf(d), yf);
  }
}

/* ---- loops and their tables -------------------------------------------------------------- */

#define INT8_32(M, op, F) PT_VL_INTS(M, op, F)
#define ALLINT(M, op, F) PT_VL_INTS(M, op, F) PT_VL_INTS64(M, op, F)
#define ENTRY(op, K, F) [PT_VL_DT_##K] = op##_##K,

/* LOOPS(name, MAP, group-int, F-int, group-float, F-float) defines the loops and their table. */
#define LOOPS(op, MAP, GI, FI, GF, FF)                                                       \
  GI(MAP, op, FI) GF(MAP, op, FF) static const te_fn op##_loops[PTOSIM_DT_COUNT] = {GI(ENTRY, op, _) GF(ENTRY, op, _)};
#define NONE(M, op, F)
#define FLOATS(M, op, F) PT_VL_FLOATS(M, op, F)
#define F16F32(M, op, F) PT_VL_F16F32(M, op, F)
#define I32ONLY(M, op, F) M(op, i32, F)
#define F32ONLY(M, op, F) M(op, f32, F)
#define SIGNED(M, op, F) PT_VL_SINTS(M, op, F) M(op, i64, F)

LOOPS(add, TE_MAP2V, ALLINT, ADD_I, FLOATS, ADD_F)
LOOPS(sub, TE_MAP2V, ALLINT, SUB_I, FLOATS, SUB_F)
LOOPS(mul, TE_MAP2V, ALLINT, MUL_I, FLOATS, MUL_F)
LOOPS(div, TE_MAP2V, IDIV_KINDS, IDIV_I, F16F32, DIV_F)
LOOPS(max, TE_MAP2, ALLINT, MAX_I, FLOATS, MAX_F)
LOOPS(min, TE_MAP2, ALLINT, MIN_I, FLOATS, MIN_F)
/* Bitwise ops: float types (A5 TAnd / TAndS / TOr / TOrS / TXorS take any 1-, 2- or 4-byte T
 * and work on its lanes as unsigned ones) run the loops of the unsigned kind of their width;
 * te_scalar gives them the scalar's bits. */
#define BITLOOPS(op, MAP, F)                                                                 \
  ALLINT(MAP, op, F)                                                                         \
  static const te_fn op##_loops[PTOSIM_DT_COUNT] = {ALLINT(ENTRY, op, _)[PTOSIM_DT_F16] = op##_u16, \
                                                    [PTOSIM_DT_BF16] = op##_u16, [PTOSIM_DT_F32] = op##_u32};
BITLOOPS(and, TE_MAP2, AND_B)
BITLOOPS(or, TE_MAP2, OR_B)
BITLOOPS(xor, TE_MAP2, XOR_B)
LOOPS(shl, TE_MAP2, ALLINT, SHL_I, NONE, _)
LOOPS(shr, TE_MAP2, ALLINT, SHR_I, NONE, _)
LOOPS(fmod, TE_MAP2, INT16_32, IFMOD_I, F16F32, FMOD_F)
LOOPS(rem, TE_MAP2, IDIV_KINDS, IREM_I, F16F32, REM_F) /* A5 */
static const te_fn rem2_loops[PTOSIM_DT_COUNT] = {[PTOSIM_DT_F32] = rem_f32, [PTOSIM_DT_I32] = rem2_i32};
LOOPS(prelu, TE_MAP2, NONE, _, F16F32, LRELU_F)
LOOPS(addrelu, TE_MAP2, ALLINT, ADDRELU_I, FLOATS, ADDRELU_F)
LOOPS(subrelu, TE_MAP2, ALLINT, SUBRELU_I, FLOATS, SUBRELU_F)
LOOPS(adds, TE_MAPSV, ALLINT, ADD_I, FLOATS, ADD_F)
LOOPS(subs, TE_MAPSV, ALLINT, SUB_I, FLOATS, SUB_F)
LOOPS(muls, TE_MAPSV, ALLINT, MUL_I, FLOATS, MUL_F)
LOOPS(divs, TE_MAPSV, IDIV_KINDS, IDIV_I, F16F32, DIV_F)
LOOPS(rdivs, TE_MAPSV, RDIV_KINDS, IRDIV_I, F16F32, RDIV_F)
LOOPS(maxs, TE_MAPS, ALLINT, MAX_I, FLOATS, MAX_F)
LOOPS(mins, TE_MAPS, ALLINT, MIN_I, FLOATS, MIN_F)
BITLOOPS(ands, TE_MAPS, AND_B)
BITLOOPS(ors, TE_MAPS, OR_B)
BITLOOPS(xors, TE_MAPS, XOR_B)
LOOPS(shls, TE_MAPS, ALLINT, SHL_I, NONE, _)
LOOPS(shrs, TE_MAPS, ALLINT, SHR_I, NONE, _)
LOOPS(pow2, TE_MAP2, INT8_32, POW2_I, F32ONLY, POW2_F)
LOOPS(pow5, TE_MAP2, INT8_32, POW5_I, FLOATS, POW5_F)
LOOPS(powhp, TE_MAP2, NONE, _, FLOATS, POWHP_F)
LOOPS(pows2, TE_MAPS, INT8_32, POW2_I, F32ONLY, POW2_F)
LOOPS(pows5, TE_MAPS, INT8_32, POW5_I, FLOATS, POW5_F)
LOOPS(powshp, TE_MAPS, NONE, _, FLOATS, POWHP_F)
LOOPS(fmods, TE_MAPS, INT16_32, IFMOD_I, F16F32, FMOD_F)
F32ONLY(TE_MAPS, rems, REM_F) /* A2/A3 */
static const te_fn rems_loops[PTOSIM_DT_COUNT] = {[PTOSIM_DT_F32] = rems_f32, [PTOSIM_DT_I32] = rems2_i32};
/* A5 trems: u64 (Int64RemScalar) stores q = x / s into dst first, then a second pass reads
 * x and dst: x - dst s (a dst that is the source reads q there: q - q s); s = 0 zeroes dst. */
INT16_32(TE_MAPS, rems5, IREM_I) TE_MAPS(rems5, i64, IREM_I64) F16F32(TE_MAPS, rems5, REMS5_F)
static void rems5_u64(const te_row *g) {
  uint64_t s = (uint64_t)g->s.i;
  for (int64_t i = 0; i < g->n; i++) te_st_u64(g->d, i, s ? te_div64_u64(te_ld_u64(g->a, i), s) : 0);
  for (int64_t i = 0; i < g->n && s; i++) te_st_u64(g->d, i, te_ld_u64(g->a, i) - te_ld_u64(g->d, i) * s);
}
static const te_fn rems5_loops[PTOSIM_DT_COUNT] = {INT16_32(ENTRY, rems5, _) PT_VL_INTS64(ENTRY, rems5, _)
                                                       F16F32(ENTRY, rems5, _)};
LOOPS(lrelu, TE_MAPS, NONE, _, F16F32, LRELU_F)
LOOPS(addc, TE_MAP3, ALLINT, ADDC_I, FLOATS, ADDC_F)
LOOPS(subc, TE_MAP3, ALLINT, SUBC_I, FLOATS, SUBC_F)
LOOPS(fma, TE_MAP3, NONE, _, F16F32, FMA_F)
LOOPS(fmarelu, TE_MAP3, NONE, _, F16F32, FMARELU_F)
LOOPS(muladddst, TE_MAP3, NONE, _, F16F32, MULADDDST_F)
LOOPS(addsc, TE_MAP2S, ALLINT, ADDSC_I, FLOATS, ADDSC_F)
LOOPS(subsc, TE_MAP2S, ALLINT, SUBSC_I, FLOATS, SUBSC_F)
LOOPS(axpy, TE_MAP2S, NONE, _, F16F32, AXPY_F)
LOOPS(axpy2, TE_MAP2S, NONE, _, F16F32, AXPY2_F)
/* taxpy of an f16 source into an f32 dst (a2a3 / a5 TAxpy.hpp allow exactly that mix; a5
 * AxpyInstrDiff converts the source to f32, then vaxpy with the scalar as f32; a2a3's vaxpy
 * reads the halves into the f32 dst): the product of two f16 values is exact in f32, so
 * d + x s rounds once, on both targets. The scalar is an f16 (TileDataSrc::DType). */
static void axpymix_f32(const te_row *g) {
  for (int64_t i = 0; i < g->n; i++) te_st_f32(g->d, i, te_ld_f32(g->b, i) + te_ld_f16(g->a, i) * g->s.f);
}
static const te_fn axpymix_loops[PTOSIM_DT_COUNT] = {[PTOSIM_DT_F32] = axpymix_f32};
/* tabs: integers |x| (wrapping); floats vabs, which clears the sign bit and keeps a NaN's payload
 * (docs/spec-notes.md section 10): the loops of the unsigned kind of the same width. */
#define CLEARSIGN_B(K, x) ((pt_vl_c_##K)((x) & ((pt_vl_u_##K)-1 >> 1)))
#define U16U32(M, op, F) M(op, u16, F) M(op, u32, F)
SIGNED(TE_MAP1, iabs, ABS_I) U16U32(TE_MAP1, clearsign, CLEARSIGN_B)
static const te_fn abs_loops[PTOSIM_DT_COUNT] = {SIGNED(ENTRY, iabs, _)[PTOSIM_DT_F16] = clearsign_u16,
                                                 [PTOSIM_DT_F32] = clearsign_u32};
LOOPS(neg, TE_MAP1, ALLINT, NEG_I, FLOATS, NEG_F)
LOOPS(not, TE_MAP1, ALLINT, NOT_B, NONE, _)
/* texp: pt_te_exp_f32 (the fast exp of vec_formulas.h, 16 lanes a step), and pt_exp_f32
 * for the lanes it does not prove (NaN results stored as 0x7FC00000, as te_st_f32 does):
 * e^x correctly rounded per element (checked on all 2^32 inputs). f16 rows go through f32. */
static void exp_f32(const te_row *g) { pt_te_exp_f32(g->a, g->n, g->d); }
TE_VIA_F32_ROW(exp, f16, exp_f32)
static const te_fn exp_loops[PTOSIM_DT_COUNT] = {[PTOSIM_DT_F32] = exp_f32, [PTOSIM_DT_F16] = exp_f16};
LOOPS(log, TE_MAP1, NONE, _, F16F32, LN_F)

/* HIGH_PRECISION texp and tlog on a5 (a5 TUnaryOp.hpp ExpOp / LogOp; docs/spec-notes.md section 32).
 * TE_MAXSUB_K: the largest subnormal of kind K (f32 0x007FFFFF, f16 0x03FF) as a float. */
#define TE_MAXSUB_f32 0x1.fffffcp-127f
#define TE_MAXSUB_f16 0x1.ff8p-15f
/* tlog (custom/TLog_Custom.hpp LogPrecisionImpl): where x < TE_MAXSUB_K (zero, negatives and
 * -inf too), ln(x * 2^23) - 15.94238515... (f16: ln(x * 2^10) - 6.93147180...), each step
 * rounded to K, the constant rounded to K; elsewhere ln x. */
#define TE_LOGSCALE_f32 0x1p23f
#define TE_LOGSCALE_f16 0x1p10f
#define TE_LOGCOMP_f32 ((float)-15.9423851528787421)
#define TE_LOGCOMP_f16 (te_rnd_f16((float)-6.931471805599453094172))
#define LNHP_F(K, x) \
  ((x) < TE_MAXSUB_##K ? RND(K, RND(K, LN_F(K, RND(K, (x) * TE_LOGSCALE_##K))) + TE_LOGCOMP_##K) : LN_F(K, x))
LOOPS(loghp, TE_MAP1, NONE, _, F16F32, LNHP_F)

/* texp (custom/TExp_Custom.hpp ExpPrecisionImpl): y = e^x rounded to K; where y <=
 * TE_MAXSUB_K (+0 too), h = x / 2, then e^h * e^h, each step rounded to K. exphp_K_row
 * runs the fast rows of pt_te_exp_f32 on a copy of the sources (d may be a), then fixes
 * those lanes. f16 rows go through f32 (te_f16_chunks): y there is rounded to f16 at the
 * store, the fixed lanes are already f16 values. */
#define EXPHP(K)                                                                             \
  static inline float te_exphp_##K(float x) {                                                \
    float e = RND(K, EXP_F(K, RND(K, x / 2.0f)));                                            \
    return RND(K, e * e);                                                                    \
  }                                                                                          \
  static void exphp_##K##_row(const te_row *g) {                                            \
    float x[TE_CHUNK];                                                                       \
    for (int64_t j = 0; j < g->n; j += TE_CHUNK) {                                           \
      int64_t m = g->n - j < TE_CHUNK ? g->n - j : TE_CHUNK;                                 \
      uint8_t *d = g->d + 4 * j;                                                             \
      memcpy(x, g->a + 4 * j, (size_t)m * 4);                                                \
      pt_te_exp_f32((const uint8_t *)x, m, d);                                               \
      for (int64_t i = 0; i < m; i++)                                                        \
        if (RND(K, te_ld_f32(d, i)) <= TE_MAXSUB_##K) te_st_f32(d, i, te_exphp_##K(x[i]));   \
    }                                                                                        \
  }
EXPHP(f32)
EXPHP(f16)
TE_VIA_F32_ROW(exphp, f16, exphp_f16_row)
static const te_fn exphp_loops[PTOSIM_DT_COUNT] = {[PTOSIM_DT_F32] = exphp_f32_row, [PTOSIM_DT_F16] = exphp_f16};


/* HIGH_PRECISION division on a5 (custom/Div754.hpp; docs/spec-notes.md section 33). The formats of
 * DivIEEE754FloatImpl / DivIEEE754HalfImpl: mantissa bits m, bias, largest exponent field,
 * the scale `under` at which the result is 0 or the smallest subnormal (Div754.hpp:300, 507),
 * and which dividends are scaled by 2^m: f32 only the largest subnormal (vcmp_eq, 235), f16
 * every subnormal (vcmp_lt, 446; divisors: vcmp_lt in both, 242, 453). */
typedef struct te_fp {
  int m, bias, emax, under;
  bool src0_eq;
} te_fp;
static const te_fp te_fp_f32 = {23, 127, 255, -23, true}, te_fp_f16 = {10, 15, 31, -9, false};

static uint32_t te_fp_bits(const te_fp *f, float x) { return f->m == 23 ? pt_vl_f32_bits(x) : pt_vl_to_f16(x); }
static float te_fp_val(const te_fp *f, uint32_t u) { return f->m == 23 ? pt_vl_f32_of(u) : pt_vl_f16_to_f32((uint16_t)u); }
static float te_fp_rnd(const te_fp *f, double v) { return f->m == 23 ? (float)v : te_rnd_f16((float)v); }

/* DivIEEE754*Impl on one lane (a, b values of the type): the operands' mantissas with the
 * exponent field set to the bias (after the scaling above, adj = -m for a scaled dividend,
 * +m for a scaled divisor; an unscaled subnormal, exponent field 0, reads as 1.f 2^-bias), their
 * quotient q rounded to the type (DivPrecisionImpl on f32, which keeps the correctly rounded
 * vdiv on such operands: scripts/exhaustive_hp.c), then, with scale = exponent field of a -
 * that of b + bias: below `under` 0, at `under` 0 where the normalised |a| <= |b| else the
 * smallest subnormal, above emax infinity, all signed as q; else q * 2^(adj + scale - bias)
 * rounded once (exact product in double). A zero or infinite operand: a / b; a NaN: NaN. */
__attribute__((noinline)) static float te_div754(const te_fp *f, float a, float b) {
  if (a != a || b != b) return NAN;
  uint32_t sign = f->m == 23 ? 0x80000000u : 0x8000u, mant = (1u << f->m) - 1, exps = (sign - 1) & ~mant;
  uint32_t ua = te_fp_bits(f, a), ub = te_fp_bits(f, b), aa = ua & ~sign, ab = ub & ~sign;
  if (!aa || !ab || aa == exps || ab == exps) return te_fp_rnd(f, a / b);
  int adj = 0;
  if (f->src0_eq ? aa == mant : aa < mant) ua = te_fp_bits(f, a * (float)(1u << f->m)), adj -= f->m;
  if (ab < mant) ub = te_fp_bits(f, b * (float)(1u << f->m)), adj += f->m;
  uint32_t one = (uint32_t)f->bias << f->m;
  float na = te_fp_val(f, (ua & (sign | mant)) | one), nb = te_fp_val(f, (ub & (sign | mant)) | one);
  float q = te_fp_rnd(f, na / nb);
  int scale = (int)((ua & exps) >> f->m) - (int)((ub & exps) >> f->m) + f->bias;
  if (scale < f->under) return copysignf(0.0f, q);
  if (scale == f->under) return copysignf(fabsf(na) <= fabsf(nb) ? 0.0f : ldexpf(1.0f, 1 - f->bias - f->m), q);
  if (scale > f->emax) return copysignf(INFINITY, q);
  return te_fp_rnd(f, ldexp((double)q, adj + scale - f->bias));
}

/* Where both operands and a / b are normal (or a / b overflows) the sequence gives a / b
 * (the exponents only scale the rounded mantissa quotient); the model runs elsewhere. */
#define TE_DIV754(K, MINNORM)                                                                \
  static inline float te_div754q_##K(float a, float b) {                                     \
    float z = RND(K, a / b);                                                                 \
    bool fast = fabsf(a) >= MINNORM && fabsf(a) < INFINITY && fabsf(b) >= MINNORM && fabsf(b) < INFINITY && fabsf(z) >= MINNORM; \
    return fast ? z : te_div754(&te_fp_##K, a, b);                                            \
  }                                                                                          \
  float pt_te_div754_##K(float a, float b) { return te_div754q_##K(a, b); }
TE_DIV754(f32, 0x1p-126f)
TE_DIV754(f16, 0x1p-14f)

/* tdiv f32 (DivDiffCompensationFloatImpl, Div754.hpp:16-98): z = a / b; where z is zero,
 * infinite or NaN, z; else with a dividend below 2^-64 both operands scaled by 2^(-64 - e)
 * (e its unbiased exponent field, -127 for subnormals; the divisor may overflow), of z,
 * z - 1 ulp, z + 1 ulp (the bits +-1) the one with the smallest |a - z b| (fused, one
 * rounding), ties to z - 1 ulp then to the earlier. z above 2^-126 with an unscaled dividend
 * stays z: a / b is no midpoint there (scripts/exhaustive_hp.c checks that shortcut against
 * the sequence); 2^-126 itself may be a rounded-up midpoint (a / b = 2^-126 - 2^-150), which
 * the sequence takes down. */
__attribute__((noinline)) static float te_divcomp(float a, float b, float z, int e) {
  float s = e < -64 ? pt_vl_f32_of((uint32_t)(-64 - e + 127) << 23) : 1.0f, as = a * s, y = -(b * s);
  uint32_t u = pt_vl_f32_bits(z);
  float zp = pt_vl_f32_of(u - 1), zn = pt_vl_f32_of(u + 1);
  float r = fabsf(fmaf(z, y, as)), rp = fabsf(fmaf(zp, y, as)), rn = fabsf(fmaf(zn, y, as));
  if (!(r < rp)) r = rp, z = zp;
  return rn < r ? zn : z;
}
static inline float te_divcompq(float a, float b) {
  float z = a / b;
  int e = (int)(pt_vl_f32_bits(a) >> 23 & 0xFFu) - 127;
  return z == 0.0f || !(fabsf(z) < INFINITY) || (e >= -64 && fabsf(z) > 0x1p-126f) ? z : te_divcomp(a, b, z, e);
}
float pt_te_divcomp_f32(float a, float b) { return te_divcompq(a, b); }

/* tdiv HIGH_PRECISION (a5 TDiv.hpp DivOp): f32 the compensated quotient, f16 DivIEEE754HalfImpl;
 * tdivs (TDivS.hpp DivSOp / DivSOpS): DivIEEE754*Impl of the tile by the scalar or the scalar
 * by the tile. */
#define te_divhp_f32 te_divcompq
#define te_divhp_f16 te_div754q_f16
#define DIVHP_F(K, x, y) te_divhp_##K(x, y)
#define DIV754_F(K, x, y) te_div754q_##K(x, y)
#define RDIV754_F(K, x, y) te_div754q_##K(y, x)
/* Integer types take the DEFAULT loops (the NPU code's HIGH_PRECISION branches are float only). */
F16F32(TE_MAP2, divhp, DIVHP_F) F16F32(TE_MAPS, divshp, DIV754_F) F16F32(TE_MAPS, rdivshp, RDIV754_F)
static const te_fn divhp_loops[PTOSIM_DT_COUNT] = {IDIV_KINDS(ENTRY, div, _) F16F32(ENTRY, divhp, _)};
static const te_fn divshp_loops[PTOSIM_DT_COUNT] = {IDIV_KINDS(ENTRY, divs, _) F16F32(ENTRY, divshp, _)};
static const te_fn rdivshp_loops[PTOSIM_DT_COUNT] = {RDIV_KINDS(ENTRY, rdivs, _) F16F32(ENTRY, rdivshp, _)};
/* trecip HIGH_PRECISION (pto_instr.hpp TRECIP = TDIVS(1, x)): DivIEEE754*Impl of 1 by x. It
 * differs from 1 / x where 1 / x is subnormal, |x| >= 2^126 (f16: 2^14), rounded twice there
 * (scripts/exhaustive_hp.c compares it with the sequence on every f32 and f16). */
#define RECHP_F(K, x) te_div754q_##K(1.0f, x)
LOOPS(rechp, TE_MAP1, NONE, _, F16F32, RECHP_F)

/* tfmod / trem HIGH_PRECISION on f32 (a5 TFMod.hpp FModOp, TRem.hpp RemOp -> custom/TFmodRemHp.hpp
 * TFmodRemHP; f16 computes as DEFAULT there): a long division of |a| by |b| in 24-bit chunks
 * (|b| 2^240 down to |b|, one fused multiply-subtract each, the sign of a put back, the special
 * cases after), which yields the exact remainder: fmodf(a, b) (the step by step sequence of
 * scripts/exhaustive_hp.c equals it on every pair tried). trem then adds b where b r < 0. */
float pt_te_fmodhp_f32(float a, float b) { return fmodf(a, b); }
float pt_te_remhp_f32(float a, float b) { return te_remfix_f32(fmodf(a, b), b); }
#define FMODHP_F(K, x, y) pt_te_fmodhp_f32(x, y)
#define REMHP_F(K, x, y) pt_te_remhp_f32(x, y)
F32ONLY(TE_MAP2, fmodhp, FMODHP_F) F32ONLY(TE_MAP2, remhp, REMHP_F)
static const te_fn fmodhp_loops[PTOSIM_DT_COUNT] = {INT16_32(ENTRY, fmod, _)[PTOSIM_DT_F16] = fmod_f16, [PTOSIM_DT_F32] = fmodhp_f32};
static const te_fn remhp_loops[PTOSIM_DT_COUNT] = {IDIV_KINDS(ENTRY, rem, _)[PTOSIM_DT_F16] = rem_f16, [PTOSIM_DT_F32] = remhp_f32};
LOOPS(sqrt, TE_MAP1, NONE, _, F16F32, SQRT_F)
LOOPS(rsqrt, TE_MAP1, NONE, _, F16F32, RSQRT_F)
LOOPS(recip, TE_MAP1, NONE, _, F16F32, REC_F)
LOOPS(relu, TE_MAP1, I32ONLY, RELU_I, FLOATS, RELU_F)
LOOPS(dup, TE_DUP, ALLINT, _, FLOATS, _)

/* ---- op descriptors ---------------------------------------------------------------------- */

/* Which operands an op reads: tile sources in src0..src2 order, then the scalar. */
typedef enum te_shape {
  TE_UN,    /* d = F(a) */
  TE_BIN,   /* d = F(a, b) */
  TE_TER,   /* d = F(a, b, c) */
  TE_SCA,   /* d = F(a, s) */
  TE_SCT,   /* d = F(a, b, s) (taddsc, tsubsc) */
  TE_AXPY,  /* d = F(a, d, s) */
  TE_DUP,   /* d = s */
  TE_BIND,  /* d = F(a, b, d): fused forms that read the destination */
} te_shape;

typedef struct te_op {
  const char *name;   /* spelling without "pto." (rule ids, messages) */
  te_shape shape;
  bool tmp;           /* the op takes a scratch tile */
  const te_fn *loops; /* by element type */
  uint32_t types[2];  /* legal element types: [0] A2/A3, [1] A5 (bits TE_BIT) */
} te_op;

/* Element type sets from the static_asserts of pto-isa include/pto/npu/{a2a3,a5}/T<Op>.hpp. */
#define B(t) TE_BIT(PTOSIM_DT_##t)
#define T_F16F32 (B(F16) | B(F32))
#define T_FLT (T_F16F32 | B(BF16))
#define T_I8_32 (B(I8) | B(U8) | B(I16) | B(U16) | B(I32) | B(U32))
#define T_I64 (B(I64) | B(U64))
#define T_A2_ARITH (T_F16F32 | B(I16) | B(I32))                 /* TAdd TSub TMul TMax TMin and *S (a2a3) */
#define T_A5_ADD (T_FLT | T_I8_32 | T_I64)                     /* TAdd TSub TMax TMin TAddS TSubS TMinS (a5) */
#define T_A5_MUL (T_FLT | B(I16) | B(U16) | B(I32) | B(U32) | T_I64) /* TMul TMulS (a5) */
#define T_SHIFT (T_I8_32)                                       /* TShl TShr (a2a3); a5 adds 64-bit */
/* Integer division (section 14.8): the 16 / 32-bit types of the NPU static_asserts; A5 adds
 * 64-bit to tdiv / tdivs / trem / trems (Int64Div.hpp). */
#define T_I16_32 (B(I16) | B(U16) | B(I32) | B(U32))

#define OP(id, shp, t, lp, a2, a5) [PTOSIM_OP_##id] = {#id, shp, t, lp##_loops, {a2, a5}},
static const te_op k_ops[PTOSIM_OP_COUNT] = {
    OP(tadd, TE_BIN, 0, add, T_A2_ARITH, T_A5_ADD)
    OP(tsub, TE_BIN, 0, sub, T_A2_ARITH, T_A5_ADD)
    OP(tmul, TE_BIN, 0, mul, T_A2_ARITH, T_A5_MUL)
    OP(tdiv, TE_BIN, 0, div, T_F16F32, T_F16F32 | T_I16_32 | T_I64)
    OP(tmax, TE_BIN, 0, max, T_A2_ARITH, T_A5_ADD)
    OP(tmin, TE_BIN, 0, min, T_A2_ARITH, T_A5_ADD)
    OP(tand, TE_BIN, 0, and, T_I8_32, T_I8_32 | T_FLT)
    OP(tor, TE_BIN, 0, or, T_I8_32, T_I8_32 | T_FLT)
    OP(txor, TE_BIN, 1, xor, T_I8_32, T_I8_32)
    OP(tshl, TE_BIN, 0, shl, T_SHIFT, T_SHIFT | T_I64)
    OP(tshr, TE_BIN, 0, shr, T_SHIFT, T_SHIFT | T_I64)
    OP(tfmod, TE_BIN, 0, fmod, B(F32), T_F16F32 | T_I16_32)
    OP(trem, TE_BIN, 1, rem, B(F32) | B(I32), T_F16F32 | T_I16_32 | T_I64)
    OP(tprelu, TE_BIN, 1, prelu, T_F16F32, T_F16F32)
    OP(taddrelu, TE_BIN, 0, addrelu, T_F16F32 | B(I16) | B(I32), T_F16F32 | B(I16) | B(I32))
    OP(tsubrelu, TE_BIN, 0, subrelu, T_F16F32, T_F16F32) /* a2a3 / a5 TSubRelu.hpp: f16 / f32 */
    OP(taddc, TE_TER, 0, addc, T_A2_ARITH, T_A5_ADD)
    OP(tsubc, TE_TER, 0, subc, T_A2_ARITH, T_A5_ADD)
    OP(tfusedmuladd, TE_BIND, 0, fma, T_F16F32, T_F16F32)
    OP(tfusedmuladdrelu, TE_BIND, 0, fmarelu, T_F16F32, T_F16F32)
    OP(tmuladddst, TE_BIND, 0, muladddst, T_F16F32, T_F16F32)
    OP(tadds, TE_SCA, 0, adds, T_A2_ARITH, T_A5_ADD)
    OP(tsubs, TE_SCA, 0, subs, T_A2_ARITH, T_A5_ADD)
    OP(tmuls, TE_SCA, 0, muls, T_A2_ARITH, T_A5_MUL)
    OP(tdivs, TE_SCA, 0, divs, T_F16F32 | B(I16) | B(I32), T_F16F32 | T_I8_32 | T_I64) /* i8 / u8: scalar first only */
    OP(tmaxs, TE_SCA, 0, maxs, T_A2_ARITH, T_A5_ADD)
    OP(tmins, TE_SCA, 0, mins, T_A2_ARITH, T_A5_ADD)
    OP(tands, TE_SCA, 0, ands, T_I8_32, T_I8_32 | T_FLT)
    OP(tors, TE_SCA, 0, ors, T_I8_32, T_I8_32 | T_FLT)
    OP(txors, TE_SCA, 1, xors, T_I8_32, T_I8_32 | T_FLT)
    OP(tshls, TE_SCA, 0, shls, T_I16_32, T_SHIFT | T_I64) /* a2a3 TBitwiseSOp.hpp TShiftCheck: 16 / 32-bit */
    OP(tshrs, TE_SCA, 0, shrs, T_I16_32, T_SHIFT | T_I64)
    OP(tfmods, TE_SCA, 0, fmods, B(F32), T_F16F32 | T_I16_32)
    OP(trems, TE_SCA, 1, rems, B(F32) | B(I32), T_F16F32 | T_I16_32 | T_I64)
    OP(tlrelu, TE_SCA, 0, lrelu, T_F16F32, T_F16F32)
    OP(taddsc, TE_SCT, 0, addsc, T_A2_ARITH, T_A5_ADD)
    OP(tsubsc, TE_SCT, 0, subsc, T_A2_ARITH, T_A5_ADD)
    OP(taxpy, TE_AXPY, 0, axpy, T_F16F32, T_F16F32)
    OP(tabs, TE_UN, 0, abs, T_F16F32, T_F16F32 | B(I8) | B(I16) | B(I32))
    OP(tneg, TE_UN, 0, neg, T_A2_ARITH, T_A5_MUL) /* TMULS(x, -1) on both: TMulS's types */
    OP(tnot, TE_UN, 0, not, T_I8_32, T_I8_32)
    OP(texp, TE_UN, 0, exp, T_F16F32, T_F16F32)
    OP(tlog, TE_UN, 0, log, T_F16F32, T_F16F32)
    OP(tsqrt, TE_UN, 0, sqrt, T_F16F32, T_F16F32)
    OP(trsqrt, TE_UN, 0, rsqrt, T_F16F32, T_F16F32)
    OP(trecip, TE_UN, 0, recip, T_F16F32, T_F16F32)
    OP(trelu, TE_UN, 0, relu, T_F16F32 | B(I32), T_F16F32 | B(I32))
    OP(texpands, TE_DUP, 0, dup, T_FLT | T_I8_32, T_FLT | T_I8_32 | T_I64)
    OP(tpow, TE_BIN, 0, pow5, T_I8_32 | B(F32), T_I8_32 | T_FLT)
    OP(tpows, TE_SCA, 0, pows5, T_I8_32 | B(F32), T_I8_32 | T_FLT)
};
#undef OP

/* ---- the scalar operand ------------------------------------------------------------------ */

te_scalar pt_te_scalar_of(ptosim_scalar s, ptosim_dtype t) {
  te_scalar v;
  unsigned sz = pt_dtype_size(s.dtype);
  double d;
  if (pt_dtype_is_float(s.dtype)) {
    uint8_t b[8];
    memcpy(b, &s.bits, sizeof b); /* little-endian host: the low bytes hold the element */
    d = pt_load_as_f32(s.dtype, b);
  } else {
    int64_t i = sz ? pt_load_int(s.dtype, &s.bits) : (int64_t)s.bits;
    d = (double)i;
    if (!pt_dtype_is_float(t)) {
      v.i = i;
      return v;
    }
  }
  if (!pt_dtype_is_float(t)) {
    v.i = isnan(d) ? 0 : d >= 0x1p63 ? INT64_MAX : d < -0x1p63 ? INT64_MIN : (int64_t)d;
    return v;
  }
  float f = (float)d;
  v.f = isnan(f) ? f : t == PTOSIM_DT_F16 ? pt_vl_f16_to_f32(pt_vl_to_f16(f)) : t == PTOSIM_DT_BF16 ? pt_vl_bf16_to_f32(pt_vl_to_bf16(f)) : f;
  return v;
}

/* ---- the executor ------------------------------------------------------------------------ */

/* The scalar of the op on element type t (pt_te_scalar_of); a bitwise op on a float type
 * (BITLOOPS) takes the bits of its value as a t. */
static te_scalar te_scalar_for(const pt_ctx *x, ptosim_scalar v, ptosim_dtype t) {
  te_scalar s = pt_te_scalar_of(v, t);
  bool bits = pt_dtype_is_float(t) && (x->op == PTOSIM_OP_tands || x->op == PTOSIM_OP_tors || x->op == PTOSIM_OP_txors);
  if (bits) s.i = t == PTOSIM_DT_F32 ? pt_vl_f32_bits(s.f) : t == PTOSIM_DT_F16 ? pt_vl_to_f16(s.f) : pt_vl_to_bf16(s.f);
  return s;
}

/* Tile sources of a shape, in order (the fused forms read the destination as their third). */
static int te_nsrc(te_shape s) {
  static const int n[] = {[TE_UN] = 1, [TE_BIN] = 2, [TE_TER] = 3, [TE_SCA] = 1, [TE_SCT] = 2, [TE_AXPY] = 1,
                          [TE_DUP] = 0, [TE_BIND] = 2};
  return n[s];
}

/* The loops of the op's variant: tdivs with the scalar first, tpow / tpows / texp / tlog /
 * trecip / tdiv / tdivs / tfmod / trem per target and precision (a2a3 TPOW_IMPL, TEXP_IMPL,
 * TLOG_IMPL, TDIVS_IMPL, TDIV_IMPL, TFMOD_IMPL, TREM_IMPL take the algorithm parameter and do
 * not use it; tsqrt / trsqrt HIGH_PRECISION compute as DEFAULT). */
/* taxpy with an f16 source and an f32 dst (axpymix_f32). */
static bool te_axpy_mix(const pt_ctx *x, const ptosim_telem_params *p) {
  return x->op == PTOSIM_OP_taxpy && p->dst.dtype == PTOSIM_DT_F32 && p->src0.dtype == PTOSIM_DT_F16;
}

static const te_fn *te_loops(const pt_ctx *x, const te_op *o, const ptosim_telem_params *p) {
  bool a2 = x->m->target != PTOSIM_TARGET_A5;
  switch (x->op) {
    case PTOSIM_OP_tdiv: return !a2 && p->high_precision ? divhp_loops : o->loops; /* a2a3: DEFAULT */
    case PTOSIM_OP_tfmod: return !a2 && p->high_precision ? fmodhp_loops : o->loops;
    case PTOSIM_OP_trem: return a2 ? rem2_loops : p->high_precision ? remhp_loops : o->loops;
    case PTOSIM_OP_trems: return a2 ? o->loops : rems5_loops;
    case PTOSIM_OP_taxpy: return te_axpy_mix(x, p) ? axpymix_loops : a2 ? axpy2_loops : o->loops;
    case PTOSIM_OP_tdivs:
      if (!a2 && p->high_precision) return p->scalar_first ? rdivshp_loops : divshp_loops;
      return p->scalar_first ? rdivs_loops : o->loops;
    case PTOSIM_OP_tpow: return a2 ? pow2_loops : p->high_precision ? powhp_loops : o->loops; /* a2a3 ignores the algorithm */
    case PTOSIM_OP_tpows: return a2 ? pows2_loops : p->high_precision ? powshp_loops : o->loops;
    case PTOSIM_OP_texp: return !a2 && p->high_precision ? exphp_loops : o->loops; /* a2a3: DEFAULT */
    case PTOSIM_OP_tlog: return !a2 && p->high_precision ? loghp_loops : o->loops;
    case PTOSIM_OP_trecip: return !a2 && p->high_precision ? rechp_loops : o->loops;
    default: return o->loops;
  }
}

/* The guard of an integer division op (NULL: every lane is defined): vector-unit division on
 * A5 (tdiv, tfmod, trem and their scalar forms), C division for tdivs; A2/A3's trem / trems
 * go through f32, where every lane is defined. */
static const te_guard_fn *te_guards(const pt_ctx *x, const ptosim_telem_params *p) {
  bool a2 = x->m->target != PTOSIM_TARGET_A5;
  switch (x->op) {
    case PTOSIM_OP_tdiv: case PTOSIM_OP_tfmod: return gvec2_guards;
    case PTOSIM_OP_trem: return a2 ? NULL : gvec2_guards;
    case PTOSIM_OP_tfmods: return gvecs_guards;
    case PTOSIM_OP_trems: return a2 ? NULL : gvecs_guards;
    case PTOSIM_OP_tdivs: return p->scalar_first ? gcr_guards : gc_guards;
    default: return NULL;
  }
}

/* Run guard fn over the rows of g's operands (as the executor's row loop sets them); fail at
 * the first undefined lane. */
static ptosim_status te_guard_rows(pt_ctx *x, const te_op *o, ptosim_dtype t, te_guard_fn fn, te_row g, int64_t vr,
                                   const uint8_t *const sp[3], const int64_t sstride[3]) {
  for (int64_t r = 0; r < vr; r++) {
    g.a = sp[0] + r * sstride[0];
    g.b = sp[1] ? sp[1] + r * sstride[1] : NULL;
    int64_t k = fn(&g);
    if (k >= 0) return pt_te_idiv_undefined(x, o->name, t, r, k);
  }
  return PTOSIM_OK;
}

ptosim_status pt_te_idiv_undefined(pt_ctx *x, const char *name, ptosim_dtype t, int64_t r, int64_t k) {
  if (k & 1)
    return pt_fail(x, PTOSIM_E_FAULT, PT_TILE_RULE(name, "overflow"),
                   "the NPU's signed integer division of the minimum by -1 is undefined",
                   "the minimum of %s divided by -1 at row %" PRId64 ", col %" PRId64, pt_dtype_name(t), r, k >> 1);
  return pt_fail(x, PTOSIM_E_FAULT, PT_TILE_RULE(name, "zero"), "the NPU's integer division by zero is undefined",
                 "integer division by zero at row %" PRId64 ", col %" PRId64, r, k >> 1);
}

static ptosim_status te_check(pt_ctx *x, const te_op *o, const te_fn *loops, const ptosim_telem_params *p,
                              const ptosim_tile *const *src, int ns) {
  static const char *const names[] = {"src0", "src1", "src2"};
  PT_TRY(pt_te_tile(x, o->name, "dst", &p->dst));
  for (int i = 0; i < ns; i++) PT_TRY(pt_te_tile(x, o->name, names[i], src[i]));
  if ((o->tmp && !p->no_tmp) || p->has_tmp) PT_TRY(pt_te_tile(x, o->name, "tmp", &p->tmp));
  uint32_t have = 0; /* element types with a loop (HIGH_PRECISION tpow: floats only) */
  for (unsigned t = 0; t < PTOSIM_DT_COUNT; t++) have |= loops[t] ? TE_BIT(t) : 0u;
  const uint32_t legal[2] = {o->types[0] & have, o->types[1] & have};
  PT_TRY(pt_te_dtype(x, o->name, "dst", p->dst.dtype, legal));
  for (int i = 0; i < ns; i++) {
    PT_VERIFY(x, src[i]->dtype == p->dst.dtype || te_axpy_mix(x, p), PT_TILE_RULE(o->name, "dtype"), "give every operand dst's element type",
              "%s element type %s differs from dst's %s", names[i], pt_dtype_name(src[i]->dtype),
              pt_dtype_name(p->dst.dtype));
    PT_TRY(pt_te_valid(x, o->name, names[i], src[i], &p->dst));
  }
  /* The 64-bit division paths (a5 Int64Div.hpp) load one register pair per row, 64 lanes
   * (plt_b32(cols)): the columns from 64 on would never be written. */
  bool div64 = pt_dtype_size(p->dst.dtype) == 8 && (x->op == PTOSIM_OP_tdiv || x->op == PTOSIM_OP_tdivs ||
                                                     x->op == PTOSIM_OP_trem || x->op == PTOSIM_OP_trems);
  return div64 ? pt_tile_cols64(x, o->name, "dst", p->dst.dtype, p->dst.valid_cols) : PTOSIM_OK;
}

/* Whether the op runs on pairs of elements: A2/A3's tand / tor / txor / tnot, their scalar
 * forms and texpands on 8-bit types issue 16-bit instructions on ceil(valid_cols / 2) lanes a
 * row (a2a3 TAnd.hpp, TOr.hpp, TUnaryOp.hpp TNOT_IMPL, TExpandS.hpp: B82B16Trait, the 8-bit
 * scalar in both bytes of a lane; TXor / TAnds / TOrs / TXors are built from those): an odd valid column
 * count also computes the byte after the last valid one of every row, from the sources' bytes
 * there. ptosim does so where that byte lies inside every operand's rows (always, but for
 * one-line tiles of an odd width, whose next byte the NPU would write outside the tile). */
static bool te_pairs(const pt_ctx *x, const ptosim_telem_params *p, const ptosim_tile *const *src, int ns) {
  int vc = p->dst.valid_cols;
  bool room = vc % 2 && vc < p->dst.cols; /* odd, and the byte inside the rows (a one-line tile may end there) */
  for (int i = 0; i < ns; i++) room = room && vc < src[i]->cols;
  if (!room || x->m->target == PTOSIM_TARGET_A5 || pt_dtype_size(p->dst.dtype) != 1) return false;
  switch (x->op) {
    case PTOSIM_OP_tand: case PTOSIM_OP_tor: case PTOSIM_OP_txor: case PTOSIM_OP_tnot:
    case PTOSIM_OP_tands: case PTOSIM_OP_tors: case PTOSIM_OP_txors: case PTOSIM_OP_texpands: return true;
    default: return false;
  }
}

/* texpands into a mat (L1) tile (a5 / a2a3 TExpandS.hpp TExpandsTile / TExpandsMatTile): the
 * cube's create_cbuf_matrix (MTE2) fills the tile's whole storage, rows * cols elements
 * whatever its layout and valid shape, with the scalar converted to the element type (1-, 2-
 * or 4-byte types: TExpandSInstrMat). */
static ptosim_status te_expands_mat(pt_ctx *x, const te_op *o, const ptosim_telem_params *p) {
  const ptosim_tile *d = &p->dst;
  pt_tile_info i;
  PT_VERIFY(x, x->core->kind == PTOSIM_AIC, "texpands.unit", "a mat tile is filled by the cube core (MTE2)",
            "texpands of a mat tile issued on a vector core");
  PT_TRY(pt_tile_check(x, PT_TILE_MATRIX, "dst", d, &i));
  const uint32_t legal[2] = {o->types[0] & ~T_I64, o->types[1] & ~T_I64};
  PT_TRY(pt_te_dtype(x, o->name, "dst", d->dtype, legal));
  pt_set_pipe(x, PTOSIM_PIPE_MTE2);
  uint64_t n = (uint64_t)d->rows * (uint64_t)d->cols; /* tile_check bounds rows and cols */
  uint8_t *h, v[8];
  PT_TRY(pt_span(x, PTOSIM_L1, d->addr, n * i.es, 32, PT_WRITE, &h));
  te_row g = {.d = v, .n = 1, .s = pt_te_scalar_of(p->scalar, d->dtype)};
  o->loops[d->dtype](&g); /* the value's bytes, converted as for a vec tile */
  for (uint64_t k = 0; k < n; k++) memcpy(h + k * i.es, v, i.es);
  pt_record_work(x, n, d->dtype);
  return PTOSIM_OK;
}

/* texpands of a col-major (DN) vec tile (a5 TExpandS.hpp "switch row and col for colmajor": the
 * row-major fill of a cols x rows tile; a2a3 TExpandS.hpp: one fill of valid_rows elements per
 * valid column): the fill of *t's transposed view, an ND tile whose rows are t's columns. 64-bit
 * types are row-major only there (a5 static_assert "TEXPANDS B64 currently requires row-major"). */
static ptosim_status te_expands_dn(pt_ctx *x, const ptosim_tile *t, ptosim_tile *nd) {
  PT_TRY(pt_tile_check(x, PT_TILE_LAYOUT, "dst", t, NULL));
  PT_VERIFY(x, pt_dtype_size(t->dtype) != 8, "texpands.layout", "use a row-major tile for 64-bit types",
            "a col-major %s tile: the NPU fills 64-bit tiles row-major only", pt_dtype_name(t->dtype));
  *nd = *t;
  nd->rows = t->cols, nd->cols = t->rows, nd->valid_rows = t->valid_cols, nd->valid_cols = t->valid_rows;
  nd->blayout = PTOSIM_BL_ROW_MAJOR;
  return PTOSIM_OK;
}

ptosim_status pt_exec_telem(pt_ctx *x, const ptosim_telem_params *p) {
  const te_op *o = &k_ops[x->op]; /* the rows of ops.def that name pt_exec_telem all have one */
  ptosim_telem_params dn;
  if (x->op == PTOSIM_OP_texpands) { /* the one row of unit ANY: a mat tile is the cube's, a vec tile a vector core's */
    if (p->dst.space == PTOSIM_L1) return te_expands_mat(x, o, p);
    PT_VERIFY(x, x->core->kind != PTOSIM_AIC, "texpands.unit", "vec tiles are written by their vector core",
              "pto.texpands of a %s tile issued on the cube core", pt_space_name(p->dst.space));
    if (pt_tile_kind_of(&p->dst) == PT_TK_DN) {
      dn = *p;
      PT_TRY(te_expands_dn(x, &p->dst, &dn.dst));
      p = &dn;
    }
  }
  const ptosim_tile *src[3] = {&p->src0, &p->src1, &p->src2};
  int ns = te_nsrc(o->shape);
  const te_fn *loops = te_loops(x, o, p);
  PT_TRY(te_check(x, o, loops, p, src, ns));
  const ptosim_tile *d = &p->dst;
  int64_t vr = d->valid_rows, vc = d->valid_cols, dstride, sstride[3] = {0, 0, 0};
  vc += te_pairs(x, p, src, ns); /* the byte after an odd count */
  const uint8_t *sp[3] = {NULL, NULL, NULL};
  uint8_t *dp, *copy[3] = {NULL, NULL, NULL};
  /* A2/A3 trem / trems on i32 convert their sources in place (rem2_i32, rems2_i32). */
  bool writes_src = x->m->target != PTOSIM_TARGET_A5 && d->dtype == PTOSIM_DT_I32 &&
                    (x->op == PTOSIM_OP_trem || x->op == PTOSIM_OP_trems);
  for (int i = 0; i < ns; i++) {
    uint8_t *q;
    PT_TRY(pt_te_rows(x, src[i], vr, vc, writes_src ? PT_RW : PT_READ, &q, &sstride[i]));
    sp[i] = q;
  }
  bool reads_dst = o->shape == TE_AXPY || o->shape == TE_BIND;
  PT_TRY(pt_te_rows(x, d, vr, vc, reads_dst ? PT_RW : PT_WRITE, &dp, &dstride));
  ptosim_status st = PTOSIM_OK;
  for (int i = 0; i < ns && st == PTOSIM_OK; i++) st = pt_te_stage(x, src[i], d, vr, vc, &sp[i], &copy[i]);
  if (st == PTOSIM_OK) {
    te_fn fn = loops[d->dtype];
    te_row g = {.n = vc, .s = te_scalar_for(x, p->scalar, ns ? src[0]->dtype : d->dtype)}; /* a source's type (taxpy) */
    const te_guard_fn *guards = te_guards(x, p);
    if (guards && guards[d->dtype]) st = te_guard_rows(x, o, d->dtype, guards[d->dtype], g, vr, sp, sstride);
    /* The destination is the operand after the sources when the op reads it. */
    int64_t bstride = o->shape == TE_AXPY ? dstride : sstride[1], cstride = o->shape == TE_BIND ? dstride : sstride[2];
    for (int64_t r = 0; r < vr && st == PTOSIM_OK; r++) {
      g.d = dp + r * dstride;
      g.a = sp[0] ? sp[0] + r * sstride[0] : NULL;
      g.b = o->shape == TE_AXPY ? g.d : sp[1] ? sp[1] + r * bstride : NULL;
      g.c = o->shape == TE_BIND ? g.d : sp[2] ? sp[2] + r * cstride : NULL;
      fn(&g);
    }
    if (st == PTOSIM_OK) pt_record_work(x, (uint64_t)(vr * vc), d->dtype);
  }
  for (int i = 0; i < 3; i++) free(copy[i]);
  return st;
}
