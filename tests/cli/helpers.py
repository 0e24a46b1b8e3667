"""What the command-line tests share: the command line run in a subprocess (the real
console script) or in this process (:func:`invoke`), and the spec texts."""

from __future__ import annotations

import contextlib
import io
import shutil
import subprocess
import sys
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
README = Path(__file__).resolve().parents[2] / "README.md"
SCRIPT = shutil.which("verifier")
#: The console script, or ``python -m verifier`` when it is not on the PATH.
BASE = [SCRIPT] if SCRIPT else [sys.executable, "-m", "verifier"]


def run(
    *args: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``verifier ARGS`` in a subprocess (``env``: its whole environment)."""
    return subprocess.run(
        [*BASE, *map(str, args)], capture_output=True, text=True, timeout=120, cwd=cwd, env=env
    )


def _fresh_warning_filters() -> None:
    """The warning filters of a fresh interpreter started without ``-W`` or
    ``PYTHONWARNINGS`` (pytest shows every DeprecationWarning; a user's run does not)."""
    warnings.resetwarnings()
    warnings.filterwarnings("default", category=DeprecationWarning, module="__main__", append=True)
    for category in (DeprecationWarning, PendingDeprecationWarning, ImportWarning, ResourceWarning):
        warnings.filterwarnings("ignore", category=category, append=True)


def _pipe(errors: str) -> io.TextIOWrapper:
    """A text stream over bytes, as a standard stream on a pipe is (UTF-8; stdout
    strict, stderr ``backslashreplace``; ``isatty()`` false; a ``buffer``)."""
    return io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors=errors, write_through=True)


def _read(stream: io.TextIOWrapper) -> str:
    """What ``subprocess.run(text=True)`` gives for the bytes written: decoded, with
    universal newlines."""
    stream.flush()
    data = stream.buffer.getvalue()  # type: ignore[attr-defined]
    return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")


def invoke(
    *args: str | Path, cwd: Path | None = None, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """``verifier ARGS`` in this process: :func:`verifier.cli.main` with standard
    output and error captured as a pipe would carry them, in ``cwd`` (restored after)
    and with the warning filters of a fresh interpreter; the answer as :func:`run`
    gives it (``args`` the console script's command line).

    For what a process adds nothing to: the exit code and the text on both streams
    are :func:`main`'s.  Signals, closed or broken pipes, start-up imports and the
    console script itself need :func:`run`.  Not thread-safe (standard streams and
    the working directory are the process's): call it from the main thread only."""
    from verifier.cli import main

    if threading.current_thread() is not threading.main_thread():
        raise RuntimeError("invoke() swaps the process's standard streams: main thread only")
    argv = [str(a) for a in args]
    out, err = _pipe("strict"), _pipe("backslashreplace")
    source = io.TextIOWrapper(io.BytesIO((stdin or "").encode()), encoding="utf-8")
    with contextlib.ExitStack() as stack:
        if cwd is not None:
            stack.enter_context(contextlib.chdir(cwd))
        stack.enter_context(warnings.catch_warnings())
        _fresh_warning_filters()
        stack.enter_context(contextlib.redirect_stdout(out))
        stack.enter_context(contextlib.redirect_stderr(err))
        if stdin is not None:
            stack.enter_context(_stdin(source))
        try:
            code = main(argv)
        except SystemExit as exit_:  # as the interpreter ends on sys.exit(CODE)
            if exit_.code is None or isinstance(exit_.code, int):
                code = exit_.code or 0
            else:
                print(exit_.code, file=sys.stderr)
                code = 1
    return subprocess.CompletedProcess([*BASE, *argv], code, _read(out), _read(err))


def answer(proc: subprocess.CompletedProcess[str]) -> tuple[int, str, str]:
    """What a run of the command line answered: exit code, stdout, stderr."""
    return proc.returncode, proc.stdout, proc.stderr


@contextlib.contextmanager
def _stdin(stream: io.TextIOWrapper) -> Iterator[None]:
    old = sys.stdin
    sys.stdin = stream
    try:
        yield
    finally:
        sys.stdin = old


RR = """
[symbols]
eps = "1/2"
[graphs.g]
kind = "pair"
[mechanisms.rr]
graph = "g"
outputs = ["0", "1"]
distributions.D = { "1" = "exp(eps)/(1+exp(eps))", "0" = "1/(1+exp(eps))" }
distributions."D'" = { "1" = "1/(1+exp(eps))", "0" = "exp(eps)/(1+exp(eps))" }
"""

# e^{pi sqrt(163)} = 262537412640768743.99999999999925...: the mechanism below has the
# realized loss log(262537412640768744), larger than pi*sqrt(163) by ~3e-30.  The claim
# is violated, but certifying it needs ~110 bits; at 32 bits the enclosures overlap
# and no exact zero test can succeed (the difference is not zero): undecided.
NEAR_TIE = """
[graphs.g]
kind = "pair"
[mechanisms.m]
graph = "g"
outputs = ["a", "b"]
distributions.D = { a = "262537412640768744/262537412640768745", b = "1/262537412640768745" }
distributions."D'" = { a = "1/262537412640768745", b = "262537412640768744/262537412640768745" }
[[claims]]
id = "ramanujan"
mechanism = "m"
kind = "pure_dp"
epsilon = "pi*sqrt(163)"
"""
