"""Built-in distribution kinds of spec files: exact distributions (sums, the loss they
attain, a seeded simulation of the discretised Laplace), located errors, and the
documentation table."""

from __future__ import annotations

import math
import random
import re
from pathlib import Path

import pytest
import sympy as sp

from verifier.arithmetic.exact import Verdict, decide_eq
from verifier.errors import InvalidMechanism, InvalidParameter, SpecError
from verifier.interop.exact import epsilon_for_delta
from verifier.spec import loads_spec
from verifier.spec.distributions import DISTRIBUTIONS

ROOT = Path(__file__).resolve().parents[2]
R = sp.Rational

PAIR = '[graphs.g]\nkind = "pair"\n'


def _mech(body: str, name: str = "m"):
    return loads_spec(PAIR + body).mechanisms[name]


def _eps(m) -> sp.Expr:
    return epsilon_for_delta(m, delta=0).value


def test_randomized_response_binary_and_k_ary():
    m = _mech(
        '[mechanisms.m]\ngraph = "g"\ndistribution = "randomized_response"\n'
        'params = { epsilon = "log(3)", truth = { D = "1", "D\'" = "0" } }\n'
    )
    assert m.outputs == ("0", "1") and m.p("D", "1") == R(3, 4)
    assert decide_eq(_eps(m), sp.log(3)) is Verdict.HOLDS
    k = _mech(
        '[mechanisms.m]\ngraph = "g"\ndistribution = "randomized_response"\n'
        'params = { epsilon = "1", categories = ["a", "b", "c"], truth = { D = "a", "D\'" = "c" } }\n'
    )
    assert k.p("D", "a") == sp.E / (sp.E + 2) and k.p("D", "b") == 1 / (sp.E + 2)
    assert decide_eq(_eps(k), 1) is Verdict.HOLDS


def test_truncated_geometric_on_a_path_attains_epsilon():
    spec = loads_spec(
        '[mechanisms.m]\ngraph = { kind = "path", n = 4 }\ndistribution = "truncated_geometric"\n'
        'params = { epsilon = "1/2", lo = 0, hi = 4 }\n'
    )
    m = spec.mechanisms["m"]
    x = sp.exp(-R(1, 2))
    assert m.p("2", 0) == x**2 / (1 + x) and m.p("2", 3) == (1 - x) / (1 + x) * x
    assert decide_eq(_eps(m), R(1, 2)) is Verdict.HOLDS


def test_discretised_laplace_attains_the_laplace_loss():
    m = _mech(
        '[mechanisms.m]\ngraph = "g"\ndistribution = "discretised_laplace"\n'
        'params = { scale = 2, lo = -2, hi = 3, value = { D = 0, "D\'" = 1 } }\n'
    )
    assert m.outputs == ("-2", "-1", "0", "1", "2", "3")
    for d in ("D", "D'"):
        assert sp.simplify(sum(m.p(d, o) for o in m.outputs) - 1) == 0
    assert decide_eq(_eps(m), R(1, 2)) is Verdict.HOLDS  # |v - v'| / b, at the tails


def test_discretised_laplace_matches_a_seeded_simulation():
    m = _mech(
        '[mechanisms.m]\ngraph = "g"\ndistribution = "discretised_laplace"\n'
        'params = { scale = "3/2", lo = -1, hi = 2, step = "1/2", value = { D = "1/3", "D\'" = 0 } }\n'
    )
    rng = random.Random(11)
    grid = [R(-1) + R(i, 2) for i in range(7)]
    n = 60_000
    counts = dict.fromkeys(grid, 0)
    for _ in range(n):
        x = 1 / 3 + rng.expovariate(1 / 1.5) * (1 if rng.random() < 0.5 else -1)
        g = min(max(math.floor((x + 1) * 2 + 0.5) / 2 - 1, -1), 2)  # nearest grid point
        counts[R(g).limit_denominator(2)] += 1
    for g in grid:
        p = float(m.p("D", str(g)))
        assert abs(counts[g] / n - p) < 5 * math.sqrt(p * (1 - p) / n) + 1e-9, (g, counts[g] / n, p)


def test_exponential_mechanism():
    m = _mech(
        '[mechanisms.m]\ngraph = "g"\ndistribution = "exponential_mechanism"\n'
        'params = { epsilon = 2, scores = { D = { a = 1, b = 0 }, "D\'" = { a = 0, b = 1 } } }\n'
    )
    e = sp.E
    assert m.outputs == ("a", "b") and m.p("D", "a") == e / (e + 1)
    assert decide_eq(_eps(m), 1) is Verdict.HOLDS  # eps * (difference of scores 1) / 2 * 2


@pytest.mark.parametrize(
    ("body", "error", "where"),
    [
        (
            'distribution = "randomised_response"\nparams = {}',
            InvalidParameter,
            "did you mean 'randomized_response'",
        ),
        (
            'distribution = "randomized_response"\nparams = { epsilon = 1 }',
            InvalidParameter,
            "needs the parameter 'truth'",
        ),
        (
            'distribution = "randomized_response"\nparams = { epsilon = 1, truth = { D = "1" } }',
            InvalidMechanism,
            'no entry for dataset "D\'"',
        ),
        (
            'distribution = "randomized_response"\nparams = { epsilon = 0, truth = { D = "1", "D\'" = "0" } }',
            InvalidParameter,
            "params.epsilon: must be > 0",
        ),
        (
            'distribution = "truncated_geometric"\nparams = { epsilon = 1, lo = 0, hi = 3, bogus = 1 }',
            InvalidParameter,
            "params.bogus: unknown parameter",
        ),
        (
            'distribution = "truncated_geometric"\nparams = { epsilon = 1, lo = 0, hi = 3 }',
            InvalidParameter,
            "value = {",
        ),
        (
            'distribution = "exponential_mechanism"\nparams = { epsilon = 1, scores = { D = { a = 1 }, "D\'" = { b = 1 } } }',
            InvalidParameter,
            "exactly the candidates",
        ),
        ('distribution = "randomized_response"\noutput = 1', SpecError, "unknown key"),
    ],
)
def test_errors_are_located(body, error, where):
    with pytest.raises(error, match=re.escape(where)) as info:
        _mech(f'[mechanisms.m]\ngraph = "g"\n{body}\n')
    assert str(info.value).startswith("mechanisms.m")


def test_a_typo_in_distributions_keeps_its_hint():
    with pytest.raises(SpecError, match="did you mean 'distributions'"):
        _mech('[mechanisms.m]\ngraph = "g"\noutputs = [0]\ndistribution = { D = { "0" = 1 } }\n')


def _documented() -> dict[str, str]:
    text = (ROOT / "docs" / "spec-format.md").read_text(encoding="utf-8")
    section = text.split("| distribution | parameters |", 1)[1].split("\n\n", 1)[0]
    return dict(re.findall(r"^\| `([a-z_]+)` \| (.*?) \|", section, flags=re.M))


@pytest.mark.parametrize("name", sorted(DISTRIBUTIONS))
def test_spec_format_documents_every_kind_and_parameter(name):
    rows = _documented()
    assert set(rows) == set(DISTRIBUTIONS)
    missing = [p.name for p in DISTRIBUTIONS[name].params if f"`{p.name}`" not in rows[name]]
    assert not missing, f"docs/spec-format.md: {name} does not name {missing}"


# ---------------------------------------------------------------------------
# a distribution by construction: re-decided here, exactly, on every kind
# ---------------------------------------------------------------------------

BUILDS = [
    ("randomized_response", 'params = { epsilon = "log(3)", truth = { D = "1", "D\'" = "0" } }'),
    (
        "randomized_response",
        'params = { epsilon = "1/7", categories = ["a", "b", "c", "d"], '
        'truth = { D = "a", "D\'" = "d" } }',
    ),
    ("truncated_geometric", 'params = { epsilon = "1/2", lo = 0, hi = 6, value = { D = 0, "D\'" = 6 } }'),
    ("truncated_geometric", 'params = { epsilon = "log(2)", lo = -3, hi = 2, value = { D = -1, "D\'" = 0 } }'),
    ("truncated_geometric", 'params = { epsilon = "2^5", lo = 0, hi = 1, value = { D = 0, "D\'" = 1 } }'),
    (
        "discretised_laplace",
        'params = { scale = "3/2", lo = -1, hi = 2, step = "1/2", value = { D = "1/3", "D\'" = 0 } }',
    ),
    (
        "discretised_laplace",  # values on a cut, below the grid and above it
        'params = { scale = "sqrt(2)", lo = 0, hi = 4, value = { D = "1/2", "D\'" = "-7" } }',
    ),
    ("discretised_laplace", 'params = { scale = 1, lo = 0, hi = 3, value = { D = "9", "D\'" = "3/2" } }'),
    (
        "exponential_mechanism",
        'params = { epsilon = "log(5)", sensitivity = 2, '
        'scores = { D = { a = 1, b = 0, c = "-3/2" }, "D\'" = { a = 0, b = 1, c = 2 } } }',
    ),
]  # fmt: skip


@pytest.mark.parametrize(("kind", "params"), BUILDS)
def test_every_kind_builds_a_distribution_decided_exactly(kind, params):
    """The reader builds a built-in mechanism without re-deciding its sums (they are
    identities, see verifier.spec.distributions); here every probability is decided
    non-negative and every row decided to sum to exactly 1, as a typed mechanism is."""
    from verifier.mechanism.model import FiniteMechanism

    m = _mech(f'[mechanisms.m]\ngraph = "g"\ndistribution = "{kind}"\n{params}\n')
    rows = {d: {o: m.p(d, o) for o in m.outputs} for d in m.datasets}
    FiniteMechanism(m.graph, rows, list(m.outputs))  # validates: raises if not


def test_the_laplace_cells_take_the_branch_of_each_end():
    """Against a direct evaluation: each cell's mass is the Laplace CDF's difference
    at its ends, with the CDF written by comparing each end with the value."""
    m = _mech(
        '[mechanisms.m]\ngraph = "g"\ndistribution = "discretised_laplace"\n'
        'params = { scale = 2, lo = -2, hi = 3, value = { D = "1/2", "D\'" = 1 } }\n'
    )

    def cdf(x, v, b=2):
        if x is None:
            return 0
        return sp.exp((x - v) / b) / 2 if x <= v else 1 - sp.exp(-(x - v) / b) / 2

    for d, v in (("D", R(1, 2)), ("D'", R(1))):
        grid = [R(g) for g in range(-2, 4)]
        for i, g in enumerate(grid):
            a = None if i == 0 else g - R(1, 2)
            c = None if i == len(grid) - 1 else g + R(1, 2)
            mass = (1 if c is None else cdf(c, v)) - cdf(a, v)
            assert sp.simplify(m.p(d, str(g)) - mass) == 0, (d, g)


@pytest.mark.parametrize(
    ("body", "text"),
    [
        ('distribution = "truncated_geometric"\nparams = { epsilon = 1, lo = 0, hi = 100000 }', "outputs"),
        (
            'distribution = "discretised_laplace"\n'
            'params = { scale = 1, lo = 0, hi = 2000, value = { D = 0, "D\'" = 1 } }',
            "exact operations",
        ),
        (
            'distribution = "randomized_response"\n'
            'params = { epsilon = "2^300", truth = { D = "1", "D\'" = "0" } }',
            "params.epsilon: the value has magnitude about 2^301",
        ),
        (
            'distribution = "exponential_mechanism"\n'
            'params = { epsilon = 1, scores = { D = { a = "2^300", b = 0 }, "D\'" = { a = 0, b = 1 } } }',
            "params.scores.D.a: the value has magnitude",
        ),
    ],
)  # fmt: skip
def test_built_in_kinds_are_held_to_the_limits(body, text):
    with pytest.raises(InvalidParameter, match=re.escape(text)):
        _mech(f'[mechanisms.m]\ngraph = "g"\n{body}\n')


def test_the_limits_of_built_in_kinds_can_be_raised():
    from verifier.spec.limits import Limits

    body = (
        PAIR + '[mechanisms.m]\ngraph = "g"\ndistribution = "truncated_geometric"\n'
        'params = { epsilon = 1, lo = 0, hi = 1, value = { D = 0, "D\'" = 1 } }\n'
    )
    with pytest.raises(InvalidParameter, match="--max-work raises it"):
        loads_spec(body, limits=Limits(max_work=100))
    assert loads_spec(body, limits=Limits(max_work=10_000)).mechanisms["m"].outputs == (0, 1)
    big = body.replace("epsilon = 1,", 'epsilon = "2^300",')
    with pytest.raises(InvalidParameter, match="--max-exponent raises it"):
        loads_spec(big)
    m = loads_spec(big, limits=Limits(max_exponent=512)).mechanisms["m"]
    assert m.p("D", 0) == 1 / (1 + sp.exp(-(sp.Integer(2) ** 300)))
