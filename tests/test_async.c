/* Asynchronous DMA handles (src/isa/async.c): pto.make_prefetch_async_context,
 * pto.get_prefetch_async_session, pto.[comm.]build_async_session, pto.[comm.]wait_async_event /
 * test_async_event and the text form of pto.tprefetch_async. The model (include/ptosim/
 * tile_move.h): a context or session is its workspace's GM address, an event 1 once started
 * (0: the empty event), every wait and test completes. Checked through the C API (each rule
 * too) and from .pto text, where the handles and results are stored to GM and compared. */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "ptosim/program.h"
#include "ptosim/ptosim.h"

static ptosim_machine *m;
static ptosim_core *c;

static void fresh(void) {
  if (m) ptosim_machine_free(m);
  m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  c = ptosim_core_of(m, 0, PTOSIM_AIV0);
}

static void want_rule(ptosim_status st, const char *rule) {
  const ptosim_diag *d = ptosim_last_diag(m);
  CHECK_MSG(st == PTOSIM_E_VERIFY && !strcmp(d->rule, rule), "want [%s], got %d [%s] (%s)", rule, (int)st, d->rule, d->msg);
}

static ptosim_ptr gm_bytes(uint64_t addr) { return (ptosim_ptr){.space = PTOSIM_GM, .dtype = PTOSIM_DT_I8, .addr = addr}; }

static void test_context(void) {
  fresh();
  int64_t out = -1;
  ptosim_async_context_params p = {.workspace = gm_bytes(0x12340), .out = &out};
  CHECK(ptosim_make_prefetch_async_context(c, &p) == PTOSIM_OK && out == 0x12340);
  p.workspace.dtype = PTOSIM_DT_U8;
  p.workspace.addr = 0;
  CHECK(ptosim_make_prefetch_async_context(c, &p) == PTOSIM_OK && out == 0); /* an empty context */
  ptosim_async_context_params g = {.handle = 0x12340, .out = &out};
  CHECK(ptosim_get_prefetch_async_session(c, &g) == PTOSIM_OK && out == 0x12340);
  p.workspace.dtype = PTOSIM_DT_F32;
  want_rule(ptosim_make_prefetch_async_context(c, &p), "async.workspace");
  p.workspace = gm_bytes(64);
  p.workspace.space = PTOSIM_UB;
  want_rule(ptosim_make_prefetch_async_context(c, &p), "async.workspace");
}

static void test_session(void) {
  fresh();
  int64_t s = -1;
  const ptosim_async_session_params ok = {
      .scratch = {.space = PTOSIM_UB, .addr = 0, .dtype = PTOSIM_DT_I8, .rows = 1, .cols = 256, .valid_rows = 1,
                  .valid_cols = 256, .fractal = 512},
      .workspace = gm_bytes(0x8000), .block_bytes = 32768, .queue_num = 1, .channel_group_idx = -1, .session = &s};
  ptosim_async_session_params p = ok;
  CHECK(ptosim_build_async_session(c, &p) == PTOSIM_OK && s == 0x8000);
  s = -1;
  p.sync_id = 7;
  p.channel_group_idx = 4294967295;
  p.scratch.rows = p.scratch.cols = p.scratch.valid_rows = p.scratch.valid_cols = 1;
  p.scratch.dtype = PTOSIM_DT_I64; /* exactly 8 bytes */
  CHECK(ptosim_comm_build_async_session(c, &p) == PTOSIM_OK && s == 0x8000);
  p = ok;
  p.workspace.dtype = PTOSIM_DT_I16;
  want_rule(ptosim_build_async_session(c, &p), "async.workspace");
  p = ok;
  p.scratch.space = PTOSIM_L1;
  want_rule(ptosim_build_async_session(c, &p), "async.scratch");
  p = ok;
  p.scratch.cols = p.scratch.valid_cols = 7; /* 7 bytes */
  want_rule(ptosim_build_async_session(c, &p), "async.scratch");
  int64_t bad[][5] = {{8, 32768, 0, 1, -1}, {-1, 32768, 0, 1, -1}, {0, 0, 0, 1, -1}, {0, 32768, -1, 1, -1},
                      {0, 32768, 0, 0, -1}, {0, 32768, 0, 1, -2}, {0, 32768, 0, 1, 4294967296}};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    p = ok;
    p.sync_id = bad[i][0], p.block_bytes = bad[i][1], p.comm_block_offset = bad[i][2], p.queue_num = bad[i][3],
    p.channel_group_idx = bad[i][4];
    want_rule(ptosim_build_async_session(c, &p), "async.attr");
  }
  CHECK(s == 0x8000); /* refused builds write no session */
}

static void test_events(void) {
  fresh();
  int64_t done = -1;
  ptosim_async_event_params p = {.event = 0, .session = 0, .completed = &done};
  CHECK(ptosim_wait_async_event(c, &p) == PTOSIM_OK && done == 1); /* the empty event is complete */
  done = -1;
  p.event = PTOSIM_ASYNC_EVENT_DONE;
  p.session = 0x4000;
  CHECK(ptosim_test_async_event(c, &p) == PTOSIM_OK && done == 1);
  done = -1;
  CHECK(ptosim_comm_wait_async_event(c, &p) == PTOSIM_OK && done == 1);
  done = -1;
  CHECK(ptosim_comm_test_async_event(c, &p) == PTOSIM_OK && done == 1);
  p.session = 0;
  done = -1;
  want_rule(ptosim_wait_async_event(c, &p), "async.session");
  want_rule(ptosim_comm_test_async_event(c, &p), "async.session");
  CHECK(done == -1);
  /* tprefetch_async returns a started (complete) event */
  float buf[64] = {0};
  ptosim_arg a;
  ptosim_gm_map(m, buf, sizeof buf, &a.gm_addr);
  int64_t ev = -1;
  ptosim_tprefetch_async_params t = {
      .src = {.addr = a.gm_addr, .dtype = PTOSIM_DT_F32, .shape = {1, 1, 1, 1, 64}, .stride = {64, 64, 64, 64, 1}},
      .workspace = 0x100, .event = &ev};
  CHECK(ptosim_tprefetch_async(c, &t) == PTOSIM_OK && ev == PTOSIM_ASYNC_EVENT_DONE);
  t.event = NULL;
  CHECK(ptosim_tprefetch_async(c, &t) == PTOSIM_OK);
}

/* The pto-isa TPREFETCH_ASYNC example in PTOAS text (vpto-dev test/samples/TPrefetchAsync):
 * context, prefetch, session, wait, test; then a session built on a scratch tile. Every
 * handle and flag goes to out[] as i64. */
static const char *text_src =
    "module {\n"
    "func.func @k(%a: !pto.ptr<f32>, %ws: !pto.ptr<i8>, %o: !pto.ptr<i64>) attributes {pto.kernel} {\n"
    "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  %c2 = arith.constant 2 : index\n"
    "  %c3 = arith.constant 3 : index\n  %c4 = arith.constant 4 : index\n  %c5 = arith.constant 5 : index\n"
    "  %c6 = arith.constant 6 : index\n  %c128 = arith.constant 128 : index\n"
    "  %v = pto.make_tensor_view %a, shape = [%c128], strides = [%c1] : !pto.tensor_view<128xf32>\n"
    "  %pv = pto.partition_view %v, offsets = [%c0], sizes = [%c128] : !pto.tensor_view<128xf32>\n"
    "  %ctx = pto.make_prefetch_async_context(%ws : !pto.ptr<i8>) -> !pto.prefetch_async_context\n"
    "  %ev = pto.tprefetch_async(%pv, %ctx : !pto.partition_tensor_view<128xf32>, !pto.prefetch_async_context) -> !pto.async_event\n"
    "  %s = pto.get_prefetch_async_session %ctx : !pto.prefetch_async_context -> !pto.async_session\n"
    "  %w = pto.comm.wait_async_event(%ev, %s : !pto.async_event, !pto.async_session) -> i1\n"
    "  %t = pto.test_async_event(%ev, %s : !pto.async_event, !pto.async_session) -> i1\n"
    "  %scr = pto.alloc_tile : !pto.tile_buf<loc=vec, dtype=i8, rows=1, cols=256, v_row=1, v_col=256, blayout=row_major, slayout=none_box, fractal=512, pad=0>\n"
    "  %s2 = pto.comm.build_async_session(%scr, %ws : !pto.tile_buf<loc=vec, dtype=i8, rows=1, cols=256, v_row=1, v_col=256, blayout=row_major, slayout=none_box, fractal=512, pad=0>, !pto.ptr<i8>) {sync_id = 3 : i32, queue_num = 2 : i32} -> !pto.async_session\n"
    "  %w64 = arith.extui %w : i1 to i64\n  %t64 = arith.extui %t : i1 to i64\n"
    "  pto.store %ctx, %o[%c0] : !pto.ptr<i64>, i64\n  pto.store %ev, %o[%c1] : !pto.ptr<i64>, i64\n"
    "  pto.store %s, %o[%c2] : !pto.ptr<i64>, i64\n  pto.store %w64, %o[%c3] : !pto.ptr<i64>, i64\n"
    "  pto.store %t64, %o[%c4] : !pto.ptr<i64>, i64\n  pto.store %s2, %o[%c5] : !pto.ptr<i64>, i64\n"
    "  return\n}\n}\n";

static void test_text(void) {
  ptosim_program *p = pt_test_load(text_src, strlen(text_src));
  CHECK(p != NULL);
  if (!p) return;
  fresh();
  static float a[128];
  static int8_t ws[256];
  int64_t out[6] = {-1, -1, -1, -1, -1, -1};
  ptosim_arg args[3] = {{0}};
  ptosim_gm_map(m, a, sizeof a, &args[0].gm_addr);
  ptosim_gm_map(m, ws, sizeof ws, &args[1].gm_addr);
  ptosim_gm_map(m, out, sizeof out, &args[2].gm_addr);
  ptosim_status st = ptosim_program_run(p, m, args);
  CHECK_MSG(st == PTOSIM_OK, "%s [%s]", ptosim_last_diag(m)->msg, ptosim_last_diag(m)->rule);
  int64_t ws_addr = (int64_t)args[1].gm_addr;
  CHECK(out[0] == ws_addr && out[1] == PTOSIM_ASYNC_EVENT_DONE && out[2] == ws_addr && out[3] == 1 && out[4] == 1 &&
        out[5] == ws_addr);
  ptosim_program_free(p);
}

int main(void) {
  RUN(test_context);
  RUN(test_session);
  RUN(test_events);
  RUN(test_text);
  ptosim_machine_free(m);
  return pt_test_finish();
}
