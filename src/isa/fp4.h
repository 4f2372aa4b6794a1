/* fp4 codes (!pto.f4E1M2x2 / !pto.f4E2M1x2 hold two a byte): shared by vcvt (vec_conv.c) and
 * tcvt (tile_cvt.c). */
#ifndef PT_ISA_FP4_H
#define PT_ISA_FP4_H

#include <math.h>
#include <stdint.h>

#include "core/dtype.h"

/* ---- fp4: two codes per byte, low nibble first; code = sign (bit 3) and magnitude index
 * m (bits 0-2) into the format's 8 magnitudes (no inf, no NaN). e1m2: m/4 for m < 4, else
 * 1 + (m-4)/4; e2m1: 0, 0.5, 1, 1.5, 2, 3, 4, 6. */

static const float pt_f4e1m2_mag[8] = {0.0f, 0.25f, 0.5f, 0.75f, 1.0f, 1.25f, 1.5f, 1.75f};
static const float pt_f4e2m1_mag[8] = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f};

/* bf16 bits of 4-bit code v (exact). */
static inline uint16_t f4_to_bf16(const float *mag, unsigned v) {
  return pt_f32_to_bf16(v & 8 ? -mag[v & 7] : mag[v & 7], PT_RND_RINT, PT_SAT_OFF);
}

/* 4-bit code of x rounded with r onto the magnitudes (ties to even: the even index); beyond
 * the largest magnitude (inf too) it saturates; NaN -> 0. Differences of neighbours are exact. */
static inline unsigned f4_from_f32(const float *mag, float x, pt_round r) {
  if (isnan(x)) return 0;
  unsigned neg = signbit(x) ? 8u : 0u, j = 7;
  float a = fabsf(x);
  while (mag[j] > a) j--; /* mag[j] <= a < mag[j + 1] */
  if (j == 7 || mag[j] == a) return neg | j;
  float below = a - mag[j], above = mag[j + 1] - a;
  unsigned up;
  switch (r) {
    case PT_RND_AWAY: up = above <= below; break;
    case PT_RND_FLOOR: up = neg != 0; break;
    case PT_RND_CEIL: up = neg == 0; break;
    case PT_RND_TRUNC: up = 0; break;
    case PT_RND_ODD: up = (j & 1) == 0; break;
    default: up = above < below || (above == below && (j & 1)); break;
  }
  return neg | (j + up);
}

/* The magnitudes of fp4 type t (NULL: not an fp4 type). */
static inline const float *f4_mags(ptosim_dtype t) {
  return t == PTOSIM_DT_F4E1M2X2 ? pt_f4e1m2_mag : t == PTOSIM_DT_F4E2M1X2 ? pt_f4e2m1_mag : NULL;
}

#endif
