"""How each pto-isa CPU test case becomes a ptosim tile program (see run.py).

A maker takes one case entry of gen_data.py (its parameter object or tuple) and the case
directory, and returns a Spec (tiles + one op) or a string saying why the case is skipped.
Tile shapes, valid shapes and layouts follow the op's <op>_kernel.cpp in pto-isa.
"""
import os

import numpy as np
import ml_dtypes

NP = {"f32": np.float32, "f16": np.float16, "bf16": ml_dtypes.bfloat16, "i8": np.int8, "ui8": np.uint8,
      "i16": np.int16, "ui16": np.uint16, "i32": np.int32, "ui32": np.uint32, "i64": np.int64}
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
                 gcols=None, grows=None, is_input=True, golden="golden.bin", gskip=0):
        self.name, self.dtype, self.rows, self.cols = name, dtype, rows, cols
        self.vr, self.vc = vr or rows, vc or cols
        self.file, self.layout, self.is_input = file, layout, is_input
        self.gcols, self.grows = gcols or self.vc, grows or self.vr
        self.golden, self.gskip = golden, gskip  # golden file, elements to skip at its start

    def type(self):
        return (f"!pto.tile_buf<loc=vec, dtype={self.dtype}, rows={self.rows}, cols={self.cols}, "
                f"v_row={self.vr}, v_col={self.vc}, blayout={self.layout}, slayout=none_box, fractal=512, pad=0>")

    def gm_elems(self):
        return self.grows * self.gcols

    def read_valid(self, d):
        a = np.fromfile(os.path.join(d, self.file), dtype=NP[self.dtype])
        return a[: self.gm_elems()].reshape(self.grows, self.gcols)[: self.vr, : self.vc]

    def read_golden(self, d):
        a = np.fromfile(os.path.join(d, self.golden), dtype=NP[self.dtype])[self.gskip:]
        n = self.gm_elems()
        if len(a) < n:
            a = np.concatenate([a, np.zeros(n - len(a), a.dtype)])  # short golden: shows as mismatches
        return a[:n].reshape(self.grows, self.gcols)[: self.vr, : self.vc]


class Spec:
    """One op on tiles: `ins` / `outs` are Tiles or ("%name", type, value) scalars; the op is
    spelled `pto.OP ins(a, b ATTR_IN : types) outs(d : types) ATTR_OUT`."""

    def __init__(self, op, ins, outs, attr_in="", attr_out="", profiles=BOTH, extra=()):
        self.op, self.ins, self.outs, self.attr_in, self.attr_out = op, ins, outs, attr_in, attr_out
        self.profiles = profiles
        self.extra = list(extra)  # tiles the op reads that are not loaded (tmp)
        for t in outs:
            if isinstance(t, Tile):
                t.is_input = False
        self.outputs = [t for t in outs if isinstance(t, Tile) and t.file]

    def tiles(self):
        seen = []
        for t in self.ins + self.outs + self.extra:
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
        consts = sorted({1} | {v for t in args for v in (t.vr, t.vc, t.gcols)})
        L += [f"    %c{v} = arith.constant {v} : index" for v in consts]
        for s in self.ins:
            if not isinstance(s, Tile):
                L.append(f"    {s[0]} = arith.constant {s[2]} : {s[1]}")
        for i, t in enumerate(args):
            L.append(f"    %v{i} = pto.make_tensor_view %g{i}, shape = [%c{t.vr}, %c{t.vc}], strides = "
                     f"[%c{t.gcols}, %c1] : !pto.tensor_view<?x?x{t.dtype}>")
        for t in self.tiles():
            L.append(f"    %{t.name} = pto.alloc_tile : {t.type()}")
        for i, t in enumerate(args):
            if t.is_input:
                L.append(f"    pto.tload ins(%v{i} : !pto.tensor_view<?x?x{t.dtype}>) outs(%{t.name} : {t.type()})")
        L += ["    pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]", "    pto.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]"]

        def names(xs):
            return ", ".join(f"%{x.name}" if isinstance(x, Tile) else x[0] for x in xs)

        def types(xs):
            return ", ".join(x.type() if isinstance(x, Tile) else x[1] for x in xs)
        ai = f" {self.attr_in}" if self.attr_in else ""
        ao = f" {self.attr_out}" if self.attr_out else ""
        L.append(f"    pto.{self.op} ins({names(self.ins)}{ai} : {types(self.ins)}) "
                 f"outs({names(self.outs)} : {types(self.outs)}){ao}")
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


OPS = {
    "tsort32": tsort32,
}
