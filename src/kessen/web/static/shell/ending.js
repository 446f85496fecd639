// A match that ends off the board, for any game: 投了 against COM (a top-bar tool, pressed
// twice), and the result dialog every seat and spectator sees once when the server says the
// match ended by resignation or on time (`view.session.ended` with `off_board`). A match that
// ends on the board keeps its game's own dialog (the game's `detectEnd`).

import { send } from './connection.js';
import { $, h, put } from './dom.js';
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
  const reason = ['resign', 'timeout', 'abandon'].includes(end.reason) ? end.reason : 'timeout';
  if (isSpectator()) {
    const key = { resign: 'end_resigned_by', timeout: 'end_timeout_of', abandon: 'end_abandoned_by' }[reason];
    return { title: t('end_wins', { who: seatWord(end.winner) }), line: t(key, { who: seatWord(1 - end.winner) }), mood: 'neutral' };
  }
  const won = end.winner === me();
  return { title: t(won ? 'end_you_win' : 'end_you_lose'), line: t(`end_${reason}_${won ? 'won' : 'lost'}`), mood: won ? 'win' : 'lose' };
}

/** The top bar's words for a match that ended off the board ({cls, text}), or null while the
 *  match goes on or ended on the board (the game words that itself). */
export function endedBanner(v) {
  const end = endedOf(v);
  if (!end || !end.off_board || S.replay) return null;
  const words = endedWords(end);
  return { cls: `over ${words.mood}`, text: `${t('end_over')} — ${words.title}`, sub: words.line };
}

/** The results panel's line for the game a match ended in off the board (`label` names the
 *  game, e.g. 「ゲーム」 or 「第2ゲーム」), or null while the match goes on. */
export function endedResult(v, label) {
  const end = endedOf(v);
  if (!end || !end.off_board || S.replay) return null;
  const words = endedWords(end);
  const cls = words.mood === 'win' ? 'mine' : words.mood === 'lose' ? 'theirs' : `p${end.winner + 1}`;
  return h('li', { class: `result ended ${cls}`, dataset: { reason: end.reason } },
    h('span', { class: 'r-game', text: label }),
    h('span', { class: 'r-win', text: words.title }),
    h('span', { class: 'r-why muted', text: words.line }));
}

/** The operation panel of a match that ended off the board: what happened and a button that
 *  shows the result again. True when it applied (the game draws its own panel otherwise). */
export function renderEndedOps(body, v) {
  const end = endedOf(v);
  if (!end || !end.off_board || S.replay) return false;
  const words = endedWords(end);
  put(body,
    h('div', { class: 'ops-prompt ended', dataset: { reason: end.reason } },
      h('div', { class: 'ops-title', text: `${t('end_over')} — ${words.title}` }),
      h('p', { text: words.line })),
    h('div', { class: 'ops-actions' },
      h('button', { type: 'button', class: 'act-secondary', id: 'ops-show-ended', text: t('end_show_result'), onclick: () => showEnded(v) })));
  return true;
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
  showEnded(view);
}

/** The result dialog of a match that ended off the board (resigned, on time, abandoned). */
export function showEnded(view) {
  const end = endedOf(view);
  if (!end) return;
  const sid = view.session.id;
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
