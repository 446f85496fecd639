// The card editor tab of the design screen (カードエディタ): a designer's card sets (derived from
// a shipped card data version or another set, kept in the server's store: server/design_api),
// one set's cards and starter decks in a list with search, and the form of the card or deck
// picked (design/editor-fields.js, drawn from the game's own schema), with the card's face and
// its generated Japanese and English text updating as one types (design/editor-face.js), the
// game's checks with their messages on the fields, saving with the changelog, and the way to
// an A/B balance run of the saved set against its parent (design/runs.js).
//
// Addresses: #/design/editor (the sets and a form to make one), #/design/editor/<set>,
// #/design/editor/<set>/card/<slug> and …/deck/<slug>, so a reload comes back to the same card.
// An unsaved draft is kept in this browser (localStorage) until it is saved or discarded: a
// reload or a visit to another tab loses nothing. Names of sets, cards and decks are the
// designer's own text: drawn with textContent only.

import { h, put, revealIn } from '../shell/dom.js';
import { gameName } from '../shell/registry.js';
import { S } from '../shell/state.js';
import { designPath, openDesign, playWithSet } from './design.js';
import { copiesOf, countMap, decksOf, dropFromDecks, renameInDecks } from './editor-decks.js';
import { faceOf, faceReady, nameIn, textsOf } from './editor-face.js';
import { byFocusKey, keyPart, objectFields, placeProblems, said, under } from './editor-fields.js';
import { api, openHome, parentLabel, parentSource, renderHome } from './editor-home.js';
import { et } from './editor-strings.js';

const DRAFT = 'kessen.design.draft.';
const WAIT = { preview: 250, check: 400, keep: 600 };
const SHOWN_ELSEWHERE = 30;

const X = {
  body: null,
  view: 'home', // 'home' | 'set' | 'error'
  forms: {},
  busy: false,
  error: '',
  info: null, // the open set (its changelog too)
  form: null,
  saved: '', // the saved data, as JSON text
  data: null, // the draft
  sel: { type: 'card', index: 0, key: '' },
  q: '',
  note: '',
  preview: null,
  problems: [],
  lastSave: null, // {revision, changes} or {error}
  restored: false,
  reveal: false, // scroll the list to the picked card once
  timers: {},
  seq: { preview: 0, check: 0 },
};

/* ================================================================== server */

const enc = encodeURIComponent;
const clone = (x) => JSON.parse(JSON.stringify(x));
const here = () => X.body && X.body.isConnected && document.body.dataset.screen === 'design';

async function formOf(ruleset) {
  if (!X.forms[ruleset]) X.forms[ruleset] = await api('GET', `/api/design/games/${ruleset}/form`);
  return X.forms[ruleset];
}

/* ================================================================== one set */

function dirty() {
  return !!X.data && JSON.stringify(X.data) !== X.saved;
}

function keep() {
  if (!X.info) return;
  try {
    if (dirty()) localStorage.setItem(DRAFT + X.info.name, JSON.stringify({ head: X.info.head, data: X.data }));
    else localStorage.removeItem(DRAFT + X.info.name);
  } catch { /* a browser that keeps nothing still edits */ }
}

function restore(info) {
  try {
    const kept = JSON.parse(localStorage.getItem(DRAFT + info.name) || 'null');
    if (kept && kept.head === info.head && JSON.stringify(kept.data) !== X.saved) return kept.data;
  } catch { /* nothing kept */ }
  return null;
}

/** Open set `name` on the card or deck `pick` names (`{type, key}`), or its first card. */
async function openSet(name, pick = null) {
  const same = X.info && X.info.name === name && X.data;
  X.view = 'set';
  X.error = '';
  if (!same) {
    X.info = null;
    X.lastSave = null;
    X.problems = [];
    X.q = '';
    put(X.body, h('p', { class: 'muted', text: et('ed_loading') }));
    try {
      const info = await api('GET', `/api/design/sets/${enc(name)}`);
      X.form = await formOf(info.ruleset);
      await faceReady(X.form);
      X.info = info;
      X.saved = JSON.stringify(info.data);
      const kept = restore(info);
      X.data = kept || clone(info.data);
      X.restored = !!kept;
    } catch (err) {
      X.view = 'error';
      X.error = said((err.problems || [{}])[0]) || String(err.message);
      put(X.body, h('div', { class: 'ed-box' }, h('p', { class: 'rn-error', role: 'alert', text: X.error }),
        h('button', { type: 'button', class: 'tool', text: `← ${et('ed_sets')}`, onclick: goHome })));
      return;
    }
  }
  X.sel = pickOf(pick) || (same ? X.sel : { type: 'card', index: 0 });
  X.reveal = true;
  renderSet();
  address();
  schedule('preview', 0);
  schedule('check', 0);
}

function pickOf(pick) {
  if (!pick || !X.data) return null;
  if (pick.type === 'card') {
    const index = X.data.cards.findIndex((c) => String(c[X.form.key]) === pick.key);
    return index >= 0 ? { type: 'card', index } : null;
  }
  const deck = decksOf(X.data, X.form).find((d) => d.key === pick.key);
  return deck ? { type: 'deck', key: deck.key, index: deck.index } : null;
}

function address() {
  const name = enc(X.info.name);
  const card = X.sel.type === 'card' ? X.data.cards[X.sel.index] : null;
  if (card && card[X.form.key]) designPath(`editor/${name}/card/${enc(card[X.form.key])}`);
  else if (X.sel.type === 'deck') designPath(`editor/${name}/deck/${enc(X.sel.key)}`);
  else designPath(`editor/${name}`);
}

function select(sel) {
  X.sel = sel;
  X.reveal = true;
  X.preview = null;
  address();
  renderList();
  renderForm();
  renderPreview();
  renderElsewhere();
  schedule('preview', 0);
  if (window.matchMedia('(max-width: 699px)').matches) {
    const target = document.getElementById(sel.type === 'card' ? 'ed-preview' : 'ed-form-box');
    if (target) target.scrollIntoView({ block: 'start' });
  }
}

function currentCard() {
  return X.sel.type === 'card' ? X.data.cards[X.sel.index] || null : null;
}

function currentDeck() {
  if (X.sel.type !== 'deck') return null;
  const decks = decksOf(X.data, X.form);
  return (X.sel.index != null && decks[X.sel.index]) || decks.find((d) => d.key === X.sel.key) || null;
}

/** The base path of what the form shows (`cards[3]`, `decks[0]`, `decks.SO`). */
function basePath() {
  if (X.sel.type === 'card') return `cards[${X.sel.index}]`;
  const deck = currentDeck();
  return deck ? deck.path : '';
}

function renderSet() {
  const info = X.info;
  put(X.body, h('div', { class: 'ed', id: 'ed', dataset: { ruleset: info.ruleset } },
    h('div', { class: 'ed-bar', id: 'ed-bar' },
      h('button', { type: 'button', class: 'tool', id: 'ed-home-btn', text: `← ${et('ed_sets')}`, onclick: goHome }),
      h('div', { class: 'ed-title' },
        h('h2', { class: 'ed-set-name', id: 'ed-set-name', text: info.name }),
        h('p', { class: 'ed-meta', text: `${gameName(info.ruleset)} · ${et('ed_parent', { parent: parentLabel(info) })} · ${et('ed_revision', { n: info.revisions })}` })),
      h('a', { class: 'tool ed-export', href: `/api/design/sets/${enc(info.name)}/export`, download: `${info.name}.toml`, text: et('ed_export') })),
    h('section', { class: 'ed-save', id: 'ed-save-box' }),
    h('div', { class: 'ed-main' },
      h('nav', { class: 'ed-side', id: 'ed-side', 'aria-label': et('ed_list_label') },
        h('label', { class: 'ed-label', for: 'ed-search', text: et('ed_cards') }),
        h('input', {
          id: 'ed-search', type: 'search', value: X.q, placeholder: et('ed_search'), autocomplete: 'off',
          oninput: (ev) => { X.q = ev.target.value; renderList(); },
        }),
        h('div', { class: 'ed-list-box', id: 'ed-list-box' },
          h('ul', { class: 'ed-list', id: 'ed-cards' }),
          h('h3', { class: 'ed-h3', text: et('ed_decks') }),
          h('ul', { class: 'ed-list', id: 'ed-decks' }))),
      h('aside', { class: 'ed-preview', id: 'ed-preview' }),
      h('section', { class: 'ed-form-box', id: 'ed-form-box', 'aria-labelledby': 'ed-form-title' })),
    h('details', { class: 'ed-log', id: 'ed-log' }, h('summary', { text: et('ed_log') }), logList())));
  renderSave();
  renderList();
  renderForm();
  renderPreview();
  renderElsewhere();
}

function logList() {
  const entries = (X.info.log || []).slice().reverse();
  return h('ol', { class: 'ed-log-list' }, entries.map((e) => h('li', { class: 'ed-log-entry' },
    h('div', { class: 'ed-log-head', text: `${et('ed_log_entry', { n: e.revision, when: when(e.created) })}${e.note ? ` — ${e.note}` : ''}` }),
    e.changes.length
      ? h('ul', { class: 'ed-changes' }, e.changes.map((c) => h('li', { text: c.text[S.settings.lang] || c.text.en })))
      : h('p', { class: 'muted', text: et('ed_log_none') }))));
}

function when(stamp) {
  try {
    return new Date(stamp * 1000).toLocaleString(S.settings.lang === 'en' ? 'en-GB' : 'ja-JP', { dateStyle: 'short', timeStyle: 'short' });
  } catch {
    return '';
  }
}

/* ---------------------------------------------------------------- saving */

function renderSave() {
  const box = document.getElementById('ed-save-box');
  if (!box) return;
  const last = X.lastSave;
  let message = null;
  if (last && last.error) {
    message = h('p', { class: 'rn-error', role: 'alert', text: last.error });
  } else if (last) {
    message = h('div', { class: 'ed-saved', id: 'ed-saved' },
      h('p', { class: 'ed-saved-head', text: last.changes.length ? et('ed_saved', { n: last.revision }) : et('ed_nothing_changed') }),
      last.changes.length ? h('div', { class: 'ed-label', text: et('ed_changes') }) : null,
      last.changes.length ? h('ul', { class: 'ed-changes', id: 'ed-changes' }, last.changes.map((c) => h('li', { text: c.text[S.settings.lang] || c.text.en }))) : null);
  }
  put(box,
    h('div', { class: 'ed-save-row' },
      h('div', { class: 'ed-field ed-note' },
        h('label', { class: 'ed-label', for: 'ed-note', text: et('ed_note') }),
        h('input', { id: 'ed-note', type: 'text', maxlength: '500', value: X.note, autocomplete: 'off', oninput: (ev) => { X.note = ev.target.value; } })),
      h('button', { type: 'button', id: 'ed-save', class: 'primary', disabled: X.busy, text: X.busy ? et('ed_saving') : et('ed_save'), onclick: save }),
      h('span', { class: 'ed-status', id: 'ed-status', role: 'status' })),
    X.restored && dirty() ? h('p', { class: 'ed-restored' }, et('ed_restored'), ' ',
      h('button', { type: 'button', class: 'tool', id: 'ed-discard', text: et('ed_discard'), onclick: discard })) : null,
    message,
    h('div', { class: 'ed-elsewhere', id: 'ed-elsewhere' }),
    h('div', { class: 'ed-ab-row' },
      h('button', { type: 'button', id: 'ed-ab', class: 'secondary', text: et('ed_ab'), onclick: abRun }),
      h('button', { type: 'button', id: 'ed-play', class: 'secondary', text: et('ed_play'), onclick: () => playWithSet(X.info.ruleset, X.info.name) }),
      h('p', { class: 'ed-hint', id: 'ed-ab-hint' })));
  updateStatus();
}

function updateStatus() {
  const status = document.getElementById('ed-status');
  if (!status) return;
  const changed = dirty();
  status.dataset.state = changed ? 'dirty' : 'clean';
  status.textContent = changed ? et('ed_unsaved') : et('ed_clean');
  const ab = document.getElementById('ed-ab');
  ab.disabled = changed || X.busy;
  document.getElementById('ed-play').disabled = changed || X.busy;  // the saved revision plays
  document.getElementById('ed-ab-hint').textContent = changed ? et('ed_ab_unsaved') : et('ed_ab_hint', { parent: parentLabel(X.info) });
}

async function save() {
  if (X.busy) return;
  X.busy = true;
  renderSave();
  try {
    // The game's checks first (a refused save would say the same, as an error of the page).
    const found = await api('POST', `/api/design/games/${X.info.ruleset}/check`, { data: X.data });
    if (found.problems.length) {
      X.seq.check++;
      throw Object.assign(new Error('problems'), { status: 422, problems: found.problems });
    }
    const out = await api('PUT', `/api/design/sets/${enc(X.info.name)}`, { data: X.data, note: X.note });
    const { data, changes, ...info } = out;
    X.info = info;
    X.saved = JSON.stringify(data);
    X.data = clone(data);
    X.note = '';
    X.restored = false;
    X.problems = [];
    const log = info.log || [];
    X.lastSave = { revision: log.length ? log[log.length - 1].revision : info.revisions, changes: changes || [] };
    X.busy = false;
    keep();
    if (here()) renderSet();
  } catch (err) {
    X.busy = false;
    if (err.status === 422 && err.problems) {
      X.problems = err.problems;
      X.lastSave = { error: et('ed_cannot_save', { n: err.problems.length }) };
    } else {
      X.lastSave = { error: `${et('ed_error')}: ${err.message}` };
    }
    if (here()) {
      renderSave();
      renderList();
      showProblems();
    }
  }
}

function discard() {
  if (!window.confirm(et('ed_discard_confirm'))) return;
  X.data = JSON.parse(X.saved);
  X.restored = false;
  keep();
  const count = X.sel.type === 'card' ? X.data.cards.length : 0;
  if (X.sel.type === 'card' && X.sel.index >= count) X.sel = { type: 'card', index: 0 };
  if (X.sel.type === 'deck' && !currentDeck()) X.sel = { type: 'card', index: 0 };
  renderSet();
  schedule('check', 0);
  schedule('preview', 0);
}

function abRun() {
  if (dirty()) return;
  const q = new URLSearchParams({ ruleset: X.info.ruleset, a: parentSource(X.info), b: X.info.name });
  openDesign('runs', `new?${q}`);
}

/* ---------------------------------------------------------------- the list */

function problemsUnder(path) {
  return X.problems.filter((p) => under(p.path, path));
}

function renderList() {
  const cardsEl = document.getElementById('ed-cards');
  if (!cardsEl) return;
  const form = X.form;
  const savedData = JSON.parse(X.saved);
  const savedCards = new Map((savedData.cards || []).map((c) => [String(c[form.key]), JSON.stringify(c)]));
  const q = X.q.trim().toLowerCase();
  const items = [];
  X.data.cards.forEach((card, i) => {
    const key = String(card[form.key] ?? '');
    const words = [card.name_ja, card.name_en, key].map((x) => String(x || '').toLowerCase());
    if (q && !words.some((w) => w.includes(q))) return;
    const bad = problemsUnder(`cards[${i}]`).length;
    const edited = savedCards.get(key) !== JSON.stringify(card);
    const on = X.sel.type === 'card' && X.sel.index === i;
    items.push(h('li', null, h('button', {
      type: 'button', class: `ed-pick${on ? ' on' : ''}`, 'aria-current': on ? 'true' : null, dataset: { key, index: String(i) },
      onclick: () => select({ type: 'card', index: i }),
    },
    h('span', { class: `kind-dot kind-${card.kind}`, 'aria-hidden': 'true' }),
    h('span', { class: 'ed-pick-name', text: nameIn(card) || key }),
    form.ruleset === 'kobo' && card.kind === 'character' ? h('span', { class: 'ed-pick-lv', text: `Lv${card.lv ?? ''}` }) : null,
    edited ? h('span', { class: 'ed-badge edit', text: et('ed_edited') }) : null,
    bad ? h('span', { class: 'ed-badge bad', text: et('ed_n_problems', { n: bad }) }) : null)));
  });
  put(cardsEl, items.length ? items : h('li', { class: 'muted ed-none', text: et('ed_no_match') }));
  const on = cardsEl.querySelector('.ed-pick.on');
  if (on && X.reveal) revealIn(document.getElementById('ed-list-box'), on);
  X.reveal = false;
  put(document.getElementById('ed-decks'), decksOf(X.data, form).map((d) => {
    const bad = problemsUnder(d.path).length;
    const on = X.sel.type === 'deck' && X.sel.index === d.index;
    return h('li', null, h('button', {
      type: 'button', class: `ed-pick${on ? ' on' : ''}`, 'aria-current': on ? 'true' : null, dataset: { deck: d.key },
      onclick: () => select({ type: 'deck', key: d.key, index: d.index }),
    },
    h('span', { class: 'ed-pick-name', text: d.name }),
    bad ? h('span', { class: 'ed-badge bad', text: et('ed_n_problems', { n: bad }) }) : null));
  }));
}

/* ---------------------------------------------------------------- the form */

function context(kind) {
  const ctx = {
    form: X.form, kind, top: true,
    onInput: changed,
    onStructure: () => { renderForm(); changed(); },
    onRename: null,
    countMap: (obj, key, schema, path) => countMap(ctx, X.data, obj, key, schema, path),
  };
  return ctx;
}

function renderForm() {
  const box = document.getElementById('ed-form-box');
  if (!box) return;
  const focused = document.activeElement && box.contains(document.activeElement) ? document.activeElement.dataset.fkey : '';
  const card = currentCard();
  const deck = currentDeck();
  const form = X.form;
  if (card) {
    const ctx = context(card.kind);
    ctx.onRename = (from, to) => {
      if (from) renameInDecks(X.data, form, String(from), String(to));
      address();
      renderList();
      changed();
    };
    const only = form.kinds[card.kind] || null;
    put(box,
      h('div', { class: 'ed-form-head' },
        h('h2', { class: 'rn-h2 ed-form-name', id: 'ed-form-title', text: nameIn(card) || String(card[form.key] || '') }),
        h('span', { class: 'ed-form-tools' },
          h('button', { type: 'button', class: 'tool', id: 'ed-dup', text: et('ed_dup_card'), onclick: duplicateCard }),
          h('button', { type: 'button', class: 'tool', id: 'ed-del', text: et('ed_del_card'), onclick: deleteCard }))),
      h('div', { class: 'ed-here', id: 'ed-here', role: 'alert' }),
      h('div', { class: 'ed-grid ed-card-form', id: 'ed-card-form' }, objectFields(ctx, card, form.card, `cards[${X.sel.index}]`, '', only)),
      copiesOf(ctx, X.data, card));
  } else if (deck) {
    const ctx = context('');
    ctx.onInput = () => { // a deck's slug is its key in the list and the address
      const now = currentDeck();
      if (now && now.key !== X.sel.key) {
        X.sel = { type: 'deck', key: now.key, index: now.index };
        address();
      }
      changed();
    };
    put(box,
      h('div', { class: 'ed-form-head' },
        h('h2', { class: 'rn-h2 ed-form-name', id: 'ed-form-title', text: deck.name }),
        h('span', { class: 'ed-form-tools' },
          h('button', { type: 'button', class: 'tool', id: 'ed-dup', text: et('ed_dup_deck'), onclick: duplicateDeck }),
          h('button', { type: 'button', class: 'tool', id: 'ed-del', text: et('ed_del_deck'), onclick: deleteDeck }))),
      h('div', { class: 'ed-here', id: 'ed-here', role: 'alert' }),
      h('div', { class: 'ed-grid ed-deck-form', id: 'ed-deck-form' }, objectFields(ctx, deck.deck, form.deck, deck.path, '')));
  } else {
    put(box, h('p', { class: 'muted', text: et('ed_no_match') }));
  }
  showProblems();
  const again = byFocusKey(box, focused);
  if (again) again.focus();
}

/** The problems of what the form shows on its fields; the rest listed apart. */
function showProblems() {
  const box = document.getElementById('ed-form-box');
  if (!box) return;
  const base = basePath();
  const card = currentCard();
  const key = card ? keyPart(String(card[X.form.key] ?? '')) : '';
  const mine = X.problems.filter((p) => (base && under(p.path, base)) || (card && /^decks/.test(p.path) && p.path.endsWith(`.${key}`)));
  const left = placeProblems(box, mine);
  const hereBox = document.getElementById('ed-here');
  if (hereBox) {
    const what = et(X.sel.type === 'card' ? 'ed_what_card' : 'ed_what_deck');
    put(hereBox, left.length ? [h('strong', { text: et('ed_here_problems', { what }) }),
      h('ul', null, left.map((p) => h('li', { class: 'ed-problem', dataset: { path: p.path }, text: p.path === base ? said(p) : `${p.path.slice(base.length).replace(/^\./, '')}: ${said(p)}` })))] : []);
  }
  renderElsewhere();
}

function renderElsewhere() {
  const box = document.getElementById('ed-elsewhere');
  if (!box) return;
  const base = basePath();
  const card = currentCard();
  const key = card ? keyPart(String(card[X.form.key] ?? '')) : '';
  const rest = X.problems.filter((p) => !((base && under(p.path, base)) || (card && /^decks/.test(p.path) && p.path.endsWith(`.${key}`))));
  if (!rest.length) {
    put(box);
    return;
  }
  const go = (path) => {
    const m = /^cards\[(\d+)\]/.exec(path);
    if (m && X.data.cards[Number(m[1])]) return () => select({ type: 'card', index: Number(m[1]) });
    const d = decksOf(X.data, X.form).find((x) => under(path, x.path));
    return d ? () => select({ type: 'deck', key: d.key, index: d.index }) : null;
  };
  put(box, h('details', { class: 'ed-elsewhere-box', open: rest.length <= 5 },
    h('summary', { text: et('ed_set_problems', { n: rest.length }) }),
    h('ul', null, rest.slice(0, SHOWN_ELSEWHERE).map((p) => {
      const open = go(p.path);
      return h('li', { class: 'ed-problem', dataset: { path: p.path } },
        h('span', { text: p.path ? `${p.path}: ${said(p)}` : said(p) }), ' ',
        open ? h('button', { type: 'button', class: 'tool ed-go', text: et('ed_go'), onclick: open }) : null);
    }))));
}

/* ---------------------------------------------------------------- the preview */

function renderPreview() {
  const aside = document.getElementById('ed-preview');
  if (!aside) return;
  const card = currentCard();
  aside.hidden = !card;
  aside.parentElement.classList.toggle('ed-main--deck', !card);
  if (!card) {
    put(aside);
    return;
  }
  put(aside, h('h3', { class: 'ed-h3', text: et('ed_face') }),
    h('div', { class: 'ed-face', id: 'ed-face' }, faceOf(card, X.form)),
    textsOf(X.preview));
}

function updateFace() {
  const face = document.getElementById('ed-face');
  const card = currentCard();
  if (face && card) put(face, faceOf(card, X.form));
  const title = document.getElementById('ed-form-title');
  if (title && card) title.textContent = nameIn(card) || String(card[X.form.key] || '');
}

function updateTexts() {
  const aside = document.getElementById('ed-preview');
  const old = aside && aside.querySelector('.ed-texts');
  if (old) old.replaceWith(textsOf(X.preview));
}

async function preview() {
  const card = currentCard();
  if (!card) return;
  const seq = ++X.seq.preview;
  try {
    const found = await api('POST', `/api/design/games/${X.info.ruleset}/preview`, { card });
    if (seq !== X.seq.preview) return;
    X.preview = found;
  } catch (err) {
    if (seq !== X.seq.preview) return;
    X.preview = { text: null, problems: err.problems || [] };
  }
  if (here()) updateTexts();
}

async function check() {
  if (!X.data) return;
  const seq = ++X.seq.check;
  try {
    const found = await api('POST', `/api/design/games/${X.info.ruleset}/check`, { data: X.data });
    if (seq !== X.seq.check) return;
    X.problems = found.problems;
  } catch (err) {
    if (seq !== X.seq.check) return;
    X.problems = err.problems || [];
  }
  if (!here()) return;
  renderList();
  showProblems();
}

function schedule(what, ms = WAIT[what]) {
  clearTimeout(X.timers[what]);
  const run = { preview, check, keep }[what];
  X.timers[what] = setTimeout(run, ms);
}

/** A value changed (typing): the face at once; the text, the checks and the kept draft soon. */
function changed() {
  updateFace();
  updateStatus();
  schedule('preview');
  schedule('check');
  schedule('keep');
  clearTimeout(X.timers.list);
  X.timers.list = setTimeout(renderList, 150);
}

/* ---------------------------------------------------------------- cards and decks */

function freshKey(key, taken) {
  const maken = /^([A-Z]{2})(\d{2})$/.exec(key);
  if (maken) {
    for (let n = 1; n < 100; n++) {
      const next = `${maken[1]}${String(n).padStart(2, '0')}`;
      if (!taken.has(next)) return next;
    }
  }
  const base = key.replace(/-\d+$/, '') || 'card';
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

function freshName(name, taken, ja) {
  for (let n = 2; ; n++) {
    const next = ja ? `${name}（${n}）` : `${name} (${n})`;
    if (!taken.has(next)) return next;
  }
}

function copyNamed(item, list, keyField) {
  const copy = clone(item);
  copy[keyField] = freshKey(String(item[keyField] || ''), new Set(list.map((x) => String(x[keyField]))));
  for (const [field, ja] of [['name_ja', true], ['name_en', false]]) {
    if (typeof copy[field] === 'string') copy[field] = freshName(copy[field], new Set(list.map((x) => x[field])), ja);
  }
  return copy;
}

function duplicateCard() {
  const i = X.sel.index;
  X.data.cards.splice(i + 1, 0, copyNamed(X.data.cards[i], X.data.cards, X.form.key));
  select({ type: 'card', index: i + 1 });
  changed();
}

function deleteCard() {
  const card = currentCard();
  if (!card || !window.confirm(et('ed_del_card_confirm', { name: nameIn(card) || card[X.form.key] }))) return;
  X.data.cards.splice(X.sel.index, 1);
  dropFromDecks(X.data, X.form, String(card[X.form.key]));
  select({ type: 'card', index: Math.max(0, Math.min(X.sel.index, X.data.cards.length - 1)) });
  changed();
}

function duplicateDeck() {
  const deck = currentDeck();
  if (!deck) return;
  if (X.form.decks_keyed) {
    const key = freshKey(deck.key, new Set(Object.keys(X.data.decks)));
    X.data.decks = { ...X.data.decks, [key]: clone(deck.deck) };
    select({ type: 'deck', key, index: Object.keys(X.data.decks).indexOf(key) });
  } else {
    const copy = copyNamed(deck.deck, X.data.decks, 'slug');
    X.data.decks.splice(Number(deck.path.slice(6, -1)) + 1, 0, copy);
    select({ type: 'deck', key: copy.slug, index: X.data.decks.indexOf(copy) });
  }
  changed();
}

function deleteDeck() {
  const deck = currentDeck();
  if (!deck || !window.confirm(et('ed_del_deck_confirm', { name: deck.name }))) return;
  if (X.form.decks_keyed) {
    const rest = { ...X.data.decks };
    delete rest[deck.key];
    X.data.decks = rest;
  } else {
    X.data.decks.splice(Number(deck.path.slice(6, -1)), 1);
  }
  select({ type: 'card', index: 0 });
  changed();
}

/* ================================================================== the tab */

/** Back to the sets (the tab's own button, by contrast, comes back to the open set). */
function goHome() {
  X.view = 'home';
  openDesign('editor', '');
}

function route(rest) {
  let parts;
  try {
    parts = String(rest || '').split('/').map(decodeURIComponent);
  } catch {
    parts = [];
  }
  if (!parts[0] && X.view === 'set' && X.info) {
    const card = currentCard();
    const pick = card ? { type: 'card', key: String(card[X.form.key]) } : X.sel.type === 'deck' ? { type: 'deck', key: X.sel.key } : null;
    return openSet(X.info.name, pick);
  }
  if (!parts[0]) {
    X.view = 'home';
    return openHome(X.body, (name) => openSet(name));
  }
  const pick = ['card', 'deck'].includes(parts[1]) && parts[2] ? { type: parts[1], key: parts[2] } : null;
  return openSet(parts[0], pick);
}

export const editorTab = {
  id: 'editor',
  label: () => et('tab_editor'),
  open(body, rest) {
    X.body = body;
    route(rest);
  },
  render() {
    if (X.view === 'set' && X.info) {
      renderSet();
      faceReady(X.form).then(() => { if (here()) updateFace(); });
    } else if (X.view === 'home') {
      renderHome();
    }
  },
  leave() {
    clearTimeout(X.timers.keep);
    keep();
  },
};
