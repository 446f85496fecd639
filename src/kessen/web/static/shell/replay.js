// The replay viewer of a recorded match, and "continue from here" (a new game against COM
// from any step of a replay).
//
// The viewer asks the server for one step at a time (`/api/matches/{id}/step/{n}`), as one
// seat saw it — or everything once the match is over — and draws it with the module of its
// ruleset (shell/registry.js), read-only. Logs only grow, so each request says which log the
// page already has and the server sends only the new entries.

import { disconnect } from './connection.js';
import { $, $$, h, put } from './dom.js';
import { exportedMatch } from './embedded.js';
import {
  decksText, departuresOf, fetchMatches, loadPage, openHistory, renderHistoryScreen, resultOf, setHash, when,
} from './history.js';
import { hasText, t, texts } from './i18n.js';
import { closeOverlay, toast } from './overlay.js';
import { anyActionText, gameOf, GAMES, known, promptLabel, resetGames } from './registry.js';
import { levelName, seatName } from './seats.js';
import { beginGame, leaveGame, showScreen } from './session.js';
import { S, saveSettings, scheduleRender } from './state.js';

const T = texts({ ja: { rp_seed: 'シード {seed}' }, en: { rp_seed: 'Seed {seed}' } });
const SPEEDS = [0.5, 1, 2, 4];
const STEP_MS = 1000; // one step per second at 1×
const KEEP = 120; // step views kept in memory per replay

/** Whether `ruleset` plays matches (Kōbō: best of N games) rather than single games (TWGP):
 * a ruleset whose config has no `best_of` plays one game at a time. */
function playsMatches(ruleset) {
  const meta = S.meta && S.meta.rulesets && S.meta.rulesets[ruleset];
  return meta ? 'best_of' in (meta.default_config || {}) : ruleset === GAMES[0].id;
}

/** A text of the viewer in the words of the open record's ruleset: a record of single games
 * reads `<key>_game` ("the game is over") where a match reads `<key>` ("the match is over"). */
function rt(key, params) {
  const R = S.replay;
  const own = `${key}_game`;
  const ruleset = (R && R.info.match.ruleset) || GAMES[0].id;
  return !playsMatches(ruleset) && hasText(own) ? t(own, params) : t(key, params);
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
  resetGames();
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
  if (exportedMatch()) return; // an exported replay (kessen store html) is its one match
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
  return gameOf((S.replay && S.replay.info.match.ruleset) || GAMES[0].id).replayTurnLabel(x);
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
    const cfg = gameOf(R.info.match.ruleset || GAMES[0].id).continueConfig(R.info.match, seat, res);
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
    h('div', { class: 'rp-decks muted' }, decksText(m), departuresOf(m)),
    // The seed as stored (a string: 64 bits do not fit a JavaScript number); none while hidden.
    m.seed != null ? h('div', { class: 'rp-decks rp-seed muted', id: 'rp-seed', text: T('rp_seed', { seed: m.seed }) }) : null,
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
    const ruleset = R.info.match.ruleset || GAMES[0].id;
    const prompt = data.prompt ? `${promptLabel(data.prompt, ruleset)} · ` : '';
    move = t('rp_move', { who: seatName(data.actor), action: `${prompt}${anyActionText(data.action, data.prompt, ruleset)}` });
  }
  const moveEl = $('#rp-move');
  moveEl.textContent = move;
  moveEl.title = move; // the whole move when the line is cut short (never the raw action)
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
  const seat = R.seat === 'all' ? 0 : Number(R.seat);
  // The server refuses a branch that would give COM someone's hidden cards; say why here.
  const refused = R.info.continue_refused ? R.info.continue_refused[String(seat)] : null;
  cont.disabled = over || !!refused || R.step !== at;
  const level = R.info.continue_com ? R.info.continue_com[String(seat)] : 'heuristic';
  $('#rp-continue-note').textContent = refused
    ? t(`rp_continue_${refused}`)
    : over
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
