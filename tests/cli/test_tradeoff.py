"""``verifier tradeoff``: Talwar 2025's Figure 1 from the command line."""

from __future__ import annotations

import json

import pytest

from verifier.cli import main


def test_cli_tradeoff_json(capsys):
    code = main(["tradeoff", "repetition", "--gamma", "1e-30", "2^-200", "--c", "2", "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0 and doc["verdict"] == "holds"
    (panel,) = doc["panels"]
    assert panel["gammas"][0] == "1/" + "1" + "0" * 30
    assert {p["algorithm"] for p in panel["points"]} >= {"A_max^100", "A_max^200"}


def test_cli_tradeoff_plot_and_table(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    out = tmp_path / "figure1.png"
    code = main(["tradeoff", "both", "--gamma", "1/1000", "1e-20", "--K", "3", "--plot", str(out)])
    text = capsys.readouterr().out
    assert code == 0 and out.exists()
    assert "repetition" in text and "metaselection (K = 3)" in text


@pytest.mark.parametrize(
    "argv",
    [
        ["tradeoff", "repetition", "--gamma", "2"],
        ["tradeoff", "repetition", "--gamma", "1/0"],
        ["tradeoff", "repetition", "--c", "1"],
        ["tradeoff", "metaselection", "--K", "1", "--gamma", "1/10"],
        ["tradeoff", "sideways"],
        # the lower-bound instances need eps > 0 (found by the option fuzzer: an
        # internal error before)
        ["tradeoff", "repetition", "--gamma", "1/100", "--eps", "-1", "--K", "2"],
        ["tradeoff", "repetition", "--gamma", "1/100", "--eps", "0"],
    ],
)
def test_cli_tradeoff_bad_input(argv, capsys):
    assert main(argv) == 2
