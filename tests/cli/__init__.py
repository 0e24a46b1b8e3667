"""Tests of :mod:`verifier.cli`, one module per module of the package (a package, so
that ``tests/cli/test_search.py`` and ``tests/test_search.py`` do not clash)."""
