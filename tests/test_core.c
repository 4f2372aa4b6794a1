/* Machine core: profiles, GM mapping, the memory accessor layer, layout formulas. */
#include <string.h>

#include "core/diag.h"
#include "core/layout.h"
#include "core/mem.h"
#include "core/profile.h"
#include "harness.h"
#include "ptosim/ptosim.h"

static void test_profiles(void) {
  /* Numbers from pto-isa docs/isa/tile/ops/sync-and-config/tassign.md. */
  ptosim_machine *a3 = ptosim_machine_new(PTOSIM_TARGET_A2A3, 1);
  ptosim_machine *a5 = ptosim_machine_new(PTOSIM_TARGET_A5, 2);
  CHECK(a3 && a5);
  CHECK(ptosim_space_capacity(a3, PTOSIM_UB) == 192 * 1024);
  CHECK(ptosim_space_capacity(a5, PTOSIM_UB) == 256 * 1024);
  CHECK(ptosim_space_capacity(a3, PTOSIM_L0C) == 128 * 1024);
  CHECK(ptosim_space_capacity(a5, PTOSIM_L0C) == 256 * 1024);
  CHECK(ptosim_space_capacity(a3, PTOSIM_BT) == 1024 && ptosim_space_capacity(a5, PTOSIM_BT) == 4096);
  CHECK(ptosim_space_capacity(a3, PTOSIM_FB) == 2048 && ptosim_space_capacity(a5, PTOSIM_FB) == 4096);
  CHECK(ptosim_space_capacity(a3, PTOSIM_L0A_MX) == 0 && ptosim_space_capacity(a5, PTOSIM_L0A_MX) == 4096);
  CHECK(ptosim_space_capacity(a5, PTOSIM_L1) == 512 * 1024);
  CHECK(pt_target_parse("a5") == PTOSIM_TARGET_A5 && pt_target_parse("a3") == PTOSIM_TARGET_A2A3);
  CHECK(pt_target_parse("x") == PTOSIM_TARGET_COUNT);
  CHECK(ptosim_machine_new(PTOSIM_TARGET_A5, 0) == NULL);
  CHECK(ptosim_machine_new((ptosim_target)7, 1) == NULL);
  CHECK(ptosim_core_of(a5, 2, PTOSIM_AIC) == NULL && ptosim_core_of(a5, 1, PTOSIM_AIV1) != NULL);
  ptosim_machine_free(a3);
  ptosim_machine_free(a5);
}

static void test_gm_bounds(void) {
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  ptosim_core *c = ptosim_core_of(m, 0, PTOSIM_AIV0);
  unsigned char a[100], b[5000], out[200];
  for (int i = 0; i < 100; i++) a[i] = (unsigned char)i;
  uint64_t ga, gb;
  CHECK(ptosim_gm_map(m, a, sizeof a, &ga) == PTOSIM_OK);
  CHECK(ptosim_gm_map(m, b, sizeof b, &gb) == PTOSIM_OK);
  CHECK(ga % 4096 == 0 && gb % 4096 == 0 && gb > ga + sizeof a);
  CHECK(ptosim_mem_read(c, PTOSIM_GM, ga + 10, out, 90) == PTOSIM_OK && out[0] == 10 && out[89] == 99);
  /* One byte past the end of a buffer is a fault, never the neighbour's bytes. */
  CHECK(ptosim_mem_read(c, PTOSIM_GM, ga + 10, out, 91) == PTOSIM_E_FAULT);
  CHECK(!strcmp(ptosim_last_diag(m)->rule, "mem.bounds"));
  CHECK(ptosim_mem_read(c, PTOSIM_GM, ga - 1, out, 1) == PTOSIM_E_FAULT);
  CHECK(ptosim_mem_read(c, PTOSIM_GM, gb + 5000, out, 1) == PTOSIM_E_FAULT);
  CHECK(ptosim_mem_read(c, PTOSIM_GM, 0, out, 1) == PTOSIM_E_FAULT);
  char buf[1024];
  CHECK(ptosim_diag_format(ptosim_last_diag(m), buf, sizeof buf) > 0 && strstr(buf, "[mem.bounds]"));
  ptosim_machine_free(m);
}

static void test_local_bounds(void) {
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A2A3, 1);
  ptosim_core *aic = ptosim_core_of(m, 0, PTOSIM_AIC), *v0 = ptosim_core_of(m, 0, PTOSIM_AIV0),
              *v1 = ptosim_core_of(m, 0, PTOSIM_AIV1);
  unsigned char x[64] = {1, 2, 3}, y[64];
  CHECK(ptosim_mem_write(v0, PTOSIM_UB, 192 * 1024 - 64, x, 64) == PTOSIM_OK);
  CHECK(ptosim_mem_write(v0, PTOSIM_UB, 192 * 1024 - 63, x, 64) == PTOSIM_E_FAULT);
  CHECK(!strcmp(ptosim_last_diag(m)->rule, "mem.bounds"));
  /* Each vector core has its own UB. */
  CHECK(ptosim_mem_read(v1, PTOSIM_UB, 192 * 1024 - 64, y, 64) == PTOSIM_OK && y[0] == 0);
  /* L0C exists only on the cube core; MX buffers do not exist on A2/A3. */
  CHECK(ptosim_mem_write(v0, PTOSIM_L0C, 0, x, 4) == PTOSIM_E_FAULT && !strcmp(ptosim_last_diag(m)->rule, "mem.space"));
  CHECK(ptosim_mem_write(aic, PTOSIM_L0A_MX, 0, x, 4) == PTOSIM_E_FAULT);
  CHECK(ptosim_mem_write(aic, PTOSIM_L0C, 128 * 1024 - 4, x, 4) == PTOSIM_OK);
  /* Huge addresses do not wrap around. */
  CHECK(ptosim_mem_write(aic, PTOSIM_L1, UINT64_MAX - 2, x, 4) == PTOSIM_E_FAULT);
  ptosim_machine_free(m);
}

static void test_region_and_align(void) {
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  pt_ctx x = {.m = m, .core = ptosim_core_of(m, 0, PTOSIM_AIV0), .op = PTOSIM_OP_COUNT};
  uint8_t *p;
  int64_t cnt[2] = {4, 3}, str[2] = {1024, 8192};
  /* Last byte: 3*1024 + 2*8192 + 100 - 1. */
  uint64_t last = 3 * 1024 + 2 * 8192 + 100;
  CHECK(pt_region(&x, PTOSIM_UB, 256 * 1024 - last, 2, cnt, str, 100, 1, PT_READ, &p) == PTOSIM_OK);
  CHECK(pt_region(&x, PTOSIM_UB, 256 * 1024 - last + 1, 2, cnt, str, 100, 1, PT_READ, &p) == PTOSIM_E_FAULT);
  CHECK(pt_region(&x, PTOSIM_UB, 16, 2, cnt, str, 100, 32, PT_READ, &p) == PTOSIM_E_FAULT);
  CHECK(!strcmp(m->diag.rule, "mem.align"));
  int64_t zero[2] = {0, 5};
  CHECK(pt_region(&x, PTOSIM_UB, 1 << 30, 2, zero, str, 100, 1, PT_READ, &p) == PTOSIM_E_FAULT); /* start still checked */
  CHECK(pt_region(&x, PTOSIM_UB, 64, 2, zero, str, 100, 1, PT_READ, &p) == PTOSIM_OK);
  int64_t neg[1] = {-1};
  CHECK(pt_region(&x, PTOSIM_UB, 0, 1, neg, str, 100, 1, PT_READ, &p) == PTOSIM_E_VERIFY);
  int64_t big[2] = {INT64_MAX, 2}, bigs[2] = {INT64_MAX, 1};
  CHECK(pt_region(&x, PTOSIM_UB, 0, 2, big, bigs, 1, 1, PT_READ, &p) == PTOSIM_E_FAULT);
  ptosim_machine_free(m);
}

/* Layout formulas: each must be a bijection from the logical matrix onto the expected
 * physical extent, and agree with the fractal index order written in the docs
 * (pto-isa docs/isa/cube/nz-fractal-layout.md), computed here by counting. */
static void test_layouts(void) {
  static unsigned char seen[1 << 20];
  const unsigned sizes[3] = {1, 2, 4};
  for (int si = 0; si < 3; si++) {
    unsigned es = sizes[si], cw = 32 / es;
    unsigned rows = 48, cols = 3 * cw; /* 3 x 3 fractals */
    /* NZ, packed: physical order K1 M1 M0 K0 (column block, row block, row, column). */
    memset(seen, 0, sizeof seen);
    uint64_t expect = 0;
    int ok = 1;
    for (unsigned k1 = 0; k1 < cols / cw; k1++)
      for (unsigned m = 0; m < rows; m++)
        for (unsigned k0 = 0; k0 < cw; k0++, expect += es)
          ok &= pt_nz_off(m, k1 * cw + k0, es, cw, 32, 32 * rows) == expect;
    CHECK_MSG(ok, "NZ order es=%u", es);
    /* ZZ: M1 K1 M0 K0. */
    expect = 0;
    ok = 1;
    for (unsigned m1 = 0; m1 < rows / 16; m1++)
      for (unsigned k1 = 0; k1 < cols / cw; k1++)
        for (unsigned m0 = 0; m0 < 16; m0++)
          for (unsigned k0 = 0; k0 < cw; k0++, expect += es)
            ok &= pt_zz_off(m1 * 16 + m0, k1 * cw + k0, es, cw, 512 * (cols / cw)) == expect;
    CHECK_MSG(ok, "ZZ order es=%u", es);
  }
  /* L0C: N1 M1 M0 N0 with 16 x 16 f32 fractals of 1 KiB. */
  uint64_t expect = 0;
  int ok = 1;
  for (unsigned n1 = 0; n1 < 2; n1++)
    for (unsigned m = 0; m < 32; m++)
      for (unsigned n0 = 0; n0 < 16; n0++, expect += 4) ok &= pt_nz_off(m, n1 * 16 + n0, 4, 16, 64, 32 * 64) == expect;
  CHECK(ok);
  /* Strided NZ (row stride 2 C0, block stride 40 C0): injective, inside the extent. */
  memset(seen, 0, sizeof seen);
  ok = 1;
  for (unsigned r = 0; r < 20; r++)
    for (unsigned c = 0; c < 40; c++) {
      uint64_t o = pt_nz_off(r, c, 2, 16, 64, 40 * 32);
      ok &= o + 2 <= 3 * 40 * 32 && !seen[o];
      seen[o] = 1;
    }
  CHECK(ok);
  CHECK(pt_nd_off(3, 5, 10) == 35 && pt_dn_off(3, 5, 10) == 53);
  CHECK(pt_ceil_div(17, 16) == 2 && pt_align_up(17, 16) == 32 && pt_align_up(32, 16) == 32);
}

static void test_api_errors(void) {
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  ptosim_core *v = ptosim_core_of(m, 0, PTOSIM_AIV0);
  ptosim_mad_params mp = {0};
  /* A cube op issued from a vector core. */
  CHECK(ptosim_mad(v, &mp) == PTOSIM_E_VERIFY && !strcmp(ptosim_last_diag(m)->rule, "op.unit"));
  CHECK(ptosim_exec(v, PTOSIM_OP_COUNT, &mp, NULL) == PTOSIM_E_USAGE);
  CHECK(ptosim_exec(v, PTOSIM_OP_mad, NULL, NULL) == PTOSIM_E_USAGE);
  CHECK(ptosim_exec(NULL, PTOSIM_OP_mad, &mp, NULL) == PTOSIM_E_USAGE);
  ptosim_loc loc = {"k.pto", 12, 5};
  CHECK(ptosim_exec(v, PTOSIM_OP_mad, &mp, &loc) == PTOSIM_E_VERIFY);
  char buf[512];
  ptosim_diag_format(ptosim_last_diag(m), buf, sizeof buf);
  CHECK_MSG(!strncmp(buf, "k.pto:12:5: error: pto.mad: ", 28), "%s", buf);
  CHECK(ptosim_op_lookup("pto.mad") == PTOSIM_OP_mad && ptosim_op_lookup("pto.nope") == PTOSIM_OP_COUNT);
  ptosim_machine_free(m);
}

/* The accessor layer records every successful access in the op's event. */
static void test_event_ranges(void) {
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  pt_event ev = {0};
  pt_ctx x = {.m = m, .core = ptosim_core_of(m, 0, PTOSIM_AIV1), .op = PTOSIM_OP_COUNT, .ev = &ev};
  uint8_t *p;
  int64_t cnt[2] = {4, 3}, str[2] = {64, 1024};
  CHECK(pt_region(&x, PTOSIM_UB, 256, 2, cnt, str, 40, 32, PT_WRITE, &p) == PTOSIM_OK);
  CHECK(pt_span(&x, PTOSIM_UB, 0, 8, 1, PT_READ, &p) == PTOSIM_OK);
  CHECK(pt_span(&x, PTOSIM_UB, 1 << 30, 8, 1, PT_READ, &p) != PTOSIM_OK); /* failures record nothing */
  CHECK(ev.nranges == 2 && !ev.overflow);
  CHECK(ev.ranges[0].space == PTOSIM_UB && ev.ranges[0].owner == x.core && ev.ranges[0].access == PT_WRITE);
  CHECK(ev.ranges[0].nd == 2 && ev.ranges[0].count[1] == 3 && ev.ranges[0].stride[1] == 1024 && ev.ranges[0].len == 40);
  CHECK(ev.ranges[1].nd == 0 && ev.ranges[1].len == 8 && ev.ranges[1].access == PT_READ);
  ptosim_machine_free(m);
}

int main(void) {
  RUN(test_event_ranges);
  RUN(test_profiles);
  RUN(test_gm_bounds);
  RUN(test_local_bounds);
  RUN(test_region_and_align);
  RUN(test_layouts);
  RUN(test_api_errors);
  return pt_test_finish();
}
