// TWGP トランプ版 board: the three grids per player, stacks, poses, surge, storage, vitals and
// the response window, the top bar and the results, drawn from the TWGP view the server sends.

import { bannerInfo, cdef, label, suitOf, T, two, unitAt, windowOf } from './twgp-base.js';
import { fightStrip } from './twgp-fight.js';
import { TX, tx } from './twgp-strings.js';
import { endedResult } from '../shell/ending.js';
import { $, h, put } from '../shell/dom.js';
import { term } from '../shell/glossary.js';
import { infoable } from '../shell/info.js';
import { isSpectator, me, seatLabel, seatName, whoseOf } from '../shell/seats.js';
import { S } from '../shell/state.js';

/* ================================================================== cards */

/** A playing card: face up (`card` known, not face down), a back, or a back that the viewer
 * may peek at (its own face-down card, or a public face-down unit). */
export function cardEl(card, opts = {}) {
  const size = opts.size || 'm';
  const down = !card || !card.slug || opts.down;
  if (down) {
    const el = h('div', { class: `tw-card back tw-${size}` }, h('div', { class: 'tw-back-mark', text: 'TW' }));
    if (card && card.slug) {
      el.classList.add('peek', `suit-${suitOf(card)}`);
      el.append(h('div', { class: 'tw-peek', text: card.label || label(card.slug) }));
    }
    return el;
  }
  const suit = suitOf(card);
  const kind = card.kind || (cdef(card.slug) || {}).kind || 'unit';
  const text = card.label || label(card.slug);
  const symbol = text.slice(0, 1);
  const rank = text.slice(1) || text;
  const el = h('div', { class: `tw-card face tw-${size} suit-${suit} kind-${kind}`, dataset: { slug: card.slug } },
    h('div', { class: 'tw-corner' }, h('span', { class: 'tw-rank', text: rank }), h('span', { class: 'tw-suit', text: symbol })),
    h('div', { class: 'tw-center-pip', text: kind === 'weapon' ? rank : symbol }),
    kind === 'unit' ? h('div', { class: 'tw-basepow', text: two(card.base) }) : h('div', { class: 'tw-basepow weapon', text: '+1' }));
  return el;
}

/* ================================================================== board */

export function sig(key, value) {
  const before = T.prevSigs.get(key);
  T.nextSigs.set(key, value);
  return before !== undefined && before !== value && value !== '';
}

function squareNo(n) {
  return h('span', { class: 'tw-sq-no', text: n });
}

function stackEl(v, seat, n, st) {
  const known = !!st.unit;
  const down = st.face === 'down';
  const body = h('div', { class: `tw-stack pose-${st.pose}`, style: `--nw:${st.weapons.length}` });
  const frames = Math.min(st.frames.length, 3);
  for (let i = frames; i > 0; i--) body.append(h('div', { class: 'tw-frame-shadow', style: `--i:${i}` }));
  st.weapons.forEach((w, i) => {
    body.append(h('div', { class: `tw-weapon suit-${suitOf(w)}`, style: `--i:${i + 1}`, title: w.label },
      h('span', { text: (w.label || '').slice(1) })));
  });
  body.append(cardEl(known ? st.unit : null, { size: 'l', down }));
  if (st.pose === 'gb') body.append(h('div', { class: 'tw-gb-mark', text: 'GB' }));
  return body;
}

function battleSquare(v, seat, n, st) {
  const ref = `b:${seat}:${n}`;
  const sq = h('div', { class: 'tw-sq tw-bsq', dataset: { ref, zone: 'battle', seat, square: n } }, squareNo(n));
  const cached = (v.players[seat].cache && v.players[seat].cache[n - 1]) || [];
  if (!st && cached.length) {
    // Switch weaponCache: weapons left in an emptied square for the next unit placed there.
    sq.classList.add('cached');
    sq.append(h('div', { class: 'tw-cache', title: tx('cache_note') },
      h('span', { class: 'tw-tag cache', text: tx('cache_tag') }),
      h('div', null, cached.map((w) => h('span', { class: `tw-mini suit-${suitOf(w)}`, text: w.label })))));
  }
  if (st) {
    sq.classList.add('filled', `pose-${st.pose}`);
    if (st.role) sq.classList.add(`role-${st.role}`);
    sq.append(stackEl(v, seat, n, st));
    const tags = [h('span', { class: `tw-tag pose pose-${st.pose}`, text: tx(`pose_${st.pose}`) })];
    if (st.role === 'attacker') tags.push(h('span', { class: 'tw-tag atk', text: tx('attacker') }));
    if (st.role === 'target') {
      const intr = v.attack && v.attack.interrupter === n && v.attack.seat !== seat;
      tags.push(h('span', { class: 'tw-tag tgt', text: intr ? tx('interrupter') : tx('target') }));
    }
    sq.append(h('div', { class: 'tw-tags' }, tags));
    const chips = [];
    if (st.pow != null) {
      const plus = st.weapons.length ? ` (${two(st.base)}+${st.weapons.length})` : '';
      // The word is left out where the square is narrow (phones); the number always shows.
      chips.push(h('span', { class: 'tw-chip pow', title: `${tx('pow')} ${st.pow}${plus}`, dataset: { pow: st.pow } },
        h('span', { class: 'tw-chip-k', text: `${tx('pow')} ` }), String(st.pow)));
    }
    if (st.frames.length) chips.push(h('span', { class: 'tw-chip frames', title: tx('frames'), text: `F${st.frames.length}` }));
    if (st.weapons.length) chips.push(h('span', { class: 'tw-chip weapons', title: tx('weapons'), text: `W${st.weapons.length}` }));
    sq.append(h('div', { class: 'tw-chips' }, chips));
    infoable(sq, { type: 'tw', what: 'stack', seat, n });
  }
  const value = st ? `${st.pose}|${st.unit ? st.unit.slug : '?'}|${st.frames.length}|${st.weapons.length}` : '';
  if (sig(ref, value)) sq.classList.add('enter');
  return sq;
}

function vitalSquare(v, seat, n, vital) {
  const ref = `v:${seat}:${n}`;
  const sq = h('div', { class: 'tw-sq tw-vsq', dataset: { ref, zone: 'vital', seat, square: n } }, squareNo(n));
  if (vital.face === 'empty') return sq;
  sq.classList.add('filled');
  if (vital.face === 'down') {
    sq.classList.add('v-hidden');
    sq.append(cardEl(vital.slug ? vital : null, { size: 's', down: true }));
  } else {
    sq.classList.add(vital.status === 'effect' ? 'v-effect' : 'v-lost');
    sq.append(h('div', { class: 'tw-vital-card' }, cardEl(vital, { size: 's' })));
    sq.append(h('div', { class: 'tw-tags' }, h('span', { class: `tw-tag ${vital.status === 'effect' ? 'effect' : 'lost'}`, text: vital.status === 'effect' ? tx('effect_tag') : tx('lost_tag') })));
  }
  infoable(sq, { type: 'tw', what: 'vital', seat, n });
  if (sig(ref, `${vital.face}|${vital.status || ''}|${vital.slug || ''}`)) sq.classList.add('enter');
  return sq;
}

function chargeSquare(v, seat, n, card) {
  const ref = `c:${seat}:${n}`;
  const sq = h('div', { class: 'tw-sq tw-csq', dataset: { ref, zone: 'charge', seat, square: n } }, squareNo(n));
  if (card) {
    sq.classList.add('filled');
    sq.append(cardEl(card.slug ? card : null, { size: 's', down: true }));
    infoable(sq, { type: 'tw', what: 'charge', seat, n });
  }
  if (sig(ref, card ? `x${card.slug || ''}` : '')) sq.classList.add('enter');
  return sq;
}

function rowEl(kind, label_, cells, width) {
  return h('div', { class: `tw-row tw-row-${kind}`, style: `--w:${width}` },
    h('span', { class: 'tw-row-label' }, label_), cells);
}

function vitalsRow(v, seat) {
  const p = v.players[seat];
  const w = v.width;
  const cells = [];
  const offset = Math.max(0, Math.floor((w - p.vitals.length) / 2));
  for (let i = 0; i < w; i++) {
    const k = i - offset;
    if (k >= 0 && k < p.vitals.length) cells.push(vitalSquare(v, seat, k + 1, p.vitals[k]));
    else cells.push(h('div', { class: 'tw-sq tw-void' }));
  }
  const row = rowEl('vital', tx('vital_row'), cells, w);
  row.dataset.ref = `vg:${seat}`;
  return row;
}

function pileEl(v, seat) {
  const p = v.players[seat];
  const el = h('div', { class: 'tw-pile tw-deck', dataset: { ref: `pile:${seat}` } },
    h('div', { class: 'tw-pile-stack' }, p.pile > 0 ? cardEl(null, { size: 's' }) : h('div', { class: 'tw-card empty tw-s' })),
    h('div', { class: 'tw-pile-label' }, h('span', null, term('pile', tx('pile')), ' ', h('b', { text: p.pile }))));
  return infoable(el, { type: 'tw', what: 'pile', seat });
}

function storageEl(v, seat) {
  const p = v.players[seat];
  const top = p.storage.length ? p.storage[p.storage.length - 1] : null;
  const el = h('div', { class: 'tw-pile tw-storage', dataset: { ref: `storage:${seat}` } },
    h('div', { class: 'tw-pile-stack' }, top ? cardEl(top, { size: 's' }) : h('div', { class: 'tw-card empty tw-s' })),
    h('div', { class: 'tw-pile-label' }, h('span', null, term('storage', tx('storage')), ' ', h('b', { text: p.storage.length }))));
  return infoable(el, { type: 'tw', what: 'storage', seat });
}

function surgeEl(v, seat) {
  const p = v.players[seat];
  const col = h('div', { class: 'tw-surge-cards', style: `--n:${Math.max(1, p.surge.length)}` },
    p.surge.length ? p.surge.map((c, i) => h('div', { class: 'tw-surge-card', style: `--i:${i}` }, cardEl(c, { size: 'xs' })))
      : h('div', { class: 'tw-card empty tw-xs' }));
  const el = h('div', { class: `tw-surge${p.surge.length >= 6 ? ' full' : ''}`, dataset: { ref: `surge:${seat}` } },
    h('div', { class: 'tw-pile-label' }, h('span', null, term('surge', tx('surge')), ' ', h('b', { text: `${p.surge.length}/6` }))), col);
  if (sig(`surge:${seat}`, String(p.surge.length))) el.classList.add('enter');
  return infoable(el, { type: 'tw', what: 'surge', seat });
}

function headEl(v, seat) {
  const p = v.players[seat];
  const mine = seat === me();
  const pips = [];
  for (let i = 0; i < 3; i++) pips.push(h('i', { class: i < p.hidden_vitals ? 'on' : '' }));
  const turn = v.turn > 0 && v.turn_player === seat && !v.outcome;
  return h('div', { class: `tw-head ${mine ? 'mine' : 'theirs'}${turn ? ' turn' : ''}` },
    h('div', { class: 'tw-head-name' }, seatLabel(seat), turn ? h('span', { class: 'tw-turn-dot', title: tx('seat_turn', { whose: whoseOf(seat) }), text: '●' }) : null),
    h('div', { class: 'tw-pips', title: tx('vitals_left', { n: p.hidden_vitals }) }, pips,
      h('span', null, term('vital', tx('vitals_word')), ` ${p.hidden_vitals}/3`)),
    infoable(h('div', { class: 'tw-head-line', dataset: { ref: `hc:${seat}` } }, tx('hand_n', { n: p.hand.count })), { type: 'tw', what: 'hand', seat }),
    infoable(h('div', { class: 'tw-head-line muted' }, tx('aside_n', { n: p.aside.count })), { type: 'tw', what: 'aside', seat }),
    p.zero_turn != null && !v.outcome ? h('div', { class: 'tw-head-line tw-zero', title: tx('zero_note'), text: tx('zero_tag') }) : null);
}

function handRow(v, seat, bottom) {
  const p = v.players[seat];
  const box = h('div', { class: `tw-hand ${bottom ? 'bottom' : 'top'}`, dataset: { seat } });
  if (p.hand.cards) {
    p.hand.cards.forEach((c, i) => {
      const ref = `h:${seat}:${c.slug}`;
      const el = h('div', { class: 'tw-hand-card', dataset: { ref, slug: c.slug } }, cardEl(c, { size: bottom ? 'h' : 'xs' }));
      const why = (v.why_not || []).find((w) => w.zone === 'hand' && w.index === i && w.slug === c.slug);
      if (why && seat === me()) markWhy(el, why);
      infoable(el, { type: 'tw', what: 'card', card: c, seat, zone: 'hand' });
      box.append(el);
    });
    if (!p.hand.cards.length) box.append(h('span', { class: 'tw-hand-empty muted', text: `${tx('hand')}: 0` }));
  } else {
    const backs = h('div', { class: 'tw-hand-backs' });
    for (let i = 0; i < p.hand.count; i++) backs.append(cardEl(null, { size: 'xs' }));
    box.append(infoable(h('div', { class: 'tw-hand-hidden', dataset: { ref: `hc:${seat}` } }, backs,
      h('span', { class: 'tw-count', text: tx('hand_n', { n: p.hand.count }) })), { type: 'tw', what: 'hand', seat }));
  }
  return box;
}

/** Why an own hand card cannot be used now: a short chip on the card, the whole reason as
 *  its title, its accessible description and `data-why` (for tests). */
function markWhy(el, why) {
  el.classList.add('tw-why');
  el.dataset.why = why.text;
  el.dataset.whyCode = why.code;
  el.title = why.text;
  el.setAttribute('aria-description', why.text);
  el.append(h('span', { class: 'tw-why-chip', dataset: { code: why.code }, 'aria-hidden': 'true', text: tx(`why_${why.code}`) }));
  return el;
}

function poolPanel(v, seat) {
  const p = v.players[seat];
  const ctx = (v.pending && v.pending.seat === seat && v.pending.context) || {};
  const stage = ctx.stage || 'hand';
  const left = stage === 'vitals' ? p.vitals.filter((x) => x.face === 'empty').length
    : stage === 'aside' ? Math.max(0, (v.config.jokers ? 4 : 3) - p.aside.count) : p.hand.count;
  let suit = null;
  // Laid out in two rows (--pc columns) where the board is wide: no card covers another.
  const n = (p.pool.cards || []).length;
  const cards = h('div', { class: 'tw-pool-cards', style: `--pc:${Math.max(1, Math.ceil(n / 2))}` }, (p.pool.cards || []).map((c) => {
    const el = h('div', { class: 'tw-pool-card', dataset: { ref: `p:${seat}:${c.slug}`, slug: c.slug } }, cardEl(c, { size: 'p' }));
    if (suit !== null && suitOf(c) !== suit) el.classList.add('suit-gap');
    suit = suitOf(c);
    return infoable(el, { type: 'tw', what: 'card', card: c, seat, zone: 'pool' });
  }));
  const aside = p.aside.cards && p.aside.cards.length
    ? h('div', { class: 'tw-pool-aside' }, h('span', { class: 'muted', text: `${tx('aside')}: ` }), p.aside.cards.map((c) => h('span', { class: `tw-mini suit-${suitOf(c)}`, text: c.label })))
    : null;
  return h('div', { class: 'tw-pool' },
    h('div', { class: 'tw-pool-head' }, h('strong', { text: seat === me() && !isSpectator() ? tx('pool_title') : tx('where_pool', { whose: whoseOf(seat) }) }),
      h('span', { class: `tw-stage stage-${stage}`, text: tx(`stage_${stage}`, { n: left }) })),
    cards, aside);
}

function halfEl(v, seat, pos) {
  const p = v.players[seat];
  const w = v.width;
  const bottom = pos === 'bottom';
  const attack = v.attack;
  const defending = attack && attack.seat !== seat && !v.outcome;
  const half = h('div', {
    class: `tw-half ${pos}${defending ? ' defending' : ''}${attack && attack.seat === seat && !v.outcome ? ' attacking' : ''}`,
    dataset: { seat },
  });
  // Seen from its owner, as the seed lays it out: battle, vital and charge grids from the
  // center outwards; storage, pile and surge beside them (on the right for the bottom seat,
  // point-symmetric for the top seat).
  half.append(
    rowEl('battle', tx('battle_row'), p.battle.map((st, i) => battleSquare(v, seat, i + 1, st)), w),
    vitalsRow(v, seat),
    rowEl('charge', tx('charge_row'), p.charge.map((c, i) => chargeSquare(v, seat, i + 1, c)), w),
    handRow(v, seat, bottom),
    storageEl(v, seat),
    pileEl(v, seat),
    surgeEl(v, seat),
    headEl(v, seat));
  const building = p.pool && v.phase === 'setup';
  if (building && p.pool.cards) half.append(poolPanel(v, seat));
  else if (building && p.pool.count > 0) {
    half.append(h('div', { class: 'tw-pool waiting' }, h('span', { class: 'spinner' }), tx('building', { who: seatName(seat), n: p.pool.count })));
  }
  return half;
}

export function attackLine(v) {
  const a = v.attack;
  if (!a) return null;
  const atk = unitAt(v, a.seat, a.attacker);
  const def = 1 - a.seat;
  let target;
  if (a.type === 'direct' && !a.interrupter) target = tx('attack_target_v', { whose: whoseOf(def, true) });
  else {
    const tgt = a.target ? unitAt(v, def, a.target) : { u: '', pow: '?' };
    target = tx('attack_target_sq', { whose: whoseOf(def, true), t: a.target ?? '?', u: tgt.u, pt: tgt.pow });
  }
  const extra = [];
  if (a.surge_a) extra.push(tx('attack_surge_a', { n: 3 * a.surge_a }));
  if (a.surge_d) extra.push(tx('attack_surge_d', { n: 3 * a.surge_d }));
  if (a.downloads) extra.push(tx('attack_dl', { n: a.downloads }));
  if (a.lost) extra.push(tx('attack_lost'));
  const type = a.type === 'direct' && a.interrupter ? tx('at_direct_intr') : tx(`at_${a.type}`);
  const text = tx('attack_line', { who: seatName(a.seat), type, a: a.attacker, u: atk.u, pa: atk.pow, target });
  return h('div', { class: `tw-attack ${a.seat === me() ? 'mine' : 'theirs'}` },
    h('span', { class: 'tw-attack-icon', text: '⚔' }), h('span', { class: 'tw-attack-text', text }),
    extra.length ? h('span', { class: 'tw-attack-extra', text: extra.join(' · ') }) : null);
}

function effectLine(v) {
  const e = v.vital_effect;
  const text = e ? tx('effect_of', { card: e.card.label, who: seatName(e.seat) }) : tx('no_effect');
  const inert = e && !v.config.vitalEffect;
  const el = h('div', { class: `tw-effect${e ? ' on' : ''}${inert ? ' inert' : ''}`, title: inert ? tx('effect_inert') : null },
    h('span', { class: 'tw-effect-label' }, term('vital_effect', tx('vital_effect')), ' ', h('strong', { text })));
  if (e) infoable(el, { type: 'tw', what: 'vital', seat: e.seat, n: v.players[e.seat].vitals.findIndex((x) => x.status === 'effect') + 1 });
  return el;
}

function centerEl(v, frame) {
  const win = windowOf(v);
  const b = bannerInfo(v);
  const response = !!(v.pending && v.pending.prompt === 'response' && !v.outcome && v.history.live);
  const steps = ['setup', 'build', 'battle', 'response', 'damage'].map((w) => h('span', {
    class: `tw-step${w === win ? ' on' : ''}${w === 'response' ? ' resp' : ''}`, dataset: { window: w }, text: tx(`w_${w}`),
  }));
  const kids = [
    h('div', { class: 'tw-center-top' },
      h('div', { class: 'tw-steps' }, steps),
      h('div', { class: `tw-banner banner ${b.cls}` }, h('span', { class: 'banner-dot' }), h('span', { class: 'banner-text', text: b.text }),
        b.sub ? h('span', { class: 'banner-sub', text: b.sub }) : null),
      effectLine(v)),
  ];
  const line = attackLine(v);
  if (frame) {
    kids.push(fightStrip(frame));
  } else if (response) {
    const yours = !isSpectator() && v.pending.seat === me();
    kids.push(h('div', { class: 'tw-resp', title: yours ? tx('resp_you') : tx('resp_them', { who: seatName(v.pending.seat) }) },
      h('span', { class: 'tw-resp-label', text: tx('resp_window') }),
      line));
  } else if (line) kids.push(h('div', { class: 'tw-resp quiet' }, line));
  // While a response window is open the strip is a layer over the board on a phone (it stays
  // at the top while the board scrolls under it: twgp.css), marked [data-layer].
  return h('div', {
    class: `tw-center${response ? ' response' : ''}${v.attack ? ' has-attack' : ''}${frame ? ' playback' : ''}`, id: 'tw-center',
    dataset: response ? { layer: 'response' } : null,
  }, kids);
}

/** The board scrolls inside its cell on some screens: it takes the keyboard's focus so it can
 *  be scrolled without a mouse (its aria-label names it), except while a modal dialog (the
 *  end of a game, #overlay) lies over it and the page behind is out of reach. */
function boardFocus(board) {
  const overlay = $('#overlay');
  const covered = !!overlay && !overlay.hidden;
  // Covered, it neither scrolls nor takes the focus (twgp.css .tw-covered).
  board.classList.toggle('tw-covered', covered);
  if (covered) board.removeAttribute('tabindex');
  else board.tabIndex = 0;
  if (overlay && !T.overlayWatch) {
    T.overlayWatch = new MutationObserver(() => boardFocus(board));
    T.overlayWatch.observe(overlay, { attributes: true, attributeFilter: ['hidden'] });
  }
}

/** Draw the board of `v` (during a playback: a frame's board, with `frame`'s strip). */
export function renderBoard(v, frame = null) {
  const bottom = me();
  const top = 1 - bottom;
  T.nextSigs = new Map();
  const board = $('#tw-board');
  board.style.setProperty('--w', String(v.width));
  boardFocus(board);
  put(board, halfEl(v, top, 'top'), centerEl(v, frame), halfEl(v, bottom, 'bottom'));
  T.prevSigs = T.nextSigs;
}

/* ================================================================== top bar and results */

export function outcomeTitle(v) {
  const o = v.outcome;
  if (!o) return '';
  if (o.winner == null || o.winner < 0) return tx('draw');
  if (isSpectator()) return tx('win_seat', { who: seatName(o.winner) });
  return o.winner === me() ? tx('win_you') : tx('win_opp');
}

export function reasonText(reason) {
  return TX.ja[`reason_${reason}`] ? tx(`reason_${reason}`) : reason;
}

/** The scoreboard and turn line of the top bar. */
export function renderTopInfo(v) {
  const bottom = me();
  const top = 1 - bottom;
  const pips = (seat) => {
    const n = v.players[seat].hidden_vitals;
    return h('span', { class: 'tw-sb-pips', title: tx('vitals_left', { n }) }, [0, 1, 2].map((i) => h('i', { class: i < n ? 'on' : '' })));
  };
  put($('#scoreboard'),
    h('span', { class: 'sb-game sb-title', text: tx('title') }),
    h('span', { class: 'sb-score' },
      h('span', { class: 'sb-name mine', text: seatName(bottom) }), pips(bottom),
      h('span', { class: 'sb-dash', text: '–' }), pips(top),
      h('span', { class: 'sb-name theirs', text: seatName(top) })));
  const parts = [];
  if (v.phase === 'setup') parts.push(h('span', { class: 'ti-phase', text: tx('setup_phase') }));
  else {
    parts.push(h('span', { class: 'ti-turn', text: tx('turn', { n: v.turn }) }));
    parts.push(h('span', { class: `ti-who ${v.turn_player === bottom ? 'mine' : 'theirs'}`, text: tx('seat_turn', { whose: whoseOf(v.turn_player) }) }));
    if (!v.outcome) parts.push(h('span', { class: 'ti-phase muted', text: tx(`ph_${v.phase}`) }));
  }
  if (v.first_player != null) parts.push(h('span', { class: 'ti-first muted', text: tx('first', { who: seatName(v.first_player) }) }));
  if (v.session.mode === 'com_vs_com' || S.replay) parts.push(h('span', { class: 'ti-step muted', text: tx('step', { step: v.history.step, steps: v.history.steps }) }));
  put($('#turninfo'), ...parts);
}

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

