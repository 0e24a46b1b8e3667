"""``verifier schema``: the JSON Schema of spec files
(:func:`verifier.spec.schema.spec_schema`), or spec files validated against it.

::

    verifier schema [--validate FILE ...]
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from pathlib import Path
from typing import Any

from ..errors import (
    EXIT_BAD_INPUT,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_OK,
    MissingDependency,
    SpecError,
)
from .common import Command, add_json_option, json_dump, load_static, one_line

__all__ = ["COMMAND", "configure", "run"]


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``verifier schema``."""
    p.add_argument(
        "--validate",
        nargs="+",
        metavar="FILE",
        default=None,
        help="validate these spec files (.toml, .json) against the schema (needs jsonschema)",
    )
    add_json_option(
        p, "with --validate: print one JSON document (the schema itself is always JSON)"
    )


def run(args: argparse.Namespace) -> int:
    """Run ``verifier schema``; return the exit code."""
    schema = load_static("schema")  # generated from spec_schema(): no engine import
    if not args.validate:
        json_dump(schema)
        return EXIT_OK
    from ..spec.read import read_spec_text

    try:
        import jsonschema
    except ImportError:
        raise MissingDependency(
            "--validate needs the jsonschema package: pip install jsonschema"
        ) from None
    validator = jsonschema.Draft202012Validator(schema)
    results: list[dict[str, Any]] = []
    for name in args.validate:
        path = Path(name)
        # a regular file within the size limit only, as verifier check reads it
        text = read_spec_text(path)
        fmt = "JSON" if path.suffix.lower() == ".json" else "TOML"
        try:
            doc = json.loads(text) if fmt == "JSON" else tomllib.loads(text)
            errors = sorted(
                validator.iter_errors(doc), key=lambda e: [str(x) for x in e.absolute_path]
            )
        except ValueError as err:
            raise SpecError(f"{path}: not valid {fmt}: {err}") from None
        except RecursionError:
            raise SpecError(f"{path}: not valid {fmt}: nested too deeply") from None
        results.append(
            {
                "file": str(path),
                "valid": not errors,
                "errors": [
                    {"path": ".".join(str(x) for x in e.absolute_path), "message": e.message}
                    for e in errors
                ],
            }
        )
    code = EXIT_OK if all(r["valid"] for r in results) else EXIT_BAD_INPUT
    if args.json:
        json_dump({"files": results, "exit_code": code})
    else:
        for r in results:
            print(f"{r['file']}: {'valid' if r['valid'] else 'INVALID'}")
            for e in r["errors"]:
                print(f"  {e['path'] or '(top level)'}: {e['message']}")
    invalid = [r for r in results if not r["valid"]]
    if invalid:
        which = (
            f"{one_line(invalid[0]['file'])} does"
            if len(results) == 1
            else f"{len(invalid)} of {len(results)} files do"
        )
        if args.json:  # the problems are in the document: the first one named here
            first = invalid[0]["errors"][0]
            more = sum(len(r["errors"]) for r in invalid) - 1
            where = f"at {first['path'] or '(top level)'}"
            if len(results) > 1:
                where = f"(first: {one_line(invalid[0]['file'])} {where}"
            detail = f"{where}: {one_line(first['message'])}"
            detail += (")" if len(results) > 1 else "") + (f" (and {more} more)" if more else "")
        else:  # listed above, on stdout: not repeated
            problems = sum(len(r["errors"]) for r in invalid)
            detail = f"({problems} problem(s), listed above)"
        print(f"error: {which} not match the spec schema {detail}", file=sys.stderr)
    return code


COMMAND = Command(
    "schema",
    "print the JSON Schema of spec files, or validate spec files against it",
    configure,
    run,
    description=(
        "Print the JSON Schema (draft 2020-12) of spec files, built from the reader's own\n"
        "tables (keys, graph kinds, claim kinds, transformers, distribution kinds).\n"
        "--validate FILE... checks the shape of spec files against it (the reader\n"
        "checks the rest: verifier check)."
    ),
    exit_codes={
        EXIT_OK: "the schema is printed (--validate: every file matches it)",
        EXIT_BAD_INPUT: "bad input (--validate: a file does not match the schema, or cannot be "
        "read); output that could not be delivered (a reader that went away, a full disk, "
        "a closed standard output)",
    },
    codes=(EXIT_OK, EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_INTERRUPTED),
)
