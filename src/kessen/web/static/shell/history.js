// Recorded matches (対戦記録) of every ruleset: the list screen (filters, pages) and the
// addresses (#/matches, #/matches/12). The replay viewer is shell/replay.js.

import { disconnect } from './connection.js';
import { $, $$, h, put } from './dom.js';
import { hasText, t, texts } from './i18n.js';
import { closeOverlay, toast } from './overlay.js';
import { allDecks, deckName, gameName, gameOf, GAMES, known } from './registry.js';
import { openReplay, stopReplay } from './replay.js';
import { levelName } from './seats.js';
import { resumeGame, showScreen } from './session.js';
import { fetchJson, ownTokens, S } from './state.js';

const PAGE = 20;

const T = texts({
  ja: {
    you_seat: 'あなた（{seat}）', reason_resign: '（投了）', reason_timeout: '（時間切れ）', reason_abandon: '（離脱）',
    dep_variant: '変則ルール', dep_card_set: 'カードセット「{name}」', dep_title: '標準ルールとの違い：',
    dep_switch: '{name}：{value}', dep_set_line: 'カードセット「{name}」（{ref}）',
  },
  en: {
    you_seat: 'You ({seat})', reason_resign: ' (resigned)', reason_timeout: ' (on time)', reason_abandon: ' (a player left)',
    dep_variant: 'Variant rules', dep_card_set: 'Card set "{name}"', dep_title: 'Differences from the standard rules:',
    dep_switch: '{name}: {value}', dep_set_line: 'Card set "{name}" ({ref})',
  },
});

const NO_FILTERS = { game: '', deck: '', state: '', result: '', source: '', since: '', until: '' };

const L = {
  filters: { ...NO_FILTERS },
  picked: new Set(),
  confirming: false,
  offset: 0,
  page: null,
  error: null,
  loading: false,
  seq: 0,
};

/* ================================================================== addresses */

/** Ask the match API, presenting this browser's game tokens (an unfinished match shows its
 *  own seat's view only to the browser that plays it). */
export function fetchMatches(url, init = {}) {
  const headers = { ...(init.headers || {}) };
  const tokens = ownTokens();
  if (tokens.length) headers['X-Kessen-Token'] = tokens.join(',');
  return fetchJson(url, { ...init, headers });
}

/** Keep the address in step with the screen, so a reload comes back to it. */
export function setHash(hash) {
  const url = hash ? `${location.pathname}${location.search}${hash}` : `${location.pathname}${location.search}`;
  if (`${location.pathname}${location.search}${location.hash}` !== url) history.replaceState(null, '', url);
}

/** Open what the address names (`#/matches`, `#/matches/12`); false when it names nothing. */
export function routeFromHash() {
  const m = /^#\/matches(?:\/(\d+))?$/.exec(location.hash);
  if (!m) return false;
  if (m[1]) openReplay(Number(m[1]));
  else openHistory();
  return true;
}

/* ================================================================== the list */

export async function openHistory() {
  stopReplay();
  if (S.ws) disconnect(); // a live game is only set aside: 対戦に戻る rejoins it
  closeOverlay();
  showScreen('history');
  setHash('#/matches');
  renderHistoryScreen();
  await loadPage();
}

function untilParam(day) {
  // The form's 終了日 includes that day: the server's `until` is exclusive.
  const d = new Date(`${day}T00:00:00`);
  if (Number.isNaN(d.getTime())) return day;
  d.setDate(d.getDate() + 1);
  const pad = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

export async function loadPage() {
  const seq = ++L.seq;
  L.loading = true;
  renderList();
  const f = L.filters;
  const q = new URLSearchParams({ offset: String(L.offset), limit: String(PAGE) });
  if (f.game) q.set('ruleset', f.game);
  if (f.deck) q.set('deck', f.deck);
  if (f.state) q.set('state', f.state);
  if (f.result) q.set('result', f.result);
  if (f.source) q.set('source', f.source);
  if (f.since) q.set('since', f.since);
  if (f.until) q.set('until', untilParam(f.until));
  try {
    const page = await fetchMatches(`/api/matches?${q}`);
    if (seq !== L.seq) return;
    L.page = page;
    L.error = null;
  } catch (err) {
    if (seq !== L.seq) return;
    L.page = null;
    L.error = String(err.message || err);
  }
  L.loading = false;
  renderList();
}

/** The static parts of the list screen (filters, titles) in the current language. */
export function renderHistoryScreen() {
  if ($('#history').hidden) return;
  $('#mh-back').textContent = S.game ? `← ${t('back_to_game')}` : `← ${t('back')}`;
  const f = L.filters;
  const option = (value, text) => h('option', { value, text });
  const games = S.meta ? Object.keys(S.meta.rulesets) : [GAMES[0].id];
  put($('#f-game'), option('', t('f_all')), games.map((g) => option(g, gameName(g))));
  $('#f-game').value = f.game;
  put($('#f-deck'), option('', t('f_all')), allDecks().map((d) => option(d.slug, d.name)));
  put($('#f-state'), option('', t('f_all')), ['live', 'abandoned', 'finished'].map((x) => option(x, t(`st_${x}`))));
  $('#f-state').value = f.state;
  put($('#f-result'), option('', t('f_all')), option('0', t('r_p1')), option('1', t('r_p2')),
    option('none', t('r_none')));
  put($('#f-source'), option('', t('f_all')),
    ['server', 'branch', 'sim', 'import', 'play'].map((s) => option(s, t(`src_${s}`))));
  $('#f-deck').value = f.deck;
  $('#f-result').value = f.result;
  $('#f-source').value = f.source;
  $('#f-since').value = f.since;
  $('#f-until').value = f.until;
  renderList();
}

export function when(iso) {
  return iso ? iso.replace('T', ' ').slice(0, 16) : '';
}

/** What the decks column says of a match: its two decks, or the game when it has none. */
function decksOf(m) {
  const ruleset = m.ruleset || GAMES[0].id;
  const hasDecks = known(ruleset) && !!gameOf(ruleset).deckName;
  if (!hasDecks && !(m.decks || []).some((d) => d)) {
    return [h('span', { class: 'mh-game', text: gameName(ruleset) })];
  }
  const decks = m.decks || [];
  const second = m.waiting_guest
    ? h('span', { class: 'd1 muted', text: t('mh_guest_choosing') })
    : h('span', { class: 'd1', text: deckName(ruleset, decks[1]) });
  return [h('span', { class: 'd0', text: deckName(ruleset, decks[0]) }), h('span', { class: 'vs muted', text: ' vs ' }),
    second];
}

/** How a match departs from its game's standard rules (the server's `departures`): a mark
 *  beside its decks (in the list and in the replay viewer), カードセット「NAME」 for a
 *  designer's card set and 変則ルール for rule switches away from the standard, its title
 *  naming each departure; null for a standard match. */
export function departuresOf(m) {
  const all = m.departures || [];
  if (!all.length) return null;
  const lang = S.settings.lang === 'en' ? 'en' : 'ja';
  const sets = all.filter((d) => d.code === 'card_set');
  const marks = sets.map((d) => T('dep_card_set', { name: d.name }));
  if (sets.length < all.length) marks.push(T('dep_variant'));
  const lines = all.map((d) => (d.code === 'card_set'
    ? T('dep_set_line', { name: d.name, ref: `${d.name}@${String(d.ref || '').split('@').pop().slice(0, 12)}` })
    : T('dep_switch', { name: d[`name_${lang}`] || d.key, value: d[`value_${lang}`] ?? String(d.value) })));
  return h('span', {
    class: 'mh-departures', text: marks.join(t('list_dot')), title: [T('dep_title'), ...lines].join('\n'),
    dataset: { codes: [...new Set(all.map((d) => d.code))].join(' ') },
  });
}

export function decksText(m) {
  return decksOf(m).map((e) => e.textContent).join('');
}

/** Whether both seats of a record were people (a match between two people). */
function twoPeople(m) {
  const p = m.players || {};
  return p['0'] === 'human' && p['1'] === 'human';
}

/** A seat's player in the list: COM's level; a person is 「あなた」 against COM, and between
 *  two people P1 / P2 (「あなた（P1）」 for the seat this browser played, when the server
 *  recognised one of its tokens: `m.yours`). */
function playerName(m, seat) {
  const p = m.players[String(seat)];
  if (p !== 'human') return levelName(p);
  if (!twoPeople(m)) return t('human');
  return m.yours === seat ? T('you_seat', { seat: `P${seat + 1}` }) : `P${seat + 1}`;
}

/** The outcome reasons of a match that ended off the board, said after its result. */
const OFF_BOARD = new Set(['resign', 'timeout', 'abandon']);

export function resultOf(m) {
  if (m.state === 'abandoned' || m.reason === 'abandoned') return { cls: 'none abandoned', text: t('r_abandoned') };
  if (!m.finished) return { cls: 'open', text: t('r_open') };
  if ((m.winner === 0 || m.winner === 1) && twoPeople(m)) {
    const how = OFF_BOARD.has(m.reason) ? T(`reason_${m.reason}`) : '';
    const mine = m.yours === m.winner;
    return { cls: mine ? 'win' : `p${m.winner + 1}`, text: t(mine ? 'r_you' : m.winner === 0 ? 'r_p1' : 'r_p2') + how };
  }
  if (m.winner === 0 || m.winner === 1) {
    const human = m.players[String(m.winner)] === 'human';
    const played = Object.values(m.players || {}).includes('human');
    // A person's own match reads from their side; COM against COM names the seat.
    const how = OFF_BOARD.has(m.reason) ? T(`reason_${m.reason}`) : '';
    if (played) return { cls: human ? 'win' : `p${m.winner + 1}`, text: t(human ? 'r_you' : 'r_com') + how };
    return { cls: `p${m.winner + 1}`, text: t(m.winner === 0 ? 'r_p1' : 'r_p2') };
  }
  return { cls: 'none', text: m.reason === 'abandoned' ? t('r_abandoned') : t('r_none') };
}

/** Where a match came from; a deal the player chose (a seed, an unshuffled deck, a
 *  continued record: the server's `open_deal`) is marked, a fair deal never is. */
function sourceOf(m) {
  const key = `src_${m.source}`;
  let name = hasText(key) ? t(key) : m.source;
  if (m.parent) name = `${name}（${t('branch_of', { id: m.parent[0], step: m.parent[1] })}）`;
  return m.open_deal ? `${name}${t('list_dot')}${t('open_deal')}` : name;
}

function renderList() {
  const box = $('#mh-list');
  if (!box || $('#history').hidden) return;
  const page = L.page;
  if (!page) {
    put(box, h('p', { class: 'mh-note muted', text: L.loading ? t('mh_loading') : L.error ? `${t('err_history')}: ${L.error}` : '' }));
    put($('#mh-pager'));
    return;
  }
  box.classList.toggle('loading', L.loading);
  if (!page.matches.length) {
    put(box, h('p', { class: 'mh-note muted', text: t('mh_empty') }));
  } else {
    const pickable = page.matches.filter((m) => m.state !== 'live');
    const allPicked = pickable.length > 0 && pickable.every((m) => L.picked.has(m.id));
    const pickAll = h('input', {
      type: 'checkbox', class: 'mh-pick-all', 'aria-label': t('mh_pick_page'), title: t('mh_pick_page'),
      checked: allPicked, disabled: !pickable.length,
      onchange: (ev) => { for (const m of pickable) { if (ev.target.checked) L.picked.add(m.id); else L.picked.delete(m.id); } L.confirming = false; renderList(); },
    });
    const head = h('tr', null, h('th', { class: 'mh-pick' }, pickAll), ['#', t('col_when'), t('col_decks'), t('col_players'), t('col_result'), t('col_steps'), t('col_source'), '']
      .map((text) => h('th', { text })));
    const rows = page.matches.map((m) => {
      const r = resultOf(m);
      const open = () => openReplay(m.id);
      return h('tr', {
        class: 'mh-row', tabindex: '0', dataset: { id: m.id }, onclick: open,
        onkeydown: (ev) => { if (ev.key === 'Enter') open(); },
      },
      h('td', { class: 'mh-pick', onclick: (ev) => ev.stopPropagation() }, pickBox(m)),
      h('td', { class: 'mh-id muted', text: m.id }),
      h('td', { class: 'mh-when', text: when(m.created) }),
      h('td', { class: 'mh-decks' }, decksOf(m), departuresOf(m)),
      h('td', { class: 'mh-players', text: `${playerName(m, 0)} vs ${playerName(m, 1)}` }),
      h('td', { class: `mh-result ${r.cls}`, text: r.text }),
      h('td', { class: 'mh-steps', text: t('n_steps', { n: m.steps }) }),
      h('td', { class: 'mh-source muted', text: sourceOf(m) }),
      h('td', { class: 'mh-open' }, h('button', { type: 'button', class: 'tool', text: t('open'), tabindex: '-1' })));
    });
    put(box, h('table', { class: 'mh-table' }, h('thead', null, head), h('tbody', null, rows)));
  }
  renderSelection();
  const from = page.matches.length ? page.offset + 1 : 0;
  put($('#mh-pager'),
    h('button', { type: 'button', class: 'tool', id: 'mh-prev', text: t('prev_page'), disabled: page.offset === 0,
      onclick: () => { L.offset = Math.max(0, L.offset - PAGE); loadPage(); } }),
    h('span', { class: 'muted', text: t('page_range', { from, to: page.offset + page.matches.length }) }),
    h('button', { type: 'button', class: 'tool', id: 'mh-next', text: t('next_page'), disabled: !page.more,
      onclick: () => { L.offset += PAGE; loadPage(); } }));
}

/** A record's selection box; a match being played cannot be selected (the box says why). */
function pickBox(m) {
  const live = m.state === 'live';
  return h('input', {
    type: 'checkbox', class: 'mh-pick-one', dataset: { id: m.id, ...(live ? { why: t('mh_live_note') } : {}) },
    'aria-label': `${t('mh_pick')} #${m.id}`, title: live ? t('mh_live_note') : t('mh_pick'),
    checked: L.picked.has(m.id), disabled: live,
    onkeydown: (ev) => ev.stopPropagation(),
    onchange: (ev) => { if (ev.target.checked) L.picked.add(m.id); else L.picked.delete(m.id); L.confirming = false; renderList(); },
  });
}

/** The bar over the list while records are selected: how many, delete (pressed twice), clear. */
function renderSelection() {
  const bar = $('#mh-select');
  if (!bar) return;
  const n = L.picked.size;
  bar.hidden = n === 0;
  if (!n) { put(bar); return; }
  put(bar,
    h('span', { class: 'mh-count', text: t('mh_selected', { n }) }),
    h('button', {
      type: 'button', id: 'mh-delete', class: `tool danger${L.confirming ? ' confirming' : ''}`,
      text: L.confirming ? t('mh_delete_confirm', { n }) : t('mh_delete'), onclick: deletePicked,
    }),
    h('button', { type: 'button', class: 'link', id: 'mh-unselect', text: t('mh_unselect'), onclick: () => { L.picked.clear(); L.confirming = false; renderList(); } }));
}

/** Delete the selected records: the first press asks, the second deletes them for good. */
async function deletePicked() {
  if (!L.confirming) {
    L.confirming = true;
    renderSelection();
    $('#mh-delete').focus();
    return;
  }
  const ids = [...L.picked];
  L.confirming = false;
  try {
    const answer = await fetchJson('/api/matches/delete', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ ids }),
    });
    L.picked.clear();
    toast(t('mh_deleted', { n: answer.deleted.length }), '', 'info');
  } catch (err) {
    toast(t('mh_delete_err'), String(err.message || err), 'error');
  }
  if (L.page && L.offset > 0 && L.page.matches.length <= ids.length) L.offset = Math.max(0, L.offset - PAGE);
  await loadPage();
}

export function bindHistory() {
  $('#mh-filters').addEventListener('change', (ev) => {
    const id = ev.target.id;
    const key = { 'f-game': 'game', 'f-deck': 'deck', 'f-state': 'state', 'f-result': 'result', 'f-source': 'source', 'f-since': 'since', 'f-until': 'until' }[id];
    if (!key) return;
    L.filters[key] = ev.target.value;
    L.offset = 0;
    loadPage();
  });
  $('#mh-filters').addEventListener('submit', (ev) => ev.preventDefault());
  $('#f-clear').addEventListener('click', () => {
    L.filters = { ...NO_FILTERS };
    L.offset = 0;
    renderHistoryScreen();
    loadPage();
  });
  $('#mh-back').addEventListener('click', () => {
    setHash('');
    if (S.game) resumeGame();
    else showScreen('start');
  });
  for (const b of $$('[data-open-history]')) b.addEventListener('click', () => openHistory());
}
