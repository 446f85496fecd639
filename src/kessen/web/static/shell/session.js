// Screens and the game being played: which screen shows (start, history, help, game),
// starting, resuming and leaving a game, and もう一度 (a new game with the same settings).

import { connect, disconnect, send } from './connection.js';
import { $, h, put } from './dom.js';
import { setHash } from './history.js';
import { t } from './i18n.js';
import { closeOverlay } from './overlay.js';
import { resetGames } from './registry.js';
import { applySettings } from './settings.js';
import { newGame, renderStart } from './start.js';
import { isOver } from './seats.js';
import { S, saveGame } from './state.js';

export function showScreen(name) {
  $('#start').hidden = name !== 'start';
  $('#game').hidden = name !== 'game';
  $('#history').hidden = name !== 'history';
  $('#help').hidden = name !== 'help';
  $('#decks').hidden = name !== 'decks';
  document.body.classList.toggle('replaying', name === 'game' && !!S.replay);
  applySettings(); // the why panel is not part of a replay
  if (name !== 'history' && name !== 'game' && name !== 'help') setHash('');
  document.body.dataset.screen = name;
  document.body.classList.remove('booting');
}

export function leaveGame() {
  closeOnServer();
  stopWatching();
  disconnect();
  S.replay = null;
  S.game = null;
  S.view = null;
  S.info = null;
  S.confirm = null;
  S.awaiting = null;
  S.opsSig = '';
  S.logSig = '';
  resetGames();
  saveGame(null);
  document.body.dataset.myTurn = '0'; // nothing of the game left is answerable
  document.body.dataset.promptId = 'none';
  closeOverlay();
  showScreen('start');
  renderStart();
}

/** Tell the server this page leaves its match against COM (or its COM-vs-COM match) for good:
 *  the token is forgotten next, so the server closes the session and the history shows the
 *  match as abandoned if it was not over. Between two people a seat resigns instead. */
function closeOnServer() {
  const game = S.game;
  const v = S.view;
  if (!game || S.replay || !v || v.session.id !== game.id || v.session.mode === 'vs_human') return;
  if (isOver(v)) return; // finished: the history says so already, and the server lets it go
  fetch(`/api/games/${encodeURIComponent(game.id)}/leave`, {
    method: 'POST', keepalive: true, headers: { 'X-Kessen-Token': game.token },
  }).catch(() => {}); // a server already gone has nothing left to close
}

export function beginGame(res, cfg) {
  closeOverlay();
  stopWatching();
  disconnect();
  S.replay = null;
  S.view = null;
  S.info = null;
  S.confirm = null;
  S.awaiting = null;
  S.opsSig = '';
  S.logSig = '';
  S.whySig = '';
  resetGames();
  S.dismissedMatch = null;
  S.game = { id: res.id, token: res.token, seat: res.seat, cfg, showAll: false };
  saveGame(S.game);
  showScreen('game');
  renderConnecting();
  connect();
}

/** Come back to the live game set aside by the match history. */
export function resumeGame() {
  S.replay = null;
  S.view = null;
  S.info = null;
  S.confirm = null;
  S.awaiting = null;
  S.opsSig = '';
  S.logSig = '';
  S.whySig = '';
  resetGames();
  showScreen('game');
  renderConnecting();
  connect();
}

/** Leaving a COM-vs-COM match still being played stops it: the page steps back into its
 *  history, where neither COM moves (the server's COM never decides while the history is
 *  browsed), so no one's processor keeps playing a match nobody watches. */
function stopWatching() {
  const v = S.view;
  if (S.replay || !v || v.session.mode !== 'com_vs_com' || !v.history.live) return;
  if (v.match ? v.match.over : v.outcome) return;
  if (v.history.can_undo && S.ws && S.ws.readyState === WebSocket.OPEN) send({ type: 'undo' });
}

export function renderConnecting() {
  put($('#banner'), h('span', { class: 'banner-text', text: t('connecting') }));
}

export function playAgain() {
  const cfg = S.game && S.game.cfg;
  if (!cfg) {
    leaveGame();
    return;
  }
  const again = { ...cfg };
  delete again.seed; // a new match deals new cards
  newGame(again);
}
