// Kōbō: the face of a designer's draft card, for the card editor of the design screen (it asks
// through the registry: `game.draftFace`). The board's face (cardEl's look: band, Lv or kind
// glyph, pictogram, name, kind) drawn from one card of a card set's JSON form as it is being
// typed, its pictogram from the editor's form (every vendored icon, /api/design/games/kobo/form)
// rather than from the catalogue, which knows only the cards of a card data version.

import { kindGlyph } from './kobo-board.js';
import { h } from '../shell/dom.js';
import { S } from '../shell/state.js';
import { safeSvg } from '../shell/svg.js';

const SVG = new Map();

function icon(form, name) {
  if (!SVG.has(name)) SVG.set(name, safeSvg(form.icons[name]));
  const tpl = SVG.get(name);
  return tpl ? tpl.cloneNode(true) : null;
}

/** The face of draft `card` (`{slug, kind, name_ja, name_en, icon, lv, ...}`); `form` is the
 *  editor's form: its `icons` and its `words` for the kinds. */
export function draftFace(card, form) {
  const kinds = form.card.properties.kind.enum;
  const kind = kinds.includes(card.kind) ? card.kind : kinds[0];
  const en = S.settings.lang === 'en';
  const name = String((en ? card.name_en || card.name_ja : card.name_ja || card.name_en) || '');
  const el = h('div', { class: `card kind-${kind} size-l`, dataset: { slug: String(card.slug || '') } });
  el.append(h('div', { class: 'card-band' }));
  if (kind === 'character') el.append(h('div', { class: 'card-lv', text: card.lv != null ? String(card.lv) : '' }));
  else el.append(h('div', { class: 'card-icon', text: kindGlyph(kind) }));
  const art = card.icon && form.icons[card.icon] ? icon(form, card.icon) : null;
  el.append(art
    ? h('span', { class: 'card-art pict', dataset: { icon: card.icon } }, art)
    : h('div', { class: 'card-art', text: Array.from(name)[0] || '' }));
  el.append(h('div', { class: 'card-name', text: name }));
  const word = form.words && form.words.kind && form.words.kind[kind];
  el.append(h('div', { class: 'card-kind', text: word ? word[en ? 'en' : 'ja'] : kind }));
  return el;
}
