"""Test-suite helpers: hypothesis strategies for exact finite DP mechanisms, and
counterexample search as a regression check.

Strategies (all values exact: ``fractions.Fraction`` or sympy rationals):

* :func:`rational_distributions` — positive rational distributions on ``m`` points;
* :func:`pair_mechs` — :class:`~verifier.search.spaces.PairMech`: a mechanism on a
  neighbouring pair that is *exactly* ``log(a)``-DP (every likelihood ratio in
  ``[1/a, a]``), with extreme points (ratios at ``a^{±1}``) drawn often;
* :func:`dp_pairs` — the same as a :class:`~verifier.mechanism.model.FiniteMechanism`;
* :func:`sensitivity_tables` — integer function tables of sensitivity 1 on a pair
  (Ghazi et al.'s Algorithm 1 input);
* :func:`query_vector_pairs` — neighbouring query-answer vectors.

Search as a test::

    from verifier.testing import assert_no_counterexample

    def test_random_stopping_is_3eps_dp():
        assert_no_counterexample("liu_talwar2019.thm32", instances=2000, seed=0)

    def test_my_spec_claim():            # a claim of your own spec file
        assert_no_counterexample("specs/selection.toml", claim="is-2eps-dp", seconds=30)

The search is deterministic (seed and instance budget fix the answer), so such a
test is reproducible; ``seconds`` is only an outer limit.  A failure message carries
the certificate: a spec file on which ``verifier check`` proves the violation.
"""

from __future__ import annotations

import os
from fractions import Fraction
from pathlib import Path
from typing import Any, TypedDict, Unpack

try:
    from hypothesis import strategies as st
except ImportError as err:  # pragma: no cover - hypothesis is a test dependency
    raise ImportError(
        "verifier.testing needs hypothesis (pip install hypothesis, or verifier[dev])"
    ) from err

import sympy as sp

from .claims import Claim
from .mechanism.model import FiniteMechanism
from .mechanism.neighbours import pair
from .runtime.docstrings import filler
from .search import SearchResult, get_searchable, search, spec_searchable
from .search.spaces import PURE_BUDGETS, PairMech, QueryPair, project

__all__ = [
    "rational_distributions",
    "pair_mechs",
    "dp_pairs",
    "sensitivity_tables",
    "query_vector_pairs",
    "find_counterexample",
    "assert_no_counterexample",
    "assert_counterexample",
]


# ---------------------------------------------------------------------------
# strategies
# ---------------------------------------------------------------------------


#: The docstring entries the strategies and the search assertions share.
_fill_doc = filler(
    pair_options="""a : rational > 1, optional
    ``e^ε`` (default: one of :data:`~verifier.search.spaces.PURE_BUDGETS`).
outputs : int or (int, int)
    Number of outputs.
extreme : float
    Probability of an extreme ratio ``a^{±1}`` at each output.""",
    search_options="""claim : Claim, str or path
    A claim, a registered claim id, or a spec file (``.toml``/``.json``).
claim_id : str, optional
    The claim of the spec file (when it has several).
seconds : float or None
    Outer time limit (``None``: none); the instance budget fixes the answer.
seed : int
    Master seed.
instances : int, optional
    The instance budget (default: the claim's).
workers : int
    Local worker processes (1: in this process).""",
    raises_unknown_claim="""verifier.errors.UnknownClaim
    ``claim`` is neither a registered searchable claim nor a spec file.""",
    raises_a="""ValueError
    (When drawing) ``a <= 1``.""",
    raises_range="""hypothesis.errors.InvalidArgument
    (When drawing) a range whose low end exceeds its high end.""",
)


@st.composite
def rational_distributions(
    draw: Any, m: int | tuple[int, int] = (2, 4), max_weight: int = 100
) -> tuple[Fraction, ...]:
    """Positive rational distributions on ``m`` points (or a number of points in
    the range ``m``), as integer weights over their sum.

    Parameters
    ----------
    m : int or (int, int)
        The number of points, or the range it is drawn from (both ends included).
    max_weight : int
        The largest integer weight of a point.

    Returns
    -------
    hypothesis.strategies.SearchStrategy
        Of tuples of :class:`fractions.Fraction`, positive, summing to 1.

    Raises
    ------
    hypothesis.errors.InvalidArgument
        (When drawing) a range ``m`` whose low end exceeds its high end, or
        ``max_weight < 1``.

    Examples
    --------
    >>> from hypothesis import given, settings
    >>> @settings(max_examples=25, database=None)
    ... @given(rational_distributions(m=(2, 4)))
    ... def test_a_distribution(p):
    ...     assert 2 <= len(p) <= 4 and sum(p) == 1 and min(p) > 0
    >>> test_a_distribution()
    """
    n = m if isinstance(m, int) else draw(st.integers(m[0], m[1]))
    w = draw(st.lists(st.integers(1, max_weight), min_size=n, max_size=n))
    s = sum(w)
    return tuple(Fraction(x, s) for x in w)


@_fill_doc
@st.composite
def pair_mechs(
    draw: Any,
    a: Fraction | int | None = None,
    outputs: int | tuple[int, int] = (2, 4),
    extreme: float = 0.5,
) -> PairMech:
    """Exactly ``log(a)``-DP pairs of positive rational distributions.

    Parameters
    ----------
    %(pair_options)s

    Returns
    -------
    hypothesis.strategies.SearchStrategy
        Of :class:`~verifier.search.spaces.PairMech` (``a``, ``p``, ``q``: every
        ratio ``p[o]/q[o]`` in ``[1/a, a]``).

    Raises
    ------
    %(raises_a)s

    Examples
    --------
    >>> from hypothesis import given, settings
    >>> @settings(max_examples=25, database=None)
    ... @given(pair_mechs(a=3))
    ... def test_ratios(pm):
    ...     assert sum(pm.p) == sum(pm.q) == 1
    ...     assert all(Fraction(1, 3) <= x / y <= 3 for x, y in zip(pm.p, pm.q))
    >>> test_ratios()
    """
    aa = Fraction(a) if a is not None else draw(st.sampled_from(PURE_BUDGETS))
    if aa <= 1:
        raise ValueError(f"a = e^eps must be > 1, got {aa}")
    p = draw(rational_distributions(outputs))
    ratios = []
    for _ in p:
        if draw(st.floats(0, 1)) < extreme:
            ratios.append(aa if draw(st.booleans()) else 1 / aa)
        else:
            k = draw(st.integers(0, 64))
            ratios.append(1 / aa + (aa - 1 / aa) * Fraction(k, 64))
    return PairMech(aa, p, project(p, ratios, aa))


@_fill_doc
def dp_pairs(
    a: Fraction | int | None = None,
    outputs: int | tuple[int, int] = (2, 4),
    extreme: float = 0.5,
    datasets: tuple[str, str] = ("D", "D'"),
) -> st.SearchStrategy[FiniteMechanism]:
    """:func:`pair_mechs` as a :class:`~verifier.mechanism.model.FiniteMechanism` on the
    pair ``datasets`` with outputs ``0..m-1``; it is exactly ``log(a)``-DP:
    ``check_pure_dp(m, log(a))`` holds, attained when a ratio is extreme.

    Parameters
    ----------
    %(pair_options)s
    datasets : (str, str)
        The names of the two datasets.

    Returns
    -------
    hypothesis.strategies.SearchStrategy
        Of :class:`~verifier.mechanism.model.FiniteMechanism`.

    Raises
    ------
    %(raises_a)s

    Examples
    --------
    Every drawn mechanism is ``log 3``-DP (a property test of
    :func:`~verifier.checks.privacy.check_pure_dp`):

    >>> from hypothesis import given, settings
    >>> from verifier.checks.privacy import check_pure_dp
    >>> @settings(max_examples=10, database=None, deadline=None)
    ... @given(dp_pairs(a=3, outputs=3))
    ... def test_is_log3_dp(m):
    ...     assert m.outputs == (0, 1, 2)
    ...     assert check_pure_dp(m, epsilon=sp.log(3)).holds
    >>> test_is_log3_dp()
    """

    def mechanism(pm: PairMech) -> FiniteMechanism:
        d0, d1 = datasets
        outs = list(range(pm.m))

        def row(d: tuple[Fraction, ...]) -> dict[int, sp.Rational]:
            return {
                o: sp.Rational(x.numerator, x.denominator) for o, x in zip(outs, d, strict=True)
            }

        return FiniteMechanism(pair(d0, d1), {d0: row(pm.p), d1: row(pm.q)}, outs, name="M")

    return pair_mechs(a, outputs, extreme).map(mechanism)


@_fill_doc
@st.composite
def sensitivity_tables(
    draw: Any, d: tuple[int, int] = (1, 3), values: tuple[int, int] = (-1, 2)
) -> dict[str, list[int]]:
    """``{"D": [f_1(D), ...], "D'": [f_1(D'), ...]}`` with ``|f_i(D) - f_i(D')| <= 1``
    (Ghazi et al. 2025, Algorithm 1).

    Parameters
    ----------
    d : (int, int)
        The range of the number of functions.
    values : (int, int)
        The range of ``f_i(D)``.

    Returns
    -------
    hypothesis.strategies.SearchStrategy
        Of dicts ``{"D": list of int, "D'": list of int}``.

    Raises
    ------
    %(raises_range)s

    Examples
    --------
    >>> from hypothesis import given, settings
    >>> @settings(max_examples=25, database=None)
    ... @given(sensitivity_tables(d=(1, 3)))
    ... def test_sensitivity_one(t):
    ...     assert 1 <= len(t["D"]) == len(t["D'"]) <= 3
    ...     assert all(abs(x - y) <= 1 for x, y in zip(t["D"], t["D'"]))
    >>> test_sensitivity_one()
    """
    n = draw(st.integers(d[0], d[1]))
    fd = draw(st.lists(st.integers(values[0], values[1]), min_size=n, max_size=n))
    steps = draw(st.lists(st.sampled_from((-1, 0, 1)), min_size=n, max_size=n))
    return {"D": fd, "D'": [x + s for x, s in zip(fd, steps, strict=True)]}


@_fill_doc
@st.composite
def query_vector_pairs(
    draw: Any, n: tuple[int, int] = (1, 4), values: tuple[int, int] = (-1, 2)
) -> QueryPair:
    """Neighbouring query-answer vectors ``q ~ q'`` (every answer moves by at most 1,
    some answer moves).

    Parameters
    ----------
    n : (int, int)
        The range of the vectors' length.
    values : (int, int)
        The range of the answers of ``q``.

    Returns
    -------
    hypothesis.strategies.SearchStrategy
        Of :class:`~verifier.search.spaces.QueryPair` (``q``, ``q2``).

    Raises
    ------
    %(raises_range)s

    Examples
    --------
    >>> from hypothesis import given, settings
    >>> @settings(max_examples=25, database=None)
    ... @given(query_vector_pairs(n=(1, 4)))
    ... def test_neighbours(qp):
    ...     moves = [b - a for a, b in zip(qp.q, qp.q2)]
    ...     assert set(moves) <= {-1, 0, 1} and any(moves)
    >>> test_neighbours()
    """
    k = draw(st.integers(n[0], n[1]))
    q = draw(st.lists(st.integers(values[0], values[1]), min_size=k, max_size=k))
    moves = draw(
        st.lists(st.sampled_from((-1, 0, 1)), min_size=k, max_size=k).filter(lambda ms: any(ms))
    )
    return QueryPair(tuple(q), tuple(x + s for x, s in zip(q, moves, strict=True)))


# ---------------------------------------------------------------------------
# search as a regression check
# ---------------------------------------------------------------------------


class _SearchOptions(TypedDict, total=False):
    """The options of :func:`find_counterexample` (its defaults apply) that the assertions
    pass on to it."""

    claim_id: str | None
    seconds: float | None
    seed: int
    instances: int | None
    workers: int
    certificate: str | os.PathLike[str] | None


def _claim(claim: Claim | str | os.PathLike[str], claim_id: str | None) -> Claim:
    if isinstance(claim, Claim):
        return claim
    text = os.fspath(claim)
    p = Path(text)
    if p.suffix.lower() in (".toml", ".json") or p.exists():
        return spec_searchable(p, claim_id)
    return get_searchable(text)


@_fill_doc
def find_counterexample(
    claim: Claim | str | os.PathLike[str],
    *,
    claim_id: str | None = None,
    seconds: float | None = 30.0,
    seed: int = 0,
    instances: int | None = None,
    workers: int = 1,
    certificate: str | os.PathLike[str] | None = None,
) -> SearchResult:
    """Run :func:`verifier.search.search` on ``claim`` (a registered id, a spec file
    with ``claim_id``, or a :class:`~verifier.search.Claim`).

    Parameters
    ----------
    %(search_options)s
    certificate : path, optional
        Where to write the certificate of a counterexample.

    Returns
    -------
    SearchResult
        ``status`` (``"violated"`` when a counterexample was certified), the best
        ratio seen, the certificate text.

    Raises
    ------
    %(raises_unknown_claim)s
    verifier.errors.SpecError
        The spec file cannot be read or has no such claim.

    Examples
    --------
    Random stopping is 3ε-DP (Liu & Talwar 2019, Theorem 3.2): 60 instances find no
    counterexample.

    >>> r = find_counterexample("liu_talwar2019.thm32", instances=60, seed=0, seconds=None)
    >>> r.violated, r.best_ratio <= 1
    (False, True)
    """
    return search(
        _claim(claim, claim_id),
        seconds=seconds,
        seed=seed,
        instances=instances,
        workers=workers,
        out=certificate,
    )


@_fill_doc
def assert_no_counterexample(
    claim: Claim | str | os.PathLike[str],
    *,
    max_ratio: float | None = None,
    **options: Unpack[_SearchOptions],
) -> SearchResult:
    """Fail (``AssertionError``) if the search finds a counterexample to ``claim``.

    The message shows the counterexample and its certificate (written to
    ``certificate`` when given).  ``max_ratio`` additionally bounds the best
    realized/claimed ratio seen (a tightness regression).  Returns the result.

    Parameters
    ----------
    %(search_options)s
    certificate : path, optional
        Where to write the certificate of a counterexample.
    max_ratio : float, optional
        The largest best realized/claimed ratio accepted.

    Returns
    -------
    SearchResult

    Raises
    ------
    AssertionError
        A counterexample was found, or the best ratio exceeds ``max_ratio``.
    %(raises_unknown_claim)s

    Examples
    --------
    >>> r = assert_no_counterexample("liu_talwar2019.thm32", instances=60, seed=0, seconds=None)
    >>> r.violated
    False
    """
    r = find_counterexample(claim, **options)
    if r.violated:
        raise AssertionError(
            f"counterexample found:\n{r.summary()}\n\ncertificate (verifier check exits 1 on it):\n"
            f"{r.certificate_text}"
        )
    if max_ratio is not None and r.best_ratio > max_ratio:
        raise AssertionError(
            f"best realized/claimed ratio {r.best_ratio:.6g} exceeds {max_ratio}:\n{r.summary()}"
        )
    return r


@_fill_doc
def assert_counterexample(
    claim: Claim | str | os.PathLike[str], **options: Unpack[_SearchOptions]
) -> SearchResult:
    """Fail unless the search refutes ``claim`` (a negative control); returns the
    result, whose ``certificate_text`` re-verifies.

    Parameters
    ----------
    %(search_options)s
    certificate : path, optional
        Where to write the certificate.

    Returns
    -------
    SearchResult

    Raises
    ------
    AssertionError
        No counterexample was found.
    %(raises_unknown_claim)s

    Examples
    --------
    The best of ``k`` runs is not ε-DP (a registered finding,
    ``liu_talwar2019.B1.best_of_k_eps``); random stopping's 3ε bound is not refuted:

    >>> r = assert_counterexample("liu_talwar2019.B1.best_of_k_eps", instances=60, seed=1, seconds=None)
    >>> r.violated, r.counterexample_ratio > 1
    (True, True)
    >>> assert_counterexample("liu_talwar2019.thm32", instances=60, seed=0, seconds=None)
    Traceback (most recent call last):
    ...
    AssertionError: no counterexample found:
    ...
    """
    r = find_counterexample(claim, **options)
    if not r.violated:
        raise AssertionError(f"no counterexample found:\n{r.summary()}")
    return r
