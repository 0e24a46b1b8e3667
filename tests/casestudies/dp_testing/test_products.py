"""The products module of the dp_testing suite: each exact ε against a closed form
derived by hand, and the finite mechanisms against a seeded simulation of the real
algorithm (output frequencies compared with the exact probabilities)."""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction

import pytest
import sympy as sp

from casestudies.dp_testing import products
from casestudies.dp_testing.murmur3 import bloom_bits, mmh3_hash, murmur3_32
from casestudies.dp_testing.products import (
    ENTRIES,
    rappor_bit_probabilities,
    truncated_geometric_distribution,
)
from casestudies.dp_testing.suite import decide
from verifier.algorithms.noise.samplers import binomial_two_sided_pvalue, chi_square_pvalue

R = sp.Rational
BY_NAME = {e.name: e for e in ENTRIES}
#: significance level of the seeded simulations (fixed seeds: a failure is a bug)
ALPHA = 1e-3


def _value(name: str) -> sp.Expr:
    exact = BY_NAME[name].exact
    assert exact is not None
    return exact().value


def _per_pair(name: str) -> dict[str, sp.Expr]:
    exact = BY_NAME[name].exact
    assert exact is not None
    return dict(exact().per_pair)


# ---------------------------------------------------------------------------
# MurmurHash3
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "seed", "expected"),
    [  # published test vectors of MurmurHash3_x86_32
        (b"", 0, 0),
        (b"", 1, 0x514E28B7),
        (b"\xff\xff\xff\xff", 0, 0x76293B50),
        (b"test", 0, 0xBA6BD213),
        (b"Hello, world!", 1234, 0xFAF6CDB3),
    ],
)
def test_murmur3_test_vectors(data, seed, expected):
    assert murmur3_32(data, seed) == expected


def test_murmur3_agrees_with_the_mmh3_package():
    mmh3 = pytest.importorskip(
        "mmh3", reason="the mmh3 package (dev extra) is not installed: cross-check skipped"
    )
    rng = random.Random(18)
    for _ in range(500):
        text = "".join(chr(rng.randrange(32, 0x3000)) for _ in range(rng.randrange(0, 14)))
        seed = rng.randrange(0, 2**32)
        assert mmh3_hash(text, seed) == mmh3.hash(text, seed=seed)
    for v in range(-10, 11):
        assert bloom_bits(v, 4, 20) == tuple(
            sorted({mmh3.hash(str(v), seed=i) % 20 for i in range(4)})
        )


# ---------------------------------------------------------------------------
# exact epsilons against closed forms derived by hand
# ---------------------------------------------------------------------------


def test_every_entry_matches_its_expected_outcome():
    for entry in ENTRIES:
        result = decide(entry)
        got = "holds" if result.verdict.value == "holds" else "refuted"
        assert got == entry.expected, entry.name


def test_laplace_parallel_is_the_composition_of_its_copies():
    # basic composition, tight: 20 copies of eps = 0.005 on a pair at distance 1
    assert _value("laplace_parallel") == 20 * R(5, 1000) * 1 == R(1, 10)
    assert set(_per_pair("laplace_parallel").values()) == {R(1, 10)}


def test_noisy_histograms_on_pairs_at_distance_one():
    # one bin changes by 1: |1 - 0| / scale
    assert _value("noisy_hist1") == 1 / (1 / R(1, 10)) == R(1, 10)
    assert _value("noisy_hist2") == 1 / R(1, 10) == 10


def test_prefix_sum_is_eps_times_the_l1_distance_of_the_pair():
    entry_pairs = products.PREFIX_PAIRS
    per_pair = list(_per_pair("prefix_sum").values())
    for (a, b), value in zip(entry_pairs, per_pair, strict=True):
        assert value == R(1, 10) * sum(abs(x - y) for x, y in zip(a, b, strict=True))
    # the ONE_DIFFER pairs (the published adjacency) are at eps; all-differ pairs at 10 eps
    assert per_pair[:4] == [R(1, 10)] * 4
    assert _value("prefix_sum") == 1


def test_truncated_geometric_is_the_two_sided_geometric_law_of_ratio_8_9():
    # independent closed form: alpha = 2^k/(2^k + 1) = 8/9; interior (1-a)/(1+a) a^|z-c|,
    # the two ends a^c/(1+a) and a^(n-c)/(1+a) (the truncated geometric mechanism)
    a = Fraction(8, 9)
    for c in range(6):
        law = truncated_geometric_distribution(c)
        for z in range(6):
            if z == 0:
                want = a**c / (1 + a)
            elif z == 5:
                want = a ** (5 - c) / (1 + a)
            else:
                want = (1 - a) / (1 + a) * a ** abs(z - c)
            assert law[z] == want, (c, z)
    assert _value("truncated_geometric_mechanism") == sp.log(R(9, 8))
    # the claimed epsilon is Balcer & Vadhan's bound at the code's k = ceil(ln 20) = 3
    assert BY_NAME["truncated_geometric_mechanism"].claimed == sp.log(1 + R(1, 8))
    assert products.GEO_K == 3


def test_rappor_per_bit_formula_by_hand():
    f, p, q = R(3, 4), R(9, 20), R(11, 20)
    q_star = f * (p + q) / 2 + (1 - f) * q
    p_star = f * (p + q) / 2 + (1 - f) * p
    assert rappor_bit_probabilities(f, p, q) == (q_star, p_star) == (R(41, 80), R(39, 80))
    per_bit = sp.log(q_star / p_star)
    assert sp.log((1 - p_star) / (1 - q_star)) == per_bit
    # filters: 0 -> {0, 11, 18}, 1 -> {3, 10, 13}, 2 -> {7, 10, 11, 19}
    assert bloom_bits(0, 4, 20) == (0, 11, 18)
    assert bloom_bits(1, 4, 20) == (3, 10, 13)
    assert bloom_bits(2, 4, 20) == (7, 10, 11, 19)
    sym = {
        (a, b): len(set(bloom_bits(a, 4, 20)) ^ set(bloom_bits(b, 4, 20)))
        for a, b in [(1, 0), (1, 2)]
    }
    assert sym == {(1, 0): 6, (1, 2): 5}
    assert _value("rappor") == 6 * per_bit
    assert set(_per_pair("rappor").values()) == {6 * per_bit, 5 * per_bit}
    one_time = sp.log((1 - R(19, 20) / 2) / (R(19, 20) / 2))
    assert one_time == sp.log(R(21, 19))
    assert _value("one_time_rappor") == 6 * one_time
    # the claims: Erlingsson et al. 2014's bounds with h = 4
    eps_1 = 4 * sp.log(q_star * (1 - p_star) / (p_star * (1 - q_star)))
    assert sp.expand_log(BY_NAME["rappor"].claimed - eps_1, force=True) == 0
    assert BY_NAME["one_time_rappor"].claimed == 2 * 4 * one_time


def test_statdp_ran_rappor_on_the_float_text():
    # statdpwrapper/algorithms_ext.py passes np.array(queries[0], dtype=float): the
    # Bloom filters of "1.0", "0.0", "2.0" (bits cross-checked with the mmh3 package)
    assert bloom_bits(1.0, 4, 20) == (6, 14, 18)
    assert bloom_bits(0.0, 4, 20) == (7, 9, 13, 19)
    assert bloom_bits(2.0, 4, 20) == (0, 2, 16, 17)
    for other in (0.0, 2.0):
        assert len(set(bloom_bits(1.0, 4, 20)) ^ set(bloom_bits(other, 4, 20))) == 7
    # Rappor(n_hashes, filter_size, f, q, p) into (n_hashes, filter_size, f, p, q):
    # p and q swapped, which swaps q* and p* and keeps the per-bit ratio 41/39
    assert rappor_bit_probabilities(R(3, 4), R(11, 20), R(9, 20)) == (R(39, 80), R(41, 80))
    for name, per_bit in (("rappor", R(41, 39)), ("one_time_rappor", R(21, 19))):
        entry = BY_NAME[name]
        assert entry.statdp_exact is not None and "'1.0'" in entry.statdp_note
        run = entry.statdp_exact()
        assert run.value == 7 * sp.log(per_bit)
        assert set(dict(run.per_pair).values()) == {7 * sp.log(per_bit)}
        # DP-Sniper's own instance is unchanged
        assert _value(name) == 6 * sp.log(per_bit)


def test_statdp_ran_the_float_text_cross_checked_with_mmh3():
    mmh3 = pytest.importorskip(
        "mmh3", reason="the mmh3 package (dev extra) is not installed: cross-check skipped"
    )
    for v in (0.0, 1.0, 2.0):
        assert bloom_bits(v, 4, 20) == tuple(
            sorted({mmh3.hash(str(v), seed=i) % 20 for i in range(4)})
        )


def test_statdp_histograms_at_every_level_of_the_benchmark():
    for eps0, label in zip(products.STATDP_CLAIMED, ["", ".eps0_7", ".eps1_5"], strict=True):
        assert _value(f"statdp_histogram{label}") == eps0
        assert _value(f"statdp_histogram_eps{label}") == 1 / eps0
    assert BY_NAME["statdp_histogram_eps.eps1_5"].expected == "holds"


# ---------------------------------------------------------------------------
# seeded simulations of the real algorithms
# ---------------------------------------------------------------------------


def _geo_sample(c: int, rng: random.Random, n: int = 5, k: int = 3) -> int:
    """GeoSample as DP-Sniper runs it: u uniform on {1..d}, the least z with F(z) >= u,
    F the integer CDF of Step 2 (Balcer & Vadhan 2018, Algorithm 4.8)."""
    d = (2 ** (k + 1) + 1) * (2**k + 1) ** (n - 1)
    u = rng.randint(1, d)
    for z in range(n):
        if z < c:
            f = 2 ** (k * (c - z)) * (2**k + 1) ** (n - (c - z))
        else:
            f = d - 2 ** (k * (z - c + 1)) * (2**k + 1) ** (n - 1 - (z - c))
        if f >= u:
            return z
    return n


@pytest.mark.parametrize("c", [0, 1, 2])
def test_truncated_geometric_frequencies_match_the_exact_law(c):
    rng = random.Random(1000 + c)
    n = 40_000
    counts = Counter(str(_geo_sample(c, rng)) for _ in range(n))
    law = {
        str(z): sp.Rational(p.numerator, p.denominator)
        for z, p in truncated_geometric_distribution(c).items()
    }
    assert chi_square_pvalue(counts, law, n) > ALPHA


def _rappor_sample(value: int, rng: random.Random, f: float, p: float | None, q: float | None):
    """One report of DP-Sniper's Rappor (or OneTimeRappor when p, q are None): Bloom
    filter, permanent randomized response per bit, then instantaneous."""
    bloom = set(bloom_bits(value, 4, 20))
    out = []
    for i in range(20):
        b = 1 if i in bloom else 0
        u = rng.random()
        if u < f / 2:
            b = 1
        elif u < f:
            b = 0
        if p is not None and q is not None:
            b = 1 if rng.random() < (q if b else p) else 0
        out.append(b)
    return out


@pytest.mark.parametrize(
    ("entry", "f", "p", "q"),
    [("rappor", 0.75, 0.45, 0.55), ("one_time_rappor", 0.95, None, None)],
)
@pytest.mark.parametrize("value", [0, 1, 2])
def test_rappor_bit_frequencies_match_the_exact_law(entry, f, p, q, value):
    rng = random.Random(7 * value + len(entry))
    n = 20_000
    reports = [_rappor_sample(value, rng, f, p, q) for _ in range(n)]
    components = products.RAPPOR if entry == "rappor" else products.ONE_TIME_RAPPOR
    laws = components((Fraction(value),))
    for i, law in enumerate(laws):
        ones = sum(r[i] for r in reports)
        p1 = law[1]
        assert binomial_two_sided_pvalue(ones, n, Fraction(int(p1.p), int(p1.q))) > ALPHA / 20
    # independence of two bits (the product form): the joint law of bits 0 and 3
    joint = Counter(f"{r[0]}{r[3]}" for r in reports)
    probs = {f"{x}{y}": (laws[0][x]) * (laws[3][y]) for x in (0, 1) for y in (0, 1)}
    assert chi_square_pvalue(joint, probs, n) > ALPHA


# ---------------------------------------------------------------------------
# export
# ---------------------------------------------------------------------------


def test_every_entry_exports_json():
    for entry in ENTRIES:
        assert entry.export is not None, entry.name
        doc = entry.export()
        json.dumps(doc)
        assert doc["pairs"] and doc["inputs"]
    geo = BY_NAME["truncated_geometric_mechanism"].export()  # type: ignore[misc]
    assert geo["inputs"]["(1)"][0]["distribution"]["0"] == "8/17"
    prefix = BY_NAME["prefix_sum"].export()  # type: ignore[misc]
    assert "Abs(z1 - 1)" in prefix["inputs"]["(1, 1, 1, 1, 1, 1, 1, 1, 1, 1)"]["density"]
    rappor = BY_NAME["rappor"].export()  # type: ignore[misc]
    assert rappor["bloom_filters"]["1"] == [3, 10, 13]
    assert rappor["inputs"]["(1)"][3] == {
        "kind": "finite",
        "distribution": {"1": "41/80", "0": "39/80"},
    }


def test_prefix_sum_density_matches_a_simulation_of_the_real_algorithm():
    """Box probabilities of the first two released prefix sums, integrated from the
    exported closed form (its factors in z1, z2: the marginal, since the other factors
    integrate to 1 one after the other from z10 down), against frequencies of the real
    PrefixSum (Laplace noise on each query, then running sums)."""
    import mpmath

    a = (1,) * 10
    doc = BY_NAME["prefix_sum"].export()  # type: ignore[misc]
    z = sp.symbols("z1:11", real=True)
    density = sp.sympify(
        doc["inputs"][str(a).replace(",)", ")")]["density"], locals=dict((str(s), s) for s in z)
    )
    factors = [
        f for f in sp.Mul.make_args(density) if f.free_symbols and f.free_symbols <= {z[0], z[1]}
    ]
    marginal = sp.Mul(*factors) / 400  # each Laplace(scale 10) factor is exp(-|.|/10)/20
    g = sp.lambdify((z[0], z[1]), marginal, "mpmath")
    cuts1, cuts2 = [-mpmath.inf, -5, 5, mpmath.inf], [-mpmath.inf, -5, 7, mpmath.inf]

    def box(i: int, j: int) -> float:
        lo1, hi1, lo2, hi2 = cuts1[i], cuts1[i + 1], cuts2[j], cuts2[j + 1]

        def inner(x):
            pts = [lo2] + ([x + 1] if lo2 < x + 1 < hi2 else []) + [hi2]
            return mpmath.quad(lambda y: g(x, y), pts, maxdegree=4)

        pts1 = [lo1] + ([1] if lo1 < 1 < hi1 else []) + [hi1]
        with mpmath.workdps(10):
            return float(mpmath.quad(inner, pts1, maxdegree=4))

    probs = {f"{i}{j}": box(i, j) for i in range(3) for j in range(3)}
    assert abs(sum(probs.values()) - 1) < 1e-6
    rng = random.Random(2019)
    n = 20_000
    counts: Counter[str] = Counter()
    for _ in range(n):
        noisy = [x + rng.expovariate(0.1) * (1 if rng.random() < 0.5 else -1) for x in a]
        z1, z2 = noisy[0], noisy[0] + noisy[1]
        i = 0 if z1 <= -5 else 1 if z1 <= 5 else 2
        j = 0 if z2 <= -5 else 1 if z2 <= 7 else 2
        counts[f"{i}{j}"] += 1
    assert chi_square_pvalue(counts, probs, n) > ALPHA  # type: ignore[arg-type]
