/* Vector predicate and materialization ops (vpto micro-isa 05) against references written
 * here from the formulas, over one bool per predicate bit, plus the packed-predicate goldens
 * of the PTOAS corpus (test/vpto/cases/micro-op/materialization-predicate/<case>/golden.py)
 * and one negative test per rule. */
#include <stdint.h>
#include <string.h>

#include "harness.h"
#include "ptosim/ptosim.h"

static unsigned long long seed = 0x9e3779b97f4a7c15ull;
static ptosim_machine *m5;
static ptosim_core *core;

typedef struct bits256 {
  uint8_t v[256];
} bits256;

static bits256 unpack(const ptosim_vmask *m) {
  bits256 r;
  for (int j = 0; j < 256; j++) r.v[j] = (m->b[j / 8] >> (j % 8)) & 1;
  return r;
}

static ptosim_vmask rand_mask(void) {
  ptosim_vmask m;
  for (int k = 0; k < 32; k++) m.b[k] = (uint8_t)pt_rand_u64(&seed);
  return m;
}

static int same_bits(const ptosim_vmask *m, const bits256 *want) {
  bits256 got = unpack(m);
  return !memcmp(got.v, want->v, sizeof got.v);
}

/* The predicate as eight little-endian 32-bit words, as psts NORM stores it. */
static void words(const ptosim_vmask *m, uint32_t w[8]) {
  for (int k = 0; k < 8; k++)
    w[k] = (uint32_t)m->b[4 * k] | (uint32_t)m->b[4 * k + 1] << 8 | (uint32_t)m->b[4 * k + 2] << 16 |
           (uint32_t)m->b[4 * k + 3] << 24;
}

static int words_are(const ptosim_vmask *m, const uint32_t *want, int n) {
  uint32_t w[8];
  words(m, w);
  for (int k = 0; k < n; k++)
    if (w[k] != want[k]) return 0;
  for (int k = n; k < 8; k++)
    if (w[k] != 0) return 0;
  return 1;
}

static int failed_with(ptosim_status st, const char *rule) {
  return st == PTOSIM_E_VERIFY && !strcmp(ptosim_last_diag(m5)->rule, rule);
}

/* ---- pset / pge ------------------------------------------------------------------------ */

static const ptosim_pred_pattern pats[] = {PTOSIM_PAT_ALL, PTOSIM_PAT_ALLF, PTOSIM_PAT_VL1,  PTOSIM_PAT_VL2,
                                           PTOSIM_PAT_VL3, PTOSIM_PAT_VL4,  PTOSIM_PAT_VL8,  PTOSIM_PAT_VL16,
                                           PTOSIM_PAT_VL32, PTOSIM_PAT_VL64, PTOSIM_PAT_VL128, PTOSIM_PAT_M3,
                                           PTOSIM_PAT_M4,  PTOSIM_PAT_H,    PTOSIM_PAT_Q};

/* Reference: is lane i of L active under pattern p; *bad when the pattern names more lanes. */
static int pat_active(ptosim_pred_pattern p, int i, int L, int *bad) {
  static const int vl[] = {0, 1, 2, 3, 4, 8, 16, 32, 64, 128};
  *bad = 0;
  if (p >= PTOSIM_PAT_VL1 && p <= PTOSIM_PAT_VL128) {
    *bad = vl[p] > L;
    return i < vl[p];
  }
  if (p == PTOSIM_PAT_ALL) return 1;
  if (p == PTOSIM_PAT_ALLF) return 0;
  if (p == PTOSIM_PAT_H) return 2 * i < L;
  if (p == PTOSIM_PAT_Q) return 4 * i < L;
  if (p == PTOSIM_PAT_M3) return i % 3 == 0;
  return i % 4 == 0; /* M4 */
}

typedef ptosim_status (*pset_fn)(ptosim_core *, const ptosim_pset_params *);

static void test_pset_pge(void) {
  pset_fn fns[2][3] = {{ptosim_pset_b8, ptosim_pset_b16, ptosim_pset_b32}, {ptosim_pge_b8, ptosim_pge_b16, ptosim_pge_b32}};
  for (int f = 0; f < 2; f++)
    for (int gi = 0; gi < 3; gi++) {
      int g = 1 << gi, L = 256 / g;
      for (unsigned k = 0; k < sizeof pats / sizeof pats[0]; k++) {
        ptosim_vmask m = rand_mask();
        ptosim_pset_params p = {&m, pats[k]};
        ptosim_status st = fns[f][gi](core, &p);
        int bad = 0;
        bits256 want;
        for (int j = 0; j < 256; j++) want.v[j] = j % g == 0 && pat_active(pats[k], j / g, L, &bad);
        pat_active(pats[k], 0, L, &bad);
        if (bad)
          CHECK_MSG(failed_with(st, "vec.pattern"), "g %d pattern %d", g, pats[k]);
        else
          CHECK_MSG(st == PTOSIM_OK && same_bits(&m, &want), "g %d pattern %d", g, pats[k]);
      }
      ptosim_vmask m;
      ptosim_pset_params p = {&m, (ptosim_pred_pattern)14};
      CHECK(failed_with(fns[f][gi](core, &p), "vec.pattern"));
    }
}

/* Corpus pset-pattern-fragment: pset_b8 PAT_M3, pset_b16 PAT_H, pset_b32 PAT_Q. */
static void test_pset_golden(void) {
  static const uint32_t m3[8] = {1227133513u, 2454267026u, 613566756u, 1227133513u,
                                 2454267026u, 613566756u,  1227133513u, 2454267026u};
  static const uint32_t h[4] = {1431655765u, 1431655765u, 1431655765u, 1431655765u};
  static const uint32_t q[2] = {286331153u, 286331153u};
  ptosim_vmask a, b, c;
  ptosim_pset_params pa = {&a, PTOSIM_PAT_M3}, pb = {&b, PTOSIM_PAT_H}, pc = {&c, PTOSIM_PAT_Q};
  CHECK(ptosim_pset_b8(core, &pa) == PTOSIM_OK && words_are(&a, m3, 8));
  CHECK(ptosim_pset_b16(core, &pb) == PTOSIM_OK && words_are(&b, h, 4));
  CHECK(ptosim_pset_b32(core, &pc) == PTOSIM_OK && words_are(&c, q, 2));
}

/* ---- plt ------------------------------------------------------------------------------- */

static void test_plt(void) {
  typedef ptosim_status (*plt_fn)(ptosim_core *, const ptosim_plt_params *);
  plt_fn fns[3] = {ptosim_plt_b8, ptosim_plt_b16, ptosim_plt_b32};
  static const int64_t counts[] = {0, 1, 7, 13, 63, 64, 65, 100, 127, 128, 129, 255, 256, 257, 1000, 2147483647, -1};
  for (int gi = 0; gi < 3; gi++) {
    int g = 1 << gi;
    int64_t L = 256 / g;
    for (unsigned k = 0; k < sizeof counts / sizeof counts[0]; k++) {
      uint64_t c = (uint32_t)counts[k]; /* the i32 operand as u32 */
      ptosim_vmask m = rand_mask();
      int64_t out = 12345;
      ptosim_plt_params p = {&m, counts[k], &out};
      bits256 want;
      for (int j = 0; j < 256; j++) want.v[j] = j % g == 0 && (uint64_t)(j / g) < c;
      int64_t want_out = (int32_t)(uint32_t)(c <= (uint64_t)L ? 0 : c - (uint64_t)L);
      CHECK_MSG(fns[gi](core, &p) == PTOSIM_OK && same_bits(&m, &want) && out == want_out, "g %d count %lld", g,
                (long long)counts[k]);
    }
    /* a chain of plt calls covers a count exactly once */
    int64_t rem = 300, lanes = 0;
    while (rem > 0) {
      ptosim_vmask m;
      ptosim_plt_params p = {&m, rem, &rem};
      CHECK(fns[gi](core, &p) == PTOSIM_OK);
      bits256 b = unpack(&m);
      for (int j = 0; j < 256; j++) lanes += b.v[j];
    }
    CHECK(lanes == 300);
    ptosim_vmask m;
    ptosim_plt_params bad = {&m, (int64_t)1 << 33, NULL};
    CHECK(failed_with(fns[gi](core, &bad), "vec.plt_count"));
  }
}

/* ---- pltm --------------------------------------------------------------------------------- */

static void test_pltm(void) {
  typedef ptosim_status (*pltm_fn)(ptosim_core *, const ptosim_pltm_params *);
  pltm_fn fns[3] = {ptosim_pltm_b8, ptosim_pltm_b16, ptosim_pltm_b32};
  static const int64_t loops[] = {0, 1, 2, 3, 7, 100, 65535, -1};
  static const int64_t bounds[] = {0, 1, 63, 64, 65, 127, 128, 129, 200, 255, 256, 257, 511, 512, 513, 1000, 2147483647, -1};
  for (int gi = 0; gi < 3; gi++) {
    int g = 1 << gi;
    uint64_t L = 256u / (unsigned)g;
    for (unsigned a = 0; a < sizeof loops / sizeof loops[0]; a++)
      for (unsigned k = 0; k < sizeof bounds / sizeof bounds[0]; k++) {
        ptosim_vmask m = rand_mask();
        ptosim_pltm_params p = {&m, loops[a], bounds[k]};
        bits256 want; /* lane i of iteration `loop` is element loop * L + i (loop as u16, bound as u32) */
        for (int j = 0; j < 256; j++)
          want.v[j] = j % g == 0 && (uint64_t)(uint16_t)loops[a] * L + (uint64_t)(j / g) < (uint64_t)(uint32_t)bounds[k];
        CHECK_MSG(fns[gi](core, &p) == PTOSIM_OK && same_bits(&m, &want), "g %d loop %lld bound %lld", g,
                  (long long)loops[a], (long long)bounds[k]);
      }
    /* the masks of iterations 0 .. covering a bound add up to it */
    uint64_t lanes = 0;
    for (int64_t it = 0; it < 8; it++) {
      ptosim_vmask m;
      ptosim_pltm_params p = {&m, it, 300};
      CHECK(fns[gi](core, &p) == PTOSIM_OK);
      bits256 b = unpack(&m);
      for (int j = 0; j < 256; j++) lanes += b.v[j];
    }
    CHECK(lanes == 300);
    ptosim_vmask m;
    ptosim_pltm_params bad = {&m, 1 << 16, 5};
    CHECK(failed_with(fns[gi](core, &bad), "vec.plt_count"));
    bad = (ptosim_pltm_params){&m, 0, (int64_t)1 << 33};
    CHECK(failed_with(fns[gi](core, &bad), "vec.plt_count"));
  }
}

/* ---- logic --------------------------------------------------------------------------------- */

static void test_logic(void) {
  for (int it = 0; it < 20; it++) {
    ptosim_vmask a = rand_mask(), b = rand_mask(), m = rand_mask(), d;
    if (it == 1) memset(&m, 0xff, sizeof m);
    if (it == 2) memset(&m, 0, sizeof m);
    bits256 A = unpack(&a), B = unpack(&b), M = unpack(&m), w[5];
    for (int j = 0; j < 256; j++) {
      w[0].v[j] = M.v[j] && A.v[j] && B.v[j];
      w[1].v[j] = M.v[j] && (A.v[j] || B.v[j]);
      w[2].v[j] = M.v[j] && (A.v[j] != B.v[j]);
      w[3].v[j] = M.v[j] ? A.v[j] : B.v[j];
      w[4].v[j] = M.v[j] && !A.v[j];
    }
    ptosim_pbin_params p = {&d, &a, &b, &m};
    CHECK(ptosim_pand(core, &p) == PTOSIM_OK && same_bits(&d, &w[0]));
    CHECK(ptosim_por(core, &p) == PTOSIM_OK && same_bits(&d, &w[1]));
    CHECK(ptosim_pxor(core, &p) == PTOSIM_OK && same_bits(&d, &w[2]));
    CHECK(ptosim_psel(core, &p) == PTOSIM_OK && same_bits(&d, &w[3]));
    ptosim_pnot_params pn = {&d, &a, &m};
    CHECK(ptosim_pnot(core, &pn) == PTOSIM_OK && same_bits(&d, &w[4]));
    /* the result may alias a source */
    ptosim_vmask a2 = a;
    ptosim_pbin_params pal = {&a2, &a2, &b, &m};
    CHECK(ptosim_pxor(core, &pal) == PTOSIM_OK && same_bits(&a2, &w[2]));
  }
  /* corpus pnot / psel / pand / por / pxor: plt_b32(13), plt_b32(7), PAT_ALL b32 */
  ptosim_vmask all, tail, tail7, out;
  ptosim_pset_params ps = {&all, PTOSIM_PAT_ALL};
  ptosim_plt_params pl = {&tail, 13, NULL}, pl7 = {&tail7, 7, NULL};
  CHECK(ptosim_pset_b32(core, &ps) == PTOSIM_OK && ptosim_plt_b32(core, &pl) == PTOSIM_OK &&
        ptosim_plt_b32(core, &pl7) == PTOSIM_OK);
  static const uint32_t pnot_gold[8] = {0, 286261248u, 286331153u, 286331153u, 286331153u, 286331153u, 286331153u, 286331153u};
  ptosim_pnot_params pn = {&out, &tail, &all};
  CHECK(ptosim_pnot(core, &pn) == PTOSIM_OK && words_are(&out, pnot_gold, 8));
  static const uint32_t psel_gold[2] = {286331153u, 69905u};
  ptosim_pbin_params psel = {&out, &all, &tail, &tail};
  CHECK(ptosim_psel(core, &psel) == PTOSIM_OK && words_are(&out, psel_gold, 2));
  static const uint32_t pand_gold[1] = {0x1111111u}; /* lanes 0..6 of b32 */
  ptosim_pbin_params pand = {&out, &tail, &tail7, &all};
  CHECK(ptosim_pand(core, &pand) == PTOSIM_OK && words_are(&out, pand_gold, 1));
  static const uint32_t por_gold[2] = {0x11111111u, 0x11111u}, pxor_gold[2] = {0x10000000u, 0x11111u};
  CHECK(ptosim_por(core, &pand) == PTOSIM_OK && words_are(&out, por_gold, 2));
  CHECK(ptosim_pxor(core, &pand) == PTOSIM_OK && words_are(&out, pxor_gold, 2));
  static const uint32_t psel2_gold[8] = {286331153u, 286331153u, 286331153u, 286331153u, 286331153u, 286331153u, 286331153u, 286331153u};
  ptosim_pbin_params psel2 = {&out, &tail, &all, &tail}; /* corpus psel-tail-predicate, second psel */
  CHECK(ptosim_psel(core, &psel2) == PTOSIM_OK && words_are(&out, psel2_gold, 8));
}

/* ---- pack / unpack / bitcast -------------------------------------------------------------- */

static void test_pack(void) {
  for (int it = 0; it < 10; it++) {
    ptosim_vmask s = rand_mask(), d;
    bits256 S = unpack(&s);
    for (int h = 0; h < 2; h++) {
      bits256 pk, up;
      memset(&pk, 0, sizeof pk);
      memset(&up, 0, sizeof up);
      for (int j = 0; j < 128; j++) pk.v[128 * h + j] = S.v[2 * j];
      for (int i = 0; i < 128; i++) up.v[2 * i] = S.v[128 * h + i];
      ptosim_ppart_params p = {&d, &s, (ptosim_pred_half)h};
      CHECK(ptosim_ppack(core, &p) == PTOSIM_OK && same_bits(&d, &pk));
      CHECK(ptosim_punpack(core, &p) == PTOSIM_OK && same_bits(&d, &up));
    }
    ptosim_ppart_params pb = {&d, &s, PTOSIM_PART_LOWER};
    CHECK(ptosim_pbitcast(core, &pb) == PTOSIM_OK && !memcmp(&d, &s, sizeof d));
  }
  /* corpus ppack-punpack(-nontrivial): LOWER pack then unpack of pset_b32 ALL / M4 */
  static const uint32_t all_pk[4] = {1431655765u, 1431655765u, 1431655765u, 1431655765u};
  static const uint32_t all_up[8] = {286331153u, 286331153u, 286331153u, 286331153u, 286331153u, 286331153u, 286331153u, 286331153u};
  static const uint32_t m4_pk[4] = {16843009u, 16843009u, 16843009u, 16843009u};
  static const uint32_t m4_up[8] = {65537u, 65537u, 65537u, 65537u, 65537u, 65537u, 65537u, 65537u};
  ptosim_pred_pattern src_pat[2] = {PTOSIM_PAT_ALL, PTOSIM_PAT_M4};
  const uint32_t *gold[2][2] = {{all_pk, all_up}, {m4_pk, m4_up}};
  for (int c = 0; c < 2; c++) {
    ptosim_vmask s, pk, rt;
    ptosim_pset_params ps = {&s, src_pat[c]};
    ptosim_ppart_params pp = {&pk, &s, PTOSIM_PART_LOWER}, pu = {&rt, &pk, PTOSIM_PART_LOWER};
    CHECK(ptosim_pset_b32(core, &ps) == PTOSIM_OK && ptosim_ppack(core, &pp) == PTOSIM_OK &&
          ptosim_punpack(core, &pu) == PTOSIM_OK);
    CHECK(words_are(&pk, gold[c][0], 4) && words_are(&rt, gold[c][1], 8));
  }
  ptosim_vmask s = rand_mask(), d;
  ptosim_ppart_params bad = {&d, &s, (ptosim_pred_half)2};
  CHECK(failed_with(ptosim_ppack(core, &bad), "vec.part"));
  CHECK(failed_with(ptosim_punpack(core, &bad), "vec.part"));
}

/* ---- interleave / de-interleave ------------------------------------------------------------ */

typedef ptosim_status (*pair_fn)(ptosim_core *, const ptosim_ppair_params *);

/* Lane l (g bits) of a bool image as a small integer. */
static unsigned lane_of(const bits256 *b, int l, int g) {
  unsigned v = 0;
  for (int k = 0; k < g; k++) v |= (unsigned)b->v[l * g + k] << k;
  return v;
}

static void test_intlv(void) {
  pair_fn il[3] = {ptosim_pintlv_b8, ptosim_pintlv_b16, ptosim_pintlv_b32};
  pair_fn dl[3] = {ptosim_pdintlv_b8, ptosim_pdintlv_b16, ptosim_pdintlv_b32};
  for (int gi = 0; gi < 3; gi++) {
    int g = 1 << gi, L = 256 / g;
    for (int it = 0; it < 5; it++) {
      ptosim_vmask a = rand_mask(), b = rand_mask(), lo, hi, lo2, hi2;
      bits256 A = unpack(&a), B = unpack(&b);
      ptosim_ppair_params p = {&lo, &hi, &a, &b};
      CHECK(il[gi](core, &p) == PTOSIM_OK);
      bits256 LO = unpack(&lo), HI = unpack(&hi);
      int ok = 1;
      for (int i = 0; i < L / 2; i++) { /* src0 lane i -> lane 2i, src1 lane i -> lane 2i+1 of low */
        ok &= lane_of(&LO, 2 * i, g) == lane_of(&A, i, g) && lane_of(&LO, 2 * i + 1, g) == lane_of(&B, i, g);
        ok &= lane_of(&HI, 2 * i, g) == lane_of(&A, L / 2 + i, g) && lane_of(&HI, 2 * i + 1, g) == lane_of(&B, L / 2 + i, g);
      }
      CHECK_MSG(ok, "pintlv g %d", g);
      ptosim_ppair_params q = {&lo2, &hi2, &a, &b};
      CHECK(dl[gi](core, &q) == PTOSIM_OK);
      bits256 LO2 = unpack(&lo2), HI2 = unpack(&hi2);
      ok = 1;
      for (int i = 0; i < L / 2; i++) { /* even lanes of a then b to low, odd to high */
        ok &= lane_of(&LO2, i, g) == lane_of(&A, 2 * i, g) && lane_of(&HI2, i, g) == lane_of(&A, 2 * i + 1, g);
        ok &= lane_of(&LO2, L / 2 + i, g) == lane_of(&B, 2 * i, g) && lane_of(&HI2, L / 2 + i, g) == lane_of(&B, 2 * i + 1, g);
      }
      CHECK_MSG(ok, "pdintlv g %d", g);
      /* de-interleaving the interleaved pair gives the sources back (in place) */
      ptosim_ppair_params r = {&lo, &hi, &lo, &hi};
      CHECK(dl[gi](core, &r) == PTOSIM_OK && !memcmp(&lo, &a, sizeof a) && !memcmp(&hi, &b, sizeof b));
    }
  }
  /* corpus p(d)intlv_b*-nontrivial: src0 = pset PAT_VL8, src1 = pset PAT_M4; low then high */
  static const uint32_t i8[16] = {33707863u, 33686018u, 33686018u, 33686018u, 33686018u, 33686018u, 33686018u, 33686018u,
                                  33686018u, 33686018u, 33686018u, 33686018u, 33686018u, 33686018u, 33686018u, 33686018u};
  static const uint32_t i16[16] = {286593301u, 262148u, 262148u, 262148u, 262148u, 262148u, 262148u, 262148u,
                                   262148u,    262148u, 262148u, 262148u, 262148u, 262148u, 262148u, 262148u};
  static const uint32_t i32[16] = {16843025u, 16843025u, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16};
  static const uint32_t d8[16] = {15, 0, 0, 0, 1431655765u, 1431655765u, 1431655765u, 1431655765u, 15, 0, 0, 0, 0, 0, 0, 0};
  static const uint32_t d32[16] = {4369, 0, 0, 0, 16843009u, 16843009u, 16843009u, 16843009u, 4369, 0, 0, 0, 0, 0, 0, 0};
  pset_fn ps[3] = {ptosim_pset_b8, ptosim_pset_b16, ptosim_pset_b32};
  struct { pair_fn f; int gi; const uint32_t *gold; } cases[] = {
      {ptosim_pintlv_b8, 0, i8}, {ptosim_pintlv_b16, 1, i16}, {ptosim_pintlv_b32, 2, i32},
      {ptosim_pdintlv_b8, 0, d8}, {ptosim_pdintlv_b32, 2, d32}};
  for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    ptosim_vmask a, b, lo, hi;
    ptosim_pset_params pa = {&a, PTOSIM_PAT_VL8}, pb = {&b, PTOSIM_PAT_M4};
    ptosim_ppair_params p = {&lo, &hi, &a, &b};
    CHECK(ps[cases[c].gi](core, &pa) == PTOSIM_OK && ps[cases[c].gi](core, &pb) == PTOSIM_OK &&
          cases[c].f(core, &p) == PTOSIM_OK);
    uint32_t wl[8], wh[8];
    words(&lo, wl);
    words(&hi, wh);
    CHECK_MSG(!memcmp(wl, cases[c].gold, sizeof wl) && !memcmp(wh, cases[c].gold + 8, sizeof wh), "case %u", c);
  }
}

/* ---- vbr / vdup ----------------------------------------------------------------------------- */

static const ptosim_dtype bc_types[] = {PTOSIM_DT_I8,  PTOSIM_DT_U8,  PTOSIM_DT_I16, PTOSIM_DT_U16, PTOSIM_DT_F16,
                                        PTOSIM_DT_BF16, PTOSIM_DT_I32, PTOSIM_DT_U32, PTOSIM_DT_F32};
static const int bc_width[] = {1, 1, 2, 2, 2, 2, 4, 4, 4};

/* Lane i of r (w bytes, little-endian) as an integer. */
static uint32_t lane_val(const ptosim_vreg *r, int i, int w) {
  uint32_t v = 0;
  for (int k = 0; k < w; k++) v |= (uint32_t)r->b[i * w + k] << (8 * k);
  return v;
}

static void test_vbr_vdup(void) {
  for (unsigned t = 0; t < sizeof bc_types / sizeof bc_types[0]; t++) {
    int w = bc_width[t], n = 256 / w;
    uint64_t bits = pt_rand_u64(&seed);
    uint32_t want = (uint32_t)(bits & (w == 4 ? 0xffffffffu : (1u << (8 * w)) - 1));
    ptosim_vreg d, src;
    for (int k = 0; k < 256; k++) src.b[k] = (uint8_t)pt_rand_u64(&seed);
    ptosim_vbr_params pb = {&d, {bc_types[t], bits}};
    CHECK(ptosim_vbr(core, &pb) == PTOSIM_OK);
    int ok = 1;
    for (int i = 0; i < n; i++) ok &= lane_val(&d, i, w) == want;
    CHECK_MSG(ok, "vbr %d", t);
    for (int mk = 0; mk < 3; mk++) {
      ptosim_vmask m = rand_mask();
      if (mk == 1) memset(&m, 0xff, sizeof m);
      if (mk == 2) memset(&m, 0, sizeof m);
      bits256 M = unpack(&m);
      /* scalar form */
      ptosim_vdup_params pd = {&d, NULL, {bc_types[t], bits}, &m, bc_types[t], PTOSIM_VDUP_LOWEST};
      CHECK(ptosim_vdup(core, &pd) == PTOSIM_OK);
      ok = 1;
      for (int i = 0; i < n; i++) ok &= lane_val(&d, i, w) == (M.v[i * w] ? want : 0);
      CHECK_MSG(ok, "vdup scalar %d mask %d", t, mk);
      /* vector form, in place */
      for (int pos = 0; pos < 2; pos++) {
        ptosim_vreg v = src;
        uint32_t lane = lane_val(&src, pos ? n - 1 : 0, w);
        ptosim_vdup_params pv = {&v, &v, {PTOSIM_DT_NONE, 0}, &m, bc_types[t], (ptosim_vdup_pos)pos};
        CHECK(ptosim_vdup(core, &pv) == PTOSIM_OK);
        ok = 1;
        for (int i = 0; i < n; i++) ok &= lane_val(&v, i, w) == (M.v[i * w] ? lane : 0);
        CHECK_MSG(ok, "vdup vector %d pos %d", t, pos);
      }
    }
  }
  ptosim_vreg d;
  ptosim_vmask m = rand_mask();
  ptosim_vbr_params b64 = {&d, {PTOSIM_DT_I64, 1}};
  CHECK(failed_with(ptosim_vbr(core, &b64), "vec.dtype"));
  ptosim_vdup_params mism = {&d, NULL, {PTOSIM_DT_I16, 1}, &m, PTOSIM_DT_I32, PTOSIM_VDUP_LOWEST};
  CHECK(failed_with(ptosim_vdup(core, &mism), "vec.dtype"));
  ptosim_vdup_params pos = {&d, &d, {PTOSIM_DT_NONE, 0}, &m, PTOSIM_DT_I32, (ptosim_vdup_pos)3};
  CHECK(failed_with(ptosim_vdup(core, &pos), "vec.position"));
  ptosim_vdup_params nomask = {&d, NULL, {PTOSIM_DT_I32, 1}, NULL, PTOSIM_DT_I32, PTOSIM_VDUP_LOWEST};
  CHECK(failed_with(ptosim_vdup(core, &nomask), "vec.operand"));
}

/* ---- every op of the family is A5-only ------------------------------------------------------ */

static void test_target(void) {
  ptosim_machine *m2 = ptosim_machine_new(PTOSIM_TARGET_A2A3, 1);
  ptosim_core *c2 = ptosim_core_of(m2, 0, PTOSIM_AIV0);
  ptosim_vmask a = rand_mask(), b = rand_mask(), d, e;
  ptosim_vreg r;
  int64_t out;
  ptosim_pset_params ps = {&d, PTOSIM_PAT_ALL};
  ptosim_plt_params pl = {&d, 5, &out};
  ptosim_pbin_params pb = {&d, &a, &b, &b};
  ptosim_pnot_params pn = {&d, &a, &b};
  ptosim_ppart_params pp = {&d, &a, PTOSIM_PART_LOWER};
  ptosim_ppair_params pr = {&d, &e, &a, &b};
  ptosim_vbr_params vb = {&r, {PTOSIM_DT_I32, 1}};
  ptosim_vdup_params vd = {&r, NULL, {PTOSIM_DT_I32, 1}, &a, PTOSIM_DT_I32, PTOSIM_VDUP_LOWEST};
#define ON_A2A3(call) CHECK_MSG((call) == PTOSIM_E_VERIFY && !strcmp(ptosim_last_diag(m2)->rule, "vec.target"), #call)
  ON_A2A3(ptosim_pset_b8(c2, &ps));
  ON_A2A3(ptosim_pset_b16(c2, &ps));
  ON_A2A3(ptosim_pset_b32(c2, &ps));
  ON_A2A3(ptosim_pge_b8(c2, &ps));
  ON_A2A3(ptosim_pge_b16(c2, &ps));
  ON_A2A3(ptosim_pge_b32(c2, &ps));
  ON_A2A3(ptosim_plt_b8(c2, &pl));
  ON_A2A3(ptosim_plt_b16(c2, &pl));
  ON_A2A3(ptosim_plt_b32(c2, &pl));
  ptosim_pltm_params pm = {&d, 0, 5};
  ON_A2A3(ptosim_pltm_b8(c2, &pm));
  ON_A2A3(ptosim_pltm_b16(c2, &pm));
  ON_A2A3(ptosim_pltm_b32(c2, &pm));
  ON_A2A3(ptosim_pand(c2, &pb));
  ON_A2A3(ptosim_por(c2, &pb));
  ON_A2A3(ptosim_pxor(c2, &pb));
  ON_A2A3(ptosim_psel(c2, &pb));
  ON_A2A3(ptosim_pnot(c2, &pn));
  ON_A2A3(ptosim_ppack(c2, &pp));
  ON_A2A3(ptosim_punpack(c2, &pp));
  ON_A2A3(ptosim_pbitcast(c2, &pp));
  ON_A2A3(ptosim_pintlv_b8(c2, &pr));
  ON_A2A3(ptosim_pintlv_b16(c2, &pr));
  ON_A2A3(ptosim_pintlv_b32(c2, &pr));
  ON_A2A3(ptosim_pdintlv_b8(c2, &pr));
  ON_A2A3(ptosim_pdintlv_b16(c2, &pr));
  ON_A2A3(ptosim_pdintlv_b32(c2, &pr));
  ON_A2A3(ptosim_vbr(c2, &vb));
  ON_A2A3(ptosim_vdup(c2, &vd));
#undef ON_A2A3
  ptosim_machine_free(m2);
  ptosim_pset_params nul = {NULL, PTOSIM_PAT_ALL};
  CHECK(failed_with(ptosim_pset_b8(core, &nul), "vec.operand"));
}

int main(void) {
  m5 = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  core = ptosim_core_of(m5, 0, PTOSIM_AIV0);
  RUN(test_pset_pge);
  RUN(test_pset_golden);
  RUN(test_plt);
  RUN(test_pltm);
  RUN(test_logic);
  RUN(test_pack);
  RUN(test_intlv);
  RUN(test_vbr_vdup);
  RUN(test_target);
  ptosim_machine_free(m5);
  return pt_test_finish();
}
