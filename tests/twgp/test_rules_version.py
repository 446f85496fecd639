"""Records made under an earlier TWGP rules version are named as such by the integrity check."""

from __future__ import annotations

import random

from kessen.engine import registry
from kessen.engine.replay import Replay
from kessen.games.twgp.state import TwgpState
from kessen.store.integrity import diagnose


def _game_with_mid_window_set_ups(seed: int) -> Replay:
    """A random game under ``setupAnytime`` (the reading before §2.9 #27 was ruled) in which the
    turn player sets up after another action of its build window."""
    rules = registry.get("twgp")
    config = {**rules.default_config, "setupAnytime": True}
    state = rules.new_game(config, seed)
    assert isinstance(state, TwgpState)
    replay = Replay.start(state, config, seed)
    chooser = random.Random(seed)
    late_set_ups = 0
    acted = False
    while state.pending is not None:
        options = state.legal_actions()
        setups = [a for a in options if a.verb == "setup"]
        window = state.pending.prompt == "build_window"
        if window and acted and setups:
            action = setups[0]
            late_set_ups += 1
        else:
            action = options[chooser.randrange(len(options))]
        if not window:
            acted = False
        elif action.verb != "setup":
            acted = True
        state.apply(action)
        replay.record(action, state)
    assert late_set_ups > 0
    return replay


def test_an_old_record_is_named_as_recorded_under_an_earlier_rules_version() -> None:
    current = _game_with_mid_window_set_ups(5)
    assert diagnose(current) is None  # recorded under today's rules: it replays exactly
    # The same game as the earlier rules recorded it: no setupAnytime key (the current rules
    # read that as the new default, so the state differs from the start and the mid-window
    # set-ups are no longer legal), rules version 0.1.0.
    old = Replay(
        current.ruleset,
        {k: v for k, v in current.config.items() if k != "setupAnytime"},
        current.seed,
        list(current.actions),
        "0.1.0",
        current.data_hash,
        dict(current.hashes),
    )
    divergence = diagnose(old)
    assert divergence is not None
    assert (divergence.recorded_version, divergence.current_version) == (
        "0.1.0",
        registry.get("twgp").version,
    )
    assert registry.get("twgp").version != "0.1.0"
    text = divergence.describe()
    assert "recorded under an earlier rules version, 0.1.0 (now 0.2.0)" in text
    assert divergence.to_json()["recorded_version"] == "0.1.0"


def test_a_record_of_the_current_version_names_no_version() -> None:
    current = _game_with_mid_window_set_ups(6)
    current.actions.append("end")  # after the end of the game: no longer legal
    divergence = diagnose(current)
    assert divergence is not None
    assert "earlier rules version" not in divergence.describe()
