"""Representative subsets of the suites parametrized by registered claim or example.

A suite that repeats, per registered claim, a decision the main job (``verifier
casestudies``, ``verifier check examples/...``) makes as well keeps in the default run
one representative of each distinct code path; every other case is marked
``@pytest.mark.slow`` and runs with ``pytest -m slow`` (.ci/run), so each case runs in
exactly one of the two commands.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, TypeVar

import pytest

T = TypeVar("T")


def representatives(
    items: Sequence[T],
    key: Callable[[T], Hashable],
    name: Callable[[T], str],
    prefer: Iterable[str] = (),
) -> set[str]:
    """The names of one item per ``key``: the first item (in order) whose name is in
    ``prefer``, else the first item of that key."""
    preferred = set(prefer)
    chosen: dict[Hashable, T] = {}
    for item in items:
        k = key(item)
        if k not in chosen or (name(item) in preferred and name(chosen[k]) not in preferred):
            chosen[k] = item
    return {name(item) for item in chosen.values()}


def split_slow(items: Sequence[T], default: set[str], name: Callable[[T], str]) -> list[Any]:
    """``items`` as pytest parameters (id: ``name``): those named in ``default`` run by
    default, every other one is marked slow."""
    return [
        pytest.param(item, id=name(item))
        if name(item) in default
        else pytest.param(item, id=name(item), marks=pytest.mark.slow)
        for item in items
    ]
