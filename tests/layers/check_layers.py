#!/usr/bin/env python3
"""Hold the C++ sources to tpugen's one-way layers.

Every `#include "..."` of a source under gen/, tb/ and cli/ is resolved to the
file it names, and the layer of the including file must be allowed to use the
layer of the included one (the table below; docs/architecture.md draws it).
Every library that gen/CMakeLists.txt builds must also link nothing built
under tb/ or cli/.

    check_layers.py [--root DIR]     check a tree (default: this repository)
    check_layers.py --self-test      show that the check fails on a tree with a
                                     forbidden include and a forbidden link

Exit 0 when every include and link keeps the layers, 1 otherwise (each
offence named by file and line), 2 for bad usage.
"""
import argparse
import os
import re
import shutil
import sys
import tempfile

# A layer is a folder; what each may include besides itself. Read top to
# bottom: util -> spec -> libraries -> models and emitters -> harnesses -> fuzzer -> CLI.
LAYERS = {
    # Generic helpers (errors, file I/O, processes, names): under everything.
    "gen/util": [],
    "gen/spec": ["gen/util"],
    "gen/isa": ["gen/util", "gen/spec"],
    "gen/noc": ["gen/util", "gen/spec"],
    "gen/ime": ["gen/util", "gen/spec"],
    "gen/hdl": ["gen/util", "gen/spec", "gen/isa", "gen/noc"],
    "gen/docs": ["gen/util", "gen/spec", "gen/isa"],
    "gen/synth": ["gen/util", "gen/spec"],
    "tb/model": ["gen/util", "gen/spec", "gen/isa", "gen/noc", "gen/ime"],
    "tb/sim": ["gen/util", "gen/spec", "gen/isa", "gen/noc", "gen/hdl", "tb/model"],
    # The campaign engine, random programs, coverage and shrinking: no Verilator.
    "tb/fuzz/core": ["gen/util", "gen/spec", "gen/isa", "gen/noc", "tb/model", "tb/fuzz"],
    "tb/fuzz": ["gen/util", "gen/spec", "gen/isa", "gen/noc", "tb/model", "tb/fuzz/core"],
    # The NoC's campaign: cases, verdicts, shrinking; the caller runs the RTL.
    "tb/fuzz/noc": ["gen/util", "gen/spec", "gen/noc", "tb/model", "tb/fuzz"],
    # Running fuzz cases on the RTL.
    "tb/fuzz/rtl": ["gen/util", "gen/spec", "gen/isa", "gen/noc", "gen/hdl", "tb/model", "tb/sim", "tb/fuzz",
                    "tb/fuzz/core"],
    "cli": ["gen", "tb"],
}
# Where an include's path is looked up, after the including file's own folder.
INCLUDE_ROOTS = ["gen", "tb", "."]
# Generated next to the harnesses in their Verilator builds (sim_config.h, noc_config.h, mover_config.h,
# agent_config.h, cu_system_config.h).
GENERATED = {"sim_config.h", "noc_config.h", "mover_config.h", "agent_config.h", "cu_system_config.h"}
# CMake targets built from tb/ and cli/, which no gen/ library may link.
UPPER_TARGETS = ["tpugen_model", "tpugen_sim", "tpugen_fuzz", "tpugen_fuzz_rtl", "tpugen"]

INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_of(rel):
    """The most specific layer a repository-relative path lies in, or None."""
    best = None
    for layer in LAYERS:
        if rel == layer or rel.startswith(layer + "/"):
            if best is None or len(layer) > len(best):
                best = layer
    return best


def allowed(user, used):
    """A layer uses itself and what LAYERS lists: a layer by name, or a prefix
    that is not itself a layer (cli's "gen" and "tb": everything below)."""
    if used is None or used == user:
        return True
    for dep in LAYERS[user]:
        if used == dep or (dep not in LAYERS and used.startswith(dep + "/")):
            return True
    return False


def sources(root):
    for top in ("gen", "tb", "cli"):
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for f in sorted(files):
                if f.endswith((".h", ".hpp", ".cpp")):
                    yield os.path.join(dirpath, f)


def check_includes(root):
    errors = []
    for path in sources(root):
        rel = os.path.relpath(path, root)
        user = layer_of(rel)
        if user is None:
            errors.append(f"{rel}: not in any layer (tests/layers/check_layers.py LAYERS)")
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            for lineno, line in enumerate(f, 1):
                m = INCLUDE_RE.match(line)
                if not m:
                    continue
                name = m.group(1)
                candidates = [os.path.join(os.path.dirname(path), name)]
                candidates += [os.path.join(root, r, name) for r in INCLUDE_ROOTS]
                target = next((c for c in candidates if os.path.isfile(c)), None)
                if target is None:
                    if os.path.basename(name) in GENERATED:
                        continue
                    errors.append(f"{rel}:{lineno}: #include \"{name}\" names no file in the tree")
                    continue
                used = layer_of(os.path.relpath(os.path.realpath(target), os.path.realpath(root)))
                if not allowed(user, used):
                    errors.append(f"{rel}:{lineno}: #include \"{name}\": {user} may not use {used} "
                                  f"(layers run one way: docs/architecture.md)")
    return errors


def check_links(root):
    """No library built in gen/ links a target of tb/ or cli/."""
    errors = []
    cmake = os.path.join(root, "gen", "CMakeLists.txt")
    with open(cmake, encoding="utf-8") as f:
        text = f.read()
    for m in re.finditer(r"\b(\w+)\s*\(([^()]*)\)", text):
        command, args = m.group(1), m.group(2)
        if command not in ("target_link_libraries", "tpugen_library", "add_dependencies"):
            continue
        lineno = text.count("\n", 0, m.start()) + 1
        for word in args.split()[1:]:
            if word in UPPER_TARGETS:
                errors.append(f"gen/CMakeLists.txt:{lineno}: {args.split()[0]} links {word}, "
                              f"which is built from tb/ or cli/")
    return errors


def check(root):
    return check_includes(root) + check_links(root)


def planted(tmp, rel, text, caught):
    """Append `text` to a file of the copy; the check must report an offence
    for which caught(offence) holds. The file is restored afterwards."""
    path = os.path.join(tmp, rel)
    with open(path, encoding="utf-8") as f:
        original = f.read()
    with open(path, "w", encoding="utf-8") as f:
        f.write(original + text)
    try:
        return any(caught(e) for e in check(tmp))
    finally:
        with open(path, "w", encoding="utf-8") as f:
            f.write(original)


def self_test(root):
    """A copy of the tree, then in turn a forbidden include from gen/ into tb/,
    one from the fuzzer's core into the simulator, and a gen/ library linking tb/."""
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for top in ("gen", "tb", "cli"):
            shutil.copytree(os.path.join(root, top), os.path.join(tmp, top))
        if check(tmp):
            failures.append("the unmodified copy fails the check")
        cases = [
            ("gen/isa/instr.h", '\n#include "model/core/model.h"\n',
             lambda e: "gen/isa/instr.h" in e and "tb/model" in e, "an include of tb/model from gen/isa"),
            ("tb/fuzz/core/coverage.h", '\n#include "sim/rtl_engine.h"\n',
             lambda e: "tb/fuzz/core/coverage.h" in e and "tb/sim" in e, "an include of tb/sim from tb/fuzz/core"),
            ("gen/CMakeLists.txt", "\ntarget_link_libraries(tpugen_hdl PUBLIC tpugen_sim)\n",
             lambda e: "links tpugen_sim" in e, "a gen/ library linking tpugen_sim"),
        ]
        for rel, text, caught, what in cases:
            if not planted(tmp, rel, text, caught):
                failures.append(f"{what} was not caught")
    return failures


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    if args.self_test:
        failures = self_test(root)
        for f in failures:
            print(f"check_layers self-test: {f}", file=sys.stderr)
        print("check_layers self-test: " + ("FAILED" if failures else "every planted offence caught"))
        return 1 if failures else 0
    errors = check(root)
    for e in errors:
        print(e, file=sys.stderr)
    count = sum(1 for _ in sources(root))
    print(f"check_layers: {count} sources, " + (f"{len(errors)} offences" if errors else "every include keeps the layers"))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
