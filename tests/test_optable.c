/* Walks the op table: every row has metadata, a formula and a unique spelling; every
 * implemented row is exercised by at least one test file (its C API wrapper ptosim_<id>( or
 * its opcode PTOSIM_OP_<id> appears in some tests/test_*.c other than this one), reaches text
 * through a binder unless marked C-API-only, and a V-pipe row has a cost class. */
#include <dirent.h>
#include <string.h>

#include "core/optable.h"
#include "harness.h"
#include "ptosim/program.h"
#include "ptosim/ptosim.h"

/* The id of each row; NULL for rows without an executor. */
static const char *const ids[PTOSIM_OP_COUNT] = {
#define PTOSIM_OP(id, spelling, family, pipe, unit, params, exec, text, cost, flags, formula) [PTOSIM_OP_##id] = #id,
#include "ptosim/ops.def"
#undef PTOSIM_OP
};

static void test_metadata(void) {
  for (int i = 0; i < PTOSIM_OP_COUNT; i++) {
    ptosim_opcode op = (ptosim_opcode)i;
    const char *sp = ptosim_op_spelling(op);
    CHECK_MSG(!strncmp(sp, "pto.", 4), "%s is not a pto op", sp);
    CHECK_MSG(strlen(ptosim_op_formula(op)) > 10, "%s has no formula", sp);
    CHECK_MSG(ptosim_op_lookup(sp) == op, "%s is spelled twice", sp); /* unique spellings */
    ptosim_op_status st = ptosim_op_status_of(op);
    /* rows without an executor: not implemented yet, or lowered by the front end (PTOSIM_IR) */
    int lowered_only = !ids[i] && pt_op_text_of(op) == PT_TEXT_LOWERED;
    CHECK_MSG(ptosim_op_implemented(op) == (ids[i] != NULL || lowered_only), "%s: status and executor disagree", sp);
    if (!ids[i]) continue;
    CHECK_MSG((st == PTOSIM_OPS_CAPI_ONLY) != ptosim_op_in_text(op), "%s has no binder and is not C-API-only", sp);
    if (ptosim_op_pipe_id(op) == PTOSIM_PIPE_V)
      CHECK_MSG(pt_op_cost_class(op) != PT_VC_NONE, "V-pipe op %s has no cost class", sp);
    else
      CHECK_MSG(pt_op_cost_class(op) == PT_VC_NONE, "%s is not on the V pipe but has a vector cost class", sp);
  }
  CHECK(ptosim_op_lookup("pto.no_such_op") == PTOSIM_OP_COUNT && ptosim_op_lookup(NULL) == PTOSIM_OP_COUNT);
  CHECK(ptosim_op_status_of(PTOSIM_OP_COUNT) == PTOSIM_OPS_UNKNOWN);
}

static void test_every_op_tested(void) {
  static char *texts[256];
  int ntexts = 0;
  DIR *d = opendir(PTOSIM_SOURCE_DIR "/tests");
  CHECK(d != NULL);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d)) && ntexts < 256) {
    if (strncmp(e->d_name, "test_", 5) || !strstr(e->d_name, ".c") || !strcmp(e->d_name, "test_optable.c")) continue;
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/%s", PTOSIM_SOURCE_DIR, e->d_name);
    size_t len;
    texts[ntexts] = pt_test_slurp(path, &len);
    if (texts[ntexts]) ntexts++;
  }
  closedir(d);
  for (int i = 0; i < PTOSIM_OP_COUNT; i++) {
    if (!ids[i]) continue;
    char call[96], code[96];
    snprintf(call, sizeof call, "ptosim_%s(", ids[i]);
    snprintf(code, sizeof code, "PTOSIM_OP_%s", ids[i]);
    int found = 0;
    for (int t = 0; t < ntexts && !found; t++) found = strstr(texts[t], call) || strstr(texts[t], code);
    CHECK_MSG(found, "no test exercises %s", ptosim_op_spelling((ptosim_opcode)i));
  }
  for (int t = 0; t < ntexts; t++) free(texts[t]);
}

int main(void) {
  RUN(test_metadata);
  RUN(test_every_op_tested);
  return pt_test_finish();
}
