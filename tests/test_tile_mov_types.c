/* Session-13 widening of pto.textract / pto.tinsert to the NPU headers' lists (src/isa/tile_mov.c):
 *   - textract ND vec -> NZ vec (one window of pto-isa's two-destination TEXTRACT), both targets;
 *   - a2a3 NZ vec -> vec textract / tinsert of i16 / u16 / u32 (and the a5 NZ vec list);
 *   - a5 tinsert vec -> mat of ND / ZZ sources as flat 32-byte bursts (TInsertNDImpl);
 *   - a5 tinsert NZ vec -> mat with tinsertMode split2 / split4 (TInsertSplitImpl).
 * The references are byte loops written from the pto-isa code paths (a5 / a2a3 TExtract.hpp
 * TExtractNdToNz*, a5 TInsert.hpp TInsertNDImpl), not from tile_geom.h; every byte of UB and L1
 * outside what the op writes must keep its random sentinel. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "core/dtype.h"
#include "harness.h"
#include "ptosim/ptosim.h"

static unsigned long long rng = 0x6d6f7631ull;
static int64_t rnd(int64_t n) { return (int64_t)(pt_rand_u64(&rng) % (unsigned long long)n); }

#define UB_MAX (256 * 1024)
#define L1_MAX (1024 * 1024)
static uint8_t ub_img[UB_MAX], l1_img[L1_MAX], got[L1_MAX];

typedef struct mach {
  ptosim_machine *m;
  ptosim_core *aiv, *aic;
  uint64_t ub, l1; /* capacities */
} mach;

/* A machine whose UB (vector core 0) and L1 hold random bytes, mirrored in ub_img / l1_img. */
static mach fresh(ptosim_target t) {
  mach x = {.m = ptosim_machine_new(t, 1)};
  x.aiv = ptosim_core_of(x.m, 0, PTOSIM_AIV0), x.aic = ptosim_core_of(x.m, 0, PTOSIM_AIC);
  x.ub = ptosim_space_capacity(x.m, PTOSIM_UB), x.l1 = ptosim_space_capacity(x.m, PTOSIM_L1);
  for (uint64_t i = 0; i < x.ub; i++) ub_img[i] = (uint8_t)pt_rand_u64(&rng);
  for (uint64_t i = 0; i < x.l1; i++) l1_img[i] = (uint8_t)pt_rand_u64(&rng);
  CHECK(ptosim_mem_write(x.aiv, PTOSIM_UB, 0, ub_img, x.ub) == PTOSIM_OK);
  CHECK(ptosim_mem_write(x.aic, PTOSIM_L1, 0, l1_img, x.l1) == PTOSIM_OK);
  return x;
}

static bool same(ptosim_core *c, ptosim_space sp, const uint8_t *img, uint64_t n, const char *ctx) {
  CHECK(ptosim_mem_read(c, sp, 0, got, n) == PTOSIM_OK);
  for (uint64_t i = 0; i < n; i++)
    if (got[i] != img[i]) {
      CHECK_MSG(0, "%s: %s byte 0x%" PRIx64 " is %02x, expected %02x", ctx, sp == PTOSIM_UB ? "ub" : "l1", i, got[i], img[i]);
      return false;
    }
  return true;
}

/* Run the op; OK expected: compare UB and L1 with the images; else the rule, nothing changed. */
static void run(mach *x, ptosim_opcode op, const ptosim_tmov_params *p, const char *rule, const char *ctx) {
  ptosim_status st = ptosim_exec(x->aiv, op, p, NULL);
  const ptosim_diag *d = ptosim_last_diag(x->m);
  if (rule)
    CHECK_MSG(st != PTOSIM_OK && !strcmp(d->rule, rule), "%s: status %d [%s] %s, expected [%s]", ctx, (int)st, d->rule,
              d->msg, rule);
  else
    CHECK_MSG(st == PTOSIM_OK, "%s: status %d [%s] %s", ctx, (int)st, d->rule, d->msg);
  same(x->aiv, PTOSIM_UB, ub_img, x->ub, ctx);
  same(x->aic, PTOSIM_L1, l1_img, x->l1, ctx);
  ptosim_machine_free(x->m);
}

static ptosim_tile vtile(ptosim_space sp, ptosim_dtype t, int rows, int cols, int vr, int vc, ptosim_blayout bl,
                         ptosim_slayout sl, int fractal, uint64_t addr) {
  return (ptosim_tile){.space = sp, .addr = addr, .dtype = t, .rows = rows, .cols = cols, .valid_rows = vr,
                       .valid_cols = vc, .blayout = bl, .slayout = sl, .fractal = fractal};
}
#define ND(sp, t, r, c, vr, vc, a) vtile(sp, t, r, c, vr, vc, PTOSIM_BL_ROW_MAJOR, PTOSIM_SL_NONE_BOX, 512, a)
#define NZ(sp, t, r, c, vr, vc, a) vtile(sp, t, r, c, vr, vc, PTOSIM_BL_COL_MAJOR, PTOSIM_SL_ROW_MAJOR, 512, a)
#define ZZ(sp, t, r, c, f, a) vtile(sp, t, r, c, r, c, PTOSIM_BL_ROW_MAJOR, PTOSIM_SL_ROW_MAJOR, f, a)

/* ---- textract ND -> NZ ------------------------------------------------------------------ */

static const ptosim_dtype nd2nz_a2a3[] = {PTOSIM_DT_I8, PTOSIM_DT_F16, PTOSIM_DT_BF16, PTOSIM_DT_F32, PTOSIM_DT_I32};
static const ptosim_dtype nd2nz_a5[] = {PTOSIM_DT_I8,   PTOSIM_DT_F16,    PTOSIM_DT_BF16,   PTOSIM_DT_F32,
                                        PTOSIM_DT_I32,  PTOSIM_DT_HIF8,   PTOSIM_DT_F8E4M3, PTOSIM_DT_F8E5M2,
                                        PTOSIM_DT_F8E8M0};

/* Reference: byte k of element (i, j) of the window (indexRow + i, indexCol + j) of the ND
 * source goes to NZ byte ((j / c0) * blockRows + i) * 32 + (j % c0) * es of dst, blockRows =
 * a5 align16(validRow) (+1 row_plus_one), a2a3 the tile's rows. a2a3 i8 windows of odd
 * width from a 32-byte column (not 1 x 1) also leave f16 copies at UB 184 KiB: row slot i %
 * 128, lane j % 32, the last column block writing it wins. */
static void nd2nz_case(ptosim_target tg, ptosim_dtype t, int sr, int sc, int rows, int cols, int vr, int vc, int ir,
                       int ic, int compact, const char *rule) {
  mach x = fresh(tg);
  bool a5 = tg == PTOSIM_TARGET_A5;
  int64_t es = pt_dtype_size(t), c0 = 32 / es;
  ptosim_tmov_params p = {.src = ND(PTOSIM_UB, t, sr, sc, sr, sc, 0x100),
                          .dst = NZ(PTOSIM_UB, t, rows, cols, vr, vc, 0x100 + (uint64_t)(sr * sc * es + 511) / 512 * 512),
                          .index_row = ir,
                          .index_col = ic};
  p.dst.compact = compact;
  int64_t brows = a5 ? (vr + 15) / 16 * 16 + (compact == 2) : rows;
  if (!rule) {
    for (int64_t i = 0; i < vr; i++)
      for (int64_t j = 0; j < vc; j++)
        memcpy(ub_img + p.dst.addr + ((j / c0) * brows + i) * 32 + (j % c0) * es,
               ub_img + p.src.addr + ((ir + i) * sc + ic + j) * es, (size_t)es);
    if (!a5 && es == 1 && vc % 2 && !(vr == 1 && vc == 1) && ic % 32 == 0)
      for (int64_t j = 0; j < vc; j++)
        for (int64_t i = 0; i < vr; i++)
          pt_store_from_f32(PTOSIM_DT_F16, ub_img + 184 * 1024 + i % 128 * 64 + j % 32 * 2,
                            (float)(int8_t)ub_img[p.src.addr + (ir + i) * sc + ic + j], PT_RND_RINT, PT_SAT_OFF);
  }
  char ctx[160];
  snprintf(ctx, sizeof ctx, "%s textract ND %dx%d -> NZ %dx%d valid %dx%d at (%d, %d) %s compact %d", a5 ? "a5" : "a2a3",
           sr, sc, rows, cols, vr, vc, ir, ic, pt_dtype_name(t), compact);
  run(&x, PTOSIM_OP_textract, &p, rule, ctx);
}

static void test_textract_nd_to_nz(void) {
  for (int a5 = 0; a5 < 2; a5++) {
    ptosim_target tg = a5 ? PTOSIM_TARGET_A5 : PTOSIM_TARGET_A2A3;
    const ptosim_dtype *ts = a5 ? nd2nz_a5 : nd2nz_a2a3;
    size_t nt = a5 ? sizeof nd2nz_a5 / sizeof *nd2nz_a5 : sizeof nd2nz_a2a3 / sizeof *nd2nz_a2a3;
    for (size_t k = 0; k < nt; k++) {
      ptosim_dtype t = ts[k];
      int c0 = 32 / (int)pt_dtype_size(t);
      /* the hardware test's windows: aligned, from (16, c0 / 2), 1 x 1 */
      nd2nz_case(tg, t, 64, 4 * c0, 32, 2 * c0, 32, 2 * c0, 32, 2 * c0, 0, NULL);
      nd2nz_case(tg, t, 64, 4 * c0, 32, 2 * c0, 32, 2 * c0, 16, c0 / 2, 0, NULL);
      nd2nz_case(tg, t, 64, 4 * c0, 16, c0, 1, 1, 20, 2 * c0 + 3, 0, NULL);
      /* valid rows / columns short of the tile, odd widths, tails of a column block; a tile
         with more rows than the rounded valid rows (a5 steps by the valid rows) */
      nd2nz_case(tg, t, 40, 3 * c0, 32, 3 * c0, 21, 2 * c0 + 1, 7, c0 - 1, 0, NULL);
      nd2nz_case(tg, t, 40, 3 * c0, 48, 2 * c0, 9, c0 + 3, 31, 0, 0, NULL);
      nd2nz_case(tg, t, 48, 2 * c0, 33, 2 * c0, 1, 2 * c0, 47, 0, 0, NULL);
      if (a5) nd2nz_case(tg, t, 40, 3 * c0, 17, 2 * c0, 16, c0 + 5, 3, 1, 2, NULL); /* row_plus_one */
      /* random shapes */
      for (int it = 0; it < 6; it++) {
        int sr = 1 + (int)rnd(48), sc = c0 * (1 + (int)rnd(4)), vr = 1 + (int)rnd(sr), vc = 1 + (int)rnd(sc);
        int rows = (vr + 15) / 16 * 16 + 16 * (int)rnd(2), cols = (vc + c0 - 1) / c0 * c0;
        nd2nz_case(tg, t, sr, sc, rows, cols, vr, vc, (int)rnd(sr - vr + 1), (int)rnd(sc - vc + 1), 0, NULL);
      }
    }
    /* still refused: types outside CheckTExtractNdToNz, a2a3 row_plus_one, windows leaving src */
    static const ptosim_dtype bad[] = {PTOSIM_DT_U8, PTOSIM_DT_I16, PTOSIM_DT_U16, PTOSIM_DT_U32, PTOSIM_DT_I64};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
      int c0 = 32 / (int)pt_dtype_size(bad[k]);
      nd2nz_case(tg, bad[k], 32, 2 * c0, 32, 2 * c0, 32, 2 * c0, 0, 0, 0, "textract.dtype");
    }
    if (!a5) nd2nz_case(tg, PTOSIM_DT_HIF8, 32, 64, 32, 64, 32, 64, 0, 0, 0, "textract.dtype");
    if (!a5) nd2nz_case(tg, PTOSIM_DT_F16, 32, 32, 33, 16, 16, 16, 0, 0, 2, "textract.layout");
    nd2nz_case(tg, PTOSIM_DT_F32, 32, 16, 32, 16, 20, 8, 13, 9, 0, "textract.bounds");
  }
  /* a5: a tile of fewer rows than its valid rows rounded up to 16 cannot take two blocks */
  nd2nz_case(PTOSIM_TARGET_A5, PTOSIM_DT_F16, 32, 32, 20, 32, 20, 32, 0, 0, 0, "textract.bounds");
  nd2nz_case(PTOSIM_TARGET_A5, PTOSIM_DT_F16, 32, 32, 20, 16, 20, 16, 0, 0, 0, NULL);
  /* a2a3 i8 odd widths through the scratch: more than 128 rows, several column blocks */
  nd2nz_case(PTOSIM_TARGET_A2A3, PTOSIM_DT_I8, 160, 128, 144, 96, 140, 65, 20, 32, 0, NULL);
}

/* ---- NZ vec -> vec of the a2a3 / a5 lists ----------------------------------------------- */

/* Reference: NZ element (r, c) of a tile of R rows at ((c / c0) * R + r) * 32 + (c % c0) * es;
 * textract dst(i, j) = src(ir + i, ic + j), tinsert dst(ir + i, ic + j) = src(i, j), for the
 * valid window (2- and 4-byte elements: every column; a5 moves whole 32-byte stripes). */
static void nz_case(ptosim_target tg, ptosim_opcode op, ptosim_dtype t, int vr, int vc, int ir, int ic,
                    const char *rule) {
  mach x = fresh(tg);
  int64_t es = pt_dtype_size(t), c0 = 32 / es;
  bool ext = op == PTOSIM_OP_textract, a5 = tg == PTOSIM_TARGET_A5;
  int big_r = 64, big_c = (int)(4 * c0), small_r = 32, small_c = (int)(2 * c0);
  ptosim_tile big = NZ(PTOSIM_UB, t, big_r, big_c, big_r, big_c, 0x200), small;
  small = NZ(PTOSIM_UB, t, small_r, small_c, vr, vc, 0x200 + (uint64_t)big_r * big_c * es);
  ptosim_tmov_params p = {.src = ext ? big : small, .dst = ext ? small : big, .index_row = ir, .index_col = ic};
  int64_t w = a5 ? (vc + c0 - 1) / c0 * c0 : vc;
  if (!rule)
    for (int64_t i = 0; i < vr; i++)
      for (int64_t j = 0; j < w; j++) {
        int64_t si = ext ? ir + i : i, sj = ext ? ic + j : j, di = ext ? i : ir + i, dj = ext ? j : ic + j;
        memcpy(ub_img + p.dst.addr + ((dj / c0) * p.dst.rows + di) * 32 + (dj % c0) * es,
               ub_img + p.src.addr + ((sj / c0) * p.src.rows + si) * 32 + (sj % c0) * es, (size_t)es);
      }
  char ctx[128];
  snprintf(ctx, sizeof ctx, "%s %s NZ %s valid %dx%d at (%d, %d)", a5 ? "a5" : "a2a3", ext ? "textract" : "tinsert",
           pt_dtype_name(t), vr, vc, ir, ic);
  run(&x, op, &p, rule, ctx);
}

static void test_nz_vec_types(void) {
  static const ptosim_dtype wide[] = {PTOSIM_DT_I16, PTOSIM_DT_U16, PTOSIM_DT_U32};
  for (int e = 0; e < 2; e++) {
    ptosim_opcode op = e ? PTOSIM_OP_textract : PTOSIM_OP_tinsert;
    for (size_t k = 0; k < sizeof wide / sizeof *wide; k++) {
      ptosim_dtype t = wide[k];
      int c0 = 32 / (int)pt_dtype_size(t);
      nz_case(PTOSIM_TARGET_A2A3, op, t, 32, 2 * c0, 16, c0, NULL);
      nz_case(PTOSIM_TARGET_A2A3, op, t, 13, c0 + 3, 32, 2 * c0, NULL); /* tails: 2-byte units cover them */
      nz_case(PTOSIM_TARGET_A2A3, op, t, 1, 1, 5, 3, NULL); /* one element anywhere */
      nz_case(PTOSIM_TARGET_A5, op, t, 16, c0, 16, c0, e ? "textract.dtype" : "tinsert.dtype");
    }
    nz_case(PTOSIM_TARGET_A5, op, PTOSIM_DT_F8E8M0, 20, 40, 16, 32, NULL);
    nz_case(PTOSIM_TARGET_A5, op, PTOSIM_DT_U8, 16, 32, 16, 32, e ? "textract.dtype" : "tinsert.dtype");
    nz_case(PTOSIM_TARGET_A2A3, op, PTOSIM_DT_F8E8M0, 16, 32, 16, 32, e ? "textract.dtype" : "tinsert.dtype");
    nz_case(PTOSIM_TARGET_A2A3, op, PTOSIM_DT_I64, 16, 4, 16, 4, e ? "textract.dtype" : "tinsert.dtype");
  }
}

/* ---- a5 tinsert ND / ZZ vec -> mat: flat bursts ----------------------------------------- */

/* Reference from TInsertNDImpl's three branches, per byte: with S / D the bytes per source /
 * destination ND row (cols * es), V = vC * es and B = vR * V, starting at destination byte
 * o = (index_row * dst cols + index_col) * es:
 *   vC = both tiles' cols, B >= 32: bytes [0, B rounded down to 32) straight;
 *   V >= 32: row i's first V rounded down to 32 bytes, read from i * (that + (S - V) rounded down
 *            to 32), written to o + i * (that + (D - V) rounded down to 32);
 *   else: bytes [0, B rounded up to 32) straight. */
static void flat_case(ptosim_tile src, ptosim_tile dst, int ir, int ic, const char *rule) {
  mach x = fresh(PTOSIM_TARGET_A5);
  ptosim_tmov_params p = {.src = src, .dst = dst, .index_row = ir, .index_col = ic};
  int64_t es = pt_dtype_size(src.dtype), S = src.cols * es, D = dst.cols * es, V = src.valid_cols * es;
  int64_t B = src.valid_rows * V, o = (ir * (int64_t)dst.cols + ic) * es;
  if (!rule) {
    uint8_t *u = ub_img + src.addr, *l = l1_img + dst.addr + o;
    if (src.valid_cols == src.cols && src.valid_cols == dst.cols && B >= 32)
      for (int64_t b = 0; b < B - B % 32; b++) l[b] = u[b];
    else if (V >= 32)
      for (int64_t i = 0; i < src.valid_rows; i++)
        for (int64_t b = 0; b < V - V % 32; b++)
          l[i * (V - V % 32 + (D - V) / 32 * 32) + b] = u[i * (V - V % 32 + (S - V) / 32 * 32) + b];
    else
      for (int64_t b = 0; b < (B + 31) / 32 * 32; b++) l[b] = u[b];
  }
  char ctx[128];
  snprintf(ctx, sizeof ctx, "a5 tinsert flat %s %dx%d valid %dx%d -> %dx%d at (%d, %d)", pt_dtype_name(src.dtype),
           src.rows, src.cols, src.valid_rows, src.valid_cols, dst.rows, dst.cols, ir, ic);
  run(&x, PTOSIM_OP_tinsert, &p, rule, ctx);
}

static void test_tinsert_flat(void) {
  const ptosim_space U = PTOSIM_UB, L = PTOSIM_L1;
  const ptosim_dtype E = PTOSIM_DT_F8E8M0;
  /* the hardware test case_nd_1 / 2: e8m0 ZZ (32-byte MX boxes) tiles of one shape at (0, 0) */
  flat_case(ZZ(U, E, 64, 32, 32, 0), ZZ(L, E, 64, 32, 32, 0), 0, 0, NULL);
  flat_case(ZZ(U, E, 128, 64, 32, 0x40), ZZ(L, E, 128, 64, 32, 0x1000), 0, 0, NULL);
  flat_case(ZZ(U, PTOSIM_DT_F16, 32, 32, 512, 0), ZZ(L, PTOSIM_DT_F16, 64, 32, 512, 0x200), 16, 0, NULL);
  /* ND: a row of 40 bytes (f16 x 20) moves 32 of them, the source rows 32 bytes apart */
  flat_case(ND(U, PTOSIM_DT_F16, 8, 32, 8, 20, 0x20), ND(L, PTOSIM_DT_F16, 16, 64, 16, 64, 0x100), 3, 16, NULL);
  flat_case(ND(U, PTOSIM_DT_F32, 8, 24, 6, 17, 0), ND(L, PTOSIM_DT_F32, 16, 40, 16, 40, 0x400), 2, 8, NULL);
  /* less than a block per row: one burst of the whole rows (padding included) */
  flat_case(ND(U, PTOSIM_DT_F32, 4, 8, 3, 5, 0), ND(L, PTOSIM_DT_F32, 16, 32, 16, 32, 0), 5, 8, NULL);
  flat_case(ND(U, PTOSIM_DT_I8, 2, 32, 1, 1, 0), ND(L, PTOSIM_DT_I8, 4, 64, 4, 64, 0x40), 1, 32, NULL);
  /* whole rows of equal width */
  flat_case(ND(U, PTOSIM_DT_I32, 8, 16, 5, 16, 0x60), ND(L, PTOSIM_DT_I32, 32, 16, 32, 16, 0x80), 7, 0, NULL);
  /* refused: a start off a 32-byte block, ZZ into another layout, a type outside TINSERT_IMPL's list */
  flat_case(ND(U, PTOSIM_DT_F16, 8, 32, 8, 32, 0), ND(L, PTOSIM_DT_F16, 16, 64, 16, 64, 0), 2, 8, "tinsert.index_align");
  flat_case(ZZ(U, E, 64, 32, 32, 0), ZZ(L, E, 128, 64, 32, 0), 1, 2, "tinsert.index_align");
  flat_case(ZZ(U, E, 64, 32, 32, 0), ND(L, E, 64, 32, 64, 32, 0), 0, 0, "tinsert.layout");
  flat_case(ZZ(U, PTOSIM_DT_U16, 32, 32, 512, 0), ZZ(L, PTOSIM_DT_U16, 32, 32, 512, 0), 0, 0, "tinsert.dtype");
}

/* ---- a5 tinsert NZ vec -> mat with tinsertMode split2 / split4 ------------------------------ */

/* Reference from TInsertSplitImpl's bursts: with C0 = 32 / es, A = align16(vR) and the
 * ceil(vC / C0) column blocks numbered b, block b's A * 32 bytes at source byte b * srcRows * 32
 * land at destination byte (index_col / C0 * dstRows * C0 + index_row * C0 + index_col % C0) * es
 * + b * dstRows * 32; the 2 or 4 copies together are these bursts in order. */
static void split_case(ptosim_target tg, int parts, ptosim_tile src, ptosim_tile dst, int ir, int ic, const char *rule) {
  mach x = fresh(tg);
  ptosim_tmov_params p = {.src = src, .dst = dst, .index_row = ir, .index_col = ic, .insert_split = parts};
  int64_t es = pt_dtype_size(src.dtype), c0 = 32 / es, a = (src.valid_rows + 15) / 16 * 16;
  int64_t o = (ic / c0 * dst.rows * c0 + ir * c0 + ic % c0) * es;
  if (!rule)
    for (int64_t b = 0; b < (src.valid_cols + c0 - 1) / c0; b++)
      memcpy(l1_img + dst.addr + o + b * dst.rows * 32, ub_img + src.addr + b * src.rows * 32, (size_t)(a * 32));
  char ctx[128];
  snprintf(ctx, sizeof ctx, "tinsert split%d %s %dx%d valid %dx%d -> %dx%d at (%d, %d)", parts,
           pt_dtype_name(src.dtype), src.rows, src.cols, src.valid_rows, src.valid_cols, dst.rows, dst.cols, ir, ic);
  run(&x, PTOSIM_OP_tinsert, &p, rule, ctx);
}

static void test_tinsert_split(void) {
  const ptosim_space U = PTOSIM_UB, L = PTOSIM_L1;
  const ptosim_target A5 = PTOSIM_TARGET_A5;
  for (int parts = 2; parts <= 4; parts += 2) {
    /* the lit test's 32 x 32 f16 at (0, 0); 17 valid rows move 32 (two 16-row fractals) */
    split_case(A5, parts, NZ(U, PTOSIM_DT_F16, 32, 32, 32, 32, 0), NZ(L, PTOSIM_DT_F16, 32, 32, 32, 32, 0), 0, 0, NULL);
    split_case(A5, parts, NZ(U, PTOSIM_DT_F16, 32, 64, 17, 40, 0x200), NZ(L, PTOSIM_DT_F16, 64, 96, 64, 96, 0x400), 16,
               32, NULL);
    /* fewer column blocks than copies; f32 (C0 = 8), i8 (C0 = 32) */
    split_case(A5, parts, NZ(U, PTOSIM_DT_F32, 16, 8, 5, 8, 0x40), NZ(L, PTOSIM_DT_F32, 48, 16, 48, 16, 0x80), 8, 8,
               NULL);
    split_case(A5, parts, NZ(U, PTOSIM_DT_I8, 16, 128, 16, 97, 0), NZ(L, PTOSIM_DT_I8, 32, 128, 32, 128, 0), 16, 0,
               NULL);
    /* refused: a2a3 (no vec -> mat path), an ND source, 16-row rounding past the destination */
    split_case(PTOSIM_TARGET_A2A3, parts, NZ(U, PTOSIM_DT_F16, 32, 32, 32, 32, 0),
               NZ(L, PTOSIM_DT_F16, 32, 32, 32, 32, 0), 0, 0, "tinsert.loc");
    split_case(A5, parts, ND(U, PTOSIM_DT_F16, 16, 32, 16, 32, 0), ND(L, PTOSIM_DT_F16, 16, 32, 16, 32, 0), 0, 0,
               "tinsert.split");
    split_case(A5, parts, NZ(U, PTOSIM_DT_F16, 16, 32, 5, 32, 0), NZ(L, PTOSIM_DT_F16, 32, 32, 32, 32, 0), 24, 0,
               "tinsert.bounds"); /* 24 + 5 rows fit, 24 + 16 do not */
  }
  split_case(A5, 3, NZ(U, PTOSIM_DT_F16, 32, 32, 32, 32, 0), NZ(L, PTOSIM_DT_F16, 32, 32, 32, 32, 0), 0, 0,
             "tinsert.split");
}

int main(void) {
  RUN(test_textract_nd_to_nz);
  RUN(test_nz_vec_types);
  RUN(test_tinsert_flat);
  RUN(test_tinsert_split);
  return pt_test_finish();
}
