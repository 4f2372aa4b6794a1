/* The main demo: an f16 x f16 -> f32 GEMM, C[M][N] = A[M][K] * B[K][N], run entirely
 * through ptosim's micro-instructions from C:
 *   GM --mte_gm_l1_frac (nd2nz)--> L1 --mte_l1_l0a / mte_l1_l0b--> L0A / L0B
 *   --mad, then mad_acc over the k chunks--> L0C --mte_l0c_gm (nz2nd)--> GM
 * and checked against a plain C reference that follows the same numeric contract
 * (per output element, one fused multiply-add per k step, k ascending).
 *
 * usage: gemm_demo [--quick] [--target a2a3|a5] [--size N] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ptosim/ptosim.h"

enum { TM = 128, TN = 128, TK = 64 }; /* tile sizes: L0A 16 KiB, L0B 16 KiB, L0C 64 KiB */

/* f16 bits <-> float, written here so the demo depends only on the public API. */
static float f16_to_float(uint16_t h) {
  int e = (h >> 10) & 31, f = h & 1023;
  float v = e == 0 ? ldexpf((float)f, -24) : e == 31 ? (f ? NAN : INFINITY) : ldexpf((float)(f | 1024), e - 25);
  return (h & 0x8000) ? -v : v;
}

static uint16_t small_f16(unsigned r) { /* values k/64 for k in [-64, 64]: exact in f16 */
  float v = (float)((int)(r % 129) - 64) / 64.0f;
  if (v == 0) return 0;
  int e;
  float fr = frexpf(fabsf(v), &e); /* v = fr * 2^e, fr in [0.5, 1) */
  uint16_t bits = (uint16_t)(((e + 14) << 10) | ((unsigned)(fr * 2048.0f) & 1023));
  return (uint16_t)(v < 0 ? bits | 0x8000 : bits);
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int fail(ptosim_machine *m, const char *what) {
  char buf[1024];
  ptosim_diag_format(ptosim_last_diag(m), buf, sizeof buf);
  fprintf(stderr, "gemm_demo: %s failed:\n%s", what, buf);
  return 1;
}

#define RUN(call, what) \
  if ((call) != PTOSIM_OK) return fail(m, what)

/* One full GEMM on the simulated cube core. */
static int gemm(ptosim_machine *m, uint64_t ga, uint64_t gb, uint64_t gc, int M, int N, int K) {
  ptosim_core *aic = ptosim_core_of(m, 0, PTOSIM_AIC);
  const uint64_t l1_a = 0, l1_b = 64 * 1024;
  for (int mt = 0; mt < M; mt += TM)
    for (int nt = 0; nt < N; nt += TN) {
      for (int kc = 0; kc < K; kc += TK) {
        /* A[mt.., kc..] (TM x TK, row stride K*2 bytes) -> L1 NZ: rows packed (loop2 = 1 C0),
         * column blocks TM rows apart (loop3 = TM C0 units). */
        ptosim_frac_params fa = {
            .src = ptosim_ptr_make(PTOSIM_GM, PTOSIM_DT_F16, ga + ((uint64_t)mt * K + kc) * 2),
            .dst = ptosim_ptr_make(PTOSIM_L1, PTOSIM_DT_F16, l1_a),
            .mode = PTOSIM_ND2NZ, .n_value = TM, .d_value = TK, .src_inner_stride = (int64_t)K * 2,
            .group_count = 1, .dst_loop2_stride = 1, .dst_loop3_stride = TM};
        RUN(ptosim_mte_gm_l1_frac(aic, &fa), "mte_gm_l1_frac A");
        /* B[kc.., nt..] (TK x TN, row stride N*2) -> L1 NZ with k as the row index. */
        ptosim_frac_params fb = fa;
        fb.src = ptosim_ptr_make(PTOSIM_GM, PTOSIM_DT_F16, gb + ((uint64_t)kc * N + nt) * 2);
        fb.dst = ptosim_ptr_make(PTOSIM_L1, PTOSIM_DT_F16, l1_b);
        fb.n_value = TK;
        fb.d_value = TN;
        fb.src_inner_stride = (int64_t)N * 2;
        fb.dst_loop3_stride = TK;
        RUN(ptosim_mte_gm_l1_frac(aic, &fb), "mte_gm_l1_frac B");
        ptosim_l0_load_params la = {.src = fa.dst, .dst = ptosim_ptr_make(PTOSIM_L0A, PTOSIM_DT_F16, 0),
                                    .rows = TM, .cols = TK};
        RUN(ptosim_mte_l1_l0a(aic, &la), "mte_l1_l0a");
        /* L1 holds B with k as rows; transpose gives the K-innermost L0B organization. */
        ptosim_l0_load_params lb = {.src = fb.dst, .dst = ptosim_ptr_make(PTOSIM_L0B, PTOSIM_DT_F16, 0),
                                    .rows = TK, .cols = TN, .transpose = true};
        RUN(ptosim_mte_l1_l0b(aic, &lb), "mte_l1_l0b");
        ptosim_mad_params mp = {.lhs = la.dst, .rhs = lb.dst, .dst = ptosim_ptr_make(PTOSIM_L0C, PTOSIM_DT_F32, 0),
                                .m = TM, .n = TN, .k = TK};
        RUN(kc == 0 ? ptosim_mad(aic, &mp) : ptosim_mad_acc(aic, &mp), "mad");
      }
      /* L0C (column blocks of TM rows x 16) -> C[mt.., nt..] in ND, rows N elements apart. */
      ptosim_fixpipe_params st = {.src = ptosim_ptr_make(PTOSIM_L0C, PTOSIM_DT_F32, 0),
                                  .dst = ptosim_ptr_make(PTOSIM_GM, PTOSIM_DT_F32, gc + ((uint64_t)mt * N + nt) * 4),
                                  .m = TM, .n = TN, .src_stride = TM, .dst_stride = N,
                                  .layout = PTOSIM_FIX_NZ2ND};
      RUN(ptosim_mte_l0c_gm(aic, &st), "mte_l0c_gm");
    }
  return 0;
}

int main(int argc, char **argv) {
  int size = 256, quick = 0;
  ptosim_target target = PTOSIM_TARGET_A5;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--quick")) quick = 1;
    else if (!strcmp(argv[i], "--target") && i + 1 < argc) target = !strcmp(argv[++i], "a2a3") ? PTOSIM_TARGET_A2A3 : PTOSIM_TARGET_A5;
    else if (!strcmp(argv[i], "--size") && i + 1 < argc) size = atoi(argv[++i]);
    else {
      fprintf(stderr, "usage: gemm_demo [--quick] [--target a2a3|a5] [--size N (multiple of 128)]\n");
      return 2;
    }
  }
  if (size < 128 || size % 128) {
    fprintf(stderr, "gemm_demo: --size must be a positive multiple of 128\n");
    return 2;
  }
  const int M = size, N = size, K = size;
  uint16_t *a = malloc(sizeof *a * M * K), *b = malloc(sizeof *b * K * N);
  float *c = malloc(sizeof *c * M * N), *ref = malloc(sizeof *ref * M * N);
  if (!a || !b || !c || !ref) return 1;
  unsigned long long s = 42;
  for (int i = 0; i < M * K; i++) a[i] = small_f16((unsigned)((s = s * 6364136223846793005ULL + 1) >> 33));
  for (int i = 0; i < K * N; i++) b[i] = small_f16((unsigned)((s = s * 6364136223846793005ULL + 1) >> 33));
  memset(c, 0xff, sizeof *c * M * N);

  ptosim_machine *m = ptosim_machine_new(target, 1);
  uint64_t ga, gb, gc;
  if (!m || ptosim_gm_map(m, a, sizeof *a * M * K, &ga) || ptosim_gm_map(m, b, sizeof *b * K * N, &gb) ||
      ptosim_gm_map(m, c, sizeof *c * M * N, &gc))
    return 1;

  int reps = quick ? 1 : 10;
  double t0 = now();
  uint64_t ops0 = ptosim_ops_executed(m);
  for (int r = 0; r < reps; r++)
    if (gemm(m, ga, gb, gc, M, N, K)) return 1;
  double dt = now() - t0;
  uint64_t ops = ptosim_ops_executed(m) - ops0;

  /* Reference: per element, fmaf over k ascending from 0 (the mad numeric contract). */
  double max_err = 0;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float acc = 0;
      for (int k = 0; k < K; k++) acc = fmaf(f16_to_float(a[i * K + k]), f16_to_float(b[k * N + j]), acc);
      ref[i * N + j] = acc;
      double e = fabs((double)acc - (double)c[i * N + j]);
      if (!(e <= max_err)) max_err = e; /* NaN-safe */
    }
  printf("ptosim gemm demo: f16 x f16 -> f32, %dx%dx%d on target %s\n", M, N, K,
         target == PTOSIM_TARGET_A5 ? "a5" : "a2a3");
  printf("  path: mte_gm_l1_frac(nd2nz) -> mte_l1_l0a/l0b -> mad/mad_acc (k chunks of %d) -> mte_l0c_gm(nz2nd)\n", TK);
  printf("  max abs error vs reference: %g\n", max_err);
  printf("  %llu simulated ops in %.3f ms per GEMM: %.0f ops/s, %.2f GFLOP/s simulated\n",
         (unsigned long long)(ops / (uint64_t)reps), 1e3 * dt / reps, (double)ops / dt,
         2.0 * M * N * K * reps / dt * 1e-9);
  ptosim_machine_free(m);
  int ok = max_err == 0;
  printf("  result: %s\n", ok ? "PASS (bit-exact)" : "FAIL");
  free(a);
  free(b);
  free(c);
  free(ref);
  return ok ? 0 : 1;
}
