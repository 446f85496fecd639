"""The resolution record of a judge (``view["resolution"]``): the exchange that led to it, step
by step as the viewer's log tells it, the judge's comparison, the damage and the down.

:func:`resolution_record` reads the last exchange of a log whose judge is complete (its
``cleanup``, or the game's ``end``): from the first bet (FB) to that point it lists the
**steps that matter to a player** — each bet (with the speed and distance check it passed),
the sub-steps of the bet procedure that had a visible effect (maken.md §8.1: payment 8–9,
キャンセル時効果 9b, gauge gain 10, double/triple 11, on-bet effects 12, the card's own change
13, the after-bet effects 14–17), an opened support card, ガード, ジャッジ, ガードブレイク, the
judge (the hitter's and the loser's top cards, both attack totals), a bonus bet or its refusal,
on-hit effects, the damage placed, the down, the clean-up. Each step carries ``at`` (its log
index), ``logUntil`` (how many log entries it reveals), ``board`` (the table after it,
:meth:`kessen.games.maken.tally.Tally.snapshot`), ``label`` and ``text`` (its words).

``outcome`` (who hit, how, the damage, a down, the winner) and ``basis`` (the exchange's choices:
bets, cancels, opened cards, ガード/ジャッジ/GB, bonus refusals) come from
:func:`summarize`, which option previews use on their simulated logs too
(:mod:`kessen.games.maken.preview`): a preview's ``predict`` and ``basis`` have the record's
shapes. Everything here is read from the viewer's log (``Event.visible``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kessen.engine.contract import Json
from kessen.games.maken.cards import SHIPPED_POOL, MakenPool
from kessen.games.maken.tally import F_CARD, Tally, tally_of
from kessen.games.maken.words import Words

Entry = Mapping[str, Any]
CHOICES = frozenset({"guard", "gb", "accept", "stop", "decline"})
"""Log kinds that are a player's choice in the exchange (besides bets, cancels and opens)."""


def bounds(log: Sequence[Entry]) -> tuple[int, int, int] | None:
    """``(start, judge, end)`` of the last complete judge: the index of its exchange's first
    bet, of the judge, and of its ``cleanup`` (or the game's ``end``); ``None`` when there is
    none. A judge still under way (its bonus bet pending) leaves the one before it the last.
    The record stays while the next exchange is played (the page may receive the judge and
    the next first bet in one view)."""
    end: int | None = None
    judge = len(log)
    while end is None:
        judge = next((i for i in range(judge - 1, -1, -1) if log[i]["kind"] == "judge"), -1)
        if judge < 0:
            return None
        end = next(
            (i for i in range(judge, len(log)) if log[i]["kind"] in ("cleanup", "end")), None
        )
    start = judge
    for i in range(judge - 1, -1, -1):
        kind = log[i]["kind"]
        if kind == "bet" and log[i]["as"] == "fb":
            start = i
            break
        if kind in ("cleanup", "pre-end"):
            break
    return start, judge, end


def summarize(log: Sequence[Entry], start: int, end: int) -> tuple[Json, Json]:
    """The ``outcome`` and ``basis`` of the exchange ``log[start:end + 1]``."""
    outcome: Json = {
        "how": None,
        "hitter": None,
        "damage": 0,
        "placed": 0,
        "down": False,
        "exhausted": False,
        "winner": None,
    }
    script: list[list[Any]] = []
    for e in log[start : end + 1]:
        kind = e["kind"]
        if kind == "bet":
            script.append(["bet", e["seat"], e["as"], e["card"], e["n"], e["option"]])
        elif kind == "pay" and e["cancels"]:
            script.append(["cancel", e["seat"], list(e["cancels"])])
        elif kind == "open":
            script.append(["open", e["seat"], e["card"]])
        elif kind in CHOICES:
            script.append([kind, e["seat"]])
        elif kind == "judge":
            outcome["how"], outcome["hitter"] = e["how"], e["hitter"]
        elif kind == "damage":
            outcome["damage"] = e["d"]
        elif kind == "placed":
            outcome["placed"] = e["n"]
        elif kind == "exhausted":
            outcome["exhausted"] = True
        elif kind == "down":
            outcome["down"] = True
        elif kind == "end":
            outcome["winner"] = e["winner"]
    return outcome, {"log_index": start, "script": script}


def _source_step(
    e: Entry, bet: Entry | None, cancels: Sequence[str], phase: str, pool: MakenPool
) -> str:
    """Which step of the bet procedure (or other timing) an effect event belongs to."""
    if phase != "bet" or bet is None:
        return phase
    source = str(e.get("why") if e["kind"] != "drain" else e.get("by"))
    owner = int(e["seat"]) if e["kind"] != "drain" else 1 - int(e["seat"])
    mine = owner == int(bet["seat"])
    if source in cancels:
        return "9b"
    if source == bet["card"]:
        return "12"
    card = pool.card.get(source)
    if card is not None and card.kind == "support":
        return "14" if mine else "15"
    return "16" if mine else "17"


def _top(t: Tally, seat: int) -> Json | None:
    field = t.sides[seat].field
    if not field:
        return None
    e = field[-1]
    return {"card": e[F_CARD], "spd": e[2], "front": e[3], "back": e[4], "atk": e[5]}


class _Builder:
    """Turns the events of one exchange into steps (see the module docstring)."""

    def __init__(self, log: Sequence[Entry], tally: Tally, w: Words) -> None:
        self.log = log
        self.t = tally
        self.w = w
        self.steps: list[Json] = []
        self.bet: Entry | None = None
        self.cancels: list[str] = []
        self.phase = "bet"
        self.exhausted = False

    def add(self, i: int, step: Json) -> None:
        step.update(at=i, logUntil=i + 1, board=self.t.snapshot())
        self.steps.append(step)

    def merge(self, i: int, text: str = "") -> bool:
        """Fold event ``i`` into the previous step (its log and board move on)."""
        if not self.steps:
            return False
        last = self.steps[-1]
        last.update(logUntil=i + 1, board=self.t.snapshot())
        if text:
            last["text"] = f"{last['text']}{self.w.say('', ' ')}{text}"
        return True

    def effect(self, i: int, e: Entry) -> None:
        w = self.w
        kind = e["kind"]
        step = _source_step(e, self.bet, self.cancels, self.phase, self.w.pool)
        source = e.get("by") if kind == "drain" else e.get("why")
        if kind == "draw":
            what = w.say(
                f"{w.who(e['seat'])}は{e['n']}枚ドロー", f"{w.who(e['seat'])} draw(s) {e['n']}"
            )
        elif kind == "gauge":
            what = w.say(
                f"{w.poss(e['seat'])}ゲージ+{e['n']}", f"{w.poss(e['seat'])} gauge +{e['n']}"
            )
        else:
            what = w.say(
                f"{w.poss(e['seat'])}ゲージ{len(e['cards'])}枚がダストへ",
                f"{len(e['cards'])} of {lower(w.poss(e['seat']))} gauge to the dust",
            )
        self.add(
            i,
            {
                "kind": "effect",
                "step": step,
                "seat": int(e["seat"]),
                "source": source,
                "label": w.step_label(step),
                "text": f"{w.card(source)}：{what}" if w.ja else f"{w.card(source)}: {what}",
            },
        )

    def bet_step(self, i: int, e: Entry) -> None:
        w = self.w
        t = self.t
        vs = t.last_bet["vs"] if t.last_bet else None
        sit = t.last_bet["sit"] if t.last_bet else "none"
        spd, front, back, atk = e["data"][:4]
        checked = e["as"] == "gc" or (e["as"] == "attack" and sit == "even")
        label = {
            "fb": w.say("ファーストベット", "First bet"),
            "attack": w.say("攻撃", "Attack"),
            "gc": w.say("ガードキャンセル", "Guard cancel"),
            "bonus": w.say("ボーナスベット", "Bonus bet"),
        }[str(e["as"])]
        lines = [w.data(spd, front, back, atk)]
        if checked and vs is not None:
            lines.append(w.check(spd, front, vs))
        elif e["as"] != "gc":
            lines.append(w.say("速度・間合のチェックなし", "no speed or distance check"))
        if e.get("rv"):
            lines.append(w.say("リバーサル（無防備が終わる）", "reversal (no longer defenceless)"))
        self.add(
            i,
            {
                "kind": "bet",
                "seat": int(e["seat"]),
                "as": e["as"],
                "card": e["card"],
                "n": e["n"],
                "option": e["option"],
                "data": list(e["data"]),
                "units": e["units"],
                "vs": vs if checked else None,
                "label": label,
                "text": w.say(
                    f"{w.who(e['seat'])}：{w.bet_name(e['card'], e['n'], e['option'])}",
                    f"{w.who(e['seat'])}: {w.bet_name(e['card'], e['n'], e['option'])}",
                ),
                "lines": lines,
            },
        )

    def judge_step(self, i: int, e: Entry) -> None:
        w = self.w
        hitter = e["hitter"]
        if hitter is None:
            compare: Json = {"hitter": None, "loser": None, "totals": None}
            text = w.say(
                "ジャッジ：ヒットなし（攻撃をやめた）", "Judge: no hit (the attack stopped)"
            )
        else:
            loser = 1 - int(hitter)
            compare = {
                "hitter": _top(self.t, int(hitter)),
                "loser": _top(self.t, loser),
                "totals": [self.t.sides[int(hitter)].total(), self.t.sides[loser].total()],
            }
            text = w.say(
                f"{w.how(e['how'])}：{w.poss(hitter)}ヒット",
                f"{w.how(e['how']).capitalize()}: {lower(w.poss(hitter))} hit",
            )
        self.add(
            i,
            {
                "kind": "judge",
                "how": e["how"],
                "hitter": hitter,
                "defenceless": bool(e.get("defenceless")),
                "compare": compare,
                "label": w.say("ジャッジ", "Judge"),
                "text": text,
            },
        )

    def event(self, i: int, e: Entry) -> None:
        """One event of the exchange (already folded into the tally)."""
        w = self.w
        kind = e["kind"]
        why = e.get("why")
        if kind == "helper":
            return
        if kind == "bet":
            self.bet, self.cancels, self.phase = e, [], "bet"
            self.bet_step(i, e)
        elif kind == "pay":
            self.cancels = [str(c) for c in e["cancels"]]
            parts = []
            if e["cancels"]:
                parts.append(
                    w.say(f"キャンセル {w.cards(e['cancels'])}", f"cancel {w.cards(e['cancels'])}")
                )
            if e["gauge"]:
                parts.append(w.say(f"ゲージ札{len(e['gauge'])}枚", f"{len(e['gauge'])} gauge"))
            self.add(
                i,
                {
                    "kind": "pay",
                    "step": "8-9",
                    "seat": int(e["seat"]),
                    "cancels": list(e["cancels"]),
                    "gauge": len(e["gauge"]),
                    "label": w.step_label("8-9"),
                    "text": ("、" if w.ja else ", ").join(parts),
                },
            )
        elif kind == "gauge" and why == "gain":
            self.add(
                i,
                {
                    "kind": "gain",
                    "step": "10",
                    "seat": int(e["seat"]),
                    "n": e["n"],
                    "label": w.step_label("10"),
                    "text": w.say(
                        f"{w.poss(e['seat'])}ゲージ+{e['n']}",
                        f"{w.poss(e['seat'])} gauge +{e['n']}",
                    ),
                },
            )
        elif kind == "extras" or (kind == "draw" and why == "multi"):
            self.multi(i, e)
        elif (
            kind in ("draw", "gauge", "drain")
            and str(e.get("by" if kind == "drain" else "why")) in self.w.pool.card
        ):
            self.effect(i, e)
        elif kind == "self":
            spd, front, back, atk = e["data"][:4]
            numbers = w.data(spd, front, back, atk)
            self.add(
                i,
                {
                    "kind": "self",
                    "step": "13",
                    "seat": int(e["seat"]),
                    "card": e["card"],
                    "label": w.step_label("13"),
                    "text": f"{w.card(e['card'])}{w.say('：', ': ')}{numbers}",
                },
            )
        elif kind == "open":
            self.phase = "open"
            self.add(
                i,
                {
                    "kind": "open",
                    "seat": int(e["seat"]),
                    "card": e["card"],
                    "label": w.say("補助カードのオープン", "Support card opened"),
                    "text": f"{w.who(e['seat'])}{w.say('：', ': ')}{w.card(e['card'])}",
                },
            )
        elif kind in CHOICES:
            self.choice(i, e)
        elif kind == "judge":
            self.phase = "hit"
            self.judge_step(i, e)
        else:
            self.after(i, e)

    def multi(self, i: int, e: Entry) -> None:
        w = self.w
        if e["kind"] == "extras":
            text = w.say(f"残り{e['n']}枚はダストへ", f"the other {e['n']} to the dust")
        else:
            bet = self.bet or {}
            down = str(bet.get("option")) in ("powerful", "powerfulya")
            text = w.say(f"{e['n']}枚ドロー", f"draw {e['n']}")
            if down:
                text = w.say(f"残りを裏向きで残し、{text}", f"the rest stay face-down; {text}")
            if self.steps and self.steps[-1].get("kind") == "multi":
                self.merge(i, text)
                return
        self.add(
            i,
            {
                "kind": "multi",
                "step": "11",
                "seat": int(e["seat"]),
                "label": w.step_label("11"),
                "text": text,
            },
        )

    def choice(self, i: int, e: Entry) -> None:
        w = self.w
        kind = e["kind"]
        who = w.who(e["seat"])
        words = {
            "guard": w.say(
                f"{who}は{'ガードを続けた' if e.get('keep') else 'ガードした'}",
                f"{who}: {'keeps guarding' if e.get('keep') else 'guard'}",
            ),
            "gb": w.say(f"{who}のガードブレイク", f"{who}: guard break"),
            "accept": w.say(f"{who}はジャッジ（ヒットを受ける）", f"{who}: judge (takes the hit)"),
            "stop": w.say(f"{who}は攻撃をやめた", f"{who}: stops attacking"),
            "decline": w.say(f"{who}はボーナスベットなし", f"{who}: no bonus bet"),
        }
        self.add(i, {"kind": kind, "seat": int(e["seat"]), "label": "", "text": words[kind]})

    def after(self, i: int, e: Entry) -> None:
        """Damage, placement, exhaustion, down, the end, the clean-up (and any other event,
        folded into the step before it)."""
        w = self.w
        kind = e["kind"]
        if kind == "damage":
            seat = int(e["seat"])
            before = self.t.sides[seat].damage
            self.add(
                i,
                {
                    "kind": "damage",
                    "seat": seat,
                    "d": e["d"],
                    "how": e["how"],
                    "damage_before": before,
                    "label": w.say("ダメージ", "Damage"),
                    "text": w.say(
                        f"{w.who(seat)}に{e['d']}ダメージ", f"{w.who(seat)}: {e['d']} damage"
                    ),
                },
            )
        elif kind == "placed":
            if self.steps and self.steps[-1]["kind"] == "damage":
                self.steps[-1]["placed"] = e["n"]
            self.merge(i)
        elif kind == "exhausted":
            self.exhausted = True
            self.merge(i)
        elif kind == "down":
            seat = int(e["seat"])
            self.add(
                i,
                {
                    "kind": "down",
                    "seat": seat,
                    "lp": e["lp"],
                    "exhaustion": bool(e.get("exhaustion")),
                    "label": w.say("ダウン", "Down"),
                    "text": w.say(
                        f"{w.who(seat)}がダウン（残りLP {e['lp']}）",
                        f"{w.who(seat)}: down ({e['lp']} LP left)",
                    ),
                },
            )
        elif kind == "end":
            winner = e.get("winner")
            text = w.say(f"{w.who(winner)}の勝ち", f"{w.who(winner)} win(s)")
            if self.steps and self.steps[-1]["kind"] == "down":
                self.steps[-1]["winner"] = winner
                self.merge(i, text)
            else:
                self.add(i, {"kind": "end", "winner": winner, "label": "", "text": text})
        elif kind == "cleanup":
            self.add(
                i,
                {
                    "kind": "cleanup",
                    "label": w.say("片付け", "Clean-up"),
                    "text": w.say("アタックフィールドを片付けた", "The attack fields are cleared"),
                },
            )
        else:
            self.merge(i)


def lower(text: str) -> str:
    """A subject used mid-sentence."""
    return text[:1].lower() + text[1:] if not (text[:1] == "P" and text[1:2].isdigit()) else text


def resolution_record(
    log: Sequence[Entry],
    config: Mapping[str, Any],
    viewer: int | None,
    lang: str = "ja",
    pool: MakenPool = SHIPPED_POOL,
) -> Json | None:
    """The record of the last complete judge of ``log`` (the viewer's log), or ``None``
    (cards named from ``pool``: the game's)."""
    found = bounds(log)
    if found is None:
        return None
    start, judge, end = found
    tally = tally_of(log, config, viewer).run(log, start)
    w = Words(lang, viewer, pool)
    build = _Builder(log, tally, w)
    first = tally.snapshot()
    for i in range(start, end + 1):
        tally.step(log, i)
        build.event(i, log[i])
    outcome, basis = summarize(log, start, end)
    tone = w.tone(outcome)
    if outcome["winner"] is not None and viewer is not None:
        tone = "good" if outcome["winner"] == viewer else "bad"
    return {
        "key": f"{start}-{judge}",
        "log_index": start,
        "judge_index": judge,
        "end_index": end,
        "turn": first["turn"],
        "steps": build.steps,
        "outcome": outcome,
        "basis": basis,
        "banner": {
            "title": w.verdict(outcome),
            "sub": _banner_sub(w, outcome),
            "tone": tone,
        },
    }


def _banner_sub(w: Words, outcome: Mapping[str, Any]) -> str:
    """The banner's second line: how the judge went and where the damage went."""
    if outcome["hitter"] is None:
        return w.say("ガードが成功し、攻防が終わった", "The guard held; the exchange is over")
    loser = 1 - int(outcome["hitter"])
    text = w.say(
        f"{w.how(outcome['how'])}・{w.who(loser)}のダメージ札+{outcome['placed']}",
        f"{w.how(outcome['how']).capitalize()} · {lower(w.poss(loser))} damage pile "
        f"+{outcome['placed']}",
    )
    if outcome["exhausted"]:
        text += w.say("・スタミナ切れ", " · stamina exhausted")
    return text
