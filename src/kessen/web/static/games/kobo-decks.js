// Kōbō's part of the deck builder (the frame is shell/decks.js): the card pool with its filters
// (kind, Lv, keyword), the deck by section with counts and −/+ buttons, the starter decks a new
// deck may begin from, and the deck JSON's own fields (slug, names, style).
//
// It never judges a deck: the problems come from the server's check (the engine's deck rules).
// The section sizes below only label the counts.

import { cardDef, cat, catalogs, KIND_ORDER } from './kobo-board.js';
import { t } from './kobo-strings.js';
import { problemCount, savedDecks } from '../shell/decks.js';
import { $, h, put } from '../shell/dom.js';
import { S } from '../shell/state.js';

const SIZES = { main: 20, tactics: 15 };
const SECTION_KINDS = { main: ['character', 'deploy', 'trap'], tactics: ['tactic'] };
const MAX_ENTRY = 20; // the deck format's cap on one entry (a larger count is not a deck at all)
const STYLE = { ja: '自作のデッキ。', en: 'A deck of my own.' }; // a new deck's style line (deck data)

/** The pool's filters: kind ('' for all), Lv ('' for all) and a keyword. */
const F = { kind: '', lv: '', q: '' };

/** Which section a card goes to. */
function sectionOf(slug) {
  const d = cardDef(slug);
  return d && d.kind === 'tactic' ? 'tactics' : 'main';
}

function total(entries) {
  return Object.values(entries || {}).reduce((a, b) => a + b, 0);
}

/** The card's text below its kind line (a character has none). */
function bodyText(d) {
  return (d.text || '').split('\n').slice(1).join('\n');
}

function kindName(kind) {
  const d = Object.values(cat().cards).find((c) => c.kind === kind);
  return d ? d.kind_label : kind;
}

/* ---------------------------------------------------------------- the deck JSON */

function starterSlugs() {
  return new Set(Object.keys(cat().decks || {}));
}

/** A slug for a deck named `name`: from its letters, else the deck's own (never a starter's). */
function slugFor(name, current) {
  const starters = starterSlugs();
  const base = name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40)
    .replace(/-+$/, '');
  if (base) return starters.has(base) ? `${base}-custom` : base;
  if (current && !starters.has(current)) return current;
  return 'my-deck';
}

/** An empty deck. */
function blank() {
  return { slug: 'my-deck', name_ja: '', name_en: '', style_ja: STYLE.ja, style_en: STYLE.en, main: {}, tactics: {} };
}

/** The starter decks a new deck may begin from: {key, name, deck}. */
function starters() {
  return Object.values(cat().decks || {}).map((d) => {
    const ja = (catalogs.ja && catalogs.ja.decks[d.slug]) || d;
    const en = (catalogs.en && catalogs.en.decks[d.slug]) || d;
    return {
      key: d.slug,
      name: d.name,
      deck: {
        slug: d.slug, name_ja: ja.name, name_en: en.name, style_ja: ja.style, style_en: en.style,
        main: Object.fromEntries(d.main), tactics: Object.fromEntries(d.tactics),
      },
    };
  });
}

/** The deck's own name in `lang`. */
function nameOf(deck, lang) {
  if (!deck) return '';
  return (lang === 'en' ? deck.name_en || deck.name_ja : deck.name_ja || deck.name_en) || '';
}

/** The deck under the name the player gave it (its slug follows the name). */
function named(deck, name) {
  const shown = name.trim() || t('db_untitled');
  return { ...deck, slug: slugFor(shown, deck.slug), name_ja: shown, name_en: shown };
}

/** The deck with `delta` copies more of `slug` (in its section); null when nothing changes. */
function change(deck, slug, delta) {
  const section = sectionOf(slug);
  const entries = { ...(deck[section] || {}) };
  const n = Math.min((entries[slug] || 0) + delta, MAX_ENTRY);
  if (n === (entries[slug] || 0)) return null;
  if (n <= 0) delete entries[slug];
  else entries[slug] = n;
  return { ...deck, [section]: entries };
}

/** The deck's size in a few characters ("20/20 · 15/15"). */
function summary(deck) {
  return `${total(deck.main)}/${SIZES.main} · ${total(deck.tactics)}/${SIZES.tactics}`;
}

/* ---------------------------------------------------------------- the pool */

function matches(d) {
  if (F.kind && d.kind !== F.kind) return false;
  if (F.lv && (d.kind !== 'character' || String(d.lv) !== F.lv)) return false;
  if (!F.q) return true;
  const q = F.q.toLowerCase();
  return [d.name, d.text, d.slug].some((s) => String(s || '').toLowerCase().includes(q));
}

function filterBar(box) {
  const redraw = () => fillPool(box, box.ctx);
  const levels = [...new Set(Object.values(cat().cards).filter((d) => d.kind === 'character').map((d) => d.lv))].sort((a, b) => a - b);
  const kind = h('select', { id: 'dbk-kind', 'aria-label': t('db_kind') },
    h('option', { value: '', text: t('db_all') }),
    KIND_ORDER.map((k) => h('option', { value: k, text: kindName(k) })));
  const lv = h('select', { id: 'dbk-lv', 'aria-label': t('db_lv') },
    h('option', { value: '', text: t('db_all') }),
    levels.map((n) => h('option', { value: String(n), text: `Lv${n}` })));
  const q = h('input', { id: 'dbk-q', type: 'search', placeholder: t('db_search'), 'aria-label': t('db_search'), autocomplete: 'off' });
  kind.value = F.kind;
  lv.value = F.lv;
  q.value = F.q;
  kind.addEventListener('change', () => { F.kind = kind.value; redraw(); });
  lv.addEventListener('change', () => { F.lv = lv.value; redraw(); });
  q.addEventListener('input', () => { F.q = q.value.trim(); redraw(); });
  const clear = h('button', { type: 'button', class: 'link', text: t('db_clear_filters'), onclick: () => {
    F.kind = ''; F.lv = ''; F.q = '';
    kind.value = ''; lv.value = ''; q.value = '';
    redraw();
  } });
  return h('div', { class: 'dbk-filters' },
    h('label', null, h('span', { text: t('db_kind') }), kind),
    h('label', null, h('span', { text: t('db_lv') }), lv),
    h('label', { class: 'dbk-q' }, h('span', { text: t('db_search') }), q),
    clear);
}

function poolCard(d, ctx) {
  const have = (ctx.deck[sectionOf(d.slug)] || {})[d.slug] || 0;
  const text = bodyText(d);
  const tags = [d.kind_label, d.limited ? t('limited') : null].filter(Boolean).join(' · ');
  return h('button', {
    type: 'button', class: `dbk-card kind-${d.kind}${have ? ' in-deck' : ''}`, dataset: { slug: d.slug },
    title: t('db_add'), onclick: () => ctx.add(d.slug),
  },
  h('span', { class: 'dbk-head' },
    h('span', { class: `kind-dot kind-${d.kind}` }),
    h('span', { class: 'dbk-name', text: d.name }),
    d.kind === 'character' ? h('span', { class: 'dbk-lv', text: `Lv${d.lv}` }) : null,
    h('span', { class: 'dbk-have', text: have ? `×${have}` : '' })),
  h('span', { class: 'dbk-kind', text: tags }),
  text ? h('span', { class: 'dbk-text', text }) : null,
  h('span', { class: 'sr-only', text: ` — ${t('db_add')}` }));
}

function fillPool(box, ctx) {
  const list = $('.dbk-pool-list', box);
  const cards = Object.values(cat().cards)
    .filter(matches)
    .sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || (a.lv || 0) - (b.lv || 0));
  put(list, cards.length ? cards.map((d) => poolCard(d, ctx)) : h('p', { class: 'muted', text: t('db_no_cards') }));
  $('.dbk-pool-count', box).textContent = t('db_n_cards', { n: cards.length });
}

/** Draw the pool into `box` (its filters are drawn once per box, so they keep the focus while
 *  the deck changes); `ctx` = {deck, add(slug)}. */
function renderPool(box, ctx) {
  box.ctx = ctx;
  if (!$('.dbk-pool-list', box)) {
    put(box, filterBar(box), h('p', { class: 'dbk-pool-count muted' }), h('div', { class: 'dbk-pool-list' }));
  }
  fillPool(box, ctx);
}

/* ---------------------------------------------------------------- the deck */

function row(slug, n, ctx, flagged) {
  const d = cardDef(slug);
  const name = d ? d.name : slug;
  return h('li', { class: `dbk-row${flagged ? ' has-problem' : ''}`, dataset: { slug } },
    h('span', { class: `kind-dot kind-${d ? d.kind : 'unknown'}` }),
    h('span', { class: 'dbk-row-name', text: name, title: d ? bodyText(d) : '' }),
    d && d.kind === 'character' ? h('span', { class: 'dbk-lv', text: `Lv${d.lv}` }) : null,
    h('span', { class: 'dbk-row-ctl' },
      h('button', { type: 'button', class: 'dbk-minus', text: '−', 'aria-label': `${name} — ${t('db_remove')}`, title: t('db_remove'), onclick: () => ctx.change(slug, -1) }),
      h('span', { class: 'dbk-n', text: String(n) }),
      h('button', { type: 'button', class: 'dbk-plus', text: '+', 'aria-label': `${name} — ${t('db_add')}`, title: t('db_add'), onclick: () => ctx.change(slug, 1) })));
}

/** Draw the deck by section and kind; `ctx` = {deck, change(slug, delta), problems}. */
function renderDeck(box, ctx) {
  const flagged = new Set((ctx.problems || []).map((p) => `${p.section}:${p.slug}`));
  const sections = ['main', 'tactics'].map((section) => {
    const entries = ctx.deck[section] || {};
    const n = total(entries);
    const groups = new Map(SECTION_KINDS[section].map((k) => [k, []]));
    const other = [];
    for (const [slug, count] of Object.entries(entries)) {
      const d = cardDef(slug);
      (d && groups.has(d.kind) ? groups.get(d.kind) : other).push([slug, count]);
    }
    const lists = [...groups.entries(), ['other', other]].filter(([, items]) => items.length).map(([kind, items]) => h('div', { class: `dbk-group kind-${kind}` },
      h('div', { class: 'dbk-group-head' },
        h('span', { text: kind === 'other' ? t('db_other') : kindName(kind) }),
        h('span', { class: 'dbk-group-n', text: `×${items.reduce((a, [, c]) => a + c, 0)}` })),
      h('ul', null, items.map(([slug, count]) => row(slug, count, ctx, flagged.has(`${section}:${slug}`))))));
    return h('section', { class: `dbk-section${n === SIZES[section] ? ' full' : ''}`, dataset: { section } },
      h('h3', null,
        h('span', { text: t(section === 'main' ? 'main_deck' : 'tactics_deck') }),
        h('span', { class: 'dbk-section-n', text: `${n}/${SIZES[section]}` })),
      lists.length ? lists : h('p', { class: 'muted', text: t('db_empty_section') }));
  });
  put(box, h('div', { class: 'dbk-sections' }, sections));
}

/** Kōbō's hook of the deck builder (see shell/registry.js `deckBuilder`). */
export const builder = {
  blank,
  starters,
  nameOf,
  named,
  change,
  summary,
  renderPool,
  renderDeck,
};

/* ---------------------------------------------------------------- the start screen's deck selects */

const SAVED = 'saved:';
let bound = false;

/** The match options a saved deck needs that the start screen has not ticked, by label. The
 *  server's check hands back the list with its `requires` (as a deck file says it, e.g. an
 *  imported 伏兵の計); a game with such a deck and the option off is refused. */
function missingOptions(d) {
  const requires = (d.deck && Array.isArray(d.deck.requires)) ? d.deck.requires : [];
  const options = cat().options || {};
  return requires
    .filter((name) => !($(`#kobo-options input[name="${CSS.escape(name)}"]`) || {}).checked)
    .map((name) => (options[name] ? options[name].label : name));
}

/** A saved deck's option in a deck select: its name, or why it cannot be chosen now (its
 *  problems, else the match options it needs). */
function fillSavedOption(o, d) {
  const missing = d.problems.length ? [] : missingOptions(d);
  o.disabled = d.problems.length > 0 || missing.length > 0;
  o.title = d.problems.length ? d.problems.map((p) => p.text).join('\n') : missing.join('\n');
  o.textContent = d.problems.length ? t('db_saved_invalid', { name: d.name, problems: problemCount(d.problems.length) })
    : missing.length ? t('db_saved_invalid', { name: d.name, problems: missing.join('・') }) : d.name;
  return o;
}

/** The saved decks for a deck select (below the starter decks): an optgroup, or null when
 *  there are none. A deck with problems, or one that needs a match option that is off, is
 *  listed but cannot be chosen. `redraw` runs once they are fetched (the first time, or in a
 *  new language). */
export function savedDeckGroup(redraw) {
  const saved = savedDecks('kobo', redraw);
  if (!saved.length) return null;
  return h('optgroup', { label: t('db_saved_group'), dataset: { saved: '1' } },
    saved.map((d) => fillSavedOption(h('option', { value: `${SAVED}${d.id}` }), d)));
}

/** Once the deck selects are drawn: the saved decks last in each select, the line under a
 *  select that shows a saved deck, and no deck list button for it (its list is read in the
 *  deck builder). */
export function showSavedDecks() {
  if (!bound) {
    // Other start options (the surprise zone's checkbox) draw the selects' lines again: the line
    // of a saved deck comes back after them.
    bound = true;
    $('#kobo-options').addEventListener('change', () => showSavedDecks());
  }
  for (const side of [0, 1]) {
    const sel = $(`#deck-${side}`);
    const group = $('optgroup[data-saved]', sel);
    if (group && group.nextSibling) sel.append(group);
    // A match option switched off (or on): the saved decks that need it follow; a select left
    // on one that cannot be chosen now falls back to its default deck.
    for (const o of group ? group.querySelectorAll('option') : []) {
      const d = savedOf(o.value);
      if (d) fillSavedOption(o, d);
    }
    if (sel.selectedOptions[0] && sel.selectedOptions[0].disabled) {
      const defaults = (S.meta && S.meta.rulesets.kobo && S.meta.rulesets.kobo.default_decks) || [];
      sel.value = defaults[side] || (sel.options[0] ? sel.options[0].value : '');
      const starter = (cat().decks || {})[sel.value];
      $(`#deck-style-${side}`).textContent = starter ? starter.style : '';
    }
    const d = savedOf(sel.value);
    if (d) $(`#deck-style-${side}`).textContent = t('db_saved_style', { size: summary(d.deck) });
    $(`[data-show-deck="${side}"]`).hidden = !!d;
  }
}

function savedOf(value) {
  if (!String(value).startsWith(SAVED)) return null;
  const id = Number(String(value).slice(SAVED.length));
  return savedDecks('kobo').find((d) => d.id === id) || null;
}

/** What `POST /api/games` gets for a deck select's value: a starter's name or {saved: id}. */
export function deckRef(value) {
  return String(value).startsWith(SAVED) ? { saved: Number(String(value).slice(SAVED.length)) } : value;
}
