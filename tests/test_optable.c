/* Walks the op table: every op must have an executor, metadata, a unique spelling, and
 * be exercised by at least one test file (its C API wrapper ptosim_<id>( or its opcode
 * PTOSIM_OP_<id> appears in some tests/test_*.c other than this one). */
#include <dirent.h>
#include <string.h>

#include "harness.h"
#include "ptosim/ptosim.h"

static const char *const ids[PTOSIM_OP_COUNT] = {
#define PTOSIM_OP(id, spelling, family, pipe, unit, params, exec, formula) #id,
#include "ptosim/ops.def"
#undef PTOSIM_OP
};

static void test_metadata(void) {
  for (int i = 0; i < PTOSIM_OP_COUNT; i++) {
    ptosim_opcode op = (ptosim_opcode)i;
    CHECK_MSG(ptosim_op_implemented(op), "%s has no executor", ptosim_op_spelling(op));
    CHECK(!strncmp(ptosim_op_spelling(op), "pto.", 4));
    CHECK(strlen(ptosim_op_formula(op)) > 10);
    CHECK(ptosim_op_lookup(ptosim_op_spelling(op)) == op); /* unique spellings */
  }
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
