"""Report-Noisy-Max in the suite, decided on the tools' own instances.

DP-Sniper (``dpsniper/mechanisms/report_noisy_max.py``, run by
``dpsniper/experiments/exp_default.py`` with ``eps = 0.1`` on
``PatternGenerator(InputDomain(5, FLOAT, [-10, 10]), True)``: 16 ordered pairs of five
query answers) and StatDP (``statdp/algorithms.py``, ``noisy_max_v1a/v1b/v2a/v2b``,
run by ``examples/benchmark.py`` with claimed ε ∈ {0.2, 0.7, 1.5} on
``generate_databases`` with ``num_input = (5, 10)`` and ``ALL_DIFFER``: 32 ordered
pairs).  Both add noise of scale ``2/ε`` to every query answer (rate ``η = ε/2``):

* ``ReportNoisyMax1`` / ``noisy_max_v1a``: Laplace noise, release the argmax
  (Ding, Wang, Wang, Zhang, Kifer 2018, "Detecting violations of differential
  privacy", CCS, Alg. 5);
* ``ReportNoisyMax2`` / ``noisy_max_v2a``: one-sided exponential noise
  (``numpy.random.exponential``), the argmax (Alg. 6);
* ``ReportNoisyMax3`` / ``noisy_max_v1b``: Laplace noise, the noisy maximum value
  itself (Alg. 7);
* ``ReportNoisyMax4`` / ``noisy_max_v2b``: exponential noise, the noisy maximum
  value (Alg. 8).

Exact values.  The argmax law is a closed form in ``W = e^{-u}``, ``u = η``
(:func:`verifier.algorithms.noise.noisy_max.argmax_laws`: ``P(argmax = i) = ∫ f(t -
q_i) Π_{j≠i} F(t - q_j) dt``), and the exact ε on a pair is its largest log-ratio over
the outputs.  The value release has the density ``f(v) = Σ_i f(v - q_i) Π_{j≠i} F(v
- q_j)`` (:func:`~verifier.algorithms.noise.noisy_max.max_density`), and the exact ε
on a pair is the supremum of the ratio of the two densities, decided exactly
(:mod:`verifier.algorithms.noise.density_ratio`).

Expected outcomes (from the literature, never from the computed values): Algs. 5 and
6 are ε-DP (Dwork & Roth 2014, Claim 3.9 for Laplace noise; Ding et al. 2018, §6.1,
report both as correct; with exponential noise Report-Noisy-Max is the exponential
mechanism, McKenna & Sheldon 2020, "Permute-and-Flip", NeurIPS, Theorem 2 and its
discussion); Algs. 7 and 8 are not ε-DP (Ding et al. 2018, §6.1: "returning the
maximum value instead of the index", detected as incorrect; StatDP's source marks
both ``INCORRECT``): negative controls.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import sympy as sp

from verifier.algorithms.noise.checks import max_log_ratio
from verifier.algorithms.noise.density_ratio import best_of, ratio_at_most, sup_log_ratio
from verifier.algorithms.noise.noisy_max import NoisyMax, argmax_laws, max_density
from verifier.algorithms.noise.text import MaxDensity
from verifier.claims import Tightness

from .programs import noisy_max
from .search import AnswerPairSpace, noisy_max_search
from .suite import ExactEpsilon, SuiteEntry, Vector, pattern_pairs, piecewise_json
from .svt import STATDP_PAIRS, STATDP_SPACE, statdp_levels

__all__ = ["ENTRIES", "EPS", "DPSNIPER_PAIRS", "exact_argmax", "exact_value"]

#: DP-Sniper's default ε (``eps: float = 0.1``).
EPS = sp.Rational(1, 10)
#: ``PatternGenerator(InputDomain(5, FLOAT, [-10, 10]), True)``: 16 ordered pairs.
DPSNIPER_PAIRS = pattern_pairs(5, True, (-10, 10))

_PAIRS_DPS = "PatternGenerator(InputDomain(5, FLOAT, [-10, 10]), True): 16 ordered pairs"
_PAIRS_STATDP = "generate_databases(num_input=(5, 10), ALL_DIFFER): 32 ordered pairs"


def _ints(v: Vector) -> tuple[int, ...]:
    return tuple(int(x) for x in v)


def _vec(v: Vector) -> str:
    return "(" + ",".join(str(x) for x in v) + ")"


def _argmax(eps: Any, noise: str) -> NoisyMax:
    """Report-Noisy-Max releasing the argmax, noise of scale ``2/eps``, from its program
    text (:mod:`.programs`; the model of ``report_noisy_max(eps, noise=noise)``)."""
    prog = noisy_max(f"rnm_{noise}", eps=eps)
    assert isinstance(prog, NoisyMax)
    return prog


def _max_value(eps: Any, noise: str) -> MaxDensity:
    """The noisy maximum itself under continuous noise of scale ``2/eps``, from its
    program text: a density (:class:`~verifier.algorithms.noise.text.MaxDensity`)."""
    prog = noisy_max(f"rnm_value_{noise}", eps=eps)
    assert isinstance(prog, MaxDensity)
    return prog


def exact_argmax(eps: Any, noise: str, pairs: list[tuple[Vector, Vector]]) -> ExactEpsilon:
    """The exact ε of the argmax of ``q + noise`` (scale ``2/eps``) on ``pairs``: per
    pair the largest log-ratio of the exact argmax probabilities."""
    prog = _argmax(eps, noise)
    vectors = [_ints(v) for pair in pairs for v in pair]
    ctx, laws = argmax_laws(prog, vectors)
    u = Fraction(int(ctx.u.p), int(ctx.u.q))
    results = []
    for a, b in pairs:
        r = max_log_ratio(laws[_ints(a)], laws[_ints(b)], u)
        results.append((f"{_vec(a)} vs {_vec(b)}, output argmax={r.output}", r))
    best = results[0]
    for item in results[1:]:
        r, top = item[1], best[1]
        if top.value != sp.oo and (r.value == sp.oo or (r.p * top.q - top.p * r.q).sign(u) > 0):
            best = item
    return ExactEpsilon(
        best[1].value,
        tuple((label, r.value) for label, r in results),
        witness=best[0],
        method=f"exact argmax law (closed forms in W = e^-u, u = {ctx.u}), largest "
        "log-ratio over the outputs",
    )


def exact_value(eps: Any, noise: str, pairs: list[tuple[Vector, Vector]]) -> ExactEpsilon:
    """The exact ε of the noisy maximum ``max_i (q_i + ν_i)`` (scale ``2/eps``) on
    ``pairs``: per pair the supremum of the ratio of the two densities
    (:func:`~verifier.algorithms.noise.density_ratio.sup_log_ratio`); a pair whose
    supremum sits at an interior critical point is certified below the largest
    value of the other pairs (:func:`~verifier.algorithms.noise.density_ratio.
    ratio_at_most`)."""
    prog = _max_value(eps, noise)
    # the unit of the rates: the context of the argmax program with the same noise
    ctx, _ = argmax_laws(_argmax(eps, noise), [_ints(pairs[0][0])])
    u = Fraction(int(ctx.u.p), int(ctx.u.q))
    dens: dict[tuple[int, ...], Any] = {}
    for pair in pairs:
        for v in pair:
            if _ints(v) not in dens:
                dens[_ints(v)] = max_density(ctx, prog.noise, _ints(v))
    results = [sup_log_ratio(dens[_ints(a)], dens[_ints(b)], u) for a, b in pairs]
    labels = [f"{_vec(a)} vs {_vec(b)}" for a, b in pairs]
    exact_ones = [i for i, r in enumerate(results) if not r.interior]
    i = best_of([results[k] for k in exact_ones], u)
    top_index = exact_ones[i]
    top = results[top_index]
    per_pair = []
    for k, ((a, b), r) in enumerate(zip(pairs, results, strict=True)):
        if r.interior:
            if top.value != sp.oo and not ratio_at_most(
                dens[_ints(a)], dens[_ints(b)], u, top.p, top.q
            ):
                raise ValueError(f"{labels[k]}: an interior supremum above every end")
            per_pair.append((f"{labels[k]} (interior maximum, at least)", r.value))
        else:
            per_pair.append((f"{labels[k]}, {r.where}", r.value))
    at_witness = top.event if top.value == sp.oo and top.event is not None else None
    return ExactEpsilon(
        top.value,
        tuple(per_pair),
        witness=f"{labels[top_index]}, {top.where}",
        method="supremum of the ratio of the densities of the noisy maximum (piecewise "
        f"exponential in v, W = e^-u, u = {ctx.u}): ends and limits of every piece, "
        "interior certified by Descartes' rule of signs",
        at_witness=None
        if at_witness is None
        else (at_witness[0].to_sympy(ctx.u), at_witness[1].to_sympy(ctx.u)),
    )


def export_noisy_max(
    eps: Any, noise: str, release: str, pairs: list[tuple[Vector, Vector]]
) -> dict[str, Any]:
    """The exact laws on each input of ``pairs``: the argmax probabilities (closed form
    and float), or the density of the noisy maximum piece by piece (closed forms in
    ``v``)."""
    prog = _argmax(eps, noise)
    if release != "argmax":
        assert _max_value(eps, noise).noise == prog.noise
    vectors = list(dict.fromkeys(_ints(x) for pair in pairs for x in pair))
    ctx, laws = argmax_laws(prog, vectors if release == "argmax" else vectors[:1])
    u = ctx.u
    inputs: dict[str, Any] = {}
    if release == "argmax":
        for q in vectors:
            inputs[_vec(q)] = {
                f"argmax={i}": {
                    "probability": str(p.to_sympy(u)),
                    "probability_approx": float(p.to_sympy(u)),
                }
                for i, p in laws[q].items()
            }
        what = f"argmax_i (q_i + nu_i), nu_i ~ {prog.noise} (scale 2/eps), ties impossible"
    else:
        for q in vectors:
            inputs[_vec(q)] = piecewise_json(max_density(ctx, prog.noise, q), u)
        what = (
            f"max_i (q_i + nu_i), nu_i ~ {prog.noise} (scale 2/eps): a density in v, "
            "piecewise between the answers (from/to: None is infinite)"
        )
    return {
        "release": what,
        "inputs": inputs,
        "pairs": [[_vec(a), _vec(b)] for a, b in pairs],
    }


_SRC = "dpsniper/mechanisms/report_noisy_max.py"

#: (DP-Sniper class, StatDP function, noise, release, expected, Ding et al. 2018 alg.)
_VARIANTS = [
    ("ReportNoisyMax1", "noisy_max_v1a", "laplace", "argmax", "holds", 5),
    ("ReportNoisyMax2", "noisy_max_v2a", "exponential", "argmax", "holds", 6),
    ("ReportNoisyMax3", "noisy_max_v1b", "laplace", "value", "refuted", 7),
    ("ReportNoisyMax4", "noisy_max_v2b", "exponential", "value", "refuted", 8),
]


def _notes(noise: str, release: str, alg: int) -> str:
    what = "argmax" if release == "argmax" else "noisy maximum value"
    if release == "argmax":
        why = (
            "Report-Noisy-Max releasing the argmax is eps-DP: Laplace noise of scale 2/eps, "
            "Dwork & Roth 2014, Claim 3.9; one-sided exponential noise of scale 2/eps is the "
            "exponential mechanism (McKenna & Sheldon 2020, Permute-and-Flip, NeurIPS); "
            "Ding et al. 2018 (CCS, Section 6.1) report it as correct."
        )
    else:
        why = (
            "Releasing the noisy maximum instead of its index is not eps-DP (Ding et al. "
            "2018, CCS, Section 6.1, detected as incorrect; StatDP's source marks it "
            "INCORRECT). Published as eps-DP: negative control."
        )
    return f"Ding et al. 2018, Alg. {alg}: {noise} noise of scale 2/eps, the {what}. {why}"


def _exact(noise: str, release: str, eps: Any, pairs: list[tuple[Vector, Vector]]) -> Any:
    fn = exact_argmax if release == "argmax" else exact_value
    return functools.partial(fn, eps, noise, pairs)


#: DP-Sniper's input domain for Report-Noisy-Max: five answers in [-10, 10].
DPSNIPER_SPACE = AnswerPairSpace(lengths=(5,), lo=-10, hi=10)


def _search(name: str, noise: str, eps: Any, space: AnswerPairSpace) -> Any:
    lengths = " and ".join(str(n) for n in space.lengths)
    return noisy_max_search(
        f"dp_testing.{name}",
        noise,
        eps,
        space,
        f"integer answer vectors of length {lengths} in [{space.lo}, {space.hi}], every "
        "answer moving by at most 1 (ALL_DIFFER); argmax probabilities screened by "
        "quadrature, a candidate decided on its exact law",
    )


def _entry(
    name: str,
    tool: str,
    source: str,
    eps: Any,
    pairs: tuple[str, list[tuple[Vector, Vector]]],
    variant: Sequence[Any],
    space: AnswerPairSpace,
) -> SuiteEntry:
    """The entry ``name``: Report-Noisy-Max with ``noise`` releasing ``release`` at
    ``eps`` on the tool's input ``pairs`` (their description, the pairs); a theorem (the
    argmax) is also searched over ``space``."""
    noise, release, expected, alg = variant
    return SuiteEntry(
        name=name,
        tool=tool,
        source=source,
        claimed=eps,
        pairs=pairs[0],
        expected=expected,  # type: ignore[arg-type]
        exact=_exact(noise, release, eps, pairs[1]),
        export=functools.partial(export_noisy_max, eps, noise, release, pairs[1]),
        kind="theorem" if expected == "holds" else "negative-control",
        notes=_notes(noise, release, alg),
        search=_search(name, noise, eps, space) if expected == "holds" else None,
        tightness=_approached(name, eps, noise, release, space),
    )


def _approached(name: str, eps: Any, noise: str, release: str, space: AnswerPairSpace) -> Any:
    """Laplace argmax on unbounded answers (StatDP): ε is approached on the far-apart
    family (NOTES.md, "Report-Noisy-Max, tightness"); otherwise the observed one."""
    if noise != "laplace" or release != "argmax" or space is DPSNIPER_SPACE:
        return None
    return Tightness(
        "approached",
        None,
        "q = (0, M^(n-1)) vs q' = (-1, (M+1)^(n-1)), output argmax = 0",
        family="M -> infinity, n = 5 and 10 answers (every answer moves by 1: the first "
        "down, the others up)",
        limit="P(argmax = 0) = P(X > M) with X = nu_0 - max_{j>=1} nu_j; for n >= 3 "
        "P(X > x) = (E[e^{-eta Y}]/2) e^{-eta x} (1 + o(1)) (Y = max_{j>=1} nu_j, "
        "E[e^{-eta Y}] finite), so P(X > M)/P(X > M + 2) -> e^{2 eta} = e^eps, eta = eps/2 "
        f"({name}: casestudies/dp_testing/NOTES.md, Report-Noisy-Max tightness)",
    )


def _entries() -> list[SuiteEntry]:
    dps = (_PAIRS_DPS, DPSNIPER_PAIRS)
    statdp = (_PAIRS_STATDP, STATDP_PAIRS)
    out = [
        _entry(
            f"report_noisy_max{cls[-1]}",
            "DP-Sniper",
            f"{_SRC}, {cls}(eps=0.1)",
            EPS,
            dps,
            rest,
            DPSNIPER_SPACE,
        )
        for cls, _fn, *rest in _VARIANTS
    ]
    for _cls, fn, *rest in _VARIANTS:
        for eps, suffix in statdp_levels():
            source = f"statdp/algorithms.py, {fn} (examples/benchmark.py: epsilon={eps})"
            out.append(
                _entry(f"statdp_{fn}{suffix}", "StatDP", source, eps, statdp, rest, STATDP_SPACE)
            )
    return out


ENTRIES: list[SuiteEntry] = _entries()
