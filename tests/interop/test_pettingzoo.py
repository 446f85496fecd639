"""The PettingZoo environments: PettingZoo's own tests, seeding, hidden information, the store."""

from __future__ import annotations

import pkgutil
import random
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import pytest

# PettingZoo ships neither type hints nor stubs.
from pettingzoo.test import api_test, seed_test  # type: ignore[import-untyped]
from typer.testing import CliRunner

import kessen.games
from kessen.cli import app
from kessen.engine.contract import GameState
from kessen.interop import encoding
from kessen.interop.pettingzoo import KessenEnv, env, kobo_env, raw_env, twgp_env
from kessen.store import MatchStore

# PettingZoo's api_test says a Dict observation "probably should be" a Box: classic envs with
# action masks (chess, go, ...) get the same advice.
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
]

# Every ruleset package under kessen.games (a later one joins these tests by existing).
RULESETS = tuple(sorted(m.name for m in pkgutil.iter_modules(kessen.games.__path__) if m.ispkg))
CONSTRUCTORS: dict[str, Callable[[], Any]] = {
    **{name: partial(env, name) for name in RULESETS},
    "kobo": kobo_env,
    "twgp": twgp_env,
}


def test_both_rulesets_are_found() -> None:
    assert {"kobo", "twgp"} <= set(RULESETS)


def _masked_choice(rng: np.random.Generator, obs: dict[str, Any]) -> int:
    legal = np.flatnonzero(obs["action_mask"])
    assert legal.size > 0, "the agent to act has no legal action id"
    return int(legal[rng.integers(legal.size)])


def _play(environment: Any, seed: int | None, rng_seed: int = 0) -> Iterator[tuple[str, Any, Any]]:
    """Random masked play of one match; yields (agent, observation, info) at each decision."""
    environment.reset(seed=seed)
    rng = np.random.default_rng(rng_seed)
    for agent in environment.agent_iter():
        obs, _reward, terminated, truncated, info = environment.last()
        if terminated or truncated:
            environment.step(None)
            continue
        yield agent, obs, info
        environment.step(_masked_choice(rng, obs))


# --- PettingZoo's own tests --------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_pettingzoo_api_test(ruleset: str) -> None:
    api_test(CONSTRUCTORS[ruleset](), num_cycles=1000)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_pettingzoo_seed_test(ruleset: str) -> None:
    seed_test(CONSTRUCTORS[ruleset], num_cycles=500)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_api_test_without_an_action_table(ruleset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A ruleset without a fixed table (as a later one would start) runs on overflow slots."""
    monkeypatch.delitem(encoding.ACTION_TABLES, ruleset, raising=False)
    environment = env(ruleset, overflow=64)
    assert environment.unwrapped.codec.table == ()
    api_test(environment, num_cycles=300)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_max_cycles_truncates_as_pettingzoo_counts_cycles(ruleset: str) -> None:
    """The AEC half of PettingZoo's ``max_cycles_test`` with masked actions (its parallel half
    and its unmasked sampling do not apply to a turn-based game with illegal moves)."""
    max_cycles = 4
    environment = env(ruleset, max_cycles=max_cycles)
    environment.reset(seed=11)
    counts = dict.fromkeys(environment.possible_agents, 0)
    rng = np.random.default_rng(0)
    truncated = []
    for agent in environment.agent_iter():
        counts[agent] += 1
        obs, _reward, terminated, was_truncated, _info = environment.last()
        if terminated or was_truncated:
            truncated.append(was_truncated)
            environment.step(None)
        else:
            environment.step(_masked_choice(rng, obs))
    assert max(counts.values()) - 1 == max_cycles
    assert truncated == [True, True]
    assert environment.unwrapped.truncated
    assert environment.unwrapped.game.pending is not None  # cut short, not over


# --- spaces, actions ---------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_observation_is_in_its_space(ruleset: str) -> None:
    environment = env(ruleset)
    checked = 0
    for agent, obs, _info in _play(environment, seed=3):
        assert environment.observation_space(agent).contains(obs)
        other = environment.unwrapped.possible_agents[1 - environment.unwrapped._seat[agent]]
        quiet = environment.observe(other)
        assert environment.observation_space(other).contains(quiet)
        assert not quiet["action_mask"].any()  # only the agent to act has legal ids
        checked += 1
    assert checked > 20


def test_kobo_table_is_openspiels() -> None:
    openspiel = pytest.importorskip("kessen.interop.openspiel")
    assert encoding.kobo_action_table() == openspiel.action_table()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_ids_round_trip_and_only_counter_drives_overflow(ruleset: str) -> None:
    """Every legal action has an id that decodes back to it; outside the table there are only
    TWGP's counter drives (Kōbō's table is complete); a ruleset without a table plays through
    the overflow slots alone."""
    environment = raw_env(ruleset)
    codec = environment.codec
    outside: set[str] = set()
    for game in range(6):
        environment.reset(seed=100 + game)
        chooser = random.Random(game)
        state = environment.game
        assert state is not None
        while state.pending is not None:
            legal = state.legal_actions()
            mask = codec.mask(legal)
            assert int(mask.sum()) == len(legal)
            for action in legal:
                index = codec.encode(action, legal)
                assert mask[index] == 1
                assert codec.decode(index, legal) == action
                if index >= len(codec.table):
                    outside.add(action.verb)
            state.apply(legal[chooser.randrange(len(legal))])
    if ruleset in encoding.ACTION_TABLES:
        assert outside <= {"twgp": {"counter-drive"}}.get(ruleset, set())


def test_illegal_id_is_refused_and_changes_nothing() -> None:
    environment = raw_env("kobo")
    environment.reset(seed=2)
    obs = environment.observe(environment.agent_selection)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = environment.game.state_hash()  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="not legal"):
        environment.step(illegal)
    assert environment.game.state_hash() == before  # type: ignore[union-attr]
    assert environment.actions == []


# --- seeding -----------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_reset_seed_reproduces_and_a_run_of_episodes_repeats(ruleset: str) -> None:
    """``reset(seed=42)`` plays match seed 42; the episodes after it (``reset()`` without a
    seed) repeat from run to run, each with another match seed."""

    def run() -> list[tuple[int | None, list[str], list[float]]]:
        environment = env(ruleset, max_cycles=15)
        out = []
        for episode in range(3):
            observations = [
                float(obs["observation"].sum())
                for _agent, obs, _info in _play(environment, 42 if episode == 0 else None)
            ]
            unwrapped = environment.unwrapped
            out.append((unwrapped.match_seed, list(unwrapped.actions), observations))
        return out

    first, second = run(), run()
    assert first == second
    assert first[0][0] == 42
    assert len({seed for seed, _, _ in first}) == 3


@pytest.mark.parametrize("ruleset", RULESETS)
def test_seeds_after_the_first_follow_the_run(ruleset: str) -> None:
    environment = raw_env(ruleset)
    environment.reset(seed=9)
    environment.reset()
    following = environment.match_seed
    other = raw_env(ruleset)
    other.reset(seed=9)
    other.reset()
    assert other.match_seed == following
    other.reset(seed=10)
    other.reset()
    assert other.match_seed != following


def test_a_seed_the_store_cannot_keep_is_refused() -> None:
    with pytest.raises(ValueError, match="64 signed bits"):
        raw_env("kobo").reset(seed=2**63)


# --- hidden information ------------------------------------------------------------------------


def _twin(environment: KessenEnv, world: GameState) -> KessenEnv:
    """An environment at the same step as ``environment`` whose true state is ``world``."""
    twin = raw_env(environment.ruleset, render_mode=environment.render_mode)
    twin.reset(seed=environment.match_seed)
    twin.game = world
    twin.actions = list(environment.actions)
    twin._decisions = list(environment._decisions)
    twin.agents = list(environment.agents)
    twin._obs_cache = {}
    pending = world.pending
    assert pending is not None
    twin._select(pending.seat)
    return twin


@pytest.mark.parametrize("ruleset", RULESETS)
def test_same_view_gives_same_observation_info_and_render(ruleset: str) -> None:
    """Two true states that one seat cannot tell apart (``resample_hidden``) give that seat the
    same observation, info and rendered board, at every tenth decision of a match."""
    environment = raw_env(ruleset, render_mode="ansi")
    environment.reset(seed=21)
    rng = random.Random(0)
    state = environment.game
    assert state is not None
    compared = differing = 0
    while state.pending is not None:
        if len(environment.actions) % 10 == 5:
            for seat, agent in enumerate(environment.possible_agents):
                world = state.resample_hidden(seat, rng.randrange(2**32))
                assert world.view(seat) == state.view(seat)
                differing += world.state_hash() != state.state_hash()
                twin = _twin(environment, world)
                mine, theirs = environment.observe(agent), twin.observe(agent)
                assert np.array_equal(mine["observation"], theirs["observation"])
                assert np.array_equal(mine["action_mask"], theirs["action_mask"])
                assert environment.infos[agent] == twin.infos[agent]
                environment.render_seat = twin.render_seat = seat
                assert environment.render() == twin.render()
                compared += 1
        obs = environment.observe(environment.agent_selection)
        environment.step(_masked_choice(np.random.default_rng(len(environment.actions)), obs))
    assert compared >= 4
    assert differing > 0, "no resampled world differed: the test would prove nothing"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_infos_never_carry_the_seed_and_the_true_hash_only_at_the_end(ruleset: str) -> None:
    environment = env(ruleset)
    seed = 918_273_645
    for _agent, _obs, info in _play(environment, seed=seed):
        assert set(info) == {"decisions", "prompt", "observation_hash"}
        assert str(seed) not in map(str, info.values())
    final = environment.unwrapped
    assert final.game is not None and final.game.pending is None
    # After the match every agent's last info carries the true final hash.
    environment.reset(seed=seed)
    rng = np.random.default_rng(0)
    seen_final: dict[str, str] = {}
    for agent in environment.agent_iter():
        obs, _reward, terminated, truncated, info = environment.last()
        if terminated or truncated:
            seen_final[agent] = info["state_hash"]
            environment.step(None)
        else:
            environment.step(_masked_choice(rng, obs))
    true_hash = environment.unwrapped.game.state_hash()
    assert seen_final == dict.fromkeys(environment.possible_agents, true_hash)


# --- render ------------------------------------------------------------------------------------


def test_kobo_render_is_watchs_board() -> None:
    from rich.console import Console

    from kessen.cli.matches import render_board

    environment = raw_env("kobo", render_mode="ansi", render_seat=0)
    environment.reset(seed=4)
    text = environment.render()
    assert text is not None
    console = Console(width=120, color_system=None, force_terminal=False, record=True)
    with console.capture() as capture:
        console.print(render_board(environment.game.view(0, "en"), "en"))  # type: ignore[union-attr]
    assert text == capture.get()
    assert raw_env("kobo").render() is None  # no render mode: nothing


def test_twgp_render_is_replays_board() -> None:
    from kessen.cli.replay import twgp_board

    environment = raw_env("twgp", render_mode="ansi", render_seat=1)
    environment.reset(seed=4)
    view = environment.game.view(1, "en")  # type: ignore[union-attr]
    assert environment.render() == "\n".join(twgp_board(view, "en")) + "\n"


# --- the store ---------------------------------------------------------------------------------


def test_matches_written_from_the_env_pass_store_check(tmp_path: Path) -> None:
    """A whole match and one cut short by ``max_cycles`` per ruleset, written from the
    environment: finished and unfinished records that ``kessen store check`` replays."""
    path = tmp_path / "rl.sqlite3"
    played: dict[int, tuple[list[str], bool]] = {}
    with MatchStore(path) as store:
        for ruleset in RULESETS:
            for max_cycles in (None, 12):
                environment = env(ruleset, max_cycles=max_cycles)
                for _ in _play(environment, seed=5):
                    pass
                unwrapped = environment.unwrapped
                assert unwrapped.truncated == (max_cycles is not None)
                match_id = unwrapped.record(store, ("random", "random"))
                played[match_id] = (list(unwrapped.actions), unwrapped.truncated)
        for match_id, (actions, truncated) in played.items():
            record = store.get(match_id)
            assert [row.action for row in record.actions] == actions
            assert record.meta["truncated"] == truncated
            assert record.info.is_finished == (not truncated)
    ids = [str(i) for i in played]
    result = CliRunner().invoke(app, ["store", "check", *ids, "--db", str(path)])
    assert result.exit_code == 0, result.output
    assert result.output.count("replays exactly") == len(ids)
