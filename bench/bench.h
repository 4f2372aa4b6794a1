/* Benchmark helpers: wall-clock timing with repetition until a minimum run time, and a
 * ratio line against a baseline measured in the same run. Benchmarks never fail on
 * timing; they print figures. */
#ifndef PT_BENCH_H
#define PT_BENCH_H

#include <stdio.h>
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

/* Print "name: value unit (ratio x of baseline_name, target >= target_ratio)". */
static inline void pt_bench_report(const char *name, double value, const char *unit, double baseline,
                                   const char *baseline_name, double target_ratio) {
  double ratio = baseline > 0 ? value / baseline : 0;
  printf("%-44s %10.3f %-8s ratio %6.3f of %-16s (target >= %.2f) %s\n", name, value, unit, ratio, baseline_name,
         target_ratio, ratio >= target_ratio ? "OK" : "BELOW");
}

#endif
