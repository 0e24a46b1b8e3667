"""Linear releases written as text (verifier.algorithms.noise.linear).

The exact ε is held to hand derivations (the shifts of the independent coordinates
``z = B_S^{-1} y``, Dwork & Roth 2014, proof of Theorem 3.6), to a second evaluation
of the density ratio point by point on a grid of outputs (exact rationals), and the
release map to a seeded run of the program text; tightened claims are refuted with a
certificate that is re-verified from the two densities, and everything outside the
shape is refused with the reason.
"""

from __future__ import annotations

import itertools
import math
import random

import pytest
import sympy as sp

from verifier.algorithms.noise.linear import (
    check_linear_dp,
    density,
    is_linear_release,
    linear_epsilon,
    linear_mechanism,
    log_ratio_at,
    pair_loss,
)
from verifier.algorithms.noise.queries import query_graph
from verifier.algorithms.noise.text import Refused, lower, lower_gaussian, lower_linear
from verifier.arithmetic.exact import Verdict
from verifier.checks.privacy import check_pure_dp
from verifier.errors import VerifierError
from verifier.programs.syntax import parse_program, run_program

PREFIX = """\
program prefix_sums(eps)
claim epsilon = eps
s = 0
for i in queries:
    s = s + q[i]
    nu = {fam}(1/eps)
    output s + nu
"""

RUNNING = """\
program noisy_running_sum(eps)
s = 0
for i in queries:
    nu = laplace(1/eps)
    s = s + q[i] + nu
    output s
"""

PARTIAL = """\
program partial_sum(eps)
claim epsilon = eps
eta = laplace(1/eps)
s = 0
for i in queries:
    s = s + q[i]
output s + eta
"""

SMART = """\
program smart_sum(eps, M = 2)
claim epsilon = 2*eps
next = 0
sum = 0
k = 0
for i in queries:
    k = k + 1
    if k == M:
        eta1 = laplace(1/eps)
        next = sum + q[i] + eta1
        sum = 0
        k = 0
        output next
    else:
        eta2 = laplace(1/eps)
        next = next + q[i] + eta2
        sum = sum + q[i]
        output next
"""

EPS = sp.Symbol("eps", positive=True)


def _model(text: str, eps: object = 1, **args: object):  # type: ignore[no-untyped-def]
    return lower_linear(parse_program(text), {"eps": eps, **args})


def _one_differ(base: tuple[int, ...]):  # type: ignore[no-untyped-def]
    moved = [tuple(x + (j == i) for j, x in enumerate(base)) for i in range(len(base))]
    return query_graph([base, *moved], style="one_differ")


# ---------------------------------------------------------------------------
# the exact eps against hand derivations
# ---------------------------------------------------------------------------


def test_the_release_maps_are_the_hand_unrolled_ones() -> None:
    # SmartSum, M = 2 (docstring of examples/programs/smart_sum.toml): y0 = q0 + e0,
    # y1 = q0 + q1 + e1, y2 = q0 + q1 + q2 + e1 + e2, y3 = q2 + q3 + e3
    lm = _model(SMART).at(4)
    assert lm.A.tolist() == [[1, 0, 0, 0], [1, 1, 0, 0], [1, 1, 1, 0], [0, 0, 1, 1]]
    assert lm.B.tolist() == [[1, 0, 0, 0], [0, 1, 0, 0], [0, 1, 1, 0], [0, 0, 0, 1]]
    assert [d.rate for d in lm.noises] == [1, 1, 1, 1]
    run = _model(RUNNING).at(3)
    assert run.A == run.B == sp.Matrix([[1, 0, 0], [1, 1, 0], [1, 1, 1]])
    part = _model(PARTIAL, 3).at(4)
    assert part.A.tolist() == [[1, 1, 1, 1]] and part.B.tolist() == [[1]]
    assert part.noises[0].rate == 3


@pytest.mark.parametrize(
    ("text", "n", "style", "want"),
    [
        # one answer moves every later prefix: (n - j) eps, largest n eps at j = 0
        (PREFIX.format(fam="laplace"), 3, "one_differ", 3 * EPS),
        (PREFIX.format(fam="geometric"), 3, "one_differ", 3 * EPS),
        # all answers move: shifts 1, 2, ..., n of the prefixes: n(n+1)/2 eps
        (PREFIX.format(fam="laplace"), 3, "all_differ", 6 * EPS),
        # accumulated noisy answers: z = q + nu, eps per moved answer
        (RUNNING, 3, "one_differ", EPS),
        (RUNNING, 3, "all_differ", 3 * EPS),
        # one sum: sensitivity 1 (one_differ) or n (all_differ)
        (PARTIAL, 4, "one_differ", EPS),
        (PARTIAL, 4, "all_differ", 4 * EPS),
        # SmartSum: q0 (or q2) moves its element release and its block sum
        (SMART, 4, "one_differ", 2 * EPS),
    ],
)
def test_exact_eps_equals_the_hand_derivation(text: str, n: int, style: str, want: sp.Expr) -> None:
    model = _model(text, EPS)
    base = tuple([1] * n)
    if style == "one_differ":
        g = _one_differ(base)
    else:
        g = query_graph([base, tuple([2] * n), tuple([0] * n)], style="all_differ")
    value, pair, cert = linear_epsilon(model, g)
    assert sp.simplify(value - want) == 0, (value, want)
    # the certificate output realises it: the log density ratio there is the value
    lm = model.at(n)
    assert sp.simplify(log_ratio_at(lm, cert.y, *pair) - want) == 0


def test_integer_noise_with_a_fractional_shift_has_disjoint_supports() -> None:
    text = "program half(eps)\nfor i in queries:\n    nu = {fam}(1/eps)\n    output q[i]/2 + nu\n"
    g = query_graph([(0,), (1,)])
    assert linear_epsilon(_model(text.format(fam="laplace")), g)[0] == sp.Rational(1, 2)
    r = linear_epsilon(_model(text.format(fam="geometric")), g)[2]
    assert r.value == sp.oo and "not an integer" in r.reason
    lm = _model(text.format(fam="geometric")).at(1)
    assert density(lm, r.y, r.q) > 0 and density(lm, r.y, r.q2) == 0


def test_a_noiseless_output_that_moves_is_infinitely_distinguishing() -> None:
    bad = SMART.replace("        eta1 = laplace(1/eps)\n", "").replace("q[i] + eta1", "q[i]")
    lm = _model(bad).at(4)
    assert len(lm.noises) == 2 and lm.rows == (0, 2)
    r = pair_loss(lm, (1, 1, 1, 1), (2, 1, 1, 1))
    assert r.value == sp.oo and "one input only" in r.reason
    assert density(lm, r.y, r.q) > 0 and density(lm, r.y, r.q2) == 0


# ---------------------------------------------------------------------------
# a second exact method: the density ratio point by point on a grid
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "n"), [(PREFIX.format(fam="laplace"), 2), (RUNNING, 2), (SMART, 2)]
)
def test_the_supremum_is_the_largest_ratio_on_a_grid(text: str, n: int) -> None:
    lm = _model(text).at(n)
    a, b = (1,) * n, (2,) + (1,) * (n - 1)
    sup = pair_loss(lm, a, b).value
    grid = [sp.Rational(k, 2) for k in range(-2, 8)]
    values = [log_ratio_at(lm, y, a, b) for y in itertools.product(grid, repeat=n)]
    assert all(v.is_Rational for v in values)
    assert max(values) == sup  # attained on the grid (at y = A q), never exceeded
    assert min(values) == -sup  # and the reverse direction by symmetry


def test_geometric_ratios_on_an_integer_grid() -> None:
    lm = _model(PREFIX.format(fam="geometric")).at(2)
    a, b = (0, 0), (1, 0)
    values = [log_ratio_at(lm, y, a, b) for y in itertools.product(range(-3, 5), repeat=2)]
    assert max(values) == pair_loss(lm, a, b).value == 2


# ---------------------------------------------------------------------------
# the release map against the program text run with seeded noise
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("text", [PREFIX.format(fam="laplace"), RUNNING, SMART])
def test_means_and_variances_of_a_seeded_run_match_the_map(text: str) -> None:
    """A sanity check (not a verdict): the empirical mean of each output is within five
    standard errors of ``A q + c`` and its variance within 15% of ``(B diag(2/r²)
    Bᵀ)_ii`` (Laplace of rate r has variance 2/r²)."""
    prog = parse_program(text)
    q = (3, -1, 4, 1)
    lm = _model(text).at(len(q))
    want = lm.noiseless(q)
    cov = lm.B * sp.diag(*[2 / d.rate**2 for d in lm.noises]) * lm.B.T
    rng = random.Random(20240601)
    runs = 4000
    rows = [run_program(prog, q, {"eps": 1}, rng) for _ in range(runs)]
    for i in range(lm.m):
        xs = [r[i] for r in rows]
        mean = sum(xs) / runs
        var = sum((x - mean) ** 2 for x in xs) / (runs - 1)
        assert abs(mean - float(want[i])) < 5 * math.sqrt(float(cov[i, i]) / runs)
        assert abs(var / float(cov[i, i]) - 1) < 0.15


# ---------------------------------------------------------------------------
# claims: at a value, over a range, with a re-verifiable certificate
# ---------------------------------------------------------------------------


def test_tightened_claims_are_refuted_with_a_certificate() -> None:
    model = _model(PREFIX.format(fam="laplace"))
    g = _one_differ((1, 1, 1))
    assert check_linear_dp(model, g, epsilon=3).verdict is Verdict.HOLDS
    r = check_linear_dp(model, g)  # the text's claim: eps = 1
    assert r.verdict is Verdict.VIOLATED
    lm = model.at(3)
    for f in r.violations():
        q, q2 = f.pair
        ratio = sp.simplify(density(lm, f.output, q) / density(lm, f.output, q2))
        assert ratio == sp.exp(f.realized) and f.realized > 1
    r = check_linear_dp(model, g, epsilon=sp.Rational(29, 10))
    assert r.verdict is Verdict.VIOLATED
    # the shared vocabulary: epsilon by keyword, as exact text too; never a float
    assert check_linear_dp(model, g, epsilon="3").verdict is Verdict.HOLDS
    with pytest.raises(TypeError):
        check_linear_dp(model, g, 3)  # type: ignore[misc]
    with pytest.raises(VerifierError, match="float"):
        check_linear_dp(model, g, epsilon=2.9)


def test_claims_for_every_eps_in_a_range() -> None:
    model = _model(SMART, EPS)
    g = _one_differ((1, 1, 1, 1))
    span = (EPS, sp.Rational(1, 100), 10)
    assert check_linear_dp(model, g, over=span).verdict is Verdict.HOLDS  # 2 eps
    r = check_linear_dp(model, g, epsilon=EPS * sp.Rational(19, 10), over=span)
    assert r.verdict is Verdict.VIOLATED
    # the claim eps + 1 holds exactly where the loss 2 eps <= eps + 1, i.e. eps <= 1
    r = check_linear_dp(model, g, epsilon=EPS + 1, over=span)
    assert r.verdict is Verdict.VIOLATED
    assert {f.failing for f in r.violations()} == {((1, 10),)}


def test_the_finite_form_has_the_exact_eps_of_the_program() -> None:
    model = _model(SMART)
    g = _one_differ((1, 1, 1, 1))
    mech = linear_mechanism(model, g, {d: d for d in g.nodes})
    assert len(mech.outputs) == 3**4
    assert check_pure_dp(mech, epsilon=2).verdict is Verdict.HOLDS
    assert check_pure_dp(mech, epsilon=sp.Rational(199, 100)).verdict is Verdict.VIOLATED


# ---------------------------------------------------------------------------
# refusals: the reason
# ---------------------------------------------------------------------------

REFUSED = [
    (
        "two noises seen only through their sum",
        "program p(eps)\nfor i in queries:\n    a = laplace(1/eps)\n    b = laplace(1/eps)\n"
        "    output q[i] + a + b\n",
        "integrates out noises",
    ),
    (
        "Gaussian noise",
        "program p(eps)\nfor i in queries:\n    nu = gaussian(1/eps)\n    output q[i] + nu\n",
        "unbounded",
    ),
    (
        "one-sided noise",
        "program p(eps)\nfor i in queries:\n    nu = exponential(1/eps)\n    output q[i] + nu\n",
        "moves its support",
    ),
    (
        "mixed families",
        "program p(eps)\nfor i in queries:\n    a = laplace(1/eps)\n    b = geometric(1/eps)\n"
        "    output q[i] + a\n    output q[i] + b\n",
        "different families",
    ),
    (
        "a product with a noise",
        "program p(eps)\nfor i in queries:\n    a = laplace(1/eps)\n    output q[i] * a\n",
        "product of two",
    ),
    ("no output", "program p(eps)\nfor i in queries:\n    a = laplace(1/eps)\n", "outputs nothing"),
    (
        "a comparison on a symbolic parameter",
        "program p(eps, c)\nfor i in queries:\n    a = laplace(1/eps)\n    if c == 1:\n"
        "        output q[i] + a\n",
        "symbolic parameter",
    ),
]


@pytest.mark.parametrize(("what", "text", "why"), REFUSED, ids=[r[0] for r in REFUSED])
def test_refused_with_the_reason(what: str, text: str, why: str) -> None:
    prog = parse_program(text)
    assert is_linear_release(prog)
    args = {"eps": 1, "c": sp.Symbol("c")} if "c)" in text else {"eps": 1}
    with pytest.raises(Refused, match=why):
        if "gaussian" in text:
            lower_gaussian(prog, args)
        else:
            lower_linear(prog, args)


def test_the_other_shapes_are_not_linear_and_lower_points_here() -> None:
    svt = parse_program(
        "program p(eps)\nrho = laplace(2/eps)\nfor i in queries:\n    nu = laplace(4/eps)\n"
        "    if q[i] + nu >= rho:\n        output top\n        break\n    else:\n"
        "        output bottom\n"
    )
    assert not is_linear_release(svt)
    with pytest.raises(Refused, match="not a linear release"):
        lower_linear(svt, {"eps": 1})
    with pytest.raises(Refused, match="lower_linear"):
        lower(parse_program(PARTIAL), {"eps": 1})


def test_per_coordinate_suprema_of_the_density_ratio_path_add_up_to_the_loss() -> None:
    """The loss of independent coordinates is the sum of their suprema (a supremum of a
    sum of functions of separate variables); each is decided by the existing exact
    density-ratio path (``density_ratio.sup_log_ratio`` on shifted Laplace densities)."""
    from fractions import Fraction

    from verifier.algorithms.noise.density_ratio import sup_log_ratio
    from verifier.algorithms.noise.distributions import laplace_density
    from verifier.algorithms.noise.expoly import CONTINUOUS

    u = Fraction(1, 20)
    lm = _model(SMART, sp.Rational(1, 20)).at(4)
    f = laplace_density(CONTINUOUS.at_unit(u), 1)  # rate 1·u = eps
    for a, b in [
        ((1, 1, 1, 1), (2, 1, 1, 1)),
        ((1, 1, 1, 1), (1, 2, 1, 1)),
        ((0, 3, 1, 2), (1, 2, 2, 1)),
    ]:
        r = pair_loss(lm, a, b)
        parts = [sup_log_ratio(f, f.shifted(int(d)), u).value for d in r.shifts]
        assert sum(parts) == r.value
