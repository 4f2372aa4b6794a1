/* Vector compute ops (micro-isa 06 unary, 07 binary, 08 vector-scalar, 11 compare/select)
 * against a naive reference written here from the spec formulas: lanes are assembled byte by
 * byte, integers computed in 64 bits and truncated, floats computed in double and rounded to
 * the lane type by a rounding routine of this file. Every op runs on every element type
 * (the illegal ones must fail with vec.dtype), with full, empty, prefix and random masks
 * (random masks also set the bits inside a lane that must be ignored), special values, and a
 * destination full of garbage, so inactive lanes (0) and every byte of the results are
 * checked. Then one negative test per rule. */
#include <math.h>
#include <string.h>

#include "core/dtype.h"
#include "isa/vec_lanes.h"
#include "harness.h"
#include "ptosim/ptosim.h"

static unsigned long long seed = 0x7ec0a417ull;
static uint64_t rnd64(void) { return pt_rand_u64(&seed); }

static ptosim_machine *mach;
static ptosim_core *core;

/* ---- element types --------------------------------------------------------------------- */

static const ptosim_dtype ALL[] = {PTOSIM_DT_I8,  PTOSIM_DT_U8,  PTOSIM_DT_I16,    PTOSIM_DT_U16,    PTOSIM_DT_I32,
                                   PTOSIM_DT_U32, PTOSIM_DT_I64, PTOSIM_DT_U64,    PTOSIM_DT_F16,    PTOSIM_DT_BF16,
                                   PTOSIM_DT_F32, PTOSIM_DT_F8E4M3, PTOSIM_DT_F8E5M2, PTOSIM_DT_HIF8, PTOSIM_DT_F8E8M0};
#define NALL (sizeof ALL / sizeof ALL[0])
#define BIT(t) (1u << (t))
#define S_INT (BIT(PTOSIM_DT_I8) | BIT(PTOSIM_DT_I16) | BIT(PTOSIM_DT_I32))
#define U_INT (BIT(PTOSIM_DT_U8) | BIT(PTOSIM_DT_U16) | BIT(PTOSIM_DT_U32))
#define INTS (S_INT | U_INT)
#define INT64 (BIT(PTOSIM_DT_I64) | BIT(PTOSIM_DT_U64))
#define MUL_INTS (BIT(PTOSIM_DT_I16) | BIT(PTOSIM_DT_U16) | BIT(PTOSIM_DT_I32) | BIT(PTOSIM_DT_U32))
#define F16F32 (BIT(PTOSIM_DT_F16) | BIT(PTOSIM_DT_F32))
#define FLOATS (F16F32 | BIT(PTOSIM_DT_BF16))
#define FP8 (BIT(PTOSIM_DT_F8E4M3) | BIT(PTOSIM_DT_F8E5M2) | BIT(PTOSIM_DT_HIF8) | BIT(PTOSIM_DT_F8E8M0))
#define EVERY (INTS | INT64 | FLOATS | FP8)

static unsigned esize(ptosim_dtype t) {
  switch (t) {
  case PTOSIM_DT_I16: case PTOSIM_DT_U16: case PTOSIM_DT_F16: case PTOSIM_DT_BF16: return 2;
  case PTOSIM_DT_I32: case PTOSIM_DT_U32: case PTOSIM_DT_F32: return 4;
  case PTOSIM_DT_I64: case PTOSIM_DT_U64: return 8;
  default: return 1;
  }
}
static int is_float(ptosim_dtype t) { return t == PTOSIM_DT_F16 || t == PTOSIM_DT_BF16 || t == PTOSIM_DT_F32; }
static int is_signed(ptosim_dtype t) {
  return t == PTOSIM_DT_I8 || t == PTOSIM_DT_I16 || t == PTOSIM_DT_I32 || t == PTOSIM_DT_I64;
}
static uint64_t wmask(unsigned e) { return e == 8 ? ~0ull : (1ull << (8 * e)) - 1; }

/* ---- lanes, byte by byte --------------------------------------------------------------- */

static uint64_t get(const ptosim_vreg *r, unsigned i, unsigned e) {
  uint64_t v = 0;
  for (unsigned k = e; k-- > 0;) v = v << 8 | r->b[i * e + k];
  return v;
}
static void put(ptosim_vreg *r, unsigned i, unsigned e, uint64_t v) {
  for (unsigned k = 0; k < e; k++) r->b[i * e + k] = (uint8_t)(v >> (8 * k));
}
static int lane_on(const ptosim_vmask *m, unsigned i, unsigned e) { return m->b[i * e / 8] >> (i * e % 8) & 1; }

/* Integer value of lane bits v of type t. */
static int64_t ival(ptosim_dtype t, uint64_t v) {
  unsigned w = 8 * esize(t);
  if (is_signed(t) && w < 64 && (v >> (w - 1) & 1)) return (int64_t)(v | ~wmask(esize(t)));
  return (int64_t)v;
}

static double fval(ptosim_dtype t, uint64_t v) {
  if (t == PTOSIM_DT_F16) return pt_f16_to_f32((uint16_t)v);
  if (t == PTOSIM_DT_BF16) return pt_bf16_to_f32((uint16_t)v);
  float f;
  uint32_t b = (uint32_t)v;
  memcpy(&f, &b, 4);
  return f;
}

/* Round v to type t, nearest-even, as bits (NaN: the positive quiet NaN). f16 / bf16: round
 * to a multiple of the quantum 2^(exponent - mantissa bits) of v's binade, then encode. */
static uint64_t fbits(ptosim_dtype t, double v) {
  if (isnan(v)) return t == PTOSIM_DT_F32 ? 0x7FC00000u : t == PTOSIM_DT_F16 ? 0x7E00u : 0x7FC0u;
  if (t == PTOSIM_DT_F32) {
    float f = (float)v;
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
  }
  int mant = t == PTOSIM_DT_F16 ? 10 : 7, emin = t == PTOSIM_DT_F16 ? -14 : -126;
  double max = t == PTOSIM_DT_F16 ? 65504.0 : ldexp(255.0 / 128.0, 127);
  double r = v;
  if (v != 0 && !isinf(v)) {
    int e = ilogb(v) < emin ? emin : ilogb(v);
    double q = ldexp(1.0, e - mant);
    r = nearbyint(v / q) * q;
    if (fabs(r) > max) r = copysign(INFINITY, v);
  }
  return t == PTOSIM_DT_F16 ? pt_f32_to_f16((float)r, PT_RND_RINT, PT_SAT_OFF)
                            : pt_f32_to_bf16((float)r, PT_RND_RINT, PT_SAT_OFF);
}

/* ---- inputs ---------------------------------------------------------------------------- */

static uint64_t special(ptosim_dtype t) {
  static const uint32_t f32s[] = {0x7FC00000, 0xFFC00001, 0x7F800000, 0xFF800000, 0x00000000, 0x80000000,
                                  0x00000001, 0x807FFFFF, 0x7F7FFFFF, 0x3F800000, 0xBF800000, 0x3F000000};
  static const uint16_t f16s[] = {0x7E00, 0xFE01, 0x7C00, 0xFC00, 0x0000, 0x8000,
                                  0x0001, 0x83FF, 0x7BFF, 0x3C00, 0xBC00, 0x3800};
  static const uint16_t bf16s[] = {0x7FC0, 0xFFC1, 0x7F80, 0xFF80, 0x0000, 0x8000,
                                   0x0001, 0x807F, 0x7F7F, 0x3F80, 0xBF80, 0x3F00};
  unsigned k = (unsigned)(rnd64() % 12);
  if (t == PTOSIM_DT_F32) return f32s[k];
  if (t == PTOSIM_DT_F16) return f16s[k];
  if (t == PTOSIM_DT_BF16) return bf16s[k];
  uint64_t w = wmask(esize(t)), top = 1ull << (8 * esize(t) - 1);
  const uint64_t ints[] = {0, 1, w, top, top - 1, top + 1, 2, w - 1, 0x55, 0xAA, 7, 3};
  return ints[k] & w;
}

/* One lane of type t: raw random bits, a special value, or a small number. */
static uint64_t value(ptosim_dtype t) {
  switch (rnd64() % 4) {
  case 0: return special(t);
  case 1: return is_float(t) ? fbits(t, (double)((int64_t)(rnd64() % 64) - 32) / 4.0) : rnd64() % 9;
  default: return rnd64() & wmask(esize(t));
  }
}

static void fill(ptosim_vreg *r, ptosim_dtype t) {
  for (unsigned i = 0; i < 256 / esize(t); i++) put(r, i, esize(t), value(t));
}
static void garbage(ptosim_vreg *r) {
  for (unsigned i = 0; i < 256; i++) r->b[i] = (uint8_t)rnd64();
}

/* Mask pattern k: 0 all bits, 1 none, 2 random bits, 3 the first n lanes (lane bits only). */
static void make_mask(ptosim_vmask *m, int k, unsigned e) {
  memset(m, k == 0 ? 0xFF : 0, sizeof *m);
  if (k == 2)
    for (unsigned j = 0; j < 32; j++) m->b[j] = (uint8_t)rnd64();
  if (k == 3)
    for (unsigned i = 0, n = (unsigned)(rnd64() % (256 / e)); i < n; i++) m->b[i * e / 8] |= (uint8_t)(1u << (i * e % 8));
}

/* ---- reference formulas ---------------------------------------------------------------- */

enum { R_ADD, R_SUB, R_MUL, R_DIV, R_MAX, R_MIN, R_AND, R_OR, R_XOR, R_SHL, R_SHR, R_LRELU,
       R_ABS, R_NEG, R_NOT, R_EXP, R_LN, R_SQRT, R_RSQRT, R_REC, R_RELU, R_MOV, R_BCNT, R_CLS };

/* Result bits of op on lanes a, b (bits) of type t. */
static uint64_t ref(int op, ptosim_dtype t, uint64_t a, uint64_t b) {
  unsigned e = esize(t), w = 8 * e;
  uint64_t m = wmask(e), sign = 1ull << (w - 1);
  if (op == R_AND) return a & b;
  if (op == R_OR) return a | b;
  if (op == R_XOR) return a ^ b;
  if (op == R_NOT) return ~a & m;
  if (op == R_MOV) return a;
  if (is_float(t)) {
    double x = fval(t, a), y = fval(t, b);
    switch (op) {
    case R_ADD: return fbits(t, x + y);
    case R_SUB: return fbits(t, x - y);
    case R_MUL: return fbits(t, x * y);
    case R_DIV: return fbits(t, x / y);
    case R_MAX:
    case R_MIN:
      if (isnan(x) || isnan(y)) return fbits(t, NAN);
      if (x == 0 && y == 0) return op == R_MIN ? (a | b) : (a & b); /* -0 below +0: sign bit or / and */
      return op == R_MAX ? (x > y ? a : b) : (x < y ? a : b);
    case R_LRELU: return x >= 0 ? a : fbits(t, y * x);
    case R_ABS: return a & ~sign;
    case R_NEG: return a ^ sign;
    case R_EXP: return fbits(t, exp(x));
    case R_LN: return fbits(t, log(x));
    case R_SQRT: return fbits(t, sqrt(x));
    case R_RSQRT: return fbits(t, 1.0 / sqrt(x));
    case R_REC: return fbits(t, 1.0 / x);
    case R_RELU: return isnan(x) || x <= 0 ? 0 : a;
    }
  }
  int64_t x = ival(t, a), y = ival(t, b);
  uint64_t c = b; /* shift count: unsigned lane value */
  switch (op) {
  case R_ADD: return (a + b) & m;
  case R_SUB: return (a - b) & m;
  case R_MUL: return (a * b) & m;
  case R_MAX: return is_signed(t) ? (x >= y ? a : b) : (a >= b ? a : b);
  case R_MIN: return is_signed(t) ? (x <= y ? a : b) : (a <= b ? a : b);
  case R_SHL: return c >= w ? 0 : (a << c) & m;
  case R_SHR:
    if (!is_signed(t)) return c >= w ? 0 : a >> c;
    return (uint64_t)(x >> (c >= w ? w - 1 : c)) & m;
  case R_ABS: return is_signed(t) && x < 0 ? (0 - a) & m : a;
  case R_NEG: return (0 - a) & m;
  case R_RELU: return x > 0 ? a : 0;
  case R_BCNT: {
    uint64_t n = 0;
    for (unsigned k = 0; k < w; k++) n += a >> k & 1;
    return n;
  }
  case R_CLS: {
    uint64_t n = 0;
    while (n < w && (a >> (w - 1 - n) & 1) == (a >> (w - 1) & 1)) n++;
    return n;
  }
  }
  return 0;
}

/* Ops whose f32 / f16 library results may differ by one unit in the last place. */
static int ulp_ok(int op, ptosim_dtype t, uint64_t got, uint64_t want) {
  if (!is_float(t) || (op != R_EXP && op != R_LN && op != R_RSQRT)) return got == want;
  int64_t d = (int64_t)got - (int64_t)want;
  return got == want || ((got ^ want) >> (8 * esize(t) - 1) == 0 && (d == 1 || d == -1));
}

/* ---- running one op over every type and mask ------------------------------------------- */

typedef enum { K_UNARY, K_BINARY, K_SCALAR, K_SHIFTS } shape;

typedef struct {
  const char *name;
  ptosim_opcode op;
  shape k;
  int ref;
  unsigned legal; /* BIT(dtype) set of the legal element types */
} opcase;

static const char *rule(void) { return ptosim_last_diag(mach)->rule; }

/* Shift-count lanes: mostly in [0, width + 2], sometimes raw bits. */
static void fill_counts(ptosim_vreg *r, ptosim_dtype t) {
  unsigned e = esize(t);
  for (unsigned i = 0; i < 256 / e; i++) put(r, i, e, rnd64() % 4 ? rnd64() % (8 * e + 3) : rnd64() & wmask(e));
}

static void run_case(const opcase *c) {
  for (unsigned ti = 0; ti < NALL; ti++) {
    ptosim_dtype t = ALL[ti];
    unsigned e = esize(t), n = 256 / e;
    int legal = (c->legal & BIT(t)) != 0;
    for (int rep = 0; rep < (legal ? 24 : 1); rep++) {
      ptosim_vreg a, b, d;
      ptosim_vmask m;
      fill(&a, t);
      if (c->k == K_SHIFTS || c->ref == R_SHL || c->ref == R_SHR) fill_counts(&b, t); else fill(&b, t);
      garbage(&d);
      make_mask(&m, rep % 4, e);
      ptosim_scalar s = {t, get(&b, 0, e)};
      if (c->k == K_SHIFTS) s = (ptosim_scalar){PTOSIM_DT_I16, rnd64() % 3 ? rnd64() % (8 * e + 3) : rnd64() & 0xFFFF};
      unsigned bits = rep % 2 ? (e > 4 ? 32 : 8 * e) : 0;
      ptosim_status st;
      int alias = rep == 5; /* the result overwrites its first source */
      ptosim_vreg a0 = a;
      ptosim_vreg *dst = alias ? &a : &d;
      if (c->k == K_UNARY) {
        ptosim_vunary_params p = {dst, &a, &m, t, bits};
        st = ptosim_exec(core, c->op, &p, NULL);
      } else if (c->k == K_BINARY) {
        ptosim_vbinary_params p = {dst, &a, &b, &m, t, bits};
        st = ptosim_exec(core, c->op, &p, NULL);
      } else {
        ptosim_vscalar_params p = {dst, &a, s, &m, t, bits};
        st = ptosim_exec(core, c->op, &p, NULL);
      }
      if (!legal) {
        CHECK_MSG(st == PTOSIM_E_VERIFY && !strcmp(rule(), "vec.dtype"), "%s on %s: %d %s", c->name, pt_dtype_name(t),
                  st, rule());
        continue;
      }
      CHECK_MSG(st == PTOSIM_OK, "%s on %s: %s", c->name, pt_dtype_name(t), ptosim_last_diag(mach)->msg);
      int bad = 0;
      for (unsigned i = 0; i < n && bad < 3; i++) {
        uint64_t y = c->k == K_UNARY ? 0 : c->k == K_BINARY ? get(&b, i, e) : s.bits & wmask(e);
        if (c->k == K_SHIFTS) y = s.bits & 0xFFFF; /* the i16 count as unsigned */
        uint64_t want = lane_on(&m, i, e) ? ref(c->ref, t, get(&a0, i, e), y) : 0, got = get(dst, i, e);
        if (!ulp_ok(c->ref, t, got, want)) {
          bad++;
          CHECK_MSG(0, "%s %s lane %u: a=%#llx b=%#llx got %#llx want %#llx", c->name, pt_dtype_name(t), i,
                    (unsigned long long)get(&a0, i, e), (unsigned long long)y, (unsigned long long)got,
                    (unsigned long long)want);
        }
      }
      pt_test_checks++;
    }
  }
}

static const opcase CASES[] = {
    /* 07 binary */
    {"vadd", PTOSIM_OP_vadd, K_BINARY, R_ADD, INTS | INT64 | FLOATS},
    {"vsub", PTOSIM_OP_vsub, K_BINARY, R_SUB, INTS | INT64 | FLOATS},
    {"vmul", PTOSIM_OP_vmul, K_BINARY, R_MUL, MUL_INTS | FLOATS},
    {"vdiv", PTOSIM_OP_vdiv, K_BINARY, R_DIV, F16F32},
    {"vmax", PTOSIM_OP_vmax, K_BINARY, R_MAX, INTS | FLOATS},
    {"vmin", PTOSIM_OP_vmin, K_BINARY, R_MIN, INTS | FLOATS},
    {"vand", PTOSIM_OP_vand, K_BINARY, R_AND, INTS | FLOATS | FP8},
    {"vor", PTOSIM_OP_vor, K_BINARY, R_OR, INTS | FLOATS | FP8},
    {"vxor", PTOSIM_OP_vxor, K_BINARY, R_XOR, INTS | FLOATS | FP8},
    {"vshl", PTOSIM_OP_vshl, K_BINARY, R_SHL, INTS},
    {"vshr", PTOSIM_OP_vshr, K_BINARY, R_SHR, INTS},
    /* 08 vector-scalar */
    {"vadds", PTOSIM_OP_vadds, K_SCALAR, R_ADD, INTS | FLOATS},
    {"vsubs", PTOSIM_OP_vsubs, K_SCALAR, R_SUB, INTS | FLOATS},
    {"vmuls", PTOSIM_OP_vmuls, K_SCALAR, R_MUL, MUL_INTS | FLOATS},
    {"vmaxs", PTOSIM_OP_vmaxs, K_SCALAR, R_MAX, INTS | FLOATS},
    {"vmins", PTOSIM_OP_vmins, K_SCALAR, R_MIN, INTS | FLOATS},
    {"vands", PTOSIM_OP_vands, K_SCALAR, R_AND, INTS | FLOATS},
    {"vors", PTOSIM_OP_vors, K_SCALAR, R_OR, INTS | FLOATS},
    {"vxors", PTOSIM_OP_vxors, K_SCALAR, R_XOR, INTS | FLOATS},
    {"vlrelu", PTOSIM_OP_vlrelu, K_SCALAR, R_LRELU, F16F32},
    {"vshls", PTOSIM_OP_vshls, K_SHIFTS, R_SHL, INTS},
    {"vshrs", PTOSIM_OP_vshrs, K_SHIFTS, R_SHR, INTS},
    /* 06 unary */
    {"vabs", PTOSIM_OP_vabs, K_UNARY, R_ABS, INTS | F16F32},
    {"vneg", PTOSIM_OP_vneg, K_UNARY, R_NEG, INTS | F16F32},
    {"vnot", PTOSIM_OP_vnot, K_UNARY, R_NOT, INTS | FLOATS},
    {"vexp", PTOSIM_OP_vexp, K_UNARY, R_EXP, F16F32},
    {"vln", PTOSIM_OP_vln, K_UNARY, R_LN, F16F32},
    {"vsqrt", PTOSIM_OP_vsqrt, K_UNARY, R_SQRT, F16F32},
    {"vrsqrt", PTOSIM_OP_vrsqrt, K_UNARY, R_RSQRT, F16F32},
    {"vrec", PTOSIM_OP_vrec, K_UNARY, R_REC, F16F32},
    {"vrelu", PTOSIM_OP_vrelu, K_UNARY, R_RELU, BIT(PTOSIM_DT_I32) | F16F32},
    {"vmov", PTOSIM_OP_vmov, K_UNARY, R_MOV, EVERY},
    {"vbcnt", PTOSIM_OP_vbcnt, K_UNARY, R_BCNT, INTS},
    {"vcls", PTOSIM_OP_vcls, K_UNARY, R_CLS, INTS},
};

static void test_binary(void) {
  for (unsigned i = 0; i < 11; i++) run_case(&CASES[i]);
}
static void test_vec_scalar(void) {
  for (unsigned i = 11; i < 22; i++) run_case(&CASES[i]);
}
static void test_unary(void) {
  for (unsigned i = 22; i < sizeof CASES / sizeof CASES[0]; i++) run_case(&CASES[i]);
}

/* ---- carry chains ---------------------------------------------------------------------- */

static void test_carry(void) {
  static const ptosim_opcode ops[4] = {PTOSIM_OP_vaddc, PTOSIM_OP_vsubc, PTOSIM_OP_vaddcs, PTOSIM_OP_vsubcs};
  for (int o = 0; o < 4; o++)
    for (unsigned ti = 0; ti < NALL; ti++) {
      ptosim_dtype t = ALL[ti];
      int legal = t == PTOSIM_DT_I32 || t == PTOSIM_DT_U32, sub = o & 1, has_cin = o >= 2;
      for (int rep = 0; rep < (legal ? 16 : 1); rep++) {
        ptosim_vreg a, b, d;
        ptosim_vmask m, cin, cout;
        fill(&a, PTOSIM_DT_U32);
        fill(&b, PTOSIM_DT_U32);
        garbage(&d);
        make_mask(&m, rep % 4, 4);
        make_mask(&cin, 2, 4);
        memset(&cout, 0xA5, sizeof cout);
        ptosim_vcarry_params p = {&d, &cout, &a, &b, has_cin ? &cin : NULL, &m, t, rep % 2 ? 32 : 0};
        ptosim_status st = ptosim_exec(core, ops[o], &p, NULL);
        if (!legal) {
          CHECK(st == PTOSIM_E_VERIFY && !strcmp(rule(), "vec.dtype"));
          continue;
        }
        CHECK(st == PTOSIM_OK);
        ptosim_vmask want_c;
        memset(&want_c, 0, sizeof want_c);
        int ok = 1;
        for (unsigned i = 0; i < 64; i++) {
          uint64_t x = get(&a, i, 4), y = get(&b, i, 4), want = 0;
          int cbit = has_cin ? lane_on(&cin, i, 4) : !!sub, carry = 0;
          if (lane_on(&m, i, 4)) {
            if (sub) { /* x - y - (1 - c), no borrow when x >= y + (1 - c) */
              want = (x - y - (uint64_t)(1 - cbit)) & 0xFFFFFFFFu;
              carry = x >= y + (uint64_t)(1 - cbit);
            } else {
              want = (x + y + (uint64_t)cbit) & 0xFFFFFFFFu;
              carry = x + y + (uint64_t)cbit > 0xFFFFFFFFu;
            }
          }
          if (carry) want_c.b[i / 2] |= (uint8_t)(i % 2 ? 0x10 : 0x01);
          ok &= get(&d, i, 4) == want;
        }
        CHECK_MSG(ok && !memcmp(&cout, &want_c, sizeof cout), "carry op %d on %s rep %d", o, pt_dtype_name(t), rep);
      }
    }
}

/* ---- compare / select ------------------------------------------------------------------ */

static int cmp_ref(ptosim_dtype t, int mode, uint64_t a, uint64_t b) {
  int lt, eq;
  if (is_float(t)) {
    double x = fval(t, a), y = fval(t, b);
    if (isnan(x) || isnan(y)) return mode == PTOSIM_VCMP_NE;
    lt = x < y, eq = x == y;
  } else {
    lt = is_signed(t) ? ival(t, a) < ival(t, b) : a < b;
    eq = a == b;
  }
  switch (mode) {
  case PTOSIM_VCMP_EQ: return eq;
  case PTOSIM_VCMP_NE: return !eq;
  case PTOSIM_VCMP_LT: return lt;
  case PTOSIM_VCMP_LE: return lt || eq;
  case PTOSIM_VCMP_GT: return !lt && !eq;
  default: return !lt;
  }
}

static void test_compare(void) {
  for (int scalar = 0; scalar < 2; scalar++)
    for (int mode = 0; mode < PTOSIM_VCMP_COUNT; mode++)
      for (unsigned ti = 0; ti < NALL; ti++) {
        ptosim_dtype t = ALL[ti];
        unsigned e = esize(t), n = 256 / e;
        int legal = ((INTS | FLOATS) & BIT(t)) != 0;
        for (int rep = 0; rep < (legal ? 12 : 1); rep++) {
          ptosim_vreg a, b;
          ptosim_vmask seed_m, d;
          fill(&a, t);
          fill(&b, t);
          if (rep % 3 == 0) b = a; /* equal lanes */
          make_mask(&seed_m, rep % 4, e);
          memset(&d, 0x5A, sizeof d);
          ptosim_scalar s = {t, get(&b, 0, e)};
          if (scalar && rep % 2 && !is_float(t)) s.dtype = is_signed(t) ? t + 1 : t - 1; /* other signedness */
          ptosim_status st;
          if (scalar) {
            ptosim_vcmps_params p = {&d, &a, s, &seed_m, (ptosim_vcmp_mode)mode, t, rep % 2 ? 8 * e : 0};
            st = ptosim_exec(core, PTOSIM_OP_vcmps, &p, NULL);
          } else {
            ptosim_vcmp_params p = {&d, &a, &b, &seed_m, (ptosim_vcmp_mode)mode, t, rep % 2 && e <= 4 ? 8 * e : 0};
            st = ptosim_exec(core, PTOSIM_OP_vcmp, &p, NULL);
          }
          if (!legal) {
            CHECK_MSG(st == PTOSIM_E_VERIFY && !strcmp(rule(), "vec.dtype"), "cmp on %s: %s", pt_dtype_name(t), rule());
            continue;
          }
          CHECK_MSG(st == PTOSIM_OK, "cmp %s: %s", pt_dtype_name(t), ptosim_last_diag(mach)->msg);
          ptosim_vmask want;
          memset(&want, 0, sizeof want);
          for (unsigned i = 0; i < n; i++)
            if (lane_on(&seed_m, i, e) && cmp_ref(t, mode, get(&a, i, e), scalar ? s.bits & wmask(e) : get(&b, i, e)))
              want.b[i * e / 8] |= (uint8_t)(1u << (i * e % 8));
          CHECK_MSG(!memcmp(&d, &want, sizeof d), "%s mode %d on %s", scalar ? "vcmps" : "vcmp", mode, pt_dtype_name(t));
        }
      }
}

static void test_select(void) {
  for (unsigned ti = 0; ti < NALL; ti++) {
    ptosim_dtype t = ALL[ti];
    unsigned e = esize(t), n = 256 / e;
    for (int rep = 0; rep < 8; rep++) {
      ptosim_vreg a, b, d, idx;
      ptosim_vmask m;
      fill(&a, t);
      fill(&b, t);
      garbage(&d);
      make_mask(&m, rep % 4, e);
      ptosim_vreg a0 = a;
      ptosim_vbinary_params p = {rep == 2 ? &a : &d, &a, &b, &m, t, 0};
      CHECK(ptosim_exec(core, PTOSIM_OP_vsel, &p, NULL) == PTOSIM_OK);
      int ok = 1;
      for (unsigned i = 0; i < n; i++) ok &= get(p.dst, i, e) == get(lane_on(&m, i, e) ? &a0 : &b, i, e);
      CHECK_MSG(ok, "vsel on %s", pt_dtype_name(t));
      /* vselr: a permutation-like index vector of lanes below n */
      for (unsigned i = 0; i < n; i++) put(&idx, i, e, rnd64() % n);
      ptosim_vselr_params q = {&d, &a0, &idx, t};
      ptosim_status st = ptosim_exec(core, PTOSIM_OP_vselr, &q, NULL);
      if (e > 4) {
        CHECK(st == PTOSIM_E_VERIFY && !strcmp(rule(), "vec.dtype"));
        continue;
      }
      CHECK(st == PTOSIM_OK);
      ok = 1;
      for (unsigned i = 0; i < n; i++) ok &= get(&d, i, e) == get(&a0, (unsigned)get(&idx, i, e), e);
      CHECK_MSG(ok, "vselr on %s", pt_dtype_name(t));
    }
  }
}

/* ---- rules ----------------------------------------------------------------------------- */

static void expect(ptosim_status st, ptosim_status want, const char *r) {
  CHECK_MSG(st == want && !strcmp(rule(), r), "want %s, got status %d rule %s", r, st, rule());
}

static void test_rules(void) {
  ptosim_vreg a, b, d;
  ptosim_vmask m, pm;
  fill(&a, PTOSIM_DT_F32);
  fill(&b, PTOSIM_DT_F32);
  make_mask(&m, 0, 4);
  ptosim_vbinary_params bp = {&d, &a, &b, &m, PTOSIM_DT_F32, 16};
  expect(ptosim_exec(core, PTOSIM_OP_vadd, &bp, NULL), PTOSIM_E_VERIFY, "vec.mask_gran");
  bp.mask_bits = 32;
  bp.src1 = NULL;
  expect(ptosim_exec(core, PTOSIM_OP_vadd, &bp, NULL), PTOSIM_E_VERIFY, "vec.operand");
  ptosim_vcarry_params cp = {&d, &pm, &a, &b, NULL, &m, PTOSIM_DT_I32, 0};
  expect(ptosim_exec(core, PTOSIM_OP_vaddcs, &cp, NULL), PTOSIM_E_VERIFY, "vec.operand");
  cp.carry_in = &m;
  cp.mask_bits = 8;
  expect(ptosim_exec(core, PTOSIM_OP_vsubcs, &cp, NULL), PTOSIM_E_VERIFY, "vec.mask_gran");
  ptosim_vscalar_params sp = {&d, &a, {PTOSIM_DT_F16, 0x3C00}, &m, PTOSIM_DT_F32, 0};
  expect(ptosim_exec(core, PTOSIM_OP_vadds, &sp, NULL), PTOSIM_E_VERIFY, "vec.scalar_type");
  sp.dtype = PTOSIM_DT_I16;
  sp.scalar.dtype = PTOSIM_DT_I32;
  expect(ptosim_exec(core, PTOSIM_OP_vmuls, &sp, NULL), PTOSIM_E_VERIFY, "vec.scalar_type");
  expect(ptosim_exec(core, PTOSIM_OP_vshls, &sp, NULL), PTOSIM_E_VERIFY, "vec.scalar_type");
  ptosim_vcmp_params cmp = {&pm, &a, &b, &m, PTOSIM_VCMP_COUNT, PTOSIM_DT_F32, 0};
  expect(ptosim_exec(core, PTOSIM_OP_vcmp, &cmp, NULL), PTOSIM_E_VERIFY, "vec.cmp_mode");
  ptosim_vcmps_params cmps = {&pm, &a, {PTOSIM_DT_I32, 0}, &m, PTOSIM_VCMP_LT, PTOSIM_DT_F32, 0};
  expect(ptosim_exec(core, PTOSIM_OP_vcmps, &cmps, NULL), PTOSIM_E_VERIFY, "vec.scalar_type");
  /* vselr: an index at the lane count faults, nothing written */
  ptosim_vreg idx, d0;
  memset(&idx, 0, sizeof idx);
  put(&idx, 5, 2, 128);
  garbage(&d);
  d0 = d;
  ptosim_vselr_params sr = {&d, &a, &idx, PTOSIM_DT_F16};
  expect(ptosim_exec(core, PTOSIM_OP_vselr, &sr, NULL), PTOSIM_E_FAULT, "vec.index");
  CHECK(!memcmp(&d, &d0, sizeof d));
  expect(ptosim_exec(core, PTOSIM_OP_vselrv2, &sr, NULL), PTOSIM_E_UNSUPPORTED, "vec.unspecified");
  /* every op of this family on the a2a3 profile */
  ptosim_machine *m2 = ptosim_machine_new(PTOSIM_TARGET_A2A3, 1);
  ptosim_core *c2 = ptosim_core_of(m2, 0, PTOSIM_AIV0);
  ptosim_vunary_params up = {&d, &a, &m, PTOSIM_DT_F32, 0};
  ptosim_vscalar_params sp2 = {&d, &a, {PTOSIM_DT_F32, 0}, &m, PTOSIM_DT_F32, 0};
  ptosim_vcarry_params cp2 = {&d, &pm, &a, &b, &m, &m, PTOSIM_DT_U32, 0};
  ptosim_vcmp_params cmp2 = {&pm, &a, &b, &m, PTOSIM_VCMP_EQ, PTOSIM_DT_F32, 0};
  ptosim_vcmps_params cmps2 = {&pm, &a, {PTOSIM_DT_F32, 0}, &m, PTOSIM_VCMP_EQ, PTOSIM_DT_F32, 0};
  ptosim_vselr_params sr2 = {&d, &a, &idx, PTOSIM_DT_F16};
  bp.src1 = &b;
  for (unsigned i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
    const void *p = CASES[i].k == K_UNARY ? (const void *)&up : CASES[i].k == K_BINARY ? (const void *)&bp : (const void *)&sp2;
    if (CASES[i].k == K_SHIFTS) continue;
    ptosim_status st = ptosim_exec(c2, CASES[i].op, p, NULL);
    CHECK_MSG(st == PTOSIM_E_VERIFY && !strcmp(ptosim_last_diag(m2)->rule, "vec.target"), "%s on a2a3", CASES[i].name);
  }
  const ptosim_opcode more[] = {PTOSIM_OP_vaddc, PTOSIM_OP_vsubc, PTOSIM_OP_vaddcs, PTOSIM_OP_vsubcs, PTOSIM_OP_vcmp,
                                PTOSIM_OP_vcmps, PTOSIM_OP_vsel, PTOSIM_OP_vselr, PTOSIM_OP_vselrv2};
  const void *mp[] = {&cp2, &cp2, &cp2, &cp2, &cmp2, &cmps2, &bp, &sr2, &sr2};
  for (unsigned i = 0; i < 9; i++) {
    ptosim_status st = ptosim_exec(c2, more[i], mp[i], NULL);
    CHECK_MSG(st == PTOSIM_E_VERIFY && !strcmp(ptosim_last_diag(m2)->rule, "vec.target"), "op %u on a2a3", i);
  }
  ptosim_vscalar_params sh = {&d, &a, {PTOSIM_DT_I16, 3}, &m, PTOSIM_DT_I32, 0};
  CHECK(ptosim_exec(c2, PTOSIM_OP_vshls, &sh, NULL) == PTOSIM_E_VERIFY && !strcmp(ptosim_last_diag(m2)->rule, "vec.target"));
  CHECK(ptosim_exec(c2, PTOSIM_OP_vshrs, &sh, NULL) == PTOSIM_E_VERIFY && !strcmp(ptosim_last_diag(m2)->rule, "vec.target"));
  ptosim_machine_free(m2);
}

/* ---- values the corpus goldens pin down ------------------------------------------------ */

/* vpto test/vpto/cases/micro-op: vabs-i16-signed-overflow-edge (|-32768| = -32768),
 * vmin-f32-exceptional (NaN propagates), vshr/vshl-shift-boundary (count 15 on u16),
 * vsubc-borrow-boundary (carry = no borrow, bit 4i of the b32 predicate). */
static void test_goldens(void) {
  ptosim_vreg a, b, d;
  ptosim_vmask all, c;
  memset(&all, 0xFF, sizeof all);
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  put(&a, 0, 2, 0x8000);
  ptosim_vunary_params up = {&d, &a, &all, PTOSIM_DT_I16, 16};
  CHECK(ptosim_vabs(core, &up) == PTOSIM_OK && get(&d, 0, 2) == 0x8000);
  float nan = NAN, one = 1.0f;
  memcpy(a.b, &nan, 4);
  memcpy(b.b, &one, 4);
  ptosim_vbinary_params bp = {&d, &a, &b, &all, PTOSIM_DT_F32, 32};
  CHECK(ptosim_vmin(core, &bp) == PTOSIM_OK && get(&d, 0, 4) == 0x7FC00000u);
  CHECK(ptosim_vmax(core, &bp) == PTOSIM_OK && get(&d, 0, 4) == 0x7FC00000u);
  put(&a, 0, 2, 0xFFFF);
  ptosim_vscalar_params sp = {&d, &a, {PTOSIM_DT_I16, 15}, &all, PTOSIM_DT_U16, 16};
  CHECK(ptosim_vshls(core, &sp) == PTOSIM_OK && get(&d, 0, 2) == 0x8000);
  CHECK(ptosim_vshrs(core, &sp) == PTOSIM_OK && get(&d, 0, 2) == 1);
  memset(&a, 0, sizeof a);
  put(&b, 0, 4, 1); /* lane 0: 0 - 1 borrows; lane 1: 0 - 0 does not */
  ptosim_vcarry_params cp = {&d, &c, &a, &b, NULL, &all, PTOSIM_DT_U32, 32};
  CHECK(ptosim_vsubc(core, &cp) == PTOSIM_OK && get(&d, 0, 4) == 0xFFFFFFFFu && c.b[0] == 0x10);
  CHECK(ptosim_vaddc(core, &cp) == PTOSIM_OK && c.b[0] == 0x00);
  /* signed zeros: vmax(-0, +0) = +0, vmin(+0, -0) = -0, in either operand order */
  for (int k = 0; k < 2; k++) {
    put(&a, 0, 4, k ? 0x80000000u : 0);
    put(&b, 0, 4, k ? 0 : 0x80000000u);
    CHECK(ptosim_vmax(core, &bp) == PTOSIM_OK && get(&d, 0, 4) == 0);
    CHECK(ptosim_vmin(core, &bp) == PTOSIM_OK && get(&d, 0, 4) == 0x80000000u);
  }
  /* f16 vor: bit-level, as vor-f16 (0x7c00 | 0x0001 = a NaN pattern kept as is) */
  put(&a, 0, 2, 0x7C00);
  put(&b, 0, 2, 0x0001);
  bp.dtype = PTOSIM_DT_F16;
  bp.mask_bits = 16;
  CHECK(ptosim_vor(core, &bp) == PTOSIM_OK && get(&d, 0, 2) == 0x7C01);
}

/* The lane loops' inline f16 / bf16 conversions (vec_lanes.h) agree with core/dtype.c: every
 * f16 / bf16 pattern to f32, and f32 -> f16 / bf16 on a sweep of 2^32 / 4093 patterns plus
 * the neighbourhoods of the f16 rounding boundaries (NaN inputs excluded: the stores handle them). */
static void test_conversions(void) {
  int bad = 0;
  for (uint32_t h = 0; h < 0x10000u; h++) {
    float f = pt_vl_f16_to_f32((uint16_t)h), g = pt_f16_to_f32((uint16_t)h);
    bad += memcmp(&f, &g, 4) != 0;
    f = pt_vl_bf16_to_f32((uint16_t)h), g = pt_bf16_to_f32((uint16_t)h);
    bad += memcmp(&f, &g, 4) != 0;
  }
  static const uint32_t edges[] = {0x477FF000u, 0x38800000u, 0x33000000u, 0x33800000u, 0x7F7FFFFFu, 0x7F800000u};
  for (uint64_t k = 0; k < (1ull << 32) + 6 * 8192; k += k < (1ull << 32) ? 4093 : 1) {
    uint32_t b = k < (1ull << 32) ? (uint32_t)k : edges[(k - (1ull << 32)) / 8192] - 4096 + (uint32_t)(k % 8192);
    for (int s = 0; s < 2; s++, b ^= 0x80000000u) {
      float f;
      memcpy(&f, &b, 4);
      if (isnan(f)) continue;
      bad += pt_vl_to_f16(f) != pt_f32_to_f16(f, PT_RND_RINT, PT_SAT_OFF);
      bad += pt_vl_to_bf16(f) != pt_f32_to_bf16(f, PT_RND_RINT, PT_SAT_OFF);
    }
  }
  CHECK_MSG(bad == 0, "%d conversions differ", bad);
}

int main(void) {
  mach = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  core = ptosim_core_of(mach, 0, PTOSIM_AIV0);
  RUN(test_conversions);
  RUN(test_binary);
  RUN(test_vec_scalar);
  RUN(test_unary);
  RUN(test_carry);
  RUN(test_compare);
  RUN(test_select);
  RUN(test_rules);
  RUN(test_goldens);
  ptosim_machine_free(mach);
  return pt_test_finish();
}
