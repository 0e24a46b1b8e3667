"""Write the intersphinx inventories of the API reference (``python.inv``, ``sympy.inv``,
``networkx.inv`` beside this script), so that the reference links out to Python's,
sympy's and networkx's documentation without downloading their inventories at build
time.  Each lists exactly the targets the reference refers to: the types in the
signatures (``typing.get_type_hints`` resolves ``sp.Expr`` to ``sympy.core.expr.Expr``)
and the names the docstrings give in their Parameters/Returns sections.

Format: Sphinx's inventory version 2 (four header lines, then zlib-compressed lines
``name domain:role priority uri dispname``; ``uri`` is relative to the project's base
URL in ``intersphinx_mapping``, a ``dispname`` of ``-`` is the name itself).  Run it
after adding a target: ``python docs/api/inventories/make.py``.
"""

from __future__ import annotations

import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parent

#: (name, role, page#anchor) per project; the anchor defaults to the name.
PYTHON: list[tuple[str, str, str]] = [
    # built-in types and functions
    ("bool", "class", "library/functions.html#bool"),
    ("int", "class", "library/functions.html#int"),
    ("float", "class", "library/functions.html#float"),
    ("object", "class", "library/functions.html#object"),
    ("type", "class", "library/functions.html#type"),
    ("str", "class", "library/stdtypes.html#str"),
    ("bytes", "class", "library/stdtypes.html#bytes"),
    ("tuple", "class", "library/stdtypes.html#tuple"),
    ("list", "class", "library/stdtypes.html#list"),
    ("dict", "class", "library/stdtypes.html#dict"),
    ("set", "class", "library/stdtypes.html#set"),
    ("frozenset", "class", "library/stdtypes.html#frozenset"),
    ("None", "data", "library/constants.html#None"),
    # exceptions
    ("Exception", "exception", "library/exceptions.html#Exception"),
    ("ValueError", "exception", "library/exceptions.html#ValueError"),
    ("KeyError", "exception", "library/exceptions.html#KeyError"),
    ("ImportError", "exception", "library/exceptions.html#ImportError"),
    ("ArithmeticError", "exception", "library/exceptions.html#ArithmeticError"),
    ("AssertionError", "exception", "library/exceptions.html#AssertionError"),
    ("DeprecationWarning", "exception", "library/exceptions.html#DeprecationWarning"),
    # the standard library
    ("fractions.Fraction", "class", "library/fractions.html#fractions.Fraction"),
    ("random.Random", "class", "library/random.html#random.Random"),
    ("os.PathLike", "class", "library/os.html#os.PathLike"),
    ("pathlib.Path", "class", "library/pathlib.html#pathlib.Path"),
    ("argparse", "module", "library/argparse.html#module-argparse"),
    ("argparse.ArgumentParser", "class", "library/argparse.html#argparse.ArgumentParser"),
    ("argparse.Namespace", "class", "library/argparse.html#argparse.Namespace"),
    ("pickle", "module", "library/pickle.html#module-pickle"),
    ("tomllib", "module", "library/tomllib.html#module-tomllib"),
    ("abc.ABC", "class", "library/abc.html#abc.ABC"),
    ("enum.Enum", "class", "library/enum.html#enum.Enum"),
    ("enum.StrEnum", "class", "library/enum.html#enum.StrEnum"),
    ("types.ModuleType", "class", "library/types.html#types.ModuleType"),
    ("collections.Counter", "class", "library/collections.html#collections.Counter"),
    (
        "contextlib.AbstractContextManager",
        "class",
        "library/contextlib.html#contextlib.AbstractContextManager",
    ),
    ("contextlib.ExitStack", "class", "library/contextlib.html#contextlib.ExitStack"),
    (
        "concurrent.futures.Executor",
        "class",
        "library/concurrent.futures.html#concurrent.futures.Executor",
    ),
    (
        "concurrent.futures.Future",
        "class",
        "library/concurrent.futures.html#concurrent.futures.Future",
    ),
    # where the annotation resolves to (the class's defining module)
    (
        "concurrent.futures._base.Future",
        "class",
        "library/concurrent.futures.html#concurrent.futures.Future",
    ),
    ("typing.Any", "data", "library/typing.html#typing.Any"),
    *(
        (f"collections.abc.{n}", "class", f"library/collections.abc.html#collections.abc.{n}")
        for n in (
            "Callable",
            "Collection",
            "Generator",
            "Hashable",
            "Iterable",
            "Iterator",
            "Mapping",
            "Sequence",
        )
    ),
]

_CORE = "modules/core.html"
SYMPY: list[tuple[str, str, str]] = [
    ("sympy.core.basic.Basic", "class", f"{_CORE}#sympy.core.basic.Basic"),
    ("sympy.core.expr.Expr", "class", f"{_CORE}#sympy.core.expr.Expr"),
    ("sympy.core.symbol.Symbol", "class", f"{_CORE}#sympy.core.symbol.Symbol"),
    ("sympy.core.numbers.Rational", "class", f"{_CORE}#sympy.core.numbers.Rational"),
    (
        "sympy.matrices.dense.MutableDenseMatrix",
        "class",
        "modules/matrices/dense.html#sympy.matrices.dense.MutableDenseMatrix",
    ),
    # the short names the docstrings use
    ("sympy.Expr", "class", f"{_CORE}#sympy.core.expr.Expr"),
    ("sympy.Symbol", "class", f"{_CORE}#sympy.core.symbol.Symbol"),
    ("sympy.Rational", "class", f"{_CORE}#sympy.core.numbers.Rational"),
]

_GRAPH = "reference/classes/graph.html#networkx.Graph"
NETWORKX: list[tuple[str, str, str]] = [
    ("networkx.Graph", "class", _GRAPH),
    ("networkx.classes.graph.Graph", "class", _GRAPH),  # what the annotations resolve to
]

#: file name -> (project, version, entries); the base URLs are in docs/api/conf.py.
INVENTORIES = {
    "python.inv": ("Python", "3", PYTHON),
    "sympy.inv": ("SymPy", "latest", SYMPY),
    "networkx.inv": ("NetworkX", "stable", NETWORKX),
}


def inventory(project: str, version: str, entries: list[tuple[str, str, str]]) -> bytes:
    """The bytes of one inventory (version 2), entries sorted by name."""
    header = (
        "# Sphinx inventory version 2\n"
        f"# Project: {project}\n"
        f"# Version: {version}\n"
        "# The remainder of this file is compressed using zlib.\n"
    )
    lines = "".join(f"{name} py:{role} 1 {uri} -\n" for name, role, uri in sorted(set(entries)))
    return header.encode() + zlib.compress(lines.encode(), 9)


def main() -> None:
    for fname, (project, version, entries) in INVENTORIES.items():
        (HERE / fname).write_bytes(inventory(project, version, entries))
        print(f"{fname}: {len(set(entries))} targets")


if __name__ == "__main__":
    main()
