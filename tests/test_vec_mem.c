/* Vector and predicate loads / stores (src/isa/vec_mem.c) against references written here
 * byte by byte from the chapter formulas: every distribution, full / empty / prefix /
 * alternating / random masks, offsets in elements, post-update forms, untouched bytes
 * over the whole UB, the byte ranges recorded for the checkers, and every rule. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/event.h"
#include "core/machine.h"
#include "harness.h"
#include "ptosim/monitor.h"
#include "ptosim/ptosim.h"

static unsigned long long seed = 0x5eed1234ULL;
static unsigned rnd(unsigned n) { return (unsigned)(pt_rand_u64(&seed) % n); }

typedef struct env {
  ptosim_machine *m;
  ptosim_core *v;
  uint64_t cap;
  uint8_t *img; /* the expected UB */
  uint8_t *got;
} env;

static env env_new(ptosim_target t) {
  env e;
  e.m = ptosim_machine_new(t, 1);
  e.v = ptosim_core_of(e.m, 0, PTOSIM_AIV0);
  e.cap = ptosim_space_capacity(e.m, PTOSIM_UB);
  e.img = malloc(e.cap);
  e.got = malloc(e.cap);
  for (uint64_t i = 0; i < e.cap; i++) e.img[i] = (uint8_t)pt_rand_u64(&seed);
  CHECK(ptosim_mem_write(e.v, PTOSIM_UB, 0, e.img, e.cap) == PTOSIM_OK);
  return e;
}

static void env_free(env *e) {
  free(e->img);
  free(e->got);
  ptosim_machine_free(e->m);
}

/* The whole UB equals the expected image. */
static int ub_matches(env *e) {
  CHECK(ptosim_mem_read(e->v, PTOSIM_UB, 0, e->got, e->cap) == PTOSIM_OK);
  return !memcmp(e->got, e->img, e->cap);
}

static const char *last_rule(env *e) { return ptosim_last_diag(e->m)->rule; }

static ptosim_ptr ub(ptosim_dtype dt, uint64_t a) { return ptosim_ptr_make(PTOSIM_UB, dt, a); }

static void random_vreg(ptosim_vreg *r) {
  for (int i = 0; i < 256; i++) r->b[i] = (uint8_t)pt_rand_u64(&seed);
}

/* Masks: 0 all, 1 none, 2 prefix of random length, 3 alternating bytes, 4 random. */
static void make_mask(ptosim_vmask *m, int kind) {
  unsigned n = rnd(257);
  for (unsigned j = 0; j < 256; j++) {
    int bit = kind == 0 ? 1 : kind == 1 ? 0 : kind == 2 ? j < n : kind == 3 ? (j / 8) % 2 == 0 : (int)rnd(2);
    if (bit) m->b[j / 8] |= (uint8_t)(1u << (j % 8));
    else m->b[j / 8] &= (uint8_t)~(1u << (j % 8));
  }
}
static int mbit(const ptosim_vmask *m, unsigned j) { return m->b[j / 8] >> (j % 8) & 1; }

static const ptosim_dtype dts[4] = {PTOSIM_DT_U8, PTOSIM_DT_F16, PTOSIM_DT_F32, PTOSIM_DT_I64};
static const unsigned dt_bytes[4] = {1, 2, 4, 8};

/* ---- loads ----------------------------------------------------------------------------- */

/* Reference: the UB byte that dst byte j of distribution d comes from, or -1 for a zero. */
static int64_t vld_ref_src(ptosim_vld_dist d, uint64_t ea, unsigned j) {
  unsigned k, lane;
  switch (d) {
    case PTOSIM_VLD_NORM: return (int64_t)(ea + j);
    case PTOSIM_VLD_BRC_B8: case PTOSIM_VLD_BRC_B16: case PTOSIM_VLD_BRC_B32:
      k = 1u << (d - PTOSIM_VLD_BRC_B8);
      return (int64_t)(ea + j % k);
    case PTOSIM_VLD_US_B8: case PTOSIM_VLD_US_B16:
      k = d == PTOSIM_VLD_US_B8 ? 1 : 2;
      lane = j / k;
      return (int64_t)(ea + (lane / 2) * k + j % k);
    case PTOSIM_VLD_DS_B8: case PTOSIM_VLD_DS_B16:
      k = d == PTOSIM_VLD_DS_B8 ? 1 : 2;
      lane = j / k;
      return (int64_t)(ea + 2 * lane * k + j % k);
    case PTOSIM_VLD_UNPK_B8: case PTOSIM_VLD_UNPK_B16: case PTOSIM_VLD_UNPK_B32:
      k = d == PTOSIM_VLD_UNPK_B8 ? 1 : d == PTOSIM_VLD_UNPK_B16 ? 2 : 4;
      lane = j / (2 * k);
      return j % (2 * k) < k ? (int64_t)(ea + lane * k + j % (2 * k)) : -1;
    case PTOSIM_VLD_BRC_BLK: return (int64_t)(ea + j % 32);
    case PTOSIM_VLD_E2B_B16: case PTOSIM_VLD_E2B_B32:
      k = d == PTOSIM_VLD_E2B_B16 ? 2 : 4;
      return (int64_t)(ea + (j / 32) * k + j % k);
    case PTOSIM_VLD_UNPK4: return j % 4 == 0 ? (int64_t)(ea + j / 4) : -1;
    default: { /* SPLT: register byte j is byte j % k of element e of its 32-byte block, which
                * is element e % m of channel e / m (m elements per channel); in UB that
                * element is pixel e % m of the block, channel e / m */
      unsigned c = d == PTOSIM_VLD_SPLT4CHN ? 4 : 2, m;
      k = d == PTOSIM_VLD_SPLT2CHN_B16 ? 2 : 1;
      m = 32 / (c * k);
      unsigned e = j % 32 / k, pixel = e % m, chan = e / m;
      return (int64_t)(ea + j / 32 * 32 + (pixel * c + chan) * k + j % k);
    }
  }
}

/* Bytes a load distribution reads and the alignment of its address. */
static unsigned vld_extent(ptosim_vld_dist d) {
  switch (d) {
    case PTOSIM_VLD_BRC_B8: return 1;
    case PTOSIM_VLD_BRC_B16: return 2;
    case PTOSIM_VLD_BRC_B32: return 4;
    case PTOSIM_VLD_DS_B8: case PTOSIM_VLD_DS_B16: return 512;
    case PTOSIM_VLD_BRC_BLK: return 32;
    case PTOSIM_VLD_E2B_B16: return 16;
    case PTOSIM_VLD_E2B_B32: return 32;
    case PTOSIM_VLD_UNPK4: return 64;
    case PTOSIM_VLD_NORM: case PTOSIM_VLD_SPLT4CHN: case PTOSIM_VLD_SPLT2CHN_B8: case PTOSIM_VLD_SPLT2CHN_B16: return 256;
    default: return 128;
  }
}
static unsigned vld_align(ptosim_vld_dist d) {
  unsigned x = vld_extent(d);
  return x < 32 ? x : 32;
}

static void test_vlds_modes(void) {
  env e = env_new(PTOSIM_TARGET_A5);
  for (int d = 0; d < PTOSIM_VLD_COUNT; d++)
    for (int it = 0; it < 24; it++) {
      int t = it % 4;
      if (d == PTOSIM_VLD_UNPK4 || d == PTOSIM_VLD_SPLT4CHN) t = 0; /* they load b8 registers */
      unsigned al = vld_align((ptosim_vld_dist)d), es = dt_bytes[t];
      uint64_t base = (uint64_t)rnd((unsigned)((e.cap - 4096) / 64)) * 64;
      int64_t off = (int64_t)rnd(64) * (int64_t)(32 / es) + (al < 32 ? (int64_t)(rnd(32 / al) * al / es) : 0);
      if (al < es) off = (int64_t)rnd(64) * (int64_t)(32 / es); /* keep ea aligned to the element */
      uint64_t ea = base + (uint64_t)off * es;
      if (ea % al) continue;
      ptosim_vreg r;
      random_vreg(&r);
      ptosim_ptr upd = {0};
      int post = it % 3 == 0;
      ptosim_vlds_params p = {&r, ub(dts[t], post ? ea : base), post ? off : off, dts[t], (ptosim_vld_dist)d,
                              post ? &upd : NULL};
      ptosim_status st = ptosim_vlds(e.v, &p);
      CHECK_MSG(st == PTOSIM_OK, "vlds dist %d: %s", d, ptosim_last_diag(e.m)->msg);
      int ok = 1;
      for (unsigned j = 0; j < 256; j++) {
        int64_t s = vld_ref_src((ptosim_vld_dist)d, ea, j);
        ok &= r.b[j] == (s < 0 ? 0 : e.img[s]);
      }
      CHECK_MSG(ok, "vlds dist %d dtype %d ea 0x%" PRIx64, d, t, ea);
      if (post) CHECK(upd.addr == ea + (uint64_t)off * es && upd.space == PTOSIM_UB && upd.dtype == dts[t]);
    }
  CHECK(ub_matches(&e));
  env_free(&e);
}

static void test_vldsx2_modes(void) {
  env e = env_new(PTOSIM_TARGET_A5);
  for (int d = 0; d < PTOSIM_VLDX2_COUNT; d++)
    for (int t = 0; t < 4; t++) {
      unsigned k = d == 0 ? 32 : 1u << (d - 1), es = dt_bytes[t];
      uint64_t base = (uint64_t)rnd((unsigned)((e.cap - 4096) / 32)) * 32;
      int64_t off = (int64_t)rnd(16) * (int64_t)(32 / es);
      uint64_t ea = base + (uint64_t)off * es;
      ptosim_vreg lo, hi;
      ptosim_vldsx2_params p = {&lo, &hi, ub(dts[t], base), off, dts[t], (ptosim_vldx2_dist)d, NULL};
      CHECK(ptosim_vldsx2(e.v, &p) == PTOSIM_OK);
      int ok = 1;
      for (unsigned j = 0; j < 256; j++) {
        uint64_t lane = j / k, within = j % k;
        ok &= lo.b[j] == e.img[ea + 2 * lane * k + within] && hi.b[j] == e.img[ea + (2 * lane + 1) * k + within];
      }
      CHECK_MSG(ok, "vldsx2 dist %d", d);
    }
  env_free(&e);
}

#define SEEN 2048 /* bytes of the observed write window */

/* ---- stores ---------------------------------------------------------------------------- */

/* Reference store of distribution d into the image: returns the number of bytes written and
 * marks them in `w` (relative to ea, SEEN bytes). */
static void vst_ref(ptosim_vst_dist d, const ptosim_vreg *v, const ptosim_vmask *m, uint8_t *img, uint64_t ea,
                    uint8_t *w) {
  memset(w, 0, SEEN);
  if (d >= PTOSIM_VST_1PT_B8 && d <= PTOSIM_VST_1PT_B32) {
    unsigned k = 1u << (d - PTOSIM_VST_1PT_B8);
    for (unsigned b = 0; b < k; b++) img[ea + b] = v->b[b], w[b] = 1;
    return;
  }
  if (d >= PTOSIM_VST_MRG4CHN_B8) { /* pixel p of c channels, k bytes each, masked at bit p * c * k */
    unsigned c = d == PTOSIM_VST_MRG4CHN_B8 ? 4 : 2, k = d == PTOSIM_VST_MRG2CHN_B16 ? 2 : 1, px_bytes = c * k;
    unsigned per_chan = 32 / px_bytes; /* pixels per block = elements of one channel per block */
    for (unsigned px = 0; px < 256 / px_bytes; px++) {
      if (!mbit(m, px * px_bytes)) continue;
      unsigned blk = px * px_bytes / 32, in_blk = px % per_chan;
      for (unsigned q = 0; q < px_bytes; q++) /* channel q / k, byte q % k of pixel in_blk of the block */
        img[ea + px * px_bytes + q] = v->b[blk * 32 + (q / k) * per_chan * k + in_blk * k + q % k], w[px * px_bytes + q] = 1;
    }
    return;
  }
  unsigned k, out; /* register lane bytes, stored bytes per lane */
  if (d <= PTOSIM_VST_NORM_B32) k = out = 1u << d;
  else if (d == PTOSIM_VST_PK4_B32) k = 4, out = 1;
  else k = d == PTOSIM_VST_PK_B16 ? 2 : d == PTOSIM_VST_PK_B32 ? 4 : 8, out = k / 2;
  for (unsigned lane = 0; lane < 256 / k; lane++) {
    if (!mbit(m, lane * k)) continue;
    for (unsigned b = 0; b < out; b++) img[ea + lane * out + b] = v->b[lane * k + b], w[lane * out + b] = 1;
  }
}

/* Every event's write ranges, expanded to bytes relative to seen_ea. */
static uint8_t seen[SEEN];
static uint64_t seen_ea;
static int seen_outside, seen_overflow;
static void mark_writes(void *user, const pt_event *ev) {
  (void)user;
  seen_overflow |= ev->overflow;
  for (int i = 0; i < ev->nranges; i++) {
    const pt_range *r = &ev->ranges[i];
    if (!(r->access & 2)) continue;
    int64_t n = r->nd ? r->count[0] : 1, s = r->nd ? r->stride[0] : 0;
    for (int64_t c = 0; c < n; c++)
      for (uint64_t b = 0; b < r->len; b++) {
        uint64_t a = r->addr + (uint64_t)(c * s) + b;
        if (a < seen_ea || a >= seen_ea + SEEN) seen_outside = 1;
        else seen[a - seen_ea] = 1;
      }
  }
}

static void test_vsts_modes(void) {
  env e = env_new(PTOSIM_TARGET_A5);
  e.m->listener = mark_writes;
  uint8_t w[SEEN];
  for (int d = 0; d < PTOSIM_VST_COUNT; d++)
    for (int it = 0; it < 40; it++) {
      int t = d == PTOSIM_VST_MRG4CHN_B8 ? 0 : it % 4, kind = it % 5, post = it % 7 == 0; /* MRG4CHN_B8: b8 only */
      unsigned es = dt_bytes[t];
      unsigned al = d >= PTOSIM_VST_1PT_B8 && d <= PTOSIM_VST_1PT_B32 ? 1u << (d - PTOSIM_VST_1PT_B8) : 32;
      uint64_t base = (uint64_t)rnd((unsigned)((e.cap - 4096) / 32)) * 32;
      int64_t off = (int64_t)rnd(64) * (int64_t)(32 / es);
      if (al < 32 && es <= al) off += (int64_t)(rnd(32 / al) * (al / es));
      uint64_t ea = base + (uint64_t)off * es;
      ptosim_vreg v;
      ptosim_vmask m;
      random_vreg(&v);
      make_mask(&m, kind);
      ptosim_ptr upd = {0};
      ptosim_vsts_params p = {&v, ub(dts[t], post ? ea : base), off, &m, dts[t], (ptosim_vst_dist)d, post ? &upd : NULL};
      memset(seen, 0, sizeof seen);
      seen_ea = ea;
      seen_outside = seen_overflow = 0;
      CHECK_MSG(ptosim_vsts(e.v, &p) == PTOSIM_OK, "vsts dist %d: %s", d, ptosim_last_diag(e.m)->msg);
      vst_ref((ptosim_vst_dist)d, &v, &m, e.img, ea, w);
      CHECK_MSG(ub_matches(&e), "vsts dist %d dtype %d mask %d", d, t, kind);
      CHECK(!seen_outside && (kind == 4 || !seen_overflow));
      if (!seen_overflow) {
        CHECK_MSG(!memcmp(seen, w, sizeof w), "vsts dist %d mask %d: recorded writes differ", d, kind);
      } else { /* too many runs for the event: a superset ending at the last written byte */
        int sup = 1, last_w = 0, last_s = 0;
        for (int b = 0; b < SEEN; b++) {
          sup &= !w[b] || seen[b];
          if (w[b]) last_w = b;
          if (seen[b]) last_s = b;
        }
        CHECK(sup && last_w == last_s);
      }
      if (post) CHECK(upd.addr == ea + (uint64_t)off * es);
    }
  e.m->listener = NULL;
  env_free(&e);
}

/* A register stored onto itself through UB and loaded back: the executors copy their
 * operands, so dst may alias the source register. */
static void test_alias(void) {
  env e = env_new(PTOSIM_TARGET_A5);
  ptosim_vreg r;
  random_vreg(&r);
  ptosim_vreg keep = r;
  ptosim_vmask m;
  make_mask(&m, 0);
  ptosim_vsts_params s = {&r, ub(PTOSIM_DT_F32, 1024), 0, &m, PTOSIM_DT_F32, PTOSIM_VST_NORM_B32, NULL};
  CHECK(ptosim_vsts(e.v, &s) == PTOSIM_OK);
  ptosim_vldsx2_params l = {&r, &r, ub(PTOSIM_DT_F32, 1024), 0, PTOSIM_DT_F32, PTOSIM_VLDX2_DINTLV_B32, NULL};
  CHECK(ptosim_vldsx2(e.v, &l) == PTOSIM_OK); /* high wins; its lanes are the odd elements */
  int ok = 1;
  for (unsigned j = 0; j < 128; j++) ok &= r.b[j] == keep.b[(j / 4) * 8 + 4 + j % 4];
  CHECK(ok);
  env_free(&e);
}

static void test_vstsx2_modes(void) {
  env e = env_new(PTOSIM_TARGET_A5);
  for (int d = 0; d < PTOSIM_VSTX2_COUNT; d++)
    for (int t = 0; t < 4; t++) {
      unsigned k = 1u << d, es = dt_bytes[t];
      uint64_t base = (uint64_t)rnd((unsigned)((e.cap - 4096) / 32)) * 32;
      int64_t off = (int64_t)rnd(16) * (int64_t)(32 / es);
      uint64_t ea = base + (uint64_t)off * es;
      ptosim_vreg lo, hi;
      ptosim_vmask m;
      random_vreg(&lo);
      random_vreg(&hi);
      make_mask(&m, 1); /* ignored: everything is written */
      ptosim_vstsx2_params p = {&lo, &hi, ub(dts[t], base), off, &m, dts[t], (ptosim_vstx2_dist)d};
      CHECK(ptosim_vstsx2(e.v, &p) == PTOSIM_OK);
      for (unsigned lane = 0; lane < 256 / k; lane++)
        for (unsigned b = 0; b < k; b++) {
          e.img[ea + 2 * lane * k + b] = lo.b[lane * k + b];
          e.img[ea + (2 * lane + 1) * k + b] = hi.b[lane * k + b];
        }
      CHECK_MSG(ub_matches(&e), "vstsx2 dist %d dtype %d", d, t);
    }
  env_free(&e);
}

/* ---- block-strided --------------------------------------------------------------------- */

static void test_block_strided(void) {
  env e = env_new(PTOSIM_TARGET_A5);
  e.m->listener = mark_writes;
  for (int it = 0; it < 30; it++) {
    int64_t bs = rnd(5), rs = rnd(9);
    int post = it % 2;
    uint64_t base = (uint64_t)rnd((unsigned)((e.cap - 8192) / 32)) * 32;
    ptosim_vmask m;
    make_mask(&m, it % 5);
    ptosim_vreg v, r;
    random_vreg(&v);
    random_vreg(&r);
    ptosim_ptr upd = {0};
    ptosim_vsstb_params s = {&v, ub(PTOSIM_DT_F32, base), bs, rs, &m, post ? &upd : NULL};
    memset(seen, 0, sizeof seen);
    seen_ea = base;
    seen_outside = 0;
    CHECK(ptosim_vsstb(e.v, &s) == PTOSIM_OK);
    uint8_t w[SEEN] = {0};
    for (unsigned b = 0; b < 8; b++) {
      if (!mbit(&m, 4 * b)) continue;
      uint64_t a = base + ((post ? 0 : (uint64_t)rs) + b * (uint64_t)bs) * 32;
      memcpy(e.img + a, v.b + 32 * b, 32);
      for (unsigned i = 0; i < 32; i++)
        w[a - base + i] = 1;
    }
    CHECK_MSG(ub_matches(&e), "vsstb it %d", it);
    CHECK(!memcmp(seen, w, sizeof w) && !seen_outside);
    if (post) CHECK(upd.addr == base + (uint64_t)rs * 32);
    ptosim_vsldb_params l = {&r, ub(PTOSIM_DT_F32, base), bs, rs, &m, NULL};
    CHECK(ptosim_vsldb(e.v, &l) == PTOSIM_OK);
    int ok = 1;
    for (unsigned j = 0; j < 256; j++) {
      unsigned b = j / 32;
      uint8_t want = mbit(&m, 4 * b) ? e.img[base + ((uint64_t)rs + b * (uint64_t)bs) * 32 + j % 32] : 0;
      ok &= r.b[j] == want;
    }
    CHECK_MSG(ok, "vsldb it %d", it);
  }
  e.m->listener = NULL;
  /* A masked-off block may lie outside UB: no request, no fault. */
  ptosim_vmask m;
  make_mask(&m, 1);
  m.b[0] = 1; /* block 0 only */
  ptosim_vreg v;
  random_vreg(&v);
  ptosim_vsstb_params s = {&v, ub(PTOSIM_DT_F32, e.cap - 32), 0x4000, 0, &m, NULL};
  CHECK(ptosim_vsstb(e.v, &s) == PTOSIM_OK);
  memcpy(e.img + e.cap - 32, v.b, 32);
  CHECK(ub_matches(&e));
  m.b[0] = 0x11; /* block 1 too: 0x4000 blocks away */
  CHECK(ptosim_vsstb(e.v, &s) == PTOSIM_E_FAULT && !strcmp(last_rule(&e), "mem.bounds"));
  ptosim_vsldb_params l = {&v, ub(PTOSIM_DT_F32, 16), 1, 0, &m, NULL};
  CHECK(ptosim_vsldb(e.v, &l) == PTOSIM_E_VERIFY && !strcmp(last_rule(&e), "mem.align"));
  env_free(&e);
}

/* ---- predicates ------------------------------------------------------------------------ */

static pt_event last;
static void keep_last(void *user, const pt_event *ev) {
  (void)user;
  last = *ev;
}

static void test_predicates(void) {
  env e = env_new(PTOSIM_TARGET_A5);
  e.m->listener = keep_last;
  static const unsigned pld_bytes[3] = {32, 16, 64};
  for (int it = 0; it < 40; it++) {
    /* plds / psts count bytes; pldi / psti (it % 4 >= 2) count the dist's unit: 32 B for NORM
     * and DS, 16 B for US and PK (chapter 04's table), so each of them gets 16 B steps here */
    int imm = it % 4 >= 2;
    uint64_t base = 4096 + (uint64_t)rnd(1000) * 8;
    int64_t off = (int64_t)rnd(8) * (imm ? 2 : 8);
    int pk = it % 2;
    ptosim_pld_dist d = (ptosim_pld_dist)(it % 3);
    int64_t st_off = imm && !pk ? off / 2 : off, ld_off = imm && d != PTOSIM_PLD_US ? off / 2 : off;
    uint64_t ea = base + (uint64_t)off * (imm ? 16 : 1); /* off: bytes, or 16-byte units */
    ptosim_vmask m, r;
    make_mask(&m, it % 5);
    ptosim_psts_params s = {&m, ub(PTOSIM_DT_U8, base), st_off, pk ? PTOSIM_PST_PK : PTOSIM_PST_NORM, NULL};
    CHECK(!imm ? ptosim_psts(e.v, &s) == PTOSIM_OK : ptosim_psti(e.v, &s) == PTOSIM_OK);
    for (unsigned j = 0; j < (pk ? 128u : 256u); j++) {
      uint8_t bit = (uint8_t)mbit(&m, pk ? 2 * j : j);
      e.img[ea + j / 8] = (uint8_t)((e.img[ea + j / 8] & ~(1u << (j % 8))) | bit << (j % 8));
    }
    CHECK_MSG(ub_matches(&e), "psts it %d", it);
    ptosim_plds_params l = {&r, ub(PTOSIM_DT_U8, base), ld_off, d, NULL};
    CHECK(!imm ? ptosim_plds(e.v, &l) == PTOSIM_OK : ptosim_pldi(e.v, &l) == PTOSIM_OK);
    int ok = 1;
    for (unsigned j = 0; j < 256; j++) {
      unsigned src = d == PTOSIM_PLD_NORM ? j : d == PTOSIM_PLD_US ? j / 2 : 2 * j;
      ok &= mbit(&r, j) == (e.img[ea + src / 8] >> (src % 8) & 1);
    }
    CHECK_MSG(ok, "plds dist %d", d);
    CHECK(last.nranges == 1 && last.ranges[0].access == 1 && last.ranges[0].addr == ea && last.ranges[0].len == pld_bytes[d]);
  }
  env_free(&e);
}


/* ---- post-update forms and immediate offsets from text ------------------------------------ */

/* tonibohnlein/PTOAS spellings: pldi / plds / vldsx2 / vsldb with an %updated_base result, psti /
 * psts / vstas returning one, vldus with an increment operand (docs/isa/micro-isa/03 and 04),
 * and pldi / psti offsets in alignment units. */
static const char post_src[] =
    "module attributes {pto.target_arch = \"a5\", pto.kernel_kind = #pto.kernel_kind<vector>} {\n"
    "  func.func @k(%in: !pto.ptr<ui8, gm>, %out: !pto.ptr<ui8, gm>) attributes {pto.kernel} {\n"
    "    %c0 = arith.constant 0 : index\n"
    "    %c1 = arith.constant 1 : index\n"
    "    %c2 = arith.constant 2 : index\n"
    "    %c3 = arith.constant 3 : index\n"
    "    %c5 = arith.constant 5 : index\n"
    "    %c8 = arith.constant 8 : index\n"
    "    %c32 = arith.constant 32 : index\n"
    "    %c64 = arith.constant 64 : index\n"
    "    %c192 = arith.constant 192 : index\n"
    "    %c256 = arith.constant 256 : index\n"
    "    %c320 = arith.constant 320 : index\n"
    "    %c384 = arith.constant 384 : index\n"
    "    %c1_i16 = arith.constant 1 : i16\n"
    "    %c8_i16 = arith.constant 8 : i16\n"
    "    %c64_i32 = arith.constant 64 : i32\n"
    "    %c0_i64 = arith.constant 0 : i64\n"
    "    %c1_i64 = arith.constant 1 : i64\n"
    "    %c256_i64 = arith.constant 256 : i64\n"
    "    %c1024_i64 = arith.constant 1024 : i64\n"
    "    %c2048_i64 = arith.constant 2048 : i64\n"
    "    %c2304_i64 = arith.constant 2304 : i64\n"
    "    %c2560_i64 = arith.constant 2560 : i64\n"
    "    %c4096_i64 = arith.constant 4096 : i64\n"
    "    %c0_i32 = arith.constant 0 : i32\n"
    "    %c3_i32 = arith.constant 3 : i32\n"
    "    %ub_in = pto.castptr %c0_i64 : i64 -> !pto.ptr<ui8, ub>\n"
    "    %ub_out = pto.castptr %c2048_i64 : i64 -> !pto.ptr<ui8, ub>\n"
    "    %f_in = pto.castptr %c0_i64 : i64 -> !pto.ptr<f32, ub>\n"
    "    %f_out = pto.castptr %c2304_i64 : i64 -> !pto.ptr<f32, ub>\n"
    "    %g_out = pto.castptr %c4096_i64 : i64 -> !pto.ptr<f32, ub>\n"
    "    pto.mte_gm_ub %in, %ub_in, %c0_i64, %c1024_i64 nburst(%c1_i64, %c1024_i64, %c1024_i64)\n"
    "      : !pto.ptr<ui8, gm>, !pto.ptr<ui8, ub>, i64, i64, i64, i64, i64\n"
    "    pto.mte_gm_ub %out, %ub_out, %c0_i64, %c2560_i64 nburst(%c1_i64, %c2560_i64, %c2560_i64)\n"
    "      : !pto.ptr<ui8, gm>, !pto.ptr<ui8, ub>, i64, i64, i64, i64, i64\n"
    "    pto.set_flag[\"PIPE_MTE2\", \"PIPE_V\", \"EVENT_ID0\"]\n"
    "    pto.wait_flag[\"PIPE_MTE2\", \"PIPE_V\", \"EVENT_ID0\"]\n"
    "    pto.vecscope {\n"
    "      %m0, %p1 = pto.pldi %ub_in[%c1], \"NORM\" : !pto.ptr<ui8, ub>, index -> !pto.mask<b8>, !pto.ptr<ui8, ub>\n"
    "      %m1, %p2 = pto.pldi %p1[%c1], \"US\" : !pto.ptr<ui8, ub>, index -> !pto.mask<b8>, !pto.ptr<ui8, ub>\n"
    "      %m2 = pto.pldi %ub_in[%c2], \"DS\" : !pto.ptr<ui8, ub>, index -> !pto.mask<b8>\n"
    "      %m3, %p3 = pto.plds %p2[%c32], \"NORM\" : !pto.ptr<ui8, ub>, index -> !pto.mask<b8>, !pto.ptr<ui8, ub>\n"
    "      %m4 = pto.pldi %ub_in[%c5], \"US\" : !pto.ptr<ui8, ub>, index -> !pto.mask<b8>\n"
    "      %q1 = pto.psti %m0, %ub_out[%c1], \"NORM\" : !pto.mask<b8>, !pto.ptr<ui8, ub>, index -> !pto.ptr<ui8, ub>\n"
    "      %q2 = pto.psti %m1, %q1[%c1], \"PK\" : !pto.mask<b8>, !pto.ptr<ui8, ub>, index -> !pto.ptr<ui8, ub>\n"
    "      %q3 = pto.psts %m3, %q2[%c32], \"NORM\" : !pto.mask<b8>, !pto.ptr<ui8, ub>, index -> !pto.ptr<ui8, ub>\n"
    "      pto.psts %m0, %q3[%c0], \"PK\" : !pto.mask<b8>, !pto.ptr<ui8, ub>, index\n"
    "      pto.psti %m2, %ub_out[%c3], \"NORM\" : !pto.mask<b8>, !pto.ptr<ui8, ub>, index\n"
    "      pto.psti %m4, %ub_out[%c8], \"PK\" : !pto.mask<b8>, !pto.ptr<ui8, ub>, index\n"
    "      %all = pto.pset_b32 \"PAT_ALL\" : !pto.mask<b32>\n"
    "      %a0 = pto.vldas %f_in : !pto.ptr<f32, ub> -> !pto.align\n"
    "      %v0, %a1, %fb = pto.vldus %f_in, %a0, %c64 : !pto.ptr<f32, ub>, !pto.align, index\n"
    "          -> !pto.vreg<64xf32>, !pto.align, !pto.ptr<f32, ub>\n"
    "      %v1, %a2, %fc = pto.vldus %fb, %a1, %c8 : !pto.ptr<f32, ub>, !pto.align, index\n"
    "          -> !pto.vreg<64xf32>, !pto.align, !pto.ptr<f32, ub>\n"
    "      %v2 = pto.vlds %fc[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n"
    "      %e = pto.init_align : !pto.align\n"
    "      %fo = pto.vstas %e, %f_out, %c64_i32 : !pto.align, !pto.ptr<f32, ub>, i32 -> !pto.ptr<f32, ub>\n"
    "      pto.vsts %v0, %f_out[%c0], %all : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>\n"
    "      pto.vsts %v1, %fo[%c0], %all : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>\n"
    "      pto.vsts %v2, %fo[%c64], %all : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>\n"
    "      %lo, %hi, %nx = pto.vldsx2 %f_in[%c64], \"DINTLV_B32\" : !pto.ptr<f32, ub>, index\n"
    "          -> !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.ptr<f32, ub>\n"
    "      %v3 = pto.vlds %nx[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n"
    "      %blk, %nb = pto.vsldb %f_in, %c1_i16, %c8_i16, %all : !pto.ptr<f32, ub>, i16, i16, !pto.mask<b32>\n"
    "          -> !pto.vreg<64xf32>, !pto.ptr<f32, ub>\n"
    "      %v4 = pto.vlds %nb[%c8] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n"
    "      pto.vsts %lo, %f_out[%c192], %all : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>\n"
    "      pto.vsts %v3, %f_out[%c256], %all : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>\n"
    "      pto.vsts %blk, %f_out[%c320], %all : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>\n"
    "      pto.vsts %v4, %f_out[%c384], %all : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>\n"
    "      %s0 = pto.init_align : !pto.align\n"
    "      %s1, %b1 = pto.vstus %s0, %c3_i32, %v0, %g_out : !pto.align, i32, !pto.vreg<64xf32>, !pto.ptr<f32, ub>\n"
    "          -> !pto.align, !pto.ptr<f32, ub>\n"
    "      %s2, %b2 = pto.vstus %s1, %c3_i32, %v0, %b1 : !pto.align, i32, !pto.vreg<64xf32>, !pto.ptr<f32, ub>\n"
    "          -> !pto.align, !pto.ptr<f32, ub>\n"
    "      pto.vstas %s2, %b2, %c0_i32 : !pto.align, !pto.ptr<f32, ub>, i32\n"
    "    }\n"
    "    pto.set_flag[\"PIPE_V\", \"PIPE_MTE3\", \"EVENT_ID0\"]\n"
    "    pto.wait_flag[\"PIPE_V\", \"PIPE_MTE3\", \"EVENT_ID0\"]\n"
    "    pto.mte_ub_gm %ub_out, %out, %c2560_i64 nburst(%c1_i64, %c2560_i64, %c2560_i64)\n"
    "      : !pto.ptr<ui8, ub>, !pto.ptr<ui8, gm>, i64, i64, i64, i64\n"
    "    pto.barrier #pto.pipe<PIPE_ALL>\n"
    "    return\n"
    "  }\n"
    "}\n";

/* Bit i of the byte string b. */
static unsigned bit_at(const uint8_t *b, unsigned i) { return b[i / 8] >> (i % 8) & 1; }

static void test_post_update_text(void) {
  ptosim_program *p = pt_test_load(post_src, sizeof post_src - 1);
  CHECK(p != NULL);
  if (!p) return;
  ptosim_machine *m = ptosim_machine_new(ptosim_program_target(p), 1);
  uint8_t in[1024], out[2560], want[2560];
  for (int i = 0; i < 1024; i++) in[i] = (uint8_t)pt_rand_u64(&seed);
  for (int i = 0; i < 2560; i++) out[i] = want[i] = (uint8_t)pt_rand_u64(&seed);
  /* masks: m0 = in[0, 32); m1 = in[32, 48) bits doubled; m2 = every other bit of in[64, 128)
   * (pldi DS at 2 x 32 B); m3 = in[48, 80) (plds at %p2 = 48); m4 = in[80, 96) doubled (US at 5 x 16 B) */
  memcpy(want, in, 32);                                     /* psti NORM at out, returns out + 32 */
  memcpy(want + 32, in + 32, 16);                           /* psti PK of the doubled bits, returns + 16 */
  memcpy(want + 48, in + 48, 32);                           /* psts at 48, returns 48 + 32 */
  for (unsigned j = 0; j < 128; j++) {                      /* psts PK of m0 at 80; psti m2 at 3 x 32 B */
    want[80 + j / 8] = (uint8_t)(j % 8 ? want[80 + j / 8] : 0), want[80 + j / 8] |= (uint8_t)(bit_at(in, 2 * j) << (j % 8));
  }
  for (unsigned j = 0; j < 256; j++) {
    want[96 + j / 8] = (uint8_t)(j % 8 ? want[96 + j / 8] : 0), want[96 + j / 8] |= (uint8_t)(bit_at(in + 64, 2 * j) << (j % 8));
  }
  memcpy(want + 128, in + 80, 16);                          /* psti PK of m4 at 8 x 16 B */
  memcpy(want + 256, in, 256);                              /* v0 at f_out */
  memcpy(want + 512, in + 256, 256);                        /* v1 at f_out + 64 f32 (vstas's result) */
  memcpy(want + 768, in + 288, 256);                        /* v2 = vlds at %fb + 8 f32 */
  for (int i = 0; i < 64; i++) memcpy(want + 1024 + 4 * i, in + 8 * i, 4); /* vldsx2 at f_in: even f32 */
  memcpy(want + 1280, in + 256, 256);                       /* vlds at vldsx2's base + 64 f32 */
  memcpy(want + 1536, in, 256);                             /* vsldb post form: blocks from f_in */
  memcpy(want + 1792, in + 288, 256);                       /* vlds at vsldb's base + 8 blocks, + 8 f32 */
  memcpy(want + 2048, in, 12);                              /* vstus of 3 f32 at g_out, returns g_out + 3 */
  memcpy(want + 2060, in, 12);                              /* vstus at that base; vstas flushes at its end */
  ptosim_arg args[2];
  ptosim_gm_map(m, in, sizeof in, &args[0].gm_addr);
  ptosim_gm_map(m, out, sizeof out, &args[1].gm_addr);
  CHECK_MSG(ptosim_program_run(p, m, args) == PTOSIM_OK, "%s", ptosim_last_diag(m)->msg);
  for (int i = 0; i < 2560; i++) CHECK_MSG(out[i] == want[i], "byte %d: %02x, want %02x", i, out[i], want[i]);
  ptosim_machine_free(m);
  ptosim_program_free(p);
}

/* ---- unaligned streams ----------------------------------------------------------------- */

static void test_unaligned_loads(void) {
  env e = env_new(PTOSIM_TARGET_A5);
  for (int it = 0; it < 40; it++) {
    uint64_t src = 1024 + rnd(60000);
    ptosim_valign a, b;
    ptosim_vreg r;
    ptosim_vldas_params pa = {&a, ub(PTOSIM_DT_U8, src)};
    CHECK(ptosim_vldas(e.v, &pa) == PTOSIM_OK);
    for (int step = 0; step < 3; step++, src += 256) { /* a chain re-primes only at aligned addresses */
      if (step && src % 32 == 0) CHECK(ptosim_vldas(e.v, &(ptosim_vldas_params){&a, ub(PTOSIM_DT_U8, src)}) == PTOSIM_OK);
      ptosim_vldus_params pu = {&r, &b, &a, ub(PTOSIM_DT_F32, src), 0, NULL};
      CHECK_MSG(ptosim_vldus(e.v, &pu) == PTOSIM_OK, "%s", ptosim_last_diag(e.m)->msg);
      CHECK(!memcmp(r.b, e.img + src, 256));
      a = b;
    }
  }
  ptosim_valign a = {{0}, 0, 0}, b;
  ptosim_vreg r;
  ptosim_vldus_params pu = {&r, &b, &a, ub(PTOSIM_DT_F32, 100), 0, NULL};
  CHECK(ptosim_vldus(e.v, &pu) == PTOSIM_E_VERIFY && !strcmp(last_rule(&e), "vec.align_stream"));
  pu.src.addr = 96; /* aligned: no priming needed */
  CHECK(ptosim_vldus(e.v, &pu) == PTOSIM_OK && !memcmp(r.b, e.img + 96, 256));
  CHECK(ub_matches(&e));
  env_free(&e);
}

/* A chain of vstus / pstu steps then a vstas flush writes exactly the stream's bytes; after
 * each step only the bytes before the stream's last 32-byte boundary have reached UB. */
static void test_unaligned_stores(void) {
  env e = env_new(PTOSIM_TARGET_A5);
  uint8_t stream[8 * 256];
  for (int it = 0; it < 40; it++) {
    uint64_t start = 1024 + rnd(60000), at = start, len = 0;
    int pred = it % 3 == 0;
    ptosim_dtype dt = pred ? (it % 2 ? PTOSIM_DT_U16 : PTOSIM_DT_U32) : dts[it % 4];
    ptosim_valign al;
    CHECK(ptosim_init_align(e.v, &(ptosim_init_align_params){&al}) == PTOSIM_OK);
    for (int step = 0; step < 1 + (int)rnd(6); step++) {
      ptosim_vreg v;
      ptosim_vmask m;
      random_vreg(&v);
      make_mask(&m, 4);
      uint64_t n;
      if (pred) {
        unsigned g = dt == PTOSIM_DT_U16 ? 2 : 4;
        n = 256 / g / 8;
        for (unsigned i = 0; i < n * 8; i++)
          stream[len + i / 8] = (uint8_t)((i % 8 ? stream[len + i / 8] : 0) | mbit(&m, i * g) << (i % 8));
        ptosim_ptr out;
        ptosim_pstu_params p = {&al, &al, &m, ub(dt, at), &out};
        CHECK(ptosim_pstu(e.v, &p) == PTOSIM_OK);
        CHECK(out.addr == at + n && out.dtype == dt);
      } else {
        unsigned es = dt_bytes[it % 4];
        int64_t k = (int64_t)rnd(256 / es + 1);
        n = (uint64_t)k * es;
        memcpy(stream + len, v.b, n);
        ptosim_ptr next = {0}; /* the post-update form on odd iterations: base + k elements */
        ptosim_vstus_params p = {&al, &al, k, &v, ub(dt, at), dt, it & 1 ? &next : NULL};
        CHECK_MSG(ptosim_vstus(e.v, &p) == PTOSIM_OK, "%s", ptosim_last_diag(e.m)->msg);
        CHECK(!(it & 1) || (next.addr == at + n && next.space == PTOSIM_UB && next.dtype == dt));
      }
      len += n;
      at += n;
      uint64_t cut = at & ~(uint64_t)31;
      if (cut > start) memcpy(e.img + start, stream, cut - start);
      CHECK_MSG(ub_matches(&e), "stream it %d step %d", it, step);
    }
    ptosim_vstas_params f = {&al, ub(PTOSIM_DT_U8, at - 1), 1, NULL};
    CHECK(ptosim_vstas(e.v, &f) == PTOSIM_OK);
    memcpy(e.img + start, stream, len);
    CHECK_MSG(ub_matches(&e), "stream it %d flushed", it);
  }
  /* rules */
  ptosim_valign al;
  ptosim_vreg v;
  random_vreg(&v);
  CHECK(ptosim_init_align(e.v, &(ptosim_init_align_params){&al}) == PTOSIM_OK);
  ptosim_vstus_params p = {&al, &al, 3, &v, ub(PTOSIM_DT_F32, 4100), PTOSIM_DT_F32, NULL};
  CHECK(ptosim_vstus(e.v, &p) == PTOSIM_OK); /* pending [4100, 4112) */
  p.base.addr = 4116;
  CHECK(ptosim_vstus(e.v, &p) == PTOSIM_E_VERIFY && !strcmp(last_rule(&e), "vec.align_stream"));
  ptosim_vstas_params f = {&al, ub(PTOSIM_DT_F32, 4100), 2, NULL};
  CHECK(ptosim_vstas(e.v, &f) == PTOSIM_E_VERIFY && !strcmp(last_rule(&e), "vec.align_stream"));
  p.base.addr = 4112, p.offset = 65;
  CHECK(ptosim_vstus(e.v, &p) == PTOSIM_E_VERIFY && !strcmp(last_rule(&e), "vec.range"));
  ptosim_vmask m;
  make_mask(&m, 0);
  ptosim_ptr out;
  ptosim_pstu_params q = {&al, &al, &m, ub(PTOSIM_DT_I32, 4112), &out};
  CHECK(ptosim_pstu(e.v, &q) == PTOSIM_E_VERIFY && !strcmp(last_rule(&e), "vec.dtype"));
  CHECK(ub_matches(&e)); /* nothing of the failed steps reached UB */
  env_free(&e);
}

/* ---- uvld ---------------------------------------------------------------------------------- */

#define FAILS(call, st, rule) CHECK_MSG((call) == (st) && !strcmp(last_rule(&e), rule), "%s: %s", rule, last_rule(&e))

/* Every read range of an event, expanded to bytes relative to seen_ea. */
static void mark_reads(void *user, const pt_event *ev) {
  (void)user;
  for (int i = 0; i < ev->nranges; i++) {
    const pt_range *r = &ev->ranges[i];
    if (!(r->access & 1)) continue;
    for (uint64_t b = 0; b < r->len; b++) {
      uint64_t a = r->addr + b;
      if (a < seen_ea || a >= seen_ea + SEEN) seen_outside = 1;
      else seen[a - seen_ea] = 1;
    }
  }
}

/* uvld at any element address: the 256 bytes there; the checkers see the 32-byte blocks
 * that hold them read (the vldas + vldus pair). */
static void test_uvld(void) {
  env e = env_new(PTOSIM_TARGET_A5);
  e.m->listener = mark_reads;
  for (int it = 0; it < 60; it++) {
    int t = it % 4;
    unsigned es = dt_bytes[t];
    uint64_t base = 1024 + (uint64_t)rnd(200000 / es) * es;
    int64_t off = (int64_t)rnd(200) - 100;
    uint64_t ea = base + (uint64_t)(off * (int64_t)es);
    ptosim_vreg r;
    random_vreg(&r);
    ptosim_vlds_params p = {&r, ub(dts[t], base), off, dts[t], PTOSIM_VLD_NORM, NULL};
    memset(seen, 0, sizeof seen);
    seen_ea = ea - 512;
    seen_outside = 0;
    CHECK_MSG(ptosim_uvld(e.v, &p) == PTOSIM_OK, "%s", ptosim_last_diag(e.m)->msg);
    CHECK_MSG(!memcmp(r.b, e.img + ea, 256), "uvld ea 0x%" PRIx64, ea);
    int ok = !seen_outside;
    for (uint64_t a = seen_ea; a < seen_ea + SEEN; a++) /* read iff its block overlaps [ea, ea + 256) */
      ok &= seen[a - seen_ea] == (a / 32 >= ea / 32 && a / 32 <= (ea + 255) / 32);
    CHECK_MSG(ok, "uvld ea 0x%" PRIx64 ": recorded reads", ea);
  }
  e.m->listener = NULL;
  ptosim_vreg r;
  ptosim_ptr upd;
  ptosim_vlds_params p = {&r, ub(PTOSIM_DT_F32, 4), 0, PTOSIM_DT_F32, PTOSIM_VLD_BRC_B32, NULL};
  FAILS(ptosim_uvld(e.v, &p), PTOSIM_E_VERIFY, "vec.dist");
  p.dist = PTOSIM_VLD_NORM, p.updated_base = &upd;
  FAILS(ptosim_uvld(e.v, &p), PTOSIM_E_VERIFY, "vec.dist");
  p.updated_base = NULL, p.src.addr = e.cap - 250; /* its last block lies past UB */
  FAILS(ptosim_uvld(e.v, &p), PTOSIM_E_FAULT, "mem.bounds");
  p.src.addr = 0, p.dtype = PTOSIM_DT_I4;
  FAILS(ptosim_uvld(e.v, &p), PTOSIM_E_VERIFY, "vec.dtype");
  CHECK(ub_matches(&e));
  env_free(&e);
}

/* ---- AR-addressed streams: vsqz -> vstur -> vstar, sprclr / sprsti / sprsts ------------------ */

static int64_t ar_of(env *e) { /* AR through sprsts into a scratch word */
  ptosim_sprst_params p = {PTOSIM_SPR_AR, ub(PTOSIM_DT_U32, e->cap - 64), 0, NULL};
  CHECK(ptosim_sprsts(e->v, &p) == PTOSIM_OK);
  uint8_t b[4];
  CHECK(ptosim_mem_read(e->v, PTOSIM_UB, e->cap - 64, b, 4) == PTOSIM_OK);
  memcpy(e->img + e->cap - 64, b, 4);
  return (int64_t)((uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24);
}

/* Reference of a squeezed stream: the active lanes of each step, in order, at base + the
 * bytes of the steps before (POST_UPDATE); after each step only the bytes before the last
 * 32-byte boundary reached UB; vstar at the same base writes the rest. */
static void test_ar_stream(void) {
  env e = env_new(PTOSIM_TARGET_A5);
  ptosim_valign al;
  ptosim_vreg v, q;
  ptosim_vmask m;
  random_vreg(&v);
  make_mask(&m, 0);
  CHECK(ptosim_init_align(e.v, &(ptosim_init_align_params){&al}) == PTOSIM_OK);
  ptosim_vstur_params st = {&al, &al, &v, ub(PTOSIM_DT_F32, 4100), PTOSIM_VSTUR_POST_UPDATE};
  FAILS(ptosim_vstur(e.v, &st), PTOSIM_E_VERIFY, "vec.sqzn"); /* no vsqz yet on this core */
  uint8_t stream[8 * 256];
  for (int it = 0; it < 30; it++) {
    int t = it % 3; /* u8, f16, f32 */
    unsigned es = dt_bytes[t];
    uint64_t base = 1024 + rnd(50000) * es, start = base, end = base, len = 0; /* AR = 0 */
    CHECK(ptosim_sprclr(e.v, &(ptosim_sprclr_params){PTOSIM_SPR_AR}) == PTOSIM_OK);
    CHECK(ar_of(&e) == 0);
    CHECK(ptosim_init_align(e.v, &(ptosim_init_align_params){&al}) == PTOSIM_OK);
    for (int step = 0; step < 1 + (int)rnd(5); step++) {
      random_vreg(&v);
      make_mask(&m, 2 + (int)rnd(3));
      ptosim_vunary_params sq = {&q, &v, &m, dts[t], 8 * es};
      CHECK(ptosim_vsqz(e.v, &sq) == PTOSIM_OK);
      uint64_t n = 0;
      for (unsigned i = 0; i < 256 / es; i++) /* the active lanes, in order */
        if (mbit(&m, i * es)) memcpy(stream + len + n, v.b + i * es, es), n += es;
      int post = rnd(4) != 0;
      ptosim_vstur_params p = {&al, &al, &q, ub(dts[t], base), post ? PTOSIM_VSTUR_POST_UPDATE : PTOSIM_VSTUR_NO_POST_UPDATE};
      CHECK_MSG(ptosim_vstur(e.v, &p) == PTOSIM_OK, "%s", ptosim_last_diag(e.m)->msg);
      len += n, end += n;
      if (!post) base += n; /* AR stays: the next step's base moves instead */
      CHECK(base + (uint64_t)ar_of(&e) == end);
      uint64_t cut = end & ~(uint64_t)31;
      if (cut > start) memcpy(e.img + start, stream, cut - start);
      CHECK_MSG(ub_matches(&e), "ar stream it %d step %d", it, step);
    }
    ptosim_vstar_params f = {&al, ub(dts[t], base)};
    CHECK_MSG(ptosim_vstar(e.v, &f) == PTOSIM_OK, "%s", ptosim_last_diag(e.m)->msg);
    memcpy(e.img + start, stream, len);
    CHECK_MSG(ub_matches(&e), "ar stream it %d flushed", it);
  }
  /* sprsti / sprsts: the low 32 bits of AR at dst + offset words / bytes; post forms at dst */
  CHECK(ptosim_sprclr(e.v, &(ptosim_sprclr_params){PTOSIM_SPR_AR}) == PTOSIM_OK);
  make_mask(&m, 0);
  ptosim_vunary_params sq = {&q, &v, &m, PTOSIM_DT_F32, 32};
  CHECK(ptosim_vsqz(e.v, &sq) == PTOSIM_OK); /* SQZN = 256 */
  CHECK(ptosim_init_align(e.v, &(ptosim_init_align_params){&al}) == PTOSIM_OK);
  st = (ptosim_vstur_params){&al, &al, &q, ub(PTOSIM_DT_F32, 8192), PTOSIM_VSTUR_POST_UPDATE};
  for (int i = 0; i < 3; i++) CHECK(ptosim_vstur(e.v, &st) == PTOSIM_OK); /* AR = 768 */
  memcpy(e.img + 8192, v.b, 256), memcpy(e.img + 8192 + 256, v.b, 256), memcpy(e.img + 8192 + 512, v.b, 256);
  static const int64_t offs[] = {0, 1, 5, -3, 127, -128};
  for (unsigned k = 0; k < sizeof offs / sizeof offs[0]; k++)
    for (int post = 0; post < 2; post++) {
      ptosim_ptr upd = {0};
      uint64_t dst = 20000 + 16 * k;
      ptosim_sprst_params p = {PTOSIM_SPR_AR, ub(post ? PTOSIM_DT_I32 : PTOSIM_DT_U32, dst), offs[k], post ? &upd : NULL};
      CHECK(ptosim_sprsti(e.v, &p) == PTOSIM_OK);
      uint64_t at = post ? dst : dst + (uint64_t)(4 * offs[k]);
      e.img[at] = 0x00, e.img[at + 1] = 0x03, e.img[at + 2] = 0, e.img[at + 3] = 0; /* 768 */
      CHECK_MSG(ub_matches(&e), "sprsti offset %lld post %d", (long long)offs[k], post);
      if (post) CHECK(upd.addr == dst + (uint64_t)(4 * offs[k]) && upd.dtype == PTOSIM_DT_I32);
      p.offset = 4 * offs[k], p.updated_base = post ? &upd : NULL, p.dst.addr = dst + 4096;
      CHECK(ptosim_sprsts(e.v, &p) == PTOSIM_OK);
      at = post ? dst + 4096 : dst + 4096 + (uint64_t)(4 * offs[k]);
      e.img[at] = 0x00, e.img[at + 1] = 0x03, e.img[at + 2] = 0, e.img[at + 3] = 0;
      CHECK_MSG(ub_matches(&e), "sprsts offset %lld post %d", (long long)offs[k], post);
      if (post) CHECK(upd.addr == dst + 4096 + (uint64_t)(4 * offs[k]));
    }
  /* rules */
  ptosim_sprst_params p = {PTOSIM_SPR_AR, ub(PTOSIM_DT_U32, 20000), 128, NULL};
  FAILS(ptosim_sprsti(e.v, &p), PTOSIM_E_VERIFY, "vec.range");
  p.offset = -129;
  FAILS(ptosim_sprsti(e.v, &p), PTOSIM_E_VERIFY, "vec.range");
  p.offset = 2;
  FAILS(ptosim_sprsts(e.v, &p), PTOSIM_E_FAULT, "mem.align");
  p.dst.dtype = PTOSIM_DT_F32, p.offset = 0;
  FAILS(ptosim_sprsts(e.v, &p), PTOSIM_E_VERIFY, "vec.dtype");
  p.dst.dtype = PTOSIM_DT_U32, p.spr = PTOSIM_SPR_COUNT;
  FAILS(ptosim_sprsts(e.v, &p), PTOSIM_E_VERIFY, "vec.spr");
  FAILS(ptosim_sprclr(e.v, &(ptosim_sprclr_params){PTOSIM_SPR_COUNT}), PTOSIM_E_VERIFY, "vec.spr");
  p.spr = PTOSIM_SPR_AR, p.dst.addr = e.cap;
  FAILS(ptosim_sprsts(e.v, &p), PTOSIM_E_FAULT, "mem.bounds");
  st.mode = PTOSIM_VSTUR_COUNT;
  FAILS(ptosim_vstur(e.v, &st), PTOSIM_E_VERIFY, "vec.mode");
  /* a flush or a next step whose base + AR is not where the stream ends */
  CHECK(ptosim_sprclr(e.v, &(ptosim_sprclr_params){PTOSIM_SPR_AR}) == PTOSIM_OK);
  CHECK(ptosim_init_align(e.v, &(ptosim_init_align_params){&al}) == PTOSIM_OK);
  m.b[0] = 0x11, memset(m.b + 1, 0, sizeof m.b - 1); /* two f32 lanes: SQZN = 8 */
  CHECK(ptosim_vsqz(e.v, &sq) == PTOSIM_OK);
  st.mode = PTOSIM_VSTUR_POST_UPDATE, st.base.addr = 8196;
  CHECK(ptosim_vstur(e.v, &st) == PTOSIM_OK); /* pending [8196, 8204), AR = 8 */
  ptosim_vstar_params f = {&al, ub(PTOSIM_DT_F32, 8200)};
  FAILS(ptosim_vstar(e.v, &f), PTOSIM_E_VERIFY, "vec.align_stream");
  st.base.addr = 8200;
  FAILS(ptosim_vstur(e.v, &st), PTOSIM_E_VERIFY, "vec.align_stream");
  CHECK(ub_matches(&e)); /* nothing of the failed steps reached UB */
  env_free(&e);

  e = env_new(PTOSIM_TARGET_A2A3);
  FAILS(ptosim_sprclr(e.v, &(ptosim_sprclr_params){PTOSIM_SPR_AR}), PTOSIM_E_VERIFY, "vec.target");
  p = (ptosim_sprst_params){PTOSIM_SPR_AR, ub(PTOSIM_DT_U32, 0), 0, NULL};
  FAILS(ptosim_sprsti(e.v, &p), PTOSIM_E_VERIFY, "vec.target");
  FAILS(ptosim_sprsts(e.v, &p), PTOSIM_E_VERIFY, "vec.target");
  st = (ptosim_vstur_params){&al, &al, &q, ub(PTOSIM_DT_F32, 0), PTOSIM_VSTUR_POST_UPDATE};
  FAILS(ptosim_vstur(e.v, &st), PTOSIM_E_VERIFY, "vec.target");
  FAILS(ptosim_vstar(e.v, &(ptosim_vstar_params){&al, ub(PTOSIM_DT_F32, 0)}), PTOSIM_E_VERIFY, "vec.target");
  ptosim_vlds_params l = {&q, ub(PTOSIM_DT_F32, 0), 0, PTOSIM_DT_F32, PTOSIM_VLD_NORM, NULL};
  FAILS(ptosim_uvld(e.v, &l), PTOSIM_E_VERIFY, "vec.target");
  CHECK(ub_matches(&e));
  env_free(&e);
}

/* The text forms: uvld at an unaligned element, a pltm_b32 tail mask of iteration 1, vsqz ->
 * vstur -> vstar at an unaligned base, AR stored by sprsts and by the post form of sprsti. */
static const char ar_src[] =
    "module attributes {pto.target_arch = \"a5\", pto.kernel_kind = #pto.kernel_kind<vector>} {\n"
    "  func.func @k(%in: !pto.ptr<f32, gm>, %out: !pto.ptr<f32, gm>, %cnt: !pto.ptr<ui32, gm>) attributes {pto.kernel} {\n"
    "    %c3 = arith.constant 3 : index\n"
    "    %c1 = arith.constant 1 : index\n"
    "    %c0_i64 = arith.constant 0 : i64\n"
    "    %c1_i64 = arith.constant 1 : i64\n"
    "    %c32_i64 = arith.constant 32 : i64\n"
    "    %c64_i64 = arith.constant 64 : i64\n"
    "    %c512_i64 = arith.constant 512 : i64\n"
    "    %c2048_i64 = arith.constant 2048 : i64\n"
    "    %c3072_i64 = arith.constant 3072 : i64\n"
    "    %loop = arith.constant 1 : i16\n"
    "    %bound = arith.constant 70 : i32\n"
    "    %c4_i32 = arith.constant 4 : i32\n"
    "    %c2_i32 = arith.constant 2 : i32\n"
    "    %ub_in = pto.castptr %c0_i64 : i64 -> !pto.ptr<f32, ub>\n"
    "    %ub_out0 = pto.castptr %c2048_i64 : i64 -> !pto.ptr<f32, ub>\n"
    "    %ub_out = pto.addptr %ub_out0, %c1 : !pto.ptr<f32, ub> -> !pto.ptr<f32, ub>\n"
    "    %ub_cnt = pto.castptr %c3072_i64 : i64 -> !pto.ptr<ui32, ub>\n"
    "    pto.mte_gm_ub %in, %ub_in, %c0_i64, %c512_i64 nburst(%c1_i64, %c512_i64, %c512_i64)\n"
    "      : !pto.ptr<f32, gm>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64\n"
    "    pto.mte_gm_ub %out, %ub_out0, %c0_i64, %c64_i64 nburst(%c1_i64, %c64_i64, %c64_i64)\n"
    "      : !pto.ptr<f32, gm>, !pto.ptr<f32, ub>, i64, i64, i64, i64, i64\n"
    "    pto.mte_gm_ub %cnt, %ub_cnt, %c0_i64, %c32_i64 nburst(%c1_i64, %c32_i64, %c32_i64)\n"
    "      : !pto.ptr<ui32, gm>, !pto.ptr<ui32, ub>, i64, i64, i64, i64, i64\n"
    "    pto.set_flag[\"PIPE_MTE2\", \"PIPE_V\", \"EVENT_ID0\"]\n"
    "    pto.wait_flag[\"PIPE_MTE2\", \"PIPE_V\", \"EVENT_ID0\"]\n"
    "    pto.vecscope {\n"
    "      pto.sprclr \"AR\"\n"
    "      %v = pto.uvld %ub_in[%c3] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n"
    "      %m = pto.pltm_b32 %loop, %bound : i16, i32 -> !pto.mask<b32>\n"
    "      %s = pto.vsqz %v, %m : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>\n"
    "      %a0 = pto.init_align : !pto.align\n"
    "      %a1 = pto.vstur %a0, %s, %ub_out, \"POST_UPDATE\" : !pto.align, !pto.vreg<64xf32>, !pto.ptr<f32, ub> -> !pto.align\n"
    "      pto.vstar %a1, %ub_out : !pto.align, !pto.ptr<f32, ub>\n"
    "      pto.sprsts \"AR\", %ub_cnt[%c4_i32] : !pto.ptr<ui32, ub>, i32\n"
    "      %next = pto.sprsti \"AR\", %ub_cnt[%c2_i32] : !pto.ptr<ui32, ub>, i32 -> !pto.ptr<ui32, ub>\n"
    "      pto.sprsti \"AR\", %next[%c2_i32] : !pto.ptr<ui32, ub>, i32\n"
    "    }\n"
    "    pto.set_flag[\"PIPE_V\", \"PIPE_MTE3\", \"EVENT_ID0\"]\n"
    "    pto.wait_flag[\"PIPE_V\", \"PIPE_MTE3\", \"EVENT_ID0\"]\n"
    "    pto.mte_ub_gm %ub_out0, %out, %c64_i64 nburst(%c1_i64, %c64_i64, %c64_i64)\n"
    "      : !pto.ptr<f32, ub>, !pto.ptr<f32, gm>, i64, i64, i64, i64\n"
    "    pto.mte_ub_gm %ub_cnt, %cnt, %c32_i64 nburst(%c1_i64, %c32_i64, %c32_i64)\n"
    "      : !pto.ptr<ui32, ub>, !pto.ptr<ui32, gm>, i64, i64, i64, i64\n"
    "    pto.barrier #pto.pipe<PIPE_ALL>\n"
    "    return\n"
    "  }\n"
    "}\n";

static void test_ar_text(void) {
  ptosim_program *p = pt_test_load(ar_src, sizeof ar_src - 1);
  CHECK(p != NULL);
  if (!p) return;
  ptosim_machine *m = ptosim_machine_new(ptosim_program_target(p), 1);
  float in[128], out[16], want[16];
  uint32_t cnt[8], want_cnt[8];
  for (int i = 0; i < 128; i++) in[i] = (float)i * 0.5f - 7.0f;
  for (int i = 0; i < 16; i++) out[i] = want[i] = 1000.0f + (float)i;
  for (int i = 0; i < 8; i++) cnt[i] = want_cnt[i] = 0xC0DE0000u + (uint32_t)i;
  for (int i = 0; i < 6; i++) want[1 + i] = in[3 + i]; /* lanes 64 + i < 70: six f32 = 24 bytes at element 1 */
  want_cnt[0] = want_cnt[1] = want_cnt[4] = 24; /* AR at word 0 (post form, next = word 2), byte 4, next + 2 words */
  ptosim_arg args[3];
  ptosim_gm_map(m, in, sizeof in, &args[0].gm_addr);
  ptosim_gm_map(m, out, sizeof out, &args[1].gm_addr);
  ptosim_gm_map(m, cnt, sizeof cnt, &args[2].gm_addr);
  CHECK_MSG(ptosim_program_run(p, m, args) == PTOSIM_OK, "%s", ptosim_last_diag(m)->msg);
  CHECK(!memcmp(out, want, sizeof out));
  CHECK(!memcmp(cnt, want_cnt, sizeof cnt));
  ptosim_machine_free(m);
  ptosim_program_free(p);
}

/* ---- the checkers see masked stores byte-exactly ---------------------------------------- */

/* On a fresh UB, store the first `lanes` f32 lanes of a register, then broadcast-load f32
 * element `elem`: the strict init listing reports the load iff the element was not stored. */
static int init_findings(unsigned lanes, int64_t elem) {
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  ptosim_core *v = ptosim_core_of(m, 0, PTOSIM_AIV0);
  ptosim_monitor_opts o = ptosim_monitor_defaults();
  o.checks |= PTOSIM_CHECK_INIT_READS;
  ptosim_monitor *mon = ptosim_monitor_attach(m, &o);
  ptosim_vreg r;
  ptosim_vmask k;
  random_vreg(&r);
  memset(k.b, 0, sizeof k.b);
  for (unsigned i = 0; i < lanes; i++) k.b[i / 2] |= (uint8_t)(1u << (i % 2 * 4)); /* bit 4i */
  ptosim_vsts_params s = {&r, ub(PTOSIM_DT_F32, 512), 0, &k, PTOSIM_DT_F32, PTOSIM_VST_NORM_B32, NULL};
  CHECK(ptosim_vsts(v, &s) == PTOSIM_OK);
  ptosim_vlds_params l = {&r, ub(PTOSIM_DT_F32, 512), elem, PTOSIM_DT_F32, PTOSIM_VLD_BRC_B32, NULL};
  CHECK(ptosim_vlds(v, &l) == PTOSIM_OK);
  ptosim_monitor_finish(mon);
  int n = ptosim_monitor_nreports(mon), init = 0;
  for (int i = 0; i < n; i++) init += !strcmp(ptosim_monitor_report(mon, i)->rule, "init.read");
  ptosim_monitor_free(mon);
  ptosim_machine_free(m);
  return n == init ? init : -1;
}

static void test_checkers(void) {
  CHECK(init_findings(10, 9) == 0);
  CHECK(init_findings(10, 10) == 1);
  CHECK(init_findings(64, 63) == 0);
  CHECK(init_findings(0, 0) == 1);
}

/* Under the eager schedule a masked store's writes land later through the undo log: the
 * inactive lanes' bytes must come out unchanged. */
static void test_eager_masked(void) {
  env e = env_new(PTOSIM_TARGET_A5);
  ptosim_monitor_opts o = ptosim_monitor_defaults();
  o.schedule = PTOSIM_SCHEDULE_EAGER;
  ptosim_monitor *mon = ptosim_monitor_attach(e.m, &o);
  ptosim_vreg v[5]; /* operands stay alive until the drain: queued ops read them when they run */
  ptosim_vmask m[5];
  for (int kind = 0; kind < 5; kind++) {
    uint8_t w[SEEN];
    random_vreg(&v[kind]);
    make_mask(&m[kind], kind);
    ptosim_vsts_params p = {&v[kind], ub(PTOSIM_DT_F16, 2048), 0, &m[kind], PTOSIM_DT_F16, PTOSIM_VST_PK_B16, NULL};
    CHECK(ptosim_vsts(e.v, &p) == PTOSIM_OK);
    vst_ref(PTOSIM_VST_PK_B16, &v[kind], &m[kind], e.img, 2048, w);
  }
  CHECK(ptosim_monitor_drain(mon) == PTOSIM_OK);
  CHECK(ub_matches(&e));
  ptosim_monitor_free(mon);
  env_free(&e);
}

/* Deferred AR-addressed streams: under the eager schedule (each op dry-runs at issue and runs
 * again later) and behind a parked V pipe (a wait issued before its set: the ops run at the
 * set). AR and SQZN are V-pipe state that the deferred ops see in their order. */
static void ar_deferred(int parked) {
  env e = env_new(PTOSIM_TARGET_A5);
  ptosim_monitor_opts o = ptosim_monitor_defaults();
  o.schedule = PTOSIM_SCHEDULE_EAGER;
  ptosim_monitor *mon = parked ? NULL : ptosim_monitor_attach(e.m, &o);
  ptosim_flag_params fl = {PTOSIM_PIPE_MTE2, PTOSIM_PIPE_V, 3};
  if (parked) CHECK(ptosim_wait_flag(e.v, &fl) == PTOSIM_OK && e.v->park != NULL);
  ptosim_vreg v[3], q[3]; /* operands stay alive until the deferred ops run */
  ptosim_vmask m[3];
  ptosim_valign al[4];
  uint64_t base = 4100, len = 0;
  CHECK(ptosim_sprclr(e.v, &(ptosim_sprclr_params){PTOSIM_SPR_AR}) == PTOSIM_OK);
  CHECK(ptosim_init_align(e.v, &(ptosim_init_align_params){&al[0]}) == PTOSIM_OK);
  for (int i = 0; i < 3; i++) {
    random_vreg(&v[i]);
    make_mask(&m[i], 4);
    ptosim_vunary_params sq = {&q[i], &v[i], &m[i], PTOSIM_DT_F16, 16};
    CHECK(ptosim_vsqz(e.v, &sq) == PTOSIM_OK);
    ptosim_vstur_params st = {&al[i + 1], &al[i], &q[i], ub(PTOSIM_DT_F16, base), PTOSIM_VSTUR_POST_UPDATE};
    CHECK(ptosim_vstur(e.v, &st) == PTOSIM_OK);
    for (unsigned l = 0; l < 128; l++)
      if (mbit(&m[i], 2 * l)) memcpy(e.img + base + len, v[i].b + 2 * l, 2), len += 2;
  }
  CHECK(ptosim_vstar(e.v, &(ptosim_vstar_params){&al[3], ub(PTOSIM_DT_F16, base)}) == PTOSIM_OK);
  CHECK(ptosim_sprsts(e.v, &(ptosim_sprst_params){PTOSIM_SPR_AR, ub(PTOSIM_DT_U32, 2048), 0, NULL}) == PTOSIM_OK);
  for (int b = 0; b < 4; b++) e.img[2048 + b] = (uint8_t)(len >> 8 * b);
  if (parked) {
    CHECK(e.v->park != NULL);
    CHECK(ptosim_set_flag(e.v, &fl) == PTOSIM_OK && e.v->park == NULL);
  } else {
    CHECK(ptosim_monitor_drain(mon) == PTOSIM_OK);
    ptosim_monitor_free(mon);
  }
  CHECK_MSG(ub_matches(&e), "parked %d", parked);
  env_free(&e);
}

static void test_ar_deferred(void) {
  ar_deferred(0);
  ar_deferred(1);
}

/* ---- rules ----------------------------------------------------------------------------- */

static void test_rules(void) {
  env e = env_new(PTOSIM_TARGET_A5);
  ptosim_vreg r;
  ptosim_vmask m;
  make_mask(&m, 0);
  ptosim_vlds_params l = {&r, ub(PTOSIM_DT_F32, 4), 0, PTOSIM_DT_F32, PTOSIM_VLD_NORM, NULL};
  FAILS(ptosim_vlds(e.v, &l), PTOSIM_E_FAULT, "mem.align"); /* NORM: 32 B */
  l.src.addr = 0, l.offset = 1;
  FAILS(ptosim_vlds(e.v, &l), PTOSIM_E_FAULT, "mem.align"); /* offset counts f32 elements */
  l.offset = 8;
  CHECK(ptosim_vlds(e.v, &l) == PTOSIM_OK);
  l.dist = PTOSIM_VLD_BRC_B32, l.offset = 1; /* BRC: element-aligned is enough */
  CHECK(ptosim_vlds(e.v, &l) == PTOSIM_OK);
  l.src.addr = 2, l.offset = 0;
  FAILS(ptosim_vlds(e.v, &l), PTOSIM_E_FAULT, "mem.align");
  l.dist = PTOSIM_VLD_E2B_B16, l.src.addr = 16; /* E2B_B16: 16 B */
  CHECK(ptosim_vlds(e.v, &l) == PTOSIM_OK);
  l.src.addr = 8;
  FAILS(ptosim_vlds(e.v, &l), PTOSIM_E_FAULT, "mem.align");
  l.dist = PTOSIM_VLD_NORM, l.src.addr = e.cap - 128;
  FAILS(ptosim_vlds(e.v, &l), PTOSIM_E_FAULT, "mem.bounds");
  l.src.addr = 64, l.offset = -32;
  FAILS(ptosim_vlds(e.v, &l), PTOSIM_E_FAULT, "mem.bounds");
  l.offset = INT64_MAX;
  FAILS(ptosim_vlds(e.v, &l), PTOSIM_E_FAULT, "mem.bounds");
  l.offset = 0, l.src.space = PTOSIM_GM;
  FAILS(ptosim_vlds(e.v, &l), PTOSIM_E_VERIFY, "op.space");
  l.src.space = PTOSIM_UB, l.dtype = PTOSIM_DT_I4;
  FAILS(ptosim_vlds(e.v, &l), PTOSIM_E_VERIFY, "vec.dtype");
  l.dtype = PTOSIM_DT_F32, l.dist = PTOSIM_VLD_COUNT;
  FAILS(ptosim_vlds(e.v, &l), PTOSIM_E_VERIFY, "vec.dist");
  l.dist = PTOSIM_VLD_UNPK4;
  FAILS(ptosim_vlds(e.v, &l), PTOSIM_E_VERIFY, "vec.dist");
  l.dist = PTOSIM_VLD_SPLT4CHN; /* b8 only */
  FAILS(ptosim_vlds(e.v, &l), PTOSIM_E_VERIFY, "vec.dist");
  for (int d = PTOSIM_VLD_SPLT4CHN; d <= PTOSIM_VLD_SPLT2CHN_B16; d++) { /* 32 B aligned */
    l.dist = (ptosim_vld_dist)d, l.dtype = PTOSIM_DT_U8, l.src.addr = 64, l.offset = 16;
    FAILS(ptosim_vlds(e.v, &l), PTOSIM_E_FAULT, "mem.align");
  }
  l.dist = PTOSIM_VLD_NORM, l.dtype = PTOSIM_DT_F32, l.src.addr = 64, l.offset = 0;
  ptosim_vsts_params s = {&r, ub(PTOSIM_DT_F16, 34), 0, &m, PTOSIM_DT_F16, PTOSIM_VST_NORM_B16, NULL};
  FAILS(ptosim_vsts(e.v, &s), PTOSIM_E_FAULT, "mem.align");
  s.dist = PTOSIM_VST_1PT_B16; /* 1PT: element-aligned */
  CHECK(ptosim_vsts(e.v, &s) == PTOSIM_OK);
  s.dist = PTOSIM_VST_1PT_B32;
  FAILS(ptosim_vsts(e.v, &s), PTOSIM_E_FAULT, "mem.align");
  s.dist = PTOSIM_VST_MRG4CHN_B8, s.dst.addr = 0; /* b8 only */
  FAILS(ptosim_vsts(e.v, &s), PTOSIM_E_VERIFY, "vec.dist");
  s.dist = PTOSIM_VST_COUNT;
  FAILS(ptosim_vsts(e.v, &s), PTOSIM_E_VERIFY, "vec.dist");
  for (int d = PTOSIM_VST_MRG4CHN_B8; d < PTOSIM_VST_COUNT; d++) { /* 32 B aligned */
    s.dist = (ptosim_vst_dist)d, s.dtype = s.dst.dtype = PTOSIM_DT_U8, s.dst.addr = 16;
    FAILS(ptosim_vsts(e.v, &s), PTOSIM_E_FAULT, "mem.align");
  }
  s.dtype = s.dst.dtype = PTOSIM_DT_F16, s.dst.addr = 34;
  /* A store whose inactive lanes leave UB issues no request for them. */
  CHECK(ptosim_mem_read(e.v, PTOSIM_UB, 0, e.img, e.cap) == PTOSIM_OK);
  memset(m.b, 0, sizeof m.b);
  memset(m.b, 0xFF, 16); /* the first 128 bytes */
  random_vreg(&r);
  s.dist = PTOSIM_VST_NORM_B8, s.dst.addr = e.cap - 128, s.dtype = PTOSIM_DT_U8;
  CHECK(ptosim_vsts(e.v, &s) == PTOSIM_OK);
  memcpy(e.img + e.cap - 128, r.b, 128);
  CHECK(ub_matches(&e));
  m.b[16] = 1; /* one more lane, past the end */
  FAILS(ptosim_vsts(e.v, &s), PTOSIM_E_FAULT, "mem.bounds");
  CHECK(ub_matches(&e));
  memset(m.b, 0, sizeof m.b); /* nothing active: a base past UB is still an error */
  s.dst.addr = e.cap + 32;
  FAILS(ptosim_vsts(e.v, &s), PTOSIM_E_FAULT, "mem.bounds");
  ptosim_vldsx2_params x2 = {&r, &r, ub(PTOSIM_DT_F32, 16), 0, PTOSIM_DT_F32, PTOSIM_VLDX2_BDINTLV, NULL};
  FAILS(ptosim_vldsx2(e.v, &x2), PTOSIM_E_FAULT, "mem.align");
  x2.dist = PTOSIM_VLDX2_COUNT;
  FAILS(ptosim_vldsx2(e.v, &x2), PTOSIM_E_VERIFY, "vec.dist");
  ptosim_vstsx2_params y2 = {&r, &r, ub(PTOSIM_DT_F32, e.cap - 256), 0, &m, PTOSIM_DT_F32, PTOSIM_VSTX2_INTLV_B32};
  FAILS(ptosim_vstsx2(e.v, &y2), PTOSIM_E_FAULT, "mem.bounds");
  y2.dist = PTOSIM_VSTX2_COUNT;
  FAILS(ptosim_vstsx2(e.v, &y2), PTOSIM_E_VERIFY, "vec.dist");
  ptosim_plds_params pl = {&m, ub(PTOSIM_DT_U8, 4), 0, PTOSIM_PLD_NORM, NULL};
  FAILS(ptosim_plds(e.v, &pl), PTOSIM_E_FAULT, "mem.align");
  pl.dist = PTOSIM_PLD_COUNT;
  FAILS(ptosim_pldi(e.v, &pl), PTOSIM_E_VERIFY, "vec.dist");
  ptosim_psts_params ps = {&m, ub(PTOSIM_DT_U8, e.cap - 16), 0, PTOSIM_PST_NORM, NULL};
  FAILS(ptosim_psts(e.v, &ps), PTOSIM_E_FAULT, "mem.bounds");
  ps.dist = PTOSIM_PST_COUNT;
  FAILS(ptosim_psti(e.v, &ps), PTOSIM_E_VERIFY, "vec.dist");
  CHECK(ub_matches(&e));
  env_free(&e);

  /* The register-level vector ISA does not exist on A2/A3. */
  e = env_new(PTOSIM_TARGET_A2A3);
  l = (ptosim_vlds_params){&r, ub(PTOSIM_DT_F32, 0), 0, PTOSIM_DT_F32, PTOSIM_VLD_NORM, NULL};
  FAILS(ptosim_vlds(e.v, &l), PTOSIM_E_VERIFY, "vec.target");
  s = (ptosim_vsts_params){&r, ub(PTOSIM_DT_F32, 0), 0, &m, PTOSIM_DT_F32, PTOSIM_VST_NORM_B32, NULL};
  FAILS(ptosim_vsts(e.v, &s), PTOSIM_E_VERIFY, "vec.target");
  x2.src.addr = 0, x2.dist = PTOSIM_VLDX2_BDINTLV;
  FAILS(ptosim_vldsx2(e.v, &x2), PTOSIM_E_VERIFY, "vec.target");
  y2.dst.addr = 0, y2.dist = PTOSIM_VSTX2_INTLV_B8;
  FAILS(ptosim_vstsx2(e.v, &y2), PTOSIM_E_VERIFY, "vec.target");
  ptosim_vsldb_params bl = {&r, ub(PTOSIM_DT_F32, 0), 1, 1, &m, NULL};
  FAILS(ptosim_vsldb(e.v, &bl), PTOSIM_E_VERIFY, "vec.target");
  ptosim_vsstb_params bs = {&r, ub(PTOSIM_DT_F32, 0), 1, 1, &m, NULL};
  FAILS(ptosim_vsstb(e.v, &bs), PTOSIM_E_VERIFY, "vec.target");
  pl = (ptosim_plds_params){&m, ub(PTOSIM_DT_U8, 0), 0, PTOSIM_PLD_NORM, NULL};
  FAILS(ptosim_plds(e.v, &pl), PTOSIM_E_VERIFY, "vec.target");
  ps = (ptosim_psts_params){&m, ub(PTOSIM_DT_U8, 0), 0, PTOSIM_PST_NORM, NULL};
  FAILS(ptosim_psts(e.v, &ps), PTOSIM_E_VERIFY, "vec.target");
  ptosim_valign al;
  FAILS(ptosim_init_align(e.v, &(ptosim_init_align_params){&al}), PTOSIM_E_VERIFY, "vec.target");
  FAILS(ptosim_vldas(e.v, &(ptosim_vldas_params){&al, ub(PTOSIM_DT_U8, 0)}), PTOSIM_E_VERIFY, "vec.target");
  FAILS(ptosim_vldus(e.v, &(ptosim_vldus_params){&r, &al, &al, ub(PTOSIM_DT_U8, 0), 0, NULL}), PTOSIM_E_VERIFY, "vec.target");
  FAILS(ptosim_vstus(e.v, &(ptosim_vstus_params){&al, &al, 1, &r, ub(PTOSIM_DT_U8, 0), PTOSIM_DT_U8, NULL}), PTOSIM_E_VERIFY,
        "vec.target");
  FAILS(ptosim_vstas(e.v, &(ptosim_vstas_params){&al, ub(PTOSIM_DT_U8, 0), 0, NULL}), PTOSIM_E_VERIFY, "vec.target");
  ptosim_ptr out;
  FAILS(ptosim_pstu(e.v, &(ptosim_pstu_params){&al, &al, &m, ub(PTOSIM_DT_U16, 0), &out}), PTOSIM_E_VERIFY, "vec.target");
  CHECK(ub_matches(&e));
  env_free(&e);
}

int main(void) {
  RUN(test_vlds_modes);
  RUN(test_vldsx2_modes);
  RUN(test_vsts_modes);
  RUN(test_alias);
  RUN(test_vstsx2_modes);
  RUN(test_block_strided);
  RUN(test_predicates);
  RUN(test_unaligned_loads);
  RUN(test_unaligned_stores);
  RUN(test_uvld);
  RUN(test_ar_stream);
  RUN(test_ar_text);
  RUN(test_post_update_text);
  RUN(test_checkers);
  RUN(test_eager_masked);
  RUN(test_ar_deferred);
  RUN(test_rules);
  return pt_test_finish();
}
