/* The interpreter: runs a lowered program on the cores of each block. Each core has its
 * own slots and program counter; cores of a block take turns, a core giving up its turn
 * only when it waits for a cross-core flag that is not set yet, so every run is
 * deterministic whatever the host. The blocks of a program with pto.syncall take turns the
 * same way (run_together). A wait that can never be satisfied is reported as a deadlock
 * with the location of every waiting core. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "core/dtype.h"
#include "core/optable.h"
#include "core/sched.h"
#include "exec/lower.h"
#include "exec/parallel.h"
#include "exec/tiles.h"
#include "isa/park.h"

typedef struct core_run {
  ptosim_core *core;
  int sub;        /* vector sub-block index (0 for the cube core) */
  pt_val *slots;
  pt_obj *objs;   /* tiles and views (see pt_obj) */
  int32_t pc;
  int done;
} core_run;

typedef struct block_run {
  const ptosim_program *p;
  ptosim_machine *m;
  core_run cores[3];
  int ncores;
  int subblock_num;
} block_run;

/* ---- scalar semantics ---------------------------------------------------------------------- */

/* Keep an integer in canonical form: i1 as 0/1, others sign-extended from their width. */
static int64_t wrap(uint64_t v, unsigned bits) {
  if (bits == 1) return (int64_t)(v & 1);
  if (bits >= 64 || bits == 0) return (int64_t)v;
  uint64_t m = 1ull << (bits - 1);
  v &= (m << 1) - 1;
  return (int64_t)((v ^ m) - m);
}

static uint64_t zext(int64_t v, unsigned bits) {
  return bits >= 64 || bits == 0 ? (uint64_t)v : (uint64_t)v & ((1ull << bits) - 1);
}

static double round_float(double x, unsigned bits) {
  if (bits == 32) return (double)(float)x;
  if (bits == 16) return pt_f16_to_f32(pt_f32_to_f16((float)x, PT_RND_RINT, PT_SAT_OFF));
  return x;
}

/* Returns 0, or -1 on division by zero. */
static int binop(const pt_ins *in, pt_val a, pt_val b, pt_val *r) {
  unsigned w = in->bits;
  uint64_t ua = zext(a.i, w), ub = zext(b.i, w);
  int64_t sa = a.i, sb = b.i;
  switch (in->sub) {
  case PT_B_ADD: r->i = wrap(ua + ub, w); return 0;
  case PT_B_SUB: r->i = wrap(ua - ub, w); return 0;
  case PT_B_MUL: r->i = wrap(ua * ub, w); return 0;
  case PT_B_AND: r->i = wrap(ua & ub, w); return 0;
  case PT_B_OR: r->i = wrap(ua | ub, w); return 0;
  case PT_B_XOR: r->i = wrap(ua ^ ub, w); return 0;
  case PT_B_SHL: r->i = ub >= w ? 0 : wrap(ua << ub, w); return 0;
  case PT_B_BITSET0: r->i = wrap(ua & ~(1ull << (ub & 63)), w); return 0;
  case PT_B_BITSET1: r->i = wrap(ua | 1ull << (ub & 63), w); return 0;
  case PT_B_SHRU: r->i = ub >= w ? 0 : wrap(ua >> ub, w); return 0;
  case PT_B_SHRS: r->i = ub >= w ? (sa < 0 ? -1 : 0) : wrap((uint64_t)(sa >> ub), w); return 0;
  case PT_B_MAXS: r->i = sa > sb ? sa : sb; return 0;
  case PT_B_MINS: r->i = sa < sb ? sa : sb; return 0;
  case PT_B_MAXU: r->i = ua > ub ? a.i : b.i; return 0;
  case PT_B_MINU: r->i = ua < ub ? a.i : b.i; return 0;
  case PT_B_ADDF: r->f = round_float(a.f + b.f, w); return 0;
  case PT_B_SUBF: r->f = round_float(a.f - b.f, w); return 0;
  case PT_B_MULF: r->f = round_float(a.f * b.f, w); return 0;
  case PT_B_DIVF: r->f = round_float(a.f / b.f, w); return 0;
  case PT_B_REMF: r->f = round_float(fmod(a.f, b.f), w); return 0;
  case PT_B_MAXF: r->f = isnan(a.f) || isnan(b.f) ? NAN : a.f > b.f ? a.f : b.f; return 0;
  case PT_B_MINF: r->f = isnan(a.f) || isnan(b.f) ? NAN : a.f < b.f ? a.f : b.f; return 0;
  default: break;
  }
  /* divisions */
  if (ub == 0) return -1;
  switch (in->sub) {
  case PT_B_DIVU: r->i = wrap(ua / ub, w); return 0;
  case PT_B_REMU: r->i = wrap(ua % ub, w); return 0;
  case PT_B_CEILDIVU: r->i = wrap(ua / ub + (ua % ub != 0), w); return 0;
  default: break;
  }
  if (sb == -1) { /* avoid INT64_MIN / -1; the result wraps */
    r->i = in->sub == PT_B_REMS ? 0 : wrap(0 - (uint64_t)sa, w);
    return 0;
  }
  int64_t q = sa / sb, m = sa % sb;
  if (in->sub == PT_B_DIVS) r->i = q;
  else if (in->sub == PT_B_REMS) r->i = m;
  else if (in->sub == PT_B_CEILDIVS) r->i = q + (m != 0 && ((m > 0) == (sb > 0)));
  else r->i = q - (m != 0 && ((m < 0) != (sb < 0))); /* floordiv */
  return 0;
}

static int cmpi(int pred, int64_t a, int64_t b, unsigned w) {
  uint64_t ua = zext(a, w), ub = zext(b, w);
  switch (pred) {
  case 0: return a == b;
  case 1: return a != b;
  case 2: return a < b;
  case 3: return a <= b;
  case 4: return a > b;
  case 5: return a >= b;
  case 6: return ua < ub;
  case 7: return ua <= ub;
  case 8: return ua > ub;
  default: return ua >= ub;
  }
}

static int cmpf(int pred, double a, double b) {
  int uno = isnan(a) || isnan(b);
  switch (pred) {
  case 0: return 0;
  case 1: return !uno && a == b;
  case 2: return !uno && a > b;
  case 3: return !uno && a >= b;
  case 4: return !uno && a < b;
  case 5: return !uno && a <= b;
  case 6: return !uno && a != b;
  case 7: return !uno;
  case 8: return uno || a == b;
  case 9: return uno || a > b;
  case 10: return uno || a >= b;
  case 11: return uno || a < b;
  case 12: return uno || a <= b;
  case 13: return uno || a != b;
  case 14: return uno;
  default: return 1;
  }
}

static pt_val cast(const ptosim_program *p, const pt_ins *in, pt_val a) {
  pt_slot_type st = p->slots[in->a], dt = p->slots[in->dst];
  pt_val r;
  memset(&r, 0, sizeof r);
  switch (in->sub) {
  case 0: r.i = wrap((uint64_t)a.i, dt.bits); break;           /* sign-extend / truncate */
  case 1: r.i = wrap(zext(a.i, st.bits), dt.bits); break;       /* zero-extend */
  case 2: r.f = round_float((double)a.i, dt.bits); break;       /* sitofp */
  case 3: r.f = round_float((double)zext(a.i, st.bits), dt.bits); break;
  case 4:                                                        /* fptosi: saturate, NaN -> 0 */
  case 5: {
    int64_t lo = in->sub == 4 ? (dt.bits >= 64 ? INT64_MIN : -(int64_t)(1ull << (dt.bits - 1))) : 0;
    int64_t hi = dt.bits >= 64 ? INT64_MAX : in->sub == 4 ? (int64_t)((1ull << (dt.bits - 1)) - 1) : (int64_t)((1ull << dt.bits) - 1);
    r.i = wrap((uint64_t)pt_f32_to_int((float)a.f, PT_RND_TRUNC, lo, hi), dt.bits);
    break;
  }
  case 6: r.f = round_float(a.f, dt.bits); break; /* extf / truncf */
  default: /* bitcast */
    if (st.kind == PT_VK_FLOAT && dt.kind == PT_VK_INT) {
      if (st.bits == 32) {
        float f = (float)a.f;
        uint32_t u;
        memcpy(&u, &f, 4);
        r.i = wrap(u, dt.bits);
      } else if (st.bits == 16) {
        r.i = wrap(st.dt == PTOSIM_DT_BF16 ? pt_f32_to_bf16((float)a.f, PT_RND_RINT, PT_SAT_OFF)
                                          : pt_f32_to_f16((float)a.f, PT_RND_RINT, PT_SAT_OFF), dt.bits);
      } else {
        uint64_t u;
        memcpy(&u, &a.f, 8);
        r.i = (int64_t)u;
      }
    } else if (st.kind == PT_VK_INT && dt.kind == PT_VK_FLOAT) {
      uint64_t u = zext(a.i, st.bits);
      if (dt.bits == 32) {
        uint32_t v = (uint32_t)u;
        float f;
        memcpy(&f, &v, 4);
        r.f = f;
      } else if (dt.bits == 16) {
        r.f = dt.dt == PTOSIM_DT_BF16 ? pt_bf16_to_f32((uint16_t)u) : pt_f16_to_f32((uint16_t)u);
      } else {
        memcpy(&r.f, &u, 8);
      }
    } else {
      r = a;
    }
  }
  return r;
}

/* The pure scalar instructions (no memory, no control flow, no core state). Returns 1
 * when `in` is one and s[in->dst] was written, 0 when it is not one, -1 on an integer
 * division by zero. */
static inline int eval_pure(const ptosim_program *p, const pt_ins *in, pt_val *s) {
  switch ((pt_code)in->code) {
  case PT_C_CONST: s[in->dst] = in->imm; return 1;
  case PT_C_MOV: s[in->dst] = s[in->a]; return 1;
  case PT_C_WMOV: memcpy(s[in->dst].w, s[in->a].w, (size_t)in->imm.i); return 1;
  case PT_C_BIN:
    if (in->bits == 64 && in->sub <= PT_B_MUL) { /* the usual index arithmetic, without the call */
      uint64_t a = (uint64_t)s[in->a].i, b = (uint64_t)s[in->b].i;
      s[in->dst].i = (int64_t)(in->sub == PT_B_ADD ? a + b : in->sub == PT_B_SUB ? a - b : a * b);
      return 1;
    }
    return binop(in, s[in->a], s[in->b], &s[in->dst]) ? -1 : 1;
  case PT_C_CMPI: s[in->dst].i = cmpi(in->sub, s[in->a].i, s[in->b].i, in->bits); return 1;
  case PT_C_CMPF: s[in->dst].i = cmpf(in->sub, s[in->a].f, s[in->b].f); return 1;
  case PT_C_SELECT: s[in->dst] = s[in->a].i ? s[in->b] : s[in->c]; return 1;
  case PT_C_CAST: s[in->dst] = cast(p, in, s[in->a]); return 1;
  case PT_C_NEGF: s[in->dst].f = -s[in->a].f; return 1;
  case PT_C_CASTPTR: /* from an integer or a pointer (pt_val.p.addr aliases pt_val.i) */
    s[in->dst].p = in->imm.p;
    s[in->dst].p.addr = (uint64_t)s[in->a].i;
    return 1;
  case PT_C_PTRTOINT: s[in->dst].i = wrap(s[in->a].p.addr, in->bits); return 1;
  case PT_C_ADDPTR: {
    ptosim_ptr q = s[in->a].p;
    q.addr += (uint64_t)s[in->b].i * pt_dtype_bits(q.dtype) / 8;
    q.space = in->imm.p.space;
    q.dtype = in->imm.p.dtype;
    s[in->dst].p = q;
    return 1;
  }
  default: return 0;
  }
}

int pt_eval_pure(const ptosim_program *p, const pt_ins *in, pt_val *s) { return eval_pure(p, in, s); }

/* ---- execution -------------------------------------------------------------------------------- */

static ptosim_loc loc_of(const ptosim_program *p, const pt_ins *in) {
  ptosim_loc l = {p->ast->file, 0, 0};
  if (in->src) {
    l.line = (int)in->src->loc.line;
    l.col = (int)in->src->loc.col;
  }
  return l;
}

static ptosim_status fail_at(block_run *br, const pt_ins *in, ptosim_status st, const char *rule, const char *hint,
                             const char *msg) {
  pt_ctx x = {.m = br->m, .op = PTOSIM_OP_COUNT, .loc = loc_of(br->p, in)};
  return pt_fail(&x, st, rule, hint, "%s", msg);
}

/* The element slot a PT_C_AGET / PT_C_ASET names: row-major over the dims of the array type
 * of its handle slot a, the elements in the slots after a; -1 when an index is out of range. */
static int32_t array_elem(const ptosim_program *p, const pt_val *s, const pt_ins *in) {
  const pa_type *t = p->slots[in->a].decl;
  int64_t lin = 0;
  for (int32_t k = 0; k < in->op_count; k++) {
    int64_t i = s[p->operands[in->op_first + k].slot].i;
    if (i < 0 || i >= t->dims[k]) return -1;
    lin = lin * t->dims[k] + i;
  }
  return in->a + 1 + (int32_t)lin;
}

static ptosim_status run_pto(block_run *br, core_run *cr, const pt_ins *in) {
  _Alignas(16) unsigned char params[PT_PARAMS_MAX];
  if (in->plan) {
    pt_plan_apply(in->plan, cr->slots, params);
  } else {
    pt_bind b = {.lowering = 0, .prog = (ptosim_program *)br->p, .first = in->op_first, .count = in->op_count,
                 .slots = cr->slots, .objs = cr->objs, .res_slot = in->dst, .res_obj = in->obj};
    memset(params, 0, pt_op_params_size((ptosim_opcode)in->opc));
    pt_bind_op(&b, (ptosim_opcode)in->opc, in->src, params);
  }
  ptosim_loc loc = loc_of(br->p, in);
  if (in->obj >= 0) cr->slots[in->dst].i = in->obj;
  ptosim_core *c = in->sub == PT_CORE_OWN ? cr->core : ptosim_core_of(br->m, cr->core->block, in->sub == PT_CORE_CUBE ? PTOSIM_AIC : PTOSIM_AIV0);
  return ptosim_exec(c, (ptosim_opcode)in->opc, params, &loc);
}

/* pto.load / pto.store: one element through the table's scalar ops. */
static ptosim_status run_mem(block_run *br, core_run *cr, const pt_ins *in) {
  const ptosim_program *p = br->p;
  ptosim_ptr ptr = cr->slots[in->b].p;
  unsigned es = pt_dtype_size(ptr.dtype);
  ptr.addr += (uint64_t)cr->slots[in->c].i * es;
  unsigned char buf[8] = {0};
  ptosim_scalar_mem_params mp = {.ptr = ptr, .value = buf, .pipe = in->sub ? PTOSIM_PIPE_V : PTOSIM_PIPE_S};
  ptosim_loc loc = loc_of(p, in);
  if (in->code == PT_C_LOAD) {
    PT_TRY(ptosim_exec(cr->core, PTOSIM_OP_load_scalar, &mp, &loc));
    pt_slot_type t = p->slots[in->dst];
    if (t.kind == PT_VK_FLOAT) cr->slots[in->dst].f = pt_load_as_f32(ptr.dtype, buf);
    else cr->slots[in->dst].i = wrap((uint64_t)pt_load_int(ptr.dtype, buf), t.bits);
    return PTOSIM_OK;
  }
  pt_slot_type t = p->slots[in->a];
  if (t.kind == PT_VK_FLOAT) pt_store_from_f32(ptr.dtype, buf, (float)cr->slots[in->a].f, PT_RND_RINT, PT_SAT_OFF);
  else if (es <= sizeof buf) memcpy(buf, &cr->slots[in->a].i, es);
  return ptosim_exec(cr->core, PTOSIM_OP_store_scalar, &mp, &loc);
}

enum { STEP_DONE, STEP_BLOCKED, STEP_ERROR };

/* "cube core waits at L:C; vector core 0 waits at L:C" for the unfinished cores of the
 * block, after `head`; the instruction of the first of them in *first. */
static void where_cores(const block_run *br, const char *head, const char *verb, char *msg, size_t size,
                        const pt_ins **first) {
  int n = snprintf(msg, size, "%s", head), listed = 0;
  *first = NULL;
  for (int i = 0; i < br->ncores && n < (int)size; i++) {
    const core_run *cr = &br->cores[i];
    if (cr->done) continue;
    const pt_ins *in = &br->p->code[cr->pc];
    if (!*first) *first = in;
    n += snprintf(msg + n, size - (size_t)n, "%s%s %s %d:%d", listed++ ? "; " : "",
                  cr->core->kind == PTOSIM_AIC ? "cube core" : cr->sub ? "vector core 1" : "vector core 0", verb,
                  (int)in->src->loc.line, (int)in->src->loc.col);
  }
}

#define PT_PROGRESS_EDGES (1u << 22)

/* A loop back-edge of core cr: counts against the step limit, honours an interrupt and
 * reports progress. Returns 0 to go on, else the fault in *st. */
static int back_edge(block_run *br, core_run *cr, ptosim_status *st) {
  ptosim_machine *m = br->m;
  uint64_t n = ++m->back_edges;
  if (m->progress && !(n & (PT_PROGRESS_EDGES - 1))) m->progress(m->progress_user, m->ops_executed);
  int stop = *m->stop;
  if (!stop && n <= m->max_back_edges) return 0;
  char msg[400], head[96];
  const pt_ins *first;
  cr->pc--; /* report the instruction that branched */
  if (stop) snprintf(head, sizeof head, "interrupted after %" PRIu64 " ops: ", m->ops_executed);
  else snprintf(head, sizeof head, "stopped after %" PRIu64 " loop iterations: ", n - 1);
  where_cores(br, head, "at", msg, sizeof msg, &first);
  cr->pc++;
  *st = fail_at(br, first, PTOSIM_E_FAULT, stop ? "run.interrupted" : "run.max_steps",
                stop ? "the run was asked to stop (signal or ptosim_machine_interrupt)"
                     : "a loop that never ends? raise the limit with --max-steps N (0: none) if the kernel is this long",
                msg);
  return -1;
}

/* Run one core until it returns, blocks or faults. The program counter lives in a local
 * and is stored back to cr->pc before anything that reads it (back edges, waits, exits). */
static int run_core(block_run *br, core_run *cr, ptosim_status *st) {
  const ptosim_program *p = br->p;
  const pt_ins *code = p->code;
  pt_val *s = cr->slots;
  int32_t pc = cr->pc;
  for (;;) {
    const pt_ins *in = &code[pc++];
    if (in->code <= PT_C_LAST_PURE) {
      if (eval_pure(p, in, s) >= 0) continue;
      cr->pc = pc;
      *st = fail_at(br, in, PTOSIM_E_FAULT, "run.div_zero", "guard the divisor", "integer division by zero");
      return STEP_ERROR;
    }
    switch ((pt_code)in->code) {
    default: break;
    case PT_C_JMP:
      cr->pc = pc;
      if (in->target < pc && back_edge(br, cr, st)) return STEP_ERROR;
      pc = in->target;
      break;
    case PT_C_JZ:
      if (!s[in->a].i) pc = in->target;
      break;
    case PT_C_FOR_INIT:
      s[in->dst] = s[in->a];
      if (!(s[in->dst].i < s[in->b].i)) pc = in->target;
      break;
    case PT_C_FOR_NEXT: { /* iv += step while iv + step < ub, without wrapping */
      int64_t iv = s[in->a].i, step = s[in->c].i, ub = s[in->b].i;
      if (step <= 0) {
        cr->pc = pc;
        *st = fail_at(br, in, PTOSIM_E_FAULT, "run.for_step", "scf.for steps must be positive", "scf.for step is not positive");
        return STEP_ERROR;
      }
      if (iv >= ub || (uint64_t)ub - (uint64_t)iv <= (uint64_t)step) break;
      s[in->a].i = iv + step;
      pc = cr->pc = in->target;
      if (back_edge(br, cr, st)) return STEP_ERROR;
      break;
    }
    case PT_C_PTO:
      *st = run_pto(br, cr, in);
      if (*st == PTOSIM_BLOCKED) {
        *st = PTOSIM_OK;
        cr->pc = pc - 1; /* a cross-core wait: issue it again when resumed */
        return STEP_BLOCKED;
      }
      if (*st != PTOSIM_OK) return cr->pc = pc, STEP_ERROR;
      break;
    case PT_C_QUERY: {
      int64_t v = in->sub == 0 ? cr->core->block : in->sub == 1 ? br->m->blocks : in->sub == 2 ? cr->sub : br->subblock_num;
      s[in->dst].i = wrap((uint64_t)v, in->bits);
      break;
    }
    case PT_C_SECTION:
      if (in->sub == 2 ? cr->core->kind != PTOSIM_AIV0 : (in->sub == 0) != (cr->core->kind == PTOSIM_AIC)) pc = in->target;
      break;
    case PT_C_LOAD:
    case PT_C_STORE:
      if ((*st = run_mem(br, cr, in)) != PTOSIM_OK) return cr->pc = pc, STEP_ERROR;
      break;
    case PT_C_OBJ:
      if ((*st = pt_run_obj(p, cr->core, s, cr->objs, in)) != PTOSIM_OK) return cr->pc = pc, STEP_ERROR;
      break;
    case PT_C_EXTERN: {
      char msg[300];
      const pa_item *f = in->src->nitems ? &in->src->items[0] : NULL;
      snprintf(msg, sizeof msg, "not supported yet: call of @%.*s, declared without a body", f ? (int)f->name.n : 0, f ? f->name.s : "");
      *st = fail_at(br, in, PTOSIM_E_UNSUPPORTED, "run.extern_call", "link the callee's definition into the module (ptosim runs only what the text defines)", msg);
      return cr->pc = pc, STEP_ERROR;
    }
    case PT_C_AGET:
    case PT_C_ASET: {
      int32_t e = array_elem(p, s, in);
      if (e < 0) {
        *st = fail_at(br, in, PTOSIM_E_FAULT, "run.array_bounds", "keep each index within its dimension",
                      "local array index out of bounds");
        return cr->pc = pc, STEP_ERROR;
      }
      if (in->code == PT_C_AGET) s[in->dst] = s[e];
      else s[e] = s[in->c];
      break;
    }
    case PT_C_RETURN:
      cr->pc = pc;
      if (cr->core->park && (*st = pt_park_finish(cr->core, loc_of(p, in))) != PTOSIM_OK) return STEP_ERROR;
      cr->done = 1;
      pt_sched_finish_core(br->m, cr->core);
      return STEP_DONE;
    }
  }
}

/* One turn of each unfinished core of the block: 1 while a core is unfinished, 0 when all
 * returned, -1 on a fault (in *st). Sets *progress when a core moved on. */
static int block_turn(block_run *br, int *progress, ptosim_status *st) {
  int alive = 0;
  for (int i = 0; i < br->ncores; i++) {
    core_run *cr = &br->cores[i];
    if (cr->done) continue;
    int32_t pc0 = cr->pc;
    uint64_t edges0 = br->m->back_edges; /* a loop may come back to the same wait */
    if (run_core(br, cr, st) == STEP_ERROR) return -1;
    if (cr->done || cr->pc != pc0 || br->m->back_edges != edges0) *progress = 1;
    if (!cr->done) alive = 1;
  }
  return alive;
}

/* Every unfinished core waits for a signal nobody will send. */
static ptosim_status deadlock(block_run *br, const char *head, const char *hint) {
  char msg[400];
  const pt_ins *first;
  where_cores(br, head, "waits at", msg, sizeof msg, &first);
  return fail_at(br, first, PTOSIM_E_FAULT, "sync.deadlock", hint, msg);
}

static ptosim_status run_block(block_run *br) {
  for (;;) {
    int progress = 0;
    ptosim_status st = PTOSIM_OK;
    int r = block_turn(br, &progress, &st);
    if (r <= 0) return st;
    if (!progress) return deadlock(br, "deadlock: ", "a pto.sync.wait has no matching pto.sync.set");
  }
}

int pt_block_scratch_init(pt_block_scratch *s, const ptosim_program *p) {
  s->slots = calloc((size_t)p->nslots * 3 + 1, sizeof *s->slots);
  s->objs = calloc((size_t)p->nobjs * 3 + 1, sizeof *s->objs);
  s->wide = aligned_alloc(64, (size_t)p->wide_bytes * 3 + 64); /* registers of the 3 cores */
  if (s->slots && s->objs && s->wide) return 0;
  pt_block_scratch_free(s);
  return -1;
}

void pt_block_scratch_free(pt_block_scratch *s) {
  free(s->slots);
  free(s->objs);
  free(s->wide);
  s->slots = NULL;
  s->objs = NULL;
  s->wide = NULL;
}

/* The core kinds a program launches in each block (bit 1 << ptosim_core_kind; a mixed
 * program of kind 3 runs one thread, on the cube core). */
static uint32_t launch_kinds(const ptosim_program *p) {
  return p->ncores_kind == 1 || p->ncores_kind == 3 ? 1u : p->ncores_kind == 2 ? 2u : 7u;
}

/* Set up the cores of block blk (their slots in scr) to run p from the start. */
static void block_init(block_run *br, const ptosim_program *p, ptosim_machine *m, int blk, const ptosim_arg *args,
                       pt_block_scratch *scr) {
  int kind = p->ncores_kind;
  *br = (block_run){.p = p, .m = m, .subblock_num = kind == 0 ? 2 : 1};
  m->launch_kinds = launch_kinds(p);
  if (kind != 2) br->cores[br->ncores++] = (core_run){.core = ptosim_core_of(m, blk, PTOSIM_AIC)};
  if (kind != 1 && kind != 3) br->cores[br->ncores++] = (core_run){.core = ptosim_core_of(m, blk, PTOSIM_AIV0)};
  if (kind == 0) br->cores[br->ncores++] = (core_run){.core = ptosim_core_of(m, blk, PTOSIM_AIV1), .sub = 1};
  for (int k = 0; k < 3; k++) { /* a launch starts with empty tile pipes and no barrier arrival */
    ptosim_core *c = ptosim_core_of(m, blk, (ptosim_core_kind)k);
    memset(c->tpipe, 0, sizeof c->tpipe);
    memset(&c->bar, 0, sizeof c->bar);
  }
  for (int c = 0; c < br->ncores; c++) {
    core_run *cr = &br->cores[c];
    cr->slots = scr->slots + (size_t)c * (size_t)p->nslots;
    cr->objs = scr->objs + (size_t)c * (size_t)p->nobjs;
    memset(cr->slots, 0, (size_t)p->nslots * sizeof *cr->slots);
    uint8_t *arena = scr->wide + (size_t)c * p->wide_bytes;
    memset(arena, 0, p->wide_bytes);
    for (int32_t i = 0; i < p->nslots; i++)
      if (pt_wide_size(p->slots[i].kind)) cr->slots[i].w = arena + p->slots[i].wide;
    for (int i = 0; i < p->nparams; i++) {
      pt_slot_type t = p->slots[p->param_slot[i]];
      pt_val *v = &cr->slots[p->param_slot[i]];
      if (t.kind == PT_VK_PTR) v->p = ptosim_ptr_make(PTOSIM_GM, t.dt, args[i].gm_addr);
      else if (t.kind == PT_VK_FLOAT) v->f = round_float(args[i].f, t.bits);
      else v->i = wrap((uint64_t)args[i].i, t.bits);
    }
  }
}

ptosim_status pt_run_block(const ptosim_program *p, ptosim_machine *m, int blk, const ptosim_arg *args,
                           pt_block_scratch *scr) {
  block_run br;
  block_init(&br, p, m, blk, args, scr);
  ptosim_status st = run_block(&br);
  /* Eager schedule: the block's queued ops run and their writes land (after a fault
   * they are dropped: memory shows what had landed). */
  if (st == PTOSIM_OK) st = pt_sched_flush(m);
  return st;
}

/* ---- blocks meeting at pto.syncall ------------------------------------------------------------ */

static int uses_syncall(const ptosim_program *p) {
  for (int32_t i = 0; i < p->ncode; i++)
    if (p->code[i].code == PT_C_PTO && p->code[i].opc == PTOSIM_OP_syncall) return 1;
  return 0;
}

/* A program with pto.syncall runs every block at once, the blocks taking turns as the
 * cores of a block do (a core waiting at the barrier lets the others run). */
static ptosim_status run_together(const ptosim_program *p, ptosim_machine *m, const ptosim_arg *args) {
  int n = m->blocks, ready = 0;
  block_run *br = calloc((size_t)n, sizeof *br);
  pt_block_scratch *scr = calloc((size_t)n, sizeof *scr);
  for (; br && scr && ready < n && !pt_block_scratch_init(&scr[ready], p); ready++) block_init(&br[ready], p, m, ready, args, &scr[ready]);
  pt_ctx x = {.m = m, .op = PTOSIM_OP_COUNT};
  ptosim_status st = ready == n ? PTOSIM_OK
                                : pt_fail(&x, PTOSIM_E_NOMEM, "api.nomem", "run fewer blocks",
                                          "out of memory for the registers of the %d blocks that meet at pto.syncall", n);
  for (int alive = 1; st == PTOSIM_OK && alive;) {
    int progress = 0, first = -1;
    for (int b = 0; b < n && st == PTOSIM_OK; b++) {
      int r = block_turn(&br[b], &progress, &st);
      if (r > 0 && first < 0) first = b;
    }
    alive = first >= 0;
    if (st == PTOSIM_OK && alive && !progress) {
      char head[64];
      snprintf(head, sizeof head, "deadlock (block %d of %d): ", first, n);
      st = deadlock(&br[first], head, "every participant of a pto.syncall must reach it (a core that returns first never arrives)");
    }
  }
  if (st == PTOSIM_OK) st = pt_sched_flush(m);
  for (int b = 0; b < ready; b++) pt_block_scratch_free(&scr[b]);
  free(scr);
  free(br);
  return st;
}

ptosim_status ptosim_program_run(const ptosim_program *p, ptosim_machine *m, const ptosim_arg *args) {
  return ptosim_program_run_threads(p, m, args, 1);
}

ptosim_status ptosim_program_run_threads(const ptosim_program *p, ptosim_machine *m, const ptosim_arg *args,
                                         int threads) {
  if (!p || !m || (!args && p->nparams)) {
    pt_ctx x = {.m = m, .op = PTOSIM_OP_COUNT};
    return m ? pt_fail(&x, PTOSIM_E_USAGE, "api.args", NULL, "ptosim_program_run: null %s", p ? "arguments" : "program")
             : PTOSIM_E_USAGE;
  }
  m->nbarriers = 0; /* the hard barriers' counts start again (soft ones count in GM) */
  if (m->blocks > 1 && uses_syncall(p)) return run_together(p, m, args);
  ptosim_status st = pt_run_parallel(p, m, args, threads);
  if (st != PT_RUN_SEQUENTIAL) return st;
  pt_block_scratch scr;
  if (pt_block_scratch_init(&scr, p)) return PTOSIM_E_NOMEM;
  st = PTOSIM_OK;
  for (int blk = 0; blk < m->blocks && st == PTOSIM_OK; blk++) st = pt_run_block(p, m, blk, args, &scr);
  pt_block_scratch_free(&scr);
  return st;
}
