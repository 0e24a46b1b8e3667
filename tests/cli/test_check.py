"""``verifier check``: the exit codes, the text and the JSON document, the bad input.

The console script runs in a subprocess (as a user would) for a spec that holds and
for bad-input files (one line on stderr, no traceback, from a whole process; the same
answer as in this process); every other case runs in-process
(:func:`~tests.cli.helpers.invoke`: the same exit code and text, without an
interpreter's start-up).
"""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from verifier import cli

from .helpers import EXAMPLES, NEAR_TIE, RR, answer, invoke, run

CLAIM = '\n[[claims]]\nid = "c"\nmechanism = "rr"\n'
SUM_09 = RR.replace(
    '"1" = "exp(eps)/(1+exp(eps))", "0" = "1/(1+exp(eps))"', '"1" = "1/2", "0" = "2/5"'
)

BAD_FILES = {
    "sum.toml": (SUM_09, "sums to 9/10"),
    "negative.toml": (
        RR.replace(
            '"1" = "exp(eps)/(1+exp(eps))", "0" = "1/(1+exp(eps))"', '"1" = "3/2", "0" = "-1/2"'
        ),
        "negative",
    ),
    "edge.toml": (
        '[graphs.g]\nkind = "edges"\ndatasets = ["a", "b"]\nedges = [["a", "z"]]\n',
        "unknown dataset 'z'",
    ),
    "order.toml": (
        RR.replace('outputs = ["0", "1"]', 'outputs = ["0"]'),
        "missing from the output order",
    ),
    "eps.toml": (RR + CLAIM + 'kind = "pure_dp"\nepsilon = "-1"\n', "epsilon must be > 0"),
    "alpha.toml": (RR + CLAIM + 'kind = "rdp"\nalpha = "1/2"\nepsilon = 1\n', "alpha must be > 1"),
    "delta.toml": (
        RR + CLAIM + 'kind = "approx_dp"\nepsilon = 1\ndelta = 2\n',
        "delta must lie in [0, 1]",
    ),
    "unparsable.toml": (
        RR.replace('"0" = "1/(1+exp(eps))"', '"0" = "1//"', 1),
        "distributions.D.0",
    ),
    "unbound.toml": (
        RR.replace('eps = "1/2"', 'eps = "1/2"\nt = { positive = true }')
        + CLAIM
        + 'kind = "pure_dp"\nepsilon = "2*t"\n',
        "no value",
    ),
    "syntax.toml": (RR + "\n[[claims]\n", "invalid TOML"),
    "syntax.json": ('{"graphs": ', "invalid JSON"),
    "unknown_key.toml": ("cliams = []\n" + RR, "did you mean 'claims'"),
    "unknown_mech.toml": (
        RR + CLAIM.replace('"rr"', '"qq"') + 'kind = "pure_dp"\nepsilon = 1\n',
        "unknown mechanism 'qq'",
    ),
    "unknown_graph.toml": (RR.replace('graph = "g"', 'graph = "q"'), "unknown graph 'q'"),
    "unknown_algo.toml": (
        RR + '[mechanisms.x]\nalgorithm = "nope"\ninputs = ["rr"]\n',
        "unknown algorithm 'nope'",
    ),
    "duplicate.toml": (RR + (CLAIM + 'kind = "pure_dp"\nepsilon = 1\n') * 2, "duplicate claim id"),
}


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("specs")
    for name, (text, _) in BAD_FILES.items():
        (d / name).write_text(text)
    (d / "near_tie.toml").write_text(NEAR_TIE)
    return d


def test_check_holds_exit_0():
    r = run("check", EXAMPLES / "randomized_response.toml")
    assert r.returncode == 0, r.stderr
    assert "rr-is-eps-dp" in r.stdout and "HOLDS" in r.stdout and "(attained exactly)" in r.stdout
    assert "6 claim(s): 6 hold, 0 violated, 0 undecided" in r.stdout
    # the in-process runner of the other tests answers as the console script does
    assert answer(invoke("check", EXAMPLES / "randomized_response.toml")) == answer(r)


def test_check_violated_exit_1_shows_the_counterexample():
    r = invoke("check", EXAMPLES / "best_of_k.toml")
    assert r.returncode == 1, r.stderr
    out = r.stdout
    assert "VIOLATED" in out and "counterexample: output 0, pair D' -> D" in out
    # The exact numbers: P_D'(0) = p^3, P_D(0) = (1-p)^3, bound e^{2 eps} P_D(0).
    assert "P_D'(0)" in out and "exp(3/2)/(1 + exp(1/2))**3" in out
    assert "P_D(0)" in out and "(1 + exp(1/2))**(-3)" in out
    assert "bound exp(eps(0)) * P_D(0)" in out and "claimed eps(0)" in out
    r = invoke("check", "--expected", EXAMPLES / "best_of_k.toml")
    assert r.returncode == 0, r.stdout + r.stderr


def test_check_json_is_one_document():
    r = invoke("check", "--json", EXAMPLES / "best_of_k.toml")
    assert r.returncode == 1
    doc = json.loads(r.stdout)  # nothing else on stdout
    assert doc["verdict"] == "violated" and doc["exit_code"] == 1
    assert doc["counts"] == {"holds": 2, "violated": 1, "undecided": 0}
    bad = [c for c in doc["claims"] if c["verdict"] == "violated"]
    assert [c["id"] for c in bad] == ["best-of-3-is-not-2eps-dp"]
    cex = bad[0]["counterexample"]
    assert cex["output"] == "0" and cex["pair"] == ["D'", "D"]
    assert cex["numbers"]["claimed eps(0)"]["exact"] == "1"
    assert bad[0]["result"]["worst"]["verdict"] == "violated"
    assert bad[0]["expected"] == "refuted" and bad[0]["matches_expected"] is True


def test_undecided_exit_3_at_low_precision(files):
    r = invoke("check", "--max-bits", "32", files / "near_tie.toml")
    assert r.returncode == 3, r.stdout + r.stderr
    assert "UNDECIDED" in r.stdout
    r = invoke("check", "--json", files / "near_tie.toml")  # default precision: decided
    assert r.returncode == 1
    assert json.loads(r.stdout)["verdict"] == "violated"


def _check_bad(name: str, code: int, stdout: str, stderr: str) -> None:
    assert code == 2, (name, stdout, stderr)
    assert "Traceback" not in stderr, name
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), (name, stderr)
    assert BAD_FILES[name][1] in lines[0], (name, lines[0])
    assert name in lines[0]  # the file is named
    assert stdout == ""


#: Bad files also run through the console script (all of them in-process, for speed).
SUBPROCESS_BAD = ["sum.toml", "edge.toml", "unparsable.toml", "syntax.json", "unbound.toml"]


def test_bad_input_files_exit_2_one_line_no_traceback(files):
    with ThreadPoolExecutor(max_workers=len(SUBPROCESS_BAD)) as pool:
        results = list(pool.map(lambda n: run("check", files / n), SUBPROCESS_BAD))
    for name, r in zip(SUBPROCESS_BAD, results, strict=True):
        _check_bad(name, r.returncode, r.stdout, r.stderr)
        assert answer(invoke("check", files / name)) == answer(r), name


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_every_bad_input_file_in_process(name, files, capsys):
    code = cli.main(["check", str(files / name)])
    out = capsys.readouterr()
    _check_bad(name, code, out.out, out.err)


def test_missing_file_and_bad_options(tmp_path):
    r = invoke("check", "--json", tmp_path / "nope.toml")
    assert r.returncode == 2 and "no such file" in r.stderr and "Traceback" not in r.stderr
    assert json.loads(r.stdout)["exit_code"] == 2
    r = invoke("check", "--max-bits", "8", EXAMPLES / "best_of_k.toml")
    assert (
        r.returncode == 2 and "argument --max-bits: must be an integer between 16 and" in r.stderr
    )


def test_code_injection_executes_nothing(tmp_path):
    marker = tmp_path / "pwned"
    spec = tmp_path / "inject.toml"
    payload = f"__import__('os').system('touch {marker}')"
    spec.write_text(RR.replace('"0" = "1/(1+exp(eps))"', f'"0" = {json.dumps(payload)}', 1))
    r = invoke("check", spec, cwd=tmp_path)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert not marker.exists()


def test_certificates_reverify(tmp_path):
    r = invoke("check", "--certificates", tmp_path, EXAMPLES / "best_of_k.toml")
    assert r.returncode == 1
    cert = tmp_path / "best-of-3-is-not-2eps-dp.toml"
    assert cert.exists() and f"certificate: {cert}" in r.stdout
    r = invoke("check", "--expected", cert)
    assert r.returncode == 0, r.stdout + r.stderr  # violated, as the certificate expects
    assert "VIOLATED" in r.stdout and "pair D' -> D" in r.stdout


def test_check_selected_claim_and_unknown_claim(capsys):
    path = str(EXAMPLES / "best_of_k.toml")
    assert cli.main(["check", path, "--claim", "best-of-3-is-3eps-dp"]) == 0
    assert "1 claim(s): 1 hold" in capsys.readouterr().out
    assert cli.main(["check", path, "--claim", "nope"]) == 2
    assert "no claim with id 'nope'" in capsys.readouterr().err
