// Kōbō (攻防) exchange: the numbers of the open exchange (攻撃側 X 対 防御側 Y now and what the
// chain would give if everybody passed, both computed by the engine: `view.exchange.preview`),
// the stepped playback of a closed chain (`view.resolution`, link by link, last first, then the
// result banner), and the pace setting of that playback in the settings menu.
//
// The playback draws frames built from the view the page had before the chain closed (its
// board, its chain) with the record's effects applied one link at a time; every number comes
// from the record, the browser adds nothing the view did not say.

import { cardDef, cardName, K } from './kobo-board.js';
import { t } from './kobo-strings.js';
import { $, h, put } from '../shell/dom.js';
import {
  afterPlayback, currentFrame, finishPlayback, logShown, markPlayed, paceMs, PB, playedBefore, startPlayback,
} from '../shell/playback.js';
import { me, seatName } from '../shell/seats.js';
import { S } from '../shell/state.js';

export { afterPlayback, currentFrame, logShown };

/** The running playback, as this module's callers knew it (`P.run`: the shell's). */
export const P = { get run() { return PB.run; } };

/** End the playback now (skip). */
export const finish = finishPlayback;

/** The modes whose closed chains play back (not COM vs COM: see maybePlay). */
const PLAYED_MODES = ['vs_com', 'vs_human'];

/* ---------------------------------------------------------------- the open exchange */

function who(seat) {
  return seat === me() ? 'mine' : 'theirs';
}

function chip(p, cls) {
  if (!p) return null;
  const name = cardName(p.slug);
  const changed = p.lv != null && p.lv !== p.lv_now;
  const gone = p.lv == null;
  return h('span', { class: `kb-chip ${cls} ${who(p.seat)}${gone ? ' gone' : ''}`, dataset: { seat: p.seat, slot: p.slot } },
    h('span', { class: 'kb-chip-name', text: name }),
    h('span', { class: 'kb-chip-lv', text: `Lv${p.lv_now}` }),
    changed ? h('span', { class: 'kb-chip-to', text: `→${p.lv}` }) : null,
    gone ? h('span', { class: 'kb-chip-to', text: `→${t('fx_out')}` }) : null);
}

/** The strip of the open exchange: the numbers now, and what the chain would give now. */
function previewStrip(v) {
  const x = v.exchange;
  const pv = x && x.preview;
  if (!pv) return null;
  const res = pv.exact
    ? h('div', { class: `kb-would outcome-${pv.outcome}` },
      h('span', { class: 'kb-would-label', text: t('if_resolved') }),
      pv.score_text && pv.attack != null ? h('strong', { class: 'kb-would-score', text: pv.score_text }) : null,
      h('span', { class: 'kb-would-outcome', text: pv.outcome_text || '' }))
    : h('div', { class: 'kb-would outcome-unknown' }, h('span', { class: 'kb-would-label', text: t('if_unknown') }));
  return h('div', {
    class: 'kb-fight preview',
    id: 'kb-preview',
    dataset: {
      links: pv.links, nowAttack: pv.now.attack, nowDefence: pv.now.defence,
      attack: pv.attack ?? '', defence: pv.defence ?? '', outcome: pv.outcome || '',
    },
  },
  h('div', { class: 'kb-now' },
    h('span', { class: 'kb-side atk' }, h('span', { class: 'kb-side-label', text: x.labels.attacking }), h('b', { class: 'kb-num', text: pv.now.attack })),
    h('span', { class: 'kb-vs', text: t('vs') }),
    h('span', { class: 'kb-side def' }, h('span', { class: 'kb-side-label', text: x.labels.defending }), h('b', { class: 'kb-num', text: pv.now.defence }))),
  h('div', { class: 'kb-parts' },
    (pv.attackers || []).map((a) => chip(a, 'atk')),
    pv.target ? h('span', { class: 'kb-arrow', text: '⇢' }) : null,
    chip(pv.target, 'tgt')),
  res);
}

/** The line of the last closed exchange (after its playback, until the next declaration). */
function lastResultStrip(v) {
  const r = v.resolution;
  if (!r || !r.result || v.exchange) return null;
  return h('div', { class: 'kb-fight last', id: 'kb-last' },
    h('span', { class: 'kb-would-label', text: t('last_result') }),
    h('strong', { text: r.result.score_text }),
    h('span', { class: 'kb-would-outcome', text: r.result.text }));
}

/** Draw the exchange strip in the center (the open exchange, a playback frame or the last
 *  result). */
export function renderFight(v) {
  let box = $('#kb-fight-box');
  if (!box) {
    box = h('div', { id: 'kb-fight-box', class: 'kb-fight-box', 'aria-live': 'polite' });
    $('#center').append(box);
  }
  const run = P.run;
  const strip = run ? frameStrip(run) : (previewStrip(v) || lastResultStrip(v));
  put(box, strip);
  box.hidden = !strip;
  $('#center').classList.toggle('has-fight', !!strip);
}

/* ---------------------------------------------------------------- stepped resolution */

function clone(x) {
  return JSON.parse(JSON.stringify(x));
}

/** A short sentence of one effect of the record (the numbers are the record's). */
function effectText(e) {
  const name = e.slug ? cardName(e.slug) : '';
  switch (e.kind) {
    case 'lv': return t(e.permanent ? 'fx_lv_perm' : 'fx_lv', { name, amount: e.amount > 0 ? `+${e.amount}` : `${e.amount}`, lv: e.lv, base: e.base });
    case 'retreat': return t('fx_retreat', { name });
    case 'target_changed': return t('fx_target', { name });
    case 'attack_negated': return t('fx_attack_negated');
    case 'link_negated': return t('fx_link_negated', { n: e.link });
    case 'base_zero': return t('fx_base_zero', { name });
    case 'tie_choice': return t('fx_tie_choice', { name });
    default: return e.kind;
  }
}

/** The lane link of a record link, named from the chain the page saw (or the catalogue). */
function linkOf(rec, chain) {
  const seen = chain.find((c) => c.link === rec.link) || {};
  const d = cardDef(rec.slug) || {};
  // A flipped surprise ability is a link no card activated: the record may not know its seat.
  const seat = rec.seat ?? seen.seat;
  return { ...seen, link: rec.link, seat, slug: rec.slug, kind: seen.kind || d.kind, name: seen.name || d.name || rec.slug, negated: !!rec.negated };
}

/** Apply effects to a board copy (`players`); characters that leave are marked first and
 *  removed at the next frame. Returns the battle slots touched. */
function applyEffects(players, effects, state) {
  const touched = [];
  for (const e of effects) {
    const row = players[e.seat] && players[e.seat].battle;
    const card = row && e.slot ? row[e.slot - 1] : null;
    if (e.kind === 'lv' && card) {
      card.lv = e.lv;
      card.base = e.base;
    } else if (e.kind === 'retreat' && card) {
      card.leaving = true;
    } else if (e.kind === 'target_changed') {
      state.target = { seat: e.seat, slot: e.slot };
      // The 攻撃対象 tag moves with the target.
      players.forEach((p, seat) => p.battle.forEach((c, i) => {
        if (c) c.target = seat === e.seat && i + 1 === e.slot;
      }));
    } else if (e.kind === 'attack_negated') {
      state.negated = true;
    }
    if (e.slot != null && e.seat != null) touched.push({ seat: e.seat, slot: e.slot, kind: e.kind });
  }
  return touched;
}

function sweep(players) {
  for (const p of players) p.battle = p.battle.map((c) => (c && c.leaving ? null : c));
}

function score(players, res, state) {
  const atk = res.attacker_seat;
  const lv = (seat, slot) => {
    const c = players[seat] && players[seat].battle[slot - 1];
    return c && !c.leaving ? (c.lv || 0) : 0;
  };
  const attack = (res.declared ? res.declared.attackers : []).reduce((a, s) => a + lv(atk, s), 0);
  const defence = state.target ? lv(state.target.seat, state.target.slot) : 0;
  return { attack, defence };
}

/** How many of the log's entries each frame reveals: up to the chain's closing for the start,
 *  up to the next link's resolution for a link, up to the clean-up (or the game's end) for the
 *  result; whatever comes later (the next turn, COM's next move) shows after the playback. */
function logCuts(res, log) {
  const from = res.log_index + 1;
  const resolves = [];
  let result = null;
  let end = log.length;
  for (let i = from; i < log.length; i++) {
    const k = log[i].kind;
    if (k === 'resolve' && result == null) resolves.push(i);
    else if (k === 'result' && result == null) result = i;
    else if (k === 'cleanup') { end = i; break; } else if (k === 'game_end') { end = i + 1; break; }
  }
  const afterLinks = result ?? end;
  return {
    start: from,
    link: (i) => resolves[i + 1] ?? afterLinks,
    result: end,
  };
}

/** The frames of a playback: the declaration, one per link (last first), the result. Each
 *  frame carries its numbers (`score`: the fight box and the result banner show these), the
 *  board it shows and how much of the log it reveals (`logUntil`). */
function buildFrames(res, pre, log) {
  const cuts = logCuts(res, log || []);
  const base = pre ? { ...clone(pre), pending: null, why_not: null, priority: null, exchange: null } : null;
  const chain = base ? base.chain : [];
  const players = base ? base.players : null;
  const state = {
    target: res.declared ? { seat: 1 - res.attacker_seat, slot: res.declared.target } : null,
    negated: false,
  };
  const frames = [];
  const snap = (extra) => {
    const shown = base ? { ...base, players: clone(players) } : null;
    frames.push({ shown, score: players ? score(players, res, state) : null, ...extra });
  };
  const links = res.links.map((l) => linkOf(l, chain));
  if (links.length) snap({ step: 'start', chain: links.slice().reverse(), resolved: [], texts: [t('fx_start')], touched: [], logUntil: cuts.start });
  res.links.forEach((l, i) => {
    if (players) sweep(players);
    const touched = players && !l.negated ? applyEffects(players, l.effects, state) : [];
    const texts = l.negated ? [t('fx_negated')] : l.effects.map(effectText);
    snap({
      step: 'link', link: links[i], chain: links.slice(i + 1).reverse(), resolved: links.slice(0, i + 1),
      texts: texts.length ? texts : [t('fx_none')], touched, logUntil: cuts.link(i),
    });
  });
  if (players) sweep(players);
  // The result's numbers are the record's (before the retreats the result causes), the same
  // the banner states.
  const result = res.result && res.result.attack != null ? { attack: res.result.attack, defence: res.result.defence } : null;
  const touched = players ? applyEffects(players, res.after || [], state) : [];
  let kbBanner;
  if (res.game_end) kbBanner = { cls: 'game-end', text: t('fx_game_end'), sub: gameEndText(res.game_end) };
  else if (res.result) kbBanner = { cls: `outcome-${res.result.outcome}`, text: res.result.score_text, sub: res.result.text };
  else kbBanner = { cls: 'outcome-none', text: t('fx_done'), sub: '' };
  snap({
    step: 'result', chain: [], resolved: links, kbBanner, touched,
    texts: (res.after || []).map(effectText), logUntil: cuts.result,
  });
  const last = frames[frames.length - 1];
  if (result) last.score = result;
  return frames;
}

function gameEndText(end) {
  if (end.winner == null || end.winner < 0) return t('draw_replay');
  return end.winner === me() ? t('winner_you') : t('winner_opp');
}

/** Whether `pre` is the page's view of the same chain just before it closed. */
function preOf(prev, view, res) {
  if (!prev || prev.session.id !== view.session.id || !prev.exchange || !prev.exchange.preview) return null;
  if (prev.chain.length !== res.links.length) return null;
  if (prev.match.game !== view.match.game && !res.game_end) return null;
  return prev;
}

/** What identifies a record: its place in the log, its links and its declaration (not what
 *  fills in later: a tie choice, the clean-up). */
function recordKey(res) {
  return JSON.stringify([res.log_index, res.links.map((l) => [l.link, l.slug]), res.declared]);
}

/** A new live view: start the playback of a chain that just closed (once per record: the
 *  record stays in the views until the next declaration, even into the next game), in a match
 *  against COM or between two people (for both seats and their spectators: each plays the
 *  record of its own view; COM vs COM runs at the server's pace, the spectator's board follows
 *  it). A view of a session seen for the first time plays nothing (a reload does not replay the
 *  past). */
export function maybePlay(prev, view) {
  const res = view.resolution;
  const sid = view.session.id;
  if (!res || S.replay || !view.history.live || !PLAYED_MODES.includes(view.session.mode)) return false;
  const key = recordKey(res);
  if (playedBefore(sid, key)) return false;
  const fresh = prev && prev.session.id === sid;
  if (!fresh || !(res.links.length || res.game_end) || paceMs() <= 0) {
    markPlayed(sid, key);
    return false;
  }
  const frames = buildFrames(res, preOf(prev, view, res), view.log);
  const started = startPlayback({ sid, key, frames, gameEnd: !!res.game_end });
  // The board after the playback is not "new" against the last frame: nothing enters.
  if (started) afterPlayback(() => K.prevKeys.clear());
  return started;
}

function frameStrip(run) {
  const f = run.frames[run.index];
  const n = run.frames.length - 2; // the links (the frames less the start and the result)
  const sc = f.score;
  const head = f.step === 'link'
    ? h('div', { class: 'kb-step-head' },
      h('span', { class: 'kb-step-no', text: t('fx_link', { n: f.link.link }) }),
      f.link.surprise ? h('span', { class: 'kb-sz-mark', title: t('sz_link_tip'), text: t('sz_mark') }) : null,
      h('strong', { class: f.link.negated ? 'struck' : '', text: f.link.name }),
      h('span', { class: 'muted', text: seatName(f.link.seat) }))
    : h('div', { class: 'kb-step-head' }, h('strong', { text: f.step === 'start' ? t('fx_resolving', { n }) : t('fx_result') }));
  return h('div', {
    class: `kb-fight playback step-${f.step}`,
    id: 'kb-playback',
    dataset: { step: f.step, index: run.index, link: f.link ? f.link.link : '' },
  },
  sc ? h('div', { class: 'kb-now', dataset: { attack: sc.attack, defence: sc.defence } },
    h('span', { class: 'kb-side atk' }, h('span', { class: 'kb-side-label', text: t('attacking_side') }), h('b', { class: 'kb-num', text: sc.attack })),
    h('span', { class: 'kb-vs', text: t('vs') }),
    h('span', { class: 'kb-side def' }, h('span', { class: 'kb-side-label', text: t('defending_side') }), h('b', { class: 'kb-num', text: sc.defence }))) : null,
  h('div', { class: 'kb-step' }, head,
    h('ul', { class: 'kb-fx' }, f.texts.map((x) => h('li', { text: x })))),
  f.kbBanner ? h('div', { class: `kb-banner ${f.kbBanner.cls}`, id: 'kb-result-banner' },
    h('strong', { text: f.kbBanner.text }), f.kbBanner.sub ? h('span', { text: f.kbBanner.sub }) : null) : null,
  h('button', { type: 'button', class: 'link kb-skip', text: t('fx_skip'), onclick: finish }));
}

/** Light up the battle slots the frame's effects touched (after the board is drawn). */
export function markTouched(frame) {
  if (!frame) return;
  for (const x of frame.touched || []) {
    const el = document.querySelector(`#board [data-zone="battle"][data-seat="${x.seat}"][data-slot="${x.slot}"]`);
    if (el) el.classList.add('kb-touched', `kb-fx-${x.kind}`);
  }
  for (const p of [0, 1]) {
    const row = frame.shown ? frame.shown.players[p].battle : [];
    row.forEach((c, i) => {
      if (!c || !c.leaving) return;
      const el = document.querySelector(`#board [data-zone="battle"][data-seat="${p}"][data-slot="${i + 1}"]`);
      if (el) el.classList.add('kb-leaving');
    });
  }
}
