// TWGP トランプ版: the module's state, its catalogue, the words of actions (the board places
// they name, their labels and short texts), prompt names, and the windows of a turn.

import { outcomeTitle } from './twgp-board.js';
import { TX, tx } from './twgp-strings.js';
import { catalogLoader } from '../shell/catalog.js';
import { $ } from '../shell/dom.js';
import { bannerFor } from '../shell/outcome.js';
import { me } from '../shell/seats.js';
import { S } from '../shell/state.js';

/* ================================================================== local state */

export const T = {
  catalogs: {},
  loading: {},
  focus: [], // board places (refs) the player has picked to narrow the choices
  focusKey: '', // the prompt the focus belongs to
  hover: null,
  opsSig: '',
  open: new Set(), // folded groups the player opened
  prevSigs: new Map(),
};

export const DIRECT_PROMPTS = new Set(['build', 'setup', 'vital', 'effect', 'recharge']);
export const GROUP_FOLD = 8;
export const GROUPS = ['flow', 'build', 'vital', 'charge', 'summon', 'weapon', 'pose', 'attack', 'surge', 'other'];
export const GROUP_OF = {
  battle: 'flow', end: 'flow', accept: 'flow', done: 'flow', 'keep-weapons': 'flow', 'drop-weapons': 'flow',
  'log-out': 'flow',
  'reload-take': 'flow', shuffle: 'charge',
  vital: 'build', aside: 'build', hand: 'build',
  flip: 'vital', effect: 'vital',
  setup: 'charge', recharge: 'charge', reload: 'charge', 'reload-bottom': 'charge', 'full-charge': 'charge',
  'charge-drive': 'summon', 'stealth-drive': 'summon', 'power-drive': 'summon', 'power-drive-gb': 'summon', 'counter-drive': 'summon',
  attach: 'weapon', 'weapon-back': 'weapon', 'weapon-move': 'weapon',
  reactive: 'pose', stealth: 'pose', unstealth: 'pose',
  'declare-gb': 'attack', 'grid-blast': 'attack', assault: 'attack', 'surge-assault': 'attack', boost: 'attack', direct: 'attack',
  surge: 'surge',
};

/* ================================================================== catalogue */

/** The TWGP catalogue (cards with their texts, rule switches) in `lang`, fetched once. */
export const ensureCatalog = catalogLoader('twgp', T, () => { T.opsSig = ''; });

export function cat() {
  return T.catalogs[S.settings.lang] || T.catalogs.ja || null;
}

/** Catalogue facts of a card by slug (label, name, kind, base, suit, text), or null. */
export function cdef(slug) {
  const c = cat();
  return (c && c.cards[slug]) || (T.catalogs.ja && T.catalogs.ja.cards[slug]) || null;
}

/** The short label of a card (♠3), `…` for a hidden one. */
export function label(slug) {
  if (!slug || slug === '…') return tx('hidden_card');
  const d = cdef(slug);
  return d ? d.label : slug;
}

export function suitOf(card) {
  const slug = card.slug || '';
  if (slug.startsWith('joker')) return 'j';
  const d = cdef(slug);
  return (d && d.suit && d.suit.length === 1 ? d.suit : slug[0]) || 'x';
}

/* ================================================================== small helpers */

function isNum(word) {
  return /^-?\d+$/.test(word);
}

export function words(action) {
  return action.split(' ');
}

export function two(n) {
  return n == null ? '??' : String(n).padStart(2, '0');
}

/** The unit shown in square `n` of `seat` ("♠3" or "？"), and its power. */
export function unitAt(v, seat, n) {
  const st = v.players[seat] && v.players[seat].battle[n - 1];
  if (!st) return { u: '', pow: '?' };
  return { u: st.unit ? st.unit.label : '？', pow: st.pow ?? '?' };
}

function weaponSquare(v, seat, slug) {
  const row = v.players[seat].battle;
  for (let i = 0; i < row.length; i++) {
    const st = row[i];
    if (st && st.weapons.some((w) => w.slug === slug)) return i + 1;
  }
  return null;
}

/** The seat whose decision is pending, or the bottom seat. */
function actor(v) {
  return v.pending ? v.pending.seat : me();
}

/* ================================================================== action texts */

/** The board places an action names (refs of `data-ref` elements). Geometry only. */
export function refsOf(action, v) {
  const mine = actor(v);
  const opp = 1 - mine;
  const [verb, ...args] = words(action);
  const sq = (n, seat = mine) => `b:${seat}:${n}`;
  const hand = (slug) => `h:${mine}:${slug}`;
  switch (verb) {
    case 'vital': case 'aside': case 'hand': return [`p:${mine}:${args[0]}`];
    case 'setup': return [`c:${mine}:${args[0]}`];
    case 'reactive': case 'stealth': case 'unstealth': case 'declare-gb': case 'grid-blast': return [sq(args[0])];
    case 'charge-drive': case 'stealth-drive': return [hand(args[0]), sq(args[1])];
    case 'power-drive': case 'power-drive-gb': return [sq(args[0]), hand(args[1]), ...args.slice(2).map((n) => sq(n))];
    case 'counter-drive': {
      const refs = [hand(args[0]), ...args.slice(1).map((m) => (isNum(m) ? sq(m) : hand(m)))];
      if (v.attack && v.attack.target) refs.push(sq(v.attack.target));
      return refs;
    }
    case 'attach': return [hand(args[0]), sq(args[1])];
    case 'weapon-back': { const n = weaponSquare(v, mine, args[0]); return n ? [sq(n)] : []; }
    case 'weapon-move': { const n = weaponSquare(v, mine, args[0]); return [...(n ? [sq(n)] : []), sq(args[1])]; }
    case 'assault': case 'surge-assault': case 'boost': return [sq(args[0]), sq(args[1], opp)];
    case 'direct': return [sq(args[0]), `vg:${opp}`];
    case 'surge': case 'log-out': return [`surge:${mine}`];
    case 'recharge': case 'reload': case 'reload-bottom': return [hand(args[0])];
    case 'flip': case 'effect': return [`v:${mine}:${args[0]}`];
    case 'full-charge': case 'shuffle': case 'reload-take': return [`pile:${mine}`];
    default: return [];
  }
}

/** The label of one offered action, with the cards and powers it concerns. */
export function actionLabel(action, v) {
  const p = v.pending;
  const mine = p.seat;
  const [verb, ...a] = words(action);
  const c = (slug) => label(slug);
  const at = (n, seat = mine) => unitAt(v, seat, Number(n));
  switch (verb) {
    case 'vital': return tx('a_vital', { c: c(a[0]) });
    case 'aside': return tx('a_aside', { c: c(a[0]) });
    case 'hand': return tx('a_hand', { c: c(a[0]) });
    case 'done':
      if (p.prompt === 'build') return tx('a_done_build');
      if (p.prompt === 'setup') return tx('a_done_setup');
      if (p.prompt === 'damage') return tx('a_done_damage');
      return tx('a_done');
    case 'setup': {
      const card = v.players[mine].charge[Number(a[0]) - 1];
      return tx('a_setup', { n: a[0], c: card && card.slug ? card.label : '?' });
    }
    case 'reactive': return tx('a_reactive', { n: a[0], u: at(a[0]).u });
    case 'charge-drive': return tx('a_charge_drive', { c: c(a[0]), n: a[1] });
    case 'stealth-drive': return tx('a_stealth_drive', { c: c(a[0]), n: a[1] });
    case 'power-drive': case 'power-drive-gb': {
      const mats = a.slice(2).map((n) => `${tx('sq', { n })} ${at(n).u}`).join('・');
      const text = tx('a_power_drive', { c: c(a[1]), n: `${a[0]} ${at(a[0]).u}`, mats: mats ? tx('a_mats', { list: mats }) : '' });
      return verb === 'power-drive-gb' ? text + tx('a_keep_gb') : text;
    }
    case 'counter-drive': {
      const list = a.slice(1).map((m) => (isNum(m) ? `${tx('sq', { n: m })} ${at(m).u}` : tx('a_from_hand', { c: c(m) }))).join('・');
      return tx('a_counter_drive', { c: c(a[0]), list });
    }
    case 'attach': return tx('a_attach', { c: c(a[0]), n: a[1], u: at(a[1]).u });
    case 'weapon-back': return tx('a_weapon_back', { c: c(a[0]) });
    case 'weapon-move': return tx('a_weapon_move', { c: c(a[0]), n: a[1], u: at(a[1]).u });
    case 'stealth': return tx('a_stealth', { n: a[0], u: at(a[0]).u });
    case 'unstealth': {
      const text = tx('a_unstealth', { n: a[0], u: at(a[0]).u });
      return v.attack && v.attack.type === 'direct' && v.attack.seat !== mine ? text + tx('a_as_interrupter') : text;
    }
    case 'declare-gb': return tx('a_declare_gb', { n: a[0], u: at(a[0]).u });
    case 'grid-blast': return tx('a_grid_blast', { n: a[0], u: at(a[0]).u });
    case 'assault': case 'surge-assault': {
      const x = at(a[0]);
      const y = at(a[1], 1 - mine);
      const text = tx('a_assault', { a: a[0], u: x.u, pa: x.pow, t: a[1], tu: y.u, pt: y.pow });
      return verb === 'surge-assault' ? text + tx('a_surge_pay', { n: 3 * Number(a[2]) }) : text;
    }
    case 'boost': {
      const x = at(a[0]);
      const y = at(a[1], 1 - mine);
      return tx('a_boost', { a: a[0], u: x.u, pa: x.pow, d: a[2], t: a[1], tu: y.u, pt: y.pow });
    }
    case 'direct': { const x = at(a[0]); return tx('a_direct', { a: a[0], u: x.u, pa: x.pow }); }
    case 'surge': return tx('a_surge', { n: 3 * Number(a[0]) });
    case 'accept': return tx('a_accept');
    case 'recharge': return tx('a_recharge', { c: c(a[0]) });
    case 'battle': return tx('a_battle');
    case 'end': return tx('a_end');
    case 'flip': case 'effect': {
      const vital = v.players[mine].vitals[Number(a[0]) - 1];
      return tx(`a_${verb}`, { n: a[0], c: vital && vital.slug ? vital.label : '?' });
    }
    case 'reload': return tx('a_reload', { c: c(a[0]) });
    case 'shuffle': return tx('a_shuffle');
    case 'full-charge': return tx('a_full_charge', { n: a[0] });
    case 'keep-weapons': return tx('a_keep_weapons');
    case 'drop-weapons': return tx('a_drop_weapons');
    case 'log-out': return tx((p.context || {}).surge > 0 ? 'a_log_out' : 'a_log_out_storage', { c: c(a[0]) });
    case 'reload-bottom': return tx('a_reload_bottom', { c: c(a[0]) });
    case 'reload-take': return tx('a_reload_take', { n: a[0] });
    default: return action;
  }
}

/** A short text for an action taken by anyone at any time (no view needed): for COM's
 * reasons and the replay viewer. A card hidden from the reader arrives as `…`. */
export function actionText(action) {
  if (!action) return '';
  const [verb, ...a] = words(action);
  const c = (slug) => label(slug);
  switch (verb) {
    case 'vital': case 'aside': case 'hand': return tx(`s_${verb}`, { c: c(a[0]) });
    case 'done': return tx('s_done');
    case 'setup': case 'reactive': case 'stealth': case 'unstealth': case 'declare-gb': case 'grid-blast':
      return tx(`s_${verb.replace('-', '_')}`, { n: a[0] });
    case 'charge-drive': case 'stealth-drive': return tx(`s_${verb.replace('-', '_')}`, { c: c(a[0]), n: a[1] });
    case 'power-drive': case 'power-drive-gb': return tx('s_power_drive', { c: c(a[1]), n: a[0] });
    case 'counter-drive': return tx('s_counter_drive', { c: c(a[0]) });
    case 'attach': return tx('s_attach', { c: c(a[0]), n: a[1] });
    case 'weapon-back': return tx('s_weapon_back', { c: c(a[0]) });
    case 'weapon-move': return tx('s_weapon_move', { c: c(a[0]), n: a[1] });
    case 'assault': case 'surge-assault': return tx('s_assault', { a: a[0], t: a[1] }) + (verb === 'surge-assault' ? tx('a_surge_pay', { n: 3 * Number(a[2]) }) : '');
    case 'boost': return tx('s_boost', { a: a[0], t: a[1] });
    case 'direct': return tx('s_direct', { a: a[0] });
    case 'surge': return tx('a_surge', { n: 3 * Number(a[0]) });
    case 'accept': return tx('s_accept');
    case 'recharge': return tx('a_recharge', { c: c(a[0]) });
    case 'battle': return tx('s_battle');
    case 'end': return tx('s_end');
    case 'flip': return tx('vital_n', { n: a[0] });
    case 'effect': return `${tx('vital_effect')}: ${tx('vital_n', { n: a[0] })}`;
    case 'reload': return tx('a_reload', { c: c(a[0]) });
    case 'shuffle': return tx('a_shuffle');
    case 'full-charge': return tx('a_full_charge', { n: a[0] });
    case 'keep-weapons': return tx('a_keep_weapons');
    case 'drop-weapons': return tx('a_drop_weapons');
    case 'log-out': return tx('s_log_out', { c: c(a[0]) });
    case 'reload-bottom': return tx('a_reload_bottom', { c: c(a[0]) });
    case 'reload-take': return tx('a_reload_take', { n: a[0] });
    default: return action;
  }
}

/** The name of a prompt kind. */
export function promptName(prompt) {
  return TX.ja[`pt_${prompt}`] ? tx(`pt_${prompt}`) : prompt;
}

export function promptText(v) {
  const p = v.pending;
  const ctx = p.context || {};
  const mine = v.players[p.seat];
  switch (p.prompt) {
    case 'build': {
      if (ctx.stage === 'vitals') return tx('pr_build_vitals', { n: mine.vitals.filter((x) => x.face === 'empty').length });
      if (ctx.stage === 'aside') return tx('pr_build_aside', { n: Math.max(0, (v.config.jokers ? 4 : 3) - mine.aside.count) });
      return tx('pr_build_hand', { n: mine.hand.count });
    }
    case 'recharge': return tx('pr_recharge', { n: ctx.left ?? '' });
    case 'setup': return tx(p.seat === v.turn_player ? 'pr_setup_own' : 'pr_setup');
    case 'build_window': return tx(v.config.setupAnytime ? 'pr_build_window_anytime' : 'pr_build_window');
    case 'order': return tx('pr_order', { list: (ctx.cards || []).map((x) => label(x.slug)).join(S.settings.lang === 'en' ? ', ' : '・'), n: ctx.surge ?? 0 });
    case 'vital': return tx('pr_vital', { n: ctx.count ?? 1 });
    default: return TX.ja[`pr_${p.prompt}`] ? tx(`pr_${p.prompt}`) : '';
  }
}

/* ================================================================== windows and banner */

/** Which window of the turn a prompt belongs to (the stepper of the center strip). */
export function windowOf(v) {
  const p = v.pending;
  if (v.outcome) return null;
  if (v.phase === 'setup') return 'setup';
  if (!p) return v.phase === 'battle' ? 'battle' : 'build';
  switch (p.prompt) {
    case 'build': return 'setup';
    case 'setup': case 'build_window': case 'reload': return 'build';
    case 'battle_window': case 'recharge': return 'battle';
    case 'response': return 'response';
    case 'vital': case 'effect': case 'damage': return 'damage';
    case 'cache': return v.attack ? 'response' : v.phase;
    default: return v.phase === 'battle' ? 'battle' : 'build';
  }
}

export function bannerInfo(v) {
  return bannerFor(v, {
    tx, outcomeTitle, promptName,
    mine: (p) => (p.prompt === 'response' ? tx('your_response') : tx('your_move')),
    theirs: (p) => (p.prompt === 'response' ? tx('opp_responding') : tx('opp_thinking')),
  });
}

