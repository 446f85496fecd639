// TWGP トランプ版: the game module the shell draws TWGP views with (see shell/registry.js for
// the contract). Its parts: twgp-strings.js (texts), twgp-base.js (catalogue, action words and
// labels, windows and banner), twgp-board.js (cards, grids, top bar, results); this file holds
// the operation panel, choosing on the board, CARD INFORMATION, the end of a game, the start
// options and the module object.
//
// Like the Kōbō board, it never decides what is legal: every choice is one of
// `view.pending.legal`, sent back as it is. The board only maps an action's words (squares,
// card names) to the places they name, so the places light up and a click on a place narrows
// the offered choices to those that involve it.

import {
  actionLabel, actionText, bannerInfo, cat, cdef, DIRECT_PROMPTS, ensureCatalog, GROUP_FOLD, GROUP_OF,
  GROUPS, label, promptName, promptText, refsOf, suitOf, T, two, unitAt, words,
} from './twgp-base.js';
import {
  attackLine, cardEl, outcomeTitle, reasonText, renderBoard, renderResults, renderTopInfo, sig,
} from './twgp-board.js';
import { builder as deckBuilder, buildRefs, buildSelects, refreshBuildSelects } from './twgp-decks.js';
import { currentFrame, finishPlayback, markTouched, maybePlay } from './twgp-fight.js';
import { tw, tx } from './twgp-strings.js';
import { termify } from './twgp-terms.js';
import { choose } from '../shell/connection.js';
import { $, $$, afterDrawing, h, put } from '../shell/dom.js';
import { term } from '../shell/glossary.js';
import { infoable } from '../shell/info.js';
import { afterPlayback } from '../shell/playback.js';
import { isMyPrompt, isSpectator, me, online, whoseOf } from '../shell/seats.js';
import { renderIdleOps, showOutcomeDialog } from '../shell/outcome.js';
import { S, scheduleRender } from '../shell/state.js';

/* ================================================================== operation panel */

function focusKey(v) {
  const p = v.pending;
  return p ? `${v.session.id}|${p.prompt_id}|${v.history.step}` : '';
}

function matching(v, legal) {
  if (!T.focus.length) return legal;
  return legal.filter((a) => {
    const refs = refsOf(a, v);
    return T.focus.every((r) => refs.includes(r));
  });
}

function refName(ref, v) {
  const [kind, seat, x] = ref.split(':');
  switch (kind) {
    case 'b': { const u = unitAt(v, Number(seat), Number(x)).u; return `${tx('sq', { n: x })}${u ? ` ${u}` : ''}`; }
    case 'h': case 'p': return label(x);
    case 'c': return tx('charge_n', { n: x });
    case 'v': return tx('vital_n', { n: x });
    case 'vg': return tx('where_vital', { whose: whoseOf(Number(seat)), n: '' }).trim();
    case 'surge': return tx('surge');
    case 'pile': return tx('pile');
    default: return ref;
  }
}

function opsSignature(v) {
  const p = v.pending;
  return JSON.stringify([
    S.settings.lang, v.lang, v.session.id, p && p.prompt_id, p && p.seat, p && p.legal, p && p.context,
    S.awaiting, !!v.outcome, v.history.live, v.history.step, v.session.you, online(), T.focus, [...T.open],
    !!cat(), v.players.map((x) => x.battle.map((st) => st && `${st.pow}${st.unit ? st.unit.slug : ''}`)),
  ]);
}

/** Why the options cannot be pressed now ('' when they can). */
function disabledWhy() {
  if (!online()) return tx('why_offline');
  if (S.awaiting != null) return tx('why_sending');
  return '';
}

function actionButton(a, v, extraClass = '') {
  const [verb] = words(a);
  const why = disabledWhy();
  return h('button', {
    type: 'button',
    class: `act tw-act verb-${verb} group-${GROUP_OF[verb] || 'other'}${extraClass}`,
    dataset: why ? { action: a, why } : { action: a },
    disabled: !!why,
    title: why || null,
    onclick: () => choose(a),
    onmouseenter: () => setHover(a),
    onmouseleave: () => setHover(null),
    onfocus: () => setHover(a),
    onblur: () => setHover(null),
  }, h('span', { class: 'act-label', text: actionLabel(a, v) }));
}

function renderOps(v) {
  const sig = opsSignature(v);
  if (sig === T.opsSig && $('#ops-body').dataset.ruleset === 'twgp') return;
  T.opsSig = sig;
  const body = $('#ops-body');
  body.dataset.ruleset = 'twgp';
  const waiting = {
    waitingClass: (p) => (p.prompt === 'response' ? ' tw-resp-wait' : ''),
    waitingNotes: (view) => (view.phase === 'setup' && view.players[me()].pool == null && !isSpectator()
      ? [h('p', { class: 'muted', text: tx('built_wait') })] : []),
  };
  if (renderIdleOps(body, v, { tx, outcomeTitle, reasonText, bannerInfo, promptName, showGameOver, ...waiting })) return;
  const p = v.pending;
  const ctx = p.context || {};
  const head = h('div', { class: `ops-prompt${p.prompt === 'response' ? ' tw-resp-prompt' : ''}` },
    h('div', { class: 'ops-title', text: promptName(p.prompt) }),
    h('p', { class: 'ops-expl' }, termify(promptText(v))));
  if (p.prompt === 'response') {
    const line = attackLine(v);
    if (line) head.append(line);
  }
  if (p.prompt === 'damage' && ctx.finished && ctx.finished.length) {
    head.append(h('p', { class: 'ops-note', text: tx('damage_done_steps', { list: ctx.finished.map((s) => tx(`step_${s}`)).join('・') }) }));
  }
  if (typeof ctx.toggles_left === 'number' && ctx.toggles_left < 3) {
    head.append(h('p', { class: 'ops-note muted', text: tx('toggles_left', { n: ctx.toggles_left }) }));
  }
  const kids = [head];
  const legal = p.legal;
  const idle = idleWhy(v, legal);
  if (idle) head.append(idle);
  const why = disabledWhy();
  if (why) head.append(h('p', { class: 'ops-note tw-disabled-why', dataset: { why }, text: why }));
  const hits = new Set(matching(v, legal));
  if (T.focus.length) {
    kids.push(h('div', { class: 'tw-focus' },
      h('span', { class: 'muted', text: tx('focus') }),
      T.focus.map((r) => h('span', { class: 'tw-focus-chip', text: refName(r, v) })),
      h('button', { type: 'button', class: 'link tw-clear-focus', text: tx('clear_focus'), onclick: clearFocus })));
  } else if (legal.length > GROUP_FOLD) {
    kids.push(h('p', { class: 'ops-note muted tw-pick-hint', text: tx('pick_hint') }));
  }
  const groups = new Map();
  for (const a of legal) {
    const g = GROUP_OF[words(a)[0]] || 'other';
    if (!groups.has(g)) groups.set(g, []);
    groups.get(g).push(a);
  }
  const box = h('div', { class: 'ops-actions tw-groups' });
  // In the battle phase the attacks come first, after the buttons that move the turn on.
  const order = p.prompt === 'battle_window' ? ['flow', 'attack', ...GROUPS.filter((g) => g !== 'flow' && g !== 'attack')] : GROUPS;
  for (const g of order) {
    const items = groups.get(g);
    if (!items) continue;
    const shown = T.focus.length ? items.filter((a) => hits.has(a)) : items;
    const folded = !T.focus.length && g !== 'flow' && items.length > GROUP_FOLD && !T.open.has(g);
    const section = h('div', { class: `tw-group g-${g}${folded ? ' folded' : ''}${T.focus.length && !shown.length ? ' filtered' : ''}`, dataset: { group: g } });
    if (g !== 'flow') {
      section.append(h('div', { class: 'tw-group-head' },
        h('span', { class: 'tw-group-name' }, groupTerm(g), ' ',
          h('span', { class: 'tw-group-count', text: T.focus.length ? `${shown.length}/${items.length}` : String(items.length) })),
        items.length > GROUP_FOLD && !T.focus.length ? h('button', {
          type: 'button', class: 'link tw-group-toggle', dataset: { group: g },
          text: folded ? tx('show_all_n', { n: items.length }) : tx('hide_group'),
          onclick: () => { if (T.open.has(g)) T.open.delete(g); else T.open.add(g); T.opsSig = ''; scheduleRender(); },
        }) : null));
    }
    for (const a of items) {
      const btn = actionButton(a, v, hits.has(a) ? '' : ' tw-filtered');
      if (T.focus.length && hits.size === 1 && hits.has(a)) btn.classList.add('tw-only');
      section.append(btn);
    }
    box.append(section);
  }
  kids.push(box);
  put(body, ...kids);
  if (T.opsPid !== p.prompt_id) {
    T.opsPid = p.prompt_id;
    afterDrawing(() => { body.scrollTop = 0; }); // a new question starts at its top
  }
}

/** The name of a group of options, as a word of the glossary where it is one. */
function groupTerm(g) {
  const text = tx(`gr_${g}`);
  switch (g) {
    case 'summon': return term('drive', text);
    case 'weapon': return term('weapon', text);
    case 'surge': return term('surge', text);
    case 'vital': return term('vital', text);
    default: return text;
  }
}

/** When the only choices move the turn on (バトル・フェイズへ, ターン終了), why nothing else
 *  can be done: the reasons of the hand's cards (the server's `why_not`, each once, with the
 *  cards it holds for), an empty hand, no unit that can attack. */
function idleWhy(v, legal) {
  if (!legal.length || !legal.every((a) => a === 'battle' || a === 'end')) return null;
  const mine = v.players[v.pending.seat];
  const reasons = [];
  const cards = new Map();
  for (const w of v.why_not || []) {
    if (w.zone !== 'hand') continue;
    const card = (mine.hand.cards || [])[w.index];
    if (!cards.has(w.text)) { cards.set(w.text, []); reasons.push(w.text); }
    if (card) cards.get(w.text).push(card.label);
  }
  const en = S.settings.lang === 'en';
  const items = reasons.map((text) => (cards.get(text).length ? `${cards.get(text).join(en ? ', ' : '・')}${en ? ': ' : '：'}${text}` : text));
  if (!mine.hand.count) items.push(tx('idle_no_hand'));
  if (legal.includes('end') && !mine.battle.some((st) => st && st.pose === 'active')) items.push(tx('idle_no_attacker'));
  const text = [tx('idle_head'), ...items].join(' ');
  return h('div', { class: 'ops-note tw-idle', dataset: { why: text } },
    h('strong', { text: tx('idle_head') }),
    h('ul', { class: 'tw-idle-list' }, items.map((x) => h('li', null, termify(x)))));
}

/** The operation panel while a fight plays back: what is going on, and the skip. */
function renderPlaybackOps() {
  const sig = `tw-playback|${S.settings.lang}`;
  const body = $('#ops-body');
  if (T.opsSig === sig && body.dataset.ruleset === 'twgp') return;
  T.opsSig = sig;
  body.dataset.ruleset = 'twgp';
  put(body,
    h('div', { class: 'ops-prompt waiting' },
      h('div', { class: 'ops-title' }, h('span', { class: 'spinner' }), tx('fs_banner')),
      h('p', { class: 'muted', text: tx('fs_ops') })),
    h('div', { class: 'ops-actions' },
      h('button', { type: 'button', class: 'act-secondary tw-skip-ops', text: tx('fs_skip'), onclick: finishPlayback })));
}

/* ================================================================== selecting on the board */

function setHover(action) {
  T.hover = action;
  applyHover();
}

function applyHover() {
  for (const e of $$('#tw-board .tw-hint')) e.classList.remove('tw-hint');
  const v = S.view;
  if (!T.hover || !v || !v.pending || !isMyPrompt(v)) return;
  for (const ref of refsOf(T.hover, v)) {
    const el = $(`#tw-board [data-ref="${CSS.escape(ref)}"]`);
    if (el) el.classList.add('tw-hint');
  }
}

/** Light the places the offered choices involve; they are `pickable` (the shell makes them
 *  focusable buttons for the keyboard), named after the place for screen readers. */
function markSelectable(v) {
  for (const e of $$('#tw-board .tw-sel, #tw-board .tw-focused')) {
    e.classList.remove('tw-sel', 'tw-focused', 'pickable');
    e.removeAttribute('aria-label');
    e.removeAttribute('aria-description');
    e.removeAttribute('aria-pressed');
  }
  if (!isMyPrompt(v) || S.awaiting != null || !online()) return;
  const reachable = new Set();
  for (const a of matching(v, v.pending.legal)) for (const r of refsOf(a, v)) reachable.add(r);
  const mark = (r, cls) => {
    const el = $(`#tw-board [data-ref="${CSS.escape(r)}"]`);
    if (!el) return;
    el.classList.add(cls, 'pickable');
    // A card is read by its own face; an empty place is named.
    el.setAttribute(el.textContent.trim() ? 'aria-description' : 'aria-label', refName(r, v));
    el.setAttribute('aria-pressed', String(cls === 'tw-focused'));
  };
  for (const r of T.focus) mark(r, 'tw-focused');
  for (const r of reachable) if (!T.focus.includes(r)) mark(r, 'tw-sel');
}

/** A click on a board place: narrow the choices to those involving it (or widen again);
 * a pure "pick one" prompt (building, choosing a vital) sends the only matching choice. On a
 * touch screen a tap only reads and narrows: the choice is then one clear button to press. */
function onBoardClick(el, touch) {
  const v = S.view;
  if (!v || !isMyPrompt(v) || S.awaiting != null || !online()) return;
  const ref = el.dataset.ref;
  if (!ref) return;
  if (T.focus.includes(ref)) {
    T.focus = T.focus.filter((r) => r !== ref);
  } else if (el.classList.contains('tw-sel')) {
    const next = [...T.focus, ref];
    const legal = v.pending.legal;
    const hits = legal.filter((a) => { const refs = refsOf(a, v); return next.every((r) => refs.includes(r)); });
    if (!hits.length) return;
    if (DIRECT_PROMPTS.has(v.pending.prompt) && hits.length === 1 && !touch) {
      T.focus = [];
      choose(hits[0]);
      return;
    }
    T.focus = next;
  } else return;
  T.opsSig = '';
  scheduleRender();
}

/** Forget the places picked on the board. */
function clearFocus() {
  if (!T.focus.length) return false;
  T.focus = [];
  T.opsSig = '';
  scheduleRender();
  return true;
}

/* ================================================================== CARD INFORMATION */

function cardFacts(card, extra = []) {
  const d = cdef(card.slug) || {};
  const kind = card.kind || d.kind || 'unit';
  const stats = [];
  if (kind === 'unit') stats.push(h('span', { class: 'stat' }, term('base', tx('base')), ' ', h('b', { text: two(card.base ?? d.base) })));
  return [
    h('div', { class: 'info-card' }, cardEl(card, { size: 'i' })),
    h('div', { class: 'info-main' },
      h('div', { class: 'info-name', text: `${card.label || d.label || ''} ${d.name || card.name || ''}` }),
      h('div', { class: 'info-kind' }, h('span', { class: `tw-kind-dot kind-${kind}` }), tx(`kind_${kind}`)),
      stats.length ? h('div', { class: 'info-stats' }, stats) : null,
      ...extra,
      h('p', { class: 'info-text', text: d.text || '' })),
  ];
}

function hiddenFacts(where, note) {
  return [
    h('div', { class: 'info-card' }, cardEl(null, { size: 'i' })),
    h('div', { class: 'info-main' },
      h('div', { class: 'info-name', text: tx('face_down') }),
      where ? h('div', { class: 'info-where muted', text: where }) : null,
      h('p', { class: 'info-text muted', text: note || tx('face_down_hidden') })),
  ];
}

function listFacts(title, cards, note) {
  const list = h('ol', { class: 'pile-list tw-list' }, cards.map((c, i) => {
    const li = h('li', { class: 'pile-item' }, h('span', { class: `tw-mini suit-${suitOf(c)}`, text: c.label }), ' ', h('span', { text: c.name }));
    return infoable(li, { type: 'tw', what: 'card', card: c, zone: 'list', index: i });
  }));
  return [h('div', { class: 'info-main wide' },
    h('div', { class: 'info-name', text: title }),
    h('div', { class: 'info-count', text: tx('n_cards', { n: cards.length }) }),
    note ? h('p', { class: 'info-sub' }, termify(note)) : null,
    cards.length ? list : null)];
}

/** Where a card lies now, as far as the view shows it ('' when it shows nowhere). */
function locate(v, slug) {
  for (const [seat, p] of v.players.entries()) {
    const whose = whoseOf(seat);
    const has = (cards) => !!cards && cards.some((c) => c && c.slug === slug);
    if (has(p.hand.cards)) return tx('where_hand', { whose });
    if (p.pool && has(p.pool.cards)) return tx('where_pool', { whose });
    if (has(p.aside.cards)) return tx('where_aside', { whose });
    if (has(p.surge)) return tx('where_surge', { whose });
    if (has(p.storage)) return tx('where_storage', { whose });
    for (const [i, c] of p.charge.entries()) if (c && c.slug === slug) return tx('where_charge', { whose, n: i + 1 });
    for (const [i, c] of p.vitals.entries()) if (c && c.slug === slug) return tx('where_vital', { whose, n: i + 1 });
    for (const [i, st] of p.battle.entries()) {
      if (st && ((st.unit && st.unit.slug === slug) || has(st.frames) || has(st.weapons))) return tx('where_battle', { whose, n: i + 1 });
    }
  }
  return '';
}

/** CARD INFORMATION for a place or card of the TWGP board, read again from the current view. */
function renderInfo(v, info) {
  if (info.type !== 'tw') return null;
  const p = v.players[info.seat] || v.players[0];
  const whose = whoseOf(info.seat);
  switch (info.what) {
    case 'stack': {
      const st = p.battle[info.n - 1];
      const where = tx('where_battle', { whose, n: info.n });
      if (!st) return [h('div', { class: 'info-main wide' }, h('div', { class: 'info-name', text: tx('empty_sq') }), h('div', { class: 'info-where muted', text: where }))];
      const extra = [
        h('div', { class: 'info-where muted', text: where }),
        h('div', { class: 'tw-info-pose' }, h('span', { class: `tw-tag pose pose-${st.pose}`, text: tx(`pose_${st.pose}`) }), ' ', ...termify(tx(`posed_${st.pose}`)),
          st.gb_turn != null ? ` · ${tx('gb_turn', { n: st.gb_turn })}` : ''),
      ];
      if (st.role) extra.push(h('div', { class: `tw-info-role ${st.role}`, text: tx(`role_${st.role}`) }));
      if (st.pow != null) {
        extra.push(h('div', { class: 'info-stats' },
          h('span', { class: 'stat' }, term('pow', tx('pow')), ' ', h('b', { text: st.pow })),
          h('span', { class: 'stat muted', text: `= ${two(st.base)} + ${st.weapons.length}` })));
      }
      extra.push(h('div', { class: 'tw-info-list' }, `${tx('weapons')}${tx('colon')}`, st.weapons.length ? st.weapons.map((w) => h('span', { class: `tw-mini suit-${suitOf(w)}`, text: w.label })) : tx('none')));
      extra.push(h('div', { class: 'tw-info-list' }, `${tx('frames')}${tx('colon')}`, st.frames.length ? st.frames.map((f) => h('span', { class: `tw-mini suit-${suitOf(f)}`, text: f.label })) : tx('none')));
      if (!st.unit) {
        const [face, main] = hiddenFacts(where);
        main.append(...extra.slice(1));
        return [face, main];
      }
      if (st.face === 'down') extra.push(h('div', { class: 'info-where peek-note', text: info.seat === me() && !isSpectator() ? tx('your_secret') : tx('public_down') }));
      return cardFacts(st.unit, extra);
    }
    case 'vital': {
      const vital = p.vitals[info.n - 1];
      const where = tx('where_vital', { whose, n: info.n });
      if (!vital || vital.face === 'empty') return [h('div', { class: 'info-main wide' }, h('div', { class: 'info-name', text: tx('empty_sq') }), h('div', { class: 'info-where muted', text: where }))];
      const status = vital.face === 'down' ? 'hidden' : vital.status;
      const extra = [h('div', { class: 'info-where muted', text: where }), h('div', { class: 'tw-info-pose', text: tx(`vs_${status}`) })];
      if (!vital.slug) return hiddenFacts(where, `${tx('vs_hidden')} · ${tx('face_down_hidden')}`);
      if (vital.face === 'down') extra.push(h('div', { class: 'info-where peek-note', text: tx('your_secret') }));
      return cardFacts(vital, extra);
    }
    case 'charge': {
      const card = p.charge[info.n - 1];
      const where = tx('where_charge', { whose, n: info.n });
      if (!card) return [h('div', { class: 'info-main wide' }, h('div', { class: 'info-name', text: tx('empty_sq') }), h('div', { class: 'info-where muted', text: where }))];
      if (!card.slug) return hiddenFacts(where);
      return cardFacts(card, [h('div', { class: 'info-where muted', text: where }), h('div', { class: 'info-where peek-note', text: tx('your_secret') })]);
    }
    case 'card': {
      const where = locate(v, info.card.slug);
      return cardFacts(info.card, where ? [h('div', { class: 'info-where muted', text: where })] : []);
    }
    case 'surge': return listFacts(tx('where_surge', { whose }), p.surge, tx('surge_note'));
    case 'storage': return listFacts(tx('where_storage', { whose }), p.storage, tx('storage_note'));
    case 'pile': return [h('div', { class: 'info-main wide' },
      h('div', { class: 'info-name', text: tx('where_pile', { whose }) }),
      h('div', { class: 'info-count', text: tx('n_cards', { n: p.pile }) }),
      h('p', { class: 'info-sub', text: tx('pile_hidden') }))];
    case 'hand':
      if (p.hand.cards) return listFacts(tx('where_hand', { whose }), p.hand.cards);
      return [h('div', { class: 'info-main wide' }, h('div', { class: 'info-name', text: tx('where_hand', { whose }) }),
        h('div', { class: 'info-count', text: tx('n_cards', { n: p.hand.count }) }), h('p', { class: 'info-sub', text: tx('hand_hidden') }))];
    case 'aside':
      if (p.aside.cards) return listFacts(tx('where_aside', { whose }), p.aside.cards, tx('aside_note'));
      return [h('div', { class: 'info-main wide' }, h('div', { class: 'info-name', text: tx('where_aside', { whose }) }),
        h('div', { class: 'info-count', text: tx('n_cards', { n: p.aside.count }) }), h('p', { class: 'info-sub', text: tx('aside_note') }))];
    default: return [];
  }
}

/* ================================================================== the end of a game */

/** Play a fight that just resolved, then show the end of the game once, when the live view
 *  first has an outcome (after the playback: the last fight is seen first). */
function detectEnd(prev, v) {
  if (S.replay || !v.history.live) {
    finishPlayback();
    return;
  }
  maybePlay(prev, v);
  if (!v.outcome) return;
  const sameGame = prev && prev.session.id === v.session.id && prev.history.live;
  if ((!sameGame || !prev.outcome) && S.dismissedMatch !== v.session.id) {
    afterPlayback(() => { if (S.dismissedMatch !== v.session.id) showGameOver(v); });
  }
}

function showGameOver(v) {
  if (!v || !v.outcome) return;
  const draw = v.outcome.winner == null || v.outcome.winner < 0;
  // The deciding exchange (or, for a draw, why nobody won).
  const ends = v.log.filter((e) => e.kind === (draw ? 'game_over' : 'result'));
  showOutcomeDialog(v, {
    cls: 'tw-over',
    kicker: `${tx('title')} · ${tx('over')}`,
    title: outcomeTitle(v),
    line: ends.length ? ends[ends.length - 1].text : '',
    score: `${reasonText(v.outcome.reason)} · ${tx('turns_n', { n: v.turn })}`,
    words: { again: tx('again'), to_start: tx('to_start'), see_board: tx('see_board') },
  });
}

/* ================================================================== start screen */

/** The TWGP part of the start screen: the quick-start switch, the build of each seat (in the
 *  game, or a saved build) and the other rule switches. */
function renderStartOptions(box, ctx) {
  const defaults = ctx.meta.default_config || {};
  const c = cat();
  const keep = {};
  for (const input of $$('input, select', box)) keep[input.name] = input.type === 'checkbox' ? input.checked : input.value;
  const value = (key) => (key in keep ? keep[key] : defaults[key]);
  const switches = c ? Object.values(c.switches) : [];
  const other = switches.filter((s) => s.key !== 'quickStart' && s.key !== 'gridWidth');
  const width = c && c.switches.gridWidth;
  put(box,
    h('label', { class: 'choice tw-quick' },
      h('input', { type: 'checkbox', name: 'quickStart', id: 'tw-quick', checked: !!value('quickStart') }),
      h('span', { text: tx('quick_start') })),
    h('p', { class: 'hint', text: tx('quick_start_hint') }),
    buildSelects(box, ctx, keep, () => renderStartOptions(box, ctx)),
    h('details', { class: 'tw-switches' },
      h('summary', { text: tx('switches') }),
      width ? h('label', { class: 'tw-switch' }, h('span', { text: `${width.name} — ${width.text}` }),
        h('select', { name: 'gridWidth', id: 'tw-width' },
          [5, 3].map((n) => h('option', { value: String(n), text: String(n), selected: String(value('gridWidth')) === String(n) })))) : null,
      other.map((s) => h('label', { class: 'tw-switch check' },
        h('input', { type: 'checkbox', name: s.key, checked: !!value(s.key) }),
        h('span', { text: `${s.name} — ${s.text}` })))));
  if (!box.dataset.builds) {
    box.dataset.builds = '1';
    box.addEventListener('change', () => refreshBuildSelects(box));
  }
  refreshBuildSelects(box);
}

/** The config the TWGP options of the start screen ask for (only switches that differ). */
function startConfig(box, ctx) {
  const defaults = ctx.meta.default_config || {};
  const config = {};
  for (const input of $$('input, select', box)) {
    if (input.dataset.build) continue;
    const v = input.type === 'checkbox' ? input.checked : Number(input.value);
    if (defaults[input.name] !== v) config[input.name] = v;
  }
  const builds = buildRefs(box);
  if (builds) config.builds = builds;
  return { config };
}

/* ================================================================== entry point */

/** Draw a TWGP view: board, top bar, results, operation panel and the glowing places. */
function render(v) {
  if (!cat()) ensureCatalog(S.settings.lang).catch(() => {});
  const key = focusKey(v);
  if (key !== T.focusKey) {
    T.focusKey = key;
    T.focus = [];
    T.hover = null;
  }
  const frame = S.replay ? null : currentFrame();
  const shown = frame && frame.shown ? frame.shown : v;
  renderTopInfo(shown);
  renderBoard(shown, frame);
  renderResults(v);
  if (S.replay) T.opsSig = '';
  else if (frame) renderPlaybackOps();
  else renderOps(v);
  if (frame) {
    markSelectable(shown);
    markTouched(frame);
  } else {
    markSelectable(v);
    applyHover();
  }
}

/** Forget what was drawn (a new game, a language switch). */
function reset() {
  T.opsSig = '';
  T.focus = [];
  T.hover = null;
  T.prevSigs = new Map();
}

/* ================================================================== the module */

/** A click on the table: a glowing or picked place of the TWGP board narrows the choices. */
function boardClick(ev) {
  const place = ev.target.closest('#tw-board [data-ref]');
  if (place && (place.classList.contains('tw-sel') || place.classList.contains('tw-focused'))) onBoardClick(place, ev.pointerType === 'touch');
}

function replayTurnLabel(x) {
  if (x.turn === 0) return tw('setup_label');
  return `${tx('turn', { n: x.turn })}${x.player == null ? '' : ` · P${x.player + 1}`}`;
}

export const game = {
  id: 'twgp',
  t: tw,
  brand: 'TWGP',
  get logoSub() { return tw('logo_sub'); },
  get title() { return `${tw('title')} — Kessen`; },
  optionsBox: 'twgp-options',
  boardClass: 'rs-twgp',
  ensureCatalog,
  renderStartOptions,
  startConfig,
  render,
  renderInfo,
  actionText: (text) => actionText(text),
  promptName,
  detectEnd,
  onBoardClick: boardClick,
  onEscape: () => {
    if (currentFrame()) { finishPlayback(); return true; }
    return clearFocus();
  },
  reset,
  replayTurnLabel,
  continueConfig: (match, seat, res) => ({ ruleset: 'twgp', mode: 'vs_com', com: res.com }),
  deckBuilder,
};
