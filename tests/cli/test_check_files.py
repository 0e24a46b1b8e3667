"""``verifier check`` with several files (as the pre-commit hook passes them) and the
hook's declaration."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from verifier import cli

ROOT = Path(__file__).resolve().parents[2]
REPO = ROOT / "tests" / "plugin" / "repo" / "claims"
GOOD, BAD = REPO / "randomized_response.toml", REPO / "best_of_three.toml"


def test_every_file_is_checked_and_the_worst_code_wins(tmp_path, capsys):
    assert cli.main(["check", "--expected", str(GOOD), str(GOOD)]) == 0
    assert cli.main(["check", "--expected", str(GOOD), str(BAD)]) == 1
    out = capsys.readouterr().out
    assert out.count("claim rr-is-log3-dp (") == 3 and "claim best-of-3-is-log3-dp (" in out
    missing = tmp_path / "missing.toml"
    assert cli.main(["check", "--expected", str(BAD), str(missing), str(GOOD)]) == 2
    captured = capsys.readouterr()
    assert f"error: {missing}: no such file" in captured.err
    assert "rr-is-not-1-dp" in captured.out  # the files after the bad one are checked


def test_json_with_several_files_is_one_document(capsys):
    assert cli.main(["check", "--expected", "--json", str(GOOD), str(BAD)]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["exit_code"] == 1
    assert [f["file"] for f in doc["files"]] == [str(GOOD), str(BAD)]
    assert [f["exit_code"] for f in doc["files"]] == [0, 1]


def test_claim_selects_in_one_file_only(capsys):
    assert cli.main(["check", "--claim", "x", str(GOOD), str(BAD)]) == 2
    assert "single file" in capsys.readouterr().err


def test_the_pre_commit_hook_runs_check_expected_on_spec_files():
    yaml = pytest.importorskip("yaml", reason="PyYAML reads .pre-commit-hooks.yaml")
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    (hook,) = hooks
    assert hook["id"] == "verifier-check" and hook["language"] == "python"
    assert hook["entry"].split() == ["verifier", "check", "--expected"]
    files = re.compile(hook["files"])
    assert files.search("claims/thm3.toml") and files.search("claims/a.json")
    assert not files.search("pyproject.toml")
