"""Talwar 2025: the worst-case searches and the step tables of the case study.

The float screens must agree with the exact decisions they stand in for (a screen that
drifts would steer the search away from the worst case); the step tables must be able
to fail (a step tightened past its true constant is refuted); the closed forms behind
the tightness tags are recomputed independently.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction as F
from math import comb

import pytest
import sympy as sp

from casestudies.talwar2025 import mech_search
from casestudies.talwar2025.chain_search import _chains
from casestudies.talwar2025.composition_search import rr_delta
from casestudies.talwar2025.oracle_search import (
    SPACES,
    decide_thm11_utility,
    pair_oracle,
)
from casestudies.talwar2025.search import _near_maximum, _worst, finding_ratio, result_ratio
from casestudies.talwar2025.steps import TAU, S, U, exponent_bound, ln_bT
from casestudies.talwar2025.tightness import rr_composition
from verifier.algorithms.talwar import a_lt, failure_probability
from verifier.arithmetic.exact import Verdict, approx
from verifier.checks.privacy import delta
from verifier.claims import Claim
from verifier.claims.steps import Step, decide_steps
from verifier.search import get_searchable
from verifier.search.core import confirm
from verifier.search.inequalities import GridPoint

R = sp.Rational


@pytest.mark.parametrize("key", ["thm7", "cor8", "thm7.uniform", "thm9", "thm10", "thm10.adaptive"])
def test_chain_screen_agrees_with_the_exact_chain(key: str) -> None:
    ch = _chains()[key]
    space = ch.space()
    rng = random.Random(11)
    done = 0
    while done < 2:  # two seeded instances with at most 12 (Theorem 7) / 120 classes
        inst = space.random(rng)
        v = space.point(inst)
        e, T = ch.eps(v), ch.T(v)
        small = (
            math.log(4 * T) / e <= 12
            if ch.theorem == "Theorem 7"
            else 10 * math.ceil(math.log(8 * T) / e) <= 120
        )
        if not small:
            continue
        done += 1
        exact = result_ratio(ch.decide(space, inst))
        assert ch.screen(space, inst) == pytest.approx(exact, rel=1e-6), space.describe(inst)


def test_figure1_screen_agrees_with_the_exact_decision() -> None:
    # Figure 1's float screen against the exact decision it stands in for, at the
    # corners of the grid (gamma = 1/10 and 10^-60; repetition and K = 16) and at
    # seeded points; every ratio of a point (lower bound over T, failure over gamma)
    # enters the maximum, so a wrong formula for one algorithm shows at some point
    from casestudies.talwar2025.upper import _figure_decide, _figure_screen

    space = get_searchable("talwar2025.figure1.tradeoff").search.space
    rng = random.Random(3)
    corners = [GridPoint((F(k), F(K))) for k in (1, 60) for K in (1, 2, 16)]
    for inst in [*corners, *(space.random(rng) for _ in range(6))]:
        exact = result_ratio(_figure_decide(space, inst))
        assert _figure_screen(space, inst) == pytest.approx(exact, rel=1e-12), space.describe(inst)


def test_adaptive_screen_agrees() -> None:
    ch = _chains()["thm9.adaptive"]
    space = ch.space()
    # NeighbourProbe(2, 3) at eps = 1 and BlindProbe(A_max^3, 10) at eps = 1/2
    for alg, eps in ((5, F(1)), (26, F(1, 2))):
        inst = GridPoint((F(alg), eps))
        exact = result_ratio(ch.decide(space, inst))
        assert ch.screen(space, inst) == pytest.approx(exact, rel=1e-6)


@pytest.mark.parametrize(
    "make",
    [
        lambda: mech_search.cube_group_privacy_search("demo.x"),
        lambda: mech_search.path_group_privacy_search("demo.x"),
        lambda: mech_search.extension_search("demo.x", "theorem", "-"),
        lambda: mech_search.extension_search("demo.x", "normaliser", "-"),
    ],
)
def test_mechanism_screens_agree_with_their_certificates(make) -> None:  # type: ignore[no-untyped-def]
    spec = make()
    claim = Claim(id="demo.x", source="-", statement="-", expected="holds", search=spec)
    rng = random.Random(5)
    for _ in range(3):
        inst = spec.space.random(rng)
        conf = confirm(claim, inst)
        assert conf.premises is Verdict.HOLDS, conf.error
        assert conf.verdict is Verdict.HOLDS
        assert spec.screen(inst) == pytest.approx(conf.ratio, rel=1e-9)


def test_extension_premise_nearly_tight() -> None:
    """mode 1: the premise holds exactly, and a smaller a (by 1/1000) breaks it."""
    for seed in range(5):
        e = mech_search.extension_instance(7, seed, 3, 3, mode=1)
        assert mech_search._premise_holds(e.g, e.p, e.a)
        if e.a > F(1001, 1000):
            assert not mech_search._premise_holds(e.g, e.p, e.a - F(1, 1000))


def test_binomial_sums_exactly() -> None:
    """sum_{i <= Delta} C(10 Delta, i) <= 10^Delta (11/10)^(10 Delta) <= (10e)^Delta
    (the steps thm9.counting decides in closed form), with Python integers."""
    for D in range(1, 61):
        n = 10 * D
        ball = sum(comb(n, i) for i in range(D + 1))
        assert ball * 10 ** (n - D) <= 11**n  # ball <= 10^D (11/10)^(10D)
    assert 10 * math.log(1.1) < 1  # (11/10)^10 < e


def test_a_step_tightened_past_its_constant_is_refuted() -> None:
    """eps Delta <= ln(4T) (without + eps) fails: at T = e, eps = ln T = 1 it reads
    ln 4 + 1 + s <= ln 4 + 1, false for every s > 0 of Delta's range."""
    at = {U: 1, TAU: 1}
    step = Step(
        "eps Delta <= ln 4T",
        exponent_bound(4, 1)[0].lhs.subs(at),
        ln_bT(4).subs(at),
        domain={S: (0, 1)},
    )
    r = decide_steps("too strong", [step])
    assert r.verdict is Verdict.VIOLATED
    assert r.notes[0] == "first failing step: 'eps Delta <= ln 4T'"


def test_balanced_oracle_attains_the_utility_bound() -> None:
    """A_max^3 on an oracle with exactly half its mass on the top score fails w.p.
    (1/2)^3 = 1/8 = gamma (log2(1/gamma) an integer), and A_LT,gamma w.p.
    gamma/(1 + gamma)."""
    space = SPACES["thm11.utility"][0]()
    inst = GridPoint((F(0), F(2), F(1), F(1, 8), F(1)))  # seed, m, shape, gamma, K
    r = decide_thm11_utility(space, inst)
    assert r.verdict is Verdict.HOLDS
    at_D = [f for f in r.all_findings() if f.claimed == R(1, 8) and f.realized == R(1, 8)]
    assert at_D and at_D[0].tight  # the failure at D is exactly gamma
    M = pair_oracle(0, 2, 1)
    g = R(1, 1000)
    alg = a_lt(g)
    assert failure_probability(alg.apply(M), M, "D") == g / (1 + g)


@pytest.mark.parametrize("key", ["thm11.utility", "thm12", "thm14", "prop3"])
def test_pruned_ratio_maximum_is_the_whole_maximum(key: str) -> None:
    """The largest realized/claimed of an exact decision, and the finding its document
    is built from, are those of every finding compared by its display value: the
    findings dropped first by their ratio enclosures are never the maximum."""
    make, decide, _ = SPACES[key]
    space, rng = make(), random.Random(11)
    dropped = 0
    for _ in range(4):
        r = decide(space, space.random(rng))
        fs = r.all_findings()
        vals = [(finding_ratio(f), i, f) for i, f in enumerate(fs)]
        ratios = [v if not math.isnan(v) else -math.inf for v, _, _ in vals]
        if r.verdict is Verdict.HOLDS:
            assert result_ratio(r) == max(ratios)
            best = max((t for t in vals if not math.isnan(t[0])), key=lambda t: (t[0], -t[1]))
            assert _worst(r) is best[2]
        dropped += len(fs) - len(_near_maximum(fs))
    assert dropped > 0  # the enclosures did drop findings


def test_rr_delta_float_agrees_with_exact() -> None:
    T, odds = 20, R(11, 10)
    eps = sp.Rational(3, 10)
    exact = delta(rr_composition(T, odds), epsilon=eps, pairs=[("D", "D'")]).value
    assert rr_delta(T, 1.1, 0.3) == pytest.approx(approx(exact), rel=1e-9)


def test_tightness_limits() -> None:
    """The limits the approached tags rest on, recomputed."""
    a, D, u, k = sp.symbols("a Delta u K", positive=True)
    assert sp.limit(sp.log((1 + a**2) / 2) / (2 * sp.log(a)), a, sp.oo) == 1
    assert sp.limit(-D * sp.log(1 - 1 / (D + 1)), D, sp.oo) == 1
    assert sp.limit(1 / (2 - u), u, 1) == 1
    assert sp.limit((1 - 1 / k) ** 2, k, sp.oo) == 1
    # the near-tight member of Prop. 2's family is within 1% of the factor 2
    r = math.log((1 + 1e32) / 2) / (2 * math.log(1e16))
    assert 0.99 < r < 1


def test_the_chain_search_refutes_the_exponent_2_at_a_fixed_eps() -> None:
    """Theorem 7's chain with e^(-2c eps Delta) >= (4T)^(-2c) (the finding
    talwar2025.thm7.two_c_step_fixed_eps) is refuted by the same search, and its
    certificate is an inequality between two exact numbers that `verifier check`
    re-decides."""
    from casestudies.talwar2025.chain_search import REPETITION, _Chain
    from casestudies.talwar2025.search import exact_search
    from verifier.search.engine import search

    ch = _Chain("Theorem 7", REPETITION, step_exponent=2)
    spec = exact_search(
        "demo.two_c",
        ch.space(),
        ch.decide,
        "exponent 2",
        "Talwar 2025",
        screen=ch.screen,
        notes="-",
    )
    claim = Claim(
        id="demo.two_c", source="-", statement="-", expected="refuted", kind="finding", search=spec
    )
    r = search(claim, instances=80, seconds=None, seed=0, checkpoint_every=1e9, shrink=False)
    assert r.violated
    assert r.certificate_text and 'kind = "inequality"' in r.certificate_text


_LEAKY = "talwar2025.thm11.advanced_composition"
_FAMILY = "talwar2025.thm11.advanced_composition.delta_matters"
_RR = "talwar2025.thm11.advanced_composition.rr_worst_case"


def test_advanced_composition_extreme_draws_are_valid_instances() -> None:
    """The extreme corners of Theorem 11's leaky spaces include T = 100, w = 1/100,
    where T w + delta' > 1 is no bound on a probability: such points are not proposed,
    and every proposed one is decided without error."""
    from verifier.search import get_searchable

    for cid, corner in (
        (_LEAKY, (100, 1, F(1, 100), F(1, 10**10))),
        (_FAMILY, (100, 1, F(1, 100))),
    ):
        c = get_searchable(cid)
        space, rng = c.search.space, random.Random(3)
        assert space.valid is not None
        assert not space.valid(space.point(GridPoint(tuple(F(x) for x in corner))))
        for _ in range(6):
            inst = space.extreme(rng)
            v = space.point(inst)
            dp = v.get("dp", v["w"] ** 2)
            assert v["T"] * v["w"] + dp < 1
            conf = confirm(c, inst)
            assert conf.error is None and conf.verdict is Verdict.HOLDS


def test_delta_matters_documents_realize_the_additive_term() -> None:
    """On the family, the exact realized delta of the document's target is at least
    Pr_D[top] = 1 - (1 - w)^T (D' never gives the top score), decided exactly; the
    ratio the search reports is the target's, realized / (T w + w^2), below 1."""
    from verifier.arithmetic.exact import decide_le
    from verifier.search import get_searchable

    c = get_searchable(_FAMILY)
    for T, eps, w in ((20, F(1, 2), F(1, 10**5)), (2, F(1), F(1, 100)), (50, F(1, 50), F(1, 100))):
        conf = confirm(c, GridPoint((F(T), eps, w)))
        assert conf.verdict is Verdict.HOLDS and conf.premises is Verdict.HOLDS
        assert conf.result is not None
        realized = max(conf.result.all_findings(), key=lambda f: approx(f.realized)).realized
        floor = 1 - (1 - R(w.numerator, w.denominator)) ** T
        assert decide_le(floor, realized).verdict is Verdict.HOLDS
        assert conf.ratio is not None and 0.78 < conf.ratio < 1


@pytest.mark.parametrize(
    ("cid", "values"),
    [
        (_LEAKY, (100, F(1), F(1, 1000), F(1, 1000))),
        (_FAMILY, (50, F(1, 50), F(1, 100))),
        (_RR, (100, F(3, 2), F(1, 1000))),
    ],
)
def test_advanced_composition_certificates_recheck(tmp_path, cid, values) -> None:  # type: ignore[no-untyped-def]
    """A document with its claimed delta lowered below the exact realized one is a
    certificate `verifier check` re-decides at its default limits: exit 1 (refuted),
    and 0 with --expected (the premise holds, the target is refuted)."""
    import json

    from verifier import cli
    from verifier.search import get_searchable

    c = get_searchable(cid)
    inst = GridPoint(tuple(F(x) for x in values))
    doc = c.search.document(inst)
    conf = confirm(c, inst, doc)
    assert conf.verdict is Verdict.HOLDS and conf.result is not None
    realized = max(approx(f.realized) for f in conf.result.all_findings())
    assert realized > 0
    doc["claims"][-1]["delta"] = str(F(realized / 2).limit_denominator(10**30))
    path = tmp_path / "cert.json"
    path.write_text(json.dumps(doc))
    assert confirm(c, inst, doc).confirmed
    assert cli.main(["check", str(path)]) == 1
    assert cli.main(["check", "--expected", str(path)]) == 0
