"""Maken under the shared random-playout invariants (termination, card conservation, view
secrecy by resampling, JSON round trip, replay hashes), a walk of the serialized views, and the
leak oracle's check: no view or log line names a card its reader may not know."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

from kessen.engine import registry
from kessen.engine.contract import Json
from kessen.engine.players import Player, RandomPlayer
from kessen.games.maken.cards import CARD
from kessen.games.maken.heuristic import HeuristicPlayer
from kessen.games.maken.state import INST, S_INST, S_OPEN, MakenState
from tests.maken.build import Side, position
from tests.maken.playouts import config, run


def test_random_playouts() -> None:
    """100 seeded random games (all 16 deck pairings), 4 of them deep at every step."""
    result = run(100)
    assert result["games"] == 100


def _walk(data: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    yield path, data
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _walk(value, f"{path}.{key}")
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _walk(value, f"{path}[{index}]")


def check_view(view: Json, viewer: int | None) -> None:
    """Structural hiding: hidden zones are counts, the other seat's hand and set supports carry
    no card, nobody's stamina/LP/gauge/damage is listed, another seat's legal actions hidden."""
    for path, value in _walk(view):
        if isinstance(value, dict):
            assert not {"inst", "instance", "hidden"} & set(value), f"{path}: {sorted(value)}"
    for side in view["players"]:
        for zone in ("lp", "stamina", "gauge", "damage"):
            assert isinstance(side[zone], int), f"{zone} listed"
        if side["seat"] == viewer:
            assert side["hand"]["cards"] is not None
            continue
        assert side["hand"]["cards"] is None
        assert all(e == {"face": "down"} for e in side["support"] if e["face"] == "down")
    pending = view["pending"]
    if pending is not None and pending["seat"] != viewer:
        assert pending["legal"] is None


def _words(cid: str) -> set[str]:
    card = CARD[cid]
    return {cid, card.slug, card.name_ja, card.name_en}


def _hidden_names(state: MakenState, viewer: int | None) -> set[str]:
    """Card ids the reader may not know of: in zones hidden from it and nowhere it can see,
    and in no log part it may read."""
    hidden: set[str] = set()
    known: set[str] = set()
    for seat in (0, 1):
        mine = viewer == seat
        for zone in ("lp", "stamina", "gauge", "damage"):
            hidden |= {state.cards[i] for i in getattr(state, zone)[seat]}
        (known if mine else hidden).update(state.cards[i] for i in state.hand[seat])
        for e in state.support[seat]:
            (known if mine or e[S_OPEN] else hidden).add(state.cards[e[S_INST]])
        known |= {state.cards[i] for i in state.dust[seat] + state.helper[seat]}
        known |= {state.cards[e[INST]] for e in state.field[seat]}
    for event in state.log:
        text = json.dumps(event.visible(viewer), ensure_ascii=False)
        known |= {c for c in CARD if c in text}
    return hidden - known


def _leaks(state: MakenState, viewer: int | None) -> list[str]:
    rules = registry.get("maken")
    view = state.view(viewer, "ja") if viewer is not None else state.view(None, "ja")
    view_en = state.view(viewer, "en")
    bad = _hidden_names(state, viewer)
    if not bad:
        return []
    for v in (view, view_en):
        for side in v["players"]:
            side.pop("deck")  # the public deck lists name every card by design (§5)
        v.pop("config")
    lines = [
        rules.describe(e, lang, viewer)
        for lang, v in (("ja", view), ("en", view_en))
        for e in v["log"]
    ]
    text = json.dumps([view, view_en, lines], ensure_ascii=False)
    found = []
    for cid in bad:
        for word in _words(cid):
            if len(word) > 2 and word in text and not _substring_of_known(word, text, state, cid):
                found.append(f"{cid} ({word})")
    return found


def _substring_of_known(word: str, text: str, state: MakenState, cid: str) -> bool:
    """Whether ``word`` occurs only inside another card's name (連舞 in チェーンコンボ・連舞)."""
    others = [w for c in CARD if c != cid for w in _words(c) if word in w and w != word]
    stripped = text
    for other in others:
        stripped = stripped.replace(other, "")
    return word not in stripped


def test_leak_oracle() -> None:
    """Heuristic against random, every step, both seats and an observer: no hidden card named."""
    for seed in (1, 6, 11, 12):
        state = registry.get("maken").new_game(config(seed), seed)
        assert isinstance(state, MakenState)
        players: list[Player] = [HeuristicPlayer(seed), RandomPlayer(seed)]
        while state.pending is not None:
            for viewer in (0, 1, None):
                check_view(state.view(viewer), viewer)
                leaks = _leaks(state, viewer)
                assert not leaks, f"seed {seed} turn {state.turn} viewer {viewer}: {leaks}"
            seat = state.pending.seat
            state.apply(players[seat].choose(state.view(seat), state.legal_actions()))


def _swap(state: MakenState, inst: int) -> None:
    """Exchange instance ``inst`` (P1's) with a P1 stamina card of the same kind, other id."""
    card = state.card(inst)
    other = next(
        i
        for i in state.stamina[0][:-1]
        if state.card(i).kind == card.kind and state.cards[i] != card.id
    )
    for zone in (state.hand[0], state.stamina[0], state.gauge[0], state.lp[0]):
        for k, i in enumerate(zone):
            zone[k] = other if i == inst else inst if i == other else i
    for entry in state.support[0]:
        if entry[S_INST] == inst:
            entry[S_INST] = other


def test_indistinguishable_states_look_the_same() -> None:
    """Two true states P2 cannot tell apart (P1's hand, set support, gauge, LP and the card it
    draws exchanged for other cards) give P2 the same view, log text included."""
    a = position(
        Side(
            hand=["SO05", "SO06"],
            support=[("SO10", False)],
            gauge=["SO02"],
            lp=["SO04", "SO04", "SO04"],
            stamina_top=["SO01"],
        ),
        Side(),
    )
    b = a.clone()
    _swap(b, b.hand[0][0])
    _swap(b, b.support[0][0][S_INST])
    _swap(b, b.gauge[0][0])
    _swap(b, b.lp[0][-1])
    _swap(b, b.stamina[0][-1])
    assert a.hand[0] != b.hand[0] and a.gauge[0] != b.gauge[0]
    for state in (a, b):
        state.apply(state.legal_actions()[0])  # draw 1: a different card
        state.audit()
    rules = registry.get("maken")
    for lang in ("ja", "en"):
        va, vb = a.view(1, lang), b.view(1, lang)
        assert json.dumps(va, sort_keys=True) == json.dumps(vb, sort_keys=True)
        assert [rules.describe(e, lang, 1) for e in va["log"]] == [
            rules.describe(e, lang, 1) for e in vb["log"]
        ]
        assert a.view(None, lang) == b.view(None, lang)
    assert a.view(0) != b.view(0)


def test_resampled_worlds_keep_the_view() -> None:
    """A resampled world looks the same to its seat at every step of a game (also the
    search's rebuilt world, less its empty log)."""
    from kessen.games.maken.worlds import world_from_view

    state = registry.get("maken").new_game(config(3), 3)
    chooser = random.Random(3)
    while state.pending is not None:
        for seat in (0, 1):
            view = state.view(seat)
            other = state.resample_hidden(seat, chooser.randrange(2**32))
            assert other.view(seat) == view
            world = world_from_view(view, chooser.randrange(2**32))
            world.audit()
            rebuilt = world.view(seat)
            # The aids read from the log (a preview's basis is the exchange's choices in the
            # log, the last judge's record is the log's) are left out with the log; the
            # resampled world above keeps them.
            unlogged: dict[str, Any] = {
                "log": [],
                "first_player": None,
                "resolution": None,
                "previews": None,
            }
            assert {**rebuilt, **unlogged} == {**view, **unlogged}
            assert world.legal_actions() == state.legal_actions() or seat != view["pending"]["seat"]
        legal = state.legal_actions()
        state.apply(legal[chooser.randrange(len(legal))])


def test_no_hidden_card_in_any_view_walk() -> None:
    """Random games of 4 pairings: every seat's and the observer's view passes the walk."""
    for seed in (0, 5, 10, 15):
        state = registry.get("maken").new_game(config(seed), seed)
        chooser = random.Random(seed)
        while state.pending is not None:
            for viewer in (0, 1, None):
                check_view(state.view(viewer), viewer)
            legal = state.legal_actions()
            state.apply(legal[chooser.randrange(len(legal))])
