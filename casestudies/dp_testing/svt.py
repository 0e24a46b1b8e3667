"""The sparse vector technique family of the suite, decided on the tools' own instances.

DP-Sniper (``dpsniper/mechanisms/sparse_vector_technique.py``, run by
``dpsniper/experiments/exp_default.py`` with ``eps = 0.1`` on
``PatternGenerator(InputDomain(10, FLOAT, [-10, 10]), True)``: 16 ordered pairs of
10 query answers) and StatDP (``statdp/algorithms.py``, run by
``examples/benchmark.py`` with claimed ε ∈ {0.2, 0.7, 1.5} on ``generate_databases``
with ``num_input = (5, 10)`` and ``ALL_DIFFER``: 32 ordered pairs).

What each mechanism releases, read from the source:

* ``SparseVectorTechnique1..4`` (``c = 1``): one flag per query, 1 (above), 0 (below)
  or -1 (aborted after the ``c``-th 1) — with ``c = 1`` a bijective image of the
  answer sequence ``⊥^k ⊤`` / ``⊥^10``.  ``SparseVectorTechnique5/6``: a flag per
  query, no cutoff (all ``2^10`` sequences).  Alg. 3 releases the noisy value instead
  of the flag 1 (a density; below).
* ``NumericalSVT()`` (``eps = 0.1, c = 2, t = 1``): per query 0 (below), the fresh
  value ``q_i + ξ_i`` (above) or -1000 (aborted after the second above).
* StatDP ``SVT`` (``N = 1, T = 0.5``): ``out.count(False)``, the number of ⊥ before
  the first ⊤ (a bijective image of the answer sequence); ``iSVT1..3``: the Hamming
  distance (``itertools.zip_longest``: missing answers count as mismatches) between
  the answer list and ``[True]*⌊n/2⌋ + [False]*⌈n/2⌉``; ``iSVT4``: ``(out.count(False),
  out[-1])``, the noisy query value at the first ⊤.

Every probability of an answer sequence is a closed form in ``W = e^{-u}`` (``u`` the
common unit of the noise rates, rational here: ``ε = 1/10`` gives ``W = e^{-1/80}``
for Alg. 1 at ``T = 1/2``) computed exactly by
:func:`verifier.algorithms.noise.answer_sequence_laws`; the exact ε on a pair is the
largest ``log(P(o)/P'(o))`` over the outputs (:func:`~verifier.algorithms.noise.max_log_ratio`).
NumericalSVT's released values carry independent Laplace noise ξ of rate
``η = ε/(3c)``: the density of an output is ``P(answer sequence) · Π_{i ⊤} f_ξ(z_i -
q_i)``, and the supremum of a product of functions of separate variables is the
product of the suprema, ``sup_z f_ξ(z - q)/f_ξ(z - q') = e^{η|q - q'|}`` (attained for
``z`` beyond both centres): the loss of a sequence gains ``η Σ_{i ⊤} |q_i - q'_i|``.

Expected outcomes (from the literature, never from the computed values)
------------------------------------------------------------------------
* Algs. 1 and 2 are ε-DP (Lyu, Su, Li 2017, Theorem 2 and §4.2 on Alg. 2); StatDP's
  ``SVT`` is Alg. 1 with ``c = N`` (ρ ~ Lap(2/ε), ν ~ Lap(4N/ε)).
* Alg. 4 is ``(1+6c)/4·ε``-DP, not ε-DP (Lyu et al., §4.4, Table 1: ``7ε/4`` for
  ``c = 1``, reached in the limit of long query vectors: the loss of ``⊥^m ⊤`` on
  ``(0^m, 1)`` vs ``(1^m, 0)`` tends to ``ε1 + 2η = ε/4 + 3ε/2``).  Published as
  private: negative control.  StatDP's ``iSVT3`` is the same algorithm (ρ ~ Lap(4/ε),
  ν ~ Lap(4/(3ε))).
* Alg. 5 (no query noise) and Alg. 6 (no cutoff) are ∞-DP (Lyu et al., Table 1):
  Alg. 5's answers are a deterministic function of ``ρ``, so some sequence has
  probability 0 on one input and not the other (ε = ∞ on the pair ``1^10`` vs
  ``0^5 1^5``); Alg. 6's loss grows linearly in the number of queries.  StatDP's
  ``iSVT1`` is Alg. 5, ``iSVT2`` is Alg. 6 (Ding et al. 2018, §6.2, detect both).
* NumericalSVT is ε-DP (Wang, Ding, Wang, Kifer, Zhang 2019, PLDI, §2 / Fig. 1).
* Alg. 3 (releases the noisy answer it compared) is ∞-DP (Lyu et al., Table 1);
  StatDP's ``iSVT4`` is Alg. 3 with ``N = 1``; ``SVT34Parallel`` runs Alg. 3 and
  Alg. 4 (``c = 2``) on the same input with independent noise: its loss on a pair is
  the sum of theirs, at least Alg. 4's (more than ε, Table 1).

The released compared value (Alg. 3, StatDP's ``iSVT4``, ``c = N = 1``): the density
of "``k - 1`` answers below, the ``k``-th released as ``v``" is ``h_D(v) = f_ν(v -
q_k) · G_D(v - T)`` with ``G_D(y) = ∫_{r <= y} f_ρ(r) Π_{i<k} P(q_i + ν_i < T + r)
dr`` (:func:`exact_released_value`).  Threshold and query noise have the same rate
(``ε1 = ε2 = ε/2``, ``ν ~ Lap(c/ε2)``), so where a ⊥ answer lies above the threshold
(``q_i = 2 > T = 1``) the exponents cancel and ``G_D`` gains terms ``v · e^{-kuv}``:
the supremum of ``h_D/h_D'`` is decided by
:mod:`verifier.algorithms.noise.density_ratio` with its Rolle-type reduction of
those terms.  Not decided (``out_of_reach``): ``SVT34Parallel``, whose Alg. 3
component (``c = 2``) releases up to two values that share the threshold noise — a
two-dimensional density.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Hashable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import sympy as sp

from verifier.algorithms.noise import (
    BOT,
    TOP,
    Laurent,
    LossMax,
    SparseVector,
    answer_sequence_laws,
    lyu_svt,
    max_log_ratio,
    numerical_svt,
)
from verifier.algorithms.noise.density_ratio import (
    RatioSup,
    best_of,
    ratio_at_most,
    sup_log_ratio,
)
from verifier.algorithms.noise.distributions import laplace_density, laplace_survival
from verifier.algorithms.noise.expoly import CONTINUOUS, PW

from .suite import ExactEpsilon, SuiteEntry, Vector, pattern_pairs, piecewise_json

__all__ = [
    "ENTRIES",
    "OUT_OF_REACH",
    "EPS",
    "DPSNIPER_PAIRS",
    "STATDP_PAIRS",
    "STATDP_EPSILONS",
    "exact_on_pairs",
    "count_false",
    "hamming",
]

#: DP-Sniper's default ε (``eps: float = 0.1``).
EPS = sp.Rational(1, 10)
#: ``PatternGenerator(InputDomain(10, FLOAT, [-10, 10]), True)``: 16 ordered pairs.
DPSNIPER_PAIRS = pattern_pairs(10, True, (-10, 10))
#: StatDP's ``generate_databases`` for ``num_input = (5, 10)``, ``ALL_DIFFER``, both
#: orders (StatDP counts each event in the direction where it is more frequent).
STATDP_PAIRS = pattern_pairs(5, True) + pattern_pairs(10, True)
#: ``claimed_privacy = (0.2, 0.7, 1.5)`` in StatDP's ``examples/benchmark.py``.
STATDP_EPSILONS = (sp.Rational(1, 5), sp.Rational(7, 10), sp.Rational(3, 2))


def statdp_levels() -> list[tuple[sp.Rational, str]]:
    """StatDP's claimed ε levels with the suffix of their claim id: the middle level
    0.7 first, without a suffix (``statdp_<fn>``), then 0.2 and 1.5 (``.eps0_2``,
    ``.eps1_5``)."""
    middle = STATDP_EPSILONS[1]
    return [
        (eps, "" if eps == middle else ".eps" + str(float(eps)).replace(".", "_"))
        for eps in (middle, STATDP_EPSILONS[0], STATDP_EPSILONS[2])
    ]


Answers = tuple[Any, ...]
PostProcess = Callable[[Answers, int], Hashable]


def _label(answers: Answers, n: int) -> str:
    return "".join(answers) + "·" * (n - len(answers))


def count_false(answers: Answers, n: int) -> Hashable:
    """StatDP ``SVT``'s output ``out.count(False)``: the number of ⊥."""
    return sum(1 for a in answers if a == BOT)


def hamming(answers: Answers, n: int) -> Hashable:
    """StatDP ``iSVT1..3``'s output: the Hamming distance (``zip_longest``: a missing
    answer is a mismatch) to ``[True]*⌊n/2⌋ + [False]*(n - ⌊n/2⌋)``."""
    ref = [True] * (n // 2) + [False] * (n - n // 2)
    out = [a == TOP for a in answers]
    return sum(1 for x, y in itertools.zip_longest(ref, out) if x != y)


def _push(law: Mapping[Answers, Laurent], post: PostProcess | None, n: int) -> dict[Any, Laurent]:
    out: dict[Any, Laurent] = {}
    for answers, p in law.items():
        key = _label(answers, n) if post is None else post(answers, n)
        out[key] = out.get(key, Laurent({})) + p
    return out


def _larger(a: LossMax, b: LossMax, u: Fraction) -> bool:
    """Whether loss ``a`` exceeds loss ``b`` (exactly: the sign of a cross product)."""
    if b.value is sp.oo:
        return False
    if a.value is sp.oo:
        return True
    return (a.p * b.q - b.p * a.q).sign(u) > 0


def _vec(v: Vector) -> str:
    return "(" + ",".join(str(x) for x in v) + ")"


def exact_on_pairs(
    prog: SparseVector,
    pairs: Sequence[tuple[Vector, Vector]],
    post: PostProcess | None = None,
    fresh_rate: Any = None,
) -> ExactEpsilon:
    """The exact ε of ``prog`` on the ordered ``pairs``: per pair the largest loss
    over the outputs (the answer sequence, or its image under ``post``); with
    ``fresh_rate`` (NumericalSVT) each ⊤ also releases its answer plus independent
    Laplace noise of that rate, adding ``rate·|q_i - q'_i|`` to the loss (module
    docstring)."""
    vectors = list(dict.fromkeys(v for pair in pairs for v in pair))
    ctx, laws = answer_sequence_laws(prog, vectors)
    u = Fraction(int(ctx.u.p), int(ctx.u.q))  # type: ignore[attr-defined]
    best: tuple[LossMax, str] | None = None
    per_pair: list[tuple[str, sp.Expr]] = []
    for a, b in pairs:
        n = len(a)
        P, Q = _push(laws[a], post, n), _push(laws[b], post, n)
        bonus: dict[Hashable, int] | None = None
        if fresh_rate is not None:
            m = sp.Rational(fresh_rate) / ctx.u
            bonus = {}
            for answers in laws[a]:
                shift = sum(
                    (abs(a[i] - b[i]) for i, x in enumerate(answers) if x == TOP), Fraction(0)
                )
                k = m * sp.Rational(shift.numerator, shift.denominator)
                if not k.is_Integer:
                    raise ValueError(f"internal: the release bonus {k} is not a multiple of u")
                bonus[_label(answers, n)] = int(k)
        r = max_log_ratio(P, Q, u, bonus)
        where = f"{_vec(a)} vs {_vec(b)}, output {r.output}"
        per_pair.append((where, r.value))
        if best is None or _larger(r, best[0], u):
            best = (r, where)
    assert best is not None
    method = (
        "exact law of the answer sequence (closed forms in W = e^-u, u = "
        f"{ctx.u} at inputs scaled by {ctx.scale}), largest log-ratio over the outputs"
    )
    if post is not None:
        method += f" of {post.__name__}"
    if fresh_rate is not None:
        method += "; + the supremum of the independent Laplace density ratio of each release"
    top = best[0]
    at_witness = (top.p.to_sympy(ctx.u), top.q.to_sympy(ctx.u)) if top.value == sp.oo else None
    return ExactEpsilon(
        top.value, tuple(per_pair), witness=best[1], method=method, at_witness=at_witness
    )


def _released_laws(u: Fraction, q: tuple[int, ...], t: int) -> tuple[list[PW], Any]:
    """Lyu et al.'s Alg. 3 with ``c = 1`` and threshold and query noise both of rate
    ``u`` (Laplace), on the integer answers ``q``: the density in ``v`` of "the first
    ``k - 1`` answers below, the ``k``-th released as ``v``", ``h_k(v) = f(v - q_k)
    G_k(v - t)`` with ``G_k(y) = ∫_{r <= y} f(r) Π_{i<k} P(q_i + ν_i < r + t) dr``
    (``v >= r + t`` is the ``k``-th answer above), for ``k = 1..n``, and the
    probability that every answer is below (``G_{n+1}(∞)``)."""
    ring = CONTINUOUS.at_unit(u)
    f = laplace_density(ring, 1)
    surv = laplace_survival(ring, 1)
    integrand = f
    out = []
    for qk in q:
        out.append(f.shifted(-qk) * integrand.cumulative().shifted(-t))
        integrand = integrand * (1 - surv.shifted(t - qk))
    return out, integrand.total()


def exact_released_value(
    eps: Any, pairs: Sequence[tuple[Vector, Vector]], t: int = 1
) -> ExactEpsilon:
    """The exact ε of Lyu et al.'s Alg. 3 with ``c = 1`` (ρ and every ν of rate
    ``ε/2``) on ``pairs``: per pair the largest of the log-ratio of the probability
    that no answer is above and, per position ``k``, the supremum of the ratio of the
    densities of the released value (:func:`_released_laws`,
    :func:`~verifier.algorithms.noise.density_ratio.sup_log_ratio`); a position whose
    supremum is at an interior critical point is certified below the overall largest
    value (:func:`~verifier.algorithms.noise.density_ratio.ratio_at_most`)."""
    e = sp.Rational(eps)
    u = Fraction(int((e / 2).p), int((e / 2).q))
    laws: dict[tuple[int, ...], tuple[list[PW], Any]] = {}
    for pair in pairs:
        for v in pair:
            key = tuple(int(x) for x in v)
            if key not in laws:
                laws[key] = _released_laws(u, key, t)
    results: list[tuple[str, RatioSup, PW | None, PW | None]] = []
    uu = sp.Rational(u.numerator, u.denominator)
    for a, b in pairs:
        ka, kb = tuple(int(x) for x in a), tuple(int(x) for x in b)
        (ha, pa), (hb, pb) = laws[ka], laws[kb]
        label = f"{_vec(a)} vs {_vec(b)}"
        atom = RatioSup(sp.log(pa.to_sympy(uu) / pb.to_sympy(uu)), pa, pb, "no answer above")
        results.append((f"{label}, output {'⊥' * len(a)}", atom, None, None))
        for k, (fa, fb) in enumerate(zip(ha, hb, strict=True), start=1):
            r = sup_log_ratio(fa, fb, u)
            results.append((f"{label}, output ⊥^{k - 1} then the value, {r.where}", r, fa, fb))
    exact_ones = [i for i, (_, r, _, _) in enumerate(results) if not r.interior]
    top_i = exact_ones[best_of([results[i][1] for i in exact_ones], u)]
    top = results[top_i][1]
    if top.value == sp.oo:
        raise ValueError("internal: an unbounded loss under Laplace noise")
    per_pair = []
    for label, r, fa, fb in results:
        if r.interior:
            assert fa is not None and fb is not None
            if not ratio_at_most(fa, fb, u, top.p, top.q):
                raise ValueError(f"{label}: an interior supremum above every end")
            per_pair.append((f"{label} (interior maximum, at least)", r.value))
        else:
            per_pair.append((label, r.value))
    return ExactEpsilon(
        top.value,
        tuple(per_pair),
        witness=results[top_i][0],
        method="probability of no answer above, and the supremum of the ratio of the "
        "densities of the released value (piecewise (c + c' v) e^{-kuv}, u = "
        f"{uu}): ends and limits of every piece, interior certified by Descartes' rule and a "
        "Rolle-type reduction of the v-terms",
    )


def export_released_value(
    eps: Any, pairs: Sequence[tuple[Vector, Vector]], t: int = 1
) -> dict[str, Any]:
    """The exact laws of Alg. 3 (``c = 1``) on each input of ``pairs``: the probability
    that no answer is above, and per position ``k`` the density of "``k - 1`` answers
    below, the ``k``-th released as ``v``" piece by piece (:func:`_released_laws`)."""
    e = sp.Rational(eps)
    u = Fraction(int((e / 2).p), int((e / 2).q))
    uu = sp.Rational(u.numerator, u.denominator)
    inputs: dict[str, Any] = {}
    for pair in pairs:
        for x in pair:
            key = tuple(int(y) for y in x)
            if _vec(x) in inputs:
                continue
            dens, p = _released_laws(u, key, t)
            inputs[_vec(x)] = {
                "no answer above": {
                    "probability": str(p.to_sympy(uu)),
                    "probability_approx": float(p.to_sympy(uu)),
                },
                **{f"released at query {k}": piecewise_json(h, uu) for k, h in enumerate(dens, 1)},
            }
    return {
        "release": "the first answer above the noisy threshold, as its noisy value v (the "
        "answers before it below; -1000 / False for them, -2000 after it); threshold and "
        f"query noise Laplace of rate {e / 2}, threshold {t}",
        "inputs": inputs,
        "pairs": [[_vec(a), _vec(b)] for a, b in pairs],
    }


_SRC = "dpsniper/mechanisms/sparse_vector_technique.py"
_PAIRS_DPS = "PatternGenerator(InputDomain(10, FLOAT, [-10, 10]), True): 16 ordered pairs"
_PAIRS_STATDP = "generate_databases(num_input=(5, 10), ALL_DIFFER): 32 ordered pairs"


def _lyu(k: int, t: Any, eps: Any = EPS, c: int = 1) -> SparseVector:
    return lyu_svt(k, eps, c, noise="laplace", threshold=t)


def _dps(k: int, t: Any, expected: str, kind: str, notes: str) -> SuiteEntry:
    return SuiteEntry(
        name=f"sparse_vector_technique{k}",
        tool="DP-Sniper",
        source=f"{_SRC}, SparseVectorTechnique{k}(c=1, t={t})",
        claimed=EPS,
        pairs=_PAIRS_DPS,
        expected=expected,  # type: ignore[arg-type]
        exact=functools.partial(exact_on_pairs, _lyu(k, t), DPSNIPER_PAIRS),
        kind=kind,  # type: ignore[arg-type]
        notes=notes,
    )


def _numerical() -> ExactEpsilon:
    prog = numerical_svt(EPS, 2, noise="laplace", threshold=1)
    return exact_on_pairs(prog, DPSNIPER_PAIRS, fresh_rate=prog.value_noise.rate)


def _statdp(
    fn: str, k: int, t: Any, post: PostProcess, expected: str, kind: str, notes: str
) -> list[SuiteEntry]:
    """One entry per claimed ε of StatDP's benchmark: ``statdp_<fn>`` at 0.7 (the
    middle level) and the variants ``statdp_<fn>.eps0_2``, ``statdp_<fn>.eps1_5``."""
    return _statdp_levels(
        fn,
        t,
        expected,
        kind,
        notes,
        lambda eps: functools.partial(exact_on_pairs, _lyu(k, t, eps), STATDP_PAIRS, post),
    )


def _statdp_levels(
    fn: str,
    t: Any,
    expected: str,
    kind: str,
    notes: str,
    exact: Callable[[Any], Callable[[], ExactEpsilon]],
    export: Callable[[Any], Callable[[], dict[str, Any]]] | None = None,
) -> list[SuiteEntry]:
    """The entries of StatDP's ``fn`` (threshold ``t``) at each claimed level
    (:func:`statdp_levels`); ``exact(eps)`` and ``export(eps)`` give the entry's
    deciders."""
    return [
        SuiteEntry(
            name=f"statdp_{fn.lower()}{suffix}",
            tool="StatDP",
            source=f"statdp/algorithms.py, {fn} (examples/benchmark.py: epsilon={eps}, N=1, T={t})",
            claimed=eps,
            pairs=_PAIRS_STATDP,
            expected=expected,  # type: ignore[arg-type]
            exact=exact(eps),
            export=None if export is None else export(eps),
            kind=kind,  # type: ignore[arg-type]
            notes=notes,
        )
        for eps, suffix in statdp_levels()
    ]


_ALG3 = (
    "The exact value on these pairs is finite (both densities of a release are positive, "
    "with tails of the same exponential order): the largest loss, over the probability "
    "that no answer is above and the supremum of the density ratio of the released value "
    "at each position, is 5 eps here: on (0^10) vs (1^10) (and (1^10) vs (2^10)), the value "
    "released at the tenth query, below every answer the density ratio is e^{eta sum_i "
    "(q'_i - q_i)} = e^{10 eta}, eta = eps/2."
)


def _statdp_isvt4() -> list[SuiteEntry]:
    return _statdp_levels(
        "iSVT4",
        1,
        "refuted",
        "negative-control",
        "Lyu et al.'s Alg. 3 with N = 1 (outputs (count(False), the noisy query) "
        "instead of True; rho ~ Lap(2/eps), nu ~ Lap(2N/eps)): infinity-DP (Table 1); "
        "Ding et al. 2018 (Section 6.2) detect it. " + _ALG3,
        lambda eps: functools.partial(exact_released_value, eps, STATDP_PAIRS),
        lambda eps: functools.partial(export_released_value, eps, STATDP_PAIRS),
    )


OUT_OF_REACH: list[SuiteEntry] = [
    SuiteEntry(
        name="svt34_parallel",
        tool="DP-Sniper",
        source="dpsniper/mechanisms/parallel.py, SVT34Parallel() (eps=0.1, c=2, t=1)",
        claimed=EPS,
        pairs=_PAIRS_DPS,
        expected="refuted",
        kind="negative-control",
        notes="Alg. 3 and Alg. 4 with c = 2 on the same input, independent noise: the loss "
        "on a pair is the sum of the two components' losses, at least Alg. 4's "
        "((1+6c)/4 eps-DP only, Lyu et al. 2017, Table 1).",
        out_of_reach="its Alg. 3 component (c = 2) releases up to two compared noisy values "
        "under Laplace noise: a two-dimensional density (both values depend on the one "
        "threshold noise, so it is not a product of one-dimensional ones) whose ratio's "
        "supremum is not built; the density-ratio supremum (verifier.algorithms.noise."
        "density_ratio) is one-dimensional (it decides sparse_vector_technique3, c = 1). "
        "Its Alg. 4 component (c = 2) has finite outputs and is decidable as "
        "sparse_vector_technique4 is",
    ),
]

ENTRIES: list[SuiteEntry] = [
    _dps(
        1,
        sp.Rational(1, 2),
        "holds",
        "theorem",
        "Lyu, Su, Li 2017, Alg. 1 (rho ~ Lap(1/eps1), nu ~ Lap(2c/eps2), eps1 = eps2 = "
        "eps/2) is eps-DP (their Theorem 2); the threshold 0.5 and the aborted marker -1 "
        "do not change that (post-processing of the answer sequence).",
    ),
    _dps(
        2,
        1,
        "holds",
        "theorem",
        "Lyu et al. 2017, Alg. 2 (threshold noise redrawn after each TRUE) is eps-DP; "
        "with c = 1 it stops at the first TRUE, so it equals Alg. 1 at t = 1.",
    ),
    SuiteEntry(
        name="sparse_vector_technique3",
        tool="DP-Sniper",
        source=f"{_SRC}, SparseVectorTechnique3(c=1, t=1)",
        claimed=EPS,
        pairs=_PAIRS_DPS,
        expected="refuted",
        kind="negative-control",
        exact=functools.partial(exact_released_value, EPS, DPSNIPER_PAIRS),
        export=functools.partial(export_released_value, EPS, DPSNIPER_PAIRS),
        notes="Lyu et al. 2017, Alg. 3 is infinity-DP (Table 1): the released value "
        "q_i + nu_i reveals the query noise. " + _ALG3,
    ),
    _dps(
        4,
        1,
        "refuted",
        "negative-control",
        "Lyu et al. 2017, Alg. 4 (eps1 = eps/4, nu ~ Lap(1/eps2) not scaled by c) is only "
        "(1+6c)/4-eps-DP: 7eps/4 for c = 1 (their Table 1), the limit of the loss of "
        "BOT^m TOP on (0^m, 1) vs (1^m, 0) as m grows (eps1 + 2 eta = eps/4 + 3eps/2). "
        "Published as eps-DP: negative control.",
    ),
    _dps(
        5,
        1,
        "refuted",
        "negative-control",
        "Lyu et al. 2017, Alg. 5 (no query noise) is infinity-DP (Table 1): the answers "
        "are a function of rho alone, so on (1^10) vs (0^5 1^5) the answer 'TOP^10' has "
        "probability P(rho <= 0) on one side and 0 on the other.",
    ),
    _dps(
        6,
        1,
        "refuted",
        "negative-control",
        "Lyu et al. 2017, Alg. 6 (no cutoff) is infinity-DP (Table 1): its loss grows "
        "linearly in the number of TOP answers.",
    ),
    SuiteEntry(
        name="numerical_svt",
        tool="DP-Sniper",
        source=f"{_SRC}, NumericalSVT() (eps=0.1, c=2, t=1)",
        claimed=EPS,
        pairs=_PAIRS_DPS,
        expected="holds",
        exact=_numerical,
        notes="Wang, Ding, Wang, Kifer, Zhang 2019 (PLDI), NumericalSVT (rho ~ Lap(3/eps), "
        "nu ~ Lap(6c/eps), released q_i + Lap(3c/eps)) is eps-DP. The exact value: the "
        "answer sequence's loss plus, per released value, the supremum (3c/eps)^-1 |q_i - "
        "q'_i| of its independent Laplace density ratio.",
    ),
    *_statdp(
        "SVT",
        1,
        sp.Rational(1, 2),
        count_false,
        "holds",
        "theorem",
        "Lyu et al. 2017, Alg. 1 with c = N = 1 (rho ~ Lap(2/eps), nu ~ Lap(4N/eps)): "
        "eps-DP (Theorem 2); StatDP reports it as correct (Ding et al. 2018, §6.2).",
    ),
    *_statdp(
        "iSVT1",
        5,
        1,
        hamming,
        "refuted",
        "negative-control",
        "No query noise: Lyu et al.'s Alg. 5, infinity-DP (Table 1); Ding et al. 2018 "
        "(§6.2) detect it.",
    ),
    *_statdp(
        "iSVT2",
        6,
        1,
        hamming,
        "refuted",
        "negative-control",
        "Query noise not scaled by N and no cutoff: Lyu et al.'s Alg. 6, infinity-DP "
        "(Table 1); Ding et al. 2018 (§6.2) detect it.",
    ),
    *_statdp(
        "iSVT3",
        4,
        1,
        hamming,
        "refuted",
        "negative-control",
        "Lyu et al.'s Alg. 4 (rho ~ Lap(4/eps), nu ~ Lap(4/(3eps))): (1+6c)/4-eps-DP only "
        "(Table 1; 7eps/4 for N = 1, a limit in the number of queries); Ding et al. "
        "2018 (§6.2) detect it.",
    ),
    *_statdp_isvt4(),
    *OUT_OF_REACH,
]
