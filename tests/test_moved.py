"""Engine modules that moved into packages keep their old import path for one release,
with a DeprecationWarning naming the new one, and the same objects behind it."""

from __future__ import annotations

import importlib
import sys

import pytest

import verifier


@pytest.mark.parametrize("old,new", sorted(verifier._MOVED.items()))
def test_old_path_warns_and_forwards(old: str, new: str) -> None:
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=f"{old} moved to {new}"):
        alias = importlib.import_module(old)
    target = importlib.import_module(new)
    public = [n for n in dir(target) if not n.startswith("_")]
    assert public
    for name in public:
        assert getattr(alias, name) is getattr(target, name)
    with pytest.raises(AttributeError):
        _ = alias.no_such_name_here


def test_packages_forward_their_former_module_names() -> None:
    from verifier.odp import ODPGuarantee, odp_composition
    from verifier.odp.guarantees import ODPGuarantee as G
    from verifier.odp.guarantees import odp_composition as c

    assert (ODPGuarantee, odp_composition) == (G, c)
    with pytest.raises(AttributeError):
        _ = importlib.import_module("verifier.odp").no_such_name_here
