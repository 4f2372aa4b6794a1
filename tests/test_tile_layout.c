/* Tile layout and rearrangement: pto.ttrans.
 * Every positive case pre-fills the whole destination space with a random sentinel,
 * applies an independent reference (naive loops over logical (row, col) indices written
 * from the spec pages, not from the code under test) to a copy of it, runs the op and
 * compares the whole space byte for byte, so bytes an op must not touch are checked too. */
#include <stdint.h>
#include <string.h>

#include "core/dtype.h"
#include "harness.h"
#include "ptosim/ptosim.h"

static unsigned long long seed = 0x243F6A8885A308D3ull;

static const ptosim_target targets[] = {PTOSIM_TARGET_A2A3, PTOSIM_TARGET_A5};

typedef struct env {
  ptosim_machine *m;
  ptosim_core *c;
  ptosim_space s; /* the space the case checks */
  size_t cap;
  uint8_t *img;   /* expected image of the whole space */
} env;

/* A machine, the core that owns `s`, and `s` filled with random bytes (copied to img). */
static env env_new(ptosim_target t, ptosim_space s) {
  env e = {.s = s};
  e.m = ptosim_machine_new(t, 1);
  e.c = ptosim_core_of(e.m, 0, s == PTOSIM_UB ? PTOSIM_AIV0 : PTOSIM_AIC);
  e.cap = (size_t)ptosim_space_capacity(e.m, s);
  e.img = malloc(e.cap);
  for (size_t i = 0; i < e.cap; i++) e.img[i] = (uint8_t)pt_rand_u64(&seed);
  CHECK(ptosim_mem_write(e.c, s, 0, e.img, e.cap) == PTOSIM_OK);
  return e;
}

/* End of a positive case: st is OK and the space equals the expected image. */
static void finish(env *e, ptosim_status st, const char *what) {
  CHECK_MSG(st == PTOSIM_OK, "%s: %s [%s]", what, ptosim_last_diag(e->m)->msg, ptosim_last_diag(e->m)->rule);
  uint8_t *got = malloc(e->cap);
  CHECK(ptosim_mem_read(e->c, e->s, 0, got, e->cap) == PTOSIM_OK);
  size_t i = 0;
  while (i < e->cap && got[i] == e->img[i]) i++;
  CHECK_MSG(i == e->cap, "%s: byte 0x%zx got %02x want %02x", what, i, i < e->cap ? got[i] : 0,
            i < e->cap ? e->img[i] : 0);
  free(got);
  free(e->img);
  ptosim_machine_free(e->m);
}

/* A negative case: status `want` with rule `rule`; the space is left as it was. */
static void refuse(env *e, ptosim_status got, ptosim_status want, const char *rule) {
  const ptosim_diag *d = ptosim_last_diag(e->m);
  CHECK_MSG(got == want && !strcmp(d->rule, rule), "want %d [%s], got %d [%s] (%s)", (int)want, rule, (int)got,
            d->rule, d->msg);
  finish(e, PTOSIM_OK, rule);
}

static ptosim_tile nd_tile(ptosim_space s, ptosim_dtype t, uint64_t addr, int rows, int cols, int vr, int vc) {
  ptosim_tile x = {.space = s, .addr = addr, .dtype = t, .rows = rows, .cols = cols, .valid_rows = vr,
                   .valid_cols = vc, .blayout = PTOSIM_BL_ROW_MAJOR, .slayout = PTOSIM_SL_NONE_BOX,
                   .fractal = 512};
  return x;
}

static int64_t es_of(ptosim_dtype t) { return (int64_t)pt_dtype_size(t); }
static int64_t align_up(int64_t a, int64_t b) { return (a + b - 1) / b * b; }

/* Byte offset of ND element (r, c). */
static int64_t nd_at(const ptosim_tile *t, int64_t r, int64_t c) {
  return (int64_t)t->addr + (r * t->cols + c) * es_of(t->dtype);
}

/* ---- TTRANS ----------------------------------------------------------------------------- */

static const ptosim_dtype trans_types[] = {PTOSIM_DT_U8,  PTOSIM_DT_I8,  PTOSIM_DT_U16, PTOSIM_DT_I16, PTOSIM_DT_F16,
                                           PTOSIM_DT_BF16, PTOSIM_DT_U32, PTOSIM_DT_I32, PTOSIM_DT_F32};

/* One transpose of an h x w valid region of a (rows x cols-blocks) source tile into a
 * destination tile `extra` rows / blocks larger than needed. */
static void trans_case(ptosim_target tg, ptosim_dtype t, int rows, int cblk, int h, int w, int extra) {
  env e = env_new(tg, PTOSIM_UB);
  int64_t es = es_of(t), blk = 32 / es;
  ptosim_tile s = nd_tile(PTOSIM_UB, t, 0x1000, rows, (int)(cblk * blk), h, w);
  ptosim_tile d = nd_tile(PTOSIM_UB, t, 0x12000, w + extra, (int)(align_up(h, blk) + extra * blk), w, h);
  ptosim_tile tmp = nd_tile(PTOSIM_UB, t, 0x24000, (int)align_up(h, 32), (int)align_up(w, blk), h, w);
  ptosim_ttrans_params p = {.src = s, .tmp = tmp, .dst = d};
  for (int64_t j = 0; j < w; j++)
    for (int64_t i = 0; i < h; i++) memcpy(e.img + nd_at(&d, j, i), e.img + nd_at(&s, i, j), (size_t)es);
  char what[96];
  snprintf(what, sizeof what, "ttrans %s %dx%d valid %dx%d target %d", pt_dtype_name(t), s.rows, s.cols, h, w, tg);
  finish(&e, ptosim_ttrans(e.c, &p), what);
}

static void test_ttrans(void) {
  for (int ti = 0; ti < 2; ti++)
    for (size_t k = 0; k < sizeof trans_types / sizeof *trans_types; k++) {
      ptosim_dtype t = trans_types[k];
      int blk = (int)(32 / es_of(t));
      trans_case(targets[ti], t, 16, 2, 16, 2 * blk, 0);          /* full tile */
      trans_case(targets[ti], t, 16, 2, 13, blk + 3, 1);          /* valid smaller than the tile */
      trans_case(targets[ti], t, 37, 3, 35, 2 * blk + 5, 2);      /* odd, non multiple of 16 */
      trans_case(targets[ti], t, 1, 1, 1, 1, 0);                  /* one element */
      trans_case(targets[ti], t, 70, 5, 66, 4 * blk + 1, 1);      /* many blocks */
    }
}

/* dst at the source's address: the result is the transpose of the original bytes. */
static void test_ttrans_inplace(void) {
  env e = env_new(PTOSIM_TARGET_A2A3, PTOSIM_UB);
  ptosim_tile s = nd_tile(PTOSIM_UB, PTOSIM_DT_F16, 0x400, 32, 32, 32, 32);
  ptosim_ttrans_params p = {.src = s, .tmp = nd_tile(PTOSIM_UB, PTOSIM_DT_F16, 0x8000, 32, 32, 32, 32), .dst = s};
  uint8_t *orig = malloc(e.cap);
  memcpy(orig, e.img, e.cap);
  for (int64_t i = 0; i < 32; i++)
    for (int64_t j = 0; j < 32; j++) memcpy(e.img + nd_at(&s, j, i), orig + nd_at(&s, i, j), 2);
  free(orig);
  finish(&e, ptosim_ttrans(e.c, &p), "ttrans in place");
}

static void trans_refuse(ptosim_target tg, ptosim_ttrans_params p, const char *rule) {
  env e = env_new(tg, PTOSIM_UB);
  refuse(&e, ptosim_ttrans(e.c, &p), strncmp(rule, "mem.", 4) ? PTOSIM_E_VERIFY : PTOSIM_E_FAULT, rule);
}

static void test_ttrans_errors(void) {
  const ptosim_ttrans_params ok = {.src = nd_tile(PTOSIM_UB, PTOSIM_DT_F32, 0, 16, 16, 16, 16),
                                   .tmp = nd_tile(PTOSIM_UB, PTOSIM_DT_F32, 0x2000, 16, 16, 16, 16),
                                   .dst = nd_tile(PTOSIM_UB, PTOSIM_DT_F32, 0x1000, 16, 16, 16, 16)};
  ptosim_ttrans_params p = ok;
  p.dst.space = PTOSIM_L1;
  trans_refuse(PTOSIM_TARGET_A5, p, "ttrans.space");
  p = ok;
  p.src.dtype = p.dst.dtype = p.tmp.dtype = PTOSIM_DT_F8E4M3;
  p.src.cols = p.dst.cols = p.tmp.cols = 32;
  trans_refuse(PTOSIM_TARGET_A5, p, "ttrans.dtype");
  p = ok;
  p.dst.dtype = PTOSIM_DT_F16;
  trans_refuse(PTOSIM_TARGET_A2A3, p, "ttrans.dtype");
  p = ok;
  p.src.blayout = PTOSIM_BL_COL_MAJOR;
  trans_refuse(PTOSIM_TARGET_A2A3, p, "ttrans.layout");
  p = ok;
  p.dst.rows = 8;
  p.dst.valid_rows = 8;
  trans_refuse(PTOSIM_TARGET_A5, p, "ttrans.shape");
  p = ok;
  p.tmp.rows = 4;
  p.tmp.valid_rows = 4;
  trans_refuse(PTOSIM_TARGET_A2A3, p, "ttrans.tmp_size");
  p = ok;
  p.src.valid_cols = 17;
  trans_refuse(PTOSIM_TARGET_A5, p, "tile.valid");
  p = ok;
  p.dst.cols = 12;
  p.dst.valid_cols = 12;
  trans_refuse(PTOSIM_TARGET_A5, p, "tile.align");
  p = ok;
  p.dst.addr = 0x3FFE0;
  trans_refuse(PTOSIM_TARGET_A5, p, "mem.bounds");
  p = ok;
  p.src.addr = 0x10;
  trans_refuse(PTOSIM_TARGET_A5, p, "mem.align");
  /* A small tmp is fine on A5 (not used) and on A2/A3 when the scalar path runs. */
  p = ok;
  p.tmp.rows = p.tmp.valid_rows = 1;
  env e = env_new(PTOSIM_TARGET_A5, PTOSIM_UB);
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < 16; j++) memcpy(e.img + nd_at(&p.dst, j, i), e.img + nd_at(&p.src, i, j), 4);
  finish(&e, ptosim_ttrans(e.c, &p), "ttrans small tmp on a5");
}

int main(void) {
  RUN(test_ttrans);
  RUN(test_ttrans_inplace);
  RUN(test_ttrans_errors);
  return pt_test_finish();
}
