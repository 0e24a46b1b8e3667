"""``verifier casestudies``: the real case studies through the console script (the
listing) and in-process (:func:`~tests.cli.helpers.invoke`), and registry corner
cases in-process with a patched registry."""

from __future__ import annotations

import gc
import json

import pytest
import sympy as sp

from verifier import cli
from verifier.arithmetic.exact import Verdict
from verifier.checks.results import CheckResult
from verifier.claims import Registry
from verifier.cli import casestudies

from .helpers import answer, invoke, run


def test_casestudies_list_and_unknown_name():
    r = run("casestudies", "--list")
    assert r.returncode == 0, r.stderr
    assert answer(invoke("casestudies", "--list")) == answer(r)
    r = invoke("casestudies", "no-such-study")
    assert r.returncode == 2 and "no-such-study" in r.stderr and "Traceback" not in r.stderr


def _registry(ok: bool) -> Registry:
    reg = Registry()

    @reg.claim(id="demo.c", source="none", statement="s", expected="holds", casestudy="demo")
    def _c() -> CheckResult:
        return CheckResult("t", Verdict.HOLDS if ok else Verdict.VIOLATED)

    return reg


def test_casestudies_exit_codes_in_process(monkeypatch, capsys):
    monkeypatch.setattr(casestudies, "_registry", lambda: _registry(True))
    assert cli.main(["casestudies"]) == 0
    assert "1 of 1 claims match" in capsys.readouterr().out
    assert cli.main(["casestudies", "--list"]) == 0
    assert "demo.c" in capsys.readouterr().out
    assert cli.main(["casestudies", "--json", "demo"]) == 0
    assert json.loads(capsys.readouterr().out)["matched"] == 1
    monkeypatch.setattr(casestudies, "_registry", lambda: _registry(False))
    assert cli.main(["casestudies"]) == 1
    assert "MISMATCH" in capsys.readouterr().out
    assert cli.main(["casestudies", "other"]) == 2
    assert capsys.readouterr().err.startswith("error: no case study or claim named 'other'")


def test_casestudies_with_nothing_registered(monkeypatch, capsys):
    monkeypatch.setattr(casestudies, "_registry", lambda: Registry())
    assert cli.main(["casestudies"]) == 0
    assert "no case-study claims are registered" in capsys.readouterr().out
    assert cli.main(["casestudies", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 0
    assert cli.main(["casestudies", "ghazi2025"]) == 2


def test_a_renamed_id_runs_with_one_line_of_deprecation(capsys):
    assert cli.main(["casestudies", "liu_talwar2019.thm32.2eps"]) == 0
    cap = capsys.readouterr()
    assert cap.err.splitlines() == [
        "warning: claim id 'liu_talwar2019.thm32.2eps' is deprecated; "
        "use 'liu_talwar2019.thm32.two_eps'"
    ]
    assert "liu_talwar2019.thm32.two_eps" in cap.out


@pytest.mark.slow  # the claims decided twice as subprocesses (tests/test_executors.py): `pytest -m slow` (.ci/run)
def test_casestudies_in_worker_processes_match_the_serial_run(capsys, tmp_path):
    names = ["hartmann2022.lemma8", "ghazi2025.thm10"]  # thm10.bottom_zero is refuted
    docs, certs = [], []
    frozen = gc.get_freeze_count()
    for extra in ([], ["-j", "2"]):
        out = tmp_path / f"certs{len(docs)}"
        assert cli.main(["casestudies", *names, "--json", "--certificates", str(out), *extra]) == 0
        # the heap frozen while the workers ran is handed back to the collector
        assert gc.get_freeze_count() == frozen
        docs.append(json.loads(capsys.readouterr().out))
        for c in docs[-1]["claims"]:
            c.pop("seconds")
            c.pop("certificate")
        certs.append({p.name: p.read_bytes() for p in out.iterdir()})
    assert docs[0] == docs[1] and docs[0]["total"] >= 4
    assert certs[0] == certs[1] and len(certs[0]) >= 1
    assert cli.main(["casestudies", *names, "-j", "0"]) == 2
    assert (
        "argument -j/--jobs: must be 'auto' or an integer between 1 and" in capsys.readouterr().err
    )


def _interrupted_registry(stop_at: str | None) -> Registry:
    """Three claims; deciding ``stop_at`` raises KeyboardInterrupt (Ctrl-C)."""
    reg = Registry()
    for name in ("c1", "c2", "c3"):

        def decide(name: str = name) -> CheckResult:
            if name == stop_at:
                raise KeyboardInterrupt
            return CheckResult(name, Verdict.HOLDS)

        reg.claim(
            id=f"demo.{name}", source="none", statement="s", expected="holds", casestudy="demo"
        )(decide)
    return reg


def test_ctrl_c_prints_what_was_decided_and_how_to_continue(monkeypatch, capsys):
    monkeypatch.setattr(casestudies, "_registry", lambda: _interrupted_registry("c2"))
    assert cli.main(["casestudies", "demo"]) == 130
    cap = capsys.readouterr()
    rows = [line.split()[0] for line in cap.out.splitlines() if line.startswith("demo.")]
    assert rows == ["demo.c1"]
    assert "1 of 1 claims match" in cap.out
    assert cap.err.strip() == (
        "interrupted: 1 of 3 claims decided, 2 not; to decide the rest: "
        "verifier casestudies demo --after demo.c1"
    )
    assert cli.main(["casestudies", "demo", "--json"]) == 130
    doc = json.loads(capsys.readouterr().out)
    assert doc["interrupted"] is True and doc["remaining"] == ["demo.c2", "demo.c3"]
    assert [c["id"] for c in doc["claims"]] == ["demo.c1"]
    # the hint continues the run: nothing is decided twice, nothing skipped
    monkeypatch.setattr(casestudies, "_registry", lambda: _interrupted_registry(None))
    assert cli.main(["casestudies", "demo", "--after", "demo.c1", "--json"]) == 0
    assert [c["id"] for c in json.loads(capsys.readouterr().out)["claims"]] == [
        "demo.c2",
        "demo.c3",
    ]
    assert cli.main(["casestudies", "demo", "--after", "demo.nope"]) == 2
    assert "--after demo.nope" in capsys.readouterr().err


def test_the_table_says_where_the_worst_slack_is(monkeypatch, capsys):
    from verifier.checks.privacy import check_pure_dp
    from verifier.mechanism.model import FiniteMechanism
    from verifier.mechanism.neighbours import pair

    half, quarter = sp.Rational(1, 2), sp.Rational(1, 4)
    mech = FiniteMechanism(
        pair(), {"D": {"a": half, "b": half}, "D'": {"a": quarter, "b": 1 - quarter}}
    )
    # eps(a, D -> D') = log 2 is the largest loss (log(3/2) for b, D' -> D; the others
    # are negative): with the claim eps = log 2 the worst slack, 0, is there
    reg = Registry()
    reg.claim(id="demo.rr", source="none", statement="s", expected="holds", casestudy="demo")(
        lambda: check_pure_dp(mech, epsilon=sp.log(2))
    )
    monkeypatch.setattr(casestudies, "_registry", lambda: reg)
    assert cli.main(["casestudies"]) == 0
    out = capsys.readouterr().out
    header, _, row = out.splitlines()[:3]
    at = header.index(" at ") + 1
    assert row[at:].split("  ")[0] == "o=a, D -> D'"
    assert "0 (attained)" in row


@pytest.mark.slow  # three subprocesses of a few seconds each: `pytest -m slow` (.ci/run)
def test_the_json_document_does_not_depend_on_the_string_hash_seed():
    """Claims whose titles name sets of datasets (Algorithm 1 on add/remove graphs) and
    a box claim: the same document, timings aside, under three PYTHONHASHSEEDs (a
    frozenset's repr follows the process's string hashes)."""
    import os

    names = ["ghazi2025.thm8.step.eq2", "ghazi2025.thm8.step.bottom_closed_form"]
    docs = []
    for seed in ("1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        r = run("casestudies", "--json", *names, "ghazi2025.thm9.box", env=env)
        assert r.returncode == 0, r.stderr[-2000:]
        doc = json.loads(r.stdout)
        for c in doc["claims"]:
            c.pop("seconds")
        docs.append(json.dumps(doc["claims"], sort_keys=True))
    assert "{a}" in docs[0] and docs[0] == docs[1] == docs[2]


def test_exact_ids_run_the_named_claims_alone(capsys):
    """``--exact-ids``: ``ghazi2025.thm8`` without the claims registered under it; a
    case-study name is refused, and so is ``--coverage`` beside it."""
    assert cli.main(["casestudies", "ghazi2025.thm8", "--list", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["casestudies"]
    under = [c["id"] for cs in listed for c in cs["claims"]]
    assert "ghazi2025.thm8" in under and len(under) > 1
    assert cli.main(["casestudies", "ghazi2025.thm8", "--exact-ids", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [c["id"] for c in doc["claims"]] == ["ghazi2025.thm8"] and doc["matched"] == 1
    assert cli.main(["casestudies", "ghazi2025", "--exact-ids"]) == 2
    assert "'ghazi2025' is a case study or paper" in capsys.readouterr().err
    assert cli.main(["casestudies", "ghazi2025", "--coverage", "--exact-ids"]) == 2
    assert "--coverage prints whole papers" in capsys.readouterr().err


def test_jobs_default_to_one_worker_per_core_and_yield_to_the_environment(monkeypatch):
    from verifier.claims import load_casestudies
    from verifier.errors import BadInput
    from verifier.runtime import executors

    reg = load_casestudies()
    points = [c for c in reg.select(["ghazi2025.thm8"]) if c.domain is None][:3]
    box = [c for c in reg.claims.values() if c.domain is not None][:1]
    assert len(points) >= 3 and all(c.domain is None for c in points) and box
    monkeypatch.setattr(executors, "usable_cores", lambda: 4)
    monkeypatch.delenv(casestudies.JOBS_ENV, raising=False)
    jobs = casestudies.jobs
    # auto: a worker per claim about points, up to the cores; a box keeps them all busy
    assert jobs(None, None, points[:2], 256) == 2
    assert jobs(None, None, points, 256) == 3
    assert jobs("auto", None, points[:1] + box, 256) == 4
    assert jobs(None, None, points, 2) == 2  # --max-workers caps it
    # claims that are not the installed registry's cannot travel by id: this process
    foreign = _registry(True).select(None)
    assert jobs(None, None, foreign + points, 256) == 1
    # an explicit number is kept; the default yields to --dask, an explicit auto does not
    assert jobs(3, None, points, 256) == 3
    assert jobs(None, "local:2", points, 256) == 1
    with pytest.raises(BadInput, match="either local worker processes"):
        jobs("auto", "local:2", points, 256)
    # the environment variable sets the default, never over -j
    for raw, n in (("1", 1), (" 2 ", 2), ("auto", 3), ("", 3)):
        monkeypatch.setenv(casestudies.JOBS_ENV, raw)
        assert jobs(None, None, points, 256) == n
        assert jobs(5, None, points, 256) == 5
    for bad in ("0", "two", "-1", "1e9"):
        monkeypatch.setenv(casestudies.JOBS_ENV, bad)
        with pytest.raises(BadInput, match=f"environment variable VERIFIER_JOBS: .*{bad!r}"):
            jobs(None, None, points, 256)


def test_the_default_run_uses_worker_processes_with_the_serial_outcomes(monkeypatch, capsys):
    """``verifier casestudies`` without -j on two cores forks two workers; its document
    is the one of ``-j 1``, timings aside (the ids select their children too)."""
    from verifier.runtime import executors

    names = ["ghazi2025.thm8", "talwar2025.prop3", "liu_talwar2019.thm31.a_proportional"]
    monkeypatch.setattr(executors, "usable_cores", lambda: 2)
    monkeypatch.delenv(casestudies.JOBS_ENV, raising=False)
    pools = []
    real_pool = executors.local_pool

    def counted(n):
        pools.append(n)
        return real_pool(n)

    monkeypatch.setattr(executors, "local_pool", counted)
    docs = []
    for extra in ([], ["-j", "1"]):
        assert cli.main(["casestudies", *names, "--json", *extra]) == 0
        doc = json.loads(capsys.readouterr().out)
        for c in doc["claims"]:
            c.pop("seconds")
        docs.append(doc)
    assert pools == [2]
    assert docs[0] == docs[1] and docs[0]["total"] >= 3
