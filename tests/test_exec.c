/* The .pto execution path: lowering (arith, scf, calls, sections, pto ops through their
 * binders) and the interpreter, on small programs written here, plus one diagnostic test
 * per lowering / runtime rule. */
#include <math.h>
#include <string.h>

#include "core/dtype.h"
#include "harness.h"
#include "ptosim/monitor.h"
#include "ptosim/program.h"

/* A program that must load without errors (a failed CHECK otherwise). */
static ptosim_program *load(const char *src) {
  ptosim_program *p = pt_test_load(src, strlen(src));
  CHECK_MSG(p != NULL, "the program does not load");
  return p;
}

/* Scalar control flow: out[i] for i < n gets sum_{j<=i} j*j computed with scf.for,
 * iter_args, scf.if, a call and integer wrap-around. */
static const char *scalar_src =
    "func.func private @sq(%x: i32) -> i32 {\n"
    "  %r = arith.muli %x, %x : i32\n"
    "  return %r : i32\n"
    "}\n"
    "func.func @k(%out: !pto.ptr<i32, gm>, %n: i64) attributes {pto.kernel} {\n"
    "  %c0 = arith.constant 0 : i64\n"
    "  %c1 = arith.constant 1 : i64\n"
    "  %z = arith.constant 0 : i32\n"
    "  %acc = scf.for %i = %c0 to %n step %c1 iter_args(%s = %z) -> (i32) {\n"
    "    %i32 = arith.trunci %i : i64 to i32\n"
    "    %q = func.call @sq(%i32) : (i32) -> i32\n"
    "    %s2 = arith.addi %s, %q : i32\n"
    "    %odd = arith.andi %i, %c1 : i64\n"
    "    %isodd = arith.cmpi ne, %odd, %c0 : i64\n"
    "    %v = scf.if %isodd -> (i32) {\n"
    "      %neg = arith.subi %z, %s2 : i32\n"
    "      scf.yield %neg : i32\n"
    "    } else {\n"
    "      scf.yield %s2 : i32\n"
    "    }\n"
    "    pto.store %v, %out[%i] : !pto.ptr<i32, gm>, i32\n"
    "    scf.yield %s2 : i32\n"
    "  }\n"
    "  %big = arith.constant 2147483647 : i32\n"
    "  %wrap = arith.addi %big, %big : i32\n"
    "  pto.store %wrap, %out[%n] : !pto.ptr<i32, gm>, i32\n"
    "  return\n"
    "}\n";

static void test_scalar(void) {
  ptosim_program *p = load(scalar_src);
  if (!p) return;
  CHECK(ptosim_program_nparams(p) == 2 && ptosim_program_param_kind(p, 0) == PTOSIM_PARAM_PTR);
  ptosim_machine *m = ptosim_machine_new(ptosim_program_target(p), 1);
  int32_t out[11] = {0};
  ptosim_arg args[2];
  ptosim_gm_map(m, out, sizeof out, &args[0].gm_addr);
  args[1].i = 10;
  CHECK(ptosim_program_run(p, m, args) == PTOSIM_OK);
  int32_t s = 0;
  for (int i = 0; i < 10; i++) {
    s += i * i;
    CHECK_MSG(out[i] == (i & 1 ? -s : s), "i=%d got %d", i, out[i]);
  }
  CHECK(out[10] == -2); /* 0x7fffffff * 2 wraps to -2 in i32 */
  /* Out of bounds store: n = 11 writes out[11]. */
  args[1].i = 11;
  CHECK(ptosim_program_run(p, m, args) == PTOSIM_E_FAULT);
  CHECK(!strcmp(ptosim_last_diag(m)->rule, "mem.bounds") && ptosim_last_diag(m)->loc.line == 26);
  ptosim_machine_free(m);
  ptosim_program_free(p);
}

/* A 32 x 32 x 32 f16 GEMM through the cube path, the result handed to vector core 0
 * through UB with cross-core flags, written back by MTE3. */
static const char *gemm_src =
    "module attributes {pto.target_arch = \"a5\"} {\n"
    "func.func @g(%a: !pto.ptr<f16, gm>, %b: !pto.ptr<f16, gm>, %c: !pto.ptr<f32, gm>) attributes {pto.kernel} {\n"
    "  %c0 = arith.constant 0 : i64\n"
    "  %c1 = arith.constant 1 : i64\n"
    "  %c32 = arith.constant 32 : i64\n"
    "  %c64 = arith.constant 64 : i64\n"
    "  %c128 = arith.constant 128 : i64\n"
    "  %c4096 = arith.constant 4096 : i64\n"
    "  %false = arith.constant false\n"
    "  %la = pto.castptr %c0 : i64 -> !pto.ptr<f16, l1>\n"
    "  %lb = pto.castptr %c4096 : i64 -> !pto.ptr<f16, l1>\n"
    "  %l0a = pto.castptr %c0 : i64 -> !pto.ptr<f16, l0a>\n"
    "  %l0b = pto.castptr %c0 : i64 -> !pto.ptr<f16, l0b>\n"
    "  %l0c = pto.castptr %c0 : i64 -> !pto.ptr<f32, l0c>\n"
    "  %ub = pto.castptr %c0 : i64 -> !pto.ptr<f32, ub>\n"
    "  pto.section.cube {\n"
    "    pto.mte_gm_l1_frac %a, %la, nd2nz, shape(%c32, %c32), src_layout(%c64),\n"
    "        dst_group(%c1, %c1, %c32, %c0), ctrl(%c0, %false)\n"
    "      : !pto.ptr<f16, gm>, !pto.ptr<f16, l1>\n"
    "    pto.mte_gm_l1_frac %b, %lb, nd2nz, shape(%c32, %c32), src_layout(%c64),\n"
    "        dst_group(%c1, %c1, %c32, %c0), ctrl(%c0, %false)\n"
    "      : !pto.ptr<f16, gm>, !pto.ptr<f16, l1>\n"
    "    pto.set_flag[\"PIPE_MTE2\", \"PIPE_MTE1\", \"EVENT_ID0\"]\n"
    "    pto.wait_flag[\"PIPE_MTE2\", \"PIPE_MTE1\", \"EVENT_ID0\"]\n"
    "    pto.mte_l1_l0a %la, %l0a, %c32, %c32, %c0, %c0 : !pto.ptr<f16, l1>, !pto.ptr<f16, l0a>, i64, i64, i64, i64\n"
    "    pto.mte_l1_l0b %lb, %l0b, %c32, %c32, %c0, %c0 {transpose = true} : !pto.ptr<f16, l1>, !pto.ptr<f16, l0b>, i64, i64, i64, i64\n"
    "    pto.mad %l0a, %l0b, %l0c, %c32, %c32, %c32 : !pto.ptr<f16, l0a>, !pto.ptr<f16, l0b>, !pto.ptr<f32, l0c>, i64, i64, i64\n"
    "    pto.mte_l0c_ub %l0c, %ub, %c32, %c32, %c32, %c32, dst_mode(%c0), nz2nd : !pto.ptr<f32, l0c>, !pto.ptr<f32, ub>\n"
    "    pto.sync.set <PIPE_FIX>, 3\n"
    "  }\n"
    "  pto.section.vector {\n"
    "    %sb = pto.get_subblock_idx\n"
    "    %is0 = arith.cmpi eq, %sb, %c0 : i64\n"
    "    scf.if %is0 {\n"
    "      pto.sync.wait <PIPE_MTE3>, 3\n"
    "      pto.mte_ub_gm %ub, %c, %c128 nburst(%c32, %c128, %c128) : !pto.ptr<f32, ub>, !pto.ptr<f32, gm>, i64, i64, i64, i64\n"
    "    }\n"
    "  }\n"
    "  return\n"
    "}\n"
    "}\n";

static float h2f(uint16_t h) {
  int e = (h >> 10) & 31, f = h & 1023;
  float v = e ? ldexpf((float)(f | 1024), e - 25) : ldexpf((float)f, -24);
  return h & 0x8000 ? -v : v;
}

static void test_gemm_sections(void) {
  ptosim_program *p = load(gemm_src);
  if (!p) return;
  uint16_t a[32 * 32], b[32 * 32];
  float c[32 * 32];
  unsigned long long s = 7;
  for (int i = 0; i < 32 * 32; i++) {
    a[i] = (uint16_t)(0x3800 + (pt_rand_u64(&s) & 0x3ff)); /* [0.5, 1) */
    b[i] = (uint16_t)(0xb800 + (pt_rand_u64(&s) & 0x3ff)); /* (-1, -0.5] */
  }
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 2);
  ptosim_arg args[3];
  ptosim_gm_map(m, a, sizeof a, &args[0].gm_addr);
  ptosim_gm_map(m, b, sizeof b, &args[1].gm_addr);
  ptosim_gm_map(m, c, sizeof c, &args[2].gm_addr);
  CHECK(ptosim_program_run(p, m, args) == PTOSIM_OK);
  int bad = 0;
  for (int i = 0; i < 32; i++)
    for (int j = 0; j < 32; j++) {
      float acc = 0;
      for (int k = 0; k < 32; k++) acc = fmaf(h2f(a[i * 32 + k]), h2f(b[k * 32 + j]), acc);
      bad += memcmp(&acc, &c[i * 32 + j], 4) != 0;
    }
  CHECK_MSG(bad == 0, "%d mismatches", bad);
  ptosim_machine_free(m);
  ptosim_program_free(p);
}

/* Each lowering diagnostic: source, expected rule, expected line. */
static void expect_load_error(const char *src, const char *rule, int line) {
  char buf[8192] = "";
  FILE *f = fmemopen(buf, sizeof buf - 1, "w");
  int nerr = 0;
  ptosim_program *p = ptosim_program_load("e.pto", src, strlen(src), NULL, -1, f, &nerr);
  fclose(f);
  char want[64];
  snprintf(want, sizeof want, "e.pto:%d:", line);
  CHECK_MSG(!p && nerr > 0 && strstr(buf, rule) && strstr(buf, want), "expected %s at line %d, got:\n%s", rule, line, buf);
  ptosim_program_free(p);
}

static void test_diagnostics(void) {
  expect_load_error("func.func @k() {\n  %a = arith.addi %x, %x : i64\n  return\n}\n", "[ir.undefined_value]", 2);
  expect_load_error("func.func @k() {\n  pto.vmi.vcadd\n  return\n}\n", "[op.unsupported]", 2);
  expect_load_error("func.func @k() {\n  foo.bar\n  return\n}\n", "[ir.unknown_op]", 2);
  expect_load_error("func.func @k(%p: !pto.ptr<f16, gm>) {\n  pto.mte_ub_gm %p\n  return\n}\n", "[bind.arity]", 2);
  expect_load_error("func.func @k(%p: !pto.ptr<f16, ub>, %q: !pto.ptr<f16, gm>, %n: i64) {\n"
                    "  pto.mte_ub_gm %p, %q, %n nburst(%n, %n)\n  return\n}\n",
                    "[bind.clause]", 2);
  expect_load_error("func.func @k(%p: !pto.ptr<f16, ub>, %q: i64, %n: i64) {\n"
                    "  pto.mte_ub_gm %p, %q, %n nburst(%n, %n, %n)\n  return\n}\n",
                    "[bind.type]", 2);
  expect_load_error("func.func @a() {\n  return\n}\nfunc.func @b() {\n  return\n}\n", "[run.entry]", 1);
  expect_load_error("func.func @k() {\n  func.call @nope() : () -> ()\n  return\n}\n", "[ir.call]", 2);
  expect_load_error("func.func @k() {\n  %a = arith.constant 1 : i64\n  %b = arith.cmpi bogus, %a, %a : i64\n  return\n}\n",
                    "[ir.predicate]", 3);
  expect_load_error("func.func @k(%p: !pto.ptr<f32, l0c>, %q: !pto.ptr<f32, gm>, %n: i64) {\n"
                    "  pto.mte_l0c_gm %p, %q, %n, %n, %n, %n, %n, %n, unit_flag(maybe)\n  return\n}\n",
                    "[bind.keyword]", 2);
  expect_load_error("func.func @k(%p: !pto.ptr<f16, ub>, %q: !pto.ptr<f16, gm>, %n: i64) {\n"
                    "  pto.mte_ub_gm %p, %q, %n nburst(%n, %n, %n) loop(%n, %n, \"x\")\n  return\n}\n",
                    "[bind.operand]", 2);
  expect_load_error("func.func @k() {\n  %a:2 = arith.constant 1 : i64\n  %b = arith.addi %a#5, %a#5 : i64\n  return\n}\n",
                    "[ir.result_index]", 3);
  expect_load_error("func.func @k(%c: i1) {\n  %a = arith.constant 1 : i64\n  %r = scf.if %c -> (i64) {\n"
                    "    scf.yield %a, %a : i64, i64\n  } else {\n    scf.yield %a : i64\n  }\n  return\n}\n",
                    "[ir.yield]", 4);
  expect_load_error("func.func private @f() -> i64 {\n  return\n}\nfunc.func @k() attributes {pto.kernel} {\n"
                    "  %r = func.call @f() : () -> i64\n  return\n}\n",
                    "[ir.return]", 2);
  expect_load_error("func.func private @f() {\n  func.call @f() : () -> ()\n  return\n}\nfunc.func @k() attributes {pto.kernel} {\n"
                    "  func.call @f() : () -> ()\n  return\n}\n",
                    "[ir.recursion]", 2);
  expect_load_error("func.func @k() {\n  %a = arith.constant 1 : i64\n  %p = pto.castptr %a : i64 -> i64\n  return\n}\n",
                    "[ir.type]", 3);
  expect_load_error("func.func @k() {\n  scf.for {\n  }\n  return\n}\n", "[ir.syntax]", 2);
  expect_load_error("func.func @k() {\n  pto.set_flagg[\"PIPE_V\", \"PIPE_MTE3\", \"EVENT_ID0\"]\n  return\n}\n",
                    "did you mean 'pto.set_flag'?", 2);
  expect_load_error("func.func @k() {\n  pto.vmi.vcadd %x\n  return\n}\n", "[op.unsupported]", 2);
  /* Parse errors come through the same channel. */
  expect_load_error("func.func @k( {\n", "[parse.", 2);
}

/* Run p with the host buffers bufs[i] (bytes[i] long) mapped as its n pointer arguments. */
static ptosim_status run_mapped(const ptosim_program *p, void *const *bufs, const size_t *bytes, int n) {
  ptosim_machine *m = ptosim_machine_new(ptosim_program_target(p), 1);
  ptosim_arg args[4];
  for (int i = 0; i < n && i < 4; i++) ptosim_gm_map(m, bufs[i], bytes[i], &args[i].gm_addr);
  ptosim_status st = ptosim_program_run(p, m, args);
  ptosim_machine_free(m);
  return st;
}

/* scf.while with two results: %w#1 is the second value scf.condition passes when it leaves
 * the loop (x = 3, so 3 * 3), not a slot of the do region's arguments (6 of the last turn). */
static void test_while_results(void) {
  const char *src = "func.func @k(%out: !pto.ptr<i64, gm>) attributes {pto.kernel} {\n"
                    "  %c0 = arith.constant 0 : i64\n"
                    "  %c1 = arith.constant 1 : i64\n"
                    "  %c3 = arith.constant 3 : i64\n"
                    "  %w:2 = scf.while (%x = %c0) : (i64) -> (i64, i64) {\n"
                    "    %t = arith.cmpi slt, %x, %c3 : i64\n"
                    "    %x3 = arith.muli %x, %c3 : i64\n"
                    "    scf.condition(%t) %x, %x3 : i64, i64\n"
                    "  } do {\n"
                    "  ^bb0(%y: i64, %z: i64):\n"
                    "    %y1 = arith.addi %y, %c1 : i64\n"
                    "    scf.yield %y1 : i64\n"
                    "  }\n"
                    "  pto.store %w#0, %out[%c0] : !pto.ptr<i64, gm>, i64\n"
                    "  pto.store %w#1, %out[%c1] : !pto.ptr<i64, gm>, i64\n"
                    "  return\n"
                    "}\n";
  ptosim_program *p = load(src);
  if (!p) return;
  int64_t out[2] = {-1, -1};
  CHECK(run_mapped(p, (void *[]){out}, (size_t[]){sizeof out}, 1) == PTOSIM_OK);
  CHECK_MSG(out[0] == 3 && out[1] == 9, "got %lld %lld", (long long)out[0], (long long)out[1]);
  ptosim_program_free(p);
}

/* Pointer element types: !pto.hif8 is ptosim's hif8 (a GM -> UB -> GM byte copy keeps
 * every byte); the storage types f64, the packed pairs and vector<2xT> have their element
 * sizes E: castptr, addptr (offset in elements), DMA and a vlds / vsts of 256 / E lanes move
 * every byte to where E says. */
static void test_pointer_dtypes(void) {
  const char *src =
      "module attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {\n"
      "func.func @k(%a: !pto.ptr<!pto.hif8, gm>, %b: !pto.ptr<!pto.hif8, gm>) attributes {pto.kernel} {\n"
      "  %u = pto.castptr 0 : i64 -> !pto.ptr<!pto.hif8, ub>\n"
      "  pto.mte_gm_ub %a, %u, 0, 64 nburst(1, 64, 64) : !pto.ptr<!pto.hif8, gm>, !pto.ptr<!pto.hif8, ub>\n"
      "  pto.set_flag[\"PIPE_MTE2\", \"PIPE_MTE3\", \"EVENT_ID0\"]\n"
      "  pto.wait_flag[\"PIPE_MTE2\", \"PIPE_MTE3\", \"EVENT_ID0\"]\n"
      "  pto.mte_ub_gm %u, %b, 64 nburst(1, 64, 64) : !pto.ptr<!pto.hif8, ub>, !pto.ptr<!pto.hif8, gm>\n"
      "  return\n"
      "}\n"
      "}\n";
  ptosim_program *p = load(src);
  if (!p) return;
  CHECK(ptosim_program_param_dtype(p, 0) == PTOSIM_DT_HIF8 && ptosim_program_param_dtype(p, 1) == PTOSIM_DT_HIF8);
  uint8_t in[64], out[64];
  for (int i = 0; i < 64; i++) in[i] = (uint8_t)(i * 37 + 5), out[i] = 0;
  CHECK(run_mapped(p, (void *[]){in, out}, (size_t[]){sizeof in, sizeof out}, 2) == PTOSIM_OK);
  CHECK(!memcmp(in, out, sizeof in));
  ptosim_program_free(p);
  /* storage types: b = a + 64 bytes, through UB at 512 bytes (addptr of 512 / E elements) */
  static const struct {
    const char *t, *mask;
    ptosim_dtype dt;
    unsigned e;
  } st[] = {{"f64", "b32", PTOSIM_DT_F64, 8},          {"!pto.f4E1M2x2", "b8", PTOSIM_DT_F4E1M2X2, 1},
            {"!pto.f4E2M1x2", "b8", PTOSIM_DT_F4E2M1X2, 1}, {"!pto.hif8x2", "b16", PTOSIM_DT_HIF8X2, 2},
            {"!pto.bf16x2", "b32", PTOSIM_DT_BF16X2, 4},   {"vector<2xf16>", "b32", PTOSIM_DT_F16V2, 4},
            {"vector<2xbf16>", "b32", PTOSIM_DT_BF16V2, 4}};
  for (size_t k = 0; k < sizeof st / sizeof st[0]; k++) {
    char prog[4096];
    const char *t = st[k].t;
    snprintf(prog, sizeof prog,
             "module attributes {pto.target_arch = \"a5\", pto.kernel_kind = #pto.kernel_kind<vector>} {\n"
             "func.func @k(%%a: !pto.ptr<%s, gm>, %%b: !pto.ptr<%s, gm>) attributes {pto.kernel} {\n"
             "  %%c0 = arith.constant 0 : index\n"
             "  %%skip = arith.constant %u : i64\n"
             "  %%far = arith.constant %u : i64\n"
             "  %%u = pto.castptr 0 : i64 -> !pto.ptr<%s, ub>\n"
             "  %%u2 = pto.addptr %%u, %%far : !pto.ptr<%s, ub> -> !pto.ptr<%s, ub>\n"
             "  %%b2 = pto.addptr %%b, %%skip : !pto.ptr<%s, gm> -> !pto.ptr<%s, gm>\n"
             "  pto.mte_gm_ub %%a, %%u, 0, 256 nburst(1, 256, 256) : !pto.ptr<%s, gm>, !pto.ptr<%s, ub>\n"
             "  pto.set_flag[\"PIPE_MTE2\", \"PIPE_V\", \"EVENT_ID0\"]\n"
             "  pto.wait_flag[\"PIPE_MTE2\", \"PIPE_V\", \"EVENT_ID0\"]\n"
             "  pto.vecscope {\n"
             "    %%m = pto.pset_%s \"PAT_ALL\" : !pto.mask<%s>\n"
             "    %%v = pto.vlds %%u[%%c0] : !pto.ptr<%s, ub> -> !pto.vreg<%ux%s>\n"
             "    pto.vsts %%v, %%u2[%%c0], %%m : !pto.vreg<%ux%s>, !pto.ptr<%s, ub>, !pto.mask<%s>\n"
             "  }\n"
             "  pto.set_flag[\"PIPE_V\", \"PIPE_MTE3\", \"EVENT_ID0\"]\n"
             "  pto.wait_flag[\"PIPE_V\", \"PIPE_MTE3\", \"EVENT_ID0\"]\n"
             "  pto.mte_ub_gm %%u2, %%b2, 256 nburst(1, 256, 256) : !pto.ptr<%s, ub>, !pto.ptr<%s, gm>\n"
             "  return\n"
             "}\n"
             "}\n",
             t, t, 64 / st[k].e, 512 / st[k].e, t, t, t, t, t, t, t, st[k].mask, st[k].mask, t, 256 / st[k].e, t,
             256 / st[k].e, t, t, st[k].mask, t, t);
    p = load(prog);
    if (!p) continue;
    CHECK_MSG(ptosim_program_param_dtype(p, 0) == st[k].dt && pt_dtype_size(st[k].dt) == st[k].e, "%s", t);
    uint8_t a[256], b[320] = {0}, want[320] = {0};
    for (int i = 0; i < 256; i++) a[i] = (uint8_t)(i * 41 + 7 + (int)k), want[64 + i] = a[i];
    CHECK_MSG(run_mapped(p, (void *[]){a, b}, (size_t[]){sizeof a, sizeof b}, 2) == PTOSIM_OK, "%s", t);
    CHECK_MSG(!memcmp(b, want, sizeof b), "%s: bytes moved wrongly", t);
    ptosim_program_free(p);
  }
}

/* llvm.bitcast (as arith.bitcast) reinterprets the bits of a scalar: f32 <-> i32, f16 <-> i16
 * and f16 -> bf16 (1.5 = 0x3E00 is 0.125 as bf16). A width change is an ir.type error
 * (tests/err/ir.type-bitcast.pto). */
static void test_llvm_bitcast(void) {
  const char *src =
      "func.func @k(%out: !pto.ptr<i32, gm>) attributes {pto.kernel} {\n"
      "  %c0 = arith.constant 0 : i64\n"
      "  %c1 = arith.constant 1 : i64\n"
      "  %c2 = arith.constant 2 : i64\n"
      "  %c3 = arith.constant 3 : i64\n"
      "  %f = arith.constant 1.5 : f32\n"
      "  %fi = llvm.bitcast %f : f32 to i32\n"
      "  pto.store %fi, %out[%c0] : !pto.ptr<i32, gm>, i32\n"
      "  %h = arith.constant -1.5 : f16\n"
      "  %hi = llvm.bitcast %h : f16 to i16\n"
      "  %hw = arith.extui %hi : i16 to i32\n"
      "  pto.store %hw, %out[%c1] : !pto.ptr<i32, gm>, i32\n"
      "  %p = arith.constant 1.5 : f16\n"
      "  %b = llvm.bitcast %p : f16 to bf16\n"
      "  %bf = arith.extf %b : bf16 to f32\n"
      "  %bi = llvm.bitcast %bf : f32 to i32\n"
      "  pto.store %bi, %out[%c2] : !pto.ptr<i32, gm>, i32\n"
      "  %n = arith.constant 1078530011 : i32\n"
      "  %nf = llvm.bitcast %n : i32 to f32\n"
      "  %nd = arith.mulf %nf, %nf : f32\n"
      "  %ni = llvm.bitcast %nd : f32 to i32\n"
      "  pto.store %ni, %out[%c3] : !pto.ptr<i32, gm>, i32\n"
      "  return\n"
      "}\n";
  ptosim_program *p = load(src);
  if (!p) return;
  int32_t out[4] = {0};
  CHECK(run_mapped(p, (void *[]){out}, (size_t[]){sizeof out}, 1) == PTOSIM_OK);
  float pi = 3.14159274f, sq = pi * pi; /* 1078530011 = 0x40490FDB, the f32 nearest pi */
  int32_t sqi;
  memcpy(&sqi, &sq, 4);
  CHECK_MSG(out[0] == 0x3FC00000 && out[1] == 0xBE00 && out[2] == 0x3E000000 && out[3] == sqi,
            "got %x %x %x %x", out[0], out[1], out[2], out[3]);
  ptosim_program_free(p);
}

/* pto.ld_dev / pto.st_dev are pto.load / pto.store of GM (no data cache to bypass in ptosim);
 * pto.dcci and pto.dsb have no effect: out[k] = in[7 - k] for the i16 words k < 4 (element
 * offsets), out[4..7] untouched. */
static void test_dev_access(void) {
  const char *src =
      "func.func @k(%in: !pto.ptr<i16, gm>, %out: !pto.ptr<i16, gm>) attributes {pto.kernel} {\n"
      "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  %c4 = arith.constant 4 : index\n"
      "  %c7 = arith.constant 7 : index\n"
      "  scf.for %k = %c0 to %c4 step %c1 {\n"
      "    %j = arith.subi %c7, %k : index\n"
      "    %v = pto.ld_dev %in[%j] : !pto.ptr<i16, gm> -> i16\n"
      "    pto.st_dev %v, %out[%k] : !pto.ptr<i16, gm>, i16\n"
      "  }\n"
      "  pto.dcci %out \"ENTIRE_DATA_CACHE\", \"CACHELINE_OUT\" : !pto.ptr<i16, gm>\n"
      "  pto.dsb \"ALL\"\n"
      "  return\n"
      "}\n";
  ptosim_program *p = load(src);
  if (!p) return;
  int16_t in[8], out[8];
  for (int i = 0; i < 8; i++) in[i] = (int16_t)(-1000 * i - 3), out[i] = 77;
  CHECK(run_mapped(p, (void *[]){in, out}, (size_t[]){sizeof in, sizeof out}, 2) == PTOSIM_OK);
  int bad = 0;
  for (int k = 0; k < 8; k++) bad += out[k] != (k < 4 ? in[7 - k] : 77);
  CHECK(bad == 0);
  ptosim_program_free(p);
}

/* A private declaration in one nested module resolves to the definition in another (as
 * PTOAS links its emitc and vpto modules), and castptr's three forms: integer -> pointer,
 * pointer -> integer (the address) and pointer -> pointer of another element type. */
static void test_linked_call_and_castptr(void) {
  const char *src =
      "module attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {\n"
      "module {\n"
      "  func.func private @copy(%a: !pto.ptr<f32, gm>, %b: !pto.ptr<f32, gm>)\n"
      "  func.func @k(%a: !pto.ptr<f32, gm>, %b: !pto.ptr<f32, gm>) attributes {pto.kernel} {\n"
      "    func.call @copy(%a, %b) : (!pto.ptr<f32, gm>, !pto.ptr<f32, gm>) -> ()\n"
      "    return\n"
      "  }\n"
      "}\n"
      "module {\n"
      "  func.func public @copy(%a: !pto.ptr<f32, gm>, %b: !pto.ptr<f32, gm>) {\n"
      "    %ai = pto.castptr %a : !pto.ptr<f32, gm> -> i64\n"
      "    %c4 = arith.constant 4 : i64\n"
      "    %ai4 = arith.addi %ai, %c4 : i64\n"
      "    %a4 = pto.castptr %ai4 : i64 -> !pto.ptr<ui32, gm>\n"
      "    %b32 = pto.castptr %b : !pto.ptr<f32, gm> -> !pto.ptr<ui32, gm>\n"
      "    %u = pto.castptr 0 : i64 -> !pto.ptr<ui32, ub>\n"
      "    pto.mte_gm_ub %a4, %u, 0, 32 nburst(1, 32, 32) : !pto.ptr<ui32, gm>, !pto.ptr<ui32, ub>\n"
      "    pto.set_flag[\"PIPE_MTE2\", \"PIPE_MTE3\", \"EVENT_ID0\"]\n"
      "    pto.wait_flag[\"PIPE_MTE2\", \"PIPE_MTE3\", \"EVENT_ID0\"]\n"
      "    pto.mte_ub_gm %u, %b32, 32 nburst(1, 32, 32) : !pto.ptr<ui32, ub>, !pto.ptr<ui32, gm>\n"
      "    return\n"
      "  }\n"
      "}\n"
      "}\n";
  ptosim_program *p = load(src);
  if (!p) return;
  float in[16], out[8] = {0};
  for (int i = 0; i < 16; i++) in[i] = (float)i * 1.5f - 3.0f;
  CHECK(run_mapped(p, (void *[]){in, out}, (size_t[]){sizeof in, sizeof out}, 2) == PTOSIM_OK);
  CHECK(!memcmp(in + 1, out, sizeof out)); /* the copy starts 4 bytes (one f32) into a */
  ptosim_program_free(p);
}

/* check verifies functions of any arity: one of 300 arguments is reported, not read past
 * the lowering's argument array. */
static void test_many_arguments(void) {
  char src[8192];
  int n = snprintf(src, sizeof src, "func.func @k(");
  for (int i = 0; i < 300; i++) n += snprintf(src + n, sizeof src - (size_t)n, "%s%%a%d: i64", i ? ", " : "", i);
  snprintf(src + n, sizeof src - (size_t)n, ") {\n  return\n}\n");
  char *out = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&out, &len);
  int nerr = ptosim_program_check("m.pto", src, strlen(src), -1, f, NULL);
  fclose(f);
  CHECK_MSG(nerr == 1 && strstr(out, "m.pto:1:1: error: more than 256 function arguments [ir.limit]"), "got %d:\n%s", nerr, out);
  free(out);
}

static void expect_run_error(const char *src, const char *rule, ptosim_status want) {
  ptosim_program *p = load(src);
  if (!p) return;
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  ptosim_arg args[1] = {{0}};
  CHECK(ptosim_program_run(p, m, args) == want);
  CHECK_MSG(!strcmp(ptosim_last_diag(m)->rule, rule), "got %s", ptosim_last_diag(m)->rule);
  ptosim_machine_free(m);
  ptosim_program_free(p);
}

static void test_runtime_errors(void) {
  /* The vector core waits for a flag nobody sets: a deadlock report, never a hang. */
  expect_run_error("func.func @k() {\n  pto.section.vector {\n    pto.sync.wait <PIPE_V>, 2\n  }\n"
                   "  pto.section.cube {\n    pto.sync.set <PIPE_FIX>, 5\n  }\n  return\n}\n",
                   "sync.deadlock", PTOSIM_E_FAULT);
  expect_run_error("func.func @k() {\n  pto.section.cube {\n    pto.sync.set <PIPE_FIX>, 40\n  }\n"
                   "  pto.section.vector {\n  }\n  return\n}\n",
                   "sync.flag_range", PTOSIM_E_VERIFY);
  expect_run_error("func.func @k() {\n  %a = arith.constant 1 : i64\n  %z = arith.constant 0 : i64\n"
                   "  %d = arith.divsi %a, %z : i64\n  return\n}\n",
                   "run.div_zero", PTOSIM_E_FAULT);
}

/* Loops that would never end are stopped: the step limit, an interrupt (here from the
 * progress callback, as a signal handler would), a step that is not positive; a loop whose
 * induction variable would pass INT64_MAX ends instead of wrapping. */
static void interrupt_cb(void *user, uint64_t ops) {
  (void)ops;
  ptosim_machine_interrupt(user);
}

static ptosim_status run_loop(const char *src, uint64_t max_steps, int interrupt, int64_t arg, const char **rule) {
  ptosim_program *p = load(src);
  ptosim_machine *m = ptosim_machine_new(PTOSIM_TARGET_A5, 1);
  ptosim_machine_set_limits(m, max_steps, interrupt ? interrupt_cb : NULL, m);
  ptosim_arg a = {.i = arg};
  ptosim_status st = p ? ptosim_program_run(p, m, &a) : PTOSIM_E_USAGE;
  static char r[64];
  snprintf(r, sizeof r, "%s", ptosim_last_diag(m)->rule);
  *rule = r;
  ptosim_machine_free(m);
  ptosim_program_free(p);
  return st;
}

static void test_loop_limits(void) {
  const char *forever = "func.func @k(%x: i64) {\n  %t = arith.constant true\n"
                        "  scf.while : () -> () {\n    scf.condition(%t)\n  } do {\n    scf.yield\n  }\n  return\n}\n";
  const char *steps = "func.func @k(%s: i64) {\n  %lo = arith.constant 9223372036854775800 : i64\n"
                      "  %hi = arith.constant 9223372036854775807 : i64\n"
                      "  scf.for %i = %lo to %hi step %s {\n  }\n  return\n}\n";
  const char *rule;
  CHECK(run_loop(forever, 1000, 0, 0, &rule) == PTOSIM_E_FAULT && !strcmp(rule, "run.max_steps"));
  CHECK(run_loop(forever, 0, 1, 0, &rule) == PTOSIM_E_FAULT && !strcmp(rule, "run.interrupted"));
  CHECK(run_loop(steps, 1000, 0, 0, &rule) == PTOSIM_E_FAULT && !strcmp(rule, "run.for_step"));
  CHECK(run_loop(steps, 1000, 0, -3, &rule) == PTOSIM_E_FAULT && !strcmp(rule, "run.for_step"));
  CHECK(run_loop(steps, 1000, 0, 5, &rule) == PTOSIM_OK);          /* 9223372036854775800, ...805: no wrap */
  CHECK(run_loop(steps, 1, 0, 5, &rule) == PTOSIM_OK);             /* one back-edge is within a limit of 1 */
  CHECK(run_loop(steps, 1, 0, 1, &rule) == PTOSIM_E_FAULT && !strcmp(rule, "run.max_steps"));
}

/* PTOAS front-end forms: trailing source locations (`loc("name")`, `loc(fused[...])`, after an
 * op and after a region's '}') are dropped; builtin.unrealized_conversion_cast between
 * integers of one width keeps the bits; pto.ptrtoint / pto.inttoptr give a pointer's byte
 * address and a pointer of any element type at an address. Reference: the same stores
 * written out by hand on host memory. */
static void test_front_end_forms(void) {
  const char *src =
      "func.func @k(%out: !pto.ptr<ui32, gm>, %o64: !pto.ptr<i64, gm>) attributes {pto.kernel} {\n"
      "  %c0 = arith.constant 0 : index loc(\"zero\")\n"
      "  %c1 = arith.constant 1 : index\n"
      "  %m1 = arith.constant -1 : i32 loc(fused[\"a\", \"b)\"])\n"
      "  %u = builtin.unrealized_conversion_cast %m1 : i32 to ui32 loc(\"u\")\n"
      "  %a = pto.ptrtoint %out : !pto.ptr<ui32, gm> -> i64\n"
      "  %c4 = arith.constant 4 : i64\n"
      "  %a4 = arith.addi %a, %c4 : i64\n"
      "  %p4 = pto.inttoptr %a4 : i64 -> !pto.ptr<ui32, gm>\n"
      "  pto.store_scalar %u, %p4[%c0] : !pto.ptr<ui32, gm>, ui32\n"
      "  %lu = pto.load_scalar %p4[%c0] : !pto.ptr<ui32, gm> -> ui32\n"
      "  %l64 = arith.extui %lu : ui32 to i64\n"
      "  pto.store_scalar %l64, %o64[%c1] : !pto.ptr<i64, gm>, i64\n"
      "  %p16 = pto.inttoptr %a : i64 -> !pto.ptr<ui16, gm>\n"
      "  %h = arith.constant -2 : i16\n"
      "  %hu = builtin.unrealized_conversion_cast %h : i16 to ui16\n"
      "  pto.store_scalar %hu, %p16[%c1] : !pto.ptr<ui16, gm>, ui16\n"
      "  %t = arith.constant true\n"
      "  %r = scf.if %t -> (i64) {\n"
      "    scf.yield %a4 : i64\n"
      "  } else {\n"
      "    scf.yield %a : i64\n"
      "  } loc(fused[\"x\", \"y\"])\n"
      "  %d = arith.subi %r, %a : i64\n"
      "  pto.store_scalar %d, %o64[%c0] : !pto.ptr<i64, gm>, i64\n"
      "  return\n"
      "}\n";
  ptosim_program *p = load(src);
  if (!p) return;
  uint32_t out[2] = {0x1234, 0};
  int64_t o64[2] = {0};
  CHECK(run_mapped(p, (void *[]){out, o64}, (size_t[]){sizeof out, sizeof o64}, 2) == PTOSIM_OK);
  /* out[1] = (uint32_t)-1; bytes 2..3 of out[0] = (uint16_t)-2, bytes 0..1 untouched */
  CHECK_MSG(out[0] == (0xFFFEu << 16 | 0x1234u) && out[1] == 0xFFFFFFFFu, "got %08x %08x", out[0], out[1]);
  CHECK_MSG(o64[0] == 4 && o64[1] == 0xFFFFFFFFll, "got %lld %lld", (long long)o64[0], (long long)o64[1]);
  ptosim_program_free(p);
  /* a function named loc is a name, not a location: @loc(...) stays a call */
  const char *named =
      "func.func private @loc(%o: !pto.ptr<i64, gm>) {\n  %c0 = arith.constant 0 : index\n  %v = arith.constant 7 : i64\n"
      "  pto.store_scalar %v, %o[%c0] : !pto.ptr<i64, gm>, i64\n  return\n}\n"
      "func.func @k(%o: !pto.ptr<i64, gm>) attributes {pto.kernel} {\n"
      "  func.call @loc(%o) : (!pto.ptr<i64, gm>) -> () loc(\"call\")\n  return\n}\n";
  if ((p = load(named))) {
    int64_t seven = 0;
    CHECK(run_mapped(p, (void *[]){&seven}, (size_t[]){sizeof seven}, 1) == PTOSIM_OK);
    CHECK_MSG(seven == 7, "got %lld", (long long)seven);
    ptosim_program_free(p);
  }
  expect_load_error("func.func @k(%x: i32) {\n  %f = builtin.unrealized_conversion_cast %x : i32 to f32\n  return\n}\n",
                    "[op.unsupported]", 2);
  expect_load_error("func.func @k(%x: i32) {\n  %p = pto.inttoptr %x : i32 -> !pto.ptr<ui32, gm>\n  return\n}\n",
                    "[ir.type]", 2);
  expect_load_error("func.func @k(%x: i64) {\n  %p = pto.inttoptr %x : i64 -> !pto.ptr<index, gm>\n  return\n}\n",
                    "[ir.type]", 2);
  expect_load_error("func.func @k(%x: i64) {\n  %p = pto.ptrtoint %x : i64 -> i64\n  return\n}\n", "[ir.type]", 2);
}

/* Local and event-id arrays: an 8 x 8 f32 array filled in a loop (m[i][j] = 8i + j) and read
 * back transposed, a get that keeps its value after a later set of the same element (issue
 * 713's snapshot), an event-id array; reference: the same sums computed here. An index past
 * its dimension (in range of the flattened array) is a run-time fault. */
static void test_local_arrays(void) {
  const char *src =
      "func.func @k(%out: !pto.ptr<f32, gm>, %o32: !pto.ptr<i32, gm>, %row: index) attributes {pto.kernel} {\n"
      "  %c0 = arith.constant 0 : index\n"
      "  %c1 = arith.constant 1 : index\n"
      "  %c2 = arith.constant 2 : index\n"
      "  %c8 = arith.constant 8 : index\n"
      "  %m = pto.declare_local_array -> !pto.local_array<8x8xf32>\n"
      "  scf.for %i = %c0 to %c8 step %c1 {\n"
      "    scf.for %j = %c0 to %c8 step %c1 {\n"
      "      %i8 = arith.muli %i, %c8 : index\n"
      "      %v = arith.addi %i8, %j : index\n"
      "      %vi = arith.index_cast %v : index to i32\n"
      "      %vf = arith.sitofp %vi : i32 to f32\n"
      "      pto.local_array_set %m[%i, %j], %vf : !pto.local_array<8x8xf32>, f32\n"
      "    }\n"
      "  }\n"
      "  scf.for %i = %c0 to %c8 step %c1 {\n"
      "    scf.for %j = %c0 to %c8 step %c1 {\n"
      "      %x = pto.local_array_get %m[%j, %i] : !pto.local_array<8x8xf32> -> f32\n"
      "      %i8 = arith.muli %i, %c8 : index\n"
      "      %o = arith.addi %i8, %j : index\n"
      "      pto.store_scalar %x, %out[%o] : !pto.ptr<f32, gm>, f32\n"
      "    }\n"
      "  }\n"
      "  %a = pto.declare_local_array -> !pto.local_array<2xi32>\n"
      "  %s7 = arith.constant 7 : i32\n"
      "  pto.local_array_set %a[%c0], %s7 : !pto.local_array<2xi32>, i32\n"
      "  %cur = pto.local_array_get %a[%c0] : !pto.local_array<2xi32> -> i32\n"
      "  %new = arith.addi %cur, %s7 : i32\n"
      "  pto.local_array_set %a[%c0], %new : !pto.local_array<2xi32>, i32\n"
      "  %now = pto.local_array_get %a[%c0] : !pto.local_array<2xi32> -> i32\n"
      "  pto.store_scalar %cur, %o32[%c0] : !pto.ptr<i32, gm>, i32\n"
      "  pto.store_scalar %now, %o32[%c1] : !pto.ptr<i32, gm>, i32\n"
      "  %e = pto.declare_eventid_array -> !pto.eventid_array<4>\n"
      "  pto.eventid_array_set %e[%c1], %c2 : !pto.eventid_array<4>\n"
      "  %eid = pto.eventid_array_get %e[%c1] : !pto.eventid_array<4>\n"
      "  %ei = arith.index_cast %eid : index to i32\n"
      "  pto.store_scalar %ei, %o32[%c2] : !pto.ptr<i32, gm>, i32\n"
      "  %y = pto.local_array_get %m[%row, %c0] : !pto.local_array<8x8xf32> -> f32\n"
      "  pto.store_scalar %y, %out[%c0] : !pto.ptr<f32, gm>, f32\n"
      "  return\n"
      "}\n";
  ptosim_program *p = load(src);
  if (!p) return;
  ptosim_machine *m = ptosim_machine_new(ptosim_program_target(p), 1);
  float out[64] = {0};
  int32_t o32[3] = {0};
  ptosim_arg args[3];
  ptosim_gm_map(m, out, sizeof out, &args[0].gm_addr);
  ptosim_gm_map(m, o32, sizeof o32, &args[1].gm_addr);
  args[2].i = 5;
  CHECK(ptosim_program_run(p, m, args) == PTOSIM_OK);
  int bad = 0;
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 8; j++) bad += out[i * 8 + j] != (i == 0 && j == 0 ? 40.0f : (float)(j * 8 + i)); /* out[0] = m[5][0] */
  CHECK_MSG(!bad, "%d wrong elements", bad);
  CHECK_MSG(o32[0] == 7 && o32[1] == 14 && o32[2] == 2, "got %d %d %d", o32[0], o32[1], o32[2]);
  args[2].i = 8; /* m[8][0]: flattened 64 is past the end */
  CHECK(ptosim_program_run(p, m, args) == PTOSIM_E_FAULT && !strcmp(ptosim_last_diag(m)->rule, "run.array_bounds"));
  args[2].i = -1;
  CHECK(ptosim_program_run(p, m, args) == PTOSIM_E_FAULT && !strcmp(ptosim_last_diag(m)->rule, "run.array_bounds"));
  ptosim_machine_free(m);
  ptosim_program_free(p);
  /* m[0][9] of a 2 x 8 array: flattened 9 lies inside the array, but 9 is past dimension 1 */
  const char *dim = "func.func @k(%j: index) {\n  %c0 = arith.constant 0 : index\n"
                    "  %m = pto.declare_local_array -> !pto.local_array<2x8xi32>\n"
                    "  %x = pto.local_array_get %m[%c0, %j] : !pto.local_array<2x8xi32> -> i32\n  return\n}\n";
  const char *rule;
  CHECK(run_loop(dim, 100, 0, 7, &rule) == PTOSIM_OK);
  CHECK(run_loop(dim, 100, 0, 9, &rule) == PTOSIM_E_FAULT && !strcmp(rule, "run.array_bounds"));
  expect_load_error("func.func @k(%i: index) {\n  %m = pto.declare_local_array -> !pto.local_array<2x8xi32>\n"
                    "  %x = pto.local_array_get %m[%i] : !pto.local_array<2x8xi32> -> i32\n  return\n}\n", "[ir.type]", 3);
  expect_load_error("func.func @k(%i: index) {\n  %m = pto.declare_eventid_array -> !pto.eventid_array<4>\n"
                    "  %x = pto.local_array_get %m[%i] : !pto.eventid_array<4> -> index\n  return\n}\n", "[ir.type]", 3);
  expect_load_error("func.func @k(%i: index, %v: f32) {\n  %m = pto.declare_local_array -> !pto.local_array<4xi32>\n"
                    "  pto.local_array_set %m[%i], %v : !pto.local_array<4xi32>, f32\n  return\n}\n", "[ir.type]", 3);
  expect_load_error("func.func @k() {\n  %m = pto.declare_local_array -> !pto.local_array<0xi32>\n  return\n}\n",
                    "[parse.bad_type]", 2);
}

/* A call of a function declared without a body (PTOAS lit tests' @consume sinks) loads; a
 * run stops at the call only when it reaches it. */
static void test_extern_call(void) {
  const char *src = "func.func private @consume(i64)\n"
                    "func.func @k(%x: i64) {\n  %c0 = arith.constant 0 : i64\n"
                    "  %t = arith.cmpi ne, %x, %c0 : i64\n"
                    "  scf.if %t {\n    func.call @consume(%x) : (i64) -> ()\n  }\n  return\n}\n";
  const char *rule;
  CHECK(run_loop(src, 100, 0, 0, &rule) == PTOSIM_OK);
  CHECK(run_loop(src, 100, 0, 1, &rule) == PTOSIM_E_UNSUPPORTED && !strcmp(rule, "run.extern_call"));
}

/* pto.fence.barrier_all #pto.fence_scope<gm>: an MTE3 store to GM then a scalar load of it
 * is ordered by the fence (its pipe drains), a race without it, in a vector kernel and in
 * one without a kernel kind. In a cube section it drains MTE2 and FIX, pipes of the cube
 * core (no sync.pipe error). Scope local_memory is refused. */
static void test_fence(void) {
  static char src[1024];
  const char *kinds[] = {"vector", "vector", ""};
  for (int v = 0; v < 3; v++) {
    int fence = v != 1;
    snprintf(src, sizeof src,
             "module attributes {%s} {\n"
             "func.func @k(%%g: !pto.ptr<f32, gm>, %%o: !pto.ptr<f32, gm>) attributes {pto.kernel} {\n"
             "  %%c0 = arith.constant 0 : index\n"
             "  %%u = pto.castptr 0 : i64 -> !pto.ptr<f32, ub>\n"
             "  pto.mte_ub_gm %%u, %%g, 32 nburst(1, 32, 32) : !pto.ptr<f32, ub>, !pto.ptr<f32, gm>\n%s"
             "  %%x = pto.load_scalar %%g[%%c0] : !pto.ptr<f32, gm> -> f32\n"
             "  pto.store_scalar %%x, %%o[%%c0] : !pto.ptr<f32, gm>, f32\n"
             "  return\n}\n}\n",
             kinds[v][0] ? "pto.kernel_kind = #pto.kernel_kind<vector>" : "", fence ? "  pto.fence.barrier_all #pto.fence_scope<gm>\n" : "");
    ptosim_program *p = load(src);
    if (!p) return;
    ptosim_machine *m = ptosim_machine_new(ptosim_program_target(p), 1);
    float g[8] = {0}, o[1] = {0};
    ptosim_arg a[2];
    ptosim_gm_map(m, g, sizeof g, &a[0].gm_addr);
    ptosim_gm_map(m, o, sizeof o, &a[1].gm_addr);
    ptosim_monitor_opts opts = ptosim_monitor_defaults();
    ptosim_monitor *mon = ptosim_monitor_attach(m, &opts);
    CHECK(ptosim_monitor_run(mon, p, a) == PTOSIM_OK);
    ptosim_monitor_finish(mon);
    int races = 0;
    for (int i = 0; i < ptosim_monitor_nreports(mon); i++) races += !strcmp(ptosim_monitor_report(mon, i)->rule, "race.raw");
    CHECK_MSG(races == !fence, "variant %d: %d races", v, races);
    ptosim_monitor_free(mon);
    ptosim_machine_free(m);
    ptosim_program_free(p);
  }
  ptosim_program *p = load("func.func @k() {\n  pto.section.cube {\n    pto.fence.barrier_all #pto.fence_scope<all>\n  }\n"
                           "  pto.section.vector {\n    pto.fence.barrier_all #pto.fence_scope<gm>\n  }\n  return\n}\n");
  if (p) {
    ptosim_machine *m = ptosim_machine_new(ptosim_program_target(p), 1);
    CHECK(ptosim_program_run(p, m, NULL) == PTOSIM_OK);
    ptosim_machine_free(m);
    ptosim_program_free(p);
  }
  expect_load_error("func.func @k() {\n  pto.fence.barrier_all #pto.fence_scope<local_memory>\n  return\n}\n", "[op.unsupported]", 2);
  expect_load_error("func.func @k() {\n  pto.fence.barrier_all\n  return\n}\n", "[bind.keyword]", 2);
}

/* scf.execute_region runs its region once in place; its scf.yield gives the results (two
 * here, one of them from a nested execute_region without results around a store). */
static void test_execute_region(void) {
  const char *src = "func.func @k(%out: !pto.ptr<i64, gm>, %x: i64) attributes {pto.kernel} {\n"
                    "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
                    "  %r:2 = scf.execute_region -> (i64, i64) {\n"
                    "    %a = arith.muli %x, %x : i64\n"
                    "    scf.execute_region {\n"
                    "      pto.store_scalar %a, %out[%c1] : !pto.ptr<i64, gm>, i64\n"
                    "      scf.yield\n"
                    "    }\n"
                    "    %b = arith.addi %a, %x : i64\n"
                    "    scf.yield %a, %b : i64, i64\n"
                    "  }\n"
                    "  %d = arith.subi %r#1, %r#0 : i64\n"
                    "  pto.store_scalar %d, %out[%c0] : !pto.ptr<i64, gm>, i64\n"
                    "  return\n}\n";
  ptosim_program *p = load(src);
  if (!p) return;
  ptosim_machine *m = ptosim_machine_new(ptosim_program_target(p), 1);
  int64_t out[2] = {0};
  ptosim_arg a[2];
  ptosim_gm_map(m, out, sizeof out, &a[0].gm_addr);
  a[1].i = -7;
  CHECK(ptosim_program_run(p, m, a) == PTOSIM_OK);
  CHECK_MSG(out[0] == -7 && out[1] == 49, "got %lld %lld", (long long)out[0], (long long)out[1]);
  ptosim_machine_free(m);
  ptosim_program_free(p);
  expect_load_error("func.func @k(%x: i64) {\n  %r = scf.execute_region -> (i64) {\n    scf.yield %x, %x : i64, i64\n  }\n  return\n}\n",
                    "[ir.", 3);
}

int main(void) {
  RUN(test_scalar);
  RUN(test_gemm_sections);
  RUN(test_diagnostics);
  RUN(test_runtime_errors);
  RUN(test_loop_limits);
  RUN(test_while_results);
  RUN(test_pointer_dtypes);
  RUN(test_llvm_bitcast);
  RUN(test_dev_access);
  RUN(test_many_arguments);
  RUN(test_linked_call_and_castptr);
  RUN(test_front_end_forms);
  RUN(test_local_arrays);
  RUN(test_extern_call);
  RUN(test_fence);
  RUN(test_execute_region);
  return pt_test_finish();
}
