/* Tiles with an empty valid region (valid_rows == 0 or valid_cols == 0), docs/spec-notes.md
 * "Empty valid regions". The whole UB (and the GM buffers) start as random bytes; an op on an
 * empty region must leave every byte as it was, tpart* with an empty source copy the other
 * one (reference: a plain element copy written here), and the undefined cases are refused
 * with their own rule ids. Both targets; one text program with a run-time valid row count of
 * 0 through `ptosim run --check all --werror`. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "core/event.h"
#include "core/optable.h"
#include "core/profile.h"
#include "cost/cost.h"
#include "ptosim/monitor.h"
#include "tile_ub_env.h"

static unsigned long long seed = 0x9E3779B97F4A7C15ull;
static const ptosim_target targets[] = {PTOSIM_TARGET_A2A3, PTOSIM_TARGET_A5};

static ptosim_tile nd(ptosim_dtype t, uint64_t addr, int rows, int cols, int vr, int vc) {
  return ub_tile(t, addr, rows, cols, vr, vc, PTOSIM_BL_ROW_MAJOR);
}

/* Copy element by element the vr x vc region of tile s onto tile d in the image. */
static void ref_copy(env *e, const ptosim_tile *d, const ptosim_tile *s, int vr, int vc) {
  for (int r = 0; r < vr; r++)
    for (int c = 0; c < vc; c++) memcpy(at(e, d, r, c), at(e, s, r, c), (size_t)es_of(d->dtype));
}

/* ---- tpartadd / tpartmul / tpartmax / tpartmin -------------------------------------------- */

/* An empty source (sr x sc, one of them 0; src0 when small0): dst = the other source. */
static void part_empty_src(ptosim_target tg, ptosim_dtype t, int f, int small0, int sr, int sc) {
  env e = env_new_seeded(tg, &seed);
  int blk = (int)(32 / es_of(t)), vr = 9, vc = 2 * blk + 5;
  ptosim_tile full = nd(t, 0x400, 12, 3 * blk, vr, vc), small = nd(t, 0x4000, 12, 3 * blk, sr, sc);
  ptosim_tile d = nd(t, 0x8000, 12, 3 * blk, vr, vc);
  env_load(&e);
  ref_copy(&e, &d, &full, vr, vc);
  ptosim_texpand_params p = {.src0 = small0 ? small : full, .src1 = small0 ? full : small, .dst = d};
  char what[96];
  snprintf(what, sizeof what, "tpart f%d %s empty src%d %dx%d target %d", f, pt_dtype_name(t), small0 ? 0 : 1, sr, sc,
           tg);
  finish(&e, run_part(e.c, f, &p), what);
}

/* An empty dst (dr x dc): nothing is written (pto-isa returns before any instruction). */
static void part_empty_dst(ptosim_target tg, int f, int dr, int dc) {
  env e = env_new_seeded(tg, &seed);
  ptosim_tile s = nd(PTOSIM_DT_F32, 0x400, 8, 16, dr, dc), d = nd(PTOSIM_DT_F32, 0x1000, 8, 16, dr, dc);
  env_load(&e);
  ptosim_texpand_params p = {.src0 = s, .src1 = s, .dst = d};
  finish(&e, run_part(e.c, f, &p), "tpart empty dst");
}

static void test_tpart(void) {
  static const ptosim_dtype types[] = {PTOSIM_DT_F32, PTOSIM_DT_F16, PTOSIM_DT_I32, PTOSIM_DT_I16};
  for (int ti = 0; ti < 2; ti++)
    for (int f = 0; f < 4; f++) {
      for (int k = 0; k < 4; k++)
        for (int small0 = 0; small0 < 2; small0++) {
          part_empty_src(targets[ti], types[k], f, small0, 0, 5);  /* no rows */
          part_empty_src(targets[ti], types[k], f, small0, 9, 0);  /* no columns */
          part_empty_src(targets[ti], types[k], f, small0, 0, 0);  /* neither */
          part_empty_src(targets[ti], types[k], f, small0, 4, 0);  /* some rows, no columns */
        }
      part_empty_dst(targets[ti], f, 0, 16);
      part_empty_dst(targets[ti], f, 8, 0);
    }
  /* Both sources empty under a non-empty dst: neither carries dst's region. */
  env e = env_new_seeded(PTOSIM_TARGET_A5, &seed);
  ptosim_texpand_params p = {.src0 = nd(PTOSIM_DT_F32, 0, 8, 16, 0, 16), .src1 = nd(PTOSIM_DT_F32, 0x1000, 8, 16, 8, 0),
                             .dst = nd(PTOSIM_DT_F32, 0x2000, 8, 16, 8, 16)};
  refuse(&e, ptosim_tpartadd(e.c, &p), "tpartadd.valid");
}

/* ---- tpartargmax / tpartargmin ------------------------------------------------------------ */

static ptosim_status run_arg(ptosim_core *c, int max, const ptosim_tconcatidx_params *p) {
  return max ? ptosim_tpartargmax(c, p) : ptosim_tpartargmin(c, p);
}

/* Values f32 / indices u32 (8 x 16 tiles at separate addresses); source `small` has sr x sc. */
static ptosim_tconcatidx_params arg_params(int small, int sr, int sc, int dr, int dc) {
  ptosim_tconcatidx_params p = {.src0 = nd(PTOSIM_DT_F32, 0x0, 8, 16, dr, dc),
                                .src1 = nd(PTOSIM_DT_F32, 0x1000, 8, 16, dr, dc),
                                .idx0 = nd(PTOSIM_DT_U32, 0x2000, 8, 16, dr, dc),
                                .idx1 = nd(PTOSIM_DT_U32, 0x3000, 8, 16, dr, dc),
                                .dst = nd(PTOSIM_DT_F32, 0x4000, 8, 16, dr, dc),
                                .dst_idx = nd(PTOSIM_DT_U32, 0x5000, 8, 16, dr, dc)};
  ptosim_tile *s = small ? &p.src1 : &p.src0, *i = small ? &p.idx1 : &p.idx0;
  s->valid_rows = i->valid_rows = sr;
  s->valid_cols = i->valid_cols = sc;
  return p;
}

static void test_tpartarg(void) {
  for (int ti = 0; ti < 2; ti++)
    for (int max = 0; max < 2; max++)
      for (int small = 0; small < 2; small++)
        for (int k = 0; k < 3; k++) {
          static const int ext[3][2] = {{0, 13}, {7, 0}, {0, 0}};
          env e = env_new_seeded(targets[ti], &seed);
          ptosim_tconcatidx_params p = arg_params(small, ext[k][0], ext[k][1], 7, 13);
          env_load(&e);
          ref_copy(&e, &p.dst, small ? &p.src0 : &p.src1, 7, 13);
          ref_copy(&e, &p.dst_idx, small ? &p.idx0 : &p.idx1, 7, 13);
          finish(&e, run_arg(e.c, max, &p), "tpartarg empty src");
        }
  /* An empty dst: a5 returns at once; a2a3's checkTiles asserts. */
  for (int max = 0; max < 2; max++) {
    env e = env_new_seeded(PTOSIM_TARGET_A5, &seed);
    ptosim_tconcatidx_params p = arg_params(0, 0, 13, 0, 13);
    env_load(&e);
    finish(&e, run_arg(e.c, max, &p), "tpartarg a5 empty dst");
    e = env_new_seeded(PTOSIM_TARGET_A2A3, &seed);
    refuse(&e, run_arg(e.c, max, &p), max ? "tpartargmax.empty" : "tpartargmin.empty");
  }
}

/* ---- tload / tstore ----------------------------------------------------------------------- */

/* A 2-D ND (or DN) view {1, 1, 1, rows, cols} of f32 at addr, rows of `pitch` elements. */
static ptosim_gm_view view2d(uint64_t addr, int64_t rows, int64_t cols, int64_t pitch, int dn) {
  ptosim_gm_view v = {.addr = addr, .dtype = PTOSIM_DT_F32, .layout = dn ? PTOSIM_GL_DN : PTOSIM_GL_ND,
                      .shape = {1, 1, 1, rows, cols}};
  int64_t s3 = dn ? 1 : pitch, s4 = dn ? pitch : 1;
  int64_t st[5] = {rows * cols * 4 + 64, rows * cols * 4 + 64, rows * cols * 4 + 64, s3, s4};
  memcpy(v.stride, st, sizeof st);
  return v;
}

static void test_tload_tstore(void) {
  enum { N = 256 };
  for (int ti = 0; ti < 2; ti++)
    for (int dn = 0; dn < 2; dn++)
      for (int k = 0; k < 2; k++) {
        int vr = k ? 8 : 0, vc = k ? 0 : 8; /* 0 x 8, 8 x 0 */
        float gm[N], canary[N];
        for (int i = 0; i < N; i++) canary[i] = gm[i] = (float)(pt_rand_u64(&seed) % 1000);
        env e = env_new_seeded(targets[ti], &seed);
        env_load(&e);
        uint64_t ga;
        CHECK(ptosim_gm_map(e.m, gm, sizeof gm, &ga) == PTOSIM_OK);
        ptosim_tile t = ub_tile(PTOSIM_DT_F32, 0x800, 8, 8, vr, vc, dn ? PTOSIM_BL_COL_MAJOR : PTOSIM_BL_ROW_MAJOR);
        ptosim_tload_params lp = {.src = view2d(ga, vr, vc, 8, dn), .dst = t};
        CHECK_MSG(ptosim_tload(e.c, &lp) == PTOSIM_OK, "tload empty: %s", ptosim_last_diag(e.m)->msg);
        ptosim_tstore_params sp = {.src = t, .dst = view2d(ga, vr, vc, 8, dn)};
        CHECK_MSG(ptosim_tstore(e.c, &sp) == PTOSIM_OK, "tstore empty: %s", ptosim_last_diag(e.m)->msg);
        CHECK(memcmp(gm, canary, sizeof gm) == 0);
        finish(&e, PTOSIM_OK, "tload / tstore empty");
      }
  /* The view must still carry the valid region. */
  env e = env_new_seeded(PTOSIM_TARGET_A5, &seed);
  ptosim_tload_params lp = {.src = view2d(0x1000, 8, 8, 8, 0), .dst = nd(PTOSIM_DT_F32, 0, 8, 8, 0, 8)};
  refuse(&e, ptosim_tload(e.c, &lp), "tload.view_shape");
  /* A pad fill of an empty tile and a mat tile have no defined empty form. */
  e = env_new_seeded(PTOSIM_TARGET_A5, &seed);
  lp = (ptosim_tload_params){.src = view2d(0x1000, 0, 8, 8, 0), .dst = nd(PTOSIM_DT_F32, 0, 8, 8, 0, 8)};
  lp.dst.pad = PTOSIM_PAD_ZERO;
  refuse(&e, ptosim_tload(e.c, &lp), "tload.empty");
  for (int ti = 0; ti < 2; ti++) {
    ptosim_machine *m = ptosim_machine_new(targets[ti], 1);
    lp.dst.pad = PTOSIM_PAD_NULL, lp.dst.space = PTOSIM_L1;
    ptosim_status st = ptosim_tload(ptosim_core_of(m, 0, PTOSIM_AIC), &lp);
    CHECK_MSG(st == PTOSIM_E_VERIFY && !strcmp(ptosim_last_diag(m)->rule, "tload.empty"), "mat: %d [%s]", (int)st,
              ptosim_last_diag(m)->rule);
    ptosim_machine_free(m);
  }
}

/* ---- column reductions -------------------------------------------------------------------- */

static ptosim_status run_col(ptosim_core *c, int f, const ptosim_treduce_params *p) {
  if (f == 0) return ptosim_tcolsum(c, p);
  if (f == 1) return ptosim_tcolmax(c, p);
  if (f == 2) return ptosim_tcolmin(c, p);
  return ptosim_tcolprod(c, p);
}

/* An empty src (sr x sc) into a dst of 1 x sc: pto-isa returns first, dst keeps its bytes. */
static void colred_empty(ptosim_target tg, ptosim_dtype t, int f, int sr, int sc, int tmp) {
  env e = env_new_seeded(tg, &seed);
  int blk = (int)(32 / es_of(t));
  ptosim_treduce_params p = {.src = nd(t, 0x400, 8, 2 * blk, sr, sc), .dst = nd(t, 0x2000, 2, 2 * blk, 1, sc)};
  if (tmp) p.has_tmp = true, p.binary = tmp > 1, p.tmp = nd(t, 0x3000, 8, 2 * blk, 8, 2 * blk);
  env_load(&e);
  char what[96];
  snprintf(what, sizeof what, "tcol f%d %s src %dx%d tmp %d target %d", f, pt_dtype_name(t), sr, sc, tmp, tg);
  finish(&e, run_col(e.c, f, &p), what);
}

static void test_colred(void) {
  static const ptosim_dtype types[] = {PTOSIM_DT_F32, PTOSIM_DT_F16, PTOSIM_DT_I32, PTOSIM_DT_I16};
  static const char *const names[] = {"tcolsum.empty", "tcolmax.empty", "tcolmin.empty", "tcolprod.empty"};
  for (int ti = 0; ti < 2; ti++)
    for (int f = 0; f < 4; f++) {
      for (int k = 0; k < 4; k++) {
        colred_empty(targets[ti], types[k], f, 0, 11, 0); /* no rows */
        colred_empty(targets[ti], types[k], f, 5, 0, 0);  /* no columns */
        colred_empty(targets[ti], types[k], f, 0, 0, 0);
      }
      /* A dst without valid rows under a non-empty src would be written at row 0. */
      env e = env_new_seeded(targets[ti], &seed);
      ptosim_treduce_params p = {.src = nd(PTOSIM_DT_F32, 0, 8, 16, 8, 16), .dst = nd(PTOSIM_DT_F32, 0x1000, 2, 16, 0, 16)};
      refuse(&e, run_col(e.c, f, &p), names[f]);
    }
  for (int ti = 0; ti < 2; ti++)
    for (int tmp = 1; tmp < 3; tmp++) colred_empty(targets[ti], PTOSIM_DT_F32, 0, 0, 8, tmp); /* tcolsum with tmp */
  /* The arg forms assert a non-empty src on both targets (TColReduceIdx.hpp TColReduceIdxCheck). */
  for (int ti = 0; ti < 2; ti++) {
    env e = env_new_seeded(targets[ti], &seed);
    ptosim_treduce_params p = {.src = nd(PTOSIM_DT_F32, 0, 8, 16, 0, 16), .dst = nd(PTOSIM_DT_U32, 0x1000, 1, 16, 1, 16),
                               .tmp = nd(PTOSIM_DT_F32, 0x2000, 8, 16, 8, 16), .has_tmp = true};
    refuse(&e, ptosim_tcolargmax(e.c, &p), "tile.empty");
  }
}

/* ---- tcolexpand / trowexpand -------------------------------------------------------------- */

/* tcolexpand of an empty dst (0 rows) or src: no write on a2a3; a5 asserts a non-empty src. */
static void test_colexpand(void) {
  static const int ext[3][4] = {{1, 24, 0, 24}, {0, 24, 7, 24}, {1, 0, 7, 0}}; /* src vr vc, dst vr vc */
  for (int ti = 0; ti < 2; ti++)
    for (int k = 0; k < 3; k++) {
      env e = env_new_seeded(targets[ti], &seed);
      ptosim_texpand_params p = {.src0 = nd(PTOSIM_DT_F16, 0x400, 2, 32, ext[k][0], ext[k][1]),
                                 .dst = nd(PTOSIM_DT_F16, 0x1000, 8, 32, ext[k][2], ext[k][3])};
      env_load(&e);
      if (k && targets[ti] == PTOSIM_TARGET_A5)
        refuse(&e, ptosim_tcolexpand(e.c, &p), "tcolexpand.empty");
      else
        finish(&e, ptosim_tcolexpand(e.c, &p), "tcolexpand empty");
    }
  /* The binary forms and trowexpand keep the refusal. */
  env e = env_new_seeded(PTOSIM_TARGET_A2A3, &seed);
  ptosim_texpand_params p = {.src0 = nd(PTOSIM_DT_F32, 0, 8, 8, 0, 8), .src1 = nd(PTOSIM_DT_F32, 0x400, 1, 8, 1, 8),
                             .dst = nd(PTOSIM_DT_F32, 0x800, 8, 8, 0, 8)};
  refuse(&e, ptosim_tcolexpandadd(e.c, &p), "tile.empty");
  e = env_new_seeded(PTOSIM_TARGET_A5, &seed);
  refuse(&e, ptosim_trowexpand(e.c, &p), "tile.empty");
}

/* trowexpand / tcolexpand move bits: random source bytes (NaN payloads, quiet and signalling,
 * planted in every tenth element) come out unchanged. Reference: a byte copy per element. */
static void expand_bits(ptosim_target tg, ptosim_dtype t, int col) {
  env e = env_new_seeded(tg, &seed);
  int es = (int)es_of(t), vr = 6, vc = 64 / es + 3;
  ptosim_tile s = nd(t, 0x400, 8, 128 / es, col ? 1 : vr, col ? vc : 1), d = nd(t, 0x1000, 8, 128 / es, vr, vc);
  static const uint32_t nan32[] = {0x7f800001u, 0xffbfffffu, 0x7fc00123u};
  static const uint16_t nan16[] = {0x7c01u, 0xfdffu, 0x7e55u}, nanbf[] = {0x7f81u, 0xffbfu, 0x7fc3u};
  for (int i = 0; i < (col ? vc : vr); i++) {
    uint8_t *q = at(&e, &s, col ? 0 : i, col ? i : 0);
    if (i % 10 == 0 && t == PTOSIM_DT_F32) memcpy(q, &nan32[i / 10 % 3], 4);
    if (i % 10 == 0 && t != PTOSIM_DT_F32) memcpy(q, t == PTOSIM_DT_F16 ? &nan16[i / 10 % 3] : &nanbf[i / 10 % 3], 2);
  }
  env_load(&e);
  for (int r = 0; r < vr; r++)
    for (int c = 0; c < vc; c++) memcpy(at(&e, &d, r, c), at(&e, &s, col ? 0 : r, col ? c : 0), (size_t)es);
  ptosim_texpand_params p = {.src0 = s, .dst = d};
  char what[64];
  snprintf(what, sizeof what, "%s %s bits target %d", col ? "tcolexpand" : "trowexpand", pt_dtype_name(t), tg);
  finish(&e, col ? ptosim_tcolexpand(e.c, &p) : ptosim_trowexpand(e.c, &p), what);
}

static void test_expand_bits(void) {
  static const ptosim_dtype types[] = {PTOSIM_DT_F32, PTOSIM_DT_F16, PTOSIM_DT_BF16};
  for (int ti = 0; ti < 2; ti++)
    for (int k = 0; k < 3; k++)
      for (int col = 0; col < 2; col++)
        for (int rep = 0; rep < 4; rep++) expand_bits(targets[ti], types[k], col);
}

/* ---- treshape / tprefetch: no valid extent is read ---------------------------------------- */

/* tprefetch stages the view at the tile start whatever the tile's valid region: with an empty
 * one the UB ends as with a full one (the same random UB and GM), and differs from the start. */
static void test_prefetch_reshape(void) {
  static const int ext[3][2] = {{8, 16}, {0, 16}, {8, 0}};
  for (int ti = 0; ti < 2; ti++) {
    float gm[64];
    for (int i = 0; i < 64; i++) gm[i] = (float)(pt_rand_u64(&seed) % 977) - 300.0f;
    unsigned long long s0 = pt_rand_u64(&seed);
    uint8_t *want = NULL;
    for (int k = 0; k < 3; k++) {
      unsigned long long sd = s0;
      env e = env_new_seeded(targets[ti], &sd);
      env_load(&e);
      uint64_t ga;
      CHECK(ptosim_gm_map(e.m, gm, sizeof gm, &ga) == PTOSIM_OK);
      ptosim_tload_params lp = {.src = view2d(ga, 4, 16, 16, 0), .dst = nd(PTOSIM_DT_F32, 0x800, 8, 16, ext[k][0], ext[k][1])};
      CHECK_MSG(ptosim_tprefetch(e.c, &lp) == PTOSIM_OK, "tprefetch valid %dx%d: %s", ext[k][0], ext[k][1],
                ptosim_last_diag(e.m)->msg);
      uint8_t *got = malloc(e.cap);
      CHECK(ptosim_mem_read(e.c, PTOSIM_UB, 0, got, e.cap) == PTOSIM_OK);
      if (!k) CHECK(memcmp(got, e.img, e.cap) != 0 && memcmp(got + 0x800, gm, 4 * 16 * 4) == 0);
      if (!k) want = got;
      else CHECK_MSG(memcmp(got, want, e.cap) == 0, "tprefetch valid %dx%d target %d", ext[k][0], ext[k][1], ti);
      if (k) free(got);
      env_free(&e);
    }
    free(want);
    /* treshape of an empty tile: the result aliases the source, nothing moves. */
    env e = env_new_seeded(targets[ti], &seed);
    env_load(&e);
    ptosim_tile r = nd(PTOSIM_DT_F32, 0, 16, 8, 0, 8);
    ptosim_treshape_params rp = {.src = nd(PTOSIM_DT_F32, 0x400, 8, 16, 0, 16), .result = &r};
    ptosim_status st = ptosim_treshape(e.c, &rp);
    CHECK(r.addr == 0x400);
    finish(&e, st, "treshape empty");
  }
}

/* ---- ops that do not take an empty region ------------------------------------------------- */

static void test_refused(void) {
  for (int ti = 0; ti < 2; ti++) {
    env e = env_new_seeded(targets[ti], &seed);
    ptosim_tile s = nd(PTOSIM_DT_F32, 0, 8, 16, 0, 16);
    ptosim_telem_params p = {.src0 = s, .src1 = s, .dst = s};
    p.dst.valid_rows = -1;
    refuse(&e, ptosim_tadd(e.c, &p), "tile.valid");
    /* Refused on both targets: the fused conversions assert valid > 0 (a5 TAddReluConv.hpp:130,
     * TAddDeqRelu.hpp:102), tcvt's a5 fp4 path zero-fills valid rows whatever the columns. */
    static const ptosim_opcode ops[] = {PTOSIM_OP_taddreluconv, PTOSIM_OP_tadddeqrelu, PTOSIM_OP_tcvt, PTOSIM_OP_trowsum};
    for (int k = 0; k < 4; k++) {
      e = env_new_seeded(targets[ti], &seed);
      p = (ptosim_telem_params){.src0 = s, .src1 = s, .dst = s};
      refuse(&e, ptosim_exec(e.c, ops[k], &p, NULL), "tile.empty");
    }
  }
  /* The a2a3 refusal of an op that A5 takes says why. */
  env e = env_new_seeded(PTOSIM_TARGET_A2A3, &seed);
  ptosim_tile s = nd(PTOSIM_DT_F32, 0, 8, 16, 0, 16);
  ptosim_telem_params p = {.src0 = s, .src1 = s, .dst = s};
  ptosim_status st = ptosim_tadd(e.c, &p);
  CHECK_MSG(st == PTOSIM_E_VERIFY && strstr(ptosim_last_diag(e.m)->hint, "A5 takes it"), "%s",
            ptosim_last_diag(e.m)->hint);
  env_free(&e);
}

/* ---- A5: the elementwise family runs zero loops ------------------------------------------- */

static const ptosim_dtype all_types[] = {PTOSIM_DT_F32, PTOSIM_DT_F16, PTOSIM_DT_BF16, PTOSIM_DT_I32, PTOSIM_DT_U32,
                                         PTOSIM_DT_I16, PTOSIM_DT_U16, PTOSIM_DT_I8,  PTOSIM_DT_U8,  PTOSIM_DT_I64,
                                         PTOSIM_DT_U64};
#define NTYPES (int)(sizeof all_types / sizeof all_types[0])

/* Every operand of op at its own address, vr x vc of 8 x 32 tiles of t; tmp given. */
static ptosim_telem_params elem_params(ptosim_dtype t, int vr, int vc) {
  ptosim_telem_params p = {.src0 = nd(t, 0x400, 8, 32, vr, vc), .src1 = nd(t, 0x1400, 8, 32, vr, vc),
                           .src2 = nd(t, 0x2400, 8, 32, vr, vc), .dst = nd(t, 0x3400, 8, 32, vr, vc),
                           .tmp = nd(t, 0x4400, 8, 32, 8, 32), .has_tmp = true,
                           .scalar = {PTOSIM_DT_I32, 3}};
  return p;
}

/* Whether op takes element type t on A5 (high precision: hp): a 1 x 1 run is not refused with <op>.dtype (or the
 * wrong family's rule for a 64-bit type: cols64 is a legal type). */
static bool elem_type_ok(ptosim_opcode op, ptosim_dtype t, int hp) {
  env e = env_new_seeded(PTOSIM_TARGET_A5, &seed);
  env_load(&e);
  ptosim_telem_params p = elem_params(t, 1, 1);
  p.high_precision = hp;
  ptosim_status st = ptosim_exec(e.c, op, &p, NULL);
  const char *rule = ptosim_last_diag(e.m)->rule, *dot = strchr(rule, '.');
  bool ok = st == PTOSIM_OK || !dot || strcmp(dot, ".dtype");
  env_free(&e);
  return ok;
}

static void test_elem_a5(void) {
  static const ptosim_opcode ops[] = {
      PTOSIM_OP_tadd,  PTOSIM_OP_tsub,  PTOSIM_OP_tmul,  PTOSIM_OP_tdiv,   PTOSIM_OP_tmax,   PTOSIM_OP_tmin,
      PTOSIM_OP_tand,  PTOSIM_OP_tor,   PTOSIM_OP_txor,  PTOSIM_OP_tshl,   PTOSIM_OP_tshr,   PTOSIM_OP_tfmod,
      PTOSIM_OP_trem,  PTOSIM_OP_tprelu, PTOSIM_OP_taddrelu, PTOSIM_OP_tsubrelu, PTOSIM_OP_taddc, PTOSIM_OP_tsubc,
      PTOSIM_OP_tfusedmuladd, PTOSIM_OP_tfusedmuladdrelu, PTOSIM_OP_tmuladddst, PTOSIM_OP_tadds, PTOSIM_OP_tsubs,
      PTOSIM_OP_tmuls, PTOSIM_OP_tdivs, PTOSIM_OP_tmaxs, PTOSIM_OP_tmins, PTOSIM_OP_tands, PTOSIM_OP_tors,
      PTOSIM_OP_txors, PTOSIM_OP_tshls, PTOSIM_OP_tshrs, PTOSIM_OP_tfmods, PTOSIM_OP_trems, PTOSIM_OP_tlrelu,
      PTOSIM_OP_taddsc, PTOSIM_OP_tsubsc, PTOSIM_OP_taxpy, PTOSIM_OP_tabs, PTOSIM_OP_tneg, PTOSIM_OP_tnot,
      PTOSIM_OP_texp, PTOSIM_OP_tlog, PTOSIM_OP_tsqrt, PTOSIM_OP_trsqrt, PTOSIM_OP_trecip, PTOSIM_OP_trelu,
      PTOSIM_OP_texpands, PTOSIM_OP_tpow, PTOSIM_OP_tpows};
  static const int ext[3][2] = {{0, 19}, {5, 0}, {0, 0}};
  int runs = 0;
  for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
    int types = 0;
    for (int ti = 0; ti < NTYPES; ti++) {
      if (!elem_type_ok(ops[k], all_types[ti], 0)) continue;
      types++;
      for (int x = 0; x < 3; x++)
        for (int hp = 0; hp < 2; hp++) {
          if (hp && !elem_type_ok(ops[k], all_types[ti], 1)) continue;
          env e = env_new_seeded(PTOSIM_TARGET_A5, &seed);
          env_load(&e);
          ptosim_telem_params p = elem_params(all_types[ti], ext[x][0], ext[x][1]);
          p.high_precision = hp;
          char what[96];
          snprintf(what, sizeof what, "a5 %s %s %dx%d hp %d", ptosim_op_spelling(ops[k]), pt_dtype_name(all_types[ti]),
                   ext[x][0], ext[x][1], hp);
          finish(&e, ptosim_exec(e.c, ops[k], &p, NULL), what);
          runs++;
        }
      env e = env_new_seeded(PTOSIM_TARGET_A2A3, &seed);
      ptosim_telem_params p = elem_params(all_types[ti], 0, 19);
      refuse(&e, ptosim_exec(e.c, ops[k], &p, NULL), "tile.empty");
    }
    CHECK_MSG(types > 0, "%s: no element type", ptosim_op_spelling(ops[k]));
  }
  CHECK(runs > 500);
  /* texpands of a col-major vec tile (the fill of the transposed view). */
  for (int x = 0; x < 3; x++) {
    env e = env_new_seeded(PTOSIM_TARGET_A5, &seed);
    env_load(&e);
    ptosim_telem_params p = {.dst = ub_tile(PTOSIM_DT_F16, 0x800, 16, 16, ext[x][0], ext[x][1] % 16, PTOSIM_BL_COL_MAJOR),
                             .scalar = {PTOSIM_DT_F32, 0}};
    finish(&e, ptosim_texpands(e.c, &p), "a5 texpands DN");
  }
}

/* ---- A5: tcmp / tcmps, tsel / tsels ------------------------------------------------------- */

/* tcmp / tcmps of an empty vr x vc region into a u8 predicate tile of 8 x 64 bytes: nothing
 * written, but for 64-bit types with valid rows: each row's 32-byte predicate store, all zero
 * (a5 Int64Compare, Int64CompareScalar). */
static void cmp_empty(ptosim_dtype t, int scalar, int vr, int vc) {
  env e = env_new_seeded(PTOSIM_TARGET_A5, &seed);
  ptosim_telem_params p = {.src0 = nd(t, 0x400, 8, 32, vr, vc), .src1 = nd(t, 0x1400, 8, 32, vr, vc),
                           .dst = nd(PTOSIM_DT_U8, 0x3000, 8, 64, vr, 64), .cmp = PTOSIM_TCMP_LT,
                           .scalar = {PTOSIM_DT_I32, 1}};
  env_load(&e);
  if (es_of(t) == 8)
    for (int r = 0; r < vr; r++) memset(at(&e, &p.dst, r, 0), 0, 32);
  char what[64];
  snprintf(what, sizeof what, "a5 %s %s %dx%d", scalar ? "tcmps" : "tcmp", pt_dtype_name(t), vr, vc);
  finish(&e, scalar ? ptosim_tcmps(e.c, &p) : ptosim_tcmp(e.c, &p), what);
}

/* tsel / tsels of an empty region: nothing written. */
static void sel_empty(ptosim_dtype t, int scalar, int vr, int vc) {
  env e = env_new_seeded(PTOSIM_TARGET_A5, &seed);
  ptosim_telem_params p = {.src0 = nd(t, 0x400, 8, 32, vr, vc), .src1 = nd(t, 0x1400, 8, 32, vr, vc),
                           .dst = nd(t, 0x2400, 8, 32, vr, vc), .mask = nd(PTOSIM_DT_U8, 0x3400, 8, 32, 8, 32),
                           .scalar = {PTOSIM_DT_I32, 1}};
  env_load(&e);
  finish(&e, scalar ? ptosim_tsels(e.c, &p) : ptosim_tsel(e.c, &p), "a5 tsel empty");
}

static void test_cmp_sel_a5(void) {
  static const ptosim_dtype cmp_types[] = {PTOSIM_DT_F32, PTOSIM_DT_F16, PTOSIM_DT_BF16, PTOSIM_DT_I32, PTOSIM_DT_U32,
                                           PTOSIM_DT_I16, PTOSIM_DT_I8,  PTOSIM_DT_U8,   PTOSIM_DT_I64, PTOSIM_DT_U64};
  static const ptosim_dtype sel_types[] = {PTOSIM_DT_F32, PTOSIM_DT_F16, PTOSIM_DT_I32, PTOSIM_DT_I16,
                                           PTOSIM_DT_I8,  PTOSIM_DT_U8,  PTOSIM_DT_I64};
  static const int ext[3][2] = {{0, 24}, {6, 0}, {0, 0}};
  for (int scalar = 0; scalar < 2; scalar++)
    for (int x = 0; x < 3; x++) {
      for (int k = 0; k < 10; k++) cmp_empty(cmp_types[k], scalar, ext[x][0], ext[x][1]);
      for (int k = 0; k < 7; k++) sel_empty(sel_types[k], scalar, ext[x][0], ext[x][1]);
    }
  /* a2a3 keeps the refusal. */
  env e = env_new_seeded(PTOSIM_TARGET_A2A3, &seed);
  ptosim_telem_params p = {.src0 = nd(PTOSIM_DT_F32, 0x400, 8, 32, 0, 24), .src1 = nd(PTOSIM_DT_F32, 0x1400, 8, 32, 0, 24),
                           .dst = nd(PTOSIM_DT_U8, 0x3000, 8, 64, 0, 64), .mask = nd(PTOSIM_DT_U8, 0x3400, 8, 32, 8, 32)};
  refuse(&e, ptosim_tcmp(e.c, &p), "tile.empty");
  e = env_new_seeded(PTOSIM_TARGET_A2A3, &seed);
  p.dst = p.src0;
  refuse(&e, ptosim_tsel(e.c, &p), "tile.empty");
}

/* ---- A5: ttri, tci ------------------------------------------------------------------------ */

static void test_tri_ci_a5(void) {
  static const int ext[3][2] = {{0, 24}, {6, 0}, {0, 0}};
  static const ptosim_dtype tri_types[] = {PTOSIM_DT_F32, PTOSIM_DT_F16, PTOSIM_DT_I8, PTOSIM_DT_I64};
  for (int k = 0; k < 4; k++)
    for (int x = 0; x < 3; x++) {
      env e = env_new_seeded(PTOSIM_TARGET_A5, &seed);
      env_load(&e);
      ptosim_ttri_params p = {.dst = nd(tri_types[k], 0x400, 8, 32, ext[x][0], ext[x][1]), .diagonal = 2, .upper = x & 1};
      finish(&e, ptosim_ttri(e.c, &p), "a5 ttri empty");
    }
  /* tci reads dst's valid columns only (a5 Tci.hpp:44-48): 0 columns write nothing, 0 rows
   * with columns write the sequence all the same (reference: start + c, wrapped). */
  static const ptosim_dtype ci_types[] = {PTOSIM_DT_I16, PTOSIM_DT_U16, PTOSIM_DT_I32, PTOSIM_DT_U32};
  for (int k = 0; k < 4; k++)
    for (int x = 0; x < 3; x++)
      for (int desc = 0; desc < 2; desc++) {
        env e = env_new_seeded(PTOSIM_TARGET_A5, &seed);
        ptosim_tci_params p = {.dst = nd(ci_types[k], 0x400, 1, 32, ext[x][0] ? 1 : 0, ext[x][1]), .start = -7,
                               .descending = desc};
        env_load(&e);
        for (int c = 0; c < ext[x][1]; c++) {
          int64_t v = desc ? -7 - c : -7 + c;
          memcpy(at(&e, &p.dst, 0, c), &v, (size_t)es_of(ci_types[k])); /* little-endian low bytes */
        }
        finish(&e, ptosim_tci(e.c, &p), "a5 tci empty");
      }
  /* With a tmp, a5 runs (uint16_t)(0 - 1) full stores for 0 columns. */
  env e = env_new_seeded(PTOSIM_TARGET_A5, &seed);
  ptosim_tci_params p = {.dst = nd(PTOSIM_DT_I32, 0x400, 1, 32, 1, 0), .has_tmp = true,
                         .tmp = nd(PTOSIM_DT_I32, 0x800, 1, 64, 1, 64)};
  refuse(&e, ptosim_tci(e.c, &p), "tci.empty");
  e = env_new_seeded(PTOSIM_TARGET_A2A3, &seed);
  p.has_tmp = false;
  refuse(&e, ptosim_tci(e.c, &p), "tile.empty");
  e = env_new_seeded(PTOSIM_TARGET_A2A3, &seed);
  ptosim_ttri_params tp = {.dst = nd(PTOSIM_DT_F32, 0x400, 8, 32, 0, 8)};
  refuse(&e, ptosim_ttri(e.c, &tp), "tile.empty");
}

/* ---- A5: the binary row / column broadcasts ----------------------------------------------- */

static void test_expand_bin_a5(void) {
  static const ptosim_opcode row_ops[] = {PTOSIM_OP_trowexpandadd, PTOSIM_OP_trowexpandsub, PTOSIM_OP_trowexpandmul,
                                          PTOSIM_OP_trowexpanddiv, PTOSIM_OP_trowexpandmax, PTOSIM_OP_trowexpandmin,
                                          PTOSIM_OP_trowexpandexpdif};
  static const ptosim_opcode col_ops[] = {PTOSIM_OP_tcolexpandadd, PTOSIM_OP_tcolexpandsub, PTOSIM_OP_tcolexpandmul,
                                          PTOSIM_OP_tcolexpanddiv, PTOSIM_OP_tcolexpandmax, PTOSIM_OP_tcolexpandmin,
                                          PTOSIM_OP_tcolexpandexpdif};
  static const int ext[3][2] = {{0, 24}, {6, 0}, {0, 0}};
  for (int k = 0; k < 7; k++)
    for (int x = 0; x < 3; x++)
      for (int sw = 0; sw < 2; sw++) {
        int vr = ext[x][0], vc = ext[x][1];
        ptosim_tile full = nd(PTOSIM_DT_F32, 0x400, 8, 32, vr, vc), d = nd(PTOSIM_DT_F32, 0x2000, 8, 32, vr, vc);
        /* per-row operand: an ND tile of one 32-byte block a row; per-column: one row. */
        ptosim_tile rowb = nd(PTOSIM_DT_F32, 0x1400, 8, 8, vr, 8), colb = nd(PTOSIM_DT_F32, 0x1800, 1, 32, 1, vc);
        for (int col = 0; col < 2; col++) {
          env e = env_new_seeded(PTOSIM_TARGET_A5, &seed);
          env_load(&e);
          ptosim_tile b = col ? colb : rowb;
          ptosim_texpand_params p = {.src0 = sw ? b : full, .src1 = sw ? full : b, .dst = d};
          char what[64];
          snprintf(what, sizeof what, "a5 %s %dx%d", ptosim_op_spelling(col ? col_ops[k] : row_ops[k]), vr, vc);
          finish(&e, ptosim_exec(e.c, col ? col_ops[k] : row_ops[k], &p, NULL), what);
        }
      }
  /* An empty per-column source under a non-empty dst: a5 would read its row 0. */
  for (int k = 0; k < 7; k++) {
    env e = env_new_seeded(PTOSIM_TARGET_A5, &seed);
    ptosim_texpand_params p = {.src0 = nd(PTOSIM_DT_F32, 0x400, 8, 32, 6, 24), .src1 = nd(PTOSIM_DT_F32, 0x1800, 1, 32, 0, 24),
                               .dst = nd(PTOSIM_DT_F32, 0x2000, 8, 32, 6, 24)};
    char rule[48];
    snprintf(rule, sizeof rule, "%s.empty", ptosim_op_spelling(col_ops[k]) + 4); /* past "pto." */
    refuse(&e, ptosim_exec(e.c, col_ops[k], &p, NULL), rule);
    e = env_new_seeded(PTOSIM_TARGET_A2A3, &seed);
    p.dst.valid_rows = p.src0.valid_rows = 0, p.src1.valid_rows = 1;
    refuse(&e, ptosim_exec(e.c, row_ops[k], &p, NULL), "tile.empty");
  }
}

/* ---- cost: an empty op is its fixed cost -------------------------------------------------- */

/* The makespan of op on an A5 machine under the monitor (timeline on), its operands p. */
static uint64_t makespan_of(ptosim_opcode op, const void *p) {
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  ptosim_monitor_opts o = ptosim_monitor_defaults();
  ptosim_monitor *mon = ptosim_monitor_attach(m, &o);
  ptosim_status st = ptosim_exec(ptosim_core_of(m, 0, PTOSIM_AIV0), op, p, NULL);
  CHECK_MSG(st == PTOSIM_OK, "%s: %s", ptosim_op_spelling(op), ptosim_last_diag(m)->msg);
  ptosim_monitor_finish(mon);
  uint64_t t = ptosim_monitor_total_cycles(mon);
  CHECK(ptosim_monitor_count(mon, PTOSIM_SEV_ERROR) == 0 && ptosim_monitor_count(mon, PTOSIM_SEV_WARNING) == 0);
  ptosim_monitor_free(mon);
  ptosim_machine_free(m);
  return t;
}

/* An empty op records no range and no work: the vector model gives its class's fixed cost
 * (elem_cycles with 0 rows of 0 bytes: fixed_1d), the same for every empty shape and below the
 * cost of one element. Reference: the issue cycles plus pt_cost_vec_cycles of an event without
 * ranges (A5 tadd: 1 + 55). */
static void test_cost_empty(void) {
  static const ptosim_opcode ops[] = {PTOSIM_OP_tadd, PTOSIM_OP_texp, PTOSIM_OP_tcmp, PTOSIM_OP_trowexpandadd};
  static const int ext[3][2] = {{0, 16}, {8, 0}, {0, 0}};
  const pt_profile *a5 = pt_profile_get(PTOSIM_TARGET_A5);
  for (int k = 0; k < 4; k++) {
    pt_event ev;
    memset(&ev, 0, sizeof ev);
    ev.op = ops[k], ev.pipe = PTOSIM_PIPE_V, ev.work_dtype = PTOSIM_DT_F32;
    uint64_t fixed = pt_cost_vec_cycles(a5, &ev, pt_op_cost_class(ops[k])), t[4];
    for (int x = 0; x < 4; x++) {
      int vr = x < 3 ? ext[x][0] : 1, vc = x < 3 ? ext[x][1] : 1;
      ptosim_texpand_params bp = {.src0 = nd(PTOSIM_DT_F32, 0x400, 8, 16, vr, vc),
                                  .src1 = nd(PTOSIM_DT_F32, 0x1000, 8, 8, vr, 8),
                                  .dst = nd(PTOSIM_DT_F32, 0x2000, 8, 16, vr, vc)};
      ptosim_telem_params ep = {.src0 = bp.src0, .src1 = nd(PTOSIM_DT_F32, 0x1000, 8, 16, vr, vc),
                                .dst = ops[k] == PTOSIM_OP_tcmp ? nd(PTOSIM_DT_U8, 0x2000, 8, 64, vr, 64) : bp.dst};
      t[x] = makespan_of(ops[k], ops[k] == PTOSIM_OP_trowexpandadd ? (const void *)&bp : (const void *)&ep);
    }
    CHECK_MSG(fixed > 0 && t[0] == t[1] && t[1] == t[2] && t[0] < t[3], "%s: empty %llu %llu %llu, 1x1 %llu",
              ptosim_op_spelling(ops[k]), (unsigned long long)t[0], (unsigned long long)t[1],
              (unsigned long long)t[2], (unsigned long long)t[3]);
    uint64_t issue = pt_cost_issue_cycles(a5);
    CHECK_MSG(t[0] == issue + fixed, "%s: empty %llu, issue %llu + fixed cost %llu", ptosim_op_spelling(ops[k]),
              (unsigned long long)t[0], (unsigned long long)issue, (unsigned long long)fixed);
  }
}

/* ---- tfillpad ----------------------------------------------------------------------------- */

/* The bytes of pad value v for type t, spelled out (tfillpad.md: +-inf for floats, the type's
 * limits for integers, 0 for zero). */
static uint64_t pad_of(ptosim_dtype t, ptosim_pad_value v) {
  if (v == PTOSIM_PAD_ZERO) return 0;
  bool mx = v == PTOSIM_PAD_MAX;
  switch (t) {
    case PTOSIM_DT_F32: return mx ? 0x7f800000u : 0xff800000u;
    case PTOSIM_DT_F16: return mx ? 0x7c00u : 0xfc00u;
    case PTOSIM_DT_I16: return mx ? 0x7fffu : 0x8000u;
    case PTOSIM_DT_U8: return mx ? 0xffu : 0u;
    default: return mx ? 0x7fu : 0x80u; /* i8 */
  }
}

/* tfillpad (form 0), _inplace (1), _expand (2) with src vr x vc, dst dvr x dvc. a5: rows
 * below src's valid rows keep (copy) the source columns and are padded after them, rows up to
 * dst's valid rows are padded in full (a5 TFillPad.hpp:76-100; dst's valid columns are not
 * read); a2a3: an empty dst writes nothing (TFillPad.hpp:288/316/389), an empty src under a
 * non-empty dst is refused. */
static void fillpad_case(ptosim_target tg, ptosim_dtype t, ptosim_pad_value pv, int form, int vr, int vc, int dvr,
                         int dvc) {
  env e = env_new_seeded(tg, &seed);
  int cols = (int)(64 / es_of(t));
  ptosim_tile s = nd(t, 0x400, 8, cols, vr, vc), d = nd(t, form == 1 ? 0x400 : 0x1000, 8, cols, dvr, dvc);
  s.pad = PTOSIM_PAD_NULL, d.pad = pv;
  if (form == 2) d.rows = 10, d.cols = 2 * cols;
  ptosim_tfillpad_params p = {.src = s, .dst = d};
  env_load(&e);
  bool dst_empty = !dvr || !dvc;
  ptosim_status st = form == 0 ? ptosim_tfillpad(e.c, &p) : form == 1 ? ptosim_tfillpad_inplace(e.c, &p)
                                                                       : ptosim_tfillpad_expand(e.c, &p);
  if (tg == PTOSIM_TARGET_A2A3 && !dst_empty) {
    refuse(&e, st, "tfillpad.empty");
    return;
  }
  uint64_t pad = pad_of(t, pv);
  for (int r = 0; r < dvr && tg == PTOSIM_TARGET_A5; r++)
    for (int c = 0; c < d.cols; c++) {
      bool keep = r < vr && c < vc;
      if (!keep) memcpy(at(&e, &d, r, c), &pad, (size_t)es_of(t));
      if (keep && form != 1) memcpy(at(&e, &d, r, c), at(&e, &s, r, c), (size_t)es_of(t));
    }
  char what[96];
  snprintf(what, sizeof what, "tfillpad form %d %s src %dx%d dst %dx%d target %d", form, pt_dtype_name(t), vr, vc, dvr,
           dvc, tg);
  finish(&e, st, what);
}

static void test_fillpad(void) {
  static const ptosim_dtype types[] = {PTOSIM_DT_F32, PTOSIM_DT_F16, PTOSIM_DT_I16, PTOSIM_DT_U8, PTOSIM_DT_I8};
  static const ptosim_pad_value pads[] = {PTOSIM_PAD_ZERO, PTOSIM_PAD_MAX, PTOSIM_PAD_MIN};
  /* src vr vc, dst vr vc */
  static const int ext[][4] = {{0, 5, 6, 5}, {0, 0, 6, 9}, {4, 0, 6, 9}, {4, 0, 4, 0}, {0, 5, 0, 5}, {0, 0, 0, 0},
                               {3, 5, 7, 0}};
  for (int ti = 0; ti < 2; ti++)
    for (int k = 0; k < 5; k++)
      for (int pv = 0; pv < 3; pv++)
        for (int form = 0; form < 3; form++)
          for (size_t x = 0; x < sizeof ext / sizeof ext[0]; x++)
            fillpad_case(targets[ti], types[k], pads[pv], form, ext[x][0], ext[x][1], ext[x][2], ext[x][3]);
  /* A mat tile of an empty region would run create_cbuf_matrix with a repeat count of 0. */
  for (int ti = 0; ti < 2; ti++) {
    ptosim_machine *m = ptosim_machine_new(targets[ti], 1);
    ptosim_tile t = {.space = PTOSIM_L1, .addr = 0, .dtype = PTOSIM_DT_F16, .rows = 16, .cols = 16, .valid_rows = 0,
                     .valid_cols = 16, .blayout = PTOSIM_BL_COL_MAJOR, .slayout = PTOSIM_SL_ROW_MAJOR, .fractal = 512,
                     .pad = PTOSIM_PAD_ZERO};
    ptosim_tfillpad_params p = {.src = t, .dst = t};
    ptosim_status st = ptosim_tfillpad(ptosim_core_of(m, 0, PTOSIM_AIC), &p);
    CHECK_MSG(st == PTOSIM_E_VERIFY && !strcmp(ptosim_last_diag(m)->rule, "tfillpad.empty"), "mat: %d [%s]", (int)st,
              ptosim_last_diag(m)->rule);
    ptosim_machine_free(m);
  }
}

/* ---- text: a run-time valid row count of 0 ----------------------------------------------- */

#define VT(vr) \
  "!pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=8, v_row=" vr ", v_col=8, blayout=row_major, slayout=none_box, fractal=512, pad=0>"

/* o = tpartmax(x, empty tile loaded from the 0-row view of y) = x; the empty tile is stored
 * back into y's 0-row view (nothing written). */
static const char *text_src =
    "func.func @k(%x: !pto.ptr<f32>, %y: !pto.ptr<f32>, %o: !pto.ptr<f32>, %n: index) attributes {pto.kernel} {\n"
    "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  %c8 = arith.constant 8 : index\n"
    "  %vx = pto.make_tensor_view %x, shape = [%c8, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xf32>\n"
    "  %vy = pto.make_tensor_view %y, shape = [%n, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xf32>\n"
    "  %vo = pto.make_tensor_view %o, shape = [%c8, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xf32>\n"
    "  %a = pto.alloc_tile : " VT("8") "\n"
    "  %b = pto.alloc_tile valid_row = %n : " VT("?") "\n"
    "  %d = pto.alloc_tile : " VT("8") "\n"
    "  pto.tload ins(%vx : !pto.tensor_view<?x?xf32>) outs(%a : " VT("8") ")\n"
    "  pto.tload ins(%vy : !pto.tensor_view<?x?xf32>) outs(%b : " VT("?") ")\n"
    "  pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]\n  pto.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]\n"
    "  pto.tpartmax ins(%a, %b : " VT("8") ", " VT("?") ") outs(%d : " VT("8") ")\n"
    "  pto.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]\n  pto.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]\n"
    "  pto.tstore ins(%d : " VT("8") ") outs(%vo : !pto.tensor_view<?x?xf32>)\n"
    "  pto.tstore ins(%b : " VT("?") ") outs(%vy : !pto.tensor_view<?x?xf32>)\n"
    "  return\n}\n";

static void save_f32(const char *path, const float *v, int n) {
  FILE *f = fopen(path, "wb");
  CHECK(f && fwrite(v, 4, (size_t)n, f) == (size_t)n);
  if (f) fclose(f);
}

static void test_text(void) {
  char dir[] = "/tmp/ptosim_empty.XXXXXX", path[256], cmd[2048];
  CHECK(mkdtemp(dir) != NULL);
  float x[64], y[64], o[64];
  for (int i = 0; i < 64; i++) x[i] = (float)i - 20.5f, y[i] = 1000.0f + (float)i, o[i] = -1.0f;
  snprintf(path, sizeof path, "%s/k.pto", dir);
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (!f) return;
  fputs(text_src, f);
  fclose(f);
  static const char *const names[] = {"x.bin", "y.bin", "o.bin"};
  const float *bufs[] = {x, y, o};
  for (int ti = 0; ti < 2; ti++) {
    for (int i = 0; i < 3; i++) {
      snprintf(path, sizeof path, "%s/%s", dir, names[i]);
      save_f32(path, bufs[i], 64);
    }
    snprintf(cmd, sizeof cmd, "cd %s && %s run --check all --werror --target %s k.pto x.bin y.bin o.bin 0 >log 2>&1",
             dir, PTOSIM_CLI, ti ? "a5" : "a2a3");
    int st = system(cmd);
    CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 0, "ptosim run (target %d) exit %d", ti, WEXITSTATUS(st));
    float got[64];
    for (int i = 0; i < 3; i++) {
      snprintf(path, sizeof path, "%s/%s", dir, names[i]);
      FILE *g = fopen(path, "rb");
      CHECK(g && fread(got, 4, 64, g) == 64);
      if (g) fclose(g);
      const float *want = i == 2 ? x : bufs[i]; /* o = x; x and y untouched */
      CHECK_MSG(memcmp(got, want, sizeof got) == 0, "%s after the run (target %d)", names[i], ti);
    }
  }
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  CHECK(system(cmd) == 0);
}

int main(void) {
  RUN(test_tpart);
  RUN(test_tpartarg);
  RUN(test_tload_tstore);
  RUN(test_colred);
  RUN(test_colexpand);
  RUN(test_expand_bits);
  RUN(test_prefetch_reshape);
  RUN(test_refused);
  RUN(test_elem_a5);
  RUN(test_cmp_sel_a5);
  RUN(test_tri_ci_a5);
  RUN(test_expand_bin_a5);
  RUN(test_fillpad);
  RUN(test_cost_empty);
  RUN(test_text);
  return pt_test_finish();
}
