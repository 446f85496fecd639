"""The board as a seat's log tells it: a replay of the public (and the seat's own private) log
events that gives, after any event, what the view would have shown then.

A stepped playback draws the table as it was at each step of a judge; the state keeps no past
boards, so :class:`Tally` rebuilds them from the viewer's log alone: the counts of every pile
(LP, stamina, hand, gauge, damage, dust), the dust's cards, the helper field, both attack
fields with their locked data and hit marks, the support fields (opened cards with their
opening order; set cards face-down, their face only for their owner), 無防備, the TP, the
exchange's situation and the judge. Nothing hidden from the viewer is read: the events it folds
are ``Event.visible(viewer)``. ``tests/maken/test_clarity.py`` checks over random games that
the replay of a view's log equals that view (:func:`board_of_view` is the comparison's shape).

Where one event stands for several moves (a ダスト送り of a helper-paid card writes a ``helper``
event, other cards go to the dust silently), the replay follows the order of ``flow.py``: the
``helper`` events of a batch precede its summary event (``pay``, ``extras``, ``cleanup``,
``expire``) and follow a ``clear``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as slot
from typing import Any

from kessen.engine.contract import Json
from kessen.games.maken.cards import STATS, distance_text
from kessen.games.maken.rules import FACE_DOWN_OPTIONS

Entry = Mapping[str, Any]
LP_CARDS = 3

# Tracked attack-field entry: [card, down, spd, front, back, atk, cost, gain, hit, helper_paid]
F_CARD, F_DOWN, F_HIT, F_HP = 0, 1, 8, 9
DATA = slice(2, 8)


@dataclass
class SideTally:
    """One seat's zones as the log tells them."""

    lp: int
    stamina: int
    hand: int = 0
    gauge: int = 0
    damage: int = 0
    dust: list[str] = slot(default_factory=list)
    helper: list[str] = slot(default_factory=list)
    field: list[list[Any]] = slot(default_factory=list)
    support: list[dict[str, Any]] = slot(default_factory=list)
    """Support entries: ``card`` (``None`` when the viewer cannot know it), ``open``, ``hp``,
    ``order`` (opening order) and ``turn`` (the turn it was opened)."""
    hand_cards: list[str] | None = None
    defenceless_until: int = -1

    def total(self) -> int:
        """攻撃値合計 of the attack field."""
        return sum(int(e[5]) for e in self.field)


class Tally:
    """Folds a viewer's log events, one at a time, into the board they describe."""

    def __init__(
        self, sizes: Sequence[int], viewer: int | None, refresh: bool, lp_to: str = "hand"
    ) -> None:
        self.viewer = viewer
        self.refresh = refresh
        self.lp_to = lp_to
        self.sides = [SideTally(LP_CARDS, n - LP_CARDS) for n in sizes]
        if viewer is not None:
            self.sides[viewer].hand_cards = []
        self.turn = 0
        self.tp = 0
        self.open_seq = 0
        self.sit = "none"
        self.guarding: int | None = None
        self.actor: int | None = None
        self.judge: dict[str, Any] | None = None
        self.last_bet: Entry | None = None
        self._helpers: list[Entry] = []
        self._skip = -1
        self._finish = ""

    # -- the fold ---------------------------------------------------------------------------

    def run(self, log: Sequence[Entry], until: int | None = None) -> Tally:
        """Fold ``log[:until]`` (all of it when ``until`` is ``None``); returns ``self``."""
        end = len(log) if until is None else until
        for i in range(end):
            self.step(log, i)
        return self

    def step(self, log: Sequence[Entry], i: int) -> None:
        """Fold event ``i`` of ``log`` (the next one may be read: a ``clear``'s helper)."""
        if i == self._skip:
            return
        e = log[i]
        kind = str(e["kind"])
        if kind == "helper":
            self._helpers.append(e)
            return
        handler = getattr(self, "_" + kind.replace("-", "_"), None)
        if handler is not None:
            handler(e, log, i)

    def _send(self, seat: int, card: str) -> None:
        """ダスト送り of one card: to the helper field if a buffered ``helper`` event names
        it (the card it pushes out goes to the dust), else to the dust."""
        side = self.sides[seat]
        for k, h in enumerate(self._helpers):
            if int(h["seat"]) == seat and h["card"] == card:
                del self._helpers[k]
                side.dust += [str(c) for c in h["pushed"]]
                side.helper = [card]
                return
        side.dust.append(card)

    # -- events ---------------------------------------------------------------------------

    def _setup(self, e: Entry, log: Sequence[Entry], i: int) -> None:
        self.tp = int(e["tp"])

    def _turn(self, e: Entry, log: Sequence[Entry], i: int) -> None:
        self.turn, self.tp = int(e["turn"]), int(e["tp"])

    def _draw(self, e: Entry, log: Sequence[Entry], i: int) -> None:
        side = self.sides[int(e["seat"])]
        n = int(e["n"])
        side.stamina -= n
        side.hand += n
        if side.hand_cards is not None and "cards" in e:
            side.hand_cards += [str(c) for c in e["cards"]]
        bet = self.last_bet
        if e.get("why") == "multi" and bet is not None and bet.get("option") in FACE_DOWN_OPTIONS:
            mine = self.sides[int(bet["seat"])].field
            for entry in mine[len(mine) - int(bet["n"]) : len(mine) - 1]:
                entry[F_DOWN] = 1

    def _mulligan(self, e: Entry, log: Sequence[Entry], i: int) -> None:
        if e["again"]:
            side = self.sides[int(e["seat"])]
            side.stamina += side.hand
            side.hand = 0
            if side.hand_cards is not None:
                side.hand_cards = []

    def _gauge(self, e: Entry, log: Sequence[Entry], i: int) -> None:
        side = self.sides[int(e["seat"])]
        side.stamina -= int(e["n"])
        side.gauge += int(e["n"])

    def _drain(self, e: Entry, log: Sequence[Entry], i: int) -> None:
        side = self.sides[int(e["seat"])]
        side.gauge -= len(e["cards"])
        side.dust += [str(c) for c in e["cards"]]

    def _set(self, e: Entry, log: Sequence[Entry], i: int) -> None:
        side = self.sides[int(e["seat"])]
        side.hand -= 1
        card = e.get("card")
        if side.hand_cards is not None and card is not None:
            side.hand_cards.remove(str(card))
        side.support.append({"card": card, "open": False, "hp": False, "order": -1, "turn": 0})

    def _open(self, e: Entry, log: Sequence[Entry], i: int) -> None:
        seat = int(e["seat"])
        side = self.sides[seat]
        card = str(e["card"])
        waiting = [s for s in side.support if not s["open"]]
        entry = next((s for s in waiting if s["card"] == card), None)
        if entry is None:  # a set card the viewer could not see
            entry = next(s for s in waiting if s["card"] is None)
        entry.update(
            card=card, open=True, hp=int(e["helper"]) > 0, order=self.open_seq, turn=self.turn
        )
        self.open_seq += 1
        side.gauge -= len(e["paid"])
        side.dust += [str(c) for c in e["paid"]]

    def _clear(self, e: Entry, log: Sequence[Entry], i: int) -> None:
        seat = int(e["seat"])
        side = self.sides[seat]
        card = str(e["card"])
        opened = bool(e.get("opened"))
        match = [s for s in side.support if s["open"] == opened and s["card"] == card]
        if not match and not opened:
            match = [s for s in side.support if not s["open"] and s["card"] is None]
        side.support.remove(match[0])
        nxt = log[i + 1] if i + 1 < len(log) else None
        if nxt is not None and nxt["kind"] == "helper" and int(nxt["seat"]) == seat:
            self._helpers.append(nxt)
            self._skip = i + 1
        self._send(seat, card)

    def _bet(self, e: Entry, log: Sequence[Entry], i: int) -> None:
        seat = int(e["seat"])
        side = self.sides[seat]
        n = int(e["n"])
        card = str(e["card"])
        opp = self.sides[1 - seat]
        top = opp.field[-1] if opp.field else None
        # What the bet was checked against: the opposing top card as it lay (§7.4).
        self.last_bet = {
            **e,
            "vs": None if top is None else {"card": top[F_CARD], "spd": top[2], "back": top[4]},
            "sit": self.sit,
        }
        side.hand -= n
        if side.hand_cards is not None:
            for _ in range(n):
                side.hand_cards.remove(card)
        # What the bet leads to (the situation, the judge's bonus count) happens once it is
        # paid for (flow.finish_bet): at its pay prompt's answer when it has one.
        self._finish = str(e["as"])
        paying = int(e["units"]) > 0 and any(not x[F_DOWN] for x in side.field)
        hit = int(e["as"] in ("gc", "bonus"))
        hp = int(int(e["helper"]) > 0)
        for _ in range(n):
            side.field.append([card, 0, *e["data"], hit, hp])
        if e.get("rv"):
            side.defenceless_until = -1
        if not paying:
            self._finished(seat)

    def _finished(self, seat: int) -> None:
        """The end of a bet's procedure: its situation, or the judge's bonus count."""
        kind, self._finish = self._finish, ""
        if kind == "fb":
            self.sit, self.actor = "even", 1 - seat
        elif kind == "attack":
            self.actor = 1 - seat
        elif kind == "bonus" and self.judge is not None:
            self.judge["bonus"] += 1

    def _pay(self, e: Entry, log: Sequence[Entry], i: int) -> None:
        seat = int(e["seat"])
        side = self.sides[seat]
        for card in e["cancels"]:
            entry = next(x for x in side.field if x[F_CARD] == card and not x[F_DOWN])
            side.field.remove(entry)
            self._send(seat, str(card))
        side.gauge -= len(e["gauge"])
        side.dust += [str(c) for c in e["gauge"]]
        if self._finish:
            self._finished(seat)

    def _extras(self, e: Entry, log: Sequence[Entry], i: int) -> None:
        seat = int(e["seat"])
        mine = self.sides[seat].field
        n = int(e["n"])
        gone = mine[len(mine) - 1 - n : len(mine) - 1]
        del mine[len(mine) - 1 - n : len(mine) - 1]
        for entry in gone:
            self._send(seat, str(entry[F_CARD]))

    def _self(self, e: Entry, log: Sequence[Entry], i: int) -> None:
        self.sides[int(e["seat"])].field[-1][DATA] = list(e["data"])

    def _guard(self, e: Entry, log: Sequence[Entry], i: int) -> None:
        seat = int(e["seat"])
        self.sit, self.guarding, self.actor = "guard", seat, 1 - seat

    def _judge(self, e: Entry, log: Sequence[Entry], i: int) -> None:
        how, hitter = e["how"], e["hitter"]
        if how is None or hitter is None:
            return
        mine = self.sides[int(hitter)].field
        if how == "NORMAL" and mine:
            mine[-1][F_HIT] = 1
        elif how == "GB":
            for entry in mine:
                entry[F_HIT] = 1
        self.judge = {
            "kind": how,
            "hitter": int(hitter),
            "bonus": 0,
            "defenceless": bool(e.get("defenceless")),
        }

    def _placed(self, e: Entry, log: Sequence[Entry], i: int) -> None:
        side = self.sides[int(e["seat"])]
        side.stamina -= int(e["n"])
        side.damage += int(e["n"])

    def _down(self, e: Entry, log: Sequence[Entry], i: int) -> None:
        seat = int(e["seat"])
        side = self.sides[seat]
        side.lp = int(e["lp"])
        where = str(e.get("to", self.lp_to))
        if where == "hand":
            side.hand += 1
            if side.hand_cards is not None and "card" in e:
                side.hand_cards.append(str(e["card"]))
        elif where == "dust":
            side.dust.append(str(e["card"]))
        else:
            side.gauge += 1
        if side.lp == 0:
            return
        side.stamina += side.damage
        side.damage = 0
        if e.get("exhaustion") and self.refresh:
            side.stamina += len(side.dust)
            side.dust = []
        side.defenceless_until = self.turn + 1

    def _cleanup(self, e: Entry, log: Sequence[Entry], i: int) -> None:
        for seat in (self.tp, 1 - self.tp):
            side = self.sides[seat]
            for entry in side.field:
                if e.get("to") == "gauge" and not entry[F_HP]:
                    side.gauge += 1
                else:
                    self._send(seat, str(entry[F_CARD]))
            side.field = []
        self.sit, self.guarding, self.actor, self.judge = "none", None, None, None
        self.last_bet = None

    def _expire(self, e: Entry, log: Sequence[Entry], i: int) -> None:
        for seat, card in e["cards"]:
            side = self.sides[int(seat)]
            gone = [s for s in side.support if s["open"] and s["card"] == card]
            side.support.remove(max(gone, key=lambda s: s["order"]))
            self._send(int(seat), str(card))

    # -- what the board shows ---------------------------------------------------------------

    def defenceless(self, seat: int) -> bool:
        """無防備 now (§7.7): a 非TP through the turn after its down."""
        return seat != self.tp and self.sides[seat].defenceless_until >= self.turn

    def snapshot(self) -> Json:
        """The board now, in the view's shapes (cards by id; the page names them)."""
        return {
            "turn": self.turn,
            "tp": self.tp,
            "situation": {"kind": self.sit, "guarding": self.guarding, "actor": self.actor},
            "judge": None if self.judge is None else dict(self.judge),
            "players": [self._side(s) for s in (0, 1)],
        }

    def _side(self, seat: int) -> Json:
        side = self.sides[seat]
        own = side.hand_cards is not None
        return {
            "lp": side.lp,
            "stamina": side.stamina,
            "gauge": side.gauge,
            "damage": side.damage,
            "hand": {
                "count": side.hand,
                "cards": None if side.hand_cards is None else sorted(side.hand_cards),
            },
            "dust": {"count": len(side.dust), "top": side.dust[-1] if side.dust else None},
            "helper": list(side.helper),
            "field": [field_entry(e) for e in side.field],
            "total": side.total(),
            "support": support_entries(side.support, own),
            "defenceless": self.defenceless(seat),
            "defenceless_until": side.defenceless_until,
            "tp": seat == self.tp,
        }


def field_entry(e: Sequence[Any]) -> Json:
    """A tracked attack-field entry in the view's shape (without the card's words)."""
    card = str(e[F_CARD])
    if e[F_DOWN]:
        return {
            "face": "down",
            "copy_of": card,
            "atk": e[5],
            "hit": bool(e[F_HIT]),
            "helper_paid": bool(e[F_HP]),
        }
    data = dict(zip(STATS, e[DATA], strict=True))
    return {
        "face": "up",
        "card": card,
        "data": data,
        "distance": distance_text(int(e[3]), int(e[4])),
        "hit": bool(e[F_HIT]),
        "helper_paid": bool(e[F_HP]),
    }


def support_entries(support: Sequence[Mapping[str, Any]], own: bool) -> list[Json]:
    """The support field as the board draws it: opened cards in opening order, then the set
    cards (their face for their owner only)."""
    opened = sorted((s for s in support if s["open"]), key=lambda s: s["order"])
    out: list[Json] = [
        {
            "face": "up",
            "card": s["card"],
            "order": s["order"],
            "opened_turn": s["turn"],
            "helper_paid": s["hp"],
        }
        for s in opened
    ]
    for s in support:
        if not s["open"]:
            out.append({"face": "down", "card": s["card"]} if own else {"face": "down"})
    return out


def tally_of(log: Sequence[Entry], config: Mapping[str, Any], viewer: int | None) -> Tally:
    """A fresh tally for a game of ``config`` seen by ``viewer`` (not yet folded)."""
    from kessen.games.maken.config import parse_config

    cfg = parse_config(config)
    sizes = [sum(int(n) for n in deck["cards"].values()) for deck in cfg.decks]
    return Tally(sizes, viewer, cfg.exhaustion == "refresh", cfg.lp_to)


def board_of_view(view: Mapping[str, Any]) -> Json:
    """A view's board in :meth:`Tally.snapshot`'s shape (for the tests' comparison)."""
    players = []
    for p in view["players"]:
        hand = p["hand"]
        dust = [c["card"] for c in p["dust"]]
        support = [dict(s) for s in p["support"]]
        opened = sorted((s for s in support if s.get("face") == "up"), key=lambda s: s["order"])
        rest = [s for s in support if s.get("face") != "up"]
        players.append(
            {
                "lp": p["lp"],
                "stamina": p["stamina"],
                "gauge": p["gauge"],
                "damage": p["damage"],
                "hand": {
                    "count": hand["count"],
                    "cards": None
                    if hand["cards"] is None
                    else sorted(c["card"] for c in hand["cards"]),
                },
                "dust": {"count": len(dust), "top": dust[-1] if dust else None},
                "helper": [c["card"] for c in p["helper"]],
                "field": [_bare_field(e) for e in p["field"]],
                "total": p["total"],
                "support": [
                    {
                        "face": "up",
                        "card": s["card"],
                        "order": s["order"],
                        "opened_turn": s["opened_turn"],
                        "helper_paid": s["helper_paid"],
                    }
                    for s in opened
                ]
                + [
                    {"face": "down", "card": s["card"]} if "card" in s else {"face": "down"}
                    for s in rest
                ],
                "defenceless": p["defenceless"],
                "defenceless_until": p["defenceless_until"],
                "tp": p["tp"],
            }
        )
    judge = view.get("judge")
    return {
        "turn": view["turn"],
        "tp": view["tp"],
        "situation": dict(view["situation"]),
        "judge": None if judge is None else dict(judge),
        "players": players,
    }


def _bare_field(e: Mapping[str, Any]) -> Json:
    if e["face"] == "down":
        return {k: e[k] for k in ("face", "copy_of", "atk", "hit", "helper_paid")}
    return {k: e[k] for k in ("face", "card", "data", "distance", "hit", "helper_paid")}
