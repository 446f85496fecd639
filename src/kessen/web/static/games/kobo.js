// Kōbō (攻防): the game module the shell draws Kōbō views with (see shell/registry.js for the
// contract). Its parts: kobo-strings.js (texts), kobo-board.js (cards, board, top bar, lane,
// results), kobo-ops.js (operation panel, action texts, glowing choices), kobo-info.js (CARD
// INFORMATION, deck lists, end-of-game dialogs).
//
// It never decides what is legal: the buttons and the glowing board elements are exactly the
// action texts of `view.pending.legal`, and choosing one sends that text back.

import {
  cardDef, cat, catalogs, drawLane, K, renderCenter, renderKoboLane, renderPiles, renderResults, renderSide, renderTopbar,
} from './kobo-board.js';
import {
  afterPlayback, currentFrame, finish, markTouched, maybePlay, P, renderFight,
} from './kobo-fight.js';
import { renderKoboInfo, showDeckPreview, showGameOver, showMatchOver, starterDeck } from './kobo-info.js';
import { actionText, applyHover, markSelectable, renderOps, renderPlaybackOps, setHover } from './kobo-ops.js';
import { deckRef, savedDeckGroup, showSavedDecks, builder as deckBuilder } from './kobo-decks.js';
import { draftFace } from './kobo-draft.js';
import { t } from './kobo-strings.js';
import { renderOpeningOptions, withOpening } from './kobo-opening.js';
import { onSurpriseClick, renderSurpriseOption, withSurprise } from './kobo-surprise.js';
import { hideTutorialOffer, initTutorial, renderCoach, renderTutorialOffer } from './kobo-tutorial.js';
import { decorateRules } from './kobo-rules-pictures.js';
import { $, $$, afterDrawing, h, put, revealIn } from '../shell/dom.js';
import { showInfo } from '../shell/info.js';
import { me } from '../shell/seats.js';
import { fetchJson, S, scheduleRender } from '../shell/state.js';

/** The Kōbō catalogue (cards, decks) in `lang`, fetched once. */
async function ensureCatalog(lang) {
  if (!catalogs[lang]) catalogs[lang] = await fetchJson(`/api/catalog/kobo?lang=${lang}`);
  return catalogs[lang];
}

/** Draw a Kōbō view: top bar, both sides, piles, center, lane, results, operation panel. While
 *  a closed chain plays back, the board, lane and panel show the playback's frame instead. */
function render(v) {
  const frame = S.replay ? null : currentFrame();
  const shown = frame && frame.shown ? frame.shown : v;
  const bottom = me();
  const top = 1 - bottom;
  const keys = new Map();
  renderTopbar(shown);
  put($('#side-top'), ...renderSide(shown, top, 'top', keys));
  put($('#side-bottom'), ...renderSide(shown, bottom, 'bottom', keys));
  put($('#piles-top'), ...renderPiles(shown, top));
  put($('#piles-bottom'), ...renderPiles(shown, bottom));
  renderCenter(shown, keys);
  if (frame) {
    $('#banner').className = 'banner resolving';
    put($('#banner'), h('span', { class: 'banner-dot' }), h('span', { class: 'banner-text', text: t('fx_banner') }));
    drawLane(frame.chain, frame.resolved, false, '');
  } else renderKoboLane(v);
  $('#lane').dataset.playback = frame ? String(P.run.index) : '';
  renderFight(v);
  renderResults(v);
  if (S.replay) S.opsSig = '';
  else if (frame) renderPlaybackOps();
  else renderOps(v);
  if (frame) {
    for (const e of $$('.selectable')) { e.classList.remove('selectable'); delete e.dataset.act; }
    markTouched(frame);
  } else markSelectable(v);
  applyHover();
  afterDrawing(scrollableHands);
  K.prevKeys = keys;
  renderCoach(v); // the guided match's coach marks (kobo-tutorial.js), over the board drawn
}

/** A hand row that scrolls sideways (too many cards for a wide screen's board) takes the
 *  keyboard's focus, so it can be scrolled without a pointer. */
function scrollableHands() {
  for (const row of $$('#board .hand-cards.faces')) {
    if (row.scrollWidth <= row.clientWidth + 1) continue;
    row.tabIndex = 0;
    row.setAttribute('role', 'group');
    const title = row.parentElement.querySelector('.hand-title');
    if (title) row.setAttribute('aria-label', title.textContent);
  }
}

/** Show a game's or the match's end once, when the live view first shows it (after the
 *  playback of the chain that ended it, so the final board is seen first). */
function detectEnd(prev, view) {
  if (S.replay || !view.history.live) {
    if (P.run) finish();
    return;
  }
  // An undo (the step goes back) or another session ends a playback at once.
  if (P.run && (!prev || prev.session.id !== view.session.id || view.history.step < prev.history.step)) finish();
  maybePlay(prev, view);
  const sameGame = prev && prev.session.id === view.session.id && prev.history.live;
  if (view.match.over) {
    if (!sameGame || !prev.match.over) {
      afterPlayback(() => { if (S.dismissedMatch !== view.session.id) showMatchOver(); });
    }
    return;
  }
  if (sameGame && view.match.results.length > prev.match.results.length) {
    const index = view.match.results.length - 1;
    afterPlayback(() => showGameOver(index));
  }
}

/** A pass that ends the turn is confirmed first (it may cost an exclusion penalty). */
function intercept(action, v) {
  if (action !== 'pass' || v.pending.prompt !== 'turn') return false;
  S.confirm = { action, promptId: v.pending.prompt_id };
  S.opsSig = '';
  scheduleRender();
  return true;
}

/** Escape skips a playback, or closes the pass confirmation. */
function onEscape() {
  if (P.run) {
    finish();
    return true;
  }
  if (!S.confirm) return false;
  S.confirm = null;
  S.opsSig = '';
  scheduleRender();
  return true;
}

/* ---------------------------------------------------------------- start screen */

/** The deck pickers: labels by mode, the decks of the catalogue, each deck's style. */
function renderStartOptions(box, ctx) {
  $('#deck-label-0').textContent = ctx.mode === 'vs_com' ? t('deck_you') : t('deck_p1');
  $('#deck-label-1').textContent = ctx.mode === 'vs_com' ? t('deck_opp') : t('deck_p2');
  const decks = Object.values(cat().decks || {});
  const defaults = ctx.meta.default_decks || [];
  for (const side of [0, 1]) {
    const sel = $(`#deck-${side}`);
    const current = sel.value || defaults[side] || (decks[side] && decks[side].slug);
    put(sel, ...decks.map((d) => h('option', { value: d.slug, text: d.name })), savedDeckGroup(() => renderStartOptions(box, ctx)));
    if (current) sel.value = current;
    if (!sel.value || sel.selectedOptions[0].disabled) sel.value = defaults[side] || (decks[side] && decks[side].slug) || '';
    const deck = cat().decks[sel.value];
    $(`#deck-style-${side}`).textContent = deck ? deck.style : '';
  }
  const preview = $('#deck-preview');
  if (!preview.hidden && preview.dataset.side) showDeckPreview(Number(preview.dataset.side), true);
  renderSurpriseOption(box, ctx);
  renderOpeningOptions(box);
  showSavedDecks();
  renderTutorialOffer(); // a first visit is offered the guided match (kobo-tutorial.js)
}

function startConfig() {
  return { decks: [deckRef($('#deck-0').value), deckRef($('#deck-1').value)] };
}

/** Once at boot: the deck list buttons, the deck pickers, the hover over
 *  glowing places, and reading a card without acting (hover, or a long press on touch). */
function init() {
  for (const b of $$('[data-show-deck]')) b.addEventListener('click', () => showDeckPreview(Number(b.dataset.showDeck)));
  $('#kobo-options').addEventListener('change', (ev) => {
    if (ev.target.id.startsWith('deck-') && S.meta && S.meta.rulesets.kobo) {
      renderStartOptions($('#kobo-options'), { mode: $('#start-form').mode.value, meta: S.meta.rulesets.kobo });
    }
  });
  const table = $('#table');
  table.addEventListener('mouseover', (ev) => {
    if (!S.view || rulesetOfView() !== 'kobo') return;
    const sel = ev.target.closest('.selectable[data-act]');
    if (sel) {
      if (S.hover !== sel.dataset.act) setHover(sel.dataset.act);
    }
    const info = readable(ev.target);
    if (info) showInfo(info);
  });
  table.addEventListener('mouseout', (ev) => {
    const sel = ev.target.closest('.selectable[data-act]');
    if (sel && !sel.contains(ev.relatedTarget)) setHover(null);
  });
  bindLongPress(table);
  initTutorial();
}

function rulesetOfView() {
  return (S.view && S.view.ruleset) || 'kobo';
}

/** What CARD INFORMATION shows for the element under the pointer: a card on the board, in a
 *  hand or in the lane, or a log entry that names a card (never an action). */
function readable(target) {
  if (target.closest('#cardinfo')) return null; // what CARD INFORMATION shows stays put under the pointer
  const el = target.closest('.infoable');
  if (el && S.infoMap.has(el)) {
    const info = S.infoMap.get(el);
    return info.type === 'card' ? info : null; // piles open their lists on a click only
  }
  const entry = target.closest('#log li.entry');
  const e = entry && S.view ? S.view.log[Number(entry.dataset.index)] : null;
  const slug = e && typeof e.card === 'string' ? e.card : null;
  return slug && cardDef(slug) ? { type: 'card', card: { slug }, zone: 'log' } : null;
}

/** A touch held still on a card shows it in CARD INFORMATION; the click that follows the
 *  release is swallowed, so reading never acts. */
function bindLongPress(table) {
  let timer = null;
  let fired = false;
  let start = null;
  const cancel = () => { clearTimeout(timer); timer = null; };
  table.addEventListener('pointerdown', (ev) => {
    fired = false;
    if (ev.pointerType === 'mouse') return;
    const info = readable(ev.target);
    if (!info) return;
    start = [ev.clientX, ev.clientY];
    cancel();
    timer = setTimeout(() => { fired = true; timer = null; showInfo(info); }, 450);
  });
  table.addEventListener('pointermove', (ev) => {
    if (timer && start && Math.hypot(ev.clientX - start[0], ev.clientY - start[1]) > 10) cancel();
  });
  for (const type of ['pointerup', 'pointercancel']) table.addEventListener(type, cancel);
  table.addEventListener('contextmenu', (ev) => { if (fired) ev.preventDefault(); });
  document.addEventListener('click', (ev) => {
    if (!fired || !table.contains(ev.target)) return;
    fired = false;
    ev.stopPropagation();
    ev.preventDefault();
  }, true);
}

/* ---------------------------------------------------------------- records */

function replayTurnLabel(x) {
  if (x.turn === 0) return t('standby_label', { g: x.game });
  const who = x.player == null ? '' : ` · P${x.player + 1}`;
  return `${t('turn_label', { g: x.game, n: x.turn })}${who}`;
}

/** もう一度 after "continue from here": the record's decks, the human's first. */
function continueConfig(match, seat, res) {
  const decks = match.decks || [];
  const known = decks.length === 2 && decks.every((d) => d && cat().decks && cat().decks[d]);
  return known ? { mode: 'vs_com', decks: seat === 1 ? [decks[1], decks[0]] : decks, com: res.com } : null;
}

/** A record's deck by name: a starter deck's (also one that needs a match option), else the
 *  slug itself. */
function deckName(slug) {
  const d = slug ? starterDeck(slug) : null;
  return d ? d.name : (slug || '?');
}

/** A tap on a glowing place (touch screens): read its card and arm the one button of the
 *  operation panel that takes that action (tap to inspect, a clear button to act). */
function tapToInspect(action) {
  setHover(action);
  for (const b of $$('#ops button.tap-armed')) b.classList.remove('tap-armed');
  const button = $(`#ops button.act[data-action="${CSS.escape(action)}"]`);
  if (!button) return;
  button.classList.add('tap-armed');
  revealIn(button.closest('.ops-body'), button);
}

export const game = {
  id: 'kobo',
  t,
  brand: '攻防',
  logoSub: 'Kōbō',
  title: '攻防 Kōbō — Kessen',
  optionsBox: 'kobo-options',
  boardClass: '',
  ensureCatalog,
  renderStartOptions,
  startConfig: (box, ctx) => withOpening(withSurprise(startConfig(box, ctx))),
  onUnpicked: () => { $('#deck-preview').hidden = true; hideTutorialOffer(); },
  init,
  render,
  renderInfo: renderKoboInfo,
  actionText,
  promptName: (prompt) => t(`pt_${prompt}`),
  detectEnd,
  intercept,
  onBoardClick: onSurpriseClick,
  tapToInspect,
  onEscape,
  reset: () => { K.prevKeys.clear(); },
  replayTurnLabel,
  continueConfig,
  deckBuilder,
  draftFace,
  decks: () => [...Object.values(cat().decks || {}), ...Object.values(cat().option_decks || {})],
  deckName,
  decorateRules,
};
