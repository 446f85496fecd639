// Keyboard and screen reader support: the shortcuts of the game screen (number keys for the
// listed choices, Enter to confirm, A to reach the choices, U / Y for undo and redo, ? for the
// rules), the board's choosable places made focusable after each render, the focus kept on
// the choices while playing from the keyboard, and the help screen's Escape. The shortcuts
// are listed on the rules screen (shell/help.js); the log's live region is in shell/log.js.

import { $, $$ } from './dom.js';
import { closeHelp, openRulesFromBoard } from './help.js';
import { S } from './state.js';

const CHOOSABLE = '#table .selectable[data-act], #table .pickable';
const NATIVE = 'button, a[href], input, select, textarea, summary';

/** The operation panel's choice buttons a person can see, in order. (Read from the styles
 *  alone where the browser can, not the layout: this runs at the end of every render; Safari
 *  before 17.4 has no `checkVisibility`.) */
function shownChoices() {
  return $$('#ops button.act').filter((b) => (b.checkVisibility ? b.checkVisibility() : b.offsetParent !== null));
}

/** After each render: board places that can be chosen take the focus and are named; the
 *  visible choices get their number key; a keyboard player's focus stays on the choices. */
export function decorateKeys() {
  for (const el of $$('[data-kbf]')) {
    if (el.matches(CHOOSABLE)) continue;
    el.removeAttribute('tabindex');
    el.removeAttribute('role');
    if (el.dataset.kbl) el.removeAttribute(el.dataset.kbl);
    delete el.dataset.kbf;
    delete el.dataset.kbl;
  }
  for (const el of $$(CHOOSABLE)) {
    if (el.matches(NATIVE)) continue;
    el.tabIndex = 0;
    el.setAttribute('role', 'button');
    el.dataset.kbf = '1';
    if (el.dataset.act) describe(el);
  }
  const shown = shownChoices();
  for (const b of $$('#ops button.act[data-key]')) {
    delete b.dataset.key;
    b.removeAttribute('aria-keyshortcuts');
  }
  shown.slice(0, 9).forEach((b, i) => {
    b.dataset.key = String(i + 1);
    b.setAttribute('aria-keyshortcuts', String(i + 1));
  });
  keepFocus();
}

/** A board place is read by its own text (a card's name) and described by the action it
 *  sends (the operation panel's button of the same action); a place without text is named by
 *  the action. A name or description the game gave stays. */
function describe(el) {
  const b = $(`#ops button.act[data-action="${CSS.escape(el.dataset.act)}"]`);
  const action = b ? b.textContent.trim() : el.dataset.act;
  const attr = el.textContent.trim() ? 'aria-description' : 'aria-label';
  if (el.hasAttribute(attr) && el.dataset.kbl !== attr) return;
  if (el.dataset.kbl && el.dataset.kbl !== attr) el.removeAttribute(el.dataset.kbl);
  el.setAttribute(attr, action);
  el.dataset.kbl = attr;
}

/** Playing from the keyboard, a choice that disappeared (the prompt was answered) hands the
 *  focus to the next question's first choice (or its confirmation). */
function keepFocus() {
  if (!document.body.classList.contains('kb') || document.body.dataset.screen !== 'game') return;
  const active = document.activeElement;
  if (active && active !== document.body && document.contains(active)) return;
  const target = $('#ops .confirm-yes') || shownChoices().find((b) => !b.disabled);
  if (target) target.focus();
}

function typing(ev) {
  const el = ev.target;
  return !!(el && el.closest && el.closest('input, select, textarea, [contenteditable=""], [contenteditable="true"]'));
}

function press(sel) {
  const b = typeof sel === 'string' ? $(sel) : sel;
  if (!b || b.disabled || b.hidden || b.offsetParent === null) return false;
  b.click();
  return true;
}

function onKey(ev) {
  const body = document.body;
  if (['Tab', 'ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Enter'].includes(ev.key) || /^[1-9]$/.test(ev.key)) body.classList.add('kb');
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const screen = body.dataset.screen;
  if (screen === 'help') {
    if (ev.key === 'Escape') {
      ev.preventDefault();
      closeHelp();
    }
    return;
  }
  if (screen !== 'game' || typing(ev) || !$('#settings-menu').hidden) return;
  const target = ev.target instanceof Element ? ev.target : null;
  // A focused board place: Enter or Space chooses it, like a button.
  if (target && target.dataset.kbf && (ev.key === 'Enter' || ev.key === ' ')) {
    ev.preventDefault();
    target.click();
    return;
  }
  const onControl = target && target !== body && target.matches(NATIVE);
  if (ev.key === 'Enter' && !onControl) {
    if (press('#ops .confirm-yes')) ev.preventDefault();
    return;
  }
  if (S.replay) return; // the replay viewer has its own keys
  if (/^[1-9]$/.test(ev.key)) {
    const b = shownChoices()[Number(ev.key) - 1];
    if (b && press(b)) ev.preventDefault();
    return;
  }
  const k = ev.key.toLowerCase();
  if (k === 'a') {
    const first = $('#ops .confirm-yes') || shownChoices().find((b) => !b.disabled) || $('#ops button:not([disabled])');
    if (first) {
      ev.preventDefault();
      first.focus();
    }
  } else if (k === 'u') {
    if (press('#btn-undo')) ev.preventDefault();
  } else if (k === 'y') {
    if (press('#btn-redo')) ev.preventDefault();
  } else if (k === '?' || k === 'h') {
    ev.preventDefault();
    openRulesFromBoard();
  }
}

/** Bind the keys (once, at boot). A pointer press leaves keyboard mode. */
export function bindKeys() {
  document.addEventListener('keydown', onKey);
  document.addEventListener('pointerdown', () => document.body.classList.remove('kb'), true);
}
