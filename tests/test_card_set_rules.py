"""Card sets as the rulesets see them: Kōbō's and Maken's own checks by field (in Japanese and
English), the TOML they ship read and written back, configs naming a set, and the shipped data
left exactly as it is."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from kessen.engine import card_sets, registry
from kessen.engine.card_sets import CardSetError, SetProblems, content_hash, parse_ref, remember
from kessen.engine.contract import RulesError
from kessen.engine.players import RandomPlayer
from kessen.games.kobo import card_sets as kobo_sets
from kessen.games.kobo.card_versions import known_versions, pool_for
from kessen.games.kobo.schema import CARDS_PATH, DATA_DIR
from kessen.games.kobo.state import KoboState
from kessen.games.maken import card_sets as maken_sets
from kessen.games.maken.cards import DATA as MAKEN_DATA

SHIPPED_FILES = sorted(p for d in (DATA_DIR, MAKEN_DATA) for p in d.rglob("*.toml"))


@pytest.fixture(autouse=True)
def _own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv(card_sets.CACHE_ENV, str(tmp_path / "set-cache"))
    monkeypatch.setattr(card_sets, "_KNOWN", {})
    yield


def _ref(ruleset: str, name: str, data: dict[str, object]) -> str:
    fmt = card_sets.format_for(ruleset)
    text, digest = card_sets.canonical(fmt, data)
    remember(ruleset, text)
    return f"{name}@{digest}"


def _paths(problems: list[card_sets.FieldProblem]) -> dict[str, card_sets.FieldProblem]:
    return {p.path: p for p in problems}


def test_shipped_versions_read_back_from_their_canonical_toml() -> None:
    for label in kobo_sets.parents():
        data = kobo_sets.normalize(kobo_sets.shipped(label))
        assert kobo_sets.validate(data) == []
        assert kobo_sets.from_toml(kobo_sets.to_toml(data)) == data
    assert kobo_sets.parents() == [f"v{v}" for v in sorted(known_versions(), reverse=True)]
    maken = maken_sets.normalize(maken_sets.shipped())
    assert maken_sets.validate(maken) == []
    assert maken_sets.from_toml(maken_sets.to_toml(maken)) == maken


def test_kobo_problems_name_the_field_in_japanese_and_english() -> None:
    data = kobo_sets.normalize(kobo_sets.shipped("v3"))
    data["cards"][12]["lv"] = 3  # a deploy card with a Lv
    data["cards"][0]["lv"] = 12
    data["cards"][20]["steps"] = [{"verb": "draw", "amount": 1}]
    data["cards"][3]["slug"] = "Bad Slug"
    vanguard = [d["slug"] for d in data["decks"]].index("vanguard")
    data["decks"][vanguard]["main"]["oni-warlord"] = 3  # 2 in the shipped deck
    data["extra"] = 1
    found = _paths(kobo_sets.validate(data))
    assert found["cards[12].lv"].ja.startswith("Lvを持つのはキャラだけです")
    assert "only characters have a Lv" in found["cards[12].lv"].en
    assert found["cards[0].lv"].ja == "9以下にしてください"
    assert "'draw' is not allowed" in found["cards[20].steps[0].verb"].en
    assert "英小文字" in found["cards[3].slug"].ja
    where = f"decks[{vanguard}].main"
    assert found[f"{where}.oni-warlord"].ja.endswith("同じカードは2枚までです。")
    assert found[where].en.startswith("main deck has 21 cards")
    assert "知らない項目" in found["extra"].ja
    preview = kobo_sets.card_preview({"slug": "x", "kind": "tactic", "name_ja": "あ"})
    assert preview["text"] is None
    assert [p["path"] for p in preview["problems"]] == ["name_en"]


def test_maken_problems_name_the_field_in_japanese_and_english() -> None:
    data = maken_sets.normalize(maken_sets.shipped())
    data["cards"][0]["spd"] = -1
    data["cards"][1]["duration"] = "turn"  # an attack card
    data["cards"][2]["abilities"] = [{"timing": "ON_HIT", "effect": "mod", "stat": "atk", "n": 1}]
    del data["decks"]["GA"]["cards"]["GA01"]
    found = _paths(maken_sets.validate(data))
    assert found["cards[0].spd"].ja == "0以上にしてください"
    assert "攻撃カードに duration はありません" in found["cards[1]"].ja
    assert "only HAND_OWN, HAND_OPP and SELF" in found["cards[2].abilities[0]"].en
    assert found["decks.GA"].en == "the deck has 47 cards, not 50"
    assert found["decks.GA"].ja == "デッキが47枚です。50枚にしてください"
    preview = maken_sets.card_preview(data["cards"][5])
    assert preview["problems"] == [] and preview["text"]["en"].startswith("Speed")


def test_a_set_unchanged_from_its_parent_plays_the_parents_games() -> None:
    for ruleset, data, config in (
        ("kobo", kobo_sets.shipped("v3"), {"decks": ["swarm", "fortress"], "best_of": 1}),
        ("maken", maken_sets.shipped(), {"decks": ["RI", "MI"]}),
    ):
        rules = registry.get(ruleset)
        ref = _ref(ruleset, "same", data)
        for seed in (1, 2):
            games = []
            for chosen in (config, {**config, "card_set": ref}):
                state = rules.new_game(chosen, seed)
                players = {s: RandomPlayer(seed + s) for s in (0, 1)}
                actions = []
                while state.pending is not None:
                    action = players[state.pending.seat].choose({}, state.legal_actions())
                    state.apply(action)
                    actions.append(str(action))
                games.append((actions, state.outcome))
            assert games[0] == games[1], (ruleset, seed)


def test_a_set_changes_the_game_and_its_views_name_it() -> None:
    data = kobo_sets.normalize(kobo_sets.shipped("v3"))
    data["cards"][0]["lv"] = 7
    data["cards"][0]["name_en"] = "Veteran Recruit"
    ref = _ref("kobo", "vet", data)
    rules = registry.get("kobo")
    state = rules.new_game({"decks": ["swarm", "tempo"], "card_set": ref}, 4)
    assert isinstance(state, KoboState)
    assert {d.lv for d in state.defs if d.slug == "ashigaru-recruit"} == {7}
    view = state.view(0)
    assert view["card_set"] == ref
    catalog = rules.catalog("en", {"card_set": ref})
    assert catalog["cards"]["ashigaru-recruit"]["name"] == "Veteran Recruit"
    assert catalog["card_set"] == ref and sorted(catalog["decks"]) == sorted(
        d["slug"] for d in data["decks"] if "requires" not in d
    )
    assert "card_set" not in rules.new_game({"decks": ["swarm", "tempo"]}, 4).view(0)
    copy = rules.from_json(state.to_json())
    assert copy.state_hash() == state.state_hash()


def test_configs_naming_a_set_are_checked() -> None:
    rules = registry.get("kobo")
    unknown = "x@" + "0" * 64
    for config, words in (
        ({"decks": ["swarm", "tempo"], "card_set": "just-a-name"}, "expected NAME@HASH"),
        ({"decks": ["swarm", "tempo"], "card_set": unknown}, "no kobo card set x@000000000000"),
        ({"decks": ["swarm", "tempo"], "card_set": 3}, "expected NAME@HASH"),
    ):
        with pytest.raises(RulesError, match=words):
            rules.new_game(config, 1)
    ref = _ref("kobo", "both", kobo_sets.shipped("v3"))
    with pytest.raises(RulesError, match="not both"):
        rules.new_game({"decks": ["swarm", "tempo"], "card_set": ref, "card_data": 3}, 1)
    with pytest.raises(RulesError, match="no maken card set"):
        registry.get("maken").new_game({"card_set": unknown}, 1)
    with pytest.raises(CardSetError):
        parse_ref("shipped@" + "0" * 64)  # a reserved name


def test_the_shipped_card_data_never_changes() -> None:
    """Deriving, revising and playing sets writes nothing in the package: every shipped file
    keeps its bytes, and each version's pool hash is its file's SHA-256."""
    before = {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in SHIPPED_FILES}
    data = kobo_sets.normalize(kobo_sets.shipped("v3"))
    data["cards"][0]["lv"] = 9
    ref = _ref("kobo", "edit", data)
    registry.get("kobo").new_game({"decks": ["swarm", "tempo"], "card_set": ref}, 1)
    maken = maken_sets.normalize(maken_sets.shipped())
    maken["cards"][0]["atk"] = 10
    registry.get("maken").new_game({"card_set": _ref("maken", "m", maken)}, 1)
    after = {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in SHIPPED_FILES}
    assert after == before
    assert pool_for(max(known_versions())).data_hash == before[CARDS_PATH]
    for version in known_versions()[:-1]:
        assert pool_for(version).data_hash == before[DATA_DIR / f"cards-v{version}.toml"]
    assert kobo_sets.shipped("v3")["cards"][0]["lv"] != 9


def test_set_text_comes_from_resolvers_and_the_cache_and_is_checked() -> None:
    text = kobo_sets.to_toml(kobo_sets.normalize(kobo_sets.shipped("v2")))
    digest = content_hash(text)
    assert card_sets.set_text("kobo", digest) is None
    remove = card_sets.add_resolver(lambda ruleset, h: text if h == digest else "tampered")
    try:
        assert card_sets.set_text("kobo", "f" * 64) is None  # wrong hash: refused
        assert card_sets.set_text("kobo", digest) == text
    finally:
        remove()
    card_sets._KNOWN.clear()
    assert card_sets.set_text("kobo", digest) == text  # from the on-disk cache now
    with pytest.raises(SetProblems, match="Invalid"):
        kobo_sets.from_toml("version = ?")
