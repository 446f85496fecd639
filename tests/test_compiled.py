"""The compiled build (mypyc, :mod:`kessen.build_compiled`) is the pure-Python package, faster.

Each comparison runs one side in this process and the other in a child process with the other
build first on its path: when this process runs the compiled build (``./kessen test`` puts
``build/compiled`` first on ``PYTHONPATH``) the child runs the sources, and the reverse. Both
must give the same state hashes after every step of the same seeded games in all three
rulesets, the same replays, the same search decisions at every COM level, and the same errors
for bad input. Without an up-to-date compiled build (no C compiler here) the comparisons are
skipped; under ``KESSEN_EXPECT_COMPILED=1`` (the launcher's compiled run, right after it built
``build/compiled`` from the sources) this process must be the compiled build, every compiled
module an extension.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import json
import os
import random
import subprocess
import sys
import sysconfig
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kessen import build_compiled
from kessen.ai.ismcts import hooks_for, search
from kessen.ai.levels import LEVELS
from kessen.engine import registry
from kessen.engine.action import Action
from kessen.engine.contract import GameState
from kessen.engine.replay import Replay

ROOT = Path(__file__).resolve().parents[1]
RULESETS = ("kobo", "twgp", "maken")
SEEDS = range(4)
"""Seeds of the random games compared step by step (per ruleset)."""
SEARCHED = 2
"""Positions per ruleset that every COM level searches in the comparison."""


def running_compiled() -> bool:
    """Whether this process runs the compiled build."""
    module = importlib.import_module("kessen.engine.contract")
    return str(module.__file__).endswith(sysconfig.get_config_var("EXT_SUFFIX"))


# --- what both builds compute -------------------------------------------------------------


def games() -> dict[str, Any]:
    """Seeded random games of every ruleset: the hash after every step, the replay's hashes
    played back, and the final state rebuilt from its JSON."""
    out: dict[str, Any] = {}
    for ruleset in RULESETS:
        rules = registry.get(ruleset)
        for seed in SEEDS:
            config = dict(rules.default_config)
            state = rules.new_game(config, seed)
            replay = Replay.start(state, config, seed)
            chooser = random.Random(seed)
            steps = hashlib.sha256(state.state_hash().encode())
            while state.pending is not None:
                legal = state.legal_actions()
                action = legal[chooser.randrange(len(legal))]
                state.apply(action)
                replay.record(action, state)
                steps.update(f"{action} {state.state_hash()};".encode())
            again = Replay.from_json(json.loads(json.dumps(replay.to_json())))
            rebuilt = rules.from_json(json.loads(json.dumps(state.to_json())))
            out[f"{ruleset}/{seed}"] = {
                "steps": steps.hexdigest(),
                "actions": len(replay.actions),
                "final": state.state_hash(),
                "replayed": again.final_state().state_hash(),
                "rebuilt": rebuilt.state_hash(),
                "view": hashlib.sha256(
                    json.dumps(state.view(0, "en"), sort_keys=True).encode()
                ).hexdigest(),
            }
    return out


def _positions(ruleset: str) -> list[tuple[dict[str, Any], list[Action]]]:
    """A few decisions the search levels really search (heuristic games, mid-game)."""
    rules = registry.get(ruleset)
    hooks = hooks_for(ruleset)
    found: list[tuple[dict[str, Any], list[Action]]] = []
    game = 0
    while len(found) < SEARCHED:
        state = rules.new_game(rules.default_config, 700 + game)
        players = {s: rules.players["heuristic"](game + s) for s in (0, 1)}
        step = 0
        while state.pending is not None and len(found) < SEARCHED:
            pending = state.pending
            legal = state.legal_actions()
            view = state.view(pending.seat)
            routine = hooks.routine(view, legal) if hooks.routine is not None else None
            if len(legal) > 1 and routine is None and step % 7 == 6:
                found.append((view, legal))
            step += 1
            state.apply(players[pending.seat].choose(state.decision_view(pending.seat), legal))
        game += 1
    return found


def decisions() -> dict[str, Any]:
    """Every COM level's search of the same positions with its iteration budget and a fixed
    seed: the chosen action and each candidate's visits and value."""
    out: dict[str, Any] = {}
    for ruleset in RULESETS:
        cases = _positions(ruleset)
        for level in LEVELS:
            hooks = hooks_for(ruleset, deep=level.deep)
            config = level.config(timed=False, ruleset=ruleset)
            for index, (view, legal) in enumerate(cases):
                result = search(view, legal, hooks, config, seed=index)
                out[f"{ruleset}/{level.key}/{index}"] = [
                    str(result.action),
                    [[str(c.action), c.visits, c.value] for c in result.candidates],
                ]
    return out


def _refusal(attempt: Callable[[], object]) -> list[str]:
    """The type and message of the error ``attempt`` raises (or what it returned)."""
    try:
        value = attempt()
    except Exception as error:
        return [type(error).__name__, str(error)]
    return ["no error", repr(value)]


def _answers(ruleset: str) -> dict[str, list[str]]:
    """What ``ruleset`` says to answers from the wrong seat, to a stale prompt, with an illegal
    action or after the game, and to configs it refuses."""
    rules = registry.get(ruleset)
    state = rules.new_game(rules.default_config, 1)
    pending = state.pending
    assert pending is not None
    legal = state.legal_actions()
    seat, prompt = pending.seat, pending.prompt_id
    ended: GameState = rules.new_game(rules.default_config, 2)
    chooser = random.Random(2)
    while ended.pending is not None:
        options = ended.legal_actions()
        ended.apply(options[chooser.randrange(len(options))])
    attempts: dict[str, Callable[[], object]] = {
        "other seat": lambda: state.answer(1 - seat, prompt, legal[0]),
        "stale prompt": lambda: state.answer(seat, prompt - 1, legal[0]),
        "illegal": lambda: state.answer(seat, prompt, Action.of("no-such-verb", 9)),
        "after the end": lambda: ended.answer(0, 0, Action.of("pass")),
        "bad config": lambda: rules.new_game({"no_such_switch": 1}, 1),
        "bad config value": lambda: rules.new_game({**rules.default_config, "decks": 5}, 1),
    }
    return {f"{ruleset} {name}": _refusal(attempt) for name, attempt in attempts.items()}


def errors() -> dict[str, Any]:
    """Bad input from outside: action texts that are not actions (or not even text), and bad
    answers and configs in every ruleset (:func:`_answers`)."""
    out: dict[str, Any] = {}
    for value in (3, None, 2.5, b"pass", ["pass"], "", "   ", "Pass", "pass !", "x" * 201):
        out[f"parse {value!r}"] = _refusal(functools.partial(Action.parse, value))
    for ruleset in RULESETS:
        out.update(_answers(ruleset))
    return out


WORK: dict[str, Callable[[], dict[str, Any]]] = {
    "games": games,
    "decisions": decisions,
    "errors": errors,
}


# --- the comparisons ------------------------------------------------------------------------


def _other_build(work: str) -> dict[str, Any]:
    """``WORK[work]()`` computed by the other build, in a child process."""
    other = ROOT / "src" if running_compiled() else ROOT / build_compiled.COMPILED_DIR
    env = {key: value for key, value in os.environ.items() if key != "KESSEN_EXPECT_COMPILED"}
    env["PYTHONPATH"] = os.pathsep.join([str(other), str(ROOT)])
    done = subprocess.run(
        [sys.executable, "-m", "tests.test_compiled", work],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == ("pure" if running_compiled() else "compiled"), done.stdout[:200]
    result: dict[str, Any] = json.loads(lines[1])
    return result


@pytest.fixture(scope="module")
def both_builds() -> None:
    """Skip the comparisons where there is no up-to-date compiled build to compare with."""
    if os.environ.get("KESSEN_EXPECT_COMPILED") == "1" or running_compiled():
        return
    if not build_compiled.is_fresh(ROOT):
        pytest.skip("no compiled build of these sources (./kessen test builds it)")


def test_the_compiled_build_is_what_runs_when_expected() -> None:
    """In the launcher's compiled run every compiled module is an extension in
    ``build/compiled`` (the build the stamp describes); in a pure run none is."""
    expected = os.environ.get("KESSEN_EXPECT_COMPILED") == "1"
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    files = {
        name: str(importlib.import_module(name).__file__)
        for name in build_compiled.compiled_modules()
    }
    if expected or running_compiled():
        # (The launcher builds it from the sources just before; the stamp says what it built.)
        stamp = json.loads(build_compiled.stamp_path(ROOT).read_text(encoding="utf-8"))
        assert stamp["modules"] == build_compiled.compiled_modules()
        where = str(ROOT / build_compiled.COMPILED_DIR)
        for name, path in files.items():
            assert path.endswith(suffix) and path.startswith(where), (name, path)
        # The modules left as Python still run from the sources, through the links.
        assert str(importlib.import_module("kessen.games.kobo.schema").__file__).endswith(".py")
    else:
        for name, path in files.items():
            assert path.endswith(".py"), (name, path)


@pytest.mark.usefixtures("both_builds")
@pytest.mark.parametrize("work", sorted(WORK))
def test_both_builds_agree(work: str) -> None:
    """Same games (hashes at every step, replays, JSON round trips, views), same search
    decisions at every level, same errors, compiled and pure."""
    here = WORK[work]()
    there = _other_build(work)
    assert here.keys() == there.keys()
    for key, value in here.items():
        assert value == there[key], key


def test_bad_input_gets_the_project_errors() -> None:
    """In either build, text that is no action (or no text) is refused with
    ``ActionParseError``, and bad answers with the rules' own errors: never a ``TypeError``
    from a compiled function's argument check."""
    found = errors()
    assert found["parse 3"] == ["ActionParseError", "an action must be text, not int"]
    for key, (kind, _message) in found.items():
        if key.startswith("parse"):
            assert kind == "ActionParseError", key
        else:
            assert kind in {
                "NotYourDecision",
                "StalePrompt",
                "IllegalAction",
                "GameOver",
                "ConfigError",
            }, (key, kind)


if __name__ == "__main__":  # the child process of a comparison: which build, then the result
    print("compiled" if running_compiled() else "pure")
    print(json.dumps(WORK[sys.argv[1]]()))
