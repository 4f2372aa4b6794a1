#include "core/machine.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "core/mem.h"

/* First GM address handed out, and the gap kept between buffers so that running off the
 * end of one buffer never lands in the next. */
#define GM_FIRST 0x10000000ull
#define GM_GUARD 0x10000ull

/* A local memory of `bytes` zero bytes, 64-byte aligned so that the host's vector loads of
 * aligned tiles do not straddle cache lines (calloc of a large block is 16 bytes past a
 * page); storage keeps the pointer to free. */
static uint8_t *alloc_space(ptosim_machine *m, uint64_t bytes) {
  uint8_t *p = calloc(1, bytes + 64);
  if (!p) return NULL;
  m->storage[m->nstorage++] = p;
  return p + (64 - (uintptr_t)p % 64) % 64;
}

ptosim_machine *ptosim_machine_new(ptosim_target target, int blocks) {
  const pt_profile *prof = pt_profile_get(target);
  if (!prof || blocks < 1 || blocks > 65536) return NULL;
  ptosim_machine *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->target = target;
  m->prof = prof;
  m->blocks = blocks;
  m->gm_next = GM_FIRST;
  m->max_back_edges = PTOSIM_DEFAULT_MAX_STEPS;
  m->stop = &m->interrupted;
  m->used_known = 1; /* calloc: every local byte is zero */
  m->cores = calloc((size_t)blocks * 3, sizeof *m->cores);
  m->storage = calloc((size_t)blocks * PTOSIM_SPACE_COUNT, sizeof *m->storage);
  if (!m->cores || !m->storage) goto fail;
  for (int b = 0; b < blocks; b++) {
    ptosim_core *aic = &m->cores[b * 3];
    for (int k = 0; k < 3; k++) {
      m->cores[b * 3 + k].m = m;
      m->cores[b * 3 + k].block = b;
      m->cores[b * 3 + k].kind = (ptosim_core_kind)k;
      m->cores[b * 3 + k].sreg[PT_SREG_CTRL] = PT_CTRL_RESET;
      m->cores[b * 3 + k].sreg[PT_SREG_VMASK0] = m->cores[b * 3 + k].sreg[PT_SREG_VMASK1] = UINT64_MAX;
    }
    /* Cube-side memories belong to the AIC; each AIV owns a UB. Vector cores reach the
     * cluster's L1 (mte_ub_l1), the cube core reaches the UB of sub-block 0 (mte_l1_ub);
     * FIXPIPE picks either UB explicitly (dst_mode). */
    for (int s = PTOSIM_L1; s < PTOSIM_SPACE_COUNT; s++) {
      if (!prof->capacity[s]) continue;
      if (!(aic->mem[s] = alloc_space(m, prof->capacity[s]))) goto fail;
    }
    for (int k = 1; k < 3; k++)
      if (!(m->cores[b * 3 + k].mem[PTOSIM_UB] = alloc_space(m, prof->capacity[PTOSIM_UB]))) goto fail;
    for (int k = 1; k < 3; k++) m->cores[b * 3 + k].mem[PTOSIM_L1] = aic->mem[PTOSIM_L1];
    aic->mem[PTOSIM_UB] = m->cores[b * 3 + 1].mem[PTOSIM_UB];
  }
  return m;
fail:
  ptosim_machine_free(m);
  return NULL;
}

void ptosim_machine_free(ptosim_machine *m) {
  if (!m) return;
  for (int i = 0; m->cores && i < m->blocks * 3; i++) pt_park_free(&m->cores[i]);
  for (int i = 0; i < m->nstorage; i++) free(m->storage[i]);
  free(m->storage);
  free(m->cores);
  for (int i = 0; i < m->ngm; i++) free(m->gm[i].name);
  free(m->gm);
  free(m->gm_sink);
  free(m->saved);
  free(m);
}

ptosim_target ptosim_machine_target(const ptosim_machine *m) { return m ? m->target : PTOSIM_TARGET_COUNT; }

ptosim_core *ptosim_core_of(ptosim_machine *m, int block, ptosim_core_kind kind) {
  if (!m || block < 0 || block >= m->blocks || (unsigned)kind > PTOSIM_AIV1) return NULL;
  return &m->cores[block * 3 + kind];
}

uint64_t ptosim_space_capacity(const ptosim_machine *m, ptosim_space space) {
  return m && (unsigned)space < PTOSIM_SPACE_COUNT ? m->prof->capacity[space] : 0;
}

void ptosim_machine_set_limits(ptosim_machine *m, uint64_t max_steps, void (*progress)(void *user, uint64_t ops_executed),
                               void *user) {
  if (!m) return;
  m->max_back_edges = max_steps ? max_steps : UINT64_MAX;
  m->progress = progress;
  m->progress_user = user;
}

void ptosim_machine_interrupt(ptosim_machine *m) {
  if (m) *m->stop = 1;
}

uint64_t ptosim_ops_executed(const ptosim_machine *m) { return m ? m->ops_executed : 0; }

/* Index of a mapped buffer whose host bytes overlap [host, host + bytes), or -1. */
static int host_overlap(const ptosim_machine *m, const uint8_t *host, size_t bytes) {
  for (int i = 0; i < m->ngm; i++) {
    const pt_gm_buf *g = &m->gm[i];
    if (bytes && g->size && host < g->host + g->size && g->host < host + bytes) return i;
  }
  return -1;
}

ptosim_status ptosim_gm_map(ptosim_machine *m, void *host, size_t bytes, uint64_t *gm_addr) {
  pt_ctx x = {.m = m, .op = PTOSIM_OP_COUNT};
  if (!m || !gm_addr || (!host && bytes))
    return m ? pt_fail(&x, PTOSIM_E_USAGE, "api.args", NULL, "ptosim_gm_map: null argument") : PTOSIM_E_USAGE;
  /* Room for the buffer, its guard gap and the 4 KiB rounding below GM address 2^63. */
  uint64_t room = (1ull << 63) - m->gm_next;
  if (room < GM_GUARD + 0x1000 || (uint64_t)bytes > room - GM_GUARD - 0x1000)
    return pt_fail(&x, PTOSIM_E_USAGE, "api.args", "map smaller buffers",
                   "ptosim_gm_map: %zu bytes do not fit in the GM address space left", bytes);
  if ((uintptr_t)host > UINTPTR_MAX - bytes)
    return pt_fail(&x, PTOSIM_E_USAGE, "api.args", NULL, "ptosim_gm_map: host range wraps around");
  int other = host_overlap(m, host, bytes);
  if (other >= 0)
    return pt_fail(&x, PTOSIM_E_USAGE, "api.args",
                   "map a host buffer once and pass its GM address to every parameter that uses it",
                   "ptosim_gm_map: the host bytes overlap those of the buffer mapped at GM 0x%" PRIx64
                   " (two GM ranges for the same bytes would hide their races)",
                   m->gm[other].base);
  if (m->ngm == m->gm_cap) {
    int cap = m->gm_cap ? m->gm_cap * 2 : 8;
    pt_gm_buf *g = realloc(m->gm, (size_t)cap * sizeof *g);
    if (!g) return pt_fail(&x, PTOSIM_E_NOMEM, "api.nomem", NULL, "out of memory");
    m->gm = g;
    m->gm_cap = cap;
  }
  /* Buffers are placed at increasing addresses, so the array stays sorted. */
  uint64_t base = m->gm_next;
  m->gm[m->ngm++] = (pt_gm_buf){.base = base, .size = bytes, .host = host};
  m->gm_next = (base + bytes + GM_GUARD + 0xfffull) & ~0xfffull;
  *gm_addr = base;
  return PTOSIM_OK;
}

ptosim_status ptosim_gm_set_name(ptosim_machine *m, uint64_t gm_addr, const char *name) {
  int i = m && name ? pt_gm_index(m, gm_addr) : -1;
  if (i < 0) return PTOSIM_E_USAGE;
  char *copy = malloc(strlen(name) + 1);
  if (!copy) return PTOSIM_E_NOMEM;
  free(m->gm[i].name);
  m->gm[i].name = strcpy(copy, name);
  return PTOSIM_OK;
}

int ptosim_gm_written(const ptosim_machine *m, uint64_t gm_addr) {
  int i = m ? pt_gm_index(m, gm_addr) : -1;
  return i < 0 ? -1 : m->gm[i].written;
}

static ptosim_status mem_copy(ptosim_core *c, ptosim_space space, uint64_t addr, void *host, size_t n, int write) {
  if (!c) return PTOSIM_E_USAGE;
  pt_ctx x = {.m = c->m, .core = c, .op = PTOSIM_OP_COUNT};
  if (!host && n)
    return pt_fail(&x, PTOSIM_E_USAGE, "api.args", NULL, "ptosim_mem_%s: null host pointer", write ? "write" : "read");
  /* A host write initializes the bytes: listeners see it as an event of op PTOSIM_OP_COUNT. */
  pt_event ev = {.op = PTOSIM_OP_COUNT, .core = c};
  if (write && c->m->listener) x.ev = &ev;
  if (write && space != PTOSIM_GM) c->m->used_known = 0;
  uint8_t *p;
  PT_TRY(pt_span(&x, space, addr, n, 1, write ? PT_WRITE : PT_READ, &p));
  if (n) {
    if (write)
      memcpy(p, host, n);
    else
      memcpy(host, p, n);
  }
  if (x.ev) c->m->listener(c->m->listener_user, &ev);
  return PTOSIM_OK;
}

ptosim_status ptosim_mem_write(ptosim_core *c, ptosim_space space, uint64_t addr, const void *src, size_t n) {
  return mem_copy(c, space, addr, (void *)src, n, 1);
}

ptosim_status ptosim_mem_read(ptosim_core *c, ptosim_space space, uint64_t addr, void *dst, size_t n) {
  return mem_copy(c, space, addr, dst, n, 0);
}

/* ---- per-thread views and saved block state (src/exec/parallel.c) ---------------------------- */

void pt_machine_view(ptosim_machine *view, const ptosim_machine *m, pt_event_fn listener, void *user) {
  *view = *m;
  memset(&view->diag, 0, sizeof view->diag);
  view->ops_executed = 0;
  view->listener = listener;
  view->listener_user = user;
  view->state_read = 0;
  view->gm_sink = NULL;
  view->gm_sink_size = 0;
  view->saved = NULL;
  view->saved_cap = 0;
}

uint8_t *pt_machine_saved(ptosim_machine *m, size_t n) {
  if (n <= m->saved_cap) return m->saved;
  free(m->saved); /* nothing in it is kept */
  m->saved = malloc(n);
  m->saved_cap = m->saved ? n : 0;
  return m->saved;
}

void pt_block_bind(ptosim_machine *m, int blk, ptosim_machine *to) {
  for (int k = 0; k < 3; k++) m->cores[blk * 3 + k].m = to;
}

int pt_core_owns(const ptosim_core *c, ptosim_space s) {
  return s != PTOSIM_GM && (unsigned)s < PTOSIM_SPACE_COUNT && c->mem[s] &&
         (s == PTOSIM_UB ? c->kind != PTOSIM_AIC : c->kind == PTOSIM_AIC);
}

void pt_machine_used_begin(ptosim_machine *m) {
  if (m->used_known && m->used_ops == m->ops_executed) return;
  for (int i = 0; i < m->blocks * 3; i++)
    for (int s = 0; s < PTOSIM_SPACE_COUNT; s++)
      m->cores[i].used[s] = pt_core_owns(&m->cores[i], (ptosim_space)s) ? m->prof->capacity[s] : 0;
  m->used_known = 1;
  m->used_ops = m->ops_executed;
}

size_t pt_block_state_size(const ptosim_machine *m, int blk) {
  size_t n = 3 * sizeof(ptosim_core);
  for (int k = 0; k < 3; k++)
    for (int s = 0; s < PTOSIM_SPACE_COUNT; s++) n += (size_t)m->cores[blk * 3 + k].used[s];
  return n;
}

void pt_block_save(const ptosim_machine *m, int blk, uint8_t *out) {
  const ptosim_core *c = &m->cores[blk * 3];
  memcpy(out, c, 3 * sizeof *c);
  out += 3 * sizeof *c;
  for (int k = 0; k < 3; k++)
    for (int s = 0; s < PTOSIM_SPACE_COUNT; s++) {
      if (!c[k].used[s]) continue; /* always so where mem is NULL */
      memcpy(out, c[k].mem[s], (size_t)c[k].used[s]);
      out += c[k].used[s];
    }
}

void pt_block_restore(ptosim_machine *m, int blk, const uint8_t *in, int unknown) {
  ptosim_core *c = &m->cores[blk * 3];
  const uint8_t *bytes = in + 3 * sizeof *c;
  for (int k = 0; k < 3; k++) {
    ptosim_core saved;
    memcpy(&saved, in + k * sizeof saved, sizeof saved);
    for (int s = 0; s < PTOSIM_SPACE_COUNT; s++) {
      uint64_t before = saved.used[s], now = unknown && pt_core_owns(&c[k], (ptosim_space)s) ? m->prof->capacity[s] : c[k].used[s];
      if (before) memcpy(c[k].mem[s], bytes, (size_t)before);
      if (now > before) memset(c[k].mem[s] + before, 0, (size_t)(now - before));
      bytes += before;
    }
  }
  memcpy(c, in, 3 * sizeof *c);
}
