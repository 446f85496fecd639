// What the one-game rulesets (TWGP, Project Maken) draw alike: the operation panel while the
// player has nothing to decide (the game is over, nothing is pending, another seat decides),
// and the end-of-game dialog. Each game gives its own words; the shell gives the shape.

import { h, put } from './dom.js';
import { closeOverlay, openOverlay } from './overlay.js';
import { isMyPrompt, isSpectator, me, seatName } from './seats.js';
import { leaveGame, playAgain } from './session.js';
import { S } from './state.js';

/**
 * Draw the operation panel's idle states into `body`; true when one applied (the game draws
 * its prompt otherwise). `g` gives the game's words: tx(key), outcomeTitle(v),
 * reasonText(reason), bannerInfo(v) ({text}), promptName(prompt), showGameOver(v), and
 * optionally waitingClass(p) (extra classes of the waiting block) and waitingNotes(v) (nodes).
 */
export function renderIdleOps(body, v, g) {
  const p = v.pending;
  if (v.outcome) {
    put(body,
      h('div', { class: 'ops-prompt' },
        h('div', { class: 'ops-title', text: g.tx('over') }),
        h('p', { text: `${g.outcomeTitle(v)} — ${g.reasonText(v.outcome.reason)}` })),
      h('div', { class: 'ops-actions' },
        h('button', {
          type: 'button', class: 'act-secondary', text: g.tx('show_result'),
          onclick: () => { S.dismissedMatch = null; g.showGameOver(v); },
        })));
    return true;
  }
  if (!p) {
    put(body, h('p', { class: 'muted', text: g.tx('no_action') }));
    return true;
  }
  if (isMyPrompt(v)) return false;
  const extra = g.waitingClass ? g.waitingClass(p) : '';
  put(body,
    h('div', { class: `ops-prompt waiting${extra}` },
      h('div', { class: 'ops-title' }, v.history.live ? h('span', { class: 'spinner' }) : null, g.bannerInfo(v).text),
      h('p', { class: 'muted', text: `${seatName(p.seat)} · ${g.promptName(p.prompt)}` })),
    ...(g.waitingNotes ? g.waitingNotes(v) : []));
  return true;
}

/**
 * The end-of-game dialog of a one-game match: `cls` its game's class, `kicker` and `title`,
 * an optional `line` (the deciding moment), `score` (why and how long), `words` the texts of
 * its three buttons (again, to_start, see_board).
 */
export function showOutcomeDialog(v, { cls, kicker, title, line, score, words }) {
  if (!v || !v.outcome) return;
  const o = v.outcome;
  const draw = o.winner == null || o.winner < 0;
  const win = !draw && !isSpectator() && o.winner === me();
  const mood = draw ? 'tie' : win ? 'win' : isSpectator() ? 'neutral' : 'lose';
  const box = h('div', { class: `modal match-over ${cls} ${mood}`, role: 'dialog' },
    h('div', { class: 'modal-kicker', text: kicker }),
    h('div', { class: 'modal-title', text: title }),
    line ? h('p', { class: 'modal-line', text: line }) : null,
    h('div', { class: 'modal-score', text: score }),
    h('div', { class: 'modal-buttons' },
      h('button', { type: 'button', class: 'primary', id: 'overlay-again', text: words.again, onclick: playAgain }),
      h('button', { type: 'button', id: 'overlay-start', text: words.to_start, onclick: leaveGame }),
      h('button', {
        type: 'button', id: 'overlay-board', text: words.see_board,
        onclick: () => { S.dismissedMatch = v.session.id; closeOverlay(); },
      })));
  openOverlay('match', box);
}
