"""The words a player sees, read off the page and judged: no raw id (a card or deck slug, a
Maken code, a rule switch's key, a COM level's id, an action code), no literal Markdown, no
command line to type, no Japanese on an English screen and no English on a Japanese one,
each but for a short list of deliberate words (brands, the seeds' own Latin terms, key caps).

Only what a person can see is read: the text of visible elements (a closed ``<details>``, a
hidden panel or a ``display: none`` element is not read; the options of a visible ``<select>``
are, as a person opens it) and the ``title``, ``aria-label`` and ``placeholder`` attributes of
visible elements (what a pointer or a screen reader tells).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kessen.engine import registry

# --- reading the page -----------------------------------------------------------------------

COLLECT = """() => {
  const seen = (el) => !!el && el.checkVisibility({ visibilityProperty: true });
  const where = (el) => {
    const path = [];
    for (let x = el; x && x !== document.body && path.length < 4; x = x.parentElement) {
      const named = typeof x.className === 'string' && x.className;
      const cls = named ? '.' + x.className.split(' ')[0] : '';
      path.push(x.id ? '#' + x.id : x.tagName.toLowerCase() + cls);
    }
    return path.reverse().join(' > ');
  };
  const shown = (el) => (el.tagName === 'OPTION' || el.tagName === 'OPTGROUP')
    ? seen(el.closest('select')) : seen(el);
  const out = [];
  const byElement = new Map();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.nodeValue.replace(/\\s+/g, ' ').trim();
    const el = n.parentElement;
    if (!text || !el || ['SCRIPT', 'STYLE', 'TEMPLATE'].includes(el.tagName)) continue;
    if (!shown(el)) continue;
    byElement.set(el, (byElement.get(el) || []).concat(text));
  }
  for (const [el, parts] of byElement) {
    const text = parts.join(' ');
    // An option that shows its own value as its words: a raw value, not a name.
    const raw = el.tagName === 'OPTION' && /^[a-z]/.test(el.value) && el.value === text;
    out.push({ where: where(el), text, raw });
  }
  const named = '[title], [aria-label], [placeholder], optgroup[label]';
  for (const el of document.querySelectorAll(named)) {
    if (!shown(el)) continue;
    for (const name of ['title', 'aria-label', 'placeholder', 'label']) {
      if (name === 'label' && el.tagName !== 'OPTGROUP') continue;
      const value = (el.getAttribute(name) || '').replace(/\\s+/g, ' ').trim();
      if (value) out.push({ where: `${where(el)} @${name}`, text: value, raw: false });
    }
  }
  return out;
}"""


@dataclass(frozen=True)
class Seen:
    """One visible text: where it is (a short element path), its words, and whether it is an
    ``<option>`` that shows its own raw value."""

    where: str
    text: str
    raw: bool = False


def read_screen(page: Any) -> list[Seen]:
    """Every visible text of the page now."""
    found: list[dict[str, Any]] = page.evaluate(COLLECT)
    return [Seen(f["where"], f["text"], bool(f["raw"])) for f in found]


# --- what must not be seen ------------------------------------------------------------------

KANA_KANJI = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f々〆]+")
JAPANESE_PUNCTUATION = re.compile(r"[、。「」『』（）：；]")
"""Japanese punctuation: on an English screen, a sign of words written for Japanese (the
seed's card mark 【！】 is not among them)."""
LATIN_WORD = re.compile(r"[A-Za-zÀ-ɏ]+")

BRAND_MARKS = frozenset({"攻", "TW"})
"""Marks that may stand alone as a whole text in either language: the backs of Kōbō's cards
carry its logo's first character, and the backs of TWGP's cards its initials."""

ALLOWED_JAPANESE_IN_ENGLISH = (
    "攻防",  # Kōbō's logo and its title beside the romanised name: "Kōbō (攻防)"
    "魔剣",  # Project Maken's logo
    "決戦",  # the product's own name
    "日本語",  # the language switch names Japanese in Japanese
)
"""Japanese words an English screen may show: brand marks, and the language switch."""

ALLOWED_LATIN_IN_JAPANESE = frozenset(
    {
        # brands and game titles, written in Latin letters on purpose
        "Kōbō",
        "TWGP",
        "Project",
        "Maken",
        "Kessen",
        # the language switch names English in English
        "English",
        "EN",
        # the seeds' own Latin terms (the Kōbō screen seed: COM, Lv, CARD INFORMATION, CHAIN,
        # RESOLVE; Project Maken's: LP, TP, GC, GB, RV, FB, Ver; TWGP's: HP)
        "COM",
        "Lv",
        "CARD",
        "INFORMATION",
        "CHAIN",
        "RESOLVE",
        "LP",
        "TP",
        "GC",
        "GB",
        "RV",
        "FB",
        "Ver",
        "HP",
        # "vs" between the two sides, as the TWGP seed writes it
        "vs",
        # key caps of the keyboard shortcuts
        "Tab",
        "Shift",
        "Enter",
        "Space",
        "Esc",
        "PageUp",
        "PageDown",
    }
)
"""Latin words a Japanese screen may show (a single letter, such as P1's P, is never a word)."""

MAKEN_CHARACTER = r"(?:SO|RI|MI|GA|GE)"
ALWAYS_RAW = (
    (re.compile(rf"\b{MAKEN_CHARACTER}\d\d\b"), "a Maken card code"),
    (re.compile(r"\b(?:so|ri|mi|ga|ge)\d\d\b"), "a Maken card slug"),
    (re.compile(rf"(?<![A-Za-z0-9]){MAKEN_CHARACTER}(?![A-Za-z0-9])"), "a Maken character code"),
    (
        re.compile(r"(?<![A-Za-z0-9♠♣♥♦/-])[scdh](?:10|[2-9]|[ajqk])(?![A-Za-z0-9])"),
        "a TWGP card slug",
    ),
    (re.compile(r"\b[a-z]+(?:[A-Z][a-z0-9]*)+\b"), "a camelCase key"),
    (re.compile(r"\*\*"), "literal Markdown (**)"),
    (re.compile(r"\bkessen\s+[a-z]|(?<!\S)--[a-z][a-z-]+"), "a command a player cannot run"),
    (re.compile(r"\b(?:null|undefined|NaN)\b|\[object Object\]"), "a program value"),
)


@dataclass
class Vocabulary:
    """The ids a player must never read: every slug, key and code of the three rulesets."""

    anywhere: set[str] = field(default_factory=set)
    """Ids that are no word of any language (hyphenated slugs, ``heuristic``): wrong anywhere."""
    alone: set[str] = field(default_factory=set)
    """Ids that are also words (``fortress``, ``jokers``, ``random``): wrong when they stand
    as a name: a whole text, a text's head before a dash or a colon that explains it
    (``jokers — …``), or glued to Japanese (「jokersスイッチ」)."""
    actions: set[str] = field(default_factory=set)
    """Action codes seen in the games' views (``attack so07``, ``charge-drive h3 1``)."""
    judged: dict[str, list[str]] = field(default_factory=dict, repr=False)
    """The ids found in each text already read, by the patterns and the fixed ids (a screen
    shows most of its texts again at every decision)."""

    def saw_actions(self, legal: Iterable[str]) -> None:
        """Remember the action codes of a prompt (those of more than one word)."""
        self.actions.update(a for a in legal if " " in a)


def vocabulary() -> Vocabulary:
    """The slugs, keys and codes of the rulesets the server offers."""
    vocab = Vocabulary()
    ids: set[str] = set()
    for name in ("kobo", "twgp", "maken"):
        rules = registry.get(name)
        catalog = rules.catalog("en")
        ids.update(str(k) for k in catalog.get("cards", {}))
        ids.update(str(k) for k in catalog.get("decks", {}))
        ids.update(str(k) for k in catalog.get("option_decks", {}))
        ids.update(str(k) for k in catalog.get("switches", {}))
        ids.update(str(k) for k in catalog.get("options", {}))
        ids.update(str(k) for k in rules.players)
    for slug in ids:
        if re.fullmatch(r"[A-Z]{2}\d\d|[scdh](?:10|[2-9]|[ajqk])", slug):
            continue  # the patterns above catch these
        if "-" in slug or slug in ("heuristic", "powerfulya") or re.search(r"[a-z][A-Z]", slug):
            vocab.anywhere.add(slug)
        else:
            vocab.alone.add(slug)
    return vocab


@functools.cache
def _token(word: str) -> re.Pattern[str]:
    """``word`` standing as a token of its own (not inside a longer slug or word)."""
    return re.compile(rf"(?<![A-Za-z0-9-]){re.escape(word)}(?![A-Za-z0-9-])")


@functools.cache
def _named(word: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """``word`` as a text's head before a dash or a colon, and ``word`` glued to Japanese."""
    escaped = re.escape(word)
    return (
        re.compile(rf"{escaped}\s*[—–:：]"),
        re.compile(rf"「{escaped}|(?<![A-Za-z0-9-]){escaped}(?=[ぁ-んァ-ヶ一-龠])"),
    )


def _fixed_ids(text: str, vocab: Vocabulary) -> list[str]:
    found = [f"{why} «{m.group(0)}»" for rx, why in ALWAYS_RAW for m in rx.finditer(text)]
    found += [f"an id «{w}»" for w in vocab.anywhere if _token(w).search(text)]
    for word in vocab.alone:
        head, glued = _named(word)
        if text == word or head.match(text) or glued.search(text):
            found.append(f"an id «{word}»")
    return found


def raw_ids(text: str, vocab: Vocabulary) -> list[str]:
    """The raw ids in one text (empty when it reads as words)."""
    if text not in vocab.judged:
        vocab.judged[text] = _fixed_ids(text, vocab)
    found = list(vocab.judged[text])
    found += [f"an action code «{a}»" for a in vocab.actions if _shows_action(text, a)]
    return found


_CODE_WORD = re.compile(r"[a-z]+\d|\d+[a-z]|[a-z]+-[a-z]")


def _shows_action(text: str, action: str) -> bool:
    """Whether ``text`` shows the action code ``action``: as the whole text (a button's title,
    a replay's move), or with a code word in it (``attack so07``: a slug, not a word). An
    action that reads as words (Kōbō's ``slot 2``, Maken's ``draw 1``) inside a sentence is
    the sentence's words."""
    if text == action:
        return True
    return action in text and any(_CODE_WORD.fullmatch(w) for w in action.split()[1:])


def wrong_language(text: str, lang: str, allowed: Iterable[str] = ()) -> list[str]:
    """Words of the other language in a text of ``lang`` (beside the allowed words and the
    names the player chose, ``allowed``)."""
    if text in BRAND_MARKS:
        return []
    for name in allowed:
        text = text.replace(name, " ")
    if lang == "en":
        for word in ALLOWED_JAPANESE_IN_ENGLISH:
            text = text.replace(word, " ")
        found = [f"Japanese on an English screen «{m.group(0)}»" for m in KANA_KANJI.finditer(text)]
        return found + [
            f"Japanese punctuation on an English screen «{m.group(0)}»"
            for m in JAPANESE_PUNCTUATION.finditer(text)
        ]
    words = [m.group(0) for m in LATIN_WORD.finditer(text)]
    return [
        f"English on a Japanese screen «{w}»"
        for w in words
        if len(w) > 1 and w not in ALLOWED_LATIN_IN_JAPANESE
    ]


@dataclass
class Findings:
    """What was wrong, screen by screen, each fault once."""

    lang: str
    vocab: Vocabulary
    allowed: list[str] = field(default_factory=list)
    faults: dict[str, str] = field(default_factory=dict)
    read: list[str] = field(default_factory=list)

    def check(self, page: Any, screen: str) -> list[Seen]:
        """Read the page and note what is wrong on it (as seen on ``screen``)."""
        seen = read_screen(page)
        for item in seen:
            self.read.append(f"[{screen}] {item.where}\t{item.text}")
            problems = raw_ids(item.text, self.vocab) + wrong_language(
                item.text, self.lang, self.allowed
            )
            if item.raw:
                problems.append(f"a raw value as a choice «{item.text}»")
            for problem in problems:
                key = f"{problem} in {item.text[:160]!r}"
                self.faults.setdefault(key, f"[{screen}] {item.where}: {key}")
        return seen

    def write(self, path: Path) -> None:
        """Keep everything read, and the faults, in a text file (for a person to look over)."""
        path.write_text("\n".join(self.read) + "\n\n" + self.report() + "\n", encoding="utf-8")

    def report(self) -> str:
        """Every fault, one a line (empty when there is none)."""
        return "\n".join(sorted(self.faults.values()))
