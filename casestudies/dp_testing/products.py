"""Mechanisms of the suite that release values with independent noise: see the module
docstring of :mod:`casestudies.dp_testing`."""

from __future__ import annotations

import sympy as sp

from verifier.arithmetic import exact_max
from verifier.laplace import mixture_ratio_points

from .suite import ExactEpsilon, SuiteEntry, pattern_pairs

__all__ = ["ENTRIES"]

#: DP-Sniper's default ε (``eps: float = 0.1``), read as the decimal it is written as.
EPS = sp.Rational(1, 10)


def _laplace_exact() -> ExactEpsilon:
    """``LaplaceMechanism(eps=0.1)`` (``dpsniper/mechanisms/laplace.py``): the value plus
    Laplace noise of scale ``1/eps``.  Its density ratio is a ratio of Laplace
    mixtures, whose supremum is attained at a centre or in a limit
    (:func:`verifier.laplace.mixture_ratio_points`)."""
    scale = 1 / EPS
    per_pair = []
    for a, b in pattern_pairs(1, False, (-10, 10)):
        pts = mixture_ratio_points([(1, a[0])], [(1, b[0])], scale)
        logs = [sp.expand_log(sp.log(sp.powsimp(fa / fb)), force=True) for _, fa, fb in pts]
        i, _ = exact_max(logs)
        per_pair.append((f"{a} vs {b} at {pts[i][0]}", sp.simplify(logs[i])))
    i, _ = exact_max([v for _, v in per_pair])
    return ExactEpsilon(
        per_pair[i][1],
        tuple(per_pair),
        witness=per_pair[i][0],
        method="supremum of a ratio of Laplace densities, at a centre or a limit",
    )


ENTRIES: list[SuiteEntry] = [
    SuiteEntry(
        name="laplace_mechanism",
        tool="DP-Sniper",
        source="dpsniper/mechanisms/laplace.py, LaplaceMechanism(eps=0.1)",
        claimed=EPS,
        pairs="PatternGenerator(InputDomain(1, FLOAT, [-10, 10]), False): (1, 0), (1, 2), swapped",
        expected="holds",
        exact=_laplace_exact,
        notes="The Laplace mechanism with scale 1/eps is eps-DP for sensitivity 1 "
        "(Dwork, McSherry, Nissim, Smith 2006); the pairs differ by 1.",
    ),
]
