/* Placement of the tiles without addr that do not all fit their memory (pto.alloc_tile,
 * pto.alloc_multi_tile and memref.alloc without an address).
 *
 * The lowering places such tiles one after the other in their space (tiles.c,
 * place_without_addr). When a space overflows that way, PTOAS would still compile the
 * program: its memory planner gives a tile the bytes of tiles no longer live
 * (tonibohnlein/PTOAS lib/PTO/Transforms/PTOPlanMemoryModern.cpp). This file does the
 * same, conservatively, over one lowered function:
 *  - only when the function has no sync op (ptosim_program_in_order): PTOAS inserts the
 *    synchronization of such programs, so every op runs in program order and a dead
 *    tile's bytes can be reused at once; otherwise the bump's error stays;
 *  - slots that name one tile's storage form a group (union-find): copies (PT_C_MOV,
 *    PT_C_SELECT: loop-carried values, inlined calls), views of a tile (pt_obj_alias), a
 *    tile op's tile result with all its tile operands;
 *  - a group lives from the first to the last instruction that uses one of its slots (the
 *    alloc itself moves no data and does not count), widened to every loop whose body it
 *    meets (a backward jump from j to t: [t, j]), to a fixed point for nested loops; a
 *    group a pointer escapes from (pto.tile_buf_addr) lives through the whole function;
 *  - the allocs of the space, in order of their start, each take the lowest aligned
 *    address free of every allocation placed before it whose life overlaps its own (first
 *    fit; a multi tile takes all its slots), around the pto.reserve_buffer areas of the
 *    function (fixed, live throughout: reserve_buffer places them from the top down).
 * Fitting programs keep their bump addresses: nothing here runs unless a space overflows. */
#include <stdio.h>
#include <stdlib.h>

#include "core/profile.h"
#include "exec/bind_tile_pipe.h"
#include "exec/lower_impl.h"
#include "exec/tiles.h"

typedef struct root {
  int32_t pc, lo, hi; /* the alloc; its life [lo, hi] in instructions */
  uint64_t bytes, addr;
  ptosim_space space;
  int fixed; /* a pto.reserve_buffer area: at its address, live through the function */
} root;

typedef struct planner {
  pt_lower *L;
  ptosim_program *p;
  const pt_profile *prof;
  int32_t first, end;
  int32_t *parent;       /* union-find over slots */
  int32_t *lo, *hi;      /* per group root: first and last use, hi < lo when none */
  root *roots;
  int nroots;
} planner;

static int32_t find(planner *q, int32_t s) {
  while (q->parent[s] != s) s = q->parent[s] = q->parent[q->parent[s]];
  return s;
}

static int is_tile(const planner *q, int32_t s) { return s >= 0 && q->p->slots[s].kind == PT_VK_TILE; }

static void unite(planner *q, int32_t a, int32_t b) {
  if (!is_tile(q, a) || !is_tile(q, b)) return;
  a = find(q, a), b = find(q, b);
  if (a != b) q->parent[a < b ? b : a] = a < b ? a : b; /* the lower slot leads: deterministic */
}

static int is_root(const pt_ins *in) { return in->code == PT_C_OBJ && (in->flags & PT_INS_PLANNED); }

static void touch(planner *q, int32_t s, int32_t pc) {
  if (!is_tile(q, s)) return;
  s = find(q, s);
  if (pc < q->lo[s]) q->lo[s] = pc;
  if (pc > q->hi[s]) q->hi[s] = pc;
}

/* Tile slots of instruction `in` for the two passes: link them (link = 1) or mark them used
 * at pc. An alloc's own result is not a use. */
static void visit(planner *q, const pt_ins *in, int32_t pc, int link) {
  const pt_operand *ops = q->p->operands + in->op_first;
  int32_t a, b;
  switch ((pt_code)in->code) {
  case PT_C_MOV:
    if (link) unite(q, in->dst, in->a);
    else touch(q, in->dst, pc), touch(q, in->a, pc);
    break;
  case PT_C_SELECT:
    if (link) unite(q, in->dst, in->b), unite(q, in->dst, in->c);
    else touch(q, in->dst, pc), touch(q, in->b, pc), touch(q, in->c, pc);
    break;
  case PT_C_OBJ:
  case PT_C_PTO:
    if (link && in->code == PT_C_OBJ && pt_obj_alias(q->p, in, &a, &b)) unite(q, a, b);
    for (int32_t k = 0; k < in->op_count; k++)
      if (!link) touch(q, ops[k].slot, pc);
      else if (in->code == PT_C_PTO) unite(q, in->dst, ops[k].slot); /* a tile result: with every tile operand */
    if (!link && !is_root(in)) touch(q, in->dst, pc);
    if (!link && pt_obj_escapes(in) && in->op_count > 0 && is_tile(q, ops[0].slot)) {
      int32_t g = find(q, ops[0].slot);
      q->lo[g] = q->first, q->hi[g] = q->end - 1;
    }
    break;
  default: break;
  }
}

static int back_edge(const pt_ins *in, int32_t pc) {
  int jump = in->code == PT_C_JMP || in->code == PT_C_JZ || in->code == PT_C_FOR_INIT || in->code == PT_C_FOR_NEXT;
  return jump && in->target <= pc;
}

/* The roots' lives: groups, first and last uses, then loops (see the top comment). */
static void lives(planner *q) {
  const pt_ins *code = q->p->code;
  for (int32_t s = 0; s < q->p->nslots; s++) q->parent[s] = s, q->lo[s] = INT32_MAX, q->hi[s] = -1;
  for (int32_t pc = q->first; pc < q->end; pc++) visit(q, &code[pc], pc, 1);
  for (int32_t pc = q->first; pc < q->end; pc++) visit(q, &code[pc], pc, 0);
  for (int32_t pc = q->first; pc < q->end; pc++) {
    const pt_ins *in = &code[pc];
    root *r = &q->roots[q->nroots];
    ptosim_space space;
    uint64_t size;
    if (in->code == PT_C_CONST && in->src && !pt_reserve_area(in->src, &space, &size)) {
      *r = (root){.pc = pc, .lo = q->first, .hi = q->end - 1, .bytes = size, .addr = (uint64_t)in->imm.i, .space = space, .fixed = 1};
      q->nroots++;
    }
    if (!is_root(in) || in->dst < 0) continue;
    int32_t g = find(q, in->dst);
    *r = (root){.pc = pc, .lo = q->lo[g], .hi = q->hi[g], .bytes = pt_obj_placed_bytes(q->p, in), .space = q->p->objs[in->obj].tile.space};
    if (r->hi < r->lo) r->lo = r->hi = pc; /* never used */
    q->nroots++;
  }
  for (int changed = 1; changed;) {
    changed = 0;
    for (int32_t j = q->first; j < q->end; j++) {
      if (!back_edge(&code[j], j)) continue;
      int32_t t = code[j].target;
      for (int i = 0; i < q->nroots; i++) {
        root *r = &q->roots[i];
        if (r->lo > j || r->hi < t || (r->lo <= t && r->hi >= j)) continue; /* apart from the loop, or covering it */
        r->lo = r->lo < t ? r->lo : t;
        r->hi = r->hi > j ? r->hi : j;
        changed = 1;
      }
    }
  }
}

static int overlap(const root *a, const root *b) { return a->lo <= b->hi && b->lo <= a->hi; }

/* Reserved areas first, then by start, then in program order. */
static int by_start(const void *x, const void *y) {
  const root *a = x, *b = y;
  if (a->fixed != b->fixed) return b->fixed - a->fixed;
  return a->lo != b->lo ? (a->lo < b->lo ? -1 : 1) : (a->pc > b->pc) - (a->pc < b->pc);
}

static int refuse(planner *q, const root *r, const char *fmt, uint64_t need, const char *hint) {
  ptosim_space s = r->space;
  const pt_ins *in = &q->p->code[r->pc];
  char what[64];
  snprintf(what, sizeof what, "%.*s", (int)in->src->name.n, in->src->name.s);
  pt_lower_errorf(q->L, in->src->loc, "tile.capacity", hint, fmt, what, (unsigned long long)need, pt_space_name(s),
                  (unsigned long long)q->prof->capacity[s], q->prof->name);
  return -1;
}

/* Space s by first fit over the roots in order of their start (see the top comment). */
static int place_space(planner *q, ptosim_space s) {
  uint64_t a = q->prof->align[s], cap = q->prof->capacity[s];
  qsort(q->roots, (size_t)q->nroots, sizeof *q->roots, by_start);
  for (int i = 0; i < q->nroots; i++) {
    root *r = &q->roots[i];
    if (r->space != s || r->fixed) continue;
    /* Skip past each placed, overlapping root that [at, at + bytes) meets: every address
     * below its end meets it too, so the first `at` that meets none is the lowest. */
    uint64_t at = 0, live = r->bytes;
    for (int moved = 1; moved;) {
      moved = 0;
      for (int k = 0; k < i; k++) {
        const root *o = &q->roots[k];
        if (o->space != s || !overlap(r, o) || at >= o->addr + o->bytes || o->addr >= at + r->bytes) continue;
        at = (o->addr + o->bytes + a - 1) / a * a;
        moved = 1;
      }
    }
    if (at + r->bytes > cap) {
      for (int k = 0; k < q->nroots; k++)
        if (k != i && q->roots[k].space == s && overlap(r, &q->roots[k])) live += q->roots[k].bytes;
      return refuse(q, r, "%s: tiles without addr live at the same time need %llu bytes of %s, which has %llu on %s", live,
                    "end the life of some tiles (their last use) before this one's first use, or give tiles explicit addresses");
    }
    r->addr = at;
    q->p->objs[q->p->code[r->pc].obj].tile.addr = at;
  }
  return 0;
}

/* The bump's error: the first alloc of space s whose bump placement ends past the space. */
static int bump_refusal(planner *q, ptosim_space s, const char *hint) {
  for (int32_t pc = q->first; pc < q->end; pc++) {
    const pt_ins *in = &q->p->code[pc];
    if (!is_root(in) || q->p->objs[in->obj].tile.space != s) continue;
    root r = {.pc = pc, .space = s};
    uint64_t end = q->p->objs[in->obj].tile.addr + pt_obj_placed_bytes(q->p, in);
    if (end > q->prof->capacity[s]) return refuse(q, &r, "%s: tiles without addr need %llu bytes of %s, which has %llu on %s", end, hint);
  }
  return 0;
}

int pt_plan_tiles(pt_lower *L, int32_t first, int32_t end, int reuse) {
  ptosim_program *p = pt_lower_program(L);
  planner q = {.L = L, .p = p, .prof = pt_profile_get(p->target), .first = first, .end = end};
  int over = 0, rc = 0;
  for (int s = 0; s < PTOSIM_SPACE_COUNT; s++) over |= (p->alloc_next[s] > q.prof->capacity[s]) << s;
  if (!over) return 0;
  if (!reuse || !pt_lower_in_order(p, first, end)) {
    for (int s = 0; s < PTOSIM_SPACE_COUNT; s++)
      if (over >> s & 1)
        rc |= bump_refusal(&q, (ptosim_space)s, "tiles without addr reuse the bytes of dead tiles only in programs without sync "
                                                "ops; give them explicit addresses");
    return rc;
  }
  size_t n = (size_t)p->nslots + 1;
  q.parent = malloc(n * sizeof *q.parent);
  q.lo = malloc(n * sizeof *q.lo);
  q.hi = malloc(n * sizeof *q.hi);
  q.roots = malloc((size_t)(end - first + 1) * sizeof *q.roots);
  if (!q.parent || !q.lo || !q.hi || !q.roots) rc = pt_lower_errorf(L, (pa_loc){1, 1}, "bind.nomem", NULL, "out of memory");
  else lives(&q);
  for (int s = 0; !rc && s < PTOSIM_SPACE_COUNT; s++)
    if (over >> s & 1) rc |= place_space(&q, (ptosim_space)s);
  free(q.parent);
  free(q.lo);
  free(q.hi);
  free(q.roots);
  return rc ? -1 : 0;
}
