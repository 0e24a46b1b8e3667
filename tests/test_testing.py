"""The test helpers of :mod:`verifier.testing`: the hypothesis strategies give exactly
DP pairs, and the counterexample assertions pass and fail as they should."""

from __future__ import annotations

import pytest
import sympy as sp
from hypothesis import given, settings

from verifier.arithmetic.exact import Verdict
from verifier.checks.privacy import check_pure_dp
from verifier.search.spaces import is_dp
from verifier.testing import (
    assert_counterexample,
    assert_no_counterexample,
    dp_pairs,
    pair_mechs,
    query_vector_pairs,
    sensitivity_tables,
)

from .search.helpers import EXAMPLES


@settings(max_examples=40, deadline=None)
@given(dp_pairs(a=3))
def test_dp_pairs_strategy_is_exactly_eps_dp(m):
    assert check_pure_dp(m, epsilon=sp.log(3)).verdict is Verdict.HOLDS


@settings(max_examples=40, deadline=None)
@given(pair_mechs(), sensitivity_tables(), query_vector_pairs())
def test_strategies(pm, table, qp):
    assert is_dp(pm.p, pm.q, pm.a) and sum(pm.p) == sum(pm.q) == 1
    assert all(abs(a - b) <= 1 for a, b in zip(table["D"], table["D'"], strict=True))
    assert qp.q != qp.q2 and all(abs(a - b) <= 1 for a, b in zip(qp.q, qp.q2, strict=True))


def test_testing_helpers(tmp_path):
    r = assert_no_counterexample("liu_talwar2019.thm32", instances=200, seconds=None)
    assert r.best_ratio < 1
    with pytest.raises(AssertionError, match="exceeds"):
        assert_no_counterexample("liu_talwar2019.thm32", instances=200, seconds=None, max_ratio=0.1)
    with pytest.raises(AssertionError, match="counterexample found"):
        assert_no_counterexample("liu_talwar2019.thm32.two_eps", instances=200, seconds=None)
    r = assert_counterexample(
        EXAMPLES / "best_of_k.toml",
        claim_id="best-of-3-is-not-2eps-dp",
        instances=100,
        seconds=None,
        certificate=tmp_path / "c.toml",
    )
    assert (tmp_path / "c.toml").exists()
