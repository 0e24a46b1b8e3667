"""``verifier export dp_testing``: the suite as one JSON document.

The subcommand comes through the ``verifier.commands`` entry point; the tests register
it explicitly (an editable install made before the entry point existed does not list
it), and run it once through an explicit Python call in a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from casestudies.dp_testing.command import COMMAND, export_document, export_entry
from casestudies.dp_testing.products import ENTRIES
from verifier.cli import main
from verifier.cli.app import COMMANDS

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def export(monkeypatch):
    monkeypatch.setitem(COMMANDS, "export", COMMAND)

    def run(*argv: str) -> int:
        return main(["export", *argv])

    return run


def test_every_entry_has_its_exact_epsilon_and_verdict():
    # the entries of this module (the other modules' entries are decided in their tests)
    doc = export_document(ENTRIES)
    json.dumps(doc)
    for rec in doc["entries"]:
        assert rec["exact_epsilon"] and rec["per_pair"] and rec["pairs"]
        assert rec["verdict"] == ("holds" if rec["expected"] == "holds" else "violated")
        assert isinstance(rec["exact_epsilon_approx"], float | str)
        assert rec["distributions"]["inputs"]


def test_an_entry_without_export_gets_name_claim_exact_epsilon_and_pairs():
    entry = next(e for e in ENTRIES if e.name == "laplace_parallel")
    rec = export_entry(replace(entry, export=None))
    assert rec["name"] == "laplace_parallel" and rec["claimed"] == "1/10"
    assert rec["exact_epsilon"] == "1/10" and rec["exact_epsilon_approx"] == 0.1
    assert rec["pairs"].startswith("PatternGenerator") and "distributions" not in rec


def test_an_entry_out_of_reach_is_exported_with_its_reason():
    entry = next(e for e in ENTRIES if e.name == "noisy_hist1")
    rec = export_entry(replace(entry, exact=None, out_of_reach="no model of it"))
    assert rec["out_of_reach"] == "no model of it" and "exact_epsilon" not in rec


def test_export_to_stdout(export, capsys):
    assert export("dp_testing", "--format", "json", "--only", "rappor", "noisy_hist2") == 0
    doc = json.loads(capsys.readouterr().out)
    assert [e["name"] for e in doc["entries"]] == ["noisy_hist2", "rappor"]
    rappor = doc["entries"][1]
    assert rappor["exact_epsilon"] == "6*log(41/39)"
    assert abs(rappor["exact_epsilon_approx"] - 0.30006) < 1e-5
    assert doc["entries"][0]["exact_epsilon"] == "10"


def test_export_to_a_file_is_atomic_and_complete(export, tmp_path, capsys):
    out = tmp_path / "suite.json"
    out.write_text("old")
    assert export("dp_testing", "-o", str(out), "--only", "truncated_geometric_mechanism") == 0
    assert capsys.readouterr().out == ""
    doc = json.loads(out.read_text())
    (geo,) = doc["entries"]
    assert geo["exact_epsilon"] == "log(9/8)" and geo["claimed"] == "log(9/8)"
    law = geo["distributions"]["inputs"]["(0)"][0]["distribution"]
    assert law["0"] == "9/17" and law["5"] == "32768/111537"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["suite.json"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["dp_testing", "--only", "no_such_mechanism"], "no entry named no_such_mechanism"),
        (["dp_testing", "--format", "csv"], "invalid choice"),
        (["no_such_casestudy"], "invalid choice"),
        (["dp_testing", "-o", "/nonexistent-dir/x.json"], "does not exist"),
    ],
)
def test_bad_arguments_exit_2_with_one_error_line(export, capsys, argv, message):
    assert export(*argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and "Traceback" not in err


def test_a_directory_as_output_is_refused(export, tmp_path, capsys):
    assert export("dp_testing", "-o", str(tmp_path)) == 2
    assert "is a directory" in capsys.readouterr().err


def test_the_command_through_an_explicit_python_call(tmp_path):
    out = tmp_path / "x.json"
    code = (
        "import sys\n"
        "from verifier.cli import main\n"
        "from verifier.cli.app import register_command\n"
        "from casestudies.dp_testing.command import COMMAND\n"
        "register_command(COMMAND)\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    argv = ["export", "dp_testing", "--only", "laplace_parallel", "-o", str(out)]
    proc = subprocess.run(
        [sys.executable, "-c", code, *argv],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr
    (rec,) = json.loads(out.read_text())["entries"]
    assert rec["exact_epsilon"] == "1/10" and len(rec["distributions"]["inputs"]["(1)"]) == 20
