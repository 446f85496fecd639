// Display settings (screen motion, lane highlight, folded panels, language marks) and the
// texts and layout of the game screen that follow the game on screen.

import { $, $$ } from './dom.js';
import { t } from './i18n.js';
import { gameOfView, GAMES } from './registry.js';
import { S } from './state.js';

export function effectiveMotion() {
  if (S.settings.motion && S.settings.motion !== 'auto') return S.settings.motion;
  const reduce = window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  return reduce ? 'reduced' : 'on';
}

export function applySettings() {
  const b = document.body;
  for (const m of ['on', 'reduced', 'off']) b.classList.toggle(`motion-${m}`, effectiveMotion() === m);
  b.classList.toggle('lane-hl', !!S.settings.lane);
  $('#log-panel').classList.toggle('folded', !S.settings.logOpen);
  $('#hist-panel').classList.toggle('folded', !S.settings.histOpen);
  $('#why-panel').classList.toggle('folded', !S.settings.whyOpen);
  const allFolded = !S.settings.logOpen && !S.settings.histOpen && (!S.settings.whyOpen || !!S.replay);
  $('#left').classList.toggle('collapsed', allFolded);
  $('#table').classList.toggle('left-collapsed', allFolded);
  for (const r of $$('input[name=motion]')) r.checked = r.value === effectiveMotion();
  $('#set-lane').checked = !!S.settings.lane;
  $('#set-log').checked = !!S.settings.logOpen;
  $('#set-hist').checked = !!S.settings.histOpen;
  $('#set-why').checked = !!S.settings.whyOpen;
  document.documentElement.lang = S.settings.lang;
  for (const c of $$('[data-lang]')) c.classList.toggle('on', c.dataset.lang === S.settings.lang);
  applyRuleset();
}

/** Texts and layout of the game screen that depend on the ruleset on screen. */
export function applyRuleset() {
  const shown = $('#game').hidden ? GAMES[0] : gameOfView(S.view);
  for (const g of GAMES) if (g.boardClass) document.body.classList.toggle(g.boardClass, g === shown);
  $('#brand-mark').textContent = shown.brand;
  $('#log-title').textContent = shown.t('log_title');
  $('#lane-label').textContent = shown.t('lane_highlight');
  document.title = shown.title;
}

export function applyStaticTexts() {
  for (const e of $$('[data-i18n]')) e.textContent = t(e.dataset.i18n);
  for (const e of $$('[data-i18n-aria]')) e.setAttribute('aria-label', t(e.dataset.i18nAria));
  $('#log-head').title = t('log_title');
  $('#hist-head').title = t('history_title');
  $('#why-head').title = t('why_title');
}

