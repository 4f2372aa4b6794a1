/* The tile level from .pto text: tensor views and their partitions (1- to 5-D, layout
 * inference), tiles (alloc_tile with and without addr, dynamic valid shapes,
 * set_validshape / get_validshape, tassign aliasing, row sub-tiles, bitcast), view
 * queries, the binders of the tile ops, and the diagnostics of each rule. Every result is
 * checked against naive indexing of the inputs written here. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "ptosim/program.h"

#define VEC(dt, r, c, vr, vc, bl)                                                                               \
  "!pto.tile_buf<loc=vec, dtype=" dt ", rows=" #r ", cols=" #c ", v_row=" vr ", v_col=" vc ", blayout=" bl \
  ", slayout=none_box, fractal=512, pad=0>"

enum { MAXBUF = 8 };

/* Run `src` on a fresh machine of target t with the given GM buffers as its pointer
 * parameters (then scalars `ints`); returns the status and, on error, the rule. */
static ptosim_status run(const char *src, ptosim_target t, void **bufs, const size_t *sizes, int nbufs, const int64_t *ints,
                         int nints, char *rule) {
  ptosim_program *p = pt_test_load(src, strlen(src));
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
  ptosim_program *p = ptosim_program_load("t.pto", src, strlen(src), NULL, -1, f, &nerr);
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
    "  %r0 = arith.addi %r#0, %c0 : index\n" /* get_validshape's results are index values */
    "  %a = arith.index_cast %r0 : index to i64\n  %b = arith.index_cast %r#1 : index to i64\n"
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

/* Vector-side tile ops through their binders: X = src[8][16] f32 in UB;
 *   dst0[16][8]  = ttrans(X)
 *   dst1[8][32]  = tconcat(X, X)
 *   dst2[8][16] += X            (tstore {atomicType = atomic_add})
 *   dst3[4][32]  = treshape(X) as 4 x 32 (same bytes)
 *   dst4[8][16]  = mgather(table = src, idx[i][j] = (i * 16 + j) * 7 % 128)  (elem mode) */
#define X_T VEC("f32", 8, 16, "8", "16", "row_major")
static const char *vecops_src =
    "func.func @k(%src: !pto.ptr<f32>, %d0: !pto.ptr<f32>, %d1: !pto.ptr<f32>, %d2: !pto.ptr<f32>, %d3: !pto.ptr<f32>, "
    "%d4: !pto.ptr<f32>, %idx: !pto.ptr<i32>) attributes {pto.kernel} {\n"
    "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  %c4 = arith.constant 4 : index\n"
    "  %c8 = arith.constant 8 : index\n  %c16 = arith.constant 16 : index\n  %c32 = arith.constant 32 : index\n"
    "  %c128 = arith.constant 128 : index\n"
    "  %vs = pto.make_tensor_view %src, shape = [%c8, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>\n"
    "  %vt = pto.make_tensor_view %src, shape = [%c128], strides = [%c1] : !pto.tensor_view<?xf32>\n"
    "  %vi = pto.make_tensor_view %idx, shape = [%c8, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xi32>\n"
    "  %v0 = pto.make_tensor_view %d0, shape = [%c16, %c8], strides = [%c8, %c1] : !pto.tensor_view<?x?xf32>\n"
    "  %v1 = pto.make_tensor_view %d1, shape = [%c8, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xf32>\n"
    "  %v2 = pto.make_tensor_view %d2, shape = [%c8, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>\n"
    "  %v3 = pto.make_tensor_view %d3, shape = [%c4, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xf32>\n"
    "  %v4 = pto.make_tensor_view %d4, shape = [%c8, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>\n"
    "  %x = pto.alloc_tile : " X_T "\n"
    "  %i = pto.alloc_tile : " VEC("i32", 8, 16, "8", "16", "row_major") "\n"
    "  %tmp = pto.alloc_tile : " VEC("f32", 16, 8, "16", "8", "row_major") "\n"
    "  %t0 = pto.alloc_tile : " VEC("f32", 16, 8, "16", "8", "row_major") "\n"
    "  %t1 = pto.alloc_tile : " VEC("f32", 8, 32, "8", "32", "row_major") "\n"
    "  %t4 = pto.alloc_tile : " X_T "\n"
    "  pto.tload ins(%vs : !pto.tensor_view<?x?xf32>) outs(%x : " X_T ")\n"
    "  pto.tload ins(%vi : !pto.tensor_view<?x?xi32>) outs(%i : " VEC("i32", 8, 16, "8", "16", "row_major") ")\n"
    "  pto.ttrans ins(%x, %tmp : " X_T ", " VEC("f32", 16, 8, "16", "8", "row_major") ") outs(%t0 : "
    VEC("f32", 16, 8, "16", "8", "row_major") ")\n"
    "  pto.tstore ins(%t0 : " VEC("f32", 16, 8, "16", "8", "row_major") ") outs(%v0 : !pto.tensor_view<?x?xf32>)\n"
    "  pto.tconcat ins(%x, %x : " X_T ", " X_T ") outs(%t1 : " VEC("f32", 8, 32, "8", "32", "row_major") ")\n"
    "  pto.tstore ins(%t1 : " VEC("f32", 8, 32, "8", "32", "row_major") ") outs(%v1 : !pto.tensor_view<?x?xf32>)\n"
    "  pto.tstore ins(%x : " X_T ") outs(%v2 : !pto.tensor_view<?x?xf32>) {atomicType = #pto<atomic_type atomic_add>}\n"
    "  %r = pto.treshape %x : " X_T " -> " VEC("f32", 4, 32, "4", "32", "row_major") "\n"
    "  pto.tstore ins(%r : " VEC("f32", 4, 32, "4", "32", "row_major") ") outs(%v3 : !pto.tensor_view<?x?xf32>)\n"
    "  pto.mgather ins(%vt, %i : !pto.tensor_view<?xf32>, " VEC("i32", 8, 16, "8", "16", "row_major") ") outs(%t4 : " X_T ")\n"
    "  pto.tstore ins(%t4 : " X_T ") outs(%v4 : !pto.tensor_view<?x?xf32>)\n"
    "  return\n}\n";

static void test_vector_ops(void) {
  static float src[128], d0[128], d1[256], d2[128], d3[128], d4[128];
  static int32_t idx[128];
  for (int i = 0; i < 128; i++) src[i] = (float)(i % 13) - 6.5f, d2[i] = (float)i, idx[i] = i * 7 % 128;
  void *bufs[] = {src, d0, d1, d2, d3, d4, idx};
  size_t sizes[] = {sizeof src, sizeof d0, sizeof d1, sizeof d2, sizeof d3, sizeof d4, sizeof idx};
  char rule[64];
  CHECK_MSG(run(vecops_src, PTOSIM_TARGET_A5, bufs, sizes, 7, NULL, 0, rule) == PTOSIM_OK, "%s", rule);
  int bad = 0;
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 16; j++) {
      float x = src[i * 16 + j];
      bad += d0[j * 8 + i] != x;
      bad += d1[i * 32 + j] != x || d1[i * 32 + 16 + j] != x;
      bad += d2[i * 16 + j] != (float)(i * 16 + j) + x;
      bad += d3[i * 16 + j] != x; /* same bytes, row-major 4 x 32 */
      bad += d4[i * 16 + j] != src[(i * 16 + j) * 7 % 128];
    }
  CHECK(bad == 0);
}

/* Cube side through the binders (A5): rows 16..31 of A[32][32] (f16) taken with
 * textract's index operands, times B[32][16], stored with reluPreMode normal_relu:
 * c[i][j] = max(0, fmaf chain over k of A[16 + i][k] * B[k][j]). */
#define MAT(r, c) "!pto.tile_buf<loc=mat, dtype=f16, rows=" #r ", cols=" #c ", v_row=" #r ", v_col=" #c \
  ", blayout=col_major, slayout=row_major, fractal=512, pad=0>"
#define LEFT "!pto.tile_buf<loc=left, dtype=f16, rows=16, cols=32, v_row=16, v_col=32, blayout=col_major, slayout=row_major, fractal=512, pad=0>"
#define RIGHT "!pto.tile_buf<loc=right, dtype=f16, rows=32, cols=16, v_row=32, v_col=16, blayout=row_major, slayout=col_major, fractal=512, pad=0>"
#define ACC "!pto.tile_buf<loc=acc, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=col_major, slayout=row_major, fractal=1024, pad=0>"
static const char *cube_src =
    "module attributes {pto.target_arch = \"a5\"} {\n"
    "func.func @k(%a: !pto.ptr<f16>, %b: !pto.ptr<f16>, %c: !pto.ptr<f32>) attributes {pto.kernel} {\n"
    "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  %c16 = arith.constant 16 : index\n"
    "  %c32 = arith.constant 32 : index\n"
    "  %va = pto.make_tensor_view %a, shape = [%c32, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xf16>\n"
    "  %vb = pto.make_tensor_view %b, shape = [%c32, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf16>\n"
    "  %vc = pto.make_tensor_view %c, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>\n"
    "  %am = pto.alloc_tile : " MAT(32, 32) "\n  %bm = pto.alloc_tile : " MAT(32, 16) "\n"
    "  %al = pto.alloc_tile : " LEFT "\n  %br = pto.alloc_tile : " RIGHT "\n  %acc = pto.alloc_tile : " ACC "\n"
    "  pto.tload ins(%va : !pto.tensor_view<?x?xf16>) outs(%am : " MAT(32, 32) ")\n"
    "  pto.tload ins(%vb : !pto.tensor_view<?x?xf16>) outs(%bm : " MAT(32, 16) ")\n"
    "  pto.textract ins(%am, %c16, %c0 : " MAT(32, 32) ", index, index) outs(%al : " LEFT ")\n"
    "  pto.tmov ins(%bm : " MAT(32, 16) ") outs(%br : " RIGHT ")\n"
    "  pto.tmatmul ins(%al, %br : " LEFT ", " RIGHT ") outs(%acc : " ACC ")\n"
    "  pto.tstore ins(%acc : " ACC ") outs(%vc : !pto.tensor_view<?x?xf32>) {reluPreMode = #pto<relu_pre_mode normal_relu>}\n"
    "  return\n}\n}\n";

static uint16_t f16_of_small(int v) { /* v / 8 for |v| <= 8, exact in f16 */
  static const uint16_t mag[] = {0x0000, 0x3000, 0x3400, 0x3600, 0x3800, 0x3900, 0x3A00, 0x3B00, 0x3C00};
  return (uint16_t)(mag[v < 0 ? -v : v] | (v < 0 ? 0x8000 : 0));
}

static void test_cube_ops(void) {
  static uint16_t a[32 * 32], b[32 * 16];
  static float c[16 * 16];
  int av[32 * 32], bv[32 * 16];
  for (int i = 0; i < 32 * 32; i++) av[i] = (i * 5 + 3) % 17 - 8, a[i] = f16_of_small(av[i]);
  for (int i = 0; i < 32 * 16; i++) bv[i] = (i * 3 + 1) % 17 - 8, b[i] = f16_of_small(bv[i]);
  void *bufs[] = {a, b, c};
  size_t sizes[] = {sizeof a, sizeof b, sizeof c};
  char rule[64];
  CHECK_MSG(run(cube_src, PTOSIM_TARGET_A5, bufs, sizes, 3, NULL, 0, rule) == PTOSIM_OK, "%s", rule);
  int bad = 0;
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < 16; j++) {
      float acc = 0.0f;
      for (int k = 0; k < 32; k++) acc = fmaf((float)av[(16 + i) * 32 + k] / 8.0f, (float)bv[k * 16 + j] / 8.0f, acc);
      bad += c[i * 16 + j] != (acc > 0.0f ? acc : 0.0f);
    }
  CHECK(bad == 0);
}

/* MX scale tiles placed from text (A5): pto.tget_scale_addr puts each scaling tile at its
 * data tile's address >> 4, where tmatmul.mx reads the scales; without it the planned
 * scaling addresses are not there (tmatmul.scale_addr). A left tile first moves %a off 0. */
#define MXL "!pto.tile_buf<loc=left, dtype=f8E4M3FN, rows=16, cols=64, v_row=16, v_col=64, blayout=col_major, slayout=row_major, fractal=512, pad=0>"
#define MXR "!pto.tile_buf<loc=right, dtype=f8E4M3FN, rows=64, cols=16, v_row=64, v_col=16, blayout=row_major, slayout=col_major, fractal=512, pad=0>"
#define MXSL "!pto.tile_buf<loc=scaling, dtype=f8E8M0FNU, rows=16, cols=2, v_row=16, v_col=2, blayout=row_major, slayout=row_major, fractal=32, pad=0>"
#define MXSR "!pto.tile_buf<loc=scaling, dtype=f8E8M0FNU, rows=2, cols=16, v_row=2, v_col=16, blayout=col_major, slayout=col_major, fractal=32, pad=0>"
#define MXACC "!pto.tile_buf<loc=acc, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=col_major, slayout=row_major, fractal=1024, pad=0>"
static void test_scale_addr(void) {
  static const char *head =
      "module attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {\n"
      "func.func @k() attributes {pto.kernel} {\n"
      "  %pad = pto.alloc_tile : " MXL "\n  %a = pto.alloc_tile : " MXL "\n  %b = pto.alloc_tile : " MXR "\n"
      "  %sa = pto.alloc_tile : " MXSL "\n  %sb = pto.alloc_tile : " MXSR "\n  %c = pto.alloc_tile : " MXACC "\n";
  static const char *place = "  pto.tget_scale_addr ins(%a : " MXL ") outs(%sa : " MXSL ")\n"
                             "  pto.tget_scale_addr ins(%b : " MXR ") outs(%sb : " MXSR ")\n";
  static const char *tail =
      "  pto.tmatmul.mx ins(%a, %sa, %b, %sb : " MXL ", " MXSL ", " MXR ", " MXSR ") outs(%c : " MXACC ")\n"
      "  return\n}\n}\n";
  char src[4096], rule[64];
  snprintf(src, sizeof src, "%s%s%s", head, place, tail);
  CHECK_MSG(run(src, PTOSIM_TARGET_A5, NULL, NULL, 0, NULL, 0, rule) == PTOSIM_OK, "%s", rule);
  snprintf(src, sizeof src, "%s%s", head, tail);
  CHECK(run(src, PTOSIM_TARGET_A5, NULL, NULL, 0, NULL, 0, rule) == PTOSIM_E_VERIFY && !strcmp(rule, "tmatmul.scale_addr"));
}

/* A mixed tile program (no sections, no kernel kind, no sync: PTOAS inserts the sync, so
 * it runs in program order, each op on the core its tiles live in): the cube side above
 * stores its product c, then the vector side loads c and stores d = 2 * c. */
#define VC16 VEC("f32", 16, 16, "16", "16", "row_major")
static const char *mixed_src =
    "module attributes {pto.target_arch = \"a5\"} {\n"
    "func.func @k(%a: !pto.ptr<f16>, %b: !pto.ptr<f16>, %c: !pto.ptr<f32>, %d: !pto.ptr<f32>) {\n"
    "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  %c16 = arith.constant 16 : index\n"
    "  %c32 = arith.constant 32 : index\n  %two = arith.constant 2.0 : f32\n"
    "  %va = pto.make_tensor_view %a, shape = [%c32, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xf16>\n"
    "  %vb = pto.make_tensor_view %b, shape = [%c32, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf16>\n"
    "  %vc = pto.make_tensor_view %c, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>\n"
    "  %vd = pto.make_tensor_view %d, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>\n"
    "  %am = pto.alloc_tile : " MAT(32, 32) "\n  %bm = pto.alloc_tile : " MAT(32, 16) "\n"
    "  %al = pto.alloc_tile : " LEFT "\n  %br = pto.alloc_tile : " RIGHT "\n  %acc = pto.alloc_tile : " ACC "\n"
    "  %t = pto.alloc_tile : " VC16 "\n"
    "  pto.tload ins(%va : !pto.tensor_view<?x?xf16>) outs(%am : " MAT(32, 32) ")\n"
    "  pto.tload ins(%vb : !pto.tensor_view<?x?xf16>) outs(%bm : " MAT(32, 16) ")\n"
    "  pto.textract ins(%am, %c16, %c0 : " MAT(32, 32) ", index, index) outs(%al : " LEFT ")\n"
    "  pto.tmov ins(%bm : " MAT(32, 16) ") outs(%br : " RIGHT ")\n"
    "  pto.tmatmul ins(%al, %br : " LEFT ", " RIGHT ") outs(%acc : " ACC ")\n"
    "  pto.tstore ins(%acc : " ACC ") outs(%vc : !pto.tensor_view<?x?xf32>)\n"
    "  pto.tload ins(%vc : !pto.tensor_view<?x?xf32>) outs(%t : " VC16 ")\n"
    "  pto.tmuls ins(%t, %two : " VC16 ", f32) outs(%t : " VC16 ")\n"
    "  pto.tstore ins(%t : " VC16 ") outs(%vd : !pto.tensor_view<?x?xf32>)\n"
    "  return\n}\n}\n";

static void test_mixed_program(void) {
  static uint16_t a[32 * 32], b[32 * 16];
  static float c[16 * 16], d[16 * 16];
  int av[32 * 32], bv[32 * 16];
  for (int i = 0; i < 32 * 32; i++) av[i] = (i * 7 + 2) % 17 - 8, a[i] = f16_of_small(av[i]);
  for (int i = 0; i < 32 * 16; i++) bv[i] = (i * 5 + 4) % 17 - 8, b[i] = f16_of_small(bv[i]);
  void *bufs[] = {a, b, c, d};
  size_t sizes[] = {sizeof a, sizeof b, sizeof c, sizeof d};
  char rule[64];
  CHECK_MSG(run(mixed_src, PTOSIM_TARGET_A5, bufs, sizes, 4, NULL, 0, rule) == PTOSIM_OK, "%s", rule);
  int bad = 0;
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < 16; j++) {
      float acc = 0.0f;
      for (int k = 0; k < 32; k++) acc = fmaf((float)av[(16 + i) * 32 + k] / 8.0f, (float)bv[k * 16 + j] / 8.0f, acc);
      bad += c[i * 16 + j] != acc || d[i * 16 + j] != 2.0f * acc;
    }
  CHECK(bad == 0);
}

/* pto.subset windows of a 16 x 64 f32 parent P that keep its row stride (PTOAS SubsetOp):
 *   a = P[0, 0] 16x32 and b = P[0, 32] 16x32 loaded from s0 and s1, a += b (tadd), so
 *   dst0 = P: dst0[i][j] = s0[i][j] + s1[i][j] for j < 32, s1[i][j - 32] after;
 *   dst1 = P[%r, %c] 8x16: dst1[i][j] = dst0[%r + i][%c + j];
 *   Q (16x64, v_col = 32): its window at column 32 is valid over 32 columns (the parent's
 *   valid extent is a period), dst2 = s1 through it;
 *   talias: the 16x32 tile z re-pointed at P (ins/outs form) reads P's first 512 elements
 *   (dst3), and the 8x64 alias y = pto.talias P (SSA form) row 7 (dst4). */
#define P_T VEC("f32", 16, 64, "16", "64", "row_major")
#define H_T VEC("f32", 16, 32, "16", "32", "row_major")
#define W_T VEC("f32", 8, 16, "8", "16", "row_major")
#define V2(p, r, c) "  %" p " = pto.make_tensor_view %" p "p, shape = [%c" r ", %c" c "], strides = [%c" c ", %c1] : !pto.tensor_view<?x?xf32>\n"
static const char *subset_src =
    "func.func @k(%s0p: !pto.ptr<f32>, %s1p: !pto.ptr<f32>, %d0p: !pto.ptr<f32>, %d1p: !pto.ptr<f32>, %d2p: !pto.ptr<f32>, "
    "%d3p: !pto.ptr<f32>, %d4p: !pto.ptr<f32>, %r: index, %c: index) attributes {pto.kernel} {\n"
    "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  %c7 = arith.constant 7 : index\n"
    "  %c8 = arith.constant 8 : index\n  %c16 = arith.constant 16 : index\n  %c32 = arith.constant 32 : index\n"
    "  %c64 = arith.constant 64 : index\n"
    V2("s0", "16", "32") V2("s1", "16", "32") V2("d0", "16", "64") V2("d1", "8", "16") V2("d2", "16", "32") V2("d3", "16", "32")
    V2("d4", "1", "64")
    "  %P = pto.alloc_tile : " P_T "\n"
    "  %Q = pto.alloc_tile : " VEC("f32", 16, 64, "16", "32", "row_major") "\n"
    "  %z = pto.alloc_tile : " H_T "\n"
    "  %a = pto.subset %P[%c0, %c0] sizes [16, 32] : " P_T "\n"
    "  %b = pto.subset %P[%c0, %c32] sizes [16, 32] : " P_T "\n"
    "  pto.tload ins(%s0 : !pto.tensor_view<?x?xf32>) outs(%a : " H_T ")\n"
    "  pto.tload ins(%s1 : !pto.tensor_view<?x?xf32>) outs(%b : " H_T ")\n"
    "  pto.tadd ins(%a, %b : " H_T ", " H_T ") outs(%a : " H_T ")\n"
    "  pto.tstore ins(%P : " P_T ") outs(%d0 : !pto.tensor_view<?x?xf32>)\n"
    "  %w = pto.subset %P[%r, %c] sizes [8, 16] : " P_T "\n"
    "  pto.tstore ins(%w : " W_T ") outs(%d1 : !pto.tensor_view<?x?xf32>)\n"
    "  %q = pto.subset %Q[%c0, %c32] sizes [16, 32] : " VEC("f32", 16, 64, "16", "32", "row_major") "\n"
    "  pto.tload ins(%s1 : !pto.tensor_view<?x?xf32>) outs(%q : " H_T ")\n"
    "  pto.tstore ins(%q : " H_T ") outs(%d2 : !pto.tensor_view<?x?xf32>)\n"
    "  pto.talias ins(%P : " P_T ") outs(%z : " H_T ")\n"
    "  pto.tstore ins(%z : " H_T ") outs(%d3 : !pto.tensor_view<?x?xf32>)\n"
    "  %y = pto.talias %P : " P_T " -> " VEC("f32", 8, 64, "8", "64", "row_major") "\n"
    "  %y7 = pto.subset %y[%c7, %c0] sizes [1, 64] : " VEC("f32", 8, 64, "8", "64", "row_major") "\n"
    "  pto.tstore ins(%y7 : " VEC("f32", 1, 64, "1", "64", "row_major") ") outs(%d4 : !pto.tensor_view<?x?xf32>)\n"
    "  return\n}\n";

static void test_subset(void) {
  static float s0[16 * 32], s1[16 * 32], d0[16 * 64], d1[8 * 16], d2[16 * 32], d3[16 * 32], d4[64];
  for (int i = 0; i < 16 * 32; i++) s0[i] = (float)(i % 29) - 14.0f, s1[i] = (float)(i % 11) * 0.5f;
  void *bufs[] = {s0, s1, d0, d1, d2, d3, d4};
  size_t sizes[] = {sizeof s0, sizeof s1, sizeof d0, sizeof d1, sizeof d2, sizeof d3, sizeof d4};
  char rule[64];
  int64_t at[] = {5, 40};
  CHECK_MSG(run(subset_src, PTOSIM_TARGET_A5, bufs, sizes, 7, at, 2, rule) == PTOSIM_OK, "%s", rule);
  int bad = 0;
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < 64; j++) bad += d0[i * 64 + j] != (j < 32 ? s0[i * 32 + j] + s1[i * 32 + j] : s1[i * 32 + j - 32]);
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 16; j++) bad += d1[i * 16 + j] != d0[(5 + i) * 64 + 40 + j];
  for (int i = 0; i < 16 * 32; i++) bad += d2[i] != s1[i] || d3[i] != d0[i];
  for (int j = 0; j < 64; j++) bad += d4[j] != d0[7 * 64 + j];
  CHECK(bad == 0);
  int64_t outside[][2] = {{9, 0}, {0, 49}, {-1, 0}};
  for (int k = 0; k < 3; k++)
    CHECK(run(subset_src, PTOSIM_TARGET_A5, bufs, sizes, 7, outside[k], 2, rule) == PTOSIM_E_VERIFY && !strcmp(rule, "tile.subset_bounds"));
}

/* pto.alloc_multi_tile / pto.multi_tile_get (toni PTO_IR_manual): three 8x16 f32 slots at
 * addr 4096, slot k at 4096 + k * 512 bytes. Slot 1 and slot %k (dynamic) are loaded from
 * s0 and s1; a plain tile placed at 4096 + 2 * 512 reads slot 2, and slot %j is stored:
 *   dst0 = the tile at slot 2's address (s1 when %k = 2), dst1 = slot %j. */
#define S_T VEC("f32", 8, 16, "8", "16", "row_major")
#define M_T "!pto.multi_tile_buf<vec, 8x16xf32, count=3>"
static const char *multi_src =
    "func.func @k(%s0p: !pto.ptr<f32>, %s1p: !pto.ptr<f32>, %d0p: !pto.ptr<f32>, %d1p: !pto.ptr<f32>, %k: index, %j: index) "
    "attributes {pto.kernel} {\n"
    "  %c1 = arith.constant 1 : index\n  %c8 = arith.constant 8 : index\n  %c16 = arith.constant 16 : index\n"
    "  %base = arith.constant 4096 : i64\n  %at2 = arith.constant 5120 : i64\n"
    V2("s0", "8", "16") V2("s1", "8", "16") V2("d0", "8", "16") V2("d1", "8", "16")
    "  %m = pto.alloc_multi_tile addr = %base : " M_T "\n"
    "  %m1 = pto.multi_tile_get %m[%c1] : " M_T " -> !pto.tile_buf<vec, 8x16xf32>\n"
    "  %mk = pto.multi_tile_get %m[%k] : " M_T " -> " S_T "\n"
    "  %mj = pto.multi_tile_get %m[%j] : " M_T " -> " S_T "\n"
    "  %t2 = pto.alloc_tile addr = %at2 : " S_T "\n"
    "  pto.tload ins(%s0 : !pto.tensor_view<?x?xf32>) outs(%m1 : " S_T ")\n"
    "  pto.tload ins(%s1 : !pto.tensor_view<?x?xf32>) outs(%mk : " S_T ")\n"
    "  pto.tstore ins(%t2 : " S_T ") outs(%d0 : !pto.tensor_view<?x?xf32>)\n"
    "  pto.tstore ins(%mj : " S_T ") outs(%d1 : !pto.tensor_view<?x?xf32>)\n"
    "  return\n}\n";

static void test_multi_tile(void) {
  static float s0[128], s1[128], d0[128], d1[128];
  for (int i = 0; i < 128; i++) s0[i] = (float)i, s1[i] = -(float)i - 0.5f;
  void *bufs[] = {s0, s1, d0, d1};
  size_t sizes[] = {sizeof s0, sizeof s1, sizeof d0, sizeof d1};
  char rule[64];
  int64_t kj[] = {2, 1};
  CHECK_MSG(run(multi_src, PTOSIM_TARGET_A5, bufs, sizes, 4, kj, 2, rule) == PTOSIM_OK, "%s", rule);
  int bad = 0;
  for (int i = 0; i < 128; i++) bad += d0[i] != s1[i] || d1[i] != s0[i];
  CHECK(bad == 0);
  int64_t outside[][2] = {{3, 0}, {0, -1}};
  for (int k = 0; k < 2; k++)
    CHECK(run(multi_src, PTOSIM_TARGET_A5, bufs, sizes, 4, outside[k], 2, rule) == PTOSIM_E_VERIFY && !strcmp(rule, "tile.multi_slot"));
  /* the result type must be the slot type */
  CHECK(load_errors("func.func @k() attributes {pto.kernel} {\n  %c0 = arith.constant 0 : index\n"
                    "  %m = pto.alloc_multi_tile : " M_T "\n"
                    "  %s = pto.multi_tile_get %m[%c0] : " M_T " -> !pto.tile_buf<vec, 8x8xf32>\n  return\n}\n",
                    "[ir.type]"));
  /* the slot spelled as a full !pto.tile_buf type; a multi_tile_buf without its count */
  const char *full = "func.func @k() attributes {pto.kernel} {\n  %c1 = arith.constant 1 : index\n"
                     "  %m = pto.alloc_multi_tile : !pto.multi_tile_buf<" S_T ", count=2>\n"
                     "  %s = pto.multi_tile_get %m[%c1] : !pto.multi_tile_buf<" S_T ", count=2> -> " S_T "\n  return\n}\n";
  ptosim_program *p = pt_test_load(full, strlen(full));
  CHECK(p != NULL);
  ptosim_program_free(p);
  CHECK(load_errors("func.func @k() attributes {pto.kernel} {\n  %m = pto.alloc_multi_tile : !pto.multi_tile_buf<vec, 8x16xf32>\n"
                    "  return\n}\n",
                    "multi_tile_buf needs a positive count [parse.bad_type]"));
}

/* Run-time rules of the view and tile ops: one small program per rule, its scalar %a
 * choosing the bad value. */
/* Kernel parameters of view types: a GM memref (older PTOAS samples) with a static row stride
 * of 16 and an offset of 8 elements, a memref whose stride and offset are `?` (row-major, the
 * buffer's start) and a static !pto.tensor_view; each is the host's buffer seen through the
 * type. dst[i][j] = 2 * a[8 + 16 i + j], dst2 = the 4 x 8 view of t. */
#define MR(s, o) "memref<4x8xf32, strided<[" s ", 1], offset: " o ">, #pto.address_space<gm>>"
static const char *view_param_src =
    "func.func @k(%a: " MR("16", "8") ", %d: " MR("?", "?") ", %t: !pto.tensor_view<4x8xf32>, %d2: " MR("8", "0") ") "
    "attributes {pto.kernel} {\n"
    "  %x = pto.alloc_tile : " VEC("f32", 4, 8, "4", "8", "row_major") "\n"
    "  pto.tload ins(%a : " MR("16", "8") ") outs(%x : " VEC("f32", 4, 8, "4", "8", "row_major") ")\n"
    "  pto.tadd ins(%x, %x : " VEC("f32", 4, 8, "4", "8", "row_major") ", " VEC("f32", 4, 8, "4", "8", "row_major") ") outs(%x : "
    VEC("f32", 4, 8, "4", "8", "row_major") ")\n"
    "  pto.tstore ins(%x : " VEC("f32", 4, 8, "4", "8", "row_major") ") outs(%d : " MR("?", "?") ")\n"
    "  pto.tload ins(%t : !pto.tensor_view<4x8xf32>) outs(%x : " VEC("f32", 4, 8, "4", "8", "row_major") ")\n"
    "  pto.tstore ins(%x : " VEC("f32", 4, 8, "4", "8", "row_major") ") outs(%d2 : " MR("8", "0") ")\n"
    "  return\n}\n";

static void test_view_params(void) {
  static float a[64], d[40], t[32], d2[32];
  for (int i = 0; i < 64; i++) a[i] = (float)i * 0.5f;
  for (int i = 0; i < 32; i++) t[i] = (float)(100 + i), d2[i] = -1.0f;
  for (int i = 0; i < 40; i++) d[i] = -1.0f;
  void *bufs[] = {a, d, t, d2};
  size_t sizes[] = {sizeof a, sizeof d, sizeof t, sizeof d2};
  CHECK(run(view_param_src, PTOSIM_TARGET_A5, bufs, sizes, 4, NULL, 0, NULL) == PTOSIM_OK);
  int bad = 0;
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 8; j++) bad += d[8 * i + j] != 2 * a[8 + 16 * i + j] || d2[8 * i + j] != t[8 * i + j];
  for (int i = 32; i < 40; i++) bad += d[i] != -1.0f; /* past the view: untouched */
  CHECK(bad == 0);
  /* the host sees GM pointers */
  ptosim_program *p = pt_test_load(view_param_src, strlen(view_param_src));
  CHECK(p && ptosim_program_param_kind(p, 0) == PTOSIM_PARAM_PTR && ptosim_program_param_dtype(p, 0) == PTOSIM_DT_F32);
  ptosim_program_free(p);
  /* a view parameter needs a static shape; a tile is no kernel parameter */
  CHECK(load_errors("func.func @k(%a: memref<?x8xf32, #pto.address_space<gm>>) attributes {pto.kernel} {\n  return\n}\n",
                    "[run.param_type]"));
  CHECK(load_errors("func.func @k(%a: !pto.tensor_view<?x8xf32>) attributes {pto.kernel} {\n  return\n}\n", "[run.param_type]"));
  CHECK(load_errors("func.func @k(%t: " VEC("f32", 4, 8, "4", "8", "row_major") ") attributes {pto.kernel} {\n  return\n}\n",
                    "[run.param_type]"));
}

static void test_obj_errors(void) {
  static const struct {
    const char *body, *rule;
    int64_t bad;
  } cases[] = {
      {"  %u = pto.castptr %a : i64 -> !pto.ptr<f32, ub>\n"
       "  %v = pto.make_tensor_view %u, shape = [%c8], strides = [%c1] : !pto.tensor_view<?xf32>\n",
       "view.space", 0},
      {"  %v = pto.make_tensor_view %g, shape = [%ai], strides = [%c1] : !pto.tensor_view<?xf32>\n", "view.shape", -1},
      {"  %v = pto.make_tensor_view %g, shape = [%c8], strides = [%c1] : !pto.tensor_view<?xf32>\n"
       "  %p = pto.partition_view %v, offsets = [%ai], sizes = [%c1] : !pto.tensor_view<?xf32> -> !pto.partition_tensor_view<1xf32>\n",
       "view.offset", -2},
      {"  %v = pto.make_tensor_view %g, shape = [%c8], strides = [%c1] : !pto.tensor_view<?xf32>\n"
       "  %d = pto.get_tensor_view_dim %v, %ai : !pto.tensor_view<?xf32> -> index\n",
       "view.dim", 1},
      {"  %t = pto.alloc_tile : " VEC("f32", 8, 16, "8", "16", "row_major") "\n"
       "  %s = pto.subview %t[%ai, %c0] sizes [1, 16] : " VEC("f32", 8, 16, "8", "16", "row_major") " -> "
       VEC("i32", 1, 16, "1", "16", "row_major") "\n",
       "tile.subview_type", 0},
      {"  %t = pto.alloc_tile : " VEC("f32", 8, 16, "8", "16", "row_major") "\n"
       "  %s = pto.subview %t[%ai, %c0] sizes [2, 8] : " VEC("f32", 8, 16, "8", "16", "row_major") " -> "
       VEC("f32", 2, 8, "2", "8", "row_major") "\n",
       "op.unsupported", 0},
      {"  %t = pto.alloc_tile : " VEC("f32", 8, 16, "8", "16", "row_major") "\n"
       "  %b = pto.bitcast %t : " VEC("f32", 8, 16, "8", "16", "row_major") " -> " VEC("f16", 8, 16, "8", "16", "row_major") "\n",
       "tile.bitcast", 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char src[2048], rule[64];
    snprintf(src, sizeof src,
             "func.func @k(%%g: !pto.ptr<f32>, %%a: i64) attributes {pto.kernel} {\n"
             "  %%c0 = arith.constant 0 : index\n  %%c1 = arith.constant 1 : index\n  %%c8 = arith.constant 8 : index\n"
             "  %%ai = arith.index_cast %%a : i64 to index\n%s  return\n}\n",
             cases[i].body);
    static float g[8];
    void *bufs[] = {g};
    size_t sizes[] = {sizeof g};
    ptosim_status st = run(src, PTOSIM_TARGET_A5, bufs, sizes, 1, &cases[i].bad, 1, rule);
    CHECK_MSG(st != PTOSIM_OK && !strcmp(rule, cases[i].rule), "%s: status %d rule %s", cases[i].rule, (int)st, rule);
  }
  /* a tile element type ptosim does not know, found when the program is loaded */
  CHECK(load_errors("func.func @k() attributes {pto.kernel} {\n"
                    "  %t = pto.alloc_tile : !pto.tile_buf<loc=vec, dtype=f6E3M2FN, rows=8, cols=8, v_row=8, v_col=8, "
                    "blayout=row_major, slayout=none_box, fractal=512, pad=0>\n"
                    "  return\n}\n",
                    "[tile.type]"));
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
  /* PTOAS's MX scale layouts are names of the view too (a 32 x 4 e8m0 scale tile of A from
   * MX_A_ZZ, through tload); spelled nz the same view is refused by the load's pair rule. */
  static const char *mx =
      "module attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {\n"
      "func.func @k(%p: !pto.ptr<f8E8M0FNU>) attributes {pto.kernel} {\n"
      "  %c1 = arith.constant 1 : index\n  %c2 = arith.constant 2 : index\n  %c16 = arith.constant 16 : index\n"
      "  %c32 = arith.constant 32 : index\n  %c64 = arith.constant 64 : index\n  %c128 = arith.constant 128 : index\n"
      "  %v = pto.make_tensor_view %p, shape = [%c1, %c2, %c2, %c16, %c2], strides = [%c128, %c64, %c32, %c2, %c1] "
      "{layout = #pto.layout<";
  static const char *mx_tail =
      ">} : !pto.tensor_view<1x2x2x16x2xf8E8M0FNU>\n"
      "  %t = pto.alloc_tile : !pto.tile_buf<loc=mat, dtype=f8E8M0FNU, rows=32, cols=4, v_row=32, v_col=4, "
      "blayout=row_major, slayout=row_major, fractal=32, pad=0>\n"
      "  pto.tload ins(%v : !pto.tensor_view<1x2x2x16x2xf8E8M0FNU>) outs(%t : !pto.tile_buf<loc=mat, dtype=f8E8M0FNU, "
      "rows=32, cols=4, v_row=32, v_col=4, blayout=row_major, slayout=row_major, fractal=32, pad=0>)\n"
      "  return\n}\n}\n";
  char src[2048], rule[64];
  uint8_t scales[128];
  void *bufs[] = {scales};
  size_t sizes[] = {sizeof scales};
  memset(scales, 0x7F, sizeof scales);
  snprintf(src, sizeof src, "%s%s%s", mx, "mx_a_zz", mx_tail);
  CHECK_MSG(run(src, PTOSIM_TARGET_A5, bufs, sizes, 1, NULL, 0, rule) == PTOSIM_OK, "mx_a_zz: %s", rule);
  snprintf(src, sizeof src, "%s%s%s", mx, "nz", mx_tail);
  CHECK(run(src, PTOSIM_TARGET_A5, bufs, sizes, 1, NULL, 0, rule) != PTOSIM_OK && !strcmp(rule, "tload.layout_pair"));
  CHECK(load_errors("func.func @k(%p: !pto.ptr<f32>, %i: index) attributes {pto.kernel} {\n"
                    "  %v = pto.partition_view %p, offsets = [%i], sizes = [%i] : !pto.tensor_view<?xf32> -> !pto.partition_tensor_view<?xf32>\n"
                    "  return\n}\n",
                    "[bind.type]"));
  CHECK(load_errors("func.func @k(%p: !pto.ptr<f32>, %i: index) attributes {pto.kernel} {\n"
                    "  %t = pto.alloc_tile : " VEC("f32", 8, 16, "8", "16", "row_major") "\n"
                    "  pto.tload ins(%t : !pto.partition_tensor_view<8x16xf32>) outs(%t : " VEC("f32", 8, 16, "8", "16", "row_major") ")\n"
                    "  return\n}\n",
                    "[bind.type]"));
  /* the type written beside an operand names another tile shape */
  CHECK(load_errors("func.func @k(%p: !pto.ptr<f32>, %i: index) attributes {pto.kernel} {\n"
                    "  %v = pto.make_tensor_view %p, shape = [%i], strides = [%i] : !pto.tensor_view<?xf32>\n"
                    "  %t = pto.alloc_tile : " VEC("f32", 8, 16, "8", "16", "row_major") "\n"
                    "  pto.tload ins(%v : !pto.tensor_view<?xf32>) outs(%t : " VEC("f32", 16, 16, "16", "16", "row_major") ")\n"
                    "  return\n}\n",
                    "is declared"));
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
  RUN(test_subset);
  RUN(test_multi_tile);
  RUN(test_vector_ops);
  RUN(test_cube_ops);
  RUN(test_scale_addr);
  RUN(test_mixed_program);
  RUN(test_view_params);
  RUN(test_obj_errors);
  RUN(test_placement);
  RUN(test_static_errors);
  return pt_test_finish();
}
