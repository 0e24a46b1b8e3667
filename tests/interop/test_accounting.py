"""dp_accounting: events imported exactly, exact pairs exported to a PLD, and the
accountants' figures checked against the exact values (skipped without the
``interop`` extra)."""

from __future__ import annotations

import importlib
import json
import math
import sys
from importlib.util import find_spec

import pytest
import sympy as sp

from verifier import cli
from verifier.algorithms.liu_talwar import SCORES
from verifier.algorithms.repeat_select import repeat_and_select
from verifier.arithmetic.exact import Verdict, decide_eq, decide_le
from verifier.errors import InvalidParameter, MissingDependency
from verifier.interop.accounting import from_dp_event, require, to_pld
from verifier.interop.compare import compare
from verifier.interop.exact import epsilon_for_delta, exact_float
from verifier.mechanism.instances import randomized_response

# dp_accounting is imported by the tests (the fixtures below), not at collection (more
# than a second on every worker), and the module's tests share one worker (`--dist
# loadgroup` in the pytest addopts), so one worker imports it
pytestmark = [
    pytest.mark.skipif(
        find_spec("dp_accounting") is None,
        reason="dp_accounting is not installed (pip install 'verifier[interop]')",
    ),
    pytest.mark.xdist_group("dp_accounting"),
]


@pytest.fixture(scope="module")
def dpa():
    """The ``dp_accounting`` package."""
    return importlib.import_module("dp_accounting")


@pytest.fixture(scope="module")
def E(dpa):  # noqa: N802 - the events module, as dp_accounting's own examples name it
    """``dp_accounting.dp_event``."""
    return dpa.dp_event


R = sp.Rational


@pytest.mark.parametrize(("p", "k"), [(0.5, 2), (0.25, 3), (0.75, 5)])
def test_randomized_response_event_imports_exactly(p, k, E):
    m = from_dp_event(E.RandomizedResponseDpEvent(p, k))
    pe = exact_float(p)
    assert m.p("D", k - 1) == 1 - pe + pe / k and m.p("D", 0) == pe / k
    value = epsilon_for_delta(m, delta=0).value
    assert decide_eq(value, sp.log((k - (k - 1) * pe) / pe)) is Verdict.HOLDS


def test_discrete_laplace_event_imports_with_the_same_loss(E, dpa):
    m = from_dp_event(E.DiscreteLaplaceDpEvent(math.log(2), 3))
    a = exact_float(math.log(2))
    value = epsilon_for_delta(m, delta=0).value
    assert decide_eq(value, 3 * a) is Verdict.HOLDS
    # dp_accounting's own PLD of the mechanism and the PLD of the exact finite form
    # agree (up to the discretisation)
    own = dpa.pld.privacy_loss_distribution.from_discrete_laplace_mechanism(math.log(2), 3)
    for delta in (1e-3, 1e-6):
        ev = own.get_epsilon_for_delta(delta)
        ex = to_pld(m).get_epsilon_for_delta(delta)
        assert abs(ev - ex) < 1e-3


def test_repeat_and_select_events_import_as_the_exact_transformer(E):
    rr = from_dp_event(E.RandomizedResponseDpEvent(0.5, 2))
    geo = from_dp_event(E.RepeatAndSelectDpEvent(E.RandomizedResponseDpEvent(0.5, 2), 10.0, 1))
    assert geo.distribution("D") == repeat_and_select(
        rr, "geometric", 10, SCORES["self"]
    ).distribution("D")
    poi = from_dp_event(
        E.RepeatAndSelectDpEvent(E.RandomizedResponseDpEvent(0.5, 2), 4.0, math.inf)
    )
    assert poi.p("D", "⊥") == sp.exp(-4)
    with pytest.raises(InvalidParameter, match="transcendental"):
        from_dp_event(E.RepeatAndSelectDpEvent(E.RandomizedResponseDpEvent(0.5, 2), 10.0, 0.5))


def test_compositions_import_as_independent_runs(E):
    m = from_dp_event(E.SelfComposedDpEvent(E.RandomizedResponseDpEvent(0.5, 2), 3))
    value = epsilon_for_delta(m, delta=0).value
    assert decide_eq(value, 3 * sp.log(3)) is Verdict.HOLDS
    with pytest.raises(InvalidParameter, match="no exact finite form"):
        from_dp_event(E.GaussianDpEvent(1.0))


@pytest.mark.parametrize("delta", [R(1, 10**3), R(1, 10**6)])
def test_the_exported_pld_bounds_the_exact_epsilon_and_is_close(delta):
    m = repeat_and_select(randomized_response(sp.log(3)), "geometric", 10, SCORES["self"])
    exact_value = epsilon_for_delta(m, delta=delta).value
    pld = to_pld(m).get_epsilon_for_delta(float(delta))
    assert decide_le(exact_value, exact_float(pld)).verdict is Verdict.HOLDS  # pessimistic
    assert pld - float(exact_value) < 2e-4  # one discretisation step, and float rounding


def test_export_needs_a_pair():
    from verifier.mechanism.instances import truncated_geometric

    with pytest.raises(InvalidParameter, match="neighbouring pairs"):
        to_pld(truncated_geometric(3, R(1, 2)))
    assert to_pld(truncated_geometric(3, R(1, 2)), (0, 1)).get_epsilon_for_delta(0.0) > 0


def test_compare_the_issue_table():
    """RR (ε0 = log 3) under a geometric number of runs with mean 10/100/1000: the
    exact pure ε is log(93/13), log(903/103), log(9003/1003); dp_accounting's RDP
    accountant (default orders) stays above the exact ε(δ) and above Liu & Talwar's
    3ε0 at δ = 1e-6."""
    c = compare()
    assert c.verdict is Verdict.HOLDS
    assert [r.exact_pure for r in c.rows] == [
        sp.log(R(93, 13)),
        sp.log(R(903, 103)),
        sp.log(R(9003, 1003)),
    ]
    for r in c.rows:
        assert r.accountant is not None and r.accountant > float(3 * sp.log(3))
        assert r.ratio == pytest.approx(r.accountant / float(r.exact_at_delta))
        assert r.pld is not None and abs(r.pld - float(r.exact_at_delta)) < 2e-4
    accountants = [r.accountant for r in c.rows]
    assert accountants == sorted(accountants)  # grows with the mean number of runs


def test_compare_poisson_and_algorithm3():
    c = compare(count="poisson", means=(2, 10))
    assert c.verdict is Verdict.HOLDS and all(r.accountant is not None for r in c.rows)
    g = compare("ghazi_hyperparameter_tuning", means=(10,))
    assert g.rows[0].accountant is None and g.rows[0].pld is not None
    assert g.rows[0].params["copies"] == 20  # E_k[e^{-eps_1 k}] = 1/2
    assert g.verdict is Verdict.HOLDS


def test_an_understating_accountant_is_caught(monkeypatch):
    import verifier.interop.accounting as acc

    monkeypatch.setattr(acc, "accountant_epsilon", lambda *a, **k: 1.0)
    c = compare(means=(10,))
    assert c.verdict is Verdict.VIOLATED
    assert "unsound" in c.table()


def test_cli_compare_prints_the_table(capsys):
    assert cli.main(["compare"]) == 0
    out = capsys.readouterr().out
    assert "log(93/13)" in out and "log(903/103)" in out and "log(9003/1003)" in out
    assert "Liu & Talwar 2019, Theorem 3.2" in out
    assert "accountant/exact" in out and "RepeatAndSelectDpEvent" in out
    assert cli.main(["compare", "--json", "--mean", "10"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["rows"][0]["exact_pure_epsilon"]["exact"] == "log(93/13)"
    assert doc["exit_code"] == 0 and doc["verdict"] == "holds"


def test_cli_compare_bad_input(capsys):
    assert cli.main(["compare", "--mean", "1/2"]) == 2
    assert ">= 1" in capsys.readouterr().err
    assert cli.main(["compare", "--delta", "0"]) == 2


def test_missing_dependency_names_the_extra(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "dp_accounting", None)
    with pytest.raises(MissingDependency, match=r"verifier\[interop\]"):
        require()
    assert cli.main(["compare", "--mean", "10"]) == 2
    assert "verifier[interop]" in capsys.readouterr().err
    assert cli.main(["compare", "--exact-only", "--mean", "10"]) == 0


def test_composition_exact_beside_both_accountants():
    # k runs of randomized response (e^eps0 = 3): the exact eps(delta) from the composed
    # loss distribution equals the product mechanism's; the RDP accountant bounds it
    from verifier.interop.exact import epsilon_for_delta
    from verifier.mechanism.compose import repeat
    from verifier.mechanism.instances import randomized_response

    c = compare("composition", means=(1, 6))
    six = c.rows[1]
    want = epsilon_for_delta(
        repeat(randomized_response(sp.log(3)), 6), delta=sp.Rational(1, 10**6)
    ).value
    assert sp.simplify(six.exact_at_delta - want) == 0
    assert six.exact_pure == sp.log(3**6)
    assert six.accountant is not None and six.accountant >= float(six.exact_at_delta)
    record = six.to_dict()
    assert "pld_accountant_epsilon" in record and "pld_of_exact_epsilon" not in record


def test_the_pld_accountant_drops_the_count_of_a_randomized_response_event(dpa):
    # dp_accounting 0.6.0: PLDAccountant._maybe_compose composes a RandomizedResponseDpEvent
    # once whatever its count (its Gaussian branch uses the count), so SelfComposedDpEvent
    # (RR, 10) gets the eps(delta) of one run, 1.0987, where the exact value is 10.986:
    # the comparison's exact check says the accountant understates the loss (exit 1)
    c = compare("composition", means=(10,))
    row = c.rows[0]
    direct = dpa.pld.privacy_loss_distribution.from_randomized_response(0.5, 2)
    composed = direct.self_compose(10).get_epsilon_for_delta(1e-6)
    assert composed >= float(row.exact_at_delta)  # the PLD itself, composed, is sound
    if row.pld is not None and row.pld < 2:  # the accountant's figure: one run's
        assert c.verdict is Verdict.VIOLATED and row.verdict is Verdict.VIOLATED
    else:  # a fixed dp_accounting: then it must bound the exact value
        assert row.verdict is Verdict.HOLDS
