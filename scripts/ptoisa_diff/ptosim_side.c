/* The ptosim side of scripts/ptoisa_diff: runs every case of cases.h through ptosim's C API
 * (ptosim_exec on a UB of one AIV core) on the a5 and a2a3 profiles, on the same input bytes
 * as ptoisa_side, and compares with pto-isa's destination tiles (OUTDIR/c<case>.s<shape>.bin).
 *
 *   ptosim_side OUTDIR
 *
 * prints one table row per (op, dtypes, rounding mode, profile), both shapes pooled:
 *   cmp     elements of dst's valid region compared (bit for bit)
 *   diff    of those, elements whose values differ (bits differ, not both NaN)
 *   nanp    elements where both are NaN with different bits (ptosim stores every NaN result
 *           as the positive quiet NaN: docs/spec-notes.md section 14.3)
 *   max     largest difference: ulp for floats (distance on the ordered integer line; "+nan"
 *           when a NaN faced a non-NaN or NaN payloads differ), |a - b| for integers
 *   clob    bytes of dst's tile outside its valid region that ptosim changed (the sentinel
 *           PD_SENTINEL was written there first; pto-isa's are not looked at)
 *   first   the first differing element (a value difference before a NaN-payload one): shape, (row, col), the source elements there
 *           (a, b), the scalar, pto-isa's value and ptosim's, in hex
 * A profile that refuses a case prints "refused" and the rule. It reports, it asserts nothing.
 * PD_SHOW="op dtype prof" (e.g. "tcvt F32>I32:rint:off a2a3") lists every differing element of
 * that row (in the same form as `first`) before it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases.h"
#include "ptosim/ptosim.h"

typedef struct pd_case {
  const char *op;
  ptosim_opcode opcode;
  enum pd_kind kind;
  enum pd_gen gen;
  enum pd_dt dd, ds;
  int param;
} pd_case;

static const pd_case k_cases[] = {
#define PD_ROW(op, OP, kind, gen, d, s, param) {#op, PTOSIM_OP_##op, kind, gen, PD_##d, PD_##s, param},
    PD_CASES(PD_ROW)
#undef PD_ROW
};

static const ptosim_dtype k_ptosim_dt[] = {
#define PD_X(id, cty, ps, bytes, fl, sg) PTOSIM_DT_##ps,
    PD_DTYPES(PD_X)
#undef PD_X
};

static const char *const k_rmode_names[] = {"", "rint", "round", "floor", "ceil", "trunc", "odd"};
static const char *const k_sat_names[] = {"", ":on", ":off"};
static const char *const k_cmp_names[] = {"eq", "ne", "lt", "le", "gt", "ge"};
/* The scalar choices of pd_scalar, for the rows of ops that take one. */
static const char *const k_sc_names[] = {"", ":s-", ":s0", ":snan"};

static ptosim_tile tile_of(const pd_geom *g, enum pd_dt dt, uint64_t addr) {
  ptosim_tile t;
  memset(&t, 0, sizeof t);
  t.space = PTOSIM_UB, t.addr = addr, t.dtype = k_ptosim_dt[dt], t.rows = g->rows, t.cols = g->cols;
  t.valid_rows = g->vr, t.valid_cols = g->vc, t.slayout = PTOSIM_SL_NONE_BOX, t.fractal = 512;
  t.blayout = g->col_major ? PTOSIM_BL_COL_MAJOR : PTOSIM_BL_ROW_MAJOR;
  return t;
}

/* The operand tiles of a case. */
typedef struct pd_tiles {
  ptosim_tile a, b, c, t, d, m;
} pd_tiles;

/* The parameter block of case k on the tiles x and the scalar's bits. */
static ptosim_status exec_case(ptosim_core *c, const pd_case *k, const pd_tiles *x, uint64_t sbits) {
  ptosim_tile a = x->a, b = x->b, t = x->t, d = x->d;
  switch (k->kind) {
  case PD_ROWRED:
  case PD_COLRED: {
    ptosim_treduce_params p = {.src = a, .tmp = t, .has_tmp = k->kind == PD_ROWRED, .dst = d};
    return ptosim_exec(c, k->opcode, &p, NULL);
  }
  case PD_ROWBC:
  case PD_COLBC:
  case PD_ROWEXP:
  case PD_COLEXP: {
    ptosim_texpand_params p = {.src0 = a, .src1 = b, .dst = d};
    return ptosim_exec(c, k->opcode, &p, NULL);
  }
  case PD_TCI: {
    int64_t start = (int64_t)sbits; /* the element type's value: sign-extended when signed */
    int bits = pd_dtinfo[k->ds].bytes * 8;
    if (pd_dtinfo[k->ds].is_signed && bits < 64 && (sbits >> (bits - 1) & 1)) start -= (int64_t)1 << bits;
    ptosim_tci_params p = {.dst = d, .start = start, .descending = k->param & 1};
    return ptosim_exec(c, k->opcode, &p, NULL);
  }
  case PD_TTRI: {
    ptosim_ttri_params p = {.dst = d, .diagonal = pd_tri_diag(k->param), .upper = k->param & 1};
    return ptosim_exec(c, k->opcode, &p, NULL);
  }
  default: {
    ptosim_telem_params p = {.dst = d, .src0 = a, .src1 = b, .src2 = x->c, .tmp = t, .mask = x->m};
    p.has_tmp = k->kind == PD_BINT || k->kind == PD_SCLT || k->kind == PD_SEL || k->kind == PD_SELS;
    p.scalar.dtype = k->kind == PD_EXPS ? d.dtype : a.dtype, p.scalar.bits = sbits;
    p.scalar_first = k->kind == PD_RSCL;
    p.rmode = (ptosim_round_mode)pd_low(k->param);
    p.sat = (ptosim_tsat_mode)pd_sat(k->param);
    p.cmp = (ptosim_tcmp_mode)pd_low(k->param);
    p.high_precision = pd_hp(k->param);
    return ptosim_exec(c, k->opcode, &p, NULL);
  }
  }
}

/* Signed distance-free place of an element on a monotonic line: floats by their ordered bits
 * (sign-magnitude -> two's complement), integers by their value. */
static int64_t place(uint64_t v, enum pd_dt dt) {
  const struct pd_dtinfo *t = &pd_dtinfo[dt];
  int bits = t->bytes * 8;
  uint64_t sign = 1ull << (bits - 1);
  if (t->is_float) return v & sign ? -(int64_t)(v & (sign - 1)) : (int64_t)v;
  return t->is_signed && (v & sign) ? (int64_t)v - (int64_t)(sign << 1) : (int64_t)v;
}
static int is_nan(uint64_t v, enum pd_dt dt) {
  if (dt == PD_F32) return (v & 0x7FFFFFFFu) > 0x7F800000u;
  return dt == PD_F16 && (v & 0x7FFFu) > 0x7C00u;
}

/* The tally of one (case, profile) row. */
typedef struct tally {
  long cmp, diff, nanpay, clob;
  uint64_t max;
  int nan, have_first; /* have_first: 0 none, 1 a NaN-payload difference, 2 a value difference */
  int show;            /* print every differing element (PD_SHOW) */
  char first[256];
  char refused[256];
} tally;

static uint8_t *read_file(const char *outdir, int n, int shape, size_t want) {
  char path[4096];
  snprintf(path, sizeof path, "%s/c%d.s%d.bin", outdir, n, shape);
  FILE *f = fopen(path, "rb");
  uint8_t *buf = malloc(want);
  if (!f || !buf || fread(buf, 1, want, f) != want) {
    fprintf(stderr, "ptosim_side: cannot read %zu bytes of %s (run ptoisa_side first)\n", want, path);
    exit(1);
  }
  fclose(f);
  return buf;
}

/* Element (r, c) of the compared domain in a dst image: the element, or for a predicate dst
 * (tcmp / tcmps) the bit of source element (r, c), decoded as cases.h pd_pred_bit documents
 * for both sides. */
static uint64_t dst_at(const pd_case *k, const pd_shape *g, const uint8_t *img, int r, int c) {
  if (pd_pred_dst(k->kind)) return (uint64_t)pd_pred_bit(img, g->a.vc, r, c, 0);
  return pd_load(img, pd_dtinfo[k->dd].bytes, pd_off(&g->d, r, c));
}

static void run_shape(ptosim_machine *m, const char *outdir, int n, int shape, tally *ty) {
  const pd_case *k = &k_cases[n];
  ptosim_core *c = ptosim_core_of(m, 0, PTOSIM_AIV0);
  int ds = pd_dtinfo[k->ds].bytes, dd = pd_dtinfo[k->dd].bytes;
  pd_shape g = pd_shape_of(k->kind, dd, ds, shape);
  uint32_t seed = pd_seed(n, shape);
  static uint8_t ub[PD_UB_BYTES];
  memset(ub, 0, sizeof ub);
  pd_fill_src(ub + PD_A_ADDR, &g.a, k->ds, k->gen, seed, PD_OPND_A);
  pd_fill_src(ub + PD_B_ADDR, &g.b, k->ds, k->gen, seed, PD_OPND_B);
  pd_fill_src(ub + PD_C_ADDR, &g.c, k->ds, k->gen, seed, PD_OPND_D);
  pd_fill_mask(ub + PD_M_ADDR, g.a.vr, g.a.vc, seed, 0);
  pd_fill_dst(ub + PD_D_ADDR, &g.d, k->dd, k->gen, seed);
  uint64_t sbits = pd_scalar(k->ds, k->gen, seed, pd_sc(k->param));
  if (ptosim_mem_write(c, PTOSIM_UB, 0, ub, sizeof ub) != PTOSIM_OK) abort();
  pd_tiles x = {tile_of(&g.a, k->ds, PD_A_ADDR), tile_of(&g.b, k->ds, PD_B_ADDR), tile_of(&g.c, k->ds, PD_C_ADDR),
                tile_of(&g.a, k->ds, PD_T_ADDR), tile_of(&g.d, k->dd, PD_D_ADDR), tile_of(&g.m, PD_U8, PD_M_ADDR)};
  if (exec_case(c, k, &x, sbits) != PTOSIM_OK) {
    const ptosim_diag *e = ptosim_last_diag(m);
    snprintf(ty->refused, sizeof ty->refused, "refused [%.60s] %.100s", e->rule, e->msg);
    return;
  }
  size_t dbytes = (size_t)pd_elems(&g.d) * dd;
  uint8_t *theirs = read_file(outdir, n, shape, dbytes), *ours = malloc(dbytes);
  if (!ours || ptosim_mem_read(c, PTOSIM_UB, PD_D_ADDR, ours, dbytes) != PTOSIM_OK) abort();
  /* Bytes outside the valid region: count those ptosim changed from the sentinel (a predicate
   * dst: outside its first vr rows, as ptosim writes whole vector repeats of a row). */
  int pred = pd_pred_dst(k->kind), vr = pred ? g.a.vr : g.d.vr, vc = pred ? g.a.vc : g.d.vc;
  uint8_t *inside = calloc(dbytes, 1);
  if (!inside) abort();
  for (int r = 0; r < g.d.vr; r++)
    for (int col = 0; col < (pred ? g.d.cols : g.d.vc); col++)
      memset(inside + (size_t)pd_off(&g.d, r, col) * dd, 1, (size_t)dd);
  for (size_t i = 0; i < dbytes; i++) ty->clob += !inside[i] && ours[i] != PD_SENTINEL;
  for (int r = 0; r < vr; r++)
    for (int col = 0; col < vc; col++) {
      uint64_t x = dst_at(k, &g, theirs, r, col), y = dst_at(k, &g, ours, r, col);
      ty->cmp++;
      if (x == y) continue;
      int payload = is_nan(x, k->dd) && is_nan(y, k->dd); /* two NaNs of different bits */
      ty->nanpay += payload;
      ty->diff += !payload;
      if (!payload && (is_nan(x, k->dd) || is_nan(y, k->dd))) ty->nan = 1;
      else if (!payload) {
        int64_t px = place(x, k->dd), py = place(y, k->dd);
        uint64_t dist = px > py ? (uint64_t)px - (uint64_t)py : (uint64_t)py - (uint64_t)px;
        if (dist > ty->max) ty->max = dist;
      }
      /* The first value difference wins over a first NaN-payload one. */
      if (!ty->show && (ty->have_first == 2 || (ty->have_first == 1 && payload))) continue;
      /* The source elements at (r, c) of a and b (a per-row / per-column operand at its own
       * place; reductions: a's first element of the reduced row / column). */
      int ar = g.a.rows == 1 ? 0 : r, ac = g.a.cols == 1 ? 0 : col;
      int br = g.b.rows == 1 ? 0 : r, bc = g.b.cols == 1 ? 0 : col;
      uint64_t av = pd_load(ub + PD_A_ADDR, ds, pd_off(&g.a, ar, ac));
      uint64_t bv = pd_load(ub + PD_B_ADDR, ds, pd_off(&g.b, br, bc));
      char line[sizeof ty->first];
      snprintf(line, sizeof line, "s%d (%d,%d) a=%0*llx b=%0*llx s=%0*llx: pto-isa %0*llx ptosim %0*llx", shape, r, col,
               2 * ds, (unsigned long long)av, 2 * ds, (unsigned long long)bv, 2 * ds, (unsigned long long)sbits,
               2 * dd, (unsigned long long)x, 2 * dd, (unsigned long long)y);
      if (ty->show) printf("  %s\n", line);
      if (ty->have_first == 2 || (ty->have_first == 1 && payload)) continue;
      memcpy(ty->first, line, sizeof line);
      ty->have_first = payload ? 1 : 2;
    }
  free(theirs), free(ours), free(inside);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: ptosim_side OUTDIR\n");
    return 2;
  }
  static const ptosim_target targets[] = {PTOSIM_TARGET_A5, PTOSIM_TARGET_A2A3};
  const char *show = getenv("PD_SHOW"); /* "op dtype prof" of a row: list its differing elements */
  printf("%-16s %-16s %-5s %5s %5s %5s %12s %4s  %s\n", "op", "dtype", "prof", "cmp", "diff", "nanp", "max", "clob",
         "first difference");
  for (int n = 0; n < (int)(sizeof k_cases / sizeof k_cases[0]); n++) {
    const pd_case *k = &k_cases[n];
    char dt[48];
    int p = k->param;
    if (k->kind == PD_TCI)
      snprintf(dt, sizeof dt, "%s:%s", pd_dtinfo[k->dd].name, p ? "desc" : "asc");
    else if (k->kind == PD_TTRI)
      snprintf(dt, sizeof dt, "%s:%s%d", pd_dtinfo[k->dd].name, p & 1 ? "up" : "lo", pd_tri_diag(p));
    else if (k->kind == PD_CVT)
      snprintf(dt, sizeof dt, "%s>%s:%s%s", pd_dtinfo[k->ds].name, pd_dtinfo[k->dd].name, k_rmode_names[pd_low(p)],
               k_sat_names[pd_sat(p)]);
    else if (pd_pred_dst(k->kind))
      snprintf(dt, sizeof dt, "%s:%s%s", pd_dtinfo[k->ds].name, k_cmp_names[pd_low(p)], k_sc_names[pd_sc(p)]);
    else
      snprintf(dt, sizeof dt, "%s%s%s%s", pd_dtinfo[k->dd].name, pd_hp(p) ? ":hp" : "",
               k->kind == PD_RSCL ? ":s/a" : k->gen == PD_GEN_WIDE ? ":wide" : "", k_sc_names[pd_sc(p)]);
    for (int ti = 0; ti < 2; ti++) {
      ptosim_machine *m = ptosim_machine_new(targets[ti], 1);
      if (!m) abort();
      tally ty;
      memset(&ty, 0, sizeof ty);
      char key[96];
      snprintf(key, sizeof key, "%s %s %s", k->op, dt, ti ? "a2a3" : "a5");
      ty.show = show && strcmp(key, show) == 0;
      for (int shape = 0; shape < PD_SHAPES && !ty.refused[0]; shape++) run_shape(m, argv[1], n, shape, &ty);
      const char *prof = ti ? "a2a3" : "a5";
      if (ty.refused[0]) {
        printf("%-16s %-16s %-5s %5s %5s %5s %12s %4s  %s\n", k->op, dt, prof, "-", "-", "-", "-", "-", ty.refused);
      } else {
        char mx[32];
        snprintf(mx, sizeof mx, "%llu%s", (unsigned long long)ty.max, ty.nan ? "+nan" : "");
        printf("%-16s %-16s %-5s %5ld %5ld %5ld %12s %4ld  %s\n", k->op, dt, prof, ty.cmp, ty.diff, ty.nanpay, mx, ty.clob,
               ty.first);
      }
      ptosim_machine_free(m);
    }
  }
  return 0;
}
