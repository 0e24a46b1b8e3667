"""The suite's sparse-vector and Report-Noisy-Max mechanisms as program texts.

Each mechanism of :mod:`.svt` and :mod:`.noisy_max` is built from its text here,
lowered to its exact model by :func:`verifier.algorithms.noise.text.lower_text`
(``docs/programs.md``): Lyu, Su, Li 2017, "Understanding the sparse vector technique
for differential privacy" (VLDB), Algorithms 1-6 (their Figure 1; DP-Sniper's
``SparseVectorTechnique1..6``, StatDP's ``SVT`` and ``iSVT1..4``); NumericalSVT (Wang,
Ding, Wang, Kifer, Zhang 2019, PLDI); Report-Noisy-Max with Laplace and one-sided
exponential noise releasing the argmax or the noisy maximum (Ding, Wang, Wang, Zhang,
Kifer 2018, CCS, Algorithms 5-8).  The same texts, with their claims on the tools'
pairs, are the spec files ``examples/programs/dp_testing_*.toml``
(``tests/programs/test_programs_text.py`` holds the two equal).

>>> m = program("lyu1", eps="1/10", T="1/2")
>>> m.cutoff, m.threshold, m.query_noise
(1, Fraction(1, 2), Noise(kind='laplace', rate=1/40))
"""

from __future__ import annotations

from typing import Any

from verifier.algorithms.noise import NoisyMax, SparseVector
from verifier.algorithms.noise.text import MaxDensity, lower_text

__all__ = ["TEXTS", "program", "sparse_vector", "noisy_max"]

#: The program texts, by name.
TEXTS: dict[str, str] = {
    "lyu1": """\
program lyu_alg1(eps, c = 1, T = 0)
claim epsilon = eps
rho = laplace(2/eps)
count = 0
for i in queries:
    nu = laplace(4*c/eps)
    if q[i] + nu >= T + rho:
        output top
        count = count + 1
        if count == c:
            break
    else:
        output bottom
""",
    "lyu2": """\
program lyu_alg2(eps, c = 1, T = 0)
claim epsilon = eps
rho = laplace(2*c/eps)
count = 0
for i in queries:
    nu = laplace(4*c/eps)
    if q[i] + nu >= T + rho:
        output top
        rho = laplace(2*c/eps)   # a fresh threshold noise after each top
        count = count + 1
        if count == c:
            break
    else:
        output bottom
""",
    "lyu3": """\
program lyu_alg3(eps, c = 1, T = 0)
claim epsilon = eps
rho = laplace(2/eps)
count = 0
for i in queries:
    nu = laplace(2*c/eps)
    if q[i] + nu >= T + rho:
        output q[i] + nu
        count = count + 1
        if count == c:
            break
    else:
        output bottom
""",
    "lyu4": """\
program lyu_alg4(eps, c = 1, T = 0)
claim epsilon = eps
rho = laplace(4/eps)
count = 0
for i in queries:
    nu = laplace(4/(3*eps))
    if q[i] + nu >= T + rho:
        output top
        count = count + 1
        if count == c:
            break
    else:
        output bottom
""",
    "lyu5": """\
program lyu_alg5(eps, c = 1, T = 0)
claim epsilon = eps
rho = laplace(2/eps)
for i in queries:
    if q[i] >= T + rho:
        output top
    else:
        output bottom
""",
    "lyu6": """\
program lyu_alg6(eps, c = 1, T = 0)
claim epsilon = eps
rho = laplace(2/eps)
for i in queries:
    nu = laplace(2/eps)
    if q[i] + nu >= T + rho:
        output top
    else:
        output bottom
""",
    "numerical": """\
program numerical_svt(eps, c = 1, T = 0)
claim epsilon = eps
rho = laplace(3/eps)
count = 0
for i in queries:
    nu = laplace(6*c/eps)
    xi = laplace(3*c/eps)
    if q[i] + nu >= T + rho:
        output q[i] + xi
        count = count + 1
        if count == c:
            break
    else:
        output bottom
""",
    "rnm_laplace": """\
program report_noisy_max_laplace(eps)
claim epsilon = eps
best = -inf
arg = 0
for i in queries:
    nu = laplace(2/eps)
    if q[i] + nu > best:
        best = q[i] + nu
        arg = i
output arg
""",
    "rnm_exponential": """\
program report_noisy_max_exponential(eps)
claim epsilon = eps
best = -inf
arg = 0
for i in queries:
    nu = exponential(2/eps)
    if q[i] + nu > best:
        best = q[i] + nu
        arg = i
output arg
""",
    "rnm_value_laplace": """\
program report_noisy_max_value_laplace(eps)
claim epsilon = eps
best = -inf
arg = 0
for i in queries:
    nu = laplace(2/eps)
    if q[i] + nu > best:
        best = q[i] + nu
        arg = i
output best
""",
    "rnm_value_exponential": """\
program report_noisy_max_value_exponential(eps)
claim epsilon = eps
best = -inf
arg = 0
for i in queries:
    nu = exponential(2/eps)
    if q[i] + nu > best:
        best = q[i] + nu
        arg = i
output best
""",
}


def program(name: str, **args: Any) -> SparseVector | NoisyMax | MaxDensity:
    """The exact model of the text ``name`` with its parameters ``args`` (a released
    value with a density lowers all the same: ``densities=True``)."""
    return lower_text(TEXTS[name], args, densities=True)


def sparse_vector(name: str, **args: Any) -> SparseVector:
    """:func:`program` of a sparse-vector text."""
    prog = program(name, **args)
    if not isinstance(prog, SparseVector):
        raise TypeError(f"{name} is not a sparse-vector program")
    return prog


def noisy_max(name: str, **args: Any) -> NoisyMax | MaxDensity:
    """:func:`program` of a Report-Noisy-Max text (the argmax, or the noisy maximum:
    a :class:`~verifier.algorithms.noise.text.MaxDensity` under continuous noise)."""
    prog = program(name, **args)
    if isinstance(prog, SparseVector):
        raise TypeError(f"{name} is not a Report-Noisy-Max program")
    return prog
