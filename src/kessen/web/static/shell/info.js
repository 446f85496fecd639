// CARD INFORMATION: the right-hand panel showing what was last pressed on the board. A game
// attaches an info object to an element with `infoable`; its module draws that info.

import { $, h, put } from './dom.js';
import { noteInfo } from './drawers.js';
import { t } from './i18n.js';
import { gameOfView } from './registry.js';
import { S } from './state.js';

export function infoable(el, info) {
  el.classList.add('infoable');
  S.infoMap.set(el, info);
  return el;
}

export function showInfo(info) {
  S.info = info;
  renderInfo();
  noteInfo();
}

export function renderInfo() {
  const body = $('#cardinfo-body');
  const info = S.info;
  const v = S.view;
  if (!info || !v) {
    put(body, h('p', { class: 'muted info-empty', text: t('info_empty') }));
    return;
  }
  const nodes = gameOfView(v).renderInfo(v, info);
  put(body, ...(nodes || [h('p', { class: 'muted info-empty', text: t('info_empty') })]));
}
