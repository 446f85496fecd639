"""The leak oracle: every message a seat receives, checked against the engine's truth.

Complete games are played through :class:`Session` (what the server sends is exactly
``view_for`` and the refusals' messages) against every COM level of both rulesets, and COM
against COM as a spectator sees it. At every step the true state says which cards are hidden
from the reader right now (the opponent's hands, face-down cards, decks; in TWGP also its pile,
face-down vitals, charge cards and stealth units, less what the log ever showed). No name or
identifier of such a card may appear anywhere in the message, unless the reader's own view shows
a card of that name elsewhere (Kōbō decks hold copies). The public deck lists are the only part
left out of the search: they name every card a deck holds, by design (kobo-rules.md §7).

``KESSEN_LEAK_GAMES=N`` plays N games per COM level instead of the suite's few (the strongest
level plays a partial game in the suite: a complete one costs half a minute of search).
"""

from __future__ import annotations

import json
import os
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from kessen.engine import registry
from kessen.engine.contract import GameState, Json, RulesError
from kessen.games.kobo.state import HAND, MAIN_DECK, SLOTS, TDECK, THAND, KoboState
from kessen.games.twgp.cards import CARDS
from kessen.games.twgp.state import ASIDE, EMPTY, HIDDEN, PILE, POOL, TwgpState
from kessen.games.twgp.state import HAND as TWGP_HAND
from kessen.server.session import SPECTATOR, Session

HUMAN = 0
GAMES = int(os.environ.get("KESSEN_LEAK_GAMES", "0"))
CONFIGS: dict[str, Json] = {
    "kobo": {"decks": ["fortress", "vanguard"], "best_of": 1},
    "twgp": {},
}


def _strings(value: Any, out: set[str]) -> set[str]:
    """Every string in ``value`` (keys included), and every word of each (action texts)."""
    if isinstance(value, str):
        out.add(value)
        out.update(value.split())
    elif isinstance(value, dict):
        out.update(k for k in value if isinstance(k, str))
        for item in value.values():
            _strings(item, out)
    elif isinstance(value, list | tuple):
        for item in value:
            _strings(item, out)
    return out


def _without_deck_lists(view: Json) -> Json:
    """``view`` less the public deck lists (names and counts of every card of a deck)."""
    players = view.get("players")
    if not isinstance(players, list):
        return view
    return {
        **view,
        "players": [
            {k: v for k, v in p.items() if k != "deck"} if isinstance(p, dict) else p
            for p in players
        ],
    }


def hidden_kobo(state: KoboState, seat: int) -> set[str]:
    """Kōbō: the opponent's hands, decks, face-down strategy cards and surprise card."""
    foe = 1 - seat
    cards = [c for zone in (HAND, THAND, MAIN_DECK, TDECK) for c in state.zone(foe, zone)]
    cards += [
        c
        for c in state.strategy[foe * SLOTS : foe * SLOTS + SLOTS]
        if c != -1 and not state.faceup[c]
    ]
    if state.surprise is not None:  # the surprise-zone option: a face-down surprise card
        cards += [c for c, _ in state.surprise.zones[foe] if not state.faceup[c]]
    return {state.defs[c].slug for c in cards}


def hidden_twgp(state: TwgpState, seat: int) -> set[str]:
    """TWGP: the opponent's pool, hand, cards set aside, pile, face-down vitals, charge cards
    and stealth units, less every card a public log entry (or one of the reader's) named."""
    foe = 1 - seat
    cards: list[int] = []
    for zone in (POOL, TWGP_HAND, ASIDE, PILE):
        cards += state.zone(foe, zone)
    cards += [
        state.vitals[i]
        for i in range(foe * 3, foe * 3 + 3)
        if state.vitals[i] != EMPTY and state.vpose[i] == HIDDEN
    ]
    cards += [c for c in state.charge_row(foe) if c != EMPTY]
    cards += [stack.top for _, stack in state.stacks(foe) if stack.secret]
    known: set[str] = set()
    for event in state.log:
        _strings(event.public, known)
        if event.private_to == seat and event.private:
            _strings(event.private, known)
    return {CARDS[c].slug for c in cards} - known


def hidden_slugs(state: GameState, seat: int) -> set[str]:
    """The names of the cards hidden from ``seat`` in the true ``state``."""
    if isinstance(state, KoboState):
        return hidden_kobo(state, seat)
    assert isinstance(state, TwgpState)
    return hidden_twgp(state, seat)


@dataclass
class Tally:
    """What the oracle read: messages, hidden cards kept out of them, and leaks found."""

    messages: int = 0
    hidden_checked: int = 0
    leaks: list[str] = field(default_factory=list)

    def say(self, what: str) -> None:
        """Print the counts (shown with ``pytest -s``)."""
        print(
            f"leak oracle {what}: {self.messages} messages, "
            f"{self.hidden_checked} hidden cards kept out, {len(self.leaks)} leaks"
        )


def _names(ruleset: str) -> dict[str, list[str]]:
    """Every way a card's identity is written: its slug, and its names and labels."""
    out: dict[str, list[str]] = {}
    for lang in ("ja", "en"):
        for slug, card in registry.get(ruleset).catalog(lang)["cards"].items():
            out.setdefault(slug, [])
            out[slug] += [str(card[k]) for k in ("name", "label") if k in card]
    return out


NAMES = {ruleset: _names(ruleset) for ruleset in CONFIGS}


def check_message(message: Json, state: GameState, seat: int, tally: Tally, where: str) -> None:
    """No identity of a card hidden from ``seat`` in ``state`` appears in ``message``."""
    ruleset = state.ruleset
    names = NAMES[ruleset]
    own_view = _without_deck_lists(state.view(seat, "ja"))
    visible = _strings(own_view, set()) | _strings(
        _without_deck_lists(state.view(seat, "en")), set()
    )
    seen_names = {n for slug in visible if slug in names for n in names[slug]}
    text = json.dumps(_without_deck_lists(message), ensure_ascii=False)
    tally.messages += 1
    for slug in hidden_slugs(state, seat) - visible:
        tally.hidden_checked += 1
        if re.search(rf"(?<![\w-]){re.escape(slug)}(?![\w-])", text):
            tally.leaks.append(f"{where}: {slug!r} in the message")
        for name in names.get(slug, []):
            if name in text and not any(name in other for other in seen_names):
                tally.leaks.append(f"{where}: {name!r} ({slug}) in the message")


def _wrong_answers(state: GameState, seat: int) -> Iterator[tuple[int, str]]:
    """Answers a hostile client sends: stale, foreign and illegal ones naming hidden cards."""
    pending = state.pending
    assert pending is not None
    legal = {str(action) for action in state.legal_actions()}
    yield pending.prompt_id - 1, "pass"
    for slug in sorted(hidden_slugs(state, seat))[:3]:
        for text in (f"pick {slug}", f"play {slug}"):
            if text not in legal:
                yield pending.prompt_id, text


def play_and_check(
    ruleset: str, level: str, seed: int, mode: str, tally: Tally, limit: int
) -> None:
    """One game of ``mode`` against ``level``, every message checked; at most ``limit`` COM
    decisions."""
    session = Session.create(ruleset, CONFIGS[ruleset], seed, mode, level, 0.0)  # type: ignore[arg-type]
    rng = random.Random(seed)
    reader = HUMAN if mode == "vs_com" else SPECTATOR
    seat = HUMAN  # a spectator reads the bottom seat's view
    decisions = 0
    while session.live.pending is not None and decisions < limit:
        lang = "ja" if decisions % 2 else "en"
        where = f"{ruleset}/{level}/{mode}/seed {seed}/step {len(session.actions)}"
        check_message(session.view_for(reader, lang, False), session.live, seat, tally, where)
        pending = session.live.pending
        if pending.seat in session.com:
            session.com_step()
            decisions += 1
            continue
        if rng.random() < 0.2:
            for prompt_id, text in _wrong_answers(session.live, seat):
                try:
                    session.act(seat, prompt_id, text)
                except RulesError as err:  # the client's own words echoed are no leak
                    said = str(err).replace(text, "<sent>")
                    check_message({"error": said}, session.live, seat, tally, where)
                else:  # pragma: no cover - the answers above are never legal
                    raise AssertionError(f"{text!r} was accepted")
        if rng.random() < 0.1 and session.history(seat)["can_undo"]:
            session.undo(seat)
            continue
        session.act(seat, pending.prompt_id, str(rng.choice(session.live.legal_actions())))
    if session.live.pending is None:
        check_message(session.view_for(reader, "ja", False), session.live, seat, tally, "end")


def _levels() -> list[tuple[str, str, int, int]]:
    """(ruleset, level, games, COM decisions per game) for every COM level of both rulesets."""
    out: list[tuple[str, str, int, int]] = []
    for ruleset in CONFIGS:
        for level in registry.get(ruleset).players:
            strong = level.endswith("strong") or (ruleset == "twgp" and level.endswith("normal"))
            games = GAMES or (1 if level.startswith("ismcts") else 3)
            out.append((ruleset, level, games, 10**6 if GAMES or not strong else 16))
    return out


@pytest.mark.parametrize(("ruleset", "level", "games", "limit"), _levels())
def test_no_message_to_the_player_names_a_card_hidden_from_it(
    ruleset: str, level: str, games: int, limit: int
) -> None:
    tally = Tally()
    for seed in range(1, games + 1):
        play_and_check(ruleset, level, seed, "vs_com", tally, limit)
    tally.say(f"{ruleset} vs {level}, {games} games")
    assert tally.hidden_checked > 0 and tally.messages > 10
    assert not tally.leaks, tally.leaks[:10]


@pytest.mark.parametrize("ruleset", list(CONFIGS))
def test_no_message_to_a_spectator_of_com_vs_com_names_a_hidden_card(ruleset: str) -> None:
    tally = Tally()
    for seed in range(1, (GAMES or 2) + 1):
        play_and_check(ruleset, "heuristic", seed, "com_vs_com", tally, 10**6)
    tally.say(f"{ruleset} COM vs COM spectator")
    assert tally.hidden_checked > 0
    assert not tally.leaks, tally.leaks[:10]


def test_the_oracle_catches_the_old_why_panel_leak() -> None:
    """The check is not blind: a why panel naming the card COM took is caught."""
    session = Session.create("kobo", CONFIGS["kobo"], 4, "vs_com", "heuristic", 0.0)
    rng = random.Random(4)
    while session.why is None or not str(session.why["action"]).startswith("take"):
        pending = session.live.pending
        assert pending is not None
        if pending.seat in session.com:
            session.com_step()
        else:
            session.act(HUMAN, pending.prompt_id, str(rng.choice(session.live.legal_actions())))
    message = session.view_for(HUMAN, "en", False)
    assert message["com_why"]["action"] == "take …"
    tally = Tally()
    check_message(message, session.live, HUMAN, tally, "redacted")
    assert not tally.leaks
    message["com_why"]["action"] = session.why["action"]  # as the old word list let it through
    check_message(message, session.live, HUMAN, tally, "unredacted")
    assert tally.leaks
