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

#endif
