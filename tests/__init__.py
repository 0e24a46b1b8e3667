"""The test suite: a package that mirrors ``verifier/`` and ``casestudies/``.

Being a package, every test module has a dotted name under ``tests`` (so
``tests/casestudies/`` never shadows the ``casestudies`` package and no two modules
clash), and helpers shared between directories are imported explicitly.
"""
