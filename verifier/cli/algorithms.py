"""``verifier algorithms``: every registered transformer with its parameters,
defaults and source (:data:`verifier.algorithms.TRANSFORMERS`), and the built-in
distribution kinds of spec files (:data:`verifier.spec.distributions.DISTRIBUTIONS`).

::

    verifier algorithms [NAME ...] [--json]
"""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_OK, InvalidParameter
from .common import Command, add_json_option, add_names_argument, json_dump, load_static

__all__ = ["COMMAND", "configure", "run", "describe_param", "listing"]


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``verifier algorithms``."""
    add_names_argument(p, "transformers or distribution kinds to show (default: all)")
    add_json_option(p)


def describe_param(p: Any) -> dict[str, Any]:
    """A parameter of a transformer or distribution kind as a JSON record."""
    return {
        "name": p.name,
        "required": p.required,
        "default": None if p.required else _default_text(p.default),
        "doc": p.doc,
    }


def _default_text(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, str)):
        return value
    return str(value)


def _inputs(inputs: dict[str, Any]) -> str:
    lo, hi = inputs["min"], inputs["max"]
    if hi is None:
        return f"{lo} or more"
    return str(lo) if lo == hi else f"{lo} to {hi}"


def listing() -> dict[str, Any]:
    """Every registered transformer and distribution kind as JSON records (what
    ``verifier algorithms --json`` prints; imports the engine)."""
    from ..algorithms import TRANSFORMERS
    from ..spec.distributions import DISTRIBUTIONS

    return {
        "transformers": [
            {
                "name": t.name,
                "summary": t.summary,
                "source": t.source,
                "module": t.build.__module__,
                "inputs": {"min": t.inputs[0], "max": t.inputs[1]},
                "params": [describe_param(p) for p in t.params],
            }
            for t in (TRANSFORMERS[n] for n in sorted(TRANSFORMERS))
        ],
        "distributions": [
            {
                "name": k.name,
                "summary": k.summary,
                "source": k.source,
                "params": [describe_param(p) for p in k.params],
            }
            for k in (DISTRIBUTIONS[n] for n in sorted(DISTRIBUTIONS))
        ],
    }


def run(args: argparse.Namespace) -> int:
    """Run ``verifier algorithms``; return the exit code.  The listing is read from
    :data:`~verifier.cli.static.ALGORITHMS_FILE`, generated from the registries (a test
    keeps it current), so the command answers without importing the engine."""
    full = load_static("algorithms")
    names = list(args.names)
    known_t = [t["name"] for t in full["transformers"]]
    known_k = [k["name"] for k in full["distributions"]]
    unknown = [n for n in names if n not in known_t and n not in known_k]
    if unknown:
        known = ", ".join([*known_t, *known_k])
        raise InvalidParameter(
            f"unknown algorithm or distribution kind {unknown[0]!r} (known: {known})"
        )
    transformers = [t for t in full["transformers"] if not names or t["name"] in names]
    kinds = [k for k in full["distributions"] if not names or k["name"] in names]
    if args.json:
        json_dump({"transformers": transformers, "distributions": kinds})
        return EXIT_OK
    blocks = []
    if transformers:
        blocks.append(f'Transformers ({len(transformers)}; spec files: algorithm = "NAME"):\n')
        for t in transformers:
            lines = [f"{t['name']}  {t['summary']}"]
            lines.append(f"  source:  {t['source']}")
            lines.append(f"  module:  {t['module']}")
            lines.append(f"  inputs:  {_inputs(t['inputs'])}")
            lines.extend(_param_lines(t["params"]))
            blocks.append("\n".join(lines) + "\n")
    if kinds:
        blocks.append(f'Distribution kinds ({len(kinds)}; spec files: distribution = "NAME"):\n')
        for k in kinds:
            lines = [f"{k['name']}  {k['summary']}", f"  source:  {k['source']}"]
            lines.extend(_param_lines(k["params"]))
            blocks.append("\n".join(lines) + "\n")
    print("\n".join(blocks).rstrip())
    return EXIT_OK


def _param_lines(params: list[dict[str, Any]]) -> list[str]:
    if not params:
        return ["  params:  none"]
    lines = ["  params:"]
    width = max(len(p["name"]) for p in params)
    for p in params:
        if p["required"]:
            default = "required"
        elif p["default"] is None:
            default = "optional"
        else:
            default = f"default {p['default']!r}"
        lines.append(f"    {p['name'].ljust(width)}  ({default}) {p['doc']}".rstrip())
    return lines


COMMAND = Command(
    "algorithms",
    "list the registered transformers and distribution kinds with their parameters",
    configure,
    run,
    description=(
        "List every transformer a spec file can name as 'algorithm' and every built-in\n"
        "'distribution' kind: summary, source (paper and module), inputs, and each\n"
        "parameter with its default."
    ),
    exit_codes={EXIT_OK: "the listing is printed"},
    codes=(EXIT_OK, EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_INTERRUPTED),
)
