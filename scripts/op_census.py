#!/usr/bin/env python3
"""Census of the PTO op names: which the specification names, which ptosim runs, which are to do.

  scripts/op_census.py [--mirror DIR] [--list missing|todo|lowered|spec]

Rerun from the repository root after changing src/isa/ops.def (its PTOSIM_OP, PTOSIM_TODO and
PTOSIM_IR rows), or after refreshing the spec mirrors (default DIR /work/.mirror, the
bare git mirrors <owner>+<name>/repo; each source is read at HEAD). Exit status 1 when a check fails.

Spec names come from
  - the op definitions of PTOAS: `def X : Cls<"mnemonic"` in include/PTO/IR/*Ops.td of
    vpto-dev/PTOAS (PTOOps, VPTOOps), hw-native-sys/PTOAS (PTOOps) and tonibohnlein/PTOAS
    (PTOOps, VPTOOps, VMIOps, VPTOUbOps); the class chain gives the prefix (VMI_Op adds "vmi.");
  - the backticked `pto.*` names in the headings of vpto-dev/PTOAS docs/isa/micro-isa/*.md;
  - the PTO_INST functions of pto-isa include/pto/common/pto_instr.hpp and
    include/pto/comm/pto_comm_inst.hpp: a C++ name is the PTOAS op whose mnemonic matches it
    ignoring case, '_' and '.' (TMATMUL_ACC = pto.tmatmul.acc, comm TPUT = pto.comm.tput);
    otherwise it is spelled pto.<lower-case name>.

Checks: ids and spellings unique over the rows; every spec name has a row; no TODO or IR row
names an op the spec does not; todo ids are the spelling without "pto." with '.' -> '_'; pipe
and unit valid; a formula on every row; every PTOSIM_IR row is handled in
src/exec/*.c (its spelling as a string literal or its PTOSIM_OP_<id>).
"""
import collections
import glob
import os
import re
import subprocess
import sys

TD_SOURCES = [("vpto-dev+PTOAS", ["PTOOps", "VPTOOps"]),
              ("hw-native-sys+PTOAS", ["PTOOps"]),
              ("tonibohnlein+PTOAS", ["PTOOps", "VPTOOps", "VMIOps", "VPTOUbOps"])]
DOC_REPO, DOC_DIR = "vpto-dev+PTOAS", "docs/isa/micro-isa/"
CPP_REPO = "hw-native-sys+pto-isa"
CPP_SOURCES = [("include/pto/common/pto_instr.hpp", ""), ("include/pto/comm/pto_comm_inst.hpp", "comm.")]
CPP_ALIASES = {"TSUBVIEW": "pto.subview"}  # pto-isa's tile sub-view is PTOAS's pto.subview
# Ops only pto-isa's tile ISA pages name (no .td defines them, no PTO_INST in pto_instr.hpp)
DOC_ONLY = {"pto.talias": "pto-isa docs/isa/tile/sync-and-config.md"}
PIPES = {"S", "MTE1", "MTE2", "MTE3", "M", "V", "FIX"}
UNITS = {"AIC", "AIV", "ANY"}


def git(mirror, repo, *args):
    return subprocess.run(["git", "--git-dir=%s/%s/repo" % (mirror, repo)] + list(args),
                          capture_output=True, text=True, check=True).stdout


def skip_angle(t, i):
    """t[i] == '<': index after the matching '>'."""
    depth = 0
    for j in range(i, len(t)):
        depth += {"<": 1, ">": -1}.get(t[j], 0)
        if depth == 0:
            return j + 1
    return len(t)


def first_arg(t, i):
    """t[i] == '<': text of the first top-level template argument."""
    depth, j = 0, i + 1
    while j < len(t):
        c = t[j]
        if c in "<([{":
            depth += 1
        elif c in ")]}" or (c == ">" and depth):
            depth -= 1
        elif (c == ">" or c == ",") and depth == 0:
            break
        j += 1
    return t[i + 1:j].strip()


def td_names(texts):
    """Mnemonics of the ops defined in the TableGen texts, with their class prefixes."""
    classes, defs = {}, []
    for t in texts:
        t = re.sub(r"//[^\n]*", "", t)
        for m in re.finditer(r"\b(class|def)\s+(\w+)\s*", t):
            kind, name, i = m.group(1), m.group(2), m.end()
            if kind == "class":
                if not t.startswith("<", i):
                    continue
                i = skip_angle(t, i)
            parent = re.compile(r"\s*:\s*(\w+)\s*<").match(t, i)
            if parent:
                entry = (parent.group(1), first_arg(t, parent.end() - 1))
                if kind == "class":
                    classes[name] = entry
                else:
                    defs.append(entry)

    def prefix(cls, depth=0):  # None: not an op class
        if cls not in classes or depth > 30:
            return None
        parent, arg = classes[cls]
        if parent == "Op":
            return "" if arg == "PTO_Dialect" else None
        p = prefix(parent, depth + 1)
        m = re.fullmatch(r'"([^"]*)"\s*#\s*mnemonic', arg)
        if p is None or not (m or arg == "mnemonic"):
            return None
        return p + (m.group(1) if m else "")

    return {"pto." + prefix(c) + a.strip('"') for c, a in defs
            if a.startswith('"') and prefix(c) is not None}


def cpp_names(text):
    text = re.sub(r"//[^\n]*", "", text)
    out = set()
    for m in re.finditer(r"\bPTO_INST\b", text):
        head = text[m.end():text.index("(", m.end())]
        out.add(re.findall(r"(\w+)\s*$", head)[0])
    return out


def spec_names(mirror):
    """{spelling: source} over all spec sources."""
    spec = {}
    for repo, files in TD_SOURCES:
        texts = [git(mirror, repo, "show", "HEAD:include/PTO/IR/%s.td" % f) for f in files]
        for n in td_names(texts):
            spec.setdefault(n, repo + " td")
    for path in git(mirror, DOC_REPO, "ls-tree", "-r", "HEAD", "--name-only").split():
        if path.startswith(DOC_DIR) and path.endswith(".md"):
            for line in git(mirror, DOC_REPO, "show", "HEAD:" + path).splitlines():
                if re.match(r"#{2,4} ", line):
                    for n in re.findall(r"`(pto\.[\w.]+)`", line):
                        spec.setdefault(n, "micro-isa doc")
    norm = lambda s: re.sub(r"[._]", "", s).lower()
    by_norm = {norm(n[4:]): n for n in spec}
    for path, pre in CPP_SOURCES:
        for c in cpp_names(git(mirror, CPP_REPO, "show", "HEAD:" + path)):
            n = CPP_ALIASES.get(c) or by_norm.get(norm(pre + c)) or "pto." + pre + c.lower()
            spec.setdefault(n, "pto-isa C++")
    for n, src in DOC_ONLY.items():
        spec.setdefault(n, src)
    return spec


def rows(path, macro):
    """[(id, spelling, family, pipe, unit, formula)] of the X-macro rows in path."""
    text = re.sub(r"/\*.*?\*/", "", open(path).read(), flags=re.S)
    text = re.sub(r"^#.*$", "", text, flags=re.M)
    out = []
    for m in re.finditer(macro + r"\((.*?)\)\s*$", text, re.S | re.M):
        f = [x.strip() for x in re.findall(r'\s*("[^"]*"|[^,]+)', m.group(1))]
        if macro == "PTOSIM_IR":  # (id, spelling, family, formula): pipe S, any unit
            f = f[:3] + ["S", "ANY"] + f[3:]
        out.append((f[0], f[1].strip('"'), f[2], f[3], f[4], f[-1].strip('"')))
    return out


def main():
    args = sys.argv[1:]
    mirror = args[args.index("--mirror") + 1] if "--mirror" in args else "/work/.mirror"
    show = args[args.index("--list") + 1] if "--list" in args else None
    spec = spec_names(mirror)
    impl = rows("src/isa/ops.def", "PTOSIM_OP")
    todo = rows("src/isa/ops.def", "PTOSIM_TODO")
    lowered = [r[1] for r in rows("src/isa/ops.def", "PTOSIM_IR")]
    errors = []

    def dups(what, xs):
        for k, v in collections.Counter(xs).items():
            if v > 1:
                errors.append("duplicate %s: %s" % (what, k))

    dups("id", [r[0] for r in impl + todo])
    dups("spelling", [r[1] for r in impl + todo] + lowered)
    for r in todo:
        oid, s, fam, pipe, unit, formula = r
        if oid != s[4:].replace(".", "_") or not s.startswith("pto."):
            errors.append("todo id %s does not match spelling %s" % (oid, s))
        if pipe not in PIPES or unit not in UNITS or not re.fullmatch(r"[A-Z][A-Z0-9_]*", fam):
            errors.append("bad family/pipe/unit in row %s" % oid)
        if len(formula) < 10:
            errors.append("row %s lacks a formula" % oid)
    covered = {r[1] for r in impl} | {r[1] for r in todo} | set(lowered)
    for n in sorted(set(spec) - covered):
        errors.append("spec name in no list: %s (%s)" % (n, spec[n]))
    for n in sorted(({r[1] for r in todo} | set(lowered)) - set(spec)):
        errors.append("not a spec name: %s" % n)
    literals = set()
    ir_ids = {r[1]: r[0] for r in rows("src/isa/ops.def", "PTOSIM_IR")}
    for f in glob.glob("src/exec/*.c"):
        text = open(f).read()
        literals |= set(re.findall(r'"(pto\.[\w.]+)"', text))
        literals |= {sp for sp, i in ir_ids.items() if "PTOSIM_OP_" + i in text}
    for n in lowered:
        if n not in literals:
            errors.append("PTOSIM_IR row not handled in src/exec: %s" % n)

    if show:
        names = {"missing": sorted(set(spec) - covered), "todo": [r[1] for r in todo],
                 "lowered": lowered, "spec": sorted(spec)}[show]
        print("\n".join(names))
        return 1 if errors else 0
    impl_spec = [r for r in impl if r[1] in spec]
    print("spec names:          %d" % len(spec))
    print("  implemented:       %d (ops.def rows %d; %d of them not spec names: %s)" % (
        len(impl_spec), len(impl), len(impl) - len(impl_spec),
        " ".join(r[1] for r in impl if r[1] not in spec) or "-"))
    print("  lowered:           %d" % len(lowered))
    print("  todo:              %d" % len(todo))
    print("todo by family:")
    for fam, n in collections.Counter(r[2] for r in todo).items():
        print("  %-16s %d" % (fam, n))
    for e in errors:
        print("ERROR: " + e, file=sys.stderr)
    print("checks: %s" % ("ok" if not errors else "%d errors" % len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
