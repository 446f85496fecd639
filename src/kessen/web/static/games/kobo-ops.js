// Kōbō (攻防) operation panel: the prompt, its choices as buttons, the pass confirmation, the
// board places each choice names (they glow and can be clicked), and short action texts.

import { bannerInfo, cardDef, cardName, catalogOf, splitAction, termed } from './kobo-board.js';
import { showMatchOver } from './kobo-info.js';
import { t } from './kobo-strings.js';
import {
  armedSlug, flipPanel, markSurprise, surpriseActionText, surpriseCard, surpriseLabel, surpriseRefs, turnNotes, waitingNote,
} from './kobo-surprise.js';
import { act, choose } from '../shell/connection.js';
import { finish, P } from './kobo-fight.js';
import { $, $$, h, put } from '../shell/dom.js';
import { renderEndedOps } from '../shell/ending.js';
import { term } from '../shell/glossary.js';
import { showInfo } from '../shell/info.js';
import { isMyPrompt, online, seatName } from '../shell/seats.js';
import { S, scheduleRender } from '../shell/state.js';

/** A short text for an action taken (by anyone, at any time): no view needed. */
export function actionText(text, prompt) {
  if (!text) return '';
  const [verb, arg] = splitAction(text);
  if (arg === '…') return t('act_secret');
  const n = Number(arg);
  const name = arg ? cardName(arg) : '';
  switch (verb) {
    case 'pass': return t('act_pass');
    case 'attack': return t('act_attack', { n });
    case 'target': return t('act_target', { n });
    case 'trap': return t('act_trap', { n });
    case 'play': return t('act_play', { name });
    case 'slot':
      if (prompt === 'place') return t('a_place', { n });
      if (prompt === 'set') return t('a_set', { n });
      return t('act_slot', { n });
    case 'pick': return Number.isInteger(n) && arg !== '' ? t('act_pick_n', { n }) : t('act_pick', { name });
    case 'take': return t('act_take', { name });
    case 'name': return t('act_name', { name });
    case 'use': return t('act_use');
    case 'discard': return t('act_discard');
    case 'exclude': return t('act_exclude', { name });
    case 'exclude-trap': return t('act_exclude_trap', { n });
    default: return surpriseActionText(verb, arg) ?? text;
  }
}

/* ---------------------------------------------------------------- operation panel */

function targetSeatFor(v, cardSlug) {
  const p = v.pending;
  const mine = p.seat;
  if (p.context && typeof p.context.side === 'number') return p.context.side;
  // The view does not (yet) say which side a `slot N` answer refers to: the card's generated
  // text names it. This only maps answers to board positions; the legal list stays the server's.
  const ja = catalogOf('ja');
  const text = (ja && ja.cards[cardSlug] && ja.cards[cardSlug].text) || '';
  const attacker = v.attack ? v.attack.seat : mine;
  let seat = mine;
  if (text.includes('防御側のキャラ')) seat = 1 - attacker;
  else if (text.includes('攻撃側のキャラ')) seat = attacker;
  else if (text.includes('相手のキャラ')) seat = 1 - mine;
  const slots = (p.legal || []).filter((a) => a.startsWith('slot ')).map((a) => Number(a.slice(5)));
  const holds = (s) => slots.every((n) => v.players[s].battle[n - 1]);
  if (!holds(seat) && holds(1 - seat)) seat = 1 - seat;
  return seat;
}

/** Board elements an action refers to, as CSS selectors. */
function refsOf(action, v) {
  const p = v.pending;
  const mine = p.seat;
  const opp = 1 - mine;
  const [verb, arg] = splitAction(action);
  const n = Number(arg);
  const surprise = surpriseRefs(action, v);
  if (surprise) return surprise;
  const battle = (seat, slot) => `[data-zone="battle"][data-seat="${seat}"][data-slot="${slot}"]`;
  const strat = (seat, slot) => `[data-zone="strategy"][data-seat="${seat}"][data-slot="${slot}"]`;
  const handCard = (seat, zone, slug) => `.hand-card[data-zone="${zone}"][data-seat="${seat}"][data-slug="${CSS.escape(slug)}"]`;
  switch (verb) {
    case 'pick':
      if (p.prompt === 'blind') return [`[data-zone="reveal"][data-seat="${opp}"][data-index="${n}"]`];
      return [handCard(mine, 'hand', arg)];
    case 'slot':
      if (p.prompt === 'place') return [battle(mine, n)];
      if (p.prompt === 'set') return [strat(mine, n)];
      if (p.prompt === 'tie') return [battle(v.attack ? v.attack.seat : opp, n)];
      if (p.prompt === 'deploy_target' || p.prompt === 'target') {
        const slug = p.context && p.context.card ? p.context.card.slug : '';
        return [battle(targetSeatFor(v, slug), n)];
      }
      return [];
    case 'attack':
      return [battle(mine, n)];
    case 'target':
      return [battle(opp, n)];
    case 'play':
    case 'exclude':
      return [handCard(mine, 'thand', arg)];
    case 'trap':
    case 'exclude-trap':
      return [strat(mine, n)];
    default:
      return [];
  }
}

/** The card (view card or catalog slug) an action is about, for labels and 本文. */
function cardOf(action, v) {
  const p = v.pending;
  const mine = p.seat;
  const [verb, arg] = splitAction(action);
  const n = Number(arg);
  const battleCard = (seat, slot) => v.players[seat] && v.players[seat].battle[slot - 1];
  const surprise = surpriseCard(action, v);
  if (surprise !== undefined) return surprise;
  switch (verb) {
    case 'pick':
      if (p.prompt === 'blind') return null;
      return { slug: arg };
    case 'name': case 'take': case 'play': case 'exclude':
      return { slug: arg };
    case 'attack':
      return battleCard(mine, n);
    case 'target':
      return battleCard(1 - mine, n);
    case 'trap': case 'exclude-trap':
      return v.players[mine].strategy[n - 1];
    case 'slot':
      if (p.prompt === 'tie') return battleCard(v.attack ? v.attack.seat : 1 - mine, n);
      if (p.prompt === 'deploy_target' || p.prompt === 'target') {
        const slug = p.context && p.context.card ? p.context.card.slug : '';
        return battleCard(targetSeatFor(v, slug), n);
      }
      return null;
    default:
      return null;
  }
}

/** The copies of each card left in the choosing seat's tactics deck ({slug: n}): its deck list
 *  less the copies it can see elsewhere (its tactics hand first); null when that does not add
 *  up to the deck's count (the view then says too little to be sure). */
export function tacticsLeft(v) {
  const p = v.pending;
  const mine = p && v.players[p.seat];
  const list = mine && mine.deck && mine.deck.tactics;
  if (!list || typeof mine.tactics_deck !== 'number') return null;
  const cards = (x) => (Array.isArray(x) ? x : (x && x.cards) || []).filter((c) => c && c.slug);
  const tries = [
    cards(mine.tactics_hand),
    [mine.tactics_hand, mine.strategy, mine.retreat, mine.excluded, mine.surprise].flatMap(cards),
  ];
  for (const seen of tries) {
    const left = { ...list };
    for (const c of seen) if (left[c.slug] != null) left[c.slug] -= 1;
    const total = Object.values(left).reduce((a, n) => a + n, 0);
    if (total === mine.tactics_deck && Object.values(left).every((n) => n >= 0)) return left;
  }
  return null;
}

function actionLabel(action, v) {
  const p = v.pending;
  const [verb, arg] = splitAction(action);
  const n = Number(arg);
  const c = cardOf(action, v);
  const name = c ? (c.name || cardName(c.slug)) : '';
  const lv = c && c.lv != null ? c.lv : '';
  switch (verb) {
    case 'pick': return p.prompt === 'blind' ? t('a_blind', { n }) : t('a_pick', { name });
    case 'slot':
      if (p.prompt === 'place') return t('a_place', { n });
      if (p.prompt === 'set') return t('a_set', { n });
      if (p.prompt === 'tie') return t('a_tie', { n, name });
      if (p.prompt === 'deploy_target' || p.prompt === 'target') {
        const slug = p.context && p.context.card ? p.context.card.slug : '';
        const seat = targetSeatFor(v, slug);
        return t('a_choose', { side: seat === p.seat ? t('side_own') : t('side_opp'), n, name, lv });
      }
      return action;
    case 'discard': return t('a_discard');
    case 'use': return t('a_use');
    case 'name': return t('a_name', { name });
    case 'take': return t('a_take', { name });
    case 'attack': return p.prompt === 'declare' ? t('a_add', { n, name, lv }) : t('a_attack_with', { n, name, lv });
    case 'target': return t('a_target', { n, name, lv });
    case 'pass': return p.prompt === 'turn' ? t('a_pass_turn') : t('a_pass_chain');
    case 'play': return t('a_play', { name });
    case 'trap': return t('a_trap', { name, n });
    case 'exclude': return t('a_exclude', { name });
    case 'exclude-trap': return t('a_exclude_trap', { name, n });
    default: return surpriseLabel(action, v) ?? action;
  }
}

function promptText(v) {
  const p = v.pending;
  const ctx = p.context || {};
  const card = ctx.card ? (ctx.card.name || cardName(ctx.card.slug)) : '';
  const mineP = v.players[p.seat];
  switch (p.prompt) {
    case 'standby': return t('pr_standby', { n: mineP.hand.count });
    case 'nominate': return t('pr_nominate', { n: (ctx.named ? ctx.named.length : 0) + 1 });
    case 'tactics': return t('pr_tactics', { n: ctx.left ?? '' });
    case 'penalty': return t('pr_penalty', { n: ctx.left ?? '' });
    default: {
      const key = `pr_${p.prompt}`;
      return t.has(key) ? t(key, { card }) : t('pr_unknown');
    }
  }
}

function opsSignature(v) {
  const p = v.pending;
  return JSON.stringify([
    S.settings.lang, v.lang, v.session.id, p && p.prompt_id, p && p.seat, p && p.legal, p && p.context,
    S.awaiting, S.confirm, v.match.over, v.history.live, v.session.you, online(), v.session.ended,
    p && p.prompt === 'declare' ? v.players.map((x) => x.battle.map((c) => c && c.lv)) : null,
    armedSlug(v),
  ]);
}

export function renderOps(v) {
  const sig = opsSignature(v);
  if (sig === S.opsSig) return;
  S.opsSig = sig;
  const body = $('#ops-body');
  const p = v.pending;
  const kids = [];
  if (v.match.over) {
    kids.push(h('div', { class: 'ops-prompt' }, h('div', { class: 'ops-title', text: t('match_over') }), h('p', { text: t('match_over_ops') })));
    kids.push(h('div', { class: 'ops-actions' },
      h('button', { type: 'button', class: 'act-secondary', text: t('show_result'), onclick: () => { S.dismissedMatch = null; showMatchOver(); } })));
    put(body, ...kids);
    return;
  }
  if (renderEndedOps(body, v)) return;
  if (!p) {
    put(body, h('p', { class: 'muted', text: t('no_action') }));
    return;
  }
  if (!isMyPrompt(v)) {
    const b = bannerInfo(v);
    kids.push(h('div', { class: 'ops-prompt waiting' },
      h('div', { class: 'ops-title' }, v.history.live ? h('span', { class: 'spinner' }) : null, b.text),
      h('p', { class: 'muted', text: `${seatName(p.seat)} · ${t(`pt_${p.prompt}`)}` }),
      waitingNote(v)));
    if (p.context && p.context.card) kids.push(textBox(p.context.card));
    put(body, ...kids);
    return;
  }

  const ctx = p.context || {};
  const prompt = p.prompt === 'surprise' ? flipPanel(v) : h('div', { class: 'ops-prompt' },
    h('div', { class: 'ops-title' }, promptTitle(p.prompt)),
    h('p', { class: 'ops-expl', text: promptText(v) }),
    turnNotes(v));
  if (p.prompt === 'declare') {
    const list = (ctx.attackers || []).map((n) => {
      const c = v.players[p.seat].battle[n - 1];
      return c ? t('slot_named', { n, name: c.name }) : `${n}`;
    }).join(t('list_sep'));
    prompt.append(h('p', { class: 'ops-note', text: t('chosen_attackers', { list, total: ctx.total ?? 0 }) }));
    prompt.append(h('p', { class: 'ops-note muted' }, termed('attack_cap', t('cap_note'), t('cap_word'))));
  }
  if (ctx.warning && ctx.warning.text) {
    prompt.append(h('p', { class: 'ops-warning warn', role: 'note', dataset: { code: ctx.warning.code }, text: ctx.warning.text }));
  }
  if (p.prompt === 'nominate' && ctx.named && ctx.named.length) {
    prompt.append(h('p', { class: 'ops-note', text: t('named', { list: ctx.named.map(cardName).join('・') }) }));
  }
  kids.push(prompt);

  if (S.confirm && S.confirm.promptId === p.prompt_id) {
    const pen = ctx.pass_penalty ?? 0;
    kids.push(h('div', { class: 'confirm', role: 'alertdialog' },
      h('div', { class: 'confirm-title', text: t('confirm_pass_title') }),
      h('p', { text: t('confirm_pass_body', { n: pen + 1 }) }),
      h('p', { class: pen > 0 ? 'warn' : 'muted', text: pen > 0 ? t('confirm_pass_pen', { k: pen }) : t('confirm_pass_free') }),
      h('div', { class: 'confirm-buttons' },
        h('button', { type: 'button', class: 'confirm-yes danger', text: t('confirm_yes'), onclick: () => { const a = S.confirm.action; S.confirm = null; act(a); } }),
        h('button', { type: 'button', class: 'confirm-no', text: t('confirm_no'), onclick: () => { S.confirm = null; S.opsSig = ''; scheduleRender(); } }))));
  } else {
    const actions = h('div', { class: 'ops-actions' });
    // Picking the tactics hand: each card once, with the copies the tactics deck still holds.
    const left = p.legal.some((a) => a.startsWith('take ')) ? tacticsLeft(v) : null;
    // While a choice is being sent (or the connection is lost) the options wait, and say why.
    const waiting = S.awaiting != null || !online();
    const why = waiting ? t(online() ? 'why_sending' : 'why_offline') : null;
    for (const a of p.legal) {
      const c = cardOf(a, v);
      const kind = c ? (c.kind || (cardDef(c.slug) || {}).kind) : null;
      const [verb] = splitAction(a);
      const copies = verb === 'take' && left ? left[splitAction(a)[1]] : null;
      const btn = h('button', {
        type: 'button',
        class: `act verb-${verb}${kind ? ` kind-${kind}` : ''}`,
        dataset: why ? { action: a, why } : { action: a },
        disabled: waiting,
        'aria-description': why,
        title: cardTip(c),
        onclick: () => choose(a),
        onmouseenter: () => setHover(a),
        onmouseleave: () => setHover(null),
        onfocus: () => setHover(a),
        onblur: () => setHover(null),
      },
      kind ? h('span', { class: `kind-dot kind-${kind}` }) : null,
      h('span', { class: 'act-label', text: actionLabel(a, v) }),
      copies != null ? h('span', { class: 'act-count', dataset: { copies }, title: t('copies_left_long', { n: copies }), text: t('copies_left', { n: copies }) }) : null);
      actions.append(btn);
    }
    kids.push(actions);
  }
  const focus = defaultFocus(v);
  kids.push(h('div', { class: 'ops-text', id: 'ops-text' }, focus ? textInner(focus) : null));
  put(body, ...kids);
}

/** The prompt's name, its jargon marked as a glossary term. */
function promptTitle(prompt) {
  const text = t(`pt_${prompt}`);
  switch (prompt) {
    case 'chain': return term('chain', text);
    case 'declare': return term('declare', text);
    case 'penalty': return term('pass_penalty', text);
    case 'standby': return term('standby', text);
    case 'tactics': return termed('tactics_hand', text, t('thand'));
    case 'tie': return termed('attack_result', text, t('result_word'));
    default: return text;
  }
}

/** The card in question when no option is under the pointer: the prompt's card, or in a
 * chain the last activated card (the one being answered). */
function defaultFocus(v) {
  const p = v.pending;
  if (p && p.context && p.context.card) return p.context.card;
  if (p && p.prompt === 'chain' && v.chain.length) return v.chain[v.chain.length - 1];
  return null;
}

function textInner(card) {
  const d = cardDef(card.slug);
  if (!d) return [];
  return [
    h('div', { class: 'ops-text-title' }, t('text_title'), h('strong', { text: d.name })),
    h('div', { class: 'ops-text-body', text: d.text }),
  ];
}

function textBox(card) {
  return h('div', { class: 'ops-text' }, textInner(card));
}

/** A button's tooltip: the card's name and words (never the action text sent). */
function cardTip(c) {
  const d = c && c.slug ? cardDef(c.slug) : null;
  return d ? `${d.name} — ${d.text}` : null;
}

/** The panel while a closed chain plays back: what it is, and a button to skip it. */
export function renderPlaybackOps() {
  const sig = `playback|${S.settings.lang}`;
  if (S.opsSig === sig) return;
  S.opsSig = sig;
  put($('#ops-body'),
    h('div', { class: 'ops-prompt waiting' },
      h('div', { class: 'ops-title' }, h('span', { class: 'spinner' }), t('fx_banner')),
      h('p', { class: 'muted', text: t('fx_ops') })),
    h('div', { class: 'ops-actions' },
      h('button', { type: 'button', class: 'act-secondary kb-skip-ops', text: t('fx_skip'), onclick: () => { if (P.run) finish(); } })));
}

export function setHover(action) {
  S.hover = action;
  applyHover();
  const v = S.view;
  const box = $('#ops-text');
  if (!v || !v.pending || !box) return;
  const c = action ? cardOf(action, v) : null;
  if (c && c.slug) showInfo({ type: 'card', card: c, seat: v.pending.seat, zone: 'choice', why: null });
  const focus = c && c.slug ? c : defaultFocus(v);
  put(box, ...(focus ? textInner(focus) : []));
}

export function applyHover() {
  for (const e of $$('.hint')) e.classList.remove('hint');
  const v = S.view;
  if (!S.hover || !v || !v.pending || !isMyPrompt(v)) return;
  for (const sel of refsOf(S.hover, v)) for (const e of $$(sel, $('#game'))) e.classList.add('hint');
}

export function markSelectable(v) {
  for (const e of $$('.selectable')) {
    e.classList.remove('selectable');
    delete e.dataset.act;
  }
  if (!isMyPrompt(v) || S.awaiting != null || !online()) {
    markSurprise(v);
    return;
  }
  for (const a of v.pending.legal) {
    if (a.startsWith('surprise-set ')) continue; // a tactics-hand card, then the zone (markSurprise)
    for (const sel of refsOf(a, v)) {
      for (const e of $$(sel, $('#game'))) {
        e.classList.add('selectable');
        e.dataset.act = a;
      }
    }
  }
  markSurprise(v);
}

