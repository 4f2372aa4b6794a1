/* PTOAS's newest data-movement spellings, run from .pto text (src/exec/bind_tile.c):
 *   - pto.tstore ins(%acc : A fp %fp : F) outs(%view): the vector-quant store (TSTORE_FP);
 *   - pto.textract ins(%acc, %r, %c [, %preQuantScalar] : A, index, index [, i64] [fp %fp : F]);
 *   - pto.tinsert ins(%acc, %r, %c : A, index, index [fp %fp : F] [pre_quant %q : i64]);
 *   - pto.ttrans ins(%src) outs(%dst) (tmp left to PTOAS);
 *   - "pto.tinsert"(...) / "pto.tmov"(...) <{operandSegmentSizes = ...}> (MLIR's generic form);
 *   - pto.mgather GM -> L1: ins(%table, %idx [, %scratch]) with GM indices into a mat tile.
 * The acc tiles are never written, so they hold 0.0 (a fresh machine's memory is zero) and
 * each converted element is the offset of its quant word: for f32 -> i8 with the signed bit
 * set, the FIXPIPE gives clamp(rint(0 * scale + offset), -128, 127) = offset (pto-isa
 * QF322B8_PRE), so the output shows which word fed which column. References are loops. */
#include <stdint.h>
#include <string.h>

#include "harness.h"
#include "ptosim/ptosim.h"
#include "tile_ub_env.h"

/* Quant word of column j: scale 1.0 (f32 bits [31:0]), offset [45:37], signed [46]. */
static int ofs_of(int j) { return j * 2 - 60; } /* -60 .. 66: inside i8 */
static uint64_t word_of(int ofs) { return 0x3F800000ull | (uint64_t)(ofs & 0x1FF) << 37 | 1ull << 46; }

#define TB(loc, dt, r, c, bl, sl, fr) \
  "!pto.tile_buf<loc=" loc ", dtype=" dt ", rows=" #r ", cols=" #c ", v_row=" #r ", v_col=" #c ", blayout=" bl \
  ", slayout=" sl ", fractal=" #fr ", pad=0>"
#define FPM TB("mat", "ui64", 1, 64, "row_major", "none_box", 512)
#define FPT TB("scaling", "ui64", 1, 64, "row_major", "none_box", 512)
#define ACC TB("acc", "f32", 16, 64, "col_major", "row_major", 1024)
#define MAT TB("mat", "i8", 32, 64, "col_major", "row_major", 512)

/* Prologue of the cube kernels: 64 quant words from GM %w into the scaling tile %f. */
#define HEAD(target, params)                                                                                         \
  "module attributes {pto.target_arch = \"" target "\"} {\n"                                                       \
  "func.func @k(%w: !pto.ptr<ui64>" params ") attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {\n"            \
  "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  %c16 = arith.constant 16 : index\n"      \
  "  %c32 = arith.constant 32 : index\n  %c64 = arith.constant 64 : index\n"                                       \
  "  %vw = pto.make_tensor_view %w, shape = [%c1, %c64], strides = [%c64, %c1] : !pto.tensor_view<?x?xui64>\n"    \
  "  %m = pto.alloc_tile : " FPM "\n  %f = pto.alloc_tile : " FPT "\n  %a = pto.alloc_tile : " ACC "\n"           \
  "  pto.tload ins(%vw : !pto.tensor_view<?x?xui64>) outs(%m : " FPM ")\n"                                        \
  "  pto.tmov ins(%m : " FPM ") outs(%f : " FPT ")\n"

static uint64_t words[64];

static void fill_words(void) {
  for (int j = 0; j < 64; j++) words[j] = word_of(ofs_of(j));
}

/* tstore with `fp %fp`: GM out[r][c] = offset of word c. */
static const char *store_fp_a2a3 = HEAD("a2a3", ", %o: !pto.ptr<i8>")
    "  %vo = pto.make_tensor_view %o, shape = [%c16, %c64], strides = [%c64, %c1] : !pto.tensor_view<?x?xi8>\n"
    "  pto.tstore ins(%a : " ACC " fp %f : " FPT ") outs(%vo : !pto.tensor_view<?x?xi8>)\n  return\n}\n}\n";
static const char *store_fp_a5 = HEAD("a5", ", %o: !pto.ptr<i8>")
    "  %vo = pto.make_tensor_view %o, shape = [%c16, %c64], strides = [%c64, %c1] : !pto.tensor_view<?x?xi8>\n"
    "  pto.tstore ins(%a : " ACC " fp %f : " FPT ") outs(%vo : !pto.tensor_view<?x?xi8>)\n  return\n}\n}\n";

static void test_tstore_fp(void) {
  static int8_t out[16 * 64];
  fill_words();
  const char *src[] = {store_fp_a2a3, store_fp_a5};
  const ptosim_target tg[] = {PTOSIM_TARGET_A2A3, PTOSIM_TARGET_A5};
  for (int t = 0; t < 2; t++) {
    memset(out, 0x55, sizeof out);
    void *bufs[] = {words, out};
    size_t sizes[] = {sizeof words, sizeof out};
    run_text(src[t], tg[t], bufs, sizes, 2);
    int bad = 0;
    for (int r = 0; r < 16; r++)
      for (int c = 0; c < 64; c++) bad += out[r * 64 + c] != ofs_of(c);
    CHECK_MSG(bad == 0, "target %d: %d wrong elements", t, bad);
  }
}

/* textract / tinsert into mat tiles at fixed L1 addresses, read back from L1:
 *   %x: textract (0, 16) with `fp %f`: 16 x 32 window, column j from word 16 + j (SetFPC adds
 *       indexCol to the fp address);
 *   %y: textract (0, 32) with the 4th operand %q (preQuantScalar): every element its offset;
 *   %z: tinsert at (16, 0) of the 16 x 64 acc with `pre_quant %q`;
 *   %u: tinsert at (0, 0) with `fp %f`: column j from word j. */
#define XT TB("mat", "i8", 16, 32, "col_major", "row_major", 512)
#define BODY                                                                                                           \
  "  %q = arith.constant %QW : i64\n"                                                                                 \
  "  %ax = arith.constant 0 : i64\n  %ay = arith.constant 4096 : i64\n  %az = arith.constant 8192 : i64\n"          \
  "  %au = arith.constant 16384 : i64\n"                                                                             \
  "  %x = pto.alloc_tile addr = %ax : " XT "\n  %y = pto.alloc_tile addr = %ay : " XT "\n"                         \
  "  %z = pto.alloc_tile addr = %az : " MAT "\n  %u = pto.alloc_tile addr = %au : " MAT "\n"                       \
  "  pto.textract ins(%a, %c0, %c16 : " ACC ", index, index fp %f : " FPT ") outs(%x : " XT ")\n"                  \
  "  pto.textract ins(%a, %c0, %c32, %q : " ACC ", index, index, i64) outs(%y : " XT ")\n"                         \
  "  pto.tinsert ins(%a, %c16, %c0 : " ACC ", index, index pre_quant %q : i64) outs(%z : " MAT ")\n"               \
  "  pto.tinsert ins(%a, %c0, %c0 : " ACC ", index, index fp %f : " FPT ") outs(%u : " MAT ")\n  return\n}\n}\n"

static const char *indexed_a2a3 = HEAD("a2a3", "") BODY;
static const char *indexed_a5 = HEAD("a5", "") BODY;

/* The same in MLIR's generic form (src/asm/generic.c; tinsert_a5_extended_modes,
 * tmov_forms_emitc), textract kept custom, and %w: a generic tmov of the acc with its
 * preQuantScalar (ODS operands src, dst, fp?, preQuantScalar?): every element the offset. */
#define MAT16 TB("mat", "i8", 16, 64, "col_major", "row_major", 512)
#define GBODY                                                                                                          \
  "  %q = arith.constant %QW : i64\n"                                                                                 \
  "  %ax = arith.constant 0 : i64\n  %ay = arith.constant 4096 : i64\n  %az = arith.constant 8192 : i64\n"          \
  "  %au = arith.constant 16384 : i64\n  %aw = arith.constant 24576 : i64\n"                                        \
  "  %x = pto.alloc_tile addr = %ax : " XT "\n  %y = pto.alloc_tile addr = %ay : " XT "\n"                         \
  "  %z = pto.alloc_tile addr = %az : " MAT "\n  %u = pto.alloc_tile addr = %au : " MAT "\n"                       \
  "  %w = pto.alloc_tile addr = %aw : " MAT16 "\n"                                                                   \
  "  pto.textract ins(%a, %c0, %c16 : " ACC ", index, index fp %f : " FPT ") outs(%x : " XT ")\n"                  \
  "  pto.textract ins(%a, %c0, %c32, %q : " ACC ", index, index, i64) outs(%y : " XT ")\n"                         \
  "  \"pto.tinsert\"(%a, %c16, %c0, %z, %q) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 1>}> :\n"             \
  "      (" ACC ", index, index, " MAT ", i64) -> ()\n"                                                              \
  "  \"pto.tinsert\"(%a, %c0, %c0, %u, %f) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0>}> :\n"              \
  "      (" ACC ", index, index, " MAT ", " FPT ") -> ()\n"                                                          \
  "  \"pto.tmov\"(%a, %w, %q) <{operandSegmentSizes = array<i32: 1, 1, 0, 1>}> : (" ACC ", " MAT16 ", i64) -> ()\n" \
  "  return\n}\n}\n"

static const char *generic_a2a3 = HEAD("a2a3", "") GBODY;
static const char *generic_a5 = HEAD("a5", "") GBODY;

/* Byte of element (i, j) of an i8 NZ tile of `rows` rows: column blocks of 32 bytes, rows apart 32. */
static size_t nz8(int rows, int i, int j) { return (size_t)((j / 32 * rows + i) * 32 + j % 32); }

static void run_indexed(const char *tmpl, ptosim_target tg, bool generic) {
  enum { QOFS = -7 };
  char src[16384], qw[32];
  snprintf(qw, sizeof qw, "%lld", (long long)word_of(QOFS));
  const char *at = strstr(tmpl, "%QW");
  CHECK(at != NULL && strlen(tmpl) + 32 < sizeof src);
  if (!at) return;
  snprintf(src, sizeof src, "%.*s%s%s", (int)(at - tmpl), tmpl, qw, at + 3);
  static int8_t l1[24576 + 1024];
  void *bufs[] = {words};
  size_t sizes[] = {sizeof words};
  run_text_l1(src, tg, bufs, sizes, 1, l1, sizeof l1);
  int bad = 0;
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < 32; j++) {
      bad += l1[nz8(16, i, j)] != ofs_of(16 + j);
      bad += l1[4096 + nz8(16, i, j)] != QOFS;
    }
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < 64; j++) {
      bad += l1[8192 + nz8(32, 16 + i, j)] != QOFS;
      bad += l1[16384 + nz8(32, i, j)] != ofs_of(j);
      bad += generic && l1[24576 + nz8(16, i, j)] != QOFS;
    }
  CHECK_MSG(bad == 0, "%s%s: %d wrong elements", tg == PTOSIM_TARGET_A5 ? "a5" : "a2a3", generic ? " generic" : "", bad);
}

static void test_indexed(void) {
  fill_words();
  run_indexed(indexed_a2a3, PTOSIM_TARGET_A2A3, false);
  run_indexed(indexed_a5, PTOSIM_TARGET_A5, false);
  run_indexed(generic_a2a3, PTOSIM_TARGET_A2A3, true);
  run_indexed(generic_a5, PTOSIM_TARGET_A5, true);
}

/* ttrans without tmp: GM 32 x 16 f16 -> UB -> transposed 16 x 32 -> GM. */
#define TS TB("vec", "f16", 32, 16, "row_major", "none_box", 512)
#define TD TB("vec", "f16", 16, 32, "row_major", "none_box", 512)
#define TRANS(target)                                                                                                  \
  "module attributes {pto.target_arch = \"" target "\"} {\n"                                                         \
  "func.func @k(%a: !pto.ptr<f16>, %b: !pto.ptr<f16>) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {\n" \
  "  %c1 = arith.constant 1 : index\n  %c16 = arith.constant 16 : index\n  %c32 = arith.constant 32 : index\n"   \
  "  %va = pto.make_tensor_view %a, shape = [%c32, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf16>\n"  \
  "  %vb = pto.make_tensor_view %b, shape = [%c16, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xf16>\n"  \
  "  %s = pto.alloc_tile : " TS "\n  %d = pto.alloc_tile : " TD "\n"                                              \
  "  pto.tload ins(%va : !pto.tensor_view<?x?xf16>) outs(%s : " TS ")\n"                                         \
  "  pto.ttrans ins(%s : " TS ") outs(%d : " TD ")\n"                                                            \
  "  pto.tstore ins(%d : " TD ") outs(%vb : !pto.tensor_view<?x?xf16>)\n  return\n}\n}\n"

static void test_ttrans_no_tmp(void) {
  static uint16_t a[32 * 16], b[16 * 32];
  for (int i = 0; i < 32 * 16; i++) a[i] = (uint16_t)(i * 2654435761u >> 16);
  const char *src[] = {TRANS("a2a3"), TRANS("a5")};
  const ptosim_target tg[] = {PTOSIM_TARGET_A2A3, PTOSIM_TARGET_A5};
  for (int t = 0; t < 2; t++) {
    memset(b, 0, sizeof b);
    void *bufs[] = {a, b};
    size_t sizes[] = {sizeof a, sizeof b};
    run_text(src[t], tg[t], bufs, sizes, 2);
    int bad = 0;
    for (int i = 0; i < 32; i++)
      for (int j = 0; j < 16; j++) bad += b[j * 32 + i] != a[i * 16 + j];
    CHECK_MSG(bad == 0, "target %d: %d wrong elements", t, bad);
  }
}

/* pto.mgather GM -> L1 (a2a3 / a5 MGather.hpp MGatherGm2L1RowImpl / ElemImpl): a 64 x 32 f16
 * table, GM i32 indices, a 32 x 32 NZ mat tile at L1 0 (v_row 32 or 20). */
#define GMT(dt) "!pto.tensor_view<?x?x" dt ">"
#define L1T(vr) TB("mat", "f16", 32, 32, "col_major", "row_major", 512)
static const char *const oob_words[] = {"undefined", "clamp", "wrap", "zero"};

static void gather_prog(char *buf, size_t n, const char *target, bool elem, int oob, int vr) {
  snprintf(buf, n,
           "module attributes {pto.target_arch = \"%s\"} {\n"
           "func.func @k(%%t: !pto.ptr<f16>, %%i: !pto.ptr<i32>%s) attributes {pto.kernel_kind = "
           "#pto.kernel_kind<cube>} {\n"
           "  %%c1 = arith.constant 1 : index\n  %%c32 = arith.constant 32 : index\n"
           "  %%c64 = arith.constant 64 : index\n  %%ci = arith.constant %d : index\n"
           "  %%vt = pto.make_tensor_view %%t, shape = [%%c64, %%c32], strides = [%%c32, %%c1] : " GMT("f16") "\n"
           "  %%vi = pto.make_tensor_view %%i, shape = [%%ci, %%c32], strides = [%%c32, %%c1] : " GMT("i32") "\n"
           "%s"
           "  %%d = pto.alloc_tile : !pto.tile_buf<loc=mat, dtype=f16, rows=32, cols=32, v_row=%d, v_col=32, "
           "blayout=col_major, slayout=row_major, fractal=512, pad=0>\n"
           "  pto.mgather ins(%%vt, %%vi%s : " GMT("f16") ", " GMT("i32") "%s) outs(%%d : !pto.tile_buf<loc=mat, "
           "dtype=f16, rows=32, cols=32, v_row=%d, v_col=32, blayout=col_major, slayout=row_major, fractal=512, "
           "pad=0>) {coalesce = #pto<coalesce %s>, gatherOob = #pto<gather_oob %s>}\n  return\n}\n}\n",
           target, elem ? ", %s: !pto.ptr<f16>" : "", elem ? 32 : 1,
           elem ? "  %vs = pto.make_tensor_view %s, shape = [%c32, %c32], strides = [%c32, %c1] : "
                  "!pto.tensor_view<?x?xf16>\n"
                : "",
           vr, elem ? ", %vs" : "", elem ? ", " GMT("f16") : "", vr, elem ? "elem" : "row", oob_words[oob]);
}

/* The remap of mgather_remap / gather_remap_l1: -1 = dropped (ZERO), else the element / row. */
static int64_t remap(uint32_t k, int64_t cap, int oob) {
  if (k < cap) return k;
  return oob == 1 ? cap - 1 : oob == 2 ? (int64_t)(k % (uint32_t)cap) : oob == 3 ? -1 : (int64_t)k;
}

static void test_mgather_l1(void) {
  static uint16_t table[64 * 32], scratch[32 * 32], l1[32 * 32], want[32 * 32], want_s[32 * 32];
  static int32_t idx[32 * 32];
  static unsigned long long seed = 0x6d67746831ull;
  for (int i = 0; i < 64 * 32; i++) table[i] = (uint16_t)(pt_rand_u64(&seed) | 1); /* never 0 */
  const char *tn[] = {"a2a3", "a5"};
  const ptosim_target tg[] = {PTOSIM_TARGET_A2A3, PTOSIM_TARGET_A5};
  char src[4096];
  for (int t = 0; t < 2; t++)
    for (int elem = 0; elem < 2; elem++)
      for (int oob = 1; oob < 4; oob++) {
        int vr = elem ? 32 : 20;
        int64_t cap = elem ? 64 * 32 : 64;
        for (int i = 0; i < 32 * 32; i++) idx[i] = (int32_t)(pt_rand_u64(&seed) % (uint64_t)(cap + cap / 4));
        memset(want, 0, sizeof want), memset(want_s, 0, sizeof want_s), memset(scratch, 0x5A, sizeof scratch);
        for (int r = 0; r < vr; r++)
          for (int c = 0; c < 32; c++) { /* NZ: 16-column blocks of 32 rows, 16 elements a row */
            int64_t k = remap((uint32_t)idx[elem ? r * 32 + c : r], cap, oob);
            uint16_t v = k < 0 ? 0 : elem ? table[k] : table[k * 32 + c];
            want[(c / 16 * 32 + r) * 16 + c % 16] = v;
          }
        if (elem) memcpy(want_s, want, sizeof want);
        gather_prog(src, sizeof src, tn[t], elem, oob, vr);
        void *bufs[] = {table, idx, scratch};
        size_t sizes[] = {sizeof table, elem ? sizeof idx : 32 * 4, sizeof scratch};
        run_text_l1(src, tg[t], bufs, sizes, elem ? 3 : 2, l1, sizeof l1);
        int bad = 0;
        for (int i = 0; i < 32 * 32; i++) bad += l1[i] != want[i] || (elem && scratch[i] != want_s[i]);
        CHECK_MSG(bad == 0, "%s mgather %s oob %s: %d wrong elements", tn[t], elem ? "elem" : "row", oob_words[oob],
                  bad);
      }
}

int main(void) {
  RUN(test_tstore_fp);
  RUN(test_indexed);
  RUN(test_ttrans_no_tmp);
  RUN(test_mgather_l1);
  return pt_test_finish();
}
