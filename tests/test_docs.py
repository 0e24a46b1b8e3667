"""The mathematical documentation (docs/math) cannot rot silently.

Every ``module.function`` reference written as inline code in ``docs/math/*.md`` (a
dotted path starting with ``verifier.`` or ``casestudies.``) must import; every page is
listed in the index; relative links point to files of the project; the ``$`` math
delimiters balance; README.md and docs/spec-format.md link the index.
"""

from __future__ import annotations

import importlib
import re
import types
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
MATH = ROOT / "docs" / "math"
INDEX = MATH / "README.md"
PAGES = sorted(MATH.glob("*.md"))
TOPICS = [
    "conventions.md",
    "ghazi2025.md",
    "liu_talwar2019.md",
    "talwar2025.md",
    "noise_programs.md",
    "hartmann2022.md",
]

#: ``verifier.checks.privacy.check_pure_dp``, ``casestudies.ghazi2025.theory.theorem8_bound``, ...
REFERENCE = re.compile(r"`((?:verifier|casestudies)(?:\.[A-Za-z_][A-Za-z0-9_]*)+)`")
LINK = re.compile(r"\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)
INLINE_CODE = re.compile(r"`[^`\n]*`")


def resolve(dotted: str) -> Any:
    """The object a dotted path names: the longest importable module prefix, then
    attributes (a submodule not imported by its package is imported)."""
    parts = dotted.split(".")
    obj: Any = importlib.import_module(parts[0])
    path = parts[0]
    for part in parts[1:]:
        path = f"{path}.{part}"
        if hasattr(obj, part):
            obj = getattr(obj, part)
        elif isinstance(obj, types.ModuleType) and hasattr(obj, "__path__"):
            obj = importlib.import_module(path)  # a package's submodule
        else:
            raise AttributeError(f"{path} does not exist")
    return obj


def _references(page: Path) -> list[str]:
    return sorted(set(REFERENCE.findall(page.read_text(encoding="utf-8"))))


def test_the_index_lists_every_page_and_every_topic_exists():
    assert INDEX.exists()
    names = {p.name for p in PAGES}
    assert set(TOPICS) <= names, f"missing pages: {sorted(set(TOPICS) - names)}"
    index = INDEX.read_text(encoding="utf-8")
    linked = set(LINK.findall(index))
    unlisted = sorted(p.name for p in PAGES if p != INDEX and p.name not in linked)
    assert not unlisted, f"pages missing from docs/math/README.md: {unlisted}"


@pytest.mark.parametrize("page", [p.name for p in PAGES if p.name in TOPICS])
def test_every_topic_page_points_to_code(page: str):
    assert len(_references(MATH / page)) >= 10, f"{page} names (almost) no function"


@pytest.mark.parametrize("page", [p.name for p in PAGES])
def test_every_code_reference_names_an_existing_attribute(page: str):
    broken = []
    for ref in _references(MATH / page):
        try:
            resolve(ref)
        except (ImportError, AttributeError) as err:
            broken.append(f"{ref}: {type(err).__name__}: {err}")
    assert not broken, f"{page} names objects that do not exist:\n" + "\n".join(broken)


@pytest.mark.parametrize("page", [p.name for p in PAGES])
def test_links_point_to_files_of_the_project(page: str):
    text = (MATH / page).read_text(encoding="utf-8")
    for target in LINK.findall(text):
        if re.match(r"[a-z]+://", target):
            continue
        path = (MATH / target.split("#", 1)[0]).resolve()
        assert path.exists(), f"{page}: broken link {target}"
        assert ROOT in path.parents, f"{page}: {target} points outside the project"


@pytest.mark.parametrize("page", [p.name for p in PAGES])
def test_math_delimiters_balance(page: str):
    text = FENCE.sub("", (MATH / page).read_text(encoding="utf-8"))
    text = INLINE_CODE.sub("", text)
    for n, paragraph in enumerate(text.split("\n\n")):
        assert paragraph.count("$") % 2 == 0, f"{page}, paragraph {n}: unbalanced $:\n{paragraph}"


def test_resolve_rejects_a_missing_name():
    assert resolve("verifier.checks.privacy.check_pure_dp") is not None
    with pytest.raises(AttributeError):
        resolve("verifier.checks.privacy.no_such_function")
    with pytest.raises(ImportError):
        resolve("casestudies.no_such_paper.theory")


@pytest.mark.parametrize("doc", ["README.md", "docs/spec-format.md"])
def test_the_index_is_linked(doc: str):
    text = (ROOT / doc).read_text(encoding="utf-8")
    targets = [(ROOT / doc).parent / t for t in LINK.findall(text)]
    assert any(t.resolve() == INDEX for t in targets), f"{doc} does not link docs/math"
