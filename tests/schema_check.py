"""Spec files written by the tests match ``verifier schema``.

:func:`check_written_specs` validates every spec document (a TOML or JSON file with
``mechanisms`` or ``claims``) under a directory against the JSON Schema of spec files.
A document the schema refuses fails only if the reader accepts it (tests write
malformed specs on purpose: the reader refuses those too), so the schema is checked
to admit every spec the reader admits — certificates included.
"""

from __future__ import annotations

import functools
import json
import tomllib
from pathlib import Path
from typing import Any

MAX_BYTES = 2_000_000


@functools.cache
def validator() -> Any:
    import jsonschema

    from verifier.spec.schema import spec_schema

    return jsonschema.Draft202012Validator(spec_schema())


def _document(path: Path) -> dict[str, Any] | None:
    try:
        if path.stat().st_size > MAX_BYTES or not path.is_file():
            return None
        text = path.read_text(encoding="utf-8")
        doc = json.loads(text) if path.suffix == ".json" else tomllib.loads(text)
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(doc, dict) or not ({"mechanisms", "claims"} & set(doc)):
        return None
    return doc


def check_written_specs(directory: Path) -> list[Path]:
    """Validate the spec files under ``directory``; return those validated.

    Raises ``AssertionError`` naming a file the reader accepts and the schema refuses.
    """
    from verifier.errors import VerifierError
    from verifier.spec import load_spec

    checked = []
    for path in sorted([*directory.rglob("*.toml"), *directory.rglob("*.json")]):
        doc = _document(path)
        if doc is None:
            continue
        errors = list(validator().iter_errors(doc))
        if errors:
            try:
                load_spec(path)
            except VerifierError:
                continue  # malformed on purpose: the reader refuses it too
            first = errors[0]
            where = ".".join(str(x) for x in first.absolute_path) or "(top level)"
            raise AssertionError(
                f"{path}: the reader accepts this spec but `verifier schema` refuses it at "
                f"{where}: {first.message}"
            )
        checked.append(path)
    return checked
