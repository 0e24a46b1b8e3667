"""What every subcommand shares: the :class:`Command` record, the exit codes and their
meanings (rendered into each ``--help`` epilog), output helpers (terminal-safe text,
one-line messages, the JSON document, safe file names, exact numbers with a decimal
value), option types that validate a value and name the option when it is wrong, and
the checks of output paths made before any work starts.

Terminal safety: text that comes from input (claim ids, titles, statements, dataset
and output names, error messages quoting them) may hold control characters — an ANSI
escape sequence can clear the terminal or draw a fake verdict line.  Every
human-readable line goes through :func:`printable` (:func:`say` prints with it,
:func:`one_line` applies it); :func:`json_dump` escapes the characters JSON leaves
raw.

This module imports nothing else of :mod:`verifier.cli`, so the subcommand modules
can import it and :mod:`verifier.cli.app` can import them without a cycle.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from ..errors import (
    EXIT_BAD_INPUT,
    EXIT_CONSTRUCTION_FAILED,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_UNDECIDED,
    EXIT_VIOLATED,
    InvalidParameter,
    VerifierError,
)

__all__ = [
    "Command",
    "EXIT_CODES",
    "exit_codes_epilog",
    "printable",
    "say",
    "one_line",
    "json_dump",
    "safe_filename",
    "number_text",
    "version",
    "int_option",
    "float_option",
    "MAX_WORKERS",
    "output_file",
    "output_directory",
]

#: Largest ``--workers`` accepted (local processes; a larger pool only adds overhead on
#: any machine this runs on, and each worker holds its own copy of the claim).
MAX_WORKERS = 256

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


#: Characters never written raw to a terminal: C0 controls but tab and newline, DEL,
#: C1 controls (``\x9b`` is a one-byte CSI on some terminals), and the invisible
#: direction marks and overrides that reorder what is shown ("Trojan source").
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
#: The same, for JSON text (which escapes C0 controls itself).
_UNSAFE_JSON = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _escape(m: re.Match[str]) -> str:
    c = ord(m.group())
    return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"


def printable(text: object, *, newlines: bool = True) -> str:
    r"""``text`` safe to write to a terminal: every control character (but tab, and
    newline unless ``newlines`` is false) and every bidirectional override is written
    as a visible escape such as ``\x1b``.

    >>> printable("claim \x1b[2J\u202eok")
    'claim \\x1b[2J\\u202eok'
    >>> printable("two\nlines", newlines=False)
    'two\\x0alines'
    """
    s = _UNSAFE.sub(_escape, str(text))
    return s if newlines else s.replace("\n", "\\x0a")


def add_progress_option(p: argparse.ArgumentParser) -> None:
    """``--no-progress``: the option of every command whose work can take long."""
    p.add_argument(
        "--no-progress",
        action="store_true",
        help="draw no progress bar (none is drawn anyway when standard error is not a "
        "terminal or with --json)",
    )


def progress_wanted(args: argparse.Namespace) -> bool:
    """Whether to draw progress bars: standard error is a terminal, the output is not
    JSON, and ``--no-progress`` was not given."""
    from ..terminal import is_terminal

    return (
        is_terminal(sys.stderr)
        and not getattr(args, "json", False)
        and not getattr(args, "no_progress", False)
    )


def say(*parts: object, file: TextIO | None = None) -> None:
    """``print`` for human-readable output: the text through :func:`printable`."""
    print(printable(" ".join(str(p) for p in parts)), file=file)


def one_line(text: str) -> str:
    """The first line of a message (parse errors add the text with a caret below),
    terminal-safe (:func:`printable`)."""
    lines = str(text).strip().splitlines() or [""]
    first = " ".join(lines[0].split())
    first = first[:-1] if first.endswith(":") and len(lines) > 1 else first
    return printable(first)


def json_dump(doc: Any) -> None:
    """Print ``doc`` as one JSON document on stdout, in one write (non-JSON values as
    ``str``; the control characters JSON leaves raw are escaped as ``\\uXXXX``)."""
    text = json.dumps(doc, indent=2, ensure_ascii=False, default=str)
    text = _UNSAFE_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text) + "\n"
    # one write of the whole document: a process killed while it runs leaves an
    # empty output (`verifier casestudies --json > file`), never half a document
    sys.stdout.flush()
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:
        sys.stdout.write(text)
    else:
        buffer.write(text.encode(sys.stdout.encoding or "utf-8", errors="backslashreplace"))
    sys.stdout.flush()


# ---------------------------------------------------------------------------
# option types: each names the option in its message (argparse adds "argument X:")
# ---------------------------------------------------------------------------


def int_option(lo: int | None = None, hi: int | None = None) -> Callable[[str], int]:
    """An ``argparse`` type: an integer in ``[lo, hi]`` (either end optional).

    >>> int_option(1, 4)("3")
    3
    >>> int_option(1, 4)("9")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be an integer between 1 and 4, got '9'
    """

    def parse(text: str) -> int:
        try:
            value = int(text.strip(), 10) if len(text) <= 40 else None
        except ValueError:
            value = None
        if value is None or (lo is not None and value < lo) or (hi is not None and value > hi):
            raise argparse.ArgumentTypeError(
                f"must be {_range('an integer', lo, hi)}, got {text!r}"
            )
        return value

    parse.__name__ = "integer"
    return parse


def float_option(lo: float | None = None, hi: float | None = None) -> Callable[[str], float]:
    """An ``argparse`` type: a finite number in ``[lo, hi]`` (``nan`` and ``inf`` are
    refused).

    >>> float_option(0)("2.5")
    2.5
    >>> float_option(0)("nan")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be a finite number >= 0, got 'nan'
    """

    def parse(text: str) -> float:
        try:
            value = float(text) if len(text) <= 40 else math.nan
        except ValueError:
            value = math.nan
        if (
            not math.isfinite(value)
            or (lo is not None and value < lo)
            or (hi is not None and value > hi)
        ):
            raise argparse.ArgumentTypeError(
                f"must be {_range('a finite number', lo, hi)}, got {text!r}"
            )
        return value

    parse.__name__ = "number"
    return parse


def _range(what: str, lo: float | None, hi: float | None) -> str:
    def show(x: float) -> str:
        return str(x) if isinstance(x, int) else f"{x:g}"

    if lo is not None and hi is not None:
        return f"{what} between {show(lo)} and {show(hi)}"
    if lo is not None:
        return f"{what} >= {show(lo)}"
    if hi is not None:
        return f"{what} <= {show(hi)}"
    return what


# ---------------------------------------------------------------------------
# output paths, checked before the work starts
# ---------------------------------------------------------------------------


def output_file(raw: str | os.PathLike[str], option: str) -> Path:
    """Check that ``raw`` can be written as a file (for ``option``, e.g. ``--out``)
    before any work starts: not a directory or a special file, an existing directory
    above it that is writable, and writable itself if it exists.  Raises
    :class:`~verifier.errors.InvalidParameter` naming the option and the problem.
    """
    p = Path(raw)
    where = f"{option} {printable(str(raw), newlines=False)}"
    if str(raw) == "" or p.name in ("", ".", ".."):
        raise InvalidParameter(f"{where}: not a file name")
    try:
        if p.exists():
            if p.is_dir():
                raise InvalidParameter(f"{where}: is a directory, not a file")
            if not p.is_file():
                raise InvalidParameter(f"{where}: is not a regular file")
            if not os.access(p, os.W_OK):
                raise InvalidParameter(f"{where}: the file is not writable")
        parent = p.parent if str(p.parent) else Path(".")
        if not parent.exists():
            raise InvalidParameter(f"{where}: the directory {parent} does not exist")
        if not parent.is_dir():
            raise InvalidParameter(f"{where}: {parent} is not a directory")
        if not os.access(parent, os.W_OK | os.X_OK):
            raise InvalidParameter(f"{where}: the directory {parent} is not writable")
    except OSError as err:  # e.g. a name too long, a loop of symbolic links
        raise InvalidParameter(f"{where}: {err.strerror or err}") from None
    return p


def output_directory(raw: str | os.PathLike[str], option: str) -> Path:
    """The directory ``raw`` for ``option`` (e.g. ``--certificates``), created and
    checked writable before any work starts; raises
    :class:`~verifier.errors.InvalidParameter` naming the option and the problem."""
    d = Path(raw)
    where = f"{option} {printable(str(raw), newlines=False)}"
    try:
        d.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise InvalidParameter(
            f"{where}: cannot create the directory: {err.strerror or err}"
        ) from None
    if not os.access(d, os.W_OK | os.X_OK):
        raise InvalidParameter(f"{where}: the directory is not writable")
    return d


def safe_filename(text: str) -> str:
    """``text`` with every run of characters outside ``[A-Za-z0-9_.-]`` replaced by
    ``_`` (``"claim"`` if nothing is left).

    >>> safe_filename("ghazi2025.thm11 / no factor 2")
    'ghazi2025.thm11_no_factor_2'
    """
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("._") or "claim"


def number_text(x: Any) -> str:
    """Exact text and, for a constant that is not an integer, a decimal value.

    >>> import sympy as sp
    >>> number_text(sp.Rational(1, 3))
    '1/3 ≈ 0.3333333333'
    >>> number_text(sp.oo), number_text(None), number_text(sp.Integer(7))
    ('inf', '-', '7')
    """
    if x is None:
        return "-"
    import sympy as sp

    from ..arithmetic import format_number

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
