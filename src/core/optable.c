/* Op metadata generated from the op table; lookup by spelling through a hash table. */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "core/optable.h"

typedef enum { UNIT_AIC, UNIT_AIV, UNIT_ANY } pt_unit;

static const struct {
  const char *spelling, *family, *pipe, *formula;
  ptosim_pipe pipe_id;
  pt_unit unit;
  pt_op_text text;
  pt_vec_class cost;
  unsigned flags;
  size_t params_size;
} table[PTOSIM_OP_COUNT] = {
#define PTOSIM_OP(id, spelling, family, pipe, unit, params_t, exec, text, cost, flags, formula) \
  {spelling, #family, #pipe, formula, PTOSIM_PIPE_##pipe, UNIT_##unit, PT_TEXT_##text, PT_VC_##cost, flags, sizeof(params_t)},
#define PTOSIM_TODO(id, spelling, family, pipe, unit, formula) \
  {spelling, #family, #pipe, formula, PTOSIM_PIPE_##pipe, UNIT_##unit, PT_TEXT_NONE, PT_VC_NONE, 0, 0},
#define PTOSIM_IR(id, spelling, family, formula) \
  {spelling, #family, "S", formula, PTOSIM_PIPE_S, UNIT_ANY, PT_TEXT_LOWERED, PT_VC_NONE, 0, 0},
#include "isa/ops.def"
#undef PTOSIM_OP
#undef PTOSIM_TODO
#undef PTOSIM_IR
};

static int valid(ptosim_opcode op) { return (unsigned)op < PTOSIM_OP_COUNT; }

const char *ptosim_op_spelling(ptosim_opcode op) { return valid(op) ? table[op].spelling : "?"; }
const char *ptosim_op_family(ptosim_opcode op) { return valid(op) ? table[op].family : "?"; }
const char *ptosim_op_pipe(ptosim_opcode op) { return valid(op) ? table[op].pipe : "?"; }
ptosim_pipe ptosim_op_pipe_id(ptosim_opcode op) { return valid(op) ? table[op].pipe_id : PTOSIM_PIPE_S; }
const char *ptosim_op_formula(ptosim_opcode op) { return valid(op) ? table[op].formula : "?"; }
size_t pt_op_params_size(ptosim_opcode op) { return valid(op) ? table[op].params_size : 0; }
unsigned pt_op_flags(ptosim_opcode op) { return valid(op) ? table[op].flags : 0; }
pt_vec_class pt_op_cost_class(ptosim_opcode op) { return valid(op) ? table[op].cost : PT_VC_NONE; }
pt_op_text pt_op_text_of(ptosim_opcode op) { return valid(op) ? table[op].text : PT_TEXT_NONE; }

const char *ptosim_pipe_name(ptosim_pipe p) {
  static const char *const names[] = {"PIPE_S", "PIPE_MTE1", "PIPE_MTE2", "PIPE_MTE3",
                                      "PIPE_M", "PIPE_V",    "PIPE_FIX",  "PIPE_ALL"};
  return (unsigned)p <= PTOSIM_PIPE_ALL ? names[p] : "PIPE_?";
}

int pt_op_core_kind(ptosim_opcode op) {
  if (!valid(op) || table[op].unit == UNIT_ANY) return -1;
  return table[op].unit == UNIT_AIC ? PTOSIM_AIC : PTOSIM_AIV0;
}

ptosim_op_status ptosim_op_status_of(ptosim_opcode op) {
  if (!valid(op)) return PTOSIM_OPS_UNKNOWN;
  switch (table[op].text) {
  case PT_TEXT_NONE: return PTOSIM_OPS_NOT_YET;
  case PT_TEXT_CAPI: return PTOSIM_OPS_CAPI_ONLY;
  default: return PTOSIM_OPS_IMPLEMENTED;
  }
}

const char *ptosim_op_status_name(ptosim_op_status s) {
  static const char *const names[] = {"implemented", "C-API-only", "not-yet", "unknown"};
  return (unsigned)s <= PTOSIM_OPS_UNKNOWN ? names[s] : "unknown";
}

int ptosim_op_implemented(ptosim_opcode op) {
  ptosim_op_status s = ptosim_op_status_of(op);
  return s == PTOSIM_OPS_IMPLEMENTED || s == PTOSIM_OPS_CAPI_ONLY;
}

/* ---- lookup: open addressing over the spellings, built once --------------------------------- */

enum { HASH_SIZE = 4096 }; /* a power of two, well above twice the number of rows */
_Static_assert(PTOSIM_OP_COUNT * 2 < HASH_SIZE, "grow HASH_SIZE with the op table");

static uint16_t hash_slot[HASH_SIZE]; /* opcode + 1; 0 = empty */
static pthread_once_t hash_once = PTHREAD_ONCE_INIT;

static uint32_t hash_of(const char *s, size_t n) { /* FNV-1a */
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; i++) h = (h ^ (uint8_t)s[i]) * 16777619u;
  return h;
}

static void hash_build(void) {
  for (int op = 0; op < PTOSIM_OP_COUNT; op++) {
    const char *s = table[op].spelling;
    uint32_t h = hash_of(s, strlen(s)) & (HASH_SIZE - 1);
    while (hash_slot[h]) h = (h + 1) & (HASH_SIZE - 1);
    hash_slot[h] = (uint16_t)(op + 1);
  }
}

ptosim_opcode pt_op_lookup_n(const char *spelling, size_t n) {
  if (!spelling) return PTOSIM_OP_COUNT;
  pthread_once(&hash_once, hash_build);
  for (uint32_t h = hash_of(spelling, n) & (HASH_SIZE - 1); hash_slot[h]; h = (h + 1) & (HASH_SIZE - 1)) {
    const char *s = table[hash_slot[h] - 1].spelling;
    if (!strncmp(s, spelling, n) && s[n] == '\0') return (ptosim_opcode)(hash_slot[h] - 1);
  }
  return PTOSIM_OP_COUNT;
}

ptosim_opcode ptosim_op_lookup(const char *spelling) {
  return spelling ? pt_op_lookup_n(spelling, strlen(spelling)) : PTOSIM_OP_COUNT;
}
