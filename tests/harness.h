/* Minimal test harness: each tests/test_*.c is one executable run by ctest.
 * CHECK records a failure and continues; the process exits non-zero if any check failed. */
#ifndef PT_TEST_HARNESS_H
#define PT_TEST_HARNESS_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptosim/program.h"

static int pt_test_failures;
static int pt_test_checks;

#define CHECK(cond)                                                                   \
  do {                                                                                \
    pt_test_checks++;                                                                 \
    if (!(cond)) {                                                                    \
      pt_test_failures++;                                                             \
      if (pt_test_failures <= 20)                                                     \
        fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);     \
    }                                                                                 \
  } while (0)

#define CHECK_MSG(cond, ...)                                                          \
  do {                                                                                \
    pt_test_checks++;                                                                 \
    if (!(cond)) {                                                                    \
      pt_test_failures++;                                                             \
      if (pt_test_failures <= 20) {                                                   \
        fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond);     \
        fprintf(stderr, __VA_ARGS__);                                                 \
        fputc('\n', stderr);                                                          \
      }                                                                               \
    }                                                                                 \
  } while (0)

/* Run a test function and print its name. */
#define RUN(fn)                                                                       \
  do {                                                                                \
    int before_ = pt_test_failures;                                                   \
    fn();                                                                             \
    fprintf(stderr, "%-48s %s\n", #fn, pt_test_failures == before_ ? "ok" : "FAIL"); \
  } while (0)

static inline int pt_test_finish(void) {
  fprintf(stderr, "%d checks, %d failures\n", pt_test_checks, pt_test_failures);
  return pt_test_failures ? 1 : 0;
}

/* The whole file at path, NUL-terminated (NULL if it cannot be read); free() it. */
static inline char *pt_test_slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0, k;
  char *buf = malloc(cap + 1);
  while (buf && (k = fread(buf + n, 1, cap - n, f)) > 0)
    if ((n += k) == cap) {
      char *nb = realloc(buf, (cap *= 2) + 1);
      if (!nb) free(buf);
      buf = nb;
    }
  fclose(f);
  if (buf) buf[n] = 0;
  *len = n;
  return buf;
}

/* Load the text program src (len bytes) for the module's target, its diagnostics
 * discarded; NULL on errors. */
static inline ptosim_program *pt_test_load(const char *src, size_t len) {
  FILE *devnull = fopen("/dev/null", "w");
  int nerr = 0;
  ptosim_program *p = ptosim_program_load("t.pto", src, len, NULL, -1, devnull, &nerr);
  fclose(devnull);
  return p;
}

/* e^x correctly rounded to f32, the reference for every exp (ptosim's is exp_f32.c): e^x in
 * x86's 80-bit long double (within 2^-63), rounded once; no f32 input has e^x within 2^-58
 * of an f32 halfway point (scripts/exhaustive_tile_elem.c checks all of them). */
static inline float pt_exp_ref(float x) { return (float)expl((long double)x); }

/* v to f16 toward zero, saturating (A5's vcvt f32 -> f16 ROUND_Z with RS_ENABLE): NaN -> 0,
 * beyond the largest finite value (infinities too) -> +-65504, else the significand cut to 11
 * bits (steps of 2^-24 below 2^-14). */
static inline double pt_f16_rz_sat_ref(double v) {
  if (isnan(v)) return 0;
  if (fabs(v) >= 65504) return copysign(65504, v);
  if (v == 0) return v;
  int e;
  frexp(v, &e); /* |v| = m 2^e, m in [0.5, 1) */
  int q = (e - 1 < -14 ? -14 : e - 1) - 10;
  return ldexp(trunc(ldexp(v, -q)), q);
}

/* Deterministic xorshift64* generator for test data. */
static inline unsigned long long pt_rand_u64(unsigned long long *s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 2685821657736338717ULL;
}

#endif
