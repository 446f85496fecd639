"""Project Maken in the browser: a whole game against COM played only by clicking, with a DA or
TA option chosen, an instant-gauge cancel paid, a helper bet made and an RV seen; the operation
panel offering exactly the legal list at every step; the table agreeing with the view (meters,
card faces with 速 間 攻 pictograms, the top card drawn large); the opponent's hidden cards never
in the page; the character picker's cards; the English switch; screenshots of the board at
desktop and phone sizes.

The clicks come from what the page offers (the operation panel's buttons and the glowing cards
of the board); the player follows a fixed policy over them, so a seed gives the same game on
every run: the server's COM moves at once and answers from the seed and the prompt only.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx2
import pytest

from kessen.server.app import create_app
from kessen.server.hub import Hub
from kessen.store.match_store import MatchStore
from tests.serving import running
from tests.web.driver import pending, press, reach_choice, settle, shot, view

SEED = 9
DECKS = ("SO", "GA")
LIMIT = 600


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Hub]]:
    """A server (COM pace 0, recording into a store) whose sessions the test can read: the
    engine's truth."""
    store = MatchStore(tmp_path_factory.mktemp("maken") / "matches.sqlite3")
    app = create_app(pace=0.0, store=store, default_com="heuristic")
    hub: Hub = app.state.hub
    with running(app) as url:
        yield url, hub


@pytest.fixture()
def mpage(context: Any, served: tuple[str, Hub]) -> Iterator[Any]:
    """A page of the served app (judges shown at once: the playback has tests of its own,
    tests/web/test_maken_clarity.py); the test fails on a JavaScript error."""
    context.add_init_script(
        "localStorage.setItem('kobo.settings', JSON.stringify({resolvePace: 'off'}))"
    )
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda err: errors.append(str(err)))
    pg.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    pg.set_default_timeout(20_000)
    pg.goto(served[0])
    yield pg
    real = [e for e in errors if "stylesheet MIME type" not in e]
    assert not real, f"JavaScript errors on the page: {real}"


# --- helpers -----------------------------------------------------------------------------


def start_maken(page: Any, mode: str = "vs_com", seed: int = SEED) -> None:
    """Choose Maken on the start screen, the mode, both characters (their picker cards), the
    rule-based COM and the seed; start."""
    page.wait_for_selector("#start:not([hidden])")
    page.check('input[name=game][value="maken"]')
    page.wait_for_selector("#maken-options:not([hidden]) #mk-deck-0")
    page.check(f'input[name=mode][value="{mode}"]')
    page.check(f'#mk-deck-0 input[value="{DECKS[0]}"]')
    page.check(f'#mk-deck-1 input[value="{DECKS[1]}"]')
    # The rule-based COM: it answers at once, from the seed and the prompt only.
    page.select_option("#com-level", "heuristic")
    if not page.evaluate("document.querySelector('#start details.advanced').open"):
        page.click("#start details.advanced summary")
    page.fill("#seed", str(seed))
    page.click("#start-button")
    page.wait_for_function("() => !!(window.kobo && window.kobo.view)")
    page.wait_for_selector("#mk-board .mk-half.bottom")


def ready(page: Any) -> str:
    handle = page.wait_for_function(
        """() => {
          const o = document.querySelector('#overlay');
          if (o && !o.hidden) return 'over';
          if (document.body.dataset.myTurn === '1'
              && document.querySelector('#ops button.act:not([disabled])')) return 'act';
          return false;
        }""",
        timeout=30_000,
    )
    settle(page)
    return str(handle.json_value())


def offered(page: Any) -> list[str]:
    """The operation panel's actions: exactly the legal list; every glowing card sends one."""
    now = pending(page)
    assert now is not None and now["legal"] is not None
    found: list[str] = page.evaluate(
        "Array.from(document.querySelectorAll('#ops button.act'), b => b.dataset.action)"
    )
    assert sorted(found) == sorted(now["legal"]), (found, now["legal"])
    glowing: list[str] = page.evaluate(
        "Array.from(document.querySelectorAll('#mk-board .selectable[data-act]'),"
        " e => e.dataset.act)"
    )
    assert set(glowing) <= set(now["legal"]), (glowing, now["legal"])
    return found


def click(page: Any, action: str) -> None:
    """Send ``action`` by its glowing card when one sends it, else by its button."""
    before = str(page.evaluate("document.body.dataset.promptId"))
    card = f'#mk-board .selectable[data-act="{action}"]'
    if page.locator(card).count():
        # Near the top: a card under the top of the attack field shows only its top strip.
        page.locator(card).first.click(position={"x": 30, "y": 6})
    else:
        reach_choice(page, f'#ops button.act[data-action="{action}"]', False)
        page.locator(f'#ops button.act[data-action="{action}"]').click()
    page.wait_for_function(
        f"""() => document.body.dataset.promptId !== '{before}'
            || !document.querySelector('#overlay').hidden""",
        timeout=30_000,
    )


def parts(action: str) -> tuple[str, str, int, str | None]:
    """verb, card id, copies, option of an action."""
    verb, *args = action.split()
    if verb in ("fb", "attack", "gc", "bonus"):
        slug, _, n = args[0].partition("x")
        return verb, slug.upper(), int(n or 1), (args[1] if len(args) > 1 else None)
    return verb, (args[0].upper() if args else ""), 1, None


@dataclass
class Policy:
    """A fixed policy over the offered actions that reaches DA/TA, cancels and helper bets."""

    own: str = DECKS[0]
    made: set[str] = field(default_factory=set)
    set_turn: int = -1

    def pick(self, legal: list[str], v: dict[str, Any]) -> str:
        prompt = v["pending"]["prompt"]
        if prompt == "mulligan":
            return "keep"
        if prompt == "draw":
            return "draw 2" if "draw 2" in legal else legal[-1]
        if prompt == "pre":
            opens = [a for a in legal if a.startswith("open ")]
            if opens:
                return opens[0]
            sets = [a for a in legal if a.startswith("set ")]
            if sets and self.set_turn != v["turn"]:
                self.set_turn = v["turn"]
                return sets[0]
            return "end"
        if prompt == "pay":
            cancels = [a for a in legal if a.startswith("cancel ")]
            if cancels and ("cancel" not in self.made or "pay-rest-from-gauge" not in legal):
                self.made.add("cancel")
                return cancels[0]
            return "pay-rest-from-gauge"
        if "gb" in legal:
            return "gb"
        bets = [a for a in legal if parts(a)[0] in ("fb", "attack", "gc", "bonus")]
        cards = {c["card"]: c for c in v["players"][v["pending"]["seat"]]["hand"]["cards"]}
        helpers = [a for a in bets if cards[parts(a)[1]]["character"] not in (self.own, "GE")]
        if helpers and "helper" not in self.made:
            self.made.add("helper")
            return helpers[0]
        multi = [a for a in bets if parts(a)[2] > 1]
        if multi and "da" not in self.made:
            self.made.add("da")
            return next((a for a in multi if parts(a)[3] in ("powerful", "powerfulya")), multi[0])
        singles = [a for a in bets if parts(a)[2] == 1]
        if singles:
            return singles[0]
        for plain in ("judge", "guard", "decline"):
            if plain in legal:
                return plain
        return legal[0]


_CATALOG: dict[str, Any] = {}


def hidden_only(hub: Hub, page: Any) -> tuple[set[str], set[str]]:
    """The ids and names of the opponent's hidden cards (hand, set support cards, stamina,
    gauge, damage, LP) that lie nowhere the bottom seat may see: they must not be on the page."""
    game_id = page.evaluate("window.kobo.game.id")
    truth: dict[str, Any] = hub.sessions[game_id].live.view_all()
    mine: dict[str, Any] = hub.sessions[game_id].live.view(0, "ja")
    opp = truth["players"][1]
    secret = {c["card"] for c in opp["hand"]["cards"]}
    secret |= {e["card"] for e in opp["support"] if e.get("face") == "down"}
    for zone in opp["hidden"].values():
        secret |= set(zone)
    seen = set(re.findall(r'"card": "([A-Z]{2}\d\d)"', repr(mine).replace("'", '"')))
    seen |= set(re.findall(r'"copy_of": "([A-Z]{2}\d\d)"', repr(mine).replace("'", '"')))
    only = secret - seen
    catalog = _CATALOG or _CATALOG.setdefault(
        "cards", page.evaluate("fetch('/api/catalog/maken?lang=ja').then(r => r.json())")["cards"]
    )
    catalog = {"cards": _CATALOG["cards"]}
    names = {catalog["cards"][c]["name"] for c in only}
    seen_names = {catalog["cards"][c]["name"] for c in seen}
    return only, names - seen_names


def assert_nothing_hidden(hub: Hub, page: Any) -> None:
    """No hidden-only card of the opponent in the board's, panel's or top bar's text, nor in
    any attribute of the game screen."""
    ids, names = hidden_only(hub, page)
    text = page.evaluate(
        "['#mk-board', '#ops', '#topbar', '#cardinfo']"
        ".map(s => document.querySelector(s).innerText).join('\\n')"
    )
    attrs = page.evaluate(
        """Array.from(document.querySelectorAll('#game *')).flatMap(e =>
             Array.from(e.attributes, a => a.value)).join(' ')"""
    ).upper()
    for name in names:
        assert name not in text, f"hidden card {name} on the page"
    for cid in ids:
        assert not re.search(rf"\b{cid}\b", attrs), f"hidden card {cid} in an attribute"


def check_situation(page: Any, v: dict[str, Any]) -> str:
    """Each half shows its player's situation as the view gives it; returns what was seen."""
    sit = v["situation"]
    shown = {
        seat: page.get_attribute(f'#mk-board .mk-half[data-seat="{seat}"] .mk-chip.sit', "data-sit")
        for seat in (0, 1)
    }
    if sit["kind"] == "guard":
        guard = sit["guarding"]
        assert shown == {guard: "guarding", 1 - guard: "forcing"}, (sit, shown)
    else:
        assert set(shown.values()) == {"even" if sit["kind"] == "even" else "none"}, (sit, shown)
    for seat in (0, 1):
        chip = f'#mk-board .mk-half[data-seat="{seat}"] .mk-chip.defenceless'
        assert page.locator(chip).count() == int(v["players"][seat]["defenceless"]), seat
    if any(p["defenceless"] for p in v["players"]):
        return "defenceless"
    return str(sit["kind"])


def check_table(page: Any, v: dict[str, Any]) -> None:
    """The board as a card table agrees with the view: each player's LP, damage and gauge are
    meters (role=meter, named, their value the view's), every face-up attack card shows 速 間 攻
    as pictograms with their words and the numbers the view gives, and the top card of each
    attack field is the one drawn large."""
    down_at = (v.get("config") or {}).get("downAt", 10)
    for seat in (0, 1):
        p = v["players"][seat]
        half = f'#mk-board .mk-half[data-seat="{seat}"]'
        meters = page.evaluate(
            """h => Object.fromEntries(Array.from(document.querySelectorAll(h + ' [role=meter]'),
                 m => [m.dataset.meter, ['aria-label', 'aria-valuenow', 'aria-valuemax']
                   .map(a => m.getAttribute(a))]))""",
            half,
        )
        assert meters["damage"][1:] == [str(p["damage"]), str(max(down_at, p["damage"]))], meters
        assert meters["gauge"][1] == str(p["gauge"]) and meters["lp"][1] == str(p["lp"]), meters
        assert all(m[0] for m in meters.values()), meters
        faces = page.evaluate(
            """h => Array.from(document.querySelectorAll(h + ' .mk-field .mk-card')).map(c => ({
                 top: c.classList.contains('top'), index: Number(c.dataset.index),
                 stats: Array.from(c.querySelectorAll('.mk-stat'), s => [
                   s.querySelector('.mk-st-k').textContent.trim(), !!s.querySelector('.mk-ic svg'),
                   s.querySelector('b').textContent])}))""",
            half,
        )
        assert len(faces) == len(p["field"]), (faces, p["field"])
        tops = [f["index"] for f in faces if f["top"]]
        assert tops == ([len(p["field"]) - 1] if p["field"] else []), faces
        for f in faces:
            e = p["field"][f["index"]]
            if e.get("face") != "up":
                continue
            words = [w for w, _, _ in f["stats"]]
            assert len(words) == 3 and all(w for w in words), f
            assert all(svg for _, svg, _ in f["stats"]), f"a stat without its pictogram: {f}"
            values = [b for _, _, b in f["stats"]]
            assert values == [str(e["data"]["spd"]), e["distance"], str(e["data"]["atk"])], (f, e)


def check_pickable(page: Any) -> bool:
    """A card with several choices narrows the panel to them, and the panel widens again."""
    el = page.locator("#mk-board .mk-card.pickable").first
    if not el.count():
        return False
    ref = el.get_attribute("data-ref")
    el.click(position={"x": 30, "y": 6})
    page.wait_for_selector("#ops .mk-focus")
    shown: list[str] = page.evaluate(
        "Array.from(document.querySelectorAll('#ops button.act'))"
        ".filter(b => b.offsetParent !== null).map(b => b.dataset.action)"
    )
    assert shown and all(parts(a)[1] == ref.split(":")[1] for a in shown), (ref, shown)
    page.click("#ops .mk-clear-focus")
    page.wait_for_selector("#ops .mk-focus", state="detached")
    return True


def switch_to_english(page: Any) -> None:
    """Press EN in the top bar; the board, the panel and the log come back in English."""
    page.click('#topbar .lang-switch [data-lang="en"]')
    page.wait_for_function(
        "() => document.querySelector('#mk-board').innerText.includes('Attack field')"
    )
    page.wait_for_function(
        "() => Array.from(document.querySelectorAll('#log li.entry'))"
        ".some(e => e.textContent.includes('Judge'))"
    )
    settle(page)
    board = page.inner_text("#mk-board")
    for word in ("Support field", "Helper", "Stamina", "Gauge", "Damage", "Dust"):
        assert word in board, word
    assert not re.search(r"[ぁ-んァ-ン]", page.inner_text("#ops")), page.inner_text("#ops")


# --- the tests ---------------------------------------------------------------------------


def test_whole_game_vs_com_by_clicking(mpage: Any, served: tuple[str, Hub]) -> None:
    """A whole game against COM by clicking: DA/TA, a cancel, a helper bet and an RV happen,
    the panel is the legal list, nothing hidden reaches the page; screenshots on the way."""
    page, hub = mpage, served[1]
    start_maken(page)
    # A count of the board says in its title whose it is (相手のLP), not on a line of its own.
    titles: list[str] = []
    for meter in page.locator('#mk-board .mk-meter[data-count="lp"]').all():
        meter.click()
        page.wait_for_function(  # CARD INFORMATION shows this count, not the one before
            "before => { const e = document.querySelector('#cardinfo-body .info-name');"
            " return !!e && !before.includes(e.textContent); }",
            arg=titles,
        )
        titles.append(page.inner_text("#cardinfo-body .info-name"))
        assert not page.locator("#cardinfo-body .info-where").count()
    assert sorted(titles) == sorted(["相手のLP", "あなたのLP"]), titles
    policy = Policy()
    picked = shots = checks = 0
    moments: set[str] = set()
    situations: set[str] = set()
    for _ in range(LIMIT):
        if ready(page) == "over":
            break
        legal = offered(page)
        v = page.evaluate("window.kobo.view")
        if checks < 12 or picked % 10 == 0:
            assert_nothing_hidden(hub, page)
            checks += 1
        if not picked and v["pending"]["prompt"] in ("fb", "act", "pre"):
            picked = int(check_pickable(page))
        if shots == 0 and v["turn"] >= 4 and v["pending"]["prompt"] == "act":
            page.set_viewport_size({"width": 1280, "height": 800})
            shot(page, "maken_desktop_ja")
            shots = 1
        elif shots == 1 and v["turn"] >= 8 and v["pending"]["prompt"] in ("act", "pay", "bonus"):
            switch_to_english(page)
            shot(page, "maken_desktop_en")
            shots = 2
        prompt = v["pending"]["prompt"]
        situations.add(check_situation(page, v))
        check_table(page, v)
        if shots and "pay" not in moments and prompt == "pay":
            moments.add("pay")
            shot(page, "maken_desktop_pay")
        if shots and "options" not in moments and any("x2 " in a for a in legal):
            moments.add("options")
            shot(page, "maken_desktop_options")
        click(page, policy.pick(legal, v))
    else:
        pytest.fail("the game did not end")
    page.wait_for_selector("#overlay:not([hidden]) .mk-over")
    v = page.evaluate("window.kobo.view")
    assert v["outcome"] is not None
    log = v["log"]
    mine = [e for e in log if e.get("seat") == 0]
    assert any(e["kind"] == "bet" and e["n"] >= 2 and e.get("option") for e in mine), "no DA/TA"
    assert any(e["kind"] == "pay" and e.get("cancels") for e in mine), "no instant-gauge cancel"
    assert any(e["kind"] == "bet" and e.get("helper") for e in mine), "no helper bet"
    assert any(e["kind"] == "bet" and e.get("rv") for e in log), "no RV"
    texts = page.evaluate(
        "Array.from(document.querySelectorAll('#log li.entry'), e => e.textContent)"
    )
    assert any(" bets " in t for t in texts) and any("Judge" in t for t in texts), texts[:20]
    assert shots == 2
    assert {"even", "guard", "defenceless"} <= situations, situations
    # The DA's steps in the log, in order: the bet (step 7), then its draw (step 11).
    da = next(i for i, e in enumerate(log) if e["kind"] == "bet" and e["seat"] == 0 and e["n"] > 1)
    lines = page.evaluate(
        "n => Array.from({length: 6}, (_, k) => document.querySelector("
        "`#log li.entry[data-index=\"${n + k}\"]`)).map(e => e ? e.textContent : '')",
        da,
    )
    assert lines[0].startswith("You bet") and "×2" in lines[0], lines
    drawn = next(k for k, e in enumerate(log[da:], 0) if e["kind"] == "draw")
    assert lines[drawn].startswith("You drew 1"), lines
    assert picked, "no card with several choices was offered"


def test_character_picker(mpage: Any) -> None:
    """The start screen picks each character as a card: its pictogram, name, style, a short
    description, its deck's average 速 間 攻 and its signature card for the player's seat, the
    compact card for the opponent's, in Japanese and English; the cards picked are the decks
    the game starts with."""
    page = mpage
    page.wait_for_selector("#start:not([hidden])")
    page.check('input[name=game][value="maken"]')
    page.wait_for_selector("#maken-options:not([hidden]) #mk-deck-0 .mk-char-card")
    cards = page.evaluate(
        """Array.from(document.querySelectorAll('#mk-deck-0 .mk-char-card'), c => ({
             code: c.querySelector('input').value, name: c.querySelector('.mk-pk-name').textContent,
             style: c.querySelector('.mk-pk-style').textContent,
             about: c.querySelector('.mk-pk-about').textContent,
             stats: c.querySelectorAll('.mk-pk-stat').length,
             sig: c.querySelector('.mk-pk-sig').textContent,
             icon: !!c.querySelector('.mk-portrait svg')}))"""
    )
    assert [c["code"] for c in cards] == ["SO", "RI", "MI", "GA"], cards
    for c in cards:
        assert c["name"] and c["style"] and len(c["about"]) >= 20 and c["stats"] == 3, c
        assert c["sig"].startswith("切り札") and c["icon"], c
    assert page.locator("#mk-deck-1 .mk-char-card.compact").count() == 4
    shot(page, "maken_picker_ja")
    page.click('#start [data-lang="en"]')
    page.wait_for_function(
        "() => document.querySelector('#mk-deck-0 .mk-pk-style').textContent === 'Balanced'"
    )
    assert "Trump card" in page.inner_text("#mk-deck-0")
    page.click('#start [data-lang="ja"]')
    page.wait_for_function(
        "() => document.querySelector('#mk-deck-0 .mk-pk-style').textContent === 'バランス型'"
    )
    page.click('#mk-deck-0 .mk-char-card:has(input[value="RI"]) .mk-pk-about')
    page.click('#mk-deck-1 .mk-char-card:has(input[value="MI"]) .mk-pk-name')
    assert page.is_checked('#mk-deck-0 input[value="RI"]')
    page.check('input[name=mode][value="com_vs_com"]')  # the options are drawn again, kept
    assert page.is_checked('#mk-deck-0 input[value="RI"]')
    assert page.is_checked('#mk-deck-1 input[value="MI"]')
    page.check('input[name=mode][value="vs_com"]')
    page.select_option("#com-level", "heuristic")
    page.click("#start-button")
    page.wait_for_selector("#mk-board .mk-half.bottom .mk-portrait svg")
    v = view(page)
    assert [p["character"]["code"] for p in v["players"]] == ["RI", "MI"]


def test_phone_board_and_watching(browser: Any, served: tuple[str, Hub]) -> None:
    """On a phone (390×844, touch) the board fits the width and a tap on a glowing card reads
    it (the panel's button acts); then COM vs COM is watched to its end."""
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, locale="ja-JP"
    )
    try:
        page = ctx.new_page()
        page.goto(served[0])
        start_maken(page, seed=SEED)
        policy = Policy()
        tapped = False
        for _ in range(80):
            assert ready(page) == "act"
            legal = offered(page)
            v = page.evaluate("window.kobo.view")
            glowing = page.locator("#mk-board .mk-card.selectable")
            if not tapped and glowing.count():
                action = glowing.first.get_attribute("data-act")
                glowing.first.tap(position={"x": 30, "y": 6})
                page.wait_for_selector("#ops .mk-focus")
                assert str(page.evaluate("document.body.dataset.promptId")) == str(
                    v["pending"]["prompt_id"]
                ), "a tap must read, not act"
                reach_choice(page, f'#ops button.act[data-action="{action}"]', True)
                # A tap on an option with a preview shows it; press taps again to act.
                press(page, f'#ops button.act[data-action="{action}"]', True)
                page.wait_for_function(
                    f"() => document.body.dataset.promptId !== '{v['pending']['prompt_id']}'"
                )
                tapped = True
                continue
            fields = sum(len(p["field"]) for p in v["players"])
            if v["turn"] >= 3 and fields >= 2 and v["pending"]["prompt"] in ("act", "pay"):
                break
            action = policy.pick(legal, v)
            before = v["pending"]["prompt_id"]
            reach_choice(page, f'#ops button.act[data-action="{action}"]', True)
            press(page, f'#ops button.act[data-action="{action}"]', True)
            page.wait_for_function(f"() => document.body.dataset.promptId !== '{before}'")
        assert tapped
        wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert wide <= 0, f"the page scrolls sideways by {wide}px"
        page.evaluate("window.scrollTo(0, 0)")
        shot(page, "maken_phone")
        # COM vs COM, watched to the end on the same phone.
        page.tap("#btn-menu")  # the phone's top bar keeps 新しい対戦 in its menu
        page.click("#btn-quit")  # a game in progress: the first press arms, the second leaves
        if not page.is_visible("#start"):
            page.click("#btn-quit")
        start_maken(page, mode="com_vs_com", seed=SEED + 1)
        page.wait_for_selector("#overlay:not([hidden]) .mk-over", timeout=60_000)
        v = page.evaluate("window.kobo.view")
        assert v["outcome"] is not None and v["session"]["you"] is None
        assert page.locator("#mk-board .mk-half").count() == 2
    finally:
        ctx.close()


def test_recorded_maken_game_in_the_history_and_its_replay(
    mpage: Any, served: tuple[str, Hub]
) -> None:
    """A recorded Maken game (COM vs COM) in the match history; its replay draws the Maken
    board step by step, everything shown at the end, and "continue from here" starts a game."""
    page, url = mpage, served[0]
    made = httpx2.post(
        f"{url}/api/games",
        json={
            "ruleset": "maken",
            "mode": "com_vs_com",
            "seed": 5,
            "config": {"decks": ["RI", "MI"]},
        },
        timeout=30,
    ).json()
    for _ in range(200):
        found = httpx2.get(f"{url}/api/matches?ruleset=maken", timeout=30).json()["matches"]
        done = [m for m in found if m["finished"] and m["decks"] == ["RI", "MI"]]
        if done:
            break
        time.sleep(0.1)
    else:
        pytest.fail(f"the COM vs COM game {made['id']} did not finish")
    match_id = done[0]["id"]
    page.click("#open-history")
    row = f'#mh-list .mh-row[data-id="{match_id}"]'
    page.wait_for_selector(row)
    page.click(row)
    page.wait_for_function("() => !!(window.kobo.replay && window.kobo.view)")
    page.wait_for_selector("#mk-board .mk-half.bottom")
    page.click("#rp-next-turn")
    page.wait_for_function("() => window.kobo.replay.step > 0")
    page.click("#rp-seat [data-value='all']")
    page.wait_for_function("() => window.kobo.replay.seat === 'all'")
    steps = page.evaluate("window.kobo.replay.steps")
    page.eval_on_selector(
        "#rp-seek", "(e, n) => { e.value = String(n); e.dispatchEvent(new Event('input')); }", steps
    )
    page.wait_for_function(f"() => window.kobo.replay.step === {steps}")
    settle(page)
    final = view(page)
    assert final["outcome"] is not None and final["ruleset"] == "maken"
    assert "ゲーム終了" in page.inner_text("#mk-board .mk-center")
    page.click("#rp-prev-turn")
    page.wait_for_function(f"() => window.kobo.replay.step < {steps}")
    settle(page)
    page.click("#rp-continue")
    page.wait_for_function("() => !window.kobo.replay && !!window.kobo.view")
    live = view(page)
    assert live["ruleset"] == "maken" and live["session"]["mode"] == "vs_com"
