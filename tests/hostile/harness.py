"""Running command lines of the ``verifier`` CLI as the hostile-input tests do: in
one subprocess (``runner.py``) that forks a child per command line under a memory
and a time limit, so the interpreter's start-up and the case studies are paid once
per batch; and the checks every answer must pass."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
EXAMPLES = ROOT / "examples"
#: The limits every answer is held to: 500 MB of address space, 5 seconds.
LIMIT_MB = 500
LIMIT_S = 5
#: Control characters that must never reach the terminal raw (tab and newline may).
RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
#: The environment of the runner (the package from this checkout).
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "OPENBLAS_NUM_THREADS": "1"}


def run_batch(
    jobs: list[dict[str, Any]], limit_mb: int = LIMIT_MB, limit_s: int = LIMIT_S
) -> dict[str, dict[str, Any]]:
    """Run ``jobs`` (``{"id", "argv", "cwd"}`` and optionally ``"stdout"``, see
    ``runner.py``) under the limits; their records by id."""
    proc = subprocess.run(
        [sys.executable, str(HERE / "runner.py"), str(limit_mb), str(limit_s)],
        input=json.dumps(jobs),
        capture_output=True,
        text=True,
        timeout=900,
        env=ENV,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    records = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    return {r["id"]: r for r in records}


def within_limits(r: dict[str, Any], limit_s: float = LIMIT_S) -> None:
    """No signal, within the time and memory limits, no traceback, no raw control
    character on either stream."""
    assert r["signal"] is None, f"killed by signal {r['signal']} after {r['seconds']} s"
    assert r["seconds"] < limit_s, r["seconds"]
    assert r["maxrss_kb"] < LIMIT_MB * 1024, r["maxrss_kb"]
    for stream in ("stdout", "stderr"):
        assert "Traceback" not in r[stream] and "RUNNER:" not in r[stream], r[stream][-2000:]
        assert not RAW_CONTROL.search(r[stream]), (stream, r[stream][:500])


def one_error_line(r: dict[str, Any], expected: str) -> None:
    """Exit 2 with exactly one line ``error: ...`` on stderr that contains
    ``expected`` (case-insensitive)."""
    assert r["code"] == 2, (r["code"], r["stderr"][-2000:])
    lines = [ln for ln in r["stderr"].splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), r["stderr"][-2000:]
    assert expected.lower() in lines[0].lower(), (expected, lines[0])
