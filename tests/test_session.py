"""Server sessions: COM's reasons kept honest (the undo rule: ``tests/test_undo_rule.py``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import pytest

from kessen.engine import registry
from kessen.engine.action import Action
from kessen.engine.contract import Json
from kessen.server.session import Session


def vs_com(seed: int = 3) -> Session:
    return Session.create(
        "kobo", {"decks": ["vanguard", "tempo"], "best_of": 1}, seed, "vs_com", "heuristic", 0.0
    )


def settle(session: Session) -> None:
    """Let COM answer until the human must decide (or the match ends)."""
    while session.com_step() is not None:
        pass


def human_acts(session: Session, choose: int = 0) -> None:
    pending = session.live.pending
    assert pending is not None and pending.seat == 0
    legal = session.live.legal_actions()
    session.act(0, pending.prompt_id, str(legal[choose % len(legal)]))
    settle(session)


class ExplainingPlayer:
    """A COM that always passes when it can and explains itself with its legal actions."""

    name = "explaining"

    def __init__(self, seed: int) -> None:
        self.last_explanation: list[Json] = []

    def choose(self, view: Json, legal: Sequence[Action]) -> Action:
        self.last_explanation = [{"action": str(a), "visits": 1, "value": 0.5} for a in legal]
        return legal[-1]


def test_com_reasons_hide_choices_that_depend_on_its_hidden_cards(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rules = registry.get("kobo")
    players: dict[str, Any] = {**rules.players, "explaining": ExplainingPlayer}
    patched = dataclasses.replace(rules, players=players)
    monkeypatch.setattr(registry, "_RULESETS", {**registry._RULESETS, "kobo": patched})
    session = Session.create(
        "kobo", {"decks": ["vanguard", "tempo"], "best_of": 1}, 4, "vs_com", "explaining", 0.0
    )
    seen_public = seen_hidden = False
    for step in range(300):
        settle(session)
        why = session.view_for(0, "ja", False)["com_why"]
        if why is not None:
            if why["prompt"] in patched.public_prompts:
                assert why["candidates"]
                seen_public = True
            else:
                # Neither the candidates nor their number (which could tell a hidden card).
                assert why["candidates"] is None and why["hidden"] is True
                seen_hidden = True
        if session.live.pending is None or (seen_public and seen_hidden):
            break
        human_acts(session, step)
    assert seen_public and seen_hidden


def test_com_reasons_are_valid_json_even_without_a_value() -> None:
    from kessen.server.session import candidates_json as _candidates

    out = _candidates([{"action": "pass", "visits": 0, "value": float("nan")}])
    assert out == [{"action": "pass", "visits": 0, "value": None}]
    import json

    json.loads(json.dumps(out, allow_nan=False))


def test_com_reasons_name_no_card_hidden_from_the_reader_in_twgp() -> None:
    """TWGP's COM builds in secret and summons face down: the other seat reads its choice with
    the hidden card as ``…``, COM's own seat (and everyone once all is shown) reads it whole;
    a card COM puts face up stays named."""
    session = Session.create("twgp", {}, 6, "vs_com", "heuristic", 0.0)
    masked: set[str] = set()
    named: set[str] = set()
    for _ in range(400):
        pending = session.live.pending
        if pending is None or (masked >= {"vital", "aside", "hand"} and named):
            break
        if pending.seat == 0:
            legal = session.live.legal_actions()
            closers = [a for a in legal if str(a) in ("done", "battle", "end", "accept")]
            session.act(0, pending.prompt_id, str((closers or legal)[0]))
            continue
        action = session.com_step()
        assert action is not None
        why = session.view_for(0, "ja", False)["com_why"]
        own = session.view_for(1, "ja", False)["com_why"]
        assert own["action"] == str(action)
        words = str(action).split()
        if words[0] in ("vital", "aside", "hand", "stealth-drive", "recharge", "reload"):
            assert why["action"] == " ".join([words[0], "…", *words[2:]]), why
            masked.add(words[0])
        elif words[0] in ("charge-drive", "attach", "power-drive"):
            assert why["action"] == str(action)
            named.add(words[0])
    assert masked >= {"vital", "aside", "hand"} and named, (masked, named)


class FailingPlayer:
    """A COM with a defect: every decision raises (naming a card, as real errors may)."""

    name = "failing"

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def choose(self, view: Json, legal: Sequence[Action]) -> Action:
        raise KeyError("thorn-armor")


def test_a_failing_com_is_replaced_by_the_heuristic_and_the_match_goes_on(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    rules = registry.get("kobo")
    players: dict[str, Any] = {**rules.players, "failing": FailingPlayer}
    patched = dataclasses.replace(rules, players=players)
    monkeypatch.setattr(registry, "_RULESETS", {**registry._RULESETS, "kobo": patched})
    config = {"decks": ["vanguard", "tempo"], "best_of": 1}
    session = Session.create("kobo", config, 4, "com_vs_com", "failing", 0.0)
    twin = Session.create("kobo", config, 4, "com_vs_com", "heuristic", 0.0)
    for _ in range(40):
        assert session.com_step() is not None  # no exception: the heuristic answered
        assert twin.com_step() is not None
    assert session.live.state_hash() == twin.live.state_hash()  # exactly the heuristic's moves
    assert "COM failing failed on kobo" in caplog.text and "thorn-armor" in caplog.text
    why = session.view_for(0, "ja", False)["com_why"]
    assert "thorn-armor" not in str(why)  # the error's text stays in the server log
