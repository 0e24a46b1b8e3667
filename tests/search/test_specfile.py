"""Claims of spec files as searchable claims (:mod:`verifier.search.specfile`):
refuted with a certificate, surviving when true, on a pair and on a path graph."""

from __future__ import annotations

import pytest

from verifier.errors import SpecError
from verifier.search import search, spec_searchable

from .helpers import EXAMPLES, reverifies


def test_spec_file_claims(tmp_path):
    path = EXAMPLES / "best_of_k.toml"
    bad = spec_searchable(path, "best-of-3-is-not-2eps-dp")
    r = search(bad, instances=100, seed=0, seconds=None, out=tmp_path / "c.toml")
    assert r.violated
    reverifies((tmp_path / "c.toml").read_text(), "best-of-3-is-not-2eps-dp")
    good = spec_searchable(path, "best-of-3-is-3eps-dp")
    r = search(good, instances=200, seed=0, seconds=None)
    assert r.status == "exhausted" and r.best_ratio <= 1
    with pytest.raises(SpecError, match="choose one"):
        spec_searchable(path)


PATH_SPEC = """
[graphs.g]
kind = "path"
n = 2
[mechanisms.m]
graph = "g"
outputs = [0, 1, 2]
distributions."0" = { "0" = "1/2", "1" = "1/4", "2" = "1/4" }
distributions."1" = { "0" = "1/3", "1" = "1/3", "2" = "1/3" }
distributions."2" = { "0" = "1/4", "1" = "1/4", "2" = "1/2" }
[mechanisms.best]
algorithm = "best_of"
inputs = ["m", "m"]
[[claims]]
id = "group"
mechanism = "best"
kind = "pure_dp"
epsilon = "EPS"
distance = 2
"""


def test_spec_file_on_a_path_graph(tmp_path):
    # m is log(3/2)-DP on the path 0 ~ 1 ~ 2; best of two runs at distance 2 is
    # 2 * 2 * log(3/2) = log(81/16)-DP (group privacy and composition), attained.
    (tmp_path / "ok.toml").write_text(PATH_SPEC.replace("EPS", "log(81/16)"))
    r = search(spec_searchable(tmp_path / "ok.toml"), instances=400, seed=0, seconds=None)
    assert r.status == "exhausted" and 0.99 < r.best_ratio <= 1 + 1e-9
    (tmp_path / "bad.toml").write_text(PATH_SPEC.replace("EPS", "log(9/4)"))
    r = search(spec_searchable(tmp_path / "bad.toml"), instances=400, seed=0, seconds=None)
    assert r.violated
    reverifies(r.certificate_text, "group")
