"""``python -m verifier ARGS``: the ``verifier`` command line."""

from .cli import run

if __name__ == "__main__":
    run()
