"""Mechanisms of the suite: see the module docstring of :mod:`casestudies.dp_testing`."""

from __future__ import annotations

from .suite import SuiteEntry

__all__ = ["ENTRIES"]

ENTRIES: list[SuiteEntry] = []
