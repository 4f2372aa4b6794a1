/* Writes the input of examples/tile_softmax.pto and an independent reference:
 *   DIR/x.npy: 12 x 100 f32 (fractions in [-6.25, 6.25]; row 3 constant, so its softmax is
 *   exactly 1/100 everywhere), DIR/y.npy: zeros, DIR/golden.npy: the row softmax computed
 *   with naive loops in the order ptosim documents for A5 (docs/spec-notes.md section 17:
 *   max in any order; e = e^(x - max) rounded to f32 per step (correctly rounded: here from
 *   80-bit long double); the row sum is the tree sum of each 64-lane repeat (halves summed
 *   apart, then added; lanes past the row 0), those added in turn from 0; y = e / sum).
 * usage: softmax_inputs DIR */
#include <math.h>
#include <stdio.h>

#include "ptosim/io.h"

enum { R = 12, C = 100, LANES = 64 /* f32 lanes of one 256-byte repeat */ };

static int save(const char *dir, const char *name, float *data) {
  char path[1024], err[256];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  ptosim_array a = {.elem_size = 4, .ndim = 2, .shape = {R, C}, .nbytes = sizeof(float) * R * C, .data = data};
  snprintf(a.descr, sizeof a.descr, "<f4");
  if (ptosim_npy_save(path, &a, err, sizeof err) == PTOSIM_OK) return 0;
  fprintf(stderr, "softmax_inputs: %s\n", err);
  return 1;
}

/* The tree sum of the n lanes v (n a power of 2): the sum of its two halves' tree sums. */
static float tree(const float *v, int n) { return n == 1 ? v[0] : tree(v, n / 2) + tree(v + n / 2, n / 2); }

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: softmax_inputs DIR\n");
    return 2;
  }
  static float x[R][C], y[R][C], golden[R][C];
  for (int r = 0; r < R; r++)
    for (int c = 0; c < C; c++) x[r][c] = r == 3 ? 0.75f : (float)(((r * C + c) * 37) % 101 - 50) / 8.0f;
  for (int r = 0; r < R; r++) {
    float m = x[r][0], total = 0.0f;
    for (int c = 1; c < C; c++) m = x[r][c] > m ? x[r][c] : m;
    for (int c = 0; c < C; c++) {
      volatile float d = x[r][c] - m; /* volatile: one f32 rounding per step */
      golden[r][c] = (float)expl((long double)d);
    }
    for (int k = 0; k < C; k += LANES) {
      float lanes[LANES];
      for (int j = 0; j < LANES; j++) lanes[j] = k + j < C ? golden[r][k + j] : 0.0f;
      total += tree(lanes, LANES);
    }
    for (int c = 0; c < C; c++) golden[r][c] /= total;
  }
  return save(argv[1], "x.npy", &x[0][0]) || save(argv[1], "y.npy", &y[0][0]) || save(argv[1], "golden.npy", &golden[0][0]);
}
