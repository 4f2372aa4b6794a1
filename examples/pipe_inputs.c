/* Writes the inputs of examples/tile_attention_pipe.pto and an independent reference:
 *   pipe_inputs DIR   DIR/{w,q,kt}.npy, DIR/golden.npy
 * W = sum over key blocks j = 0, 1, 2 (in that order, from 0) of e^(S_j * 0.125f) rounded to
 * f32 (ptosim's exp is correctly rounded: here from 80-bit long double), with
 * S_j = Q * Kt[:, 32j : 32j + 32] as the cube computes it: an fmaf chain over k ascending
 * from 0, in f32, of f16 inputs (multiples of 1/32 in [-1, 1], exact in f16). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ptosim/io.h"

enum { M = 32, K = 64, N = 32, BLOCKS = 3 };

static int save(const char *dir, const char *name, const char *descr, unsigned es, int rows, int cols, const void *data) {
  char path[1024], err[256];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  ptosim_array a = {.elem_size = es, .ndim = 2, .shape = {(size_t)rows, (size_t)cols},
                    .nbytes = (size_t)rows * (size_t)cols * es, .data = (void *)data};
  snprintf(a.descr, sizeof a.descr, "%s", descr);
  if (ptosim_npy_save(path, &a, err, sizeof err) == PTOSIM_OK) return 0;
  fprintf(stderr, "pipe_inputs: %s\n", err);
  return 1;
}

/* Deterministic values k/32, k in [-32, 32]. */
static float value(unsigned *state) {
  *state = *state * 1103515245u + 12345u;
  return (float)((int)((*state >> 16) % 65) - 32) / 32.0f;
}

/* f16 bits of k/32, |k| <= 32 (exact: a sign, an exponent and at most 6 significant bits). */
static uint16_t f16_of(float x) {
  if (x == 0.0f) return signbit(x) ? 0x8000 : 0;
  int e;
  float f = frexpf(fabsf(x), &e); /* |x| = f * 2^e, f in [0.5, 1) */
  unsigned frac = (unsigned)ldexpf(f * 2.0f - 1.0f, 10);
  return (uint16_t)((x < 0 ? 0x8000u : 0u) | (unsigned)(e - 1 + 15) << 10 | frac);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: pipe_inputs DIR\n");
    return 2;
  }
  static float q[M * K], kt[K * N * BLOCKS], w[M * N];
  static uint16_t q16[M * K], kt16[K * N * BLOCKS];
  unsigned st = 7;
  for (int i = 0; i < M * K; i++) q16[i] = f16_of(q[i] = value(&st));
  for (int i = 0; i < K * N * BLOCKS; i++) kt16[i] = f16_of(kt[i] = value(&st));
  for (int i = 0; i < M; i++)
    for (int c = 0; c < N; c++) {
      float acc = 0.0f;
      for (int j = 0; j < BLOCKS; j++) {
        float s = 0.0f;
        for (int k = 0; k < K; k++) s = fmaf(q[i * K + k], kt[k * N * BLOCKS + j * N + c], s);
        acc += (float)expl((long double)(s * 0.125f));
      }
      w[i * N + c] = acc;
    }
  static float zero[M * N];
  const char *d = argv[1];
  return save(d, "q.npy", "<f2", 2, M, K, q16) || save(d, "kt.npy", "<f2", 2, K, N * BLOCKS, kt16) ||
         save(d, "w.npy", "<f4", 4, M, N, zero) || save(d, "golden.npy", "<f4", 4, M, N, w);
}
