"""Hartmann et al. 2022: the displayed steps of the proofs of Theorem 7 (App. B,
Lemma 20 and the induction) and of Theorem 15 (App. C, via Lemma 13), each a claim of
kind ``proof-step`` on exact finite instances.

Lemma 20 is the one-round step of Theorem 7's induction: ``M`` is ``(P, e, δ)``-ODP
with cells ``S_j``; after an output ``y ∈ S_j`` the continuation views ``X^0_y,
X^1_y`` are ``(ε_g - e(S_j), δ_g - δ)``-close; then ``(M, X_M)`` is ``(ε_g, δ_g)``-close.
Its proof splits a set ``V`` of views into slices ``V_j = V ∩ (S_j × Z)`` and bounds
each slice with the positive part ``μ_j^+`` of ``Pr[M(D^0) ∈ ·] - e^{e(S_j)} Pr[M(D^1)
∈ ·]`` on ``S_j`` (Eqs. (6)–(8)), then sums the slices with ``Σ_j μ_j^+(S_j) <= δ``
(Eq. (9), the ODP guarantee read as a sum over cells).  The instances are seeded
random mechanisms with rational probabilities, two-cell partitions with rational
budgets ``a_j = e^{e(S_j)}`` and randomized-response continuations with
``e^{ε_g - e(S_j)} = A/a_j``, so every quantity is rational.

Theorem 15 computes the optimal ODP ``δ`` of an iterative mechanism from iterated
randomized response ``RR_{ε,δ}`` (Lemma 12, Kairouz et al.): its proof reduces to
deterministic stopping criteria (Eq. (12): the ``δ`` of a randomized criterion is a
maximum of functions linear in the stopping probabilities, hence at most its value at
a vertex) and shows that any other ``(ε_i, δ_i)``-DP iterations do no worse
(Lemma 13).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import Any

import sympy as sp

from casestudies import claim
from verifier.certified import check_all_le
from verifier.instances import random_mechanism, random_rational_distribution
from verifier.neighbours import pair
from verifier.results import CheckResult

F = Fraction
SRC = "Hartmann et al. 2022"


def _q(x: Any) -> Fraction:
    v = sp.Rational(x)
    return F(int(v.p), int(v.q))


def _pos(x: Fraction) -> Fraction:
    return x if x > 0 else F(0)


class _L20:
    """One Lemma 20 instance on the pair ``D^0 = D``, ``D^1 = D'``."""

    def __init__(self, seed: int):
        rng = random.Random(seed)
        m = random_mechanism(pair(), 4, seed=seed, denominator=12)
        self.Y = list(m.outputs)
        self.P = {b: {y: _q(m.p(d, y)) for y in self.Y} for b, d in ((0, "D"), (1, "D'"))}
        cut = rng.randint(1, 3)
        self.cells = [self.Y[:cut], self.Y[cut:]]
        self.a = [max(F(1), F(rng.choice((1, 5, 3, 2)), rng.choice((1, 4, 2)))) for _ in self.cells]
        # δ of the guarantee: Σ_j μ_j^+(S_j), the larger of the two directions
        self.delta = max(self.mu(0, 0) + self.mu(0, 1), self.mu(1, 0) + self.mu(1, 1))
        self.A = 2 * max(self.a)  # e^{ε_g}
        self.delta_g = self.delta + F(1, 20)
        # continuations: randomized response with e^{ε_g - e(S_j)} = A / a_j
        self.Z = [0, 1]
        self.X: dict[int, dict[Any, dict[int, Fraction]]] = {0: {}, 1: {}}
        for j, cell in enumerate(self.cells):
            c = self.A / self.a[j]
            for y in cell:
                hi, lo = c / (1 + c), 1 / (1 + c)
                flip = rng.random() < 0.5
                self.X[0][y] = {0: lo, 1: hi} if flip else {0: hi, 1: lo}
                self.X[1][y] = {0: hi, 1: lo} if flip else {0: lo, 1: hi}

    def cell_of(self, y: Any) -> int:
        return 0 if y in self.cells[0] else 1

    def mu(self, b: int, j: int) -> Fraction:
        """``μ_j^+(S_j) = Σ_{y in S_j} (P^b(y) - a_j P^{1-b}(y))^+``."""
        return sum((_pos(self.P[b][y] - self.a[j] * self.P[1 - b][y]) for y in self.cells[j]), F(0))

    def joint(self, b: int, y: Any, z: int) -> Fraction:
        return self.P[b][y] * self.X[b][y][z]

    def slice_excess(self, b: int, j: int) -> Fraction:
        """``max_{V_j ⊆ S_j × Z} Pr[(M^b, X^b) in V_j] - e^{ε_g} Pr[(M^{1-b}, X^{1-b}) in V_j]``."""
        return sum(
            (
                _pos(self.joint(b, y, z) - self.A * self.joint(1 - b, y, z))
                for y in self.cells[j]
                for z in self.Z
            ),
            F(0),
        )


def _l20s() -> list[_L20]:
    return [_L20(s) for s in range(200, 212)]


@claim(
    id="hartmann2022.theorem7.step.slice_bound",
    source=f"{SRC}, App. B, proof of Lemma 20, Eqs. (7) and (8) (one slice V_j)",
    statement="for every slice V_j ⊆ S_j × Z: Pr[(M(D^b), X^b) in V_j] <= e^(eps_g) Pr[(M(D^(1-b)), "
    "X^(1-b)) in V_j] + (delta_g - delta) Pr[M(D^b) in S_j] + mu_j^+(S_j), using Pr[X^b_y in V_y] <= "
    "min(1, e^(eps_g - e(S_j)) Pr[X^(1-b)_y in V_y] + delta_g - delta) (the worst V_j, exactly)",
    expected="holds",
    kind="proof-step",
    instances="twelve seeded random mechanisms with 4 outputs, two cells, rational cell budgets, "
    "randomized-response continuations; both directions",
)
def lemma20_slice() -> CheckResult:
    def rows() -> Iterator[tuple[Any, Fraction, Fraction]]:
        for n, c in enumerate(_l20s()):
            for b in (0, 1):
                for j in (0, 1):
                    mass = sum((c.P[b][y] for y in c.cells[j]), F(0))
                    yield (n, b, j), c.slice_excess(b, j), (c.delta_g - c.delta) * mass + c.mu(b, j)

    return check_all_le("Eq. (8): one slice", rows())


@claim(
    id="hartmann2022.theorem7.step.odp_sum",
    source=f"{SRC}, App. B, proof of Lemma 20, Eq. (9)",
    statement="the (P, e, delta)-ODP guarantee (Def. 2, a sum over the cells) gives Σ_j mu_j^+(S_j) "
    "<= delta, and summing Eq. (8) over the slices gives Pr[(M, X) in V] <= e^(eps_g) Pr[...] + "
    "(delta_g - delta) + delta = ... + delta_g",
    expected="holds",
    kind="proof-step",
    instances="the Lemma 20 instances, both directions, the worst V",
)
def lemma20_odp_sum() -> CheckResult:
    def rows() -> Iterator[tuple[Any, Fraction, Fraction]]:
        for n, c in enumerate(_l20s()):
            for b in (0, 1):
                yield (n, b, "Eq. (9)"), c.mu(b, 0) + c.mu(b, 1), c.delta
                total = c.slice_excess(b, 0) + c.slice_excess(b, 1)
                yield (n, b, "sum"), total, c.delta_g

    return check_all_le("Eq. (9) and the sum over slices", rows())


@claim(
    id="hartmann2022.theorem7.step.continuations",
    source=f"{SRC}, App. B, proof of Theorem 7, the induction step (the line invoking the induction "
    "hypothesis, then Lemma 20)",
    statement="after an output y in S_j the rest of the game is played with budgets (eps_g - e(S_j), "
    "delta_g - delta): its views are (eps_g - e(S_j), delta_g - delta)-close, the premise Lemma 20 "
    "consumes (here: randomized-response continuations, decided exactly)",
    expected="holds",
    kind="proof-step",
    instances="the Lemma 20 instances: every output y and both directions",
)
def theorem7_continuations() -> CheckResult:
    def rows() -> Iterator[tuple[Any, Fraction, Fraction]]:
        for n, c in enumerate(_l20s()):
            for y in c.Y:
                j = c.cell_of(y)
                for b in (0, 1):
                    ex = sum(
                        (_pos(c.X[b][y][z] - c.A / c.a[j] * c.X[1 - b][y][z]) for z in c.Z), F(0)
                    )
                    yield (n, y, b), ex, c.delta_g - c.delta

    return check_all_le("the continuations are close", rows())


# ===========================================================================
# Theorem 15 (via Lemmas 12 and 13), App. C
# ===========================================================================


def _rr(e: Fraction, d: Fraction) -> tuple[list[Fraction], list[Fraction]]:
    """Kairouz et al.'s ``RR_{ε,δ}`` (Lemma 12) with ``e = e^ε``: four outputs."""
    return (
        [d, (1 - d) * e / (1 + e), (1 - d) / (1 + e), F(0)],
        [F(0), (1 - d) / (1 + e), (1 - d) * e / (1 + e), d],
    )


def _odp_delta(
    P: Sequence[Sequence[Fraction]],
    Q: Sequence[Sequence[Fraction]],
    stop: Sequence[Fraction],
    a1: Fraction,
    a2: Fraction,
) -> Fraction:
    """The ODP δ (Def. 2, sum over the two cells 'stopped after one step', 'after two') of
    the two-step iterative mechanism whose second step is run after ``y1`` with
    probability ``1 - stop[y1]``; cell budgets ``e^{e(S_1)} = a1``, ``e^{e(S_2)} = a2``;
    the larger of the two directions."""

    def one(A: Sequence[Sequence[Fraction]], B: Sequence[Sequence[Fraction]]) -> Fraction:
        s = F(0)
        for y1 in range(len(A[0])):
            s += _pos(stop[y1] * (A[0][y1] - a1 * B[0][y1]))
            for y2 in range(len(A[1])):
                s += _pos((1 - stop[y1]) * (A[0][y1] * A[1][y2] - a2 * B[0][y1] * B[1][y2]))
        return s

    return max(one(P, Q), one(Q, P))


def _t15_params() -> list[tuple[Fraction, Fraction, Fraction, Fraction, Fraction, Fraction]]:
    """(e^ε1, δ1, e^ε2, δ2, e^{e(S_1)}, e^{e(S_2)})."""
    return [
        (F(2), F(1, 20), F(3), F(1, 50), F(2), F(6)),
        (F(2), F(1, 10), F(2), F(1, 10), F(3, 2), F(3)),
        (F(3), F(0), F(2), F(1, 100), F(2), F(4)),
    ]


def _deterministic_max(P: Any, Q: Any, a1: Fraction, a2: Fraction) -> Fraction:
    n = len(P[0])
    return max(
        _odp_delta(P, Q, [F(int(s)) for s in bits], a1, a2)
        for bits in itertools.product((0, 1), repeat=n)
    )


@claim(
    id="hartmann2022.theorem15.step.deterministic_criteria",
    source=f"{SRC}, App. C, proof of Theorem 15, Eq. (12) (the worst case is a deterministic stopping "
    "criterion)",
    statement="for iterated RR_{eps,delta} the ODP delta of a randomized stopping criterion is at most "
    "the maximum over the deterministic criteria (it is a maximum of functions linear in the stopping "
    "probabilities)",
    expected="holds",
    kind="proof-step",
    instances="three (eps_i, delta_i) settings, 40 seeded randomized criteria each",
)
def theorem15_deterministic() -> CheckResult:
    rng = random.Random(15)

    def rows() -> Iterator[tuple[Any, Fraction, Fraction]]:
        for n, (e1, d1, e2, d2, a1, a2) in enumerate(_t15_params()):
            r1, r2 = _rr(e1, d1), _rr(e2, d2)
            P, Q = [r1[0], r2[0]], [r1[1], r2[1]]
            best = _deterministic_max(P, Q, a1, a2)
            for k in range(40):
                stop = [F(rng.randint(0, 12), 12) for _ in range(4)]
                yield (n, k), _odp_delta(P, Q, stop, a1, a2), best

    return check_all_le("Eq. (12)", rows())


@claim(
    id="hartmann2022.theorem15.step.rr_is_worst",
    source=f"{SRC}, App. C, proof of Lemma 13 (used by Theorem 15, Eq. (10)), the line 'any ODP "
    "guarantee that holds for the RR iteration also holds for M'",
    statement="two-step iterations of arbitrary (eps_i, delta_i)-DP mechanisms (seeded random pairs "
    "shaved to the DP parameters) with any deterministic stopping criterion have an ODP delta at most "
    "the RR iteration's worst case",
    expected="holds",
    kind="proof-step",
    instances="three (eps_i, delta_i) settings, 15 seeded random mechanism pairs each, every "
    "deterministic criterion",
)
def theorem15_rr_worst() -> CheckResult:
    rng = random.Random(1515)

    def dp_pair(e: Fraction, d: Fraction) -> tuple[list[Fraction], list[Fraction]] | None:
        """A random pair on 3 outputs that is (log e, d)-DP (both directions), or None."""
        p = [_q(x) for x in random_rational_distribution(3, rng, 12)]
        q = [_q(x) for x in random_rational_distribution(3, rng, 12)]
        h1 = sum((_pos(x - e * y) for x, y in zip(p, q, strict=True)), F(0))
        h2 = sum((_pos(y - e * x) for x, y in zip(p, q, strict=True)), F(0))
        return (p, q) if max(h1, h2) <= d else None

    def rows() -> Iterator[tuple[Any, Fraction, Fraction]]:
        for n, (e1, d1, e2, d2, a1, a2) in enumerate(_t15_params()):
            r1, r2 = _rr(e1, d1), _rr(e2, d2)
            worst = _deterministic_max([r1[0], r2[0]], [r1[1], r2[1]], a1, a2)
            found = 0
            for _ in range(400):
                m1, m2 = dp_pair(e1, d1), dp_pair(e2, d2)
                if m1 is None or m2 is None:
                    continue
                found += 1
                P, Q = [m1[0], m2[0]], [m1[1], m2[1]]
                yield (n, found), _deterministic_max(P, Q, a1, a2), worst
                if found == 15:
                    break

    return check_all_le("the RR iteration is the worst case", rows())
