/* Writes the inputs of examples/gemm.pto and an independent reference:
 *   DIR/a.npy (128x128 f16), DIR/b.npy (128x128 f16), DIR/c.npy (zeros, f32),
 *   DIR/golden.npy (f32: per element an fmaf chain over k ascending from 0, the mad
 *   numeric contract). usage: gemm_inputs DIR */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ptosim/io.h"

enum { N = 128 };

static uint16_t to_f16(int v) { /* v/32 for v in [-32, 32]: exact in f16 */
  if (v == 0) return 0;
  float x = fabsf((float)v / 32.0f);
  int e;
  float fr = frexpf(x, &e);
  uint16_t bits = (uint16_t)(((e + 14) << 10) | ((unsigned)(fr * 2048.0f) & 1023));
  return v < 0 ? (uint16_t)(bits | 0x8000) : bits;
}

static int save(const char *dir, const char *name, const char *descr, unsigned es, void *data) {
  char path[1024], err[256];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  ptosim_array a = {.elem_size = es, .ndim = 2, .shape = {N, N}, .nbytes = (size_t)N * N * es, .data = data};
  snprintf(a.descr, sizeof a.descr, "%s", descr);
  if (ptosim_npy_save(path, &a, err, sizeof err) == PTOSIM_OK) return 0;
  fprintf(stderr, "gemm_inputs: %s\n", err);
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: gemm_inputs DIR\n");
    return 2;
  }
  static uint16_t a[N * N], b[N * N];
  static float c[N * N], golden[N * N];
  int av[N * N], bv[N * N];
  for (int i = 0; i < N * N; i++) {
    av[i] = (i * 7 + i / N * 3) % 65 - 32;
    bv[i] = (i * 11 + i / N * 5) % 63 - 31;
    a[i] = to_f16(av[i]);
    b[i] = to_f16(bv[i]);
  }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      float acc = 0;
      for (int k = 0; k < N; k++) acc = fmaf((float)av[i * N + k] / 32.0f, (float)bv[k * N + j] / 32.0f, acc);
      golden[i * N + j] = acc;
    }
  memset(c, 0, sizeof c);
  return save(argv[1], "a.npy", "<f2", 2, a) || save(argv[1], "b.npy", "<f2", 2, b) ||
         save(argv[1], "c.npy", "<f4", 4, c) || save(argv[1], "golden.npy", "<f4", 4, golden);
}
