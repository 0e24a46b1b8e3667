"""The former home of ``verifier search`` (now :mod:`verifier.cli.search`); its names
stay importable from here."""

from .cli.search import COMMAND, ProgressBar, configure, run

__all__ = ["configure", "run", "COMMAND", "ProgressBar"]
