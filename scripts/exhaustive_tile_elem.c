/* Exhaustive bit-identity checks of the fast paths of the elementwise tile ops (not part of
 * ctest: a few minutes; it prints the time taken). Every f32 bit pattern through
 *   pto.texp (f32)          against e^x correctly rounded (NaN results as 0x7FC00000): the op
 *                           (the best build of the row loop the host runs), every build of it
 *                           the host runs (pt_te_exp_f32_build: portable, AVX2, AVX-512) and
 *                           the scalar pt_exp_f32 (vexp, the expdif forms), with the count of
 *                           lanes pt_exp_f32x8 leaves to pt_exp_f32. The reference is e^x in
 *                           80-bit long double (expl, within 2^-63) rounded once; the script
 *                           also checks that it lies at least 2^-58 (relative) from every f32
 *                           halfway point, so that its rounding is the correct one (the
 *                           double-double step of pt_exp_f32 relies on that distance too),
 *   pto.tcvt f32 -> f16     against the scalar converter of core/dtype.c, pt_f32_to_f16
 *                           (nearest even, IEEE overflow) with NaN as 0x7E00,
 *   pto.tcvt f32 -> bf16    in the modes ROUND, FLOOR, CEIL, TRUNC, ODD against
 *                           pt_f32_to_bf16 (saturation off),
 * and every f16 through pto.tcvt f16 -> f32 against pt_f16_to_f32 (NaN payload kept).
 * Build and run from the worktree after building build/:
 *   cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Isrc -Iinclude -Ibuild/include \
 *      scripts/exhaustive_tile_elem.c build/libptosim.a -lm -lpthread -o /tmp/exh && /tmp/exh */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/dtype.h"
#include "isa/exp_f32.h"
#include "isa/tile_elem.h"
#include "isa/vec_formulas.h"
#include "ptosim/ptosim.h"

enum { R = 64, C = 256, N = R * C };

static ptosim_tile tile(ptosim_dtype t, uint64_t addr) {
  ptosim_tile x = {.space = PTOSIM_UB, .addr = addr, .dtype = t, .rows = R, .cols = C, .valid_rows = R,
                   .valid_cols = C, .blayout = PTOSIM_BL_ROW_MAJOR, .slayout = PTOSIM_SL_NONE_BOX, .fractal = 512};
  return x;
}

/* Run op on N elements in[] of type s into out[] of type d, rounding mode rm. */
static void run(ptosim_core *c, ptosim_opcode op, ptosim_dtype s, ptosim_dtype d, const void *in, void *out,
                ptosim_round_mode rm) {
  ptosim_telem_params p = {.src0 = tile(s, 0), .dst = tile(d, N * 4), .rmode = rm};
  ptosim_mem_write(c, PTOSIM_UB, 0, in, (size_t)N * pt_dtype_size(s));
  if (ptosim_exec(c, op, &p, NULL) != PTOSIM_OK) printf("exec failed\n");
  ptosim_mem_read(c, PTOSIM_UB, N * 4, out, (size_t)N * pt_dtype_size(d));
}

/* Correctly rounded e^x from long double: *close set when e^x is within 2^-58 of an f32
 * halfway point (the rounding from long double would then not be proven). */
static float exp_cr(float x, bool *close) {
  long double l = expl((long double)x);
  float c = (float)l;
  *close = false;
  if (isfinite(x) && c < INFINITY && l > 0) {
    long double lo = nextafterf(c, 0.0f), hi = nextafterf(c, INFINITY);
    long double d1 = fabsl(l - (c + lo) / 2) / l, d2 = fabsl(l - (c + hi) / 2) / l;
    *close = d1 < 0x1p-58L || d2 < 0x1p-58L;
  }
  return c;
}

int main(void) {
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  ptosim_core *c = ptosim_core_of(m, 0, PTOSIM_AIV0);
  static uint32_t in[N], out[N], port[PT_TE_EXP_BUILDS][N];
  static uint16_t h[N], bf[5][N];
  static const struct {
    ptosim_round_mode rm;
    pt_round r;
  } bf_modes[5] = {{PTOSIM_RM_ROUND, PT_RND_AWAY}, {PTOSIM_RM_FLOOR, PT_RND_FLOOR}, {PTOSIM_RM_CEIL, PT_RND_CEIL},
                   {PTOSIM_RM_TRUNC, PT_RND_TRUNC}, {PTOSIM_RM_ODD, PT_RND_ODD}};
  static const char *const build[PT_TE_EXP_BUILDS] = {"portable", "AVX2", "AVX-512"};
  bool ran[PT_TE_EXP_BUILDS] = {false};
  unsigned long bad_exp = 0, bad_scalar = 0, close_cases = 0, bad_bf = 0, bad_port[PT_TE_EXP_BUILDS] = {0}, bad_h = 0, bad_f = 0, slow_lanes = 0;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (uint64_t base = 0; base < (1ull << 32); base += N) {
    for (uint32_t i = 0; i < N; i++) in[i] = (uint32_t)(base + i);
    run(c, PTOSIM_OP_texp, PTOSIM_DT_F32, PTOSIM_DT_F32, in, out, PTOSIM_RM_NONE);
    run(c, PTOSIM_OP_tcvt, PTOSIM_DT_F32, PTOSIM_DT_F16, in, h, PTOSIM_RM_NONE);
    for (int k = 0; k < 5; k++) run(c, PTOSIM_OP_tcvt, PTOSIM_DT_F32, PTOSIM_DT_BF16, in, bf[k], bf_modes[k].rm);
    for (int b = 0; b < PT_TE_EXP_BUILDS; b++) ran[b] = pt_te_exp_f32_build(b, (const uint8_t *)in, N, (uint8_t *)port[b]);
    for (uint32_t i = 0; i < N; i += 8) {
      pt_v8f x, y;
      pt_v8i slow;
      memcpy(&x, &in[i], sizeof x);
      pt_exp_f32x8(&x, &y, &slow);
      for (int j = 0; j < 8; j++) slow_lanes += slow[j] != 0;
    }
    for (uint32_t i = 0; i < N; i++) {
      float x, w, sc;
      uint32_t wb, sb;
      bool close;
      memcpy(&x, &in[i], 4);
      w = exp_cr(x, &close);
      if (close && close_cases++ < 5) printf("e^x of %08x lies within 2^-58 of an f32 halfway point\n", in[i]);
      memcpy(&wb, &w, 4);
      if (isnan(w)) wb = 0x7FC00000u;
      if (wb != out[i] && bad_exp++ < 5) printf("texp %08x: %08x, want %08x\n", in[i], out[i], wb);
      sc = pt_exp_f32(x);
      memcpy(&sb, &sc, 4);
      if (isnan(sc)) sb = 0x7FC00000u;
      if (wb != sb && bad_scalar++ < 5) printf("pt_exp_f32 %08x: %08x, want %08x\n", in[i], sb, wb);
      for (int b = 0; b < PT_TE_EXP_BUILDS; b++)
        if (ran[b] && wb != port[b][i] && bad_port[b]++ < 5)
          printf("texp %s %08x: %08x, want %08x\n", build[b], in[i], port[b][i], wb);
      uint16_t wh = isnan(x) ? 0x7E00 : pt_f32_to_f16(x, PT_RND_RINT, PT_SAT_OFF);
      if (wh != h[i] && bad_h++ < 5) printf("tcvt f32 %08x -> %04x, want %04x\n", in[i], h[i], wh);
      for (int k = 0; k < 5; k++) {
        uint16_t wb = pt_f32_to_bf16(x, bf_modes[k].r, PT_SAT_OFF);
        if (wb != bf[k][i] && bad_bf++ < 5) printf("tcvt f32 %08x -> bf16 mode %d: %04x, want %04x\n", in[i], k, bf[k][i], wb);
      }
    }
  }
  for (uint32_t part = 0; part < 65536; part += N) {
    for (uint32_t i = 0; i < N; i++) h[i] = (uint16_t)(part + i);
    run(c, PTOSIM_OP_tcvt, PTOSIM_DT_F16, PTOSIM_DT_F32, h, out, PTOSIM_RM_NONE);
    for (uint32_t i = 0; i < N; i++) {
      float w = pt_f16_to_f32(h[i]);
      uint32_t wb;
      memcpy(&wb, &w, 4);
      if (wb != out[i] && bad_f++ < 5) printf("tcvt f16 %04x -> %08x, want %08x\n", h[i], out[i], wb);
    }
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  printf("mismatches: texp %lu, pt_exp_f32 %lu, tcvt f32->f16 %lu, tcvt f32->bf16 (5 modes) %lu, tcvt f16->f32 %lu\n",
         bad_exp, bad_scalar, bad_h, bad_bf, bad_f);
  printf("inputs whose e^x lies within 2^-58 of an f32 halfway point: %lu\n", close_cases);
  unsigned long bad_builds = 0;
  for (int b = 0; b < PT_TE_EXP_BUILDS; b++) {
    printf("texp %s build: %s, %lu mismatches\n", build[b], ran[b] ? "checked" : "not run (host lacks it)", bad_port[b]);
    bad_builds += bad_port[b];
  }
  printf("texp lanes left to pt_exp_f32: %lu of 2^32 (%.4f%%); %.0f s\n", slow_lanes, 100.0 * (double)slow_lanes / 4294967296.0,
         (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
  ptosim_machine_free(m);
  return bad_exp || bad_scalar || close_cases || bad_builds || bad_h || bad_bf || bad_f;
}
