/* A/B driver for bench/ab.sh: one run of the kernel of BENCH_FILE (bench_vector.c or
 * bench_microop.c, compiled in with its main renamed) through pt_bench_prog_run of bench.h,
 * unchecked or with every checker; prints the CPU seconds (user + system, getrusage) of that
 * run alone, without loading the program.
 *   ab_driver CHECKED ARG      (CHECKED 0 or 1; ARG the kernel's argument: passes or iterations) */
#include <sys/resource.h>

#define main bench_main
#include BENCH_FILE
#undef main

static double cpu_seconds(void) {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s CHECKED ARG\n", argv[0]);
    return 2;
  }
  int nerr = 0;
  pt_bench_prog b = {.prepare = prepare, .checked = atoi(argv[1])};
  b.arg = b.checked_arg = atoll(argv[2]);
  b.p = ptosim_program_load("k.pto", src, strlen(src), NULL, -1, stderr, &nerr);
  if (!b.p) return 1;
  double t0 = cpu_seconds();
  pt_bench_prog_run(&b);
  printf("%.6f\n", cpu_seconds() - t0);
  ptosim_program_free(b.p);
  return 0;
}
