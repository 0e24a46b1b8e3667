"""The benchmark's baseline tree sees its own entry points, not the installed ones."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from benchmarks.figures import shadow_metadata

PYPROJECT = """\
[project]
name = "verifier"
version = "0.0.1"

[project.entry-points."verifier.commands"]
only_old = "old_tree.command:COMMAND"

[project.scripts]
verifier = "verifier.cli:main"
"""

PROBE = (
    "from importlib.metadata import entry_points, version\n"
    "print(version('verifier'))\n"
    "print(sorted(f'{e.name}={e.value}' for e in entry_points(group='verifier.commands')))\n"
    "print(sorted(e.name for e in entry_points(group='console_scripts') if e.name == 'verifier'))\n"
)


def test_an_older_tree_sees_the_entry_points_its_pyproject_declares(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(PYPROJECT)
    shadow_metadata(tmp_path)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run(
        [sys.executable, "-c", PROBE],
        env={**env, "PYTHONPATH": str(tmp_path)},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    assert out == ["0.0.1", "['only_old=old_tree.command:COMMAND']", "['verifier']"]


def test_the_regression_gate_needs_both_the_tolerance_and_the_noise_floor():
    from benchmarks.regression import NOISE_FLOOR, TOLERANCE, is_regression

    assert TOLERANCE == 1.10
    assert is_regression(2.3, 2.0)  # 15% and 0.3 s slower
    assert not is_regression(2.1, 2.0)  # 5%: within the tolerance
    assert not is_regression(0.2, 0.1)  # twice as slow, but within the noise floor
    assert is_regression(0.1 + NOISE_FLOOR + 0.01, 0.1)
