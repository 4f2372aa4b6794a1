/* Element-wise result comparison with exact / ULP / atol+rtol modes and a report. */
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

static double load_value(ptosim_dtype t, const unsigned char *p) {
  if (pt_dtype_is_float(t)) return pt_load_as_f32(t, p);
  int64_t v = pt_load_int(t, p);
  return t == PTOSIM_DT_U64 ? (double)(uint64_t)v : (double)v;
}

size_t ptosim_compare(const void *golden, const void *out, size_t n, const ptosim_cmp_opts *o, FILE *report) {
  unsigned es = pt_dtype_size(o->dtype), w = pt_dtype_bits(o->dtype);
  int fl = pt_dtype_is_float(o->dtype);
  const unsigned char *g = golden, *y = out;
  size_t bad = 0;
  double max_abs = 0, max_rel = 0;
  for (size_t i = 0; i < n; i++) {
    uint64_t gb = load_bits(g + i * es, es), yb = load_bits(y + i * es, es);
    double gv = load_value(o->dtype, g + i * es), yv = load_value(o->dtype, y + i * es);
    int both_nan = fl && isnan(gv) && isnan(yv);
    double ad = both_nan ? 0 : fabs(yv - gv), rd = gv != 0 ? ad / fabs(gv) : ad;
    if (!(ad <= max_abs)) max_abs = ad;
    if (!(rd <= max_rel)) max_rel = rd;
    int ok;
    if (o->mode == PTOSIM_CMP_EXACT) {
      ok = gb == yb;
    } else if (o->mode == PTOSIM_CMP_ULP && fl) {
      int64_t d = ordinal(gb, w) - ordinal(yb, w);
      ok = both_nan || (!isnan(gv) && !isnan(yv) && (uint64_t)(d < 0 ? -d : d) <= o->ulp);
    } else if (o->mode == PTOSIM_CMP_ULP) {
      ok = ad <= (double)o->ulp; /* integers: one ULP is one */
    } else {
      ok = both_nan || ad <= o->atol + o->rtol * fabs(gv);
    }
    if (ok) continue;
    if (report && (int)bad < o->max_report) {
      if (o->cols > 0)
        fprintf(report, "  mismatch at [%zu, %zu]: golden %.9g out %.9g (abs err %.3g)\n", i / (size_t)o->cols,
                i % (size_t)o->cols, gv, yv, ad);
      else
        fprintf(report, "  mismatch at %zu: golden %.9g out %.9g (abs err %.3g)\n", i, gv, yv, ad);
    }
    bad++;
  }
  if (report)
    fprintf(report, "%zu of %zu elements mismatch (%.4f%%); max abs err %.6g, max rel err %.6g\n", bad, n,
            n ? 100.0 * (double)bad / (double)n : 0.0, max_abs, max_rel);
  return bad;
}
