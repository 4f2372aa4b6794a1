/* The FIXPIPE conversion pipeline of pto.mte_l0c_* (spec: vpto docs/isa/micro-isa/16-cube-matmul.md,
 * "FIXPIPE Common Clauses"). Per accumulator element x (f32 or i32) of output channel n:
 *
 *   y = pre_quant(x)       scale / offset from a scalar payload or per channel from fb
 *   y = pre_relu(y)        no_relu | normal_relu | scalar_relu alpha | vector_relu alpha[n]
 *   y = min(y, clip)       optional
 *   out = convert(y)       destination type, sat / sat(preserve_nan) / nosat
 *
 * All arithmetic is f32 with round-to-nearest-even (an i32 accumulator is first converted to
 * f32), except the plain i32 -> i32 store, which stays integer. */
#ifndef PT_FIXPIPE_QUANT_H
#define PT_FIXPIPE_QUANT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/dtype.h"
#include "ptosim/ops.h"

/* What pre_quant computes. */
typedef enum pt_fq_kind {
  PT_FQ_NONE,          /* y = x (f32_f16 / f32_bf16 narrow only in the final conversion) */
  PT_FQ_SCALE,         /* y = x * scale */
  PT_FQ_SCALE_OFS,     /* y = x * scale + offset */
  PT_FQ_F16_SCALE_OFS  /* y = f16(x) * scale + offset (the qf162* "f16-domain pre-stage") */
} pt_fq_kind;

/* Range of an integer destination; floats use the dtype conversion. */
typedef enum pt_fq_narrow {
  PT_FQ_FLOAT,
  PT_FQ_B8,  /* [-128, 127] if the sign control is set, else [0, 255] */
  PT_FQ_B4,  /* [-8, 7] if the sign control is set, else [0, 15] */
  PT_FQ_S4,  /* [-8, 7] */
  PT_FQ_S16, /* [-32768, 32767] */
  PT_FQ_S32  /* [-2^31, 2^31 - 1] */
} pt_fq_narrow;

/* One row of the pre_quant mode table. */
typedef struct pt_fq_mode {
  const char *name;     /* clause spelling */
  ptosim_dtype acc;     /* accumulator type consumed; NONE for "no pre_quant" (f32 or i32) */
  ptosim_dtype dst[2];  /* accepted destination types (PTOSIM_DT_NONE = unused slot) */
  pt_fq_kind kind;
  pt_fq_narrow narrow;
  bool vec;             /* per-channel parameters from fb (the *_vec modes) */
  bool stochastic;      /* hif8 hybrid rounding: stochastic, not reproducible */
} pt_fq_mode;

/* The table row of a mode; NULL when q is out of range. */
const pt_fq_mode *pt_fq_mode_of(ptosim_quant_mode q);

/* One quantization parameter set. */
typedef struct pt_fq_param {
  float scale;
  float offset;
  bool sign; /* signed 8/4-bit result */
} pt_fq_param;

/* Decode a 64-bit FIXPIPE parameter word (one per channel in fb, 8 bytes, 16 per 128 B row):
 * scale M1 = bits [31:13] (an f32 with its 13 low mantissa bits dropped), offset = bits
 * [45:37] as a signed 9-bit integer, sign control = bit 46. */
pt_fq_param pt_fq_decode(uint64_t word);

typedef struct pt_fq_conv pt_fq_conv;

/* f32 -> f16 of n accumulator columns walked as a run (see pt_fq_run_fn). */
typedef void (*pt_fq_f16_fn)(const uint8_t *src, int64_t blk, uint8_t *out, int n, pt_sat sat);

/* Convert cnt accumulator elements of consecutive columns (channels ch .. ch + cnt - 1) into
 * cnt destination elements packed at out (I4: one byte per element, code in the low nibble).
 * The columns run along one accumulator fractal row from src (4 bytes each) and continue at
 * the same row of the next 16-column block, blk bytes further; a run longer than the rest
 * of its fractal row starts at column 0 of the row. */
typedef void (*pt_fq_run_fn)(const pt_fq_conv *cv, const uint8_t *src, int64_t blk, int64_t ch, int cnt,
                             uint8_t *out);

struct pt_fq_conv {
  const pt_fq_mode *mode;
  ptosim_dtype acc, dst;
  pt_sat sat;
  pt_fq_param q;         /* scalar parameters (scalar modes) */
  const uint8_t *qvec;   /* vector modes: fb bytes, parameter word of channel n at 8 * n */
  ptosim_relu_mode relu;
  float alpha;           /* scalar_relu */
  const uint8_t *avec;   /* vector_relu: fb bytes, f32 alpha of channel n at 4 * n */
  bool has_clip;
  float clip;
  pt_fq_run_fn run;      /* set by pt_fq_select */
  pt_fq_f16_fn f16;      /* the f32 -> f16 kernel of the plain f16 store */
};

/* f32 -> f16 (nearest even, saturation sat) of n accumulator columns walked as a run (see
 * pt_fq_run_fn) into n packed f16 at out: the results of pt_f32_to_f16. simd: use the host's
 * vector kernel (x86-64 F16C) when it has one; returns whether it ran. The store without
 * pre_quant uses it; tests compare both kernels with pt_f32_to_f16. */
bool pt_fq_f16(const uint8_t *src, int64_t blk, uint8_t *out, int n, pt_sat sat, bool simd);

/* Pick the converter for cv (specialized copies for the plain f32/i32 store and f32 -> f16). */
void pt_fq_select(pt_fq_conv *cv);

/* GM atomic read-modify-write of one element of type t at mem with the value at v (fixpipe.c;
 * also the MTE3 atomics of the tile stores). */
void pt_fq_atomic(ptosim_dtype t, ptosim_atomic_op op, uint8_t *mem, const uint8_t *v);

struct pt_ctx;
/* pto.mte_l0c_gm whose scalar pre_quant parameters are qword (decoded from a whole QUANT_PRE
 * word: scale, offset, sign) instead of the clause's f32 payload; NULL = the payload
 * (fixpipe.c; TSTORE(dst, acc, preQuantScalar) of src/isa/tile_move.c). */
ptosim_status pt_fixpipe_gm(struct pt_ctx *x, const ptosim_fixpipe_params *p, const pt_fq_param *qword);

#endif
