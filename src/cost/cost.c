/* Cost model: the duration of one op on its pipe, from the event the op emitted.
 *
 *   sync ops (any pipe)   0: set_flag / wait_flag / barriers act on the timeline, not as work
 *   S                     `scalar` cycles (scalar load / store, register writes)
 *   M (mad)               mad_head + repeats * mad_repeat[f32 ? 1 : 0], repeats = 16 x 16 x 32-byte-k
 *                         blocks: ceil(m/16) * ceil(k/k0) * ceil(n/16), k0 = 32 bytes of k
 *   V                     by the op's vector class (cost_params.c), from the shape of its widest
 *                         UB operand and its element type, see pt_cost_vec_cycles; a vector
 *                         micro-op: a scope of that op alone (cost_vf.c; in a timeline,
 *                         pt_cost_step charges what it adds to its scope)
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

/* The event's ranges measured once: each one's bytes, and for each access kind (PT_READ,
 * PT_WRITE, PT_RW exactly) the first of its largest ranges (-1: none). */
typedef struct sized {
  uint64_t bytes[PT_EVENT_MAX_RANGES];
  int largest[PT_RW + 1];
} sized;

static void size_ranges(const pt_event *ev, sized *z) {
  z->largest[PT_READ] = z->largest[PT_WRITE] = z->largest[PT_RW] = -1;
  for (int i = 0; i < ev->nranges; i++) {
    uint64_t b = z->bytes[i] = range_bytes(&ev->ranges[i]);
    unsigned acc = ev->ranges[i].access & PT_RW; /* an atomic write counts as its read / write bits */
    if (acc >= PT_READ && acc <= PT_RW && (z->largest[acc] < 0 || b > z->bytes[z->largest[acc]])) z->largest[acc] = i;
  }
}

/* Bytes of the ranges in `space` with access bit `acc`: their total, or with `widest` the
 * largest one (writes of one op may overlap: a tile load fills the whole tile with the pad
 * value and writes the data rows over it; each byte is written once). */
static uint64_t bytes_in(const pt_event *ev, const sized *z, ptosim_space space, unsigned acc, int widest) {
  uint64_t n = 0;
  for (int i = 0; i < ev->nranges; i++) {
    if (!(ev->ranges[i].access & acc) || data_space(ev->ranges[i].space) != space) continue;
    uint64_t b = z->bytes[i];
    n = widest ? (b > n ? b : n) : n + b;
  }
  return n;
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
static int path_spaces(const pt_event *ev, const sized *z, ptosim_space *src, ptosim_space *dst) {
  int s = z->largest[PT_READ], d = z->largest[PT_WRITE], rw = z->largest[PT_RW];
  if (s < 0) s = rw;
  if (d < 0 || (rw >= 0 && z->bytes[rw] > z->bytes[d])) d = rw;
  if (s < 0 || d < 0) return 0;
  *src = data_space(ev->ranges[s].space);
  *dst = data_space(ev->ranges[d].space);
  return 1;
}

pt_cost_path pt_cost_path_of(const pt_event *ev) {
  ptosim_space s, d;
  sized z;
  size_ranges(ev, &z);
  return path_spaces(ev, &z, &s, &d) ? paths[s][d] : PT_PATH_NONE;
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
  sized z;
  size_ranges(ev, &z);
  if (!path_spaces(ev, &z, &s, &d)) return 0;
  uint64_t rd = bytes_in(ev, &z, s, PT_READ, 0), wr = bytes_in(ev, &z, d, PT_WRITE, 1);
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
  sized z;
  size_ranges(ev, &z);
  double la = (double)bytes_in(ev, &z, PTOSIM_L0A, PT_READ, 0) / FRAC_BYTES;
  double lb = (double)bytes_in(ev, &z, PTOSIM_L0B, PT_READ, 0) / FRAC_BYTES;
  double lc = (double)bytes_in(ev, &z, PTOSIM_L0C, PT_WRITE, 0) / ACC_FRAC;
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

/* The widest UB operand: `rows` pieces of `len` bytes, `abut` when each level's stride is the
 * extent of the levels inside it (the rows are one contiguous run). */
typedef struct vec_shape {
  uint64_t rows, len;
  int abut;
} vec_shape;

static vec_shape vec_shape_of(const pt_range *r) {
  int idx[PT_RANGE_MAX_DIMS];
  inner_first(r, idx);
  uint64_t extent = r->len;
  int abut = 1;
  for (int l = 0; l < r->nd; l++) {
    abut &= r->count[idx[l]] == 1 || (uint64_t)r->stride[idx[l]] == extent;
    extent *= (uint64_t)r->count[idx[l]];
  }
  return (vec_shape){pieces(r), r->len, abut};
}

/* Elementwise: a run of repeat units, or rows of units each (pt_vec_rows); a unit is one
 * 256-byte repeat, or `lane` elements for ops at the f32 lane width. The element type picks
 * the curve: [0] f32 (also an event that names none), [1] every other type. */
static double elem_cycles(const pt_cost_vop *c, vec_shape s, ptosim_dtype dt) {
  unsigned bits = dt == PTOSIM_DT_NONE ? 32 : pt_dtype_bits(dt);
  const pt_cost_vec *k = &c->curve[dt != PTOSIM_DT_NONE && dt != PTOSIM_DT_F32];
  uint64_t unit = c->lane && bits >= 8 ? c->lane * bits / 8 : VEC_REPEAT;
  int run = s.rows <= 1 || (s.abut && (c->rows == PT_ROWS_MERGE || (c->rows == PT_ROWS_SMALL && s.len >= VEC_REPEAT)));
  double cycles = run ? k->fixed_1d + k->slope_1d * (double)ceil_div(s.rows * s.len, unit)
                      : k->fixed_2d + (double)s.rows * (k->row_2d + k->slope_2d * (double)ceil_div(s.len, unit));
  return cycles + (s.len % VEC_REPEAT ? c->partial : 0);
}

/* Reductions and expansion over `rows` rows of n = ceil(len / 256) repeats (pt_vec_form). */
static double rows_cycles(const pt_cost_params *p, const pt_cost_vop *c, vec_shape s) {
  double rows = (double)s.rows, n = (double)ceil_div(s.len, VEC_REPEAT);
  double partial = s.len % VEC_REPEAT ? c->partial : 0;
  if (c->form == PT_VF_ROW_REDUCE) return c->fixed + partial + c->stage * (n - 1) + rows * (c->row + c->rep * (n - 1));
  if (c->form == PT_VF_ROW_EXPAND) return c->fixed + rows * (c->row + c->rep * n);
  double whole = (double)(s.len / VEC_REPEAT), per = c->row + c->rep * n; /* COL_REDUCE */
  if (c->split && s.len % VEC_REPEAT) per = (whole ? c->row + c->rep * whole : 0) + c->row + c->rep;
  return (double)xfer(p, PT_PATH_UB_UB, s.len, 1) + (rows - 1) * per;
}

uint64_t pt_cost_vec_cycles(const pt_profile *prof, const pt_event *ev, pt_vec_class cls) {
  const pt_cost_params *p = pt_cost_params_of(prof);
  if (!p || !ev) return 0;
  if (p->vf && pt_vec_class_is_vf(cls)) return pt_cost_vf_alone(p, ev, cls);
  vec_shape s = {0, 0, 1};
  int sources = 0;
  for (int i = 0; i < ev->nranges; i++) {
    const pt_range *r = &ev->ranges[i];
    if (r->space != PTOSIM_UB) continue;
    sources += (r->access & PT_READ) != 0;
    if (range_bytes(r) > s.rows * s.len) s = vec_shape_of(r);
  }
  if ((unsigned)cls >= PT_VC_COUNT || p->vec[cls].form == PT_VF_NONE) cls = sources >= 2 ? PT_VC_BINARY : PT_VC_SCALAR;
  const pt_cost_vop *c = &p->vec[cls];
  double cycles = c->form == PT_VF_ELEM ? elem_cycles(c, s, ev->work_dtype) : s.rows ? rows_cycles(p, c, s) : c->fixed;
  return (uint64_t)llround(cycles);
}

/* ---- entry points --------------------------------------------------------------------- */

uint64_t pt_cost_cycles(const pt_profile *prof, const pt_event *ev) {
  const pt_cost_params *p = pt_cost_params_of(prof);
  if (!p || !ev || ev->sync.kind != PT_SYNC_NONE) return 0;
  switch (ev->pipe) {
    case PTOSIM_PIPE_S: return p->scalar;
    case PTOSIM_PIPE_M: return mad_cycles(p, mad_repeats(ev), ev->work_dtype);
    case PTOSIM_PIPE_V: return pt_cost_vec_cycles(prof, ev, pt_op_cost_class(ev->op));
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
