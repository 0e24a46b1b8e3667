"""No regression goes unseen: the user's commands, timed as whole processes, paired
with the previous release in one run.

Each command runs as a child process (``python -m verifier ...``) on this tree and
on the tree of :data:`PREVIOUS_RELEASE` (``git archive``, with its own entry points:
:func:`benchmarks.figures.shadow_metadata`), alternately, ``repeats`` times; the
medians of the CPU seconds of the process and its children (``wait4``) and of the
wall-clock seconds are compared.  A command is a regression when its median CPU time
exceeds the previous release's by more than :data:`TOLERANCE` (10%) *and* by more
than :data:`NOISE_FLOOR` seconds (a 0.1 s command on a shared machine moves by more
than 10% between two runs); the figure then fails and ``python -m benchmarks`` exits
1.  Both sides must give the same answer (exit code, and the verdict rows of
``casestudies``), or the figure fails before any time counts.

:data:`PREVIOUS_RELEASE` is the last commit that landed on main; it moves forward
when a submission lands.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .figures import ROOT, Figure, Run, _verdicts, baseline_tree, run_measured

#: The last commit that landed on main (CI passed) before this tree.
PREVIOUS_RELEASE = "c46c3faa0dc9df4dac1dda1601ddfd2cb0844209"
#: A command is slower when its median CPU time exceeds the previous release's by this
#: factor ...
TOLERANCE = 1.10
#: ... and by at least this many seconds.
NOISE_FLOOR = 0.15

#: Fast claims for the quick form (one of each paper's kinds of decision).
QUICK_CLAIMS = (
    "ghazi2025.thm8",
    "hartmann2022.lemma3",
    "liu_talwar2019.thm31.a_proportional",
    "talwar2025.prop3",
)


@dataclass(frozen=True)
class Command:
    """One user command: its name in the table and its arguments after ``verifier``."""

    name: str
    argv: tuple[str, ...]
    #: compare the verdict rows of ``casestudies`` (not only the exit code)
    verdicts: bool = False


def commands(quick: bool) -> list[Command]:
    """The commands timed: start-up, a spec file, a search, the comparison with the
    accountants, and the main job (the quick form: four claims)."""
    out = [
        Command("--version", ("--version",)),
        Command("--help", ("--help",)),
        Command("algorithms", ("algorithms",)),
        Command(
            "check examples",
            ("check", "examples/randomized_response.toml", "examples/best_of_k.toml"),
        ),
        Command(
            "search",
            (
                "search",
                "ghazi2025.thm11",
                "--instances",
                "60" if quick else "400",
                "--seed",
                "0",
                "--no-checkpoint",
                "--no-progress",
                "--json",
            ),
        ),
        Command("compare composition", ("compare", "composition", "--mean", "1", "10", "--json")),
    ]
    # -j 1: the claims decided in one process on both sides, so CPU seconds compare
    # the same work (the default, one worker process per core, trades CPU for wall
    # time; its wall time is the `casestudies` figure of figures.py)
    if quick:
        argv = ("casestudies", "-j", "1", *QUICK_CLAIMS)
        out.append(Command("casestudies -j 1 (4 claims)", argv, True))
    else:
        argv = ("casestudies", "-j", "1")
        out.append(Command("casestudies -j 1 (the release's claims)", argv, True))
    return out


def is_regression(cpu: float, previous_cpu: float) -> bool:
    """Slower than the previous release beyond the tolerance and the noise floor.

    >>> is_regression(1.2, 1.0), is_regression(1.05, 1.0), is_regression(0.2, 0.1)
    (True, False, False)
    """
    return cpu > previous_cpu * TOLERANCE and cpu - previous_cpu > NOISE_FLOOR


def _median(runs: Sequence[Run], attr: str) -> float:
    return statistics.median(getattr(r, attr) for r in runs)


def _same_answer(cmd: Command, ours: Run, old: Run) -> None:
    if ours.code != old.code:
        raise AssertionError(
            f"{cmd.name}: this tree exits {ours.code}, {PREVIOUS_RELEASE[:7]} exits {old.code}"
        )
    if cmd.verdicts:
        a, b = _verdicts(ours.out), _verdicts(old.out)
        if not a or a != b:
            raise AssertionError(
                f"{cmd.name}: this tree and {PREVIOUS_RELEASE[:7]} decide differently"
            )


def regression(quick: bool) -> list[Figure]:
    """One row per command: median CPU seconds here and in the previous release
    (wall clock in the notes); fails when a command regressed (module docstring)."""
    repeats = 3
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    rows: list[Figure] = []
    slower: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        old_tree = baseline_tree(Path(tmp), PREVIOUS_RELEASE)
        if old_tree is None:
            return [
                Figure("regression", None, None, "s", "-", None, "(no git history)", ["skipped"])
            ]

        def run(tree: Path, argv: list[str]) -> Run:
            return run_measured(
                [sys.executable, "-m", "verifier", *argv], tree, {**env, "PYTHONPATH": str(tree)}
            )

        for cmd in commands(quick):
            argv = list(cmd.argv)
            ours_runs: list[Run] = []
            old_runs: list[Run] = []
            if cmd.verdicts and not quick:
                # every claim of the release, once on each side: the release's run names
                # them, and this tree decides the same ids (claims registered since are
                # not compared)
                old_runs.append(run(old_tree, argv))
                argv += [c for c, _ in _verdicts(old_runs[0].out)]
                ours_runs.append(run(ROOT, argv))
            else:
                for _ in range(repeats):
                    old_runs.append(run(old_tree, argv))
                    ours_runs.append(run(ROOT, argv))
            _same_answer(cmd, ours_runs[-1], old_runs[-1])
            cpu, old_cpu = _median(ours_runs, "cpu"), _median(old_runs, "cpu")
            fig = Figure(
                f"regression: {cmd.name}",
                cpu,
                old_cpu,
                "s",
                f"<= {TOLERANCE:.2f}x the release's CPU (+{NOISE_FLOOR} s)",
                None,
                f"git {PREVIOUS_RELEASE[:7]}",
            )
            regressed = is_regression(cpu, old_cpu)
            fig.met = not regressed
            fig.notes.append(
                f"median of {len(ours_runs)} paired: CPU s; wall {_median(ours_runs, 'wall'):.2f} "
                f"vs {_median(old_runs, 'wall'):.2f} s; peak "
                f"{max(r.peak_kib for r in ours_runs) / 1024:.0f} vs "
                f"{max(r.peak_kib for r in old_runs) / 1024:.0f} MiB"
            )
            fig.details = {
                "cpu": [r.cpu for r in ours_runs],
                "cpu_previous": [r.cpu for r in old_runs],
                "wall": [r.wall for r in ours_runs],
                "wall_previous": [r.wall for r in old_runs],
            }
            if regressed:
                slower.append(f"{cmd.name}: {cpu:.2f} s against {old_cpu:.2f} s")
            rows.append(fig)
    if slower:
        print("\n".join(["slower than the previous release:", *slower]), flush=True)
        for r in rows:
            if r.met is False:
                r.notes.append("REGRESSION")
        raise RegressionFound(rows, slower)
    return rows


class RegressionFound(AssertionError):
    """Some command is slower than the previous release (the runner prints the rows
    and exits 1)."""

    def __init__(self, rows: list[Figure], slower: list[str]) -> None:
        super().__init__("slower than the previous release: " + "; ".join(slower))
        self.rows = rows
