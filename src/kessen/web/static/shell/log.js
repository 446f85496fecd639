// The log panel: the view's log, newest first, with the undo boundary; its new entries are
// also read out, oldest first, from a polite live region (#log-live) that holds only them.
// A game that shows an earlier moment than its view (a stepped playback) may hold back the
// newest entries with `holdLog(n)`: only entries before index n are drawn and read out, the
// rest appear when the hold moves on or is lifted (`holdLog(null)`).

import { $, afterDrawing, h, put } from './dom.js';
import { t } from './i18n.js';
import { me } from './seats.js';
import { S } from './state.js';

/** The number of the log's entries shown (null: all of them), and of which match: a hold
 *  left by a match (a playback cut short by leaving it) never applies to the next one. */
let held = null;
let heldFor = null;

/** Show only the log's first `n` entries (null: all); the log is redrawn at the next render. */
export function holdLog(n) {
  held = n == null ? null : Math.max(0, n);
  heldFor = S.view ? S.view.session.id : null;
}

export function renderLog(v) {
  const log = v.log;
  const shown = held == null || heldFor !== v.session.id ? log.length : Math.min(held, log.length);
  const boundary = v.history.boundary_log;
  const sig = `${S.settings.lang}|${log.length}|${shown}|${boundary}|${log.length ? log[log.length - 1].text : ''}|${v.session.id}`;
  if (sig === S.logSig) return;
  S.logSig = sig;
  announce(v, shown);
  const frag = document.createDocumentFragment();
  const bottom = me();
  for (let i = shown - 1; i >= 0; i--) {
    const e = log[i];
    // (The undo boundary is the present's: not drawn into a log held at an earlier frame.)
    if (boundary != null && i === boundary && shown === log.length && v.session.mode !== 'com_vs_com') {
      frag.append(h('li', { class: 'boundary', text: t('boundary') }));
    }
    const who = typeof e.seat === 'number' ? (e.seat === bottom ? 'mine' : 'theirs') : 'none';
    frag.append(h('li', { class: `entry k-${e.kind} s-${who}`, dataset: { index: i } }, e.text || e.kind));
  }
  const ol = $('#log');
  put(ol, frag);
  afterDrawing(() => { ol.scrollTop = 0; }); // the newest entry is the first
}


const LIVE_KEPT = 12;

/** Read out the entries added since the last view of the same game (none for the first view,
 *  an undo or a language switch: only what is new is announced). */
function announce(v, shown) {
  const log = v.log;
  const key = `${S.settings.lang}|${v.session.id}|${S.replay ? `${S.replay.id}|${S.replay.seat}` : ''}|${v.session.you}`;
  const last = S.logLive;
  // Another game, another seat's view or another language: what was read out for the last one
  // goes (a private draw read out from one seat's view must not stay for the next reader).
  if (last && last.key !== key) $('#log-live').replaceChildren();
  // While entries are held back, what was read out stays the mark (an undo still resets it).
  const len = last && last.key === key && shown < log.length && shown < last.len && log.length >= last.len ? last.len : shown;
  S.logLive = { key, len };
  if (!last || last.key !== key || shown <= last.len) return;
  const box = $('#log-live');
  for (const e of log.slice(last.len, shown)) box.append(h('p', { text: e.text || e.kind }));
  while (box.children.length > LIVE_KEPT) box.firstElementChild.remove();
}
