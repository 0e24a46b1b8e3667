"""The extension lemma (Talwar 2025, Proposition 2, after Borgs, Chayes, Smith and
Zadik 2018), made constructive and self-verifying.

Let ``B`` be a set of datasets (nodes of a neighbour graph with its graph distance)
and ``p_b`` (``b ∈ B``) distributions satisfying the group-privacy premise

    ``p_b(o) <= e^{ε·dist(b, b')} p_{b'}(o)``  for all ``b, b' ∈ B`` and outputs ``o``

(per output, which for pure DP is the same as per event).  Then (Talwar 2025,
Prop. 2)

    ``m_d(o) = min_{b ∈ B} e^{ε·dist(d, b)} p_b(o)``,   ``p̂_d(o) = m_d(o) / Σ_{o'} m_d(o')``

is 2ε-DP on the whole graph and equals ``p_b`` on ``B``: moving to a neighbour
changes each ``m_d(o)`` by a factor at most ``e^ε`` (every distance changes by at
most one) and so also the normaliser; at ``b ∈ B`` the premise makes ``p_b(o)``
the minimum, and the normaliser is 1.

:func:`extend` builds ``p̂`` exactly (sympy expressions; minima decided with
certified comparisons) and verifies its own output: the premise, 2ε-DP on every
edge (:func:`verifier.checks.privacy.check_pure_dp`) and agreement on ``B``.  Datasets of
``B`` carrying the same distribution are grouped, so ``min_b`` becomes a minimum
over groups with the multi-source distance to each group — ``B`` may hold
thousands of classes at no cost.

Lumped graphs.  On :func:`verifier.mechanism.neighbours.lumped_hamming_cube` (classes by
distance to ``0^n``) the distance between the classes ``k`` and ``j`` in the
quotient path is ``|k - j|``, which is also the least Hamming distance from any
member of class ``k`` to the class ``j``; so when ``B`` is a union of classes with
one distribution per class, ``m`` computed on the quotient equals ``m`` on the cube,
``p̂`` depends on a dataset only through its class, and (see
:mod:`verifier.mechanism.neighbours`) every check on the quotient is the check on the cube.
:func:`extend_on_lumped_cube` does this: ``{0,1}^60`` in 61 classes.

>>> import sympy as sp
>>> from verifier.mechanism.neighbours import path
>>> R = sp.Rational
>>> ext = extend(path(4), {0: {"a": R(3, 4), "b": R(1, 4)}, 4: {"a": R(1, 4), "b": R(3, 4)}},
...              sp.log(2))
>>> ext.mechanism.p(2, "a")
1/2
>>> ext.verification.verdict
<Verdict.HOLDS: 'holds'>
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import networkx as nx
import sympy as sp

from ..algorithms.ghazi_series import iv_of
from ..arithmetic.exact import DEFAULT_PRECISION, Precision, Verdict, combine_verdicts, decide_eq
from ..arithmetic.exact import exact as _exact
from ..arithmetic.precision import interval_context
from ..checks.certified import certified_min, identically_zero
from ..checks.privacy import check_epsilon, check_pure_dp
from ..checks.results import CheckResult, Finding, conjunction
from ..errors import ExtensionFailed, InvalidMechanism, InvalidParameter, VerifierError
from ..mechanism.model import FiniteMechanism, Output, natural_order
from ..mechanism.neighbours import lumped_hamming_cube

__all__ = ["Extension", "extend", "extend_on_lumped_cube", "ExtensionFailed"]

Dataset = Hashable


@dataclass
class Extension:
    """An extended mechanism with the evidence that it is one.

    Attributes
    ----------
    mechanism : FiniteMechanism
        ``p̂`` on every node of the graph.
    eps : sympy.Expr
        The ε of the premise; the extension is claimed ``2ε``-DP.
    partial : dict
        The given ``p_b`` (``b ∈ B``).
    premise : CheckResult
        ``p_b(o) <= e^{ε dist(b,b')} p_{b'}(o)`` for every pair of groups of ``B``.
    """

    mechanism: FiniteMechanism
    eps: sp.Expr
    partial: dict[Dataset, dict[Output, sp.Expr]]
    premise: CheckResult
    precision: Precision = DEFAULT_PRECISION
    _verification: CheckResult | None = field(default=None, repr=False)

    def privacy(self) -> CheckResult:
        """2ε-DP on every edge of the graph (Prop. 2's conclusion)."""
        return check_pure_dp(
            self.mechanism,
            epsilon=2 * self.eps,
            precision=self.precision,
            title=f"extension {self.mechanism.name} is 2*{self.eps}-DP",
        )

    def agreement(self) -> CheckResult:
        """``p̂_b = p_b`` for every ``b ∈ B`` (exact identities)."""
        findings = []
        proved = 0
        for b, dist in self.partial.items():
            for o in self.mechanism.outputs:
                want = dist.get(o, sp.Integer(0))
                got = self.mechanism.p(b, o)
                if got == want or identically_zero(got - want):
                    proved += 1
                    continue
                v = decide_eq(got, want, self.precision)
                if v is Verdict.HOLDS:
                    proved += 1
                    continue
                findings.append(Finding(v, o, (b, b), got, want, got, want))
        # proved identities are notes (slack 0 by definition), failures are findings
        return CheckResult(
            "extension agrees with the partial mechanism on B",
            combine_verdicts(f.verdict for f in findings),
            findings,
            quantity="p_hat(o)",
            notes=[f"p_hat_b(o) = p_b(o) proved exactly for {proved} (b, o)"],
        )

    @property
    def verification(self) -> CheckResult:
        """Premise, 2ε-DP and agreement on ``B`` (computed once)."""
        if self._verification is None:
            self._verification = conjunction(
                f"Prop. 2 extension of {len(self.partial)} datasets to "
                f"{self.mechanism.graph.number_of_nodes()} with eps = {self.eps}",
                [self.premise, self.privacy(), self.agreement()],
            )
        return self._verification


def _groups(
    partial: Mapping[Dataset, Mapping[Output, sp.Expr]], outputs: Sequence[Output]
) -> list[tuple[dict[Output, sp.Expr], list[Dataset]]]:
    keyed: dict[tuple[sp.Expr, ...], tuple[dict[Output, sp.Expr], list[Dataset]]] = {}
    for b, dist in partial.items():
        key = tuple(dist.get(o, sp.Integer(0)) for o in outputs)
        if key not in keyed:
            keyed[key] = ({o: dist.get(o, sp.Integer(0)) for o in outputs}, [])
        keyed[key][1].append(b)
    return list(keyed.values())


def extend(
    graph: nx.Graph,
    partial: Mapping[Dataset, Mapping[Output, Any]],
    eps: Any,
    *,
    outputs: Sequence[Output] | None = None,
    name: str = "extension",
    verify: bool = True,
    precision: Precision = DEFAULT_PRECISION,
) -> Extension:
    """Extend ``partial`` (``{b: {o: p_b(o)}}`` on ``B ⊆`` nodes) to the whole graph
    (Talwar 2025, Prop. 2).

    Parameters
    ----------
    graph : networkx.Graph
        Connected neighbour graph; distances are its shortest-path lengths.
    partial : mapping
        The distributions on ``B`` (exact probabilities).
    eps : exact number
        The ε of the group-privacy premise.
    outputs : sequence, optional
        Output order (default: natural order of the outputs that appear).
    verify : bool
        Check the premise (a violated premise raises
        :class:`~verifier.errors.InvalidParameter`) and then the result: 2ε-DP on
        every edge and agreement on ``B``; a failure raises :class:`ExtensionFailed`.
        With ``verify=False`` only the premise is checked, and
        :attr:`Extension.verification` runs the rest on demand.

    Returns
    -------
    Extension
    """
    e = check_epsilon(eps, precision=precision)
    if not partial:
        raise InvalidParameter("the partial mechanism is empty (B has no dataset)")
    dists: dict[Dataset, dict[Output, sp.Expr]] = {}
    for b, dist in partial.items():
        if b not in graph:
            raise InvalidParameter(f"dataset {b!r} of B is not a node of the graph")
        try:
            dists[b] = {o: _exact(p) for o, p in dist.items()}
        except InvalidParameter as err:
            raise InvalidMechanism(f"distribution at {b!r}: {err}") from None
    outs = (
        list(outputs)
        if outputs is not None
        else natural_order(o for d in dists.values() for o in d)
    )
    for b, dist in dists.items():
        for o in dist:
            if o not in outs:
                raise InvalidMechanism(f"output {o!r} at {b!r} is missing from the output order")
    # validate each partial distribution (sums to 1, non-negative)
    FiniteMechanism(graph.subgraph(list(dists)).copy(), dists, outs, precision=precision)

    groups = _groups(dists, outs)
    distance = [nx.multi_source_dijkstra_path_length(graph, members) for _, members in groups]
    unreachable = [d for d in graph.nodes if any(d not in dd for dd in distance)]
    if unreachable:
        raise InvalidParameter(
            f"dataset {unreachable[0]!r} is not connected to every dataset of B; "
            f"the extension needs finite distances"
        )

    premise = _premise(groups, distance, e, precision)
    if premise.verdict is not Verdict.HOLDS:
        raise InvalidParameter(
            f"the partial mechanism does not satisfy the group-privacy premise of "
            f"Prop. 2 with eps = {e}: {premise.summary()}"
        )

    ext_dists: dict[Dataset, dict[Output, sp.Expr]] = {}
    with interval_context(_LEAST_BITS) as ctx:
        least = _Least(e, ctx, precision)
        for d in graph.nodes:
            m: dict[Output, sp.Expr] = {}
            for o in outs:
                cands: list[tuple[sp.Expr, int]] = []
                zero = False
                for (dist, _), dd in zip(groups, distance, strict=True):
                    p = dist[o]
                    if p == 0:
                        zero = True
                        break
                    cands.append((p, dd[d]))
                m[o] = sp.Integer(0) if zero else least(cands)
            Z = sp.Add(*m.values())
            ext_dists[d] = {o: (v if Z == 1 else v / Z) for o, v in m.items() if v != 0}
    mech = FiniteMechanism(graph, ext_dists, outs, name=name, validate=False)
    ext = Extension(mech, e, dists, premise, precision)
    if verify:
        v = ext.verification
        if v.verdict is not Verdict.HOLDS:
            raise ExtensionFailed(f"the extension failed its own verification: {v.summary()}")
    return ext


#: Bits of the intervals that pick the least candidate of the extension (:class:`_Least`).
_LEAST_BITS = 64


class _Least:
    """``min_g e^{ε k_g} p_g`` of Prop. 2's construction over candidates ``(p_g, k_g)``:
    the candidate whose 64-bit interval of ``ε k_g + log p_g`` lies below every other
    one's is the least, and only it is formed as an expression; when no interval
    separates (equal values, or no enclosure), :func:`certified_min` decides the formed
    candidates, as it does every comparison otherwise."""

    def __init__(self, e: sp.Expr, ctx: Any, precision: Precision) -> None:
        self.e, self.ctx, self.precision = e, ctx, precision
        self.logs: dict[sp.Expr, Any] = {}
        self.e_iv = self._interval(e)

    def _interval(self, x: sp.Expr) -> Any:
        try:
            return iv_of(x, self.ctx)
        except VerifierError:  # no enclosure at this precision
            return None

    def _log(self, p: sp.Expr) -> Any:
        if p not in self.logs:
            iv = self._interval(p)
            self.logs[p] = self.ctx.log(iv) if iv is not None and iv.a > 0 else None
        return self.logs[p]

    def _form(self, p: sp.Expr, k: int) -> sp.Expr:
        return p if k == 0 else sp.exp(self.e * k) * p

    def __call__(self, cands: list[tuple[sp.Expr, int]]) -> sp.Expr:
        if len(cands) == 1:
            return self._form(*cands[0])
        logs = [self._log(p) for p, _ in cands]
        if self.e_iv is not None and all(lg is not None for lg in logs):
            ivs = [lg + self.e_iv * k for lg, (_, k) in zip(logs, cands, strict=True)]
            for i, iv in enumerate(ivs):
                if all(iv.b < other.a for j, other in enumerate(ivs) if j != i):
                    return self._form(*cands[i])
        return certified_min([self._form(p, k) for p, k in cands], self.precision)


def _premise(
    groups: list[tuple[dict[Output, sp.Expr], list[Dataset]]],
    distance: list[dict[Dataset, int]],
    e: sp.Expr,
    precision: Precision,
) -> CheckResult:
    """``p_g(o) <= e^{ε·dist(g, g')} p_{g'}(o)`` for ordered pairs of distinct groups,
    at the least distance between their members (the binding pair)."""
    from ..arithmetic.exact import decide_le

    findings: list[Finding] = []
    for i, (pi, mi) in enumerate(groups):
        for j, (pj, mj) in enumerate(groups):
            if i == j:
                continue
            k = min(distance[i][b] for b in mj)
            for o, p in pi.items():
                if p == 0:
                    continue
                rhs = sp.exp(e * k) * pj[o]
                c = decide_le(p, rhs, precision)
                findings.append(
                    Finding(
                        c.verdict,
                        o,
                        (mi[0], mj[0]),
                        p,
                        rhs,
                        p,
                        rhs,
                        tight=c.tight,
                        note=f"distance {k}",
                    )
                )
    return CheckResult(
        "premise of Prop. 2: p_b(o) <= e^(eps dist(b,b')) p_b'(o) on B",
        combine_verdicts(f.verdict for f in findings),
        findings,
        quantity="p_b(o)",
    )


def extend_on_lumped_cube(
    n: int,
    partial_by_class: Mapping[int, Mapping[Output, Any]],
    eps: Any,
    *,
    outputs: Sequence[Output] | None = None,
    name: str | None = None,
    verify: bool = True,
    precision: Precision = DEFAULT_PRECISION,
) -> Extension:
    """The extension on ``{0,1}^n`` lumped by the distance to a fixed centre
    (classes ``0..n``), for ``B`` a union of classes with one distribution each.

    Exact for the cube (see the module docstring): the quotient distance ``|k - j|``
    between classes is the least Hamming distance from any member of class ``k`` to
    class ``j``.  The graph is :func:`verifier.mechanism.neighbours.lumped_hamming_cube`
    (node attribute ``size = C(n, k)``), so nothing of size ``2^n`` is built.
    """
    for k in partial_by_class:
        if not isinstance(k, int) or not 0 <= k <= n:
            raise InvalidParameter(f"class {k!r} is not a distance in 0..{n}")
    partial: dict[Dataset, Mapping[Output, Any]] = {k: v for k, v in partial_by_class.items()}
    return extend(
        lumped_hamming_cube(n),
        partial,
        eps,
        outputs=outputs,
        name=name or f"extension on {{0,1}}^{n} (lumped)",
        verify=verify,
        precision=precision,
    )
