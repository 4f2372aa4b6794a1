/* Tile reduce and expand: pto.trow{sum,max,min,prod,argmax,argmin}, pto.tcol{...},
 * pto.tpairreducesum, pto.trowexpand / pto.tcolexpand and their add / sub / mul / div /
 * max / min / expdif forms, from the C API and from .pto text.
 * Every positive case fills the whole UB with random bytes, writes the source values, applies
 * a reference written here from the formulas of pto-isa docs/isa/tile/ops and the orders of
 * docs/spec-notes.md section 17 to a copy of the UB image (values through double and the
 * conversions of core/dtype.c, one index loop per formula), runs the op and compares the
 * whole UB, so the bytes outside the destination's valid region are checked as well. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "isa/tile_bcast.h"
#include "tile_ub_env.h"

static unsigned long long seed = 0x9E3779B97F4A7C15ull;
static const ptosim_target targets[] = {PTOSIM_TARGET_A2A3, PTOSIM_TARGET_A5};

static env env_new(ptosim_target t) { return env_new_seeded(t, &seed); }

#define tile ub_tile
#define ND PTOSIM_BL_ROW_MAJOR
#define DN PTOSIM_BL_COL_MAJOR

/* ---- values -------------------------------------------------------------------------------- */

typedef enum fop { F_ADD, F_SUB, F_MUL, F_DIV, F_MAX, F_MIN, F_EXPDIF, F_FIRST } fop;

static double apply(ptosim_dtype t, fop o, double a, double b) {
  switch (o) {
    case F_ADD: return as(t, a + b);
    case F_SUB: return as(t, a - b);
    case F_MUL: /* integers: the product mod 2^32 (exact; a double product of two i32 is not) */
      return is_float(t) ? as(t, a * b) : as(t, (double)(uint32_t)((uint64_t)(int64_t)a * (uint64_t)(int64_t)b));
    case F_DIV: return as(t, a / b);
    case F_MAX: return isnan(a) || isnan(b) ? NAN : a == b ? (signbit(a) ? b : a) : a > b ? a : b;
    case F_MIN: return isnan(a) || isnan(b) ? NAN : a == b ? (signbit(a) ? a : b) : a < b ? a : b;
    case F_EXPDIF: return as(t, pt_exp_ref((float)as(t, a - b)));
    default: return a;
  }
}

/* A random source value of t for op o: floats with fraction bits (near 1 for products),
 * integers over their whole range (sums and products wrap). */
static double rnd_value(ptosim_dtype t, fop o) {
  uint64_t r = pt_rand_u64(&seed);
  if (is_float(t)) {
    double v = o == F_MUL ? 1 + ((double)(r % 129) - 64) / 1024 : ((double)(r % 4001) - 2000) / 64;
    if (t == PTOSIM_DT_F32 && o != F_MUL) v += (double)(r >> 40 & 0xFFF) * 0x1p-20;
    if (o == F_DIV && fabs(v) < 0.5) v = 3;
    return as(t, v);
  }
  return as(t, (double)(int64_t)r);
}

static void fill(env *e, const ptosim_tile *t, int vr, int vc, fop o) {
  for (int r = 0; r < vr; r++)
    for (int c = 0; c < vc; c++) put(t->dtype, at(e, t, r, c), rnd_value(t->dtype, o));
}

/* Like rnd_value, with special values mixed in for floats: 1 in 8 a zero of either sign,
 * 1 in 1024 a NaN or an infinity (most rows stay finite); max (min) gets values <= 0 (>= 0)
 * so the zeros tie at the top. */
static double rnd_special(ptosim_dtype t, fop o) {
  static const double sp[] = {0.0, -0.0, NAN, INFINITY, -INFINITY};
  uint64_t r = pt_rand_u64(&seed);
  double v = rnd_value(t, o);
  if (!is_float(t)) return v;
  if (r % 8 == 0) return sp[r >> 8 & 1];
  if (r % 1024 == 1) return sp[2 + (r >> 10) % 3];
  return o == F_MAX ? -fabs(v) : o == F_MIN ? fabs(v) : v;
}

/* Values at the ends of f16's range for float types: near its largest (sums overflow to
 * infinity, f16 ones only) and its subnormals (sums round at the bottom). */
static double rnd_extreme(ptosim_dtype t, fop o) {
  static const double v[] = {65504, 40000, 0x1p-24, 0x1.8p-20, 0x1p-14, 1000};
  uint64_t r = pt_rand_u64(&seed);
  if (!is_float(t)) return rnd_value(t, o);
  return as(t, r >> 8 & 1 ? -v[r % 6] : v[r % 6]);
}

/* A source value: plain (kind 0), with special values (1) or extremes (2). */
static double src_value(ptosim_dtype t, fop o, int kind) {
  return kind == 2 ? rnd_extreme(t, o) : kind ? rnd_special(t, o) : rnd_value(t, o);
}

/* ---- row and column reductions ------------------------------------------------------------- */

typedef enum rkind { R_SUM, R_MAX, R_MIN, R_PROD, R_ARGMAX, R_ARGMIN } rkind;
static const fop rk_op[] = {F_ADD, F_MAX, F_MIN, F_MUL, F_MAX, F_MIN};

static double identity(ptosim_dtype t, rkind k) {
  if (k == R_SUM) return 0;
  if (k == R_PROD) return 1;
  if (is_float(t)) return k == R_MAX ? -INFINITY : INFINITY;
  int64_t bits = 8 * es_of(t);
  return k == R_MAX ? -ldexp(1, (int)bits - 1) : ldexp(1, (int)bits - 1) - 1;
}

/* The balanced tree of a reduction instruction over lanes v[lo, lo + m) (m a power of 2): the
 * left half's tree combined with the right half's. */
static double vc_ref(ptosim_dtype t, fop o, const double *v, int lo, int m) {
  if (m == 1) return v[lo];
  return apply(t, o, vc_ref(t, o, v, lo, m / 2), vc_ref(t, o, v, lo + m / 2, m / 2));
}

/* TROWPROD A5's folding tree: lane j after `level` steps of "lane i times lane i + e / 2^step"
 * on the e lanes v. */
static double fold_ref(ptosim_dtype t, const double *v, int e, int j, int level) {
  if (level == 0) return v[j];
  return apply(t, F_MUL, fold_ref(t, v, e, j, level - 1), fold_ref(t, v, e, j + (e >> level), level - 1));
}

/* Reference row reduction of x[0, n) under the documented order of target tg: the e lanes of a
 * 256-byte repeat (b of a 32-byte block) hold x[k e + j], lanes past the row the identity. */
static double row_ref(ptosim_target tg, ptosim_dtype t, rkind k, const double *x, int n) {
  fop o = rk_op[k];
  int e = (int)(256 / es_of(t)), b = (int)(32 / es_of(t)), log_e = es_of(t) == 2 ? 7 : es_of(t) == 4 ? 6 : 8;
  if (k >= R_ARGMAX) {
    int best = 0;
    for (int i = 1; i < n; i++)
      if (k == R_ARGMAX ? x[i] > x[best] : x[i] < x[best]) best = i;
    return best;
  }
  double lane[256] = {0};
  if (k == R_PROD) { /* lane products from 1, then A5: the folding tree; A2/A3: the lanes of a block in turn */
    int w = tg == PTOSIM_TARGET_A5 ? e : b;
    for (int j = 0; j < w; j++) {
      lane[j] = 1;
      for (int i = j; i < n; i += w) lane[j] = apply(t, F_MUL, lane[j], x[i]);
    }
    if (tg == PTOSIM_TARGET_A5) return fold_ref(t, lane, e, 0, log_e);
    if (!is_float(t)) {
      double acc = lane[0];
      for (int j = 1; j < w; j++) acc = apply(t, F_MUL, acc, lane[j]);
      return acc;
    }
    float acc = (float)lane[0]; /* the scalar unit: float products, one rounding to t at the end */
    for (int j = 1; j < w; j++) acc *= (float)lane[j];
    return as(t, acc);
  }
  if (tg == PTOSIM_TARGET_A5) { /* acc = id, then acc . tree(repeat) for each repeat in turn */
    double acc = identity(t, k);
    for (int k0 = 0; k0 * e < n; k0++) {
      for (int j = 0; j < e; j++) lane[j] = k0 * e + j < n ? x[k0 * e + j] : identity(t, k);
      acc = apply(t, o, acc, vc_ref(t, o, lane, 0, e));
    }
    return acc;
  }
  int whole = n / e; /* A2/A3: lane j folds repeat 0, 1, the tail, then 2, 3, ...; then one tree */
  for (int j = 0; j < e; j++) {
    int order[1024], m = 0; /* the repeats lane j takes, in turn */
    for (int r = 0; r < whole || (r == whole && j < n % e); r++) order[m++] = r;
    if (whole >= 2 && j < n % e) /* the tail moves to third */
      for (int i = m - 1; i > 2; i--) order[i] = order[i - 1];
    if (whole >= 2 && j < n % e) order[2] = whole;
    lane[j] = m ? x[order[0] * e + j] : identity(t, k);
    for (int i = 1; i < m; i++) lane[j] = apply(t, o, lane[j], x[order[i] * e + j]);
  }
  return vc_ref(t, o, lane, 0, e);
}

/* TROWSUM f32 on A2/A3 of a whole 64x128, 32x256, 16x512 or 8x1024 tile into a DN column
 * (TryOptimizeFP32Reduce), per shape as its steps are written: g8(i) the tree of elements
 * [8i, 8i + 8), q(i) of [64i, 64i + 64). */
static double fast_ref(const double *x, int w) {
  const ptosim_dtype f = PTOSIM_DT_F32;
  double h[16], h2[8];
  if (w == 512) return vc_ref(f, F_ADD, x, 0, 512); /* three vcgadd levels: one tree */
  for (int i = 0; i < 8; i++)
    if (w == 128) h2[i] = as(f, vc_ref(f, F_ADD, x, 8 * i, 8) + vc_ref(f, F_ADD, x, 64 + 8 * i, 8));
    else if (w == 1024) h2[i] = as(f, vc_ref(f, F_ADD, x, 64 * i, 64) + vc_ref(f, F_ADD, x, 512 + 64 * i, 64));
    else { /* 256: blocks 0 + 1 and 2 + 3 of the 32 g8, then the two halves */
      h[i] = as(f, vc_ref(f, F_ADD, x, 8 * i, 8) + vc_ref(f, F_ADD, x, 64 + 8 * i, 8));
      h[8 + i] = as(f, vc_ref(f, F_ADD, x, 128 + 8 * i, 8) + vc_ref(f, F_ADD, x, 192 + 8 * i, 8));
    }
  if (w == 256)
    for (int i = 0; i < 8; i++) h2[i] = as(f, h[i] + h[8 + i]);
  return vc_ref(f, F_ADD, h2, 0, 8);
}

static ptosim_status run_reduce(ptosim_core *c, const char *op, ptosim_treduce_params *p) {
  if (!strcmp(op, "trowsum")) return ptosim_trowsum(c, p);
  if (!strcmp(op, "trowmax")) return ptosim_trowmax(c, p);
  if (!strcmp(op, "trowmin")) return ptosim_trowmin(c, p);
  if (!strcmp(op, "trowprod")) return ptosim_trowprod(c, p);
  if (!strcmp(op, "trowargmax")) return ptosim_trowargmax(c, p);
  if (!strcmp(op, "trowargmin")) return ptosim_trowargmin(c, p);
  if (!strcmp(op, "tcolsum")) return ptosim_tcolsum(c, p);
  if (!strcmp(op, "tcolmax")) return ptosim_tcolmax(c, p);
  if (!strcmp(op, "tcolmin")) return ptosim_tcolmin(c, p);
  if (!strcmp(op, "tcolprod")) return ptosim_tcolprod(c, p);
  if (!strcmp(op, "tcolargmax")) return ptosim_tcolargmax(c, p);
  if (!strcmp(op, "tcolargmin")) return ptosim_tcolargmin(c, p);
  if (!strcmp(op, "tpairreducesum")) return ptosim_tpairreducesum(c, p);
  return PTOSIM_E_USAGE;
}

static const char *const row_names[] = {"trowsum", "trowmax", "trowmin", "trowprod", "trowargmax", "trowargmin"};
static const char *const col_names[] = {"tcolsum", "tcolmax", "tcolmin", "tcolprod", "tcolargmax", "tcolargmin"};

/* One row reduction of a vr x vc valid region of a rows x cols tile into an ND (dst_dn = 0)
 * or one-column DN dst; source values of src_value kind `special`. */
/* One row reduction; dst_dn bit 0: a DN dst, bit 1: src's valid shape given at run time (no
 * fixed-shape path then). */
static void row_case_v(ptosim_target tg, ptosim_dtype t, rkind k, int rows, int cols, int vr, int vc, int dst_dn,
                       int special) {
  env e = env_new(tg);
  ptosim_dtype dt = k >= R_ARGMAX ? PTOSIM_DT_U32 : t;
  ptosim_tile s = tile(t, 0x400, rows, cols, vr, vc, ND);
  int dyn = dst_dn >> 1;
  dst_dn &= 1;
  s.dyn_valid = dyn ? PTOSIM_DYN_VALID_ROWS | PTOSIM_DYN_VALID_COLS : 0;
  ptosim_tile d = dst_dn ? tile(dt, 0x20000, rows, 1, vr, 1, DN) : tile(dt, 0x20000, rows, 32 / (int)es_of(dt), vr, 1, ND);
  for (int r = 0; r < vr; r++)
    for (int c = 0; c < vc; c++)
      put(t, at(&e, &s, r, c), src_value(t, rk_op[k], special));
  env_load(&e);
  double *x = malloc(sizeof(double) * (size_t)vc);
  for (int r = 0; r < vr; r++) {
    for (int c = 0; c < vc; c++) x[c] = get(t, at(&e, &s, r, c));
    int fast = tg == PTOSIM_TARGET_A2A3 && k == R_SUM && t == PTOSIM_DT_F32 && dst_dn && !dyn && rows == vr && cols == vc &&
               rows * cols == 8192 && cols >= 128 && cols <= 1024;
    put(dt, at(&e, &d, r, 0), fast ? fast_ref(x, vc) : row_ref(tg, t, k, x, vc));
  }
  free(x);
  ptosim_treduce_params p = {.src = s, .tmp = s, .has_tmp = (vr & 1) != 0, .dst = d};
  char what[128];
  snprintf(what, sizeof what, "%s %s %dx%d valid %dx%d dn %d target %d special %d", row_names[k], pt_dtype_name(t), rows,
           cols, vr, vc, dst_dn, tg, special);
  finish(&e, run_reduce(e.c, row_names[k], &p), what);
}
static void row_case(ptosim_target tg, ptosim_dtype t, rkind k, int rows, int cols, int vr, int vc, int dst_dn) {
  row_case_v(tg, t, k, rows, cols, vr, vc, dst_dn, 0);
}

static const ptosim_dtype base_types[] = {PTOSIM_DT_F32, PTOSIM_DT_F16, PTOSIM_DT_I32, PTOSIM_DT_I16};

static void test_row_reduce(void) {
  for (int ti = 0; ti < 2; ti++)
    for (size_t di = 0; di < 4; di++)
      for (int k = R_SUM; k <= R_ARGMIN; k++) {
        ptosim_dtype t = base_types[di];
        int blk = (int)(32 / es_of(t)), rep = 8 * blk;
        row_case(targets[ti], t, (rkind)k, 16, 4 * rep, 16, 4 * rep, 1);         /* whole tile, 4 repeats */
        row_case(targets[ti], t, (rkind)k, 16, 4 * rep, 13, 2 * rep + 5, 0);     /* partial, tail repeat */
        row_case(targets[ti], t, (rkind)k, 16, 2 * blk, 3, 7, 1);                /* under one repeat */
        row_case(targets[ti], t, (rkind)k, 1, 3 * rep + blk, 1, 3 * rep + 1, 0); /* one row */
      }
}

/* Many rows of many repeats (on x86 hosts with AVX2 the A5 order of f32 / f16 takes 16 / 32
 * repeats of several rows at a time: batches that end inside a row, rows longer than a batch,
 * tails not a multiple of 8 or 16, a last batch under 16; the A2/A3 order 16 rows at a time,
 * each row's lanes by 8: tail repeats of whole 8s, of 8s and singles, rows under 8 or under a
 * repeat, a last group under 16) with NaN, infinities and zeros of both signs, and (f32 /
 * f16 sum, max, min) with values near f16's largest and its subnormals. */
/* The A2/A3 f32 fixed shapes with a DN dst, and the same shapes into an ND dst (general order). */
static void test_row_reduce_fp32_shapes(void) {
  for (int w = 128; w <= 1024; w *= 2)
    for (int dn = 0; dn < 4; dn++) /* bit 1: a run-time valid shape */
      for (int special = 0; special < 3; special++) {
        row_case_v(PTOSIM_TARGET_A2A3, PTOSIM_DT_F32, R_SUM, 8192 / w, w, 8192 / w, w, dn, special);
        row_case_v(PTOSIM_TARGET_A5, PTOSIM_DT_F32, R_SUM, 8192 / w, w, 8192 / w, w, dn, special);
      }
  row_case_v(PTOSIM_TARGET_A2A3, PTOSIM_DT_F32, R_SUM, 64, 128, 63, 128, 1, 0); /* not the whole tile */
}

static void test_row_reduce_many(void) {
  static const int shapes[][4] = {{48, 352, 40, 333}, {48, 128, 37, 128}, {8, 80, 3, 70}, {16, 64, 1, 64}, /* rows, cols, */
                                  {1, 2048, 1, 2047}, {16, 1008, 5, 1000}, {1, 4256, 1, 4250}, {16, 96, 4, 67}, /* valid rows, cols */
                                  {12, 1040, 11, 1016}, {16, 48, 9, 5}, {10, 256, 10, 136}, {32, 144, 17, 129}};
  for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++)
    for (size_t di = 0; di < 4; di++) /* every element type of the row reductions */
      for (int k = R_SUM; k <= R_ARGMIN; k++)
        for (int ti = 0; ti < 2; ti++) {
          const int *h = shapes[si];
          row_case_v(targets[ti], base_types[di], (rkind)k, h[0], h[1], h[2], h[3], (int)(si & 1), 1); /* odd: DN dst */
          if (di < 2 && k <= R_MIN) row_case_v(targets[ti], base_types[di], (rkind)k, h[0], h[1], h[2], h[3], 0, 2);
        }
}

/* The many-shape row and column cases once per vector level of the reduction loops (1 portable
 * C, 2 AVX2, 3 AVX-512, 4 AVX512-FP16): the loops of every level the host has, each against
 * the reference (a level the host lacks runs the host's highest). */
static void test_row_reduce_many(void);
static void test_col_reduce_many(void);
static void test_levels(void) {
  for (int lv = 1; lv <= 3; lv++) {
    pt_tile_reduce_cap_level(lv);
    test_row_reduce_many();
    test_col_reduce_many();
  }
  pt_tile_reduce_cap_level(4);
}

/* The A5 binary tcolsum as a5 TColSum.hpp writes it: tmp rows j < m = n / 2 get x_2j + x_2j+1,
 * an odd last row goes into tmp row m - 1 (x_0 + 0 when n is 1); then, while m > 1, the same
 * halving of the tmp rows, an odd one left over added into the new last row. */
static double col_tree_a5(ptosim_dtype t, fop o, const double *x, int n) {
  double tmp[512];
  int m = n / 2;
  for (int j = 0; j < m; j++) tmp[j] = apply(t, o, x[2 * j], x[2 * j + 1]);
  if (n % 2) tmp[m ? m - 1 : 0] = apply(t, o, x[n - 1], m ? tmp[m - 1] : 0.0);
  while (m > 1) {
    int odd = m % 2;
    m /= 2;
    for (int j = 0; j < m; j++) tmp[j] = apply(t, o, tmp[2 * j], tmp[2 * j + 1]);
    if (odd) tmp[m - 1] = apply(t, o, tmp[2 * m], tmp[m - 1]);
  }
  return tmp[0];
}

/* Reference column reduction of x[0, n): in row order, or the pairwise tree of target tg. */
static double col_ref(ptosim_target tg, ptosim_dtype t, rkind k, const double *x, int n, int tree) {
  fop o = rk_op[k];
  if (k >= R_ARGMAX) return row_ref(PTOSIM_TARGET_A5, t, k, x, n);
  if (!tree && tg == PTOSIM_TARGET_A5) { /* row 0, then the sums of rows 1 + 2, 3 + 4, ..., then a last odd row */
    double acc = x[0];
    int pairs = (n - 1) / 2;
    for (int j = 0; j < pairs; j++) acc = apply(t, o, acc, apply(t, o, x[2 * j + 1], x[2 * j + 2]));
    return n - 1 > 2 * pairs ? apply(t, o, acc, x[n - 1]) : acc;
  }
  if (!tree) {
    double acc = x[0];
    for (int i = 1; i < n; i++) acc = apply(t, o, acc, x[i]);
    return acc;
  }
  if (tg == PTOSIM_TARGET_A5) return col_tree_a5(t, o, x, n);
  double v[512];
  memcpy(v, x, sizeof(double) * (size_t)n);
  for (int cnt = n; cnt > 1; cnt /= 2) {
    double nv[512];
    for (int i = 0; i < cnt / 2; i++) nv[i] = apply(t, o, v[2 * i], v[2 * i + 1]);
    if (cnt % 2) nv[0] = apply(t, o, nv[0], v[cnt - 1]);
    memcpy(v, nv, sizeof(double) * (size_t)(cnt / 2));
  }
  return v[0];
}

/* One column reduction of a vr x vc valid region; source values of src_value kind `special`. */
static void col_case_v(ptosim_target tg, ptosim_dtype t, rkind k, int rows, int cols, int vr, int vc, int tree,
                       int special) {
  env e = env_new(tg);
  ptosim_dtype dt = k >= R_ARGMAX ? PTOSIM_DT_I32 : t;
  ptosim_tile s = tile(t, 0x400, rows, cols, vr, vc, ND);
  int dcols = k >= R_ARGMAX ? (cols + 15) / 8 * 8 : cols + (int)(32 / es_of(t)); /* untouched columns after vc */
  ptosim_tile d = tile(dt, 0x28000, 2, dcols, k >= R_ARGMAX ? 1 : 2, vc, ND);
  for (int r = 0; r < vr; r++)
    for (int c = 0; c < vc; c++)
      put(t, at(&e, &s, r, c), src_value(t, rk_op[k], special));
  env_load(&e);
  double x[512];
  for (int c = 0; c < vc; c++) {
    for (int r = 0; r < vr; r++) x[r] = get(t, at(&e, &s, r, c));
    put(dt, at(&e, &d, 0, c), col_ref(tg, t, k, x, vr, tree));
  }
  ptosim_treduce_params p = {.src = s, .tmp = s, .has_tmp = k == R_ARGMAX || k == R_ARGMIN || tree, .binary = tree,
                             .dst = d};
  char what[128];
  snprintf(what, sizeof what, "%s %s %dx%d valid %dx%d tree %d target %d special %d", col_names[k], pt_dtype_name(t),
           rows, cols, vr, vc, tree, tg, special);
  finish(&e, run_reduce(e.c, col_names[k], &p), what);
}
static void col_case(ptosim_target tg, ptosim_dtype t, rkind k, int rows, int cols, int vr, int vc, int tree) {
  col_case_v(tg, t, k, rows, cols, vr, vc, tree, 0);
}

static void test_col_reduce(void) {
  static const ptosim_dtype a5_extra[] = {PTOSIM_DT_BF16, PTOSIM_DT_I8};
  for (int ti = 0; ti < 2; ti++)
    for (size_t di = 0; di < 6; di++) {
      if (di >= 4 && targets[ti] != PTOSIM_TARGET_A5) continue;
      ptosim_dtype t = di < 4 ? base_types[di] : a5_extra[di - 4];
      int blk = (int)(32 / es_of(t));
      for (int k = R_SUM; k <= R_ARGMIN; k++) {
        if (k >= R_ARGMAX && !(t == PTOSIM_DT_F32 || t == PTOSIM_DT_F16)) continue;
        if (k == R_PROD && t == PTOSIM_DT_I8) continue;
        col_case(targets[ti], t, (rkind)k, 24, 3 * blk, 21, 2 * blk + 3, 0);
        col_case(targets[ti], t, (rkind)k, 1, blk, 1, 1, 0);
      }
      for (int vr = 1; vr <= 13; vr += 3) col_case(targets[ti], t, R_SUM, 16, 2 * blk, vr, blk + 1, 1);
    }
}

/* Many columns (on x86 hosts with AVX2 f32 / f16 sum, max and min take 8 columns a vector, up
 * to 16 vectors at a time: a last block under 16 vectors, columns after the last whole 8, fewer
 * than 8 columns, one row, columns wider than the valid ones) with NaN, infinities and zeros of
 * both signs, and extremes as in test_row_reduce_many; the binary tcolsum alongside. */
static void test_col_reduce_many(void) {
  static const int shapes[][4] = {{40, 272, 37, 261}, {3, 144, 1, 128}, {9, 16, 9, 5}, {30, 208, 30, 200}}; /* rows, cols, */
  for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++)                                    /* valid rows, cols */
    for (size_t di = 0; di < 4; di++)
      for (int k = R_SUM; k <= R_PROD; k++)
        for (int ti = 0; ti < 2; ti++) {
          const int *h = shapes[si];
          col_case_v(targets[ti], base_types[di], (rkind)k, h[0], h[1], h[2], h[3], 0, 1);
          if (di < 2 && k <= R_MIN) col_case_v(targets[ti], base_types[di], (rkind)k, h[0], h[1], h[2], h[3], 0, 2);
          if (k == R_SUM) col_case_v(targets[ti], base_types[di], (rkind)k, h[0], h[1], h[2], h[3], 1, 1);
        }
}

/* tpairreducesum: src and dst of the same valid shape R x V; d(r, k) = s(r, 2k) + s(r, 2k + 1) for
 * k < V / 2 (odd V: the last column dropped), the rest of dst untouched. On A5 two full-width
 * tiles (or two one-row tiles) are one sequence: d_flat[k] = s_flat[2k] + s_flat[2k + 1]. */
static void pair_case(ptosim_target tg, ptosim_dtype t, int rows, int scols, int dcols, int vr, int vc, int dyn) {
  env e = env_new(tg);
  ptosim_tile s = tile(t, 0x400, rows, scols, vr, vc, ND), d = tile(t, 0x8000, rows, dcols, vr, vc, ND);
  s.dyn_valid = d.dyn_valid = dyn ? PTOSIM_DYN_VALID_COLS : 0; /* a run-time valid shape: not "ValidCol == Cols" */
  fill(&e, &s, vr, vc, F_ADD);
  env_load(&e);
  bool flat = tg == PTOSIM_TARGET_A5 && ((!dyn && vc == scols && vc == dcols) || rows == 1);
  if (flat) {
    double q[4096]; /* the valid region in row-major order */
    int n = 0;
    for (int r = 0; r < vr; r++)
      for (int c = 0; c < vc; c++) q[n++] = get(t, at(&e, &s, r, c));
    for (int k = 0; k < n / 2; k++) put(t, e.img + d.addr + (size_t)k * es_of(t), as(t, q[2 * k] + q[2 * k + 1]));
  } else
    for (int r = 0; r < vr; r++)
      for (int k = 0; 2 * k + 1 < vc; k++)
        put(t, at(&e, &d, r, k), as(t, get(t, at(&e, &s, r, 2 * k)) + get(t, at(&e, &s, r, 2 * k + 1))));
  ptosim_treduce_params p = {.src = s, .dst = d};
  finish(&e, ptosim_tpairreducesum(e.c, &p), "tpairreducesum");
}

static void test_pairreducesum(void) {
  for (int ti = 0; ti < 2; ti++)
    for (int f = 0; f < 2; f++) {
      ptosim_dtype t = f ? PTOSIM_DT_F16 : PTOSIM_DT_F32;
      int blk = (int)(32 / es_of(t));
      pair_case(targets[ti], t, 9, 4 * blk, 3 * blk, 7, 2 * blk + 5, 0); /* odd V, tails, other row strides */
      pair_case(targets[ti], t, 9, 4 * blk, 4 * blk, 7, 2 * blk + 6, 0);
      pair_case(targets[ti], t, 9, 2 * blk, 2 * blk, 7, 2 * blk, 0);     /* full width: A5 flat */
      pair_case(targets[ti], t, 9, 2 * blk, 2 * blk, 7, 2 * blk, 1);     /* the same at run time: rows */
      pair_case(targets[ti], t, 3, 3 * blk, 3 * blk, 3, 3 * blk - 1, 0); /* odd count of the whole region */
      pair_case(targets[ti], t, 1, 4 * blk, 4 * blk, 1, 3 * blk + 3, 1); /* one row */
    }
}

/* ---- row and column broadcasts ------------------------------------------------------------ */

/* The broadcast op named `op`. */
static ptosim_status run_bcast(ptosim_core *c, const char *op, const ptosim_texpand_params *p) {
  if (!strcmp(op, "trowexpandadd")) return ptosim_trowexpandadd(c, p);
  if (!strcmp(op, "trowexpandsub")) return ptosim_trowexpandsub(c, p);
  if (!strcmp(op, "trowexpandmul")) return ptosim_trowexpandmul(c, p);
  if (!strcmp(op, "trowexpanddiv")) return ptosim_trowexpanddiv(c, p);
  if (!strcmp(op, "trowexpandmax")) return ptosim_trowexpandmax(c, p);
  if (!strcmp(op, "trowexpandmin")) return ptosim_trowexpandmin(c, p);
  if (!strcmp(op, "trowexpandexpdif")) return ptosim_trowexpandexpdif(c, p);
  if (!strcmp(op, "tcolexpandadd")) return ptosim_tcolexpandadd(c, p);
  if (!strcmp(op, "tcolexpandsub")) return ptosim_tcolexpandsub(c, p);
  if (!strcmp(op, "tcolexpandmul")) return ptosim_tcolexpandmul(c, p);
  if (!strcmp(op, "tcolexpanddiv")) return ptosim_tcolexpanddiv(c, p);
  if (!strcmp(op, "tcolexpandmax")) return ptosim_tcolexpandmax(c, p);
  if (!strcmp(op, "tcolexpandmin")) return ptosim_tcolexpandmin(c, p);
  if (!strcmp(op, "tcolexpandexpdif")) return ptosim_tcolexpandexpdif(c, p);
  if (!strcmp(op, "trowexpand")) return ptosim_trowexpand(c, p);
  if (!strcmp(op, "tcolexpand")) return ptosim_tcolexpand(c, p);
  return PTOSIM_E_USAGE;
}

typedef struct bcase {
  const char *name;
  fop o;
  int row, swap;
} bcase;

static const bcase bops[] = {
    {"trowexpandadd", F_ADD, 1, 0},       {"trowexpandsub", F_SUB, 1, 0},
    {"trowexpandmul", F_MUL, 1, 0},       {"trowexpanddiv", F_DIV, 1, 0},
    {"trowexpandmax", F_MAX, 1, 1},       {"trowexpandmin", F_MIN, 1, 1},
    {"trowexpandexpdif", F_EXPDIF, 1, 1}, {"tcolexpandadd", F_ADD, 0, 0},
    {"tcolexpandsub", F_SUB, 0, 0},       {"tcolexpandmul", F_MUL, 0, 0},
    {"tcolexpanddiv", F_DIV, 0, 0},       {"tcolexpandmax", F_MAX, 0, 0},
    {"tcolexpandmin", F_MIN, 0, 0},       {"tcolexpandexpdif", F_EXPDIF, 0, 0},
};

/* mode (row forms): 0 the per-row values in a DN column, 1 in a row-major 32-byte block per
 * row, 2 as 0 with the operands swapped (src0 the broadcast one). */
static void bcast_case(ptosim_target tg, ptosim_dtype t, const bcase *b, int mode) {
  env e = env_new(tg);
  int blk = (int)(32 / es_of(t)), vr = 11, vc = 3 * blk + 5;
  fop vo = b->o == F_EXPDIF ? F_ADD : b->o;
  ptosim_tile full = tile(t, 0x400, 16, 4 * blk, vr, vc, ND), d = tile(t, 0x10000, 16, 4 * blk, vr, vc, ND), v;
  if (!b->row)
    v = tile(t, 0x20000, 2, 4 * blk, 1, vc, ND);
  else if (mode == 1)
    v = tile(t, 0x20000, 16, blk, vr, blk, ND);
  else
    v = tile(t, 0x20000, 32, 1, vr, 1, DN);
  fill(&e, &full, vr, vc, vo);
  fill(&e, &v, v.valid_rows, v.valid_cols, vo);
  env_load(&e);
  for (int r = 0; r < vr; r++)
    for (int c = 0; c < vc; c++) {
      double f = get(t, at(&e, &full, r, c));
      double g = get(t, !b->row ? at(&e, &v, 0, c) : mode == 1 ? at(&e, &v, r, c % blk) : at(&e, &v, r, 0));
      put(t, at(&e, &d, r, c), mode == 2 ? apply(t, b->o, g, f) : apply(t, b->o, f, g));
    }
  ptosim_texpand_params p = {.src0 = mode == 2 ? v : full, .src1 = mode == 2 ? full : v, .dst = d};
  char what[128];
  snprintf(what, sizeof what, "%s %s mode %d target %d", b->name, pt_dtype_name(t), mode, tg);
  finish(&e, run_bcast(e.c, b->name, &p), what);
}

static void test_broadcast_ops(void) {
  for (int ti = 0; ti < 2; ti++)
    for (size_t bi = 0; bi < sizeof bops / sizeof *bops; bi++)
      for (size_t di = 0; di < 5; di++) {
        ptosim_dtype t = di < 4 ? base_types[di] : PTOSIM_DT_I8;
        int fl = bops[bi].o == F_DIV || bops[bi].o == F_EXPDIF;
        if ((fl && !is_float(t)) || (t == PTOSIM_DT_I8 && targets[ti] != PTOSIM_TARGET_A5)) continue;
        for (int mode = 0; mode < (bops[bi].row ? 2 + bops[bi].swap : 1); mode++) bcast_case(targets[ti], t, &bops[bi], mode);
      }
}

/* trowexpand (DN and ND sources) and tcolexpand of every moved element type. */
static void test_expand(void) {
  static const ptosim_dtype types[] = {PTOSIM_DT_I8,  PTOSIM_DT_U8,  PTOSIM_DT_I16, PTOSIM_DT_U16, PTOSIM_DT_F16,
                                       PTOSIM_DT_BF16, PTOSIM_DT_I32, PTOSIM_DT_U32, PTOSIM_DT_F32};
  for (int ti = 0; ti < 2; ti++)
    for (size_t di = 0; di < 9; di++)
      for (int form = 0; form < 3; form++) {
        ptosim_dtype t = types[di];
        int blk = (int)(32 / es_of(t)), vr = 9, vc = 2 * blk + 3;
        env e = env_new(targets[ti]);
        ptosim_tile d = tile(t, 0x1000, 12, 3 * blk, vr, vc, ND);
        ptosim_tile s = form == 0 ? tile(t, 0x9000, 32, 1, vr, 1, DN)
                        : form == 1 ? tile(t, 0x9000, 12, blk, vr, 1, ND)
                                    : tile(t, 0x9000, 1, 3 * blk, 1, vc, ND);
        fill(&e, &s, s.valid_rows, s.valid_cols, F_ADD);
        env_load(&e);
        for (int r = 0; r < vr; r++)
          for (int c = 0; c < vc; c++) memcpy(at(&e, &d, r, c), form < 2 ? at(&e, &s, r, 0) : at(&e, &s, 0, c), (size_t)es_of(t));
        ptosim_texpand_params p = {.src0 = s, .dst = d};
        char what[96];
        snprintf(what, sizeof what, "%s %s form %d", form < 2 ? "trowexpand" : "tcolexpand", pt_dtype_name(t), form);
        finish(&e, run_bcast(e.c, form < 2 ? "trowexpand" : "tcolexpand", &p), what);
      }
}

/* Special values: NaN propagates through max / sum, -0 orders below +0, argmax skips NaN. */
static void test_special_values(void) {
  env e = env_new(PTOSIM_TARGET_A5);
  ptosim_tile s = tile(PTOSIM_DT_F32, 0x400, 4, 8, 4, 8, ND), d = tile(PTOSIM_DT_F32, 0x1000, 8, 1, 4, 1, DN);
  ptosim_tile di = tile(PTOSIM_DT_U32, 0x2000, 8, 1, 4, 1, DN);
  float row0[8] = {1, NAN, 3, 2, 0, 0, 0, 0}, row1[8] = {-0.0f, -0.0f, 0.0f, -0.0f, -0.0f, -0.0f, -0.0f, -0.0f};
  float row2[8] = {NAN, 5, 7, 7, 1, 1, 1, 1}, row3[8] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY,
                                                          -INFINITY, -INFINITY, -INFINITY, -INFINITY};
  memcpy(at(&e, &s, 0, 0), row0, 32), memcpy(at(&e, &s, 1, 0), row1, 32);
  memcpy(at(&e, &s, 2, 0), row2, 32), memcpy(at(&e, &s, 3, 0), row3, 32);
  env_load(&e);
  ptosim_treduce_params p = {.src = s, .dst = d};
  CHECK(ptosim_trowmax(e.c, &p) == PTOSIM_OK);
  p.dst = di;
  CHECK(ptosim_trowargmax(e.c, &p) == PTOSIM_OK);
  float mx[4];
  uint32_t ix[4];
  CHECK(ptosim_mem_read(e.c, PTOSIM_UB, 0x1000, mx, 16) == PTOSIM_OK);
  CHECK(ptosim_mem_read(e.c, PTOSIM_UB, 0x2000, ix, 16) == PTOSIM_OK);
  uint32_t b0;
  memcpy(&b0, &mx[0], 4);
  CHECK(b0 == 0x7FC00000u);                        /* NaN, canonical */
  CHECK(mx[1] == 0 && !signbit(mx[1]));            /* +0 above -0 */
  CHECK(isnan(mx[2]) && mx[3] == -INFINITY);
  CHECK(ix[0] == 2 && ix[1] == 0 && ix[2] == 0 && ix[3] == 0); /* first strict maximum (-0 ties +0); NaN never replaces */
  p.dst = d;
  CHECK(ptosim_trowsum(e.c, &p) == PTOSIM_OK);
  CHECK(ptosim_mem_read(e.c, PTOSIM_UB, 0x1000, mx, 16) == PTOSIM_OK);
  CHECK(isnan(mx[0]) && mx[1] == 0 && !signbit(mx[1]) && mx[3] == -INFINITY); /* sums start from +0 */
  free(e.img);
  ptosim_machine_free(e.m);
}

/* ---- rules ------------------------------------------------------------------------------------ */

static void reduce_refuse(ptosim_target tg, const char *op, ptosim_treduce_params p, const char *rule) {
  env e = env_new(tg);
  refuse(&e, run_reduce(e.c, op, &p), rule);
}

static void expand_refuse(ptosim_target tg, const char *op, ptosim_texpand_params p, const char *rule) {
  env e = env_new(tg);
  refuse(&e, run_bcast(e.c, op, &p), rule);
}

#define EDIT(...) (p = ok, __VA_ARGS__, p)

static void test_reduce_rules(void) {
  const ptosim_treduce_params ok = {.src = tile(PTOSIM_DT_F32, 0, 16, 64, 16, 64, ND),
                                    .dst = tile(PTOSIM_DT_F32, 0x8000, 16, 1, 16, 1, DN)};
  ptosim_treduce_params p;
  ptosim_target a2 = PTOSIM_TARGET_A2A3, a5 = PTOSIM_TARGET_A5;
  reduce_refuse(a2, "trowsum", EDIT(p.src.space = PTOSIM_L1), "trowsum.space");
  reduce_refuse(a2, "trowsum", EDIT(p.src.dtype = PTOSIM_DT_BF16, p.dst.dtype = PTOSIM_DT_BF16), "trowsum.dtype");
  reduce_refuse(a2, "trowmax", EDIT(p.dst.dtype = PTOSIM_DT_F16), "trowmax.dtype");
  reduce_refuse(a2, "trowargmax", ok, "trowargmax.dtype"); /* f32 indices */
  reduce_refuse(a2, "trowsum", EDIT(p.src.blayout = DN), "trowsum.layout");
  reduce_refuse(a2, "trowsum", EDIT(p.dst.cols = 8, p.dst.rows = 16), "trowsum.layout"); /* DN of 8 columns */
  reduce_refuse(a2, "trowsum", EDIT(p.dst.valid_rows = 15), "trowsum.valid");
  reduce_refuse(a2, "trowmin", EDIT(p.dst = tile(PTOSIM_DT_F32, 0x8000, 16, 8, 15, 2, ND)), "trowmin.valid");
  reduce_refuse(a2, "trowprod", EDIT(p.has_tmp = true, p.tmp = tile(PTOSIM_DT_F16, 0x9000, 16, 64, 16, 64, ND)),
                "trowprod.dtype");
  reduce_refuse(a2, "trowsum", EDIT(p.binary = true), "trowsum.binary");
  const ptosim_treduce_params col = {.src = tile(PTOSIM_DT_F16, 0, 16, 64, 16, 64, ND),
                                     .dst = tile(PTOSIM_DT_F16, 0x8000, 1, 64, 1, 64, ND)};
  reduce_refuse(a2, "tcolsum", (p = col, p.src.dtype = p.dst.dtype = PTOSIM_DT_BF16, p), "tcolsum.dtype");
  reduce_refuse(a2, "tcolmax", (p = col, p.src.dtype = p.dst.dtype = PTOSIM_DT_I8, p), "tcolmax.dtype");
  reduce_refuse(a5, "tcolprod", (p = col, p.src.dtype = p.dst.dtype = PTOSIM_DT_I8, p), "tcolprod.dtype");
  reduce_refuse(a5, "tcolmax", (p = col, p.has_tmp = true, p.tmp = p.src, p), "tcolmax.tmp");
  reduce_refuse(a5, "tcolargmax", (p = col, p.dst.dtype = PTOSIM_DT_I32, p), "tcolargmax.tmp");
  reduce_refuse(a5, "tcolargmin", (p = col, p.dst.dtype = PTOSIM_DT_I32, p.has_tmp = true, p.tmp = p.src, p.dst.valid_rows = 1,
                                   p.src.dtype = p.tmp.dtype = PTOSIM_DT_I64, p), "tcolargmin.dtype");
  reduce_refuse(a5, "tcolsum", (p = col, p.dst.valid_cols = 63, p), "tcolsum.valid");
  reduce_refuse(a5, "tcolsum", (p = col, p.dst.blayout = DN, p.dst.rows = 16, p), "tcolsum.layout");
  reduce_refuse(a5, "tcolsum", (p = col, p.binary = true, p), "tcolsum.binary"); /* binary without tmp */
  reduce_refuse(a5, "tpairreducesum", (p = col, p.dst = tile(PTOSIM_DT_F16, 0x8000, 16, 32, 16, 33, ND), p), "tile.valid");
  reduce_refuse(a5, "tpairreducesum", (p = col, p.dst = tile(PTOSIM_DT_F16, 0x8000, 16, 64, 16, 32, ND), p),
                "tpairreducesum.valid"); /* the same valid shape, not half */
  reduce_refuse(a5, "tpairreducesum", (p = col, p.src.dtype = p.dst.dtype = PTOSIM_DT_I16, p), "tpairreducesum.dtype");
}

static void test_expand_rules(void) {
  const ptosim_texpand_params ok = {.src0 = tile(PTOSIM_DT_F32, 0, 16, 64, 16, 64, ND),
                                    .src1 = tile(PTOSIM_DT_F32, 0x8000, 16, 1, 16, 1, DN),
                                    .dst = tile(PTOSIM_DT_F32, 0x10000, 16, 64, 16, 64, ND)};
  ptosim_texpand_params p;
  ptosim_target a2 = PTOSIM_TARGET_A2A3, a5 = PTOSIM_TARGET_A5;
  expand_refuse(a2, "trowexpandmul", EDIT(p.dst.space = PTOSIM_L1), "trowexpandmul.space");
  expand_refuse(a2, "trowexpandadd", EDIT(p.src0.dtype = p.src1.dtype = p.dst.dtype = PTOSIM_DT_I8, p.src1.rows = 32),
                "trowexpandadd.dtype");
  expand_refuse(a5, "trowexpanddiv", EDIT(p.src0.dtype = p.src1.dtype = p.dst.dtype = PTOSIM_DT_I64),
                "trowexpanddiv.dtype");
  expand_refuse(a5, "trowexpandsub", EDIT(p.src1.dtype = PTOSIM_DT_F16), "trowexpandsub.dtype");
  expand_refuse(a5, "trowexpandsub", EDIT(p.dst.blayout = DN), "trowexpandsub.layout");
  expand_refuse(a5, "trowexpandsub", EDIT(p.src1 = tile(PTOSIM_DT_F32, 0x8000, 16, 8, 16, 4, ND)),
                "trowexpandsub.layout"); /* row-major per-row operand of 4 columns */
  expand_refuse(a5, "trowexpandsub", EDIT(p.src1.valid_rows = 15), "trowexpandsub.valid");
  expand_refuse(a5, "trowexpandsub", EDIT(p.src0.valid_cols = 63), "trowexpandsub.valid");
  expand_refuse(a5, "trowexpandmax", EDIT(p.has_tmp = true, p.tmp = p.dst), "trowexpandmax.tmp");
  expand_refuse(a2, "tcolexpandadd", EDIT(p.has_tmp = true, p.tmp = p.dst), "tcolexpandadd.tmp");
  expand_refuse(a2, "tcolexpandmul", EDIT(p.src1 = tile(PTOSIM_DT_F32, 0x8000, 1, 64, 1, 60, ND)),
                "tcolexpandmul.valid");
  expand_refuse(a2, "tcolexpandmul", EDIT(p.src1 = tile(PTOSIM_DT_F32, 0x8000, 8, 64, 1, 64, DN)),
                "tcolexpandmul.layout");
  expand_refuse(a2, "trowexpand", EDIT(p.src0 = tile(PTOSIM_DT_F32, 0x8000, 15, 8, 15, 1, ND)), "trowexpand.valid");
  expand_refuse(a2, "tcolexpand", EDIT(p.src0 = tile(PTOSIM_DT_F16, 0x8000, 1, 64, 1, 64, ND)), "tcolexpand.dtype");
}

/* ---- text --------------------------------------------------------------------------------------- */

#define VT(r, c, vr, vc, bl)                                                                                  \
  "!pto.tile_buf<loc=vec, dtype=f32, rows=" #r ", cols=" #c ", v_row=" #vr ", v_col=" #vc ", blayout=" bl \
  ", slayout=none_box, fractal=512, pad=0>"

/* A row softmax without texp (the elementwise ops are another family's): y = exp(x - max)
 * / sum(exp(x - max)) through trowmax, trowexpandexpdif, trowsum (no tmp) and trowexpanddiv
 * (in place); then z row 0 = tcolsum (binary tree) of x, rows 1-2 = tcolexpand of tcolmax. */
static const char *softmax_src =
    "func.func @k(%x: !pto.ptr<f32>, %y: !pto.ptr<f32>, %z: !pto.ptr<f32>) attributes {pto.kernel} {\n"
    "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  %c2 = arith.constant 2 : index\n"
    "  %c3 = arith.constant 3 : index\n  %c8 = arith.constant 8 : index\n  %c40 = arith.constant 40 : index\n"
    "  %v = pto.make_tensor_view %x, shape = [%c8, %c40], strides = [%c40, %c1] : !pto.tensor_view<?x?xf32>\n"
    "  %p = pto.partition_view %v, offsets = [%c0, %c0], sizes = [%c8, %c40] : !pto.tensor_view<?x?xf32> -> "
    "!pto.partition_tensor_view<8x40xf32>\n"
    "  %w = pto.make_tensor_view %y, shape = [%c8, %c40], strides = [%c40, %c1] : !pto.tensor_view<?x?xf32>\n"
    "  %q = pto.partition_view %w, offsets = [%c0, %c0], sizes = [%c8, %c40] : !pto.tensor_view<?x?xf32> -> "
    "!pto.partition_tensor_view<8x40xf32>\n"
    "  %u = pto.make_tensor_view %z, shape = [%c3, %c40], strides = [%c40, %c1] : !pto.tensor_view<?x?xf32>\n"
    "  %r0 = pto.partition_view %u, offsets = [%c0, %c0], sizes = [%c1, %c40] : !pto.tensor_view<?x?xf32> -> "
    "!pto.partition_tensor_view<1x40xf32>\n"
    "  %r1 = pto.partition_view %u, offsets = [%c1, %c0], sizes = [%c2, %c40] : !pto.tensor_view<?x?xf32> -> "
    "!pto.partition_tensor_view<2x40xf32>\n"
    "  %t = pto.alloc_tile : " VT(8, 48, 8, 40, "row_major") "\n"
    "  %tmp = pto.alloc_tile : " VT(8, 48, 8, 40, "row_major") "\n"
    "  %e = pto.alloc_tile : " VT(8, 48, 8, 40, "row_major") "\n"
    "  %m = pto.alloc_tile : " VT(8, 1, 8, 1, "col_major") "\n"
    "  %s = pto.alloc_tile : " VT(8, 1, 8, 1, "col_major") "\n"
    "  %cs = pto.alloc_tile : " VT(1, 48, 1, 40, "row_major") "\n"
    "  %cm = pto.alloc_tile : " VT(1, 48, 1, 40, "row_major") "\n"
    "  %cx = pto.alloc_tile : " VT(2, 48, 2, 40, "row_major") "\n"
    "  pto.tload ins(%p : !pto.partition_tensor_view<8x40xf32>) outs(%t : " VT(8, 48, 8, 40, "row_major") ")\n"
    "  pto.trowmax ins(%t, %tmp : " VT(8, 48, 8, 40, "row_major") ", " VT(8, 48, 8, 40, "row_major") ") outs(%m : "
    VT(8, 1, 8, 1, "col_major") ")\n"
    "  pto.trowexpandexpdif ins(%t, %m : " VT(8, 48, 8, 40, "row_major") ", " VT(8, 1, 8, 1, "col_major") ") outs(%e : "
    VT(8, 48, 8, 40, "row_major") ")\n"
    "  pto.trowsum ins(%e : " VT(8, 48, 8, 40, "row_major") ") outs(%s : " VT(8, 1, 8, 1, "col_major") ")\n"
    "  pto.trowexpanddiv ins(%e, %s : " VT(8, 48, 8, 40, "row_major") ", " VT(8, 1, 8, 1, "col_major") ") outs(%e : "
    VT(8, 48, 8, 40, "row_major") ")\n"
    "  pto.tcolsum ins(%t, %tmp {isBinary = true} : " VT(8, 48, 8, 40, "row_major") ", " VT(8, 48, 8, 40, "row_major")
    ") outs(%cs : " VT(1, 48, 1, 40, "row_major") ")\n"
    "  pto.tcolmax ins(%t : " VT(8, 48, 8, 40, "row_major") ") outs(%cm : " VT(1, 48, 1, 40, "row_major") ")\n"
    "  pto.tcolexpand ins(%cm : " VT(1, 48, 1, 40, "row_major") ") outs(%cx : " VT(2, 48, 2, 40, "row_major") ")\n"
    "  pto.tstore ins(%e : " VT(8, 48, 8, 40, "row_major") ") outs(%q : !pto.partition_tensor_view<8x40xf32>)\n"
    "  pto.tstore ins(%cs : " VT(1, 48, 1, 40, "row_major") ") outs(%r0 : !pto.partition_tensor_view<1x40xf32>)\n"
    "  pto.tstore ins(%cx : " VT(2, 48, 2, 40, "row_major") ") outs(%r1 : !pto.partition_tensor_view<2x40xf32>)\n"
    "  return\n}\n";

static void test_text(void) {
  for (int ti = 0; ti < 2; ti++) {
    static float x[8 * 40], y[8 * 40], z[3 * 40];
    for (int i = 0; i < 8 * 40; i++) x[i] = (float)((int)(pt_rand_u64(&seed) % 2001) - 1000) / 128;
    void *bufs[] = {x, y, z};
    size_t sizes[] = {sizeof x, sizeof y, sizeof z};
    run_text(softmax_src, targets[ti], bufs, sizes, 3);
    int bad = 0;
    for (int r = 0; r < 8; r++) {
      double mx = x[r * 40], e[40];
      for (int c = 1; c < 40; c++) mx = fmax(mx, x[r * 40 + c]);
      for (int c = 0; c < 40; c++) e[c] = pt_exp_ref((float)(x[r * 40 + c] - mx));
      double s = row_ref(targets[ti], PTOSIM_DT_F32, R_SUM, e, 40);
      for (int c = 0; c < 40; c++) bad += y[r * 40 + c] != (float)(e[c] / s);
    }
    for (int c = 0; c < 40; c++) {
      double col[8], cm = x[c];
      for (int r = 0; r < 8; r++) col[r] = x[r * 40 + c], cm = fmax(cm, col[r]);
      bad += z[c] != (float)col_ref(targets[ti], PTOSIM_DT_F32, R_SUM, col, 8, 1);
      bad += z[40 + c] != (float)cm || z[80 + c] != (float)cm;
    }
    CHECK_MSG(bad == 0, "softmax text target %d: %d wrong", targets[ti], bad);
  }
}

/* ---- element types of session 13 (docs/spec-notes.md section 17) -------------------------------
 * Integer cases keep 64-bit values exact: elements are read sign- or zero-extended into an
 * int64_t, sums and products wrap in uint64_t and are stored by their low bytes, maxima compare
 * as signed or unsigned per type. Sources are the random UB bytes with edge values planted. */

static int is_signed_int(ptosim_dtype t) {
  return t == PTOSIM_DT_I8 || t == PTOSIM_DT_I16 || t == PTOSIM_DT_I32 || t == PTOSIM_DT_I64;
}
static int64_t iget(ptosim_dtype t, const uint8_t *p) {
  int64_t bits = 8 * es_of(t);
  uint64_t u = 0;
  memcpy(&u, p, (size_t)es_of(t)); /* little-endian host, as the simulated UB */
  if (bits < 64 && is_signed_int(t) && (u >> (bits - 1) & 1)) u |= ~0ull << bits;
  return (int64_t)u;
}
static void iput(ptosim_dtype t, uint8_t *p, int64_t v) { memcpy(p, &v, (size_t)es_of(t)); }
static int igt(ptosim_dtype t, int64_t a, int64_t b) { return is_signed_int(t) ? a > b : (uint64_t)a > (uint64_t)b; }

/* MIN, MAX, 0, -1 of every width (cut to a type's width: the low bytes), and 64-bit values
 * whose 32-bit halves differ in sign or tie. */
static const uint64_t edges[] = {0x8000000000000000ull, 0x7FFFFFFFFFFFFFFFull, 0, ~0ull, 0x00000000FFFFFFFFull,
                                 0xFFFFFFFF00000000ull, 0x7FFFFFFF80000000ull, 0x800000007FFFFFFFull,
                                 0x0000000180000000ull, 0x0000000100000000ull, 0x80, 0x7F, 0x8000, 0x7FFF,
                                 0x80000000ull, 0x7FFFFFFFull};
static void plant_edges(env *e, const ptosim_tile *s) {
  ptosim_dtype t = s->dtype;
  for (int r = 0; r < s->valid_rows; r++)
    for (int c = 0; c < s->valid_cols; c++) {
      uint64_t q = pt_rand_u64(&seed), v = edges[q % (sizeof edges / sizeof edges[0])];
      if (q >> 16 & 1) iput(t, at(e, s, r, c), (int64_t)v); /* iput stores the low es bytes */
    }
}

/* The reduction k of x[0, n) (the index for the arg forms). */
static int64_t int_ref(ptosim_dtype t, rkind k, const int64_t *x, int n) {
  uint64_t acc = (uint64_t)x[0];
  int best = 0;
  for (int i = 1; i < n; i++) {
    if (k == R_SUM) acc += (uint64_t)x[i];
    if (k == R_PROD) acc *= (uint64_t)x[i];
    if ((k == R_MAX || k == R_ARGMAX) ? igt(t, x[i], x[best]) : (k == R_MIN || k == R_ARGMIN) && igt(t, x[best], x[i]))
      best = i;
  }
  return k >= R_ARGMAX ? best : k == R_MAX || k == R_MIN ? x[best] : (int64_t)acc;
}

/* An integer row (col = 0) or column reduction of a vr x vc region of a rows x cols tile; dst
 * of a row form is ND with wide valid columns (only column 0 is written). */
static void int_case(ptosim_target tg, ptosim_dtype t, rkind k, int col, int rows, int cols, int vr, int vc) {
  env e = env_new(tg);
  ptosim_dtype dt = k >= R_ARGMAX ? PTOSIM_DT_I32 : t;
  ptosim_tile s = tile(t, 0x400, rows, cols, vr, vc, ND);
  int dcols = col ? cols + (int)(32 / es_of(dt)) : (int)(64 / es_of(dt)), n = col ? vc : vr, len = col ? vr : vc;
  ptosim_tile d = tile(dt, 0x28000, col ? 2 : rows, dcols, col ? 1 : vr, col ? vc : 5, ND);
  plant_edges(&e, &s);
  env_load(&e);
  int64_t x[1024];
  CHECK(len <= 1024);
  for (int j = 0; j < n; j++) {
    for (int i = 0; i < len; i++) x[i] = iget(t, col ? at(&e, &s, i, j) : at(&e, &s, j, i));
    iput(dt, col ? at(&e, &d, 0, j) : at(&e, &d, j, 0), int_ref(t, k, x, len));
  }
  ptosim_treduce_params p = {.src = s, .tmp = s, .has_tmp = k >= R_ARGMAX, .dst = d};
  char what[128];
  snprintf(what, sizeof what, "%s %s %dx%d valid %dx%d target %d", (col ? col_names : row_names)[k], pt_dtype_name(t),
           rows, cols, vr, vc, tg);
  finish(&e, run_reduce(e.c, (col ? col_names : row_names)[k], &p), what);
}

static void test_s13_a5_int_reduce(void) {
  const ptosim_target a5 = PTOSIM_TARGET_A5;
  static const ptosim_dtype w64[] = {PTOSIM_DT_I64, PTOSIM_DT_U64}, b8[] = {PTOSIM_DT_I8, PTOSIM_DT_U8};
  static const ptosim_dtype col_types[] = {PTOSIM_DT_U8, PTOSIM_DT_U16, PTOSIM_DT_U32, PTOSIM_DT_I64, PTOSIM_DT_U64};
  for (int i = 0; i < 2; i++)
    for (int k = R_SUM; k <= R_MIN; k++) { /* 64-bit rows: up to 64 valid columns, tails */
      int_case(a5, w64[i], (rkind)k, 0, 6, 72, 5, 64);
      int_case(a5, w64[i], (rkind)k, 0, 3, 40, 3, 37);
      int_case(a5, w64[i], (rkind)k, 0, 2, 8, 1, 1);
      if (k != R_SUM) int_case(a5, b8[i], (rkind)k, 0, 4, 640, 3, 514); /* 8-bit: three repeats, even tail */
      if (k != R_SUM) int_case(a5, b8[i], (rkind)k, 0, 2, 32, 2, 2);
    }
  for (size_t i = 0; i < sizeof col_types / sizeof col_types[0]; i++) {
    ptosim_dtype t = col_types[i];
    int blk = (int)(32 / es_of(t)), wide = es_of(t) == 8 ? 61 : 3 * blk + 5;
    for (int k = R_SUM; k <= R_PROD; k++) {
      if (k == R_PROD && (es_of(t) == 1 || es_of(t) == 8)) continue;
      int_case(a5, t, (rkind)k, 1, 14, es_of(t) == 8 ? 64 : 4 * blk, 13, wide);
      int_case(a5, t, (rkind)k, 1, 2, blk, 1, 1);
    }
    if (es_of(t) < 8) /* the binary tcolsum of unsigned types: wraps as any order */
      col_case(a5, t, R_SUM, 16, 2 * blk, 11, blk + 1, 1);
  }
  static const ptosim_dtype arg_types[] = {PTOSIM_DT_I8,  PTOSIM_DT_U8,  PTOSIM_DT_I16,
                                           PTOSIM_DT_U16, PTOSIM_DT_I32, PTOSIM_DT_U32};
  for (size_t i = 0; i < sizeof arg_types / sizeof arg_types[0]; i++) {
    ptosim_dtype t = arg_types[i];
    int blk = (int)(32 / es_of(t));
    for (int k = R_ARGMAX; k <= R_ARGMIN; k++) {
      int_case(a5, t, (rkind)k, 1, 20, 9 * blk, 17, 8 * blk + 3);
      int_case(a5, t, (rkind)k, 1, 3, blk, 1, 2);
    }
  }
  for (int k = R_ARGMAX; k <= R_ARGMIN; k++) col_case_v(a5, PTOSIM_DT_BF16, (rkind)k, 21, 48, 19, 35, 0, 1);
}

/* A2/A3 u16 / u32 (and f16 / f32) column arg forms compare f16 / f32 views of the bits: the
 * index moves unless best >= x (argmax; <= argmin), false for a NaN; best = max (min), NaN if
 * either is. Sources: the random UB bytes (NaN patterns, negative views) with ties planted. */
/* Index i rounded to f16's 11 significant bits, halves away from zero (vconv_s162f16a). */
static uint32_t f16_index(uint32_t i) {
  uint32_t spacing = 1;
  while (i / spacing >= 2048) spacing *= 2;
  uint32_t q = i / spacing, rem = i % spacing;
  return (q + (2 * rem >= spacing && spacing > 1)) * spacing;
}

static void a2_arg_case(ptosim_dtype t, rkind k, int rows, int cols, int vr, int vc) {
  env e = env_new(PTOSIM_TARGET_A2A3);
  ptosim_tile s = tile(t, 0x400, rows, cols, vr, vc, ND), d = tile(PTOSIM_DT_U32, 0x28000, 2, cols + 8, 1, vc, ND);
  ptosim_dtype view = es_of(t) == 2 ? PTOSIM_DT_F16 : PTOSIM_DT_F32;
  for (int r = 0; r < vr; r++)
    for (int c = 0; c < vc; c++) {
      uint64_t q = pt_rand_u64(&seed);
      static const uint32_t tie[] = {0, 0x80000000u, 0x3F800000u, 0x7F800000u};
      if (q % 4 == 0) iput(t, at(&e, &s, r, c), es_of(t) == 2 ? tie[q >> 8 & 3] >> 16 : tie[q >> 8 & 3]);
      if (q % 4 == 1 && r) memcpy(at(&e, &s, r, c), at(&e, &s, r - 1, c), (size_t)es_of(t)); /* equal to the row above */
      if (vr > 2048 && isnan(get(view, at(&e, &s, r, c)))) iput(t, at(&e, &s, r, c), 0); /* tall: no NaN */
    }
  env_load(&e);
  for (int c = 0; c < vc; c++) {
    double best = get(view, at(&e, &s, 0, c));
    int idx = 0;
    for (int r = 1; r < vr; r++) {
      double v = get(view, at(&e, &s, r, c));
      if (!(k == R_ARGMAX ? best >= v : best <= v)) idx = r;
      best = isnan(best) || isnan(v) ? NAN : (k == R_ARGMAX) == (v > best) ? v : best;
    }
    iput(PTOSIM_DT_U32, at(&e, &d, 0, c), es_of(t) == 2 ? f16_index((uint32_t)idx) : (uint32_t)idx);
  }
  ptosim_treduce_params p = {.src = s, .tmp = s, .has_tmp = true, .dst = d};
  char what[96];
  snprintf(what, sizeof what, "a2a3 %s %s valid %dx%d", col_names[k], pt_dtype_name(t), vr, vc);
  finish(&e, run_reduce(e.c, col_names[k], &p), what);
}

static void test_s13_a2_col_arg(void) {
  static const ptosim_dtype ts[] = {PTOSIM_DT_U16, PTOSIM_DT_U32, PTOSIM_DT_F16, PTOSIM_DT_F32};
  for (size_t i = 0; i < 4; i++)
    for (int k = R_ARGMAX; k <= R_ARGMIN; k++) {
      int blk = (int)(32 / es_of(ts[i]));
      a2_arg_case(ts[i], (rkind)k, 24, 10 * blk, 23, 9 * blk + 1);
      a2_arg_case(ts[i], (rkind)k, 1, blk, 1, 3);
      a2_arg_case(ts[i], (rkind)k, 2600, blk, 2599, blk - 1); /* indices past 2048 (2-byte: through f16) */
    }
}

/* Row reductions into an ND dst of several valid columns write its column 0 only (both targets). */
static void test_s13_row_wide_dst(void) {
  for (int ti = 0; ti < 2; ti++) {
    int_case(targets[ti], PTOSIM_DT_I32, R_SUM, 0, 5, 16, 5, 13);
    int_case(targets[ti], PTOSIM_DT_I16, R_MAX, 0, 3, 32, 2, 17);
    int_case(targets[ti], PTOSIM_DT_I32, R_ARGMIN, 0, 4, 8, 4, 8);
    int_case(targets[ti], PTOSIM_DT_I16, R_PROD, 0, 2, 16, 2, 16);
  }
}

static void test_s13_rules(void) {
  const ptosim_target a2 = PTOSIM_TARGET_A2A3, a5 = PTOSIM_TARGET_A5;
  const ptosim_treduce_params row = {.src = tile(PTOSIM_DT_I64, 0, 4, 72, 4, 72, ND),
                                     .dst = tile(PTOSIM_DT_I64, 0x8000, 4, 4, 4, 1, ND)},
                              col = {.src = tile(PTOSIM_DT_U64, 0, 4, 72, 4, 65, ND),
                                     .dst = tile(PTOSIM_DT_U64, 0x8000, 1, 72, 1, 65, ND)};
  ptosim_treduce_params p;
  reduce_refuse(a5, "trowsum", row, "trowsum.cols64");
  reduce_refuse(a5, "tcolmax", col, "tcolmax.cols64");
  reduce_refuse(a5, "tcolsum", (p = col, p.src.valid_cols = p.dst.valid_cols = 64, p.has_tmp = true, p.tmp = p.src, p),
                "tcolsum.tmp");
  reduce_refuse(a2, "trowsum", (p = row, p.src.valid_cols = 8, p), "trowsum.dtype");
  reduce_refuse(a5, "trowprod", (p = row, p.src.valid_cols = 8, p), "trowprod.dtype");
  p = col, p.src.cols = p.dst.cols = 96, p.src.valid_cols = p.dst.valid_cols = 64; /* 96: whole 32-byte lines */
  const ptosim_treduce_params col96 = p;
  reduce_refuse(a5, "tcolprod", (p = col96, p.src.dtype = p.dst.dtype = PTOSIM_DT_U8, p), "tcolprod.dtype");
  reduce_refuse(a2, "tcolmax", (p = col96, p.src.dtype = p.dst.dtype = PTOSIM_DT_U16, p), "tcolmax.dtype");
  reduce_refuse(a5, "tcolprod", (p = col96, p.src.dtype = p.dst.dtype = PTOSIM_DT_I64, p), "tcolprod.dtype");
  ptosim_treduce_params b8 = {.src = tile(PTOSIM_DT_U8, 0, 4, 64, 4, 63, ND), .dst = tile(PTOSIM_DT_U8, 0x8000, 4, 32, 4, 1, ND)};
  reduce_refuse(a5, "trowmin", b8, "trowmin.odd8");
  reduce_refuse(a5, "trowsum", (p = b8, p.src.valid_cols = 64, p), "trowsum.dtype");
  reduce_refuse(a2, "trowmax", (p = b8, p.src.valid_cols = 64, p), "trowmax.dtype");
  ptosim_treduce_params arg = {.src = tile(PTOSIM_DT_I16, 0, 4, 64, 4, 64, ND), .dst = tile(PTOSIM_DT_U32, 0x8000, 1, 64, 1, 64, ND)};
  arg.tmp = arg.src, arg.has_tmp = true;
  reduce_refuse(a2, "tcolargmax", arg, "tcolargmax.dtype"); /* A2/A3: f16 f32 u16 u32 only */
  reduce_refuse(a5, "tcolargmin", (p = arg, p.src.dtype = p.tmp.dtype = PTOSIM_DT_U64, p), "tcolargmin.dtype");
  reduce_refuse(a5, "tpairreducesum", (p = arg, p.has_tmp = false, p.src.dtype = PTOSIM_DT_I32, p.dst = p.src, p),
                "tpairreducesum.dtype");
}

int main(void) {
  RUN(test_row_reduce);
  RUN(test_row_reduce_many);
  RUN(test_row_reduce_fp32_shapes);
  RUN(test_col_reduce);
  RUN(test_col_reduce_many);
  RUN(test_levels);
  RUN(test_pairreducesum);
  RUN(test_broadcast_ops);
  RUN(test_expand);
  RUN(test_special_values);
  RUN(test_reduce_rules);
  RUN(test_expand_rules);
  RUN(test_text);
  RUN(test_s13_a5_int_reduce);
  RUN(test_s13_a2_col_arg);
  RUN(test_s13_row_wide_dst);
  RUN(test_s13_rules);
  return pt_test_finish();
}
