"""The ``kessen`` command line, driven through typer's test runner."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kessen.cli import app
from kessen.engine import registry
from kessen.engine.players import StepHook, play_out
from kessen.engine.replay import Replay
from kessen.games.kobo.decks import DECKS_DIR, starter_decks
from kessen.games.kobo.schema import load_pool

runner = CliRunner()


def _ok(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


def _fails(code: int, *args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit
    ), repr(result.exception)
    return result.output


# --- cards and decks -------------------------------------------------------------------------


def test_cards_lists_the_pool() -> None:
    out = _ok("cards", "--lang", "en")
    for card in load_pool():
        assert card.slug in out
    assert "Oni Warlord" in out


def test_cards_by_kind() -> None:
    out = _ok("cards", "--kind", "trap")
    assert "unhealing-wound" in out and "消えない裂傷" in out
    assert "oni-warlord" not in out
    _fails(2, "cards", "--kind", "dragon")


def test_decks_list_and_show() -> None:
    out = _ok("decks", "list", "--lang", "en")
    for slug in starter_decks():
        assert slug in out
    shown = _ok("decks", "show", "vanguard", "--lang", "en")
    assert "Vanguard Assault" in shown and "Oni Warlord" in shown
    assert "unknown deck" in _fails(2, "decks", "show", "nope")


def test_validate_a_valid_deck(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text((DECKS_DIR / "tempo.toml").read_text(encoding="utf-8"), encoding="utf-8")
    assert "valid" in _ok("decks", "validate", str(path))


def test_validate_prints_every_violation(tmp_path: Path) -> None:
    text = (DECKS_DIR / "tempo.toml").read_text(encoding="utf-8")
    text = text.replace("musket-captain = 2", "musket-captain = 3").replace(
        "hinder = 2", "hinder = 3"
    )
    path = tmp_path / "big.toml"
    path.write_text(text, encoding="utf-8")
    out = _fails(1, "decks", "validate", str(path))
    assert "main deck has 21 cards" in out
    assert "3 copies of 'musket-captain'" in out
    assert "tactics deck has 16 cards" in out
    assert "3 copies of 'hinder'" in out


def test_validate_a_malformed_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text('slug = "x"\nname_ja = [\n', encoding="utf-8")
    out = _fails(2, "decks", "validate", str(path))
    assert f"{path}:3:" in out.replace("\n", "")
    unknown = tmp_path / "unknown.toml"
    unknown.write_text(
        (DECKS_DIR / "tempo.toml").read_text(encoding="utf-8").replace("weaken", "weakn"),
        encoding="utf-8",
    )
    out = _fails(2, "decks", "validate", str(unknown))
    assert "tactics.weakn" in out and "did you mean weaken" in out
    assert "no such deck file" in _fails(2, "decks", "validate", str(tmp_path / "none.toml"))


# --- play ------------------------------------------------------------------------------------


def test_watch_shows_a_match_from_seat_0() -> None:
    out = _ok("watch", "--seed", "2", "--lang", "en", "--deck0", "vanguard", "--deck1", "swarm")
    assert "Winner: P" in out or "no winner" in out
    assert "Battle" in out and "Strategy" in out
    assert "Match over" in out
    # Seat 1's draws are hidden, seat 0's are shown.
    assert "P2 drew 7 cards from the main deck." in out
    assert "P2 drew 7 cards from the main deck:" not in out
    assert "P1 drew 7 cards from the main deck:" in out


def test_watch_in_japanese_with_random_players() -> None:
    out = _ok("watch", "--seed", "1", "--players", "random,heuristic", "--best-of", "1")
    assert "第1ゲーム開始" in out and "マッチ終了" in out


def test_watch_refuses_bad_input(tmp_path: Path) -> None:
    assert "unknown deck 'nope'" in _fails(2, "watch", "--deck0", "nope")
    assert "unknown player" in _fails(2, "watch", "--players", "heuristic,genius")
    bad = tmp_path / "bad.toml"
    bad.write_text(
        (DECKS_DIR / "tempo.toml").read_text(encoding="utf-8").replace("hinder = 2", "hinder = 3"),
        encoding="utf-8",
    )
    assert "tactics deck has 16 cards" in _fails(2, "watch", "--deck1", str(bad))


# --- sim and replay --------------------------------------------------------------------------


def _recording(replay: Replay) -> StepHook:
    """A ``play_out`` step hook that records each action into ``replay``."""
    return lambda state, _seat, action: replay.record(action, state)


@pytest.fixture(scope="module")
def sim_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three recorded heuristic matches in the list form ``kessen replay`` reads."""
    rules = registry.get("kobo")
    entries = []
    for seed in (10, 11, 12):
        config = {"decks": ["tempo", "fortress"], "best_of": 3}
        state = rules.new_game(config, seed)
        replay = Replay.start(state, config, seed)
        players = {s: rules.players["heuristic"](seed + s) for s in (0, 1)}
        play_out(state, players, on_step=_recording(replay))
        entries.append({"seed": seed, "replay": replay.to_json()})
    path = tmp_path_factory.mktemp("sim") / "results.json"
    path.write_text(json.dumps(entries), encoding="utf-8")
    return path


def test_replay_from_each_view(sim_file: Path) -> None:
    everything = _ok("replay", str(sim_file), "--match", "0", "--lang", "en")
    assert "hashes verified" in everything
    seat0 = _ok("replay", str(sim_file), "--match", "0", "--seat", "0", "--lang", "en")
    assert "hashes verified" in seat0
    assert "The opponent drew 7 cards from the main deck." in seat0
    assert "take …" in seat0 or "pick …" in seat0
    assert _ok("replay", str(sim_file)).count("hashes verified") == 3


def test_replay_of_a_single_record(sim_file: Path, tmp_path: Path) -> None:
    record = json.loads(sim_file.read_text(encoding="utf-8"))[1]["replay"]
    path = tmp_path / "one.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert "hashes verified" in _ok("replay", str(path), "--seat", "1")


def test_replay_divergence(sim_file: Path, tmp_path: Path) -> None:
    record = json.loads(sim_file.read_text(encoding="utf-8"))[0]["replay"]
    record["hashes"]["20"] = "0" * 24
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    out = _fails(1, "replay", str(path))
    assert "diverged at step 20" in out
    record = json.loads(sim_file.read_text(encoding="utf-8"))[0]["replay"]
    record["actions"][0] = "pass"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert "step 1" in _fails(1, "replay", str(path))


def test_replay_refuses_bad_files(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    assert "not JSON" in _fails(2, "replay", str(broken))
    other = tmp_path / "other.json"
    other.write_text('{"a": 1}', encoding="utf-8")
    assert "not a replay record" in _fails(2, "replay", str(other))
    assert "no such file" in _fails(2, "replay", str(tmp_path / "missing.json"))
    results = tmp_path / "results.json"
    results.write_text('[{"seed": 1, "winner": 0, "games": []}]', encoding="utf-8")
    assert "--replays" in _fails(2, "replay", str(results))


def test_tournament_command_is_mounted() -> None:
    result = CliRunner().invoke(app, ["tournament", "--help"])
    assert result.exit_code == 0
    assert "Wilson" in result.output and "--suite" in result.output
    wide = CliRunner().invoke(app, ["tournament", "--help"], env={"COLUMNS": "200"})
    assert "(kobo, twgp or maken)" in wide.output


def test_replay_help_names_every_ruleset() -> None:
    result = CliRunner().invoke(app, ["replay", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "(Kōbō, TWGP or Project Maken)" in result.output


# --- TWGP records ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def twgp_export(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Replay]:
    """One recorded TWGP heuristic game, exported with ``kessen store export``."""
    from kessen.store import MatchStore
    from tests.store.helpers import play_twgp_recorded

    folder = tmp_path_factory.mktemp("twgp")
    db = str(folder / "t.sqlite3")
    with MatchStore(db) as store:
        match_id = play_twgp_recorded(store, 5)
        replay = store.load_replay(match_id)
    path = folder / "match.json"
    _ok("store", "export", str(match_id), "--db", db, "-o", str(path))
    return path, replay


def _never_seen_by(replay: Replay, viewer: int) -> set[str]:
    """The other seat's cards that ``viewer`` sees at no step of the game."""
    seen: set[str] = set()
    for state in replay.states():
        seen.update(json.dumps(state.view(viewer), ensure_ascii=False).split('"'))
    cards = registry.get("twgp").catalog("en")["cards"]
    return {slug for slug, c in cards.items() if c["seat"] == 1 - viewer and slug not in seen}


def test_replay_of_a_twgp_export_from_seat_0_hides_seat_1s_cards(
    twgp_export: tuple[Path, Replay],
) -> None:
    import re

    path, replay = twgp_export
    out = _ok("replay", str(path), "--seat", "0", "--lang", "en")
    assert "hashes verified" in out and "result: P" in out
    assert "opponent: vital …" in out and "opponent: hand …" in out
    assert "You will play first." in out or "The opponent will play first." in out
    assert "│ Turn 1 · P" in out and "battle  1:" in out and "P1 (you)" in out
    hidden = _never_seen_by(replay, 0)
    assert hidden  # cards set aside, vitals never lost, pile cards never drawn
    labels = registry.get("twgp").catalog("en")["cards"]
    for slug in hidden:
        assert not re.search(rf"\b{slug}\b", out), slug
        assert labels[slug]["label"] not in out, slug
    everything = _ok("replay", str(path), "--lang", "en")
    assert re.search(r"P2: vital [hd]", everything) and re.search(r"P2: hand [hd]", everything)


def test_replay_of_a_twgp_record_in_japanese_and_from_seat_1(
    twgp_export: tuple[Path, Replay], tmp_path: Path
) -> None:
    _, replay = twgp_export
    path = tmp_path / "replay.json"
    path.write_text(json.dumps(replay.to_json()), encoding="utf-8")
    out = _ok("replay", str(path), "--seat", "1")
    assert "hashes verified" in out and "ターン1" in out and "あなた" in out
    assert "スイッチ: すべて既定" in out and "相手: vital …" in out
    record = replay.to_json()
    record["hashes"]["30"] = "0" * 24
    path.write_text(json.dumps(record), encoding="utf-8")
    assert "diverged at step 30" in _fails(1, "replay", str(path))


# --- TWGP and Project Maken: cards, decks, builds, watch ---------------------------------------


def test_cards_of_twgp_and_maken() -> None:
    pack = _ok("cards", "--ruleset", "twgp", "--lang", "en")
    assert "Ace of Spades" in pack and "Red Joker" in pack and "Weapon" in pack
    weapons = _ok("cards", "--ruleset", "twgp", "--lang", "en", "--kind", "weapon")
    assert "Jack of Spades" in weapons and "Ace of Spades" not in weapons
    maken = _ok("cards", "--ruleset", "maken")
    assert "霜月斬" in maken and "ソウマ" in maken and "補助" in maken
    out = _fails(2, "cards", "--ruleset", "maken", "--kind", "trap")
    assert "card kinds of Project Maken are attack, support" in out
    assert "character, deploy, trap, tactic" in _fails(2, "cards", "--kind", "unit")


def test_decks_of_twgp_and_maken() -> None:
    pools = _ok("decks", "list", "--ruleset", "twgp", "--lang", "en")
    assert "P1's pool (♠♣)" in pools and "P2's pool (♥♦)" in pools and "26" in pools
    assert "3 vitals and 3 cards set aside" in pools
    hearts = _ok("decks", "show", "p2", "--ruleset", "twgp", "--lang", "en")
    assert "Ace of Hearts" in hearts and "Ace of Spades" not in hearts
    characters = _ok("decks", "list", "--ruleset", "maken", "--lang", "en")
    for name in ("Souma", "Rinne", "Mizuha", "Garou"):
        assert name in characters
    souma = _ok("decks", "show", "so", "--ruleset", "maken", "--lang", "en")
    assert "Souma (SO)" in souma and "Frost-Moon Cut" in souma and "SO: 50" in souma
    unknown = _fails(2, "decks", "show", "fortress", "--ruleset", "maken")
    assert "SO (ソウマ)" in unknown
    assert "p1, p2 (or a build .toml file)" in _fails(2, "decks", "show", "x", "--ruleset", "twgp")


def test_validate_and_show_a_twgp_build(tmp_path: Path) -> None:
    builds = registry.get("twgp").decks
    assert builds is not None
    good = tmp_path / "good.toml"
    good.write_text(
        builds.to_toml(
            {"vitals": ["s10", "c10", "sk"], "hand": ["sa"], "aside": ["s9", "c9", "s8"]}
        ),
        encoding="utf-8",
    )
    assert f"{good}: valid" in _ok("decks", "validate", str(good), "--ruleset", "twgp")
    shown = _ok("decks", "show", str(good), "--ruleset", "twgp", "--lang", "en")
    assert "vitals: 3" in shown and "deck (besides the starting hand): 19" in shown
    short = tmp_path / "short.toml"
    short.write_text('vitals = ["s10", "c10"]\nhand = []\naside = ["s9", "c9", "s8"]\n')
    out = _fails(1, "decks", "validate", str(short), "--ruleset", "twgp")
    assert "vitals" in out and "expected 3 cards (2 given)" in out
    broken = tmp_path / "broken.toml"
    broken.write_text('vitals = ["s10"\n', encoding="utf-8")
    assert f"{broken}: build file:" in _fails(
        2, "decks", "validate", str(broken), "--ruleset", "twgp"
    )
    refused = _fails(2, "decks", "validate", str(good), "--ruleset", "maken")
    assert "serves Kōbō (攻防) (kobo) and TWGP トランプ版 (twgp) only" in refused
    assert "Project Maken (maken)" in refused


def test_watch_twgp_and_maken_from_seat_0() -> None:
    twgp = _ok("watch", "--ruleset", "twgp", "--lang", "en", "--seed", "3")
    assert "TWGP トランプ版 — heuristic vs heuristic — seed 3" in twgp
    assert "Winner: P" in twgp or "no winner" in twgp
    assert "P1 (you): pile" in twgp and "battle  1:" in twgp
    # P1's hand is listed, P2's only counted.
    assert re.search(r"P1 \(you\): pile \d+ · hand \d+ \[", twgp)
    assert not re.search(r"P2: pile \d+ · hand \d+ \[", twgp)
    maken = _ok(
        "watch", "--ruleset", "maken", "--lang", "en", "--deck0", "ri", "--players", "random"
    )
    assert "Project Maken — random vs random — seed 0" in maken and "P1 plays Rinne" in maken
    assert "P1 Rinne (you)" in maken
    assert "leave out --deck0 and --deck1" in _fails(
        2, "watch", "--ruleset", "twgp", "--deck0", "p1"
    )
    assert "plays single games" in _fails(2, "watch", "--ruleset", "twgp", "--best-of", "3")
    assert "GA (Garou)" in _fails(2, "watch", "--ruleset", "maken", "--deck1", "fortress")
