"""Google's ``dp_accounting``: export finite mechanisms, import discrete events.

``dp_accounting`` describes mechanisms as *events* (frozen ``attrs`` classes) and
lets accountants (PLD, RDP) bound their privacy; this module connects both ways:

* **export** — :func:`to_pld`: a neighbouring pair of a finite mechanism becomes a
  ``PrivacyLossDistribution`` through
  ``PrivacyLossDistribution.from_two_probability_mass_functions`` (both directions,
  ``symmetric=False``; the pessimistic discretisation rounds every loss up).  The
  log-probabilities are the doubles nearest to the exact ones
  (:func:`~verifier.arithmetic.exact.approx`), far below the discretisation step.
* **import** — :func:`from_dp_event`: the events whose mechanism has an exact
  finite form become a :class:`~verifier.mechanism.model.FiniteMechanism` on the pair
  ``D ~ D'``:

  ===============================  ==============================================
  event                            exact finite mechanism
  ===============================  ==============================================
  ``RandomizedResponseDpEvent``    k-ary randomized response, REPLACE_ONE: ``D``
                                   holds bucket ``k-1``, ``D'`` bucket ``k-2``
                                   (``P(true) = 1 - p + p/k``, others ``p/k``)
  ``DiscreteLaplaceDpEvent``       ``v + Z``, ``Z ~ DLap(a)``, ``v = Δ`` at ``D``
                                   and ``0`` at ``D'``, clamped to ``[0, Δ]``:
                                   every output ``≤ 0`` (``≥ Δ``) has the same
                                   loss ``aΔ`` (``-aΔ``), so clamping keeps the
                                   privacy loss distribution exactly
  ``RepeatAndSelectDpEvent``       the best of ``K`` runs of the imported inner
                                   event, ``K`` geometric (shape 1) or Poisson
                                   (shape ∞) (:mod:`verifier.algorithms.repeat_select`)
  ``SelfComposedDpEvent``          ``count`` independent runs
  ``ComposedDpEvent``              independent runs of the imported events
  ===============================  ==============================================

  Event parameters are floats; each is taken at its exact binary value
  (:func:`~verifier.interop.exact.exact_float`) — the mechanism the event describes,
  not a nearby rational.  Exact numbers (``int``, ``Fraction``, sympy) pass as they
  are.  Anything else raises :class:`~verifier.errors.InvalidParameter` saying why.
* **accountants** — :func:`accountant_epsilon`: ε at δ from the PLD or RDP accountant
  for an event.

``dp_accounting`` is optional (``pip install 'verifier[interop]'``); it is imported
when a function here needs it.
"""

from __future__ import annotations

import math
from fractions import Fraction
from types import ModuleType
from typing import Any

import sympy as sp

from ..arithmetic.exact import approx, exact
from ..errors import InvalidParameter, MissingDependency
from ..mechanism.compose import independent, repeat
from ..mechanism.model import Dataset, FiniteMechanism
from .exact import exact_float
from .mechanisms import clamped_discrete_laplace, replace_one_randomized_response

__all__ = [
    "require",
    "to_pld",
    "from_dp_event",
    "accountant_epsilon",
    "randomized_response_event",
    "EXTRA",
]

#: How to install the optional dependencies of this package.
EXTRA = "pip install 'verifier[interop]'"


def require(name: str = "dp_accounting") -> ModuleType:
    """Import the optional package ``name``; raise
    :class:`~verifier.errors.MissingDependency` naming the extra when it is missing."""
    import importlib

    try:
        return importlib.import_module(name)
    except ImportError as err:
        raise MissingDependency(
            f"this needs the optional package {name} ({err}); install it with: {EXTRA}"
        ) from None


def _number(x: Any, what: str) -> sp.Expr:
    if isinstance(x, float):
        if not math.isfinite(x):
            raise InvalidParameter(f"{what} must be finite, got {x!r}")
        return exact_float(x)
    if isinstance(x, Fraction):
        return sp.Rational(x.numerator, x.denominator)
    return exact(x)


# ---------------------------------------------------------------------------
# export
# ---------------------------------------------------------------------------


def _log_pmf(mech: FiniteMechanism, d: Dataset) -> dict[Any, float]:
    out: dict[Any, float] = {}
    for i, o in enumerate(mech.outputs):
        p = mech.p(d, o)
        if p != 0:
            out[i] = approx(sp.log(p), 17)
    return out


def to_pld(
    mech: FiniteMechanism,
    pair_: tuple[Dataset, Dataset] | None = None,
    *,
    value_discretization_interval: float = 1e-4,
    pessimistic_estimate: bool = True,
) -> Any:
    """The privacy loss distribution of ``mech`` on the neighbouring pair ``pair_``
    (default: the only edge of the graph), as a ``dp_accounting`` object.

    ``upper`` is ``P_D`` and ``lower`` ``P_D'``; with ``symmetric=False`` the PLD
    holds both directions, so ``get_delta_for_epsilon`` is the larger hockey-stick
    divergence of the two ordered pairs.
    """
    dpa = require()
    if pair_ is None:
        edges = list(mech.graph.edges)
        if len(edges) != 1:
            raise InvalidParameter(
                f"{mech.name} has {len(edges)} neighbouring pairs; name the pair to export"
            )
        pair_ = edges[0]
    d, d2 = pair_
    if not mech.graph.has_edge(d, d2):
        raise InvalidParameter(f"({d!r}, {d2!r}) is not a neighbouring pair of {mech.name}")
    if mech.free_symbols:
        raise InvalidParameter(f"{mech.name} has symbols without values; export needs numbers")
    pld = dpa.pld.privacy_loss_distribution
    return pld.from_two_probability_mass_functions(
        _log_pmf(mech, d2),
        _log_pmf(mech, d),
        pessimistic_estimate=pessimistic_estimate,
        value_discretization_interval=value_discretization_interval,
        symmetric=False,
    )


# ---------------------------------------------------------------------------
# import
# ---------------------------------------------------------------------------


def from_dp_event(event: Any) -> FiniteMechanism:
    """The exact finite mechanism a ``dp_accounting`` event describes (see the module
    docstring for the supported events and their forms): for example
    ``from_dp_event(RandomizedResponseDpEvent(0.5, 2)).p("D", 1) == 3/4``.
    """
    dpa = require()
    E = dpa.dp_event
    if isinstance(event, E.RandomizedResponseDpEvent):
        return replace_one_randomized_response(
            _number(event.noise_parameter, "noise_parameter"), int(event.num_buckets)
        )
    if isinstance(event, E.DiscreteLaplaceDpEvent):
        return clamped_discrete_laplace(
            _number(event.noise_parameter, "noise_parameter"), event.sensitivity
        )
    if isinstance(event, E.RepeatAndSelectDpEvent):
        from ..algorithms.liu_talwar import SCORES
        from ..algorithms.repeat_select import repeat_and_select

        shape = event.shape
        if shape == 1:
            count = "geometric"
        elif isinstance(shape, float) and math.isinf(shape) and shape > 0:
            count = "poisson"
        else:
            raise InvalidParameter(
                f"RepeatAndSelectDpEvent with shape {shape!r}: only the geometric (shape 1) "
                f"and Poisson (shape inf) counts have an exact form (for other shapes the "
                f"distribution's parameter solves a transcendental equation in the mean)"
            )
        inner = from_dp_event(event.event)
        return repeat_and_select(inner, count, _number(event.mean, "mean"), SCORES["self"])
    if isinstance(event, E.SelfComposedDpEvent):
        count = event.count
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise InvalidParameter(
                f"SelfComposedDpEvent count must be a positive integer, got {count!r}"
            )
        return repeat(from_dp_event(event.event), count)
    if isinstance(event, E.ComposedDpEvent):
        if not event.events:
            raise InvalidParameter("ComposedDpEvent of no events")
        return independent(*(from_dp_event(e) for e in event.events))
    raise InvalidParameter(
        f"{type(event).__name__} has no exact finite form here (supported: "
        f"RandomizedResponseDpEvent, DiscreteLaplaceDpEvent, RepeatAndSelectDpEvent with a "
        f"geometric or Poisson count, SelfComposedDpEvent, ComposedDpEvent)"
    )


def randomized_response_event(eps0: Any) -> Any:
    """The binary ``RandomizedResponseDpEvent`` whose pure ε is ``eps0``: noise
    parameter ``p = 2/(1 + e^{ε0})`` (``P(true) = e^{ε0}/(1 + e^{ε0})``), as the double
    nearest to it (exact when ``e^{ε0}`` is rational with a power-of-two ``1 + e^{ε0}``,
    e.g. ``ε0 = log 3``: ``p = 1/2``)."""
    dpa = require()
    p = 2 / (1 + sp.exp(exact(eps0)))
    value = int(p.p) / int(p.q) if p.is_Rational else approx(p, 17)
    return dpa.dp_event.RandomizedResponseDpEvent(noise_parameter=value, num_buckets=2)


# ---------------------------------------------------------------------------
# accountants
# ---------------------------------------------------------------------------


def accountant_epsilon(event: Any, delta: float, accountant: str = "rdp") -> float:
    """ε at ``delta`` for ``event`` from ``dp_accounting``'s RDP accountant (default
    orders) or PLD accountant, REPLACE_ONE neighbours.  Raises
    :class:`~verifier.errors.InvalidParameter` when the accountant does not support
    the event."""
    dpa = require()
    rel = dpa.NeighboringRelation.REPLACE_ONE
    if accountant == "rdp":
        acc = dpa.rdp.RdpAccountant(neighboring_relation=rel)
    elif accountant == "pld":
        acc = dpa.pld.PLDAccountant(neighboring_relation=rel)
    else:
        raise InvalidParameter(f"unknown accountant {accountant!r} (use 'rdp' or 'pld')")
    if not acc.supports(event):
        raise InvalidParameter(
            f"dp_accounting's {accountant.upper()} accountant does not support {event!r}"
        )
    acc.compose(event)
    return float(acc.get_epsilon(delta))
