// Project Maken (プロジェクト魔剣): the game module the shell draws Maken views with (see
// shell/registry.js for the contract). Its parts: maken-strings.js (texts), maken-base.js
// (catalogue, action words, situation, banner), maken-board.js (cards and fields, top bar,
// results), maken-info.js (CARD INFORMATION, start options); this file holds the operation
// panel, choosing on the board, the end of a game and the module object.
//
// It never decides what is legal: every button is one of `view.pending.legal`, sent back as
// it is. A card on the board glows when an offered action names it; a card with one action
// sends it, a card with several narrows the operation panel to them. What cannot be chosen
// says why, from the ruleset (`view.why_not`): an own card that does not glow carries its
// reason (a chip, `title` and `data-why`), and the standard options the prompt does not offer
// (ガード, ガードブレイク, ジャッジ, ドロー枚数, 残りをゲージで支払う) show as disabled buttons with
// theirs. While a judge plays back (maken-fight.js) the board is the frame's.

import {
  actionLabel, actionText, BET_VERBS, cardName, cat, ensureCatalog, helperOf, M, optionInfo, outcomeTitle, parse,
  promptName, promptText, reasonText, refOf, bannerInfo,
} from './maken-base.js';
import { renderBoard, renderResults, renderTopInfo } from './maken-board.js';
import {
  afterPlayback, currentFrame, frameView, markFrame, maybePlay, renderFight, renderPlaybackOps,
} from './maken-fight.js';
import { draftFace } from './maken-draft.js';
import { readable, renderInfo, renderStartOptions, startConfig } from './maken-info.js';
import { tx } from './maken-strings.js';
import { choose } from '../shell/connection.js';
import { $, $$, h, put } from '../shell/dom.js';
import { term } from '../shell/glossary.js';
import { showInfo } from '../shell/info.js';
import { finishPlayback } from '../shell/playback.js';
import { isMyPrompt, isSpectator, me, online } from '../shell/seats.js';
import { renderIdleOps, showOutcomeDialog } from '../shell/outcome.js';
import { S, scheduleRender } from '../shell/state.js';

/* ================================================================== operation panel */

const FLOW = new Set(['keep', 'mulligan', 'draw', 'end', 'guard', 'gb', 'judge', 'pay-rest-from-gauge', 'decline']);
/** Glossary words of the options and prompts (shell/glossary.js). */
const VERB_TERM = { guard: 'guard', gb: 'gb', judge: 'judge', fb: 'fb', gc: 'gc', bonus: 'bonus_bet', cancel: 'cancel' };
const PROMPT_TERM = { fb: 'fb', pay: 'cancel', bonus: 'bonus_bet' };

/** The reasons of the standard options the prompt does not offer (`why_not`, zone action). */
function offReasons(v) {
  return (v.why_not || []).filter((e) => e.zone === 'action');
}

function opsSignature(v) {
  const p = v.pending;
  return JSON.stringify([
    S.settings.lang, v.session.id, p && p.prompt_id, p && p.seat, p && p.legal, S.awaiting, !!v.outcome,
    v.history.live, v.history.step, v.session.you, online(), M.focus, !!cat(),
    offReasons(v).map((e) => [e.action, e.text]),
  ]);
}

function actButton(a, label, sub, extra = '') {
  const ref = refOf(a);
  const hidden = M.focus && ref !== M.focus;
  const word = VERB_TERM[parse(a).verb];
  const shown = word && FLOW.has(parse(a).verb) ? term(word, label) : label;
  return h('button', {
    type: 'button',
    class: `act mk-act verb-${parse(a).verb}${hidden ? ' mk-filtered' : ''}${extra}`,
    dataset: { action: a },
    disabled: S.awaiting != null || !online(),
    title: sub ? `${label} — ${sub}` : label,
    onclick: () => choose(a),
    onmouseenter: () => hint(a),
    onmouseleave: () => hint(null),
    onfocus: () => hint(a),
    onblur: () => hint(null),
  }, h('span', { class: 'act-label' }, shown), sub ? h('span', { class: 'act-sub', text: sub }) : null);
}

/** A standard option the prompt does not offer: disabled, with the ruleset's reason (seen in
 *  the button, in its `title` and in `data-why`). */
function offButton(e, v) {
  const label = actionLabel(e.action, v);
  return h('button', {
    type: 'button',
    class: `mk-off verb-${parse(e.action).verb}`,
    disabled: true,
    dataset: { off: e.action, why: e.text, code: e.code },
    title: `${label} — ${e.text}`,
  }, h('span', { class: 'act-label', text: label }), h('span', { class: 'act-sub mk-why-sub', text: e.text }));
}

/** The bets of the prompt, one block per card: the single bet, then the DA and TA options
 *  (each option a button with its name and effect). */
function betBlocks(v, bets) {
  const byCard = new Map();
  for (const a of bets) {
    const x = parse(a);
    const key = `${x.verb}|${x.id}`;
    if (!byCard.has(key)) byCard.set(key, []);
    byCard.get(key).push(a);
  }
  const blocks = [];
  for (const [key, list] of byCard) {
    const [verb, id] = key.split('|');
    const helper = helperOf(v, v.pending.seat, id);
    const filtered = M.focus && M.focus !== `h:${id}`;
    const rows = [];
    for (const n of [1, 2, 3]) {
      const group = list.filter((a) => parse(a).n === n);
      if (!group.length) continue;
      const head = n === 1 ? null : h('div', { class: 'mk-opt-head' }, term('da_ta', tx(n === 2 ? 'da' : 'ta')), ` · ${tx('opt_head')}`);
      const buttons = group.map((a) => {
        const x = parse(a);
        if (!x.option) return actButton(a, `${tx(`v_${verb}`)}${tx('sep')}${cardName(id)}`, tx('single'), ' mk-single');
        const o = optionInfo(x.option);
        return actButton(a, `${o.name}`, o.effect, ` mk-opt n${n}`);
      });
      rows.push(h('div', { class: `mk-bet-row n${n}` }, head, h('div', { class: 'mk-opts' }, buttons)));
    }
    blocks.push(h('div', { class: `mk-bet-block${filtered ? ' mk-filtered' : ''}`, dataset: { card: id } },
      h('div', { class: 'mk-bet-card' },
        h('b', { text: cardName(id) }),
        helper ? h('span', { class: 'mk-chip helper', text: tx(helper === 'cost' ? 'helper_cost' : 'helper_free') }) : null),
      rows));
  }
  return blocks;
}

function renderOps(v) {
  const sig = opsSignature(v);
  const body = $('#ops-body');
  if (sig === M.opsSig && body.dataset.ruleset === 'maken') return;
  M.opsSig = sig;
  body.dataset.ruleset = 'maken';
  if (renderIdleOps(body, v, { tx, outcomeTitle, reasonText, bannerInfo, promptName, showGameOver })) return;
  const p = v.pending;
  const title = PROMPT_TERM[p.prompt] ? term(PROMPT_TERM[p.prompt], promptName(p.prompt)) : promptName(p.prompt);
  const kids = [h('div', { class: 'ops-prompt' },
    h('div', { class: 'ops-title' }, title),
    h('p', { class: 'ops-expl', text: promptText(v) }))];
  if (M.focus) {
    kids.push(h('div', { class: 'mk-focus' },
      h('span', { class: 'muted', text: tx('focus') }), h('span', { class: 'mk-focus-chip', text: cardName(M.focus.slice(2)) }),
      h('button', { type: 'button', class: 'link mk-clear-focus', text: tx('clear_focus'), onclick: clearFocus })));
  }
  const legal = p.legal;
  const flow = legal.filter((a) => FLOW.has(parse(a).verb));
  const support = legal.filter((a) => parse(a).verb !== 'cancel' && !FLOW.has(parse(a).verb) && !BET_VERBS.has(parse(a).verb));
  const cancels = legal.filter((a) => parse(a).verb === 'cancel');
  const bets = legal.filter((a) => BET_VERBS.has(parse(a).verb));
  const box = h('div', { class: 'ops-actions mk-groups' });
  const heads = { bet: 'bet', cancel: 'cancel', support: 'support' };
  const group = (name, nodes) => {
    if (!nodes.length) return;
    const head = name === 'flow' ? null : h('div', { class: 'mk-group-head' }, heads[name] ? term(heads[name], tx(`g_${name}`)) : tx(`g_${name}`));
    box.append(h('div', { class: `mk-group g-${name}` }, head, nodes));
  };
  group('cancel', cancels.map((a) => actButton(a, actionLabel(a, v), '')));
  group('bet', betBlocks(v, bets));
  group('support', support.map((a) => actButton(a, actionLabel(a, v), '')));
  const offs = offReasons(v).map((e) => offButton(e, v));
  group('flow', [...flow.map((a) => actButton(a, actionLabel(a, v), '')), ...offs]);
  if (!M.focus && (bets.length > 3 || support.length > 1)) kids.push(h('p', { class: 'ops-note muted', text: tx('pick_hint') }));
  kids.push(box);
  put(body, ...kids);
}

/* ================================================================== choosing on the board */

/** Pointing at a button lights the card it names on the board and shows that card in CARD
 *  INFORMATION (null: nothing pointed at). */
function hint(action) {
  for (const e of $$('#mk-board .mk-hint')) e.classList.remove('mk-hint');
  if (!action) return;
  const ref = refOf(action);
  if (!ref) return;
  for (const e of $$(`#mk-board [data-ref="${CSS.escape(ref)}"]`)) e.classList.add('mk-hint');
  showInfo({ type: 'mk', what: 'card', card: { card: ref.slice(2) } });
}

/** A card's text as it shows (maken-board.js keeps its words apart by spaces). Its accessible
 *  name starts with it, so what is seen is what is heard (axe's label-content-name-mismatch). */
function shownText(el) {
  return el.textContent.replace(/\s+/g, ' ').trim();
}

/** Light the cards the offered actions name: one action sends it, several narrow the panel. */
function markSelectable(v) {
  if (!isMyPrompt(v) || S.awaiting != null || !online()) return;
  const byRef = new Map();
  for (const a of v.pending.legal) {
    const ref = refOf(a);
    if (!ref) continue;
    if (!byRef.has(ref)) byRef.set(ref, []);
    byRef.get(ref).push(a);
  }
  for (const [ref, acts] of byRef) {
    for (const el of $$(`#mk-board [data-ref="${CSS.escape(ref)}"]`)) {
      if (acts.length === 1) {
        el.classList.add('selectable');
        el.dataset.act = acts[0];
      } else {
        el.classList.add('pickable', 'mk-sel');
        el.setAttribute('aria-pressed', String(M.focus === ref));
        el.setAttribute('aria-label', `${shownText(el)} (${tx('n_choices', { n: acts.length })})`);
      }
      if (M.focus === ref) el.classList.add('mk-focused');
    }
  }
}

/** Give a card that does not glow the reason the ruleset states: `data-why` and `title` with
 *  the words, and a short chip on the card. */
function giveReason(el, entry) {
  if (!el || el.classList.contains('selectable') || el.classList.contains('pickable')) return;
  el.dataset.why = entry.text;
  el.dataset.whyCode = entry.code;
  el.title = `${tx('cl_why')}: ${entry.text}`;
  el.classList.add('mk-unusable');
  const key = `why_${entry.code}`;
  el.append(h('span', { class: `mk-why-chip why-${entry.code}`, text: tx.has(key) ? tx(key) : tx('why_any') }));
}

/** The reasons of `view.why_not` on the seat's own cards: hand, support field, and (while
 *  paying) the attack field. */
function markReasons(v) {
  if (S.replay || !v.why_not || isSpectator()) return;
  const half = $(`#mk-board .mk-half[data-seat="${me()}"]`);
  if (!half) return;
  const hand = new Map();
  const support = { up: new Map(), set: new Map() };
  for (const e of v.why_not) {
    if (e.zone === 'hand') hand.set(e.card, e);
    else if (e.zone === 'support') support[e.code === 'in_play' ? 'up' : 'set'].set(e.card, e);
    else if (e.zone === 'field') giveReason(half.querySelector(`.mk-field [data-index="${e.index}"]`), e);
  }
  for (const el of half.querySelectorAll('[data-ref^="h:"]')) {
    const entry = hand.get(el.dataset.ref.slice(2));
    if (entry) giveReason(el, entry);
  }
  for (const el of half.querySelectorAll('[data-ref^="s:"]')) {
    const id = el.dataset.ref.slice(2);
    const entry = el.classList.contains('up') ? support.up.get(id) : support.set.get(id) || support.up.get(id);
    if (entry) giveReason(el, entry);
  }
}

function setFocus(ref) {
  M.focus = M.focus === ref ? '' : ref;
  M.opsSig = '';
  scheduleRender();
}

function clearFocus() {
  if (!M.focus) return false;
  setFocus(M.focus);
  return true;
}

/** A click on the table: a card with several choices narrows the operation panel to them. */
function onBoardClick(ev) {
  const v = S.view;
  if (!v || !isMyPrompt(v)) return;
  const el = ev.target.closest('#mk-board .pickable[data-ref]');
  if (el) setFocus(el.dataset.ref);
}

/** On a touch screen a tap on a glowing card reads it and narrows the panel (its button acts). */
function tapToInspect(action) {
  const ref = refOf(action);
  if (ref && M.focus !== ref) setFocus(ref);
}

/* ================================================================== the end of a game */

function detectEnd(prev, v) {
  maybePlay(prev, v);
  if (!v.history.live || !v.outcome) return;
  const sameGame = prev && prev.session.id === v.session.id && prev.history.live;
  // The dialog comes after the playback of the judge that ended the game.
  if ((!sameGame || !prev.outcome) && S.dismissedMatch !== v.session.id) afterPlayback(() => showGameOver(v));
}

function showGameOver(v) {
  if (!v || !v.outcome) return;
  const draw = v.outcome.winner == null || v.outcome.winner < 0;
  // The deciding moment, as the log says it: the down that took the last LP (or, for a draw,
  // the turn limit's words), as TWGP's dialog shows its deciding fight.
  const ends = v.log.filter((e) => e.kind === (draw ? 'end' : 'down'));
  showOutcomeDialog(v, {
    cls: 'mk-over',
    kicker: `${tx('title')} · ${tx('over')}`,
    title: outcomeTitle(v),
    line: ends.length ? ends[ends.length - 1].text : '',
    score: `${reasonText(v.outcome.reason)} · ${tx('turns_n', { n: v.turn })}`,
    words: { again: tx('again'), to_start: tx('to_start'), see_board: tx('see_board') },
  });
}

/* ================================================================== entry points */

function render(v) {
  if (!cat()) ensureCatalog(S.settings.lang).catch(() => {});
  const key = v.pending ? `${v.session.id}|${v.pending.prompt_id}|${v.history.step}` : '';
  if (key !== M.focusKey) {
    M.focusKey = key;
    M.focus = '';
  }
  const frame = S.replay ? null : currentFrame();
  const shown = frame ? frameView(v, frame) : v;
  renderTopInfo(shown);
  renderBoard(shown);
  renderResults(shown);
  if (S.replay) M.opsSig = '';
  else if (frame) {
    renderPlaybackOps();
    M.opsSig = '';
  } else renderOps(v);
  if (frame) markFrame(frame);
  else {
    markSelectable(v);
    markReasons(v);
  }
  renderFight(v);
}

function reset() {
  M.opsSig = '';
  M.focus = '';
}

/** Once at boot: hovering over a card of the board shows it in CARD INFORMATION. */
function init() {
  $('#table').addEventListener('mouseover', (ev) => {
    if (!S.view || S.view.ruleset !== 'maken') return;
    const info = readable(ev.target);
    if (info) showInfo(info);
  });
}

function replayTurnLabel(x) {
  if (x.turn === 0) return tx('setup_label');
  return `${tx('turn', { n: x.turn })}${x.player == null ? '' : ` · P${x.player + 1}`}`;
}

function deckName(code) {
  const c = cat();
  return (c && c.characters && c.characters[code]) || code || '?';
}

export const game = {
  id: 'maken',
  t: tx,
  brand: '魔剣',
  logoSub: 'Project Maken',
  get title() { return `${tx('title')} — Kessen`; },
  optionsBox: 'maken-options',
  boardClass: 'rs-maken',
  helpAnchor: 'sec-11',
  ensureCatalog,
  renderStartOptions,
  startConfig,
  render,
  renderInfo,
  actionText: (text) => actionText(text),
  promptName,
  detectEnd,
  init,
  onBoardClick,
  tapToInspect,
  onEscape: () => {
    if (currentFrame()) {
      finishPlayback();
      return true;
    }
    return clearFocus();
  },
  reset,
  replayTurnLabel,
  continueConfig: (match, seat, res) => {
    const decks = Array.isArray(match.decks) && match.decks.length === 2 ? match.decks : null;
    const config = decks ? { decks: seat === 1 ? [decks[1], decks[0]] : decks } : {};
    return { ruleset: 'maken', mode: 'vs_com', com: res.com, config };
  },
  decks: () => Object.keys((cat() && cat().decks) || {}).map((slug) => ({ slug, name: deckName(slug) })),
  deckName,
  draftFace,
};
