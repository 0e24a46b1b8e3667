"""The spec model: claims (:class:`SpecClaim`) and loaded spec files (:class:`Spec`).

A claim is one kind of :data:`~verifier.spec.kinds.CLAIM_KINDS` with that kind's
parameters, usually about one mechanism; constructing it checks every parameter, and
:meth:`SpecClaim.run` decides it exactly with :mod:`verifier.checks.privacy` (or
:func:`verifier.arithmetic.exact.decide_le` for an ``inequality``).

>>> import sympy as sp
>>> from verifier.mechanism.model import FiniteMechanism
>>> from verifier.mechanism.neighbours import pair
>>> p = sp.Rational(3, 4)
>>> rr = FiniteMechanism(pair(), {"D": {1: p, 0: 1 - p}, "D'": {1: 1 - p, 0: p}}, name="rr")
>>> claim = SpecClaim(id="rr", kind="pure_dp", mechanism=rr, epsilon=sp.log(3))
>>> claim.describe(), claim.run().verdict.value, claim.run().tight
('rr is log(3)-DP', 'holds', True)
>>> SpecClaim(id="e", kind="inequality", lhs=sp.E, rhs=sp.Rational(2718, 1000)).run().verdict
<Verdict.VIOLATED: 'violated'>
"""

from __future__ import annotations

import functools
import warnings
from dataclasses import dataclass, field
from typing import Any

import networkx as nx
import sympy as sp

from ..arithmetic.exact import DEFAULT_PRECISION, Precision
from ..checks.boxes import Box
from ..checks.privacy import ParameterRange, parameter_domain
from ..checks.results import CheckResult
from ..errors import InvalidParameter, SpecError, UnboundSymbol, VerifierError
from ..mechanism import neighbours
from ..mechanism.model import Dataset, FiniteMechanism
from .kinds import BOX_KINDS, PARAMETER_NAMES, RANGE_KINDS, ClaimKind, Parameter, claim_kind
from .labels import located
from .premises import CertificateInfo

__all__ = ["SpecClaim", "Spec", "EXPECTED", "precision_for"]

#: The outcomes a claim may declare as ``expected``.
EXPECTED = ("holds", "refuted")


def precision_for(max_bits: int | None) -> Precision:
    """The working precision for a limit of ``max_bits`` (default precision if None)."""
    if max_bits is None:
        return DEFAULT_PRECISION
    if isinstance(max_bits, bool) or not isinstance(max_bits, int):
        raise InvalidParameter(f"max_bits must be an integer, got {max_bits!r}")
    if max_bits < 16:
        raise InvalidParameter(f"max_bits must be at least 16, got {max_bits}")
    return Precision(start_bits=min(DEFAULT_PRECISION.start_bits, max_bits), max_bits=max_bits)


@dataclass
class SpecClaim:
    """A claim, as read from a spec file (or built in Python).

    Parameters
    ----------
    id : str
        Unique within its spec.
    kind : str
        One of :data:`~verifier.spec.kinds.CLAIM_KINDS`.
    mechanism : FiniteMechanism, optional
        The mechanism the claim is about (required exactly for the kinds about a
        mechanism: every kind but ``inequality``).
    epsilon, delta, alpha : sympy.Expr, optional
        The claim's parameters (those its kind needs; see
        :data:`~verifier.spec.kinds.CLAIM_KINDS`).
    epsilon_tilde : sympy.Expr, mapping or callable, optional
        An ex-post bound: one expression for every output, a mapping output →
        expression covering every output, or a function of the output (evaluated on
        every output at construction).
    rho, mu : sympy.Expr, optional
        The ρ of a ``zcdp`` claim (ρ-zCDP for every Rényi order, Bun & Steinke 2016,
        Definition 1.1) and the μ of a ``gdp`` claim (μ-GDP, Dong, Roth & Su 2022,
        Definition 2.6).
    tradeoff : sympy.Expr, optional
        The trade-off function ``f`` of an ``f_dp`` claim (Dong, Roth & Su 2022,
        Definition 2.3), an expression in the symbol of its ``over`` range [0, 1].
    lhs, rhs : sympy.Expr, optional
        The two sides of an ``inequality`` claim ``lhs <= rhs`` (closed-form numbers).
    over : ParameterRange, optional
        Decide a ``pure_dp`` / ``ex_post`` claim for every value of one free symbol.
    pairs : list of (dataset, dataset), optional
        The ordered pairs to check (default: both directions of every edge).
    distance : int, optional
        Check the ordered pairs at graph distance exactly ``distance`` (group
        privacy); exclusive with ``pairs``.
    expected : {"holds", "refuted"}, optional
        Informational: the outcome the author expects.
    max_bits : int, optional
        Precision limit of certified comparisons for this claim.
    """

    id: str
    kind: str
    # A FiniteMechanism, or None for a kind about no mechanism; typed Any so that code
    # handling claims about a mechanism (the search, the command line) needs no
    # narrowing: __post_init__ checks it against the kind.
    mechanism: Any = None
    epsilon: sp.Expr | None = None
    epsilon_tilde: Any = None
    delta: sp.Expr | None = None
    alpha: sp.Expr | None = None
    rho: sp.Expr | None = None
    mu: sp.Expr | None = None
    tradeoff: sp.Expr | None = None
    lhs: sp.Expr | None = None
    rhs: sp.Expr | None = None
    over: ParameterRange | Box | None = None
    pairs: list[tuple[Dataset, Dataset]] | None = None
    distance: int | None = None
    expected: str | None = None
    statement: str = ""
    source: str = ""
    max_bits: int | None = None
    mechanism_name: str = ""

    def __post_init__(self) -> None:
        kind = self.claim_kind
        self._check_subject(kind)
        if not self.mechanism_name and self.mechanism is not None:
            self.mechanism_name = self.mechanism.name
        needed = kind.parameter_names
        for name in PARAMETER_NAMES:
            value = getattr(self, name)
            if name in needed and value is None:
                raise SpecError(f"a {self.kind} claim needs {name!r}")
            if name not in needed and value is not None:
                raise SpecError(
                    f"a {self.kind} claim takes no {name!r} (it takes {', '.join(needed)})"
                )
        outputs = self.mechanism.outputs if self.mechanism is not None else ()
        for p in kind.document_order:
            setattr(self, p.name, p.normalise(getattr(self, p.name), outputs))
        if self.over is not None:
            self.over = parameter_domain(self.over)
            if isinstance(self.over, Box):
                if not kind.box:
                    raise SpecError(
                        f"'over' (a box of parameters) is supported for "
                        f"{', '.join(sorted(BOX_KINDS))} claims only, not {self.kind}"
                    )
            elif not kind.over:
                raise SpecError(
                    f"'over' (a parameter range) is supported for "
                    f"{', '.join(sorted(RANGE_KINDS))} claims only, not {self.kind}"
                )
        if self.expected is not None and self.expected not in EXPECTED:
            raise SpecError(f"expected must be 'holds' or 'refuted', got {self.expected!r}")
        if self.pairs is not None and self.distance is not None:
            raise SpecError("give either 'pairs' or 'distance', not both")
        if self.distance is not None and (
            isinstance(self.distance, bool) or not isinstance(self.distance, int)
        ):
            raise InvalidParameter(f"distance must be a positive integer, got {self.distance!r}")
        if self.distance is not None and self.distance < 1:
            raise InvalidParameter(f"distance must be a positive integer, got {self.distance}")
        if self.pairs is not None and self.mechanism is not None:
            graph = self.mechanism.graph
            checked: list[tuple[Dataset, Dataset]] = []
            for raw in self.pairs:
                ds = tuple(raw)
                if len(ds) != 2 or ds[0] not in graph or ds[1] not in graph:
                    raise InvalidParameter(f"pair {raw!r} names a dataset the mechanism lacks")
                checked.append((ds[0], ds[1]))
            self.pairs = checked
        if self.max_bits is not None:
            precision_for(self.max_bits)
        self._check_symbols(kind)

    @property
    def claim_kind(self) -> ClaimKind:
        """The entry of :data:`~verifier.spec.kinds.CLAIM_KINDS` for :attr:`kind`."""
        return claim_kind(self.kind)

    def _check_subject(self, kind: ClaimKind) -> None:
        """A mechanism exactly when the kind is about one (and only then pairs)."""
        if kind.mechanism:
            if not isinstance(self.mechanism, FiniteMechanism):
                got = "" if self.mechanism is None else f", got {type(self.mechanism).__name__}"
                raise SpecError(f"a {self.kind} claim needs a mechanism{got}")
            return
        if self.mechanism is not None:
            raise SpecError(f"a {self.kind} claim is about no mechanism; it takes none")
        for name in ("pairs", "distance"):
            if getattr(self, name) is not None:
                raise SpecError(f"a {self.kind} claim takes no {name!r} (it is about no mechanism)")

    def _check_symbols(self, kind: ClaimKind) -> None:
        if isinstance(self.over, Box):
            allowed = set(self.over.symbols)
        else:
            allowed = {self.over.symbol} if self.over is not None else set()
        allowed_names = {str(s) for s in allowed}
        free = set(self.mechanism.free_symbols) if self.mechanism is not None else set()
        for v in self.parameter_values():
            if v is not sp.oo:
                free |= v.free_symbols
        extra = {s for s in free - allowed if str(s) not in allowed_names}
        if extra:
            names = sorted(map(str, extra))
            hint = (
                "give them values in [symbols]"
                if self.over is not None or not kind.over
                else "give them values in [symbols], or decide the claim for every value of "
                "one symbol with over = { symbol = ..., lo = ..., hi = ... }"
            )
            raise UnboundSymbol(f"symbol(s) {', '.join(names)} have no value; {hint}")

    def parameter_values(self) -> list[sp.Expr]:
        """Every expression among the claim's parameters (each bound of a table)."""
        out: list[sp.Expr] = []
        for p in self.claim_kind.document_order:
            out.extend(Parameter.values(getattr(self, p.name)))
        return out

    # -- running ------------------------------------------------------------
    def pair_list(self) -> list[tuple[Dataset, Dataset]] | None:
        """The ordered pairs checked (``None``: both directions of every edge, or a
        claim about no mechanism)."""
        if self.pairs is not None:
            return list(self.pairs)
        if self.distance is not None and self.mechanism is not None:
            return list(neighbours.pairs_at_distance(self.mechanism.graph, self.distance))
        return None

    def describe(self) -> str:
        """A one-line statement of the claim."""
        text = self.claim_kind.describe(self)
        if self.distance is not None:
            text += f" for datasets at distance {self.distance}"
        elif self.pairs is not None:
            text += f" on {len(self.pairs)} given pair(s)"
        if self.over is not None:
            text += f" for every {self.over}"
        return text

    def run(self, precision: Precision | None = None) -> CheckResult:
        """Decide the claim (exactly, or with certified enclosures up to the
        precision limit: ``precision``, else the claim's ``max_bits``, else the
        default)."""
        prec = precision or precision_for(self.max_bits)
        try:
            return self.claim_kind.decide(self, prec)
        except VerifierError as err:
            raise located(err, f"claim {self.id!r}") from None


# The former name ``eps_tilde`` of ``epsilon_tilde`` (the Python API's vocabulary,
# :mod:`verifier.checks.vocabulary`) is still taken by the constructor and read as an
# attribute for one release, with a DeprecationWarning; it is not a field, so
# ``dataclasses.replace`` and ``fields`` see only the new name.
_dataclass_init = SpecClaim.__init__


@functools.wraps(_dataclass_init)
def _init(self: SpecClaim, *args: Any, **kwargs: Any) -> None:
    if "eps_tilde" in kwargs:
        if "epsilon_tilde" in kwargs:
            raise SpecError("give either 'epsilon_tilde' or its former name 'eps_tilde', not both")
        warnings.warn(
            "SpecClaim(eps_tilde=...) is now SpecClaim(epsilon_tilde=...)",
            DeprecationWarning,
            stacklevel=2,
        )
        kwargs["epsilon_tilde"] = kwargs.pop("eps_tilde")
    _dataclass_init(self, *args, **kwargs)


def _former_epsilon_tilde(claim: SpecClaim) -> Any:
    warnings.warn(
        "SpecClaim.eps_tilde is now SpecClaim.epsilon_tilde", DeprecationWarning, stacklevel=2
    )
    return claim.epsilon_tilde


setattr(SpecClaim, "__init__", _init)  # noqa: B010 (mypy: a method is not assignable)
setattr(SpecClaim, "eps_tilde", property(_former_epsilon_tilde))  # noqa: B010


@dataclass
class Spec:
    """A loaded spec file: symbols, graphs, mechanisms and claims."""

    symbols: dict[str, sp.Symbol] = field(default_factory=dict)
    values: dict[sp.Symbol, sp.Expr] = field(default_factory=dict)
    graphs: dict[str, nx.Graph] = field(default_factory=dict)
    mechanisms: dict[str, FiniteMechanism] = field(default_factory=dict)
    claims: list[SpecClaim] = field(default_factory=list)
    title: str = ""
    description: str = ""
    source: str = "<string>"
    #: The roles of the claims when the file is a certificate
    #: (:mod:`verifier.spec.premises`), else ``None``.
    certificate: CertificateInfo | None = None

    def claim(self, claim_id: str) -> SpecClaim:
        """The claim with id ``claim_id``."""
        for c in self.claims:
            if c.id == claim_id:
                return c
        raise SpecError(f"{self.source}: no claim with id {claim_id!r}")

    def run(self, precision: Precision | None = None) -> list[tuple[SpecClaim, CheckResult]]:
        """Decide every claim, in file order."""
        return [(c, c.run(precision)) for c in self.claims]
