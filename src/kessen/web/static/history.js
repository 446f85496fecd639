// Recorded matches (対戦記録) of every ruleset: the list of recorded matches, the replay
// viewer, and "continue from here" (a new game against COM from any step of a replay).
//
// The viewer asks the server for one step at a time (`/api/matches/{id}/step/{n}`), as one
// seat saw it — or everything once the match is over — and draws it with the board renderer
// of its ruleset (app.js for Kōbō, twgp.js for TWGP), read-only. Logs only grow, so each
// request says which log the page already has and the server sends only the new entries.

import {
  S, I18N, h, put, t, $, $$, fetchJson, toast, showScreen, scheduleRender, cat, seatName,
  beginGame, leaveGame, resumeGame, disconnect, closeOverlay, saveSettings, levelName,
  promptLabel, anyActionText, ownTokens,
} from './app.js';

const PAGE = 20;
const SPEEDS = [0.5, 1, 2, 4];
const STEP_MS = 1000; // one step per second at 1×
const KEEP = 120; // step views kept in memory per replay

const L = {
  filters: { game: '', deck: '', result: '', source: '', since: '', until: '' },
  offset: 0,
  page: null,
  error: null,
  loading: false,
  seq: 0,
};

/* ================================================================== addresses */

/** Ask the match API, presenting this browser's game tokens (an unfinished match shows its
 *  own seat's view only to the browser that plays it). */
function fetchMatches(url, init = {}) {
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

async function loadPage() {
  const seq = ++L.seq;
  L.loading = true;
  renderList();
  const f = L.filters;
  const q = new URLSearchParams({ offset: String(L.offset), limit: String(PAGE) });
  if (f.game) q.set('ruleset', f.game);
  if (f.deck) q.set('deck', f.deck);
  if (f.result === 'open') q.set('finished', 'false');
  else if (f.result) q.set('result', f.result);
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
  const games = S.meta ? Object.keys(S.meta.rulesets) : ['kobo'];
  put($('#f-game'), option('', t('f_all')), games.map((g) => option(g, I18N.ja[`game_${g}`] ? t(`game_${g}`) : g)));
  $('#f-game').value = f.game;
  put($('#f-deck'), option('', t('f_all')), Object.values(cat().decks || {}).map((d) => option(d.slug, d.name)));
  put($('#f-result'), option('', t('f_all')), option('0', t('r_p1')), option('1', t('r_p2')),
    option('none', t('r_none')), option('open', t('r_open')));
  put($('#f-source'), option('', t('f_all')),
    ['server', 'branch', 'sim', 'import', 'play'].map((s) => option(s, t(`src_${s}`))));
  $('#f-deck').value = f.deck;
  $('#f-result').value = f.result;
  $('#f-source').value = f.source;
  $('#f-since').value = f.since;
  $('#f-until').value = f.until;
  renderList();
}

function when(iso) {
  return iso ? iso.replace('T', ' ').slice(0, 16) : '';
}

function deckName(slug) {
  const d = slug && cat().decks ? cat().decks[slug] : null;
  return d ? d.name : (slug || '?');
}

/** What the decks column says of a match: its two decks, or the game when it has none. */
function decksOf(m) {
  if (m.ruleset && m.ruleset !== 'kobo' && !(m.decks || []).some((d) => d)) {
    return [h('span', { class: 'mh-game', text: I18N.ja[`game_${m.ruleset}`] ? t(`game_${m.ruleset}`) : m.ruleset })];
  }
  const decks = m.decks || [];
  return [h('span', { class: 'd0', text: deckName(decks[0]) }), h('span', { class: 'vs muted', text: ' vs ' }),
    h('span', { class: 'd1', text: deckName(decks[1]) })];
}

function decksText(m) {
  return decksOf(m).map((e) => e.textContent).join('');
}

function playerName(p) {
  return p === 'human' ? t('human') : levelName(p);
}

function resultOf(m) {
  if (!m.finished) return { cls: 'open', text: t('r_open') };
  if (m.winner === 0 || m.winner === 1) {
    const human = m.players[String(m.winner)] === 'human';
    return { cls: human ? 'win' : `p${m.winner + 1}`, text: t(m.winner === 0 ? 'r_p1' : 'r_p2') };
  }
  return { cls: 'none', text: m.reason === 'abandoned' ? t('r_abandoned') : t('r_none') };
}

function sourceOf(m) {
  const key = `src_${m.source}`;
  const name = I18N.ja[key] ? t(key) : m.source;
  if (m.parent) return `${name}（${t('branch_of', { id: m.parent[0], step: m.parent[1] })}）`;
  return name;
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
    const head = h('tr', null, ['#', t('col_when'), t('col_decks'), t('col_players'), t('col_result'), t('col_steps'), t('col_source'), '']
      .map((text) => h('th', { text })));
    const rows = page.matches.map((m) => {
      const r = resultOf(m);
      const open = () => openReplay(m.id);
      return h('tr', {
        class: 'mh-row', tabindex: '0', dataset: { id: m.id }, onclick: open,
        onkeydown: (ev) => { if (ev.key === 'Enter') open(); },
      },
      h('td', { class: 'mh-id muted', text: m.id }),
      h('td', { class: 'mh-when', text: when(m.created) }),
      h('td', { class: 'mh-decks' }, decksOf(m)),
      h('td', { class: 'mh-players', text: `${playerName(m.players['0'])} vs ${playerName(m.players['1'])}` }),
      h('td', { class: `mh-result ${r.cls}`, text: r.text }),
      h('td', { class: 'mh-steps', text: t('n_steps', { n: m.steps }) }),
      h('td', { class: 'mh-source muted', text: sourceOf(m) }),
      h('td', { class: 'mh-open' }, h('button', { type: 'button', class: 'tool', text: t('open'), tabindex: '-1' })));
    });
    put(box, h('table', { class: 'mh-table' }, h('thead', null, head), h('tbody', null, rows)));
  }
  const from = page.matches.length ? page.offset + 1 : 0;
  put($('#mh-pager'),
    h('button', { type: 'button', class: 'tool', id: 'mh-prev', text: t('prev_page'), disabled: page.offset === 0,
      onclick: () => { L.offset = Math.max(0, L.offset - PAGE); loadPage(); } }),
    h('span', { class: 'muted', text: t('page_range', { from, to: page.offset + page.matches.length }) }),
    h('button', { type: 'button', class: 'tool', id: 'mh-next', text: t('next_page'), disabled: !page.more,
      onclick: () => { L.offset += PAGE; loadPage(); } }));
}

export function bindHistory() {
  $('#mh-filters').addEventListener('change', (ev) => {
    const id = ev.target.id;
    const key = { 'f-game': 'game', 'f-deck': 'deck', 'f-result': 'result', 'f-source': 'source', 'f-since': 'since', 'f-until': 'until' }[id];
    if (!key) return;
    L.filters[key] = ev.target.value;
    L.offset = 0;
    loadPage();
  });
  $('#mh-filters').addEventListener('submit', (ev) => ev.preventDefault());
  $('#f-clear').addEventListener('click', () => {
    L.filters = { game: '', deck: '', result: '', source: '', since: '', until: '' };
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

/* ================================================================== the replay viewer */

/** Whether `ruleset` plays matches (Kōbō: best of N games) rather than single games (TWGP):
 * a ruleset whose config has no `best_of` plays one game at a time. */
function playsMatches(ruleset) {
  const meta = S.meta && S.meta.rulesets && S.meta.rulesets[ruleset];
  return meta ? 'best_of' in (meta.default_config || {}) : ruleset === 'kobo';
}

/** A text of the viewer in the words of the open record's ruleset: a record of single games
 * reads `<key>_game` ("the game is over") where a match reads `<key>` ("the match is over"). */
function rt(key, params) {
  const R = S.replay;
  const own = `${key}_game`;
  const ruleset = (R && R.info.match.ruleset) || 'kobo';
  return !playsMatches(ruleset) && I18N.ja[own] ? t(own, params) : t(key, params);
}

export async function openReplay(id, opts = {}) {
  let info;
  try {
    info = await fetchMatches(`/api/matches/${id}`);
  } catch (err) {
    toast(t('err_replay'), String(err.message || err), 'error');
    if (!$('#start').hidden || !$('#history').hidden || S.replay) return;
    openHistory();
    return;
  }
  if (!info.seats.length) { // an unfinished match of another browser: nothing of it is shown
    const why = S.settings.lang === 'en'
      ? 'This match is not finished and is played in another browser: it can be watched once it is over.'
      : 'この対戦はまだ終わっておらず、別のブラウザで対戦中です。終了後に見られます。';
    toast(t('err_replay'), why, 'error');
    if (!$('#start').hidden || !$('#history').hidden || S.replay) return;
    openHistory();
    return;
  }
  stopReplay();
  if (S.ws) disconnect();
  closeOverlay();
  const seat = opts.seat && info.seats.includes(opts.seat) ? opts.seat : info.seats[0];
  S.replay = {
    id, info, seat, step: 0, target: opts.step || 0, steps: info.steps,
    speed: SPEEDS.includes(S.settings.replaySpeed) ? S.settings.replaySpeed : 1,
    playing: false, timer: null, seq: 0, logs: null, cache: new Map(), panel: null,
  };
  S.view = null;
  S.info = null;
  S.opsSig = '';
  S.logSig = '';
  S.prevKeys.clear();
  showScreen('game');
  setHash(`#/matches/${id}`);
  await goTo(opts.step || 0);
}

/** Leave the viewer (its timer stopped). */
export function stopReplay() {
  const R = S.replay;
  if (!R) return;
  clearTimeout(R.timer);
  R.playing = false;
  S.replay = null;
  S.view = null;
  S.opsSig = '';
  S.logSig = '';
  S.whySig = '';
}

/** Back from the viewer to the list (its page and filters kept). */
export function backToList() {
  stopReplay();
  showScreen('history');
  setHash('#/matches');
  renderHistoryScreen();
  loadPage();
}

function stepData(R, n) {
  const key = `${R.seat}|${S.settings.lang}`;
  const ck = `${key}|${n}`;
  const kept = R.cache.get(ck);
  if (kept) return kept;
  const known = R.logs && R.logs.key === key ? R.logs : null;
  const q = new URLSearchParams({ seat: R.seat, lang: S.settings.lang });
  if (known) {
    q.set('base', String(known.step));
    q.set('log_from', String(known.entries.length));
  }
  const promise = fetchMatches(`/api/matches/${R.id}/step/${n}?${q}`).then((data) => {
    const start = known ? known.entries.slice(0, data.log_start) : [];
    const entries = start.concat(data.view.log);
    R.logs = { key, step: n, entries };
    return { ...data, view: { ...data.view, log: entries } };
  });
  R.cache.set(ck, promise);
  promise.catch(() => R.cache.delete(ck));
  while (R.cache.size > KEEP) R.cache.delete(R.cache.keys().next().value);
  return promise;
}

/** Show step `n` (clamped); resolves true once it is drawn, false if another seek won. */
export async function goTo(n, auto = false) {
  const R = S.replay;
  if (!R) return false;
  const step = Math.max(0, Math.min(R.steps, Math.round(Number(n) || 0)));
  const seq = ++R.seq;
  R.autoSeq = auto ? seq : 0;
  R.target = step;
  updatePanel();
  let data;
  try {
    data = await stepData(R, step);
  } catch (err) {
    if (S.replay === R && seq === R.seq) {
      pause();
      toast(t('err_replay'), String(err.message || err), 'error');
    }
    return false;
  }
  if (S.replay !== R || seq !== R.seq) return false;
  R.step = step;
  R.current = data;
  showView(R, data);
  if (R.playing && step < R.steps) stepData(R, step + 1).catch(() => {});
  return true;
}

function showView(R, data) {
  const players = R.info.match.players || {};
  const com = {};
  for (const [seat, p] of Object.entries(players)) if (p !== 'human') com[seat] = p;
  const v = {
    ...data.view,
    session: {
      id: `replay-${R.id}-${R.seat}`, mode: 'replay', you: R.seat === 'all' ? null : Number(R.seat),
      com, pace: 0, show_all: R.seat === 'all',
    },
    history: {
      can_undo: R.step > 0, can_redo: R.step < R.steps, live: false, step: R.step, steps: R.steps,
      undo_blocked: null, boundary_log: null,
    },
    com_why: null,
  };
  S.view = v;
  S.stateSeq = (S.stateSeq || 0) + 1;
  scheduleRender();
}

function schedule(R) {
  clearTimeout(R.timer);
  R.timer = setTimeout(() => tick(R), STEP_MS / R.speed);
}

async function tick(R) {
  if (S.replay !== R || !R.playing) return;
  if (R.step >= R.steps) {
    pause();
    return;
  }
  await goTo(R.step + 1, true);
  if (S.replay === R && R.playing) {
    if (R.step >= R.steps) pause();
    else schedule(R);
  }
}

export async function play() {
  const R = S.replay;
  if (!R || R.playing) return;
  R.playing = true;
  updatePanel();
  if (R.step >= R.steps) await goTo(0); // from the end: play from the start
  if (S.replay !== R || !R.playing) return;
  schedule(R);
  stepData(R, Math.min(R.steps, R.step + 1)).catch(() => {});
}

export function pause() {
  const R = S.replay;
  if (!R) return;
  R.playing = false;
  clearTimeout(R.timer);
  if (R.autoSeq && R.autoSeq === R.seq && R.target !== R.step) {
    R.seq += 1; // the step playback was loading is not shown: pause stops where it is
    R.target = R.step;
  }
  updatePanel();
}

function setSpeed(speed) {
  const R = S.replay;
  if (!R) return;
  R.speed = speed;
  S.settings.replaySpeed = speed;
  saveSettings();
  if (R.playing) schedule(R);
  updatePanel();
}

function setSeat(seat) {
  const R = S.replay;
  if (!R || seat === R.seat || !R.info.seats.includes(seat)) return;
  R.seat = seat;
  R.logs = null;
  S.info = null;
  goTo(R.target);
}

function turnStep(dir) {
  const R = S.replay;
  const at = R.target;
  const starts = R.info.turns.map((x) => x.step);
  if (dir < 0) {
    const before = starts.filter((s) => s < at);
    return before.length ? before[before.length - 1] : 0;
  }
  const after = starts.find((s) => s > at);
  return after ?? R.steps;
}

function turnAt(step) {
  const turns = S.replay.info.turns;
  let found = turns[0];
  for (const x of turns) if (x.step <= step) found = x;
  return found;
}

function turnLabel(x) {
  if (!x) return '';
  if (S.replay && S.replay.info.match.ruleset === 'twgp') {
    if (x.turn === 0) return t('setup_label');
    return `${t('turn', { n: x.turn })}${x.player == null ? '' : ` · P${x.player + 1}`}`;
  }
  if (x.turn === 0) return t('standby_label', { g: x.game });
  const who = x.player == null ? '' : ` · P${x.player + 1}`;
  return `${t('turn_label', { g: x.game, n: x.turn })}${who}`;
}

async function continueHere() {
  const R = S.replay;
  if (!R) return;
  pause();
  const seat = R.seat === 'all' ? 0 : Number(R.seat);
  const button = $('#rp-continue');
  if (button) button.disabled = true;
  try {
    const res = await fetchMatches(`/api/matches/${R.id}/continue`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ step: R.step, seat }),
    });
    const decks = R.info.match.decks || [];
    const ruleset = R.info.match.ruleset || 'kobo';
    const known = decks.length === 2 && decks.every((d) => d && cat().decks && cat().decks[d]);
    let cfg = known ? { mode: 'vs_com', decks: seat === 1 ? [decks[1], decks[0]] : decks, com: res.com } : null;
    if (ruleset !== 'kobo') cfg = { ruleset, mode: 'vs_com', com: res.com };
    stopReplay();
    setHash('');
    beginGame({ id: res.id, token: res.token, seat: res.seat }, cfg);
  } catch (err) {
    if (button) button.disabled = false;
    toast(t('err_continue'), String(err.message || err), 'error');
  }
}

/* ---------------------------------------------------------------- the replay panel */

function buildPanel(R) {
  const info = R.info;
  const m = info.match;
  const seek = h('input', { type: 'range', id: 'rp-seek', min: '0', max: String(R.steps), step: '1', value: String(R.target), 'aria-label': t('rp_seek') });
  seek.addEventListener('input', () => goTo(Number(seek.value)));
  const ticks = h('div', { class: 'rp-ticks', 'aria-hidden': 'true' },
    info.turns.filter((x) => x.step > 0).map((x) => h('i', {
      class: x.turn === 0 ? 'game' : 'turn',
      style: `left:${(100 * x.step) / Math.max(1, R.steps)}%`,
    })));
  const button = (id, text, title, onclick, cls = 'tool') => h('button', { type: 'button', id, class: cls, text, title, 'aria-label': title, onclick });
  const turnSel = h('select', { id: 'rp-turn' }, info.turns.map((x) => h('option', { value: String(x.step), text: turnLabel(x) })));
  turnSel.addEventListener('change', () => goTo(Number(turnSel.value)));
  const chips = (id, items, on) => h('div', { class: 'seg', id, role: 'group' },
    items.map(([value, text, title]) => h('button', {
      type: 'button', class: 'chip', text, title, dataset: { value: String(value) }, onclick: () => on(value),
    })));
  const seatItems = [['0', t('seat_p1')], ['1', t('seat_p2')], ['all', t('seat_all')]]
    .map(([value, text]) => [value, text, info.seats.includes(value) ? '' : value === 'all' ? rt('rp_all_why') : rt('rp_seat_locked')]);
  const lockNote = !info.seats.includes('all') ? rt('rp_all_locked') : '';
  return h('div', { class: 'rp' },
    h('div', { class: 'rp-head' },
      h('span', { class: 'rp-id', text: `#${m.id}` }),
      h('span', { class: 'rp-date muted', text: when(m.created) }),
      h('span', { class: `rp-state ${resultOf(m).cls}`, text: resultOf(m).text })),
    h('div', { class: 'rp-decks muted', text: decksText(m) }),
    h('div', { class: 'rp-pos' }, h('strong', { id: 'rp-step' }), h('span', { id: 'rp-where', class: 'muted' })),
    h('div', { class: 'rp-move', id: 'rp-move' }),
    h('div', { class: 'rp-seek' }, seek, ticks),
    h('div', { class: 'rp-transport' },
      button('rp-prev-turn', '«', t('rp_prev_turn'), () => goTo(turnStep(-1))),
      button('rp-prev', '‹', t('rp_prev'), () => goTo(S.replay.target - 1)),
      button('rp-play', '▶', t('rp_play'), () => (S.replay.playing ? pause() : play()), 'primary'),
      button('rp-next', '›', t('rp_next'), () => goTo(S.replay.target + 1)),
      button('rp-next-turn', '»', t('rp_next_turn'), () => goTo(turnStep(1)))),
    h('label', { class: 'rp-row' }, h('span', { class: 'rp-label', text: t('rp_turn') }), turnSel),
    h('div', { class: 'rp-row' }, h('span', { class: 'rp-label', text: t('rp_speed') }),
      chips('rp-speed', SPEEDS.map((s) => [s, `${s}×`, '']), setSpeed)),
    h('div', { class: 'rp-row' }, h('span', { class: 'rp-label', text: t('rp_seat') }), chips('rp-seat', seatItems, setSeat)),
    lockNote ? h('p', { class: 'rp-note muted', text: lockNote }) : null,
    h('div', { class: 'rp-continue' },
      h('button', { type: 'button', id: 'rp-continue', class: 'primary', text: t('rp_continue'), onclick: continueHere }),
      h('p', { class: 'rp-note muted', id: 'rp-continue-note' })));
}

/** Bring the panel's values up to date (no rebuild: a dragged slider keeps working). */
export function updatePanel() {
  const R = S.replay;
  if (!R || !R.panel) return;
  const at = R.target;
  const seek = $('#rp-seek');
  if (seek && document.activeElement !== seek) seek.value = String(at);
  else if (seek && Number(seek.value) !== at) seek.value = String(at);
  $('#rp-step').textContent = t('replay_step', { step: at, steps: R.steps });
  $('#rp-where').textContent = turnLabel(turnAt(at));
  const data = R.current && R.current.step === R.step ? R.current : null;
  let move = t('rp_start');
  if (data && data.action) {
    const ruleset = R.info.match.ruleset || 'kobo';
    const prompt = data.prompt ? `${promptLabel(data.prompt, ruleset)} · ` : '';
    move = t('rp_move', { who: seatName(data.actor), action: `${prompt}${anyActionText(data.action, data.prompt, ruleset)}` });
  }
  const moveEl = $('#rp-move');
  moveEl.textContent = move;
  moveEl.title = data && data.action ? data.action : '';
  $('#rp-prev').disabled = at <= 0;
  $('#rp-prev-turn').disabled = at <= 0;
  $('#rp-next').disabled = at >= R.steps;
  $('#rp-next-turn').disabled = at >= R.steps;
  const playBtn = $('#rp-play');
  playBtn.textContent = R.playing ? '❚❚' : '▶';
  playBtn.title = R.playing ? t('rp_pause') : t('rp_play');
  playBtn.setAttribute('aria-label', playBtn.title);
  playBtn.setAttribute('aria-pressed', String(R.playing));
  const turnSel = $('#rp-turn');
  const current = turnAt(at);
  if (current && document.activeElement !== turnSel) turnSel.value = String(current.step);
  for (const b of $$('#rp-speed .chip')) b.classList.toggle('on', Number(b.dataset.value) === R.speed);
  for (const b of $$('#rp-seat .chip')) {
    b.classList.toggle('on', b.dataset.value === R.seat);
    b.disabled = !R.info.seats.includes(b.dataset.value);
  }
  const over = !!(S.view && !S.view.pending);
  const cont = $('#rp-continue');
  cont.disabled = over || R.step !== at;
  const seat = R.seat === 'all' ? 0 : Number(R.seat);
  const level = R.info.continue_com ? R.info.continue_com[String(seat)] : 'heuristic';
  $('#rp-continue-note').textContent = over
    ? rt('rp_continue_over')
    : t('rp_continue_note', { seat: `P${seat + 1}`, com: levelName(level) });
}

/** The operation panel of the viewer: the replay controls. */
export function renderReplayOps() {
  const R = S.replay;
  const body = $('#ops-body');
  const sig = `${S.settings.lang}|${R.id}|${R.seat}`;
  if (!R.panel || R.panelSig !== sig || !body.contains(R.panel)) {
    R.panel = buildPanel(R);
    R.panelSig = sig;
    put(body, R.panel);
  }
  updatePanel();
}

/** Keys of the viewer: ← → step, Space play/pause, Home/End, PageUp/PageDown by turn. */
export function onReplayKey(ev) {
  const R = S.replay;
  if (!R || $('#game').hidden) return false;
  const tag = ev.target && ev.target.tagName;
  if (tag === 'SELECT' || tag === 'TEXTAREA' || (tag === 'INPUT' && ev.target.type !== 'range')) return false;
  if (tag === 'INPUT' && ev.key.startsWith('Arrow')) return false; // the slider moves itself
  if (tag === 'BUTTON' && (ev.key === ' ' || ev.key === 'Enter')) return false; // a focused button presses itself
  const keys = {
    ArrowLeft: () => goTo(R.target - 1),
    ArrowRight: () => goTo(R.target + 1),
    Home: () => goTo(0),
    End: () => goTo(R.steps),
    PageUp: () => goTo(turnStep(-1)),
    PageDown: () => goTo(turnStep(1)),
    ' ': () => (R.playing ? pause() : play()),
  };
  const f = keys[ev.key];
  if (!f) return false;
  ev.preventDefault();
  f();
  return true;
}

export function replayLangChanged() {
  const R = S.replay;
  if (!R) return;
  R.panel = null;
  R.logs = null;
  goTo(R.target);
}

/** The table's button of the top bar: the list (from the viewer) or the history screen. */
export function historyButton() {
  if (S.replay) backToList();
  else openHistory();
}

export function leaveReplayToStart() {
  stopReplay();
  setHash('');
  leaveGame();
}
