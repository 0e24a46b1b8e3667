"""Listings generated from the engine's registries and shipped as data, so that
``verifier algorithms`` and ``verifier schema`` answer without importing sympy:
``verifier/cli/data/algorithms.json`` (:func:`verifier.cli.algorithms.listing`) and
``verifier/cli/data/schema.json`` (:func:`verifier.spec.schema.spec_schema`).

Regenerate both after changing a transformer, a distribution kind or the spec format::

    python -m verifier.cli.static

(``tests/cli/test_static.py`` fails while a file is out of date.)
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .common import STATIC_DATA as DATA
from .common import STATIC_NAMES as _NAMES
from .common import load_static

__all__ = ["DATA", "load_static", "generate", "text", "write_static"]


def generate(name: str) -> Any:
    """The listing ``name`` computed from the registries (imports the engine)."""
    if name == "algorithms":
        from .algorithms import listing

        return listing()
    if name == "schema":
        from ..spec.schema import spec_schema

        return spec_schema()
    raise ValueError(f"unknown listing {name!r}")


def text(value: Any) -> str:
    """The file text of a listing (stable: sorted keys, two-space indent)."""
    return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def write_static() -> list[Path]:
    """Regenerate every listing file; the paths written."""
    DATA.mkdir(exist_ok=True)
    out = []
    for name in _NAMES:
        path = DATA / f"{name}.json"
        path.write_text(text(generate(name)), encoding="utf-8")
        out.append(path)
    return out


if __name__ == "__main__":  # pragma: no cover - a maintenance command
    for p in write_static():
        print(f"wrote {p}")
