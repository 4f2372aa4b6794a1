/* Writes the inputs of examples/vector_axpy_relu.pto and an independent reference:
 *   DIR/x.npy, DIR/y.npy (1000 f32 each, with negative, zero and fractional values),
 *   DIR/golden.npy: y[i] = max(fl(fl(1.5 * x[i]) + y[i]), 0), each step rounded to f32.
 * usage: vector_inputs DIR */
#include <stdio.h>

#include "ptosim/io.h"

enum { N = 1000 };

static int save(const char *dir, const char *name, float *data) {
  char path[1024], err[256];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  ptosim_array a = {.elem_size = 4, .ndim = 1, .shape = {N}, .nbytes = sizeof(float) * N, .data = data};
  snprintf(a.descr, sizeof a.descr, "<f4");
  if (ptosim_npy_save(path, &a, err, sizeof err) == PTOSIM_OK) return 0;
  fprintf(stderr, "vector_inputs: %s\n", err);
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: vector_inputs DIR\n");
    return 2;
  }
  static float x[N], y[N], golden[N];
  for (int i = 0; i < N; i++) {
    x[i] = (float)((i * 37) % 101 - 50) / 8.0f;
    y[i] = (float)((i * 53) % 89 - 44) / 16.0f;
    volatile float ax = 1.5f * x[i]; /* volatile: one f32 rounding per step, no contraction */
    volatile float s = ax + y[i];
    golden[i] = s > 0.0f ? s : 0.0f;
  }
  return save(argv[1], "x.npy", x) || save(argv[1], "y.npy", y) || save(argv[1], "golden.npy", golden);
}
