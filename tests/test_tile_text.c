/* The tile level from .pto text: tensor views and their partitions (1- to 5-D, layout
 * inference), tiles (alloc_tile with and without addr, dynamic valid shapes,
 * set_validshape / get_validshape, tassign aliasing, row sub-tiles, bitcast), view
 * queries, the binders of the tile ops, and the diagnostics of each rule. Every result is
 * checked against naive indexing of the inputs written here. */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "ptosim/program.h"

#define VEC(dt, r, c, vr, vc, bl)                                                                               \
  "!pto.tile_buf<loc=vec, dtype=" dt ", rows=" #r ", cols=" #c ", v_row=" vr ", v_col=" vc ", blayout=" bl \
  ", slayout=none_box, fractal=512, pad=0>"

enum { MAXBUF = 4 };

/* Run `src` on a fresh machine of target t with the given GM buffers as its pointer
 * parameters (then scalars `ints`); returns the status and, on error, the rule. */
static ptosim_status run(const char *src, ptosim_target t, void **bufs, const size_t *sizes, int nbufs, const int64_t *ints,
                         int nints, char *rule) {
  FILE *devnull = fopen("/dev/null", "w");
  int nerr = -1;
  ptosim_program *p = ptosim_program_load("t.pto", src, strlen(src), NULL, devnull, &nerr);
  fclose(devnull);
  if (!p) return PTOSIM_E_VERIFY;
  ptosim_machine *m = ptosim_machine_new(t, 1);
  ptosim_arg args[MAXBUF + 4];
  memset(args, 0, sizeof args);
  for (int i = 0; i < nbufs; i++) ptosim_gm_map(m, bufs[i], sizes[i], &args[i].gm_addr);
  for (int i = 0; i < nints; i++) args[nbufs + i].i = ints[i];
  ptosim_status st = ptosim_program_run(p, m, args);
  if (rule) snprintf(rule, 64, "%s", st == PTOSIM_OK ? "" : ptosim_last_diag(m)->rule);
  ptosim_machine_free(m);
  ptosim_program_free(p);
  return st;
}

static int load_errors(const char *src, const char *rule) {
  char *out = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&out, &n);
  int nerr = 0;
  ptosim_program *p = ptosim_program_load("t.pto", src, strlen(src), NULL, f, &nerr);
  fclose(f);
  int found = out && strstr(out, rule) != NULL;
  free(out);
  ptosim_program_free(p);
  return nerr > 0 && found;
}

/* A 3-D view [2][20][24] of f32, its partition at [1][3][5] of [1][8][16], through a vec
 * tile, into an 8 x 16 view: dst[i][j] = src[1][3 + i][5 + j]. */
static const char *partition_src =
    "func.func @k(%src: !pto.ptr<f32>, %dst: !pto.ptr<f32>) attributes {pto.kernel} {\n"
    "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  %c2 = arith.constant 2 : index\n"
    "  %c3 = arith.constant 3 : index\n  %c5 = arith.constant 5 : index\n  %c8 = arith.constant 8 : index\n"
    "  %c16 = arith.constant 16 : index\n  %c20 = arith.constant 20 : index\n  %c24 = arith.constant 24 : index\n"
    "  %c480 = arith.constant 480 : index\n"
    "  %v = pto.make_tensor_view %src, shape = [%c2, %c20, %c24], strides = [%c480, %c24, %c1] : !pto.tensor_view<?x?x?xf32>\n"
    "  %p = pto.partition_view %v, offsets = [%c1, %c3, %c5], sizes = [%c1, %c8, %c16] : !pto.tensor_view<?x?x?xf32> -> "
    "!pto.partition_tensor_view<1x8x16xf32>\n"
    "  %w = pto.make_tensor_view %dst, shape = [%c8, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>\n"
    "  %q = pto.partition_view %w, offsets = [%c0, %c0], sizes = [%c8, %c16] : !pto.tensor_view<?x?xf32> -> "
    "!pto.partition_tensor_view<8x16xf32>\n"
    "  %t = pto.alloc_tile : " VEC("f32", 8, 16, "8", "16", "row_major") "\n"
    "  pto.tload ins(%p : !pto.partition_tensor_view<1x8x16xf32>) outs(%t : " VEC("f32", 8, 16, "8", "16", "row_major") ")\n"
    "  pto.tstore ins(%t : " VEC("f32", 8, 16, "8", "16", "row_major") ") outs(%q : !pto.partition_tensor_view<8x16xf32>)\n"
    "  return\n}\n";

static void test_partition(void) {
  static float src[2 * 20 * 24], dst[8 * 16];
  for (int i = 0; i < 2 * 20 * 24; i++) src[i] = (float)i;
  void *bufs[] = {src, dst};
  size_t sizes[] = {sizeof src, sizeof dst};
  CHECK(run(partition_src, PTOSIM_TARGET_A5, bufs, sizes, 2, NULL, 0, NULL) == PTOSIM_OK);
  int bad = 0;
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 16; j++) bad += dst[i * 16 + j] != src[1 * 480 + (3 + i) * 24 + 5 + j];
  CHECK(bad == 0);
}

/* A column-major GM matrix (strides [1, 16]) is a DN view: the layout is inferred and a
 * col-major vec tile loads it as DN -> DN. Stored back through a DN view of dst. */
static const char *dn_src =
    "func.func @k(%src: !pto.ptr<f32>, %dst: !pto.ptr<f32>) attributes {pto.kernel} {\n"
    "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  %c8 = arith.constant 8 : index\n"
    "  %c16 = arith.constant 16 : index\n"
    "  %v = pto.make_tensor_view %src, shape = [%c16, %c8], strides = [%c1, %c16] : !pto.tensor_view<?x?xf32>\n"
    "  %p = pto.partition_view %v, offsets = [%c0, %c0], sizes = [%c16, %c8] : !pto.tensor_view<?x?xf32> -> "
    "!pto.partition_tensor_view<16x8xf32>\n"
    "  %w = pto.make_tensor_view %dst, shape = [%c16, %c8], strides = [%c1, %c16] {layout = #pto.layout<dn>} : "
    "!pto.tensor_view<?x?xf32>\n"
    "  %t = pto.alloc_tile : " VEC("f32", 16, 8, "16", "8", "col_major") "\n"
    "  pto.tload ins(%p : !pto.partition_tensor_view<16x8xf32>) outs(%t : " VEC("f32", 16, 8, "16", "8", "col_major") ")\n"
    "  %q = pto.partition_view %w, offsets = [%c0, %c0], sizes = [%c16, %c8] : !pto.tensor_view<?x?xf32> -> "
    "!pto.partition_tensor_view<16x8xf32>\n"
    "  pto.tstore ins(%t : " VEC("f32", 16, 8, "16", "8", "col_major") ") outs(%q : !pto.partition_tensor_view<16x8xf32>)\n"
    "  return\n}\n";

static void test_dn_view(void) {
  static float src[16 * 16], dst[16 * 16];
  for (int i = 0; i < 256; i++) src[i] = (float)(i * 3 + 1);
  void *bufs[] = {src, dst};
  size_t sizes[] = {sizeof src, sizeof dst};
  CHECK(run(dn_src, PTOSIM_TARGET_A5, bufs, sizes, 2, NULL, 0, NULL) == PTOSIM_OK);
  int bad = 0;
  for (int c = 0; c < 8; c++)
    for (int r = 0; r < 16; r++) bad += dst[c * 16 + r] != src[c * 16 + r];
  CHECK(bad == 0);
}

/* Dynamic valid shapes: alloc_tile valid_row / valid_col, then set_validshape to
 * (%vr, %vc); only that region is stored; get_validshape and the view queries report into
 * %info: [valid rows, valid cols, dim 1 of the view, stride 0 of the view]. */
static const char *valid_src =
    "func.func @k(%src: !pto.ptr<f32>, %dst: !pto.ptr<f32>, %info: !pto.ptr<i64>, %vr: index, %vc: index) attributes {pto.kernel} {\n"
    "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  %c2 = arith.constant 2 : index\n"
    "  %c3 = arith.constant 3 : index\n  %c16 = arith.constant 16 : index\n  %c4096 = arith.constant 4096 : i64\n"
    "  %v = pto.make_tensor_view %src, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>\n"
    "  %w = pto.make_tensor_view %dst, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>\n"
    "  %t = pto.alloc_tile addr = %c4096 valid_row = %c16 valid_col = %c16 : " VEC("f32", 16, 16, "?", "?", "row_major") "\n"
    "  %p = pto.partition_view %v, offsets = [%c0, %c0], sizes = [%c16, %c16] : !pto.tensor_view<?x?xf32> -> "
    "!pto.partition_tensor_view<16x16xf32>\n"
    "  pto.tload ins(%p : !pto.partition_tensor_view<16x16xf32>) outs(%t : " VEC("f32", 16, 16, "?", "?", "row_major") ")\n"
    "  pto.set_validshape %t, %vr, %vc : " VEC("f32", 16, 16, "?", "?", "row_major") "\n"
    "  %q = pto.partition_view %w, offsets = [%c0, %c0], sizes = [%vr, %vc] : !pto.tensor_view<?x?xf32> -> "
    "!pto.partition_tensor_view<?x?xf32>\n"
    "  pto.tstore ins(%t : " VEC("f32", 16, 16, "?", "?", "row_major") ") outs(%q : !pto.partition_tensor_view<?x?xf32>)\n"
    "  %r:2 = pto.get_validshape %t : " VEC("f32", 16, 16, "?", "?", "row_major") "\n"
    "  %d1 = pto.get_tensor_view_dim %v, %c1 : !pto.tensor_view<?x?xf32> -> index\n"
    "  %s0 = pto.get_tensor_view_stride %v, %c0 : !pto.tensor_view<?x?xf32> -> index\n"
    "  %a = arith.index_cast %r#0 : index to i64\n  %b = arith.index_cast %r#1 : index to i64\n"
    "  %d = arith.index_cast %d1 : index to i64\n  %s = arith.index_cast %s0 : index to i64\n"
    "  pto.store %a, %info[%c0] : !pto.ptr<i64>, i64\n  pto.store %b, %info[%c1] : !pto.ptr<i64>, i64\n"
    "  pto.store %d, %info[%c2] : !pto.ptr<i64>, i64\n  pto.store %s, %info[%c3] : !pto.ptr<i64>, i64\n"
    "  return\n}\n";

static void test_valid_shape(void) {
  static float src[256], dst[256];
  int64_t info[4] = {0};
  for (int i = 0; i < 256; i++) src[i] = (float)i + 0.5f, dst[i] = -1.0f;
  void *bufs[] = {src, dst, info};
  size_t sizes[] = {sizeof src, sizeof dst, sizeof info};
  int64_t ints[] = {5, 7};
  CHECK(run(valid_src, PTOSIM_TARGET_A5, bufs, sizes, 3, ints, 2, NULL) == PTOSIM_OK);
  int bad = 0;
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < 16; j++) bad += dst[i * 16 + j] != (i < 5 && j < 7 ? src[i * 16 + j] : -1.0f);
  CHECK(bad == 0);
  CHECK(info[0] == 5 && info[1] == 7 && info[2] == 16 && info[3] == 16);
  /* a valid shape beyond the tile is rejected when it is set */
  int64_t big[] = {17, 7};
  char rule[64];
  CHECK(run(valid_src, PTOSIM_TARGET_A5, bufs, sizes, 3, big, 2, rule) == PTOSIM_E_VERIFY && !strcmp(rule, "tile.valid"));
}

/* Aliasing and re-typing: %u = tassign of a second handle to %t's address sees %t's data;
 * a row sub-tile of %t; a bitcast of %t to i32 keeps the bits. dst = [row %r of t | all of t
 * through %u | t as i32]. */
static const char *alias_src =
    "func.func @k(%src: !pto.ptr<f32>, %dst: !pto.ptr<f32>, %dsti: !pto.ptr<i32>, %row: index) attributes {pto.kernel} {\n"
    "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  %c8 = arith.constant 8 : index\n"
    "  %c16 = arith.constant 16 : index\n  %c0_i64 = arith.constant 0 : i64\n"
    "  %v = pto.make_tensor_view %src, shape = [%c8, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>\n"
    "  %w = pto.make_tensor_view %dst, shape = [%c8, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>\n"
    "  %wi = pto.make_tensor_view %dsti, shape = [%c8, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xi32>\n"
    "  %t = pto.alloc_tile addr = %c0_i64 : " VEC("f32", 8, 16, "8", "16", "row_major") "\n"
    "  %other = pto.alloc_tile : " VEC("f32", 8, 16, "8", "16", "row_major") "\n"
    "  %p = pto.partition_view %v, offsets = [%c0, %c0], sizes = [%c8, %c16] : !pto.tensor_view<?x?xf32> -> "
    "!pto.partition_tensor_view<8x16xf32>\n"
    "  pto.tload ins(%p : !pto.partition_tensor_view<8x16xf32>) outs(%t : " VEC("f32", 8, 16, "8", "16", "row_major") ")\n"
    "  %u = pto.tassign %other, %c0_i64 : " VEC("f32", 8, 16, "8", "16", "row_major") " -> " VEC("f32", 8, 16, "8", "16", "row_major") "\n"
    "  %s = pto.subview %t[%row, %c0] sizes [1, 16] : " VEC("f32", 8, 16, "8", "16", "row_major") " -> "
    VEC("f32", 1, 16, "1", "16", "row_major") "\n"
    "  %ti = pto.bitcast %t : " VEC("f32", 8, 16, "8", "16", "row_major") " -> " VEC("i32", 8, 16, "8", "16", "row_major") "\n"
    "  %q0 = pto.partition_view %w, offsets = [%c0, %c0], sizes = [%c1, %c16] : !pto.tensor_view<?x?xf32> -> "
    "!pto.partition_tensor_view<1x16xf32>\n"
    "  pto.tstore ins(%s : " VEC("f32", 1, 16, "1", "16", "row_major") ") outs(%q0 : !pto.partition_tensor_view<1x16xf32>)\n"
    "  %q1 = pto.partition_view %w, offsets = [%c1, %c0], sizes = [%c8, %c16] : !pto.tensor_view<?x?xf32> -> "
    "!pto.partition_tensor_view<8x16xf32>\n"
    "  pto.tstore ins(%u : " VEC("f32", 8, 16, "8", "16", "row_major") ") outs(%q1 : !pto.partition_tensor_view<8x16xf32>)\n"
    "  %qi = pto.partition_view %wi, offsets = [%c0, %c0], sizes = [%c8, %c16] : !pto.tensor_view<?x?xi32> -> "
    "!pto.partition_tensor_view<8x16xi32>\n"
    "  pto.tstore ins(%ti : " VEC("i32", 8, 16, "8", "16", "row_major") ") outs(%qi : !pto.partition_tensor_view<8x16xi32>)\n"
    "  return\n}\n";

static void test_alias(void) {
  static float src[128], dst[9 * 16];
  static int32_t dsti[128];
  for (int i = 0; i < 128; i++) src[i] = (float)i * 0.25f - 3.0f;
  void *bufs[] = {src, dst, dsti};
  size_t sizes[] = {sizeof src, sizeof dst, sizeof dsti};
  int64_t row[] = {5};
  CHECK(run(alias_src, PTOSIM_TARGET_A5, bufs, sizes, 3, row, 1, NULL) == PTOSIM_OK);
  int bad = 0;
  for (int j = 0; j < 16; j++) bad += dst[j] != src[5 * 16 + j];
  for (int i = 0; i < 128; i++) {
    int32_t bits;
    memcpy(&bits, &src[i], 4);
    bad += dst[16 + i] != src[i];
    bad += dsti[i] != bits;
  }
  CHECK(bad == 0);
  int64_t out_of_tile[] = {8};
  char rule[64];
  CHECK(run(alias_src, PTOSIM_TARGET_A5, bufs, sizes, 3, out_of_tile, 1, rule) == PTOSIM_E_VERIFY &&
        !strcmp(rule, "tile.subview_bounds"));
}

/* Placement rules of alloc_tile: an unaligned address, a tile past the end of UB. */
static void test_placement(void) {
  static const char *fmt =
      "func.func @k(%a: i64) attributes {pto.kernel} {\n"
      "  %t = pto.alloc_tile addr = %a : " VEC("f32", 16, 16, "16", "16", "row_major") "\n"
      "  return\n}\n";
  int64_t unaligned[] = {4}, past_end[] = {256 * 1024 - 512}, ok[] = {1024};
  char rule[64];
  CHECK(run(fmt, PTOSIM_TARGET_A5, NULL, NULL, 0, ok, 1, rule) == PTOSIM_OK);
  CHECK(run(fmt, PTOSIM_TARGET_A5, NULL, NULL, 0, unaligned, 1, rule) == PTOSIM_E_VERIFY && !strcmp(rule, "tile.addr_align"));
  CHECK(run(fmt, PTOSIM_TARGET_A5, NULL, NULL, 0, past_end, 1, rule) == PTOSIM_E_VERIFY && !strcmp(rule, "tile.capacity"));
  /* tiles without addr that do not fit: reported when the program is loaded */
  char src[4096];
  int n = snprintf(src, sizeof src, "func.func @k() attributes {pto.kernel} {\n");
  for (int i = 0; i < 5; i++)
    n += snprintf(src + n, sizeof src - (size_t)n, "  %%t%d = pto.alloc_tile : " VEC("f32", 128, 128, "128", "128", "row_major") "\n", i);
  snprintf(src + n, sizeof src - (size_t)n, "  return\n}\n");
  CHECK(load_errors(src, "[tile.capacity]"));
}

/* Static diagnostics of the view and tile ops. */
static void test_static_errors(void) {
  CHECK(load_errors("func.func @k(%p: !pto.ptr<f32>, %i: index) attributes {pto.kernel} {\n"
                    "  %v = pto.make_tensor_view %p, shape = [%i, %i], strides = [%i] : !pto.tensor_view<?x?xf32>\n"
                    "  return\n}\n",
                    "[view.rank]"));
  CHECK(load_errors("func.func @k(%p: !pto.ptr<f32>, %i: index) attributes {pto.kernel} {\n"
                    "  %v = pto.make_tensor_view %p, shape = [%i], strides = [%i] {layout = #pto.layout<zz>} : !pto.tensor_view<?xf32>\n"
                    "  return\n}\n",
                    "[view.layout]"));
  CHECK(load_errors("func.func @k(%p: !pto.ptr<f32>, %i: index) attributes {pto.kernel} {\n"
                    "  %v = pto.partition_view %p, offsets = [%i], sizes = [%i] : !pto.tensor_view<?xf32> -> !pto.partition_tensor_view<?xf32>\n"
                    "  return\n}\n",
                    "[bind.type]"));
  CHECK(load_errors("func.func @k(%p: !pto.ptr<f32>, %i: index) attributes {pto.kernel} {\n"
                    "  %t = pto.alloc_tile : " VEC("f32", 8, 16, "8", "16", "row_major") "\n"
                    "  pto.tload ins(%t : !pto.partition_tensor_view<8x16xf32>) outs(%t : " VEC("f32", 8, 16, "8", "16", "row_major") ")\n"
                    "  return\n}\n",
                    "[bind.type]"));
  CHECK(load_errors("func.func @k() attributes {pto.kernel} {\n"
                    "  %t = pto.alloc_tile : " VEC("f32", 8, 16, "8", "16", "row_major") "\n"
                    "  pto.tmov ins(%t, %t, %t, %t : " VEC("f32", 8, 16, "8", "16", "row_major") ") outs(%t : "
                    VEC("f32", 8, 16, "8", "16", "row_major") ")\n"
                    "  return\n}\n",
                    "[bind.arity]"));
  CHECK(load_errors("func.func @k() attributes {pto.kernel} {\n"
                    "  %t = pto.alloc_tile : " VEC("f32", 8, 16, "8", "16", "row_major") "\n"
                    "  pto.tmatmul ins(%t, %t : " VEC("f32", 8, 16, "8", "16", "row_major") ") outs(%t : "
                    VEC("f32", 8, 16, "8", "16", "row_major") ") {accPhase = #pto<acc_phase sometimes>}\n"
                    "  return\n}\n",
                    "[bind.keyword]"));
}

int main(void) {
  RUN(test_partition);
  RUN(test_dn_view);
  RUN(test_valid_shape);
  RUN(test_alias);
  RUN(test_placement);
  RUN(test_static_errors);
  return pt_test_finish();
}
