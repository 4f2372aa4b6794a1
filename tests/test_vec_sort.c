/* UB sort helpers (src/isa/vec_sfu.c): vbitsort, vmrgsort4, get_vms4_sr against references
 * written here another way: an element's output position is its rank (how many elements
 * order before it, counted pairwise with a comparison on float values and NaN signs), and a
 * merge is the stable rank order of the lists concatenated in list order, cut where the
 * exhausted mode stops. Scores come from a small set, so ties, +-0, +-inf and both NaN signs
 * are frequent; every untouched UB byte is checked, and each rule has a negative test. */
#include <math.h>
#include <string.h>

#include "core/dtype.h"
#include "harness.h"
#include "ptosim/ptosim.h"

static unsigned long long seed = 0x50f7ed5ULL;
static unsigned rnd(unsigned n) { return (unsigned)(pt_rand_u64(&seed) % n); }

#define UBN 16384 /* bytes of UB the tests use */
static ptosim_machine *m;
static ptosim_core *v;
static uint8_t img[UBN], got[UBN];

static ptosim_ptr ub(ptosim_dtype dt, uint64_t a) { return ptosim_ptr_make(PTOSIM_UB, dt, a); }
static void put_ub(void) { CHECK(ptosim_mem_write(v, PTOSIM_UB, 0, img, UBN) == PTOSIM_OK); }
static void get_ub(void) { CHECK(ptosim_mem_read(v, PTOSIM_UB, 0, got, UBN) == PTOSIM_OK); }

/* A score's bits (es = 2: f16, 4: f32) from a set with many repeats and every special. */
static uint32_t score_bits(unsigned es) {
  static const float pick[] = {1.0f, 2.5f, -3.0f, 0.0f, -0.0f, INFINITY, -INFINITY, 7.0f, -7.0f, 1e-3f};
  unsigned k = rnd(13);
  if (k >= 10) return es == 4 ? (k == 10 ? 0x7FC00000u : k == 11 ? 0xFFC00001u : 0x7F800123u)
                              : (k == 10 ? 0x7E00u : k == 11 ? 0xFE01u : 0x7C05u); /* +qNaN, -NaN, +sNaN */
  float f = pick[k];
  uint32_t b;
  if (es == 4) memcpy(&b, &f, 4);
  else b = pt_f32_to_f16(f, PT_RND_RINT, PT_SAT_OFF);
  return b;
}

/* Score a orders before score b in a descending sort: +NaN first (greater payload first),
 * then numbers from +inf down (+0 before -0), -NaN last (greater payload last). */
static int before(uint32_t a, uint32_t b, unsigned es) {
  uint32_t sign = es == 4 ? 0x80000000u : 0x8000u;
  float fa = es == 4 ? 0 : pt_f16_to_f32((uint16_t)a), fb = es == 4 ? 0 : pt_f16_to_f32((uint16_t)b);
  if (es == 4) memcpy(&fa, &a, 4), memcpy(&fb, &b, 4);
  int ca = isnan(fa) ? (a & sign ? 0 : 2) : 1, cb = isnan(fb) ? (b & sign ? 0 : 2) : 1;
  if (ca != cb) return ca > cb;
  if (ca != 1) return ca == 2 ? (a & ~sign) > (b & ~sign) : (a & ~sign) < (b & ~sign); /* by payload */
  if (fa != fb) return fa > fb;
  return !(a & sign) && (b & sign); /* +0 before -0 */
}

typedef struct rec {
  uint32_t score, index;
} rec;

/* out = recs[0, n) in stable descending order, by rank. */
static void rank_sort(rec *out, const rec *recs, unsigned n, unsigned es) {
  for (unsigned i = 0; i < n; i++) {
    unsigned r = 0;
    for (unsigned j = 0; j < n; j++)
      r += before(recs[j].score, recs[i].score, es) || (j < i && !before(recs[i].score, recs[j].score, es));
    out[r] = recs[i];
  }
}

static void put_rec(uint8_t *p, rec r, unsigned es) {
  memset(p, 0, 8);
  memcpy(p, &r.score, es);
  memcpy(p + 4, &r.index, 4);
}

/* ---- vbitsort ------------------------------------------------------------------------------ */

static void test_vbitsort(void) {
  for (int it = 0; it < 60; it++) {
    unsigned es = it % 2 ? 4 : 2, repeat = (unsigned)it % 5; /* 0: empty, nothing written */
    ptosim_dtype dt = es == 4 ? PTOSIM_DT_F32 : PTOSIM_DT_F16;
    uint64_t src = 0, idx = 4096, dst = 8192 + 32 * rnd(8);
    for (unsigned i = 0; i < UBN; i++) img[i] = (uint8_t)pt_rand_u64(&seed);
    rec recs[32 * 4];
    for (unsigned i = 0; i < 32 * repeat; i++) {
      recs[i].score = score_bits(es), recs[i].index = (uint32_t)pt_rand_u64(&seed);
      memcpy(img + src + i * es, &recs[i].score, es);
      memcpy(img + idx + i * 4, &recs[i].index, 4);
    }
    put_ub();
    ptosim_vbitsort_params p = {ub(dt, dst), ub(dt, src), ub(PTOSIM_DT_U32, idx), repeat};
    CHECK_MSG(ptosim_vbitsort(v, &p) == PTOSIM_OK, "%s", ptosim_last_diag(m)->msg);
    get_ub();
    uint8_t want[UBN];
    memcpy(want, img, UBN);
    for (unsigned r = 0; r < repeat; r++) {
      rec sorted[32];
      rank_sort(sorted, recs + 32 * r, 32, es);
      for (unsigned i = 0; i < 32; i++) put_rec(want + dst + 256 * r + 8 * i, sorted[i], es);
    }
    CHECK_MSG(!memcmp(got, want, UBN), "vbitsort es %u repeat %u", es, repeat);
  }
}

/* ---- vmrgsort4 / get_vms4_sr --------------------------------------------------------------- */

static void read_sr(int64_t sr[4]) {
  ptosim_vms4_sr_params q = {{&sr[0], &sr[1], &sr[2], &sr[3]}};
  CHECK(ptosim_get_vms4_sr(v, &q) == PTOSIM_OK);
}

static void test_vmrgsort4(void) {
  for (int it = 0; it < 200; it++) {
    unsigned es = it % 2 ? 4 : 2, mask = rnd(16), exhausted = it % 3 == 0, repeat = exhausted ? 1 : 1 + rnd(2);
    ptosim_dtype dt = es == 4 ? PTOSIM_DT_F32 : PTOSIM_DT_F16;
    unsigned n[4], total = 0;
    for (int i = 0; i < 4; i++) n[i] = rnd(7), total += mask >> i & 1 ? n[i] : 0;
    /* group g of list i at 1024 * i + 8 * total * g, total: the records of the lists taking
     * part (lists of one group need not touch) */
    uint64_t dst = 8192 + 8 * rnd(4), count = 0;
    for (int i = 0; i < 4; i++) count |= (uint64_t)n[i] << 16 * i;
    for (unsigned i = 0; i < UBN; i++) img[i] = (uint8_t)pt_rand_u64(&seed);
    rec lists[2][4][8];
    for (unsigned g = 0; g < repeat; g++)
      for (int i = 0; i < 4; i++) {
        rec raw[8];
        for (unsigned j = 0; j < n[i]; j++) raw[j].score = score_bits(es), raw[j].index = (uint32_t)pt_rand_u64(&seed);
        rank_sort(lists[g][i], raw, n[i], es);
        for (unsigned j = 0; j < n[i]; j++) put_rec(img + 1024 * i + 8 * total * g + 8 * j, lists[g][i][j], es);
      }
    put_ub();
    ptosim_vmrgsort4_params p = {ub(dt, dst), {ub(dt, 0), ub(dt, 1024), ub(dt, 2048), ub(dt, 3072)}, count,
                                 repeat | mask << 8 | exhausted << 12};
    CHECK_MSG(ptosim_vmrgsort4(v, &p) == PTOSIM_OK, "%s", ptosim_last_diag(m)->msg);
    get_ub();
    uint8_t want[UBN];
    memcpy(want, img, UBN);
    unsigned taken[4] = {0};
    for (unsigned g = 0; g < repeat; g++) {
      rec cat[32], merged[32];
      unsigned from[32], k = 0, list_of[32];
      for (int i = 0; i < 4; i++)
        for (unsigned j = 0; mask >> i & 1 && j < n[i]; j++) list_of[k] = (unsigned)i, cat[k++] = lists[g][i][j];
      /* the list of each merged record: rank sort the positions alongside */
      for (unsigned a = 0; a < k; a++) {
        unsigned r = 0;
        for (unsigned b = 0; b < k; b++)
          r += before(cat[b].score, cat[a].score, es) || (b < a && !before(cat[a].score, cat[b].score, es));
        merged[r] = cat[a], from[r] = list_of[a];
      }
      memset(taken, 0, sizeof taken);
      unsigned out = 0;
      for (; out < k; out++) {
        int stop = 0;
        for (int i = 0; i < 4; i++) stop |= exhausted && (mask >> i & 1) && taken[i] == n[i];
        if (stop) break;
        put_rec(want + dst + 8 * total * g + 8 * out, merged[out], es);
        taken[from[out]]++;
      }
    }
    CHECK_MSG(!memcmp(got, want, UBN), "vmrgsort4 es %u mask %x exhausted %u repeat %u n %u %u %u %u", es, mask,
              exhausted, repeat, n[0], n[1], n[2], n[3]);
    int64_t sr[4];
    read_sr(sr);
    for (int i = 0; i < 4; i++) CHECK_MSG(sr[i] == (int64_t)taken[i], "VMS4_SR list %d: %lld, want %u", i, (long long)sr[i], taken[i]);
  }
}

/* The corpus case micro-op/dsa-sfu/vmrgsort4 from text: four one-record lists, exhausted
 * mode, so only the 9.0 record of list 0 lands and VMS4_SR = (1, 0, 0, 0). */
static const char prog_src[] =
    "module attributes {pto.target_arch = \"a5\", pto.kernel_kind = #pto.kernel_kind<vector>} {\n"
    "  func.func @k(%out: !pto.ptr<i16, gm>) attributes {pto.kernel} {\n"
    "    %c0 = arith.constant 0 : index\n"
    "    %c1 = arith.constant 1 : index\n"
    "    %c2 = arith.constant 2 : index\n"
    "    %c3 = arith.constant 3 : index\n"
    "    %c4 = arith.constant 4 : index\n"
    "    %c6 = arith.constant 6 : index\n"
    "    %c0_i64 = arith.constant 0 : i64\n"
    "    %c64_i64 = arith.constant 64 : i64\n"
    "    %count = arith.constant 281479271743489 : i64\n"
    "    %config = arith.constant 7937 : i64\n"
    "    %in = pto.castptr %c0_i64 : i64 -> !pto.ptr<f32, ub>\n"
    "    %dst = pto.castptr %c64_i64 : i64 -> !pto.ptr<f32, ub>\n"
    "    %s1 = pto.addptr %in, %c2 : !pto.ptr<f32, ub> -> !pto.ptr<f32, ub>\n"
    "    %s2 = pto.addptr %in, %c4 : !pto.ptr<f32, ub> -> !pto.ptr<f32, ub>\n"
    "    %s3 = pto.addptr %in, %c6 : !pto.ptr<f32, ub> -> !pto.ptr<f32, ub>\n"
    "    pto.vmrgsort4 %dst, %in, %s1, %s2, %s3, %count, %config\n"
    "      : !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, !pto.ptr<f32, ub>, i64, i64\n"
    "    pto.set_flag[\"PIPE_V\", \"PIPE_S\", \"EVENT_ID0\"]\n"
    "    pto.wait_flag[\"PIPE_V\", \"PIPE_S\", \"EVENT_ID0\"]\n"
    "    %l0, %l1, %l2, %l3 = pto.get_vms4_sr : i16, i16, i16, i16\n"
    "    pto.store_scalar %l0, %out[%c0] : !pto.ptr<i16, gm>, i16\n"
    "    pto.store_scalar %l1, %out[%c1] : !pto.ptr<i16, gm>, i16\n"
    "    pto.store_scalar %l2, %out[%c2] : !pto.ptr<i16, gm>, i16\n"
    "    pto.store_scalar %l3, %out[%c3] : !pto.ptr<i16, gm>, i16\n"
    "    return\n"
    "  }\n"
    "}\n";

static void test_text(void) {
  ptosim_program *p = pt_test_load(prog_src, sizeof prog_src - 1);
  CHECK(p != NULL);
  if (!p) return;
  ptosim_machine *m2 = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  ptosim_core *v2 = ptosim_core_of(m2, 0, PTOSIM_AIV0);
  float in[8] = {9.0f, 0, 7.0f, 0, 8.0f, 0, 6.0f, 0};
  uint32_t idx[4] = {90, 70, 80, 60};
  for (int i = 0; i < 4; i++) memcpy(&in[2 * i + 1], &idx[i], 4);
  CHECK(ptosim_mem_write(v2, PTOSIM_UB, 0, in, sizeof in) == PTOSIM_OK);
  int16_t out[4] = {-1, -1, -1, -1};
  ptosim_arg args[1];
  ptosim_gm_map(m2, out, sizeof out, &args[0].gm_addr);
  CHECK_MSG(ptosim_program_run(p, m2, args) == PTOSIM_OK, "%s", ptosim_last_diag(m2)->msg);
  CHECK(out[0] == 1 && out[1] == 0 && out[2] == 0 && out[3] == 0);
  uint8_t rec0[16], want[16] = {0};
  put_rec(want, (rec){0x41100000u, 90}, 4); /* 9.0f */
  CHECK(ptosim_mem_read(v2, PTOSIM_UB, 64, rec0, sizeof rec0) == PTOSIM_OK);
  CHECK(!memcmp(rec0, want, 8)); /* one record; the next 8 bytes untouched (zero UB) */
  CHECK(!memcmp(rec0 + 8, want + 8, 8));
  ptosim_machine_free(m2);
  ptosim_program_free(p);
}

/* ---- rules ----------------------------------------------------------------------------------- */

#define FAILS(call, id) \
  CHECK_MSG((call) != PTOSIM_OK && !strcmp(ptosim_last_diag(m)->rule, id), "%s: %s", id, ptosim_last_diag(m)->rule)

static void test_rules(void) {
  ptosim_vbitsort_params b = {ub(PTOSIM_DT_F32, 0), ub(PTOSIM_DT_I32, 256), ub(PTOSIM_DT_U32, 512), 1};
  FAILS(ptosim_vbitsort(v, &b), "vec.dtype");
  b.src.dtype = PTOSIM_DT_F32, b.repeat = 256;
  FAILS(ptosim_vbitsort(v, &b), "vec.repeat");
  b.repeat = 1, b.idx.addr = 516;
  FAILS(ptosim_vbitsort(v, &b), "mem.align");
  b.idx.addr = 512, b.dst.addr = 262144 - 128;
  FAILS(ptosim_vbitsort(v, &b), "mem.bounds");
  b.dst = ptosim_ptr_make(PTOSIM_GM, PTOSIM_DT_F32, 0);
  FAILS(ptosim_vbitsort(v, &b), "op.space");

  ptosim_ptr f = ub(PTOSIM_DT_F32, 0);
  ptosim_vmrgsort4_params g = {f, {f, f, ub(PTOSIM_DT_F16, 0), f}, 0x0001000100010001u, 0xF01};
  FAILS(ptosim_vmrgsort4(v, &g), "vec.dtype");
  g.src[2] = f, g.config = 0x1F02;
  FAILS(ptosim_vmrgsort4(v, &g), "vec.repeat");
  g.config = 0xF01, g.src[1].addr = 4;
  FAILS(ptosim_vmrgsort4(v, &g), "mem.align");
  g.src[1].addr = 262144;
  FAILS(ptosim_vmrgsort4(v, &g), "mem.bounds");
  g.src[1].addr = 0, g.dst.dtype = PTOSIM_DT_I32;
  FAILS(ptosim_vmrgsort4(v, &g), "vec.dtype");
}

int main(void) {
  m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  v = ptosim_core_of(m, 0, PTOSIM_AIV0);
  RUN(test_vbitsort);
  RUN(test_vmrgsort4);
  RUN(test_text);
  RUN(test_rules);
  ptosim_machine_free(m);
  return pt_test_finish();
}
