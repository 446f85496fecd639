// Project Maken: CARD INFORMATION for the places of the Maken board (cards, fields, counts,
// the dust list), read again from the current view, and the start screen's Maken options
// (the two characters, picked as character cards with their deck's style, and the §14 rule
// switches).

import { cardName, cat, cdef, charInfo, charName, pict } from './maken-base.js';
import { cardEl, backEl } from './maken-board.js';
import { tx } from './maken-strings.js';
import { $$, h, put } from '../shell/dom.js';
import { infoable } from '../shell/info.js';
import { whoseOf } from '../shell/seats.js';
import { S } from '../shell/state.js';

/* ================================================================== CARD INFORMATION */

/** The facts of a face-up card: its face, name, kind and character, data, labels, text. */
function cardFacts(card, extra = []) {
  const d = cdef(card.card) || {};
  const data = card.data || d.data || {};
  const kind = card.kind || d.kind || 'attack';
  const stats = kind === 'attack'
    ? tx('data_line', { spd: data.spd, dist: card.distance || d.distance || '', atk: data.atk })
    : '';
  const costs = [data.cost ? tx('cost_n', { n: data.cost }) : '', data.gain ? tx('gain_n', { n: data.gain }) : ''].filter(Boolean).join(' · ');
  return [
    h('div', { class: 'info-card' }, cardEl(card, { cls: 'big' })),
    h('div', { class: 'info-main' },
      h('div', { class: 'info-name', text: card.name || d.name || cardName(card.card) }),
      h('div', { class: 'info-kind', text: `${tx(`kind_${kind}`)} · ${charName(card.character || d.character)}` }),
      stats ? h('div', { class: 'info-stats', text: stats }) : null,
      costs ? h('div', { class: 'info-stats muted', text: costs }) : null,
      ...extra,
      h('p', { class: 'info-text', text: card.text || d.text || '' })),
  ];
}

function hiddenFacts(where, note) {
  return [
    h('div', { class: 'info-card' }, backEl()),
    h('div', { class: 'info-main' },
      h('div', { class: 'info-name', text: tx('face_down') }),
      h('div', { class: 'info-where muted', text: where }),
      h('p', { class: 'info-text muted', text: note })),
  ];
}

function note(where, title, count, text) {
  return [h('div', { class: 'info-main wide' },
    h('div', { class: 'info-name', text: title }),
    count != null ? h('div', { class: 'info-count', text: count }) : null,
    where ? h('div', { class: 'info-where muted', text: where }) : null,
    h('p', { class: 'info-sub', text }))];
}

function where(text) {
  return h('div', { class: 'info-where muted', text });
}

/** CARD INFORMATION for an info the Maken board attached (null for another game's). */
export function renderInfo(v, info) {
  if (info.type !== 'mk') return null;
  const p = v.players[info.seat] || v.players[0];
  const whose = whoseOf(info.seat);
  switch (info.what) {
    case 'hand': {
      const c = p.hand.cards && p.hand.cards[info.index];
      return c ? cardFacts(c, [where(tx('where_hand', { whose }))]) : note('', tx('where_hand', { whose }), tx('n_cards', { n: p.hand.count }), tx('hand_hidden'));
    }
    case 'field': {
      const e = p.field[info.index];
      const at = tx('where_field', { whose });
      if (!e) return [];
      const top = info.index === p.field.length - 1 ? ` · ${tx('top_card')}` : '';
      if (e.face === 'down') {
        return hiddenFacts(`${at}${top}`, `${tx('face_down_extra')}: ${tx('copy_of', { name: e.name || e.copy_of, atk: e.atk })}${e.hit ? ` · ${tx('hit')}` : ''}`);
      }
      const flags = [e.hit ? tx('hit') : '', e.helper_paid ? tx('helper_paid') : ''].filter(Boolean).join(' · ');
      return cardFacts(e, [where(`${at}${top}`), flags ? h('div', { class: 'info-where', text: flags }) : null]);
    }
    case 'support': {
      const e = p.support[info.index];
      const at = tx('where_support', { whose });
      if (!e) return [];
      if (e.face === 'up') return cardFacts(e, [where(`${at} · ${tx('order_n', { n: e.order + 1 })} · ${tx('opened_turn', { n: e.opened_turn })}`)]);
      if (e.card) return cardFacts(e, [where(at), h('div', { class: 'info-where peek-note', text: tx('your_set') })]);
      return hiddenFacts(at, tx('set_hidden'));
    }
    case 'helper': {
      const c = p.helper && p.helper[0];
      const at = tx('where_helper', { whose });
      return c ? cardFacts(c, [where(at), h('p', { class: 'info-sub', text: tx('helper_note') })]) : note(at, tx('helper'), tx('empty'), tx('helper_note'));
    }
    case 'dust': {
      const list = h('ol', { class: 'pile-list mk-list' }, [...p.dust].reverse().map((c, i) =>
        infoable(h('li', { class: 'pile-item', text: c.name }), { type: 'mk', what: 'card', card: c, i })));
      return [h('div', { class: 'info-main wide' },
        h('div', { class: 'info-name', text: tx('where_dust', { whose }) }),
        h('div', { class: 'info-count', text: tx('n_cards', { n: p.dust.length }) }),
        h('p', { class: 'info-sub', text: tx('dust_note') }),
        p.dust.length ? list : null)];
    }
    case 'card': return cardFacts(info.card);
    case 'count': {
      const value = info.key === 'hand' ? p.hand.count : info.key === 'dust' ? p.dust.length : p[info.key];
      const n = value == null ? tx('hidden_n') : String(value);
      const downAt = (v.config && v.config.downAt) || 10;
      const texts = {
        lp: tx('lp_note'), stamina: tx('stamina_note'), gauge: tx('gauge_note'), damage: tx('damage_note', { n: downAt }),
        hand: p.hand.cards ? '' : tx('hand_hidden'), dust: tx('dust_note'),
      };
      // Whose count it is, in its title (相手のLP, Your LP): a bare 相手の says nothing.
      return note(null, tx('owned', { whose, what: tx(info.key) }), tx('n_cards', { n }), texts[info.key] || '');
    }
    default: return [];
  }
}

/** What the pointer over `target` shows in CARD INFORMATION (a card or count of the board). */
export function readable(target) {
  if (target.closest('#cardinfo')) return null;
  const el = target.closest('#mk-board .infoable');
  if (el && S.infoMap.has(el)) return S.infoMap.get(el);
  // A log line that names a card (a bet, an opening…) shows that card.
  const entry = target.closest('#log li.entry');
  const e = entry && S.view ? S.view.log[Number(entry.dataset.index)] : null;
  const id = e && typeof e.card === 'string' ? e.card : null;
  return id && cdef(id) ? { type: 'mk', what: 'card', card: { card: id } } : null;
}

/* ================================================================== start screen */

const SWITCH_KEYS = ['gb', 'bonusBet', 'bonusBetMax', 'lpTo', 'cleanup', 'downAt', 'exhaustion', 'supportCap'];

/** A character's card for the picker: a radio of the seat's group, with the character's
 *  pictogram, name and style; `full` adds the description, the deck's average numbers (速 間 攻
 *  with bars) and its card counts and signature card. */
function charCard(seat, code, checked, full) {
  const ci = charInfo(code);
  const deck = ci && ci.deck;
  const bar = (key, value, max) => h('div', { class: `mk-pk-stat mk-${key}` },
    h('span', { class: 'mk-st-k' }, pict(key), h('i', { text: tx(`st_${key}`) })),
    h('span', { class: 'mk-bar', 'aria-hidden': 'true' }, h('span', { class: 'mk-fill', style: `width: ${Math.round((100 * value) / max)}%` })),
    h('b', { text: value.toFixed(1) }));
  return h('label', { class: `mk-char-card ch-${code}${full ? ' full' : ' compact'}`, title: full || !ci ? null : ci.about },
    h('input', { type: 'radio', name: `mkdeck${seat}`, value: code, checked }),
    h('span', { class: 'mk-pk-head' },
      pict(ci ? ci.icon : '', `mk-portrait ch-${code}`),
      h('span', { class: 'mk-pk-id' },
        h('span', { class: 'mk-pk-name', text: charName(code) }),
        ci && ci.style ? h('span', { class: 'mk-pk-style', text: ci.style }) : null)),
    full && ci ? [
      h('span', { class: 'mk-pk-about', text: ci.about }),
      deck ? h('span', { class: 'mk-pk-stats' }, h('span', { class: 'mk-pk-avg', text: tx('pk_avg') }),
        bar('spd', deck.spd, 6), bar('dist', deck.front, 4), bar('atk', deck.atk, 5)) : null,
      deck ? h('span', { class: 'mk-pk-foot' },
        h('span', { text: tx('pk_cards', { a: deck.attack, s: deck.support, h: deck.helpers }) }),
        ci.signature_name ? h('span', { class: 'mk-pk-sig', text: tx('pk_signature', { c: ci.signature_name }) }) : null) : null,
    ] : null);
}

/** The Maken part of the start screen: both characters (as cards to pick) and the rule
 *  switches. The first seat's cards are whole (description and deck style); the second's
 *  are compact (their description in the title). */
export function renderStartOptions(box, ctx) {
  const defaults = ctx.meta.default_config || {};
  const c = cat();
  const keep = {};
  for (const input of $$('select', box)) keep[input.name] = input.value;
  for (const input of $$('input[type=radio]:checked', box)) keep[input.name] = input.value;
  const decks = c ? Object.keys(c.decks) : ['SO', 'RI', 'MI', 'GA'];
  const seatLabels = ctx.mode === 'vs_com' ? [tx('deck_you'), tx('deck_opp')] : [tx('deck_p1'), tx('deck_p2')];
  const defDecks = defaults.decks || ['SO', 'GA'];
  const deckPick = (i) => {
    const cur = decks.includes(keep[`mkdeck${i}`]) ? keep[`mkdeck${i}`] : defDecks[i];
    return h('fieldset', { class: `mk-pick seat-${i}`, id: `mk-deck-${i}` },
      h('legend', { text: seatLabels[i] }),
      h('div', { class: 'mk-pick-grid' }, decks.map((d) => charCard(i, d, d === cur, i === 0))));
  };
  const switches = c ? SWITCH_KEYS.map((k) => c.switches[k]).filter(Boolean) : [];
  put(box,
    h('div', { class: 'mk-decks' }, deckPick(0), deckPick(1)),
    h('details', { class: 'mk-switches' },
      h('summary', { text: tx('switches') }),
      switches.map((s) => {
        const values = [s.default, ...s.alternatives];
        const cur = s.key in keep ? keep[s.key] : JSON.stringify(s.key in defaults ? defaults[s.key] : s.default);
        // Each value by its name (the catalogue's `value_names`, in the same order).
        return h('label', { class: 'mk-switch' }, h('span', { text: `${s.name} — ${s.text}` }),
          h('select', { name: s.key, dataset: { switch: s.key } }, values.map((x, i) => h('option', {
            value: JSON.stringify(x), text: i === 0 ? tx('sw_default', { value: s.value_names[i] }) : s.value_names[i], selected: JSON.stringify(x) === cur,
          }))));
      })));
}

/** The character picked for seat `i` in the start options. */
function pickedDeck(box, i) {
  const r = $$(`#mk-deck-${i} input[type=radio]:checked`, box)[0];
  return r ? r.value : '';
}

/** The config the Maken options ask for: the two decks and the switches that differ. */
export function startConfig(box, ctx) {
  const defaults = ctx.meta.default_config || {};
  const config = { decks: [pickedDeck(box, 0), pickedDeck(box, 1)] };
  for (const sel of $$('select[data-switch]', box)) {
    const value = JSON.parse(sel.value);
    if (JSON.stringify(defaults[sel.name]) !== sel.value) config[sel.name] = value;
  }
  return { config };
}

