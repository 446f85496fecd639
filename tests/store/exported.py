"""Records for the tests of exported replays (``kessen store html``): one COM-vs-COM match of
each ruleset, played quickly and recorded through the store API, with 64-bit seeds (a
JavaScript number would round them)."""

from __future__ import annotations

from kessen.engine import registry
from kessen.engine.contract import Json
from kessen.store import MatchStore, Recorder

SEEDS: dict[str, int] = {
    "kobo": 2545794854696723816,
    "twgp": 9007199254740993,  # 2**53 + 1: the first integer a JavaScript number misses
    "maken": 9223372036854775783,  # just under 2**63
}
CONFIGS: dict[str, Json] = {
    "kobo": {"decks": ["fortress", "swarm"], "best_of": 1},
    "twgp": {},
    "maken": {"decks": ["SO", "GA"]},
}
RULESETS = tuple(SEEDS)


def record_com_match(
    store: MatchStore, ruleset: str, level: str = "heuristic", steps: int | None = None
) -> int:
    """Play ``ruleset``'s COM against itself to the end (or ``steps`` actions: an unfinished
    record) from :data:`SEEDS` and :data:`CONFIGS`, recorded; its match id."""
    rules = registry.get(ruleset)
    seed = SEEDS[ruleset]
    config = dict(CONFIGS[ruleset])
    state = rules.new_game(config, seed)
    recorder = Recorder.start(
        store, state, config, seed, players={0: level, 1: level}, source="sim"
    )
    players = {s: rules.players[level](seed % 1_000_003 + s) for s in (0, 1)}
    done = 0
    while (pending := state.pending) is not None and (steps is None or done < steps):
        action = players[pending.seat].choose(state.view(pending.seat), state.legal_actions())
        state.apply(action)
        recorder.record(action, state)
        done += 1
    return recorder.match_id
