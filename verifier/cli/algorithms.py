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
from .common import Command, json_dump

__all__ = ["COMMAND", "configure", "run", "describe_param"]


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``verifier algorithms``."""
    p.add_argument(
        "names",
        nargs="*",
        metavar="NAME",
        help="transformers or distribution kinds to show (default: all)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON document on stdout")


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


def _inputs(t: Any) -> str:
    lo, hi = t.inputs
    if hi is None:
        return f"{lo} or more"
    return str(lo) if lo == hi else f"{lo} to {hi}"


def run(args: argparse.Namespace) -> int:
    """Run ``verifier algorithms``; return the exit code."""
    from ..algorithms import TRANSFORMERS
    from ..spec.distributions import DISTRIBUTIONS

    names = list(args.names)
    unknown = [n for n in names if n not in TRANSFORMERS and n not in DISTRIBUTIONS]
    if unknown:
        known = ", ".join([*sorted(TRANSFORMERS), *sorted(DISTRIBUTIONS)])
        raise InvalidParameter(
            f"unknown algorithm or distribution kind {unknown[0]!r} (known: {known})"
        )
    transformers = [TRANSFORMERS[n] for n in sorted(TRANSFORMERS) if not names or n in names]
    kinds = [DISTRIBUTIONS[n] for n in sorted(DISTRIBUTIONS) if not names or n in names]
    if args.json:
        json_dump(
            {
                "transformers": [
                    {
                        "name": t.name,
                        "summary": t.summary,
                        "source": t.source,
                        "module": t.build.__module__,
                        "inputs": {"min": t.inputs[0], "max": t.inputs[1]},
                        "params": [describe_param(p) for p in t.params],
                    }
                    for t in transformers
                ],
                "distributions": [
                    {
                        "name": k.name,
                        "summary": k.summary,
                        "source": k.source,
                        "params": [describe_param(p) for p in k.params],
                    }
                    for k in kinds
                ],
            }
        )
        return EXIT_OK
    blocks = []
    if transformers:
        blocks.append(f'Transformers ({len(transformers)}; spec files: algorithm = "NAME"):\n')
        for t in transformers:
            lines = [f"{t.name}  {t.summary}"]
            lines.append(f"  source:  {t.source}")
            lines.append(f"  module:  {t.build.__module__}")
            lines.append(f"  inputs:  {_inputs(t)}")
            lines.extend(_param_lines(t.params))
            blocks.append("\n".join(lines) + "\n")
    if kinds:
        blocks.append(f'Distribution kinds ({len(kinds)}; spec files: distribution = "NAME"):\n')
        for k in kinds:
            lines = [f"{k.name}  {k.summary}", f"  source:  {k.source}"]
            lines.extend(_param_lines(k.params))
            blocks.append("\n".join(lines) + "\n")
    print("\n".join(blocks).rstrip())
    return EXIT_OK


def _param_lines(params: Any) -> list[str]:
    if not params:
        return ["  params:  none"]
    lines = ["  params:"]
    width = max(len(p.name) for p in params)
    for p in params:
        if p.required:
            default = "required"
        elif p.default is None:
            default = "optional"
        else:
            default = f"default {_default_text(p.default)!r}"
        lines.append(f"    {p.name.ljust(width)}  ({default}) {p.doc}".rstrip())
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
