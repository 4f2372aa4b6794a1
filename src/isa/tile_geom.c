/* Storage geometry of a tile for the tile matrix ops (tile_geom.h). */
#include <inttypes.h>
#include <string.h>

#include "isa/tile_geom.h"

ptosim_status pt_tile_geom(pt_ctx *x, const char *what, const ptosim_tile *t, tg_geom *g) {
  pt_tile_info i;
  PT_TRY(pt_tile_check(x, PT_TILE_MATRIX, what, t, &i));
  memset(g, 0, sizeof *g);
  g->space = t->space;
  g->addr = t->addr;
  g->dt = t->dtype;
  g->es = i.es;
  g->in_col = i.in_col;
  if (!i.boxed) { /* ND, DN or the GEMV vector: one box of the whole tile */
    g->ir = i.in_col ? t->rows : 1;
    g->ic = i.in_col ? 1 : t->cols;
    g->sr = i.in_col ? 0 : t->cols;
    g->sc = i.in_col ? t->rows : 0;
    g->rows = t->rows;
    g->cols = t->cols;
    return PTOSIM_OK;
  }
  g->boxed = true;
  g->ir = i.ir;
  g->ic = i.ic;
  bool compact = t->compact == 1;
  g->rows = tg_align(compact ? t->valid_rows : t->rows, g->ir);
  g->cols = tg_align(compact ? t->valid_cols : t->cols, g->ic);
  if (t->blayout == PTOSIM_BL_COL_MAJOR) {
    /* row_plus_one: column blocks of exactly rows rows; so is a vec tile whose rows are not
     * whole boxes (pto_tile.hpp lets vec tiles have any rows; a5 TInsert.hpp:221-251 steps
     * the column blocks of such NZ tiles by Rows) */
    if (t->compact == 2 || (t->space == PTOSIM_UB && !compact)) g->rows = t->rows;
    g->sr = g->ir * g->ic;
    g->sc = g->rows * g->ic;
  } else {
    g->sc = g->ir * g->ic;
    g->sr = g->cols * g->ir;
  }
  return PTOSIM_OK;
}

void pt_l0_note(ptosim_core *c, ptosim_space s, uint64_t addr, uint64_t end, const pt_l0_layout *r) {
  int n = 0;
  for (int i = 0; i < c->n_l0_layout; i++) {
    const pt_l0_layout *o = &c->l0_layout[i];
    if (o->space != s || o->end <= addr || end <= o->addr) c->l0_layout[n++] = *o;
  }
  if (r && n == PT_L0_LAYOUT_MAX) memmove(c->l0_layout, c->l0_layout + 1, sizeof c->l0_layout[0] * --n);
  if (r) c->l0_layout[n++] = *r;
  c->n_l0_layout = n;
}

const pt_l0_layout *pt_l0_find(const ptosim_core *c, ptosim_space s, uint64_t addr) {
  for (int i = c->n_l0_layout - 1; i >= 0; i--)
    if (c->l0_layout[i].space == s && c->l0_layout[i].addr == addr) return &c->l0_layout[i];
  return NULL;
}

bool pt_tile_packed(const ptosim_core *c, const ptosim_tile *t) {
  const pt_l0_layout *r = pt_l0_find(c, t->space, t->addr);
  return r && r->dtype == t->dtype && r->valid_rows == t->valid_rows && r->valid_cols == t->valid_cols;
}

ptosim_status pt_acc_pitch_check(pt_ctx *x, const char *rule, const ptosim_tile *t, int64_t pitch) {
  const pt_l0_layout *r = pt_l0_find(x->core, PTOSIM_L0C, t->addr);
  PT_VERIFY(x, !r || r->pitch == pitch || t->valid_cols <= 16, rule,
            "the cube writes column blocks of m rounded up to 16 rows: declare the acc tile with that many rows, or "
            "compact",
            "this op reads the acc tile in column blocks of %" PRId64 " rows; the matmul wrote them %" PRId64
            " rows apart",
            pitch, r ? r->pitch : 0);
  return PTOSIM_OK;
}

ptosim_status pt_tile_map(pt_ctx *x, ptosim_core *c, const tg_geom *g, int64_t r0, int64_t c0, int64_t h, int64_t w,
                          pt_access acc, uint8_t **base) {
  uint8_t *host;
  PT_TRY(pt_tile_at(x, c, g->space, g->addr, 0, acc, &host));
  int64_t first, count[2] = {1, 1}, stride[2] = {0, 0}, len;
  if (g->boxed) {
    int64_t br = r0 / g->ir, bc = c0 / g->ic;
    first = br * g->sr + bc * g->sc;
    count[0] = (r0 + h - 1) / g->ir - br + 1, stride[0] = g->sr * g->es;
    count[1] = (c0 + w - 1) / g->ic - bc + 1, stride[1] = g->sc * g->es;
    len = g->ir * g->ic;
  } else if (g->in_col) { /* DN: columns */
    first = tg_off(g, r0, c0), count[0] = w, stride[0] = g->sc * g->es, len = h;
  } else { /* ND: rows */
    first = tg_off(g, r0, c0), count[0] = h, stride[0] = g->sr * g->es, len = w;
  }
  PT_TRY(pt_region_on(x, c, g->space, g->addr + (uint64_t)first * g->es, 2, count, stride, (uint64_t)len * g->es, 1,
                      acc, &host));
  *base = host - first * g->es;
  return PTOSIM_OK;
}

/* ---- copies ------------------------------------------------------------------------------
 *
 * tg_off is separable: off(r, c) = part(r) + part(c). Along one axis an index x sits at
 *   (x / box) * stride + (x % box) * unit
 * (rows of a row-major box: box ir, unit ic, stride sr; its columns: box ic, unit 1, stride sc;
 * the other way round inside column-major boxes). The copies walk each axis with a cursor
 * that only adds, box edge to box edge; an axis whose next box follows the last one
 * contiguously (ND rows, the row strips of NZ column blocks) has no edges. */

typedef struct tg_axis {
  int64_t off;  /* elements: the axis part of the current index */
  int64_t left; /* indices to the next box edge (INT64_MAX: none) */
  int64_t box, unit, jump; /* jump: elements from the last index of a box to the first of the next */
} tg_axis;

static tg_axis axis_at(int64_t x, int64_t box, int64_t unit, int64_t stride) {
  tg_axis a = {.box = box, .unit = unit, .jump = stride - (box - 1) * unit};
  if (a.jump == unit) { /* contiguous boxes: one long box */
    a.off = x * unit, a.left = a.box = INT64_MAX;
    return a;
  }
  a.off = x / box * stride + x % box * unit, a.left = box - x % box;
  return a;
}

/* Move the cursor k <= left indices on. */
static inline void axis_step(tg_axis *a, int64_t k) {
  if (k < a->left) {
    a->off += k * a->unit, a->left -= k;
    return;
  }
  a->off += (k - 1) * a->unit + a->jump, a->left = a->box;
}

/* The axis cursors of tile g at (r, c): the outer axis (along which storage runs are
 * stacked: rows for row-major boxes, columns for column-major ones) and the inner one. */
static void axes_at(const tg_geom *g, int64_t r, int64_t c, tg_axis *outer, tg_axis *inner) {
  if (g->in_col) {
    *outer = axis_at(c, g->ic, g->ir, g->sc), *inner = axis_at(r, g->ir, 1, g->sr);
    return;
  }
  *outer = axis_at(r, g->ir, g->ic, g->sr), *inner = axis_at(c, g->ic, 1, g->sc);
}

/* h runs of n bytes, one per outer index, from the inner start bytes s / d on. */
static inline __attribute__((always_inline)) void runs_each(uint8_t *d, tg_axis da, const uint8_t *s, tg_axis sa,
                                                            int64_t h, size_t n, unsigned es) {
  for (int64_t o = 0; o < h; o++, axis_step(&da, 1), axis_step(&sa, 1))
    memcpy(d + da.off * es, s + sa.off * es, n);
}

/* A strip of h runs of len elements. Runs of whole box rows in both tiles follow each other
 * inside a box (and across contiguous boxes): one memcpy per stretch; otherwise one
 * fixed-size copy per run (32 and 64 bytes: one fractal row). */
static void copy_strip(uint8_t *d, tg_axis da, const uint8_t *s, tg_axis sa, int64_t h, int64_t len, unsigned es) {
  size_t n = (size_t)len * es;
  if (len == da.unit && len == sa.unit) {
    for (int64_t k; h > 0; h -= k, axis_step(&da, k), axis_step(&sa, k)) {
      k = tg_min(h, tg_min(da.left, sa.left));
      memcpy(d + da.off * es, s + sa.off * es, (size_t)k * n);
    }
    return;
  }
  switch (n) {
    case 32: runs_each(d, da, s, sa, h, 32, es); return;
    case 64: runs_each(d, da, s, sa, h, 64, es); return;
    default: runs_each(d, da, s, sa, h, n, es); return;
  }
}

/* Both tiles run along the same dimension: strips of columns (rows) that no box edge of
 * either tile cuts. */
static void copy_same(const tg_geom *d, uint8_t *dbase, int64_t dr, int64_t dc, const tg_geom *s, const uint8_t *sbase,
                      int64_t sr, int64_t sc, int64_t h, int64_t w) {
  unsigned es = d->es;
  tg_axis dout, din, sout, sin;
  axes_at(d, dr, dc, &dout, &din);
  axes_at(s, sr, sc, &sout, &sin);
  int64_t outer = d->in_col ? w : h, inner = d->in_col ? h : w;
  for (int64_t i = 0, len; i < inner; i += len, axis_step(&din, len), axis_step(&sin, len)) {
    len = tg_min(inner - i, tg_min(din.left, sin.left));
    copy_strip(dbase + din.off * es, dout, sbase + sin.off * es, sout, outer, len, es);
  }
}

/* dst row i, element o = src row o, element i for o < bh, i < bw; strides in bytes. */
static void transpose_portable(uint8_t *d, int64_t dstr, const uint8_t *s, int64_t sstr, unsigned es, int64_t bh,
                               int64_t bw) {
  for (int64_t i = 0; i < bw; i++)
    for (int64_t o = 0; o < bh; o++) memcpy(d + i * dstr + o * es, s + o * sstr + i * es, es);
}

#if defined(__SSE2__)
#include <emmintrin.h>
#define TG_SIMD 1

/* One 16-byte square: 16 / es rows of 16 bytes. Each round interleaves register j with
 * register j + n/2 (lanes of es bytes) into registers 2j, 2j + 1, which rotates the bits of
 * (register, lane) left by one; log2(n) rounds swap them: the transpose. es = 1, 2 or 4. */
static inline __attribute__((always_inline)) void transpose_sq(uint8_t *d, int64_t dstr, const uint8_t *s,
                                                               int64_t sstr, unsigned es) {
  const int n = 16 / (int)es;
  __m128i x[16], y[16];
  for (int r = 0; r < n; r++) x[r] = _mm_loadu_si128((const void *)(s + r * sstr));
  for (int bits = 1; bits < n; bits *= 2) {
    for (int j = 0; j < n / 2; j++) {
      __m128i a = x[j], b = x[j + n / 2];
      y[2 * j] = es == 1 ? _mm_unpacklo_epi8(a, b) : es == 2 ? _mm_unpacklo_epi16(a, b) : _mm_unpacklo_epi32(a, b);
      y[2 * j + 1] = es == 1 ? _mm_unpackhi_epi8(a, b) : es == 2 ? _mm_unpackhi_epi16(a, b) : _mm_unpackhi_epi32(a, b);
    }
    for (int r = 0; r < n; r++) x[r] = y[r];
  }
  for (int r = 0; r < n; r++) _mm_storeu_si128((void *)(d + r * dstr), x[r]);
}

/* Whole squares of the block through SSE2, the edges element by element. */
static inline __attribute__((always_inline)) void transpose_sse2(uint8_t *d, int64_t dstr, const uint8_t *s,
                                                                 int64_t sstr, unsigned es, int64_t bh, int64_t bw) {
  const int64_t n = 16 / es, fh = bh / n * n, fw = bw / n * n;
  for (int64_t o = 0; o < fh; o += n)
    for (int64_t i = 0; i < fw; i += n) transpose_sq(d + i * dstr + o * es, dstr, s + o * sstr + i * es, sstr, es);
  if (fh < bh) transpose_portable(d + fh * es, dstr, s + fh * sstr, sstr, es, bh - fh, bw);
  if (fw < bw) transpose_portable(d + fw * dstr, dstr, s + fw * es, sstr, es, fh, bw - fw);
}
#endif

/* gcc on x86-64 only (clang 14 lacks some __builtin_cpu_supports names; it keeps SSE2). */
#if defined(TG_SIMD) && defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#include <immintrin.h>
#define TG_AVX2 1

/* Two squares at once, one per 128-bit lane: rows o .. o + n - 1 in the low lanes, rows
 * o + n .. o + 2n - 1 in the high ones; the same rounds as transpose_sq leave 32 contiguous
 * destination bytes per register. Half the shuffles of two SSE2 squares. */
__attribute__((target("avx2"), always_inline)) static inline void transpose_pair(uint8_t *d, int64_t dstr,
                                                                                const uint8_t *s, int64_t sstr,
                                                                                unsigned es) {
  const int n = 16 / (int)es;
  __m256i x[16], y[16];
  for (int r = 0; r < n; r++)
    x[r] = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const void *)(s + r * sstr))),
                                   _mm_loadu_si128((const void *)(s + (n + r) * sstr)), 1);
  for (int bits = 1; bits < n; bits *= 2) {
    for (int j = 0; j < n / 2; j++) {
      __m256i a = x[j], b = x[j + n / 2];
      y[2 * j] = es == 1   ? _mm256_unpacklo_epi8(a, b)
                 : es == 2 ? _mm256_unpacklo_epi16(a, b)
                           : _mm256_unpacklo_epi32(a, b);
      y[2 * j + 1] = es == 1   ? _mm256_unpackhi_epi8(a, b)
                     : es == 2 ? _mm256_unpackhi_epi16(a, b)
                               : _mm256_unpackhi_epi32(a, b);
    }
    for (int r = 0; r < n; r++) x[r] = y[r];
  }
  for (int r = 0; r < n; r++) _mm256_storeu_si256((void *)(d + r * dstr), x[r]);
}

/* Pairs of squares down the block, the rest through transpose_sse2 and element by element. */
__attribute__((target("avx2"), always_inline)) static inline void transpose_avx2(uint8_t *d, int64_t dstr,
                                                                                const uint8_t *s, int64_t sstr,
                                                                                unsigned es, int64_t bh, int64_t bw) {
  const int64_t n = 16 / es, ph = bh / (2 * n) * 2 * n, fw = bw / n * n;
  for (int64_t o = 0; o < ph; o += 2 * n)
    for (int64_t i = 0; i < fw; i += n) transpose_pair(d + i * dstr + o * es, dstr, s + o * sstr + i * es, sstr, es);
  if (fw < bw) transpose_portable(d + fw * dstr, dstr, s + fw * es, sstr, es, ph, bw - fw);
  if (ph < bh) transpose_sse2(d + ph * es, dstr, s + ph * sstr, sstr, es, bh - ph, bw);
}
#endif

/* copy_transposed's walk: blocks that no box edge of either tile cuts, each a strided
 * transpose (the source's outer axis is the destination's inner one). Cursors at the
 * region's corner; extents along the source's outer / inner axis. */
typedef struct tg_walk {
  uint8_t *d;
  const uint8_t *s;
  tg_axis dout, din, sout, sin;
  int64_t outer, inner, dstr, sstr; /* strides: bytes */
} tg_walk;

static inline __attribute__((always_inline)) void walk_blocks(const tg_walk *w, pt_tile_transpose_fn k, unsigned es) {
  tg_axis sout = w->sout, din = w->din;
  for (int64_t o = 0, bh; o < w->outer; o += bh, axis_step(&sout, bh), axis_step(&din, bh)) {
    bh = tg_min(w->outer - o, tg_min(sout.left, din.left));
    tg_axis sin = w->sin, dout = w->dout;
    for (int64_t i = 0, bw; i < w->inner; i += bw, axis_step(&sin, bw), axis_step(&dout, bw)) {
      bw = tg_min(w->inner - i, tg_min(sin.left, dout.left));
      k(w->d + (dout.off + din.off) * es, w->dstr, w->s + (sout.off + sin.off) * es, w->sstr, es, bh, bw);
    }
  }
}

/* A transpose kernel and the walk through it. */
typedef struct tg_kernel {
  pt_tile_transpose_fn block;
  void (*walk)(const tg_walk *w, unsigned es);
} tg_kernel;

/* The kernels of one element size (es a constant inside): the block and the walk with the
 * block inlined. */
#define TG_KERNEL(name, attr, body, es)                                                                  \
  attr static void name##_##es(uint8_t *d, int64_t dstr, const uint8_t *s, int64_t sstr, unsigned e, \
                               int64_t bh, int64_t bw) {                                               \
    (void)e;                                                                                             \
    body(d, dstr, s, sstr, es, bh, bw);                                                                  \
  }                                                                                                      \
  attr static void name##_walk_##es(const tg_walk *w, unsigned e) {                                    \
    (void)e;                                                                                             \
    walk_blocks(w, name##_##es, es);                                                                     \
  }
#define TG_KERNELS(name, attr, body) \
  TG_KERNEL(name, attr, body, 1) TG_KERNEL(name, attr, body, 2) TG_KERNEL(name, attr, body, 4)

#ifdef TG_AVX2
TG_KERNELS(avx2, __attribute__((target("avx2"))), transpose_avx2)
#endif
#ifdef TG_SIMD
TG_KERNELS(sse2, , transpose_sse2)
#endif

static void walk_portable(const tg_walk *w, unsigned es) { walk_blocks(w, transpose_portable, es); }

static const tg_kernel *kernel_of(unsigned es, bool simd) {
  static const tg_kernel portable = {transpose_portable, walk_portable};
  int k = es == 1 ? 0 : es == 2 ? 1 : es == 4 ? 2 : -1; /* the sizes with 16-byte squares */
  (void)k, (void)simd;
#ifdef TG_AVX2
  static const tg_kernel avx2[] = {{avx2_1, avx2_walk_1}, {avx2_2, avx2_walk_2}, {avx2_4, avx2_walk_4}};
  if (simd && k >= 0 && __builtin_cpu_supports("avx2")) return &avx2[k];
#endif
#ifdef TG_SIMD
  static const tg_kernel sse2[] = {{sse2_1, sse2_walk_1}, {sse2_2, sse2_walk_2}, {sse2_4, sse2_walk_4}};
  if (simd && k >= 0) return &sse2[k];
#endif
  return &portable;
}

pt_tile_transpose_fn pt_tile_transposer(unsigned es, bool simd) { return kernel_of(es, simd)->block; }

static void copy_transposed(const tg_geom *d, uint8_t *dbase, int64_t dr, int64_t dc, const tg_geom *s,
                            const uint8_t *sbase, int64_t sr, int64_t sc, int64_t h, int64_t w) {
  unsigned es = d->es;
  tg_walk wk = {.d = dbase, .s = sbase, .outer = s->in_col ? w : h, .inner = s->in_col ? h : w};
  axes_at(d, dr, dc, &wk.dout, &wk.din);
  axes_at(s, sr, sc, &wk.sout, &wk.sin);
  wk.sstr = wk.sout.unit * es, wk.dstr = wk.dout.unit * es;
  kernel_of(es, true)->walk(&wk, es);
}

void pt_tile_copy(const tg_geom *d, uint8_t *dbase, int64_t dr, int64_t dc, const tg_geom *s, const uint8_t *sbase,
                  int64_t sr, int64_t sc, int64_t h, int64_t w) {
  if (h <= 0 || w <= 0) return;
  if (d->in_col == s->in_col)
    copy_same(d, dbase, dr, dc, s, sbase, sr, sc, h, w);
  else
    copy_transposed(d, dbase, dr, dc, s, sbase, sr, sc, h, w);
}
