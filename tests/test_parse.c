/* Front end: lexer + parser to the AST (src/asm). Fixtures in tests/parse/ (*.pto) cover every
 * construct; the tests check the AST shape (op names, item kinds, clause contents,
 * locations, decoded types), the canonical type printer, diagnostics with rule ids and
 * positions (one table of malformed inputs, and a file with several errors), robustness
 * against mutated input, and concurrent parsing.
 *
 * PTOSIM_CORPUS=<dir>: also parse every *.pto below <dir> (e.g. the 302 kernel.pto of
 * /work/corpus/test/vpto/cases) and fail on any parse error. */
#include <dirent.h>
#include <pthread.h>
#include <sys/stat.h>

#include "asm/asm.h"
#include "asm/diag_print.h"
#include "harness.h"

/* ---- helpers ------------------------------------------------------------------------------ */

static char *read_file(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *buf = NULL;
  size_t cap = 0, len = 0;
  for (;;) {
    if (cap - len < 65536) {
      cap = cap ? cap * 2 : 65536;
      char *nb = realloc(buf, cap);
      if (!nb) break;
      buf = nb;
    }
    size_t k = fread(buf + len, 1, cap - len, f);
    len += k;
    if (k == 0) break;
  }
  fclose(f);
  *n = len;
  return buf;
}

static pa_ast *parse_text(const char *name, const char *text, size_t len, int want_errors) {
  pa_ast *ast;
  int e = pa_parse(name, text, len, NULL, &ast);
  CHECK(ast != NULL);
  if (!ast) return NULL;
  if (!want_errors && e) pa_print_diags(ast, stderr);
  CHECK_MSG(want_errors ? e > 0 : e == 0, "%s: %d errors", name, e);
  return ast;
}

static pa_ast *parse_fixture(const char *file) {
  char path[512];
  snprintf(path, sizeof path, "%s/tests/parse/%s", PTOSIM_SOURCE_DIR, file);
  size_t n;
  char *text = read_file(path, &n);
  CHECK_MSG(text != NULL, "cannot read %s", path);
  if (!text) return NULL;
  pa_ast *ast = parse_text(file, text, n, 0);
  free(text); /* the AST keeps its own copy */
  return ast;
}

typedef struct find_op {
  const char *name;
  int nth;
  const pa_op *found;
} find_op;

static int match_op(const pa_op *op, int depth, void *user) {
  find_op *f = user;
  (void)depth;
  if (pa_str_is(op->name, f->name) && f->nth-- == 0) {
    f->found = op;
    return 1;
  }
  return 0;
}

/* The nth op (pre-order, from 0) named `name`. */
static const pa_op *op_named(const pa_ast *ast, const char *name, int nth) {
  find_op f = {name, nth, NULL};
  pa_walk(ast->module, match_op, &f);
  CHECK_MSG(f.found != NULL, "no op %s #%d", name, nth);
  return f.found;
}

/* Item kind and name (name NULL: not checked). */
static int is_item(const pa_item *it, pa_item_kind k, const char *name) {
  return it && it->kind == k && (!name || pa_str_is(it->name, name));
}

static int is_value(const pa_item *it, const char *name) { return is_item(it, PA_IT_VALUE, name); }

static int is_int(const pa_item *it, int64_t v) { return is_item(it, PA_IT_INT, NULL) && it->v.i == v; }

static int at(const pa_item *it, uint32_t line, uint32_t col) { return it->loc.line == line && it->loc.col == col; }

static int type_is(const pa_type *t, const char *canonical) {
  char buf[512];
  pa_type_print(t, buf, sizeof buf);
  if (strcmp(buf, canonical)) fprintf(stderr, "  type printed as %s, expected %s\n", buf, canonical);
  return !strcmp(buf, canonical);
}

static int scalar_is(const pa_type *t, pa_type_kind k, uint32_t width, pa_sign sign) {
  return t && t->kind == k && (k != PA_TY_INT || (t->width == width && t->sign == sign));
}

/* ---- fixtures ------------------------------------------------------------------------------ */

static void test_micro(void) {
  pa_ast *ast = parse_fixture("micro.pto");
  if (!ast) return;
  const pa_op *m = ast->module;
  CHECK(!ast->implicit_module && pa_str_is(m->name, "module") && m->nregions == 1);
  const pa_item *arch = pa_dict_get(m->attrs, "pto.target_arch");
  CHECK(is_item(arch, PA_IT_STRING, "a5"));
  const pa_item *kk = pa_dict_get(m->attrs, "pto.kernel_kind");
  CHECK(is_item(kk, PA_IT_ATTR, "pto.kernel_kind") && kk->nargs == 1 && is_item(&kk->args[0], PA_IT_WORD, "vector"));

  const pa_op *fn = pa_find_func(ast, "scale_rows");
  CHECK(fn && fn->func && fn->func->nargs == 3 && !fn->func->is_decl && fn->func->nresults == 0);
  if (fn && fn->func && fn->func->nargs == 3) {
    const pa_func *f = fn->func;
    CHECK(pa_str_is(f->args[0].name, "src") && f->args[0].type->kind == PA_TY_PTR);
    CHECK(f->args[0].type->space == PA_AS_GM && f->args[0].type->elem->fk == PA_F32);
    CHECK(pa_str_is(f->args[2].name, "n") && scalar_is(f->args[2].type, PA_TY_INT, 32, PA_SIGNLESS));
    CHECK(f->args[2].loc.line == 4 && f->args[2].loc.col == 25);
    CHECK(pa_dict_get(fn->attrs, "pto.kernel") != NULL);
  }

  /* constants: negative, hex, floats, bool word, dense list */
  const pa_op *neg = op_named(ast, "arith.constant", 5);
  CHECK(neg && pa_str_is(neg->results[0].name, "neg") && is_int(&neg->items[0], -7));
  CHECK(neg && neg->ntypes == 1 && scalar_is(neg->types[0].type, PA_TY_INT, 32, PA_SIGNLESS));
  const pa_op *hex = op_named(ast, "arith.constant", 6);
  CHECK(hex && is_int(&hex->items[0], 0xFFFF0000ll));
  const pa_op *half = op_named(ast, "arith.constant", 7), *tiny = op_named(ast, "arith.constant", 8);
  CHECK(half && is_item(&half->items[0], PA_IT_FLOAT, NULL) && half->items[0].v.f == 0.5);
  CHECK(tiny && tiny->items[0].v.f == -1.25e-3 && tiny->types[0].type->fk == PA_F16);
  const pa_op *yes = op_named(ast, "arith.constant", 9);
  CHECK(yes && pa_item_is_word(&yes->items[0], "true") && yes->ntypes == 0);
  const pa_op *splat = op_named(ast, "arith.constant", 10);
  if (splat) {
    const pa_item *d = &splat->items[0];
    CHECK(is_item(d, PA_IT_ANGLE, "dense") && d->nargs == 1 && is_item(&d->args[0], PA_IT_LIST, NULL));
    CHECK(d->args[0].nargs == 2 && d->args[0].args[1].v.f == -2.5);
    CHECK(type_is(splat->types[0].type, "vector<2xf32>"));
  }

  /* DMA with a clause and a trailing type list */
  const pa_op *dma = op_named(ast, "pto.mte_gm_ub", 0);
  if (dma) {
    CHECK(dma->nitems == 4 && is_value(&dma->items[0], "src") && is_value(&dma->items[2], "c256_i64"));
    const pa_item *nb = pa_op_clause(dma, "nburst");
    CHECK(is_item(nb, PA_IT_CALL, "nburst") && nb->nargs == 3 && is_value(&nb->args[1], "c256_i64"));
    CHECK(at(nb, 20, 7) && pa_str_is(nb->text, "nburst(%c1_i64, %c256_i64, %c256_i64)"));
    CHECK(dma->ntypes == 6 && dma->types[1].type->space == PA_AS_VEC && at(&dma->types[1], 21, 28));
    CHECK(pa_str_is(dma->types[1].text, "!pto.ptr<f32, ub>") && pa_str_is(dma->types[5].text, "i64"));
    CHECK(dma->loc.line == 19 && dma->loc.col == 5 && dma->start.line == 19);
  }
  const pa_op *flag = op_named(ast, "pto.set_flag", 0);
  CHECK(flag && flag->nitems == 1 && is_item(&flag->items[0], PA_IT_LIST, NULL) && flag->items[0].nargs == 3);
  CHECK(flag && is_item(&flag->items[0].args[2], PA_IT_STRING, "EVENT_ID0"));

  /* vecscope { scf.for ... iter_args(...) -> (i32) { ... } } */
  const pa_op *scope = op_named(ast, "pto.vecscope", 0);
  CHECK(scope && scope->nregions == 1 && scope->regions[0].nblocks == 1 && scope->regions[0].blocks[0].nops == 1);
  const pa_op *loop = op_named(ast, "scf.for", 0);
  if (loop) {
    CHECK(loop->nresults == 1 && pa_str_is(loop->results[0].name, "_") && loop->results[0].count == 1);
    CHECK(loop->nitems == 6 && is_item(&loop->items[0], PA_IT_ASSIGN, "off"));
    CHECK(is_value(&loop->items[0].args[0], "off") && is_value(&loop->items[0].args[1], "c0"));
    CHECK(pa_item_is_word(&loop->items[1], "to") && pa_item_is_word(&loop->items[3], "step"));
    const pa_item *ia = pa_op_clause(loop, "iter_args");
    CHECK(ia && ia->nargs == 1 && is_item(&ia->args[0], PA_IT_ASSIGN, "left"));
    CHECK(loop->nrtypes == 1 && scalar_is(loop->rtypes[0], PA_TY_INT, 32, PA_SIGNLESS));
    CHECK(loop->nregions == 1 && loop->regions[0].blocks[0].nops == 5);
  }
  const pa_op *plt = op_named(ast, "pto.plt_b32", 0);
  CHECK(plt && plt->nresults == 2 && pa_str_is(plt->results[1].name, "rest") && plt->nrtypes == 2);
  CHECK(plt && plt->rtypes[0]->kind == PA_TY_MASK && plt->rtypes[0]->mask_bits == 32);
  const pa_op *vlds = op_named(ast, "pto.vlds", 0);
  if (vlds) {
    const pa_item *ptr = &vlds->items[0];
    CHECK(is_value(ptr, "ub_in") && ptr->nargs == 1 && is_value(&ptr->args[0], "off"));
    CHECK(is_item(&vlds->items[1], PA_IT_DICT, NULL));
    CHECK(is_item(pa_dict_get(&vlds->items[1], "dist"), PA_IT_STRING, "NORM"));
    CHECK(vlds->rtypes[0]->kind == PA_TY_VREG && vlds->rtypes[0]->dims[0] == 64);
  }

  /* clause words inside the trailing type list */
  const pa_op *frac = op_named(ast, "pto.mte_gm_l1_frac", 0);
  if (frac) {
    CHECK(frac->nitems == 6 && pa_item_is_word(&frac->items[2], "nd2nz"));
    CHECK(pa_op_clause(frac, "ctrl")->nargs == 2 && is_value(&pa_op_clause(frac, "ctrl")->args[1], "yes"));
    static const pa_item_kind kinds[] = {PA_IT_TYPE, PA_IT_TYPE, PA_IT_WORD, PA_IT_WORD, PA_IT_TYPE,
                                         PA_IT_TYPE, PA_IT_CALL, PA_IT_WORD, PA_IT_TYPE, PA_IT_TYPE};
    CHECK(frac->ntypes == 10);
    for (uint32_t i = 0; i < 10 && i < frac->ntypes; i++) CHECK_MSG(frac->types[i].kind == kinds[i], "type item %u", i);
    const pa_item *sl = pa_item_find(frac->types, frac->ntypes, "src_layout");
    CHECK(sl && sl->ntypes == 1 && scalar_is(sl->types[0], PA_TY_INT, 64, PA_SIGNLESS));
  }
  const pa_op *l0c = op_named(ast, "pto.mte_l0c_gm", 0);
  if (l0c) {
    const pa_item *pq = pa_op_clause(l0c, "pre_quant");
    CHECK(pq && pq->nargs == 2 && is_value(&pq->args[0], "ub_in") && is_item(&pq->args[1], PA_IT_ASSIGN, "mode"));
    CHECK(pq && pa_item_is_word(&pq->args[1].args[1], "qf322f16_pre_vec"));
    const pa_item *sat = pa_op_clause(l0c, "sat");
    CHECK(sat && sat->nargs == 1 && pa_item_is_word(&sat->args[0], "preserve_nan"));
    CHECK(pa_item_is_word(pa_op_clause(l0c, "disable_gemv"), "disable_gemv"));
  }
  const pa_op *ss = op_named(ast, "pto.sync.set", 0);
  CHECK(ss && ss->nitems == 2 && is_item(&ss->items[0], PA_IT_ANGLE, NULL) && is_int(&ss->items[1], 3));
  CHECK(ss && pa_item_is_word(&ss->items[0].args[0], "PIPE_FIX"));
  const pa_op *bar = op_named(ast, "pto.barrier", 0);
  CHECK(bar && is_item(&bar->items[0], PA_IT_ATTR, "pto.pipe") && pa_item_is_word(&bar->items[0].args[0], "PIPE_ALL"));
  CHECK(bar && pa_str_is(bar->items[0].body, "PIPE_ALL"));
  const pa_op *cv = op_named(ast, "pto.convert", 0);
  CHECK(cv && cv->nitems == 4 && is_item(&cv->items[1], PA_IT_CALL, "round") && pa_item_is_word(&cv->items[3], "unsigned"));
  const pa_op *sh = op_named(ast, "pto.shuffle_idx", 0);
  if (sh) {
    const pa_item *w = pa_dict_get(&sh->items[2], "width");
    CHECK(is_int(w, 16) && w->type && scalar_is(w->type, PA_TY_INT, 32, PA_SIGNLESS));
  }
  const pa_op *ret = op_named(ast, "return", 0);
  CHECK(ret && ret->nitems == 0 && ret->loc.line == 46);
  pa_ast_free(ast);
}

static const pa_type *type_of_op(const pa_op *op) { return op && op->ntypes ? op->types[0].type : NULL; }

static void test_tile(void) {
  pa_ast *ast = parse_fixture("tile.pto");
  if (!ast) return;
  CHECK(is_item(pa_dict_get(ast->module->attrs, "pto.device-spec"), PA_IT_STRING, "Ascend910B1"));
  const pa_op *fn = pa_find_func(ast, "tile_add");
  CHECK(fn && fn->func->args[0].type->kind == PA_TY_PTR && fn->func->args[0].type->space == PA_AS_GM &&
        fn->func->args[0].type->space_name.n == 0);
  const pa_op *mv = op_named(ast, "pto.make_tensor_view", 0);
  if (mv) {
    const pa_item *shape = pa_op_clause(mv, "shape");
    CHECK(is_item(shape, PA_IT_ASSIGN, "shape") && is_item(&shape->args[1], PA_IT_LIST, NULL) && shape->args[1].nargs == 2);
    const pa_type *tv = type_of_op(mv);
    CHECK(tv && tv->kind == PA_TY_TENSOR_VIEW && tv->rank == 2 && tv->dims[0] == PA_DYN && tv->dims[1] == 16);
    CHECK(tv && tv->elem->fk == PA_F16);
  }
  const pa_op *pv = op_named(ast, "pto.partition_view", 0);
  CHECK(pv && pv->nrtypes == 1 && pv->rtypes[0]->kind == PA_TY_PART_VIEW && pv->rtypes[0]->rank == 2);

  const pa_type *t0 = type_of_op(op_named(ast, "pto.alloc_tile", 0));
  if (t0) {
    const pa_tile_buf *tb = &t0->tb;
    CHECK(t0->kind == PA_TY_TILE_BUF && tb->loc == PA_AS_VEC && tb->dtype->fk == PA_F16 && tb->rows == 16);
    CHECK(tb->v_row == PA_DYN && tb->v_col == 16 && tb->blayout == PA_BL_ROW_MAJOR && tb->slayout == PA_SL_NONE_BOX);
    CHECK(tb->fractal == 512 && tb->pad == 0 && tb->compact == 0 && tb->compact_form == 0 && tb->given == 0x3FF);
  }
  const pa_type *t1 = type_of_op(op_named(ast, "pto.alloc_tile", 1));
  if (t1) {
    const pa_tile_buf *tb = &t1->tb;
    CHECK(tb->compact_form == 1 && tb->loc == PA_AS_LEFT && tb->rows == 16 && tb->cols == 16 && tb->v_row == 16);
    CHECK(tb->slayout == PA_SL_ROW_MAJOR && tb->blayout == PA_BL_ROW_MAJOR && tb->fractal == 512);
    CHECK(tb->given == (PA_TB_LOC | PA_TB_DTYPE | PA_TB_ROWS | PA_TB_COLS | PA_TB_SLAYOUT));
  }
  const pa_type *t2 = type_of_op(op_named(ast, "pto.alloc_tile", 2));
  CHECK(t2 && t2->tb.compact == 2 && t2->tb.pad == 1 && t2->tb.fractal == 1024 && t2->tb.blayout == PA_BL_COL_MAJOR);

  const pa_op *ld = op_named(ast, "pto.tload", 0);
  if (ld) {
    const pa_item *ins = pa_op_clause(ld, "ins"), *outs = pa_op_clause(ld, "outs");
    CHECK(ins && ins->nargs == 1 && ins->ntypes == 1 && ins->types[0]->kind == PA_TY_PART_VIEW);
    CHECK(outs && outs->nargs == 1 && is_value(&outs->args[0], "t0") && pa_type_equal(outs->types[0], t0));
    CHECK(outs && at(outs, 17, 15));
  }
  /* elided tile_buf types in ins/outs equal the spelled-out ones */
  const pa_op *mm = op_named(ast, "pto.tmatmul", 0);
  if (mm) {
    const pa_item *ins = pa_op_clause(mm, "ins"), *outs = pa_op_clause(mm, "outs");
    CHECK(ins->nargs == 2 && ins->ntypes == 2 && ins->types[0]->elided && !ins->types[1]->elided);
    CHECK(pa_type_equal(ins->types[0], ins->types[1]) && pa_type_equal(ins->types[0], t1));
    CHECK(outs->types[0]->elided && pa_type_equal(outs->types[0], t2));
  }
  const pa_op *cvt = op_named(ast, "pto.tcvt", 0);
  if (cvt) {
    const pa_item *ins = pa_op_clause(cvt, "ins");
    const pa_item *rm = pa_dict_get(ins->args[0].attrs, "rmode");
    CHECK(ins->nargs == 1 && is_item(rm, PA_IT_ATTR, "pto") && rm->nargs == 2 && pa_item_is_word(&rm->args[1], "ROUND"));
  }
  const pa_op *flag = op_named(ast, "pto.set_flag", 0);
  CHECK(flag && flag->items[0].nargs == 3 && is_item(&flag->items[0].args[2], PA_IT_ANGLE, NULL));
  CHECK(flag && pa_item_is_word(&flag->items[0].args[2].args[0], "EVENT_ID3"));
  const pa_op *alloc = op_named(ast, "memref.alloc", 0);
  if (alloc) {
    CHECK(alloc->nitems == 1 && is_item(&alloc->items[0], PA_IT_CALL, "") && alloc->items[0].nargs == 0);
    const pa_type *mr = type_of_op(alloc);
    CHECK(mr && mr->kind == PA_TY_MEMREF && mr->rank == 2 && mr->nextra == 1 && is_item(&mr->extra[0], PA_IT_ATTR, "pto.address_space"));
  }
  const pa_op *ap = op_named(ast, "pto.addptr", 0);
  CHECK(ap && type_of_op(ap)->kind == PA_TY_PTR && type_of_op(ap)->elided && ap->rtypes[0]->space == PA_AS_GM);
  const pa_op *st = op_named(ast, "pto.tstore", 0);
  CHECK(st && st->nitems == 3 && is_item(&st->items[2], PA_IT_DICT, NULL));
  pa_ast_free(ast);
}

static void test_control(void) {
  pa_ast *ast = parse_fixture("control.pto");
  if (!ast) return;
  CHECK(ast->implicit_module && ast->module->regions[0].blocks[0].nops == 3);
  const pa_op *h = pa_find_func(ast, "helper");
  if (h) {
    const pa_func *f = h->func;
    CHECK(f->is_decl && pa_str_is(f->visibility, "private") && f->nargs == 2 && f->nresults == 2);
    CHECK(pa_dict_get(f->args[0].attrs, "pto.noalias") != NULL && !f->args[1].attrs);
    CHECK(f->results[1]->fk == PA_F32);
  }
  const pa_op *d = pa_find_func(ast, "decl_types");
  CHECK(d && d->func->nargs == 2 && d->func->args[0].name.n == 0 && d->func->args[1].type->kind == PA_TY_PTR);
  const pa_op *c = pa_find_func(ast, "control");
  CHECK(c && pa_str_is(c->func->visibility, "public") && c->func->nresults == 1 && !c->func->is_decl);

  const pa_op *w = op_named(ast, "scf.while", 0);
  if (w) {
    CHECK(w->nresults == 1 && w->results[0].count == 2 && pa_str_is(w->results[0].name, "done"));
    CHECK(w->nitems == 2 && is_item(&w->items[0], PA_IT_CALL, "") && w->items[0].nargs == 2);
    CHECK(is_item(&w->items[0].args[1], PA_IT_ASSIGN, "acc") && pa_item_is_word(&w->items[1], "do"));
    const pa_type *ft = w->types[0].type;
    CHECK(ft->kind == PA_TY_FUNC && ft->nin == 2 && ft->nout == 2 && ft->out[1]->width == 64);
    CHECK(w->nregions == 2 && w->regions[1].nblocks == 1);
    const pa_block *b = &w->regions[1].blocks[0];
    CHECK(pa_str_is(b->label, "bb0") && b->nargs == 2 && pa_str_is(b->args[1].name, "a") && b->args[1].type->width == 64);
    CHECK(b->nops == 3 && b->loc.line == 15);
  }
  const pa_op *cond = op_named(ast, "scf.condition", 0);
  CHECK(cond && cond->nitems == 3 && cond->items[0].nargs == 1 && is_value(&cond->items[2], "acc") && cond->ntypes == 2);
  const pa_op *call = op_named(ast, "func.call", 0);
  CHECK(call && call->nresults == 1 && call->results[0].count == 2 && is_item(&call->items[0], PA_IT_SYMBOL, "helper"));
  CHECK(call && call->items[1].nargs == 2 && type_is(call->types[0].type, "(i64, f32) -> (i64, f32)"));
  const pa_op *y = op_named(ast, "scf.yield", 0);
  CHECK(y && is_value(&y->items[1], "pair") && y->items[1].result_no == 0);
  const pa_op *sel = op_named(ast, "arith.select", 0);
  CHECK(sel && sel->items[1].result_no == 1 && pa_str_is(sel->items[1].text, "%done#1"));
  const pa_op *ifop = op_named(ast, "scf.if", 0);
  CHECK(ifop && ifop->nregions == 2 && pa_item_is_word(&ifop->items[1], "else") && ifop->nrtypes == 1);
  const pa_op *cmpf = op_named(ast, "arith.cmpf", 0);
  CHECK(cmpf && pa_item_is_word(&cmpf->items[0], "oge"));
  const pa_op *ext = op_named(ast, "arith.extui", 0);
  CHECK(ext && ext->ntypes == 3 && pa_item_is_word(&ext->types[1], "to") && ext->types[2].type->width == 64);
  const pa_op *dm = op_named(ast, "pto.divmod", 0);
  CHECK(dm && dm->nresults == 2 && pa_str_is(dm->results[1].name, "r"));
  const pa_op *ret = op_named(ast, "return", 0);
  CHECK(ret && ret->nitems == 1 && is_value(&ret->items[0], "sel"));
  pa_ast_free(ast);
}

static void test_types(void) {
  pa_ast *ast = parse_fixture("types.pto");
  if (!ast) return;
  const pa_op *inner = op_named(ast, "module", 1);
  CHECK(pa_str_is(ast->module->sym, "types") && inner && pa_str_is(inner->sym, "inner"));
  CHECK(inner && is_item(pa_dict_get(inner->attrs, "pto.note"), PA_IT_STRING, "nested"));
  const pa_op *t0 = op_named(ast, "pto.t0", 0);
  if (t0 && t0->ntypes == 12) {
    static const uint32_t widths[] = {1, 8, 16, 32, 64, 8, 16, 32, 64, 4, 24};
    static const pa_sign signs[] = {0, 0, 0, 0, 0, PA_SIGNED, PA_UNSIGNED, PA_SIGNED, PA_UNSIGNED, 0, 0};
    for (int i = 0; i < 11; i++) CHECK(scalar_is(t0->types[i].type, PA_TY_INT, widths[i], signs[i]));
    CHECK(t0->types[11].type->kind == PA_TY_INDEX);
  }
  const pa_op *t1 = op_named(ast, "pto.t1", 0);
  if (t1 && t1->ntypes == 9) {
    static const pa_float_kind fks[] = {PA_F16, PA_BF16, PA_F32, PA_F64, PA_F8E4M3FN, PA_F8E5M2, PA_F8E8M0FNU, PA_TF32};
    for (int i = 0; i < 8; i++) CHECK(t1->types[i].type->kind == PA_TY_FLOAT && t1->types[i].type->fk == fks[i]);
    CHECK(t1->types[8].type->kind == PA_TY_NONE);
  }
  const pa_op *t2 = op_named(ast, "pto.t2", 0);
  if (t2 && t2->ntypes == 4) {
    const pa_type *v = t2->types[0].type, *tn = t2->types[1].type, *mr = t2->types[2].type, *un = t2->types[3].type;
    CHECK(v->kind == PA_TY_VECTOR && v->rank == 1 && v->dims[0] == 2 && v->elem->fk == PA_F16);
    CHECK(tn->kind == PA_TY_TENSOR && tn->dims[0] == PA_DYN && tn->dims[1] == 4);
    CHECK(mr->kind == PA_TY_MEMREF && mr->nextra == 2 && is_item(&mr->extra[0], PA_IT_ANGLE, "strided"));
    CHECK(pa_str_is(mr->extra[0].body, "[16, 1]") && pa_item_is_word(&mr->extra[1].args[0], "vec"));
    CHECK(un->rank == -1 && un->elem->width == 8);
  }
  const pa_op *t3 = op_named(ast, "pto.t3", 0);
  if (t3 && t3->ntypes == 4) {
    CHECK(t3->types[0].type->space == PA_AS_GM && t3->types[0].type->space_name.n == 0);
    CHECK(t3->types[1].type->space == PA_AS_ACC && pa_str_is(t3->types[1].type->space_name, "l0c"));
    const pa_type *h = t3->types[2].type->elem;
    CHECK(h->kind == PA_TY_DIALECT && pa_str_is(h->name, "pto.hif8") && h->body.s == NULL);
    CHECK(t3->types[3].type->elem->kind == PA_TY_VECTOR);
  }
  const pa_op *t4 = op_named(ast, "pto.t4", 0);
  if (t4 && t4->ntypes == 5) {
    CHECK(t4->types[0].type->kind == PA_TY_VREG && t4->types[0].type->dims[0] == 128 && t4->types[0].type->elem->fk == PA_BF16);
    CHECK(t4->types[1].type->mask_bits == 16 && t4->types[2].type->kind == PA_TY_ALIGN);
    const pa_type *ev = t4->types[4].type; /* !pto.eventid_array<4>: four index values */
    CHECK(ev->kind == PA_TY_EVENTID_ARRAY && ev->rank == 1 && ev->dims[0] == 4 && ev->elem->kind == PA_TY_INDEX);
    CHECK(t4->types[3].type->kind == PA_TY_DIALECT && pa_str_is(t4->types[3].type->name, "pto.hif8"));
  }
  const pa_op *t5 = op_named(ast, "pto.t5", 0);
  if (t5 && t5->ntypes == 3) {
    CHECK(t5->types[0].type->rank == 3 && t5->types[0].type->dims[1] == PA_DYN && t5->types[0].type->dims[2] == 64);
    CHECK(t5->types[1].type->kind == PA_TY_PART_VIEW && t5->types[1].type->rank == 5);
    CHECK(t5->types[2].type->kind == PA_TY_TILE_VIEW);
  }
  const pa_op *t6 = op_named(ast, "pto.t6", 0);
  if (t6 && t6->ntypes == 3) {
    CHECK(t6->types[0].type->kind == PA_TY_FUNC && t6->types[0].type->nin == 2 && t6->types[0].type->nout == 0);
    CHECK(t6->types[1].type->nout == 1 && t6->types[2].type->kind == PA_TY_TUPLE && t6->types[2].type->nin == 2);
  }
  const pa_type *t7 = type_of_op(op_named(ast, "pto.t7", 0));
  CHECK(t7 && t7->tb.loc == PA_AS_MAT && t7->tb.dtype->kind == PA_TY_DIALECT && t7->tb.v_col == PA_DYN && t7->tb.pad == 3);
  const pa_type *t8 = type_of_op(op_named(ast, "pto.t8", 0));
  CHECK(t8 && t8->tb.compact_form == 1 && t8->tb.v_row == 8 && t8->tb.v_col == PA_DYN && t8->tb.fractal == 32);
  CHECK(t8 && t8->tb.compact == 1 && t8->tb.pad == 2 && t8->tb.blayout == PA_BL_COL_MAJOR && t8->tb.dtype->width == 16);
  const pa_op *t9 = op_named(ast, "pto.t9", 0);
  CHECK(t9 && t9->types[0].type->tb.loc == PA_AS_BIAS && t9->types[1].type->tb.loc == PA_AS_SCALING);
  pa_ast_free(ast);
}

/* Every type of the fixtures prints canonically, and the print parses back to an equal type
 * that prints identically. */
typedef struct roundtrip {
  int count;
  const pa_ast *ast; /* whose items are walked (their text must lie in its text) */
} roundtrip;

static void roundtrip_type(const pa_type *t, roundtrip *r) {
  char a[2048], b[2048], text[2200];
  pa_type_print(t, a, sizeof a);
  snprintf(text, sizeof text, "pto.x : %s\n", a);
  pa_ast *ast;
  int e = pa_parse("roundtrip", text, strlen(text), NULL, &ast);
  CHECK_MSG(e == 0, "printed type does not parse: %s", a);
  const pa_op *op = ast->module->regions[0].blocks[0].nops ? &ast->module->regions[0].blocks[0].ops[0] : NULL;
  if (!e && op && op->ntypes == 1) {
    pa_type_print(op->types[0].type, b, sizeof b);
    CHECK_MSG(!strcmp(a, b), "%s reprinted as %s", a, b);
    CHECK_MSG(pa_type_equal(t, op->types[0].type), "%s not equal after a round trip", a);
  }
  pa_ast_free(ast);
  r->count++;
}

static void roundtrip_items(const pa_item *its, uint32_t n, roundtrip *r) {
  for (uint32_t i = 0; i < n; i++) {
    CHECK(its[i].text.n > 0 && its[i].text.s >= r->ast->text && its[i].text.s + its[i].text.n <= r->ast->text + r->ast->len);
    if (its[i].type) roundtrip_type(its[i].type, r);
    for (uint32_t k = 0; k < its[i].ntypes; k++) roundtrip_type(its[i].types[k], r);
    roundtrip_items(its[i].args, its[i].nargs, r);
  }
}

static int roundtrip_op(const pa_op *op, int depth, void *user) {
  (void)depth;
  roundtrip_items(op->items, op->nitems, user);
  roundtrip_items(op->types, op->ntypes, user);
  for (uint32_t i = 0; i < op->nrtypes; i++) roundtrip_type(op->rtypes[i], user);
  return 0;
}

static void test_type_roundtrip(void) {
  static const char *const files[] = {"micro.pto", "tile.pto", "control.pto", "types.pto"};
  roundtrip r = {0, NULL};
  for (int i = 0; i < 4; i++) {
    pa_ast *ast = parse_fixture(files[i]);
    r.ast = ast;
    if (ast) pa_walk(ast->module, roundtrip_op, &r);
    pa_ast_free(ast);
  }
  CHECK(r.count > 150);
  /* a few exact canonical spellings */
  static const char canon[] =
      "pto.x : !pto.ptr<f32>, !pto.ptr<i8, l1>, !pto.tile_buf<acc, 16x32xf32, valid=?x16>, <f16, ub>\n";
  pa_ast *ast = parse_text("canon", canon, sizeof canon - 1, 0);
  if (ast) {
    const pa_op *op = &ast->module->regions[0].blocks[0].ops[0];
    CHECK(type_is(op->types[0].type, "!pto.ptr<f32, gm>") && type_is(op->types[1].type, "!pto.ptr<i8, l1>"));
    CHECK(type_is(op->types[2].type, "!pto.tile_buf<loc=acc, dtype=f32, rows=16, cols=32, v_row=?, v_col=16, "
                                     "blayout=row_major, slayout=none_box, fractal=512, pad=0>"));
    CHECK(type_is(op->types[3].type, "!pto.ptr<f16, ub>"));
    char small[8];
    size_t need = pa_type_print(op->types[2].type, small, sizeof small);
    CHECK(need > 100 && strlen(small) == 7 && !memcmp(small, "!pto.ti", 7));
  }
  pa_ast_free(ast);
  /* blanks around the dimension 'x' (MLIR's dimension lists; tonibohnlein lit
   * issue1251_subview_of_tpop_a3): the same types as without them */
  static const char spaced[] = "pto.x : !pto.partition_tensor_view<8 x 128 x f32>, vector<4 x\ti16>, "
                               "!pto.tile_buf<vec, 16 x 32 x f16, valid=16 x ?>, tensor<? x 4 x f32>\n";
  ast = parse_text("spaced", spaced, sizeof spaced - 1, 0);
  if (ast) {
    const pa_op *op = &ast->module->regions[0].blocks[0].ops[0];
    CHECK(op->ntypes == 4);
    CHECK(op->ntypes == 4 && type_is(op->types[0].type, "!pto.partition_tensor_view<8x128xf32>") &&
          type_is(op->types[1].type, "vector<4xi16>") && type_is(op->types[3].type, "tensor<?x4xf32>"));
    CHECK(op->ntypes == 4 && op->types[2].type->tb.rows == 16 && op->types[2].type->tb.cols == 32 &&
          op->types[2].type->tb.v_row == 16 && op->types[2].type->tb.v_col == PA_DYN);
  }
  pa_ast_free(ast);
}

/* ---- layout, comments, accessors ------------------------------------------------------------- */

static void test_layout_and_accessors(void) {
  static const char text[] =
      "// comment before everything\n"
      "func.func @k(%a: i64) {   // trailing comment\n"
      "  %x = pto.foo %a,\n"
      "        %a   // operands continue on the next line\n"
      "        word(\"esc\\\"q\\n\\41\")\n"
      "        : i64,\n"
      "          i64\n"
      "  %y = pto.bar\n"
      "  pto.baz %y {a = 1, b, \"c d\" = [2, ?]}\n"
      "  %r:3 = pto.three\n"
      "  pto.use %r#2, %r#0\n"
      "  return\n"
      "}\n";
  pa_ast *ast = parse_text("layout", text, sizeof text - 1, 0);
  if (!ast) return;
  const pa_op *foo = op_named(ast, "pto.foo", 0);
  if (foo) {
    CHECK(foo->nitems == 3 && foo->ntypes == 2 && at(&foo->items[1], 4, 9) && at(&foo->types[1], 7, 11));
    CHECK(foo->start.line == 3 && foo->start.col == 3 && foo->loc.col == 8);
    const pa_item *w = pa_op_clause(foo, "word");
    char buf[16];
    CHECK(w && pa_string_decode(&w->args[0], buf, sizeof buf) == 7 && !memcmp(buf, "esc\"q\nA", 8));
    CHECK(pa_string_decode(&w->args[0], buf, 4) == 7 && !strcmp(buf, "esc"));
    CHECK(foo->text.n > 0 && foo->text.s[foo->text.n - 1] == '4'); /* ends with the last type */
  }
  const pa_op *bar = op_named(ast, "pto.bar", 0);
  CHECK(bar && bar->nitems == 0 && bar->nresults == 1);
  const pa_op *baz = op_named(ast, "pto.baz", 0);
  if (baz) {
    const pa_item *d = &baz->items[1];
    CHECK(is_int(pa_dict_get(d, "a"), 1) && pa_item_is_word(pa_dict_get(d, "b"), "b"));
    const pa_item *cd = pa_dict_get(d, "c d");
    CHECK(cd && cd->nargs == 2 && pa_item_is_word(&cd->args[1], "?") && !pa_dict_get(d, "zz"));
  }
  const pa_op *three = op_named(ast, "pto.three", 0);
  CHECK(three && three->results[0].count == 3);
  const pa_op *use = op_named(ast, "pto.use", 0);
  CHECK(use && use->items[0].result_no == 2 && use->items[1].result_no == 0 && pa_str_is(use->items[0].name, "r"));
  CHECK(!strcmp(pa_item_kind_name(PA_IT_LAUNCH), "launch") && !strcmp(pa_type_kind_name(PA_TY_TILE_BUF), "tile_buf"));
  CHECK(!strcmp(pa_aspace_name(PA_AS_SCALING), "scaling") && !strcmp(pa_float_name(PA_F8E5M2), "f8E5M2"));
  pa_ast_free(ast);

  /* launch configuration, symbols, an empty file, a byte order mark, CRLF line ends */
  static const char launch[] = "\xEF\xBB\xBFpto.simt_launch @body<<<%x, %y, %z>>>(%p) : (i32) -> ()\r\nreturn\r\n";
  ast = parse_text("launch", launch, sizeof launch - 1, 0);
  const pa_op *l = ast ? op_named(ast, "pto.simt_launch", 0) : NULL;
  CHECK(l && l->nitems == 3 && is_item(&l->items[1], PA_IT_LAUNCH, NULL) && l->items[1].nargs == 3);
  CHECK(l && is_item(&l->items[0], PA_IT_SYMBOL, "body") && l->items[2].nargs == 1 && l->loc.col == 4);
  pa_ast_free(ast);
  /* other dialects' types and attributes are kept raw, whatever their bodies hold */
  static const char raw[] = "pto.x {k = #llvm.thing<$ \"a>b\" -> (c)>} : !llvm.foo<$ \"s>\" -> x>, i32\n";
  ast = parse_text("raw", raw, sizeof raw - 1, 0);
  const pa_op *x = ast ? op_named(ast, "pto.x", 0) : NULL;
  CHECK(x && x->ntypes == 2 && x->types[0].type->kind == PA_TY_DIALECT && pa_str_is(x->types[0].type->name, "llvm.foo"));
  CHECK(x && pa_str_is(x->types[0].type->body, "$ \"s>\" -> x") && x->types[1].type->width == 32);
  CHECK(x && pa_str_is(pa_dict_get(&x->items[0], "k")->body, "$ \"a>b\" -> (c)"));
  pa_ast_free(ast);
  ast = parse_text("empty", "", 0, 0);
  CHECK(ast && ast->implicit_module && ast->module->regions[0].blocks[0].nops == 0);
  pa_ast_free(ast);
}

/* ---- diagnostics ------------------------------------------------------------------------------ */

typedef struct err_case {
  const char *text;
  const char *rule;
  uint32_t line, col;
} err_case;

static const err_case k_errors[] = {
    {"pto.foo \"abc\n", "parse.unterminated_string", 1, 9},
    {"pto.foo \"a\\qb\"\n", "parse.bad_string", 1, 11},
    {"pto.foo %a $ %b\n", "parse.bad_char", 1, 12},
    {"pto.foo %a, %\n", "parse.bad_char", 1, 13},
    {"pto.foo \x01\n", "parse.bad_char", 1, 9},
    {"%x = arith.constant 99999999999999999999 : i64\n", "parse.bad_number", 1, 21},
    {"%x = arith.constant 0x1FFFFFFFFFFFFFFFF : i64\n", "parse.bad_number", 1, 21},
    {"pto.foo ins(%a : i32\n}\n", "parse.expected_token", 2, 1},
    {"pto.foo %a, : i32\n", "parse.expected_token", 1, 13},
    {"pto.foo [1, 2,]\n", "parse.expected_token", 1, 15},
    {"pto.foo ins(%a : i32x)\n", "parse.bad_type", 1, 18},
    {"pto.foo : !pto.ptr<f32, hbm>\n", "parse.bad_type", 1, 25},
    {"pto.foo : !pto.ptr<f32\n", "parse.bad_type", 1, 11},
    {"pto.foo : !pto.vreg<4x4xf32>\n", "parse.bad_type", 1, 21},
    {"pto.foo : !pto.mask<b12>\n", "parse.bad_type", 1, 21},
    {"pto.foo : !pto.align<1>\n", "parse.bad_type", 1, 11},
    {"pto.foo : !pto.ptr\n", "parse.bad_type", 1, 11},
    {"pto.foo : vector<4x>\n", "parse.expected_token", 1, 20},
    {"pto.foo : !pto.tile_buf<loc=vec, dtype=f16, rows=16>\n", "parse.bad_type", 1, 11},
    {"pto.foo : !pto.tile_buf<loc=ram, dtype=f16, rows=16, cols=16>\n", "parse.bad_type", 1, 29},
    {"pto.foo : !pto.tile_buf<loc=vec, dtype=f16, rows=16, rows=8, cols=16>\n", "parse.bad_type", 1, 54},
    {"pto.foo : !pto.tile_buf<loc=vec, dtype=f16, rows=-1, cols=16>\n", "parse.bad_type", 1, 50},
    {"pto.foo : !pto.tile_buf<vec, 16x?xf16>\n", "parse.bad_type", 1, 30},
    {"pto.foo : !pto.tile_buf<vec, 16x16xf16, rows=4>\n", "parse.bad_type", 1, 41},
    {"foo %a\n", "parse.expected_op", 1, 1},
    {"%x = 42\n", "parse.expected_op", 1, 6},
    {"%x:0 = pto.foo\n", "parse.expected_token", 1, 4},
    {"%x = \n", "parse.expected_op", 2, 1},
    {"func.func @f() {\n  return\n", "parse.unterminated_region", 3, 1},
    {"return\n}\n", "parse.unexpected_rbrace", 2, 1},
    {"func.func @f(%a) {\n}\n", "parse.bad_func", 1, 14},
    {"func.func {\n}\n", "parse.bad_func", 1, 1},
    {"func.func @f() {\n^bb0(%a):\n  return\n}\n", "parse.expected_token", 2, 1},
    {"pto.l @f<<<%a, %b>> (%c)\n", "parse.expected_token", 1, 21},
    {"pto.foo #pto.pipe<PIPE_ALL\n", "parse.expected_token", 1, 18},
    {"pto.foo {a = 1 : }\n", "parse.expected_token", 1, 18},
};

static void test_error_table(void) {
  for (size_t i = 0; i < sizeof k_errors / sizeof k_errors[0]; i++) {
    const err_case *c = &k_errors[i];
    pa_ast *ast;
    int e = pa_parse("err.pto", c->text, strlen(c->text), NULL, &ast);
    int ok = e >= 1 && ast->ndiags >= 1 && !strcmp(ast->diags[0].rule, c->rule) && ast->diags[0].loc.line == c->line &&
             ast->diags[0].loc.col == c->col;
    CHECK_MSG(ok, "case %zu: want %s at %u:%u, got %s at %u:%u (%s)", i, c->rule, (unsigned)c->line, (unsigned)c->col,
              ast->ndiags ? ast->diags[0].rule : "none", ast->ndiags ? (unsigned)ast->diags[0].loc.line : 0,
              ast->ndiags ? (unsigned)ast->diags[0].loc.col : 0, ast->ndiags ? ast->diags[0].msg : "");
    pa_ast_free(ast);
  }
}

static void test_error_limits(void) {
  /* nesting limit */
  char deep[1200];
  size_t n = 0;
  n += (size_t)snprintf(deep, sizeof deep, "pto.foo ");
  for (int i = 0; i < 300; i++) deep[n++] = '(';
  for (int i = 0; i < 300; i++) deep[n++] = ')';
  deep[n++] = '\n';
  pa_ast *ast;
  CHECK(pa_parse("deep", deep, n, NULL, &ast) == 1 && !strcmp(ast->diags[0].rule, "parse.too_deep"));
  pa_ast_free(ast);
  pa_limits lim = {0, 10, 0};
  static const char nested[] = "pto.f : !pto.ptr<!pto.ptr<!pto.ptr<!pto.ptr<!pto.ptr<!pto.ptr<!pto.ptr<!pto.ptr<"
                               "!pto.ptr<!pto.ptr<!pto.ptr<f32>>>>>>>>>>>\n";
  CHECK(pa_parse("deep", nested, sizeof nested - 1, &lim, &ast) == 1 && !strcmp(ast->diags[0].rule, "parse.too_deep"));
  CHECK(ast->diags[0].loc.col == 99);
  pa_ast_free(ast);
  /* size limit */
  lim = (pa_limits){10, 0, 0};
  CHECK(pa_parse("big", "return\nreturn\nreturn\n", 21, &lim, &ast) == 1 && !strcmp(ast->diags[0].rule, "parse.too_large"));
  CHECK(ast->module && ast->len == 0);
  pa_ast_free(ast);
  /* error cap: the parse stops with a final note */
  lim = (pa_limits){0, 0, 3};
  CHECK(pa_parse("many", "pto.a ,\npto.a ,\npto.a ,\npto.a ,\npto.a ,\n", 40, &lim, &ast) == 4);
  CHECK(ast->ndiags == 4 && !strcmp(ast->diags[3].rule, "parse.too_many_errors"));
  pa_ast_free(ast);
  /* The cap reached while an op name is looked at (the bad byte after it): the parse
   * stops without the half-read statement (its text would have started after the
   * consumed text: a length of 2^32 - 1 before, found by fuzz_parse). */
  lim = (pa_limits){0, 0, 1};
  pa_parse("stop", "return\nf.\x01\n", 10, &lim, &ast);
  const pa_block *top = ast->module && ast->module->nregions ? &ast->module->regions[0].blocks[0] : NULL;
  CHECK(top && top->nops == 1 && top->ops[0].text.n == 6);
  pa_ast_free(ast);
}

/* One file with five broken statements: all five reported, the rest still parsed. */
static void test_multi_errors(void) {
  char path[512];
  snprintf(path, sizeof path, "%s/tests/parse/err_multi.pto", PTOSIM_SOURCE_DIR);
  size_t n;
  char *text = read_file(path, &n);
  CHECK(text != NULL);
  if (!text) return;
  pa_ast *ast = parse_text("err_multi.pto", text, n, 1);
  free(text);
  static const err_case want[] = {{NULL, "parse.expected_token", 6, 25}, {NULL, "parse.bad_type", 10, 39},
                                  {NULL, "parse.bad_type", 12, 79},      {NULL, "parse.expected_op", 14, 14},
                                  {NULL, "parse.expected_token", 21, 5}};
  CHECK_MSG(ast->ndiags == 5 && ast->nerrors == 5, "%u diagnostics", (unsigned)ast->ndiags);
  for (uint32_t i = 0; i < 5 && i < ast->ndiags; i++)
    CHECK_MSG(!strcmp(ast->diags[i].rule, want[i].rule) && ast->diags[i].loc.line == want[i].line &&
                  ast->diags[i].loc.col == want[i].col,
              "diag %u: %s at %u:%u", i, ast->diags[i].rule, (unsigned)ast->diags[i].loc.line,
              (unsigned)ast->diags[i].loc.col);
  CHECK(op_named(ast, "arith.subi", 0) && op_named(ast, "pto.wait_flag", 0) && op_named(ast, "return", 1));
  CHECK(pa_str_is(ast->diags[0].op, "arith.muli") && pa_str_is(ast->diags[1].op, "func.func"));
  CHECK(pa_str_is(ast->diags[2].op, "pto.alloc_tile") && ast->diags[3].op.n == 0 && pa_str_is(ast->diags[4].op, "pto.set_flag"));
  /* the printed form: three lines per diagnostic */
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  CHECK(pa_print_diags(ast, f) == 5);
  fclose(f);
  CHECK(strstr(buf, "err_multi.pto:10:39: error: unknown !pto.ptr memory space [parse.bad_type]\n"
                    "    func.func @second(%p: !pto.ptr<f32, hbm>) {\n"
                    "                                        ^\n"
                    "  hint: use gm, ub,") != NULL);
  free(buf);
  pa_ast_free(ast);
}

static void test_diag_format(void) {
  char buf[1024];
  static const char src[] = "first\n\tpto.x\t%a, $\nthird";
  size_t ln;
  const char *l2 = pa_source_line(src, sizeof src - 1, 2, &ln);
  CHECK(l2 && ln == 12 && !memcmp(l2, "\tpto.x\t%a, $", 12));
  CHECK(pa_source_line(src, sizeof src - 1, 4, &ln) == NULL && pa_source_line(src, sizeof src - 1, 0, &ln) == NULL);
  size_t n = pa_diag_format(buf, sizeof buf, "k.pto", 2, 12, "error", "unexpected character '$'", "parse.bad_char",
                            "remove it", l2, ln);
  CHECK(n == strlen(buf) && !strcmp(buf, "k.pto:2:12: error: unexpected character '$' [parse.bad_char]\n"
                                         "  \tpto.x\t%a, $\n"
                                         "  \t     \t    ^\n"
                                         "  hint: remove it\n"));
  n = pa_diag_format(buf, 20, "k.pto", 1, 1, "warning", "m", NULL, NULL, NULL, 0);
  CHECK(n == strlen("k.pto:1:1: warning: m\n") && strlen(buf) == 19);
  /* UTF-8 before the column counts one column per character */
  static const char u[] = "%\xC3\xA9 = x";
  pa_diag_format(buf, sizeof buf, "u", 1, 5, "error", "m", "r", "", u, sizeof u - 1);
  CHECK(strstr(buf, "\n     ^\n") != NULL);
  /* a long line is shown as a window around the column */
  char longl[600];
  memset(longl, 'a', sizeof longl);
  longl[500] = 'Z';
  pa_diag_format(buf, sizeof buf, "l", 1, 501, "error", "m", "r", NULL, longl, sizeof longl);
  const char *caret = strchr(strchr(buf, '\n') + 1, '\n') + 1;
  const char *z = strchr(buf, 'Z');
  CHECK(z && strstr(buf, "  ...") && strchr(caret, '^') - caret == z - (strchr(buf, '\n') + 1));
}

/* ---- robustness ------------------------------------------------------------------------------- */

/* Mutated fixtures (byte flips, insertions of syntax characters, truncation) must never crash
 * (this binary also runs under ASan/UBSan) and must report errors with valid positions. */
static void test_mutations(void) {
  static const char *const files[] = {"micro.pto", "tile.pto", "control.pto", "types.pto"};
  static const char syntax[] = "(){}[]<>%@#!^:,=\"-?x0 \n";
  unsigned long long seed = 0x9E3779B97F4A7C15ull;
  int with_errors = 0, runs = 0;
  for (int fi = 0; fi < 4; fi++) {
    char path[512];
    snprintf(path, sizeof path, "%s/tests/parse/%s", PTOSIM_SOURCE_DIR, files[fi]);
    size_t n;
    char *orig = read_file(path, &n);
    if (!orig) continue;
    char *buf = malloc(n + 16);
    for (int k = 0; k < 400; k++, runs++) {
      memcpy(buf, orig, n);
      size_t len = n;
      int edits = 1 + (int)(pt_rand_u64(&seed) % 4);
      for (int e = 0; e < edits; e++) {
        size_t pos = (size_t)(pt_rand_u64(&seed) % len);
        unsigned r = (unsigned)(pt_rand_u64(&seed) % 3);
        if (r == 0) buf[pos] = (char)pt_rand_u64(&seed);
        else if (r == 1) buf[pos] = syntax[pt_rand_u64(&seed) % (sizeof syntax - 1)];
        else len = pos + 1;
      }
      pa_ast *ast;
      int nerr = pa_parse("mut", buf, len, NULL, &ast);
      CHECK(ast && nerr >= 0 && (uint32_t)nerr == ast->nerrors);
      with_errors += nerr > 0;
      for (uint32_t d = 0; d < ast->ndiags; d++) {
        size_t ll;
        const char *line = pa_source_line(ast->text, ast->len, ast->diags[d].loc.line, &ll);
        CHECK_MSG(line && ast->diags[d].loc.col >= 1 && ast->diags[d].loc.col <= ll + 1,
                  "diag %s at %u:%u outside the text", ast->diags[d].rule, (unsigned)ast->diags[d].loc.line,
                  (unsigned)ast->diags[d].loc.col);
        CHECK(line == NULL || (size_t)(line - ast->text) == ast->diags[d].line_off);
      }
      pa_ast_free(ast);
    }
    free(buf);
    free(orig);
  }
  CHECK(runs == 1600 && with_errors > 800);
}

/* ---- concurrency: no global state -------------------------------------------------------------- */

typedef struct thread_arg {
  const char *text;
  size_t len;
  char *dump;
  size_t dump_len;
} thread_arg;

static void *parse_thread(void *p) {
  thread_arg *a = p;
  FILE *f = open_memstream(&a->dump, &a->dump_len);
  for (int i = 0; i < 20; i++) {
    pa_ast *ast;
    if (pa_parse("t", a->text, a->len, NULL, &ast) == 0 && i == 19) pa_dump(ast->module, f);
    pa_ast_free(ast);
  }
  fclose(f);
  return NULL;
}

static void test_threads(void) {
  char path[512];
  snprintf(path, sizeof path, "%s/tests/parse/micro.pto", PTOSIM_SOURCE_DIR);
  size_t n;
  char *text = read_file(path, &n);
  if (!text) return;
  thread_arg args[4];
  pthread_t th[4];
  for (int i = 0; i < 4; i++) {
    args[i] = (thread_arg){text, n, NULL, 0};
    CHECK(pthread_create(&th[i], NULL, parse_thread, &args[i]) == 0);
  }
  for (int i = 0; i < 4; i++) pthread_join(th[i], NULL);
  for (int i = 0; i < 4; i++)
    CHECK(args[i].dump_len > 1000 && args[i].dump_len == args[0].dump_len && !memcmp(args[i].dump, args[0].dump, args[0].dump_len));
  for (int i = 0; i < 4; i++) free(args[i].dump);
  free(text);
}

/* ---- external corpus ---------------------------------------------------------------------------- */

typedef struct corpus {
  int files, failed;
} corpus;

static void parse_tree(const char *dir, corpus *c) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    struct stat st;
    if (stat(path, &st)) continue;
    size_t nl = strlen(e->d_name);
    if (S_ISDIR(st.st_mode)) {
      parse_tree(path, c);
    } else if (nl > 4 && !strcmp(e->d_name + nl - 4, ".pto")) {
      size_t n;
      char *text = read_file(path, &n);
      pa_ast *ast;
      int err = text ? pa_parse(path, text, n, NULL, &ast) : -1;
      c->files++;
      if (err) {
        c->failed++;
        if (ast) pa_print_diags(ast, stderr);
      }
      if (text) pa_ast_free(ast);
      free(text);
    }
  }
  closedir(d);
}

static void test_corpus(void) {
  const char *dir = getenv("PTOSIM_CORPUS");
  if (!dir || !*dir) return;
  corpus c = {0, 0};
  parse_tree(dir, &c);
  fprintf(stderr, "corpus %s: %d .pto files, %d with parse errors\n", dir, c.files, c.failed);
  CHECK(c.files > 0 && c.failed == 0);
}

/* !pto.local_array<dims x T> and !pto.eventid_array<N>: dims, element, canonical print; a
 * trailing loc(...) is dropped; zero or dynamic dims, a non-scalar element or two eventid
 * counts are parse.bad_type. */
static void test_array_types(void) {
  const char *ok = "pto.a : !pto.local_array<8x4xf32>, !pto.eventid_array<3>, !pto.local_array<2xui16> loc(\"x(\")\n";
  pa_ast *ast = parse_text("arr.pto", ok, strlen(ok), 0);
  const pa_op *a = ast ? op_named(ast, "pto.a", 0) : NULL;
  if (a && a->ntypes == 3) {
    const pa_type *t = a->types[0].type;
    CHECK(t->kind == PA_TY_LOCAL_ARRAY && t->rank == 2 && t->dims[0] == 8 && t->dims[1] == 4 && t->elem->fk == PA_F32);
    CHECK(type_is(t, "!pto.local_array<8x4xf32>") && type_is(a->types[1].type, "!pto.eventid_array<3>"));
    CHECK(type_is(a->types[2].type, "!pto.local_array<2xui16>") && !pa_type_equal(t, a->types[2].type));
  } else {
    CHECK_MSG(0, "pto.a has %u types", a ? a->ntypes : 0);
  }
  pa_ast_free(ast);
  /* a loc( whose string runs into the next line is not a location: nothing is skipped, and
   * the diagnostics keep their lines (a fuzz find: the skip used to cross the newline) */
  const char *open_loc = "pto.c loc(\"a\n) }\n";
  ast = parse_text("loc.pto", open_loc, strlen(open_loc), 1);
  for (uint32_t i = 0; ast && i < ast->ndiags; i++)
    CHECK_MSG(ast->diags[i].line_off == (ast->diags[i].loc.line == 1 ? 0u : 13u) &&
                  ast->diags[i].loc.col <= (ast->diags[i].loc.line == 1 ? 13u : 5u),
              "diag %u at %u:%u, line offset %u", i, ast->diags[i].loc.line, ast->diags[i].loc.col, ast->diags[i].line_off);
  CHECK(ast && ast->ndiags > 0);
  pa_ast_free(ast);
  const char *bad[] = {"pto.b : !pto.local_array<0xi32>\n", "pto.b : !pto.local_array<?xi32>\n",
                       "pto.b : !pto.local_array<4x!pto.align>\n", "pto.b : !pto.eventid_array<2x2>\n"};
  for (int i = 0; i < 4; i++) {
    ast = parse_text("bad.pto", bad[i], strlen(bad[i]), 1);
    CHECK_MSG(ast && ast->ndiags && !strcmp(ast->diags[0].rule, "parse.bad_type"), "case %d", i);
    pa_ast_free(ast);
  }
}

int main(void) {
  RUN(test_micro);
  RUN(test_tile);
  RUN(test_control);
  RUN(test_types);
  RUN(test_array_types);
  RUN(test_type_roundtrip);
  RUN(test_layout_and_accessors);
  RUN(test_error_table);
  RUN(test_error_limits);
  RUN(test_multi_errors);
  RUN(test_diag_format);
  RUN(test_mutations);
  RUN(test_threads);
  RUN(test_corpus);
  return pt_test_finish();
}
