"""Log events with visibility: a public part for everyone and a private part for one seat.

The game's view function renders the log for a viewer from these events, so the log can never
show a card that the board hides.
"""

from __future__ import annotations

from typing import Any, Final

NOBODY = -1


class Event:
    """One log entry. ``public`` is seen by all; ``private`` only by seat ``private_to``.

    ``reveals`` names the seat whose hidden card this event made public (or ``NOBODY``):
    undo may not cross such an event for the other seats.

    An event is a value: its fields are read-only (``Final``) and its parts are never changed
    after it is written, so copies of a state share their events. It is a plain slotted class
    rather than a frozen dataclass because the rules write one or two per action and a frozen
    dataclass costs four times as much to build.
    """

    __slots__ = ("kind", "private", "private_to", "public", "reveals")

    def __init__(
        self,
        kind: str,
        public: dict[str, Any] | None = None,
        private_to: int = NOBODY,
        private: dict[str, Any] | None = None,
        reveals: int = NOBODY,
    ) -> None:
        if public is None:
            public = {}
        # The private part is laid over the public one for its reader: a shared key would
        # show its owner something else than every other reader sees under the same name.
        if private and not public.keys().isdisjoint(private):
            shared = sorted(public.keys() & private.keys())
            raise ValueError(f"{kind} event: private keys {shared} shadow public ones")
        self.kind: Final = kind
        self.public: Final = public
        self.private_to: Final = private_to
        self.private: Final = private
        self.reveals: Final = reveals

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Event):
            return NotImplemented
        return (
            self.kind == other.kind
            and self.public == other.public
            and self.private_to == other.private_to
            and self.private == other.private
            and self.reveals == other.reveals
        )

    __hash__ = None  # type: ignore[assignment]  # (its parts are dicts)

    def __repr__(self) -> str:
        return (
            f"Event(kind={self.kind!r}, public={self.public!r}, private_to={self.private_to!r}, "
            f"private={self.private!r}, reveals={self.reveals!r})"
        )

    def visible(self, viewer: int | None, everything: bool = False) -> dict[str, Any]:
        """The entry as ``viewer`` sees it (``everything`` shows the private part too)."""
        out: dict[str, Any] = {"kind": self.kind, **self.public}
        if self.private and (everything or (viewer is not None and viewer == self.private_to)):
            out.update(self.private)
        return out

    def to_json(self) -> list[Any]:
        """Compact JSON form."""
        return [self.kind, self.public, self.private_to, self.private, self.reveals]

    @staticmethod
    def from_json(data: list[Any]) -> Event:
        """Inverse of :meth:`to_json`."""
        kind, public, private_to, private, reveals = data
        return Event(kind, public, private_to, private, reveals)
