#include "core/machine.h"

#include <stdlib.h>
#include <string.h>

#include "core/diag.h"
#include "core/mem.h"

/* First GM address handed out, and the gap kept between buffers so that running off the
 * end of one buffer never lands in the next. */
#define GM_FIRST 0x10000000ull
#define GM_GUARD 0x10000ull

static uint8_t *alloc_space(ptosim_machine *m, uint64_t bytes) {
  uint8_t *p = calloc(1, bytes);
  if (p) m->storage[m->nstorage++] = p;
  return p;
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
  free(m->gm);
  free(m->gm_sink);
  free(m);
}

ptosim_target ptosim_machine_target(const ptosim_machine *m) { return m->target; }

ptosim_core *ptosim_core_of(ptosim_machine *m, int block, ptosim_core_kind kind) {
  if (!m || block < 0 || block >= m->blocks || (unsigned)kind > PTOSIM_AIV1) return NULL;
  return &m->cores[block * 3 + kind];
}

uint64_t ptosim_space_capacity(const ptosim_machine *m, ptosim_space space) {
  return (unsigned)space < PTOSIM_SPACE_COUNT ? m->prof->capacity[space] : 0;
}

uint64_t ptosim_ops_executed(const ptosim_machine *m) { return m->ops_executed; }

ptosim_status ptosim_gm_map(ptosim_machine *m, void *host, size_t bytes, uint64_t *gm_addr) {
  pt_ctx x = {.m = m, .op = PTOSIM_OP_COUNT};
  if (!m || !gm_addr || (!host && bytes))
    return m ? pt_fail(&x, PTOSIM_E_USAGE, "api.args", NULL, "ptosim_gm_map: null argument") : PTOSIM_E_USAGE;
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

static ptosim_status mem_copy(ptosim_core *c, ptosim_space space, uint64_t addr, void *host, size_t n, int write) {
  if (!c) return PTOSIM_E_USAGE;
  pt_ctx x = {.m = c->m, .core = c, .op = PTOSIM_OP_COUNT};
  /* A host write initializes the bytes: listeners see it as an event of op PTOSIM_OP_COUNT. */
  pt_event ev = {.op = PTOSIM_OP_COUNT, .core = c};
  if (write && c->m->listener) x.ev = &ev;
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
