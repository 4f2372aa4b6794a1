/* Compiler-style diagnostic text shared by the front end and later stages:
 *
 *   kernel.pto:12:7: error: expected ')' but found ':' [parse.expected_token]
 *     pto.foo(%a : i32
 *           ^
 *     hint: close the argument list with ')'
 *
 * The source line is printed verbatim after two spaces; the caret line copies the tabs of
 * the source line so the caret lands under the column in any tab setting, and counts a
 * UTF-8 multi-byte character as one column of width. */
#ifndef PA_DIAG_PRINT_H
#define PA_DIAG_PRINT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The text of line `line` (1-based) of text[0..len): pointer to its first byte and its
 * length without the newline (and without a '\r' before it). Returns NULL if the text has
 * fewer lines. */
const char *pa_source_line(const char *text, size_t len, uint32_t line, size_t *line_len);

/* Format one diagnostic. severity is "error", "warning" or "note"; rule and hint may be
 * NULL or empty (then the "[rule]" and hint parts are left out); src_line may be NULL (no
 * source and caret lines). col is 1-based in bytes. snprintf-like: writes at most cap
 * bytes including the NUL, returns the full length. */
size_t pa_diag_format(char *buf, size_t cap, const char *file, uint32_t line, uint32_t col,
                      const char *severity, const char *msg, const char *rule, const char *hint,
                      const char *src_line, size_t src_line_len);

/* Same, written to f. */
void pa_diag_print(FILE *f, const char *file, uint32_t line, uint32_t col, const char *severity,
                   const char *msg, const char *rule, const char *hint, const char *src_line,
                   size_t src_line_len);

#endif
