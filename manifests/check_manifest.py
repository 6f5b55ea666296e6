#!/usr/bin/env python3
"""Checks backend manifests the build wrote: used by ctest, not by the runtime.

For each manifest: valid against the JSON Schema (draft 2020-12, python3-jsonschema), named
<vendor>_<id>_backend.json, its library present in the same folder, and its sha256 (when
present, or required with --require-sha256) equal to the library's. Prints every problem
found and exits 1 if there was any, 0 otherwise.
"""
import argparse
import hashlib
import json
import pathlib
import sys

import jsonschema


def check(path, validator, args):
    problems = []
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        return [f"cannot read: {error}"]
    for error in sorted(validator.iter_errors(manifest), key=lambda e: list(e.absolute_path)):
        where = "/".join(str(part) for part in error.absolute_path) or "(top level)"
        problems.append(f"schema: {where}: {error.message}")
    if problems:
        return problems

    expected_name = f"{manifest['vendor']}_{manifest['id']}_backend.json"
    if path.name != expected_name:
        problems.append(f"file is named {path.name}, expected {expected_name}")
    if args.expect_id and manifest["id"] != args.expect_id:
        problems.append(f"id is {manifest['id']}, expected {args.expect_id}")
    if args.expect_version and manifest["version"] != args.expect_version:
        problems.append(f"version is {manifest['version']}, expected {args.expect_version}")

    library = path.parent / manifest["library"]
    if not library.is_file():
        problems.append(f"library {library} does not exist")
        return problems
    if "sha256" in manifest:
        actual = hashlib.sha256(library.read_bytes()).hexdigest()
        if manifest["sha256"].lower() != actual:
            problems.append(f"sha256 is {manifest['sha256']}, the library's is {actual}")
    elif args.require_sha256:
        problems.append("sha256 is missing")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--schema", required=True, type=pathlib.Path)
    parser.add_argument("--expect-id")
    parser.add_argument("--expect-version")
    parser.add_argument("--require-sha256", action="store_true")
    parser.add_argument("manifests", nargs="+", type=pathlib.Path)
    args = parser.parse_args()

    schema = json.loads(args.schema.read_text(encoding="utf-8"))
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    validator = validator_class(schema)

    failed = False
    for path in args.manifests:
        problems = check(path, validator, args)
        for problem in problems:
            print(f"{path}: {problem}")
        if not problems:
            print(f"{path}: ok")
        failed = failed or bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
