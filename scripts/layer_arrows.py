#!/usr/bin/env python3
"""Prints the runtime's layer-to-layer include arrows and counts those that point up.

Usage: python3 scripts/layer_arrows.py [REPO]        (REPO: the repository root; default: this script's)

Reads every #include of runtime/src/**, runtime/include/** and runtime/probe/** and draws one
arrow per pair of layers (with how many includes make it and from which files). The layers,
top first:

  probe        runtime/probe/: a program over the public API (it creates a Runtime)
  application  runtime/src/runtime.cpp and the headers of the application objects' insides:
               runtime.hpp (the Runtime class) and runtime/src/impl_access.hpp
  <folders>    runtime/src/<folder>/, in the order runtime/check_layering.cmake writes down
               (its LAYERS, read from there: that file owns the order)
  types        every other public header of runtime/include (value types, options, network and
               execution declarations) and runtime/src/log.hpp: they include only the SDK and
               each other, so every layer may use them

An arrow from a lower layer to a higher one points up. An arrow made only by *_test.cpp files is
marked "(tests)". The last lines say whether the layers form a cycle (through sources alone, and
with the tests). Exit status 0 whatever it
finds: this measures; check_layering.cmake is the check that fails a build.
"""
import pathlib
import re
import sys
from collections import defaultdict

INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)
APPLICATION_FILES = {"src/runtime.cpp", "src/impl_access.hpp", "include/backplane/runtime.hpp"}


def folder_order(runtime):
    """The folders of runtime/src, lowest first, as check_layering.cmake lists them."""
    text = (runtime / "check_layering.cmake").read_text()
    found = re.search(r"^set\(LAYERS ([^)]*)\)", text, re.M)
    if not found:
        sys.exit("layer_arrows.py: no set(LAYERS ...) in runtime/check_layering.cmake")
    return found.group(1).split()


def layer_of_file(relative, folders):
    """The layer of a file given relative to runtime/ ("src/graph/graph.hpp")."""
    if relative in APPLICATION_FILES:
        return "application"
    parts = relative.split("/")
    if parts[0] == "probe":
        return "probe"
    if parts[0] == "include" or relative == "src/log.hpp":
        return "types"
    if parts[0] == "src" and len(parts) > 2 and parts[1] in folders:
        return parts[1]
    return None  # a file no layer holds (check_layering.cmake reports unknown folders)


def layer_of_include(name, folders, public):
    """The layer an #include names, or None for the SDK, the standard library and the like."""
    if name == "impl_access.hpp":
        return "application"
    if name == "log.hpp":
        return "types"
    if name.startswith("backplane/"):
        header = name[len("backplane/"):]
        return layer_of_file("include/backplane/" + header, folders) if header in public else None
    first = name.split("/")[0]
    return first if first in folders else None


def arrows(runtime, folders):
    """{(from, to): [(file, included), ...]} over every include between two different layers."""
    found = defaultdict(list)
    public = {path.name for path in (runtime / "include" / "backplane").glob("*.hpp")}
    for path in sorted(runtime.rglob("*")):
        relative = path.relative_to(runtime).as_posix()
        if path.suffix not in (".hpp", ".cpp", ".h") or relative.split("/")[0] not in ("src", "include", "probe"):
            continue
        source = layer_of_file(relative, folders)
        for name in INCLUDE.findall(path.read_text(errors="replace")):
            target = layer_of_include(name, folders, public)
            if source and target and target != source:
                found[(source, target)].append((relative, name))
    return found


def cycles(edges):
    """The groups of layers that reach each other (Tarjan's strongly connected components)."""
    graph = defaultdict(set)
    for source, target in edges:
        graph[source].add(target)
    index, low, stack, on_stack, groups = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for next_node in sorted(graph[node]):
            if next_node not in index:
                visit(next_node)
                low[node] = min(low[node], low[next_node])
            elif next_node in on_stack:
                low[node] = min(low[node], index[next_node])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def main():
    repo = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent)
    runtime = repo / "runtime"
    folders = folder_order(runtime)
    order = ["probe", "application"] + folders[::-1] + ["types"]  # top first
    rank = {layer: len(order) - position for position, layer in enumerate(order)}
    found = arrows(runtime, folders)
    up = 0
    up_sources = 0
    print("layers, top first: " + " > ".join(order))
    for (source, target), includes in sorted(found.items(), key=lambda item: (-rank[item[0][0]], -rank[item[0][1]])):
        upward = rank[target] > rank[source]
        tests_only = all(file.endswith("_test.cpp") for file, _ in includes)
        up += upward
        up_sources += upward and not tests_only
        files = sorted({file for file, _ in includes})
        print(f"{'UP  ' if upward else '    '}{source} -> {target}: {len(includes)} includes"
              f"{' (tests)' if tests_only else ''}")
        if upward:
            for file, name in includes:
                print(f"        {file}: {name}")
        elif len(files) <= 3:
            print("        " + ", ".join(files))
    print(f"upward arrows: {up} ({up_sources} from sources, {up - up_sources} from tests only)")
    sources = {edge: includes for edge, includes in found.items()
               if not all(file.endswith("_test.cpp") for file, _ in includes)}
    for label, edges in (("cycles among sources", sources), ("cycles with tests", found)):
        groups = cycles(edges)
        print(f"{label}: " + ("; ".join(" <-> ".join(group) for group in groups) if groups else "none"))


if __name__ == "__main__":
    main()
