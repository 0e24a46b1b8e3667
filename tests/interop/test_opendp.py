"""OpenDP's privacy maps against the exact loss (skipped without the ``interop``
extra)."""

from __future__ import annotations

import pytest
import sympy as sp

from verifier.arithmetic.exact import Verdict, decide_eq
from verifier.interop.exact import exact_float

pytest.importorskip("opendp", reason="opendp is not installed (pip install 'verifier[interop]')")

from verifier.interop.opendp_maps import (  # noqa: E402
    check_bounded_geometric,
    check_integer_laplace,
    check_randomized_response,
    check_randomized_response_bool,
)


@pytest.mark.parametrize("prob", [0.75, 0.6, 0.9])
def test_randomized_response_bool(prob):
    c = check_randomized_response_bool(prob)
    p = exact_float(prob)
    assert c.exact_epsilon == sp.log(p / (1 - p))
    assert c.verdict is Verdict.HOLDS and c.ratio == pytest.approx(1)


def test_randomized_response_k_ary():
    c = check_randomized_response(["a", "b", "c"], 0.5)
    assert decide_eq(c.exact_epsilon, sp.log(2)) is Verdict.HOLDS
    assert c.verdict is Verdict.HOLDS and c.ratio == pytest.approx(1)


@pytest.mark.parametrize(("scale", "d_in"), [(2.0, 1), (0.7, 3)])
def test_integer_laplace(scale, d_in):
    c = check_integer_laplace(scale, d_in)
    assert c.exact_epsilon == d_in / exact_float(scale)
    assert c.verdict is Verdict.HOLDS and c.ratio == pytest.approx(1)


@pytest.mark.parametrize(
    ("scale", "bounds", "d_in"), [(2.0, (0, 3), 1), (1.5, (-1, 2), 2), (2.0, (0, 3), 7)]
)
def test_bounded_geometric_exact_loss_is_min_of_d_in_and_width(scale, bounds, d_in):
    c = check_bounded_geometric(scale, bounds, d_in)
    width = bounds[1] - bounds[0]
    assert c.exact_epsilon == min(d_in, width) / exact_float(scale)
    assert c.verdict is Verdict.HOLDS
    # sound; loose by d_in / (U - L) once d_in exceeds the width of the domain
    assert c.ratio == pytest.approx(max(1, d_in / width))
