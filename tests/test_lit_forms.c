/* The tile-level forms of tonibohnlein/PTOAS's newest lit tests (session 14), run from .pto
 * text on both targets against loop references written here:
 *   - txor / txors / tprelu / trem / trems without their tmp operand (PTOAS's
 *     PTOMaterializeImplicitTmp adds one; the result does not depend on it);
 *   - pto.tile_buf_addr: a pointer to a tile's data;
 *   - pto.set_ffts: checked, no effect;
 *   - the target of a file of several modules (split-file inputs): the one they all name;
 *   - vector ops in a pto.tileop.helper without pto.vecscope (PTOAS infers the scopes);
 *   - "pto.tmov"(...) in MLIR's generic form, sizes as a property or (older MLIR) an attribute. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "ptosim/ptosim.h"
#include "tile_ub_env.h"

static const char *const k_tn[] = {"a2a3", "a5"};
static const ptosim_target k_tg[] = {PTOSIM_TARGET_A2A3, PTOSIM_TARGET_A5};

/* ---- binary / scalar ops without tmp -------------------------------------------------------- */

#define NR 4
#define NC 16
typedef struct notmp_case {
  const char *op;     /* pto.<op> */
  bool f32;           /* f32 tiles, else i16 */
  const char *scalar; /* the scalar operand's constant (NULL: binary) */
} notmp_case;

/* %a, %b (4 x 16 from GM args 0, 1) -> `pto.<op> ins(%ta, %tb | %s) outs(%td)` -> GM arg 2. */
static void notmp_prog(char *buf, size_t n, const char *target, const notmp_case *k) {
  const char *dt = k->f32 ? "f32" : "i16";
  char tb[256];
  snprintf(tb, sizeof tb,
           "!pto.tile_buf<loc=vec, dtype=%s, rows=4, cols=16, v_row=4, v_col=16, blayout=row_major, "
           "slayout=none_box, fractal=512, pad=0>",
           dt);
  snprintf(buf, n,
           "module attributes {pto.target_arch = \"%s\"} {\n"
           "func.func @k(%%a: !pto.ptr<%s>, %%b: !pto.ptr<%s>, %%o: !pto.ptr<%s>) attributes {pto.kernel_kind = "
           "#pto.kernel_kind<vector>} {\n"
           "  %%c1 = arith.constant 1 : index\n  %%c4 = arith.constant 4 : index\n"
           "  %%c16 = arith.constant 16 : index\n  %%s = arith.constant %s : %s\n"
           "  %%va = pto.make_tensor_view %%a, shape = [%%c4, %%c16], strides = [%%c16, %%c1] : !pto.tensor_view<?x?x%s>\n"
           "  %%vb = pto.make_tensor_view %%b, shape = [%%c4, %%c16], strides = [%%c16, %%c1] : !pto.tensor_view<?x?x%s>\n"
           "  %%vo = pto.make_tensor_view %%o, shape = [%%c4, %%c16], strides = [%%c16, %%c1] : !pto.tensor_view<?x?x%s>\n"
           "  %%ta = pto.alloc_tile : %s\n  %%tb = pto.alloc_tile : %s\n  %%td = pto.alloc_tile : %s\n"
           "  pto.tload ins(%%va : !pto.tensor_view<?x?x%s>) outs(%%ta : %s)\n"
           "  pto.tload ins(%%vb : !pto.tensor_view<?x?x%s>) outs(%%tb : %s)\n"
           "  pto.%s ins(%%ta, %s : %s, %s) outs(%%td : %s)\n"
           "  pto.tstore ins(%%td : %s) outs(%%vo : !pto.tensor_view<?x?x%s>)\n  return\n}\n}\n",
           target, dt, dt, dt, k->scalar ? k->scalar : "0", dt, dt, dt, dt, tb, tb, tb, dt, tb, dt, tb, k->op,
           k->scalar ? "%s" : "%tb", tb, k->scalar ? dt : tb, tb, tb, dt);
}

/* Remainder with the divisor's sign (trem.md: x - floor(x / y) y), from C's truncating fmod. */
static double rem_floor(double x, double y) {
  double r = fmod(x, y);
  return r != 0 && (r < 0) != (y < 0) ? r + y : r;
}

static double notmp_ref(const char *op, double x, double y) {
  if (!strcmp(op, "tprelu")) return x > 0 ? x : x * y;
  if (!strcmp(op, "trem") || !strcmp(op, "trems")) return rem_floor(x, y);
  return (double)(int16_t)((int16_t)x ^ (int16_t)y); /* txor, txors */
}

static void test_no_tmp(void) {
  static const notmp_case cases[] = {
      {"txor", false, NULL}, {"txors", false, "1443"}, {"tprelu", true, NULL},
      {"trem", true, NULL},  {"trems", true, "-3.0"},
  };
  static const float slopes[] = {0.5f, 0.25f, 2.0f, -0.125f};
  static char src[4096];
  unsigned long long seed = 0x6e6f746d70ull;
  for (int t = 0; t < 2; t++)
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
      const notmp_case *k = &cases[c];
      float fa[NR * NC], fb[NR * NC], fo[NR * NC];
      int16_t ia[NR * NC], ib[NR * NC], io[NR * NC];
      for (int i = 0; i < NR * NC; i++) {
        uint64_t r = pt_rand_u64(&seed);
        ia[i] = (int16_t)r, ib[i] = (int16_t)(r >> 16);
        fa[i] = (float)((int)(r % 81) - 40); /* integers: the f32 steps of trem are exact */
        int y = (int)(r >> 8 & 7) + 1;
        fb[i] = !strcmp(k->op, "tprelu") ? slopes[r >> 20 & 3] : (r >> 12 & 1) ? (float)y : (float)-y;
      }
      memset(fo, 0x7f, sizeof fo), memset(io, 0x7f, sizeof io);
      notmp_prog(src, sizeof src, k_tn[t], k);
      void *bufs[] = {k->f32 ? (void *)fa : (void *)ia, k->f32 ? (void *)fb : (void *)ib,
                      k->f32 ? (void *)fo : (void *)io};
      size_t sizes[] = {sizeof fa, sizeof fb, sizeof fo};
      if (!k->f32) sizes[0] = sizes[1] = sizes[2] = sizeof ia;
      run_text(src, k_tg[t], bufs, sizes, 3);
      int bad = 0;
      for (int i = 0; i < NR * NC; i++) {
        double y = k->scalar ? strtod(k->scalar, NULL) : k->f32 ? fb[i] : ib[i];
        double want = notmp_ref(k->op, k->f32 ? fa[i] : ia[i], y), got = k->f32 ? fo[i] : io[i];
        bad += got != want;
      }
      CHECK_MSG(bad == 0, "%s %s without tmp: %d wrong elements", k_tn[t], k->op, bad);
    }
}

/* Through the C API: no_tmp leaves tmp unchecked (here a tile in L0C, trem.space when given). */
static void test_no_tmp_api(void) {
  for (int t = 0; t < 2; t++) {
    unsigned long long seed = 0x61706900ull + (unsigned)t;
    env e = env_new_seeded(k_tg[t], &seed);
    ptosim_telem_params p = {.src0 = ub_tile(PTOSIM_DT_F32, 0, 4, 16, 4, 16, PTOSIM_BL_ROW_MAJOR),
                             .src1 = ub_tile(PTOSIM_DT_F32, 256, 4, 16, 4, 16, PTOSIM_BL_ROW_MAJOR),
                             .dst = ub_tile(PTOSIM_DT_F32, 512, 4, 16, 4, 16, PTOSIM_BL_ROW_MAJOR),
                             .tmp = ub_tile(PTOSIM_DT_F32, 0, 4, 16, 4, 16, PTOSIM_BL_ROW_MAJOR),
                             .no_tmp = true};
    p.tmp.space = PTOSIM_L0C;
    for (int i = 0; i < 64; i++) {
      put(PTOSIM_DT_F32, at(&e, &p.src0, i / 16, i % 16), i - 30);
      put(PTOSIM_DT_F32, at(&e, &p.src1, i / 16, i % 16), i % 2 ? 0.5 : -2.0); /* the slope */
    }
    env_load(&e);
    for (int i = 0; i < 64; i++) { /* x > 0 ? x : x * slope */
      double x = i - 30, y = i % 2 ? 0.5 : -2.0;
      put(PTOSIM_DT_F32, at(&e, &p.dst, i / 16, i % 16), x > 0 ? x : x * y);
    }
    finish(&e, ptosim_exec(e.c, PTOSIM_OP_tprelu, &p, NULL), "tprelu no_tmp");
  }
}

/* ---- pto.tile_buf_addr ------------------------------------------------------------------- */

/* A 4 x 16 f32 tile at UB 4096 loaded from GM %a; through %p = tile_buf_addr: element 5 copied
 * to element 40 with scalar load / store, then the tile stored to %o; the pointer's byte
 * address (ptrtoint) to %q[0]. */
#define T416 "!pto.tile_buf<loc=vec, dtype=f32, rows=4, cols=16, v_row=4, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>"
#define BUF_ADDR(target)                                                                                               \
  "module attributes {pto.target_arch = \"" target "\"} {\n"                                                       \
  "func.func @k(%a: !pto.ptr<f32>, %o: !pto.ptr<f32>, %q: !pto.ptr<i64>) attributes {pto.kernel_kind = "             \
  "#pto.kernel_kind<vector>} {\n"                                                                                     \
  "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  %c4 = arith.constant 4 : index\n"          \
  "  %c5 = arith.constant 5 : index\n  %c16 = arith.constant 16 : index\n  %c40 = arith.constant 40 : index\n"       \
  "  %ad = arith.constant 4096 : i64\n"                                                                               \
  "  %va = pto.make_tensor_view %a, shape = [%c4, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>\n"        \
  "  %vo = pto.make_tensor_view %o, shape = [%c4, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>\n"        \
  "  %t = pto.alloc_tile addr = %ad : " T416 "\n"                                                                    \
  "  pto.tload ins(%va : !pto.tensor_view<?x?xf32>) outs(%t : " T416 ")\n"                                           \
  "  pto.barrier #pto.pipe<PIPE_ALL>\n"                                                                               \
  "  %p = pto.tile_buf_addr %t : " T416 " -> !pto.ptr<f32, ub>\n"                                                    \
  "  %x = pto.load %p[%c5] : !pto.ptr<f32, ub> -> f32\n"                                                              \
  "  pto.store %x, %p[%c40] : !pto.ptr<f32, ub>, f32\n"                                                               \
  "  %i = pto.ptrtoint %p : !pto.ptr<f32, ub> -> i64\n"                                                               \
  "  pto.store %i, %q[%c0] : !pto.ptr<i64>, i64\n"                                                                    \
  "  pto.barrier #pto.pipe<PIPE_ALL>\n"                                                                               \
  "  pto.tstore ins(%t : " T416 ") outs(%vo : !pto.tensor_view<?x?xf32>)\n  return\n}\n}\n"

static void test_tile_buf_addr(void) {
  const char *src[] = {BUF_ADDR("a2a3"), BUF_ADDR("a5")};
  for (int t = 0; t < 2; t++) {
    float a[64], o[64];
    int64_t q = -1;
    for (int i = 0; i < 64; i++) a[i] = (float)i * 1.5f - 7.0f;
    memset(o, 0, sizeof o);
    void *bufs[] = {a, o, &q};
    size_t sizes[] = {sizeof a, sizeof o, sizeof q};
    run_text(src[t], k_tg[t], bufs, sizes, 3);
    int bad = 0;
    for (int i = 0; i < 64; i++) bad += o[i] != (i == 40 ? a[5] : a[i]);
    CHECK_MSG(bad == 0 && q == 4096, "%s: %d wrong elements, address %lld", k_tn[t], bad, (long long)q);
  }
}

/* Row-major 4 x 16 f32 views %va of %a and %vo of %o, in a printf format (%% for %). */
#define VIEWS416                                                                                                     \
  "  %%c1 = arith.constant 1 : index\n  %%c4 = arith.constant 4 : index\n  %%c16 = arith.constant 16 : index\n"          \
  "  %%va = pto.make_tensor_view %%a, shape = [%%c4, %%c16], strides = [%%c16, %%c1] : !pto.tensor_view<?x?xf32>\n"        \
  "  %%vo = pto.make_tensor_view %%o, shape = [%%c4, %%c16], strides = [%%c16, %%c1] : !pto.tensor_view<?x?xf32>\n"

/* ---- pto.set_ffts --------------------------------------------------------------------------- */

/* set_ffts on a GM buffer, then a tile copy GM -> UB -> GM: the copy is exact and the buffer
 * set_ffts names is not touched. */
static void test_set_ffts(void) {
  static const char *const src_fmt =
      "module attributes {pto.target_arch = \"%s\"} {\n"
      "func.func @k(%%f: !pto.ptr<i64>, %%a: !pto.ptr<f32>, %%o: !pto.ptr<f32>) attributes {pto.kernel_kind = "
      "#pto.kernel_kind<vector>} {\n"
      "  pto.set_ffts %%f : !pto.ptr<i64>\n"
      VIEWS416
      "  %%t = pto.alloc_tile : " T416 "\n"
      "  pto.tload ins(%%va : !pto.tensor_view<?x?xf32>) outs(%%t : " T416 ")\n"
      "  pto.tstore ins(%%t : " T416 ") outs(%%vo : !pto.tensor_view<?x?xf32>)\n  return\n}\n}\n";
  char src[4096];
  for (int t = 0; t < 2; t++) {
    int64_t f[8];
    float a[64], o[64];
    for (int i = 0; i < 8; i++) f[i] = 0x0123456789abcdefll + i;
    for (int i = 0; i < 64; i++) a[i] = (float)i - 20.5f;
    memset(o, 0, sizeof o);
    snprintf(src, sizeof src, src_fmt, k_tn[t]);
    void *bufs[] = {f, a, o};
    size_t sizes[] = {sizeof f, sizeof a, sizeof o};
    run_text(src, k_tg[t], bufs, sizes, 3);
    int bad = 0;
    for (int i = 0; i < 8; i++) bad += f[i] != 0x0123456789abcdefll + i;
    for (int i = 0; i < 64; i++) bad += o[i] != a[i];
    CHECK_MSG(bad == 0, "%s: %d wrong words", k_tn[t], bad);
  }
}

/* ---- the target of nested modules --------------------------------------------------------- */

static int target_of(const char *m1, const char *m2) {
  char src[1024];
  snprintf(src, sizeof src,
           "module %s {\n  func.func @k() attributes {pto.kernel} {\n    return\n  }\n}\n"
           "module %s {\n  func.func @j() {\n    return\n  }\n}\n",
           m1, m2);
  ptosim_program *p = ptosim_program_load("t.pto", src, strlen(src), NULL, -1, NULL, NULL);
  int t = p ? (int)ptosim_program_target(p) : -1;
  ptosim_program_free(p);
  return t;
}

static void test_nested_target(void) {
  static const char *const a5s = "attributes {\"pto.device-spec\" = \"Ascend950\"}",
                           *const a5 = "attributes {pto.target_arch = \"a5\"}",
                           *const a3s = "attributes {\"pto.device-spec\" = \"Ascend910B1\"}", *const none = "";
  CHECK(target_of(a5s, a5s) == PTOSIM_TARGET_A5);
  CHECK(target_of(a5, none) == PTOSIM_TARGET_A5);       /* a module naming none does not disagree */
  CHECK(target_of(a5s, a3s) == PTOSIM_TARGET_A2A3);     /* disagreeing modules: the default */
  CHECK(target_of(none, none) == PTOSIM_TARGET_A2A3);
  CHECK(target_of(a3s, a3s) == PTOSIM_TARGET_A2A3);
}

/* ---- a tileop helper's vector ops ----------------------------------------------------------- */

/* A vector section loads a 4 x 16 f32 tile, calls a tileop helper that copies it (one vreg of
 * 64 lanes) into a second tile with vlds / vsts through tile_buf_addr pointers, with no
 * pto.vecscope (ptodsl_tileop_effect_autosync's form), and stores the copy: out == in. */
static void test_tileop_helper(void) {
  static const char *const src_fmt =
      "module attributes {pto.target_arch = \"%s\"} {\n"
      "func.func @k(%%a: !pto.ptr<f32>, %%o: !pto.ptr<f32>) attributes {pto.kernel} {\n"
      "  pto.section.vector {\n"
      VIEWS416
      "    %%t = pto.alloc_tile : " T416 "\n    %%u = pto.alloc_tile : " T416 "\n"
      "    pto.tload ins(%%va : !pto.tensor_view<?x?xf32>) outs(%%t : " T416 ")\n"
      "    pto.barrier #pto.pipe<PIPE_ALL>\n"
      "    func.call @copy(%%t, %%u) : (" T416 ", " T416 ") -> ()\n"
      "    pto.barrier #pto.pipe<PIPE_ALL>\n"
      "    pto.tstore ins(%%u : " T416 ") outs(%%vo : !pto.tensor_view<?x?xf32>)\n  }\n  return\n}\n"
      "func.func private @copy(%%in: " T416 ", %%out: " T416 ") attributes {pto.tileop.helper} {\n"
      "  %%c0 = arith.constant 0 : index\n"
      "  %%pi = pto.tile_buf_addr %%in : " T416 " -> !pto.ptr<f32, ub>\n"
      "  %%po = pto.tile_buf_addr %%out : " T416 " -> !pto.ptr<f32, ub>\n"
      "  %%m = pto.pset_b32 \"PAT_ALL\" : !pto.mask<b32>\n"
      "  %%v = pto.vlds %%pi[%%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n"
      "  pto.vsts %%v, %%po[%%c0], %%m : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>\n"
      "  return\n}\n}\n";
  char src[4096];
  float a[64], o[64];
  for (int i = 0; i < 64; i++) a[i] = (float)(i * i) * 0.25f - 100.0f;
  memset(o, 0, sizeof o);
  snprintf(src, sizeof src, src_fmt, "a5");
  void *bufs[] = {a, o};
  size_t sizes[] = {sizeof a, sizeof o};
  run_text(src, PTOSIM_TARGET_A5, bufs, sizes, 2);
  CHECK(memcmp(a, o, sizeof a) == 0);
  /* Outside a helper the scope stays required. */
  char *attr = strstr(src, " attributes {pto.tileop.helper}");
  memmove(attr, attr + 31, strlen(attr + 31) + 1);
  char *out = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&out, &n);
  ptosim_program *p = ptosim_program_load("t.pto", src, strlen(src), NULL, -1, f, NULL);
  fclose(f);
  CHECK_MSG(p == NULL && out && strstr(out, "[vec.scope]"), "%s", out ? out : "");
  ptosim_program_free(p);
  free(out);
}

/* ---- generic-form tmov (the acc forms: tests/test_mov_forms_text.c) ------------------------- */

/* GM -> %t -> generic tmov -> %u -> GM on vec tiles: out == in. */
static void test_generic_tmov(void) {
  static const char *const src_fmt =
      "module attributes {pto.target_arch = \"%s\"} {\n"
      "func.func @k(%%a: !pto.ptr<f32>, %%o: !pto.ptr<f32>) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {\n"
      VIEWS416
      "  %%t = pto.alloc_tile : " T416 "\n  %%u = pto.alloc_tile : " T416 "\n"
      "  pto.tload ins(%%va : !pto.tensor_view<?x?xf32>) outs(%%t : " T416 ")\n"
      "  pto.barrier #pto.pipe<PIPE_ALL>\n"
      "  \"pto.tmov\"(%%t, %%u) %s : (" T416 ", " T416 ") -> ()\n"
      "  pto.barrier #pto.pipe<PIPE_ALL>\n"
      "  pto.tstore ins(%%u : " T416 ") outs(%%vo : !pto.tensor_view<?x?xf32>)\n  return\n}\n}\n";
  static const char *const sizes[] = {"<{operandSegmentSizes = array<i32: 1, 1, 0, 0>}>",
                                      "{operandSegmentSizes = array<i32: 1, 1, 0, 0>}"};
  char src[4096];
  for (int t = 0; t < 2; t++)
    for (int k = 0; k < 2; k++) {
      float a[64], o[64];
      for (int i = 0; i < 64; i++) a[i] = (float)i * -0.75f + 3.0f;
      memset(o, 0, sizeof o);
      snprintf(src, sizeof src, src_fmt, k_tn[t], sizes[k]);
      void *bufs[] = {a, o};
      size_t sz[] = {sizeof a, sizeof o};
      run_text(src, k_tg[t], bufs, sz, 2);
      CHECK_MSG(memcmp(a, o, sizeof a) == 0, "%s %s", k_tn[t], sizes[k]);
    }
}

int main(void) {
  RUN(test_no_tmp);
  RUN(test_no_tmp_api);
  RUN(test_tile_buf_addr);
  RUN(test_set_ffts);
  RUN(test_nested_target);
  RUN(test_tileop_helper);
  RUN(test_generic_tmov);
  return pt_test_finish();
}
