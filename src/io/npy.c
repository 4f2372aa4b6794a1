/* .npy (NumPy format 1.0 / 2.0 / 3.0) and raw .bin array files.
 * Format: magic "\x93NUMPY", major, minor, header length (uint16 LE for 1.x, uint32 LE
 * for 2.x/3.x), then an ASCII (3.x: UTF-8) Python dict literal
 *   {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
 * padded with spaces and a final '\n' so that the data starts on a 64-byte boundary. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/dtype.h"
#include "ptosim/io.h"

static ptosim_status io_err(char *err, size_t n, const char *fmt, ...) {
  if (err && n) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
  }
  return PTOSIM_E_USAGE;
}

static const struct {
  const char *descr;
  ptosim_dtype dtype;
} descr_map[] = {
    {"|i1", PTOSIM_DT_I8},  {"|u1", PTOSIM_DT_U8},   {"<i2", PTOSIM_DT_I16}, {"<u2", PTOSIM_DT_U16},
    {"<i4", PTOSIM_DT_I32}, {"<u4", PTOSIM_DT_U32},  {"<i8", PTOSIM_DT_I64}, {"<u8", PTOSIM_DT_U64},
    {"<f2", PTOSIM_DT_F16}, {"<f4", PTOSIM_DT_F32},  {"<f8", PTOSIM_DT_F64},
};

const char *ptosim_npy_descr(ptosim_dtype t) {
  for (size_t i = 0; i < sizeof descr_map / sizeof descr_map[0]; i++)
    if (descr_map[i].dtype == t) return descr_map[i].descr;
  /* bf16, the 8-bit floats, packed int4 and the packed pairs travel as unsigned integers of
   * their element size (int4: bytes) */
  unsigned e = pt_dtype_size(t);
  return e == 2 ? "<u2" : e == 4 ? "<u4" : e == 8 ? "<u8" : "|u1";
}

/* Kind letter of a type string with signed and unsigned integers folded together. */
static char kind_of(const char *descr) { return descr[0] && descr[1] == 'u' ? 'i' : descr[0] ? descr[1] : 0; }

/* The file's element type can hold dtype t: the kind letter (integers of either
 * signedness count as one kind) and size of the descr NumPy would write for t ("<u2" for
 * bf16, "|u1" for 8-bit floats), or a void type of t's size (raw bits). The byte-order
 * character is not compared. */
int ptosim_npy_matches(const ptosim_array *a, ptosim_dtype t) {
  if (!a) return 0;
  const char *want = ptosim_npy_descr(t);
  unsigned long size = strtoul(want + 2, NULL, 10);
  return a->elem_size == size && (kind_of(a->descr) == kind_of(want) || kind_of(a->descr) == 'V');
}

/* Element size from a type string: "<f4" -> 4, "|b1" -> 1, "<V2" -> 2; 0 if invalid. */
static unsigned descr_size(const char *d, int *big_endian) {
  *big_endian = d[0] == '>';
  if (!strchr("<>|=", d[0]) || !strchr("biufcV", d[1]) || !isdigit((unsigned char)d[2])) return 0;
  long n = strtol(d + 2, NULL, 10);
  return n > 0 && n <= 64 ? (unsigned)n : 0;
}

/* ---- header dict parser ---- */
typedef struct {
  const char *p, *end;
} cursor;

static void skip_ws(cursor *c) {
  while (c->p < c->end && isspace((unsigned char)*c->p)) c->p++;
}

static int eat(cursor *c, char ch) {
  skip_ws(c);
  if (c->p < c->end && *c->p == ch) {
    c->p++;
    return 1;
  }
  return 0;
}

static int parse_string(cursor *c, char *out, size_t n) {
  skip_ws(c);
  if (c->p >= c->end || (*c->p != '\'' && *c->p != '"')) return 0;
  char q = *c->p++;
  size_t k = 0;
  while (c->p < c->end && *c->p != q) {
    if (k + 1 >= n) return 0;
    out[k++] = *c->p++;
  }
  out[k] = 0;
  return eat(c, q);
}

static int parse_header(const char *h, size_t len, ptosim_array *a, char *err, size_t errsize) {
  cursor c = {h, h + len};
  int have_descr = 0, have_order = 0, have_shape = 0;
  if (!eat(&c, '{')) return io_err(err, errsize, "malformed .npy header: expected '{'"), 0;
  while (!eat(&c, '}')) {
    char key[32];
    if (!parse_string(&c, key, sizeof key) || !eat(&c, ':'))
      return io_err(err, errsize, "malformed .npy header near offset %ld", (long)(c.p - h)), 0;
    skip_ws(&c);
    if (!strcmp(key, "descr")) {
      if (!parse_string(&c, a->descr, sizeof a->descr)) return io_err(err, errsize, "malformed 'descr' in .npy header"), 0;
      have_descr = 1;
    } else if (!strcmp(key, "fortran_order")) {
      if ((size_t)(c.end - c.p) >= 4 && !strncmp(c.p, "True", 4)) a->fortran_order = 1, c.p += 4;
      else if ((size_t)(c.end - c.p) >= 5 && !strncmp(c.p, "False", 5)) a->fortran_order = 0, c.p += 5;
      else return io_err(err, errsize, "malformed 'fortran_order' in .npy header"), 0;
      have_order = 1;
    } else if (!strcmp(key, "shape")) {
      if (!eat(&c, '(')) return io_err(err, errsize, "malformed 'shape' in .npy header"), 0;
      a->ndim = 0;
      while (!eat(&c, ')')) {
        skip_ws(&c);
        char *q;
        long long v = strtoll(c.p, &q, 10);
        if (q == c.p || v < 0 || q > c.end || a->ndim >= PTOSIM_NPY_MAX_DIMS)
          return io_err(err, errsize, "malformed 'shape' in .npy header"), 0;
        a->shape[a->ndim++] = v;
        c.p = q;
        if (!eat(&c, ',') && !(skip_ws(&c), c.p < c.end && *c.p == ')'))
          return io_err(err, errsize, "malformed 'shape' in .npy header"), 0;
      }
      have_shape = 1;
    } else {
      return io_err(err, errsize, "unknown key '%s' in .npy header", key), 0;
    }
    if (!eat(&c, ',')) {
      if (!eat(&c, '}')) return io_err(err, errsize, "malformed .npy header: expected ',' or '}'"), 0;
      break;
    }
  }
  if (!have_descr || !have_order || !have_shape)
    return io_err(err, errsize, ".npy header lacks one of 'descr', 'fortran_order', 'shape'"), 0;
  return 1;
}

static ptosim_status read_file(const char *path, unsigned char **data, size_t *size, char *err, size_t errsize) {
  FILE *f = fopen(path, "rb");
  if (!f) return io_err(err, errsize, "%s: cannot open: %s", path, strerror(errno));
  unsigned char *buf = NULL;
  size_t n = 0, cap = 0;
  for (;;) {
    if (n == cap) {
      cap = cap ? cap * 2 : 65536;
      unsigned char *nb = realloc(buf, cap);
      if (!nb) {
        free(buf);
        fclose(f);
        io_err(err, errsize, "%s: out of memory", path);
        return PTOSIM_E_NOMEM;
      }
      buf = nb;
    }
    size_t k = fread(buf + n, 1, cap - n, f);
    n += k;
    if (k == 0) break;
  }
  int bad = ferror(f) ? errno : 0;
  fclose(f);
  if (bad) {
    free(buf);
    return io_err(err, errsize, "%s: cannot read: %s", path, strerror(bad));
  }
  *data = buf;
  *size = n;
  return PTOSIM_OK;
}

/* Reorder a Fortran-order (column-major: first index fastest) payload of `count`
 * elements of es bytes into C order (last index fastest). */
static void fortran_to_c(const unsigned char *src, unsigned char *dst, const int64_t *shape, int nd, size_t es,
                         size_t count) {
  int64_t idx[PTOSIM_NPY_MAX_DIMS] = {0};
  for (size_t f = 0; f < count; f++) {
    size_t c = 0; /* C-order offset of idx: sum idx[k] * prod_{j > k} shape[j] */
    for (int k = 0; k < nd; k++) c = c * (size_t)shape[k] + (size_t)idx[k];
    memcpy(dst + c * es, src + f * es, es);
    for (int k = 0; k < nd && ++idx[k] == shape[k]; k++) idx[k] = 0;
  }
}

ptosim_status ptosim_npy_load(const char *path, ptosim_array *a, char *err, size_t errsize) {
  memset(a, 0, sizeof *a);
  unsigned char *buf;
  size_t size;
  ptosim_status st = read_file(path, &buf, &size, err, errsize);
  if (st) return st;
  st = PTOSIM_E_USAGE;
  size_t hlen, hstart;
  if (size < 10 || memcmp(buf, "\x93NUMPY", 6)) {
    io_err(err, errsize, "%s: not a .npy file (bad magic)", path);
    goto out;
  }
  if (buf[6] == 1) {
    hlen = (size_t)buf[8] | (size_t)buf[9] << 8;
    hstart = 10;
  } else if (buf[6] == 2 || buf[6] == 3) {
    if (size < 12) {
      io_err(err, errsize, "%s: truncated .npy header", path);
      goto out;
    }
    hlen = (size_t)buf[8] | (size_t)buf[9] << 8 | (size_t)buf[10] << 16 | (size_t)buf[11] << 24;
    hstart = 12;
  } else {
    io_err(err, errsize, "%s: unsupported .npy format version %d.%d", path, buf[6], buf[7]);
    goto out;
  }
  if (hlen > size - hstart) {
    io_err(err, errsize, "%s: truncated .npy header", path);
    goto out;
  }
  char ebuf[256];
  if (!parse_header((const char *)buf + hstart, hlen, a, ebuf, sizeof ebuf)) {
    io_err(err, errsize, "%s: %s", path, ebuf);
    goto out;
  }
  int big;
  a->elem_size = descr_size(a->descr, &big);
  if (!a->elem_size) {
    io_err(err, errsize, "%s: unsupported element type '%s'", path, a->descr);
    goto out;
  }
  if (big && a->elem_size > 1) {
    io_err(err, errsize, "%s: big-endian data ('%s') is not supported; save it little-endian", path, a->descr);
    goto out;
  }
  for (size_t i = 0; i < sizeof descr_map / sizeof descr_map[0]; i++)
    if (!strcmp(descr_map[i].descr + 1, a->descr + 1) && a->elem_size == descr_size(descr_map[i].descr, &big))
      a->dtype = descr_map[i].dtype;
  size_t count = 1;
  for (int i = 0; i < a->ndim; i++) {
    if (a->shape[i] && count > SIZE_MAX / (size_t)a->shape[i]) {
      io_err(err, errsize, "%s: shape too large", path);
      goto out;
    }
    count *= (size_t)a->shape[i];
  }
  size_t data_off = hstart + hlen;
  if (count > SIZE_MAX / a->elem_size || count * a->elem_size != size - data_off) {
    io_err(err, errsize, "%s: data holds %zu bytes but shape and '%s' need %zu (truncated or malformed file)", path,
           size - data_off, a->descr, count * a->elem_size);
    goto out;
  }
  a->nbytes = count * a->elem_size;
  a->data = malloc(a->nbytes ? a->nbytes : 1);
  if (!a->data) {
    io_err(err, errsize, "%s: out of memory", path);
    st = PTOSIM_E_NOMEM;
    goto out;
  }
  if (a->fortran_order) fortran_to_c(buf + data_off, a->data, a->shape, a->ndim, a->elem_size, count);
  else memcpy(a->data, buf + data_off, a->nbytes);
  a->fortran_order = 0; /* the data is in C order now */
  st = PTOSIM_OK;
out:
  free(buf);
  return st;
}

/* Write head[0..nhead) and the array's bytes to path through a temporary file in the same
 * directory renamed over path at the end, so a failed write (disk full, file size limit)
 * leaves the old file as it was. A file that existed keeps its permission bits. */
static ptosim_status write_atomic(const char *path, const void *head, size_t nhead, const ptosim_array *a, char *err,
                                  size_t errsize) {
  char tmp[4096];
  if (snprintf(tmp, sizeof tmp, "%s.ptosim-%ld.tmp", path, (long)getpid()) >= (int)sizeof tmp)
    return io_err(err, errsize, "%s: path too long", path);
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0666);
  if (fd < 0) return io_err(err, errsize, "%s: cannot write: %s", path, strerror(errno));
  struct stat old;
  if (stat(path, &old) == 0) fchmod(fd, old.st_mode & 07777);
  FILE *f = fdopen(fd, "wb");
  int ok = f && (!nhead || fwrite(head, 1, nhead, f) == nhead) && (!a->nbytes || fwrite(a->data, 1, a->nbytes, f) == a->nbytes);
  int e = ok ? 0 : errno;
  if (!f) close(fd);
  else if (fclose(f) && ok) ok = 0, e = errno;
  if (ok && rename(tmp, path)) ok = 0, e = errno;
  if (ok) return PTOSIM_OK;
  unlink(tmp);
  return io_err(err, errsize, "%s: cannot write: %s", path, strerror(e ? e : EIO));
}

ptosim_status ptosim_npy_save(const char *path, const ptosim_array *a, char *err, size_t errsize) {
  char dict[512];
  int n = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': %s, 'shape': (", a->descr,
                   a->fortran_order ? "True" : "False");
  for (int i = 0; i < a->ndim && n > 0 && (size_t)n < sizeof dict; i++)
    n += snprintf(dict + n, sizeof dict - (size_t)n, "%lld,%s", (long long)a->shape[i], i + 1 < a->ndim ? " " : "");
  if (n > 0 && (size_t)n < sizeof dict) n += snprintf(dict + n, sizeof dict - (size_t)n, "), }");
  if (n <= 0 || (size_t)n >= sizeof dict) return io_err(err, errsize, "%s: header too long", path);
  size_t dlen = (size_t)n;
  int v2 = dlen + 11 > 65535;
  size_t pre = v2 ? 12 : 10, total = (pre + dlen + 1 + 63) / 64 * 64, hlen = total - pre;
  unsigned char head[640];
  memcpy(head, "\x93NUMPY", 6);
  head[6] = v2 ? 2 : 1;
  head[7] = 0;
  for (size_t i = 0; i < pre - 8; i++) head[8 + i] = (unsigned char)(hlen >> (8 * i));
  memset(head + pre, ' ', hlen);
  memcpy(head + pre, dict, dlen);
  head[total - 1] = '\n';
  return write_atomic(path, head, total, a, err, errsize);
}

ptosim_status ptosim_bin_load(const char *path, ptosim_array *a, char *err, size_t errsize) {
  memset(a, 0, sizeof *a);
  unsigned char *buf;
  size_t size;
  ptosim_status st = read_file(path, &buf, &size, err, errsize);
  if (st) return st;
  a->data = buf;
  a->nbytes = size;
  a->elem_size = 1;
  a->ndim = 1;
  a->shape[0] = (int64_t)size;
  a->dtype = PTOSIM_DT_U8;
  strcpy(a->descr, "|u1");
  return PTOSIM_OK;
}

ptosim_status ptosim_bin_save(const char *path, const ptosim_array *a, char *err, size_t errsize) {
  return write_atomic(path, NULL, 0, a, err, errsize);
}

void ptosim_array_free(ptosim_array *a) {
  free(a->data);
  a->data = NULL;
}
