/* Element types and exact conversions between them.
 * Rounding defaults to round-to-nearest-even; saturation only where an op asks for it. */
#ifndef PT_DTYPE_H
#define PT_DTYPE_H

#include <stdbool.h>
#include <stdint.h>

#include "ptosim/types.h"

/* Rounding modes (the vcvt / FIXPIPE families name these). */
typedef enum pt_round {
  PT_RND_RINT = 0, /* nearest, ties to even (default) */
  PT_RND_AWAY,     /* nearest, ties away from zero */
  PT_RND_FLOOR,    /* toward -inf */
  PT_RND_CEIL,     /* toward +inf */
  PT_RND_TRUNC,    /* toward zero */
  PT_RND_ODD       /* round to odd (sticky) */
} pt_round;

/* Saturation of float -> narrower float conversions.
 * PT_SAT_OFF:      IEEE: overflow -> inf (or NaN for formats without inf), NaN stays NaN.
 * PT_SAT_ON:       finite overflow and +/-inf clamp to +/-max finite; NaN -> 0.
 * PT_SAT_KEEPNAN:  as PT_SAT_ON but NaN stays NaN where the format has a NaN. */
typedef enum pt_sat { PT_SAT_OFF = 0, PT_SAT_ON, PT_SAT_KEEPNAN } pt_sat;

/* Per element type: MLIR spelling, size in bits, float, signed integer (core/dtype.c). */
typedef struct pt_dtype_info {
  const char *name;
  unsigned bits;
  bool is_float;
  bool is_signed_int;
} pt_dtype_info;
extern const pt_dtype_info pt_dtype_table[PTOSIM_DT_COUNT];
static inline const pt_dtype_info *pt_dtype_info_of(ptosim_dtype t) {
  return pt_dtype_table + ((unsigned)t < (unsigned)PTOSIM_DT_COUNT ? t : PTOSIM_DT_NONE);
}
/* Size in bits of one element (4 for I4; 0 for NONE and unknown values). */
static inline unsigned pt_dtype_bits(ptosim_dtype t) { return pt_dtype_info_of(t)->bits; }
/* Size in bytes of one element; 0 for I4 (sub-byte) and NONE. */
static inline unsigned pt_dtype_size(ptosim_dtype t) {
  unsigned b = pt_dtype_bits(t);
  return b >= 8 ? b / 8 : 0;
}
/* MLIR spelling: "i8" "ui8" "i16" "ui16" "i32" "ui32" "i64" "ui64" "f16" "bf16" "f32"
 * "f8E4M3FN" "f8E5M2" "hif8" "f8E8M0FNU" "i4", and of the storage types "f64" "f4E1M2x2"
 * "f4E2M1x2" "hif8x2" "bf16x2" (the !pto types without the prefix) "vector<2xf16>"
 * "vector<2xbf16>"; "none" for NONE and unknown values. */
static inline const char *pt_dtype_name(ptosim_dtype t) { return pt_dtype_info_of(t)->name; }
static inline bool pt_dtype_is_float(ptosim_dtype t) { return pt_dtype_info_of(t)->is_float; }
static inline bool pt_dtype_is_signed_int(ptosim_dtype t) { return pt_dtype_info_of(t)->is_signed_int; }
/* Parse an MLIR element type spelling (also accepts "si8", "u8" style aliases);
 * returns PTOSIM_DT_NONE when unknown. */
ptosim_dtype pt_dtype_parse(const char *s, unsigned len);

/* 16-bit floats. */
uint16_t pt_f32_to_f16(float x, pt_round r, pt_sat s);
float pt_f16_to_f32(uint16_t h);
uint16_t pt_f32_to_bf16(float x, pt_round r, pt_sat s);
float pt_bf16_to_f32(uint16_t b);

/* 8-bit floats (t is F8E4M3, F8E5M2, HIF8 or F8E8M0). */
uint8_t pt_f32_to_f8(ptosim_dtype t, float x, pt_round r, pt_sat s);
float pt_f8_to_f32(ptosim_dtype t, uint8_t v);

/* float -> integer with rounding r, saturating to [lo, hi]; NaN -> 0. */
int64_t pt_f32_to_int(float x, pt_round r, int64_t lo, int64_t hi);
/* Largest / smallest value of an integer dtype. */
int64_t pt_int_min(ptosim_dtype t);
int64_t pt_int_max(ptosim_dtype t);

/* Read integer element 0 at p (I8..U64; I4 from the low nibble), sign- or zero-extended
 * to 64 bits as its type says (U64 keeps its bit pattern). */
int64_t pt_load_int(ptosim_dtype t, const void *p);

/* Read element 0 at p as a float (exact for every float type and for integers up to 2^24). */
float pt_load_as_f32(ptosim_dtype t, const void *p);
/* Convert float x to type t (rounding r, saturation s; integers saturate) and store at p. */
void pt_store_from_f32(ptosim_dtype t, void *p, float x, pt_round r, pt_sat s);

#endif
