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

Input: a JSON list of ``{"id": str, "argv": [str], "cwd": str}``.
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
        for fd, path in ((1, out), (2, err)):
            f = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            os.dup2(f, fd)
            os.close(f)
        from verifier.cli import main

        code = main(entry["argv"])
    except BaseException as exc:  # noqa: BLE001 - anything escaping main() is a failure
        try:
            os.write(2, f"RUNNER: {type(exc).__name__}: {exc}\n".encode())
        except Exception:  # noqa: BLE001
            pass
        code = 98
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except Exception:  # noqa: BLE001
            pass
        os._exit(code if isinstance(code, int) else 97)


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
            "stdout": Path(out).read_text(errors="replace")[:20_000],
            "stderr": Path(err).read_text(errors="replace")[:20_000],
        }
        sys.stdout.write(json.dumps(record) + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
