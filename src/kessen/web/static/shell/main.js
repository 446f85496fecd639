// The page's entry: the language switch, the server's messages, the game screen's render loop
// and top-bar tools (undo, redo, live, show all, rules, new match), the events of the page, boot and
// the `window.kobo` handle for tests. What a game draws comes from its module, found through
// shell/registry.js.

// First: in an exported replay (kessen store html) it answers the page's fetches from the file.
import { exportedMatch } from './embedded.js';
import { choose, connect, onMessages, send } from './connection.js';
import { bindDecks, renderDecksScreen } from './decks.js';
import { bindDesign, designAllowed, designEntry, renderDesign, routeDesign } from '../design/design.js';
import { $, $$, afterDrawing } from './dom.js';
import { bindDrawers } from './drawers.js';
import { joinFromLink, renderFriend } from './friend.js';
import { bindResign, maybeShowEnded, renderResignTool } from './ending.js';
import { bindGlossary, decorateTerms } from './glossary.js';
import { bindHelp, renderHelp } from './help.js';
import { bindHistory, renderHistoryScreen, routeFromHash } from './history.js';
import { hasText, LANGS, t } from './i18n.js';
import { renderInfo, showInfo } from './info.js';
import { bindKeys, decorateKeys } from './keys.js';
import { holdLog, renderLog } from './log.js';
import {
  finishPlayback, frameIndex, initPaceSetting, labelPaceSetting, logShown, PB, playing, renderBanner,
} from './playback.js';
import { bindPreview, renderPreview } from './preview.js';
import { bindSheet, sheetOpen } from './sheet.js';
import { revealChoice } from './reveal.js';
import { closeOverlay, toast } from './overlay.js';
import { gameOfView, GAMES, offered, resetGames } from './registry.js';
import {
  backToList, historyButton, leaveReplayToStart, onReplayKey, openReplay, renderReplayOps, replayLangChanged,
} from './replay.js';
import { isMyPrompt, isOver, isSpectator, online } from './seats.js';
import { leaveGame, renderConnecting, showScreen } from './session.js';
import { applyRuleset, applySettings, applyStaticTexts, effectiveMotion } from './settings.js';
import { buildGamePicker, renderStart, startMatch } from './start.js';
import { fetchJson, loadGame, S, saveSettings, scheduleRender, setRenderer } from './state.js';
import { renderWhy } from './why.js';

/** Switch the page's language: texts, catalogues, the server's log language, redraws. */
async function setLang(lang) {
  if (!LANGS.includes(lang)) return;
  S.settings.lang = lang;
  saveSettings();
  applySettings();
  applyStaticTexts();
  await Promise.all(GAMES.map((g) => g.ensureCatalog(lang).catch(() => null)));
  resetGames();
  labelPaceSetting();
  applyRuleset();
  if (S.ws && S.ws.readyState === WebSocket.OPEN) send({ type: 'lang', lang });
  renderStart();
  renderHistoryScreen();
  renderDecksScreen();
  renderDesign();
  renderHelp();
  replayLangChanged();
  S.opsSig = '';
  S.logSig = '';
  S.whySig = '';
  scheduleRender();
}

/** An error message of the server: a toast; a game gone leaves it. */
function onError(msg) {
  S.awaiting = null;
  S.opsSig = '';
  if (msg.code === 'unknown_game' || msg.code === 'evicted') {
    S.game = null; // gone from the server already: nothing to close there
    leaveGame();
    toast(t(`err_${msg.code}`), msg.message, 'error');
    return;
  }
  const key = `err_${msg.code}`;
  const title = hasText(key) ? t(key) : t('err_generic');
  // The server's own words are English: shown as they are in English, and in another
  // language only when the page has no words of its own for the code.
  const own = hasText(key) && msg.code !== 'refused';
  toast(title, S.settings.lang === 'en' || !own ? msg.message : '', 'error');
  scheduleRender();
}

/** A new view of the game: forget answered prompts, show a game's end once, redraw. */
function onState(view) {
  // A match between two people waiting for its guest has no game yet: nothing to compare with.
  const prev = S.view && !S.view.waiting ? S.view : null;
  S.view = view;
  S.stateSeq = (S.stateSeq || 0) + 1;
  if (S.game) {
    S.game.showAll = !!view.session.show_all;
  }
  const pid = view.pending ? view.pending.prompt_id : null;
  const prevPid = prev && prev.pending ? prev.pending.prompt_id : null;
  if (pid !== prevPid || !prev) {
    S.awaiting = null;
    S.hover = null;
    if (S.confirm && S.confirm.promptId !== pid) S.confirm = null;
  } else if (S.awaiting != null && prev && prev.history.step !== view.history.step) {
    S.awaiting = null;
  }
  // An undo (the step goes back) or another session ends a playback at once.
  if (PB.run && (!prev || prev.session.id !== view.session.id || view.history.step < prev.history.step)) finishPlayback();
  if (!view.waiting) {
    detectEnds(prev, view);
    maybeShowEnded(prev, view);
  }
  showScreen('game');
  scheduleRender();
}

function detectEnds(prev, view) {
  gameOfView(view).detectEnd(prev, view);
}


/* ================================================================== rendering */

function render() {
  const v = S.view;
  if (!v || $('#game').hidden) return;
  const started = performance.now();
  applyRuleset();
  renderTools(v);
  if (v.waiting) { // no game before the friend has joined: the table bar is the screen (friend.js)
    renderFriend(v);
    finishRender(v, started);
    return;
  }
  gameOfView(v).render(v);
  // A decision whose glowing places lie under the fold of a scrolling board brings one into
  // view (not in a replay, a playback, the guided match, whose coach points the way, or behind
  // the open sheet of choices).
  const guided = document.querySelector('.coach-focus');
  const deciding = isMyPrompt(v) && online() && !S.replay && !playing() && !guided && !sheetOpen();
  const decision = deciding ? `${v.session.id}:${v.pending.prompt_id}` : null;
  afterDrawing(() => revealChoice(decision));
  // The log reveals no more than a playback's frame on screen has reached.
  holdLog(S.replay ? null : logShown());
  renderLog(v);
  renderBanner(v);
  renderPreview(v);
  // COM's reasons and the end-of-match tools wait for a playback to reach the present.
  if (!playing()) renderWhy(v);
  renderFriend(v);
  if (S.replay) renderReplayOps();
  renderInfo();
  finishRender(v, started);
}

/** What every render ends with: the page's state for tests, and timings. */
function finishRender(v, started) {
  document.body.dataset.promptId = v.pending ? String(v.pending.prompt_id) : 'none';
  document.body.dataset.myTurn = isMyPrompt(v) && online() ? '1' : '0';
  decorateKeys();
  decorateTerms();
  const frame = frameIndex();
  document.body.dataset.playback = frame ? `${frame.index + 1}/${frame.count}` : '';
  document.body.dataset.rendered = String(S.stateSeq || 0);
  S.renderMs = performance.now() - started;
  S.renders = (S.renders || 0) + 1;
  S.renderTotal = (S.renderTotal || 0) + S.renderMs;
}

function renderTools(v) {
  const replay = !!S.replay;
  // A deal the client chose (a seed, an unshuffled deck, a continued record) is practice:
  // the server says so (session.open_deal), and the table shows it; a fair deal never is.
  const badge = $('#deal-badge');
  const open = !replay && !!(v.session && v.session.open_deal);
  badge.hidden = !open;
  // Its whole name, and the short one a phone's top bar shows (index.html, by language).
  badge.title = open ? t('open_deal_note') : '';
  for (const id of ['#btn-undo', '#btn-redo']) $(id).hidden = replay;
  renderResignTool(v);
  $('#ops .panel-title').textContent = replay ? t('replay_title') : t('ops_title');
  if (replay) {
    $('#btn-live').hidden = true;
    $('#btn-showall').hidden = true;
    return;
  }

  const hist = v.history;
  const undo = $('#btn-undo');
  const redo = $('#btn-redo');
  const spectator = isSpectator();
  const canAct = v.session.mode === 'com_vs_com' || !spectator;
  undo.disabled = !canAct || !hist.can_undo;
  redo.disabled = !canAct || !hist.can_redo;
  undo.title = hist.can_undo ? t('undo') : undoReason(hist);
  redo.title = hist.can_redo ? t('redo') : (v.session.mode === 'com_vs_com' ? t('redo_live') : t('redo_none'));
  $('#btn-live').hidden = v.session.mode !== 'com_vs_com' || hist.live;
  const sa = $('#btn-showall');
  sa.hidden = playing() || !(v.session.mode === 'com_vs_com' || isOver(v) || !!(v.session.table && v.session.table.ended));
  sa.setAttribute('aria-pressed', v.session.show_all ? 'true' : 'false');
  sa.classList.toggle('on', !!v.session.show_all);
}

/** Why 一つ戻る is disabled, from the server's reason code (never from its English text). */
function undoReason(hist) {
  const code = hist.undo_code;
  if (!hist.undo_blocked) return S.view && S.view.session.mode === 'com_vs_com' ? t('undo_first') : t('undo_none');
  const key = { nothing: 'undo_none', opponent: 'undo_opponent', learned: 'undo_learned', over: 'undo_over' }[code];
  return key ? t(key) : hist.undo_blocked;
}


/** Whether leaving would abandon a match the player is playing (not over, and this page has
 *  made a move in it). */
function inProgress(v) {
  return !!v && v.session.mode === 'vs_com' && !isSpectator() && !isOver(v) && !!(S.game && S.game.acted);
}

/* ================================================================== events */

function bindEvents() {
  $('#start-form').addEventListener('submit', startMatch);
  $('#start-form').addEventListener('change', (ev) => {
    if (ev.target.name === 'game') {
      S.settings.game = ev.target.value;
      saveSettings();
    }
    if (ev.target.name === 'mode' || ev.target.name === 'game') renderStart();
  });
  for (const b of $$('[data-lang]')) b.addEventListener('click', () => setLang(b.dataset.lang));

  bindHistory();
  bindDecks();
  bindDesign();
  $('#btn-history').addEventListener('click', () => historyButton());
  $('#btn-undo').addEventListener('click', () => send({ type: 'undo' }));
  $('#btn-redo').addEventListener('click', () => send({ type: 'redo' }));
  $('#btn-live').addEventListener('click', () => send({ type: 'live' }));
  $('#btn-showall').addEventListener('click', () => {
    const on = !(S.view && S.view.session.show_all);
    if (S.game) S.game.showAll = on;
    send({ type: 'show_all', on });
  });
  // 新しい対戦 leaves at once, unless a match of yours is under way: then a second press
  // leaves (the first one asks).
  $('#btn-quit').addEventListener('click', () => {
    const b = $('#btn-quit');
    if (S.replay) {
      leaveReplayToStart();
      return;
    }
    if (!inProgress(S.view) || b.classList.contains('armed')) {
      b.classList.remove('armed');
      b.textContent = t('new_match');
      leaveGame();
      return;
    }
    b.classList.add('armed');
    b.textContent = t('quit_confirm');
    clearTimeout(S.quitTimer);
    S.quitTimer = setTimeout(() => { b.classList.remove('armed'); b.textContent = t('new_match'); }, 3000);
  });

  const menu = $('#settings-menu');
  $('#btn-settings').addEventListener('click', (ev) => {
    ev.stopPropagation();
    menu.hidden = !menu.hidden;
    $('#btn-settings').setAttribute('aria-expanded', String(!menu.hidden));
  });
  document.addEventListener('click', (ev) => {
    if (!menu.hidden && !menu.contains(ev.target) && ev.target !== $('#btn-settings')) {
      menu.hidden = true;
      $('#btn-settings').setAttribute('aria-expanded', 'false');
    }
  });
  for (const r of $$('input[name=motion]')) {
    r.addEventListener('change', () => { S.settings.motion = r.value; saveSettings(); applySettings(); });
  }
  $('#set-lane').addEventListener('change', (ev) => { S.settings.lane = ev.target.checked; saveSettings(); applySettings(); });
  // Folding both the log and the results folds the whole left column (the why panel too).
  const leftFolds = () => {
    if (!S.settings.logOpen && !S.settings.histOpen) S.settings.whyOpen = false;
    saveSettings();
    applySettings();
  };
  $('#set-log').addEventListener('change', (ev) => { S.settings.logOpen = ev.target.checked; leftFolds(); });
  $('#set-hist').addEventListener('change', (ev) => { S.settings.histOpen = ev.target.checked; leftFolds(); });
  $('#set-why').addEventListener('change', (ev) => { S.settings.whyOpen = ev.target.checked; saveSettings(); applySettings(); });
  $('#why-head').addEventListener('click', () => { S.settings.whyOpen = !S.settings.whyOpen; saveSettings(); applySettings(); });
  $('#log-head').addEventListener('click', () => { S.settings.logOpen = !S.settings.logOpen; leftFolds(); });
  $('#hist-head').addEventListener('click', () => { S.settings.histOpen = !S.settings.histOpen; leftFolds(); });

  // Board and lanes: a glowing element (`.selectable[data-act]`) sends its action; any card or
  // pile shows its details; the game on screen gets the click after that.
  // On a touch screen a game may read a tapped place instead (`tapToInspect`): the operation
  // panel's button then acts.
  let lastPointer = 'mouse';
  document.addEventListener('pointerdown', (ev) => {
    lastPointer = ev.pointerType || 'mouse';
    document.body.classList.toggle('touch-input', lastPointer === 'touch'); // games/*.css
  }, true);
  $('#table').addEventListener('click', (ev) => {
    const sel = ev.target.closest('.selectable[data-act]');
    const infoEl = ev.target.closest('.infoable');
    if (infoEl && S.infoMap.has(infoEl)) showInfo(S.infoMap.get(infoEl));
    const g = gameOfView(S.view);
    if (sel && $('#game').contains(sel)) {
      if (lastPointer === 'touch' && g.tapToInspect) g.tapToInspect(sel.dataset.act);
      else choose(sel.dataset.act);
    }
    if (S.view && g.onBoardClick) g.onBoardClick(ev);
  });
  for (const g of GAMES) if (g.init) g.init();
  bindHelp();
  bindKeys();
  bindDrawers();
  bindSheet();
  bindPreview();
  bindGlossary();
  bindResign();
  initPaceSetting();
  document.addEventListener('keydown', (ev) => {
    if (document.body.dataset.screen === 'help') return; // shell/keys.js closes it
    if (S.replay && !ev.ctrlKey && !ev.metaKey && !ev.altKey && $('#settings-menu').hidden && onReplayKey(ev)) return;
    if (ev.key === 'Escape' && S.replay && $('#settings-menu').hidden) {
      backToList();
      return;
    }
    if (ev.key === 'Escape') {
      const g = gameOfView(S.view);
      if (g.onEscape && g.onEscape()) return;
      if (S.confirm) { S.confirm = null; S.opsSig = ''; scheduleRender(); }
      else if (S.overlay === 'game') closeOverlay();
      $('#settings-menu').hidden = true;
    }
  });
  if (window.matchMedia) {
    const mq = window.matchMedia('(prefers-reduced-motion: reduce)');
    if (mq.addEventListener) mq.addEventListener('change', applySettings);
  }
}

/* ================================================================== boot */

async function boot() {
  const exported = exportedMatch(); // an exported replay opens in the language it was written in
  if (exported) S.settings.lang = exported.lang;
  setRenderer(render);
  onMessages(onState, onError);
  buildGamePicker();
  applySettings();
  applyStaticTexts();
  bindEvents();
  try {
    const meta = await fetchJson('/api/meta');
    S.meta = meta;
    await Promise.all(offered().flatMap((g) => [g.ensureCatalog('ja'), g.ensureCatalog(S.settings.lang)]));
    const remembered = $(`#start-form input[name=game][value="${S.settings.game}"]`);
    if (remembered && meta.rulesets[S.settings.game]) remembered.checked = true;
  } catch (err) {
    showScreen('start');
    toast(t('err_network'), String(err.message || err), 'error');
    return;
  }
  renderStart();
  for (const b of $$('[data-open-history], #btn-history')) b.hidden = !S.meta.store;
  designEntry();
  if (exported) { // its one match, at once; nothing else (no game to rejoin, no link)
    await openReplay(exported.id);
    return;
  }
  const joined = await joinFromLink(); // a shared link of a match between two people
  const stored = joined ? null : loadGame();
  if (S.meta.store && /^#\/matches/.test(location.hash)) {
    S.game = stored; // set aside: 対戦に戻る rejoins it
    routeFromHash();
  } else if (/^#\/design/.test(location.hash) && designAllowed()) {
    S.game = stored; // set aside: the design screen's way back rejoins it
    routeDesign();
  } else if (stored) {
    S.game = stored;
    showScreen('game');
    renderConnecting();
    connect();
  } else if (!joined) {
    showScreen('start');
  }
  // Other languages' catalogue in the background, for a quick switch.
  for (const lang of LANGS) for (const g of offered()) g.ensureCatalog(lang).catch(() => {});
}

// A read-only handle for tests and debugging: the last view and the connection status.
window.kobo = {
  get view() { return S.view; },
  get game() { return S.game ? { id: S.game.id, seat: S.game.seat, acted: !!S.game.acted } : null; },
  get settings() { return { ...S.settings, effectiveMotion: effectiveMotion() }; },
  get awaiting() { return S.awaiting; },
  get stateSeq() { return S.stateSeq || 0; },
  get perf() { return { renders: S.renders || 0, last: S.renderMs || 0, total: S.renderTotal || 0 }; },
  get connected() { return !!(S.ws && S.ws.readyState === WebSocket.OPEN); },
  get replay() {
    const R = S.replay;
    return R ? { id: R.id, step: R.step, target: R.target, steps: R.steps, seat: R.seat, playing: R.playing, speed: R.speed, seats: R.info.seats } : null;
  },
  // What anyone could type in the developer tools: send a raw message, or drop the socket
  // (the page then reconnects with backoff, as after a network failure).
  send(msg) { return send(msg); },
  dropConnection() { if (S.ws) S.ws.close(4000, 'dropped'); },
};


boot();
