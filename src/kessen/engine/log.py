"""Log events with visibility: a public part for everyone and a private part for one seat.

The game's view function renders the log for a viewer from these events, so the log can never
show a card that the board hides.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

NOBODY = -1


@dataclass(frozen=True, slots=True)
class Event:
    """One log entry. ``public`` is seen by all; ``private`` only by seat ``private_to``.

    ``reveals`` names the seat whose hidden card this event made public (or ``NOBODY``):
    undo may not cross such an event for the other seats.
    """

    kind: str
    public: dict[str, Any] = field(default_factory=dict)
    private_to: int = NOBODY
    private: dict[str, Any] | None = None
    reveals: int = NOBODY

    def __post_init__(self) -> None:
        # The private part is laid over the public one for its reader: a shared key would
        # show its owner something else than every other reader sees under the same name.
        if self.private and not self.public.keys().isdisjoint(self.private):
            shared = sorted(self.public.keys() & self.private.keys())
            raise ValueError(f"{self.kind} event: private keys {shared} shadow public ones")

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
