// Project Maken: drawing the board — both players' halves (counts, situation, the support,
// attack and helper fields, the dust and the hand), the center strip (situation, the bet
// being paid, the judge), the top bar and the results panel. Only what the view gives is
// drawn: hidden cards arrive without their faces and are drawn as backs, hidden numbers as "?".

import {
  bannerInfo, cardName, cdef, charName, optionInfo, outcomeTitle, reasonText, situationLine, situationOf,
} from './maken-base.js';
import { tx } from './maken-strings.js';
import { $, h, put } from '../shell/dom.js';
import { infoable } from '../shell/info.js';
import { isSpectator, me, seatLabel, seatName, whoseOf } from '../shell/seats.js';
import { S } from '../shell/state.js';

/** A number of the view, or "?" when the view hides it. */
function num(n) {
  return n == null ? tx('hidden_n') : String(n);
}

/** The data line of a card: locked field data when given, else the catalogue's. */
function dataOf(card) {
  const d = cdef(card.card) || {};
  const data = card.data || d.data || {};
  const dist = card.distance || d.distance || '';
  return { ...data, dist };
}

/** A face-up card (`card` is a view card `{card, name, kind, …}` or a catalogue id). */
export function cardEl(card, opts = {}) {
  const c = typeof card === 'string' ? { card } : card;
  const d = cdef(c.card) || {};
  const kind = c.kind || d.kind || 'attack';
  const ch = c.character || d.character || 'GE';
  const data = dataOf(c);
  const labels = (d.labels || []).map((l) => tx(`lb_${l.replace(/-/g, '_')}`)).concat(d.tags || []);
  // Each stat is a block of its own, its label over its value.
  const stat = (cls, key, value) => h('div', { class: `mk-stat ${cls}` }, h('i', { text: tx(key) }), ' ', h('b', { text: value }));
  // The foot's marks are spaced in the text too, so they read as separate words.
  const spaced = (nodes) => nodes.flat().filter(Boolean).flatMap((n, i) => (i ? [' ', n] : [n]));
  const el = h('div', {
    class: `mk-card kind-${kind} ch-${ch}${opts.cls ? ` ${opts.cls}` : ''}${c.hit ? ' hit' : ''}`,
    dataset: opts.ref ? { ref: opts.ref } : {},
  },
  // Spaces between the blocks: the card's text (read, and named by maken.js) keeps its words apart.
  h('div', { class: 'mk-c-name', text: c.name || d.name || cardName(c.card) }), ' ',
  kind === 'attack'
    ? h('div', { class: 'mk-c-data' },
      stat('mk-spd', 'st_spd', num(data.spd)), ' ', stat('mk-dist', 'st_dist', data.dist), ' ', stat('mk-atk', 'st_atk', num(data.atk)))
    : h('div', { class: 'mk-c-data support', text: tx(`du_${d.duration || 'turn'}`) }), ' ',
  h('div', { class: 'mk-c-foot' }, spaced([
    data.cost ? h('span', { class: 'mk-cost', text: tx('cost_s', { n: data.cost }) }) : null,
    data.gain ? h('span', { class: 'mk-gain', text: tx('gain_s', { n: data.gain }) }) : null,
    labels.map((l) => h('span', { class: 'mk-label', text: l })),
    c.helper_paid ? h('span', { class: 'mk-hp', text: tx('helper') }) : null,
    c.hit ? h('span', { class: 'mk-hit', text: tx('hit') }) : null])));
  return el;
}

/** A card back (a hidden card: only where it lies shows). */
export function backEl(label, opts = {}) {
  return h('div', { class: `mk-card back${opts.cls ? ` ${opts.cls}` : ''}`, dataset: opts.ref ? { ref: opts.ref } : {} },
    h('div', { class: 'mk-c-back', text: label || tx('face_down') }));
}

/** One counter of a player (LP, stamina, gauge, damage, hand, dust); CARD INFORMATION explains it. */
function counter(seat, key, value, extra = '') {
  const el = h('div', { class: `mk-count c-${key}`, dataset: { count: key } },
    h('span', { class: 'mk-count-k', text: tx(key) }),
    h('b', { class: 'mk-count-v', text: `${num(value)}${extra}` }));
  return infoable(el, { type: 'mk', what: 'count', key, seat });
}

function situationChips(v, seat) {
  const s = situationOf(v, seat);
  const p = v.players[seat];
  return [
    p.tp ? h('span', { class: 'mk-chip tp', text: tx('tp') }) : h('span', { class: 'mk-chip ntp', text: tx('non_tp') }),
    h('span', { class: `mk-chip sit sit-${s.kind}`, dataset: { sit: s.kind }, text: tx(`sit_${s.kind}`) }),
    s.defenceless ? h('span', { class: 'mk-chip defenceless', title: tx('defenceless_until', { n: p.defenceless_until }), text: tx('sit_defenceless') }) : null,
  ];
}

function headEl(v, seat) {
  const p = v.players[seat];
  const downAt = (v.config && v.config.downAt) || 10;
  return h('div', { class: 'mk-head' },
    h('div', { class: 'mk-who' },
      h('span', { class: `mk-seat ${seat === me() && !isSpectator() ? 'mine' : 'theirs'}`, text: seatLabel(seat) }),
      h('span', { class: `mk-char ch-${p.character.code}`, text: p.character.name || charName(p.character.code) }),
      situationChips(v, seat)),
    h('div', { class: 'mk-counts' },
      counter(seat, 'lp', p.lp),
      counter(seat, 'stamina', p.stamina),
      counter(seat, 'gauge', p.gauge),
      counter(seat, 'damage', p.damage, `/${downAt}`),
      counter(seat, 'hand', p.hand.count),
      counter(seat, 'dust', p.dust.length)));
}

/** The attack field: the cards below as an offset stack, the top card prominent. */
function fieldEl(v, seat) {
  const p = v.players[seat];
  const cards = p.field.map((e, i) => {
    const top = i === p.field.length - 1;
    const cls = `${top ? 'top' : 'under'}`;
    const el = e.face === 'down'
      ? backEl(`${tx('face_down')} · ${e.name || cardName(e.copy_of)} ${e.atk != null ? e.atk : ''}`, { cls: `${cls} extra`, ref: `f:${e.copy_of || ''}:${i}` })
      : cardEl(e, { cls, ref: `f:${e.card}` });
    el.dataset.index = String(i);
    return infoable(el, { type: 'mk', what: 'field', seat, index: i });
  });
  return h('section', { class: 'mk-zone mk-field', 'aria-label': `${whoseOf(seat)}${tx('field')}` },
    h('div', { class: 'mk-zone-title' }, tx('field'), h('span', { class: 'mk-total', text: `${tx('total')} ${num(p.total)}` })),
    h('div', { class: `mk-stack${cards.length ? '' : ' empty'}` }, cards.length ? cards : h('span', { class: 'muted', text: tx('empty') })));
}

/** The support field in opening order: opened cards numbered and first, then the set cards
 * face-down (their face only for their owner) in field order. */
function supportEl(v, seat) {
  const p = v.players[seat];
  const placed = p.support.map((e, i) => [e, i]);
  const opened = placed.filter(([e]) => e.face === 'up').sort((x, y) => x[0].order - y[0].order);
  const shown = [...opened, ...placed.filter(([e]) => e.face !== 'up')];
  const items = shown.map(([e, i]) => {
    let el;
    if (e.face === 'up') {
      el = cardEl(e, { cls: 'support up', ref: `s:${e.card}` });
      el.prepend(h('span', { class: 'mk-order', text: tx('order_n', { n: e.order + 1 }) }), ' ');
    } else if (e.card) {
      el = cardEl(e, { cls: 'support set', ref: `s:${e.card}` });
      el.prepend(h('span', { class: 'mk-order set', text: tx('set_mark') }), ' ');
    } else {
      el = backEl(tx('set_mark'), { cls: 'support set' });
    }
    return infoable(el, { type: 'mk', what: 'support', seat, index: i });
  });
  const cap = v.config && 'supportCap' in v.config ? v.config.supportCap : 6;
  return h('section', { class: 'mk-zone mk-support', 'aria-label': `${whoseOf(seat)}${tx('support')}` },
    h('div', { class: 'mk-zone-title' }, tx('support'), h('span', { class: 'muted', text: ` ${p.support.length}${cap ? `/${cap}` : ''}` })),
    h('div', { class: 'mk-row' }, items.length ? items : h('span', { class: 'muted', text: tx('empty') })));
}

function helperEl(v, seat) {
  const p = v.players[seat];
  const card = p.helper && p.helper[0];
  const el = card ? cardEl(card, { cls: 'helper' }) : h('div', { class: 'mk-slot', text: tx('empty') });
  infoable(el, { type: 'mk', what: 'helper', seat });
  return h('section', { class: 'mk-zone mk-helper' }, h('div', { class: 'mk-zone-title', text: tx('helper') }), el);
}

function dustEl(v, seat) {
  const p = v.players[seat];
  const last = p.dust[p.dust.length - 1];
  const el = h('div', { class: 'mk-pile' },
    last ? h('span', { class: 'mk-pile-top', text: last.name || cardName(last.card) }) : h('span', { class: 'muted', text: tx('empty') }),
    h('span', { class: 'mk-pile-n', text: tx('n_cards', { n: p.dust.length }) }));
  infoable(el, { type: 'mk', what: 'dust', seat });
  return h('section', { class: 'mk-zone mk-dust' }, h('div', { class: 'mk-zone-title', text: tx('dust') }), el);
}

function handEl(v, seat) {
  const p = v.players[seat];
  let cards;
  if (p.hand.cards) {
    cards = p.hand.cards.map((c, i) => {
      const el = cardEl(c, { cls: 'in-hand', ref: `h:${c.card}` });
      el.dataset.index = String(i);
      return infoable(el, { type: 'mk', what: 'hand', seat, index: i });
    });
  } else {
    const backs = h('div', { class: 'mk-hand-backs' },
      Array.from({ length: Math.min(p.hand.count, 12) }, () => h('span', { class: 'mk-mini-back' })),
      h('span', { class: 'mk-hand-n', text: tx('n_cards', { n: p.hand.count }) }));
    cards = [infoable(backs, { type: 'mk', what: 'count', key: 'hand', seat })];
  }
  return h('section', { class: `mk-hand${p.hand.cards ? ' open' : ' closed'}`, 'aria-label': `${whoseOf(seat)}${tx('hand')}` }, cards);
}

function halfEl(v, seat, pos) {
  const zones = h('div', { class: 'mk-zones' }, supportEl(v, seat), fieldEl(v, seat),
    h('div', { class: 'mk-side' }, helperEl(v, seat), dustEl(v, seat)));
  const kids = pos === 'top' ? [headEl(v, seat), handEl(v, seat), zones] : [zones, handEl(v, seat), headEl(v, seat)];
  return h('div', { class: `mk-half ${pos}${v.tp === seat ? ' is-tp' : ''}`, dataset: { seat: String(seat) } }, kids);
}

/** The bet being paid, with its option and what it costs. */
function betLine(v) {
  const b = v.bet;
  if (!b) return null;
  const name = `${cardName(b.card)}${b.n > 1 ? `×${b.n}` : ''}${b.option ? `（${optionInfo(b.option).name}）` : ''}`;
  return h('div', { class: 'mk-betline' },
    h('span', { text: tx('bet_pending', { who: seatName(b.seat), card: name, units: b.units, left: Math.max(0, b.units - (b.picks || []).length) }) }),
    b.rv ? h('span', { class: 'mk-chip rv', text: tx('rv') }) : null,
    b.helper ? h('span', { class: 'mk-chip helper', text: tx('helper_cost') }) : null);
}

function judgeLine(v) {
  const j = v.judge;
  if (!j) return null;
  const text = j.hitter == null ? tx('judge_none') : tx('judge_line', { how: j.kind || '', who: seatName(j.hitter) });
  return h('div', { class: 'mk-judgeline' }, text, j.defenceless ? ` · ${tx('judge_defenceless')}` : '',
    j.bonus ? ` · ${tx('bonus_made', { n: j.bonus })}` : '');
}

/** Whether the play is at its height: bets lie on an attack field, a bet is being paid, or the
 *  judge is on. Then the center strip is a layer of its own (on a phone it stays at the top
 *  of the scrolling board, maken.css). */
function centerLive(v) {
  return !!(v.judge || v.bet || v.phase === 'bonus' || v.players.some((p) => p.field.length));
}

function centerEl(v) {
  const b = bannerInfo(v);
  const live = centerLive(v);
  return h('div', { class: `mk-center${live ? ' live' : ''}`, 'data-layer': live ? 'center' : null },
    h('div', { class: `mk-banner ${b.cls}` }, h('span', { class: 'mk-banner-main', text: b.text }), b.sub ? h('span', { class: 'mk-banner-sub', text: b.sub }) : null),
    h('div', { class: 'mk-sitline', text: situationLine(v) }),
    betLine(v), judgeLine(v));
}

/** Draw the whole board of a view. */
export function renderBoard(v) {
  const bottom = me();
  const top = 1 - bottom;
  put($('#mk-board'), halfEl(v, top, 'top'), centerEl(v), halfEl(v, bottom, 'bottom'));
}

/** The top bar: LP of both sides, the turn, TP and phase. */
export function renderTopInfo(v) {
  const bottom = me();
  const top = 1 - bottom;
  put($('#scoreboard'),
    h('span', { class: 'sb-game', text: tx('title') }),
    h('span', { class: 'sb-score' },
      h('span', { class: 'sb-name mine', text: seatName(bottom) }),
      h('span', { class: 'mk-sb-lp', text: `LP ${num(v.players[bottom].lp)}` }),
      h('span', { class: 'sb-dash', text: '–' }),
      h('span', { class: 'mk-sb-lp', text: `LP ${num(v.players[top].lp)}` }),
      h('span', { class: 'sb-name theirs', text: seatName(top) })));
  const parts = [];
  if (v.turn === 0) parts.push(h('span', { class: 'ti-phase', text: tx('mulligan_phase') }));
  else {
    parts.push(h('span', { class: 'ti-turn', text: tx('turn', { n: v.turn }) }));
    parts.push(h('span', { class: `ti-who ${v.tp === bottom ? 'mine' : 'theirs'}`, text: tx('tp_is', { who: seatName(v.tp) }) }));
    if (!v.outcome && v.phase) parts.push(h('span', { class: 'ti-phase muted', text: tx(`ph_${v.phase}`) }));
  }
  if (v.first_player != null) parts.push(h('span', { class: 'ti-first muted', text: tx('first', { who: seatName(v.first_player) }) }));
  if (v.session.mode === 'com_vs_com' || S.replay) parts.push(h('span', { class: 'ti-step muted', text: tx('step', { step: v.history.step, steps: v.history.steps }) }));
  put($('#turninfo'), ...parts);
}

/** The results panel: this game's result, or "in progress". */
export function renderResults(v) {
  const o = v.outcome;
  const item = o
    ? h('li', { class: `result ${o.winner == null || o.winner < 0 ? 'tie' : o.winner === me() ? 'mine' : 'theirs'}` },
      h('span', { class: 'r-game', text: tx('game') }),
      h('span', { class: 'r-win', text: outcomeTitle(v) }),
      h('span', { class: 'r-why muted', text: `${reasonText(o.reason)} · ${tx('turns_n', { n: v.turn })}` }))
    : h('li', { class: 'result current' }, h('span', { class: 'r-game', text: tx('game') }), h('span', { class: 'r-win muted', text: tx('in_progress') }));
  put($('#results'), item);
}
