"""Scenarios S01-S45 of the surprise-zone spec on the kernel primitives (one test each).

Each test says its given / when / then. The table of :mod:`tests.surprise.table_game` is made of
the kernel's zones, triggers, resolution zone, rule processes and the surprise module only.
"""

from __future__ import annotations

import pytest

from kessen.engine import surprise
from kessen.engine.poses import Pose
from kessen.engine.surprise import Cancelled, parse_line
from kessen.engine.triggers import Face, Happening, Instance, Trigger, triggered
from kessen.engine.zones import PoseRefused
from tests.surprise.table_game import Printed, TableGame, draw_effect, star_x, zone

P1, P2 = 0, 1


def _game(cancelled: Cancelled = Cancelled.RULE_PROCESS) -> TableGame:
    g = TableGame(cancelled)
    g.deal(P1, 5, 10)
    g.deal(P2, 5, 10)
    g.turn = 2  # P1's... the scenarios set turn/player as they need
    g.turn_player = P2
    g.next_turn()  # turn 3: P1's second turn
    return g


def _set_x(g: TableGame, seat: int = P1) -> int:
    card = star_x(g, g.table.cards(zone("hand", seat))[0])
    g.set_card(seat, card)
    return card


def test_s01_parse_surprise_and_ordinary_lines() -> None:
    """Given a 【！】 line and an ordinary 【自】 line; when parsed; then one surprise ability
    (condition = bracket, effect = after →) and one ordinary automatic ability."""
    s = parse_line("【自】[相手のキャラがアタックした時]→カードを1枚引く。【！】")
    o = parse_line("【自】〔舞台〕このカードが控え室に置かれた時、カードを1枚引く。")
    assert s is not None and s.surprise and s.condition == "相手のキャラがアタックした時"
    assert s.effect == "カードを1枚引く。"
    assert o is not None and not o.surprise and o.zone == "舞台"


def test_s02_owner_offered_flip_and_it_resolves() -> None:
    """Given ★X face down in P1's zone; when a P2 character attacks; then P1 alone is offered;
    accepted, ★X is face up, one instance waits, and it resolves (P1 draws 1)."""
    g = _game()
    x = _set_x(g)
    g.attack(P2)
    assert [(a.card, g.owner(a.card)) for a in g.offers] == [(x, P1)]
    assert g.flip(g.offers[0])
    assert g.table.entry(x).face_up and [i.source for i in g.rz.waiting] == [x]
    hand = len(g.table.cards(zone("hand", P1)))
    g.resolve()
    assert len(g.table.cards(zone("hand", P1))) == hand + 1


def test_s03_decline_keeps_it_armed() -> None:
    """Given ★X face down; when P1 declines; then it stays face down, nothing waits, and the
    next attack offers again."""
    g = _game()
    x = _set_x(g)
    g.attack(P2)
    g.decline(g.offers[0])
    assert not g.table.entry(x).face_up and g.rz.empty()
    g.attack(P2)
    assert [a.card for a in g.offers] == [x]


@pytest.mark.parametrize("where", ["hand", "stage", "waiting"])
def test_s04_no_offer_outside_the_zone(where: str) -> None:
    """Given ★X in hand, on stage or in the waiting room; when P2 attacks; then no offer."""
    g = _game()
    x = star_x(g, g.table.cards(zone("hand", P1))[0])
    if where != "hand":
        g.table.put([x], zone(where, P1), face_up=where != "hand")
    g.attack(P2)
    assert g.offers == [] and g.rz.empty()


def test_s05_face_up_card_offers_nothing() -> None:
    """Given ★X face up in the zone (STAY, after a cancellation); when P2 attacks; then no offer
    and no flip event."""
    g = _game(Cancelled.STAY)
    x = _set_x(g)
    g.attack(P2)
    g.flip(g.offers[0])
    g.cancel()
    g.check()
    events = len(g.table.events)
    g.attack(P2)
    assert g.offers == [] and g.table.entry(x).face_up
    assert g.table.turn(x, True) is None and len(g.table.events) == events


def test_s06_stage_ability_does_not_fire_from_the_surprise_zone() -> None:
    """Given Y face down in the zone with an ordinary 【自】 bound to the stage; when the event
    happens; then no trigger and no offer."""
    g = _game()
    y = g.table.cards(zone("hand", P1))[0]
    trig = Trigger(frozenset({"stage"}), lambda h: h.kind == "attack")
    g.printed[y] = Printed([(trig, draw_effect)])
    g.set_card(P1, y)
    g.attack(P2)
    assert g.offers == [] and g.rz.empty()


def test_s07_only_the_owner_is_asked_and_the_attacker_sees_no_identity() -> None:
    """Given ★X face down in P2's zone; when a P1 character attacks; then only P2 is offered,
    and P1's view and the public move event show no identity."""
    g = _game()
    g.next_turn()  # P2's turn
    x = _set_x(g, P2)
    g.attack(P1)
    assert [g.owner(a.card) for a in g.offers] == [P2]
    assert "card" not in g.table.view(P1)[zone("surprise", P2)][0]
    set_event = [e for e in g.table.events if e.public.get("to") == zone("surprise", P2)][-1]
    assert "cards" not in set_event.visible(P1) and set_event.visible(P2)["cards"] == [x]


def test_s08_a_state_true_before_the_set_is_no_trigger() -> None:
    """Given P2 already attacking when P1 sets ★X; when nothing new happens; then no offer."""
    g = _game()
    g.attack(P2)  # the attack is under way before the card arrives
    _set_x(g)
    g.check()
    assert g.offers == []


def test_s09_no_set_into_an_occupied_zone() -> None:
    """Given P1's zone holds a card (placed by an effect); when P1 is in its window; then Set
    is not offered."""
    g = _game()
    g.table.put([g.table.cards(zone("hand", P1))[0]], zone("surprise", P1), face_up=False)
    assert not g.can_set(P1)


def test_s10_hidden_to_others_reveal_keeps_it_face_down_and_armed() -> None:
    """Given ★X set by P1; when views render; then P1 sees it, P2 and observers a back; a reveal
    shows it to P2 but it stays face down and armed."""
    g = _game()
    x = _set_x(g)
    assert g.table.view(P1)[zone("surprise", P1)][0]["card"] == x
    assert "card" not in g.table.view(P2)[zone("surprise", P1)][0]
    assert "card" not in g.table.view(None)[zone("surprise", P1)][0]
    event = g.table.reveal(x, to=P2)
    assert event.visible(P2)["card"] == x and "card" not in event.visible(None)
    assert not g.table.entry(x).face_up
    g.attack(P2)
    assert [a.card for a in g.offers] == [x]


def test_s11_no_set_or_clear_while_an_ability_waits() -> None:
    """Given an ability waiting in the resolution zone; when actions are listed; then neither
    Set nor Clear."""
    g = _game()
    g.table.put([g.table.cards(zone("hand", P1))[0]], zone("surprise", P1), face_up=False)
    g.rz.put(99, 0, P1)
    assert not g.can_set(P1) and not g.can_clear(P1)
    g.table.put(g.table.cards(zone("surprise", P1)), zone("waiting", P1))
    assert not g.can_set(P1)


def test_s12_only_the_turn_player_in_the_window() -> None:
    """Given the non-turn player, or the turn player in another phase; then neither action."""
    g = _game()
    assert not g.can_set(P2) and not g.can_clear(P2)
    g.phase = "attack"
    assert not g.can_set(P1)


def test_s13_set_puts_face_down_with_a_stamp_and_draws() -> None:
    """Given hand 5, deck 10, empty zone; when Set ★X; then the zone holds it face down with a
    stamp, the hand is 5 and the deck 9."""
    g = _game()
    x = _set_x(g)
    entry = g.table.entry(x)
    assert entry.pose is Pose.DOWN and entry.stamp > 0
    assert len(g.table.cards(zone("hand", P1))) == 5
    assert len(g.table.cards(zone("deck", P1))) == 9


def test_s14_no_set_with_an_empty_hand() -> None:
    """Given hand 0; then Set is not offered."""
    g = TableGame()
    g.deal(P1, 0, 5)
    g.turn, g.turn_player = 3, P1
    assert not g.can_set(P1)


def test_s15_set_on_an_empty_deck_runs_the_games_draw_rule() -> None:
    """Given deck 0; when Set; then the card is set and the game's empty-deck rule runs."""
    g = TableGame()
    g.deal(P1, 2, 0)
    g.turn, g.turn_player = 3, P1
    card = g.table.cards(zone("hand", P1))[0]
    g.set_card(P1, card)
    assert g.table.cards(zone("surprise", P1)) == [card] and g.lost == P1


def test_s16_no_set_in_the_first_players_first_turn() -> None:
    """Given the first player's first turn; then Set is not offered."""
    g = TableGame()
    g.deal(P1, 5, 5)
    assert g.turn == 1 and g.turn_player == g.first == P1
    assert not g.can_set(P1)


def test_s17_set_in_the_second_players_first_turn_and_later() -> None:
    """Given the second player's first turn, and the first player's second turn; then Set."""
    g = TableGame()
    g.deal(P1, 5, 5)
    g.deal(P2, 5, 5)
    g.next_turn()
    assert g.can_set(P2)
    g.next_turn()
    assert g.can_set(P1)


def test_s18_clear_is_allowed_in_the_first_players_first_turn() -> None:
    """Given the first player's first turn with a card placed by an effect; then Clear is
    offered (only Set is banned)."""
    g = TableGame()
    g.deal(P1, 5, 5)
    g.table.put([0], zone("surprise", P1), face_up=False)
    assert g.can_clear(P1) and not g.can_set(P1)


def test_s19_clear_goes_face_up_to_the_waiting_room_without_a_draw() -> None:
    """Given ★X face down; when Clear; then it lies face up in the waiting room, the zone is
    empty and no card is drawn."""
    g = _game()
    x = _set_x(g)
    g.next_turn()
    g.next_turn()
    drawn = len(g.drawn)
    g.clear(P1)
    assert (g.table.where(x) or ("",))[0] == zone("waiting", P1)
    assert g.table.entry(x).face_up and not g.table.cards(zone("surprise", P1))
    assert len(g.drawn) == drawn


def test_s20_set_then_clear_refused() -> None:
    """Given turn N; when Set, then Clear; then Clear is refused."""
    g = _game()
    _set_x(g)
    assert not g.can_clear(P1)


def test_s21_clear_then_set_refused() -> None:
    """Given turn N with a card in the zone; when Clear, then Set; then Set is refused."""
    g = _game()
    g.table.put([0], zone("surprise", P1), face_up=False)
    g.clear(P1)
    assert not g.can_set(P1)


def test_s22_the_counter_is_per_turn() -> None:
    """Given Set in turn N; when P1's next turn; then Set or Clear is offered again."""
    g = _game()
    _set_x(g)
    g.next_turn()
    g.next_turn()
    assert g.can_clear(P1)


def test_s23_effects_do_not_use_the_counter() -> None:
    """Given an effect puts a card in and takes it out in turn N; then Set is still allowed."""
    g = _game()
    card = g.table.cards(zone("hand", P1))[0]
    g.table.put([card], zone("surprise", P1), face_up=False)
    g.table.put([card], zone("waiting", P1), face_up=True)
    assert g.can_set(P1)


def _end_step_game(partner: bool) -> tuple[TableGame, list[int]]:
    g = _game()
    fired: list[int] = []

    def note(kind: int) -> Trigger:
        def cond(h: Happening) -> bool:
            return h.kind == "attack_end_step" and (kind != 1 or bool(h.data["partner"]))

        return Trigger(frozenset({"stage"}), cond)

    for kind in range(3):  # end of attack, end of partner attack, attack end step
        card = 10 + kind
        g.table.put([card], zone("stage", P1), face_up=True)

        def eff(game: TableGame, inst: Instance, k: int = kind) -> bool:
            fired.append(k)
            return True

        g.printed[card] = Printed([(note(kind), eff)])
    orphan = g.table.cards(zone("hand", P2))[0]
    g.table.put([orphan], zone("surprise", P2), face_up=True)  # something for the check
    g.end_step(partner)
    while not g.rz.empty():
        g.resolve()
    assert zone("waiting", P2) == g.table.where(orphan)[0]  # type: ignore[index]
    return g, fired


def test_s24_attack_end_step_without_partner_attack() -> None:
    """Given no partner attack; when the attack end step; then end-of-attack and end-step
    triggers fire, end-of-partner-attack does not, and a check runs."""
    g, fired = _end_step_game(False)
    assert sorted(fired) == [0, 2] and g.checks


def test_s25_attack_end_step_with_partner_attack() -> None:
    """Given the partner attack established; then all three fire, then a check runs."""
    g, fired = _end_step_game(True)
    assert sorted(fired) == [0, 1, 2] and g.checks


def _leaves_stage(g: TableGame, card: int) -> Trigger:
    return Trigger(
        frozenset({"stage"}),
        lambda h: h.kind == "move" and card in h.moved and h.data["to"].startswith("waiting"),
    )


def test_s26_look_back_to_the_zone_before_the_own_move() -> None:
    """Given a stage card with 〔舞台〕「when put into the waiting room」; when it moves from the
    stage to the waiting room; then it triggers."""
    g = _game()
    card = 5
    g.table.put([card], zone("stage", P1), face_up=True)
    g.printed[card] = Printed([(_leaves_stage(g, card), draw_effect)])
    g.move([card], zone("waiting", P1))
    assert [i.source for i in g.rz.waiting] == [card]


def test_s27_no_trigger_from_the_hand() -> None:
    """Given the same card in hand; when discarded to the waiting room; then no trigger."""
    g = _game()
    card = g.table.cards(zone("hand", P1))[0]
    g.printed[card] = Printed([(_leaves_stage(g, card), draw_effect)])
    g.move([card], zone("waiting", P1), face_up=True)
    assert g.rz.empty()


def test_s28_leaving_the_zone_is_detected_but_cannot_flip() -> None:
    """Given ★X' 「when this card leaves the surprise zone」; when Cleared; then the look-back
    detects it but no flip is offered (the card is no longer face down in the zone)."""
    g = _game()
    card = g.table.cards(zone("hand", P1))[0]
    trig = Trigger(
        frozenset({surprise.SURPRISE}),
        lambda h: h.kind == "move" and card in h.moved,
        Face.DOWN,
        optional=True,
    )
    g.printed[card] = Printed([(trig, draw_effect)])
    g.set_card(P1, card)
    g.offers.clear()
    g.detected.clear()
    g.next_turn()
    g.next_turn()
    g.clear(P1)
    assert [a.card for a in g.detected] == [card] and g.offers == []


def test_s29_an_older_card_leaves_face_up() -> None:
    """Given A (stamp 1); when an effect puts B (stamp 2), then a check; then A is face up in
    P1's waiting room and B stays face down."""
    g = _game()
    a, b = g.table.cards(zone("hand", P1))[:2]
    g.table.put([a], zone("surprise", P1), face_up=False)
    g.table.put([b], zone("surprise", P1), face_up=False)
    g.check()
    assert g.table.where(a)[0] == zone("waiting", P1) and g.table.entry(a).face_up  # type: ignore[index]
    assert g.table.cards(zone("surprise", P1)) == [b] and not g.table.entry(b).face_up


def test_s30_two_newest_cards_both_leave() -> None:
    """Given an empty zone; when B and C arrive in one event; then both leave face up."""
    g = _game()
    b, c = g.table.cards(zone("hand", P1))[:2]
    g.table.put([b, c], zone("surprise", P1), face_up=False)
    g.check()
    assert g.table.cards(zone("surprise", P1)) == []
    assert set(g.table.cards(zone("waiting", P1))) == {b, c}


def test_s31_older_and_tied_newest_all_leave() -> None:
    """Given A (stamp 1); when B and C arrive together; then all three leave."""
    g = _game()
    a, b, c = g.table.cards(zone("hand", P1))[:3]
    g.table.put([a], zone("surprise", P1), face_up=False)
    g.table.put([b, c], zone("surprise", P1), face_up=False)
    g.check()
    assert g.table.cards(zone("surprise", P1)) == []


def test_s32_each_card_goes_to_its_owners_waiting_room() -> None:
    """Given P2's card B put into P1's zone on top of A; then A goes to P1's waiting room and
    B stays; had B been older it would go to P2's waiting room."""
    g = _game()
    a = g.table.cards(zone("hand", P1))[0]
    b = g.table.cards(zone("hand", P2))[0]
    g.table.put([a], zone("surprise", P1), face_up=False)
    g.table.put([b], zone("surprise", P1), face_up=False)
    g.check()
    assert g.table.where(a)[0] == zone("waiting", P1)  # type: ignore[index]
    assert g.table.cards(zone("surprise", P1)) == [b]
    a2 = g.table.cards(zone("hand", P1))[0]
    g.table.put([a2], zone("surprise", P1), face_up=False)
    g.check()
    assert g.table.where(b)[0] == zone("waiting", P2)  # type: ignore[index]


def test_s33_flipped_card_stays_while_its_instance_waits() -> None:
    """Given ★X flipped with its instance waiting; when a check; then ★X stays."""
    g = _game()
    x = _set_x(g)
    g.attack(P2)
    g.flip(g.offers[0])
    g.check()
    assert g.table.cards(zone("surprise", P1)) == [x]


def test_s34_after_resolving_it_goes_to_the_waiting_room() -> None:
    """Given the instance resolved; when the next check; then ★X goes face up to the waiting
    room."""
    g = _game()
    x = _set_x(g)
    g.attack(P2)
    g.flip(g.offers[0])
    g.resolve()
    g.check()
    assert g.table.where(x)[0] == zone("waiting", P1) and g.table.entry(x).face_up  # type: ignore[index]


@pytest.mark.parametrize("star", [True, False])
def test_s35_turned_face_up_by_another_effect(star: bool) -> None:
    """Given ★X or Y turned face up by another effect; when the next check; then it goes to
    the waiting room (no instance of it waits)."""
    g = _game()
    card = _set_x(g) if star else g.table.cards(zone("hand", P1))[0]
    if not star:
        g.table.put([card], zone("surprise", P1), face_up=False)
    g.table.turn(card, True)
    g.check()
    assert g.table.where(card)[0] == zone("waiting", P1)  # type: ignore[index]


def test_s36_cancelled_default_stays_then_leaves_at_the_check() -> None:
    """Given ★X flipped and its instance cancelled; right after, it is face up in the zone;
    at the next check it goes to the waiting room (default)."""
    g = _game()
    x = _set_x(g)
    g.attack(P2)
    g.flip(g.offers[0])
    g.cancel()
    assert g.table.cards(zone("surprise", P1)) == [x] and g.table.entry(x).face_up
    g.check()
    assert g.table.where(x)[0] == zone("waiting", P1)  # type: ignore[index]


def test_s37_cancelled_stay_blocks_set_until_clear() -> None:
    """Given the same under STAY; when several checks; then it stays face up, Set is refused,
    Clear moves it."""
    g = _game(Cancelled.STAY)
    x = _set_x(g)
    g.attack(P2)
    g.flip(g.offers[0])
    g.cancel()
    g.check()
    g.check()
    assert g.table.cards(zone("surprise", P1)) == [x]
    g.next_turn()
    g.next_turn()
    assert not g.can_set(P1) and g.can_clear(P1)
    g.clear(P1)
    assert g.table.where(x)[0] == zone("waiting", P1)  # type: ignore[index]


@pytest.mark.parametrize("cancelled", list(Cancelled))
def test_s38_not_carried_out_is_like_cancelled(cancelled: Cancelled) -> None:
    """Given ★X whose effect cannot be carried out; when the instance ends; then as S36/S37."""
    g = _game(cancelled)
    x = _set_x(g)
    g.printed[x] = Printed([(g.printed[x].abilities[0][0], lambda game, inst: False)])
    g.attack(P2)
    g.flip(g.offers[0])
    g.resolve()
    assert g.table.entry(x).face_up and g.table.cards(zone("surprise", P1)) == [x]
    g.check()
    stays = cancelled is Cancelled.STAY
    assert (g.table.cards(zone("surprise", P1)) == [x]) is stays


def test_s39_both_rule_processes_in_one_pass() -> None:
    """Given an older face-down A and the newest ★X face up with no instance; when a check;
    then both leave in the same pass and the zone is empty."""
    g = _game()
    a, x = g.table.cards(zone("hand", P1))[:2]
    g.table.put([a], zone("surprise", P1), face_up=False)
    g.table.put([x], zone("surprise", P1), face_up=True)
    g.check()
    assert g.table.cards(zone("surprise", P1)) == []
    assert len(g.checks) == 1 and {f.rule for _, f in g.checks[0]} == {"9.5.3", "9.7.1"}


def test_s40_two_surprise_abilities_only_the_flipping_one_enters() -> None:
    """Given ★Z with two 【！】 abilities; when condition 1 fires and P1 flips; then only ability 1
    waits, and condition 2 later offers nothing."""
    g = _game()
    z = g.table.cards(zone("hand", P1))[0]
    second = Trigger(
        frozenset({surprise.SURPRISE}), lambda h: h.kind == "pass", Face.DOWN, optional=True
    )
    star_x(g, z)
    g.printed[z].abilities.append((second, draw_effect))
    g.set_card(P1, z)
    g.attack(P2)
    g.flip(g.offers[0])
    assert [(i.source, i.index) for i in g.rz.waiting] == [(z, 0)]
    g.happen(Happening("pass"))
    assert g.offers == []


def test_s41_rest_as_a_cost_needs_a_standing_card() -> None:
    """Given a rested bench card; when a cost says rest 1; then it cannot pay, a standing one
    can."""
    g = _game()
    g.table.put([1, 2], zone("bench", P1), face_up=True)
    g.table.rotate(1, sideways=True)
    with pytest.raises(PoseRefused):
        g.table.rotate(1, sideways=True, cost=True)
    assert g.table.rotate(2, sideways=True, cost=True) is not None


def test_s42_reverse_from_rest_by_effect_not_by_cost() -> None:
    """Given a rested bench card; when an effect reverses it; then allowed; a cost cannot."""
    g = _game()
    g.table.put([1, 2], zone("bench", P1), face_up=True)
    g.table.rotate(1, sideways=True)
    g.table.rotate(2, sideways=True)
    with pytest.raises(PoseRefused):
        g.table.rotate(1, reversed_=True, cost=True)
    assert g.table.rotate(2, reversed_=True) is not None
    assert g.table.entry(2).pose.reversed


def test_s43_turning_to_the_same_face_does_nothing() -> None:
    """Given a face-up card with 「when turned face up」; when told to turn it face up; then no
    event and no trigger; likewise face down to face down."""
    g = _game()
    up, down = 1, 2
    g.table.put([up], zone("stage", P1), face_up=True)
    g.table.put([down], zone("stage", P1), face_up=False)
    events = len(g.table.events)
    assert g.table.turn(up, True) is None and g.table.turn(down, False) is None
    assert len(g.table.events) == events
    trig = Trigger(frozenset({"stage"}), lambda h: h.kind == "flip")
    assert triggered([], Happening("flip"), g.locate) == [] and trig.face is Face.ANY


def test_s44_placement_states_are_public() -> None:
    """Given bench and energy cards; then every view shows each one's placement state."""
    g = _game()
    g.table.put([1], zone("bench", P1), face_up=True)
    g.table.put([2], zone("energy", P1), face_up=True)
    g.table.rotate(1, sideways=True)
    g.table.rotate(2, reversed_=True)
    for viewer in (P1, P2, None):
        view = g.table.view(viewer)
        assert view[zone("bench", P1)][0]["sideways"] is True
        assert view[zone("energy", P1)][0]["reversed"] is True


def test_s45_a_surprise_card_has_no_placement_state() -> None:
    """Given a card in the surprise zone; when an effect says rest it; then the engine refuses
    (documented choice: the order is rejected)."""
    g = _game()
    x = _set_x(g)
    with pytest.raises(PoseRefused):
        g.table.rotate(x, sideways=True)
    assert g.table.entry(x).pose is Pose.DOWN
