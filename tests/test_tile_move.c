/* Tile data movement: every op against a naive reference written from the spec formulas
 * (pto-isa docs/isa/tile/ops/memory-and-data-movement/ and the view/tile index maps of
 * docs/isa/state-and-types), element by element over logical indices, plus one negative
 * test per rule.
 *
 * All memories of the cluster (both UBs, L1, L0C, FB, one GM buffer) start random and are
 * mirrored in "expected" images; after each op every byte of every memory is compared with
 * the image the reference produced, so the bytes an op must not touch (neighbouring tiles,
 * pad-null padding) are checked too. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/dtype.h"
#include "harness.h"
#include "ptosim/ptosim.h"

#define GM_BYTES (1u << 20)

static unsigned long long seed = 0x71e5eedull;
static int64_t rnd(int64_t n) { return n > 0 ? (int64_t)(pt_rand_u64(&seed) % (unsigned long long)n) : 0; }

/* ---- the machine and its mirror ------------------------------------------------------ */

enum { S_GM, S_UB0, S_UB1, S_L1, S_L0C, S_FB, NSP };

typedef struct env {
  ptosim_target target;
  ptosim_machine *m;
  ptosim_core *aic, *aiv0, *aiv1;
  uint8_t *gm;
  uint64_t gm_addr;
  uint64_t cap[NSP];
  uint8_t *exp[NSP]; /* expected images */
  uint8_t *tmp;
} env;

static void randomize(uint8_t *p, uint64_t n) {
  for (uint64_t i = 0; i < n; i++) p[i] = (uint8_t)pt_rand_u64(&seed);
}

static ptosim_core *core_of(env *e, int s) { return s == S_UB0 ? e->aiv0 : s == S_UB1 ? e->aiv1 : e->aic; }
static ptosim_space space_of(int s) {
  static const ptosim_space sp[NSP] = {PTOSIM_GM, PTOSIM_UB, PTOSIM_UB, PTOSIM_L1, PTOSIM_L0C, PTOSIM_FB};
  return sp[s];
}

static env env_new(ptosim_target target) {
  env e;
  memset(&e, 0, sizeof e);
  e.target = target;
  e.m = ptosim_machine_new(target, 1);
  e.aic = ptosim_core_of(e.m, 0, PTOSIM_AIC);
  e.aiv0 = ptosim_core_of(e.m, 0, PTOSIM_AIV0);
  e.aiv1 = ptosim_core_of(e.m, 0, PTOSIM_AIV1);
  e.gm = malloc(GM_BYTES);
  e.tmp = malloc(GM_BYTES);
  CHECK(ptosim_gm_map(e.m, e.gm, GM_BYTES, &e.gm_addr) == PTOSIM_OK);
  for (int s = 0; s < NSP; s++) {
    e.cap[s] = s == S_GM ? GM_BYTES : ptosim_space_capacity(e.m, space_of(s));
    e.exp[s] = malloc(e.cap[s]);
    randomize(e.exp[s], e.cap[s]);
    if (s == S_GM)
      memcpy(e.gm, e.exp[s], GM_BYTES);
    else
      CHECK(ptosim_mem_write(core_of(&e, s), space_of(s), 0, e.exp[s], e.cap[s]) == PTOSIM_OK);
  }
  return e;
}

static void env_free(env *e) {
  ptosim_machine_free(e->m);
  free(e->gm);
  free(e->tmp);
  for (int s = 0; s < NSP; s++) free(e->exp[s]);
}

static const char *const sp_name[NSP] = {"gm", "ub0", "ub1", "l1", "l0c", "fb"};

/* Compare every memory with its image; on mismatch report the first byte and resync. */
static int check_all(env *e, const char *ctx) {
  int ok = 1;
  for (int s = 0; s < NSP; s++) {
    uint8_t *act = e->gm;
    if (s != S_GM) {
      ptosim_mem_read(core_of(e, s), space_of(s), 0, e->tmp, e->cap[s]);
      act = e->tmp;
    }
    if (!memcmp(act, e->exp[s], e->cap[s])) continue;
    uint64_t i = 0;
    while (act[i] == e->exp[s][i]) i++;
    CHECK_MSG(0, "%s: %s byte 0x%" PRIx64 " is 0x%02x, expected 0x%02x", ctx, sp_name[s], i, act[i], e->exp[s][i]);
    memcpy(e->exp[s], act, e->cap[s]);
    ok = 0;
  }
  return ok;
}

/* Take the memories as they are (after an op the test does not model). */
static void resync(env *e) {
  memcpy(e->exp[S_GM], e->gm, GM_BYTES);
  for (int s = 1; s < NSP; s++) ptosim_mem_read(core_of(e, s), space_of(s), 0, e->exp[s], e->cap[s]);
}

static int is_a5(const env *e) { return e->target == PTOSIM_TARGET_A5; }

static const char *diag_rule(env *e) { return ptosim_last_diag(e->m)->rule; }

static void expect_ok(env *e, ptosim_status st, const char *ctx) {
  CHECK_MSG(st == PTOSIM_OK, "%s: status %d [%s] %s", ctx, (int)st, diag_rule(e), ptosim_last_diag(e->m)->msg);
}

/* A failing op names the rule and changes nothing. */
static inline void expect_rule(env *e, ptosim_status st, const char *rule, const char *ctx) {
  CHECK_MSG(st != PTOSIM_OK && !strcmp(diag_rule(e), rule), "%s: status %d rule [%s] %s, expected [%s]", ctx, (int)st,
            diag_rule(e), ptosim_last_diag(e->m)->msg, rule);
  check_all(e, ctx);
}

/* ---- element types and pad values ---------------------------------------------------- */

static unsigned esize(ptosim_dtype t) {
  switch (t) {
    case PTOSIM_DT_I16:
    case PTOSIM_DT_U16:
    case PTOSIM_DT_F16:
    case PTOSIM_DT_BF16: return 2;
    case PTOSIM_DT_I32:
    case PTOSIM_DT_U32:
    case PTOSIM_DT_F32: return 4;
    case PTOSIM_DT_I64:
    case PTOSIM_DT_U64: return 8;
    default: return 1;
  }
}

static const ptosim_dtype a2_types[] = {PTOSIM_DT_I8,  PTOSIM_DT_U8,   PTOSIM_DT_I16, PTOSIM_DT_U16,
                                        PTOSIM_DT_I32, PTOSIM_DT_U32,  PTOSIM_DT_I64, PTOSIM_DT_U64,
                                        PTOSIM_DT_F16, PTOSIM_DT_BF16, PTOSIM_DT_F32};
static const ptosim_dtype a5_extra[] = {PTOSIM_DT_F8E4M3, PTOSIM_DT_F8E5M2, PTOSIM_DT_HIF8, PTOSIM_DT_F8E8M0};

static ptosim_dtype pick_type(env *e, int no64) {
  for (;;) {
    int n = 11 + (is_a5(e) ? 4 : 0);
    int64_t k = rnd(n);
    ptosim_dtype t = k < 11 ? a2_types[k] : a5_extra[k - 11];
    if (!(no64 && esize(t) == 8)) return t;
  }
}

/* Pad value bytes (pto-isa constants.hpp PadValueMap; docs state-and-types/data-format.md). */
static uint64_t ref_pad(ptosim_dtype t, ptosim_pad_value v) {
  if (v == PTOSIM_PAD_ZERO || v == PTOSIM_PAD_NULL) return 0;
  int mx = v == PTOSIM_PAD_MAX;
  switch (t) {
    case PTOSIM_DT_F32: return mx ? 0x7f800000u : 0xff800000u;
    case PTOSIM_DT_F16: return mx ? 0x7c00u : 0xfc00u;
    case PTOSIM_DT_BF16: return mx ? 0x7f80u : 0xff80u;
    case PTOSIM_DT_I8: return mx ? 0x7f : 0x80;
    case PTOSIM_DT_U8: return mx ? 0xff : 0;
    case PTOSIM_DT_I16: return mx ? 0x7fff : 0x8000;
    case PTOSIM_DT_U16: return mx ? 0xffff : 0;
    case PTOSIM_DT_I32: return mx ? 0x7fffffffu : 0x80000000u;
    case PTOSIM_DT_U32: return mx ? 0xffffffffu : 0;
    default: return 0;
  }
}

/* ---- tiles ------------------------------------------------------------------------------- */

typedef enum { K_ND, K_DN, K_NZ, K_ZN, K_ZZ, K_NN } kind;

static ptosim_tile make_tile(kind k, ptosim_space sp, ptosim_dtype t, int rows, int cols, int vr, int vc) {
  ptosim_tile tl;
  memset(&tl, 0, sizeof tl);
  tl.space = sp, tl.dtype = t, tl.rows = rows, tl.cols = cols, tl.valid_rows = vr, tl.valid_cols = vc;
  tl.fractal = k == K_ZZ || k == K_NN ? 32 : 512;
  tl.blayout = k == K_ND || k == K_ZN || k == K_ZZ ? PTOSIM_BL_ROW_MAJOR : PTOSIM_BL_COL_MAJOR;
  tl.slayout = k == K_ND || k == K_DN   ? PTOSIM_SL_NONE_BOX
               : k == K_NZ || k == K_ZZ ? PTOSIM_SL_ROW_MAJOR
                                        : PTOSIM_SL_COL_MAJOR;
  return tl;
}

/* Byte offset of element (r, c): the layouts as the spec pictures them, one formula each. */
static int64_t ref_toff(kind k, int64_t rows, int64_t cols, int64_t es, int64_t r, int64_t c) {
  int64_t cw = 32 / es;
  switch (k) {
    case K_ND: return (r * cols + c) * es;
    case K_DN: return (c * rows + r) * es;
    case K_NZ: return (c / cw) * rows * 32 + r * 32 + (c % cw) * es;              /* column blocks of 32-byte rows */
    case K_ZN: return (r / cw) * cols * 32 + c * 32 + (r % cw) * es;              /* row blocks of 32-byte columns */
    case K_ZZ: return (r / 16) * 16 * cols + (c / 2) * 32 + (r % 16) * 2 + c % 2; /* 16x2 scale boxes */
    default: return (c / 16) * 16 * rows + (r / 2) * 32 + (c % 16) * 2 + r % 2;   /* NN: 2x16 boxes */
  }
}

static kind kind_of(const ptosim_tile *t) {
  if (t->slayout == PTOSIM_SL_NONE_BOX) return t->blayout == PTOSIM_BL_ROW_MAJOR ? K_ND : K_DN;
  if (t->blayout == PTOSIM_BL_ROW_MAJOR) return t->slayout == PTOSIM_SL_ROW_MAJOR ? K_ZZ : K_ZN;
  return t->slayout == PTOSIM_SL_ROW_MAJOR ? K_NZ : K_NN;
}

/* Image slot and base byte of a tile. */
static int slot_of(const ptosim_tile *t, int sub) {
  return t->space == PTOSIM_UB    ? (sub ? S_UB1 : S_UB0)
         : t->space == PTOSIM_L1  ? S_L1
         : t->space == PTOSIM_L0C ? S_L0C
                                  : S_FB;
}

static uint8_t *tile_elem(env *e, const ptosim_tile *t, int sub, int64_t r, int64_t c) {
  return e->exp[slot_of(t, sub)] + t->addr + ref_toff(kind_of(t), t->rows, t->cols, esize(t->dtype), r, c);
}

/* ---- GM views ---------------------------------------------------------------------------- */

/* GM byte offset (from the view base) of tile element (r, c), by the view layout's index map
 * (pto-isa docs; include/pto/cpu/tile_offsets.hpp). */
static int64_t ref_goff(const ptosim_gm_view *v, int64_t r, int64_t c) {
  const int64_t *s = v->shape;
  int64_t i[5] = {0};
  switch (v->layout) {
    case PTOSIM_GL_ND:
      i[4] = c, i[3] = r % s[3], i[2] = r / s[3] % s[2], i[1] = r / (s[3] * s[2]) % s[1],
      i[0] = r / (s[1] * s[2] * s[3]);
      break;
    case PTOSIM_GL_DN:
      i[3] = r, i[4] = c % s[4], i[2] = c / s[4] % s[2], i[1] = c / (s[4] * s[2]) % s[1],
      i[0] = c / (s[1] * s[2] * s[4]);
      break;
    case PTOSIM_GL_NZ:
      i[0] = c / s[4] / s[1], i[1] = c / s[4] % s[1], i[2] = r / 16, i[3] = r % 16, i[4] = c % s[4];
      break;
    case PTOSIM_GL_MX_A_ZZ:
      i[0] = r / 16 / s[1], i[1] = r / 16 % s[1], i[2] = c / 2, i[3] = r % 16, i[4] = c % 2;
      break;
    case PTOSIM_GL_MX_B_NN:
      i[0] = c / 16 / s[1], i[1] = c / 16 % s[1], i[2] = r / 2, i[3] = c % 16, i[4] = r % 2;
      break;
    case PTOSIM_GL_MX_A_ND: i[2] = r, i[3] = c / 2, i[4] = c % 2; break;
    case PTOSIM_GL_MX_A_DN: i[2] = c / 2, i[3] = r, i[4] = c % 2; break;
    case PTOSIM_GL_MX_B_ND: i[2] = r / 2, i[3] = c, i[4] = r % 2; break;
    default: i[2] = c, i[3] = r / 2, i[4] = r % 2; break; /* MX_B_DN */
  }
  int64_t off = 0;
  for (int d = 0; d < 5; d++) off += i[d] * v->stride[d];
  return off * (int64_t)esize(v->dtype);
}

/* Bytes the view can touch: its last element + 1. */
static int64_t view_extent(const ptosim_gm_view *v) {
  int64_t top = 0;
  for (int d = 0; d < 5; d++) top += (v->shape[d] - 1) * v->stride[d];
  return (top + 1) * (int64_t)esize(v->dtype);
}

/* Place the view at a random GM offset where it fits. */
static void place_view(env *e, ptosim_gm_view *v) {
  int64_t ext = view_extent(v);
  v->addr = e->gm_addr + (uint64_t)rnd((int64_t)GM_BYTES - ext);
}

static int64_t gap(void) { return rnd(3) ? 0 : 1 + rnd(5); }

/* Split n into k factors (product n). */
static void split(int64_t n, int k, int64_t *f) {
  for (int i = 0; i < k; i++) f[i] = 1;
  for (int i = 0; i < k - 1; i++) {
    int64_t d = 1 + rnd(4);
    if (n % d == 0) f[i] = d, n /= d;
  }
  f[k - 1] = n;
}

/* Packed-with-gaps strides for dims dlist (innermost first), starting at `inner` elements;
 * sometimes a broadcast (stride 0) dimension when bcast. */
static void stack_strides(ptosim_gm_view *v, const int *dims, int nd, int64_t inner, int bcast) {
  int64_t st = inner;
  for (int k = 0; k < nd; k++) {
    int d = dims[k];
    v->stride[d] = rnd(10) || !bcast ? st + gap() : 0;
    st = (v->stride[d] ? v->stride[d] : st) * v->shape[d] + gap();
  }
}

enum { V_FLAT = 1, V_NOBCAST = 2 };

/* A random view of layout l carrying a vr x vc region of type t (inner dims contiguous).
 * flags: V_FLAT a 2-D view {1, 1, 1, rows, cols}; V_NOBCAST no stride-0 dimension (for
 * stores: every element its own GM bytes). */
static ptosim_gm_view make_view(env *e, ptosim_gm_layout l, ptosim_dtype t, int64_t vr, int64_t vc, int flags) {
  int flat = flags & V_FLAT, bc = !(flags & (V_FLAT | V_NOBCAST));
  ptosim_gm_view v;
  memset(&v, 0, sizeof v);
  v.dtype = t, v.layout = l;
  int64_t *s = v.shape, *st = v.stride, cw = 32 / esize(t);
  for (int d = 0; d < 5; d++) s[d] = 1;
  switch (l) {
    case PTOSIM_GL_ND: {
      split(vr, flat ? 1 : 4, s + (flat ? 3 : 0));
      s[4] = vc, st[4] = 1;
      stack_strides(&v, (int[]){3, 2, 1, 0}, 4, vc + gap(), bc);
      break;
    }
    case PTOSIM_GL_DN: {
      int64_t f[4] = {1, 1, 1, vc};
      if (!flat) split(vc, 4, f);
      s[0] = f[0], s[1] = f[1], s[2] = f[2], s[4] = f[3], s[3] = vr, st[3] = 1;
      stack_strides(&v, (int[]){4, 2, 1, 0}, 4, vr + gap(), bc);
      break;
    }
    case PTOSIM_GL_NZ: {
      split(vc / cw, 2, s);
      s[2] = vr / 16, s[3] = 16, s[4] = cw, st[4] = 1, st[3] = cw, st[2] = 16 * cw;
      stack_strides(&v, (int[]){1, 0}, 2, s[2] * 16 * cw + gap(), bc);
      break;
    }
    case PTOSIM_GL_MX_A_ZZ:
    case PTOSIM_GL_MX_B_NN: {
      int64_t blocks = l == PTOSIM_GL_MX_A_ZZ ? vr / 16 : vc / 16, groups = l == PTOSIM_GL_MX_A_ZZ ? vc : vr;
      split(blocks, 2, s);
      s[2] = groups / 2, s[3] = 16, s[4] = 2, st[4] = 1, st[3] = 2, st[2] = 32;
      stack_strides(&v, (int[]){1, 0}, 2, s[2] * 32 + gap(), bc);
      break;
    }
    default: { /* MX_*_ND / _DN: {1, 1, s2, s3, 2} with pairs in dim 4 */
      int a = l == PTOSIM_GL_MX_A_ND || l == PTOSIM_GL_MX_A_DN;
      int lanes_first = l == PTOSIM_GL_MX_A_ND || l == PTOSIM_GL_MX_B_DN; /* s2 = lanes */
      int64_t lanes = a ? vr : vc, pairs = (a ? vc : vr) / 2;
      s[2] = lanes_first ? lanes : pairs, s[3] = lanes_first ? pairs : lanes, s[4] = 2;
      st[4] = 1, st[3] = 2, st[2] = 2 * s[3] + gap();
      break;
    }
  }
  place_view(e, &v);
  return v;
}

/* ---- TLOAD reference ------------------------------------------------------------------- */

typedef enum { Z_NONE, Z_LANES, Z_LINE } ztail;

/* Bytes the hardware zeroes besides the data when pad is null: the C0 lanes past the valid
 * extent in the last fractal block (nd2nz / dn2nz conversions), or the rest of the 32-byte
 * block of each L1 row / column (Z_LINE). Returns whether (r, c) is such an element. */
static int hw_zero(ztail z, kind k, const ptosim_tile *t, int64_t r, int64_t c) {
  int64_t es = esize(t->dtype), vr = t->valid_rows, vc = t->valid_cols;
  if (z == Z_NONE) return 0;
  if (z == Z_LINE) {
    int64_t end_c = (vc * es + 31) / 32 * 32 / es, end_r = (vr * es + 31) / 32 * 32 / es;
    return k == K_ND ? r < vr && c >= vc && c < end_c : c < vc && r >= vr && r < end_r;
  }
  int64_t lane = k == K_NZ || k == K_NN ? 32 / es : 16; /* C0 in elements (MX: 16 pairs) */
  if (k == K_NZ) return r < vr && c >= vc && c < (vc + lane - 1) / lane * lane;
  if (k == K_ZN) return c < vc && r >= vr && r < (vr + 32 / es - 1) / (32 / es) * (32 / es);
  if (k == K_ZZ) return c < vc && r >= vr && r < (vr + 15) / 16 * 16;
  return r < vr && c >= vc && c < (vc + 15) / 16 * 16; /* NN */
}

static void ref_tload(env *e, const ptosim_tload_params *p, int sub, ztail z) {
  const ptosim_tile *t = &p->dst;
  kind k = kind_of(t);
  int64_t es = esize(t->dtype);
  uint64_t pv = ref_pad(t->dtype, t->pad);
  for (int64_t r = 0; r < t->rows; r++)
    for (int64_t c = 0; c < t->cols; c++) {
      uint8_t *d = tile_elem(e, t, sub, r, c);
      if (r < t->valid_rows && c < t->valid_cols)
        memcpy(d, e->exp[S_GM] + (p->src.addr - e->gm_addr) + ref_goff(&p->src, r, c), (size_t)es);
      else if (t->pad != PTOSIM_PAD_NULL)
        for (int64_t b = 0; b < es; b++) d[b] = (uint8_t)(pv >> (8 * b));
      else if (hw_zero(z, k, t, r, c))
        memset(d, 0, (size_t)es);
    }
}

/* A random tile address in its space where the whole tile fits (32-byte aligned). */
static int place_tile(env *e, ptosim_tile *t, int slot) {
  int64_t bytes = (int64_t)t->rows * t->cols * esize(t->dtype);
  if (bytes > (int64_t)e->cap[slot]) return 0;
  t->addr = (uint64_t)(rnd(((int64_t)e->cap[slot] - bytes) / 32 + 1) * 32);
  return 1;
}

static ptosim_pad_value pick_pad(void) { return (ptosim_pad_value)rnd(4); }

/* Round up to a multiple of m. */
static int64_t up(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

/* One random TLOAD of layout pair (l, k) into space sp; checks the result and every byte. */
static void tload_case(env *e, ptosim_gm_layout l, kind k, ptosim_space sp, ptosim_dtype t, const char *name, int it) {
  int64_t es = esize(t), cw = 32 / es;
  int64_t vr = 1 + rnd(40), vc = 1 + rnd(40), rows, cols;
  ztail z = Z_NONE;
  switch (k) {
    case K_ND: rows = vr + rnd(5), cols = up(vc + rnd(cw * 2), cw); break;
    case K_DN: rows = up(vr + rnd(cw * 2), cw), cols = vc + rnd(5); break;
    case K_NZ:
      if (l == PTOSIM_GL_NZ) vr = up(vr, 16), vc = up(vc, cw);
      rows = up(vr + rnd(20), 16), cols = up(vc + rnd(cw * 2), cw);
      break;
    case K_ZN: rows = up(vr + rnd(cw * 2), cw), cols = up(vc + rnd(20), 16); break;
    case K_ZZ:
      if (l == PTOSIM_GL_MX_A_ZZ) vr = up(vr, 16);
      vc = up(vc, 2), rows = up(vr + rnd(20), 16), cols = up(vc + rnd(6), 2);
      break;
    default:
      if (l == PTOSIM_GL_MX_B_NN) vc = up(vc, 16);
      vr = up(vr, 2), rows = up(vr + rnd(6), 2), cols = up(vc + rnd(20), 16);
      break;
  }
  if (l != PTOSIM_GL_ND && l != PTOSIM_GL_DN && l != PTOSIM_GL_NZ && l != PTOSIM_GL_MX_A_ZZ && l != PTOSIM_GL_MX_B_NN)
    z = Z_LANES;
  if ((l == PTOSIM_GL_ND && k == K_NZ) || (l == PTOSIM_GL_DN && k != K_DN)) z = Z_LANES;
  int mat = sp == PTOSIM_L1;
  if (mat && (k == K_ND || k == K_DN)) {
    int one_line = k == K_ND ? rows == 1 : cols == 1;
    if (is_a5(e) || one_line) z = Z_LINE;
    if (!is_a5(e) && !one_line) { /* a2a3 L1 lines are whole 32-byte blocks */
      if (k == K_ND)
        vc = up(vc, cw), cols = up(cols > vc ? cols : vc, cw);
      else
        vr = up(vr, cw), rows = up(rows > vr ? rows : vr, cw);
    }
  }
  ptosim_tload_params p;
  p.dst = make_tile(k, sp, t, (int)rows, (int)cols, (int)vr, (int)vc);
  p.dst.pad = (es == 8 && is_a5(e)) ? (ptosim_pad_value)rnd(2) : pick_pad();
  int sub = sp == PTOSIM_UB ? (int)rnd(2) : 0;
  if (!place_tile(e, &p.dst, sp == PTOSIM_UB ? S_UB0 : S_L1)) return;
  p.src = make_view(e, l, t, vr, vc, z == Z_LANES ? V_FLAT : 0);
  char ctx[160];
  snprintf(ctx, sizeof ctx,
           "tload %s %s %s on %s, case %d (%" PRId64 "x%" PRId64 " in %" PRId64 "x%" PRId64 ", pad %d)", name,
           pt_dtype_name(t), sp == PTOSIM_UB ? "vec" : "mat", is_a5(e) ? "a5" : "a2a3", it, vr, vc, rows, cols,
           (int)p.dst.pad);
  ptosim_status st = ptosim_tload(sp == PTOSIM_UB ? (sub ? e->aiv1 : e->aiv0) : e->aic, &p);
  expect_ok(e, st, ctx);
  if (st == PTOSIM_OK) ref_tload(e, &p, sub, z);
  check_all(e, ctx);
}

static const ptosim_target targets[] = {PTOSIM_TARGET_A2A3, PTOSIM_TARGET_A5};

/* n random cases of `one` on each target, one machine per target (memories persist). */
static void each_target(int n, void (*one)(env *e, int it)) {
  for (int ti = 0; ti < 2; ti++) {
    env e = env_new(targets[ti]);
    for (int it = 0; it < n; it++) one(&e, it);
    env_free(&e);
  }
}

static void tload_vec_case(env *e, int it) {
  static const struct {
    ptosim_gm_layout l;
    kind k;
    const char *name;
  } pairs[] = {{PTOSIM_GL_ND, K_ND, "nd->nd"}, {PTOSIM_GL_DN, K_DN, "dn->dn"}, {PTOSIM_GL_NZ, K_NZ, "nz->nz"}};
  int pi = (int)rnd(3);
  tload_case(e, pairs[pi].l, pairs[pi].k, PTOSIM_UB, pick_type(e, pairs[pi].k == K_NZ), pairs[pi].name, it);
}

static void tload_mat_case(env *e, int it) {
  static const struct {
    ptosim_gm_layout l;
    kind k;
    int a5;
    const char *name;
  } pairs[] = {{PTOSIM_GL_ND, K_ND, 0, "nd->nd"},           {PTOSIM_GL_DN, K_DN, 0, "dn->dn"},
               {PTOSIM_GL_NZ, K_NZ, 0, "nz->nz"},           {PTOSIM_GL_ND, K_NZ, 0, "nd->nz"},
               {PTOSIM_GL_DN, K_ZN, 0, "dn->zn"},           {PTOSIM_GL_DN, K_NZ, 1, "dn->nz"},
               {PTOSIM_GL_MX_A_ZZ, K_ZZ, 1, "mx_a_zz->zz"}, {PTOSIM_GL_MX_A_ND, K_ZZ, 1, "mx_a_nd->zz"},
               {PTOSIM_GL_MX_A_DN, K_ZZ, 1, "mx_a_dn->zz"}, {PTOSIM_GL_MX_B_NN, K_NN, 1, "mx_b_nn->nn"},
               {PTOSIM_GL_MX_B_ND, K_NN, 1, "mx_b_nd->nn"}, {PTOSIM_GL_MX_B_DN, K_NN, 1, "mx_b_dn->nn"}};
  int pi = (int)rnd((int)(sizeof pairs / sizeof pairs[0]));
  if (pairs[pi].a5 && !is_a5(e)) return;
  int mx = pairs[pi].l >= PTOSIM_GL_MX_A_ZZ, frac = pairs[pi].k != K_ND && pairs[pi].k != K_DN;
  ptosim_dtype t = mx ? PTOSIM_DT_F8E8M0 : pick_type(e, frac);
  tload_case(e, pairs[pi].l, pairs[pi].k, PTOSIM_L1, t, pairs[pi].name, it);
}

static void test_tload_vec(void) { each_target(150, tload_vec_case); }

/* An a5 vec NZ load of a view with more rows than the tile's valid rows copies the valid rows of
 * each column block (pto-isa register/tload_common.hpp TLoadVecNZ2NZ; hardware test
 * TInsertTest.case_nz_14: a 16-row-valid tile from a 32-row NZ array); a2a3 keeps the rule. */
static void test_tload_nz_short_rows(void) {
  static const int vrs[] = {16, 5, 31};
  for (int ti = 0; ti < 2; ti++) {
    env e = env_new(targets[ti]);
    for (int i = 0; i < 3; i++) {
      ptosim_dtype t = i == 1 ? PTOSIM_DT_F16 : PTOSIM_DT_F32;
      int64_t cw = 32 / esize(t);
      ptosim_tload_params p;
      p.dst = make_tile(K_NZ, PTOSIM_UB, t, 48, (int)(2 * cw), vrs[i], (int)(2 * cw));
      p.dst.pad = PTOSIM_PAD_NULL;
      if (!place_tile(&e, &p.dst, S_UB0)) continue;
      p.src = make_view(&e, PTOSIM_GL_NZ, t, 32, 2 * cw, 0);
      char ctx[96];
      snprintf(ctx, sizeof ctx, "nz load of %d valid rows from a 32-row view on %s", vrs[i], is_a5(&e) ? "a5" : "a2a3");
      ptosim_status st = ptosim_tload(e.aiv0, &p);
      if (is_a5(&e)) {
        expect_ok(&e, st, ctx);
        if (st == PTOSIM_OK) ref_tload(&e, &p, 0, Z_NONE);
        check_all(&e, ctx);
      } else {
        expect_rule(&e, st, "tload.view_shape", ctx);
      }
    }
    env_free(&e);
  }
}
static void test_tload_mat(void) { each_target(400, tload_mat_case); }

/* An a5 MX_A_ZZ / MX_B_NN scale load copies the whole view, which need only fit the tile's
 * static shape (a5 TLoad.hpp TLoadMxCubeCheck; pto-isa's tmatmul_mx kernels load scales padded
 * to 16 rows into a tile of fewer valid rows): the bytes equal those of the same load into a
 * tile whose valid region is the view's. A view beyond the static shape: tload.view_shape. */
static void test_tload_mx_short_valid(void) {
  env e = env_new(PTOSIM_TARGET_A5);
  for (int b = 0; b < 2; b++) {
    ptosim_gm_layout l = b ? PTOSIM_GL_MX_B_NN : PTOSIM_GL_MX_A_ZZ;
    int64_t lanes = 32, groups = 6; /* the view: 32 lanes (A rows / B columns) x 6 scales */
    ptosim_tload_params p;
    p.dst = b ? make_tile(K_NN, PTOSIM_L1, PTOSIM_DT_F8E8M0, 8, 48, 5, 27)
              : make_tile(K_ZZ, PTOSIM_L1, PTOSIM_DT_F8E8M0, 48, 8, 27, 5);
    if (!place_tile(&e, &p.dst, S_L1)) continue;
    p.src = make_view(&e, l, PTOSIM_DT_F8E8M0, b ? groups : lanes, b ? lanes : groups, 0);
    const char *ctx = b ? "mx_b_nn view of 6 x 32 into a 5 x 27 valid tile" : "mx_a_zz view of 32 x 6 into a 27 x 5 valid tile";
    ptosim_status st = ptosim_tload(e.aic, &p);
    expect_ok(&e, st, ctx);
    ptosim_tload_params whole = p;
    whole.dst.valid_rows = (int)(b ? groups : lanes), whole.dst.valid_cols = (int)(b ? lanes : groups);
    if (st == PTOSIM_OK) ref_tload(&e, &whole, 0, Z_NONE);
    check_all(&e, ctx);
    p.src = make_view(&e, l, PTOSIM_DT_F8E8M0, b ? 10 : 64, b ? 64 : 10, 0); /* more than the 48 x 8 / 8 x 48 tile */
    expect_rule(&e, ptosim_tload(e.aic, &p), "tload.view_shape", "mx view beyond the tile");
  }
  env_free(&e);
}

/* Regression (existing CPU simulator): a TLOAD writes only its own tile. The neighbour right
 * after the tile keeps its bytes, and pad null leaves the tile's own padding untouched. */
static void test_tload_neighbour(void) {
  env e = env_new(PTOSIM_TARGET_A5);
  ptosim_tload_params p;
  p.dst = make_tile(K_ND, PTOSIM_UB, PTOSIM_DT_F16, 16, 16, 10, 12);
  p.dst.addr = 0x1000;
  p.src = make_view(&e, PTOSIM_GL_ND, PTOSIM_DT_F16, 10, 12, V_FLAT);
  uint8_t before[1024], after[1024];
  for (int pad = 0; pad < 4; pad++) {
    p.dst.pad = (ptosim_pad_value)pad;
    ptosim_mem_read(e.aiv0, PTOSIM_UB, 0x1000, before, sizeof before);
    expect_ok(&e, ptosim_tload(e.aiv0, &p), "neighbour");
    ptosim_mem_read(e.aiv0, PTOSIM_UB, 0x1000, after, sizeof after);
    CHECK(!memcmp(before + 512, after + 512, 512)); /* the next tile */
    for (int r = 0; r < 16; r++)
      for (int c = 0; c < 16; c++) {
        int off = (r * 16 + c) * 2;
        if (r < 10 && c < 12)
          CHECK(!memcmp(after + off, e.gm + (p.src.addr - e.gm_addr) + (uint64_t)(r * p.src.stride[3] + c) * 2, 2));
        else if (pad == PTOSIM_PAD_NULL)
          CHECK(!memcmp(after + off, before + off, 2));
        else
          CHECK(after[off] == (uint8_t)ref_pad(PTOSIM_DT_F16, p.dst.pad) &&
                after[off + 1] == (uint8_t)(ref_pad(PTOSIM_DT_F16, p.dst.pad) >> 8));
      }
  }
  env_free(&e);
}

/* Regression: the same program on the same inputs gives the same bytes, run after run. */
static void run_sequence(env *e) {
  for (int it = 0; it < 40; it++) {
    int pi = (int)rnd(3);
    static const ptosim_gm_layout ls[] = {PTOSIM_GL_ND, PTOSIM_GL_DN, PTOSIM_GL_ND};
    static const kind ks[] = {K_ND, K_DN, K_NZ};
    tload_case(e, ls[pi], ks[pi], pi == 2 ? PTOSIM_L1 : PTOSIM_UB, pick_type(e, pi == 2), "sequence", it);
  }
}

static void test_determinism(void) {
  uint8_t *img[2][NSP];
  uint64_t caps[NSP];
  for (int run = 0; run < 2; run++) {
    seed = 0xde7e4ull;
    env e = env_new(PTOSIM_TARGET_A5);
    run_sequence(&e);
    for (int s = 0; s < NSP; s++) {
      caps[s] = e.cap[s];
      img[run][s] = malloc(e.cap[s]);
      memcpy(img[run][s], e.exp[s], e.cap[s]);
    }
    check_all(&e, "determinism");
    env_free(&e);
  }
  for (int s = 0; s < NSP; s++) {
    CHECK(!memcmp(img[0][s], img[1][s], caps[s]));
    free(img[0][s]);
    free(img[1][s]);
  }
}

/* A valid 2-D TLOAD on target t: a vr x vc region of a rows x cols tile of kind k. */
static ptosim_tload_params tload_ok(env *e, ptosim_gm_layout l, kind k, ptosim_space sp, ptosim_dtype t, int rows,
                                    int cols, int vr, int vc) {
  ptosim_tload_params p;
  p.dst = make_tile(k, sp, t, rows, cols, vr, vc);
  p.dst.addr = 0x2000;
  p.src = make_view(e, l, t, vr, vc, V_FLAT);
  return p;
}

static void test_tload_rules(void) {
  env e = env_new(PTOSIM_TARGET_A2A3), f = env_new(PTOSIM_TARGET_A5);
  ptosim_tload_params p, q;
#define BAD(env_, core, rule, ctx) expect_rule(&(env_), ptosim_tload((env_).core, &p), rule, ctx)
  p = tload_ok(&e, PTOSIM_GL_ND, K_ND, PTOSIM_UB, PTOSIM_DT_F16, 16, 16, 8, 8);
  expect_ok(&e, ptosim_tload(e.aiv0, &p), "baseline");
  resync(&e);
  q = p;
  p.dst.dtype = PTOSIM_DT_I4, p.src.dtype = PTOSIM_DT_I4;
  BAD(e, aiv0, "tload.dtype", "i4 tile");
  p = q, p.dst.dtype = p.src.dtype = PTOSIM_DT_F8E4M3;
  BAD(e, aiv0, "tload.dtype", "fp8 on a2a3");
  p = q, p.dst.blayout = (ptosim_blayout)7;
  BAD(e, aiv0, "tile.enum", "bad blayout");
  p = q, p.dst.rows = 0;
  BAD(e, aiv0, "tile.shape", "rows 0");
  p = q, p.dst.valid_cols = 17;
  BAD(e, aiv0, "tile.valid", "valid > cols");
  p = q, p.dst.valid_rows = -1;
  BAD(e, aiv0, "tile.valid", "valid rows -1");
  p = q, p.dst.valid_rows = 0; /* an empty region is loaded (tests/test_tile_empty.c), the view must carry it */
  BAD(e, aiv0, "tload.view_shape", "valid rows 0, view 8 rows");
  p = q, p.dst.cols = 10, p.dst.valid_cols = 8;
  BAD(e, aiv0, "tile.align", "20-byte rows");
  p = q, p.dst.rows = 1 << 30, p.dst.cols = 1 << 20;
  BAD(e, aiv0, "tile.shape", "2^50 elements");
  p = q, p.dst.pad = (ptosim_pad_value)9;
  BAD(e, aiv0, "tile.enum", "bad pad value");
  p = q, p.src.dtype = PTOSIM_DT_F32;
  BAD(e, aiv0, "tload.elem_size", "f32 view, f16 tile");
  p = q, p.src.layout = (ptosim_gm_layout)42;
  BAD(e, aiv0, "tload.view_layout", "bad view layout");
  p = q, p.src.shape[4] = 0;
  BAD(e, aiv0, "tload.view_shape", "shape 0");
  p = q, p.src.shape[4] = 7;
  BAD(e, aiv0, "tload.view_shape", "view cols != valid cols");
  p = q, p.src.stride[2] = -1;
  BAD(e, aiv0, "tload.view_stride", "negative stride");
  p = q, p.src.stride[4] = 2;
  BAD(e, aiv0, "tload.view_stride", "ND rows not contiguous");
  p = q, p.dst.space = PTOSIM_L0A;
  BAD(e, aic, "tload.loc", "l0a tile");
  p = q, p.dst = make_tile(K_NZ, PTOSIM_UB, PTOSIM_DT_F16, 16, 16, 8, 8), p.dst.addr = 0x2000;
  BAD(e, aiv0, "tload.layout_pair", "vec nd -> nz");
  p = tload_ok(&e, PTOSIM_GL_DN, K_NZ, PTOSIM_L1, PTOSIM_DT_F16, 16, 16, 8, 8);
  BAD(e, aic, "tload.layout_pair", "dn -> nz on a2a3");
  expect_ok(&f, ptosim_tload(f.aic, &p), "dn -> nz on a5");
  resync(&f);
  p = tload_ok(&e, PTOSIM_GL_NZ, K_NZ, PTOSIM_L1, PTOSIM_DT_F32, 16, 16, 16, 16), p.dst.fractal = 1024;
  BAD(e, aic, "tload.fractal", "nz with 1024-byte fractals");
  p.dst.dtype = p.src.dtype = PTOSIM_DT_F16;
  BAD(e, aic, "tile.fractal", "f16 box of 1024 bytes");
  p = tload_ok(&e, PTOSIM_GL_NZ, K_NZ, PTOSIM_L1, PTOSIM_DT_F16, 16, 16, 16, 16), p.dst.rows = 24;
  BAD(e, aic, "tile.box", "nz tile of 24 rows");
  p = tload_ok(&e, PTOSIM_GL_ND, K_NZ, PTOSIM_L1, PTOSIM_DT_I64, 16, 16, 8, 8);
  BAD(e, aic, "tload.b64_layout", "i64 nd -> nz");
  p = tload_ok(&f, PTOSIM_GL_ND, K_ND, PTOSIM_UB, PTOSIM_DT_U64, 8, 8, 8, 8), p.dst.pad = PTOSIM_PAD_MAX;
  BAD(f, aiv0, "tload.b64_pad", "u64 pad max on a5");
  p.dst.pad = PTOSIM_PAD_MIN;
  expect_ok(&e, ptosim_tload(e.aiv0, &p), "u64 pad min on a2a3 (value 0)");
  resync(&e);
  p = tload_ok(&e, PTOSIM_GL_ND, K_NZ, PTOSIM_L1, PTOSIM_DT_F16, 16, 16, 8, 8), p.src.shape[3] = 4, p.src.shape[2] = 2;
  BAD(e, aic, "tload.view_2d", "nd -> nz of a 3-D view");
  p = tload_ok(&e, PTOSIM_GL_ND, K_ND, PTOSIM_UB, PTOSIM_DT_I8, 4096, 32, 8, 8);
  BAD(e, aiv0, "tload.range", "a2a3 vec tile of 4096 rows");
  p = tload_ok(&f, PTOSIM_GL_ND, K_ND, PTOSIM_L1, PTOSIM_DT_I8, 16400, 32, 8, 8);
  BAD(f, aic, "tload.range", "a5 mat tile of 16400 rows");
  p = tload_ok(&e, PTOSIM_GL_ND, K_ND, PTOSIM_L1, PTOSIM_DT_F16, 8, 16, 8, 8);
  BAD(e, aic, "tload.mat_align", "a2a3 mat rows of 16 bytes");
  p = tload_ok(&f, PTOSIM_GL_MX_A_ZZ, K_ZZ, PTOSIM_L1, PTOSIM_DT_F8E8M0, 16, 4, 16, 4), p.src.shape[3] = 8;
  BAD(f, aic, "tload.mx_shape", "mx_a_zz with 8-row boxes");
  p = tload_ok(&f, PTOSIM_GL_MX_A_ND, K_ZZ, PTOSIM_L1, PTOSIM_DT_F8E8M0, 16, 4, 16, 4);
  p.dst.dtype = p.src.dtype = PTOSIM_DT_F8E4M3;
  BAD(f, aic, "tload.mx_shape", "mx scales of fp8");
  p = tload_ok(&e, PTOSIM_GL_MX_A_ZZ, K_ZZ, PTOSIM_L1, PTOSIM_DT_U8, 16, 4, 16, 4);
  BAD(e, aic, "tload.layout_pair", "mx on a2a3");
  /* Accessor layer: the real GM buffer bounds, tile alignment and reachability. */
  p = q, p.src.addr = e.gm_addr + GM_BYTES - 64;
  BAD(e, aiv0, "mem.bounds", "view past the end of its buffer");
  p = q, p.dst.addr = 0x2010;
  BAD(e, aiv0, "mem.align", "tile at 16 bytes");
  p = q;
  BAD(e, aic, "tload.unit", "vec tile from the cube core");
  p = tload_ok(&e, PTOSIM_GL_ND, K_NZ, PTOSIM_L1, PTOSIM_DT_F16, 16, 16, 8, 8);
  BAD(e, aiv1, "tload.unit", "mat tile from a vector core");
#undef BAD
  env_free(&e);
  env_free(&f);
}

/* ---- TSTORE ------------------------------------------------------------------------------ */

/* GM element += tile element in type t (floats: the exact sum rounded once; integers wrap). */
static void ref_add(ptosim_dtype t, uint8_t *g, const uint8_t *v) {
  unsigned es = esize(t);
  if (t == PTOSIM_DT_F32 || t == PTOSIM_DT_F16 || t == PTOSIM_DT_BF16) {
    float a = pt_load_as_f32(t, g), b = pt_load_as_f32(t, v); /* a NaN propagates, GM's first */
    double sum = isnan(a) ? (double)(a + a) : isnan(b) ? (double)(b + b) : (double)a + (double)b;
    pt_store_from_f32(t, g, (float)sum, PT_RND_RINT, PT_SAT_OFF);
    return;
  }
  uint64_t a = 0, b = 0;
  memcpy(&a, g, es);
  memcpy(&b, v, es);
  a += b;
  memcpy(g, &a, es);
}

static void ref_tstore(env *e, const ptosim_tstore_params *p, int sub) {
  const ptosim_tile *t = &p->src;
  int64_t es = esize(t->dtype);
  for (int64_t r = 0; r < t->valid_rows; r++)
    for (int64_t c = 0; c < t->valid_cols; c++) {
      uint8_t *g = e->exp[S_GM] + (p->dst.addr - e->gm_addr) + ref_goff(&p->dst, r, c);
      const uint8_t *v = tile_elem(e, t, sub, r, c);
      if (p->atomic == PTOSIM_ATOMIC_ADD)
        ref_add(t->dtype, g, v);
      else
        memcpy(g, v, (size_t)es);
    }
}

static const ptosim_dtype add_types[] = {PTOSIM_DT_F32, PTOSIM_DT_F16, PTOSIM_DT_BF16,
                                         PTOSIM_DT_I32, PTOSIM_DT_I16, PTOSIM_DT_I8};

/* One random vec (UB) or a2a3 mat (L1) store of a same-layout pair. */
static void tstore_case(env *e, kind k, ptosim_space sp, int it) {
  int atomic = rnd(4) == 0;
  ptosim_dtype t = atomic ? add_types[rnd(6)] : pick_type(e, k == K_NZ);
  int64_t es = esize(t), cw = 32 / es, vr = 1 + rnd(40), vc = 1 + rnd(40), rows, cols;
  ptosim_gm_layout l = k == K_ND ? PTOSIM_GL_ND : k == K_DN ? PTOSIM_GL_DN : PTOSIM_GL_NZ;
  int mat = sp == PTOSIM_L1;
  if (k == K_ND) {
    if (mat) vc = up(vc, cw);
    rows = vr + rnd(5), cols = up(vc + rnd(cw * 2), cw);
  } else if (k == K_DN) {
    if (mat) vr = up(vr, cw);
    rows = up(vr + rnd(cw * 2), cw), cols = vc + rnd(5);
  } else {
    vr = up(vr, 16), vc = up(vc, cw), rows = up(vr + rnd(20), 16), cols = up(vc + rnd(cw * 2), cw);
  }
  ptosim_tstore_params p;
  memset(&p, 0, sizeof p);
  p.src = make_tile(k, sp, t, (int)rows, (int)cols, (int)vr, (int)vc);
  p.atomic = atomic ? PTOSIM_ATOMIC_ADD : PTOSIM_ATOMIC_NONE;
  int sub = sp == PTOSIM_UB ? (int)rnd(2) : 0;
  if (!place_tile(e, &p.src, mat ? S_L1 : S_UB0)) return;
  p.dst = make_view(e, l, t, vr, vc, V_NOBCAST);
  char ctx[160];
  snprintf(ctx, sizeof ctx, "tstore %s %s %s%s on %s, case %d (%" PRId64 "x%" PRId64 ")",
           l == PTOSIM_GL_ND   ? "nd"
           : l == PTOSIM_GL_DN ? "dn"
                               : "nz",
           pt_dtype_name(t), mat ? "mat" : "vec", atomic ? " atomic" : "", is_a5(e) ? "a5" : "a2a3", it, vr, vc);
  ptosim_status st = ptosim_tstore(mat ? e->aic : sub ? e->aiv1 : e->aiv0, &p);
  expect_ok(e, st, ctx);
  if (st == PTOSIM_OK) ref_tstore(e, &p, sub);
  check_all(e, ctx);
}

static void tstore_vec_mat_case(env *e, int it) {
  tstore_case(e, (kind)rnd(3), !is_a5(e) && rnd(2) ? PTOSIM_L1 : PTOSIM_UB, it);
}

static void test_tstore_vec_mat(void) { each_target(300, tstore_vec_mat_case); }

/* Regression (existing CPU simulator): two tiles at one address share storage. A TLOAD into
 * an f16 tile is what a TSTORE of a u16 tile at the same UB address writes out. */
static void test_shared_storage(void) {
  env e = env_new(PTOSIM_TARGET_A2A3);
  ptosim_tload_params l;
  l.dst = make_tile(K_ND, PTOSIM_UB, PTOSIM_DT_F16, 16, 32, 16, 32);
  l.dst.addr = 0x3000;
  l.src = make_view(&e, PTOSIM_GL_ND, PTOSIM_DT_F16, 16, 32, V_FLAT);
  l.src.addr = e.gm_addr;
  expect_ok(&e, ptosim_tload(e.aiv0, &l), "load into a");
  ref_tload(&e, &l, 0, Z_NONE);
  ptosim_tstore_params s;
  memset(&s, 0, sizeof s);
  s.src = make_tile(K_ND, PTOSIM_UB, PTOSIM_DT_U16, 16, 32, 16, 32);
  s.src.addr = 0x3000;
  s.dst = make_view(&e, PTOSIM_GL_ND, PTOSIM_DT_U16, 16, 32, V_FLAT);
  s.dst.addr = e.gm_addr + 0x10000;
  expect_ok(&e, ptosim_tstore(e.aiv0, &s), "store from b");
  ref_tstore(&e, &s, 0);
  check_all(&e, "shared storage");
  for (int r = 0; r < 16; r++)
    CHECK(!memcmp(e.gm + (s.dst.addr - e.gm_addr) + r * s.dst.stride[3] * 2,
                  e.gm + (l.src.addr - e.gm_addr) + r * l.src.stride[3] * 2, 64));
  env_free(&e);
}

/* ---- TSTORE from accumulators (FIXPIPE) ----------------------------------------------------- */

/* Legal accumulator -> GM pairs (tstore.md tables): cast = plain TSTORE, a2 = quantized pair
 * exists on A2/A3 (all quantized pairs exist on A5). */
static const struct {
  ptosim_dtype acc, dst;
  int cast, a2q;
} acc_pairs[] = {{PTOSIM_DT_F32, PTOSIM_DT_F32, 1, 0},    {PTOSIM_DT_F32, PTOSIM_DT_F16, 1, 0},
                 {PTOSIM_DT_F32, PTOSIM_DT_BF16, 1, 0},   {PTOSIM_DT_F32, PTOSIM_DT_I8, 0, 1},
                 {PTOSIM_DT_F32, PTOSIM_DT_U8, 0, 1},     {PTOSIM_DT_F32, PTOSIM_DT_HIF8, 0, 0},
                 {PTOSIM_DT_F32, PTOSIM_DT_F8E4M3, 0, 0}, {PTOSIM_DT_I32, PTOSIM_DT_I32, 1, 0},
                 {PTOSIM_DT_I32, PTOSIM_DT_I8, 0, 1},     {PTOSIM_DT_I32, PTOSIM_DT_U8, 0, 1},
                 {PTOSIM_DT_I32, PTOSIM_DT_F16, 0, 1},    {PTOSIM_DT_I32, PTOSIM_DT_BF16, 0, 0}};

/* One 64-bit quant parameter word: scale = f32 bits [31:13], offset = signed bits [45:37],
 * bit 46 = signed 8-bit result (docs/isa/cube fixpipe parameter format). */
typedef struct qword {
  float scale, offset;
  int sign;
} qword;

static qword ref_word(uint64_t w) {
  uint32_t m = (uint32_t)w & 0xffffe000u;
  qword q;
  memcpy(&q.scale, &m, 4);
  int o = (int)((w >> 37) & 0x1ff);
  q.offset = (float)(o >= 256 ? o - 512 : o);
  q.sign = (int)((w >> 46) & 1);
  return q;
}

static uint64_t rand_word(void) {
  float sc = (float)(1 + rnd(64)) / 16.0f; /* 1/16 .. 4, exact in the 10-bit mantissa */
  uint32_t b;
  memcpy(&b, &sc, 4);
  return b | (uint64_t)(rnd(41) - 20 + 512) % 512 << 37 | (uint64_t)rnd(2) << 46;
}

/* One accumulator element through pre_quant, normal relu and the final conversion. */
static void ref_acc(ptosim_dtype acc, ptosim_dtype dst, int quant, uint64_t w, int relu, const uint8_t *src,
                    uint8_t *out) {
  int32_t iv;
  float x;
  memcpy(&iv, src, 4);
  memcpy(&x, src, 4);
  if (acc == PTOSIM_DT_I32 && !quant) {
    if (relu && iv < 0) iv = 0;
    memcpy(out, &iv, 4);
    return;
  }
  if (acc == PTOSIM_DT_I32) x = (float)iv;
  qword q = ref_word(w);
  int b8 = dst == PTOSIM_DT_I8 || dst == PTOSIM_DT_U8, ofs = b8 || acc == PTOSIM_DT_I32;
  float y = quant ? x * q.scale + (ofs ? q.offset : 0.0f) : x;
  if (relu) y = y > 0 ? y : 0;
  if (b8) {
    float v = nearbyintf(y), lo = q.sign ? -128 : 0, hi = q.sign ? 127 : 255;
    v = v < lo ? lo : v > hi ? hi : v;
    *out = (uint8_t)(int)v;
    return;
  }
  pt_store_from_f32(dst, out, y, dst == PTOSIM_DT_HIF8 ? PT_RND_AWAY : PT_RND_RINT, PT_SAT_OFF);
}

/* Random finite accumulators in the whole footprint of acc tile t. */
static void fill_acc(env *e, const ptosim_tile *t) {
  uint8_t *a = e->exp[S_L0C] + t->addr;
  for (int64_t i = 0; i < (int64_t)t->rows * t->cols; i++) {
    float f = (float)(rnd(4801) - 2400) / 8.0f;
    int32_t v = (int32_t)(rnd(20001) - 10000);
    if (t->dtype == PTOSIM_DT_F32)
      memcpy(a + 4 * i, &f, 4);
    else
      memcpy(a + 4 * i, &v, 4);
  }
  ptosim_mem_write(e->aic, PTOSIM_L0C, t->addr, a, (size_t)t->rows * t->cols * 4);
}

static ptosim_tile acc_tile(ptosim_dtype t, int rows, int cols, int vr, int vc) {
  ptosim_tile a = make_tile(K_NZ, PTOSIM_L0C, t, rows, cols, vr, vc);
  a.fractal = 1024;
  return a;
}

/* A packed acc -> NZ view: column blocks of w-element rows. */
static ptosim_gm_view acc_nz_view(env *e, ptosim_dtype t, int64_t vr, int64_t vc, int64_t w) {
  ptosim_gm_view v;
  memset(&v, 0, sizeof v);
  v.dtype = t, v.layout = PTOSIM_GL_NZ;
  split(vc / w, 2, v.shape);
  v.shape[2] = vr / 16, v.shape[3] = 16, v.shape[4] = w;
  v.stride[4] = 1, v.stride[3] = w, v.stride[2] = 16 * w, v.stride[1] = vr * w, v.stride[0] = v.shape[1] * vr * w;
  place_view(e, &v);
  return v;
}

static void ref_tstore_acc(env *e, const ptosim_tstore_params *p, int quant) {
  const ptosim_tile *t = &p->src;
  int64_t stride = t->compact == 1 ? up(t->valid_rows, 16) : t->rows, des = esize(p->dst.dtype);
  for (int64_t r = 0; r < t->valid_rows; r++)
    for (int64_t c = 0; c < t->valid_cols; c++) {
      const uint8_t *a = e->exp[S_L0C] + t->addr + (c / 16) * stride * 64 + r * 64 + (c % 16) * 4;
      uint64_t w = p->quant_scalar;
      if (quant == 2) memcpy(&w, e->exp[S_FB] + p->fp.addr + 8 * c, 8);
      uint8_t v[8];
      ref_acc(t->dtype, p->dst.dtype, quant, w, p->relu == PTOSIM_RELU_NORMAL, a, v);
      uint8_t *g = e->exp[S_GM] + (p->dst.addr - e->gm_addr) + ref_goff(&p->dst, r, c);
      if (p->atomic == PTOSIM_ATOMIC_ADD)
        ref_add(p->dst.dtype, g, v);
      else
        memcpy(g, v, (size_t)des);
    }
}

static int can_add(ptosim_dtype t) {
  for (int i = 0; i < 6; i++)
    if (add_types[i] == t) return 1;
  return 0;
}

static void tstore_acc_case(env *e, int it) {
  int quant = (int)rnd(3), np = (int)(sizeof acc_pairs / sizeof acc_pairs[0]), pi;
  do pi = (int)rnd(np);
  while (quant ? !(is_a5(e) || acc_pairs[pi].a2q) || (acc_pairs[pi].dst == PTOSIM_DT_I32) : !acc_pairs[pi].cast);
  ptosim_dtype at = acc_pairs[pi].acc, dt = acc_pairs[pi].dst;
  int64_t des = esize(dt), nz = rnd(2), w = 0, vr = 1 + rnd(48), vc = 1 + rnd(48);
  if (nz) {
    w = dt == PTOSIM_DT_I32 ? 16 : dt == PTOSIM_DT_F32 ? (rnd(2) ? 8 : 16) : 32 / des;
    vr = up(vr, 16), vc = up(vc, is_a5(e) ? w : (w > 16 ? w : 16));
  }
  int64_t rows = up(vr + rnd(20), 16), cols = up(vc + rnd(20), 16);
  ptosim_tstore_params p;
  memset(&p, 0, sizeof p);
  p.src = acc_tile(at, (int)rows, (int)cols, (int)vr, (int)vc);
  p.src.compact = (int32_t)rnd(2);
  if (!place_tile(e, &p.src, S_L0C)) return;
  fill_acc(e, &p.src);
  p.dst = nz ? acc_nz_view(e, dt, vr, vc, w) : make_view(e, PTOSIM_GL_ND, dt, vr, vc, V_FLAT);
  p.relu = (ptosim_relu_mode)(rnd(3) == 0 ? PTOSIM_RELU_NORMAL : rnd(2) ? PTOSIM_RELU_NONE : PTOSIM_RELU_NO_RELU);
  p.atomic = can_add(dt) && rnd(3) == 0 ? PTOSIM_ATOMIC_ADD : PTOSIM_ATOMIC_NONE;
  static const ptosim_unit_flag phases[] = {PTOSIM_UNIT_FLAG_NONE, PTOSIM_UNIT_FLAG_CHECK_ONLY,
                                            PTOSIM_UNIT_FLAG_CHECK_AND_CLEAR};
  p.phase = phases[rnd(3)];
  if (quant == 1) p.has_quant_scalar = true, p.quant_scalar = rand_word();
  if (quant == 2) {
    int64_t fcols = up(vc, 4);
    p.fp = make_tile(K_ND, PTOSIM_FB, PTOSIM_DT_U64, 1, (int)fcols, 1, (int)vc);
    p.fp.addr = (uint64_t)(rnd(((int64_t)e->cap[S_FB] - fcols * 8) / 128 + 1) * 128);
    for (int64_t c = 0; c < fcols; c++) {
      uint64_t wd = rand_word();
      memcpy(e->exp[S_FB] + p.fp.addr + 8 * c, &wd, 8);
    }
    ptosim_mem_write(e->aic, PTOSIM_FB, p.fp.addr, e->exp[S_FB] + p.fp.addr, (size_t)fcols * 8);
  }
  char ctx[200];
  snprintf(ctx, sizeof ctx,
           "tstore acc %s -> %s %s%s quant %d relu %d on %s, case %d (%" PRId64 "x%" PRId64 " w %" PRId64 ")",
           pt_dtype_name(at), pt_dtype_name(dt), nz ? "nz" : "nd", p.atomic ? " atomic" : "", quant, (int)p.relu,
           is_a5(e) ? "a5" : "a2a3", it, vr, vc, w);
  ptosim_status st = quant == 2 ? ptosim_tstore_fp(e->aic, &p) : ptosim_tstore(e->aic, &p);
  expect_ok(e, st, ctx);
  if (st == PTOSIM_OK) ref_tstore_acc(e, &p, quant);
  check_all(e, ctx);
}

static void test_tstore_acc(void) { each_target(300, tstore_acc_case); }

/* a5 acc -> ND rows of any byte width (pto-isa a5 TStore.hpp CheckStaticAcc has no 32-byte rule
 * on the destination row; the hardware test tmov case_fixpipe4 stores 48 i8 per row): a 112x48
 * f32 acc quantized (scalar and vector fp) to i8 / u8 rows of 48 and 17 bytes. */
static void test_tstore_acc_nd_rows(void) {
  static const int vcs[2] = {48, 17};
  for (int i = 0; i < 4; i++) {
    env e = env_new(PTOSIM_TARGET_A5);
    int vc = vcs[i & 1], quant = 1 + (i >> 1);
    ptosim_tstore_params p;
    memset(&p, 0, sizeof p);
    p.src = acc_tile(PTOSIM_DT_F32, 112, 48, 112, vc);
    p.src.addr = 0;
    fill_acc(&e, &p.src);
    p.dst = make_view(&e, PTOSIM_GL_ND, i & 1 ? PTOSIM_DT_U8 : PTOSIM_DT_I8, 112, vc, V_FLAT);
    if (quant == 1) p.has_quant_scalar = true, p.quant_scalar = rand_word();
    if (quant == 2) {
      p.fp = make_tile(K_ND, PTOSIM_FB, PTOSIM_DT_U64, 1, 48, 1, vc);
      for (int c = 0; c < 48; c++) {
        uint64_t wd = rand_word();
        memcpy(e.exp[S_FB] + 8 * c, &wd, 8);
      }
      ptosim_mem_write(e.aic, PTOSIM_FB, 0, e.exp[S_FB], 48 * 8);
    }
    char ctx[80];
    snprintf(ctx, sizeof ctx, "a5 acc -> nd rows of %d bytes, quant %d", vc, quant);
    ptosim_status st = quant == 2 ? ptosim_tstore_fp(e.aic, &p) : ptosim_tstore(e.aic, &p);
    expect_ok(&e, st, ctx);
    if (st == PTOSIM_OK) ref_tstore_acc(&e, &p, quant);
    check_all(&e, ctx);
    env_free(&e);
  }
}

/* A valid plain acc -> ND store (f32 -> f32, 16x16) on e. */
static ptosim_tstore_params tstore_acc_ok(env *e) {
  ptosim_tstore_params p;
  memset(&p, 0, sizeof p);
  p.src = acc_tile(PTOSIM_DT_F32, 16, 32, 16, 32);
  p.src.addr = 0x4000;
  p.dst = make_view(e, PTOSIM_GL_ND, PTOSIM_DT_F32, 16, 32, V_FLAT);
  return p;
}

static void test_tstore_rules(void) {
  env e = env_new(PTOSIM_TARGET_A2A3), f = env_new(PTOSIM_TARGET_A5);
  ptosim_tstore_params p, q;
#define BAD(env_, fn, core, rule, ctx) expect_rule(&(env_), fn((env_).core, &p), rule, ctx)
  memset(&q, 0, sizeof q);
  q.src = make_tile(K_ND, PTOSIM_UB, PTOSIM_DT_F16, 16, 16, 8, 8);
  q.src.addr = 0x2000;
  q.dst = make_view(&e, PTOSIM_GL_ND, PTOSIM_DT_F16, 8, 8, V_FLAT);
  p = q, p.relu = PTOSIM_RELU_NORMAL;
  BAD(e, ptosim_tstore, aiv0, "tstore.acc_only", "vec store with relu");
  p = q, p.dst.layout = PTOSIM_GL_DN;
  BAD(e, ptosim_tstore, aiv0, "tstore.layout_pair", "nd tile into a dn view");
  p = q, p.dst.shape[3] = 4;
  BAD(e, ptosim_tstore, aiv0, "tstore.view_shape", "view rows != valid rows");
  p = q, p.atomic = PTOSIM_ATOMIC_MAX;
  BAD(e, ptosim_tstore, aiv0, "tstore.atomic", "atomic max");
  p = q, p.src.dtype = p.dst.dtype = PTOSIM_DT_U16, p.atomic = PTOSIM_ATOMIC_ADD;
  BAD(e, ptosim_tstore, aiv0, "tstore.atomic_dtype", "atomic add of u16");
  p = q, p.src.space = PTOSIM_L0A;
  BAD(e, ptosim_tstore, aic, "tstore.loc", "l0a tile");
  p = q, p.src.space = PTOSIM_L1;
  BAD(f, ptosim_tstore, aic, "tstore.loc", "mat tile on a5");
  p.src.cols = 16, p.src.valid_cols = 8;
  BAD(e, ptosim_tstore, aic, "tstore.mat_align", "a2a3 mat rows of 16 bytes");
  p = q;
  BAD(e, ptosim_tstore, aic, "tstore.unit", "vec tile from the cube core");
  p = q, p.src = make_tile(K_NZ, PTOSIM_UB, PTOSIM_DT_I64, 16, 4, 16, 4), p.src.addr = 0x2000;
  p.dst = make_view(&e, PTOSIM_GL_NZ, PTOSIM_DT_I64, 16, 4, V_FLAT);
  BAD(e, ptosim_tstore, aiv0, "tstore.b64_layout", "i64 nz store");
  p = q, p.src.rows = 1, p.src.valid_rows = 1, p.src.cols = 12, p.src.valid_cols = 8;
  p.dst = make_view(&f, PTOSIM_GL_ND, PTOSIM_DT_F16, 1, 8, V_FLAT);
  BAD(f, ptosim_tstore, aiv0, "tstore.tile_align", "a5 row of 24 bytes");
  p = q, p.dst.shape[3] = 4096, p.src.rows = 4096, p.src.valid_rows = 4096, p.dst.stride[2] = 0;
  BAD(e, ptosim_tstore, aiv0, "tstore.range", "a2a3 4096 bursts");
  /* acc tiles */
  q = tstore_acc_ok(&e);
  p = q, p.src.dtype = PTOSIM_DT_F16;
  BAD(e, ptosim_tstore, aic, "tile.fractal", "f16 acc tile (16x16 boxes are 4-byte)");
  p = q, p.src.dtype = PTOSIM_DT_U32;
  BAD(e, ptosim_tstore, aic, "tstore.acc_dtype", "u32 acc tile");
  p = q, p.dst.dtype = PTOSIM_DT_I32;
  BAD(e, ptosim_tstore, aic, "tstore.acc_dtype", "f32 acc into i32");
  p = q, p.dst.dtype = PTOSIM_DT_F16, p.has_quant_scalar = true;
  BAD(e, ptosim_tstore, aic, "tstore.acc_dtype", "scalar-quantized f32 -> f16 on a2a3");
  p = q, p.src.fractal = 512;
  BAD(e, ptosim_tstore, aic, "tstore.acc_layout", "acc tile of 512-byte fractals");
  p = q, p.dst.layout = PTOSIM_GL_DN;
  BAD(e, ptosim_tstore, aic, "tstore.layout_pair", "acc into a dn view");
  p = q, p.src.rows = 8208, p.src.valid_rows = 16;
  BAD(e, ptosim_tstore, aic, "tstore.range", "acc tile of 8208 rows into nd");
  p = q, p.dst.shape[3] = 8, p.dst.shape[2] = 2;
  BAD(e, ptosim_tstore, aic, "tstore.view_2d", "acc into a 3-D nd view");
  p = q, p.dst.stride[4] = 3;
  BAD(e, ptosim_tstore, aic, "tstore.view_stride", "acc nd with strided columns");
  p = q, p.dst = acc_nz_view(&e, PTOSIM_DT_I32, 16, 32, 16), p.src.dtype = PTOSIM_DT_I32, p.dst.shape[4] = 8;
  BAD(e, ptosim_tstore, aic, "tstore.view_shape", "i32 nz of 8-wide blocks");
  p = q, p.dst = acc_nz_view(&e, PTOSIM_DT_F32, 16, 32, 16), p.dst.stride[1] += 4;
  BAD(e, ptosim_tstore, aic, "tstore.view_stride", "unpacked nz view");
  p = q, p.dst = acc_nz_view(&e, PTOSIM_DT_F32, 16, 8, 8), p.src.valid_cols = 8;
  BAD(e, ptosim_tstore, aic, "tstore.acc_shape", "a2a3 nz of 8 columns");
  p = q, p.relu = (ptosim_relu_mode)9;
  BAD(e, ptosim_tstore, aic, "tstore.relu", "invalid relu");
  p = q, p.relu = PTOSIM_RELU_SCALAR;
  CHECK(ptosim_tstore(e.aic, &p) == PTOSIM_E_UNSUPPORTED && !strcmp(diag_rule(&e), "tstore.relu"));
  p = q, p.atomic = PTOSIM_ATOMIC_MIN;
  BAD(e, ptosim_tstore, aic, "tstore.atomic", "acc atomic min");
  p = q, p.phase = PTOSIM_UNIT_FLAG_CHECK_AND_SET;
  BAD(e, ptosim_tstore, aic, "tstore.phase", "check_and_set phase");
  p = q;
  BAD(e, ptosim_tstore, aiv0, "tstore.unit", "acc tile from a vector core");
  /* tstore_fp */
  q.fp = make_tile(K_ND, PTOSIM_FB, PTOSIM_DT_U64, 1, 32, 1, 32);
  q.dst.dtype = PTOSIM_DT_I8;
  q.dst = make_view(&e, PTOSIM_GL_ND, PTOSIM_DT_I8, 16, 32, V_FLAT);
  p = q, p.src = make_tile(K_ND, PTOSIM_UB, PTOSIM_DT_F32, 16, 32, 16, 32);
  BAD(e, ptosim_tstore_fp, aic, "tstore_fp.loc", "tstore_fp of a vec tile");
  p = q, p.has_quant_scalar = true;
  BAD(e, ptosim_tstore_fp, aic, "tstore_fp.quant_mix", "tstore_fp with a scalar");
  p = q, p.fp.space = PTOSIM_L1;
  BAD(e, ptosim_tstore_fp, aic, "tstore_fp.fp_tile", "fp tile in l1");
  p = q, p.fp.cols = 16, p.fp.valid_cols = 16;
  BAD(e, ptosim_tstore_fp, aic, "tstore_fp.fp_tile", "fp tile narrower than the store");
  p = q, p.fp.addr = 64;
  BAD(e, ptosim_tstore_fp, aic, "mem.align", "fp tile off its 128-byte row");
  p = q, p.dst = make_view(&e, PTOSIM_GL_ND, PTOSIM_DT_F32, 16, 32, V_FLAT);
  BAD(e, ptosim_tstore_fp, aic, "tstore_fp.acc_dtype", "vector quant f32 -> f32 on a2a3");
#undef BAD
  env_free(&e);
  env_free(&f);
}

/* ---- TPREFETCH ------------------------------------------------------------------------------ */

/* Every 2-D slice in order, staged at the tile start with 32-byte aligned rows; slices larger
 * than the tile in chunks of (tile rows) x (one tile row of bytes). */
static void ref_tprefetch(env *e, const ptosim_tload_params *p, int sub) {
  const ptosim_gm_view *v = &p->src;
  int64_t ves = esize(v->dtype), rowb = (int64_t)p->dst.cols * esize(p->dst.dtype), tb = rowb * p->dst.rows;
  int64_t maxc = rowb / ves;
  uint8_t *t = e->exp[sub ? S_UB1 : S_UB0] + p->dst.addr, *g = e->exp[S_GM] + (v->addr - e->gm_addr);
  int fits = v->shape[3] * v->shape[4] * ves <= tb;
  for (int64_t i0 = 0; i0 < v->shape[0]; i0++)
    for (int64_t i1 = 0; i1 < v->shape[1]; i1++)
      for (int64_t i2 = 0; i2 < v->shape[2]; i2++)
        for (int64_t r0 = 0; r0 < v->shape[3]; r0 += fits ? v->shape[3] : p->dst.rows)
          for (int64_t c0 = 0; c0 < v->shape[4]; c0 += fits ? v->shape[4] : maxc) {
            int64_t nr = fits ? v->shape[3] : v->shape[3] - r0 < p->dst.rows ? v->shape[3] - r0 : p->dst.rows;
            int64_t nc = fits ? v->shape[4] : v->shape[4] - c0 < maxc ? v->shape[4] - c0 : maxc;
            for (int64_t r = 0; r < nr; r++)
              for (int64_t c = 0; c < nc; c++) {
                int64_t src = (i0 * v->stride[0] + i1 * v->stride[1] + i2 * v->stride[2] + (r0 + r) * v->stride[3] +
                               (c0 + c) * v->stride[4]) *
                              ves;
                memcpy(t + r * up(nc * ves, 32) + c * ves, g + src, (size_t)ves);
              }
          }
}

static void test_tprefetch(void) {
  for (int ti = 0; ti < 2; ti++) {
    env e = env_new(targets[ti]);
    int n_chunked = 0;
    for (int it = 0; it < 200; it++) {
      ptosim_dtype tt = pick_type(&e, 0), vt = pick_type(&e, 0);
      int64_t es = esize(tt), cw = 32 / es, rows = 1 + rnd(8), cols = up(1 + rnd(40), cw);
      ptosim_tload_params p;
      p.dst = make_tile(K_ND, PTOSIM_UB, tt, (int)rows, (int)cols, (int)rows, (int)cols);
      int sub = (int)rnd(2);
      if (!place_tile(&e, &p.dst, S_UB0)) continue;
      int64_t tb = rows * cols * es, ves = esize(vt), vr = 1 + rnd(12), vc;
      /* row bytes at most a tile row (fits) or anything (chunks) */
      vc = rnd(2) ? 1 + rnd(cols * es / ves) : 1 + rnd(3 * cols * es / ves + 1);
      if (vr * up(vc * ves, 32) > tb && vr * vc * ves <= tb) vr = tb / up(vc * ves, 32) ? tb / up(vc * ves, 32) : 1;
      if (vr * vc * ves <= tb && vr * up(vc * ves, 32) > tb) continue;
      n_chunked += vr * vc * ves > tb;
      p.src = make_view(&e, PTOSIM_GL_ND, vt, vr, vc, V_FLAT); /* slices of vr x vc */
      for (int d = 0; d < 3; d++) p.src.shape[d] = 1 + rnd(2);
      stack_strides(&p.src, (int[]){2, 1, 0}, 3, vr * p.src.stride[3] + gap(), 1);
      place_view(&e, &p.src);
      p.src.layout = (ptosim_gm_layout)rnd(3); /* the layout tag plays no part */
      char ctx[120];
      snprintf(ctx, sizeof ctx, "tprefetch %s view into %s tile on %s, case %d", pt_dtype_name(vt), pt_dtype_name(tt),
               is_a5(&e) ? "a5" : "a2a3", it);
      ptosim_status st = ptosim_tprefetch(sub ? e.aiv1 : e.aiv0, &p);
      expect_ok(&e, st, ctx);
      if (st == PTOSIM_OK) ref_tprefetch(&e, &p, sub);
      check_all(&e, ctx);
    }
    CHECK(n_chunked > 10);
    /* rules */
    ptosim_tload_params p;
    p.dst = make_tile(K_ND, PTOSIM_UB, PTOSIM_DT_F32, 4, 8, 4, 8);
    p.dst.addr = 0x800;
    p.src = make_view(&e, PTOSIM_GL_ND, PTOSIM_DT_F32, 3, 9, V_FLAT); /* 108 bytes, rows of 64 */
    expect_rule(&e, ptosim_tprefetch(e.aiv0, &p), "tprefetch.overflow", "aligned rows past the tile");
    p.src = make_view(&e, PTOSIM_GL_ND, PTOSIM_DT_F32, 4, 8, V_FLAT), p.src.stride[4] = 2;
    expect_rule(&e, ptosim_tprefetch(e.aiv0, &p), "tprefetch.view_stride", "strided columns");
    p.src.stride[4] = 1, p.dst.space = PTOSIM_L1;
    CHECK(ptosim_tprefetch(e.aiv0, &p) == PTOSIM_E_UNSUPPORTED && !strcmp(diag_rule(&e), "tprefetch.loc"));
    p.dst.space = PTOSIM_L0C;
    expect_rule(&e, ptosim_tprefetch(e.aiv0, &p), "tprefetch.loc", "acc tile");
    p.dst.space = PTOSIM_UB, p.src.dtype = PTOSIM_DT_I4;
    expect_rule(&e, ptosim_tprefetch(e.aiv0, &p), "tprefetch.dtype", "i4 view");
    p.src.dtype = PTOSIM_DT_I64, p.dst.dtype = PTOSIM_DT_I8, p.dst.cols = 4, p.dst.valid_cols = 4, p.dst.rows = 1;
    p.dst.valid_rows = 1;
    expect_rule(&e, ptosim_tprefetch(e.aiv0, &p), "tprefetch.tile_shape", "tile row narrower than an element");
    /* TPREFETCH_ASYNC */
    ptosim_tprefetch_async_params a;
    memset(&a, 0, sizeof a);
    a.src.dtype = PTOSIM_DT_F16, a.src.layout = PTOSIM_GL_ND, a.workspace = 0x1000;
    for (int d = 0; d < 5; d++) a.src.shape[d] = 1, a.src.stride[d] = 100;
    a.src.shape[4] = 100, a.src.stride[4] = 1, a.src.addr = e.gm_addr + 64;
    expect_ok(&e, ptosim_tprefetch_async(e.aiv0, &a), "tprefetch_async");
    check_all(&e, "tprefetch_async changes nothing");
    a.src.stride[3] = 101;
    expect_rule(&e, ptosim_tprefetch_async(e.aiv1, &a), "tprefetch_async.view", "padded view");
    a.src.stride[3] = 100, a.workspace = 0;
    expect_rule(&e, ptosim_tprefetch_async(e.aiv1, &a), "tprefetch_async.workspace", "no workspace");
    a.workspace = 0x1000, a.src.addr = e.gm_addr + GM_BYTES - 100;
    expect_rule(&e, ptosim_tprefetch_async(e.aiv1, &a), "mem.bounds", "past the buffer");
    env_free(&e);
  }
}

/* ---- MGATHER / MSCATTER ------------------------------------------------------------------------ */

static const ptosim_dtype ix_types[] = {PTOSIM_DT_I8,  PTOSIM_DT_U8,   PTOSIM_DT_I16,    PTOSIM_DT_U16,
                                        PTOSIM_DT_I32, PTOSIM_DT_U32,  PTOSIM_DT_F16,    PTOSIM_DT_BF16,
                                        PTOSIM_DT_F32, PTOSIM_DT_HIF8, PTOSIM_DT_F8E4M3, PTOSIM_DT_F8E5M2};

/* GM element op= v for scatter atomics: add (ref_add), max / min compared in the type. */
static void ref_atomic(ptosim_dtype t, ptosim_atomic_op op, uint8_t *g, const uint8_t *v) {
  if (op == PTOSIM_ATOMIC_ADD) {
    ref_add(t, g, v);
    return;
  }
  double a, b;
  if (t == PTOSIM_DT_F32) {
    float fa, fb;
    memcpy(&fa, g, 4), memcpy(&fb, v, 4);
    a = fa, b = fb;
  } else if (t == PTOSIM_DT_I32) {
    int32_t ia, ib;
    memcpy(&ia, g, 4), memcpy(&ib, v, 4);
    a = ia, b = ib;
  } else {
    uint32_t ua, ub;
    memcpy(&ua, g, 4), memcpy(&ub, v, 4);
    a = ua, b = ub;
  }
  if (op == PTOSIM_ATOMIC_MAX ? b > a : b < a) memcpy(g, v, 4);
}

typedef struct ixcase {
  int gather, row, nz, oob; /* oob: 0 undefined, 1 clamp, 2 wrap, 3 drop (zero / skip) */
  ptosim_atomic_op atomic;
  ptosim_gm_view v;
  ptosim_tile data, idx;
  int sub;
  int64_t cap, ncols;
} ixcase;

/* Index k of item (r, c) after the policy; -1 when dropped. */
static int64_t ref_index(env *e, const ixcase *t, int64_t r, int64_t c) {
  uint32_t k;
  memcpy(&k,
         t->row ? (kind_of(&t->idx) == K_ND ? tile_elem(e, &t->idx, t->sub, 0, r) : tile_elem(e, &t->idx, t->sub, r, 0))
                : tile_elem(e, &t->idx, t->sub, r, c),
         4);
  if (k < (uint64_t)t->cap) return k;
  return t->oob == 1 ? t->cap - 1 : t->oob == 2 ? (int64_t)(k % (uint64_t)t->cap) : t->oob == 3 ? -1 : (int64_t)k;
}

/* GM byte offset of data element (r, c) for table row / element k. */
static int64_t ref_ix_goff(env *e, const ixcase *t, int64_t k, int64_t c) {
  int64_t es = esize(t->v.dtype);
  (void)e;
  if (t->nz) return t->row ? ref_goff(&t->v, k, c) : ref_goff(&t->v, k / t->ncols, k % t->ncols);
  return t->row ? (k * t->v.stride[3] + c) * es : k * es;
}

static void ref_ix(env *e, const ixcase *t) {
  int64_t es = esize(t->data.dtype);
  uint8_t *gb = e->exp[S_GM] + (t->v.addr - e->gm_addr);
  if (t->gather && t->nz && t->row && t->oob == 3)
    memset(e->exp[t->sub ? S_UB1 : S_UB0] + t->data.addr, 0, (size_t)(t->data.rows * t->data.cols * es));
  for (int64_t r = 0; r < t->data.valid_rows; r++)
    for (int64_t c = 0; c < t->data.valid_cols; c++) {
      int64_t k = ref_index(e, t, r, c);
      uint8_t *d = tile_elem(e, &t->data, t->sub, r, c);
      if (k < 0) {
        if (t->gather) memset(d, 0, (size_t)es);
        continue;
      }
      uint8_t *g = gb + ref_ix_goff(e, t, k, c);
      if (t->gather)
        memcpy(d, g, (size_t)es);
      else if (t->atomic)
        ref_atomic(t->data.dtype, t->atomic, g, d);
      else
        memcpy(g, d, (size_t)es);
    }
}

static void ix_case(env *e, int gather, int it) {
  ixcase t;
  memset(&t, 0, sizeof t);
  t.gather = gather, t.row = (int)rnd(2), t.nz = !is_a5(e) && rnd(3) == 0, t.oob = (int)rnd(4);
  ptosim_dtype dt = ix_types[rnd(is_a5(e) ? 12 : 9)];
  if (!gather && rnd(3) == 0) { /* atomics on their types */
    static const ptosim_dtype a2[] = {PTOSIM_DT_I8,  PTOSIM_DT_I16,  PTOSIM_DT_I32,
                                      PTOSIM_DT_F16, PTOSIM_DT_BF16, PTOSIM_DT_F32};
    static const ptosim_dtype a5[] = {PTOSIM_DT_I32, PTOSIM_DT_U32, PTOSIM_DT_F16, PTOSIM_DT_BF16, PTOSIM_DT_F32};
    t.atomic = is_a5(e) && rnd(2) ? (ptosim_atomic_op)(2 + rnd(2)) : PTOSIM_ATOMIC_ADD;
    dt = t.atomic == PTOSIM_ATOMIC_ADD ? (is_a5(e) ? a5[rnd(5)] : a2[rnd(6)])
                                       : (ptosim_dtype[]){PTOSIM_DT_I32, PTOSIM_DT_U32, PTOSIM_DT_F32}[rnd(3)];
  }
  int64_t es = esize(dt), cw = 32 / es, vr = 1 + rnd(20), vc = 1 + rnd(40);
  kind dk = t.nz ? K_NZ : is_a5(e) && rnd(2) ? K_DN : K_ND;
  memset(&t.v, 0, sizeof t.v);
  t.v.dtype = dt;
  int64_t *sh = t.v.shape;
  if (t.nz) {
    split(1 + rnd(4), 2, sh);
    sh[2] = 1 + rnd(3), sh[3] = 16, sh[4] = cw;
    t.v.layout = PTOSIM_GL_NZ, t.v.stride[4] = 1, t.v.stride[3] = cw;
    stack_strides(&t.v, (int[]){2, 1, 0}, 3, 16 * cw + (t.row ? gap() : 0), 0);
    t.ncols = sh[0] * sh[1] * cw;
    t.cap = t.row ? sh[2] * 16 : sh[2] * 16 * t.ncols;
    if (t.row) vc = t.ncols;
    if (!t.row) vc = 1 + rnd(t.ncols < 40 ? t.ncols : 40);
  } else if (t.row) {
    int64_t w = is_a5(e) ? vc : vc + rnd(5), rows = 1 + rnd(30);
    if (is_a5(e))
      sh[0] = sh[1] = sh[2] = 1, sh[3] = rows;
    else
      split(rows, 4, sh);
    sh[4] = w, t.v.stride[4] = 1;
    stack_strides(&t.v, (int[]){3, 2, 1, 0}, 4, w + (is_a5(e) ? 0 : gap()), 0);
    if (is_a5(e)) t.v.stride[3] = w; /* a5 rows are packed */
                                     /* the hardware steps rows by stride[3]: keep the view packed above it */
    t.v.stride[2] = sh[3] * t.v.stride[3], t.v.stride[1] = sh[2] * t.v.stride[2], t.v.stride[0] = sh[1] * t.v.stride[1];
    t.cap = is_a5(e) ? sh[3] : sh[0] * sh[1] * sh[2] * sh[3];
  } else {
    split(1 + rnd(400), 5, sh);
    t.v.stride[4] = 1;
    stack_strides(&t.v, (int[]){3, 2, 1, 0}, 4, sh[4], 0);
    for (int d = 3; d >= 0; d--) t.v.stride[d] = d == 3 ? sh[4] : t.v.stride[d + 1] * sh[d + 1]; /* packed */
    t.cap = sh[0] * sh[1] * sh[2] * sh[3] * sh[4];
  }
  if (t.nz) vr = 1 + rnd(20);
  int64_t rows = dk == K_NZ ? up(vr + rnd(8), 16) : dk == K_DN ? up(vr + rnd(8), cw) : vr + rnd(4);
  int64_t cols = dk == K_ND || dk == K_NZ ? up(vc + rnd(2 * cw), cw) : vc + rnd(4);
  t.data = make_tile(dk, PTOSIM_UB, dt, (int)rows, (int)cols, (int)vr, (int)vc);
  int dn_idx = is_a5(e) && rnd(2);
  if (t.row)
    t.idx = dn_idx ? make_tile(K_DN, PTOSIM_UB, PTOSIM_DT_I32, (int)up(vr, 8), 1, (int)vr, 1)
                   : make_tile(K_ND, PTOSIM_UB, PTOSIM_DT_U32, 1, (int)up(vr, 8), 1, (int)vr);
  else
    t.idx = dn_idx ? make_tile(K_DN, PTOSIM_UB, PTOSIM_DT_U32, (int)up(vr, 8), (int)vc + (int)rnd(3), (int)vr, (int)vc)
                   : make_tile(K_ND, PTOSIM_UB, PTOSIM_DT_I32, (int)vr + (int)rnd(3), (int)up(vc, 8), (int)vr, (int)vc);
  /* two disjoint UB halves for the two tiles */
  int64_t dbytes = rows * cols * es, ibytes = (int64_t)t.idx.rows * t.idx.cols * 4, half = (int64_t)e->cap[S_UB0] / 2;
  if (dbytes > half || ibytes > half) return;
  t.data.addr = (uint64_t)(rnd((half - dbytes) / 32 + 1) * 32);
  t.idx.addr = (uint64_t)(half + rnd((half - ibytes) / 32 + 1) * 32);
  t.sub = (int)rnd(2);
  place_view(e, &t.v);
  /* indices: in range, a few colliding; out of range only when the policy handles it */
  int64_t ni = t.row ? vr : vr * vc;
  for (int64_t n = 0; n < ni; n++) {
    int64_t r = t.row ? n : n / vc, c = t.row ? 0 : n % vc;
    uint32_t k = (uint32_t)(rnd(4) ? rnd(t.cap) : rnd(t.cap < 3 ? t.cap : 3));
    if (t.oob && rnd(4) == 0) k = rnd(2) ? (uint32_t)(t.cap + rnd(50)) : 0xfffffff0u + (uint32_t)rnd(16);
    memcpy(t.row ? (kind_of(&t.idx) == K_ND ? tile_elem(e, &t.idx, t.sub, 0, r) : tile_elem(e, &t.idx, t.sub, r, 0))
                 : tile_elem(e, &t.idx, t.sub, r, c),
           &k, 4);
  }
  int s = t.sub ? S_UB1 : S_UB0;
  ptosim_mem_write(t.sub ? e->aiv1 : e->aiv0, PTOSIM_UB, 0, e->exp[s], e->cap[s]);
  if (!gather && t.atomic) { /* finite accumulators: random bytes may be NaN */
    for (int64_t r = 0; r < vr; r++)
      for (int64_t c = 0; c < vc; c++) {
        float f = (float)(rnd(2001) - 1000) / 4.0f;
        uint8_t b[4];
        if (dt == PTOSIM_DT_F32 || dt == PTOSIM_DT_F16 || dt == PTOSIM_DT_BF16) {
          pt_store_from_f32(dt, b, f, PT_RND_RINT, PT_SAT_OFF);
          memcpy(tile_elem(e, &t.data, t.sub, r, c), b, (size_t)es);
        }
      }
    ptosim_mem_write(t.sub ? e->aiv1 : e->aiv0, PTOSIM_UB, 0, e->exp[s], e->cap[s]);
    int64_t n = view_extent(&t.v); /* and a finite table */
    for (int64_t k = 0; k + es <= n && (dt == PTOSIM_DT_F32 || dt == PTOSIM_DT_F16 || dt == PTOSIM_DT_BF16); k += es)
      pt_store_from_f32(dt, e->gm + (t.v.addr - e->gm_addr) + k, (float)(rnd(2001) - 1000) / 4.0f, PT_RND_RINT,
                        PT_SAT_OFF);
    resync(e);
  }
  char ctx[200];
  snprintf(ctx, sizeof ctx, "%s %s %s %s oob %d atomic %d on %s, case %d (%" PRId64 "x%" PRId64 ", cap %" PRId64 ")",
           gather ? "mgather" : "mscatter", t.row ? "row" : "elem",
           t.nz         ? "nz"
           : dk == K_DN ? "dn"
                        : "nd",
           pt_dtype_name(dt), t.oob, (int)t.atomic, is_a5(e) ? "a5" : "a2a3", it, vr, vc, t.cap);
  ptosim_status st;
  if (gather) {
    ptosim_mgather_params p = {.table = t.v, .idx = t.idx, .dst = t.data,
                               .coalesce = t.row ? PTOSIM_COALESCE_ROW : PTOSIM_COALESCE_ELEM,
                               .oob = (ptosim_gather_oob)t.oob};
    st = ptosim_mgather(t.sub ? e->aiv1 : e->aiv0, &p);
  } else {
    static const ptosim_scatter_oob so[4] = {PTOSIM_SCATTER_UNDEFINED, PTOSIM_SCATTER_CLAMP, PTOSIM_SCATTER_WRAP,
                                             PTOSIM_SCATTER_SKIP};
    ptosim_mscatter_params p = {t.data,   t.idx,    t.v, t.row ? PTOSIM_COALESCE_ROW : PTOSIM_COALESCE_ELEM,
                                t.atomic, so[t.oob]};
    st = ptosim_mscatter(t.sub ? e->aiv1 : e->aiv0, &p);
  }
  expect_ok(e, st, ctx);
  if (st == PTOSIM_OK) ref_ix(e, &t);
  check_all(e, ctx);
}

static void ix_case_any(env *e, int it) { ix_case(e, it & 1, it); }

static void test_mgather_mscatter(void) { each_target(300, ix_case_any); }

static void test_ix_rules(void) {
  env e = env_new(PTOSIM_TARGET_A2A3), f = env_new(PTOSIM_TARGET_A5);
  ptosim_mgather_params g, q;
  memset(&q, 0, sizeof q);
  q.dst = make_tile(K_ND, PTOSIM_UB, PTOSIM_DT_F32, 4, 8, 4, 8);
  q.idx = make_tile(K_ND, PTOSIM_UB, PTOSIM_DT_I32, 1, 8, 1, 4);
  q.idx.addr = 0x1000;
  q.table = make_view(&e, PTOSIM_GL_ND, PTOSIM_DT_F32, 16, 8, V_FLAT);
  q.table.stride[3] = 8;
  memset(e.exp[S_UB0] + 0x1000, 0, 32); /* indices 0 */
  ptosim_mem_write(e.aiv0, PTOSIM_UB, 0x1000, e.exp[S_UB0] + 0x1000, 32);
  g = q;
  expect_ok(&e, ptosim_mgather(e.aiv0, &g), "baseline gather");
  resync(&e);
#define BAD(env_, rule, ctx) expect_rule(&(env_), ptosim_mgather((env_).aiv0, &g), rule, ctx)
  g = q, g.dst.dtype = g.table.dtype = PTOSIM_DT_I64, g.dst.cols = 4;
  BAD(e, "mgather.dtype", "i64 data");
  g = q, g.dst.dtype = g.table.dtype = PTOSIM_DT_F8E5M2, g.dst.cols = 32;
  BAD(e, "mgather.dtype", "fp8 on a2a3");
  g = q, g.idx.space = PTOSIM_L1;
  BAD(e, "mgather.loc", "index tile in l1");
  g = q, g.dst.space = PTOSIM_L1;
  BAD(e, "mgather.l1_form", "mat destination with an index tile");
  g = q;
  expect_rule(&e, ptosim_mgather(e.aic, &g), "mgather.unit", "gather from the cube core");
  g = q, g.idx.dtype = PTOSIM_DT_I16;
  BAD(e, "mgather.idx_dtype", "i16 indices");
  g = q, g.table.dtype = PTOSIM_DT_F16;
  BAD(e, "mgather.elem_size", "f16 table, f32 tile");
  g = q, g.coalesce = (ptosim_coalesce)5;
  BAD(e, "mgather.mode", "bad coalesce");
  g = q, g.oob = (ptosim_gather_oob)9;
  BAD(e, "mgather.mode", "bad oob");
  g = q, g.table.layout = PTOSIM_GL_DN;
  BAD(e, "mgather.layout_pair", "dn table");
  g = q, g.dst = make_tile(K_DN, PTOSIM_UB, PTOSIM_DT_F32, 8, 8, 4, 8);
  BAD(e, "mgather.layout_pair", "dn destination on a2a3");
  g = q, g.idx = make_tile(K_DN, PTOSIM_UB, PTOSIM_DT_I32, 8, 1, 4, 1), g.idx.addr = 0x1000;
  BAD(e, "mgather.idx_layout", "dn index tile on a2a3");
  g = q, g.dst.rows = 1, g.dst.valid_rows = 1, g.dst.cols = 4, g.dst.valid_cols = 4, g.idx.valid_cols = 1;
  BAD(e, "mgather.tile_align", "16-byte destination row");
  g = q, g.idx.valid_cols = 3;
  BAD(e, "mgather.idx_shape", "3 indices for 4 rows");
  g = q, g.coalesce = PTOSIM_COALESCE_ELEM;
  BAD(e, "mgather.idx_shape", "elem mode with a row index tile");
  g = q, g.table.shape[4] = 4;
  BAD(e, "mgather.table_shape", "a2a3 table rows narrower than the copy");
  g = q, g.table.stride[4] = 2;
  BAD(e, "mgather.view_stride", "strided table row");
  g = q, g.table = make_view(&f, PTOSIM_GL_ND, PTOSIM_DT_F32, 16, 8, V_FLAT), g.table.stride[3] = 9;
  expect_rule(&f, ptosim_mgather(f.aiv0, &g), "mgather.view_stride", "a5 unpacked table rows");
  g.table.stride[3] = 8, g.table.shape[4] = 7;
  expect_rule(&f, ptosim_mgather(f.aiv0, &g), "mgather.table_shape", "a5 table cols != valid cols");
  g = q, g.table.layout = PTOSIM_GL_NZ, g.dst = make_tile(K_NZ, PTOSIM_UB, PTOSIM_DT_F32, 16, 8, 4, 8);
  g.table.shape[3] = 16, g.table.shape[4] = 4, g.table.shape[2] = 1;
  BAD(e, "mgather.table_shape", "nz table of 4-wide blocks for f32");
  /* an undefined out-of-range index reads past the GM buffer: a bounds fault */
  g = q, g.table.addr = e.gm_addr + GM_BYTES - 16 * 32;
  memset(e.exp[S_UB0] + 0x1000, 0xff, 4);
  ptosim_mem_write(e.aiv0, PTOSIM_UB, 0x1000, e.exp[S_UB0] + 0x1000, 4);
  BAD(e, "mem.bounds", "undefined index past the buffer");
  g.oob = PTOSIM_GATHER_ZERO;
  expect_ok(&e, ptosim_mgather(e.aiv0, &g), "the same index under zero");
  resync(&e);
#undef BAD
  ptosim_mscatter_params m;
  memset(&m, 0, sizeof m);
  m.src = q.dst, m.idx = q.idx, m.table = q.table, m.atomic = PTOSIM_ATOMIC_MAX;
  expect_rule(&e, ptosim_mscatter(e.aiv0, &m), "mscatter.atomic", "atomic max on a2a3");
  m.atomic = PTOSIM_ATOMIC_ADD, m.src.dtype = m.table.dtype = PTOSIM_DT_U32;
  expect_rule(&e, ptosim_mscatter(e.aiv0, &m), "mscatter.atomic", "atomic add of u32 on a2a3");
  m.table = make_view(&f, PTOSIM_GL_ND, PTOSIM_DT_U32, 16, 8, V_FLAT), m.table.stride[3] = 8;
  memset(f.exp[S_UB0] + 0x1000, 0, 32);
  ptosim_mem_write(f.aiv0, PTOSIM_UB, 0x1000, f.exp[S_UB0] + 0x1000, 32);
  expect_ok(&f, ptosim_mscatter(f.aiv0, &m), "atomic add of u32 on a5");
  resync(&f);
  m.src.dtype = m.table.dtype = PTOSIM_DT_I16, m.src.cols = 16, m.atomic = PTOSIM_ATOMIC_MIN;
  expect_rule(&f, ptosim_mscatter(f.aiv0, &m), "mscatter.atomic", "atomic min of i16 on a5");
  m.oob = (ptosim_scatter_oob)7, m.atomic = PTOSIM_ATOMIC_NONE;
  expect_rule(&f, ptosim_mscatter(f.aiv0, &m), "mscatter.mode", "bad scatter oob");
  env_free(&e);
  env_free(&f);
}

int main(void) {
  RUN(test_tload_vec);
  RUN(test_tload_nz_short_rows);
  RUN(test_tload_mat);
  RUN(test_tload_mx_short_valid);
  RUN(test_tload_neighbour);
  RUN(test_determinism);
  RUN(test_tload_rules);
  RUN(test_tstore_vec_mat);
  RUN(test_shared_storage);
  RUN(test_tstore_acc);
  RUN(test_tstore_acc_nd_rows);
  RUN(test_tstore_rules);
  RUN(test_tprefetch);
  RUN(test_mgather_mscatter);
  RUN(test_ix_rules);
  return pt_test_finish();
}
