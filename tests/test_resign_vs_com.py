"""Resigning against COM (and the match's end seen the same way however it ended): the view
says the match is over and why, nothing is asked, COM stops, undo and redo say the match is
over with the code ``over``, acting is refused with that code, and the record is finished."""

from __future__ import annotations

from pathlib import Path

import pytest

from kessen.engine import registry
from kessen.server.session import Session, SessionError
from kessen.store.records import MatchStore
from tests.test_session import human_acts, settle, vs_com


@pytest.mark.parametrize("ruleset", ["kobo", "twgp", "maken"])
def test_resigning_against_com_ends_the_match_for_good(ruleset: str, tmp_path: Path) -> None:
    with MatchStore(tmp_path / "m.sqlite3") as store:
        config = registry.get(ruleset).default_config
        session = Session.create(ruleset, config, 5, "vs_com", "heuristic", 0.0, store=store)
        settle(session)
        for _ in range(3):
            if session.live.pending is not None and session.live.pending.seat == 0:
                human_acts(session)
        assert session.view_for(0, "ja", False)["session"]["ended"] is None
        pending = session.live.pending
        session.resign(0)
        view = session.view_for(0, "ja", False)
        assert view["session"]["ended"] == {"winner": 1, "reason": "resign", "off_board": True}
        assert view["pending"] is None
        assert view["history"]["can_undo"] is False and view["history"]["undo_code"] == "over"
        assert view["history"]["can_redo"] is False
        assert session.com_to_move() is None
        prompt = pending.prompt_id if pending else 0
        for refused in ("resign", "undo", "redo", "act"):
            with pytest.raises(SessionError) as err:
                if refused == "act":
                    session.act(0, prompt, "pass")
                else:
                    getattr(session, refused)(0)
            assert err.value.code == "over", refused
        assert session.recorder is not None
        info = store.info(session.recorder.match_id)
        assert info.is_finished and info.winner == 1 and info.reason == "resign"


def test_a_com_seat_or_a_spectator_cannot_resign() -> None:
    session = vs_com()
    for seat in (1, -1):
        with pytest.raises(SessionError, match="does not play a seat"):
            session.resign(seat)
    assert session.outcome is None
