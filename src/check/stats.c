/* Statistics and Chrome traces of the per-pipe timelines (times in cycles, from the cost
 * model src/cost/cost.c through the synchronization model clocks.c). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "check/monitor_impl.h"
#include "core/profile.h"

static void keep_stall(ptosim_monitor *mon, uint32_t site, uint64_t cycles) {
  if (!mon->stalls && !(mon->stalls = calloc(PT_MAX_STALLS, sizeof *mon->stalls))) return;
  for (int i = 0; i < mon->nstalls; i++)
    if (mon->stalls[i].site == site) {
      if (cycles > mon->stalls[i].cycles) mon->stalls[i].cycles = cycles;
      goto sort;
    }
  if (mon->nstalls < PT_MAX_STALLS) mon->stalls[mon->nstalls++] = (pt_stall){site, cycles};
  else if (cycles > mon->stalls[PT_MAX_STALLS - 1].cycles) mon->stalls[PT_MAX_STALLS - 1] = (pt_stall){site, cycles};
  else return;
sort: /* longest first; insertion sort of at most 8 */
  for (int i = 1; i < mon->nstalls; i++)
    for (int j = i; j > 0 && mon->stalls[j].cycles > mon->stalls[j - 1].cycles; j--) {
      pt_stall t = mon->stalls[j];
      mon->stalls[j] = mon->stalls[j - 1];
      mon->stalls[j - 1] = t;
    }
}

static void keep_slice(ptosim_monitor *mon, const pt_event *ev, uint32_t site, const pt_step *st) {
  if (mon->nslices == mon->cap_slices) {
    uint32_t cap = mon->cap_slices ? mon->cap_slices * 2 : 1024;
    pt_slice *s = cap <= PT_MAX_SLICES ? realloc(mon->slices, cap * sizeof *s) : NULL;
    if (!s) {
      mon->slices_dropped++;
      return;
    }
    mon->slices = s;
    mon->cap_slices = cap;
  }
  pt_slice *s = &mon->slices[mon->nslices++];
  *s = (pt_slice){.site = site, .start = st->start, .end = st->end, .flow_in = st->flow_in, .flow_out = st->flow_out};
  for (int i = 0; i < ev->nranges && s->nr < 2; i++) s->r[s->nr++] = ev->ranges[i];
}

void pt_mon_account(ptosim_monitor *mon, const pt_event *ev, uint32_t site, const pt_step *st) {
  mon->nevents++;
  mon->nops[ev->op] += !ev->part;
  mon->busy[(size_t)ev->core->block * PT_NAGENT + (size_t)st->agent] += st->end - st->start;
  if (st->stall) keep_stall(mon, site, st->stall);
  if (mon->opts.trace) keep_slice(mon, ev, site, st);
}

/* ---- statistics ----------------------------------------------------------------------------- */

/* Calls fn for every (block, agent) that did anything. */
static void each_busy_agent(const ptosim_monitor *mon, void (*fn)(const ptosim_monitor *, int, int, uint64_t, void *), void *u) {
  for (int b = 0; b < mon->m->blocks; b++)
    for (int a = 0; a < PT_NAGENT; a++) {
      uint64_t busy = mon->busy[(size_t)b * PT_NAGENT + (size_t)a];
      if (busy) fn(mon, b, a, busy, u);
    }
}

static void print_agent(const ptosim_monitor *mon, int b, int a, uint64_t busy, void *u) {
  FILE *f = u;
  uint64_t total = ptosim_monitor_total_cycles(mon);
  fprintf(f, "  block %-3d %-5s %-10s %12" PRIu64 " %7.1f%%\n", b, pt_mon_kind_name(a / PTOSIM_PIPE_COUNT),
          ptosim_pipe_name((ptosim_pipe)(a % PTOSIM_PIPE_COUNT)), busy, total ? 100.0 * (double)busy / (double)total : 0.0);
}

void ptosim_monitor_print_stats(const ptosim_monitor *mon, FILE *f) {
  fprintf(f, "ptosim stats: target %s, %d block(s), %" PRIu64 " ops, %" PRIu64 " cycles\n", mon->m->prof->name,
          mon->m->blocks, mon->nevents, ptosim_monitor_total_cycles(mon));
  fprintf(f, "  %-9s %-5s %-10s %12s %8s\n", "block", "core", "pipe", "busy", "util");
  each_busy_agent(mon, print_agent, f);
  fprintf(f, "  ops:");
  for (int i = 0; i < PTOSIM_OP_COUNT; i++)
    if (mon->nops[i]) fprintf(f, " %s %" PRIu64, ptosim_op_spelling((ptosim_opcode)i), mon->nops[i]);
  fprintf(f, "\n");
  for (int i = 0; i < mon->nstalls; i++) {
    char s[400];
    pt_mon_site_text(mon, mon->stalls[i].site, 1, s, sizeof s);
    fprintf(f, "  stall: %s waited %" PRIu64 " cycles\n", s, mon->stalls[i].cycles);
  }
}

/* JSON string body (the locations are file paths: escape quotes, backslashes, controls). */
static void json_str(FILE *f, const char *s) {
  fputc('"', f);
  for (; s && *s; s++) {
    if (*s == '"' || *s == '\\') fprintf(f, "\\%c", *s);
    else if ((unsigned char)*s < 0x20) fprintf(f, "\\u%04x", (unsigned char)*s);
    else fputc(*s, f);
  }
  fputc('"', f);
}

static void json_agent(const ptosim_monitor *mon, int b, int a, uint64_t busy, void *u) {
  FILE *f = ((void **)u)[0];
  int *first = ((void **)u)[1];
  uint64_t total = ptosim_monitor_total_cycles(mon);
  fprintf(f, "%s\n    {\"block\": %d, \"core\": \"%s\", \"pipe\": \"%s\", \"busy_cycles\": %" PRIu64 ", \"utilization\": %.4f}",
          *first ? "" : ",", b, pt_mon_kind_name(a / PTOSIM_PIPE_COUNT), ptosim_pipe_name((ptosim_pipe)(a % PTOSIM_PIPE_COUNT)), busy,
          total ? (double)busy / (double)total : 0.0);
  *first = 0;
}

/* "file": ..., "line": L, "col": C of a location (file null for C API calls). */
static void json_loc(FILE *f, const ptosim_loc *l) {
  fprintf(f, "\"file\": ");
  if (l->file) json_str(f, l->file);
  else fprintf(f, "null");
  fprintf(f, ", \"line\": %d, \"col\": %d", l->line, l->col);
}

/* The op of a site as fields: op, pipe, block, core, file, line, col. */
static void json_site(FILE *f, const ptosim_monitor *mon, uint32_t id) {
  const pt_site *s = &mon->sites[id];
  fprintf(f, "\"op\": ");
  json_str(f, s->op < PTOSIM_OP_COUNT ? ptosim_op_spelling(s->op) : "host access");
  fprintf(f, ", \"pipe\": \"%s\", \"block\": %d, \"core\": \"%s\", ", ptosim_pipe_name(s->pipe), s->core->block,
          pt_mon_kind_name((int)s->core->kind));
  json_loc(f, &s->loc);
}

/* Version 2: stalls and findings are objects of fields (version 1 had preformatted
 * strings and a finding count). Times are cycles. */
#define PT_STATS_JSON_VERSION 2

void ptosim_monitor_write_stats_json(const ptosim_monitor *mon, FILE *f) {
  fprintf(f, "{\n  \"version\": %d,\n  \"time_unit\": \"cycle\",\n  \"target\": \"%s\",\n  \"blocks\": %d,\n  \"ops\": %" PRIu64
             ",\n  \"total_cycles\": %" PRIu64 ",\n  \"pipes\": [",
          PT_STATS_JSON_VERSION, mon->m->prof->name, mon->m->blocks, mon->nevents, ptosim_monitor_total_cycles(mon));
  int first = 1;
  void *u[2] = {f, &first};
  each_busy_agent(mon, json_agent, u);
  fprintf(f, "\n  ],\n  \"op_counts\": {");
  first = 1;
  for (int i = 0; i < PTOSIM_OP_COUNT; i++)
    if (mon->nops[i]) {
      fprintf(f, "%s\n    \"%s\": %" PRIu64, first ? "" : ",", ptosim_op_spelling((ptosim_opcode)i), mon->nops[i]);
      first = 0;
    }
  fprintf(f, "\n  },\n  \"stalls\": [");
  for (int i = 0; i < mon->nstalls; i++) {
    fprintf(f, "%s\n    {", i ? "," : "");
    json_site(f, mon, mon->stalls[i].site);
    fprintf(f, ", \"cycles\": %" PRIu64 "}", mon->stalls[i].cycles);
  }
  fprintf(f, "\n  ],\n  \"findings\": [");
  for (int i = 0; i < mon->nrep; i++) {
    const ptosim_report *r = &mon->rep[i];
    fprintf(f, "%s\n    {\"rule\": \"%s\", \"severity\": \"%s\", ", i ? "," : "", r->rule,
            r->severity == PTOSIM_SEV_ERROR ? "error" : "warning");
    json_loc(f, &r->loc);
    fprintf(f, ", \"other\": {");
    json_loc(f, &r->other);
    fprintf(f, "}, \"count\": %" PRIu64 ", \"blocks\": %d, \"first_block\": %d, \"last_block\": %d, \"message\": ", r->count,
            r->nblocks, r->first_block, r->last_block);
    json_str(f, r->msg);
    fprintf(f, "}");
  }
  fprintf(f, "\n  ],\n  \"errors\": %d,\n  \"warnings\": %d\n}\n", ptosim_monitor_count(mon, PTOSIM_SEV_ERROR),
          ptosim_monitor_count(mon, PTOSIM_SEV_WARNING));
}

/* ---- Chrome trace-event JSON ---------------------------------------------------------------- */

/* pid = global core index + 1, tid = pipe + 1; ts/dur are cycles. The trace-event format
 * reads ts/dur as microseconds, so viewers show 1 cycle as 1 us (no displayTimeUnit: it
 * would relabel the axis in ns). */
static void trace_ranges(FILE *f, const pt_slice *s) {
  char buf[256];
  int n = 0;
  for (int i = 0; i < s->nr && n < (int)sizeof buf; i++) {
    const pt_range *r = &s->r[i];
    uint64_t pieces = 1;
    for (int d = 0; d < r->nd; d++) pieces *= (uint64_t)r->count[d];
    n += snprintf(buf + n, sizeof buf - (size_t)n, "%s%s %s 0x%" PRIx64 " %" PRIu64 "x%" PRIu64 "B", i ? "; " : "",
                  r->access & 4 ? "atomic" : r->access == 1 ? "read" : r->access == 2 ? "write" : "rw", pt_space_name(r->space), r->addr, pieces, r->len);
  }
  json_str(f, n ? buf : "");
}

void ptosim_monitor_write_trace(const ptosim_monitor *mon, FILE *f) {
  fprintf(f, "{\"otherData\": {\"time_unit\": \"cycle\", \"note\": \"ts and dur are cycles: 1 us on the viewer's axis = 1 cycle\"},\n \"traceEvents\": [\n");
  int first = 1;
  for (int c = 0; c < mon->m->blocks * 3; c++) {
    const ptosim_core *core = &mon->m->cores[c];
    fprintf(f, "%s  {\"ph\": \"M\", \"name\": \"process_name\", \"pid\": %d, \"args\": {\"name\": \"block %d %s\"}}",
            first ? "" : ",\n", c + 1, core->block, pt_mon_kind_name((int)core->kind));
    first = 0;
    for (int p = 0; p < PTOSIM_PIPE_COUNT; p++)
      fprintf(f, ",\n  {\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": %d, \"tid\": %d, \"args\": {\"name\": \"%s\"}}", c + 1,
              p + 1, ptosim_pipe_name((ptosim_pipe)p));
  }
  for (uint32_t i = 0; i < mon->nslices; i++) {
    const pt_slice *s = &mon->slices[i];
    const pt_site *site = &mon->sites[s->site];
    int pid = (int)(site->core - mon->m->cores) + 1, tid = site->pipe + 1;
    char loc[300];
    if (site->loc.file) snprintf(loc, sizeof loc, "%s:%d:%d", site->loc.file, site->loc.line, site->loc.col);
    else snprintf(loc, sizeof loc, "(C API)");
    fprintf(f, ",\n  {\"ph\": \"X\", \"name\": \"%s\", \"cat\": \"op\", \"pid\": %d, \"tid\": %d, \"ts\": %" PRIu64
               ", \"dur\": %" PRIu64 ", \"args\": {\"loc\": ",
            ptosim_op_spelling(site->op), pid, tid, s->start, s->end - s->start);
    json_str(f, loc);
    fprintf(f, ", \"bytes\": ");
    trace_ranges(f, s);
    fprintf(f, "}}");
    if (s->flow_out)
      fprintf(f, ",\n  {\"ph\": \"s\", \"name\": \"sync\", \"cat\": \"sync\", \"id\": %u, \"pid\": %d, \"tid\": %d, \"ts\": %" PRIu64 "}",
              s->flow_out, pid, tid, s->start);
    if (s->flow_in)
      fprintf(f, ",\n  {\"ph\": \"f\", \"bp\": \"e\", \"name\": \"sync\", \"cat\": \"sync\", \"id\": %u, \"pid\": %d, \"tid\": %d, \"ts\": %" PRIu64 "}",
              s->flow_in, pid, tid, s->start);
  }
  fprintf(f, "\n]}\n");
}
