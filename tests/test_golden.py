"""Golden playthrough: a seeded Kōbō match written out step by step and compared exactly.

The match is Kōbō's default config with ``best_of`` 1 and card data version 2, seed 7; each seat
is a random player with its own ``random.Random(7)`` that picks ``legal[randrange(len(legal))]``.
For every step the
file shows the pending seat, prompt and prompt id, the legal actions, the chosen action and the
new log entries as seat 0 sees them (one JSON object a line); at the start, at every new turn
and at the end it shows a compact board from ``view(0)`` and from ``view(1)``.

When a rules, card or view change alters the game on purpose, regenerate the file and review
it as a diff::

    UPDATE_GOLDEN=1 .venv/bin/pytest tests/test_golden.py
"""

from __future__ import annotations

import difflib
import json
import os
import random
from pathlib import Path
from typing import Any

from kessen.engine import registry
from kessen.engine.contract import GameState, Json

GOLDEN = Path(__file__).parent / "golden" / "kobo_seed7.txt"
SEED = 7
MAX_LINES = 3000


def _config() -> Json:
    # Pinned to card data version 2 (its numbers and starter decks, data/cards-v2.toml and
    # data/decks-v2/): a later balance pass changes the shipped cards, not this playthrough.
    return {**registry.get("kobo").default_config, "best_of": 1, "card_data": 2}


def _card(entry: dict[str, Any] | None) -> str:
    if entry is None:
        return "-"
    if "slug" not in entry:
        return "?"
    if entry.get("face") == "down":
        return f"({entry['slug']})"
    return str(entry["slug"])


def _character(entry: dict[str, Any] | None) -> str:
    if entry is None:
        return "-"
    return f"{entry['slug']} {entry['base']}/{entry['lv']}"


def _hidden(zone: Json) -> str:
    if zone["cards"] is None:
        return f"{zone['count']} ?"
    return f"{zone['count']} [{' '.join(c['slug'] for c in zone['cards'])}]"


def _board(view: Json) -> list[str]:
    """A compact summary of a seat's view: one line per side."""
    lines = []
    for side in view["players"]:
        lines.append(
            f"  view {view['viewer']} / seat {side['seat']}: "
            f"battle [{', '.join(_character(c) for c in side['battle'])}] "
            f"strategy [{', '.join(_card(c) for c in side['strategy'])}] "
            f"hand {_hidden(side['hand'])} tactics {_hidden(side['tactics_hand'])} "
            f"decks {side['main_deck']}+{side['tactics_deck']} "
            f"retreat {len(side['retreat'])} excluded {len(side['excluded'])} "
            f"passes {side['passes']}"
        )
    return lines


def _summary(state: GameState, title: str) -> list[str]:
    view0 = state.view(0)
    head = (
        f"== {title}: game {view0['match']['game']}, turn {view0['turn']}, "
        f"turn player {view0['turn_player']}, wins {view0['match']['wins']}"
    )
    return [head, *_board(view0), *_board(state.view(1))]


def playthrough() -> str:
    """The golden text of the seeded match."""
    config = _config()
    state = registry.get("kobo").new_game(config, SEED)
    players = {seat: random.Random(SEED) for seat in range(state.seats)}
    lines = [
        f"# Kōbō golden playthrough: seed {SEED}, config {json.dumps(config)}",
        f"# Each seat picks legal[randrange(len(legal))] with its own random.Random({SEED}).",
        "# Log entries as seat 0 sees them. Rewrite: UPDATE_GOLDEN=1 pytest tests/test_golden.py",
        *_summary(state, "start"),
        *(f"log {json.dumps(e, ensure_ascii=False)}" for e in state.view(0)["log"]),
    ]
    seen = len(state.view(0)["log"])
    step = 0
    while (pending := state.pending) is not None:
        step += 1
        legal = state.legal_actions()
        action = legal[players[pending.seat].randrange(len(legal))]
        lines.append(f"-- step {step}: seat {pending.seat} {pending.prompt} #{pending.prompt_id}")
        lines.append(f"legal: {' | '.join(str(a) for a in legal)}")
        lines.append(f"chose: {action}")
        state.apply(action)
        log = state.view(0)["log"]
        new = log[seen:]
        seen = len(log)
        lines += [f"log {json.dumps(e, ensure_ascii=False)}" for e in new]
        if any(e["kind"] == "turn" for e in new):
            lines += _summary(state, f"after step {step}")
    outcome = state.outcome
    assert outcome is not None
    lines += _summary(state, "end")
    lines.append(f"outcome: winner {outcome.winner}, {outcome.reason}, {step} steps")
    return "\n".join(lines) + "\n"


def test_golden_playthrough() -> None:
    """The seeded match plays exactly as recorded (set UPDATE_GOLDEN=1 to rewrite the file)."""
    text = playthrough()
    assert text.count("\n") < MAX_LINES, "the golden file would be too long to review"
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(text, encoding="utf-8")
    expected = GOLDEN.read_text(encoding="utf-8")
    if text != expected:
        diff = difflib.unified_diff(
            expected.splitlines(), text.splitlines(), "golden", "now", lineterm="", n=2
        )
        shown = "\n".join(list(diff)[:80])
        raise AssertionError(
            f"the playthrough differs from {GOLDEN.name} (review, then rewrite with "
            f"UPDATE_GOLDEN=1):\n{shown}"
        )


def test_playthrough_is_deterministic() -> None:
    assert playthrough() == playthrough()
