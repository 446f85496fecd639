"""Card pool loader: validates the Kōbō card TOML (pydantic + semantic checks) into CardDef records.

The pool file is a list of ``[[card]]`` tables. Every problem of a file is reported at once, one
line each, naming the file, the card and the field:

    cards.toml: card[3] (slug "stone-golem") .lv: Input should be less than or equal to 9

Card indexes count from 0, in file order, like the TOML array they come from. TOML syntax errors
are reported as ``file:line:col: reason``.
"""

from __future__ import annotations

import difflib
import functools
import hashlib
import re
import tomllib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
)

from kessen.engine.card_sets import FieldProblem, Said, problem, pydantic_problems
from kessen.games.kobo.cards import (
    CHAIN_VERBS,
    DEPLOY_VERBS,
    SURPRISE_VERBS,
    TARGETED_VERBS,
    CardDef,
    CardKind,
    Condition,
    Scope,
    Side,
    Step,
    SurpriseAbility,
    Target,
    Timing,
    Verb,
)
from kessen.games.kobo.icons import icon_names

DATA_DIR = Path(__file__).parent / "data"
"""The package's data directory (card pool and starter decks)."""
CARDS_PATH = DATA_DIR / "cards.toml"
"""The shipped card pool."""
SLUG_RE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
"""Kebab-case ASCII: lowercase letters and digits in words joined by single hyphens."""
MIN_CHARACTER_LV = 1
MAX_CHARACTER_LV = 9

_CHAIN_KINDS = frozenset({CardKind.TRAP, CardKind.TACTIC})
_VERBS_BY_KIND: dict[CardKind, frozenset[Verb]] = {
    CardKind.CHARACTER: frozenset(),
    CardKind.DEPLOY: DEPLOY_VERBS,
    CardKind.TRAP: CHAIN_VERBS,
    CardKind.TACTIC: CHAIN_VERBS,
}
_KIND_WORD = {
    CardKind.CHARACTER: "a character",
    CardKind.DEPLOY: "a deploy card",
    CardKind.TRAP: "a trap",
    CardKind.TACTIC: "a tactic",
}
_KIND_WORD_JA = {
    CardKind.CHARACTER: "キャラ",
    CardKind.DEPLOY: "展開カード",
    CardKind.TRAP: "罠カード",
    CardKind.TACTIC: "戦術カード",
}
_TOML_POSITION = re.compile(r"^(?P<reason>.*) \(at line (?P<line>\d+), column (?P<col>\d+)\)$")
_TOML_AT_END = re.compile(r"^(?P<reason>.*) \(at end of document\)$")
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


class CardDataError(ValueError):
    """A card or deck data file is malformed; the message lists every problem, one per line.

    Each line names the file, then the field path (or ``line:col`` for TOML syntax errors), then
    the reason.
    """


# --------------------------------------------------------------------------------------------
# Shared helpers for data files (also used by the deck loader)
# --------------------------------------------------------------------------------------------


def parse_toml(data: bytes, source: str) -> dict[str, Any]:
    """Parse TOML bytes; raise :class:`CardDataError` as ``source:line:col: reason`` on error.

    >>> parse_toml(b"a = 1", "x.toml")
    {'a': 1}
    >>> parse_toml(b"a = 1\\nb = ?\\n", "x.toml")
    Traceback (most recent call last):
    ...
    kessen.games.kobo.schema.CardDataError: x.toml:2:5: Invalid value
    >>> parse_toml(b"a = " + b"[" * 3000 + b"]" * 3000, "x.toml")
    Traceback (most recent call last):
    ...
    kessen.games.kobo.schema.CardDataError: x.toml: nested too deeply (arrays or inline tables)
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line, col = _line_col(data[: err.start].decode("utf-8", "replace"))
        raise CardDataError(f"{source}:{line}:{col}: not valid UTF-8 ({err.reason})") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise CardDataError(_toml_error_message(source, text, str(err))) from None
    except RecursionError:  # tomllib recurses once per nested array or inline table
        raise CardDataError(f"{source}: nested too deeply (arrays or inline tables)") from None


def _line_col(before: str) -> tuple[int, int]:
    """1-based line and column of the position just after ``before``."""
    lines = before.split("\n")
    return len(lines), len(lines[-1]) + 1


def _toml_error_message(source: str, text: str, message: str) -> str:
    """Rewrite tomllib's "reason (at line L, column C)" as "source:L:C: reason"."""
    if match := _TOML_POSITION.match(message):
        return f"{source}:{match['line']}:{match['col']}: {match['reason']}"
    if match := _TOML_AT_END.match(message):
        line, col = _line_col(text)
        return f"{source}:{line}:{col}: {match['reason']} (at end of file)"
    return f"{source}: {message}"


def format_path(loc: Iterable[int | str]) -> str:
    """A pydantic location as a TOML-like field path.

    >>> format_path(("steps", 0, "verb"))
    'steps[0].verb'
    >>> format_path(("main", "odd key"))
    'main."odd key"'
    """
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            key = part if _BARE_KEY.fullmatch(part) else f'"{part}"'
            out += f".{key}" if out else key
    return out


def validation_lines(
    source: str, err: ValidationError, where: Callable[[tuple[int | str, ...]], str]
) -> list[str]:
    """One ``source: <where(loc)>: reason`` line per error of a pydantic ``ValidationError``."""
    return [f"{source}: {where(tuple(e['loc']))}: {e['msg']}" for e in err.errors()]


def raise_if_any(lines: list[str]) -> None:
    """Raise :class:`CardDataError` listing ``lines`` if there are any."""
    if lines:
        raise CardDataError("\n".join(lines))


# --------------------------------------------------------------------------------------------
# The file shape
# --------------------------------------------------------------------------------------------

_Name = Annotated[StrictStr, Field(min_length=1)]


class _TargetModel(BaseModel):
    """``target = {side = ..., scope = ...}``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    side: Side
    scope: Scope


class _StepModel(BaseModel):
    """``{verb = ..., amount = ...}``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    verb: Verb
    amount: Annotated[StrictInt, Field(ge=-9, le=9)] = 0


class _SurpriseModel(BaseModel):
    """``surprise = [{on = ..., target = {...}, steps = [...]}]``: a 【！】 ability."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    on: Condition
    target: _TargetModel | None = None
    steps: tuple[_StepModel, ...] = ()

    def to_ability(self) -> SurpriseAbility:
        """The run-time record."""
        target = None if self.target is None else Target(self.target.side, self.target.scope)
        return SurpriseAbility(self.on, target, tuple(Step(s.verb, s.amount) for s in self.steps))


class CardModel(BaseModel):
    """One ``[[card]]`` table of a card data file, as validated (the card editor's form is
    drawn from its JSON Schema: :mod:`kessen.server.design_forms`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    slug: StrictStr
    kind: CardKind
    name_ja: _Name
    name_en: _Name
    icon: StrictStr | None = None
    lv: Annotated[StrictInt, Field(ge=0, le=MAX_CHARACTER_LV)] = 0
    limited: StrictBool = False
    chain_again: StrictBool = False
    when: Timing | None = None
    target: _TargetModel | None = None
    steps: tuple[_StepModel, ...] = ()
    surprise: tuple[_SurpriseModel, ...] = ()

    def to_def(self) -> CardDef:
        """The run-time record."""
        target = None if self.target is None else Target(self.target.side, self.target.scope)
        return CardDef(
            slug=self.slug,
            name_ja=self.name_ja,
            name_en=self.name_en,
            icon=self.icon or "",
            kind=self.kind,
            lv=self.lv,
            limited=self.limited,
            chain_again=self.chain_again,
            when=Timing.ANY if self.when is None else self.when,
            target=target,
            steps=tuple(Step(s.verb, s.amount) for s in self.steps),
            surprise=tuple(a.to_ability() for a in self.surprise),
        )


# --------------------------------------------------------------------------------------------
# Semantic checks (beyond types): each yields (field path, reason)
# --------------------------------------------------------------------------------------------

_Problem = tuple[str, Said]
"""A field path inside a card and what is wrong there (English, with its Japanese text)."""


def _kinds(kind: CardKind) -> tuple[str, str]:
    """The kind as a noun in English and Japanese."""
    return _KIND_WORD[kind], _KIND_WORD_JA[kind]


def _card_problems(card: CardModel) -> list[_Problem]:
    """Every rule a single (well-typed) card breaks."""
    problems = _icon_problems(card) + _surprise_problems(card)
    if card.kind is CardKind.CHARACTER:
        return problems + _character_problems(card)
    return problems + _effect_problems(card)


def _surprise_problems(card: CardModel) -> list[_Problem]:
    """【！】 abilities: tactics only; allowed verbs, amounts; a target exactly when a step
    needs one, never a chosen one (nobody is asked for a target mid-event)."""
    if not card.surprise:
        return []
    if card.kind is not CardKind.TACTIC:
        en, ja = _kinds(card.kind)
        return [
            (
                "surprise",
                Said(
                    f"only tactics have 【！】 abilities, not {en}",
                    f"【！】能力を持てるのは戦術カードだけです（これは{ja}です）",
                ),
            )
        ]
    problems: list[_Problem] = []
    for i, ability in enumerate(card.surprise):
        where = f"surprise[{i}]"
        if not ability.steps:
            problems.append(
                (
                    f"{where}.steps",
                    Said(
                        "a 【！】 ability needs at least one step",
                        "【！】能力には効果が1つ以上必要です",
                    ),
                )
            )
        for j, step in enumerate(ability.steps):
            if step.verb not in SURPRISE_VERBS:
                names = ", ".join(sorted(SURPRISE_VERBS))
                problems.append(
                    (
                        f"{where}.steps[{j}].verb",
                        Said(
                            f"{step.verb.value!r} is not allowed (allowed: {names})",
                            f"「{step.verb.value}」は使えません（使えるもの：{names}）",
                        ),
                    )
                )
            if reason := _amount_problem(step):
                problems.append((f"{where}.steps[{j}].amount", reason))
        targeted = any(s.verb in TARGETED_VERBS for s in ability.steps)
        if targeted and ability.target is None:
            problems.append(
                (
                    f"{where}.target",
                    Said(
                        "a Lv or retreat step needs a target",
                        "Lvを変える効果や退場させる効果には対象が必要です",
                    ),
                )
            )
        if not targeted and ability.target is not None:
            problems.append(
                (
                    f"{where}.target",
                    Said(
                        "no step uses a target; remove it",
                        "対象を使う効果がありません。対象を外してください",
                    ),
                )
            )
        if ability.target is not None and ability.target.scope is Scope.CHOSEN:
            problems.append(
                (
                    f"{where}.target.scope",
                    Said(
                        "a 【！】 ability uses scope 'participants' or 'all'",
                        "【！】能力の範囲は participants か all です",
                    ),
                )
            )
    return problems


def _icon_problems(card: CardModel) -> list[_Problem]:
    """An ``icon`` names a vendored pictogram."""
    if card.icon is None or card.icon in icon_names():
        return []
    return [
        (
            "icon",
            Said(
                f"{card.icon!r} is not a vendored icon (kessen.games.kobo.icons)",
                f"「{card.icon}」という絵柄はありません",
            ),
        )
    ]


def _character_problems(card: CardModel) -> list[_Problem]:
    """A character has a Lv in range and no effect fields."""
    problems: list[_Problem] = []
    if not MIN_CHARACTER_LV <= card.lv <= MAX_CHARACTER_LV:
        problems.append(
            (
                "lv",
                Said(
                    f"a character needs {MIN_CHARACTER_LV} <= lv <= {MAX_CHARACTER_LV}, "
                    f"got {card.lv}",
                    f"キャラのLvは{MIN_CHARACTER_LV}〜{MAX_CHARACTER_LV}です（{card.lv}になっています）",
                ),
            )
        )
    for field in ("when", "target", "steps", "chain_again"):
        if field in card.model_fields_set:
            problems.append(
                (
                    field,
                    Said(
                        "a character has no effect; remove this field",
                        "キャラには効果がありません。この項目を外してください",
                    ),
                )
            )
    return problems


def _effect_problems(card: CardModel) -> list[_Problem]:
    """Deploy cards, traps and tactics: Lv, keywords, steps and target."""
    problems: list[_Problem] = []
    en, ja = _kinds(card.kind)
    if card.lv != 0:
        problems.append(
            (
                "lv",
                Said(
                    f"only characters have a Lv; {en} must have lv 0 or none",
                    f"Lvを持つのはキャラだけです。{ja}のLvは0か空にしてください",
                ),
            )
        )
    if card.kind not in _CHAIN_KINDS:
        for field in ("when", "chain_again"):
            if field in card.model_fields_set:
                problems.append(
                    (
                        field,
                        Said(
                            f"only traps and tactics have this field, not {en}",
                            f"この項目は罠カードと戦術カードだけのものです（これは{ja}です）",
                        ),
                    )
                )
    if not card.steps:
        problems.append(
            ("steps", Said(f"{en} needs at least one step", f"{ja}には効果が1つ以上必要です"))
        )
    problems += _step_problems(card)
    problems += _target_problems(card)
    return problems


def _step_problems(card: CardModel) -> list[_Problem]:
    """Verbs allowed for the kind, amounts, and retreat_if_zero placement."""
    problems: list[_Problem] = []
    allowed = _VERBS_BY_KIND[card.kind]
    modified = False
    en, ja = _kinds(card.kind)
    for i, step in enumerate(card.steps):
        where = f"steps[{i}]"
        if step.verb not in allowed:
            names = ", ".join(sorted(allowed))
            problems.append(
                (
                    f"{where}.verb",
                    Said(
                        f"{step.verb.value!r} is not allowed on {en} (allowed: {names})",
                        f"{ja}に「{step.verb.value}」は使えません（使えるもの：{names}）",
                    ),
                )
            )
        if step.verb is Verb.RETREAT_IF_ZERO and not modified:
            problems.append(
                (
                    f"{where}.verb",
                    Said(
                        "'retreat_if_zero' must come after a 'modify_lv' step",
                        "retreat_if_zero は modify_lv の後に置いてください",
                    ),
                )
            )
        modified = modified or step.verb is Verb.MODIFY_LV
        if reason := _amount_problem(step):
            problems.append((f"{where}.amount", reason))
    return problems


def _amount_problem(step: _StepModel) -> Said | None:
    """What is wrong with a step's amount, if anything."""
    if step.verb is Verb.MODIFY_LV:
        if step.amount == 0:
            return Said("modify_lv needs a non-zero amount", "modify_lv の量は0以外にしてください")
        return None
    if step.verb is Verb.DRAW:
        if step.amount < 1:
            return Said(
                f"draw needs an amount >= 1, got {step.amount}",
                f"draw の枚数は1以上です（{step.amount}になっています）",
            )
        return None
    if step.amount != 0:
        return Said(
            f"{step.verb.value} takes no amount (got {step.amount})",
            f"{step.verb.value} に量はありません（{step.amount}になっています）",
        )
    return None


def _target_problems(card: CardModel) -> list[_Problem]:
    """A target exactly when a step needs one, legal for the kind and the verbs."""
    targeted = [s.verb for s in card.steps if s.verb in TARGETED_VERBS]
    target = card.target
    if target is None:
        if targeted:
            return [
                (
                    "target",
                    Said(
                        f"step verb {targeted[0].value!r} needs a target, "
                        'e.g. target = {side = "own", scope = "chosen"}',
                        f"「{targeted[0].value}」には対象が必要です"
                        '（例：target = {side = "own", scope = "chosen"}）',
                    ),
                )
            ]
        return []
    if not targeted:
        verbs = ", ".join(sorted(TARGETED_VERBS))
        return [
            (
                "target",
                Said(
                    f"no step uses a target (only {verbs} do); remove it",
                    f"対象を使う効果がありません（使うのは {verbs}）。対象を外してください",
                ),
            )
        ]
    problems: list[_Problem] = []
    if card.kind is CardKind.DEPLOY:
        if target.scope not in (Scope.CHOSEN, Scope.ALL):
            problems.append(
                (
                    "target.scope",
                    Said(
                        "a deploy card may only use scope 'chosen' or 'all' "
                        "(there is no exchange during standby)",
                        "展開カードの範囲は chosen か all だけです（準備中に交戦はありません）",
                    ),
                )
            )
        if target.side not in (Side.OWN, Side.OPPONENT):
            problems.append(
                (
                    "target.side",
                    Said(
                        "a deploy card may only use side 'own' or 'opponent' "
                        "(there is no exchange during standby)",
                        "展開カードの側は own か opponent だけです（準備中に交戦はありません）",
                    ),
                )
            )
    if Verb.CHANGE_TARGET in targeted and (
        target.side is not Side.DEFENDING or target.scope is not Scope.CHOSEN
    ):
        problems.append(
            (
                "target",
                Said(
                    'change_target needs target = {side = "defending", scope = "chosen"}',
                    'change_target の対象は {side = "defending", scope = "chosen"} です',
                ),
            )
        )
    return problems


# --------------------------------------------------------------------------------------------
# The pool
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CardPool:
    """The validated card pool: every card by slug, in file order, plus the file's hash.

    >>> pool = load_pool()
    >>> pool.get("unhealing-wound").name_ja
    '消えない裂傷'
    """

    cards: dict[str, CardDef]
    data_hash: str
    source: str = "<memory>"
    #: The card data's version (the file's top-level ``version``; 1 if it has none).
    version: int = 1

    def get(self, slug: str) -> CardDef:
        """The card with this slug; ``KeyError`` (with close matches) if there is none."""
        try:
            return self.cards[slug]
        except KeyError:
            close = difflib.get_close_matches(slug, self.cards, n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise KeyError(f"unknown card slug {slug!r} in {self.source}{hint}") from None

    def of_kind(self, kind: CardKind) -> list[CardDef]:
        """Every card of ``kind``, in file order."""
        return [card for card in self.cards.values() if card.kind is kind]

    def __contains__(self, slug: object) -> bool:
        """True if ``slug`` names a card of the pool."""
        return slug in self.cards

    def __iter__(self) -> Iterator[CardDef]:
        """The cards in file order."""
        return iter(self.cards.values())

    def __len__(self) -> int:
        """The number of cards."""
        return len(self.cards)

    def __hash__(self) -> int:
        """Hash by content hash, so a pool can key a cache."""
        return hash((self.data_hash, self.source))


def parse_pool(data: bytes, source: str = "<memory>") -> CardPool:
    """Validate card-pool TOML bytes; ``source`` names the file in error messages."""
    raw = parse_toml(data, source)
    lines = [
        f"{source}: {format_path((key,))}: unknown top-level field "
        "(a pool holds a version and [[card]] tables)"
        for key in raw
        if key not in ("card", "version")
    ]
    version = raw.get("version", 1)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        lines.append(f"{source}: version: expected a whole number from 1, not {version!r}")
        version = 1
    entries = raw.get("card")
    if not isinstance(entries, list) or not entries:
        lines.append(f"{source}: card: expected one or more [[card]] tables")
        entries = []
    models, card_lines = _validate_cards(entries, source)
    raise_if_any(lines + card_lines)
    cards = {model.slug: model.to_def() for model in models}
    return CardPool(cards, hashlib.sha256(data).hexdigest(), source, version)


def _validate_cards(entries: list[Any], source: str) -> tuple[list[CardModel], list[str]]:
    """Type-check each card, then its semantics and uniqueness; all problems in file order."""
    models: list[CardModel] = []
    lines: list[str] = []
    first_index: dict[tuple[str, str], int] = {}
    for i, raw in enumerate(entries):
        if not isinstance(raw, dict):
            lines.append(f"{source}: card[{i}]: expected a table, got {type(raw).__name__}")
            continue
        head = _card_head(i, raw)
        problems = _identity_problems(i, raw, first_index)
        try:
            model = CardModel.model_validate(raw)
        except ValidationError as err:
            lines += validation_lines(source, err, functools.partial(_located, head))
        else:
            problems += _card_problems(model)
            models.append(model)
        lines += [f"{source}: {_join(head, path)}: {reason}" for path, reason in problems]
    return models, lines


def card_field_problems(
    entries: Sequence[Any], prefix: str = "cards"
) -> tuple[list[CardDef], list[FieldProblem]]:
    """The checks of :func:`parse_pool` on a list of card tables (a card set's ``cards``),
    each problem by field (``cards[12].lv``) in English and Japanese; returns the cards that
    passed their own checks and every problem."""
    cards: list[CardDef] = []
    problems: list[FieldProblem] = []
    first_index: dict[tuple[str, str], int] = {}
    for i, raw in enumerate(entries):
        where = f"{prefix}[{i}]"
        if not isinstance(raw, dict):
            problems.append(
                problem(
                    where,
                    Said(
                        f"expected a card table, got {type(raw).__name__}",
                        "カードは表（オブジェクト）にしてください",
                    ),
                )
            )
            continue
        found = _identity_problems(i, raw, first_index)
        try:
            model = CardModel.model_validate(raw)
        except ValidationError as err:
            problems += pydantic_problems(err.errors(), where)
        else:
            found += _card_problems(model)
            if not found:
                cards.append(model.to_def())
        problems += [problem(f"{where}.{path}", reason) for path, reason in found]
    return cards, problems


def card_def_of(raw: Mapping[str, Any]) -> tuple[CardDef | None, list[FieldProblem]]:
    """One card table as a card, or its problems by field (``lv``, ``steps[0].verb``)."""
    cards, problems = card_field_problems([dict(raw)], "")
    fixed = [
        FieldProblem(p.path.removeprefix("[0]").removeprefix("."), p.en, p.ja) for p in problems
    ]
    return (cards[0] if cards and not fixed else None), fixed


def _identity_problems(
    index: int, raw: Mapping[str, Any], first_index: dict[tuple[str, str], int]
) -> list[_Problem]:
    """Slug format, and slug/names already used by an earlier card (checked even on a card
    with type errors; records this card's values on first use)."""
    problems: list[_Problem] = []
    slug = raw.get("slug")
    if isinstance(slug, str) and not SLUG_RE.fullmatch(slug):
        problems.append(
            (
                "slug",
                Said(
                    f"{slug!r} is not kebab-case ASCII (e.g. 'stone-golem')",
                    f"「{slug}」は英小文字・数字をハイフンでつないだ形にしてください"
                    "（例：stone-golem）",
                ),
            )
        )
    for field in ("slug", "name_ja", "name_en"):
        value = raw.get(field)
        if not isinstance(value, str):
            continue
        earlier = first_index.setdefault((field, value), index)
        if earlier != index:
            problems.append(
                (
                    field,
                    Said(
                        f"duplicate {field} {value!r} (already used by card[{earlier}])",
                        f"{field}「{value}」は card[{earlier}] と重なっています",
                    ),
                )
            )
    return problems


def _card_head(index: int, raw: Mapping[str, Any]) -> str:
    """``card[3] (slug "stone-golem")``, or ``card[3]`` if the slug is unusable."""
    slug = raw.get("slug")
    return f'card[{index}] (slug "{slug}")' if isinstance(slug, str) else f"card[{index}]"


def _located(head: str, loc: tuple[int | str, ...]) -> str:
    """Head plus a pydantic location inside the card."""
    return _join(head, format_path(loc))


def _join(head: str, path: str) -> str:
    """Head plus field path: ``card[3] (slug "x") .lv`` / ``card[3].lv``."""
    if not path:
        return head
    sep = " ." if head.endswith(")") else "."
    return f"{head}{sep}{path}"


def load_pool(path: Path | None = None) -> CardPool:
    """Load and validate a card pool file; the shipped pool (cached) if ``path`` is None."""
    if path is None:
        return _default_pool()
    return parse_pool(path.read_bytes(), str(path))


@functools.cache
def _default_pool() -> CardPool:
    """The shipped pool, parsed once per process."""
    return parse_pool(CARDS_PATH.read_bytes(), str(CARDS_PATH))
