/* Writes the inputs of the tile-level examples and an independent reference of each:
 *   tile_inputs gemm DIR       examples/tile_gemm.pto: DIR/{c,a,b,bias}.npy, DIR/golden.npy
 *   tile_inputs attention DIR  examples/tile_attention.pto: DIR/{o,s,q,kt,v}.npy, DIR/golden.npy
 * The references follow the cube's numeric contract with plain loops: every output element
 * is an fmaf chain over k ascending, seeded with the bias (or 0); S goes through f16 with
 * round-to-nearest-even, as the FIXPIPE narrows it. Inputs are multiples of 1/32 in
 * [-1, 1], exact in f16. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptosim/io.h"

static const char *g_dir;

static int save(const char *name, const char *descr, unsigned es, int rows, int cols, const void *data) {
  char path[1024], err[256];
  snprintf(path, sizeof path, "%s/%s", g_dir, name);
  ptosim_array a = {.elem_size = es, .ndim = 2, .shape = {(size_t)rows, (size_t)cols},
                    .nbytes = (size_t)rows * (size_t)cols * es, .data = (void *)data};
  snprintf(a.descr, sizeof a.descr, "%s", descr);
  if (ptosim_npy_save(path, &a, err, sizeof err) == PTOSIM_OK) return 0;
  fprintf(stderr, "tile_inputs: %s\n", err);
  return 1;
}

/* Deterministic values k/32, k in [-32, 32]. */
static float value(unsigned *state) {
  *state = *state * 1103515245u + 12345u;
  return (float)((int)((*state >> 16) % 65) - 32) / 32.0f;
}

/* f32 -> f16 bits, round to nearest even (finite values below 65504 in magnitude). */
static uint16_t f16_bits(float x) {
  uint16_t sign = signbit(x) ? 0x8000 : 0;
  float a = fabsf(x);
  if (a == 0.0f) return sign;
  int e;
  frexpf(a, &e);                  /* a = f * 2^e, f in [0.5, 1): unit exponent e - 1 */
  int ue = e - 1 < -14 ? -14 : e - 1; /* subnormals share the exponent of the smallest normal */
  float m = rintf(ldexpf(a, 10 - ue)); /* significand in units of 2^(ue - 10), 10 fraction bits */
  if (m >= 2048.0f) m /= 2.0f, ue++;   /* rounding carried into the next binade */
  unsigned bits = m < 1024.0f ? (unsigned)m : (unsigned)(ue + 15) << 10 | ((unsigned)m - 1024u);
  return (uint16_t)(sign | bits);
}

static float f16_value(uint16_t h) {
  int e = (h >> 10) & 31, f = h & 1023;
  float v = e ? ldexpf((float)(f + 1024), e - 25) : ldexpf((float)f, -24);
  return h & 0x8000 ? -v : v;
}

/* c[i][j] = fmaf chain over k of a[i][k] * b[k][j], seeded with seed[j] (NULL: 0). */
static void matmul(int m, int n, int k, const float *a, const float *b, const float *seed, float *c) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      float acc = seed ? seed[j] : 0.0f;
      for (int q = 0; q < k; q++) acc = fmaf(a[i * k + q], b[q * n + j], acc);
      c[i * n + j] = acc;
    }
}

static int gemm(void) {
  enum { M = 40, N = 56, K = 96 };
  static float a[M * K], b[K * N], bias[N], c[M * N], golden[M * N];
  unsigned st = 7;
  for (int i = 0; i < M * K; i++) a[i] = value(&st);
  for (int i = 0; i < K * N; i++) b[i] = value(&st);
  for (int i = 0; i < N; i++) bias[i] = value(&st);
  matmul(M, N, K, a, b, bias, golden);
  return save("c.npy", "<f4", 4, M, N, c) || save("a.npy", "<f4", 4, M, K, a) || save("b.npy", "<f4", 4, K, N, b) ||
         save("bias.npy", "<f4", 4, 1, N, bias) || save("golden.npy", "<f4", 4, M, N, golden);
}

static int attention(void) {
  enum { L = 32, D = 64 };
  static float q[L * D], kt[D * L], v[L * D], s[L * L], o[L * D];
  static uint16_t qh[L * D], kth[D * L], vh[L * D];
  unsigned st = 11;
  for (int i = 0; i < L * D; i++) q[i] = value(&st), qh[i] = f16_bits(q[i]);
  for (int i = 0; i < D * L; i++) kt[i] = value(&st), kth[i] = f16_bits(kt[i]);
  for (int i = 0; i < L * D; i++) v[i] = value(&st), vh[i] = f16_bits(v[i]);
  matmul(L, L, D, q, kt, NULL, s);
  for (int i = 0; i < L * L; i++) s[i] = f16_value(f16_bits(s[i])); /* the f16 round trip through GM */
  matmul(L, D, L, s, v, NULL, o);
  static float zero_o[L * D];
  static uint16_t zero_s[L * L];
  return save("o.npy", "<f4", 4, L, D, zero_o) || save("s.npy", "<f2", 2, L, L, zero_s) ||
         save("q.npy", "<f2", 2, L, D, qh) || save("kt.npy", "<f2", 2, D, L, kth) || save("v.npy", "<f2", 2, L, D, vh) ||
         save("golden.npy", "<f4", 4, L, D, o);
}

int main(int argc, char **argv) {
  if (argc != 3 || (strcmp(argv[1], "gemm") && strcmp(argv[1], "attention"))) {
    fprintf(stderr, "usage: tile_inputs gemm|attention DIR\n");
    return 2;
  }
  g_dir = argv[2];
  return strcmp(argv[1], "gemm") ? attention() : gemm();
}
