/* Cost of the checkers: examples/gemm.pto, examples/gemm_pingpong.pto and
 * tests/data/gemm_pad.pto (a GEMM whose cube reads fractal padding rows nothing wrote, so
 * definedness runs it a second time) run through ptosim_monitor_run with every checker,
 * the timeline and the trace on, against the same run with no monitor attached (the
 * baseline, measured in the same process). Target: checked speed >= 1/3 of plain.
 * A third row runs the same with the eager schedule (--schedule=eager: every op runs twice,
 * once at issue and once at its start time, and its writes are held until its end); it
 * has no target, the row shows what the schedule costs. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "ptosim/monitor.h"
#include "ptosim/program.h"

typedef struct run_ctx {
  ptosim_program *p;
  uint16_t *a, *b;
  float *c;
  int monitor; /* 0 none, 1 every checker, 2 every checker and the eager schedule */
} run_ctx;

static void run(void *arg) {
  run_ctx *r = arg;
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  ptosim_monitor_opts o = ptosim_monitor_defaults();
  o.trace = 1;
  o.schedule = r->monitor == 2 ? PTOSIM_SCHEDULE_EAGER : PTOSIM_SCHEDULE_PROGRAM;
  ptosim_monitor *mon = r->monitor ? ptosim_monitor_attach(m, &o) : NULL;
  ptosim_arg args[3];
  memset(args, 0, sizeof args);
  ptosim_gm_map(m, r->a, 128 * 128 * 2, &args[0].gm_addr);
  ptosim_gm_map(m, r->b, 128 * 128 * 2, &args[1].gm_addr);
  ptosim_gm_map(m, r->c, 128 * 128 * 4, &args[2].gm_addr);
  if ((mon ? ptosim_monitor_run(mon, r->p, args) : ptosim_program_run(r->p, m, args)) != PTOSIM_OK)
    fprintf(stderr, "run failed\n");
  if (mon) {
    ptosim_monitor_finish(mon);
    if (ptosim_monitor_nreports(mon)) fprintf(stderr, "unexpected findings\n");
  }
  ptosim_monitor_free(mon);
  ptosim_machine_free(m);
}

int main(void) {
  static uint16_t a[128 * 128], b[128 * 128];
  static float c[128 * 128];
  for (int i = 0; i < 128 * 128; i++) a[i] = b[i] = (uint16_t)(0x3C00 + (i % 7) * 0x40);
  const char *names[] = {"examples/gemm.pto", "examples/gemm_pingpong.pto", "tests/data/gemm_pad.pto"};
  for (int i = 0; i < 3; i++) {
    char path[1024], *text = malloc(1 << 16);
    snprintf(path, sizeof path, "%s/%s", PTOSIM_SOURCE_DIR, names[i]);
    FILE *f = fopen(path, "rb");
    size_t len = f && text ? fread(text, 1, 1 << 16, f) : 0;
    if (f) fclose(f);
    int nerr = 0;
    run_ctx r = {.p = ptosim_program_load(path, text, len, NULL, -1, stderr, &nerr), .a = a, .b = b, .c = c};
    free(text);
    if (!r.p) return 1;
    double plain = pt_bench_best(run, &r, 0.5);
    r.monitor = 1;
    double checked = pt_bench_best(run, &r, 0.5);
    char label[128];
    snprintf(label, sizeof label, "%s all checkers (runs/s)", names[i]);
    printf("%-44s %10.1f runs/s plain\n", names[i], 1 / plain);
    pt_bench_report(label, 1 / checked, "runs/s", 1 / plain, "no checkers", 1.0 / 3);
    r.monitor = 2;
    double eager = pt_bench_best(run, &r, 0.5);
    snprintf(label, sizeof label, "%s checkers + eager (runs/s)", names[i]);
    pt_bench_report(label, 1 / eager, "runs/s", 1 / plain, "no checkers", 0);
    ptosim_program_free(r.p);
  }
  return 0;
}
