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
    case PTOSIM_DT_I16: case PTOSIM_DT_U16: case PTOSIM_DT_F16: case PTOSIM_DT_BF16: return 2;
    case PTOSIM_DT_I32: case PTOSIM_DT_U32: case PTOSIM_DT_F32: return 4;
    case PTOSIM_DT_I64: case PTOSIM_DT_U64: return 8;
    default: return 1;
  }
}

static const ptosim_dtype a2_types[] = {PTOSIM_DT_I8,  PTOSIM_DT_U8,  PTOSIM_DT_I16, PTOSIM_DT_U16,
                                        PTOSIM_DT_I32, PTOSIM_DT_U32, PTOSIM_DT_I64, PTOSIM_DT_U64,
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
  tl.slayout = k == K_ND || k == K_DN ? PTOSIM_SL_NONE_BOX
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
    case K_NZ: return (c / cw) * rows * 32 + r * 32 + (c % cw) * es;      /* column blocks of 32-byte rows */
    case K_ZN: return (r / cw) * cols * 32 + c * 32 + (r % cw) * es;      /* row blocks of 32-byte columns */
    case K_ZZ: return (r / 16) * 16 * cols + (c / 2) * 32 + (r % 16) * 2 + c % 2; /* 16x2 scale boxes */
    default: return (c / 16) * 16 * rows + (r / 2) * 32 + (c % 16) * 2 + r % 2;    /* NN: 2x16 boxes */
  }
}

static kind kind_of(const ptosim_tile *t) {
  if (t->slayout == PTOSIM_SL_NONE_BOX) return t->blayout == PTOSIM_BL_ROW_MAJOR ? K_ND : K_DN;
  if (t->blayout == PTOSIM_BL_ROW_MAJOR) return t->slayout == PTOSIM_SL_ROW_MAJOR ? K_ZZ : K_ZN;
  return t->slayout == PTOSIM_SL_ROW_MAJOR ? K_NZ : K_NN;
}

/* Image slot and base byte of a tile. */
static int slot_of(const ptosim_tile *t, int sub) {
  return t->space == PTOSIM_UB ? (sub ? S_UB1 : S_UB0) : t->space == PTOSIM_L1 ? S_L1 : t->space == PTOSIM_L0C ? S_L0C : S_FB;
}

static uint8_t *tile_elem(env *e, const ptosim_tile *t, int sub, int64_t r, int64_t c) {
  return e->exp[slot_of(t, sub)] + t->addr + ref_toff(kind_of(t), t->rows, t->cols, esize(t->dtype), r, c);
}

/* ---- GM views ---------------------------------------------------------------------------- */

/* GM byte offset (from the view base) of tile element (r, c), by the view layout's index map
 * (pto-isa docs; include/pto/cpu/tile_offsets.hpp). */
static int64_t ref_goff(const ptosim_gm_view *v, int64_t r, int64_t c) {
  const int64_t *s = v->shape;
  int64_t i[5] = {0}, cw = 32 / esize(v->dtype);
  switch (v->layout) {
    case PTOSIM_GL_ND:
      i[4] = c, i[3] = r % s[3], i[2] = r / s[3] % s[2], i[1] = r / (s[3] * s[2]) % s[1], i[0] = r / (s[1] * s[2] * s[3]);
      break;
    case PTOSIM_GL_DN:
      i[3] = r, i[4] = c % s[4], i[2] = c / s[4] % s[2], i[1] = c / (s[4] * s[2]) % s[1], i[0] = c / (s[1] * s[2] * s[4]);
      break;
    case PTOSIM_GL_NZ: i[0] = c / cw / s[1], i[1] = c / cw % s[1], i[2] = r / 16, i[3] = r % 16, i[4] = c % cw; break;
    case PTOSIM_GL_MX_A_ZZ: i[0] = r / 16 / s[1], i[1] = r / 16 % s[1], i[2] = c / 2, i[3] = r % 16, i[4] = c % 2; break;
    case PTOSIM_GL_MX_B_NN: i[0] = c / 16 / s[1], i[1] = c / 16 % s[1], i[2] = r / 2, i[3] = c % 16, i[4] = r % 2; break;
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

/* A random view of layout l carrying a vr x vc region of type t (inner dims contiguous);
 * flat: a 2-D view {1, 1, 1, rows, cols} without broadcast dimensions. */
static ptosim_gm_view make_view(env *e, ptosim_gm_layout l, ptosim_dtype t, int64_t vr, int64_t vc, int flat) {
  ptosim_gm_view v;
  memset(&v, 0, sizeof v);
  v.dtype = t, v.layout = l;
  int64_t *s = v.shape, *st = v.stride, cw = 32 / esize(t);
  for (int d = 0; d < 5; d++) s[d] = 1;
  switch (l) {
    case PTOSIM_GL_ND: {
      split(vr, flat ? 1 : 4, s + (flat ? 3 : 0));
      s[4] = vc, st[4] = 1;
      stack_strides(&v, (int[]){3, 2, 1, 0}, 4, vc + gap(), !flat);
      break;
    }
    case PTOSIM_GL_DN: {
      int64_t f[4] = {1, 1, 1, vc};
      if (!flat) split(vc, 4, f);
      s[0] = f[0], s[1] = f[1], s[2] = f[2], s[4] = f[3], s[3] = vr, st[3] = 1;
      stack_strides(&v, (int[]){4, 2, 1, 0}, 4, vr + gap(), !flat);
      break;
    }
    case PTOSIM_GL_NZ: {
      split(vc / cw, 2, s);
      s[2] = vr / 16, s[3] = 16, s[4] = cw, st[4] = 1, st[3] = cw, st[2] = 16 * cw;
      stack_strides(&v, (int[]){1, 0}, 2, s[2] * 16 * cw + gap(), 1);
      break;
    }
    case PTOSIM_GL_MX_A_ZZ:
    case PTOSIM_GL_MX_B_NN: {
      int64_t blocks = l == PTOSIM_GL_MX_A_ZZ ? vr / 16 : vc / 16, groups = l == PTOSIM_GL_MX_A_ZZ ? vc : vr;
      split(blocks, 2, s);
      s[2] = groups / 2, s[3] = 16, s[4] = 2, st[4] = 1, st[3] = 2, st[2] = 32;
      stack_strides(&v, (int[]){1, 0}, 2, s[2] * 32 + gap(), 1);
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
      if (k == K_ND) vc = up(vc, cw), cols = up(cols > vc ? cols : vc, cw);
      else vr = up(vr, cw), rows = up(rows > vr ? rows : vr, cw);
    }
  }
  ptosim_tload_params p;
  p.dst = make_tile(k, sp, t, (int)rows, (int)cols, (int)vr, (int)vc);
  p.dst.pad = (es == 8 && is_a5(e)) ? (ptosim_pad_value)rnd(2) : pick_pad();
  int sub = sp == PTOSIM_UB ? (int)rnd(2) : 0;
  if (!place_tile(e, &p.dst, sp == PTOSIM_UB ? S_UB0 : S_L1)) return;
  p.src = make_view(e, l, t, vr, vc, z == Z_LANES);
  char ctx[160];
  snprintf(ctx, sizeof ctx, "tload %s %s %s on %s, case %d (%" PRId64 "x%" PRId64 " in %" PRId64 "x%" PRId64 ", pad %d)",
           name, pt_dtype_name(t), sp == PTOSIM_UB ? "vec" : "mat", is_a5(e) ? "a5" : "a2a3", it, vr, vc, rows, cols,
           (int)p.dst.pad);
  ptosim_status st = ptosim_tload(sp == PTOSIM_UB ? (sub ? e->aiv1 : e->aiv0) : e->aic, &p);
  expect_ok(e, st, ctx);
  if (st == PTOSIM_OK) ref_tload(e, &p, sub, z);
  check_all(e, ctx);
}

static const ptosim_target targets[] = {PTOSIM_TARGET_A2A3, PTOSIM_TARGET_A5};

static void test_tload_vec(void) {
  static const struct { ptosim_gm_layout l; kind k; const char *name; } pairs[] = {
      {PTOSIM_GL_ND, K_ND, "nd->nd"}, {PTOSIM_GL_DN, K_DN, "dn->dn"}, {PTOSIM_GL_NZ, K_NZ, "nz->nz"}};
  for (int ti = 0; ti < 2; ti++) {
    env e = env_new(targets[ti]);
    for (int it = 0; it < 150; it++) {
      int pi = (int)rnd(3);
      tload_case(&e, pairs[pi].l, pairs[pi].k, PTOSIM_UB, pick_type(&e, pairs[pi].k == K_NZ), pairs[pi].name, it);
    }
    env_free(&e);
  }
}

static void test_tload_mat(void) {
  static const struct { ptosim_gm_layout l; kind k; int a5; const char *name; } pairs[] = {
      {PTOSIM_GL_ND, K_ND, 0, "nd->nd"},  {PTOSIM_GL_DN, K_DN, 0, "dn->dn"}, {PTOSIM_GL_NZ, K_NZ, 0, "nz->nz"},
      {PTOSIM_GL_ND, K_NZ, 0, "nd->nz"},  {PTOSIM_GL_DN, K_ZN, 0, "dn->zn"}, {PTOSIM_GL_DN, K_NZ, 1, "dn->nz"},
      {PTOSIM_GL_MX_A_ZZ, K_ZZ, 1, "mx_a_zz->zz"}, {PTOSIM_GL_MX_A_ND, K_ZZ, 1, "mx_a_nd->zz"},
      {PTOSIM_GL_MX_A_DN, K_ZZ, 1, "mx_a_dn->zz"}, {PTOSIM_GL_MX_B_NN, K_NN, 1, "mx_b_nn->nn"},
      {PTOSIM_GL_MX_B_ND, K_NN, 1, "mx_b_nd->nn"}, {PTOSIM_GL_MX_B_DN, K_NN, 1, "mx_b_dn->nn"}};
  const int np = (int)(sizeof pairs / sizeof pairs[0]);
  for (int ti = 0; ti < 2; ti++) {
    env e = env_new(targets[ti]);
    for (int it = 0; it < 400; it++) {
      int pi = (int)rnd(np);
      if (pairs[pi].a5 && !is_a5(&e)) continue;
      int mx = pairs[pi].l >= PTOSIM_GL_MX_A_ZZ, frac = pairs[pi].k != K_ND && pairs[pi].k != K_DN;
      ptosim_dtype t = mx ? PTOSIM_DT_F8E8M0 : pick_type(&e, frac);
      tload_case(&e, pairs[pi].l, pairs[pi].k, PTOSIM_L1, t, pairs[pi].name, it);
    }
    env_free(&e);
  }
}

/* Regression (existing CPU simulator): a TLOAD writes only its own tile. The neighbour right
 * after the tile keeps its bytes, and pad null leaves the tile's own padding untouched. */
static void test_tload_neighbour(void) {
  env e = env_new(PTOSIM_TARGET_A5);
  ptosim_tload_params p;
  p.dst = make_tile(K_ND, PTOSIM_UB, PTOSIM_DT_F16, 16, 16, 10, 12);
  p.dst.addr = 0x1000;
  p.src = make_view(&e, PTOSIM_GL_ND, PTOSIM_DT_F16, 10, 12, 1);
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
  p.src = make_view(e, l, t, vr, vc, 1);
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
  BAD(e, aiv0, "tload.tile_enum", "bad blayout");
  p = q, p.dst.rows = 0;
  BAD(e, aiv0, "tload.tile_shape", "rows 0");
  p = q, p.dst.valid_cols = 17;
  BAD(e, aiv0, "tload.tile_shape", "valid > cols");
  p = q, p.dst.valid_rows = 0;
  BAD(e, aiv0, "tload.valid", "valid rows 0");
  p = q, p.dst.cols = 10, p.dst.valid_cols = 8;
  BAD(e, aiv0, "tload.tile_align", "20-byte rows");
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
  BAD(e, aic, "tload.fractal", "f16 box of 1024 bytes");
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

int main(void) {
  RUN(test_tload_vec);
  RUN(test_tload_mat);
  RUN(test_tload_neighbour);
  RUN(test_determinism);
  RUN(test_tload_rules);
  return pt_test_finish();
}
