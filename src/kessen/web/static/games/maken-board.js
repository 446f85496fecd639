// Project Maken: drawing the board — both players' halves (the plate with the character, the
// situation chips and the meters; the support, attack and helper fields, the dust and the hand),
// the center strip (situation, the bet being paid, the judge), the top bar and the results
// panel. Only what the view gives is drawn: hidden cards arrive without their faces and are
// drawn as backs, hidden numbers as "?". `renderBoard(v)` is a function of the view it is given
// (a stepped playback passes the view of each frame).

import {
  bannerInfo, cardName, cdef, charInfo, charName, optionInfo, outcomeTitle, pict, reasonText, situationLine, situationOf,
} from './maken-base.js';
import { tx } from './maken-strings.js';
import { endedResult } from '../shell/ending.js';
import { $, h, put } from '../shell/dom.js';
import { term } from '../shell/glossary.js';
import { infoable } from '../shell/info.js';
import { isSpectator, me, seatLabel, seatName, whoseOf } from '../shell/seats.js';
import { S } from '../shell/state.js';

/** A word of the game's jargon as written on the board, explained on hover, focus or tap (the
 *  ruleset's glossary, shell/glossary.js); `key` none: the plain word. */
function word(key, text) {
  return key ? term(key, text) : h('span', { text });
}

/** The glossary's word for each situation a chip names. */
const SIT_TERM = { even: 'even', guarding: 'guard', forcing: 'guard', none: '' };

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

/** One number of a card's data: its pictogram and word (速 間 攻) over the value. */
function stat(key, value) {
  return h('div', { class: `mk-stat mk-${key}` },
    h('span', { class: 'mk-st-k' }, pict(key), h('i', { text: tx(`st_${key}`) })), ' ',
    h('b', { text: value }));
}

/** The marks at a card's foot, spaced in the text too so they read as separate words. */
function spaced(nodes) {
  return nodes.flat().filter(Boolean).flatMap((n, i) => (i ? [' ', n] : [n]));
}

/** A face-up card (`card` is a view card `{card, name, kind, …}` or a catalogue id): its
 *  character's band and pictogram, its name, the three numbers of an attack card large with
 *  their pictograms (a support card: its duration), its effect and its marks. */
export function cardEl(card, opts = {}) {
  const c = typeof card === 'string' ? { card } : card;
  const d = cdef(c.card) || {};
  const kind = c.kind || d.kind || 'attack';
  const ch = c.character || d.character || 'GE';
  const data = dataOf(c);
  const ci = charInfo(ch);
  const labels = (d.labels || []).map((l) => tx(`lb_${l.replace(/-/g, '_')}`)).concat(d.tags || []);
  const duration = d.duration === 'lasting' ? 'lasting' : 'turn';
  const el = h('div', {
    class: `mk-card kind-${kind} ch-${ch}${opts.cls ? ` ${opts.cls}` : ''}${c.hit ? ' hit' : ''}`,
    dataset: opts.ref ? { ref: opts.ref } : {},
  },
  // Spaces between the blocks: the card's text (read, and named by maken.js) keeps its words apart.
  h('div', { class: 'mk-c-head' }, pict(ci ? ci.icon : '', 'mk-c-ch'), h('div', { class: 'mk-c-name', text: c.name || d.name || cardName(c.card) })), ' ',
  kind === 'attack'
    ? h('div', { class: 'mk-c-data' }, stat('spd', num(data.spd)), ' ', stat('dist', data.dist), ' ', stat('atk', num(data.atk)))
    : h('div', { class: `mk-c-data support du-${duration}` }, pict(duration), h('span', { text: tx(`du_${duration}`) })), ' ',
  d.effect ? h('div', { class: 'mk-c-text', text: d.effect }) : null, d.effect ? ' ' : null,
  h('div', { class: 'mk-c-foot' }, spaced([
    data.cost ? h('span', { class: 'mk-cost' }, pict('gauge'), tx('cost_s', { n: data.cost })) : null,
    data.gain ? h('span', { class: 'mk-gain' }, pict('gauge'), tx('gain_s', { n: data.gain })) : null,
    labels.map((l) => h('span', { class: 'mk-label', text: l })),
    c.helper_paid ? h('span', { class: 'mk-hp' }, pict('helper'), tx('helper')) : null,
    c.hit ? h('span', { class: 'mk-hit' }, pict('hit'), tx('hit')) : null])));
  return el;
}

/** A card back (a hidden card: only where it lies shows). */
export function backEl(label, opts = {}) {
  return h('div', { class: `mk-card back${opts.cls ? ` ${opts.cls}` : ''}`, dataset: opts.ref ? { ref: opts.ref } : {} },
    pict('back', 'mk-back-ic'), h('div', { class: 'mk-c-back', text: label || tx('face_down') }));
}

/* ================================================================== the plate: character, chips, meters */

/** One count of a player (stamina, hand, dust) as a tile: its word, and its pictogram and
 *  number (drawn over the word); CARD INFORMATION explains it. */
function counter(seat, key, value) {
  const el = h('div', { class: `mk-count c-${key}`, dataset: { count: key } },
    h('span', { class: 'mk-count-k' }, word(key === 'hand' ? '' : key, tx(key))), ' ',
    h('b', { class: 'mk-count-v' }, pict(key), h('span', { text: num(value) })));
  return infoable(el, { type: 'mk', what: 'count', key, seat });
}

/** A count with a bound drawn as a meter (LP as hearts, damage and gauge as bars): the
 *  number is written beside it, and a screen reader hears the meter's name and value (the
 *  meter is the drawing; its word, a glossary term, stays outside it). */
function meter(seat, key, value, max, opts = {}) {
  const known = value != null;
  const n = known ? value : 0;
  const top = Math.max(max, n);
  const text = opts.of ? `${num(value)}/${top}` : num(value);
  const aria = {
    role: 'meter',
    'aria-label': tx(key),
    'aria-valuemin': '0',
    'aria-valuemax': String(top),
    'aria-valuenow': known ? String(n) : null,
    'aria-valuetext': opts.of ? tx('meter_of', { n: num(value), max: top }) : num(value),
    dataset: { meter: key },
  };
  const fill = opts.pips
    ? h('span', { class: 'mk-pips', ...aria }, Array.from({ length: top }, (_, i) => pict('lp', `mk-pip${i < n ? ' on' : ''}`)))
    : h('span', { class: 'mk-bar', ...aria }, h('span', { class: 'mk-fill', style: `width: ${Math.round((100 * Math.min(n, top)) / (top || 1))}%` }),
      opts.ticks ? h('span', { class: 'mk-ticks', style: `--ticks: ${top}` }) : null);
  const el = h('div', { class: `mk-count mk-meter c-${key}${opts.warn ? ' warn' : ''}`, dataset: { count: key } },
    h('span', { class: 'mk-count-k' }, opts.pips ? null : pict(key), word(key, tx(key))), ' ',
    fill, ' ',
    h('b', { class: 'mk-count-v', text }));
  return infoable(el, { type: 'mk', what: 'count', key, seat });
}

function chip(cls, icon, text, extra = {}, key = '') {
  return h('span', { class: `mk-chip ${cls}`, ...extra }, icon ? pict(icon) : null, key ? word(key, text) : h('span', { text }));
}

function situationChips(v, seat) {
  const s = situationOf(v, seat);
  const p = v.players[seat];
  return [
    p.tp ? chip('tp', 'tp', tx('tp'), {}, 'tp') : chip('ntp', '', tx('non_tp'), {}, 'non_tp'),
    chip(`sit sit-${s.kind}`, s.kind === 'none' ? '' : s.kind, tx(`sit_${s.kind}`), { dataset: { sit: s.kind } }, SIT_TERM[s.kind]),
    s.defenceless ? chip('defenceless', 'defenceless', tx('sit_defenceless'), { title: tx('defenceless_until', { n: p.defenceless_until }) }, 'defenceless') : null,
  ];
}

function headEl(v, seat) {
  const p = v.players[seat];
  const code = p.character.code;
  const ci = charInfo(code);
  const downAt = (v.config && v.config.downAt) || 10;
  const mine = seat === me() && !isSpectator();
  return h('div', { class: `mk-head ch-${code}` },
    h('div', { class: 'mk-who' },
      pict(ci ? ci.icon : '', `mk-portrait ch-${code}`),
      h('div', { class: 'mk-id' },
        h('span', { class: `mk-seat ${mine ? 'mine' : 'theirs'}`, text: seatLabel(seat) }),
        h('span', { class: `mk-char ch-${code}`, text: p.character.name || charName(code) })),
      meter(seat, 'lp', p.lp, 3, { pips: true, warn: p.lp === 1 })),
    h('div', { class: 'mk-chips' }, situationChips(v, seat)),
    h('div', { class: 'mk-meters' },
      meter(seat, 'damage', p.damage, downAt, { of: true, ticks: true, warn: p.damage != null && p.damage >= downAt - 3 }),
      meter(seat, 'gauge', p.gauge, 10, { ticks: true })),
    h('div', { class: 'mk-counts' },
      counter(seat, 'stamina', p.stamina),
      counter(seat, 'hand', p.hand.count),
      counter(seat, 'dust', p.dust.length)));
}

/* ================================================================== the fields */

/** The attack field: the top card large and whole, the cards below it as readable strips
 *  (name and numbers) in bet order, the newest nearest the top card. No card lies over
 *  another, so each can be chosen (to cancel it). The field is as large as what it holds. */
function fieldEl(v, seat) {
  const p = v.players[seat];
  const cards = p.field.map((e, i) => {
    const top = i === p.field.length - 1;
    const cls = `${top ? 'top' : 'under'}`;
    const el = e.face === 'down'
      ? backEl(`${tx('face_down')}${tx('sep')}${e.name || cardName(e.copy_of)} · ${tx('st_atk')} ${e.atk != null ? e.atk : tx('hidden_n')}`,
        { cls: `${cls} extra${e.hit ? ' hit' : ''}`, ref: `f:${e.copy_of || ''}:${i}` })
      : cardEl(e, { cls, ref: `f:${e.card}` });
    el.dataset.index = String(i);
    return infoable(el, { type: 'mk', what: 'field', seat, index: i });
  });
  const total = h('span', { class: 'mk-total' }, pict('atk'), word('total', tx('total')), ' ', h('b', { text: num(p.total) }));
  return h('section', { class: `mk-zone mk-field${cards.length ? '' : ' empty'}`, 'aria-label': tx('where_field', { whose: whoseOf(seat) }) },
    h('div', { class: 'mk-zone-title' }, h('span', { text: tx('field') }), cards.length ? total : null),
    h('div', { class: `mk-stack${cards.length ? '' : ' empty'}` },
      cards.length ? cards : h('span', { class: 'mk-slot mk-field-slot', text: tx('empty') })));
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
  return h('section', { class: `mk-zone mk-support${items.length ? '' : ' empty'}`, 'aria-label': tx('where_support', { whose: whoseOf(seat) }) },
    h('div', { class: 'mk-zone-title' }, word('support', tx('support')), h('span', { class: 'mk-cap', text: `${p.support.length}${cap ? `/${cap}` : ''}` })),
    h('div', { class: 'mk-row' }, items.length ? items : h('span', { class: 'mk-slot', text: tx('empty') })));
}

function helperEl(v, seat) {
  const p = v.players[seat];
  const card = p.helper && p.helper[0];
  const el = card ? cardEl(card, { cls: 'helper mini' }) : h('div', { class: 'mk-slot' }, pict('helper'), h('span', { text: tx('empty') }));
  infoable(el, { type: 'mk', what: 'helper', seat });
  return h('section', { class: 'mk-zone mk-helper' }, h('div', { class: 'mk-zone-title' }, word('helper', tx('helper'))), el);
}

function dustEl(v, seat) {
  const p = v.players[seat];
  const last = p.dust[p.dust.length - 1];
  const el = h('div', { class: `mk-pile${last ? '' : ' empty'}` },
    pict('dust', 'mk-pile-ic'),
    h('span', { class: 'mk-pile-body' },
      last ? h('span', { class: 'mk-pile-top', text: last.name || cardName(last.card) }) : h('span', { class: 'muted', text: tx('empty') }),
      ' ', h('span', { class: 'mk-pile-n', text: tx('n_cards', { n: p.dust.length }) })));
  infoable(el, { type: 'mk', what: 'dust', seat });
  return h('section', { class: 'mk-zone mk-dust' }, h('div', { class: 'mk-zone-title' }, word('dust', tx('dust'))), el);
}

function openHand(v, seat) {
  const p = v.players[seat];
  const cards = p.hand.cards.map((c, i) => {
    const el = cardEl(c, { cls: 'in-hand', ref: `h:${c.card}` });
    el.dataset.index = String(i);
    return infoable(el, { type: 'mk', what: 'hand', seat, index: i });
  });
  return h('section', { class: 'mk-hand open', 'aria-label': tx('where_hand', { whose: whoseOf(seat) }) },
    cards.length ? cards : h('span', { class: 'mk-slot', text: tx('empty') }));
}

function halfEl(v, seat, pos) {
  const zones = h('div', { class: 'mk-zones' }, supportEl(v, seat), fieldEl(v, seat),
    h('div', { class: 'mk-side' }, helperEl(v, seat), dustEl(v, seat)));
  const hand = v.players[seat].hand.cards ? openHand(v, seat) : null;
  const kids = pos === 'top' ? [headEl(v, seat), hand, zones] : [zones, hand, headEl(v, seat)];
  return h('div', { class: `mk-half ${pos}${v.tp === seat ? ' is-tp' : ''}${hand ? ' has-hand' : ''}`, dataset: { seat: String(seat) } }, kids);
}

/* ================================================================== the center strip */

/** The bet being paid, with its option and what it costs. */
function betLine(v) {
  const b = v.bet;
  if (!b) return null;
  const name = `${cardName(b.card)}${b.n > 1 ? `×${b.n}` : ''}${b.option ? `（${optionInfo(b.option).name}）` : ''}`;
  return h('div', { class: 'mk-betline' },
    pict('gauge'),
    h('span', { text: tx('bet_pending', { who: seatName(b.seat), card: name, units: b.units, left: Math.max(0, b.units - (b.picks || []).length) }) }),
    b.rv ? h('span', { class: 'mk-chip rv', text: tx('rv') }) : null,
    b.helper ? h('span', { class: 'mk-chip helper', text: tx('helper_cost') }) : null);
}

function judgeLine(v) {
  const j = v.judge;
  if (!j) return null;
  const text = j.hitter == null ? tx('judge_none') : tx('judge_line', { how: j.kind || '', who: seatName(j.hitter) });
  return h('div', { class: 'mk-judgeline' }, pict('hit'), h('span', { text }),
    j.defenceless ? h('span', { text: ` · ${tx('judge_defenceless')}` }) : null,
    j.bonus ? h('span', { text: ` · ${tx('bonus_made', { n: j.bonus })}` }) : null);
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
  const s = v.situation || { kind: 'none' };
  const sitIcon = s.kind === 'even' ? 'even' : s.kind === 'guard' ? 'guarding' : '';
  return h('div', { class: `mk-center${live ? ' live' : ''}`, 'data-layer': live ? 'center' : null },
    h('div', { class: `mk-banner ${b.cls}` }, h('span', { class: 'mk-banner-main', text: b.text }), b.sub ? h('span', { class: 'mk-banner-sub', text: b.sub }) : null),
    h('div', { class: `mk-sitline sit-${s.kind}` }, sitIcon ? pict(sitIcon) : null, h('span', { text: situationLine(v) })),
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
    h('span', { class: 'sb-game sb-title', text: tx('title') }),
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
    : endedResult(v, tx('game'))
      || h('li', { class: 'result current' }, h('span', { class: 'r-game', text: tx('game') }), h('span', { class: 'r-win muted', text: tx('in_progress') }));
  put($('#results'), item);
}
