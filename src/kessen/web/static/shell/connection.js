// The connection to a game: one WebSocket per seat, reconnecting with backoff, and the
// messages the page sends (an action answering the pending prompt, undo, redo, language…).

import { $, $$ } from './dom.js';
import { t } from './i18n.js';
import { toast } from './overlay.js';
import { gameOfView } from './registry.js';
import { isMyPrompt, online } from './seats.js';
import { S, saveGame, scheduleRender } from './state.js';

const handlers = { state: () => {}, error: () => {} };

/** Who receives the server's messages: `state` gets each view, `error` each error message. */
export function onMessages(state, error) {
  handlers.state = state;
  handlers.error = error;
}

function wsUrl(game) {
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${proto}://${location.host}/ws/${encodeURIComponent(game.id)}?token=${encodeURIComponent(game.token)}&lang=${S.settings.lang}&delta=1`;
}

/** The view a `delta` message makes from `base` (the last view of the same connection), or
 *  null if it cannot apply. `base` is left as it was: the new view shares its unchanged parts. */
function applyDelta(base, msg) {
  if (!base || !msg.set || typeof msg.set !== 'object' || !Array.isArray(msg.drop)) return null;
  const view = { ...base };
  for (const [key, value] of Object.entries(msg.set)) view[key] = value;
  for (const key of msg.drop) delete view[key];
  if (msg.log_from != null) {
    if (!Array.isArray(base.log) || !Array.isArray(msg.log) || msg.log_from > base.log.length) return null;
    view.log = base.log.slice(0, msg.log_from).concat(msg.log);
  }
  return view;
}

export function send(msg) {
  if (!S.ws || S.ws.readyState !== WebSocket.OPEN) {
    toast(t('err_network'), t('reconnecting', { n: S.reconnectAttempt || 1 }), 'warn');
    return false;
  }
  S.ws.send(JSON.stringify(msg));
  return true;
}

export function connect() {
  const game = S.game;
  if (!game) return;
  clearTimeout(S.reconnectTimer);
  const serial = ++S.wsSerial;
  let ws;
  try {
    ws = new WebSocket(wsUrl(game));
  } catch (err) {
    scheduleReconnect();
    return;
  }
  S.ws = ws;
  document.body.dataset.conn = 'connecting';
  let welcomed = false;
  // The last view this connection built, the base of its next delta: never handed out (the
  // page gets a copy of each view to keep as its own), so nothing can change it.
  let base = null;
  ws.onopen = () => {
    if (serial !== S.wsSerial) return;
    document.body.dataset.conn = 'open';
    if (S.game && S.game.showAll) ws.send(JSON.stringify({ type: 'show_all', on: true }));
  };
  ws.onmessage = (ev) => {
    if (serial !== S.wsSerial) return;
    if (!welcomed) { // the server answered: reconnected (a socket closed at once is not)
      welcomed = true;
      S.reconnectAttempt = 0;
      $('#reconnect').hidden = true;
    }
    let msg;
    try {
      msg = JSON.parse(ev.data);
    } catch {
      return;
    }
    if (msg.type === 'state' || msg.type === 'delta') {
      const view = msg.type === 'state' ? msg.view : applyDelta(base, msg);
      if (!view) { // a delta without its base: a new connection starts with a full view
        ws.close();
        return;
      }
      base = view;
      handlers.state(structuredClone(view));
    } else if (msg.type === 'error') handlers.error(msg);
  };
  ws.onclose = (ev) => {
    if (serial !== S.wsSerial) return;
    S.ws = null;
    S.awaiting = null;
    S.opsSig = '';
    document.body.dataset.conn = 'closed';
    scheduleRender();
    if (ev.code === 4404 || ev.code === 4410 || !S.game) return; // no such game / closed after its end
    // 4409: another server process serves the match now, or will once its old one's lease
    // runs out: try again soon, at a steady pace (the proxy routes the match there).
    if (ev.code === 4409) scheduleReconnect(MOVED_RETRY_MS, 'moving');
    else scheduleReconnect();
  };
  ws.onerror = () => { /* onclose follows */ };
}

/** Milliseconds between two tries to reach a match that moved to another server process. */
const MOVED_RETRY_MS = 1000;

function scheduleReconnect(fixed = 0, words = 'reconnecting') {
  if (!S.game) return;
  S.reconnectAttempt += 1;
  const delay = fixed || Math.min(10000, 400 * 2 ** (S.reconnectAttempt - 1));
  const box = $('#reconnect');
  box.textContent = t(words, { n: S.reconnectAttempt });
  box.hidden = false;
  clearTimeout(S.reconnectTimer);
  S.reconnectTimer = setTimeout(connect, delay);
}

export function disconnect() {
  S.wsSerial += 1;
  clearTimeout(S.reconnectTimer);
  if (S.ws) {
    try { S.ws.close(); } catch { /* ignore */ }
  }
  S.ws = null;
  $('#reconnect').hidden = true;
}

/** Choose one of the pending prompt's legal actions (a button or a glowing place): the game
 *  on screen may take it over (a confirmation), else it is sent. */
export function choose(action) {
  const v = S.view;
  if (!isMyPrompt(v) || S.awaiting != null || !online()) return;
  if (!v.pending.legal.includes(action)) return;
  S.confirm = null;
  const g = gameOfView(v);
  if (g.intercept && g.intercept(action, v)) return;
  act(action);
}

/** Send an action for the pending prompt; every choice is disabled until the next view. */
export function act(action) {
  const v = S.view;
  if (!isMyPrompt(v)) return;
  if (send({ type: 'act', prompt_id: v.pending.prompt_id, action })) {
    S.awaiting = v.pending.prompt_id;
    if (S.game && !S.game.acted) {
      S.game.acted = true; // a match you have played in: leaving it asks first
      saveGame(S.game);
    }
    S.hover = null;
    // Nothing may be chosen twice: disable every choice at once, before the next frame.
    for (const b of $$('#ops button.act')) {
      b.disabled = true;
      b.dataset.why = t('why_sending'); // a disabled choice says why, even for one frame
    }
    for (const e of $$('.selectable')) e.classList.remove('selectable');
    document.body.dataset.myTurn = '0';
    S.opsSig = '';
    scheduleRender();
  }
}

