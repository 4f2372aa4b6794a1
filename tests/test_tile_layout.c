/* Tile layout and rearrangement: pto.ttrans, pto.tfillpad{,_inplace,_expand}, pto.treshape,
 * pto.tconcat, pto.tpack, pto.tget_scale_addr,
 * pto.timg2col with pto.setfmatrix / set_img2col_rpt / set_img2col_padding.
 * Every positive case pre-fills the whole destination space with a random sentinel,
 * applies an independent reference (naive loops over logical (row, col) indices written
 * from the spec pages, not from the code under test) to a copy of it, runs the op and
 * compares the whole space byte for byte, so bytes an op must not touch are checked too. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core/dtype.h"
#include "core/event.h"
#include "core/machine.h"
#include "core/mem.h"
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

/* In negative tests: a copy of the local `ok` parameters with the edits applied (in p). */
#define EDIT(...) (p = ok, __VA_ARGS__, p)

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

/* Every (target, element type) pair of the moved types through `cases`. */
static void for_moved_types(void (*cases)(ptosim_target, ptosim_dtype, int)) {
  for (int ti = 0; ti < 2; ti++)
    for (size_t k = 0; k < sizeof trans_types / sizeof *trans_types; k++)
      cases(targets[ti], trans_types[k], (int)(32 / es_of(trans_types[k])));
}

static void trans_cases(ptosim_target tg, ptosim_dtype t, int blk) {
  trans_case(tg, t, 16, 2, 16, 2 * blk, 0);          /* full tile */
  trans_case(tg, t, 16, 2, 13, blk + 3, 1);          /* valid smaller than the tile */
  trans_case(tg, t, 37, 3, 35, 2 * blk + 5, 2);      /* odd, non multiple of 16 */
  trans_case(tg, t, 1, 1, 1, 1, 0);                  /* one element */
  trans_case(tg, t, 70, 5, 66, 4 * blk + 1, 1);      /* many blocks */
}

static void test_ttrans(void) { for_moved_types(trans_cases); }

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
  ptosim_ttrans_params p;
  trans_refuse(PTOSIM_TARGET_A5, EDIT(p.dst.space = PTOSIM_L1), "ttrans.space");
  trans_refuse(PTOSIM_TARGET_A5,
               EDIT(p.src.dtype = p.dst.dtype = p.tmp.dtype = PTOSIM_DT_F8E4M3,
                    p.src.cols = p.dst.cols = p.tmp.cols = 32),
               "ttrans.dtype");
  trans_refuse(PTOSIM_TARGET_A2A3, EDIT(p.dst.dtype = PTOSIM_DT_F16), "ttrans.dtype");
  trans_refuse(PTOSIM_TARGET_A5, EDIT(p.src.dtype = PTOSIM_DT_I8, p.dst.dtype = p.tmp.dtype = PTOSIM_DT_HIF8,
                                      p.src.cols = p.dst.cols = p.tmp.cols = 32),
               "ttrans.dtype");
  trans_refuse(PTOSIM_TARGET_A2A3, EDIT(p.src.blayout = PTOSIM_BL_COL_MAJOR), "ttrans.layout");
  trans_refuse(PTOSIM_TARGET_A5, EDIT(p.dst.rows = 8, p.dst.valid_rows = 8), "ttrans.shape");
  trans_refuse(PTOSIM_TARGET_A2A3, EDIT(p.tmp.rows = 4, p.tmp.valid_rows = 4), "ttrans.tmp_size");
  trans_refuse(PTOSIM_TARGET_A5, EDIT(p.src.valid_cols = 17), "tile.valid");
  trans_refuse(PTOSIM_TARGET_A5, EDIT(p.dst.cols = 12, p.dst.valid_cols = 12), "tile.align");
  trans_refuse(PTOSIM_TARGET_A5, EDIT(p.tmp.blayout = (ptosim_blayout)2), "tile.enum");
  trans_refuse(PTOSIM_TARGET_A5, EDIT(p.src.dtype = PTOSIM_DT_NONE), "tile.dtype");
  trans_refuse(PTOSIM_TARGET_A5, EDIT(p.dst.addr = 0x3FFE0), "mem.bounds");
  trans_refuse(PTOSIM_TARGET_A5, EDIT(p.src.addr = 0x10), "mem.align");
  /* A small tmp is fine on A5 (not used) and on A2/A3 when the scalar path runs. */
  p = ok;
  p.tmp.rows = p.tmp.valid_rows = 1;
  env e = env_new(PTOSIM_TARGET_A5, PTOSIM_UB);
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < 16; j++) memcpy(e.img + nd_at(&p.dst, j, i), e.img + nd_at(&p.src, i, j), 4);
  finish(&e, ptosim_ttrans(e.c, &p), "ttrans small tmp on a5");
}

/* ---- TFILLPAD --------------------------------------------------------------------------- */

/* Pad value bytes written from the definitions: max / min are +inf / -inf for the IEEE-like
 * floats, the integer limits for integers, and zero for the 8-bit float formats. */
static void pad_ref(ptosim_dtype t, ptosim_pad_value v, uint8_t out[4]) {
  memset(out, 0, 4);
  if (v == PTOSIM_PAD_ZERO) return;
  int max = v == PTOSIM_PAD_MAX;
  switch (t) {
  case PTOSIM_DT_F32: {
    float f = max ? INFINITY : -INFINITY;
    memcpy(out, &f, 4);
    return;
  }
  case PTOSIM_DT_F16: out[1] = max ? 0x7C : 0xFC; return;   /* sign, exponent all ones */
  case PTOSIM_DT_BF16: out[0] = 0x80; out[1] = max ? 0x7F : 0xFF; return;
  case PTOSIM_DT_I8: { int8_t q = max ? INT8_MAX : INT8_MIN; memcpy(out, &q, 1); return; }
  case PTOSIM_DT_U8: { uint8_t q = max ? UINT8_MAX : 0; memcpy(out, &q, 1); return; }
  case PTOSIM_DT_I16: { int16_t q = max ? INT16_MAX : INT16_MIN; memcpy(out, &q, 2); return; }
  case PTOSIM_DT_U16: { uint16_t q = max ? UINT16_MAX : 0; memcpy(out, &q, 2); return; }
  case PTOSIM_DT_I32: { int32_t q = max ? INT32_MAX : INT32_MIN; memcpy(out, &q, 4); return; }
  case PTOSIM_DT_U32: { uint32_t q = max ? UINT32_MAX : 0; memcpy(out, &q, 4); return; }
  default: return; /* fp8 / hif8 / e8m0 */
  }
}

static const ptosim_dtype fill_types[] = {PTOSIM_DT_I8,  PTOSIM_DT_U8,  PTOSIM_DT_I16,    PTOSIM_DT_U16,
                                          PTOSIM_DT_F16, PTOSIM_DT_BF16, PTOSIM_DT_I32,   PTOSIM_DT_U32,
                                          PTOSIM_DT_F32, PTOSIM_DT_F8E4M3, PTOSIM_DT_HIF8};

typedef enum { FP_COPY, FP_INPLACE, FP_EXPAND } fp_form;

/* Expected vec result: over dst rows < dst.vr and every dst column, the source valid
 * region (copied, or kept in place) and the pad value elsewhere. On A2/A3 with equal src and
 * dst pad values the source columns run on to the next 32-byte boundary. */
static void fill_ref(env *e, const ptosim_tile *s, const ptosim_tile *d, fp_form f) {
  int64_t es = es_of(d->dtype), vc = s->valid_cols;
  if (ptosim_machine_target(e->m) == PTOSIM_TARGET_A2A3 && s->pad == d->pad) vc = align_up(vc, 32 / es);
  uint8_t pad[4];
  pad_ref(d->dtype, d->pad, pad);
  for (int64_t i = 0; i < d->valid_rows; i++)
    for (int64_t j = 0; j < d->cols; j++) {
      int valid = i < s->valid_rows && j < vc;
      if (!valid) memcpy(e->img + nd_at(d, i, j), pad, (size_t)es);
      else if (f != FP_INPLACE) memcpy(e->img + nd_at(d, i, j), e->img + nd_at(s, i, j), (size_t)es);
    }
}

static ptosim_status fill_run(env *e, const ptosim_tfillpad_params *p, fp_form f) {
  return f == FP_COPY ? ptosim_tfillpad(e->c, p) : f == FP_INPLACE ? ptosim_tfillpad_inplace(e->c, p)
                                                                   : ptosim_tfillpad_expand(e->c, p);
}

/* src rows x cblk blocks valid vr x vc; dst grown by (gr, gb blocks), dst valid rows dvr;
 * src pad value `sv`. */
static void fill_case(ptosim_target tg, ptosim_dtype t, ptosim_pad_value v, ptosim_pad_value sv, fp_form f, int rows,
                      int cblk, int vr, int vc, int gr, int gb, int dvr) {
  env e = env_new(tg, PTOSIM_UB);
  int blk = (int)(32 / es_of(t));
  ptosim_tile s = nd_tile(PTOSIM_UB, t, 0x800, rows, cblk * blk, vr, vc);
  s.pad = sv;
  ptosim_tile d = nd_tile(PTOSIM_UB, t, f == FP_INPLACE ? 0x800 : 0x10000, rows + gr, (cblk + gb) * blk, dvr,
                          (cblk + gb) * blk);
  d.pad = v;
  ptosim_tfillpad_params p = {.src = s, .dst = d};
  fill_ref(&e, &s, &d, f);
  char what[128];
  snprintf(what, sizeof what, "tfillpad form %d %s pad %d %dx%d valid %dx%d dst %dx%d vr %d target %d", (int)f,
           pt_dtype_name(t), (int)v, s.rows, s.cols, vr, vc, d.rows, d.cols, dvr, tg);
  finish(&e, fill_run(&e, &p, f), what);
}

static void test_tfillpad_vec(void) {
  for (int ti = 0; ti < 2; ti++)
    for (size_t k = 0; k < sizeof fill_types / sizeof *fill_types; k++)
      for (int v = PTOSIM_PAD_ZERO; v <= PTOSIM_PAD_MIN; v++) {
        ptosim_target tg = targets[ti];
        ptosim_dtype t = fill_types[k];
        ptosim_pad_value pv = (ptosim_pad_value)v;
        int blk = (int)(32 / es_of(t));
        const ptosim_pad_value nul = PTOSIM_PAD_NULL;
        fill_case(tg, t, pv, nul, FP_COPY, 16, 2, 11, blk + 3, 0, 0, 16); /* the whole dst is written */
        fill_case(tg, t, pv, nul, FP_COPY, 19, 3, 7, 2 * blk, 0, 0, 13);  /* rows from dst.vr untouched */
        fill_case(tg, t, pv, pv, FP_COPY, 19, 3, 7, blk + 1, 0, 0, 19);   /* equal pad values */
        fill_case(tg, t, pv, nul, FP_COPY, 5, 1, 5, blk, 0, 0, 5);        /* nothing to pad */
        fill_case(tg, t, pv, nul, FP_INPLACE, 24, 2, 9, 5, 0, 0, 24);
        fill_case(tg, t, pv, pv, FP_INPLACE, 24, 2, 9, 5, 0, 0, 24);
        fill_case(tg, t, pv, nul, FP_INPLACE, 17, 3, 17, 3 * blk - 1, 0, 0, 17);
        fill_case(tg, t, pv, nul, FP_EXPAND, 12, 2, 10, blk + 1, 5, 2, 17);
        fill_case(tg, t, pv, pv, FP_EXPAND, 12, 2, 10, 3, 5, 2, 17);
        fill_case(tg, t, pv, nul, FP_EXPAND, 9, 1, 9, blk, 0, 3, 9);
      }
}

/* Byte offset of element (r, c) of an NZ tile: 32-byte column blocks of `rows` rows. */
static int64_t nz_at(const ptosim_tile *t, int64_t r, int64_t c) {
  int64_t es = es_of(t->dtype), cw = 32 / es;
  return (int64_t)t->addr + (c / cw) * t->rows * 32 + r * 32 + (c % cw) * es;
}

/* Mat (L1, NZ) tfillpad: zero every element outside the valid rows in the 32-byte column
 * blocks that hold valid columns (compact 3: only up to the next multiple of 16 rows),
 * and every element of later blocks (not in compact 3). */
static void mat_fill_case(ptosim_target tg, ptosim_dtype t, int rows, int cblk, int vr, int vc, int compact,
                          ptosim_pad_value pad) {
  env e = env_new(tg, PTOSIM_L1);
  int64_t es = es_of(t), cw = 32 / es;
  ptosim_tile d = nd_tile(PTOSIM_L1, t, 0x2000, rows, (int)(cblk * cw), vr, vc);
  d.blayout = PTOSIM_BL_COL_MAJOR;
  d.slayout = PTOSIM_SL_ROW_MAJOR;
  d.pad = pad;
  d.compact = compact;
  int64_t vcols = align_up(vc, cw), hi = compact == 3 ? align_up(vr, 16) : rows;
  for (int64_t r = 0; r < rows; r++)
    for (int64_t c = 0; c < d.cols; c++)
      if (c < vcols ? r >= vr && r < hi : compact != 3) memset(e.img + nz_at(&d, r, c), 0, (size_t)es);
  ptosim_tfillpad_params p = {.src = d, .dst = d};
  char what[96];
  snprintf(what, sizeof what, "mat tfillpad %s %dx%d valid %dx%d compact %d pad %d", pt_dtype_name(t), rows, d.cols, vr,
           vc, compact, (int)pad);
  finish(&e, ptosim_tfillpad(e.c, &p), what);
}

static void test_tfillpad_mat(void) {
  const ptosim_dtype ts[] = {PTOSIM_DT_I8, PTOSIM_DT_F16, PTOSIM_DT_BF16, PTOSIM_DT_F32, PTOSIM_DT_U32};
  for (int ti = 0; ti < 2; ti++)
    for (size_t k = 0; k < sizeof ts / sizeof *ts; k++) {
      int cw = (int)(32 / es_of(ts[k]));
      for (int compact = 0; compact <= 3; compact += 3) {
        mat_fill_case(targets[ti], ts[k], 32, 3, 5, cw + 3, compact, PTOSIM_PAD_ZERO);
        mat_fill_case(targets[ti], ts[k], 48, 4, 48, 2 * cw, compact, PTOSIM_PAD_ZERO);
        mat_fill_case(targets[ti], ts[k], 16, 2, 16, 2 * cw, compact, PTOSIM_PAD_ZERO); /* nothing to zero */
        mat_fill_case(targets[ti], ts[k], 64, 2, 33, 1, compact, PTOSIM_PAD_ZERO);
        /* PadVal Null fills zero too (a5 / a2a3 TFillPad.hpp TFILLPAD_IMPL for mat tiles) */
        mat_fill_case(targets[ti], ts[k], 32, 3, 5, cw + 3, compact, PTOSIM_PAD_NULL);
      }
    }
}

static void fill_refuse(ptosim_target tg, ptosim_space sp, fp_form f, ptosim_tfillpad_params p, const char *rule) {
  env e = env_new(tg, sp);
  refuse(&e, fill_run(&e, &p, f), PTOSIM_E_VERIFY, rule);
}

static void test_tfillpad_errors(void) {
  ptosim_tfillpad_params ok = {.src = nd_tile(PTOSIM_UB, PTOSIM_DT_F16, 0, 16, 32, 8, 8),
                               .dst = nd_tile(PTOSIM_UB, PTOSIM_DT_F16, 0x1000, 16, 32, 16, 32)};
  ok.dst.pad = PTOSIM_PAD_MAX;
  ptosim_tfillpad_params p;
  fill_refuse(PTOSIM_TARGET_A5, PTOSIM_UB, FP_COPY, EDIT(p.dst.pad = PTOSIM_PAD_NULL), "tfillpad.pad");
  fill_refuse(PTOSIM_TARGET_A5, PTOSIM_UB, FP_COPY, EDIT(p.dst.dtype = PTOSIM_DT_F32), "tfillpad.dtype");
  fill_refuse(PTOSIM_TARGET_A2A3, PTOSIM_UB, FP_COPY,
              EDIT(p.src.dtype = p.dst.dtype = PTOSIM_DT_I64, p.src.cols = p.dst.cols = p.dst.valid_cols = 8),
              "tfillpad.dtype");
  fill_refuse(PTOSIM_TARGET_A2A3, PTOSIM_UB, FP_COPY, EDIT(p.dst.rows = 32), "tfillpad.shape");
  fill_refuse(PTOSIM_TARGET_A2A3, PTOSIM_UB, FP_INPLACE, p, "tfillpad.shape");
  fill_refuse(PTOSIM_TARGET_A5, PTOSIM_UB, FP_EXPAND, EDIT(p.dst.cols = p.dst.valid_cols = 16), "tfillpad.shape");
  fill_refuse(PTOSIM_TARGET_A5, PTOSIM_UB, FP_INPLACE, EDIT(p.src.space = p.dst.space = PTOSIM_L1), "tfillpad.space");
  fill_refuse(PTOSIM_TARGET_A5, PTOSIM_UB, FP_EXPAND, p, "tfillpad.space");
  fill_refuse(PTOSIM_TARGET_A5, PTOSIM_UB, FP_COPY, EDIT(p.dst.blayout = PTOSIM_BL_COL_MAJOR, p.dst.rows = 16),
              "tfillpad.layout");
  fill_refuse(PTOSIM_TARGET_A5, PTOSIM_UB, FP_COPY, EDIT(p.src.valid_rows = 16, p.dst.valid_rows = 9),
              "tfillpad.valid");
  /* mat tiles */
  ptosim_tile m = nd_tile(PTOSIM_L1, PTOSIM_DT_F16, 0, 32, 32, 20, 20);
  m.blayout = PTOSIM_BL_COL_MAJOR;
  m.slayout = PTOSIM_SL_ROW_MAJOR;
  m.pad = PTOSIM_PAD_ZERO;
  p.src = p.dst = m;
  p.src.valid_rows = 3;
  fill_refuse(PTOSIM_TARGET_A5, PTOSIM_L1, FP_COPY, p, "tfillpad.mat_same");
  p.src = p.dst = m;
  p.src.pad = p.dst.pad = PTOSIM_PAD_MIN;
  fill_refuse(PTOSIM_TARGET_A2A3, PTOSIM_L1, FP_COPY, p, "tfillpad.pad");
  p.src = p.dst = m;
  p.src.blayout = p.dst.blayout = PTOSIM_BL_ROW_MAJOR;
  fill_refuse(PTOSIM_TARGET_A2A3, PTOSIM_L1, FP_COPY, p, "tfillpad.layout");
  p.src = p.dst = m;
  p.src.rows = p.dst.rows = 24;
  fill_refuse(PTOSIM_TARGET_A2A3, PTOSIM_L1, FP_COPY, p, "tile.box");
  p.src = p.dst = m;
  p.src.fractal = p.dst.fractal = 256;
  fill_refuse(PTOSIM_TARGET_A2A3, PTOSIM_L1, FP_COPY, p, "tile.fractal");
}

/* ---- TRESHAPE --------------------------------------------------------------------------- */

static void test_treshape(void) {
  env e = env_new(PTOSIM_TARGET_A5, PTOSIM_UB);
  ptosim_tile s = nd_tile(PTOSIM_UB, PTOSIM_DT_F32, 0x3000, 16, 16, 10, 16);
  ptosim_tile r = nd_tile(PTOSIM_UB, PTOSIM_DT_F16, 0x9999, 8, 64, 8, 50);
  ptosim_treshape_params p = {.src = s, .result = &r};
  CHECK(ptosim_treshape(e.c, &p) == PTOSIM_OK);
  CHECK(r.addr == 0x3000 && r.dtype == PTOSIM_DT_F16 && r.rows == 8 && r.cols == 64 && r.valid_cols == 50);
  /* boxed to boxed on L1 (NZ f16 32 x 32 -> ZZ-like i8 16 x 128) */
  env m = env_new(PTOSIM_TARGET_A2A3, PTOSIM_L1);
  ptosim_tile a = nd_tile(PTOSIM_L1, PTOSIM_DT_F16, 0x400, 32, 32, 32, 32);
  a.blayout = PTOSIM_BL_COL_MAJOR;
  a.slayout = PTOSIM_SL_ROW_MAJOR;
  ptosim_tile b = nd_tile(PTOSIM_L1, PTOSIM_DT_I8, 0, 16, 128, 16, 128);
  b.slayout = PTOSIM_SL_ROW_MAJOR;
  p.src = a;
  p.result = &b;
  CHECK(ptosim_treshape(m.c, &p) == PTOSIM_OK && b.addr == 0x400);
  finish(&m, PTOSIM_OK, "treshape does not touch memory");
  /* errors */
  ptosim_tile bad = r;
  p.src = s;
  p.result = &bad;
  bad.space = PTOSIM_L1;
  CHECK(ptosim_treshape(e.c, &p) == PTOSIM_E_VERIFY && !strcmp(ptosim_last_diag(e.m)->rule, "treshape.loc"));
  bad = r;
  bad.rows = 4;
  bad.valid_rows = 4;
  CHECK(ptosim_treshape(e.c, &p) == PTOSIM_E_VERIFY && !strcmp(ptosim_last_diag(e.m)->rule, "treshape.bytes"));
  bad = r;
  bad.slayout = PTOSIM_SL_ROW_MAJOR;
  bad.rows = 16;
  bad.cols = 32;
  bad.valid_rows = 16;
  bad.valid_cols = 32;
  CHECK(ptosim_treshape(e.c, &p) == PTOSIM_E_VERIFY && !strcmp(ptosim_last_diag(e.m)->rule, "treshape.box"));
  bad = r;
  bad.valid_cols = 65;
  CHECK(ptosim_treshape(e.c, &p) == PTOSIM_E_VERIFY && !strcmp(ptosim_last_diag(e.m)->rule, "tile.valid"));
  p.result = NULL;
  CHECK(ptosim_treshape(e.c, &p) == PTOSIM_E_USAGE && !strcmp(ptosim_last_diag(e.m)->rule, "api.args"));
  finish(&e, PTOSIM_OK, "treshape errors do not touch memory");
}

/* ---- TCONCAT ---------------------------------------------------------------------------- */

/* Copy n elements of each of `rows` rows of s to column `col` of d in the image. */
static void ref_rows(env *e, const ptosim_tile *s, const ptosim_tile *d, int64_t rows, int64_t col, int64_t n) {
  for (int64_t i = 0; i < rows; i++)
    memmove(e->img + nd_at(d, i, col), e->img + nd_at(s, i, 0), (size_t)(n * es_of(s->dtype)));
}

/* src0 valid c0 columns and src1 valid c1 columns side by side in dst (A2/A3 moves src0 in
 * whole 32-byte blocks, and src1 too when src0's run ends on a block boundary). */
static void concat_case(ptosim_target tg, ptosim_dtype t, int rows, int vr, int c0, int c1, int in_place) {
  env e = env_new(tg, PTOSIM_UB);
  int64_t blk = 32 / es_of(t);
  int dcols = (int)align_up(c0 + c1, blk) + (int)blk;
  ptosim_tile d = nd_tile(PTOSIM_UB, t, 0x6000, rows, dcols, vr, c0 + c1);
  ptosim_tile s0 = in_place ? nd_tile(PTOSIM_UB, t, 0x6000, rows, dcols, vr, c0)
                            : nd_tile(PTOSIM_UB, t, 0x400, rows, (int)align_up(c0, blk), vr, c0);
  ptosim_tile s1 = nd_tile(PTOSIM_UB, t, 0x20000, rows, (int)align_up(c1, blk) + 2 * (int)blk, vr, c1);
  int a2a3 = tg == PTOSIM_TARGET_A2A3;
  ref_rows(&e, &s0, &d, vr, 0, a2a3 ? align_up(c0, blk) : c0);
  ref_rows(&e, &s1, &d, vr, c0, a2a3 && c0 % blk == 0 ? align_up(c1, blk) : c1);
  ptosim_tconcat_params p = {.src0 = s0, .src1 = s1, .dst = d};
  char what[96];
  snprintf(what, sizeof what, "tconcat %s target %d rows %d valid %d cols %d + %d%s", pt_dtype_name(t), tg, rows,
           vr, c0, c1, in_place ? " in place" : "");
  finish(&e, ptosim_tconcat(e.c, &p), what);
}

static void concat_cases(ptosim_target tg, ptosim_dtype t, int blk) {
  concat_case(tg, t, 16, 16, blk, 2 * blk, 0);     /* block-aligned runs */
  concat_case(tg, t, 13, 11, 2 * blk, 5, 0);      /* aligned src0, ragged src1 */
  concat_case(tg, t, 9, 9, blk + 3, blk - 1, 0);  /* ragged src0 */
  concat_case(tg, t, 1, 1, 1, 1, 0);
  concat_case(tg, t, 20, 17, 3, 2 * blk + 1, 1);  /* dst over src0's storage */
}

static void test_tconcat(void) { for_moved_types(concat_cases); }

static void concat_refuse(ptosim_tconcat_params p, const char *rule) {
  env e = env_new(PTOSIM_TARGET_A5, PTOSIM_UB);
  refuse(&e, ptosim_tconcat(e.c, &p), PTOSIM_E_VERIFY, rule);
}

static void test_tconcat_errors(void) {
  const ptosim_tconcat_params ok = {.src0 = nd_tile(PTOSIM_UB, PTOSIM_DT_F32, 0, 8, 16, 8, 10),
                                    .src1 = nd_tile(PTOSIM_UB, PTOSIM_DT_F32, 0x1000, 8, 16, 8, 6),
                                    .dst = nd_tile(PTOSIM_UB, PTOSIM_DT_F32, 0x2000, 8, 16, 8, 16)};
  ptosim_tconcat_params p;
  concat_refuse(EDIT(p.src1.space = PTOSIM_L1), "tconcat.space");
  concat_refuse(EDIT(p.dst.blayout = PTOSIM_BL_COL_MAJOR), "tconcat.layout");
  concat_refuse(EDIT(p.src0.dtype = PTOSIM_DT_I32), "tconcat.dtype");
  concat_refuse(EDIT(p.src0.dtype = p.src1.dtype = p.dst.dtype = PTOSIM_DT_F8E5M2,
                     p.src0.cols = p.src1.cols = p.dst.cols = 32),
                "tconcat.dtype");
  concat_refuse(EDIT(p.src1.valid_rows = 7), "tconcat.valid");
  concat_refuse(EDIT(p.dst.valid_cols = 15), "tconcat.valid");
}

/* ---- TPACK ------------------------------------------------------------------------------ */

/* Element (r, c) of ND tile t in the image as an unsigned integer (little-endian bytes). */
static uint64_t img_bits(const env *e, const ptosim_tile *t, int64_t r, int64_t c) {
  uint64_t v = 0;
  for (int64_t k = es_of(t->dtype) - 1; k >= 0; k--) v = v << 8 | e->img[nd_at(t, r, c) + k];
  return v;
}

/* dst(r, c) = src(r, c) mod 2^(8 * esize(dst)) over the valid region, every source read
 * before any destination byte is written (in-place cases overlap). */
static void pack_case(ptosim_dtype st, ptosim_dtype dt, int rows, int vr, int vc, int in_place) {
  env e = env_new(PTOSIM_TARGET_A5, PTOSIM_UB);
  int64_t ses = es_of(st), des = es_of(dt);
  int scols = (int)align_up(vc + 3, 32 / ses), dcols = (int)align_up(vc + 5, 32);
  ptosim_tile s = nd_tile(PTOSIM_UB, st, 0x1000, rows, scols, vr, vc);
  ptosim_tile d = nd_tile(PTOSIM_UB, dt, in_place ? 0x1000 : 0x9000, rows, dcols, vr, vc);
  uint64_t *want = malloc((size_t)(vr * vc) * sizeof *want);
  for (int64_t r = 0; r < vr; r++)
    for (int64_t c = 0; c < vc; c++) want[r * vc + c] = img_bits(&e, &s, r, c) & (~0ull >> (64 - 8 * des));
  for (int64_t r = 0; r < vr; r++)
    for (int64_t c = 0; c < vc; c++)
      for (int64_t k = 0; k < des; k++) e.img[nd_at(&d, r, c) + k] = (uint8_t)(want[r * vc + c] >> (8 * k));
  free(want);
  ptosim_tfillpad_params p = {.src = s, .dst = d};
  char what[96];
  snprintf(what, sizeof what, "tpack %s -> %s rows %d valid %d x %d%s", pt_dtype_name(st), pt_dtype_name(dt), rows, vr,
           vc, in_place ? " in place" : "");
  finish(&e, ptosim_tpack(e.c, &p), what);
}

static void test_tpack(void) {
  static const ptosim_dtype w4[] = {PTOSIM_DT_F32, PTOSIM_DT_I32, PTOSIM_DT_U32};
  static const ptosim_dtype w2[] = {PTOSIM_DT_F16, PTOSIM_DT_BF16, PTOSIM_DT_I16, PTOSIM_DT_U16};
  static const ptosim_dtype w1[] = {PTOSIM_DT_I8, PTOSIM_DT_U8, PTOSIM_DT_F8E4M3, PTOSIM_DT_F8E5M2, PTOSIM_DT_HIF8};
  for (size_t i = 0; i < 3; i++) {
    for (size_t j = 0; j < 4; j++) {
      pack_case(w4[i], w2[j], 8, 8, 64, 0);
      pack_case(w4[i], w2[j], 9, 5, 70, j == 0);
    }
    for (size_t j = 0; j < 5; j++) pack_case(w4[i], w1[j], 7, 3, 33 + (int)j, i == 1);
  }
  for (size_t i = 0; i < 4; i++)
    for (size_t j = 0; j < 5; j++) {
      pack_case(w2[i], w1[j], 4, 4, 128, 0);
      pack_case(w2[i], w1[j], 6, 1, 1 + (int)j, j == 2);
    }
}

static void pack_refuse(ptosim_target tg, ptosim_tfillpad_params p, const char *rule) {
  env e = env_new(tg, PTOSIM_UB);
  refuse(&e, ptosim_tpack(e.c, &p), PTOSIM_E_VERIFY, rule);
}

static void test_tpack_errors(void) {
  const ptosim_tfillpad_params ok = {.src = nd_tile(PTOSIM_UB, PTOSIM_DT_F32, 0, 8, 16, 8, 10),
                                     .dst = nd_tile(PTOSIM_UB, PTOSIM_DT_F16, 0x1000, 8, 16, 8, 10)};
  ptosim_tfillpad_params p;
  env e = env_new(PTOSIM_TARGET_A5, PTOSIM_UB);
  CHECK(ptosim_tpack(e.c, &ok) == PTOSIM_OK); /* the edits below break a working case */
  free(e.img);
  ptosim_machine_free(e.m);
  pack_refuse(PTOSIM_TARGET_A2A3, ok, "tpack.target");
  pack_refuse(PTOSIM_TARGET_A5, EDIT(p.dst.space = PTOSIM_L1), "tpack.space");
  pack_refuse(PTOSIM_TARGET_A5, EDIT(p.src.blayout = PTOSIM_BL_COL_MAJOR, p.src.rows = 16, p.src.cols = 8,
                                     p.src.valid_rows = 8, p.src.valid_cols = 8, p.dst.valid_cols = 8),
              "tpack.layout");
  pack_refuse(PTOSIM_TARGET_A5, EDIT(p.dst.dtype = PTOSIM_DT_I32), "tpack.dtype");
  pack_refuse(PTOSIM_TARGET_A5, EDIT(p.src.dtype = PTOSIM_DT_I16, p.dst.cols = 32, p.dst.valid_cols = 10), "tpack.dtype");
  pack_refuse(PTOSIM_TARGET_A5, EDIT(p.src.dtype = PTOSIM_DT_I8, p.src.cols = 32, p.dst.dtype = PTOSIM_DT_U8,
                                     p.dst.cols = 32),
              "tpack.dtype");
  pack_refuse(PTOSIM_TARGET_A5, EDIT(p.dst.valid_rows = 7), "tpack.valid");
  pack_refuse(PTOSIM_TARGET_A5, EDIT(p.dst.valid_cols = 11), "tpack.valid");
}

/* ---- TGET_SCALE_ADDR -------------------------------------------------------------------- */

static ptosim_tile box_tile(ptosim_space s, ptosim_dtype t, uint64_t addr, int rows, int cols, int vr, int vc,
                            ptosim_blayout bl, ptosim_slayout sl, int fractal) {
  ptosim_tile x = nd_tile(s, t, addr, rows, cols, vr, vc);
  x.blayout = bl;
  x.slayout = sl;
  x.fractal = fractal;
  return x;
}

/* The scaling tile lands at L0A_MX / L0B_MX byte src.addr / 16 with its type kept; no byte
 * of L0A or L0B changes. */
static void test_tget_scale_addr(void) {
  env e = env_new(PTOSIM_TARGET_A5, PTOSIM_L0A);
  ptosim_tile a = box_tile(PTOSIM_L0A, PTOSIM_DT_F8E4M3, 0x2340, 16, 128, 13, 70, PTOSIM_BL_COL_MAJOR,
                           PTOSIM_SL_ROW_MAJOR, 512);
  ptosim_tile sa = box_tile(PTOSIM_FB, PTOSIM_DT_F8E8M0, 0x40, 16, 3, 13, 3, PTOSIM_BL_ROW_MAJOR,
                            PTOSIM_SL_ROW_MAJOR, 32);
  ptosim_tget_scale_addr_params p = {.src = a, .dst = &sa};
  CHECK(ptosim_tget_scale_addr(e.c, &p) == PTOSIM_OK);
  CHECK(sa.space == PTOSIM_L0A_MX && sa.addr == 0x2340 / 16 && sa.rows == 16 && sa.cols == 3 &&
        sa.dtype == PTOSIM_DT_F8E8M0 && sa.valid_rows == 13 && sa.valid_cols == 3);
  CHECK(ptosim_tget_scale_addr(e.c, &p) == PTOSIM_OK && sa.space == PTOSIM_L0A_MX); /* already placed: again */
  finish(&e, PTOSIM_OK, "tget_scale_addr left does not touch L0A");
  env f = env_new(PTOSIM_TARGET_A5, PTOSIM_L0B);
  ptosim_tile b = box_tile(PTOSIM_L0B, PTOSIM_DT_F8E5M2, 0x1000, 128, 32, 65, 20, PTOSIM_BL_ROW_MAJOR,
                           PTOSIM_SL_COL_MAJOR, 512);
  ptosim_tile sb = box_tile(PTOSIM_FB, PTOSIM_DT_F8E8M0, 0, 3, 32, 3, 20, PTOSIM_BL_COL_MAJOR, PTOSIM_SL_COL_MAJOR,
                            32);
  p.src = b;
  p.dst = &sb;
  CHECK(ptosim_tget_scale_addr(f.c, &p) == PTOSIM_OK && sb.space == PTOSIM_L0B_MX && sb.addr == 0x100);
  finish(&f, PTOSIM_OK, "tget_scale_addr right does not touch L0B");
}

static void scale_refuse(ptosim_target tg, ptosim_tget_scale_addr_params p, ptosim_status want, const char *rule) {
  env e = env_new(tg, PTOSIM_L0A);
  ptosim_tile before = p.dst ? *p.dst : p.src;
  refuse(&e, ptosim_tget_scale_addr(e.c, &p), want, rule);
  CHECK(!p.dst || !memcmp(&before, p.dst, sizeof before)); /* a refused op leaves dst as it was */
}

static void test_tget_scale_addr_errors(void) {
  ptosim_tile a = box_tile(PTOSIM_L0A, PTOSIM_DT_F8E4M3, 0x800, 16, 64, 16, 64, PTOSIM_BL_COL_MAJOR,
                           PTOSIM_SL_ROW_MAJOR, 512);
  ptosim_tile s = box_tile(PTOSIM_FB, PTOSIM_DT_F8E8M0, 0, 16, 2, 16, 2, PTOSIM_BL_ROW_MAJOR, PTOSIM_SL_ROW_MAJOR, 32);
  ptosim_tile d = s;
  ptosim_tget_scale_addr_params p = {.src = a, .dst = &d};
  scale_refuse(PTOSIM_TARGET_A2A3, p, PTOSIM_E_VERIFY, "tget_scale_addr.target");
  p.src.space = PTOSIM_UB;
  p.src.blayout = PTOSIM_BL_ROW_MAJOR;
  p.src.slayout = PTOSIM_SL_NONE_BOX;
  scale_refuse(PTOSIM_TARGET_A5, p, PTOSIM_E_VERIFY, "tget_scale_addr.space");
  p.src = a;
  d.space = PTOSIM_UB;
  d.slayout = PTOSIM_SL_NONE_BOX;
  d.cols = d.valid_cols = 32;
  scale_refuse(PTOSIM_TARGET_A5, p, PTOSIM_E_VERIFY, "tget_scale_addr.space");
  d = s;
  d.space = PTOSIM_L0B_MX; /* the MX buffer of the other operand */
  scale_refuse(PTOSIM_TARGET_A5, p, PTOSIM_E_VERIFY, "tget_scale_addr.space");
  d = s;
  d.cols = d.valid_cols = 4; /* K = 64 has 2 scale columns */
  scale_refuse(PTOSIM_TARGET_A5, p, PTOSIM_E_VERIFY, "tget_scale_addr.shape");
  d = s;
  d.valid_rows = 15;
  scale_refuse(PTOSIM_TARGET_A5, p, PTOSIM_E_VERIFY, "tget_scale_addr.shape");
  d = s;
  d.valid_rows = 17;
  scale_refuse(PTOSIM_TARGET_A5, p, PTOSIM_E_VERIFY, "tile.valid");
  p.dst = NULL;
  scale_refuse(PTOSIM_TARGET_A5, p, PTOSIM_E_USAGE, "api.args");
}

/* ---- TIMG2COL --------------------------------------------------------------------------- */

typedef struct conv {
  int h, w, c, pl, pr, pt, pb; /* image and its padding */
  int fh, fw, sh, sw, dh, dw;  /* window */
  int pos_m, pos_k, rows, cols; /* destination: first im2col row / column, valid size */
  bool b;                       /* B register set */
} conv;

static const ptosim_dtype img_types_a2a3[] = {PTOSIM_DT_I8, PTOSIM_DT_F16, PTOSIM_DT_BF16, PTOSIM_DT_F32};
static const ptosim_dtype img_types_a5[] = {PTOSIM_DT_I8,  PTOSIM_DT_U8,  PTOSIM_DT_I16, PTOSIM_DT_U16, PTOSIM_DT_I32,
                                            PTOSIM_DT_U32, PTOSIM_DT_F16, PTOSIM_DT_BF16, PTOSIM_DT_F32};

/* Program the registers for cv (A5: column blocks dst_stride fractals apart, from fractal
 * m_pos) and return the op's parameters. */
static ptosim_timg2col_params img_setup(env *e, const conv *cv, ptosim_dtype t, int dst_stride, int m_pos,
                                        uint32_t padv) {
  ptosim_setfmatrix_params f = {.fmap_h = cv->h, .fmap_w = cv->w, .pad_left = cv->pl, .pad_right = cv->pr,
                                .pad_top = cv->pt, .pad_bottom = cv->pb, .fmatrix_b = cv->b};
  CHECK(ptosim_setfmatrix(e->c, &f) == PTOSIM_OK);
  ptosim_img2col_padding_params pd = {.dtype = t, .bits = padv, .fmatrix_b = cv->b};
  CHECK(ptosim_set_img2col_padding(e->c, &pd) == PTOSIM_OK);
  if (ptosim_machine_target(e->m) == PTOSIM_TARGET_A5) {
    ptosim_img2col_rpt_params r = {.repeat_time = 1, .dst_stride = dst_stride, .dst_m_position = m_pos,
                                   .fmatrix_b = cv->b};
    CHECK(ptosim_set_img2col_rpt(e->c, &r) == PTOSIM_OK);
  }
  int64_t es = es_of(t), c0 = 32 / es;
  ptosim_tile src = nd_tile(PTOSIM_L1, t, 0x1000, cv->h * cv->w * (int)(cv->c / c0), (int)c0, 1, 1);
  src.blayout = PTOSIM_BL_COL_MAJOR;
  src.slayout = PTOSIM_SL_ROW_MAJOR;
  src.rows = (int)align_up(src.rows, 16);
  ptosim_tile dst = nd_tile(PTOSIM_L0A, t, 0x200, (int)align_up(cv->rows, 16) * (dst_stride ? dst_stride : 1),
                            (int)align_up(cv->cols, c0), cv->rows, cv->cols);
  dst.slayout = PTOSIM_SL_ROW_MAJOR;
  dst.blayout = ptosim_machine_target(e->m) == PTOSIM_TARGET_A5 ? PTOSIM_BL_COL_MAJOR : PTOSIM_BL_ROW_MAJOR;
  ptosim_timg2col_params p = {.src = src, .dst = dst, .pos_m = cv->pos_m, .pos_k = cv->pos_k, .filter_h = cv->fh,
                              .filter_w = cv->fw, .stride_h = cv->sh, .stride_w = cv->sw, .dilation_h = cv->dh,
                              .dilation_w = cv->dw, .channel_size = cv->c, .fmatrix_b = cv->b};
  return p;
}

/* Expected L0A image: the im2col matrix of the convolution (rows = output pixels in
 * row-major order, columns = (channel block, kernel row, kernel column, channel) in that
 * nesting), placed in the target's L0A fractal order. */
static void img_case(ptosim_target tg, ptosim_dtype t, const conv *cv, int dst_stride, int m_pos) {
  env e = env_new(tg, PTOSIM_L0A);
  int64_t es = es_of(t), c0 = 32 / es, c1n = cv->c / c0;
  size_t img_bytes = (size_t)(c1n * cv->h * cv->w * 32);
  uint8_t *img = malloc(img_bytes), pad[4];
  for (size_t i = 0; i < img_bytes; i++) img[i] = (uint8_t)pt_rand_u64(&seed);
  CHECK(ptosim_mem_write(e.c, PTOSIM_L1, 0x1000, img, img_bytes) == PTOSIM_OK);
  uint32_t padv = (uint32_t)pt_rand_u64(&seed) & (uint32_t)((1ull << (8 * es)) - 1);
  memcpy(pad, &padv, 4);
  ptosim_timg2col_params p = img_setup(&e, cv, t, dst_stride, m_pos, padv);
  int ow = (cv->w + cv->pl + cv->pr - cv->dw * (cv->fw - 1) - 1) / cv->sw + 1;
  int64_t kcols = align_up(cv->cols, c0), nkb = kcols / c0;
  /* column k -> (c1, kh, kw, c) by counting through the nesting */
  int64_t nk = c1n * cv->fh * cv->fw * c0, (*kmap)[4] = malloc(sizeof *kmap * (size_t)nk), n = 0;
  for (int64_t a = 0; a < c1n; a++)
    for (int64_t kh = 0; kh < cv->fh; kh++)
      for (int64_t kw = 0; kw < cv->fw; kw++)
        for (int64_t c = 0; c < c0; c++, n++) {
          kmap[n][0] = a, kmap[n][1] = kh, kmap[n][2] = kw, kmap[n][3] = c;
        }
  for (int64_t m = 0; m < cv->rows; m++)
    for (int64_t k = 0; k < kcols; k++) {
      int64_t pix = cv->pos_m + m, col = cv->pos_k + k;
      int64_t oh = pix / ow, owx = pix % ow;
      const uint8_t *v = pad;
      if (col < nk) {
        int64_t ih = oh * cv->sh + kmap[col][1] * cv->dh - cv->pt, iw = owx * cv->sw + kmap[col][2] * cv->dw - cv->pl;
        if (ih >= 0 && ih < cv->h && iw >= 0 && iw < cv->w)
          v = img + (((kmap[col][0] * cv->h + ih) * cv->w + iw) * c0 + kmap[col][3]) * es;
      }
      int64_t at = tg == PTOSIM_TARGET_A5 ? (m_pos + k / c0 * dst_stride) * 512 + m * 32 + k % c0 * es
                                          : ((m / 16) * nkb + k / c0) * 512 + (m % 16) * 32 + k % c0 * es;
      memcpy(e.img + p.dst.addr + at, v, (size_t)es);
    }
  free(kmap);
  free(img);
  char what[128];
  snprintf(what, sizeof what, "timg2col %s target %d image %dx%dx%d window %dx%d pos %d,%d dst %dx%d", pt_dtype_name(t),
           tg, cv->c, cv->h, cv->w, cv->fh, cv->fw, cv->pos_m, cv->pos_k, cv->rows, cv->cols);
  finish(&e, ptosim_timg2col(e.c, &p), what);
}

static void test_timg2col(void) {
  for (int ti = 0; ti < 2; ti++) {
    ptosim_target tg = targets[ti];
    const ptosim_dtype *ts = tg == PTOSIM_TARGET_A5 ? img_types_a5 : img_types_a2a3;
    size_t nt = tg == PTOSIM_TARGET_A5 ? sizeof img_types_a5 / sizeof *ts : sizeof img_types_a2a3 / sizeof *ts;
    for (size_t k = 0; k < nt; k++) {
      int c0 = (int)(32 / es_of(ts[k]));
      /* 3x3 same convolution of a 6x6 image with two channel blocks, the whole matrix */
      conv a = {6, 6, 2 * c0, 1, 1, 1, 1, 3, 3, 1, 1, 1, 1, 0, 0, 36, 2 * 9 * c0, false};
      img_case(tg, ts[k], &a, 3, 0);
      /* strides, dilations, uneven padding, 2x3 window; part of the matrix from an unaligned k */
      conv b = {7, 9, c0, 2, 0, 1, 3, 2, 3, 2, 2, 2, 2, 5, c0 + 3, 13, 2 * c0 - 5, true};
      img_case(tg, ts[k], &b, 2, 1);
      /* rows past the last output pixel and columns past the last channel block read padding */
      conv c = {4, 5, c0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 17, c0 - 2, 9, c0 + 7, false};
      img_case(tg, ts[k], &c, 1, 0);
    }
  }
}

static void test_img2col_registers(void) {
  env e = env_new(PTOSIM_TARGET_A2A3, PTOSIM_L0A);
  ptosim_setfmatrix_params f = {.fmap_h = 0x1234, .fmap_w = 0x5678, .pad_left = 1, .pad_right = 2, .pad_top = 3,
                                .pad_bottom = 4, .fmatrix_b = true};
  CHECK(ptosim_setfmatrix(e.c, &f) == PTOSIM_OK);
  CHECK(e.c->sreg[PT_SREG_FMATRIX_B] == 0x0403020112345678ull && e.c->sreg[PT_SREG_FMATRIX] == 0);
  ptosim_img2col_rpt_params r = {.repeat_stride = 7, .repeat_time = 1, .repeat_mode = 1, .fmatrix_b = true};
  CHECK(ptosim_set_img2col_rpt(e.c, &r) == PTOSIM_OK);
  CHECK(e.c->sreg[PT_SREG_L3D_RPT] == 0x01010007ull && e.c->sreg[PT_SREG_L3D_RPT_B] == 0); /* one register on A2/A3 */
  ptosim_img2col_padding_params pd = {.dtype = PTOSIM_DT_I8, .bits = 0xAB, .fmatrix_b = true};
  CHECK(ptosim_set_img2col_padding(e.c, &pd) == PTOSIM_OK && e.c->sreg[PT_SREG_PADDING] == 0xABAB);
  finish(&e, PTOSIM_OK, "set-up ops do not touch memory");
  env g = env_new(PTOSIM_TARGET_A5, PTOSIM_L0A);
  r.dst_stride = 9;
  r.dst_m_position = 2;
  CHECK(ptosim_set_img2col_rpt(g.c, &r) == PTOSIM_OK);
  CHECK(g.c->sreg[PT_SREG_L3D_RPT_B] == 0x0002000901010007ull && g.c->sreg[PT_SREG_L3D_RPT] == 0);
  pd.dtype = PTOSIM_DT_F32;
  pd.bits = 0x3F800000;
  pd.fmatrix_b = false;
  CHECK(ptosim_set_img2col_padding(g.c, &pd) == PTOSIM_OK && g.c->sreg[PT_SREG_PADDING] == 0x3F800000);
  finish(&g, PTOSIM_OK, "a5 set-up registers");
}

static void img_refuse(ptosim_target tg, ptosim_timg2col_params p, bool set, ptosim_status want, const char *rule) {
  env e = env_new(tg, PTOSIM_L0A);
  conv a = {6, 6, 16, 1, 1, 1, 1, 3, 3, 1, 1, 1, 1, 0, 0, 36, 144, false};
  if (set) (void)img_setup(&e, &a, PTOSIM_DT_F16, 3, 0, 0);
  refuse(&e, ptosim_timg2col(e.c, &p), want, rule);
}

static void test_timg2col_errors(void) {
  conv a = {6, 6, 16, 1, 1, 1, 1, 3, 3, 1, 1, 1, 1, 0, 0, 36, 144, false};
  for (int ti = 0; ti < 2; ti++) {
    ptosim_target tg = targets[ti];
    env e = env_new(tg, PTOSIM_L0A);
    const ptosim_timg2col_params ok = img_setup(&e, &a, PTOSIM_DT_F16, 3, 0, 0);
    finish(&e, PTOSIM_OK, "setup");
    img_refuse(tg, ok, false, PTOSIM_E_VERIFY, "timg2col.fmatrix");
    ptosim_timg2col_params p;
    img_refuse(tg, EDIT(p.src.space = PTOSIM_L0B), true, PTOSIM_E_VERIFY, "timg2col.space");
    img_refuse(tg, EDIT(p.dst.dtype = PTOSIM_DT_BF16), true, PTOSIM_E_VERIFY, "timg2col.dtype");
    img_refuse(tg, EDIT(p.dst.blayout = tg == PTOSIM_TARGET_A5 ? PTOSIM_BL_ROW_MAJOR : PTOSIM_BL_COL_MAJOR), true,
               PTOSIM_E_VERIFY, "timg2col.layout");
    img_refuse(tg, EDIT(p.stride_w = 64), true, PTOSIM_E_VERIFY, "timg2col.field");
    img_refuse(tg, EDIT(p.channel_size = 0), true, PTOSIM_E_VERIFY, "timg2col.field");
    img_refuse(tg, EDIT(p.channel_size = 8), true, PTOSIM_E_UNSUPPORTED, "timg2col.channel_size");
    img_refuse(tg, EDIT(p.transpose = true), true, PTOSIM_E_UNSUPPORTED, "timg2col.transpose");
    img_refuse(tg, EDIT(p.filter_w = 9), true, PTOSIM_E_VERIFY, "timg2col.geometry");
    img_refuse(tg, EDIT(p.src.rows = 16), true, PTOSIM_E_VERIFY, "timg2col.src_size");
  }
  /* a repeat count other than 1 */
  env e = env_new(PTOSIM_TARGET_A5, PTOSIM_L0A);
  ptosim_timg2col_params p = img_setup(&e, &a, PTOSIM_DT_F16, 3, 0, 0);
  ptosim_img2col_rpt_params r = {.repeat_time = 2, .dst_stride = 3};
  CHECK(ptosim_set_img2col_rpt(e.c, &r) == PTOSIM_OK);
  refuse(&e, ptosim_timg2col(e.c, &p), PTOSIM_E_UNSUPPORTED, "timg2col.repeat");
  /* a2a3 int16 is an A5-only type */
  env g = env_new(PTOSIM_TARGET_A2A3, PTOSIM_L0A);
  conv c = {6, 6, 16, 1, 1, 1, 1, 3, 3, 1, 1, 1, 1, 0, 0, 36, 144, false};
  p = img_setup(&g, &c, PTOSIM_DT_I16, 3, 0, 0);
  refuse(&g, ptosim_timg2col(g.c, &p), PTOSIM_E_VERIFY, "timg2col.dtype");
  /* set-up field checks */
  env h = env_new(PTOSIM_TARGET_A2A3, PTOSIM_L0A);
  ptosim_setfmatrix_params f = {.fmap_h = 1, .fmap_w = 1, .pad_top = 256};
  CHECK(ptosim_setfmatrix(h.c, &f) == PTOSIM_E_VERIFY && !strcmp(ptosim_last_diag(h.m)->rule, "setfmatrix.field"));
  ptosim_img2col_rpt_params rr = {.repeat_time = 1, .dst_stride = 4};
  CHECK(ptosim_set_img2col_rpt(h.c, &rr) == PTOSIM_E_VERIFY &&
        !strcmp(ptosim_last_diag(h.m)->rule, "set_img2col_rpt.field"));
  ptosim_img2col_padding_params pd = {.dtype = PTOSIM_DT_I64};
  CHECK(ptosim_set_img2col_padding(h.c, &pd) == PTOSIM_E_VERIFY &&
        !strcmp(ptosim_last_diag(h.m)->rule, "set_img2col_padding.dtype"));
  pd.dtype = PTOSIM_DT_F16;
  pd.bits = 0x10000;
  CHECK(ptosim_set_img2col_padding(h.c, &pd) == PTOSIM_E_VERIFY &&
        !strcmp(ptosim_last_diag(h.m)->rule, "set_img2col_padding.value"));
  finish(&h, PTOSIM_OK, "set-up errors");
}

/* ---- events ----------------------------------------------------------------------------- */

static pt_event last_event;
static void keep_event(void *user, const pt_event *ev) {
  (void)user;
  last_event = *ev;
}

/* The op's event names its pipe and exactly the rectangles it reads and writes. */
static void test_events(void) {
  env e = env_new(PTOSIM_TARGET_A5, PTOSIM_UB);
  e.m->listener = keep_event;
  ptosim_ttrans_params t = {.src = nd_tile(PTOSIM_UB, PTOSIM_DT_F16, 0x2000, 16, 32, 10, 20),
                            .tmp = nd_tile(PTOSIM_UB, PTOSIM_DT_F16, 0x8000, 16, 32, 16, 32),
                            .dst = nd_tile(PTOSIM_UB, PTOSIM_DT_F16, 0x9000, 32, 16, 20, 10)};
  CHECK(ptosim_ttrans(e.c, &t) == PTOSIM_OK);
  const pt_range *r = last_event.ranges;
  CHECK(last_event.pipe == PTOSIM_PIPE_V && last_event.nranges == 2);
  CHECK(r[0].access == PT_READ && r[0].addr == 0x2000 && r[0].nd == 1 && r[0].count[0] == 10 &&
        r[0].stride[0] == 64 && r[0].len == 40);
  CHECK(r[1].access == PT_WRITE && r[1].addr == 0x9000 && r[1].count[0] == 20 && r[1].stride[0] == 32 &&
        r[1].len == 20);
  ptosim_machine_free(e.m);
  free(e.img);
  env m = env_new(PTOSIM_TARGET_A2A3, PTOSIM_L1);
  m.m->listener = keep_event;
  ptosim_tile d = nd_tile(PTOSIM_L1, PTOSIM_DT_F16, 0x400, 32, 48, 20, 20);
  d.blayout = PTOSIM_BL_COL_MAJOR;
  d.slayout = PTOSIM_SL_ROW_MAJOR;
  d.pad = PTOSIM_PAD_ZERO;
  ptosim_tfillpad_params f = {.src = d, .dst = d};
  CHECK(ptosim_tfillpad(m.c, &f) == PTOSIM_OK);
  r = last_event.ranges;
  CHECK(last_event.pipe == PTOSIM_PIPE_MTE2 && last_event.nranges == 2);
  CHECK(r[0].access == PT_WRITE && r[0].addr == 0x400 + 20 * 32 && r[0].count[0] == 2 && r[0].stride[0] == 1024 &&
        r[0].len == 12 * 32);
  CHECK(r[1].access == PT_WRITE && r[1].addr == 0x400 + 2 * 1024 && r[1].len == 1024);
  ptosim_machine_free(m.m);
  free(m.img);
  /* A2/A3 img2col of 13 rows x 2 column blocks: a partial ZZ row block, 13 32-byte rows per fractal */
  env g = env_new(PTOSIM_TARGET_A2A3, PTOSIM_L0A);
  conv c = {4, 5, 16, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 13, 32, false};
  ptosim_timg2col_params p = img_setup(&g, &c, PTOSIM_DT_F16, 1, 0, 0);
  g.m->listener = keep_event;
  CHECK(ptosim_timg2col(g.c, &p) == PTOSIM_OK);
  r = last_event.ranges;
  CHECK(last_event.pipe == PTOSIM_PIPE_MTE1 && last_event.nranges == 2);
  CHECK(r[0].access == PT_READ && r[0].space == PTOSIM_L1 && r[0].addr == 0x1000 && r[0].len == 4 * 5 * 32);
  CHECK(r[1].access == PT_WRITE && r[1].addr == 0x200 && r[1].nd == 2 && r[1].count[0] == 2 && r[1].count[1] == 13 &&
        r[1].stride[0] == 512 && r[1].stride[1] == 32 && r[1].len == 32);
  ptosim_machine_free(g.m);
  free(g.img);
}

int main(void) {
  RUN(test_ttrans);
  RUN(test_ttrans_inplace);
  RUN(test_ttrans_errors);
  RUN(test_tfillpad_vec);
  RUN(test_tfillpad_mat);
  RUN(test_tfillpad_errors);
  RUN(test_treshape);
  RUN(test_tconcat);
  RUN(test_tconcat_errors);
  RUN(test_tpack);
  RUN(test_tpack_errors);
  RUN(test_tget_scale_addr);
  RUN(test_tget_scale_addr_errors);
  RUN(test_timg2col);
  RUN(test_img2col_registers);
  RUN(test_timg2col_errors);
  RUN(test_events);
  return pt_test_finish();
}
