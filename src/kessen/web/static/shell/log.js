// The log panel: the view's log, newest first, with the undo boundary.

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

