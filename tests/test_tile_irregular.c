/* Irregular tile ops: pto.tci, pto.ttri, pto.tgetval, pto.tsetval, pto.tpartadd / tpartmul /
 * tpartmax / tpartmin, from the C API and from .pto text. Positive cases fill the whole UB with
 * random bytes, apply a reference written from the formulas of pto-isa docs/isa/tile/ops
 * (irregular-and-complex) to a copy of the image and compare the whole UB after the op. */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "tile_ub_env.h"

static unsigned long long seed = 0xD1B54A32D192ED03ull;
static const ptosim_target targets[] = {PTOSIM_TARGET_A2A3, PTOSIM_TARGET_A5};

static env env_new(ptosim_target t) { return env_new_seeded(t, &seed); }

static ptosim_tile nd(ptosim_dtype t, uint64_t addr, int rows, int cols, int vr, int vc) {
  return ub_tile(t, addr, rows, cols, vr, vc, PTOSIM_BL_ROW_MAJOR);
}

/* ---- tci ------------------------------------------------------------------------------------ */

static void test_tci(void) {
  static const ptosim_dtype types[] = {PTOSIM_DT_I16, PTOSIM_DT_U16, PTOSIM_DT_I32, PTOSIM_DT_U32};
  static const int64_t starts[] = {0, 5, -3, 32760, 2147483640};
  for (int ti = 0; ti < 2; ti++)
    for (int k = 0; k < 4; k++)
      for (int s = 0; s < 5; s++)
        for (int desc = 0; desc < 2; desc++) {
          ptosim_dtype t = types[k];
          int64_t es = es_of(t), blk = 32 / es;
          env e = env_new(targets[ti]);
          env_load(&e);
          ptosim_tile d = nd(t, 0x800, 4, (int)(3 * blk), 3, (int)(2 * blk + 3));
          for (int64_t c = 0; c < d.valid_cols; c++) {
            uint64_t v = (uint64_t)starts[s] + (uint64_t)(desc ? -c : c); /* S +- c modulo 2^64, low bytes kept */
            memcpy(at(&e, &d, 0, c), &v, (size_t)es);
          }
          ptosim_tci_params p = {.dst = d, .start = starts[s], .descending = desc};
          finish(&e, ptosim_tci(e.c, &p), "tci");
        }
  env e = env_new(PTOSIM_TARGET_A5);
  ptosim_tci_params p = {.dst = nd(PTOSIM_DT_F32, 0, 1, 8, 1, 8)};
  refuse(&e, ptosim_tci(e.c, &p), "tci.dtype");
  e = env_new(PTOSIM_TARGET_A5);
  p.dst = nd(PTOSIM_DT_I32, 0, 8, 1, 8, 1);
  refuse(&e, ptosim_tci(e.c, &p), "tile.align"); /* a one-column ND tile of 4-byte rows */
}

/* ---- ttri ----------------------------------------------------------------------------------- */

static void test_ttri(void) {
  static const ptosim_dtype types[] = {PTOSIM_DT_F32, PTOSIM_DT_F16, PTOSIM_DT_I32, PTOSIM_DT_U16, PTOSIM_DT_BF16,
                                       PTOSIM_DT_I8};
  for (int ti = 0; ti < 2; ti++)
    for (int k = 0; k < 6; k++) {
      ptosim_dtype t = types[k];
      if (k >= 4 && targets[ti] != PTOSIM_TARGET_A5) continue;
      for (int upper = 0; upper < 2; upper++)
        for (int64_t dg = -12; dg <= 40; dg += 4) {
          int64_t es = es_of(t), blk = 32 / es;
          env e = env_new(targets[ti]);
          env_load(&e);
          ptosim_tile d = nd(t, 0x400, 16, (int)(2 * blk), 13, (int)(blk + 5));
          uint8_t one[4], zero[4] = {0};
          float f1 = 1.0f;
          if (t == PTOSIM_DT_F32) memcpy(one, &f1, 4);
          else if (t == PTOSIM_DT_F16) { uint16_t h = 0x3C00; memcpy(one, &h, 2); }
          else if (t == PTOSIM_DT_BF16) { uint16_t h = 0x3F80; memcpy(one, &h, 2); }
          else { uint32_t i1 = 1; memcpy(one, &i1, 4); }
          for (int64_t i = 0; i < d.valid_rows; i++)
            for (int64_t j = 0; j < d.valid_cols; j++) {
              int is_one = upper ? !(j < i + dg) : j <= i + dg;
              memcpy(at(&e, &d, i, j), is_one ? one : zero, (size_t)es);
            }
          ptosim_ttri_params p = {.dst = d, .diagonal = dg, .upper = upper};
          finish(&e, ptosim_ttri(e.c, &p), "ttri");
        }
    }
  env e = env_new(PTOSIM_TARGET_A2A3);
  ptosim_ttri_params p = {.dst = nd(PTOSIM_DT_F32, 0, 8, 8, 8, 8), .upper = 2};
  refuse(&e, ptosim_ttri(e.c, &p), "ttri.mode");
  e = env_new(PTOSIM_TARGET_A2A3);
  p = (ptosim_ttri_params){.dst = nd(PTOSIM_DT_I8, 0, 8, 32, 8, 32)};
  refuse(&e, ptosim_ttri(e.c, &p), "ttri.dtype"); /* i8 on A5 only */
  e = env_new(PTOSIM_TARGET_A5);
  p = (ptosim_ttri_params){.dst = nd(PTOSIM_DT_F32, 0, 8, 8, 8, 8), .diagonal = INT64_MAX};
  env_load(&e);
  for (int64_t i = 0; i < 8; i++)
    for (int64_t j = 0; j < 8; j++) {
      float one = 1.0f;
      memcpy(at(&e, &p.dst, i, j), &one, 4);
    }
  finish(&e, ptosim_ttri(e.c, &p), "ttri diagonal INT64_MAX"); /* all ones, no overflow */
}

/* ---- tgetval / tsetval ----------------------------------------------------------------------- */

static void test_getset(void) {
  env e = env_new(PTOSIM_TARGET_A5);
  ptosim_tile t16 = nd(PTOSIM_DT_F16, 0x200, 4, 16, 2, 3), i16 = nd(PTOSIM_DT_I16, 0x400, 4, 16, 4, 16);
  ptosim_tile u32 = nd(PTOSIM_DT_U32, 0x600, 2, 8, 2, 8);
  uint16_t h = 0xC100; /* -2.5 */
  int16_t n = -7;
  uint32_t big = 0xFFFFFFF0u;
  memcpy(at(&e, &t16, 3, 15), &h, 2); /* outside the valid region: tgetval reads storage */
  memcpy(at(&e, &i16, 1, 2), &n, 2);
  memcpy(at(&e, &u32, 1, 7), &big, 4);
  env_load(&e);
  double f = 0;
  int64_t i = 0;
  ptosim_tgetval_params g = {.src = t16, .offset = 63, .ivalue = &i, .fvalue = &f};
  CHECK(ptosim_tgetval(e.c, &g) == PTOSIM_OK && f == -2.5 && i == 0);
  g = (ptosim_tgetval_params){.src = i16, .offset = 18, .ivalue = &i, .fvalue = &f};
  CHECK(ptosim_tgetval(e.c, &g) == PTOSIM_OK && i == -7);
  g = (ptosim_tgetval_params){.src = u32, .offset = 15, .ivalue = &i};
  CHECK(ptosim_tgetval(e.c, &g) == PTOSIM_OK && i == 0xFFFFFFF0ll);
  g.offset = 16;
  CHECK(ptosim_tgetval(e.c, &g) == PTOSIM_E_VERIFY && !strcmp(ptosim_last_diag(e.m)->rule, "tgetval.offset"));
  g.offset = -1;
  CHECK(ptosim_tgetval(e.c, &g) == PTOSIM_E_VERIFY);
  env_free(&e);

  e = env_new(PTOSIM_TARGET_A2A3);
  env_load(&e);
  ptosim_tsetval_params s = {.dst = t16, .offset = 17, .value = {PTOSIM_DT_F16, 0x3E00}};
  memcpy(at(&e, &t16, 1, 1), &s.value.bits, 2);
  CHECK(ptosim_tsetval(e.c, &s) == PTOSIM_OK);
  s = (ptosim_tsetval_params){.dst = u32, .offset = 0, .value = {PTOSIM_DT_U32, 0x12345678u}};
  memcpy(at(&e, &u32, 0, 0), &s.value.bits, 4);
  finish(&e, ptosim_tsetval(e.c, &s), "tsetval");
  e = env_new(PTOSIM_TARGET_A2A3);
  s = (ptosim_tsetval_params){.dst = u32, .offset = 0, .value = {PTOSIM_DT_F32, 0}};
  refuse(&e, ptosim_tsetval(e.c, &s), "tsetval.dtype");
  e = env_new(PTOSIM_TARGET_A2A3);
  s = (ptosim_tsetval_params){.dst = u32, .offset = 16, .value = {PTOSIM_DT_U32, 0}};
  refuse(&e, ptosim_tsetval(e.c, &s), "tsetval.offset");
}

/* ---- tpart* ---------------------------------------------------------------------------------- */

/* f(a, b) in type t: 0 add, 1 mul, 2 max, 3 min (integers wrap). */
static double part_ref(ptosim_dtype t, int f, double a, double b) {
  return as(t, f == 0 ? a + b : f == 1 ? a * b : f == 2 ? (a > b ? a : b) : (a < b ? a : b));
}

/* small (sr x sc) is src0 (small0) or src1 of a dst whose valid region is 10 x (2 blocks + 3). */
static void part_case(ptosim_target tg, ptosim_dtype t, int f, int small0, int sr, int sc) {
  env e = env_new(tg);
  int blk = (int)(32 / es_of(t)), vr = 10, vc = 2 * blk + 3;
  ptosim_tile full = nd(t, 0x400, 12, 3 * blk, vr, vc), small = nd(t, 0x4000, 12, 3 * blk, sr, sc);
  ptosim_tile d = nd(t, 0x8000, 12, 3 * blk, vr, vc);
  for (int pass = 0; pass < 2; pass++) {
    const ptosim_tile *s = pass ? &small : &full;
    for (int r = 0; r < s->valid_rows; r++)
      for (int c = 0; c < s->valid_cols; c++) {
        uint64_t x = pt_rand_u64(&seed);
        double v = is_float(t) ? ((double)(x % 2001) - 1000) / 16 : (double)(int64_t)x;
        put(t, at(&e, s, r, c), v);
      }
  }
  env_load(&e);
  for (int r = 0; r < vr; r++)
    for (int c = 0; c < vc; c++) {
      double a = get(t, at(&e, &full, r, c));
      if (r < sr && c < sc) {
        double b = get(t, at(&e, &small, r, c));
        put(t, at(&e, &d, r, c), small0 ? part_ref(t, f, b, a) : part_ref(t, f, a, b));
      } else {
        memcpy(at(&e, &d, r, c), at(&e, &full, r, c), (size_t)es_of(t));
      }
    }
  ptosim_texpand_params p = {.src0 = small0 ? small : full, .src1 = small0 ? full : small, .dst = d};
  char what[96];
  snprintf(what, sizeof what, "tpart f%d %s small%d %dx%d target %d", f, pt_dtype_name(t), small0, sr, sc, tg);
  finish(&e, run_part(e.c, f, &p), what);
}

static void test_tpart(void) {
  static const ptosim_dtype types[] = {PTOSIM_DT_F32, PTOSIM_DT_F16, PTOSIM_DT_I32, PTOSIM_DT_I16, PTOSIM_DT_BF16,
                                       PTOSIM_DT_I8};
  for (int ti = 0; ti < 2; ti++)
    for (int k = 0; k < 6; k++) {
      if (k >= 4 && targets[ti] != PTOSIM_TARGET_A5) continue;
      int blk = (int)(32 / es_of(types[k]));
      for (int f = 0; f < 4; f++) {
        part_case(targets[ti], types[k], f, 0, 7, blk + 1);
        part_case(targets[ti], types[k], f, 1, 10, 2);
        part_case(targets[ti], types[k], f, 1, 3, 2 * blk + 3);
        part_case(targets[ti], types[k], f, 0, 10, 2 * blk + 3); /* both whole */
      }
    }
  const ptosim_texpand_params ok = {.src0 = nd(PTOSIM_DT_F32, 0, 8, 16, 8, 16), .src1 = nd(PTOSIM_DT_F32, 0x1000, 8, 16, 4, 4),
                                    .dst = nd(PTOSIM_DT_F32, 0x2000, 8, 16, 8, 16)};
  ptosim_texpand_params p = ok;
  env e = env_new(PTOSIM_TARGET_A2A3);
  p.src0.valid_cols = 15; /* neither source covers dst */
  refuse(&e, ptosim_tpartadd(e.c, &p), "tpartadd.valid");
  e = env_new(PTOSIM_TARGET_A2A3);
  p = ok, p.src0.dtype = p.src1.dtype = p.dst.dtype = PTOSIM_DT_BF16;
  refuse(&e, ptosim_tpartmax(e.c, &p), "tpartmax.dtype");
  e = env_new(PTOSIM_TARGET_A5);
  p = ok, p.src1.dtype = PTOSIM_DT_I32;
  refuse(&e, ptosim_tpartmul(e.c, &p), "tpartmul.dtype");
  e = env_new(PTOSIM_TARGET_A5);
  p = ok, p.dst.blayout = PTOSIM_BL_COL_MAJOR;
  refuse(&e, ptosim_tpartmin(e.c, &p), "tpartmin.layout");
}

/* ---- tgather / tgatherb / tscatter --------------------------------------------------------- */

static void put_u32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }

/* tgather index form: dst(i, j) = src_flat[idx(i, j)], indexes over the whole src storage. */
static void gather_index_case(ptosim_target tg, ptosim_dtype t, ptosim_dtype it, bool tmp) {
  int64_t es = es_of(t), blk = 32 / es, ies = es_of(it);
  env e = env_new(tg);
  ptosim_tile s = nd(t, 0x400, 8, (int)(2 * blk), 5, 3), d = nd(t, 0x2000, 8, (int)(2 * blk), 6, (int)blk + 1);
  ptosim_tile ix = nd(it, 0x3000, 8, 64, 7, 40);
  uint64_t n = (uint64_t)(s.rows * s.cols);
  for (int64_t i = 0; i < d.valid_rows; i++)
    for (int64_t j = 0; j < d.valid_cols; j++) {
      uint64_t q = pt_rand_u64(&seed) % n;
      memcpy(at(&e, &ix, i, j), &q, (size_t)ies); /* little-endian: the low bytes */
    }
  env_load(&e);
  for (int64_t i = 0; i < d.valid_rows; i++)
    for (int64_t j = 0; j < d.valid_cols; j++) {
      uint64_t q = 0;
      memcpy(&q, at(&e, &ix, i, j), (size_t)ies);
      memcpy(at(&e, &d, i, j), e.img + s.addr + q * (uint64_t)es, (size_t)es);
    }
  ptosim_tgather_params p = {.src = s, .indices = ix, .tmp = ix, .has_tmp = tmp, .dst = d};
  finish(&e, ptosim_tgather(e.c, &p), "tgather index");
}

static void test_tgather(void) {
  static const ptosim_dtype types[] = {PTOSIM_DT_F32, PTOSIM_DT_F16, PTOSIM_DT_I16, PTOSIM_DT_U32, PTOSIM_DT_I8, PTOSIM_DT_HIF8};
  for (int ti = 0; ti < 2; ti++)
    for (int k = 0; k < 6; k++) {
      ptosim_dtype t = types[k];
      int64_t es = es_of(t), blk = 32 / es;
      if (es == 1 && targets[ti] != PTOSIM_TARGET_A5) continue; /* A5 only (TGather_b8) */
      if (es > 1) gather_index_case(targets[ti], t, PTOSIM_DT_I32, ti == 0);
      if (targets[ti] == PTOSIM_TARGET_A5 && es < 4) gather_index_case(targets[ti], t, k % 2 ? PTOSIM_DT_U16 : PTOSIM_DT_I16, false);
      /* mask forms: the selected columns of every valid row, packed */
      for (int m = PTOSIM_MP_P0101; m <= PTOSIM_MP_P1111; m++) {
        env e = env_new(targets[ti]);
        env_load(&e);
        ptosim_tile s = nd(t, 0x400, 8, (int)(4 * blk), 7, (int)(3 * blk + 1));
        ptosim_tile d = nd(t, 0x4000, 24, (int)(2 * blk), 24, (int)(2 * blk));
        uint8_t *out = at(&e, &d, 0, 0);
        static const int keep[8][4] = {{0}, {1, 0, 1, 0}, {0, 1, 0, 1}, {1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}, {1, 1, 1, 1}};
        for (int64_t i = 0; i < s.valid_rows; i++)
          for (int64_t j = 0; j < s.valid_cols; j++)
            if (keep[m][j % 4]) memcpy(out, at(&e, &s, i, j), (size_t)es), out += es;
        ptosim_tgather_params p = {.src = s, .pattern = (ptosim_mask_pattern)m, .dst = d};
        finish(&e, ptosim_tgather(e.c, &p), "tgather mask");
      }
    }
  env e = env_new(PTOSIM_TARGET_A5);
  ptosim_tile ix = nd(PTOSIM_DT_I32, 0x3000, 8, 8, 8, 8);
  env_load(&e);
  put_u32(at(&e, &ix, 2, 3), 64); /* src holds 8 x 8 elements */
  CHECK(ptosim_mem_write(e.c, PTOSIM_UB, 0, e.img, e.cap) == PTOSIM_OK);
  ptosim_tgather_params p = {.src = nd(PTOSIM_DT_F32, 0, 8, 8, 8, 8), .indices = ix, .dst = nd(PTOSIM_DT_F32, 0x1000, 8, 8, 8, 8)};
  for (int64_t i = 0; i < 8; i++)
    for (int64_t j = 0; j < 8; j++) put_u32(at(&e, &ix, i, j), i == 2 && j == 3 ? 64 : 5);
  CHECK(ptosim_mem_write(e.c, PTOSIM_UB, 0, e.img, e.cap) == PTOSIM_OK);
  refuse(&e, ptosim_tgather(e.c, &p), "tgather.index");
  e = env_new(PTOSIM_TARGET_A5);
  p.indices = nd(PTOSIM_DT_I16, 0x3000, 8, 16, 8, 8); /* 4-byte data take 4-byte indexes */
  refuse(&e, ptosim_tgather(e.c, &p), "tgather.dtype");
  e = env_new(PTOSIM_TARGET_A5);
  p.src = nd(PTOSIM_DT_U8, 0, 8, 32, 8, 8), p.dst = nd(PTOSIM_DT_U8, 0x1000, 8, 32, 8, 8), p.indices = ix; /* 1-byte data take 2-byte indexes */
  refuse(&e, ptosim_tgather(e.c, &p), "tgather.dtype");
  e = env_new(PTOSIM_TARGET_A2A3);
  p.indices = nd(PTOSIM_DT_U16, 0x3000, 8, 16, 8, 8); /* A2/A3: no 1-byte data */
  refuse(&e, ptosim_tgather(e.c, &p), "tgather.dtype");
  e = env_new(PTOSIM_TARGET_A5);
  p = (ptosim_tgather_params){.src = nd(PTOSIM_DT_F32, 0, 8, 8, 8, 8), .pattern = PTOSIM_MP_P1111,
                              .dst = nd(PTOSIM_DT_F32, 0x1000, 8, 8, 8, 7)};
  refuse(&e, ptosim_tgather(e.c, &p), "tgather.valid");
  e = env_new(PTOSIM_TARGET_A5);
  p.dst = nd(PTOSIM_DT_F32, 0x1000, 8, 8, 7, 8);
  refuse(&e, ptosim_tgather(e.c, &p), "tgather.shape");
}

static void test_tgatherb(void) {
  static const ptosim_dtype types[] = {PTOSIM_DT_F32, PTOSIM_DT_F16, PTOSIM_DT_U8};
  for (int ti = 0; ti < 2; ti++)
    for (int k = 0; k < 3; k++) {
      ptosim_dtype t = types[k];
      int64_t es = es_of(t), blk = 32 / es;
      env e = env_new(targets[ti]);
      ptosim_tile s = nd(t, 0x400, 16, (int)(4 * blk), 16, (int)(4 * blk)), d = nd(t, 0x4000, 6, (int)(3 * blk), 5, (int)(2 * blk + 1));
      ptosim_tile off = nd(PTOSIM_DT_U32, 0x6000, 6, 8, 5, 3);
      int64_t size = s.rows * s.cols * es;
      for (int64_t i = 0; i < 5; i++)
        for (int64_t b = 0; b < 3; b++) put_u32(at(&e, &off, i, b), (uint32_t)(pt_rand_u64(&seed) % (uint64_t)(size - 31)));
      env_load(&e);
      for (int64_t i = 0; i < 5; i++)
        for (int64_t b = 0; b < 3; b++) {
          uint32_t o;
          memcpy(&o, at(&e, &off, i, b), 4);
          int64_t len = b < 2 ? 32 : es * 1; /* the last block: one valid element */
          memcpy(at(&e, &d, i, 0) + 32 * b, e.img + s.addr + o, (size_t)len);
        }
      ptosim_tindex_params p = {.src = s, .index = off, .dst = d};
      finish(&e, ptosim_tgatherb(e.c, &p), "tgatherb");
    }
  env e = env_new(PTOSIM_TARGET_A2A3);
  ptosim_tile off = nd(PTOSIM_DT_U32, 0x6000, 1, 8, 1, 1);
  put_u32(at(&e, &off, 0, 0), 256 - 16); /* src is 256 bytes: the block would pass its end */
  env_load(&e);
  ptosim_tindex_params p = {.src = nd(PTOSIM_DT_F32, 0, 8, 8, 8, 8), .index = off, .dst = nd(PTOSIM_DT_F32, 0x1000, 1, 8, 1, 8)};
  refuse(&e, ptosim_tgatherb(e.c, &p), "tgatherb.offset");
}

/* tscatter: dst's whole storage zeroed, then dst_flat[idx(i, j)] = src(i, j) over the index tile's
 * valid region (here larger than src's: the NPU reads src's storage there too). */
static void test_tscatter(void) {
  static const ptosim_dtype types[] = {PTOSIM_DT_F32, PTOSIM_DT_F16, PTOSIM_DT_I8};
  static const ptosim_dtype itypes[] = {PTOSIM_DT_I32, PTOSIM_DT_U16, PTOSIM_DT_I16};
  for (int ti = 0; ti < 2; ti++)
    for (int k = 0; k < 3; k++) {
      ptosim_dtype t = types[k], it = itypes[k];
      int64_t es = es_of(t), blk = 32 / es, ies = es_of(it);
      env e = env_new(targets[ti]);
      ptosim_tile s = nd(t, 0x400, 8, (int)(2 * blk), 5, (int)blk + 2), d = nd(t, 0x4000, 4, (int)blk, 4, 3);
      ptosim_tile ix = nd(it, 0x6000, 8, 64, 6, (int)blk + 3);
      int64_t n = d.rows * d.cols;
      for (int64_t i = 0; i < ix.valid_rows; i++)
        for (int64_t j = 0; j < ix.valid_cols; j++) {
          uint64_t q = pt_rand_u64(&seed) % (uint64_t)n; /* repeats: the last write wins */
          memcpy(at(&e, &ix, i, j), &q, (size_t)ies);
        }
      env_load(&e);
      memset(e.img + d.addr, 0, (size_t)(n * es));
      for (int64_t i = 0; i < ix.valid_rows; i++)
        for (int64_t j = 0; j < ix.valid_cols; j++) {
          uint64_t q = 0;
          memcpy(&q, at(&e, &ix, i, j), (size_t)ies);
          memcpy(e.img + d.addr + q * es, at(&e, &s, i, j), (size_t)es);
        }
      ptosim_tindex_params p = {.src = s, .index = ix, .dst = d};
      finish(&e, ptosim_tscatter(e.c, &p), "tscatter");
    }
  env e = env_new(PTOSIM_TARGET_A5);
  ptosim_tile ix = nd(PTOSIM_DT_I32, 0x6000, 1, 8, 1, 8);
  for (int j = 0; j < 8; j++) put_u32(at(&e, &ix, 0, j), j == 7 ? (uint32_t)-1 : 0);
  env_load(&e);
  ptosim_tindex_params p = {.src = nd(PTOSIM_DT_F32, 0, 1, 8, 1, 8), .index = ix, .dst = nd(PTOSIM_DT_F32, 0x1000, 8, 8, 8, 8)};
  refuse(&e, ptosim_tscatter(e.c, &p), "tscatter.index");
  e = env_new(PTOSIM_TARGET_A5);
  p.index.dtype = PTOSIM_DT_F32;
  refuse(&e, ptosim_tscatter(e.c, &p), "tscatter.dtype");
  e = env_new(PTOSIM_TARGET_A2A3);
  p.index = nd(PTOSIM_DT_I16, 0x6000, 1, 16, 1, 8); /* 4-byte data take 4-byte indexes */
  refuse(&e, ptosim_tscatter(e.c, &p), "tscatter.dtype");
  e = env_new(PTOSIM_TARGET_A2A3);
  p.index = nd(PTOSIM_DT_I32, 0x6000, 2, 8, 2, 8); /* two index rows, a one-row src */
  refuse(&e, ptosim_tscatter(e.c, &p), "tscatter.valid");
}

/* ---- tconcatidx / tpartargmax / tpartargmin ------------------------------------------------ */

static void test_tconcatidx(void) {
  static const ptosim_dtype types[] = {PTOSIM_DT_F32, PTOSIM_DT_F16, PTOSIM_DT_U8};
  static const ptosim_dtype itypes[] = {PTOSIM_DT_I32, PTOSIM_DT_U16, PTOSIM_DT_I8};
  for (int ti = 0; ti < 2; ti++)
    for (int k = 0; k < 3; k++) {
      ptosim_dtype t = types[k], it = itypes[k];
      int64_t es = es_of(t), blk = 32 / es, ies = es_of(it);
      env e = env_new(targets[ti]);
      ptosim_tile s0 = nd(t, 0x400, 8, (int)(2 * blk), 8, (int)(2 * blk)), s1 = nd(t, 0x1400, 8, (int)blk, 8, (int)blk);
      ptosim_tile i0 = nd(it, 0x2400, 8, (int)(32 / ies), 7, 1), i1 = nd(it, 0x2800, 8, (int)(32 / ies), 7, 1);
      ptosim_tile d = nd(t, 0x3000, 8, (int)(3 * blk), 7, (int)(2 * blk + 1));
      for (int64_t r = 0; r < 7; r++) {
        int64_t n0 = (int64_t)(pt_rand_u64(&seed) % (uint64_t)(2 * blk + 1)), n1 = (int64_t)(pt_rand_u64(&seed) % (uint64_t)(blk + 1));
        if (ies == 1 && n0 > 127) n0 = 127;
        int64_t v0 = n0 * ies + (r & 1 ? ies - 1 : 0), v1 = n1 * ies; /* the remainder of the division is dropped */
        memcpy(at(&e, &i0, r, 0), &v0, (size_t)ies), memcpy(at(&e, &i1, r, 0), &v1, (size_t)ies);
        int64_t k0 = n0 < d.valid_cols ? n0 : d.valid_cols, k1 = n1 < d.valid_cols - k0 ? n1 : d.valid_cols - k0;
        for (int64_t c = 0; c < k0; c++) memcpy(at(&e, &d, r, c), at(&e, &s0, r, c), (size_t)es);
        for (int64_t c = 0; c < k1; c++) memcpy(at(&e, &d, r, k0 + c), at(&e, &s1, r, c), (size_t)es);
      }
      env_load(&e);
      ptosim_tconcatidx_params p = {.src0 = s0, .src1 = s1, .idx0 = i0, .idx1 = i1, .dst = d};
      finish(&e, ptosim_tconcatidx(e.c, &p), "tconcatidx");
    }
  env e = env_new(PTOSIM_TARGET_A5);
  ptosim_tile i0 = nd(PTOSIM_DT_I32, 0x2400, 1, 8, 1, 1);
  int32_t v = 4 * 9; /* 9 columns of an 8-column src0 */
  memcpy(at(&e, &i0, 0, 0), &v, 4);
  env_load(&e);
  ptosim_tconcatidx_params p = {.src0 = nd(PTOSIM_DT_F32, 0, 1, 8, 1, 8), .src1 = nd(PTOSIM_DT_F32, 0x100, 1, 8, 1, 8),
                                .idx0 = i0, .idx1 = i0, .dst = nd(PTOSIM_DT_F32, 0x200, 1, 16, 1, 16)};
  refuse(&e, ptosim_tconcatidx(e.c, &p), "tconcatidx.count");
}

static void test_tpartarg(void) {
  for (int ti = 0; ti < 2; ti++)
    for (int f16 = 0; f16 < 2; f16++)
      for (int mx = 0; mx < 2; mx++)
        for (int small0 = 0; small0 < 2; small0++) {
          ptosim_dtype t = f16 ? PTOSIM_DT_F16 : PTOSIM_DT_F32, it = f16 ? PTOSIM_DT_U16 : PTOSIM_DT_I32;
          int64_t es = es_of(t), ies = es_of(it), blk = 32 / es;
          env e = env_new(targets[ti]);
          int vr = 6, vc = (int)blk + 3, sr = 4, sc = 5;
          ptosim_tile full = nd(t, 0x400, 8, (int)(2 * blk), vr, vc), small = nd(t, 0x1400, 8, (int)(2 * blk), sr, sc);
          ptosim_tile fi = nd(it, 0x2400, 8, 32, vr, vc), si = nd(it, 0x3400, 8, 32, sr, sc);
          ptosim_tile d = nd(t, 0x4400, 8, (int)(2 * blk), vr, vc), di = nd(it, 0x5400, 8, 32, vr, vc);
          for (int pass = 0; pass < 2; pass++) {
            const ptosim_tile *vt = pass ? &small : &full, *itl = pass ? &si : &fi;
            for (int r = 0; r < vt->valid_rows; r++)
              for (int c = 0; c < vt->valid_cols; c++) {
                uint64_t q = pt_rand_u64(&seed);
                put(t, at(&e, vt, r, c), (double)(q % 7) - 3); /* many ties */
                put(it, at(&e, itl, r, c), (double)(q >> 20 & 0x7FFF));
              }
          }
          put(t, at(&e, &small, 1, 1), NAN); /* the profiles differ on NaN */
          env_load(&e);
          const ptosim_tile *s0 = small0 ? &small : &full, *s1 = small0 ? &full : &small;
          const ptosim_tile *i0 = small0 ? &si : &fi, *i1 = small0 ? &fi : &si;
          for (int r = 0; r < vr; r++)
            for (int c = 0; c < vc; c++) {
              int one = small0; /* the full source where only it is valid */
              if (r < sr && c < sc) {
                double a = get(t, at(&e, s0, r, c)), b = get(t, at(&e, s1, r, c));
                one = targets[ti] == PTOSIM_TARGET_A5 ? (mx ? b > a : b < a) : !(mx ? a >= b : a <= b);
              }
              memcpy(at(&e, &d, r, c), at(&e, one ? s1 : s0, r, c), (size_t)es);
              memcpy(at(&e, &di, r, c), at(&e, one ? i1 : i0, r, c), (size_t)ies);
            }
          ptosim_tconcatidx_params p = {.src0 = *s0, .src1 = *s1, .idx0 = *i0, .idx1 = *i1, .dst = d, .dst_idx = di};
          finish(&e, mx ? ptosim_tpartargmax(e.c, &p) : ptosim_tpartargmin(e.c, &p), "tpartarg");
        }
  env e = env_new(PTOSIM_TARGET_A5);
  ptosim_tconcatidx_params p = {.src0 = nd(PTOSIM_DT_F32, 0, 8, 8, 8, 8), .src1 = nd(PTOSIM_DT_F32, 0x100, 8, 8, 8, 8),
                                .idx0 = nd(PTOSIM_DT_I16, 0x200, 8, 16, 8, 8), .idx1 = nd(PTOSIM_DT_I16, 0x400, 8, 16, 8, 8),
                                .dst = nd(PTOSIM_DT_F32, 0x600, 8, 8, 8, 8), .dst_idx = nd(PTOSIM_DT_I16, 0x800, 8, 16, 8, 8)};
  refuse(&e, ptosim_tpartargmax(e.c, &p), "tpartargmax.dtype"); /* f32 values with 16-bit indices */
}

/* ---- tsort32 ---------------------------------------------------------------------------------- */

/* Reference: repeatedly take the first remaining element that no other remaining one precedes
 * (greater value, NaN above all, then smaller index). */
static void sort32_case(ptosim_target tg, ptosim_dtype t, int w, int bcast_idx) {
  env e = env_new(tg);
  int64_t es = es_of(t), coef = 8 / es, h = 3;
  ptosim_tile s = nd(t, 0x400, 4, 64, (int)h, w), ix = nd(PTOSIM_DT_U32, 0x1400, 4, 64, bcast_idx ? 1 : (int)h, w);
  ptosim_tile d = nd(t, 0x2400, 4, (int)(64 * coef), (int)h, (int)(coef * w)), tmp = nd(t, 0x6400, 1, 64, 1, 64);
  for (int64_t r = 0; r < h; r++)
    for (int64_t c = 0; c < w; c++) {
      uint64_t q = pt_rand_u64(&seed);
      put(t, at(&e, &s, r, c), q % 11 == 0 ? NAN : (double)(q % 9) - 4); /* ties and NaNs */
      if (r == 0 || !bcast_idx) put(PTOSIM_DT_U32, at(&e, &ix, r, c), (double)(q >> 32 & 0xFF));
    }
  env_load(&e);
  for (int64_t r = 0; r < h; r++)
    for (int64_t b = 0; b < w; b += 32) {
      int64_t n = w - b < 32 ? w - b : 32;
      int used[32] = {0};
      for (int64_t o = 0; o < n; o++) {
        int64_t best = -1;
        for (int64_t k = 0; k < n; k++) {
          if (used[k]) continue;
          if (best < 0) { best = k; continue; }
          double vk = get(t, at(&e, &s, r, b + k)), vb = get(t, at(&e, &s, r, b + best));
          uint32_t ik, ib;
          memcpy(&ik, at(&e, &ix, bcast_idx ? 0 : r, b + k), 4), memcpy(&ib, at(&e, &ix, bcast_idx ? 0 : r, b + best), 4);
          int better = isnan(vk) != isnan(vb) ? isnan(vk) : (!isnan(vk) && vk != vb) ? vk > vb : ik < ib;
          if (better) best = k;
        }
        used[best] = 1;
        uint8_t *tuple = e.img + d.addr + (r * d.cols * es) + 8 * (b + o);
        memset(tuple, 0, 4);
        memcpy(tuple, at(&e, &s, r, b + best), (size_t)es);
        memcpy(tuple + 4, at(&e, &ix, bcast_idx ? 0 : r, b + best), 4);
      }
    }
  ptosim_texpand_params p = {.src0 = s, .src1 = ix, .tmp = tmp, .has_tmp = w % 32 != 0, .dst = d};
  char what[64];
  snprintf(what, sizeof what, "tsort32 %s w %d bcast %d target %d", pt_dtype_name(t), w, bcast_idx, tg);
  finish(&e, ptosim_tsort32(e.c, &p), what);
}

static void test_tsort32(void) {
  for (int ti = 0; ti < 2; ti++)
    for (int f16 = 0; f16 < 2; f16++) {
      ptosim_dtype t = f16 ? PTOSIM_DT_F16 : PTOSIM_DT_F32;
      sort32_case(targets[ti], t, 64, 0);
      sort32_case(targets[ti], t, 45, 1);
      sort32_case(targets[ti], t, 7, 0);
    }
  env e = env_new(PTOSIM_TARGET_A5);
  ptosim_texpand_params p = {.src0 = nd(PTOSIM_DT_F32, 0, 1, 48, 1, 40), .src1 = nd(PTOSIM_DT_U32, 0x200, 1, 48, 1, 40),
                             .dst = nd(PTOSIM_DT_F32, 0x400, 1, 96, 1, 80)};
  refuse(&e, ptosim_tsort32(e.c, &p), "tsort32.tmp"); /* 40 is not whole blocks of 32 */
  e = env_new(PTOSIM_TARGET_A5);
  p.has_tmp = true, p.tmp = nd(PTOSIM_DT_F32, 0x800, 1, 32, 1, 32);
  refuse(&e, ptosim_tsort32(e.c, &p), "tsort32.tmp_size"); /* 40 rounds up to 64 */
  e = env_new(PTOSIM_TARGET_A5);
  p.tmp = nd(PTOSIM_DT_F32, 0x800, 1, 64, 1, 64), p.dst.valid_cols = 79;
  refuse(&e, ptosim_tsort32(e.c, &p), "tsort32.valid");
  e = env_new(PTOSIM_TARGET_A5);
  p.dst.valid_cols = 80, p.src1.dtype = PTOSIM_DT_I32;
  refuse(&e, ptosim_tsort32(e.c, &p), "tsort32.dtype");
}

/* ---- tmrgsort --------------------------------------------------------------------------------- */

typedef struct tup {
  double v;
  int list, pos;
  uint8_t bytes[8];
} tup;

/* Stable order of the merge: value descending, NaN first, then list, then position. */
static int tup_cmp(const void *pa, const void *pb) {
  const tup *a = pa, *b = pb;
  int an = isnan(a->v), bn = isnan(b->v);
  if (an != bn) return bn - an;
  if (!an && a->v != b->v) return a->v > b->v ? -1 : 1;
  return a->list != b->list ? a->list - b->list : a->pos - b->pos;
}

/* n tuples of type t sorted descending into the image at p (list number `list` for the sort). */
static void sorted_list(ptosim_dtype t, uint8_t *p, int n, int list, int nan_head) {
  tup *v = malloc(sizeof(tup) * (size_t)(n ? n : 1));
  for (int i = 0; i < n; i++) {
    uint64_t q = pt_rand_u64(&seed);
    v[i] = (tup){.v = (double)(q % 13) - 6, .list = list, .pos = i};
    if (nan_head && i == 0) v[i].v = NAN;
    memset(v[i].bytes, 0, 8);
    put(t, v[i].bytes, v[i].v);
    uint32_t idx = (uint32_t)(q >> 32);
    memcpy(v[i].bytes + 4, &idx, 4);
  }
  qsort(v, (size_t)n, sizeof(tup), tup_cmp);
  for (int i = 0; i < n; i++) memcpy(p + 8 * i, v[i].bytes, 8);
  free(v);
}

/* The tuples of lists (at ps[k], ns[k] tuples) in merge order into out; returns the count
 * written, stopping (exhausted) where the first list runs out; counts[k] = tuples of list k. */
static int merge_ref(ptosim_dtype t, uint8_t **ps, const int *ns, int k, int exhausted, uint8_t *out, int *counts) {
  int total = 0;
  for (int i = 0; i < k; i++) total += ns[i];
  tup *v = malloc(sizeof(tup) * (size_t)(total ? total : 1));
  int m = 0;
  for (int i = 0; i < k; i++)
    for (int j = 0; j < ns[i]; j++, m++) {
      v[m] = (tup){.v = get(t, ps[i] + 8 * j), .list = i, .pos = j};
      memcpy(v[m].bytes, ps[i] + 8 * j, 8);
    }
  qsort(v, (size_t)total, sizeof(tup), tup_cmp);
  int n = total;
  for (int i = 0; exhausted && i < k; i++) { /* a list is used up when its last tuple is out */
    int last = 0;
    for (int j = 0; j < total; j++)
      if (v[j].list == i) last = j + 1;
    if (last < n) n = last;
  }
  for (int i = 0; i < k; i++) counts[i] = 0;
  for (int j = 0; j < n; j++) memcpy(out + 8 * j, v[j].bytes, 8), counts[v[j].list]++;
  free(v);
  return n;
}

static void test_tmrgsort(void) {
  for (int ti = 0; ti < 2; ti++)
    for (int f16 = 0; f16 < 2; f16++) {
      ptosim_dtype t = f16 ? PTOSIM_DT_F16 : PTOSIM_DT_F32;
      int64_t es = es_of(t), coef = 8 / es;
      /* format 1: 2 groups of 4 blocks of blockLen 64 elements */
      env e = env_new(targets[ti]);
      int bl = 64, w = 2 * 4 * bl, per = (int)(bl / coef);
      ptosim_tile s = nd(t, 0x400, 1, w, 1, w), d = nd(t, 0x2400, 1, w + 64, 1, w);
      for (int b = 0; b < 8; b++) sorted_list(t, at(&e, &s, 0, b * bl), per, 0, b == 5);
      for (int g = 0; g < 2; g++) {
        uint8_t *ps[4];
        int ns[4] = {per, per, per, per}, counts[4];
        for (int i = 0; i < 4; i++) ps[i] = at(&e, &s, 0, (g * 4 + i) * bl);
        merge_ref(t, ps, ns, 4, 0, at(&e, &d, 0, g * 4 * bl), counts);
      }
      env_load(&e);
      ptosim_tmrgsort_params p = {.src = {s}, .nsrc = 1, .block_len = bl, .dst = d};
      finish(&e, ptosim_tmrgsort(e.c, &p), "tmrgsort format 1");
      /* format 2: 2 to 4 lists of different lengths, with and without exhausted */
      for (int k = 2; k <= 4; k++)
        for (int ex = 0; ex < 2; ex++) {
          e = env_new(targets[ti]);
          static const int lens[4] = {5, 17, 1, 9};
          ptosim_tmrgsort_params q = {.nsrc = k, .exhausted = ex, .tmp = nd(t, 0x6000, 1, 256, 1, 256)};
          uint8_t *ps[4];
          int ns[4], total = 0, counts[4];
          for (int i = 0; i < k; i++) {
            ns[i] = lens[i], total += lens[i];
            q.src[i] = nd(t, 0x400 + 0x400 * (uint64_t)i, 1, 128, 1, (int)(lens[i] * coef));
            ps[i] = at(&e, &q.src[i], 0, 0);
            sorted_list(t, ps[i], lens[i], i, i == 1);
          }
          q.dst = nd(t, 0x4000, 1, 256, 1, (int)(total * coef));
          merge_ref(t, ps, ns, k, ex, at(&e, &q.dst, 0, 0), counts);
          env_load(&e);
          uint16_t got[4] = {9, 9, 9, 9};
          q.executed = got;
          finish(&e, ptosim_tmrgsort(e.c, &q), "tmrgsort format 2");
          for (int i = 0; i < 4; i++) CHECK(got[i] == (i < k ? counts[i] : 0));
        }
    }
  env e = env_new(PTOSIM_TARGET_A5);
  ptosim_tmrgsort_params p = {.src = {nd(PTOSIM_DT_F32, 0, 1, 256, 1, 192)}, .nsrc = 1, .block_len = 64,
                              .dst = nd(PTOSIM_DT_F32, 0x400, 1, 256, 1, 256)};
  refuse(&e, ptosim_tmrgsort(e.c, &p), "tmrgsort.block"); /* 192 is not whole groups of 4 x 64 */
  e = env_new(PTOSIM_TARGET_A5);
  p.src[0] = nd(PTOSIM_DT_F32, 0, 2, 256, 2, 256);
  refuse(&e, ptosim_tmrgsort(e.c, &p), "tmrgsort.shape");
}

/* ---- thistogram ------------------------------------------------------------------------------- */

static void test_thistogram(void) {
  for (int msb = 0; msb < 2; msb++) {
    env e = env_new(PTOSIM_TARGET_A5);
    int h = 5, w = 300;
    ptosim_tile s = nd(PTOSIM_DT_U16, 0x400, 8, 320, h, w), d = nd(PTOSIM_DT_U32, 0x2000, 8, 264, h, 264);
    ptosim_tile ix = ub_tile(PTOSIM_DT_U8, 0x8000, 32, 1, h, 1, PTOSIM_BL_COL_MAJOR);
    for (int r = 0; r < h; r++) {
      *at(&e, &ix, r, 0) = (uint8_t)(r * 3);
      for (int c = 0; c < w; c++) {
        uint64_t q = pt_rand_u64(&seed);
        uint16_t v = (uint16_t)(((q % 4 == 0 ? (uint64_t)r * 3 : q >> 8 & 0xFF) << 8) | (q >> 20 & 0xFF));
        memcpy(at(&e, &s, r, c), &v, 2);
      }
    }
    env_load(&e);
    for (int r = 0; r < h; r++)
      for (int b = 0; b < 256; b++) {
        uint32_t n = 0;
        for (int c = 0; c < w; c++) {
          uint16_t v;
          memcpy(&v, at(&e, &s, r, c), 2);
          n += msb ? v >> 8 <= b : (v >> 8 == r * 3 && (v & 0xFF) <= b); /* cumulative (chistv2) */
        }
        memcpy(at(&e, &d, r, b), &n, 4);
      }
    ptosim_thistogram_params p = {.src = s, .idx = ix, .dst = d, .is_msb = msb};
    finish(&e, ptosim_thistogram(e.c, &p), msb ? "thistogram msb" : "thistogram lsb");
  }
  ptosim_thistogram_params p = {.src = nd(PTOSIM_DT_U16, 0, 8, 16, 8, 16), .dst = nd(PTOSIM_DT_U32, 0x400, 8, 256, 8, 256),
                                .idx = ub_tile(PTOSIM_DT_U8, 0x2400, 32, 1, 8, 1, PTOSIM_BL_COL_MAJOR)};
  env e = env_new(PTOSIM_TARGET_A2A3);
  refuse(&e, ptosim_thistogram(e.c, &p), "thistogram.target");
  e = env_new(PTOSIM_TARGET_A5);
  p.dst.valid_cols = 255;
  refuse(&e, ptosim_thistogram(e.c, &p), "thistogram.valid");
  e = env_new(PTOSIM_TARGET_A5);
  p.dst.valid_cols = 256, p.idx = nd(PTOSIM_DT_U8, 0x2400, 8, 32, 8, 1);
  refuse(&e, ptosim_thistogram(e.c, &p), "thistogram.layout");
}

/* ---- tquant / tdequant --------------------------------------------------------------------------- */

static void test_tquant(void) {
  for (int ti = 0; ti < 2; ti++)
    for (int asym = 0; asym < 2; asym++) {
      env e = env_new(targets[ti]);
      int h = 9, w = 37;
      ptosim_tile s = nd(PTOSIM_DT_F32, 0x400, 12, 40, h, w), d = nd(asym ? PTOSIM_DT_U8 : PTOSIM_DT_I8, 0x2000, 12, 64, h, w);
      ptosim_tile sc = ub_tile(PTOSIM_DT_F32, 0x3000, 16, 1, h, 1, PTOSIM_BL_COL_MAJOR);
      ptosim_tile of = ub_tile(PTOSIM_DT_F32, 0x3100, 16, 1, h, 1, PTOSIM_BL_COL_MAJOR);
      for (int r = 0; r < h; r++) {
        put(PTOSIM_DT_F32, at(&e, &sc, r, 0), r == 3 ? 1e30 : 0.25 + r * 0.37); /* row 3 saturates */
        put(PTOSIM_DT_F32, at(&e, &of, r, 0), 100.5 - r * 20);
        for (int c = 0; c < w; c++) {
          uint64_t q = pt_rand_u64(&seed);
          put(PTOSIM_DT_F32, at(&e, &s, r, c), c == 5 ? (r == 2 ? NAN : 2.5) : ((double)(q % 20001) - 10000) / 37.0);
        }
      }
      env_load(&e);
      for (int r = 0; r < h; r++)
        for (int c = 0; c < w; c++) {
          double y = (float)((double)(float)get(PTOSIM_DT_F32, at(&e, &s, r, c)) * get(PTOSIM_DT_F32, at(&e, &sc, r, 0)));
          if (asym) y = (float)(y + get(PTOSIM_DT_F32, at(&e, &of, r, 0)));
          double q = isnan(y) ? 0 : nearbyint(y);
          q = q < (asym ? 0 : -128) ? (asym ? 0 : -128) : q > (asym ? 255 : 127) ? (asym ? 255 : 127) : q;
          put(d.dtype, at(&e, &d, r, c), q);
          if (targets[ti] == PTOSIM_TARGET_A2A3) put(PTOSIM_DT_F32, at(&e, &s, r, c), y);
        }
      ptosim_tquant_params p = {.src = s, .scale = sc, .offset = of, .dst = d,
                                .quant = asym ? PTOSIM_QUANT_INT8_ASYM : PTOSIM_QUANT_INT8_SYM};
      finish(&e, ptosim_tquant(e.c, &p), asym ? "tquant asym" : "tquant sym");
    }
  env e = env_new(PTOSIM_TARGET_A5);
  ptosim_tquant_params p = {.src = nd(PTOSIM_DT_F32, 0, 8, 8, 8, 8), .scale = nd(PTOSIM_DT_F32, 0x100, 8, 8, 8, 1),
                            .dst = nd(PTOSIM_DT_I8, 0x200, 8, 32, 8, 8)};
  refuse(&e, ptosim_tquant(e.c, &p), "tquant.layout"); /* the scale is a DN column */
  e = env_new(PTOSIM_TARGET_A5);
  p.scale = ub_tile(PTOSIM_DT_F32, 0x100, 8, 1, 8, 1, PTOSIM_BL_COL_MAJOR), p.quant = PTOSIM_QUANT_INT8_ASYM;
  refuse(&e, ptosim_tquant(e.c, &p), "tquant.dtype"); /* asym writes u8 */
}

static void test_tdequant(void) {
  for (int ti = 0; ti < 2; ti++)
    for (int i16 = 0; i16 < 2; i16++)
      for (int dn = 0; dn < 2; dn++) {
        env e = env_new(targets[ti]);
        ptosim_dtype st = i16 ? PTOSIM_DT_I16 : PTOSIM_DT_I8;
        int h = 7, w = 45;
        ptosim_tile s = nd(st, 0x400, 8, 64, h, w), d = nd(PTOSIM_DT_F32, 0x1000, 8, 48, h, w);
        ptosim_tile sc = dn ? ub_tile(PTOSIM_DT_F32, 0x2000, 8, 1, h, 1, PTOSIM_BL_COL_MAJOR) : nd(PTOSIM_DT_F32, 0x2000, 8, 8, h, 1);
        ptosim_tile of = dn ? ub_tile(PTOSIM_DT_F32, 0x2100, 8, 1, h, 1, PTOSIM_BL_COL_MAJOR) : nd(PTOSIM_DT_F32, 0x2100, 8, 8, h, 1);
        for (int r = 0; r < h; r++) {
          put(PTOSIM_DT_F32, at(&e, &sc, r, 0), 0.01 + r * 0.3);
          put(PTOSIM_DT_F32, at(&e, &of, r, 0), -3.25 + r);
          for (int c = 0; c < w; c++) put(st, at(&e, &s, r, c), (double)(int64_t)pt_rand_u64(&seed));
        }
        env_load(&e);
        for (int r = 0; r < h; r++)
          for (int c = 0; c < w; c++) {
            double v = (float)(get(st, at(&e, &s, r, c)) - get(PTOSIM_DT_F32, at(&e, &of, r, 0)));
            put(PTOSIM_DT_F32, at(&e, &d, r, c), (float)(v * get(PTOSIM_DT_F32, at(&e, &sc, r, 0))));
          }
        ptosim_tquant_params p = {.src = s, .scale = sc, .offset = of, .dst = d};
        finish(&e, ptosim_tdequant(e.c, &p), "tdequant");
      }
  env e = env_new(PTOSIM_TARGET_A5);
  ptosim_tquant_params p = {.src = nd(PTOSIM_DT_I32, 0, 8, 8, 8, 8), .scale = nd(PTOSIM_DT_F32, 0x100, 8, 8, 8, 1),
                            .offset = nd(PTOSIM_DT_F32, 0x200, 8, 8, 8, 1), .dst = nd(PTOSIM_DT_F32, 0x400, 8, 8, 8, 8)};
  refuse(&e, ptosim_tdequant(e.c, &p), "tdequant.dtype");
  e = env_new(PTOSIM_TARGET_A5);
  p.src.dtype = PTOSIM_DT_I16, p.src.cols = 16, p.scale.valid_rows = 7;
  refuse(&e, ptosim_tdequant(e.c, &p), "tdequant.valid");
}

/* ---- trandom ------------------------------------------------------------------------------------ */

/* Philox4x32-R written from the Random123 definition (round: (hi, lo) = M * x, the key bumped
 * by the Weyl constants between rounds), checked against its published known answers. */
static void philox_ref(uint32_t ctr[4], const uint32_t key[2], int rounds) {
  uint32_t k0 = key[0], k1 = key[1];
  for (int i = 0; i < rounds; i++) {
    if (i) k0 += 0x9E3779B9u, k1 += 0xBB67AE85u;
    uint64_t a = 0xD2511F53ull * ctr[0], b = 0xCD9E8D57ull * ctr[2];
    uint32_t y0 = (uint32_t)(b >> 32) ^ ctr[1] ^ k0, y1 = (uint32_t)b, y2 = (uint32_t)(a >> 32) ^ ctr[3] ^ k1, y3 = (uint32_t)a;
    ctr[0] = y0, ctr[1] = y1, ctr[2] = y2, ctr[3] = y3;
  }
}

static void trandom_case(ptosim_target tg, ptosim_dtype t, int rows, int w, int rounds, const uint32_t key[2],
                         const uint32_t ctr[4]) {
  env e = env_new(tg);
  ptosim_tile d = nd(t, 0x400, rows + 1, (w + 7) / 8 * 8 + 8, rows, w);
  env_load(&e);
  /* the counter of the block at (r, j), as a 128-bit number in two 64-bit halves */
  uint64_t lo = (uint64_t)ctr[1] << 32 | ctr[0], hi = (uint64_t)ctr[3] << 32 | ctr[2];
  for (int r = 0; r < rows; r++) {
    int blocks = (w + 255) / 256;
    for (int j = 0; j < blocks; j++) {
      for (int l = 0; l < 64; l++) {
        uint64_t cl = lo + (unsigned)l, ch = hi + (cl < lo);
        uint32_t words[4] = {(uint32_t)cl, (uint32_t)(cl >> 32), (uint32_t)ch, (uint32_t)(ch >> 32)};
        philox_ref(words, key, rounds);
        for (int q = 0; q < 4; q++)
          if (256 * j + 4 * l + q < w) memcpy(at(&e, &d, r, 256 * j + 4 * l + q), &words[q], 4);
      }
      uint64_t step = j + 1 < blocks ? 64u : (uint64_t)((w - 1) % 64 + 1), nl = lo + step;
      hi += nl < lo, lo = nl;
    }
  }
  ptosim_trandom_params p = {.dst = d, .key = {key[0], key[1]}, .counter = {ctr[0], ctr[1], ctr[2], ctr[3]},
                             .rounds = rounds};
  finish(&e, ptosim_trandom(e.c, &p), "trandom");
}

static void test_trandom(void) {
  /* Random123 known answers of philox4x32-10 */
  uint32_t z[4] = {0, 0, 0, 0}, zk[2] = {0, 0};
  philox_ref(z, zk, 10);
  CHECK(z[0] == 0x6627e8d5u && z[1] == 0xe169c58du && z[2] == 0xbc57ac4cu && z[3] == 0x9b00dbd8u);
  uint32_t pi[4] = {0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}, pk[2] = {0xa4093822u, 0x299f31d0u};
  philox_ref(pi, pk, 10);
  CHECK(pi[0] == 0xd16cfe09u && pi[1] == 0x94fdccebu && pi[2] == 0x5001e420u && pi[3] == 0x24126ea1u);
  static const uint32_t key[2] = {0x12345678u, 0x9abcdef0u}, ctr[4] = {0xFFFFFFF0u, 0xFFFFFFFFu, 7, 0};
  trandom_case(PTOSIM_TARGET_A5, PTOSIM_DT_U32, 3, 600, 10, key, ctr); /* 3 blocks a row, carries across words */
  trandom_case(PTOSIM_TARGET_A5, PTOSIM_DT_I32, 2, 13, 7, key, ctr);
  env e = env_new(PTOSIM_TARGET_A2A3);
  ptosim_trandom_params a2 = {.dst = nd(PTOSIM_DT_U32, 0, 8, 8, 8, 8), .rounds = 10};
  refuse(&e, ptosim_trandom(e.c, &a2), "trandom.target");
  e = env_new(PTOSIM_TARGET_A5);
  ptosim_trandom_params p = {.dst = nd(PTOSIM_DT_U32, 0, 8, 8, 8, 8), .rounds = 8};
  refuse(&e, ptosim_trandom(e.c, &p), "trandom.rounds");
  e = env_new(PTOSIM_TARGET_A5);
  p.rounds = 10, p.dst = nd(PTOSIM_DT_F32, 0, 8, 8, 8, 8);
  refuse(&e, ptosim_trandom(e.c, &p), "trandom.dtype");
}

/* ---- tprint ------------------------------------------------------------------------------------- */

/* Run fn(arg) with stdout going to a temporary file; its text in out (NUL-terminated). */
static void capture_stdout(void (*fn)(void *), void *arg, char *out, size_t cap) {
  fflush(stdout);
  FILE *tmp = tmpfile();
  int saved = dup(1);
  CHECK(tmp && saved >= 0 && dup2(fileno(tmp), 1) >= 0);
  fn(arg);
  fflush(stdout);
  dup2(saved, 1);
  close(saved);
  rewind(tmp);
  size_t n = fread(out, 1, cap - 1, tmp);
  out[n] = 0;
  fclose(tmp);
}

typedef struct print_job {
  env *e;
  ptosim_tprint_params p;
  ptosim_status st;
} print_job;

static void do_print(void *arg) {
  print_job *j = arg;
  j->st = ptosim_tprint(j->e->c, &j->p);
}

static void test_tprint(void) {
  env e = env_new(PTOSIM_TARGET_A5);
  ptosim_tile f = nd(PTOSIM_DT_F32, 0x400, 3, 8, 2, 3), h = ub_tile(PTOSIM_DT_F16, 0x800, 16, 4, 3, 2, PTOSIM_BL_COL_MAJOR);
  ptosim_tile i = nd(PTOSIM_DT_I8, 0xC00, 2, 32, 1, 4), u = nd(PTOSIM_DT_U32, 0x1000, 1, 8, 1, 2);
  const double fv[6] = {1.5, -0.1, NAN, INFINITY, -INFINITY, 16777216};
  for (int k = 0; k < 6; k++) put(PTOSIM_DT_F32, at(&e, &f, k / 3, k % 3), fv[k]);
  for (int k = 0; k < 6; k++) put(PTOSIM_DT_F16, at(&e, &h, k / 2, k % 2), k - 2.25);
  for (int k = 0; k < 4; k++) put(PTOSIM_DT_I8, at(&e, &i, 0, k), k * 50 - 100);
  put(PTOSIM_DT_U32, at(&e, &u, 0, 0), 4294967295.0), put(PTOSIM_DT_U32, at(&e, &u, 0, 1), 7);
  env_load(&e);
  static const char *const want[] = {
      "tprint f32 3x8 valid 2x3 ub+0x400\n[0] 1.5 -0.100000001 nan\n[1] inf -inf 16777216\n",
      "tprint f16 16x4 valid 3x2 ub+0x800\n[0] -2.25 -1.25\n[1] -0.25 0.75\n[2] 1.75 2.75\n",
      "tprint i8 2x32 valid 1x4 ub+0xc00\n[0] -100 -50 0 50\n",
      "tprint ui32 1x8 valid 1x2 ub+0x1000\n[0] 4294967295 7\n"};
  const ptosim_tile tiles[] = {f, h, i, u};
  for (int k = 0; k < 4; k++) {
    char out[512];
    print_job j = {.e = &e, .p = {.src = tiles[k]}};
    capture_stdout(do_print, &j, out, sizeof out);
    CHECK(j.st == PTOSIM_OK);
    CHECK_MSG(!strcmp(out, want[k]), "tprint %d printed:\n%s", k, out);
  }
  finish(&e, PTOSIM_OK, "tprint writes nothing");
}

/* ---- text ------------------------------------------------------------------------------------- */

#define VI(dt, r, c, vr, vc)                                                                                 \
  "!pto.tile_buf<loc=vec, dtype=" dt ", rows=" #r ", cols=" #c ", v_row=" #vr ", v_col=" #vc             \
  ", blayout=row_major, slayout=none_box, fractal=512, pad=0>"

/* o = tci(100, descending) with element 3 set to 2 * element 5 (tgetval / tsetval of i32);
 * f = ttri lower, diagonal 1 (8 x 8 f32), plus through tpartadd a 1 x 1 tile holding
 * 0.5 + 0.5 (tsetval / tgetval of f32). */
static const char *text_src =
    "func.func @k(%o: !pto.ptr<i32>, %f: !pto.ptr<f32>) attributes {pto.kernel} {\n"
    "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  %c3 = arith.constant 3 : index\n"
    "  %c5 = arith.constant 5 : index\n  %c8 = arith.constant 8 : index\n  %c16 = arith.constant 16 : index\n"
    "  %s = arith.constant 100 : i32\n  %dg = arith.constant 1 : i32\n  %two = arith.constant 2 : i32\n"
    "  %half = arith.constant 0.5 : f32\n"
    "  %v = pto.make_tensor_view %o, shape = [%c1, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xi32>\n"
    "  %p = pto.partition_view %v, offsets = [%c0, %c0], sizes = [%c1, %c16] : !pto.tensor_view<?x?xi32> -> "
    "!pto.partition_tensor_view<1x16xi32>\n"
    "  %w = pto.make_tensor_view %f, shape = [%c8, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xf32>\n"
    "  %q = pto.partition_view %w, offsets = [%c0, %c0], sizes = [%c8, %c8] : !pto.tensor_view<?x?xf32> -> "
    "!pto.partition_tensor_view<8x8xf32>\n"
    "  %t = pto.alloc_tile : " VI("i32", 1, 16, 1, 16) "\n"
    "  pto.tci ins(%s {descending = true} : i32) outs(%t : " VI("i32", 1, 16, 1, 16) ")\n"
    "  %g = pto.tgetval ins(%t, %c5 : " VI("i32", 1, 16, 1, 16) ", index) outs : i32\n"
    "  %g2 = arith.muli %g, %two : i32\n"
    "  pto.tsetval ins(%c3, %g2 : index, i32) outs(%t : " VI("i32", 1, 16, 1, 16) ")\n"
    "  pto.tstore ins(%t : " VI("i32", 1, 16, 1, 16) ") outs(%p : !pto.partition_tensor_view<1x16xi32>)\n"
    "  %m = pto.alloc_tile : " VI("f32", 8, 8, 8, 8) "\n"
    "  %h = pto.alloc_tile : " VI("f32", 8, 8, 1, 1) "\n"
    "  pto.ttri ins(%dg {upperOrLower = 0 : i32} : i32) outs(%m : " VI("f32", 8, 8, 8, 8) ")\n"
    "  pto.tsetval ins(%c0, %half : index, f32) outs(%h : " VI("f32", 8, 8, 1, 1) ")\n"
    "  %hv = pto.tgetval ins(%h, %c0 : " VI("f32", 8, 8, 1, 1) ", index) outs : f32\n"
    "  %hv2 = arith.addf %hv, %hv : f32\n"
    "  pto.tsetval ins(%c0, %hv2 : index, f32) outs(%h : " VI("f32", 8, 8, 1, 1) ")\n"
    "  pto.tpartadd ins(%m, %h : " VI("f32", 8, 8, 8, 8) ", " VI("f32", 8, 8, 1, 1) ") outs(%m : " VI("f32", 8, 8, 8, 8) ")\n"
    "  pto.tstore ins(%m : " VI("f32", 8, 8, 8, 8) ") outs(%q : !pto.partition_tensor_view<8x8xf32>)\n"
    "  return\n}\n";

static void test_text(void) {
  for (int ti = 0; ti < 2; ti++) {
    static int32_t o[16];
    static float f[64];
    void *bufs[] = {o, f};
    size_t sizes[] = {sizeof o, sizeof f};
    run_text(text_src, targets[ti], bufs, sizes, 2);
    int bad = 0;
    for (int c = 0; c < 16; c++) bad += o[c] != (c == 3 ? 2 * (100 - 5) : 100 - c);
    for (int i = 0; i < 8; i++)
      for (int j = 0; j < 8; j++) bad += f[i * 8 + j] != (i == 0 && j == 0 ? 2.0f : j <= i + 1 ? 1.0f : 0.0f);
    CHECK_MSG(bad == 0, "irregular text target %d: %d wrong", targets[ti], bad);
  }
}

/* y = tgather P0101 of x (8 x 8 f32) packed into 4 x 8 (the even columns); the other ops
 * (index tgather by a descending tci, tscatter back, tgather P1000 spelled after outs) only
 * have to bind and run. */
static const char *gather_src =
    "func.func @k(%x: !pto.ptr<f32>, %y: !pto.ptr<f32>) attributes {pto.kernel} {\n"
    "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  %c4 = arith.constant 4 : index\n"
    "  %c8 = arith.constant 8 : index\n  %s = arith.constant 63 : i32\n"
    "  %v = pto.make_tensor_view %x, shape = [%c8, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xf32>\n"
    "  %p = pto.partition_view %v, offsets = [%c0, %c0], sizes = [%c8, %c8] : !pto.tensor_view<?x?xf32> -> "
    "!pto.partition_tensor_view<8x8xf32>\n"
    "  %w = pto.make_tensor_view %y, shape = [%c4, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xf32>\n"
    "  %q = pto.partition_view %w, offsets = [%c0, %c0], sizes = [%c4, %c8] : !pto.tensor_view<?x?xf32> -> "
    "!pto.partition_tensor_view<4x8xf32>\n"
    "  %t = pto.alloc_tile : " VI("f32", 8, 8, 8, 8) "\n"
    "  %g = pto.alloc_tile : " VI("f32", 4, 8, 4, 8) "\n"
    "  %h = pto.alloc_tile : " VI("f32", 1, 8, 1, 8) "\n"
    "  %i = pto.alloc_tile : " VI("i32", 1, 8, 1, 8) "\n"
    "  pto.tload ins(%p : !pto.partition_tensor_view<8x8xf32>) outs(%t : " VI("f32", 8, 8, 8, 8) ")\n"
    "  pto.tgather ins(%t : " VI("f32", 8, 8, 8, 8) ") outs(%g : " VI("f32", 4, 8, 4, 8) ") maskPattern = #pto.mask_pattern<P1000>\n"
    "  pto.tgather ins(%t, {maskPattern = #pto.mask_pattern<P0101>} : " VI("f32", 8, 8, 8, 8) ") outs(%g : "
    VI("f32", 4, 8, 4, 8) ")\n"
    "  pto.tci ins(%s {descending = true} : i32) outs(%i : " VI("i32", 1, 8, 1, 8) ")\n"
    "  pto.tgather ins(%t, %i : " VI("f32", 8, 8, 8, 8) ", " VI("i32", 1, 8, 1, 8) ") outs(%h : " VI("f32", 1, 8, 1, 8) ")\n"
    "  pto.tscatter ins(%h, %i : " VI("f32", 1, 8, 1, 8) ", " VI("i32", 1, 8, 1, 8) ") outs(%t : " VI("f32", 8, 8, 8, 8) ")\n"
    "  pto.tstore ins(%g : " VI("f32", 4, 8, 4, 8) ") outs(%q : !pto.partition_tensor_view<4x8xf32>)\n"
    "  return\n}\n";

static void test_text_gather(void) {
  static float x[64], y[32];
  for (int i = 0; i < 64; i++) x[i] = (float)i * 1.5f;
  void *bufs[] = {x, y};
  size_t sizes[] = {sizeof x, sizeof y};
  run_text(gather_src, PTOSIM_TARGET_A5, bufs, sizes, 2);
  int bad = 0;
  for (int k = 0; k < 32; k++) bad += y[k] != x[2 * k]; /* the even columns of every row, packed */
  CHECK_MSG(bad == 0, "tgather text: %d wrong", bad);
}

/* ---- tinterleave / tdeinterleave ------------------------------------------------------------ */

/* The pto-isa formulas element by element: tinterleave dst0(r, j) = src(j % 2)(r, j / 2),
 * dst1(r, j) = src(j % 2)(r, vc / 2 + j / 2); tdeinterleave with s(i) = src0(r, i) for i < vc,
 * else src1(r, i - vc) (single form: src(r, i)): dst0(r, k) = s(2k), dst1(r, k) = s(2k + 1).
 * Sources come from a copy of the image taken before the destinations are written. */
static void il_ref(env *e, const uint8_t *old, int form, const ptosim_tinterleave_params *p) {
  int64_t es = es_of(p->dst0.dtype), vr = p->dst0.valid_rows, vc = p->dst0.valid_cols;
  const ptosim_tile *src[2] = {&p->src0, &p->src1}, *dst[2] = {&p->dst0, &p->dst1};
  for (int64_t r = 0; r < vr; r++)
    for (int k = 0; k < 2; k++)
      for (int64_t j = 0; j < vc; j++) {
        const ptosim_tile *t;
        int64_t c;
        if (form == 0) t = src[j % 2], c = k * vc / 2 + j / 2;
        else if (form == 2) t = src[0], c = 2 * j + k;
        else t = src[(2 * j + k) >= vc], c = (2 * j + k) % vc;
        memcpy(at(e, dst[k], r, j), old + (at(e, t, r, c) - e->img), (size_t)es);
      }
}

static void test_interleave(void) {
  static const ptosim_dtype types[] = {PTOSIM_DT_I8,  PTOSIM_DT_U8,  PTOSIM_DT_I16, PTOSIM_DT_U16, PTOSIM_DT_I32,
                                       PTOSIM_DT_U32, PTOSIM_DT_F16, PTOSIM_DT_BF16, PTOSIM_DT_F32};
  for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ti++)
    for (int form = 0; form < 3; form++) /* tinterleave, tdeinterleave, tdeinterleave single */
      for (int inplace = 0; inplace < 2; inplace++) {
        ptosim_dtype t = types[ti];
        int cols = (int)(256 / es_of(t)), h = 5, w = form == 2 ? 18 : 36; /* dst valid w x h; tails in every row */
        env e = env_new(PTOSIM_TARGET_A5);
        ptosim_tinterleave_params p = {.src0 = nd(t, 0x400, 8, cols, h, form == 2 ? 2 * w : w),
                                       .src1 = nd(t, 0x1000, 8, cols, h, w), .dst0 = nd(t, 0x2000, 8, cols, h, w),
                                       .dst1 = nd(t, 0x3000, 8, cols, h, w), .single = form == 2};
        if (inplace) p.dst0.addr = p.src1.addr, p.dst1.addr = p.src0.addr; /* results over the sources */
        uint8_t *old = malloc(e.cap);
        memcpy(old, e.img, e.cap);
        env_load(&e);
        il_ref(&e, old, form, &p);
        free(old);
        ptosim_status st = form == 0 ? ptosim_tinterleave(e.c, &p) : ptosim_tdeinterleave(e.c, &p);
        finish(&e, st, form == 0 ? "tinterleave" : "tdeinterleave");
      }
  /* rules: A5 only, even valid columns, one element type of the list, valid shapes */
  ptosim_tinterleave_params p = {.src0 = nd(PTOSIM_DT_F32, 0x400, 8, 64, 4, 32), .src1 = nd(PTOSIM_DT_F32, 0x1000, 8, 64, 4, 32),
                                 .dst0 = nd(PTOSIM_DT_F32, 0x2000, 8, 64, 4, 32), .dst1 = nd(PTOSIM_DT_F32, 0x3000, 8, 64, 4, 32)};
  env e = env_new(PTOSIM_TARGET_A2A3);
  refuse(&e, ptosim_tinterleave(e.c, &p), "tinterleave.target");
  ptosim_tinterleave_params q = p;
  q.src0.valid_cols = q.src1.valid_cols = q.dst0.valid_cols = q.dst1.valid_cols = 31;
  e = env_new(PTOSIM_TARGET_A5);
  refuse(&e, ptosim_tinterleave(e.c, &q), "tinterleave.valid");
  q = p, q.src1.dtype = PTOSIM_DT_I32;
  e = env_new(PTOSIM_TARGET_A5);
  refuse(&e, ptosim_tdeinterleave(e.c, &q), "tdeinterleave.dtype");
  q = p, q.src0.dtype = q.src1.dtype = q.dst0.dtype = q.dst1.dtype = PTOSIM_DT_I64;
  e = env_new(PTOSIM_TARGET_A5);
  refuse(&e, ptosim_tinterleave(e.c, &q), "tinterleave.dtype");
  q = p, q.src1.valid_rows = 3;
  e = env_new(PTOSIM_TARGET_A5);
  refuse(&e, ptosim_tdeinterleave(e.c, &q), "tdeinterleave.valid");
  q = p, q.single = true; /* src 4 x 32 needs dst 4 x 16 */
  e = env_new(PTOSIM_TARGET_A5);
  refuse(&e, ptosim_tdeinterleave(e.c, &q), "tdeinterleave.valid");
  q = p, q.dst1.blayout = PTOSIM_BL_COL_MAJOR;
  e = env_new(PTOSIM_TARGET_A5);
  refuse(&e, ptosim_tinterleave(e.c, &q), "tinterleave.layout");
}

/* ---- session 13: the element types of the NPU headers (a5 unsigned and 64-bit) -------------- */

/* Raw integer elements: the low es bytes of a little-endian u64; signed types compare after
 * sign extension (vmax / vmin on signed lanes, Int64MinMax's signed high word for i64). */
static int is_signed(ptosim_dtype t) {
  return t == PTOSIM_DT_I8 || t == PTOSIM_DT_I16 || t == PTOSIM_DT_I32 || t == PTOSIM_DT_I64;
}
static uint64_t raw_get(ptosim_dtype t, const uint8_t *p) {
  uint64_t u = 0;
  memcpy(&u, p, (size_t)es_of(t));
  return u;
}
static int raw_less(ptosim_dtype t, uint64_t a, uint64_t b) {
  int sh = 64 - 8 * (int)es_of(t); /* move the sign bit to bit 63 */
  if (is_signed(t)) return (int64_t)(a << sh) < (int64_t)(b << sh);
  return a < b;
}
/* f(a, b) of tpart*: 0 add, 1 mul (both modulo 2^bits), 2 max, 3 min. */
static uint64_t raw_part(ptosim_dtype t, int f, uint64_t a, uint64_t b) {
  if (f == 0) return a + b;
  if (f == 1) return a * b;
  return (f == 2) == raw_less(t, a, b) ? b : a;
}

/* Random elements, one in three an edge value: 0, 1, -1 / MAX, MIN, MAX, and 64-bit values
 * whose 32-bit halves differ in sign (truncated to the type's width). */
static uint64_t edge_or_random(void) {
  static const uint64_t edges[] = {0, 1, ~0ull, 0x8000000000000000ull, 0x7FFFFFFFFFFFFFFFull, 0x80, 0x7F, 0x8000,
                                   0x7FFF, 0x80000000ull, 0x7FFFFFFFull, 0x0000000180000000ull,
                                   0xFFFFFFFF00000001ull, 0x800000007FFFFFFFull, 0x7FFFFFFF80000000ull};
  uint64_t r = pt_rand_u64(&seed);
  return r % 3 == 0 ? edges[(r >> 8) % (sizeof edges / sizeof *edges)] : pt_rand_u64(&seed);
}

/* tpart f on a dst of valid vr x vc in a tile of `cols` columns; the small source (src0 when
 * small0) has valid sr x sc; every fourth element of it equals the full source's. */
static void part_raw_case(ptosim_dtype t, int f, int small0, int sr, int sc, int vr, int vc, int cols) {
  env e = env_new(PTOSIM_TARGET_A5);
  int64_t es = es_of(t);
  ptosim_tile full = nd(t, 0x400, 12, cols, vr, vc), small = nd(t, 0x4000, 12, cols, sr, sc);
  ptosim_tile d = nd(t, 0x8000, 12, cols, vr, vc);
  for (int r = 0; r < vr; r++)
    for (int c = 0; c < vc; c++) {
      uint64_t a = edge_or_random(), b = (r + c) % 4 ? edge_or_random() : a;
      memcpy(at(&e, &full, r, c), &a, (size_t)es);
      if (r < sr && c < sc) memcpy(at(&e, &small, r, c), &b, (size_t)es);
    }
  env_load(&e);
  for (int r = 0; r < vr; r++)
    for (int c = 0; c < vc; c++) {
      uint64_t a = raw_get(t, at(&e, &full, r, c)), v = a;
      if (r < sr && c < sc) {
        uint64_t b = raw_get(t, at(&e, &small, r, c));
        v = small0 ? raw_part(t, f, b, a) : raw_part(t, f, a, b);
      }
      memcpy(at(&e, &d, r, c), &v, (size_t)es);
    }
  ptosim_texpand_params p = {.src0 = small0 ? small : full, .src1 = small0 ? full : small, .dst = d};
  char what[96];
  snprintf(what, sizeof what, "tpart a5 f%d %s small%d %dx%d of %dx%d", f, pt_dtype_name(t), small0, sr, sc, vr, vc);
  finish(&e, run_part(e.c, f, &p), what);
}

static void test_s13_tpart(void) {
  static const ptosim_dtype types[] = {PTOSIM_DT_U8, PTOSIM_DT_U16, PTOSIM_DT_U32, PTOSIM_DT_I64, PTOSIM_DT_U64};
  for (int k = 0; k < 5; k++) {
    ptosim_dtype t = types[k];
    int blk = (int)(32 / es_of(t)), b64 = es_of(t) == 8;
    for (int f = 0; f < 4; f++) {
      if (b64 && f == 1) continue; /* a5 TPartMul.hpp: no 64-bit */
      part_raw_case(t, f, 0, 7, blk + 1, 10, 2 * blk + 3, 3 * blk);
      part_raw_case(t, f, 1, 10, 2, 10, 2 * blk + 3, 3 * blk);
      part_raw_case(t, f, 1, 3, 2 * blk + 3, 10, 2 * blk + 3, 3 * blk);
      part_raw_case(t, f, 0, 10, 2 * blk + 3, 10, 2 * blk + 3, 3 * blk); /* both whole */
      if (b64) part_raw_case(t, f, f % 2, 5, 63, 9, 64, 68); /* a whole 64-lane register pair */
    }
    /* A2/A3 TPart*.hpp take none of them */
    ptosim_texpand_params p = {.src0 = nd(t, 0, 8, 2 * blk, 8, blk), .src1 = nd(t, 0x1000, 8, 2 * blk, 4, 4),
                               .dst = nd(t, 0x2000, 8, 2 * blk, 8, blk)};
    env e = env_new(PTOSIM_TARGET_A2A3);
    refuse(&e, ptosim_tpartmax(e.c, &p), "tpartmax.dtype");
  }
  ptosim_texpand_params p = {.src0 = nd(PTOSIM_DT_I64, 0, 2, 68, 2, 65), .src1 = nd(PTOSIM_DT_I64, 0x1000, 2, 68, 1, 4),
                             .dst = nd(PTOSIM_DT_I64, 0x2000, 2, 68, 2, 65)};
  env e = env_new(PTOSIM_TARGET_A5);
  refuse(&e, ptosim_tpartadd(e.c, &p), "tpartadd.cols64"); /* Int64Part: one register pair per row */
  p.src0.valid_cols = p.dst.valid_cols = 16;
  e = env_new(PTOSIM_TARGET_A5);
  refuse(&e, ptosim_tpartmul(e.c, &p), "tpartmul.dtype"); /* no Int64 multiply */
  p = (ptosim_texpand_params){.src0 = nd(PTOSIM_DT_I8, 0, 2, 64, 2, 64), .src1 = nd(PTOSIM_DT_I8, 0x1000, 2, 64, 1, 4),
                              .dst = nd(PTOSIM_DT_I8, 0x2000, 2, 64, 2, 64)};
  e = env_new(PTOSIM_TARGET_A2A3);
  refuse(&e, ptosim_tpartmin(e.c, &p), "tpartmin.dtype"); /* a2a3 TPartMin.hpp:74-79 */
}

static void test_s13_ttri(void) {
  static const ptosim_dtype types[] = {PTOSIM_DT_I64, PTOSIM_DT_U64};
  static const int shapes[][3] = {{13, 11, 16}, {5, 64, 64}}; /* valid rows, valid cols, cols */
  for (int k = 0; k < 2; k++)
    for (int sh = 0; sh < 2; sh++)
      for (int upper = 0; upper < 2; upper++)
        for (int64_t dg = -14; dg <= 66; dg += sh ? 10 : 3) {
          env e = env_new(PTOSIM_TARGET_A5);
          env_load(&e);
          ptosim_tile d = nd(types[k], 0x400, 16, shapes[sh][2], shapes[sh][0], shapes[sh][1]);
          for (int64_t i = 0; i < d.valid_rows; i++)
            for (int64_t j = 0; j < d.valid_cols; j++) {
              uint64_t v = upper ? j >= i + dg : j - i <= dg; /* 1 or 0, high word 0 */
              memcpy(at(&e, &d, i, j), &v, 8);
            }
          ptosim_ttri_params p = {.dst = d, .diagonal = dg, .upper = upper};
          finish(&e, ptosim_ttri(e.c, &p), "ttri 64-bit");
        }
  env e = env_new(PTOSIM_TARGET_A2A3);
  ptosim_ttri_params p = {.dst = nd(PTOSIM_DT_I64, 0, 8, 8, 8, 8)};
  refuse(&e, ptosim_ttri(e.c, &p), "ttri.dtype"); /* a2a3 TTri.hpp:93-97 */
  e = env_new(PTOSIM_TARGET_A2A3);
  p.dst = nd(PTOSIM_DT_BF16, 0, 8, 16, 8, 16);
  refuse(&e, ptosim_ttri(e.c, &p), "ttri.dtype"); /* no bf16 there either */
  e = env_new(PTOSIM_TARGET_A5);
  p.dst = nd(PTOSIM_DT_U64, 0, 2, 68, 2, 65);
  refuse(&e, ptosim_ttri(e.c, &p), "ttri.cols64");
}

static void test_s13_scatter_gather(void) {
  static const ptosim_dtype types[] = {PTOSIM_DT_I64, PTOSIM_DT_U64};
  static const ptosim_dtype itypes[] = {PTOSIM_DT_U32, PTOSIM_DT_I32};
  for (int k = 0; k < 2; k++) {
    ptosim_dtype t = types[k], it = itypes[k];
    gather_index_case(PTOSIM_TARGET_A5, t, it, k == 1);
    /* tscatter: dst's whole storage zeroed, then dst_flat[idx(i, j)] = src(i, j), the last write winning */
    for (int w = 5; w <= 64; w += 59) {
      env e = env_new(PTOSIM_TARGET_A5);
      ptosim_tile s = nd(t, 0x400, 6, 68, 5, 3), d = nd(t, 0x4000, 4, 20, 4, 3), ix = nd(it, 0x6000, 8, 72, 4, w);
      int64_t n = d.rows * d.cols;
      for (int64_t i = 0; i < s.rows; i++)
        for (int64_t j = 0; j < s.cols; j++) {
          uint64_t v = edge_or_random();
          memcpy(at(&e, &s, i, j), &v, 8);
        }
      for (int64_t i = 0; i < ix.valid_rows; i++)
        for (int64_t j = 0; j < ix.valid_cols; j++) put_u32(at(&e, &ix, i, j), (uint32_t)(pt_rand_u64(&seed) % (uint64_t)n));
      env_load(&e);
      memset(e.img + d.addr, 0, (size_t)(n * 8));
      for (int64_t i = 0; i < ix.valid_rows; i++)
        for (int64_t j = 0; j < ix.valid_cols; j++) {
          uint32_t q;
          memcpy(&q, at(&e, &ix, i, j), 4);
          memcpy(e.img + d.addr + (uint64_t)q * 8, at(&e, &s, i, j), 8);
        }
      ptosim_tindex_params p = {.src = s, .index = ix, .dst = d};
      finish(&e, ptosim_tscatter(e.c, &p), "tscatter 64-bit");
    }
    /* tgather mask form: row r keeps k < w / t selections at dst element r * (dst cols / t) + k */
    for (int m = PTOSIM_MP_P0101; m <= PTOSIM_MP_P1111; m++)
      for (int sh = 0; sh < 2; sh++) {
        static const int t_of[] = {0, 2, 2, 4, 4, 4, 4, 1}, o_of[] = {0, 0, 1, 0, 1, 2, 3, 0};
        int tt = t_of[m], o = o_of[m];
        env e = env_new(PTOSIM_TARGET_A5);
        ptosim_tile s = sh ? nd(t, 0x400, 8, 24, 3, 15) : nd(t, 0x400, 4, 16, 4, 16);
        ptosim_tile d = sh ? nd(t, 0x2000, 8, 24, 3, 7) : nd(t, 0x2000, 4, 16, 4, 16);
        for (int64_t i = 0; i < s.rows; i++)
          for (int64_t j = 0; j < s.cols; j++) {
            uint64_t v = edge_or_random();
            memcpy(at(&e, &s, i, j), &v, 8);
          }
        env_load(&e);
        for (int64_t r = 0; r < s.valid_rows; r++)
          for (int64_t q = 0; q < s.valid_cols / tt; q++)
            memcpy(e.img + d.addr + (r * (d.cols / tt) + q) * 8, at(&e, &s, r, q * tt + o), 8);
        ptosim_tgather_params p = {.src = s, .pattern = (ptosim_mask_pattern)m, .dst = d};
        finish(&e, ptosim_tgather(e.c, &p), "tgather mask 64-bit");
      }
  }
  /* refusals: A2/A3 has no 64-bit gather / scatter; 64-bit data take 4-byte indices; one register pair per row */
  ptosim_tindex_params q = {.src = nd(PTOSIM_DT_I64, 0, 1, 68, 1, 65), .index = nd(PTOSIM_DT_I32, 0x1000, 1, 72, 1, 65),
                            .dst = nd(PTOSIM_DT_I64, 0x2000, 1, 68, 1, 68)};
  env e = env_new(PTOSIM_TARGET_A5);
  refuse(&e, ptosim_tscatter(e.c, &q), "tscatter.cols64");
  q.index.valid_cols = q.src.valid_cols = 8;
  e = env_new(PTOSIM_TARGET_A2A3);
  refuse(&e, ptosim_tscatter(e.c, &q), "tscatter.dtype");
  q.index = nd(PTOSIM_DT_U16, 0x1000, 1, 80, 1, 8);
  e = env_new(PTOSIM_TARGET_A5);
  refuse(&e, ptosim_tscatter(e.c, &q), "tscatter.dtype");
  ptosim_tgather_params g = {.src = nd(PTOSIM_DT_U64, 0, 1, 132, 1, 130), .pattern = PTOSIM_MP_P0101,
                             .dst = nd(PTOSIM_DT_U64, 0x2000, 1, 132, 1, 132)};
  e = env_new(PTOSIM_TARGET_A5);
  refuse(&e, ptosim_tgather(e.c, &g), "tgather.cols64"); /* 65 selections */
  g.src.valid_cols = 128, g.dst = nd(PTOSIM_DT_U64, 0x2000, 1, 60, 1, 60);
  e = env_new(PTOSIM_TARGET_A5);
  refuse(&e, ptosim_tgather(e.c, &g), "tgather.shape"); /* 64 selections, 60 elements */
  e = env_new(PTOSIM_TARGET_A2A3);
  refuse(&e, ptosim_tgather(e.c, &g), "tgather.dtype");
  g = (ptosim_tgather_params){.src = nd(PTOSIM_DT_I64, 0, 8, 8, 8, 8), .indices = nd(PTOSIM_DT_I16, 0x1000, 8, 16, 8, 8),
                              .dst = nd(PTOSIM_DT_I64, 0x2000, 8, 8, 8, 8)};
  e = env_new(PTOSIM_TARGET_A5);
  refuse(&e, ptosim_tgather(e.c, &g), "tgather.dtype"); /* a5 TGather.hpp CheckValid: b32 indices for b64 data */
  g.indices = nd(PTOSIM_DT_I32, 0x1000, 1, 72, 1, 65), g.src = nd(PTOSIM_DT_I64, 0, 2, 68, 2, 68);
  g.dst = nd(PTOSIM_DT_I64, 0x2000, 1, 68, 1, 65);
  e = env_new(PTOSIM_TARGET_A5);
  refuse(&e, ptosim_tgather(e.c, &g), "tgather.cols64");
}

/* ---- session 13: mask axis ("row" / "col") of tgather / tscatter, masked tscatter ---------- */

/* keep[m][k % 4]: mask pattern m selects position k of a group (pto-isa gen_data.py's tables;
 * the period-2 patterns repeat in a group of 4). */
static const int mask_keep[8][4] = {{0}, {1, 0, 1, 0}, {0, 1, 0, 1}, {1, 0, 0, 0},
                                    {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}, {1, 1, 1, 1}};
static int mask_step(int m) { return m == PTOSIM_MP_P1111 ? 1 : m <= PTOSIM_MP_P1010 ? 2 : 4; }

/* tgather col axis: the src rows the pattern keeps, in order, become dst rows 0, 1, ... (their
 * src valid columns); tscatter, the inverse walk over dst: row axis, dst columns the pattern
 * keeps take src's columns in order; col axis, dst rows take src's rows; the rest of dst's
 * storage 0 (P1111: a plain copy, nothing else written). */
static void mask_axis_case(ptosim_target tg, ptosim_dtype t, int m, int col, int scatter) {
  int64_t es = es_of(t), blk = 32 / es, k = mask_step(m);
  int sr = 3, sc = (int)(blk + 3); /* src valid region */
  env e = env_new(tg);
  env_load(&e);
  if (!scatter) {
    ptosim_tile s = nd(t, 0x400, sr * (int)k + 2, (int)(2 * blk), sr * (int)k, sc);
    ptosim_tile d = nd(t, 0x4000, sr + 1, (int)(2 * blk), sr, (int)(2 * blk));
    for (int64_t r = 0, i = 0; r < s.valid_rows; r++)
      if (mask_keep[m][r % 4]) memcpy(at(&e, &d, i++, 0), at(&e, &s, r, 0), (size_t)(sc * es));
    ptosim_tgather_params p = {.src = s, .pattern = (ptosim_mask_pattern)m, .dst = d, .axis = PTOSIM_AXIS_COL};
    finish(&e, ptosim_tgather(e.c, &p), "tgather col");
    return;
  }
  int dr = col ? sr * (int)k : sr, dc = col ? sc : sc * (int)k;
  ptosim_tile s = nd(t, 0x400, sr + 1, (int)(2 * blk), sr, sc);
  ptosim_tile d = nd(t, 0x4000, dr + 2, (int)(((dc + 1) / blk + 1) * blk), dr, dc);
  if (m != PTOSIM_MP_P1111) memset(at(&e, &d, 0, 0), 0, (size_t)(d.rows * d.cols * es));
  for (int64_t r = 0, i = 0; r < dr; r++) {
    if (col && !mask_keep[m][r % 4]) continue;
    for (int64_t c = 0, j = 0; c < dc; c++)
      if (col || mask_keep[m][c % 4]) memcpy(at(&e, &d, r, c), at(&e, &s, i, j++), (size_t)es);
    i++;
  }
  ptosim_tindex_params p = {.src = s, .dst = d, .pattern = (ptosim_mask_pattern)m,
                            .axis = col ? PTOSIM_AXIS_COL : PTOSIM_AXIS_ROW};
  finish(&e, ptosim_tscatter(e.c, &p), col ? "tscatter col" : "tscatter row");
}

static void test_s13_mask_axis(void) {
  static const ptosim_dtype types[] = {PTOSIM_DT_F32, PTOSIM_DT_F16, PTOSIM_DT_I32, PTOSIM_DT_U16, PTOSIM_DT_I8,
                                       PTOSIM_DT_BF16, PTOSIM_DT_U64};
  for (int ti = 0; ti < 2; ti++)
    for (int k = 0; k < 7; k++) {
      ptosim_dtype t = types[k];
      bool a5 = targets[ti] == PTOSIM_TARGET_A5, b8 = es_of(t) == 1, b64 = es_of(t) == 8;
      if (b64 && !a5) continue; /* 64-bit: A5 only */
      for (int m = PTOSIM_MP_P0101; m <= PTOSIM_MP_P1111; m++) {
        if ((a5 || !b8) && !b64) mask_axis_case(targets[ti], t, m, 1, 0); /* a2a3: no 1-byte gather */
        mask_axis_case(targets[ti], t, m, 0, 1);
        if (a5 || !b8 || m == PTOSIM_MP_P1111) mask_axis_case(targets[ti], t, m, 1, 1);
      }
    }
  /* refusals */
  env e = env_new(PTOSIM_TARGET_A5);
  ptosim_tgather_params g = {.src = nd(PTOSIM_DT_F32, 0, 8, 8, 8, 8), .pattern = PTOSIM_MP_P0001,
                             .dst = nd(PTOSIM_DT_F32, 0x1000, 4, 8, 4, 8), .axis = PTOSIM_AXIS_COL};
  refuse(&e, ptosim_tgather(e.c, &g), "tgather.shape"); /* 8 src rows, P0001 keeps 2, dst wants 4 */
  g.src.dtype = g.dst.dtype = PTOSIM_DT_I64, g.dst.valid_rows = 2;
  e = env_new(PTOSIM_TARGET_A5);
  refuse(&e, ptosim_tgather(e.c, &g), "tgather.axis");
  ptosim_tindex_params q = {.src = nd(PTOSIM_DT_F16, 0, 2, 16, 2, 16), .dst = nd(PTOSIM_DT_F16, 0x1000, 4, 32, 4, 32),
                            .pattern = PTOSIM_MP_P0101};
  e = env_new(PTOSIM_TARGET_A2A3);
  refuse(&e, ptosim_tscatter(e.c, &q), "tscatter.valid"); /* row axis: 2 x 32 */
  q.axis = PTOSIM_AXIS_COL, q.dst.valid_cols = 16, q.pattern = PTOSIM_MP_P1111;
  e = env_new(PTOSIM_TARGET_A2A3);
  refuse(&e, ptosim_tscatter(e.c, &q), "tscatter.valid"); /* P1111: dst valid = src valid */
  q = (ptosim_tindex_params){.src = nd(PTOSIM_DT_I8, 0, 2, 32, 2, 32), .dst = nd(PTOSIM_DT_I8, 0x1000, 4, 32, 4, 32),
                             .pattern = PTOSIM_MP_P1010, .axis = PTOSIM_AXIS_COL};
  e = env_new(PTOSIM_TARGET_A2A3);
  refuse(&e, ptosim_tscatter(e.c, &q), "tscatter.dtype");
  q = (ptosim_tindex_params){.src = nd(PTOSIM_DT_U64, 0, 1, 68, 1, 65), .dst = nd(PTOSIM_DT_U64, 0x1000, 2, 68, 2, 65),
                             .pattern = PTOSIM_MP_P1010, .axis = PTOSIM_AXIS_COL};
  e = env_new(PTOSIM_TARGET_A5);
  refuse(&e, ptosim_tscatter(e.c, &q), "tscatter.cols64");
  q.pattern = (ptosim_mask_pattern)(PTOSIM_MP_P1111 + 1); /* not a pattern (C API) */
  e = env_new(PTOSIM_TARGET_A5);
  refuse(&e, ptosim_tscatter(e.c, &q), "tscatter.pattern");
}

/* x (4 x 8 f32) -> tgather P1010 "col" -> 2 x 8 (rows 1 and 3) -> tscatter P0101 "row" -> 2 x 16
 * (even columns, odd ones 0) -> y; tscatter P0100 "col" of the same 2 x 8 -> z (8 x 8: rows 2
 * and 6 = x rows 1 and 3, the rest 0). */
static const char *axis_src =
    "func.func @k(%x: !pto.ptr<f32>, %y: !pto.ptr<f32>, %z: !pto.ptr<f32>) attributes {pto.kernel} {\n"
    "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  %c2 = arith.constant 2 : index\n"
    "  %c4 = arith.constant 4 : index\n  %c8 = arith.constant 8 : index\n  %c16 = arith.constant 16 : index\n"
    "  %v = pto.make_tensor_view %x, shape = [%c4, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xf32>\n"
    "  %p = pto.partition_view %v, offsets = [%c0, %c0], sizes = [%c4, %c8] : !pto.tensor_view<?x?xf32> -> "
    "!pto.partition_tensor_view<4x8xf32>\n"
    "  %w = pto.make_tensor_view %y, shape = [%c2, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>\n"
    "  %q = pto.partition_view %w, offsets = [%c0, %c0], sizes = [%c2, %c16] : !pto.tensor_view<?x?xf32> -> "
    "!pto.partition_tensor_view<2x16xf32>\n"
    "  %u = pto.make_tensor_view %z, shape = [%c8, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xf32>\n"
    "  %r = pto.partition_view %u, offsets = [%c0, %c0], sizes = [%c8, %c8] : !pto.tensor_view<?x?xf32> -> "
    "!pto.partition_tensor_view<8x8xf32>\n"
    "  %t = pto.alloc_tile : " VI("f32", 4, 8, 4, 8) "\n"
    "  %g = pto.alloc_tile : " VI("f32", 2, 8, 2, 8) "\n"
    "  %h = pto.alloc_tile : " VI("f32", 2, 16, 2, 16) "\n"
    "  %o = pto.alloc_tile : " VI("f32", 8, 8, 8, 8) "\n"
    "  pto.tload ins(%p : !pto.partition_tensor_view<4x8xf32>) outs(%t : " VI("f32", 4, 8, 4, 8) ")\n"
    "  pto.tgather ins(%t, {maskPattern = #pto.mask_pattern<P1010>} : " VI("f32", 4, 8, 4, 8) ", \"col\") outs(%g : "
    VI("f32", 2, 8, 2, 8) ")\n"
    "  pto.tscatter ins(%g, {maskPattern = #pto.mask_pattern<P0101>} : " VI("f32", 2, 8, 2, 8) ", \"row\") outs(%h : "
    VI("f32", 2, 16, 2, 16) ")\n"
    "  pto.tscatter ins(%g, {maskPattern = #pto.mask_pattern<P0100>} : " VI("f32", 2, 8, 2, 8) ", \"col\") outs(%o : "
    VI("f32", 8, 8, 8, 8) ")\n"
    "  pto.tstore ins(%h : " VI("f32", 2, 16, 2, 16) ") outs(%q : !pto.partition_tensor_view<2x16xf32>)\n"
    "  pto.tstore ins(%o : " VI("f32", 8, 8, 8, 8) ") outs(%r : !pto.partition_tensor_view<8x8xf32>)\n"
    "  return\n}\n";

static void test_s13_axis_text(void) {
  for (int ti = 0; ti < 2; ti++) {
    static float x[32], y[32], z[64];
    for (int i = 0; i < 32; i++) x[i] = (float)i + 0.25f;
    void *bufs[] = {x, y, z};
    size_t sizes[] = {sizeof x, sizeof y, sizeof z};
    run_text(axis_src, targets[ti], bufs, sizes, 3);
    int bad = 0;
    for (int r = 0; r < 2; r++)
      for (int c = 0; c < 16; c++) bad += y[r * 16 + c] != (c % 2 ? 0.0f : x[(2 * r + 1) * 8 + c / 2]);
    for (int r = 0; r < 8; r++)
      for (int c = 0; c < 8; c++) bad += z[r * 8 + c] != (r % 4 == 2 ? x[(2 * (r / 4) + 1) * 8 + c] : 0.0f);
    CHECK_MSG(bad == 0, "mask axis text target %d: %d wrong", targets[ti], bad);
  }
}

int main(void) {
  RUN(test_tci);
  RUN(test_ttri);
  RUN(test_getset);
  RUN(test_tpart);
  RUN(test_tgather);
  RUN(test_tgatherb);
  RUN(test_tscatter);
  RUN(test_tconcatidx);
  RUN(test_tpartarg);
  RUN(test_tsort32);
  RUN(test_tmrgsort);
  RUN(test_thistogram);
  RUN(test_tquant);
  RUN(test_tdequant);
  RUN(test_trandom);
  RUN(test_tprint);
  RUN(test_interleave);
  RUN(test_text);
  RUN(test_text_gather);
  RUN(test_s13_tpart);
  RUN(test_s13_ttri);
  RUN(test_s13_scatter_gather);
  RUN(test_s13_mask_axis);
  RUN(test_s13_axis_text);
  return pt_test_finish();
}
