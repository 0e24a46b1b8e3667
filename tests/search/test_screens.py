"""Float screening (:mod:`verifier.search.screens` and the claims' screens) agrees
with the exact confirmation on the instances of every searchable claim."""

from __future__ import annotations

import functools
import math
import random

import pytest

from verifier.search import confirm, get_searchable, searchable_claims

from ..subsets import representatives, split_slow


def _qualname(f: object) -> str:
    return f"{getattr(f, '__module__', '?')}.{getattr(f, '__qualname__', type(f).__name__)}"


def _code_path(claim) -> tuple[object, ...]:
    """What decides which code a screen and its exact confirmation run: the case study,
    the search space's type, the screen function (with the functions a
    ``functools.partial`` binds into it) and the claim's kind."""
    screen = claim.search.screen
    bound: list[str] = []
    while isinstance(screen, functools.partial):
        bound += [_qualname(a) for a in (*screen.args, *screen.keywords.values()) if callable(a)]
        screen = screen.func
    sides = getattr(screen, "sides", None)  # a closed-form step's screen (inequalities)
    if callable(sides):
        bound.append(_qualname(sides))
    return (
        claim.id.split(".")[0],
        type(claim.search.space).__name__,
        _qualname(screen),
        tuple(bound),
        claim.kind,
    )


#: the representative of a code path when its first claim is much slower than another
#: one (seconds, one core, idle): Corollary 8 as derived (0.4) for the chain theorems
#: (Theorem 7 at 2c, 5.8); of the DP testing suite's sparse-vector programs (ten
#: queries), the cheapest
_PREFER = ("talwar2025.cor8.derived", "dp_testing.sparse_vector_technique1")


def _screen_params():
    """Every searchable claim. The main job decides each by its search (screen, then
    exact confirmation), so the default run keeps one claim per code path
    (:func:`_code_path`: each case study, search space, screen function and claim
    kind) and every other one runs with `pytest -m slow` (.ci/run)."""
    claims = searchable_claims()
    default = representatives(claims, _code_path, lambda c: c.id, _PREFER)
    return split_slow([c.id for c in claims], default, str)


@pytest.mark.parametrize("claim_id", _screen_params())
def test_screen_matches_exact_ratio(claim_id):
    c = get_searchable(claim_id)
    rng = random.Random(11)
    for k in range(3):
        space = c.search.space
        inst = space.extreme(rng) if k % 2 else space.random(rng)
        s, conf = c.search.screen(inst), confirm(c, inst)
        assert conf.error is None and conf.ratio is not None
        if math.isinf(conf.ratio):
            assert math.isinf(s)
        else:
            assert s == pytest.approx(conf.ratio, rel=1e-9, abs=1e-12)
