"""Searching the claim of a spec file.

``verifier search FILE.toml [--claim ID]`` asks: *does the claim survive when the
base mechanisms are replaced by any others that are at least as private?*  The
instance space is the set of exact rational distributions for every non-deterministic
base mechanism the claim depends on (the mechanisms with ``distributions``, reached
through the ``inputs`` of derived ones), on the same graph and outputs, that are
``ε``-DP for the base mechanism's own exact pure ``ε`` (deterministic mechanisms —
function tables, query answers — are kept).  Derived mechanisms are recomputed by
their transformers, the claim (with its parameters unchanged) is screened in floats
and decided exactly.

The certificate is the spec file itself with the base distributions replaced by the
counterexample, premise claims "``M`` is ``ε``-DP" for each replaced mechanism, and
the target claim marked ``expected = "refuted"``.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import hashlib
import json
import math
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from random import Random
from typing import Any

import sympy as sp

from ..arithmetic.exact import enclose, exact
from ..checks.privacy import pure_epsilon
from ..claims import Claim, SearchSpec
from ..errors import InvalidParameter, SpecError
from ..mechanism.model import FiniteMechanism
from ..spec import Spec, SpecClaim, dataset_label, expression_text, load_spec, output_label
from ..spec.read import read_spec_bytes
from . import screens
from .certificates import frac_text
from .core import TOLERANCE, InstanceSpace, instance_type, iter_unique
from .spaces import (
    SIMPLE_DENOMINATORS,
    bits,
    partner,
    random_distribution,
    random_weights,
    round_to,
)

__all__ = ["spec_searchable", "SpecInstance", "SpecSpace", "SEARCHABLE_KINDS"]

F = Fraction
#: Claim kinds a spec-file search supports.
SEARCHABLE_KINDS = ("pure_dp", "ex_post", "approx_dp", "ex_post_approx", "rdp", "ex_post_rdp")


@instance_type
@dataclass(frozen=True)
class SpecInstance:
    """Distributions of the searched base mechanisms: ``rows[k][n]`` is the
    distribution (over the mechanism's outputs, in order) at its ``n``-th dataset."""

    rows: tuple[tuple[tuple[Fraction, ...], ...], ...]


@dataclass
class _Base:
    name: str
    mech: FiniteMechanism
    datasets: list[Any]
    edges: list[tuple[int, int]]
    a: Fraction  # every neighbouring ratio must lie in [1/a, a]
    b: Fraction  # sqrt bound used by the centred generator (b^2 <= a)
    eps: sp.Expr


def _lower_rational(x: sp.Expr) -> Fraction:
    """A rational ``<= x`` (close to it) for a positive constant ``x``."""
    if x.is_Rational:
        return F(int(x.p), int(x.q))
    enc = enclose(x, 128)
    if enc is None:  # pragma: no cover - positive constants enclose
        raise InvalidParameter(f"cannot bound {x}")
    lo = enc.bounds()[0]
    r = lo.limit_denominator(10**6)
    while r > lo:
        r -= F(1, 10**6)
    return r


def _sqrt_below(a: Fraction) -> Fraction:
    b = F(math.sqrt(a)).limit_denominator(1000)
    while b * b > a:
        b -= F(1, 1000)
    return max(b, F(1))


def _dp_ok(rows: tuple[tuple[Fraction, ...], ...], base: _Base) -> bool:
    for i, j in base.edges:
        for x, y in zip(rows[i], rows[j], strict=True):
            if x <= 0 or y <= 0 or x > base.a * y or y > base.a * x:
                return False
    return True


@dataclass
class SpecSpace(InstanceSpace):
    """Exactly ``ε``-DP replacements of the searched base mechanisms."""

    bases: list[_Base]

    def _centred(self, rng: Random, base: _Base, extreme: bool) -> tuple[tuple[F, ...], ...]:
        m = len(base.mech.outputs)
        p0 = random_distribution(rng, m)
        rows = []
        for _ in base.datasets:
            if extreme:
                t = [base.b if rng.random() < 0.5 else F(1) for _ in range(m)]
            else:
                t = [1 + (base.b - 1) * F(rng.randrange(17), 16) for _ in range(m)]
            w = [x * y for x, y in zip(p0, t, strict=True)]
            s = sum(w)
            rows.append(tuple(x / s for x in w))
        return tuple(rows)

    def _tree(self, rng: Random, base: _Base, extreme: bool) -> tuple[tuple[F, ...], ...] | None:
        """Distributions assigned along breadth-first trees of the graph, each an
        exact ``log(a)``-DP partner of its parent (extreme ratios when asked), so
        every tree edge holds; other edges are checked (``None`` if one fails)."""
        n, m = len(base.datasets), len(base.mech.outputs)
        adj: list[list[int]] = [[] for _ in range(n)]
        for i, j in base.edges:
            adj[i].append(j)
            adj[j].append(i)
        rows: list[tuple[F, ...] | None] = [None] * n
        start = rng.randrange(n)
        for root in [start, *range(n)]:
            if rows[root] is not None:
                continue
            rows[root] = random_distribution(rng, m)
            queue = [root]
            while queue:
                u = queue.pop(0)
                for v in sorted(adj[u]):
                    if rows[v] is None:
                        parent = rows[u]
                        assert parent is not None
                        rows[v] = partner(rng, parent, base.a, extreme)
                        queue.append(v)
        done = tuple(r for r in rows if r is not None)
        return done if len(done) == n and _dp_ok(done, base) else None

    def _pair(self, rng: Random, base: _Base, extreme: bool) -> tuple[tuple[F, ...], ...]:
        from .spaces import extreme_pair, random_pair

        m = len(base.mech.outputs)
        pm = extreme_pair(rng, m, base.a) if extreme else random_pair(rng, m, base.a)
        return (pm.p, pm.q)

    def _make(self, rng: Random, extreme: bool) -> SpecInstance:
        out = []
        for base in self.bases:
            if len(base.datasets) == 2 and base.edges:
                out.append(self._pair(rng, base, extreme))
                continue
            rows = None
            for _ in range(4):
                rows = self._tree(rng, base, extreme)
                if rows is not None:
                    break
            out.append(rows if rows is not None else self._centred(rng, base, extreme))
        return SpecInstance(tuple(out))

    def random(self, rng: Random) -> SpecInstance:
        return self._make(rng, False)

    def extreme(self, rng: Random) -> SpecInstance:
        return self._make(rng, True)

    def neighbour(self, inst: SpecInstance, rng: Random, scale: float) -> SpecInstance:
        k = rng.randrange(len(self.bases))
        base = self.bases[k]
        rows = list(inst.rows[k])
        for _ in range(10):
            n = rng.randrange(len(rows))
            xs = [float(v) for v in rows[n]]
            o = rng.randrange(len(xs))
            xs[o] *= math.exp(scale * rng.gauss(0.0, 1.0))
            new = list(rows)
            new[n] = random_weights(xs, 10000)
            if _dp_ok(tuple(new), base):
                allr = list(inst.rows)
                allr[k] = tuple(new)
                return SpecInstance(tuple(allr))
        return inst

    def shrink(self, inst: SpecInstance) -> Iterable[SpecInstance]:
        out = []
        for k, base in enumerate(self.bases):
            for n in SIMPLE_DENOMINATORS:
                rows = [round_to(r, n) for r in inst.rows[k]]
                if any(r is None for r in rows):
                    continue
                tup = tuple(r for r in rows if r is not None)
                if _dp_ok(tup, base):
                    allr = list(inst.rows)
                    allr[k] = tup
                    out.append(SpecInstance(tuple(allr)))
        return list(iter_unique(out))

    def complexity(self, inst: SpecInstance) -> tuple[float, ...]:
        return (sum(bits(x) for rows in inst.rows for r in rows for x in r),)

    def describe(self, inst: SpecInstance) -> str:
        parts = []
        for base, rows in zip(self.bases, inst.rows, strict=True):
            ds = "; ".join(
                f"{dataset_label(d)}: (" + ", ".join(str(frac_text(x)) for x in r) + ")"
                for d, r in zip(base.datasets, rows, strict=True)
            )
            parts.append(f"{base.name} = [{ds}]")
        return " ".join(parts)


class _SpecClaimSearch:
    """Builds mechanisms, screens and documents for one claim of one spec file."""

    def __init__(self, path: Path, spec: Spec, claim: SpecClaim, raw: dict[str, Any]) -> None:
        from ..algorithms import get_transformer

        self.path, self.spec, self.claim, self.raw = path, spec, claim, raw
        mech_tables: dict[str, Any] = raw.get("mechanisms", {})
        order: list[str] = []

        def visit(name: str) -> None:
            if name in order:
                return
            for dep in (
                mech_tables[name].get("inputs", []) if "algorithm" in mech_tables[name] else []
            ):
                visit(dep)
            order.append(name)

        visit(claim.mechanism_name)
        self.order = order
        values = {str(s): v for s, v in spec.values.items()}
        self.derived: dict[str, tuple[Any, list[str], dict[str, Any]]] = {}
        bases: list[_Base] = []
        self.fixed: list[str] = []
        for name in order:
            table = mech_tables[name]
            if "algorithm" in table:
                t = get_transformer(table["algorithm"])
                params = t.parse_params(
                    table.get("params", {}), values, where=f"mechanisms.{name}.params"
                )
                self.derived[name] = (t, list(table["inputs"]), params)
                continue
            mech = spec.mechanisms[name]
            deterministic = all(len(mech.support(d)) == 1 for d in mech.datasets)
            if deterministic or mech.graph.number_of_edges() == 0:
                self.fixed.append(name)
                continue
            eps = pure_epsilon(mech).value
            if eps is sp.oo:
                self.fixed.append(name)
                continue
            a = _lower_rational(sp.exp(eps))
            if a <= 1:
                self.fixed.append(name)
                continue
            ds = list(mech.graph.nodes)
            idx = {d: i for i, d in enumerate(ds)}
            edges = [(idx[u], idx[v]) for u, v in mech.graph.edges]
            bases.append(_Base(name, mech, ds, edges, a, _sqrt_below(a), eps))
        if not bases:
            raise InvalidParameter(
                f"{path}: claim {claim.id!r} depends on no base mechanism that can be varied "
                f"(only deterministic or non-private ones): nothing to search"
            )
        self.bases = bases
        self.space = SpecSpace(bases)

    # -- mechanisms ------------------------------------------------------------
    def mechanisms(self, inst: SpecInstance) -> dict[str, FiniteMechanism]:
        mechs: dict[str, FiniteMechanism] = {}
        replaced = {b.name: (b, rows) for b, rows in zip(self.bases, inst.rows, strict=True)}
        for name in self.order:
            if name in replaced:
                base, rows = replaced[name]
                dists = {
                    d: {
                        o: sp.Rational(x.numerator, x.denominator)
                        for o, x in zip(base.mech.outputs, row, strict=True)
                        if x != 0
                    }
                    for d, row in zip(base.datasets, rows, strict=True)
                }
                mechs[name] = FiniteMechanism(
                    base.mech.graph, dists, base.mech.outputs, name=name, validate=False
                )
            elif name in self.derived:
                t, inputs, params = self.derived[name]
                m = t.build([mechs[i] for i in inputs], dict(params))
                if any(m is x for x in mechs.values()):
                    m = m.restrict(m.datasets)
                m.name = name
                mechs[name] = m
            else:
                mechs[name] = self.spec.mechanisms[name]
        return mechs

    def target(self, inst: SpecInstance) -> SpecClaim:
        mech = self.mechanisms(inst)[self.claim.mechanism_name]
        return dataclasses.replace(self.claim, mechanism=mech)

    # -- screening ---------------------------------------------------------------
    def screen(self, inst: SpecInstance) -> float:
        c = self.target(inst)
        m = c.mechanism
        ds = list(m.graph.nodes)
        idx = {d: i for i, d in enumerate(ds)}
        rows = [[_float(m.p(d, o)) for o in m.outputs] for d in ds]
        pl = c.pair_list()
        pairs = [(idx[a], idx[b]) for a, b in (pl if pl is not None else m.ordered_pairs())]
        k = c.kind
        if k in ("pure_dp", "ex_post"):
            bounds = self._bounds(c, m)
            return screens.ex_post_ratio(rows, bounds, pairs)
        if k in ("approx_dp", "ex_post_approx"):
            bounds = self._bounds(c, m)
            dl = _float(c.delta)
            worst = 0.0
            for i, j in pairs:
                hs = sum(
                    max(0.0, p - math.exp(b) * q)
                    for p, q, b in zip(rows[i], rows[j], bounds, strict=True)
                )
                worst = max(worst, hs)
            if dl <= 0:
                return math.inf if worst > TOLERANCE else 0.0
            return worst / dl
        if k == "rdp":
            a = _float(c.alpha)
            e = _float(c.epsilon)
            worst = 0.0
            for i, j in pairs:
                s = 0.0
                for p, q in zip(rows[i], rows[j], strict=True):
                    if p <= 0:
                        continue
                    if q <= 0:
                        return math.inf
                    s += p**a * q ** (1 - a)
                worst = max(worst, math.log(s) / (a - 1))
            if e <= 0:
                return math.inf if worst > TOLERANCE else 0.0
            return worst / e
        if k == "ex_post_rdp":
            return screens.rdp_sum_ratio(rows, self._bounds(c, m), _float(c.alpha), pairs)
        raise InvalidParameter(f"cannot search a {k} claim")  # pragma: no cover

    @staticmethod
    def _bounds(c: SpecClaim, m: FiniteMechanism) -> list[float]:
        if c.kind in ("pure_dp", "approx_dp"):
            return [_float(c.epsilon)] * len(m.outputs)
        e = c.epsilon_tilde
        if isinstance(e, dict):
            return [_float(e[o]) for o in m.outputs]
        return [_float(e)] * len(m.outputs)

    # -- certificates ------------------------------------------------------------
    def document(self, inst: SpecInstance) -> dict[str, Any]:
        doc = copy.deepcopy(self.raw)
        doc.pop("claims", None)
        for base, rows in zip(self.bases, inst.rows, strict=True):
            table = doc["mechanisms"][base.name]
            table["distributions"] = {
                dataset_label(d): {
                    output_label(o): frac_text(x)
                    for o, x in zip(base.mech.outputs, row, strict=True)
                    if x != 0
                }
                for d, row in zip(base.datasets, rows, strict=True)
            }
        claims = []
        for base in self.bases:
            claims.append(
                {
                    "id": f"premise-{base.name}",
                    "mechanism": base.name,
                    "kind": "pure_dp",
                    "epsilon": expression_text(base.eps),
                    "expected": "holds",
                    "statement": f"premise: {base.name} is as private as in {self.path.name} "
                    f"({base.eps}-DP)",
                }
            )
        entry = copy.deepcopy(self._raw_claim())
        entry["expected"] = "refuted"
        claims.append(entry)
        doc["claims"] = claims
        title = doc.get("title", "")
        doc["title"] = f"Counterexample to claim {self.claim.id!r}" + (
            f" of: {title}" if title else ""
        )
        return doc

    def _raw_claim(self) -> dict[str, Any]:
        for c in self.raw.get("claims", []):
            if c.get("id") == self.claim.id:
                return dict(c)
        raise SpecError(f"{self.path}: no claim {self.claim.id!r}")  # pragma: no cover

    def describe(self, inst: SpecInstance) -> str:
        return self.space.describe(inst)


def _float(x: Any) -> float:
    if x is sp.oo:
        return math.inf
    v = exact(x)
    if v.is_Rational:
        return int(v.p) / int(v.q)
    return float(sp.N(v, 20))


@functools.lru_cache(maxsize=32)
def _cached(path: str, claim_id: str | None, sha: str) -> Claim:
    p = Path(path)
    spec = load_spec(p)
    raw_text = read_spec_bytes(p).decode("utf-8")
    raw = json.loads(raw_text) if p.suffix.lower() == ".json" else tomllib.loads(raw_text)
    if not spec.claims:
        raise SpecError(f"{p}: the spec has no claims to search")
    if claim_id is None:
        if len(spec.claims) != 1:
            ids = ", ".join(c.id for c in spec.claims)
            raise SpecError(
                f"{p}: the spec has {len(spec.claims)} claims; choose one with --claim ({ids})"
            )
        claim = spec.claims[0]
    else:
        claim = spec.claim(claim_id)
    if claim.kind not in SEARCHABLE_KINDS:
        raise InvalidParameter(
            f"{p}: claim {claim.id!r} is a {claim.kind} claim; searchable kinds: "
            f"{', '.join(SEARCHABLE_KINDS)}"
        )
    if claim.over is not None:
        raise InvalidParameter(
            f"{p}: claim {claim.id!r} is decided over a parameter range; search needs "
            f"numeric parameters"
        )
    helper = _SpecClaimSearch(p, spec, claim, raw)
    names = ", ".join(b.name for b in helper.bases)
    outputs = "; ".join(
        f"{b.name}: {len(b.mech.outputs)} ("
        + ", ".join(output_label(o) for o in b.mech.outputs[:6])
        + (", ..." if len(b.mech.outputs) > 6 else "")
        + ")"
        for b in helper.bases
    )
    fixed = [
        *(f"the deterministic or non-private mechanism {n}" for n in helper.fixed),
        *(f"the parameters of {n}" for n in helper.derived),
    ]
    sc = Claim(
        id=claim.id,
        statement=claim.statement or claim.describe(),
        source=claim.source or str(p),
        expected="refuted" if claim.expected == "refuted" else "holds",
        search=SearchSpec(
            space=helper.space,
            screen=helper.screen,
            document=helper.document,
            default_instances=400,
            notes=(
                f"varies the distributions of {names} (each exactly as private as in the "
                f"file); not varied: the graphs, the outputs [{outputs}]"
                + "".join(f", {x}" for x in fixed)
                + " -- a counterexample that needs more outputs or candidates is out of "
                "reach: add them to the file to search them"
            ),
        ),
        instances=f"the mechanisms of {p.name}",
    )
    sc.reference = ("spec", str(p), claim.id, sha)
    return sc


def spec_searchable(
    path: str | Path, claim_id: str | None = None, *, sha256: str | None = None
) -> Claim:
    """The searchable claim ``claim_id`` of the spec file ``path`` (the only claim
    when ``claim_id`` is None).  ``sha256`` pins the file's content (checkpoints).

    Parameters
    ----------
    path : str or pathlib.Path
        A spec file (TOML or JSON) whose mechanisms have search spaces.
    claim_id : str, optional
        The claim (required when the file has several).
    sha256 : str, optional
        The expected checksum of the file.

    Returns
    -------
    Claim
        Searchable by :func:`verifier.search.search`.

    Raises
    ------
    verifier.errors.SpecError
        The file cannot be read, has no such claim, has several and none was
        chosen, or its checksum differs from ``sha256``.

    Examples
    --------
    >>> from pathlib import Path
    >>> import verifier
    >>> spec = Path(verifier.__file__).resolve().parents[1] / "examples" / "best_of_k.toml"
    >>> claim = spec_searchable(spec, "best-of-3-is-not-2eps-dp")
    >>> claim.id, claim.expected
    ('best-of-3-is-not-2eps-dp', 'refuted')
    """
    p = Path(path)
    data = read_spec_bytes(p)  # a regular file of bounded size, never /dev/zero
    sha = hashlib.sha256(data).hexdigest()
    if sha256 is not None and sha256 != sha:
        raise SpecError(f"{p}: the file changed since the search started (its checksum differs)")
    return _cached(str(p.resolve()), claim_id, sha)
