/* Indexed gathers and scatters of the A5 vector core (vpto docs/isa/micro-isa/
 * 03-vector-load-store.md): vgather2, vgather2_bc, vgatherb, vscatter. Units, lane layout
 * and the aliasing order are documented in include/ptosim/vec_sfu.h.
 *
 * Memory goes through the accessor layer in one of two ways:
 * - nobody records (no event, no undo log for a store): one bounds check of the span from
 *   the base to the highest active element, then plain copies;
 * - otherwise the active elements' addresses are sorted and merged into runs, and runs of
 *   equal length at an equal spacing into one strided range each (pt_region), so the race
 *   and init checkers see exactly the bytes the indices name. When the event has one range
 *   left and more runs follow, that last range covers the rest as one span and the event is
 *   marked overflowed (the convention of pt_span_lanes, core/event.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "isa/isa.h"
#include "isa/vec_lanes.h"

#define VB PTOSIM_VREG_BYTES
#define MAX_LANES (VB / 2)

/* The decoded request of one gather / scatter. Element i (i < n) is the `len` bytes at UB
 * base + off[i] * unit; it belongs to register bytes [i * lw, i * lw + len). */
typedef struct elems {
  unsigned n, lw, len, unit, align;
  uint32_t off[MAX_LANES];
  uint8_t active[MAX_LANES];
  unsigned nactive;
  int full; /* every lane active */
  uint64_t base;
} elems;


/* Lane width W of the offsets register (2 or 4 bytes) and the mask's granularity. */
static ptosim_status offset_width(pt_ctx *x, const char *op, ptosim_dtype t, unsigned mask_bits, unsigned *w) {
  unsigned bits = pt_dtype_bits(t);
  PT_VERIFY(x, t == PTOSIM_DT_I16 || t == PTOSIM_DT_U16 || t == PTOSIM_DT_I32 || t == PTOSIM_DT_U32, "vec.dtype",
            "use a 16- or 32-bit integer offsets register (!pto.vreg<128xi16> / <64xi32>)",
            "%s offsets of type %s", op, pt_dtype_name(t));
  PT_VERIFY(x, mask_bits == 0 || mask_bits == bits, "vec.mask", "use a mask of the offsets' lane width (!pto.mask<bW>)",
            "%s with %u-bit offsets takes a b%u mask, got b%u", op, bits, bits, mask_bits);
  *w = bits / 8;
  return PTOSIM_OK;
}

/* Lanes, offsets (unsigned, zero-extended) and active flags of the request. */
static void decode(elems *e, const ptosim_vreg *offsets, const ptosim_vmask *mask, unsigned ow, unsigned mg) {
  if (ow == 4) {
    memcpy(e->off, offsets->b, (size_t)e->n * 4);
  } else {
    uint16_t v[MAX_LANES];
    memcpy(v, offsets->b, (size_t)e->n * 2);
    for (unsigned i = 0; i < e->n; i++) e->off[i] = v[i];
  }
  uint64_t wd[4], pat = 0; /* the mask bits of lanes 0, mg, 2 mg, ... of one 64-bit word */
  memcpy(wd, mask->b, sizeof wd);
  for (unsigned b = 0; b < 64; b += mg) pat |= UINT64_C(1) << b;
  e->full = (wd[0] & wd[1] & wd[2] & wd[3] & pat) == pat;
  if (e->full) {
    memset(e->active, 1, e->n);
    e->nactive = e->n;
    return;
  }
  e->nactive = 0;
  for (unsigned i = 0; i < e->n; i++) {
    unsigned bit = i * mg;
    e->active[i] = mask->b[bit >> 3] >> (bit & 7) & 1;
    e->nactive += e->active[i];
  }
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t u = *(const uint64_t *)a, v = *(const uint64_t *)b;
  return (u > v) - (u < v);
}

/* Sort a[0, n) ascending: offsets in ascending or descending lane order (identity, strided
 * and reversed index vectors) in one pass, others by qsort. */
static void sort_offsets(uint64_t *a, unsigned n) {
  unsigned up = 1, down = 1;
  for (unsigned i = 1; i < n; i++) up += a[i - 1] <= a[i], down += a[i - 1] >= a[i];
  if (up == n || n < 2) return;
  if (down == n) {
    for (unsigned i = 0, j = n - 1; i < j; i++, j--) {
      uint64_t t = a[i];
      a[i] = a[j], a[j] = t;
    }
    return;
  }
  qsort(a, n, sizeof a[0], cmp_u64);
}

/* Record exactly the active elements (see the file comment); *h = host byte of e->base. */
static ptosim_status access_exact(pt_ctx *x, const elems *e, pt_access acc, uint8_t **h) {
  uint64_t rel[MAX_LANES];
  unsigned m = 0;
  for (unsigned i = 0; i < e->n; i++)
    if (e->active[i]) rel[m++] = (uint64_t)e->off[i] * e->unit;
  sort_offsets(rel, m);
  /* runs of touching elements: [start[r], start[r] + rlen[r]) */
  uint64_t start[MAX_LANES], rlen[MAX_LANES];
  unsigned nr = 0;
  for (unsigned j = 0; j < m; j++) {
    if (nr && rel[j] <= start[nr - 1] + rlen[nr - 1]) { /* equal (a duplicate index) or adjacent */
      uint64_t end = rel[j] + e->len;
      if (end > start[nr - 1] + rlen[nr - 1]) rlen[nr - 1] = end - start[nr - 1];
      continue;
    }
    start[nr] = rel[j], rlen[nr] = e->len, nr++;
  }
  uint8_t *p = NULL;
  for (unsigned r = 0; r < nr;) {
    int64_t count = 1, stride = 0;
    while (r + count < nr && rlen[r + count] == rlen[r] &&
           start[r + count] - start[r + count - 1] == (count == 1 ? start[r + 1] - start[r] : (uint64_t)stride)) {
      stride = (int64_t)(start[r + 1] - start[r]);
      count++;
    }
    uint64_t a = e->base + start[r];
    if (x->ev && x->ev->nranges == PT_EVENT_MAX_RANGES - 1 && r + (unsigned)count < nr) {
      PT_TRY(pt_span(x, PTOSIM_UB, a, start[nr - 1] + rlen[nr - 1] - start[r], 1, acc, &p));
      x->ev->overflow = 1;
      r = nr;
    } else {
      PT_TRY(pt_region(x, PTOSIM_UB, a, 1, &count, &stride, rlen[r], 1, acc, &p));
      r += (unsigned)count;
    }
    if (!*h) *h = p - (a - e->base); /* host byte of e->base */
  }
  return PTOSIM_OK;
}

/* Check the request and hand back the host byte of e->base (NULL when no lane is active).
 * Out-of-range active elements fail with mem.bounds naming the lane. */
static ptosim_status access_elems(pt_ctx *x, const char *op, const elems *e, pt_access acc, uint8_t **h) {
  *h = NULL;
  if (e->base & (e->align - 1)) /* align: a power of two */
    return pt_fail(x, PTOSIM_E_FAULT, "mem.align", "align the base to the element size (vgatherb: 32 bytes)",
                   "%s base 0x%" PRIx64 " is not %u-byte aligned", op, e->base, e->align);
  uint32_t any = 0, max = 0; /* the bits of every active offset; the highest one */
  for (unsigned i = 0; i < e->n; i++) {
    uint32_t o = e->off[i] & -(uint32_t)e->active[i];
    any |= o;
    max = o > max ? o : max;
  }
  if (e->unit < e->align && (any & (e->align - 1))) /* only vgatherb: byte offsets (unit 1), align 32 */
    for (unsigned i = 0; i < e->n; i++)
      if (e->active[i] && (e->off[i] & (e->align - 1)))
        return pt_fail(x, PTOSIM_E_FAULT, "mem.align", "vgatherb offsets are byte offsets of 32-byte blocks",
                       "%s lane %u offset %" PRIu32 " is not %u-byte aligned", op, i, e->off[i], e->align);
  if (!e->nactive) return PTOSIM_OK;
  uint64_t cap = x->m->prof->capacity[PTOSIM_UB], end = e->base + (uint64_t)max * e->unit + e->len;
  if (end > cap) {
    unsigned hi = 0;
    while (!e->active[hi] || e->off[hi] != max) hi++;
    return pt_fail(x, PTOSIM_E_FAULT, "mem.bounds", "keep every active index inside UB (offsets are unsigned)",
                   "%s lane %u: offset %" PRIu32 " addresses UB [0x%" PRIx64 ", 0x%" PRIx64 "), past the %" PRIu64
                   "-byte UB of target %s",
                   op, hi, max, end - e->len, end, cap, x->m->prof->name);
  }
  if (x->ev || ((acc & PT_WRITE) && x->m->undo)) return access_exact(x, e, acc, h);
  uint8_t *p; /* nobody records: one check of the whole span, no range */
  PT_TRY(pt_span(x, PTOSIM_UB, e->base, 0, 1, acc, &p));
  *h = p;
  return PTOSIM_OK;
}

/* Common set-up of vgather2 / vgather2_bc / vscatter: E from the pointer, W from offsets. */
static ptosim_status elem_request(pt_ctx *x, const char *op, ptosim_ptr base, const ptosim_vreg *offsets,
                                  ptosim_dtype ot, const ptosim_vmask *mask, unsigned mask_bits, elems *e) {
  unsigned w = 0, es = pt_dtype_bits(base.dtype) / 8;
  PT_TRY(pt_vl_a5(x));
  PT_TRY(pt_expect_space(x, op, base, PTOSIM_UB));
  PT_TRY(offset_width(x, op, ot, mask_bits, &w));
  PT_VERIFY(x, es >= 1 && es <= w && pt_dtype_bits(base.dtype) % 8 == 0, "vec.dtype",
            "the pointer's element type must be b8, b16 or b32 and no wider than the offsets' lanes",
            "%s of %s elements with %u-byte offset lanes", op, pt_dtype_name(base.dtype), w);
  PT_VERIFY(x, base.addr < (UINT64_C(1) << 62), "mem.bounds", "check the base pointer", "%s base 0x%" PRIx64 " is outside UB",
            op, base.addr);
  e->n = VB / w, e->lw = w, e->len = es, e->unit = es, e->align = es, e->base = base.addr;
  decode(e, offsets, mask, w, w);
  return PTOSIM_OK;
}

/* dst lane i = the element of lane i (zero-extended), inactive lanes 0. One loop per
 * (element, lane, offset unit) triple and mask case, chosen once. */
#define GATHER_LOOP(E, W, U)                                                                       \
  if (e->full)                                                                                      \
    for (unsigned i = 0; i < e->n; i++) memcpy(r->b + (size_t)i * (W), h + (size_t)e->off[i] * (U), (E)); \
  else                                                                                              \
    for (unsigned i = 0; i < e->n; i++)                                                             \
      if (e->active[i]) memcpy(r->b + (size_t)i * (W), h + (size_t)e->off[i] * (U), (E));         \
  break;
static void gather_copy(const elems *e, const uint8_t *h, ptosim_vreg *r) {
  if (!e->full || e->len < e->lw) memset(r->b, 0, VB);
  if (!e->nactive) return;
  switch (e->len * 8 + e->lw) {
    case 4 * 8 + 4: GATHER_LOOP(4, 4, 4)
    case 2 * 8 + 2: GATHER_LOOP(2, 2, 2)
    default: GATHER_LOOP(e->len, e->lw, e->unit)
  }
}
#undef GATHER_LOOP

static ptosim_status gather(pt_ctx *x, const char *op, const ptosim_vgather_params *p) {
  elems e;
  uint8_t *h;
  PT_TRY(elem_request(x, op, p->base, p->offsets, p->offset_type, p->mask, p->mask_bits, &e));
  PT_TRY(access_elems(x, op, &e, PT_READ, &h));
  ptosim_vreg r;
  gather_copy(&e, h, &r);
  *p->dst = r;
  return PTOSIM_OK;
}

ptosim_status pt_exec_vgather2(pt_ctx *x, const ptosim_vgather_params *p) { return gather(x, "vgather2", p); }

ptosim_status pt_exec_vgather2_bc(pt_ctx *x, const ptosim_vgather_params *p) {
  PT_VERIFY(x, pt_dtype_bits(p->offset_type) == 32, "vec.dtype", "vgather2_bc takes 32-bit offsets (!pto.vreg<64xi32>)",
            "vgather2_bc offsets of type %s", pt_dtype_name(p->offset_type));
  return gather(x, "vgather2_bc", p);
}

ptosim_status pt_exec_vgatherb(pt_ctx *x, const ptosim_vgather_params *p) {
  elems e;
  uint8_t *h;
  unsigned w = 0;
  PT_TRY(pt_vl_a5(x));
  PT_TRY(pt_expect_space(x, "vgatherb", p->base, PTOSIM_UB));
  PT_TRY(offset_width(x, "vgatherb", p->offset_type, p->mask_bits, &w));
  PT_VERIFY(x, w == 4, "vec.dtype", "vgatherb takes 32-bit byte offsets (!pto.vreg<64xi32>)", "vgatherb offsets of type %s",
            pt_dtype_name(p->offset_type));
  PT_VERIFY(x, p->base.addr < (UINT64_C(1) << 62), "mem.bounds", "check the base pointer",
            "vgatherb base 0x%" PRIx64 " is outside UB", p->base.addr);
  e.n = VB / 32, e.lw = 32, e.len = 32, e.unit = 1, e.align = 32, e.base = p->base.addr;
  decode(&e, p->offsets, p->mask, 4, 4); /* block b: offsets lane b, mask b32 lane b */
  PT_TRY(access_elems(x, "vgatherb", &e, PT_READ, &h));
  ptosim_vreg r;
  gather_copy(&e, h, &r);
  *p->dst = r;
  return PTOSIM_OK;
}

/* UB element of lane i = low E bytes of src lane i, ascending lanes (the last alias wins). */
ptosim_status pt_exec_vscatter(pt_ctx *x, const ptosim_vscatter_params *p) {
  elems e;
  uint8_t *h;
  PT_TRY(elem_request(x, "vscatter", p->base, p->offsets, p->offset_type, p->mask, p->mask_bits, &e));
  ptosim_vreg v = *p->src;
  PT_TRY(access_elems(x, "vscatter", &e, PT_WRITE, &h));
  for (unsigned i = 0; i < e.n; i++)
    if (e.active[i]) memcpy(h + (size_t)e.off[i] * e.unit, v.b + (size_t)i * e.lw, e.len);
  return PTOSIM_OK;
}
