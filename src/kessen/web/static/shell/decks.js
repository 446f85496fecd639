// The deck builder screen (デッキ構築): the game-agnostic frame around a game's `deckBuilder`
// hook (shell/registry.js). The frame keeps the deck being edited, checks it live with the
// server (`POST /api/decks/<ruleset>/check`, debounced; the engine's own deck rules, sentences
// in the page's language) and shows its problems; it lists the saved decks (open, save, save as
// new, rename, copy, delete with a confirmation), imports a deck file (pasted or chosen; the
// server names what is wrong) and exports one (the file the server writes). The game draws its
// card pool and the deck's sections, and knows the deck JSON's own fields.
//
// Deck names are the player's own text: they are shown with textContent only.

import { $, h, put } from './dom.js';
import { t, texts } from './i18n.js';
import { toast } from './overlay.js';
import { gameOf } from './registry.js';
import { showScreen } from './session.js';
import { renderStart } from './start.js';
import { S } from './state.js';

const CHECK_DELAY = 250;
const ARM_MS = 3000;
const MAX_TOML = 20000;
const MAX_NAME = 60;

/** The builder's state: the deck being edited and the saved decks of each ruleset. */
const B = {
  ruleset: null,
  id: null, // the saved deck being edited (null: not saved yet)
  name: '',
  deck: null,
  dirty: false,
  problems: [],
  warnings: [], // about a deck the rules allow that cannot play (TWGP: a build that cannot act)
  status: 'pending', // pending | ok | bad
  seq: 0,
  timer: null,
  saved: {}, // ruleset → [{id, name, deck, problems}]
  savedLang: {},
  loading: {},
  renaming: null,
  importErrors: [],
};

const hook = () => gameOf(B.ruleset).deckBuilder;
/** The builder's words: a game's own (`deckBuilder.words`, e.g. TWGP's "build" for "deck")
 *  over the shell's `db_*` texts. */
const w = (key, params) => {
  const words = hook()?.words;
  return words ? texts(words)(key, params) : t(key, params);
};
const lang = () => S.settings.lang;
// Saved decks: a server with a store, to a browser of its own machine (a friend's browser on
// another machine reaches only checking, import and export: server/decks_api.refuse_remote).
const canStore = () => !!(S.meta && S.meta.store && S.meta.saved_decks !== false);

/** A JSON request to the deck API; an Error with `problems` (the server's lines) on refusal. */
async function api(method, url, body) {
  const r = await fetch(url, {
    method,
    headers: body === undefined ? undefined : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await r.json().catch(() => null);
  if (r.ok) return data;
  const detail = data && data.detail;
  let lines;
  if (detail && Array.isArray(detail.problems)) lines = detail.problems.map((p) => (typeof p === 'string' ? p : p.text));
  else if (typeof detail === 'string') lines = [detail];
  else if (Array.isArray(detail)) lines = detail.map((d) => `${(d.loc || []).join('.')}: ${d.msg}`);
  else lines = [r.statusText || String(r.status)];
  const err = new Error(lines.join('\n'));
  err.problems = lines;
  throw err;
}

/* ---------------------------------------------------------------- saved decks */

/** Fetch the saved decks of `ruleset` (with their problems in the page's language). */
export async function loadSavedDecks(ruleset) {
  if (!canStore()) return [];
  const want = lang();
  if (!B.loading[ruleset]) {
    B.loading[ruleset] = api('GET', `/api/decks/${ruleset}?lang=${want}`).then((res) => {
      B.saved[ruleset] = res.decks;
      B.savedLang[ruleset] = want;
      return res.decks;
    }).finally(() => { B.loading[ruleset] = null; });
  }
  return B.loading[ruleset];
}

/** The saved decks of `ruleset` known now ([] before they are loaded). When they are not
 *  loaded yet (or were loaded in another language), they are fetched and `onLoaded` runs. */
export function savedDecks(ruleset, onLoaded) {
  const list = B.saved[ruleset];
  if (canStore() && (!list || B.savedLang[ruleset] !== lang()) && !B.loading[ruleset]) {
    loadSavedDecks(ruleset).then(() => { if (onLoaded) onLoaded(); }).catch(() => {});
  }
  return list || [];
}

async function refreshSaved() {
  try {
    await loadSavedDecks(B.ruleset);
  } catch (err) {
    toast(w('db_err'), err.message, 'error');
  }
  renderSaved();
}

/* ---------------------------------------------------------------- the deck being edited */

function edit(deck, { id = null, name = '', dirty = false } = {}) {
  B.deck = deck;
  B.id = id;
  B.name = name;
  B.dirty = dirty;
  B.problems = [];
  B.warnings = [];
  B.status = 'pending';
  B.renaming = null;
  renderEditor();
  renderSaved();
  scheduleCheck(0);
}

/** The deck as it is checked, saved and exported: under the name in the name field. */
function current() {
  return hook().named(B.deck, B.name);
}

function changed() {
  B.dirty = true;
  renderEditor();
  scheduleCheck();
}

function scheduleCheck(delay = CHECK_DELAY) {
  clearTimeout(B.timer);
  B.seq += 1; // an answer still on its way is about an older deck: it is dropped
  B.status = 'pending';
  renderStatus();
  B.timer = setTimeout(check, delay);
}

async function check() {
  const seq = ++B.seq;
  try {
    const res = await api('POST', `/api/decks/${B.ruleset}/check`, { deck: current(), lang: lang() });
    if (seq !== B.seq) return;
    B.problems = res.problems || [];
    B.warnings = res.warnings || [];
  } catch (err) {
    if (seq !== B.seq) return;
    B.problems = (err.problems || [err.message]).map((text) => ({ code: 'error', section: '', slug: '', text }));
    B.warnings = [];
  }
  B.status = B.problems.length ? 'bad' : 'ok';
  renderEditor();
}

/* ---------------------------------------------------------------- drawing */

/** Draw the screen's parts once per language and game (the pool keeps its filters). */
function build() {
  const body = $('#db-body');
  const key = `${B.ruleset}:${lang()}`;
  if (body.dataset.built === key) return;
  body.dataset.built = key;
  const g = gameOf(B.ruleset);
  $('#db-logo').textContent = g.brand;
  const from = h('select', { id: 'db-from', 'aria-label': w('db_new_from') },
    h('option', { value: '', text: w('db_blank') }),
    hook().starters().map((s) => h('option', { value: s.key, text: w('db_from_starter', { name: s.name }) })));
  put(body,
    h('div', { class: 'db-bar' },
      h('label', { class: 'db-from' }, h('span', { text: w('db_new_from') }), from),
      h('button', { type: 'button', id: 'db-new', class: 'tool', text: w('db_new'), onclick: (ev) => guarded(ev.currentTarget, newDeck) }),
      h('span', { class: 'db-bar-gap' }),
      h('button', { type: 'button', id: 'db-save', class: 'tool accent', text: w('db_save'), onclick: () => save(false) }),
      h('button', { type: 'button', id: 'db-save-new', class: 'tool', text: w('db_save_new'), onclick: () => save(true) }),
      h('button', { type: 'button', id: 'db-import-open', class: 'tool', text: w('db_import'), 'aria-expanded': 'false', onclick: toggleImport }),
      h('button', { type: 'button', id: 'db-export', class: 'tool', text: w('db_export'), onclick: exportDeck })),
    importPanel(),
    h('p', { id: 'db-note', class: 'db-note', role: 'status', 'aria-live': 'polite' }),
    h('div', { class: 'db-main' },
      h('section', { class: 'db-pool', 'aria-labelledby': 'db-pool-title' },
        h('h2', { id: 'db-pool-title', text: w('db_pool') }),
        h('div', { id: 'db-pool' })),
      h('div', { class: 'db-side' },
      h('section', { class: 'db-edit', 'aria-labelledby': 'db-edit-title' },
        h('h2', { id: 'db-edit-title', text: w('db_deck') }),
        h('div', { class: 'db-sticky' },
          h('label', { class: 'db-name' }, h('span', { text: w('db_name') }),
            h('input', { id: 'db-name', type: 'text', maxlength: String(MAX_NAME), placeholder: w('db_untitled'), autocomplete: 'off', oninput: (ev) => { B.name = ev.target.value; changed(); } })),
          h('div', { id: 'db-status', class: 'db-status', role: 'status', 'aria-live': 'polite' })),
        h('ul', { id: 'db-problems', class: 'db-problems' }),
        h('div', { id: 'db-deck' })),
      h('section', { class: 'db-saved', 'aria-labelledby': 'db-saved-title' },
        h('h2', { id: 'db-saved-title', text: w('db_saved') }),
        h('ul', { id: 'db-saved-list', class: 'db-saved-list' })))));
}

function importPanel() {
  const area = h('textarea', { id: 'db-import-text', rows: '8', maxlength: String(MAX_TOML), spellcheck: 'false', 'aria-label': w('db_import_hint') });
  const file = h('input', { id: 'db-import-file', type: 'file', accept: '.toml,text/plain,application/toml' });
  file.addEventListener('change', async () => {
    const chosen = file.files && file.files[0];
    file.value = '';
    if (!chosen) return;
    if (chosen.size > MAX_TOML * 4) {
      showImportErrors([w('db_import_too_large', { n: MAX_TOML })]);
      return;
    }
    area.value = await chosen.text();
    importDeck();
  });
  return h('div', { id: 'db-import', class: 'db-import', hidden: true },
    h('p', { class: 'hint', text: w('db_import_hint') }),
    area,
    h('div', { class: 'db-import-actions' },
      h('label', { class: 'tool db-file' }, h('span', { text: w('db_import_file') }), file),
      h('button', { type: 'button', id: 'db-import-go', class: 'tool accent', text: w('db_import_go'), onclick: () => importDeck() }),
      h('button', { type: 'button', class: 'link', text: w('db_cancel'), onclick: toggleImport })),
    h('div', { id: 'db-import-errors', class: 'db-import-errors', role: 'alert' }));
}

/** "N problems" (one problem said as such). */
export function problemCount(n) {
  return n === 1 ? w('db_problem_one') : w('db_problems', { n });
}

/** What a check says of a deck: valid, valid with N warnings (still usable), or N problems. */
function verdict(problems, warnings) {
  if (problems.length) return problemCount(problems.length);
  if (!warnings.length) return w('db_valid');
  return warnings.length === 1 ? w('db_valid_warn_one') : w('db_valid_warn', { n: warnings.length });
}

function renderStatus() {
  const el = $('#db-status');
  if (!el) return;
  el.className = `db-status ${B.status}${B.status === 'ok' && B.warnings.length ? ' has-warnings' : ''}`;
  const size = B.deck ? hook().summary(B.deck) : '';
  const state = B.status === 'pending' ? w('db_checking') : verdict(B.problems, B.warnings);
  put(el,
    h('span', { class: 'db-state', text: state }),
    h('span', { class: 'db-size', text: size }),
    h('span', { class: 'db-where', text: B.id ? (B.dirty ? w('db_unsaved') : w('db_saved_as', { name: savedName(B.id) })) : w('db_not_saved') }));
}

function savedName(id) {
  const d = (B.saved[B.ruleset] || []).find((x) => x.id === id);
  return d ? d.name : `#${id}`;
}

function renderEditor() {
  if (!$('#db-deck') || !B.deck) return;
  const name = $('#db-name');
  if (document.activeElement !== name) name.value = B.name;
  renderStatus();
  put($('#db-problems'), B.status === 'pending' ? [] : [
    ...B.problems.map((p) => h('li', { class: 'db-problem', dataset: { code: p.code || '' }, text: p.text })),
    ...B.warnings.map((p) => h('li', { class: 'db-problem db-warning', dataset: { code: p.code || '' }, text: p.text })),
  ]);
  const ctx = {
    deck: B.deck,
    problems: B.status === 'pending' ? [] : B.problems,
    add: (slug) => apply(slug, 1),
    change: (slug, delta) => apply(slug, delta),
    set: (next) => { B.deck = next; changed(); },
  };
  hook().renderPool($('#db-pool'), ctx);
  hook().renderDeck($('#db-deck'), ctx);
  const store = canStore();
  $('#db-save').disabled = !store;
  $('#db-save-new').disabled = !store;
  $('#db-save').textContent = B.id ? w('db_save') : w('db_save_first');
}

function apply(slug, delta) {
  const next = hook().change(B.deck, slug, delta);
  if (!next) return;
  B.deck = next;
  changed();
}

function renderSaved() {
  const list = $('#db-saved-list');
  if (!list) return;
  if (!canStore()) {
    put(list, h('li', { class: 'muted', text: w(S.meta && S.meta.store ? 'db_remote' : 'db_no_store') }));
    return;
  }
  const decks = B.saved[B.ruleset] || [];
  if (!decks.length) {
    put(list, h('li', { class: 'muted', text: w('db_none_saved') }));
    return;
  }
  put(list, decks.map(savedRow));
}

function savedRow(d) {
  const bad = d.problems.length;
  const warnings = d.warnings || [];
  const row = h('li', { class: `db-saved-row${d.id === B.id ? ' current' : ''}${bad ? ' invalid' : ''}`, dataset: { id: String(d.id) } });
  if (B.renaming === d.id) {
    const input = h('input', { type: 'text', class: 'db-rename-input', value: d.name, maxlength: String(MAX_NAME), 'aria-label': w('db_name') });
    input.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter') rename(d, input.value);
      if (ev.key === 'Escape') { B.renaming = null; renderSaved(); }
    });
    put(row, input,
      h('span', { class: 'db-saved-actions' },
        h('button', { type: 'button', class: 'tool accent db-rename-ok', text: w('db_ok'), onclick: () => rename(d, input.value) }),
        h('button', { type: 'button', class: 'tool', text: w('db_cancel'), onclick: () => { B.renaming = null; renderSaved(); } })));
    setTimeout(() => { input.focus(); input.select(); }, 0);
    return row;
  }
  put(row,
    h('span', { class: 'db-saved-name', text: d.name }),
    h('span', { class: `db-badge ${bad ? 'bad' : 'ok'}${!bad && warnings.length ? ' warn' : ''}`, text: verdict(d.problems, warnings), title: [...d.problems, ...warnings].map((p) => p.text).join('\n') }),
    h('span', { class: 'db-saved-size muted', text: hook().summary(d.deck) }),
    h('span', { class: 'db-saved-actions' },
      h('button', { type: 'button', class: 'tool db-open', text: w('db_open'), onclick: (ev) => guarded(ev.currentTarget, () => open(d)) }),
      h('button', { type: 'button', class: 'tool db-rename', text: w('db_rename'), onclick: () => { B.renaming = d.id; renderSaved(); } }),
      h('button', { type: 'button', class: 'tool db-copy', text: w('db_copy'), onclick: () => copy(d) }),
      h('button', { type: 'button', class: 'tool db-delete', text: w('db_delete'), onclick: (ev) => armed(ev.currentTarget, w('db_delete_confirm'), () => remove(d)) })));
  return row;
}

/** Run `fn` on a second press within a few seconds; the first press asks with `question`. */
function armed(button, question, fn) {
  if (button.classList.contains('armed')) {
    button.classList.remove('armed');
    clearTimeout(button.armTimer);
    fn();
    return;
  }
  const label = button.textContent;
  button.classList.add('armed');
  button.textContent = question;
  button.armTimer = setTimeout(() => { button.classList.remove('armed'); button.textContent = label; }, ARM_MS);
}

/** Replace the deck being edited: at once, or on a second press when it has unsaved changes. */
function guarded(button, fn) {
  if (!B.dirty) fn();
  else armed(button, w('db_discard_confirm'), fn);
}

function note(text) {
  const el = $('#db-note');
  if (el) el.textContent = text;
}

/* ---------------------------------------------------------------- actions */

function newDeck() {
  const key = $('#db-from').value;
  const starter = hook().starters().find((s) => s.key === key);
  if (starter) edit(structuredClone(starter.deck), { name: w('db_copy_name', { name: starter.name }), dirty: true });
  else edit(hook().blank(), { name: '' });
  note('');
}

function open(d) {
  edit(structuredClone(d.deck), { id: d.id, name: d.name });
  note(w('db_opened', { name: d.name }));
}

async function save(asNew) {
  const name = (B.name.trim() || w('db_untitled')).slice(0, MAX_NAME);
  const deck = hook().named(B.deck, name);
  try {
    const saved = asNew || !B.id
      ? await api('POST', `/api/decks/${B.ruleset}`, { name, deck })
      : await api('PUT', `/api/decks/${B.ruleset}/${B.id}`, { name, deck });
    B.id = saved.id;
    B.name = saved.name;
    B.deck = saved.deck;
    B.dirty = false;
    note(w('db_saved_ok', { name: saved.name }));
  } catch (err) {
    toast(w('db_err'), err.message, 'error');
  }
  await refreshSaved();
  renderEditor();
}

async function rename(d, name) {
  const clean = name.trim();
  if (!clean) return;
  try {
    const saved = await api('PUT', `/api/decks/${B.ruleset}/${d.id}`, { name: clean, deck: hook().named(d.deck, clean) });
    if (B.id === d.id) B.name = saved.name;
    B.renaming = null;
    note(w('db_renamed', { name: saved.name }));
  } catch (err) {
    toast(w('db_err'), err.message, 'error');
  }
  await refreshSaved();
  renderEditor();
}

async function copy(d) {
  const name = w('db_copy_name', { name: d.name }).slice(0, MAX_NAME);
  try {
    const saved = await api('POST', `/api/decks/${B.ruleset}/${d.id}/copy`, { name });
    note(w('db_copied', { name: saved.name }));
  } catch (err) {
    toast(w('db_err'), err.message, 'error');
  }
  await refreshSaved();
}

async function remove(d) {
  try {
    await api('DELETE', `/api/decks/${B.ruleset}/${d.id}`);
    if (B.id === d.id) {
      B.id = null;
      B.dirty = true;
    }
    note(w('db_deleted', { name: d.name }));
  } catch (err) {
    toast(w('db_err'), err.message, 'error');
  }
  await refreshSaved();
  renderEditor();
}

function toggleImport() {
  const panel = $('#db-import');
  panel.hidden = !panel.hidden;
  $('#db-import-open').setAttribute('aria-expanded', String(!panel.hidden));
  if (!panel.hidden) $('#db-import-text').focus();
}

function showImportErrors(lines) {
  B.importErrors = lines;
  put($('#db-import-errors'), lines.length ? [
    h('strong', { text: w('db_import_errors') }),
    h('ul', null, lines.map((line) => h('li', { text: line }))),
  ] : []);
}

async function importDeck() {
  const text = $('#db-import-text').value;
  if (!text.trim()) return;
  if (text.length > MAX_TOML) {
    showImportErrors([w('db_import_too_large', { n: MAX_TOML })]);
    return;
  }
  try {
    const res = await api('POST', `/api/decks/${B.ruleset}/import`, { toml: text, lang: lang() });
    showImportErrors([]);
    $('#db-import').hidden = true;
    $('#db-import-open').setAttribute('aria-expanded', 'false');
    const name = hook().nameOf(res.deck, lang());
    edit(res.deck, { name, dirty: true });
    note(w('db_imported', { name }));
  } catch (err) {
    showImportErrors(err.problems || [err.message]);
  }
}

async function exportDeck() {
  try {
    const r = await fetch(`/api/decks/${B.ruleset}/export`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ deck: current() }),
    });
    if (!r.ok) {
      const data = await r.json().catch(() => null);
      const lines = data && data.detail && data.detail.problems ? data.detail.problems.map((p) => p.text || String(p)) : [r.statusText];
      throw new Error(lines.join('\n'));
    }
    const text = await r.text();
    const found = /filename="([^"]+)"/.exec(r.headers.get('content-disposition') || '');
    const url = URL.createObjectURL(new Blob([text], { type: 'application/toml' }));
    const link = h('a', { href: url, download: found ? found[1] : 'deck.toml', hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
    note(w('db_exported', { file: found ? found[1] : 'deck.toml' }));
  } catch (err) {
    toast(w('db_err'), err.message, 'error');
  }
}

/* ---------------------------------------------------------------- the screen */

/** Open the deck builder of `ruleset` (a game with a `deckBuilder` hook). */
export function openDecks(ruleset) {
  if (!gameOf(ruleset).deckBuilder) return;
  if (B.ruleset !== ruleset || !B.deck) {
    B.ruleset = ruleset;
    B.deck = null;
  }
  showScreen('decks');
  build();
  if (!B.deck) edit(hook().blank(), { name: '' });
  else {
    renderEditor();
    scheduleCheck(0);
  }
  renderSaved();
  refreshSaved();
}

/** Redraw the screen in the page's language (the problems are checked again in it). */
export function renderDecksScreen() {
  if ($('#decks').hidden || !B.ruleset) return;
  build();
  renderEditor();
  renderSaved();
  scheduleCheck(0);
  refreshSaved();
}

/** Once at boot: the start screen's button and the way back. */
export function bindDecks() {
  $('#open-decks').addEventListener('click', () => {
    const picked = document.body.dataset.game || 'kobo';
    openDecks(picked);
  });
  $('#db-back').addEventListener('click', () => {
    showScreen('start');
    renderStart();
  });
}
