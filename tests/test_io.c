/* .npy / .bin files: round trips, hand-built v1/v2 files, and every malformed-file error. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "ptosim/io.h"

static const char *tmp_path(const char *name) {
  static char buf[256];
  snprintf(buf, sizeof buf, "/tmp/ptosim_test_io_%s", name);
  return buf;
}

static void write_bytes(const char *path, const void *p, size_t n) {
  FILE *f = fopen(path, "wb");
  fwrite(p, 1, n, f);
  fclose(f);
}

/* Builds a .npy file by hand: version major, header text, payload. */
static size_t build_npy(unsigned char *out, int major, const char *dict, const void *data, size_t nbytes) {
  size_t pre = major == 1 ? 10 : 12, dl = strlen(dict), total = (pre + dl + 1 + 63) / 64 * 64, hl = total - pre;
  memcpy(out, "\x93NUMPY", 6);
  out[6] = (unsigned char)major;
  out[7] = 0;
  for (size_t i = 0; i < pre - 8; i++) out[8 + i] = (unsigned char)(hl >> (8 * i));
  memset(out + pre, ' ', hl);
  memcpy(out + pre, dict, dl);
  out[total - 1] = '\n';
  memcpy(out + total, data, nbytes);
  return total + nbytes;
}

static void test_roundtrip(void) {
  float v[6] = {1, 2, 3, 4, 5, -6.5f};
  ptosim_array a = {.descr = "<f4", .elem_size = 4, .ndim = 2, .shape = {2, 3}, .nbytes = sizeof v, .data = v};
  char err[256] = "";
  CHECK(ptosim_npy_save(tmp_path("rt.npy"), &a, err, sizeof err) == PTOSIM_OK);
  ptosim_array b;
  CHECK(ptosim_npy_load(tmp_path("rt.npy"), &b, err, sizeof err) == PTOSIM_OK);
  CHECK(b.dtype == PTOSIM_DT_F32 && b.ndim == 2 && b.shape[0] == 2 && b.shape[1] == 3 && !b.fortran_order);
  CHECK(b.nbytes == sizeof v && !memcmp(b.data, v, sizeof v));
  ptosim_array_free(&b);
  /* The data starts on a 64-byte boundary. */
  FILE *f = fopen(tmp_path("rt.npy"), "rb");
  fseek(f, 0, SEEK_END);
  CHECK((ftell(f) - (long)sizeof v) % 64 == 0);
  fclose(f);
  /* Raw files. */
  CHECK(ptosim_bin_save(tmp_path("rt.bin"), &a, err, sizeof err) == PTOSIM_OK);
  CHECK(ptosim_bin_load(tmp_path("rt.bin"), &b, err, sizeof err) == PTOSIM_OK);
  CHECK(b.nbytes == sizeof v && !memcmp(b.data, v, sizeof v));
  ptosim_array_free(&b);
}

static void test_hand_built(void) {
  unsigned char buf[512];
  unsigned short h[4] = {0x3c00, 0x4000, 0xc000, 0x7c00};
  char err[256];
  ptosim_array b;
  /* v2 header, scalar-free 1-D f16, trailing comma forms, double-quoted keys. */
  size_t n = build_npy(buf, 2, "{\"descr\": \"<f2\", \"fortran_order\": False, \"shape\": (4,)}", h, sizeof h);
  write_bytes(tmp_path("v2.npy"), buf, n);
  CHECK(ptosim_npy_load(tmp_path("v2.npy"), &b, err, sizeof err) == PTOSIM_OK);
  CHECK(b.dtype == PTOSIM_DT_F16 && b.ndim == 1 && b.shape[0] == 4 && !memcmp(b.data, h, 8));
  ptosim_array_free(&b);
  /* bf16 travels as <u2; void types keep their size without a dtype. */
  n = build_npy(buf, 1, "{'descr': '<V2', 'fortran_order': False, 'shape': (2, 2), }", h, sizeof h);
  write_bytes(tmp_path("v.npy"), buf, n);
  CHECK(ptosim_npy_load(tmp_path("v.npy"), &b, err, sizeof err) == PTOSIM_OK);
  CHECK(b.dtype == PTOSIM_DT_NONE && b.elem_size == 2 && b.nbytes == 8);
  ptosim_array_free(&b);
  /* 0-d array: shape () holds one element. */
  n = build_npy(buf, 1, "{'descr': '<i4', 'fortran_order': False, 'shape': (), }", h, 4);
  write_bytes(tmp_path("s.npy"), buf, n);
  CHECK(ptosim_npy_load(tmp_path("s.npy"), &b, err, sizeof err) == PTOSIM_OK && b.ndim == 0 && b.nbytes == 4);
  ptosim_array_free(&b);
  CHECK(!strcmp(ptosim_npy_descr(PTOSIM_DT_BF16), "<u2") && !strcmp(ptosim_npy_descr(PTOSIM_DT_F16), "<f2"));
}

static void expect_error(const char *name, const unsigned char *p, size_t n, const char *needle) {
  char err[256] = "";
  ptosim_array b;
  write_bytes(tmp_path(name), p, n);
  CHECK_MSG(ptosim_npy_load(tmp_path(name), &b, err, sizeof err) == PTOSIM_E_USAGE, "%s", name);
  CHECK_MSG(strstr(err, needle) != NULL, "%s: '%s' lacks '%s'", name, err, needle);
}

static void test_errors(void) {
  unsigned char buf[512], d[16] = {0};
  size_t n = build_npy(buf, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", d, 16);
  expect_error("trunc_data", buf, n - 1, "truncated or malformed");
  expect_error("trunc_head", buf, 30, "truncated .npy header");
  expect_error("magic", (const unsigned char *)"NUMPY!!!!!!!", 12, "bad magic");
  buf[6] = 9;
  expect_error("version", buf, n, "unsupported .npy format version");
  n = build_npy(buf, 1, "{'descr': '>f4', 'fortran_order': False, 'shape': (4,), }", d, 16);
  expect_error("bigendian", buf, n, "big-endian");
  n = build_npy(buf, 1, "{'descr': '<f4', 'shape': (4,), }", d, 16);
  expect_error("nokey", buf, n, "lacks");
  n = build_npy(buf, 1, "{'descr': '<f4', 'fortran_order': Maybe, 'shape': (4,), }", d, 16);
  expect_error("badbool", buf, n, "fortran_order");
  n = build_npy(buf, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4, x), }", d, 16);
  expect_error("badshape", buf, n, "shape");
  n = build_npy(buf, 1, "{'descr': '<zz', 'fortran_order': False, 'shape': (4,), }", d, 16);
  expect_error("baddescr", buf, n, "unsupported element type");
  n = build_npy(buf, 1, "['descr']", d, 16);
  expect_error("notdict", buf, n, "expected '{'");
  char err[256];
  ptosim_array b;
  CHECK(ptosim_npy_load("/nonexistent/x.npy", &b, err, sizeof err) == PTOSIM_E_USAGE && strstr(err, "cannot open"));
}

static void test_compare(void) {
  float g[5] = {1.0f, -2.0f, 0.0f, NAN, 1e-3f}, y[5];
  memcpy(y, g, sizeof g);
  ptosim_cmp_opts o = {.dtype = PTOSIM_DT_F32, .mode = PTOSIM_CMP_EXACT};
  CHECK(ptosim_compare(g, y, 5, &o, NULL) == 0); /* NaN bits equal */
  y[0] = nextafterf(1.0f, 2.0f);
  y[1] = nextafterf(nextafterf(-2.0f, -3.0f), -3.0f);
  CHECK(ptosim_compare(g, y, 5, &o, NULL) == 2);
  o.mode = PTOSIM_CMP_ULP;
  o.ulp = 1;
  CHECK(ptosim_compare(g, y, 5, &o, NULL) == 1); /* 1 ulp ok, 2 ulp not */
  o.ulp = 2;
  CHECK(ptosim_compare(g, y, 5, &o, NULL) == 0);
  y[2] = -0.0f; /* +0 and -0 are 0 ulp apart */
  CHECK(ptosim_compare(g, y, 5, &o, NULL) == 0);
  o.mode = PTOSIM_CMP_TOL;
  o.atol = 0;
  o.rtol = 1e-7; /* 1 ulp of 1.0 is 1.19e-7 relative: both perturbed values fail */
  CHECK(ptosim_compare(g, y, 5, &o, NULL) == 2);
  y[3] = 1.0f; /* NaN vs number never matches */
  o.rtol = 1;
  CHECK(ptosim_compare(g, y, 5, &o, NULL) == 1);
  int32_t gi[3] = {5, -7, 100}, yi[3] = {5, -6, 100};
  ptosim_cmp_opts oi = {.dtype = PTOSIM_DT_I32, .mode = PTOSIM_CMP_ULP, .ulp = 1};
  CHECK(ptosim_compare(gi, yi, 3, &oi, NULL) == 0);
  oi.mode = PTOSIM_CMP_EXACT;
  char buf[512] = "";
  FILE *f = fmemopen(buf, sizeof buf - 1, "w");
  oi.cols = 2;
  oi.max_report = 5;
  CHECK(ptosim_compare(gi, yi, 3, &oi, f) == 1);
  fclose(f);
  CHECK_MSG(strstr(buf, "mismatch at [0, 1]: golden -7 out -6") && strstr(buf, "1 of 3 elements mismatch"), "%s", buf);
}

/* Infinities match only themselves in every mode. */
static void test_compare_inf(void) {
  float g[3] = {INFINITY, -INFINITY, INFINITY}, y[3] = {INFINITY, -INFINITY, -INFINITY};
  for (int mode = PTOSIM_CMP_TOL; mode <= PTOSIM_CMP_EXACT; mode++) {
    ptosim_cmp_opts o = {.dtype = PTOSIM_DT_F32, .mode = (ptosim_cmp_mode)mode, .atol = 1e-5, .rtol = 1e-5, .ulp = 4};
    CHECK_MSG(ptosim_compare(g, y, 3, &o, NULL) == 1, "mode %d", mode);
    CHECK_MSG(ptosim_compare(g, g, 3, &o, NULL) == 0, "mode %d", mode);
  }
  /* A finite value never matches an infinity, however large the tolerance. */
  float f[1] = {3e38f}, inf[1] = {INFINITY};
  ptosim_cmp_opts o = {.dtype = PTOSIM_DT_F32, .atol = 1e300, .rtol = 1e300};
  CHECK(ptosim_compare(f, inf, 1, &o, NULL) == 1 && ptosim_compare(inf, f, 1, &o, NULL) == 1);
}

/* 64-bit integers are compared exactly (a double cannot tell 2^53 from 2^53 + 1). */
static void test_compare_int64(void) {
  int64_t g[3] = {1ll << 53, INT64_MIN, INT64_MAX}, y[3] = {(1ll << 53) + 1, INT64_MIN + 1, INT64_MAX};
  ptosim_cmp_opts o = {.dtype = PTOSIM_DT_I64, .mode = PTOSIM_CMP_TOL};
  CHECK(ptosim_compare(g, y, 3, &o, NULL) == 2);
  o.mode = PTOSIM_CMP_ULP;
  o.ulp = 1;
  CHECK(ptosim_compare(g, y, 3, &o, NULL) == 0);
  int64_t far[1] = {INT64_MAX}, near[1] = {INT64_MIN}; /* 2^64 - 1 apart: no wrap to a small distance */
  CHECK(ptosim_compare(far, near, 1, &o, NULL) == 1);
  uint64_t ug[2] = {UINT64_MAX, 1ull << 63}, uy[2] = {UINT64_MAX - 1, (1ull << 63) + 2};
  ptosim_cmp_opts u = {.dtype = PTOSIM_DT_U64, .mode = PTOSIM_CMP_ULP, .ulp = 1};
  CHECK(ptosim_compare(ug, uy, 2, &u, NULL) == 1);
  char buf[512] = "";
  FILE *f = fmemopen(buf, sizeof buf - 1, "w");
  u.max_report = 4;
  ptosim_compare(ug, uy, 2, &u, f);
  fclose(f);
  CHECK_MSG(strstr(buf, "golden 9223372036854775808 out 9223372036854775810"), "%s", buf);
}

/* fortran_order: True is honoured: the data comes back in C order. */
static void test_fortran(void) {
  /* A 2 x 3 matrix a[r][c] = 10 r + c stored column by column. */
  int32_t col_major[6] = {0, 10, 1, 11, 2, 12}, want[6] = {0, 1, 2, 10, 11, 12};
  unsigned char buf[512];
  size_t n = build_npy(buf, 1, "{'descr': '<i4', 'fortran_order': True, 'shape': (2, 3), }", col_major, sizeof col_major);
  write_bytes(tmp_path("f.npy"), buf, n);
  char err[256];
  ptosim_array b;
  CHECK(ptosim_npy_load(tmp_path("f.npy"), &b, err, sizeof err) == PTOSIM_OK);
  CHECK(b.ndim == 2 && b.shape[0] == 2 && b.shape[1] == 3 && !b.fortran_order && !memcmp(b.data, want, sizeof want));
  ptosim_array_free(&b);
  /* Three dimensions: element (i, j, k) of a 2 x 3 x 4 array is 100 i + 10 j + k. */
  int32_t f3[24], c3[24];
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 3; j++)
      for (int k = 0; k < 4; k++) {
        f3[i + 2 * j + 6 * k] = 100 * i + 10 * j + k;
        c3[12 * i + 4 * j + k] = 100 * i + 10 * j + k;
      }
  n = build_npy(buf, 1, "{'descr': '<i4', 'fortran_order': True, 'shape': (2, 3, 4), }", f3, sizeof f3);
  write_bytes(tmp_path("f3.npy"), buf, n);
  CHECK(ptosim_npy_load(tmp_path("f3.npy"), &b, err, sizeof err) == PTOSIM_OK && !memcmp(b.data, c3, sizeof c3));
  ptosim_array_free(&b);
}

/* The element kind of a file must agree with the dtype, not just its size. */
static void test_matches(void) {
  static const struct {
    const char *descr;
    unsigned es;
    ptosim_dtype t;
    int ok;
  } cases[] = {
      {"<f4", 4, PTOSIM_DT_F32, 1},  {"<i4", 4, PTOSIM_DT_F32, 0},  {"<u4", 4, PTOSIM_DT_F32, 0},
      {"<i4", 4, PTOSIM_DT_I32, 1},  {"<u4", 4, PTOSIM_DT_I32, 1},  {"<f4", 4, PTOSIM_DT_I32, 0},
      {"<u2", 2, PTOSIM_DT_BF16, 1}, {"<f2", 2, PTOSIM_DT_BF16, 0}, {"<f2", 2, PTOSIM_DT_F16, 1},
      {"<i2", 2, PTOSIM_DT_F16, 0},  {"<V2", 2, PTOSIM_DT_F16, 1},  {"<V4", 4, PTOSIM_DT_F16, 0},
      {"|u1", 1, PTOSIM_DT_HIF8, 1}, {"|i1", 1, PTOSIM_DT_I8, 1},   {"<f8", 8, PTOSIM_DT_I64, 0},
      {"<i8", 8, PTOSIM_DT_F32, 0},  {"=f4", 4, PTOSIM_DT_F32, 1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    ptosim_array a = {.elem_size = cases[i].es};
    snprintf(a.descr, sizeof a.descr, "%s", cases[i].descr);
    CHECK_MSG(ptosim_npy_matches(&a, cases[i].t) == cases[i].ok, "%s", cases[i].descr);
  }
}

/* A save goes through a temporary file: an existing file keeps its mode, no temporary is
 * left, and a failed save leaves the old file and says why. */
static void test_save_atomic(void) {
  float v[4] = {1, 2, 3, 4};
  ptosim_array a = {.descr = "<f4", .elem_size = 4, .ndim = 1, .shape = {4}, .nbytes = sizeof v, .data = v};
  char err[256] = "";
  const char *path = tmp_path("atomic.npy");
  CHECK(ptosim_npy_save(path, &a, err, sizeof err) == PTOSIM_OK);
  chmod(path, 0640);
  v[0] = 9;
  CHECK(ptosim_npy_save(path, &a, err, sizeof err) == PTOSIM_OK);
  struct stat st;
  CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0640);
  char tmp[300];
  snprintf(tmp, sizeof tmp, "%s.ptosim-%ld.tmp", path, (long)getpid());
  CHECK(stat(tmp, &st) != 0);
  ptosim_array b;
  CHECK(ptosim_npy_load(path, &b, err, sizeof err) == PTOSIM_OK && ((float *)b.data)[0] == 9);
  ptosim_array_free(&b);
  CHECK(ptosim_bin_save("/nonexistent/dir/x.bin", &a, err, sizeof err) != PTOSIM_OK && strstr(err, "No such file"));
  CHECK(ptosim_npy_load("/nonexistent/x.npy", &b, err, sizeof err) != PTOSIM_OK && strstr(err, "No such file"));
}

int main(void) {
  RUN(test_compare);
  RUN(test_compare_inf);
  RUN(test_compare_int64);
  RUN(test_fortran);
  RUN(test_matches);
  RUN(test_save_atomic);
  RUN(test_roundtrip);
  RUN(test_hand_built);
  RUN(test_errors);
  return pt_test_finish();
}
