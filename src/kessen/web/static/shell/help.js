// Help in the app: the ルール / Rules screen of each ruleset (its players' rules, rendered by the
// server from the rules documents, with a table of contents and the keyboard shortcuts) and
// the クレジット / Credits screen (the licences and authors of the assets, from /api/credits).
// Opened from the start screen, or from the board's top bar at the game's screen guide.

import { $, $$, h, put } from './dom.js';
import { ensureGlossary, glossarySection } from './glossary.js';
import { t } from './i18n.js';
import { gameOf, offered, screenGuide } from './registry.js';
import { showScreen } from './session.js';
import { fetchJson, S } from './state.js';

/** What the help screen shows: `kind` rules or credits, the ruleset, where it was opened from
 *  (the screen the back button returns to) and the heading to open at. */
const H = { kind: 'rules', ruleset: null, from: 'start', anchor: '', cache: new Map(), serial: 0 };

/** The keyboard shortcuts, listed under the rules (the keys are in shell/keys.js). */
const KEYS = [
  ['Tab / Shift+Tab', 'keys_tab'],
  ['Enter / Space', 'keys_enter'],
  ['1 – 9', 'keys_num'],
  ['Enter', 'keys_confirm'],
  ['Esc', 'keys_escape'],
  ['A', 'keys_ops'],
  ['U', 'keys_undo'],
  ['Y', 'keys_redo'],
  ['? / H', 'keys_help'],
];

/** Open the rules of `ruleset` (at the heading `anchor`, else the top). */
export function openRules(ruleset, anchor = '') {
  openHelp('rules', ruleset, anchor);
}

/** Open the credits screen. */
export function openCredits() {
  openHelp('credits', H.ruleset, '');
}

/** Open the rules from the board: the screen guide of the game on screen. */
export function openRulesFromBoard() {
  const g = gameOf(S.view ? S.view.ruleset : null);
  openHelp('rules', g.id, screenGuide(g) || 'first');
}

function openHelp(kind, ruleset, anchor) {
  const screen = document.body.dataset.screen;
  if (screen !== 'help') H.from = screen || 'start';
  H.kind = kind;
  H.ruleset = ruleset || (offered()[0] && offered()[0].id);
  H.anchor = anchor;
  showScreen('help');
  renderHelp();
  $('#help-back').focus();
}

/** Back to the screen the help was opened from. */
export function closeHelp() {
  if (document.body.dataset.screen !== 'help') return;
  const back = H.from === 'help' ? 'start' : H.from;
  showScreen(back);
  const focus = back === 'game' ? $('#btn-rules') : $('#open-rules');
  if (focus && !focus.hidden) focus.focus();
}

/** The tabs: one rules tab per offered game, then the credits. */
function renderTabs() {
  const tabs = offered().map((g) => h('button', {
    type: 'button', class: `chip help-tab${H.kind === 'rules' && H.ruleset === g.id ? ' on' : ''}`,
    dataset: { tab: `rules:${g.id}` }, 'aria-pressed': String(H.kind === 'rules' && H.ruleset === g.id),
    text: t('rules_of', { game: g.t('game_name') }), onclick: () => openRules(g.id),
  }));
  tabs.push(h('button', {
    type: 'button', class: `chip help-tab${H.kind === 'credits' ? ' on' : ''}`, dataset: { tab: 'credits' },
    'aria-pressed': String(H.kind === 'credits'), text: t('credits'), onclick: openCredits,
  }));
  put($('#help-tabs'), tabs);
}

/** Draw the help screen again (opening it, a language switch). */
export async function renderHelp() {
  if (document.body.dataset.screen !== 'help') return;
  renderTabs();
  const serial = ++H.serial;
  const doc = $('#help-doc');
  $('#help-title').textContent = H.kind === 'credits' ? t('credits') : `${t('rules')} — ${gameOf(H.ruleset).t('game_name')}`;
  document.body.dataset.help = H.kind === 'credits' ? 'credits' : `rules:${H.ruleset}`;
  delete document.body.dataset.helpReady;
  put(doc, h('p', { class: 'muted', text: t('help_loading') }));
  put($('#help-toc-list'));
  const url = H.kind === 'credits' ? '/api/credits' : `/api/rules/${encodeURIComponent(H.ruleset)}?lang=${S.settings.lang}`;
  let data = H.cache.get(url);
  let terms = [];
  try {
    if (!data) {
      data = await fetchJson(url);
      H.cache.set(url, data);
    }
    if (H.kind === 'rules') terms = await ensureGlossary(H.ruleset, S.settings.lang).catch(() => []);
  } catch (err) {
    if (serial === H.serial) put(doc, h('p', { class: 'warn', text: `${t('help_error')}: ${err.message || err}` }));
    return;
  }
  if (serial !== H.serial) return;
  if (H.kind === 'credits') drawCredits(doc, data);
  else {
    drawRules(doc, data, terms);
    // A game's own additions to its rules (Kōbō: pictures drawn by its board, the tutorial).
    const g = gameOf(H.ruleset);
    if (g.decorateRules) g.decorateRules(doc);
  }
  document.body.dataset.helpReady = '1';
  goTo(H.anchor);
  H.anchor = '';
}

/** Scroll the document to the heading `id` ('first': the first section; '': the top). */
function goTo(id) {
  const doc = $('#help-doc');
  let el = null;
  if (id === 'first') el = $('h2[id]', doc) || $('h1[id]', doc);
  else if (id) el = doc.querySelector(`#${CSS.escape(id)}`);
  if (!el) {
    $('#help').scrollTop = 0;
    doc.scrollTop = 0;
    return;
  }
  el.setAttribute('tabindex', '-1');
  el.scrollIntoView({ block: 'start' });
  el.focus({ preventScroll: true });
  for (const a of $$('#help-toc-list button')) a.classList.toggle('on', a.dataset.target === el.id);
}

/** The server's HTML of the rules (raw HTML already escaped there), read through a detached
 *  document; attributes that carry styles are turned into classes (the page's CSP allows no
 *  inline styles), links open outside. */
function rulesNodes(html) {
  const parsed = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  for (const el of parsed.body.querySelectorAll('[style]')) {
    const align = /text-align:\s*(left|right|center)/.exec(el.getAttribute('style') || '');
    el.removeAttribute('style');
    if (align) el.classList.add(`align-${align[1]}`);
  }
  for (const a of parsed.body.querySelectorAll('a[href]')) {
    if (/^https?:/.test(a.getAttribute('href'))) {
      a.setAttribute('target', '_blank');
      a.setAttribute('rel', 'noopener noreferrer');
    }
  }
  for (const table of parsed.body.querySelectorAll('table')) {
    const wrap = parsed.createElement('div');
    wrap.className = 'help-table';
    table.replaceWith(wrap);
    wrap.append(table);
  }
  return Array.from(parsed.body.childNodes, (n) => document.importNode(n, true));
}

function drawRules(doc, data, terms) {
  const keys = h('section', { class: 'help-keys', 'aria-labelledby': 'keys' },
    h('h2', { id: 'keys', text: t('help_keys') }),
    h('dl', { class: 'keys-list' }, KEYS.map(([k, text]) => [h('dt', {}, h('kbd', { text: k })), h('dd', { text: t(text) })])),
    h('p', { class: 'muted', text: t('keys_replay') }));
  const glossary = glossarySection(terms);
  put(doc, h('div', { class: 'rules-doc', lang: data.lang }, rulesNodes(data.html)), glossary, keys);
  const toc = [
    ...data.toc.filter((e) => e.level > 1),
    ...(glossary ? [{ id: 'glossary', level: 2, title: t('gl_title') }] : []),
    { id: 'keys', level: 2, title: t('help_keys') },
  ];
  put($('#help-toc-list'), toc.map((e) => h('li', { class: `toc-l${e.level}` },
    h('button', { type: 'button', class: 'link', dataset: { target: e.id }, text: e.title, onclick: () => goTo(e.id) }))));
}

function link(href, text) {
  return h('a', { href, target: '_blank', rel: 'noopener noreferrer', text });
}

function drawCredits(doc, data) {
  const sections = [h('p', { text: t('cr_intro') })];
  const toc = [];
  for (const g of offered()) {
    const sets = (data.rulesets && data.rulesets[g.id]) || [];
    const id = `cr-${g.id}`;
    toc.push({ id, title: g.t('game_name') });
    const body = sets.length ? sets.map((set) => creditSet(set)) : [h('p', { class: 'muted', text: t('cr_none') })];
    sections.push(h('section', { class: 'credit-game', dataset: { ruleset: g.id } }, h('h2', { id, text: g.t('game_name') }), body));
  }
  put(doc, sections);
  put($('#help-toc-list'), toc.map((e) => h('li', { class: 'toc-l2' },
    h('button', { type: 'button', class: 'link', dataset: { target: e.id }, text: e.title, onclick: () => goTo(e.id) }))));
}

/** One asset set: its licence (named, with its link), its notice, its authors and their
 *  works, and the licence's full text. */
function creditSet(set) {
  const byAuthor = new Map();
  for (const icon of set.icons || []) {
    if (!byAuthor.has(icon.author)) byAuthor.set(icon.author, { url: icon.author_url, names: [] });
    byAuthor.get(icon.author).names.push(icon.name);
  }
  const lic = set.license || {};
  return h('div', { class: 'credit-set', dataset: { set: set.set } },
    h('h3', {}, set.homepage ? link(set.homepage, set.title) : set.title),
    h('p', { class: 'credit-license' }, `${t('cr_license')}: `, lic.url ? link(lic.url, lic.title || lic.spdx) : (lic.title || lic.spdx || '')),
    set.notice ? h('p', { class: 'muted credit-notice', text: set.notice }) : null,
    byAuthor.size ? h('h4', { text: `${t('cr_authors')}（${t('cr_icons', { n: (set.icons || []).length })}）` }) : null,
    byAuthor.size ? h('ul', { class: 'credit-authors' }, [...byAuthor].map(([author, a]) => h('li', { class: 'credit-author' },
      a.url ? link(a.url, author) : h('strong', { text: author }),
      h('span', { class: 'muted', text: `: ${a.names.join(', ')}` })))) : null,
    set.license_text ? h('details', { class: 'credit-text' }, h('summary', { text: t('cr_full_text') }), h('pre', { text: set.license_text })) : null);
}

/** The help screen's buttons: back, and the openers on the start screen and the top bar. */
export function bindHelp() {
  $('#help-back').addEventListener('click', closeHelp);
  $('#open-rules').addEventListener('click', () => {
    const picked = $('#start-form input[name=game]:checked');
    openRules(picked ? picked.value : null);
  });
  $('#open-credits').addEventListener('click', openCredits);
  $('#btn-rules').addEventListener('click', openRulesFromBoard);
}
