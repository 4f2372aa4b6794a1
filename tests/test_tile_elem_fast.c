/* The fast paths of the elementwise tile ops (src/isa/tile_elem.c, tile_cvt.c) against naive
 * references on edge inputs: texp's row loop in every build the host runs (portable, AVX2,
 * AVX-512: pt_te_exp_f32_build) and through the op, tcvt f32 -> bf16 in every rounding
 * mode, the f16 <-> f32 row conversions and the f16 + - * / rows (tile and scalar forms). Edge inputs: NaNs with payloads
 * (quiet and signaling, both signs), infinities, zeros, subnormals, the bounds of texp's
 * fast range, inputs whose e^x lies near a halfway point between two floats (found here
 * with double exp), ties and carries of the bf16 roundings; rows whose length is not a
 * multiple of 8 or 16, longer than the AVX-512 build's 256-lane span, and in place
 * (dst == src). Elements past a row's end must stay untouched.
 * The references: texp is e^x correctly rounded (pt_exp_ref, harness.h), NaN
 * results as 0x7FC00000; bf16 roundings from the value in double (floor / quantum, not the
 * bits); f16 values from ldexp and f16 roundings from core/dtype.c's scalar converter. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core/dtype.h"
#include "harness.h"
#include "isa/tile_elem.h"
#include "ptosim/ptosim.h"

static unsigned long long seed = 0x243F6A8885A308D3ull;

static uint32_t f2u(float x) {
  uint32_t u;
  memcpy(&u, &x, 4);
  return u;
}
static float u2f(uint32_t u) {
  float x;
  memcpy(&x, &u, 4);
  return x;
}

/* ---- texp ------------------------------------------------------------------------------ */

enum { NX = 6000 };

/* e^x in double is within 2^-15 f32 ulp of a halfway point between two floats (texp's
 * fast path leaves those within 2^-17 to pt_exp_f32's double-double step). */
static int near_half(float x) {
  double e = exp((double)x);
  if (!(e >= 0x1p-126 && e < 0x1p127)) return 0;
  int ex;
  frexp(e, &ex);
  double ulp = ldexp(1, ex - 24), frac = e / ulp - floor(e / ulp);
  return fabs(frac - 0.5) < 0x1p-15;
}

/* Edge inputs of texp into xs[NX]; returns how many lie near a halfway point. */
static int exp_inputs(uint32_t *xs) {
  static const uint32_t special[] = {0x00000000u, 0x80000000u, 0x00000001u, 0x80000001u, 0x007FFFFFu, 0x807FFFFFu,
                                     0x00800000u, 0x80800000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u, 0xFFC00000u,
                                     0x7F800001u, 0xFF800001u, 0x7FA12345u, 0xFFB00001u, 0x7FFFFFFFu, 0x7F7FFFFFu,
                                     0xFF7FFFFFu, 0x3F800000u, 0xBF800000u, 0x33800000u, 0xB3800000u,
                                     0x398D1324u, 0x37FF7F01u}; /* the last two: glibc's expf is 1 ulp off */
  static const float bounds[] = {-104.0f, -87.33f, 88.72f, 88.7228f, -103.97f, 89.0f, -150.0f};
  int n = 0, halves = 0;
  for (size_t i = 0; i < sizeof special / sizeof special[0]; i++) xs[n++] = special[i];
  for (size_t i = 0; i < sizeof bounds / sizeof bounds[0]; i++)
    for (int d = -3; d <= 3; d++) xs[n++] = f2u(bounds[i]) + (uint32_t)d;
  /* near-halfway inputs: scan consecutive floats from a few starting points */
  static const float starts[] = {-0.46875f, 0.3f, -5.1f, 20.0f, -60.0f, 80.0f, 1e-3f};
  for (size_t s = 0; s < sizeof starts / sizeof starts[0]; s++)
    for (uint32_t u = f2u(starts[s]), k = 0; k < 1000000; k++, u++)
      if (near_half(u2f(u))) xs[n++] = u, halves++;
  while (n < NX) { /* random: finite ones in the fast range, and any bits */
    uint64_t r = pt_rand_u64(&seed);
    xs[n++] = r & 1 ? f2u((float)((double)(r >> 11) * 0x1p-53 * 190.0 - 100.0)) : (uint32_t)(r >> 16);
  }
  return halves;
}

static uint32_t exp_ref(uint32_t x) {
  float r = pt_exp_ref(u2f(x));
  return isnan(r) ? 0x7FC00000u : f2u(r);
}

/* Every build of the row loop on rows of the inputs: lengths around 8 / 16 / the span,
 * separate and in place, the word after the row untouched. */
static void test_exp_builds(void) {
  static uint32_t xs[NX], buf[NX + 1];
  CHECK(exp_inputs(xs) >= 300);
  static const int lens[] = {1, 2, 7, 8, 9, 15, 16, 17, 31, 33, 255, 256, 257, 300, 513, 1000, NX};
  int ran = 0;
  for (int b = 0; b < PT_TE_EXP_BUILDS; b++)
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++)
      for (int start = 0; start + lens[li] <= NX; start += lens[li] < 64 ? 397 : NX) /* varied rows */
        for (int inplace = 0; inplace < 2; inplace++) {
          int n = lens[li];
          const uint32_t *src = xs + start;
          buf[n] = 0xDEADBEEFu;
          if (inplace) memcpy(buf, src, (size_t)n * 4), src = buf;
          if (!pt_te_exp_f32_build(b, (const uint8_t *)src, n, (uint8_t *)buf)) continue;
          ran++;
          int bad = 0;
          for (int i = 0; i < n && !bad; i++) {
            bad = buf[i] != exp_ref(xs[start + i]);
            CHECK_MSG(!bad, "build %d n %d in place %d: exp(%08x) = %08x, want %08x", b, n, inplace, xs[start + i],
                      buf[i], exp_ref(xs[start + i]));
          }
          CHECK_MSG(buf[n] == 0xDEADBEEFu, "build %d n %d wrote past the row", b, n);
        }
  CHECK(ran > 0);
  CHECK(!pt_te_exp_f32_build(PT_TE_EXP_BUILDS, (const uint8_t *)xs, 1, (uint8_t *)buf));
}

static ptosim_tile nd(ptosim_dtype t, uint64_t addr, int rows, int cols, int vr, int vc) {
  ptosim_tile x = {.space = PTOSIM_UB, .addr = addr, .dtype = t, .rows = rows, .cols = cols, .valid_rows = vr,
                   .valid_cols = vc, .blayout = PTOSIM_BL_ROW_MAJOR, .slayout = PTOSIM_SL_NONE_BOX, .fractal = 512};
  return x;
}

/* pto.texp on f32 rows of 301 valid columns (tails, more than a span), in place and not,
 * and on f16 rows (f32 e^x rounded once to f16, NaN 0x7E00). */
static void test_exp_op(void) {
  enum { R = 16, C = 320, VC = 301 };
  static uint32_t xs[NX], img[R * C], got[R * C];
  exp_inputs(xs);
  for (int inplace = 0; inplace < 2; inplace++) {
    ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
    ptosim_core *c = ptosim_core_of(m, 0, PTOSIM_AIV0);
    for (int i = 0; i < R * C; i++) img[i] = xs[(i * 7) % NX];
    ptosim_tile a = nd(PTOSIM_DT_F32, 0, R, C, R, VC), d = nd(PTOSIM_DT_F32, inplace ? 0 : R * C * 4, R, C, R, VC);
    CHECK(ptosim_mem_write(c, PTOSIM_UB, 0, img, sizeof img) == PTOSIM_OK);
    CHECK(ptosim_mem_write(c, PTOSIM_UB, d.addr, img, sizeof img) == PTOSIM_OK);
    ptosim_telem_params p = {.src0 = a, .dst = d};
    CHECK(ptosim_exec(c, PTOSIM_OP_texp, &p, NULL) == PTOSIM_OK);
    CHECK(ptosim_mem_read(c, PTOSIM_UB, d.addr, got, sizeof got) == PTOSIM_OK);
    int bad = 0;
    for (int i = 0; i < R * C && !bad; i++) {
      uint32_t want = i % C < VC ? exp_ref(img[i]) : img[i];
      bad = got[i] != want;
      CHECK_MSG(!bad, "texp in place %d element %d: exp(%08x) = %08x, want %08x", inplace, i, img[i], got[i], want);
    }
    /* f16: the halves of the same bits as f16 inputs */
    ptosim_tile h = nd(PTOSIM_DT_F16, 0, R, C, R, VC), hd = nd(PTOSIM_DT_F16, inplace ? 0 : R * C * 2, R, C, R, VC);
    CHECK(ptosim_mem_write(c, PTOSIM_UB, 0, img, sizeof img) == PTOSIM_OK);
    p = (ptosim_telem_params){.src0 = h, .dst = hd};
    CHECK(ptosim_exec(c, PTOSIM_OP_texp, &p, NULL) == PTOSIM_OK);
    uint16_t *hin = (uint16_t *)img, hout[R * C];
    CHECK(ptosim_mem_read(c, PTOSIM_UB, hd.addr, hout, sizeof hout) == PTOSIM_OK);
    for (int i = 0; i < R * C && !bad; i++) {
      float r = pt_exp_ref(pt_f16_to_f32(hin[i]));
      uint16_t want = i % C >= VC ? (inplace ? hin[i] : ((const uint16_t *)img)[R * C + i])
                      : isnan(r) ? 0x7E00
                                 : pt_f32_to_f16(r, PT_RND_RINT, PT_SAT_OFF);
      bad = hout[i] != want;
      CHECK_MSG(!bad, "texp f16 in place %d element %d: exp(%04x) = %04x, want %04x", inplace, i, hin[i], hout[i], want);
    }
    ptosim_machine_free(m);
  }
}

/* ---- tcvt f32 -> bf16 ------------------------------------------------------------------ */

/* x rounded to bf16 with mode md, from its value: q is the quantum of x's binade (the
 * subnormal one below 2^-126), lo = floor(x / q) q <= x < lo + q = hi. NaN: the quiet NaN
 * with x's sign and top payload, 0x7FC0 for the default rounding (tcvt's RINT path). */
static uint16_t bf16_ref(uint32_t b, ptosim_round_mode md) {
  float x = u2f(b);
  int rint = md == PTOSIM_RM_NONE || md == PTOSIM_RM_RINT || md == PTOSIM_RM_CAST_RINT;
  if (isnan(x)) return rint ? 0x7FC0 : (uint16_t)((b >> 16) | 0x40u);
  if (isinf(x) || x == 0) return (uint16_t)(b >> 16);
  double v = x, r;
  int e;
  frexp(v, &e);
  double q = ldexp(1, (e - 1 < -126 ? -126 : e - 1) - 7), lo = floor(v / q) * q, hi = lo + q;
  int lo_odd = fmod(fabs(lo / q), 2) == 1;
  if (lo == v) r = v;
  else
    switch (md) {
      case PTOSIM_RM_FLOOR: r = lo; break;
      case PTOSIM_RM_CEIL: r = hi; break;
      case PTOSIM_RM_TRUNC: r = v < 0 ? hi : lo; break;
      case PTOSIM_RM_ODD: r = lo_odd ? lo : hi; break;
      case PTOSIM_RM_ROUND: r = v - lo < hi - v ? lo : v - lo > hi - v ? hi : v < 0 ? lo : hi; break;
      default: r = v - lo < hi - v ? lo : v - lo > hi - v ? hi : lo_odd ? hi : lo; break;
    }
  if (fabs(r) > 0x1.FEp127) return v < 0 ? 0xFF80 : 0x7F80; /* past the largest finite: inf */
  return (uint16_t)(f2u(copysignf((float)r, x)) >> 16);       /* a zero keeps x's sign */
}

static void test_bf16_modes(void) {
  enum { R = 8, C = 64, VC = 37, N = R * C };
  static const ptosim_round_mode modes[] = {PTOSIM_RM_RINT, PTOSIM_RM_ROUND, PTOSIM_RM_FLOOR,
                                            PTOSIM_RM_CEIL, PTOSIM_RM_TRUNC, PTOSIM_RM_ODD};
  static const uint16_t highs[] = {0x0000, 0x0001, 0x007F, 0x0080, 0x3F80, 0x3F81, 0x4000, 0x7F7E, 0x7F7F, 0x7F80, 0x7F81, 0x7FC0};
  static const uint16_t lows[] = {0x0000, 0x0001, 0x7FFF, 0x8000, 0x8001, 0xFFFF};
  static uint32_t in[4 * N];
  int n = 0;
  for (int s = 0; s < 2; s++)
    for (size_t i = 0; i < sizeof highs / sizeof highs[0]; i++)
      for (size_t j = 0; j < sizeof lows / sizeof lows[0]; j++) in[n++] = (uint32_t)s << 31 | (uint32_t)highs[i] << 16 | lows[j];
  while (n < 4 * N) in[n++] = (uint32_t)(pt_rand_u64(&seed) >> 32);
  for (size_t mi = 0; mi < sizeof modes / sizeof modes[0]; mi++)
    for (int part = 0; part < 4; part++)
      for (int inplace = 0; inplace < 2; inplace++) {
        ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
        ptosim_core *c = ptosim_core_of(m, 0, PTOSIM_AIV0);
        uint16_t out[N], before[N];
        for (int i = 0; i < N; i++) before[i] = (uint16_t)(0xA5A5u + (unsigned)i);
        ptosim_tile a = nd(PTOSIM_DT_F32, 0, R, C, R, VC), d = nd(PTOSIM_DT_BF16, inplace ? 0 : 4 * N, R, C, R, VC);
        CHECK(ptosim_mem_write(c, PTOSIM_UB, 4 * N, before, sizeof before) == PTOSIM_OK);
        CHECK(ptosim_mem_write(c, PTOSIM_UB, 0, in + part * N, 4 * N) == PTOSIM_OK);
        /* sat OFF: the IEEE loops (A5's default ON saturates, test_tile_elem's test_tcvt) */
        ptosim_telem_params p = {.src0 = a, .dst = d, .rmode = modes[mi], .sat = PTOSIM_TSAT_OFF};
        CHECK(ptosim_exec(c, PTOSIM_OP_tcvt, &p, NULL) == PTOSIM_OK);
        CHECK(ptosim_mem_read(c, PTOSIM_UB, d.addr, out, sizeof out) == PTOSIM_OK);
        int bad = 0;
        for (int r = 0; r < R && !bad; r++)
          for (int k = 0; k < C && !bad; k++) {
            int i = r * C + k;
            uint32_t x = in[part * N + i];
            uint16_t want = k < VC ? bf16_ref(x, modes[mi]) : inplace ? (uint16_t)(in[part * N + i / 2] >> (16 * (i % 2))) : before[i];
            bad = out[i] != want;
            CHECK_MSG(!bad, "tcvt f32 %08x -> bf16 mode %d in place %d: %04x, want %04x", x, (int)modes[mi], inplace,
                      out[i], want);
          }
        ptosim_machine_free(m);
      }
}

/* ---- f16 rows ----------------------------------------------------------------------------- */

static uint32_t f16_to_f32_ref(uint16_t h) { /* the value by ldexp; NaN payloads kept */
  unsigned m = h & 0x3FFu, e = h >> 10 & 0x1Fu;
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  if (e == 31) return sign | 0x7F800000u | m << 13;
  return sign | f2u((float)ldexp(e ? 1024.0 + m : m, (e ? (int)e : 1) - 25));
}

/* tcvt f16 -> f32 -> f16 and f16 + - * / (in place over src0) on rows of 37 and of 300
 * valid columns holding NaNs of every kind at every position of the 8- and 16-lane steps. */
static void test_f16_rows_edges(void) {
  static const int vcs[] = {37, 300};
  for (size_t vi = 0; vi < 2; vi++) {
    enum { R = 4, C = 320, N = R * C };
    int vc = vcs[vi];
    static uint16_t a[N], b[N], h[N], back[N];
    static uint32_t f[N];
    static const uint16_t special[] = {0x7C01, 0xFC01, 0x7D55, 0x7E00, 0xFE01, 0x7FFF, 0x7C00, 0xFC00,
                                       0x0001, 0x8001, 0x03FF, 0x0400, 0x7BFF, 0xFBFF, 0x0000, 0x8000};
    for (int i = 0; i < N; i++) {
      uint64_t r = pt_rand_u64(&seed);
      a[i] = r % 5 == 0 ? special[(r >> 8) % 16] : (uint16_t)(r >> 16);
      b[i] = r % 7 == 0 ? special[(r >> 12) % 16] : (uint16_t)(r >> 32);
    }
    ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
    ptosim_core *c = ptosim_core_of(m, 0, PTOSIM_AIV0);
    ptosim_tile th = nd(PTOSIM_DT_F16, 0, R, C, R, vc), tf = nd(PTOSIM_DT_F32, 4 * N, R, C, R, vc);
    ptosim_tile tb = nd(PTOSIM_DT_F16, 2 * N, R, C, R, vc);
    CHECK(ptosim_mem_write(c, PTOSIM_UB, 0, a, sizeof a) == PTOSIM_OK);
    CHECK(ptosim_mem_write(c, PTOSIM_UB, 2 * N, b, sizeof b) == PTOSIM_OK);
    CHECK(ptosim_mem_write(c, PTOSIM_UB, 4 * N, (uint32_t[N]){0}, 4 * N) == PTOSIM_OK);
    ptosim_telem_params p = {.src0 = th, .dst = tf};
    CHECK(ptosim_exec(c, PTOSIM_OP_tcvt, &p, NULL) == PTOSIM_OK);
    CHECK(ptosim_mem_read(c, PTOSIM_UB, 4 * N, f, sizeof f) == PTOSIM_OK);
    p = (ptosim_telem_params){.src0 = tf, .dst = tb, .sat = PTOSIM_TSAT_OFF}; /* IEEE: A5's ON saturates */
    CHECK(ptosim_exec(c, PTOSIM_OP_tcvt, &p, NULL) == PTOSIM_OK); /* back over b */
    CHECK(ptosim_mem_read(c, PTOSIM_UB, 2 * N, back, sizeof back) == PTOSIM_OK);
    int bad = 0;
    for (int i = 0; i < N && !bad; i++) {
      int in = i % C < vc;
      uint32_t wf = in ? f16_to_f32_ref(a[i]) : 0;
      uint16_t wb = !in ? b[i] : isnan(u2f(wf)) ? 0x7E00 : pt_f32_to_f16(u2f(wf), PT_RND_RINT, PT_SAT_OFF);
      bad = f[i] != wf || back[i] != wb;
      CHECK_MSG(!bad, "vc %d element %d: f16 %04x -> f32 %08x (want %08x) -> f16 %04x (want %04x)", vc, i, a[i], f[i], wf,
                back[i], wb);
    }
    /* + - * / of two tiles and with a scalar, in place over src0: the f32 result of the exact
     * f16 values rounded once to f16 (f32 keeps + - * / of f16 values correctly rounded) */
    static const struct {
      ptosim_opcode op;
      int scalar, first;
      char sign;
    } ar[] = {{PTOSIM_OP_tadd, 0, 0, '+'},  {PTOSIM_OP_tsub, 0, 0, '-'},  {PTOSIM_OP_tmul, 0, 0, '*'},
              {PTOSIM_OP_tdiv, 0, 0, '/'},  {PTOSIM_OP_tadds, 1, 0, '+'}, {PTOSIM_OP_tsubs, 1, 0, '-'},
              {PTOSIM_OP_tmuls, 1, 0, '*'}, {PTOSIM_OP_tdivs, 1, 0, '/'}, {PTOSIM_OP_tdivs, 1, 1, '/'}};
    for (size_t o = 0; o < sizeof ar / sizeof ar[0]; o++) {
      uint16_t sc = special[o % 16] == 0x7E00 ? 0x3E00 : (uint16_t)(0x3C00 + 0x123 * o); /* f16 scalar */
      CHECK(ptosim_mem_write(c, PTOSIM_UB, 0, a, sizeof a) == PTOSIM_OK);
      CHECK(ptosim_mem_write(c, PTOSIM_UB, 2 * N, b, sizeof b) == PTOSIM_OK);
      p = (ptosim_telem_params){.src0 = th, .src1 = tb, .dst = th, .scalar = {PTOSIM_DT_F16, sc}, .scalar_first = ar[o].first};
      CHECK(ptosim_exec(c, ar[o].op, &p, NULL) == PTOSIM_OK);
      CHECK(ptosim_mem_read(c, PTOSIM_UB, 0, h, sizeof h) == PTOSIM_OK);
      for (int i = 0; i < N && !bad; i++) {
        float x = u2f(f16_to_f32_ref(a[i])), y = u2f(f16_to_f32_ref(ar[o].scalar ? sc : b[i])), r;
        if (ar[o].first) r = x, x = y, y = r;
        r = ar[o].sign == '+' ? x + y : ar[o].sign == '-' ? x - y : ar[o].sign == '*' ? x * y : x / y;
        uint16_t want = i % C >= vc ? a[i] : isnan(r) ? 0x7E00 : pt_f32_to_f16(r, PT_RND_RINT, PT_SAT_OFF);
        bad = h[i] != want;
        CHECK_MSG(!bad, "vc %d op %zu: f16 %04x %c %04x = %04x, want %04x", vc, o, a[i], ar[o].sign,
                  ar[o].scalar ? sc : b[i], h[i], want);
      }
    }
    ptosim_machine_free(m);
  }
}

int main(void) {
  RUN(test_exp_builds);
  RUN(test_exp_op);
  RUN(test_bf16_modes);
  RUN(test_f16_rows_edges);
  return pt_test_finish();
}
