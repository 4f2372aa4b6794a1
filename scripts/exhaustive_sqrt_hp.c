/* Whether the a5 HIGH_PRECISION square root sequences compute the correctly rounded square
 * root when every vector instruction in them is ptosim's model of it (vsqrt, vdiv, vmul,
 * vmuls correctly rounded; vmula / vmadd fused, one rounding: docs/spec-notes.md section 13).
 * Not part of ctest (about a minute). Every f32 through SqrtFloatImpl and every f16 through
 * SqrtPrecisionImpl (pto-isa include/pto/npu/a5/custom/TSqrtHp.hpp), step by step, against
 * sqrtf (f16: sqrtf of the f16 value rounded to f16, exact for sqrt as 24 >= 2 * 11 + 2);
 * NaN equal to any NaN. Prints the count of inputs whose bits differ.
 *   cc -O2 -std=c11 -Isrc -Iinclude scripts/exhaustive_sqrt_hp.c build/libptosim.a -lm -o /tmp/sq && /tmp/sq */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/dtype.h"

static uint32_t bits(float x) {
  uint32_t u;
  memcpy(&u, &x, 4);
  return u;
}
static float of(uint32_t u) {
  float x;
  memcpy(&x, &u, 4);
  return x;
}
static int same(float a, float b) { return isnan(a) ? isnan(b) : bits(a) == bits(b); }
static float h16(float x) { return pt_f16_to_f32(pt_f32_to_f16(x, PT_RND_RINT, PT_SAT_OFF)); }

/* SqrtFloatImpl, one lane (TSqrtHp.hpp lines 62-91). */
static float sqrt_hp_f32(float x) {
  int small = x < 1.0f;
  float s = small ? x * 16777216.0f : x;        /* 2^24 */
  float r = 1.0f / sqrtf(s);                    /* vsqrt, vdiv */
  float e = fmaf(r * s, r * -1.0f, 1.0f);       /* vmula: 1 - (r s) r */
  r = fmaf(e, r * 0.5f, r);                     /* vmula: r + e r / 2 */
  float q = r * s;                              /* vmul: the root */
  float d = fmaf(q, q * -1.0f, s);              /* vmula: s - q q */
  float t = fmaf(r * 0.5f, d, q);               /* vmadd: (r / 2) d + q */
  t = small ? t * 0.000244140625f : t;          /* 2^-12 */
  uint32_t u = bits(s);
  return u == 0x7f800000u || (u | 0x80000000u) == 0x80000000u ? s : t; /* +inf, +-0: the source */
}

/* SqrtPrecisionImpl, one f16 lane (lines 29-34): below the largest subnormal scaled by 2^12,
 * the root scaled by 2^-6, every step rounded to f16. */
static float sqrt_hp_f16(float x) {
  int small = x < 0x1.ff8p-15f;
  float s = small ? h16(x * 4096.0f) : x;
  float t = h16(sqrtf(s));
  return small ? h16(t * 0x1p-6f) : t;
}

int main(void) {
  uint64_t bad32 = 0, bad16 = 0;
  for (uint64_t u = 0; u <= 0xFFFFFFFFu; u++) {
    float x = of((uint32_t)u);
    if (!same(sqrt_hp_f32(x), sqrtf(x)) && bad32++ < 5) printf("f32 %08x: %a, sqrtf %a\n", (unsigned)u, sqrt_hp_f32(x), sqrtf(x));
  }
  for (uint32_t u = 0; u <= 0xFFFFu; u++) {
    float x = pt_f16_to_f32((uint16_t)u);
    if (!same(sqrt_hp_f16(x), h16(sqrtf(x))) && bad16++ < 5) printf("f16 %04x: %a, sqrt %a\n", (unsigned)u, sqrt_hp_f16(x), h16(sqrtf(x)));
  }
  printf("SqrtFloatImpl: %llu of 2^32 f32 differ from sqrtf; SqrtPrecisionImpl: %llu of 2^16 f16 differ\n",
         (unsigned long long)bad32, (unsigned long long)bad16);
  return bad32 || bad16;
}
