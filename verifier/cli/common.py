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
import contextlib
import errno
import functools
import json
import math
import os
import re
import sys
import tempfile
import textwrap
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from .. import errors
from ..errors import InvalidParameter, VerifierError
from ..runtime.executors import MAX_WORKERS, WORKERS_CEILING

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
    "add_names_argument",
    "add_json_option",
    "add_runner_options",
    "int_option",
    "jobs_option",
    "AUTO",
    "float_option",
    "MAX_WORKERS",
    "WORKERS_CEILING",
    "add_max_workers_option",
    "output_file",
    "output_directory",
    "OutputLost",
    "OutputGuard",
    "guarded_streams",
    "exact_text",
]


def add_names_argument(p: argparse.ArgumentParser, help: str) -> None:
    """``NAME ...``: the positional names (any number) a command is restricted to."""
    p.add_argument("names", nargs="*", metavar="NAME", help=help)


def add_json_option(
    p: argparse.ArgumentParser, help: str = "print one JSON document on stdout"
) -> None:
    """``--json``: the command's answer as one JSON document on stdout."""
    p.add_argument("--json", action="store_true", help=help)


def add_runner_options(
    p: argparse.ArgumentParser,
    *flags: str,
    metavar: str,
    help: str,
    dask: str,
    auto: bool = False,
) -> None:
    """Where a command's work runs: ``flags`` (e.g. ``-j``, ``--jobs``) the number of
    local worker processes (default 1: in this process; with ``auto`` the option also
    takes :data:`AUTO` and defaults to ``None``, which the command resolves), ``--dask
    WHERE`` a dask.distributed cluster, and :func:`add_max_workers_option`; ``help``
    and ``dask`` are their help texts."""
    kind = jobs_option(WORKERS_CEILING) if auto else int_option(1, WORKERS_CEILING)
    p.add_argument(*flags, type=kind, default=None if auto else 1, metavar=metavar, help=help)
    p.add_argument("--dask", metavar="WHERE", default=None, help=dask)
    add_max_workers_option(p)


def add_max_workers_option(p: argparse.ArgumentParser) -> None:
    """``--max-workers N``: raise the cap on local worker processes (``--workers``,
    ``-j``, ``--dask local:N``; default :data:`~verifier.runtime.executors.MAX_WORKERS`)."""
    p.add_argument(
        "--max-workers",
        type=int_option(1, WORKERS_CEILING),
        default=MAX_WORKERS,
        metavar="N",
        help=f"the most local worker processes accepted (--workers, -j, --dask local:N; "
        f"default {MAX_WORKERS}, at most {WORKERS_CEILING})",
    )


#: The meaning of every exit code; a :class:`Command` overrides some of them in its
#: ``exit_codes`` (the README's "Exit codes" table lists the same texts).
EXIT_CODES: dict[int, str] = {
    errors.EXIT_OK: "every claim holds",
    errors.EXIT_VIOLATED: "some claim is violated",
    errors.EXIT_BAD_INPUT: "bad input: one line 'error: <message>' on stderr, never a traceback; "
    "also output that could not be delivered (a reader that went away, a full disk, a "
    "closed standard output), whatever the verdict",
    errors.EXIT_UNDECIDED: "undecided: an exact decision could not be completed within the precision "
    "limit (and nothing is violated)",
    errors.EXIT_INTERNAL: "internal error, a bug: one line on stderr (--debug shows the traceback)",
    errors.EXIT_CONSTRUCTION_FAILED: "a construction the theory says exists could not be completed "
    "(e.g. the extension of Talwar 2025, Proposition 2, failed its own verification)",
    errors.EXIT_INTERRUPTED: "interrupted",
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
    #: The exit codes this subcommand can return (``None``: all of :data:`EXIT_CODES`);
    #: its ``--help`` lists these only.
    codes: tuple[int, ...] | None = None

    def exit_code_meanings(self) -> dict[int, str]:
        """Every exit code this subcommand can return, with its meaning for it."""
        return {
            code: self.exit_codes.get(code, text)
            for code, text in EXIT_CODES.items()
            if self.codes is None or code in self.codes
        }


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


@functools.cache
def version() -> str:
    """The installed version of the ``verifier`` distribution (read once per process:
    every command line builds ``--version``, and reading the metadata is a scan of the
    installed distributions)."""
    try:
        from importlib.metadata import version as dist_version

        return dist_version("verifier")
    except Exception:  # pragma: no cover - not installed as a distribution
        return "unknown"


#: Characters never written raw to a terminal: C0 controls but tab and newline, DEL,
#: C1 controls (``\x9b`` is a one-byte CSI on some terminals), the invisible
#: direction marks and overrides that reorder what is shown ("Trojan source"), and
#: the other invisible format characters (Unicode category Cf: zero-width space,
#: joiners, word joiner, soft hyphen, byte-order mark, tags, ...) and fillers, which
#: would make two different labels (``0`` and ``0`` + a zero-width joiner) print the
#: same; and lone surrogates, which no terminal encoding can write.
_INVISIBLE = (
    "\u00ad\u034f\u0600-\u0605\u061c\u06dd\u070f\u08e2\u115f\u1160\u17b4\u17b5\u180b-\u180f"
    "\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb"
    "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0000-\U000e0fff"
    "\ud800-\udfff"  # lone surrogates: undecodable bytes of a file name (surrogateescape)
)
_UNSAFE = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{_INVISIBLE}]")
#: The same, for JSON text (which escapes C0 controls itself).
_UNSAFE_JSON = re.compile(f"[\x7f-\x9f{_INVISIBLE}]")


def _escape(m: re.Match[str]) -> str:
    c = ord(m.group())
    if c < 0x100:
        return f"\\x{c:02x}"
    return f"\\u{c:04x}" if c < 0x10000 else f"\\U{c:08x}"


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


def progress_wanted(args: argparse.Namespace) -> bool | str:
    """How to show progress on standard error: ``"bar"`` on a terminal, ``"plain"``
    (a line every few seconds) for a log or a pipe, ``False`` with ``--json`` or
    ``--no-progress``."""
    from ..runtime.terminal import is_terminal

    if getattr(args, "json", False) or getattr(args, "no_progress", False):
        return False
    return "bar" if is_terminal(sys.stderr) else "plain"


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


def _json_escape(m: re.Match[str]) -> str:
    c = ord(m.group())
    if c < 0x10000:
        return f"\\u{c:04x}"
    c -= 0x10000  # a surrogate pair, as JSON writes a character beyond the BMP
    return f"\\u{0xD800 + (c >> 10):04x}\\u{0xDC00 + (c & 0x3FF):04x}"


def json_dump(doc: Any) -> None:
    """Print ``doc`` as one JSON document on stdout, in one write (non-JSON values as
    ``str``; the control characters JSON leaves raw are escaped as ``\\uXXXX``)."""
    text = json.dumps(doc, indent=2, ensure_ascii=False, default=str)
    text = _UNSAFE_JSON.sub(_json_escape, text) + "\n"
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
# standard output that fails: a reader gone, a full disk, a closed descriptor
# ---------------------------------------------------------------------------


class OutputLost(Exception):
    """What was written to standard output could not be delivered: its reader went
    away (a broken pipe: ``verifier check ... | head -n 1``), the disk is full
    (``> /dev/full``) or it was closed (``>&-``).  The command line reports it in one
    line on stderr and exits 2, never 0 (``set -o pipefail`` must not pass a run whose
    output was lost).  It is not a :class:`~verifier.errors.VerifierError`, so no
    handler of bad input inside a command swallows it."""


def _lost_text(err: BaseException | None) -> str:
    code = getattr(err, "errno", None)
    if err is None or code == errno.EBADF:
        return "standard output is closed; the output was not delivered"
    if code == errno.EPIPE or isinstance(err, BrokenPipeError):
        return (
            "standard output was closed by its reader (broken pipe); the output was not delivered"
        )
    reason = getattr(err, "strerror", None) or str(err) or type(err).__name__
    return f"cannot write to standard output: {reason}; the output was not delivered"


class OutputGuard:
    """Standard output (``stream``; ``None`` when it was closed before the process
    started) behind :attr:`text`, a stream whose failed write or flush raises
    :class:`OutputLost`; the first failure is kept in :attr:`lost` (a caller may
    swallow the exception, the command line still exits 2)."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.lost: str | None = None
        self.text = _GuardedText(self)

    def fail(self, err: BaseException | None) -> OutputLost:
        """Record the failure ``err`` (``None``: the stream is closed); the exception
        to raise."""
        if self.lost is None:
            self.lost = _lost_text(err)
            self._silence()
        return OutputLost(self.lost)

    def _silence(self) -> None:
        """Point the failed stream's descriptor at ``/dev/null``: the interpreter
        flushes standard output once more at exit, which must neither fail nor print
        "Exception ignored"."""
        try:
            fd = self.stream.fileno()
        except (AttributeError, OSError, ValueError):
            return
        try:
            null = os.open(os.devnull, os.O_WRONLY)
        except OSError:
            return
        try:
            os.dup2(null, fd)
        except OSError:
            pass
        finally:
            os.close(null)


class _GuardedText:
    """The text stream of an :class:`OutputGuard` (every other attribute is the
    wrapped stream's)."""

    def __init__(self, guard: OutputGuard) -> None:
        self._guard = guard

    def _call(self, name: str, *args: Any) -> Any:
        g = self._guard
        if g.lost is not None:
            raise OutputLost(g.lost)
        if g.stream is None:
            raise g.fail(None)
        try:
            return getattr(g.stream, name)(*args)
        except UnicodeError:
            raise
        except (OSError, ValueError) as err:  # ValueError: a closed file object
            raise g.fail(err) from None

    def write(self, text: str) -> Any:
        return self._call("write", text)

    def writelines(self, lines: Any) -> Any:
        return self._call("writelines", lines)

    def flush(self) -> None:
        if self._guard.stream is not None or self._guard.lost is not None:
            self._call("flush")

    def isatty(self) -> bool:
        try:
            return self._guard.stream is not None and bool(self._guard.stream.isatty())
        except (AttributeError, OSError, ValueError):
            return False

    @property
    def encoding(self) -> str:
        return getattr(self._guard.stream, "encoding", None) or "utf-8"

    @property
    def buffer(self) -> Any:
        raw = getattr(self._guard.stream, "buffer", None)
        return None if raw is None else _GuardedBinary(self._guard, raw)

    def __getattr__(self, name: str) -> Any:
        if self._guard.stream is None:
            raise AttributeError(name)
        return getattr(self._guard.stream, name)


class _GuardedBinary:
    """The binary buffer under a guarded text stream."""

    def __init__(self, guard: OutputGuard, raw: Any) -> None:
        self._guard, self._raw = guard, raw

    def write(self, data: bytes) -> Any:
        if self._guard.lost is not None:
            raise OutputLost(self._guard.lost)
        try:
            return self._raw.write(data)
        except (OSError, ValueError) as err:
            raise self._guard.fail(err) from None

    def flush(self) -> None:
        if self._guard.lost is not None:
            raise OutputLost(self._guard.lost)
        try:
            self._raw.flush()
        except (OSError, ValueError) as err:
            raise self._guard.fail(err) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._raw, name)


class _QuietText:
    """Standard error: a failed write is dropped (there is nowhere left to report it;
    the exit code still says what happened)."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return int(self._stream.write(text)) if self._stream is not None else len(text)
        except (OSError, ValueError):
            return len(text)

    def flush(self) -> None:
        try:
            if self._stream is not None:
                self._stream.flush()
        except (OSError, ValueError):
            pass

    def isatty(self) -> bool:
        try:
            return self._stream is not None and bool(self._stream.isatty())
        except (AttributeError, OSError, ValueError):
            return False

    @property
    def encoding(self) -> str:
        return getattr(self._stream, "encoding", None) or "utf-8"

    def __getattr__(self, name: str) -> Any:
        if self._stream is None:
            raise AttributeError(name)
        return getattr(self._stream, name)


def _descriptor_closed(stream: Any) -> bool:
    """Whether ``stream`` writes to a descriptor that is not open (a stream without
    one, such as a ``StringIO``, is not closed)."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return False
    try:
        os.fstat(fd)
    except OSError:
        return True
    return False


def _occupy_closed_descriptors() -> None:
    """Open ``/dev/null`` on each of the descriptors 0, 1 and 2 that is closed: a file
    opened later (a spec file, a certificate being written) must never become
    standard output or standard error."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
            continue
        except OSError:
            pass
        try:
            null = os.open(os.devnull, os.O_RDONLY if fd == 0 else os.O_WRONLY)
        except OSError:
            continue
        if null != fd:
            try:
                os.dup2(null, fd)
            except OSError:
                pass
            os.close(null)


@contextlib.contextmanager
def guarded_streams() -> Iterator[OutputGuard]:
    """For the duration of the block: standard output behind an :class:`OutputGuard`
    (its writes raise :class:`OutputLost` when they cannot be delivered), standard
    error dropping what it cannot write, and no closed descriptor 0-2 (a standard
    stream closed before the process started reads as closed, and its descriptor is
    held by ``/dev/null``)."""
    out = sys.stdout
    if out is not None and _descriptor_closed(out):
        out = None
    _occupy_closed_descriptors()
    guard = OutputGuard(out)
    old_out, old_err = sys.stdout, sys.stderr
    sys.stdout = guard.text
    sys.stderr = _QuietText(old_err)
    try:
        yield guard
    finally:
        sys.stdout, sys.stderr = old_out, old_err


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


#: ``-j auto``: one local worker process per usable core
#: (:func:`~verifier.runtime.executors.auto_jobs`).
AUTO = "auto"


def jobs_option(hi: int) -> Callable[[str], int | str]:
    """An ``argparse`` type: :data:`AUTO` or an integer in ``[1, hi]``.

    >>> jobs_option(8)("auto"), jobs_option(8)(" 3")
    ('auto', 3)
    >>> jobs_option(8)("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be 'auto' or an integer between 1 and 8, got '0'
    """
    number = int_option(1, hi)

    def parse(text: str) -> int | str:
        if text.strip().lower() == AUTO:
            return AUTO
        try:
            return number(text)
        except argparse.ArgumentTypeError:
            raise argparse.ArgumentTypeError(
                f"must be {AUTO!r} or {_range('an integer', 1, hi)}, got {text!r}"
            ) from None

    parse.__name__ = "jobs"
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


def _nameable(raw: str | os.PathLike[str], where: str) -> None:
    """Refuse a path that no file system can name: one with a NUL character (the
    operating system's calls would raise ``ValueError: embedded null byte``)."""
    if "\x00" in os.fspath(raw):
        raise InvalidParameter(f"{where}: a path cannot contain a NUL character")


def output_file(raw: str | os.PathLike[str], option: str) -> Path:
    """Check that ``raw`` can be written as a file (for ``option``, e.g. ``--out``)
    before any work starts: not a directory, a special file or a symbolic link that
    loops, an existing directory above it in which a new file can be created (tried:
    a file is created and removed there, as the atomic write will; ``/proc`` or a name
    too long fails here, not after the work), and writable itself if it exists.
    Raises :class:`~verifier.errors.InvalidParameter` naming the option and the
    problem.
    """
    p = Path(raw)
    where = f"{option} {printable(str(raw), newlines=False)}"
    _nameable(raw, where)
    if str(raw) == "" or p.name in ("", ".", ".."):
        raise InvalidParameter(f"{where}: not a file name")
    try:
        if p.is_symlink():
            try:
                os.stat(p)
            except OSError as err:
                if err.errno == errno.ELOOP:
                    raise InvalidParameter(
                        f"{where}: a symbolic link that loops (it never reaches a file)"
                    ) from None
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
        _probe(p, parent, where)
    except OSError as err:  # e.g. a name too long, a loop of symbolic links
        raise InvalidParameter(f"{where}: {err.strerror or err}") from None
    return p


def _probe(p: Path, parent: Path, where: str) -> None:
    """Create and remove a file in ``parent`` named as the atomic write of ``p`` names
    its temporary file, and check that ``p``'s own name is not too long."""
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name[:60]}.", suffix=".tmp", dir=parent)
    except OSError as err:
        raise InvalidParameter(
            f"{where}: cannot create a file in {printable(str(parent), newlines=False)}: "
            f"{err.strerror or err}"
        ) from None
    os.close(fd)
    os.unlink(tmp)
    try:
        os.lstat(p)
    except FileNotFoundError:
        pass
    except OSError as err:
        if err.errno == errno.ENAMETOOLONG:
            raise InvalidParameter(f"{where}: {err.strerror}") from None


def output_directory(raw: str | os.PathLike[str], option: str) -> Path:
    """The directory ``raw`` for ``option`` (e.g. ``--certificates``), created and
    checked writable before any work starts; raises
    :class:`~verifier.errors.InvalidParameter` naming the option and the problem."""
    d = Path(raw)
    where = f"{option} {printable(str(raw), newlines=False)}"
    _nameable(raw, where)
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


def exact_text(x: Any) -> str:
    """``str(x)``, or for a number with more digits than Python converts to text
    (``sys.get_int_max_str_digits``: a rational such as ``3^100000``) the number of
    its digits and a decimal value: the exact value is then beyond what a report
    shows.

    >>> exact_text(3), exact_text(None)
    ('3', 'None')
    """
    try:
        return str(x)
    except ValueError:
        import sympy as sp

        from ..arithmetic.exact import approx

        digits, value = "many", "?"
        if isinstance(x, sp.Rational):
            bits = max(int(x.p).bit_length(), int(x.q).bit_length())
            digits = f"about {int(bits * 0.30103) + 1}"
            tens = (abs(int(x.p)).bit_length() - int(x.q).bit_length()) * 0.30103
            if abs(tens) > 300:  # beyond a float
                value = f"{'-' if x < 0 else ''}10^{int(tens)}"
        if value == "?":
            try:
                value = f"{approx(x):.10g}"
            except Exception:  # noqa: BLE001 - a display value only
                pass
        return f"(an exact number with {digits} digits, too long to print; ≈ {value})"


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

    from ..arithmetic.exact import format_number

    if x is sp.oo:
        return "inf"
    if x is -sp.oo:
        return "-inf"
    if isinstance(x, sp.Basic):
        text = exact_text(x)
        if text.startswith("(an exact number"):
            return text
        if len(text) > 300:
            text = text[:280] + " ... (exact value in --json)"
        if x.free_symbols or x.is_Integer:
            return text
        try:
            return f"{text} {format_number(x, digits=10, max_len=0)}"  # "<exact> ≈ <decimal>"
        except VerifierError:
            return text
    return str(x)


#: Listings generated from the engine's registries and shipped as package data
#: (:mod:`verifier.cli.static` writes them; a test keeps them current), so that
#: ``verifier algorithms`` and ``verifier schema`` answer without importing sympy.
STATIC_DATA = Path(__file__).parent / "data"
STATIC_NAMES = ("algorithms", "schema")


def load_static(name: str) -> Any:
    """The generated listing ``name`` (``"algorithms"`` or ``"schema"``)."""
    if name not in STATIC_NAMES:
        raise ValueError(f"unknown listing {name!r}")
    return json.loads((STATIC_DATA / f"{name}.json").read_text(encoding="utf-8"))
