"""Card pictograms: every card has a vendored icon, the loader refuses unknown or active ones."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kessen.games.kobo.icons import (
    ICONS_PATH,
    IconDataError,
    authors_from_license,
    authors_from_tree,
    load_icons,
    pool_icon_names,
    vendor,
)
from kessen.games.kobo.schema import CardDataError, load_pool, parse_pool

_CARD = """
[[card]]
slug = "ember-fox"
kind = "character"
name_ja = "火狐"
name_en = "Ember Fox"
icon = "{icon}"
lv = 2
"""


def test_every_shipped_card_has_a_vendored_icon_with_an_author() -> None:
    icons = load_icons()
    pool = load_pool()
    for card in pool:
        assert card.icon in icons.names, card.slug
        assert icons.author_of(card.icon)
    # Exactly the icons the pool names are vendored: none missing, none unused.
    assert icons.names == {card.icon for card in pool} == set(pool_icon_names())


def test_icons_are_plain_svg_drawn_in_current_color() -> None:
    icons = load_icons()
    for name in icons.names:
        svg = icons.svg(name)
        assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">')
        assert "<script" not in svg and "onload" not in svg.lower()


def test_credits_name_the_licence_and_every_author() -> None:
    credits = load_icons().credits()
    assert isinstance(credits, dict)
    assert credits["license"]["spdx"] == "CC-BY-3.0"
    assert "Icons made by" in credits["notice"]
    assert "Creative Commons 3.0 BY" in credits["license_text"]
    names = [entry["name"] for entry in credits["icons"]]
    assert names == sorted(load_icons().names)
    by_name = {entry["name"]: entry for entry in credits["icons"]}
    assert by_name["spears"]["author"] == "Lorc"
    assert by_name["spears"]["author_url"] == "http://lorcblog.blogspot.com"


def test_a_card_naming_an_unknown_icon_is_refused_with_its_place() -> None:
    with pytest.raises(CardDataError) as err:
        parse_pool(_CARD.format(icon="no-such-icon").encode(), "pool.toml")
    assert 'pool.toml: card[0] (slug "ember-fox") .icon' in str(err.value)
    assert "'no-such-icon' is not a vendored icon" in str(err.value)
    assert parse_pool(_CARD.format(icon="spears").encode()).get("ember-fox").icon == "spears"


def test_the_loader_refuses_an_icon_file_with_active_content(tmp_path: Path) -> None:
    data = json.loads(ICONS_PATH.read_text(encoding="utf-8"))
    name = next(iter(data["icons"]))
    data["icons"][name]["body"] = '<path onload="alert(1)" d="M0 0"/>'
    hostile = tmp_path / "icons.json"
    hostile.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(IconDataError, match="active SVG content"):
        load_icons(hostile)
    broken = tmp_path / "broken.json"
    broken.write_text("{}", encoding="utf-8")
    with pytest.raises(IconDataError, match="not a vendored icon file"):
        load_icons(broken)


def test_vendoring_takes_authors_from_the_repository_and_its_licence() -> None:
    iconify = {
        "width": 512,
        "icons": {
            "spears": {"body": '<path d="M1 1"/>'},
            "castle": {"body": '<path d="M2 2"/>'},
            "bad": {"body": "<script>x()</script>"},
        },
    }
    tree = ["lorc/spears.svg", "lorc/castle.svg", "delapouite/castle.svg", "caro-asercion/bad.svg"]
    licence = "- Lorc, http://lorcblog.blogspot.com\n- Caro Asercion\n- Zeromancer - CC0\n"
    assert authors_from_license(licence)["zeromancer"] == ("Zeromancer", "")
    data = vendor(iconify, tree, ["spears"], licence)
    assert isinstance(data, dict)
    assert data["authors"] == {"lorc": {"name": "Lorc", "url": "http://lorcblog.blogspot.com"}}
    assert data["icons"] == {"spears": {"author": "lorc", "body": '<path d="M1 1"/>'}}
    with pytest.raises(IconDataError) as err:
        vendor(iconify, tree, ["castle", "bad", "missing"], licence)
    message = str(err.value)
    assert "castle: author unknown or ambiguous" in message
    assert "bad: active SVG content" in message
    assert "missing: not in the icon set" in message
    assert authors_from_tree(["a/x.svg", "README.md"]) == {"x": ["a"]}
