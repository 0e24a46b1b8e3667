"""``verifier casestudies --coverage``: the statement tables, as Markdown and JSON."""

from __future__ import annotations

import json

from verifier import cli


def test_coverage_markdown_and_json(capsys):
    assert cli.main(["casestudies", "--coverage", "talwar2025"]) == 0
    out = capsys.readouterr().out
    assert "## `talwar2025`" in out and "| Theorem 7 |" in out and "ghazi2025" not in out
    assert cli.main(["casestudies", "--coverage", "--json"]) == 0
    rec = json.loads(capsys.readouterr().out)
    papers = {p["paper"] for p in rec["papers"]}
    assert {"ghazi2025", "liu_talwar2019", "talwar2025", "hartmann2022"} <= papers


def test_coverage_of_an_unknown_paper_is_bad_input(capsys):
    assert cli.main(["casestudies", "--coverage", "nobody2020"]) == 2
    assert "no coverage registered for 'nobody2020'" in capsys.readouterr().err
