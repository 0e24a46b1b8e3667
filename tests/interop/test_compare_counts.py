"""``verifier compare random_stopping`` with Papernot & Steinke's logarithmic and
truncated negative binomial counts (selection programs), exact columns only (no
dp_accounting needed).  The expected exact values are derived by hand from the
counts' generating functions (Papernot & Steinke 2022, §2): with scores equal to the
outputs of randomized response (``P_D(1) = 3/4``), the best of ``K`` draws is 0 only
when every draw is, so ``Pr[best = 0] = G(P(0))``."""

from __future__ import annotations

import sympy as sp

from verifier.arithmetic.exact import is_exactly_zero
from verifier.interop.compare import compare


def _pure(g_d: sp.Expr, g_d2: sp.Expr) -> sp.Expr:
    """max over outputs and directions of the log-ratio, for Pr[0] = g_d under D and
    g_d2 under D' (g_d < g_d2 here)."""
    return sp.Max(sp.log(g_d2 / g_d), sp.log((1 - g_d) / (1 - g_d2)))


def test_truncated_negative_binomial_row_is_the_closed_form():
    # eta = 1/2, gamma = 1/16: mean eta(1-g)/(g(1-g^eta)) = (15/32)/(3/64) = 10 exactly;
    # G(z) = ((1 - 15z/16)^(-1/2) - 1)/3, so Pr_D[0] = G(1/4) = (8/7 - 1)/3 = 1/21 and
    # Pr_D'[0] = G(3/4) = (8/sqrt(19) - 1)/3: pure eps = log(56/sqrt(19) - 7).
    result = compare(
        "random_stopping",
        count="truncated_negative_binomial",
        shape=sp.Rational(1, 2),
        means=[10],
        accountants=False,
    )
    row = result.rows[0]
    assert row.params["gamma"] == sp.Rational(1, 16) and row.mean == 10
    expected = sp.log(56 / sp.sqrt(19) - 7)
    assert is_exactly_zero(row.exact_pure - expected) is True
    g = lambda z: ((1 - sp.Rational(15, 16) * z) ** sp.Rational(-1, 2) - 1) / 3  # noqa: E731
    assert is_exactly_zero(
        sp.simplify(_pure(g(sp.Rational(1, 4)), g(sp.Rational(3, 4))) - expected)
    )


def test_logarithmic_row_is_the_closed_form():
    # G(z) = log(1 - (1-g)z)/log(g) (Papernot & Steinke 2022, eta = 0)
    result = compare("random_stopping", count="logarithmic", means=[10], accountants=False)
    row = result.rows[0]
    gamma = row.params["gamma"]
    assert 0 < gamma < 1 and row.params["eta"] == 0
    assert is_exactly_zero(row.mean - (1 - gamma) / (gamma * sp.log(1 / gamma))) is True
    assert abs(float(row.mean) - 10) < 1e-3  # gamma was chosen for a mean close to 10
    g = lambda z: sp.log(1 - (1 - gamma) * z) / sp.log(gamma)  # noqa: E731
    by_hand = _pure(g(sp.Rational(1, 4)), g(sp.Rational(3, 4)))
    assert is_exactly_zero(row.exact_pure - by_hand) is True


def test_a_negative_shape_is_exact_and_below_the_shape_one_count():
    # eta = -1/2 runs fewer candidates: its pure eps is below the geometric count's
    low = compare(
        "random_stopping",
        count="truncated_negative_binomial",
        shape=sp.Rational(-1, 2),
        means=[10],
        accountants=False,
    ).rows[0]
    geo = compare("random_stopping", count="geometric", means=[10], accountants=False).rows[0]
    assert float(low.exact_pure) < float(geo.exact_pure)


def test_the_table_fits_80_columns():
    result = compare("random_stopping", means=[10, 100], accountants=False)
    lines = result.table(width=80).splitlines()
    start = lines.index("") + 1  # below the title and the line naming delta
    rows = lines[start : lines.index("", start)]
    assert len(rows) > 4 and all(len(line) <= 80 for line in rows), "\n".join(rows)
    assert lines[1] == "δ = 1e-06"
    # in a file or pipe a row is one line, with the exact value whole
    assert any("log(93/13) ≈ 1.9677" in line for line in result.table().splitlines())
