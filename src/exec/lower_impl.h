/* Internals of the lowering shared by its files: lower.c (names, slots, types, emission,
 * the region driver and the program), lower_arith.c, lower_scf.c (structured control flow
 * and calls) and lower_pto.c (pto ops, vector scopes, sections). Nothing outside src/exec
 * includes it. */
#ifndef PT_LOWER_IMPL_H
#define PT_LOWER_IMPL_H

#include <stdio.h>
#include <stdlib.h>

#include "exec/lower.h"

/* A defined SSA name. Names are a stack (scopes pop by truncation, see pop_names) indexed
 * by a hash table of chains: heads[h] and prev hold entry index + 1, 0 ends a chain. */
typedef struct name_ent {
  pa_str name;
  int32_t slot, count;
  int32_t prev;
} name_ent;

#define NAME_BUCKETS 4096

/* Where `return` of an inlined callee goes: copy into result slots, jump to the end. */
typedef struct ret_ctx {
  int32_t *result_slots;
  int nresults;
  int32_t *patches; /* instruction indices of JMPs to patch */
  int npatches, cap;
  const pa_func *caller;     /* the function the call is in */
  const struct ret_ctx *outer; /* the call that inlined the caller, NULL at the top */
} ret_ctx;

/* Where a region's terminator sends its values (what lower_yield / lower_condition accept). */
typedef enum region_kind { R_PLAIN, R_YIELD, R_COND } region_kind;

struct pt_lower {
  ptosim_program *p;
  FILE *diag;
  int errors;
  int reports;        /* calls of pt_lower_error, repeated diagnostics included */
  const pa_func *fn;  /* the function whose body is being lowered */
  region_kind region; /* kind of the innermost region */
  name_ent *names;
  int nnames, cap_names;
  int32_t heads[NAME_BUCKETS];
  int barrier; /* names below this index belong to callers: invisible */
  int vec_depth;     /* enclosing pto.vecscope / pto.strict_vecscope regions */
  int helper_scope;  /* lowering a pto.tileop.helper body: vector ops need no explicit scope */
  int section;       /* 1 inside pto.section.cube or a call of a cube-kind function, 2 vector, else 0 */
  int strict_outer;  /* inside a strict_vecscope: the barrier outside it (for vec.capture), else -1 */
  ret_ctx *ret; /* NULL in the entry function */
  int depth;    /* inlining depth */
  int unsupported; /* errors that are "not supported yet" */
  /* Where the current region's scf.yield (or scf.condition) sends its values. */
  const int32_t *yield_slots;
  int nyield;
  int32_t cond_exit; /* scf.while: instruction index of the JZ that leaves the loop */
  const int32_t *cond_results, *cond_after;
  /* Diagnostics already reported (a callee is lowered once per call site). */
  struct seen_diag {
    pa_loc loc;
    const char *rule;
  } *seen;
  int nseen, cap_seen;
};

/* Room for `need` elements of es bytes in array a of capacity *cap (doubling, from 64): the
 * possibly moved array, or NULL when out of memory (a and *cap unchanged). */
static inline void *room(void *a, int *cap, int need, size_t es) {
  if (need <= *cap) return a;
  int c = *cap ? *cap : 64;
  while (c < need) c *= 2;
  void *n = realloc(a, (size_t)c * es);
  if (n) *cap = c;
  return n;
}

#define errorf pt_lower_errorf /* the short name inside the lowering */

typedef struct named_sub {
  const char *name;
  int sub;
} named_sub;

static inline int32_t pt_lw_here(pt_lower *L) { return L->p->ncode; }
static inline pt_slot_type pt_lw_i64_type(void) { return (pt_slot_type){.kind = PT_VK_INT, .bits = 64, .dt = PTOSIM_DT_I64}; }
static inline pt_slot_type pt_lw_i1_type(void) { return (pt_slot_type){.kind = PT_VK_INT, .bits = 1}; }

/* The lowering of each op family (lower_arith.c, lower_scf.c, lower_pto.c) and of regions
 * (lower.c); then the helpers they share, each documented at its definition in lower.c. */
int pt_lower_arith(pt_lower *L, const pa_op *op);
int pt_lower_body(pt_lower *L, const pa_op *fn, const int32_t *args);
int pt_lower_call(pt_lower *L, const pa_op *op);
int pt_lower_condition(pt_lower *L, const pa_op *op);
int pt_lower_execute_region(pt_lower *L, const pa_op *op);
int pt_lower_for(pt_lower *L, const pa_op *op);
int pt_lower_if(pt_lower *L, const pa_op *op);
int pt_lower_in_region(pt_lower *L, const pa_op *op, int last);
int pt_lower_ops(pt_lower *L, const pa_region *r, const int32_t *args, int nargs, region_kind kind, const int32_t *ys, int ny);
int pt_lower_pto(pt_lower *L, const pa_op *op);
int pt_lower_region(pt_lower *L, const pa_region *r, const int32_t *arg_slots, int nargs);
int pt_lower_return(pt_lower *L, const pa_op *op);
int pt_lower_while(pt_lower *L, const pa_op *op);
int pt_lower_yield(pt_lower *L, const pa_op *op);
int pt_lw_check_ptr_elem(pt_lower *L, const pa_type *t, pa_loc loc);
void pt_lw_copy_slots(pt_lower *L, const int32_t *dst, const int32_t *src, int n);
void pt_lw_define(pt_lower *L, pa_str name, int32_t slot, int32_t count);
int pt_lw_expect_class(pt_lower *L, const pa_op *op, const pa_item *it, int32_t s, int is_int);
int pt_lw_expect_type(pt_lower *L, const pa_item *it, int32_t s, pt_slot_type want, const char *what);
int pt_lw_expect_types(pt_lower *L, const pa_op *op, const int32_t *src, const int32_t *dst, int n, const char *what);
int pt_lw_find_sub(const named_sub *t, size_t n, pa_str name);
const pa_type *pt_lw_last_type(const pa_op *op);
int32_t pt_lw_new_slots(pt_lower *L, pt_slot_type t, int n);
pt_slot_type pt_lw_placeholder_type(const pa_type *t);
void pt_lw_pop_names(pt_lower *L, int keep);

/* ptosim_program_in_order over instructions [first, end): no sync op and some tile op. */
int pt_lower_in_order(const ptosim_program *p, int32_t first, int32_t end);
/* Place again, by liveness, the tiles without addr of instructions [first, end) (one lowered
 * function) in each space their bump placement overflowed (plan.c); reuse = 0 (the function
 * did not lower cleanly) keeps the bump's capacity error. Returns -1 after an error. */
int pt_plan_tiles(pt_lower *L, int32_t first, int32_t end, int reuse);

#endif
