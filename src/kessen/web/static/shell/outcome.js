// What the one-game rulesets (TWGP, Project Maken) draw alike: the top bar's banner, the
// operation panel while the player has nothing to decide (the game is over, nothing is
// pending, another seat decides), and the end-of-game dialog. Each game gives its own words;
// the shell gives the shape.

import { h, put } from './dom.js';
import { endedBanner, renderEndedOps } from './ending.js';
import { closeOverlay, openOverlay } from './overlay.js';
import { isMyPrompt, isSpectator, me, seatName } from './seats.js';
import { leaveGame, playAgain } from './session.js';
import { S } from './state.js';

/**
 * The top bar's banner of a one-game ruleset: {cls, text, sub} for a replay, a COM vs COM
 * game looked at in its history, a finished game, a spectator, the player's own prompt and
 * another seat's. `g` gives the game's words: tx(key) (replay, step, over, history_view,
 * spectating, waiting_seat, your_move, opp_thinking), outcomeTitle(v), promptName(prompt),
 * and optionally mine(p) / theirs(p) (the text of the player's own prompt and of another
 * seat's, e.g. TWGP's response window; default your_move / opp_thinking).
 */
export function bannerFor(v, g) {
  const hist = v.history;
  if (S.replay) {
    const head = `${g.tx('replay')} · ${g.tx('step', { step: hist.step, steps: hist.steps })}`;
    if (v.outcome) return { cls: 'history over', text: head, sub: `${g.tx('over')} — ${g.outcomeTitle(v)}` };
    const p = v.pending;
    return { cls: 'history', text: head, sub: p ? `${seatName(p.seat)} · ${g.promptName(p.prompt)}` : '' };
  }
  if (v.session.mode === 'com_vs_com' && !hist.live) {
    return { cls: 'history', text: g.tx('history_view', { step: hist.step, steps: hist.steps }) };
  }
  if (v.outcome) return { cls: 'over', text: `${g.tx('over')} — ${g.outcomeTitle(v)}` };
  const ended = endedBanner(v);
  if (ended) return ended;
  const p = v.pending;
  if (!p) return { cls: 'wait', text: '' };
  const sub = g.promptName(p.prompt);
  if (isSpectator()) {
    return { cls: `spect ${p.seat === me() ? 'mine' : 'theirs'}`, text: `${g.tx('spectating')} · ${g.tx('waiting_seat', { who: seatName(p.seat) })}`, sub };
  }
  if (p.seat === me()) return { cls: 'mine', text: g.mine ? g.mine(p) : g.tx('your_move'), sub };
  return { cls: 'theirs', text: g.theirs ? g.theirs(p) : g.tx('opp_thinking'), sub };
}

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
  if (renderEndedOps(body, v)) return true;
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
