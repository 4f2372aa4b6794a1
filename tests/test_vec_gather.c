/* Vector gathers and scatters (src/isa/vec_gather.c) against references written here from
 * the chapter 03 formulas, lane by lane: every (element, offset) width pair, every mask
 * shape, duplicate indices, untouched bytes over the whole UB, the byte ranges recorded for
 * the checkers (exact, or a superset ending at the last byte once the event overflows), the
 * init checker seeing only the indexed bytes, one .pto program, and every rule. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/event.h"
#include "core/machine.h"
#include "harness.h"
#include "ptosim/monitor.h"
#include "ptosim/program.h"
#include "ptosim/ptosim.h"

static unsigned long long seed = 0x9a7e5eedULL;
static unsigned rnd(unsigned n) { return (unsigned)(pt_rand_u64(&seed) % n); }

typedef struct env {
  ptosim_machine *m;
  ptosim_core *v;
  uint64_t cap;
  uint8_t *img, *got;
} env;

static env env_new(ptosim_target t) {
  env e;
  e.m = ptosim_machine_new(t, 1);
  e.v = ptosim_core_of(e.m, 0, PTOSIM_AIV0);
  e.cap = ptosim_space_capacity(e.m, PTOSIM_UB);
  e.img = malloc(e.cap);
  e.got = malloc(e.cap);
  for (uint64_t i = 0; i < e.cap; i++) e.img[i] = (uint8_t)pt_rand_u64(&seed);
  if (e.v) CHECK(ptosim_mem_write(e.v, PTOSIM_UB, 0, e.img, e.cap) == PTOSIM_OK);
  return e;
}

static void env_free(env *e) {
  free(e->img);
  free(e->got);
  ptosim_machine_free(e->m);
}

static int ub_matches(env *e) {
  CHECK(ptosim_mem_read(e->v, PTOSIM_UB, 0, e->got, e->cap) == PTOSIM_OK);
  return !memcmp(e->got, e->img, e->cap);
}

static ptosim_ptr ub(ptosim_dtype dt, uint64_t a) { return ptosim_ptr_make(PTOSIM_UB, dt, a); }

/* Masks: 0 all, 1 none, 2 prefix, 3 alternating bytes, 4 random bits. */
static void make_mask(ptosim_vmask *m, int kind) {
  unsigned n = rnd(257);
  memset(m->b, 0, sizeof m->b);
  for (unsigned j = 0; j < 256; j++) {
    int bit = kind == 0 ? 1 : kind == 1 ? 0 : kind == 2 ? j < n : kind == 3 ? (j / 8) % 2 == 0 : (int)rnd(2);
    m->b[j / 8] |= (uint8_t)(bit << (j % 8));
  }
}
static int mbit(const ptosim_vmask *m, unsigned j) { return m->b[j / 8] >> (j % 8) & 1; }

/* Lane i of an offsets register of w-byte lanes, unsigned. */
static uint32_t off_at(const ptosim_vreg *o, unsigned w, unsigned i) {
  uint32_t v = 0;
  for (unsigned b = 0; b < w; b++) v |= (uint32_t)o->b[i * w + b] << (8 * b);
  return v;
}
static void set_off(ptosim_vreg *o, unsigned w, unsigned i, uint32_t v) {
  for (unsigned b = 0; b < w; b++) o->b[i * w + b] = (uint8_t)(v >> (8 * b));
}

/* ---- recorded ranges ------------------------------------------------------------------- */

#define WIN 8192
static uint8_t seen[WIN];
static uint64_t seen_lo;
static int seen_outside, seen_overflow;
static void mark(void *user, const pt_event *ev) {
  (void)user;
  seen_overflow |= ev->overflow;
  for (int i = 0; i < ev->nranges; i++) {
    const pt_range *r = &ev->ranges[i];
    int64_t n = r->nd ? r->count[0] : 1, s = r->nd ? r->stride[0] : 0;
    for (int64_t c = 0; c < n; c++)
      for (uint64_t b = 0; b < r->len; b++) {
        uint64_t a = r->addr + (uint64_t)(c * s) + b;
        if (a < seen_lo || a >= seen_lo + WIN) seen_outside = 1;
        else seen[a - seen_lo] |= r->access;
      }
  }
}

/* The recorded bytes equal the accessed ones `want` (access bits), or, after an overflow,
 * are a superset that ends at the last accessed byte. */
static int recorded_ok(const uint8_t *want) {
  if (seen_outside) return 0;
  if (!seen_overflow) return !memcmp(seen, want, WIN);
  int last_w = -1, last_s = -1;
  for (int b = 0; b < WIN; b++) {
    if (want[b] && seen[b] != want[b]) return 0;
    if (want[b]) last_w = b;
    if (seen[b]) last_s = b;
  }
  return last_w == last_s;
}

/* ---- element gathers and scatters ------------------------------------------------------- */

static const ptosim_dtype ots[4] = {PTOSIM_DT_U16, PTOSIM_DT_I16, PTOSIM_DT_U32, PTOSIM_DT_I32};
static const ptosim_dtype ets[3] = {PTOSIM_DT_U8, PTOSIM_DT_F16, PTOSIM_DT_F32};

/* Offsets: 0 random in the window, 1 a permutation-like stride, 2 all equal, 3 contiguous. */
static void make_offsets(ptosim_vreg *o, unsigned w, unsigned es, int kind) {
  unsigned n = 256 / w, lim = WIN / es;
  unsigned st = 1 + rnd(lim / n), k0 = rnd(lim - n * st + 1), same = rnd(lim);
  for (unsigned i = 0; i < n; i++) {
    uint32_t v = kind == 0 ? rnd(lim) : kind == 1 ? k0 + i * st : kind == 2 ? same : k0 + i;
    set_off(o, w, i, v);
  }
}

static void test_gather_scatter(void) {
  env e = env_new(PTOSIM_TARGET_A5);
  e.m->listener = mark;
  uint8_t want[WIN];
  for (int it = 0; it < 600; it++) {
    unsigned ti = (unsigned)it % 4, w = ti < 2 ? 2 : 4, ei = rnd(w == 2 ? 2 : 3), es = 1u << ei;
    int kind = it / 4 % 5, okind = it / 20 % 4, op = it / 80 % 3; /* 0 vgather2, 1 vgather2_bc, 2 vscatter */
    if (op == 1 && w != 4) op = 0;
    uint64_t base = (uint64_t)rnd((unsigned)((e.cap - WIN) / es)) * es;
    ptosim_vreg off, src, dst;
    ptosim_vmask m;
    for (int b = 0; b < 256; b++) src.b[b] = (uint8_t)pt_rand_u64(&seed), dst.b[b] = 0xEE;
    make_offsets(&off, w, es, okind);
    make_mask(&m, kind);
    memset(seen, 0, sizeof seen), memset(want, 0, sizeof want);
    seen_lo = base, seen_outside = seen_overflow = 0;
    unsigned n = 256 / w;
    if (op < 2) {
      ptosim_vgather_params p = {&dst, ub(ets[ei], base), &off, ots[ti], &m, 8 * w};
      ptosim_status st = op ? ptosim_vgather2_bc(e.v, &p) : ptosim_vgather2(e.v, &p);
      CHECK_MSG(st == PTOSIM_OK, "gather: %s", ptosim_last_diag(e.m)->msg);
      for (unsigned i = 0; i < n; i++) {
        int act = mbit(&m, i * w);
        uint64_t a = base + (uint64_t)off_at(&off, w, i) * es;
        for (unsigned b = 0; b < w; b++) {
          uint8_t ref = act && b < es ? e.img[a + b] : 0;
          CHECK_MSG(dst.b[i * w + b] == ref, "op %d e%u w%u mask %d lane %u byte %u", op, es, w, kind, i, b);
          if (act && b < es) want[a - base + b] = 1;
        }
      }
      CHECK(ub_matches(&e));
    } else {
      ptosim_vscatter_params p = {&src, ub(ets[ei], base), &off, ots[ti], &m, 8 * w};
      CHECK_MSG(ptosim_vscatter(e.v, &p) == PTOSIM_OK, "vscatter: %s", ptosim_last_diag(e.m)->msg);
      for (unsigned i = 0; i < n; i++) /* ascending lanes: the last alias wins */
        if (mbit(&m, i * w)) {
          uint64_t a = base + (uint64_t)off_at(&off, w, i) * es;
          memcpy(e.img + a, src.b + i * w, es);
          memset(want + (a - base), 2, es);
        }
      CHECK_MSG(ub_matches(&e), "vscatter e%u w%u mask %d offsets %d", es, w, kind, okind);
    }
    CHECK_MSG(recorded_ok(want), "op %d e%u w%u mask %d offsets %d: recorded bytes differ", op, es, w, kind, okind);
    CHECK(okind == 0 || kind == 4 || !seen_overflow); /* regular patterns fit the event */
  }
  e.m->listener = NULL;
  env_free(&e);
}

/* ---- vgatherb ---------------------------------------------------------------------------- */

static void test_gatherb(void) {
  env e = env_new(PTOSIM_TARGET_A5);
  e.m->listener = mark;
  uint8_t want[WIN];
  for (int it = 0; it < 200; it++) {
    int kind = it % 5;
    uint64_t base = (uint64_t)rnd((unsigned)((e.cap - WIN) / 32)) * 32;
    ptosim_vreg off, dst;
    ptosim_vmask m;
    for (int b = 0; b < 256; b++) off.b[b] = (uint8_t)pt_rand_u64(&seed); /* lanes 8.. are not read */
    for (unsigned b = 0; b < 8; b++) set_off(&off, 4, b, (it % 3 ? rnd(WIN / 32) : 5) * 32);
    make_mask(&m, kind);
    memset(seen, 0, sizeof seen), memset(want, 0, sizeof want);
    seen_lo = base, seen_outside = seen_overflow = 0;
    ptosim_vgather_params p = {&dst, ub(PTOSIM_DT_F32, base), &off, PTOSIM_DT_I32, &m, 32};
    CHECK_MSG(ptosim_vgatherb(e.v, &p) == PTOSIM_OK, "vgatherb: %s", ptosim_last_diag(e.m)->msg);
    for (unsigned b = 0; b < 8; b++) {
      int act = mbit(&m, 4 * b);
      uint64_t a = base + off_at(&off, 4, b);
      for (unsigned j = 0; j < 32; j++) CHECK(dst.b[32 * b + j] == (act ? e.img[a + j] : 0));
      if (act) memset(want + (a - base), 1, 32);
    }
    CHECK(ub_matches(&e));
    CHECK_MSG(recorded_ok(want) && !seen_overflow, "vgatherb mask %d: recorded bytes differ", kind);
  }
  e.m->listener = NULL;
  env_free(&e);
}

/* ---- the init checker sees exactly the gathered bytes -------------------------------------- */

/* Store f32 elements 0..63 at UB 1024 (stride 2 elements), then gather the elements listed
 * in idx: the strict init listing reports the gather iff it names an element never stored. */
static int init_findings(const uint32_t *idx, unsigned n) {
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  ptosim_core *v = ptosim_core_of(m, 0, PTOSIM_AIV0);
  ptosim_monitor_opts o = ptosim_monitor_defaults();
  o.checks |= PTOSIM_CHECK_INIT_READS;
  ptosim_monitor *mon = ptosim_monitor_attach(m, &o);
  ptosim_vreg r, off, g;
  ptosim_vmask all;
  memset(r.b, 0x3F, sizeof r.b), memset(all.b, 0xFF, sizeof all.b), memset(off.b, 0, sizeof off.b);
  for (unsigned i = 0; i < 64; i++) set_off(&off, 4, i, 2 * i);
  ptosim_vscatter_params s = {&r, ub(PTOSIM_DT_F32, 1024), &off, PTOSIM_DT_I32, &all, 32};
  CHECK(ptosim_vscatter(v, &s) == PTOSIM_OK);
  ptosim_vmask k;
  memset(k.b, 0, sizeof k.b);
  for (unsigned i = 0; i < n; i++) set_off(&off, 4, i, idx[i]), k.b[i / 2] |= (uint8_t)(1u << (i % 2 * 4));
  ptosim_vgather_params p = {&g, ub(PTOSIM_DT_F32, 1024), &off, PTOSIM_DT_I32, &k, 32};
  CHECK(ptosim_vgather2(v, &p) == PTOSIM_OK);
  ptosim_monitor_finish(mon);
  int nr = ptosim_monitor_nreports(mon), init = 0;
  for (int i = 0; i < nr; i++) init += !strcmp(ptosim_monitor_report(mon, i)->rule, "init.read");
  ptosim_monitor_free(mon);
  ptosim_machine_free(m);
  return nr == init ? init : -1;
}

static void test_checkers(void) {
  const uint32_t stored[4] = {6, 0, 126, 6}, gap[3] = {6, 7, 0}, far[2] = {0, 4000};
  CHECK(init_findings(stored, 4) == 0); /* only stored elements, in any order, duplicated */
  CHECK(init_findings(gap, 3) == 1);    /* element 7 sits between two stored ones */
  CHECK(init_findings(far, 2) == 1);
}

/* ---- a .pto program ----------------------------------------------------------------------- */

static const char prog_src[] =
    "module attributes {pto.target_arch = \"a5\", pto.kernel_kind = #pto.kernel_kind<vector>} {\n"
    "  func.func @k(%data: !pto.ptr<f16, gm>, %idx: !pto.ptr<i16, gm>, %out: !pto.ptr<f16, gm>) attributes {pto.kernel} {\n"
    "    %c0 = arith.constant 0 : index\n"
    "    %c0_i64 = arith.constant 0 : i64\n"
    "    %c1_i64 = arith.constant 1 : i64\n"
    "    %c256_i64 = arith.constant 256 : i64\n"
    "    %c1024_i64 = arith.constant 1024 : i64\n"
    "    %c1280_i64 = arith.constant 1280 : i64\n"
    "    %c2048_i64 = arith.constant 2048 : i64\n"
    "    %c2304_i64 = arith.constant 2304 : i64\n"
    "    %ub_data = pto.castptr %c0_i64 : i64 -> !pto.ptr<f16, ub>\n"
    "    %ub_idx = pto.castptr %c1024_i64 : i64 -> !pto.ptr<i16, ub>\n"
    "    %ub_out = pto.castptr %c2048_i64 : i64 -> !pto.ptr<f16, ub>\n"
    "    %ub_sc = pto.castptr %c2304_i64 : i64 -> !pto.ptr<f16, ub>\n"
    "    pto.mte_gm_ub %data, %ub_data, %c0_i64, %c1024_i64 nburst(%c1_i64, %c1024_i64, %c1024_i64)\n"
    "      : !pto.ptr<f16, gm>, !pto.ptr<f16, ub>, i64, i64, i64, i64, i64\n"
    "    pto.mte_gm_ub %idx, %ub_idx, %c0_i64, %c256_i64 nburst(%c1_i64, %c256_i64, %c256_i64)\n"
    "      : !pto.ptr<i16, gm>, !pto.ptr<i16, ub>, i64, i64, i64, i64, i64\n"
    "    pto.mte_gm_ub %out, %ub_out, %c0_i64, %c1280_i64 nburst(%c1_i64, %c1280_i64, %c1280_i64)\n"
    "      : !pto.ptr<f16, gm>, !pto.ptr<f16, ub>, i64, i64, i64, i64, i64\n"
    "    pto.set_flag[\"PIPE_MTE2\", \"PIPE_V\", \"EVENT_ID0\"]\n"
    "    pto.wait_flag[\"PIPE_MTE2\", \"PIPE_V\", \"EVENT_ID0\"]\n"
    "    pto.vecscope {\n"
    "      %all = pto.pset_b16 \"PAT_ALL\" : !pto.mask<b16>\n"
    "      %half = pto.pset_b16 \"PAT_H\" : !pto.mask<b16>\n"
    "      %off = pto.vlds %ub_idx[%c0] : !pto.ptr<i16, ub> -> !pto.vreg<128xi16>\n"
    "      %g = pto.vgather2 %ub_data, %off, %half : !pto.ptr<f16, ub>, !pto.vreg<128xi16>, !pto.mask<b16> -> !pto.vreg<128xf16>\n"
    "      pto.vsts %g, %ub_out[%c0], %all : !pto.vreg<128xf16>, !pto.ptr<f16, ub>, !pto.mask<b16>\n"
    "      pto.vscatter %g, %ub_sc, %off, %all : !pto.vreg<128xf16>, !pto.ptr<f16, ub>, !pto.vreg<128xi16>, !pto.mask<b16>\n"
    "    }\n"
    "    pto.set_flag[\"PIPE_V\", \"PIPE_MTE3\", \"EVENT_ID0\"]\n"
    "    pto.wait_flag[\"PIPE_V\", \"PIPE_MTE3\", \"EVENT_ID0\"]\n"
    "    pto.mte_ub_gm %ub_out, %out, %c1280_i64 nburst(%c1_i64, %c1280_i64, %c1280_i64)\n"
    "      : !pto.ptr<f16, ub>, !pto.ptr<f16, gm>, i64, i64, i64, i64\n"
    "    pto.barrier #pto.pipe<PIPE_ALL>\n"
    "    return\n"
    "  }\n"
    "}\n";

/* out[0, 128) = data[idx[i]] for the first 64 lanes (PAT_H), 0 after; out[128 + idx[i]] =
 * that gathered value for every lane (duplicates: the higher lane); other bytes kept. */
static void test_text(void) {
  ptosim_program *p = pt_test_load(prog_src, sizeof prog_src - 1);
  CHECK(p != NULL);
  if (!p) return;
  ptosim_machine *m = ptosim_machine_new(ptosim_program_target(p), 1);
  uint16_t data[512], out[640], want[640];
  int16_t idx[128];
  for (int i = 0; i < 512; i++) data[i] = (uint16_t)pt_rand_u64(&seed);
  for (int i = 0; i < 640; i++) out[i] = want[i] = (uint16_t)(0xA000 + i);
  for (int i = 0; i < 128; i++) idx[i] = (int16_t)(i % 7 == 3 ? idx[i - 1] : (i * 37 + 11) % 512);
  for (int i = 0; i < 128; i++) {
    uint16_t g = i < 64 ? data[idx[i]] : 0;
    want[i] = g;
    want[128 + idx[i]] = g;
  }
  ptosim_arg args[3];
  ptosim_gm_map(m, data, sizeof data, &args[0].gm_addr);
  ptosim_gm_map(m, idx, sizeof idx, &args[1].gm_addr);
  ptosim_gm_map(m, out, sizeof out, &args[2].gm_addr);
  CHECK_MSG(ptosim_program_run(p, m, args) == PTOSIM_OK, "%s", ptosim_last_diag(m)->msg);
  CHECK(!memcmp(out, want, sizeof out));
  ptosim_machine_free(m);
  ptosim_program_free(p);
}

/* ---- rules ---------------------------------------------------------------------------------- */

#define FAILS(call, st, id) \
  CHECK_MSG((call) == (st) && !strcmp(ptosim_last_diag(e.m)->rule, id), "%s: %s", id, ptosim_last_diag(e.m)->rule)

static void test_rules(void) {
  env e = env_new(PTOSIM_TARGET_A5);
  ptosim_vreg off, r;
  ptosim_vmask all, none;
  memset(off.b, 0, sizeof off.b), memset(all.b, 0xFF, sizeof all.b), memset(none.b, 0, sizeof none.b);
  ptosim_vgather_params g = {&r, ub(PTOSIM_DT_F32, 64), &off, PTOSIM_DT_I32, &all, 32};
  CHECK(ptosim_vgather2(e.v, &g) == PTOSIM_OK);
  g.offset_type = PTOSIM_DT_I8;
  FAILS(ptosim_vgather2(e.v, &g), PTOSIM_E_VERIFY, "vec.dtype"); /* 8-bit offsets */
  g.offset_type = PTOSIM_DT_F32;
  FAILS(ptosim_vgather2(e.v, &g), PTOSIM_E_VERIFY, "vec.dtype");
  g.offset_type = PTOSIM_DT_I16, g.mask_bits = 16;
  FAILS(ptosim_vgather2(e.v, &g), PTOSIM_E_VERIFY, "vec.dtype"); /* f32 in 16-bit lanes */
  FAILS(ptosim_vgather2_bc(e.v, &g), PTOSIM_E_VERIFY, "vec.dtype");
  g.offset_type = PTOSIM_DT_I32, g.mask_bits = 16;
  FAILS(ptosim_vgather2(e.v, &g), PTOSIM_E_VERIFY, "vec.mask");
  g.mask_bits = 32, g.base.addr = 66;
  FAILS(ptosim_vgather2(e.v, &g), PTOSIM_E_FAULT, "mem.align");
  g.base.addr = 64, g.base.space = PTOSIM_GM;
  FAILS(ptosim_vgather2(e.v, &g), PTOSIM_E_VERIFY, "op.space");
  g.base.space = PTOSIM_UB;
  /* an active lane past UB (a negative i32 offset is a huge unsigned one), inactive lanes anywhere */
  set_off(&off, 4, 5, 0xFFFFFFFFu);
  FAILS(ptosim_vgather2(e.v, &g), PTOSIM_E_FAULT, "mem.bounds");
  CHECK(strstr(ptosim_last_diag(e.m)->msg, "lane 5") != NULL);
  g.mask = &none;
  CHECK(ptosim_vgather2(e.v, &g) == PTOSIM_OK);
  set_off(&off, 4, 5, (uint32_t)((e.cap - 64) / 4 - 1));
  g.mask = &all;
  CHECK(ptosim_vgather2(e.v, &g) == PTOSIM_OK); /* the last element of UB */
  set_off(&off, 4, 5, (uint32_t)((e.cap - 64) / 4));
  FAILS(ptosim_vgather2(e.v, &g), PTOSIM_E_FAULT, "mem.bounds");
  ptosim_vscatter_params s = {&r, ub(PTOSIM_DT_F32, 64), &off, PTOSIM_DT_I32, &all, 32};
  CHECK(ptosim_mem_read(e.v, PTOSIM_UB, 0, e.img, e.cap) == PTOSIM_OK);
  FAILS(ptosim_vscatter(e.v, &s), PTOSIM_E_FAULT, "mem.bounds");
  CHECK(ub_matches(&e)); /* a faulting scatter writes nothing */
  s.base.addr = 2;
  FAILS(ptosim_vscatter(e.v, &s), PTOSIM_E_FAULT, "mem.align");
  /* vgatherb: 32-bit offsets, 32 B aligned base and offsets, b32 mask */
  memset(off.b, 0, sizeof off.b);
  ptosim_vgather_params b = {&r, ub(PTOSIM_DT_F32, 32), &off, PTOSIM_DT_I32, &all, 32};
  CHECK(ptosim_vgatherb(e.v, &b) == PTOSIM_OK);
  b.base.addr = 16;
  FAILS(ptosim_vgatherb(e.v, &b), PTOSIM_E_FAULT, "mem.align");
  b.base.addr = 32, off.b[4] = 8;
  FAILS(ptosim_vgatherb(e.v, &b), PTOSIM_E_FAULT, "mem.align");
  off.b[4] = 0, b.offset_type = PTOSIM_DT_I16, b.mask_bits = 16;
  FAILS(ptosim_vgatherb(e.v, &b), PTOSIM_E_VERIFY, "vec.dtype");
  b.offset_type = PTOSIM_DT_I32;
  FAILS(ptosim_vgatherb(e.v, &b), PTOSIM_E_VERIFY, "vec.mask");
  env_free(&e);
  env a2 = env_new(PTOSIM_TARGET_A2A3);
  ptosim_core *v2 = ptosim_core_of(a2.m, 0, PTOSIM_AIV0);
  g.mask = &all;
  memset(off.b, 0, sizeof off.b);
  CHECK(ptosim_vgather2(v2, &g) == PTOSIM_E_VERIFY && !strcmp(ptosim_last_diag(a2.m)->rule, "vec.target"));
  env_free(&a2);
}

int main(void) {
  RUN(test_gather_scatter);
  RUN(test_gatherb);
  RUN(test_checkers);
  RUN(test_text);
  RUN(test_rules);
  return pt_test_finish();
}
