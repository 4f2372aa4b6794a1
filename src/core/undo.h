/* Write logs for the eager schedule (src/check/eager.c). While a machine has an undo log
 * (ptosim_machine.undo), every accessor call that grants write access saves the bytes it
 * is about to expose, so the op's writes can afterwards be taken away from memory and
 * replayed later (when the op's pipe would have finished them). */
#ifndef PT_UNDO_H
#define PT_UNDO_H

#include <stddef.h>
#include <stdint.h>

/* Contiguous host bytes [host, host + len). */
typedef struct pt_piece {
  uint8_t *host;
  uint64_t len;
} pt_piece;

/* A list of pieces with one byte string holding their contents, piece after piece. */
typedef struct pt_bytes {
  pt_piece *p;
  size_t np, cap_p;
  uint8_t *data;
  size_t ndata, cap_data;
  int oom; /* an append failed: the list is incomplete */
} pt_bytes;

/* The undo log of the op being executed: the pieces it may write, with their bytes before. */
typedef pt_bytes pt_undo;

/* Save the current bytes of the strided region at host (see pt_region in mem.h). */
void pt_undo_note(pt_undo *u, uint8_t *host, int nd, const int64_t *count, const int64_t *stride, uint64_t len);
/* Put the saved bytes back (latest first, so every byte gets its oldest saved value); the
 * log is empty afterwards. */
void pt_undo_restore(pt_undo *u);
/* Move what the op wrote into `w` (the current bytes of every logged piece), then restore
 * memory as pt_undo_restore does. Returns 0, -1 when out of memory. */
int pt_undo_take(pt_undo *u, pt_bytes *w);
/* Write the pieces of w back to memory, in order. */
void pt_bytes_apply(const pt_bytes *w);
/* 1 when every byte of [host, host + len) is in the log and holds its oldest saved value
 * again (the writes since the log was emptied stored the bytes that were there), else 0;
 * also 0 for a log that lost an append or a span over PT_UNDO_CMP_MAX bytes. */
#define PT_UNDO_CMP_MAX (64u << 20)
int pt_undo_unchanged(const pt_undo *u, const uint8_t *host, uint64_t len);
/* Empty the list without touching memory. */
void pt_bytes_clear(pt_bytes *b);
void pt_bytes_free(pt_bytes *b);

#endif
