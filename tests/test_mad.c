/* pto.mad / mad_acc / mad_bias / mad_mx / mad_mx_acc / mad_mx_bias against a naive reference.
 *
 * The reference builds logical matrices, places them with its own address formulas (written
 * from docs/spec-notes.md 3.1 / 3.4, not from core/layout.h or isa/mx_layout.h), computes every
 * output element as a fmaf chain over k ascending from its seed, and predicts the whole L0C
 * space: logical elements replaced, every other byte keeping its random sentinel. Value
 * decoding uses core/dtype.h (tested in test_dtype). Every case runs under each kernel
 * variant the host has (isa/mad_kernel.h), so all variants must agree bit for bit. */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "core/dtype.h"
#include "harness.h"
#include "isa/mad_kernel.h"
#include "ptosim/ptosim.h"

typedef enum form { F_MAD, F_ACC, F_BIAS } form;

typedef struct mcase {
  ptosim_target tgt;
  ptosim_dtype ta, tb, tc;
  int64_t m, n, k;
  form f;
  bool mx, disable_gemv;
  ptosim_sat_mode sat;
  ptosim_tf32_mode tf32;
  bool specials; /* sprinkle inf / NaN over operands and seeds */
  uint64_t seed;
  uint64_t a_addr, b_addr, c_addr, bias_addr;
} mcase;

/* Logical data: stored bit patterns of a[m][k], b[k][n], the acc seed c[m][n], bias[n], and
 * MX scale bytes sa[m][g], sb[g][n]. */
typedef struct mdata {
  uint32_t *a, *b, *acc, *bias;
  uint8_t *sa, *sb;
} mdata;

static unsigned long long rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void) { return pt_rand_u64(&rng_state); }

static unsigned bits_of(ptosim_dtype t) {
  switch (t) {
    case PTOSIM_DT_F32:
    case PTOSIM_DT_I32: return 32;
    case PTOSIM_DT_F16:
    case PTOSIM_DT_BF16: return 16;
    case PTOSIM_DT_I4: return 4;
    default: return 8;
  }
}

static bool is_float(ptosim_dtype t) { return t != PTOSIM_DT_I8 && t != PTOSIM_DT_I4 && t != PTOSIM_DT_I32; }

static uint32_t special_bits(ptosim_dtype t, uint64_t r) {
  static const uint32_t f32[] = {0x7F800000u, 0xFF800000u, 0x7FC00001u, 0xFFA00000u};
  static const uint32_t f16[] = {0x7C00u, 0xFC00u, 0x7E01u, 0xFD00u};
  static const uint32_t bf16[] = {0x7F80u, 0xFF80u, 0x7FC1u, 0xFFC0u};
  static const uint32_t e4m3[] = {0x7Fu, 0xFFu, 0x7Fu, 0xFFu};
  static const uint32_t e5m2[] = {0x7Cu, 0xFCu, 0x7Eu, 0xFFu};
  static const uint32_t hif8[] = {0x6Fu, 0xEFu, 0x80u, 0x80u};
  switch (t) {
    case PTOSIM_DT_F32: return f32[r % 4];
    case PTOSIM_DT_F16: return f16[r % 4];
    case PTOSIM_DT_BF16: return bf16[r % 4];
    case PTOSIM_DT_F8E4M3: return e4m3[r % 4];
    case PTOSIM_DT_F8E5M2: return e5m2[r % 4];
    default: return hif8[r % 4];
  }
}

/* A random finite value (moderate exponents so sums keep meaning) or, with specials, now and
 * then an infinity or NaN. */
static uint32_t gen_bits(ptosim_dtype t, bool specials) {
  uint64_t r = rnd();
  if (specials && is_float(t) && r % 11 == 0) return special_bits(t, r >> 8);
  uint32_t sign = (uint32_t)(r >> 63), e = (uint32_t)((r >> 1) % 13), lo = (uint32_t)(r >> 20);
  uint32_t byte = lo & 0xFFu;
  if (r % 17 == 0 && t != PTOSIM_DT_I4) return 0;
  switch (t) {
    case PTOSIM_DT_I32: return (uint32_t)r;
    case PTOSIM_DT_F32: return sign << 31 | (121 + e) << 23 | (lo & 0x7FFFFFu);
    case PTOSIM_DT_F16: return sign << 15 | (9 + e) << 10 | (lo & 0x3FFu);
    case PTOSIM_DT_BF16: return sign << 15 | (121 + e) << 7 | (lo & 0x7Fu);
    case PTOSIM_DT_F8E4M3: return (byte & 0x7F) == 0x7F ? byte ^ 1u : byte;
    case PTOSIM_DT_F8E5M2: return (byte & 0x7C) == 0x7C ? byte ^ 0x40u : byte;
    case PTOSIM_DT_HIF8: return byte == 0x80 || (byte & 0x7F) == 0x6F ? byte ^ 0x01u : byte;
    case PTOSIM_DT_I4: return lo & 0xFu;
    default: return byte;
  }
}

/* ---- reference -------------------------------------------------------------------------- */

static float f32_of(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}
static uint32_t bits_f(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

static float decode(ptosim_dtype t, uint32_t v) {
  switch (t) {
    case PTOSIM_DT_F32: return f32_of(v);
    case PTOSIM_DT_F16: return pt_f16_to_f32((uint16_t)v);
    case PTOSIM_DT_BF16: return pt_bf16_to_f32((uint16_t)v);
    default: return pt_f8_to_f32(t, (uint8_t)v);
  }
}

static int32_t decode_int(ptosim_dtype t, uint32_t v) {
  if (t == PTOSIM_DT_I4) return v >= 8 ? (int32_t)v - 16 : (int32_t)v;
  return (int8_t)(uint8_t)v;
}

/* Largest finite values: f16 65504, bf16 0x7F7F, E4M3FN 448, E5M2 57344, HiFloat8 2^15. */
static float max_of(ptosim_dtype t) {
  switch (t) {
    case PTOSIM_DT_F16: return 65504.0f;
    case PTOSIM_DT_BF16: return f32_of(0x7F7F0000u);
    case PTOSIM_DT_F8E4M3: return 448.0f;
    case PTOSIM_DT_F8E5M2: return 57344.0f;
    case PTOSIM_DT_HIF8: return 32768.0f;
    default: return FLT_MAX;
  }
}

static float sat_norm(float v, float max) {
  if (isnan(v)) return 0.0f;
  if (v > max) return max;
  if (v < -max) return -max;
  return v;
}

/* TF32 of target t: A5 keeps 10 mantissa bits (golden mad_tf32*); A2/A3 keeps 11 (HF32) and
 * reads subnormals as +-0 (pto-isa pto_tile.hpp SetMadTF32Mode, a2a3 tmatmul golden); ties to
 * even or away from zero. */
static float tf32(float v, ptosim_tf32_mode mode, ptosim_target t) {
  uint32_t u = bits_f(v);
  if (mode == PTOSIM_TF32_NONE || isnan(v) || isinf(v)) return v;
  bool a5 = t == PTOSIM_TARGET_A5;
  if (!a5 && fpclassify(v) == FP_SUBNORMAL) return f32_of(u & 0x80000000u);
  uint32_t ulp = a5 ? 0x2000u : 0x1000u, rest = u % ulp, keep = u - rest;
  bool up = 2 * rest > ulp || (2 * rest == ulp && (mode == PTOSIM_TF32_ROUND_AWAY || (keep & ulp)));
  return f32_of(up ? keep + ulp : keep);
}

static float e8m0(uint8_t s) { return s == 0xFF ? NAN : ldexpf(1.0f, (int)s - 127); }

/* The multiply operand value of a stored element: decode, tf32, sat, MX scale. */
static float operand(const mcase *c, ptosim_dtype t, uint32_t v, const uint8_t *scale) {
  float x = tf32(decode(t, v), c->tf32, c->tgt);
  if (c->sat == PTOSIM_SAT_SAT) x = sat_norm(x, max_of(t));
  if (scale) {
    x *= e8m0(*scale);
    if (c->sat == PTOSIM_SAT_SAT) x = sat_norm(x, FLT_MAX);
  }
  return x;
}

static int64_t groups(const mcase *c) { return c->k / 32; }

static uint32_t ref_elem(const mcase *c, const mdata *d, int64_t i, int64_t j) {
  uint32_t seed = c->f == F_ACC ? d->acc[i * c->n + j] : c->f == F_BIAS ? d->bias[j] : 0;
  if (!is_float(c->tc)) {
    uint32_t acc = seed;
    for (int64_t k = 0; k < c->k; k++)
      acc += (uint32_t)(decode_int(c->ta, d->a[i * c->k + k]) * decode_int(c->tb, d->b[k * c->n + j]));
    return acc;
  }
  float acc = f32_of(seed);
  if (c->sat == PTOSIM_SAT_SAT) acc = sat_norm(acc, FLT_MAX);
  for (int64_t k = 0; k < c->k; k++) {
    const uint8_t *sa = c->mx ? &d->sa[i * groups(c) + k / 32] : NULL;
    const uint8_t *sb = c->mx ? &d->sb[(k / 32) * c->n + j] : NULL;
    acc = fmaf(operand(c, c->ta, d->a[i * c->k + k], sa), operand(c, c->tb, d->b[k * c->n + j], sb), acc);
    if (c->sat == PTOSIM_SAT_SAT) acc = fminf(fmaxf(acc, -FLT_MAX), FLT_MAX);
  }
  return isnan(acc) ? 0x7FC00000u : bits_f(acc);
}

/* ---- placement (spec-notes 3.1, 3.4) ------------------------------------------------------ */

static void put_bits(uint8_t *img, uint64_t bit, unsigned bits, uint32_t v) {
  if (bits == 4) {
    uint8_t *p = img + bit / 8;
    *p = (uint8_t)(bit % 8 ? (*p & 0x0F) | (v << 4) : (*p & 0xF0) | (v & 0xF));
    return;
  }
  for (unsigned b = 0; b < bits / 8; b++) img[bit / 8 + b] = (uint8_t)(v >> (8 * b));
}

static bool gemv(const mcase *c) { return c->m == 1 && !c->disable_gemv; }

/* Bit offset of a[m][k] from the lhs pointer: A5 L0A boxes column-major (NZ), A2/A3 row-major
 * (ZZ), 512-byte boxes of 16 rows x 32 bytes; GEMV: a dense vector. */
static uint64_t lhs_bit(const mcase *c, int64_t m, int64_t k) {
  unsigned bits = bits_of(c->ta);
  int64_t c0 = 256 / bits, m1 = (c->m + 15) / 16, k1 = (c->k + c0 - 1) / c0;
  if (gemv(c)) return (uint64_t)k * bits;
  int64_t box = c->tgt == PTOSIM_TARGET_A5 ? (k / c0) * m1 + m / 16 : (m / 16) * k1 + k / c0;
  return (uint64_t)(box * 512 + (m % 16) * 32) * 8 + (uint64_t)(k % c0) * bits;
}

/* b[k][n]: boxes row-major over (k / c0, n / 16), inside each box n-major with k innermost. */
static uint64_t rhs_bit(const mcase *c, int64_t k, int64_t n) {
  unsigned bits = bits_of(c->tb);
  int64_t c0 = 256 / bits, n1 = (c->n + 15) / 16;
  return (uint64_t)(((k / c0) * n1 + n / 16) * 512 + (n % 16) * 32) * 8 + (uint64_t)(k % c0) * bits;
}

/* c[m][n]: 16 x 16 boxes of 4-byte values, column-major boxes, row-major inside. */
static uint64_t acc_off(const mcase *c, int64_t m, int64_t n) {
  int64_t m1 = (c->m + 15) / 16;
  return (uint64_t)(((n / 16) * m1 + m / 16) * 1024 + (m % 16) * 64 + (n % 16) * 4);
}

/* MX scale of row r (m or n), group g: 32-byte boxes of 16 rows x 2 groups, row blocks outer. */
static uint64_t scale_off(const mcase *c, int64_t r, int64_t g) {
  return (uint64_t)(((r / 16) * (c->k / 64) + g / 2) * 32 + (r % 16) * 2 + g % 2);
}

/* ---- running ------------------------------------------------------------------------------- */

typedef struct env {
  ptosim_machine *m;
  ptosim_core *aic;
  uint8_t *img[PTOSIM_SPACE_COUNT]; /* host images of the cube spaces */
  uint64_t cap[PTOSIM_SPACE_COUNT];
} env;

static const ptosim_space cube_spaces[] = {PTOSIM_L0A, PTOSIM_L0B, PTOSIM_L0C, PTOSIM_BT, PTOSIM_L0A_MX, PTOSIM_L0B_MX};

/* A machine whose cube spaces hold random sentinel bytes, mirrored in env.img. */
static void env_new(env *e, ptosim_target t) {
  memset(e, 0, sizeof *e);
  e->m = ptosim_machine_new(t, 1);
  e->aic = ptosim_core_of(e->m, 0, PTOSIM_AIC);
  for (size_t i = 0; i < sizeof cube_spaces / sizeof cube_spaces[0]; i++) {
    ptosim_space s = cube_spaces[i];
    e->cap[s] = ptosim_space_capacity(e->m, s);
    if (!e->cap[s]) continue;
    e->img[s] = malloc(e->cap[s]);
    for (uint64_t b = 0; b < e->cap[s]; b += 8) {
      uint64_t r = rnd();
      memcpy(e->img[s] + b, &r, 8);
    }
  }
}

static void env_sync(env *e) {
  for (size_t i = 0; i < sizeof cube_spaces / sizeof cube_spaces[0]; i++)
    if (e->img[cube_spaces[i]])
      CHECK(ptosim_mem_write(e->aic, cube_spaces[i], 0, e->img[cube_spaces[i]], e->cap[cube_spaces[i]]) == PTOSIM_OK);
}

static void env_free(env *e) {
  for (int s = 0; s < PTOSIM_SPACE_COUNT; s++) free(e->img[s]);
  ptosim_machine_free(e->m);
}

static ptosim_opcode opcode_of(form f, bool mx) {
  static const ptosim_opcode plain[] = {PTOSIM_OP_mad, PTOSIM_OP_mad_acc, PTOSIM_OP_mad_bias};
  static const ptosim_opcode mxs[] = {PTOSIM_OP_mad_mx, PTOSIM_OP_mad_mx_acc, PTOSIM_OP_mad_mx_bias};
  return mx ? mxs[f] : plain[f];
}

static ptosim_mad_params params_of(const mcase *c) {
  ptosim_mad_params p;
  memset(&p, 0, sizeof p);
  p.lhs = ptosim_ptr_make(PTOSIM_L0A, c->ta, c->a_addr);
  p.rhs = ptosim_ptr_make(PTOSIM_L0B, c->tb, c->b_addr);
  p.dst = ptosim_ptr_make(PTOSIM_L0C, c->tc, c->c_addr);
  if (c->f == F_BIAS) p.bias = ptosim_ptr_make(PTOSIM_BT, c->tc, c->bias_addr);
  p.m = c->m;
  p.n = c->n;
  p.k = c->k;
  p.disable_gemv = c->disable_gemv;
  p.sat = c->sat;
  p.tf32 = c->tf32;
  return p;
}

static void data_new(const mcase *c, mdata *d) {
  int64_t g = groups(c);
  d->a = malloc(sizeof(uint32_t) * (size_t)(c->m * c->k));
  d->b = malloc(sizeof(uint32_t) * (size_t)(c->k * c->n));
  d->acc = malloc(sizeof(uint32_t) * (size_t)(c->m * c->n));
  d->bias = malloc(sizeof(uint32_t) * (size_t)c->n);
  d->sa = malloc((size_t)(c->m * g) + 1);
  d->sb = malloc((size_t)(g * c->n) + 1);
  for (int64_t i = 0; i < c->m * c->k; i++) d->a[i] = gen_bits(c->ta, c->specials);
  for (int64_t i = 0; i < c->k * c->n; i++) d->b[i] = gen_bits(c->tb, c->specials);
  for (int64_t i = 0; i < c->m * c->n; i++) d->acc[i] = gen_bits(c->tc, c->specials);
  for (int64_t i = 0; i < c->n; i++) d->bias[i] = gen_bits(c->tc, c->specials);
  /* Scales 2^-7 .. 2^7, now and then 2^-127, 2^127 or NaN. */
  for (int64_t i = 0; i < c->m * g; i++) d->sa[i] = (uint8_t)(rnd() % 29 == 0 ? 0xFF : 120 + rnd() % 15);
  for (int64_t i = 0; i < g * c->n; i++) d->sb[i] = (uint8_t)(rnd() % 31 == 0 ? (rnd() % 2 ? 0 : 254) : 120 + rnd() % 15);
}

static void data_free(mdata *d) {
  free(d->a);
  free(d->b);
  free(d->acc);
  free(d->bias);
  free(d->sa);
  free(d->sb);
}

static void place(env *e, const mcase *c, const mdata *d) {
  for (int64_t m = 0; m < c->m; m++)
    for (int64_t k = 0; k < c->k; k++)
      put_bits(e->img[PTOSIM_L0A] + c->a_addr, lhs_bit(c, m, k), bits_of(c->ta), d->a[m * c->k + k]);
  for (int64_t k = 0; k < c->k; k++)
    for (int64_t n = 0; n < c->n; n++)
      put_bits(e->img[PTOSIM_L0B] + c->b_addr, rhs_bit(c, k, n), bits_of(c->tb), d->b[k * c->n + n]);
  for (int64_t m = 0; m < c->m; m++)
    for (int64_t n = 0; n < c->n; n++) memcpy(e->img[PTOSIM_L0C] + c->c_addr + acc_off(c, m, n), &d->acc[m * c->n + n], 4);
  for (int64_t n = 0; n < c->n; n++) memcpy(e->img[PTOSIM_BT] + c->bias_addr + 4 * n, &d->bias[n], 4);
  if (!c->mx) return;
  for (int64_t m = 0; m < c->m; m++)
    for (int64_t g = 0; g < groups(c); g++)
      e->img[PTOSIM_L0A_MX][(c->a_addr >> 4) + scale_off(c, m, g)] = d->sa[m * groups(c) + g];
  for (int64_t g = 0; g < groups(c); g++)
    for (int64_t n = 0; n < c->n; n++)
      e->img[PTOSIM_L0B_MX][(c->b_addr >> 4) + scale_off(c, n, g)] = d->sb[g * c->n + n];
}

static const char *kernel_name(void) { return pt_mad_kernel_get()->name; }

/* Run one case; the whole L0C space must equal the prediction and the read spaces must keep
 * their bytes. Returns true when everything matched. */
static bool run_case(const mcase *c) {
  env e;
  mdata d;
  env_new(&e, c->tgt);
  data_new(c, &d);
  place(&e, c, &d);
  env_sync(&e);
  ptosim_mad_params p = params_of(c);
  ptosim_status st = ptosim_exec(e.aic, opcode_of(c->f, c->mx), &p, NULL);
  int before = pt_test_failures;
  CHECK_MSG(st == PTOSIM_OK, "%s m=%" PRId64 " n=%" PRId64 " k=%" PRId64 ": status %d rule %s: %s", kernel_name(), c->m,
            c->n, c->k, (int)st, ptosim_last_diag(e.m)->rule, ptosim_last_diag(e.m)->msg);
  for (int64_t m = 0; m < c->m; m++)
    for (int64_t n = 0; n < c->n; n++) {
      uint32_t want = ref_elem(c, &d, m, n);
      memcpy(e.img[PTOSIM_L0C] + c->c_addr + acc_off(c, m, n), &want, 4);
    }
  for (size_t i = 0; i < sizeof cube_spaces / sizeof cube_spaces[0]; i++) {
    ptosim_space s = cube_spaces[i];
    if (!e.img[s]) continue;
    uint8_t *got = malloc(e.cap[s]);
    CHECK(ptosim_mem_read(e.aic, s, 0, got, e.cap[s]) == PTOSIM_OK);
    uint64_t bad = e.cap[s];
    for (uint64_t b = 0; b < e.cap[s] && bad == e.cap[s]; b++)
      if (got[b] != e.img[s][b]) bad = b;
    CHECK_MSG(bad == e.cap[s],
              "%s %s x %s -> %s form %d mx %d m=%" PRId64 " n=%" PRId64 " k=%" PRId64 " sat %d tf32 %d: space %d byte 0x%" PRIx64
              " got 0x%02x want 0x%02x",
              kernel_name(), pt_dtype_name(c->ta), pt_dtype_name(c->tb), pt_dtype_name(c->tc), (int)c->f, (int)c->mx,
              c->m, c->n, c->k, (int)c->sat, (int)c->tf32, (int)s, bad, bad < e.cap[s] ? got[bad] : 0,
              bad < e.cap[s] ? e.img[s][bad] : 0);
    free(got);
  }
  data_free(&d);
  env_free(&e);
  return pt_test_failures == before;
}

/* Run a case under every kernel variant the host has. */
static void run_all_kernels(const mcase *c) {
  for (int isa = PT_MAD_ISA_PORTABLE; isa < PT_MAD_ISA_BEST; isa++)
    if (pt_mad_kernel_select((pt_mad_isa)isa)) run_case(c);
  pt_mad_kernel_select(PT_MAD_ISA_BEST);
}

static mcase base_case(ptosim_target t, ptosim_dtype ta, ptosim_dtype tb, ptosim_dtype tc, int64_t m, int64_t n,
                       int64_t k) {
  mcase c;
  memset(&c, 0, sizeof c);
  c.tgt = t;
  c.ta = ta;
  c.tb = tb;
  c.tc = tc;
  c.m = m;
  c.n = n;
  c.k = k;
  c.a_addr = 512;
  c.b_addr = 1024;
  c.c_addr = 2048;
  c.bias_addr = 64;
  return c;
}

/* ---- positive tests ------------------------------------------------------------------------- */

typedef struct combo {
  ptosim_dtype a, b, c;
} combo;

static const combo a2a3_combos[] = {
    {PTOSIM_DT_F16, PTOSIM_DT_F16, PTOSIM_DT_F32}, {PTOSIM_DT_BF16, PTOSIM_DT_BF16, PTOSIM_DT_F32},
    {PTOSIM_DT_F32, PTOSIM_DT_F32, PTOSIM_DT_F32}, {PTOSIM_DT_I8, PTOSIM_DT_I8, PTOSIM_DT_I32},
    {PTOSIM_DT_I4, PTOSIM_DT_I4, PTOSIM_DT_I32},
};
static const combo a5_combos[] = {
    {PTOSIM_DT_F16, PTOSIM_DT_F16, PTOSIM_DT_F32},       {PTOSIM_DT_BF16, PTOSIM_DT_BF16, PTOSIM_DT_F32},
    {PTOSIM_DT_F32, PTOSIM_DT_F32, PTOSIM_DT_F32},       {PTOSIM_DT_I8, PTOSIM_DT_I8, PTOSIM_DT_I32},
    {PTOSIM_DT_F8E4M3, PTOSIM_DT_F8E4M3, PTOSIM_DT_F32}, {PTOSIM_DT_F8E4M3, PTOSIM_DT_F8E5M2, PTOSIM_DT_F32},
    {PTOSIM_DT_F8E5M2, PTOSIM_DT_F8E4M3, PTOSIM_DT_F32}, {PTOSIM_DT_F8E5M2, PTOSIM_DT_F8E5M2, PTOSIM_DT_F32},
    {PTOSIM_DT_HIF8, PTOSIM_DT_HIF8, PTOSIM_DT_F32},
};

static const int64_t shapes[][3] = {{1, 16, 32},  {1, 17, 33},   {15, 17, 31}, {16, 16, 16}, {17, 33, 30},
                                    {31, 15, 64}, {33, 100, 18}, {64, 64, 64}, {100, 31, 34}, {2, 3, 6}};

/* Every legal type combination of a target, every shape, the three forms. */
static void sweep(ptosim_target t, const combo *cs, size_t ncs) {
  for (size_t i = 0; i < ncs; i++)
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
      int64_t k = shapes[s][2] + (cs[i].a == PTOSIM_DT_I4 ? shapes[s][2] % 2 : 0); /* i4: even k */
      mcase c = base_case(t, cs[i].a, cs[i].b, cs[i].c, shapes[s][0], shapes[s][1], k);
      c.f = (form)(s % 3);
      run_all_kernels(&c);
    }
}

static void test_a2a3_sweep(void) { sweep(PTOSIM_TARGET_A2A3, a2a3_combos, sizeof a2a3_combos / sizeof a2a3_combos[0]); }
static void test_a5_sweep(void) { sweep(PTOSIM_TARGET_A5, a5_combos, sizeof a5_combos / sizeof a5_combos[0]); }

/* Each form on a few non-square shapes, both targets, with operands at other addresses. */
static void test_forms(void) {
  for (int t = 0; t < PTOSIM_TARGET_COUNT; t++)
    for (int f = F_MAD; f <= F_BIAS; f++) {
      mcase c = base_case((ptosim_target)t, PTOSIM_DT_F16, PTOSIM_DT_F16, PTOSIM_DT_F32, 40, 60, 50);
      c.f = (form)f;
      c.a_addr = 4096 + 32;
      c.b_addr = 8192 + 96;
      c.c_addr = 16384 + 64;
      c.bias_addr = 256 + 32;
      run_all_kernels(&c);
      c.ta = c.tb = c.tc = PTOSIM_DT_F32;
      c.m = 128, c.n = 48, c.k = 40;
      run_all_kernels(&c);
    }
}

/* m == 1: a dense vector (GEMV) unless disable_gemv; A2/A3 always reads GEMV. */
static void test_gemv(void) {
  for (int t = 0; t < PTOSIM_TARGET_COUNT; t++)
    for (int dis = 0; dis < (t == PTOSIM_TARGET_A5 ? 2 : 1); dis++)
      for (int f = F_MAD; f <= F_BIAS; f++) {
        mcase c = base_case((ptosim_target)t, PTOSIM_DT_BF16, PTOSIM_DT_BF16, PTOSIM_DT_F32, 1, 40, 70);
        c.disable_gemv = dis;
        c.f = (form)f;
        run_all_kernels(&c);
        c.ta = c.tb = PTOSIM_DT_I8;
        c.tc = PTOSIM_DT_I32;
        run_all_kernels(&c);
      }
  /* GEMV and normal organizations differ: the same bytes read both ways give different results. */
  mcase c = base_case(PTOSIM_TARGET_A5, PTOSIM_DT_F16, PTOSIM_DT_F16, PTOSIM_DT_F32, 1, 16, 32);
  env e;
  mdata d;
  env_new(&e, c.tgt);
  data_new(&c, &d);
  place(&e, &c, &d);
  env_sync(&e);
  float out[2][16];
  for (int dis = 0; dis < 2; dis++) {
    c.disable_gemv = dis;
    ptosim_mad_params p = params_of(&c);
    CHECK(ptosim_mad(e.aic, &p) == PTOSIM_OK);
    CHECK(ptosim_mem_read(e.aic, PTOSIM_L0C, c.c_addr, out[dis], sizeof out[dis]) == PTOSIM_OK);
  }
  CHECK(memcmp(out[0], out[1], sizeof out[0]) != 0);
  data_free(&d);
  env_free(&e);
}

/* The accumulator / bias seeds the FMA chain. Seed 3, products 2^24, -2^24, 2:
 *   seeded:      3 + 2^24 rounds to 2^24 + 4, - 2^24 gives 4, + 2 gives 6
 *   added after: (2^24 - 2^24 + 2) + 3 = 5;  no seed: 2. */
static void test_seed_not_added_after(void) {
  for (int f = F_ACC; f <= F_BIAS; f++) {
    mcase c = base_case(PTOSIM_TARGET_A5, PTOSIM_DT_F16, PTOSIM_DT_F16, PTOSIM_DT_F32, 1, 1, 3);
    c.f = (form)f;
    env e;
    env_new(&e, c.tgt);
    uint32_t a[3] = {0x6C00u, 0xEC00u, 0x3C00u}, b[3] = {0x6C00u, 0x6C00u, 0x4000u}; /* 4096, -4096, 1; 4096, 4096, 2 */
    float three = 3.0f;
    for (int k = 0; k < 3; k++) {
      put_bits(e.img[PTOSIM_L0A] + c.a_addr, lhs_bit(&c, 0, k), 16, a[k]);
      put_bits(e.img[PTOSIM_L0B] + c.b_addr, rhs_bit(&c, k, 0), 16, b[k]);
    }
    memcpy(e.img[PTOSIM_L0C] + c.c_addr, &three, 4);
    memcpy(e.img[PTOSIM_BT] + c.bias_addr, &three, 4);
    env_sync(&e);
    ptosim_mad_params p = params_of(&c);
    CHECK(ptosim_exec(e.aic, opcode_of(c.f, false), &p, NULL) == PTOSIM_OK);
    float got, sum = fmaf(1.0f, 2.0f, fmaf(-4096.0f, 4096.0f, fmaf(4096.0f, 4096.0f, 0.0f)));
    CHECK(ptosim_mem_read(e.aic, PTOSIM_L0C, c.c_addr, &got, 4) == PTOSIM_OK);
    CHECK_MSG(got == 6.0f && sum + three == 5.0f, "got %g", (double)got);
    env_free(&e);
  }
}

static void test_tf32(void) {
  for (int mode = PTOSIM_TF32_ROUND_EVEN; mode <= PTOSIM_TF32_ROUND_AWAY; mode++)
    for (int f = F_MAD; f <= F_BIAS; f++) {
      mcase c = base_case(f == F_ACC ? PTOSIM_TARGET_A2A3 : PTOSIM_TARGET_A5, PTOSIM_DT_F32, PTOSIM_DT_F32,
                          PTOSIM_DT_F32, 33, 20, 45);
      c.tf32 = (ptosim_tf32_mode)mode;
      c.f = (form)f;
      run_all_kernels(&c);
      c.specials = true;
      run_all_kernels(&c);
    }
  /* a x b with a at each target's halfway point, or a the subnormal 0x007FF000 (A5 rounds it up
   * to 2^-126; A2/A3's HF32 reads it as 0), b = 1 or 2^100; want[target][mode]. */
  static const struct {
    ptosim_target t;
    uint32_t a, b, want[2];
  } ties[] = {
      {PTOSIM_TARGET_A5, 0x3F801000u, 0x3F800000u, {0x3F800000u, 0x3F802000u}},   /* 1 + 2^-11 */
      {PTOSIM_TARGET_A5, 0x3F803000u, 0x3F800000u, {0x3F804000u, 0x3F804000u}},   /* odd: up */
      {PTOSIM_TARGET_A2A3, 0x3F800800u, 0x3F800000u, {0x3F800000u, 0x3F801000u}}, /* 1 + 2^-12 */
      {PTOSIM_TARGET_A2A3, 0x3F801800u, 0x3F800000u, {0x3F802000u, 0x3F802000u}},
      {PTOSIM_TARGET_A2A3, 0x3F801000u, 0x3F800000u, {0x3F801000u, 0x3F801000u}}, /* exact in e8m11 */
      {PTOSIM_TARGET_A5, 0x007FF000u, 0x71800000u, {0x32800000u, 0x32800000u}},   /* 2^-126 * 2^100 */
      {PTOSIM_TARGET_A2A3, 0x807FF000u, 0x71800000u, {0, 0}}, /* +0 + -0 * 2^100 */
      {PTOSIM_TARGET_A5, 0x807FF000u, 0x71800000u, {0xB2800000u, 0xB2800000u}},
  };
  for (size_t i = 0; i < sizeof ties / sizeof *ties; i++)
    for (int mode = PTOSIM_TF32_ROUND_EVEN; mode <= PTOSIM_TF32_ROUND_AWAY; mode++) {
      mcase c = base_case(ties[i].t, PTOSIM_DT_F32, PTOSIM_DT_F32, PTOSIM_DT_F32, 1, 1, 1);
      c.tf32 = (ptosim_tf32_mode)mode;
      env e;
      env_new(&e, c.tgt);
      put_bits(e.img[PTOSIM_L0A] + c.a_addr, 0, 32, ties[i].a);
      put_bits(e.img[PTOSIM_L0B] + c.b_addr, 0, 32, ties[i].b);
      env_sync(&e);
      ptosim_mad_params p = params_of(&c);
      CHECK(ptosim_mad(e.aic, &p) == PTOSIM_OK);
      uint32_t got;
      CHECK(ptosim_mem_read(e.aic, PTOSIM_L0C, c.c_addr, &got, 4) == PTOSIM_OK);
      CHECK_MSG(got == ties[i].want[mode - PTOSIM_TF32_ROUND_EVEN], "case %zu mode %d: got 0x%08x", i, mode, got);
      env_free(&e);
    }
}

/* sat / nosat / omitted with infinities and NaNs in operands and seeds. */
static void test_sat(void) {
  static const combo cs[] = {{PTOSIM_DT_F32, PTOSIM_DT_F32, PTOSIM_DT_F32},
                             {PTOSIM_DT_F16, PTOSIM_DT_F16, PTOSIM_DT_F32},
                             {PTOSIM_DT_BF16, PTOSIM_DT_BF16, PTOSIM_DT_F32},
                             {PTOSIM_DT_F8E5M2, PTOSIM_DT_F8E4M3, PTOSIM_DT_F32},
                             {PTOSIM_DT_HIF8, PTOSIM_DT_HIF8, PTOSIM_DT_F32}};
  for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++)
    for (int sat = PTOSIM_SAT_DEFAULT; sat <= PTOSIM_SAT_NOSAT; sat++) {
      if (sat == PTOSIM_SAT_SAT_PRESERVE_NAN) continue;
      mcase c = base_case(PTOSIM_TARGET_A5, cs[i].a, cs[i].b, cs[i].c, 20, 35, 40);
      c.sat = (ptosim_sat_mode)sat;
      c.specials = true;
      c.f = (form)(i % 3);
      run_all_kernels(&c);
    }
  /* Finite overflow: 2e38 * 2 saturates to FLT_MAX with sat and is inf with nosat. */
  for (int sat = PTOSIM_SAT_SAT; sat <= PTOSIM_SAT_NOSAT; sat += 2) {
    mcase c = base_case(PTOSIM_TARGET_A5, PTOSIM_DT_F32, PTOSIM_DT_F32, PTOSIM_DT_F32, 1, 1, 3);
    c.sat = (ptosim_sat_mode)sat;
    env e;
    env_new(&e, c.tgt);
    uint32_t a[3] = {bits_f(2e38f), bits_f(2e38f), bits_f(-2e38f)};
    for (int k = 0; k < 3; k++) {
      put_bits(e.img[PTOSIM_L0A] + c.a_addr, lhs_bit(&c, 0, k), 32, a[k]);
      put_bits(e.img[PTOSIM_L0B] + c.b_addr, rhs_bit(&c, k, 0), 32, bits_f(2.0f));
    }
    env_sync(&e);
    ptosim_mad_params p = params_of(&c);
    CHECK(ptosim_mad(e.aic, &p) == PTOSIM_OK);
    uint32_t got;
    CHECK(ptosim_mem_read(e.aic, PTOSIM_L0C, c.c_addr, &got, 4) == PTOSIM_OK);
    /* sat: 4e38 -> FLT_MAX, + 4e38 -> FLT_MAX, - 4e38 -> FLT_MAX - 4e38; nosat: inf, inf, inf. */
    CHECK(got == (sat == PTOSIM_SAT_SAT ? bits_f(fmaf(-2e38f, 2.0f, FLT_MAX)) : 0x7F800000u));
    env_free(&e);
  }
}

/* i8 products accumulate modulo 2^32: a seed near INT32_MAX wraps. */
static void test_int_wrap(void) {
  mcase c = base_case(PTOSIM_TARGET_A5, PTOSIM_DT_I8, PTOSIM_DT_I8, PTOSIM_DT_I32, 1, 1, 4);
  c.f = F_ACC;
  c.disable_gemv = true;
  env e;
  env_new(&e, c.tgt);
  for (int k = 0; k < 4; k++) {
    put_bits(e.img[PTOSIM_L0A] + c.a_addr, lhs_bit(&c, 0, k), 8, 0x80u); /* -128 */
    put_bits(e.img[PTOSIM_L0B] + c.b_addr, rhs_bit(&c, k, 0), 8, 0x80u);
  }
  int32_t seed = INT32_MAX - 1000, got;
  memcpy(e.img[PTOSIM_L0C] + c.c_addr, &seed, 4);
  env_sync(&e);
  ptosim_mad_params p = params_of(&c);
  CHECK(ptosim_mad_acc(e.aic, &p) == PTOSIM_OK);
  CHECK(ptosim_mem_read(e.aic, PTOSIM_L0C, c.c_addr, &got, 4) == PTOSIM_OK);
  CHECK((uint32_t)got == (uint32_t)seed + 4u * 16384u); /* wraps to a negative value */
  CHECK(got < 0);
  env_free(&e);
  /* Large random sums through the sweep machinery with full i32 seeds and the i4 packed form. */
  mcase r = base_case(PTOSIM_TARGET_A5, PTOSIM_DT_I8, PTOSIM_DT_I8, PTOSIM_DT_I32, 16, 16, 4000);
  r.f = F_ACC;
  run_all_kernels(&r);
  r = base_case(PTOSIM_TARGET_A2A3, PTOSIM_DT_I4, PTOSIM_DT_I4, PTOSIM_DT_I32, 17, 19, 130);
  r.f = F_BIAS;
  run_all_kernels(&r);
}

static void test_mx(void) {
  static const int64_t mx_shapes[][3] = {{16, 16, 64}, {1, 20, 128}, {33, 17, 192}, {40, 50, 64}};
  for (size_t s = 0; s < sizeof mx_shapes / sizeof mx_shapes[0]; s++)
    for (int f = F_MAD; f <= F_BIAS; f++) {
      mcase c = base_case(PTOSIM_TARGET_A5, PTOSIM_DT_F8E4M3, PTOSIM_DT_F8E4M3, PTOSIM_DT_F32, mx_shapes[s][0],
                          mx_shapes[s][1], mx_shapes[s][2]);
      c.mx = true;
      c.f = (form)f;
      c.a_addr = 4096; /* scales at 256 */
      c.b_addr = 8192; /* scales at 512 */
      c.disable_gemv = f == F_ACC;
      run_all_kernels(&c);
      c.sat = PTOSIM_SAT_SAT;
      c.specials = true;
      run_all_kernels(&c);
    }
}

/* Same inputs, same bits: two runs of one op on one machine. */
static void test_determinism(void) {
  mcase c = base_case(PTOSIM_TARGET_A5, PTOSIM_DT_F32, PTOSIM_DT_F32, PTOSIM_DT_F32, 70, 90, 100);
  env e;
  env_new(&e, c.tgt);
  mdata d;
  data_new(&c, &d);
  place(&e, &c, &d);
  env_sync(&e);
  ptosim_mad_params p = params_of(&c);
  size_t bytes = (size_t)(80 * 96 * 4);
  uint8_t *out[2] = {malloc(bytes), malloc(bytes)};
  for (int r = 0; r < 2; r++) {
    CHECK(ptosim_mad(e.aic, &p) == PTOSIM_OK);
    CHECK(ptosim_mem_read(e.aic, PTOSIM_L0C, c.c_addr, out[r], bytes) == PTOSIM_OK);
  }
  CHECK(memcmp(out[0], out[1], bytes) == 0);
  free(out[0]);
  free(out[1]);
  data_free(&d);
  env_free(&e);
}

/* Largest tiles the buffers hold, and operands at the end of their space. */
static void test_large(void) {
  mcase c = base_case(PTOSIM_TARGET_A5, PTOSIM_DT_F16, PTOSIM_DT_F16, PTOSIM_DT_F32, 256, 256, 128);
  c.a_addr = c.b_addr = c.c_addr = 0;
  c.f = F_ACC;
  run_case(&c);
  c = base_case(PTOSIM_TARGET_A2A3, PTOSIM_DT_F32, PTOSIM_DT_F32, PTOSIM_DT_F32, 100, 60, 140);
  c.a_addr = 65536 - 18 * 112 * 32;
  c.b_addr = 65536 - 18 * 64 * 32;
  c.c_addr = 131072 - 112 * 64 * 4;
  run_case(&c);
}

/* ---- negative tests ------------------------------------------------------------------------ */

/* Run a mutated f16 16x16x16 A5 mad (or the given op) and return the rule of the failure. */
static const char *fail_rule(const mcase *c, ptosim_opcode op, void (*mutate)(ptosim_mad_params *)) {
  static char rule[64];
  env e;
  env_new(&e, c->tgt);
  env_sync(&e);
  ptosim_mad_params p = params_of(c);
  if (mutate) mutate(&p);
  uint8_t *before = malloc(e.cap[PTOSIM_L0C]), *after = malloc(e.cap[PTOSIM_L0C]);
  CHECK(ptosim_mem_read(e.aic, PTOSIM_L0C, 0, before, e.cap[PTOSIM_L0C]) == PTOSIM_OK);
  ptosim_status st = ptosim_exec(e.aic, op, &p, NULL);
  CHECK(ptosim_mem_read(e.aic, PTOSIM_L0C, 0, after, e.cap[PTOSIM_L0C]) == PTOSIM_OK);
  CHECK(st != PTOSIM_OK && memcmp(before, after, e.cap[PTOSIM_L0C]) == 0); /* nothing written */
  snprintf(rule, sizeof rule, "%s", ptosim_last_diag(e.m)->rule);
  free(before);
  free(after);
  env_free(&e);
  return rule;
}

#define EXPECT_RULE(c, op, mutate, want)                                                  \
  do {                                                                                    \
    const char *got_ = fail_rule((c), (op), (mutate));                                    \
    CHECK_MSG(!strcmp(got_, (want)), "expected rule %s, got %s", (want), got_);           \
  } while (0)

static void lhs_in_l0b(ptosim_mad_params *p) { p->lhs.space = PTOSIM_L0B; }
static void rhs_in_l1(ptosim_mad_params *p) { p->rhs.space = PTOSIM_L1; }
static void dst_in_ub(ptosim_mad_params *p) { p->dst.space = PTOSIM_UB; }
static void bias_in_fb(ptosim_mad_params *p) { p->bias.space = PTOSIM_FB; }
static void bias_f16(ptosim_mad_params *p) { p->bias.dtype = PTOSIM_DT_F16; }
static void mixed_f16_bf16(ptosim_mad_params *p) { p->rhs.dtype = PTOSIM_DT_BF16; }
static void f16_to_f16(ptosim_mad_params *p) { p->dst.dtype = PTOSIM_DT_F16; }
static void i8_to_f32(ptosim_mad_params *p) { p->lhs.dtype = p->rhs.dtype = PTOSIM_DT_I8; }
static void u8_i8(ptosim_mad_params *p) {
  p->lhs.dtype = PTOSIM_DT_U8;
  p->rhs.dtype = PTOSIM_DT_I8;
  p->dst.dtype = PTOSIM_DT_I32;
}
static void fp8_ops(ptosim_mad_params *p) { p->lhs.dtype = p->rhs.dtype = PTOSIM_DT_F8E4M3; }
static void hif8_e4m3(ptosim_mad_params *p) {
  p->lhs.dtype = PTOSIM_DT_HIF8;
  p->rhs.dtype = PTOSIM_DT_F8E4M3;
}
static void i4_ops(ptosim_mad_params *p) {
  p->lhs.dtype = p->rhs.dtype = PTOSIM_DT_I4;
  p->dst.dtype = PTOSIM_DT_I32;
}
static void i4_odd_k(ptosim_mad_params *p) {
  i4_ops(p);
  p->k = 33;
}
static void flag_clear(ptosim_mad_params *p) { p->unit_flag = PTOSIM_UNIT_FLAG_CHECK_AND_CLEAR; }
static void sat_keepnan(ptosim_mad_params *p) { p->sat = PTOSIM_SAT_SAT_PRESERVE_NAN; }
static void sat_on_int(ptosim_mad_params *p) {
  p->lhs.dtype = p->rhs.dtype = PTOSIM_DT_I8;
  p->dst.dtype = PTOSIM_DT_I32;
  p->sat = PTOSIM_SAT_NOSAT;
}
static void tf32_on_f16(ptosim_mad_params *p) { p->tf32 = PTOSIM_TF32_ROUND_EVEN; }
static void tf32_bad_enum(ptosim_mad_params *p) { p->tf32 = (ptosim_tf32_mode)7; }
static void tf32_on_mx(ptosim_mad_params *p) { p->tf32 = PTOSIM_TF32_ROUND_AWAY; }
static void m_zero(ptosim_mad_params *p) { p->m = 0; }
static void n_4096(ptosim_mad_params *p) { p->n = 4096; }
static void k_negative(ptosim_mad_params *p) { p->k = -16; }
static void k_32(ptosim_mad_params *p) { p->k = 32; }
static void gemv_disabled(ptosim_mad_params *p) {
  p->m = 1;
  p->disable_gemv = true;
}
static void too_big(ptosim_mad_params *p) {
  p->lhs.dtype = p->rhs.dtype = PTOSIM_DT_F32;
  p->m = 256;
  p->k = 128; /* 128 KiB of L0A */
}
static void dst_too_big(ptosim_mad_params *p) { p->m = p->n = 512; /* 1 MiB of L0C */ }
static void dst_at_end(ptosim_mad_params *p) { p->dst.addr = 256 * 1024 - 512; }
static void lhs_misaligned(ptosim_mad_params *p) { p->lhs.addr = 16; }

static void test_negative(void) {
  mcase c = base_case(PTOSIM_TARGET_A5, PTOSIM_DT_F16, PTOSIM_DT_F16, PTOSIM_DT_F32, 16, 16, 16);
  mcase c2 = c;
  c2.tgt = PTOSIM_TARGET_A2A3;
  mcase cb = c;
  cb.f = F_BIAS;
  mcase cmx = base_case(PTOSIM_TARGET_A5, PTOSIM_DT_F8E4M3, PTOSIM_DT_F8E4M3, PTOSIM_DT_F32, 16, 16, 64);
  mcase cmx2 = cmx;
  cmx2.tgt = PTOSIM_TARGET_A2A3;
  EXPECT_RULE(&c, PTOSIM_OP_mad, lhs_in_l0b, "op.space");
  EXPECT_RULE(&c, PTOSIM_OP_mad_acc, rhs_in_l1, "op.space");
  EXPECT_RULE(&c, PTOSIM_OP_mad, dst_in_ub, "op.space");
  EXPECT_RULE(&cb, PTOSIM_OP_mad_bias, bias_in_fb, "op.space");
  EXPECT_RULE(&cb, PTOSIM_OP_mad_bias, bias_f16, "mad.bias_dtype");
  EXPECT_RULE(&c, PTOSIM_OP_mad, mixed_f16_bf16, "mad.dtype");
  EXPECT_RULE(&c, PTOSIM_OP_mad, f16_to_f16, "mad.dtype");
  EXPECT_RULE(&c, PTOSIM_OP_mad, i8_to_f32, "mad.dtype");
  EXPECT_RULE(&c, PTOSIM_OP_mad, u8_i8, "mad.dtype");
  EXPECT_RULE(&c, PTOSIM_OP_mad, hif8_e4m3, "mad.dtype");
  EXPECT_RULE(&c2, PTOSIM_OP_mad, fp8_ops, "mad.dtype");
  EXPECT_RULE(&c, PTOSIM_OP_mad, i4_ops, "mad.dtype");
  EXPECT_RULE(&c, PTOSIM_OP_mad_mx, NULL, "mad.dtype"); /* f16 is no MX type */
  EXPECT_RULE(&cmx2, PTOSIM_OP_mad_mx, NULL, "mad.mx_target");
  EXPECT_RULE(&c, PTOSIM_OP_mad, flag_clear, "mad.unit_flag");
  EXPECT_RULE(&c, PTOSIM_OP_mad, sat_keepnan, "mad.sat");
  EXPECT_RULE(&c, PTOSIM_OP_mad, sat_on_int, "mad.sat");
  EXPECT_RULE(&c, PTOSIM_OP_mad, tf32_on_f16, "mad.tf32");
  EXPECT_RULE(&c, PTOSIM_OP_mad, tf32_bad_enum, "mad.tf32");
  EXPECT_RULE(&cmx, PTOSIM_OP_mad_mx_acc, tf32_on_mx, "mad.tf32");
  EXPECT_RULE(&c2, PTOSIM_OP_mad, gemv_disabled, "mad.disable_gemv");
  EXPECT_RULE(&c, PTOSIM_OP_mad, m_zero, "mad.shape");
  EXPECT_RULE(&c, PTOSIM_OP_mad, n_4096, "mad.shape");
  EXPECT_RULE(&cb, PTOSIM_OP_mad_bias, k_negative, "mad.shape");
  EXPECT_RULE(&c2, PTOSIM_OP_mad, i4_odd_k, "mad.k_even");
  EXPECT_RULE(&cmx, PTOSIM_OP_mad_mx, k_32, "mad.mx_k");
  EXPECT_RULE(&c, PTOSIM_OP_mad, too_big, "mad.capacity");
  EXPECT_RULE(&c2, PTOSIM_OP_mad, dst_too_big, "mad.capacity");
  EXPECT_RULE(&c, PTOSIM_OP_mad, dst_at_end, "mem.bounds");
  EXPECT_RULE(&c, PTOSIM_OP_mad, lhs_misaligned, "mem.align");
  /* The cube core issues mad. */
  env e;
  env_new(&e, PTOSIM_TARGET_A5);
  ptosim_mad_params p = params_of(&c);
  CHECK(ptosim_mad(ptosim_core_of(e.m, 0, PTOSIM_AIV0), &p) == PTOSIM_E_VERIFY);
  CHECK(!strcmp(ptosim_last_diag(e.m)->rule, "op.unit"));
  env_free(&e);
}

int main(void) {
  RUN(test_seed_not_added_after);
  RUN(test_a2a3_sweep);
  RUN(test_a5_sweep);
  RUN(test_forms);
  RUN(test_gemv);
  RUN(test_tf32);
  RUN(test_sat);
  RUN(test_int_wrap);
  RUN(test_mx);
  RUN(test_determinism);
  RUN(test_large);
  RUN(test_negative);
  return pt_test_finish();
}
