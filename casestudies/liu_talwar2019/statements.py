"""Liu & Talwar 2019: the numbered statements not covered by :mod:`.claims`,
:mod:`.appendix_e` and :mod:`.section45` (§4 and §5, their algorithms run exactly) —
Definition 1.1 and the concentration lemmas of App. A and App. C.

Findings (each with certificates on both sides; see the claims' notes):

* **Theorem 5.2** (the third part's range, the first part's 3ε): :mod:`.section45`.
* **Lemma E.2, Lemma E.3** and what they mean for Theorem 3.4: :mod:`.appendix_e`.
* **Theorem C.1.**  "Outputs a dummy class with probability ``(γ+1)/(Npγ+1)``" is an
  upper bound, not an equality (``9/109`` against ``1/12`` at ``N = 100``).
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
from verifier.arithmetic.exact import Verdict, decide_le
from verifier.checks.certified import check_all_le, check_eq, check_le
from verifier.checks.privacy import check_pure_dp
from verifier.checks.results import CheckResult, conjunction
from verifier.mechanism.instances import random_mechanism, random_rational_distribution
from verifier.mechanism.model import FiniteMechanism
from verifier.mechanism.neighbours import pair

from . import events, search, tightness

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
    search=events.far_search(
        "liu_talwar2019.def11.max_divergence", f"{SRC}, Definition 1.1 and §2 (D_delta)"
    ),
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
    search=search.tail_search(
        "liu_talwar2019.lemmaA4.upper_tail",
        True,
        "sums of 1-12 independent Bernoullis, e^eps in {11/10, 3/2, 9/4, 4}, delta = e^(-m eps), m = 1..4",
    ),
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
    search=search.tail_search(
        "liu_talwar2019.lemmaA5.lower_tail",
        False,
        "sums of 1-12 independent Bernoullis, e^eps in {11/10, 3/2, 9/4, 4}, delta = e^(-m eps), m = 1..4",
    ),
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


def _c1_cases() -> list[
    tuple[str, dict[str, list[dict[Fraction, Fraction]]], Fraction, Fraction, Any]
]:
    """(name, score distributions of the N candidates at D and D', gamma, delta, eps2) for
    Theorem C.1 (tau = 1, scores in {0, 1/2, 1}, each candidate log 2-DP).  Chosen so that
    every conclusion says something: N p > 1 (the dummy bound is below 1) and
    ln(1/(delta p)) < eps2 (the utility threshold is above the lowest score)."""
    h, z, o = F(1, 2), F(0), F(1)
    up = ({z: F(1, 4), h: F(1, 4), o: F(1, 2)}, {z: F(1, 2), h: F(1, 4), o: F(1, 4)})
    mid = ({z: F(1, 3), h: F(1, 3), o: F(1, 3)}, {z: F(1, 6), h: F(1, 2), o: F(1, 3)})
    top = ({z: F(1, 10), h: F(1, 5), o: F(7, 10)}, {z: F(1, 5), h: F(1, 5), o: F(3, 5)})
    det = ({o: F(1)}, {o: F(1)})

    def qs(
        *cands: tuple[dict[Fraction, Fraction], dict[Fraction, Fraction]],
    ) -> dict[str, list[dict[Fraction, Fraction]]]:
        return {"D": [c[0] for c in cands], "D'": [c[1] for c in cands]}

    return [
        ("N = 3", qs(up, mid, top), F(1, 8), F(1, 10), sp.Integer(4)),
        ("N = 4", qs(up, mid, top, up), F(1, 5), F(1, 5), sp.Integer(5)),
        ("N = 5", qs(top, top, mid, up, top), F(1, 8), F(1, 10), sp.Integer(6)),
        ("N = 100, deterministic scores tau", qs(*([det] * 100)), F(1, 8), F(1, 10), sp.Integer(4)),
    ]


@claim(
    id="liu_talwar2019.thmC1.dummy_classes",
    source=f"{SRC}, Theorem C.1",
    statement="with 1 + 1/gamma dummy classes at tau and the exponential mechanism (eps2): Pr[dummy] <= "
    "(gamma + 1)/(N p gamma + 1) (printed as an equality; the proof shows <=); Pr[score >= tau - "
    "ln(1/(delta p))/eps2] >= 1 - delta; and the mechanism (releasing the class and its score) is "
    "(2 eps1 + 8 gamma)-DP when every q_i is eps1-DP",
    expected="holds",
    instances="N in {3, 4, 5} candidates with log 2-DP score distributions on {0, 1/2, 1}, tau = 1, "
    "(gamma, delta, eps2) in {(1/8, 1/10, 4), (1/5, 1/5, 5), (1/8, 1/10, 6)}, every conclusion "
    "non-vacuous (N p > 1, ln(1/(delta p)) < eps2); and N = 100 candidates with the score tau "
    "(Pr[dummy] within 1% of its bound)",
    tightness=lambda: tightness.thm_c1_entry(),
    scope_note="the mechanism enumerates the product of the N score distributions (3^N outcomes): "
    "its instances vary N up to 5 and the score distributions; a search over score distributions "
    "is not built",
)
def thm_c1() -> CheckResult:
    tau = F(1)
    parts = []
    for name, qs, gamma, delta, e2 in _c1_cases():
        g = R(gamma.numerator, gamma.denominator)
        dl = R(delta.numerator, delta.denominator)
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
            bound = (g + 1) / (N * p * g + 1)
            cut = 1 - sp.log(1 / (dl * p)) / e2
            if not (
                decide_le(bound, 1).verdict is Verdict.HOLDS
                and decide_le(0, cut).verdict is Verdict.HOLDS
            ):
                raise AssertionError(
                    f"Theorem C.1 instance {name} at {d} is vacuous"
                )  # pragma: no cover
            parts.append(check_le(dists[d]["dummy"], bound, f"{name}, {d}: Pr[dummy]"))
            good = sp.Add(
                *[
                    v
                    for k, v in dists[d].items()
                    if k == "dummy"
                    or decide_le(cut, R(k[1].numerator, k[1].denominator)).verdict is Verdict.HOLDS
                ]
            )
            if N <= 5:
                parts.append(
                    check_le(1 - dl, good, f"{name}, {d}: utility (the score >= {sp.N(cut, 3)})")
                )
        keys = set(dists["D"]) | set(dists["D'"])
        mech = FiniteMechanism(
            pair(),
            {d: {k: dists[d].get(k, sp.Integer(0)) for k in keys} for d in dists},
            sorted(keys, key=str),
            name=f"dummy EM ({name}, eps2 = {e2})",
            validate=False,
        )
        parts.append(check_pure_dp(mech, epsilon=2 * sp.log(2) + 8 * g))
    return conjunction("Theorem C.1", parts)


@claim(
    id="liu_talwar2019.thmC1.dummy_as_printed",
    source=f"{SRC}, Theorem C.1 ('The mechanism outputs a dummy class with probability "
    "(gamma + 1)/(N p gamma + 1)')",
    statement="the mechanism outputs a dummy class with probability exactly (gamma + 1)/(N p gamma + 1) "
    "(refuted: N = 100 candidates with the score tau, gamma = 1/8: Pr[dummy] = 9/109, the formula "
    "gives 1/12; the proof shows <=, which holds: liu_talwar2019.thmC1.dummy_classes)",
    expected="refuted",
    kind="finding",
    notes="By hand: with every score tau, p = 1 and the exponential mechanism picks one of N + 1 + "
    "1/gamma equal classes, 1 + 1/gamma of them dummies: (1 + 8)/(109) = 9/109; the formula gives "
    "(9/8)/(100/8 + 1) = 9/108 = 1/12.  The proof's last step uses E[1/(1 + Σ X)] <= 1/Σ E X "
    "(Lemma C.2), which drops the 1.",
)
def thm_c1_printed() -> CheckResult:
    name, qs, gamma, _delta, e2 = _c1_cases()[-1]
    dist = _dummy_em(qs["D"], F(1), gamma, e2)
    g = R(gamma.numerator, gamma.denominator)
    N = len(qs["D"])
    return check_eq(
        dist["dummy"], (g + 1) / (N * g + 1), f"{name}: Pr[dummy] = (gamma + 1)/(N p gamma + 1)"
    )


def _c2_instances() -> list[list[dict[Fraction, Fraction]]]:
    """Independent random variables on [0, 1] with rational values and probabilities; the
    first family is deterministic (Jensen's inequality is then an equality)."""
    rng = random.Random(2)
    out = [[{F(1, 2): F(1)}, {F(1, 4): F(1)}, {F(1): F(1)}]]
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
    instances="a deterministic family (Jensen's inequality with equality) and five seeded families "
    "of 2-4 independent rational random variables on [0, 1]",
    search=search.c2_search(
        "liu_talwar2019.lemmaC2.negative_moment",
        "1-4 independent random variables, each on 1-3 values in {0, 1/10, .., 1}",
    ),
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
    from .instances import candidate

    parts = [
        check_pure_dp(candidate(R(1, 2), sp.exp(e) / 2, f"printed candidate, eps = {e}"), epsilon=e)
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
    from .instances import rr_candidate

    e = sp.Symbol("epsilon", positive=True)
    return check_pure_dp(rr_candidate(e), epsilon=e, over=(e, R(1, 100), 3))
