"""Hand-built Maken positions for the scenario tests: put named cards into named zones.

Every instance of a seat stays somewhere (card conservation holds): cards not named go, in a
fixed order, to the counted hidden zones (LP, damage, gauge, stamina) and what is left to the
dust.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kessen.engine.action import Action
from kessen.games.maken.cards import CARD, DECKS
from kessen.games.maken.flow import start_turn
from kessen.games.maken.game import new_game
from kessen.games.maken.state import MakenState


@dataclass
class Side:
    """One seat's zones. Lists name card ids; piles are given top first; counts fill with
    unnamed cards. ``field`` entries: a card id, or (card id, overrides) with keys ``down``,
    ``data`` (6 values), ``hp``, ``hit``. ``support``: (card id, opened)."""

    hand: Sequence[str] = ()
    field: Sequence[Any] = ()
    support: Sequence[tuple[str, bool]] = ()
    helper: Sequence[str] = ()
    lp: Sequence[str] | int = 3
    damage: int = 0
    gauge: Sequence[str] | int = 0
    stamina_top: Sequence[str] = ()
    stamina: int | None = 20
    dust: Sequence[str] = ()


def _take(stock: list[int], state: MakenState, cid: str) -> int:
    for inst in stock:
        if state.cards[inst] == cid:
            stock.remove(inst)
            return inst
    raise ValueError(f"no {cid} left in the deck")


def position(
    p1: Side,
    p2: Side,
    *,
    decks: Sequence[object] = ("SO", "GA"),
    turn: int = 5,
    tp: int = 0,
    config: dict[str, object] | None = None,
) -> MakenState:
    """A state at the start of ``turn`` (TP ``tp``: its draw prompt, unless its stamina is
    empty) with the zones of ``p1`` and ``p2``."""
    cfg: dict[str, object] = {"decks": list(decks), "firstPlayer": tp, **(config or {})}
    state = new_game(cfg, 0)
    state.log = []
    for seat, side in enumerate((p1, p2)):
        stock = list(range(50 * seat, 50 * seat + 50))
        state.hand[seat] = [_take(stock, state, c) for c in side.hand]
        state.helper[seat] = [_take(stock, state, c) for c in side.helper]
        state.dust[seat] = [_take(stock, state, c) for c in side.dust]
        entries = []
        for item in side.field:
            cid, over = (item, {}) if isinstance(item, str) else item
            data = list(over.get("data", CARD[cid].data))
            entries.append(
                [
                    _take(stock, state, cid),
                    int(bool(over.get("down"))),
                    *data,
                    int(bool(over.get("hit"))),
                    int(bool(over.get("hp"))),
                ]
            )
        state.field[seat] = entries
        sup = []
        for n, (cid, opened) in enumerate(side.support):
            sup.append([_take(stock, state, cid), int(opened), 0, n, turn])
        state.support[seat] = sup
        state.open_seq = max(state.open_seq, len(sup))
        top = [_take(stock, state, c) for c in side.stamina_top]
        lp = [_take(stock, state, c) for c in side.lp] if not isinstance(side.lp, int) else []
        gauge = (
            [_take(stock, state, c) for c in side.gauge] if not isinstance(side.gauge, int) else []
        )
        stock = [i for i in stock if CARD[state.cards[i]].kind == "attack"] + [
            i for i in stock if CARD[state.cards[i]].kind == "support"
        ]
        if isinstance(side.lp, int):
            lp = [stock.pop() for _ in range(side.lp)]
        state.lp[seat] = list(reversed(lp))  # top last
        state.damage[seat] = [stock.pop() for _ in range(side.damage)]
        if isinstance(side.gauge, int):
            gauge = [stock.pop() for _ in range(side.gauge)]
        state.gauge[seat] = list(reversed(gauge))
        size = len(stock) + len(top) if side.stamina is None else side.stamina
        rest = [stock.pop() for _ in range(size - len(top))]
        state.stamina[seat] = rest + list(reversed(top))
        state.dust[seat] += stock
    state.turn, state.tp, state.mulled = turn - 1, tp, [0, 0]
    state.prompt_id = 100
    state.legal = None
    start_turn(state)
    state.audit()
    return state


def exchange(state: MakenState, actor: int, guarding: int | None = None) -> MakenState:
    """Jump to the ``act`` prompt of ``actor``: in 拮抗, or with ``guarding`` guarding."""
    state.phase = "act"
    state.actor = actor
    state.sit = "even" if guarding is None else "guard"
    state.guarding = -1 if guarding is None else guarding
    state.legal = None
    return state


def deck(base: str, remove: dict[str, int], add: dict[str, int]) -> dict[str, object]:
    """A starter deck with some counts changed (kept at 50 cards)."""
    cards = dict(DECKS[base].cards)
    for cid, n in remove.items():
        cards[cid] -= n
        if not cards[cid]:
            del cards[cid]
    for cid, n in add.items():
        cards[cid] = cards.get(cid, 0) + n
    return {"character": base, "cards": cards}


def act(state: MakenState, *texts: str) -> None:
    """Apply actions by their texts, each checked against the legal actions."""
    for text in texts:
        action = Action.parse(text)
        legal = state.legal_actions()
        assert action in legal, f"{text} not legal; legal: {[str(a) for a in legal]}"
        state.apply(action)


def legal(state: MakenState) -> list[str]:
    """The legal actions as texts."""
    return [str(a) for a in state.legal_actions()]


def names(state: MakenState, insts: Sequence[int]) -> list[str]:
    """The card ids of instances."""
    return [state.cards[i] for i in insts]


def to_attack(state: MakenState) -> None:
    """From the draw prompt: draw 1 and end the pre-attack step."""
    act(state, "draw 1", "end")
