"""Fuzzing every subcommand's options, not only the spec grammar
(``test_fuzz.py``): command lines drawn from each subcommand's options with valid and
hostile values (empty, negative, huge, ``nan``, escape sequences, invisible and
undecodable characters, paths to devices, ``/proc``, directories, names too long,
malformed ``--dask`` addresses), run in-process with standard output working, a pipe
whose reader is gone, a full disk or closed.

Every run ends with an exit code its ``--help`` lists and never 4; no traceback and
no "internal error" on stderr; output that could not be delivered is exit 2 (or 130).
Budgets are bounded in every command line (``--instances``, ``--search-instances``,
``--only``, ``--gamma``), so the valid runs take a fraction of a second each.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import signal
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from verifier.cli import main
from verifier.cli.app import all_commands

from .harness import EXAMPLES, HERE

#: Seconds one command line may take here (the corpus holds bad input to 5 s under a
#: process of its own; in-process on a loaded machine a valid run may need more).
TIME_LIMIT = 60
REFUTED = (HERE / "corpus" / "outputs" / "refuted.toml").read_text()
HOLDS = str((EXAMPLES / "randomized_response.toml").resolve())
FAST_CLAIM = "liu_talwar2019.B1.best_of_k_Keps"

#: Values for any option: none is a large valid budget or worker count (those are
#: requests for long work, not hostile input).
HOSTILE = [
    "", " ", "-1", "0", "1", "1e300", "-1e300", "1e-300", "nan", "inf", "-inf", "1/0",
    "10^10^10", "2^64", "0x10", "1_000", "\x1b[2J", "\x1b]0;x\x07", "a\u200db", "\u202eabc",
    "\udcff", "é\u0301", "x" * 300, "../../../etc/passwd", "/proc/version", "/dev/full",
    "/dev/zero", "/dev/null", ".", "..", "/", "nowhere.toml", "dir", "__import__('os')",
    "local", "local:0", "local:-1", "local:999999", "tcp://127.0.0.1:1", "http://x:1",
    "tcp://[::1", "unix:///tmp/s", "--json", "-", "\x00",
]  # fmt: skip
PATHS = ["refuted.toml", HOLDS, "missing.toml", "dir", "dir/x.toml", "/dev/zero", "/proc/version",
         "\x1b[2J.toml", "\udcff.toml", "x" * 300 + ".toml", "out.json", "c.toml", "f.png"]  # fmt: skip


def value(*valid: str) -> st.SearchStrategy[str]:
    return (
        st.one_of(st.sampled_from(valid), st.sampled_from(HOSTILE))
        if valid
        else st.sampled_from(HOSTILE)
    )


#: Per subcommand: (positionals strategy, always-present options, optional options,
#: flags).  An option maps to the strategy of its value(s).
Spec = tuple[st.SearchStrategy[list[str]], dict[str, Any], dict[str, Any], list[str]]


def _one(s: st.SearchStrategy[str]) -> st.SearchStrategy[list[str]]:
    return s.map(lambda v: [v])


def _some(s: st.SearchStrategy[str], lo: int = 1, hi: int = 3) -> st.SearchStrategy[list[str]]:
    return st.lists(s, min_size=lo, max_size=hi)


SPECS: dict[str, Spec] = {
    "check": (
        _some(st.sampled_from(PATHS)),
        {},
        {
            "--claim": value("c", "rr-is-log3-dp"), "--max-bits": value("64", "4096"),
            "--certificates": value("certs"), "--workers": value("2"),
            "--dask": value(), "--max-workers": value("4", "300"),
            "--max-outputs": value("100"), "--max-work": value("1000"),
            "--max-exponent": value("64"), "--max-file-size": value("100", "1000000"),
        },
        ["--json", "--quiet", "--expected", "--no-progress"],
    ),
    "casestudies": (
        _some(value(FAST_CLAIM, "ghazi2025.thm9", "nope"), 1, 2),
        {"--search-instances": value("0", "3")},
        {
            "--after": value(FAST_CLAIM, "nope"), "-j": value(), "--dask": value(),
            "--max-workers": value("8"), "--certificates": value("certs"),
        },
        ["--list", "--coverage", "--json", "--tightness", "--scope", "--no-progress"],
    ),
    "search": (
        _one(value("ghazi2025.thm9", "refuted.toml", "nope")),
        {"--instances": value("10", "40")},
        {
            "--seconds": value("2"), "--seed": value("0", "7"), "--workers": value(),
            "--dask": value(), "--out": value("c.toml"), "--resume": value("ck.json"),
            "--checkpoint": value("ck.json"), "--checkpoint-every": value("0", "1"),
            "--claim": value("c"), "--max-workers": value("8"),
        },
        ["--list", "--no-checkpoint", "--keep-checkpoint", "--no-shrink", "--json",
         "--timings", "--no-progress"],
    ),
    "compare": (
        _some(value("random_stopping", "ghazi_hyperparameter_tuning"), 0, 1),
        {"--exact-only": None},
        {
            "--eps0": value("log(3)", "1/2"), "--mean": value("10", "30"),
            "--delta": value("1e-6", "1/100"), "--count": value("geometric", "poisson"),
            "--eps-prime": value("log(5/3)"),
        },
        ["--json"],
    ),
    "algorithms": (_some(value("repeat", "best_of", "randomized_response"), 0, 2), {}, {}, ["--json"]),
    "schema": (
        st.just([]),
        {},
        {"--validate": _some(st.sampled_from(PATHS + ["bad.toml"]))},
        ["--json"],
    ),
    "export": (
        _one(value("dp_testing")),
        {"--only": value("noisy_hist1", "rappor")},
        {"-o": value("out.json"), "--format": value("json")},
        ["--json"],
    ),
    "tradeoff": (
        _one(value("repetition", "metaselection", "both")),
        {"--gamma": value("1/100", "2^-20")},
        {"--K": value("2", "4"), "--c": value("2", "3"), "--eps": value("1"),
         "--plot": value("f.png", "f.svg")},
        ["--no-hard", "--json", "--no-progress"],
    ),
}  # fmt: skip


@st.composite
def command_lines(draw: st.DrawFn) -> list[str]:
    name = draw(st.sampled_from(sorted(SPECS)))
    positionals, always, optional, flags = SPECS[name]
    argv = [name, *draw(positionals)]
    for opt, strat in always.items():
        argv += [opt] if strat is None else [opt, *_values(draw, strat)]
    if optional:
        for opt in draw(st.lists(st.sampled_from(sorted(optional)), max_size=3, unique=True)):
            argv += [opt, *_values(draw, optional[opt])]
    argv += draw(st.lists(st.sampled_from(flags), max_size=3, unique=True))
    if draw(st.integers(0, 19)) == 0:
        argv.append(draw(st.sampled_from(["--help", "--version"])))
    return argv


def _values(draw: st.DrawFn, strat: Any) -> list[str]:
    v = draw(strat)
    return v if isinstance(v, list) else [v]


class _Failing(io.TextIOBase):
    """Standard output that cannot take a byte: a pipe whose reader has gone
    (EPIPE) or a full disk (ENOSPC).  Counts the attempts."""

    def __init__(self, code: int) -> None:
        self.code, self.attempts = code, 0
        self.buffer = self

    def _fail(self) -> None:
        self.attempts += 1
        raise (BrokenPipeError if self.code == errno.EPIPE else OSError)(
            self.code, os.strerror(self.code)
        )

    def write(self, data: Any) -> int:  # type: ignore[override]
        self._fail()
        return 0

    def flush(self) -> None:
        pass

    def writable(self) -> bool:
        return True

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return "utf-8"


class _Slow(Exception):
    pass


def _alarm(*_: Any) -> None:
    raise _Slow


def run(argv: list[str], mode: str) -> tuple[int, str, int]:
    """``main(argv)`` in a fresh directory with standard output as ``mode`` says;
    the exit code, stderr and the number of failed write attempts."""
    err_bytes = io.BytesIO()
    err = io.TextIOWrapper(err_bytes, encoding="utf-8", errors="backslashreplace")
    out: Any
    if mode == "ok":  # strict UTF-8, as a real standard output
        out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    elif mode == "closed":
        out = None
    else:
        out = _Failing(errno.EPIPE if mode == "broken" else errno.ENOSPC)
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as d:
        Path(d, "refuted.toml").write_text(REFUTED)
        Path(d, "bad.toml").write_text('[[claims]]\nid = "x"\n')
        Path(d, "dir").mkdir()
        old = signal.signal(signal.SIGALRM, _alarm)
        signal.alarm(TIME_LIMIT)
        try:
            os.chdir(d)
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main(argv)
        except _Slow:
            pytest.fail(f"more than {TIME_LIMIT} s: verifier {argv!r} (stdout {mode})")
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, old)
            os.chdir(here)
    err.flush()
    attempts = out.attempts if isinstance(out, _Failing) else 0
    return code, err_bytes.getvalue().decode("utf-8", "replace"), attempts


#: Derandomized: every run draws the same examples (from the test's name), so a
#: failure in CI reproduces on any machine and the suite's time does not vary.
FUZZ = settings(
    max_examples=120,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    database=None,
)


@FUZZ
@given(argv=command_lines(), mode=st.sampled_from(["ok", "ok", "broken", "full", "closed"]))
def test_every_option_of_every_subcommand_is_answered(argv, mode):
    code, err, attempts = run(argv, mode)
    what = f"verifier {argv!r} (stdout {mode}): exit {code}\n{err[-2000:]}"
    codes = all_commands()[argv[0]].exit_code_meanings()
    assert code != 4 and code in codes, what
    assert "Traceback" not in err and "internal error" not in err, what
    if attempts:  # something was written and lost
        assert code in (2, 130), what
    for line in err.splitlines():
        assert "\x1b" not in line and "\x00" not in line, what


def test_the_grammar_covers_every_subcommand():
    assert set(SPECS) == set(all_commands())
