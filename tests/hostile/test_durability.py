"""Durability: no work lost and no false answer after a kill or a tampered file.

* ``verifier search`` killed with SIGKILL at random points and resumed gives the
  answer of an uninterrupted run (the same certificate for a violated claim);
* ``verifier casestudies --json > file`` (one case study's claims, certificates
  written) killed at random points leaves an empty
  file or the complete document, and every certificate it wrote re-verifies;
* a checkpoint edited in any field (re-sealed with a correct sha256 or not) is
  refused, or the resumed search gives the same answer as the untouched one;
* a certificate edited so that a premise fails is refused (exit 2) with and
  without ``--expected``, marker or no marker.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from verifier.cli import main
from verifier.errors import VerifierError
from verifier.search import search
from verifier.search.engine import SearchConfig

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "OPENBLAS_NUM_THREADS": "1"}
RNG = random.Random(20261123)
#: The fields of a search's JSON report that are its answer (not timings or paths).
ANSWER = (
    "claim", "status", "violated", "seed", "instances", "requested_instances", "batches",
    "best_ratio", "best_exact_ratio", "best_instance", "best_batch", "counterexample",
    "counterexample_instance", "counterexample_ratio", "found_batch", "shrink_steps",
)  # fmt: skip


def verifier(*args: str | Path, cwd: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "verifier", *map(str, args)],
        cwd=cwd,
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finish(proc: subprocess.Popen[str]) -> tuple[int, str, str]:
    out, err = proc.communicate(timeout=300)
    return proc.returncode, out, err


def answer(doc: dict[str, Any]) -> dict[str, Any]:
    return {k: doc[k] for k in ANSWER}


def kill_after(proc: subprocess.Popen[str], seconds: float) -> bool:
    """SIGKILL ``proc`` after ``seconds`` unless it ended first; True if killed."""
    try:
        proc.wait(timeout=seconds)
        return False
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGKILL)
        proc.communicate()
        return True


def kill_at_batch(proc: subprocess.Popen[str], checkpoint: Path, batch: int) -> bool:
    """SIGKILL ``proc`` as soon as its checkpoint records ``batch`` finished batches (it
    writes one after every batch), unless it ended first; True if killed.  The point
    is one of the search's own progress, not of the clock: on a loaded machine a kill
    timed from an earlier run's duration can land after the end of every run."""
    deadline = time.monotonic() + 300
    while proc.poll() is None:
        try:
            done = json.loads(checkpoint.read_text())["state"]["next_index"]
        except (OSError, ValueError, KeyError):  # not written yet (writes are atomic)
            done = -1
        if done >= batch or time.monotonic() > deadline:
            proc.send_signal(signal.SIGKILL)
            proc.communicate()
            return True
        time.sleep(0.002)
    proc.communicate()
    return False


@pytest.mark.parametrize(
    "claim,instances,trials",
    [
        # the longer search with two kills: `pytest -m slow` (.ci/run)
        pytest.param("ghazi2025.thm9", 2400, 2, marks=pytest.mark.slow),
        ("ghazi2025.thm9.non_monotone", 800, 1),
    ],
)
def test_search_killed_at_random_points_resumes_to_the_same_answer(
    tmp_path, claim, instances, trials
):
    base = tmp_path / "base"
    base.mkdir()
    args = ["search", claim, "--instances", str(instances), "--json", "--seconds", "0"]
    code, out, err = finish(verifier(*args, "--no-checkpoint", "--out", "c.toml", cwd=base))
    assert code in (0, 1), err
    expected = answer(json.loads(out))
    batches = expected["batches"]
    cert = (base / "c.toml").read_text() if code == 1 else None
    killed = 0
    for trial in range(trials):
        d = tmp_path / f"trial{trial}"
        d.mkdir()
        opts = ["--checkpoint", "ck.json", "--checkpoint-every", "0", "--out", "c.toml"]
        ck = d / "ck.json"
        proc = verifier(*args, *opts, cwd=d)
        # after a random number of batches in the first half of the search
        killed += kill_at_batch(proc, ck, RNG.randint(1, max(1, batches // 2)))
        if ck.exists():  # atomic writes: a complete checkpoint or none
            json.loads(ck.read_text())
            resume = ["--resume", "ck.json", *opts]
        else:
            resume = opts
        code2, out2, err2 = finish(verifier(*args, *resume, cwd=d))
        assert code2 == code, err2
        assert answer(json.loads(out2)) == expected
        if cert is not None:
            assert (d / "c.toml").read_text() == cert
    assert killed >= 1 or trials == 1  # a run was really interrupted


def test_casestudies_json_killed_leaves_nothing_or_everything(tmp_path):
    args = ["casestudies", "hartmann2022.def2", "--json", "--certificates", "certs"]
    base = tmp_path / "base"
    base.mkdir()
    t0 = time.monotonic()
    code, out, err = finish(verifier(*args, cwd=base))
    duration = time.monotonic() - t0
    assert code == 0, err

    def strip(doc: dict[str, Any]) -> dict[str, Any]:
        for c in doc["claims"]:
            c.pop("seconds", None)
            if c.get("certificate"):
                c["certificate"] = Path(c["certificate"]).name
        return doc

    expected = strip(json.loads(out))
    certs = sorted(p.name for p in (base / "certs").iterdir())
    assert certs
    d = tmp_path / "killed"
    d.mkdir()
    # one killed run (at a seeded random point), then a rerun in its directory
    with open(d / "out.json", "w") as fh:
        proc = subprocess.Popen(
            [sys.executable, "-m", "verifier", *args], cwd=d, env=ENV, stdout=fh,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        kill_after(proc, RNG.uniform(0.2, 1.0) * duration)  # type: ignore[arg-type]
    text = (d / "out.json").read_text()
    assert text == "" or strip(json.loads(text)) == expected
    for cert in (d / "certs").glob("*.toml") if (d / "certs").exists() else []:
        assert main(["check", "--expected", str(cert)]) == 0  # complete and valid
    # a rerun gives the same document and the same certificates
    with open(d / "out.json", "w") as fh:
        rc = subprocess.run(
            [sys.executable, "-m", "verifier", *args], cwd=d, env=ENV, stdout=fh,
            stderr=subprocess.DEVNULL, timeout=300,
        ).returncode  # fmt: skip
    assert rc == 0
    assert strip(json.loads((d / "out.json").read_text())) == expected
    assert sorted(p.name for p in (d / "certs").glob("*.toml")) == certs


# ---------------------------------------------------------------------------
# tampered checkpoints
# ---------------------------------------------------------------------------

CLAIM = "ghazi2025.thm9"


def _seal(doc: dict[str, Any]) -> dict[str, Any]:
    body = {k: v for k, v in doc.items() if k != "sha256"}
    canon = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return {**body, "sha256": hashlib.sha256(canon.encode()).hexdigest()}


def _leaves(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(node, dict) and node:
        return [p for k, v in node.items() for p in _leaves(v, (*prefix, k))]
    if isinstance(node, list) and node:
        return [p for i, v in enumerate(node) for p in _leaves(v, (*prefix, i))]
    return [prefix]


def _mutations(value: Any) -> list[Any]:
    if isinstance(value, bool):
        return [not value, 1]
    if isinstance(value, int):
        return [value + 1, value - 1, -value - 7, str(value), 10**40]
    if isinstance(value, float):
        return [value * 2 + 1, -1.0, 7.0]
    if isinstance(value, str):
        return [value + "x", "", 3]
    if value is None:
        return [0, "x", {"t": [1]}]
    return [None, [], {}]


def _resume(claim: str, instances: int, path: Path) -> dict[str, Any] | None:
    """The answer (with the certificate) of resuming from ``path`` as the CLI does,
    or None if refused."""
    out = path.parent / "cert.toml"  # the certificate names its file
    try:
        r = search(
            claim, instances=instances, seconds=None, seed=0, resume=path, out=out,
            checkpoint=path.with_suffix(".out.json"), config=SearchConfig(),
        )  # fmt: skip
    except VerifierError:
        return None
    return {**answer(r.to_dict()), "certificate": r.certificate_text}


def _interrupt_after(shrink_steps: int) -> Any:
    """A progress callback interrupting a search after that many shrinking reports."""
    seen = [0]

    def progress(info: Any) -> None:
        if info.phase == "shrink":
            seen[0] += 1
            if seen[0] > shrink_steps:
                raise KeyboardInterrupt

    return progress


@pytest.mark.parametrize("case", ["exhausted", "violated", "interrupted_while_shrinking"])
def test_a_checkpoint_edited_in_any_field_is_refused_or_harmless(tmp_path, case):
    ck = tmp_path / "ck.json"
    if case == "exhausted":  # 4 of 8 batches consumed, nothing found
        claim, instances = CLAIM, 640
        search(claim, instances=320, seconds=None, seed=0, checkpoint=ck)
    else:  # a counterexample found in batch 0, shrunk (or interrupted while shrinking)
        claim, instances = "ghazi2025.thm9.non_monotone", 80
        progress = _interrupt_after(2) if case != "violated" else None
        r = search(claim, instances=80, seconds=None, checkpoint=ck, progress=progress)
        assert r.status == ("violated" if case == "violated" else "interrupted")
    original = json.loads(ck.read_text())
    clean = tmp_path / "clean.json"
    clean.write_text(json.dumps(original))
    expected = _resume(claim, instances, clean)
    assert expected is not None and expected["instances"] == instances
    edits = [
        (path, value, reseal)
        for path in _leaves(original)
        if path != ("sha256",)
        for value in [
            v
            for v in _mutations(_get(original, path))
            if v != _get(original, path) or type(v) is not type(_get(original, path))
        ]
        + [_DELETE]
        for reseal in (False, True)
    ]
    if case != "exhausted":  # resuming a counterexample replays exact checks: a sample
        edits = RNG.sample([e for e in edits if e[2]], 24)
    refused = accepted = 0
    for path, value, reseal in edits:
        doc = copy.deepcopy(original)
        _set(doc, path, value)
        if reseal:
            doc = _seal(doc)
        f = tmp_path / "t.json"
        f.write_text(json.dumps(doc))
        got = _resume(claim, instances, f)
        if got is None:
            refused += 1
        else:
            accepted += 1
            assert got == expected, (path, value, reseal)
        if not reseal:
            assert got is None, (path, value)  # the seal catches every edit
    assert refused >= (100 if case == "exhausted" else 10)
    assert accepted >= 1 or case != "exhausted"  # e.g. a larger recorded budget is harmless


_DELETE = object()


def _get(doc: Any, path: tuple[Any, ...]) -> Any:
    for k in path:
        doc = doc[k]
    return doc


def _set(doc: Any, path: tuple[Any, ...], value: Any) -> None:
    for k in path[:-1]:
        doc = doc[k]
    if value is _DELETE:
        del doc[path[-1]]
    else:
        doc[path[-1]] = value


def test_a_locked_checkpoint_refuses_a_second_search(tmp_path):
    from verifier.search.checkpoints import lock_checkpoint

    ck = tmp_path / "ck.json"
    with lock_checkpoint(ck):
        code, _, err = finish(
            verifier("search", CLAIM, "--instances", "80", "--checkpoint", ck, cwd=tmp_path)
        )
        assert code == 2 and "in use by another search" in err
        with pytest.raises(VerifierError, match="in use by another search"):
            search(CLAIM, instances=80, seconds=None, resume=ck)
    assert search(CLAIM, instances=80, seconds=None, checkpoint=ck).status == "exhausted"
    assert search(CLAIM, instances=160, seconds=None, resume=ck).instances == 160


# ---------------------------------------------------------------------------
# tampered certificates
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def certificate_text(tmp_path_factory: pytest.TempPathFactory) -> str:
    out = tmp_path_factory.mktemp("cert") / "cert.toml"
    search("liu_talwar2019.B1.best_of_k_eps", seed=0, out=out, seconds=None)
    return out.read_text()


def _check(tmp_path: Path, text: str, *flags: str) -> int:
    f = tmp_path / "cert.toml"
    f.write_text(text)
    return main(["check", *flags, str(f)])


def test_a_genuine_certificate_reverifies(tmp_path, certificate_text, capsys):
    assert "[certificate]" in certificate_text
    assert _check(tmp_path, certificate_text) == 1
    assert _check(tmp_path, certificate_text, "--expected") == 0
    unmarked = re.sub(r"\[certificate\]\n(.*\n){2}", "", certificate_text)
    assert "[certificate]" not in unmarked
    assert _check(tmp_path, unmarked) == 1  # certificates written before the marker
    assert _check(tmp_path, unmarked, "--expected") == 0


@pytest.mark.parametrize("marked", [True, False])
@pytest.mark.parametrize("flags", [(), ("--expected",), ("--json",)])
def test_a_certificate_with_a_false_premise_is_invalid(
    tmp_path, certificate_text, capsys, marked, flags
):
    text = certificate_text
    if not marked:
        text = re.sub(r"\[certificate\]\n(.*\n){2}", "", text)
    for premise in ("M1", "M2"):
        broken = text.replace(
            f'mechanism = "{premise}"\nkind = "pure_dp"\nepsilon = "log(5/4)"',
            f'mechanism = "{premise}"\nkind = "pure_dp"\nepsilon = "log(21/20)"',
        )
        assert broken != text
        capsys.readouterr()
        assert _check(tmp_path, broken, *flags) == 2
        err = capsys.readouterr().err
        assert f"invalid certificate: premise premise-{premise} fails" in err


def test_a_certificate_whose_target_holds_is_invalid(tmp_path, certificate_text, capsys):
    head, _, tail = certificate_text.rpartition('epsilon = "log(5/4)"')
    assert _check(tmp_path, head + 'epsilon = "log(100)"' + tail) == 2
    assert "is not violated" in capsys.readouterr().err
