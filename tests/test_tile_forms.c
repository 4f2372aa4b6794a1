/* PTOAS's newer text forms of tile ops (tonibohnlein/PTOAS lit tests) run from .pto text:
 * tmrgsort format 2 (2 to 4 lists, a tmp tile or `no_tmp`, the vector<4xi16> executed
 * operand), tci with a tmp tile, tprint with a GM tmp and a print format, tquant outs(%dst, %tmp). Each result is checked against a reference written here
 * from the op's definition, on both targets, with the bytes the op must not touch. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "ptosim/program.h"

static const ptosim_target targets[] = {PTOSIM_TARGET_A2A3, PTOSIM_TARGET_A5};

/* A one-row vec tile type of `cols` elements of dtype dt into buf. */
static const char *row_tile(char *buf, size_t n, const char *dt, int cols) {
  snprintf(buf, n,
           "!pto.tile_buf<loc=vec, dtype=%s, rows=1, cols=%d, v_row=1, v_col=%d, blayout=row_major, "
           "slayout=none_box, fractal=512, pad=0>",
           dt, cols, cols);
  return buf;
}

/* Run `src` on target t with GM buffers bufs[] as its pointer parameters; on error, rule
 * receives the diagnostic's rule. */
static ptosim_status run(const char *src, ptosim_target t, void **bufs, const size_t *sizes, int nbufs, char *rule) {
  ptosim_program *p = pt_test_load(src, strlen(src));
  if (!p) {
    snprintf(rule, 64, "load");
    return PTOSIM_E_VERIFY;
  }
  ptosim_machine *m = ptosim_machine_new(t, 1);
  ptosim_arg args[8];
  memset(args, 0, sizeof args);
  for (int i = 0; i < nbufs; i++) ptosim_gm_map(m, bufs[i], sizes[i], &args[i].gm_addr);
  ptosim_status st = ptosim_program_run(p, m, args);
  snprintf(rule, 64, "%s", st == PTOSIM_OK ? "" : ptosim_last_diag(m)->rule);
  ptosim_machine_free(m);
  ptosim_program_free(p);
  return st;
}

/* ---- tmrgsort format 2 ------------------------------------------------------------------- */

enum { LIST = 16, LCOLS = 2 * LIST, MAXL = 4 }; /* tuples per list; f32 columns per list */

/* The program: k lists of LCOLS f32 columns (GM args 0..k-1) merged into a dst of k * LCOLS
 * columns loaded from and stored to GM arg k; tmp_cols 0 writes no_tmp; ex_type is the type
 * written for the executed operand, a parameter (ex_param: for ptosim_program_check, as kernels
 * take no vectors) or a dense constant (its value is never read: the NPU writes the counts). */
static void mrgsort_src(char *s, size_t n, int k, int tmp_cols, bool exhausted, const char *ex_type, bool ex_param) {
  char lt[256], dt[256], tt[256];
  row_tile(lt, sizeof lt, "f32", LCOLS);
  row_tile(dt, sizeof dt, "f32", k * LCOLS);
  row_tile(tt, sizeof tt, "f32", tmp_cols);
  size_t o = (size_t)snprintf(s, n, "func.func @k(");
  for (int i = 0; i <= k; i++) o += (size_t)snprintf(s + o, n - o, "%s%%g%d: !pto.ptr<f32>", i ? ", " : "", i);
  if (ex_param) o += (size_t)snprintf(s + o, n - o, ", %%ex: %s", ex_type);
  o += (size_t)snprintf(s + o, n - o,
                        ") attributes {pto.kernel} {\n  %%c0 = arith.constant 0 : index\n"
                        "  %%c1 = arith.constant 1 : index\n");
  if (!ex_param) /* tmrgsort_executed_constant_emitc's two spellings: a splat, one literal per list */
    o += (size_t)snprintf(s + o, n - o, "  %%ex = arith.constant dense<%s> : %s\n",
                          exhausted ? "[50000, 40000, 32768, 65535]" : "0", ex_type);
  for (int i = 0; i <= k; i++) {
    int w = i < k ? LCOLS : k * LCOLS;
    const char *t = i < k ? lt : dt;
    o += (size_t)snprintf(s + o, n - o,
                          "  %%w%d = arith.constant %d : index\n"
                          "  %%v%d = pto.make_tensor_view %%g%d, shape = [%%c1, %%w%d], strides = [%%w%d, %%c1] : "
                          "!pto.tensor_view<?x?xf32>\n"
                          "  %%p%d = pto.partition_view %%v%d, offsets = [%%c0, %%c0], sizes = [%%c1, %%w%d] : "
                          "!pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<1x%dxf32>\n"
                          "  %%t%d = pto.alloc_tile : %s\n"
                          "  pto.tload ins(%%p%d : !pto.partition_tensor_view<1x%dxf32>) outs(%%t%d : %s)\n",
                          i, w, i, i, i, i, i, i, i, w, i, t, i, w, i, t);
  }
  if (tmp_cols) o += (size_t)snprintf(s + o, n - o, "  %%tmp = pto.alloc_tile : %s\n", tt);
  o += (size_t)snprintf(s + o, n - o, "  pto.tmrgsort ins(");
  for (int i = 0; i < k; i++) o += (size_t)snprintf(s + o, n - o, "%s%%t%d", i ? ", " : "", i);
  o += (size_t)snprintf(s + o, n - o, "%s {exhausted = %s} : ", tmp_cols ? ", %tmp" : " no_tmp",
                        exhausted ? "true" : "false");
  for (int i = 0; i < k; i++) o += (size_t)snprintf(s + o, n - o, "%s%s", i ? ", " : "", lt);
  if (tmp_cols) o += (size_t)snprintf(s + o, n - o, ", %s", tt);
  o += (size_t)snprintf(s + o, n - o, ") outs(%%t%d, %%ex : %s, %s)\n", k, dt, ex_type);
  snprintf(s + o, n - o,
           "  pto.tstore ins(%%t%d : %s) outs(%%p%d : !pto.partition_tensor_view<1x%dxf32>)\n  return\n}\n", k, dt, k,
           k * LCOLS);
}

/* A tuple: f32 value, u32 index (the index names list and position: 100 * list + pos). */
typedef struct tuple {
  float v;
  uint32_t idx;
} tuple;

/* The expected dst: every tuple of the k lists in one order by value descending, ties by
 * lower list then position (a stable insertion sort of the concatenation); with exhausted,
 * only the prefix that ends at the last tuple of the first list to run out. Returns its length. */
static int mrgsort_ref(tuple l[MAXL][LIST], int k, bool exhausted, tuple *out) {
  int n = 0;
  for (int i = 0; i < k; i++)
    for (int j = 0; j < LIST; j++) {
      int at = n++;
      while (at > 0 && out[at - 1].v < l[i][j].v) {
        out[at] = out[at - 1];
        at--;
      }
      out[at] = l[i][j];
    }
  if (!exhausted) return n;
  int seen[MAXL] = {0};
  for (int i = 0; i < n; i++)
    if (++seen[out[i].idx / 100] == LIST) return i + 1;
  return n;
}

static int check_errors(const char *src, const char *rule) {
  char *out = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&out, &n);
  int nerr = ptosim_program_check("t.pto", src, strlen(src), PTOSIM_TARGET_A2A3, f, NULL);
  fclose(f);
  int found = !rule || (out && strstr(out, rule) != NULL);
  free(out);
  return found ? nerr : -1;
}

static void test_tmrgsort_format2(void) {
  static char src[16384];
  tuple l[MAXL][LIST], want[MAXL * LIST], dst[MAXL * LIST];
  for (int k = 2; k <= MAXL; k++)
    for (int form = 0; form < 4; form++) {
      bool exhausted = form & 1, no_tmp = form & 2;
      int tmp_cols = no_tmp ? 0 : k * LCOLS + 8;
      mrgsort_src(src, sizeof src, k, tmp_cols, exhausted, "vector<4xi16>", true);
      CHECK(check_errors(src, NULL) == 0);
      /* Descending lists with values shared across lists (ties) and one short-valued list
       * that runs out first under exhausted. */
      for (int i = 0; i < k; i++)
        for (int j = 0; j < LIST; j++)
          l[i][j] = (tuple){(float)(i == 1 ? 40 - 3 * j : 64 - 2 * j - (i & 1) * 5), (uint32_t)(100 * i + j)};
      int nw = mrgsort_ref(l, k, exhausted, want);
      mrgsort_src(src, sizeof src, k, tmp_cols, exhausted, "vector<4xi16>", false);
      for (size_t t = 0; t < 2; t++) {
        void *bufs[MAXL + 1];
        size_t sizes[MAXL + 1];
        for (int i = 0; i < k; i++) bufs[i] = l[i], sizes[i] = sizeof l[i];
        memset(dst, 0x5a, sizeof dst); /* untouched past the merged tuples */
        bufs[k] = dst, sizes[k] = (size_t)k * LIST * sizeof(tuple);
        char rule[64];
        CHECK(run(src, targets[t], bufs, sizes, k + 1, rule) == PTOSIM_OK);
        CHECK(memcmp(dst, want, (size_t)nw * sizeof(tuple)) == 0);
        int bad = 0;
        for (size_t b = (size_t)nw * sizeof(tuple); b < (size_t)k * LIST * sizeof(tuple); b++)
          bad += ((const uint8_t *)dst)[b] != 0x5a;
        CHECK(bad == 0);
        CHECK(exhausted == (nw < k * LIST)); /* the data make exhausted stop early */
      }
    }
  /* Bad forms: executed not vector<4xi16> (bind.type) or undefined (ir.undefined_value), one
   * list with a tmp (bind.arity), a tmp narrower than the lists (tmrgsort.tmp, at run time). */
  mrgsort_src(src, sizeof src, 2, 2 * LCOLS, false, "vector<4xi32>", true);
  CHECK(check_errors(src, "bind.type") > 0);
  mrgsort_src(src, sizeof src, 2, 2 * LCOLS, false, "vector<4xi16>", true);
  char *def = strstr(src, ", %ex: vector<4xi16>");
  memmove(def, def + strlen(", %ex: vector<4xi16>"), strlen(def + strlen(", %ex: vector<4xi16>")) + 1);
  CHECK(check_errors(src, "ir.undefined_value") > 0);
  mrgsort_src(src, sizeof src, 1, 2 * LCOLS, false, "vector<4xi16>", true);
  CHECK(check_errors(src, "bind.arity") > 0);
  mrgsort_src(src, sizeof src, 2, 2 * LCOLS - 8, false, "vector<4xi16>", false);
  void *bufs[] = {l[0], l[1], dst};
  size_t sizes[] = {sizeof l[0], sizeof l[1], 2 * LIST * sizeof(tuple)};
  char rule[64];
  CHECK(run(src, PTOSIM_TARGET_A2A3, bufs, sizes, 3, rule) != PTOSIM_OK && strcmp(rule, "tmrgsort.tmp") == 0);
}

/* ---- tci with a tmp tile ---------------------------------------------------------------- */

/* tci ins(%start, %tmp) outs(%dst) on a 1 x 160 dst of dt with v_col 150 (a tail), tmp of
 * tmp_dt x tmp_cols, descending as given; dst's valid part loaded from and stored to the
 * first 150 elements of GM arg 0 (160 elements, the last 10 untouched). */
static void tci_src(char *s, size_t n, const char *dt, const char *tmp_dt, int tmp_cols, bool descending) {
  char tt[256];
  row_tile(tt, sizeof tt, tmp_dt, tmp_cols);
  char d[256];
  snprintf(d, sizeof d,
           "!pto.tile_buf<loc=vec, dtype=%s, rows=1, cols=160, v_row=1, v_col=150, blayout=row_major, "
           "slayout=none_box, fractal=512, pad=0>",
           dt);
  snprintf(s, n,
           "func.func @k(%%g: !pto.ptr<%s>) attributes {pto.kernel} {\n"
           "  %%c0 = arith.constant 0 : index\n  %%c1 = arith.constant 1 : index\n  %%c160 = arith.constant 160 : index\n"
           "  %%v = pto.make_tensor_view %%g, shape = [%%c1, %%c160], strides = [%%c160, %%c1] : !pto.tensor_view<?x?x%s>\n"
           "  %%c150 = arith.constant 150 : index\n"
           "  %%p = pto.partition_view %%v, offsets = [%%c0, %%c0], sizes = [%%c1, %%c150] : !pto.tensor_view<?x?x%s> -> "
           "!pto.partition_tensor_view<1x150x%s>\n"
           "  %%d = pto.alloc_tile : %s\n  %%t = pto.alloc_tile : %s\n"
           "  %%s = arith.constant -7 : %s\n"
           "  pto.tload ins(%%p : !pto.partition_tensor_view<1x150x%s>) outs(%%d : %s)\n"
           "  pto.tci ins(%%s, %%t {descending = %s} : %s, %s) outs(%%d : %s)\n"
           "  pto.tstore ins(%%d : %s) outs(%%p : !pto.partition_tensor_view<1x150x%s>)\n  return\n}\n",
           dt, dt, dt, dt, d, tt, dt, dt, d, descending ? "true" : "false", dt, tt, d, d, dt);
}

static void test_tci_tmp(void) {
  static char src[8192];
  static const char *const dts[] = {"i16", "i32"};
  for (int k = 0; k < 2; k++) {
    unsigned es = k ? 4 : 2;
    tci_src(src, sizeof src, dts[k], "f32", 448, false); /* 1792 bytes */
    for (size_t t = 0; t < 2; t++) {
      uint8_t g[160 * 4];
      memset(g, 0xa5, sizeof g);
      void *bufs[] = {g};
      size_t sizes[] = {160 * es};
      char rule[64];
      CHECK(run(src, targets[t], bufs, sizes, 1, rule) == PTOSIM_OK);
      int bad = 0;
      for (int c = 0; c < 160; c++) {
        int64_t v = 0;
        memcpy(&v, g + c * es, es);
        if (es == 2) v = (int16_t)v;
        else v = (int32_t)v;
        bad += c < 150 ? v != -7 + c : memcmp(g + c * es, "\xa5\xa5\xa5\xa5", es) != 0;
      }
      CHECK(bad == 0);
    }
  }
  /* A2/A3 tmp constraints (tci.tmp, tci.dtype); A5 takes any vec tmp. Descending with a tmp is
   * refused on both (op.unsupported). */
  struct {
    const char *dt, *tmp_dt;
    int cols;
    bool desc;
    const char *a2a3, *a5;
  } bad[] = {{"i16", "f32", 440, false, "tci.tmp", ""},
             {"i32", "f32", 192, false, "", ""},
             {"i32", "f32", 184, false, "tci.tmp", ""},
             {"i32", "f16", 512, false, "tci.dtype", ""},
             {"i32", "f32", 512, true, "op.unsupported", "op.unsupported"}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    tci_src(src, sizeof src, bad[i].dt, bad[i].tmp_dt, bad[i].cols, bad[i].desc);
    for (size_t t = 0; t < 2; t++) {
      uint8_t g[160 * 4] = {0};
      void *bufs[] = {g};
      size_t sizes[] = {sizeof g};
      char rule[64];
      const char *want = t ? bad[i].a5 : bad[i].a2a3;
      ptosim_status st = run(src, targets[t], bufs, sizes, 1, rule);
      CHECK_MSG((st == PTOSIM_OK) == !*want && strcmp(rule, want) == 0, "case %zu target %zu: %s", i, t, rule);
    }
  }
}

/* ---- tprint with a GM tmp and a print format ------------------------------------------- */

/* tprint ins(%t, %tmp) of a 2 x 8 f32 tile of space loc (loaded from GM arg 0 when vec),
 * with the attribute dictionary `fmt`. */
static void tprint_src(char *s, size_t n, const char *loc, const char *fmt) {
  char t[256];
  snprintf(t, sizeof t,
           "!pto.tile_buf<loc=%s, dtype=f32, rows=2, cols=8, v_row=2, v_col=8, blayout=row_major, slayout=none_box, "
           "fractal=512, pad=0>",
           loc);
  bool vec = !strcmp(loc, "vec");
  snprintf(s, n,
           "func.func @k(%%g: !pto.ptr<f32>, %%h: !pto.ptr<f32>) attributes {pto.kernel} {\n"
           "  %%c0 = arith.constant 0 : index\n  %%c1 = arith.constant 1 : index\n"
           "  %%c2 = arith.constant 2 : index\n  %%c8 = arith.constant 8 : index\n"
           "  %%v = pto.make_tensor_view %%g, shape = [%%c2, %%c8], strides = [%%c8, %%c1] : !pto.tensor_view<?x?xf32>\n"
           "  %%p = pto.partition_view %%v, offsets = [%%c0, %%c0], sizes = [%%c2, %%c8] : !pto.tensor_view<?x?xf32> -> "
           "!pto.partition_tensor_view<2x8xf32>\n"
           "  %%w = pto.make_tensor_view %%h, shape = [%%c2, %%c8], strides = [%%c8, %%c1] : !pto.tensor_view<?x?xf32>\n"
           "  %%q = pto.partition_view %%w, offsets = [%%c0, %%c0], sizes = [%%c2, %%c8] : !pto.tensor_view<?x?xf32> -> "
           "!pto.partition_tensor_view<2x8xf32>\n"
           "  %%t = pto.alloc_tile : %s\n"
           "%s%s%s"
           "  pto.tprint ins(%%t, %%q : %s, !pto.partition_tensor_view<2x8xf32>) %s\n  return\n}\n",
           t, vec ? "  pto.tload ins(%p : !pto.partition_tensor_view<2x8xf32>) outs(%t : " : "", vec ? t : "",
           vec ? ")\n" : "", t, fmt);
}

static void test_tprint_tmp(void) {
  static char src[8192];
  static const char *const fmts[] = {"", "{printFormat = 1 : i32}", "{printFormat = #pto<print_format width10_precision6>}"};
  float g[16], h[16];
  for (int i = 0; i < 16; i++) g[i] = (float)i / 4, h[i] = -1.0f;
  void *bufs[] = {g, h};
  size_t sizes[] = {sizeof g, sizeof h};
  char rule[64];
  for (size_t f = 0; f < 3; f++)
    for (size_t t = 0; t < 2; t++) {
      tprint_src(src, sizeof src, "vec", fmts[f]);
      CHECK(run(src, targets[t], bufs, sizes, 2, rule) == PTOSIM_OK);
      int bad = 0;
      for (int i = 0; i < 16; i++) bad += g[i] != (float)i / 4 || h[i] != -1.0f; /* tmp untouched */
      CHECK(bad == 0);
    }
  tprint_src(src, sizeof src, "vec", "{printFormat = 3 : i32}");
  CHECK(check_errors(src, "bind.keyword") > 0);
  tprint_src(src, sizeof src, "vec", "{printFormat = #pto<print_format width9>}");
  CHECK(check_errors(src, "bind.keyword") > 0);
  tprint_src(src, sizeof src, "mat", "");
  CHECK(run(src, PTOSIM_TARGET_A2A3, bufs, sizes, 2, rule) != PTOSIM_OK && strcmp(rule, "op.unsupported") == 0);
}

/* ---- tquant with a tmp tile ------------------------------------------------------------- */

/* f16 bits of an integer |v| <= 2048 (exact). */
static uint16_t f16_of_int(int32_t v) {
  uint32_t a = (uint32_t)(v < 0 ? -v : v), e = 0;
  if (!a) return v < 0 ? 0x8000 : 0;
  while (a >> (e + 1)) e++;
  return (uint16_t)((v < 0 ? 0x8000u : 0) | (e + 15) << 10 | ((a << (10 - e)) & 0x3ff));
}

/* tquant INT8_SYM of a 4 x 32 f32 src with one scale per row, outs(%dst, %tmp); src, dst
 * (and with store_tmp the tmp) stored back to GM args 0, 2 (3); scale is GM arg 1. */
static void tquant_src(char *s, size_t n, bool store_tmp, int tmp_rows) {
  char f32[256], i8[256], tt[256];
  snprintf(tt, sizeof tt, "!pto.tile_buf<loc=vec, dtype=f32, rows=%d, cols=32, v_row=%d, v_col=32, blayout=row_major, "
                          "slayout=none_box, fractal=512, pad=0>", tmp_rows, tmp_rows);
  snprintf(f32, sizeof f32, "!pto.tile_buf<loc=vec, dtype=f32, rows=4, cols=32, v_row=4, v_col=32, blayout=row_major, "
                            "slayout=none_box, fractal=512, pad=0>");
  snprintf(i8, sizeof i8, "!pto.tile_buf<loc=vec, dtype=i8, rows=4, cols=32, v_row=4, v_col=32, blayout=row_major, "
                          "slayout=none_box, fractal=512, pad=0>");
  const char *fp = "!pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=1, v_row=4, v_col=1, blayout=col_major, "
                   "slayout=none_box, fractal=512, pad=0>";
  size_t o = (size_t)snprintf(
      s, n,
      "func.func @k(%%gs: !pto.ptr<f32>, %%gf: !pto.ptr<f32>, %%gd: !pto.ptr<i8>, %%gt: !pto.ptr<f32>) attributes "
      "{pto.kernel} {\n"
      "  %%c0 = arith.constant 0 : index\n  %%c1 = arith.constant 1 : index\n"
      "  %%c4 = arith.constant 4 : index\n  %%c32 = arith.constant 32 : index\n"
      "  %%vs = pto.make_tensor_view %%gs, shape = [%%c4, %%c32], strides = [%%c32, %%c1] : !pto.tensor_view<?x?xf32>\n"
      "  %%vt = pto.make_tensor_view %%gt, shape = [%%c4, %%c32], strides = [%%c32, %%c1] : !pto.tensor_view<?x?xf32>\n"
      "  %%vd = pto.make_tensor_view %%gd, shape = [%%c4, %%c32], strides = [%%c32, %%c1] : !pto.tensor_view<?x?xi8>\n"
      "  %%vf = pto.make_tensor_view %%gf, shape = [%%c4, %%c1], strides = [%%c1, %%c1] {layout = #pto.layout<dn>} : "
      "!pto.tensor_view<?x?xf32>\n"
      "  %%ps = pto.partition_view %%vs, offsets = [%%c0, %%c0], sizes = [%%c4, %%c32] : !pto.tensor_view<?x?xf32> -> "
      "!pto.partition_tensor_view<4x32xf32>\n"
      "  %%pt = pto.partition_view %%vt, offsets = [%%c0, %%c0], sizes = [%%c4, %%c32] : !pto.tensor_view<?x?xf32> -> "
      "!pto.partition_tensor_view<4x32xf32>\n"
      "  %%pd = pto.partition_view %%vd, offsets = [%%c0, %%c0], sizes = [%%c4, %%c32] : !pto.tensor_view<?x?xi8> -> "
      "!pto.partition_tensor_view<4x32xi8>\n"
      "  %%pf = pto.partition_view %%vf, offsets = [%%c0, %%c0], sizes = [%%c4, %%c1] : !pto.tensor_view<?x?xf32> -> "
      "!pto.partition_tensor_view<4x1xf32>\n"
      "  %%s = pto.alloc_tile : %s\n  %%t = pto.alloc_tile : %s\n  %%d = pto.alloc_tile : %s\n  %%f = pto.alloc_tile : %s\n"
      "  pto.tload ins(%%ps : !pto.partition_tensor_view<4x32xf32>) outs(%%s : %s)\n"
      "  pto.tload ins(%%pf : !pto.partition_tensor_view<4x1xf32>) outs(%%f : %s)\n"
      "  pto.tquant ins(%%s, %%f : %s, %s) outs(%%d, %%t : %s, %s) {quant_type = #pto<quant_type INT8_SYM>}\n"
      "  pto.tstore ins(%%s : %s) outs(%%ps : !pto.partition_tensor_view<4x32xf32>)\n"
      "  pto.tstore ins(%%d : %s) outs(%%pd : !pto.partition_tensor_view<4x32xi8>)\n",
      f32, tt, i8, fp, f32, fp, f32, fp, i8, tt, f32, i8);
  if (store_tmp)
    o += (size_t)snprintf(s + o, n - o, "  pto.tstore ins(%%t : %s) outs(%%pt : !pto.partition_tensor_view<4x32xf32>)\n",
                          f32);
  snprintf(s + o, n - o, "  return\n}\n");
}

static void test_tquant_tmp(void) {
  static char src[16384];
  for (size_t t = 0; t < 2; t++) {
    bool a2a3 = targets[t] == PTOSIM_TARGET_A2A3;
    float in[128], sc[4] = {0.5f, 3.0f, -1.25f, 100.0f}, out_s[128];
    int8_t d[128];
    int32_t tmp[128];
    for (int i = 0; i < 128; i++) in[i] = (float)(i % 32 - 16) * 0.75f + (i % 3 == 0 ? 0.5f : 0.0f);
    memcpy(out_s, in, sizeof in);
    memset(d, 0x11, sizeof d);
    memset(tmp, 0x22, sizeof tmp);
    tquant_src(src, sizeof src, a2a3, 4);
    void *bufs[] = {out_s, sc, d, tmp};
    size_t sizes[] = {sizeof out_s, sizeof sc, sizeof d, sizeof tmp};
    char rule[64];
    CHECK_MSG(run(src, targets[t], bufs, sizes, 4, rule) == PTOSIM_OK, "%s", rule);
    /* Reference: y = x * scale(r) in f32, v = y to nearest even (within int32 here),
     * dst = v clamped to int8; A2/A3 src bytes = y, then f16(v) at (r * 32 + c) * 2. */
    uint8_t want_s[sizeof in];
    int bad = 0;
    for (int r = 0; r < 4; r++)
      for (int c = 0; c < 32; c++) {
        float y = in[r * 32 + c] * sc[r];
        int32_t v = (int32_t)nearbyintf(y);
        bad += d[r * 32 + c] != (v < -128 ? -128 : v > 127 ? 127 : v);
        if (a2a3) bad += tmp[r * 32 + c] != v;
        memcpy(want_s + 4 * (r * 32 + c), a2a3 ? &y : &in[r * 32 + c], 4);
      }
    for (int r = 0; a2a3 && r < 4; r++)
      for (int c = 0; c < 32; c++) {
        uint16_t h = f16_of_int((int32_t)nearbyintf(in[r * 32 + c] * sc[r]));
        memcpy(want_s + 2 * (r * 32 + c), &h, 2);
      }
    CHECK(bad == 0);
    CHECK(memcmp(out_s, want_s, sizeof want_s) == 0);
    tquant_src(src, sizeof src, false, 2); /* tmp of 64 elements for src's 128 */
    CHECK(run(src, targets[t], bufs, sizes, 4, rule) != PTOSIM_OK && strcmp(rule, "tquant.tmp") == 0);
  }
}

int main(void) {
  RUN(test_tmrgsort_format2);
  RUN(test_tci_tmp);
  RUN(test_tprint_tmp);
  RUN(test_tquant_tmp);
  return pt_test_finish();
}
