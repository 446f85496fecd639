"""Every screen of the three games, in Japanese and in English, read as a player reads it: no
raw id, no literal Markdown, no word of the other language (tests/web/words.py says what each
means and which words are allowed).

Each game and language is one tour: the start screen (the game picked, every settings panel
open), the rules screen, the deck builder (Kōbō and TWGP, a saved deck among its decks), a
short match against COM played to its end (every decision, the log, CARD INFORMATION of a few
cards, COM's reasons, the result dialog, the board after it), the match history and the
replay viewer of that match. The result words of every way a game ends are checked from both
seats and a spectator's seat, and a spectator of a match between two people is told that they
watch.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest

from kessen.games.kobo.decks import deck_to_json, starter_decks
from kessen.server.run import running
from kessen.store import MatchStore
from tests.web.driver import (
    _READY,
    AFTER_NEXT_FRAMES,
    pending,
    pick,
    press,
    prompt_id,
    reach_choice,
    save_shot,
    settle,
    shorter_games,
    shots_dir,
    visible_options,
)
from tests.web.words import Findings, raw_ids, vocabulary, wrong_language

SAVED_DECK = "Tsubame"
"""The name a player gave their saved Kōbō deck: their own words, shown as they wrote them."""

SHORT = {
    "kobo": {"best_of": 1, "turn_limit": 2},
    "twgp": {"turnLimit": 4, "quickStart": True},
    "maken": {"turnLimit": 3},
}
SEEDS = {"kobo": "5", "twgp": "7", "maken": "9"}
INFO_DECISIONS = 3
"""CARD INFORMATION is read for a few cards at each of the first decisions."""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server (COM pace 0) with a store, holding one saved Kōbō deck."""
    path = tmp_path_factory.mktemp("words") / "store.sqlite3"
    with MatchStore(path) as store, running(pace=0.0, store=store) as url:
        deck = deck_to_json(starter_decks()["tempo"])
        answer = httpx2.post(
            f"{url}/api/decks/kobo", json={"name": SAVED_DECK, "deck": deck}, timeout=30
        )
        assert answer.status_code < 300, answer.text
        yield url


def _open(browser: Any, url: str, lang: str) -> tuple[Any, Any, list[str]]:
    ctx = browser.new_context(viewport={"width": 1440, "height": 900}, locale="ja-JP")
    # The stepped playback of each resolution and the screen's motion are switched off: the
    # words are the same, and the tours stay quick.
    ctx.add_init_script(
        "if (!localStorage.getItem('kobo.settings'))"
        " localStorage.setItem('kobo.settings',"
        " JSON.stringify({resolvePace: 'off', motion: 'off'}))"
    )
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.set_default_timeout(30_000)
    page.goto(url)
    page.wait_for_selector("#start:not([hidden])")
    if lang == "en":
        page.click('#start [data-lang="en"]')
        page.wait_for_function("() => document.documentElement.lang === 'en'")
    return ctx, page, errors


def _open_details(page: Any, within: str) -> None:
    """Open every closed ``<details>`` under ``within`` (a person reading every setting)."""
    page.evaluate(
        "sel => document.querySelectorAll(`${sel} details`).forEach(d => { d.open = true; })",
        within,
    )
    page.wait_for_timeout(100)


def _start_screen(page: Any, ruleset: str, seen: Findings) -> None:
    page.click(f'#game-pick input[value="{ruleset}"]')
    page.wait_for_function(f"() => document.body.dataset.game === '{ruleset}'")
    box = {"kobo": "#kobo-options", "twgp": "#twgp-options", "maken": "#maken-options"}[ruleset]
    page.wait_for_selector(f"{box}:not([hidden])")
    page.wait_for_timeout(300)  # the game's catalogue fills its options
    _open_details(page, "#start")
    seen.check(page, "start screen")
    save_shot(page, f"words_{ruleset}_{seen.lang}_start.png", full_page=True)
    if ruleset == "kobo":
        page.click('[data-show-deck="0"]')
        page.wait_for_selector("#deck-preview:not([hidden])")
        seen.check(page, "start screen, a deck list")


def _rules_screen(page: Any, ruleset: str, seen: Findings) -> None:
    page.click("#open-rules")
    page.wait_for_function(
        f"() => document.body.dataset.help === 'rules:{ruleset}'"
        " && document.body.dataset.helpReady === '1'"
    )
    seen.check(page, "rules screen")
    page.click("#help-back")
    page.wait_for_selector("#start:not([hidden])")


def _deck_builder(page: Any, ruleset: str, seen: Findings) -> None:
    if ruleset == "maken":
        return
    page.click("#open-decks")
    page.wait_for_selector("#decks:not([hidden]) #db-body :is(.dbk-card, .tw-pool-card, button)")
    page.wait_for_timeout(500)  # the saved decks and the check arrive
    seen.check(page, "deck builder")
    # A deck from a starter: its name, its sections and the live check.
    starter = page.locator("#db-body select").first
    if starter.count():
        values = starter.evaluate("s => Array.from(s.options, o => o.value)")
        if len(values) > 1:
            starter.select_option(values[1])
    new = page.locator("#db-new")
    if new.count() and new.is_visible():
        new.click()
        page.wait_for_timeout(600)
        seen.check(page, "deck builder, a new deck")
    page.click("#db-back")
    page.wait_for_selector("#start:not([hidden])")


def _card_info(page: Any, seen: Findings, done: set[str]) -> None:
    """Show a few cards of the board in CARD INFORMATION (never one that would act)."""
    refs: list[str] = page.evaluate(
        """() => {
          document.querySelectorAll('[data-words-ref]').forEach((e) => {
            delete e.dataset.wordsRef;
          });
          return Array.from(document.querySelectorAll(
             '#game .infoable:not(.selectable):not(.pickable):not([data-act])'))
           .filter(e => e.checkVisibility()).map((e, i) => { e.dataset.wordsRef = String(i);
             return (e.className || '') + '|' + e.textContent.slice(0, 20); });
        }"""
    )
    picked = 0
    for i, ref in enumerate(refs):
        if ref in done or picked >= 2:
            continue
        done.add(ref)
        picked += 1
        # The click itself, on the element (whatever may lie over it: nothing else is pressed).
        page.locator(f'[data-words-ref="{i}"]').first.dispatch_event("click")
        page.evaluate(AFTER_NEXT_FRAMES)
        seen.check(page, "CARD INFORMATION")


def _play(page: Any, ruleset: str, seen: Findings) -> None:
    """Play the match to its end, reading every decision."""
    shown: set[str] = set()
    for made in range(400):
        state = str(page.wait_for_function(_READY, timeout=30_000).json_value())
        if state == "overlay:game":
            seen.check(page, "result of a game")
            page.click("#overlay-continue")
            continue
        if state.startswith("overlay"):
            seen.check(page, "result dialog")
            return
        if state == "confirm":
            seen.check(page, "a confirmation")
            before = prompt_id(page)
            page.click("#ops .confirm-yes")
            page.wait_for_function(f"() => document.body.dataset.promptId !== '{before}'")
            continue
        settle(page)
        now = pending(page)
        assert now is not None
        seen.vocab.saw_actions(now["legal"])
        seen.check(page, f"decision {made} ({now['prompt']})")
        if made < INFO_DECISIONS:
            _card_info(page, seen, shown)
        options = visible_options(page)
        if ruleset == "twgp" and now["prompt"] == "build":
            options = [a for a in now["legal"] if a != "done"] or options
        choice = pick(ruleset, options)
        before = prompt_id(page)
        button = f'#ops button.act[data-action="{choice}"]'
        reach_choice(page, button, False)
        press(page, button, False)
        page.wait_for_function(
            f"""() => document.body.dataset.promptId !== '{before}'
                || !document.querySelector('#overlay').hidden
                || !!document.querySelector('#ops .confirm')"""
        )
    raise AssertionError("the match did not end")


def _match(page: Any, ruleset: str, seen: Findings) -> None:
    shorter_games(page, SHORT[ruleset])
    page.click(f'#game-pick input[value="{ruleset}"]')
    if ruleset == "kobo":
        saved = page.evaluate(
            "name => Array.from(document.querySelectorAll('#deck-0 option'))"
            ".find(o => o.textContent.includes(name))?.value",
            SAVED_DECK,
        )
        assert saved, "the saved deck is offered"
        page.select_option("#deck-0", saved)
    # A searching COM: its reasons list the candidates it weighed, each in words.
    page.select_option("#com-level", "ismcts-easy")
    _open_details(page, "#start")
    page.fill("#seed", SEEDS[ruleset])
    page.click("#start-button")
    page.wait_for_function("() => !!(window.kobo && window.kobo.view)")
    _play(page, ruleset, seen)
    save_shot(page, f"words_{ruleset}_{seen.lang}_result.png")
    page.click("#overlay-board")
    page.wait_for_selector("#overlay", state="hidden")
    settle(page)
    seen.check(page, "the board after the end")


def _history_and_replay(page: Any, ruleset: str, seen: Findings) -> None:
    page.click("#btn-history")
    page.wait_for_selector("#history:not([hidden]) #mh-list .mh-row")
    seen.check(page, "match history")
    page.click("#mh-list .mh-row")
    page.wait_for_function("() => !!(window.kobo.replay && window.kobo.view)")
    settle(page)
    seen.check(page, "replay viewer, first step")
    for _ in range(3):
        page.click("#rp-next")
    page.wait_for_function("() => window.kobo.replay.step === 3")
    settle(page)
    seen.check(page, "replay viewer, step 3")
    page.keyboard.press("End")
    page.wait_for_function("() => window.kobo.replay.step === window.kobo.replay.steps")
    settle(page)
    seen.check(page, "replay viewer, the end")
    drawn = page.evaluate("window.kobo.stateSeq")
    page.click('#rp-seat [data-value="all"]')
    page.wait_for_function(f"() => window.kobo.stateSeq > {drawn}")
    settle(page)
    seen.check(page, "replay viewer, every card")
    save_shot(page, f"words_{ruleset}_{seen.lang}_replay.png")


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("ruleset", ["kobo", "twgp", "maken"])
def test_every_screen_speaks_the_players_language(
    browser: Any, served: str, ruleset: str, lang: str
) -> None:
    seen = Findings(lang, vocabulary(), allowed=[SAVED_DECK])
    ctx, page, errors = _open(browser, served, lang)
    try:
        _start_screen(page, ruleset, seen)
        _rules_screen(page, ruleset, seen)
        _deck_builder(page, ruleset, seen)
        _match(page, ruleset, seen)
        _history_and_replay(page, ruleset, seen)
    finally:
        ctx.close()
        seen.write(shots_dir() / f"words_{ruleset}_{lang}.txt")
    assert not errors, errors
    if seen.faults:
        pytest.fail(f"{len(seen.faults)} faults:\n{seen.report()}", pytrace=False)


# --- how a game ended, told to each seat and to a spectator ---------------------------------

ENDINGS = {
    "kobo": ("wipeout", "both_wiped", "exhausted", "turn_limit"),
    "twgp": ("vitals", "quiet", "turn_limit"),
    "maken": ("lp", "turn_limit"),
}
"""Every reason the rulesets end a game with (the engines' codes)."""


def _ending(ruleset: str, reason: str, winner: int | None) -> dict[str, Any]:
    """The log entry of a game's end, as each engine writes it."""
    if ruleset == "kobo":
        scores = None if reason == "wipeout" else [5, 3]
        entry: dict[str, Any] = {"kind": "game_end", "game": 1, "winner": winner, "turn": 7}
        entry.update(reason=reason, **({"scores": scores} if scores else {}))
        return entry
    if ruleset == "twgp":  # a draw is winner -1 there
        return {"kind": "game_over", "winner": -1 if winner is None else winner, "reason": reason}
    return {"kind": "end", "winner": winner, "reason": reason}


def _describe(ruleset: str) -> Any:
    from kessen.games.kobo.logtext import describe as kobo
    from kessen.games.maken.logtext import describe as maken
    from kessen.games.twgp.logtext import describe as twgp

    return {"kobo": kobo, "twgp": twgp, "maken": maken}[ruleset]


@pytest.mark.parametrize("ruleset", sorted(ENDINGS))
def test_every_ending_is_told_from_the_readers_seat(ruleset: str) -> None:
    """The line that ends a game (the log's, and the result dialog's in Kōbō) names the winner
    and the side that lost from the reader's seat: あなた/相手 to a player, P1/P2 to a
    spectator; a wipe-out names the side that was wiped out. No code, no other language."""
    vocab = vocabulary()
    describe = _describe(ruleset)
    faults: list[str] = []
    draws_only = {"quiet", "turn_limit"} if ruleset != "kobo" else set()
    for reason in ENDINGS[ruleset]:
        winners: list[int | None] = [None] if reason in draws_only else [0, 1]
        for winner in winners:
            for viewer in (0, 1, None):
                for lang in ("ja", "en"):
                    text = describe(_ending(ruleset, reason, winner), lang, viewer)
                    where = f"{ruleset} {reason} winner={winner} viewer={viewer} {lang}: {text!r}"
                    faults += [f"{where}: {p}" for p in raw_ids(text, vocab)]
                    faults += [f"{where}: {p}" for p in wrong_language(text, lang)]
                    if ("_" in reason or reason == "wipeout") and reason in text:
                        faults.append(f"{where}: the reason's code")
                    if winner is None:
                        continue
                    expected = _winner_words(winner, viewer, lang)
                    if expected not in text:
                        faults.append(f"{where}: does not say {expected!r}")
                    if viewer is None and re.search(r"あなた|相手|\byou\b|opponent", text, re.I):
                        faults.append(f"{where}: a spectator is spoken to as a player")
                    if reason == "wipeout":
                        wiped = _wiped_words(1 - winner, viewer, lang)
                        if wiped not in text:
                            faults.append(f"{where}: does not say {wiped!r}")
    assert not faults, "\n".join(faults)


def _side(seat: int, viewer: int | None, lang: str) -> str:
    if viewer is None:
        return f"P{seat + 1}"
    if lang == "ja":
        return "あなた" if seat == viewer else "相手"
    return "You" if seat == viewer else "The opponent"


def _winner_words(winner: int, viewer: int | None, lang: str) -> str:
    side = _side(winner, viewer, lang)
    return f"{side}の勝ち" if lang == "ja" else f"{side} won"


def _wiped_words(loser: int, viewer: int | None, lang: str) -> str:
    side = _side(loser, viewer, lang)
    if lang == "ja":
        return f"{side}のキャラが全滅"
    if side == "You":
        return "you have no character left"
    return f"{side[0].lower() + side[1:] if side.startswith('The') else side} has no character left"


READ_REASONS = """async ([module, name, keys]) => {
  const { S } = await import('/static/shell/state.js');
  const words = (await import(`/static/games/${module}`))[name];
  const was = S.settings.lang;
  const out = {};
  for (const lang of ['ja', 'en']) {
    S.settings.lang = lang;
    out[lang] = keys.map((k) => words(k));
  }
  S.settings.lang = was;
  return out;
}"""


def test_every_ending_has_its_short_words_in_both_languages(page: Any) -> None:
    """The short reason of the operation panel, the result dialog and the results list (a
    game's ``reason_<code>`` text) exists for every ending, in Japanese and in English."""
    vocab = vocabulary()
    modules = {
        "kobo": ("kobo-strings.js", "t"),
        "twgp": ("twgp-strings.js", "tx"),
        "maken": ("maken-strings.js", "tx"),
    }
    page.wait_for_selector("#start:not([hidden])")
    faults: list[str] = []
    for ruleset, reasons in ENDINGS.items():
        keys = [f"reason_{r}" for r in reasons]
        module, name = modules[ruleset]
        read = page.evaluate(READ_REASONS, [module, name, keys])
        for lang, texts in read.items():
            for key, text in zip(keys, texts, strict=True):
                problems = raw_ids(text, vocab) + wrong_language(text, lang)
                if text == key or not text.strip():
                    problems.append("no words")
                faults += [f"{ruleset} {key} {lang}: {text!r}: {p}" for p in problems]
    assert not faults, "\n".join(faults)


# --- a spectator of a match between two people ----------------------------------------------


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_spectator_is_told_they_watch(browser: Any, served: str, lang: str) -> None:
    """Whoever opens the spectator link, or an invite whose seat is taken, is told that they
    watch, in their language, and their table speaks it too."""
    made = httpx2.post(
        f"{served}/api/games",
        json={"ruleset": "maken", "mode": "vs_human", "config": {"turnLimit": 3}},
        timeout=30,
    ).json()
    game = made["id"]
    joined = httpx2.post(
        f"{served}/api/games/{game}/join", json={"code": made["invite"]}, timeout=30
    )
    assert joined.status_code == 200, joined.text
    seen = Findings(lang, vocabulary())
    watching = "観戦" if lang == "ja" else "watch"
    for code, how in ((made["spectate"], "the spectator link"), (made["invite"], "a used invite")):
        ctx = browser.new_context(viewport={"width": 1440, "height": 900}, locale="ja-JP")
        ctx.add_init_script(
            f"localStorage.setItem('kobo.settings', JSON.stringify({{lang: '{lang}'}}))"
        )
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda err, errors=errors: errors.append(str(err)))
        page.goto(f"{served}/#join={game}.{code}")
        page.wait_for_function("() => !!window.kobo.view && window.kobo.view.session.you == null")
        settle(page)
        page.wait_for_selector("#toasts .toast")
        told = page.inner_text("#toasts")
        assert watching in told.lower(), (how, told)
        if code == made["spectate"]:  # not "the seat is taken": they came to watch
            assert "埋まって" not in told and "taken" not in told, (how, told)
        seen.check(page, f"a spectator, through {how}")
        save_shot(page, f"words_spectator_{lang}_{how[-4:]}.png")
        ctx.close()
        assert not errors, errors
    if seen.faults:
        pytest.fail(f"{len(seen.faults)} faults:\n{seen.report()}", pytrace=False)
