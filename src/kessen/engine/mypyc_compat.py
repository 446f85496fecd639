"""What the sources say to mypyc, the compiler of the optional compiled build, and nothing more.

``mypyc_attr`` is ``mypy_extensions.mypyc_attr`` where mypy is installed (the compiled build
always has it): mypyc reads the decorator when it compiles a class and never calls it. The pure
package also runs where mypy is not installed; there the decorator is this module's own no-op.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

_T = TypeVar("_T")

try:
    from mypy_extensions import mypyc_attr
except ImportError:  # pure Python without mypy: the attribute only ever guides mypyc

    def mypyc_attr(*attrs: str, **kwattrs: object) -> Callable[[_T], _T]:
        """The class or function unchanged (mypyc's attributes mean nothing to Python)."""

        def unchanged(thing: _T) -> _T:
            return thing

        return unchanged


__all__ = ["mypyc_attr"]
