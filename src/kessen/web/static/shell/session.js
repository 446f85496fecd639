// Screens and the game being played: which screen shows, starting, resuming and leaving a
// game, and もう一度 (a new game with the same settings).

import { connect, disconnect } from './connection.js';
import { $, h, put } from './dom.js';
import { setHash } from './history.js';
import { t } from './i18n.js';
import { closeOverlay } from './overlay.js';
import { resetGames } from './registry.js';
import { applySettings } from './settings.js';
import { newGame, renderStart } from './start.js';
import { S, saveGame } from './state.js';

export function showScreen(name) {
  $('#start').hidden = name !== 'start';
  $('#game').hidden = name !== 'game';
  $('#history').hidden = name !== 'history';
  document.body.classList.toggle('replaying', name === 'game' && !!S.replay);
  applySettings(); // the why panel is not part of a replay
  if (name !== 'history' && name !== 'game') setHash('');
  document.body.dataset.screen = name;
  document.body.classList.remove('booting');
}

export function leaveGame() {
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
  closeOverlay();
  showScreen('start');
  renderStart();
}

export function beginGame(res, cfg) {
  closeOverlay();
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
