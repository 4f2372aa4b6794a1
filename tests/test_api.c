/* The public C API refuses bad arguments (NULL, out of range, overlapping GM maps)
 * instead of crashing, and names GM buffers in bounds messages. */
#include <stdint.h>

#include "harness.h"
#include "ptosim/ptosim.h"

static void test_null_arguments(void) {
  char buf[64];
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  ptosim_core *c = ptosim_core_of(m, 0, PTOSIM_AIV0);
  CHECK(ptosim_mem_read(NULL, PTOSIM_UB, 0, buf, 4) == PTOSIM_E_USAGE);
  CHECK(ptosim_mem_write(NULL, PTOSIM_UB, 0, buf, 4) == PTOSIM_E_USAGE);
  CHECK(ptosim_mem_read(c, PTOSIM_UB, 0, NULL, 4) == PTOSIM_E_USAGE);
  CHECK(!strcmp(ptosim_last_diag(m)->rule, "api.args"));
  CHECK(ptosim_mem_write(c, PTOSIM_UB, 0, NULL, 4) == PTOSIM_E_USAGE);
  CHECK(ptosim_mem_write(c, PTOSIM_UB, 0, NULL, 0) == PTOSIM_OK);
  CHECK(ptosim_last_diag(NULL)->status == PTOSIM_E_USAGE);
  CHECK(ptosim_diag_format(NULL, buf, sizeof buf) == 0);
  CHECK(ptosim_machine_target(NULL) == PTOSIM_TARGET_COUNT && ptosim_space_capacity(NULL, PTOSIM_UB) == 0);
  CHECK(ptosim_ops_executed(NULL) == 0);
  uint64_t addr;
  CHECK(ptosim_gm_map(NULL, buf, 4, &addr) == PTOSIM_E_USAGE && ptosim_gm_map(m, NULL, 4, &addr) == PTOSIM_E_USAGE);
  CHECK(ptosim_gm_map(m, buf, 4, NULL) == PTOSIM_E_USAGE);
  /* Programs. */
  int nerr = 0;
  CHECK(!ptosim_program_load("x.pto", NULL, 10, NULL, -1, NULL, &nerr) && nerr == 1);
  CHECK(!ptosim_program_load(NULL, NULL, 10, NULL, -1, NULL, NULL));
  CHECK(ptosim_program_check("x.pto", NULL, 10, -1, NULL, NULL) == 1);
  CHECK(ptosim_program_run(NULL, m, NULL) == PTOSIM_E_USAGE && !strcmp(ptosim_last_diag(m)->rule, "api.args"));
  const char *src = "func.func @k(%p: !pto.ptr<f32, gm>, %n: i32) attributes {pto.kernel} {\n  return\n}\n";
  ptosim_program *p = ptosim_program_load(NULL, src, strlen(src), NULL, -1, NULL, NULL);
  CHECK(p != NULL);
  CHECK(ptosim_program_run(p, NULL, NULL) == PTOSIM_E_USAGE);
  CHECK(ptosim_program_run(p, m, NULL) == PTOSIM_E_USAGE); /* two parameters, no arguments */
  CHECK(ptosim_program_nparams(NULL) == 0 && ptosim_program_target(NULL) == PTOSIM_TARGET_COUNT);
  CHECK(ptosim_program_param_kind(p, 1) == PTOSIM_PARAM_INT && ptosim_program_param_bits(p, 1) == 32);
  CHECK(ptosim_program_param_bits(p, 0) == 0);
  for (int i = -1; i <= 2; i += 3) {
    CHECK(ptosim_program_param_kind(p, i) == PTOSIM_PARAM_NONE);
    CHECK(ptosim_program_param_dtype(p, i) == PTOSIM_DT_NONE);
    CHECK(ptosim_program_param_name(p, i) == NULL);
    CHECK(ptosim_program_param_bits(p, i) == 0);
  }
  CHECK(ptosim_program_param_kind(NULL, 0) == PTOSIM_PARAM_NONE);
  ptosim_program_free(p);
  ptosim_machine_free(m);
}

/* A target number outside [-1, PTOSIM_TARGET_COUNT) is refused, also for tile programs
 * (which place tiles with the target's profile). */
static void test_target_range(void) {
  const char *src = "func.func @k() attributes {pto.kernel} {\n"
                    "  %t = pto.alloc_tile : !pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=8, v_row=8, v_col=8, "
                    "blayout=row_major, slayout=none_box, fractal=512, pad=0>\n"
                    "  return\n"
                    "}\n";
  int nerr = 0;
  CHECK(!ptosim_program_load("t.pto", src, strlen(src), NULL, PTOSIM_TARGET_COUNT, NULL, &nerr) && nerr == 1);
  CHECK(!ptosim_program_load("t.pto", src, strlen(src), NULL, -2, NULL, &nerr));
  CHECK(ptosim_program_check("t.pto", src, strlen(src), 99, NULL, NULL) == 1);
  ptosim_program *p = ptosim_program_load("t.pto", src, strlen(src), NULL, PTOSIM_TARGET_A2A3, NULL, &nerr);
  CHECK_MSG(p != NULL, "%d errors", nerr);
  ptosim_program_free(p);
}

static void test_gm_map(void) {
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  static uint8_t host[256];
  uint64_t a, b;
  CHECK(ptosim_gm_map(m, host, 128, &a) == PTOSIM_OK);
  /* The same bytes, or part of them, cannot get a second GM range. */
  CHECK(ptosim_gm_map(m, host, 128, &b) == PTOSIM_E_USAGE && !strcmp(ptosim_last_diag(m)->rule, "api.args"));
  CHECK(ptosim_gm_map(m, host + 127, 2, &b) == PTOSIM_E_USAGE);
  CHECK(ptosim_gm_map(m, host + 64, 0, &b) == PTOSIM_OK); /* an empty map overlaps nothing */
  CHECK(ptosim_gm_map(m, host + 128, 128, &b) == PTOSIM_OK && b > a);
  /* A size that does not fit is refused, and the next map is still placed after b. */
  uint64_t c;
  static uint8_t other[16];
  CHECK(ptosim_gm_map(m, (void *)1, SIZE_MAX, &c) == PTOSIM_E_USAGE);
  CHECK(ptosim_gm_map(m, other, 16, &c) == PTOSIM_OK && c > b + 128);
  /* Names and the written flag. */
  CHECK(ptosim_gm_set_name(m, a, "%x from x.npy") == PTOSIM_OK);
  CHECK(ptosim_gm_set_name(m, a + 1, "y") == PTOSIM_E_USAGE && ptosim_gm_set_name(m, a, NULL) == PTOSIM_E_USAGE);
  CHECK(ptosim_gm_written(m, a) == 0 && ptosim_gm_written(m, a + 4) == -1 && ptosim_gm_written(NULL, a) == -1);
  ptosim_core *core = ptosim_core_of(m, 0, PTOSIM_AIV0);
  uint8_t v[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  CHECK(ptosim_mem_read(core, PTOSIM_GM, a, v, 8) == PTOSIM_OK && ptosim_gm_written(m, a) == 0);
  CHECK(ptosim_mem_write(core, PTOSIM_GM, b, v, 8) == PTOSIM_OK && ptosim_gm_written(m, b) == 1);
  CHECK(ptosim_gm_written(m, a) == 0);
  /* Bounds messages name the buffer. */
  CHECK(ptosim_mem_read(core, PTOSIM_GM, a + 120, v, 16) == PTOSIM_E_FAULT);
  CHECK_MSG(strstr(ptosim_last_diag(m)->msg, "(%x from x.npy) by 8 bytes"), "%s", ptosim_last_diag(m)->msg);
  CHECK(ptosim_mem_read(core, PTOSIM_GM, a + 130, v, 4) == PTOSIM_E_FAULT);
  CHECK_MSG(strstr(ptosim_last_diag(m)->msg, "starts 2 bytes past the end of buffer") &&
                strstr(ptosim_last_diag(m)->msg, "%x from x.npy"),
            "%s", ptosim_last_diag(m)->msg);
  ptosim_machine_free(m);
}

/* An access that starts past the capacity never prints an empty range [a, a). */
static void test_bounds_text(void) {
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  ptosim_core *c = ptosim_core_of(m, 0, PTOSIM_AIV0);
  uint64_t cap = ptosim_space_capacity(m, PTOSIM_UB);
  char buf[8], range[64];
  CHECK(ptosim_mem_read(c, PTOSIM_UB, cap + 0x20, buf, 0) == PTOSIM_E_FAULT);
  snprintf(range, sizeof range, "[0x%llx, 0x%llx)", (unsigned long long)(cap + 0x20), (unsigned long long)(cap + 0x20));
  CHECK_MSG(!strstr(ptosim_last_diag(m)->msg, range) && strstr(ptosim_last_diag(m)->msg, "empty ub access"), "%s",
            ptosim_last_diag(m)->msg);
  CHECK(ptosim_mem_read(c, PTOSIM_UB, cap, buf, 0) == PTOSIM_OK); /* empty, at the end */
  CHECK(ptosim_mem_read(c, PTOSIM_UB, cap - 4, buf, 8) == PTOSIM_E_FAULT);
  ptosim_machine_free(m);
}

int main(void) {
  RUN(test_null_arguments);
  RUN(test_target_range);
  RUN(test_gm_map);
  RUN(test_bounds_text);
  return pt_test_finish();
}
