"""``python -m verifier.cli ARGS``: the ``verifier`` command line."""

from . import run

if __name__ == "__main__":
    run()
