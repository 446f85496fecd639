"""The power conversion table of §1.9, as data, functions and the ``kessen twgp`` commands."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from kessen.games.twgp.commands import twgp_app
from kessen.games.twgp.power import PowerError, convert, find, games, label

SEED_EXAMPLES = [
    ("dragon-quest", [481], "04"),
    ("dragon-quest", [8700], "87"),
    ("magic", [2], "02"),
    ("magic", [14], "14"),
    ("weiss-schwarz", [500], "00"),
    ("weiss-schwarz", [2500], "02"),
    ("weiss-schwarz", [10000], "10"),
    ("duel-masters", [2], "02"),
    ("duel-masters", [9], "09"),
    ("battle-spirits", [2], "02"),
    ("battle-spirits", [12], "12"),
    ("vanguard", [3000], "03"),
    ("vanguard", [11000], "11"),
    ("dinosaur-king", [900], "09"),
    ("dinosaur-king", [2000], "20"),
    ("live-on", [2, 1], "03"),
    ("pokemon", [40], "04"),
    ("pokemon", [120], "12"),
]


@pytest.mark.parametrize(("game", "fields", "power"), SEED_EXAMPLES)
def test_the_seeds_examples(game: str, fields: list[int], power: str) -> None:
    assert label(convert(game, fields)) == power


def test_the_data_file_carries_the_same_examples() -> None:
    from_data = {(g.slug, f, label(p)) for g in games().values() for f, p in g.examples}
    assert from_data == {(g, tuple(f), p) for g, f, p in SEED_EXAMPLES}
    assert len(games()) == 10


def test_yugioh_counts_stars_unless_atk_or_def_is_zero() -> None:
    assert convert("yugioh", [4, 1800, 1000]) == 4
    assert convert("ygo", [8, 0, 2500]) == 0
    assert convert("yugioh", [3, 1200, 0]) == 0


def test_aliases_caps_and_errors() -> None:
    assert find("MTG").slug == "magic"
    assert convert("magic", [150]) == 99
    with pytest.raises(PowerError, match="unknown game"):
        convert("chess", [1])
    with pytest.raises(PowerError, match="one value"):
        convert("pokemon", [40, 50])
    with pytest.raises(PowerError, match="negative"):
        convert("magic", [-1])


def test_the_command_line() -> None:
    runner = CliRunner()
    result = runner.invoke(twgp_app, ["power", "pokemon", "120"])
    assert result.exit_code == 0 and result.output.strip() == "12"
    result = runner.invoke(twgp_app, ["power", "yugioh", "4", "1800", "0"])
    assert result.output.strip() == "00"
    result = runner.invoke(twgp_app, ["power", "live-on", "2", "1"])
    assert result.output.strip() == "03"
    result = runner.invoke(twgp_app, ["power", "chess", "1"])
    assert result.exit_code == 1 and "unknown game" in result.output
    result = runner.invoke(twgp_app, ["games", "--lang", "en"])
    assert result.exit_code == 0 and "Pokémon TCG" in result.output and "120→12" in result.output
