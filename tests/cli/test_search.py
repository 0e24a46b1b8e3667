"""``verifier search`` from the command line.

The false claims are refuted from the command line and their certificates
re-verified by ``verifier check`` (exit 1; ``--expected``: exit 0); a search killed
with SIGKILL and resumed from its checkpoint ends with the answer of an
uninterrupted one.  The console script runs in a subprocess for a refutation with
the text output, for the refutations run side by side and for the kill; the other
command lines run in-process (:func:`~tests.cli.helpers.invoke`: the same exit code
and text, without an interpreter's start-up).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from .helpers import BASE, EXAMPLES, answer, invoke, run

#: The four claims the search must refute (plus Lyu et al.'s Algorithm 5).
REFUTE = [
    "ghazi2025.thm11.no_factor2",
    "ghazi2025.thm9.non_monotone",
    "liu_talwar2019.thm32.two_eps",
    "liu_talwar2019.B1.best_of_k_eps",
    "lyu2017.alg5",
]


Runner = Callable[..., subprocess.CompletedProcess[str]]


def search_cmd(
    *args: str | Path, cwd: Path | None = None, via: Runner = invoke
) -> subprocess.CompletedProcess[str]:
    """``verifier search ARGS``: in-process, or in a subprocess with ``via=run``."""
    return via("search", *args, cwd=cwd)


def check_cmd(*args: str | Path, via: Runner = invoke) -> subprocess.CompletedProcess[str]:
    """``verifier check ARGS``: in-process, or in a subprocess with ``via=run``."""
    return via("check", *args)


def _refute(claim: str, tmp: Path) -> tuple[dict, int, int, float]:
    cert = tmp / f"{claim}.toml"
    t0 = time.monotonic()
    # in threads side by side: subprocesses (invoke() swaps this process's streams)
    r = search_cmd(claim, "--seed", "0", "--out", cert, "--json", "--no-checkpoint", via=run)
    took = time.monotonic() - t0
    assert r.returncode == 1, r.stderr
    doc = json.loads(r.stdout)
    checked = check_cmd(cert, via=run)
    expected = check_cmd("--expected", cert, via=run)
    return doc, checked.returncode, expected.returncode, took


@pytest.mark.slow  # three searches as subprocesses (the engine's refutations: tests/search): `pytest -m slow` (.ci/run)
def test_cli_refutes_the_false_claims(tmp_path):
    with ThreadPoolExecutor(2) as ex:
        outs = list(ex.map(lambda c: _refute(c, tmp_path), REFUTE))
    for claim, (doc, checked, expected, took) in zip(REFUTE, outs, strict=True):
        assert doc["status"] == "violated" and doc["exit_code"] == 1
        assert doc["certificate"] == str(tmp_path / f"{claim}.toml")
        assert checked == 1, f"verifier check on the certificate of {claim}"
        assert expected == 0, f"verifier check --expected on the certificate of {claim}"
        assert took < 60


def test_cli_true_theorem_survives(tmp_path):
    r = search_cmd("liu_talwar2019.thm32", "--instances", "1200", "--json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["status"] == "exhausted" and doc["best_ratio"] <= 1
    # a finished search removes its checkpoint (nothing to resume) ...
    assert not (tmp_path / "liu_talwar2019.thm32.search-checkpoint.json").exists()
    assert doc["checkpoint"] is None
    assert not (tmp_path / "liu_talwar2019.thm32.counterexample.toml").exists()
    # ... unless asked to keep it
    r = search_cmd(
        "liu_talwar2019.thm32", "--instances", "400", "--keep-checkpoint", "--json", cwd=tmp_path
    )
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "liu_talwar2019.thm32.search-checkpoint.json").exists()


def test_cli_text_output_and_default_certificate(tmp_path):
    # the console script for one search (the other command lines run in-process)
    args = ("liu_talwar2019.B1.best_of_k_eps", "--instances", "100")
    r = search_cmd(*args, cwd=tmp_path, via=run)
    assert r.returncode == 1
    assert "VIOLATED" in r.stdout and "certificate:" in r.stdout
    cert = tmp_path / "liu_talwar2019.B1.best_of_k_eps.counterexample.toml"
    assert check_cmd(cert).returncode == 1
    text = cert.read_text()
    # in-process: the same answer (but the wall-clock time), the same certificate
    again = search_cmd(*args, cwd=tmp_path)
    assert answer(again)[::2] == answer(r)[::2]
    clock = re.compile(r"\(\d+(\.\d+)?s, ")
    assert clock.search(r.stdout) and clock.sub("", again.stdout) == clock.sub("", r.stdout)
    assert cert.read_text() == text


def test_cli_spec_file(tmp_path):
    spec = EXAMPLES / "best_of_k.toml"
    cert = tmp_path / "c.json"
    r = search_cmd(spec, "--claim", "best-of-3-is-not-2eps-dp", "--out", cert, "--no-checkpoint")
    assert r.returncode == 1, r.stderr
    assert json.loads(cert.read_text())["claims"][-1]["expected"] == "refuted"
    assert check_cmd(cert).returncode == 1
    r = search_cmd(spec, "--claim", "best-of-3-is-3eps-dp", "--no-checkpoint", "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["status"] == "exhausted"


def test_cli_list_and_bad_input(tmp_path):
    r = search_cmd("--list", "--json")
    ids = {c["id"] for c in json.loads(r.stdout)["claims"]}
    assert set(REFUTE) <= ids and "ghazi2025.thm11" in ids
    assert "ghazi2025.thm13" in search_cmd("--list").stdout
    for args in (
        ["no.such.claim"],
        [EXAMPLES / "best_of_k.toml"],  # several claims: --claim needed
        [tmp_path / "missing.toml"],
        ["ghazi2025.thm8", "--workers", "0"],
        ["ghazi2025.thm8", "--claim", "x"],
        [],
    ):
        r = search_cmd(*args, cwd=tmp_path)
        assert r.returncode == 2, (args, r.stdout, r.stderr)
        assert r.stderr.startswith("error:") and "Traceback" not in r.stderr
    r = search_cmd("no.such.claim", "--json", cwd=tmp_path)
    assert r.returncode == 2 and "error" in json.loads(r.stdout)


@pytest.mark.slow  # a search killed and resumed as subprocesses (tests/hostile/test_durability.py keeps one in the default run): `pytest -m slow` (.ci/run)
@pytest.mark.skipif(os.name != "posix", reason="SIGKILL")
def test_cli_killed_and_resumed_search_ends_with_the_same_answer(tmp_path):
    claim, args = "lyu2017.alg1", ["--seed", "1", "--instances", "1800", "--json"]
    ck = tmp_path / "ck.json"
    proc = subprocess.Popen(
        [
            *BASE,
            "search",
            claim,
            *args,
            "--checkpoint",
            ck,
            "--checkpoint-every",
            "0",
            "--keep-checkpoint",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if json.loads(ck.read_text())["state"]["next_index"] >= 2:
                break
        except (OSError, ValueError, KeyError):
            pass
        time.sleep(0.02)
    killed = proc.poll() is None
    if killed:
        proc.send_signal(signal.SIGKILL)
    proc.wait()
    state = json.loads(ck.read_text())["state"]
    if killed:
        assert not state["done"]
    resumed = search_cmd("--resume", ck, "--json", cwd=tmp_path, via=run)
    straight = search_cmd(claim, *args, "--no-checkpoint", cwd=tmp_path, via=run)
    assert resumed.returncode == straight.returncode == 0, resumed.stderr
    a, b = json.loads(resumed.stdout), json.loads(straight.stdout)
    for d in (a, b):
        assert "elapsed" not in d
        d.pop("checkpoint")
    assert a == b


def test_timings_are_only_added_on_request(tmp_path, monkeypatch, capsys):
    """Without --timings the --json document has no clock in it: two runs print the
    same bytes; --timings adds `elapsed` (after `batches`) and changes nothing else."""
    from verifier import cli

    monkeypatch.chdir(tmp_path)
    args = ["search", "liu_talwar2019.thm32", "--instances", "200", "--seed", "5", "--json"]
    texts = []
    for extra in ([], [], ["--timings"]):
        assert cli.main([*args, "--no-checkpoint", *extra]) == 0
        texts.append(capsys.readouterr().out)
    assert texts[0] == texts[1] and '"elapsed"' not in texts[0]
    plain, timed = json.loads(texts[0]), json.loads(texts[2])
    assert isinstance(timed.pop("elapsed"), float) and timed == plain
    keys = list(json.loads(texts[2]))
    assert keys[keys.index("batches") + 1] == "elapsed"


def test_a_claim_name_too_long_for_a_file_name_is_an_unknown_claim(capsys):
    # found by the option fuzzer: Path.exists() raised ENAMETOOLONG (an internal error)
    from verifier.cli import main

    assert main(["search", "x" * 300, "--instances", "10"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: no claim 'xxx") and err.count("\n") == 1
