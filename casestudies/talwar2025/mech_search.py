"""Talwar 2025: worst-case searches over mechanisms for Propositions 2, 4 and 5.

Each space draws exact rational mechanisms (seeded), so the screen is computed in
:class:`fractions.Fraction` arithmetic (logarithms only for the float ratio of two
privacy losses) and the document is a spec file with the mechanism's table:

* **Prop. 4** (:func:`cube_group_privacy_search`): on ``{0,1}^3``, the mixture
  ``(1-w)·G_x(|d|) + w·R`` of the geometric mechanism of the Hamming weight
  (``G_x = TGeom_3`` with ``x = e^{-ε_G}``, where group privacy is attained between
  ``000`` and ``111``) and a seeded random mechanism ``R``; ``ε = log a`` with ``a``
  the realized likelihood ratio (rational).  Target: ``Δ·ε``-DP at graph distance
  ``Δ`` (pure DP: every event iff every output).
* **Prop. 5** (:func:`path_group_privacy_search`): on the path ``0..n``,
  ``(1-w)·TGeom_n(x) + w·R``; ``ε = log(1/x)`` and ``δ`` the exact hockey-stick
  divergence at ``ε`` (rational).  Target: ``(Δε, e^{Δε}Δδ)``-DP at distance ``Δ``.
* **Prop. 2** (:func:`extension_search`): a seeded random connected graph on 4–9
  nodes, a seeded random mechanism on it (``a`` its realized ratio) restricted to a
  seeded subset ``B``; the extension ``m_d(o) = min_b a^{dist(d,b)} p_b(o)``,
  ``p̂ = m/Z``, in rationals.  Targets: ``p̂`` is ``2 log a``-DP and agrees with ``p``
  on ``B`` (the theorem), and each line of the construction (the proof steps).
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

import networkx as nx

from verifier.claims import SearchSpec
from verifier.search.certificates import claim_entry, frac_text, log_text, skeleton_document
from verifier.search.inequalities import GridPoint, GridSpace

__all__ = [
    "cube_group_privacy_search",
    "rdp_search",
    "path_group_privacy_search",
    "extension_search",
    "Ext",
    "extension_instance",
    "EXTENSION_ROWS",
]

F = Fraction
SRC = "Talwar 2025"


def _rational_distribution(k: int, rng: random.Random, den: int = 60) -> list[Fraction]:
    """A positive rational distribution on ``k`` outcomes with denominator ``den``."""
    cuts = sorted(rng.sample(range(1, den), k - 1))
    parts = [b - a for a, b in zip([0, *cuts], [*cuts, den], strict=True)]
    return [F(p, den) for p in parts]


def _tgeom(n: int, x: Fraction) -> list[list[Fraction]]:
    """``TGeom_n(x)``: row ``k`` is the distribution at true value ``k`` on ``0..n``
    (:func:`verifier.mechanism.instances.truncated_geometric`)."""
    rows = []
    for k in range(n + 1):
        row = []
        for o in range(n + 1):
            p = x ** abs(o - k)
            row.append(p / (1 + x) if o in (0, n) else (1 - x) / (1 + x) * p)
        rows.append(row)
    return rows


def _max_ratio(rows: dict[Any, list[Fraction]], pairs: list[tuple[Any, Any]]) -> Fraction:
    return max(rows[d][o] / rows[e][o] for d, e in pairs for o in range(len(rows[d])))


def _log_ratio(x: Fraction) -> float:
    return math.log(x.numerator) - math.log(x.denominator)


def _table(rows: dict[Any, list[Fraction]], label: Callable[[Any], str]) -> dict[str, Any]:
    return {label(d): [frac_text(p) for p in r] for d, r in rows.items()}


# ---------------------------------------------------------------------------
# Prop. 4 on the 3-cube
# ---------------------------------------------------------------------------

CUBE_N = 3
CUBE = [tuple(b) for b in itertools.product((0, 1), repeat=CUBE_N)]


def _bits(d: tuple[int, ...]) -> str:
    return "".join(map(str, d))


def _cube_pairs(k: int) -> list[tuple[Any, Any]]:
    return [
        (d, e) for d in CUBE for e in CUBE if sum(a != b for a, b in zip(d, e, strict=True)) == k
    ]


def cube_mechanism(seed: int, w: Fraction, x: Fraction) -> dict[Any, list[Fraction]]:
    """``(1-w)·G_x(|d|) + w·R_seed`` on ``{0,1}^3`` (outputs ``0..3``)."""
    g = _tgeom(CUBE_N, x)
    rng = random.Random(seed)
    rnd = {d: _rational_distribution(CUBE_N + 1, rng) for d in CUBE}
    return {d: [(1 - w) * g[sum(d)][o] + w * rnd[d][o] for o in range(CUBE_N + 1)] for d in CUBE}


def _cube_space() -> GridSpace:
    return GridSpace(
        ("seed", "w", "x"),
        (
            tuple(F(s) for s in range(60)),
            tuple(
                F(*t)
                for t in ((0, 1), (1, 1000), (1, 100), (1, 10), (1, 4), (1, 2), (3, 4), (1, 1))
            ),
            tuple(F(*t) for t in ((1, 10), (1, 3), (1, 2), (2, 3), (9, 10), (99, 100))),
        ),
    )


def _cube_eval(v: dict[str, Fraction]) -> tuple[dict[Any, list[Fraction]], Fraction, list[float]]:
    rows = cube_mechanism(int(v["seed"]), v["w"], v["x"])
    a = _max_ratio(rows, _cube_pairs(1))
    la = _log_ratio(a)
    ratios = [
        (_log_ratio(_max_ratio(rows, _cube_pairs(k))) / (k * la)) if la > 0 else 0.0
        for k in range(2, CUBE_N + 1)
    ]
    return rows, a, ratios


def _cube_screen(inst: GridPoint, space: GridSpace) -> float:
    return max(_cube_eval(space.point(inst))[2])


def _cube_document(inst: GridPoint, space: GridSpace, claim_id: str) -> dict[str, Any]:
    rows, a, ratios = _cube_eval(space.point(inst))
    k = 2 + max(range(len(ratios)), key=lambda i: ratios[i])
    doc = skeleton_document(f"{SRC}, Prop. 4 on {{0,1}}^3 at {space.describe(inst)}")
    doc["graphs"] = {"cube": {"kind": "hamming_cube", "n": CUBE_N}}
    doc["mechanisms"]["M"] = {
        "graph": "cube",
        "outputs": list(range(CUBE_N + 1)),
        "distributions": _table(rows, _bits),
    }
    doc["claims"].append(
        claim_entry(
            "premise-M",
            "M",
            "pure_dp",
            "holds",
            epsilon=log_text(a),
            statement="premise: M is eps-DP, eps = log a (its realized ratio)",
        )
    )
    target = claim_entry(
        claim_id,
        "M",
        "pure_dp",
        "refuted",
        epsilon=log_text(a, k),
        statement=f"Prop. 4: Pr[M(d) in E] <= e^({k} eps) Pr[M(d') in E] at distance {k}",
        source=f"{SRC}, Prop. 4",
    )
    target["distance"] = k
    doc["claims"].append(target)
    return doc


def cube_group_privacy_search(claim_id: str) -> SearchSpec:
    """Prop. 4 on the 3-cube (module docstring)."""
    space = _cube_space()
    return SearchSpec(
        space=space,
        screen=functools.partial(_cube_screen, space=space),
        document=functools.partial(_cube_document, space=space, claim_id=claim_id),
        default_instances=4000,
        casestudies_instances=160,
        notes="(1-w) TGeom_3(x)(|d|) + w R on {0,1}^3: 60 seeds, w in [0, 1], x in [1/10, 99/100]; "
        "group privacy at distances 2 and 3 (distance 1 is the premise)",
    )


# ---------------------------------------------------------------------------
# Prop. 5 on paths
# ---------------------------------------------------------------------------


def path_mechanism(n: int, seed: int, w: Fraction, x: Fraction) -> dict[Any, list[Fraction]]:
    """``(1-w)·TGeom_n(x) + w·R_seed`` on the path ``0..n`` (outputs ``0..n``)."""
    g = _tgeom(n, x)
    rng = random.Random(seed)
    rnd = {d: _rational_distribution(n + 1, rng) for d in range(n + 1)}
    return {d: [(1 - w) * g[d][o] + w * rnd[d][o] for o in range(n + 1)] for d in range(n + 1)}


def hockey_stick(
    rows: dict[Any, list[Fraction]], pairs: list[tuple[Any, Any]], a: Fraction
) -> Fraction:
    """``max_(d,d') Σ_o max(0, P_d(o) - a P_d'(o))`` (the exact δ at ``ε = log a``)."""
    return max(
        sum((max(F(0), p - a * q) for p, q in zip(rows[d], rows[e], strict=True)), F(0))
        for d, e in pairs
    )


def _path_pairs(n: int, k: int) -> list[tuple[int, int]]:
    return [(d, e) for d in range(n + 1) for e in range(n + 1) if abs(d - e) == k]


def _path_space() -> GridSpace:
    return GridSpace(
        ("n", "seed", "w", "x"),
        (
            (F(2), F(3), F(4)),
            tuple(F(s) for s in range(40)),
            tuple(F(*t) for t in ((1, 1000), (1, 100), (1, 20), (1, 10), (1, 4), (1, 2), (1, 1))),
            tuple(F(*t) for t in ((1, 10), (1, 3), (1, 2), (2, 3), (9, 10))),
        ),
    )


def _path_eval(v: dict[str, Fraction]) -> tuple[Any, ...]:
    n = int(v["n"])
    rows = path_mechanism(n, int(v["seed"]), v["w"], v["x"])
    a = 1 / v["x"]
    d = hockey_stick(rows, _path_pairs(n, 1), a)
    out = []
    for k in range(2, n + 1):
        dk = hockey_stick(rows, _path_pairs(n, k), a**k)
        claimed = min(F(1), a**k * k * d)  # a delta >= 1 allows everything
        out.append(float(dk / claimed) if claimed > 0 else (math.inf if dk > 0 else 0.0))
    return n, rows, a, d, out


def _path_screen(inst: GridPoint, space: GridSpace) -> float:
    return max(_path_eval(space.point(inst))[4])


def _path_document(inst: GridPoint, space: GridSpace, claim_id: str) -> dict[str, Any]:
    n, rows, a, d, ratios = _path_eval(space.point(inst))
    k = 2 + max(range(len(ratios)), key=lambda i: ratios[i])
    doc = skeleton_document(f"{SRC}, Prop. 5 on the path 0..{n} at {space.describe(inst)}")
    doc["graphs"] = {"path": {"kind": "path", "n": n}}
    doc["mechanisms"]["M"] = {
        "graph": "path",
        "outputs": list(range(n + 1)),
        "distributions": _table(rows, str),
    }
    doc["claims"].append(
        claim_entry(
            "premise-M",
            "M",
            "approx_dp",
            "holds",
            epsilon=log_text(a),
            delta=frac_text(d),
            statement="premise: M is (eps, delta)-DP, delta exact",
        )
    )
    target = claim_entry(
        claim_id,
        "M",
        "approx_dp",
        "refuted",
        epsilon=log_text(a, k),
        delta=frac_text(min(F(1), a**k * k * d)),
        statement=f"Prop. 5: Pr[M(d) in E] <= e^({k} eps) (Pr[M(d') in E] + {k} delta) at "
        f"distance {k}",
        source=f"{SRC}, Prop. 5",
    )
    target["distance"] = k
    doc["claims"].append(target)
    return doc


def path_group_privacy_search(claim_id: str) -> SearchSpec:
    """Prop. 5 on paths (module docstring)."""
    space = _path_space()
    return SearchSpec(
        space=space,
        screen=functools.partial(_path_screen, space=space),
        document=functools.partial(_path_document, space=space, claim_id=claim_id),
        default_instances=4000,
        casestudies_instances=160,
        notes="(1-w) TGeom_n(x) + w R on the path 0..n (n = 2..4), delta exact at eps = "
        "log(1/x): 40 seeds, w in [1/1000, 1], x in [1/10, 9/10]; distances 2..n",
    )


# ---------------------------------------------------------------------------
# Prop. 2: the extension
# ---------------------------------------------------------------------------


def _graph(n: int, seed: int) -> nx.Graph:
    """A seeded random connected graph on ``n`` nodes: a random tree plus random
    extra edges."""
    rng = random.Random(seed)
    g = nx.Graph()
    g.add_nodes_from(range(n))
    for v in range(1, n):
        g.add_edge(v, rng.randrange(v))
    for _ in range(rng.randrange(n)):
        u, v = rng.sample(range(n), 2)
        g.add_edge(u, v)
    return g


class Ext:
    """An extension instance in rationals: the graph, the mechanism ``p`` (``a`` its
    realized ratio), ``B``, and ``m_d(o)``, ``Z_d``, ``p̂_d(o)``."""

    def __init__(self, g: nx.Graph, p: dict[Any, list[Fraction]], B: list[Any], a: Fraction):
        self.g, self.p, self.B, self.a = g, p, B, a
        self.k = len(next(iter(p.values())))
        dist = {b: nx.single_source_shortest_path_length(g, b) for b in B}
        self.m = {
            d: [min(a ** dist[b][d] * p[b][o] for b in B) for o in range(self.k)] for d in g.nodes
        }
        self.Z = {d: sum(self.m[d], F(0)) for d in g.nodes}
        self.phat = {d: [x / self.Z[d] for x in self.m[d]] for d in g.nodes}

    def edges(self) -> Iterator[tuple[Any, Any]]:
        for u, v in self.g.edges:
            yield u, v
            yield v, u


def _premise_holds(g: nx.Graph, p: dict[Any, list[Fraction]], a: Fraction) -> bool:
    dist = dict(nx.all_pairs_shortest_path_length(g))
    return all(
        p[b][o] <= a ** dist[b][c] * p[c][o]
        for b in p
        for c in p
        if b != c
        for o in range(len(p[b]))
    )


def extension_instance(n: int, seed: int, b: int, k: int, mode: int = 0) -> Ext:
    """The extension instance of a point of the space (module docstring): ``mode = 0``
    restricts a random mechanism on the whole graph (``a`` its realized ratio); ``mode = 1``
    draws the distributions on ``B`` alone and takes for ``a`` the least multiple of
    ``1/1000`` with ``p_b(o) <= a^{dist(b,b')} p_b'(o)`` (Prop. 2's premise, nearly tight;
    such a partial need not be the restriction of an ``log a``-DP mechanism)."""
    g = _graph(n, seed)
    rng = random.Random(10_000 + seed)
    if mode == 0:
        p = {d: _rational_distribution(k, rng) for d in g.nodes}
        a = max(p[d][o] / p[e][o] for d, e in g.edges for o in range(k))
        a = max(a, max(p[e][o] / p[d][o] for d, e in g.edges for o in range(k)))
        B = sorted(rng.sample(sorted(g.nodes), min(b, n)))
        return Ext(g, p, B, a)
    B = sorted(rng.sample(sorted(g.nodes), min(b, n)))
    pB = {d: _rational_distribution(k, rng) for d in B}
    dist = dict(nx.all_pairs_shortest_path_length(g))
    need = max(
        [
            float(pB[x][o] / pB[y][o]) ** (1 / dist[x][y])
            for x in B
            for y in B
            if x != y
            for o in range(k)
        ]
        or [2.0]
    )
    a = F(max(1001, math.ceil(need * 1000)), 1000)
    while not _premise_holds(g, pB, a):
        a += F(1, 1000)
    return Ext(g, pB, B, a)


def _rows_lipschitz(e: Ext) -> Iterator[tuple[Any, Fraction, Fraction]]:
    for d, d2 in e.edges():
        for o in range(e.k):
            yield (d, d2, o), e.m[d][o], e.a * e.m[d2][o]


def _rows_normaliser(e: Ext) -> Iterator[tuple[Any, Fraction, Fraction]]:
    for d, d2 in e.edges():
        yield (d, d2, "Z"), e.Z[d], e.a * e.Z[d2]
        for o in range(e.k):
            yield (d, d2, o), e.phat[d][o] / e.phat[d2][o], e.a**2


def _rows_agrees(e: Ext) -> Iterator[tuple[Any, Fraction, Fraction]]:
    for b in e.B:
        yield (b, "Z_b <= 1"), e.Z[b], F(1)
        yield (b, "1 <= Z_b"), F(1), e.Z[b]
        for o in range(e.k):
            yield (b, o, "p_b <= m_b"), e.p[b][o], e.m[b][o]
            yield (b, o, "m_b <= p_b"), e.m[b][o], e.p[b][o]


def _rows_theorem(e: Ext) -> Iterator[tuple[Any, Fraction, Fraction]]:
    for d, d2 in e.edges():
        for o in range(e.k):
            yield (d, d2, o), e.phat[d][o], e.a**2 * e.phat[d2][o]
    yield from _rows_agrees(e)


#: The rows of each claim: (label, lhs, rhs) meaning lhs <= rhs.
EXTENSION_ROWS: dict[str, Callable[[Ext], Iterator[tuple[Any, Fraction, Fraction]]]] = {
    "theorem": _rows_theorem,
    "min_lipschitz": _rows_lipschitz,
    "normaliser": _rows_normaliser,
    "agrees_on_B": _rows_agrees,
}


def _ext_space() -> GridSpace:
    return GridSpace(
        ("n", "seed", "B", "k", "mode"),
        (
            tuple(F(n) for n in range(4, 10)),
            tuple(F(s) for s in range(200)),
            (F(1), F(2), F(3)),
            (F(2), F(3)),
            (F(0), F(1)),
        ),
    )


@functools.lru_cache(maxsize=512)
def _ext_at(inst: GridPoint) -> Ext:
    n, seed, b, k, mode = (int(x) for x in inst.values)
    return extension_instance(n, seed, b, k, mode)


def _ext_screen(inst: GridPoint, rows: str) -> float:
    e = _ext_at(inst)
    if rows == "theorem":  # the realized privacy loss over 2 log a, as the certificate has it
        if any(lhs != rhs for _, lhs, rhs in _rows_agrees(e)):
            return math.inf
        loss = max(
            _log_ratio(e.phat[d][o] / e.phat[d2][o]) for d, d2 in e.edges() for o in range(e.k)
        )
        la = _log_ratio(e.a)
        return loss / (2 * la) if la > 0 else (math.inf if loss > 0 else 0.0)
    return max(
        float(lhs / rhs) if rhs > 0 else (math.inf if lhs > 0 else 0.0)
        for _, lhs, rhs in EXTENSION_ROWS[rows](e)
    )


def _ext_document(inst: GridPoint, space: GridSpace, rows: str, claim_id: str) -> dict[str, Any]:
    e = _ext_at(inst)
    doc = skeleton_document(f"{SRC}, Prop. 2 at {space.describe(inst)}")
    names = {d: f"d{d}" for d in e.g.nodes}
    doc["graphs"] = {
        "G": {
            "kind": "edges",
            "datasets": [names[d] for d in e.g.nodes],
            "edges": [[names[u], names[v]] for u, v in e.g.edges],
        }
    }
    if len(e.p) == e.g.number_of_nodes():  # mode 0: the restriction of an eps-DP mechanism
        doc["mechanisms"]["M"] = {
            "graph": "G",
            "outputs": list(range(e.k)),
            "distributions": _table(e.p, lambda d: names[d]),
        }
        doc["claims"].append(
            claim_entry(
                "premise-M",
                "M",
                "pure_dp",
                "holds",
                epsilon=log_text(e.a),
                statement="premise: M is eps-DP (eps = log a), so its restriction to B "
                "satisfies Prop. 2's premise by group privacy",
            )
        )
    else:  # mode 1: the premise on B itself
        dist = dict(nx.all_pairs_shortest_path_length(e.g))
        pairs = [(x, y, o) for x in e.B for y in e.B if x != y for o in range(e.k)]
        for i, (x, y, o) in enumerate(pairs):
            doc["claims"].append(
                {
                    "id": f"premise-{i + 1}",
                    "kind": "inequality",
                    "lhs": frac_text(e.p[x][o]),
                    "rhs": frac_text(e.a ** dist[x][y] * e.p[y][o]),
                    "expected": "holds",
                    "statement": f"Prop. 2's premise: p_{names[x]}({o}) <= a^dist p_{names[y]}({o})",
                }
            )
    if rows == "theorem":
        doc["mechanisms"]["ext"] = {
            "graph": "G",
            "outputs": list(range(e.k)),
            "distributions": _table(e.phat, lambda d: names[d]),
            "description": f"the extension of M restricted to B = {[names[b] for b in e.B]}",
        }
        doc["claims"].append(
            claim_entry(
                claim_id,
                "ext",
                "pure_dp",
                "refuted",
                epsilon=log_text(e.a, 2),
                statement="Prop. 2: the extension is 2 eps-DP",
                source=f"{SRC}, Prop. 2",
            )
        )
        return doc
    label, lhs, rhs = max(EXTENSION_ROWS[rows](e), key=lambda t: t[1] / t[2] if t[2] else math.inf)
    doc["claims"].append(
        {
            "id": claim_id,
            "kind": "inequality",
            "lhs": frac_text(lhs),
            "rhs": frac_text(rhs),
            "expected": "refuted",
            "statement": f"Prop. 2's construction, row {label}",
            "source": f"{SRC}, Prop. 2",
        }
    )
    return doc


def extension_search(claim_id: str, rows: str, what: str) -> SearchSpec:
    """Prop. 2 (``rows``: ``"theorem"`` or a step of the construction) over random
    graphs, mechanisms and subsets ``B`` (module docstring)."""
    space = _ext_space()
    return SearchSpec(
        space=space,
        screen=functools.partial(_ext_screen, rows=rows),
        document=functools.partial(_ext_document, space=space, rows=rows, claim_id=claim_id),
        default_instances=4000,
        casestudies_instances=160,
        notes=f"{what}: seeded random connected graphs on 4-9 nodes; random rational "
        "mechanisms (2-3 outputs, eps = log of the realized ratio) restricted to 1-3 nodes, or "
        "random distributions on 1-3 nodes with a nearly tight premise",
    )


# ---------------------------------------------------------------------------
# Prop. 6 (first part) on paths
# ---------------------------------------------------------------------------


def _rdp_space() -> GridSpace:
    return GridSpace(
        ("n", "seed", "w", "x", "alpha"),
        (
            (F(1), F(2), F(3)),
            tuple(F(s) for s in range(30)),
            (F(0), F(1, 100), F(1, 10), F(1, 2), F(1)),
            (F(1, 10), F(1, 3), F(1, 2), F(9, 10)),
            (F(3, 2), F(2), F(3), F(5)),
        ),
    )


def _rdp_decide(space: GridSpace, inst: GridPoint) -> Any:
    import sympy as sp

    from verifier.mechanism.model import FiniteMechanism
    from verifier.mechanism.neighbours import path

    from .theory import rdp_chain

    v = space.point(inst)
    n = int(v["n"])
    rows = path_mechanism(n, int(v["seed"]), v["w"], v["x"])
    m = FiniteMechanism(
        path(n),
        {
            d: {o: sp.Rational(p.numerator, p.denominator) for o, p in enumerate(r)}
            for d, r in rows.items()
        },
        list(range(n + 1)),
        name=f"(1-{v['w']}) TGeom_{n}({v['x']}) + {v['w']} R[{int(v['seed'])}]",
    )
    a = v["alpha"]
    return rdp_chain(m, sp.Rational(a.numerator, a.denominator))


def _rdp_screen(space: GridSpace, inst: GridPoint) -> float:
    """The float mirror of :func:`.theory.rdp_chain`: the largest
    ``Pr[M(d_k) ∈ E] / (e^{ε S_k} Pr[M(d_0) ∈ E]^{r^k})``."""
    v = space.point(inst)
    n = int(v["n"])
    rows = path_mechanism(n, int(v["seed"]), v["w"], v["x"])
    P = {d: [float(p) for p in r] for d, r in rows.items()}
    a = float(v["alpha"])
    eps = max(
        math.log(sum(p**a * q ** (1 - a) for p, q in zip(P[d], P[e], strict=True))) / (a - 1)
        for d, e in _path_pairs(n, 1)
    )
    r = 1 - 1 / a
    evs = [s for k in range(1, n + 2) for s in itertools.combinations(range(n + 1), k)]
    best = 0.0
    for k in range(1, n + 1):
        S = sum(r**i for i in range(1, k + 1))
        for d0, dk in _path_pairs(n, k):
            for ev in evs:
                lhs = sum(P[dk][o] for o in ev)
                rhs = math.exp(eps * S) * sum(P[d0][o] for o in ev) ** (r**k)
                best = max(best, lhs / rhs)
    return best


def rdp_search(claim_id: str) -> SearchSpec:
    """Prop. 6's first part over ``(1-w) TGeom_n(x) + w R`` on paths and ``α``."""
    from .search import exact_search

    return exact_search(
        claim_id,
        _rdp_space(),
        _rdp_decide,
        "Prop. 6's first part: Pr[M(d_k) in E] <= e^(eps S_k) Pr[M(d_0) in E]^(r^k)",
        f"{SRC}, Prop. 6",
        screen=_rdp_screen,
        notes="(1-w) TGeom_n(x) + w R on the path 0..n (n = 1..3; w in [0, 1], x in [1/10, 9/10], "
        "30 seeds), alpha in {3/2, 2, 3, 5}, eps the exact RDP eps",
    )
