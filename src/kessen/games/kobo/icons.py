"""Card pictograms of Kōbō: the vendored game-icons subset, its SVG and its credits.

Each card of ``data/cards.toml`` names one icon of the game-icons set (https://game-icons.net,
CC BY 3.0) in its ``icon`` field. Only the icons the pool uses are vendored, in
``data/icons.json``, together with the set's licence and the author of each icon as the
set's repository lists it (one folder per author). The card loader refuses an icon name that
is not vendored, so a card never points at a missing picture.

To add an icon (after adding it to a card), unpack the npm package ``@iconify-json/game-icons``
and, in a clone of github.com/game-icons/icons, list its files (``git ls-tree -r --name-only
HEAD > tree.txt``) and keep its ``license.txt`` (the authors' names and pages), then run::

    python src/kessen/games/kobo/icons.py --iconify package/icons.json --tree tree.txt \
        --license license.txt

which rewrites ``data/icons.json`` with exactly the icons the pool names (run as a file, not
with ``-m``: the package refuses to load a pool that names an icon not vendored yet).

>>> icons = load_icons()
>>> icons.svg("spears").startswith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512"')
True
>>> icons.author_of("spears")
'Lorc'
"""

from __future__ import annotations

import argparse
import functools
import json
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kessen.engine.contract import Json

ICONS_PATH = Path(__file__).parent / "data" / "icons.json"
"""The vendored icon subset with its licence and credits."""
_CARDS_PATH = Path(__file__).parent / "data" / "cards.toml"

SET_LICENSE: Json = {
    "title": "CC BY 3.0",
    "spdx": "CC-BY-3.0",
    "url": "https://creativecommons.org/licenses/by/3.0/",
}
"""The licence of the game-icons set (its ``info.json`` and ``license.txt``)."""
SET_NOTICE = (
    "Icons provided under the Creative Commons 3.0 BY. "
    'Please, include a mention "Icons made by {author}" in your derivative work. '
    "More info and icons available at http://game-icons.net"
)
"""The set's own request for attribution, from its ``license.txt``."""
_UNSAFE = re.compile(r"<\s*(script|foreignObject|iframe|image|use)\b|\bon\w+\s*=|javascript:", re.I)


class IconDataError(ValueError):
    """The vendored icon file, or a request to vendor icons, is not usable."""


@dataclass(frozen=True)
class IconSet:
    """The vendored icons: SVG bodies by name, each with its author, plus the set's licence."""

    width: int
    height: int
    bodies: Mapping[str, str]
    authors: Mapping[str, str]
    author_pages: Mapping[str, str]
    source: str
    license_text: str = ""

    @property
    def names(self) -> frozenset[str]:
        """Every vendored icon name."""
        return frozenset(self.bodies)

    def svg(self, name: str) -> str:
        """The icon as a standalone SVG document (drawn in ``currentColor``)."""
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {self.width} {self.height}">'
            f"{self.bodies[name]}</svg>"
        )

    def author_of(self, name: str) -> str:
        """The display name of the icon's author."""
        return self.authors[name]

    def credits(self) -> Json:
        """Licence and attribution of every vendored icon, for a credits screen."""
        return {
            "set": "game-icons",
            "title": "Game Icons",
            "homepage": "https://game-icons.net",
            "source": self.source,
            "license": dict(SET_LICENSE),
            "notice": SET_NOTICE,
            "license_text": self.license_text,
            "icons": [
                {
                    "name": name,
                    "author": self.authors[name],
                    "author_url": self.author_pages.get(self.authors[name], ""),
                }
                for name in sorted(self.bodies)
            ],
        }


@functools.cache
def load_icons(path: Path = ICONS_PATH) -> IconSet:
    """Read and check the vendored icon file (cached per path)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        icons: dict[str, Any] = data["icons"]
        authors_raw: dict[str, Any] = data["authors"]
        bodies = {name: str(entry["body"]) for name, entry in icons.items()}
        authors = {name: str(authors_raw[entry["author"]]["name"]) for name, entry in icons.items()}
        pages = {str(a["name"]): str(a.get("url", "")) for a in authors_raw.values()}
        width, height, source = int(data["width"]), int(data["height"]), str(data["source"])
        license_text = str(data.get("license_text", ""))
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise IconDataError(f"{path}: not a vendored icon file ({err!r})") from None
    for name, body in bodies.items():
        if _UNSAFE.search(body):
            raise IconDataError(f"{path}: icon {name!r} has active SVG content")
    return IconSet(width, height, bodies, authors, pages, source, license_text)


def icon_names() -> frozenset[str]:
    """The names a card's ``icon`` field may take."""
    return load_icons().names


# --------------------------------------------------------------------------------------------
# Vendoring (maintenance; not used at run time)
# --------------------------------------------------------------------------------------------


def authors_from_tree(paths: Iterable[str]) -> dict[str, list[str]]:
    """Icon name → the author folders that hold ``<name>.svg`` in the set's repository.

    >>> authors_from_tree(["lorc/spears.svg", "delapouite/castle.svg", "lorc/castle.svg", "x.md"])
    {'spears': ['lorc'], 'castle': ['delapouite', 'lorc']}
    """
    found: dict[str, list[str]] = {}
    for path in paths:
        parts = path.strip().split("/")
        if len(parts) >= 2 and parts[-1].endswith(".svg"):
            found.setdefault(parts[-1][: -len(".svg")], []).append(parts[0])
    return found


def authors_from_license(text: str) -> dict[str, tuple[str, str]]:
    """Author folder key → (display name, page) from the set's ``license.txt``.

    The key is the name with everything but letters and digits dropped, lower-cased, so the
    folder ``caro-asercion`` finds "Caro Asercion".

    >>> authors_from_license("- Lorc, http://lorcblog.blogspot.com\\n- Caro Asercion\\n")
    {'lorc': ('Lorc', 'http://lorcblog.blogspot.com'), 'caroasercion': ('Caro Asercion', '')}
    """
    found: dict[str, tuple[str, str]] = {}
    for line in text.splitlines():
        match = re.fullmatch(r"\s*-\s*([^,]+?)\s*(?:,\s*(\S+))?(?:\s+-\s*CC0)?\s*", line)
        if match:
            name, url = match.group(1), match.group(2) or ""
            found[_author_key(name)] = (name, url)
    return found


def _author_key(name: str) -> str:
    """Letters and digits of an author's name or folder, lower-cased."""
    return re.sub(r"[^0-9a-z]", "", name.lower())


def vendor(
    iconify: Mapping[str, Any],
    tree: Iterable[str],
    names: Iterable[str],
    license_text: str = "",
) -> Json:
    """The ``icons.json`` content for ``names`` taken from an Iconify JSON of the set.

    Refuses a name the set lacks, a name whose author is ambiguous in the repository (two
    authors drew an icon of that name: choose another), and a body with active content.
    """
    by_name = authors_from_tree(tree)
    pages = authors_from_license(license_text)
    problems: list[str] = []
    icons: dict[str, Json] = {}
    used_authors: dict[str, Json] = {}
    for name in sorted(set(names)):
        entry = iconify["icons"].get(name)
        folders = by_name.get(name, [])
        if entry is None:
            problems.append(f"{name}: not in the icon set")
        elif len(folders) != 1:
            problems.append(f"{name}: author unknown or ambiguous in the repository {folders}")
        elif _UNSAFE.search(entry["body"]):
            problems.append(f"{name}: active SVG content")
        else:
            folder = folders[0]
            display, url = pages.get(_author_key(folder), (folder.capitalize(), ""))
            used_authors[folder] = {"name": display, "url": url}
            icons[name] = {"author": folder, "body": entry["body"]}
    if problems:
        raise IconDataError("\n".join(problems))
    return {
        "source": "npm @iconify-json/game-icons; authors from github.com/game-icons/icons",
        "license": dict(SET_LICENSE),
        "notice": SET_NOTICE,
        "license_text": license_text,
        "width": int(iconify.get("width", 512)),
        "height": int(iconify.get("height", 512)),
        "authors": dict(sorted(used_authors.items())),
        "icons": icons,
    }


def pool_icon_names(cards_path: Path = _CARDS_PATH) -> list[str]:
    """The ``icon`` values of a card-pool file, read without validating them."""
    raw = tomllib.loads(cards_path.read_text(encoding="utf-8"))
    return [str(card["icon"]) for card in raw.get("card", []) if "icon" in card]


def main(argv: Sequence[str] | None = None) -> None:
    """Rewrite ``data/icons.json`` for the icons the shipped pool names."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--iconify", type=Path, required=True, help="icons.json of the npm set")
    parser.add_argument("--tree", type=Path, required=True, help="file list of the repository")
    parser.add_argument("--license", type=Path, required=True, help="license.txt of the set")
    args = parser.parse_args(argv)
    iconify = json.loads(args.iconify.read_text(encoding="utf-8"))
    tree = args.tree.read_text(encoding="utf-8").splitlines()
    license_text = args.license.read_text(encoding="utf-8")
    data = vendor(iconify, tree, pool_icon_names(), license_text)
    ICONS_PATH.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
