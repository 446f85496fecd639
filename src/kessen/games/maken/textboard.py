"""Project Maken's plain-text board: a view as a few lines, for ``kessen replay`` and the
PettingZoo environment's ``render()``.

It shows only what the view holds, so it is as secret as the view: the opponent's hand and
face-down support cards are ``▮``, a face-down DA/TA extra names only the card it copies.
"""

from __future__ import annotations

from kessen.engine.contract import Json

_HIDDEN = "▮"

_WORDS = {
    "ja": {
        "turn": "ターン",
        "tp": "TP",
        "phase": "局面",
        "you": "あなた",
        "lp": "LP",
        "stamina": "スタミナ",
        "gauge": "ゲージ",
        "damage": "ダメージ",
        "hand": "手札",
        "dust": "ダスト",
        "helper": "ヘルパー",
        "field": "攻撃場",
        "support": "補助場",
        "total": "攻撃値合計",
        "defenceless": "無防備",
        "none": "—",
        "even": "拮抗",
        "guarding": "ガードしている",
        "guarded": "ガードさせている",
    },
    "en": {
        "turn": "turn",
        "tp": "TP",
        "phase": "prompt",
        "you": "you",
        "lp": "LP",
        "stamina": "stamina",
        "gauge": "gauge",
        "damage": "damage",
        "hand": "hand",
        "dust": "dust",
        "helper": "helper",
        "field": "attack field",
        "support": "support",
        "total": "attack total",
        "defenceless": "defenceless",
        "none": "—",
        "even": "even",
        "guarding": "guarding",
        "guarded": "being guarded",
    },
}


def _name(card: Json) -> str:
    return str(card.get("name") or card.get("card") or _HIDDEN)


def _field_card(card: Json) -> str:
    if card.get("face") == "down":
        return f"[{_name({'name': card.get('copy_of')}) if card.get('copy_of') else _HIDDEN}]"
    data = card.get("data") or {}
    hit = "*" if card.get("hit") else ""
    return f"{_name(card)}{hit}(S{data.get('spd')} {card.get('distance')} A{data.get('atk')})"


def _support_card(card: Json) -> str:
    """An opened support card by name; a set one ``(name)`` for its owner, ``▮`` for others."""
    if card.get("face") != "down":
        return _name(card)
    return f"({_name(card)})" if "name" in card else _HIDDEN


def _situation(view: Json, seat: int, words: dict[str, str]) -> str:
    situation = view.get("situation") or {}
    kind = situation.get("kind")
    if kind == "even":
        return words["even"]
    if kind == "guard":
        return words["guarding"] if situation.get("guarding") == seat else words["guarded"]
    return words["none"]


def _side(view: Json, seat: int, viewer: int | None, words: dict[str, str]) -> list[str]:
    side = view["players"][seat]
    name = f"P{seat + 1} {side['character']['name']}"
    if viewer == seat:
        name += f" ({words['you']})"
    if side.get("tp"):
        name += f" [{words['tp']}]"
    hand = side["hand"]
    cards = hand.get("cards")
    shown = " ".join(_name(c) for c in cards) if cards is not None else _HIDDEN * hand["count"]
    status = _situation(view, seat, words)
    if side.get("defenceless"):
        status += f", {words['defenceless']}"
    counts = " · ".join(
        [
            f"{words['lp']} {side['lp']}",
            f"{words['stamina']} {side['stamina']}",
            f"{words['gauge']} {side['gauge']}",
            f"{words['damage']} {side['damage']}",
            f"{words['dust']} {len(side['dust'])}",
            status,
        ]
    )
    field = " / ".join(_field_card(c) for c in side["field"]) or words["none"]
    support = " ".join(_support_card(c) for c in side["support"]) or words["none"]
    helper = " ".join(_name(c) for c in side["helper"]) or words["none"]
    return [
        f"{name}: {counts}",
        f"    {words['hand']} {hand['count']}: {shown}",
        f"    {words['field']} ({words['total']} {side['total']}): {field}",
        f"    {words['support']}: {support} · {words['helper']}: {helper}",
    ]


def maken_board(view: Json, lang: str = "ja") -> list[str]:
    """A plain-text summary of a Maken view: the turn and prompt, then each side (the
    viewer's last) with its counts, situation, hand, attack field (bottom first), support and
    helper fields, as the viewer may see them."""
    words = _WORDS["ja" if lang == "ja" else "en"]
    viewer = view.get("viewer") if isinstance(view.get("viewer"), int) else None
    bottom = viewer if viewer is not None else 0
    head = f"{words['turn']} {view.get('turn')} · {words['phase']} {view.get('phase')}"
    lines = [head]
    for seat in (1 - bottom, bottom):
        lines.extend(_side(view, seat, viewer, words))
    return lines
