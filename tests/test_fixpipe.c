/* Tests of the FIXPIPE writeback ops pto.mte_l0c_l1 / pto.mte_l0c_gm / pto.mte_l0c_ub against a
 * naive reference written from the spec formulas (vpto docs/isa/micro-isa/16-cube-matmul.md):
 * per loop3 repetition r, row m and column n,
 *   x = acc at src + r*ls3*64 + (n/16)*src_stride*64 + m*loop0*64 + (n%16)*4
 *   dst element  nd: r*ds3 + m*ds + n   dn: r*ds3 + n*ds + m   nz: (n/c0)*ds + m*c0 + n%c0
 * Every case pre-fills the whole destination space with random bytes and compares all of it. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core/dtype.h"
#include "core/profile.h"
#include "harness.h"
#include "isa/fixpipe_quant.h"
#include "ptosim/ptosim.h"

static unsigned long long g_seed = 0x5eed1234abcdULL;
static unsigned rnd(unsigned n) { return (unsigned)(pt_rand_u64(&g_seed) % n); }

#define GM_BYTES (1u << 20)
#define L0C_BASE 0x1000u

/* ---- the machine under test ---------------------------------------------------------- */

typedef struct env {
  ptosim_machine *m;
  ptosim_core *aic, *aiv[2];
  uint8_t *gm;
  uint64_t gm_addr;
} env;

static void env_open(env *e, ptosim_target t) {
  e->m = ptosim_machine_new(t, 1);
  e->aic = ptosim_core_of(e->m, 0, PTOSIM_AIC);
  e->aiv[0] = ptosim_core_of(e->m, 0, PTOSIM_AIV0);
  e->aiv[1] = ptosim_core_of(e->m, 0, PTOSIM_AIV1);
  e->gm = malloc(GM_BYTES);
  CHECK(ptosim_gm_map(e->m, e->gm, GM_BYTES, &e->gm_addr) == PTOSIM_OK);
}

static void env_close(env *e) {
  ptosim_machine_free(e->m);
  free(e->gm);
}

static void fill_random(uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++) p[i] = (uint8_t)pt_rand_u64(&g_seed);
}

/* A whole local space (or the GM buffer) as bytes: read, written back. */
static size_t space_size(env *e, ptosim_space s) { return s == PTOSIM_GM ? GM_BYTES : ptosim_space_capacity(e->m, s); }

static void space_load(env *e, ptosim_core *c, ptosim_space s, uint8_t *img) {
  if (s == PTOSIM_GM)
    memcpy(img, e->gm, GM_BYTES);
  else
    CHECK(ptosim_mem_read(c, s, 0, img, space_size(e, s)) == PTOSIM_OK);
}

static void space_store(env *e, ptosim_core *c, ptosim_space s, const uint8_t *img) {
  if (s == PTOSIM_GM)
    memcpy(e->gm, img, GM_BYTES);
  else
    CHECK(ptosim_mem_write(c, s, 0, img, space_size(e, s)) == PTOSIM_OK);
}

/* ---- reference conversion ------------------------------------------------------------ */

enum { K_NONE, K_SCALE, K_SCALE_OFS, K_F16_SCALE_OFS };
enum { R_FLOAT, R_B8, R_B4, R_S4, R_S16, R_S32 };

typedef struct ref_mode {
  ptosim_quant_mode q;
  ptosim_dtype acc, d0, d1;
  int kind, range;
} ref_mode;

/* Mode families of the spec table, written out per mode (vec and scalar share a row). */
static const ref_mode k_ref[] = {
    {PTOSIM_QUANT_F32_F16, PTOSIM_DT_F32, PTOSIM_DT_F16, 0, K_NONE, R_FLOAT},
    {PTOSIM_QUANT_F32_BF16, PTOSIM_DT_F32, PTOSIM_DT_BF16, 0, K_NONE, R_FLOAT},
    {PTOSIM_QUANT_QF322HIF8_PRE_VEC, PTOSIM_DT_F32, PTOSIM_DT_HIF8, 0, K_SCALE, R_FLOAT},
    {PTOSIM_QUANT_DEQS32_INT_VEC, PTOSIM_DT_I32, PTOSIM_DT_I32, 0, K_SCALE_OFS, R_S32},
    {PTOSIM_QUANT_REQ8_VEC, PTOSIM_DT_I32, PTOSIM_DT_I8, PTOSIM_DT_U8, K_SCALE_OFS, R_B8},
    {PTOSIM_QUANT_DEQF16_VEC, PTOSIM_DT_I32, PTOSIM_DT_F16, 0, K_SCALE_OFS, R_FLOAT},
    {PTOSIM_QUANT_QF322FP8_PRE_VEC, PTOSIM_DT_F32, PTOSIM_DT_F8E4M3, 0, K_SCALE, R_FLOAT},
    {PTOSIM_QUANT_QF322F32_PRE_VEC, PTOSIM_DT_F32, PTOSIM_DT_F32, 0, K_SCALE, R_FLOAT},
    {PTOSIM_QUANT_QF162B8_PRE_VEC, PTOSIM_DT_F32, PTOSIM_DT_I8, PTOSIM_DT_U8, K_F16_SCALE_OFS, R_B8},
    {PTOSIM_QUANT_QF162S4_PRE_VEC, PTOSIM_DT_F32, PTOSIM_DT_I4, 0, K_F16_SCALE_OFS, R_S4},
    {PTOSIM_QUANT_REQ4_VEC, PTOSIM_DT_I32, PTOSIM_DT_I4, 0, K_SCALE_OFS, R_B4},
    {PTOSIM_QUANT_QF322B8_PRE_VEC, PTOSIM_DT_F32, PTOSIM_DT_I8, PTOSIM_DT_U8, K_SCALE_OFS, R_B8},
    {PTOSIM_QUANT_QF322S4_PRE_VEC, PTOSIM_DT_F32, PTOSIM_DT_I4, 0, K_SCALE_OFS, R_S4},
    {PTOSIM_QUANT_DEQS16_VEC, PTOSIM_DT_I32, PTOSIM_DT_I16, 0, K_SCALE_OFS, R_S16},
    {PTOSIM_QUANT_QF162S16_PRE_VEC, PTOSIM_DT_I32, PTOSIM_DT_I16, 0, K_F16_SCALE_OFS, R_S16},
    {PTOSIM_QUANT_QF322F16_PRE_VEC, PTOSIM_DT_F32, PTOSIM_DT_F16, 0, K_SCALE, R_FLOAT},
    {PTOSIM_QUANT_QF322BF16_PRE_VEC, PTOSIM_DT_F32, PTOSIM_DT_BF16, 0, K_SCALE, R_FLOAT},
    {PTOSIM_QUANT_QS322BF16_PRE_VEC, PTOSIM_DT_I32, PTOSIM_DT_BF16, 0, K_SCALE_OFS, R_FLOAT},
};

/* The _vec modes: even ids from qf322hif8_pre_vec up to f32_bf16, odd ids after it (spec order). */
static bool is_vec_mode(ptosim_quant_mode q) {
  if (q >= PTOSIM_QUANT_QF322HIF8_PRE_VEC && q < PTOSIM_QUANT_F32_BF16) return q % 2 == 0;
  return q > PTOSIM_QUANT_F32_BF16 && q < PTOSIM_QUANT_COUNT && q % 2 == 1;
}

/* Row of a mode: vec and scalar variants map to the vec row. */
static const ref_mode *ref_mode_of(ptosim_quant_mode q) {
  if (q != PTOSIM_QUANT_F32_F16 && q != PTOSIM_QUANT_F32_BF16 && !is_vec_mode(q)) q = (ptosim_quant_mode)(q - 1);
  for (size_t i = 0; i < sizeof k_ref / sizeof k_ref[0]; i++)
    if (k_ref[i].q == q) return &k_ref[i];
  return NULL;
}

static float bits_to_f32(uint32_t b) {
  float f;
  memcpy(&f, &b, 4);
  return f;
}

static uint32_t f32_to_bits(float f) {
  uint32_t b;
  memcpy(&b, &f, 4);
  return b;
}

static float scalar_value(ptosim_scalar s) {
  if (s.dtype == PTOSIM_DT_F16) return pt_f16_to_f32((uint16_t)s.bits);
  if (s.dtype == PTOSIM_DT_BF16) return pt_bf16_to_f32((uint16_t)s.bits);
  return bits_to_f32((uint32_t)s.bits);
}

typedef struct ref_param {
  float scale, offset;
  int sign;
} ref_param;

/* The 64-bit parameter word: M1 = sign [31], exponent [30:23], 10-bit mantissa [22:13];
 * offset s9 [45:37]; sign control [46]. Normal M1 only. */
static ref_param ref_word(uint64_t w) {
  ref_param r;
  int e = (int)((w >> 23) & 0xFF), mant = (int)((w >> 13) & 0x3FF);
  r.scale = ldexpf((float)(1024 + mant), e - 127 - 10) * (((w >> 31) & 1) ? -1.0f : 1.0f);
  int ofs = (int)((w >> 37) & 0x1FF);
  r.offset = (float)(ofs > 255 ? ofs - 512 : ofs);
  r.sign = (int)((w >> 46) & 1);
  return r;
}

/* Clause omitted: nosat (CTRL[48] starts at 1, docs/spec-notes.md 2.4). */
static pt_sat ref_sat(ptosim_sat_mode s) {
  if (s == PTOSIM_SAT_SAT) return PT_SAT_ON;
  if (s == PTOSIM_SAT_SAT_PRESERVE_NAN) return PT_SAT_KEEPNAN;
  return PT_SAT_OFF;
}

static unsigned dsize(ptosim_dtype t) { return t == PTOSIM_DT_I4 ? 1 : pt_dtype_size(t); }

/* One element through the pipeline; writes dsize(dst) bytes (i4: a nibble value) to out. */
static void ref_elem(const ptosim_fixpipe_params *p, const uint8_t *accp, int64_t n, const uint8_t *fb, uint8_t *out) {
  ptosim_dtype dt = p->dst.dtype;
  const float alpha = p->relu == PTOSIM_RELU_VECTOR
                          ? bits_to_f32((uint32_t)fb[(p->relu_vec.addr & 0xFFFF) + 4 * n] |
                                        (uint32_t)fb[(p->relu_vec.addr & 0xFFFF) + 4 * n + 1] << 8 |
                                        (uint32_t)fb[(p->relu_vec.addr & 0xFFFF) + 4 * n + 2] << 16 |
                                        (uint32_t)fb[(p->relu_vec.addr & 0xFFFF) + 4 * n + 3] << 24)
                          : scalar_value(p->relu_scalar);
  int32_t iv;
  memcpy(&iv, accp, 4);
  if (p->quant == PTOSIM_QUANT_NONE && p->src.dtype == PTOSIM_DT_I32) {
    int64_t v = iv;
    if (v < 0 && p->relu == PTOSIM_RELU_NORMAL) v = 0;
    if (v < 0 && (p->relu == PTOSIM_RELU_SCALAR || p->relu == PTOSIM_RELU_VECTOR)) {
      float y = alpha * (float)iv;
      double r = nearbyint((double)y);
      v = r > 2147483647.0 ? 2147483647 : r < -2147483648.0 ? INT32_MIN : (int64_t)r;
    }
    int32_t o = (int32_t)v;
    memcpy(out, &o, 4);
    return;
  }
  float x = p->src.dtype == PTOSIM_DT_I32 ? (float)iv : bits_to_f32((uint32_t)iv);
  ref_param prm = {1.0f, 0.0f, dt == PTOSIM_DT_I8 || dt == PTOSIM_DT_I4};
  const ref_mode *rm = p->quant == PTOSIM_QUANT_NONE ? NULL : ref_mode_of(p->quant);
  if (rm && is_vec_mode(p->quant)) {
    uint64_t w = 0;
    for (int b = 7; b >= 0; b--) w = w << 8 | fb[(p->quant_vec.addr & 0xFFFF) + 8 * n + b];
    prm = ref_word(w);
  } else if (rm) {
    prm.scale = scalar_value(p->quant_scalar);
  }
  float y = x;
  int kind = rm ? rm->kind : K_NONE;
  if (kind == K_F16_SCALE_OFS) y = pt_f16_to_f32(pt_f32_to_f16(x, PT_RND_RINT, PT_SAT_ON));
  if (kind != K_NONE) y = y * prm.scale;
  if (kind == K_SCALE_OFS || kind == K_F16_SCALE_OFS) y = y + prm.offset;
  if (p->relu == PTOSIM_RELU_NORMAL) y = y > 0 ? y : 0.0f;
  if ((p->relu == PTOSIM_RELU_SCALAR || p->relu == PTOSIM_RELU_VECTOR) && !(y >= 0)) y = alpha * y;
  if (p->has_clip) {
    float c;
    if (dt == PTOSIM_DT_F16)
      c = pt_f16_to_f32((uint16_t)p->clip.bits);
    else if (dt == PTOSIM_DT_U8)
      c = (float)(uint16_t)p->clip.bits;
    else if (p->clip.dtype == PTOSIM_DT_I4)
      c = (float)(((int)(p->clip.bits & 0xF) ^ 8) - 8);
    else if (p->clip.dtype == PTOSIM_DT_I8)
      c = (float)(int8_t)(uint8_t)p->clip.bits;
    else
      c = (float)(int16_t)(uint16_t)p->clip.bits;
    if (y > c) y = c;
  }
  if (pt_dtype_is_float(dt)) { /* f32 keeps inf / NaN whatever the sat mode */
    pt_store_from_f32(dt, out, y, dt == PTOSIM_DT_HIF8 ? PT_RND_AWAY : PT_RND_RINT,
                      dt == PTOSIM_DT_F32 ? PT_SAT_OFF : ref_sat(p->sat));
    return;
  }
  double lo, hi;
  switch (rm->range) {
    case R_B8: lo = prm.sign ? -128 : 0, hi = prm.sign ? 127 : 255; break;
    case R_B4: lo = prm.sign ? -8 : 0, hi = prm.sign ? 7 : 15; break;
    case R_S4: lo = -8, hi = 7; break;
    case R_S16: lo = -32768, hi = 32767; break;
    default: lo = -2147483648.0, hi = 2147483647.0; break;
  }
  double r = isnan(y) ? 0.0 : nearbyint((double)y);
  r = r < lo ? lo : r > hi ? hi : r;
  int64_t v = (int64_t)r;
  if (dt == PTOSIM_DT_I16) {
    int16_t o = (int16_t)v;
    memcpy(out, &o, 2);
  } else if (dt == PTOSIM_DT_I32) {
    int32_t o = (int32_t)v;
    memcpy(out, &o, 4);
  } else {
    out[0] = (uint8_t)(v & (dt == PTOSIM_DT_I4 ? 0xF : 0xFF));
  }
}

/* GM atomic combine: add rounds the f32 sum once; integers wrap; max/min replace on > / <. */
static void ref_atomic(ptosim_dtype t, ptosim_atomic_op op, uint8_t *mem, const uint8_t *v) {
  unsigned es = pt_dtype_size(t);
  if (t == PTOSIM_DT_F32 || t == PTOSIM_DT_F16 || t == PTOSIM_DT_BF16) {
    float a = pt_load_as_f32(t, mem), b = pt_load_as_f32(t, v);
    if (op == PTOSIM_ATOMIC_ADD)
      pt_store_from_f32(t, mem, a + b, PT_RND_RINT, PT_SAT_OFF);
    else if (op == PTOSIM_ATOMIC_MAX ? b > a : b < a)
      memcpy(mem, v, es);
    return;
  }
  int64_t a = 0, b = 0;
  if (t == PTOSIM_DT_I8) a = (int8_t)mem[0], b = (int8_t)v[0];
  if (t == PTOSIM_DT_I16) {
    int16_t x, y;
    memcpy(&x, mem, 2), memcpy(&y, v, 2), a = x, b = y;
  }
  if (t == PTOSIM_DT_I32) {
    int32_t x, y;
    memcpy(&x, mem, 4), memcpy(&y, v, 4), a = x, b = y;
  }
  if (op == PTOSIM_ATOMIC_ADD) {
    uint32_t s = (uint32_t)(a + b);
    memcpy(mem, &s, es);
  } else if (op == PTOSIM_ATOMIC_MAX ? b > a : b < a) {
    memcpy(mem, v, es);
  }
}

/* Reference store into images img[sub-block] (byte arrays indexed from the op's dst address). */
static void ref_run(const ptosim_fixpipe_params *p, const uint8_t *l0c, const uint8_t *fb, uint8_t *img[2]) {
  int64_t reps = p->has_loop3 ? p->loop3.count : 1;
  int64_t l0 = p->layout == PTOSIM_FIX_NZ2DN ? p->loop0_src_stride : 1;
  int64_t c0 = p->split ? 8 : 16;
  ptosim_dtype dt = p->dst.dtype;
  for (int64_t r = 0; r < reps; r++)
    for (int64_t m = 0; m < p->m; m++)
      for (int64_t n = 0; n < p->n; n++) {
        const int64_t ls3 = p->has_loop3 ? p->loop3.src_stride : 0, ds3 = p->has_loop3 ? p->loop3.dst_stride : 0;
        uint64_t so = p->src.addr + (uint64_t)(r * ls3 * 64 + (n / 16) * p->src_stride * 64 + m * l0 * 64 + (n % 16) * 4);
        int sb = 0;
        int64_t mm = m, nn = n;
        if (p->dst.space == PTOSIM_UB && p->dst_mode == PTOSIM_DST_SUBBLOCK) sb = (int)p->sub_blockid;
        if (p->dst.space == PTOSIM_UB && p->dst_mode == PTOSIM_DST_SPLIT_M && m >= p->m / 2) sb = 1, mm = m - p->m / 2;
        if (p->dst.space == PTOSIM_UB && p->dst_mode == PTOSIM_DST_SPLIT_N && n >= p->n / 2) sb = 1, nn = n - p->n / 2;
        int64_t e;
        if (p->layout == PTOSIM_FIX_NZ2DN)
          e = r * ds3 + nn * p->dst_stride + mm;
        else if (p->layout == PTOSIM_FIX_NZ2NZ)
          e = (nn / c0) * p->dst_stride + mm * c0 + nn % c0;
        else
          e = r * ds3 + mm * p->dst_stride + nn;
        uint8_t v[4];
        ref_elem(p, l0c + so, n, fb, v);
        if (dt == PTOSIM_DT_I4) {
          uint8_t *b = img[sb] + e / 2;
          *b = (uint8_t)(e % 2 ? (*b & 0x0F) | (v[0] << 4) : (*b & 0xF0) | v[0]);
        } else if (p->atomic != PTOSIM_ATOMIC_NONE) {
          ref_atomic(dt, p->atomic, img[sb] + e * dsize(dt), v);
        } else {
          memcpy(img[sb] + e * dsize(dt), v, dsize(dt));
        }
      }
}

/* ---- running one case ------------------------------------------------------------------ */

/* Accumulator contents: f32 values of several magnitudes with a few specials, or i32. */
static void fill_acc(uint8_t *l0c, size_t n, ptosim_dtype t, bool specials) {
  for (size_t i = 0; i + 4 <= n; i += 4) {
    uint32_t b;
    if (t == PTOSIM_DT_I32) {
      int32_t v = (int32_t)(pt_rand_u64(&g_seed) >> 40) - (1 << 23);
      if (rnd(16) == 0) v = (int32_t)(uint32_t)pt_rand_u64(&g_seed);
      memcpy(&b, &v, 4);
    } else {
      float f = ((float)rnd(2000001) - 1000000.0f) / 1000.0f * ldexpf(1.0f, (int)rnd(12) - 6);
      b = f32_to_bits(f);
      if (specials && rnd(24) == 0) {
        static const uint32_t sp[] = {0x7F800000u, 0xFF800000u, 0x7FC00001u, 0xFFA12345u, 0x80000000u,
                                      0x477FF000u, 0x477FEFFFu, 0x33800000u, 0x33000001u, 0x7F7FFFFFu, 0x00000001u};
        b = sp[rnd(sizeof sp / sizeof sp[0])];
      }
    }
    memcpy(l0c + i, &b, 4);
  }
}

/* Run p on a fresh random machine state and compare every byte of the destination space(s)
 * with the reference; returns the op status. */
static ptosim_status run_case(env *e, ptosim_fixpipe_params *p, bool specials) {
  size_t l0c_n = ptosim_space_capacity(e->m, PTOSIM_L0C), fb_n = ptosim_space_capacity(e->m, PTOSIM_FB);
  uint8_t *l0c = malloc(l0c_n), *fb = malloc(fb_n);
  fill_acc(l0c, l0c_n, p->src.dtype, specials);
  fill_random(fb, fb_n);
  /* Parameter words with normal scales near 1 and random offset / sign / low bits. */
  if (p->quant != PTOSIM_QUANT_NONE && is_vec_mode(p->quant))
    for (int64_t c = 0; c < p->n; c++) {
      uint64_t w = (uint64_t)f32_to_bits(ldexpf(1.0f + (float)rnd(1000) / 1000.0f, (int)rnd(6) - 3) * (rnd(5) ? 1 : -1));
      w |= (uint64_t)rnd(512) << 37 | (uint64_t)rnd(2) << 46 | (uint64_t)rnd(8) << 47;
      memcpy(fb + (p->quant_vec.addr & 0xFFFF) + 8 * c, &w, 8);
    }
  if (p->relu == PTOSIM_RELU_VECTOR)
    for (int64_t c = 0; c < p->n; c++) {
      float a = (float)rnd(200) / 64.0f - 1.0f;
      memcpy(fb + (p->relu_vec.addr & 0xFFFF) + 4 * c, &a, 4);
    }
  CHECK(ptosim_mem_write(e->aic, PTOSIM_L0C, 0, l0c, l0c_n) == PTOSIM_OK);
  CHECK(ptosim_mem_write(e->aic, PTOSIM_FB, 0, fb, fb_n) == PTOSIM_OK);

  ptosim_space sp = p->dst.space;
  int nimg = sp == PTOSIM_UB ? 2 : 1;
  ptosim_core *owner[2] = {sp == PTOSIM_UB ? e->aiv[0] : e->aic, e->aiv[1]};
  size_t sz = space_size(e, sp);
  uint64_t base = sp == PTOSIM_GM ? e->gm_addr : 0;
  uint8_t *want[2] = {NULL, NULL}, *got = malloc(sz);
  for (int i = 0; i < nimg; i++) {
    want[i] = malloc(sz);
    fill_random(want[i], sz);
    space_store(e, owner[i], sp, want[i]);
  }
  ptosim_status st = sp == PTOSIM_L1 ? ptosim_mte_l0c_l1(e->aic, p)
                     : sp == PTOSIM_GM ? ptosim_mte_l0c_gm(e->aic, p)
                                       : ptosim_mte_l0c_ub(e->aic, p);
  if (st == PTOSIM_OK) {
    uint8_t *at[2] = {want[0] + (p->dst.addr - base), want[nimg - 1] + (p->dst.addr - base)};
    ref_run(p, l0c, fb, at);
  }
  for (int i = 0; i < nimg; i++) {
    space_load(e, owner[i], sp, got);
    size_t bad = 0;
    while (bad < sz && got[bad] == want[i][bad]) bad++;
    CHECK_MSG(bad == sz, "%s m=%lld n=%lld layout=%d quant=%d relu=%d dst=%s sub=%d: byte 0x%zx got %02x want %02x",
              pt_space_name(sp), (long long)p->m, (long long)p->n, (int)p->layout, (int)p->quant, (int)p->relu,
              pt_dtype_name(p->dst.dtype), i, bad, bad < sz ? got[bad] : 0, bad < sz ? want[i][bad] : 0);
    free(want[i]);
  }
  free(got), free(l0c), free(fb);
  return st;
}

/* A default parameter block: nz2nd store of an m x n f32 tile at L0C_BASE. */
static ptosim_fixpipe_params base_params(ptosim_space sp, ptosim_dtype acc, ptosim_dtype dst, int64_t m, int64_t n,
                                         uint64_t dst_addr) {
  ptosim_fixpipe_params p;
  memset(&p, 0, sizeof p);
  p.src = ptosim_ptr_make(PTOSIM_L0C, acc, L0C_BASE);
  p.dst = ptosim_ptr_make(sp, dst, dst_addr);
  p.m = m, p.n = n;
  p.src_stride = (m + 15) / 16 * 16;
  p.dst_stride = n;
  p.layout = PTOSIM_FIX_NZ2ND;
  return p;
}

static ptosim_scalar f32_scalar(float f) {
  ptosim_scalar s = {PTOSIM_DT_F32, f32_to_bits(f)};
  return s;
}

static uint64_t dst_addr_of(env *e, ptosim_space sp) { return sp == PTOSIM_GM ? e->gm_addr + 0x1000 : 0x800; }

/* ---- tests -------------------------------------------------------------------------- */

/* Plain f32 / i32 stores in every layout, shape, stride and loop3 form, to each space. */
static void test_layouts(void) {
  env e;
  env_open(&e, PTOSIM_TARGET_A5);
  static const int64_t ms[] = {1, 5, 16, 17, 40}, ns[] = {1, 7, 16, 17, 33, 60, 64};
  static const ptosim_space sps[] = {PTOSIM_L1, PTOSIM_GM, PTOSIM_UB};
  for (size_t a = 0; a < 5; a++)
    for (size_t b = 0; b < 7; b++)
      for (int lay = 0; lay < 4; lay++) {
        ptosim_space sp = sps[(a + b + (size_t)lay) % 3];
        ptosim_dtype t = (a + b) % 2 ? PTOSIM_DT_I32 : PTOSIM_DT_F32;
        if (lay == PTOSIM_FIX_NZ2NZ) t = PTOSIM_DT_F32;
        ptosim_fixpipe_params p = base_params(sp, t, t, ms[a], ns[b], dst_addr_of(&e, sp));
        p.layout = (ptosim_fix_layout)lay;
        p.src_stride += 16 * (int64_t)rnd(2);
        p.dst_stride = (lay == PTOSIM_FIX_NZ2DN ? p.m : lay == PTOSIM_FIX_NZ2NZ ? p.m * 16 : p.n) + (int64_t)rnd(5);
        if (lay == PTOSIM_FIX_NZ2DN) p.loop0_src_stride = 1 + (int64_t)rnd(2), p.src_stride *= p.loop0_src_stride;
        if (lay == PTOSIM_FIX_NZ2NZ) p.split = rnd(2);
        if (lay != PTOSIM_FIX_NZ2NZ && rnd(2)) {
          p.has_loop3 = true;
          p.loop3.count = 1 + (int64_t)rnd(3);
          p.loop3.src_stride = p.src_stride * ((p.n + 15) / 16) + (int64_t)rnd(3);
          p.loop3.dst_stride = (lay == PTOSIM_FIX_NZ2DN ? p.dst_stride * p.n : p.dst_stride * p.m) + (int64_t)rnd(9);
        }
        if (sp == PTOSIM_UB) p.sub_blockid = rnd(2);
        p.unit_flag = (ptosim_unit_flag)(rnd(2) ? PTOSIM_UNIT_FLAG_NONE : PTOSIM_UNIT_FLAG_CHECK_ONLY);
        if (lay == PTOSIM_FIX_NZ2DN && p.loop0_src_stride != 1) p.unit_flag = PTOSIM_UNIT_FLAG_NONE;
        CHECK(run_case(&e, &p, true) == PTOSIM_OK);
      }
  env_close(&e);
}

/* The real-program shapes: m = 40, n = 60/64, src_stride 48 (cube-load-frac-layouts,
 * fixpipe-cc-gm), nz2dn 16 x 16 with dst_stride 32 / 48 (cube-bridge-store-nz2dn-*). */
static void test_program_shapes(void) {
  env e;
  env_open(&e, PTOSIM_TARGET_A5);
  ptosim_fixpipe_params p = base_params(PTOSIM_GM, PTOSIM_DT_F32, PTOSIM_DT_F32, 40, 60, e.gm_addr);
  p.src_stride = 48;
  CHECK(run_case(&e, &p, false) == PTOSIM_OK);
  p.n = p.dst_stride = 64;
  p.unit_flag = PTOSIM_UNIT_FLAG_CHECK_ONLY, p.sat = PTOSIM_SAT_SAT;
  CHECK(run_case(&e, &p, false) == PTOSIM_OK);
  for (int64_t ds = 32; ds <= 48; ds += 16) {
    p = base_params(PTOSIM_GM, PTOSIM_DT_F32, PTOSIM_DT_F32, 16, 16, e.gm_addr);
    p.layout = PTOSIM_FIX_NZ2DN, p.loop0_src_stride = 1, p.dst_stride = ds;
    CHECK(run_case(&e, &p, false) == PTOSIM_OK);
    /* Spot check against the formula: gm[n * ds + m] = acc[m][n]. */
    float acc, out;
    CHECK(ptosim_mem_read(e.aic, PTOSIM_L0C, L0C_BASE + 64 * 3 + 4 * 5, &acc, 4) == PTOSIM_OK);
    memcpy(&out, e.gm + (5 * ds + 3) * 4, 4);
    CHECK(f32_to_bits(acc) == f32_to_bits(out));
  }
  env_close(&e);
}

/* Every pre_quant mode with each destination type and payload kind, with relu and clip. */
static void test_quant_modes(void) {
  env e;
  env_open(&e, PTOSIM_TARGET_A5);
  static const ptosim_dtype payload_t[] = {PTOSIM_DT_F32, PTOSIM_DT_F16, PTOSIM_DT_BF16};
  for (int q = 1; q < PTOSIM_QUANT_COUNT; q++) {
    if (q == PTOSIM_QUANT_QF322HIF8_PRE_HYBRID_VEC || q == PTOSIM_QUANT_QF322HIF8_PRE_HYBRID_SCALAR) continue;
    const ref_mode *rm = ref_mode_of((ptosim_quant_mode)q);
    CHECK(rm != NULL);
    for (int d = 0; d < 2; d++) {
      ptosim_dtype dt = d ? rm->d1 : rm->d0;
      if (!dt) continue;
      for (int relu = 0; relu <= PTOSIM_RELU_VECTOR; relu++) {
        static const ptosim_space sps[] = {PTOSIM_L1, PTOSIM_GM, PTOSIM_UB};
        ptosim_space sp = sps[(q + relu) % 3];
        int64_t m = 3 + rnd(30), n = 1 + rnd(64);
        ptosim_fixpipe_params p = base_params(sp, rm->acc, dt, m, n, dst_addr_of(&e, sp));
        p.layout = (ptosim_fix_layout)(rnd(3) == 0 ? PTOSIM_FIX_NZ2DN : rnd(2) ? PTOSIM_FIX_NZ2ND : PTOSIM_FIX_NORMAL);
        if (p.layout == PTOSIM_FIX_NZ2DN) p.loop0_src_stride = 1, p.dst_stride = m + rnd(3);
        else p.dst_stride = n + rnd(3);
        if (dt == PTOSIM_DT_F32 && rnd(2)) p.layout = PTOSIM_FIX_NZ2NZ, p.split = rnd(2), p.dst_stride = 16 * m;
        p.quant = (ptosim_quant_mode)q;
        if (is_vec_mode(p.quant))
          p.quant_vec = ptosim_ptr_make(PTOSIM_FB, payload_t[rnd(3)], 128 * rnd(4));
        else {
          ptosim_dtype pt = payload_t[rnd(3)];
          float s = ldexpf(1.0f + (float)rnd(8) / 8.0f, (int)rnd(5) - 2);
          p.quant_scalar.dtype = pt;
          p.quant_scalar.bits = pt == PTOSIM_DT_F32 ? f32_to_bits(s)
                                : pt == PTOSIM_DT_F16 ? pt_f32_to_f16(s, PT_RND_RINT, PT_SAT_OFF)
                                                      : pt_f32_to_bf16(s, PT_RND_RINT, PT_SAT_OFF);
        }
        p.relu = (ptosim_relu_mode)relu;
        if (relu == PTOSIM_RELU_SCALAR) p.relu_scalar = f32_scalar(0.25f * (float)(1 + rnd(3)));
        if (relu == PTOSIM_RELU_VECTOR) p.relu_vec = ptosim_ptr_make(PTOSIM_FB, PTOSIM_DT_F32, 0x10000 + 2048 + 64 * rnd(4));
        bool clip_ok = dt == PTOSIM_DT_F16 || dt == PTOSIM_DT_U8 || dt == PTOSIM_DT_I4 || dt == PTOSIM_DT_I8 ||
                       dt == PTOSIM_DT_I16;
        if (clip_ok && relu != PTOSIM_RELU_NONE && rnd(2)) {
          p.has_clip = true;
          if (dt == PTOSIM_DT_F16) p.clip.dtype = PTOSIM_DT_F16, p.clip.bits = pt_f32_to_f16(3.5f, PT_RND_RINT, PT_SAT_OFF);
          else if (dt == PTOSIM_DT_U8) p.clip.dtype = PTOSIM_DT_U16, p.clip.bits = 100;
          else if (dt == PTOSIM_DT_I4) p.clip.dtype = PTOSIM_DT_I4, p.clip.bits = 0xD; /* -3 */
          else if (dt == PTOSIM_DT_I8) p.clip.dtype = PTOSIM_DT_I8, p.clip.bits = 0x40;
          else p.clip.dtype = PTOSIM_DT_I16, p.clip.bits = 0xFF00; /* -256 */
        }
        p.sat = (ptosim_sat_mode)rnd(4);
        if (sp == PTOSIM_UB) p.sub_blockid = rnd(2);
        CHECK_MSG(run_case(&e, &p, true) == PTOSIM_OK, "mode %d dst %s: %s", q, pt_dtype_name(dt),
                  ptosim_last_diag(e.m)->msg);
      }
    }
  }
  env_close(&e);
}

/* f16 / bf16 / hif8 / fp8 saturation modes on inf, NaN and overflow, including the
 * branch-free f32 -> f16 store over a sweep of bit patterns. */
static void test_sat(void) {
  env e;
  env_open(&e, PTOSIM_TARGET_A5);
  static const ptosim_quant_mode qs[] = {PTOSIM_QUANT_F32_F16, PTOSIM_QUANT_F32_BF16, PTOSIM_QUANT_QF322HIF8_PRE_SCALAR,
                                         PTOSIM_QUANT_QF322FP8_PRE_SCALAR, PTOSIM_QUANT_QF322F32_PRE_SCALAR};
  static const ptosim_dtype ds[] = {PTOSIM_DT_F16, PTOSIM_DT_BF16, PTOSIM_DT_HIF8, PTOSIM_DT_F8E4M3, PTOSIM_DT_F32};
  for (int i = 0; i < 5; i++)
    for (int s = 0; s < 4; s++) {
      ptosim_fixpipe_params p = base_params(PTOSIM_GM, PTOSIM_DT_F32, ds[i], 32, 48, e.gm_addr);
      p.quant = qs[i], p.quant_scalar = f32_scalar(i == 0 ? 1.0f : 3.0f), p.sat = (ptosim_sat_mode)s;
      CHECK(run_case(&e, &p, true) == PTOSIM_OK);
    }
  /* Sweep: 64 x 1024 f32 patterns (stride 65537 over the 32-bit space plus the f16 edges). */
  ptosim_fixpipe_params p = base_params(PTOSIM_GM, PTOSIM_DT_F32, PTOSIM_DT_F16, 64, 1024, e.gm_addr);
  p.src.addr = 0, p.src_stride = 64, p.quant = PTOSIM_QUANT_F32_F16, p.quant_scalar = f32_scalar(1.0f);
  uint32_t *acc = malloc(64 * 1024 * 4);
  uint16_t *out = malloc(64 * 1024 * 2);
  for (uint32_t base = 0; base < 16; base++) {
    for (uint32_t i = 0; i < 64 * 1024; i++) {
      uint32_t k = base * 64 * 1024 + i;
      acc[i] = base < 14 ? k * 4099u : (base == 14 ? 0x38800000u : 0x477FF000u) + (i - 32768u) + (k & 1) * 0x80000000u;
    }
    CHECK(ptosim_mem_write(e.aic, PTOSIM_L0C, 0, acc, 64 * 1024 * 4) == PTOSIM_OK);
    for (int s = 0; s < 4; s++) {
      p.sat = (ptosim_sat_mode)s;
      CHECK(ptosim_mte_l0c_gm(e.aic, &p) == PTOSIM_OK);
      memcpy(out, e.gm, 64 * 1024 * 2);
      int bad = 0;
      for (uint32_t m = 0; m < 64; m++)
        for (uint32_t n = 0; n < 1024; n++) {
          uint32_t b = acc[(n / 16) * 64 * 16 + m * 16 + n % 16];
          uint16_t want = pt_f32_to_f16(bits_to_f32(b), PT_RND_RINT, ref_sat(p.sat));
          if (out[m * 1024 + n] != want && bad++ < 3)
            fprintf(stderr, "f16 sweep: x=%08x sat=%d got %04x want %04x\n", b, s, out[m * 1024 + n], want);
        }
      CHECK(bad == 0);
    }
    /* Both f32 -> f16 kernels (portable and, if the host has one, vector) on the same data as
     * contiguous fractal rows (blk = 64 bytes), with a ragged length to cover the tails. */
    for (int simd = 0; simd < 2; simd++)
      for (int s = 0; s < 4; s++) {
        int bad = 0;
        pt_fq_f16((const uint8_t *)acc, 64, (uint8_t *)out, 64 * 1024 - 5, ref_sat((ptosim_sat_mode)s), simd);
        for (uint32_t i = 0; i < 64 * 1024 - 5; i++)
          bad += out[i] != pt_f32_to_f16(bits_to_f32(acc[i]), PT_RND_RINT, ref_sat((ptosim_sat_mode)s));
        CHECK_MSG(bad == 0, "kernel simd=%d sat=%d: %d mismatches", simd, s, bad);
      }
  }
  free(acc), free(out);
  env_close(&e);
}

/* Golden points of the real programs: qf322f16 vector payload scale s (f32 bits in the low
 * word), overflow to inf without a sat clause and to 65504 with sat; scalar_relu 0.25. */
static void test_golden_points(void) {
  env e;
  env_open(&e, PTOSIM_TARGET_A5);
  float acc[16 * 16] = {0};
  acc[0] = 1.5f, acc[1] = -2.0f, acc[2] = 70000.0f, acc[16] = -8.0f;
  CHECK(ptosim_mem_write(e.aic, PTOSIM_L0C, 0, acc, sizeof acc) == PTOSIM_OK);
  uint64_t words[16];
  for (int c = 0; c < 16; c++) words[c] = f32_to_bits((float)(c % 4 + 1));
  CHECK(ptosim_mem_write(e.aic, PTOSIM_FB, 0, words, sizeof words) == PTOSIM_OK);
  ptosim_fixpipe_params p = base_params(PTOSIM_GM, PTOSIM_DT_F32, PTOSIM_DT_F16, 2, 16, e.gm_addr);
  p.src.addr = 0, p.quant = PTOSIM_QUANT_QF322F16_PRE_VEC, p.quant_vec = ptosim_ptr_make(PTOSIM_FB, PTOSIM_DT_F32, 0);
  CHECK(ptosim_mte_l0c_gm(e.aic, &p) == PTOSIM_OK);
  uint16_t h[32];
  memcpy(h, e.gm, sizeof h);
  CHECK(h[0] == 0x3E00 && h[1] == 0xC400 && h[2] == 0x7C00 && h[16] == 0xC800); /* 1.5, -4, inf (no clause), -8 */
  p.sat = PTOSIM_SAT_SAT;
  CHECK(ptosim_mte_l0c_gm(e.aic, &p) == PTOSIM_OK);
  memcpy(h, e.gm, sizeof h);
  CHECK(h[2] == 0x7BFF); /* sat: 65504 */
  p.quant = PTOSIM_QUANT_QF322F16_PRE_SCALAR, p.quant_scalar = f32_scalar(1.0f);
  p.relu = PTOSIM_RELU_SCALAR, p.relu_scalar.dtype = PTOSIM_DT_BF16, p.relu_scalar.bits = 0x3E80; /* 0.25 */
  CHECK(ptosim_mte_l0c_gm(e.aic, &p) == PTOSIM_OK);
  memcpy(h, e.gm, sizeof h);
  CHECK(h[0] == 0x3E00 && h[1] == 0xB800 && h[16] == 0xC000); /* 1.5, -0.5, -2 */
  env_close(&e);
}

/* GM atomic add / max / min for each atomic type. */
static void test_atomic(void) {
  env e;
  env_open(&e, PTOSIM_TARGET_A5);
  static const struct {
    ptosim_dtype acc, dst;
    ptosim_quant_mode q;
  } k[] = {{PTOSIM_DT_F32, PTOSIM_DT_F32, PTOSIM_QUANT_NONE},
           {PTOSIM_DT_F32, PTOSIM_DT_F16, PTOSIM_QUANT_F32_F16},
           {PTOSIM_DT_F32, PTOSIM_DT_BF16, PTOSIM_QUANT_F32_BF16},
           {PTOSIM_DT_I32, PTOSIM_DT_I32, PTOSIM_QUANT_NONE},
           {PTOSIM_DT_I32, PTOSIM_DT_I16, PTOSIM_QUANT_DEQS16_SCALAR},
           {PTOSIM_DT_F32, PTOSIM_DT_I8, PTOSIM_QUANT_QF322B8_PRE_SCALAR}};
  for (int i = 0; i < 6; i++)
    for (int op = PTOSIM_ATOMIC_ADD; op <= PTOSIM_ATOMIC_MIN; op++) {
      ptosim_fixpipe_params p = base_params(PTOSIM_GM, k[i].acc, k[i].dst, 20, 40, e.gm_addr + 64 * rnd(4));
      p.quant = k[i].q;
      if (p.quant != PTOSIM_QUANT_NONE) p.quant_scalar = f32_scalar(0.5f);
      p.atomic = (ptosim_atomic_op)op, p.atomic_type = k[i].dst;
      p.has_loop3 = true, p.loop3.count = 2, p.loop3.src_stride = 0, p.loop3.dst_stride = 40 * 3; /* overlapping rows */
      p.sid = 3, p.l2_cache_ctrl = 15;
      CHECK_MSG(run_case(&e, &p, true) == PTOSIM_OK, "%s", ptosim_last_diag(e.m)->msg);
    }
  env_close(&e);
}

/* UB: one sub-block, split_m, split_n (golden: rows [0, m/2) / columns [0, n/2) to AIV0). */
static void test_ub_dual(void) {
  env e;
  env_open(&e, PTOSIM_TARGET_A5);
  for (int mode = 0; mode < 3; mode++)
    for (int t = 0; t < 4; t++) {
      int64_t m = mode == PTOSIM_DST_SPLIT_M ? 2 + 2 * rnd(30) : 1 + rnd(40);
      int64_t n = mode == PTOSIM_DST_SPLIT_N ? 32 * (1 + rnd(3)) : 1 + rnd(64);
      ptosim_dtype dt = t % 2 ? PTOSIM_DT_I32 : PTOSIM_DT_F32;
      ptosim_fixpipe_params p = base_params(PTOSIM_UB, dt, dt, m, n, 32 * rnd(8));
      p.dst_mode = (ptosim_dst_mode)mode, p.sub_blockid = mode ? 0 : t / 2;
      p.layout = t < 2 ? PTOSIM_FIX_NORMAL : PTOSIM_FIX_NZ2ND;
      p.dst_stride = (mode == PTOSIM_DST_SPLIT_N ? n / 2 : n) + rnd(4);
      p.sat = PTOSIM_SAT_SAT;
      CHECK(run_case(&e, &p, false) == PTOSIM_OK);
    }
  env_close(&e);
}

/* i4 destinations with odd strides and nz2dn; u8 with the sign control of vector words. */
static void test_narrow(void) {
  env e;
  env_open(&e, PTOSIM_TARGET_A5);
  for (int t = 0; t < 12; t++) {
    static const ptosim_quant_mode qs[] = {PTOSIM_QUANT_QF322S4_PRE_VEC, PTOSIM_QUANT_QF162S4_PRE_SCALAR,
                                           PTOSIM_QUANT_REQ4_VEC, PTOSIM_QUANT_REQ8_SCALAR};
    ptosim_quant_mode q = qs[t % 4];
    const ref_mode *rm = ref_mode_of(q);
    ptosim_dtype dt = q == PTOSIM_QUANT_REQ8_SCALAR ? PTOSIM_DT_U8 : PTOSIM_DT_I4;
    ptosim_fixpipe_params p = base_params(PTOSIM_L1, rm->acc, dt, 1 + rnd(20), 1 + rnd(40), 0x800 * (t % 2));
    p.layout = t % 3 == 0 ? PTOSIM_FIX_NZ2DN : PTOSIM_FIX_NZ2ND;
    if (p.layout == PTOSIM_FIX_NZ2DN) p.loop0_src_stride = 1, p.dst_stride = p.m + rnd(3);
    else p.dst_stride = p.n + rnd(3);
    p.quant = q;
    if (is_vec_mode(q)) p.quant_vec = ptosim_ptr_make(PTOSIM_FB, PTOSIM_DT_F16, 256);
    else p.quant_scalar = f32_scalar(0.0625f);
    p.has_loop3 = t % 2, p.loop3.count = 2, p.loop3.src_stride = 3, p.loop3.dst_stride = p.dst_stride * 40 + 1;
    CHECK(run_case(&e, &p, false) == PTOSIM_OK);
  }
  env_close(&e);
}

/* The A2/A3 profile: L1 / GM stores work, UB and fp8/hif8 do not. */
static void test_a2a3(void) {
  env e;
  env_open(&e, PTOSIM_TARGET_A2A3);
  ptosim_fixpipe_params p = base_params(PTOSIM_GM, PTOSIM_DT_F32, PTOSIM_DT_BF16, 33, 50, e.gm_addr);
  p.quant = PTOSIM_QUANT_QF322BF16_PRE_SCALAR, p.quant_scalar = f32_scalar(2.0f);
  CHECK(run_case(&e, &p, true) == PTOSIM_OK);
  p = base_params(PTOSIM_L1, PTOSIM_DT_I32, PTOSIM_DT_I8, 16, 32, 0);
  p.quant = PTOSIM_QUANT_REQ8_VEC, p.quant_vec = ptosim_ptr_make(PTOSIM_FB, PTOSIM_DT_F32, 0);
  CHECK(run_case(&e, &p, false) == PTOSIM_OK);
  p = base_params(PTOSIM_UB, PTOSIM_DT_F32, PTOSIM_DT_F32, 16, 16, 0);
  CHECK(ptosim_mte_l0c_ub(e.aic, &p) == PTOSIM_E_VERIFY && !strcmp(ptosim_last_diag(e.m)->rule, "fixpipe.target"));
  p = base_params(PTOSIM_GM, PTOSIM_DT_F32, PTOSIM_DT_HIF8, 16, 16, e.gm_addr);
  p.quant = PTOSIM_QUANT_QF322HIF8_PRE_SCALAR, p.quant_scalar = f32_scalar(1.0f);
  CHECK(ptosim_mte_l0c_gm(e.aic, &p) == PTOSIM_E_VERIFY && !strcmp(ptosim_last_diag(e.m)->rule, "fixpipe.target"));
  env_close(&e);
}

/* ---- negative tests: one per rule --------------------------------------------------- */

static void expect_rule(env *e, ptosim_space sp, ptosim_fixpipe_params p, ptosim_status st, const char *rule) {
  ptosim_status got = sp == PTOSIM_L1 ? ptosim_mte_l0c_l1(e->aic, &p)
                      : sp == PTOSIM_GM ? ptosim_mte_l0c_gm(e->aic, &p)
                                        : ptosim_mte_l0c_ub(e->aic, &p);
  CHECK_MSG(got == st && !strcmp(ptosim_last_diag(e->m)->rule, rule), "want %s (%d), got %s (%d): %s", rule, (int)st,
            ptosim_last_diag(e->m)->rule, (int)got, ptosim_last_diag(e->m)->msg);
}

static void test_errors(void) {
  env e;
  env_open(&e, PTOSIM_TARGET_A5);
  const ptosim_status V = PTOSIM_E_VERIFY;
  ptosim_fixpipe_params b = base_params(PTOSIM_GM, PTOSIM_DT_F32, PTOSIM_DT_F32, 16, 32, e.gm_addr), p;
  ptosim_fixpipe_params h = b; /* f16 store with a scalar pre_quant */
  h.dst.dtype = PTOSIM_DT_F16, h.quant = PTOSIM_QUANT_QF322F16_PRE_SCALAR, h.quant_scalar = f32_scalar(1.0f);

#define EXPECT(sp, base, stmt, st, rule) \
  do {                                   \
    p = base;                            \
    stmt;                                \
    expect_rule(&e, sp, p, st, rule);    \
  } while (0)

  EXPECT(PTOSIM_GM, b, p.src.space = PTOSIM_L1, V, "op.space");
  EXPECT(PTOSIM_GM, b, p.dst.space = PTOSIM_UB, V, "op.space");
  EXPECT(PTOSIM_GM, b, p.src.dtype = PTOSIM_DT_F16, V, "fixpipe.src_dtype");
  EXPECT(PTOSIM_GM, b, p.m = 0, V, "fixpipe.shape");
  EXPECT(PTOSIM_GM, b, p.n = 4096, V, "fixpipe.shape");
  EXPECT(PTOSIM_GM, b, p.src_stride = 65536, V, "fixpipe.stride");
  EXPECT(PTOSIM_GM, b, p.dst_stride = -1, V, "fixpipe.stride");
  EXPECT(PTOSIM_GM, b, p.quant = (ptosim_quant_mode)99, V, "fixpipe.clause");
  EXPECT(PTOSIM_GM, b, p.sat = (ptosim_sat_mode)7, V, "fixpipe.clause");
  EXPECT(PTOSIM_GM, b, p.unit_flag = PTOSIM_UNIT_FLAG_CHECK_AND_SET, V, "fixpipe.unit_flag");
  EXPECT(PTOSIM_GM, b, p.quant_scalar = f32_scalar(1.0f), V, "fixpipe.quant_payload");
  EXPECT(PTOSIM_GM, b, p.dst.dtype = PTOSIM_DT_F16, V, "fixpipe.quant_dtype");
  EXPECT(PTOSIM_GM, h, p.src.dtype = PTOSIM_DT_I32, V, "fixpipe.quant_dtype");
  EXPECT(PTOSIM_GM, h, p.dst.dtype = PTOSIM_DT_BF16, V, "fixpipe.quant_dtype");
  EXPECT(PTOSIM_GM, h, p.quant_scalar.dtype = PTOSIM_DT_I32, V, "fixpipe.quant_payload");
  EXPECT(PTOSIM_GM, h, (p.quant = PTOSIM_QUANT_QF322F16_PRE_VEC, p.quant_vec = ptosim_ptr_make(PTOSIM_UB, PTOSIM_DT_F32, 0)),
         V, "fixpipe.quant_payload");
  EXPECT(PTOSIM_GM, h, (p.quant = PTOSIM_QUANT_QF322F16_PRE_VEC, p.quant_vec = ptosim_ptr_make(PTOSIM_FB, PTOSIM_DT_I8, 0)),
         V, "fixpipe.quant_payload");
  EXPECT(PTOSIM_GM, h, (p.dst.dtype = PTOSIM_DT_HIF8, p.quant = PTOSIM_QUANT_QF322HIF8_PRE_HYBRID_SCALAR),
         PTOSIM_E_UNSUPPORTED, "fixpipe.hif8_hybrid");
  EXPECT(PTOSIM_GM, b, (p.relu = PTOSIM_RELU_NORMAL, p.relu_scalar = f32_scalar(1.0f)), V, "fixpipe.relu_payload");
  EXPECT(PTOSIM_GM, b, (p.relu = PTOSIM_RELU_SCALAR, p.relu_scalar.dtype = PTOSIM_DT_I16), V, "fixpipe.relu_payload");
  EXPECT(PTOSIM_GM, b, (p.relu = PTOSIM_RELU_VECTOR, p.relu_vec = ptosim_ptr_make(PTOSIM_L1, PTOSIM_DT_F32, 0)), V,
         "fixpipe.relu_payload");
  EXPECT(PTOSIM_GM, h, (p.has_clip = true, p.clip.dtype = PTOSIM_DT_F16), V, "fixpipe.clip_relu");
  EXPECT(PTOSIM_GM, b, (p.relu = PTOSIM_RELU_NO_RELU, p.has_clip = true, p.clip.dtype = PTOSIM_DT_F16), V,
         "fixpipe.clip_dtype");
  EXPECT(PTOSIM_GM, h, (p.relu = PTOSIM_RELU_NO_RELU, p.has_clip = true, p.clip.dtype = PTOSIM_DT_I16), V,
         "fixpipe.clip_payload");
  EXPECT(PTOSIM_GM, b, p.layout = PTOSIM_FIX_NZ2DN, V, "fixpipe.nz2dn_stride");
  EXPECT(PTOSIM_GM, b, (p.layout = PTOSIM_FIX_NZ2DN, p.loop0_src_stride = 2, p.unit_flag = PTOSIM_UNIT_FLAG_CHECK_AND_CLEAR),
         V, "fixpipe.unit_flag_nz2dn");
  EXPECT(PTOSIM_GM, b, p.loop0_src_stride = 1, V, "fixpipe.loop0_stride");
  EXPECT(PTOSIM_GM, b, p.split = 1, V, "fixpipe.split");
  EXPECT(PTOSIM_GM, b, (p.layout = PTOSIM_FIX_NZ2NZ, p.split = 2), V, "fixpipe.split");
  EXPECT(PTOSIM_GM, h, p.layout = PTOSIM_FIX_NZ2NZ, V, "fixpipe.nz2nz_dtype");
  EXPECT(PTOSIM_GM, b, (p.layout = PTOSIM_FIX_NZ2NZ, p.has_loop3 = true, p.loop3.count = 1), V, "fixpipe.nz2nz_loop3");
  EXPECT(PTOSIM_GM, b, (p.has_loop3 = true, p.loop3.count = 0), V, "fixpipe.loop3");
  EXPECT(PTOSIM_GM, b, (p.has_loop3 = true, p.loop3.count = 1, p.loop3.src_stride = 70000), V, "fixpipe.loop3");
  EXPECT(PTOSIM_GM, b, p.sid = 4, V, "fixpipe.sid");
  EXPECT(PTOSIM_GM, b, p.l2_cache_ctrl = 16, V, "fixpipe.l2_cache_ctrl");
  EXPECT(PTOSIM_GM, b, p.atomic = PTOSIM_ATOMIC_ADD, V, "fixpipe.atomic");
  EXPECT(PTOSIM_GM, b, p.atomic_type = PTOSIM_DT_F32, V, "fixpipe.atomic");
  EXPECT(PTOSIM_GM, b, (p.atomic = PTOSIM_ATOMIC_MAX, p.atomic_type = PTOSIM_DT_F16), V, "fixpipe.atomic_type");
  EXPECT(PTOSIM_GM, b, (p.atomic = PTOSIM_ATOMIC_MAX, p.atomic_type = PTOSIM_DT_U32, p.dst.dtype = PTOSIM_DT_U32), V,
         "fixpipe.quant_dtype");
  EXPECT(PTOSIM_GM, b, (p.atomic = PTOSIM_ATOMIC_MIN, p.atomic_type = PTOSIM_DT_U8), V, "fixpipe.atomic_type");

  ptosim_fixpipe_params l = base_params(PTOSIM_L1, PTOSIM_DT_F32, PTOSIM_DT_F32, 16, 32, 0);
  EXPECT(PTOSIM_L1, l, (p.atomic = PTOSIM_ATOMIC_ADD, p.atomic_type = PTOSIM_DT_F32), V, "fixpipe.atomic_space");
  EXPECT(PTOSIM_L1, l, p.dst.addr = 512 * 1024 - 64, PTOSIM_E_FAULT, "mem.bounds");
  EXPECT(PTOSIM_L1, l, p.dst.addr = 16, PTOSIM_E_FAULT, "mem.align");
  EXPECT(PTOSIM_L1, l, p.src.addr = 256 * 1024 - 64, PTOSIM_E_FAULT, "mem.bounds");
  EXPECT(PTOSIM_GM, b, p.dst.addr = e.gm_addr + GM_BYTES - 64, PTOSIM_E_FAULT, "mem.bounds");
  EXPECT(PTOSIM_GM, h, (p.quant = PTOSIM_QUANT_QF322F16_PRE_VEC, p.quant_vec = ptosim_ptr_make(PTOSIM_FB, PTOSIM_DT_F32, 64)),
         PTOSIM_E_FAULT, "mem.align");
  EXPECT(PTOSIM_GM, h, (p.quant = PTOSIM_QUANT_QF322F16_PRE_VEC, p.quant_vec = ptosim_ptr_make(PTOSIM_FB, PTOSIM_DT_F32, 4096)),
         PTOSIM_E_FAULT, "mem.bounds");

  ptosim_fixpipe_params u = base_params(PTOSIM_UB, PTOSIM_DT_F32, PTOSIM_DT_F32, 16, 32, 0);
  EXPECT(PTOSIM_UB, u, p.dst_mode = (ptosim_dst_mode)3, V, "fixpipe.dst_mode");
  EXPECT(PTOSIM_UB, u, p.sub_blockid = 2, V, "fixpipe.sub_blockid");
  EXPECT(PTOSIM_UB, u, (p.dst_mode = PTOSIM_DST_SPLIT_M, p.layout = PTOSIM_FIX_NZ2DN, p.loop0_src_stride = 1), V,
         "fixpipe.dual_layout");
  EXPECT(PTOSIM_UB, u, (p.dst_mode = PTOSIM_DST_SPLIT_N, p.relu = PTOSIM_RELU_NORMAL), V, "fixpipe.dual_transform");
  EXPECT(PTOSIM_UB, u, (p.dst_mode = PTOSIM_DST_SPLIT_M, p.has_loop3 = true, p.loop3.count = 1), V,
         "fixpipe.dual_transform");
  EXPECT(PTOSIM_UB, u, (p.dst_mode = PTOSIM_DST_SPLIT_M, p.m = 15), V, "fixpipe.split_m_odd");
  EXPECT(PTOSIM_UB, u, (p.dst_mode = PTOSIM_DST_SPLIT_N, p.n = 48), V, "fixpipe.split_n_align");
  /* The second half faults: neither UB may change. */
  p = u, p.dst_mode = PTOSIM_DST_SPLIT_M, p.m = 64, p.dst_stride = 32, p.dst.addr = 256 * 1024 - 32 * 32 * 4;
  CHECK(run_case(&e, &p, false) == PTOSIM_OK);
  p.dst_stride = 33;
  CHECK(run_case(&e, &p, false) == PTOSIM_E_FAULT && !strcmp(ptosim_last_diag(e.m)->rule, "mem.bounds"));
  /* An AIV core cannot issue FIXPIPE. */
  p = u;
  CHECK(ptosim_mte_l0c_ub(e.aiv[0], &p) == V && !strcmp(ptosim_last_diag(e.m)->rule, "op.unit"));
#undef EXPECT
  env_close(&e);
}

int main(void) {
  RUN(test_layouts);
  RUN(test_program_shapes);
  RUN(test_quant_modes);
  RUN(test_sat);
  RUN(test_golden_points);
  RUN(test_atomic);
  RUN(test_ub_dual);
  RUN(test_narrow);
  RUN(test_a2a3);
  RUN(test_errors);
  return pt_test_finish();
}
