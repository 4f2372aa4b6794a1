/* ptosim — array files: raw little-endian .bin and NumPy .npy (format v1, v2 and v3). */
#ifndef PTOSIM_IO_H
#define PTOSIM_IO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ptosim/types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PTOSIM_NPY_MAX_DIMS 16

/* An array loaded from a file. `descr` is the NumPy type string as written in the file
 * ("<f4", "<f2", "<u2", "|i1", ...); `elem_size` its size in bytes; `dtype` the ptosim
 * element type it maps to (PTOSIM_DT_NONE when it has no natural mapping, e.g. "<V2"
 * or "<f8"; such files can still be bound to a pointer of the same element size). */
typedef struct ptosim_array {
  char descr[16];
  ptosim_dtype dtype;
  unsigned elem_size;
  int ndim;
  int64_t shape[PTOSIM_NPY_MAX_DIMS];
  int fortran_order;
  size_t nbytes;
  void *data; /* malloc'ed; free with ptosim_array_free */
} ptosim_array;

/* Load a .npy file. A Fortran-order file (fortran_order: True) is reordered into C order
 * on load (out->fortran_order is then 0, shape unchanged). On failure returns
 * PTOSIM_E_USAGE (PTOSIM_E_NOMEM when memory runs out) and writes a one-line reason
 * (cannot open / read with the system's reason, truncated file, bad magic, unsupported
 * version, big-endian data, malformed header, size mismatch) to err. */
ptosim_status ptosim_npy_load(const char *path, ptosim_array *out, char *err, size_t errsize);
/* Write `a` (C order) as a .npy file (format 1.0, or 2.0 if the header needs it). Both
 * savers write a temporary file next to `path` and rename it over `path`, so a failed
 * write leaves an existing file untouched; the reason (with the system's text) goes to
 * err. */
ptosim_status ptosim_npy_save(const char *path, const ptosim_array *a, char *err, size_t errsize);
/* Load a raw file: descr "|u1", one dimension of nbytes. */
ptosim_status ptosim_bin_load(const char *path, ptosim_array *out, char *err, size_t errsize);
/* Write the raw bytes of a. */
ptosim_status ptosim_bin_save(const char *path, const ptosim_array *a, char *err, size_t errsize);
void ptosim_array_free(ptosim_array *a);

/* NumPy type string of a ptosim dtype ("<f2" for f16, "<u2" for bf16 since NumPy has no
 * bfloat16, "|u1" for the 8-bit floats). */
const char *ptosim_npy_descr(ptosim_dtype t);
/* 1 if the file's element type can hold dtype t: the kind letter and size of the descr
 * ptosim_npy_descr(t) names (byte order aside; signed and unsigned integers of one size
 * count as one kind), or a void type ('V') of t's size (raw bits); 0 if not ('<i4' for
 * f32, '<f2' for bf16, '<f4' for i32). */
int ptosim_npy_matches(const ptosim_array *a, ptosim_dtype t);

/* Result comparison (`ptosim compare`). Mode: exact bits, ULP distance (float types), or
 * |out - golden| <= atol + rtol * |golden| (NaN matches NaN in every mode). */
typedef enum ptosim_cmp_mode { PTOSIM_CMP_TOL = 0, PTOSIM_CMP_ULP, PTOSIM_CMP_EXACT } ptosim_cmp_mode;

typedef struct ptosim_cmp_opts {
  ptosim_dtype dtype;
  ptosim_cmp_mode mode;
  double atol, rtol; /* PTOSIM_CMP_TOL */
  uint64_t ulp;      /* PTOSIM_CMP_ULP */
  int64_t cols;      /* > 0: report mismatches as [row, col] */
  int max_report;    /* mismatches listed in the report */
} ptosim_cmp_opts;

/* Compare n elements; writes a report (mismatch count and percentage, max abs / rel
 * error, the first mismatches with index and both values) to `report` (may be NULL) and
 * returns the number of mismatching elements. */
size_t ptosim_compare(const void *golden, const void *out, size_t n, const ptosim_cmp_opts *o, FILE *report);

#ifdef __cplusplus
}
#endif
#endif
