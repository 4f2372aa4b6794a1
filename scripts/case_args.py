#!/usr/bin/env python3
"""Print the `ptosim run` arguments of a PTOAS test case, in kernel parameter order: one line per
kernel launch of its main.cpp, in launch order.

  scripts/case_args.py CASE_DIR OUT_DIR

The case's main.cpp reads ./vN.bin (or another ./F.bin) into <name>Host buffers and launches the kernel with
<name>Device arguments (possibly cast: reinterpret_cast<T *>(vNDevice)); this maps each launch argument back
to its vN.bin (in OUT_DIR). Literal launch arguments are passed through; with no main.cpp, v1..vN in order."""
import os
import re
import shutil
import sys

case, out = sys.argv[1], sys.argv[2]
main = os.path.join(case, "main.cpp")
files = {}
launches = []  # (args, entry) per launch
if os.path.exists(main):
    src = open(main).read()
    # ReadFile("./v1.bin", size, aHost, ...) or a helper such as readExact("./x.bin", aHost, ...)
    for m in re.finditer(r'\w+\("\./([\w.-]+)\.bin",\s*(?:\w+,\s*)?&?(\w+?)Host\b', src):
        files[m.group(2)] = m.group(1)
    # loops over indices: `case 3: hostBuf = outUbReluHost;` with path "./v%d.bin"
    for m in re.finditer(r'case\s+(\d+):\s*\w+\s*=\s*(\w+?)Host', src):
        files.setdefault(m.group(2), "v" + m.group(1))
    # std::memcpy(aFp8Host, aHost, ...): a second device buffer with the same contents; give
    # it its own copy of the file, as the run writes every buffer back in place.
    for m in re.finditer(r'memcpy\((\w+?)Host,\s*(\w+?)Host\b', src):
        if m.group(2) in files and m.group(1) not in files:
            copy = m.group(1)
            shutil.copyfile(os.path.join(out, files[m.group(2)] + ".bin"), os.path.join(out, copy + ".bin"))
            files[copy] = copy
    consts = dict(re.findall(r'const\s+\w+\s+(\w+)\s*=\s*([-\w.]+);', src))
    calls = re.findall(r'^\s*Launch(\w*)\(([^;]*)\);', src, re.M)
    kernel = open(os.path.join(case, "kernel.pto")).read()
    funcs = re.findall(r'func\.func\s+(?:public\s+)?@(\w+)', kernel)
    # launch.cpp starts each kernel as name<<<blocks, ...>>>
    launch = os.path.join(case, "launch.cpp")
    launch_src = open(launch).read() if os.path.exists(launch) else ""
    blocks = dict(re.findall(r'(\w+)<<<\s*(\w+)\s*,', launch_src))
    for name, text in calls:
        args = [a.strip() for a in text.split(",")][:-1]  # the last one is the stream
        # LaunchCube_foo_kernel launches @cube_foo_kernel: name it when the file has several
        launches.append((args, [f for f in funcs if f.lower().replace("_", "") == name.lower().replace("_", "")]))
if not launches:
    n = 1
    while os.path.exists(os.path.join(out, "v%d.bin" % n)):
        n += 1
    launches.append((["v%dDevice" % i for i in range(1, n)], []))
    blocks = {}
def host_scalar(a):
    """The value of a scalar launch argument xHost read from ./F.bin (little-endian), or None."""
    host = re.search(r'\b(\w+)Host\b', a)
    if not host or host.group(1) not in files:
        return None
    raw = open(os.path.join(out, files[host.group(1)] + ".bin"), "rb").read()
    return str(int.from_bytes(raw[:8], "little", signed=True))


def block_count(expr, names, values):
    """The block count of a launch: a number, or a `const T x = expr;` of launch.cpp over
    the launch function's scalar parameters (C integer arithmetic)."""
    consts = dict(re.findall(r'const\s+\w+\s+(\w+)\s*=\s*([^;]+);', launch_src))
    env = {n: v for n, v in zip(names, values) if re.fullmatch(r'-?\d+', v)}
    for _ in range(8):  # substitute names until only numbers remain
        expr = re.sub(r'\b[A-Za-z_]\w*\b', lambda m: env.get(m.group(0), consts.get(m.group(0), m.group(0))), expr)
    try:
        return str(int(eval(expr.replace("/", "//"), {"__builtins__": {}})))
    except Exception:
        return "1"


for args, entry in launches:
    res = []
    if entry and entry[0] in blocks:
        lf = re.search(r'void\s+Launch\w*\(([^)]*)\)\s*\{[^}]*' + entry[0] + r'<<<', launch_src, re.S)
        names = [re.findall(r'(\w+)\s*$', a.strip())[0] for a in lf.group(1).split(",") if a.strip()] if lf else []
        n = block_count(blocks[entry[0]], names, [host_scalar(a) or consts.get(a, a) for a in args])
        if n != "1":
            res = ["--blocks", n]
    for a in args:
        dev = re.search(r'\b(\w+)Device\b', a)
        if dev:
            res.append(os.path.join(out, (files.get(dev.group(1)) or dev.group(1)) + ".bin"))
        elif host_scalar(a):
            res.append(host_scalar(a))
        else:
            res.append(consts.get(a, a) if os.path.exists(main) else a)
    print(" ".join((["--entry", entry[0]] if entry else []) + res))
