// Project Maken: the face of a designer's draft card, for the card editor of the design screen
// (it asks through the registry: `game.draftFace`). The board's face (cardEl's look: the
// character's band and pictogram, the name, speed, distance and attack with their pictograms
// or a support card's duration, the gauge and the labels) drawn from one card of a card set's
// JSON form as it is being typed, not from the catalogue's card of that id.

import { charInfo, pict } from './maken-base.js';
import { tx } from './maken-strings.js';
import { h } from '../shell/dom.js';
import { S } from '../shell/state.js';

function stat(key, value) {
  return h('div', { class: `mk-stat mk-${key}` },
    h('span', { class: 'mk-st-k' }, pict(key), h('i', { text: tx(`st_${key}`) })), ' ',
    h('b', { text: value }));
}

/** The face of draft `card` (`{id, character, kind, spd, front, back, atk, cost, gain, labels,
 *  tags, duration, ...}`); `form` is the editor's form: its `words` for the labels. Its
 *  pictograms come with the catalogue (`ensureCatalog`). */
export function draftFace(card, form) {
  const en = S.settings.lang === 'en';
  const kind = card.kind === 'support' ? 'support' : 'attack';
  const ch = form.card.properties.character.enum.includes(card.character) ? card.character : 'GE';
  const info = charInfo(ch);
  const n = (v) => String(v ?? 0);
  const dist = (card.front ?? 0) === (card.back ?? 0) ? n(card.front) : `${n(card.front)}→${n(card.back)}`;
  const duration = card.duration === 'lasting' ? 'lasting' : 'turn';
  const words = (form.words && form.words.labels) || {};
  const marks = [
    card.cost ? h('span', { class: 'mk-cost' }, pict('gauge'), tx('cost_s', { n: card.cost })) : null,
    card.gain ? h('span', { class: 'mk-gain' }, pict('gauge'), tx('gain_s', { n: card.gain })) : null,
    ...(card.labels || []).map((l) => h('span', { class: 'mk-label', text: words[l] ? words[l][en ? 'en' : 'ja'] : l })),
    ...(card.tags || []).map((t) => h('span', { class: 'mk-label', text: t })),
  ].filter(Boolean);
  const name = String((en ? card.name_en || card.name_ja : card.name_ja || card.name_en) || '');
  return h('div', { class: `mk-card kind-${kind} ch-${ch} big` },
    h('div', { class: 'mk-c-head' }, pict(info ? info.icon : '', 'mk-c-ch'), h('div', { class: 'mk-c-name', text: name })), ' ',
    kind === 'attack'
      ? h('div', { class: 'mk-c-data' }, stat('spd', n(card.spd)), ' ', stat('dist', dist), ' ', stat('atk', n(card.atk)))
      : h('div', { class: `mk-c-data support du-${duration}` }, pict(duration), h('span', { text: tx(`du_${duration}`) })), ' ',
    h('div', { class: 'mk-c-foot' }, marks.flatMap((m, i) => (i ? [' ', m] : [m]))));
}
