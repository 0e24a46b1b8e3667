"""Tests of :mod:`verifier.cli`, one module per module of the package."""
