#!/usr/bin/env python3
"""Describe the kernel of a PTOAS test/samples .pto file the way the samples' golden scripts
expect it, and print its `ptosim run` arguments.

  scripts/sample_meta.py KERNEL.pto OUT_DIR [GENERATE_TESTCASE_PY]

The golden scripts (validation_runtime.load_case_meta) read a main.cpp and an outputs.txt
that PTOAS's test/npu_validation/scripts/generate_testcase.py writes from the C++ that ptoas
emits. ptosim has no ptoas, so this writes their stand-ins from the .pto itself:
  - parameters named v1..vN in order (as ptoas names the kernel's parameters);
  - each pointer parameter: `size_t elemCount_vK = N;` with N the largest extent
    1 + sum((shape_i - 1) * stride_i) of the pto.make_tensor_view on it (constants, scalar
    parameters and integer casts of them resolved), its host type, and a ReadFile("./vK.bin") line;
  - each integer / index scalar: `int32_t vK = V;` with generate_testcase's value (1, or
    its CASE_INT_SCALAR_DEFAULTS entry when GENERATE_TESTCASE_PY is given);
  - outputs.txt: the pointer parameters a pto.tstore writes through its views.
Prints three lines: --entry F followed by vK.bin for pointers and the value for scalars;
vK:DTYPE for each output; vK:BYTES for each pointer.
Exit 1 (with a message) when the kernel is not of this form."""
import ast
import os
import re
import sys

SIZE = {"f32": 4, "f16": 2, "bf16": 2, "i8": 1, "i16": 2, "i32": 4, "i64": 8, "ui8": 1, "ui16": 2, "ui32": 4, "ui64": 8}
HOST = {"f32": "float", "f16": "half", "bf16": "bfloat16_t", "i8": "int8_t", "i16": "int16_t", "i32": "int32_t",
        "i64": "int64_t", "ui8": "uint8_t", "ui16": "uint16_t", "ui32": "uint32_t", "ui64": "uint64_t"}


def fail(msg):
    print("sample_meta: " + msg, file=sys.stderr)
    sys.exit(1)


def scalar_defaults(gen, case):
    if not gen:
        return {}
    m = re.search(r"^CASE_INT_SCALAR_DEFAULTS\s*=\s*(\{.*?^\})", open(gen).read(), re.S | re.M)
    return ast.literal_eval(m.group(1)).get(case, {}) if m else {}


def value_maxima(text, values):
    """Largest value of each integer SSA value the kernel computes from constants, scalar
    parameters (`values`), loop induction variables (upper bound - 1) and non-negative
    addi / muli / casts (generate_testcase.py _infer_int_var_maxima does this on the C++)."""
    hi = dict(values)
    ops = {"addi": lambda a, b: a + b, "muli": lambda a, b: a * b, "maxsi": max, "minsi": min, "subi": lambda a, b: a - b}
    for m in re.finditer(r"%(\w+)\s*=\s*arith\.constant\s+(-?\d+)\s*:\s*(?:index|i\d+)|"
                         r"%(\w+)\s*=\s*arith\.(index_cast|extsi|extui|trunci)\s+%(\w+)|"
                         r"%(\w+)\s*=\s*arith\.(addi|muli|maxsi|minsi|subi)\s+%(\w+),\s*%(\w+)|"
                         r"scf\.for\s+%(\w+)\s*=\s*%(\w+)\s+to\s+%(\w+)", text):
        g = m.groups()
        if g[0]:
            hi[g[0]] = int(g[1])
        elif g[2] and g[4] in hi:
            hi[g[2]] = hi[g[4]]
        elif g[5] and g[7] in hi and g[8] in hi:
            hi[g[5]] = ops[g[6]](hi[g[7]], hi[g[8]])
        elif g[9] and g[11] in hi:
            hi[g[9]] = hi[g[11]] - 1
    return hi


def operands(hi, text):
    """Values of a comma-separated list of %names (None where unknown)."""
    return [hi.get(x.strip().lstrip("%")) for x in text.split(",")]


def main():
    pto, out = sys.argv[1], sys.argv[2]
    gen = sys.argv[3] if len(sys.argv) > 3 else None
    text = open(pto).read()
    funcs = list(re.finditer(r"func\.func\s+(?:public\s+)?@(\w+)\(([^)]*)\)", text))
    if len(funcs) != 1:
        fail("expected one function, found %d" % len(funcs))
    entry, params = funcs[0].group(1), funcs[0].group(2)
    case = os.path.splitext(os.path.basename(pto))[0]
    defaults = scalar_defaults(gen, case)
    # a *-pto-new kernel's own harness (npu_validation/main.cpp) names its scalars' values
    harness = os.path.join(os.path.dirname(pto), "npu_validation", "main.cpp")
    if case.endswith("-pto-new") and os.path.exists(harness):
        for m in re.finditer(r"\bu?int\d+_t\s+(v\d+)\s*=\s*(-?\d+)\s*;", open(harness).read()):
            defaults[m.group(1)] = int(m.group(2))
    names, kinds, values, elem = {}, [], {}, {}
    for k, p in enumerate(re.findall(r"%(\w+)\s*:\s*(!pto\.ptr<[^>]*>|[^,\s]+)", params), 1):
        name, ty = p
        ptr = re.match(r"!pto\.ptr<(\w+)", ty.strip())
        if ptr:
            if ptr.group(1) not in HOST:
                fail("pointer element type %s" % ptr.group(1))
            kinds.append(("ptr", HOST[ptr.group(1)]))
            elem[k] = ptr.group(1)
        elif re.match(r"(index|i\d+)$", ty.strip()):
            v = int(defaults.get("v%d" % k, 1))
            kinds.append(("int", v))
            values[name] = v
        else:
            fail("parameter type %s" % ty.strip())
        names[name] = k
    hi = value_maxima(text, values)
    base, stride = {}, {}  # view value -> parameter index, strides
    extent = {}
    for m in re.finditer(r"%(\w+)\s*=\s*pto\.make_tensor_view\s+%(\w+),\s*shape\s*=\s*\[([^\]]*)\],\s*strides\s*=\s*\[([^\]]*)\]", text):
        if m.group(2) not in names:
            continue
        k = names[m.group(2)]
        base[m.group(1)] = k
        shape, strides = operands(hi, m.group(3)), operands(hi, m.group(4))
        if None in shape or None in strides:
            fail("view %s: shape or stride not a constant" % m.group(1))
        stride[m.group(1)] = strides
        extent[k] = max(extent.get(k, 0), 1 + sum((s - 1) * t for s, t in zip(shape, strides)))
    # a partition may reach past its view's declared shape (the samples index a batch row with
    # a scalar): its last element, with every offset at its largest value, counts too
    for m in re.finditer(r"%(\w+)\s*=\s*pto\.partition_view\s+%(\w+),\s*offsets\s*=\s*\[([^\]]*)\],\s*sizes\s*=\s*\[([^\]]*)\]", text):
        if m.group(2) not in base:
            continue
        base[m.group(1)] = k = base[m.group(2)]
        off, size = operands(hi, m.group(3)), operands(hi, m.group(4))
        if m.group(2) in stride and None not in off and None not in size:
            extent[k] = max(extent[k], 1 + sum((o + s - 1) * t for o, s, t in zip(off, size, stride[m.group(2)])))
    outputs = sorted({base[v] for v in re.findall(r"pto\.tstore\s+ins\([^)]*\)\s*outs\(%(\w+)", text) if v in base})
    lines, args = [], []
    for k, (kind, x) in enumerate(kinds, 1):
        if kind == "int":
            lines.append("    int32_t v%d = %d;" % (k, x))
            args.append(str(x))
            continue
        if k not in extent:
            fail("pointer parameter v%d has no tensor view" % k)
        lines += ["    size_t elemCount_v%d = %d;" % (k, extent[k]),
                  "    size_t fileSize_v%d = elemCount_v%d * sizeof(%s);" % (k, k, x),
                  '    ReadFile("./v%d.bin", fileSize_v%d, v%dHost, fileSize_v%d);' % (k, k, k, k)]
        args.append("v%d.bin" % k)
    with open(os.path.join(out, "main.cpp"), "w") as f:
        f.write("// stand-in written by ptosim scripts/sample_meta.py from %s\n%s\n" % (os.path.basename(pto), "\n".join(lines)))
    with open(os.path.join(out, "outputs.txt"), "w") as f:
        f.write("".join("v%d\n" % k for k in outputs))
    print("--entry %s %s" % (entry, " ".join(args)))
    print(" ".join("v%d:%s" % (k, elem[k]) for k in outputs))
    print(" ".join("v%d:%d" % (k, extent[k] * SIZE[elem[k]]) for k in sorted(extent)))


main()
