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

The released compared values (Alg. 3: SparseVectorTechnique3 and iSVT4 with ``c = 1``,
SVT34Parallel's component with ``c = 2``) have densities; their exact ε is decided in
:mod:`.released` — up to ``c`` values sharing the threshold noise, whose
``c``-dimensional density ratio reduces to one dimension, each piece decided by
:mod:`verifier.algorithms.noise.density_ratio`.  SVT34Parallel adds, per pair, Alg. 4's
exact loss (:func:`pair_losses`).
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
    max_log_ratio,
)
from verifier.claims import Tightness

from .programs import sparse_vector
from .released import exact_released_value, export_released_value
from .search import AnswerPairSpace, svt_search
from .suite import ExactEpsilon, SuiteEntry, Vector, pattern_pairs

__all__ = [
    "ENTRIES",
    "OUT_OF_REACH",
    "EPS",
    "DPSNIPER_PAIRS",
    "STATDP_PAIRS",
    "STATDP_EPSILONS",
    "exact_on_pairs",
    "export_on_pairs",
    "pair_losses",
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
#: Where the theorems are searched beyond the tools' pairs: DP-Sniper's input domain
#: (ten answers in [-10, 10]); StatDP's lengths (5 and 10) on a wide range (StatDP has
#: no input domain).
DPSNIPER_SPACE = AnswerPairSpace(lengths=(10,), lo=-10, hi=10)
STATDP_SPACE = AnswerPairSpace(lengths=(5, 10), lo=-40, hi=40)


def _space_notes(space: AnswerPairSpace, what: str) -> str:
    lengths = " and ".join(str(n) for n in space.lengths)
    return (
        f"integer answer vectors of length {lengths} in [{space.lo}, {space.hi}], every "
        f"answer moving by at most 1 (ALL_DIFFER); {what} screened by quadrature, a "
        "candidate decided on its exact law"
    )


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


def pair_losses(
    prog: SparseVector,
    pairs: Sequence[tuple[Vector, Vector]],
    post: PostProcess | None = None,
    fresh_rate: Any = None,
) -> tuple[Any, Fraction, list[tuple[str, LossMax]]]:
    """Per ordered pair the largest loss of ``prog`` over its outputs (the answer
    sequence, or its image under ``post``), with the pair's label; with ``fresh_rate``
    (NumericalSVT) each ⊤ also releases its answer plus independent Laplace noise of
    that rate, adding ``rate·|q_i - q'_i|`` to the loss (module docstring).  Returns the
    context of the laws, its unit ``u`` (the losses are Laurent polynomials in ``W =
    e^{-u}``) and the losses."""
    vectors = list(dict.fromkeys(v for pair in pairs for v in pair))
    ctx, laws = answer_sequence_laws(prog, vectors)
    u = Fraction(int(ctx.u.p), int(ctx.u.q))  # type: ignore[attr-defined]
    out: list[tuple[str, LossMax]] = []
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
        out.append((f"{_vec(a)} vs {_vec(b)}", max_log_ratio(P, Q, u, bonus)))
    return ctx, u, out


def exact_on_pairs(
    prog: SparseVector,
    pairs: Sequence[tuple[Vector, Vector]],
    post: PostProcess | None = None,
    fresh_rate: Any = None,
) -> ExactEpsilon:
    """The exact ε of ``prog`` on the ordered ``pairs``: the largest of the losses of
    :func:`pair_losses`."""
    ctx, u, losses = pair_losses(prog, pairs, post, fresh_rate)
    best: tuple[LossMax, str] | None = None
    per_pair: list[tuple[str, sp.Expr]] = []
    for label, r in losses:
        where = f"{label}, output {r.output}"
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


def export_on_pairs(
    prog: SparseVector,
    pairs: Sequence[tuple[Vector, Vector]],
    post: PostProcess | None = None,
) -> dict[str, Any]:
    """The exact output law of ``prog`` on each input of ``pairs``: per output (the
    answer sequence, or its image under ``post``) its probability, closed form and
    float."""
    vectors = list(dict.fromkeys(v for pair in pairs for v in pair))
    ctx, laws = answer_sequence_laws(prog, vectors)
    inputs: dict[str, Any] = {}
    for v in vectors:
        law = _push(laws[v], post, len(v))
        inputs[_vec(v)] = {
            str(o): {
                "probability": str(p.to_sympy(ctx.u)),
                "probability_approx": float(p.to_sympy(ctx.u)),
            }
            for o, p in law.items()
        }
    what = (
        "the answer sequence: one symbol per query, ⊤ above, ⊥ below, · not asked "
        "(after the cutoff)"
        if post is None
        else f"{post.__name__} of the answer sequence"
    )
    return {
        "release": what,
        "inputs": inputs,
        "pairs": [[_vec(a), _vec(b)] for a, b in pairs],
    }


_SRC = "dpsniper/mechanisms/sparse_vector_technique.py"
_PAIRS_DPS = "PatternGenerator(InputDomain(10, FLOAT, [-10, 10]), True): 16 ordered pairs"
_PAIRS_STATDP = "generate_databases(num_input=(5, 10), ALL_DIFFER): 32 ordered pairs"


def _lyu(k: int, t: Any, eps: Any = EPS, c: int = 1) -> SparseVector:
    """Lyu et al.'s Algorithm ``k`` with Laplace noise, from its program text
    (:mod:`.programs`; the same model as ``lyu_svt(k, eps, c, noise="laplace",
    threshold=t)``)."""
    return sparse_vector(f"lyu{k}", eps=eps, c=c, T=t)


def _numerical_svt() -> SparseVector:
    """DP-Sniper's ``NumericalSVT()`` (eps = 0.1, c = 2, t = 1) from its program text
    (the model of ``numerical_svt(EPS, 2, noise="laplace", threshold=1)``)."""
    return sparse_vector("numerical", eps=EPS, c=2, T=1)


def _dps(k: int, t: Any, expected: str, kind: str, notes: str, **more: Any) -> SuiteEntry:
    prog = _lyu(k, t)
    if expected == "holds":
        more["search"] = svt_search(
            f"dp_testing.sparse_vector_technique{k}",
            lambda: prog,
            f"lyu{k}",
            EPS,
            DPSNIPER_SPACE,
            f"SparseVectorTechnique{k}(eps=0.1, c=1, t={t})",
            _space_notes(DPSNIPER_SPACE, "answer-sequence probabilities"),
        )
    return SuiteEntry(
        name=f"sparse_vector_technique{k}",
        tool="DP-Sniper",
        source=f"{_SRC}, SparseVectorTechnique{k}(c=1, t={t})",
        claimed=EPS,
        pairs=_PAIRS_DPS,
        expected=expected,  # type: ignore[arg-type]
        exact=functools.partial(exact_on_pairs, prog, DPSNIPER_PAIRS),
        export=functools.partial(export_on_pairs, prog, DPSNIPER_PAIRS),
        kind=kind,  # type: ignore[arg-type]
        notes=notes,
        **more,
    )


#: StatDP's run of ``SparseVectorTechnique5``: DP-Sniper's wrapper registers StatDP's
#: ``iSVT1`` with ``epsilon = 0.05, N = 1, T = 1`` on ``generate_databases(10,
#: ALL_DIFFER)`` (``statdpwrapper/experiments/mechanism_config.py``; "iSVT1 (eps =
#: our_eps/2)" in ``statdpwrapper/experiments/__main__.py``).  iSVT1 draws its threshold
#: noise from Lap(2/epsilon) = Lap(40); DP-Sniper's SparseVectorTechnique5(eps=0.1)
#: draws it from Lap(1/eps1) = Lap(20), eps1 = eps/2: another mechanism.
SVT5_STATDP_EPS = sp.Rational(1, 20)


def _svt5_statdp() -> ExactEpsilon:
    return exact_on_pairs(_lyu(5, 1, SVT5_STATDP_EPS), pattern_pairs(10, True))


def _numerical() -> ExactEpsilon:
    prog = _numerical_svt()
    return exact_on_pairs(prog, DPSNIPER_PAIRS, fresh_rate=prog.value_noise.rate)


def _numerical_export() -> dict[str, Any]:
    prog = _numerical_svt()
    doc = export_on_pairs(prog, DPSNIPER_PAIRS)
    doc["release"] += (
        "; each ⊤ at query i also releases q_i + xi_i, xi_i independent Laplace noise of "
        f"rate {prog.value_noise.rate}: the density of an output is the probability of its "
        "answer sequence times the product of those Laplace densities"
    )
    return doc


def _statdp(
    fn: str, k: int, t: Any, post: PostProcess, expected: str, kind: str, notes: str
) -> list[SuiteEntry]:
    """One entry per claimed ε of StatDP's benchmark: ``statdp_<fn>`` at 0.7 (the
    middle level) and the variants ``statdp_<fn>.eps0_2``, ``statdp_<fn>.eps1_5``; a
    theorem is also searched over :data:`STATDP_SPACE` (``post`` is a bijection of the
    answer sequence for the cutoff 1, so the search decides the sequence)."""

    def tight(eps: Any) -> dict[str, Any]:
        """Alg. 1 (StatDP's SVT) approaches ε on unbounded answers: the family member
        decided with the claim, and the tightness (NOTES.md, "SVT, tightness")."""
        if fn != "SVT":
            return {}
        n, m = _SVT_MEMBER[eps]
        a = tuple(Fraction(m) for _ in range(n - 1)) + (Fraction(0),)
        b = tuple(Fraction(m + 1) for _ in range(n - 1)) + (Fraction(-1),)
        member = f"(M^{n - 1}, 0) vs ((M+1)^{n - 1}, -1) with M = {m}, both orders"
        return {
            "family": functools.partial(exact_on_pairs, _lyu(k, t, eps), [(a, b), (b, a)], post),
            "family_what": member,
            "tightness": Tightness(
                "approached",
                None,
                f"{member}, output BOT^{n - 1} TOP (count(False) = {n - 1})",
                family="q = (M^(n-1), 0) vs q' = ((M+1)^(n-1), -1), M -> infinity, n = 5 "
                "and 10 answers",
                limit="after rho -> rho + 1 the integrands of P_q and P_q' differ by "
                "f(r)/f(r+1) * S(T+r)/S(T+r+2) = e^{eps/2} e^{2 eps/4} = e^eps wherever r >= 0, "
                "and the mass of r < 0 is at most F(T - M)^(n-1) = O(e^{-(n-1) eps M/4}) "
                "against Omega(e^{-3 eps M/4}) on [M, M+1]: the ratio tends to e^eps for n "
                "> 4 (casestudies/dp_testing/NOTES.md, SVT tightness)",
            ),
        }

    def search(eps: Any, suffix: str) -> Any:
        if expected != "holds":
            return None
        return svt_search(
            f"dp_testing.statdp_{fn.lower()}{suffix}",
            functools.partial(_lyu, k, t, eps),
            f"lyu{k}",
            eps,
            STATDP_SPACE,
            f"StatDP's {fn}(epsilon={eps}, N=1, T={t})",
            _space_notes(STATDP_SPACE, "answer-sequence probabilities"),
        )

    return _statdp_levels(
        fn,
        t,
        expected,
        kind,
        notes,
        lambda eps: functools.partial(exact_on_pairs, _lyu(k, t, eps), STATDP_PAIRS, post),
        lambda eps: functools.partial(export_on_pairs, _lyu(k, t, eps), STATDP_PAIRS, post),
        search,
        tight,
    )


#: The member ``(n, M)`` of the approaching family decided with StatDP's SVT at each
#: level: realized / claimed within 1 % of 1 (0.99996, 0.99675, 0.99751) and still
#: certified below it.
_SVT_MEMBER = {
    sp.Rational(1, 5): (10, 20),
    sp.Rational(7, 10): (5, 20),
    sp.Rational(3, 2): (5, 10),
}


def _statdp_levels(
    fn: str,
    t: Any,
    expected: str,
    kind: str,
    notes: str,
    exact: Callable[[Any], Callable[[], ExactEpsilon]],
    export: Callable[[Any], Callable[[], dict[str, Any]]] | None = None,
    search: Callable[[Any, str], Any] | None = None,
    tight: Callable[[Any], dict[str, Any]] | None = None,
) -> list[SuiteEntry]:
    """The entries of StatDP's ``fn`` (threshold ``t``) at each claimed level
    (:func:`statdp_levels`); ``exact(eps)`` and ``export(eps)`` give the entry's
    deciders, ``search(eps, suffix)`` its search (or ``None``)."""
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
            search=None if search is None else search(eps, suffix),
            **({} if tight is None else tight(eps)),
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


def _released_value(
    eps: Any, pairs: Sequence[tuple[Vector, Vector]], c: int = 1, **other: Any
) -> ExactEpsilon:
    """The exact ε of Lyu et al.'s Algorithm 3 (``t = 1``) from its program text: the
    text's cutoff and threshold, and its noises checked to be the ones
    :mod:`.released` integrates (``rho ~ Lap(2/eps)``, ``nu ~ Lap(2c/eps)``)."""
    prog = _lyu(3, 1, eps, c)
    e = sp.sympify(eps)
    if not (
        prog.release == "value"
        and prog.threshold_noise.rate == e / 2
        and prog.query_noise.rate == e / (2 * c)
        and prog.cutoff == c
    ):
        raise ValueError(
            f"internal: the text of Algorithm 3 is not the program of .released: {prog}"
        )
    return exact_released_value(eps, list(pairs), t=int(prog.threshold), c=c, **other)


def _statdp_isvt4() -> list[SuiteEntry]:
    return _statdp_levels(
        "iSVT4",
        1,
        "refuted",
        "negative-control",
        "Lyu et al.'s Alg. 3 with N = 1 (outputs (count(False), the noisy query) "
        "instead of True; rho ~ Lap(2/eps), nu ~ Lap(2N/eps)): infinity-DP (Table 1); "
        "Ding et al. 2018 (Section 6.2) detect it. " + _ALG3,
        lambda eps: functools.partial(_released_value, eps, STATDP_PAIRS),
        lambda eps: functools.partial(export_released_value, eps, STATDP_PAIRS),
    )


#: ``SVT34Parallel()``'s components: Alg. 3 and Alg. 4 of Lyu et al., both with c = 2.
SVT34_C = 2


def _svt34_alg4() -> SparseVector:
    return _lyu(4, 1, EPS, SVT34_C)


def _svt34_exact() -> ExactEpsilon:
    """``SVT34Parallel()`` (``dpsniper/mechanisms/parallel.py``): per pair the exact
    loss of Alg. 3 (c = 2, :func:`.released.exact_released_value`) plus that of Alg. 4
    (c = 2, :func:`pair_losses`) — independent noise, so the losses add."""
    _, u, alg4 = pair_losses(_svt34_alg4(), DPSNIPER_PAIRS)
    alg3_u = EPS / (2 * SVT34_C)
    if u != Fraction(int(alg3_u.p), int(alg3_u.q)):
        raise ValueError(f"internal: Alg. 4's unit {u} is not Alg. 3's {alg3_u}")
    return _released_value(EPS, DPSNIPER_PAIRS, SVT34_C, other=alg4, other_name="Alg. 4 (c = 2)")


def _svt34_export() -> dict[str, Any]:
    return {
        "release": "the outputs of SparseVectorTechnique3(eps=0.1, c=2, t=1) and "
        "SparseVectorTechnique4(eps=0.1, c=2, t=1) on the same input, independent noise: "
        "the density of a joint output is the product of the two components' laws",
        "components": {
            "SparseVectorTechnique3": export_released_value(EPS, DPSNIPER_PAIRS, c=SVT34_C),
            "SparseVectorTechnique4": export_on_pairs(_svt34_alg4(), DPSNIPER_PAIRS),
        },
    }


#: The mechanisms of this module that are not decided (none: SVT34Parallel's
#: two-dimensional release reduces to one dimension, :mod:`.released`).
OUT_OF_REACH: list[SuiteEntry] = []

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
        exact=functools.partial(_released_value, EPS, DPSNIPER_PAIRS),
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
        "are a function of rho alone (TOP exactly when q_i >= t + rho), so on DP-Sniper's "
        "first pair swapped, (0, 1^9) vs (1^10), the answer BOT TOP^9 has probability "
        "P(-1 < rho <= 0) = (1 - e^(-1/20))/2 on (0, 1^9) and 0 on (1^10), whose equal "
        "answers are all above or all below the noisy threshold. StatDP's run of "
        "SparseVectorTechnique5 is another instance: iSVT1 at epsilon = 0.05, threshold "
        "noise Lap(40) instead of Lap(20); its exact epsilon on StatDP's pairs is "
        "infinite too (the same pair and answer).",
        statdp_exact=_svt5_statdp,
        statdp_note="StatDP's run is iSVT1 at epsilon = 0.05 (statdpwrapper/experiments/"
        "mechanism_config.py: 'eps = our_eps/2'): threshold noise Lap(2/0.05) = Lap(40), "
        "where DP-Sniper's SparseVectorTechnique5(eps=0.1) draws Lap(1/(eps/2)) = Lap(20)",
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
        export=_numerical_export,
        search=svt_search(
            "dp_testing.numerical_svt",
            _numerical_svt,
            "numerical",
            EPS,
            DPSNIPER_SPACE,
            "NumericalSVT(eps=0.1, c=2, t=1)",
            _space_notes(
                DPSNIPER_SPACE,
                "answer-sequence probabilities plus the released values' Laplace supremum",
            ),
        ),
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
    SuiteEntry(
        name="svt34_parallel",
        tool="DP-Sniper",
        source="dpsniper/mechanisms/parallel.py, SVT34Parallel() (eps=0.1, c=2, t=1)",
        claimed=EPS,
        pairs=_PAIRS_DPS,
        expected="refuted",
        kind="negative-control",
        exact=_svt34_exact,
        export=_svt34_export,
        notes="Alg. 3 and Alg. 4 of Lyu et al. 2017 with c = 2 on the same input, "
        "independent noise: the loss on a pair is the sum of the two components' losses. "
        "Alg. 3 is infinity-DP and Alg. 4 only (1+6c)/4-eps-DP (their Table 1), so the "
        "parallel run is not eps-DP. On these pairs Alg. 3 alone loses at least 10 u = "
        "5 eps/2 > eps (u = eps/(2c) = eps/4 its query noise rate): on (0^10) vs (1^10), one "
        "value released at the first query and every other below, for v below every answer "
        "each factor of the density is in its left form and the ratio is e^{u sum_i (q'_i - "
        "q_i)}.",
    ),
]
