/* The sync checker: findings about the synchronization itself (the races it fails to
 * prevent are the race checker's). Rules:
 *   sync.double_set      set_flag of an event whose previous set was not waited yet (the
 *                        hardware flag is one bit: one of the two signals is lost)
 *   sync.unwaited        a set_flag or cross-core set still pending at the end of the kernel
 *   sync.rls_without_get rls_buf of a token the pipe does not hold
 *   sync.unreleased      get_buf never released by the end of the kernel
 * Out-of-range ids, pipes a core does not have and waits that can never be satisfied are
 * errors of the ops themselves (src/isa/sync.c), reported whether or not this checker runs. */
#include "check/monitor_impl.h"

static pt_core_sync *mirror(ptosim_monitor *mon, const ptosim_core *c) {
  return &mon->sync[(size_t)c->block * 3 + (size_t)c->kind];
}

void pt_mon_sync_event(ptosim_monitor *mon, const pt_event *ev, uint32_t site) {
  const pt_sync *y = &ev->sync;
  if (y->kind == PT_SYNC_NONE) return;
  pt_core_sync *s = mirror(mon, ev->core);
  int on = (mon->opts.checks & PTOSIM_CHECK_SYNC) != 0;
  switch (y->kind) {
  case PT_SYNC_SET_FLAG: {
    uint32_t *prev = &s->set_site[y->a][y->b][y->id];
    if (on && ev->core->flags[y->a][y->b][y->id] > 1)
      pt_mon_report(mon, "sync.double_set", site, *prev, "wait for the event before setting it again (or use another event id)",
                    "set_flag(%s, %s, EVENT_ID%lld) while the previous set of this event is still pending: the flag is one bit, one signal is lost",
                    ptosim_pipe_name(y->a), ptosim_pipe_name(y->b), (long long)y->id);
    *prev = site;
    break;
  }
  case PT_SYNC_CORE_SET:
    if (y->peer) mirror(mon, y->peer)->sema_site[y->id] = site;
    break;
  case PT_SYNC_GET_BUF:
    s->held[y->a] |= 1u << y->id;
    s->get_site[y->a][y->id] = site;
    break;
  case PT_SYNC_RLS_BUF:
    if (on && !(s->held[y->a] & (1u << y->id)))
      pt_mon_report(mon, "sync.rls_without_get", site, 0, "acquire the token with get_buf on the same pipe first",
                    "rls_buf(%s, %lld) releases a buffer token the pipe does not hold", ptosim_pipe_name(y->a), (long long)y->id);
    s->held[y->a] &= ~(1u << y->id);
    break;
  default: break;
  }
}

void ptosim_monitor_finish(ptosim_monitor *mon) {
  if (!mon) return;
  if (mon->sched) pt_sched_drain(mon->sched);
  pt_def_finish(mon);
  if (!(mon->opts.checks & PTOSIM_CHECK_SYNC)) return;
  for (int i = 0; i < mon->m->blocks * 3; i++) {
    const ptosim_core *c = &mon->m->cores[i];
    pt_core_sync *s = &mon->sync[i];
    for (int a = 0; a < PTOSIM_PIPE_COUNT; a++)
      for (int b = 0; b < PTOSIM_PIPE_COUNT; b++)
        for (int id = 0; id < PTOSIM_EVENT_IDS; id++)
          if (c->flags[a][b][id] && s->set_site[a][b][id])
            pt_mon_report(mon, "sync.unwaited", s->set_site[a][b][id], 0, "wait for it before the kernel ends (drain after a loop)",
                          "set_flag(%s, %s, EVENT_ID%d) is never waited: %d signal(s) pending at the end of the kernel",
                          ptosim_pipe_name((ptosim_pipe)a), ptosim_pipe_name((ptosim_pipe)b), id, (int)c->flags[a][b][id]);
    for (int id = 0; id < 32; id++)
      if (c->sema[id] && s->sema_site[id])
        pt_mon_report(mon, "sync.unwaited", s->sema_site[id], 0, "wait for every cross-core signal before the kernel ends",
                      "cross-core signal %d to block %d %s is never waited: %d pending at the end of the kernel", id, c->block,
                      pt_mon_kind_name((int)c->kind), (int)c->sema[id]);
    for (int p = 0; p < PTOSIM_PIPE_COUNT; p++)
      for (int id = 0; id < PTOSIM_BUF_IDS; id++)
        if (s->held[p] & (1u << id))
          pt_mon_report(mon, "sync.unreleased", s->get_site[p][id], 0, "release it with rls_buf on the same pipe",
                        "get_buf(%s, %d) is never released", ptosim_pipe_name((ptosim_pipe)p), id);
  }
}
