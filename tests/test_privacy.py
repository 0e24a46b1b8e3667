"""Privacy checkers against hand-derived exact values.

The running example ``M`` on a pair (derivations in the comments):

    output   a     b     c
    D        1/2   1/3   1/6
    D'       1/4   1/2   1/4
"""

import random

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from verifier.arithmetic.exact import Verdict
from verifier.checks.privacy import (
    check_approx_dp,
    check_ex_post,
    check_ex_post_approx,
    check_ex_post_rdp,
    check_lemma7,
    check_pure_dp,
    check_rdp,
    delta,
    ex_post_rdp_sum,
    hockey_stick,
    lemma7_dp_bound,
    pure_epsilon,
    rdp_epsilon,
    realized_ex_post_epsilon,
    renyi_divergence,
)
from verifier.errors import InvalidParameter, UnboundSymbol
from verifier.mechanism.instances import random_mechanism, randomized_response, truncated_geometric
from verifier.mechanism.model import FiniteMechanism
from verifier.mechanism.neighbours import pair, pairs_at_distance, path

R = sp.Rational
P = {"a": R(1, 2), "b": R(1, 3), "c": R(1, 6)}
Q = {"a": R(1, 4), "b": R(1, 2), "c": R(1, 4)}
M = FiniteMechanism(pair(), {"D": P, "D'": Q}, ["a", "b", "c"], name="M")


def test_realized_ex_post_and_pure_epsilon():
    # a: D->D' ratio 2; b: D'->D ratio 3/2; c: D'->D ratio 3/2
    table = realized_ex_post_epsilon(M).as_dict()
    assert table == {"a": sp.log(2), "b": sp.log(R(3, 2)), "c": sp.log(R(3, 2))}
    pe = pure_epsilon(M)
    assert pe.value == sp.log(2) and pe.output == "a" and pe.pair == ("D", "D'")


def test_pure_epsilon_value_is_in_simplified_form():
    # a rational mechanism's epsilon is the log of a rational, returned without a call
    # to simplify: it must be the very expression simplify would give
    for seed in range(40):
        m = random_mechanism(path(3), 3 + seed % 3, seed, denominator=12 + seed)
        v = pure_epsilon(m).value
        assert sp.srepr(v) == sp.srepr(sp.simplify(v))
    # a symbolic value is still simplified
    e = sp.Symbol("e", positive=True)
    rr = FiniteMechanism(
        pair(),
        {
            "D": {0: 1 - 1 / (1 + sp.exp(e)), 1: 1 / (1 + sp.exp(e))},
            "D'": {0: 1 / (1 + sp.exp(e)), 1: 1 - 1 / (1 + sp.exp(e))},
        },
        [0, 1],
        values={e: sp.Integer(2)},
    )
    assert pure_epsilon(rr).value == 2


def test_pure_dp_tight_and_violated():
    r = check_pure_dp(M, epsilon=sp.log(2))
    assert r.verdict is Verdict.HOLDS and r.tight
    r = check_pure_dp(M, epsilon=R(1, 2))  # log 2 > 1/2
    assert r.verdict is Verdict.VIOLATED
    bad = r.violations()
    assert [(f.output, f.pair) for f in bad] == [("a", ("D", "D'"))]
    assert bad[0].lhs == R(1, 2) and bad[0].rhs == sp.exp(R(1, 2)) / 4
    assert sp.simplify(r.worst().slack - (R(1, 2) - sp.log(2))) == 0


def test_ex_post_claim_per_output_slack():
    claimed = {"a": sp.log(2), "b": sp.log(2), "c": sp.log(R(3, 2))}
    r = check_ex_post(M, epsilon_tilde=claimed)
    assert r.verdict is Verdict.HOLDS
    per = {f.output: f for f in r.per_output()}
    assert per["a"].tight and per["c"].tight
    assert sp.simplify(per["b"].slack - sp.log(R(4, 3))) == 0
    # a mapping missing an output is an error naming it
    with pytest.raises(InvalidParameter, match="'c'"):
        check_ex_post(M, epsilon_tilde={"a": 1, "b": 1})
    with pytest.raises(InvalidParameter, match="negative"):
        check_ex_post(M, epsilon_tilde=-1)


def test_hockey_stick_delta():
    # at eps = 1/2, only output a in direction D->D' is positive: 1/2 - e^{1/2}/4
    r = delta(M, epsilon=R(1, 2))
    d, pr = r.value, r.pair
    assert d == R(1, 2) - sp.exp(R(1, 2)) / 4 and pr == ("D", "D'")
    assert hockey_stick(Q, P, R(1, 2)) == 0
    assert hockey_stick(P, Q, 0) == R(1, 2) - R(1, 4)  # total variation distance 1/4
    assert (
        check_approx_dp(M, epsilon=R(1, 2), delta=R(1, 10)).verdict is Verdict.HOLDS
    )  # 0.0878 <= 0.1
    assert check_approx_dp(M, epsilon=R(1, 2), delta=R(1, 20)).verdict is Verdict.VIOLATED
    exact_delta = check_approx_dp(M, epsilon=R(1, 2), delta=d)
    assert exact_delta.verdict is Verdict.HOLDS and exact_delta.tight


def test_ex_post_approx_dp():
    # with eps~(a) = log 2 nothing is positive in D->D'; D'->D: b: 1/2 - e^{eps~(b)} 1/3
    claimed = {"a": sp.log(2), "b": 0, "c": 0}
    # D'->D: a: 1/4 - 1/2 < 0, b: 1/2 - 1/3 = 1/6, c: 1/4 - 1/6 = 1/12 -> delta = 1/4
    # D->D': a: 1/2 - 2/4 = 0, b, c negative
    r = check_ex_post_approx(M, epsilon_tilde=claimed, delta=R(1, 4))
    assert r.verdict is Verdict.HOLDS and r.tight
    assert check_ex_post_approx(M, epsilon_tilde=claimed, delta=R(1, 5)).verdict is Verdict.VIOLATED


def test_renyi_values():
    # D->D': sum p^2/q = 1 + 2/9 + 1/9 = 4/3; D'->D: 1/8 + 3/4 + 3/8 = 5/4
    assert renyi_divergence(P, Q, 2) == sp.log(R(4, 3))
    assert renyi_divergence(Q, P, 2) == sp.log(R(5, 4))
    r = rdp_epsilon(M, alpha=2)
    eps, pr = r.value, r.pair
    assert eps == sp.log(R(4, 3)) and pr == ("D", "D'")
    assert check_rdp(M, alpha=2, epsilon=sp.log(R(4, 3))).tight
    assert (
        check_rdp(M, alpha=2, epsilon=R(1, 4)).verdict is Verdict.VIOLATED
    )  # log(4/3) = 0.2877 > 1/4
    # support mismatch gives infinity
    assert renyi_divergence({0: 1}, {1: 1}, 2) is sp.oo
    # symbolic order
    al = sp.Symbol("alpha", positive=True)
    h, t = R(1, 2), R(1, 3)
    expr = renyi_divergence({0: h, 1: h}, {0: t, 1: 2 * t}, al)
    assert sp.simplify(expr.subs(al, 2) - sp.log(R(9, 8))) == 0
    with pytest.raises(InvalidParameter, match="alpha"):
        renyi_divergence(P, Q, 1)


def test_ex_post_rdp_sum():
    eps_t = realized_ex_post_epsilon(M).as_dict()
    # D->D': 1/2 + 4/27 + 2/27 = 13/18; D'->D: 1/16 + 1/2 + 1/4 = 13/16
    assert ex_post_rdp_sum(P, Q, eps_t, 2) == R(13, 18)
    assert ex_post_rdp_sum(Q, P, eps_t, 2) == R(13, 16)
    assert check_ex_post_rdp(M, epsilon_tilde=eps_t, alpha=2).verdict is Verdict.HOLDS


def test_lemma7_functions_and_check():
    f = lemma7_dp_bound(R(1, 2), 3, R(1, 100))
    assert f("x") == R(1, 2) + sp.log(100) / 2
    r = check_lemma7(
        M, epsilon_tilde=realized_ex_post_epsilon(M).as_dict(), alpha=R(3, 2), delta=R(1, 1000)
    )
    assert r.verdict is Verdict.HOLDS
    with pytest.raises(InvalidParameter, match="delta"):
        lemma7_dp_bound(1, 2, R(3, 2))


def test_parameter_validation():
    with pytest.raises(InvalidParameter, match="epsilon must be > 0"):
        check_pure_dp(M, epsilon=0)
    with pytest.raises(InvalidParameter, match="epsilon must be > 0"):
        check_pure_dp(M, epsilon=-1)
    with pytest.raises(InvalidParameter, match="alpha must be > 1"):
        check_rdp(M, alpha=1, epsilon=1)
    with pytest.raises(InvalidParameter, match="delta must lie in"):
        check_approx_dp(M, epsilon=1, delta=R(3, 2))
    with pytest.raises(InvalidParameter, match="delta must lie in"):
        check_approx_dp(M, epsilon=1, delta=-R(1, 2))


def test_unbound_symbol_is_reported():
    t = sp.Symbol("t", positive=True)
    rr = randomized_response(t)
    with pytest.raises(UnboundSymbol, match="t"):
        check_pure_dp(rr, epsilon=1)


def test_claims_over_a_parameter_range():
    t = sp.Symbol("t", nonnegative=True)
    rr = randomized_response(t)
    r = check_pure_dp(rr, epsilon=t, over=(t, 0, 5))
    assert r.verdict is Verdict.HOLDS and r.tight
    r = check_pure_dp(rr, epsilon=t / 2, over=(t, R(1, 10), 5))
    assert r.verdict is Verdict.VIOLATED


def test_group_privacy_attained_on_truncated_geometric():
    g = truncated_geometric(3, R(1, 2))  # eps = log 2
    assert pure_epsilon(g).value == sp.log(2)
    r = check_pure_dp(g, epsilon=3 * sp.log(2), pairs=pairs_at_distance(g.graph, 3))
    assert r.verdict is Verdict.HOLDS and r.tight


def _oracle_le(a, b):
    """Test oracle: compare at 120 digits, skipping near-ties (returns None)."""
    x, y = sp.N(a, 120), sp.N(b, 120)
    if abs(x - y) < sp.Float(10) ** -60:
        return None
    return bool(x <= y)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.fractions(min_value=R(1, 10), max_value=3, max_denominator=50))
def test_certified_verdicts_agree_with_high_precision_oracle(seed, eps):
    """ε-DP at a rational ε (e^ε transcendental: certified path) agrees with an
    independent 120-digit evaluation of every ratio."""
    m = random_mechanism(pair(), 3, seed=seed, denominator=24)
    e = sp.Rational(eps.numerator, eps.denominator)
    r = check_pure_dp(m, epsilon=e)
    expected = []
    for o in m.outputs:
        for d, d2 in m.ordered_pairs():
            expected.append(_oracle_le(m.p(d, o), sp.exp(e) * m.p(d2, o)))
    if None in expected:
        return
    assert (r.verdict is Verdict.HOLDS) == all(expected)


def test_exact_and_certified_paths_agree_on_shared_instances():
    """The same inequalities stated with rational e^ε (exact path) and with e^{log r}
    forms kept unevaluated (certified path) give the same verdicts."""
    rng = random.Random(7)
    for seed in range(20):
        m = random_mechanism(pair(), 4, seed=seed, denominator=30)
        r = R(rng.randint(11, 40), 10)
        exact_path = check_pure_dp(m, epsilon=sp.log(r))  # p <= r q, all rational
        # certified path: e^{log(r) + 1/10**30 - 1/10**30}, not recognised as rational
        shifted = sp.log(r) + sp.exp(-sp.Integer(70)) - sp.exp(-sp.Integer(70))
        cert = check_pure_dp(m, epsilon=sp.log(r * (1 + sp.exp(-sp.Integer(70)))))
        assert exact_path.verdict == check_pure_dp(m, epsilon=shifted).verdict
        # raising the bound by a factor 1 + e^{-70} can only turn violated into holds
        # when an inequality was tight; no inequality here is within e^{-70}
        if not exact_path.tight:
            assert cert.verdict == exact_path.verdict


def test_log_ratio_of_large_probabilities_is_unevaluated_and_exact():
    """Large probabilities (nested sums of radicals, as on Talwar 2025's hard instances)
    are divided unevaluated in the displayed log ratio — sympy's division computed
    minimal polynomials for minutes — with the same value; small ones are simplified
    (randomized response: log(p/q) = eps)."""
    import mpmath

    from verifier.arithmetic.exact import approx
    from verifier.checks.privacy import _log_ratio

    r = sp.Integer(400) ** sp.Rational(1, 12)
    s3 = sp.sqrt(3)  # a common factor that sympy's division would cancel
    p = s3 * sum((r**k / (k + 1 + r) for k in range(1, 9)), sp.Integer(0)) / 100
    q = s3 * sum((r**k / (k + 2 + r**2) for k in range(1, 9)), sp.Integer(0)) / 100
    assert not (p / q).has(s3)
    got = _log_ratio(p, q)
    assert isinstance(got, sp.log) and got.args[0].has(s3)
    with mpmath.workdps(50):
        want = mpmath.log(sp.N(p, 50) / sp.N(q, 50))
    assert approx(got) == pytest.approx(float(want), rel=1e-12)
    e = sp.Rational(1, 3)
    rr = randomized_response(e)
    assert _log_ratio(rr.p("D", 1), rr.p("D'", 1)) == e


def test_renyi_divergence_of_large_probabilities_is_exact():
    """Large probabilities' Rényi sums are built unevaluated (a negative power of a
    nested sum of radicals made sympy compute minimal polynomials); the value is the
    same as a direct high-precision computation, and the RDP check decides both sides
    of it."""
    import mpmath

    from verifier.arithmetic.exact import approx
    from verifier.checks.privacy import renyi_divergence

    r = sp.Integer(400) ** sp.Rational(1, 12)
    a = sum((r**k / (k + 1 + r) for k in range(1, 9)), sp.Integer(0))
    b = sum((r**k / (k + 2 + r**2) for k in range(1, 9)), sp.Integer(0))
    p, q = a / (a + 7), b / (b + 7)
    P, Q = {0: p, 1: 1 - p}, {0: q, 1: 1 - q}
    got = renyi_divergence(P, Q, 13)
    with mpmath.workdps(60):
        pf, qf = sp.N(p, 60), sp.N(q, 60)
        want = mpmath.log(pf**13 * qf**-12 + (1 - pf) ** 13 * (1 - qf) ** -12) / 12
    assert approx(got) == pytest.approx(float(want), rel=1e-12)
    m = FiniteMechanism(pair(), {"D": P, "D'": Q}, [0, 1])
    w = float(want)
    assert check_rdp(
        m, alpha=13, epsilon=sp.Rational(int(w * 1.01 * 10**9), 10**9), pairs=[("D", "D'")]
    ).holds
    assert check_rdp(
        m, alpha=13, epsilon=sp.Rational(int(w * 0.99 * 10**9), 10**9), pairs=[("D", "D'")]
    ).violated


def test_the_worst_finding_computes_one_display_value_per_distinct_inequality(monkeypatch):
    """A check repeats one inequality wherever the mechanism is symmetric (outputs with
    the same two probabilities; a path of datasets with one law per parity): the worst
    finding computes one enclosure and one display value per distinct inequality and is
    still the first finding of least displayed slack, as comparing every finding
    gives."""
    from verifier.arithmetic.exact import approx
    from verifier.checks import results
    from verifier.checks.privacy import _log_ratio

    half, eighth = sp.Rational(1, 2), sp.Rational(1, 8)
    p = {o: (half if o == 0 else eighth) for o in range(5)}
    q = {o: (half if o == 1 else eighth) for o in range(5)}
    g = path(4)
    laws = {d: (p if i % 2 == 0 else q) for i, d in enumerate(sorted(g.nodes))}
    m = FiniteMechanism(g, laws, list(range(5)))
    for eps in (sp.log(4), sp.log(3), sp.Rational(3, 2)):
        r = check_pure_dp(m, epsilon=eps)
        fs = r.all_findings()
        keys = {f.values_key() for f in fs}
        assert 2 <= len(keys) < len(fs)
        calls: list[sp.Expr] = []

        def counted(x, *a, calls=calls, real=results.approx):
            calls.append(x)
            return real(x, *a)

        monkeypatch.setattr(results, "approx", counted)
        w = r.worst()
        monkeypatch.undo()
        assert len(calls) <= len(keys)
        slack = [
            approx(eps - _log_ratio(m.p(f.pair[0], f.output), m.p(f.pair[1], f.output))) for f in fs
        ]
        assert w is fs[slack.index(min(slack))]
        assert w.verdict is (Verdict.VIOLATED if eps < sp.log(4) else Verdict.HOLDS)


def test_realized_loss_is_formed_when_read_with_the_same_value():
    """A pure-DP check at a point defers each finding's ``log(p/q)``: the worst
    finding is ranked by enclosures of ``p`` and ``q`` and only the findings whose
    slack may be the smallest are formed; a finding read (or pickled, then read)
    shows the value the eager display gave, inside its enclosure."""
    import pickle

    from verifier.arithmetic.exact import approx, enclose
    from verifier.checks.privacy import _log_ratio
    from verifier.checks.results import Deferred

    def pending(f):
        return isinstance(f.__dict__["_realized_value"], Deferred)

    m = random_mechanism(pair(), 8, seed=5)
    r = check_pure_dp(m, epsilon=sp.log(3))
    assert r.findings and all(pending(f) for f in r.findings)
    w = r.worst()
    left = [f for f in r.findings if pending(f)]
    assert not pending(w) and left  # the worst is formed, most are not
    # the worst is the smallest slack compared by display value (first on a tie)
    slack = [
        approx(sp.log(3) - _log_ratio(m.p(f.pair[0], f.output), m.p(f.pair[1], f.output)))
        for f in r.findings
    ]
    assert w is r.findings[slack.index(min(slack))]
    # a worker sends findings without their enclosure caches; they come back equal
    sent = pickle.loads(pickle.dumps(w))
    assert "_slack_enclosure" in w.__dict__ and "_slack_enclosure" not in sent.__dict__
    assert str(sent._slack_enclosure) == str(w._slack_enclosure) and sent.slack == w.slack
    for f in left:
        e = f.realized_enclosure(64)
        g = pickle.loads(pickle.dumps(f))
        want = _log_ratio(m.p(f.pair[0], f.output), m.p(f.pair[1], f.output))
        assert f.realized == want and g.realized == want and not pending(f)
        v = enclose(want, 64)  # both enclose the one value: they overlap
        assert e.lo <= v.hi and v.lo <= e.hi and e.hi - e.lo < 2**-50
