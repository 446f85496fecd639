// "What happens if": the preview of an option, for any game. A ruleset's view carries
// `previews` ({action text: {title, lines, assumes, tone, predict, basis}}, computed by the
// engine from what the seat may see); this module shows the one of the option under the
// pointer or the keyboard's focus in `#option-preview`, just above the operation panel (it
// never moves the choices). On a touch screen the first tap on an option that has a preview
// shows it and arms the option; the second tap chooses it.

import { $, h, put } from './dom.js';
import { t } from './i18n.js';
import { gameOfView } from './registry.js';
import { S } from './state.js';

/** The option whose preview is on screen (pointer, focus, or armed by a tap), or null. */
const PV = { action: null, armed: null, armedPrompt: null, pointer: 'mouse' };

const OPTION = '#ops button.act[data-action]';
const PLACE = '#game .selectable[data-act]';

function actionOf(el) {
  if (!el || !el.closest) return null;
  const button = el.closest(OPTION);
  if (button) return { el: button, action: button.dataset.action, place: false };
  const place = el.closest(PLACE);
  if (place) return { el: place, action: place.dataset.act, place: true };
  return null;
}

function previewOf(v, action) {
  return (v && !S.replay && v.previews && action != null && v.previews[action]) || null;
}

function show(action) {
  if (PV.action === action) return;
  PV.action = action;
  renderPreview(S.view);
}

/** Listen to the pointer, the focus and taps over the options and the board's glowing places. */
export function bindPreview() {
  document.addEventListener('pointerdown', (ev) => { PV.pointer = ev.pointerType || 'mouse'; }, true);
  document.addEventListener('pointerover', (ev) => {
    if (ev.pointerType === 'touch') return;
    const hit = actionOf(ev.target);
    if (hit) show(hit.action);
  });
  document.addEventListener('pointerout', (ev) => {
    if (ev.pointerType === 'touch') return;
    const hit = actionOf(ev.target);
    const to = actionOf(ev.relatedTarget);
    if (hit && (!to || to.action !== hit.action) && !focusedAction()) show(PV.armed);
  });
  document.addEventListener('focusin', (ev) => {
    const hit = actionOf(ev.target);
    if (hit) show(hit.action);
  });
  document.addEventListener('focusout', (ev) => {
    const to = actionOf(ev.relatedTarget);
    if (!to) show(PV.armed);
  });
  // A tap on an option with a preview: the first shows it, the second chooses.
  document.addEventListener('click', (ev) => {
    if (PV.pointer !== 'touch' || ev.detail === 0) return; // a key's click acts at once
    const hit = actionOf(ev.target);
    const v = S.view;
    if (!hit || !previewOf(v, hit.action)) return;
    if (hit.place && gameOfView(v).tapToInspect) return; // the game reads a tapped place instead
    const pid = v.pending ? v.pending.prompt_id : null;
    if (PV.armed === hit.action && PV.armedPrompt === pid) return; // second tap: it acts
    ev.preventDefault();
    ev.stopImmediatePropagation();
    PV.armed = hit.action;
    PV.armedPrompt = pid;
    show(hit.action);
    renderPreview(v);
  }, true);
}

function focusedAction() {
  const hit = actionOf(document.activeElement);
  return hit ? hit.action : null;
}

/** Draw `#option-preview` for the option under the pointer or focus (or armed), at every render. */
export function renderPreview(v) {
  const box = $('#option-preview');
  if (!box) return;
  const pid = v && v.pending ? v.pending.prompt_id : null;
  if (PV.armedPrompt !== pid) { PV.armed = null; PV.armedPrompt = null; }
  for (const b of document.querySelectorAll('[data-armed]')) {
    if (b.dataset.action !== PV.armed && b.dataset.act !== PV.armed) delete b.dataset.armed;
  }
  const action = PV.action ?? (S.hover != null && previewOf(v, S.hover) ? S.hover : null);
  const pv = previewOf(v, action);
  const sig = JSON.stringify([action, pv, PV.armed, S.settings.lang]);
  if (box.dataset.sig === sig) return;
  box.dataset.sig = sig;
  box.hidden = !pv;
  if (!pv) {
    put(box);
    for (const k of ['action', 'predict', 'basis']) delete box.dataset[k];
    return;
  }
  box.className = `option-preview tone-${pv.tone || 'info'}`;
  box.dataset.action = action;
  box.dataset.predict = JSON.stringify(pv.predict ?? null);
  box.dataset.basis = JSON.stringify(pv.basis ?? null);
  const armed = PV.armed === action;
  if (armed) {
    const el = document.querySelector(`${OPTION}[data-action="${CSS.escape(action)}"]`)
      || document.querySelector(`${PLACE}[data-act="${CSS.escape(action)}"]`);
    if (el) el.dataset.armed = '1';
  }
  put(box,
    h('div', { class: 'pv-head' },
      h('span', { class: 'pv-kicker', text: t('pv_title') }),
      h('strong', { class: 'pv-title', text: pv.title })),
    (pv.lines || []).length ? h('ul', { class: 'pv-lines' }, pv.lines.map((x) => h('li', { text: x }))) : null,
    pv.assumes ? h('p', { class: 'pv-assumes', text: pv.assumes }) : null,
    armed ? h('p', { class: 'pv-tap', text: t('pv_tap_again') }) : null);
}
