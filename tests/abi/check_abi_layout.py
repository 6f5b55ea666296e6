#!/usr/bin/env python3
"""The ABI baseline check of the plugin boundary (issue 13).

Compares the boundary of backend_c_api.h as it is now with the committed baseline (the frozen
2.0 header in tests/abi/frozen/), each read by abidw from abi_layout_probe.c compiled against it:

  check_abi_layout.py BASELINE.abi CURRENT.abi BASELINE_HEADER CURRENT_HEADER

The rules of a minor version (docs/backend-authors.md): every struct of the baseline still
exists under its name, keeps each of its fields at the same offset with the same type, and may
only grow at the end (array elements not at all); every function-pointer type keeps its signature; every #define of the
baseline keeps its value (only BP_BACKEND_API_MINOR may grow). Prints each violation and exits 1;
prints a summary and exits 0 when the current boundary is compatible.
"""
import re
import sys
import xml.etree.ElementTree as ET

# Structs that travel as array elements: an array is stepped through by sizeof, so these never
# grow at all (backend_c_api.h, "Growth").
ARRAY_ELEMENTS = {"BpString", "BpTensorInfo", "BpProducer", "BpLayerIndices", "BpSubstitution", "BpOption",
                  "BpOptionSpec", "BpDeviceInfo", "BpNamedFlag"}


class Corpus:
    """The types of one abidw file, with their ids resolved to canonical spellings."""

    def __init__(self, path):
        root = ET.parse(path).getroot()
        self.by_id = {}
        for element in root.iter():
            type_id = element.get("id")
            if type_id and type_id.startswith("type-id-"):
                self.by_id[type_id] = element
        self.structs = {}
        for element in self.by_id.values():
            if element.tag == "class-decl" and element.get("name") and element.get("is-declaration-only") != "yes":
                # A struct may appear more than once (per translation unit); keep the first.
                self.structs.setdefault(element.get("name"), element)
        self.typedefs = {e.get("name"): e for e in self.by_id.values() if e.tag == "typedef-decl"}

    def spell(self, type_id, depth=0):
        if depth > 40:
            return "..."
        element = self.by_id.get(type_id)
        if element is None:
            return type_id if type_id != "void" else "void"
        tag = element.tag
        if tag in ("type-decl", "class-decl", "enum-decl", "typedef-decl", "union-decl"):
            return element.get("name") or "<anonymous %s>" % tag
        if tag == "pointer-type-def":
            return self.spell(element.get("type-id"), depth + 1) + "*"
        if tag == "qualified-type-def":
            qualifiers = [q for q in ("const", "volatile") if element.get(q) == "yes"]
            return " ".join(qualifiers + [self.spell(element.get("type-id"), depth + 1)])
        if tag == "array-type-def":
            sizes = "".join("[%s]" % (s.get("length") or "") for s in element.findall("subrange"))
            return self.spell(element.get("type-id"), depth + 1) + sizes
        if tag == "function-type":
            parameters = [self.spell(p.get("type-id"), depth + 1) for p in element.findall("parameter")]
            returned = element.find("return")
            result = self.spell(returned.get("type-id"), depth + 1) if returned is not None else "void"
            return "%s(%s)" % (result, ", ".join(parameters))
        return "<%s>" % tag

    def members(self, struct):
        """(name, offset in bits, type spelling) of each field, in order."""
        fields = []
        for member in struct.findall("data-member"):
            variable = member.find("var-decl")
            fields.append((variable.get("name"), int(member.get("layout-offset-in-bits")),
                           self.spell(variable.get("type-id"))))
        return fields


def defines(header):
    values = {}
    with open(header, encoding="utf-8") as text:
        for line in text:
            match = re.match(r"\s*#define\s+((?:BP|BACKPLANE)_\w+)\s+(\S.*?)\s*$", line)
            if match and "(" not in match.group(1):
                values[match.group(1)] = match.group(2)
    return values


def main(argv):
    if len(argv) != 5:
        print(__doc__)
        return 2
    baseline, current = Corpus(argv[1]), Corpus(argv[2])
    problems = []
    for name, old in sorted(baseline.structs.items()):
        new = current.structs.get(name)
        if new is None:
            problems.append("struct %s of the baseline is gone" % name)
            continue
        old_size, new_size = int(old.get("size-in-bits")), int(new.get("size-in-bits"))
        if new_size < old_size:
            problems.append("struct %s shrank from %d to %d bytes" % (name, old_size // 8, new_size // 8))
        elif new_size != old_size and name in ARRAY_ELEMENTS:
            problems.append("struct %s travels in arrays and must keep its %d bytes, but has %d" %
                            (name, old_size // 8, new_size // 8))
        old_fields, new_fields = baseline.members(old), current.members(new)
        for index, (field, offset, spelling) in enumerate(old_fields):
            if index >= len(new_fields):
                problems.append("%s.%s (offset %d) was removed" % (name, field, offset // 8))
                continue
            new_field, new_offset, new_spelling = new_fields[index]
            if (new_field, new_offset) != (field, offset):
                problems.append("%s: field %d was %s at offset %d, is now %s at offset %d" %
                                (name, index, field, offset // 8, new_field, new_offset // 8))
            elif new_spelling != spelling:
                problems.append("%s.%s changed type from %s to %s" % (name, field, spelling, new_spelling))
        for field, offset, _ in new_fields[len(old_fields):]:
            if offset < old_size:
                problems.append("%s.%s was added inside the baseline's %d bytes (offset %d): append only at the end"
                                % (name, field, old_size // 8, offset // 8))
    for name, old in sorted(baseline.typedefs.items()):
        new = current.typedefs.get(name)
        if new is None:
            problems.append("typedef %s of the baseline is gone" % name)
        elif current.spell(new.get("type-id")) != baseline.spell(old.get("type-id")):
            problems.append("typedef %s changed from %s to %s" %
                            (name, baseline.spell(old.get("type-id")), current.spell(new.get("type-id"))))
    old_defines, new_defines = defines(argv[3]), defines(argv[4])
    for name, value in sorted(old_defines.items()):
        if name not in new_defines:
            problems.append("#define %s of the baseline is gone" % name)
        elif name == "BP_BACKEND_API_MINOR":
            if int(new_defines[name].rstrip("uU")) < int(value.rstrip("uU")):
                problems.append("BP_BACKEND_API_MINOR went down from %s to %s" % (value, new_defines[name]))
        elif new_defines[name] != value:
            problems.append("#define %s changed from %s to %s" % (name, value, new_defines[name]))
    if old_defines.get("BP_BACKEND_API_MAJOR") != new_defines.get("BP_BACKEND_API_MAJOR"):
        problems.append("the major version changed: make a new baseline for the new major instead")
    if not baseline.structs:
        problems.append("the baseline has no structs: abidw read no debug information")
    for problem in problems:
        print("abi: " + problem)
    if problems:
        print("abi: %d incompatible change(s) against the 2.0 baseline" % len(problems))
        return 1
    print("abi: compatible with the baseline: %d structs, %d typedefs, %d defines checked" %
          (len(baseline.structs), len(baseline.typedefs), len(old_defines)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
