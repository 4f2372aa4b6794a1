/* Tile reduce and expand family (src/isa/ops.def "tile reduce and expand" rows): row and
 * column reductions, tpairreducesum, row and column broadcasts with their binary forms.
 *
 * Tiles are vec (UB) tiles, none_box. Element (r, c) of a row-major tile is at
 * addr + (r * cols + c) * es, of a column-major (DN) one at addr + (c * rows + r) * es.
 * Each operand is one strided region (its valid rows, or for a DN vector its valid column)
 * reached through the accessor layer once per op; the loops run on the host pointers.
 *
 * Arithmetic per element type kind (vec_lanes.h): integers wrap, f32 in float, f16 / bf16
 * in float rounded to the type after every operation (the vector unit computes them in
 * their own precision; f32 has >= 2p + 2 bits, so one rounding of the float result is the
 * correctly rounded 16-bit result for + - * /). max / min: NaN if either is NaN, -0 < +0.
 * Orders of evaluation (docs/spec-notes.md section 17); vc(v) is the tree of a reduction
 * instruction (vcadd / vcmax / vcmin) over the E = 256 / es lanes v of one repeat, adjacent
 * pairs combined level by level, lanes past the data the identity id:
 *   row reduce, A5:    acc = id, then acc = acc . vc(repeat k) for each repeat in turn
 *                      (pto-isa include/pto/npu/a5/TRowReduce.hpp); on x86 hosts f32 / f16
 *                      sums with AVX-512 (trees_K: 16 repeats at a time), max and min with
 *                      AVX2 + F16C (op_chains_K_X: repeats side by side in SIMD lanes; their
 *                      order does not change a maximum);
 *   row reduce, A2/A3: lane j of a 256-byte accumulator folds x_j, x_{j+E}, x_{j+2E}, ...
 *                      (vadd of each repeat into tmp), the result is vc(lanes) (a2a3
 *                      TRowReduceOps.hpp); the lanes in SIMD vectors (op_lanes_K_X), then
 *                      sums as trees_K, max and min folded across 16 rows side by side;
 *   row product:       A5 lane products of the repeats, then lane i times lane i + w for
 *                      w = E/2 .. 1 (TRowProd.hpp vintlv / vmul); A2/A3 lane products of the
 *                      32-byte blocks, then the scalar unit's t_0 * t_1 * ... in float;
 *   column reduce:     A2/A3 x_0 . x_1 . x_2 ... down the column (a2a3 TColReduceOps.hpp),
 *                      A5 x_0 . (x_1 . x_2) . (x_3 . x_4) ... (a5 TColReduceOps.hpp);
 *                      f32 / f16 sum, max, min with AVX2 + F16C: 8 columns a vector, with
 *                      AVX-512: 16 (op_cols_K_X);
 *                      tcolsum binary: pairs (x_0 + x_1), (x_2 + x_3), ..., an odd last row
 *                      added to pair 0 (A2/A3, a2a3 TColSum.hpp BinarySum) or to the last
 *                      pair (A5, a5 TColSum.hpp), then the same on the pairs until one is left. */
#include <inttypes.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "isa/exp_f32.h"
#include "isa/tile_bcast.h"
#include "isa/tile_elem.h"
#include "isa/vec_lanes.h"

/* ---- element access and arithmetic per kind K ----------------------------------------- */

static inline uint32_t canon_f32(float x) { return isnan(x) ? 0x7FC00000u : pt_vl_f32_bits(x); }
static inline uint16_t canon_f16(float x) { return isnan(x) ? 0x7E00u : pt_vl_to_f16(x); }
static inline uint16_t canon_bf16(float x) { return isnan(x) ? 0x7FC0u : pt_vl_to_bf16(x); }
/* x rounded to kind K (identity for f32 and the integers). */
static inline float rnd_f32(float x) { return x; }
static inline float rnd_f16(float x) { return isnan(x) ? x : pt_vl_f16_to_f32(pt_vl_to_f16(x)); }
static inline float rnd_bf16(float x) { return isnan(x) ? x : pt_vl_bf16_to_f32(pt_vl_to_bf16(x)); }

/* ld_K(p, i) / st_K(p, i, v): element i of an array of K at host byte p. */
#define KIND_IO(K, TO_C, FROM_C)                                                          \
  static inline pt_vl_c_##K ld_##K(const uint8_t *p, int64_t i) {                       \
    pt_vl_u_##K v;                                                                        \
    memcpy(&v, p + i * (int64_t)sizeof v, sizeof v);                                      \
    return TO_C(v);                                                                       \
  }                                                                                       \
  static inline void st_##K(uint8_t *p, int64_t i, pt_vl_c_##K x) {                      \
    pt_vl_u_##K v = FROM_C(x);                                                            \
    memcpy(p + i * (int64_t)sizeof v, &v, sizeof v);                                      \
  }
#define AS_INT(v) (v)
KIND_IO(f32, pt_vl_f32_of, canon_f32)
KIND_IO(f16, pt_vl_f16_to_f32, canon_f16)
KIND_IO(bf16, pt_vl_bf16_to_f32, canon_bf16)
KIND_IO(i8, (int8_t), (uint8_t))
KIND_IO(u8, AS_INT, AS_INT)
KIND_IO(i16, (int16_t), (uint16_t))
KIND_IO(u16, AS_INT, AS_INT)
KIND_IO(i32, (int32_t), (uint32_t))
KIND_IO(u32, AS_INT, AS_INT)
KIND_IO(i64, (int64_t), (uint64_t))
KIND_IO(u64, AS_INT, AS_INT)

/* Formulas F(K, x, y); the _F forms for the float kinds, _I for the integers. */
#define ADD_F(K, x, y) rnd_##K((x) + (y))
#define SUB_F(K, x, y) rnd_##K((x) - (y))
#define MUL_F(K, x, y) rnd_##K((x) * (y))
#define DIV_F(K, x, y) rnd_##K((x) / (y))
#define MAX_F(K, x, y) pt_vl_fmax(x, y)
#define MIN_F(K, x, y) pt_vl_fmin(x, y)
#define EXPDIF_F(K, x, y) rnd_##K(pt_exp_f32(rnd_##K((x) - (y)))) /* vsub, then vexp */
#define ADD_I(K, x, y) PT_VL_WRAP(K, x, +, y)
#define SUB_I(K, x, y) PT_VL_WRAP(K, x, -, y)
#define MUL_I(K, x, y) PT_VL_WRAP(K, x, *, y)
#define MAX_I(K, x, y) ((x) > (y) ? (x) : (y))
#define MIN_I(K, x, y) ((x) < (y) ? (x) : (y))
#define FIRST(K, x, y) ((void)(y), (x))

/* Identities (the accumulator start of the row reductions: pto-isa Padding Zero / Min / Max). */
#define ID_SUM(K) ((pt_vl_c_##K)0)
#define ID_MUL(K) ((pt_vl_c_##K)1)
#define ID_MAXF(K) (-INFINITY)
#define ID_MINF(K) (INFINITY)
#define ID_MAXI(K) ((pt_vl_c_##K)(PT_VL_S_##K ? -(pt_vl_c_##K)((pt_vl_u_##K)-1 >> 1) - 1 : 0))
#define ID_MINI(K) ((pt_vl_c_##K)(PT_VL_S_##K ? (pt_vl_c_##K)((pt_vl_u_##K)-1 >> 1) : (pt_vl_u_##K)-1))

/* Apply M(op, K, F, ID) to the kinds of a group. */
#define FLOATS(M, op, F, ID) M(op, f16, F, ID) M(op, bf16, F, ID) M(op, f32, F, ID)
#define INTS(M, op, F, ID) M(op, i8, F, ID) M(op, i16, F, ID) M(op, i32, F, ID)
#define UINTS(M, op, F, ID) M(op, u8, F, ID) M(op, u16, F, ID) M(op, u32, F, ID)
#define INTS64(M, op, F, ID) M(op, i64, F, ID) M(op, u64, F, ID)
/* Every integer kind: signed and unsigned, 8 to 64 bits. */
#define ALL_INTS(M, op, F, ID) INTS(M, op, F, ID) UINTS(M, op, F, ID) INTS64(M, op, F, ID)
#define ENTRY(op, K, F, ID) [PT_VL_DT_##K] = op##_##K,

/* ---- kernels ---------------------------------------------------------------------------- */

/* Reduce n elements of s, `stride` elements apart, into element 0 of d. */
typedef void (*red_fn)(uint8_t *d, const uint8_t *s, int64_t n, int64_t stride, void *scratch);
typedef struct red_loops {
  red_fn a5, a2a3, col, col_a5, tree, tree_a5; /* row orders per target, column orders per target, */
} red_loops;                                   /* tcolsum binary per target */

/* The vcadd / vcmax / vcmin of one repeat, in place on its E lanes v (an inactive lane holds
 * the identity id): adjacent pairs combined level by level, ((v_0 . v_1) . (v_2 . v_3)) . ...,
 * the vector unit's tree (pto-isa docs/isa/vector/reduction-ops.md; as vec_reduce.c). */
#define VC_TREE(op, K, F, ID)                                                           \
  static pt_vl_c_##K op##_vc_##K(pt_vl_c_##K *v) {                                        \
    for (int w = PTOSIM_VREG_BYTES / PT_VL_E_##K / 2; w >= 1; w /= 2)                     \
      for (int i = 0; i < w; i++) v[i] = F(K, v[2 * i], v[2 * i + 1]);                  \
    return v[0];                                                                          \
  }
/* The A5 row order: acc = id, then acc = acc . vc(repeat k) for each 256-byte repeat in turn
 * (the last one's lanes past the row inactive). */
#define ROW_A5(op, K, F, ID)                                                            \
  static void op##_a5_##K(uint8_t *d, const uint8_t *s, int64_t n, int64_t stride, void *scratch) { \
    (void)stride, (void)scratch;                                                          \
    enum { E = PTOSIM_VREG_BYTES / PT_VL_E_##K };                                         \
    pt_vl_c_##K acc = ID(K), v[E];                                                        \
    for (int64_t c0 = 0; c0 < n; c0 += E) {                                               \
      for (int64_t j = 0; j < E; j++) v[j] = c0 + j < n ? ld_##K(s, c0 + j) : ID(K);      \
      acc = F(K, acc, op##_vc_##K(v));                                                    \
    }                                                                                     \
    st_##K(d, 0, acc);                                                                    \
  }
/* The A2/A3 row order (TRowReduceOps.hpp TRowReduceInstr): lane j of one repeat (in tmp)
 * folds x_j, then x_{j+E} (with two or more whole repeats), then the masked tail repeat, then
 * the whole repeats 2, 3, ... in turn; lanes past a row shorter than E inactive; the result is
 * their vc. */
#define ROW_A2(op, K, F, ID)                                                            \
  static void op##_a2a3_##K(uint8_t *d, const uint8_t *s, int64_t n, int64_t stride, void *scratch) { \
    (void)stride, (void)scratch;                                                          \
    enum { E = PTOSIM_VREG_BYTES / PT_VL_E_##K };                                         \
    pt_vl_c_##K t[E];                                                                     \
    int64_t whole = n / E;                                                                \
    for (int64_t j = 0; j < E; j++) t[j] = j < n ? ld_##K(s, j) : ID(K);                  \
    for (int64_t j = 0; whole >= 2 && j < E; j++) t[j] = F(K, t[j], ld_##K(s, E + j));     \
    for (int64_t j = 0; whole >= 1 && j < n % E; j++) t[j] = F(K, t[j], ld_##K(s, whole * E + j)); \
    for (int64_t c = 2 * E; c < whole * E; c++) t[c % E] = F(K, t[c % E], ld_##K(s, c));  \
    st_##K(d, 0, op##_vc_##K(t));                                                         \
  }
/* TROWPROD, A5 (TRowProd.hpp): lane j of one repeat folds 1 . x_j . x_{j+E} ... (vmul, merging),
 * then log2(E) vintlv + vmul steps multiply lane i by lane i + w for w = E/2, E/4, ..., 1. */
#define PROD_A5(op, K, F, ID)                                                           \
  static void op##_a5_##K(uint8_t *d, const uint8_t *s, int64_t n, int64_t stride, void *scratch) { \
    (void)stride, (void)scratch;                                                          \
    enum { E = PTOSIM_VREG_BYTES / PT_VL_E_##K };                                         \
    pt_vl_c_##K t[E];                                                                     \
    for (int64_t j = 0; j < E; j++) t[j] = ID(K);                                         \
    for (int64_t c = 0; c < n; c++) t[c % E] = F(K, t[c % E], ld_##K(s, c));              \
    for (int w = E / 2; w >= 1; w /= 2)                                                   \
      for (int i = 0; i < w; i++) t[i] = F(K, t[i], t[i + w]);                           \
    st_##K(d, 0, t[0]);                                                                   \
  }
/* TROWPROD, A2/A3 (TRowProd.hpp): lane j of one 32-byte block folds 1 . x_j . x_{j+B} ... (vmul),
 * then the scalar unit multiplies the B lanes in turn, t_0 * t_1 * ... * t_{B-1}: in float for
 * f16 / bf16, rounded to the type once at the end (S), wrapping for integers. */
#define PROD_A2(op, K, F, ID, S)                                                         \
  static void op##_a2a3_##K(uint8_t *d, const uint8_t *s, int64_t n, int64_t stride, void *scratch) { \
    (void)stride, (void)scratch;                                                          \
    enum { B = 32 / PT_VL_E_##K };                                                        \
    pt_vl_c_##K t[B];                                                                     \
    for (int64_t j = 0; j < B; j++) t[j] = ID(K);                                         \
    for (int64_t c = 0; c < n; c++) t[c % B] = F(K, t[c % B], ld_##K(s, c));              \
    pt_vl_c_##K acc = t[0];                                                               \
    for (int64_t j = 1; j < B; j++) acc = S(K, acc, t[j]);                                \
    st_##K(d, 0, acc);                                                                    \
  }
/* Down a column: x_0 . x_1 . ... */
#define COL_SEQ(op, K, F, ID)                                                           \
  static void op##_col_##K(uint8_t *d, const uint8_t *s, int64_t n, int64_t stride, void *scratch) { \
    (void)scratch;                                                                        \
    pt_vl_c_##K acc = ld_##K(s, 0);                                                       \
    for (int64_t i = 1; i < n; i++) acc = F(K, acc, ld_##K(s, i * stride));               \
    st_##K(d, 0, acc);                                                                    \
  }
/* Down a column on A5 (a5 TColReduceOps.hpp TColReduceInstr_PostUpdate, the default version):
 * acc = x_0, then acc = acc . (x_2j+1 . x_2j+2) for each whole pair, then acc . x_(n-1) when
 * n - 1 is odd. */
#define COL_A5(op, K, F, ID)                                                            \
  static void op##_cola5_##K(uint8_t *d, const uint8_t *s, int64_t n, int64_t stride, void *scratch) { \
    (void)scratch;                                                                        \
    pt_vl_c_##K acc = ld_##K(s, 0);                                                       \
    int64_t i = 1;                                                                        \
    for (; i + 1 < n; i += 2) acc = F(K, acc, F(K, ld_##K(s, i * stride), ld_##K(s, (i + 1) * stride))); \
    if (i < n) acc = F(K, acc, ld_##K(s, i * stride));                                    \
    st_##K(d, 0, acc);                                                                    \
  }
/* tcolsum binary: the pairwise tree in scratch (n values of the compute type). Each level adds
 * the pairs (t_0 + t_1), (t_2 + t_3), ...; an odd last value goes into the first pair sum on
 * A2/A3 (a2a3 TColSum.hpp BinarySum) and into the last one on A5 (a5 TColSum.hpp
 * TColSum_Binary / TColSum_Binary_TmpProc, whose one-row case is x_0 + 0). */
#define COL_TREE(op, K, F, ID)                                                          \
  static void col_tree_##K(uint8_t *d, const uint8_t *s, int64_t n, int64_t stride, pt_vl_c_##K *t, bool a5) { \
    for (int64_t i = 0; i < n; i++) t[i] = ld_##K(s, i * stride);                         \
    if (a5 && n == 1) t[0] = F(K, t[0], (pt_vl_c_##K)0);                                  \
    for (int64_t cnt = n; cnt > 1; cnt /= 2) {                                            \
      for (int64_t i = 0; i < cnt / 2; i++) t[i] = F(K, t[2 * i], t[2 * i + 1]);          \
      int64_t into = a5 ? cnt / 2 - 1 : 0;                                                \
      if (cnt % 2) t[into] = F(K, t[into], t[cnt - 1]);                                   \
    }                                                                                     \
    st_##K(d, 0, t[0]);                                                                   \
  }                                                                                       \
  static void op##_tree_##K(uint8_t *d, const uint8_t *s, int64_t n, int64_t stride, void *scratch) { \
    col_tree_##K(d, s, n, stride, scratch, false);                                        \
  }                                                                                       \
  static void op##_tree_a5_##K(uint8_t *d, const uint8_t *s, int64_t n, int64_t stride, void *scratch) { \
    col_tree_##K(d, s, n, stride, scratch, true);                                         \
  }
#define COLS(op, K, F, ID) COL_SEQ(op, K, F, ID) COL_A5(op, K, F, ID)
#define REDUCER(op, K, F, ID) VC_TREE(op, K, F, ID) ROW_A5(op, K, F, ID) ROW_A2(op, K, F, ID) COLS(op, K, F, ID)
#define PRODUCER(op, K, F, ID, S) PROD_A5(op, K, F, ID) PROD_A2(op, K, F, ID, S) COLS(op, K, F, ID)
#define RED_ENTRY(op, K, F, ID) [PT_VL_DT_##K] = {op##_a5_##K, op##_a2a3_##K, op##_col_##K, op##_cola5_##K, NULL, NULL},

/* Every integer kind: the type lists below decide which a target takes. */
FLOATS(REDUCER, rsum, ADD_F, ID_SUM) ALL_INTS(REDUCER, rsum, ADD_I, ID_SUM)
FLOATS(REDUCER, rmax, MAX_F, ID_MAXF) ALL_INTS(REDUCER, rmax, MAX_I, ID_MAXI)
FLOATS(REDUCER, rmin, MIN_F, ID_MINF) ALL_INTS(REDUCER, rmin, MIN_I, ID_MINI)
#define MUL_FLOAT(K, x, y) ((x) * (y)) /* in float, unrounded to K */
#define PROD_F(op, K, F, ID) PRODUCER(op, K, F, ID, MUL_FLOAT)
#define PROD_I(op, K, F, ID) PRODUCER(op, K, F, ID, MUL_I)
FLOATS(PROD_F, rprod, MUL_F, ID_MUL) INTS(PROD_I, rprod, MUL_I, ID_MUL) UINTS(PROD_I, rprod, MUL_I, ID_MUL)
FLOATS(COL_TREE, rsum, ADD_F, ID_SUM) INTS(COL_TREE, rsum, ADD_I, ID_SUM) UINTS(COL_TREE, rsum, ADD_I, ID_SUM)

#define SUM_ENTRY(op, K, F, ID) \
  [PT_VL_DT_##K] = {op##_a5_##K, op##_a2a3_##K, op##_col_##K, op##_cola5_##K, op##_tree_##K, op##_tree_a5_##K},
static const red_loops k_sum[PTOSIM_DT_COUNT] = {FLOATS(SUM_ENTRY, rsum, _, _) INTS(SUM_ENTRY, rsum, _, _)
                                                     UINTS(SUM_ENTRY, rsum, _, _) INTS64(RED_ENTRY, rsum, _, _)};
static const red_loops k_max[PTOSIM_DT_COUNT] = {FLOATS(RED_ENTRY, rmax, _, _) ALL_INTS(RED_ENTRY, rmax, _, _)};
static const red_loops k_min[PTOSIM_DT_COUNT] = {FLOATS(RED_ENTRY, rmin, _, _) ALL_INTS(RED_ENTRY, rmin, _, _)};
static const red_loops k_prod[PTOSIM_DT_COUNT] = {FLOATS(RED_ENTRY, rprod, _, _) INTS(RED_ENTRY, rprod, _, _)
                                                      UINTS(RED_ENTRY, rprod, _, _)};

/* ---- A5 row order over many rows, in SIMD lanes (f32 / f16 sum, max, min) ---------------
 * The whole repeats of all rows are independent: a chains_fn computes vc of G = W * GROUPS of
 * them (the repeats at p[0, G) into out[0, G)) with the same roundings as ROW_A5, so the bits
 * are the same. op_a5_rows_K_X feeds it the repeats of rows in turn and folds each row's
 * partials and its tail repeat as ROW_A5 does. GROUPS_K_X: groups of W lanes a step (enough
 * chains side by side to cover the add's latency; more than the registers hold spill). */
typedef void (*rows_fn)(uint8_t *d, int64_t dstep, const uint8_t *s, int64_t sstep, int64_t n, int64_t len);
/* n rows of len elements (A2/A3 order) into d, rows sstep / results dstep bytes apart. */
typedef void (*a2rows_fn)(uint8_t *d, int64_t dstep, const uint8_t *s, int64_t sstep, int64_t n, int64_t len);
/* n adjacent columns of len elements, stride elements apart down each, into d[0, n), in row
 * order (COL_SEQ) or with pairs, A5's order (COL_A5). */
typedef void (*cols_fn)(uint8_t *d, const uint8_t *s, int64_t n, int64_t len, int64_t stride, bool pairs);
typedef struct red_simd {
  rows_fn a5_rows;
  a2rows_fn a2a3_rows;
  cols_fn cols;
  int t, op; /* element type (PT_VL_DT_K), operation */
} red_simd;

static _Atomic int red_cap = 4; /* pt_tile_reduce_cap_level */

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#include <immintrin.h>
/* The SIMD flavours X of the loops: 8 (AVX2 + F16C: 8 f32 lanes), 16 (AVX-512 F BW DQ VL: 16
 * f32 lanes), t (the tree sums below, AVX-512) and h (16 lanes with AVX512-FP16, for f16
 * column sums: they accumulate in f16, where vaddph rounds the exact sum of two f16 values once
 * to nearest even, as ADD_F's float sum rounded to f16 does (f32 has >= 2p + 2 bits), so no
 * conversion is left in the loop; the FP16 instructions ignore MXCSR.DAZ / FTZ, subnormals
 * stay). Per flavour: W_X lanes, TGT_X the target attribute, VF_X the f32 vector and ldf_X /
 * stf_X / set1_X on it, VA_X the accumulator vector with toa_X / froma_X (exact conversions
 * from / to f32 vectors), lda_X(p, c, es) elements c .. c + W - 1 of the row at p as VA_X,
 * tr_X the transpose (tr8). */
#define RED_AVX2 __attribute__((target("avx2,f16c")))
#define RED_AVX512 __attribute__((target("avx2,f16c,avx512f,avx512bw,avx512dq,avx512vl")))
#define RED_FP16 __attribute__((target("avx2,f16c,avx512f,avx512bw,avx512dq,avx512vl,avx512fp16")))
/* The FP16 flavour needs a compiler whose intrinsics take avx512fp16 as a target attribute
 * (gcc 12 and later; clang 14, the fuzz build's, has no __m256h there). */
#if !defined(__clang__) && __GNUC__ >= 12
#define RED_HAVE_FP16 1
#else
#define RED_HAVE_FP16 0
#endif
#define W_8 8
#define TGT_8 RED_AVX2
#define VF_8 __m256
#define VA_8 __m256
#define ldf_8 _mm256_loadu_ps
#define stf_8 _mm256_storeu_ps
#define set1_8 _mm256_set1_ps
#define toa_8(v) (v)
#define froma_8(v) (v)
#define lda_8 ld8
#define tr_8 tr8
#define trc_8 tr8
#define W_16 16
#define TGT_16 RED_AVX512
#define VA_16 __m512
#define ldf_16 _mm512_loadu_ps
#define stf_16 _mm512_storeu_ps
#define toa_16(v) (v)
#define froma_16(v) (v)
#define lda_16 ld16
#define W_h 16
#define TGT_h RED_FP16
#define VA_h __m256h
#define stf_h _mm512_storeu_ps
#define ldf_h _mm512_loadu_ps
#define toa_h _mm512_cvtxps_ph
#define froma_h _mm512_cvtxph_ps
#define lda_h ldh
#define GROUPS_f32_8 2
#define GROUPS_f16_8 4 /* f16: its add rounds through two conversions, a longer latency */
/* ADD_F of f16 with F16C: vcvtps2ph to nearest even rounds as pt_vl_to_f16; a NaN stays a NaN. */
#define ADD_F16C(K, x, y) _cvtsh_ss(_cvtss_sh((x) + (y), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC))
#define EXT_KINDS(M, X) M(rmax, f32, MAX_F, ID_MAXF, X) M(rmin, f32, MIN_F, ID_MINF, X) \
  M(rmax, f16, MAX_F, ID_MAXF, X) M(rmin, f16, MIN_F, ID_MINF, X)
#define ROWS_KINDS(M, X) M(rsum, f32, ADD_F, ID_SUM, X) M(rsum, f16, ADD_F16C, ID_SUM, X) EXT_KINDS(M, X)

#define ROWS_A5(op, K, F, ID, X)                                                        \
  TGT_##X static void op##_a5_rows_##K##_##X(uint8_t *d, int64_t dstep, const uint8_t *s, int64_t sstep, int64_t n, \
                                             int64_t len) {                               \
    enum { E = PTOSIM_VREG_BYTES / PT_VL_E_##K, G = W_##X * GROUPS_##K##_##X };           \
    int64_t nrep = len / E, total = n * nrep, r = 0, k = 0, fr = 0, fk = 0;               \
    const uint8_t *p[G];                                                                  \
    float part[G], acc = ID(K);                                                           \
    for (int64_t c0 = 0; c0 < total; c0 += G) {                                           \
      int64_t g = total - c0 < G ? total - c0 : G;                                        \
      for (int64_t i = 0; i < G; i++) { /* lanes past the last chain repeat chain 0 */    \
        p[i] = i < g ? s + r * sstep + k * PTOSIM_VREG_BYTES : p[0];                       \
        if (i < g && ++k == nrep) k = 0, r++;                                             \
      }                                                                                   \
      op##_chains_##K##_##X(p, part);                                                     \
      for (int64_t i = 0; i < g; i++) {                                                   \
        acc = F(K, fk ? acc : ID(K), part[i]);                                            \
        if (++fk < nrep) continue;                                                        \
        const uint8_t *x = s + fr * sstep;                                                \
        if (len % E) { /* the tail repeat, its lanes past the row inactive */             \
          pt_vl_c_##K v[E];                                                               \
          for (int64_t j = 0; j < E; j++) v[j] = nrep * E + j < len ? ld_##K(x, nrep * E + j) : ID(K); \
          acc = F(K, acc, op##_vc_##K(v));                                                \
        }                                                                                 \
        st_##K(d + fr * dstep, 0, acc);                                                   \
        fk = 0, fr++;                                                                     \
      }                                                                                   \
    }                                                                                     \
  }
/* Elements c .. c + 3 of the row at p as f32, from f32 or f16 (es 4 / 2; vcvtph2ps is exact). */
RED_AVX2 static inline __m128 ld4(const uint8_t *p, int64_t c, int es) {
  return es == 4 ? _mm_loadu_ps((const float *)p + c) : _mm_cvtph_ps(_mm_loadl_epi64((const __m128i *)(p + 2 * c)));
}
/* Elements c .. c + 7 / c + 15 of the row at p as f32, from f32 or f16; as f16 (es 2). */
RED_AVX2 static inline __m256 ld8(const uint8_t *p, int64_t c, int es) {
  return es == 4 ? _mm256_loadu_ps((const float *)p + c) : _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(p + 2 * c)));
}
RED_AVX512 static inline __m512 ld16(const uint8_t *p, int64_t c, int es) {
  return es == 4 ? _mm512_loadu_ps((const float *)p + c)
                 : _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(p + 2 * c)));
}
#if RED_HAVE_FP16
RED_FP16 static inline __m256h ldh(const uint8_t *p, int64_t c, int es) {
  return es == 2 ? _mm256_castsi256_ph(_mm256_loadu_si256((const __m256i *)(p + 2 * c))) : toa_h(ld16(p, c, es));
}
#endif
/* t[j] lane i = element c + j of the row at p[i] (i, j < 8 / 16): the loads gather the 4-element
 * blocks of 2 / 4 rows into the 128-bit lanes (r[4h + i] lane 4m + e = element c + 4h + e of
 * row i + 4m), then a 4 x 4 transpose in each 128-bit lane (unpack, shuffle). */
#define TR4(V, S, q, t)                                                                 \
  do {                                                                                    \
    V lo0 = S##_unpacklo_ps(q[0], q[1]), hi0 = S##_unpackhi_ps(q[0], q[1]);               \
    V lo1 = S##_unpacklo_ps(q[2], q[3]), hi1 = S##_unpackhi_ps(q[2], q[3]);               \
    t[0] = S##_shuffle_ps(lo0, lo1, 0x44), t[1] = S##_shuffle_ps(lo0, lo1, 0xEE);         \
    t[2] = S##_shuffle_ps(hi0, hi1, 0x44), t[3] = S##_shuffle_ps(hi0, hi1, 0xEE);         \
  } while (0)
RED_AVX2 static inline void tr8(const uint8_t *const *p, int64_t c, int es, __m256 t[8]) {
  __m256 r[8];
  for (int h = 0; h < 2; h++)
    for (int i = 0; i < 4; i++)
      r[4 * h + i] = _mm256_insertf128_ps(_mm256_castps128_ps256(ld4(p[i], c + 4 * h, es)), ld4(p[i + 4], c + 4 * h, es), 1);
  for (int h = 0; h < 2; h++) TR4(__m256, _mm256, (r + 4 * h), (t + 4 * h));
}
/* The formulas per lane, v<op>_<K>_X. ADD_F of f16: the f32 sum rounded to f16 (vcvtps2ph to
 * nearest even rounds as pt_vl_to_f16; a NaN stays a NaN), or vaddph. MAX_F / MIN_F
 * (pt_vl_fmax / pt_vl_fmin): NaN (all ones) if either is NaN; for equal operands (the zeros of
 * both signs among them) the bitwise and (max: +0 wins) or or (min: -0 wins). The f16 maxima
 * and minima need no rounding: the f16 operands are exact in f32. */
#define RNE (_MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
#define vrsum_f32_8 _mm256_add_ps
RED_AVX2 static inline __m256 vrsum_f16_8(__m256 a, __m256 b) { return _mm256_cvtph_ps(_mm256_cvtps_ph(_mm256_add_ps(a, b), RNE)); }
RED_AVX2 static inline __m256 vrmax_f32_8(__m256 a, __m256 b) {
  __m256 m = _mm256_blendv_ps(_mm256_max_ps(a, b), _mm256_and_ps(a, b), _mm256_cmp_ps(a, b, _CMP_EQ_OQ));
  return _mm256_or_ps(m, _mm256_cmp_ps(a, b, _CMP_UNORD_Q));
}
RED_AVX2 static inline __m256 vrmin_f32_8(__m256 a, __m256 b) {
  __m256 m = _mm256_blendv_ps(_mm256_min_ps(a, b), _mm256_or_ps(a, b), _mm256_cmp_ps(a, b, _CMP_EQ_OQ));
  return _mm256_or_ps(m, _mm256_cmp_ps(a, b, _CMP_UNORD_Q));
}
#define vrsum_f32_16 _mm512_add_ps
RED_AVX512 static inline __m512 vrsum_f16_16(__m512 a, __m512 b) { return _mm512_cvtph_ps(_mm512_cvtps_ph(_mm512_add_ps(a, b), RNE)); }
RED_AVX512 static inline __m512 nan_or(__m512 m, __m512 a, __m512 b) {
  return _mm512_mask_mov_ps(m, _mm512_cmp_ps_mask(a, b, _CMP_UNORD_Q), _mm512_castsi512_ps(_mm512_set1_epi32(-1)));
}
RED_AVX512 static inline __m512 vrmax_f32_16(__m512 a, __m512 b) {
  return nan_or(_mm512_mask_mov_ps(_mm512_max_ps(a, b), _mm512_cmp_ps_mask(a, b, _CMP_EQ_OQ), _mm512_and_ps(a, b)), a, b);
}
RED_AVX512 static inline __m512 vrmin_f32_16(__m512 a, __m512 b) {
  return nan_or(_mm512_mask_mov_ps(_mm512_min_ps(a, b), _mm512_cmp_ps_mask(a, b, _CMP_EQ_OQ), _mm512_or_ps(a, b)), a, b);
}
#define vrmax_f16_8 vrmax_f32_8
#define vrmin_f16_8 vrmin_f32_8
#define vrmax_f16_16 vrmax_f32_16
#define vrmin_f16_16 vrmin_f32_16
#define vrsum_f16_h _mm256_add_ph
/* W * GROUPS_K_X repeats of E elements of kind K as interleaved groups of W lanes, each folded
 * in lane order from id (for max and min, whose order does not matter: their vc). */
#define CHAINS(op, K, F, ID, X)                                                         \
  TGT_##X static void op##_chains_##K##_##X(const uint8_t *const *p, float *out) {        \
    enum { E = PTOSIM_VREG_BYTES / PT_VL_E_##K, W = W_##X, NG = GROUPS_##K##_##X };       \
    VA_##X a[NG];                                                                         \
    VA_##X t[NG][W];                                                                      \
    for (int g = 0; g < NG; g++) a[g] = toa_##X(set1_##X(ID(K)));                         \
    for (int64_t c = 0; c < E; c += W) {                                                  \
      for (int g = 0; g < NG; g++) trc_##X(p + W * g, c, PT_VL_E_##K, t[g]);              \
      for (int j = 0; j < W; j++)                                                         \
        for (int g = 0; g < NG; g++) a[g] = v##op##_##K##_##X(a[g], t[g][j]);             \
    }                                                                                     \
    for (int g = 0; g < NG; g++) stf_##X(out + W * g, froma_##X(a[g]));                  \
  }

/* ---- A2/A3 row order and column order in SIMD lanes (f32 / f16 sum, max, min) --------------
 * op_lanes_K_X: ROW_A2's lanes t[0, min(n, E)) of a row of n elements into l as f32: the whole
 * repeats in E / W vectors of W lanes, the tail repeat by Ws and then one at a time, the same
 * formulas in the same order per lane (the tail third). op_a2a3_rows_K_X (max, min) folds the
 * lanes of W * A2_GROUPS rows side by side (row i in SIMD lane i % W of group i / W; tr_X
 * transposes) from id, lane 0 first: their vc, whose order does not matter. op_cols_K_X:
 * COL_SEQ of n adjacent columns, W columns a vector, up to 16 vectors down the rows together;
 * the columns after the last whole W through COL_SEQ. */
#define A2_GROUPS 2 /* groups of W rows folded side by side (the f16 add's latency) */
#define LANES_A2(op, K, F, ID, X)                                                   \
  TGT_##X static void op##_lanes_##K##_##X(float *l, const uint8_t *s, int64_t n) {       \
    enum { E = PTOSIM_VREG_BYTES / PT_VL_E_##K, W = W_##X, V = E / W, ES = PT_VL_E_##K }; \
    int64_t j = 0;                                                                        \
    if (n < E) { /* one partial repeat: the lanes are its elements */                     \
      for (; j + W <= n; j += W) stf_##X(l + j, froma_##X(lda_##X(s, j, ES)));            \
      for (; j < n; j++) l[j] = ld_##K(s, j);                                             \
      return;                                                                             \
    }                                                                                     \
    VA_##X t[V];                                                                          \
    for (int v = 0; v < V; v++) t[v] = lda_##X(s, W * v, ES);                             \
    if (n >= 2 * E)                                                                       \
      for (int v = 0; v < V; v++) t[v] = v##op##_##K##_##X(t[v], lda_##X(s, E + W * v, ES)); \
    if (n % E) { /* the tail repeat, third (ROW_A2) */                                    \
      int64_t c = n / E * E;                                                              \
      for (int v = 0; v < V; v++) stf_##X(l + W * v, froma_##X(t[v]));                   \
      for (; c + j + W <= n; j += W)                                                      \
        stf_##X(l + j, froma_##X(v##op##_##K##_##X(toa_##X(ldf_##X(l + j)), lda_##X(s, c + j, ES)))); \
      for (; c + j < n; j++) l[j] = F(K, l[j], ld_##K(s, c + j));                         \
      for (int v = 0; v < V; v++) t[v] = toa_##X(ldf_##X(l + W * v));                    \
    }                                                                                     \
    for (int64_t c = 2 * E; c + E <= n; c += E)                                           \
      for (int v = 0; v < V; v++) t[v] = v##op##_##K##_##X(t[v], lda_##X(s, c + W * v, ES)); \
    for (int v = 0; v < V; v++) stf_##X(l + W * v, froma_##X(t[v]));                     \
  }
#define SIMD_A2(op, K, F, ID, X)                                                        \
  LANES_A2(op, K, F, ID, X)                                                               \
  TGT_##X static void op##_a2a3_rows_##K##_##X(uint8_t *d, int64_t dstep, const uint8_t *s, int64_t sstep, \
                                               int64_t n, int64_t len) {                  \
    enum { E = PTOSIM_VREG_BYTES / PT_VL_E_##K, W = W_##X, R = W * A2_GROUPS };           \
    float l[R][E] = {{0}}, out[R];                                                        \
    const uint8_t *p[R];                                                                  \
    VF_##X t[A2_GROUPS][W];                                                               \
    VA_##X acc[A2_GROUPS];                                                                \
    int64_t w = len < E ? len : E;                                                        \
    for (int64_t r0 = 0; r0 < n; r0 += R) {                                               \
      int64_t g = n - r0 < R ? n - r0 : R;                                                \
      for (int64_t i = 0; i < R; i++) { /* lanes past the last row repeat row r0 */       \
        if (i < g) op##_lanes_##K##_##X(l[i], s + (r0 + i) * sstep, len);                 \
        p[i] = (const uint8_t *)l[i < g ? i : 0];                                         \
      }                                                                                   \
      for (int k = 0; k < A2_GROUPS; k++) acc[k] = toa_##X(set1_##X(ID(K)));              \
      for (int64_t c = 0; c < w; c += W) {                                                \
        for (int k = 0; k < A2_GROUPS; k++) tr_##X(p + W * k, c, 4, t[k]);                \
        for (int64_t j = 0; j < W && c + j < w; j++)                                      \
          for (int k = 0; k < A2_GROUPS; k++) acc[k] = v##op##_##K##_##X(acc[k], toa_##X(t[k][j])); \
      }                                                                                   \
      for (int k = 0; k < A2_GROUPS; k++) stf_##X(out + W * k, froma_##X(acc[k]));        \
      for (int64_t i = 0; i < g; i++) st_##K(d + (r0 + i) * dstep, 0, out[i]);            \
    }                                                                                     \
  }
#define SIMD_COLS(op, K, F, ID, X)                                                      \
  TGT_##X static void op##_cols_##K##_##X(uint8_t *d, const uint8_t *s, int64_t n, int64_t len, int64_t stride, \
                                          bool pairs) {                                   \
    enum { B = 16, W = W_##X, ES = PT_VL_E_##K };                                         \
    VA_##X a[B];                                                                          \
    float out[W];                                                                         \
    for (int64_t c0 = 0; c0 + W <= n; c0 += W * B) {                                      \
      int64_t nb = (n - c0) / W < B ? (n - c0) / W : B, i = 1;                            \
      for (int64_t b = 0; b < nb; b++) a[b] = lda_##X(s, c0 + W * b, ES);                 \
      for (; pairs && i + 1 < len; i += 2)                                                \
        for (int64_t b = 0; b < nb; b++)                                                  \
          a[b] = v##op##_##K##_##X(a[b], v##op##_##K##_##X(lda_##X(s + i * stride * ES, c0 + W * b, ES), \
                                                           lda_##X(s + (i + 1) * stride * ES, c0 + W * b, ES))); \
      for (; i < len; i++)                                                                \
        for (int64_t b = 0; b < nb; b++) a[b] = v##op##_##K##_##X(a[b], lda_##X(s + i * stride * ES, c0 + W * b, ES)); \
      for (int64_t b = 0; b < nb; b++) {                                                  \
        stf_##X(out, froma_##X(a[b]));                                                    \
        for (int k = 0; k < W; k++) st_##K(d, c0 + W * b + k, out[k]);                   \
      }                                                                                   \
    }                                                                                     \
    red_fn tail = pairs ? op##_cola5_##K : op##_col_##K;                                  \
    for (int64_t c = n / W * W; c < n; c++) tail(d + c * ES, s + c * ES, len, stride, NULL); \
  }
#define SIMD_ROWS(op, K, F, ID, X) CHAINS(op, K, F, ID, X) ROWS_A5(op, K, F, ID, X) SIMD_A2(op, K, F, ID, X)
EXT_KINDS(SIMD_ROWS, 8) ROWS_KINDS(SIMD_COLS, 8) ROWS_KINDS(SIMD_COLS, 16)
#if RED_HAVE_FP16
SIMD_COLS(rsum, f16, ADD_F16C, ID_SUM, h)
#endif

/* ---- row sums in the vector unit's tree order, 16 f32 lanes (AVX-512) ------------------------
 * pairsum_X(a, b): lanes 0-7 the sums of a's adjacent lane pairs (a_0 + a_1, a_2 + a_3, ...),
 * lanes 8-15 those of b, each rounded by the add. pairs_X reduces m = 2^k vectors u_0 .. u_{m-1}
 * by pairs, (u_0, u_1), (u_2, u_3), ..., then the same on the results, to v[0]: each level
 * halves the sequence u_0 lane 0, u_0 lane 1, ..., u_{m-1} lane 15 by adding adjacent pairs and
 * keeps it in order, so lane i of v[0] is the tree sum (VC_TREE) of its elements [i m, i m + m).
 * trees_K(p, es): lane i the tree sum of the repeat at p[i], i < 16 (E = 16 V elements of kind K,
 * es bytes each; es 4: f32-held values, rounded to K), the pair tree over the 16 V vectors of
 * the 16 repeats (each group of 16 vectors reduced in turn, then the V results). Two shuffles
 * per input vector, on the one port this CPU has for 512-bit shuffles. */
/* pairsum_X(a, b) and pairs_X(v, m) with the vector add ADD (its rounding) and target TGT. */
#define PAIRS(X, ADD, TGT)                                                              \
  TGT static inline __m512 pairsum_##X(__m512 a, __m512 b) {                              \
    const __m512i ev = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30); \
    return ADD(_mm512_permutex2var_ps(a, ev, b), _mm512_permutex2var_ps(a, _mm512_add_epi32(ev, _mm512_set1_epi32(1)), b)); \
  }                                                                                       \
  TGT static inline void pairs_##X(__m512 *v, int m) {                                    \
    for (; m > 1; m /= 2)                                                                 \
      for (int i = 0; i < m / 2; i++) v[i] = pairsum_##X(v[2 * i], v[2 * i + 1]);         \
  }
/* rsum_a5_rows_K_X: the A5 order for 16 rows at a time: acc (a vector, row i in lane i) = +0,
 * then ADD(acc, TREE(p)) with the trees of each row's repeat k in turn (p[i] its address), then
 * the tail repeat's vc; TOF32 turns acc into f32 lanes. */
#define A5_TREES(K, F, X, TGT, TREE, ADD, TOF32)                                        \
  TGT static void rsum_a5_rows_##K##_##X(uint8_t *d, int64_t dstep, const uint8_t *s, int64_t sstep, int64_t n, \
                                         int64_t len) {                                   \
    enum { E = PTOSIM_VREG_BYTES / PT_VL_E_##K };                                         \
    const uint8_t *p[16];                                                                 \
    float out[16];                                                                        \
    for (int64_t r0 = 0; r0 < n; r0 += 16) {                                              \
      int64_t g = n - r0 < 16 ? n - r0 : 16;                                              \
      __m512 acc = _mm512_setzero_ps();                                                   \
      for (int64_t k = 0; k < len / E; k++) {                                             \
        for (int64_t i = 0; i < 16; i++) /* lanes past the last row repeat row r0 */      \
          p[i] = s + (r0 + (i < g ? i : 0)) * sstep + k * PTOSIM_VREG_BYTES;              \
        acc = ADD(acc, TREE(p));                                                          \
      }                                                                                   \
      _mm512_storeu_ps(out, TOF32(acc));                                                  \
      for (int64_t i = 0; i < g; i++) {                                                   \
        pt_vl_c_##K v[E], a = out[i];                                                     \
        const uint8_t *x = s + (r0 + i) * sstep + len / E * PTOSIM_VREG_BYTES;            \
        if (len % E) {                                                                    \
          for (int64_t j = 0; j < E; j++) v[j] = j < len % E ? ld_##K(x, j) : 0;          \
          a = F(K, a, rsum_vc_##K(v));                                                    \
        }                                                                                 \
        st_##K(d + (r0 + i) * dstep, 0, a);                                               \
      }                                                                                   \
    }                                                                                     \
  }
/* rsum_a2a3_rows_K_X: the A2/A3 order for 16 rows at a time: their lanes (rsum_lanes_K_L; those
 * past a row inactive), then the trees of the 16 lane sets. */
#define A2_TREES(K, L, X, TGT)                                                          \
  TGT static void rsum_a2a3_rows_##K##_##X(uint8_t *d, int64_t dstep, const uint8_t *s, int64_t sstep, int64_t n, \
                                           int64_t len) {                                 \
    enum { E = PTOSIM_VREG_BYTES / PT_VL_E_##K };                                         \
    float l[16][E], out[16];                                                              \
    const uint8_t *p[16];                                                                 \
    for (int64_t r0 = 0; r0 < n; r0 += 16) {                                              \
      int64_t g = n - r0 < 16 ? n - r0 : 16;                                              \
      for (int64_t i = 0; i < 16; i++) { /* lanes past the last row repeat row r0 */      \
        if (i < g) {                                                                      \
          rsum_lanes_##K##_##L(l[i], s + (r0 + i) * sstep, len);                          \
          for (int64_t j = len; j < E; j++) l[i][j] = 0;                                  \
        }                                                                                 \
        p[i] = (const uint8_t *)l[i < g ? i : 0];                                         \
      }                                                                                   \
      _mm512_storeu_ps(out, trees_##K(p, 4));                                             \
      for (int64_t i = 0; i < g; i++) st_##K(d + (r0 + i) * dstep, 0, out[i]);            \
    }                                                                                     \
  }
#define AS_F32(v) (v)
#define TREE_f32(p) trees_f32(p, 4)
#define TREE_f16(p) trees_f16(p, 2)
#define TREES(K, F)                                                                     \
  PAIRS(K, vrsum_##K##_16, RED_AVX512)                                                    \
  RED_AVX512 static inline __m512 trees_##K(const uint8_t *const *p, int es) {            \
    enum { E = PTOSIM_VREG_BYTES / PT_VL_E_##K, V = E / 16 };                             \
    __m512 f[V], v[16];                                                                   \
    for (int b = 0; b < V; b++) {                                                         \
      for (int i = 0; i < 16; i++) {                                                      \
        int e = 16 * (16 * b + i); /* the vector's first element in the 16 repeats */     \
        v[i] = ld16(p[e / E], e % E, es);                                                 \
      }                                                                                   \
      pairs_##K(v, 16);                                                                   \
      f[b] = v[0];                                                                        \
    }                                                                                     \
    pairs_##K(f, V);                                                                      \
    return f[0];                                                                          \
  }                                                                                       \
  A5_TREES(K, F, t, RED_AVX512, TREE_##K, vrsum_##K##_16, AS_F32)                         \
  LANES_A2(rsum, K, F, ID_SUM, 16)                                                        \
  A2_TREES(K, 16, t, RED_AVX512)
TREES(f32, ADD_F) TREES(f16, ADD_F16C)

#if RED_HAVE_FP16
/* f16 sums in f16 arithmetic (AVX512-FP16), the same trees (rsum_a5_rows_f16_h): the first level
 * adds the two f16 halves of each 32-bit lane (vaddph of the masked and the shifted vector),
 * which leaves 16 pair sums in the low halves and +0 in the high ones; the pairs on 32-bit lanes
 * then add with vaddph (+0 + +0 = +0 stays in the high halves). */
#define vhsum(a, b) _mm512_castph_ps(_mm512_add_ph(_mm512_castps_ph(a), _mm512_castps_ph(b)))
PAIRS(h, vhsum, RED_FP16)
RED_FP16 static inline __m512 trees_h(const uint8_t *const *p) {
  enum { E = PTOSIM_VREG_BYTES / 2, V = E / 32 };
  __m512 f[V], v[16];
  for (int b = 0; b < V; b++) {
    for (int i = 0; i < 16; i++) {
      int e = 32 * (16 * b + i); /* the vector's first element in the 16 repeats */
      __m512i a = _mm512_loadu_si512(p[e / E] + 2 * (e % E));
      v[i] = vhsum(_mm512_castsi512_ps(_mm512_and_si512(a, _mm512_set1_epi32(0xFFFF))),
                   _mm512_castsi512_ps(_mm512_srli_epi32(a, 16)));
    }
    pairs_h(v, 16);
    f[b] = v[0];
  }
  pairs_h(f, V);
  return f[0];
}
#define TOF32_h(v) _mm512_cvtph_ps(_mm512_cvtepi32_epi16(_mm512_castps_si512(v)))
A5_TREES(f16, ADD_F16C, h, RED_FP16, trees_h, vhsum, TOF32_h)
LANES_A2(rsum, f16, ADD_F16C, ID_SUM, h) /* the lanes in f16 lanes (vaddph) */
A2_TREES(f16, h, h, RED_FP16)
#endif

#if RED_HAVE_FP16
static bool red_fp16(void) { return __builtin_cpu_supports("avx512fp16"); }
#else
static bool red_fp16(void) { return false; }
#endif
/* The host's vector level: 1 none of these, 2 AVX2 and F16C (CPUID.1:ECX bit 29), 3 also
 * AVX-512 F BW DQ VL, 4 also AVX512-FP16. CPUID traps in a virtual machine: asked once. */
static int red_level(void) {
  static _Atomic int known; /* 0 unknown */
  int k = atomic_load_explicit(&known, memory_order_relaxed);
  if (!k) {
    unsigned a, b, c, d;
    k = __builtin_cpu_supports("avx2") && __get_cpuid(1, &a, &b, &c, &d) && (c >> 29 & 1u) ? 2 : 1;
    if (k == 2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"))
      k = RED_HAVE_FP16 && red_fp16() ? 4 : 3;
    atomic_store_explicit(&known, k, memory_order_relaxed);
  }
  return k;
}

/* The SIMD loops of reductions `loops` of element type t on this host, or NULL: the f16 sums
 * in f16 lanes with AVX512-FP16; the others with AVX2, and their columns in 16 lanes with
 * AVX-512 (its 512-bit shuffles have one port on the hosts measured, the 256-bit ones two:
 * the transposing row loops are no faster in 16 lanes, docs/performance.md rowsum512). */
static const red_simd *simd_of(const red_loops *loops, ptosim_dtype t) {
#define SIMD_ENTRY(op, K, R, C) {op##_a5_rows_##K##_##R, op##_a2a3_rows_##K##_##R, op##_cols_##K##_##C, PT_VL_DT_##K, op},
#define ENTRY_8(op, K, F, ID, C) SIMD_ENTRY(op, K, 8, C)
#define SUM_8(K) {NULL, NULL, rsum_cols_##K##_8, PT_VL_DT_##K, rsum},
  enum { rsum, rmax, rmin, NK = 6 };
  static const red_simd k8[NK] = {SUM_8(f32) SUM_8(f16) EXT_KINDS(ENTRY_8, 8)};
  static const red_simd k16[NK] = {SIMD_ENTRY(rsum, f32, t, 16) SIMD_ENTRY(rsum, f16, t, 16) EXT_KINDS(ENTRY_8, 16)};
  int op = loops == k_sum ? rsum : loops == k_max ? rmax : loops == k_min ? rmin : -1;
  int lv = red_level(), cap = atomic_load_explicit(&red_cap, memory_order_relaxed);
  lv = lv < cap ? lv : cap;
#if RED_HAVE_FP16
  static const red_simd kh[1] = {SIMD_ENTRY(rsum, f16, h, h)};
  if (lv == 4 && kh->t == (int)t && kh->op == op) return kh;
#endif
  for (int i = 0; lv >= 2 && i < NK; i++)
    if (k8[i].t == (int)t && k8[i].op == op) return lv >= 3 ? &k16[i] : &k8[i];
  return NULL;
}
#else
static const red_simd *simd_of(const red_loops *loops, ptosim_dtype t) {
  (void)loops, (void)t;
  return NULL;
}
#endif
void pt_tile_reduce_cap_level(int level) { atomic_store_explicit(&red_cap, level, memory_order_relaxed); }

/* Arg reductions: d (u32 / i32) = the first index i < n of the extremum of s (stride apart):
 * a later element replaces the best only when strictly better (CMP), so a NaN never does. */
#define ARG(op, K, CMP, ID)                                                             \
  static void op##_##K(uint8_t *d, const uint8_t *s, int64_t n, int64_t stride, void *scratch) { \
    (void)scratch;                                                                        \
    pt_vl_c_##K best = ld_##K(s, 0);                                                      \
    uint32_t at = 0;                                                                      \
    for (int64_t i = 1; i < n; i++) {                                                     \
      pt_vl_c_##K v = ld_##K(s, i * stride);                                              \
      if (v CMP best) best = v, at = (uint32_t)i;                                         \
    }                                                                                     \
    st_u32(d, 0, at);                                                                     \
  }
/* Index i as A2/A3's 2-byte column arg forms store it: through f16 (vconv_s162f16a, to nearest,
 * ties away from zero; then vconv_f162s32a, exact), so from 2048 on it keeps 11 significant bits. */
static uint32_t idx_via_f16(uint32_t i) {
  int sh = 0;
  while (i >> sh >= 2048) sh++;
  return sh ? (i + (1u << (sh - 1))) >> sh << sh : i;
}
/* The A2/A3 column arg forms (a2a3 TColReduceIdx.hpp ProcessSingleBlock) compare the elements
 * as f16 (2-byte types) or f32 (4-byte) whatever their type, u16 / u32 too: VIEW(x) is that
 * float. Row i's index replaces the best's unless best KEEP x_i (vcmp_ge for argmax, vcmp_le
 * for argmin: false when either is NaN, so a NaN replaces), then best = FOLD(best, x_i) (vmax
 * / vmin: NaN if either is). 2-byte types count rows in s16 and store the index via f16. */
#define ARG_A2(op, K, VIEW, KEEP, FOLD)                                                 \
  static void op##_a2_##K(uint8_t *d, const uint8_t *s, int64_t n, int64_t stride, void *scratch) { \
    (void)scratch;                                                                        \
    float best = VIEW(ld_##K(s, 0));                                                      \
    uint32_t at = 0;                                                                      \
    for (int64_t i = 1; i < n; i++) {                                                     \
      float v = VIEW(ld_##K(s, i * stride));                                              \
      if (!(best KEEP v)) at = (uint32_t)i;                                               \
      best = FOLD(best, v);                                                               \
    }                                                                                     \
    st_u32(d, 0, PT_VL_E_##K == 2 ? idx_via_f16(at) : at);                                \
  }
#define AS_FLOAT(x) (x)
#define ARGS_A2(op, KEEP, FOLD) ARG_A2(op, f16, AS_FLOAT, KEEP, FOLD) ARG_A2(op, f32, AS_FLOAT, KEEP, FOLD) \
  ARG_A2(op, u16, pt_vl_f16_to_f32, KEEP, FOLD) ARG_A2(op, u32, pt_vl_f32_of, KEEP, FOLD)
ARGS_A2(argmax, >=, pt_vl_fmax)
ARGS_A2(argmin, <=, pt_vl_fmin)
/* Rows: ARG on both targets; columns: ARG on A5 (a5 TColReduceIdx.hpp: vcmp_gt / vcmp_lt of the
 * new row against the best in the type's own lanes, 8-bit ones widened to 16 bits), COL2 on A2/A3. */
#define ARG_ENTRY(op, K, COL2) [PT_VL_DT_##K] = {op##_##K, op##_##K, COL2, op##_##K, NULL, NULL},
#define ARG_ENTRY1(op, K, F, ID) ARG_ENTRY(op, K, op##_##K)
#define ARG_ENTRY2(op, K, F, ID) ARG_ENTRY(op, K, op##_a2_##K)
#define ARG_TABLE(op)                                                                   \
  {ARG_ENTRY2(op, f16, _, _) ARG_ENTRY1(op, bf16, _, _) ARG_ENTRY2(op, f32, _, _) INTS(ARG_ENTRY1, op, _, _) \
       ARG_ENTRY1(op, u8, _, _) ARG_ENTRY2(op, u16, _, _) ARG_ENTRY2(op, u32, _, _)}
FLOATS(ARG, argmax, >, _) INTS(ARG, argmax, >, _) UINTS(ARG, argmax, >, _)
FLOATS(ARG, argmin, <, _) INTS(ARG, argmin, <, _) UINTS(ARG, argmin, <, _)
static const red_loops k_argmax[PTOSIM_DT_COUNT] = ARG_TABLE(argmax);
static const red_loops k_argmin[PTOSIM_DT_COUNT] = ARG_TABLE(argmin);

/* Broadcast loops (tile_bcast.h): d[j] = F(a[j & am], b[j & bm]) for j < n, each also built
 * for AVX2 / AVX-512 hosts (TE_CLONES, tile_elem.h). */
typedef pt_tile_bc_fn bc_fn;
#define BCAST(op, K, F, ID)                                                             \
  TE_CLONES static void op##_##K(uint8_t *d, const uint8_t *a, int64_t am, const uint8_t *b, int64_t bm, int64_t n) { \
    if (am == -1 && bm == 0) {                                                            \
      pt_vl_c_##K y = ld_##K(b, 0);                                                       \
      for (int64_t j = 0; j < n; j++) st_##K(d, j, F(K, ld_##K(a, j), y));                \
    } else {                                                                              \
      for (int64_t j = 0; j < n; j++) st_##K(d, j, F(K, ld_##K(a, j & am), ld_##K(b, j & bm))); \
    }                                                                                     \
  }
#define ARITH(M) FLOATS(M, badd, ADD_F, _) ALL_INTS(M, badd, ADD_I, _) FLOATS(M, bsub, SUB_F, _) \
  ALL_INTS(M, bsub, SUB_I, _) FLOATS(M, bmul, MUL_F, _) ALL_INTS(M, bmul, MUL_I, _) FLOATS(M, bmax, MAX_F, _)      \
  ALL_INTS(M, bmax, MAX_I, _) FLOATS(M, bmin, MIN_F, _) ALL_INTS(M, bmin, MIN_I, _)
ARITH(BCAST)
/* Integer vdiv (A5 trowexpanddiv / tcolexpanddiv; section 17 "Broadcast element types"): the
 * quotient truncated toward zero. Lanes with a zero divisor or MIN / -1 never get here: the
 * op fails first (k_bdivguard). */
#define DIV_I(K, x, y) ((pt_vl_c_##K)((x) / (y)))
FLOATS(BCAST, bdiv, DIV_F, _) INTS(BCAST, bdiv, DIV_I, _) UINTS(BCAST, bdiv, DIV_I, _)
FLOATS(BCAST, bexpdif, EXPDIF_F, _)
/* a5 HIGH_PRECISION trowexpanddiv / tcolexpanddiv (TRowExpandDiv.hpp, TColExpandDiv.hpp: DivIEEE754*Impl
 * for float and half; bf16 and the integers divide as DEFAULT). */
#define DIVHP_F(K, x, y) pt_te_div754_##K(x, y)
BCAST(bdivhp, f32, DIVHP_F, _) BCAST(bdivhp, f16, DIVHP_F, _)
/* trowexpand / tcolexpand move bits (a2a3 vector_dup / vbrcb / copy_ubuf_to_ubuf, a5 vlds / vdup
 * / vsts): every type copies as the unsigned integer of its size, NaN payloads kept. */
UINTS(BCAST, bcopy, FIRST, _) BCAST(bcopy, u64, FIRST, _)
#define BYTE_COPIES [PTOSIM_DT_F8E4M3] = bcopy_u8, [PTOSIM_DT_F8E5M2] = bcopy_u8, [PTOSIM_DT_HIF8] = bcopy_u8, \
  [PTOSIM_DT_F8E8M0] = bcopy_u8, [PTOSIM_DT_F4E1M2X2] = bcopy_u8, [PTOSIM_DT_F4E2M1X2] = bcopy_u8,
#define BIT_COPIES BYTE_COPIES [PTOSIM_DT_I8] = bcopy_u8, [PTOSIM_DT_I16] = bcopy_u16, [PTOSIM_DT_F16] = bcopy_u16, \
  [PTOSIM_DT_BF16] = bcopy_u16, [PTOSIM_DT_I32] = bcopy_u32, [PTOSIM_DT_F32] = bcopy_u32, [PTOSIM_DT_I64] = bcopy_u64,
static const bc_fn k_badd[PTOSIM_DT_COUNT] = {FLOATS(ENTRY, badd, _, _) ALL_INTS(ENTRY, badd, _, _)};
static const bc_fn k_bsub[PTOSIM_DT_COUNT] = {FLOATS(ENTRY, bsub, _, _) ALL_INTS(ENTRY, bsub, _, _)};
static const bc_fn k_bmul[PTOSIM_DT_COUNT] = {FLOATS(ENTRY, bmul, _, _) ALL_INTS(ENTRY, bmul, _, _)};
static const bc_fn k_bmax[PTOSIM_DT_COUNT] = {FLOATS(ENTRY, bmax, _, _) ALL_INTS(ENTRY, bmax, _, _)};
static const bc_fn k_bmin[PTOSIM_DT_COUNT] = {FLOATS(ENTRY, bmin, _, _) ALL_INTS(ENTRY, bmin, _, _)};
static const bc_fn k_bdiv[PTOSIM_DT_COUNT] = {FLOATS(ENTRY, bdiv, _, _) INTS(ENTRY, bdiv, _, _) UINTS(ENTRY, bdiv, _, _)};
static const bc_fn k_bdivhp[PTOSIM_DT_COUNT] = {ENTRY(bdivhp, f16, _, _) ENTRY(bdiv, bf16, _, _) ENTRY(bdivhp, f32, _, _)
                                                    INTS(ENTRY, bdiv, _, _) UINTS(ENTRY, bdiv, _, _)};
static const bc_fn k_bexpdif[PTOSIM_DT_COUNT] = {FLOATS(ENTRY, bexpdif, _, _)};
static const bc_fn k_bcopy[PTOSIM_DT_COUNT] = {UINTS(ENTRY, bcopy, _, _) ENTRY(bcopy, u64, _, _) BIT_COPIES};

/* The lanes of an integer vdiv that no source defines: 2 j + o for the first j < n whose
 * divisor b[j & bm] is 0 (o = 0) or, for a signed K, whose pair is K's minimum over -1 (o = 1);
 * -1 when there is none. One OR over the row first; the search runs only on a failing row. */
typedef int64_t (*bc_guard_fn)(const uint8_t *a, int64_t am, const uint8_t *b, int64_t bm, int64_t n);
#define IBAD(K, x, y) PT_TE_IDIV_BAD(K, x, y, 1) /* vdiv overflows at every width */
#define DIVGUARD(op, K, F, ID)                                                            \
  static int64_t op##_##K(const uint8_t *a, int64_t am, const uint8_t *b, int64_t bm, int64_t n) { \
    unsigned bad = 0;                                                                     \
    for (int64_t j = 0; j < n; j++) bad |= IBAD(K, ld_##K(a, j & am), ld_##K(b, j & bm)); \
    for (int64_t j = 0; bad && j < n; j++) {                                              \
      unsigned k = IBAD(K, ld_##K(a, j & am), ld_##K(b, j & bm));                         \
      if (k) return 2 * j + (k > 1);                                                      \
    }                                                                                     \
    return -1;                                                                            \
  }
INTS(DIVGUARD, gdiv, _, _) UINTS(DIVGUARD, gdiv, _, _)
static const bc_guard_fn k_bdivguard[PTOSIM_DT_COUNT] = {INTS(ENTRY, gdiv, _, _) UINTS(ENTRY, gdiv, _, _)};

pt_tile_bc_fn pt_tile_bc_loop(pt_tile_binop op, ptosim_dtype dt) {
  static const bc_fn *const tables[] = {[PT_TB_ADD] = k_badd, [PT_TB_MUL] = k_bmul, [PT_TB_MAX] = k_bmax,
                                        [PT_TB_MIN] = k_bmin};
  return (unsigned)dt < PTOSIM_DT_COUNT ? tables[op][dt] : NULL;
}

/* tpairreducesum: d[j] = s[2j] + s[2j + 1], j < n. */
typedef void (*pair_fn)(uint8_t *d, const uint8_t *s, int64_t n);
#define PAIR(op, K, F, ID)                                                              \
  static void op##_##K(uint8_t *d, const uint8_t *s, int64_t n) {                         \
    for (int64_t j = 0; j < n; j++) st_##K(d, j, F(K, ld_##K(s, 2 * j), ld_##K(s, 2 * j + 1))); \
  }
FLOATS(PAIR, pair, ADD_F, _) INTS(PAIR, pair, ADD_I, _)
static const pair_fn k_pair[PTOSIM_DT_COUNT] = {FLOATS(ENTRY, pair, _, _) INTS(ENTRY, pair, _, _)};

/* ---- element type lists (bit 1 << dtype) ----------------------------------------------- */

#define B(t) (1u << PTOSIM_DT_##t)
#define T_BASE PT_TB_BASE
#define T_FLOAT (B(F16) | B(F32))

/* ---- operand checks ------------------------------------------------------------------- */

typedef enum dir { ROW, COL } dir;
typedef enum tmp_rule { TMP_NONE, TMP_OPTIONAL, TMP_REQUIRED } tmp_rule;

static int is_nd(const ptosim_tile *t) { return pt_tile_kind_of(t) == PT_TK_ND; }
static int is_dn(const ptosim_tile *t) { return pt_tile_kind_of(t) == PT_TK_DN; }

ptosim_status pt_tile_vec(pt_ctx *x, const char *op, const char *what, const ptosim_tile *t) {
  PT_TRY(pt_tile_check(x, PT_TILE_LAYOUT, what, t, NULL));
  return pt_tile_in_op(x, op, "space", "use loc=vec tiles", what, t, PTOSIM_UB);
}

ptosim_status pt_tile_dtype_in(pt_ctx *x, const char *op, const char *what, ptosim_dtype dt, uint32_t a2a3, uint32_t a5) {
  uint32_t ok = x->m->target == PTOSIM_TARGET_A5 ? a5 : a2a3;
  PT_VERIFY(x, (unsigned)dt < 32 && (ok >> dt & 1u), PT_TILE_RULE(op, "dtype"),
            "see the element types of the op's page in pto-isa docs/isa/tile/ops",
            "%s element type %s is not supported by %s on target %s", what, pt_dtype_name(dt), op, x->m->prof->name);
  return PTOSIM_OK;
}

ptosim_status pt_tile_same_dtype(pt_ctx *x, const char *op, const char *what, const ptosim_tile *a, const ptosim_tile *b) {
  PT_VERIFY(x, a->dtype == b->dtype, PT_TILE_RULE(op, "dtype"), "give the operands one element type",
            "%s element type %s differs from %s", what, pt_dtype_name(a->dtype), pt_dtype_name(b->dtype));
  return PTOSIM_OK;
}

static ptosim_status tmp_check(pt_ctx *x, const char *op, tmp_rule r, bool has, const ptosim_tile *tmp,
                               const ptosim_tile *like) {
  PT_VERIFY(x, r != TMP_REQUIRED || has, PT_TILE_RULE(op, "tmp"), "pass the tmp tile: ins(%src, %tmp)",
            "%s takes a tmp tile", op);
  PT_VERIFY(x, r != TMP_NONE || !has, PT_TILE_RULE(op, "tmp"), "drop the tmp tile", "%s takes no tmp tile", op);
  if (!has) return PTOSIM_OK;
  PT_TRY(pt_tile_vec(x, op, "tmp", tmp));
  return pt_tile_same_dtype(x, op, "tmp", tmp, like);
}

/* Host byte of the `n` lines of `len` elements, `stride` elements apart, from element `off`
 * of tile t (accessed with acc). */
static ptosim_status lines(pt_ctx *x, const ptosim_tile *t, int64_t off, int64_t n, int64_t stride, int64_t len,
                           pt_access acc, uint8_t **out) {
  unsigned es = pt_dtype_size(t->dtype);
  int64_t st = stride * es;
  PT_TRY(pt_tile_at(x, x->core, t->space, t->addr, 0, acc, out));
  return pt_region(x, t->space, t->addr + (uint64_t)(off * es), 1, &n, &st, (uint64_t)(len * es), 1, acc, out);
}

ptosim_status pt_tile_rows(pt_ctx *x, const ptosim_tile *t, int64_t n, int64_t w, pt_access acc, uint8_t **out) {
  return lines(x, t, 0, n, t->cols, w, acc, out);
}

/* ---- reductions ------------------------------------------------------------------------- */

typedef struct red_op {
  const char *name;
  dir dir;
  const red_loops *loops;
  uint32_t a2a3, a5; /* source element types */
  bool arg;          /* destination: u32 / i32 indices */
  tmp_rule tmp;
} red_op;

/* dst(r, 0) for r < rows: a row-major tile's first column or a one-column DN tile. dst may
 * have more valid columns: the NPU code checks its valid rows only and stores one element a
 * row (a5 TRowReduce.hpp TRowReduceCheck, DIST_ONEPT), so the others keep their bytes. */
static ptosim_status row_dst(pt_ctx *x, const red_op *o, const ptosim_tile *d) {
  PT_VERIFY(x, is_nd(d) || (is_dn(d) && d->cols == 1), PT_TILE_RULE(o->name, "layout"),
            "use a row_major none_box dst or a col_major none_box dst of one column",
            "dst is a %s tile of %d columns", pt_tile_kind_name(pt_tile_kind_of(d)), d->cols);
  return PTOSIM_OK;
}

/* A5 limits of the paths some element types take (section 17, "Element types (session 13)"):
 * i64 / u64 reductions (a5 Int64Reduce.hpp Int64RowSum / Int64RowMinMax / Int64ColReduce) load
 * one vector of 64 elements of a row (plt_b32 of the valid cols), and TCOLSUM's tmp forms have
 * no 64-bit branch; i8 / u8 TROWMAX / TROWMIN split a repeat into even and odd bytes widened to
 * 16 bits under the row's byte predicate, whose odd half admits the byte after an odd row end. */
static ptosim_status a5_paths(pt_ctx *x, const ptosim_treduce_params *p, const red_op *o) {
  unsigned es = pt_dtype_size(p->src.dtype);
  int w = p->src.valid_cols;
  if (x->m->target != PTOSIM_TARGET_A5 || o->arg || (es != 8 && es != 1)) return PTOSIM_OK;
  if (es == 8) {
    PT_TRY(pt_tile_cols64(x, o->name, "src", p->src.dtype, w));
    PT_VERIFY(x, !p->has_tmp || o->dir == ROW, PT_TILE_RULE(o->name, "tmp"), "drop the tmp tile",
              "i64 / u64 %s on a5 takes no tmp tile (only the two-operand form has a 64-bit path)", o->name);
  } else if (o->dir == ROW) {
    PT_VERIFY(x, w % 2 == 0, PT_TILE_RULE(o->name, "odd8"), "give src an even number of valid columns",
              "i8 / u8 %s on a5 with %d (odd) valid columns reads one byte past the row", o->name, w);
  }
  return PTOSIM_OK;
}

/* TROWSUM f32 on A2/A3 into a DN column for the whole-tile shapes 64x128, 32x256, 16x512 and
 * 8x1024 (TRowReduceOps.hpp TryOptimizeFP32Reduce): a row of w elements is reduced by vcgadd
 * (the tree of each 8) to g, for w >= 512 by vcgadd again, then while more than 8 are left each
 * pair of 8-blocks is added lane-wise (g_16b+i + g_16b+8+i), and a last vcgadd gives the sum. */
static bool a2_fp32_shape(const ptosim_tile *s, const ptosim_tile *d) {
  return !s->dyn_valid && !(d->dyn_valid & PTOSIM_DYN_VALID_COLS) && s->rows == s->valid_rows &&
         s->cols == s->valid_cols && (int64_t)s->rows * s->cols == 8192 &&
         (s->cols == 128 || s->cols == 256 || s->cols == 512 || s->cols == 1024);
}
static float vcgadd8(const float *v) { return ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7])); }
static void a2_fp32_sum(uint8_t *d, const uint8_t *s, int64_t w, int64_t stride, void *scratch) {
  (void)stride, (void)scratch;
  float g[128], e[8];
  int64_t n = w / 8;
  for (int64_t i = 0; i < n; i++) {
    memcpy(e, s + 32 * i, 32);
    g[i] = vcgadd8(e);
  }
  if (w >= 512) {
    n /= 8;
    for (int64_t i = 0; i < n; i++) g[i] = vcgadd8(g + 8 * i);
  }
  for (; n > 8; n /= 2)
    for (int64_t b = 0; b < n / 16; b++)
      for (int i = 0; i < 8; i++) g[8 * b + i] = g[16 * b + i] + g[16 * b + 8 + i];
  st_f32(d, 0, vcgadd8(g));
}

static ptosim_status reduce(pt_ctx *x, const ptosim_treduce_params *p, const red_op *o) {
  const ptosim_tile *s = &p->src, *d = &p->dst;
  PT_TRY(pt_tile_vec(x, o->name, "src", s));
  PT_TRY(pt_tile_vec(x, o->name, "dst", d));
  PT_TRY(tmp_check(x, o->name, o->tmp, p->has_tmp, &p->tmp, s));
  PT_TRY(pt_tile_dtype_in(x, o->name, "src", s->dtype, o->a2a3, o->a5));
  if (o->arg)
    PT_VERIFY(x, d->dtype == PTOSIM_DT_I32 || d->dtype == PTOSIM_DT_U32, PT_TILE_RULE(o->name, "dtype"),
              "use an i32 or u32 dst for the indices", "dst element type %s is not an index type (u32 / i32)",
              pt_dtype_name(d->dtype));
  else
    PT_TRY(pt_tile_same_dtype(x, o->name, "dst", d, s));
  PT_VERIFY(x, is_nd(s), PT_TILE_RULE(o->name, "layout"), "use a row_major none_box src", "src is a %s tile",
            pt_tile_kind_name(pt_tile_kind_of(s)));
  PT_TRY(a5_paths(x, p, o));
  PT_VERIFY(x, !p->binary || (o->loops == k_sum && o->dir == COL && p->has_tmp), PT_TILE_RULE(o->name, "binary"),
            "pass tcolsum's tmp tile with isBinary", "the binary (isBinary) order is tcolsum's with a tmp tile");
  int64_t n, len, stride, dstride; /* results, elements reduced per result, their strides */
  if (o->dir == ROW) {
    PT_TRY(row_dst(x, o, d));
    PT_VERIFY(x, s->valid_rows == d->valid_rows, PT_TILE_RULE(o->name, "valid"),
              "give src and dst the same valid rows", "src valid rows %d, dst %d", s->valid_rows, d->valid_rows);
    n = d->valid_rows, len = s->valid_cols, stride = 1, dstride = is_dn(d) ? 1 : d->cols;
  } else {
    PT_VERIFY(x, is_nd(d), PT_TILE_RULE(o->name, "layout"), "use a row_major none_box dst", "dst is a %s tile",
              pt_tile_kind_name(pt_tile_kind_of(d)));
    PT_VERIFY(x, s->valid_cols == d->valid_cols && (!o->arg || d->valid_rows == 1), PT_TILE_RULE(o->name, "valid"),
              "give src and dst the same valid columns (arg forms: dst v_row=1)",
              "src valid cols %d, dst valid %d x %d", s->valid_cols, d->valid_rows, d->valid_cols);
    /* An empty src: pto-isa returns before any instruction (a2a3 TColSum.hpp:123, TColMax.hpp:44,
     * a5 TColSum.hpp:136, TColMax.hpp:49 & co.), dst keeps its bytes. Otherwise it writes dst's
     * row 0 whatever dst's valid rows, so an empty dst under a non-empty src is refused. */
    bool none = !s->valid_rows || !s->valid_cols;
    PT_VERIFY(x, none || d->valid_rows, PT_TILE_RULE(o->name, "empty"),
              "give dst a valid row, or src an empty valid region (then nothing is written)",
              "dst valid 0 x %d under a src of %d x %d: the NPU code writes dst row 0 outside its valid region",
              d->valid_cols, s->valid_rows, s->valid_cols);
    n = none ? 0 : d->valid_cols, len = s->valid_rows, stride = s->cols, dstride = 1;
  }
  uint8_t *sp, *dp;
  PT_TRY(pt_tile_rows(x, s, s->valid_rows, s->valid_cols, PT_READ, &sp));
  PT_TRY(lines(x, d, 0, n, dstride, 1, PT_WRITE, &dp));
  pt_record_work(x, (uint64_t)(s->valid_rows * s->valid_cols), s->dtype);
  if (!n) return PTOSIM_OK; /* an empty column reduction: no write */
  const red_loops *l = &o->loops[s->dtype];
  bool a5 = x->m->target == PTOSIM_TARGET_A5;
  red_fn fn = o->dir == COL ? (p->binary ? (a5 ? l->tree_a5 : l->tree) : a5 ? l->col_a5 : l->col) : a5 ? l->a5 : l->a2a3;
  void *scratch = NULL;
  if (p->binary && !(scratch = malloc((size_t)len * sizeof(double))))
    return pt_fail(x, PTOSIM_E_NOMEM, "sim.nomem", NULL, "out of host memory for a %" PRId64 "-row tree", len);
  unsigned ses = pt_dtype_size(s->dtype), des = pt_dtype_size(d->dtype);
  int64_t step = o->dir == ROW ? s->cols : 1; /* elements between the first elements of two results */
  const red_simd *v = p->binary ? NULL : simd_of(o->loops, s->dtype);
  if (fn == l->a2a3 && o->loops == k_sum && s->dtype == PTOSIM_DT_F32 && is_dn(d) && a2_fp32_shape(s, d))
    fn = a2_fp32_sum, v = NULL;
  if (v && o->dir == COL)
    v->cols(dp, sp, n, len, stride, fn == l->col_a5);
  else if (v && fn == l->a2a3 && v->a2a3_rows)
    v->a2a3_rows(dp, dstride * des, sp, step * ses, n, len);
  else if (v && fn == l->a5 && v->a5_rows && len >= PTOSIM_VREG_BYTES / ses)
    v->a5_rows(dp, dstride * des, sp, step * ses, n, len);
  else
    for (int64_t i = 0; i < n; i++) fn(dp + i * dstride * des, sp + i * step * ses, len, stride, scratch);
  free(scratch);
  return PTOSIM_OK;
}

#define T_64 (B(I64) | B(U64))
#define T_B8 (B(I8) | B(U8))
/* Per op and target, the element types of the NPU header (section 17 of docs/spec-notes.md):
 * a5 TRowReduce.hpp TRowSum / TRowMax / TRowMin static_asserts plus the Int64Row* branches of
 * TROWSUM_IMPL / TROWMAX_IMPL / TROWMIN_IMPL; a5 TColReduceOps.hpp TColReduceCheck; a5
 * TColProd.hpp TCOLPROD_IMPL; a5 TColReduceIdx.hpp TColReduceIdxCheck (any 1-, 2- or 4-byte
 * type; integer and bf16 vcmp); a2a3 TColReduceIdx.hpp TColReduceIdxCheck (f16 f32 u16 u32). */
#define T_A5ROWSUM (T_BASE | T_64)
#define T_A5ROWMAX (T_BASE | T_B8 | T_64)
#define T_A5COL (T_BASE | T_B8 | B(BF16) | B(U16) | B(U32) | T_64)
#define T_A5PROD (T_BASE | B(BF16) | B(U16) | B(U32))
#define T_A5ARG (T_FLOAT | B(BF16) | T_B8 | B(I16) | B(U16) | B(I32) | B(U32))
#define T_A2ARG (T_FLOAT | B(U16) | B(U32))
#define RED_EXEC(op, dir, loops, a2a3, a5, arg, tmp)                                    \
  ptosim_status pt_exec_##op(pt_ctx *x, const ptosim_treduce_params *p) {                 \
    static const red_op o = {#op, dir, loops, a2a3, a5, arg, tmp};                        \
    return reduce(x, p, &o);                                                              \
  }
/* The tmp rules: PTOAS PTOOps.td / PTO.cpp verifiers; the row forms take the tmp optionally as
 * newer PTOAS (tonibohnlein) does and samples write it (mix_kernel.pto has trowmax without tmp). */
RED_EXEC(trowsum, ROW, k_sum, T_BASE, T_A5ROWSUM, false, TMP_OPTIONAL)
RED_EXEC(trowmax, ROW, k_max, T_BASE, T_A5ROWMAX, false, TMP_OPTIONAL)
RED_EXEC(trowmin, ROW, k_min, T_BASE, T_A5ROWMAX, false, TMP_OPTIONAL)
RED_EXEC(trowprod, ROW, k_prod, T_BASE, T_BASE, false, TMP_OPTIONAL)
RED_EXEC(trowargmax, ROW, k_argmax, T_BASE, T_BASE, true, TMP_OPTIONAL)
RED_EXEC(trowargmin, ROW, k_argmin, T_BASE, T_BASE, true, TMP_OPTIONAL)
RED_EXEC(tcolsum, COL, k_sum, T_BASE, T_A5COL, false, TMP_OPTIONAL)
RED_EXEC(tcolmax, COL, k_max, T_BASE, T_A5COL, false, TMP_NONE)
RED_EXEC(tcolmin, COL, k_min, T_BASE, T_A5COL, false, TMP_NONE)
RED_EXEC(tcolprod, COL, k_prod, T_BASE, T_A5PROD, false, TMP_NONE)
RED_EXEC(tcolargmax, COL, k_argmax, T_A2ARG, T_A5ARG, true, TMP_REQUIRED)
RED_EXEC(tcolargmin, COL, k_argmin, T_A2ARG, T_A5ARG, true, TMP_REQUIRED)

/* tpairreducesum (a2a3 / a5 TPairReduceSum.hpp): src and dst have the same valid shape R x V, and
 * dst(r, k) = src(r, 2k) + src(r, 2k + 1) for k < V / 2 (vcpadd stores half the loaded count:
 * an odd last column is dropped); the rest of dst keeps its bytes. A5 whose two tiles are full
 * width (static valid cols = cols) or of one row takes the R V elements as one sequence (its 1D path):
 * dst_flat[k] = src_flat[2k] + src_flat[2k + 1] for k < R V / 2, from dst's first element. */
ptosim_status pt_exec_tpairreducesum(pt_ctx *x, const ptosim_treduce_params *p) {
  const char *op = "tpairreducesum";
  const ptosim_tile *s = &p->src, *d = &p->dst;
  PT_TRY(pt_tile_vec(x, op, "src", s));
  PT_TRY(pt_tile_vec(x, op, "dst", d));
  PT_TRY(tmp_check(x, op, TMP_NONE, p->has_tmp, &p->tmp, s));
  PT_TRY(pt_tile_dtype_in(x, op, "src", s->dtype, T_FLOAT, T_FLOAT));
  PT_TRY(pt_tile_same_dtype(x, op, "dst", d, s));
  PT_VERIFY(x, is_nd(s) && is_nd(d), PT_TILE_RULE(op, "layout"), "use row_major none_box tiles",
            "src or dst is not row_major none_box");
  PT_VERIFY(x, s->valid_rows == d->valid_rows && s->valid_cols == d->valid_cols, PT_TILE_RULE(op, "valid"),
            "give src and dst the same valid shape (the sums fill the low half of each dst row)",
            "src valid %d x %d, dst %d x %d", s->valid_rows, s->valid_cols, d->valid_rows, d->valid_cols);
  int64_t h = d->valid_rows, v = d->valid_cols;
  unsigned es = pt_dtype_size(s->dtype);
  bool static_full = !((s->dyn_valid | d->dyn_valid) & PTOSIM_DYN_VALID_COLS) && s->valid_cols == s->cols &&
                     d->valid_cols == d->cols; /* TileData::ValidCol == Cols, template values */
  bool flat = x->m->target == PTOSIM_TARGET_A5 && (static_full || (s->rows == 1 && d->rows == 1));
  uint8_t *sp, *dp;
  PT_TRY(pt_tile_rows(x, s, h, v, PT_READ, &sp));
  pair_fn fn = k_pair[s->dtype];
  pt_record_work(x, (uint64_t)(h * v), s->dtype);
  if (flat) { /* full-width rows are contiguous: src_flat = the valid region */
    PT_TRY(pt_tile_at(x, x->core, d->space, d->addr, (uint64_t)(h * v / 2) * es, PT_WRITE, &dp));
    fn(dp, sp, h * v / 2);
    return PTOSIM_OK;
  }
  PT_TRY(pt_tile_rows(x, d, h, v / 2, PT_WRITE, &dp));
  for (int64_t r = 0; r < h; r++) fn(dp + r * d->cols * es, sp + r * s->cols * es, v / 2);
  return PTOSIM_OK;
}

/* ---- broadcasts --------------------------------------------------------------------------- */

/* Element types (bit 1 << dtype; section 17 "Broadcast element types"): what pto-isa's NPU
 * headers static_assert, per target.
 *   trowexpand / tcolexpand: a2a3 TRowExpand.hpp:82-85, TColExpand.hpp:44-46 any 1 / 2 / 4-byte
 *     type; a5 TRowExpand.hpp:26-29, TColExpand.hpp:27-29 also 8-byte (i64 / u64 through
 *     Int64RowExpand / Int64ColExpand, Int64Rearrange.hpp:162-197; f64 has no vector path);
 *   binary forms, A2/A3: i16 i32 f16 f32 (a2a3 TRowExpand{Add,Sub,Mul,Max,Min}.hpp,
 *     TColExpandBinOp.hpp:89-95), div and expdif f16 f32 (TRowExpandDiv.hpp:55, TColExpandDiv.hpp:52,
 *     TEXP, TColExpandExpdif.hpp:59);
 *   binary forms, A5: 8 / 16 / 32-bit integers of both signs, f16 bf16 f32 (a5 TRowExpand{Add,Sub,
 *     Mul,Div,Max,Min}.hpp:55-58, TColExpandBinOp.hpp:197-203), expdif f16 f32 (TRowExpandExpdif.hpp:81,
 *     TColExpandExpdif.hpp:54-56). */
#define T_MOVE (B(I8) | B(U8) | B(I16) | B(U16) | B(I32) | B(U32) | B(F16) | B(BF16) | B(F32))
#define T_BYTES (B(F8E4M3) | B(F8E5M2) | B(HIF8) | B(F8E8M0) | B(F4E1M2X2) | B(F4E2M1X2)) /* A5 8-bit storage types */
#define T_A5MOVE (T_MOVE | T_BYTES | B(I64) | B(U64))
#define T_A5BIN (T_BASE | B(I8) | B(U8) | B(U16) | B(U32) | B(BF16))

typedef struct bc_op {
  const char *name;
  dir dir;
  const bc_fn *loops;
  uint32_t a2a3, a5;
  bool binary;  /* two sources */
  bool a5_tmp;  /* A5 accepts a tmp tile */
} bc_op;

/* One source as the loop sees it: its first element of row r is at base + r * rstep
 * elements, element c of that row at + (c & mask). */
typedef struct bc_src {
  uint8_t *base;
  int64_t rstep, mask;
} bc_src;

/* The full operand: dst's valid region of a row-major tile. */
static ptosim_status full_src(pt_ctx *x, const char *op, const char *what, const ptosim_tile *s, const ptosim_tile *d,
                              bc_src *out) {
  PT_VERIFY(x, is_nd(s), PT_TILE_RULE(op, "layout"), "use row_major none_box tiles", "%s is a %s tile", what,
            pt_tile_kind_name(pt_tile_kind_of(s)));
  *out = (bc_src){.rstep = s->cols, .mask = -1};
  return pt_tile_rows(x, s, d->valid_rows, d->valid_cols, PT_READ, &out->base);
}

/* The per-row operand of a row broadcast: a DN tile of one valid column (value (r, 0)),
 * or a row-major tile whose valid columns are one 32-byte block (values b_r[c mod B]);
 * trowexpand's source: element (r, 0) of any none_box tile. */
static ptosim_status row_src(pt_ctx *x, const bc_op *o, const char *what, const ptosim_tile *s, const ptosim_tile *d,
                             bool first_only) {
  int64_t blk = PT_C0 / pt_dtype_size(s->dtype);
  bool dn = is_dn(s), ok = first_only ? dn || is_nd(s) : (dn && s->valid_cols == 1) || (is_nd(s) && s->valid_cols == blk);
  PT_VERIFY(x, ok, PT_TILE_RULE(o->name, "layout"),
            first_only ? "use a none_box src" : "use a col_major tile of v_col=1 or a row_major one of v_col=32/es",
            "%s is a %s tile with %d valid columns", what, pt_tile_kind_name(pt_tile_kind_of(s)), s->valid_cols);
  PT_VERIFY(x, s->valid_rows == d->valid_rows, PT_TILE_RULE(o->name, "valid"), "give the per-row operand dst's valid rows",
            "%s valid rows %d, dst %d", what, s->valid_rows, d->valid_rows);
  return PTOSIM_OK;
}

static ptosim_status row_src_map(pt_ctx *x, const ptosim_tile *s, const ptosim_tile *d, bool first_only, bc_src *out) {
  int64_t blk = PT_C0 / pt_dtype_size(s->dtype);
  if (is_dn(s)) {
    *out = (bc_src){.rstep = 1, .mask = 0};
    return lines(x, s, 0, 1, 0, d->valid_rows, PT_READ, &out->base);
  }
  *out = (bc_src){.rstep = s->cols, .mask = first_only ? 0 : blk - 1};
  return pt_tile_rows(x, s, d->valid_rows, first_only ? 1 : blk, PT_READ, &out->base);
}

/* A broadcast with an empty dst or broadcast source s: nothing is read or written.
 * tcolexpand (both targets): a2a3 TColExpand.hpp:61 returns on either; a5 runs zero rows for
 * an empty dst, but TColExpandCheck (TColExpand.hpp:40) asserts a non-empty src. The binary
 * forms (A5 only: tile_check.c) loop over dst's valid region (TRowExpandBinOp.hpp:27-28,
 * TColExpandBinOp.hpp:26-27): zero iterations for an empty dst; a non-empty dst under an empty
 * per-column source would read its row 0 all the same. */
static ptosim_status bc_empty(pt_ctx *x, const bc_op *o, const ptosim_tile *s, const ptosim_tile *d) {
  bool src_empty = !s->valid_rows || !s->valid_cols, dst_empty = !d->valid_rows || !d->valid_cols;
  PT_VERIFY(x, !src_empty || x->m->target != PTOSIM_TARGET_A5 || (o->binary && dst_empty), PT_TILE_RULE(o->name, "empty"),
            o->binary ? "give the per-column source a valid row or empty dst"
                      : "give src a valid region of at least one element on a5 (a2a3 makes an empty src a no-op)",
            "src valid %d x %d is empty: %s", s->valid_rows, s->valid_cols,
            o->binary ? "a5 TColExpandBinOp.hpp reads its row 0 for every valid dst row"
                      : "a5 TColExpand.hpp TColExpandCheck asserts a non-empty src");
  uint8_t *h;
  return pt_tile_at(x, x->core, d->space, d->addr, 0, PT_WRITE, &h);
}

static ptosim_status broadcast(pt_ctx *x, const ptosim_texpand_params *p, const bc_op *o) {
  const ptosim_tile *d = &p->dst;
  const ptosim_tile *s[2] = {&p->src0, &p->src1};
  int ns = o->binary ? 2 : 1;
  PT_TRY(pt_tile_vec(x, o->name, "src0", s[0]));
  if (o->binary) PT_TRY(pt_tile_vec(x, o->name, "src1", s[1]));
  PT_TRY(pt_tile_vec(x, o->name, "dst", d));
  bool tmp_ok = o->binary && o->dir == ROW && (o->a5_tmp || x->m->target != PTOSIM_TARGET_A5);
  PT_TRY(tmp_check(x, o->name, tmp_ok ? TMP_OPTIONAL : TMP_NONE, p->has_tmp, &p->tmp, d));
  PT_TRY(pt_tile_dtype_in(x, o->name, "dst", d->dtype, o->a2a3, o->a5));
  for (int i = 0; i < ns; i++) PT_TRY(pt_tile_same_dtype(x, o->name, i ? "src1" : "src0", s[i], d));
  PT_VERIFY(x, is_nd(d), PT_TILE_RULE(o->name, "layout"), "use a row_major none_box dst", "dst is a %s tile",
            pt_tile_kind_name(pt_tile_kind_of(d)));
  /* Which source is the broadcast one: src1, or src0 when src1 covers dst's valid region and
   * src0 does not (every binary form on both targets: src0eqdst / src1eqdst in the headers, the
   * operands kept in their order, Op2 = f(src0, src1) with src0 broadcast). */
  int bi = o->binary ? 1 : 0;
  if (o->binary && s[1]->valid_rows == d->valid_rows && s[1]->valid_cols == d->valid_cols &&
      !(s[0]->valid_rows == d->valid_rows && s[0]->valid_cols == d->valid_cols))
    bi = 0;
  bc_src src[2] = {{0}};
  if (o->binary) {
    const ptosim_tile *f = s[1 - bi];
    PT_VERIFY(x, f->valid_rows == d->valid_rows && f->valid_cols == d->valid_cols, PT_TILE_RULE(o->name, "valid"),
              "give the full source dst's valid region", "%s valid %d x %d, dst %d x %d", bi ? "src0" : "src1",
              f->valid_rows, f->valid_cols, d->valid_rows, d->valid_cols);
  }
  if (o->dir == ROW) {
    PT_TRY(row_src(x, o, bi ? "src1" : "src0", s[bi], d, !o->binary));
  } else {
    PT_VERIFY(x, is_nd(s[bi]), PT_TILE_RULE(o->name, "layout"), "use row_major none_box tiles", "%s is a %s tile",
              bi ? "src1" : "src0", pt_tile_kind_name(pt_tile_kind_of(s[bi])));
    PT_VERIFY(x, s[bi]->valid_cols == d->valid_cols, PT_TILE_RULE(o->name, "valid"),
              "give the per-column operand dst's valid columns", "%s valid cols %d, dst %d", bi ? "src1" : "src0", s[bi]->valid_cols,
              d->valid_cols);
  }
  if (!s[bi]->valid_rows || !s[bi]->valid_cols || !d->valid_rows || !d->valid_cols) return bc_empty(x, o, s[bi], d);
  if (o->binary) PT_TRY(full_src(x, o->name, bi ? "src0" : "src1", s[1 - bi], d, &src[1 - bi]));
  if (o->dir == ROW) {
    PT_TRY(row_src_map(x, s[bi], d, !o->binary, &src[bi]));
  } else {
    src[bi] = (bc_src){.rstep = 0, .mask = -1};
    PT_TRY(pt_tile_rows(x, s[bi], 1, d->valid_cols, PT_READ, &src[bi].base));
  }
  if (!o->binary) src[1] = src[0]; /* FIRST ignores it */
  int64_t h = d->valid_rows, w = d->valid_cols;
  unsigned es = pt_dtype_size(d->dtype);
  PT_TRY(pt_tile_cols64(x, o->name, "dst", d->dtype, w));
  bc_guard_fn guard = o->loops == k_bdiv ? k_bdivguard[d->dtype] : NULL;
  for (int64_t r = 0, k; guard && r < h; r++)
    if ((k = guard(src[0].base + r * src[0].rstep * es, src[0].mask, src[1].base + r * src[1].rstep * es, src[1].mask, w)) >= 0)
      return pt_te_idiv_undefined(x, o->name, d->dtype, r, k);
  uint8_t *dp;
  PT_TRY(pt_tile_rows(x, d, h, w, PT_WRITE, &dp));
  pt_record_work(x, (uint64_t)(h * w), d->dtype);
  bool hp = p->high_precision && o->loops == k_bdiv && x->m->target == PTOSIM_TARGET_A5;
  bc_fn fn = (hp ? k_bdivhp : o->loops)[d->dtype];
  for (int64_t r = 0; r < h; r++)
    fn(dp + r * d->cols * es, src[0].base + r * src[0].rstep * es, src[0].mask, src[1].base + r * src[1].rstep * es,
       src[1].mask, w);
  return PTOSIM_OK;
}

#define BC_EXEC(op, dir, loops, a2a3, a5, binary, a5_tmp)                               \
  ptosim_status pt_exec_##op(pt_ctx *x, const ptosim_texpand_params *p) {                 \
    static const bc_op o = {#op, dir, loops, a2a3, a5, binary, a5_tmp};                   \
    return broadcast(x, p, &o);                                                           \
  }
/* Element types: the lists above; the tmp tile of the A5 forms: PTOAS PTO.cpp (TRowExpand*Op::verify). */
BC_EXEC(trowexpand, ROW, k_bcopy, T_MOVE, T_A5MOVE, false, false)
BC_EXEC(tcolexpand, COL, k_bcopy, T_MOVE, T_A5MOVE, false, false)
BC_EXEC(trowexpandadd, ROW, k_badd, T_BASE, T_A5BIN, true, true)
BC_EXEC(trowexpandsub, ROW, k_bsub, T_BASE, T_A5BIN, true, true)
BC_EXEC(trowexpandmul, ROW, k_bmul, T_BASE, T_A5BIN, true, true)
BC_EXEC(trowexpanddiv, ROW, k_bdiv, T_FLOAT, T_A5BIN, true, true)
BC_EXEC(trowexpandmax, ROW, k_bmax, T_BASE, T_A5BIN, true, false)
BC_EXEC(trowexpandmin, ROW, k_bmin, T_BASE, T_A5BIN, true, false)
BC_EXEC(trowexpandexpdif, ROW, k_bexpdif, T_FLOAT, T_FLOAT, true, false)
BC_EXEC(tcolexpandadd, COL, k_badd, T_BASE, T_A5BIN, true, false)
BC_EXEC(tcolexpandsub, COL, k_bsub, T_BASE, T_A5BIN, true, false)
BC_EXEC(tcolexpandmul, COL, k_bmul, T_BASE, T_A5BIN, true, false)
BC_EXEC(tcolexpanddiv, COL, k_bdiv, T_FLOAT, T_A5BIN, true, false)
BC_EXEC(tcolexpandmax, COL, k_bmax, T_BASE, T_A5BIN, true, false)
BC_EXEC(tcolexpandmin, COL, k_bmin, T_BASE, T_A5BIN, true, false)
BC_EXEC(tcolexpandexpdif, COL, k_bexpdif, T_FLOAT, T_FLOAT, true, false)
