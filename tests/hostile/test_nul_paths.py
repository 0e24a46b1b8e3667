"""A path with a NUL character (possible through the Python entry point, never through
a shell) is refused with one line naming the option, never an internal error (exit 4:
``ValueError: embedded null byte``)."""

from __future__ import annotations

import pytest

from verifier import cli

ARGVS = [
    ["casestudies", "liu_talwar2019.B1.best_of_k_Keps", "--certificates", "\x00"],
    ["check", "\x00"],
    ["check", "a\x00b.toml", "--json"],
    ["schema", "--validate", "\x00"],
    ["tradeoff", "repetition", "--plot", "a\x00.png"],
    ["export", "dp_testing", "-o", "\x00"],
]


@pytest.mark.parametrize("argv", ARGVS, ids=[a[0] for a in ARGVS])
def test_a_nul_in_a_path_is_refused_in_one_line(argv, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code = cli.main(argv)
    err = capsys.readouterr().err
    assert code == 2, err
    assert "NUL character" in err and "internal error" not in err
