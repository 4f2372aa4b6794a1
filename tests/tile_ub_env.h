/* Shared by the vec-tile op tests (test_tile_reduce.c, test_tile_irregular.c): a machine whose
 * whole UB starts as random bytes, an expected image of it that the test edits with its
 * reference, and the comparison of the whole UB after the op (so bytes an op must not touch
 * are checked too); element values through double and the conversions of core/dtype.c; one
 * text program run. */
#ifndef PT_TEST_TILE_UB_ENV_H
#define PT_TEST_TILE_UB_ENV_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core/dtype.h"
#include "harness.h"
#include "ptosim/ptosim.h"

typedef struct env {
  ptosim_machine *m;
  ptosim_core *c;
  size_t cap;
  uint8_t *img; /* the expected UB image */
} env;

/* A machine of target t whose vector core 0 has a UB of random bytes from *seed (in img only:
 * env_load puts it into the UB once the test has written its source values into img). */
static inline env env_new_seeded(ptosim_target t, unsigned long long *seed) {
  env e;
  e.m = ptosim_machine_new(t, 1);
  e.c = ptosim_core_of(e.m, 0, PTOSIM_AIV0);
  e.cap = (size_t)ptosim_space_capacity(e.m, PTOSIM_UB);
  e.img = malloc(e.cap);
  for (size_t i = 0; i < e.cap; i++) e.img[i] = (uint8_t)pt_rand_u64(seed);
  return e;
}

static inline void env_load(env *e) { CHECK(ptosim_mem_write(e->c, PTOSIM_UB, 0, e->img, e->cap) == PTOSIM_OK); }

static inline void env_free(env *e) {
  free(e->img);
  ptosim_machine_free(e->m);
}

/* End of a positive case: st is OK and the UB equals the expected image. */
static inline void finish(env *e, ptosim_status st, const char *what) {
  CHECK_MSG(st == PTOSIM_OK, "%s: %s [%s]", what, ptosim_last_diag(e->m)->msg, ptosim_last_diag(e->m)->rule);
  uint8_t *got = malloc(e->cap);
  CHECK(ptosim_mem_read(e->c, PTOSIM_UB, 0, got, e->cap) == PTOSIM_OK);
  size_t i = 0;
  while (i < e->cap && got[i] == e->img[i]) i++;
  CHECK_MSG(i == e->cap, "%s: byte 0x%zx got %02x want %02x", what, i, i < e->cap ? got[i] : 0, i < e->cap ? e->img[i] : 0);
  free(got);
  env_free(e);
}

/* A negative case: a verify error with rule `rule`. */
static inline void refuse(env *e, ptosim_status got, const char *rule) {
  const ptosim_diag *d = ptosim_last_diag(e->m);
  CHECK_MSG(got == PTOSIM_E_VERIFY && !strcmp(d->rule, rule), "want [%s], got %d [%s] (%s)", rule, (int)got, d->rule,
            d->msg);
  env_free(e);
}

static inline ptosim_tile ub_tile(ptosim_dtype t, uint64_t addr, int rows, int cols, int vr, int vc, ptosim_blayout bl) {
  ptosim_tile x = {.space = PTOSIM_UB, .addr = addr, .dtype = t, .rows = rows, .cols = cols, .valid_rows = vr,
                   .valid_cols = vc, .blayout = bl, .slayout = PTOSIM_SL_NONE_BOX, .fractal = 512};
  return x;
}

static inline int64_t es_of(ptosim_dtype t) { return (int64_t)pt_dtype_size(t); }
static inline int is_float(ptosim_dtype t) { return t == PTOSIM_DT_F32 || t == PTOSIM_DT_F16 || t == PTOSIM_DT_BF16; }

/* Byte of element (r, c) of tile t (ND or DN) in the image. */
static inline uint8_t *at(env *e, const ptosim_tile *t, int64_t r, int64_t c) {
  int64_t off = t->blayout == PTOSIM_BL_ROW_MAJOR ? r * t->cols + c : c * t->rows + r;
  return e->img + t->addr + off * es_of(t->dtype);
}

/* The value of an element of type t at p. */
static inline double get(ptosim_dtype t, const uint8_t *p) {
  uint64_t u = 0;
  memcpy(&u, p, (size_t)es_of(t));
  float f;
  switch (t) {
    case PTOSIM_DT_F32: memcpy(&f, &u, 4); return f;
    case PTOSIM_DT_F16: return pt_f16_to_f32((uint16_t)u);
    case PTOSIM_DT_BF16: return pt_bf16_to_f32((uint16_t)u);
    case PTOSIM_DT_I8: return (int8_t)u;
    case PTOSIM_DT_I16: return (int16_t)u;
    case PTOSIM_DT_I32: return (int32_t)u;
    default: return (double)u; /* unsigned */
  }
}

/* Store v in type t: floats rounded to nearest even (NaN as the canonical quiet NaN of the
 * type), integers wrapped to their width. */
static inline void put(ptosim_dtype t, uint8_t *p, double v) {
  uint64_t u;
  float f = (float)v;
  switch (t) {
    case PTOSIM_DT_F32: {
      uint32_t b;
      memcpy(&b, &f, 4);
      u = isnan(v) ? 0x7FC00000u : b;
      break;
    }
    case PTOSIM_DT_F16: u = isnan(v) ? 0x7E00u : pt_f32_to_f16(f, PT_RND_RINT, PT_SAT_OFF); break;
    case PTOSIM_DT_BF16: u = isnan(v) ? 0x7FC0u : pt_f32_to_bf16(f, PT_RND_RINT, PT_SAT_OFF); break;
    default: u = (uint64_t)(int64_t)fmod(v, 18446744073709551616.0); break;
  }
  memcpy(p, &u, (size_t)es_of(t));
}

/* v as type t holds it. */
static inline double as(ptosim_dtype t, double v) {
  uint8_t b[8];
  put(t, b, v);
  return get(t, b);
}

/* tpartadd (f 0), tpartmul (1), tpartmax (2) or tpartmin (3) on core c. */
static inline ptosim_status run_part(ptosim_core *c, int f, const ptosim_texpand_params *p) {
  if (f == 0) return ptosim_tpartadd(c, p);
  if (f == 1) return ptosim_tpartmul(c, p);
  if (f == 2) return ptosim_tpartmax(c, p);
  return ptosim_tpartmin(c, p);
}

/* Run text program src on a fresh machine of target t with GM buffers bufs[0, n) as its
 * arguments; CHECKs that it succeeds, then copies bytes [0, len) of the cube core's L1 to l1
 * (len 0: nothing) before the machine is freed. */
static inline void run_text_l1(const char *src, ptosim_target t, void **bufs, const size_t *sizes, int n, void *l1,
                               size_t len) {
  ptosim_program *prog = pt_test_load(src, strlen(src));
  CHECK(prog != NULL);
  if (!prog) return;
  ptosim_machine *m = ptosim_machine_new(t, 1);
  ptosim_arg args[8];
  memset(args, 0, sizeof args);
  for (int i = 0; i < n && i < 8; i++) ptosim_gm_map(m, bufs[i], sizes[i], &args[i].gm_addr);
  ptosim_status st = ptosim_program_run(prog, m, args);
  CHECK_MSG(st == PTOSIM_OK, "%s [%s]", ptosim_last_diag(m)->msg, ptosim_last_diag(m)->rule);
  if (len) CHECK(ptosim_mem_read(ptosim_core_of(m, 0, PTOSIM_AIC), PTOSIM_L1, 0, l1, len) == PTOSIM_OK);
  ptosim_machine_free(m);
  ptosim_program_free(prog);
}

/* run_text_l1 without the L1 copy. */
static inline void run_text(const char *src, ptosim_target t, void **bufs, const size_t *sizes, int n) {
  run_text_l1(src, t, bufs, sizes, n, NULL, 0);
}

#endif
