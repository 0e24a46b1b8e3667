"""What every subcommand shares: the :class:`Command` record, the exit codes and their
meanings (rendered into each ``--help`` epilog), and output helpers (one-line
messages, the JSON document, safe file names, exact numbers with a decimal value).

This module imports nothing else of :mod:`verifier.cli`, so the subcommand modules
can import it and :mod:`verifier.cli.app` can import them without a cycle.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from ..arithmetic import format_number
from ..errors import (
    EXIT_BAD_INPUT,
    EXIT_CONSTRUCTION_FAILED,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_UNDECIDED,
    EXIT_VIOLATED,
    VerifierError,
)

__all__ = [
    "Command",
    "EXIT_CODES",
    "exit_codes_epilog",
    "one_line",
    "json_dump",
    "safe_filename",
    "number_text",
    "version",
]

#: The meaning of every exit code; a :class:`Command` overrides some of them in its
#: ``exit_codes`` (the README's "Exit codes" table lists the same texts).
EXIT_CODES: dict[int, str] = {
    EXIT_OK: "every claim holds",
    EXIT_VIOLATED: "some claim is violated",
    EXIT_BAD_INPUT: "bad input: one line 'error: <message>' on stderr, never a traceback",
    EXIT_UNDECIDED: "undecided: an exact decision could not be completed within the precision "
    "limit (and nothing is violated)",
    EXIT_INTERNAL: "internal error, a bug: one line on stderr (--debug shows the traceback)",
    EXIT_CONSTRUCTION_FAILED: "a construction the theory says exists could not be completed "
    "(e.g. the extension of Talwar 2025, Proposition 2, failed its own verification)",
    EXIT_INTERRUPTED: "interrupted",
}


@dataclass(frozen=True)
class Command:
    """A subcommand: its name, one-line help, parser set-up and runner.

    ``run(args)`` returns the exit code; it may raise a
    :class:`~verifier.errors.VerifierError`, whose ``exit_code`` the command line
    then exits with.  ``exit_codes`` gives the meanings that differ from
    :data:`EXIT_CODES` for this subcommand.
    """

    name: str
    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]
    description: str = ""
    exit_codes: Mapping[int, str] = field(default_factory=dict)

    def exit_code_meanings(self) -> dict[int, str]:
        """Every exit code with its meaning for this subcommand."""
        return {code: self.exit_codes.get(code, text) for code, text in EXIT_CODES.items()}


def exit_codes_epilog(meanings: Mapping[int, str], width: int = 79) -> str:
    """The ``exit codes:`` block of a ``--help`` text: one code per paragraph, its
    meaning wrapped to ``width`` columns under a hanging indent.

    >>> print(exit_codes_epilog({0: "fine", 130: "interrupted"}))
    exit codes:
      0    fine
      130  interrupted
    """
    col = max(len(str(code)) for code in meanings)
    lines = [
        textwrap.fill(
            text,
            width,
            initial_indent=f"  {str(code).ljust(col)}  ",
            subsequent_indent=" " * (col + 4),
        )
        for code, text in meanings.items()
    ]
    return "exit codes:\n" + "\n".join(lines)


def version() -> str:
    """The installed version of the ``verifier`` distribution."""
    try:
        from importlib.metadata import version as dist_version

        return dist_version("verifier")
    except Exception:  # pragma: no cover - not installed as a distribution
        return "unknown"


def one_line(text: str) -> str:
    """The first line of a message (parse errors add the text with a caret below)."""
    lines = str(text).strip().splitlines() or [""]
    first = " ".join(lines[0].split())
    return first[:-1] if first.endswith(":") and len(lines) > 1 else first


def json_dump(doc: Any) -> None:
    """Print ``doc`` as one JSON document on stdout (non-JSON values as ``str``)."""
    sys.stdout.write(json.dumps(doc, indent=2, ensure_ascii=False, default=str) + "\n")


def safe_filename(text: str) -> str:
    """``text`` with every run of characters outside ``[A-Za-z0-9_.-]`` replaced by
    ``_`` (``"claim"`` if nothing is left).

    >>> safe_filename("ghazi2025.thm11 / no factor 2")
    'ghazi2025.thm11_no_factor_2'
    """
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("._") or "claim"


def number_text(x: Any) -> str:
    """Exact text and, for a constant that is not an integer, a decimal value.

    >>> number_text(sp.Rational(1, 3))
    '1/3 ≈ 0.3333333333'
    >>> number_text(sp.oo), number_text(None), number_text(sp.Integer(7))
    ('inf', '-', '7')
    """
    if x is None:
        return "-"
    if x is sp.oo:
        return "inf"
    if x is -sp.oo:
        return "-inf"
    if isinstance(x, sp.Basic):
        text = str(x)
        if len(text) > 300:
            text = text[:280] + " ... (exact value in --json)"
        if x.free_symbols or x.is_Integer:
            return text
        try:
            return f"{text} {format_number(x, digits=10, max_len=0)}"  # "<exact> ≈ <decimal>"
        except VerifierError:
            return text
    return str(x)
