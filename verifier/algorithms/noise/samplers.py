"""Straightforward samplers of the noise programs, and the statistics that hold the
exact closed forms to them (in the tests).

The samplers run the *programs* as written in the papers (draw the threshold noise,
loop over the queries, compare, stop after c ⊤; Lyu, Su, Li 2017, Figure 1; Dwork &
Roth 2014, §3.3 for Report-Noisy-Max) — independently of the closed forms of
:mod:`.svt` and :mod:`.noisy_max`; their outputs carry the same labels.  The
statistics are a chi-square goodness-of-fit test and an exact binomial test; their
p-values are only compared with a fixed significance level at a fixed seed, never
turned into a verdict of this package.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction

import mpmath
import sympy as sp

from .distributions import Noise
from .noisy_max import NoisyMax
from .svt import SparseVector

__all__ = [
    "noise_sampler",
    "sparse_vector_runner",
    "noisy_max_runner",
    "sample_counts",
    "chi_square_pvalue",
    "binomial_two_sided_pvalue",
]

Sampler = Callable[[random.Random], float]


# ---------------------------------------------------------------------------
# noise samplers
# ---------------------------------------------------------------------------


def noise_sampler(noise: Noise) -> Sampler:
    """A sampler of ``noise``: Laplace by a signed exponential, the one-sided
    exponential directly; the two-sided
    geometric law ``(1-x)/(1+x) x^{|k|}`` as the difference of two independent
    geometric variables ``P(G = k) = (1-x) x^k`` (Inusah & Kozubowski 2006)."""
    if noise.kind == "none":
        return lambda rng: 0
    rate = float(noise.rate)  # type: ignore[arg-type]
    if noise.kind == "laplace":
        return lambda rng: rng.expovariate(rate) * (1 if rng.random() < 0.5 else -1)
    if noise.kind == "exponential":
        return lambda rng: rng.expovariate(rate)
    log_x = -rate

    def geo(rng: random.Random) -> int:
        return int(math.floor(math.log(1.0 - rng.random()) / log_x))

    return lambda rng: geo(rng) - geo(rng)


def sparse_vector_runner(prog: SparseVector, q: Sequence[int]) -> Callable[[random.Random], str]:
    """A sampler of one run of a sparse-vector program (Lyu et al. 2017, Fig. 1)."""
    thr = noise_sampler(prog.threshold_noise)
    nu = noise_sampler(prog.query_noise)
    xi = noise_sampler(prog.value_noise)
    res = noise_sampler(prog.resample_noise) if prog.resample_noise is not None else None
    return lambda rng: _run_sv(prog, q, rng, thr, nu, xi, res)


def _run_sv(
    prog: SparseVector,
    q: Sequence[int],
    rng: random.Random,
    thr: Sampler,
    nu: Sampler,
    xi: Sampler,
    res: Sampler | None,
) -> str:
    rho = thr(rng)
    out = []
    tops = 0
    for qi in q:
        noisy = qi + nu(rng)
        if noisy >= prog.threshold + rho:
            if prog.release == "bit":
                out.append("⊤")
            else:
                val = {
                    "value": noisy,
                    "gap": noisy - prog.threshold - rho,
                    "fresh": qi + xi(rng),
                }[prog.release]
                out.append(_release_label(val, prog.buckets, "g" if prog.release == "gap" else "v"))
            tops += 1
            if res is not None:
                rho = res(rng)
            if prog.cutoff is not None and tops == prog.cutoff:
                break
        else:
            out.append("⊥")
    return "".join(out)


def noisy_max_runner(prog: NoisyMax, q: Sequence[int]) -> Callable[[random.Random], str]:
    """A sampler of Report-Noisy-Max (argmax with ties to the lowest index, or the max)."""
    nu = noise_sampler(prog.noise)
    return lambda rng: _run_rnm(prog, q, rng, nu)


def _run_rnm(prog: NoisyMax, q: Sequence[int], rng: random.Random, nu: Sampler) -> str:
    noisy = [qi + nu(rng) for qi in q]
    m = max(noisy)
    if prog.release == "argmax":
        return f"argmax={noisy.index(m)}"
    return _release_label(m, prog.buckets, "max")


def _release_label(val: float, buckets: Sequence[int] | None, what: str) -> str:
    """The label of a released value: ``[what=v]``, or its bucket between the cut
    points (as :func:`~.interpreter.bucket_releases` labels them)."""
    if buckets is None:
        return f"[{what}={int(val)}]"
    cuts = list(buckets)
    lo_hi: list[tuple[int | None, int | None]] = [(None, cuts[0])]
    if what == "g":
        lo_hi = [(0, cuts[0])]
    lo_hi += list(zip(cuts, cuts[1:], strict=False)) + [(cuts[-1], None)]
    for a, b in lo_hi:
        if (a is None or val >= a) and (b is None or val < b):
            if a is None:  # the first bucket, below cuts[0]
                return f"[{what}≤{cuts[0] - 1}]"
            if b is None:
                return f"[{what}≥{a}]"
            return f"[{what}∈[{a},{b})]"
    raise AssertionError("unreachable")


def sample_counts(
    run: Callable[[random.Random], str],
    n: int,
    seed: int,
    classify: Callable[[str], str] = lambda s: s,
) -> Counter[str]:
    """Counts of ``n`` runs at ``seed``, each output mapped by ``classify`` (e.g.
    :meth:`~.interpreter.ProgramMechanism.classify`, lumping the tails)."""
    rng = random.Random(seed)
    return Counter(classify(run(rng)) for _ in range(n))


# ---------------------------------------------------------------------------
# statistics (exact or certified where it matters; p-values are only compared
# with a fixed significance level)
# ---------------------------------------------------------------------------


def chi_square_pvalue(counts: Mapping[str, int], probs: Mapping[str, sp.Expr], n: int) -> float:
    """Pearson's chi-square goodness of fit, with cells of expected count < 5 pooled.

    Outputs seen but absent from ``probs`` (probability 0 according to the closed
    form) make the p-value 0.
    """
    if any(k not in probs for k in counts):
        return 0.0
    cells: list[tuple[float, int]] = []
    pool_e, pool_o = 0.0, 0
    for k, p in probs.items():
        e = float(p) * n
        o = counts.get(k, 0)
        if e < 5:
            pool_e += e
            pool_o += o
        else:
            cells.append((e, o))
    if pool_e > 0:
        cells.append((pool_e, pool_o))
    chi = sum((o - e) ** 2 / e for e, o in cells)
    df = len(cells) - 1
    if df <= 0:
        return 1.0
    return float(mpmath.gammainc(df / 2, chi / 2, mpmath.inf, regularized=True))


def binomial_two_sided_pvalue(k: int, n: int, p: Fraction) -> float:
    """Exact two-sided binomial test (the binomial law itself, no normal
    approximation): the probability under Bin(n, p) of the outcomes at most as likely
    as ``k``.  The pmf is evaluated in log space (a p-value is only compared with a
    fixed significance level)."""
    pf = float(p)
    if pf <= 0.0:
        return 1.0 if k == 0 else 0.0
    if pf >= 1.0:
        return 1.0 if k == n else 0.0
    lp, lq = math.log(pf), math.log1p(-pf)

    def logpmf(i: int) -> float:
        return (
            math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * lp + (n - i) * lq
        )

    ref = logpmf(k) + 1e-9
    return min(1.0, sum(math.exp(v) for v in map(logpmf, range(n + 1)) if v <= ref))
