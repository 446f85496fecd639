// TWGP's part of the deck builder (the frame is shell/decks.js): a build of the 26-card pool
// (27 with jokers) into vitals, starting hand, deck and cards set aside, with the pool's filters
// (kind, base power, keyword), and the start screen's build selects (ゲーム中に構築 or a saved
// build, for each seat).
//
// It never judges a build: the problems come from the server's check (the config's own build
// rule, games/twgp/build_rules.py), and so do the warnings about a legal build that cannot act
// (games/twgp/dead_builds.py; the shell's builder shows them). The limits below only label the
// counts. A build is kept in ♠♣; the server plays it in ♥♦ for seat 1.

import { cat, ensureCatalog } from './twgp-base.js';
import { tx } from './twgp-strings.js';
import { problemCount, savedDecks } from '../shell/decks.js';
import { $, h, put } from '../shell/dom.js';
import { S } from '../shell/state.js';

const PARTS = ['vitals', 'hand', 'deck', 'aside']; // the places a card may go, in screen order
const LISTED = ['vitals', 'hand', 'aside']; // the lists a build names (the deck is the rest)
const VITALS = 3;
const HAND = 6;
const DECK = 20;
const SUITS = { s: 0, c: 1 }; // ♠ before ♣, as the in-game pool shows them
const asideCount = (jokers) => (jokers ? 4 : 3);

/** The pool's filters: kind ('' for all), base power ('' for all), place and a keyword. */
const F = { kind: '', base: '', part: '', q: '' };

/* ---------------------------------------------------------------- the build JSON */

/** The cards of seat 0's pool (♠ then ♣ by rank; the black joker last with jokers). */
function poolCards(jokers) {
  const c = cat();
  if (!c) return [];
  return Object.values(c.cards)
    .filter((d) => d.seat === 0 && (jokers || !d.joker))
    .sort((a, b) => (a.joker - b.joker) || (SUITS[a.suit] ?? 2) - (SUITS[b.suit] ?? 2) || a.rank - b.rank);
}

/** Where a card of the pool is in `deck`: vitals, hand, aside or deck (the rest). */
function partOf(deck, slug) {
  for (const part of LISTED) if ((deck[part] || []).includes(slug)) return part;
  return 'deck';
}

/** The slugs in each place, in pool order ({vitals, hand, deck, aside}); the hand is also in
 *  the deck's count. */
function placed(deck) {
  const out = { vitals: [], hand: [], deck: [], aside: [] };
  for (const d of poolCards(deck.jokers)) out[partOf(deck, d.slug)].push(d.slug);
  for (const part of LISTED) for (const slug of deck[part] || []) if (!out[part].includes(slug)) out[part].push(slug);
  return out;
}

/** Count and limit of a place ("the deck" counts its starting hand). */
function counts(deck) {
  const p = placed(deck);
  return {
    vitals: [p.vitals.length, VITALS],
    hand: [p.hand.length, HAND],
    deck: [p.deck.length + p.hand.length, DECK],
    aside: [p.aside.length, asideCount(deck.jokers)],
  };
}

function fits(part, [n, limit]) {
  return part === 'hand' ? n <= limit : n === limit;
}

/** An empty build: every card in the deck. */
function blank() {
  return { name: '', jokers: false, vitals: [], hand: [], aside: [] };
}

/** `deck` with `slug` moved to `part`. */
function moved(deck, slug, part) {
  const next = { ...deck };
  for (const p of LISTED) next[p] = (deck[p] || []).filter((s) => s !== slug);
  if (part !== 'deck') next[part] = [...next[part], slug];
  return next;
}

/** `deck` for a pool with or without the joker (the joker leaves every list without it). */
function withJokers(deck, jokers) {
  const next = { ...deck, jokers };
  if (!jokers) for (const p of LISTED) next[p] = (deck[p] || []).filter((s) => !(cat().cards[s] || {}).joker);
  return next;
}

/** The frame's −: a card goes back to the deck (null when it is there already). */
function change(deck, slug, delta) {
  if (delta > 0 || partOf(deck, slug) === 'deck') return null;
  return moved(deck, slug, 'deck');
}

function nameOf(deck) {
  return (deck && deck.name) || '';
}

function named(deck, name) {
  return { ...deck, name: (name.trim() || tx('bd_untitled')).slice(0, 60) };
}

/** The build's sizes in a few characters ("V3 · H2 · D20 · X3"). */
function summary(deck) {
  const c = counts(deck);
  return PARTS.map((p) => `${tx(`bd_short_${p}`)}${c[p][0]}`).join(' · ');
}

/* ---------------------------------------------------------------- the pool */

function matches(d, deck) {
  if (F.kind && d.kind !== F.kind) return false;
  if (F.base !== '' && String(d.base) !== F.base) return false;
  if (F.part && partOf(deck, d.slug) !== F.part) return false;
  if (!F.q) return true;
  const q = F.q.toLowerCase();
  return [d.name, d.text, d.slug, d.label].some((s) => String(s || '').toLowerCase().includes(q));
}

function filterBar(box) {
  const redraw = () => fillPool(box, box.ctx);
  const select = (id, label, value, options, set) => {
    const el = h('select', { id, 'aria-label': label },
      h('option', { value: '', text: tx('bd_all') }),
      options.map(([v, text]) => h('option', { value: v, text })));
    el.value = value;
    el.addEventListener('change', () => { set(el.value); redraw(); });
    return h('label', null, h('span', { text: label }), el);
  };
  const bases = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => [String(n), String(n).padStart(2, '0')]);
  const q = h('input', { id: 'twd-q', type: 'search', placeholder: tx('bd_search'), 'aria-label': tx('bd_search'), autocomplete: 'off' });
  q.value = F.q;
  q.addEventListener('input', () => { F.q = q.value.trim(); redraw(); });
  const jokers = h('input', { id: 'twd-jokers', type: 'checkbox' });
  jokers.addEventListener('change', () => box.ctx.set(withJokers(box.ctx.deck, jokers.checked)));
  return h('div', { class: 'twd-filters' },
    select('twd-kind', tx('bd_kind'), F.kind, [['unit', tx('bd_unit')], ['weapon', tx('bd_weapon')]], (v) => { F.kind = v; }),
    select('twd-base', tx('base'), F.base, bases, (v) => { F.base = v; }),
    select('twd-part', tx('bd_place'), F.part, PARTS.map((p) => [p, tx(`bd_${p}`)]), (v) => { F.part = v; }),
    h('label', { class: 'twd-q' }, h('span', { text: tx('bd_search') }), q),
    h('button', { type: 'button', class: 'link', text: tx('bd_clear_filters'), onclick: () => {
      F.kind = ''; F.base = ''; F.part = ''; F.q = '';
      box.replaceChildren();
      renderPool(box, box.ctx);
    } }),
    h('label', { class: 'choice twd-jokers' }, jokers, h('span', { text: tx('bd_jokers') })));
}

function poolCard(d, ctx) {
  const here = partOf(ctx.deck, d.slug);
  const kind = d.kind === 'unit' ? `${tx('bd_unit')} · ${tx('base')} ${String(d.base).padStart(2, '0')}` : tx('bd_weapon');
  return h('div', { class: `twd-card kind-${d.kind} at-${here}`, dataset: { slug: d.slug }, role: 'group', 'aria-label': `${d.label} ${d.name}` },
    h('div', { class: 'twd-head' },
      h('span', { class: `twd-label suit-${d.joker ? 'j' : d.suit}`, text: d.label }),
      h('span', { class: 'twd-name', text: d.name })),
    h('span', { class: 'twd-kind', text: kind }),
    h('span', { class: 'twd-text', text: d.text }),
    h('div', { class: 'twd-places' }, PARTS.map((part) => h('button', {
      type: 'button',
      class: `twd-to to-${part}${here === part ? ' on' : ''}`,
      dataset: { to: part },
      'aria-pressed': String(here === part),
      'aria-label': `${d.label} — ${tx(`bd_${part}`)}`,
      text: tx(`bd_${part}`),
      onclick: () => { if (here !== part) ctx.set(moved(ctx.deck, d.slug, part)); },
    }))));
}

function fillPool(box, ctx) {
  const cards = poolCards(ctx.deck.jokers).filter((d) => matches(d, ctx.deck));
  put($('.twd-pool-list', box), cards.length ? cards.map((d) => poolCard(d, ctx)) : h('p', { class: 'muted', text: tx('bd_no_cards') }));
  $('.twd-pool-count', box).textContent = tx('bd_n_cards', { n: cards.length });
  $('#twd-jokers', box).checked = !!ctx.deck.jokers;
}

/** Draw the pool into `box` (its filters once per box, so they keep the focus);
 *  `ctx` = {deck, set(deck)}. */
function renderPool(box, ctx) {
  box.ctx = ctx;
  if (!cat()) {
    ensureCatalog(S.settings.lang).then(() => renderPool(box, box.ctx)).catch(() => {});
    return;
  }
  if (!$('.twd-pool-list', box)) {
    put(box, filterBar(box), h('p', { class: 'twd-pool-count muted' }), h('div', { class: 'twd-pool-list' }));
  }
  fillPool(box, ctx);
}

/* ---------------------------------------------------------------- the build by place */

/** Draw the four places with their counts against their limits; a card's × sends it back to
 *  the deck. `ctx` = {deck, problems, change(slug, -1)}. */
function renderDeck(box, ctx) {
  if (!cat()) {
    ensureCatalog(S.settings.lang).then(() => renderDeck(box, ctx)).catch(() => {});
    return;
  }
  const flagged = new Set((ctx.problems || []).flatMap((p) => (p.params && p.params.cards) || []));
  const p = placed(ctx.deck);
  const c = counts(ctx.deck);
  const chip = (slug, part) => {
    const d = cat().cards[slug] || { label: slug, name: slug };
    return h('li', { class: `twd-chip${flagged.has(slug) ? ' has-problem' : ''}`, dataset: { slug } },
      h('span', { class: 'twd-chip-label', text: d.label, title: d.name }),
      part === 'deck' ? null : h('button', {
        type: 'button', class: 'twd-back', text: '×', title: tx('bd_to_deck'),
        'aria-label': `${d.label} — ${tx('bd_to_deck')}`, onclick: () => ctx.change(slug, -1),
      }));
  };
  const sections = PARTS.map((part) => {
    const [n, limit] = c[part];
    const shown = part === 'hand' ? `${n}/≤${limit}` : `${n}/${limit}`;
    return h('section', { class: `twd-section${fits(part, c[part]) ? ' full' : ''}`, dataset: { part } },
      h('h3', null,
        h('span', { text: tx(`bd_${part}`) }),
        part === 'deck' ? h('span', { class: 'twd-note muted', text: tx('bd_deck_note') }) : null,
        h('span', { class: 'twd-section-n', text: shown })),
      p[part].length ? h('ul', { class: 'twd-chips' }, p[part].map((slug) => chip(slug, part)))
        : h('p', { class: 'muted', text: tx('bd_empty') }));
  });
  put(box, h('div', { class: 'twd-sections' }, sections));
}

/** TWGP's hook of the deck builder (see shell/registry.js `deckBuilder`). */
/** The frame's words where TWGP says "build" (構築) for "deck". */
const WORDS = {
  ja: {
    db_saved: '保存した構築', db_none_saved: '保存した構築はまだありません。',
    db_no_store: 'このサーバーは構築を保存しません（記録なしで起動しています）。確認・インポート・エクスポートは使えます。',
    db_remote: '保存した構築は、このサーバーを動かしているマシンのプレイヤーのものです。確認・インポート・エクスポートは使えます。',
    db_new_from: '新しく作る', db_blank: 'はじめから', db_name: '構築名', db_untitled: '新しい構築',
    db_import_hint: '構築ファイル（.toml）の中身を貼り付けるか、ファイルを選んでください。',
    db_import_errors: 'この構築ファイルは読み込めません：', db_deck: '編集中の構築',
    db_err: '構築を保存・変更できませんでした',
  },
  en: {
    db_saved: 'Saved builds', db_none_saved: 'No saved builds yet.',
    db_no_store: 'This server keeps no builds (it runs without a store). Checking, import and export still work.',
    db_remote: 'Saved builds belong to the player at the machine that runs this server. Checking, import and export still work.',
    db_new_from: 'New build', db_blank: 'From scratch', db_name: 'Build name', db_untitled: 'New build',
    db_import_hint: 'Paste a build file (.toml) or choose one.', db_import_errors: 'This build file cannot be read:',
    db_deck: 'Your build', db_err: 'The build could not be saved or changed',
  },
};

export const builder = {
  words: WORDS,
  blank,
  starters: () => [],
  nameOf,
  named,
  change,
  summary,
  renderPool,
  renderDeck,
};

/* ---------------------------------------------------------------- the start screen's build selects */

const SAVED = 'saved:';

function savedOf(value) {
  if (!String(value).startsWith(SAVED)) return null;
  const id = Number(String(value).slice(SAVED.length));
  return savedDecks('twgp').find((d) => d.id === id) || null;
}

/** Why a saved build cannot be chosen with the options ticked now ('' when it can). */
function whyNot(d, box) {
  if (d.problems.length) return problemCount(d.problems.length);
  const jokers = !!($('input[name="jokers"]', box) || {}).checked;
  if (!!d.deck.jokers !== jokers) return tx(d.deck.jokers ? 'bd_needs_jokers' : 'bd_no_jokers');
  return '';
}

function fillOption(o, d, box) {
  const why = whyNot(d, box);
  o.disabled = !!why;
  o.title = d.problems.length ? d.problems.map((p) => p.text).join('\n') : why;
  o.textContent = tx(why ? 'bd_saved_invalid' : 'bd_saved_option', { name: d.name, why, size: summary(d.deck) });
  return o;
}

/** The two build selects (your seat, the other seat): ゲーム中に構築 or a saved build. Their
 *  values are kept across redraws by `keep` (the start options' own values by name). */
export function buildSelects(box, ctx, keep, redraw) {
  const saved = savedDecks('twgp', redraw);
  const other = ctx.mode === 'vs_com' ? 'bd_seat_com' : (ctx.mode === 'com_vs_com' ? 'bd_seat_top' : 'bd_seat_other');
  const mine = ctx.mode === 'com_vs_com' ? 'bd_seat_bottom' : 'bd_seat_you';
  return h('div', { class: 'tw-builds' }, [0, 1].map((seat) => {
    if (seat === 1 && ctx.mode === 'vs_human') {
      // A build is its player's secret (twgp-trump.md §2.2): a friend builds their own.
      const fixed = h('select', { name: 'build1', id: 'tw-build-1', disabled: true, dataset: { build: '1', fixed: '1' } },
        h('option', { value: '', text: tx('bd_friend_builds') }));
      return h('label', { class: 'tw-build' }, h('span', { text: tx(other) }), fixed);
    }
    const sel = h('select', { name: `build${seat}`, id: `tw-build-${seat}`, dataset: { build: String(seat) } },
      h('option', { value: '', text: tx('bd_in_game') }),
      saved.length ? h('optgroup', { label: tx('bd_saved_group') },
        saved.map((d) => fillOption(h('option', { value: `${SAVED}${d.id}` }), d, box))) : null);
    sel.value = keep[`build${seat}`] || '';
    if (!sel.value || (sel.selectedOptions[0] && sel.selectedOptions[0].disabled)) sel.value = '';
    return h('label', { class: 'tw-build' }, h('span', { text: tx(seat === 0 ? mine : other) }), sel);
  }));
}

/** After a start option changed: the saved builds that cannot be chosen now (jokers, quick
 *  start) follow, and a select left on one falls back to ゲーム中に構築. */
export function refreshBuildSelects(box) {
  const quick = !!($('input[name="quickStart"]', box) || {}).checked;
  for (const sel of box.querySelectorAll('select[data-build]')) {
    sel.disabled = quick || !!sel.dataset.fixed;
    for (const o of sel.querySelectorAll('option')) {
      const d = savedOf(o.value);
      if (d) fillOption(o, d, box);
    }
    if (sel.selectedOptions[0] && sel.selectedOptions[0].disabled) sel.value = '';
  }
}

/** What `POST /api/games` gets in `config.builds`, or null when both seats build in the game. */
export function buildRefs(box) {
  if (($('input[name="quickStart"]', box) || {}).checked) return null;
  const refs = [0, 1].map((seat) => {
    const value = ($(`#tw-build-${seat}`, box) || {}).value || '';
    return value.startsWith(SAVED) ? { saved: Number(value.slice(SAVED.length)) } : null;
  });
  return refs.some(Boolean) ? refs : null;
}
