// Project Maken: the module's state, its catalogue (with its pictograms and the characters'
// styles), the words of actions (the board places they name, their labels and short texts),
// prompt names, each player's situation and the banner.

import { lang, TX, tx } from './maken-strings.js';
import { catalogLoader, setCatalog } from '../shell/catalog.js';
import { h } from '../shell/dom.js';
import { safeSvg } from '../shell/svg.js';
import { bannerFor } from '../shell/outcome.js';
import { isSpectator, me, seatName, whoseOf } from '../shell/seats.js';
import { S } from '../shell/state.js';

/* ================================================================== local state */

export const M = {
  catalogs: {},
  loading: {},
  focus: '', // the board place (ref) picked to narrow the choices
  focusKey: '', // the prompt the focus belongs to
  opsSig: '',
};

/* ================================================================== catalogue */

/** The Maken catalogue (cards with data and text, decks, switches, options) in `lang`. */
export const ensureCatalog = catalogLoader('maken', M, () => { M.opsSig = ''; });

export function cat() {
  const ref = S.view && S.view.ruleset === 'maken' ? S.view.card_set || (S.view.config || {}).card_set : null;
  if (ref) {
    // The designer's card set the match on screen plays with, once it has arrived.
    const designed = setCatalog('maken', lang(), ref) || setCatalog('maken', 'ja', ref);
    if (designed) return designed;
  }
  return M.catalogs[lang()] || M.catalogs.ja || null;
}

/** The catalogue entry of a card id (`SO09`), or null. */
export function cdef(id) {
  const c = cat();
  return (c && id && c.cards[id]) || null;
}

/** A card's name by id or slug (the id itself before the catalogue is known). */
export function cardName(idOrSlug) {
  const id = String(idOrSlug || '').toUpperCase();
  const d = cdef(id);
  return d ? d.name : id;
}

/** A character's name by code (SO RI MI GA; GE is "generic"). */
export function charName(code) {
  if (code === 'GE') return tx('char_GE');
  const c = cat();
  return (c && c.characters && c.characters[code]) || code || '?';
}

/** A character's picker facts (name, icon, style, about, signature, deck numbers), or null. */
export function charInfo(code) {
  const c = cat();
  return (c && c.character_info && c.character_info[code]) || null;
}

/* ================================================================== pictograms */

/** What each pictogram of the board stands for: the icon names of the vendored game-icons
 *  subset (games/maken/data/icons.json, CC BY 3.0; its authors are on the credits screen). */
export const ICON = {
  spd: 'sprint', dist: 'horizontal-flip', atk: 'crossed-swords', gauge: 'battery-pack', damage: 'bleeding-wound',
  lp: 'hearts', stamina: 'lungs', hand: 'poker-hand', dust: 'card-discard', helper: 'shaking-hands', tp: 'flying-flag',
  hit: 'on-target', back: 'rune-sword', even: 'sword-clash', guarding: 'checked-shield', forcing: 'mailed-fist',
  defenceless: 'broken-shield', turn: 'hourglass', lasting: 'anchor',
};

const ICONS = new Map();

/* The catalogue's SVG strings (from the server's vendored file, checked there), parsed once per
   name and cloned; anything active is dropped again here as a second guard. */
function iconTemplate(name) {
  if (ICONS.has(name)) return ICONS.get(name);
  const c = cat();
  const svg = c && c.icons ? c.icons[name] : null;
  if (!svg) return null; // not cached: the catalogue may still be on its way
  const tpl = safeSvg(svg);
  ICONS.set(name, tpl);
  return tpl;
}

/** A pictogram (`role` a key of ICON, or an icon's own name) in a span, drawn in the text's
 *  colour and hidden from screen readers (the text beside it says the same); an empty span
 *  of the same size until the catalogue is known. */
export function pict(role, cls = '') {
  const name = ICON[role] || role;
  const tpl = name ? iconTemplate(name) : null;
  return h('span', { class: `mk-ic${cls ? ` ${cls}` : ''}`, 'aria-hidden': 'true', dataset: { icon: name || '' } },
    tpl ? tpl.cloneNode(true) : null);
}

/** The name and effect of a 図7/図8 option. */
export function optionInfo(name) {
  const c = cat();
  const o = c && c.options ? c.options[name] : null;
  const title = o ? o.name : name;
  return {
    name: lang() === 'en' ? title.replace(/-/g, ' ').replace(/\b\w/g, (x) => x.toUpperCase()) : title,
    effect: o ? o.effect : '',
  };
}

/* ================================================================== actions */

export const BET_VERBS = new Set(['fb', 'attack', 'gc', 'bonus']);
export const SUPPORT_VERBS = new Set(['set', 'open', 'clear', 'clear-set']);

/** An action's parts: verb, card id, copies and option (a bet), or the number of `draw N`. */
export function parse(action) {
  const [verb, ...args] = String(action).split(' ');
  if (BET_VERBS.has(verb)) {
    const [slug, n] = args[0].split('x');
    return { verb, id: slug.toUpperCase(), n: Number(n || 1), option: args[1] || null };
  }
  if (SUPPORT_VERBS.has(verb) || verb === 'cancel') return { verb, id: args[0].toUpperCase() };
  if (verb === 'draw') return { verb, n: Number(args[0]) };
  return { verb };
}

/** The board place an action names: a hand card (`h:ID`), a support card (`s:ID`), an attack
 * field card (`f:ID`), or none. */
export function refOf(action) {
  const a = parse(action);
  if (BET_VERBS.has(a.verb) || a.verb === 'set') return `h:${a.id}`;
  if (a.verb === 'open' || a.verb === 'clear' || a.verb === 'clear-set') return `s:${a.id}`;
  if (a.verb === 'cancel') return `f:${a.id}`;
  return '';
}

/** Whether a card of another character costs the helper cost for `seat` now (null: no). */
export function helperOf(v, seat, id) {
  const d = cdef(id);
  const p = v.players[seat];
  if (!d || !p || d.character === 'GE' || d.character === p.character.code) return null;
  const slot = p.helper && p.helper[0];
  return slot && slot.character === d.character ? 'free' : 'cost';
}

/** The label of one offered action (the operation panel's button). */
export function actionLabel(action, v) {
  const a = parse(action);
  const c = a.id ? cardName(a.id) : '';
  switch (a.verb) {
    case 'keep': return tx('a_keep');
    case 'mulligan': return tx('a_mulligan');
    case 'draw': return tx('a_draw', { n: a.n });
    case 'end': return tx('a_end');
    case 'guard': return tx('a_guard');
    case 'gb': return tx('a_gb');
    case 'judge': return tx('a_judge');
    case 'pay-rest-from-gauge': return tx('a_pay_rest');
    case 'decline': return tx('a_decline');
    case 'set': return tx('a_set', { c });
    case 'open': return tx('a_open', { c });
    case 'clear': return tx('a_clear', { c });
    case 'clear-set': return tx('a_clear_set', { c });
    case 'cancel': return tx('a_cancel', { c });
    default: break;
  }
  if (BET_VERBS.has(a.verb)) {
    const copies = a.n > 1 ? `×${a.n}` : '';
    const opt = a.option ? ` — ${optionInfo(a.option).name}` : '';
    const helper = v && v.pending ? helperOf(v, v.pending.seat, a.id) : null;
    const extra = helper ? ` · ${tx(helper === 'cost' ? 'helper_cost' : 'helper_free')}` : '';
    return `${tx(`v_${a.verb}`)}${tx('sep')}${c}${copies}${opt}${extra}`;
  }
  return action;
}

/** A short text for an action taken by anyone (COM's reasons, replay); no view needed. */
export function actionText(action) {
  if (!action) return '';
  if (action.startsWith('set') && action.split(' ').length === 1) return tx('set_mark');
  if (action === 'set …' || action === 'set ...') return tx('set_mark');
  try {
    return actionLabel(action, null);
  } catch {
    return action;
  }
}

/** The name of a prompt kind. */
export function promptName(prompt) {
  return TX.ja[`pt_${prompt}`] ? tx(`pt_${prompt}`) : prompt;
}

/** What the pending prompt asks, in words. */
export function promptText(v) {
  const p = v.pending;
  if (p.prompt === 'pay' && v.bet) {
    const left = Math.max(0, v.bet.units - (v.bet.picks || []).length);
    return tx('pr_pay', { card: `${cardName(v.bet.card)}${v.bet.n > 1 ? `×${v.bet.n}` : ''}`, units: left });
  }
  return TX.ja[`pr_${p.prompt}`] ? tx(`pr_${p.prompt}`) : '';
}

/* ================================================================== situation */

/** A player's situation (§7): `even` 拮抗, `guarding`, `forcing` (making the other guard) or
 * `none`, and whether the player is defenceless (無防備). */
export function situationOf(v, seat) {
  const s = v.situation || { kind: 'none' };
  let kind = 'none';
  if (s.kind === 'even') kind = 'even';
  else if (s.kind === 'guard') kind = s.guarding === seat ? 'guarding' : 'forcing';
  return { kind, defenceless: !!v.players[seat].defenceless };
}

/** The one-line situation of the table (center strip). */
export function situationLine(v) {
  const s = v.situation || { kind: 'none' };
  if (s.kind === 'even') return tx('sit_line_even');
  if (s.kind === 'guard') return tx('sit_line_guard', { who: seatName(s.guarding), actor: seatName(s.actor) });
  return tx('sit_line_none');
}

/* ================================================================== banner */

export function outcomeTitle(v) {
  const o = v.outcome;
  if (!o) return '';
  if (o.winner == null || o.winner < 0) return tx('draw');
  if (isSpectator()) return tx('win_seat', { who: seatName(o.winner) });
  return o.winner === me() ? tx('win_you') : tx('win_opp');
}

export function reasonText(reason) {
  return TX.ja[`reason_${reason}`] ? tx(`reason_${reason}`) : String(reason || '');
}

export function bannerInfo(v) {
  return bannerFor(v, { tx, outcomeTitle, promptName });
}

/** "Your" / "Opponent's" / "P1's" before a zone name. */
export function whose(seat) {
  return whoseOf(seat);
}
