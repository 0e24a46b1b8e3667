"""Liu & Talwar 2019: the instances and small helpers the claim modules share.

Every claim module of the case study (:mod:`.claims`, :mod:`.boxes`,
:mod:`.proof_steps`, :mod:`.statements`, :mod:`.appendix_e`) imports its shared
instances from here and never from another claim module, so the modules of the
package form no import cycle (the ``acyclic_siblings`` contract in ``pyproject.toml``).

* App. B.1: the candidates (:func:`candidate`, :func:`rr_candidate`), the best of ``K``
  (:func:`best_of_k`) and the ``(ln 1/δ)`` companion (:func:`b1_delta_best`);
* §3: the selection oracles with their exact pure ``ε1`` (:func:`selection_instances`),
  the three-candidate instance of Theorem 3.2 (:func:`three_candidate_instance`) and the
  ``(ε1, δ1)``-DP mixtures of Theorem 3.1 (c) (:func:`approx_selection_instances`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import sympy as sp

from verifier.algorithms import best_of
from verifier.algorithms.liu_talwar import ranking, uniform_selection
from verifier.checks.privacy import delta, pure_epsilon
from verifier.mechanism.compose import best_index, independent, mixture, postprocess
from verifier.mechanism.instances import random_mechanism, randomized_response
from verifier.mechanism.model import FiniteMechanism
from verifier.mechanism.neighbours import pair, path

__all__ = [
    "R",
    "SOURCE",
    "LOW",
    "MID",
    "HIGH",
    "candidate",
    "rr_candidate",
    "best_of_k",
    "scored",
    "selection_instances",
    "thresholds",
    "THM31_PARAMS",
    "approx_selection_instances",
    "three_candidate_instance",
    "B1D_K",
    "B1D_L",
    "B1D_EPS",
    "b1_delta_candidate",
    "b1_delta_best",
    "frac",
    "ratio",
]

R = sp.Rational
SOURCE = "Liu & Talwar 2019"
LOW, MID, HIGH = R(8, 10), R(9, 10), R(95, 100)


# ---------------------------------------------------------------------------
# exact rationals
# ---------------------------------------------------------------------------


def frac(x: Any) -> Fraction:
    """An exact sympy rational (or int) as a :class:`~fractions.Fraction`."""
    v = sp.Rational(x)
    return Fraction(int(v.p), int(v.q))


def ratio(m: FiniteMechanism) -> Fraction:
    """``e^{ε}``: the exact pure DP ratio of a mechanism with rational probabilities
    (the largest ``P_D(o)/P_D'(o)`` over ordered pairs and outputs with ``P_D(o) > 0``)."""
    return max(
        frac(m.p(d, o)) / frac(m.p(e, o))
        for d, e in m.ordered_pairs()
        for o in m.outputs
        if m.p(d, o) != 0
    )


# ---------------------------------------------------------------------------
# App. B.1
# ---------------------------------------------------------------------------


def candidate(p_low_d1: Any, p_low_d1p: Any, name: str) -> FiniteMechanism:
    """A candidate scoring 0.8 w.p. ``p_low_d1`` on d1 (``p_low_d1p`` on d1'), else 0.95
    (Liu & Talwar 2019, App. B.1)."""
    return FiniteMechanism(
        pair("d1", "d1'"),
        {"d1": {LOW: p_low_d1, HIGH: 1 - p_low_d1}, "d1'": {LOW: p_low_d1p, HIGH: 1 - p_low_d1p}},
        [LOW, HIGH],
        name=name,
    )


def rr_candidate(eps: Any, name: str = "RR candidate") -> FiniteMechanism:
    """Randomized response between the scores 0.8 and 0.95 (App. B.1, corrected): 0.8
    w.p. ``1/(1+e^ε)`` on d1 and ``e^ε/(1+e^ε)`` on d1' — exactly ``ε``-DP."""
    e = sp.exp(eps)
    return candidate(1 / (1 + e), e / (1 + e), name)


def best_of_k(K: int, cand: FiniteMechanism) -> FiniteMechanism:
    """Index of the best of one sample of candidate 0 (always 0.9) and K candidates
    (App. B.1; ties to the higher index, :func:`verifier.mechanism.compose.best_index`)."""
    fixed = FiniteMechanism(cand.graph, {"d1": {MID: 1}, "d1'": {MID: 1}}, [MID], name="cand0")
    return postprocess(
        independent(fixed, *([cand] * K)), best_index(lambda s: s), name=f"best-of-{K + 1}"
    )


B1D_K, B1D_L, B1D_EPS = 100, 10, R(1, 2)  # delta = e^(-L), so ln(1/delta) = L exactly


def b1_delta_candidate() -> FiniteMechanism:
    """B.1's second example: score 0.95 w.p. L/K on d1 and e^(-eps) L/K on d1'."""
    x = R(B1D_L, B1D_K)
    return candidate(1 - x, 1 - sp.exp(-B1D_EPS) * x, "B.1 delta candidate")


def b1_delta_best() -> FiniteMechanism:
    """The index of the best of candidate 0 (0.9) and ``K = 100`` delta candidates."""
    cand = b1_delta_candidate()
    fixed = FiniteMechanism(cand.graph, {"d1": {MID: 1}, "d1'": {MID: 1}}, [MID], name="cand0")
    m = best_of([fixed, *([cand] * B1D_K)], report="index")
    m.name = f"best of 1 + {B1D_K} (delta companion)"
    return m


# ---------------------------------------------------------------------------
# §3: selection oracles
# ---------------------------------------------------------------------------


def scored(m: FiniteMechanism, scores: list[Any], name: str) -> FiniteMechanism:
    """Relabel the outputs of ``m`` (in order) by the given scores."""
    lab = dict(zip(m.outputs, scores, strict=True))
    return postprocess(m, lambda o: lab[o], sorted(scores), name=name)


def selection_instances() -> list[tuple[FiniteMechanism, sp.Expr]]:
    """(Q, exact pure eps1 of Q) for the Theorem 3.x claims.

    * ``Q_sel``: the selection oracle over three candidates on a pair — randomized
      response (eps = 1/2) with scores {0, 1}, a random rational mechanism with scores
      {1/2, 2}, and randomized response (eps = log 2) with scores {1, 3};
    * ``Q_rand[s]``: seeded random rational mechanisms on a pair and on a path,
      outputs 0..3 as scores.
    """
    g = pair()
    m0 = randomized_response(R(1, 2))
    m1 = scored(random_mechanism(g, 2, seed=7), [R(1, 2), 2], "rand7")
    m2 = scored(randomized_response(sp.log(2)), [1, 3], "RR(log 2)")
    out = [uniform_selection([m0, m1, m2], name="Q_sel")]
    out += [random_mechanism(g, 4, seed=s, name=f"Q_rand[{s}]") for s in (1, 2)]
    out.append(random_mechanism(path(2), 3, seed=5, name="Q_rand_path[5]"))
    return [(q, pure_epsilon(q).value) for q in out]


def thresholds(Q: FiniteMechanism) -> list[sp.Expr]:
    """Every score of ``Q`` but the lowest (the thresholds at which thresholding can
    output ⊥ and a candidate)."""
    rk = ranking(Q)
    return sorted({rk.scores[o] for o in rk.order})[1:]


#: Theorem 3.1 parameters: (gamma, eps0); T is the least admissible
THM31_PARAMS = [(R(1, 10), R(1, 10)), (R(1, 4), R(1, 2))]


def approx_selection_instances() -> list[tuple[FiniteMechanism, sp.Expr, sp.Expr]]:
    """(Q, eps1, exact delta1(eps1)): mixtures of a pure candidate with a random
    mechanism whose support differs (so delta1 > 0 at eps1 = log 2)."""
    out = []
    g = pair()
    base = scored(randomized_response(sp.log(2)), [0, 2], "RR(log 2)")
    for seed, w in ((3, R(1, 1000)), (6, R(1, 10**4))):
        rnd = random_mechanism(g, [0, 2], seed=seed, denominator=10)
        # point masses that push D up and D' down (RR puts 2/3 on 2 at D, 1/3 at D'), so
        # the ratio at 2 exceeds 2 = e^eps1 and delta1 > 0
        skew = FiniteMechanism(g, {"D": {2: 1}, "D'": {0: 1}}, [0, 2], name="point masses")
        mix = mixture(mixture(base, rnd, R(1, 100), "b"), skew, w, f"mixture[{seed}, {w}]")
        eps1 = sp.log(2)
        d1 = delta(mix, epsilon=eps1).value
        out.append((mix, eps1, d1))
    return out


def three_candidate_instance() -> FiniteMechanism:
    """Q on a pair with three candidates low < mid < high, exactly log 2-DP:
    D: (89/100, 1/100, 1/10); D': (159/200, 1/200, 1/5).  mid halves and high doubles
    from D to D', so p, p0 and p1 all move in the direction that compounds."""
    return FiniteMechanism(
        pair(),
        {
            "D": {0: R(89, 100), 1: R(1, 100), 2: R(1, 10)},
            "D'": {0: R(159, 200), 1: R(1, 200), 2: R(1, 5)},
        },
        [0, 1, 2],
        name="Q_3",
    )
