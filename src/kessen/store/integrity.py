"""Replay integrity: when a record no longer plays back, say where and which cards are involved.

A record keeps a state hash every few steps (:class:`~kessen.engine.replay.Replay`) and, in the
store, a digest of the log events each action produced. After a rules or card change,
:func:`diagnose` reports

- ``step``: the first step whose state hash differs (``ReplayDivergence.step``; 0 when the
  initial state already differs, e.g. a character's printed Lv is part of the state);
- ``event_step``: the first step whose log events differ from the recorded digests, i.e. the
  first moment the game *visibly* went another way, with the action taken there and the events
  the current rules produce;
- ``changed``: the cards of the match whose definition differs from the snapshot taken when the
  match was recorded (field, old value, new value);
- ``mentioned``: the cards named by the events at (and just before) that step;
- ``cards``: the suspects, changed cards named at the diverging step first.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kessen.engine import registry
from kessen.engine.contract import GameState, Json
from kessen.engine.log import Event
from kessen.engine.replay import Replay, ReplayDivergence


def events_digest(events: Iterable[Event]) -> int:
    """A 32-bit digest of log events (their full, unredacted JSON form)."""
    text = json.dumps(
        [e.to_json() for e in events], sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    return zlib.crc32(text.encode())


def card_facts(ruleset: str) -> dict[str, Json]:
    """The current definition of every card of ``ruleset``, by slug, as plain JSON.

    Read fresh on every call (never cached), so an edited pool shows up. Kōbō cards give every
    rules field; other rulesets fall back to their public catalogue's card entries.
    """
    if ruleset == "kobo":
        from kessen.games.kobo.schema import load_pool

        out: dict[str, Json] = {}
        for card in load_pool():
            out[card.slug] = {
                "kind": card.kind.value,
                "lv": card.lv,
                "limited": card.limited,
                "chain_again": card.chain_again,
                "when": card.when.value,
                "target": None
                if card.target is None
                else [card.target.side.value, card.target.scope.value],
                "steps": [[s.verb.value, s.amount] for s in card.steps],
            }
        return out
    cards = registry.get(ruleset).catalog("en").get("cards")
    if isinstance(cards, Mapping):
        return {
            str(k): dict(v) if isinstance(v, Mapping) else {"value": v} for k, v in cards.items()
        }
    return {}


def match_cards(state: GameState) -> list[str]:
    """The card slugs a match uses, from its state's JSON ``cards`` list if it has one."""
    cards = state.to_json().get("cards")
    if isinstance(cards, list) and all(isinstance(c, str) for c in cards):
        return sorted(set(cards))
    return []


@dataclass(frozen=True)
class CardChange:
    """One field of a card that differs from the recorded snapshot."""

    slug: str
    field: str
    old: Any
    new: Any

    def __str__(self) -> str:
        return f"{self.slug}: {self.field} {self.old!r} → {self.new!r}"


@dataclass
class Divergence:
    """Where and why a record stopped playing back as recorded."""

    step: int
    reason: str
    checkpoint: int
    event_step: int | None = None
    action: str | None = None
    events: list[Json] = field(default_factory=list)
    mentioned: list[str] = field(default_factory=list)
    changed: list[CardChange] = field(default_factory=list)
    illegal_step: int | None = None
    lost: bool = False
    """The record can never replay (``reason`` says why); no card is to blame."""
    recorded_version: str = ""
    """The ruleset's rules version when the record was made (``Replay.version``)."""
    current_version: str = ""
    """The ruleset's rules version now."""

    @property
    def cards(self) -> list[str]:
        """The suspects: changed cards named at the diverging step, other changed cards, then
        the other cards named there."""
        changed = list(dict.fromkeys(c.slug for c in self.changed))
        first = [s for s in changed if s in self.mentioned]
        rest = [s for s in changed if s not in first]
        named = [s for s in self.mentioned if s not in changed]
        return first + rest + named

    def describe(self) -> str:
        """A few lines for people."""
        if self.lost:
            return self.reason
        lines = [f"the record diverges at step {self.step} ({self.reason})"]
        if self.recorded_version and self.recorded_version != self.current_version:
            older = _older(self.recorded_version, self.current_version)
            when = "an earlier" if older else "another"
            lines.append(
                f"recorded under {when} rules version, {self.recorded_version} (now "
                f"{self.current_version}): rulings made since then can change how it plays"
            )
        if self.checkpoint >= 0:
            lines.append(f"last step that still matched the record: step {self.checkpoint}")
        if self.event_step is not None:
            what = f"action {self.action!r}" if self.action else "the initial deal"
            lines.append(f"first visible difference at step {self.event_step}: {what}")
        elif self.action:
            lines.append(f"action at that step: {self.action!r}")
        for change in self.changed:
            lines.append(f"card changed since recording: {change}")
        if self.mentioned:
            lines.append("cards named or in play at that step: " + ", ".join(self.mentioned))
        if self.illegal_step is not None:
            lines.append(f"the recorded action of step {self.illegal_step} is no longer legal")
        if self.cards:
            lines.append("suspects: " + ", ".join(self.cards))
        return "\n".join(lines)

    def to_json(self) -> Json:
        """JSON form."""
        return {
            "step": self.step,
            "reason": self.reason,
            "checkpoint": self.checkpoint,
            "event_step": self.event_step,
            "action": self.action,
            "events": self.events,
            "mentioned": self.mentioned,
            "changed": [
                {"slug": c.slug, "field": c.field, "old": c.old, "new": c.new} for c in self.changed
            ],
            "illegal_step": self.illegal_step,
            "lost": self.lost,
            "recorded_version": self.recorded_version,
            "current_version": self.current_version,
            "cards": self.cards,
        }


def _older(recorded: str, current: str) -> bool:
    """Whether rules version ``recorded`` (dotted numbers) comes before ``current``."""
    try:
        return tuple(map(int, recorded.split("."))) < tuple(map(int, current.split(".")))
    except ValueError:
        return False


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def mentioned_cards(events: Iterable[Json], known: Iterable[str]) -> list[str]:
    """The known card slugs named anywhere in ``events``, in order of first mention."""
    slugs = set(known)
    out: dict[str, None] = {}
    for event in events:
        for text in _strings(event):
            if text in slugs:
                out.setdefault(text, None)
    return list(out)


def card_changes(
    recorded: Mapping[str, Json], current: Mapping[str, Json], slugs: Iterable[str] | None = None
) -> list[CardChange]:
    """Field-by-field differences of the cards ``slugs`` (default: all recorded ones)."""
    changes: list[CardChange] = []
    for slug in sorted(slugs if slugs is not None else recorded):
        old = recorded.get(slug)
        new = current.get(slug)
        if old == new:
            continue
        if old is None or new is None:
            changes.append(CardChange(slug, "card", old is not None, new is not None))
            continue
        for key in sorted(set(old) | set(new)):
            if old.get(key) != new.get(key):
                changes.append(CardChange(slug, key, old.get(key), new.get(key)))
    return changes


def diagnose(
    replay: Replay,
    *,
    event_digests: Mapping[int, int] | None = None,
    recorded_cards: Mapping[str, Json] | None = None,
) -> Divergence | None:
    """``None`` if ``replay`` plays back exactly; else where and why it diverges.

    ``event_digests`` maps a step (0 = the initial deal) to :func:`events_digest` of the events
    that step produced, as recorded; ``recorded_cards`` is the card snapshot of the recording
    (see :func:`card_facts`). Both are optional: without them the report names the cards of the
    events between the last matching checkpoint and the diverging step.
    """
    try:
        for _ in replay.states(verify=True):
            pass
    except ReplayDivergence as err:
        first = err
    else:
        return None
    step = first.step
    reason = str(first).removeprefix(f"step {step}: ")
    checkpoint = max((s for s in replay.hashes if s < step), default=-1)
    current = card_facts(replay.ruleset)
    known = set(current) | set(recorded_cards or {})

    per_step: dict[int, list[Json]] = {}
    states: dict[int, GameState] = {}
    illegal: int | None = None
    event_step: int | None = None
    slugs: list[str] = []
    seen = 0
    index = 0
    try:
        for index, state in enumerate(replay.states(verify=False)):
            if index == 0:
                slugs = match_cards(state)
            states[index] = state
            log = state.log_events()
            new = log[seen:] if len(log) >= seen else log
            seen = len(log)
            per_step[index] = [e.visible(None, everything=True) for e in new]
            if (
                event_step is None
                and event_digests is not None
                and index in event_digests
                and events_digest(new) != event_digests[index]
            ):
                event_step = index
            if index > step and (event_step is not None or event_digests is None):
                break
    except ReplayDivergence as err:
        illegal = err.step
    except Exception as err:  # the current rules cannot even run the record on
        illegal = index + 1
        per_step.setdefault(index + 1, [{"kind": "error", "message": str(err)}])

    focus = event_step if event_step is not None else step
    window = [focus - 1] if event_step is not None else list(range(max(checkpoint, 0), step))
    events = per_step.get(focus, [])
    context = [e for s in window for e in per_step.get(s, [])]
    action = replay.actions[focus - 1] if 1 <= focus <= len(replay.actions) else None
    changed: list[CardChange] = []
    if recorded_cards is not None:
        changed = card_changes(recorded_cards, current, slugs or None)
    mentioned = mentioned_cards(events + context, known)
    focus_state = states.get(focus)
    if focus_state is not None and changed:
        # Changed cards in sight at that step (on the board, in a hand...) count as named.
        board = {k: v for k, v in focus_state.view_all("en").items() if k != "log"}
        mentioned += [
            s for s in mentioned_cards([board], {c.slug for c in changed}) if s not in mentioned
        ]
    return Divergence(
        step=step,
        reason=reason,
        checkpoint=checkpoint,
        event_step=event_step,
        action=action,
        events=events,
        mentioned=mentioned,
        changed=changed,
        illegal_step=illegal,
        recorded_version=replay.version,
        current_version=registry.get(replay.ruleset).version,
    )


def recorded_event_digests(
    events0: int | None, per_action: Sequence[int | None]
) -> dict[int, int] | None:
    """Step → digest from a record's initial digest and per-action digests (``None`` if the
    record has none)."""
    out: dict[int, int] = {}
    if events0 is not None:
        out[0] = events0
    for step, digest in enumerate(per_action, start=1):
        if digest is not None:
            out[step] = digest
    return out or None
