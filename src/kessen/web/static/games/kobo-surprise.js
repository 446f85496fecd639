// Kōbō (攻防) surprise zone (サプライズ置場, the optional rule of rules §17): the start screen's
// checkbox (and the decks that need the option), each side's zone on the board, Set by
// choosing a tactics-hand card then the zone, the flip prompt's panel, and the texts of the
// option's actions.
//
// Like the rest of the board it decides nothing: what glows and what the buttons send are
// the view's legal actions (`surprise-set <slug>`, `surprise-clear`, `flip`, `decline`). An
// opponent's face-down card comes without a name in the view, so only a card back is drawn.

import { cardEl, cardName, cat, splitAction } from './kobo-board.js';
import { t } from './kobo-strings.js';
import { $, $$, h } from '../shell/dom.js';
import { infoable } from '../shell/info.js';
import { isMyPrompt, me, online } from '../shell/seats.js';
import { S, scheduleRender } from '../shell/state.js';

/** The surprise state of the page: the tactics-hand card chosen for Set (with the prompt it
 *  was chosen at), whether the zone takes the focus next (a choice made from the keyboard)
 *  and the deck each picker had chosen among the option's decks. */
export const SZ = { armed: null, chosen: [null, null], focusZone: false };

/** Whether the view's game plays with the option (the view then has the zones). */
export function surpriseOn(v) {
  return !!(v && v.players && Array.isArray(v.players[0].surprise));
}

/** The slug chosen for Set at the prompt on screen, or null. */
export function armedSlug(v) {
  const a = SZ.armed;
  const p = v && v.pending;
  if (!a || !p || a.promptId !== p.prompt_id) return null;
  return p.legal.includes(`surprise-set ${a.slug}`) ? a.slug : null;
}

/** CSS selector of a seat's zone slot. */
export function zoneSel(seat) {
  return `.kb-sz-slot[data-zone="surprise"][data-seat="${seat}"]`;
}

/* ---------------------------------------------------------------- the board */

/** A seat's surprise zone (its newest card, a count when effects left more), labelled, with a
 *  marker when the seat did Set or Clear this turn; null when the option is off. */
export function renderSurpriseZone(v, seat) {
  const p = v.players[seat];
  if (!Array.isArray(p.surprise)) return null;
  const cards = p.surprise;
  const c = cards.length ? cards[cards.length - 1] : null;
  const mine = seat === me();
  const slot = h('div', { class: 'slot kb-sz-slot', dataset: { zone: 'surprise', seat } });
  if (c) {
    const up = c.face === 'up';
    slot.classList.add('filled', up ? 'face-up' : 'face-down');
    // The opponent's face-down card has no slug in the view: cardEl draws a bare back.
    slot.append(cardEl(c, { size: 's', peek: !up && !!c.slug }));
    if (up) slot.append(h('span', { class: 'kb-sz-bang', text: t('sz_mark') }));
    if (cards.length > 1) slot.append(h('span', { class: 'kb-sz-count', text: `×${cards.length}` }));
    // CARD INFORMATION reads your face-down card like any card (its face-down note speaks of
    // traps); the opponent's stays a back there too.
    const read = c.slug ? { slug: c.slug, name: c.name, kind: c.kind } : c;
    infoable(slot, { type: 'card', card: read, seat, zone: 'surprise' });
  } else {
    slot.append(h('span', { class: 'kb-sz-empty', text: t('sz_empty') }));
  }
  const used = !!p.surprise_used;
  const title = h('div', { class: 'kb-sz-title' },
    h('span', { class: 'kb-sz-label', text: t('sz_zone') }),
    used ? h('span', { class: 'kb-sz-used', title: t('sz_used_tip') }, h('span', { 'aria-hidden': 'true', text: t('sz_used') }), h('span', { class: 'sr-only', text: t('sz_used_tip') })) : null);
  const state = !c ? 'empty' : c.face === 'up' ? 'up' : 'down';
  return h('div', { class: `kb-sz ${mine ? 'mine' : 'theirs'}${used ? ' used' : ''}`, dataset: { seat, state } }, title, slot);
}

/** After the glowing places are marked: at the turn prompt, the tactics-hand cards that may
 *  be set are choosable (`pickable`), and once one is chosen the zone glows and sends its
 *  `surprise-set`; with nothing chosen the empty zone only hints that it takes a card. */
export function markSurprise(v) {
  for (const e of $$('.kb-sz-pick')) {
    e.classList.remove('kb-sz-pick', 'pickable', 'armed');
    e.removeAttribute('aria-pressed');
  }
  for (const e of $$('.kb-sz-target')) e.classList.remove('kb-sz-target');
  if (!surpriseOn(v) || !isMyPrompt(v) || S.awaiting != null || !online()) return;
  const p = v.pending;
  const sets = p.legal.filter((a) => a.startsWith('surprise-set '));
  if (!sets.length) return;
  const armed = armedSlug(v);
  for (const a of sets) {
    const slug = splitAction(a)[1];
    for (const e of $$(`.hand-card[data-zone="thand"][data-seat="${p.seat}"][data-slug="${CSS.escape(slug)}"]`, $('#game'))) {
      e.classList.add('kb-sz-pick', 'pickable');
      e.setAttribute('aria-pressed', String(slug === armed));
      if (slug === armed) e.classList.add('armed');
    }
  }
  const zone = $(zoneSel(p.seat), $('#game'));
  if (!zone) return;
  if (armed) {
    zone.classList.add('selectable');
    zone.dataset.act = `surprise-set ${armed}`;
    if (SZ.focusZone) { // chosen from the keyboard: the zone is the next place to press
      zone.tabIndex = 0;
      zone.focus();
    }
  } else zone.classList.add('kb-sz-target');
  SZ.focusZone = false;
}

/** A click on the board the shell did not send: choosing (or un-choosing) a tactics-hand card
 *  for Set. */
export function onSurpriseClick(ev) {
  const pick = ev.target.closest('.kb-sz-pick');
  const v = S.view;
  if (!pick || !v || !v.pending) return;
  const slug = pick.dataset.slug;
  SZ.armed = armedSlug(v) === slug ? null : { slug, promptId: v.pending.prompt_id };
  SZ.focusZone = document.body.classList.contains('kb');
  S.opsSig = '';
  scheduleRender();
}

/* ---------------------------------------------------------------- actions */

/** The board places of a surprise action (for the green hint under the pointer). */
export function surpriseRefs(action, v) {
  const p = v.pending;
  const [verb, arg] = splitAction(action);
  switch (verb) {
    case 'surprise-set':
      return [`.hand-card[data-zone="thand"][data-seat="${p.seat}"][data-slug="${CSS.escape(arg)}"]`, zoneSel(p.seat)];
    case 'surprise-clear':
    case 'flip':
      return [zoneSel(p.seat)];
    default:
      return null;
  }
}

/** The card a surprise action is about (its name on the button, its words in 本文). */
export function surpriseCard(action, v) {
  const p = v.pending;
  const [verb, arg] = splitAction(action);
  if (verb === 'surprise-set') return { slug: arg };
  if (verb === 'surprise-clear' || verb === 'flip') {
    const cards = v.players[p.seat].surprise || [];
    return cards.length ? cards[cards.length - 1] : null;
  }
  return undefined;
}

/** The operation panel's label of a surprise action (undefined for another verb). */
export function surpriseLabel(action, v) {
  const [verb, arg] = splitAction(action);
  switch (verb) {
    case 'surprise-set': return t('a_sz_set', { name: cardName(arg) });
    case 'surprise-clear': {
      const c = surpriseCard(action, v);
      return t('a_sz_clear', { name: c && c.slug ? cardName(c.slug) : t('face_down') });
    }
    case 'flip': return t('a_flip');
    case 'decline': return t('a_decline');
    default: return undefined;
  }
}

/** A short text of a surprise action taken (undefined for another verb); a COM's Set reaches
 *  the other seat as `surprise-set …` and reads as a hidden choice. */
export function surpriseActionText(verb, arg) {
  switch (verb) {
    case 'surprise-set': return t('act_sz_set', { name: cardName(arg) });
    case 'surprise-clear': return t('act_sz_clear');
    case 'flip': return t('act_flip');
    case 'decline': return t('act_decline');
    default: return undefined;
  }
}

/** Lines under the turn prompt: how to Set, or which card is chosen. */
export function turnNotes(v) {
  const p = v.pending;
  if (p.prompt !== 'turn' || !p.legal.some((a) => a.startsWith('surprise-'))) return [];
  const armed = armedSlug(v);
  if (armed) return [h('p', { class: 'ops-note kb-sz-note armed', text: t('sz_armed', { name: cardName(armed) }) })];
  const text = p.legal.some((a) => a.startsWith('surprise-set ')) ? t('sz_pick_hint') : t('sz_clear_hint');
  return [h('p', { class: 'ops-note kb-sz-note muted', text })];
}

/** The flip prompt's panel: the condition that came, your face-down card, whether it may be
 *  turned face up now (the buttons below it are the view's `flip` / `decline`). */
export function flipPanel(v) {
  const p = v.pending;
  const ctx = p.context || {};
  const card = ctx.card || null;
  const name = card ? (card.name || cardName(card.slug)) : '';
  const cardBox = card
    ? h('div', { class: 'kb-sz-flip-card' },
      cardEl({ ...card, face: 'down' }, { size: 's', peek: true }),
      h('div', { class: 'kb-sz-flip-text' },
        h('div', { class: 'kb-sz-flip-name', text: name }),
        h('div', { class: `kb-sz-match ${ctx.matches ? 'yes' : 'no'}`, text: t(ctx.matches ? 'sz_match' : 'sz_nomatch', { name }) })))
    : null;
  return h('div', { class: 'ops-prompt kb-sz-flip', role: 'group', 'aria-labelledby': 'kb-sz-flip-title' },
    h('div', { class: 'ops-title', id: 'kb-sz-flip-title', text: t('sz_flip_title') }),
    h('p', { class: 'kb-sz-cond' }, h('span', { class: 'kb-sz-cond-label', text: t('sz_condition') }), h('strong', { text: ctx.condition_text || '' })),
    cardBox);
}

/** What the waiting panel adds while another seat answers its flip prompt: the condition. */
export function waitingNote(v) {
  const p = v.pending;
  if (!p || p.prompt !== 'surprise' || !p.context || !p.context.condition_text) return null;
  return h('p', { class: 'ops-note kb-sz-note', text: t('sz_waiting', { text: p.context.condition_text }) });
}

/* ---------------------------------------------------------------- start screen */

/** The option's catalogue entry ({label, help, default}) in the page's language, or null. */
function option() {
  const opts = cat().options || {};
  return opts.surprise || null;
}

/** Whether the start screen's surprise checkbox is ticked. */
function ticked() {
  const box = $('#kb-surprise');
  return !!(box && box.checked);
}

/** The start screen's part of the option: the checkbox (label and help from the catalogue),
 *  and the decks that need it offered in both pickers only while it is ticked (a picker on one
 *  of them falls back to its default when it is unticked). Runs after the pickers are drawn. */
export function renderSurpriseOption(box, ctx) {
  const opt = option();
  let row = $('#kb-surprise-row', box);
  if (!opt) {
    if (row) row.hidden = true;
    return;
  }
  if (!row) {
    row = h('div', { class: 'kb-options', id: 'kb-surprise-row' },
      h('label', { class: 'choice kb-option' },
        h('input', { type: 'checkbox', id: 'kb-surprise', name: 'surprise', 'aria-describedby': 'kb-surprise-help', onchange: () => applyDecks(ctx) }),
        h('span', { id: 'kb-surprise-label' })),
      h('p', { class: 'hint kb-option-help', id: 'kb-surprise-help' }));
    box.append(row);
    $('#kb-surprise').checked = !!opt.default;
    // Remember the deck a picker chose (before Kōbō's own change handler draws them again).
    box.addEventListener('change', (ev) => {
      const side = ev.target.id === 'deck-0' ? 0 : ev.target.id === 'deck-1' ? 1 : null;
      if (side != null) SZ.chosen[side] = ev.target.value;
    }, true);
  }
  row.hidden = false;
  $('#kb-surprise-label').textContent = opt.label;
  $('#kb-surprise-help').textContent = opt.help;
  applyDecks(ctx);
}

function applyDecks(ctx) {
  const on = ticked();
  const needing = cat().option_decks || {};
  const extra = on ? Object.values(needing) : [];
  const defaults = (ctx && ctx.meta && ctx.meta.default_decks) || [];
  for (const side of [0, 1]) {
    const sel = $(`#deck-${side}`);
    if (!sel) continue;
    const was = sel.value;
    for (const o of $$('option[data-sz]', sel)) o.remove();
    for (const d of extra) sel.append(h('option', { value: d.slug, text: d.name, dataset: { sz: '1' } }));
    const wanted = SZ.chosen[side];
    if (on && wanted && needing[wanted]) sel.value = wanted;
    else if (!sel.value || (!on && needing[was])) sel.value = defaults[side] || (sel.options[0] ? sel.options[0].value : '');
    if (!on && wanted && needing[wanted]) SZ.chosen[side] = null;
    // The line under the picker: a deck of the catalogue's (a deck this module does not know,
    // such as a saved one, keeps the line its own code wrote).
    const deck = (cat().decks || {})[sel.value] || needing[sel.value];
    const style = $(`#deck-style-${side}`);
    if (style && deck) style.textContent = deck.style;
  }
}

/** The start config with the option added when it is ticked (`config.surprise = true`). */
export function withSurprise(cfg) {
  if (!ticked()) return cfg;
  return { ...cfg, config: { ...(cfg.config || {}), surprise: true } };
}
