"""The ``replay`` command: a recorded match of any ruleset printed step by step, verified.

A replay is shown as one seat saw it or whole; a TWGP or Project Maken replay also prints a
plain-text board (:func:`twgp_board`, :func:`kessen.games.maken.textboard.maken_board`) at each
turn start and at the end.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.text import Text

from kessen.cli.common import EXIT_INVALID, RULESET, Lang, UserError, fail, stdout
from kessen.engine import registry
from kessen.engine.contract import GameState, Json, RulesError
from kessen.engine.replay import Replay, ReplayDivergence
from kessen.games.maken.textboard import maken_board
from kessen.store.exchange import replay_record
from kessen.store.html_replay import shown_action

# --------------------------------------------------------------------------------------------
# Replays
# --------------------------------------------------------------------------------------------


class Seat(StrEnum):
    """Whose view a replay is shown from."""

    p1 = "0"
    p2 = "1"
    all = "all"


def _load_replays(path: Path) -> list[Replay]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as err:
        raise UserError(f"{path}: cannot read the file: {err}") from None
    except json.JSONDecodeError as err:
        raise UserError(f"{path}:{err.lineno}:{err.colno}: not JSON: {err.msg}") from None
    except RecursionError:
        raise UserError(f"{path}: JSON nested too deeply to be a replay record") from None
    except ValueError as err:  # e.g. an integer with more digits than Python reads
        raise UserError(f"{path}: not a readable JSON file: {err}") from None
    items: list[Any]
    if isinstance(data, list):
        items = [d.get("replay") if isinstance(d, dict) else None for d in data]
        if not items or any(i is None for i in items):
            raise UserError(
                f"{path}: a results list without replay records (run `kessen sim --replays`)"
            )
    elif isinstance(data, dict) and isinstance(data.get("replay"), dict):
        items = [data["replay"]]
    else:
        items = [data]
    out: list[Replay] = []
    for i, item in enumerate(items):
        try:
            out.append(replay_record(item))
        except (KeyError, TypeError, ValueError, OverflowError) as err:
            raise UserError(f"{path}: replay {i}: not a replay record ({err})") from None
    return out


def _shown_action(action_text: str, actor: int, viewer: int | None, ruleset: str = RULESET) -> str:
    """The action as ``viewer`` may see it: another seat's secret choices are hidden (the
    ruleset's ``secret_action``)."""
    return shown_action(action_text, actor, viewer, ruleset)


_TWGP_WORDS: dict[str, dict[str, str]] = {
    "ja": {
        "turn": "ターン",
        "of": "のターン",
        "setup": "構築",
        "build": "ビルド・フェイズ",
        "battle": "バトル・フェイズ",
        "over": "終了",
        "quiet": "動きのないターン",
        "pile": "山札",
        "hand": "手札",
        "surge": "サージ",
        "storage": "ストレージ",
        "vitals": "ヴァイタル",
        "row_battle": "バトル",
        "row_charge": "チャージ",
        "pow": "パワー",
        "frames": "フレーム",
        "weapons": "ウェポン",
        "lost": "失効",
        "effect": "効果",
        "you": "あなた",
        "switches": "スイッチ",
        "defaults": "すべて既定",
        "active": "表タテ",
        "save": "表ヨコ",
        "stealth": "潜伏",
        "gb": "Gブラスト宣言",
    },
    "en": {
        "turn": "Turn",
        "of": "'s turn",
        "setup": "building",
        "build": "build phase",
        "battle": "battle phase",
        "over": "over",
        "quiet": "quiet turns",
        "pile": "pile",
        "hand": "hand",
        "surge": "surge",
        "storage": "storage",
        "vitals": "vitals",
        "row_battle": "battle",
        "row_charge": "charge",
        "pow": "pow",
        "frames": "frames",
        "weapons": "weapons",
        "lost": "lost",
        "effect": "effect",
        "you": "you",
        "switches": "switches",
        "defaults": "all defaults",
        "active": "active",
        "save": "save",
        "stealth": "stealth",
        "gb": "G-blast declared",
    },
}
_HIDDEN_CARD = "▮"
_EMPTY_SQUARE = "·"


def _label(card: Json | None) -> str:
    return str(card.get("label") or card.get("slug") or "?") if card else "?"


def _twgp_stack(stack: Json | None, words: dict[str, str]) -> str:
    if stack is None:
        return _EMPTY_SQUARE
    pose = words.get(str(stack.get("pose")), str(stack.get("pose")))
    if stack.get("unit") is None:
        return f"{_HIDDEN_CARD} ({pose})"
    text = f"{_label(stack['unit'])} {words['pow']} {stack.get('pow')} ({pose}"
    if stack.get("frames"):
        text += f", {words['frames']} {len(stack['frames'])}"
    if stack.get("weapons"):
        text += f", {words['weapons']} " + "".join(_label(w) for w in stack["weapons"])
    return text + ")"


def _twgp_vital(vital: Json) -> str:
    face = vital.get("face")
    if face == "empty":
        return _EMPTY_SQUARE
    if face == "down":
        return f"{_label(vital)}?" if "label" in vital else _HIDDEN_CARD
    return f"{_label(vital)}" + ("!" if vital.get("status") == "effect" else "×")


def _twgp_side(side: Json, viewer: int | None, words: dict[str, str]) -> list[str]:
    seat = int(side["seat"])
    name = f"P{seat + 1}" + (f" ({words['you']})" if viewer == seat else "")
    hand = side["hand"]
    shown_hand = " ".join(_label(c) for c in hand["cards"]) if hand.get("cards") is not None else ""
    counts = [
        f"{words['pile']} {side['pile']}",
        f"{words['hand']} {hand['count']}" + (f" [{shown_hand}]" if shown_hand else ""),
        f"{words['surge']} {len(side['surge'])}",
        f"{words['storage']} {len(side['storage'])}",
        f"{words['vitals']} " + " ".join(_twgp_vital(v) for v in side["vitals"]),
    ]
    battle = "  ".join(
        f"{i}:{_twgp_stack(stack, words)}" for i, stack in enumerate(side["battle"], start=1)
    )
    charge = "  ".join(
        f"{i}:" + (_EMPTY_SQUARE if c is None else (_label(c) if "label" in c else _HIDDEN_CARD))
        for i, c in enumerate(side["charge"], start=1)
    )
    return [
        f"{name}: " + " · ".join(counts),
        f"    {words['row_battle']}  {battle}",
        f"    {words['row_charge']}  {charge}",
    ]


def twgp_board(view: Json, lang: str = "ja") -> list[str]:
    """A plain-text summary of a TWGP view: the turn, then each side (the viewer's last) with
    its counts, vitals, battle squares and charge squares, as the viewer may see them.

    Hidden cards are ``▮``; a face-down vital the viewer knows is ``♠10?``, a lost vital
    ``♠10×`` and the vital effect ``♠10!``; empty squares ``·``.
    """
    words = _TWGP_WORDS["ja" if lang == "ja" else "en"]
    viewer = view.get("viewer") if isinstance(view.get("viewer"), int) else None
    bottom = viewer if viewer is not None else 0
    phase = words.get(str(view.get("phase")), str(view.get("phase")))
    head = f"{words['turn']} {view.get('turn')}"
    turn_player = view.get("turn_player")
    if isinstance(turn_player, int) and view.get("phase") != "setup":
        head += f" · P{turn_player + 1}{words['of']}"
    head += f" · {phase} · {words['quiet']} {view.get('quiet', 0)}"
    lines = [head]
    for seat in (1 - bottom, bottom):
        lines.extend(_twgp_side(view["players"][seat], viewer, words))
    return lines


def _twgp_switches(view: Json, lang: str) -> str:
    """The switches of a TWGP view that differ from their defaults."""
    words = _TWGP_WORDS["ja" if lang == "ja" else "en"]
    switches = registry.get("twgp").catalog(lang).get("switches", {})
    config = view.get("config", {})
    changed = [
        f"{key}={json.dumps(config[key])}"
        for key, switch in switches.items()
        if key in config and config[key] != switch.get("default")
    ]
    return f"{words['switches']}: " + (", ".join(changed) if changed else words["defaults"])


_BOARDS: dict[str, Callable[[Json, str], list[str]]] = {
    "twgp": twgp_board,
    "maken": maken_board,
}
"""Per ruleset, the plain-text board ``kessen replay`` prints at each turn start and at the
end (Kōbō's replay prints the log only; its board is ``watch``'s)."""


def text_board(ruleset: str) -> Callable[[Json, str], list[str]] | None:
    """The plain-text board of ``ruleset`` (``None``: the ruleset has none here)."""
    return _BOARDS.get(ruleset)


def _actor_label(actor: int, viewer: int | None, lang: str) -> str:
    """The acting seat as the log names it: P1/P2, or you/the opponent for a seat's view."""
    if viewer is None:
        return f"P{actor + 1}"
    if lang == "ja":
        return "あなた" if actor == viewer else "相手"
    return "you" if actor == viewer else "opponent"


def _show_replay(replay: Replay, seat: Seat, lang: str, out: Console) -> None:
    viewer = None if seat is Seat.all else int(seat.value)
    rules = registry.get(replay.ruleset)
    board = _BOARDS.get(replay.ruleset)
    seen = 0
    last_view: Json = {}

    def lines(state: GameState) -> tuple[list[str], bool]:
        """The new log lines of ``state`` and whether a turn started among them."""
        nonlocal seen, last_view
        view = state.view_all(lang) if viewer is None else state.view(viewer, lang)
        last_view = view
        log = view["log"]
        if len(log) < seen:
            seen = 0
        entries = log[seen:]
        seen = len(log)
        turn = any(e.get("kind") == "turn" for e in entries)
        return [rules.describe(e, lang, viewer) for e in entries], turn

    def show_board() -> None:
        if board is not None:
            for line in board(last_view, lang):
                out.print(Text(f"      │ {line}", style="cyan"))

    previous: GameState | None = None
    step = 0
    try:
        for state in replay.states(verify=True):
            if previous is None:
                new, turn = lines(state)
                if replay.ruleset == "twgp":
                    out.print(Text(f"      {_twgp_switches(last_view, lang)}", style="dim"))
            else:
                pending = previous.pending
                actor = pending.seat if pending is not None else -1
                shown = _shown_action(replay.actions[step - 1], actor, viewer, replay.ruleset)
                name = _actor_label(actor, viewer, lang)
                out.print(Text(f"{step:>4}  {name}: {shown}", style="bold"))
                new, turn = lines(state)
            for line in new:
                out.print(Text(f"      {line}"))
            if turn:
                show_board()
            previous = state
            step += 1
    except ReplayDivergence as err:
        fail(
            f"replay diverged at {err} (the rules or the cards changed since this match was "
            "recorded)",
            EXIT_INVALID,
        )
    except RulesError as err:
        raise UserError(f"the replay cannot start: {err}") from None
    except (KeyError, TypeError, ValueError, RecursionError) as err:
        # A config the rules cannot read (a hand-edited record): say so, with the step.
        where = "start" if previous is None else f"step {step}"
        raise UserError(f"the replay cannot go on at {where}: {err!r}", EXIT_INVALID) from None
    outcome = previous.outcome if previous is not None else None
    if board is not None and previous is not None:
        show_board()
    checked = (
        f"{len(replay.hashes)} recorded hashes verified"
        if replay.hashes
        else "no hashes recorded: not verified"
    )
    if outcome is not None:
        winner = "no winner" if outcome.winner is None else f"P{outcome.winner + 1}"
        why = outcome.reason
        if board is not None and last_view.get("turn") is not None:
            why += f", turn {last_view['turn']}"
        out.print(Text(f"result: {winner} ({why}); {checked}", style="green"))
    else:
        out.print(Text(f"the record ends before the match does; {checked}", style="yellow"))


def replay(
    file: Annotated[
        Path,
        typer.Argument(
            help="A replay JSON, a `kessen store export` file, or a list of replay records."
        ),
    ],
    seat: Annotated[
        Seat, typer.Option(help="Show the match as seat 0 or 1 sees it, or all of it.")
    ] = Seat.all,
    lang: Annotated[Lang, typer.Option(help="Language of the log.")] = Lang.ja,
    match: Annotated[
        int | None, typer.Option(help="Only this match of a results file (0-based).")
    ] = None,
) -> None:
    """Print a recorded match of any ruleset (Kōbō, TWGP or Project Maken) step by step,
    verifying its state hashes as it goes; with --seat, as that seat saw it (the other seat's
    hidden cards and secret choices stay hidden). A TWGP or Project Maken replay also prints a
    text board at each turn start and at the end."""
    out = stdout()
    try:
        records = _load_replays(file)
        if match is not None:
            if not 0 <= match < len(records):
                raise UserError(f"--match {match}: the file holds {len(records)} match(es)")
            records = [records[match]]
        for index, record in enumerate(records):
            if len(records) > 1:
                out.rule(f"match {index} — seed {record.seed}")
            registry.get(record.ruleset)  # an unknown ruleset raises KeyError
            _show_replay(record, seat, lang.value, out)
    except UserError as err:
        fail(str(err), err.code)
    except KeyError as err:
        fail(str(err.args[0]) if err.args else str(err))
