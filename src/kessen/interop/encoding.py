"""Fixed numeric encodings of actions and views, shared by the reinforcement-learning adapters.

Two encodings, both functions of what one seat may know and nothing else:

- **actions** (:class:`ActionCodec`): a fixed table of action texts per ruleset (its index is
  the action id), followed by ``overflow`` slots for legal actions the table does not list.
  Kōbō's table is OpenSpiel's (:func:`kobo_action_table`, the same order as
  ``kessen.interop.openspiel.action_table``) and lists every action Kōbō can offer. TWGP's
  (:func:`twgp_action_table`) lists every action except the counter drive, whose material
  runs are combinatorial: its legal variants take the overflow slots, in the engine's legal
  order. A ruleset without a table uses overflow slots only (action ``k`` is the ``k``-th
  legal action), so any ruleset that honours the contract can be wrapped.
- **views** (:class:`ViewEncoder`): the seat's own view (``GameState.view(seat)``, the only
  redacting function) without its log, hashed into a fixed-size vector (feature hashing:
  every leaf ``path=value`` or numeric ``path`` adds to one of ``size`` cells, the seat's own
  side always first). Two states with the same view give the same vector by construction.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from itertools import combinations
from typing import Any

import numpy as np  # type: ignore[import-not-found, unused-ignore]

from kessen.engine.action import Action
from kessen.engine.contract import Json

FEATURE_BOUND = 65_536.0
"""Every observation cell is clipped to ``[-FEATURE_BOUND, FEATURE_BOUND]``."""
DEFAULT_OBS_SIZE = 4096
"""Cells of the hashed view vector unless a caller asks for another size."""
DEFAULT_OVERFLOW = 64
"""Overflow action slots unless a caller asks for another number."""

# View keys that carry no game information for the seat (presentation, bookkeeping), that a
# card's slug already gives (its kind, printed Lv, label) or that the action mask gives (the
# legal action texts). The log is left out: the observation is the board, not its history.
_SKIP_KEYS = frozenset(
    {
        "log",
        "lang",
        "name",
        "name_ja",
        "name_en",
        "style_ja",
        "style_en",
        "viewer",
        "everything",
        "prompt_id",
        "legal",
        "kind",
        "printed",
        "label",
    }
)

# --- action tables ---------------------------------------------------------------------------

_KOBO_INT_VERBS = ("attack", "target", "slot", "trap", "exclude-trap", "pick")
_KOBO_SLUG_VERBS = ("pick", "play", "take", "exclude", "name")
_KOBO_BARE_VERBS = ("pass", "use", "discard")


@cache
def kobo_action_table() -> tuple[Action, ...]:
    """Every action Kōbō can offer, in OpenSpiel's fixed order (verbs × slots × card slugs)."""
    from kessen.games.kobo.schema import load_pool

    slugs = sorted(load_pool().cards)
    table = [Action.of(v) for v in _KOBO_BARE_VERBS]
    table += [Action.of(v, i) for v in _KOBO_INT_VERBS for i in range(1, 6)]
    table += [Action.of(v, s) for v in _KOBO_SLUG_VERBS for s in slugs]
    return tuple(table)


_TWGP_SQUARES = range(1, 6)  # grid squares (a width-3 grid uses the first three)
_TWGP_BARE = ("done", "battle", "end", "accept", "keep-weapons", "drop-weapons", "shuffle")
_TWGP_SQUARE_VERBS = (
    "setup",
    "reactive",
    "stealth",
    "unstealth",
    "declare-gb",
    "direct",
    "grid-blast",
    "flip",
    "effect",
)
_TWGP_CARD_VERBS = (
    "weapon-back",
    "reload-bottom",
    "reload",
    "recharge",
    "vital",
    "aside",
    "hand",
    "log-out",
)
_TWGP_CARD_SQUARE_VERBS = ("charge-drive", "stealth-drive", "attach", "weapon-move")
_TWGP_RELOAD_TAKE = range(0, 16)  # cards put on the pile's bottom, then taken back
_TWGP_FULL_CHARGE = range(1, 6)
_TWGP_BOOST = range(1, 6)


@cache
def twgp_action_table() -> tuple[Action, ...]:
    """Every TWGP action except ``counter-drive`` (its material runs go to overflow slots).

    Squares 1–5, card slugs of the 54-card pack; a power drive lists its core square, the new
    unit (base power 04 or more) and any set of other squares in ascending order.
    """
    from kessen.games.twgp.cards import CARDS

    slugs = [c.slug for c in CARDS]
    big_units = [c.slug for c in CARDS if c.is_unit and (c.base or 0) >= 4]
    table = [Action.of(v) for v in _TWGP_BARE]
    table += [Action.of(v, i) for v in _TWGP_SQUARE_VERBS for i in _TWGP_SQUARES]
    table += [Action.of(v, s) for v in _TWGP_CARD_VERBS for s in slugs]
    table += [
        Action.of(v, s, i) for v in _TWGP_CARD_SQUARE_VERBS for s in slugs for i in _TWGP_SQUARES
    ]
    table += [Action.of("reload-take", k) for k in _TWGP_RELOAD_TAKE]
    table += [Action.of("surge", k) for k in (1, 2)]
    table += [Action.of("full-charge", n) for n in _TWGP_FULL_CHARGE]
    for a in _TWGP_SQUARES:
        for t in _TWGP_SQUARES:
            table.append(Action.of("assault", a, t))
            table += [Action.of("surge-assault", a, t, k) for k in (1, 2)]
            table += [Action.of("boost", a, t, d) for d in _TWGP_BOOST]
    for core in _TWGP_SQUARES:
        others = [i for i in _TWGP_SQUARES if i != core]
        for size in range(len(others) + 1):
            for chosen in combinations(others, size):
                for unit in big_units:
                    table.append(Action.of("power-drive", core, unit, *chosen))
                    table.append(Action.of("power-drive-gb", core, unit, *chosen))
    return tuple(dict.fromkeys(table))


@cache
def maken_action_table() -> tuple[Action, ...]:
    """Every action Project Maken can offer: the bare verbs, draws, support-card verbs × cards,
    cancels × attack cards, and bets (verb × attack card × single / DA / TA with its options)."""
    from kessen.games.maken.cards import CARD
    from kessen.games.maken.rules import DA_OPTIONS, TA_OPTIONS, bet_word

    attack = sorted(c.id for c in CARD.values() if c.kind == "attack")
    support = sorted(c.id for c in CARD.values() if c.kind == "support")
    bare = ("keep", "mulligan", "end", "guard", "gb", "judge", "pay-rest-from-gauge", "decline")
    table = [Action.of(v) for v in bare]
    table += [Action.of("draw", n) for n in (1, 2, 3)]
    table += [
        Action.of(v, CARD[c].slug) for v in ("set", "open", "clear", "clear-set") for c in support
    ]
    table += [Action.of("cancel", CARD[c].slug) for c in attack]
    for verb in ("fb", "attack", "gc", "bonus"):
        for card in attack:
            table.append(Action.of(verb, bet_word(card, 1)))
            table += [Action.of(verb, bet_word(card, 2), o) for o in DA_OPTIONS]
            table += [Action.of(verb, bet_word(card, 3), o) for o in TA_OPTIONS]
    return tuple(table)


ACTION_TABLES: dict[str, Callable[[], tuple[Action, ...]]] = {
    "kobo": kobo_action_table,
    "twgp": twgp_action_table,
    "maken": maken_action_table,
}
"""Per ruleset, the function that lists its fixed action table; a later ruleset adds its own
here (without one, every action takes an overflow slot)."""


class ActionCodec:
    """Action ids ``0 .. size-1``: the ruleset's table, then ``overflow`` slots.

    The overflow slots hold, in the engine's legal order, the legal actions the table does not
    list; they are renumbered at every decision, and the observation describes them.
    """

    def __init__(self, table: Sequence[Action], overflow: int) -> None:
        if overflow < 0:
            raise ValueError("overflow must be 0 or more")
        self.table: tuple[Action, ...] = tuple(table)
        self.ids: dict[Action, int] = {a: i for i, a in enumerate(self.table)}
        if len(self.ids) != len(self.table):
            raise ValueError("the action table lists an action twice")
        self.overflow = overflow
        self.size = len(self.table) + overflow
        if self.size == 0:
            raise ValueError("an empty action encoding")

    @staticmethod
    def for_ruleset(ruleset: str, overflow: int = DEFAULT_OVERFLOW) -> ActionCodec:
        """The codec of ``ruleset``: its table (if one is known) and ``overflow`` slots."""
        table = ACTION_TABLES.get(ruleset)
        return ActionCodec(table() if table is not None else (), overflow)

    def extras(self, legal: Iterable[Action]) -> list[Action]:
        """The legal actions outside the table, in legal order (they take the overflow slots).

        Raises ``RuntimeError`` if there are more than the slots: the encoding could not offer
        them all, and a game whose choices were cut would not be this ruleset's game.
        """
        ids = self.ids
        out = [a for a in legal if a not in ids]
        if len(out) > self.overflow:
            raise RuntimeError(
                f"{len(out)} legal actions are outside the action table but only "
                f"{self.overflow} overflow slots exist; raise the overflow setting"
            )
        return out

    def mask(self, legal: Sequence[Action]) -> Any:
        """The legal actions as a 0/1 ``int8`` vector of length :attr:`size`."""
        out = np.zeros(self.size, dtype=np.int8)
        ids = self.ids
        extra = 0
        base = len(self.table)
        for action in legal:
            index = ids.get(action)
            if index is None:
                index = base + extra
                extra += 1
                if extra > self.overflow:
                    self.extras(legal)  # raises with the message
            out[index] = 1
        return out

    def decode(self, index: int, legal: Sequence[Action]) -> Action:
        """The action with id ``index`` among ``legal``; ``ValueError`` if it is not legal."""
        if not 0 <= index < self.size:
            raise ValueError(f"action id {index} is outside 0..{self.size - 1}")
        base = len(self.table)
        if index < base:
            action = self.table[index]
            if action in legal:
                return action
            raise ValueError(f"action id {index} ({action}) is not legal now")
        extras = self.extras(legal)
        slot = index - base
        if slot < len(extras):
            return extras[slot]
        raise ValueError(f"action id {index} (overflow slot {slot}) holds no legal action now")

    def encode(self, action: Action, legal: Sequence[Action]) -> int:
        """The id of the legal ``action`` (the inverse of :meth:`decode`)."""
        index = self.ids.get(action)
        if index is not None:
            return index
        extras = self.extras(legal)
        if action not in extras:
            raise ValueError(f"{action} is not legal now")
        return len(self.table) + extras.index(action)


# --- views -----------------------------------------------------------------------------------


class ViewEncoder:
    """A seat's view (without its log) as a fixed-size ``float32`` vector, by feature hashing.

    Every leaf of the view adds to one cell: a number (or bool, as 1 or 0) adds its value at
    the cell of its path, a text or ``None`` adds 1 at the cell of ``path=value``, and every
    list adds its length at ``path.#``. List positions are part of paths (slot 3 is not slot
    4); the viewer's own side of ``players`` is renamed ``me`` and the other ``them``, so one
    policy can play either seat. The overflow actions are described the same way under
    ``extra.k``. The vector is a sum, so it depends on the view's content only (not on the
    order of its keys), and an encoder may reuse the pairs of a subtree equal to one it saw.
    """

    def __init__(self, size: int = DEFAULT_OBS_SIZE) -> None:
        if size < 16:
            raise ValueError("the observation needs at least 16 cells")
        self.size = size
        # Per path: its cell, its children (key or index -> child path), the cells of its texts
        # (value -> cell of ``path=value``) and the cell of its length (``path.#``). The paths
        # and texts of a ruleset's views are few; the tables stop growing once seen.
        self._nodes: dict[str, _Node] = {}
        self._texts_seen = 0

    def _hash(self, key: str) -> int:
        return zlib.crc32(key.encode()) % self.size

    def _node(self, path: str) -> _Node:
        node = self._nodes.get(path)
        if node is None:
            node = self._nodes[path] = _Node(path, self._hash(path), self._hash(path + ".#"))
        return node

    def _child(self, node: _Node, key: Any) -> _Node:
        child = self._node(f"{node.path}.{key}")
        node.children[key] = child
        return child

    def _text(self, node: _Node, value: Any) -> int:
        self._texts_seen += 1
        if self._texts_seen > 1_000_000:  # unbounded texts in views: start afresh
            self._nodes.clear()
            self._texts_seen = 0
        cell = node.texts[value] = self._hash(f"{node.path}={value}")
        return cell

    def encode(self, view: Json, extras: Sequence[Action] = ()) -> Any:
        """The vector of ``view`` (the seat's own) and of the overflow actions ``extras``."""
        viewer = view.get("viewer")
        top: list[tuple[str, Any]] = []
        for key, value in view.items():
            if key in _SKIP_KEYS:
                continue
            if key == "players" and isinstance(value, list) and isinstance(viewer, int):
                top += [("me" if i == viewer else "them", side) for i, side in enumerate(value)]
            else:
                top.append((key, value))
        top += [(f"extra.{k}", [a.verb, *a.args]) for k, a in enumerate(extras)]
        cells: list[int] = []
        values: list[float] = []
        skip = _SKIP_KEYS
        for path, item in top:
            node = self._node(path)
            if type(item) is dict:
                children = node.children
                for key, value in item.items():
                    if key not in skip:
                        child = children.get(key) or self._child(node, key)
                        self._memo_walk(child, value, viewer, cells, values)
            else:
                self._memo_walk(node, item, viewer, cells, values)
        out = np.zeros(self.size, dtype=np.float32)
        np.add.at(out, np.asarray(cells, dtype=np.intp), np.asarray(values, dtype=np.float32))
        np.clip(out, -FEATURE_BOUND, FEATURE_BOUND, out=out)
        return out

    def _memo_walk(
        self, node: _Node, item: Any, viewer: Any, cells: list[int], values: list[float]
    ) -> None:
        """Add the pairs of the subtree ``item`` at ``node``, reusing the pairs of the last
        subtree seen there by the same viewer if it is equal (most of a board stays the same
        from one decision to the next, and comparing is much cheaper than walking)."""
        kind = type(item)
        if kind is int or kind is float or kind is bool:
            cells.append(node.cell)
            values.append(float(item))
            return
        if kind is not dict and kind is not list:
            self._walk(node, item, cells, values)
            return
        memo = node.memo.get(viewer)
        # An identical object may have been changed in place since: only an equal copy counts.
        if memo is not None and memo[0] is not item and memo[0] == item:
            cells.extend(memo[1])
            values.extend(memo[2])
            return
        own_cells: list[int] = []
        own_values: list[float] = []
        self._walk(node, item, own_cells, own_values)
        node.memo[viewer] = (item, own_cells, own_values)
        cells.extend(own_cells)
        values.extend(own_values)

    def _walk(self, root: _Node, item: Any, cells: list[int], values: list[float]) -> None:
        """Add the (cell, value) pairs of every leaf of ``item``, found at path ``root``."""
        add_cell = cells.append
        add_value = values.append
        skip = _SKIP_KEYS
        todo: list[tuple[_Node, Any]] = [(root, item)]
        while todo:
            node, item = todo.pop()
            kind = type(item)
            if kind is dict:
                pairs: Iterable[tuple[Any, Any]] = item.items()
            elif kind is list or kind is tuple:
                add_cell(node.length)
                add_value(float(len(item)))
                pairs = enumerate(item)
            else:
                pairs = ((None, item),)
            children = node.children
            for key, value in pairs:
                if key is None:
                    child = node
                elif key in skip:
                    continue
                else:
                    child = children.get(key) or self._child(node, key)
                kind = type(value)
                if kind is dict or kind is list or kind is tuple:
                    todo.append((child, value))
                elif kind is bool:
                    add_cell(child.cell)
                    add_value(1.0 if value else 0.0)
                elif kind is int or kind is float:
                    add_cell(child.cell)
                    add_value(float(value))
                else:
                    text = child.texts.get(value)
                    add_cell(text if text is not None else self._text(child, value))
                    add_value(1.0)


class _Node:
    """One path of a view: its cell, its length's cell, its children and its texts' cells."""

    __slots__ = ("cell", "children", "length", "memo", "path", "texts")

    def __init__(self, path: str, cell: int, length: int) -> None:
        self.path = path
        self.cell = cell
        self.length = length
        self.children: dict[Any, _Node] = {}
        self.texts: dict[Any, int] = {}
        # Per viewer: the last subtree seen at this path and its (cells, values).
        self.memo: dict[Any, tuple[Any, list[int], list[float]]] = {}
