"""The generic random-playout check every ruleset must pass (the kernel's conformance test).

It plays seeded random games through the engine contract only and checks, at every step:
a decision always has legal actions, each action's text parses back, the ruleset's own audit
holds (every card in one place), and, where asked, that no seat's serialized view changes when
everything hidden from that seat is redealt, that the JSON form round-trips to the same hash and
the same legal actions, and that the replay reproduces the state hash of every deep-checked step
(every step when ``deep_every`` is 1) and of every tenth step.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

import orjson

from kessen.engine import registry
from kessen.engine.action import Action
from kessen.engine.contract import GameState, Json
from kessen.engine.replay import HASH_EVERY, Replay


class InvariantBroken(AssertionError):
    """A conformance check failed; the message names the seed, step and check."""


@dataclass
class PlayoutReport:
    """What one checked playout did: its final state and the hashes it checked, by step."""

    seed: int
    steps: int
    outcome: Any
    hashes: dict[int, str]
    final: GameState


def _dump(view: Json) -> str:
    return json.dumps(view, sort_keys=True, ensure_ascii=False)


def check_view_secrecy(state: GameState, seat: int, seed: int) -> None:
    """Redeal what ``seat`` cannot see; its serialized view must stay the same."""
    before = state.view(seat)
    other = state.resample_hidden(seat, seed)
    other.audit()
    after = other.view(seat)
    # Equal views serialize equally; views that differ as objects are compared as the JSON the
    # seat receives (a tuple and a list of the same items are one JSON array).
    if before != after and _dump(before) != _dump(after):
        raise InvariantBroken(f"seat {seat}'s view depends on hidden information")
    if other.legal_actions() == [] and other.pending is not None:
        raise InvariantBroken("a resampled world has a decision with no legal action")


def _through_json(data: Json) -> Any:
    """``data`` written as JSON text and read back (by orjson, or by ``json`` where orjson
    refuses the data, such as a key that is not a string)."""
    try:
        return orjson.loads(orjson.dumps(data))
    except TypeError:  # orjson.JSONEncodeError
        return json.loads(json.dumps(data))


def check_round_trip(state: GameState) -> None:
    """JSON round trip keeps the hash and the legal actions (in the same order)."""
    rules = registry.get(state.ruleset)
    copy = rules.from_json(_through_json(state.to_json()))
    if copy.state_hash() != state.state_hash():
        raise InvariantBroken("JSON round trip changed the state hash")
    if copy.legal_actions() != state.legal_actions():
        raise InvariantBroken("JSON round trip changed the legal actions or their order")


def random_playout(
    ruleset: str,
    config: Json,
    seed: int,
    *,
    deep_every: int = 1,
    max_steps: int = 100_000,
) -> PlayoutReport:
    """Play one seeded random game, checking the invariants; deep checks every ``deep_every``.

    Deep checks (view secrecy for every seat, JSON round trip, clone equality) are the costly
    ones; the cheap ones (legal actions present and parseable, the audit) run at every step.
    """
    rules = registry.get(ruleset)
    state = rules.new_game(config, seed)
    replay = Replay.start(state, config, seed)
    chooser = random.Random(seed)
    hashes = {0: state.state_hash()}
    step = 0
    while state.pending is not None:
        if step >= max_steps:
            raise InvariantBroken(f"seed {seed}: no end after {max_steps} steps")
        legal = state.legal_actions()
        deep = step % deep_every == 0
        try:
            if not legal:
                raise InvariantBroken("a decision is pending with no legal action")
            for action in legal:
                if Action.parse(str(action)) != action:
                    raise InvariantBroken(f"{action!r} does not parse back from its text")
            state.audit()
            if deep:
                for seat in range(state.seats):
                    check_view_secrecy(state, seat, chooser.randrange(2**32))
                check_round_trip(state)
                if state.clone().state_hash() != state.state_hash():
                    raise InvariantBroken("a clone differs from its original")
        except AssertionError as err:
            raise InvariantBroken(f"seed {seed}, step {step}: {err}") from err
        action = legal[chooser.randrange(len(legal))]
        state.apply(action)
        replay.record(action, state)
        step += 1
        if deep or step % HASH_EVERY == 0 or state.pending is None:
            hashes[step] = state.state_hash()
    for index, replayed in enumerate(replay.states()):
        expected = hashes.get(index)
        if expected is not None and replayed.state_hash() != expected:
            raise InvariantBroken(f"seed {seed}: replay differs at step {index}")
    return PlayoutReport(seed, step, state.outcome, hashes, state)
