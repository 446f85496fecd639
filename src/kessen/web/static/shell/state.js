// The page's state (one object, S), what the browser keeps between visits (settings, the
// current game and the tokens of recent games), JSON fetching and the render queue.

const STORE_SETTINGS = 'kobo.settings';
const STORE_GAME = 'kobo.game';
const STORE_TOKENS = 'kobo.tokens';

export const S = {
  settings: loadSettings(),
  meta: null,
  view: null,
  game: null, // {id, token, seat, cfg}
  ws: null,
  wsSerial: 0,
  reconnectAttempt: 0,
  reconnectTimer: null,
  awaiting: null, // prompt id we answered and wait to see replaced
  confirm: null, // {action, promptId}
  hover: null, // action text under the pointer in the operation panel
  info: null, // what CARD INFORMATION shows
  infoMap: new WeakMap(),
  opsSig: '',
  logSig: '',
  renderQueued: false,
  overlay: null,
  dismissedMatch: null,
  replay: null, // the replay viewer (history.js) while it is open
  whySig: '',
};

function loadSettings() {
  const base = { lang: 'ja', motion: 'auto', lane: true, logOpen: true, histOpen: true, whyOpen: true, replaySpeed: 1, game: 'kobo' };
  try {
    return { ...base, ...JSON.parse(localStorage.getItem(STORE_SETTINGS) || '{}') };
  } catch {
    return base;
  }
}

export function saveSettings() {
  try {
    localStorage.setItem(STORE_SETTINGS, JSON.stringify(S.settings));
  } catch { /* storage may be unavailable */ }
}

export function loadGame() {
  try {
    const g = JSON.parse(localStorage.getItem(STORE_GAME) || 'null');
    return g && g.id && g.token ? g : null;
  } catch {
    return null;
  }
}

/** The tokens of this browser's recent games: they open its own unfinished matches' records. */
export function ownTokens() {
  try {
    const kept = JSON.parse(localStorage.getItem(STORE_TOKENS) || '[]');
    return Array.isArray(kept) ? kept.filter((x) => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

export function saveGame(game) {
  try {
    if (game && game.token) {
      const kept = [game.token, ...ownTokens().filter((x) => x !== game.token)].slice(0, 16);
      localStorage.setItem(STORE_TOKENS, JSON.stringify(kept));
    }
    if (game) localStorage.setItem(STORE_GAME, JSON.stringify(game));
    else localStorage.removeItem(STORE_GAME);
  } catch { /* ignore */ }
}
export async function fetchJson(url, init) {
  const r = await fetch(url, init);
  const body = await r.json().catch(() => null);
  if (!r.ok) {
    // A refusal worded by the server in each language (a match another server process
    // serves: 409 "elsewhere") is shown in the page's own.
    const own = body && body.messages && body.messages[S.settings.lang];
    const detail = own || (body && body.detail ? (typeof body.detail === 'string' ? body.detail : JSON.stringify(body.detail)) : r.statusText);
    throw new Error(detail);
  }
  return body;
}

let renderer = () => {};

/** The function that draws the game screen (shell/main.js). */
export function setRenderer(fn) {
  renderer = fn;
}

/** Draw the game screen at the next animation frame (once, however often it is asked). */
export function scheduleRender() {
  if (S.renderQueued) return;
  S.renderQueued = true;
  requestAnimationFrame(() => {
    S.renderQueued = false;
    renderer();
  });
}
