"""Hartmann et al. 2022, §5: iterative mechanisms with stopping points (Algorithm 3) —
Lemmas 11–14, Theorem 15 and the steps of Theorem 15's proof (App. C).

An iterative mechanism runs ``M_1, ..., M_T`` (``M_j`` may depend on the outputs so
far), and at the stopping points ``t_1 < ... < t_k = T`` a criterion (deterministic
or randomized, a function of the outputs so far) decides whether to stop; the output
is the sequence, partitioned by its length (``S_i``: stopped at ``t_i``).  The claims
are decided on registered instances (two- and three-step mechanisms, adaptive steps,
randomized criteria, ``(ε, δ)``-DP steps with unequal hockey-stick masses) and by a
worst-case search over the whole class (:mod:`.search`).

Reconstruction (the seed text lost the formulas; the statements follow §5 and App. C):

* **Lemma 11.**  With a DP composition theorem ``C`` that gives, for the prefix of
  length ``t_i`` and a desired ``δ'_i``, an ``ε_i`` such that ``M_1..M_{t_i}`` is
  ``(ε_i, δ'_i)``-DP: the mechanism is ``(P, e(S_i) = ε_i, δ = Σ_i δ'_i)``-ODP.  Checked
  with the simple composition theorem (``ε_i = Σ_{j<=t_i} ε_j``, ``δ'_i = Σ_{j<=t_i}
  δ_j``) and, for homogeneous ``ε``-DP steps, Kairouz et al.'s optimal one
  (``ε_i = (t_i - 2ℓ)ε``, ``δ'_i = δ_ℓ``, Kairouz, Oh, Viswanath 2017, Thm 3.3).
* **Lemma 12** (Kairouz et al.).  Every ``(ε, δ)``-DP pair is a post-processing of
  ``RR_{ε,δ}`` — an explicit map for any pair, the two hockey-stick masses possibly
  unequal (:func:`.search.lemma12_map`).
* **Lemma 13.**  The largest ODP ``δ`` over ``(ε_j, δ_j)``-DP steps and criteria is
  attained by the iterated ``RR_{ε_j,δ_j}``.
* **Lemma 14.**  Post-processing every step of a non-adaptive iterative mechanism by
  randomized functions (of the outputs so far) keeps its ``(P, e, δ)``-ODP guarantee.
* **Theorem 15.**  That largest ``δ`` is Eq. (3): the maximum over prefix-free families
  ``S_1, ..., S_k`` (``S_i`` sequences of ``RR`` outputs of length ``t_i``) of
  ``Σ_i Pr[RR(x^0) ∈ S_i] - e^{e(S_i)} Pr[RR(x^1) ∈ S_i]`` (:func:`.search.rr_optimum`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

import sympy as sp

from casestudies import claim
from verifier.checks.certified import check_all_le
from verifier.checks.privacy import hockey_stick, pure_epsilon
from verifier.checks.results import CheckResult, conjunction, given
from verifier.claims import Tightness
from verifier.mechanism.instances import random_mechanism, random_rational_distribution
from verifier.mechanism.model import FiniteMechanism
from verifier.mechanism.neighbours import pair
from verifier.odp.guarantees import ODPGuarantee, Partition, check_odp

from . import search as S

F = Fraction
R = sp.Rational
SRC = "Hartmann et al. 2022"


def _q(x: Any) -> Fraction:
    v = sp.Rational(x)
    return F(int(v.p), int(v.q))


def _log(a: Fraction) -> sp.Expr:
    return sp.log(sp.Rational(a.numerator, a.denominator))


# ---------------------------------------------------------------------------
# iterative mechanisms as finite mechanisms
# ---------------------------------------------------------------------------


def iterative(
    m1: FiniteMechanism,
    stop: Callable[[Any], bool],
    m2: Callable[[Any], FiniteMechanism],
    name: str,
) -> FiniteMechanism:
    """Hartmann et al. 2022, Algorithm 3 with two steps: output ``(y1,)`` if
    ``stop(y1)``, else ``(y1, y2)`` with ``y2 ~ m2(y1)`` (all on ``m1``'s graph)."""
    outs: list[Any] = []
    dists: dict[Any, dict[Any, sp.Expr]] = {d: {} for d in m1.datasets}
    for y1 in m1.outputs:
        if stop(y1):
            outs.append((y1,))
            for d in m1.datasets:
                dists[d][(y1,)] = m1.p(d, y1)
        else:
            nxt = m2(y1)
            for y2 in nxt.outputs:
                outs.append((y1, y2))
                for d in m1.datasets:
                    dists[d][(y1, y2)] = m1.p(d, y1) * nxt.p(d, y2)
    return FiniteMechanism(m1.graph, dists, outs, name=name, validate=False)


def _kairouz(e: Any, d: Any) -> FiniteMechanism:
    """Kairouz et al.'s ``RR_{ε,δ}`` (Hartmann et al. 2022, Lemma 12) on the pair, with
    ``e = e^ε``: outputs 0..3."""
    e, d = sp.sympify(e), sp.sympify(d)
    hi, lo = (1 - d) * e / (1 + e), (1 - d) / (1 + e)
    return FiniteMechanism(
        pair(),
        {"D": {0: d, 1: hi, 2: lo, 3: 0}, "D'": {0: 0, 1: lo, 2: hi, 3: d}},
        [0, 1, 2, 3],
        name=f"RR_(log {e}, {d})",
    )


def _length_partition(m: FiniteMechanism) -> Partition:
    return Partition.from_key(m.outputs, len)


def law_mechanism(inst: S.Iterative, name: str, post: bool = False) -> FiniteMechanism:
    """The exact law of an :class:`.search.Iterative` instance (or of its Lemma 14
    post-processing) as a mechanism on ``D ~ D'`` whose outputs are the sequences."""
    outs, P, Q = S.post_processed_law(inst) if post else S.iterative_law(inst)
    dists = {
        "D": {y: R(p.numerator, p.denominator) for y, p in zip(outs, P, strict=True)},
        "D'": {y: R(q.numerator, q.denominator) for y, q in zip(outs, Q, strict=True)},
    }
    return FiniteMechanism(pair(), dists, outs, name=name, validate=False)


def length_guarantee(
    m: FiniteMechanism, stops: Sequence[int], budgets: Sequence[Fraction], delta: Fraction
) -> ODPGuarantee:
    """``(P, e, δ)`` with ``P`` the partition by length and ``e^{e(S_i)} = budgets[i]``."""
    part = _length_partition(m)
    e = {t: _log(budgets[stops.index(t)]) for t in part.names}
    return ODPGuarantee.of(part, e, R(delta.numerator, delta.denominator))


def _seeded(space: S.IterativeSpace, seed: int, extreme: bool = False) -> S.Iterative:
    rng = random.Random(seed)
    return space.extreme(rng) if extreme else space.random(rng)


def _three_step() -> S.Iterative:
    """A three-step adaptive instance with a randomized criterion at ``t = 1`` and
    ``t = 2`` and steps that are ``(ε, δ)``-DP with ``δ > 0`` (unequal hockey-stick
    masses): RR post-processed by fixed maps (derivation-free: every probability is
    written out)."""
    h, t, q = F(1, 2), F(1, 3), F(1, 4)
    a, d = (F(2), F(3), F(3, 2)), (F(1, 10), F(0), F(1, 20))
    s1 = S.rr_pair(a[0], d[0])
    T1 = ((h, h, F(0)), (F(1), F(0), F(0)), (F(0), t, 1 - t), (F(0), F(0), F(1)))
    step1 = (S.apply_map(s1[0], T1), S.apply_map(s1[1], T1))
    step2a = ((F(3, 4), q), (q, F(3, 4)))  # randomized response, ratio 3
    step2b = ((F(1, 2), F(1, 3), F(1, 6)), (F(1, 6), F(1, 3), F(1, 2)))  # ratio 3
    s3 = S.rr_pair(a[2], d[2])
    T3 = ((F(1), F(0)), (F(2, 3), F(1, 3)), (F(1, 3), F(2, 3)), (F(0), F(1)))
    step3 = (S.apply_map(s3[0], T3), S.apply_map(s3[1], T3))
    rule = (((0,), F(1, 2)), ((2,), F(1)), ((1, 0), F(1, 3)), ((0, 1), F(1)))
    return S.Iterative(
        a, d, ((step1,), (step2a, step2b), (step3,)), (1, 2, 3), rule, (F(2), F(6), F(9)), (0, 0, 1)
    )


def _homogeneous() -> S.Iterative:
    """Three ``log 2``-DP randomized-response steps, stopping at ``t = 1`` unless the
    output is 1 and at ``t = 2`` with probability 1/2; Lemma 11 with Kairouz et al.'s
    optimal composition at ``t = 2`` (``ℓ = 1``) and ``t = 3`` (``ℓ = 1``)."""
    rr = ((F(2, 3), F(1, 3)), (F(1, 3), F(2, 3)))
    rule = (((0,), F(1)), ((1, 0), F(1, 2)), ((1, 1), F(1, 2)))
    return S.Iterative(
        (F(2),) * 3, (F(0),) * 3, ((rr,), (rr,), (rr,)), (1, 2, 3), rule, (), (0, 1, 1)
    )


# ---------------------------------------------------------------------------
# Lemma 11
# ---------------------------------------------------------------------------


def _iterative_cases() -> list[tuple[FiniteMechanism, Any, Any, Any, Any]]:
    """(iterative mechanism, eps1, delta1, eps2, delta2) with each step (eps_i, delta_i)-DP."""
    a = random_mechanism(pair(), 3, seed=31, denominator=10, name="random3[31]")
    b = random_mechanism(pair(), 2, seed=36, denominator=10, name="random2[36]")
    c = random_mechanism(pair(), 3, seed=33, denominator=10, name="random3[33]")
    ea, eb, ec = (pure_epsilon(m).value for m in (a, b, c))
    out = [
        (
            iterative(a, lambda y: y == 0, lambda y: b if y == 1 else c, "adaptive"),
            ea,
            0,
            sp.Max(eb, ec),
            0,
        ),
        (iterative(a, lambda y: y != 2, lambda y: b, "stop unless 2"), ea, 0, eb, 0),
    ]
    r1, r2 = _kairouz(2, R(1, 20)), _kairouz(3, R(1, 50))
    out.append(
        (
            iterative(r1, lambda y: y in (1, 3), lambda y: r2, "RR_(eps,delta) twice"),
            sp.log(2),
            R(1, 20),
            sp.log(3),
            R(1, 50),
        )
    )
    return out


@claim(
    id="hartmann2022.lemma11.iterative",
    source=f"{SRC}, §5.1, Lemma 11",
    statement="an iterative mechanism (Algorithm 3) whose steps are (eps_j, delta_j)-DP is (P, e, "
    "delta)-ODP for the partition by length with e(S_i) = eps_i and delta = sum_i delta'_i, where "
    "(eps_i, delta'_i) is what a DP composition theorem gives for the first t_i steps: the simple "
    "composition theorem (eps_i = sum_(j <= t_i) eps_j, delta'_i = sum_(j <= t_i) delta_j), or "
    "Kairouz et al.'s optimal one for homogeneous eps-DP steps ((t_i - 2l) eps, delta_l)",
    expected="holds",
    instances="two-step mechanisms (random steps with their exact eps, adaptive and fixed; Kairouz's "
    "RR_(eps,delta) twice); a three-step adaptive mechanism with randomized criteria and (eps, "
    "delta)-DP steps; three log 2-DP steps with Kairouz et al.'s optimal composition",
    search=S.lemma11_search("hartmann2022.lemma11.iterative"),
)
def lemma11() -> CheckResult:
    parts = []
    for m, e1, d1, e2, d2 in _iterative_cases():
        part = _length_partition(m)
        g = ODPGuarantee.of(part, {1: e1, 2: e1 + e2}, d1 + (d1 + d2))
        parts.append(check_odp(m, g, title=f"Lemma 11 on {m.name}"))
    for inst, name in ((_three_step(), "three adaptive steps"), (_homogeneous(), "Kairouz")):
        m = law_mechanism(inst, name)
        budgets, delta = S.simple_composition(inst)
        g = length_guarantee(m, inst.stops, budgets, delta)
        parts.append(check_odp(m, g, title=f"Lemma 11 on {name}"))
    return conjunction("Lemma 11", parts)


# ---------------------------------------------------------------------------
# Lemma 14
# ---------------------------------------------------------------------------


@claim(
    id="hartmann2022.lemma14.post_processing",
    source=f"{SRC}, §5.2, Lemma 14",
    statement="post-processing every step of an iterative mechanism whose steps do not depend on the "
    "previous outputs by randomized functions (which may depend on the outputs so far) keeps its "
    "(P, e, delta)-ODP guarantee (partition by length)",
    expected="holds",
    instances="the non-adaptive two-step mechanisms of Lemma 11 with random stochastic maps per step, "
    "at Lemma 11's guarantee and at the mechanism's exact ODP delta",
    search=S.lemma14_search("hartmann2022.lemma14.post_processing"),
)
def lemma14() -> CheckResult:
    rng = random.Random(14)
    parts = []
    for m, e1, d1, e2, d2 in _iterative_cases()[1:]:
        # f_1: y1 -> z1 in {0, 1}; f_2: (y1, y2) -> z2 in {0, 1} (may depend on y1)
        f1 = {o[0]: random_rational_distribution(2, rng, 6) for o in m.outputs}
        f2 = {o[:2]: random_rational_distribution(2, rng, 6) for o in m.outputs if len(o) == 2}
        dists: dict[Any, dict[Any, sp.Expr]] = {d: {} for d in m.datasets}
        for o in m.outputs:
            for z1 in (0, 1):
                if len(o) == 1:
                    key: Any = (z1,)
                    for d in m.datasets:
                        dists[d][key] = dists[d].get(key, 0) + m.p(d, o) * f1[o[0]][z1]
                else:
                    for z2 in (0, 1):
                        key = (z1, z2)
                        for d in m.datasets:
                            dists[d][key] = (
                                dists[d].get(key, 0) + m.p(d, o) * f1[o[0]][z1] * f2[o][z2]
                            )
        outs = sorted({k for row in dists.values() for k in row}, key=lambda k: (len(k), k))
        post = FiniteMechanism(
            m.graph,
            {d: {k: dists[d].get(k, 0) for k in outs} for d in dists},
            outs,
            name=f"post-processed {m.name}",
            validate=False,
        )
        for tag, delta in (
            ("Lemma 11's guarantee", d1 + (d1 + d2)),
            ("M's exact delta", None),
        ):
            if delta is None:  # the premise with equality: M's exact ODP delta
                g0 = ODPGuarantee.of(_length_partition(m), {1: e1, 2: e1 + e2}, 0)
                delta = max(
                    (
                        hockey_stick(m.distribution(d), m.distribution(d2), g0.e_of)
                        for d, d2 in m.ordered_pairs()
                    ),
                    key=lambda x: float(x),
                )
            g = ODPGuarantee.of(_length_partition(post), {1: e1, 2: e1 + e2}, delta)
            parts.append(check_odp(post, g, title=f"Lemma 14 on {m.name}, {tag}"))
    # three non-adaptive steps (eps, delta)-DP, randomized criteria; the maps: the identity
    # (the guarantee is kept with equality) and random ones depending on the outputs so far
    base = _three_step()
    base = replace(base, steps=tuple((vs[0],) for vs in base.steps))
    ident = tuple(
        (tuple(tuple(F(int(i == k)) for k in range(len(p))) for i in range(len(p))),)
        for ((p, _),) in base.steps
    )
    mixed = tuple(
        tuple(
            tuple(tuple(x for x in random_rational_distribution(2, rng, 6)) for _ in range(len(p)))
            for _ in range(2)
        )
        for ((p, _),) in base.steps
    )
    budgets, _ = S.simple_composition(replace(base, ell=()))
    m = law_mechanism(base, "three non-adaptive steps")
    outs, P, Q = S.iterative_law(base)
    delta = S.odp_delta(P, Q, [budgets[base.stops.index(len(y))] for y in outs])
    for tag, maps in (("identity maps (equality)", ident), ("random maps", mixed)):
        post = law_mechanism(replace(base, post=maps), f"post-processed, {tag}", post=True)
        g = length_guarantee(post, base.stops, budgets, delta)
        parts.append(check_odp(post, g, title=f"Lemma 14 on three non-adaptive steps, {tag}"))
    return conjunction("Lemma 14", parts)


# ---------------------------------------------------------------------------
# Lemma 12
# ---------------------------------------------------------------------------


def _lemma12_pairs() -> list[tuple[list[Fraction], list[Fraction], Fraction, Fraction, str]]:
    """``(P, Q, e^ε, δ, what)``: mirror pairs (equal masses) at ``δ`` their mass; pairs
    with *unequal* masses in the two directions at ``δ`` the larger mass and above it;
    pure pairs at their exact ratio (``δ = 0``); pairs with zeros."""
    out: list[tuple[list[Fraction], list[Fraction], Fraction, Fraction, str]] = []
    for P in (
        [F(1, 10), F(3, 10), F(3, 5)],
        [F(1, 20), F(9, 20), F(1, 2)],
        [F(1, 4), F(1, 2), F(1, 4)],
    ):
        Q = list(reversed(P))
        for e in (F(3, 2), F(2), F(3)):
            d = S.odp_delta(P, Q, [e] * 3)
            out.append((P, Q, e, d, "equal masses"))
    unequal = [
        ([F(1, 2), F(1, 4), F(1, 4)], [F(1, 10), F(3, 10), F(3, 5)], F(2)),
        ([F(7, 10), F(1, 5), F(1, 10)], [F(1, 5), F(1, 5), F(3, 5)], F(3, 2)),
        ([F(1, 2), F(1, 2), F(0)], [F(1, 4), F(1, 4), F(1, 2)], F(3)),
        ([F(9, 10), F(1, 10)], [F(1, 2), F(1, 2)], F(5, 4)),
    ]
    for P, Q, e in unequal:
        dP, dQ = S.hockey(P, Q, [e] * len(P)), S.hockey(Q, P, [e] * len(P))
        assert dP != dQ, "an unequal-mass instance has equal masses"
        d = max(dP, dQ)
        out.append((P, Q, e, d, f"unequal masses {dP} and {dQ}, delta = the larger"))
        out.append((P, Q, e, (d + 1) / 2, f"unequal masses {dP} and {dQ}, delta above both"))
    for seed in (31, 32, 36, 41):
        m = random_mechanism(pair(), 3, seed=seed, denominator=10)
        P = [_q(m.p("D", o)) for o in m.outputs]
        Q = [_q(m.p("D'", o)) for o in m.outputs]
        e = max(max(p / q, q / p) for p, q in zip(P, Q, strict=True))
        out.append((P, Q, e, F(0), "pure, at its exact ratio"))
    return out


@claim(
    id="hartmann2022.lemma12.rr_post_processing",
    source=f"{SRC}, §5.2, Lemma 12 (Kairouz et al. 2017)",
    statement="for every (eps, delta)-DP pair (P, Q) (e^eps > 1, delta < 1) there is a stochastic map "
    "T with RR_(eps,delta)(x^0) T = P and RR_(eps,delta)(x^1) T = Q: the explicit map of the "
    "construction (hockey-stick masses in the two directions possibly unequal) is stochastic and "
    "reproduces both distributions exactly",
    expected="holds",
    instances="mirror pairs (equal masses), pairs with unequal masses at delta = the larger mass and "
    "above it, pairs with zeros, pure pairs at their exact ratio",
    search=S.lemma12_search("hartmann2022.lemma12.rr_post_processing"),
    tightness=Tightness(
        "attained",
        1.0,
        "a pair whose delta is its own larger hockey-stick mass (e.g. P = (1/2, 1/4, 1/4), Q = "
        "(1/10, 3/10, 3/5), e^eps = 2): with a smaller delta' the row T_0 = (P - P')/delta' would "
        "need mass d_P/delta' > 1, so RR_(eps,delta') cannot reproduce it; the conclusion's "
        "equalities hold with zero slack",
    ),
)
def lemma12() -> CheckResult:
    def rows() -> Iterator[tuple[Any, Fraction, Fraction]]:
        for n, (P, Q, e, d, what) in enumerate(_lemma12_pairs()):
            # post-processing keeps RR_(eps,delta)'s guarantee: the reproduced pair has hockey-stick
            # mass at most delta (attained when delta is the pair's own larger mass)
            yield (n, what, "RR T is (eps, delta)-DP"), S.odp_delta(P, Q, [e] * len(P)), d
            for cond, amount in S.lemma12_violations(P, Q, e, d):
                yield (n, cond), amount, F(0)

    return check_all_le("Lemma 12: RR_(eps,delta) post-processed", rows())


# ---------------------------------------------------------------------------
# Theorem 15 (Eq. (3)) and the steps of its proof
# ---------------------------------------------------------------------------

#: ``(e^{ε_j}, δ_j, stopping points, e^{e(S_i)})`` settings for Theorem 15.
T15_SETTINGS: list[
    tuple[tuple[Fraction, ...], tuple[Fraction, ...], tuple[int, ...], tuple[Fraction, ...]]
] = [
    ((F(2), F(3)), (F(1, 20), F(1, 50)), (1, 2), (F(2), F(6))),
    ((F(2), F(2)), (F(1, 10), F(1, 10)), (1, 2), (F(3, 2), F(3))),
    ((F(3), F(2)), (F(0), F(1, 100)), (1, 2), (F(2), F(4))),
    ((F(2), F(3), F(3, 2)), (F(1, 10), F(0), F(1, 20)), (1, 3), (F(2), F(7))),
    ((F(2), F(2), F(2)), (F(0), F(0), F(0)), (1, 2, 3), (F(2), F(4), F(8))),
]


def rr_instance(
    a: Sequence[Fraction], d: Sequence[Fraction], stops: Sequence[int], b: Sequence[Fraction]
) -> S.Iterative:
    """The iterated ``RR_{ε_j,δ_j}`` with no stopping (criteria are set separately)."""
    return S.Iterative(
        tuple(a),
        tuple(d),
        tuple((S.rr_pair(a[j], d[j]),) for j in range(len(a))),
        tuple(stops),
        (),
        tuple(b),
    )


def rr_argmax_rule(inst: S.Iterative) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """A deterministic criterion attaining :func:`.search.deterministic_optimum` in the
    direction ``D -> D'`` (the recursion's choices: stop where the gain is larger)."""
    rule: list[tuple[tuple[int, ...], Fraction]] = []

    def value(y: tuple[int, ...], p: Fraction, q: Fraction) -> Fraction:
        t = len(y)
        gain = F(0)
        if t in inst.stops:
            gain = max(F(0), p - inst.b[inst.stops.index(t)] * q)
            if t == inst.T:
                return gain
        mp, mq = inst.mech(y)
        below = sum((value((*y, v), p * mp[v], q * mq[v]) for v in range(len(mp))), F(0))
        if t in inst.stops and gain >= below:
            rule.append((y, F(1)))
            return gain
        return below

    value((), F(1), F(1))
    return tuple(rule)


@claim(
    id="hartmann2022.theorem15",
    source=f"{SRC}, §5.2, Theorem 15, Eq. (3)",
    statement="the largest ODP delta of an iterative mechanism of (eps_j, delta_j)-DP steps over every "
    "mechanism and stopping criterion is Eq. (3), the maximum over prefix-free families of sets of "
    "iterated-RR output sequences of sum_i Pr[x^0 in S_i] - e^(e(S_i)) Pr[x^1 in S_i]: Eq. (3) equals "
    "the iterated RR's best deterministic criterion (every criterion enumerated), the iterated RR "
    "attains it, and it bounds every other mechanism",
    expected="holds",
    instances="five settings (two and three steps, delta_j = 0 and > 0, stopping points (1, 2), (1, 3), "
    "(1, 2, 3)); the criteria of the two-stop settings enumerated exhaustively; the three-step "
    "adaptive mechanism of Lemma 11",
    search=S.theorem15_search("hartmann2022.theorem15", "Theorem 15, Eq. (3)"),
)
def theorem15() -> CheckResult:
    parts = []
    rows: list[tuple[Any, Fraction, Fraction]] = []
    for n, (a, d, stops, b) in enumerate(T15_SETTINGS):
        eq3 = S.rr_optimum(a, d, stops, b)
        inst = rr_instance(a, d, stops, b)
        if len(stops) == 2:  # every deterministic criterion, enumerated
            brute = S.brute_force_optimum(inst)
            rows.append(((n, "Eq. (3) <= best criterion"), eq3, brute))
            rows.append(((n, "best criterion <= Eq. (3)"), brute, eq3))
        m = law_mechanism(replace(inst, rule=rr_argmax_rule(inst)), f"RR iteration {n}")
        g = length_guarantee(m, stops, b, eq3)
        parts.append(check_odp(m, g, title=f"setting {n}: the iterated RR attains Eq. (3) = {eq3}"))
    other = _three_step()
    m = law_mechanism(other, "three adaptive steps")
    bound = S.rr_optimum(other.a, other.d, other.stops, other.b)
    parts.append(
        check_odp(
            m,
            length_guarantee(m, other.stops, other.b, bound),
            title="a three-step adaptive mechanism is below Eq. (3)",
        )
    )
    return given(
        "Theorem 15",
        check_all_le(
            "Eq. (3) = the best deterministic criterion (every criterion enumerated)", rows
        ),
        conjunction("Eq. (3) is attained by the iterated RR and bounds another mechanism", parts),
    )


def _t15_rr_worst() -> CheckResult:
    """Existing check: two-step iterations of random ``(ε_i, δ_i)``-DP pairs (3
    outputs) with every deterministic criterion against the RR iteration's best."""
    rng = random.Random(1515)

    def dp_pair(e: Fraction, d: Fraction) -> tuple[list[Fraction], list[Fraction]] | None:
        p = [_q(x) for x in random_rational_distribution(3, rng, 12)]
        q = [_q(x) for x in random_rational_distribution(3, rng, 12)]
        return (p, q) if S.odp_delta(p, q, [e] * 3) <= d else None

    def rows() -> Iterator[tuple[Any, Fraction, Fraction]]:
        for n, (a, d, stops, b) in enumerate(T15_SETTINGS[:3]):
            worst = S.rr_optimum(a, d, stops, b)
            found = 0
            for _ in range(400):
                m1, m2 = dp_pair(a[0], d[0]), dp_pair(a[1], d[1])
                if m1 is None or m2 is None:
                    continue
                found += 1
                inst = S.Iterative(
                    a, d, ((tuple(map(tuple, m1)),), (tuple(map(tuple, m2)),)), stops, (), b
                )
                yield (n, found), S.brute_force_optimum(inst), worst
                if found == 15:
                    break
        inst = _three_step()
        yield (
            ("three adaptive steps",),
            S.deterministic_optimum(inst),
            S.rr_optimum(inst.a, inst.d, inst.stops, inst.b),
        )

    return check_all_le("the RR iteration is the worst case", rows())


@claim(
    id="hartmann2022.theorem15.step.rr_is_worst",
    source=f"{SRC}, App. C, proof of Lemma 13 (used by Theorem 15, Eq. (10)), the line 'any ODP "
    "guarantee that holds for the RR iteration also holds for M'",
    statement="iterations of arbitrary (eps_j, delta_j)-DP mechanisms (adaptive, any stopping "
    "criterion) have an ODP delta at most the RR iteration's worst case over criteria",
    expected="holds",
    kind="proof-step",
    instances="three (eps_i, delta_i) settings, 15 seeded random mechanism pairs each, every "
    "deterministic criterion; the three-step adaptive mechanism of Lemma 11",
    search=S.theorem15_search("hartmann2022.theorem15.step.rr_is_worst", "Lemma 13", rr=False),
)
def theorem15_rr_worst() -> CheckResult:
    return _t15_rr_worst()


@claim(
    id="hartmann2022.theorem15.step.deterministic_criteria",
    source=f"{SRC}, App. C, proof of Theorem 15, Eq. (12) (the worst case is a deterministic stopping "
    "criterion)",
    statement="for a fixed iterative mechanism the ODP delta of a randomized stopping criterion is at "
    "most the maximum over the deterministic criteria (a maximum of functions linear in the "
    "stopping probabilities)",
    expected="holds",
    kind="proof-step",
    instances="three (eps_i, delta_i) settings of the RR iteration, 40 seeded randomized criteria each",
    search=S.criteria_search("hartmann2022.theorem15.step.deterministic_criteria"),
)
def theorem15_deterministic() -> CheckResult:
    rng = random.Random(15)

    def rows() -> Iterator[tuple[Any, Fraction, Fraction]]:
        for n, (a, d, stops, b) in enumerate(T15_SETTINGS[:3]):
            inst = rr_instance(a, d, stops, b)
            best = S.rr_optimum(a, d, stops, b)
            for k in range(40):
                rule = tuple(((v,), F(rng.randint(0, 12), 12)) for v in range(4))
                cand = replace(inst, rule=rule)
                outs, P, Q = S.iterative_law(cand)
                got = S.odp_delta(P, Q, [b[stops.index(len(y))] for y in outs])
                yield (n, k), got, best

    return check_all_le("Eq. (12)", rows())
