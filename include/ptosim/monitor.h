/* ptosim — the monitor: checkers (race, sync, init), per-pipe cost timelines, statistics
 * and Chrome traces, fed by the event every executed op emits. Attach one to a machine
 * before running; with none attached the machine records nothing and pays nothing.
 *
 *   ptosim_monitor_opts o = ptosim_monitor_defaults();
 *   ptosim_monitor *mon = ptosim_monitor_attach(m, &o);
 *   ... ptosim_monitor_run(mon, p, args) or ptosim_<op>(core, &params) calls ...
 *   ptosim_monitor_finish(mon);            // drain; end-of-kernel checks (flags never waited ...)
 *   for (int i = 0; i < ptosim_monitor_nreports(mon); i++) ... ptosim_monitor_report(mon, i)
 *   ptosim_monitor_free(mon);              // detaches */
#ifndef PTOSIM_MONITOR_H
#define PTOSIM_MONITOR_H

#include <stdint.h>
#include <stdio.h>

#include "ptosim/program.h"
#include "ptosim/ptosim.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Checker bits. */
enum {
  PTOSIM_CHECK_RACE = 1u << 0, /* RAW / WAR / WAW between pipes or cores not ordered by sync */
  PTOSIM_CHECK_SYNC = 1u << 1, /* flags never waited, double sets, rls_buf without get_buf ... */
  PTOSIM_CHECK_INIT = 1u << 2, /* never-written local bytes whose values reach GM or a scalar
                                  (see ptosim_monitor_run) */
  PTOSIM_CHECK_MEM = 1u << 3,  /* bounds / alignment: always enforced; the bit is kept for the CLI */
  PTOSIM_CHECK_ALL = 0xFu,
  PTOSIM_CHECK_INIT_READS = 1u << 4 /* every read of never-written local bytes, observable or
                                       not (fractal padding too): the strict listing, not in ALL */
};

/* How bad a finding is. Errors mean the kernel can compute wrong numbers or hang on a
 * chip (races, deadlocks, lost signals, observable uninitialized data); warnings do not
 * change this run's results (a signal never waited, a token never released, a read of
 * never-written padding). */
typedef enum ptosim_severity { PTOSIM_SEV_ERROR = 0, PTOSIM_SEV_WARNING = 1 } ptosim_severity;

/* When the ops run (ptosim_monitor_opts.schedule). */
typedef enum ptosim_schedule {
  PTOSIM_SCHEDULE_PROGRAM = 0, /* each op runs when issued: program order on every core */
  PTOSIM_SCHEDULE_EAGER = 1    /* each op runs when its pipe would run it on the timeline: it
                                  reads memory at its start and its writes land at its end, so
                                  a missing flag changes the results as on a chip */
} ptosim_schedule;

typedef struct ptosim_monitor_opts {
  unsigned checks;        /* PTOSIM_CHECK_* bits */
  int program_order;      /* treat every op of a core as ordered (no race checking): programs
                             without synchronization whose ordering a compiler will insert */
  int timeline;           /* keep per-pipe timelines (cost model) for stats and traces */
  int trace;              /* keep one slice per op for ptosim_monitor_write_trace */
  uint64_t max_reports;   /* distinct reports kept (0: 1000) */
  ptosim_schedule schedule; /* EAGER turns the timeline on; ignored with program_order */
} ptosim_monitor_opts;

typedef struct ptosim_monitor ptosim_monitor;

/* One distinct finding; repeats of the same pair of sites are counted, not repeated. */
typedef struct ptosim_report {
  char rule[32];          /* race.raw, race.war, race.waw, sync.unwaited, init.read ... */
  char msg[600];
  char hint[300];
  ptosim_loc loc;         /* the later access / the offending op */
  ptosim_loc other;       /* the earlier access / the related op (line 0 if none) */
  uint64_t count;         /* occurrences */
  ptosim_severity severity;
  int first_block, last_block; /* blocks the finding occurred in (the later access's block) */
  int nblocks;            /* how many distinct blocks */
} ptosim_report;

ptosim_monitor_opts ptosim_monitor_defaults(void); /* all checks, timeline on, no trace */
ptosim_monitor *ptosim_monitor_attach(ptosim_machine *m, const ptosim_monitor_opts *o);
/* Run a program under the monitor (ptosim_program_run). With PTOSIM_CHECK_INIT, when the
 * run read never-written local bytes, the program runs a second time from the same
 * inputs with those bytes filled with 0xFF (the first run sees them as the machine left
 * them: zero on a new machine); GM bytes and scalar loads that differ are the observable
 * uses of uninitialized data (init.output, init.scalar, init.decision). Memory, flags and
 * registers are as the first run left them afterwards, except local memories, which the
 * second run reused. Without this call (ptosim_program_run directly) every GM byte or
 * scalar load whose value may depend on never-written bytes is reported. */
ptosim_status ptosim_monitor_run(ptosim_monitor *mon, const ptosim_program *p, const ptosim_arg *args);
/* Eager schedule: run every op still queued and land every write in flight (the host sees
 * memory as the kernel leaves it only after this; ptosim_program_run drains at the end of
 * each block). Returns the status of a queued op that failed. PTOSIM_OK otherwise. */
ptosim_status ptosim_monitor_drain(ptosim_monitor *mon);
/* End of the kernel: drain, then report flags set and never waited, tokens never released. */
void ptosim_monitor_finish(ptosim_monitor *mon);
int ptosim_monitor_nreports(const ptosim_monitor *mon);
const ptosim_report *ptosim_monitor_report(const ptosim_monitor *mon, int i);
/* "file:line:col: error|warning: msg [rule] (N times in M blocks)" lines with hints. */
void ptosim_monitor_print_reports(const ptosim_monitor *mon, FILE *f);
/* Distinct findings of a severity. */
int ptosim_monitor_count(const ptosim_monitor *mon, ptosim_severity sev);
/* One line: "ptosim: FINDINGS: E errors from C contexts (rule n, ...), W warnings ...". */
void ptosim_monitor_print_summary(const ptosim_monitor *mon, FILE *f);
/* Total cycles, per-core per-pipe busy cycles and utilization, op counts, longest stalls. */
void ptosim_monitor_print_stats(const ptosim_monitor *mon, FILE *f);
void ptosim_monitor_write_stats_json(const ptosim_monitor *mon, FILE *f);
/* Chrome trace-event JSON: one process per core, one thread per pipe, one slice per op,
 * flow arrows from each set to the wait it releases (needs opts.trace). */
void ptosim_monitor_write_trace(const ptosim_monitor *mon, FILE *f);
uint64_t ptosim_monitor_total_cycles(const ptosim_monitor *mon);
void ptosim_monitor_free(ptosim_monitor *mon);

#ifdef __cplusplus
}
#endif
#endif
