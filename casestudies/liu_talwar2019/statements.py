"""Liu & Talwar 2019: the numbered statements not covered by :mod:`.claims` and
:mod:`.appendix_e` — Definition 1.1, the sparse-vector results of §4 (through the finite
facts their proofs use), Lemma 5.1 and Theorem 5.2 (continuous Laplace noise, decided
exactly at finitely many points, :mod:`verifier.laplace`), the concentration lemmas of
App. A and App. C.

Findings (each with certificates on both sides; see the claims' notes):

* **Theorem 5.2, third part.**  The truncated Laplace mechanism ``q +
  TLap^{(log 1/δ)}(s/ε)`` (Laplace of scale ``λ = s/ε`` conditioned on
  ``[-λ log(1/δ), λ log(1/δ)]``) has exact ``δ(ε) = δ(e^ε - 1)/(2(1 - δ))``: it is
  ``(ε, δ)``-DP iff ``e^ε <= 3 - 2δ``.  The printed range "``ε < 1, δ < 1/4``" is too
  wide: it fails for ``ln(3 - 2δ) < ε < 1`` (e.g. ``e^ε = 13/5``, ``δ = 6/25``) and holds
  for every ``δ < 1/4`` when ``ε <= ln(5/2)``.
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
from verifier.arithmetic import Verdict, decide_le
from verifier.certified import check_all_le, check_eq, check_le
from verifier.instances import random_mechanism, random_rational_distribution, randomized_response
from verifier.laplace import check_laplace_mixtures_dp
from verifier.mechanism import FiniteMechanism
from verifier.neighbours import pair
from verifier.privacy import check_pure_dp
from verifier.results import CheckResult, conjunction, implication

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
# §4: sparse vector
# ===========================================================================


@claim(
    id="liu_talwar2019.thm41.log_odds_lipschitz",
    source=f"{SRC}, §4.1, the paragraph before Theorem 4.1",
    statement="if Q is eps1-DP then ln p(tau, Q) and ln(1 - p(tau, Q)) are eps1-Lipschitz and "
    "ln Phi(p(tau, Q)), Phi(x) = x/(1-x), is 2 eps1-Lipschitz (every threshold, ordered pair)",
    expected="holds",
    instances="four seeded random 3-output mechanisms with their exact eps1, every threshold",
)
def thm41_lipschitz() -> CheckResult:
    def rows() -> Iterator[tuple[Any, Fraction, Fraction]]:
        for m in _mechs():
            a = _ratio(m)
            for cut in range(1, len(m.outputs)):
                for d, e in m.ordered_pairs():
                    p = sum((_q(m.p(d, o)) for o in m.outputs[cut:]), F(0))
                    pe = sum((_q(m.p(e, o)) for o in m.outputs[cut:]), F(0))
                    yield (m.name, cut, d, e, "p"), p, a * pe
                    yield (m.name, cut, d, e, "1-p"), 1 - p, a * (1 - pe)
                    yield (m.name, cut, d, e, "Phi"), p / (1 - p), a * a * pe / (1 - pe)

    return check_all_le("log-odds are 2 eps1-Lipschitz", rows())


@claim(
    id="liu_talwar2019.thm41.laplace_tails",
    source=f"{SRC}, Theorem 4.1 (d) and Theorem 4.4 (b), (c) (the Laplace tails their proofs use)",
    statement="with nu ~ Lap(2S/eps3) and xi ~ Lap(4S/eps3): Pr[xi < -(4S/eps3) ln(1/beta)] + "
    "Pr[nu > (2S/eps3) ln(1/beta)] = beta (Theorem 4.1 (d), S = 2 eps1), Pr[|nu| >= (2S/eps3) "
    "ln((R+1)/beta)] + R Pr[|xi| >= (4S/eps3) ln((R+1)/beta)] = beta (Theorem 4.4 (b)), and the "
    "coupling shifts |xi - xi'| <= 2S, |nu - nu'| <= S cost a density ratio of at most e^eps3",
    expected="holds",
    instances="beta in {1/100, 1/10, 1/2}, R in {1, 5, 20}, S/eps3 in {1/2, 3}",
)
def thm41_tails() -> CheckResult:
    def lap_tail(b: sp.Expr, t: sp.Expr) -> sp.Expr:
        """``Pr[Lap(b) > t] = e^{-t/b}/2`` for ``t >= 0``."""
        return sp.exp(-t / b) / 2

    parts = []
    for beta in (R(1, 100), R(1, 10), R(1, 2)):
        for k in (R(1, 2), R(3)):  # S/eps3
            bx, bn = 4 * k, 2 * k
            d = lap_tail(bx, bx * sp.log(1 / beta)) + lap_tail(bn, bn * sp.log(1 / beta))
            parts.append(check_eq(d, beta, f"(d): beta = {beta}"))
            for Rr in (1, 5, 20):
                t = sp.log((Rr + 1) / beta)
                tot = 2 * lap_tail(bn, bn * t) + Rr * 2 * lap_tail(bx, bx * t)
                parts.append(check_eq(tot, beta, f"4.4 (b): beta = {beta}, R = {Rr}"))
            eps3 = 1 / k  # S = 1
            parts.append(
                check_le(sp.exp(2 / bx) * sp.exp(1 / bn), sp.exp(eps3), f"coupling, S/eps3 = {k}")
            )
    return conjunction("Laplace tails of the sparse-vector proofs", parts)


@claim(
    id="liu_talwar2019.cor42.p_half",
    source=f"{SRC}, Corollary 4.2",
    statement="at p* = 1/2, Phi(p*) = 1 and Phi(p) <= x iff p <= x/(1+x): Theorem 4.1 (b)-(d)'s "
    "thresholds become beta^k/(beta^k + (R+1)^k), (R+1)^k/(beta^k + (R+1)^k) and "
    "1 - beta^k/(1+beta^k), k = 12 eps1/eps3",
    expected="holds",
    instances="beta in {1/100, 1/2}, R in {1, 10}, k in {1/2, 3}",
)
def cor42() -> CheckResult:
    parts = []
    for beta in (R(1, 100), R(1, 2)):
        for Rr in (1, 10):
            for k in (R(1, 2), R(3)):
                x_b = (beta / (Rr + 1)) ** k
                x_c = ((Rr + 1) / beta) ** k
                x_d = (1 / beta) ** k
                parts.append(check_eq(x_b / (1 + x_b), beta**k / (beta**k + (Rr + 1) ** k), "(b)"))
                parts.append(
                    check_eq(x_c / (1 + x_c), (Rr + 1) ** k / (beta**k + (Rr + 1) ** k), "(c)")
                )
                parts.append(check_eq(x_d / (1 + x_d), 1 - beta**k / (1 + beta**k), "(d)"))
    return conjunction("Corollary 4.2", parts)


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
    id="liu_talwar2019.lemma43.binomials",
    source=f"{SRC}, Lemma 4.3 (= Lemma A.3)",
    statement="for sums X, Y of independent Bernoullis with E X <= e^eps1 E Y: Pr[X >= e^(eps1+eps0) Y + "
    "(C/eps0) ln(2/delta0)] <= delta0, and the equivalent form Pr[X + Delta >= e^(eps1+eps0)(Y + Delta)] "
    "(the same event); e^eps1 = 5/4, e^eps0 = 9/4, 2/delta0 = (9/4)^m (so every threshold is rational)",
    expected="holds",
    instances="Bin(60, 1/2) vs Bin(60, 2/5), a 40-term Poisson binomial pair, Bin(200, 1/20) vs "
    "Bin(200, 1/25); m in {1, 2, 3}",
)
def lemma43() -> CheckResult:
    a = F(45, 16)  # e^(eps1 + eps0)
    C = 2 * (a + 1 + F(3, 2))  # 2(e^(eps0+eps1) + 1 + e^(eps0/2)) = 85/8

    def rows() -> Iterator[tuple[Any, Fraction, Fraction]]:
        for label, X, Y in _lemma43_cases():
            ex = sum((k * w for k, w in enumerate(X)), F(0))
            ey = sum((k * w for k, w in enumerate(Y)), F(0))
            cdf = list(itertools.accumulate(Y))  # cdf[y] = Pr[Y <= y]

            def below(t: Fraction, cdf: list[Fraction] = cdf) -> Fraction:
                """Pr[Y <= t]."""
                y = math.floor(t)
                return F(0) if y < 0 else cdf[min(y, len(cdf) - 1)]

            yield (label, "E X <= e^eps1 E Y"), ex, F(5, 4) * ey
            for m in (1, 2, 3):
                delta0 = 2 * F(4, 9) ** m
                thr = C * m  # (C/eps0) ln(2/delta0)
                Delta = thr / (a - 1)
                # X >= a Y + thr  <=>  Y <= (x - thr)/a;  X + Delta >= a(Y + Delta)  <=>  Y <= (x + Delta)/a - Delta
                pr = sum((wx * below((x - thr) / a) for x, wx in enumerate(X)), F(0))
                pr2 = sum((wx * below((x + Delta) / a - Delta) for x, wx in enumerate(X)), F(0))
                yield (label, m), pr, delta0
                yield (label, m, "same event"), pr2, pr
                yield (label, m, "same event'"), pr, pr2

    return check_all_le("Lemma 4.3", rows())


@claim(
    id="liu_talwar2019.lemma43.constant",
    source=f"{SRC}, Lemma 4.3 and Theorem 4.4 ('C = 2(e^(eps0+eps1) + 1 + e^(eps0/2)) < 21')",
    statement="C < 21 for eps0, eps1 in (0, 1): C increases in both, and at eps0 = eps1 = 1 it is "
    "2(e^2 + 1 + e^(1/2)) = 20.08",
    expected="holds",
)
def lemma43_constant() -> CheckResult:
    return check_le(2 * (sp.exp(2) + 1 + sp.exp(R(1, 2))), 21, "C at eps0 = eps1 = 1")


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


@claim(
    id="liu_talwar2019.lemma45.coupling",
    source=f"{SRC}, Lemma 4.5",
    statement="if Pr[G] >= 1 - delta and e^-eps Pr[Y in A | G] <= Pr[X in A | G] <= e^eps Pr[Y in A | G] "
    "then e^-eps (Pr[Y in A] - delta) <= Pr[X in A] <= e^eps Pr[Y in A] + delta, for every event A "
    "(seeded finite couplings: Y = X on G, independent outside)",
    expected="holds",
    instances="six seeded couplings on 3-4 outputs, e^eps in {1, 3/2}, every event A",
)
def lemma45() -> CheckResult:
    rng = random.Random(45)
    parts = []
    for n in range(6):
        k = 3 + n % 2
        base = [_q(x) for x in random_rational_distribution(k, rng, 12)]
        noise_x = [_q(x) for x in random_rational_distribution(k, rng, 12)]
        noise_y = [_q(x) for x in random_rational_distribution(k, rng, 12)]
        delta = F(rng.randint(1, 4), 20)
        # joint: with prob 1 - delta (event G) X = Y ~ base; otherwise X ~ noise_x, Y ~ noise_y
        px = [(1 - delta) * b + delta * nx for b, nx in zip(base, noise_x, strict=True)]
        py = [(1 - delta) * b + delta * ny for b, ny in zip(base, noise_y, strict=True)]
        for a in (F(1), F(3, 2)):
            rows = []
            for r in range(1, k + 1):
                for A in itertools.combinations(range(k), r):
                    pa, qa = sum(px[i] for i in A), sum(py[i] for i in A)
                    rows.append(((n, str(a), A, "upper"), pa, a * qa + delta))
                    rows.append(((n, str(a), A, "lower"), (qa - delta) / a, pa))
            premise = CheckResult("conditioned on G, X and Y have the same law", Verdict.HOLDS)
            parts.append(
                implication(f"coupling {n}", premise, check_all_le("the conclusion", rows))
            )
    return conjunction("Lemma 4.5", parts)


# ===========================================================================
# §5: Lemma 5.1, Theorem 5.2 (continuous Laplace noise, decided exactly)
# ===========================================================================


def _validation_mixtures(n: int, eps2: sp.Expr) -> tuple[dict[Any, list[tuple[Any, Any]]], sp.Expr]:
    """Q(D1, D2): i uniform in {1, 2}, m ~ M_i(D1) (two models), score q~_i(m, D2) (a
    multiple of 1/n) plus Lap(1/(n eps2)); datasets (D1, D2) with neighbours in either."""
    m1 = randomized_response(sp.log(2))
    m2 = random_mechanism(m1.graph, 2, seed=31, denominator=10)
    # q~_i(m, D2) for the two validation sets D2 in {"v", "v'"} (they differ by <= 1/n)
    scores = {
        "v": {(1, 0): R(3, n), (1, 1): R(5, n), (2, 0): R(4, n), (2, 1): R(7, n)},
        "v'": {(1, 0): R(4, n), (1, 1): R(5, n), (2, 0): R(3, n), (2, 1): R(6, n)},
    }
    out: dict[Any, list[tuple[Any, Any]]] = {}
    for d1 in ("D", "D'"):
        for d2 in ("v", "v'"):
            comps = []
            for i, M in ((1, m1), (2, m2)):
                for m in M.outputs:
                    comps.append((R(1, 2) * M.p(d1, m), scores[d2][(i, m)]))
            out[(d1, d2)] = comps
    return out, 1 / (n * eps2)


@claim(
    id="liu_talwar2019.lemma51.validation_scores",
    source=f"{SRC}, Lemma 5.1",
    statement="Q(D1, D2) (a uniform candidate, a model m ~ M_i(D1), its validation score + "
    "Lap(1/(n eps2))) is eps2-DP in the validation set D2 and eps1-DP in the training set D1: its "
    "density ratio is at most e^eps2 (resp. e^eps1) at every real t (decided at the centres and "
    "the two limits)",
    expected="holds",
    instances="two candidates (RR(log 2) and a random mechanism, eps1 = log 4 covers both), two "
    "models each, n = 10, eps2 in {1/2, 1}",
)
def lemma51() -> CheckResult:
    parts = []
    for eps2 in (R(1, 2), sp.Integer(1)):
        mix, b = _validation_mixtures(10, eps2)
        for d1 in ("D", "D'"):
            parts.append(
                check_laplace_mixtures_dp(
                    mix,
                    b,
                    eps2,
                    pairs=[((d1, "v"), (d1, "v'")), ((d1, "v'"), (d1, "v"))],
                    title=f"eps2-DP in D2 (D1 = {d1}, eps2 = {eps2})",
                )
            )
        for d2 in ("v", "v'"):
            parts.append(
                check_laplace_mixtures_dp(
                    mix,
                    b,
                    sp.log(4),
                    pairs=[(("D", d2), ("D'", d2)), (("D'", d2), ("D", d2))],
                    title=f"eps1-DP in D1 (D2 = {d2})",
                )
            )
    return conjunction("Lemma 5.1", parts)


@claim(
    id="liu_talwar2019.thm52.laplace_candidates",
    source=f"{SRC}, Theorem 5.2, proof of the first part",
    statement="M_i(D) = (i, q_i(D) + Lap(s/eps)) with sensitivity-s scores is eps-DP (density ratio "
    "<= e^eps at every t), the premise under which Theorem 3.2 gives the first part",
    expected="holds",
    instances="three candidates with scores differing by at most s = 1/2 between neighbours, eps in {1/2, 2}",
)
def thm52_laplace_candidates() -> CheckResult:
    scores = {"D": [R(0), R(1), R(3, 2)], "D'": [R(1, 2), R(3, 4), R(3, 2)]}
    parts = []
    for eps in (R(1, 2), sp.Integer(2)):
        for i in range(3):
            mix = {d: [(1, scores[d][i])] for d in scores}
            parts.append(
                check_laplace_mixtures_dp(mix, R(1, 2) / eps, eps, title=f"M_{i + 1}, eps = {eps}")
            )
    return conjunction("Laplace candidates are eps-DP", parts)


def _tlap_delta(eps: sp.Expr, delta: sp.Expr) -> sp.Expr:
    """The exact hockey-stick ``δ(ε)`` between ``s + TLap`` and ``TLap`` (scale ``λ = s/ε``,
    truncation ``[-λ ln(1/δ), λ ln(1/δ)]``), with ``s = 1``: on the overlap the density
    ratio is at most ``e^{s/λ} = e^ε`` (checked at the breakpoints by the caller), so
    ``δ(ε)`` is the mass of ``s + TLap`` beyond ``W = λ ln(1/δ)``, integrated exactly."""
    lam = 1 / eps
    W = lam * sp.log(1 / delta)
    x = sp.Symbol("x", real=True)
    dens = sp.exp(-(x - 1) / lam) / (2 * lam * (1 - delta))  # right of the centre s = 1
    return sp.integrate(dens, (x, W, 1 + W))


def _tlap_check(eps: sp.Expr, delta: sp.Expr) -> CheckResult:
    lam = 1 / eps
    W = lam * sp.log(1 / delta)
    # densities up to the common factor 1/(2 lam (1 - delta)): p(x) = e^{-|x-1|/lam}, p'(x) = e^{-|x|/lam}
    pts = [1 - W, 0, 1, W]
    ratio = [
        check_le(
            sp.exp(-abs(t - 1) / lam), sp.exp(eps) * sp.exp(-abs(t) / lam), f"overlap, x = {t}"
        )
        for t in pts
    ]
    d = sp.simplify(_tlap_delta(eps, delta))
    return conjunction(
        f"TLap at eps = {eps}, delta = {delta}",
        [*ratio, check_le(d, delta, f"delta(eps) = {sp.simplify(d)} <= delta")],
    )


@claim(
    id="liu_talwar2019.thm52.truncated_laplace",
    source=f"{SRC}, Theorem 5.2, proof of the third part ('satisfies (eps, delta)-DP when eps < 1, "
    "delta < 1/4')",
    statement="q + TLap^(log 1/delta)(s/eps) is (eps, delta)-DP for eps < 1 and delta < 1/4 (refuted: "
    "e^eps = 13/5, delta = 6/25 gives delta(eps) = delta (e^eps - 1)/(2(1 - delta)) = 16/50 * 6/25 / "
    "(38/25) > delta)",
    expected="refuted",
    kind="finding",
    notes="exact: delta(eps) = delta (e^eps - 1)/(2(1 - delta)) <= delta iff e^eps <= 3 - 2 delta; fails "
    "for ln(3 - 2 delta) < eps < 1, holds for every delta < 1/4 once eps <= ln(5/2) "
    "(liu_talwar2019.thm52.truncated_laplace_region)",
)
def thm52_truncated() -> CheckResult:
    return conjunction(
        "truncated Laplace in the printed range",
        [_tlap_check(sp.log(R(13, 5)), R(6, 25)), _tlap_check(R(99, 100), R(6, 25))],
    )


@claim(
    id="liu_talwar2019.thm52.truncated_laplace_region",
    source=f"{SRC}, Theorem 5.2, proof of the third part (where it holds)",
    statement="q + TLap^(log 1/delta)(s/eps) is (eps, delta)-DP when e^eps <= 3 - 2 delta, e.g. for every "
    "delta < 1/4 at eps <= ln(5/2), and at the boundary e^eps = 3 - 2 delta with equality",
    expected="holds",
    kind="finding",
    instances="(eps, delta) in {(1/2, 1/5), (ln(5/2), 6/25), (ln(5/2), 1/4), (ln(3 - 2/10), 1/10), (9/10, 1/100)}",
)
def thm52_truncated_region() -> CheckResult:
    cases = [
        (R(1, 2), R(1, 5)),
        (sp.log(R(5, 2)), R(6, 25)),
        (sp.log(R(5, 2)), R(1, 4)),
        (sp.log(3 - R(2, 10)), R(1, 10)),
        (R(9, 10), R(1, 100)),
    ]
    return conjunction(
        "truncated Laplace where e^eps <= 3 - 2 delta", [_tlap_check(e, d) for e, d in cases]
    )


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
        parts.append(check_pure_dp(mech, 2 * sp.log(2) + 8 * g))
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
    from .instances import rr_candidate

    e = sp.Symbol("epsilon", positive=True)
    return check_pure_dp(rr_candidate(e), e, over=(e, R(1, 100), 3))
