/* DMA family: every op against a naive reference written from the spec formulas
 * (vpto docs/isa/micro-isa/02-dma-copy.md, 16-cube-matmul.md, docs/isa-legacy/02-dma-copy.md)
 * over flat iteration indices, plus one negative test per rule.
 *
 * All memories of the cluster (UB of both vector cores, L1, one GM buffer) start random and
 * are mirrored in an "expected" image; after each op the whole of every memory is compared
 * with the image the reference produced, so bytes an op must not touch are checked too. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/dtype.h"
#include "core/mem.h"
#include "harness.h"
#include "ptosim/ptosim.h"

#define GM_BYTES (96 * 1024)
#define MAXLV 20

static unsigned long long seed = 0x5eed0d3aull;
static int64_t rnd(int64_t n) { return n > 0 ? (int64_t)(pt_rand_u64(&seed) % (unsigned long long)n) : 0; }

/* ---- the machine and its mirror ------------------------------------------------------ */

typedef struct env {
  ptosim_target target;
  ptosim_machine *m;
  ptosim_core *aic, *aiv0, *aiv1;
  uint8_t *gm;           /* the mapped GM buffer (actual) */
  uint64_t gm_addr;
  uint64_t cap_ub, cap_l1;
  uint8_t *exp_ub[2], *exp_l1, *exp_gm; /* expected images */
  uint8_t *tmp;
} env;

static void randomize(uint8_t *p, uint64_t n) {
  for (uint64_t i = 0; i < n; i++) p[i] = (uint8_t)pt_rand_u64(&seed);
}

static env env_new(ptosim_target target) {
  env e;
  memset(&e, 0, sizeof e);
  e.target = target;
  e.m = ptosim_machine_new(target, 1);
  e.aic = ptosim_core_of(e.m, 0, PTOSIM_AIC);
  e.aiv0 = ptosim_core_of(e.m, 0, PTOSIM_AIV0);
  e.aiv1 = ptosim_core_of(e.m, 0, PTOSIM_AIV1);
  e.cap_ub = ptosim_space_capacity(e.m, PTOSIM_UB);
  e.cap_l1 = ptosim_space_capacity(e.m, PTOSIM_L1);
  e.gm = malloc(GM_BYTES);
  e.exp_gm = malloc(GM_BYTES);
  e.exp_ub[0] = malloc(e.cap_ub);
  e.exp_ub[1] = malloc(e.cap_ub);
  e.exp_l1 = malloc(e.cap_l1);
  e.tmp = malloc(e.cap_l1);
  CHECK(ptosim_gm_map(e.m, e.gm, GM_BYTES, &e.gm_addr) == PTOSIM_OK);
  randomize(e.gm, GM_BYTES);
  memcpy(e.exp_gm, e.gm, GM_BYTES);
  for (int s = 0; s < 2; s++) {
    randomize(e.exp_ub[s], e.cap_ub);
    CHECK(ptosim_mem_write(s ? e.aiv1 : e.aiv0, PTOSIM_UB, 0, e.exp_ub[s], e.cap_ub) == PTOSIM_OK);
  }
  randomize(e.exp_l1, e.cap_l1);
  CHECK(ptosim_mem_write(e.aic, PTOSIM_L1, 0, e.exp_l1, e.cap_l1) == PTOSIM_OK);
  return e;
}

static void env_free(env *e) {
  ptosim_machine_free(e->m);
  free(e->gm);
  free(e->exp_gm);
  free(e->exp_ub[0]);
  free(e->exp_ub[1]);
  free(e->exp_l1);
  free(e->tmp);
}

/* Compare one memory with its image; on mismatch report and resynchronize. */
static int same(const char *what, const char *ctx, uint8_t *actual, uint8_t *expected, uint64_t n) {
  if (!memcmp(actual, expected, n)) return 1;
  uint64_t i = 0;
  while (actual[i] == expected[i]) i++;
  CHECK_MSG(0, "%s: %s byte 0x%" PRIx64 " is 0x%02x, expected 0x%02x", ctx, what, i, actual[i], expected[i]);
  memcpy(expected, actual, n);
  return 0;
}

static int check_all(env *e, const char *ctx) {
  int ok = same("gm", ctx, e->gm, e->exp_gm, GM_BYTES);
  for (int s = 0; s < 2; s++) {
    ptosim_mem_read(s ? e->aiv1 : e->aiv0, PTOSIM_UB, 0, e->tmp, e->cap_ub);
    ok &= same(s ? "ub1" : "ub0", ctx, e->tmp, e->exp_ub[s], e->cap_ub);
  }
  ptosim_mem_read(e->aic, PTOSIM_L1, 0, e->tmp, e->cap_l1);
  ok &= same("l1", ctx, e->tmp, e->exp_l1, e->cap_l1);
  return ok;
}

/* Expected image and capacity of a space (GM: offsets from the buffer start). */
static uint8_t *image(env *e, ptosim_space s, int sub, uint64_t *cap) {
  if (s == PTOSIM_GM) {
    *cap = GM_BYTES;
    return e->exp_gm;
  }
  *cap = s == PTOSIM_UB ? e->cap_ub : e->cap_l1;
  return s == PTOSIM_UB ? e->exp_ub[sub] : e->exp_l1;
}

/* ---- the reference ------------------------------------------------------------------ */

/* A transfer stated the way the spec's pseudo-code states it: rows of len bytes over
 * nested levels (lv[0] innermost), optional pad around each UB row. Offsets are from the
 * start of each space (GM: from the buffer start). */
typedef struct ref {
  ptosim_space ss, ds;
  int sub;               /* UB sub-block of a UB operand */
  int64_t so, dof;       /* base offsets */
  int64_t len;
  int nl;
  int64_t cnt[MAXLV], sst[MAXLV], dst[MAXLV];
  int pad;               /* fill pad positions */
  int64_t lp, rp;        /* pad counts in units */
  unsigned u;            /* pad unit bytes */
  uint64_t padv;
} ref;

static int64_t row_bytes(const ref *r) {
  if (!r->pad) return r->len;
  int64_t n = (int64_t)r->lp * r->u + r->len + r->rp * r->u;
  return (n + 31) / 32 * 32;
}

/* 1 when the transfer stays inside both memories (or touches nothing). */
static int fits(env *e, const ref *r) {
  int64_t total = 1, sext = r->len, dext = row_bytes(r);
  for (int i = 0; i < r->nl; i++) {
    total *= r->cnt[i];
    sext += (r->cnt[i] - 1) * r->sst[i];
    dext += (r->cnt[i] - 1) * r->dst[i];
  }
  uint64_t scap, dcap;
  image(e, r->ss, r->sub, &scap);
  image(e, r->ds, r->sub, &dcap);
  int64_t dstart = r->dof + (r->pad ? 0 : r->lp * r->u);
  if (total == 0) return 1;
  int sok = r->len == 0 || r->so + sext <= (int64_t)scap;
  int dok = row_bytes(r) == 0 || dstart + dext <= (int64_t)dcap;
  return sok && dok;
}

/* Apply r to the expected images: flat index f -> level indices by mixed radix, each row
 * read fully before it is written. */
static void ref_apply(env *e, const ref *r) {
  uint64_t cap;
  uint8_t *src = image(e, r->ss, r->sub, &cap) + r->so;
  uint8_t *dst = image(e, r->ds, r->sub, &cap) + r->dof;
  int64_t total = 1;
  for (int i = 0; i < r->nl; i++) total *= r->cnt[i];
  uint8_t *row = malloc((size_t)r->len + 1);
  for (int64_t f = 0; f < total; f++) {
    int64_t rest = f, s_off = 0, d_off = 0;
    for (int i = 0; i < r->nl; i++) {
      int64_t j = rest % r->cnt[i];
      rest /= r->cnt[i];
      s_off += j * r->sst[i];
      d_off += j * r->dst[i];
    }
    memcpy(row, src + s_off, (size_t)r->len);
    if (r->pad)
      for (int64_t k = 0; k < row_bytes(r); k++) dst[d_off + k] = (uint8_t)(r->padv >> (8 * (k % r->u)));
    memcpy(dst + d_off + r->lp * r->u, row, (size_t)r->len);
  }
  free(row);
}

static void ref_level(ref *r, int64_t c, int64_t s, int64_t d) {
  r->cnt[r->nl] = c;
  r->sst[r->nl] = s;
  r->dst[r->nl] = d;
  r->nl++;
}

static int n_ok, n_fault; /* outcomes of expect_ref, so each random test proves it covered both */

/* Run-and-compare: st is the status the op returned. A transfer outside the memories must
 * fault with mem.bounds and change nothing; otherwise it must succeed and match r. */
static void expect_ref(env *e, const ref *r, ptosim_status st, const char *ctx) {
  if (fits(e, r)) {
    CHECK_MSG(st == PTOSIM_OK, "%s: status %d rule %s: %s", ctx, st, ptosim_last_diag(e->m)->rule,
              ptosim_last_diag(e->m)->msg);
    if (st == PTOSIM_OK) ref_apply(e, r);
    n_ok++;
  } else {
    n_fault++;
    CHECK_MSG(st == PTOSIM_E_FAULT && !strcmp(ptosim_last_diag(e->m)->rule, "mem.bounds"), "%s: status %d rule %s", ctx,
              st, ptosim_last_diag(e->m)->rule);
  }
  check_all(e, ctx);
}

/* A transfer of one burst group without padding, UB operands on sub-block `sub`. */
static ref one_group(ptosim_space ss, ptosim_space ds, int sub, int64_t so, int64_t dof, int64_t len, int64_t n,
                     int64_t sstride, int64_t dstride) {
  ref r = {.ss = ss, .ds = ds, .sub = sub, .so = so, .dof = dof, .len = len, .u = 1};
  ref_level(&r, n, sstride, dstride);
  return r;
}

static int64_t addr_of(env *e, ptosim_space s, int64_t off) {
  return s == PTOSIM_GM ? (int64_t)e->gm_addr + off : off;
}

/* ---- random operands ----------------------------------------------------------------- */

static const ptosim_dtype all_types[] = {PTOSIM_DT_I8,     PTOSIM_DT_U8,     PTOSIM_DT_I16,  PTOSIM_DT_U16,
                                         PTOSIM_DT_I32,    PTOSIM_DT_U32,    PTOSIM_DT_I64,  PTOSIM_DT_U64,
                                         PTOSIM_DT_F16,    PTOSIM_DT_BF16,   PTOSIM_DT_F32,  PTOSIM_DT_F8E4M3,
                                         PTOSIM_DT_F8E5M2, PTOSIM_DT_HIF8,   PTOSIM_DT_F8E8M0};
#define NTYPES (int)(sizeof all_types / sizeof all_types[0])

static unsigned elem_bytes(ptosim_dtype t) {
  switch (t) {
  case PTOSIM_DT_I16: case PTOSIM_DT_U16: case PTOSIM_DT_F16: case PTOSIM_DT_BF16: return 2;
  case PTOSIM_DT_I32: case PTOSIM_DT_U32: case PTOSIM_DT_F32: return 4;
  case PTOSIM_DT_I64: case PTOSIM_DT_U64: return 8;
  default: return 1;
  }
}

/* A stride: multiple of `mult`, sometimes 0, sometimes exactly the row (contiguous). */
static int64_t pick_stride(int64_t row, int64_t mult, int64_t max) {
  switch (rnd(4)) {
  case 0: return 0;
  case 1: return (row + mult - 1) / mult * mult;
  default: return rnd(max / mult + 1) * mult;
  }
}

/* Random grouped params; UB-side strides multiples of 32 (ub_side: 1 src, 2 dst, 3 both). */
static void random_grouped(ptosim_dma_params *p, ref *r, int ub_side, int64_t max_len) {
  memset(p, 0, sizeof *p);
  memset(r, 0, sizeof *r);
  p->len_burst = rnd(4) ? rnd(max_len) : (1 + rnd(8)) * 32;
  int64_t smul = ub_side & 1 ? 32 : 1, dmul = ub_side & 2 ? 32 : 1;
  p->nburst.count = rnd(9);
  p->nburst.src_stride = pick_stride(p->len_burst, smul, 600);
  p->nburst.dst_stride = pick_stride(p->len_burst, dmul, 600);
  p->nloops = (int)rnd(4);
  int64_t sspan = p->nburst.count * 600, dspan = sspan;
  for (int i = 0; i < p->nloops; i++) {
    p->loops[i].count = rnd(8) ? 1 + rnd(3) : 0;
    p->loops[i].src_stride = pick_stride(sspan, smul, sspan + 64);
    p->loops[i].dst_stride = pick_stride(dspan, dmul, dspan + 64);
    sspan = sspan * 3 + 64;
    dspan = sspan;
  }
  r->len = p->len_burst;
  r->u = 1;
  ref_level(r, p->nburst.count, p->nburst.src_stride, p->nburst.dst_stride);
  for (int i = 0; i < p->nloops; i++) ref_level(r, p->loops[i].count, p->loops[i].src_stride, p->loops[i].dst_stride);
}

/* A base offset: local ones 32-byte aligned, GM ones anywhere; one in eight lies within
 * 4 KiB of the end so that some transfers run out of the memory. */
static int64_t base_offset(ptosim_space s, uint64_t cap) {
  int64_t off = rnd(8) ? rnd((int64_t)cap / 2) : (int64_t)cap - 1 - rnd(4096);
  return s == PTOSIM_GM ? off : off / 32 * 32;
}

static void set_ptrs(env *e, ptosim_ptr *src, ptosim_ptr *dst, ref *r, ptosim_space ss, ptosim_space ds,
                     ptosim_dtype t) {
  uint64_t scap, dcap;
  image(e, ss, 0, &scap);
  image(e, ds, 0, &dcap);
  r->ss = ss;
  r->ds = ds;
  r->so = base_offset(ss, scap);
  r->dof = base_offset(ds, dcap);
  *src = ptosim_ptr_make(ss, t, (uint64_t)addr_of(e, ss, r->so));
  *dst = ptosim_ptr_make(ds, t, (uint64_t)addr_of(e, ds, r->dof));
}

/* n random cases of `one` on each target, in one machine per target (memories persist). */
static void random_cases(int n, void (*one)(env *e, int it)) {
  static const ptosim_target targets[] = {PTOSIM_TARGET_A2A3, PTOSIM_TARGET_A5};
  for (int ti = 0; ti < 2; ti++) {
    env e = env_new(targets[ti]);
    for (int it = 0; it < n; it++) one(&e, it);
    env_free(&e);
  }
}

/* Check case `it` of `op`: on A2/A3 a UB <-> L1 op (a5_only) must be refused with dma.path
 * and change nothing; otherwise it must do what r says. */
static void finish_case(env *e, const ref *r, ptosim_status st, const char *op, int it, int a5_only) {
  char ctx[80];
  snprintf(ctx, sizeof ctx, "%s on %s, case %d", op, e->target == PTOSIM_TARGET_A5 ? "a5" : "a2a3", it);
  if (a5_only && e->target != PTOSIM_TARGET_A5) {
    CHECK_MSG(st == PTOSIM_E_VERIFY && !strcmp(ptosim_last_diag(e->m)->rule, "dma.path"), "%s: rule %s", ctx,
              ptosim_last_diag(e->m)->rule);
    check_all(e, ctx);
  } else {
    expect_ref(e, r, st, ctx);
  }
}

/* ---- grouped byte-model ops ----------------------------------------------------------- */

static void gm_ub_case(env *e, int it) {
  ptosim_dma_params p;
  ref r;
  random_grouped(&p, &r, 2, 300);
  ptosim_dtype t = all_types[rnd(NTYPES)];
  set_ptrs(e, &p.src, &p.dst, &r, PTOSIM_GM, PTOSIM_UB, t);
  p.l2_cache_ctl = rnd(4);
  if (rnd(2)) {
    unsigned es = elem_bytes(t);
    p.has_pad = true;
    r.pad = 1;
    r.u = es == 8 ? 4 : es;
    if (rnd(2)) {
      p.left_pad = r.lp = rnd(12);
      p.right_pad = r.rp = rnd(12);
    }
    p.pad_bits = r.padv = pt_rand_u64(&seed) & (r.u == 4 ? 0xffffffffull : (1ull << (8 * r.u)) - 1);
  }
  finish_case(e, &r, ptosim_mte_gm_ub(e->aiv0, &p), "mte_gm_ub", it, 0);
}

static void ub_gm_case(env *e, int it) {
  ptosim_dma_params p;
  ref r;
  random_grouped(&p, &r, 1, 300);
  set_ptrs(e, &p.src, &p.dst, &r, PTOSIM_UB, PTOSIM_GM, all_types[rnd(NTYPES)]);
  r.sub = (int)rnd(2);
  finish_case(e, &r, ptosim_mte_ub_gm(r.sub ? e->aiv1 : e->aiv0, &p), "mte_ub_gm", it, 0);
}

static void gm_l1_case(env *e, int it) {
  ptosim_dma_params p;
  ref r;
  random_grouped(&p, &r, 0, 300);
  set_ptrs(e, &p.src, &p.dst, &r, PTOSIM_GM, PTOSIM_L1, all_types[rnd(NTYPES)]);
  finish_case(e, &r, ptosim_mte_gm_l1(e->aic, &p), "mte_gm_l1", it, 0);
}

/* Gap model: len and gaps in 32-byte blocks, one level. */
static void ref_gap(ref *r, int64_t n, int64_t len, int64_t sgap, int64_t dgap) {
  r->len = len * 32;
  r->u = 1;
  ref_level(r, n, (len + sgap) * 32, (len + dgap) * 32);
}

/* mte_l1_ub: nburst(count, src_gap, dst_gap) and len_burst in 32-byte blocks, loops in
 * bytes (multiples of 32); writes the UB of vector sub-block 0. */
static void l1_ub_case(env *e, int it) {
  ptosim_dma_params p;
  ref r;
  memset(&p, 0, sizeof p);
  memset(&r, 0, sizeof r);
  p.len_burst = rnd(6);
  p.nburst = (ptosim_loop){rnd(7), rnd(4), rnd(4)};
  ref_gap(&r, p.nburst.count, p.len_burst, p.nburst.src_stride, p.nburst.dst_stride);
  p.nloops = (int)rnd(3);
  for (int i = 0; i < p.nloops; i++) {
    p.loops[i] = (ptosim_loop){1 + rnd(3), rnd(200) * 32, rnd(200) * 32};
    ref_level(&r, p.loops[i].count, p.loops[i].src_stride, p.loops[i].dst_stride);
  }
  set_ptrs(e, &p.src, &p.dst, &r, PTOSIM_L1, PTOSIM_UB, all_types[rnd(NTYPES)]);
  finish_case(e, &r, ptosim_mte_l1_ub(e->aic, &p), "mte_l1_ub", it, 1);
}

/* mte_ub_ub (source and destination may overlap: rows in order, each read before it is
 * written) and mte_ub_l1. */
static void gap_op_case(env *e, int it) {
  int to_l1 = it & 1;
  ptosim_gap_copy_params p;
  ref r;
  memset(&p, 0, sizeof p);
  memset(&r, 0, sizeof r);
  p.len_burst = rnd(9);
  p.count = rnd(9);
  p.src_gap = rnd(5);
  p.dst_gap = rnd(5);
  ref_gap(&r, p.count, p.len_burst, p.src_gap, p.dst_gap);
  set_ptrs(e, &p.src, &p.dst, &r, PTOSIM_UB, to_l1 ? PTOSIM_L1 : PTOSIM_UB, all_types[rnd(NTYPES)]);
  if (!to_l1 && rnd(2)) { /* overlapping windows */
    r.dof = r.so + (rnd(9) - 4) * 32;
    if (r.dof < 0) r.dof = 0;
    p.dst.addr = (uint64_t)r.dof;
  }
  r.sub = (int)rnd(2);
  ptosim_core *c = r.sub ? e->aiv1 : e->aiv0;
  finish_case(e, &r, to_l1 ? ptosim_mte_ub_l1(c, &p) : ptosim_mte_ub_ub(c, &p), to_l1 ? "mte_ub_l1" : "mte_ub_ub", it,
              to_l1);
}

static void test_gm_ub_random(void) { random_cases(300, gm_ub_case); }
static void test_ub_gm_random(void) { random_cases(300, ub_gm_case); }
static void test_gm_l1_random(void) { random_cases(300, gm_l1_case); }
static void test_l1_ub_random(void) { random_cases(200, l1_ub_case); }
static void test_gap_ops_random(void) { random_cases(400, gap_op_case); }

/* ---- fixed cases from the spec pages and the corpus ----------------------------------- */

static void fill_gm_pattern(env *e, int64_t off, int64_t n) {
  for (int64_t i = 0; i < n; i++) e->gm[off + i] = e->exp_gm[off + i] = (uint8_t)(i * 7 + 3);
}

/* An mte_gm_ub of one burst group from GM buffer offset gm_off to UB address ub. */
static ptosim_dma_params load(env *e, ptosim_dtype t, int64_t gm_off, uint64_t ub, int64_t len, ptosim_loop nburst) {
  ptosim_dma_params p;
  memset(&p, 0, sizeof p);
  p.src = ptosim_ptr_make(PTOSIM_GM, t, e->gm_addr + (uint64_t)gm_off);
  p.dst = ptosim_ptr_make(PTOSIM_UB, t, ub);
  p.len_burst = len;
  p.nburst = nburst;
  return p;
}

/* 02-dma-copy.md Example 2 / 3 / 6 and the corpus case vlds-dma-loop, checked by values. */
static void test_gm_ub_examples(void) {
  env e = env_new(PTOSIM_TARGET_A5);
  fill_gm_pattern(&e, 0, GM_BYTES);
  /* Example 2: 64 x 128 f16 tile out of a 1024 x 512 matrix (rows of 1024 bytes). */
  ptosim_dma_params p = load(&e, PTOSIM_DT_F16, 3 * 1024, 4096, 256, (ptosim_loop){64, 1024, 256});
  CHECK(ptosim_mte_gm_ub(e.aiv0, &p) == PTOSIM_OK);
  uint16_t v;
  ptosim_mem_read(e.aiv0, PTOSIM_UB, 4096 + 5 * 256 + 2 * 7, &v, 2); /* tile row 5, col 7 */
  CHECK(v == (uint16_t)(e.gm[3 * 1024 + 5 * 1024 + 14] | e.gm[3 * 1024 + 5 * 1024 + 15] << 8));
  for (int i = 0; i < 64; i++) memcpy(e.exp_ub[0] + 4096 + i * 256, e.gm + 3 * 1024 + i * 1024, 256);
  check_all(&e, "example 2");

  /* Example 3: 100 valid f16 columns into 128-wide rows, pad 0x0000: the 200 data bytes are
   * padded to the 32-byte boundary (224); bytes 224..255 of each row are not written. */
  p = load(&e, PTOSIM_DT_F16, 0, 0, 200, (ptosim_loop){64, 200, 256});
  p.has_pad = true;
  CHECK(ptosim_mte_gm_ub(e.aiv0, &p) == PTOSIM_OK);
  for (int i = 0; i < 64; i++) {
    memcpy(e.exp_ub[0] + i * 256, e.gm + i * 200, 200);
    memset(e.exp_ub[0] + i * 256 + 200, 0, 24);
  }
  check_all(&e, "example 3");

  /* Example 6: [4, 8, 128] f16 with one loop group. */
  p = load(&e, PTOSIM_DT_F16, 64, 65536, 256, (ptosim_loop){8, 256, 256});
  p.nloops = 1;
  p.loops[0] = (ptosim_loop){4, 2048, 2048};
  CHECK(ptosim_mte_gm_ub(e.aiv0, &p) == PTOSIM_OK);
  memcpy(e.exp_ub[0] + 65536, e.gm + 64, 8192);
  check_all(&e, "example 6");

  /* corpus vlds-dma-loop: 8 x 56 f32 rows, three loop groups, pad(1.0, 0, 8): each 64-wide
   * UB row is the 56 values then eight 1.0f. */
  p = load(&e, PTOSIM_DT_F32, 0, 0, 224, (ptosim_loop){1, 224, 256});
  p.nloops = 3;
  p.loops[0] = (ptosim_loop){2, 224, 256};
  p.loops[1] = (ptosim_loop){2, 448, 512};
  p.loops[2] = (ptosim_loop){2, 896, 1024};
  p.has_pad = true;
  p.pad_bits = 0x3f800000u;
  p.right_pad = 8;
  CHECK(ptosim_mte_gm_ub(e.aiv0, &p) == PTOSIM_OK);
  float row[64];
  for (int rr = 0; rr < 8; rr++) {
    ptosim_mem_read(e.aiv0, PTOSIM_UB, (uint64_t)rr * 256, row, sizeof row);
    CHECK(!memcmp(row, e.gm + rr * 224, 224));
    for (int c = 56; c < 64; c++) CHECK(row[c] == 1.0f);
    memcpy(e.exp_ub[0] + rr * 256, row, 256);
  }
  check_all(&e, "vlds-dma-loop");

  /* left padding: i16 elements, pad 0xBEEF, left 3, right 2, len 10 bytes: row = 3 pads,
   * 5 data elements, 2 pads, then pad up to 32 bytes. */
  p = load(&e, PTOSIM_DT_I16, 1, 1024, 10, (ptosim_loop){2, 10, 64});
  p.has_pad = true;
  p.pad_bits = 0xBEEF;
  p.left_pad = 3;
  p.right_pad = 2;
  CHECK(ptosim_mte_gm_ub(e.aiv0, &p) == PTOSIM_OK);
  for (int rr = 0; rr < 2; rr++) {
    uint16_t el[16];
    ptosim_mem_read(e.aiv0, PTOSIM_UB, 1024 + (uint64_t)rr * 64, el, 32);
    for (int k = 0; k < 16; k++)
      if (k < 3 || k >= 8) CHECK(el[k] == 0xBEEF);
    CHECK(!memcmp(el + 3, e.gm + 1 + rr * 10, 10));
    memcpy(e.exp_ub[0] + 1024 + rr * 64, el, 32);
  }
  check_all(&e, "left/right padding");
  env_free(&e);
}

/* On the second vector core a load writes that core's own UB; the cube core cannot issue
 * it. (Which UB the cube core's L1 -> UB copies reach is covered by the random cases.) */
static void test_cores(void) {
  env e = env_new(PTOSIM_TARGET_A5);
  ptosim_dma_params p = load(&e, PTOSIM_DT_I8, 0, 512, 96, (ptosim_loop){3, 100, 128});
  ref r = one_group(PTOSIM_GM, PTOSIM_UB, 1, 0, 512, 96, 3, 100, 128);
  expect_ref(&e, &r, ptosim_mte_gm_ub(e.aiv1, &p), "gm_ub on aiv1");
  CHECK(ptosim_mte_gm_ub(e.aic, &p) == PTOSIM_E_VERIFY && !strcmp(ptosim_last_diag(e.m)->rule, "op.unit"));
  env_free(&e);
}

/* The event of an op names the memory it touched by the core that owns it: L1 by the cube
 * core and UB by its vector core, whoever issues the copy. */
static pt_event last_event;
static void keep_event(void *user, const pt_event *ev) {
  (void)user;
  last_event = *ev;
}

static void test_events(void) {
  env e = env_new(PTOSIM_TARGET_A5);
  e.m->listener = keep_event;
  ptosim_copy_gap_params p = {ptosim_ptr_make(PTOSIM_L1, PTOSIM_DT_I8, 64), ptosim_ptr_make(PTOSIM_UB, PTOSIM_DT_I8, 128),
                              1, 3, 2, 1, 0};
  CHECK(ptosim_copy_cbuf_to_ubuf(e.aic, &p) == PTOSIM_OK);
  pt_event *ev = &last_event;
  CHECK(ev->nranges == 2 && !ev->overflow);
  CHECK(ev->ranges[0].space == PTOSIM_L1 && ev->ranges[0].owner == e.aic && ev->ranges[0].access == PT_READ);
  CHECK(ev->ranges[0].addr == 64 && ev->ranges[0].len == 64 && ev->ranges[0].count[0] == 3 && ev->ranges[0].stride[0] == 96);
  CHECK(ev->ranges[1].space == PTOSIM_UB && ev->ranges[1].owner == e.aiv1 && ev->ranges[1].access == PT_WRITE);
  CHECK(ev->ranges[1].addr == 128 && ev->ranges[1].stride[0] == 64);
  ptosim_gap_copy_params q = {ptosim_ptr_make(PTOSIM_UB, PTOSIM_DT_I8, 0), ptosim_ptr_make(PTOSIM_L1, PTOSIM_DT_I8, 0), 1, 1, 0, 0};
  CHECK(ptosim_mte_ub_l1(e.aiv1, &q) == PTOSIM_OK);
  CHECK(ev->nranges == 2 && ev->ranges[0].owner == e.aiv1 && ev->ranges[1].owner == e.aic);
  e.m->listener = NULL;
  memcpy(e.exp_ub[1] + 128, e.exp_l1 + 64, 64);
  memcpy(e.exp_ub[1] + 192, e.exp_l1 + 160, 64);
  memcpy(e.exp_ub[1] + 256, e.exp_l1 + 256, 64);
  memcpy(e.exp_l1, e.exp_ub[1], 32);
  check_all(&e, "events");
  env_free(&e);
}

/* ---- legacy spellings and their loop registers ------------------------------------------- */

static const ptosim_dtype pad_types[] = {PTOSIM_DT_I8, PTOSIM_DT_I16, PTOSIM_DT_I32,
                                         PTOSIM_DT_F16, PTOSIM_DT_BF16, PTOSIM_DT_F32};

/* Model of one core's hardware loop registers: loop1 inner, loop2 outer. */
typedef struct regs {
  int64_t c1, c2, s1, d1, s2, d2;
} regs;

static void random_regs(regs *g, int64_t smul, int64_t dmul) {
  g->c1 = rnd(3);
  g->c2 = 1 + rnd(2);
  g->s1 = rnd(40) * smul;
  g->d1 = rnd(40) * dmul;
  g->s2 = rnd(80) * smul;
  g->d2 = rnd(80) * dmul;
}

static void ref_regs(ref *r, const regs *g) {
  ref_level(r, g->c1, g->s1, g->d1);
  ref_level(r, g->c2, g->s2, g->d2);
}

/* copy_gm_to_ubuf / copy_ubuf_to_gm: registers are reprogrammed only now and then, so the
 * copies in between run with the values set before (registers persist); a fresh machine
 * runs with loop sizes 1 x 1. The model of the registers restarts with each machine. */
static void legacy_gm_ub_case(env *e, int it) {
  static regs in, out;
  static uint64_t padreg;
  if (it == 0) {
    in = out = (regs){1, 1, 0, 0, 0, 0}; /* reset values */
    padreg = 0;
  }
  int load = it & 1;
  regs *g = load ? &in : &out;
  if (it >= 4 && rnd(2)) {
    random_regs(g, load ? 1 : 32, load ? 32 : 1);
    ptosim_loop_size_params ls = {g->c1, g->c2};
    ptosim_loop_stride_params l1 = {g->s1, g->d1}, l2 = {g->s2, g->d2};
    CHECK((load ? ptosim_set_loop_size_outtoub(e->aiv0, &ls) : ptosim_set_loop_size_ubtoout(e->aiv0, &ls)) == PTOSIM_OK);
    CHECK((load ? ptosim_set_loop1_stride_outtoub(e->aiv0, &l1) : ptosim_set_loop1_stride_ubtoout(e->aiv0, &l1)) ==
          PTOSIM_OK);
    CHECK((load ? ptosim_set_loop2_stride_outtoub(e->aiv0, &l2) : ptosim_set_loop2_stride_ubtoout(e->aiv0, &l2)) ==
          PTOSIM_OK);
  }
  if (rnd(4) == 0) {
    ptosim_pad_val_params pv = {pad_types[rnd(6)], pt_rand_u64(&seed)};
    CHECK(ptosim_set_mov_pad_val(e->aiv0, &pv) == PTOSIM_OK);
    unsigned bits = pv.dtype == PTOSIM_DT_I8 ? 8 : pv.dtype == PTOSIM_DT_I32 || pv.dtype == PTOSIM_DT_F32 ? 32 : 16;
    padreg = pv.bits & ((1ull << bits) - 1);
  }
  ptosim_dtype t = all_types[rnd(NTYPES)];
  ref r;
  memset(&r, 0, sizeof r);
  r.len = rnd(200);
  r.u = 1;
  int64_t n = rnd(5), ss = rnd(10) * (load ? 37 : 32), ds = rnd(10) * (load ? 32 : 37);
  ref_level(&r, n, ss, ds);
  ref_regs(&r, g);
  if (!load) {
    ptosim_copy_ub_gm_params p = {.sid = rnd(16), .n_burst = n, .len_burst = r.len, .dst_stride = ds, .src_stride = ss};
    set_ptrs(e, &p.src, &p.dst, &r, PTOSIM_UB, PTOSIM_GM, t);
    finish_case(e, &r, ptosim_copy_ubuf_to_gm(e->aiv0, &p), "copy_ubuf_to_gm", it, 0);
    return;
  }
  ptosim_copy_gm_ub_params p = {.sid = rnd(16), .n_burst = n, .len_burst = r.len, .data_select = rnd(2),
                                .l2_cache_ctl = rnd(16), .src_stride = ss, .dst_stride = ds};
  set_ptrs(e, &p.src, &p.dst, &r, PTOSIM_GM, PTOSIM_UB, t);
  unsigned es = elem_bytes(t);
  r.u = es == 8 ? 4 : es;
  if (rnd(2)) {
    p.left_pad = r.lp = rnd(8);
    p.right_pad = r.rp = rnd(8);
  }
  r.pad = p.data_select;
  r.padv = padreg;
  finish_case(e, &r, ptosim_copy_gm_to_ubuf(e->aiv0, &p), "copy_gm_to_ubuf", it, 0);
}

static void test_legacy_gm_ub(void) {
  random_cases(300, legacy_gm_ub_case);
  /* the other vector core still has reset registers: one plain burst group */
  env e = env_new(PTOSIM_TARGET_A5);
  ptosim_loop_size_params ls = {3, 3};
  CHECK(ptosim_set_loop_size_ubtoout(e.aiv0, &ls) == PTOSIM_OK);
  ptosim_copy_ub_gm_params q = {ptosim_ptr_make(PTOSIM_UB, PTOSIM_DT_I8, 0), ptosim_ptr_make(PTOSIM_GM, PTOSIM_DT_I8, e.gm_addr),
                                0, 2, 64, 0, 100, 64};
  ref r = one_group(PTOSIM_UB, PTOSIM_GM, 1, 0, 0, 64, 2, 64, 100);
  expect_ref(&e, &r, ptosim_copy_ubuf_to_gm(e.aiv1, &q), "legacy ub_gm on aiv1 with reset registers");
  env_free(&e);
}

/* The grouped form and the legacy form with the same loops write the same bytes. */
static void test_legacy_matches_grouped(void) {
  env e = env_new(PTOSIM_TARGET_A5);
  ptosim_dma_params p;
  memset(&p, 0, sizeof p);
  p.src = ptosim_ptr_make(PTOSIM_GM, PTOSIM_DT_F16, e.gm_addr + 10);
  p.dst = ptosim_ptr_make(PTOSIM_UB, PTOSIM_DT_F16, 0);
  p.len_burst = 70;
  p.nburst = (ptosim_loop){3, 90, 96};
  p.nloops = 2;
  p.loops[0] = (ptosim_loop){2, 300, 320};
  p.loops[1] = (ptosim_loop){3, 700, 704};
  p.has_pad = true;
  p.pad_bits = 0x7E00;
  p.right_pad = 3;
  CHECK(ptosim_mte_gm_ub(e.aiv0, &p) == PTOSIM_OK);
  uint8_t first[4096], second[4096];
  ptosim_mem_read(e.aiv0, PTOSIM_UB, 0, first, sizeof first);
  ptosim_loop_size_params ls = {2, 3};
  ptosim_loop_stride_params l1 = {300, 320}, l2 = {700, 704};
  ptosim_pad_val_params pv = {PTOSIM_DT_F16, 0x7E00};
  CHECK(ptosim_set_loop_size_outtoub(e.aiv1, &ls) == PTOSIM_OK);
  CHECK(ptosim_set_loop1_stride_outtoub(e.aiv1, &l1) == PTOSIM_OK);
  CHECK(ptosim_set_loop2_stride_outtoub(e.aiv1, &l2) == PTOSIM_OK);
  CHECK(ptosim_set_mov_pad_val(e.aiv1, &pv) == PTOSIM_OK);
  ptosim_copy_gm_ub_params q = {p.src, p.dst, 0, 3, 70, 0, 3, true, 0, 90, 96};
  ptosim_mem_write(e.aiv1, PTOSIM_UB, 0, e.exp_ub[0], sizeof second); /* same starting bytes */
  CHECK(ptosim_copy_gm_to_ubuf(e.aiv1, &q) == PTOSIM_OK);
  ptosim_mem_read(e.aiv1, PTOSIM_UB, 0, second, sizeof second);
  CHECK(!memcmp(first, second, sizeof first));
  env_free(&e);
}

/* copy_gm_to_cbuf with the packed OUTTOL1 register images. */
static void legacy_gm_l1_case(env *e, int it) {
  static regs g;
  if (it == 0) g = (regs){1, 1, 0, 0, 0, 0};
  if (it >= 3 && rnd(2)) {
    random_regs(&g, 1, 1);
    ptosim_loop_reg_params size = {(uint64_t)g.c2 << 21 | (uint64_t)g.c1};
    ptosim_loop_reg_params s1 = {(uint64_t)g.d1 << 40 | (uint64_t)g.s1}, s2 = {(uint64_t)g.d2 << 40 | (uint64_t)g.s2};
    CHECK(ptosim_set_loop_size_outtol1(e->aic, &size) == PTOSIM_OK);
    CHECK(ptosim_set_loop1_stride_outtol1(e->aic, &s1) == PTOSIM_OK);
    CHECK(ptosim_set_loop2_stride_outtol1(e->aic, &s2) == PTOSIM_OK);
  }
  ref r;
  memset(&r, 0, sizeof r);
  r.len = rnd(300);
  r.u = 1;
  ptosim_copy_gm_l1_params p = {.n_burst = rnd(5), .len_burst = r.len, .src_stride = rnd(500), .dst_stride = rnd(500)};
  ref_level(&r, p.n_burst, p.src_stride, p.dst_stride);
  ref_regs(&r, &g);
  set_ptrs(e, &p.src, &p.dst, &r, PTOSIM_GM, PTOSIM_L1, all_types[rnd(NTYPES)]);
  finish_case(e, &r, ptosim_copy_gm_to_cbuf(e->aic, &p), "copy_gm_to_cbuf", it, 0);
}

/* copy_ubuf_to_ubuf, copy_ubuf_to_cbuf (A5) and copy_cbuf_to_ubuf (A5, sid = sub-block). */
static void legacy_gap_case(env *e, int it) {
  static const ptosim_space from[3] = {PTOSIM_UB, PTOSIM_UB, PTOSIM_L1}, to[3] = {PTOSIM_UB, PTOSIM_L1, PTOSIM_UB};
  static const char *const names[3] = {"copy_ubuf_to_ubuf", "copy_ubuf_to_cbuf", "copy_cbuf_to_ubuf"};
  int kind = it % 3, sub = (int)rnd(2);
  ptosim_copy_gap_params p = {.sid = kind == 2 ? sub : rnd(16), .n_burst = rnd(7), .len_burst = rnd(7),
                              .src_gap = rnd(4), .dst_gap = rnd(4)};
  ref r;
  memset(&r, 0, sizeof r);
  ref_gap(&r, p.n_burst, p.len_burst, p.src_gap, p.dst_gap);
  set_ptrs(e, &p.src, &p.dst, &r, from[kind], to[kind], all_types[rnd(NTYPES)]);
  r.sub = sub;
  ptosim_core *vec = sub ? e->aiv1 : e->aiv0;
  ptosim_status st = kind == 0   ? ptosim_copy_ubuf_to_ubuf(vec, &p)
                     : kind == 1 ? ptosim_copy_ubuf_to_cbuf(vec, &p)
                                 : ptosim_copy_cbuf_to_ubuf(e->aic, &p);
  finish_case(e, &r, st, names[kind], it, kind != 0);
}

static void test_legacy_gm_l1(void) { random_cases(300, legacy_gm_l1_case); }
static void test_legacy_gap(void) { random_cases(300, legacy_gap_case); }

/* ---- negative tests: one per rule, memory untouched ----------------------------------- */

static void expect_rule(env *e, ptosim_status st, ptosim_status want, const char *rule, const char *ctx) {
  const ptosim_diag *d = ptosim_last_diag(e->m);
  CHECK_MSG(st == want && !strcmp(d->rule, rule), "%s: status %d rule %s (%s), expected %d %s", ctx, st, d->rule, d->msg,
            want, rule);
  CHECK_MSG(d->msg[0] && d->hint[0], "%s: diagnostic without message or hint", ctx);
  check_all(e, ctx);
}

/* A valid mte_gm_ub (f16, 4 rows of 64 bytes, one loop) to break one field at a time. */
static ptosim_dma_params good_load(env *e) {
  ptosim_dma_params p;
  memset(&p, 0, sizeof p);
  p.src = ptosim_ptr_make(PTOSIM_GM, PTOSIM_DT_F16, e->gm_addr);
  p.dst = ptosim_ptr_make(PTOSIM_UB, PTOSIM_DT_F16, 256);
  p.len_burst = 64;
  p.nburst = (ptosim_loop){4, 64, 96};
  p.nloops = 1;
  p.loops[0] = (ptosim_loop){2, 256, 512};
  return p;
}

static ptosim_dma_params good_store(env *e) {
  ptosim_dma_params p = good_load(e);
  ptosim_ptr t = p.src;
  p.src = p.dst;
  p.dst = t;
  p.nburst = (ptosim_loop){4, 96, 64};
  p.loops[0] = (ptosim_loop){2, 512, 256};
  return p;
}

/* Run op on a copy of the good params `base` edited by `stmt` (which names them p). */
#define BAD(base, op, stmt, st, rule)                    \
  do {                                                   \
    ptosim_dma_params p_ = base(&e);                     \
    ptosim_dma_params *p = &p_;                          \
    stmt;                                                \
    expect_rule(&e, op(e.aiv0, p), st, rule, #stmt);     \
  } while (0)
#define BAD_LOAD(stmt, st, rule) BAD(good_load, ptosim_mte_gm_ub, stmt, st, rule)
#define BAD_STORE(stmt, st, rule) BAD(good_store, ptosim_mte_ub_gm, stmt, st, rule)

static void test_grouped_errors(void) {
  env e = env_new(PTOSIM_TARGET_A5);
  const ptosim_status V = PTOSIM_E_VERIFY, F = PTOSIM_E_FAULT;
  /* the base cases are fine */
  ptosim_dma_params ok = good_load(&e);
  CHECK(ptosim_mte_gm_ub(e.aiv0, &ok) == PTOSIM_OK);
  ptosim_mem_read(e.aiv0, PTOSIM_UB, 0, e.exp_ub[0], e.cap_ub);
  ok = good_store(&e);
  CHECK(ptosim_mte_ub_gm(e.aiv0, &ok) == PTOSIM_OK);
  memcpy(e.exp_gm, e.gm, GM_BYTES);
  check_all(&e, "base cases");
  /* field widths of 02-dma-copy.md */
  BAD_LOAD(p->len_burst = 65536, V, "dma.field");
  BAD_LOAD(p->len_burst = -1, V, "dma.field");
  BAD_LOAD(p->nburst.count = 65536, V, "dma.field");
  BAD_LOAD(p->nburst.src_stride = 1ll << 40, V, "dma.field");
  BAD_LOAD(p->nburst.dst_stride = 1ll << 21, V, "dma.field");
  BAD_LOAD(p->loops[0].count = 1ll << 21, V, "dma.field");
  BAD_LOAD(p->loops[0].src_stride = -32, V, "dma.field");
  BAD_LOAD(p->loops[0].dst_stride = 1ll << 21, V, "dma.field");
  BAD_LOAD((p->has_pad = true, p->left_pad = 256), V, "dma.field");
  BAD_LOAD((p->has_pad = true, p->right_pad = 256), V, "dma.field");
  BAD_LOAD(p->l2_cache_ctl = 4, V, "dma.field");
  BAD_STORE(p->nburst.src_stride = 1ll << 21, V, "dma.field");
  BAD_STORE(p->nburst.dst_stride = 1ll << 40, V, "dma.field");
  BAD_STORE(p->loops[0].src_stride = 1ll << 21, V, "dma.field");
  /* clauses, types, spaces */
  BAD_LOAD(p->nloops = 17, V, "dma.nloops");
  BAD_LOAD(p->nloops = -1, V, "dma.nloops");
  BAD_LOAD(p->dst.dtype = PTOSIM_DT_NONE, V, "dma.dtype");
  BAD_LOAD(p->dst.dtype = PTOSIM_DT_F32, V, "dma.elem_width");
  BAD_LOAD(p->src.space = PTOSIM_UB, V, "op.space");
  BAD_LOAD(p->dst.space = PTOSIM_L1, V, "op.space");
  BAD_LOAD(p->left_pad = 1, V, "dma.pad_counts");
  BAD_LOAD((p->has_pad = true, p->src.dtype = p->dst.dtype = PTOSIM_DT_I4), V, "dma.pad_dtype");
  BAD_LOAD((p->has_pad = true, p->pad_bits = 0x10000), V, "dma.pad_value");
  BAD_STORE(p->has_pad = true, V, "dma.clause");
  BAD_STORE(p->l2_cache_ctl = 1, V, "dma.clause");
  /* UB rows stay 32-byte aligned: strides that are used, and the base address */
  BAD_LOAD(p->nburst.dst_stride = 80, V, "dma.stride_align");
  BAD_LOAD(p->loops[0].dst_stride = 16, V, "dma.stride_align");
  BAD_STORE(p->nburst.src_stride = 72, V, "dma.stride_align");
  BAD_LOAD(p->dst.addr = 16, F, "mem.align");
  BAD_STORE(p->src.addr = 8, F, "mem.align");
  /* out of the memories */
  BAD_LOAD(p->dst.addr = e.cap_ub - 32, F, "mem.bounds");
  BAD_LOAD(p->src.addr = e.gm_addr + GM_BYTES - 100, F, "mem.bounds");
  BAD_STORE(p->dst.addr = e.gm_addr - 64, F, "mem.bounds");
  /* an unused stride needs no alignment: one row with dst stride 80 is fine */
  ptosim_dma_params one = good_load(&e);
  one.nburst = (ptosim_loop){1, 0, 80};
  one.nloops = 0;
  CHECK(ptosim_mte_gm_ub(e.aiv0, &one) == PTOSIM_OK);
  memcpy(e.exp_ub[0] + 256, e.gm, 64);
  check_all(&e, "unused stride");
  /* the other grouped ops */
  ptosim_dma_params g = good_load(&e);
  g.dst = ptosim_ptr_make(PTOSIM_L1, PTOSIM_DT_F16, 0);
  g.len_burst = 1 << 21;
  expect_rule(&e, ptosim_mte_gm_l1(e.aic, &g), V, "dma.field", "gm_l1 len_burst 2^21");
  g.len_burst = 64;
  g.has_pad = true;
  expect_rule(&e, ptosim_mte_gm_l1(e.aic, &g), V, "dma.clause", "gm_l1 pad");
  ptosim_dma_params l = good_load(&e);
  l.src = ptosim_ptr_make(PTOSIM_L1, PTOSIM_DT_F16, 0);
  l.len_burst = 2;
  l.nburst = (ptosim_loop){4096, 0, 0};
  expect_rule(&e, ptosim_mte_l1_ub(e.aic, &l), V, "dma.field", "l1_ub count 4096");
  l.nburst = (ptosim_loop){2, 0, 0};
  l.loops[0] = (ptosim_loop){2, 48, 64};
  expect_rule(&e, ptosim_mte_l1_ub(e.aic, &l), V, "dma.stride_align", "l1_ub loop stride 48");
  ptosim_gap_copy_params u = {ptosim_ptr_make(PTOSIM_UB, PTOSIM_DT_I16, 0), ptosim_ptr_make(PTOSIM_UB, PTOSIM_DT_I16, 4096),
                              65536, 1, 0, 0};
  expect_rule(&e, ptosim_mte_ub_ub(e.aiv0, &u), V, "dma.field", "ub_ub len 65536");
  u.len_burst = 1;
  u.dst_gap = 65536;
  expect_rule(&e, ptosim_mte_ub_ub(e.aiv0, &u), V, "dma.field", "ub_ub dst gap 65536");
  u.dst_gap = 0;
  u.dst = ptosim_ptr_make(PTOSIM_UB, PTOSIM_DT_I16, 4100);
  expect_rule(&e, ptosim_mte_ub_ub(e.aiv0, &u), F, "mem.align", "ub_ub dst 4100");
  u.dst = ptosim_ptr_make(PTOSIM_L1, PTOSIM_DT_I16, 4096);
  expect_rule(&e, ptosim_mte_ub_ub(e.aiv0, &u), V, "op.space", "ub_ub to l1");
  expect_rule(&e, ptosim_mte_ub_l1(e.aic, &u), V, "op.unit", "ub_l1 from the cube core");
  env_free(&e);
}

static void test_legacy_errors(void) {
  env e = env_new(PTOSIM_TARGET_A5);
  const ptosim_status V = PTOSIM_E_VERIFY;
  ptosim_copy_gm_ub_params ld = {ptosim_ptr_make(PTOSIM_GM, PTOSIM_DT_I8, e.gm_addr), ptosim_ptr_make(PTOSIM_UB, PTOSIM_DT_I8, 0),
                                 0, 1, 32, 0, 0, false, 0, 32, 32};
  ld.sid = 16;
  expect_rule(&e, ptosim_copy_gm_to_ubuf(e.aiv0, &ld), V, "dma.field", "copy_gm_to_ubuf sid 16");
  ld.sid = 0;
  ld.left_pad = 64;
  expect_rule(&e, ptosim_copy_gm_to_ubuf(e.aiv0, &ld), V, "dma.field", "copy_gm_to_ubuf left 64");
  ld.left_pad = 0;
  ld.l2_cache_ctl = 16;
  expect_rule(&e, ptosim_copy_gm_to_ubuf(e.aiv0, &ld), V, "dma.field", "copy_gm_to_ubuf l2 16");
  ld.l2_cache_ctl = 0;
  ld.dst.dtype = PTOSIM_DT_I16;
  expect_rule(&e, ptosim_copy_gm_to_ubuf(e.aiv0, &ld), V, "dma.elem_width", "copy_gm_to_ubuf i8 -> i16");
  ld.dst.dtype = PTOSIM_DT_I8;
  ptosim_copy_gm_ub_params back = ld; /* the direction is part of the op */
  back.src = ld.dst;
  back.dst = ld.src;
  expect_rule(&e, ptosim_copy_gm_to_ubuf(e.aiv0, &back), V, "op.space", "copy_gm_to_ubuf from ub to gm");
  /* a loop register with a UB stride that breaks row alignment fails at the copy */
  ptosim_loop_size_params ls = {2, 1};
  ptosim_loop_stride_params st = {100, 48};
  CHECK(ptosim_set_loop_size_outtoub(e.aiv0, &ls) == PTOSIM_OK);
  CHECK(ptosim_set_loop1_stride_outtoub(e.aiv0, &st) == PTOSIM_OK);
  expect_rule(&e, ptosim_copy_gm_to_ubuf(e.aiv0, &ld), V, "dma.stride_align", "loop1 ub stride 48");
  ls.loop1_count = 1 << 21;
  expect_rule(&e, ptosim_set_loop_size_outtoub(e.aiv0, &ls), V, "dma.field", "loop1 count 2^21");
  st.src_stride = 1ll << 40;
  expect_rule(&e, ptosim_set_loop1_stride_outtoub(e.aiv0, &st), V, "dma.field", "outtoub gm stride 2^40");
  st = (ptosim_loop_stride_params){1 << 21, 0};
  expect_rule(&e, ptosim_set_loop2_stride_ubtoout(e.aiv0, &st), V, "dma.field", "ubtoout ub stride 2^21");
  expect_rule(&e, ptosim_set_loop2_stride_outtoub(e.aic, &st), V, "op.unit", "outtoub register from the cube core");
  ptosim_copy_ub_gm_params sd = {ptosim_ptr_make(PTOSIM_UB, PTOSIM_DT_I8, 0), ptosim_ptr_make(PTOSIM_GM, PTOSIM_DT_I8, e.gm_addr),
                                 0, 1, 32, 1, 32, 32};
  expect_rule(&e, ptosim_copy_ubuf_to_gm(e.aiv0, &sd), V, "dma.reserved", "copy_ubuf_to_gm reserved 1");
  sd.reserved = 0;
  sd.sid = -1;
  expect_rule(&e, ptosim_copy_ubuf_to_gm(e.aiv0, &sd), V, "dma.field", "copy_ubuf_to_gm sid -1");
  ptosim_copy_gm_l1_params gl = {ptosim_ptr_make(PTOSIM_GM, PTOSIM_DT_I8, e.gm_addr), ptosim_ptr_make(PTOSIM_L1, PTOSIM_DT_I8, 0),
                                 1, 1 << 21, 0, 0};
  expect_rule(&e, ptosim_copy_gm_to_cbuf(e.aic, &gl), V, "dma.field", "copy_gm_to_cbuf len 2^21");
  ptosim_loop_reg_params reg = {1ull << 42};
  expect_rule(&e, ptosim_set_loop_size_outtol1(e.aic, &reg), V, "dma.reg_value", "outtol1 size bit 42");
  reg.value = 1ull << 61;
  expect_rule(&e, ptosim_set_loop1_stride_outtol1(e.aic, &reg), V, "dma.reg_value", "outtol1 stride bit 61");
  expect_rule(&e, ptosim_set_loop2_stride_outtol1(e.aic, &reg), V, "dma.reg_value", "outtol1 stride bit 61");
  ptosim_pad_val_params pv = {PTOSIM_DT_U8, 1};
  expect_rule(&e, ptosim_set_mov_pad_val(e.aiv0, &pv), V, "dma.pad_type", "pad value u8");
  pv.dtype = PTOSIM_DT_I64;
  expect_rule(&e, ptosim_set_mov_pad_val(e.aiv0, &pv), V, "dma.pad_type", "pad value i64");
  ptosim_copy_gap_params gp = {ptosim_ptr_make(PTOSIM_L1, PTOSIM_DT_I8, 0), ptosim_ptr_make(PTOSIM_UB, PTOSIM_DT_I8, 0),
                               2, 1, 1, 0, 0};
  expect_rule(&e, ptosim_copy_cbuf_to_ubuf(e.aic, &gp), V, "dma.sid", "copy_cbuf_to_ubuf sid 2");
  gp.sid = 0;
  gp.n_burst = 4096;
  expect_rule(&e, ptosim_copy_cbuf_to_ubuf(e.aic, &gp), V, "dma.field", "copy_cbuf_to_ubuf count 4096");
  gp.src = ptosim_ptr_make(PTOSIM_UB, PTOSIM_DT_I8, 0);
  gp.dst = ptosim_ptr_make(PTOSIM_L1, PTOSIM_DT_I8, 0);
  gp.n_burst = 1;
  gp.sid = 16;
  expect_rule(&e, ptosim_copy_ubuf_to_cbuf(e.aiv0, &gp), V, "dma.field", "copy_ubuf_to_cbuf sid 16");
  gp.dst = ptosim_ptr_make(PTOSIM_UB, PTOSIM_DT_I8, 64);
  gp.sid = 65536;
  expect_rule(&e, ptosim_copy_ubuf_to_ubuf(e.aiv0, &gp), V, "dma.field", "copy_ubuf_to_ubuf sid 65536");
  env_free(&e);
  env a2 = env_new(PTOSIM_TARGET_A2A3);
  gp.sid = 0;
  gp.dst = ptosim_ptr_make(PTOSIM_L1, PTOSIM_DT_I8, 0);
  expect_rule(&a2, ptosim_copy_ubuf_to_cbuf(a2.aiv0, &gp), V, "dma.path", "copy_ubuf_to_cbuf on a2a3");
  env_free(&a2);
}

/* A random test must have run many transfers to completion and seen some bounds faults. */
static void covered(const char *name) {
  fprintf(stderr, "  %s: %d transfers checked, %d bounds faults checked\n", name, n_ok, n_fault);
  CHECK(n_ok >= 100 && n_fault >= 5);
  n_ok = n_fault = 0;
}

/* ---- the GM atomic mode of MTE3 UB -> GM copies (pto.set_atomic_*) -------------------------- */

/* Element i of an atomic case as a double: small integers, exact in every type. */
static double atom_val(ptosim_dtype t, const uint8_t *p) {
  switch (t) {
  case PTOSIM_DT_I8: return (int8_t)p[0];
  case PTOSIM_DT_I16: { int16_t v; memcpy(&v, p, 2); return v; }
  case PTOSIM_DT_I32: { int32_t v; memcpy(&v, p, 4); return v; }
  case PTOSIM_DT_F32: { float v; memcpy(&v, p, 4); return v; }
  default: { uint16_t h; memcpy(&h, p, 2); return t == PTOSIM_DT_F16 ? pt_f16_to_f32(h) : pt_bf16_to_f32(h); }
  }
}

static void atom_put(ptosim_dtype t, uint8_t *p, double v) {
  switch (t) {
  case PTOSIM_DT_I8: p[0] = (uint8_t)(int8_t)v; break;
  case PTOSIM_DT_I16: { int16_t x = (int16_t)v; memcpy(p, &x, 2); break; }
  case PTOSIM_DT_I32: { int32_t x = (int32_t)v; memcpy(p, &x, 4); break; }
  case PTOSIM_DT_F32: { float x = (float)v; memcpy(p, &x, 4); break; }
  default: {
    uint16_t h = t == PTOSIM_DT_F16 ? pt_f32_to_f16((float)v, PT_RND_RINT, PT_SAT_OFF) : pt_f32_to_bf16((float)v, PT_RND_RINT, PT_SAT_OFF);
    memcpy(p, &h, 2);
  }
  }
}

/* Two bursts of 64 bytes from UB 0 / 96 to GM +64 / +192: with the mode set, each element of
 * the written rows is op(old gm, ub) (sums of small integers: exact; s8 wraps), the bytes
 * between and around them keep their value; then set_atomic_none writes plainly again. */
static void test_gm_atomics(void) {
  static const struct { ptosim_dtype t; ptosim_atomic_op op; } cases[] = {
      {PTOSIM_DT_I32, PTOSIM_ATOMIC_ADD}, {PTOSIM_DT_I8, PTOSIM_ATOMIC_ADD},  {PTOSIM_DT_I8, PTOSIM_ATOMIC_MAX},
      {PTOSIM_DT_I16, PTOSIM_ATOMIC_MIN}, {PTOSIM_DT_F32, PTOSIM_ATOMIC_ADD}, {PTOSIM_DT_F16, PTOSIM_ATOMIC_MAX},
      {PTOSIM_DT_BF16, PTOSIM_ATOMIC_MIN}, {PTOSIM_DT_F16, PTOSIM_ATOMIC_ADD}};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    env e = env_new(PTOSIM_TARGET_A5);
    ptosim_dtype t = cases[c].t;
    unsigned es = elem_bytes(t);
    uint8_t ub[160], want[GM_BYTES];
    for (unsigned i = 0; i < sizeof ub; i += es) atom_put(t, ub + i, (double)(rnd(201) - 100));
    for (unsigned i = 0; i < 320; i += es) atom_put(t, e.gm + i, (double)(rnd(201) - 100));
    memcpy(want, e.gm, GM_BYTES);
    CHECK(ptosim_mem_write(e.aiv0, PTOSIM_UB, 0, ub, sizeof ub) == PTOSIM_OK);
    for (int r = 0; r < 2; r++)
      for (unsigned i = 0; i < 64; i += es) {
        double a = atom_val(t, want + 64 + 128 * r + i), b = atom_val(t, ub + 96 * r + i);
        double v = cases[c].op == PTOSIM_ATOMIC_ADD ? a + b : cases[c].op == PTOSIM_ATOMIC_MAX ? (b > a ? b : a) : (b < a ? b : a);
        if (t == PTOSIM_DT_I8) v = (double)(int8_t)(uint8_t)(int)v; /* wraps */
        atom_put(t, want + 64 + 128 * r + i, v);
      }
    ptosim_atomic_mode_params mt = {.type = t}, mo = {.op = cases[c].op};
    ptosim_opcode type_row = t == PTOSIM_DT_I32 ? PTOSIM_OP_set_atomic_s32 : t == PTOSIM_DT_I16 ? PTOSIM_OP_set_atomic_s16
                           : t == PTOSIM_DT_I8 ? PTOSIM_OP_set_atomic_s8 : t == PTOSIM_DT_F32 ? PTOSIM_OP_set_atomic_f32
                           : t == PTOSIM_DT_F16 ? PTOSIM_OP_set_atomic_f16 : PTOSIM_OP_set_atomic_bf16;
    ptosim_opcode op_row = cases[c].op == PTOSIM_ATOMIC_ADD ? PTOSIM_OP_set_atomic_add
                         : cases[c].op == PTOSIM_ATOMIC_MAX ? PTOSIM_OP_set_atomic_max : PTOSIM_OP_set_atomic_min;
    CHECK(ptosim_exec(e.aiv0, op_row, &mo, NULL) == PTOSIM_OK); /* either order */
    CHECK(ptosim_exec(e.aiv0, type_row, &mt, NULL) == PTOSIM_OK);
    ptosim_dma_params p = {.src = ptosim_ptr_make(PTOSIM_UB, t, 0), .dst = ptosim_ptr_make(PTOSIM_GM, t, e.gm_addr + 64),
                           .len_burst = 64, .nburst = {2, 96, 128}};
    CHECK(ptosim_mte_ub_gm(e.aiv0, &p) == PTOSIM_OK);
    CHECK_MSG(!memcmp(e.gm, want, GM_BYTES), "case %zu", c);
    /* set_atomic_none: a plain copy again */
    ptosim_atomic_mode_params none = {.op = PTOSIM_ATOMIC_NONE};
    CHECK(ptosim_set_atomic_none(e.aiv0, &none) == PTOSIM_OK);
    CHECK(ptosim_mte_ub_gm(e.aiv0, &p) == PTOSIM_OK);
    CHECK(!memcmp(e.gm + 64, ub, 64) && !memcmp(e.gm + 192, ub + 96, 64));
    env_free(&e);
  }
  /* rules: an operation without a type, rows that split elements, a type that is no atomic type */
  env e = env_new(PTOSIM_TARGET_A5);
  ptosim_atomic_mode_params add = {.op = PTOSIM_ATOMIC_ADD}, s32 = {.type = PTOSIM_DT_I32}, u8 = {.type = PTOSIM_DT_U8};
  ptosim_dma_params p = {.src = ptosim_ptr_make(PTOSIM_UB, PTOSIM_DT_I32, 0), .dst = ptosim_ptr_make(PTOSIM_GM, PTOSIM_DT_I32, e.gm_addr),
                         .len_burst = 64, .nburst = {1, 0, 0}};
  CHECK(ptosim_set_atomic_add(e.aiv0, &add) == PTOSIM_OK);
  expect_rule(&e, ptosim_mte_ub_gm(e.aiv0, &p), PTOSIM_E_VERIFY, "dma.atomic", "no atomic type");
  CHECK(ptosim_set_atomic_s32(e.aiv0, &s32) == PTOSIM_OK);
  p.len_burst = 6;
  expect_rule(&e, ptosim_mte_ub_gm(e.aiv0, &p), PTOSIM_E_VERIFY, "dma.atomic", "6-byte rows of s32");
  expect_rule(&e, ptosim_set_atomic_s8(e.aiv0, &u8), PTOSIM_E_VERIFY, "regs.atomic", "u8 atomic type");
  env_free(&e);
}

int main(void) {
  RUN(test_gm_ub_random);
  covered("mte_gm_ub");
  RUN(test_ub_gm_random);
  covered("mte_ub_gm");
  RUN(test_gm_l1_random);
  covered("mte_gm_l1");
  RUN(test_l1_ub_random);
  covered("mte_l1_ub");
  RUN(test_gap_ops_random);
  covered("mte_ub_ub / mte_ub_l1");
  RUN(test_legacy_gm_ub);
  covered("copy_gm_to_ubuf / copy_ubuf_to_gm");
  RUN(test_legacy_gm_l1);
  covered("copy_gm_to_cbuf");
  RUN(test_legacy_gap);
  covered("copy_ubuf_to_ubuf / copy_ubuf_to_cbuf / copy_cbuf_to_ubuf");
  RUN(test_legacy_matches_grouped);
  RUN(test_gm_ub_examples);
  RUN(test_cores);
  RUN(test_events);
  RUN(test_grouped_errors);
  RUN(test_legacy_errors);
  RUN(test_gm_atomics);
  return pt_test_finish();
}
