/* What the elementwise tile families (tile_elem.c, tile_cvt.c) share: the operand checks of
 * a vector tile op and the row walk over the destination's valid region.
 *
 * Every tile of these ops is a vec (UB) tile, row-major none_box (ND: element (r, c) at
 * addr + (r * cols + c) * es; pto-isa NPU implementations static_assert isRowMajor and
 * address rows by RowStride = cols); texpands also fills col-major (DN) tiles. Rules, with <op> the op's spelling without "pto.":
 *   <op>.space   a tile is not in UB
 *   <op>.layout  a tile is not row_major none_box
 *   <op>.dtype   an element type the op does not take on this target, or operand types differ
 *   <op>.valid   a source's valid region differs from dst's (pto-isa asserts equality)
 *   <op>.zero, <op>.overflow  (integer tdiv tdivs tfmod tfmods trem trems, at run time) a lane
 *                divides by zero, or a signed minimum by -1, where the NPU leaves it undefined
 *   <op>.cols64  (A5 64-bit tdiv tdivs trem trems) more than 64 valid columns: the NPU's
 *                64-bit division computes the first 64 of each row only
 * plus the tile.* rules of tile_check.h (the layout family's box and line rules). */
#ifndef PT_TILE_ELEM_H
#define PT_TILE_ELEM_H

#include <stdint.h>

#include <string.h>

#include "isa/tile_check.h"
#include "isa/vec_lanes.h"

/* Bit of dtype t in a set of element types. */
#define TE_BIT(t) (1u << (t))

/* Check tile t (named `what`) of op `name`: tile rules, UB, ND. */
ptosim_status pt_te_tile(pt_ctx *x, const char *name, const char *what, const ptosim_tile *t);

/* Element type t is in set[target] (bits TE_BIT) of op `name`; `what` names the operand. */
ptosim_status pt_te_dtype(pt_ctx *x, const char *name, const char *what, ptosim_dtype t, const uint32_t set[2]);

/* Source s has dst's valid region. */
ptosim_status pt_te_valid(pt_ctx *x, const char *name, const char *what, const ptosim_tile *s, const ptosim_tile *d);

/* Host byte of row 0 of the valid region of tile t (vr x vc elements of dst's valid region),
 * recorded as an access acc through the accessor layer; *stride = bytes between rows. */
ptosim_status pt_te_rows(pt_ctx *x, const ptosim_tile *t, int64_t vr, int64_t vc, pt_access acc, uint8_t **out,
                         int64_t *stride);

/* When source bytes [sp, vr rows) overlap the destination rows other than element for
 * element in place, copy them to the heap (*copy owns it; free after use) and point *sp at
 * the copy, so the result is that of reading every source element before writing. */
ptosim_status pt_te_stage(pt_ctx *x, const ptosim_tile *s, const ptosim_tile *d, int64_t vr, int64_t vc,
                          const uint8_t **sp, uint8_t **copy);

/* Integer division lanes no source defines (docs/spec-notes.md 14.8): PT_TE_IDIV_BAD is 1 when
 * divisor y of kind K is 0, 2 when OVF (the division overflows at this width) and K is signed
 * and x / y is K's minimum over -1, else 0. The guards built on it return 2 i + (bad > 1) for
 * the first undefined lane i of a row, -1 when there is none. */
#define PT_TE_IMIN(K) ((pt_vl_c_##K)((pt_vl_u_##K)1 << (PT_VL_E_##K * 8 - 1)))
#define PT_TE_IDIV_BAD(K, x, y, OVF)                                                         \
  ((unsigned)((y) == 0) |                                                                    \
   2u * ((unsigned)(OVF) & (unsigned)PT_VL_S_##K & (unsigned)((x) == PT_TE_IMIN(K)) & (unsigned)((y) == (pt_vl_c_##K)-1)))
/* Fail op `name` for the undefined lane a guard found (k = 2 i + o) in row r of element type t:
 * `<op>.overflow` (o = 1, MIN / -1) or `<op>.zero` (o = 0). */
ptosim_status pt_te_idiv_undefined(pt_ctx *x, const char *name, ptosim_dtype t, int64_t r, int64_t k);

/* TE_CLONES before a row loop compiles it also for AVX2 and AVX-512 hosts (x86-64-v3 / v4),
 * chosen once at load time (gcc function multiversioning, ELF ifuncs). The same C gives the
 * same values: the library is built as ISO C (-std=c11), where gcc contracts no a * b + c
 * into a fused multiply-add (-ffp-contract=off), and the loops' float steps are IEEE
 * operations. Not with clang, which contracts within expressions by default (also those of
 * the inlined lane helpers) once the target has FMA. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__linux__)
#define TE_CLONES __attribute__((target_clones("default", "arch=x86-64-v3", "arch=x86-64-v4")))
#else
#define TE_CLONES
#endif

/* ---- element access on host bytes ------------------------------------------------------- */

/* One row of an op: n elements; d the destination, a b c the tile sources, s the scalar
 * converted to the element type (pt_te_scalar_of). */
typedef union te_scalar {
  float f;   /* float element types: the scalar rounded to the element type */
  int64_t i; /* integer element types: the value, wrapped to the width by the loop */
} te_scalar;

typedef struct te_row {
  uint8_t *d;
  const uint8_t *a, *b, *c;
  int64_t n;
  te_scalar s;
} te_row;

typedef void (*te_fn)(const te_row *g);

#define TE_INT_IO(K)                                                                         \
  static inline pt_vl_c_##K te_ld_##K(const uint8_t *p, int64_t i) {                         \
    pt_vl_c_##K v;                                                                           \
    memcpy(&v, p + i * (int64_t)sizeof v, sizeof v);                                        \
    return v;                                                                                \
  }                                                                                          \
  static inline void te_st_##K(uint8_t *p, int64_t i, pt_vl_c_##K v) {                       \
    memcpy(p + i * (int64_t)sizeof v, &v, sizeof v);                                        \
  }                                                                                          \
  static inline pt_vl_c_##K te_s_##K(const te_row *g) { return (pt_vl_c_##K)(pt_vl_u_##K)(uint64_t)g->s.i; } \
  static inline pt_vl_c_##K te_rnd_##K(pt_vl_c_##K x) { return x; }

/* NaN test on the bits: an integer compare, which vectorizes (isnan's unordered compare
 * becomes a branch). */
static inline int te_isnan(float x) { return (pt_vl_f32_bits(x) & 0x7FFFFFFFu) > 0x7F800000u; }

/* Float kinds: storage U, compute float, NaN stored as the type's positive quiet NaN. */
#define TE_FLOAT_IO(K, U, QNAN, TO_F, FROM_F)                                                \
  static inline float te_ld_##K(const uint8_t *p, int64_t i) {                               \
    U v;                                                                                     \
    memcpy(&v, p + i * (int64_t)sizeof v, sizeof v);                                        \
    return TO_F(v);                                                                          \
  }                                                                                          \
  static inline void te_st_##K(uint8_t *p, int64_t i, float x) {                             \
    U v = (U)pt_vl_sel((uint32_t)te_isnan(x), QNAN, FROM_F(x));                              \
    memcpy(p + i * (int64_t)sizeof v, &v, sizeof v);                                        \
  }                                                                                          \
  static inline float te_s_##K(const te_row *g) { return g->s.f; }                          \
  static inline float te_rnd_##K(float x) {                                                  \
    return pt_vl_f32_of(pt_vl_sel((uint32_t)te_isnan(x), pt_vl_f32_bits(x), pt_vl_f32_bits(TO_F((U)FROM_F(x))))); \
  }

TE_INT_IO(i8) TE_INT_IO(u8) TE_INT_IO(i16) TE_INT_IO(u16) TE_INT_IO(i32) TE_INT_IO(u32) TE_INT_IO(i64) TE_INT_IO(u64)
TE_FLOAT_IO(f32, uint32_t, 0x7FC00000u, pt_vl_f32_of, pt_vl_f32_bits)
TE_FLOAT_IO(f16, uint16_t, 0x7E00u, pt_vl_f16_to_f32, pt_vl_to_f16)
TE_FLOAT_IO(bf16, uint16_t, 0x7FC0u, pt_vl_bf16_to_f32, pt_vl_to_bf16)

/* n f16 elements at p to floats (exact), n f32 elements at in to f16 at p (nearest even,
 * NaN 0x7E00): the values of te_ld_f16 / te_st_f16, whole rows at once (F16C where the
 * host has it). */
void pt_te_f16_to_f32(const uint8_t *p, int64_t n, float *out);
void pt_te_f32_to_f16(const uint8_t *in, int64_t n, uint8_t *p);

/* texp on n f32 elements at a into d (d may be a): e^x correctly rounded per element, NaN as
 * 0x7FC00000, by the best build of the row loop the host runs. pt_te_exp_f32_build runs
 * build b (PT_TE_EXP_PORTABLE, _AVX2, _AVX512) instead and returns false, doing nothing,
 * when the host lacks it; for scripts/exhaustive_tile_elem.c and the tests. */
enum { PT_TE_EXP_PORTABLE, PT_TE_EXP_AVX2, PT_TE_EXP_AVX512, PT_TE_EXP_BUILDS };
void pt_te_exp_f32(const uint8_t *a, int64_t n, uint8_t *d);
bool pt_te_exp_f32_build(int b, const uint8_t *a, int64_t n, uint8_t *d);

/* a5 HIGH_PRECISION division of a by b on one lane (pto-isa custom/Div754.hpp): DivIEEE754FloatImpl
 * (f32), DivIEEE754HalfImpl (f16: a, b and the result f16 values held in floats), and
 * DivDiffCompensationFloatImpl (tdiv f32). NaN results are NaN. docs/spec-notes.md section 33. */
float pt_te_div754_f32(float a, float b);
float pt_te_div754_f16(float a, float b);
float pt_te_divcomp_f32(float a, float b);
/* a5 HIGH_PRECISION tfmod / trem of a by b on one f32 lane (custom/TFmodRemHp.hpp TFmodRemHP). */
float pt_te_fmodhp_f32(float a, float b);
float pt_te_remhp_f32(float a, float b);
/* Scalar s as the element type t computes with it: float types get its value rounded to t
 * (the scalar register holds a t), integer types its integer value (floats truncated). */
te_scalar pt_te_scalar_of(ptosim_scalar s, ptosim_dtype t);

#endif
