/* A5 vector reductions (vpto micro-isa 10; include/ptosim/vec_reduce.h,
 * docs/spec-notes.md section 15). N = 256 / sizeof(T) lanes; inactive lanes take no part.
 *   vcadd    dst[0] = sum of the active lanes (8- / 16-bit integers: into a 16- / 32-bit lane)
 *   vcgadd   dst[g] = sum of the active lanes of 32-byte VLane g, g < 8
 *   vcpadd   dst[i] = src[2i] + src[2i+1] (inactive: 0), i < N/2
 *   vcmax    dst[0] = max of the active lanes, dst[1] = its lowest lane index (unsigned, lane width)
 *   vcgmax   dst[g] = max of the active lanes of VLane g
 *   vcbmax   dst[0] = max; pred = active lanes equal to it (+0 and -0 equal, NaN matches NaN)
 *   (vcmin / vcgmin / vcbmin alike). Every other result lane is 0.
 * Sums: adjacent-pair tree, each level rounded to T (the hardware's tree order, pto-isa
 * docs/isa/vector/reduction-ops.md), so vcgadd's sums are vcadd's third level for f32.
 * Extrema: -0 < +0; a NaN wins (the result is NaN, as vmax / vmin); a group with no active
 * lane gives the neutral value (-inf / +inf, or the integer minimum / maximum). */
#include "isa/vec_lanes.h"

/* ---- sums ------------------------------------------------------------------------------ */

/* f16 partial sums rounded to f16 (exact through float: f32 has >= 2 * 11 + 2 bits). */
static inline float f16_round(float x) { return isnan(x) ? x : pt_vl_f16_to_f32(pt_vl_to_f16(x)); }
#define SAME(x) (x)
#define FIN_INT(O, x) ((pt_vl_c_##O)(pt_vl_u_##O)(uint64_t)(x)) /* wrap to the result width */
#define FIN_FLT(O, x) (x)

/* Loop op##_##K: v[i] = lane i (0 if inactive: zeroed in a copy) in ACC; adjacent pairs added
 * level by level, each sum rounded by ROUND, until OUTS values remain; they are lanes
 * [0, OUTS) of a result of kind O (FIN converts), every other lane 0. In place: level step i
 * reads 2i, 2i+1 >= i. */
#define SUM_LOOP(op, K, O, ACC, ROUND, FIN, OUTS)                                          \
  static void op##_##K(const pt_vl_args *g) {                                              \
    enum { N = PTOSIM_VREG_BYTES / PT_VL_E_##K };                                          \
    ptosim_vreg a = *g->a;                                                                 \
    pt_vl_zero_inactive(&a, g->mask, PT_VL_E_##K);                                         \
    ACC v[N];                                                                              \
    for (unsigned i = 0; i < N; i++) v[i] = (ACC)pt_vl_ld_##K(&a, i);                      \
    for (unsigned n = N; n > (unsigned)(OUTS); n /= 2)                                     \
      for (unsigned i = 0; i < n / 2; i++) v[i] = ROUND(v[2 * i] + v[2 * i + 1]);          \
    ptosim_vreg r;                                                                         \
    memset(&r, 0, sizeof r);                                                               \
    for (unsigned i = 0; i < (unsigned)(OUTS); i++) pt_vl_st_##O(&r, i, FIN(O, v[i]));     \
    *g->dst = r;                                                                           \
  }
#define ISUM(op, K, O, OUTS) SUM_LOOP(op, K, O, int64_t, SAME, FIN_INT, OUTS)

ISUM(vcadd, i8, i16, 1) ISUM(vcadd, u8, u16, 1) ISUM(vcadd, i16, i32, 1) ISUM(vcadd, u16, u32, 1)
ISUM(vcadd, i32, i32, 1) ISUM(vcadd, u32, u32, 1)
SUM_LOOP(vcadd, f32, f32, float, SAME, FIN_FLT, 1) SUM_LOOP(vcadd, f16, f16, float, f16_round, FIN_FLT, 1)

#define GSUM(op, K, F) ISUM(op, K, K, 8)
PT_VL_INTS(GSUM, vcgadd, _)
SUM_LOOP(vcgadd, f32, f32, float, SAME, FIN_FLT, 8) SUM_LOOP(vcgadd, f16, f16, float, f16_round, FIN_FLT, 8)

SUM_LOOP(vcpadd, f32, f32, float, SAME, FIN_FLT, N / 2) SUM_LOOP(vcpadd, f16, f16, float, f16_round, FIN_FLT, N / 2)

/* ---- extrema --------------------------------------------------------------------------- */

#define SIGN(K) ((pt_vl_u_##K)((pt_vl_u_##K)1 << (8 * PT_VL_E_##K - 1)))
#define TOP(K) ((uint32_t)(pt_vl_u_##K)~(pt_vl_u_##K)0) /* 2^w - 1 */
#define INF_f32 0x7F800000u
#define INF_f16 0x7C00u
#define QNAN_f32 0x7FC00000u
#define QNAN_f16 0x7E00u

/* Order key in [0, 2^w) of lane bits b: signed integers with the sign bit flipped, unsigned as
 * they are, floats by value with -0 < +0 (negative: every bit flipped, else the sign set;
 * computed without a branch). */
#define OKEY_S(K, b) ((uint32_t)(pt_vl_u_##K)((b) ^ SIGN(K)))
#define OKEY_U(K, b) ((uint32_t)(b))
#define OKEY_F(K, b) ((uint32_t)(pt_vl_u_##K)((b) ^ ((pt_vl_u_##K)(0u - ((b) >> (8 * PT_VL_E_##K - 1))) | SIGN(K))))
#define IS_NAN(K, b) (((b) & (pt_vl_u_##K)~SIGN(K)) > INF_##K)
/* Directed key: the lane with the largest wins. A NaN gets 2^w - 1 both ways (a float key
 * never reaches it: it belongs to the NaN 0x7F..F), so it wins; key 0 is no number of a
 * float (the NaN 0xFF..F) and is the neutral value of an integer. */
#define KEY_S_MAX(K, b) OKEY_S(K, b)
#define KEY_S_MIN(K, b) (TOP(K) - OKEY_S(K, b))
#define KEY_U_MAX(K, b) OKEY_U(K, b)
#define KEY_U_MIN(K, b) (TOP(K) - OKEY_U(K, b))
#define KEY_F_MAX(K, b) (IS_NAN(K, b) ? TOP(K) : OKEY_F(K, b))
#define KEY_F_MIN(K, b) (IS_NAN(K, b) ? TOP(K) : TOP(K) - OKEY_F(K, b))
/* The lane bits of a best key k (the inverse of KEY): integers' key 0 is their neutral value
 * (the minimum for MAX, the maximum for MIN); a float's key 0 means no active lane: -inf / +inf;
 * its key 2^w - 1 the quiet NaN. */
#define UNKEY_S_MAX(K, k) ((pt_vl_u_##K)((k) ^ SIGN(K)))
#define UNKEY_S_MIN(K, k) ((pt_vl_u_##K)((TOP(K) - (k)) ^ SIGN(K)))
#define UNKEY_U_MAX(K, k) ((pt_vl_u_##K)(k))
#define UNKEY_U_MIN(K, k) ((pt_vl_u_##K)(TOP(K) - (k)))
#define FLOAT_OF_OKEY(K, o) ((pt_vl_u_##K)((o) & SIGN(K) ? (o) ^ SIGN(K) : ~(o)))
#define UNKEY_F_MAX(K, k) \
  ((k) == 0 ? (pt_vl_u_##K)(SIGN(K) | INF_##K) : (k) == TOP(K) ? (pt_vl_u_##K)QNAN_##K : FLOAT_OF_OKEY(K, k))
#define UNKEY_F_MIN(K, k) \
  ((k) == 0 ? (pt_vl_u_##K)INF_##K : (k) == TOP(K) ? (pt_vl_u_##K)QNAN_##K : FLOAT_OF_OKEY(K, TOP(K) - (k)))
#define MATCH_S(x, m) ((x) == (m))
#define MATCH_U(x, m) ((x) == (m))
#define MATCH_F(x, m) ((x) == (m) || (isnan(x) && isnan(m)))

enum { FORM_INDEX, FORM_GROUPS, FORM_PRED }; /* vcmax, vcgmax, vcbmax */

/* Loop op##_##K of class C (S, U, F), direction D (MAX, MIN), result form FORM. Keys are
 * computed for every lane without branches and those of inactive lanes zeroed (key 0 only
 * ties with the neutral value); per group of L = N / G lanes the result is the lane bits of
 * the largest key. vcmax / vcmin also find the first lane holding it: for a key > 0 every
 * such lane is active; for key 0, the first active lane of key 0 (none: lane 0). */
#define EXT_LOOP(op, K, C, D, G, FORM)                                                     \
  static void op##_##K(const pt_vl_args *g) {                                              \
    enum { E = PT_VL_E_##K, N = PTOSIM_VREG_BYTES / E, L = N / (G) };                      \
    pt_vl_u_##K v[N], key[N];                                                              \
    memcpy(v, g->a->b, sizeof v);                                                          \
    for (unsigned i = 0; i < N; i++) key[i] = (pt_vl_u_##K)KEY_##C##_##D(K, v[i]);         \
    ptosim_vreg kr, r;                                                                     \
    memcpy(kr.b, key, sizeof key);                                                         \
    pt_vl_zero_inactive(&kr, g->mask, E);                                                  \
    memcpy(key, kr.b, sizeof key);                                                         \
    memset(&r, 0, sizeof r);                                                               \
    pt_vl_u_##K best = 0;                                                                  \
    for (unsigned gr = 0; gr < (G); gr++) {                                                \
      best = 0;                                                                            \
      for (unsigned i = gr * L; i < (gr + 1) * L; i++) best = key[i] > best ? key[i] : best; \
      pt_vl_u_##K bits = UNKEY_##C##_##D(K, best);                                         \
      memcpy(r.b + gr * E, &bits, E);                                                      \
    }                                                                                      \
    if ((FORM) == FORM_INDEX) {                                                            \
      pt_vl_u_##K at = 0;                                                                  \
      for (unsigned i = N; i-- > 0;) at = key[i] == best ? (pt_vl_u_##K)i : at;            \
      while (best == 0 && at < N - 1 && !pt_vl_active(g->mask, at, E))                     \
        for (at++; at < N - 1 && key[at] != 0; at++) {}                                    \
      at = best == 0 && !pt_vl_active(g->mask, at, E) ? 0 : at;                            \
      memcpy(r.b + E, &at, E);                                                             \
    }                                                                                      \
    if ((FORM) == FORM_PRED) {                                                             \
      pt_vl_c_##K m = pt_vl_ld_##K(&r, 0);                                                 \
      memset(g->pdst, 0, sizeof *g->pdst);                                                 \
      for (unsigned i = 0; i < N; i++)                                                     \
        pt_vl_set(g->pdst, i, E, pt_vl_active(g->mask, i, E) && MATCH_##C(pt_vl_ld_##K(g->a, i), m)); \
    }                                                                                      \
    *g->dst = r;                                                                           \
  }

/* Apply M(op, K, C, ...) to the kinds of the extrema: 8- to 32-bit integers, f16, f32. */
#define EXT_KINDS(M, op, D, G, FM)                                                         \
  M(op, i8, S, D, G, FM) M(op, u8, U, D, G, FM) M(op, i16, S, D, G, FM) M(op, u16, U, D, G, FM) \
  M(op, i32, S, D, G, FM) M(op, u32, U, D, G, FM) M(op, f16, F, D, G, FM) M(op, f32, F, D, G, FM)
#define EXT_ENTRY(op, K, C, D, G, FM) [PT_VL_DT_##K] = op##_##K,

EXT_KINDS(EXT_LOOP, vcmax, MAX, 1, FORM_INDEX)
EXT_KINDS(EXT_LOOP, vcmin, MIN, 1, FORM_INDEX)
EXT_KINDS(EXT_LOOP, vcgmax, MAX, 8, FORM_GROUPS)
EXT_KINDS(EXT_LOOP, vcgmin, MIN, 8, FORM_GROUPS)
EXT_KINDS(EXT_LOOP, vcbmax, MAX, 1, FORM_PRED)
EXT_KINDS(EXT_LOOP, vcbmin, MIN, 1, FORM_PRED)

/* ---- executors ------------------------------------------------------------------------- */

#define FLOATS2(M, op) M(op, f16, _) M(op, f32, _)
static const pt_vl_fn vcadd_loops[PTOSIM_DT_COUNT] = {PT_VL_INTS(PT_VL_ENTRY, vcadd, _) FLOATS2(PT_VL_ENTRY, vcadd)};
static const pt_vl_fn vcgadd_loops[PTOSIM_DT_COUNT] = {PT_VL_INTS(PT_VL_ENTRY, vcgadd, _) FLOATS2(PT_VL_ENTRY, vcgadd)};
static const pt_vl_fn vcpadd_loops[PTOSIM_DT_COUNT] = {FLOATS2(PT_VL_ENTRY, vcpadd)};
static const pt_vl_fn vcmax_loops[PTOSIM_DT_COUNT] = {EXT_KINDS(EXT_ENTRY, vcmax, _, _, _)};
static const pt_vl_fn vcmin_loops[PTOSIM_DT_COUNT] = {EXT_KINDS(EXT_ENTRY, vcmin, _, _, _)};
static const pt_vl_fn vcgmax_loops[PTOSIM_DT_COUNT] = {EXT_KINDS(EXT_ENTRY, vcgmax, _, _, _)};
static const pt_vl_fn vcgmin_loops[PTOSIM_DT_COUNT] = {EXT_KINDS(EXT_ENTRY, vcgmin, _, _, _)};
static const pt_vl_fn vcbmax_loops[PTOSIM_DT_COUNT] = {EXT_KINDS(EXT_ENTRY, vcbmax, _, _, _)};
static const pt_vl_fn vcbmin_loops[PTOSIM_DT_COUNT] = {EXT_KINDS(EXT_ENTRY, vcbmin, _, _, _)};

/* The result element type of vcadd: 8- / 16-bit integers widen to 16 / 32 bits. */
static ptosim_dtype vcadd_type(ptosim_dtype dt) {
  switch (dt) {
  case PTOSIM_DT_I8: return PTOSIM_DT_I16;
  case PTOSIM_DT_U8: return PTOSIM_DT_U16;
  case PTOSIM_DT_I16: return PTOSIM_DT_I32;
  case PTOSIM_DT_U16: return PTOSIM_DT_U32;
  default: return dt;
  }
}

/* Checks (vec_lanes.h, the declared result type against `out`, the predicate result when
 * `pred`), then the loop of p->dtype. */
static ptosim_status reduce_run(pt_ctx *x, const pt_vl_fn *loops, const ptosim_vreduce_params *p, ptosim_dtype out,
                                int pred) {
  pt_vl_fn fn = pt_vl_pick(loops, p->dtype);
  PT_TRY(pt_vl_check(x, p->dtype, fn != NULL, p->dst && p->src && p->mask && (!pred || p->pred), p->mask_bits));
  PT_VERIFY(x, p->dst_type == PTOSIM_DT_NONE || p->dst_type == out, "vec.result_type",
            "declare the result type the op produces (vcadd widens 8- and 16-bit integers)",
            "result element type %s, expected %s for %s input", pt_dtype_name(p->dst_type), pt_dtype_name(out),
            pt_dtype_name(p->dtype));
  pt_vl_args g = {.dst = p->dst, .pdst = p->pred, .a = p->src, .mask = p->mask};
  fn(&g);
  return PTOSIM_OK;
}

ptosim_status pt_exec_vcadd(pt_ctx *x, const ptosim_vreduce_params *p) {
  return reduce_run(x, vcadd_loops, p, vcadd_type(p->dtype), 0);
}
#define REDUCE_EXEC(op, pred)                                                              \
  ptosim_status pt_exec_##op(pt_ctx *x, const ptosim_vreduce_params *p) {                  \
    return reduce_run(x, op##_loops, p, p->dtype, pred);                                   \
  }
REDUCE_EXEC(vcgadd, 0)
REDUCE_EXEC(vcpadd, 0)
REDUCE_EXEC(vcmax, 0)
REDUCE_EXEC(vcmin, 0)
REDUCE_EXEC(vcgmax, 0)
REDUCE_EXEC(vcgmin, 0)
REDUCE_EXEC(vcbmax, 1)
REDUCE_EXEC(vcbmin, 1)
