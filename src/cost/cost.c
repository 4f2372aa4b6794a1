/* Cost model: the duration of one op on its pipe, from the event the op emitted.
 *
 *   sync ops (any pipe)   0: set_flag / wait_flag / barriers act on the timeline, not as work
 *   S                     `scalar` cycles (scalar load / store, register writes)
 *   M (mad)               mad_head + repeats * mad_repeat[f32 ? 1 : 0], repeats = 16 x 16 x 32-byte-k
 *                         blocks: ceil(m/16) * ceil(k/k0) * ceil(n/16), k0 = 32 bytes of k
 *   V                     per 256-byte repeat of the widest UB operand, see vec_cycles
 *   MTE1 / MTE2 / MTE3 / FIX   issues * startup + ceil(bytes / bytes_per_cycle) of the event's
 *                         data path (source and destination spaces), bytes = the larger of the
 *                         bytes read from the source space and the largest range written to
 *                         the destination space
 * Parameters per target: cost_params.c. */
#include "cost/cost.h"

#include <math.h>

#include "core/dtype.h"
#include "core/mem.h"

#define VEC_REPEAT 256 /* bytes: one vector repeat processes one 256-byte block per operand */
#define FRAC_BYTES 512 /* bytes of an L0A / L0B fractal: 16 rows x 32 bytes */
#define ACC_FRAC 1024  /* bytes of an L0C fractal: 16 x 16 accumulators of 4 bytes */

static uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

static uint64_t pieces(const pt_range *r) {
  uint64_t n = 1;
  for (int i = 0; i < r->nd; i++) n *= (uint64_t)r->count[i];
  return n;
}

static uint64_t range_bytes(const pt_range *r) { return pieces(r) * r->len; }

/* Level indices of a range from the smallest stride (innermost) to the largest. */
static void inner_first(const pt_range *r, int *idx) {
  for (int i = 0; i < r->nd; i++) {
    int j = i;
    for (; j > 0 && r->stride[idx[j - 1]] > r->stride[i]; j--) idx[j] = idx[j - 1];
    idx[j] = i;
  }
}

/* MX scale buffers are reached on the paths of their data buffers. */
static ptosim_space data_space(ptosim_space s) {
  return s == PTOSIM_L0A_MX ? PTOSIM_L0A : s == PTOSIM_L0B_MX ? PTOSIM_L0B : s;
}

/* Bytes of the ranges in `space` with access bit `acc`: their total, or with `widest` the
 * largest one (writes of one op may overlap: a tile load fills the whole tile with the pad
 * value and writes the data rows over it; each byte is written once). */
static uint64_t bytes_in(const pt_event *ev, ptosim_space space, unsigned acc, int widest) {
  uint64_t n = 0;
  for (int i = 0; i < ev->nranges; i++) {
    if (!(ev->ranges[i].access & acc) || data_space(ev->ranges[i].space) != space) continue;
    uint64_t b = range_bytes(&ev->ranges[i]);
    n = widest ? (b > n ? b : n) : n + b;
  }
  return n;
}

/* The largest range with access bits `acc` exactly, or NULL. */
static const pt_range *largest(const pt_event *ev, unsigned acc) {
  const pt_range *best = NULL;
  for (int i = 0; i < ev->nranges; i++)
    if (ev->ranges[i].access == acc && (!best || range_bytes(&ev->ranges[i]) > range_bytes(best))) best = &ev->ranges[i];
  return best;
}

/* ---- data movement -------------------------------------------------------------------- */

static const pt_cost_path paths[PTOSIM_SPACE_COUNT][PTOSIM_SPACE_COUNT] = {
    [PTOSIM_GM] = {[PTOSIM_UB] = PT_PATH_GM_UB, [PTOSIM_L1] = PT_PATH_GM_L1},
    [PTOSIM_UB] = {[PTOSIM_GM] = PT_PATH_UB_GM, [PTOSIM_UB] = PT_PATH_UB_UB, [PTOSIM_L1] = PT_PATH_UB_L1},
    [PTOSIM_L1] = {[PTOSIM_GM] = PT_PATH_L1_GM, [PTOSIM_UB] = PT_PATH_L1_UB, [PTOSIM_L1] = PT_PATH_L1_L1,
                   [PTOSIM_L0A] = PT_PATH_L1_L0A, [PTOSIM_L0B] = PT_PATH_L1_L0B, [PTOSIM_BT] = PT_PATH_L1_BT,
                   [PTOSIM_FB] = PT_PATH_L1_FB},
    [PTOSIM_L0C] = {[PTOSIM_GM] = PT_PATH_L0C_GM, [PTOSIM_L1] = PT_PATH_L0C_L1, [PTOSIM_UB] = PT_PATH_L0C_UB},
};

/* Source: the largest range only read (a GM atomic destination is read too), else the
 * largest range read at all; destination: the largest range written. */
static int path_spaces(const pt_event *ev, ptosim_space *src, ptosim_space *dst) {
  const pt_range *s = largest(ev, PT_READ), *d = largest(ev, PT_WRITE), *rw = largest(ev, PT_RW);
  if (!s) s = rw;
  if (!d || (rw && range_bytes(rw) > range_bytes(d))) d = rw;
  if (!s || !d) return 0;
  *src = data_space(s->space);
  *dst = data_space(d->space);
  return 1;
}

pt_cost_path pt_cost_path_of(const pt_event *ev) {
  ptosim_space s, d;
  return path_spaces(ev, &s, &d) ? paths[s][d] : PT_PATH_NONE;
}

const char *pt_cost_path_name(pt_cost_path path) {
  static const char *const names[PT_PATH_COUNT] = {
      "none",   "gm->ub",  "gm->l1",  "ub->gm",  "l1->gm",  "ub->ub",  "ub->l1",  "l1->ub",
      "l1->l1", "l1->l0a", "l1->l0b", "l1->bt",  "l1->fb",  "l0c->gm", "l0c->l1", "l0c->ub"};
  return (unsigned)path < PT_PATH_COUNT ? names[path] : "?";
}

static uint64_t xfer(const pt_cost_params *p, pt_cost_path path, uint64_t bytes, uint64_t issues) {
  const pt_cost_xfer *x = &p->xfer[path];
  if (path == PT_PATH_NONE || !x->bytes_per_cycle) return 0;
  return issues * (uint64_t)x->startup + (uint64_t)ceil((double)bytes / x->bytes_per_cycle);
}

/* DMA instructions needed to walk the GM range: one instruction runs the `levels`
 * innermost levels (nburst and the hardware loops), every index of the outer levels is one
 * more instruction, as pto-isa's TLOAD / TSTORE loop over the outer GM dimensions. */
static uint64_t gm_issues(const pt_event *ev, int levels) {
  uint64_t n = 1;
  for (int i = 0; i < ev->nranges; i++) {
    const pt_range *r = &ev->ranges[i];
    if (r->space != PTOSIM_GM) continue;
    int idx[PT_RANGE_MAX_DIMS];
    inner_first(r, idx);
    for (int l = levels; l < r->nd; l++) n *= (uint64_t)r->count[idx[l]];
    return n;
  }
  return n;
}

static uint64_t xfer_cycles(const pt_cost_params *p, const pt_event *ev) {
  ptosim_space s, d;
  if (!path_spaces(ev, &s, &d)) return 0;
  uint64_t rd = bytes_in(ev, s, PT_READ, 0), wr = bytes_in(ev, d, PT_WRITE, 1);
  return xfer(p, paths[s][d], rd > wr ? rd : wr, gm_issues(ev, p->dma_levels));
}

/* ---- matrix multiply ------------------------------------------------------------------ */

static uint64_t mad_cycles(const pt_cost_params *p, uint64_t repeats, ptosim_dtype in) {
  return p->mad_head + repeats * p->mad_repeat[pt_dtype_bits(in) == 32];
}

/* Repeats from the footprints mad reads and writes (src/isa/mad.c): L0A m16 x k32 and L0B
 * n16 x k32 in 512-byte fractals, L0C m16 x n16 in 1024-byte fractals, so
 *   repeats = mt * nt * kt = mt * (L0B fractals),  mt^2 = (L0A fractals)(L0C fractals) / (L0B fractals)
 * (a GEMV reads a dense k-vector from L0A: mt^2 < 1, one m tile). An event without these
 * ranges is costed from its work alone, as if every dimension were whole tiles. */
static uint64_t mad_repeats(const pt_event *ev) {
  double la = (double)bytes_in(ev, PTOSIM_L0A, PT_READ, 0) / FRAC_BYTES;
  double lb = (double)bytes_in(ev, PTOSIM_L0B, PT_READ, 0) / FRAC_BYTES;
  double lc = (double)bytes_in(ev, PTOSIM_L0C, PT_WRITE, 0) / ACC_FRAC;
  unsigned bits = pt_dtype_bits(ev->work_dtype);
  if (lb == 0 || lc == 0) return ceil_div(ev->work, 16 * 16 * (bits ? 256 / bits : 32));
  double mt = round(sqrt(la * lc / lb));
  return (uint64_t)(mt < 1 ? 1 : mt) * (uint64_t)ceil(lb);
}

uint64_t pt_cost_mad(const pt_profile *prof, uint64_t m, uint64_t n, uint64_t k, ptosim_dtype in) {
  const pt_cost_params *p = pt_cost_params_of(prof);
  unsigned bits = pt_dtype_bits(in);
  if (!p || !bits) return 0;
  return mad_cycles(p, ceil_div(m, 16) * ceil_div(k, 256 / bits) * ceil_div(n, 16), in);
}

/* ---- vector --------------------------------------------------------------------------- */

/* Repeat structure of one UB operand: `rows` rows of `reps` repeats each, or one run
 * (rows == 0) of `reps` repeats; `partial` when a row is not whole repeats. */
typedef struct vec_shape {
  uint64_t rows, reps;
  int partial;
} vec_shape;

/* With `runs`, pieces that abut in memory (each level's stride is the extent of the levels
 * inside it) are one run. */
static vec_shape vec_shape_of(const pt_range *r, int runs) {
  int idx[PT_RANGE_MAX_DIMS];
  inner_first(r, idx);
  uint64_t extent = r->len, n = pieces(r);
  int abut = 1;
  for (int l = 0; l < r->nd; l++) {
    abut &= r->count[idx[l]] == 1 || (uint64_t)r->stride[idx[l]] == extent;
    extent *= (uint64_t)r->count[idx[l]];
  }
  if (n == 1 || (runs && abut)) return (vec_shape){0, ceil_div(n * r->len, VEC_REPEAT), (n * r->len) % VEC_REPEAT != 0};
  return (vec_shape){n, ceil_div(r->len, VEC_REPEAT), r->len % VEC_REPEAT != 0};
}

/* The widest UB operand sets the repeats; the number of source operands read sets the class
 * (one: unary / tile-scalar, two or more: binary). First formula for the vector ops, which
 * ptosim does not implement yet: the constants are pto-isa's for add / neg class ops. */
static uint64_t vec_cycles(const pt_cost_params *p, const pt_event *ev) {
  vec_shape best = {0, 0, 0};
  int sources = 0;
  for (int i = 0; i < ev->nranges; i++) {
    const pt_range *r = &ev->ranges[i];
    if (r->space != PTOSIM_UB) continue;
    sources += (r->access & PT_READ) != 0;
    vec_shape v = vec_shape_of(r, p->vec_runs);
    if ((v.rows ? v.rows : 1) * v.reps > (best.rows ? best.rows : 1) * best.reps) best = v;
  }
  int cls = sources >= 2 ? PT_VEC_BINARY : PT_VEC_UNARY;
  const pt_cost_vec *c = &p->vec[cls];
  double cycles = best.rows ? c->fixed_2d + (double)best.rows * (c->row_2d + c->slope_2d * (double)best.reps)
                            : c->fixed_1d + c->slope_1d * (double)best.reps;
  if (cls == PT_VEC_BINARY && best.partial) cycles += p->vec_partial;
  return (uint64_t)llround(cycles);
}

/* ---- entry points --------------------------------------------------------------------- */

uint64_t pt_cost_cycles(const pt_profile *prof, const pt_event *ev) {
  const pt_cost_params *p = pt_cost_params_of(prof);
  if (!p || !ev || ev->sync.kind != PT_SYNC_NONE) return 0;
  switch (ev->pipe) {
    case PTOSIM_PIPE_S: return p->scalar;
    case PTOSIM_PIPE_M: return mad_cycles(p, mad_repeats(ev), ev->work_dtype);
    case PTOSIM_PIPE_V: return vec_cycles(p, ev);
    default: return xfer_cycles(p, ev);
  }
}

uint64_t pt_cost_issue_cycles(const pt_profile *prof) {
  const pt_cost_params *p = pt_cost_params_of(prof);
  return p ? p->issue : 0;
}

uint64_t pt_cost_xfer_cycles(const pt_profile *prof, pt_cost_path path, uint64_t bytes, uint64_t issues) {
  const pt_cost_params *p = pt_cost_params_of(prof);
  return p && (unsigned)path < PT_PATH_COUNT ? xfer(p, path, bytes, issues) : 0;
}
