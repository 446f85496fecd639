"""Card text (本文) generated from a card's structured effect, in Japanese and English.

Nothing here is written per card: every sentence comes from the card's kind, keywords, timing,
target and steps, so the text cannot drift from what the rules do.

>>> from kessen.games.kobo.cards import CardDef, CardKind
>>> card_text(CardDef("ember-fox", "火狐", "Ember Fox", CardKind.CHARACTER, lv=2))
'キャラ Lv2'
>>> card_text(CardDef("ember-fox", "火狐", "Ember Fox", CardKind.CHARACTER, lv=2), "en")
'Character, Lv 2'
"""

from __future__ import annotations

from dataclasses import dataclass

from kessen.games.kobo.cards import (
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

LANGS = ("ja", "en")
"""The languages card text is available in."""

_KIND_LABEL = {
    "ja": {
        CardKind.CHARACTER: "キャラ",
        CardKind.DEPLOY: "展開カード",
        CardKind.TRAP: "罠カード",
        CardKind.TACTIC: "戦術カード",
    },
    "en": {
        CardKind.CHARACTER: "Character",
        CardKind.DEPLOY: "Deploy card",
        CardKind.TRAP: "Trap",
        CardKind.TACTIC: "Tactic",
    },
}
_TIMING_LABEL = {
    "ja": {Timing.ANY: "いつでも", Timing.DEFENDING: "防御時", Timing.ATTACKING: "攻撃時"},
    "en": {
        Timing.ANY: "Any time",
        Timing.DEFENDING: "When defending",
        Timing.ATTACKING: "When attacking",
    },
}
_TIMING_RULE = {
    "ja": {
        Timing.ANY: "攻防連鎖中いつでも発動できる。",
        Timing.DEFENDING: "自分のキャラが攻撃対象のときに発動できる。",
        Timing.ATTACKING: "自分が攻撃しているときに発動できる。",
    },
    "en": {
        Timing.ANY: "Activate at any point of a chain, attacking or defending.",
        Timing.DEFENDING: "Activate only while one of your characters is the attack target.",
        Timing.ATTACKING: "Activate only while you are attacking.",
    },
}
_KEYWORD_LINE = {
    "ja": {
        "chain_again": "【連続発動】このカードの発動後、相手に交代せず続けてもう1枚発動できる。",
        "limited": "【制限】デッキに1枚までしか入れられない。",
    },
    "en": {
        "chain_again": "[Consecutive activation] After activating this card, you may activate "
        "one more card before your opponent responds.",
        "limited": "[Limited] A deck may hold only 1 copy of this card.",
    },
}

# Who an effect names. "chosen": one character the controller chooses at activation.
_CHOSEN = {
    "ja": {
        Side.OWN: "自分のキャラ1体",
        Side.OPPONENT: "相手のキャラ1体",
        Side.DEFENDING: "防御側のキャラ1体",
        Side.ATTACKING: "攻撃側のキャラ1体",
    },
    "en": {
        Side.OWN: "1 of your characters",
        Side.OPPONENT: "1 of your opponent's characters",
        Side.DEFENDING: "1 character on the defending side",
        Side.ATTACKING: "1 character on the attacking side",
    },
}
_CHOSEN_OTHER = {
    "ja": {
        Side.OWN: "攻撃対象以外の自分のキャラ1体",
        Side.OPPONENT: "攻撃対象以外の相手のキャラ1体",
        Side.DEFENDING: "攻撃対象以外の防御側のキャラ1体",
        Side.ATTACKING: "攻撃側のキャラ1体",
    },
    "en": {
        Side.OWN: "1 of your characters other than the attack target",
        Side.OPPONENT: "1 of your opponent's characters other than the attack target",
        Side.DEFENDING: "1 character on the defending side other than the attack target",
        Side.ATTACKING: "1 character on the attacking side",
    },
}
_ALL = {
    "ja": {
        Side.OWN: "自分のバトルエリアのキャラ全員",
        Side.OPPONENT: "相手のバトルエリアのキャラ全員",
        Side.DEFENDING: "防御側のバトルエリアのキャラ全員",
        Side.ATTACKING: "攻撃側のバトルエリアのキャラ全員",
    },
    "en": {
        Side.OWN: "each character in your battle area",
        Side.OPPONENT: "each character in your opponent's battle area",
        Side.DEFENDING: "each character in the defending side's battle area",
        Side.ATTACKING: "each character in the attacking side's battle area",
    },
}
# "participants", keyed by (whose, role in the exchange if the card's timing fixes it).
# The defending side's only participant is the attack target, hence the singular forms.
_PARTICIPANTS: dict[str, dict[tuple[Side, Side | None], tuple[str, bool]]] = {
    "ja": {
        (Side.OWN, None): ("攻防に参加中の自分のキャラ全員", True),
        (Side.OPPONENT, None): ("攻防に参加中の相手のキャラ全員", True),
        (Side.OWN, Side.DEFENDING): ("攻撃対象になっている自分のキャラ", False),
        (Side.OPPONENT, Side.DEFENDING): ("攻撃対象になっている相手のキャラ", False),
        (Side.OWN, Side.ATTACKING): ("攻撃中の自分のキャラ全員", True),
        (Side.OPPONENT, Side.ATTACKING): ("攻撃中の相手のキャラ全員", True),
        (Side.DEFENDING, Side.DEFENDING): ("攻撃対象のキャラ", False),
        (Side.ATTACKING, Side.ATTACKING): ("攻撃中のキャラ全員", True),
    },
    "en": {
        (Side.OWN, None): ("each of your characters taking part in this exchange", True),
        (Side.OPPONENT, None): (
            "each of your opponent's characters taking part in this exchange",
            True,
        ),
        (Side.OWN, Side.DEFENDING): ("your character that is the attack target", False),
        (Side.OPPONENT, Side.DEFENDING): (
            "your opponent's character that is the attack target",
            False,
        ),
        (Side.OWN, Side.ATTACKING): ("each of your attacking characters", True),
        (Side.OPPONENT, Side.ATTACKING): ("each of your opponent's attacking characters", True),
        (Side.DEFENDING, Side.DEFENDING): ("the attack target", False),
        (Side.ATTACKING, Side.ATTACKING): ("each attacking character", True),
    },
}
_PRONOUN = {"ja": "そのキャラ", "en": "it"}
# Steps that act on the card's target (the "choose" sentence comes just before the first).
_USES_TARGET = frozenset({Verb.MODIFY_LV, Verb.RETREAT_IF_ZERO, Verb.CHANGE_TARGET})

_NOMINATE = {
    "ja": "メインデッキから名前の異なるキャラ3体を公開し、裏向きにしてシャッフルする。"
    "相手がその中から1体を選び、そのキャラを自分のバトルエリアの空き枠に召喚する。"
    "残りはメインデッキに戻してシャッフルする。"
    "3体揃わないか空き枠がなければ、この効果は無効。",
    "en": "Reveal 3 characters with different names from your main deck, turn them face down "
    "and shuffle them. Your opponent picks 1 of them blind; summon it into an empty slot of "
    "your battle area. Shuffle the others back into your main deck. If you cannot reveal 3, "
    "or have no empty slot, this does nothing.",
}
_SUMMON_TOP = {
    "ja": "メインデッキを上から1枚ずつ、キャラが出るまで公開する。"
    "そのキャラを自分のバトルエリアの空き枠に召喚し、残りはメインデッキに戻してシャッフルする。"
    "空き枠がないかデッキにキャラがいなければ何も召喚せず、メインデッキをシャッフルする。",
    "en": "Reveal cards from the top of your main deck until a character appears; summon it "
    "into an empty slot of your battle area and shuffle the rest back into your main deck. "
    "With no empty slot or no character in the deck, nothing is summoned and the deck is "
    "shuffled.",
}
_NEGATE_ATTACK = {
    "ja": "この攻撃を無効にする。攻撃結果の処理は行わない。",
    "en": "Negate this attack: there is no attack result.",
}
_NEGATE_LAST = {
    "ja": "このカードの直前に発動したカードの効果を無効にする。",
    "en": "Negate the effect of the card activated just before this one.",
}


@dataclass(frozen=True, slots=True)
class _Who:
    """How the text names the characters an effect touches."""

    intro: str | None  # a "choose ..." sentence, if the controller chooses
    subject: str  # the noun phrase for the first sentence that uses the target
    plural: bool


def _check_lang(lang: str) -> None:
    """Refuse languages we have no text for."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; expected one of {', '.join(LANGS)}")


def kind_label(kind: CardKind, lang: str = "ja") -> str:
    """The printed name of a card kind.

    >>> kind_label(CardKind.TRAP), kind_label(CardKind.TRAP, "en")
    ('罠カード', 'Trap')
    """
    _check_lang(lang)
    return _KIND_LABEL[lang][kind]


def timing_label(timing: Timing, lang: str = "ja") -> str:
    """The short label of an activation timing.

    >>> timing_label(Timing.DEFENDING), timing_label(Timing.DEFENDING, "en")
    ('防御時', 'When defending')
    """
    _check_lang(lang)
    return _TIMING_LABEL[lang][timing]


def card_text(card: CardDef, lang: str = "ja") -> str:
    """The card's full rules text (本文): kind line, timing, keywords, then the effect.

    Lines are separated by ``\\n``.

    >>> from kessen.games.kobo.cards import CardDef, CardKind, Step, Verb
    >>> wagon = CardDef("w", "兵糧車", "Wagon", CardKind.DEPLOY, steps=(Step(Verb.DRAW, 2),))
    >>> print(card_text(wagon, "en"))
    Deploy card
    Draw 2 cards from your main deck.
    """
    _check_lang(lang)
    if card.is_character:
        head = f"キャラ Lv{card.lv}" if lang == "ja" else f"Character, Lv {card.lv}"
        lines = [head]
    else:
        lines = [kind_label(card.kind, lang)]
        if card.kind is CardKind.TRAP or card.when is not Timing.ANY:
            lines.append(_timing_line(card.when, lang))
    if card.chain_again:
        lines.append(_KEYWORD_LINE[lang]["chain_again"])
    if card.limited:
        lines.append(_KEYWORD_LINE[lang]["limited"])
    if card.steps:
        lines.append(effect_text(card, lang))
    lines += [surprise_line(ability, lang) for ability in card.surprise]
    return "\n".join(lines)


_CONDITION = {
    "ja": {
        Condition.ATTACKED: "相手があなたのキャラへのアタックを宣言した時",
        Condition.TRAP_AGAINST: "相手が罠を発動した時",
        Condition.TACTIC_AGAINST: "相手が戦術を使った時",
        Condition.ALLY_RETREAT: "あなたのキャラが撤退した時",
        Condition.OPPONENT_PASS: "相手がパスした時",
        Condition.OWN_ATTACK: "あなたがアタックを宣言した時",
    },
    "en": {
        Condition.ATTACKED: "When the opponent declares an attack on your character",
        Condition.TRAP_AGAINST: "When the opponent activates a trap",
        Condition.TACTIC_AGAINST: "When the opponent plays a tactic",
        Condition.ALLY_RETREAT: "When a character of yours retreats",
        Condition.OPPONENT_PASS: "When the opponent passes",
        Condition.OWN_ATTACK: "When you declare an attack",
    },
}


def condition_text(condition: Condition | str, lang: str = "ja") -> str:
    """The words of a 【！】 condition.

    >>> condition_text("opponent_pass"), condition_text("opponent_pass", "en")
    ('相手がパスした時', 'When the opponent passes')
    """
    _check_lang(lang)
    return _CONDITION[lang][Condition(condition)]


def surprise_line(ability: SurpriseAbility, lang: str = "ja") -> str:
    """A 【！】 ability's line: 「【自】[condition]→effect【！】」 (its Lv changes are permanent;
    its draws come from the tactics deck).

    >>> from kessen.games.kobo.cards import Step, Verb
    >>> print(surprise_line(SurpriseAbility(Condition.ALLY_RETREAT, None, (Step(Verb.DRAW, 2),))))
    【自】[あなたのキャラが撤退した時]→戦術デッキからカードを2枚引く。【！】
    """
    _check_lang(lang)
    as_set = CardDef("", "", "", CardKind.TRAP, surprise=(ability,)).surprise_effect(0)
    effect = effect_text(as_set, lang)
    effect = effect.replace("メインデッキから", "戦術デッキから").replace(
        "from your main deck", "from your tactics deck"
    )
    cond = condition_text(ability.on, lang)
    if lang == "ja":
        return f"【自】[{cond}]→{effect}【！】"
    return f"[Auto] [Surprise: {cond[:1].lower()}{cond[1:]}] → {effect} [!]"


def _timing_line(timing: Timing, lang: str) -> str:
    """``【防御時】…に発動できる。`` / ``[When defending] Activate only while …``."""
    label = _TIMING_LABEL[lang][timing]
    framed = f"【{label}】" if lang == "ja" else f"[{label}] "
    return framed + _TIMING_RULE[lang][timing]


def effect_text(card: CardDef, lang: str = "ja") -> str:
    """Only the effect sentences of a card (no kind line or keywords); empty for characters."""
    _check_lang(lang)
    who = None if card.target is None else _who(card, card.target, lang)
    sentences: list[str] = []
    wrote_step = False
    for step in card.steps:
        if who is not None and who.intro is not None and step.verb in _USES_TARGET:
            sentences.append(who.intro)
            who = _Who(None, who.subject, who.plural)
        sentence, who = _step_sentence(card, step, who, lang)
        sentences.append(_then(sentence, lang) if wrote_step else sentence)
        wrote_step = True
    return ("" if lang == "ja" else " ").join(sentences)


def _then(sentence: str, lang: str) -> str:
    """Link a later step to the previous one: ``その後、…`` / ``Then …``."""
    if lang == "ja":
        return "その後、" + sentence
    lowered = sentence[0].lower() + sentence[1:]
    return ("Then, " if lowered.startswith("if ") else "Then ") + lowered


def _who(card: CardDef, target: Target, lang: str) -> _Who:
    """How this card's text names its target, given its timing."""
    owner = _owner(target.side, card.when)
    if target.scope is Scope.CHOSEN:
        table = _CHOSEN_OTHER if card.has(Verb.CHANGE_TARGET) else _CHOSEN
        phrase = table[lang][owner]
        intro = f"{phrase}を選ぶ。" if lang == "ja" else f"Choose {phrase}."
        return _Who(intro, _PRONOUN[lang], False)
    if target.scope is Scope.ALL:
        return _Who(None, _ALL[lang][owner], True)
    phrase, plural = _PARTICIPANTS[lang][(owner, _role(target.side, card.when))]
    return _Who(None, phrase, plural)


def _owner(side: Side, when: Timing) -> Side:
    """``side`` as own/opponent when the card's timing tells which side its controller is on."""
    if side in (Side.OWN, Side.OPPONENT) or when is Timing.ANY:
        return side
    return Side.OWN if side.value == when.value else Side.OPPONENT


def _role(side: Side, when: Timing) -> Side | None:
    """Whether ``side`` is attacking or defending, if the side or the timing tells."""
    if side in (Side.DEFENDING, Side.ATTACKING):
        return side
    if when is Timing.ANY:
        return None
    mine = Side(when.value)
    if side is Side.OWN:
        return mine
    return Side.ATTACKING if mine is Side.DEFENDING else Side.DEFENDING


def _step_sentence(
    card: CardDef, step: Step, who: _Who | None, lang: str
) -> tuple[str, _Who | None]:
    """The sentence of one step, and how later steps refer to the same characters."""
    verb = step.verb
    if verb is Verb.MODIFY_LV:
        assert who is not None
        return _modify_sentence(card, step.amount, who, lang), _again(who, lang)
    if verb is Verb.RETREAT_IF_ZERO:
        assert who is not None
        return _retreat_sentence(who, lang), who
    if verb is Verb.CHANGE_TARGET:
        assert who is not None
        return _change_target_sentence(who, lang), _again(who, lang)
    if verb is Verb.DRAW:
        return _draw_sentence(step.amount, lang), who
    fixed = {
        Verb.NEGATE_ATTACK: _NEGATE_ATTACK,
        Verb.NEGATE_LAST: _NEGATE_LAST,
        Verb.SUMMON_TOP: _SUMMON_TOP,
        Verb.NOMINATE: _NOMINATE,
    }
    return fixed[verb][lang], who


def _again(who: _Who, lang: str) -> _Who:
    """After a first mention, refer back: "it"/"そのキャラ", or the group as "them"."""
    if who.plural:
        return _Who(None, "そのうち" if lang == "ja" else "each of them", True)
    return _Who(None, _PRONOUN[lang], False)


def _modify_sentence(card: CardDef, amount: int, who: _Who, lang: str) -> str:
    """A Lv change: permanent base-Lv change for deploy/trap, this exchange only for tactics."""
    size = abs(amount)
    if lang == "ja":
        way = "上げる" if amount > 0 else "下げる"
        subject = who.subject + ("のキャラ" if who.subject == "そのうち" else "")
        if card.permanent:
            return f"{subject}の元Lvを永続的に{size}{way}。"
        return f"{subject}のLvを、この攻防の間だけ{size}{way}。"
    signed = f"{'+' if amount > 0 else '−'}{size}"
    subject = _cap(who.subject)
    if card.permanent:
        return f"{subject} permanently gets {signed} base Lv."
    return f"{subject} gets {signed} Lv until the end of this exchange."


def _retreat_sentence(who: _Who, lang: str) -> str:
    """Retreat whoever the previous Lv change left at current Lv 0."""
    if lang == "ja":
        if who.plural:
            return "そのうちLvが0のキャラを、直ちに撤退させる。"
        return f"{who.subject}のLvが0なら、直ちに撤退させる。"
    if who.plural:
        return "Each of them whose Lv is 0 retreats at once."
    return "If its Lv is 0, it retreats at once."


def _change_target_sentence(who: _Who, lang: str) -> str:
    """Redirect the attack."""
    if lang == "ja":
        return f"攻撃対象を{who.subject}に変更する。"
    return f"{_cap(who.subject)} becomes the attack target."


def _draw_sentence(amount: int, lang: str) -> str:
    """Draw from the main deck (deploy cards are used during standby)."""
    if lang == "ja":
        return f"メインデッキからカードを{amount}枚引く。"
    return f"Draw {amount} card{'s' if amount != 1 else ''} from your main deck."


def _cap(text: str) -> str:
    """Capitalise the first letter (English sentence start)."""
    return text[:1].upper() + text[1:]


# --- board words: the exchange preview, the attack result, why a card cannot be used --------

_SIDE_LABEL = {
    "ja": {"attacking": "攻撃側", "defending": "防御側"},
    "en": {"attacking": "Attacking side", "defending": "Defending side"},
}
_OUTCOME = {
    "ja": {
        "attacker_wins": "攻撃対象が撤退",
        "defender_wins": "攻撃キャラがすべて撤退",
        "tie_single": "同数：両方の元Lvが1下がる",
        "tie_multi": "同数：攻撃対象の元Lvが1下がり、防御側が撤退させる攻撃キャラを1体選ぶ",
        "negated": "攻撃は無効：攻撃結果なし",
        "no_battle": "攻撃側か攻撃対象が場にいない：攻撃結果なし",
        "game_end": "ゲーム終了",
        "unknown": "未確定：まだ分からない効果がある",
    },
    "en": {
        "attacker_wins": "The target retreats",
        "defender_wins": "Every attacker retreats",
        "tie_single": "Tie: both lose 1 base Lv",
        "tie_multi": "Tie: the target loses 1 base Lv and the defender chooses one attacker "
        "to retreat",
        "negated": "Attack negated: no attack result",
        "no_battle": "An attacker or the target has left the field: no attack result",
        "game_end": "The game ends",
        "unknown": "Not known yet: an effect is still unknown",
    },
}
OUTCOMES = tuple(_OUTCOME["ja"])
"""The result codes of an exchange (the ``result`` log event's outcomes, plus ``game_end``
when a resolution ends the game and ``unknown`` for a preview that cannot be computed)."""

_REASON = {
    "ja": {
        "no_chain": "攻防連鎖の中でしか発動できません。",
        "timing_defending": "【防御時】自分のキャラが攻撃対象のときにだけ発動できます。",
        "timing_attacking": "【攻撃時】自分が攻撃しているときにだけ発動できます。",
        "no_link": "無効にできる直前のカードがありません。",
        "no_target_own": "選べる自分のキャラがいません。",
        "no_target_opponent": "選べる相手のキャラがいません。",
        "strategy_full": "作戦エリアに空きがありません（{slots}枠すべて使用中）。",
        "no_priority": "相手が応答する番です。",
        "busy": "いまは別の選択の途中です。",
        "not_your_turn": "相手の選択を待っています。",
        "lv_cap": "複数で攻撃するときは、攻撃キャラの合計Lv（{total}）を攻撃対象のLv+1（{cap}）"
        "以下にしなければなりません。",
    },
    "en": {
        "no_chain": "Can be activated only inside a chain.",
        "timing_defending": "[When defending] Only while one of your characters is the attack "
        "target.",
        "timing_attacking": "[When attacking] Only while you are attacking.",
        "no_link": "There is no earlier card in the chain to negate.",
        "no_target_own": "None of your characters can be chosen.",
        "no_target_opponent": "None of your opponent's characters can be chosen.",
        "strategy_full": "Your strategy area is full (all {slots} slots in use).",
        "no_priority": "It is your opponent's turn to answer.",
        "busy": "Finish the current choice first.",
        "not_your_turn": "Waiting for your opponent.",
        "lv_cap": "With several attackers, their total Lv ({total}) may be at most the "
        "target's Lv + 1 ({cap}).",
    },
}
REASON_CODES = (
    "no_chain",
    "timing",
    "no_link",
    "no_target",
    "strategy_full",
    "no_priority",
    "busy",
    "not_your_turn",
    "lv_cap",
)
"""Why a card cannot be used now (:mod:`kessen.games.kobo.reasons`), primary check first."""

_WARNING = {
    "ja": {
        0: "この罠を伏せると作戦エリアの空きが0枠になり、罠を発動するまで戦術カードを出せません。",
        1: "この罠を伏せると作戦エリアの空きは1枠になり、"
        "1回の攻防で出せる戦術カードは1枚までです。",
        "more": "手札にはまだ罠が{traps}枚あります。",
    },
    "en": {
        0: "Setting this trap leaves no free strategy slot: no tactic can be played until a "
        "trap is activated.",
        1: "Setting this trap leaves 1 free strategy slot: at most 1 tactic per exchange.",
        "more": "{traps} more trap(s) wait in your hand.",
    },
}


def side_label(role: str, lang: str = "ja") -> str:
    """``攻撃側`` / ``防御側`` (``role``: "attacking" or "defending").

    >>> side_label("attacking"), side_label("defending", "en")
    ('攻撃側', 'Defending side')
    """
    _check_lang(lang)
    return _SIDE_LABEL[lang][role]


def score_text(attack: int, defence: int, lang: str = "ja") -> str:
    """The exchange's numbers: ``攻撃側 5 対 防御側 4`` / ``Attacking side 5 vs defending side 4``.

    >>> score_text(5, 4), score_text(5, 4, "en")
    ('攻撃側 5 対 防御側 4', 'Attacking side 5 vs defending side 4')
    """
    _check_lang(lang)
    if lang == "ja":
        return f"攻撃側 {attack} 対 防御側 {defence}"
    return f"Attacking side {attack} vs defending side {defence}"


def outcome_text(outcome: str, lang: str = "ja") -> str:
    """The words for an exchange's result code (see :data:`OUTCOMES`).

    >>> outcome_text("attacker_wins"), outcome_text("defender_wins", "en")
    ('攻撃対象が撤退', 'Every attacker retreats')
    """
    _check_lang(lang)
    return _OUTCOME[lang].get(outcome, outcome)


def reason_text(code: str, params: dict[str, object], lang: str = "ja") -> str:
    """The sentence for a reason code and its parameters (see :data:`REASON_CODES`).

    >>> reason_text("lv_cap", {"cap": 4, "total": 6}, "en")
    "With several attackers, their total Lv (6) may be at most the target's Lv + 1 (4)."
    >>> reason_text("timing", {"needs": "defending"})
    '【防御時】自分のキャラが攻撃対象のときにだけ発動できます。'
    """
    _check_lang(lang)
    key = code
    if code == "timing":
        key = f"timing_{params['needs']}"
    elif code == "no_target":
        key = f"no_target_{params['side']}"
    return _REASON[lang][key].format(**params)


def warning_text(free_after: int, traps: int, lang: str = "ja") -> str:
    """The standby warning for setting a trap that leaves ``free_after`` (0 or 1) strategy
    slots free, with ``traps`` more traps still in the hand.

    >>> warning_text(1, 0, "en")
    'Setting this trap leaves 1 free strategy slot: at most 1 tactic per exchange.'
    """
    _check_lang(lang)
    table = _WARNING[lang]
    text = table[min(free_after, 1)]
    if traps:
        text += ("" if lang == "ja" else " ") + str(table["more"]).format(traps=traps)
    return str(text)
