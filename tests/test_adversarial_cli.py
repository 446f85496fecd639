"""Adversarial command-line inputs: each ends with a clear message and a non-zero exit code,
never a traceback, and a refused import leaves the store's matches as they were.

Covers ``decks validate`` (deeply nested TOML), ``replay`` (the action ``(((``, deeply nested
JSON, malformed fields, records with and without hashes), ``store import`` (nested JSON, bad
``created``/``players``/... fields, tampered records refused unless ``--no-verify``) and the
numeric options of ``play`` and ``watch`` (``--port 99999``, ``--pace -1``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from kessen.cli import app
from kessen.engine import registry
from kessen.engine.replay import Replay
from kessen.store import MatchStore, exchange
from tests.store.helpers import play_recorded

runner = CliRunner()


def invoke(*argv: str) -> Result:
    result = runner.invoke(app, list(argv))
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result


def refused(result: Result, code: int, *words: str) -> None:
    """A refusal: the exit code and a message holding every one of ``words``."""
    assert result.exit_code == code, result.output
    assert "error:" in result.output or "Invalid value" in result.output, result.output
    for word in words:
        assert word in result.output, (word, result.output)


# --- decks validate -----------------------------------------------------------------------

DECK_FILES: dict[str, Callable[[Path], object]] = {
    "nested arrays": lambda p: p.write_text("a = " + "[" * 5000 + "]" * 5000 + "\n"),
    "nested inline tables": lambda p: p.write_text(
        "a = " + "{b = " * 3000 + "1" + "}" * 3000 + "\n"
    ),
    "nested tables of arrays": lambda p: p.write_text(
        "main = " + "[" * 2000 + "1" + "]" * 2000 + "\n"
    ),
    "not TOML": lambda p: p.write_text("slug = \n[[[\n"),
    "not UTF-8": lambda p: p.write_bytes(b"slug = '\xff\xfe'\n"),
    "binary": lambda p: p.write_bytes(bytes(range(256))),
    "empty": lambda p: p.write_text(""),
}


@pytest.mark.parametrize("kind", list(DECK_FILES))
def test_decks_validate_refuses_hostile_files(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "deck.toml"
    DECK_FILES[kind](path)
    result = invoke("decks", "validate", str(path))
    assert result.exit_code in (1, 2), result.output
    assert "deck.toml" in result.output


def test_decks_validate_names_the_nesting(tmp_path: Path) -> None:
    path = tmp_path / "deep.toml"
    DECK_FILES["nested arrays"](path)
    refused(invoke("decks", "validate", str(path)), 2, "nested too deeply")
    refused(invoke("sim", "--decks", f"{path},fortress", "--no-store"), 2, "nested too deeply")


# --- replay -------------------------------------------------------------------------------


def record(actions: list[str] | None = None, hashes: bool = True) -> dict[str, Any]:
    """A short valid Kōbō replay record (the first legal action a few times)."""
    rules = registry.get("kobo")
    config = {"decks": ["swarm", "fortress"], "best_of": 1}
    state = rules.new_game(config, 3)
    replay = Replay.start(state, config, 3)
    for _ in range(12):
        action = state.legal_actions()[0]
        state.apply(action)
        replay.record(action, state)
    replay.hashes[len(replay.actions)] = state.state_hash()
    data = replay.to_json()
    if actions is not None:
        data["actions"] = actions
    if not hashes:
        data["hashes"] = {}
    return data


def _with(**fields: Any) -> dict[str, Any]:
    data = record()
    data.update(fields)
    return data


REPLAY_FILES: dict[str, str] = {
    "action (((": json.dumps(record(actions=["((("])),
    "action with a control character": json.dumps(record(actions=["pass\x00"])),
    "actions not a list": json.dumps(_with(actions="pass")),
    "actions of numbers": json.dumps(_with(actions=[1, 2])),
    "seed a text": json.dumps(_with(seed="seven")),
    "seed a float": json.dumps(_with(seed=1e30)),
    "config a list": json.dumps(_with(config=[1])),
    "config with an unknown deck": json.dumps(_with(config={"decks": ["nope", "swarm"]})),
    "hashes a list": json.dumps(_with(hashes=[1])),
    "hash keys not steps": json.dumps(_with(hashes={"x": "y"})),
    "unknown ruleset": json.dumps(_with(ruleset="chess")),
    "deeply nested list": "[" * 100_000 + "]" * 100_000,
    "deeply nested object": '{"a":' * 100_000 + "1" + "}" * 100_000,
    "integer of 5000 digits": '{"seed": ' + "9" * 5000 + "}",
    "not JSON": "{oops",
    "empty list": "[]",
    "a number": "42",
}


@pytest.mark.parametrize("kind", list(REPLAY_FILES))
def test_replay_refuses_hostile_records(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "replay.json"
    path.write_text(REPLAY_FILES[kind], encoding="utf-8")
    result = invoke("replay", str(path))
    assert result.exit_code in (1, 2), result.output
    assert "error:" in result.output


def test_replay_names_the_bad_action_and_the_nesting(tmp_path: Path) -> None:
    path = tmp_path / "replay.json"
    path.write_text(REPLAY_FILES["action ((("], encoding="utf-8")
    refused(invoke("replay", str(path)), 2, "step 1", "'((('")
    path.write_text(REPLAY_FILES["deeply nested list"], encoding="utf-8")
    refused(invoke("replay", str(path)), 2, "nested too deeply")


def test_replay_says_whether_hashes_were_verified(tmp_path: Path) -> None:
    path = tmp_path / "replay.json"
    path.write_text(json.dumps(record(hashes=False)), encoding="utf-8")
    result = invoke("replay", str(path), "--lang", "en")
    assert result.exit_code == 0, result.output
    assert "no hashes recorded: not verified" in result.output
    assert "hashes verified" not in result.output.replace("no hashes recorded", "")
    path.write_text(json.dumps(record()), encoding="utf-8")
    result = invoke("replay", str(path), "--lang", "en")
    assert result.exit_code == 0 and "3 recorded hashes verified" in result.output
    tampered = record()
    tampered["hashes"]["10"] = "0" * 24
    path.write_text(json.dumps(tampered), encoding="utf-8")
    refused(invoke("replay", str(path)), 1, "step 10")


# --- store import -------------------------------------------------------------------------


@pytest.fixture
def exported(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """A store with one match, and that match's export document."""
    path = tmp_path / "matches.sqlite3"
    with MatchStore(path) as store:
        match_id, _final, _events = play_recorded(store, 9)
        document = exchange.export_match(store, match_id)
    return path, document


def _mutate(document: dict[str, Any], change: Callable[[dict[str, Any]], object]) -> str:
    copy = json.loads(json.dumps(document))
    change(copy)
    return json.dumps(copy)


def _set(section: str, key: str, value: Any) -> Callable[[dict[str, Any]], object]:
    return lambda d: d[section].__setitem__(key, value)


IMPORTS: dict[str, tuple[Callable[[dict[str, Any]], str], int, str]] = {
    # name: (file text from the export, exit code, words of the message)
    "nested JSON": (lambda d: '{"a":' * 100_000 + "1" + "}" * 100_000, 2, "nested too deeply"),
    "created a list": (lambda d: _mutate(d, _set("match", "created", ["x"])), 2, "created"),
    "created not a date": (
        lambda d: _mutate(d, _set("match", "created", "yesterday")),
        2,
        "created",
    ),
    "created out of range": (lambda d: _mutate(d, _set("match", "created", 1e300)), 2, "created"),
    "created a boolean": (lambda d: _mutate(d, _set("match", "created", True)), 2, "created"),
    "finished an object": (lambda d: _mutate(d, _set("match", "finished", {})), 2, "finished"),
    "players a list": (lambda d: _mutate(d, _set("match", "players", ["a"])), 2, "players"),
    "players nested": (
        lambda d: _mutate(d, _set("match", "players", {"0": {"x": [1]}})),
        2,
        "players",
    ),
    "players a number": (lambda d: _mutate(d, _set("match", "players", 7)), 2, "players"),
    "winner a text": (lambda d: _mutate(d, _set("match", "winner", "0")), 2, "winner"),
    "results a text": (lambda d: _mutate(d, _set("match", "results", "won")), 2, "results"),
    "meta a list": (lambda d: _mutate(d, _set("match", "meta", [1])), 2, "meta"),
    "events of texts": (
        lambda d: _mutate(d, lambda x: x.__setitem__("events", ["e"])),
        2,
        "events",
    ),
    "action (((": (
        lambda d: _mutate(d, lambda x: x["replay"]["actions"].__setitem__(0, "(((")),
        2,
        "step 1",
    ),
    "tampered hash": (
        lambda d: _mutate(d, lambda x: x["replay"]["hashes"].__setitem__("10", "0" * 24)),
        1,
        "step 10",
    ),
    "tampered action": (
        lambda d: _mutate(d, lambda x: x["replay"]["actions"].__setitem__(4, "pass")),
        1,
        "step 5",
    ),
    "tampered seed": (
        lambda d: _mutate(d, lambda x: x["replay"].__setitem__("seed", 10)),
        1,
        "step",
    ),
    "tampered config": (
        lambda d: _mutate(d, lambda x: x["replay"]["config"].__setitem__("decks", ["tempo"] * 2)),
        1,
        "step",
    ),
    "not an export": (lambda d: json.dumps({"format": "other"}), 2, "not a match export"),
    "newer format": (lambda d: _mutate(d, lambda x: x.__setitem__("format_version", 99)), 2, "99"),
}


@pytest.mark.parametrize("kind", list(IMPORTS))
def test_store_import_refuses_and_changes_nothing(
    exported: tuple[Path, dict[str, Any]], tmp_path: Path, kind: str
) -> None:
    database, document = exported
    make, code, words = IMPORTS[kind]
    path = tmp_path / "import.json"
    path.write_text(make(document), encoding="utf-8")
    with MatchStore(database) as store:
        before = [m.to_json() for m in store.list_matches()]
    refused(invoke("store", "import", str(path), "--db", str(database)), code, words)
    with MatchStore(database) as store:
        assert [m.to_json() for m in store.list_matches()] == before


def test_no_verify_imports_a_record_that_does_not_replay(
    exported: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    database, document = exported
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(document), encoding="utf-8")
    bad.write_text(IMPORTS["tampered hash"][0](document), encoding="utf-8")
    # One bad file among good ones: none is imported.
    refused(invoke("store", "import", str(good), str(bad), "--db", str(database)), 1, "bad.json")
    with MatchStore(database) as store:
        assert store.count() == 1
    result = invoke("store", "import", str(good), "--db", str(database))
    assert result.exit_code == 0 and "hashes verified" in result.output
    result = invoke("store", "import", str(bad), "--no-verify", "--db", str(database))
    assert result.exit_code == 0 and "not verified (--no-verify)" in result.output
    with MatchStore(database) as store:
        assert store.count() == 3
        assert store.check(3) is not None and store.check(2) is None


# --- play and watch options ---------------------------------------------------------------

OPTIONS = [
    ("play", "--port", "99999"),
    ("play", "--port", "-1"),
    ("play", "--port", "http"),
    ("play", "--pace", "-1"),
    ("play", "--pace", "-inf"),
    ("play", "--pace", "nan"),
    ("watch", "--pace", "-1"),
    ("watch", "--pace", "nan"),
    ("watch", "--best-of", "abc"),
]


@pytest.mark.parametrize("argv", OPTIONS, ids=[" ".join(o) for o in OPTIONS])
def test_numeric_options_out_of_range_are_refused(argv: tuple[str, ...]) -> None:
    result = invoke(*argv, "--no-store", "--no-browser") if argv[0] == "play" else invoke(*argv)
    assert result.exit_code == 2, result.output
    assert argv[1] in result.output


@pytest.mark.parametrize("origin", ["evil", "javascript:alert(1)", "http://a.b:99999", "ftp://x"])
def test_play_refuses_an_added_origin_that_is_no_origin(origin: str) -> None:
    result = invoke("play", "--allow-origin", origin, "--no-store", "--no-browser")
    refused(result, 2, "--allow-origin", "origin")
