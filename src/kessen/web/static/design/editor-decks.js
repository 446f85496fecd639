// The card editor's starter decks: a deck's section as its card list with counts (in the order
// the deal starts from: reorder, remove, add a card of the set that the section holds), and a
// card's copies in every starter deck (on the card's own form). The set's data is edited in
// place; the deck rules are the server's (their problems land on the section or the card's
// row by their paths: `decks[0].main`, `decks[0].main.oni-warlord`).

import { h } from '../shell/dom.js';
import { nameIn } from './editor-face.js';
import { et } from './editor-strings.js';
import { fieldLabel, keyPart } from './editor-fields.js';

let UID = 0;
const uid = () => `ed-d${++UID}`;

/** The starter decks of set data as `[{key, index, path, deck, name}]` (Kōbō: a list of decks;
 *  Maken: decks by name). */
export function decksOf(data, form) {
  if (form.decks_keyed) {
    return Object.entries(data.decks || {}).map(([key, deck], index) => ({
      key, index, path: `decks.${keyPart(key)}`, deck, name: et('ed_deck_name', { name: key }),
    }));
  }
  return (data.decks || []).map((deck, index) => ({
    key: String(deck.slug || index), index, path: `decks[${index}]`, deck, name: nameIn(deck) || String(deck.slug || index),
  }));
}

/** The section of a deck that holds a card of `kind` (Kōbō: main or tactics). */
export function sectionFor(form, kind) {
  const found = Object.entries(form.sections).find(([, s]) => s.kinds.includes(kind));
  return found ? found[0] : Object.keys(form.sections)[0];
}

function cardsByKey(data, form) {
  const out = new Map();
  for (const c of data.cards || []) if (c && c[form.key] != null) out.set(String(c[form.key]), c);
  return out;
}

function total(entries) {
  return Object.values(entries || {}).reduce((a, b) => a + (Number(b) || 0), 0);
}

/** `entries` (a section's {key: count}) with `key` at `count` (0: out), its place kept, a new
 *  one at the end. */
export function withCount(entries, key, count) {
  const out = {};
  let seen = false;
  for (const [k, v] of Object.entries(entries || {})) {
    if (k === key) {
      seen = true;
      if (count > 0) out[k] = count;
    } else {
      out[k] = v;
    }
  }
  if (!seen && count > 0) out[key] = count;
  return out;
}

/** Every deck's lists with card `from` named `to` (a card's key renamed), in place. */
export function renameInDecks(data, form, from, to) {
  for (const { deck } of decksOf(data, form)) {
    for (const section of Object.keys(form.sections)) {
      const entries = deck[section];
      if (!entries || !(from in entries)) continue;
      deck[section] = Object.fromEntries(Object.entries(entries).map(([k, v]) => [k === from ? to : k, v]));
    }
  }
}

/** Every deck's lists without card `key`, in place. */
export function dropFromDecks(data, form, key) {
  for (const { deck } of decksOf(data, form)) {
    for (const section of Object.keys(form.sections)) {
      if (deck[section] && key in deck[section]) deck[section] = withCount(deck[section], key, 0);
    }
  }
}

function cardLabel(card, key, form) {
  if (!card) return et('ed_unknown_card', { key });
  const name = nameIn(card) || key;
  if (form.ruleset === 'kobo' && card.kind === 'character' && card.lv != null) return `${name} Lv${card.lv}`;
  return name;
}

/** A deck's section `key` of `deck` as its card list with counts (the count map widget of
 *  editor-fields.js, with the set's cards for names and for what may be added). */
export function countMap(ctx, data, deck, key, schema, path) {
  const form = ctx.form;
  const spec = form.sections[key] || { kinds: [], size: 0 };
  const entries = deck[key] || {};
  const keys = Object.keys(entries);
  const cards = cardsByKey(data, form);
  const max = schema.additionalProperties.maximum ?? 99;
  const now = () => deck[key] || {};
  const set = (next) => {
    deck[key] = next;
    ctx.onStructure();
  };
  const move = (i, j) => {
    const order = keys.slice();
    [order[i], order[j]] = [order[j], order[i]];
    set(Object.fromEntries(order.map((k) => [k, now()[k]])));
  };
  const rows = keys.map((k, i) => {
    const id = uid();
    const label = cardLabel(cards.get(k), k, form);
    const input = h('input', {
      id, type: 'number', min: '1', max: String(max), step: '1', inputmode: 'numeric', value: String(entries[k]),
      'aria-label': et('ed_count', { name: label }), dataset: { fkey: `${path}.${k}` },
      oninput: (ev) => {
        const raw = ev.target.value.trim();
        deck[key] = { ...now(), [k]: raw === '' ? 0 : Number(raw) };
        count.textContent = et('ed_deck_total', { n: total(deck[key]), size: spec.size });
        ctx.onInput();
      },
    });
    const card = cards.get(k);
    const btn = (text, what, onclick, disabled, f) => h('button', {
      type: 'button', class: 'tool ed-tool', text, title: `${label}: ${what}`, 'aria-label': `${label}: ${what}`, disabled, onclick, dataset: { fkey: `${path}.${k}${f}` },
    });
    return h('li', { class: 'ed-field ed-count-row', dataset: { path: `${path}.${keyPart(k)}` } },
      h('span', { class: `kind-dot kind-${card ? card.kind : 'none'}`, 'aria-hidden': 'true' }),
      h('label', { class: 'ed-count-name', for: id, text: label }),
      input,
      h('span', { class: 'ed-item-tools' },
        btn('↑', et('ed_up'), () => move(i, i - 1), i === 0, '^'),
        btn('↓', et('ed_down'), () => move(i, i + 1), i === keys.length - 1, 'v'),
        btn('×', et('ed_remove'), () => set(withCount(now(), k, 0)), false, 'x')),
      h('div', { class: 'ed-msg', 'aria-live': 'polite' }));
  });
  const addable = Array.from(cards.entries()).filter(([k, c]) => !(k in entries) && spec.kinds.includes(c.kind));
  const pickId = uid();
  const pick = h('select', { id: pickId, dataset: { fkey: `${path}+pick` } },
    addable.map(([k, c]) => h('option', { value: k, text: cardLabel(c, k, form) })));
  const add = h('div', { class: 'ed-count-add' },
    h('label', { class: 'ed-label', for: pickId, text: et('ed_pick_card') }), pick,
    h('button', {
      type: 'button', class: 'tool ed-add', text: `＋ ${et('ed_add')}`, disabled: !addable.length, dataset: { fkey: `${path}+add` },
      onclick: () => { if (pick.value) set(withCount(now(), pick.value, 1)); },
    }));
  const count = h('span', { class: 'ed-total', text: et('ed_deck_total', { n: total(entries), size: spec.size }) });
  return h('fieldset', { class: 'ed-field ed-group ed-counts', dataset: { path, section: key } },
    h('legend', { class: 'ed-legend' }, h('span', { text: fieldLabel(key) }), ' ', count),
    h('ol', { class: 'ed-count-list' }, rows),
    addable.length ? add : null,
    h('div', { class: 'ed-msg', 'aria-live': 'polite' }));
}

/** A card's copies in every starter deck: one number per deck, in the section that holds its
 *  kind (0: not in the deck). */
export function copiesOf(ctx, data, card) {
  const form = ctx.form;
  const key = String(card[form.key] ?? '');
  const section = sectionFor(form, card.kind);
  const rows = decksOf(data, form).map(({ deck, name, path }) => {
    const id = uid();
    const entries = deck[section] || {};
    const where = Object.keys(form.sections).length > 1
      ? et('ed_copies_deck', { deck: name, section: fieldLabel(section) })
      : name;
    return h('div', { class: 'ed-field ed-copy', dataset: { path: `${path}.${section}.${keyPart(key)}` } },
      h('label', { class: 'ed-label', for: id, text: where }),
      h('input', {
        id, type: 'number', min: '0', step: '1', inputmode: 'numeric', value: String(entries[key] || 0),
        dataset: { fkey: `copies:${path}` },
        oninput: (ev) => {
          const n = Number(ev.target.value.trim() || 0);
          deck[section] = withCount(deck[section] || {}, key, n);
          ctx.onInput();
        },
      }),
      h('div', { class: 'ed-msg', 'aria-live': 'polite' }));
  });
  return h('section', { class: 'ed-copies' },
    h('h3', { class: 'ed-h3', text: et('ed_copies') }),
    h('div', { class: 'ed-grid' }, rows));
}
