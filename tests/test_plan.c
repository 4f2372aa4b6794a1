/* Tiles without addr that do not all fit their memory at once (src/exec/plan.c): programs
 * without sync ops whose tiles need more than the UB in total but live apart run, with the
 * results of a naive reference and the addresses of tiles live together disjoint; tiles
 * that do live together beyond the UB, or a program with sync ops, keep tile.capacity.
 * Every tile here is 48 x 256 f32 = 48 KiB; a2a3's UB (192 KiB) holds four. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/prog.h"
#include "harness.h"
#include "ptosim/monitor.h"
#include "ptosim/ptosim.h"

#define R 48
#define C 256
#define BLK (R * C)     /* elements of one tile, one GM block */
#define NBLK 10         /* GM blocks of in and out */
#define TB (BLK * 4u)   /* bytes of one tile */
#define UB_A2A3 196608u /* 4 * TB */
#define T "!pto.tile_buf<vec, 48x256xf32>"
#define TV "!pto.tensor_view<?x?xf32>"
#define PV "!pto.partition_tensor_view<48x256xf32>"

static char src[16384];
static size_t len;
static int nparts;

static void emit(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(src + len, sizeof src - len, fmt, ap);
  va_end(ap);
  CHECK(n >= 0 && (size_t)n < sizeof src - len);
  if (n > 0 && (size_t)n < sizeof src - len) len += (size_t)n;
}

/* The kernel's start: in and out as views of NBLK blocks of R x C; %o0..%o9: the first row
 * of each block; %i48: %i x 48 for a loop variable %i is made by the loop helpers. */
static void begin(void) {
  len = 0;
  nparts = 0;
  emit("func.func @k(%%in: !pto.ptr<f32>, %%out: !pto.ptr<f32>) attributes {pto.kernel} {\n"
       "  %%c0 = arith.constant 0 : index\n  %%c1 = arith.constant 1 : index\n  %%c4 = arith.constant 4 : index\n"
       "  %%c48 = arith.constant 48 : index\n  %%c256 = arith.constant 256 : index\n  %%c480 = arith.constant 480 : index\n"
       "  %%vi = pto.make_tensor_view %%in, shape = [%%c480, %%c256], strides = [%%c256, %%c1] : " TV "\n"
       "  %%vo = pto.make_tensor_view %%out, shape = [%%c480, %%c256], strides = [%%c256, %%c1] : " TV "\n");
  for (int b = 0; b < NBLK; b++) emit("  %%o%d = arith.constant %d : index\n", b, b * R);
}

static void alloc(const char *t) { emit("  %%%s = pto.alloc_tile : " T "\n", t); }

/* tload block at row `row` (an index value) of in into tile t; tstore tile t to out there. */
static void ld(const char *t, const char *row) {
  emit("  %%p%d = pto.partition_view %%vi, offsets = [%%%s, %%c0], sizes = [%%c48, %%c256] : " TV " -> " PV "\n", nparts, row);
  emit("  pto.tload ins(%%p%d : " PV ") outs(%%%s : " T ")\n", nparts++, t);
}
static void st(const char *t, const char *row) {
  emit("  %%p%d = pto.partition_view %%vo, offsets = [%%%s, %%c0], sizes = [%%c48, %%c256] : " TV " -> " PV "\n", nparts, row);
  emit("  pto.tstore ins(%%%s : " T ") outs(%%p%d : " PV ")\n", t, nparts++);
}
/* d = s <op> k (op tadds / tmuls, k a float literal); d = a + b */
static void scal(const char *op, const char *d, const char *s, double k) {
  emit("  %%k%d = arith.constant %.1f : f32\n  pto.%s ins(%%%s, %%k%d : " T ", f32) outs(%%%s : " T ")\n", nparts, k, op, s, nparts, d);
  nparts++;
}
static void add(const char *d, const char *a, const char *b) { emit("  pto.tadd ins(%%%s, %%%s : " T ", " T ") outs(%%%s : " T ")\n", a, b, d); }

static float in[NBLK * BLK], out[NBLK * BLK], want[NBLK * BLK];

/* Input element e of block b: small integers, exact in f32 through every op here. */
static float in_of(int b, int e) { return (float)((b * 7 + e) % 23); }

/* Planned allocs (PT_INS_PLANNED) of p in program order: addresses and bytes. */
static int roots(const ptosim_program *p, uint64_t *addr, uint64_t *bytes, int max) {
  int n = 0;
  for (int32_t i = 0; i < p->ncode && n < max; i++)
    if (p->code[i].code == PT_C_OBJ && (p->code[i].flags & PT_INS_PLANNED)) {
      const ptosim_tile *t = &p->objs[p->code[i].obj].tile;
      addr[n] = t->addr;
      bytes[n++] = (uint64_t)t->rows * (uint64_t)t->cols * 4u * (p->code[i].bits > 1 ? p->code[i].bits : 1u); /* bits: multi slots */
    }
  return n;
}

/* Load src on a2a3, run it with every checker (program order: the program has no sync),
 * compare out with want; check that the allocs named in `together` (pairs of indices into
 * the program's allocs in order, -1 ends) are disjoint, all lie below `limit`, and that the
 * allocs (nroots of them) needed more than the UB without reuse. */
static void run_case(const char *what, int nroots, const int *together, uint64_t limit) {
  for (int i = 0; i < NBLK * BLK; i++) in[i] = in_of(i / BLK, i % BLK);
  memset(out, 0, sizeof out);
  ptosim_program *p = pt_test_load(src, len);
  CHECK_MSG(p != NULL, "%s: does not load", what);
  if (!p) return;
  CHECK(ptosim_program_in_order(p));
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A2A3, 1);
  ptosim_monitor_opts o = ptosim_monitor_defaults();
  o.checks = PTOSIM_CHECK_ALL | PTOSIM_CHECK_INIT_READS;
  o.program_order = 1;
  ptosim_monitor *mon = ptosim_monitor_attach(m, &o);
  ptosim_arg args[2];
  memset(args, 0, sizeof args);
  ptosim_gm_map(m, in, sizeof in, &args[0].gm_addr);
  ptosim_gm_map(m, out, sizeof out, &args[1].gm_addr);
  ptosim_status st = ptosim_monitor_run(mon, p, args);
  ptosim_monitor_finish(mon);
  CHECK_MSG(st == PTOSIM_OK, "%s: %s [%s]", what, ptosim_last_diag(m)->msg, ptosim_last_diag(m)->rule);
  CHECK_MSG(ptosim_monitor_nreports(mon) == 0, "%s: %d checker findings, first [%s] %s", what, ptosim_monitor_nreports(mon),
            ptosim_monitor_nreports(mon) ? ptosim_monitor_report(mon, 0)->rule : "", ptosim_monitor_nreports(mon) ? ptosim_monitor_report(mon, 0)->msg : "");
  int bad = 0, first = -1;
  for (int i = 0; i < NBLK * BLK; i++)
    if (out[i] != want[i]) bad++, first = first < 0 ? i : first;
  CHECK_MSG(bad == 0, "%s: %d wrong elements, first [%d] = %g, want %g", what, bad, first, first < 0 ? 0 : out[first], first < 0 ? 0 : want[first]);
  uint64_t addr[16], bytes[16], sum = 0;
  int n = roots(p, addr, bytes, 16);
  CHECK_MSG(n == nroots, "%s: %d planned allocs, want %d", what, n, nroots);
  for (int i = 0; i < n; i++) {
    sum += bytes[i];
    CHECK_MSG(addr[i] + bytes[i] <= limit && addr[i] % 32 == 0, "%s: alloc %d at %llu", what, i, (unsigned long long)addr[i]);
  }
  CHECK_MSG(sum > UB_A2A3, "%s: the allocs fit without reuse (%llu bytes)", what, (unsigned long long)sum);
  for (const int *q = together; q[0] >= 0 && q[0] < n && q[1] < n; q += 2)
    CHECK_MSG(addr[q[0]] + bytes[q[0]] <= addr[q[1]] || addr[q[1]] + bytes[q[1]] <= addr[q[0]], "%s: allocs %d and %d overlap", what, q[0],
              q[1]);
  ptosim_monitor_free(mon);
  ptosim_machine_free(m);
  ptosim_program_free(p);
}

static float *blk(float *a, int b) { return a + (size_t)b * BLK; }

/* Three phases of two tiles each, all allocated first: a0 b0 a1 b1 a2 b2 (288 KiB).
 * out block k = in block k + (k + 1). */
static void test_phases(void) {
  begin();
  const char *a[] = {"a0", "a1", "a2"}, *b[] = {"b0", "b1", "b2"}, *row[] = {"o0", "o1", "o2"};
  for (int k = 0; k < 3; k++) alloc(a[k]), alloc(b[k]);
  memset(want, 0, sizeof want);
  for (int k = 0; k < 3; k++) {
    ld(a[k], row[k]);
    scal("tadds", b[k], a[k], k + 1);
    st(b[k], row[k]);
    for (int e = 0; e < BLK; e++) blk(want, k)[e] = in_of(k, e) + (float)(k + 1);
  }
  emit("  return\n}\n");
  int together[] = {0, 1, 2, 3, 4, 5, -1};
  run_case("phases", 6, together, UB_A2A3);
}

/* K = in[0] + 100 lives across the loop; the body's tiles T1, T2, E; C after it.
 *   for i in 0..4: T1 = in[1 + i]; T2 = T1 + K; out[i] = T2; E = T2 * 2; out[4 + i] = E
 *   C = in[5]; out[8] = C
 * E's first use follows K's last use in the body, but K is read again by the next
 * iteration: E must not take K's bytes (the body's tiles live for the whole loop). */
static void test_loop(void) {
  begin();
  const char *names[] = {"K", "T1", "T2", "E", "C"};
  for (int i = 0; i < 5; i++) alloc(names[i]);
  ld("K", "o0");
  scal("tadds", "K", "K", 100);
  emit("  scf.for %%i = %%c0 to %%c4 step %%c1 {\n"
       "  %%i1 = arith.addi %%i, %%c1 : index\n  %%r1 = arith.muli %%i1, %%c48 : index\n"
       "  %%r0 = arith.muli %%i, %%c48 : index\n  %%r4 = arith.addi %%r0, %%o4 : index\n");
  ld("T1", "r1");
  add("T2", "T1", "K");
  st("T2", "r0");
  scal("tmuls", "E", "T2", 2);
  st("E", "r4");
  emit("  }\n");
  ld("C", "o5");
  st("C", "o8");
  emit("  return\n}\n");
  memset(want, 0, sizeof want);
  for (int i = 0; i < 4; i++)
    for (int e = 0; e < BLK; e++) {
      float t2 = in_of(1 + i, e) + (in_of(0, e) + 100);
      blk(want, i)[e] = t2;
      blk(want, 4 + i)[e] = t2 * 2;
    }
  for (int e = 0; e < BLK; e++) blk(want, 8)[e] = in_of(5, e);
  int together[] = {0, 1, 0, 2, 0, 3, 1, 2, 1, 3, 2, 3, -1};
  run_case("loop", 5, together, UB_A2A3);
}

/* Ping-pong buffers as iter_args: X1 holds in[1] before the loop; each iteration loads
 * in[2 + i] into the other buffer and stores the sum of both, then swaps them.
 *   P = in[0]; Q = P + 1; out[0] = Q; X1 = in[1]
 *   for i in 0..4 (a = X0, b = X1): a = in[2 + i]; S = a + b; out[1 + i] = S; yield b, a
 *   C = in[6] * 3; out[5] = C */
static void test_ping_pong(void) {
  begin();
  const char *names[] = {"P", "Q", "X0", "X1", "S", "C"};
  for (int i = 0; i < 6; i++) alloc(names[i]);
  ld("P", "o0");
  scal("tadds", "Q", "P", 1);
  st("Q", "o0");
  ld("X1", "o1");
  emit("  %%last:2 = scf.for %%i = %%c0 to %%c4 step %%c1 iter_args(%%a = %%X0, %%b = %%X1) -> (" T ", " T ") {\n"
       "  %%i2 = arith.addi %%i, %%c1 : index\n  %%i3 = arith.addi %%i2, %%c1 : index\n  %%r2 = arith.muli %%i3, %%c48 : index\n"
       "  %%r1 = arith.muli %%i2, %%c48 : index\n");
  ld("a", "r2");
  add("S", "a", "b");
  st("S", "r1");
  emit("  scf.yield %%b, %%a : " T ", " T "\n  }\n");
  ld("C", "o6");
  scal("tmuls", "C", "C", 3);
  st("C", "o5");
  emit("  return\n}\n");
  memset(want, 0, sizeof want);
  for (int e = 0; e < BLK; e++) {
    blk(want, 0)[e] = in_of(0, e) + 1;
    for (int i = 0; i < 4; i++) blk(want, 1 + i)[e] = in_of(2 + i, e) + in_of(1 + i, e);
    blk(want, 5)[e] = in_of(6, e) * 3;
  }
  int together[] = {0, 1, 2, 3, 2, 4, 3, 4, -1};
  run_case("ping-pong", 6, together, UB_A2A3);
}

/* A view keeps its tile alive: R's last direct use is the subview V of its first 24 rows,
 * stored after W and O (first used later) are written.
 *   P = in[0]; Q = P * 2; out[0] = Q
 *   R = in[1]; V = R[0:24]; W = in[2]; O = W + 5; out[1] = O; out[2][0:24] = V */
static void test_alias(void) {
  begin();
  const char *names[] = {"P", "Q", "R", "W", "O"};
  for (int i = 0; i < 5; i++) alloc(names[i]);
  ld("P", "o0");
  scal("tmuls", "Q", "P", 2);
  st("Q", "o0");
  ld("R", "o1");
  emit("  %%V = pto.subview %%R[%%c0, %%c0] sizes [24, 256] : " T " -> !pto.tile_buf<vec, 24x256xf32>\n");
  ld("W", "o2");
  scal("tadds", "O", "W", 5);
  st("O", "o1");
  emit("  %%c24 = arith.constant 24 : index\n"
       "  %%h = pto.partition_view %%vo, offsets = [%%o2, %%c0], sizes = [%%c24, %%c256] : " TV
       " -> !pto.partition_tensor_view<24x256xf32>\n"
       "  pto.tstore ins(%%V : !pto.tile_buf<vec, 24x256xf32>) outs(%%h : !pto.partition_tensor_view<24x256xf32>)\n"
       "  return\n}\n");
  memset(want, 0, sizeof want);
  for (int e = 0; e < BLK; e++) {
    blk(want, 0)[e] = in_of(0, e) * 2;
    blk(want, 1)[e] = in_of(2, e) + 5;
    if (e < BLK / 2) blk(want, 2)[e] = in_of(1, e);
  }
  int together[] = {0, 1, 2, 3, 2, 4, 3, 4, -1};
  run_case("alias", 5, together, UB_A2A3);
}

/* The first error of loading src (a2a3) when it fails, in msg. */
static int load_error(const char *rule, const char *text) {
  char *diag = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&diag, &n);
  int nerr = 0;
  ptosim_program *p = ptosim_program_load("t.pto", src, len, NULL, PTOSIM_TARGET_A2A3, f, &nerr);
  fclose(f);
  int ok = !p && nerr > 0 && diag && strstr(diag, rule) && strstr(diag, text);
  CHECK_MSG(ok, "want [%s] '%s', got: %s", rule, text, diag ? diag : "");
  free(diag);
  ptosim_program_free(p);
  return ok;
}

/* Five tiles live at once (240 KiB > 192 KiB): refused at the fifth, with their sum. A sync
 * op: the program order is not the only order, the bump's error stays. A multi tile of
 * five slots never fits. */
static void test_refusals(void) {
  begin();
  const char *names[] = {"A", "B", "D", "E", "F"}, *rows[] = {"o0", "o1", "o2", "o3", "o4"};
  for (int i = 0; i < 5; i++) alloc(names[i]);
  for (int i = 0; i < 5; i++) ld(names[i], rows[i]);
  for (int i = 0; i < 5; i++) st(names[i], rows[i]);
  emit("  return\n}\n");
  load_error("[tile.capacity]", "t.pto:24:8: error: pto.alloc_tile: tiles without addr live at the same time need 245760 bytes of ub, "
                                "which has 196608 on a2a3");

  begin(); /* the phases of test_phases with a barrier between them */
  const char *a[] = {"a0", "a1", "a2"}, *b[] = {"b0", "b1", "b2"}, *row[] = {"o0", "o1", "o2"};
  for (int k = 0; k < 3; k++) alloc(a[k]), alloc(b[k]);
  for (int k = 0; k < 3; k++) {
    ld(a[k], row[k]);
    scal("tadds", b[k], a[k], 1);
    st(b[k], row[k]);
    emit("  pto.barrier #pto.pipe<PIPE_ALL>\n");
  }
  emit("  return\n}\n");
  load_error("[tile.capacity]", "t.pto:24:9: error: pto.alloc_tile: tiles without addr need 245760 bytes of ub, which has 196608 on a2a3");

  begin();
  emit("  %%m = pto.alloc_multi_tile : !pto.multi_tile_buf<vec, 48x256xf32, count=5>\n  return\n}\n");
  load_error("[tile.capacity]", "pto.alloc_multi_tile: 5 tile(s) of 49152 bytes never fit ub, which has 196608 bytes on a2a3");
}

/* A multi tile of two slots (96 KiB) between two phases of two tiles:
 *   P = in[0]; Q = P + 1; out[0] = Q
 *   M[0] = in[1]; M[1] = M[0] * 3; out[1] = M[1]; Z = in[2] + M[0]; out[2] = Z
 *   W = in[3]; out[3] = W */
static void test_multi(void) {
  begin();
  alloc("P"), alloc("Q");
  emit("  %%M = pto.alloc_multi_tile : !pto.multi_tile_buf<vec, 48x256xf32, count=2>\n");
  alloc("Z"), alloc("W");
  ld("P", "o0");
  scal("tadds", "Q", "P", 1);
  st("Q", "o0");
  emit("  %%m0 = pto.multi_tile_get %%M[%%c0] : !pto.multi_tile_buf<vec, 48x256xf32, count=2> -> " T "\n"
       "  %%m1 = pto.multi_tile_get %%M[%%c1] : !pto.multi_tile_buf<vec, 48x256xf32, count=2> -> " T "\n");
  ld("m0", "o1");
  scal("tmuls", "m1", "m0", 3);
  st("m1", "o1");
  ld("Z", "o2");
  add("Z", "Z", "m0");
  st("Z", "o2");
  ld("W", "o3");
  st("W", "o3");
  emit("  return\n}\n");
  memset(want, 0, sizeof want);
  for (int e = 0; e < BLK; e++) {
    blk(want, 0)[e] = in_of(0, e) + 1;
    blk(want, 1)[e] = in_of(1, e) * 3;
    blk(want, 2)[e] = in_of(2, e) + in_of(1, e);
    blk(want, 3)[e] = in_of(3, e);
  }
  int together[] = {0, 1, 2, 3, -1};
  run_case("multi", 5, together, UB_A2A3);
}

/* Two phases of three tiles (144 KiB each) below a reserve_buffer area at the top of the
 * UB: with 32 KiB reserved they fit under it; with 64 KiB (128 KiB left) they do not.
 *   phase k: x = in[k]; y = x + 1; z = x + y; out[k] = z */
static void reserve_phases(int kib) {
  begin();
  emit("  %%res = pto.reserve_buffer {name = \"f\", size = %d, location = #pto.address_space<vec>, auto = true} -> i32\n", kib * 1024);
  const char *names[2][3] = {{"x0", "y0", "z0"}, {"x1", "y1", "z1"}}, *row[] = {"o0", "o1"};
  for (int k = 0; k < 2; k++)
    for (int i = 0; i < 3; i++) alloc(names[k][i]);
  memset(want, 0, sizeof want);
  for (int k = 0; k < 2; k++) {
    ld(names[k][0], row[k]);
    scal("tadds", names[k][1], names[k][0], 1);
    add(names[k][2], names[k][0], names[k][1]);
    st(names[k][2], row[k]);
    for (int e = 0; e < BLK; e++) blk(want, k)[e] = 2 * in_of(k, e) + 1;
  }
  emit("  return\n}\n");
}

static void test_reserve(void) {
  reserve_phases(32);
  int together[] = {0, 1, 0, 2, 1, 2, 3, 4, 3, 5, 4, 5, -1};
  run_case("reserve", 6, together, UB_A2A3 - 32 * 1024);
  reserve_phases(64);
  load_error("[tile.capacity]", "tiles without addr live at the same time need 212992 bytes of ub"); /* 3 tiles + 64 KiB */
}

int main(void) {
  RUN(test_phases);
  RUN(test_loop);
  RUN(test_ping_pong);
  RUN(test_alias);
  RUN(test_multi);
  RUN(test_refusals);
  RUN(test_reserve);
  return pt_test_finish();
}
