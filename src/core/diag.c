#include "core/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

ptosim_status pt_fail(pt_ctx *x, ptosim_status st, const char *rule, const char *hint, const char *fmt, ...) {
  ptosim_diag *d = &x->m->diag;
  memset(d, 0, sizeof *d);
  d->status = st;
  d->loc = x->loc;
  if (x->op < PTOSIM_OP_COUNT) snprintf(d->op, sizeof d->op, "%s", ptosim_op_spelling(x->op));
  snprintf(d->rule, sizeof d->rule, "%s", rule);
  if (hint) snprintf(d->hint, sizeof d->hint, "%s", hint);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(d->msg, sizeof d->msg, fmt, ap);
  va_end(ap);
  return st;
}

const ptosim_diag *ptosim_last_diag(const ptosim_machine *m) {
  static const ptosim_diag no_machine = {.status = PTOSIM_E_USAGE, .rule = "api.args", .msg = "ptosim_last_diag: null machine"};
  return m ? &m->diag : &no_machine;
}

size_t ptosim_diag_format(const ptosim_diag *d, char *buf, size_t size) {
  if (!d || (!buf && size)) return 0;
  int n = snprintf(buf, size, "%s:%d:%d: error: %s%s%s [%s]\n", d->loc.file ? d->loc.file : "<api>",
                   d->loc.line, d->loc.col, d->op[0] ? d->op : "", d->op[0] ? ": " : "", d->msg, d->rule);
  if (n < 0) return 0;
  if (d->hint[0] && (size_t)n < size) {
    int k = snprintf(buf + n, size - (size_t)n, "  hint: %s\n", d->hint);
    if (k > 0) n += k;
  }
  return (size_t)n;
}
