"""Pure ε of mechanisms that release independent components, per ordered pair of
inputs, computed from the components without listing the product's outputs.

A mechanism that releases ``Y = (Y_1, ..., Y_m)`` with independent components has, on
two inputs ``x`` and ``x'``, the probability (or density) ``p(y) = Π_i p_i(y_i)`` and
``q(y) = Π_i q_i(y_i)``.  Its privacy loss at ``y`` is ``Σ_i ln(p_i(y_i)/q_i(y_i))``, a
sum of functions of separate coordinates; the outputs of positive probability form
the product set ``Π_i supp(p_i)``, and the supremum of such a sum over a product set is
the sum of the suprema of its terms:

    sup_y ln(p(y)/q(y)) = Σ_i sup_{y_i} ln(p_i(y_i)/q_i(y_i)).

The bound ``<=`` is the basic composition theorem (Dwork, McSherry, Nissim, Smith
2006; Dwork & Roth 2014, Theorem 3.16); ``>=`` holds because each term's supremum can
be approached independently of the others.  Every term is ``>= 0`` (both laws have
mass one, so some output has ratio at least 1), so a component with an unbounded
ratio makes the sum ``oo``.  :func:`product_epsilon` computes the sum exactly: twenty
components cost twenty one-dimensional suprema, never ``5^20`` or ``2^20`` outputs.

Components are finite distributions (a mapping output -> probability) or densities
that are finite mixtures of Laplace densities of one common scale
(:class:`LaplaceDensity`); the supremum of a ratio of such densities is attained at a
centre or in a limit (:func:`verifier.algorithms.noise.mixtures.mixture_ratio_points`).  A release
``L Y`` with ``L`` an invertible matrix (e.g. prefix sums) has the same ε
(:func:`linear_image_epsilon`).

>>> import sympy as sp
>>> R = sp.Rational
>>> laplace = [LaplaceDensity.at(R(1), 200)] * 20          # 20 copies, scale 200
>>> shifted = [LaplaceDensity.at(R(0), 200)] * 20
>>> product_epsilon(laplace, shifted).value
1/10
>>> bit = {1: R(41, 80), 0: R(39, 80)}
>>> flipped = {1: R(39, 80), 0: R(41, 80)}
>>> product_epsilon([bit, bit, flipped], [flipped, bit, bit]).value
2*log(41/39)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sympy as sp

from ...arithmetic.exact import DEFAULT_PRECISION, Precision, Verdict, decide_eq, exact, exact_max
from ...errors import InvalidParameter, Undecidable
from .mixtures import mixture_ratio_points

__all__ = [
    "LaplaceDensity",
    "Component",
    "ComponentLoss",
    "ProductLoss",
    "component_epsilon",
    "product_epsilon",
    "linear_image_epsilon",
    "component_json",
]


@dataclass(frozen=True)
class LaplaceDensity:
    """The density ``Σ_k w_k e^{-|t - c_k|/b}/(2b)`` of a finite mixture of Laplace laws
    of one scale ``b`` (``mixture`` is ``((w_1, c_1), ...)``, exact numbers)."""

    mixture: tuple[tuple[sp.Expr, sp.Expr], ...]
    scale: sp.Expr

    def __post_init__(self) -> None:
        mix = tuple((exact(w), exact(c)) for w, c in self.mixture)
        scale = exact(self.scale)
        if not mix:
            raise InvalidParameter("a Laplace mixture needs at least one centre")
        if not scale.is_positive:
            raise InvalidParameter(f"the Laplace scale must be positive, got {scale}")
        if any(not w.is_nonnegative for w, _ in mix):
            raise InvalidParameter(f"the weights of a Laplace mixture must be >= 0: {mix}")
        object.__setattr__(self, "mixture", mix)
        object.__setattr__(self, "scale", scale)

    @classmethod
    def at(cls, centre: Any, scale: Any) -> LaplaceDensity:
        """The Laplace density of centre ``centre`` and scale ``scale``."""
        return cls(((sp.Integer(1), exact(centre)),), exact(scale))

    def density(self, t: sp.Expr) -> sp.Expr:
        """The density as a closed form in ``t`` (a sympy symbol or number).

        >>> LaplaceDensity.at(1, 10).density(sp.Symbol("t"))
        exp(-Abs(t - 1)/10)/20
        """
        b = self.scale
        return sp.Add(*[w * sp.exp(-sp.Abs(t - c) / b) / (2 * b) for w, c in self.mixture])


#: A component of a product: a finite distribution (output -> probability) or a density.
Component = Mapping[Any, Any] | LaplaceDensity


@dataclass(frozen=True)
class ComponentLoss:
    """``sup ln(p_i/q_i)`` of one component (``oo`` when unbounded) and where it is
    attained or approached."""

    value: sp.Expr
    where: str


@dataclass(frozen=True)
class ProductLoss:
    """The privacy loss of a product on one ordered pair: ``value = Σ terms``."""

    value: sp.Expr
    terms: tuple[ComponentLoss, ...]


def _log_ratio(a: sp.Expr, b: sp.Expr) -> sp.Expr:
    """``ln(a/b)``, kept as ``log(r)`` for a rational ratio ``r``."""
    r = sp.powsimp(a / b)
    return sp.log(r) if r.is_Rational else sp.expand_log(sp.log(r), force=True)


def _best(values: Sequence[sp.Expr], what: str, precision: Precision) -> int:
    i, certified = exact_max(values, precision)
    if not certified:
        raise Undecidable(f"{what}: the largest of {list(values)} is not certified")
    return i


def _finite(p: Mapping[Any, Any], what: str) -> dict[Any, sp.Expr]:
    dist = {o: exact(v) for o, v in p.items()}
    if any(v.is_negative for v in dist.values()):
        raise InvalidParameter(f"{what}: a probability is negative")
    if decide_eq(sp.Add(*dist.values()), 1) is Verdict.VIOLATED:
        raise InvalidParameter(f"{what}: the probabilities do not sum to 1")
    return dist


def component_epsilon(
    p: Component, q: Component, precision: Precision = DEFAULT_PRECISION
) -> ComponentLoss:
    """``sup_y ln(p(y)/q(y))`` over the support of ``p`` for two finite distributions,
    or over the real line for two Laplace-mixture densities (module docstring).

    >>> component_epsilon({"a": sp.Rational(1, 2), "b": sp.Rational(1, 2)},
    ...                   {"a": sp.Rational(1, 4), "b": sp.Rational(3, 4)})
    ComponentLoss(value=log(2), where='output a')
    >>> component_epsilon({"a": 1}, {"b": 1}).value
    oo
    >>> component_epsilon(LaplaceDensity.at(0, 2), LaplaceDensity.at(3, 2))
    ComponentLoss(value=3/2, where='t = 0')
    >>> component_epsilon(LaplaceDensity.at(0, 2), LaplaceDensity.at(0, 1)).value
    oo
    """
    if isinstance(p, LaplaceDensity) and isinstance(q, LaplaceDensity):
        if p == q:
            return ComponentLoss(sp.Integer(0), "identical densities")
        if p.scale != q.scale:
            if len(p.mixture) != 1 or len(q.mixture) != 1:
                raise InvalidParameter("Laplace mixtures of different scales are not supported")
            if p.scale > q.scale:  # the wider density dominates in both tails
                return ComponentLoss(sp.oo, "t -> +oo and t -> -oo")
            return _laplace_narrower(p, q)
        points = mixture_ratio_points(p.mixture, q.mixture, p.scale)
        logs = [_log_ratio(fa, fb) for _, fa, fb in points]
        i = _best(logs, "sup of a ratio of Laplace mixtures", precision)
        return ComponentLoss(sp.simplify(logs[i]), points[i][0])
    if isinstance(p, LaplaceDensity) or isinstance(q, LaplaceDensity):
        raise InvalidParameter("a density and a finite distribution are not comparable")
    dp, dq = _finite(p, "first distribution"), _finite(q, "second distribution")
    support = [o for o, v in dp.items() if not v.is_zero]
    for o in support:
        if exact(dq.get(o, 0)).is_zero:
            return ComponentLoss(sp.oo, f"output {o} (probability 0 under the second law)")
    logs = [_log_ratio(dp[o], dq[o]) for o in support]
    i = _best(logs, "sup of a ratio of probabilities", precision)
    return ComponentLoss(logs[i], f"output {support[i]}")


def _laplace_narrower(p: LaplaceDensity, q: LaplaceDensity) -> ComponentLoss:
    """``sup_t f_p/f_q`` for single Laplace densities with ``b_p < b_q``: the log ratio
    ``ln(b_q/b_p) - |t - c_p|/b_p + |t - c_q|/b_q`` is piecewise linear and decreasing
    in both tails (slopes ``±(1/b_q - 1/b_p)``), so its maximum is at a centre: at
    ``c_p`` it is ``ln(b_q/b_p) + |c_p - c_q|/b_q``, at ``c_q`` it is smaller."""
    (_, cp), (_, cq) = p.mixture[0], q.mixture[0]
    value = sp.log(q.scale / p.scale) + sp.Abs(cp - cq) / q.scale
    return ComponentLoss(value, f"t = {cp}")


def product_epsilon(
    ps: Sequence[Component], qs: Sequence[Component], precision: Precision = DEFAULT_PRECISION
) -> ProductLoss:
    """The pure ε of the independent product ``Π ps`` against ``Π qs`` on one ordered
    pair: the sum of :func:`component_epsilon` over the components (module docstring).
    Equal pairs of components are computed once.

    >>> import sympy as sp
    >>> out = product_epsilon([LaplaceDensity.at(1, 10)] * 3, [LaplaceDensity.at(0, 10)] * 3)
    >>> out.value, len(out.terms)
    (3/10, 3)
    """
    if len(ps) != len(qs):
        raise InvalidParameter(f"the products have {len(ps)} and {len(qs)} components")
    if not ps:
        raise InvalidParameter("a product needs at least one component")
    seen: dict[tuple[Any, Any], ComponentLoss] = {}
    terms = []
    for p, q in zip(ps, qs, strict=True):
        key = (_key(p), _key(q))
        if key not in seen:
            seen[key] = component_epsilon(p, q, precision)
        terms.append(seen[key])
    if any(t.value is sp.oo for t in terms):
        return ProductLoss(sp.oo, tuple(terms))
    return ProductLoss(sp.Add(*[t.value for t in terms]), tuple(terms))


def _key(c: Component) -> Any:
    if isinstance(c, LaplaceDensity):
        return c
    return tuple(sorted(((repr(o), exact(v)) for o, v in c.items()), key=lambda kv: kv[0]))


def linear_image_epsilon(
    ps: Sequence[LaplaceDensity],
    qs: Sequence[LaplaceDensity],
    matrix: sp.Matrix,
    precision: Precision = DEFAULT_PRECISION,
) -> ProductLoss:
    """The pure ε of the release ``L Y`` (``L = matrix``, square and invertible) where
    ``Y`` has independent density components ``ps`` (against ``qs``).

    By the change of variables ``y = L^{-1} z`` the density of ``L Y`` at ``z`` is
    ``f_Y(L^{-1} z)/|det L|``: the Jacobian cancels in the ratio, and ``L^{-1}`` maps
    the whole space onto itself, so the supremum of the ratio equals that of ``Y``
    (:func:`product_epsilon`).  A singular ``L`` is refused (the image has no density).

    >>> prefix = sp.Matrix(3, 3, lambda i, j: 1 if j <= i else 0)
    >>> linear_image_epsilon([LaplaceDensity.at(1, 10)] * 3,
    ...                      [LaplaceDensity.at(0, 10)] * 3, prefix).value
    3/10
    """
    m = sp.Matrix(matrix)
    n = len(ps)
    if m.shape != (n, n):
        raise InvalidParameter(f"the matrix is {m.shape[0]}x{m.shape[1]}, not {n}x{n}")
    if any(not isinstance(c, LaplaceDensity) for c in (*ps, *qs)):
        raise InvalidParameter("a linear image is defined here for density components only")
    if sp.simplify(m.det()).is_zero:
        raise InvalidParameter("the matrix is singular: its image has no density")
    return product_epsilon(ps, qs, precision)


def component_json(c: Component, variable: str = "t") -> dict[str, Any]:
    """A JSON-ready description of a component: a finite distribution as exact
    probabilities (text), a density as its closed form in ``variable``.

    >>> component_json({0: sp.Rational(1, 3), 1: sp.Rational(2, 3)})
    {'kind': 'finite', 'distribution': {'0': '1/3', '1': '2/3'}}
    >>> component_json(LaplaceDensity.at(2, 10))["density"]
    'exp(-Abs(t - 2)/10)/20'
    """
    if isinstance(c, LaplaceDensity):
        out: dict[str, Any] = {
            "kind": "laplace",
            "scale": str(c.scale),
            "density": str(c.density(sp.Symbol(variable, real=True))),
        }
        if len(c.mixture) == 1:
            out["centre"] = str(c.mixture[0][1])
        else:
            out["mixture"] = [[str(w), str(ce)] for w, ce in c.mixture]
        return out
    return {"kind": "finite", "distribution": {str(o): str(exact(v)) for o, v in c.items()}}
