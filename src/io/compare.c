/* Element-wise result comparison with exact / ULP / atol+rtol modes and a report.
 * Floats are compared as doubles (every ptosim float type converts exactly); integers
 * exactly, on their 64-bit value (an i64 or u64 never goes through a double). */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "core/dtype.h"
#include "ptosim/io.h"

/* Position of a float bit pattern on the number line (monotone in the value), for ULP
 * distances: negative values are mirrored below zero. */
static int64_t ordinal(uint64_t bits, unsigned width) {
  uint64_t sign = 1ull << (width - 1);
  int64_t mag = (int64_t)(bits & (sign - 1));
  return bits & sign ? -mag : mag;
}

static uint64_t load_bits(const unsigned char *p, unsigned size) {
  uint64_t v = 0;
  memcpy(&v, p, size); /* little-endian host */
  return v;
}

/* One element: ok, and its absolute / relative error for the report. */
typedef struct {
  int ok;
  double ad, rd;
} verdict;

static verdict cmp_float(const ptosim_cmp_opts *o, unsigned w, uint64_t gb, uint64_t yb, double gv, double yv) {
  int both_nan = isnan(gv) && isnan(yv), same = gv == yv || both_nan; /* +inf == +inf */
  verdict v = {.ad = same ? 0 : fabs(yv - gv)};
  v.rd = gv != 0 && isfinite(gv) ? v.ad / fabs(gv) : v.ad;
  if (o->mode == PTOSIM_CMP_EXACT) {
    v.ok = gb == yb;
  } else if (o->mode == PTOSIM_CMP_ULP) {
    int64_t d = ordinal(gb, w) - ordinal(yb, w);
    v.ok = both_nan || (!isnan(gv) && !isnan(yv) && (uint64_t)(d < 0 ? -d : d) <= o->ulp);
  } else { /* an infinity matches only itself: its error is never finite */
    v.ok = same || (isfinite(v.ad) && v.ad <= o->atol + o->rtol * fabs(gv));
  }
  return v;
}

/* |y - g| of two integers of the type, exactly (the values are 64-bit at most). */
static uint64_t int_dist(int is_signed, uint64_t g, uint64_t y) {
  if (is_signed) return (int64_t)g <= (int64_t)y ? y - g : g - y; /* modulo 2^64: exact */
  return g <= y ? y - g : g - y;
}

static verdict cmp_int(const ptosim_cmp_opts *o, int is_signed, uint64_t g, uint64_t y) {
  uint64_t d = int_dist(is_signed, g, y);
  double mag = is_signed ? fabs((double)(int64_t)g) : (double)g;
  verdict v = {.ad = (double)d, .rd = mag != 0 ? (double)d / mag : (double)d};
  if (o->mode == PTOSIM_CMP_EXACT) v.ok = d == 0;
  else if (o->mode == PTOSIM_CMP_ULP) v.ok = d <= o->ulp; /* integers: one ULP is one */
  else v.ok = d == 0 || (double)d <= o->atol + o->rtol * mag;
  return v;
}

static void print_value(FILE *f, ptosim_dtype t, const unsigned char *p) {
  if (pt_dtype_is_float(t)) fprintf(f, "%.9g", (double)pt_load_as_f32(t, p));
  else if (pt_dtype_is_signed_int(t)) fprintf(f, "%" PRId64, pt_load_int(t, p));
  else fprintf(f, "%" PRIu64, (uint64_t)pt_load_int(t, p));
}

size_t ptosim_compare(const void *golden, const void *out, size_t n, const ptosim_cmp_opts *o, FILE *report) {
  if (!o || (n && (!golden || !out))) return n ? n : 1;
  unsigned es = pt_dtype_size(o->dtype), w = pt_dtype_bits(o->dtype);
  if (!es) return n ? n : 1;
  int fl = pt_dtype_is_float(o->dtype), sg = pt_dtype_is_signed_int(o->dtype);
  const unsigned char *g = golden, *y = out;
  size_t bad = 0;
  double max_abs = 0, max_rel = 0;
  for (size_t i = 0; i < n; i++) {
    const unsigned char *gp = g + i * es, *yp = y + i * es;
    uint64_t gb = load_bits(gp, es), yb = load_bits(yp, es);
    verdict v;
    if (fl) v = cmp_float(o, w, gb, yb, pt_load_as_f32(o->dtype, gp), pt_load_as_f32(o->dtype, yp));
    else v = cmp_int(o, sg, (uint64_t)pt_load_int(o->dtype, gp), (uint64_t)pt_load_int(o->dtype, yp));
    if (!(v.ad <= max_abs)) max_abs = v.ad;
    if (!(v.rd <= max_rel)) max_rel = v.rd;
    if (v.ok) continue;
    if (report && (int)bad < o->max_report) {
      if (o->cols > 0) fprintf(report, "  mismatch at [%zu, %zu]: golden ", i / (size_t)o->cols, i % (size_t)o->cols);
      else fprintf(report, "  mismatch at %zu: golden ", i);
      print_value(report, o->dtype, gp);
      fputs(" out ", report);
      print_value(report, o->dtype, yp);
      fprintf(report, " (abs err %.3g)\n", v.ad);
    }
    bad++;
  }
  if (report)
    fprintf(report, "%zu of %zu elements mismatch (%.4f%%); max abs err %.6g, max rel err %.6g\n", bad, n,
            n ? 100.0 * (double)bad / (double)n : 0.0, max_abs, max_rel);
  return bad;
}
