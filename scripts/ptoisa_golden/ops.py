"""How each pto-isa CPU test case becomes a ptosim tile program (see run.py).

A maker takes one case entry of gen_data.py (its parameter object or tuple) and the case
directory, and returns a Spec (tiles + one op) or a string saying why the case is skipped.
Tile shapes, valid shapes and layouts follow the op's <op>_kernel.cpp in pto-isa.
"""
import os

import types

import numpy as np
import ml_dtypes

NP = {"f32": np.float32, "f16": np.float16, "bf16": ml_dtypes.bfloat16, "i8": np.int8, "ui8": np.uint8,
      "i16": np.int16, "ui16": np.uint16, "i32": np.int32, "ui32": np.uint32, "i64": np.int64,
      "ui64": np.uint64}
ES = {k: np.dtype(v).itemsize for k, v in NP.items()}
BOTH = ("a5", "a2a3")


def dt(x):
    """ptosim dtype name of a numpy dtype / type / 'bfloat16'."""
    if str(x) == "bfloat16" or getattr(x, "__name__", "") == "bfloat16":
        return "bf16"
    return {np.dtype(v): k for k, v in NP.items()}[np.dtype(x)]


class Tile:
    """A UB tile loaded from / stored to a GM file. The GM array is grows x gcols elements
    (row-major); the tile's valid region is its top-left vr x vc part."""

    def __init__(self, name, dtype, rows, cols, vr=None, vc=None, file=None, layout="row_major",
                 gcols=None, grows=None, is_input=True, golden="golden.bin", ncmp=None, dn=False, preload=False, dyn=False, init=None):
        self.name, self.dtype, self.rows, self.cols = name, dtype, rows, cols
        self.vr, self.vc = rows if vr is None else vr, cols if vc is None else vc
        self.preload = preload or bool(init)  # an output the kernel TLOADs (from its GM array) before the op
        self.init = init  # the input file the output's GM array starts as (else zeros)
        self.dyn = dyn  # valid shape given at run time (the kernel's Tile<..., -1, -1>), not in the type
        self.file, self.layout, self.is_input = file, layout, is_input
        self.gcols, self.grows = self.vc if gcols is None else gcols, self.vr if grows is None else grows
        self.golden = golden
        self.ncmp = ncmp  # compare only the first ncmp elements of the valid region (row-major)
        self.dn = dn  # GM view is DN (column-major: element (r, c) at c * grows + r), as a col-major tile needs

    def type(self):
        v = ("?", "?") if self.dyn else (self.vr, self.vc)
        return (f"!pto.tile_buf<loc=vec, dtype={self.dtype}, rows={self.rows}, cols={self.cols}, "
                f"v_row={v[0]}, v_col={v[1]}, blayout={self.layout}, slayout=none_box, fractal=512, pad=0>")

    def gm_elems(self):
        return self.grows * self.gcols

    def read_valid(self, d):
        return self._valid(np.fromfile(os.path.join(d, self.file), dtype=NP[self.dtype]))

    def read_golden(self, d):
        return self._valid(np.fromfile(os.path.join(d, self.golden), dtype=NP[self.dtype]))

    def read_whole(self, d, golden=False):
        """The whole GM array (as pto-isa's main.cpp compares it: valid region and the rest)."""
        a = np.fromfile(os.path.join(d, self.golden if golden else self.file), dtype=NP[self.dtype])
        n = self.gm_elems()
        return np.concatenate([a, np.zeros(n - len(a), a.dtype)]) if len(a) < n else a[:n]

    def _valid(self, a):
        n = self.gm_elems()
        if len(a) < n:
            a = np.concatenate([a, np.zeros(n - len(a), a.dtype)])  # short golden: shows as mismatches
        return a[:n].reshape(self.grows, self.gcols)[: self.vr, : self.vc].ravel()[: self.ncmp]


class Spec:
    """One op on tiles: `ins` / `outs` are Tiles or ("%name", type, value) scalars; the op is
    spelled `pto.OP ins(a, b ATTR_IN : types) outs(d : types) ATTR_OUT`. `then`: further
    (op, ins, outs) steps run after it in order (the composite kernels); the outputs compared
    are the last step's."""

    def __init__(self, op, ins, outs, attr_in="", attr_out="", profiles=BOTH, then=()):
        self.steps = [(op, ins, outs, attr_in, attr_out)] + [(o, i, d, "", "") for o, i, d in then]
        self.profiles = profiles
        for t in (t for step in self.steps for t in step[2]):
            if isinstance(t, Tile):
                t.is_input = False
        self.outputs = [t for t in self.steps[-1][2] if isinstance(t, Tile) and t.file]

    def operands(self):
        return [x for step in self.steps for x in step[1] + step[2]]

    def tiles(self):
        seen = []
        for t in self.operands():
            if isinstance(t, Tile) and t not in seen:
                seen.append(t)
        return seen

    def gm_args(self):
        return [t for t in self.tiles() if t.file and (t.is_input or t in self.outputs)]

    def program(self, profile):
        args = self.gm_args()
        L = [f'module attributes {{pto.target_arch = "{profile}", pto.kernel_kind = #pto.kernel_kind<vector>}} {{',
             "  func.func @case(" + ", ".join(f"%g{i}: !pto.ptr<{t.dtype}>" for i, t in enumerate(args))
             + ") attributes {pto.kernel} {"]
        consts = sorted({1} | {v for t in args for v in (t.gcols, t.grows)} | {v for t in self.tiles() for v in (t.vr, t.vc)})
        L += [f"    %c{v} = arith.constant {v} : index" for v in consts]
        for s in dict.fromkeys(s for s in self.operands() if isinstance(s, tuple)):
            L.append(f"    {s[0]} = arith.constant {s[2]} : {s[1]}")
        for i, t in enumerate(args):
            strides = f"[%c1, %c{t.grows}] {{layout = #pto.layout<dn>}}" if t.dn else f"[%c{t.gcols}, %c1]"
            L.append(f"    %v{i} = pto.make_tensor_view %g{i}, shape = [%c{t.vr}, %c{t.vc}], strides = "
                     f"{strides} : !pto.tensor_view<?x?x{t.dtype}>")
        for t in self.tiles():
            valid = f" valid_row = %c{t.vr} valid_col = %c{t.vc}" if t.dyn else ""
            L.append(f"    %{t.name} = pto.alloc_tile{valid} : {t.type()}")
        for i, t in enumerate(args):
            if t.is_input or t.preload:
                L.append(f"    pto.tload ins(%v{i} : !pto.tensor_view<?x?x{t.dtype}>) outs(%{t.name} : {t.type()})")
        L += ["    pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]", "    pto.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]"]

        def names(xs):  # a str entry of ins (a mask axis, `"col"`) is spelled after the types only
            return ", ".join(f"%{x.name}" if isinstance(x, Tile) else x[0] for x in xs if not isinstance(x, str))

        def types(xs):
            return ", ".join(x.type() if isinstance(x, Tile) else x if isinstance(x, str) else x[1] for x in xs)
        for op, ins, outs, attr_in, attr_out in self.steps:
            ai, ao = f" {attr_in}" if attr_in else "", f" {attr_out}" if attr_out else ""
            L.append(f"    pto.{op} ins({names(ins)}{ai} : {types(ins)}) outs({names(outs)} : {types(outs)}){ao}")
        L += ["    pto.barrier #pto.pipe<PIPE_ALL>"]
        for i, t in enumerate(args):
            if not t.is_input:
                L.append(f"    pto.tstore ins(%{t.name} : {t.type()}) outs(%v{i} : !pto.tensor_view<?x?x{t.dtype}>)")
        L += ["    return", "  }", "}", ""]
        return "\n".join(L)


# --- makers ------------------------------------------------------------------------------

def tsort32(c, d):
    """tsort32_kernel.cpp: src / idx kTRows x kTCols (= rows x cols), dst rows x cols*8/es,
    tmp 1 x 32; golden = per row the (value, u32 index) tuples of the valid columns."""
    t = dt(c.data_type)
    k = 8 // ES[t]
    src = Tile("src", t, c.rows, c.cols, file="input0.bin")
    idx = Tile("idx", "ui32", c.rows, c.cols, file="input1.bin")
    dst = Tile("dst", t, c.rows, c.cols * k, file="out.bin")
    tmp = Tile("tmp", t, 1, 32)
    ins = [src, idx] + ([tmp] if c.cols % 32 else [])
    return Spec("tsort32", ins, [dst])


def tmrgsort(c, d):
    """tmrgsort_kernel.cpp RunTMrgsortSingle: src / dst 1 x src0_col of T (uint16_t stands for
    half), TMRGSORT(dst, src, blockLen) = format 1. The multi-list / exhausted / top-k cases use
    format 2 (2-4 source tiles), which ptosim's text form does not spell (C API only)."""
    if c.input_num != 1 or not c.case_name.startswith("TMRGSORTTest.case_single"):
        return "format 2 (multi-list) tmrgsort: C API only in ptosim"
    t = dt(c.data_type)
    src = Tile("src", t, 1, c.src0_col, file="input0.bin")
    dst = Tile("dst", t, 1, c.src0_col, file="out.bin")
    return Spec("tmrgsort", [src, ("%bl", "i32", c.block_len)], [dst])


def tci(c, d):
    """tci_kernel.cpp: dst 1 x 16 i32, TCI<.., descending>(dst, start); case = (name, start, desc)."""
    dst = Tile("dst", "i32", 1, 16, file="out.bin")
    return Spec("tci", [("%s", "i32", c[1])], [dst], attr_in="{descending = %s}" % str(c[2]).lower())


MASK = {1: "P0101", 2: "P1010", 3: "P0001", 4: "P0010", 5: "P0100", 6: "P1000", 7: "P1111"}
KEEP = {1: 2, 2: 2, 3: 4, 4: 4, 5: 4, 6: 4, 7: 1}  # one of every KEEP elements is selected


def tgather(c, d):
    """tgather_kernel.cpp. runTGATHER (mask form): src (R+5) x (C+32) valid R x C, dst R x C,
    golden = the selected columns of every row, packed. runTGather1D (index form): src0 tile =
    the whole src0 array, indices / dst / tmp src1-shaped (the NPU kernels: index type src1type,
    src0_row x src0_col, src1_row x src1_col)."""
    if getattr(c, "gather_col", False):
        return "GATHER_COL cases of tgather_kernel.cpp: not mapped (tcolgather covers the col axis)"
    if hasattr(c, "pattern"):
        t = dt(c.src_type)
        src = Tile("src", t, c.row + 5, c.col + 32, c.row, c.col, file="x1_gm.bin", gcols=c.col)
        dst = Tile("dst", t, c.row, c.col, file="out.bin", ncmp=c.row * c.col // KEEP[c.pattern])
        return Spec("tgather", [src], [dst], attr_in="{maskPattern = #pto.mask_pattern<%s>}" % MASK[c.pattern])
    if hasattr(c, "kvalue"):
        return "compare-form TGATHER (kvalue / cmpmode): no ptosim op"
    t, it = dt(attr(c, "src_type", "src0type")), dt(attr(c, "src1type", default=np.int32))
    src = Tile("src", t, *pick(c, (("src_row", "src_col"), ("src0_row", "src0_col"))), file="src0.bin")
    shape = pick(c, (("dst_row", "dst_col"), ("src1_row", "src1_col")))
    idx, tmp = Tile("idx", it, *shape, file="src1.bin"), Tile("tmp", it, *shape)
    dst = Tile("dst", t, *shape, file="out.bin")
    return Spec("tgather", [src, idx, tmp], [dst])


def tgatherb(c, d):
    """tgatherb_kernel.cpp: src src_s1 x src_s0, offsets (u32) offset_s1 x offset_s0, dst dst_s1 x dst_s0."""
    t = dt(c.dtype)
    src = Tile("src", t, c.src_s1, c.src_s0, file="x.bin")
    off = Tile("off", "ui32", c.offset_s1, c.offset_s0, file="offset.bin")
    dst = Tile("dst", t, c.dst_s1, c.dst_s0, file="out.bin")
    return Spec("tgatherb", [src, off], [dst])


def tscatter(c, d):
    """tscatter_kernel.cpp runTScatter: src / dst row x col (dst not loaded), indexes
    idx_row x idx_col (the NPU kernels' files: input.bin, indexes.bin). runTScatterMask:
    TSCATTER<maskPattern> (row axis), src row x col, dst row x dst_col, dst not loaded."""
    if not hasattr(c, "idx_type"):
        t = dt(c.data_type)
        src = Tile("src", t, c.row, c.col, file="input.bin")
        dst = Tile("dst", t, c.row, c.dst_col, file="out.bin")
        return Spec("tscatter", [src, '"row"'], [dst], attr_in="{maskPattern = #pto.mask_pattern<%s>}" % c.pattern)
    t = dt(c.data_type)
    src = Tile("src", t, c.row, c.col, file=first(d, ("input1.bin", "input.bin")))
    idx = Tile("idx", dt(c.idx_type), c.idx_row, c.idx_col, file=first(d, ("input2.bin", "indexes.bin")))
    dst = Tile("dst", t, c.row, c.col, file="out.bin")
    return Spec("tscatter", [src, idx], [dst])


def ttri(c, d):
    """ttri_kernel.cpp: dst tile_row x tile_col, valid valid_row x valid_col, TTRI<.., isUpperOrLower>(dst, diagonal)."""
    dst = Tile("dst", dt(c.dtype), c.tile_row, c.tile_col, c.valid_row, c.valid_col, file="out.bin")
    return Spec("ttri", [("%dg", "i32", c.diagonal)], [dst], attr_in="{upperOrLower = %d : i32}" % c.isUpperOrLower)


def tpart(op):
    """tpart*_kernel.cpp: src0 / src1 / dst H x W tiles; src1's valid region VALID_H x VALID_W
    (loaded from the H x W file); dst valid H x W. Cases: module constants, or (dtype, low,
    high, name) tuples."""
    def make(c, d):
        t = dt(c[0]) if isinstance(c, tuple) else "f32"
        H, W, vh, vw = (64, 64, 32, 32) if isinstance(c, tuple) else (c.H, c.W, c.VALID_H, c.VALID_W)
        if op.startswith("tpartarg"):
            s0, s1 = Tile("s0", t, H, W, file="input0_val.bin"), Tile("s1", t, H, W, vh, vw, file="input1_val.bin", gcols=W)
            i0 = Tile("i0", "ui32", H, W, file="input0_idx.bin")
            i1 = Tile("i1", "ui32", H, W, vh, vw, file="input1_idx.bin", gcols=W)
            dv = Tile("dv", t, H, W, file="out_val.bin", golden="golden_val.bin")
            di = Tile("di", "ui32", H, W, file="out_idx.bin", golden="golden_idx.bin")
            return Spec(op, [s0, s1, i0, i1], [dv, di])
        s0, s1 = Tile("s0", t, H, W, file="input1.bin"), Tile("s1", t, H, W, vh, vw, file="input2.bin", gcols=W)
        return Spec(op, [s0, s1], [Tile("dst", t, H, W, file="out.bin")])
    return make


def tpairreducesum(c, d):
    """tpairreducesum_kernel.cpp: src and dst row x col tiles with static valid row x col; golden
    dst(r, c) = src(r, 2c) + src(r, 2c+1) for c < col/2, zeros after."""
    t = dt(c.dtype)
    return Spec("tpairreducesum", [Tile("src", t, c.row, c.col, file="input.bin")],
                [Tile("dst", t, c.row, c.col, file="out.bin")])


def tinterleave(op):
    """t(de)interleave_kernel.cpp: row x col tiles. pto-isa's C++ order is T<OP>(dst1, dst0,
    src1, src0) (common/pto_instr.hpp); the kernel binds src0 = input0.bin, src1 = input1.bin
    and compares dst0 with dst0.bin, dst1 with dst1.bin. ptosim's text order is ins(src0, src1)
    outs(dst0, dst1) (include/ptosim/tile_interleave.h), so operands map by name. tdeinterleave
    mode 1: one row x 2col source (src.bin). A5 only."""
    def make(c, d):
        t = dt(c.dtype)
        d0 = Tile("d0", t, c.row, c.col, file="out0.bin", golden="dst0.bin")
        d1 = Tile("d1", t, c.row, c.col, file="out1.bin", golden="dst1.bin")
        if getattr(c, "mode", 0):
            return Spec(op, [Tile("src", t, c.row, 2 * c.col, file="src.bin")], [d0, d1], profiles=("a5",))
        s0, s1 = Tile("s0", t, c.row, c.col, file="input0.bin"), Tile("s1", t, c.row, c.col, file="input1.bin")
        return Spec(op, [s0, s1], [d0, d1], profiles=("a5",))
    return make


def tdequant(c, d):
    """tdequant_kernel.cpp: src / dst row x col valid valid_row x valid_col, scale / offset
    row x 1 col-major f32 tiles."""
    src = Tile("src", dt(c.src_type), c.row, c.col, c.valid_row, c.valid_col, file="input.bin", gcols=c.col)
    sc = Tile("sc", "f32", c.row, 1, file="scale.bin", layout="col_major")
    of = Tile("of", "f32", c.row, 1, file="offset.bin", layout="col_major")
    dst = Tile("dst", "f32", c.row, c.col, c.valid_row, c.valid_col, file="out.bin", gcols=c.col, grows=c.row)
    return Spec("tdequant", [src, sc, of], [dst])


def scalar(path, t):
    """The first element of a .bin file as a text literal of ptosim dtype t."""
    v = np.fromfile(path, dtype=np.uint16 if t == "bf16" else NP[t])[0]
    if t == "bf16":
        v = np.array([int(v) << 16], np.uint32).view(np.float32)[0]
    return float_lit(v, t) if t in ("f32", "f16", "bf16") else str(int(v))


def float_lit(v, t):
    """A float value as a text literal of dtype t: decimal, or its bit pattern in hex when not
    finite (MLIR's spelling of NaN / inf constants)."""
    v = np.array(v).astype(NP[t])
    if np.isfinite(v):
        return repr(float(v))
    return "0x%0*X" % (2 * ES[t], int(v.view({2: np.uint16, 4: np.uint32}[ES[t]])))


def mask_tile(name, rows, nbytes, vr, vc_bits, **kw):
    """An 8-bit predicate tile (ptosim's only mask form, spec-notes 19.1): rows x nbytes bytes,
    valid vr x ceil(vc_bits / 8) bytes. pto-isa's kernels that declare the mask with a wider
    element type (u32) use the same bytes per row."""
    return Tile(name, "ui8", rows, nbytes, vr, (vc_bits + 7) // 8, **kw)


def tcmp(op):
    """tcmp(s)_kernel.cpp: src tile_row x tile_col (valid valid_row x valid_col); tcmp's dst is a
    TDst tile tile_row x tile_col (u8 or u32) whose row r holds row r's bits, golden.bin likewise
    (row stride tile_col TDst elements); tcmps' golden packs the rows back to back (W / 8 bytes
    each), compared against dst's valid bytes of each row."""
    def make(c, d):
        t = dt(c.dtype)
        mode = (c.cmp_mode if op == "tcmp" else c.mode.replace("CmpMode::", "")).lower()
        src = Tile("s0", t, c.tile_row, c.tile_col, c.valid_row, c.valid_col, file="input1.bin", gcols=c.tile_col)
        if op == "tcmp":
            nbytes = c.tile_col * np.dtype(c.dst_dtype).itemsize
            dst = mask_tile("dst", c.tile_row, nbytes, c.valid_row, c.valid_col, file="out.bin", gcols=nbytes,
                            grows=c.tile_row)
            s1 = Tile("s1", t, c.tile_row, c.tile_col, c.valid_row, c.valid_col, file="input2.bin", gcols=c.tile_col)
        else:
            dst = mask_tile("dst", c.tile_row, c.tile_col, c.valid_row, c.valid_col, file="out.bin")
            s1 = ("%s", t, scalar(os.path.join(d, "input2.bin"), t))
        return Spec(op, [src, s1], [dst], attr_in="{cmpMode = #pto<cmp %s>}" % mode)
    return make


def tsel(c, d):
    """tsel_kernel.cpp: src0 / src1 / dst Rows x Cols (valid validRows x validCols), mask u8
    Rows x ceil32(ceil(Cols / 8)) holding ceil(validCols / 8) bytes per row (mask.bin packed),
    tmp 1 x 32 u8."""
    t = dt(c.dtype)
    mb = (c.validCols + 7) // 8
    mask = mask_tile("m", c.rows, -(-mb // 32) * 32, c.validRows, c.validCols, file="mask.bin")
    s0 = Tile("s0", t, c.rows, c.cols, c.validRows, c.validCols, file="input0.bin")
    s1 = Tile("s1", t, c.rows, c.cols, c.validRows, c.validCols, file="input1.bin")
    dst = Tile("dst", t, c.rows, c.cols, c.validRows, c.validCols, file="out.bin")
    return Spec("tsel", [mask, s0, s1, Tile("tmp", "ui8", 1, 32)], [dst])


def tsels(c, d):
    """tsels_kernel.cpp: mask u32 tile_row x tile_col (valid W / 32 words per row: here the same
    bytes as a u8 tile of 4 * tile_col columns), src / dst tile_row x tile_col, scalar from
    scalar.bin, tmp 1 x 32 u8."""
    t = dt(c.dtype)
    mask = mask_tile("m", c.tile_row, 4 * c.tile_col, c.tile_row, c.tile_col, file="mask.bin")
    src = Tile("src", t, c.tile_row, c.tile_col, c.valid_row, c.valid_col, file="input.bin", gcols=c.tile_col)
    dst = Tile("dst", t, c.tile_row, c.tile_col, c.valid_row, c.valid_col, file="out.bin", gcols=c.tile_col,
               grows=c.tile_row)
    sc = ("%s", t, scalar(os.path.join(d, "scalar.bin"), t))
    return Spec("tsels", [mask, src, Tile("tmp", "ui8", 1, 32), sc], [dst])  # text order M T t S


# --- NPU suites (tests/npu/<a5|a2a3>/src/st): elementwise makers --------------------------
# The NPU gen_data.py scripts name the same quantities in several ways; the kernels all load
# each source's valid region from a GM array, run the op, and store the valid region into a
# zeroed GM array shaped like the dst tile (main.cpp then compares that whole array).

DST = (("dst_tile_row", "dst_tile_col"), ("dst_row", "dst_col"), ("tile_row", "tile_col"), ("row", "col"))
VALID = (("valid_row", "valid_col"), ("vRow", "vCol"), ("row", "col"))


def src_shape(i):
    return ((f"src{i}_tile_row", f"src{i}_tile_col"), ("src_tile_row", "src_tile_col"), ("src_row", "src_col"),
            ("tile_row", "tile_col"), ("row", "col"))


def pick(c, pairs):
    """The first (rows, cols) attribute pair of parameter object c that exists."""
    for a, b in pairs:
        if hasattr(c, a) and hasattr(c, b):
            return getattr(c, a), getattr(c, b)
    raise AttributeError("no " + " / ".join(a for a, _ in pairs))


def dtype_of(c):
    return dt(attr(c, "dtype", "data_type", "datatype", "srctype", "test_type", "val_dtype"))


def first(d, names):
    """The first of the file names that exists in case directory d."""
    return next(n for n in names if os.path.exists(os.path.join(d, n)))


def gm_tile(name, t, shape, valid, d, sized_by, **kw):
    """A tile whose GM array is laid out as the file `sized_by` (in d) is: shaped like the tile
    if it holds rows x cols elements, else like the valid region."""
    n = os.path.getsize(os.path.join(d, sized_by)) // ES[t]
    (r, c), (vr, vc) = shape, valid
    g = (r, c) if n == r * c else (vr, vc) if n == vr * vc else (n // c, c)
    if "file" in kw:  # an output: sized_by is its golden
        kw.setdefault("golden", sized_by)
    kw.setdefault("file", sized_by)
    return Tile(name, t, r, c, vr, vc, grows=g[0], gcols=g[1], **kw)


def scalar_operand(d, t, st):
    """The op's scalar, stored in its file as st (ptosim dtype; "f32" where main.cpp reads a
    float, as tadds does for every T but the 64-bit ones); the kernel casts it to T (C
    conversion: toward zero for integers, nearest for floats)."""
    f = first(d, ("divider.bin", "input_scalar.bin", "scalar.bin", "exp.bin", "input2.bin"))
    st = st if ES[t] < 8 else t
    v = np.fromfile(os.path.join(d, f), dtype=np.uint16 if st == "bf16" else NP[st])[0]
    if st == "bf16":
        v = np.array([int(v) << 16], np.uint32).view(np.float32)[0]
    if t in ("f32", "f16", "bf16"):
        return ("%s", t, float_lit(v, t))
    return ("%s", t, str(int(v)))


PRECISION = {"texp": "exp", "tlog": "log", "tsqrt": "sqrt", "trsqrt": "rsqrt", "trecip": "recip",
             "tdiv": "div", "tdivs": "div", "tfmod": "fmod", "trem": "rem", "tpow": "pow", "tpows": "pow"}
# Cases whose high precision is a template argument in main.cpp only (not in gen_data's parameters).
# (tfmods / trems: pto-isa's C++ algorithm parameter, which the text form does not spell.)
HP_CASES = {"tpow": ("TPOWTest.case8", "TPOWTest.case9", "TPOWTest.case11"),
            "tpows": ("TPOWSTest.case8", "TPOWSTest.case9", "TPOWSTest.case11"),
            "tfmod": tuple(f"TFMODTest.case{i}" for i in (5, 10, 11, 12)),
            "trem": tuple(f"TREMTest.case{i}" for i in (5, 10, 11, 12)),
            "tdivs": ("TDIVSTest.caseHP1", "TDIVSTest.caseHP2"),
            "tfmods": ("TFMODSTest.caseHP1", "TFMODSTest.caseHP2"), "trems": ("TREMSTest.caseHP1", "TREMSTest.caseHP2")}


def high_precision(op, c, d):
    return bool(getattr(c, "high_precision", False)) or os.path.basename(d) in HP_CASES.get(op, ())


def ew(op, nsrc, scalar=None, tmp=None, src_files=None, scalar_first=lambda name: False):
    """Elementwise op: nsrc source tiles (shapes from the parameter object), then the scalar
    (scalar = its file's dtype: "T" or "f32"; before the tile where scalar_first(case name)),
    then the tmp tile the kernel passes: "dst" (dst itself, as txor's kernel does), "full" (a
    dst-shaped tile), "row" (1 x dst cols)."""
    def make(c, d):
        t = dtype_of(c)
        valid = pick(c, VALID)
        names = src_files or [("input1.bin", "input.bin", "input0.bin", "src0.bin", "base.bin"),
                              ("input2.bin", "input1.bin", "src1.bin", "exp.bin")][:nsrc]
        ins, used = [], set()
        for i, cands in enumerate(names):
            f = first(d, [n for n in cands if n not in used])
            used.add(f)
            ins.append(gm_tile(f"s{i}", t, pick(c, src_shape(i)), valid, d, f))
        if scalar:
            sc = scalar_operand(d, t, t if scalar == "T" else scalar)
            ins.insert(0, sc) if scalar_first(os.path.basename(d)) else ins.append(sc)
        dst = gm_tile("dst", t, pick(c, DST), valid, d, "golden.bin", file="out.bin")
        if tmp:
            ins.append(dst if tmp == "dst" else Tile("tmp", t, dst.rows, dst.cols, dst.vr, dst.vc) if tmp == "full"
                       else Tile("tmp", t, 1, dst.cols, 1, dst.vc))
        attr = ""
        if high_precision(op, c, d) and op not in PRECISION:
            return "high precision: no precisionType on this op in the text form"
        if high_precision(op, c, d):
            attr = "{precisionType = #pto<%s_precision high_precision>}" % PRECISION[op]
        return Spec(op, ins, [dst], attr_out=attr)
    return make


TOL_HP = 1e-7


def tol(f32, f16=None, other=0.0, hp=TOL_HP):
    """main.cpp's ResultCmp eps by element type (f32 / f16 / anything else) and highPrecision."""
    def eps(c, t, hpcase):
        if hpcase and hp is not None:
            return hp
        return f32 if t == "f32" else (f32 if f16 is None else f16) if t == "f16" else other
    return eps


# Per op, the eps main.cpp passes to ResultCmp (default 0.001; 64-bit integers ResultCmpExact).
TOL = {
    "tabs": tol(1e-4, 1e-3, 0.0), "tneg": tol(1e-4, 1e-3, 0.0),
    "texp": tol(5e-5, 5e-4, 5e-4), "tlog": tol(1e-4, 1e-3, 0.0, 1e-6),
    "tsqrt": tol(5e-5, 5e-4, 5e-4), "trsqrt": tol(5e-5, 5e-4, 5e-4),
    "tfmod": tol(5e-5, 5e-4, 5e-4), "trem": tol(5e-5, 5e-4, 5e-4),
    "trecip": tol(1e-6, 1e-5, 0.0), "tpow": tol(5e-4, 5e-5, 5e-5, None), "tpows": tol(5e-4, 5e-5, 5e-5, None),
    "tdiv": tol(1e-3), "tdivs": tol(1e-3),
    "tmaxs": tol(1e-4), "tmins": tol(1e-4), "tsels": tol(1e-4), "trowargmax": tol(1e-4, 1e-4, 1e-4),
    "trowargmin": tol(1e-4, 1e-4, 1e-4),
    **{o: tol(1e-3, 5e-3, 5e-3) for o in ("trowsum", "trowmax", "trowmin", "trowprod", "tcolsum", "tcolmax",
                                          "tcolmin", "tcolprod")},
}


def eps_of(op, c, t, d):
    """main.cpp's tolerance for op's output of ptosim dtype t in case directory d: an eps, or
    None = exact compare (ResultCmpExact)."""
    if t in ("i64", "ui64"):
        return None
    return TOL[op](c, t, high_precision(op, c, d)) if op in TOL else 1e-3


# Makers for the NPU suites where the NPU kernel differs from the CPU one (else OPS[op]):
# (op, sources, scalar file dtype, tmp) as each <op>_kernel.cpp calls it.
EW = [("tadd", 2, None, None), ("tsub", 2, None, None), ("tmul", 2, None, None), ("tdiv", 2, None, None),
      ("tmax", 2, None, None), ("tmin", 2, None, None), ("tand", 2, None, None), ("tor", 2, None, None),
      ("txor", 2, None, "dst"), ("tshl", 2, None, None), ("tshr", 2, None, None), ("tfmod", 2, None, None),
      ("trem", 2, None, "row"), ("tpow", 2, None, "full"), ("tprelu", 2, None, "full"),
      ("tadds", 1, "f32", None), ("tsubs", 1, "f32", None), ("tmuls", 1, "f32", None), ("tlrelu", 1, "f32", None),
      ("tdivs", 1, "T", None), ("tmaxs", 1, "T", None), ("tmins", 1, "T", None), ("tands", 1, "T", None),
      ("tors", 1, "T", None), ("txors", 1, "T", "dst"), ("tshls", 1, "T", None), ("tshrs", 1, "T", None),
      ("tfmods", 1, "T", None), ("trems", 1, "T", "row"), ("tpows", 1, "T", "full"),
      ("tabs", 1, None, None), ("tneg", 1, None, None), ("tnot", 1, None, None), ("trelu", 1, None, None),
      ("texp", 1, None, None), ("tlog", 1, None, None), ("tsqrt", 1, None, None), ("trsqrt", 1, None, None),
      ("trecip", 1, None, None)]


def reduce(op, binary=lambda rows, name: rows == 64):
    """trow*/tcol* reductions (<op>_kernel.cpp): src row x col (valid valid_row x valid_col;
    a2a3's tcol*: src_row x col valid src_valid_row x col) from input.bin; a row reduction
    writes a row x 16 row-major dst (valid valid_row x 1; a2a3 trowprod: a col-major dst_row x 1
    dst through a DN view) and takes a src-shaped tmp; a column reduction a 1 x col dst (valid
    1 x valid_col; a2a3's kernels TLOAD it first). tcolsum passes isBinary (with a
    (row + 1) / 2 x col tmp) where binary(rows, case name) says (A5: its 64-row tiles). The
    golden holds the valid results only (one per row / column)."""
    def make(c, d):
        t = dtype_of(c)
        (r, cl) = pick(c, src_shape(0) + (("src_row", "col"),))
        (vr, vc) = pick(c, (("src_valid_row", "col"), ("valid_row", "src_valid_col")) + VALID)
        src = gm_tile("src", t, (r, cl), (vr, vc), d, "input.bin")
        n = os.path.getsize(os.path.join(d, "golden.bin")) // ES[t]
        if op.startswith("trow"):
            dst = Tile("dst", t, c.dst_row, 1, vr, 1, file="out.bin", layout="col_major", grows=n, gcols=1,
                       dn=True) if hasattr(c, "dst_row") else Tile("dst", t, r, 16, vr, 1, file="out.bin", grows=n,
                                                                    gcols=1)
            return Spec(op, [src, Tile("tmp", t, r, cl, vr, vc)], [dst])
        dst = Tile("dst", t, 1, cl, 1, vc, file="out.bin", grows=1, gcols=n, preload=hasattr(c, "src_valid_row"))
        if op == "tcolsum" and binary(r, os.path.basename(d)):
            return Spec(op, [src, Tile("tmp", t, (r + 1) // 2, cl)], [dst], attr_in="{isBinary = true}")
        return Spec(op, [src], [dst])
    return make


def expand(op):
    """trowexpand<op> / tcolexpand<op> (<op>_kernel.cpp): the full tile (input0.bin) and dst
    dst_row x dst_col; the per-row / per-column tile (input1.bin) src1_row x src1_col (with
    src0eqdst false, gen_data swaps the names: src0_row x src0_col), for a row expand a
    col-major rows x 1 tile unless is_rowmajor (then row-major, one 32-byte block). With
    src0eqdst false the kernel passes the vector first: T<OP>(dst, vector, full). a2a3's
    trowexpand* kernels: full tile (input1.bin) and dst row x col valid valid_row x valid_col,
    per-row tile (input2.bin) ceil32(valid_row) x 1 col-major (DN GM) or, is_rowmajor,
    ceil32(valid_row) x one 32-byte block; GM layouts from the file sizes; their declTmp
    variant's tmp operand is not passed. a2a3's trowexpandmul kernel runs its uint32_t cases
    as int32_t tiles (launchTRowExpandMul*: `(int32_t*)` casts): i32 there."""
    def make(c, d):
        t = dtype_of(c)
        if not hasattr(c, "dst_row"):
            if op == "trowexpandmul" and t == "ui32":
                t = "i32"
            shape, v, k = (c.row, c.col), (c.valid_row, c.valid_col), 32 // ES[t]
            w = k if c.is_rowmajor else 1
            s0 = gm_tile("s0", t, shape, v, d, "input1.bin")
            s1 = gm_tile("s1", t, (-(-c.valid_row // k) * k, w), (c.valid_row, w), d, "input2.bin",
                         layout="row_major" if c.is_rowmajor else "col_major", dn=not c.is_rowmajor)
            dst = gm_tile("dst", t, shape, v, d, "golden.bin", file="out.bin")
            return Spec(op, [s0, s1] if c.src0eqdst else [s1, s0], [dst])
        shape = (c.dst_row, c.dst_col)
        s0 = Tile("s0", t, *shape, file="input0.bin")
        col = op.startswith("trow") and not getattr(c, "is_rowmajor", True)
        vr, vc = (c.src1_row, c.src1_col) if getattr(c, "src0eqdst", True) else (c.src0_row, c.src0_col)
        s1 = Tile("s1", t, vr, 1 if col else vc, file="input1.bin", layout="col_major" if col else "row_major",
                  dn=col)
        dst = Tile("dst", t, *shape, file="out.bin")
        return Spec(op, [s0, s1] if getattr(c, "src0eqdst", True) else [s1, s0], [dst])
    return make


def argreduce(op):
    """trowarg* / tcolarg* (<op>_kernel.cpp). Row: src src_tile_row x src_tile_col (valid
    valid_row x valid_col), index dst dst_tile_row x dst_tile_col of dst_dtype (col-major when
    one column) with valid_row x 1 valid, tmp 32 bytes (the kernel's is 1 x 8 u32; ptosim asks
    for src's element type, so 1 x 32 / sizeof(T) of T). Column: src row x col (valid
    valid_row x valid_col), u32 dst 1 x col (valid 1 x valid_col), tmp 1 x 32 of T. The forms
    that also write the values (output_val / idx cases) are C API only in ptosim."""
    def make(c, d):
        if getattr(c, "output_val", False) or getattr(c, "idx", False):
            return "value + index form: C API only in ptosim"
        if op.startswith("trow"):
            t, it = dt(c.src_dtype), dt(c.dst_dtype)
            src = gm_tile("src", t, (c.src_tile_row, c.src_tile_col), (c.valid_row, c.valid_col), d, "input.bin")
            one = c.dst_tile_col == 1
            dst = Tile("dst", it, c.dst_tile_row, c.dst_tile_col, c.valid_row, 1, file="out.bin",
                       layout="col_major" if one else "row_major", grows=c.dst_tile_row, gcols=c.dst_tile_col, dn=one)
            return Spec(op, [src, Tile("tmp", t, 1, 32 // ES[t])], [dst])
        t = dtype_of(c)
        src = gm_tile("src", t, (c.row, c.col), (c.valid_row, c.valid_col), d, "input.bin")
        n = os.path.getsize(os.path.join(d, "golden.bin")) // 4
        dst = Tile("dst", "ui32", 1, c.col, 1, c.valid_col, file="out.bin", grows=1, gcols=n)
        return Spec(op, [src, Tile("tmp", t, 1, 32)], [dst])
    return make


def attr(c, *names, default=None):
    """The first of the attributes `names` parameter object c has (else default)."""
    return next((getattr(c, n) for n in names if hasattr(c, n)), default)


def align32(cols, t):
    """cols rounded up to a whole number of 32-byte blocks of dtype t (a row-major tile's rows)."""
    k = 32 // ES[t]
    return max(k, -(-cols // k) * k)


def tci_npu(c, d):
    """tci_kernel.cpp (both NPU trees): dst 1 x N of T (N = length, or src_row * src_col),
    TCI<.., descending>(dst, start); the kernels' optional tmp operand is not passed."""
    t, n = dtype_of(c), attr(c, "length", default=None) or c.src_row * c.src_col
    desc, start = attr(c, "reverse", "descending"), attr(c, "begin", "start")
    dst = Tile("dst", t, 1, align32(n, t), 1, n, file="out.bin")
    return Spec("tci", [("%s", t, start)], [dst], attr_in="{descending = %s}" % str(bool(desc)).lower())


def ttri_npu(c, d):
    """ttri_kernel.cpp (A5): dst static_rows x ceil32(static_cols) (static = valid unless the
    dynamic cases give them), valid valid_rows x valid_cols; GM valid-shaped."""
    if hasattr(c, "tile_row"):
        return ttri(c, d)
    t, vr, vc = dtype_of(c), c.valid_rows, c.valid_cols
    rows, cols = attr(c, "static_rows", default=vr), attr(c, "static_cols", default=vc)
    dst = Tile("dst", t, rows, -(-cols // 32) * 32, vr, vc, file="out.bin")
    return Spec("ttri", [("%dg", "i32", c.diagonal)], [dst], attr_in="{upperOrLower = %d : i32}" % c.upper_or_lower)


def pairreduce_npu(c, d):
    """tpairreducesum_kernel.cpp: src src0_tile_row x src0_tile_col, dst dst_tile_row x
    dst_tile_col, both valid valid_row x valid_col with tile-shaped GM; the kernel TLOADs dst
    (zeros) before the op. Both tiles have a run-time valid shape, as the kernel's (-1, -1):
    A5's 1-D path is taken for static full-width tiles only (spec-notes TPAIRREDUCESUM)."""
    t = dtype_of(c)
    v = (c.valid_row, c.valid_col)
    src = gm_tile("src", t, (c.src0_tile_row, c.src0_tile_col), v, d, "input1.bin", dyn=True)
    dst = gm_tile("dst", t, (c.dst_tile_row, c.dst_tile_col), v, d, "golden.bin", file="out.bin", preload=True, dyn=True)
    return Spec("tpairreducesum", [src], [dst])


def interleave_npu(op):
    """t(de)interleave_kernel.cpp (A5): tile_h x tile_w tiles valid valid_row x valid_col
    (tile-shaped GM); the single-source tdeinterleave (input_interleaved.bin) writes
    valid_row x valid_col / 2. C++ order T<OP>(dst1, dst0, src1, src0) = text ins(src0, src1)
    outs(dst0, dst1) (see tinterleave)."""
    def make(c, d):
        t, shape = dtype_of(c), (c.tile_h, c.tile_w)
        one = os.path.exists(os.path.join(d, "input_interleaved.bin"))
        vo = (c.valid_row, c.valid_col // 2 if one else c.valid_col)
        outs = [gm_tile(f"d{i}", t, shape, vo, d, f"golden{i}.bin", file=f"out{i}.bin") for i in (0, 1)]
        files = ["input_interleaved.bin"] if one else ["input1.bin", "input2.bin"]
        ins = [gm_tile(f"s{i}", t, shape, (c.valid_row, c.valid_col), d, f) for i, f in enumerate(files)]
        return Spec(op, ins, outs)
    return make


def tsort32_npu(c, d):
    """tsort32_kernel.cpp: src T rows x A, idx u32 rows x A (A = (cols + 30) / 32 * 32, the
    kernel's ALIGN_C), dst T rows x 2A * 4 / sizeof(T) valid rows x cols * 8 / sizeof(T)
    ((value, u32 index) pairs, 8 bytes each), tmp 1 x A of T; GM rows x cols (dst x 8 bytes)."""
    t = dtype_of(c)
    k = 8 // ES[t]
    a = (c.cols + 30) // 32 * 32
    src = Tile("src", t, c.rows, a, c.rows, c.cols, file="input_arr.bin")
    idx = Tile("idx", "ui32", c.rows, a, c.rows, c.cols, file="input_idx.bin")
    dst = Tile("dst", t, c.rows, a * k, c.rows, c.cols * k, file="out.bin", golden="golden_output.bin")
    return Spec("tsort32", [src, idx, Tile("tmp", t, 1, a)], [dst])


def cmp_npu(op):
    """tcmp(s)_kernel.cpp (both NPU trees): src tile_row x tile_col (or row x col) of T, valid
    valid_row x valid_col clipped to the tile (a2a3's kernels use the whole tile), GM
    tile-shaped; dst a u8 bit tile rows x ceil32(cols / 8) bytes whose GM (golden.bin) packs
    each row in ceil(cols / 8) bytes. tcmps' scalar: input2.bin's first element (A5's kernel
    also has a one-element tile form, the same value)."""
    def make(c, d):
        t = dtype_of(c)
        R, C = pick(c, (("tile_row", "tile_col"), ("row", "col")))
        vr, vc = min(c.valid_row, R), min(c.valid_col, C)
        mode = attr(c, "cmp_mode", "mode").replace("CmpMode::", "").lower()
        s0 = gm_tile("s0", t, (R, C), (vr, vc), d, "input1.bin")
        nb = -(-C // 8)
        dst = mask_tile("dst", R, -(-nb // 32) * 32, vr, vc, file="out.bin", grows=R, gcols=nb)
        s1 = gm_tile("s1", t, (R, C), (vr, vc), d, "input2.bin") if op == "tcmp" else \
            ("%s", t, scalar(os.path.join(d, "input2.bin"), t))
        return Spec(op, [s0, s1], [dst], attr_in="{cmpMode = #pto<cmp %s>}" % mode)
    return make


def tsel_npu(c, d):
    """tsel_kernel.cpp (both NPU trees): src0 / src1 / dst rows x cols valid valid_rows x
    valid_cols (GM valid-shaped), mask u8 rows x ceil32(ceil(cols / 8)) valid
    ceil(valid_cols / 8) bytes a row (GM packed), tmp 1 x 32 u8."""
    t, v = dtype_of(c), (c.valid_rows, c.valid_cols)
    mask = mask_tile("m", c.rows, -(-((c.cols + 7) // 8) // 32) * 32, *v, file="mask.bin")
    s0, s1 = (gm_tile(f"s{i}", t, (c.rows, c.cols), v, d, f"input{i}.bin") for i in (0, 1))
    dst = gm_tile("dst", t, (c.rows, c.cols), v, d, "golden.bin", file="out.bin")
    return Spec("tsel", [mask, s0, s1, Tile("tmp", "ui8", 1, 32)], [dst])


def tsels_npu(c, d):
    """tsels_kernel.cpp (both NPU trees): mask of dtype_mask mask_tile_row x mask_tile_col (as
    u8: the same bytes a row, all valid), src src_tile_row x src_tile_col and dst dst_tile_row x
    dst_tile_col valid valid_row x valid_col (tile-shaped GM), scalar input2.bin, tmp 1 x 32 u8."""
    t, v = dtype_of(c), (c.valid_row, c.valid_col)
    nb = c.mask_tile_col * np.dtype(c.dtype_mask).itemsize
    mask = mask_tile("m", c.mask_tile_row, nb, c.valid_row, 8 * nb, file="mask.bin", grows=c.mask_tile_row,
                     gcols=nb)
    src = gm_tile("src", t, (c.src_tile_row, c.src_tile_col), v, d, "input1.bin")
    dst = gm_tile("dst", t, (c.dst_tile_row, c.dst_tile_col), v, d, "golden.bin", file="out.bin")
    sc = ("%s", t, scalar(os.path.join(d, "input2.bin"), t))
    return Spec("tsels", [mask, src, Tile("tmp", "ui8", 1, 32), sc], [dst])


def part_operands(c, k="val"):
    """(valid rows, valid cols, tile rows, tile cols) of dst, src0, src1 of a tpart* case, from
    the spellings of the NPU scripts: <x>_vr / <x>_vc (+ <x>_tr / <x>_tc), drows / dcols /
    d_row_stride, or the (rows, cols) size tuples of a2a3 tpartarg* (k: its "val" or "idx" tiles)."""
    if hasattr(c, "valid_size0"):
        (r0, c0), (r1, c1) = c.valid_size0, c.valid_size1
        sizes = (getattr(c, f"dst_{k}_size"), getattr(c, f"src_{k}0_size"), getattr(c, f"src_{k}1_size"))
        return [(max(r0, r1), max(c0, c1)) + sizes[0], (r0, c0) + sizes[1], (r1, c1) + sizes[2]]
    if hasattr(c, "drows"):
        return [(getattr(c, p + "rows"), getattr(c, p + "cols"), getattr(c, p + "rows"),
                 getattr(c, p + "_row_stride")) for p in ("d", "s0", "s1")]
    return [(getattr(c, x + "_vr"), getattr(c, x + "_vc"), attr(c, x + "_tr", default=getattr(c, x + "_vr")),
             attr(c, x + "_tc", default=None)) for x in ("dst", "src0", "src1")]


def tpart_npu(op):
    """tpart*_kernel.cpp (both NPU trees): dst / src0 / src1 tiles as part_operands gives (tile
    cols default: the valid cols rounded up to 32 bytes; a tile has at least one row); GM
    layout from each file's size. tpartarg*: value and u32 / index tiles of the same shapes."""
    def make(c, d):
        t = dtype_of(c)
        ops_, iops = part_operands(c), part_operands(c, "idx")
        arg = op.startswith("tpartarg")

        def tile(name, dtype, o, f, **kw):
            vr, vc, tr, tc = o
            tr = max(tr, 1)
            if not vr * vc:  # an empty region (a5's "8 x 0" of a 1-row tile): its rows within the tile
                vr = min(vr, tr)
            return gm_tile(name, dtype, (tr, tc or align32(vc, dtype)), (vr, vc), d, f, **kw)
        if not arg:
            f0, f1 = ("input0.bin", "input1.bin") if os.path.exists(os.path.join(d, "input0.bin")) else \
                ("input1.bin", "input2.bin")
            ins = [tile("s0", t, ops_[1], f0), tile("s1", t, ops_[2], f1)]
            return Spec(op, ins, [tile("dst", t, ops_[0], "golden.bin", file="out.bin")])
        it = dt(attr(c, "idx_type", "idx_dtype", default=np.uint32))
        a5 = os.path.exists(os.path.join(d, "input0_val.bin"))
        name = (lambda k, i: f"input{i}_{k}.bin") if a5 else (lambda k, i: f"src_{k}{i}.bin")
        gold = (lambda k: f"golden_{k}.bin") if a5 else (lambda k: f"dst_{k}.bin")
        ins = [tile("s0", t, ops_[1], name("val", 0)), tile("s1", t, ops_[2], name("val", 1)),
               tile("i0", it, iops[1], name("idx", 0)), tile("i1", it, iops[2], name("idx", 1))]
        outs = [tile("dv", t, ops_[0], gold("val"), file="out_val.bin", golden=gold("val")),
                tile("di", it, iops[0], gold("idx"), file="out_idx.bin", golden=gold("idx"))]
        return Spec(op, ins, outs)
    return make


def tcvt_npu(c, d):
    """tcvt_kernel.cpp (both NPU trees): src / dst m x n tiles valid valid_m x valid_n (run-time
    valid shapes when partial, as the kernels'), GM m x n; TCVT(dst, src, the case's mode)
    (CAST_ROUND for f16 -> hifloat8). Cases with golden_truncated.bin (saturation, a2a3's
    nonsattorch): main.cpp checks the SaturationMode::OFF output (and the default one) against
    it; run with sat_mode OFF (nonsattorch's tmp tile is not passed).
    bf16 as the case name and the kernel (bf16_wrapper) say: gen_data.py stands it in with
    np.float16 (its `bfloat16 = np.float16`), so its bf16 goldens are f16 conversions."""
    s, t = (dtype_of(types.SimpleNamespace(dtype=x)) for x in (c.srctype, c.dsttype))
    pair = os.path.basename(d).split("_", 1)[1]  # the type pair named by the case ("fp32_bf16_1x128")
    s, t = "bf16" if pair.startswith("bf16_") else s, "bf16" if "_bf16_" in pair else t
    part = (c.valid_m, c.valid_n) != (c.m, c.n)
    sat = os.path.exists(os.path.join(d, "golden_truncated.bin"))
    v = (c.valid_m, c.valid_n)
    src = gm_tile("src", s, (c.m, c.n), v, d, "x1_gm.bin", dyn=part)
    dst = gm_tile("dst", t, (c.m, c.n), v, d, "golden_truncated.bin" if sat else "golden.bin", file="out.bin",
                  dyn=part)
    rm = c.mode.split("::")[-1]  # the case's RoundMode (CAST_RINT, or a2a3's nonsattorch CAST_TRUNC)
    rm = "CAST_ROUND" if (s, t) == ("f16", "hif8") else rm if rm == "CAST_RINT" else rm.replace("CAST_", "")
    mode = f"rmode = #pto<round_mode {rm}>" + (", sat_mode = #pto<sat_mode OFF>" if sat else "")
    return Spec("tcvt", [src], [dst], attr_in="{%s}" % mode)


NPU = {**{o: ew(o, n, scalar=s, tmp=tmp) for o, n, s, tmp in EW},
       **{o: argreduce(o) for o in ("trowargmax", "trowargmin", "tcolargmax", "tcolargmin")},
       **{o: expand(o) for o in ("trowexpandadd", "trowexpandsub", "trowexpandmul", "trowexpanddiv",
                                 "trowexpandmax", "trowexpandmin", "trowexpandexpdif", "tcolexpandadd",
                                 "tcolexpandsub", "tcolexpandmul", "tcolexpanddiv", "tcolexpandmax",
                                 "tcolexpandmin", "tcolexpandexpdif")},
       **{o: reduce(o) for o in ("trowsum", "trowmax", "trowmin", "trowprod", "tcolsum", "tcolmax", "tcolmin",
                                 "tcolprod")},
       **{o: tpart_npu(o) for o in ("tpartadd", "tpartmul", "tpartmax", "tpartmin", "tpartargmax", "tpartargmin")},
       **{o: cmp_npu(o) for o in ("tcmp", "tcmps")}, **{o: interleave_npu(o) for o in ("tinterleave", "tdeinterleave")},
       "tci": tci_npu, "ttri": ttri_npu, "tpairreducesum": pairreduce_npu, "tsort32": tsort32_npu, "tsel": tsel_npu,
       "tsels": tsels_npu, "tcvt": tcvt_npu}


# Per suite, the ops whose NPU kernel differs between the two NPU test trees.
SUITE = {"npu-a2a3": {
    # a2a3 tdivs_kernel.cpp: divider.bin is an f32; cases 10 and up are TDIVS(dst, scalar, src).
    "tdivs": ew("tdivs", 1, scalar="f32", scalar_first=lambda name: int(name.rsplit("case", 1)[1]) >= 10),
    "tmaxs": ew("tmaxs", 1, scalar="f32"),  # a2a3 gen_data packs the scalar as an f32
    # a2a3 trems main.cpp reads scalar.bin as a float for every T (the i32 kernels take it as int32_t).
    "trems": ew("trems", 1, scalar="f32", tmp="row"),
    "tmins": ew("tmin", 2),  # a2a3 tmins_kernel.cpp calls TMIN(dst, src0, src1) on two tiles
    # a2a3 tcolsum main.cpp: cases 14-26 rerun cases 1-13's parameters with IsBinary = true.
    "tcolsum": reduce("tcolsum", binary=lambda rows, name: int(name.rsplit("case", 1)[1]) > 13),
    # a2a3 texpands_kernel.cpp: runTEXPANDS(out, float scalar) for every T, scalar.bin an f32.
    "texpands": lambda c, d: texpands_npu(c, d, f32=True),
}}


def rowexpand_npu(c, d):
    """trowexpand_kernel.cpp (both NPU trees): src row x src_col valid row x src_validcol (A5:
    one column; a2a3's is_brcb cases: a col-major row x 1 src through a DN view), dst row x
    dst_col valid row x dst_valid_col; GM layouts from the file sizes."""
    t, brcb = dtype_of(c), getattr(c, "is_brcb", False)
    src = gm_tile("src", t, (c.row, c.src_col), (c.row, attr(c, "src_validcol", default=1)), d, "input.bin",
                  layout="col_major" if brcb else "row_major", dn=brcb)
    dst = gm_tile("dst", t, (c.row, c.dst_col), (c.row, c.dst_valid_col), d, "golden.bin", file="out.bin")
    return Spec("trowexpand", [src], [dst])


def colexpand_npu(c, d):
    """tcolexpand_kernel.cpp. A5: src src_row x col, dst dst_row x col, both valid_col columns.
    a2a3: src 1 x dst_col valid 1 x dst_valid_col, dst dst_row x dst_col valid dst_valid_row x
    dst_valid_col, TLOADed first. GM layouts from the file sizes."""
    t = dtype_of(c)
    if hasattr(c, "src_row"):
        src = gm_tile("src", t, (c.src_row, c.col), (c.src_row, c.valid_col), d, "input.bin")
        dst = gm_tile("dst", t, (c.dst_row, c.col), (c.dst_row, c.valid_col), d, "golden.bin", file="out.bin")
    else:
        src = gm_tile("src", t, (1, c.dst_col), (1, c.dst_valid_col), d, "input.bin")
        dst = gm_tile("dst", t, (c.dst_row, c.dst_col), (c.dst_valid_row, c.dst_valid_col), d, "golden.bin",
                      file="out.bin", preload=True)
    return Spec("tcolexpand", [src], [dst])


def texpands_npu(c, d, f32=False):
    """texpands_kernel.cpp (both NPU trees): dst tile_row x tile_col valid valid_row x
    valid_col, col-major (DN GM) when a column is whole 32-byte blocks (the kernel's
    isColMajor), GM global_row x global_col; the scalar from scalar.bin (A5: of T; a2a3: f32,
    f32 set: its kernel takes a float scalar for every T, i32 too)."""
    t = dtype_of(c)
    col = c.tile_row * ES[t] % 32 == 0
    dst = Tile("dst", t, c.tile_row, c.tile_col, c.valid_row, c.valid_col, file="out.bin", grows=c.global_row,
               gcols=c.global_col, layout="col_major" if col else "row_major", dn=col)
    sf = "f32" if f32 or (os.path.getsize(os.path.join(d, "scalar.bin")) == 4 and ES[t] != 4) else t
    return Spec("texpands", [scalar_operand(d, t, sf)], [dst])


def taxpy_npu(c, d):
    """taxpy_kernel.cpp (both NPU trees): src (input2.bin) and dst tile_row x tile_col valid
    valid_row x valid_col; dst's GM array starts as input1.bin and is TLOADed; TAXPY(dst, src,
    (T)scalar) with scalar.bin's f32: dst += src * scalar."""
    t, st = dt(attr(c, "dst_dtype", "dtype")), dt(attr(c, "src_dtype", "dtype"))
    v = (c.valid_row, c.valid_col)
    src = gm_tile("src", st, (c.tile_row, c.tile_col), v, d, "input2.bin")
    dst = gm_tile("dst", t, (c.tile_row, c.tile_col), v, d, "golden.bin", file="out.bin", init="input1.bin")
    return Spec("taxpy", [src, scalar_operand(d, t, "f32")], [dst])


def tdequant_npu(c, d):
    """tdequant_kernel.cpp. A5: as the CPU kernel (tdequant). a2a3: src src_rows x src_cols of
    src_dtype, dst dst_rows x dst_cols of dst_dtype, both valid dst_valid_rows x
    dst_valid_cols; scale / offset row-major para_rows x para_cols tiles of dst_dtype valid
    dst_valid_rows x 1; GM layouts from the file sizes."""
    if hasattr(c, "src_type"):
        return tdequant(c, d)
    td, v = dt(c.dst_dtype), (c.dst_valid_rows, c.dst_valid_cols)
    src = gm_tile("src", dt(c.src_dtype), (c.src_rows, c.src_cols), v, d, "srcInput.bin")
    sc, of = (gm_tile(n, td, (c.para_rows, c.para_cols), (v[0], 1), d, f"{f}Input.bin")
              for n, f in (("sc", "scale"), ("of", "offset")))
    dst = gm_tile("dst", td, (c.dst_rows, c.dst_cols), v, d, "golden.bin", file="out.bin")
    return Spec("tdequant", [src, sc, of], [dst])


NPU.update({"tdequant": tdequant_npu, "trowexpand": rowexpand_npu, "tcolexpand": colexpand_npu, "texpands": texpands_npu,
            "taxpy": taxpy_npu})

def concat_npu(op):
    """tconcat(idx)_kernel.cpp (both NPU trees): src0 / src1 src<k>_tile_row x src<k>_tile_col
    valid valid_row x valid_col<k>, dst dst_tile_row x dst_tile_col valid valid_row x
    dst_tile_col, TLOADed first; tconcatidx adds src-shaped index tiles of itype (src<k>_idx.bin).
    GM layouts from the file sizes. tconcatdstidx (also writing a dst index tile) has no ptosim op."""
    def make(c, d):
        if op == "tconcatdstidx":
            return "tconcatdstidx: no ptosim op"
        t, vr = dtype_of(c), c.valid_row
        files = ("input0.bin", "input1.bin") if op == "tconcatidx" else ("input1.bin", "input2.bin")
        shapes = [((getattr(c, f"src{k}_tile_row"), getattr(c, f"src{k}_tile_col")), (vr, getattr(c, f"valid_col{k}")))
                  for k in (0, 1)]
        ins = [gm_tile(f"s{k}", t, *shapes[k], d, files[k]) for k in (0, 1)]
        if op == "tconcatidx":
            ins += [gm_tile(f"i{k}", dt(c.itype), *shapes[k], d, f"src{k}_idx.bin") for k in (0, 1)]
        dst = gm_tile("dst", t, (c.dst_tile_row, c.dst_tile_col), (vr, c.dst_tile_col), d, "golden.bin",
                      file="out.bin", preload=True)
        return Spec(op, ins, [dst])
    return make


NPU.update({o: concat_npu(o) for o in ("tconcat", "tconcatidx", "tconcatdstidx")})

# The composite tests (A5): their kernels' steps, T<OP>(out, ins...). Operands: sK = inputK+1.bin
# loaded, tK = a tile of the kernel's type not loaded (valid = the whole tile), tmp = the
# intermediate, dst (valid vR x vC) / dst1 (valid vR x 1) = the output, $K = the first element
# of input(K+1).bin as the scalar.
COMPOSITE = {
    "tmul_tadds": [("tmul", "s0 s1", "tmp"), ("tadds", "tmp $2", "dst")],
    "tsub_texp": [("tsub", "s0 s1", "tmp"), ("texp", "tmp", "dst")],
    "trowexpand_trowsum": [("trowexpand", "s0", "tmp"), ("trowsum", "tmp t1", "dst1")],
    "trowsum_trowexpand": [("trowsum", "s0 s1", "tmp"), ("trowexpand", "tmp", "dst")],
    "trowexpand_tdiv": [("trowexpand", "s0", "tmp"), ("tdiv", "tmp s1", "dst")],
    "trowexpand_tsqrt": [("trowexpand", "s0", "tmp"), ("tsqrt", "tmp", "dst")],
    "tmuls_trowsum": [("tmuls", "s0 $1", "tmp"), ("trowsum", "tmp t1", "dst1")],
    "tadd_tdiv": [("tadd", "s0 s1", "tmp"), ("tdiv", "tmp s2", "dst")],
}


def composite(name):
    """<name>_kernel.cpp: every tile Tile<T, tile_row, tile_col, -1, -1> (run-time valid
    valid_row x valid_col unless COMPOSITE says otherwise), GM arrays tile-shaped (row stride
    tile_col); the steps of COMPOSITE[name]."""
    def make(c, d):
        t, shape, v = dtype_of(c), (c.tile_row, c.tile_col), (c.valid_row, c.valid_col)
        made = {}

        def operand(k):
            if k not in made:
                if k[0] == "$":
                    made[k] = ("%s", t, scalar(os.path.join(d, f"input{int(k[1]) + 1}.bin"), t))
                elif k[0] == "s":
                    made[k] = gm_tile(k, t, shape, v, d, f"input{int(k[1]) + 1}.bin", dyn=True)
                elif k[0] == "t" and k != "tmp":
                    made[k] = Tile(k, t, *shape, dyn=True)
                elif k == "tmp":
                    made[k] = Tile(k, t, *shape, *v, dyn=True)
                else:
                    made[k] = gm_tile("dst", t, shape, (v[0], 1) if k == "dst1" else v, d, "golden.bin",
                                      file="out.bin", dyn=True)
            return made[k]
        steps = [(op, [operand(k) for k in ins.split()], [operand(out)]) for op, ins, out in COMPOSITE[name]]
        return Spec(*steps[0], then=steps[1:])
    return make


NPU.update({k: composite(k) for k in COMPOSITE})

RECORDED = {"tcvt"}  # scripts whose cases are built in loops (run.py recorded)

NAMES = {
    "tpartmax": lambda i, c: f"TPARTMAX_Test.case_{c[3]}_64x64_src1_32x32",
    "tpartmin": lambda i, c: f"TPARTMIN_Test.case_{c[3]}_64x64_src1_32x32",
    "tpairreducesum": lambda i, c: f"TPAIRREDUCESUMTest.case_{i + 1}",
    "tinterleave": lambda i, c: f"TINTERLEAVETest.case_{i + 1}",
    "tdeinterleave": lambda i, c: f"TDEINTERLEAVETest.case_{i + 1}",
}

OPS = {
    "tsort32": tsort32,
    "tmrgsort": tmrgsort,
    "tci": tci,
    "tgather": tgather,
    "tgatherb": tgatherb,
    "tscatter": tscatter,
    "ttri": ttri,
    "tpartadd": tpart("tpartadd"),
    "tpartmax": tpart("tpartmax"),
    "tpartmin": tpart("tpartmin"),
    "tpartargmax": tpart("tpartargmax"),
    "tpartargmin": tpart("tpartargmin"),
    "tpairreducesum": tpairreducesum,
    "tinterleave": tinterleave("tinterleave"),
    "tdeinterleave": tinterleave("tdeinterleave"),
    "tdequant": tdequant,
    "tcmp": tcmp("tcmp"),
    "tcmps": tcmp("tcmps"),
    "tsel": tsel,
    "tsels": tsels,
}


# ---- session 12, goldc ----
# Data movement and cube tests (NPU suites). These kernels place tiles in every space (mat /
# left / right / acc / bias / scaling / vec), view GM through 5-D shapes and strides (ND / DN /
# NZ), and chain several moves; a maker builds a Prog: GM arrays, views, tiles and steps in
# the kernel's order, compared on the whole output GM array. The program has no sync ops and
# no kernel_kind: ptosim then runs it in program order on the core each op belongs to (one
# core, or the mixed in-order mode for kernels with both vec and cube tiles), which is what
# the kernel's set_flag / wait_flag pairs enforce.

class GM:
    """A GM array of the kernel: an input file, or an output (zeros or `init` file) compared as
    a whole with `golden` (main.cpp's ResultCmp over the whole array); `ncmp` limits the
    bit-exact compare to the first ncmp elements."""

    def __init__(self, name, dtype, elems, file, is_input=True, golden="golden.bin", init=None, ncmp=None, tdt=None):
        self.name, self.dtype, self.elems, self.file = name, dtype, elems, file
        self.tdt = tdt or dtype  # the element type of the program's pointer (dtype: of the file)
        self.is_input, self.golden, self.init, self.ncmp, self.preload = is_input, golden, init, ncmp, False

    def gm_elems(self):
        return self.elems

    def read_whole(self, d, golden=False):
        a = np.fromfile(os.path.join(d, self.golden if golden else self.file), dtype=NP[self.dtype])
        n = self.elems
        return np.concatenate([a, np.zeros(n - len(a), a.dtype)]) if len(a) < n else a[:n]

    def read_valid(self, d):
        return self.read_whole(d)[: self.ncmp]

    def read_golden(self, d):
        return self.read_whole(d, golden=True)[: self.ncmp]


def tbuf(loc, t, rows, cols, vr=None, vc=None, bl="row_major", sl="none_box", fractal=512, pad=0):
    """The text type of a tile (pto-isa Tile<TileType, T, rows, cols, BLayout, vr, vc, SLayout,
    fractal, pad>; vr / vc "?" = a run-time valid shape)."""
    vr, vc = rows if vr is None else vr, cols if vc is None else vc
    return (f"!pto.tile_buf<loc={loc}, dtype={t}, rows={rows}, cols={cols}, v_row={vr}, v_col={vc}, "
            f"blayout={bl}, slayout={sl}, fractal={fractal}, pad={pad}>")


# pto-isa tile kinds: TileLeft / TileRight / TileAcc etc. (common/pto_tile.hpp) as text types.
def nz_mat(t, r, c, vr=None, vc=None, pad=0):  # L1 NZ: col-major blocks, row-major inside
    return tbuf("mat", t, r, c, vr, vc, "col_major", "row_major", 512, pad)


def zn_mat(t, r, c, vr=None, vc=None, pad=0):  # L1 ZN: row-major blocks, col-major inside
    return tbuf("mat", t, r, c, vr, vc, "row_major", "col_major", 512, pad)


def left(t, r, c, vr=None, vc=None, profile="a5"):  # TileLeft: a5 col-major of row-major boxes; a2a3 zZ
    return tbuf("left", t, r, c, vr, vc, "col_major" if profile == "a5" else "row_major", "row_major")


def right(t, r, c, vr=None, vc=None):  # TileRight: row-major of col-major boxes (nZ)
    return tbuf("right", t, r, c, vr, vc, "row_major", "col_major")


def acc(t, r, c, vr=None, vc=None):  # TileAcc: NZ, 1024-byte fractal
    return tbuf("acc", t, r, c, vr, vc, "col_major", "row_major", 1024)


class Prog:
    """A kernel as ptosim text: `gms` GM arrays (arguments in order), `views` name -> (gm,
    shape, strides, layout or None), `tiles` name -> type (alloc_tile, or (type, addr) to
    place it, or (type, addr, (valid_row, valid_col)) for a run-time valid shape; addr None =
    allocated), `steps` text lines with %names (tload / tstore / ops, in the kernel's order).
    The outputs compared are the GM arrays that are not inputs."""

    def __init__(self, gms, views, tiles, steps, profiles=BOTH, pre=()):
        self.gms, self.views, self.tiles, self.steps, self.profiles, self.pre = gms, views, tiles, steps, profiles, pre
        self.outputs = [g for g in gms if not g.is_input]

    def gm_args(self):
        return self.gms

    def vtype(self, name):
        v = self.views[name]
        if v[0] == "part":  # ("part", parent view, offsets, sizes): pto.partition_view
            return "!pto.partition_tensor_view<%s%s>" % ("".join(f"{n}x" for n in v[3]), self.root(name).tdt)
        return "!pto.tensor_view<%s%s>" % ("?x" * len(v[1]), v[0].tdt)

    def root(self, name):
        v = self.views[name]
        return self.root(v[1]) if v[0] == "part" else v[0]

    def ttype(self, name):
        t = self.tiles[name]
        return t[0] if isinstance(t, tuple) else t

    def consts(self):
        nums = {v for w in self.views.values() for v in (list(w[2]) + list(w[3]) if w[0] == "part" else list(w[1]) + list(w[2]))}
        nums |= {v for t in self.tiles.values() if isinstance(t, tuple) and len(t) > 2 for v in t[2]}
        return sorted(nums | {0, 1})

    def program(self, profile):
        L = [f'module attributes {{pto.target_arch = "{profile}"}} {{',
             "  func.func @case(" + ", ".join(f"%{g.name}: !pto.ptr<{g.tdt}>" for g in self.gms)
             + ") attributes {pto.kernel} {"]
        L += [f"    %c{v} = arith.constant {v} : index" for v in self.consts()]
        L += ["    " + p for p in self.pre]
        for n, w in self.views.items():
            if w[0] == "part":
                L.append(f"    %{n} = pto.partition_view %{w[1]}, offsets = [{', '.join(f'%c{v}' for v in w[2])}], "
                         f"sizes = [{', '.join(f'%c{v}' for v in w[3])}] : {self.vtype(w[1])} -> {self.vtype(n)}")
                continue
            g, sh, st, lay = w
            ly = f" {{layout = #pto.layout<{lay}>}}" if lay else ""
            L.append(f"    %{n} = pto.make_tensor_view %{g.name}, shape = [{', '.join(f'%c{v}' for v in sh)}], "
                     f"strides = [{', '.join(f'%c{v}' for v in st)}]{ly} : {self.vtype(n)}")
        for n, t in self.tiles.items():
            at = f" addr = %a_{n}" if isinstance(t, tuple) and t[1] is not None else ""
            if at:
                L.append(f"    %a_{n} = arith.constant {t[1]} : i64")
            if isinstance(t, tuple) and len(t) > 2:
                at += f" valid_row = %c{t[2][0]} valid_col = %c{t[2][1]}"
            L.append(f"    %{n} = pto.alloc_tile{at} : {self.ttype(n)}")
        for s in self.steps:
            L.append("    " + self.expand(s))
        L += ["    return", "  }", "}", ""]
        return "\n".join(L)

    def expand(self, s):
        """A step: (op, ins, outs[, attr_in[, attr_out]]) of %-free names (tiles or views)."""
        if isinstance(s, str):
            return s
        op, ins, outs = s[:3]
        ai = f" {s[3]}" if len(s) > 3 and s[3] else ""
        ao = f" {s[4]}" if len(s) > 4 and s[4] else ""

        def ty(n):  # a view, a tile, or an index constant %cN
            return self.vtype(n) if n in self.views else self.ttype(n) if n in self.tiles else "index"
        return (f"pto.{op} ins({', '.join('%' + n for n in ins)}{ai} : {', '.join(ty(n) for n in ins)}) "
                f"outs({', '.join('%' + n for n in outs)} : {', '.join(ty(n) for n in outs)}){ao}")


def strides_of(whole):
    """Row-major strides (elements) of a 5-D array of shape `whole`."""
    st = [1]
    for n in reversed(whole[1:]):
        st.insert(0, st[0] * n)
    return st


def align_up(n, k):
    return (n + k - 1) // k * k


def tstore_npu(c, d):
    """tstore_kernel.cpp (both suites): TLOAD a vec tile from a 5-D GM view of input.bin (shape
    gShape, strides of the gWholeShape array), TSTORE it through the same view of the zeroed
    output. ND: tile (s0 s1 s2 s3) x align32(s4) row-major, valid x s4; DN (strides [.., 1,
    W3]): tile align32(s3) x (s0 s1 s2 s4) col-major; NZ: tile (s2 s3) x (s0 s1 s4) col-major
    with row-major 512-byte boxes. Valid shapes are run-time (Tile<..., -1, -1>)."""
    t = dt(c.datatype)
    if os.path.basename(d).startswith("TStoreTest.fp4"):
        return "fp4 (float4_e1m2x2) tiles: the harness has no fp4 dtype mapping"
    s = [c.gShape0, c.gShape1, c.gShape2, c.gShape3, c.gShape4]
    w = [c.gWholeShape0, c.gWholeShape1, c.gWholeShape2, c.gWholeShape3, c.gWholeShape4]
    return load_store_5d("vec", t, s, w, c.format, None)


def load_store_5d(loc, t, s, w, fmt, addr):
    """TLOAD a `loc` tile (run-time valid shape) through a 5-D view (shape s, strides of the
    whole array w, layout fmt) of input.bin, TSTORE it through the same view of the zeroed
    output (tstore_npu for the tile and view shapes)."""
    n, blk = int(np.prod(w)), 32 // ES[t]
    if fmt == "ND":
        ty, st, lay = tbuf(loc, t, s[0] * s[1] * s[2] * s[3], align_up(s[4], blk), "?", "?"), strides_of(w), "nd"
        valid = (s[0] * s[1] * s[2] * s[3], s[4])
    elif fmt == "DN":
        ty = tbuf(loc, t, align_up(s[3], blk), s[0] * s[1] * s[2] * s[4], "?", "?", "col_major")
        st, lay, valid = strides_of(w)[:3] + [1, w[3]], "dn", (s[3], s[0] * s[1] * s[2] * s[4])
    else:
        ty = tbuf(loc, t, s[2] * s[3], s[0] * s[1] * s[4], "?", "?", "col_major", "row_major")
        st, lay, valid = strides_of(w), "nz", (s[2] * s[3], s[0] * s[1] * s[4])
    src, out = GM("src", t, n, "input.bin"), GM("out", t, n, "out.bin", is_input=False)
    return Prog([out, src], {"vs": (src, s, st, lay), "vo": (out, s, st, lay)}, {"tile": (ty, addr, valid)},
                [("tload", ["vs"], ["tile"]), ("tstore", ["tile"], ["vo"])])


NPU.update({"tstore": tstore_npu})


NP.update({"f8E4M3FN": ml_dtypes.float8_e4m3fn, "f8E5M2": ml_dtypes.float8_e5m2})
ES.update({"f8E4M3FN": 1, "f8E5M2": 1})


def view2(g, rows, cols, stride=None):
    """A 2-D row-major GM view (the kernels' Shape<1, 1, 1, rows, cols>) of GM array g."""
    return (g, [rows, cols], [cols if stride is None else stride, 1], None)


def pad_file(d, name, dtype, elems):
    """Case file `name` zero-extended to elems elements, as `name`.pad (a kernel that reads past
    the end of its GM array: the harness gives it zeros there)."""
    a = np.fromfile(os.path.join(d, name), dtype=NP[dtype])
    np.concatenate([a, np.zeros(max(0, elems - len(a)), a.dtype)]).tofile(os.path.join(d, name + ".pad"))
    return name + ".pad"


def matmul_prog(d, at, bt, ct, m, k, n, blk, bias=None, gemv=False, tf32=None, split=None, fillpad=False,
                bias_tile_t=None):
    """tmatmul_kernel.cpp (both suites): A (m x k) and B (k x n) TLOADed ND into NZ mat tiles,
    TMOV (a GEMV's A: a 1-row mat tile, TEXTRACT at 0, 0) to left / right, TMATMUL[_BIAS] /
    TGEMV[_BIAS] (bias: the file's dtype; its mat tile TMOVed into a bias tile of bias_tile_t),
    TSTORE of the acc tile. M = align(m, 16), K and N aligned to `blk` elements. `split` =
    (BASEM or None, BASEK): the split-K kernels: per BASEK slice of K one TLOAD of both (a GM
    view of BASEK columns of A at column i BASEK, row stride k; of BASEK rows of B), TMOV,
    TMATMUL[_BIAS] first and TMATMUL_ACC after; a slice past k reads past the arrays (given
    zeros: pad_file). `fillpad`: the a2a3 kernels' TFILLPAD(mat, mat) after each TLOAD."""
    M, N, K = align_up(m, 16), align_up(n, blk), align_up(k, blk)
    ta, tb = {"ui8": "!pto.hif8"}.get(at, at), {"ui8": "!pto.hif8"}.get(bt, bt)
    iters, kv = 1, k
    if split:
        M, K = M if split[0] is None else split[0], split[1]
        iters, kv = (k + K - 1) // K, K
    fa, fb = "x1_gm.bin", "x2_gm.bin"
    if iters * K > k:
        fa, fb = pad_file(d, fa, at, m * k + iters * K), pad_file(d, fb, bt, iters * K * n)
    a = GM("a", at, m * k + (iters * K - k if fa != "x1_gm.bin" else 0), fa, tdt=ta)
    b = GM("b", bt, max(k, iters * K) * n, fb, tdt=tb)
    out = GM("out", ct, m * n, "out.bin", is_input=False)
    gms = [out, a, b]
    views = {"vo": view2(out, m, n), "va": view2(a, m, k), "vb": view2(b, iters * K if split else k, n)}
    kl = align_up(k, 512 // ES[at]) if gemv and not split else K
    if gemv:
        tiles = {"amat": tbuf("mat", ta, 1, kl, 1, kv), "al": left(ta, 1, kl, 1, kv)}
    else:
        tiles = {"amat": nz_mat(ta, M, K, m, kv), "al": left(ta, M, K, m, kv)}
    tiles.update(bmat=nz_mat(tb, K, N, kv, n), bl=right(tb, K, N, kv, n), acc=acc(ct, M, N, m, n))
    if bias:
        g = GM("bias", bias, n, "bias_gm.bin")
        gms.append(g)
        views["vbias"] = view2(g, 1, n)
        tiles.update(biasmat=tbuf("mat", bias, 1, N, 1, n), biast=tbuf("bias", bias_tile_t or bias, 1, N, 1, n))
    steps = [f"pto.settf32mode {{enable = true, mode = #pto<round_mode {tf32}>}}"] if tf32 else []
    mm = "tgemv" if gemv else "tmatmul"
    for i in range(iters):
        va, vb = "va", "vb"
        if split:
            va, vb = f"va{i}", f"vb{i}"
            views[va] = ("part", "va", [0, i * K], [m, K])
            views[vb] = ("part", "vb", [i * K, 0], [K, n])
        steps.append(("tload", [va], ["amat"]))
        if fillpad and not gemv:
            steps.append(("tfillpad", ["amat"], ["amat"]))
        steps.append(("tload", [vb], ["bmat"]))
        if fillpad and split:
            steps.append(("tfillpad", ["bmat"], ["bmat"]))
        if bias:
            steps.append(("tload", ["vbias"], ["biasmat"]))
        steps.append(("textract", ["amat", "c0", "c0"], ["al"]) if gemv and not split else ("tmov", ["amat"], ["al"]))
        steps.append(("tmov", ["bmat"], ["bl"]))
        if bias:
            steps.append(("tmov", ["biasmat"], ["biast"]))
        if i == 0:
            steps.append((mm + ".bias", ["al", "bl", "biast"], ["acc"]) if bias else (mm, ["al", "bl"], ["acc"]))
        else:
            steps.append((mm + ".acc", ["acc", "al", "bl"], ["acc"]))
    steps.append(("tstore", ["acc"], ["vo"]))
    return Prog(gms, views, tiles, steps)


# tmatmul_kernel.cpp's kernel per case (directory name): kind, split (BASEM, BASEK), TF32 round
MATMUL_A5 = {"TMATMULTest.case3": ("mm", (128, 64)), "TMATMULTest.case11": ("gemv", None),
             "TMATMULTest.case12": ("mm", None, "RINT"), "TMATMULTest.case13": ("mm", None, "ROUND"),
             "TMATMULTest.case_bias_5": ("mm", (128, 64)), "TMATMULTest.case_bias_11": ("gemv", (None, 256))}
MATMUL_A2A3 = {"TMATMULTest.case3": ("mm", (None, 32)), "TMATMULTest.case4": ("close", None),
               "TMATMULTest.case5": ("gemv", None), "TMATMULTest.case6": ("gemv", None),
               "TMATMULTest.case7": ("mm", None, "RINT"), "TMATMULTest.case8": ("mm", None, "ROUND"),
               "TMATMULBIASTest.case7": ("mm", (None, 32)), "TMATMULBIASTest.case8": ("gemv", (None, 256))}


def tmatmul_npu(c, d):
    """tmatmul_kernel.cpp, RunTMATMUL / _SPLIT_K / TGEMV[_SPLIT_K] / _TF32 / (a2a3) _GEMV_CLOSE by
    case (MATMUL_A5 / MATMUL_A2A3; else RunTMATMUL). a5: blocks of 32 bytes for 1-byte A, else
    16 elements, the bias tile of the output type; a2a3: 32-byte blocks (TF32: 16 elements), the
    bias tile of the bias type, TFILLPAD of the A mat tile (and B in split-K)."""
    name = os.path.basename(d)
    a5 = "TMATMULTest.case_bias_1" in os.listdir(os.path.dirname(d))
    at, bt, ct = dt(c.atype), dt(c.btype), dt(c.ctype)
    kind, split, tf32 = ((MATMUL_A5 if a5 else MATMUL_A2A3).get(name, ("mm", None)) + (None,))[:3]
    if a5:
        blk = 32 if ES[at] == 1 else 16
    else:
        blk = 16 if tf32 else 32 // ES[at]
    bias = dt(c.bias_type) if c.is_bias else None
    p = matmul_prog(d, at, bt, ct, c.m, c.k, c.n, blk, bias=bias, gemv=kind == "gemv", tf32=tf32, split=split,
                    fillpad=not a5 and kind in ("close", "mm") and (split or kind == "close"),
                    bias_tile_t=ct if a5 and not (kind == "gemv" and split) else bias)
    p.profiles = ("a5",) if a5 else ("a2a3",)
    return p


NPU.update({"tmatmul": tmatmul_npu})
TOL.update({"tmatmul": lambda c, t, hp: 1e-3 if c.is_bias else 1e-4,  # main.cpp: tmatmul_bias_test 1e-3
            "tload": tol(0.0, 0.0, 0.0)})


def vec_dyn(t, r, c, bl="row_major", sl="none_box"):
    """A vec tile Tile<Vec, T, r, c, BLayout, -1, -1[, SLayout]> given its whole shape as valid."""
    return tbuf("vec", t, r, c, "?", "?", bl, sl)


def tmov_vect_npu(c, d):
    """tmov_vect_kernel.cpp: TLOAD a vec tile (valid src_valid_row x src_valid_col, run-time)
    from input_arr.bin, TMOV to a vec tile of the same type, TSTORE."""
    t, r, k = dt(c.data_type), c.src_valid_row, c.src_valid_col
    src, out = GM("src", t, r * k, "input_arr.bin"), GM("out", t, r * k, "out.bin", is_input=False)
    tiles = {"s": (vec_dyn(t, r, k), None, (r, k)), "dst": (vec_dyn(t, r, k), None, (c.dst_valid_row, c.dst_valid_col))}
    return Prog([out, src], {"vs": view2(src, r, k), "vo": view2(out, r, k)}, tiles,
                [("tload", ["vs"], ["s"]), ("tmov", ["s"], ["dst"]), ("tstore", ["dst"], ["vo"])])


def tmov_nd2nz_npu(c, d):
    """tmov_nd2nz_kernel.cpp (A5, hifloat8): TLOAD a row-major vec tile rows x cols, TMOV to a
    vec tile NZ (col-major, row-major 512-byte boxes), TSTORE through an NZ GM view
    [1, C1, N1, 16, 32] with strides [C1 rows 32, rows 32, 512, 32, 1] (C1 = cols / 32, N1 =
    rows / 16)."""
    r, k, t = c.rows, c.cols, "!pto.hif8"
    src, out = GM("src", "ui8", r * k, "input_arr.bin", tdt=t), GM("out", "ui8", r * k, "out.bin", is_input=False, tdt=t)
    c1, n1 = k // 32, r // 16
    views = {"vs": view2(src, r, k), "vo": (out, [1, c1, n1, 16, 32], [c1 * r * 32, r * 32, 512, 32, 1], "nz")}
    tiles = {"s": (vec_dyn(t, r, k), None, (r, k)), "nz": (vec_dyn(t, r, k, "col_major", "row_major"), None, (r, k))}
    p = Prog([out, src], views, tiles, [("tload", ["vs"], ["s"]), ("tmov", ["s"], ["nz"]), ("tstore", ["nz"], ["vo"])])
    p.profiles = ("a5",)
    return p


def tmov_nd2zn_npu(c, d):
    """tmov_nd2zn_kernel.cpp (A5): TLOAD a row-major vec tile, TMOV to a ZN vec tile (row-major
    of col-major boxes) at 0x10000, TSTORE a row-major tile placed on the same bytes (the
    kernel's TASSIGN(ndTile, 0x10000)) through an ND view: the ZN bytes as they lie."""
    t = {"hif8": "!pto.hif8", "half": "f16", "b32": "i32"}[c.dtype_name]
    ft = {"hif8": "ui8", "half": "ui16", "b32": "ui32"}[c.dtype_name]
    r, k = c.rows, c.cols
    src, out = GM("src", ft, r * k, "input_arr.bin", tdt=t), GM("out", ft, r * k, "out.bin", is_input=False, tdt=t)
    tiles = {"s": (vec_dyn(t, r, k), 0, (r, k)), "zn": (vec_dyn(t, r, k, "row_major", "col_major"), 0x10000, (r, k)),
             "nd": (vec_dyn(t, r, k), 0x10000, (r, k))}
    p = Prog([out, src], {"vs": view2(src, r, k), "vo": view2(out, r, k)}, tiles,
             [("tload", ["vs"], ["s"]), ("tmov", ["s"], ["zn"]), ("tstore", ["nd"], ["vo"])])
    p.profiles = ("a5",)
    return p


NPU.update({"tmov_vect": tmov_vect_npu, "tmov_nd2nz": tmov_nd2nz_npu, "tmov_nd2zn": tmov_nd2zn_npu})
NAMES.update({"tmov_vect": lambda i, c: f"TMOVTest.vect_copy_case{i + 1}"})


# tload_kernel.cpp launchTLOAD_<key>: runTLOADND<T, shape0..4, kTRows, kTCols, dyn, PadVal>
# and its block count (both suites); key = position in gen_data.py's name list + 1.
TLOAD_CASES = [("f32", (1, 1, 1, 128, 128), 128, 128, 1, 0, 1), ("f32", (2, 2, 2, 256, 64), 256, 64, 1, 0, 8),
               ("f32", (1, 1, 1, 128, 127), 128, 128, 1, 2, 1), ("i16", (1, 1, 1, 128, 127), 128, 128, 1, 2, 1),
               ("ui8", (1, 1, 1, 128, 127), 128, 128, 1, 3, 1), ("i16", (1, 1, 32, 64, 128), 64, 128, 1, 0, 32),
               ("i16", (1, 1, 32, 64, 128), 64, 128, 0, 0, 32), ("f32", (2, 2, 2, 256, 60), 256, 64, 1, 2, 8),
               ("i64", (1, 1, 1, 128, 128), 128, 128, 1, 0, 1), ("ui64", (1, 1, 1, 128, 125), 128, 128, 1, 1, 1),
               ("i64", (2, 2, 2, 256, 62), 256, 64, 1, 1, 8), ("ui64", (2, 2, 2, 256, 64), 256, 64, 1, 0, 8)]


def tload_golden(d, t, s, pad):
    """tload_kernel.cpp get_input_golden_case (the golden is computed by main.cpp, gen_data.py
    writes none): input = the flat index of each element of shape s, cast to T; golden = the
    input with each row widened to align(s4, 32 B), the new columns holding PadVal (Max / Min:
    +-inf for floats, the type's max / min for integers; else 0)."""
    n, s4a = int(np.prod(s)), align_up(s[4], 32 // ES[t])
    a = np.arange(n, dtype=np.int64).astype(NP[t]).reshape(-1, s[4])
    if t in ("f32", "f16"):
        fill = {2: np.inf, 3: -np.inf}.get(pad, 0)
    else:
        fill = {2: np.iinfo(NP[t]).max, 3: np.iinfo(NP[t]).min}.get(pad, 0)
    g = np.full((a.shape[0], s4a), fill, dtype=NP[t])
    g[:, : s[4]] = a
    a.tofile(os.path.join(d, "input.bin"))
    g.tofile(os.path.join(d, "golden.bin"))
    return n, g.size


def tload_npu(c, d):
    """tload_kernel.cpp runTLOADND, one program for all `blocks` cores in block order: core b
    TLOADs (s0, s1, s2, kTRows / (s0 s1 s2), s4) of the source at row b s3 / blocks of each
    (s0, s1, s2) slice into a vec tile kTRows x kTCols (valid x s4, pad PadVal), then TSTOREs a
    tile on the same bytes with static valid cols kTCols (its padding included) to the same
    rows of the golden-shaped output (rows of align(s4, 32 B))."""
    key = c.index(os.path.basename(d))  # c: gen_data.py's name list
    t, s, tr, tc, dyn, pad, blocks = TLOAD_CASES[key]
    nin, nout = tload_golden(d, t, s, pad)
    s4a, gr = align_up(s[4], 32 // ES[t]), tr // (s[0] * s[1] * s[2])
    src, out = GM("src", t, nin, "input.bin"), GM("out", t, nout, "out.bin", is_input=False)
    views = {"vs": (src, list(s), strides_of(list(s)), None), "vo": (out, list(s[:4]) + [s4a], strides_of(list(s[:4]) + [s4a]), None)}
    tiles = {"tile": (tbuf("vec", t, tr, tc, "?" if dyn else tr, "?", pad=pad), 0, (tr, s[4])),
             "tileP": (tbuf("vec", t, tr, tc, "?", tc), 0, (tr, tc))}
    steps = []
    for b in range(blocks):
        r0 = b * (s[3] // blocks)
        views[f"vs{b}"] = ("part", "vs", [0, 0, 0, r0, 0], [s[0], s[1], s[2], gr, s[4]])
        views[f"vo{b}"] = ("part", "vo", [0, 0, 0, r0, 0], [s[0], s[1], s[2], gr, tc])
        steps += [("tload", [f"vs{b}"], ["tile"]), ("tstore", ["tileP"], [f"vo{b}"])]
    return Prog([out, src], views, tiles, steps)


NPU.update({"tload": tload_npu})
NAME_ONLY = {"tload"}  # scripts with only a name list: run.case_list gives each case that list


# ---- session 12, goldd ----
# More data movement and cube tests (NPU suites): textract / tinsert / tmov / tstore / ttrans /
# timg2col / tload variants, on the goldc Prog template.

def view_mn(g, rows, cols, dn=False):
    """A 2-D GM view rows x cols of g: ND (row stride cols) or DN (column-major: stride [1, rows])."""
    return (g, [rows, cols], [1, rows], "dn") if dn else (g, [rows, cols], [cols, 1], None)


def ftype(t):
    """(file dtype, program dtype) of a gen_data.py dtype: hifloat8 is written as uint8."""
    t = dt(t)
    return (t, "!pto.hif8") if t == "ui8" else (t, t)


def cube_chain(c, d, move, a_dn, b_dn, shape, base, idx, mvalid=None, profile="a5", compact=False, lr_valid=None):
    """A left x right TMATMUL fed from L1 (the textract / tmov tests' cube kernels): A (base M x
    K) and B (base K x N) TLOADed from x1_gm.bin / x2_gm.bin (GM shape = base, DN when a_dn /
    b_dn) into mat tiles (DN: ZN, ND: NZ; at 0 and 0x10000, the rest at 0 of its space), moved into left / right tiles by TEXTRACT at idx =
    (m0, k0, n0) or TMOV (move), TMATMUL, TSTORE of the valid mvalid x nvalid acc (shape = the
    left / right / acc static shape (M', K', N'), valid = shape unless mvalid = (m, k, n)).
    compact: TileLeftCompact / TileRightCompact / TileAccCompact (compact = normal). lr_valid:
    the left and right tiles' valid shapes when they differ from mvalid's ((rows, cols) each)."""
    (fa, ta), (fb, tb), ct = ftype(c.atype), ftype(c.btype), dt(c.ctype)
    M, K, N = base
    lm, lk, ln = shape
    vm, vk, vn = mvalid or shape
    a, b = GM("a", fa, M * K, "x1_gm.bin", tdt=ta), GM("b", fb, K * N, "x2_gm.bin", tdt=tb)
    out = GM("out", ct, vm * vn, "out.bin", is_input=False)
    views = {"va": view_mn(a, M, K, a_dn), "vb": view_mn(b, K, N, b_dn), "vo": view_mn(out, vm, vn)}
    tiles = {"amat": (zn_mat if a_dn else nz_mat)(ta, M, K), "bmat": (zn_mat if b_dn else nz_mat)(tb, K, N),
             "al": left(ta, lm, lk, vm, vk, profile), "bl": right(tb, lk, ln, vk, vn), "acc": acc(ct, lm, ln, vm, vn)}
    if lr_valid:
        tiles.update({"al": left(ta, lm, lk, *lr_valid[0], profile), "bl": right(tb, lk, ln, *lr_valid[1])})
    if compact:
        tiles.update({n: tiles[n][:-1] + ", compact=1>" for n in ("al", "bl", "acc")})
    tiles = {n: (t, 0x10000 if n == "bmat" else 0) for n, t in tiles.items()}  # the kernels' TASSIGNs
    steps = [("tload", ["va"], ["amat"]), ("tload", ["vb"], ["bmat"])]
    if move == "textract":
        steps += [("textract", ["amat", f"c{idx[0]}", f"c{idx[1]}"], ["al"]),
                  ("textract", ["bmat", f"c{idx[1]}", f"c{idx[2]}"], ["bl"])]
    else:
        steps += [("tmov", ["amat"], ["al"]), ("tmov", ["bmat"], ["bl"])]
    steps += [("tmatmul", ["al", "bl"], ["acc"]), ("tstore", ["acc"], ["vo"])]
    p = Prog([out, a, b], views, tiles, steps, profiles=(profile,))
    return index_consts(p, idx)


def index_consts(p, nums):
    """p with %cN index constants for the numbers in nums that its views and tiles do not define."""
    p.pre = list(p.pre) + [f"%c{v} = arith.constant {v} : index" for v in sorted(set(nums) - set(p.consts()))]
    return p


# a5 textract_kernel.cpp where its template arguments differ from gen_data.py's parameters:
# case13 extracts at (0, 0, 32) where gen_data.py (and main.cpp) slice at (0, 32, 0).
TEXTRACT_A5_IDX = {"TEXTRACTTest.case13": (0, 0, 32)}


def textract_a5(c, d):
    """a5 textract_kernel.cpp runTEXTRACT[_DYNAMIC] (TEXTRACTTest) and runTMOV[_DYNAMIC /
    _UNALIGN] (TMOVTest): A's GM DN when is_atrans, B's DN unless is_btrans; TEXTRACT at
    (start_m, start_k), (start_k, start_n) into left / right tiles of the remaining shape; TMOV
    of the whole (unaligned: target shape tiles, valid m x k / k x n, acc valid m x n). The
    _DYNAMIC kernels' run-time valid shapes equal the static ones. MX (fp4) cases skipped."""
    name = os.path.basename(d)
    if "float4" in str(c.atype):
        return "fp4 MX case (float4 tiles, mad_mx with e8m0 scales): no fp4 dtype in the harness"
    a_dn, b_dn = bool(c.is_atrans), not c.is_btrans
    if name.startswith("TMOVTest"):
        if c.target_m:  # runTMOV_UNALIGN: TileLeft<.., targetM, K>, TileRight<.., K, targetN> valid
            base = (c.target_m, c.target_k, c.target_n)
            lr = ((c.target_m, c.k), (c.k, c.target_n))
            return cube_chain(c, d, "tmov", a_dn, b_dn, base, base, (0, 0, 0), (c.m, c.k, c.n), lr_valid=lr)
        base = (c.m, c.k, c.n)
        return cube_chain(c, d, "tmov", a_dn, b_dn, base, base, (0, 0, 0))
    idx = TEXTRACT_A5_IDX.get(name, (c.start_m, c.start_k, c.start_n))
    base = (c.m, c.k, c.n)
    return cube_chain(c, d, "textract", a_dn, b_dn, tuple(x - i for x, i in zip(base, idx)), base, idx)


SUITE.setdefault("npu-a5", {}).update({"textract": textract_a5})


def textract_a2a3(c, d):
    """a2a3 textract_kernel.cpp: runTMOV[_UNALIGN] (TMOVTest), runTEXTRACT[_UNALIGN / _DYNAMIC]
    (TEXTRACTTest), runTEXTRACT_COMPACT (TEXTRACT_Compact_Test). Parameters (m, n, k, start_m,
    start_n, start_k, is_atrans, is_btrans, base_m, base_n, base_k): GM A base_m x base_k (DN
    when is_atrans), B base_k x base_n (DN when is_btrans: here the flag names B's GM layout);
    left / right / acc of static shape base - start, valid (m, k, n) - start. The _DYNAMIC
    kernels' run-time valid shapes equal the static ones."""
    name = os.path.basename(d)
    base = (c.base_m or c.m, c.base_k or c.k, c.base_n or c.n)
    idx = (c.start_m, c.start_k, c.start_n)
    shape = tuple(b - i for b, i in zip(base, idx))
    valid = tuple(x - i for x, i in zip((c.m, c.k, c.n), idx))
    move = "tmov" if name.startswith("TMOVTest") else "textract"
    # runTMOV_UNALIGN: TileLeft<.., baseM, baseK, baseM, K>, TileRight<.., baseK, baseN, K, baseN>
    lr = ((shape[0], valid[1]), (valid[1], shape[2])) if move == "tmov" and c.base_m else None
    return cube_chain(c, d, move, bool(c.is_atrans), bool(c.is_btrans), shape, base, idx, valid, "a2a3",
                      compact="Compact" in name, lr_valid=lr)


SUITE.setdefault("npu-a2a3", {}).update({"textract": textract_a2a3})


def ttrans_npu(c, d):
    """ttrans_kernel.cpp. a5 (dst_row, dst_col, src_row, src_col, valid_row, valid_col): TLOAD a
    src tile (valid run-time) through a (valid_row, valid_col) view of row stride src_col, TTRANS
    with a tmp tile dst_row x dst_col (TASSIGNed at 0, over the source: a5 TTRANS does not use
    it), TSTORE (valid_col, valid_row) with row stride dst_col into the dst_row x dst_col output.
    a2a3 (tile_row, tile_col, valid_row, valid_col): src tile_row x tile_col, dst tile_col x
    align(tile_row, 32 B), tmp tile_col x align(that, 16 elements; 32 for 1-byte), at 0, after
    src, after dst; output tile_col x tile_row (row stride tile_row)."""
    t = dt(c.dtype)
    vr, vc = c.valid_row, c.valid_col
    if hasattr(c, "dst_row"):
        sr, sc, dr, dc, tr, tc = c.src_row, c.src_col, c.dst_row, c.dst_col, c.dst_row, c.dst_col
        addr = (0, sr * sc * ES[t], 0)
        orows, ocols, prof = dr, dc, "a5"
    else:
        sr, sc = c.tile_row, c.tile_col
        dr, dc = sc, align_up(sr, 32 // ES[t])
        tr, tc = dr, align_up(dc, 32 if ES[t] == 1 else 16)
        addr = (0, sr * sc * ES[t], sr * sc * ES[t] + dr * dc * ES[t])
        orows, ocols, prof = sc, sr, "a2a3"
    src = GM("src", t, sr * sc, "input.bin")
    out = GM("out", t, orows * ocols, "out.bin", is_input=False)
    views = {"vs": (src, [vr, vc], [sc, 1], None), "vo": (out, [vc, vr], [ocols, 1], None)}
    tiles = {"s": (vec_dyn(t, sr, sc), addr[0], (vr, vc)), "dst": (vec_dyn(t, dr, dc), addr[1], (vc, vr)),
             "tmp": (tbuf("vec", t, tr, tc), addr[2])}
    return Prog([out, src], views, tiles, [("tload", ["vs"], ["s"]), ("ttrans", ["s", "tmp"], ["dst"]),
                                           ("tstore", ["dst"], ["vo"])], profiles=(prof,))


def textract_nd_vec(c, d):
    """a5 textract_nd_vec_kernel.cpp: TLOAD src (rows x cols) at 0 and the dst tile (dst_init.bin)
    at align(src bytes, 256), TEXTRACT(dst, src, idx_row, idx_col), TSTORE dst. The scalar cases
    (5 entries): dst tile 1 x 32 B loaded / stored, the TEXTRACT into a 1 x 1-valid tile on the
    same bytes."""
    t = dt(c[0])
    sr, sc = c[1], c[2]
    if len(c) == 7:
        dr, dc, ir, ic, ext = c[3], c[4], c[5], c[6], None
    else:
        dr, dc, ir, ic, ext = 1, 32 // ES[t], c[3], c[4], (1, 1)
    a = align_up(sr * sc * ES[t], 256)
    src, init = GM("src", t, sr * sc, "src_input.bin"), GM("init", t, dr * dc, "dst_init.bin")
    out = GM("out", t, dr * dc, "out.bin", is_input=False, golden="golden_output.bin")
    tiles = {"s": (tbuf("vec", t, sr, sc), 0), "dst": (tbuf("vec", t, dr, dc), a)}
    views = {"vs": view2(src, sr, sc), "vi": view2(init, dr, dc), "vo": view2(out, dr, dc)}
    x = "dst"
    if ext:
        tiles["x"], x = (tbuf("vec", t, dr, dc, 1, 1), a), "x"
    p = Prog([out, src, init], views, tiles, [("tload", ["vs"], ["s"]), ("tload", ["vi"], ["dst"]),
                                              ("textract", ["s", f"c{ir}", f"c{ic}"], [x]), ("tstore", ["dst"], ["vo"])],
             profiles=("a5",))
    return index_consts(p, (ir, ic))


UB2L1_EXTRA_ROWS = {1: 17, 2: 65, 3: 48, 4: 97, 5: 32, 6: 64, 7: 65, 8: 128, 9: 256}  # kernel ExtraRows per key


def tmov_ub2l1(c, d):
    """a5 tmov_ub2l1_kernel.cpp: TLOAD an ND vec tile rows x cols, TMOV to an NZ vec tile of
    ExtraRows rows (row_plus_one compact when ExtraRows > rows), TMOV (TEXTRACT at index_rows,
    index_cols) into an NZ mat tile valid_rows x valid_cols, which the cube copies back to UB
    unchanged (copy_cbuf_to_ubuf of vr vc es / 32 blocks to 0x20000, sub-block 0: the kernel copies
    to both) and the vector core stores through an NZ view [1, vc / C0, vr / 16, 16, C0]."""
    t = dt(c.test_type)
    key = int(os.path.basename(d).rsplit("case", 1)[1])
    r, k, vr, vc, ir, ic = c.rows, c.cols, c.valid_rows, c.valid_cols, c.index_rows, c.index_cols
    ex, c0 = UB2L1_EXTRA_ROWS[key], 32 // ES[t]
    src = GM("src", t, r * k, "input_arr.bin")
    out = GM("out", t, vr * vc, "out.bin", is_input=False, golden="golden_output.bin")
    tmp = vec_dyn(t, ex, k, "col_major", "row_major")
    if ex > r:
        tmp = tmp[:-1] + ", compact=2>"
    tiles = {"s": (vec_dyn(t, r, k), 0, (r, k)), "tmp": (tmp, 0x10000, (r, k)),
             "mat": (tbuf("mat", t, vr, vc, "?", "?", "col_major", "row_major"), 0, (vr, vc)),
             "back": (vec_dyn(t, vr, vc, "col_major", "row_major"), 0x20000, (vr, vc))}
    views = {"vs": view2(src, r, k),
             "vo": (out, [1, vc // c0, vr // 16, 16, c0], [(k // c0) * c0 * vr, vr * c0, 16 * c0, c0, 1], "nz")}
    mv = ("textract", ["tmp", f"c{ir}", f"c{ic}"], ["mat"]) if ir or ic else ("tmov", ["tmp"], ["mat"])
    pl, pu = f"!pto.ptr<{t}, l1>", f"!pto.ptr<{t}, ub>"
    copy = [f"%pl = pto.castptr %a_mat : i64 -> {pl}", f"%pu = pto.castptr %a_back : i64 -> {pu}",
            f"%blk = arith.constant {vr * vc * ES[t] // 32} : i64", "%i0 = arith.constant 0 : i64",
            "%i1 = arith.constant 1 : i64",
            f"pto.copy_cbuf_to_ubuf %pl, %pu, %i0, %i1, %blk, %i0, %i0 : {pl}, {pu}, i64, i64, i64, i64, i64"]
    p = Prog([out, src], views, tiles, [("tload", ["vs"], ["s"]), ("tmov", ["s"], ["tmp"]), mv] + copy
             + [("tstore", ["back"], ["vo"])], profiles=("a5",))
    return index_consts(p, (ir, ic))


NPU.update({"ttrans": ttrans_npu, "textract_nd_vec": textract_nd_vec, "tmov_ub2l1": tmov_ub2l1})
NAMES.update({"textract_nd_vec": lambda i, c: f"TExtractNDVecTest.case_nd_vec_{i + 1}",
              # a2a3 generate_case_name(i + 1, param); a5 names come from the parameter object
              "ttrans": lambda i, c: f"TTRANSTest.case{i + 1}_{CNAME[dt(c.dtype)]}_{c.tile_row}_{c.tile_col}_"
                                     f"{c.valid_row}_{c.valid_col}"})
CNAME = {"f32": "float", "f16": "half", "i32": "int32", "i16": "int16", "i8": "int8", "ui8": "uint8"}
TOL.update({"textract_nd_vec": tol(0.0, 0.0, 0.0)})


def tstore_mat2gm(c, d):
    """a2a3 tstore_mat2gm_kernel.cpp: tstore_npu's kernel with a mat tile (TASSIGNed at 0): ND
    row-major, DN col-major, NZ col-major of 512-byte row-major boxes."""
    s = [c.g_shape0, c.g_shape1, c.g_shape2, c.g_shape3, c.g_shape4]
    w = [c.g_whole_shape0, c.g_whole_shape1, c.g_whole_shape2, c.g_whole_shape3, c.g_whole_shape4]
    p = load_store_5d("mat", dt(c.data_type), s, w, c.format, 0)
    p.profiles = ("a2a3",)
    return p


NPU.update({"tstore_mat2gm": tstore_mat2gm})


ND2XNZ_T = {"half": "f16", "float": "f32", "bf16": "bf16", "int8": "i8", "int32": "i32", "hif8": "!pto.hif8",
            "fp8e4m3": "f8E4M3FN", "fp8e5m2": "f8E5M2", "fp8e8m0": "f8E8M0FNU"}


def textract_ndto2xnz(c, d):
    """textract_ndto2xnz_kernel.cpp (both suites): TLOAD an ND vec tile src_rows x src_cols (bytes
    of input_arr.bin), TEXTRACT(dst0, dst1, src, ir0, ic0, ir1, ic1) into two NZ vec tiles (here
    two TEXTRACTs: ptosim's textract has one destination), TSTORE each through an NZ view [1,
    W / C0, H / 16, 16, C0] of the tile's static shape H x W. Window (rows, cols, ir, ic[, H,
    W]): tile H x W (default rows x cols; a 1 x 1 window: a 16 x C0 tile, valid 1 x 1, of
    which main.cpp compares the first element). Tiles at a2a3's TASSIGNs: src at 0, each window
    after the previous tile, 256-byte aligned (a5: 0x20000, 0x30000; the same data). The TSTORE
    goes through a whole-valid tile on the window's bytes (ptosim's tstore asks for valid = the
    view's shape; the NZ store of the kernel moves the whole static tile)."""
    t = ND2XNZ_T[c.name.split("_")[1]]
    es, c0 = c.esize, 32 // c.esize
    src = GM("src", "ui8", c.src_rows * c.src_cols * es, "input_arr.bin", tdt=t)
    gms, views, tiles = [], {"vs": view2(src, c.src_rows, c.src_cols)}, {"s": (vec_dyn(t, c.src_rows, c.src_cols), 0)}
    tiles["s"] += ((c.src_rows, c.src_cols),)
    steps, idx, at = [("tload", ["vs"], ["s"])], set(), align_up(c.src_rows * c.src_cols * es, 256)
    for i, w in enumerate(c.wins):
        rows, cols, ir, ic = w[:4]
        h, wd = (16, c0) if (rows, cols) == (1, 1) else (w[4], w[5]) if len(w) > 5 else (rows, cols)
        out = GM(f"out{i}", "ui8", h * wd * es, f"out{i}.bin", is_input=False, golden=f"golden{i}.bin",
                 ncmp=es if (rows, cols) == (1, 1) else None, tdt=t)
        gms.append(out)
        views[f"vo{i}"] = (out, [1, wd // c0, h // 16, 16, c0], [wd * h, h * c0, 16 * c0, c0, 1], "nz")
        tiles[f"d{i}"] = (tbuf("vec", t, h, wd, rows, cols, "col_major", "row_major"), at)
        tiles[f"f{i}"] = (tbuf("vec", t, h, wd, None, None, "col_major", "row_major"), at)
        at += align_up(h * wd * es, 256)
        steps += [("textract", ["s", f"c{ir}", f"c{ic}"], [f"d{i}"]), ("tstore", [f"f{i}"], [f"vo{i}"])]
        idx |= {ir, ic}
    return index_consts(Prog(gms + [src], views, tiles, steps), idx)


NPU.update({"textract_ndto2xnz": textract_ndto2xnz})
MODULE_CASES = {"textract_ndto2xnz": "CASES"}  # gen_data.py's case list is a module-level list
NAMES.update({"textract_ndto2xnz": lambda i, c: f"TExtractNd2xNzTest.{c.name}"})
TOL.update({"textract_ndto2xnz": tol(0.0, 0.0, 0.0)})


# a5 tmov_kernel.cpp static tile shapes (M, K, N) per case (runTMovL12Bias[Dynamic] / runTMovL12Fb)
TMOV_A5_SHAPES = {"case_bias1": (64, 96, 32), "case_bias2": (128, 128, 64), "case_bias3": (64, 80, 32),
                  "case_bias4": (128, 96, 64), "case_bias5": (32, 32, 64), "case_bias_dynamic6": (64, 80, 32),
                  "case_bias_dynamic7": (112, 96, 48), "case_bias_dynamic8": (16, 96, 64),
                  "case_fixpipe1": (32, 32, 128), "case_fixpipe2": (96, 32, 64), "case_fixpipe3": (128, 96, 64),
                  "case_fixpipe4": (112, 96, 48), "case_fixpipe5": (32, 96, 32)}


def tmov_a5(c, d):
    """a5 tmov_kernel.cpp: A (m x k) and B (k x n) TLOADed into NZ mat tiles of the kernel's
    static M x K / K x N (valid m x k / k x n), TMOV to left / right. Bias cases: a 1 x
    align(N, 64 B) mat tile of the bias type TMOVed into a bias tile of the acc type,
    TMATMUL_BIAS, TSTORE (golden.bin). Fixpipe cases: TMATMUL, a 1 x N u64 mat tile of
    quant_gm.bin TMOVed into a scaling tile, TSTORE_FP of the acc to the dst type
    (quant_golden.bin). The _DYNAMIC kernels' run-time valid shapes equal the static ones."""
    name = os.path.basename(d).split(".", 1)[1]
    M, K, N = TMOV_A5_SHAPES[name]
    m, k, n = c.m, c.k, c.n
    at, ct, bias = dt(c.atype), dt(c.ctype), name.startswith("case_bias")
    ot = ct if bias else dt(c.dst_type)
    a, b = GM("a", at, m * k, "x1_gm.bin"), GM("b", at, k * n, "x2_gm.bin")
    out = GM("out", ot, m * n, "out.bin", is_input=False, golden="golden.bin" if bias else "quant_golden.bin")
    views = {"va": view2(a, m, k), "vb": view2(b, k, n), "vo": view2(out, m, n)}
    tiles = {"amat": (nz_mat(at, M, K, m, k), 0), "bmat": (nz_mat(at, K, N, k, n), 0x10000),
             "al": (left(at, M, K, m, k), 0), "bl": (right(at, K, N, k, n), 0), "acc": (acc(ct, M, N, m, n), 0)}
    steps = [("tload", ["va"], ["amat"]), ("tload", ["vb"], ["bmat"])]
    if bias:
        bt = dt(c.bias_type)
        g = GM("bias", bt, n, "bias_gm.bin")
        an = align_up(N * ES[bt], 64) // ES[bt]
        views["vx"] = view2(g, 1, n)
        tiles.update(xmat=(tbuf("mat", bt, 1, an, 1, n), 0x20000), x=(tbuf("bias", ct, 1, an, 1, n), 0))
        steps += [("tload", ["vx"], ["xmat"]), ("tmov", ["amat"], ["al"]), ("tmov", ["bmat"], ["bl"]),
                  ("tmov", ["xmat"], ["x"]), ("tmatmul.bias", ["al", "bl", "x"], ["acc"]), ("tstore", ["acc"], ["vo"])]
    else:
        g = GM("quant", "ui64", n, "quant_gm.bin")
        views["vx"] = view2(g, 1, n)
        tiles.update(xmat=(tbuf("mat", "ui64", 1, N, 1, n), 0x20000), x=(tbuf("scaling", "ui64", 1, N, 1, n), 0))
        steps += [("tload", ["vx"], ["xmat"]), ("tmov", ["amat"], ["al"]), ("tmov", ["bmat"], ["bl"]),
                  ("tmatmul", ["al", "bl"], ["acc"]), ("tmov", ["xmat"], ["x"]), ("tstore_fp", ["acc", "x"], ["vo"])]
    return Prog([out, a, b, g], views, tiles, steps, profiles=("a5",))


SUITE["npu-a5"].update({"tmov": tmov_a5})
# ---- session 12, golde ----
# Cube <-> vector pipe tests (tpushpop_*): one kernel with a cube half and a vector half
# (pto.section.cube / pto.section.vector of one function, as the kernel's `if constexpr
# (DAV_CUBE)` / `(DAV_VEC)` blocks), the pipe as the generic ops (A5: initialize_l2l_pipe
# with the consumer buffer of TPipe's constructor; A2/A3: initialize_l2g2l_pipe over the
# kernel's fifoMem GM array, local_slot_num = TPipe's LocalSlotNum default 2), tpush / tpop
# on a declared tile / tfree, and the kernel's own set_flag / wait_flag / pipe_barrier, in
# the kernel's order with its loops unrolled. Run with every checker on (`check = "all"`):
# a finding is printed after the row's detail.
import re


class Sec:
    """The text of one section: `lines` in order; `types` %name -> type text of the views and
    tiles made here (shared with the kernel so that steps can name tiles of either)."""

    def __init__(self, kern, kind):
        self.k, self.kind, self.lines, self.offs = kern, kind, [], set()

    def c(self, v):  # an index constant
        self.k.nums.add(v)
        return f"%c{v}"

    def idx(self, v):  # an int (constant) or an SSA index name
        return self.c(v) if isinstance(v, int) else v

    def view(self, name, gm, shape, strides):
        ty = "!pto.tensor_view<%s%s>" % ("?x" * len(shape), gm.tdt)
        self.k.types[name] = ty
        self.lines.append(f"%{name} = pto.make_tensor_view %{gm.name}, shape = [{', '.join(self.c(v) for v in shape)}], "
                          f"strides = [{', '.join(self.c(v) for v in strides)}] : {ty}")

    def part(self, name, parent, offs, sizes):
        """A partition of view `parent` at offsets `offs` (ints or SSA index names)."""
        elem = re.search(r"x([^x<>]+)>$", self.k.types[parent]).group(1)
        ty = "!pto.partition_tensor_view<%s%s>" % ("".join(f"{n}x" for n in sizes), elem)
        self.k.types[name] = ty
        self.lines.append(f"%{name} = pto.partition_view %{parent}, offsets = [{', '.join(self.idx(v) for v in offs)}], "
                          f"sizes = [{', '.join(self.c(v) for v in sizes)}] : {self.k.types[parent]} -> {ty}")

    def tile(self, name, ty, addr=None, valid=None):
        """alloc_tile (TASSIGN to addr; valid = (rows, cols) given at run time)."""
        self.k.types[name] = ty
        at = ""
        if addr is not None:
            self.lines.append(f"%a_{name} = arith.constant {addr} : i64")
            at = f" addr = %a_{name}"
        if valid:
            at += f" valid_row = {self.idx(valid[0])} valid_col = {self.idx(valid[1])}"
        self.lines.append(f"%{name} = pto.alloc_tile{at} : {ty}")

    def op(self, op, ins, outs, ai="", ao=""):
        def ty(n):
            return self.k.types.get(n, "index")
        self.lines.append(f"pto.{op} ins({', '.join('%' + n for n in ins)}{' ' + ai if ai else ''} : "
                          f"{', '.join(ty(n) for n in ins)}) outs({', '.join('%' + n for n in outs)} : "
                          f"{', '.join(ty(n) for n in outs)}){' ' + ao if ao else ''}")

    def flag(self, kind, a, b, ev):  # set_flag / wait_flag(PIPE_a, PIPE_b, EVENT_IDev)
        self.lines.append(f"pto.{kind}_flag[<PIPE_{a}>, <PIPE_{b}>, <EVENT_ID{ev}>]")

    def barrier(self):
        self.lines.append("pto.barrier #pto.pipe<PIPE_ALL>")

    def if_sub0(self):
        """`if (get_subblockid() == 0) {` (close with end())."""
        self.k.ints.add(0)
        self.lines += ["%sub0 = pto.get_subblock_idx", "%is0 = arith.cmpi eq, %sub0, %i0 : i64", "scf.if %is0 {"]

    def end(self):
        self.lines.append("}")

    def sub(self, k, base=0):
        """An index base + k * get_subblockid() (the kernel's per-sub-block offsets)."""
        if not self.offs:
            self.lines.append("%sub = pto.get_subblock_idx")
        n = f"%o_{k}_{base}"
        if n not in self.offs:
            self.offs.add(n)
            self.lines += [f"{n}_m = arith.muli %sub, %i{k} : i64", f"{n}_i = arith.addi {n}_m, %i{base} : i64",
                           f"{n} = arith.index_cast {n}_i : i64 to index"]
            self.k.ints |= {k, base}
        return n

    def pipe(self, dir_mask, slot_size, slots, flag_base, local, peer=None, local_slots=2):
        """The kernel's TPipe<flag_base, dir, slot_size, slots, local_slots> on this core: its
        consumer buffer `local` (C2V: UB, V2C: L1; dir_mask 3: C2V, `peer` the V2C one)."""
        ops = [f"%b_{local}"] + ([f"%b_{peer}"] if peer is not None else [])
        self.k.i32 |= {local} | ({peer} if peer is not None else set())
        name = f"%p{flag_base}"
        if self.k.fifo is None:
            self.lines.append(f"{name} = pto.initialize_l2l_pipe {{dir_mask = {dir_mask}, slot_size = {slot_size}, "
                              f"slot_num = {slots}, flag_base = {flag_base}}}({', '.join(o + ' : i32' for o in ops)}) -> !pto.pipe")
        else:
            self.lines.append(f"{name} = pto.initialize_l2g2l_pipe {{dir_mask = {dir_mask}, slot_size = {slot_size}, "
                              f"slot_num = {slots}, local_slot_num = {local_slots}, flag_base = {flag_base}}}(%fifo : !pto.ptr<{self.k.fifo.tdt}>, "
                              f"{', '.join(o + ' : i32' for o in ops)}) -> !pto.pipe")
        return name

    def push(self, tile, pipe, split):
        self.lines.append(f"pto.tpush(%{tile}, {pipe} : {self.k.types[tile]}, !pto.pipe) {{split = {split}}}")

    def pop(self, tile, ty, pipe, split):
        self.k.types[tile] = ty
        self.lines += [f"%{tile} = pto.declare_tile -> {ty}", f"pto.tpop(%{tile}, {pipe} : {ty}, !pto.pipe) {{split = {split}}}"]

    def free(self, pipe, split):
        self.lines.append(f"pto.tfree({pipe} : !pto.pipe) {{split = {split}}}")


class Mixed:
    """A mixed cube / vector kernel: `gms` the GM arrays in the kernel's argument order (A2/A3:
    plus the FIFO array `fifo` of `fifo_bytes`, written as a zero input file), a cube and a
    vector Sec. The outputs compared are the GM arrays that are not inputs. gm_pipe: an A5
    kernel with a GM direction (initialize_l2g2l_pipe over the FIFO array)."""

    def __init__(self, d, profile, gms, fifo_bytes=0, gm_pipe=False):
        self.profile, self.profiles, self.check = profile, (profile,), "all"
        self.nums, self.ints, self.i32, self.types = {0, 1}, set(), set(), {}
        self.fifo = None
        if profile != "a5" or gm_pipe:  # gm_pipe: A5's DIR_C2V_GM / DIR_V2C_GM
            self.fifo = GM("fifo", "f32", fifo_bytes // 4, "fifo.bin")
            np.zeros(fifo_bytes // 4, np.float32).tofile(os.path.join(d, "fifo.bin"))
            gms = gms + [self.fifo]
        self.gms, self.outputs = gms, [g for g in gms if not g.is_input]
        self.cube, self.vec = Sec(self, "cube"), Sec(self, "vector")

    def gm_args(self):
        return self.gms

    def program(self, profile):
        L = [f'module attributes {{pto.target_arch = "{profile}"}} {{',
             "  func.func @case(" + ", ".join(f"%{g.name}: !pto.ptr<{g.tdt}>" for g in self.gms) + ") attributes {pto.kernel} {"]
        L += [f"    %c{v} = arith.constant {v} : index" for v in sorted(self.nums)]
        L += [f"    %i{v} = arith.constant {v} : i64" for v in sorted(self.ints)]
        L += [f"    %b_{v} = arith.constant {v} : i32" for v in sorted(self.i32)]
        for s in (self.cube, self.vec):
            L += [f"    pto.section.{s.kind} {{"] + ["      " + x for x in s.lines] + ["    }"]
        L += ["    return", "  }", "}", ""]
        return "\n".join(L)


def case_key(d):
    """The tiling key of a case: N of its directory name's `caseN`."""
    return int(re.search(r"case(\d+)", os.path.basename(d)).group(1))


def mm_tiles(s, it, ot, m, k, n, profile, acc_rows=None, acc_valid=None):
    """The cube tiles of the matmul kernels: NZ mat A (m x k) at 0 and B (k x n) at 0x20000,
    left / right / acc at 0 (TASSIGNs); shapes aligned to 16 rows, 32-byte blocks. The acc
    tile: acc_rows x n (default m), valid acc_valid given at run time (TileAcc<.., -1, -1>)."""
    blk = 32 // ES[it]
    M, K, N = align_up(m, 16), align_up(k, blk), align_up(n, blk)
    s.tile("amat", nz_mat(it, M, K, m, k), 0)
    s.tile("bmat", nz_mat(it, K, N, k, n), 0x20000)
    s.tile("al", left(it, M, K, m, k, profile), 0)
    s.tile("bl", right(it, K, N, k, n), 0)
    if acc_valid:
        s.tile("acc", acc(ot, acc_rows, n, "?", "?"), 0, acc_valid)
    else:
        s.tile("acc", acc(ot, acc_rows or m, n), 0)


SUITE_NOW = ["npu-a5"]  # run.py sets the suite being run


def npu_profile():
    return "a5" if SUITE_NOW[0] == "npu-a5" else "a2a3"


def matmul_add(d, prof, it, ot, tm, cm, k, n, split, depth, slot, flags3, tfree, guard=False):
    """runTPushPopMatmulAdd[NoSplit] (tpushpop_cv, tpushpop_cv_nosplit): per m tile of cm rows
    the cube TLOADs A's rows and B into NZ mat tiles (0, 0x20000), TMOVs, TMATMULs and TPUSHes
    the acc tile (split 0 / 1 / 2); each vector consumer TPOPs its part (VEC_M x VEC_N), TLOADs
    the same part of the bias (UB 0x10000), TADDs into UB 0x20000, [TFREEs,] TSTOREs it.
    flags3: the kernels' EVENT_ID1 back-pressure triples (cube FIX->M, M->MTE1, MTE1->MTE2;
    vector MTE3->V, V->MTE2); else a2a3 tpushpop_cv's single FIX->MTE2 / MTE3->MTE2 loop flag.
    guard: the vector half (after the pipe's construction) runs under `if (get_subblockid() ==
    0)`."""
    vm, vn = (cm // 2 if split == 1 else cm), (n // 2 if split == 2 else n)
    out, a, b = GM("out", ot, tm * n, "output_z.bin", is_input=False), GM("a", it, tm * k, "x1_gm.bin"), GM("b", it, k * n, "x2_gm.bin")
    bias = GM("bias", ot, tm * n, "bias_gm.bin")
    K = Mixed(d, prof, [out, a, b, bias], slot * depth)
    cu, ve = K.cube, K.vec
    pc = cu.pipe(1, slot, depth, 0, 0)
    mm_tiles(cu, it, ot, cm, k, n, prof)
    cu.view("va", a, [tm, k], [k, 1])
    cu.view("vb", b, [k, n], [n, 1])
    cu_loop = [("FIX", "M"), ("M", "MTE1"), ("MTE1", "MTE2")] if flags3 else [("FIX", "MTE2")]
    ev = 1 if flags3 else 0
    for f in cu_loop:
        cu.flag("set", *f, ev)
    for t in range(tm // cm):
        cu.part(f"pa{t}", "va", [t * cm, 0], [cm, k])
        cu.flag("wait", *cu_loop[-1], ev)
        cu.op("tload", [f"pa{t}"], ["amat"])
        cu.op("tload", ["vb"], ["bmat"])
        cu.flag("set", "MTE2", "MTE1", 0)
        cu.flag("wait", "MTE2", "MTE1", 0)
        if flags3:
            cu.flag("wait", "M", "MTE1", 1)
        cu.op("tmov", ["amat"], ["al"])
        cu.op("tmov", ["bmat"], ["bl"])
        if flags3:
            cu.flag("set", "MTE1", "MTE2", 1)
        cu.flag("set", "MTE1", "M", 0)
        cu.flag("wait", "MTE1", "M", 0)
        if flags3:
            cu.flag("wait", "FIX", "M", 1)
        cu.op("tmatmul", ["al", "bl"], ["acc"])
        if flags3:
            cu.flag("set", "M", "MTE1", 1)
        cu.flag("set", "M", "FIX", 0)
        cu.flag("wait", "M", "FIX", 0)
        cu.push("acc", pc, split)
        cu.flag("set", *cu_loop[0], ev)
    for f in reversed(cu_loop):
        cu.flag("wait", *f, ev)
    cu.barrier()
    pv = ve.pipe(1, slot, depth, 0, 0)
    if guard:
        ve.if_sub0()
    vt = tbuf("vec", ot, vm, vn)
    ve.tile("biast", vt, 0x10000)
    ve.tile("outt", vt, 0x20000)
    ve.view("vbias", bias, [tm, n], [n, 1])
    ve.view("vout", out, [tm, n], [n, 1])
    ve_loop = [("MTE3", "V"), ("V", "MTE2")] if flags3 else [("MTE3", "MTE2")]
    for f in ve_loop:
        ve.flag("set", *f, ev)
    for t in range(tm // cm):
        ve.flag("wait", *ve_loop[-1], ev)
        ve.pop(f"fifo{t}", vt, pv, split)
        off = [ve.sub(vm, t * cm), 0] if split == 1 else [t * cm, ve.sub(vn)] if split == 2 else [t * cm, 0]
        ve.part(f"pb{t}", "vbias", off, [vm, vn])
        ve.part(f"po{t}", "vout", off, [vm, vn])
        ve.op("tload", [f"pb{t}"], ["biast"])
        ve.flag("set", "MTE2", "V", 0)
        ve.flag("wait", "MTE2", "V", 0)
        if flags3:
            ve.flag("wait", "MTE3", "V", 1)
        ve.op("tadd", [f"fifo{t}", "biast"], ["outt"])
        if tfree:
            ve.free(pv, split)
        if flags3:
            ve.flag("set", "V", "MTE2", 1)
        ve.flag("set", "V", "MTE3", 0)
        ve.flag("wait", "V", "MTE3", 0)
        ve.op("tstore", ["outt"], [f"po{t}"])
        ve.flag("set", *ve_loop[0], ev)
    for f in reversed(ve_loop):
        ve.flag("wait", *f, ev)
    if guard:
        ve.end()
    ve.barrier()
    return K


# tpushpop_cv: key -> (TOTAL_M, CASE_TILE_M, K, N, split); InT / OutT from the case tuple
CV_KEYS = {1: (16, 16, 32, 32, 1), 2: (32, 16, 32, 32, 1), 3: (16, 16, 32, 32, 1), 4: (64, 16, 32, 32, 1),
           5: (16, 16, 32, 32, 2), 6: (32, 16, 32, 32, 2), 7: (16, 16, 32, 32, 2), 8: (64, 16, 32, 32, 2)}


def cv_npu(c, d):
    """tpushpop_cv_kernel.cpp runTPushPopMatmulAdd (both suites). A5: 2 UB slots of the half tile
    at 0, the EVENT_ID1 triples, TFREE; A2/A3: 1 GM slot of the whole tile, one loop flag, no
    TFREE (a no-op there). Keys 13 / 14 (a2a3, TILE_*_ODD) are skipped."""
    key = case_key(d)
    if key not in CV_KEYS:
        return "TILE_UP_DOWN_ODD / TILE_LEFT_RIGHT_ODD split: ptosim's pipes take split 0, 1 or 2"
    tm, cm, k, n, split = CV_KEYS[key]
    prof, ot = npu_profile(), dt(c[4])
    vm, vn = (cm // 2, n) if split == 1 else (cm, n // 2)
    a5 = prof == "a5"
    return matmul_add(d, prof, dt(c[3]), ot, tm, cm, k, n, split, 2 if a5 else 1, (vm * vn if a5 else cm * n) * ES[ot],
                      flags3=a5, tfree=a5)


# tpushpop_cv_nosplit: key -> (TOTAL_M, CASE_TILE_M, K, N, FIFO depth)
CVNS_KEYS = {1: (16, 16, 32, 32, 2), 2: (32, 16, 32, 32, 2), 3: (16, 16, 32, 32, 2), 4: (640, 16, 32, 64, 8)}


def cv_nosplit_npu(c, d):
    """tpushpop_cv_nosplit_kernel.cpp runTPushPopMatmulAddNoSplit: as tpushpop_cv with
    TILE_NO_SPLIT (the whole acc tile to one slot of CASE_TILE_M x N). A5: only sub-block 0
    pops (the kernel's get_subblockid() == 0 branch), TFREE; A2/A3: both vector cores pop,
    add and store the same tile (the kernel has no branch; FFTS reaches both), no TFREE, key 4
    = depth 8 (main.cpp dispatches it 80 times; one run here: each dispatch recomputes the
    same output). A5 keys 4 / 5: cv_strip_npu."""
    key = case_key(d)
    prof = npu_profile()
    if prof == "a5" and key >= 4:
        return cv_strip_npu(c, d, key)
    tm, cm, k, n, depth = CVNS_KEYS[key]
    it = dt(getattr(c, "in_dtype", c[3] if isinstance(c, tuple) else None))
    return matmul_add(d, prof, it, "f32", tm, cm, k, n, 0, depth, cm * n * 4, flags3=True, tfree=prof == "a5", guard=prof == "a5")


def cube_one_matmul(cu):
    """One matmul of views va / vb (cv_nosplit key 4, subtile): TLOAD both into the mat tiles,
    MTE2 -> MTE1, TMOV to left / right, MTE1 -> M, TMATMUL into acc, M -> FIX (EVENT_ID0)."""
    cu.op("tload", ["va"], ["amat"])
    cu.op("tload", ["vb"], ["bmat"])
    cu.flag("set", "MTE2", "MTE1", 0)
    cu.flag("wait", "MTE2", "MTE1", 0)
    cu.op("tmov", ["amat"], ["al"])
    cu.op("tmov", ["bmat"], ["bl"])
    for f, g in (("MTE1", "M"), ("M", "FIX")):
        if f == "M":
            cu.op("tmatmul", ["al", "bl"], ["acc"])
        cu.flag("set", f, g, 0)
        cu.flag("wait", f, g, 0)


def cv_strip_npu(c, d, key):
    """A5 tpushpop_cv_nosplit keys 4 / 5 (M 32, H 16, K 32, N 128, f32): key 4
    runTPushPopAccValidShapeStripNoSplit: one TMATMUL of the whole 32 x 128 acc tile, then per
    strip an acc tile (M x N, valid H x N) TASSIGNed at strip * H * 64 bytes (the NZ box row
    of that strip) TPUSHed unsplit; key 5 runTPushPopDynamicAccValidShapeStripNoSplit
    (FLAG_ID 1): per strip a TMATMUL of A's H rows into an acc tile of run-time valid H x N at
    0, TPUSHed. Sub-block 0 TPOPs each strip (H x N), TFREEs, TSTOREs it (no bias)."""
    m, h, k, n = 32, 16, 32, 128
    out, a, b = GM("out", "f32", m * n, "output_z.bin", is_input=False), GM("a", "f32", m * k, "x1_gm.bin"), GM("b", "f32", k * n, "x2_gm.bin")
    K = Mixed(d, "a5", [out, a, b])
    cu, ve = K.cube, K.vec
    fb, slot = (0, 4 * h * n) if key == 4 else (1, 4 * h * n)
    pc = cu.pipe(1, slot, 2, fb, 0)
    cu.view("va", a, [m, k], [k, 1])
    cu.view("vb", b, [k, n], [n, 1])
    if key == 4:
        mm_tiles(cu, "f32", "f32", m, k, n, "a5")
        cube_one_matmul(cu)
        for s in range(m // h):
            cu.tile(f"strip{s}", acc("f32", m, n, h, n), s * h * 64)
            cu.push(f"strip{s}", pc, 0)
    else:
        mm_tiles(cu, "f32", "f32", h, k, n, "a5", acc_rows=m, acc_valid=(h, n))
        for f in (("FIX", "M"), ("M", "MTE1"), ("MTE1", "MTE2")):
            cu.flag("set", *f, 1)
        for s in range(m // h):
            cu.part(f"pa{s}", "va", [s * h, 0], [h, k])
            cu.flag("wait", "MTE1", "MTE2", 1)
            cu.op("tload", [f"pa{s}"], ["amat"])
            cu.op("tload", ["vb"], ["bmat"])
            cu.flag("set", "MTE2", "MTE1", 0)
            cu.flag("wait", "MTE2", "MTE1", 0)
            cu.flag("wait", "M", "MTE1", 1)
            cu.op("tmov", ["amat"], ["al"])
            cu.op("tmov", ["bmat"], ["bl"])
            cu.flag("set", "MTE1", "MTE2", 1)
            cu.flag("set", "MTE1", "M", 0)
            cu.flag("wait", "MTE1", "M", 0)
            cu.flag("wait", "FIX", "M", 1)
            cu.op("tmatmul", ["al", "bl"], ["acc"])
            cu.flag("set", "M", "MTE1", 1)
            cu.flag("set", "M", "FIX", 0)
            cu.flag("wait", "M", "FIX", 0)
            cu.push("acc", pc, 0)
            cu.flag("set", "FIX", "M", 1)
        for f in (("MTE1", "MTE2"), ("M", "MTE1"), ("FIX", "M")):
            cu.flag("wait", *f, 1)
    cu.barrier()
    pv = ve.pipe(1, slot, 2, fb, 0)
    ve.view("vout", out, [m, n], [n, 1])
    ve.if_sub0()
    for s in range(m // h):
        ve.pop(f"fifo{s}", tbuf("vec", "f32", h, n), pv, 0)
        ve.free(pv, 0)
        ve.part(f"po{s}", "vout", [s * h, 0], [h, n])
        ve.flag("set", "V", "MTE3", 0)
        ve.flag("wait", "V", "MTE3", 0)
        ve.op("tstore", [f"fifo{s}"], [f"po{s}"])
    ve.end()
    ve.barrier()
    return K


NPU.update({"tpushpop_cv": cv_npu, "tpushpop_cv_nosplit": cv_nosplit_npu})


def vc_npu(c, d):
    """tpushpop_vc_kernel.cpp runTPushPopVCMatmul (both suites; key = N of caseN, 1-6 TILE_UP_DOWN,
    7-12 TILE_LEFT_RIGHT; TILE_K 64): vc_prog. Key 13: vc_sub_npu."""
    key = case_key(d)
    if key == 13:
        return vc_sub_npu(c, d)
    return vc_prog(d, npu_profile(), c[0], c[1], c[2], dt(c[3]), 1 if key <= 6 else 2)


def vc_nosplit_npu(c, d):
    """tpushpop_vc_nosplit_kernel.cpp runTPushPopVCNSMatmul: vc_prog with TILE_NO_SPLIT (each
    push the whole TILE_K x N tile). A5: the vector half runs under get_subblockid() == 0;
    A2/A3: both vector cores load, dequantize and push the same tile into the same GM slot
    (the kernel's comment: "both AIVs write to the same FIFO slot location")."""
    m, k, n, qt = (c[0], c[1], c[2], c[3]) if isinstance(c, tuple) else (c.M, c.K, c.N, c.quant_type)
    return vc_prog(d, npu_profile(), m, k, n, dt(qt), 0)


def vc_prog(d, prof, m, tk, n, qt, split):
    """runTPushPopVCMatmul / runTPushPopVCNSMatmul: per K tile each vector sub-block TLOADs its
    PROD_K x PROD_N part of quantB (i8 / i16), the PROD_K scale / offset column (tiles
    PROD_K x 8, valid PROD_K x 1), TDEQUANTs to f32, (A5: TMOVs to an NZ vec tile,) TPUSHes it
    (V2C); the cube TLOADs A's K tile, TPOPs the TILE_K x N NZ mat tile, TMOVs both to L0, (A5:
    TFREEs,) TMATMUL[_ACC]s, and finally TSTOREs the acc tile. A5: 2 L1 slots at 0x10000;
    A2/A3: GM slots, local L1 slots at 0x20000."""
    tile_k, a5 = 64, prof == "a5"
    pk, pn = (tile_k // 2 if split == 1 else tile_k), (n // 2 if split == 2 else n)
    out, a = GM("out", "f32", m * n, "output_z.bin", is_input=False), GM("a", "f32", m * tk, "x1_gm.bin")
    qb, sc, of = GM("qb", qt, tk * n, "quant_b_gm.bin"), GM("sc", "f32", tk, "scale_gm.bin"), GM("of", "f32", tk, "offset_gm.bin")
    slot = tile_k * n * 4
    K = Mixed(d, prof, [out, a, qb, sc, of], slot * 2)
    cu, ve = K.cube, K.vec
    buf = 0x10000 if a5 else 0x20000
    pv = ve.pipe(2, slot, 2, 0, buf)
    guard = a5 and split == 0
    if guard:
        ve.if_sub0()
    ve.tile("qt", tbuf("vec", qt, pk, pn), 0)
    ve.tile("deq", tbuf("vec", "f32", pk, pn), 0x10000)
    if a5:
        ve.tile("deqnz", tbuf("vec", "f32", pk, pn, bl="col_major", sl="row_major"), 0x18000)
    ve.tile("sct", tbuf("vec", "f32", pk, 8, "?", "?"), 0x20000, (pk, 1))
    ve.tile("oft", tbuf("vec", "f32", pk, 8, "?", "?"), 0x28000, (pk, 1))
    ve.flag("set", "V", "MTE2", 1)
    ve.flag("set", "MTE3", "V", 1)
    ve.view("vq", qb, [tk, n], [n, 1])
    ve.view("vs", sc, [tk, 1], [1, 1])
    ve.view("vf", of, [tk, 1], [1, 1])
    for t in range(tk // tile_k):
        row = ve.sub(pk, t * tile_k) if split == 1 else t * tile_k
        ve.part(f"pq{t}", "vq", [row, ve.sub(pn) if split == 2 else 0], [pk, pn])
        ve.part(f"ps{t}", "vs", [row, 0], [pk, 1])
        ve.part(f"pf{t}", "vf", [row, 0], [pk, 1])
        ve.flag("wait", "V", "MTE2", 1)
        ve.op("tload", [f"pq{t}"], ["qt"])
        ve.op("tload", [f"ps{t}"], ["sct"])
        ve.op("tload", [f"pf{t}"], ["oft"])
        ve.flag("set", "MTE2", "V", 0)
        ve.flag("wait", "MTE2", "V", 0)
        ve.flag("wait", "MTE3", "V", 1)
        ve.op("tdequant", ["qt", "sct", "oft"], ["deq"])
        if a5:
            ve.op("tmov", ["deq"], ["deqnz"])
        ve.flag("set", "V", "MTE2", 1)
        ve.flag("set", "V", "MTE3", 0)
        ve.flag("wait", "V", "MTE3", 0)
        ve.push("deqnz" if a5 else "deq", pv, split)
        ve.flag("set", "MTE3", "V", 1)
    ve.flag("wait", "V", "MTE2", 1)
    ve.flag("wait", "MTE3", "V", 1)
    ve.barrier()
    if guard:
        ve.end()
    pc = cu.pipe(2, slot, 2, 0, buf)
    AM, AK, AN = align_up(m, 16), align_up(tile_k, 8), align_up(n, 8)
    cu.tile("amat", nz_mat("f32", AM, AK, m, tile_k), 0)
    pop_t = nz_mat("f32", AK, AN, tile_k, n)
    cu.tile("al", left("f32", AM, AK, m, tile_k, prof), 0)
    cu.tile("bl", right("f32", AK, AN, tile_k, n), 0)
    cu.tile("acc", acc("f32", m, n), 0)
    cu.view("va", a, [m, tk], [tk, 1])
    cu.view("vo", out, [m, n], [n, 1])
    cu.flag("set", "MTE1", "MTE2", 1)
    cu.flag("set", "M", "MTE1", 1)
    for t in range(tk // tile_k):
        cu.part(f"pa{t}", "va", [0, t * tile_k], [m, tile_k])
        cu.flag("wait", "MTE1", "MTE2", 1)
        cu.op("tload", [f"pa{t}"], ["amat"])
        cu.pop(f"bm{t}", pop_t, pc, split)
        cu.flag("set", "MTE2", "MTE1", 0)
        cu.flag("wait", "MTE2", "MTE1", 0)
        cu.flag("wait", "M", "MTE1", 1)
        cu.op("tmov", ["amat"], ["al"])
        cu.op("tmov", [f"bm{t}"], ["bl"])
        if a5:
            cu.free(pc, split)
        cu.flag("set", "MTE1", "M", 0)
        cu.flag("wait", "MTE1", "M", 0)
        cu.flag("set", "MTE1", "MTE2", 1)
        cu.op("tmatmul", ["al", "bl"], ["acc"]) if t == 0 else cu.op("tmatmul.acc", ["acc", "al", "bl"], ["acc"])
        cu.flag("set", "M", "MTE1", 1)
    cu.flag("set", "M", "FIX", 0)
    cu.flag("wait", "M", "FIX", 0)
    cu.op("tstore", ["acc"], ["vo"])
    cu.flag("wait", "MTE1", "MTE2", 1)
    cu.flag("wait", "M", "MTE1", 1)
    cu.barrier()
    return K


def vec_add_push(ve, pv, a5, srcs, m, k, vr, vk, split):
    """The vector V2C phase of vc case13 / dir_both[_concurrent]: TLOAD this sub-block's vr x vk
    part (rows for split 1, else columns) of both m x k sources into UB 0 / 0x4000, TADD into
    0x8000, (A5: TMOV to an NZ tile at 0xC000,) TPUSH with `split`; the kernels' flags from
    set_flag(V, MTE2) / (MTE3, V) EVENT_ID1 to the set_flag(MTE3, V) after the push."""
    tk = tbuf("vec", "f32", vr, vk)
    for nm, addr in (("ta", 0), ("tb", 0x4000), ("tc", 0x8000)):
        ve.tile(nm, tk, addr)
    if a5:
        ve.tile("tcnz", tbuf("vec", "f32", vr, vk, bl="col_major", sl="row_major"), 0xC000)
    for g, v in zip(srcs, ("va", "vb")):
        ve.view(v, g, [m, k], [k, 1])
        ve.part("p" + v, v, [ve.sub(vr), 0] if split == 1 else [0, ve.sub(vk)], [vr, vk])
    ve.flag("set", "V", "MTE2", 1)
    ve.flag("set", "MTE3", "V", 1)
    ve.flag("wait", "V", "MTE2", 1)
    ve.op("tload", ["pva"], ["ta"])
    ve.op("tload", ["pvb"], ["tb"])
    ve.flag("set", "MTE2", "V", 0)
    ve.flag("wait", "MTE2", "V", 0)
    ve.flag("wait", "MTE3", "V", 1)
    ve.op("tadd", ["ta", "tb"], ["tc"])
    if a5:
        ve.op("tmov", ["tc"], ["tcnz"])
    ve.flag("set", "V", "MTE2", 1)
    ve.flag("set", "V", "MTE3", 0)
    ve.flag("wait", "V", "MTE3", 0)
    ve.push("tcnz" if a5 else "tc", pv, split)
    ve.flag("set", "MTE3", "V", 1)


def vec_pop_sub_store(ve, pv, a5, F, out, m, n, vr, vn, split):
    """The vector C2V phase of dir_both[_concurrent]: TPOP this sub-block's vr x vn part of E,
    TLOAD the same part of F (UB 0x10000), TSUB into 0x18000, (A5: TFREE,) TSTORE it to out;
    then the final waits of the EVENT_ID1 pair and pipe_barrier."""
    tn = tbuf("vec", "f32", vr, vn)
    ve.tile("tf", tn, 0x10000)
    ve.tile("tg", tn, 0x18000)
    for g, v in ((F, "vf"), (out, "vo")):
        ve.view(v, g, [m, n], [n, 1])
        ve.part("p" + v, v, [ve.sub(vr), 0] if split == 1 else [0, ve.sub(vn)], [vr, vn])
    ve.flag("wait", "V", "MTE2", 1)
    ve.pop("half", tn, pv, split)
    ve.op("tload", ["pvf"], ["tf"])
    ve.flag("set", "MTE2", "V", 0)
    ve.flag("wait", "MTE2", "V", 0)
    ve.flag("wait", "MTE3", "V", 1)
    ve.op("tsub", ["half", "tf"], ["tg"])
    if a5:
        ve.free(pv, split)
    ve.flag("set", "V", "MTE2", 1)
    ve.flag("set", "V", "MTE3", 0)
    ve.flag("wait", "V", "MTE3", 0)
    ve.op("tstore", ["tg"], ["pvo"])
    ve.flag("set", "MTE3", "V", 1)
    ve.flag("wait", "V", "MTE2", 1)
    ve.flag("wait", "MTE3", "V", 1)
    ve.barrier()


def cube_matmul_store(cu):
    """The cube's end in vc case13 / mixed_tile_size: TMATMUL al x bl into acc,
    set_flag(M, MTE1) EVENT_ID1, M -> FIX, TSTORE of acc to view vo, the final waits of the
    EVENT_ID1 pair (MTE1 -> MTE2, M -> MTE1) and pipe_barrier."""
    cu.op("tmatmul", ["al", "bl"], ["acc"])
    cu.flag("set", "M", "MTE1", 1)
    cu.flag("set", "M", "FIX", 0)
    cu.flag("wait", "M", "FIX", 0)
    cu.op("tstore", ["acc"], ["vo"])
    cu.flag("wait", "MTE1", "MTE2", 1)
    cu.flag("wait", "M", "MTE1", 1)
    cu.barrier()


def vc_sub_npu(c, d):
    """tpushpop_vc_kernel.cpp runTPushPopVCSubBlockId (M 128, K 64, N 64, f32): each vector
    sub-block TLOADs its 64 rows of src0 / src1, TADDs, (A5: TMOVs to NZ,) TPUSHes (V2C,
    up-down); the cube TPOPs the 128 x 64 mat tile, TLOADs src2, TMOVs both, (A5: TFREEs,)
    TMATMULs and TSTOREs. A5: L1 slots at 0x10000, src2 at 0; A2/A3: at 0, src2 at 0x20000."""
    m, k, n = c[0], c[1], c[2]
    prof, vr = npu_profile(), c[0] // 2
    a5 = prof == "a5"
    out = GM("out", "f32", m * n, "output_z.bin", is_input=False)
    s0, s1, s2 = GM("s0", "f32", m * k, "src0_gm.bin"), GM("s1", "f32", m * k, "src1_gm.bin"), GM("s2", "f32", k * n, "src2_gm.bin")
    slot, buf = m * k * 4, 0x10000 if a5 else 0
    K = Mixed(d, prof, [out, s0, s1, s2], slot * 2)
    cu, ve = K.cube, K.vec
    pv = ve.pipe(2, slot, 2, 0, buf)
    vec_add_push(ve, pv, a5, (s0, s1), m, k, vr, k, 1)
    ve.flag("wait", "V", "MTE2", 1)
    ve.flag("wait", "MTE3", "V", 1)
    ve.barrier()
    pc = cu.pipe(2, slot, 2, 0, buf)
    cu.tile("s2m", nz_mat("f32", k, n), 0 if a5 else 0x20000)
    cu.tile("al", left("f32", m, k, profile=prof), 0)
    cu.tile("bl", right("f32", k, n), 0)
    cu.tile("acc", acc("f32", m, n), 0)
    cu.view("vs2", s2, [k, n], [n, 1])
    cu.view("vo", out, [m, n], [n, 1])
    cu.flag("set", "MTE1", "MTE2", 1)
    cu.flag("set", "M", "MTE1", 1)
    cu.flag("wait", "MTE1", "MTE2", 1)
    cu.pop("res", nz_mat("f32", m, k), pc, 1)
    cu.op("tload", ["vs2"], ["s2m"])
    cu.flag("set", "MTE2", "MTE1", 0)
    cu.flag("wait", "MTE2", "MTE1", 0)
    cu.flag("wait", "M", "MTE1", 1)
    cu.op("tmov", ["res"], ["al"])
    cu.op("tmov", ["s2m"], ["bl"])
    if a5:
        cu.free(pc, 1)
    cu.flag("set", "MTE1", "MTE2", 1)
    cu.flag("set", "MTE1", "M", 0)
    cu.flag("wait", "MTE1", "M", 0)
    cube_matmul_store(cu)
    return K


NPU.update({"tpushpop_vc": vc_npu, "tpushpop_vc_nosplit": vc_nosplit_npu})
NAMES.update({"tpushpop_vc": lambda i, c: "TPushPopVCTest.case13_float_subblock_id_up_down" if len(c) == 4 else None})


def dir_both_npu(c, d):
    """tpushpop_dir_both_kernel.cpp runTPushPopDirBoth (M 128, K 64, N 128, f32; case1 up-down,
    case2 left-right): one DIR_BOTH pipe. Vector: TLOAD its parts of A and B, TADD, (A5: TMOV
    to NZ,) TPUSH (V2C); then TPOP its part of E = C D (C2V), TLOAD F, TSUB, (A5: TFREE,)
    TSTORE. Cube: TPOP C, TLOAD D, TMOV both, (A5: TFREE,) TMATMUL, TPUSH E. A5: slots of
    M K floats, C2V at UB 0, V2C at L1 0x20000, D at L1 0; A2/A3: GM slots of M N floats (V2C
    after the C2V ones), local slots at UB 0 / L1 0, D at L1 0x20000."""
    m, k, n = c[0], c[1], c[2]
    prof, split = npu_profile(), 1 if case_key(d) == 1 else 2
    a5 = prof == "a5"
    vr, vk, vn = (m // 2 if split == 1 else m), (k // 2 if split == 2 else k), (n // 2 if split == 2 else n)
    out = GM("out", "f32", m * n, "output_z.bin", is_input=False)
    A, B = GM("A", "f32", m * k, "srcA_gm.bin"), GM("B", "f32", m * k, "srcB_gm.bin")
    D, F = GM("D", "f32", k * n, "srcD_gm.bin"), GM("F", "f32", m * n, "srcF_gm.bin")
    slot = (m * k if a5 else m * n) * 4
    K = Mixed(d, prof, [out, A, B, D, F], slot * 4)
    cu, ve = K.cube, K.vec
    l1 = 0x20000 if a5 else 0
    pv = ve.pipe(3, slot, 2, 0, 0, l1)
    vec_add_push(ve, pv, a5, (A, B), m, k, vr, vk, split)
    vec_pop_sub_store(ve, pv, a5, F, out, m, n, vr, vn, split)
    pc = cu.pipe(3, slot, 2, 0, 0, l1)
    cu.tile("dm", nz_mat("f32", k, n), 0 if a5 else 0x20000)
    cu.tile("al", left("f32", m, k, profile=prof), 0)
    cu.tile("bl", right("f32", k, n), 0)
    cu.tile("acc", acc("f32", m, n), 0)
    cu.view("vd", D, [k, n], [n, 1])
    for f in (("FIX", "M"), ("M", "MTE1"), ("MTE1", "MTE2")):
        cu.flag("set", *f, 1)
    cu.flag("wait", "MTE1", "MTE2", 1)
    cu.pop("cm", nz_mat("f32", m, k), pc, split)
    cu.op("tload", ["vd"], ["dm"])
    cu.flag("set", "MTE2", "MTE1", 0)
    cu.flag("wait", "MTE2", "MTE1", 0)
    cu.flag("wait", "M", "MTE1", 1)
    cu.op("tmov", ["cm"], ["al"])
    cu.op("tmov", ["dm"], ["bl"])
    if a5:
        cu.free(pc, split)
    cu.flag("set", "MTE1", "MTE2", 1)
    cu.flag("set", "MTE1", "M", 0)
    cu.flag("wait", "MTE1", "M", 0)
    cu.flag("wait", "FIX", "M", 1)
    cu.op("tmatmul", ["al", "bl"], ["acc"])
    cu.flag("set", "M", "MTE1", 1)
    cu.flag("set", "M", "FIX", 0)
    cu.flag("wait", "M", "FIX", 0)
    cu.push("acc", pc, split)
    cu.flag("set", "FIX", "M", 1)
    for f in (("MTE1", "MTE2"), ("M", "MTE1"), ("FIX", "M")):
        cu.flag("wait", *f, 1)
    cu.barrier()
    return K


NPU.update({"tpushpop_dir_both": dir_both_npu})


def subtile_npu(c, d):
    """tpushpop_subtile_kernel.cpp runTPushTpopSubtile (M = K = N = 128, RepeatN 4, f16 in, f32
    out; A5 DIR_C2V_GM, A2/A3 DIR_C2V: a GM FIFO of 2 slots of M x 4N floats): the cube
    TMATMULs once, TALLOCs a GM entry M x 4N (pto.talloc on a declared global), TSTOREs the acc
    tile into its 4 column blocks, TPUSHes the entry (up-down); each vector sub-block TPOPs its
    (M/2) x 4N entry, and per 16-row slice TLOADs it, TADDS 3.14, TSTOREs to the output rows
    (A5: two buffers, event id = slice & 1; A2/A3: one buffer), then TFREEs the entry."""
    m, k, n, rep = c[0], c[1], c[2], c[3]
    it, ot, prof = dt(c[4]), dt(c[5]), npu_profile()
    a5, fn, vm = prof == "a5", n * rep, 16
    out, a, b = GM("out", ot, m * fn, "output_z.bin", is_input=False), GM("a", it, m * k, "x1_gm.bin"), GM("b", it, k * n, "x2_gm.bin")
    slot = m * fn * 4
    K = Mixed(d, prof, [out, a, b], slot * 2, gm_pipe=True)
    cu, ve = K.cube, K.vec
    pc = cu.pipe(1, slot, 2, 0, 0)
    mm_tiles(cu, it, ot, m, k, n, prof)
    cu.view("va", a, [m, k], [k, 1])
    cu.view("vb", b, [k, n], [n, 1])
    cube_one_matmul(cu)
    et = f"!pto.tensor_view<{m}x{fn}x{ot}>"
    K.types["ent"] = et
    cu.lines += ["%ent = pto.declare_global -> " + et, f"pto.talloc(%ent, {pc} : {et}, !pto.pipe) {{split = 1}}"]
    for t in range(rep):
        cu.part(f"st{t}", "ent", [0, t * n], [m, n])
        cu.op("tstore", ["acc"], [f"st{t}"])
    cu.lines.append(f"pto.tpush(%ent, {pc} : {et}, !pto.pipe) {{split = 1}}")
    cu.barrier()
    pv = ve.pipe(1, slot, 2, 0, 0)
    nb = 2 if a5 else 1
    vt = tbuf("vec", ot, vm, fn)
    for i in range(nb):
        ve.tile(f"vt{i}", vt, 0x10000 * i)
        ve.tile(f"dt{i}", vt, 0x20000 + 0x10000 * i)
    pt = f"!pto.tensor_view<{m // 2}x{fn}x{ot}>"
    K.types["pe"] = pt
    ve.lines += ["%pe = pto.declare_global -> " + pt, f"pto.tpop(%pe, {pv} : {pt}, !pto.pipe) {{split = 1}}"]
    ve.view("vo", out, [m, fn], [fn, 1])
    loop = [("MTE3", "MTE2", 0), ("MTE3", "MTE2", 1)] if a5 else [("V", "MTE2", 0), ("MTE3", "V", 0)]
    for f in loop:
        ve.flag("set", *f)
    s0 = "3.14"
    ve.lines.append(f"%s314 = arith.constant {s0} : {ot}")
    K.types["s314"] = ot
    for r in range(m // (2 * vm)):
        e, i = (r & 1, r & 1) if a5 else (0, 0)
        ve.part(f"ld{r}", "pe", [r * vm, 0], [vm, fn])
        ve.part(f"po{r}", "vo", [ve.sub(m // 2, r * vm), 0], [vm, fn])
        ve.flag("wait", *(("MTE3", "MTE2", e) if a5 else ("V", "MTE2", 0)))
        ve.op("tload", [f"ld{r}"], [f"vt{i}"])
        ve.flag("set", "MTE2", "V", e)
        ve.flag("wait", "MTE2", "V", e)
        if not a5:
            ve.flag("wait", "MTE3", "V", 0)
        ve.op("tadds", [f"vt{i}", "s314"], [f"dt{i}"])
        if not a5:
            ve.flag("set", "V", "MTE2", 0)
        ve.flag("set", "V", "MTE3", e)
        ve.flag("wait", "V", "MTE3", e)
        ve.op("tstore", [f"dt{i}"], [f"po{r}"])
        ve.flag("set", *(("MTE3", "MTE2", e) if a5 else ("MTE3", "V", 0)))
    for f in loop:
        ve.flag("wait", *f)
    ve.lines.append(f"pto.tfree(%pe, {pv} : {pt}, !pto.pipe) {{split = 1}}")
    ve.barrier()
    return K


NPU.update({"tpushpop_subtile": subtile_npu})


def mixed_size_npu(c, d):
    """a2a3 tpushpop_mixed_tile_size_kernel.cpp runTPushPopMixedTileSize (f32; keys 1-3
    DIR_V2C, 4-6 DIR_BOTH driven V2C only): 8 GM slots of max(M K, K N) floats, 8 local L1
    slots at 0. Both vector cores TLOAD A (UB 0) and TPUSH it unsplit, then B (UB 0x20000);
    the cube TPOPs A (M x K) and B (K x N) mat tiles, TMOVs both, TFREEs twice (no-ops),
    TMATMULs and TSTOREs."""
    m, k, n = c.m, c.k, c.n
    both = case_key(d) >= 4
    out, a, b = GM("out", "f32", m * n, "output_z.bin", is_input=False), GM("a", "f32", m * k, "x1_gm.bin"), GM("b", "f32", k * n, "x2_gm.bin")
    slot = max(m * k, k * n) * 4
    K = Mixed(d, "a2a3", [out, a, b], slot * 8 * (2 if both else 1))
    cu, ve = K.cube, K.vec

    def pipe(sec):
        return sec.pipe(3, slot, 8, 0, 0, 0, local_slots=8) if both else sec.pipe(2, slot, 8, 0, 0, local_slots=8)
    pv = pipe(ve)
    ve.tile("va", tbuf("vec", "f32", m, k), 0)
    ve.tile("vb", tbuf("vec", "f32", k, n), 0x20000)
    ve.view("ga", a, [m, k], [k, 1])
    ve.view("gb", b, [k, n], [n, 1])
    ve.flag("set", "V", "MTE2", 1)
    ve.flag("set", "MTE3", "V", 1)
    for g, t in (("ga", "va"), ("gb", "vb")):
        ve.flag("wait", "V", "MTE2", 1)
        ve.op("tload", [g], [t])
        ve.flag("set", "MTE2", "V", 0)
        ve.flag("wait", "MTE2", "V", 0)
        ve.flag("wait", "MTE3", "V", 1)
        ve.flag("set", "V", "MTE2", 1)
        ve.flag("set", "V", "MTE3", 0)
        ve.flag("wait", "V", "MTE3", 0)
        ve.push(t, pv, 0)
        ve.flag("set", "MTE3", "V", 1)
    ve.flag("wait", "V", "MTE2", 1)
    ve.flag("wait", "MTE3", "V", 1)
    ve.barrier()
    pc = pipe(cu)
    AM, AK, AN = align_up(m, 16), align_up(k, 8), align_up(n, 8)
    cu.tile("al", left("f32", AM, AK, m, k, "a2a3"), 0)
    cu.tile("bl", right("f32", AK, AN, k, n), 0)
    cu.tile("acc", acc("f32", m, n), 0)
    cu.view("vo", out, [m, n], [n, 1])
    cu.flag("set", "MTE1", "MTE2", 1)
    cu.flag("set", "M", "MTE1", 1)
    cu.flag("wait", "MTE1", "MTE2", 1)
    cu.pop("am", nz_mat("f32", AM, AK, m, k), pc, 0)
    cu.pop("bm", nz_mat("f32", AK, AN, k, n), pc, 0)
    cu.flag("set", "MTE2", "MTE1", 0)
    cu.flag("wait", "MTE2", "MTE1", 0)
    cu.flag("wait", "M", "MTE1", 1)
    cu.op("tmov", ["am"], ["al"])
    cu.op("tmov", ["bm"], ["bl"])
    cu.free(pc, 0)
    cu.free(pc, 0)
    cu.flag("set", "MTE1", "M", 0)
    cu.flag("wait", "MTE1", "M", 0)
    cu.flag("set", "MTE1", "MTE2", 1)
    cube_matmul_store(cu)
    return K


def fixpipe_npu(c, d):
    """tpushpop_fixpipe_kernel.cpp (both suites): TPUSH<MatPipe, AccTile, FixpipeParams<NZ2ND,
    F322F16 / F322BF16 / DEQF16 / VDEQF16>>: a quantizing push."""
    return ("TPUSH with FixpipeParams (quantizing C2V push): its text form is a frontend pipe (aic_initialize_pipe "
            "acc_push_epilogue + set_quant_*, spec-notes 18 'The quantizing push'); this maker emits generic pipes")


NPU.update({"tpushpop_mixed_tile_size": mixed_size_npu, "tpushpop_fixpipe": fixpipe_npu})
NAME_ONLY.add("tpushpop_fixpipe")  # gen_data.py: a name list and one generator function per case


def dir_both_concurrent_npu(c, d):
    """a2a3 tpushpop_dir_both_concurrent_kernel.cpp (M 128, K 64, N 128, f32; case1 up-down, case2
    left-right; DIR_BOTH over GM slots of M N floats, local slots at UB 0 / L1 0). Vector
    (runVecPushV2C, runVecPopC2V): TLOAD its parts of A and B, TADD, TPUSH C (V2C); TPOP its
    part of E, TLOAD F, TSUB, TSTORE G = E - F. Cube (runCubeHalf): TLOAD A (L1 0x20000) and D
    (0x40000), TMATMUL, TPUSH E = A D (C2V) before popping, then TPOP C, TMATMUL C D into the
    same acc tile, TSTORE it to outCube (main.cpp compares both outputs)."""
    m, k, n = c[0], c[1], c[2]
    split = 1 if case_key(d) == 1 else 2
    vr, vk, vn = (m // 2 if split == 1 else m), (k // 2 if split == 2 else k), (n // 2 if split == 2 else n)
    out = GM("out", "f32", m * n, "output_z.bin", is_input=False)
    A, B = GM("A", "f32", m * k, "srcA_gm.bin"), GM("B", "f32", m * k, "srcB_gm.bin")
    D, F = GM("D", "f32", k * n, "srcD_gm.bin"), GM("F", "f32", m * n, "srcF_gm.bin")
    oc = GM("oc", "f32", m * n, "output_cube.bin", is_input=False, golden="golden_cube.bin")
    slot = m * n * 4
    K = Mixed(d, "a2a3", [out, A, B, D, F, oc], slot * 4)
    cu, ve = K.cube, K.vec
    pv = ve.pipe(3, slot, 2, 0, 0, 0)
    vec_add_push(ve, pv, False, (A, B), m, k, vr, vk, split)  # runVecPushV2C
    vec_pop_sub_store(ve, pv, False, F, out, m, n, vr, vn, split)  # runVecPopC2V
    pc = cu.pipe(3, slot, 2, 0, 0, 0)
    cu.tile("am", nz_mat("f32", m, k), 0x20000)
    cu.tile("dm", nz_mat("f32", k, n), 0x40000)
    cu.tile("al", left("f32", m, k, profile="a2a3"), 0)
    cu.tile("bl", right("f32", k, n), 0)
    cu.tile("acc", acc("f32", m, n), 0)
    cu.view("ga", A, [m, k], [k, 1])
    cu.view("gd", D, [k, n], [n, 1])
    cu.view("goc", oc, [m, n], [n, 1])
    cu.flag("set", "FIX", "M", 1)
    cu.flag("set", "M", "MTE1", 1)
    cu.op("tload", ["ga"], ["am"])
    cu.op("tload", ["gd"], ["dm"])

    def mov_and_matmul(src):  # the kernel's movAndMatmul
        cu.flag("set", "MTE2", "MTE1", 0)
        cu.flag("wait", "MTE2", "MTE1", 0)
        cu.flag("wait", "M", "MTE1", 1)
        cu.op("tmov", [src], ["al"])
        cu.op("tmov", ["dm"], ["bl"])
        cu.flag("set", "MTE1", "M", 0)
        cu.flag("wait", "MTE1", "M", 0)
        cu.flag("wait", "FIX", "M", 1)
        cu.op("tmatmul", ["al", "bl"], ["acc"])
        cu.flag("set", "M", "MTE1", 1)
        cu.flag("set", "M", "FIX", 0)
        cu.flag("wait", "M", "FIX", 0)
    mov_and_matmul("am")
    cu.push("acc", pc, split)
    cu.flag("set", "FIX", "M", 1)
    cu.pop("cm", nz_mat("f32", m, k), pc, split)
    mov_and_matmul("cm")
    cu.op("tstore", ["acc"], ["goc"])
    cu.flag("set", "FIX", "M", 1)
    cu.flag("wait", "M", "MTE1", 1)
    cu.flag("wait", "FIX", "M", 1)
    cu.barrier()
    return K


NPU.update({"tpushpop_dir_both_concurrent": dir_both_concurrent_npu})
# ---- session 12, goldb ----
# NPU makers for the test dirs that had none: thistogram, tquant (INT8 and A5 MXFP8 ND),
# tadddeqrelu, trowexpandbrcb, taddplus (a2a3), mgather / mscatter; tcvt's fp8 / hif8 / fp4
# pairs. The others of that batch are listed in GOLDB_SKIP with the reason (no text spelling in
# ptosim, or no golden.bin from gen_data.py). See README "NPU suites, session 12 additions (goldb)".
import re
import sys

def thistogram_npu(c, d):
    """thistogram_kernel.cpp (A5): src u16 rows x ceil16(cols) valid rows x cols (GM valid-shaped),
    dst u32 rows x 256, idx u8 col-major ceil32(rows) x 1 valid rows x 1 through a DN view
    (idx.bin: one byte per row; zeros for the MSB cases, whose kernel does not load it);
    THISTOGRAM<BYTE_1> (MSB) / <BYTE_0> (LSB). The u32 cases (THISTOGRAM<BYTE_n> on a u32
    source, idx rows = filter bytes) have no text form: ptosim's thistogram is u16 with isMSB."""
    if hasattr(c, "byte"):
        return "u32 source (HistByte::BYTE_%d): ptosim's thistogram takes u16 only (isMSB)" % c.byte
    src = gm_tile("src", "ui16", (c.rows, -(-c.cols // 16) * 16), (c.rows, c.cols), d, "input.bin")
    idx = Tile("idx", "ui8", -(-c.rows // 32) * 32, 1, c.rows, 1, file="idx.bin", layout="col_major",
               grows=c.rows, gcols=1, dn=True)
    dst = gm_tile("dst", "ui32", (c.rows, 256), (c.rows, 256), d, "golden.bin", file="out.bin")
    return Spec("thistogram", [src, idx], [dst], attr_in="{isMSB = %s}" % str(c.msb_or_lsb == "MSB").lower())


def tquant_npu(c, d):
    """tquant_kernel.cpp INT8 forms (both NPU trees): src f32 rows x ceil8(cols), dst s8 / u8
    rows x ceil32(cols), both valid rows x cols (GM valid-shaped); scale (inv_scale_fp32.bin)
    and, for INT8_ASYM, offset (offset_fp32.bin): f32 col-major ceil8(rows) x 1 tiles valid
    rows x 1 through DN views. The kernels' tmp tile is not passed (the text form takes none).
    MXFP8: tquant_mx_npu; MXFP4 is not mapped."""
    q = getattr(c, "out_dtype_str", "")
    if q == "mxfp8":
        return tquant_mx_npu(c, d)
    if q not in ("int8_sym", "int8_asym", "s8", "u8"):
        return f"MX quant ({q}): not mapped (the kernel packs fp4 through a flat tile and compacts it)"
    asym = q in ("int8_asym", "u8")
    r, n = c.valid_rows, c.valid_cols
    t = "ui8" if asym else "i8"
    src = Tile("src", "f32", r, -(-n // 8) * 8, r, n, file="input.bin")
    para = [Tile(k, "f32", -(-r // 8) * 8, 1, r, 1, file=f, layout="col_major", grows=r, gcols=1, dn=True)
            for k, f in (("sc", "inv_scale_fp32.bin"), ("of", "offset_fp32.bin"))[: 1 + asym]]
    g = "golden_u8.bin" if asym else "golden_s8.bin"
    dst = Tile("dst", t, r, -(-n // 32) * 32, r, n, file="out.bin", golden=g)
    return Spec("tquant", [src] + para, [dst],
                attr_out="{quant_type = #pto<quant_type %s>}" % ("INT8_ASYM" if asym else "INT8_SYM"))


def tadddeqrelu_npu(c, d):
    """tadddeqrelu_kernel.cpp (both NPU trees): src0 / src1 i32 (input0.bin / input1.bin), tmp i32
    and dst f16, all row x col valid valid_row x valid_col, GM tile-shaped; main.cpp passes
    deqScaleArr[case - 1] as the f32 scalar: the case's deq_scale."""
    v = (c.valid_row, c.valid_col)
    s0, s1 = (gm_tile(f"s{i}", "i32", (c.row, c.col), v, d, f"input{i}.bin") for i in (0, 1))
    dst = gm_tile("dst", "f16", (c.row, c.col), v, d, "golden.bin", file="out.bin")
    return Spec("tadddeqrelu", [s0, s1, ("%s", "f32", float_lit(np.float32(c.deq_scale), "f32")),
                                Tile("tmp", "i32", c.row, c.col, *v)], [dst])


def tcolgather_npu(c, d):
    """tcolgather_kernel.cpp (both NPU trees): src row x col, dst dst_row x dst_col TLOADed from
    out (zeros) before TGATHER<dst, src, pattern, GATHER_COL>; golden: dst row i = src row
    t * i + o over src's columns, the rest 0."""
    t = dt(c.data_type)
    src = Tile("src", t, c.row, c.col, file="input.bin")
    dst = Tile("dst", t, c.dst_row, c.dst_col, file="out.bin", preload=True)
    return Spec("tgather", [src, '"col"'], [dst], attr_in="{maskPattern = #pto.mask_pattern<%s>}" % c.pattern)


def tcolscatter_npu(c, d):
    """tcolscatter_kernel.cpp (both NPU trees): src row x col, dst tile dst_row x dst_col
    (not loaded), TSCATTER<pattern, SCATTER_COL>; golden: dst row t * i + o = src row i, the rest
    0. dst's valid region is t * row x col (pto-isa's assertion and PTOAS's verifier; the kernel's
    dst tile is dst_col wide): stored with dst_col-element GM rows; the golden's other columns (0) are not compared."""
    t = dt(c.data_type)
    src = Tile("src", t, c.row, c.col, file="input.bin")
    dst = Tile("dst", t, c.dst_row, c.dst_col, c.dst_row, c.col, file="out.bin", gcols=c.dst_col)
    return Spec("tscatter", [src, '"col"'], [dst], attr_in="{maskPattern = #pto.mask_pattern<%s>}" % c.pattern)


def rowexpandbrcb_npu(c, d):
    """trowexpandbrcb_kernel.cpp (A5): src a col-major dst_row x 1 tile through a DN view, dst
    dst_row x dst_col (one 32-byte block a row), TROWEXPAND(dst, src)."""
    t = dtype_of(c)
    src = Tile("src", t, c.dst_row, 1, file="input.bin", layout="col_major", dn=True)
    dst = Tile("dst", t, c.dst_row, c.dst_col, file="out.bin")
    return Spec("trowexpand", [src], [dst])


GOLDB_SKIP = {
    **{o: "C API only in ptosim (no text spelling; the harness has no C API route)" for o in
       ("tsubrelu", "tfusedmuladd", "tfusedmuladdrelu", "tmuladddst", "taddreluconv", "tsubreluconv")},
    "texpands_mat": "TEXPANDS on a Mat (L1) tile: ptosim's texpands takes vec tiles only (texpands.space)",
    "tquant_dn": "axis0 (DN) MX quant kernels: not mapped",
    "trandom": "gen_data.py writes no golden (main.cpp compares the NPU output with itself)",
    "tfillpad": "gen_data.py writes no golden (main.cpp computes it)",
}


def skip(reason):
    return lambda c, d: reason


NPU.update({"thistogram": thistogram_npu, "tquant": tquant_npu, "tadddeqrelu": tadddeqrelu_npu,
            "tcolgather": tcolgather_npu, "tcolscatter": tcolscatter_npu,
            "trowexpandbrcb": rowexpandbrcb_npu, "taddplus": ew("tadd", 2),
            **{o: skip(r) for o, r in GOLDB_SKIP.items()}})
TOL.update({"tadddeqrelu": tol(2e-3), "tquant": tol(0.0, 0.0, 0.0)})
NAMES["thistogram"] = lambda i, c: (f"THISTOGRAMTest.case_u32_{c.rows}x{c.cols}_b{c.byte}_k{c.k}" if hasattr(c, "byte")
                                    else f"THISTOGRAMTest.case_{c.rows}x{c.cols}_" +
                                    ("b1" if c.msb_or_lsb == "MSB" else f"b0_k{c.k}"))


class GmView(Tile):
    """A GM array an op addresses itself (mgather's table, mscatter's destination): a
    rows x cols tensor view of its file; no UB tile, no tload / tstore (see ViewSpec)."""

    def type(self):
        return f"!pto.tensor_view<?x?x{self.dtype}>"


class ViewSpec(Spec):
    """A Spec whose GmView operands are spelled as their tensor views (%v<i>): the lines
    Spec.program writes to allocate, load or store them are left out."""

    def program(self, profile):
        views = []
        for i, t in enumerate(self.gm_args()):
            if isinstance(t, GmView):
                t.name = f"v{i}"
                views.append(t.name)
        drop = [f"%{v} = pto.alloc_tile" for v in views] + [f"pto.tload ins(%{v} :" for v in views] + \
            [f"pto.tstore ins(%{v} :" for v in views]
        return "\n".join(ln for ln in super().program(profile).split("\n") if not any(k in ln for k in drop))


CTYPES = {"float": "f32", "half": "f16", "bfloat16_t": "bf16", "int32_t": "i32", "uint32_t": "ui32",
          "int16_t": "i16", "uint16_t": "ui16", "int8_t": "i8", "uint8_t": "ui8"}


def kernel_cases(op):
    """{case name: (macro kind, {macro parameter: argument})} from the DEFINE_<KIND>(NAME, ...)
    lines of the current suite's <op>_kernel.cpp (its directory is on sys.path: run.py puts the
    suite's st directory there), parameters named as in the macro's #define."""
    st = next(p for p in sys.path if os.path.isdir(os.path.join(p, "testcase", op)))
    src = open(os.path.join(st, "testcase", op, f"{op}_kernel.cpp")).read()
    params = {k: [a.strip() for a in v.split(",")] for k, v in re.findall(r"#define DEFINE_(\w+)\(([^)]*)\)", src)}
    out = {}
    for m in re.finditer(r"^DEFINE_(\w+)\(", src, re.M):  # arguments split at commas outside parentheses
        args, depth, i = [""], 1, m.end()
        while depth:
            ch = src[i]
            depth += {"(": 1, ")": -1}.get(ch, 0)
            if ch == "," and depth == 1:
                args.append("")
            elif depth:
                args[-1] += ch
            i += 1
        args = [a.strip() for a in args]
        out[args[0]] = (m.group(1), dict(zip(params[m.group(1)], args)))
    return out


# Per kernel form: (data tile rows x cols, its valid shape, index tile rows x cols, its valid shape,
# table rows x cols); run-time valid shapes where the form's name ends in _DYN.
INDEXED = {
    "ROW": lambda p: ((p["R"], p["C"]), (p["R"], p["C"]), (1, p["R"]), (1, p["R"]), (p["TR"], p["C"])),
    "ROW_COLIDX": lambda p: ((p["R"], p["C"]), (p["R"], p["C"]), (p["R"], 1), (p["R"], 1), (p["TR"], p["C"])),
    "ROW_PAD": lambda p: ((p.get("PR", p["VR"]), p.get("PC", p.get("C"))), (p["VR"], p.get("VC", p.get("PC", p.get("C")))),
                          (1, p["PIC"]), (1, p["VR"]), (p["TR"], p.get("VC", p.get("PC", p.get("C"))))),
    "ROW_DYN": lambda p: ((p["PR"], p["PC"]), (p["RVR"], p["RVC"]), (1, p["PIC"]), (1, p["RVR"]), (p["RTR"], p["RVC"])),
    "ELEM": lambda p: ((1, p["N"]), (1, p["N"]), (1, p["N"]), (1, p["N"]), (1, p["TS"])),
    "ELEM2D": lambda p: ((p["R"], p["C"]), (p["R"], p["C"]), (p["R"], p["C"]), (p["R"], p["C"]), (1, p["TS"])),
    "ELEM2D_PAD": lambda p: ((p["PR"], p["PC"]), (p["VR"], p["VC"]), (p["PR"], p["PC"]), (p["VR"], p["VC"]), (1, p["TS"])),
    "ELEM_SCALAR": lambda p: ((1, p["PC"]), (1, 1), (1, p["PC"]), (1, 1), (1, p["TS"])),
    "ELEM2D_DYN": lambda p: ((p["PR"], p["PC"]), (p["RVR"], p["RVC"]), (p["PR"], p["PC"]), (p["RVR"], p["RVC"]),
                             (p["RTR"], p["RTC"]) if "RTR" in p else (1, p["RTS"])),
}
INDEXED.update({"ELEM_ATOMIC": INDEXED["ELEM"], "ELEM2D_ATOMIC": INDEXED["ELEM2D"],
                "ELEM2D_PAD_ATOMIC": INDEXED["ELEM2D_PAD"], "ELEM2D_DYN_UB": INDEXED["ELEM2D"]})


def indexed_npu(op):
    """mgather / mscatter_kernel.cpp (both NPU trees): each case's DEFINE_<KIND> line gives the
    element / index types, the data tile (dst / src) and index tile shapes and the GM table
    (INDEXED), and the OOB / ATOMIC policies. mgather: table.bin as a tensor view, idx
    (indices.bin, GM valid-shaped: 1 x n or n x 1 DN for ROW_COLIDX) and dst tiles; out GM
    valid-shaped. mscatter: src (src.bin) and idx tiles; the table (zeroed, as main.cpp's
    aclrtMemset) is the output, compared whole with golden.bin. ScatterConflict::Default cases
    run in ptosim's order (row-major, the last write wins: Last). The a2a3 NZ forms:
    indexed_nz; a5 mscatter's ELEM2D_CHUNKED: scatter_chunked."""
    def make(c, d):
        name = c[0].split(".", 1)[1].replace("case_", "", 1)
        kind, p = kernel_cases(op)[name]
        p = {k: (int(v) if v.lstrip("-").isdigit() else v) for k, v in p.items()}
        if kind in ("ROW_NZ", "ELEM2D_NZ"):
            return indexed_nz(op, kind, p)
        if kind == "ELEM2D_CHUNKED":
            return scatter_chunked(p)
        if kind not in INDEXED:
            return f"kernel form DEFINE_{kind}: not mapped"
        (dr, dc), dv, (ir, ic), iv, (tr, tc) = INDEXED[kind](p)
        t, it, dyn = CTYPES[p["T"]], CTYPES[p["TIDX"]], kind.endswith("_DYN")
        col = kind == "ROW_COLIDX"
        idx = Tile("idx", it, ir, ic, *iv, file="indices.bin", layout="col_major" if col else "row_major", dn=col,
                   dyn=dyn)
        table = GmView("table", t, tr, tc, file="table.bin" if op == "mgather" else "out.bin", golden="golden.bin")
        if op == "mgather":
            oob = {"Undefined": "undefined", "Clamp": "clamp", "Wrap": "wrap", "Zero": "zero"}[p["OOB"]]
            dst = Tile("dst", t, dr, dc, *dv, file="out.bin", dyn=dyn)
            return ViewSpec("mgather", [table, idx], [dst], attr_out="{gatherOob = #pto<gather_oob %s>}" % oob)
        oob = {"Undefined": "undefined", "Skip": "skip", "Clamp": "clamp", "Wrap": "wrap"}[p["OOB"]]
        atomic = p.get("ATOMIC", "None").lower()
        src = Tile("src", t, dr, dc, *dv, file="src.bin", dyn=dyn)
        return ViewSpec("mscatter", [src, idx], [table],
                        attr_out="{scatterAtomicOp = #pto<scatter_atomic_op %s>, scatterOob = #pto<scatter_oob %s>}"
                        % (atomic, oob))
    return make


def indexed_nz(op, kind, p):
    """a2a3 mgather / mscatter DEFINE_ROW_NZ / DEFINE_ELEM2D_NZ (runRowNz / runElem2DNz): GM
    table {1, BC, BR, 16, C0} (NZ), data tile R x C col-major of row-major 512-byte boxes
    (NZ) through the GM {1, BC, R / 16, 16, C0} (NZ; C = BC * C0), index tile 1 x R (row) or
    R x C (elem) row-major; a goldc Prog. mgather: table.bin, out = the dst's NZ array;
    mscatter: src.bin loaded, out = the (zeroed) table, compared whole."""
    t, it, R, C = CTYPES[p["T"]], CTYPES[p["TIDX"]], p["R"], p["C"]
    tshape, dshape = [1, p["BC"], p["BR"], 16, p["C0"]], [1, p["BC"], R // 16, 16, p["C0"]]
    ishape = [1, 1, 1, 1, R] if kind == "ROW_NZ" else [1, 1, 1, R, C]
    n_t, n_d = int(np.prod(tshape)), R * C
    gidx = GM("gi", it, int(np.prod(ishape)), "indices.bin")
    tiles = {"idx": tbuf("vec", it, *ishape[3:]), "data": tbuf("vec", t, R, C, bl="col_major", sl="row_major")}
    if op == "mgather":
        gt, gd = GM("gt", t, n_t, "table.bin"), GM("gd", t, n_d, "out.bin", is_input=False)
        oob = {"Undefined": "undefined", "Clamp": "clamp", "Wrap": "wrap", "Zero": "zero"}[p["OOB"]]
        step, gms = ("mgather", ["vt", "idx"], ["data"], None, "{gatherOob = #pto<gather_oob %s>}" % oob), [gd, gt, gidx]
        loads = [("tload", ["vi"], ["idx"])]
        store = [("tstore", ["data"], ["vd"])]
    else:
        gt, gd = GM("gt", t, n_t, "out.bin", is_input=False), GM("gd", t, n_d, "src.bin")
        oob = {"Undefined": "undefined", "Skip": "skip", "Clamp": "clamp", "Wrap": "wrap"}[p["OOB"]]
        attr = "{scatterAtomicOp = #pto<scatter_atomic_op %s>, scatterOob = #pto<scatter_oob %s>}" % (
            p["ATOMIC"].lower(), oob)
        step, gms = ("mscatter", ["data", "idx"], ["vt"], None, attr), [gt, gd, gidx]
        loads, store = [("tload", ["vi"], ["idx"]), ("tload", ["vd"], ["data"])], []
    views = {"vt": (gt, tshape, strides_of(tshape), "nz"), "vd": (gd, dshape, strides_of(dshape), "nz"),
             "vi": (gidx, ishape, strides_of(ishape), None)}
    return Prog(gms, views, tiles, loads + [step] + store, profiles=("a2a3",))


def scatter_chunked(p):
    """a5 mscatter DEFINE_ELEM2D_CHUNKED (runElem2DChunked): R / CR chunks in order, each TLOAD
    of the CR x C index and source chunks (partition views of the R x C arrays at row
    chunk * CR) and an elem-mode MSCATTER into the 1 x TS table (zeroed, the output)."""
    t, it, R, C, CR = CTYPES[p["T"]], CTYPES[p["TIDX"]], p["R"], p["C"], p["CR"]
    gt, gs, gi = (GM("gt", t, p["TS"], "out.bin", is_input=False), GM("gs", t, R * C, "src.bin"),
                  GM("gi", it, R * C, "indices.bin"))
    views = {"vt": (gt, [1, p["TS"]], [p["TS"], 1], None), "vs": (gs, [R, C], [C, 1], None),
             "vi": (gi, [R, C], [C, 1], None)}
    attr = "{scatterAtomicOp = #pto<scatter_atomic_op %s>, scatterOob = #pto<scatter_oob %s>}" % (
        p["ATOMIC"].lower(), p["OOB"].lower())
    steps = []
    for k in range(R // CR):
        views.update({f"ps{k}": ("part", "vs", [k * CR, 0], [CR, C]), f"pi{k}": ("part", "vi", [k * CR, 0], [CR, C])})
        steps += [("tload", [f"pi{k}"], ["idx"]), ("tload", [f"ps{k}"], ["src"]), ("mscatter", ["src", "idx"], ["vt"], None, attr)]
    return Prog([gt, gs, gi], views, {"idx": tbuf("vec", it, CR, C), "src": tbuf("vec", t, CR, C)}, steps,
                profiles=("a5",))


NPU.update({o: indexed_npu(o) for o in ("mgather", "mscatter")})


# 8-bit float tiles: hif8 stored as its bytes, compared as int8 (bit-exact, and main.cpp's
# ResultCmp on hifloat8_wrapper converts the int8 bits to float); put first so that dt(np.int8)
# stays "i8" (and the f8 entries made above, if any, win).
NP = {"f8E4M3FN": np.int8, "f8E5M2": np.int8, "!pto.hif8": np.int8, "!pto.f4E1M2x2": np.uint8,
      "!pto.f4E2M1x2": np.uint8, **NP}
ES = {k: np.dtype(v).itemsize for k, v in NP.items()}
F8 = {"float8_e4m3fn": "f8E4M3FN", "float8_e5m2": "f8E5M2", "hifloat8": "!pto.hif8"}  # tile_buf spells hif8 so


def tcvt8_npu(c, d):
    """tcvt_npu, plus the A5 pairs with an 8-bit float side (gen_data's ml_dtypes float8_e4m3fn /
    float8_e5m2 and en_dtypes hifloat8: the tiles take ptosim's f8E4M3FN / f8E5M2 / hif8) and
    the fp4 pairs (gen_data's _Fp4E*x2Type sentinels: tcvt_fp4_npu)."""
    kinds = [getattr(x, "__name__", "") for x in (c.srctype, c.dsttype)]
    if any(k.startswith("fp4") for k in kinds):
        return tcvt_fp4_npu(c, d, kinds)
    names = [F8.get(k) for k in kinds]
    if not any(names):
        return tcvt_npu(c, d)
    stand = types.SimpleNamespace(**{**vars(c), "srctype": np.int8 if names[0] else c.srctype,
                                     "dsttype": np.int8 if names[1] else c.dsttype})
    spec = tcvt_npu(stand, d)
    for t, n in zip((spec.steps[0][1][0], spec.steps[0][2][0]), names):
        t.dtype = n or t.dtype
    return spec


def tcvt_fp4_npu(c, d, kinds):
    """tcvt_kernel.cpp's bf16 <-> fp4 cases (A5): the kernel's m x n tiles (fp4 columns counted
    in codes) are a bf16 m x n tile (valid valid_m x valid_n) and an fp4-pair tile m x n / 2
    (valid valid_m x ceil(valid_n / 2): ptosim's elements are bytes of two codes); GM arrays
    tile-shaped (m x (n + 1) / 2 bytes on the fp4 side), whole arrays compared as main.cpp
    does (uint8 on the fp4 side); run-time valid shapes when partial, TCVT CAST_RINT."""
    f4 = "!pto.f4E1M2x2" if "fp4_e1m2x2" in kinds else "!pto.f4E2M1x2"
    part = (c.valid_m, c.valid_n) != (c.m, c.n)
    b = ((c.m, c.n), (c.valid_m, c.valid_n))
    q = ((c.m, c.n // 2), (c.valid_m, (c.valid_n + 1) // 2))
    if kinds[1].startswith("fp4"):
        src = gm_tile("src", "bf16", *b, d, "x1_gm.bin", dyn=part)
        dst = gm_tile("dst", f4, *q, d, "golden.bin", file="out.bin", dyn=part)
    else:
        src = gm_tile("src", f4, *q, d, "x1_gm.bin", dyn=part)
        dst = gm_tile("dst", "bf16", *b, d, "golden.bin", file="out.bin", dyn=part)
    return Spec("tcvt", [src], [dst], attr_in="{rmode = #pto<round_mode CAST_RINT>}")


NPU["tcvt"] = tcvt8_npu


def tquant_mx_npu(c, d):
    """tquant_kernel.cpp (A5) runTQuant / runTQuantBF16 / runTQuantFP16, mode 0 (ND): src T
    rows x ceil32(cols) valid rows x cols (input.bin, GM valid-shaped), fp8 dst (u8 bytes) the
    same shape (golden_fp8.bin), the flat e8m0 exponent tile 1 x ceil32(g) valid 1 x g
    (g = rows * ceil32(cols) / 32; golden_e8m0.bin), max and scaling tiles of T (f32, or the
    b16 type) 1 x 2g rounded up to 64 / 128 elements (the kernel declares 1 x g rounded to
    32 bytes and keeps room after them by its TASSIGN addresses: the flat forms write up to
    2g entries); TQUANT<MXFP8, .., OCP | NV>, groups of 32 columns.
    The NZ cases (then TMOV to NZ / ZZ layouts) and the exp2d fuzz case are not mapped."""
    if c.mode != "nd" or "exp2d" in (c.case_suffix or ""):
        return f"MXFP8 {c.mode} {c.case_suffix or ''}: the kernel's TMOV to NZ / ZZ layouts (or its 2-D exp tile) not mapped"
    t, r, n = dt(c.dtype), c.valid_rows, c.valid_cols
    pc = -(-n // 32) * 32
    g = r * pc // 32
    src = Tile("src", t, r, pc, r, n, file="input.bin")
    dst = Tile("dst", "ui8", r, pc, r, n, file="out_fp8.bin", golden="golden_fp8.bin")
    exp = Tile("exp", "ui8", 1, -(-g // 32) * 32, 1, g, file="out_e8m0.bin", golden="golden_e8m0.bin")
    k = 64 if t == "f32" else 128  # scratch: what ptosim's flat forms write (tquant_mx.capacity)
    mx, sc = (Tile(nm, t, 1, -(-2 * g // k) * k, 1, g) for nm in ("mx", "scl"))
    return Spec("tquant.mx", [src], [dst, exp, mx, sc],
                attr_out="{quant_type = #pto<quant_type MXFP8>, quantScaleAlg = #pto<quant_scale_alg %s>, "
                "grpAxis = #pto<mx_group_axis axis1>}" % c.scale_alg)
# ---- session 12, goldf ----
# Data movement tests, part 2 (NPU suites): tinsert / textract / tmov variants, tstore_acc2gm,
# tmatmul_mx, timg2col, ttrans_conv and the tload variants, on the goldc Prog template. Several
# kernels move a tile into L1 on one core and read it back with the cube's raw
# copy_cbuf_to_ubuf before a TSTORE (L1 is not reachable from GM otherwise): `readback`.


def burst_copy(op, src, dst, spaces, t, nbytes):
    """pto.<op> (the raw copy_* DMA) of nbytes (whole 32-byte blocks) from the tile `src` to the
    tile `dst` (both TASSIGNed: %a_ constants) as one burst, gaps 0; spaces: the (src, dst)
    pointer spaces."""
    ps, pd = (f"!pto.ptr<{t}, {sp}>" for sp in spaces)
    k = f"{src}_{dst}"
    return [f"%s_{k} = pto.castptr %a_{src} : i64 -> {ps}", f"%d_{k} = pto.castptr %a_{dst} : i64 -> {pd}",
            f"%n_{k} = arith.constant {nbytes // 32} : i64", f"%z_{k} = arith.constant 0 : i64",
            f"%o_{k} = arith.constant 1 : i64",
            f"pto.{op} %s_{k}, %d_{k}, %z_{k}, %o_{k}, %n_{k}, %z_{k}, %z_{k} : {ps}, {pd}, i64, i64, i64, i64, i64"]


def readback(src, dst, t, nbytes):
    """The cube's copy_cbuf_to_ubuf of nbytes from the L1 tile `src` to the UB tile `dst` (the
    kernels' bursts are contiguous: src gap 0). Sub-block 0 only (the kernels copy to both
    vector cores' UB)."""
    return burst_copy("copy_cbuf_to_ubuf", src, dst, ("l1", "ub"), t, nbytes)


def nz_view(g, rows, cols, es):
    """The kernels' NZ GM view of a rows x cols array: [1, cols / C0, rows / 16, 16, C0] (C0 = 32 B)."""
    c0 = 32 // es
    return (g, [1, cols // c0, rows // 16, 16, c0], [rows * cols, rows * c0, 16 * c0, c0, 1], "nz")


def nd_vec_insert(t, sr, sc, svc, dr, dc, ir, ic, files=("src_input.bin", "dst_init.bin"), svr=None, nz=False,
                  profile="a5"):
    """tinsert RunTInsertNDVec[Valid / Scalar] (a5 tinsert, a2a3 tinsert_vec; a2a3's NZ kernel
    with nz): TLOAD src (sr x sc) at 0 and dst (dst_init.bin) at align(src bytes, 256) (nz:
    NZ tiles through NZ views), TINSERT a src tile of valid svr x svc (the same bytes: the
    kernels' second tile type or TSUBVIEW at (0, 0)) at (ir, ic), TSTORE dst (golden_output.bin)."""
    a, svr = align_up(sr * sc * ES[t], 256), sr if svr is None else svr
    src, init = GM("src", t, sr * sc, files[0]), GM("init", t, dr * dc, files[1])
    out = GM("out", t, dr * dc, "out.bin", is_input=False, golden="golden_output.bin")
    lay = ("col_major", "row_major") if nz else ("row_major", "none_box")
    tiles = {"s": (tbuf("vec", t, sr, sc, None, None, *lay), 0), "x": (tbuf("vec", t, sr, sc, svr, svc, *lay), 0),
             "dst": (tbuf("vec", t, dr, dc, None, None, *lay), a)}
    if nz:
        views = {"vs": nz_view(src, sr, sc, ES[t]), "vi": nz_view(init, dr, dc, ES[t]), "vo": nz_view(out, dr, dc, ES[t])}
    else:
        views = {"vs": view2(src, sr, sc), "vi": view2(init, dr, dc), "vo": view2(out, dr, dc)}
    p = Prog([out, src, init], views, tiles, [("tload", ["vs"], ["s"]), ("tload", ["vi"], ["dst"]),
                                              ("tinsert", ["x", f"c{ir}", f"c{ic}"], ["dst"]),
                                              ("tstore", ["dst"], ["vo"])], profiles=(profile,))
    return index_consts(p, (ir, ic))


def tinsert_vec_a2a3(c, d):
    """a2a3 tinsert_vec_kernel.cpp: RunTInsertNDVec (nd: (T, src rows, cols, dst rows, cols, src
    valid rows, cols, idx row, col)), RunTInsertNDVecScalar (nd_scalar: (T, dst rows, cols, idx
    row, col), a 1 x 32 B source of valid 1 x 1), the NZ kernel (nz: nd's parameters, NZ tiles),
    RunTInsertNZVecScalar (nz_scalar: (T, src rows, cols, dst rows, cols, idx row, col), NZ tiles,
    the source a TSUBVIEW of valid 1 x 1 at (0, 0)); nd_vec_insert."""
    name, p = c
    t = dt(p[0])
    if "nz_scalar" in name:
        return nd_vec_insert(t, p[1], p[2], 1, p[3], p[4], p[5], p[6], svr=1, nz=True, profile="a2a3")
    if "scalar" in name:
        return nd_vec_insert(t, 1, 32 // ES[t], 1, p[1], p[2], p[3], p[4], svr=1, profile="a2a3")
    return nd_vec_insert(t, p[1], p[2], p[6], p[3], p[4], p[7], p[8], svr=p[5], nz="case_nz" in name,
                         profile="a2a3")


SUITE["npu-a2a3"].update({"tinsert_vec": tinsert_vec_a2a3})


def vec_to_mat_insert(t, ft, rows, cols, dst_rows, ir, src_nz=False, plus_one=False, src_valid=None, split=None):
    """a5 tinsert runTInsertNZ[PlusOne / LargeTile / Hif8] (vector core) + ReadbackCbufToUbuf
    (cube): TLOAD the source (ND rows x cols at 0, TMOV into an NZ tile at 0x10000 (plus_one:
    rows + 1 rows, row_plus_one compact); src_nz: an NZ tile of valid src_valid rows TLOADed
    through an NZ view), TINSERT into an NZ mat tile dst_rows x cols at (ir, 0), the cube's copy
    of the mat tile back to UB, TSTORE through an NZ view. L1 starts zeroed (the LargeTile
    kernel zeroes it with vdup + copy_ubuf_to_cbuf). split: 2 or 4, TINSERT<TInsertMode::SPLITn>
    (runTInsertNZSplit[Hif8]: the same tiles)."""
    es = ES[ft]
    src = GM("src", ft, rows * cols, "input_arr.bin", tdt=t)
    out = GM("out", ft, dst_rows * cols, "out.bin", is_input=False, golden="golden_output.bin", tdt=t)
    back = 0x10000 if src_nz else 0x20000
    tiles = {"mat": (tbuf("mat", t, dst_rows, cols, "?", "?", "col_major", "row_major"), 0, (dst_rows, cols)),
             "back": (vec_dyn(t, dst_rows, cols, "col_major", "row_major"), back, (dst_rows, cols))}
    views = {"vo": nz_view(out, dst_rows, cols, es)}
    if src_nz:
        tiles["s"] = (tbuf("vec", t, rows, cols, src_valid or rows, cols, "col_major", "row_major"), 0)
        views["vs"] = nz_view(src, rows, cols, es)
        steps, ins = [("tload", ["vs"], ["s"])], "s"
    else:
        tmp = tbuf("vec", t, rows + 1 if plus_one else rows, cols, rows, cols, "col_major", "row_major")
        tiles.update(s=(vec_dyn(t, rows, cols), 0, (rows, cols)),
                     tmp=(tmp[:-1] + ", compact=2>" if plus_one else tmp, 0x10000))
        views["vs"] = view2(src, rows, cols)
        steps, ins = [("tload", ["vs"], ["s"]), ("tmov", ["s"], ["tmp"])], "tmp"
    mode = f"{{tinsertMode = #pto.tinsert_mode<split{split}>}}" if split else None
    steps += [("tinsert", [ins, f"c{ir}", "c0"], ["mat"], None, mode)] + readback("mat", "back", t, dst_rows * cols * es)
    steps += [("tstore", ["back"], ["vo"])]
    return index_consts(Prog([out, src], views, tiles, steps, profiles=("a5",)), (ir,))


def acc_to_mat_insert(m, k, n):
    """a5 tinsert RunTInsertAcc2Mat<half, half, M, K, N>: A (m x k) and B (k x n) f16 TLOADed into
    NZ mat tiles (0, 0x10000), TMOV to left / right, TMATMUL into an f32 acc, TINSERT into an f32
    NZ mat tile at (0, 0), the cube's copy of it to UB (NZ vec tile at 0), TSTORE through an NZ
    view (golden.bin: the product in NZ)."""
    a, b = GM("a", "f16", m * k, "x1_gm.bin"), GM("b", "f16", k * n, "x2_gm.bin")
    out = GM("out", "f32", m * n, "out.bin", is_input=False)
    tiles = {"amat": (nz_mat("f16", m, k), 0), "bmat": (nz_mat("f16", k, n), 0x10000), "al": (left("f16", m, k), 0),
             "bl": (right("f16", k, n), 0), "acc": (acc("f32", m, n), 0), "dmat": (nz_mat("f32", m, n), 0),
             "back": (tbuf("vec", "f32", m, n, bl="col_major", sl="row_major"), 0)}
    views = {"va": view2(a, m, k), "vb": view2(b, k, n), "vo": nz_view(out, m, n, 4)}
    steps = [("tload", ["va"], ["amat"]), ("tload", ["vb"], ["bmat"]), ("tmov", ["amat"], ["al"]),
             ("tmov", ["bmat"], ["bl"]), ("tmatmul", ["al", "bl"], ["acc"]), ("tinsert", ["acc", "c0", "c0"], ["dmat"])]
    steps += readback("dmat", "back", "f32", m * n * 4) + [("tstore", ["back"], ["vo"])]
    return Prog([out, a, b], views, tiles, steps, profiles=("a5",))


# a5 tinsert launchTInsertNZ<key> kernels by case: (kind, T, Rows, Cols[, ValidRow, TileRows, DstRows, IdxRow]);
# plus1 / hif8 with a 5th entry: TINSERT<TInsertMode::SPLIT2 / 4> (2 or 4)
TINSERT_NZ = {"nz_1": ("nz", "f32", 16, 32), "nz_2": ("plus1", "f32", 16, 32), "nz_3": ("plus1", "f32", 32, 64),
              "nz_4": ("plus1", "i32", 32, 32), "nz_5": ("plus1", "f32", 32, 32, 2), "nz_6": ("plus1", "f32", 32, 32, 4), "nz_7": ("nz", "f32", 64, 64),
              "nz_14": ("large", "f32", 32, 32, 16, 32, 32, 0), "nz_15": ("large", "f32", 32, 32, 16, 32, 32, 16),
              "nz_hif8_1": ("hif8", "!pto.hif8", 16, 64), "nz_hif8_2": ("hif8", "!pto.hif8", 16, 64, 2), "nz_hif8_3": ("hif8", "!pto.hif8", 16, 128, 4)}


def tinsert_a5(c, d):
    """a5 tinsert_kernel.cpp, by case family (gen_data.py's tuples (name, generator, args...)):
    acc2mat, nz (TINSERT_NZ), nd_vec (the generator's parameters are the kernel's)."""
    fam = c[0].split(".case_", 1)[1]
    args = c[2:]
    if fam.startswith("acc2mat"):
        return acc_to_mat_insert(*args)
    if fam.startswith("nd_vec"):
        p = args[0] if len(args) == 1 else None
        if p is None:  # gen_nd_vec_scalar(dtype, dst_rows, dst_cols, idx_row, idx_col)
            t = dt(args[0])
            return nd_vec_insert(t, 1, 32 // ES[t], 1, args[1], args[2], args[3], args[4])
        if hasattr(p, "valid_cols"):
            return nd_vec_insert(dt(p.dtype), p.src_rows, p.padded_cols, p.valid_cols, p.dst_rows, p.dst_cols,
                                 p.idx_row, p.idx_col)
        return nd_vec_insert(dt(p.dtype), p.src_rows, p.src_cols, p.src_cols, p.dst_rows, p.dst_cols, p.idx_row,
                             p.idx_col)
    k = TINSERT_NZ.get(fam)
    if k is None:
        return "kernel family not reached in the time box (goldf)"
    if k[0] == "large":
        _, t, _, cols, vr, tr, drows, ir = k
        return vec_to_mat_insert(t, t, tr, cols, drows, ir, src_nz=True, src_valid=vr)
    split = k[4] if len(k) == 5 else None
    if k[0] == "hif8":
        return vec_to_mat_insert(k[1], "ui8", k[2], k[3], k[2], 0, src_nz=True, split=split)
    return vec_to_mat_insert(k[1], k[1], k[2], k[3], k[2], 0, plus_one=k[0] == "plus1", split=split)


SUITE["npu-a5"].update({"tinsert": tinsert_a5})


RELU = "{reluPreMode = #pto<relu_pre_mode normal_relu>}"


def acc_matmul(c, a_addr=0x20000, b_addr=0x10000, unalign=False):
    """The acc2vec / acc2mat kernels' RunMATMUL from a TMovParams case c: A (m x k) and B (k x n)
    TLOADed into NZ mat tiles M x K / K x N (valid m x k / k x n; M, K, N aligned to 32 elements
    for i8, else 16) at a_addr / b_addr, TMOV to left / right, TMATMUL into the acc (i32 for i8,
    else f32; valid m x n). unalign: RunMATMUL_NZUNALIGN, whose GM arrays (gen_data.py's padded
    files), mat, left and right tiles are all M x K / K x N (only the acc keeps valid m x n).
    Returns (gms, views, tiles, steps, acc dtype)."""
    at = dt(c.atype)
    ct, ba = ("i32", 32) if at == "i8" else ("f32", 16)
    M, K, N = align_up(c.m, ba), align_up(c.k, ba), align_up(c.n, ba)
    m, k, n = (M, K, N) if unalign else (c.m, c.k, c.n)
    a, b = GM("a", at, m * k, "x1_gm.bin"), GM("b", at, k * n, "x2_gm.bin")
    views = {"va": view2(a, m, k), "vb": view2(b, k, n)}
    tiles = {"amat": (nz_mat(at, M, K, m, k), a_addr), "bmat": (nz_mat(at, K, N, k, n), b_addr),
             "al": (left(at, M, K, m, k), 0), "bl": (right(at, K, N, k, n), 0), "acc": (acc(ct, M, N, c.m, c.n), 0)}
    steps = [("tload", ["va"], ["amat"]), ("tload", ["vb"], ["bmat"]), ("tmov", ["amat"], ["al"]),
             ("tmov", ["bmat"], ["bl"]), ("tmatmul", ["al", "bl"], ["acc"])]
    return [a, b], views, tiles, steps, N


def scalar_quant_move(p, move, ix, tgt, relu):
    """tmov / textract / tinsert of %acc into %tgt with the quant scalar %qs (PTOOps.td: textract's
    4th ins operand, tinsert's `pre_quant %q : i64`); ix: the index constants; relu: attribute text."""
    ixs, ixt, acc = "".join(f", %{n}" for n in ix), ", index" * len(ix), p.ttype("acc")
    ins = f"%acc{ixs} : {acc}{ixt} pre_quant %qs : i64" if move == "tinsert" else f"%acc{ixs}, %qs : {acc}{ixt}, i64"
    return f"pto.{move} ins({ins}) outs(%{tgt} : {p.ttype(tgt)}){relu}"


def acc_to_vec(c, move, shape, valid, out_shape, init=None):
    """The a5 acc2vec kernels (RunTMOV / RunTMOVFBQuant): acc_matmul, then `move` (tmov /
    textract / tinsert at (index_rows, index_cols)) of the acc into an ND vec tile `shape`
    (valid `valid`) at 0 through the FIXPIPE (vector quant, relu), TSTORE of the valid region
    into the top left of the out_shape output (tmov_acc2vec_prog). init: the dst.bin the
    vector core TLOADs into the tile first (tinsert: the bytes around the inserted window)."""
    gms, views, tiles, steps, N = acc_matmul(c)
    return tmov_acc2vec_prog(c, gms, views, tiles, steps, N, dt(c.dst_type), "ND", *shape, valid=valid,
                             move=move, index=(c.index_rows, c.index_cols), init=init, out_cols=out_shape)


def acc2vec_skip(c, name):
    """Why an acc2vec case is not run, or None."""
    if "split" in name:
        return "dual-destination split (AccToVecMode dual): each half lands in another vector core's UB"
    return None


def tinsert_acc2vec(c, d):
    """a5 tinsert_acc2vec_kernel.cpp RunTMOV / RunTMOVFBQuant with isInsert: acc_to_vec with a
    dst_row x dst_col tile (all valid) preloaded from dst.bin, TINSERT at (index_rows,
    index_cols), stored whole. The kernel's subBlockId 1 (case_nz2nd_3) inserts into vector core
    1's UB and stores from there; here core 0 (the same bytes)."""
    why = acc2vec_skip(c, os.path.basename(d))
    if why:
        return why
    s = (c.dst_row, c.dst_col)
    return acc_to_vec(c, "tinsert", s, s, s, init="dst.bin")


def textract_acc2vec(c, d):
    """a5 textract_acc2vec_kernel.cpp RunTMOV / RunTMOVFBQuant: acc_to_vec with a dst_row x
    dst_col tile (the kernel's staticRow x staticCol) of valid (m - index_rows) x (n -
    index_cols), TEXTRACT at (index_rows, index_cols), TSTORE through a dst_row x dst_col view
    (main.cpp compares that whole array: the valid region, zeros around it). (The kernel's TLOAD
    of zeros into the tile first is left out: UB starts zeroed.)"""
    why = acc2vec_skip(c, os.path.basename(d))
    if why:
        return why
    v = (c.m - c.index_rows, c.n - c.index_cols)
    return acc_to_vec(c, "textract", (c.dst_row, c.dst_col), v, (c.dst_row, c.dst_col))


SUITE["npu-a5"].update({"tinsert_acc2vec": tinsert_acc2vec, "textract_acc2vec": textract_acc2vec})


def top_split(s):
    """s split at its top-level commas (not inside <>, (), [])."""
    out, depth, cur = [], 0, ""
    for ch in s:
        depth += ch in "<([" and 1 or ch in ">)]" and -1 or 0
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return out + ([cur.strip()] if cur.strip() else [])


def launch_call(d, kernel, func, key):
    """(runner, template args, call args) of the kernel launch in `if constexpr (tilingKey ==
    key)` of function `func` in the test's <kernel>.cpp (the pto-isa source next to the case's
    gen_data.py: found through run.py's copy of it)."""
    import re
    src = open(os.path.join(TESTCASE_DIR[0], os.path.basename(os.path.dirname(d)), kernel)).read()
    body = src[src.index(f"void {func}("):]
    m = re.search(r"(?:tilingKey|testKey) == %d\)\s*\{(.*?)(?:\} else if constexpr|\n\}\n)" % key, body, re.S)
    call = m.group(1)
    r = re.search(r"(\w+)\s*<", call)
    i, depth = r.end(), 1
    while depth:
        depth += {"<": 1, ">": -1}.get(call[i], 0)
        i += 1
    targs = top_split(call[r.end(): i - 1])
    cargs = top_split(call[call.index(">>>(", i) + 4: call.rindex(")")])
    return r.group(1), targs, cargs


def test_key(d, main="main.cpp"):
    """The first integer template argument after the first of the TEST_F body's helper call for
    the case (its key; the arguments before it are types) and the first one (its function
    selector)."""
    import re
    src = open(os.path.join(TESTCASE_DIR[0], os.path.basename(os.path.dirname(d)), main)).read()
    case = os.path.basename(d).split(".", 1)[1]
    m = re.search(r"TEST_F\(\w+,\s*%s\)\s*\{\s*\w+<([^>]*)>" % re.escape(case), src)
    a = top_split(m.group(1))
    return next(int(x) for x in a[1:] if x.isdigit()), a[0]


TESTCASE_DIR = [None]  # run.py sets the suite's testcase directory


def flag(a, i, default=False):
    return a[i] == "true" if len(a) > i else default


def tmov_acc2vec(c, d):
    """a5 tmov_acc2vec_kernel.cpp RunTMOV / RunTMOVFBQuant / RunTMOVSCQuant (Launch... per case
    family, tilingKey from main.cpp): acc_matmul (RunMATMUL_NZUNALIGN when isNZUnalign: A / B of
    the base shape, all valid), TMOV of the acc into a vec tile row x col (ND, NZ (512-byte
    fractal) or DN; valid m x n, or all of it when unaligned) with the vector quant (_fp form),
    scalar quant (the float's bits as the quant word, bit 46 = signed 1-byte output) or relu,
    TSTORE of validM x validN through the layout's view."""
    name = os.path.basename(d).split(".", 1)[1]
    if "split" in name:
        return "dual-destination split (AccToVecMode dual): each half lands in another vector core's UB"
    fmt = name.split("_")[1][3:].upper()  # nz2nd -> ND
    q = "FBQuant" if c.is_v_quant else "SCQuant" if c.is_s_quant else ""
    key, _ = test_key(d)
    run, a, _ = launch_call(d, "tmov_acc2vec_kernel.cpp", f"LaunchTMOVAcc2Vec{q}NZ2{fmt}", key)
    o = 1 if run == "RunTMOVFBQuant" else 0
    row, col = int(a[6 + o]), int(a[7 + o])
    unalign, sfr = flag(a, 9 + o), int(a[12 + o]) if len(a) > 12 + o else 512
    if len(a) > 13 + o:
        return f"unit-flag phase {a[13 + o]} (stPhase / accPhase on a vec destination): not modelled here"
    if sfr != 512 and fmt == "NZ":
        return "NZ tile of 1024-byte fractals stored by the kernel's raw copy_ubuf_to_gm (UBCopyOut)"
    ot = dt(c.dst_type)
    gms, views, tiles, steps, N = acc_matmul(c, unalign=unalign)  # unalign: the dst tile all valid (goldh)
    return tmov_acc2vec_prog(c, gms, views, tiles, steps, N, ot, fmt, row, col, sfr, valid=(row, col) if unalign else None)


def tmov_acc2vec_prog(c, gms, views, tiles, steps, N, ot, fmt, row, col, sfr=512, valid=None, mat=False,
                      move="tmov", index=(0, 0), init=None, out_cols=None):
    """tmov_acc2vec's move and store (see there) after acc_matmul's steps: `move` (tmov, or
    textract / tinsert at `index`) of the acc into a row x col tile of layout fmt (valid `valid`,
    default m x n) in UB, or (mat) in L1 at 0 followed by the cube's copy of its row x col
    elements to a vec tile at UB 0 (the acc2mat kernels' TMOVMat2Vec); init: a file TLOADed
    into the target tile before the move (tinsert); then TSTORE of the valid region (ND:
    into the top left of an out_cols = (rows, cols) output when given)."""
    es = ES[ot]
    vm, vn = valid or (c.m, c.n)
    oshape = out_cols or (vm, vn)
    out = GM("out", ot, oshape[0] * oshape[1], "out.bin", is_input=False)
    gms.insert(0, out)
    if fmt == "ND":
        views["vo"], bl, sl = view2(out, vm, vn, stride=oshape[1]), "row_major", "none_box"
    elif fmt == "DN":
        views["vo"], bl, sl = (out, [vm, vn], [1, vm], "dn"), "col_major", "none_box"
    else:
        c0 = 32 // es
        kr, kc = -(-vm // 16), -(-vn // c0)
        views["vo"] = (out, [1, kc, kr, 16, c0], [kc * kr * 16 * c0, kr * 16 * c0, 16 * c0, c0, 1], "nz")
        out.elems = kc * kr * 16 * c0
        bl, sl = "col_major", "row_major"
    tiles["dst"] = (tbuf("vec", ot, row, col, vm, vn, bl, sl, sfr), 0)
    tgt = "dst"
    if mat:
        tiles["smat"], tgt = (tbuf("mat", ot, row, col, vm, vn, bl, sl, sfr), 0), "smat"
    if init:
        g = GM("init", ot, vm * vn, init)
        gms.append(g)
        views["vi"] = view2(g, vm, vn)
        steps.append(("tload", ["vi"], [tgt]))
    src = ["acc"]
    if c.is_v_quant:
        q = GM("quant", "ui64", c.n, "quant_gm.bin")
        gms.append(q)
        views["vq"] = view2(q, 1, c.n)
        tiles.update(fbmat=(tbuf("mat", "ui64", 1, N, 1, c.n), 0x30000), fb=(tbuf("scaling", "ui64", 1, N, 1, c.n), 0))
        steps += [("tload", ["vq"], ["fbmat"]), ("tmov", ["fbmat"], ["fb"])]
        src.append("fb")
    p = Prog(gms, views, tiles, steps, profiles=("a5",))
    relu = " " + RELU if c.is_relu else ""
    ix = [f"c{index[0]}", f"c{index[1]}"] if move != "tmov" else []
    if c.is_s_quant:
        import struct
        w = struct.unpack("<I", struct.pack("<f", float(c.scalar)))[0]
        if es == 1:
            w = (w & ~(1 << 46)) | (int(ot == "i8") << 46)
        p.pre = list(p.pre) + [f"%qs = arith.constant {w} : i64"]
        steps.append(scalar_quant_move(p, move, ix, tgt, relu))
    else:
        op = move + ("_fp" if c.is_v_quant and move != "tmov" else "")
        steps.append((op, src + ix, [tgt], None, RELU if c.is_relu else None))
    if mat:
        steps += readback("smat", "dst", ot, row * col * es)
    steps.append(("tstore", ["dst"], ["vo"]))
    return index_consts(p, index)


SUITE["npu-a5"].update({"tmov_acc2vec": tmov_acc2vec})


def tmov_acc2mat_a5(c, d):
    """a5 tmov_acc2mat_kernel.cpp RunTMOV / RunTMOVFBQuant / RunTMOVSCQuant (launch per case
    family, key from main.cpp): acc_matmul (A at L1 0, B at 0x10000), then TMOV / TEXTRACT at
    (indexRow, indexCol) / TINSERT (after a TLOAD of dst.bin) of the acc into an L1 tile
    staticRow x staticCol at 0 (ND, DN or NZ; valid copyOutM x copyOutN), the cube's copy of it
    to UB (TMOVMat2Vec), TSTORE through the layout's view (tmov_acc2vec_prog)."""
    name = os.path.basename(d).split(".", 1)[1]
    fmt = name.split("_")[1][3:].upper()
    q = "FBQuant" if c.is_v_quant else "SCQuant" if c.is_s_quant else ""
    key, _ = test_key(d)
    run, a, _ = launch_call(d, "tmov_acc2mat_kernel.cpp", f"LaunchTMOVAcc2Mat{q}NZ2{fmt}", key)
    o = 1 if run == "RunTMOVFBQuant" else 0
    a = a + ["false", "false", "Layout::ND", "512", "0", "0", "false", "0", "0"][len(a) - 8 - o:]
    vm, vk, vn, row, col = (int(x) for x in a[3 + o:8 + o])
    unalign, sfr = a[8 + o] == "true", int(a[11 + o])
    ir, ic, ins, dr, dc = int(a[12 + o]), int(a[13 + o]), a[14 + o] == "true", int(a[15 + o]), int(a[16 + o])
    if sfr != 512 and fmt == "NZ":
        return "NZ tile of 1024-byte fractals stored by the kernel's raw copy_ubuf_to_gm (VecCopyOut)"
    move = "tmov" if (ir, ic) == (0, 0) or c.is_relu else "tinsert" if ins else "textract"
    valid = (row, col) if unalign else (dr, dc) if ins else (vm - ir, vn - ic)  # unalign: all valid (goldh)
    shape = valid if ins else (row, col)
    gms, views, tiles, steps, N = acc_matmul(c, a_addr=0, unalign=unalign)
    return tmov_acc2vec_prog(c, gms, views, tiles, steps, N, dt(c.dst_type), fmt, *shape, sfr, valid, mat=True,
                             move=move, index=(ir, ic), init="dst.bin" if ins else None)


SUITE["npu-a5"].update({"tmov_acc2mat": tmov_acc2mat_a5})
TOL.update({"tinsert_vec": tol(0.0, 0.0, 0.0)})


# ---- session 12, goldg ----
# FIXPIPE stores (tstore_acc2gm), MX matmul and the tload variants (NPU suites), on the goldc
# Prog template. The tstore_acc2gm kernels take their shapes, types and flags from template
# arguments: launch_call reads them from the kernel file, acc2gm_key the launch family and key
# from main.cpp's TEST_F.

CPP_T = {"float": "f32", "half": "f16", "bfloat16_t": "bf16", "int8_t": "i8", "uint8_t": "ui8", "int32_t": "i32",
         "hifloat8_t": "!pto.hif8", "float8_e4m3_t": "f8E4M3FN", "int16_t": "i16", "uint64_t": "ui64"}


def file_t(t):
    """The dtype a case file holds for program dtype t (hifloat8 is written as uint8)."""
    return "ui8" if t == "!pto.hif8" else t


def acc2gm_key(d):
    """(helper, key, call argument) of the case's TEST_F in main.cpp: `helper<key, ...>(arg)`."""
    import re
    src = open(os.path.join(TESTCASE_DIR[0], os.path.basename(os.path.dirname(d)), "main.cpp")).read()
    case = os.path.basename(d).split(".", 1)[1]
    m = re.search(r"TEST_F\(\w+,\s*%s\)\s*\{\s*(\w+)<\s*(\d+)[^>]*>\(([^)]*)\)" % re.escape(case), src)
    return m.group(1), int(m.group(2)), m.group(3).strip()


def acc2gm_prog(t, shape, whole, vm, vn, vk, relu, fmt, atomic, quant, profile, scalar=None, acc_shape=None,
                split_k=None):
    """The tstore_acc2gm kernels (both suites): A (vm x vk) and B (vk x vn) of type t[2] TLOADed
    ND into NZ mat tiles M x K / K x N (each aligned to 16; A at 0, B after it, the vector quant
    words after B), TMOV to left / right (at 0), TMATMUL into the acc (type t[0]; rows x cols
    acc_shape, default M x N; valid vm x vn unless acc_shape gives it too), TSTORE (scalar quant
    word `scalar`) or (quant == "vector") TMOV of the words into a scaling tile and TSTORE_FP,
    with relu / atomic add, through a view of the out array (type t[1]): shape `shape`, strides
    of `whole`, layout fmt (nd / nz)."""
    at, dt_, st = t
    M, N, K = align_up(vm, 16), align_up(vn, 16), align_up(vk, 16)
    a, b = GM("a", file_t(st), vm * vk, "x1_gm.bin", tdt=st), GM("b", file_t(st), vk * vn, "x2_gm.bin", tdt=st)
    n_out = int(np.prod(whole))
    out = GM("out", file_t(dt_), n_out, "out.bin", is_input=False, tdt=dt_)
    rows, cols, vr, vc = acc_shape or (M, N, vm, vn)
    views = {"va": view2(a, vm, vk), "vb": view2(b, vk, vn), "vo": (out, shape, strides_of(whole), fmt)}
    if len(shape) == 2:
        views["vo"] = view2(out, *shape, stride=whole[1])
    amat = M * K * ES[file_t(st)]
    tiles = {"amat": (nz_mat(st, M, K, vm, vk), 0), "bmat": (nz_mat(st, K, N, vk, vn), amat),
             "al": (left(st, M, K, vm, vk, profile), 0), "bl": (right(st, K, N, vk, vn), 0),
             "acc": (tbuf("acc", at, rows, cols, "?", "?", "col_major", "row_major", 1024), 0, (vr, vc))}
    gms = [out, a, b]
    steps = [("tload", ["va"], ["amat"]), ("tload", ["vb"], ["bmat"])]
    if quant == "vector":
        sn = align_up(vn * 8, 128) // 8
        q = GM("quant", "ui64", vn, "quant_vector_gm.bin")
        gms.append(q)
        views["vq"] = view2(q, 1, vn)
        tiles.update(qmat=(tbuf("mat", "ui64", 1, sn, 1, "?"), amat + K * N * ES[file_t(st)], (1, vn)),
                     fb=(tbuf("scaling", "ui64", 1, sn, 1, "?"), 0, (1, vn)))
        steps.append(("tload", ["vq"], ["qmat"]))
    steps += [("tmov", ["amat"], ["al"]), ("tmov", ["bmat"], ["bl"]), ("tmatmul", ["al", "bl"], ["acc"])]
    attrs = ([f"atomicType = #pto<atomic_type atomic_add>"] if atomic else []) + \
        (["reluPreMode = #pto<relu_pre_mode normal_relu>"] if relu else [])
    attr = "{" + ", ".join(attrs) + "}" if attrs else None
    p = Prog(gms, views, tiles, steps, profiles=(profile,))
    if quant == "vector":
        steps += [("tmov", ["qmat"], ["fb"]), ("tstore_fp", ["acc", "fb"], ["vo"], None, attr)]
    elif scalar is not None:
        p.pre = list(p.pre) + [f"%qs = arith.constant {scalar} : i64"]
        steps.append(f"pto.tstore ins(%acc, %qs : {p.ttype('acc')}, i64) outs(%vo : {p.vtype('vo')})"
                     + (" " + attr if attr else ""))
    else:
        steps.append(("tstore", ["acc"], ["vo"], None, attr))
    return p


def scalar_word(x, dst):
    """The kernels' preQuantScalar: the f32 bits of x sign-extended from int32 to 64 bits; for a
    1-byte destination bit 46 = (dst is int8)."""
    import struct
    w = struct.unpack("<i", struct.pack("<f", float(x)))[0] & (2 ** 64 - 1)
    if ES[file_t(dst)] == 1:
        w = (w & ~(1 << 46)) | (int(dst == "i8") << 46)
    return w


def tstore_acc2gm(c, d):
    """tstore_acc2gm_kernel.cpp (both suites) TStoreAcc2gm[Scalar / Vector]Nz2[nd / nz] (launch family and
    tilingKey from main.cpp's TEST_F): template <atomic, accT, dstT, srcT, gShape0-4,
    gWholeShape0-4, validM, validN, validK[, reluMode[, format]]>; acc2gm_prog. nz2nd: acc M x N
    valid vm x vn; nz2nz: acc (gShape2 gShape3) x (gShape0 gShape1 gShape4), all valid. format 1
    (NHWC, every case with gShape0 = 1: TStoreAccNHWC is then nz2nd with dst stride gShape4) as
    an ND view of the same shape; NCHW / NCDHW (a5 format 2 / 3) and a2a3's NDC1HWC0 skipped.
    (The a2a3 kernels declare the A / B mat tiles all valid (M x K, K x N) and TLOAD the
    validM x validK array into them; here their valid region is the array's, which ptosim's
    TLOAD requires: the left / right tiles' valid shapes are the same either way.)"""
    helper, key, arg = acc2gm_key(d)
    profile = "a5" if SUITE_NOW[0] == "npu-a5" else "a2a3"
    if helper.endswith("ndc1hwc0"):
        return "NDC1HWC0 destination (Layout::NDC1HWC0): ptosim's acc stores take ND and NZ views only"
    fam = "Scalar" if "scalar" in helper else "Vector" if "vector" in helper else ""
    nz = helper.endswith("nz2nz")
    run, a, _ = launch_call(d, "tstore_acc2gm_kernel.cpp", f"LaunchTStoreAcc2gm{fam}Nz2{'nz' if nz else 'nd'}", key)
    atomic = a[0] == "1"
    t = tuple(CPP_T[x] for x in a[1:4])
    shape, whole = [int(x) for x in a[4:9]], [int(x) for x in a[9:14]]
    vm, vn, vk = (int(x) for x in a[14:17])
    relu, fmt = int(a[17]) if len(a) > 17 else 0, int(a[18]) if len(a) > 18 else 0
    have = os.path.getsize(os.path.join(d, "x1_gm.bin"))
    if have != vm * vk * ES[file_t(t[2])]:
        return (f"x1_gm.bin has {have} bytes, the kernel reads {vm} x {vk} {t[2]} (gen_data.py's types differ "
                "from the kernel's: main.cpp's case disagrees with its data)")
    if fmt in (2, 3):
        return ("NCHW / NCDHW destination (a5 TStoreAccNCHW: nz2dn with dst stride gStride2 / gStride1): "
                "ptosim's acc stores take ND and NZ views only")
    if fmt == 1:  # NHWC with N = 1: the rows x C matrix, row-major
        assert shape[0] == 1
        shape, whole = [shape[1] * shape[2] * shape[3], shape[4]], [whole[1] * whole[2] * whole[3], whole[4]]
    acc_shape = None
    if nz:
        r, k = shape[2] * shape[3], shape[0] * shape[1] * shape[4]
        acc_shape = (r, k, r, k)
    scalar = scalar_word(arg, t[1]) if fam == "Scalar" else None
    return acc2gm_prog(t, shape, whole, vm, vn, vk, relu, "nz" if nz else None, atomic,
                       "vector" if fam == "Vector" else None, profile, scalar=scalar, acc_shape=acc_shape)


NPU.update({"tstore_acc2gm": tstore_acc2gm})


CPP_T.update({"float8_e5m2_t": "f8E5M2", "float8_e8m0_t": "f8E8M0FNU"})


def mx_scale_views(sa, sb, M, N, kmx):
    """The kernels' MX_A_ZZ / MX_B_NN scale views (TileShape2D / BaseShape2D): A {1, M / 16,
    kMX / 2, 16, 2} strides {M kMX, 16 kMX, 32, 2, 1}; B {1, N / 16, kMX / 2, 16, 2} strides
    {N kMX, 16 kMX, 32, 2, 1} (e8m0 pairs, 16 x 2 boxes)."""
    return {"vsa": (sa, [1, M // 16, kmx // 2, 16, 2], [M * kmx, 16 * kmx, 32, 2, 1], "mx_a_zz"),
            "vsb": (sb, [1, N // 16, kmx // 2, 16, 2], [N * kmx, 16 * kmx, 32, 2, 1], "mx_b_nn")}


def tmatmul_mx(c, d):
    """a5 tmatmul_mx_kernel.cpp RunTMATMULMX<Out, A, B, Scale, Bias, validM, validK, validN,
    isBias, isFp4> (LaunchTMATMUL_MX[_BIAS] by case: case1-12 keys 1-12, case13-19 bias keys
    1-7): A / B TLOADed ND into NZ mat tiles M x kAlign / kAlign x N (M = align(m, 16), kAlign =
    align(k, 64), N = align(n, 32); at 0 and M kAlign), TFILLPAD of B (and A when kAlign - k >=
    32), the e8m0 scales TLOADed through MX_A_ZZ / MX_B_NN views into ZZ / NN mat tiles (M x kMX,
    kMX x N, kMX = kAlign / 32; after B), TMOV of all four into left / right (valid m x kAlign,
    kAlign x n) and left / right scale tiles (placed by tget_scale_addr: the kernel's
    TASSIGN(.., GetScaleAddr(tile.data()))), bias: a 1 x N mat tile TMOVed into a bias tile;
    TMATMUL_MX[.bias] into an M x N acc (valid m x n), TSTORE. fp4 (isFp4), the GEMV and
    split-K kernels skipped. The scale file of B covers align(n, 16) columns: zero-extended
    to N (the kernel reads N)."""
    i = int(os.path.basename(d).rsplit("case", 1)[1])
    bias_case = i > 12
    run, a, _ = launch_call(d, "tmatmul_mx_kernel.cpp", "LaunchTMATMUL_MX_BIAS" if bias_case else "LaunchTMATMUL_MX",
                            i - 12 if bias_case else i)
    if run != "RunTMATMULMX":
        return f"{run} (GEMV / split-K MX kernel): not reached in the time box (goldg)"
    if a[9] == "true":
        return "fp4 (float4_e*m*x2) operands: the harness has no fp4 dtype"
    ot, at, bt, st, biast = (CPP_T[x] for x in a[:5])
    m, k, n = (int(x) for x in a[5:8])
    M, ka, N = align_up(m, 16), align_up(k, 64), align_up(n, 32)
    kmx = ka // 32
    ga, gb = GM("a", "ui8", m * k, "x1_gm.bin", tdt=at), GM("b", "ui8", k * n, "x2_gm.bin", tdt=bt)
    sa = GM("sa", "ui8", M * kmx, "x1_mx_gm.bin", tdt=st)
    sb = GM("sb", "ui8", N * kmx, pad_file(d, "x2_mx_gm.bin", "ui8", N * kmx), tdt=st)
    out = GM("out", ot, m * n, "out.bin", is_input=False)
    gms = [out, ga, gb, sa, sb]
    views = {"va": view2(ga, m, k), "vb": view2(gb, k, n), "vo": view2(out, m, n), **mx_scale_views(sa, sb, M, N, kmx)}
    sa_at = M * ka + ka * N
    tiles = {"amat": (nz_mat(at, M, ka, m, k), 0), "bmat": (nz_mat(bt, ka, N, k, n), M * ka),
             "samat": (tbuf("mat", st, M, kmx, m, kmx, "row_major", "row_major", 32), sa_at),
             "sbmat": (tbuf("mat", st, kmx, N, kmx, n, "col_major", "col_major", 32), sa_at + M * kmx),
             "al": (left(at, M, ka, m, ka), 0), "bl": (right(bt, ka, N, ka, n), 0),
             "sal": tbuf("scaling", st, M, kmx, m, kmx, "row_major", "row_major", 32),
             "sbl": tbuf("scaling", st, kmx, N, kmx, n, "col_major", "col_major", 32),
             "acc": (acc(ot, M, N, m, n), 0)}
    steps = [("tload", ["va"], ["amat"]), ("tload", ["vb"], ["bmat"])]
    if ka - k >= 32:
        steps.append(("tfillpad", ["amat"], ["amat"]))
    steps += [("tfillpad", ["bmat"], ["bmat"]), ("tload", ["vsa"], ["samat"]), ("tload", ["vsb"], ["sbmat"])]
    if bias_case:
        g = GM("bias", biast, n, "bias_gm.bin")
        gms.append(g)
        views["vbias"] = view2(g, 1, n)
        tiles.update(biasmat=(tbuf("mat", biast, 1, N, 1, n), sa_at + M * kmx + N * kmx),
                     biast=(tbuf("bias", ot, 1, N, 1, n), 0))
        steps.append(("tload", ["vbias"], ["biasmat"]))
    steps += [("tget_scale_addr", ["al"], ["sal"]), ("tget_scale_addr", ["bl"], ["sbl"]),
              ("tmov", ["amat"], ["al"]), ("tmov", ["bmat"], ["bl"]), ("tmov", ["samat"], ["sal"]),
              ("tmov", ["sbmat"], ["sbl"])]
    if bias_case:
        steps += [("tmov", ["biasmat"], ["biast"]), ("tmatmul.mx.bias", ["al", "sal", "bl", "sbl", "biast"], ["acc"])]
    else:
        steps.append(("tmatmul.mx", ["al", "sal", "bl", "sbl"], ["acc"]))
    steps.append(("tstore", ["acc"], ["vo"]))
    return Prog(gms, views, tiles, steps, profiles=("a5",))


SUITE["npu-a5"].update({"tmatmul_mx": tmatmul_mx})
# ---- session 12, goldh ----
# The remaining tinsert / textract / tmov forms (NPU suites) on the goldc Prog template.

KTYPES = dict(CTYPES, hifloat8_t="!pto.hif8", float8_e5m2_t="f8E5M2", float8_e4m3_t="f8E4M3FN",
              float8_e8m0_t="ui8")  # kernel C++ element type -> program dtype
FTYPE = {1: "ui8", 2: "ui16", 4: "f32"}  # file dtype of a bit-exact move test by element size


def kt(name):
    """(file dtype, program dtype) of a kernel element type: the files hold the bits."""
    t = KTYPES[name]
    return FTYPE[ES.get(t, 1)] if t not in ("i8", "i32") else t, t


def fill(tile, ty, value):
    """The kernels' vdup + vsts over a whole UB buffer: texpands of `value` into a row-major
    tile `tile` of type ty placed on the buffer's bytes."""
    return f"%fv_{tile} = arith.constant {value} : {tbuf_dtype(ty)}\n    " \
           f"pto.texpands ins(%fv_{tile} : {tbuf_dtype(ty)}) outs(%{tile} : {ty})"


def tbuf_dtype(ty):
    return ty.split("dtype=", 1)[1].split(",", 1)[0]


def to_mat(ub, mat, t, nbytes):
    """The kernels' copy_ubuf_to_cbuf of nbytes (one contiguous burst) from UB tile `ub` to L1
    tile `mat` (both TASSIGNed)."""
    return burst_copy("copy_ubuf_to_cbuf", ub, mat, ("ub", "l1"), t, nbytes)


def plus_one_tile(t, rows, cols, vr):
    """TmpVecTile: Tile<Vec, T, align16(vr) + 1, cols, ColMajor, vr, cols, RowMajor, 512, Null,
    CompactMode::RowPlusOne> (rows: the tile's static rows)."""
    return tbuf("vec", t, rows, cols, vr, cols, "col_major", "row_major")[:-1] + ", compact=2>"


def nz_insert_prog(t, ft, cols, dst_rows, srcs, fill_val=None, files=None):
    """a5 tinsert runTInsertNZUnaligned / TwoInsert / Overwrite: per source i (rows, idx): TLOAD
    the ND source file (rows x cols) into UB, TMovToVecNd2Nz into a plus-one NZ tile at 0x10000
    (all sources share it), TINSERT into the NZ mat tile dst_rows x cols at (idx, 0); the cube's
    copy of the mat tile to UB 0x20000, TSTORE through an NZ view. fill_val: the kernel's vdup
    of the tmp buffer before each source (and, for the first, of the dst buffer, copied into
    L1 by copy_ubuf_to_cbuf) with fill_val; None: no fill (L1 starts zeroed)."""
    es = ES[ft]
    out = GM("out", ft, dst_rows * cols, "out.bin", is_input=False, golden="golden_output.bin", tdt=t)
    gms, views = [out], {"vo": nz_view(out, dst_rows, cols, es)}
    tiles = {"mat": (tbuf("mat", t, dst_rows, cols, "?", "?", "col_major", "row_major"), 0, (dst_rows, cols)),
             "back": (vec_dyn(t, dst_rows, cols, "col_major", "row_major"), 0x20000, (dst_rows, cols))}
    steps, idx = [], []
    maxal = max(align_up(r, 16) for r, _, _ in srcs)
    for i, (rows, ir, kfill) in enumerate(srcs):
        g = GM(f"src{i}", ft, rows * cols, files[i], tdt=t)
        gms.append(g)
        views[f"vs{i}"] = view2(g, rows, cols)
        tiles[f"s{i}"] = (vec_dyn(t, rows, cols), 0x4000 * i, (rows, cols))
        tiles[f"tmp{i}"] = (plus_one_tile(t, align_up(rows, 16) + 1, cols, rows), 0x10000)
        steps.append(("tload", [f"vs{i}"], [f"s{i}"]))
        if kfill is not None:
            n = (maxal if i == 0 else align_up(rows, 16)) + 1
            tiles[f"ft{i}"] = (tbuf("vec", t, n, cols), 0x10000)
            steps.append(fill(f"ft{i}", tiles[f"ft{i}"][0], kfill))
            if i == 0 and fill_val is not None:
                tiles["fd"] = (tbuf("vec", t, dst_rows, cols), 0x20000)
                steps.append(fill("fd", tiles["fd"][0], fill_val))
                steps += to_mat("fd", "mat", t, dst_rows * cols * es)
        steps += [("tmov", [f"s{i}"], [f"tmp{i}"]), ("tinsert", [f"tmp{i}", f"c{ir}", "c0"], ["mat"])]
        idx.append(ir)
    steps += readback("mat", "back", t, dst_rows * cols * es) + [("tstore", ["back"], ["vo"])]
    return index_consts(Prog(gms, views, tiles, steps, profiles=("a5",)), idx)


def nz_vec_insert(t, ft, src_rows, dst_rows, cols, ir, plus_one):
    """a5 tinsert runTInsertNZ[PlusOne]VecToVec: TLOAD the ND source, TMOV (plus_one:
    TMovToVecNd2Nz) into an NZ vec tile at 0x10000, TINSERT into an NZ vec tile dst_rows x cols
    at 0x20000 (zeroed by the kernel's vdup; UB starts zeroed here) at (ir, 0), TSTORE through
    an NZ view."""
    src = GM("src", ft, src_rows * cols, "input_arr.bin", tdt=t)
    out = GM("out", ft, dst_rows * cols, "out.bin", is_input=False, golden="golden_output.bin", tdt=t)
    nzt = plus_one_tile(t, align_up(src_rows, 16) + 1, cols, src_rows) if plus_one else \
        tbuf("vec", t, src_rows, cols, None, None, "col_major", "row_major")
    tiles = {"s": (vec_dyn(t, src_rows, cols), 0, (src_rows, cols)), "nz": (nzt, 0x10000),
             "dst": (vec_dyn(t, dst_rows, cols, "col_major", "row_major"), 0x20000, (dst_rows, cols))}
    steps = [("tload", ["vs"], ["s"]), ("tmov", ["s"], ["nz"]), ("tinsert", ["nz", f"c{ir}", "c0"], ["dst"]),
             ("tstore", ["dst"], ["vo"])]
    views = {"vs": view2(src, src_rows, cols), "vo": nz_view(out, dst_rows, cols, ES[ft])}
    return index_consts(Prog([out, src], views, tiles, steps, profiles=("a5",)), (ir,))


def nd_e8m0_insert(rows, cols):
    """a5 tinsert runTInsertND<Rows, Cols>: TLOAD int8 rows x cols into UB 0; TINSERT of an e8m0
    vec tile (RowMajor, SLayout RowMajor, fractal 32) on those bytes into an e8m0 mat tile of
    the same type at L1 0 (0, 0); the cube's copy of L1 to UB 0x10000, TSTORE."""
    src = GM("src", "i8", rows * cols, "input_arr.bin")
    out = GM("out", "i8", rows * cols, "out.bin", is_input=False, golden="golden_output.bin")
    e8 = "f8E8M0FNU"
    tiles = {"s": (vec_dyn("i8", rows, cols), 0, (rows, cols)),
             "x": (tbuf("vec", e8, rows, cols, None, None, "row_major", "row_major", 32), 0),
             "mat": (tbuf("mat", e8, rows, cols, None, None, "row_major", "row_major", 32), 0),
             "back": (vec_dyn("i8", rows, cols), 0x10000, (rows, cols))}
    steps = [("tload", ["vs"], ["s"]), ("tinsert", ["x", "c0", "c0"], ["mat"])]
    steps += readback("mat", "back", "i8", rows * cols) + [("tstore", ["back"], ["vo"])]
    return Prog([out, src], {"vs": view2(src, rows, cols), "vo": view2(out, rows, cols)}, tiles, steps,
                profiles=("a5",))


def dbl_insert(d, key):
    """a5 tinsert runTInsertNZDoubleInput<T, TileRows, Cols, ValidRows1, IndexRow1, ValidRows2,
    IndexRow2, DstRows>: input_arr.bin = DstRows x Cols zeros, then two NZ images of TileRows
    rows; the kernel copies the zeros to UB and on into L1 (L1 starts zeroed here), copies the
    two images (raw, one burst each) to UB 0 and align(image, 512 B), TINSERTs NZ vec tiles
    (TileRows x Cols, valid ValidRows_i x Cols) of them into the NZ mat tile at (IndexRow_i,
    0), the cube's copy back to UB 0, TSTORE through an NZ view."""
    _, a, _ = launch_call(d, "tinsert_kernel.cpp", "launchTInsertNZDoubleInput", key)
    if "float4" in a[0]:
        return "fp4 (float4_e*x2) tiles: the harness has no fp4 dtype"
    ft, t = kt(a[0])
    tr, cols, v1, i1, v2, i2, dr = (int(x) for x in a[1:8])
    es, n1 = ES[ft], tr * cols
    zero = dr * cols
    src = GM("src", ft, zero + 2 * n1, "input_arr.bin", tdt=t)
    out = GM("out", ft, dr * cols, "out.bin", is_input=False, golden="golden_output.bin", tdt=t)
    off2 = align_up(n1 * es, 512)
    views = {"vs": view2(src, 1, zero + 2 * n1), "vs1": ("part", "vs", [0, zero], [1, n1]),
             "vs2": ("part", "vs", [0, zero + n1], [1, n1]), "vo": nz_view(out, dr, cols, es)}
    nzt = lambda v: tbuf("vec", t, tr, cols, v, cols, "col_major", "row_major")
    tiles = {"raw1": (tbuf("vec", t, 1, n1), 0), "raw2": (tbuf("vec", t, 1, n1), off2),
             "x1": (nzt(v1), 0), "x2": (nzt(v2), off2),
             "mat": (tbuf("mat", t, dr, cols, "?", "?", "col_major", "row_major"), 0, (dr, cols)),
             "back": (vec_dyn(t, dr, cols, "col_major", "row_major"), 0, (dr, cols))}
    steps = [("tload", ["vs1"], ["raw1"]), ("tload", ["vs2"], ["raw2"]),
             ("tinsert", ["x1", f"c{i1}", "c0"], ["mat"]), ("tinsert", ["x2", f"c{i2}", "c0"], ["mat"])]
    steps += readback("mat", "back", t, dr * cols * es) + [("tstore", ["back"], ["vo"])]
    return index_consts(Prog([out, src], views, tiles, steps, profiles=("a5",)), (i1, i2, zero, zero + n1, n1))


# launchTInsertNZVecToVec<key>: (T, SrcRows, DstRows, Cols, IdxRow, plus one) by case nz_vec_<key>
TINSERT_NZ_VEC = {1: ("float", 16, 16, 32, 0, False), 2: ("float", 16, 16, 32, 0, True),
                  3: ("float", 16, 32, 32, 16, True), 4: ("half", 16, 16, 32, 0, False),
                  5: ("half", 16, 16, 32, 0, True), 6: ("int8_t", 16, 16, 64, 0, False),
                  7: ("int8_t", 16, 16, 64, 0, True)}


def tinsert_a5_h(c, d):
    """a5 tinsert_kernel.cpp, the families goldf left (else tinsert_a5): nd (e8m0 ND vec -> mat),
    nz_8 / 9 / 11 (unaligned, vdup 1 fills), nz_10 / 13 (two inserts), nz_12 (overwrite), nz_vec
    (vec -> vec NZ), dblinput; nz_split / twoinput use TINSERT<TInsertMode::SPLIT2 / 4>."""
    fam = c[0].split(".case_", 1)[1]
    args = c[2:]
    if fam in ("nd_1", "nd_2"):
        return nd_e8m0_insert(*args)
    if fam in ("nz_8", "nz_9", "nz_11"):  # gen_nz_unaligned(dtype, src rows, dst rows, cols, idx)
        _, sr, dr, cols, ir = args
        return nz_insert_prog("f32", "f32", cols, dr, [(sr, ir, 1.0)], fill_val=1.0, files=["input_arr.bin"])
    if fam in ("nz_10", "nz_13"):
        p = args[0]
        return nz_insert_prog("f32", "f32", p.cols, p.dst_rows, [(p.src_rows1, 0, 1.0), (p.src_rows2, p.idx_row2, 1.0)],
                              fill_val=1.0, files=["src1_input.bin", "src2_input.bin"])
    if fam == "nz_12":  # gen_nz_overwrite(dtype, src rows 2, dst rows, cols, idx)
        _, sr2, dr, cols, ir = args
        return nz_insert_prog("f32", "f32", cols, dr, [(dr, 0, None), (sr2, ir, 0.0)],
                              files=["src1_input.bin", "src2_input.bin"])
    if fam.startswith("nz_vec_"):
        ct, sr, dr, cols, ir, po = TINSERT_NZ_VEC[int(fam.rsplit("_", 1)[1])]
        ft, t = kt(ct)
        return nz_vec_insert(t, ft, sr, dr, cols, ir, po)
    if fam.startswith("nz_split") or fam.startswith("nz_twoinput"):
        return "TINSERT<TInsertMode::SPLIT2 / SPLIT4>: no insert mode in ptosim's tinsert form"
    if fam.startswith("nz_dblinput"):
        return dbl_insert(d, int(open(os.path.join(TESTCASE_DIR[0], "tinsert", "main.cpp")).read()
                                  .split(f"case_{fam})", 1)[1].split("<", 1)[1].split(",", 1)[0]))
    if fam.startswith("nz_fp4"):
        return "fp4 (float4_e*x2) tiles: the harness has no fp4 dtype"
    return tinsert_a5(c, d)


SUITE["npu-a5"].update({"tinsert": tinsert_a5_h})


def zn(t, rows, cols, vr=None, vc=None, loc="vec"):
    """A ZN tile (row-major blocks of col-major 32-byte-column boxes)."""
    return tbuf(loc, t, rows, cols, vr, vc, "row_major", "col_major")


def tinsert_zn(c, d):
    """a5 tinsert_zn_kernel.cpp (case key = the case number, as main.cpp's launch<N>):
    runTInsertZN<T, Rows, Cols>: TLOAD the ZN image (flat rows x cols) into UB 0, TINSERT a ZN vec
    tile on those bytes into a ZN mat tile at (0, 0), the cube's copy back to UB 0x10000,
    TSTORE flat. runTInsertZNOffset<T, ValidRow, ValidCol, SrcCols, DstRows, DstCols, IdxRow,
    IdxCol>: TLOAD the background (the file's first DstRows x DstCols) to UB 0 and the source
    image (ValidRow x SrcCols after it) to 0x10000, copy_ubuf_to_cbuf of the background into the
    mat tile, TINSERT the ZN source (valid ValidRow x ValidCol) at (IdxRow, IdxCol), copy back to
    0x20000, TSTORE flat."""
    name = c[0].split(".case_", 1)[1]
    if "fp4" in name:
        return "fp4 (float4_e*x2) tiles: the harness has no fp4 dtype"
    key = int(name.rsplit("_", 1)[1])
    if name.startswith("zn_offset"):
        _, a, _ = launch_call(d, "tinsert_zn_kernel.cpp", "launchTInsertZNOffset", key)
        ft, t = kt(a[0])
        vr, vc, sc, dr, dc, ir, ic = (int(x) for x in a[1:8])
        bg = dr * dc
        src = GM("src", ft, bg + vr * sc, "input_arr.bin", tdt=t)
        out = GM("out", ft, bg, "out.bin", is_input=False, golden="golden_output.bin", tdt=t)
        views = {"vb": view2(src, dr, dc), "vsrc": view2(src, 1, bg + vr * sc), "vs": ("part", "vsrc", [0, bg], [1, vr * sc]),
                 "vo": view2(out, dr, dc)}
        tiles = {"bgt": (vec_dyn(t, dr, dc), 0, (dr, dc)), "sflat": (tbuf("vec", t, 1, vr * sc), 0x10000),
                 "x": (zn(t, vr, sc, vr, vc), 0x10000),
                 "mat": (tbuf("mat", t, dr, dc, "?", "?", "row_major", "col_major"), 0, (dr, dc)),
                 "back": (vec_dyn(t, dr, dc), 0x20000, (dr, dc))}
        steps = [("tload", ["vb"], ["bgt"]), ("tload", ["vs"], ["sflat"])] + to_mat("bgt", "mat", t, bg * ES[ft])
        steps += [("tinsert", ["x", f"c{ir}", f"c{ic}"], ["mat"])]
        steps += readback("mat", "back", t, bg * ES[ft]) + [("tstore", ["back"], ["vo"])]
        return index_consts(Prog([out, src], views, tiles, steps, profiles=("a5",)), (ir, ic, bg, vr * sc))
    _, a, _ = launch_call(d, "tinsert_zn_kernel.cpp", "launchTInsertZN", key)
    ft, t = kt(a[0])
    if a[0] == "float8_e8m0_t":
        t = "f8E8M0FNU"
    r, k = int(a[1]), int(a[2])
    src = GM("src", ft, r * k, "input_arr.bin", tdt=t)
    out = GM("out", ft, r * k, "out.bin", is_input=False, golden="golden_output.bin", tdt=t)
    tiles = {"s": (vec_dyn(t, r, k), 0, (r, k)), "x": (zn(t, r, k), 0),
             "mat": (tbuf("mat", t, r, k, "?", "?", "row_major", "col_major"), 0, (r, k)),
             "back": (vec_dyn(t, r, k), 0x10000, (r, k))}
    steps = [("tload", ["vs"], ["s"]), ("tinsert", ["x", "c0", "c0"], ["mat"])]
    steps += readback("mat", "back", t, r * k * ES[ft]) + [("tstore", ["back"], ["vo"])]
    return Prog([out, src], {"vs": view2(src, r, k), "vo": view2(out, r, k)}, tiles, steps, profiles=("a5",))


SUITE["npu-a5"].update({"tinsert_zn": tinsert_zn})


def main_call(d, main="main.cpp"):
    """(helper, key) of the case's TEST_F body `helper<key, ...>(...)` in main.cpp."""
    import re
    src = open(os.path.join(TESTCASE_DIR[0], os.path.basename(os.path.dirname(d)), main)).read()
    case = os.path.basename(d).split(".", 1)[1]
    m = re.search(r"TEST_F\(\w+,\s*%s\)\s*\{\s*(\w+)<\s*(\d+)" % re.escape(case), src)
    return m.group(1), int(m.group(2))


def textract_vec(c, d):
    """textract_vec_kernel.cpp (both suites; main.cpp's testND / testNDScalar / testNZ /
    testNZScalar<key> -> launchTExtractVec{ND, NDScalar, NZ, NZScalar}<key>): src TLOADed at UB
    0 (ND, or NZ: a5 TLOADs it ND and TMOVs it into an NZ tile at 0x10000, a2a3 TLOADs the NZ
    image at 0), the dst tile (DstRows x DstCols, ND or NZ) at align(src bytes, 256) (a5 NZ:
    0x20000) TLOADed from dst_init.bin unless the extract fills it (a scalar extract always
    loads it), TEXTRACT at (IdxRow, IdxCol) into a tile on the dst bytes of valid DstValidRows x
    DstValidCols (scalar: 1 x 1), TSTORE the dst tile (ND, or an NZ view)."""
    helper, key = main_call(d)
    a5 = "a5" in TESTCASE_DIR[0].split(os.sep)
    kind = helper[4:]  # ND / NDScalar / NZ / NZScalar
    run, a, _ = launch_call(d, "textract_vec_kernel.cpp", "launchTExtractVec" + kind, key)
    if "Fp4" in run:
        return "fp4 (float4_e*x2) tiles: the harness has no fp4 dtype"
    ft, t = kt(a[0])
    nums = [int(x) for x in a[1:]]
    nz = kind.startswith("NZ")
    sr, sc = nums[0], nums[1]
    if kind == "ND":
        dr, dc, vr, vc, ir, ic = nums[2:8]
    elif kind == "NDScalar":
        dr, dc, ir, ic = 1, 32 // ES[ft], nums[2], nums[3]
        vr, vc = 1, 1
    else:
        dr, dc, ir = nums[2:5]
        ic = nums[5] if len(nums) > 5 else 0
        vr, vc = (nums[6], nums[7]) if len(nums) > 7 else (dr, dc)
        if kind == "NZScalar":
            vr, vc = 1, 1
    full = (vr, vc) == (dr, dc)
    es = ES[ft]
    lay = ("col_major", "row_major") if nz else ("row_major", "none_box")
    src = GM("src", ft, sr * sc, "src_input.bin", tdt=t)
    init = GM("init", ft, dr * dc, "dst_init.bin", tdt=t)
    out = GM("out", ft, dr * dc, "out.bin", is_input=False, golden="golden_output.bin", tdt=t)
    daddr = 0x20000 if nz and a5 else align_up(sr * sc * es, 256)
    tiles = {"dst": (tbuf("vec", t, dr, dc, None, None, *lay), daddr), "x": (tbuf("vec", t, dr, dc, vr, vc, *lay), daddr)}
    views = {"vi": nz_view(init, dr, dc, es) if nz else view2(init, dr, dc),
             "vo": nz_view(out, dr, dc, es) if nz else view2(out, dr, dc)}
    steps = []
    if nz and a5:
        views["vs"] = view2(src, sr, sc)
        tiles.update(snd=(tbuf("vec", t, sr, sc), 0), s=(tbuf("vec", t, sr, sc, None, None, *lay), 0x10000))
        steps += [("tload", ["vs"], ["snd"]), ("tmov", ["snd"], ["s"])]
    else:
        views["vs"] = nz_view(src, sr, sc, es) if nz else view2(src, sr, sc)
        tiles["s"] = (tbuf("vec", t, sr, sc, None, None, *lay), 0)
        steps.append(("tload", ["vs"], ["s"]))
    gms = [out, src]
    if not full:
        gms.append(init)
        steps.insert(1, ("tload", ["vi"], ["dst"]))
    else:
        del views["vi"]
    steps += [("textract", ["s", f"c{ir}", f"c{ic}"], ["x"]), ("tstore", ["dst"], ["vo"])]
    return index_consts(Prog(gms, views, tiles, steps, profiles=("a5" if a5 else "a2a3",)), (ir, ic))


SUITE["npu-a5"].update({"textract_vec": textract_vec})
SUITE["npu-a2a3"].update({"textract_vec": textract_vec})


def textract_compact_a5(c, d):
    """a5 textract_compact_kernel.cpp runTEXTRACT_UNALIGN (launchTEXTRACT_<case number>): A
    base_m x base_k (DN when is_atrans), B base_k x base_n (DN unless is_btrans) TLOADed into
    ZN / NZ mat tiles, TEXTRACT at (start_m, start_k) / (start_k, start_n) into
    TileLeftCompact / TileRightCompact of the base shape with valid (m, k, n) - start, TMATMUL
    into a TileAccCompact, TSTORE of the valid region (cube_chain)."""
    base = (c.base_m, c.base_k, c.base_n)
    idx = (c.start_m, c.start_k, c.start_n)
    valid = tuple(x - i for x, i in zip((c.m, c.k, c.n), idx))
    return cube_chain(c, d, "textract", bool(c.is_atrans), not c.is_btrans, base, base, idx, valid, compact=True)


SUITE["npu-a5"].update({"textract_compact": textract_compact_a5})


def tmov_a2a3(c, d):
    """a2a3 tmov_kernel.cpp, the kernel main.cpp's test_tmov<AT, BT, L0CT, BiasT, GMT, ScalingT, M,
    N, K, isAtranspose, isBtranspose, IsBias, IsQuant, ReluMode, Isdynamic> launches (uint16_t =
    half): A (M x K; DN when transposed, into a ZN mat tile, else NZ) at L1 0, B (K x N; DN when
    transposed: ZN) after it, the bias row (1 x align(N, 64 B) of BiasT) and / or the u64
    scaling row (1 x N, dynamic: align(N, 128 B)) after those; TMOV to left (zZ) / right, the bias
    row TMOVed into a bias tile of L0CT, TMATMUL[_BIAS], the scaling row TMOVed into a scaling
    tile, TSTORE[_FP] of the acc (M x N of GMT). The bias + quant dynamic kernel aligns the
    tiles to M, N: 16, K: 32 B (valid M x K x N)."""
    import re
    src = open(os.path.join(TESTCASE_DIR[0], "tmov", "main.cpp")).read()
    case = os.path.basename(d).split(".", 1)[1]
    a = top_split(re.search(r"TEST_F\(\w+,\s*%s\)\s*\{\s*test_tmov<([^>]*)>" % re.escape(case), src).group(1))
    ty = [{"uint16_t": "f16"}.get(x, KTYPES.get(x)) for x in a[:6]]
    at, bt, ct, xt, gt = ty[:5]
    M, N, K, atr, btr, bias, quant, _, dyn = (int(x) for x in a[6:15])
    aM, aK, aN = M, K, N
    if dyn and bias and quant:
        aM, aN, aK = align_up(M, 16), align_up(N, 16), align_up(K, 32 // ES[at])
    xa = align_up(N * ES[xt], 64) // ES[xt]
    sa = align_up(N * 8, 128) // 8 if dyn else N
    g_a, g_b = GM("a", at, M * K, "x1_gm.bin"), GM("b", bt, K * N, "x2_gm.bin")
    out = GM("out", gt, M * N, "out.bin", is_input=False)
    gms = [out, g_a, g_b]
    views = {"va": view_mn(g_a, M, K, atr), "vb": view_mn(g_b, K, N, btr), "vo": view2(out, M, N)}
    ab, bb = aM * aK * ES[at], aK * aN * ES[bt]
    # The kernels' mat tiles are all valid (alignM x alignK); a2a3 ND2NZ / DN2ZN TLOADs copy the
    # GM shape whatever the tile's valid shape (tload_common.hpp TLoadGm2L1Nd2nz), ptosim asks
    # for valid = the view's shape (tload.view_shape): given the GM shape here (README goldh).
    tiles = {"amat": ((zn_mat if atr else nz_mat)(at, aM, aK, M, K), 0),
             "bmat": ((zn_mat if btr else nz_mat)(bt, aK, aN, K, N), ab),
             "al": (left(at, aM, aK, M, K, "a2a3"), 0), "bl": (right(bt, aK, aN, K, N), 0),
             "acc": (acc(ct, aM, aN, M, N), 0)}
    steps = [("tload", ["va"], ["amat"]), ("tload", ["vb"], ["bmat"])]
    moves = [("tmov", ["amat"], ["al"]), ("tmov", ["bmat"], ["bl"])]
    nxt = ab + bb
    if bias:
        g = GM("bias", xt, xa, "bias_gm.bin")
        gms.append(g)
        views["vx"] = view2(g, 1, xa)
        tiles.update(xmat=(tbuf("mat", xt, 1, xa), nxt), x=(tbuf("bias", ct, 1, xa, 1, N), 0))
        steps.append(("tload", ["vx"], ["xmat"]))
        moves.append(("tmov", ["xmat"], ["x"]))
        nxt += xa * ES[xt]
    if quant:
        g = GM("quant", "ui64", sa, "scaling_gm.bin")
        gms.append(g)
        views["vq"] = view2(g, 1, sa)
        tiles.update(qmat=(tbuf("mat", "ui64", 1, sa), nxt), q=(tbuf("scaling", "ui64", 1, sa, 1, N), 0))
        steps.append(("tload", ["vq"], ["qmat"]))
    steps += moves + [("tmatmul.bias", ["al", "bl", "x"], ["acc"]) if bias else ("tmatmul", ["al", "bl"], ["acc"])]
    if quant:
        steps += [("tmov", ["qmat"], ["q"]), ("tstore_fp", ["acc", "q"], ["vo"])]
    else:
        steps.append(("tstore", ["acc"], ["vo"]))
    return Prog(gms, views, tiles, steps, profiles=("a2a3",))


SUITE["npu-a2a3"].update({"tmov": tmov_a2a3})


def test_call(d, main="main.cpp"):
    """(helper, template arguments) of the first call in the case's TEST_F body."""
    import re
    src = open(os.path.join(TESTCASE_DIR[0], os.path.basename(os.path.dirname(d)), main)).read()
    case = os.path.basename(d).split(".", 1)[1]
    m = re.search(r"TEST_F\(\w+,\s*%s\)\s*\{[^}]*?(\w+)<([^>]*)>\s*\(" % re.escape(case), src, re.S)
    return m.group(1), top_split(m.group(2))


def tmov_acc2mat_a2a3(c, d):
    """a2a3 tmov_acc2mat_kernel.cpp runTMOV_nz2nz / runScalarQuantTMOV_nz2nz /
    runVectorQuantTMOV_nz2nz<outType, aType, bType, [fbType,] M, K, N, validM, validK, validN,
    isRelu, indexRow, indexCol, isInsert, dstRow, dstCol> (launch by main.cpp's key): A (M x K)
    and B (K x N) TLOADed into NZ mat tiles (0, 0x10000; vector quant: the u64 row 1 x N, valid
    validN, at 0x20000), TMOV to left / right, TMATMUL into an acc M x N of valid validM x
    validN; then TMOV (relu) / TEXTRACT at (indexRow, indexCol) / TINSERT there (after a TLOAD
    of dst.bin) of the acc into an NZ mat tile (staticRow x staticCol = dst or (M, N) - index,
    all valid) at L1 0, with the vector quant (_fp) or the scalar quant word (the kernel's
    preQuantScalar: the float's bits, bit 46 = signed for 1-byte outputs; i16: (scalar - 1) & 15
    at bit 32); TSTORE of the mat tile through the NZ view [1, ceil(copyN / c0), ceil(copyM /
    16), 16, c0]."""
    import struct
    helper, targs = test_call(d)
    key = next(int(x) for x in targs if x.isdigit())
    fam = {"tmov_acc2mat_nz2nz_test": "NZ2NZ", "tmov_acc2mat_nz2nz_sc_quant_test": "SCQuantNz",
           "tmov_acc2mat_nz2nz_fb_quant_test": "FBQuantNz"}[helper]
    run, a, cargs = launch_call(d, "tmov_acc2mat_kernel.cpp", "launchTMOVAcc2Mat" + fam, key)
    fb = fam == "FBQuantNz"
    ot, at = KTYPES[a[0]], KTYPES[a[1]]
    o = 4 if fb else 3
    M, K, N, vm, vk, vn = (int(x) for x in a[o:o + 6])
    rest = a[o + 6:] + ["false", "0", "0", "false", "0", "0"][len(a) - o - 6:]
    relu, ir, ic, ins, dr, dc = rest[0] == "true", int(rest[1]), int(rest[2]), rest[3] == "true", int(rest[4]), int(rest[5])
    ct = "i32" if at == "i8" else "f32"
    cm, cn = (dr, dc) if ins else (vm - ir, vn - ic)
    sr, sc = (dr, dc) if ins else (M - ir, N - ic)
    c0 = 32 // ES[ot]
    kr, kc = -(-cm // 16), -(-cn // c0)
    ga, gb = GM("a", at, M * K, "x1_gm.bin"), GM("b", at, K * N, "x2_gm.bin")
    out = GM("out", ot, kc * kr * 16 * c0, "out.bin", is_input=False)
    gms = [out, ga, gb]
    views = {"va": view2(ga, M, K), "vb": view2(gb, K, N),
             "vo": (out, [1, kc, kr, 16, c0], [kc * kr * 16 * c0, kr * 16 * c0, 16 * c0, c0, 1], "nz")}
    tiles = {"amat": (nz_mat(at, M, K), 0), "bmat": (nz_mat(at, K, N), 0x10000),
             "al": (left(at, M, K, profile="a2a3"), 0), "bl": (right(at, K, N), 0),
             "acc": (tbuf("acc", ct, M, N, "?", "?", "col_major", "row_major", 1024), 0, (vm, vn)),
             "dst": (nz_mat(ot, sr, sc), 0)}
    steps = [("tload", ["va"], ["amat"]), ("tload", ["vb"], ["bmat"])]
    src = ["acc"]
    if fb:
        g = GM("quant", "ui64", N, "quant_gm.bin")
        gms.append(g)
        views["vq"] = view2(g, 1, N)
        tiles.update(fbmat=(tbuf("mat", "ui64", 1, N, 1, vn), 0x20000), fb=(tbuf("scaling", "ui64", 1, N, 1, vn), 0))
        steps.append(("tload", ["vq"], ["fbmat"]))
        src.append("fb")
    steps += [("tmov", ["amat"], ["al"]), ("tmov", ["bmat"], ["bl"]), ("tmatmul", ["al", "bl"], ["acc"])]
    if fb:
        steps.append(("tmov", ["fbmat"], ["fb"]))
    move = "tmov" if relu or (ir, ic) == (0, 0) else "tinsert" if ins else "textract"
    if move == "tinsert":
        g = GM("init", ot, dr * dc, "dst.bin")
        gms.append(g)
        views["vi"] = view2(g, dr, dc)
        steps.append(("tload", ["vi"], ["dst"]))
    p = Prog(gms, views, tiles, steps, profiles=("a2a3",))
    ix = [f"c{ir}", f"c{ic}"] if move != "tmov" else []
    relu_attr = RELU if relu else None
    if fam == "SCQuantNz":
        s = float(cargs[-1])
        if ot == "i16":
            w = ((int(s) - 1) & 0xF) << 32
        else:
            w = struct.unpack("<I", struct.pack("<f", s))[0]
            if ES[ot] == 1:
                w = (w & ~(1 << 46)) | (int(ot == "i8") << 46)
        p.pre = list(p.pre) + [f"%qs = arith.constant {w} : i64"]
        steps.append(scalar_quant_move(p, move, ix, "dst", " " + RELU if relu else ""))
    else:
        op = move + ("_fp" if fb and move != "tmov" else "")
        steps.append((op, src + ix, ["dst"], None, relu_attr))
    steps.append(("tstore", ["dst"], ["vo"]))
    return index_consts(p, (ir, ic))


SUITE["npu-a2a3"].update({"tmov_acc2mat": tmov_acc2mat_a2a3})


def no_text_form(why):
    """A maker for a test ptosim's text programs cannot express: every case skipped with why."""
    return lambda c, d: why


for _s in ("npu-a5", "npu-a2a3"):
    SUITE[_s].update({
        "timg2col": no_text_form("TIMG2COL of a ConvTile (NC1HWC0 mat tile): ptosim's timg2col / setfmatrix / "
                                 "set_img2col_* are C-API only (ops.def CAPI), and the text form has no ConvTile"),
        "ttrans_conv": no_text_form("TTRANS between ConvTiles (NCHW <-> NC1HWC0 vec tiles): the text form has "
                                    "no ConvTile layouts")})


def mx_scale_view(g, a_side, fmt, rows, cols):
    """The tmov_mx kernels' scale GM views (pto-isa pto_tile.hpp TileShape2D / BaseShape2D of
    Layout::MX_A_ZZ / ND / DN (A: rows x cols = M x kMX) and MX_B_NN / ND / DN (B: kMX x N);
    boxes of 16 x 2, MX_COL_LEN = 2)."""
    n = rows * cols
    if a_side:
        return {0: (g, [1, rows // 16, cols // 2, 16, 2], [n, cols * 16, 32, 2, 1], "mx_a_zz"),
                1: (g, [1, 1, rows, cols // 2, 2], [n, n, cols, 2, 1], "mx_a_nd"),
                2: (g, [1, 1, cols // 2, rows, 2], [n, n, rows * 2, 2, 1], "mx_a_dn")}[fmt]
    return {0: (g, [1, cols // 16, rows // 2, 16, 2], [n, rows * 16, 32, 2, 1], "mx_b_nn"),
            1: (g, [1, 1, rows // 2, cols, 2], [n, n, cols * 2, 2, 1], "mx_b_nd"),
            2: (g, [1, 1, cols, rows // 2, 2], [n, n, rows, 2, 1], "mx_b_dn")}[fmt]


def tmov_mx(c, d):
    """a5 tmov_mx_kernel.cpp RunTMOVMX<format, f32, A, B, e8m0, validM, validK, validN> (key and
    format from main.cpp's TmovMXTest<..., key, format>): A (validM x validK) and B (validK x
    validN) TLOADed into NZ mat tiles M x align(K, 64) / align(K, 64) x N (M: 16, N: 32
    aligned) at 0 and M kAlign, TFILLPAD of A (when kAlign - validK is 32 bytes or more) and of
    B, the scales (M x kMX ZZ, kMX x N NN mat tiles, fractal 32, after them) TLOADed through
    the format's MX views, TEXTRACT at (0, 0) into compact left / right tiles, tget_scale_addr
    and TMOV of the scales into the left / right scale tiles, TMATMUL_MX into a compact acc,
    TSTORE validM x validN. RunTEXTRACTMX (start indexes) and the compact kernels: not reached.
    The MX views need #pto.layout<mx_a_zz> etc., which the text form does not spell yet
    (src/exec/tiles.c lowers nd / dn / nz only; README goldh)."""
    _, targs = test_call(d)
    key, fmt = int(targs[4]), int(targs[5])
    run, a, _ = launch_call(d, "tmov_mx_kernel.cpp", "LaunchTMOV_MX", key)
    if run != "RunTMOVMX":
        return f"{run} (start indexes / compact base shapes): not reached in the time box (goldh)"
    if a[8] == "true":
        return "fp4 (float4_e*x2) tiles: the harness has no fp4 dtype"
    at, bt = KTYPES[a[2]], KTYPES[a[3]]
    vm, vk, vn = (int(x) for x in a[5:8])
    M, K, N = align_up(vm, 16), align_up(vk, 64), align_up(vn, 32)
    kmx = K // 32
    e8 = "f8E8M0FNU"
    ga, gb = GM("a", "ui8", vm * vk, "x1_gm.bin", tdt=at), GM("b", "ui8", vk * vn, "x2_gm.bin", tdt=bt)
    gsa, gsb = GM("sa", "ui8", vm * kmx, "x1_mx_gm.bin", tdt=e8), GM("sb", "ui8", kmx * vn, "x2_mx_gm.bin", tdt=e8)
    out = GM("out", "f32", vm * vn, "out.bin", is_input=False)
    views = {"va": view2(ga, vm, vk), "vb": view2(gb, vk, vn), "vsa": mx_scale_view(gsa, True, fmt, vm, kmx),
             "vsb": mx_scale_view(gsb, False, fmt, kmx, vn), "vo": view2(out, vm, vn)}
    cp = lambda ty: ty[:-1] + ", compact=1>"
    tiles = {"amat": (nz_mat(at, M, K, vm, vk), 0), "bmat": (nz_mat(bt, K, N, vk, vn), M * K),
             "samat": (tbuf("mat", e8, M, kmx, vm, kmx, "row_major", "row_major", 32), M * K + K * N),
             "sbmat": (tbuf("mat", e8, kmx, N, kmx, vn, "col_major", "col_major", 32), M * K + K * N + M * kmx),
             "al": (cp(left(at, M, K, vm, K)), 0), "bl": (cp(right(bt, K, N, K, vn)), 0),
             "sa": tbuf("scaling", e8, M, kmx, vm, kmx, "row_major", "row_major", 32),
             "sb": tbuf("scaling", e8, kmx, N, kmx, vn, "col_major", "col_major", 32),
             "acc": (cp(acc("f32", M, N, vm, vn)), 0)}
    steps = [("tload", ["va"], ["amat"]), ("tload", ["vb"], ["bmat"])]
    if (K - vk) * ES["ui8"] >= 32:
        steps.append(("tfillpad", ["amat"], ["amat"]))
    steps += [("tfillpad", ["bmat"], ["bmat"]), ("tload", ["vsa"], ["samat"]), ("tload", ["vsb"], ["sbmat"]),
              ("textract", ["amat", "c0", "c0"], ["al"]), ("textract", ["bmat", "c0", "c0"], ["bl"]),
              ("tget_scale_addr", ["al"], ["sa"]), ("tget_scale_addr", ["bl"], ["sb"]),
              ("tmov", ["samat"], ["sa"]), ("tmov", ["sbmat"], ["sb"]),
              ("tmatmul.mx", ["al", "sa", "bl", "sb"], ["acc"]), ("tstore", ["acc"], ["vo"])]
    return Prog([out, ga, gb, gsa, gsb], views, tiles, steps, profiles=("a5",))


SUITE["npu-a5"].update({"tmov_mx": tmov_mx})
