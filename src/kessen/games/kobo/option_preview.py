"""Option previews: what each choice of the deciding seat gives if nobody adds anything more.

For the seat whose decision is pending, :func:`option_previews` maps each legal action whose
consequence for the exchange can be known (``play``/``trap``/``pass`` in a chain, ``slot`` when
choosing a chain card's character, ``attack``/``target`` when declaring an attack) to a
preview: the totals 攻撃側 X 対 防御側 Y and the attack result if, after this action, every
later answer is a pass (the opponent's and the seat's own) and no surprise is flipped.

Nothing is re-implemented: the action is applied to a copy of the state with the rules' own
``apply``, and the copy's open chain is resolved by :func:`kessen.games.kobo.preview.chain_preview`
(which refuses a chain holding a card whose effect is not public). What the numbers may read:

- applying a chain card, a chosen character or a declaration to the copy moves only the seat's
  own cards and public ones (its tactic to its strategy area, its trap face up, its characters
  sideways); nothing is drawn or revealed, and the copy is never run past the open chain;
- the chain's resolution reads Lv, battle areas and the chain only (``chain_preview``).

So two true states that look the same to the seat give it the same previews
(``tests/kobo/test_option_previews.py`` proves it over resampled worlds).

An action that leads to a further choice of the same seat (a tactic or trap that chooses a
character, an attacker added before the target is named) is previewed with the completion
best for the seat, named in the preview (``then``), and the other completions' verdicts listed
on its lines. Each preview's ``predict`` has the shape of a resolution record's ``outcome``
and its ``basis`` that of the record's ``basis`` (:mod:`kessen.games.kobo.preview`): when the
exchange really resolves with that basis, its outcome is the prediction.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kessen.engine.action import Action
from kessen.engine.contract import Json
from kessen.games.kobo import option_text as words
from kessen.games.kobo.effects import side_seat
from kessen.games.kobo.preview import chain_preview, exchange_basis, preview_outcome
from kessen.games.kobo.state import EMPTY, SLOTS, THAND, KoboState

_PROMPTS = frozenset({"turn", "declare", "chain", "target"})


@dataclass(frozen=True)
class _Result:
    """One simulated exchange: the copy's chain preview and what it assumed."""

    preview: Json
    basis: Json
    then: str | None = None


def _basis(world: KoboState, seat: int) -> Json | None:
    """The basis of the copy's open exchange, from its log as ``seat`` sees it."""
    log = world.log
    start = EMPTY
    for i in range(len(log) - 1, -1, -1):
        if log[i].kind == "declare":
            start = i
            break
    if start == EMPTY:
        return None
    return exchange_basis([e.visible(seat) for e in log[start:]])


def _simulate(state: KoboState, seat: int, actions: list[Action], lang: str) -> _Result | None:
    """Apply ``actions`` to a copy and preview its open chain (``None`` if there is none, if
    it is not exact, or if the copy left the seat's own decisions on the way)."""
    world = state.clone()
    for action in actions:
        if world.prompt is None or world.prompt[0] != seat:
            return None
        world.apply(action)
    preview = chain_preview(world, seat, lang)
    if preview is None or not preview.get("exact"):
        return None
    basis = _basis(world, seat)
    if basis is None:
        return None
    return _Result(preview, basis)


def _score(result: _Result, seat: int) -> tuple[int, int, int]:
    """How good a simulated exchange is for ``seat`` (higher is better), to pick the
    completion a preview assumes: the game's end, then the attack result, then the
    characters lost, then the margin."""
    pv = result.preview
    rank = 0
    game_end = pv.get("game_end")
    if game_end is not None:
        winner = game_end.get("winner")
        rank = 0 if winner is None or winner < 0 else 100 if winner == seat else -100
    sign = 1 if pv["attacker_seat"] == seat else -1
    rank += {"attacker_wins": 10 * sign, "defender_wins": -10 * sign, "negated": -sign}.get(
        pv["outcome"], 0
    )
    margin = 0
    if pv.get("attack") is not None and pv.get("defence") is not None:
        margin = (pv["attack"] - pv["defence"]) * sign
    retreats = pv.get("retreats") or []
    lost = sum(1 if r["seat"] == seat else -1 for r in retreats)
    return rank, -lost, margin


def _best(state: KoboState, seat: int, first: Action, lang: str) -> _Result | None:
    """``first`` then the seat's next choice: the completion best for the seat, with the
    others' verdicts (``others``) — ``None`` if no completion can be previewed."""
    world = state.clone()
    world.apply(first)
    if world.prompt is None or world.prompt[0] != seat:
        return None
    completions = [
        a for a in world.legal_actions() if a.verb in ("slot", "target")
    ]  # naming the character ends the choice (another attacker would open a new one)
    results: list[tuple[Action, _Result]] = []
    for action in completions:
        found = _simulate(world, seat, [action], lang)
        if found is not None:
            results.append((action, found))
    if not results:
        return None
    action, best = max(results, key=lambda r: _score(r[1], seat))
    others = [
        {"action": str(a), "what": _completion(world, seat, a), **_verdict(r.preview, seat)}
        for a, r in results
        if a != action
    ]
    preview = {**best.preview, "others": others}
    return _Result(preview, best.basis, str(action))


def _completion(world: KoboState, seat: int, action: Action) -> Json:
    """The character a completing ``slot``/``target`` answer names (seat, slot, slug)."""
    slot = int(action.args[0])
    if action.verb == "target":
        side = 1 - seat
    else:
        frame = world.stack[-1]
        side = side_seat(world, frame[1], world.defs[frame[2]])
    card = world.battle[side * SLOTS + slot - 1]
    return {
        "seat": side,
        "slot": slot,
        "slug": world.defs[card].slug if card != EMPTY else None,
        "lv": world.lv(card) if card != EMPTY else None,
    }


def _verdict(pv: Mapping[str, Any], seat: int) -> dict[str, Any]:
    """The verdict of a chain preview for ``seat``: its code, tone and the totals."""
    code, tone = words.verdict(pv, seat)
    return {"verdict": code, "tone": tone, "attack": pv.get("attack"), "defence": pv.get("defence")}


def _chooses(state: KoboState, seat: int, action: Action) -> bool:
    """Whether a ``play``/``trap`` action asks the seat to choose a character next."""
    if action.verb == "play":
        slug = str(action.args[0])
        card = next(c for c in state.zone(seat, THAND) if state.defs[c].slug == slug)
    else:
        card = state.strategy[seat * SLOTS + int(action.args[0]) - 1]
    return state.defs[card].needs_choice


def _one(state: KoboState, seat: int, action: Action, lang: str) -> _Result | None:
    """The simulated exchange an action leads to (``None``: not previewed)."""
    prompt = state.prompt[1] if state.prompt else ""
    verb = action.verb
    if prompt == "chain":
        if verb == "pass":
            return _simulate(state, seat, [], lang)
        if verb not in ("play", "trap"):
            return None
        if _chooses(state, seat, action):
            return _best(state, seat, action, lang)
        return _simulate(state, seat, [action], lang)
    if prompt == "target" and verb == "slot":
        return _simulate(state, seat, [action], lang)
    if prompt in ("turn", "declare"):
        if verb == "target":
            return _simulate(state, seat, [action], lang)
        if verb == "attack":
            return _best(state, seat, action, lang)
    return None


def option_previews(state: KoboState, seat: int, lang: str = "ja") -> dict[str, Json] | None:
    """The previews of ``seat``'s legal actions at its pending decision, by action text, or
    ``None`` when the decision is not the seat's or nothing of it can be previewed.

    Each preview: ``title``, ``lines``, ``assumes``, ``tone`` (see :mod:`.option_text`),
    ``predict`` (the resolution record's ``outcome`` it foresees), ``basis`` (the record's
    ``basis`` it assumes), ``then`` (the seat's next answer it assumes, or ``None``) and
    ``outcome`` (the result code, for the page).
    """
    if state.prompt is None or state.prompt[0] != seat or state.prompt[1] not in _PROMPTS:
        return None
    if state.prompt[1] == "target" and state.stack[-1][0] != "chain_target":
        return None
    out: dict[str, Json] = {}
    for action in state.legal_actions():
        result = _one(state, seat, action, lang)
        if result is None:
            continue
        pv = result.preview
        out[str(action)] = {
            **words.describe(state, seat, action, pv, result.basis, result.then, lang),
            "predict": preview_outcome(pv),
            "basis": result.basis,
            "then": result.then,
            "outcome": pv["outcome"],
        }
    return out or None
