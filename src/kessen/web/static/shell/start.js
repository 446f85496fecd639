// The start screen: the game picker (built from the registry), mode, COM level, pace, seed,
// the picked game's own options (drawn by its module), and starting a game on the server.

import { $, $$, h, put } from './dom.js';
import { friendStartConfig, renderFriendStart } from './friend.js';
import { hasText, t } from './i18n.js';
import { toast } from './overlay.js';
import { gameOf, GAMES, known } from './registry.js';
import { beginGame, showScreen } from './session.js';
import { fetchJson, S } from './state.js';

/** The game picker: one radio per registered game, in registry order. */
export function buildGamePicker() {
  const box = $('#game-pick');
  const first = $('legend', box);
  put(box, first, GAMES.map((g, i) => h('label', { class: 'game-choice' },
    h('input', { type: 'radio', name: 'game', value: g.id, checked: i === 0 }),
    h('span', { class: 'gc-name', text: g.t('game_name') }),
    h('span', { class: 'gc-desc', text: g.t('game_desc') }))));
}

/** The game chosen on the start screen (a ruleset the server offers). */
export function selectedGame() {
  const checked = $('#start-form input[name=game]:checked');
  const game = checked ? checked.value : GAMES[0].id;
  return S.meta && S.meta.rulesets[game] && known(game) ? game : GAMES[0].id;
}

/** The context a game's start options are drawn with. */
function startContext(g) {
  return { mode: $('#start-form').mode.value, meta: S.meta.rulesets[g.id] || {} };
}

export function renderStart() {
  if (!S.meta) return;
  const form = $('#start-form');
  const mode = form.mode.value;
  const game = gameOf(selectedGame());
  for (const r of $$('#start-form input[name=game]')) {
    const label = r.closest('label');
    label.hidden = !S.meta.rulesets[r.value];
    $('.gc-name', label).textContent = gameOf(r.value).t('game_name');
    $('.gc-desc', label).textContent = gameOf(r.value).t('game_desc');
  }
  for (const g of GAMES) {
    $(`#${g.optionsBox}`).hidden = g !== game;
    if (g !== game && g.onUnpicked) g.onUnpicked();
  }
  $('#start-logo').textContent = game.brand;
  $('#start-logo-sub').textContent = game.logoSub;
  $('#start-tagline').textContent = game.t('tagline');
  $('#open-decks').hidden = !game.deckBuilder; // the deck builder of a game with one (shell/decks.js)
  document.body.dataset.game = game.id;
  $('#mode-hint').textContent = game.t(mode === 'vs_com' ? 'mode_hint_vs' : 'mode_hint_cc');
  renderFriendStart(mode);
  $('#seed').closest('label').hidden = mode === 'vs_human'; // the server deals between two people
  const levels = (S.meta.rulesets[game.id] && S.meta.rulesets[game.id].com_levels) || ['heuristic'];
  const comSel = $('#com-level');
  // The server's default (ふつう for `kessen play`), until the player picks another.
  const preferred = (S.meta.rulesets[game.id] && S.meta.rulesets[game.id].default_com) || 'heuristic';
  const fallback = levels.includes(preferred) ? preferred : (levels.includes('heuristic') ? 'heuristic' : levels[levels.length - 1]);
  const curCom = comSel.dataset.picked && levels.includes(comSel.value) ? comSel.value : fallback;
  // The named strengths (やさしい / ふつう / つよい) first, the other players after them.
  const named = ['ismcts-easy', 'ismcts-normal', 'ismcts-strong'].filter((l) => levels.includes(l));
  const rest = levels.filter((l) => !named.includes(l));
  const option = (l) => h('option', { value: l, text: hasText(`com_${l}`) ? t(`com_${l}`) : l });
  put(comSel, named.map(option), rest.length && named.length ? h('optgroup', { label: t('com_other') }, rest.map(option)) : rest.map(option));
  comSel.value = curCom;
  comSel.onchange = () => { comSel.dataset.picked = '1'; };
  const paceSel = $('#pace');
  // Seconds in the page's language (「0.5秒」, "0.5 s"), the server's own default first.
  for (const o of paceSel.options) {
    const seconds = o.value === '' ? S.meta.pace : Number(o.value);
    const amount = t('seconds', { n: seconds });
    o.textContent = o.value === '' ? t('pace_default_n', { amount }) : amount;
  }
  game.renderStartOptions($(`#${game.optionsBox}`), startContext(game));
}

export async function startMatch(ev) {
  ev.preventDefault();
  const form = $('#start-form');
  const game = gameOf(selectedGame());
  const cfg = { ruleset: game.id, mode: form.mode.value, com: $('#com-level').value };
  Object.assign(cfg, game.startConfig($(`#${game.optionsBox}`), startContext(game)));
  Object.assign(cfg, friendStartConfig(cfg.mode));
  const pace = $('#pace').value;
  if (pace !== '') cfg.pace = Number(pace);
  // A chosen seed makes an open deal (practice); between two people the server deals.
  // Sent as text: a 64-bit seed does not fit a JavaScript number.
  const seed = $('#seed').value.trim();
  if (seed !== '' && cfg.mode !== 'vs_human') cfg.seed = seed;
  await newGame(cfg);
}

export async function newGame(cfg) {
  const button = $('#start-button');
  button.disabled = true;
  button.textContent = t('starting');
  try {
    const res = await fetchJson('/api/games', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(cfg),
    });
    beginGame(res, cfg);
  } catch (err) {
    toast(t('err_start'), String(err.message || err), 'error');
    showScreen('start');
  } finally {
    button.disabled = false;
    button.textContent = t('start');
  }
}
