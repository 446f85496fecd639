"""Kōbō with the surprise zone on: random playouts keep every invariant, views hide the
face-down card, worlds rebuilt from a view match it, and the leak oracle finds nothing.

The fast version of the suite's random-playout invariants (``tests/test_invariants.py``) for
the option: ``KESSEN_SURPRISE_GAMES=N`` plays N games instead of :data:`GAMES` (the report's
2,000-game run).
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from typing import Any

import pytest

from kessen.engine.contract import Json
from kessen.engine.invariants import random_playout
from kessen.games.kobo.decks import starter_decks
from kessen.games.kobo.game import new_game
from kessen.games.kobo.state import KoboState
from kessen.games.kobo.worlds import world_from_view
from kessen.server.session import SPECTATOR, Session
from tests.test_leak_oracle import HUMAN, Tally, check_message

GAMES = int(os.environ.get("KESSEN_SURPRISE_GAMES", "100"))
DECKS = sorted(starter_decks(options={"surprise"}))


def _config(seed: int) -> Json:
    other = DECKS[seed % len(DECKS)]
    decks = ["ambush", other] if seed % 2 else [other, "ambush"]
    cancelled = "stay" if seed % 3 == 0 else "rule_process"
    return {"decks": decks, "best_of": 1, "surprise": True, "cancelled_surprise": cancelled}


def _walk(data: Any) -> Iterator[Any]:
    yield data
    if isinstance(data, dict):
        for value in data.values():
            yield from _walk(value)
    elif isinstance(data, list):
        for value in data:
            yield from _walk(value)


def _check_surprise_view(view: Json, viewer: int | None) -> None:
    """As the suite's view walk: no instance-like key, hidden hands and face-down cards carry
    no name, another seat's legal actions are not shown; a face-down surprise card of another
    seat is only its face and stamp."""
    for value in _walk(view):
        if isinstance(value, dict):
            assert not {"id", "card_id", "instance", "instance_id"} & set(value)
    for side in view["players"]:
        if side["seat"] != viewer:
            assert side["hand"]["cards"] is None and side["tactics_hand"]["cards"] is None
            for value in _walk(side):
                if isinstance(value, dict) and value.get("face") == "down":
                    assert "slug" not in value, value
    pending = view["pending"]
    if pending is not None and pending["seat"] != viewer:
        assert pending["legal"] is None
    for side in view["players"]:
        for entry in side["surprise"]:
            if entry["face"] == "down" and side["seat"] != viewer:
                assert set(entry) == {"face", "stamp"}, entry


CHUNKS = 4


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_playouts_with_the_option_on(chunk: int) -> None:
    """Every game ends before its turn limit; audit, secrecy (resampling included), JSON
    round trip and replay hashes hold at every deep step; the zone is used."""
    used = steps = deep_steps = 0
    games = range(chunk, GAMES, CHUNKS)
    for seed in games:
        deep = 1 if seed < 12 else 25
        report = random_playout("kobo", _config(seed), seed, deep_every=deep)
        final = report.final
        assert isinstance(final, KoboState)
        assert final.pending is None and report.outcome is not None, seed
        assert not any(reason == "turn_limit" for _, reason, _ in final.results), seed
        used += sum(1 for e in final.log if e.kind.startswith("surprise_"))
        steps += report.steps
        deep_steps += report.steps if deep == 1 else report.steps // deep
        if seed % 10 == 0:
            for viewer in (0, 1, None):
                _check_surprise_view(final.view(viewer), viewer)
    print(  # shown with -s: the figures of a long run
        f"chunk {chunk}: {len(games)} games, {steps} steps, ~{deep_steps} deep-checked, "
        f"{used} surprise events"
    )
    assert used > 0


def test_views_hide_the_face_down_card_and_worlds_match_the_view() -> None:
    """At every step of some games: the views walk clean; a world rebuilt from the deciding
    seat's view shows the same view and offers the same actions, and plays on to the end."""
    checked = 0
    for seed in range(6):
        state = new_game(_config(seed), 500 + seed)
        rng = random.Random(seed)
        while state.pending is not None:
            seat = state.pending.seat
            view = state.view(seat)
            _check_surprise_view(view, seat)
            _check_surprise_view(state.view(None), None)
            if state.turn > 0 and (state.pending.prompt == "surprise" or rng.random() < 0.1):
                world = world_from_view(view, seed, keep_log=True)
                assert world.view(seat) == view
                assert world.legal_actions() == state.legal_actions()
                world.audit()
                checked += 1
                if checked % 7 == 0:
                    while world.pending is not None:
                        world.apply(rng.choice(world.legal_actions()))
                        world.audit()
            state.apply(rng.choice(state.legal_actions()))
    assert checked > 20


@pytest.mark.parametrize(
    ("level", "limit"), [("heuristic", 10**6), ("ismcts-easy", 10**6), ("ismcts-strong", 4)]
)
def test_the_leak_oracle_with_the_option_on(level: str, limit: int) -> None:
    """Every message to the player (or to a spectator of COM vs COM) is free of the names of
    the cards hidden from it, the opponent's face-down surprise card included."""
    tally = Tally()
    for seed, mode in ((1, "vs_com"), (2, "vs_com"), (3, "com_vs_com")):
        config = {**_config(seed), "decks": ["ambush", "ambush"]}
        session = Session.create("kobo", config, seed, mode, level, 0.0)  # type: ignore[arg-type]
        reader = HUMAN if mode == "vs_com" else SPECTATOR
        rng = random.Random(seed)
        decisions = 0
        while session.live.pending is not None and decisions < limit:
            where = f"{level}/{mode}/seed {seed}/step {len(session.actions)}"
            lang = "ja" if decisions % 2 else "en"
            check_message(session.view_for(reader, lang, False), session.live, HUMAN, tally, where)
            pending = session.live.pending
            if pending.seat in session.com:
                session.com_step()
                decisions += 1
                continue
            session.act(HUMAN, pending.prompt_id, str(rng.choice(session.live.legal_actions())))
    tally.say(f"surprise zone vs {level}")
    assert tally.hidden_checked > 0 and not tally.leaks, tally.leaks[:5]
