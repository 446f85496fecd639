// The log panel: the view's log, newest first, with the undo boundary; its new entries are
// also read out, oldest first, from a polite live region (#log-live) that holds only them.

import { $, h, put } from './dom.js';
import { t } from './i18n.js';
import { me } from './seats.js';
import { S } from './state.js';

export function renderLog(v) {
  const log = v.log;
  const boundary = v.history.boundary_log;
  const sig = `${S.settings.lang}|${log.length}|${boundary}|${log.length ? log[log.length - 1].text : ''}|${v.session.id}`;
  if (sig === S.logSig) return;
  S.logSig = sig;
  announce(v);
  const frag = document.createDocumentFragment();
  const bottom = me();
  for (let i = log.length - 1; i >= 0; i--) {
    const e = log[i];
    if (boundary != null && i === boundary && v.session.mode !== 'com_vs_com') {
      frag.append(h('li', { class: 'boundary', text: t('boundary') }));
    }
    const who = typeof e.seat === 'number' ? (e.seat === bottom ? 'mine' : 'theirs') : 'none';
    frag.append(h('li', { class: `entry k-${e.kind} s-${who}`, dataset: { index: i } }, e.text || e.kind));
  }
  const ol = $('#log');
  put(ol, frag);
  ol.scrollTop = 0;
}


const LIVE_KEPT = 12;

/** Read out the entries added since the last view of the same game (none for the first view,
 *  an undo or a language switch: only what is new is announced). */
function announce(v) {
  const log = v.log;
  const key = `${v.session.id}|${S.replay ? S.replay.id : ''}`;
  const last = S.logLive;
  S.logLive = { key, len: log.length };
  if (!last || last.key !== key || log.length <= last.len) return;
  const box = $('#log-live');
  for (const e of log.slice(last.len)) box.append(h('p', { text: e.text || e.kind }));
  while (box.children.length > LIVE_KEPT) box.firstElementChild.remove();
}
