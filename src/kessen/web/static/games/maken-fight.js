// Project Maken: a judge, step by step. When a view brings the record of a judge
// (`view.resolution`, built by the engine from the viewer's log: games/maken/record.py), the
// page plays it back with shell/playback.js: the bets the page had not shown yet and the steps
// of their procedure that had a visible effect (the 17 steps of §6), the judge's comparison,
// the damage, the down, the clean-up. Each frame draws the table as the record's board after
// that step (every number is the frame's) and the log reveals a line only when a frame reaches
// it; the result banner stays after the last frame. It also draws the strip of the frame (what
// happens, with its numbers) and the panel while the playback runs (what it is, skip).

import { cardName, cdef } from './maken-base.js';
import { tx } from './maken-strings.js';
import { $, $$, h, put } from '../shell/dom.js';
import { term } from '../shell/glossary.js';
import {
  afterPlayback, currentFrame, finishPlayback, frameIndex, markPlayed, playedBefore, startPlayback,
} from '../shell/playback.js';
import { me, seatName } from '../shell/seats.js';
import { S } from '../shell/state.js';

export { afterPlayback, currentFrame };

/** The modes whose judges play back (COM vs COM runs at the server's pace). */
const PLAYED_MODES = ['vs_com', 'vs_human'];

/* ---------------------------------------------------------------- frames */

/** The frames of a record: its steps from the first one the page had not shown (at the
 *  latest its judge), each with the board after it and the log it reveals. */
export function buildFrames(res, seen) {
  const steps = res.steps || [];
  const judge = steps.findIndex((s) => s.kind === 'judge');
  let from = steps.findIndex((s) => s.at >= seen);
  if (from < 0 || (judge >= 0 && from > judge)) from = Math.max(0, judge);
  const banner = { ...res.banner, outcome: res.outcome };
  const frames = steps.slice(from).map((step) => ({ logUntil: step.logUntil, step, board: step.board }));
  // The banner comes with the result: the damage, or the down when there is one (it never
  // tells a frame what comes after it), else the last frame.
  const first = res.outcome.down ? 'down' : 'damage';
  let on = frames.findIndex((f) => f.step.kind === first);
  if (on < 0) on = frames.length - 1;
  frames.forEach((f, i) => {
    if (i >= on) f.banner = banner;
  });
  return frames;
}

/** A new live view: play the judge its record describes (once per record, only for a view
 *  that follows one of the same session: a reload does not replay the past). With the screen
 *  motion off nothing steps: the last frame holds with its banner. */
export function maybePlay(prev, view) {
  const res = view.resolution;
  if (!res || S.replay || !view.history.live || !PLAYED_MODES.includes(view.session.mode)) return false;
  const sid = view.session.id;
  if (playedBefore(sid, res.key)) return false;
  const fresh = prev && prev.session.id === sid && prev.history.live && prev.log;
  if (!fresh) {
    markPlayed(sid, res.key);
    return false;
  }
  const frames = buildFrames(res, prev.log.length);
  // (With the screen's motion off the shell holds the last frame alone.)
  return startPlayback({ sid, key: res.key, frames, gameEnd: res.outcome.winner != null });
}

/* ---------------------------------------------------------------- the board of a frame */

function cardView(id) {
  const d = cdef(id) || {};
  return { card: id, name: d.name || cardName(id), kind: d.kind, character: d.character, text: d.text };
}

function fieldView(e) {
  if (e.face === 'down') return { ...e, name: cardName(e.copy_of) };
  return { ...cardView(e.card), ...e };
}

function supportView(e) {
  if (!e.card) return { face: 'down' };
  return { ...cardView(e.card), ...e };
}

/** The dust of a frame: the view's own cards when the frame's pile is a beginning of it (the
 *  dust only grows during an exchange), else a pile of that size with its top card. */
function dustView(now, pile) {
  const n = pile.count;
  if (now.length >= n && (!n || now[n - 1].card === pile.top)) return now.slice(0, n);
  const filler = pile.top ? cardView(pile.top) : { card: '' };
  return Array.from({ length: n }, () => filler);
}

/** The view to draw for a frame: the live view with the frame's board (counts, hands, fields,
 *  supports, situation, judge); nothing to choose. */
export function frameView(v, frame) {
  const b = frame.board;
  const players = v.players.map((p, s) => {
    const q = b.players[s];
    return {
      ...p,
      lp: q.lp,
      stamina: q.stamina,
      gauge: q.gauge,
      damage: q.damage,
      hand: { count: q.hand.count, cards: q.hand.cards ? q.hand.cards.map(cardView) : null },
      dust: dustView(p.dust, q.dust),
      helper: q.helper.map(cardView),
      field: q.field.map(fieldView),
      total: q.total,
      support: q.support.map(supportView),
      defenceless: q.defenceless,
      defenceless_until: q.defenceless_until,
      tp: q.tp,
    };
  });
  const judge = b.judge ? { ...b.judge } : null;
  return {
    ...v,
    turn: b.turn,
    tp: b.tp,
    phase: judge ? 'bonus' : 'act',
    situation: b.situation,
    judge,
    bet: null,
    pending: null,
    previews: null,
    why_not: null,
    outcome: null,
    players,
  };
}

/** After the frame's board is drawn: mark what the step touched. */
export function markFrame(frame) {
  const s = frame.step;
  const half = (seat) => $(`#mk-board .mk-half[data-seat="${seat}"]`);
  if (s.kind === 'bet' || s.kind === 'self') {
    const top = half(s.seat) && half(s.seat).querySelector('.mk-field .mk-card.top, .mk-stack .mk-card:last-child');
    if (top) top.classList.add('mk-fx-new');
  }
  const counts = { pay: ['gauge'], gain: ['gauge'], damage: ['damage', 'stamina'], down: ['lp', 'damage'] };
  for (const key of counts[s.kind] || []) {
    const el = half(s.seat) && half(s.seat).querySelector(`[data-count="${key}"]`);
    if (el) el.classList.add('mk-fx-changed');
  }
}

/* ---------------------------------------------------------------- the strip */

function dataLine(d) {
  const stat = (key, label, value) => h('span', { class: `mkf-stat s-${key}` }, term(key, label), h('b', { text: String(value) }));
  const dist = d.front === d.back ? `${d.front}` : `${d.front}→${d.back}`;
  return h('span', { class: 'mkf-data' },
    stat('spd', tx('st_spd'), d.spd), stat('dist', tx('st_dist'), dist), stat('atk', tx('st_atk'), d.atk));
}

function topCard(side, seat, top) {
  if (!top) return h('div', { class: `mkf-side ${side}` }, h('span', { class: 'muted', text: tx('cl_no_top') }));
  return h('div', { class: `mkf-side ${side} ${seat === me() ? 'mine' : 'theirs'}` },
    h('span', { class: 'mkf-who', text: seatName(seat) }),
    h('strong', { class: 'mkf-card', text: cardName(top.card) }),
    dataLine(top));
}

function stepBody(f, v) {
  const s = f.step;
  const b = f.board;
  const downAt = (v.config && v.config.downAt) || 10;
  switch (s.kind) {
    case 'bet': {
      const [spd, front, back, atk] = s.data;
      return [
        h('div', { class: 'mkf-row' }, dataLine({ spd, front, back, atk }),
          s.vs ? h('span', { class: 'mkf-check', dataset: { spd, front, vsSpd: s.vs.spd, vsBack: s.vs.back } },
            term('check', tx('cl_check')), ` ${spd} ≥ ${s.vs.spd} · ${front} ≥ ${s.vs.back}`) : null),
        (s.lines || []).slice(1).map((x) => h('div', { class: 'mkf-line', text: x })),
      ];
    }
    case 'judge': {
      const c = s.compare || {};
      if (s.hitter == null) return h('div', { class: 'mkf-line', text: tx('cl_no_hit') });
      const loser = 1 - s.hitter;
      return [
        h('div', { class: 'mkf-compare', dataset: { how: s.how || '' } },
          topCard('hitter', s.hitter, c.hitter), h('span', { class: 'mkf-vs', text: tx('cl_vs') }), topCard('loser', loser, c.loser)),
        c.totals && s.how === 'GB' ? h('div', { class: 'mkf-line mkf-totals', dataset: { totals: c.totals.join(':') } },
          term('total', tx('total')), ` ${c.totals[0]} ${tx('cl_vs')} ${c.totals[1]}`) : null,
        s.how && s.how !== 'GB' ? h('div', { class: 'mkf-line', text: tx(`cl_hits_${s.how}`) }) : null,
        s.defenceless ? h('div', { class: 'mkf-line' }, term('defenceless', tx('sit_defenceless')), ` — ${tx('cl_bonus_chance')}`) : null,
      ];
    }
    case 'damage': {
      const now = b.players[s.seat].damage;
      const hitter = b.players[1 - s.seat];
      return [
        h('div', { class: 'mkf-row mkf-damage', dataset: { d: s.d, before: s.damage_before, after: now } },
          h('b', { class: 'mkf-big', text: String(s.d) }), term('damage', tx('cl_damage')),
          h('span', { class: 'mkf-pile', text: tx('cl_damage_pile', { a: s.damage_before, b: now, max: downAt }) })),
        // A guard break's damage is the difference of the attack totals (§7).
        s.how === 'GB' ? h('div', { class: 'mkf-line mkf-totals' },
          term('total', tx('total')),
          (v.config && v.config.gb) === 'total' ? ` ${hitter.total}` : ` ${hitter.total} − ${b.players[s.seat].total}`) : null,
      ];
    }
    case 'down':
      return h('div', { class: 'mkf-row' }, term('down', tx('cl_down')),
        h('span', { class: 'mkf-pile', text: tx('cl_lp_left', { n: s.lp }) }));
    default:
      return null;
  }
}

/** The strip of the frame on screen, in the board's center (nothing without a playback). */
export function renderFight(v) {
  const f = S.replay ? null : currentFrame();
  const old = $('#mk-fight');
  if (!f) {
    if (old) old.remove();
    return;
  }
  const at = frameIndex();
  const s = f.step;
  const box = h('section', {
    id: 'mk-fight',
    class: `mk-fight step-${s.kind}${s.seat != null ? (s.seat === me() ? ' mine' : ' theirs') : ''}`,
    dataset: { step: s.kind, index: at ? at.index : 0, logUntil: f.logUntil },
    'aria-label': tx('cl_playing'),
  },
  h('div', { class: 'mkf-head' },
    h('span', { class: 'mkf-progress', text: at ? `${at.index + 1}/${at.count}` : '' }),
    s.label ? h('span', { class: 'mkf-label', text: s.label }) : null,
    h('strong', { class: 'mkf-text', text: s.text }),
    h('button', { type: 'button', class: 'link mkf-skip', text: tx('cl_skip'), onclick: finishPlayback })),
  stepBody(f, v));
  const host = $('#mk-board .mk-center') || $('#mk-board');
  if (host) host.append(box);
}

/** The operation panel while a judge plays back: what it is, and a button to skip it. */
export function renderPlaybackOps() {
  const body = $('#ops-body');
  const skip = body.querySelector('.mk-skip-ops');
  if (skip && skip.dataset.lang === S.settings.lang) return;
  body.dataset.ruleset = 'maken';
  put(body,
    h('div', { class: 'ops-prompt waiting' },
      h('div', { class: 'ops-title' }, h('span', { class: 'spinner' }), tx('cl_playing')),
      h('p', { class: 'muted', text: tx('cl_ops') })),
    h('div', { class: 'ops-actions' },
      h('button', {
        type: 'button', class: 'act-secondary mk-skip-ops', dataset: { lang: S.settings.lang }, text: tx('cl_skip'), onclick: finishPlayback,
      })));
}

/** Remove what a frame left on the board (glows of the touched places). */
export function clearFrameMarks() {
  for (const e of $$('#mk-board .mk-fx-new, #mk-board .mk-fx-changed')) e.classList.remove('mk-fx-new', 'mk-fx-changed');
}
