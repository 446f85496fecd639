"""The leak oracle over two people in every ruleset, with hostile messages mixed in.

:mod:`tests.test_leak_oracle` reads what a person playing against COM (and a spectator of COM
against COM) receives in Kōbō and TWGP. This file reads, through :class:`Session` (what the
server sends is exactly ``view_for`` and the refusals' messages):

- matches between two people (``vs_human``) in Kōbō, TWGP and Project Maken: at every step the
  view each seat receives is checked against the cards hidden from that seat, and the
  spectator's (the observer's view) against the cards hidden from either seat; a spectator
  asking to see everything (``show_all``) before the end gets nothing more;
- hostile messages from both seats and the spectator, mixed in at random: stale and future
  prompt ids, answers naming the opponent's hidden cards, answers out of turn, malformed
  answers, undo requests and answers nobody may make, redo of nothing, resignations by a
  spectator, messages of a seat that does not exist. Each is refused; the refusal's text (the
  client's own words taken out) is checked for leaks too, answers that differ only by the card
  they name (hidden or not) must be refused in the same words, and no refusal changes the match
  (its state hash, steps, end, undo request and refused requests);
- Maken against every COM level (a partial game for the costly ones) and Maken's COM against
  COM as a spectator sees it.

A Maken card's identity is written as its catalog id (``SO01``), its action word (``so01``) and
its Japanese and English names. Hidden from a Maken seat (view.py, §10): the opponent's hand and
face-down support cards, and both seats' LP, stamina, gauge and damage cards (their owner does
not see them either).

A card's identity may appear in a message only if the reader may know a card of that identity
from elsewhere (decks hold copies). Unlike the old oracle, which takes the reader's own view
for that, this one asks the engine's own account and not the view under test: the cards the
ruleset's ``known_cards`` says the reader knows (the observer: those both seats know), the log
entries' public parts and the private parts addressed to the reader, and the actions offered to
it. So a view that shows a hidden card is caught too, not only what the server adds to it (log
texts, the why panel, the table, refusals). The public deck lists are left out of the search.

``KESSEN_LEAK_GAMES=N`` plays N matches per ruleset and COM level instead of the suite's few.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import pytest

from kessen.engine import registry
from kessen.engine.action import Action
from kessen.engine.contract import GameState, Json, RulesError
from kessen.engine.log import Event
from kessen.games.kobo.state import KoboState
from kessen.games.maken.cards import CARD
from kessen.games.maken.state import S_INST, S_OPEN, MakenState
from kessen.games.twgp.cards import CARDS
from kessen.games.twgp.state import TwgpState
from kessen.server.session import SPECTATOR, Session
from tests.test_leak_oracle import (
    CONFIGS,
    GAMES,
    HUMAN,
    NAMES,
    Tally,
    _strings,
    _without_deck_lists,
    hidden_slugs,
)

RULESETS = ("kobo", "twgp", "maken")
CONFIG: dict[str, Json] = {**CONFIGS, "maken": dict(registry.get("maken").default_config)}
NOBODY_SEES = ("lp", "stamina", "gauge", "damage")
"""Maken zones hidden from both seats, their owner included (view.py)."""
WORD = re.compile(r"[\w-]+")
"""A whole word of a message: card ids and slugs are whole words (checked below)."""


# --- what is hidden, and how a card's identity is written --------------------------------------


def hidden_maken(state: MakenState, seat: int) -> set[str]:
    """Maken: the ids of the opponent's hand and face-down support cards, and of both seats'
    LP, stamina, gauge and damage cards (hidden from their owner too)."""
    foe = 1 - seat
    cards = list(state.hand[foe])
    cards += [e[S_INST] for e in state.support[foe] if not e[S_OPEN]]
    for owner in (0, 1):
        for zone in NOBODY_SEES:
            cards += getattr(state, zone)[owner]
    return {state.cards[i] for i in cards}


def hidden_of(state: GameState, seat: int) -> set[str]:
    """The identities (keys of :data:`BOOKS`) of the cards hidden from ``seat`` in ``state``."""
    if isinstance(state, MakenState):
        return hidden_maken(state, seat)
    return hidden_slugs(state, seat)


def hidden_from_observer(state: GameState) -> set[str]:
    """The identities hidden from a spectator between two people: every card hidden from
    either seat, less only what the public log named (a seat's private log teaches the
    observer nothing)."""
    if isinstance(state, TwgpState):  # hidden_twgp forgives what either seat's log named
        public = state.clone()
        public.log = [Event(e.kind, e.public) for e in state.log]
        state = public
    return hidden_of(state, 0) | hidden_of(state, 1)


@dataclass(frozen=True)
class Book:
    """How a ruleset writes each card's identity: whole words (ids, action words) and names
    and labels (looked for anywhere: Japanese has no word breaks), and every text of its
    catalog entry (a name inside a text one may read tells nothing)."""

    words: dict[str, tuple[str, ...]]
    names: dict[str, tuple[str, ...]]
    texts: dict[str, tuple[str, ...]]


def _book(ruleset: str) -> Book:
    """The card identities of ``ruleset``: Kōbō and TWGP by slug, Maken by id and slug."""
    catalogs = [registry.get(ruleset).catalog(lang)["cards"] for lang in ("ja", "en")]
    words: dict[str, tuple[str, ...]] = {}
    names: dict[str, tuple[str, ...]] = {}
    texts: dict[str, tuple[str, ...]] = {}
    for key in catalogs[0]:
        if ruleset == "maken":
            words[key] = (key, str(catalogs[0][key]["slug"]))
            names[key] = tuple(str(c[key]["name"]) for c in catalogs)
        else:
            words[key] = (key,)
            names[key] = tuple(NAMES[ruleset][key])
        texts[key] = tuple(sorted(set().union(*(_strings(c[key], set()) for c in catalogs))))
    return Book(words, names, texts)


BOOKS: dict[str, Book] = {ruleset: _book(ruleset) for ruleset in RULESETS}
assert all(
    WORD.fullmatch(w) for book in BOOKS.values() for ws in book.words.values() for w in ws
), "a card identifier that is not a whole word: the word search would miss it"


def action_word(ruleset: str, key: str) -> str:
    """The word an action uses for the card ``key`` (Maken: its slug; others: the key)."""
    return CARD[key].slug if ruleset == "maken" else key


# --- the oracle ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reader:
    """What one reader may not find in a message at one step: for each card hidden from it
    whose identity it may not know from elsewhere (:func:`entitled`), the words and names
    that would betray it."""

    who: str
    secrets: dict[str, tuple[tuple[str, ...], tuple[str, ...]]]


def identity(state: GameState, card: int) -> str:
    """The key of :data:`BOOKS` for card number ``card`` of ``state``."""
    if isinstance(state, MakenState):
        return state.cards[card]
    if isinstance(state, KoboState):
        return state.defs[card].slug
    return CARDS[card].slug


def entitled(state: GameState, seat: int | None) -> set[str]:
    """Every string ``seat`` (``None``: the observer) is entitled to read, by the engine's own
    account and not by its view: the identities of the cards it knows
    (``known_cards``; the observer: those both seats know), the log entries as it may see them,
    and the legal actions offered to it."""
    if seat is None:
        mine, theirs = state.known_cards(0), state.known_cards(1)
        assert mine is not None and theirs is not None
        known = set(mine) & set(theirs)
    else:
        found = state.known_cards(seat)
        assert found is not None
        known = set(found)
    out = {identity(state, card) for card in known}
    for event in state.log_events():  # read here, not through the engine's redaction
        _strings(event.public, out)
        if seat is not None and event.private_to == seat and event.private:
            _strings(event.private, out)
    pending = state.pending
    if seat is not None and pending is not None and pending.seat == seat:
        _strings([str(a) for a in state.legal_actions()], out)
    return out


def reader(state: GameState, seat: int | None) -> Reader:
    """The reader ``seat`` of ``state`` (``None``: the observer between two people, from whom
    both seats' hidden cards are hidden)."""
    book = BOOKS[state.ruleset]
    hidden = hidden_from_observer(state) if seat is None else hidden_of(state, seat)
    visible = entitled(state, seat)
    tokens = {w for text in visible for w in WORD.findall(text)}
    shown = {key for key, words in book.words.items() if any(w in tokens for w in words)}
    # A name inside what the reader may read (another card's longer name, a card's text, a
    # log entry) tells nothing.
    seen = "\n".join([*visible, *(n for key in shown for n in book.texts.get(key, ()))])
    secrets = {
        key: (book.words[key], tuple(n for n in book.names.get(key, ()) if n not in seen))
        for key in sorted(hidden - shown)
    }
    return Reader("spectator" if seat is None else f"seat {seat}", secrets)


def check(message: Json, who: Reader, tally: Tally, where: str) -> None:
    """No identity of a card hidden from ``who`` appears in ``message``."""
    text = json.dumps(_without_deck_lists(message), ensure_ascii=False)
    tokens = set(WORD.findall(text))
    tally.messages += 1
    for key, (words, names) in who.secrets.items():
        tally.hidden_checked += 1
        for word in words:
            if word in tokens:
                tally.leaks.append(f"{where}/{who.who}: {word!r} ({key}) in the message")
        for name in names:
            if name in text:
                tally.leaks.append(f"{where}/{who.who}: {name!r} ({key}) in the message")


@dataclass
class Counts(Tally):
    """The oracle's counts, with the hostile messages refused and the changes they made."""

    refused: int = 0
    changes: list[str] = field(default_factory=list)

    def say(self, what: str) -> None:
        """Print the counts (shown with ``pytest -s``)."""
        print(
            f"leak oracle {what}: {self.messages} messages, "
            f"{self.hidden_checked} hidden cards kept out, {len(self.leaks)} leaks, "
            f"{self.refused} hostile messages refused, "
            f"{len(self.changes)} state changes by refused messages"
        )


def fingerprint(session: Session) -> tuple[object, ...]:
    """What a refused message may not change: the state, the steps, the end, the undo
    request and the refused undo requests."""
    table = session.table
    return (
        session.live.state_hash(),
        session.steps,
        session.over,
        None if table is None else table.undo_request,
        None if table is None else dict(table.refused_at),
    )


@dataclass(frozen=True)
class Hostile:
    """A message the session must refuse: who sends it, what it is, the client's own words
    in it (an answer's text; empty for the others), and how it is sent."""

    seat: int
    what: str
    sent: str
    send: Callable[[], None]
    group: str = ""
    """Answers of one group differ only by the card they name: so must their refusals."""


def refuse(session: Session, hostile: Hostile, who: Reader, tally: Counts, where: str) -> str:
    """Send ``hostile``: it must be refused, its refusal must name no card hidden from its
    sender, and nothing of the match may change. Returns the refusal's text."""
    before = fingerprint(session)
    try:
        hostile.send()
    except RulesError as err:  # the client's own words echoed (once, first) are no leak
        said = str(err).replace(hostile.sent, "<sent>", 1) if hostile.sent else str(err)
        check({"error": said}, who, tally, f"{where}/refused {hostile.what} {hostile.sent!r}")
        tally.refused += 1
    else:
        raise AssertionError(f"{where}: {hostile} was accepted")
    if fingerprint(session) != before:
        tally.changes.append(f"{where}: {hostile.what} {hostile.sent!r} of seat {hostile.seat}")
    return said


def always(who: Reader) -> Callable[[int], Reader]:
    """Every sender reads as ``who``."""
    return lambda _: who


def refuse_all(
    session: Session, rng: random.Random, who: Callable[[int], Reader], tally: Counts, where: str
) -> None:
    """Send every hostile message that fits the moment (:func:`hostile_messages`), each
    refusal read by ``who(sender)``; answers that differ only by the card they name (hidden
    or not) must be refused in the same words, or the refusal tells which card is where."""
    said: dict[str, set[str]] = {}
    for hostile in hostile_messages(session, rng):
        text = refuse(session, hostile, who(hostile.seat), tally, where)
        if hostile.group:
            said.setdefault(hostile.group, set()).add(text)
    for group, texts in said.items():
        if len(texts) > 1:
            tally.leaks.append(f"{where}: refusals of {group} differ by card: {sorted(texts)}")


def _act(session: Session, seat: int, prompt_id: int, text: str, group: str = "") -> Hostile:
    """``seat`` answers prompt ``prompt_id`` with ``text``."""
    send = lambda: session.act(seat, prompt_id, text)  # noqa: E731
    return Hostile(seat, f"act {prompt_id}", text, send, group)


def _by(seat: int, what: str, send: Callable[[int], None]) -> Hostile:
    """``seat`` sends a message without words of its own: ``send(seat)``."""
    return Hostile(seat, what, "", lambda: send(seat))


def card_answers(state: GameState, seat: int, rng: random.Random) -> Iterator[tuple[str, str]]:
    """(verb, answer): answers naming up to three cards hidden from ``seat`` and one card
    that is not, with the verbs of its legal actions that take a card (and ``pick``,
    ``play``), none of them legal."""
    legal = {str(a) for a in state.legal_actions()} if state.pending is not None else set()
    verbs = {"pick", "play"}
    if state.pending is not None and state.pending.seat == seat:
        verbs |= {a.verb for a in state.legal_actions() if a.args and isinstance(a.args[0], str)}
    hidden = hidden_of(state, seat)
    keys = rng.sample(sorted(hidden), min(3, len(hidden)))
    keys += rng.sample(sorted(set(BOOKS[state.ruleset].words) - hidden), 1)
    for key in keys:
        word = action_word(state.ruleset, key)
        for verb in sorted(verbs):
            text = str(Action.of(verb, word))
            if text not in legal:
                yield verb, text


def hostile_messages(session: Session, rng: random.Random) -> Iterator[Hostile]:
    """The hostile messages that fit the moment: each is refused, whoever sends it."""
    state = session.live
    pending = state.pending
    table = session.table
    if pending is not None:
        mover, other = pending.seat, 1 - pending.seat
        legal = str(rng.choice(state.legal_actions()))
        if mover not in session.com:
            yield _act(session, mover, pending.prompt_id - 1, legal)  # stale
            yield _act(session, mover, pending.prompt_id + 1, legal)  # not asked yet
            for verb, text in card_answers(state, mover, rng):
                yield _act(session, mover, pending.prompt_id, text, f"{verb} by seat {mover}")
            for bad in ("", "!!", "play ( x", "pass " + "x" * 300):
                yield _act(session, mover, pending.prompt_id, bad)
        if other not in session.com:  # out of turn: the mover's answer, or a card's
            yield _act(session, other, pending.prompt_id, legal)
            for verb, text in card_answers(state, other, rng):
                yield _act(session, other, pending.prompt_id, text, f"{verb} by seat {other}")
        for stranger in (SPECTATOR, 2):
            yield _act(session, stranger, pending.prompt_id, legal)
    answer = rng.random() < 0.5
    yield _by(SPECTATOR, "resign", session.resign)
    yield _by(SPECTATOR, "undo", session.undo)
    yield _by(2, "resign", session.resign)
    if table is None:  # against COM: no undo requests; the person may resign, COM may not
        for com in session.com:
            yield _by(com, "resign", session.resign)
        yield _by(HUMAN, "answer undo", lambda s: session.answer_undo(s, answer))
        return
    yield _by(SPECTATOR, "answer undo", lambda s: session.answer_undo(s, answer))
    for seat in (0, 1):
        if table.undo_request is None:  # an answer with no question
            yield _by(seat, "answer undo", lambda s: session.answer_undo(s, answer))
        elif table.undo_request == seat:  # asking twice, answering oneself
            yield _by(seat, "undo again", session.undo)
            yield _by(seat, "answer own undo", lambda s: session.answer_undo(s, True))
        if not session.history(seat)["can_undo"]:
            yield _by(seat, "undo", session.undo)
        if not session.history(seat)["can_redo"]:
            yield _by(seat, "redo", session.redo)
    if session.over:
        for seat in (0, 1):
            yield _by(seat, "resign", session.resign)


# --- two people ------------------------------------------------------------------------------


def two_people(ruleset: str, seed: int) -> Session:
    """A joined match between two people (seat 0 created it, seat 1 used the invite), its
    clock stopped."""
    session = Session.create(ruleset, CONFIG[ruleset], seed, "vs_human", "", 0.0)
    frozen = session.now()
    session.now = lambda: frozen  # the views do not count down the seats' grace meanwhile
    assert session.table is not None and session.table.invite is not None
    assert session.join(session.table.invite)[1] == 1
    return session


def read_all(session: Session, lang: str, rng: random.Random, tally: Counts, where: str) -> None:
    """Check what both seats and the spectator receive now; before the end a spectator who
    asks for everything gets the observer's view all the same."""
    state = session.live
    readers = {0: reader(state, 0), 1: reader(state, 1), SPECTATOR: reader(state, None)}
    for seat in (0, 1):  # show_all asks for nothing more before the end (after it: all)
        show_all = not session.over and rng.random() < 0.5
        check(session.view_for(seat, lang, show_all), readers[seat], tally, where)
    watcher = session.view_for(SPECTATOR, lang, False)
    check(watcher, readers[SPECTATOR], tally, f"{where}/spectator")
    if not session.over:
        asked = session.view_for(SPECTATOR, lang, True)
        check(asked, readers[SPECTATOR], tally, f"{where}/spectator show_all")
        assert not asked["session"]["show_all"] and asked["viewer"] is None, where
        assert asked == watcher, f"{where}: show_all changed the spectator's view"
    if rng.random() < 0.3:  # a stranger (seat 2) reads what the spectator reads
        refuse_all(session, rng, lambda s: readers.get(s, readers[SPECTATOR]), tally, where)


def play_two_people(ruleset: str, seed: int, tally: Counts, resign_at: int | None) -> None:
    """One match between two people, every message to either seat and to a spectator read,
    hostile messages mixed in; a seat resigns at step ``resign_at`` if given."""
    session = two_people(ruleset, seed)
    rng = random.Random(seed)
    while session.live.pending is not None and not session.over and session.steps < 3000:
        lang = "ja" if rng.random() < 0.5 else "en"
        where = f"{ruleset}/two people/seed {seed}/step {session.steps}"
        read_all(session, lang, rng, tally, where)
        table = session.table
        assert table is not None
        if resign_at is not None and session.steps >= resign_at:
            session.resign(rng.randrange(2))
            break
        pending = session.live.pending
        assert pending is not None
        if table.undo_request is None and rng.random() < 0.12:
            asker = rng.randrange(2)
            if session.history(asker)["can_undo"] and table.refused_at.get(asker) != session.steps:
                before = session.live.state_hash()
                session.undo(asker)  # a request: nothing changes yet
                assert session.live.state_hash() == before and table.undo_request == asker
                continue  # read with the request open; maybe refuse hostile answers
        if table.undo_request is not None and rng.random() < 0.7:
            session.answer_undo(1 - table.undo_request, rng.random() < 0.5)
            continue
        if session.history(pending.seat)["can_redo"] and rng.random() < 0.5:
            session.redo(pending.seat)  # what an accepted undo took back, played again
            continue
        legal = session.live.legal_actions()
        session.act(pending.seat, pending.prompt_id, str(rng.choice(legal)))
    assert session.over or session.steps >= 3000
    for lang in ("ja", "en"):  # the end: still nothing hidden in the views asked without all
        read_all(session, lang, rng, tally, f"{ruleset}/two people/seed {seed}/end")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_two_people_and_a_spectator_never_read_a_hidden_card(ruleset: str) -> None:
    """Both seats and a spectator of whole matches between two people, hostile messages from
    everyone refused without a change and without a leak."""
    tally = Counts()
    games = GAMES or 3
    for seed in range(1, games + 1):
        resign_at = 20 + seed if seed % 3 == 0 else None  # every third match ends resigned
        play_two_people(ruleset, seed, tally, resign_at)
    tally.say(f"{ruleset} two people, {games} matches, both seats and a spectator")
    assert tally.messages > 100 and tally.hidden_checked > 1000 and tally.refused > 50
    assert not tally.changes, tally.changes[:10]
    assert not tally.leaks, tally.leaks[:10]


# --- Maken against COM -----------------------------------------------------------------------


def play_maken_vs_com(level: str, seed: int, tally: Counts, limit: int) -> None:
    """One Maken game against COM ``level`` (at most ``limit`` COM decisions), every message
    to the person read, hostile messages mixed in."""
    session = Session.create("maken", CONFIG["maken"], seed, "vs_com", level, 0.0)
    rng = random.Random(seed)
    decisions = 0
    while session.live.pending is not None and decisions < limit:
        lang = "ja" if rng.random() < 0.5 else "en"
        where = f"maken/{level}/seed {seed}/step {session.steps}"
        me = reader(session.live, HUMAN)
        check(session.view_for(HUMAN, lang, rng.random() < 0.5), me, tally, where)
        if rng.random() < 0.25:  # a stranger reads what the person reads, no more
            refuse_all(session, rng, always(me), tally, where)
        pending = session.live.pending
        if pending.seat in session.com:
            session.com_step()
            decisions += 1
            continue
        if rng.random() < 0.1 and session.history(HUMAN)["can_undo"]:
            session.undo(HUMAN)
            continue
        session.act(HUMAN, pending.prompt_id, str(rng.choice(session.live.legal_actions())))
    if session.live.pending is None:
        check(session.view_for(HUMAN, "ja", False), reader(session.live, HUMAN), tally, "end")


def _maken_levels() -> list[tuple[str, int, int]]:
    """(level, games, COM decisions per game) for every Maken COM level: the strongest plays
    a partial game in the suite."""
    out: list[tuple[str, int, int]] = []
    for level in registry.get("maken").players:
        games = GAMES or (1 if level.startswith("ismcts") else 3)
        limit = 10**6 if GAMES or not level.endswith("strong") else 24
        out.append((level, games, limit))
    return out


@pytest.mark.parametrize(("level", "games", "limit"), _maken_levels())
def test_no_message_to_a_maken_player_names_a_card_hidden_from_it(
    level: str, games: int, limit: int
) -> None:
    """The person against every Maken COM level: no view, why panel or refusal names a card
    hidden from it."""
    tally = Counts()
    for seed in range(1, games + 1):
        play_maken_vs_com(level, seed, tally, limit)
    tally.say(f"maken vs {level}, {games} games")
    assert tally.hidden_checked > 0 and tally.messages > 10 and tally.refused > 0
    assert not tally.changes, tally.changes[:10]
    assert not tally.leaks, tally.leaks[:10]


def test_no_message_to_a_spectator_of_maken_com_vs_com_names_a_hidden_card() -> None:
    """A spectator of Maken's COM against COM reads the bottom seat's view: nothing more."""
    tally = Counts()
    for seed in range(1, (GAMES or 2) + 1):
        session = Session.create("maken", CONFIG["maken"], seed, "com_vs_com", "heuristic", 0.0)
        while session.live.pending is not None:
            lang = "ja" if session.steps % 2 else "en"
            where = f"maken/com vs com/seed {seed}/step {session.steps}"
            message = session.view_for(SPECTATOR, lang, False)
            check(message, reader(session.live, 0), tally, where)
            session.com_step()
        check(session.view_for(SPECTATOR, "en", False), reader(session.live, 0), tally, "end")
    tally.say("maken COM vs COM spectator")
    assert tally.hidden_checked > 0
    assert not tally.leaks, tally.leaks[:10]


# --- the oracle is not blind -----------------------------------------------------------------


def _played(session: Session, steps: int, seed: int) -> None:
    """Play ``steps`` random decisions (COM's its own)."""
    rng = random.Random(seed)
    while session.steps < steps and session.live.pending is not None:
        pending = session.live.pending
        if pending.seat in session.com:
            session.com_step()
        else:
            session.act(
                pending.seat, pending.prompt_id, str(rng.choice(session.live.legal_actions()))
            )


def test_the_oracle_catches_a_maken_card_planted_in_a_message() -> None:
    """Not blind in Maken: the opponent's hand card named in a why panel (by its action word),
    in a log text (by its Japanese name) or anywhere (by its id) is caught."""
    session = Session.create("maken", CONFIG["maken"], 3, "vs_com", "heuristic", 0.0)
    _played(session, 12, 3)
    state = session.live
    assert isinstance(state, MakenState)
    me = reader(state, HUMAN)
    message = session.view_for(HUMAN, "en", False)
    tally = Tally()
    check(message, me, tally, "as sent")
    assert not tally.leaks and tally.hidden_checked > 0
    foe_hand = {state.cards[i] for i in state.hand[1]} & set(me.secrets)
    assert foe_hand, "COM's hand holds no card the person could not know"
    cid = sorted(foe_hand)[0]
    plants: list[Callable[[Json], None]] = [
        lambda m: m.update(com_why={"action": f"set {CARD[cid].slug}"}),
        lambda m: m["log"][-1].update(text=f"COMは{CARD[cid].name('ja')}を伏せた"),
        lambda m: m["players"][1]["hand"].update(cards=[{"card": cid}]),
    ]
    for plant in plants:
        planted = json.loads(json.dumps(message))
        plant(planted)
        caught = Tally()
        check(planted, me, caught, "planted")
        assert caught.leaks and cid in caught.leaks[0], caught.leaks
    # The seat's own LP, stamina, gauge and damage are hidden from it too.
    own = {state.cards[i] for zone in NOBODY_SEES for i in getattr(state, zone)[HUMAN]}
    assert own & set(me.secrets)
    everything = Tally()
    check(state.view_all("en"), me, everything, "view_all")
    assert everything.leaks


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_oracle_catches_a_card_planted_in_the_spectators_view(ruleset: str) -> None:
    """Not blind for the observer: a seat's hidden card named in the spectator's view is
    caught, and so is the all-seeing view a spectator may not have before the end."""
    session = two_people(ruleset, 2)
    _played(session, 16, 2)
    state = session.live
    watcher = reader(state, None)
    message = session.view_for(SPECTATOR, "ja", True)
    tally = Tally()
    check(message, watcher, tally, "as sent")
    assert not tally.leaks and tally.hidden_checked > 0
    for seat in (0, 1):
        theirs = sorted(hidden_of(state, 1 - seat) & set(watcher.secrets))  # hidden by seat
        assert theirs, f"seat {seat} holds no card hidden from the spectator"
        key = theirs[0]
        words, names = watcher.secrets[key]
        for written in (*words, *names):
            planted = json.loads(json.dumps(message))
            planted["log"].append({"kind": "note", "text": f"P{seat + 1}: {written}"})
            caught = Tally()
            check(planted, watcher, caught, "planted")
            assert caught.leaks, f"{written!r} of seat {seat} not caught"
    everything = Tally()
    check(state.view_all("en"), watcher, everything, "view_all")
    assert everything.leaks


def test_the_oracle_catches_a_refusal_that_tells_where_a_card_is(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Not blind to refusals: one that names a hidden card is caught, and so is one whose
    words depend on whether the card named is hidden (``Session.act`` replaced by a careless
    one)."""
    session = two_people("maken", 4)
    _played(session, 10, 4)
    state = session.live
    pending = state.pending
    assert pending is not None
    hidden = {CARD[key].slug for key in hidden_of(state, pending.seat)}

    def careless(seat: int, prompt_id: int, text: str) -> None:
        word = text.split()[-1] if text.split() else ""
        raise RulesError(f"{text} is not legal now" + (" (not yours)" if word in hidden else ""))

    monkeypatch.setattr(session, "act", careless)
    readers = {s: reader(state, None if s == SPECTATOR else s) for s in (0, 1, SPECTATOR)}
    tally = Counts()
    refuse_all(session, random.Random(4), lambda s: readers.get(s, readers[SPECTATOR]), tally, "x")
    assert tally.refused > 0 and not tally.changes
    assert any("differ by card" in leak for leak in tally.leaks), tally.leaks
    key = sorted(readers[pending.seat].secrets)[0]

    def naming(seat: int, prompt_id: int, text: str) -> None:
        raise RulesError(f"{text} is not legal now: your opponent holds {key}")

    monkeypatch.setattr(session, "act", naming)
    named = Counts()
    refuse_all(session, random.Random(4), lambda s: readers.get(s, readers[SPECTATOR]), named, "x")
    assert any(f"({key})" in leak for leak in named.leaks), named.leaks
