"""verifier.checks.privacy.event_removal: the least mass of a randomised event whose removal
leaves two distributions e^eps-close (Liu & Talwar 2019, Lemma E.2), against a second
exact method (the LP over the kept fractions solved by brute-force vertex enumeration in
rational arithmetic) and a seeded sample of random randomised events."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction as F

import pytest
import sympy as sp

from verifier.checks.privacy import check_pure_off_event, event_removal
from verifier.errors import InvalidParameter
from verifier.mechanism.model import FiniteMechanism
from verifier.mechanism.neighbours import pair

R = sp.Rational


def _solve(rows: list[list[F]], rhs: list[F]) -> list[F] | None:
    """Gaussian elimination over the rationals (None if singular)."""
    n = len(rows)
    m = [row[:] + [b] for row, b in zip(rows, rhs, strict=True)]
    for c in range(n):
        piv = next((r for r in range(c, n) if m[r][c] != 0), None)
        if piv is None:
            return None
        m[c], m[piv] = m[piv], m[c]
        for r in range(n):
            if r != c and m[r][c] != 0:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def _lp_max(c: list[F], A: list[list[F]], b: list[F]) -> F | None:
    """max c.z subject to A z <= b, by enumerating every vertex (every choice of
    len(c) tight constraints); None when infeasible."""
    best = None
    d = len(c)
    for tight in itertools.combinations(range(len(A)), d):
        z = _solve([A[i] for i in tight], [b[i] for i in tight])
        if z is None:
            continue
        if all(
            sum(a * x for a, x in zip(row, z, strict=True)) <= bb
            for row, bb in zip(A, b, strict=True)
        ):
            v = sum((a * x for a, x in zip(c, z, strict=True)), F(0))
            best = v if best is None else max(best, v)
    return best


def _brute(P: list[F], Q: list[F], A: F) -> tuple[F, F]:
    """(least P(B), least max(P(B), Q(B))) by the LP on every support S of kept outputs:
    variables k_x (x in S) and t; closeness L_x Q' <= A P' and P' <= A L_x Q' for x in S;
    0 <= k <= 1; t <= P', t <= Q'."""
    atoms = [i for i in range(len(P)) if P[i] > 0 and Q[i] > 0]
    best_p, best_both = F(0), F(0)
    for r in range(1, len(atoms) + 1):
        for S in itertools.combinations(atoms, r):
            n = len(S)
            rows: list[list[F]] = []
            b: list[F] = []
            for x in S:
                L = P[x] / Q[x]
                rows.append([L * Q[y] - A * P[y] for y in S] + [F(0)])
                b.append(F(0))
                rows.append([P[y] - A * L * Q[y] for y in S] + [F(0)])
                b.append(F(0))
            for j in range(n):
                e = [F(int(i == j)) for i in range(n)] + [F(0)]
                rows.append(e)
                b.append(F(1))
                rows.append([-v for v in e])
                b.append(F(0))
            only_k = [row[:-1] for row in rows]
            v = _lp_max([P[y] for y in S], only_k, b)
            if v is not None:
                best_p = max(best_p, v)
            rows_t = rows + [[-P[y] for y in S] + [F(1)], [-Q[y] for y in S] + [F(1)]]
            v = _lp_max([F(0)] * n + [F(1)], rows_t, b + [F(0), F(0)])
            if v is not None:
                best_both = max(best_both, v)
    return 1 - best_p, 1 - best_both


def _rand_dist(rng: random.Random, m: int) -> list[F]:
    w = [rng.randint(1, 12) for _ in range(m)]
    return [F(x, sum(w)) for x in w]


CASES = [
    ([F(6, 100), F(5, 100), F(89, 100)], [F(5, 100), F(6, 100), F(89, 100)], F(115, 100)),
    ([F(1, 9), F(2, 9), F(2, 3)], [F(1, 6), F(1, 6), F(2, 3)], F(11, 9)),
    ([F(1, 2), F(1, 2)], [F(1, 4), F(3, 4)], F(3, 2)),
]


@pytest.mark.parametrize("P, Q, A", CASES)
def test_event_removal_equals_the_lp_by_vertex_enumeration(P, Q, A):
    r = event_removal(dict(enumerate(map(R, P))), dict(enumerate(map(R, Q))), sp.log(R(A)))
    bp, bb = _brute(P, Q, A)
    assert r.mass == R(bp) and r.mass_both == R(bb)


def test_event_removal_on_seeded_random_pairs():
    rng = random.Random(11)
    for _ in range(8):
        m = rng.randint(2, 3)
        P, Q = _rand_dist(rng, m), _rand_dist(rng, m)
        A = rng.choice((F(11, 10), F(3, 2), F(2)))
        r = event_removal(dict(enumerate(map(R, P))), dict(enumerate(map(R, Q))), sp.log(R(A)))
        assert (r.mass, r.mass_both) == tuple(map(R, _brute(P, Q, A)))
        # the event it names is optimal and qualifies: the kept conditionals are A-close
        k = [1 - r.removed[i] for i in range(m)]
        pk = sum(ki * p for ki, p in zip(k, map(R, P), strict=True))
        qk = sum(ki * q for ki, q in zip(k, map(R, Q), strict=True))
        assert 1 - pk == r.mass
        for i in range(m):
            if k[i] != 0:
                ratio = (R(P[i]) / pk) / (R(Q[i]) / qk)
                assert 1 / R(A) <= ratio <= R(A)


def test_no_random_randomised_event_beats_the_optimum():
    """A seeded sample of randomised events (float kept fractions): those that leave
    the conditionals A-close never remove less than the exact optimum."""
    P, Q, A = CASES[0]
    best = float(
        event_removal(dict(enumerate(map(R, P))), dict(enumerate(map(R, Q))), sp.log(R(A))).mass
    )
    rng = random.Random(5)
    feasible = 0
    for _ in range(20000):
        k = [rng.random() if rng.random() < 0.7 else float(rng.random() < 0.5) for _ in P]
        pk = sum(a * float(p) for a, p in zip(k, P, strict=True))
        qk = sum(a * float(q) for a, q in zip(k, Q, strict=True))
        if pk == 0 or qk == 0:
            continue
        ok = all(
            ki == 0 or 1 / float(A) <= (float(p) / pk) / (float(q) / qk) <= float(A)
            for ki, p, q in zip(k, P, Q, strict=True)
        )
        if ok:
            feasible += 1
            assert 1 - pk >= best - 1e-12
    assert feasible > 100


def test_no_common_support_means_no_event():
    r = event_removal({0: R(1)}, {1: R(1)}, sp.log(2))
    assert r.mass is sp.oo and r.mass_both is sp.oo


def test_check_pure_off_event_reports_the_pair_and_refuses_bad_parameters():
    M = FiniteMechanism(
        pair(),
        {
            "D": {0: R(6, 100), 1: R(5, 100), 2: R(89, 100)},
            "D'": {0: R(5, 100), 1: R(6, 100), 2: R(89, 100)},
        },
        [0, 1, 2],
    )
    r = check_pure_off_event(M, epsilon=sp.sqrt(R(2, 100)), delta=R(1, 10), pairs=[("D", "D'")])
    assert r.verdict.value == "violated" and r.findings[0].realized == R(11, 100)
    assert (
        check_pure_off_event(M, epsilon=sp.sqrt(R(2, 100)), delta=R(11, 100)).verdict.value
        == "holds"
    )
    with pytest.raises(InvalidParameter):
        check_pure_off_event(M, epsilon=0, delta=R(1, 10))
    with pytest.raises(InvalidParameter):
        check_pure_off_event(M, epsilon=1, delta=R(3, 2))
