"""Liu & Talwar 2019: the numbered statements not covered by :mod:`.claims` — the
summary theorems of §1, the concentration lemmas of App. A, App. C and the folklore of
App. E (§4 and §5: :mod:`.section45`).

Findings (each with certificates on both sides; see the claims' notes):

* **Lemma E.2.**  As stated it is false: ``P = (1/9, 2/9, 2/3)``, ``Q = (1/6, 1/6,
  2/3)`` are ``(0, 1/18)``-close both ways, and for ``e^{ε'} = 11/9`` no event ``B``
  with ``P(B) <= δ/(1 - e^{ε-ε'}) = 11/36`` leaves ``P|B^c``, ``Q|B^c`` ``ε'``-close
  (all eight events are decided).  The proof's ``B = {P/Q >= e^{ε'}}`` only removes
  one direction and ignores the renormalisation.  The case the paper uses,
  ``ε' = ε + sqrt(2δ)`` (``Pr_P[B] <= sqrt δ``), holds on the same instance.
* **Lemma E.3.**  As printed it is false: off ``B`` the two conditionals agree and
  ``P(B) <= δ``, yet ``Q(B)`` may be large (``P = (1/100, 99/100)``, ``Q = (9/10,
  1/10)``, ``B`` the first point): the last step ``Pr_{Q|B^c}[S] <= Pr_Q[S]`` is false.
  With ``Q(B) <= P(B)`` (true for the ``B`` of Lemma E.2's proof) the conclusion holds.
  Theorem 3.4, which uses both lemmas, holds on its instances
  (``liu_talwar2019.thm34.approx``).
* **Lemma C.2, last line.**  ``(1 - exp(Σ E X_i))/Σ E X_i`` is negative (it is the
  integral ``∫_0^1 exp((t-1) Σ E X_i) dt`` with the sign of the exponent lost); the
  correct value ``(1 - exp(-Σ E X_i))/Σ E X_i`` is at most ``1/Σ E X_i`` and the lemma
  holds.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import Any

import sympy as sp

from casestudies import claim
from verifier.algorithms.liu_talwar import (
    BOTTOM,
    random_stopping_expected_calls,
    ranking,
    thresholding,
    uniform_selection,
)
from verifier.arithmetic import Verdict, decide_le
from verifier.certified import check_all_le, check_eq, check_le
from verifier.instances import random_mechanism, random_rational_distribution, randomized_response
from verifier.mechanism import FiniteMechanism
from verifier.neighbours import pair
from verifier.privacy import check_pure_dp, pure_epsilon
from verifier.results import CheckResult, Finding, conjunction, implication

F = Fraction
R = sp.Rational
SRC = "Liu & Talwar 2019"


def _q(x: Any) -> Fraction:
    v = sp.Rational(x)
    return F(int(v.p), int(v.q))


def _pos(x: Fraction) -> Fraction:
    return x if x > 0 else F(0)


def _mechs(n: int = 3) -> list[FiniteMechanism]:
    return [
        random_mechanism(pair(), n, seed=s, denominator=10, name=f"random{n}[{s}]")
        for s in (30, 31, 33, 37)
    ]


def _ratio(m: FiniteMechanism) -> Fraction:
    return max(_q(m.p(d, o)) / _q(m.p(e, o)) for d, e in m.ordered_pairs() for o in m.outputs)


# ===========================================================================
# Definition 1.1 and §2
# ===========================================================================


@claim(
    id="liu_talwar2019.def11.max_divergence",
    source=f"{SRC}, Definition 1.1 and §2 (the max-divergence D and D_delta)",
    statement="(eps, delta)-DP over every event S (Definition 1.1) agrees with D_delta(Q(D)||Q(D')) "
    "<= eps (§2), and D(A||B) = max_S ln(P(S)/Q(S)) is attained at a single output",
    expected="holds",
    instances="four seeded random 3-output mechanisms; e^eps in {1, 3/2, 2, 4}, delta in {0, 1/20, 1/5}",
)
def def11() -> CheckResult:
    def rows() -> Iterator[tuple[Any, Fraction, Fraction]]:
        for m in _mechs():
            n = len(m.outputs)
            P = {d: [_q(m.p(d, o)) for o in m.outputs] for d in m.datasets}
            events = [S for r in range(1, n + 1) for S in itertools.combinations(range(n), r)]
            for d, e in m.ordered_pairs():
                best_set = max(sum(P[d][i] for i in S) / sum(P[e][i] for i in S) for S in events)
                best_point = max(P[d][i] / P[e][i] for i in range(n))
                yield (m.name, d, e, "D: sets <= points"), best_set, best_point
                yield (m.name, d, e, "D: points <= sets"), best_point, best_set
                for a in (F(1), F(3, 2), F(2), F(4)):
                    for delta in (F(0), F(1, 20), F(1, 5)):
                        # D_delta <= eps  <=>  every event: P(S) - delta <= e^eps Q(S)
                        by_sets = all(
                            sum(P[d][i] for i in S) - delta <= a * sum(P[e][i] for i in S)
                            for S in events
                        )
                        by_sum = sum(_pos(P[d][i] - a * P[e][i]) for i in range(n)) <= delta
                        yield (m.name, d, e, str(a), str(delta)), F(int(by_sets != by_sum)), F(0)

    return check_all_le("Definition 1.1 and the max-divergence", rows())


# ===========================================================================
# §1: the summary theorems
# ===========================================================================


def _thm12_instances() -> list[tuple[FiniteMechanism, Fraction, int]]:
    """(Q = uniform selection over K scored mechanisms, tau, K) with some M_i having
    Pr[q >= tau] >= 1/2 at every dataset."""

    def scored(m: FiniteMechanism, scores: Sequence[int], name: str) -> FiniteMechanism:
        from verifier.compose import postprocess

        lab = dict(zip(m.outputs, scores, strict=True))
        return postprocess(m, lambda o: lab[o], sorted(scores), name=name)

    a = scored(randomized_response(sp.log(2)), [0, 1], "RR(log 2)")
    b = scored(random_mechanism(pair(), 3, seed=31, denominator=10), [0, 2, 3], "random3[31]")
    c = scored(random_mechanism(pair(), 2, seed=7, denominator=10), [1, 2], "random2[7]")
    return [
        (uniform_selection([a, b], name="Q_2"), F(1), 2),
        (uniform_selection([a, b, c], name="Q_3"), F(2), 3),
    ]


@claim(
    id="liu_talwar2019.thm12.known_threshold",
    source=f"{SRC}, Theorem 1.2 (Theorem 3.1 with gamma = 0 and no cap on T)",
    statement="given eps1-DP M_1..M_K and tau, thresholding the uniform selection with gamma = 0 "
    "and T = infinity is (a) 2 eps1-DP, (b) outputs only samples with q >= tau, (c) makes "
    "E[T~] = 1/p_tau <= 2K calls when some M_i has Pr[q >= tau] >= 1/2",
    expected="holds",
    instances="uniform selections over 2 and 3 scored mechanisms (RR(log 2), random)",
)
def thm12() -> CheckResult:
    from verifier.algorithms.liu_talwar import score_mass, thresholding_expected_iterations

    parts = []
    for Q, tau, K in _thm12_instances():
        t = R(tau.numerator, tau.denominator)
        A = thresholding(Q, t, 0, None)
        eps1 = pure_epsilon(Q).value
        parts.append(check_pure_dp(A, 2 * eps1, title=f"{Q.name}: (a) 2 eps1-DP"))
        rk = ranking(Q)
        for d in Q.datasets:
            below = sp.Add(
                *[A.p(d, o) for o in A.outputs if o == BOTTOM or rk.scores.get(o, t) < t]
            )
            parts.append(check_eq(below, 0, f"{Q.name}, {d}: (b) no output below tau"))
            et = thresholding_expected_iterations(Q, d, t, 0, None)
            parts.append(check_eq(et, 1 / score_mass(Q, d, t), f"{Q.name}, {d}: E[T] = 1/p_tau"))
            parts.append(check_le(et, 2 * K, f"{Q.name}, {d}: (c) E[T] <= 2K"))
    return conjunction("Theorem 1.2", parts)


@claim(
    id="liu_talwar2019.thm13.random_stopping_calls",
    source=f"{SRC}, Theorem 1.3 (b) (random stopping, §3.2)",
    statement="random stopping makes E[T~] = Σ_j j gamma (1-gamma)^(j-1) = 1/gamma calls "
    "(gamma in {1/10, 1/2}); (a) is Theorem 3.2, (c) holds by construction "
    "(liu_talwar2019.thm32.step.closed_form)",
    expected="holds",
)
def thm13_calls() -> CheckResult:
    j = sp.Symbol("j", integer=True, positive=True)
    parts = []
    for g in (R(1, 10), R(1, 2)):
        series = sp.summation(j * g * (1 - g) ** (j - 1), (j, 1, sp.oo))
        parts.append(check_eq(series, random_stopping_expected_calls(g), f"gamma = {g}"))
        parts.append(check_le(random_stopping_expected_calls(g), 1 / g, f"gamma = {g}: <= 1/gamma"))
    return conjunction("Theorem 1.3 (b)", parts)


# ===========================================================================
# App. A: the concentration lemmas (on Lemma 4.3's distributions; §4 is in
# :mod:`.section45`)
# ===========================================================================


def _binomial(n: int, p: Fraction) -> list[Fraction]:
    return [math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]


def _poisson_binomial(ps: Sequence[Fraction]) -> list[Fraction]:
    dist = [F(1)]
    for p in ps:
        new = [F(0)] * (len(dist) + 1)
        for k, w in enumerate(dist):
            new[k] += w * (1 - p)
            new[k + 1] += w * p
        dist = new
    return dist


def _lemma43_cases() -> list[tuple[str, list[Fraction], list[Fraction]]]:
    """(label, distribution of X, of Y) with E X <= e^{eps1} E Y, e^{eps1} = 5/4."""
    rng = random.Random(43)
    ys = [F(rng.randint(1, 9), 10) for _ in range(40)]
    xs = [y * F(5, 4) if y * F(5, 4) <= 1 else F(1) for y in ys]
    return [
        ("Bin(60, 1/2) vs Bin(60, 2/5)", _binomial(60, F(1, 2)), _binomial(60, F(2, 5))),
        ("Poisson binomial, 40 terms", _poisson_binomial(xs), _poisson_binomial(ys)),
        ("Bin(200, 1/20) vs Bin(200, 1/25)", _binomial(200, F(1, 20)), _binomial(200, F(1, 25))),
    ]


@claim(
    id="liu_talwar2019.lemmaA4.upper_tail",
    source=f"{SRC}, Lemma A.4, Eq. (3)",
    statement="Pr[X >= e^eps E X + ((e^eps + 1)/eps) ln(1/delta)] <= delta (e^eps = 9/4, delta = (4/9)^m)",
    expected="holds",
    instances="the Lemma 4.3 distributions of X and Y, m in {1, 2, 3, 5}",
)
def lemma_a4() -> CheckResult:
    def rows() -> Iterator[tuple[Any, Fraction, Fraction]]:
        for label, X, Y in _lemma43_cases():
            for name, D in (("X", X), ("Y", Y)):
                ex = sum((k * w for k, w in enumerate(D)), F(0))
                for m in (1, 2, 3, 5):
                    thr = F(9, 4) * ex + F(13, 4) * m
                    yield (
                        (label, name, m),
                        sum((w for k, w in enumerate(D) if k >= thr), F(0)),
                        F(4, 9) ** m,
                    )

    return check_all_le("Lemma A.4", rows())


@claim(
    id="liu_talwar2019.lemmaA5.lower_tail",
    source=f"{SRC}, Lemma A.5, Eq. (4)",
    statement="Pr[Y <= e^-eps E Y - ln(1/delta)/eps] <= delta (e^eps = 9/4, delta = (4/9)^m)",
    expected="holds",
    instances="the Lemma 4.3 distributions of X and Y, m in {1, 2, 3}",
)
def lemma_a5() -> CheckResult:
    def rows() -> Iterator[tuple[Any, Fraction, Fraction]]:
        for label, X, Y in _lemma43_cases():
            for name, D in (("X", X), ("Y", Y)):
                ey = sum((k * w for k, w in enumerate(D)), F(0))
                for m in (1, 2, 3):
                    thr = F(4, 9) * ey - m
                    yield (
                        (label, name, m),
                        sum((w for k, w in enumerate(D) if k <= thr), F(0)),
                        F(4, 9) ** m,
                    )

    return check_all_le("Lemma A.5", rows())


# ===========================================================================
# App. C: the exponential mechanism with dummy classes
# ===========================================================================


def _dummy_em(
    q_dists: Sequence[dict[Fraction, Fraction]], tau: Fraction, gamma: Fraction, e2: sp.Expr
) -> dict[Any, sp.Expr]:
    """The output distribution of Theorem C.1's mechanism: ``A_i = min(τ, q_i)`` for the
    ``N`` candidates, ``1 + 1/γ`` dummies at ``τ``, exponential mechanism with
    parameter ``ε2``; outputs ``(i, A_i)`` and ``"dummy"``."""
    n_dummy = 1 + int(1 / gamma)
    out: dict[Any, sp.Expr] = {}
    for combo in itertools.product(*[list(d.items()) for d in q_dists]):
        w = math.prod((p for _, p in combo), start=F(1))
        A = [min(tau, v) for v, _ in combo]
        weights = [sp.exp(e2 * R(a.numerator, a.denominator)) for a in A]
        tot = sum(weights) + n_dummy * sp.exp(e2 * R(tau.numerator, tau.denominator))
        for i, (a, wt) in enumerate(zip(A, weights, strict=True)):
            key = (i + 1, a)
            out[key] = out.get(key, 0) + R(w.numerator, w.denominator) * wt / tot
        key2 = "dummy"
        out[key2] = (
            out.get(key2, 0)
            + R(w.numerator, w.denominator)
            * n_dummy
            * sp.exp(e2 * R(tau.numerator, tau.denominator))
            / tot
        )
    return out


@claim(
    id="liu_talwar2019.thmC1.dummy_classes",
    source=f"{SRC}, Theorem C.1",
    statement="with 1 + 1/gamma dummy classes at tau and the exponential mechanism (eps2): Pr[dummy] <= "
    "(gamma + 1)/(N p gamma + 1); Pr[score >= tau - ln(1/(delta p))/eps2] >= 1 - delta; and the "
    "mechanism is (2 eps1 + 8 gamma)-DP when every q_i is eps1-DP",
    expected="holds",
    instances="N = 2 candidates with scores in {0, 1/2, 1}, eps1 = log 2, tau = 1, gamma = 1/8, "
    "eps2 in {1, 4}, delta = 1/10",
)
def thm_c1() -> CheckResult:
    tau, gamma, delta = F(1), F(1, 8), F(1, 10)
    h, z = F(1, 2), F(0)
    qs = {
        "D": [{z: F(1, 3), h: F(1, 3), F(1): F(1, 3)}, {z: F(1, 2), h: F(1, 4), F(1): F(1, 4)}],
        "D'": [{z: F(1, 6), h: F(1, 2), F(1): F(1, 3)}, {z: F(1, 4), h: F(1, 4), F(1): F(1, 2)}],
    }
    parts = []
    for e2 in (sp.Integer(1), sp.Integer(4)):
        dists = {d: _dummy_em(qs[d], tau, gamma, e2) for d in qs}
        for d in qs:
            N = len(qs[d])
            p = (
                sp.Add(
                    *[
                        R(pr.numerator, pr.denominator)
                        * sp.exp(e2 * (R(min(tau, v).numerator, min(tau, v).denominator) - 1))
                        for dist in qs[d]
                        for v, pr in dist.items()
                    ]
                )
                / N
            )
            g = R(gamma.numerator, gamma.denominator)
            parts.append(
                check_le(
                    dists[d]["dummy"], (g + 1) / (N * p * g + 1), f"{d}, eps2 = {e2}: Pr[dummy]"
                )
            )
            cut = 1 - sp.log(1 / (R(delta.numerator, delta.denominator) * p)) / e2
            good = sp.Add(
                *[
                    v
                    for k, v in dists[d].items()
                    if k == "dummy"
                    or decide_le(cut, R(k[1].numerator, k[1].denominator)).verdict is Verdict.HOLDS
                ]
            )
            parts.append(
                check_le(
                    1 - R(delta.numerator, delta.denominator), good, f"{d}, eps2 = {e2}: utility"
                )
            )
        keys = set(dists["D"]) | set(dists["D'"])
        mech = FiniteMechanism(
            pair(),
            {d: {k: dists[d].get(k, sp.Integer(0)) for k in keys} for d in dists},
            sorted(keys, key=str),
            name=f"dummy EM (eps2 = {e2})",
            validate=False,
        )
        parts.append(check_pure_dp(mech, 2 * sp.log(2) + 8 * R(gamma.numerator, gamma.denominator)))
    return conjunction("Theorem C.1", parts)


def _c2_instances() -> list[list[dict[Fraction, Fraction]]]:
    """Independent random variables on [0, 1] with rational values and probabilities."""
    rng = random.Random(2)
    out = []
    for n in range(5):
        xs = []
        for _ in range(2 + n % 3):
            k = rng.randint(2, 3)
            probs = [_q(p) for p in random_rational_distribution(k, rng, 10)]
            dist: dict[Fraction, Fraction] = {}
            for p in probs:
                v = F(rng.randint(0, 10), 10)
                dist[v] = dist.get(v, F(0)) + p
            xs.append(dist)
        out.append(xs)
    return out


def _c2_values(xs: Sequence[dict[Fraction, Fraction]]) -> tuple[Fraction, Fraction]:
    """``(E[1/(1 + Σ X_i)], Σ E X_i)``."""
    e = F(0)
    for combo in itertools.product(*[list(d.items()) for d in xs]):
        w = math.prod((p for _, p in combo), start=F(1))
        e += w / (1 + sum(v for v, _ in combo))
    mean = sum((sum(v * p for v, p in d.items()) for d in xs), F(0))
    return e, mean


@claim(
    id="liu_talwar2019.lemmaC2.negative_moment",
    source=f"{SRC}, Lemma C.2",
    statement="for independent X_i in [0, 1]: 1/(1 + Σ E X_i) <= E[1/(1 + Σ X_i)] <= 1/Σ E X_i",
    expected="holds",
    instances="five seeded families of 2-4 independent rational random variables on [0, 1]",
)
def lemma_c2() -> CheckResult:
    def rows() -> Iterator[tuple[Any, Fraction, Fraction]]:
        for n, xs in enumerate(_c2_instances()):
            e, mean = _c2_values(xs)
            yield (n, "Jensen"), 1 / (1 + mean), e
            if mean:
                yield (n, "upper"), e, 1 / mean

    return check_all_le("Lemma C.2", rows())


@claim(
    id="liu_talwar2019.lemmaC2.step.last_line",
    source=f"{SRC}, App. C, proof of Lemma C.2, the last two lines of the display (corrected sign)",
    statement="E[1/(1 + Σ X_i)] <= ∫_0^1 exp((t-1) Σ E X_i) dt = (1 - exp(-Σ E X_i))/Σ E X_i <= 1/Σ E X_i",
    expected="holds",
    kind="proof-step",
    instances="the Lemma C.2 families",
)
def lemma_c2_last() -> CheckResult:
    parts = []
    for n, xs in enumerate(_c2_instances()):
        e, mean = _c2_values(xs)
        m = R(mean.numerator, mean.denominator)
        if m == 0:
            continue
        val = (1 - sp.exp(-m)) / m
        parts.append(check_le(R(e.numerator, e.denominator), val, f"family {n}"))
        parts.append(check_le(val, 1 / m, f"family {n}: <= 1/Σ E X_i"))
    return conjunction("the last line, with exp(-Σ E X_i)", parts)


@claim(
    id="liu_talwar2019.lemmaC2.step.last_line_as_printed",
    source=f"{SRC}, App. C, proof of Lemma C.2, the last line of the display (as printed)",
    statement="E[1/(1 + Σ X_i)] <= (1 - exp(Σ E X_i))/Σ E X_i (refuted: the right side is negative)",
    expected="refuted",
    kind="finding",
    notes="the integral ∫_0^1 exp((t-1) s) dt is (1 - e^(-s))/s; the printed e^(+s) makes it negative. "
    "With the sign restored the step holds (liu_talwar2019.lemmaC2.step.last_line).",
)
def lemma_c2_printed() -> CheckResult:
    xs = _c2_instances()[0]
    e, mean = _c2_values(xs)
    m = R(mean.numerator, mean.denominator)
    return check_le(R(e.numerator, e.denominator), (1 - sp.exp(m)) / m, "as printed")


# ===========================================================================
# App. E: folklore
# ===========================================================================


@claim(
    id="liu_talwar2019.defE1.far_is_hockey_stick",
    source=f"{SRC}, Definition E.1",
    statement="P is (eps, delta)-far from Q (every event S) iff Σ_o (P(o) - e^eps Q(o))^+ <= delta",
    expected="holds",
    instances="four seeded random 3-output mechanisms, e^eps in {1, 3/2, 2}, delta in {0, 1/20, 1/5}",
)
def def_e1() -> CheckResult:
    # the hockey-stick form is what Definition 1.1's claim decides event by event
    return def11()


E2_P, E2_Q = (F(1, 9), F(2, 9), F(2, 3)), (F(1, 6), F(1, 6), F(2, 3))


def _e2_exists(
    P: Sequence[Fraction], Q: Sequence[Fraction], a_epsp: Any, bound: Any
) -> CheckResult:
    """Is there an event B with P(B) <= bound off which P and Q are e^{ε'}-close?  Every
    event is decided: the result compares ``min_B r(B)`` — over the events within the mass
    bound, ``r(B)`` the largest ratio between the conditionals ``P|B^c``, ``Q|B^c`` in
    either direction (``oo`` when one conditional is undefined and the other is not) —
    with ``e^{ε'}``; ``B`` qualifies iff ``r(B) <= e^{ε'}``."""
    n = len(P)
    best: sp.Expr = sp.oo
    where: Any = None
    for r in range(n + 1):
        for B in itertools.combinations(range(n), r):
            if decide_le(R(*_fr(sum((P[i] for i in B), F(0)))), bound).verdict is not Verdict.HOLDS:
                continue
            rest = [i for i in range(n) if i not in B]
            pb, qb = sum((P[i] for i in rest), F(0)), sum((Q[i] for i in rest), F(0))
            if pb == 0 or qb == 0:
                worst: sp.Expr = sp.Integer(1) if pb == qb else sp.oo
            else:
                worst = sp.Integer(1)
                for i in rest:
                    x, y = P[i] / pb, Q[i] / qb
                    for u, v in ((x, y), (y, x)):
                        worst = (
                            sp.oo
                            if v == 0 and u > 0
                            else (worst if v == 0 else max(worst, R(*_fr(u / v))))
                        )
            if worst < best:
                best, where = worst, B
    c = decide_le(best, a_epsp)
    f = Finding(c.verdict, where, None, best, a_epsp, best, a_epsp, tight=c.tight)
    return CheckResult(
        "min over admissible B of the largest conditional ratio <= e^eps'",
        c.verdict,
        [f],
        quantity="min_B r(B)",
    )


def _fr(x: Fraction) -> tuple[int, int]:
    return x.numerator, x.denominator


def _e2_premise(
    P: Sequence[Fraction], Q: Sequence[Fraction], a: Fraction, delta: Fraction
) -> CheckResult:
    rows = [
        ("P far from Q", sum((_pos(p - a * q) for p, q in zip(P, Q, strict=True)), F(0)), delta),
        ("Q far from P", sum((_pos(q - a * p) for p, q in zip(P, Q, strict=True)), F(0)), delta),
        ("delta < 1/10", delta, F(1, 10) - F(1, 10**9)),
    ]
    return check_all_le("P ==_(eps, delta) Q, delta < 1/10", rows)


@claim(
    id="liu_talwar2019.lemmaE2.as_stated",
    source=f"{SRC}, Lemma E.2",
    statement="P ==_(eps, delta) Q with delta < 1/10 and eps' > eps give an event B with P(B) <= "
    "delta/(1 - e^(eps - eps')) and P|B^c ==_(eps', 0) Q|B^c (refuted: P = (1/9, 2/9, 2/3), Q = (1/6, "
    "1/6, 2/3), eps = 0, delta = 1/18, e^eps' = 11/9: no event qualifies)",
    expected="refuted",
    kind="finding",
    notes="The proof's B = {P/Q >= e^eps'} removes only one direction of the ratio and ignores the "
    "renormalisation of the conditionals.  The case the paper uses, eps' = eps + sqrt(2 delta) with "
    "P(B) <= sqrt(delta), holds on the same instance (liu_talwar2019.lemmaE2.sqrt_case); Theorem 3.4, "
    "which uses it, holds on its instances (liu_talwar2019.thm34.approx).",
)
def lemma_e2() -> CheckResult:
    delta = F(1, 18)
    bound = R(1, 18) / (1 - R(9, 11))
    return implication(
        "Lemma E.2",
        _e2_premise(E2_P, E2_Q, F(1), delta),
        _e2_exists(E2_P, E2_Q, R(11, 9), bound),
    )


@claim(
    id="liu_talwar2019.lemmaE2.sqrt_case",
    source=f"{SRC}, Lemma E.2 ('In particular, setting eps' = eps + sqrt(2 delta)')",
    statement="with eps' = eps + sqrt(2 delta) an event B with P(B) <= sqrt(delta) and P|B^c, Q|B^c "
    "e^eps'-close exists, on the instance refuting the general statement and on two more",
    expected="holds",
    kind="finding",
    instances="P = (1/9, 2/9, 2/3), Q = (1/6, 1/6, 2/3) (delta = 1/18); two seeded (0, delta)-close pairs",
)
def lemma_e2_sqrt() -> CheckResult:
    parts = []
    cases = [
        (E2_P, E2_Q, F(1, 18)),
        ((F(1, 4), F(1, 4), F(1, 2)), (F(3, 10), F(1, 5), F(1, 2)), F(1, 20)),
        ((F(1, 5), F(3, 10), F(1, 2)), (F(1, 4), F(1, 4), F(1, 2)), F(1, 20)),
    ]
    for P, Q, delta in cases:
        d = R(delta.numerator, delta.denominator)
        parts.append(
            implication(
                f"P = {P}",
                _e2_premise(P, Q, F(1), delta),
                _e2_exists(P, Q, sp.exp(sp.sqrt(2 * d)), sp.sqrt(d)),
            )
        )
    return conjunction("Lemma E.2 at eps' = eps + sqrt(2 delta)", parts)


def _e3_check(
    P: Sequence[Fraction],
    Q: Sequence[Fraction],
    B: Sequence[int],
    a: Fraction,
    delta: Fraction,
    extra: bool,
) -> CheckResult:
    n = len(P)
    rest = [i for i in range(n) if i not in B]
    pb, qb = sum((P[i] for i in rest), F(0)), sum((Q[i] for i in rest), F(0))
    prem = (
        [(("P|B^c <= e^eps Q|B^c", i), P[i] / pb, a * Q[i] / qb) for i in rest]
        + [(("Q|B^c <= e^eps P|B^c", i), Q[i] / qb, a * P[i] / pb) for i in rest]
        + [("P(B) <= delta", sum((P[i] for i in B), F(0)), delta)]
    )
    if extra:
        prem.append(("Q(B) <= P(B)", sum((Q[i] for i in B), F(0)), sum((P[i] for i in B), F(0))))
    events = [S for r in range(1, n + 1) for S in itertools.combinations(range(n), r)]
    concl = [
        ((S,), sum((P[i] for i in S), F(0)), a * sum((Q[i] for i in S), F(0)) + delta)
        for S in events
    ]
    return implication(
        "Lemma E.3", check_all_le("premise", prem), check_all_le("P (eps, delta)-far from Q", concl)
    )


@claim(
    id="liu_talwar2019.lemmaE3.as_printed",
    source=f"{SRC}, Lemma E.3",
    statement="P|B^c ==_(eps, 0) Q|B^c and Pr_P[B] <= delta give P ==_(eps, delta) Q (refuted: P = (1/100, "
    "99/100), Q = (9/10, 1/10), B = the first point: the conditionals agree, P(B) = 1/100, but "
    "P(B^c) = 99/100 > e^0 Q(B^c) + 1/100)",
    expected="refuted",
    kind="finding",
    notes="The last step Pr_{Q|B^c}[S] <= Pr_Q[S] is false when Q(B) is large.  With Q(B) <= P(B) "
    "(the B of Lemma E.2's proof has Q(B) <= e^(-eps') P(B)) the conclusion holds "
    "(liu_talwar2019.lemmaE3.with_small_Q_mass).",
)
def lemma_e3() -> CheckResult:
    return _e3_check(
        (F(1, 100), F(99, 100)), (F(9, 10), F(1, 10)), (0,), F(1), F(1, 100), extra=False
    )


@claim(
    id="liu_talwar2019.lemmaE3.with_small_Q_mass",
    source=f"{SRC}, Lemma E.3 (with Q(B) <= P(B), as in its use after Lemma E.2)",
    statement="if moreover Q(B) <= P(B), then P is (eps, delta)-far from Q, on seeded instances",
    expected="holds",
    kind="finding",
    instances="six seeded 3-point pairs built with equal conditionals off B and Q(B) <= P(B) <= delta",
)
def lemma_e3_fixed() -> CheckResult:
    rng = random.Random(3)
    parts = []
    for _ in range(6):
        cond = [_q(p) for p in random_rational_distribution(2, rng, 10)]
        pB = F(rng.randint(1, 5), 50)
        qB = pB * F(rng.randint(0, 10), 10)
        P = (pB, (1 - pB) * cond[0], (1 - pB) * cond[1])
        Q = (qB, (1 - qB) * cond[0], (1 - qB) * cond[1])
        parts.append(_e3_check(P, Q, (0,), F(1), pB, extra=True))
    return conjunction("Lemma E.3 with Q(B) <= P(B)", parts)


# ===========================================================================
# App. B.1: both sides of the finding on the printed candidates
# ===========================================================================


@claim(
    id="liu_talwar2019.B1.printed_candidates_all_eps",
    source=f"{SRC}, App. B.1 (the printed candidates, over a range of eps)",
    statement="the printed candidates (0.8 w.p. 1/2 on d1, e^eps/2 on d1') are eps-DP at eps in "
    "{1/100, 1/10, 1/2, 69/100} (refuted at each: the ratio at 0.95 is 1/(2 - e^eps) > e^eps unless "
    "eps = 0, where both distributions coincide)",
    expected="refuted",
    kind="finding",
    notes="1/(2 - e^eps) <= e^eps iff (e^eps - 1)^2 <= 0 iff eps = 0: the printed pair is eps-DP at no "
    "eps > 0 (and e^eps/2 <= 1 needs eps <= ln 2).  The randomized-response candidates are eps-DP for "
    "every eps (liu_talwar2019.B1.rr_candidates_dp) and give the tight K eps example.",
)
def b1_printed_all_eps() -> CheckResult:
    from .claims import candidate

    parts = [
        check_pure_dp(candidate(R(1, 2), sp.exp(e) / 2, f"printed candidate, eps = {e}"), e)
        for e in (R(1, 100), R(1, 10), R(1, 2), R(69, 100))
    ]
    out = conjunction("the printed candidates at four eps", parts)
    out.notes.append(
        f"violated at {sum(p.verdict is Verdict.VIOLATED for p in parts)} of {len(parts)} eps"
    )
    return out


@claim(
    id="liu_talwar2019.B1.rr_candidates_dp",
    source=f"{SRC}, App. B.1 (the candidates with randomized response, the corrected example)",
    statement="candidates scoring 0.8 w.p. 1/(1+e^eps) on d1 and e^eps/(1+e^eps) on d1' are eps-DP for "
    "every eps in [1/100, 3], attained at both scores",
    expected="holds",
    kind="finding",
)
def b1_rr_candidates() -> CheckResult:
    from .claims import rr_candidate

    e = sp.Symbol("epsilon", positive=True)
    return check_pure_dp(rr_candidate(e), e, over=(e, R(1, 100), 3))
