// A match that ends off the board, for any game: 投了 against COM (a top-bar tool, pressed
// twice), and the result dialog every seat and spectator sees once when the server says the
// match ended by resignation or on time (`view.session.ended` with `off_board`). A match that
// ends on the board keeps its game's own dialog (the game's `detectEnd`).

import { send } from './connection.js';
import { $, h } from './dom.js';
import { t } from './i18n.js';
import { closeOverlay, openOverlay } from './overlay.js';
import { gameOfView } from './registry.js';
import { isSpectator, me } from './seats.js';
import { leaveGame, playAgain } from './session.js';
import { S } from './state.js';

const E = { shownFor: new Set(), armed: null };

/** How the match ended, as the server says (null while it goes on). */
export function endedOf(v) {
  return (v && v.session && v.session.ended) || null;
}

/** The top bar's 投了 tool: shown to the person playing COM while the match goes on. */
export function renderResignTool(v) {
  const b = $('#btn-resign');
  if (!b) return;
  const show = !!v && !S.replay && v.session.mode === 'vs_com' && !isSpectator() && !endedOf(v) && !!v.history.live;
  b.hidden = !show;
  if (!show || !b.classList.contains('armed')) disarm(b);
}

function disarm(b) {
  clearTimeout(E.armed);
  E.armed = null;
  b.classList.remove('armed');
  b.textContent = t('resign');
  b.title = t('resign_title');
}

/** 投了: the first press arms the tool for a few seconds, the second resigns. */
export function bindResign() {
  const b = $('#btn-resign');
  if (!b) return;
  b.addEventListener('click', () => {
    if (b.classList.contains('armed')) {
      disarm(b);
      send({ type: 'resign' });
      return;
    }
    b.classList.add('armed');
    b.textContent = t('resign_confirm');
    clearTimeout(E.armed);
    E.armed = setTimeout(() => disarm(b), 4000);
  });
}

/** The words of an off-board end for the viewer: the title and the line under it. */
export function endedWords(end) {
  const seatWord = (s) => `P${s + 1}`;
  const resigned = end.reason === 'resign';
  if (isSpectator()) {
    return {
      title: t('end_wins', { who: seatWord(end.winner) }),
      line: resigned ? t('end_resigned_by', { who: seatWord(1 - end.winner) }) : t('end_timeout_of', { who: seatWord(1 - end.winner) }),
      mood: 'neutral',
    };
  }
  const won = end.winner === me();
  const key = `end_${resigned ? 'resign' : 'timeout'}_${won ? 'won' : 'lost'}`;
  return { title: t(won ? 'end_you_win' : 'end_you_lose'), line: t(key), mood: won ? 'win' : 'lose' };
}

/** Show the result dialog once per session when its match has just ended off the board. */
export function maybeShowEnded(prev, view) {
  const end = endedOf(view);
  if (!end || !end.off_board || S.replay || !view.history.live) return;
  const sid = view.session.id;
  if (E.shownFor.has(sid)) return;
  E.shownFor.add(sid);
  // A view seen for the first time (a reload after the end) does not open it again.
  if (!prev || prev.session.id !== sid) return;
  const words = endedWords(end);
  const again = view.session.mode === 'vs_com';
  const box = h('div', { class: `modal match-over ${words.mood}`, role: 'dialog', dataset: { reason: end.reason } },
    h('div', { class: 'modal-kicker', text: gameOfView(view).t('game_name') }),
    h('div', { class: 'modal-title', text: words.title }),
    h('p', { class: 'modal-line', text: words.line }),
    h('div', { class: 'modal-buttons' },
      again ? h('button', { type: 'button', class: 'primary', id: 'overlay-again', text: t('end_again'), onclick: playAgain }) : null,
      h('button', { type: 'button', id: 'overlay-start', class: again ? '' : 'primary', text: t('end_to_start'), onclick: leaveGame }),
      h('button', {
        type: 'button', id: 'overlay-board', text: t('end_see_board'),
        onclick: () => { S.dismissedMatch = sid; closeOverlay(); },
      })));
  openOverlay('match', box);
}
