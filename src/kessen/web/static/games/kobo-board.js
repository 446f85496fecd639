// Kōbō (攻防) board: its catalogue, card faces, the top bar's scoreboard and turn line, both
// sides (battle and strategy areas, hands), the piles, the center banner and staging, the
// CHAIN / RESOLVE lane's links, and the results of the match's games.

import { t } from './kobo-strings.js';
import { renderSurpriseZone } from './kobo-surprise.js';
import { $, h, put } from '../shell/dom.js';
import { term } from '../shell/glossary.js';
import { infoable } from '../shell/info.js';
import { endedBanner, endedResult } from '../shell/ending.js';
import { renderLane } from '../shell/lane.js';
import { isSpectator, levelName, me, seatLabel, seatName, whoseOf } from '../shell/seats.js';
import { setCatalog } from '../shell/catalog.js';
import { S } from '../shell/state.js';
import { safeSvg } from '../shell/svg.js';

export const KIND_ORDER = ['character', 'deploy', 'trap', 'tactic'];

/** Kōbō's own state: its catalogues by language and what the last render drew (for the
 *  entering animation of cards that changed). */
export const catalogs = {};
export const K = { prevKeys: new Map() };

/** The catalogue of `lang` for the cards on screen: that of the card set the match on screen
 *  plays with once it has arrived, else the shipped one. */
export function catalogOf(lang) {
  const ref = S.view && S.view.ruleset === 'kobo' ? S.view.card_set : null;
  return (ref && setCatalog('kobo', lang, ref)) || catalogs[lang] || null;
}

export function cat() {
  return catalogOf(S.settings.lang) || catalogOf('ja') || { cards: {}, decks: {} };
}

export function cardDef(slug) {
  const ja = catalogOf('ja');
  return cat().cards[slug] || (ja && ja.cards[slug]) || null;
}

export function cardName(slug) {
  const d = cardDef(slug);
  return d ? d.name : slug;
}

export function splitAction(text) {
  const i = text.indexOf(' ');
  return i < 0 ? [text, ''] : [text.slice(0, i), text.slice(i + 1)];
}

/* ================================================================== cards */

export function kindLabel(kind, slug) {
  const d = slug ? cardDef(slug) : null;
  if (d) return d.kind_label;
  const any = Object.values(cat().cards).find((c) => c.kind === kind);
  return any ? any.kind_label : kind;
}

/** A card face (or back). `card` is a view card: {slug, name, kind, lv?, base?, printed?, face?}. */
export function cardEl(card, opts = {}) {
  const size = opts.size || 'm';
  const hidden = !card || !card.slug;
  if (hidden || (card.face === 'down' && !opts.peek && !opts.showFaceDown)) {
    const back = h('div', { class: `card back size-${size}` }, h('div', { class: 'back-mark', text: '攻' }));
    return back;
  }
  const kind = card.kind || (cardDef(card.slug) || {}).kind || 'character';
  const name = card.name || cardName(card.slug);
  const classes = ['card', `kind-${kind}`, `size-${size}`];
  if (card.face === 'down') classes.push('peek');
  if (card.attacking) classes.push('attacking');
  if (card.target) classes.push('targeted');
  const el = h('div', { class: classes.join(' '), dataset: { slug: card.slug } });
  el.append(h('div', { class: 'card-band' }));
  if (kind === 'character') {
    const lv = card.lv ?? (cardDef(card.slug) || {}).lv;
    const badge = h('div', { class: 'card-lv', text: String(lv ?? '') });
    if (card.base != null && card.lv != null) {
      if (card.lv > card.base) badge.classList.add('up');
      else if (card.lv < card.base) badge.classList.add('down');
    }
    el.append(badge);
    if (card.base != null && card.printed != null && card.base !== card.printed) {
      el.append(h('div', { class: `card-base ${card.base > card.printed ? 'up' : 'down'}` }, term('base_lv', t('base_lv')), `${card.base}`));
    }
  } else {
    el.append(h('div', { class: 'card-icon', text: kindGlyph(kind) }));
  }
  el.append(iconEl(card.slug, 'card-art pict') || h('div', { class: 'card-art', text: Array.from(name)[0] || '' }));
  // A pile's top card (xs) is too small for a readable name: it stays for screen readers.
  el.append(h('div', { class: size === 'xs' ? 'card-name sr-only' : 'card-name', text: name }));
  if (size !== 'xs') el.append(h('div', { class: 'card-kind', text: kindLabel(kind, card.slug) }));
  if (card.face === 'down') el.append(h('div', { class: 'peek-tag', text: t('peek_tag') }));
  return el;
}

/** The one-glyph mark of a card kind, in the current language. */
export function kindGlyph(kind) {
  const key = `glyph_${kind}`;
  return t.has(key) ? t(key) : '';
}

/* Pictograms: the catalogue's standalone SVG strings (sanitised by the server), parsed once
   per name and cloned; anything active is dropped again here as a second guard. */
const ICONS = new Map();

function iconTemplate(name) {
  if (ICONS.has(name)) return ICONS.get(name);
  const svg = (cat().icons || {})[name] || (catalogs.ja && catalogs.ja.icons ? catalogs.ja.icons[name] : null);
  const tpl = safeSvg(svg);
  ICONS.set(name, tpl);
  return tpl;
}

/** The pictogram of a card (a span holding its SVG), or null when it has none. */
export function iconEl(slug, cls = 'pict') {
  const d = slug ? cardDef(slug) : null;
  const tpl = d && d.icon ? iconTemplate(d.icon) : null;
  if (!tpl) return null;
  return h('span', { class: cls, dataset: { icon: d.icon } }, tpl.cloneNode(true));
}

export function renderTopbar(v) {
  const bottom = me();
  const replay = !!S.replay;
  const top = 1 - bottom;
  const m = v.match;
  put($('#scoreboard'), 
    h('span', { class: 'sb-game', text: t('game_no', { n: m.game }) }),
    h('span', { class: 'sb-bo', text: t('best_of', { n: m.best_of }) }),
    h('span', { class: 'sb-score' },
      h('span', { class: 'sb-name mine', text: seatName(bottom) }),
      h('span', { class: 'sb-num', text: `${m.wins[bottom]}` }),
      h('span', { class: 'sb-dash', text: '–' }),
      h('span', { class: 'sb-num', text: `${m.wins[top]}` }),
      h('span', { class: 'sb-name theirs', text: seatName(top) })),
  );
  const parts = [];
  const ended = endedBanner(v); // resigned or lost on time: nobody's turn any more
  if (v.turn === 0) parts.push(h('span', { class: 'ti-phase' }, term('standby', t('standby_phase'))));
  else parts.push(h('span', { class: 'ti-turn', text: t('turn', { n: v.turn }) }));
  if (ended) parts.push(h('span', { class: `ti-who ti-ended ${ended.cls}`, text: ended.text }));
  else if (v.turn !== 0) parts.push(h('span', { class: `ti-who ${v.turn_player === bottom ? 'mine' : 'theirs'}`, text: t('seat_turn', { whose: whoseOf(v.turn_player) }) }));
  parts.push(h('span', { class: 'ti-first muted', text: t('first', { who: seatName(v.first_player) }) }));
  if (v.session.mode === 'com_vs_com' || replay) parts.push(h('span', { class: 'ti-step muted', text: t('step', { step: v.history.step, steps: v.history.steps }) }));
  put($('#turninfo'), ...parts);
}

/** A text with one of its words marked as a glossary term (`word` as written in `text`; the
 *  whole text is marked when the word is not in it). */
export function termed(key, text, word) {
  const at = word ? text.indexOf(word) : -1;
  if (at < 0) return term(key, text);
  return h('span', null, text.slice(0, at), term(key, word), text.slice(at + word.length));
}

/** The history buttons of the top bar (undo, redo, live, show all), for any ruleset. */
function slotKey(seat, zone, n) {
  return `${seat}:${zone}:${n}`;
}

function withEnter(el, key, sig, keys) {
  keys.set(key, sig);
  const before = K.prevKeys.get(key);
  if (before !== undefined && before !== sig && sig) el.classList.add('enter');
  return el;
}

/** The view's reason a card of the viewing seat cannot be used now (or null). */
export function whyNot(v, zone, key, n) {
  return (v.why_not || []).find((w) => w.zone === zone && w[key] === n) || null;
}

/** Dim an unusable card's element and put its reason under it (readable without hovering).
 *  The element carries the sentence (`data-why`, also its accessible description) and the
 *  code (`data-why-code`); the chip shows a few words. A card of a compact hand (a spine), or
 *  of a hand whose cards all share one reason, has its chip as a bar: the words are on the
 *  hand's title. */
function markWhy(el, why, compact = false) {
  if (!why) return el;
  el.classList.add('unusable');
  el.dataset.why = why.text || shortWhy(why);
  el.dataset.whyCode = why.code;
  el.setAttribute('aria-description', why.text || shortWhy(why));
  const chip = compact
    ? h('div', { class: 'why-chip bar', dataset: { code: why.code }, title: why.text }, h('span', { class: 'sr-only', text: shortWhy(why) }))
    : h('div', { class: 'why-chip', dataset: { code: why.code }, text: shortWhy(why) });
  el.append(chip);
  return el;
}

/** A few words for a reason code (the full sentence is the view's `text`, shown in CARD
 *  INFORMATION). */
export function shortWhy(why) {
  const key = `why_${why.code}${why.code === 'timing' && why.params ? `_${why.params.needs}` : ''}`;
  return t.has(key) ? t(key) : why.text;
}

/** On a participant of the open exchange, the Lv it would have at the result when the chain
 *  changes it (the engine's preview), or that it would retreat. */
function projected(v, seat, slot) {
  const pv = v.exchange && v.exchange.preview;
  if (!pv || !pv.exact) return null;
  const part = [...(pv.attackers || []), pv.target].find((p) => p && p.seat === seat && p.slot === slot);
  if (!part || part.lv === part.lv_now) return null;
  const text = part.lv == null ? t('fx_out') : `→Lv${part.lv}`;
  return h('div', { class: `kb-proj${part.lv == null ? ' out' : part.lv > part.lv_now ? ' up' : ' down'}`, title: t('if_resolved'), text });
}

export function renderSide(v, seat, pos, keys) {
  const p = v.players[seat];
  const mine = seat === me();
  const declaring = v.pending && v.pending.prompt === 'declare' && v.pending.seat === seat ? (v.pending.context.attackers || []) : [];

  const battle = h('div', { class: 'brow battle', dataset: { seat } });
  p.battle.forEach((c, i) => {
    const n = i + 1;
    const slot = h('div', { class: 'slot battle-slot', dataset: { zone: 'battle', seat, slot: n } },
      h('span', { class: 'slot-no', text: n }));
    if (c) {
      const card = cardEl(c, { size: 'l' });
      if (declaring.includes(n)) card.classList.add('chosen');
      slot.append(card);
      slot.classList.add('filled');
      if (c.attacking || c.target) slot.classList.add('sideways');
      if (declaring.includes(n)) slot.classList.add('declaring');
      const tags = [];
      if (c.attacking) tags.push(h('span', { class: 'tag atk' }, term('attacking', t('attacking'))));
      if (c.target) tags.push(h('span', { class: 'tag tgt' }, term('attack_target', t('targeted'))));
      if (declaring.includes(n)) tags.push(h('span', { class: 'tag atk', text: t('chosen') }));
      if (tags.length) slot.append(h('div', { class: 'tags' }, tags));
      const proj = projected(v, seat, n);
      if (proj) slot.append(proj);
      const why = whyNot(v, mine ? 'battle' : 'target', 'slot', n);
      markWhy(slot, why);
      infoable(slot, { type: 'card', card: c, seat, zone: 'battle', slot: n, why });
    }
    withEnter(slot, slotKey(seat, 'b', n), c ? `${c.slug}` : '', keys);
    battle.append(slot);
  });

  const strategy = h('div', { class: 'brow strategy', dataset: { seat } });
  p.strategy.forEach((c, i) => {
    const n = i + 1;
    const slot = h('div', { class: 'slot strat-slot', dataset: { zone: 'strategy', seat, slot: n } },
      h('span', { class: 'slot-no', text: n }));
    if (c) {
      slot.append(cardEl(c, { size: 's', peek: !!c.slug }));
      slot.classList.add('filled', c.face === 'up' ? 'face-up' : 'face-down');
      const why = mine ? whyNot(v, 'strategy', 'slot', n) : null;
      markWhy(slot, why);
      infoable(slot, { type: 'card', card: c, seat, zone: 'strategy', slot: n, why });
    }
    withEnter(slot, slotKey(seat, 's', n), c ? `${c.face}:${c.slug || ''}` : '', keys);
    strategy.append(slot);
  });

  const hands = h('div', { class: 'hands' });
  const withMain = p.hand.count > 0 || (p.hand.cards && p.hand.cards.length);
  const compact = compactHand(v, seat, p);
  hands.append(renderHand(v, seat, 'thand', p.tactics_hand, compact === 'thand'));
  if (withMain) hands.append(renderHand(v, seat, 'hand', p.hand, compact === 'hand'));
  // The sizes a wide screen fits the row with (kobo.css): full cards and spines.
  const faces = (x, zone) => (x.cards && compact !== zone ? x.cards.length : 0);
  hands.style.setProperty('--full', String(Math.max(1, faces(p.tactics_hand, 'thand') + (withMain ? faces(p.hand, 'hand') : 0))));
  hands.style.setProperty('--spines', String(compact ? (compact === 'thand' ? p.tactics_hand : p.hand).cards.length : 0));
  hands.style.setProperty('--hand-gaps', String(withMain ? 1 : 0));
  hands.classList.toggle('with-spines', !!compact);
  // Both hands face up (the second player's standby): on a phone they stack (kobo.css).
  hands.classList.toggle('both-faces', bothFaceUp(p));
  const zone = renderSurpriseZone(v, seat);
  if (zone) withEnter(zone.querySelector('.kb-sz-slot'), slotKey(seat, 'z', 1), zone.dataset.state, keys);
  const handRow = h('div', { class: `hand-row${zone ? ' with-sz' : ''}` }, hands, zone);

  battle.prepend(h('div', { class: 'row-label' }, term('battle_area', t('battle_area'))));
  strategy.prepend(h('div', { class: 'row-label' }, term('strategy_area', t('strategy_area'))));
  return pos === 'top' ? [handRow, strategy, battle] : [battle, strategy, handRow];
}

/** Whether both hands of a side show their faces (the second player's standby). */
function bothFaceUp(p) {
  const faces = (x) => !!(x && x.cards && x.cards.length);
  return faces(p.tactics_hand) && faces(p.hand);
}

/** The hand a side shows edge-on (as spines) when both of its hands are face up (the second
 *  player's standby: seven tactics beside the main hand): the one none of whose cards can be
 *  used now, the tactics hand first. A tablet or a wide screen draws spines (kobo.css); a
 *  phone stacks the two hands, a row each. */
function compactHand(v, seat, p) {
  if (!bothFaceUp(p)) return null;
  if (seat !== me()) return 'thand';
  const idle = (whyZone, cards) => cards.every((c, i) => whyNot(v, whyZone, 'index', i));
  if (idle('tactics_hand', p.tactics_hand.cards)) return 'thand';
  if (idle('hand', p.hand.cards)) return 'hand';
  return null;
}

function renderHand(v, seat, zone, hand, compact = false) {
  const key = zone === 'thand' ? 'tactics_hand' : 'main_hand';
  const box = h('div', { class: `hand hand-${zone}${compact ? ' compact' : ''}${hand.count ? '' : ' empty'}`, dataset: { seat, zone } });
  const title = h('div', { class: 'hand-title' }, term(key, t(zone)), h('span', { class: 'count', text: hand.count }));
  box.append(title);
  const cards = h('div', { class: `hand-cards ${hand.cards ? 'faces' : 'backs'}` });
  if (hand.cards) {
    const whyZone = zone === 'thand' ? 'tactics_hand' : 'hand';
    const whys = hand.cards.map((c, i) => (seat === me() ? whyNot(v, whyZone, 'index', i) : null));
    const words = whys.map((why) => (why ? shortWhy(why) : null));
    // Every card held back for one reason (the opponent's turn, another choice first): the
    // reason is said once, on the hand's title, and each card is marked by a bar, so that a
    // phone's small cards keep their names clear of a chip repeated on each of them.
    const shared = words.length > 1 && words.every((w) => w !== null && w === words[0]);
    const barred = compact || shared;
    hand.cards.forEach((c, i) => {
      const wrap = h('div', { class: `hand-card${compact ? ' spine' : ''}`, dataset: { zone, seat, index: i + 1, slug: c.slug } }, cardEl(c, { size: 's' }));
      markWhy(wrap, whys[i], barred);
      infoable(wrap, { type: 'card', card: c, seat, zone, why: whys[i] });
      cards.append(wrap);
    });
    // A compact hand's cards share their reason too: said once, on its title.
    const reasons = [...new Set(words.filter((w) => w !== null))];
    if (barred && reasons.length) title.append(h('span', { class: 'hand-why', text: reasons.join(t('list_sep')) }));
  } else {
    const n = Math.min(hand.count, 10);
    for (let i = 0; i < n; i++) cards.append(h('div', { class: 'hand-card back-only' }, cardEl(null, { size: 'xs' })));
  }
  cards.style.setProperty('--n', String(Math.max(1, hand.cards ? hand.cards.length : Math.min(hand.count, 10))));
  box.append(cards);
  return box;
}

export function renderPiles(v, seat) {
  const p = v.players[seat];
  const pile = (kind, count, face, label) => {
    const el = h('div', { class: `pile pile-${kind}`, dataset: { pile: kind, seat } },
      h('div', { class: 'pile-stack' }, face),
      h('div', { class: 'pile-label' }, h('span', null, label), h('span', { class: 'pile-count', text: count })));
    infoable(el, { type: 'pile', pile: kind, seat });
    return el;
  };
  const topRetreat = p.retreat.length ? cardEl(p.retreat[p.retreat.length - 1], { size: 'xs' }) : h('div', { class: 'card empty size-xs' });
  const topExcl = p.excluded.length ? cardEl(p.excluded[p.excluded.length - 1], { size: 'xs' }) : h('div', { class: 'card empty size-xs' });
  const back = (n) => (n > 0 ? cardEl(null, { size: 'xs' }) : h('div', { class: 'card empty size-xs' }));
  const mine = seat === me();
  const head = h('div', { class: `side-head ${mine ? 'mine' : 'theirs'}` },
    h('span', { class: 'side-name', text: seatLabel(seat), title: v.session.com[String(seat)] ? `COM: ${levelName(v.session.com[String(seat)])}` : null }),
    h('span', { class: 'side-deck muted', text: p.deck.name }),
    h('span', { class: `side-pass${p.passes >= 2 ? ' warn' : ''}` }, termed('pass', t('passes', { n: p.passes }), t('pass_word'))),
    h('span', { class: 'side-rem muted' }, termed('remaining', t('remaining', { n: p.remaining }), t('remaining_word'))),
    v.turn_player === seat && v.turn > 0 ? h('span', { class: 'side-turn', title: t('seat_turn', { whose: whoseOf(seat) }), text: '●' }) : null);
  const grid = h('div', { class: 'pile-grid' },
      pile('main', p.main_deck, back(p.main_deck), term('main_deck', t('pile_main'))),
      pile('tactics', p.tactics_deck, back(p.tactics_deck), term('tactics_deck', t('pile_tactics'))),
      pile('retreat', p.retreat.length, topRetreat, term('retreat', t('pile_retreat'))),
      pile('excluded', p.excluded.length, topExcl, term('excluded', t('pile_excluded'))));
  return mine ? [grid, head] : [head, grid];
}

export function renderCenter(v, keys) {
  const banner = $('#banner');
  const b = bannerInfo(v);
  banner.className = `banner ${b.cls}`;
  put(banner, 
    h('span', { class: 'banner-dot' }),
    h('span', { class: 'banner-text', text: b.text }),
    b.sub ? h('span', { class: 'banner-sub', text: b.sub }) : null);
  const staging = $('#staging');
  const parts = [];
  for (const seat of [1 - me(), me()]) {
    const p = v.players[seat];
    if (p.processing.length) {
      parts.push(h('div', { class: `stage-group ${seat === me() ? 'mine' : 'theirs'}` },
        h('div', { class: 'stage-label', text: `${seatName(seat)} · ${t('processing')}` }),
        h('div', { class: 'stage-cards' }, p.processing.map((c, i) => {
          const w = h('div', { class: 'stage-card', dataset: { zone: 'processing', seat, index: i + 1 } }, cardEl(c, { size: 's' }));
          return c.slug ? infoable(w, { type: 'card', card: c, seat, zone: 'processing' }) : w;
        }))));
    }
    if (p.reveal.length) {
      parts.push(h('div', { class: `stage-group ${seat === me() ? 'mine' : 'theirs'}` },
        h('div', { class: 'stage-label', text: `${seatName(seat)} · ${t('revealed')}` }),
        h('div', { class: 'stage-cards' }, p.reveal.map((c, i) => {
          const w = h('div', { class: 'stage-card', dataset: { zone: 'reveal', seat, index: i + 1 } },
            cardEl(c.face === 'up' ? c : null, { size: 's' }), h('span', { class: 'stage-no', text: i + 1 }));
          return c.slug ? infoable(w, { type: 'card', card: c, seat, zone: 'reveal' }) : w;
        }))));
    }
  }
  put(staging, ...parts);
  keys.set('staging', String(parts.length));
}

export function bannerInfo(v) {
  const h_ = v.history;
  if (S.replay) {
    const head = `${t('replay')} · ${t('step', { step: h_.step, steps: h_.steps })}`;
    const p = v.pending;
    if (v.match.over) {
      const w = v.match.winner;
      const who = isSpectator() ? t('match_win_seat', { who: seatName(w) }) : w === me() ? t('match_win_you') : t('match_win_opp');
      return { cls: 'history over', text: head, sub: `${t('match_over')} — ${who}` };
    }
    return { cls: 'history', text: head, sub: p ? `${seatName(p.seat)} · ${t(`pt_${p.prompt}`)}` : '' };
  }
  if (v.session.mode === 'com_vs_com' && !h_.live) {
    return { cls: 'history', text: t('history_view', { step: h_.step, steps: h_.steps }) };
  }
  if (v.match.over) {
    const w = v.match.winner;
    let text;
    if (isSpectator()) text = t('match_win_seat', { who: seatName(w) });
    else text = w === me() ? t('match_win_you') : t('match_win_opp');
    return { cls: 'over', text: `${t('match_over')} — ${text}` };
  }
  const ended = endedBanner(v);
  if (ended) return ended;
  const p = v.pending;
  if (!p) return { cls: 'wait', text: '' };
  const sub = v.priority != null ? t('priority', { who: seatName(v.priority) }) : (v.attack && v.attack.negated ? t('negated_attack') : '');
  if (isSpectator()) {
    return { cls: p.seat === me() ? 'spect mine' : 'spect theirs', text: `${t('spectating')} · ${t('waiting_seat', { who: seatName(p.seat) })}`, sub: `${t(`pt_${p.prompt}`)}${sub ? ` · ${sub}` : ''}` };
  }
  if (p.seat === me()) {
    return { cls: 'mine', text: p.prompt === 'chain' ? t('your_response') : t('your_move'), sub: sub || t(`pt_${p.prompt}`) };
  }
  const text = p.prompt === 'chain' ? t('waiting_opp') : t('opp_thinking');
  return { cls: 'theirs', text, sub };
}

/* ---------------------------------------------------------------- lanes */

/** A chain link of the view (or of the log) as a link of the shell's lane. */
function laneLink(link) {
  return {
    no: link.link, seat: link.seat, kind: link.kind, negated: link.negated, surprise: !!link.surprise,
    name: link.name || cardName(link.slug), meta: linkMeta(link),
    info: { type: 'card', card: { slug: link.slug, kind: link.kind, name: link.name }, zone: 'chain', link: link.link },
  };
}

function linkMeta(link) {
  const who = seatName(link.seat);
  let extra = '';
  if (link.target && link.target.slot) extra = ` → ${seatName(link.target.seat)} ${t('slot_n', { n: link.target.slot })}`;
  else if (link.negates) extra = ` · ${t('negates_n', { n: link.negates })}`;
  return who + extra;
}

function lastExchangeFromLog(v) {
  const log = v.log;
  let start = -1;
  for (let i = log.length - 1; i >= 0; i--) {
    if (log[i].kind === 'declare') { start = i; break; }
    if (log[i].kind === 'game_start') break;
  }
  if (start < 0) return null;
  const chain = [];
  const resolved = [];
  let closed = false;
  for (let i = start + 1; i < log.length; i++) {
    const e = log[i];
    if (e.kind === 'activate') {
      chain.push({ link: e.link, seat: e.seat, slug: e.card, kind: (cardDef(e.card) || {}).kind, name: cardName(e.card),
        target: e.target_slot ? { seat: e.target_seat, slot: e.target_slot } : null, negates: e.negates, negated: false });
    } else if (e.kind === 'surprise_flip' && e.link) {
      chain.push({ link: e.link, seat: e.seat, slug: e.card, kind: (cardDef(e.card) || {}).kind, name: cardName(e.card), negated: false, surprise: true });
    } else if (e.kind === 'chain_closed') closed = true;
    else if (e.kind === 'resolve') resolved.push({ link: e.link, slug: e.card, negated: !!e.negated });
  }
  if (!closed || !resolved.length) return null;
  const bySeat = new Map(chain.map((c) => [c.link, c]));
  const res = resolved.map((r) => ({ ...(bySeat.get(r.link) || { seat: -1, kind: (cardDef(r.slug) || {}).kind }), link: r.link, slug: r.slug, name: cardName(r.slug), negated: r.negated }));
  return { chain, resolved: res };
}

export function renderKoboLane(v) {
  let chain = v.chain;
  let resolved = v.resolved;
  let dim = false;
  if (!chain.length && !resolved.length) {
    const last = lastExchangeFromLog(v);
    if (last) {
      chain = [];
      resolved = last.resolved;
      dim = true;
    }
  }
  drawLane(chain, resolved, dim, dim ? t('last_exchange') : '');
}

/** Draw the lane with these links (a playback frame's), each with its card's pictogram. */
export function drawLane(chain, resolved, dim, note) {
  renderLane(chain.map(laneLink), resolved.map(laneLink), dim, note);
  for (const [list, links] of [['#lane-chain', chain], ['#lane-resolve', resolved]]) {
    const items = document.querySelectorAll(`${list} .lane-link`);
    links.forEach((l, i) => {
      const li = items[i];
      if (!li) return;
      li.dataset.link = String(l.link);
      const pict = iconEl(l.slug, 'link-pict');
      if (pict) li.querySelector('.link-body').prepend(pict);
      if (l.surprise) {
        li.classList.add('kb-sz-link');
        li.dataset.surprise = '1';
        li.querySelector('.link-name').prepend(h('span', { class: 'kb-sz-mark', title: t('sz_link_tip'), text: t('sz_mark') }));
      }
    });
  }
}

export function reasonText(reason) {
  const key = `reason_${reason}`;
  return t.has(key) ? t(key) : reason;
}

export function resultText(r) {
  if (r.winner == null || r.winner < 0) return t('draw_replay');
  if (isSpectator()) return t('winner_seat', { who: seatName(r.winner) });
  return r.winner === me() ? t('winner_you') : t('winner_opp');
}

export function renderResults(v) {
  const items = v.match.results.map((r, i) => h('li', { class: `result ${r.winner === me() ? 'mine' : r.winner < 0 ? 'tie' : 'theirs'}` },
    h('span', { class: 'r-game', text: t('game_no', { n: i + 1 }) }),
    h('span', { class: 'r-win', text: resultText(r) }),
    h('span', { class: 'r-why muted', text: `${reasonText(r.reason)} · ${t('turns_n', { n: r.turns })}` })));
  if (!v.match.over) {
    const label = t('game_no', { n: v.match.results.length + 1 });
    items.push(endedResult(v, label) || h('li', { class: 'result current' },
      h('span', { class: 'r-game', text: label }),
      h('span', { class: 'r-win muted', text: t('in_progress') })));
  }
  put($('#results'), ...items);
}

/* ---------------------------------------------------------------- COM's reasoning */
