"""The deep model's value network: a sampled world's inputs and the network's chance to win.

The network (its weights in ``data/value_net.json``, written by
``bench/fit_kobo_value_net.py`` from heuristic self-play outcomes) reads, for the seat to
move and then the other seat, the same per-seat features as the logistic curve
(:func:`kessen.games.kobo.evaluate.features`: the characters' count, Lv sum, strongest Lv
and weak ones, the tactics deck's size, the passes, the playable tactics, and one count per
face-down trap and per tactic in hand), and answers the mover's chance to win the game being
played. One hidden layer of rectified units, read here with plain arithmetic over the inputs
that are not zero (most card counts are).

The inputs come from the state the search hands the evaluation: a world sampled from the
deciding seat's view, never the true state. A trap or tactic the network never saw (a custom
card pool) counts as an even share of every card of its kind, as the curve counts it at its
kind's mean weight.
"""

from __future__ import annotations

import json
import math
from functools import cache
from pathlib import Path
from typing import Any, Final

from kessen.games.kobo.state import EMPTY, SLOTS, TDECK, THAND, KoboState

WEIGHTS_PATH: Final = Path(__file__).parent / "data" / "value_net.json"
"""The network's weights (``features``, ``hidden_weights`` one row per input, ``hidden_bias``,
``out_weights``, ``out_bias``)."""
_NET: Final[dict[str, Any]] = json.loads(WEIGHTS_PATH.read_text(encoding="utf-8"))
FEATURES: Final[tuple[str, ...]] = tuple(_NET["features"])
"""The per-seat inputs, in order: the mover's, then the other seat's."""
_INDEX: Final[dict[str, int]] = {name: i for i, name in enumerate(FEATURES)}
_WIDTH: Final = len(FEATURES)
_ROWS: Final[tuple[tuple[float, ...], ...]] = tuple(tuple(r) for r in _NET["hidden_weights"])
_BIAS: Final[tuple[float, ...]] = tuple(_NET["hidden_bias"])
_OUT: Final[tuple[float, ...]] = tuple(_NET["out_weights"])
_OUT_BIAS: Final[float] = float(_NET["out_bias"])
_CHARS: Final = _INDEX["chars"]
_LV: Final = _INDEX["lv"]
_LV_MAX: Final = _INDEX["lv_max"]
_WEAK: Final = _INDEX["weak"]
_TDECK: Final = _INDEX["tdeck"]
_PASSES: Final = _INDEX["passes"]
_PLAYABLE: Final = _INDEX["playable"]


@cache
def card_inputs(kind: str, slug: str) -> tuple[tuple[int, float], ...]:
    """The inputs one card of ``kind`` (``trap`` or ``tac``) counts in: its own, or an even
    share of every card of its kind where the network never saw it."""
    key = f"{kind}:{slug}"
    if key in _INDEX:
        return ((_INDEX[key], 1.0),)
    same_kind = [i for name, i in _INDEX.items() if name.startswith(kind + ":")]
    return tuple((i, 1.0 / len(same_kind)) for i in same_kind)


def battle_summary(state: KoboState, seat: int) -> tuple[int, int, int, int]:
    """``seat``'s characters in play: their count, Lv sum, strongest Lv, and how many are of
    Lv 1 or less (the board features of the curve and of the network)."""
    start = seat * SLOTS
    chars = lv_sum = lv_max = weak = 0
    for card in state.battle[start : start + SLOTS]:
        if card != EMPTY:
            lv = state.lv(card)
            chars += 1
            lv_sum += lv
            lv_max = lv if lv > lv_max else lv_max
            weak += lv <= 1
    return chars, lv_sum, lv_max, weak


def seat_terms(state: KoboState, seat: int) -> list[tuple[int, float]]:
    """``seat``'s inputs that are not zero, as (index in :data:`FEATURES`, value) terms; an
    index may come more than once (one term per card)."""
    defs = state.defs
    start = seat * SLOTS
    chars, lv_sum, lv_max, weak = battle_summary(state, seat)
    free = 0
    terms: list[tuple[int, float]] = []
    faceup = state.faceup
    for card in state.strategy[start : start + SLOTS]:
        if card == EMPTY:
            free += 1
        elif not faceup[card]:
            terms += card_inputs("trap", defs[card].slug)
    hand = state.zone(seat, THAND)
    for card in hand:
        terms += card_inputs("tac", defs[card].slug)
    board = (
        (_CHARS, chars),
        (_LV, lv_sum),
        (_LV_MAX, lv_max),
        (_WEAK, weak),
        (_TDECK, len(state.zone(seat, TDECK))),
        (_PASSES, state.passes[seat]),
        (_PLAYABLE, min(free, len(hand))),
    )
    terms += [(index, float(value)) for index, value in board if value]
    return terms


def seat_inputs(state: KoboState, seat: int) -> dict[int, float]:
    """``seat``'s inputs that are not zero, by index in :data:`FEATURES`."""
    out: dict[int, float] = {}
    for index, value in seat_terms(state, seat):
        out[index] = out.get(index, 0.0) + value
    return out


def _add_row(hidden: list[float], row: int, value: float) -> None:
    """Add ``value`` times the weights of input ``row`` to the hidden units."""
    weights = _ROWS[row]
    for j in range(len(hidden)):
        hidden[j] += value * weights[j]


def _output(hidden: list[float]) -> float:
    """The output unit's chance from the hidden units' sums (rectified here)."""
    logit = _OUT_BIAS
    for j in range(len(hidden)):
        h = hidden[j]
        if h > 0.0:
            logit += h * _OUT[j]
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, logit))))


def net_odds(state: KoboState) -> float:
    """Seat 0's chance to win the current game, as the value network judges it."""
    mover = 0 if state.turn_player == 0 else 1
    hidden = list(_BIAS)
    for index, value in seat_terms(state, mover):
        _add_row(hidden, index, value)
    for index, value in seat_terms(state, 1 - mover):
        _add_row(hidden, _WIDTH + index, value)
    chance = _output(hidden)
    return chance if mover == 0 else 1.0 - chance
