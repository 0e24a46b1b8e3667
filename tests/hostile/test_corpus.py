"""The corpus of hostile inputs: every entry exits 2 within 5 s and 500 MB, with one
line ``error: ...`` that names the problem, no traceback and no raw control
character; a few valid controls exit 0, 1 or 3 under the same limits.

The corpus is ``tests/hostile/corpus/<category>/`` (written by ``make_corpus.py``,
which documents the entry format).  All entries run in one subprocess
(``runner.py``) that forks a child per entry with ``RLIMIT_AS`` = 500 MB and an
alarm of 5 s, so the suite pays the interpreter's start-up once.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from .harness import EXAMPLES, HERE, one_error_line, run_batch, within_limits

# the corpus runs once, in one batch (a session fixture: a module fixture is torn down
# and run again when xdist interleaves another module's tests): its tests stay on one
# worker (`--dist loadgroup` in the pytest addopts), or each worker runs the batch
pytestmark = pytest.mark.xdist_group("hostile_corpus")

CORPUS = HERE / "corpus"

ANSI_SPEC = """title = "\\u001b[2J\\u001b[1;1H\\u001b[32mEVERY CLAIM HOLDS"
[graphs.g]
kind = "pair"
[mechanisms."\\u001b]0;owned\\u0007rr"]
graph = "g"
outputs = ["\\u001b[31mred", "\\u202eblue"]
distributions.D = { "\\u001b[31mred" = "3/4", "\\u202eblue" = "1/4" }
distributions."D'" = { "\\u001b[31mred" = "1/4", "\\u202eblue" = "3/4" }
[[claims]]
id = "\\u001b[2K\\rclaim"
mechanism = "\\u001b]0;owned\\u0007rr"
kind = "pure_dp"
epsilon = "log(2)"
statement = "\\u009b31m fake \\r[1/1] claim x: HOLDS"
"""


def _entries() -> list[tuple[str, Path, str]]:
    out = []
    for cat in sorted(p for p in CORPUS.iterdir() if p.is_dir()):
        expect = json.loads((cat / "expect.json").read_text())
        for name, text in sorted(expect.items()):
            out.append((f"{cat.name}/{name}", cat / name, text))
    return out


ENTRIES = _entries()

#: Valid inputs run under the same limits: (id, argv, allowed exit codes).
CONTROLS = [
    ("rr", ["check", str(EXAMPLES / "randomized_response.toml")], {0}),
    ("best_of_k", ["check", "--expected", str(EXAMPLES / "best_of_k.toml")], {0}),
    ("ansi", ["check", "ansi.toml"], {1}),
    ("ansi_json", ["check", "--json", "ansi.toml"], {1}),
    ("ansi_expected", ["check", "--expected", "ansi.toml"], {0, 1}),
    ("exp_lhs", ["check", "exp.toml"], {1}),
    ("raised_limit", ["check", "--max-exponent", "512", "big_eps.toml"], {0}),
    ("inequality_tight", ["check", "tight.toml"], {0}),
]


def _argv(raw: list[str]) -> list[str]:
    return [a.replace("{corpus}", str(CORPUS)) for a in raw]


def _setup(cwd: Path, setup: dict) -> None:
    for kind, arg in setup.items():
        if kind == "fifo":
            os.mkfifo(cwd / arg)
        elif kind == "dir":
            (cwd / arg).mkdir()
        elif kind == "file":
            (cwd / arg).write_text("x")
        elif kind == "big":
            with open(cwd / arg[0], "wb") as fh:
                fh.truncate(arg[1])
        elif kind == "loop":
            os.symlink(arg, cwd / arg)
        elif kind == "symlink":
            os.symlink(arg[1], cwd / arg[0])
        elif kind == "copy":
            shutil.copyfile(CORPUS / arg[0], cwd / arg[1])
        elif kind == "text":
            name, head, item, count, tail = arg
            body = "".join(item.replace("{i}", str(i)) for i in range(count))
            (cwd / name).write_text(head + body + tail)
        else:  # pragma: no cover - a corpus entry with an unknown setup
            raise ValueError(kind)


@pytest.fixture(scope="session")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    """Run every corpus entry and control once; their records by id."""
    jobs = []
    for eid, path, _ in ENTRIES:
        cwd = tmp_path_factory.mktemp("hostile")
        job: dict = {"id": eid, "cwd": str(cwd)}
        if path.suffix == ".args":
            spec = json.loads(path.read_text())
            _setup(cwd, spec.get("setup", {}))
            job["argv"] = _argv(spec["argv"])
            if "stdout" in spec:
                job["stdout"] = spec["stdout"]
        else:
            job["argv"] = ["check", str(path)]
        jobs.append(job)
    ctl = tmp_path_factory.mktemp("controls")
    (ctl / "ansi.toml").write_text(ANSI_SPEC)
    (ctl / "exp.toml").write_text(
        '[[claims]]\nid = "e"\nkind = "inequality"\nlhs = "exp(10^10)"\nrhs = "1"\n'
    )
    big = (CORPUS / "numbers" / "epsilon_zero.toml").read_text()  # epsilon = 2^300 > 2^256
    (ctl / "big_eps.toml").write_text(big.replace('epsilon = "0"', 'epsilon = "2^300"'))
    (ctl / "tight.toml").write_text(
        '[[claims]]\nid = "t"\nkind = "inequality"\nlhs = "exp(1/2)^2"\nrhs = "e"\n'
    )
    for cid, argv, _ in CONTROLS:
        jobs.append({"id": f"control/{cid}", "argv": argv, "cwd": str(ctl)})
    return run_batch(jobs)


def test_the_corpus_tests_share_one_worker(request):
    """Under `--dist loadgroup` (the pytest addopts) xdist suffixes the node id of a test
    of an xdist_group with the group's name and sends the group to one worker; without
    it the corpus batch runs once on each worker."""
    if getattr(request.config.option, "loadgroup", False):
        assert request.node.nodeid.endswith("@hostile_corpus"), request.node.nodeid


def test_the_corpus_is_large_and_covers_every_category():
    cats = {eid.split("/")[0] for eid, _, _ in ENTRIES}
    assert len(ENTRIES) >= 150
    assert cats >= {
        "syntax", "types", "missing", "unknown", "numbers", "resources", "injection",
        "unbound", "datasets", "files", "paths", "options", "builtins", "outputs",
        "workers", "unicode",
    }  # fmt: skip


@pytest.mark.parametrize("eid,path,expected", ENTRIES, ids=[e[0] for e in ENTRIES])
def test_bad_input_exits_2_fast_with_a_message(results, eid, path, expected):
    r = results[eid]
    within_limits(r)
    one_error_line(r, expected)


@pytest.mark.parametrize("cid,argv,codes", CONTROLS, ids=[c[0] for c in CONTROLS])
def test_valid_controls_answer_within_the_limits(results, cid, argv, codes):
    r = results[f"control/{cid}"]
    within_limits(r)
    assert r["code"] in codes, (r["code"], r["stderr"][-2000:])
    if cid.startswith("ansi"):
        text = r["stdout"]
        assert "\\x1b" in text or "\\u001b" in text  # shown, escaped
        assert "\x1b" not in text and "\r" not in text
