"""``python -m kessen.cli``: run the ``kessen`` command line."""

from kessen.cli import main

if __name__ == "__main__":
    main()
