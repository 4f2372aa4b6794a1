/* Benchmark helpers: wall-clock timing with repetition until a minimum run time, and a
 * ratio line against a baseline measured in the same run. Benchmarks never fail on
 * timing; they print figures. */
#ifndef PT_BENCH_H
#define PT_BENCH_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ptosim/monitor.h"
#include "ptosim/program.h"

static inline double pt_bench_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Run fn(arg) repeatedly for at least min_seconds (and at least 3 times); return the
 * best (smallest) time of one call in seconds. Best-of is the least noisy estimate on
 * shared machines. */
static inline double pt_bench_best(void (*fn)(void *), void *arg, double min_seconds) {
  double best = 1e30, start = pt_bench_now();
  int runs = 0;
  do {
    double t0 = pt_bench_now();
    fn(arg);
    double dt = pt_bench_now() - t0;
    if (dt < best) best = dt;
    runs++;
  } while (runs < 3 || pt_bench_now() - start < min_seconds);
  return best;
}

/* Print "name: value unit, ratio x of baseline_name (its value), target >= target_ratio". */
static inline void pt_bench_report(const char *name, double value, const char *unit, double baseline,
                                   const char *baseline_name, double target_ratio) {
  double ratio = baseline > 0 ? value / baseline : 0;
  printf("%-44s %10.3f %-8s ratio %6.3f of %-16s %9.3f (target >= %.2f) %s\n", name, value, unit, ratio,
         baseline_name, baseline, target_ratio, ratio >= target_ratio ? "OK" : "BELOW");
}

typedef struct pt_bench_copy {
  uint8_t *dst;
  const uint8_t *src;
  size_t bytes;
} pt_bench_copy;

static inline void pt_bench_copy_run(void *arg) {
  pt_bench_copy *c = arg;
  memcpy(c->dst, c->src, c->bytes);
}

/* The baseline of every "of memcpy" ratio: GB/s of memcpy of `bytes` between two 64-byte
 * aligned buffers, both written before timing (no first-touch page faults; an untouched
 * source would be read from the shared zero page, faster than real data), the destination
 * 1 KiB further into its page than the source (no 4 KiB aliasing of loads with stores),
 * best of runs for at least min_seconds (warm). */
static inline double pt_bench_memcpy_gbs(size_t bytes, double min_seconds) {
  const size_t page = 4096, skew = 1024;
  size_t len = (bytes + skew + page - 1) / page * page;
  uint8_t *src = aligned_alloc(page, len), *dst = aligned_alloc(page, len);
  if (!src || !dst) abort();
  memset(src, 0x5A, len), memset(dst, 0xA5, len);
  pt_bench_copy c = {dst + skew, src, bytes};
  double t = pt_bench_best(pt_bench_copy_run, &c, min_seconds);
  free(src), free(dst);
  return (double)bytes / t * 1e-9;
}

/* ---- a .pto program from text, unchecked and with every checker ----------------------- */

/* A kernel with one scalar argument, run on a fresh A5 machine of one block per call:
 * ptosim_program_run unchecked, ptosim_monitor_run with every checker (the defaults of
 * ptosim_monitor_defaults) when `checked`. `prepare`, when set, writes the kernel's inputs
 * (host writes, made with the monitor attached: the checkers know the bytes are
 * initialized, as for a user's inputs). */
typedef struct pt_bench_prog {
  ptosim_program *p;
  int checked;
  int64_t arg, checked_arg; /* the argument of unchecked and of checked runs */
  void (*prepare)(ptosim_machine *m);
} pt_bench_prog;

static inline void pt_bench_prog_run(void *arg) {
  pt_bench_prog *b = arg;
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  ptosim_monitor_opts o = ptosim_monitor_defaults();
  ptosim_monitor *mon = b->checked ? ptosim_monitor_attach(m, &o) : NULL;
  if (b->prepare) b->prepare(m);
  ptosim_arg args[1] = {{.i = b->checked ? b->checked_arg : b->arg}};
  ptosim_status st = mon ? ptosim_monitor_run(mon, b->p, args) : ptosim_program_run(b->p, m, args);
  if (st != PTOSIM_OK) fprintf(stderr, "run failed: %s\n", ptosim_last_diag(m)->msg);
  if (mon) ptosim_monitor_finish(mon);
  ptosim_monitor_free(mon);
  ptosim_machine_free(m);
}

/* Load `src` into b->p and time the best run of b unchecked (*t_plain) and checked
 * (*t_checked), each repeated for at least min_seconds. Returns 0, or 1 when the program
 * does not load (the loader printed why). The caller frees b->p. */
static inline int pt_bench_prog_time(pt_bench_prog *b, const char *name, const char *src, double min_seconds,
                                     double *t_plain, double *t_checked) {
  int nerr = 0;
  b->p = ptosim_program_load(name, src, strlen(src), NULL, -1, stderr, &nerr);
  if (!b->p) return 1;
  b->checked = 0;
  *t_plain = pt_bench_best(pt_bench_prog_run, b, min_seconds);
  b->checked = 1;
  *t_checked = pt_bench_best(pt_bench_prog_run, b, min_seconds);
  return 0;
}

#endif
