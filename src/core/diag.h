/* Diagnostics: every failure carries a status, a stable rule id, a message and a hint. */
#ifndef PT_DIAG_H
#define PT_DIAG_H

#include "core/machine.h"

/* Record a diagnostic for the op running in x and return `st`. rule is a stable id such
 * as "mem.bounds"; hint a one-line fix suggestion (may be NULL); fmt the message. */
#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
ptosim_status pt_fail(pt_ctx *x, ptosim_status st, const char *rule, const char *hint, const char *fmt, ...);

/* Shorthands for the two common classes. */
#define PT_VERIFY(x, cond, rule, hint, ...) \
  do {                                      \
    if (!(cond)) return pt_fail((x), PTOSIM_E_VERIFY, (rule), (hint), __VA_ARGS__); \
  } while (0)

#define PT_TRY(expr)                    \
  do {                                  \
    ptosim_status st_ = (expr);         \
    if (st_ != PTOSIM_OK) return st_;   \
  } while (0)

#endif
