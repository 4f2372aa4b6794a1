#!/usr/bin/env python3
"""Print the `ptosim run` arguments of a PTOAS test case, in kernel parameter order: one line per
kernel launch of its main.cpp, in launch order.

  scripts/case_args.py CASE_DIR OUT_DIR

main.cpp reads files (ReadFile("./F.bin", size, host, ...) or a helper like it) into host buffers,
copies them to device buffers (aclrtMemcpy ... HOST_TO_DEVICE), calls LaunchX(dev, ..., stream),
copies device buffers back and writes them (WriteFile("./G.bin", host, ...)). launch.cpp's LaunchX
starts the kernel as kernel<<<blocks, ...>>>(args), where one LaunchX parameter may feed several
kernel parameters. This maps every kernel parameter to a file in OUT_DIR or a number:
- a device buffer becomes the file main.cpp writes it back to (G.bin), holding the contents it was
  loaded with (F.bin is copied to G.bin when they differ); a buffer never loaded gets zeros of its
  aclrtMalloc size; one device buffer passed to several parameters is the same file (`ptosim run`
  treats the same file as one GM buffer), two buffers loaded from the same file get their own copies;
- a scalar is a literal, a constant of main.cpp or launch.cpp, or read from the file of its host buffer.
With no main.cpp: v1.bin..vN.bin in order."""
import os
import re
import shutil
import sys

case, out = sys.argv[1], sys.argv[2]
SIZEOF = {"float": 4, "half": 2, "double": 8, "char": 1, "bool": 1, "short": 2, "int": 4, "long": 8,
          "bfloat16_t": 2, "aclFloat16": 2}


def read(name):
    path = os.path.join(case, name)
    if not os.path.exists(path):
        return ""
    src = open(path).read()
    return re.sub(r'//[^\n]*|/\*.*?\*/', '', src, flags=re.S)  # no comments


def split_args(text):
    """Top-level comma-separated expressions of an argument list."""
    args, depth, cur = [], 0, ""
    for ch in text:
        depth += ch in "(<[" and 1 or (ch in ")>]" and -1 or 0)
        if ch == "," and depth == 0:
            args.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return [a for a in args + [cur.strip()] if a]


def evaluate(expr, env):
    """The value of a C integer expression over names of env (constants), or None."""
    for _ in range(8):  # substitute names until only numbers remain
        expr = re.sub(r'sizeof\(\s*(?:unsigned\s+)?(\w+)\s*\)', lambda m: str(
            SIZEOF.get(m.group(1)) or int((re.findall(r'\d+', m.group(1)) or ["8"])[0]) // 8), expr)
        expr = re.sub(r'static_cast<[^>]*>|\(\s*(?:unsigned\s+)?(?:size_t|u?int\d*_t|int|long|short)\s*\)', '', expr)
        expr = re.sub(r'\b[A-Za-z_]\w*\b', lambda m: env.get(m.group(0), m.group(0)), expr)
    expr = re.sub(r'\b(\d+)(?:[uU]?[lL]{0,2}|[lL]{1,2}[uU])\b', r'\1', expr)
    try:
        return int(eval(expr.replace("/", "//"), {"__builtins__": {}}))
    except Exception:
        return None


def constants(src):
    return dict(re.findall(r'\b(?:const|constexpr)?\s*(?:static\s+)?(?:unsigned\s+)?(?:size_t|int\w*|uint\w*|long|int)\s+'
                           r'(\w+)\s*=\s*([^;,{}]+);', src))


main_src, launch_src = read("main.cpp"), read("launch.cpp")
consts = constants(main_src)
kernel = open(os.path.join(case, "kernel.pto")).read()
funcs = re.findall(r'func\.func\s+(?:public\s+|private\s+)?@(\w+)', kernel)

# host <-> device copies and host buffer <-> file
h2d, d2h = {}, {}
for m in re.finditer(r'aclrtMemcpy\(\s*(\w+)\s*,[^,]*,\s*(\w+)\s*,[^,]*,\s*ACL_MEMCPY_(\w+)', main_src):
    if m.group(3) == "HOST_TO_DEVICE":
        h2d[m.group(1)] = m.group(2)
    elif m.group(3) == "DEVICE_TO_HOST":
        d2h[m.group(2)] = m.group(1)
hosts = set(h2d.values()) | set(d2h.values()) | set(re.findall(r'MallocHost\(\s*\(void\s*\*\*\)\s*\(?&(\w+)', main_src))
sizes = {d: s for d, s in re.findall(r'aclrtMalloc\(\s*\(void\s*\*\*\)\s*\(?&(\w+)\)?\s*,\s*([^,]+),', main_src)}


def host_of(args):
    """The host buffer among the arguments of a file read or write."""
    names = [n for a in args for n in re.findall(r'&?\b(\w+)\b', a)]
    return next((n for n in names if n in hosts), None) or next((n for n in names if n.endswith("Host")), None)


reads, writes = {}, {}
for m in re.finditer(r'(\w+)\(\s*"(?:\./)?([\w.-]+)\.bin"\s*,([^;]*)', main_src):
    host = host_of(split_args(m.group(3)))
    if host:
        (writes if "write" in m.group(1).lower() else reads).setdefault(host, m.group(2))
# loops over indices: `case 3: hostBuf = outUbReluHost;` with path "./v%d.bin"
for m in re.finditer(r'case\s+(\d+):\s*\w+\s*=\s*(\w+?Host)\b', main_src):
    reads.setdefault(m.group(2), "v" + m.group(1))
    writes.setdefault(m.group(2), "v" + m.group(1))
# std::memcpy(aFp8Host, aHost, ...): a second buffer with the same contents
for m in re.finditer(r'memcpy\(\s*(\w+)\s*,\s*(\w+)\s*,', main_src):
    if m.group(2) in reads and m.group(1) not in reads:
        reads[m.group(1)] = reads[m.group(2)]

paths = {}  # device buffer -> file


def device_file(dev):
    """The file standing for device buffer dev (see the module comment)."""
    if dev in paths:
        return paths[dev]
    host = h2d.get(dev) or d2h.get(dev) or (dev[:-len("Device")] + "Host" if dev.endswith("Device") else None)
    src = reads.get(h2d.get(dev, host))
    dst = writes.get(d2h.get(dev, host))
    stem = dst or src or dev
    if os.path.join(out, stem + ".bin") in paths.values():  # another buffer has this file
        stem = dev
    path = os.path.join(out, stem + ".bin")
    if src and src != stem:
        shutil.copyfile(os.path.join(out, src + ".bin"), path)
    elif not src and not os.path.exists(path):
        n = evaluate(sizes.get(dev, ""), consts)
        if n is not None:
            open(path, "wb").write(bytes(n))
    paths[dev] = path
    return path


def host_scalar(a):
    """The value of a scalar launch argument xHost read from ./F.bin (little-endian), or None."""
    host = [n for n in re.findall(r'\b(\w+)\b', a) if n in reads and n not in h2d.values()]
    if not host:
        return None
    raw = open(os.path.join(out, reads[host[0]] + ".bin"), "rb").read()
    return str(int.from_bytes(raw[:8], "little", signed=True))


# `const char *files[N] = {"v1_in.bin", ...};` read into host[i] and copied to device[i]: the
# argument device[k] of the launch stands for file k of that array
file_arrays = [re.findall(r'"(?:\./)?([\w.-]+\.bin)"', m.group(1))
               for m in re.finditer(r'const\s+char\s*\*\s*\w+\s*\[[^\]]*\]\s*=\s*\{([^}]*)\}', main_src)]


def main_value(a):
    """A LaunchX argument of main.cpp: a file, or a number."""
    indexed = re.fullmatch(r'\s*\w+\[(\d+)\]\s*', a)
    if indexed and file_arrays and int(indexed.group(1)) < len(file_arrays[0]):
        return os.path.join(out, file_arrays[0][int(indexed.group(1))])
    names = re.findall(r'\b(\w+)\b', a)
    dev = next((n for n in names if n in sizes or n in h2d or n.endswith("Device")), None)
    if dev:
        return device_file(dev)
    v = host_scalar(a)
    if v is None:
        v = evaluate(a, consts)
    return str(v) if v is not None else a


# launch.cpp: LaunchX(params) { kernel<<<blocks, ...>>>(args); }
launchers = {}
lconsts = constants(launch_src)
for m in re.finditer(r'void\s+(Launch\w*)\s*\(([^)]*)\)\s*\{(.*?)\n\}', launch_src, re.S):
    params = [re.findall(r'(\w+)\s*$', p)[0] for p in split_args(m.group(2))]
    k = re.search(r'(\w+)\s*<<<(.*?)>>>\s*\((.*?)\)\s*;', m.group(3), re.S)
    if k:
        launchers[m.group(1)] = (params, k.group(1), split_args(k.group(2))[0], split_args(k.group(3)))

launches = []
for name, text in re.findall(r'^\s*(Launch\w*)\(([^;]*)\);', main_src, re.M):
    args = split_args(text)
    if name not in launchers:  # no launch.cpp body: one kernel parameter per argument but the stream
        entry = [f for f in funcs if f.lower().replace("_", "") == name[6:].lower().replace("_", "")]
        launches.append((entry[:1], [], [main_value(a) for a in args[:-1]]))
        continue
    params, kname, blocks, kargs = launchers[name]
    values = {p: main_value(a) for p, a in zip(params, args) if "stream" not in p.lower()}
    res = []
    for ka in kargs:
        used = [n for n in re.findall(r'\b(\w+)\b', ka) if n in values]
        v = values[used[-1]] if used else evaluate(ka, lconsts)
        res.append(str(v) if v is not None else ka)
    env = dict(lconsts, **{p: v for p, v in values.items() if re.fullmatch(r'-?\d+', v)})
    n = evaluate(blocks, env)
    launches.append(([kname] if kname in funcs else [], ["--blocks", str(n)] if n not in (None, 1) else [], res))
if not launches:
    n = 1
    while os.path.exists(os.path.join(out, "v%d.bin" % n)):
        n += 1
    launches.append(([], [], [os.path.join(out, "v%d.bin" % i) for i in range(1, n)]))
for entry, blocks, res in launches:
    print(" ".join((["--entry", entry[0]] if entry else []) + blocks + res))
