#!/usr/bin/env python3
"""Run pto-isa's test goldens (<suite dir>/testcase/<op>/gen_data.py) through ptosim.

    run.py PTOISA_DIR PTOSIM_BUILD_DIR WORKDIR [--suite cpu|npu-a5|npu-a2a3] [OP...]

Suites: cpu = tests/cpu/st, run on both ptosim profiles; npu-a5 / npu-a2a3 =
tests/npu/<arch>/src/st (the goldens the real NPU is checked against), run on the matching
profile only, and also judged with main.cpp's own tolerance (ResultCmp / ResultCmpExact).

Per op: gen_data.py runs in WORKDIR/<op> (it writes one directory per case with input*.bin and
golden.bin); the case list is read from the script itself (the list literal of its __main__
block, each entry evaluated in the script's namespace), and ops.py turns each case into tiles
and one op. For each case and profile a .pto program (tload every input, the op, tstore every
output) runs with `ptosim run --check none`; the outputs are compared with golden.bin over the
destination's valid region. Prints one table row per case, output and profile.
"""
import ast
import contextlib
import io
import os
import re
import shutil
import subprocess
import sys
import types

import numpy as np

import ops

HERE = os.path.dirname(os.path.abspath(__file__))


def case_list(op, script, d):
    """The cases of gen_data.py as (name, entry), in script order. Entries: the elements of the
    list literals assigned in its __main__ block that are parameter objects (instances of a class
    the script defines) or tuples, each list evaluated in the module namespace (the script
    without its __main__ block, plus that block's plain assignments); else every call of such a
    class in __main__, or the first list literal of tuples there; else one case from the
    module-level constants. Names: see case_name (the one gen_data.py made a directory for, in d)."""
    tree = ast.parse(open(script).read())
    main = next(n for n in tree.body if isinstance(n, ast.If) and "__main__" in ast.unparse(n.test))
    ns = {"__name__": "gen_data", "__file__": script}
    with contextlib.redirect_stdout(io.StringIO()):  # the script's progress messages
        exec(compile(ast.Module([n for n in tree.body if n is not main], []), script, "exec"), ns)
    if op in ops.RECORDED:
        return recorded(script, main, ns)
    plain = [a for a in main.body if isinstance(a, ast.Assign) and not isinstance(a.value, (ast.Call, ast.List))]
    exec(compile(ast.Module(plain, []), script, "exec"), ns)
    classes = tuple(v for v in ns.values() if isinstance(v, type) and v.__module__ == "gen_data")

    def value(e):
        return eval(compile(ast.Expression(e), script, "eval"), ns)
    lists, found, inside = [], [], set()  # found: (position, entries)
    for a in (n for n in ast.walk(main) if isinstance(n, ast.Assign) and isinstance(n.value, ast.List)):
        try:
            lst = value(a.value)
        except Exception:  # a list built from loop variables: not a case list
            continue
        lists.append(lst)
        found.append(((a.lineno, a.col_offset), [e for e in lst if isinstance(e, classes + (tuple,))]))
        inside |= {id(n) for n in ast.walk(a.value)}
    if any(es for _, es in found):  # plus parameter objects made outside those lists (appended ones)
        for n in ast.walk(main):
            if isinstance(n, ast.Call) and id(n) not in inside and getattr(n.func, "id", None) in \
                    {c.__name__ for c in classes}:
                try:
                    found.append(((n.lineno, n.col_offset), [value(n)]))
                except Exception:  # made from loop variables
                    pass
    entries = [e for _, es in sorted(found, key=lambda f: f[0]) for e in es]
    if not entries:
        nodes = [n for n in ast.walk(main) if isinstance(n, ast.Call) and getattr(n.func, "id", None) in
                 {c.__name__ for c in classes}]
        if not nodes:
            nodes = next((n.elts for n in ast.walk(main) if isinstance(n, ast.List) and n.elts
                          and all(isinstance(e, ast.Tuple) for e in n.elts)), [])
        nodes.sort(key=lambda n: (n.lineno, n.col_offset))
        entries = [value(e) for e in nodes]
    names = names_of(lists)
    if not entries and op in ops.NAME_ONLY:  # only a name list (the golden is made by ops' maker)
        return [(n, names[0]) for n in names[0]]
    if not entries and op in ops.MODULE_CASES:  # a case list at module level (ops.MODULE_CASES[op])
        entries = ns[ops.MODULE_CASES[op]]
        return [(case_name(op, i, e, ns, names, d), e) for i, e in enumerate(entries)]
    if not entries and isinstance(ns.get("CASES"), list):  # a module-level CASES list of (name, generator)
        return [(e[0], e) for e in ns["CASES"]]
    if not entries and names and "case_name" not in ns:  # case names only (main.cpp makes the golden)
        return [(n, n) for n in names[0]]
    if not entries:  # one case, parameters at module level, case_name assigned in __main__
        return [(ns["case_name"], types.SimpleNamespace(**ns))]
    k = max([len(lst) // len(entries) for lst in names if len(lst) % len(entries) == 0] + [1])
    entries = entries * k  # a name list k times as long reruns the parameters (a2a3 tcolsum)
    return [(case_name(op, i, e, ns, names, d), e) for i, e in enumerate(entries)]


def names_of(lists):
    """The lists of case names (lists of strings) among lists."""
    return [lst for lst in lists if lst and all(isinstance(e, str) for e in lst)]


def recorded(script, main, ns):
    """The cases of a script that builds its case list in loops (ops.RECORDED): its __main__
    block run with every gen_*golden* function replaced by a recorder of (case name = the first
    string argument, entry = the first other argument) and no directory changes."""
    calls = []
    for k in [k for k in ns if k.startswith("gen_") and "golden" in k and callable(ns[k])]:
        ns[k] = lambda *a: calls.append((next(x for x in a if isinstance(x, str)),
                                         next(x for x in a if not isinstance(x, str))))
    fs = types.SimpleNamespace(**{**vars(os), "makedirs": lambda *a, **k: None, "chdir": lambda p: None})
    ns["os"] = fs
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(ast.Module(main.body, []), script, "exec"), ns)
    return calls


def case_name(op, i, c, ns, names, d):
    """The first candidate name of entry i (c) that gen_data.py made a directory for in d:
    ops.NAMES (names built by an f-string loop), the script's generate*name functions, the
    tuple's first element or the object's string attributes, the i-th of its name lists, str(c)."""
    cands = []
    for f in ([lambda c: ops.NAMES[op](i, c)] if op in ops.NAMES else []) + \
            [f for k, f in ns.items() if callable(f) and k.startswith("generate") and k.endswith("name")]:
        for args in ((c,), (i, c)):  # generate_case_name(param) or (index, param)
            try:
                cands.append(f(*args))
            except Exception:  # a naming function of another parameter class or signature
                pass
    vals = list(c) if isinstance(c, tuple) else list(vars(c).values())
    cands += [v for v in vals if isinstance(v, str)] + [lst[i] for lst in names if i < len(lst)] + [str(c)]
    return next((n for n in cands if isinstance(n, str) and os.path.isdir(os.path.join(d, n))), f"case{i}")


# suite -> (test directory under the pto-isa tree, ptosim profiles)
SUITES = {"cpu": ("tests/cpu/st", ops.BOTH), "npu-a5": ("tests/npu/a5/src/st", ("a5",)),
          "npu-a2a3": ("tests/npu/a2a3/src/st", ("a2a3",))}


def gen_data(ptoisa, op, workdir, suite):
    st = os.path.join(ptoisa, SUITES[suite][0])
    script = os.path.join(st, "testcase", op, "gen_data.py")
    d = os.path.join(workdir, op)
    os.makedirs(d, exist_ok=True)
    env = dict(os.environ, PTO_CPU_SIM_ENABLE_BF16="1", PYTHONPATH=os.pathsep.join([st, ptoisa, os.environ.get("PYTHONPATH", "")]))
    copy = os.path.join(d, "gen_data.py")  # run a copy: some scripts write next to themselves
    shutil.copyfile(script, copy)
    r = subprocess.run([sys.executable, copy], cwd=d, env=env, capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError(f"gen_data.py failed: {r.stderr.strip().splitlines()[-1:]}")
    return script, d


def run_case(ptosim, spec, casedir, profile):
    """Write the program, run it; returns (None, outputs) or (error text, None)."""
    prog = os.path.join(casedir, f"ptosim_{profile}.pto")
    open(prog, "w").write(spec.program(profile))
    outdir = os.path.join(casedir, f"ptosim_{profile}")
    os.makedirs(outdir, exist_ok=True)
    args = []
    for t in spec.gm_args():
        path = os.path.join(casedir, t.file) if t.is_input else os.path.join(outdir, t.file)
        if t.init:
            shutil.copyfile(os.path.join(casedir, t.init), path)
        elif not t.is_input:
            np.zeros(t.gm_elems(), dtype=ops.NP[t.dtype]).tofile(path)
        args.append(path)
    check = getattr(spec, "check", "none")  # the pipe kernels (ops.Mixed) run with the checkers on
    r = subprocess.run([ptosim, "run", "--check", check, "--target", profile, "--out-dir", outdir, prog] + args,
                       capture_output=True, text=True)
    if check != "none":  # checker findings (exit 5 keeps the outputs): the rule ids, listed after the row
        spec.findings = findings(r.stderr) if r.returncode in (0, 5) else ""
    if r.returncode and not (check != "none" and r.returncode == 5):
        msg = (r.stderr.strip() or r.stdout.strip()).splitlines()
        first = msg[0].split("error: ", 1)[-1] if msg else ""
        return "exit %d: %s" % (r.returncode, first[:160]), None
    return None, outdir


def findings(stderr):
    """The checker findings of a run's stderr as `rule xN` (first location), else ""."""
    rules = {}
    for line in stderr.splitlines():
        m = re.search(r"(?:error|warning): (.*?)\[([a-z_]+\.[a-z_.-]+)\]", line)
        if m:
            rules.setdefault(m.group(2), []).append(line.strip())
    return "; ".join(f"{k} x{len(v)}: {v[0][:200]}" for k, v in rules.items())


def ordered(bits, nbits):
    """Float bit patterns to a monotonic integer line (distance = ulp)."""
    bits = bits.astype(np.int64)
    sign = 1 << (nbits - 1)
    return np.where(bits & sign, -(bits & (sign - 1)), bits)


def compare(golden, ours, dtype):
    """(elements, mismatches, detail) over two equal-shape arrays of numpy dtype name `dtype`."""
    g, o = golden.ravel(), ours.ravel()
    isf = dtype in ("f32", "f16", "bf16")
    ub = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[ops.ES[dtype]]
    gb, ob = g.view(ub), o.view(ub)
    bad = np.nonzero(gb != ob)[0]
    if isf:
        both_nan = np.isnan(g.astype(np.float32)) & np.isnan(o.astype(np.float32))
        bad = bad[~both_nan[bad]]
    if not len(bad):
        return len(g), 0, "exact"
    i = bad[0]
    w = ops.ES[dtype] * 2
    first = f"[{i}] golden 0x{int(gb[i]):0{w}x} ptosim 0x{int(ob[i]):0{w}x}"
    if isf:
        ulp = np.abs(ordered(gb[bad], ops.ES[dtype] * 8) - ordered(ob[bad], ops.ES[dtype] * 8)).max()
        return len(g), len(bad), f"max {ulp} ulp; first {first}"
    return len(g), len(bad), "first " + first


def result_cmp(golden, ours, eps):
    """pto-isa tests/common/test_common.h ResultCmp(golden, actual, eps) with its defaults
    (threshold = int(n * eps) failing elements, 1000 unexpected zeros), or ResultCmpExact when
    eps is None. Returns (passes, failing elements, allowed)."""
    if eps is None:
        bad = int(np.count_nonzero(golden != ours))
        return bad == 0, bad, 0
    e, a = golden.astype(np.float32), ours.astype(np.float32)
    with np.errstate(all="ignore"):
        diff = np.abs(e - a)
        rel = np.abs(diff / e)
    zeros = np.cumsum((np.abs(a) <= 1e-6) & (np.abs(e) > 1e-6))
    err = ((diff > np.float32(eps)) & (rel > np.float32(eps))) | (zeros > 1000) | (np.isnan(e) != np.isnan(a))
    bad, allowed = int(np.count_nonzero(err)), int(len(e) * np.float32(eps))
    return bad <= allowed and (not len(zeros) or zeros[-1] <= 1000), bad, allowed


def main():
    ptoisa, build, workdir = sys.argv[1:4]
    only = sys.argv[4:]
    suite = "cpu"
    if only[:1] == ["--suite"]:
        suite, only = only[1], only[2:]
    npu = suite != "cpu"
    sys.path[:0] = [os.path.join(ptoisa, SUITES[suite][0]), ptoisa]  # gen_data's `import utils`
    os.environ["PTO_CPU_SIM_ENABLE_BF16"] = "1"  # the case lists read it as the generators do
    ptosim = os.path.join(build, "ptosim")
    ops.SUITE_NOW[0] = suite
    ops.TESTCASE_DIR[0] = os.path.join(ptoisa, SUITES[suite][0], "testcase")  # makers read kernel sources
    table = {**ops.OPS, **ops.NPU, **ops.SUITE.get(suite, {})} if npu else ops.OPS
    print(f"{'op':15} {'case':50} {'out':5} {'dtype':5} {'prof':5} {'elems':>6} {'mism':>6}  "
          + ("tol(main.cpp)  " if npu else "") + "detail")
    dash = f"{'-':5} {'-':5} {'-':5} {'-':>6} {'-':>6}  " + (f"{'-':14} " if npu else "")
    for op, maker in table.items():
        if only and op not in only:
            continue
        if not os.path.exists(os.path.join(ptoisa, SUITES[suite][0], "testcase", op, "gen_data.py")):
            continue
        try:
            script, d = gen_data(ptoisa, op, workdir, suite)
            cases = case_list(op, script, d)
        except Exception as e:  # a failing generator is reported, the other ops still run
            print(f"{op:15} {'-':50} {dash}gen_data: {e}")
            continue
        for name, c in cases:
            casedir = os.path.join(d, name)
            try:
                spec = maker(c, casedir) if os.path.isdir(casedir) else "gen_data.py wrote no directory for it"
            except Exception as e:  # parameters the maker does not know: reported, not fatal
                spec = f"maker: {type(e).__name__}: {e}"
            if isinstance(spec, str):  # a case the text form cannot express
                print(f"{op:15} {name:50} {dash}skipped: {spec}")
                continue
            for profile in [p for p in spec.profiles if p in SUITES[suite][1]]:
                err, outdir = run_case(ptosim, spec, casedir, profile)
                for t in spec.outputs:
                    tolcol = ""
                    if err:
                        row = ("-", "-", err)
                        tolcol = "-" if npu else ""
                    else:
                        row = compare(t.read_golden(casedir), t.read_valid(outdir), t.dtype)
                        if npu:
                            ok, bad, allowed = result_cmp(t.read_whole(casedir, golden=True), t.read_whole(outdir),
                                                          ops.eps_of(op, c, t.dtype, casedir))
                            tolcol = "pass" if ok else f"FAIL {bad}>{allowed}"
                    tolcol = f"{tolcol:14} " if npu else ""
                    found = f"; checkers: {spec.findings}" if getattr(spec, "findings", "") else ""
                    print(f"{op:15} {name:50} {t.name:5} {t.dtype:5} {profile:5} {row[0]:>6} {row[1]:>6}  "
                          f"{tolcol}{row[2]}{found}", flush=True)


if __name__ == "__main__":
    main()
