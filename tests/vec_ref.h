/* Reference helpers of the vector reduction / rearrangement tests, written from the lane
 * layout of include/ptosim/vreg.h and IEEE formats, independently of src/isa/vec_lanes.h:
 * element kinds, raw lane access, f16 decoding and rounding through frexp / ldexp, random
 * registers and masks. */
#ifndef PT_TEST_VEC_REF_H
#define PT_TEST_VEC_REF_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core/dtype.h" /* pt_dtype_name for messages */
#include "harness.h"
#include "ptosim/ptosim.h"

typedef struct kind {
  ptosim_dtype t;
  unsigned e;   /* lane bytes */
  int flt, sgn; /* float, signed */
} kind;

static const kind K_I8 = {PTOSIM_DT_I8, 1, 0, 1}, K_U8 = {PTOSIM_DT_U8, 1, 0, 0}, K_I16 = {PTOSIM_DT_I16, 2, 0, 1},
                  K_U16 = {PTOSIM_DT_U16, 2, 0, 0}, K_I32 = {PTOSIM_DT_I32, 4, 0, 1}, K_U32 = {PTOSIM_DT_U32, 4, 0, 0},
                  K_I64 = {PTOSIM_DT_I64, 8, 0, 1}, K_F16 = {PTOSIM_DT_F16, 2, 1, 1}, K_F32 = {PTOSIM_DT_F32, 4, 1, 1};

static inline unsigned lanes(const kind *k) { return 256 / k->e; }

/* Raw bits of lane i (e bytes, little-endian). */
static inline uint64_t raw(const ptosim_vreg *r, unsigned i, unsigned e) {
  uint64_t v = 0;
  for (unsigned b = 0; b < e; b++) v |= (uint64_t)r->b[i * e + b] << (8 * b);
  return v;
}
static inline void set_raw(ptosim_vreg *r, unsigned i, unsigned e, uint64_t v) {
  for (unsigned b = 0; b < e; b++) r->b[i * e + b] = (uint8_t)(v >> (8 * b));
}

static inline double f16_value(uint64_t h) {
  int ex = (int)(h >> 10 & 31), m = (int)(h & 1023);
  double mag = ex == 31 ? (m ? NAN : INFINITY) : ex == 0 ? ldexp(m, -24) : ldexp(1024 + m, ex - 25);
  return h >> 15 & 1 ? -mag : mag;
}

/* x rounded to the nearest f16 (ties to even), overflow to infinity. */
static inline double f16_round(double x) {
  if (isnan(x) || isinf(x) || x == 0) return x;
  int ex;
  frexp(x, &ex); /* |x| in [2^(ex-1), 2^ex): 11 significant bits, quantum 2^(ex-11), at least 2^-24 */
  int q = ex - 11 < -24 ? -24 : ex - 11;
  double r = ldexp(nearbyint(ldexp(x, -q)), q);
  return fabs(r) > 65504 ? copysign(INFINITY, x) : r;
}

/* Value of lane i of kind k (integers exact in a double up to 53 bits). */
static inline double value(const kind *k, const ptosim_vreg *r, unsigned i) {
  uint64_t v = raw(r, i, k->e);
  if (k->t == PTOSIM_DT_F16) return f16_value(v);
  if (k->t == PTOSIM_DT_F32) {
    float f;
    uint32_t w = (uint32_t)v;
    memcpy(&f, &w, 4);
    return f;
  }
  unsigned bits = 8 * k->e;
  if (k->sgn && bits < 64 && (v >> (bits - 1) & 1)) return (double)((int64_t)v - ((int64_t)1 << bits));
  return k->sgn ? (double)(int64_t)v : (double)v;
}

/* Lane i of kind k holds `want` exactly: integers as wrapped to the width, floats by value
 * and sign of zero, a NaN as the positive quiet NaN. */
static inline int lane_is(const kind *k, const ptosim_vreg *r, unsigned i, double want) {
  if (!k->flt) {
    uint64_t m = k->e == 8 ? ~0ull : (1ull << (8 * k->e)) - 1;
    return raw(r, i, k->e) == ((uint64_t)(int64_t)want & m);
  }
  if (isnan(want)) return raw(r, i, k->e) == (k->e == 2 ? 0x7E00u : 0x7FC00000u);
  double got = value(k, r, i);
  return got == want && signbit(got) == signbit(want);
}

/* A random register of kind k: integers any bits, floats small values of the type (f16: k/64
 * for |k| <= 1024, f32: 24-bit multiples of 2^-12) with some zeros of both signs. */
static inline void random_reg(const kind *k, ptosim_vreg *r, unsigned long long *seed) {
  for (unsigned i = 0; i < lanes(k); i++) {
    uint64_t u = pt_rand_u64(seed);
    if (!k->flt) {
      set_raw(r, i, k->e, u);
      continue;
    }
    double v = (u % 16 == 0) ? (u & 16 ? -0.0 : 0.0)
               : k->t == PTOSIM_DT_F16 ? (double)((int)(u >> 8 & 2047) - 1024) / 64
                                       : (double)((int64_t)(u >> 8 & 0xFFFFFF) - 0x800000) / 4096;
    if (k->t == PTOSIM_DT_F16) {
      uint16_t h = 0; /* encode the exactly representable v */
      if (signbit(v)) h = 0x8000;
      double a = fabs(v);
      if (a != 0) {
        int ex;
        frexp(a, &ex);
        h |= ex - 1 >= -14 ? (uint16_t)((ex - 1 + 15) << 10 | ((uint64_t)ldexp(a, 11 - ex) & 1023))
                           : (uint16_t)ldexp(a, 24);
      }
      set_raw(r, i, 2, h);
    } else {
      float f = (float)v;
      uint32_t w;
      memcpy(&w, &f, 4);
      set_raw(r, i, 4, w);
    }
  }
}

/* Lane i (of e bytes) active in m: bit i * e. */
static inline int on(const ptosim_vmask *m, unsigned i, unsigned e) { return m->b[i * e / 8] >> (i * e % 8) & 1; }

/* Masks by number: 0 all set, 1 none, 2 first lanes only (a tail), else random bits. */
static inline void mask_case(ptosim_vmask *m, int c, unsigned long long *seed) {
  for (unsigned j = 0; j < sizeof m->b; j++)
    m->b[j] = c == 0 ? 0xFF : c == 1 ? 0 : c == 2 ? (j < 11 ? 0xFF : j == 11 ? 0x07 : 0) : (uint8_t)pt_rand_u64(seed);
}

/* Load the text program src and run it on a fresh A5 machine with two GM buffers as its
 * pointer parameters; 1 when it loads and runs without error. */
static inline int run_program(const char *src, void *b0, size_t n0, void *b1, size_t n1) {
  ptosim_program *prog = pt_test_load(src, strlen(src));
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  ptosim_arg args[2];
  memset(args, 0, sizeof args);
  ptosim_gm_map(m, b0, n0, &args[0].gm_addr);
  ptosim_gm_map(m, b1, n1, &args[1].gm_addr);
  int ok = prog && ptosim_program_run(prog, m, args) == PTOSIM_OK;
  ptosim_machine_free(m);
  ptosim_program_free(prog);
  return ok;
}

#endif
