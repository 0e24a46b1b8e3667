"""Run command lines of the ``verifier`` CLI under a memory and a time limit, each
in its own forked process (``python runner.py LIMIT_MB LIMIT_S < entries.json``).

The parent imports the verifier and loads the case studies once; every entry then
runs in a child forked from it, so the per-entry cost is the command itself, not the
interpreter's start-up (about a second, measured separately).  A
child sets ``RLIMIT_AS`` (the whole address space, the inherited interpreter
included) to ``LIMIT_MB`` and an alarm of ``LIMIT_S`` seconds, changes to the
entry's directory, runs ``verifier.cli.main(argv)`` with stdout and stderr sent to
files, and exits with its exit code.  One JSON line per entry is written on stdout:
``{"id", "code", "signal", "seconds", "maxrss_kb", "stdout", "stderr"}``.

Input: a JSON list of ``{"id": str, "argv": [str], "cwd": str}`` with an optional
``"stdout"``: ``"file"`` (the default), ``"full"`` (``/dev/full``: every write fails
with ENOSPC, a full disk), ``"broken"`` (a pipe whose reader has gone: EPIPE, as in
``| head`` once head exits) or ``"closed"`` (no descriptor 1 and ``sys.stdout`` None,
as the interpreter starts under ``>&-``).
"""

from __future__ import annotations

import json
import os
import resource
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def _child(entry: dict, limit_mb: int, limit_s: int, out: str, err: str) -> None:
    code = 99
    try:
        resource.setrlimit(resource.RLIMIT_AS, (limit_mb << 20, limit_mb << 20))
        signal.alarm(limit_s)
        os.chdir(entry["cwd"])
        f = os.open(err, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(f, 2)
        os.close(f)
        _stdout(entry.get("stdout", "file"), out)
        from verifier.cli import main

        code = main(entry["argv"])
    except BaseException as exc:  # noqa: BLE001 - anything escaping main() is a failure
        try:
            os.write(2, f"RUNNER: {type(exc).__name__}: {exc}\n".encode())
        except Exception:  # noqa: BLE001
            pass
        code = 98
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()  # type: ignore[union-attr]
            except Exception:  # noqa: BLE001
                pass
        os._exit(code if isinstance(code, int) else 97)


def _stdout(mode: str, out: str) -> None:
    """Descriptor 1 of the child as ``mode`` asks (see the module docstring)."""
    if mode == "closed":
        os.close(1)
        sys.stdout = None  # type: ignore[assignment]
        return
    if mode == "broken":
        r, w = os.pipe()
        os.close(r)
        f = w
    elif mode == "full":
        f = os.open("/dev/full", os.O_WRONLY)
    elif mode == "file":
        f = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    else:  # pragma: no cover - an entry with an unknown mode
        raise ValueError(mode)
    os.dup2(f, 1)
    os.close(f)


def main() -> int:
    limit_mb, limit_s = int(sys.argv[1]), int(sys.argv[2])
    entries = json.load(sys.stdin)
    # warm imports in the parent: the children inherit them
    import verifier.algorithms  # noqa: F401
    import verifier.cli  # noqa: F401
    import verifier.search  # noqa: F401
    import verifier.spec  # noqa: F401
    from verifier.claims import load_casestudies
    from verifier.cli.app import build_parser

    build_parser()
    load_casestudies()  # a start-up cost like the interpreter's, paid once
    for entry in entries:
        out = os.path.join(entry["cwd"], ".runner.out")
        err = os.path.join(entry["cwd"], ".runner.err")
        sys.stdout.flush()
        t0 = time.monotonic()
        pid = os.fork()
        if pid == 0:
            _child(entry, limit_mb, limit_s, out, err)
        _, status, usage = os.wait4(pid, 0)
        seconds = time.monotonic() - t0
        record = {
            "id": entry["id"],
            "code": os.waitstatus_to_exitcode(status),
            "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
            "seconds": round(seconds, 3),
            "maxrss_kb": usage.ru_maxrss,
            "stdout": _read(out),
            "stderr": _read(err),
        }
        for path in (out, err):
            Path(path).unlink(missing_ok=True)
        sys.stdout.write(json.dumps(record) + "\n")
    sys.stdout.flush()
    return 0


def _read(path: str) -> str:
    try:
        return Path(path).read_text(errors="replace")[:20_000]
    except FileNotFoundError:
        return ""


if __name__ == "__main__":
    sys.exit(main())
