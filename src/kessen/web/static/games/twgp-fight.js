// TWGP トランプ版 fights played back step by step: the engine's record of the last fight
// (`view.resolution`: declare → intercept → counter-summon → compare → discard → vital loss →
// surge, each step with the log entries it reveals) becomes the frames of shell/playback.js.
//
// Each frame draws the board the page had before the fight (the previous view) with the log
// entries of the steps so far laid over it: a unit that intercepts or is counter-summoned
// appears, a weapon is attached, a discarded stack fades out and leaves, vitals flip, the
// surge grows. The numbers of the strip (攻撃 4 対 防御 5) are those of the stacks the frame
// draws, and at the comparison the record's; the page computes no rule. An entry the frames do
// not know how to draw (a G-blast in the answer, say) makes the rest of the frames show the
// board of the view itself.

import { cdef } from './twgp-base.js';
import { tx } from './twgp-strings.js';
import { termify } from './twgp-terms.js';
import { h } from '../shell/dom.js';
import {
  currentFrame, extendPlayback, finishPlayback, frameIndex, markPlayed, PB, playedBefore, startPlayback,
} from '../shell/playback.js';
import { isMyPrompt } from '../shell/seats.js';
import { S } from '../shell/state.js';

/** The modes whose fights play back (not COM vs COM: the spectator follows the server). */
const PLAYED_MODES = ['vs_com', 'vs_human'];

/** The last view in which this page's seat had to decide (the board a fight is played over:
 *  what the other seat did since, its answers included, is played back), and the record that
 *  plays (its key, the board it is drawn over, its number of steps). */
const F = { mine: null, run: null };

function clone(x) {
  return JSON.parse(JSON.stringify(x));
}

/** A card of the catalogue by slug, as a view draws it. */
function cardOf(slug) {
  const d = cdef(slug) || {};
  return { slug, label: d.label || slug, name: d.name || slug, kind: d.kind || 'unit', base: d.base ?? null };
}

function powOf(st) {
  if (!st || !st.unit) return st ? st.pow : null;
  return (st.unit.base || 0) + st.weapons.length;
}

function stackOf(slug, frames = [], weapons = [], pose = 'active') {
  const unit = cardOf(slug);
  const st = { pose, face: pose === 'stealth' || pose === 'gb' ? 'down' : 'up', unit, frames: frames.map(cardOf), weapons, base: unit.base, pow: 0, gb_turn: null, role: null };
  st.pow = powOf(st);
  return st;
}

/* ---------------------------------------------------------------- the board of a frame */

/** The board a frame draws: players, the attack and its roles, the vital effect. */
function boardOf(view) {
  return {
    players: clone(view.players),
    attack: view.attack ? clone(view.attack) : null,
    vital_effect: view.vital_effect ? clone(view.vital_effect) : null,
    drift: false,
  };
}

function setRoles(b) {
  const a = b.attack;
  b.players.forEach((p, seat) => p.battle.forEach((st, i) => {
    if (!st) return;
    st.role = null;
    if (!a) return;
    if (seat === a.seat && i + 1 === a.attacker) st.role = 'attacker';
    if (seat !== a.seat && a.target != null && i + 1 === a.target) st.role = 'target';
  }));
}

function takeFromHand(p, slugs) {
  for (const slug of slugs) {
    if (p.hand.cards) {
      const i = p.hand.cards.findIndex((c) => c.slug === slug);
      if (i >= 0) p.hand.cards.splice(i, 1);
    }
    p.hand.count = Math.max(0, p.hand.count - 1);
  }
}

function spendSurge(p, n) {
  const spent = p.surge.splice(0, n);
  p.storage.push(...spent);
}

/** Lay one log entry over the board; false when the frames cannot draw it. */
function apply(b, e) {
  const p = b.players[e.seat];
  const at = (n) => (p ? p.battle[n - 1] : null);
  switch (e.kind) {
    case 'assault': case 'boost': case 'direct':
      b.attack = {
        type: e.kind, seat: e.seat, attacker: e.attacker, target: e.target ?? null, surge_a: e.surge || 0,
        surge_d: 0, downloads: e.downloads || 0, interrupter: null, lost: false, cancelled: false,
      };
      if (e.surge) spendSurge(p, 3 * e.surge);
      return true;
    case 'download':
      e.squares.forEach((n, i) => { p.charge[n - 1] = e.cards ? { face: 'down', ...cardOf(e.cards[i]) } : { face: 'down' }; });
      p.pile = Math.max(0, p.pile - e.squares.length);
      return true;
    case 'recharge':
      p.charge[e.square - 1] = e.card ? { face: 'down', ...cardOf(e.card) } : { face: 'down' };
      takeFromHand(p, [e.card || '?']);
      return true;
    case 'charge_drive':
      p.battle[e.square - 1] = e.card ? stackOf(e.card, [], [], e.face === 'up' ? 'active' : 'stealth')
        : { pose: 'stealth', face: 'down', unit: null, frames: [], weapons: [], base: null, pow: null, gb_turn: null, role: null };
      takeFromHand(p, [e.card || '?']);
      return true;
    case 'unstealth': {
      const st = at(e.square);
      if (!st) return false;
      Object.assign(st, { pose: 'active', face: 'up', unit: cardOf(e.card), base: cardOf(e.card).base });
      st.pow = powOf(st);
      return true;
    }
    case 'stealth': {
      const st = at(e.square);
      if (!st) return false;
      Object.assign(st, { pose: 'stealth', face: 'down' });
      return true;
    }
    case 'interrupt':
      if (!b.attack) return false;
      b.attack.interrupter = e.square;
      b.attack.target = e.square;
      return true;
    case 'attach': {
      const st = at(e.square);
      if (!st) return false;
      st.weapons.push(cardOf(e.card));
      st.pow = powOf(st);
      takeFromHand(p, [e.card]);
      return true;
    }
    case 'power_drive': case 'counter_drive': {
      const core = at(e.square);
      const grid = e.kind === 'power_drive' ? e.materials : e.grid_materials;
      const weapons = [...(core ? core.weapons : [])];
      for (const n of grid || []) {
        const m = at(n);
        if (m) weapons.push(...m.weapons);
        p.battle[n - 1] = null;
      }
      const pose = e.kind === 'power_drive' && e.keep_gb ? 'gb' : 'active';
      p.battle[e.square - 1] = stackOf(e.card, e.frames, weapons.slice(0, 6), pose);
      takeFromHand(p, [e.card, ...(e.hand_materials || [])]);
      return true;
    }
    case 'evaded':
      if (b.attack) b.attack.lost = true;
      return true;
    case 'surge_pay':
      if (b.attack) b.attack.surge_d = e.k;
      spendSurge(p, 3 * e.k);
      return true;
    case 'accept': case 'result': case 'log_out': case 'cache': case 'damage_ignored': case 'game_over':
      return true;
    case 'discard': {
      const st = at(e.square);
      if (st) st.leaving = true;
      const cards = e.cards.map(cardOf);
      p.surge.push(...cards.slice(0, e.surge));
      p.storage.push(...cards.slice(e.surge));
      return true;
    }
    case 'vital_lost':
      for (const q of b.players) q.vitals.forEach((x) => { if (x.status === 'effect') x.status = 'lost'; });
      e.squares.forEach((n, i) => { p.vitals[n - 1] = { face: 'up', status: 'lost', ...cardOf(e.cards[i]) }; });
      {
        const n = e.squares[e.cards.indexOf(e.effect)];
        if (n) p.vitals[n - 1].status = 'effect';
      }
      p.hidden_vitals = Math.max(0, p.hidden_vitals - e.squares.length);
      b.vital_effect = { seat: e.seat, card: cardOf(e.effect) };
      return true;
    default:
      return false;
  }
}

/** The stacks marked as leaving go (at the frame after their discard). */
function sweep(b) {
  for (const p of b.players) p.battle = p.battle.map((st) => (st && st.leaving ? null : st));
}

/** After the comparison the fighters that stay take the poses the view shows them in (an
 *  attacker turns sideways, the log does not say so). */
function settlePoses(b, view) {
  const a = b.attack;
  if (!a) return;
  const places = [[a.seat, a.attacker], [1 - a.seat, a.target]];
  for (const [seat, n] of places) {
    if (n == null) continue;
    const st = b.players[seat].battle[n - 1];
    const now = view.players[seat].battle[n - 1];
    if (st && now && st.unit && now.unit && st.unit.slug === now.unit.slug) {
      st.pose = now.pose;
      st.face = now.face;
    }
  }
}

/* ---------------------------------------------------------------- frames */

/** The numbers of the fight on a frame's board: the attacker's power (plus a boost's
 *  downloads) against the target's (01 for a vital of an open direct). */
function scoreOf(b) {
  const a = b.attack;
  if (!a) return null;
  const atk = b.players[a.seat].battle[a.attacker - 1];
  const attack = atk ? atk.pow : null;
  let defence = null;
  if (a.type === 'direct' && a.target == null) defence = 1;
  else if (a.target != null) {
    const tgt = b.players[1 - a.seat].battle[a.target - 1];
    defence = tgt ? tgt.pow : null;
  }
  if (attack == null || defence == null) return null;
  return { attack: attack + (a.type === 'boost' ? a.downloads : 0), defence };
}

/** The squares a step lights up: [{seat, kind, n}] (battle squares, vitals, surge piles). */
function touchedOf(step, entries, b) {
  const out = [];
  const a = b.attack;
  if (['declare', 'compare'].includes(step.step) && a) {
    out.push({ seat: a.seat, kind: 'b', n: a.attacker });
    if (a.target != null) out.push({ seat: 1 - a.seat, kind: 'b', n: a.target });
    else out.push({ seat: 1 - a.seat, kind: 'vg' });
  }
  for (const e of entries) {
    if (['charge_drive', 'unstealth', 'attach', 'power_drive', 'counter_drive', 'discard', 'stealth'].includes(e.kind)) out.push({ seat: e.seat, kind: 'b', n: e.square });
    if (e.kind === 'vital_lost') for (const n of e.squares) out.push({ seat: e.seat, kind: 'v', n });
    if (e.kind === 'surge_pay') out.push({ seat: e.seat, kind: 'surge' });
  }
  if (step.step === 'surge') step.surge.forEach((n, seat) => { if (n) out.push({ seat, kind: 'surge' }); });
  return out;
}

function bannerOf(res) {
  const w = res.words || {};
  const lines = (w.lines || []).filter((x, i) => !(i === 0 && res.outcome.attack != null));
  return { title: w.title || '', sub: lines.join(S.settings.lang === 'en' ? ' · ' : '・'), tone: w.tone || 'info', outcome: res.outcome };
}

/** The frames of the record `res`, drawn over `pre` (the view before the fight resolved). */
export function buildFrames(res, pre, view) {
  const log = view.log;
  const seen = pre.log.length;
  const b = boardOf(pre);
  const base = { ...view, pending: null, why_not: null, previews: null, outcome: null };
  // Entries the page has not drawn yet before the fight's first unseen step.
  for (let i = seen; i < Math.min(res.log_index, log.length); i++) if (!apply(b, log[i])) b.drift = true;
  let done = Math.max(seen, res.log_index);
  const frames = [];
  const steps = res.steps.filter((s) => s.log_until > seen || s.step === 'compare' || s.step === 'surge');
  steps.forEach((step, k) => {
    sweep(b);
    const entries = log.slice(Math.max(step.from, done), step.log_until);
    for (const e of entries) if (!apply(b, e)) b.drift = true;
    if (step.step === 'compare') settlePoses(b, view);
    done = Math.max(done, step.log_until);
    setRoles(b);
    const last = k === steps.length - 1;
    const shown = b.drift ? { ...base } : { ...base, players: clone(b.players), attack: clone(b.attack), vital_effect: clone(b.vital_effect) };
    if (last) shown.outcome = view.outcome;
    let score = scoreOf(b);
    if (['compare', 'discard', 'vital', 'surge'].includes(step.step)) {
      score = res.outcome.attack != null ? { attack: res.outcome.attack, defence: res.outcome.defence } : null;
    }
    frames.push({
      step: step.step,
      kind: step.kind || res.type,
      index: k,
      logUntil: last ? Math.max(step.log_until, res.end) : step.log_until,
      shown,
      score,
      result: step.step === 'compare' ? step.result : null,
      texts: entries.map((e) => e.text || e.kind),
      touched: touchedOf(step, entries, b),
      surge: step.surge || null,
      banner: last ? bannerOf(res) : undefined,
    });
  });
  return frames;
}

/** The frames of `res` (the shell holds only the last one when the screen's motion is off). */
function framesAt(res, pre, view) {
  return buildFrames(res, pre, view);
}

/** A new live view: play the record of a fight that just resolved (once per record; not for
 *  a page that saw its result already, a reload or a replay). A record that grows while it
 *  plays (the other seat picks the vitals it loses a moment later) adds its steps. */
export function maybePlay(prev, view) {
  const res = view.resolution;
  const sid = view.session.id;
  const live = !S.replay && view.history.live && PLAYED_MODES.includes(view.session.mode);
  const noteMine = () => { if (live && isMyPrompt(view)) F.mine = view; };
  if (!res || !live) { noteMine(); return false; }
  if (playedBefore(sid, res.key)) {
    grow(res, view);
    noteMine();
    return false;
  }
  const usable = (x) => x && x.session.id === sid && x.history.live && x.log.length <= res.result_index;
  const pre = [F.mine, prev].find(usable);
  if (!pre || !prev || prev.session.id !== sid) {
    markPlayed(sid, res.key);
    noteMine();
    return false;
  }
  F.run = { sid, key: res.key, pre, steps: res.steps.length, complete: res.complete };
  const started = startPlayback({ sid, key: res.key, frames: framesAt(res, pre, view), gameEnd: res.outcome.winner != null });
  noteMine();
  return started;
}

/** The record on screen grew (its vital loss was picked): the running playback gets its new
 *  steps, the banner kept after it the final words. */
function grow(res, view) {
  const run = F.run;
  if (!run || run.sid !== view.session.id || run.key !== res.key) return;
  if (run.steps === res.steps.length && run.complete === res.complete) return;
  run.steps = res.steps.length;
  run.complete = res.complete;
  const frames = framesAt(res, run.pre, view);
  const banner = frames[frames.length - 1].banner;
  // Running: it gets the new steps (or, on its last frame, the final words of its banner);
  // over: the banner it left says the final words.
  if (!extendPlayback(res.key, frames) && PB.banner && PB.banner.sid === view.session.id) {
    Object.assign(PB.banner, banner);
  }
}

/* ---------------------------------------------------------------- the strip of a frame */

/** The fight strip of the center while a frame is on screen: the step, its numbers, its
 *  log lines, and the skip button. */
export function fightStrip(frame) {
  const at = frameIndex() || { index: frame.index, count: 1 };
  const sc = frame.score;
  const result = frame.result ? tx(`fs_res_${frame.result}`) : '';
  return h('div', {
    class: `tw-fight step-${frame.step}`,
    id: 'tw-playback',
    dataset: { step: frame.step, index: at.index, logUntil: frame.logUntil },
  },
  h('div', { class: 'tw-fight-head' },
    h('span', { class: 'tw-fight-no', text: `${at.index + 1}/${at.count}` }),
    h('strong', { class: 'tw-fight-step', text: tx(`fs_${frame.step}`) }),
    result ? h('span', { class: 'tw-fight-result', text: result }) : null),
  sc ? h('div', { class: 'tw-fight-score', dataset: { attack: sc.attack, defence: sc.defence } },
    h('span', { class: 'tw-fs-side atk' }, `${tx('fs_attack')} `, h('b', { class: 'tw-fs-num', text: sc.attack })),
    h('span', { class: 'tw-fs-vs', text: tx('fs_vs') }),
    h('span', { class: 'tw-fs-side def' }, `${tx('fs_defence')} `, h('b', { class: 'tw-fs-num', text: sc.defence }))) : null,
  frame.texts.length ? h('ul', { class: 'tw-fight-lines' }, frame.texts.map((x) => h('li', null, termify(x)))) : null,
  h('button', { type: 'button', class: 'link tw-skip', text: tx('fs_skip'), onclick: finishPlayback }));
}

/** Light up the places the frame's step touched (after the board is drawn). */
export function markTouched(frame) {
  if (!frame) return;
  for (const x of frame.touched) {
    const ref = x.kind === 'b' || x.kind === 'v' ? `${x.kind}:${x.seat}:${x.n}` : `${x.kind}:${x.seat}`;
    const el = document.querySelector(`#tw-board [data-ref="${CSS.escape(ref)}"]`);
    if (el) el.classList.add('tw-touched');
  }
  const shown = frame.shown;
  if (!shown || !shown.players) return;
  shown.players.forEach((p, seat) => p.battle.forEach((st, i) => {
    if (!st || !st.leaving) return;
    const el = document.querySelector(`#tw-board [data-ref="b:${seat}:${i + 1}"]`);
    if (el) el.classList.add('tw-leaving');
  }));
}

export { currentFrame, finishPlayback };
