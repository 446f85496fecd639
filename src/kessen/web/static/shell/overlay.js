// Overlays (the end-of-game dialogs a game opens) and toasts (short notices).

import { $, h, put } from './dom.js';
import { t } from './i18n.js';
import { S } from './state.js';

export function closeOverlay() {
  const o = $('#overlay');
  o.hidden = true;
  put(o, );
  S.overlay = null;
  clearTimeout(S.overlayTimer);
}

/** Show `box` (a dialog a game built) over the screen; `kind` names it ('game', 'match').
 *  A dialog is named by its title, so a screen reader announces what it is. */
export function openOverlay(kind, box) {
  const o = $('#overlay');
  const title = box.querySelector('.modal-title');
  if (title && box.getAttribute('role') === 'dialog') {
    title.id = 'overlay-title';
    box.setAttribute('aria-labelledby', 'overlay-title');
    box.setAttribute('aria-modal', 'true');
  }
  put(o, box);
  o.hidden = false;
  o.dataset.kind = kind;
  S.overlay = kind;
}

export function toast(title, message, kind = 'info') {
  const box = $('#toasts');
  const el = h('div', { class: `toast ${kind}`, role: 'status' },
    h('div', { class: 'toast-body' }, h('strong', { text: title }), message ? h('div', { class: 'toast-msg', text: message }) : null),
    h('button', { type: 'button', class: 'toast-x', 'aria-label': t('dismiss'), title: t('dismiss'), text: '×', onclick: () => el.remove() }));
  box.append(el);
  while (box.children.length > 4) box.firstElementChild.remove();
  setTimeout(() => el.remove(), 7000);
}

