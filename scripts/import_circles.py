#!/usr/bin/env python3
"""Import circles between a crate's modules: exits 1, naming them, if any.

Usage: scripts/import_circles.py SRC_DIR...  (engine/src src xtask/src)

Each .rs file is a module. A module imports another where it names it by a
`crate::`, `super::` or `self::` path (in code, not in comments or a
`#[cfg(test)] mod tests`), and where a parent names a child it declares
(`mod child;` then `child::...`). A circle is a set of modules that import
one another round: split it so that what they share has a module of its
own that imports none of them.
"""
import os
import re
import sys

DECLARED = re.compile(r"^\s*(?:pub(?:\([a-z]+\))?\s+)?mod ([a-z_0-9]+);", re.M)
IMPORT_LINE = re.compile(r"^\s*(?:pub(?:\([a-z]+\))?\s+)?(?:use|mod) .*$", re.M)
PATH = re.compile(r"\b((?:crate|super|self)(?:::[A-Za-z_][A-Za-z0-9_]*)+)")


def modules(root):
    files = {}
    for folder, _, names in os.walk(root):
        for name in names:
            if name.endswith(".rs"):
                path = os.path.join(folder, name)
                parts = os.path.relpath(path, root)[:-3].split(os.sep)
                if parts[-1] in ("mod", "lib", "main"):
                    parts = parts[:-1]
                files[tuple(parts)] = path
    return files


def imports(files):
    def resolve(path):
        for k in range(len(path), -1, -1):
            if tuple(path[:k]) in files:
                return tuple(path[:k])
        return None

    edges = {m: set() for m in files}
    for module, path in files.items():
        with open(path, encoding="utf-8") as f:
            src = f.read()
        src = re.sub(r"//[^\n]*", "", src)
        src = re.sub(r"#\[cfg\(test\)\]\s*mod tests \{.*", "", src, flags=re.S)
        body = IMPORT_LINE.sub("", src)
        for child in DECLARED.findall(src):
            named = re.search(r"(?<![A-Za-z0-9_:])" + child + r"::", body) or re.search(
                r"^\s*(?:pub(?:\([a-z]+\))?\s+)?use " + child + r"::", src, re.M
            )
            target = resolve(list(module) + [child])
            if named and target and target != module:
                edges[module].add(target)
        for found in PATH.findall(src):
            parts = found.split("::")
            if parts[0] == "crate":
                base, rest = [], parts[1:]
            else:
                base, rest = list(module), parts[1:]
                if parts[0] == "super":
                    base = base[:-1]
                    while rest and rest[0] == "super":
                        base, rest = base[:-1], rest[1:]
            target = resolve(base + rest)
            if target is not None and target != module and list(target) != base:
                edges[module].add(target)
            elif target is not None and target != module and rest:
                edges[module].add(target)
    return edges


def circles(edges):
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted("::".join(m) or "crate" for m in part))

    for v in edges:
        if v not in index:
            visit(v)
    return found


def main():
    failed = False
    for root in sys.argv[1:]:
        for circle in circles(imports(modules(root))):
            print(f"{root}: these modules import one another round: {', '.join(circle)}")
            failed = True
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
