// Kōbō (攻防) CARD INFORMATION (cards, piles), deck lists (start screen preview and the
// piles' public lists) and the end-of-game and end-of-match dialogs.

import { cardDef, cardEl, cat, KIND_ORDER, kindLabel, reasonText, resultText } from './kobo-board.js';
import { t } from './kobo-strings.js';
import { $, h, put } from '../shell/dom.js';
import { term } from '../shell/glossary.js';
import { infoable } from '../shell/info.js';
import { closeOverlay, openOverlay } from '../shell/overlay.js';
import { isSpectator, me, seatName, whoseOf } from '../shell/seats.js';
import { leaveGame, playAgain } from '../shell/session.js';
import { effectiveMotion } from '../shell/settings.js';
import { S } from '../shell/state.js';

function deckListEl(main, tactics, clickable) {
  const groups = new Map(KIND_ORDER.map((k) => [k, []]));
  const add = (slug, n) => {
    const d = cardDef(slug);
    const kind = d ? d.kind : 'character';
    groups.get(kind)?.push({ slug, n, d });
  };
  for (const [slug, n] of main) add(slug, n);
  for (const [slug, n] of tactics) add(slug, n);
  const out = h('div', { class: 'decklist' });
  for (const kind of KIND_ORDER) {
    const items = groups.get(kind);
    if (!items.length) continue;
    const total = items.reduce((a, b) => a + b.n, 0);
    const label = items[0].d ? items[0].d.kind_label : kind;
    out.append(
      h('div', { class: `dl-group kind-${kind}` },
        h('div', { class: 'dl-head' }, h('span', { class: `kind-dot kind-${kind}` }), `${label}`, h('span', { class: 'dl-total', text: `×${total}` })),
        h('ul', null, items.map((it) => {
          const li = h('li', { class: clickable ? 'dl-item infoable' : 'dl-item', title: it.d ? it.d.text : '' },
            h('span', { class: 'dl-n', text: `${it.n}` }),
            h('span', { class: 'dl-name', text: it.d ? it.d.name : it.slug }),
            it.d && it.d.kind === 'character' ? h('span', { class: 'dl-lv', text: `Lv${it.d.lv}` }) : null);
          if (clickable) S.infoMap.set(li, { type: 'card', card: { slug: it.slug, kind: it.d?.kind } });
          return li;
        }))));
  }
  return out;
}

/** A starter deck of the catalogue by slug: a regular one, or one that needs a match option
 *  (`option_decks`, e.g. 伏兵の計); undefined for any other value (a saved deck). */
export function starterDeck(slug) {
  const c = cat() || {};
  return (c.decks || {})[slug] || (c.option_decks || {})[slug];
}

export function showDeckPreview(side, keep) {
  const preview = $('#deck-preview');
  if (!keep && !preview.hidden && preview.dataset.side === String(side)) {
    preview.hidden = true;
    return;
  }
  const deck = starterDeck($(`#deck-${side}`).value);
  if (!deck) return;
  preview.dataset.side = String(side);
  put(preview, 
    h('div', { class: 'dp-head' },
      h('strong', { text: deck.name }), h('span', { class: 'muted', text: ` — ${deck.style}` }),
      h('button', { type: 'button', class: 'link', text: t('close'), onclick: () => { preview.hidden = true; } })),
    h('div', { class: 'dp-cols' },
      h('div', null, h('div', { class: 'dp-title', text: t('main_deck') }), deckListEl(deck.main, [], false)),
      h('div', null, h('div', { class: 'dp-title', text: t('tactics_deck') }), deckListEl([], deck.tactics, false))),
  );
  preview.hidden = false;
  if (!keep) preview.scrollIntoView({ block: 'start', behavior: effectiveMotion() === 'on' ? 'smooth' : 'auto' });
}

/** CARD INFORMATION of a Kōbō card (`type: 'card'`) or pile (`type: 'pile'`); null otherwise. */
export function renderKoboInfo(v, info) {
  if (info.type === 'pile') return pileInfo(v, info);
  if (info.type !== 'card') return null;
  // Re-read a board card from the current view so Lv changes show.
  let card = info.card;
  if (info.zone === 'battle' && info.slot) card = v.players[info.seat].battle[info.slot - 1] || card;
  if (info.zone === 'strategy' && info.slot) card = v.players[info.seat].strategy[info.slot - 1] || card;
  return cardInfo(card, info);
}

function where(info) {
  const whose = whoseOf(info.seat);
  switch (info.zone) {
    case 'battle': return t('where_battle', { whose, n: info.slot });
    case 'strategy': return t('where_strategy', { whose, n: info.slot });
    case 'reveal': return t('where_reveal', { whose });
    case 'chain': return t('where_chain', { n: info.link });
    case 'log': return t('where_log');
    default: return '';
  }
}

function cardInfo(card, info) {
  const loc = where(info);
  if (!card || !card.slug) {
    return [
      h('div', { class: 'info-card' }, cardEl(null, { size: 'm' })),
      h('div', { class: 'info-main' },
        h('div', { class: 'info-name', text: t('face_down') }),
        loc ? h('div', { class: 'info-where muted', text: loc }) : null,
        h('p', { class: 'info-text muted', text: t('face_down_hidden') })),
    ];
  }
  const d = cardDef(card.slug) || {};
  const kind = card.kind || d.kind;
  const stats = [];
  if (kind === 'character') {
    if (card.lv != null) {
      stats.push(h('span', { class: 'stat' }, term('lv', t('cur_lv')), ' ', h('b', { text: card.lv })));
      stats.push(h('span', { class: 'stat' }, term('base_lv', t('base_lv')), ' ', h('b', { text: card.base })));
      stats.push(h('span', { class: 'stat muted' }, `${t('printed_lv')} ${card.printed}`));
    } else {
      stats.push(h('span', { class: 'stat' }, 'Lv ', h('b', { text: d.lv })));
    }
  }
  const badges = [];
  if (d.limited) badges.push(h('span', { class: 'badge limited' }, term('limited', t('limited'))));
  if (d.chain_again) badges.push(h('span', { class: 'badge chain' }, term('chain_again', t('chain_again'))));
  if (card.attacking) badges.push(h('span', { class: 'badge atk', text: t('attacking') }));
  if (card.target) badges.push(h('span', { class: 'badge tgt', text: t('targeted') }));
  return [
    h('div', { class: 'info-card' }, cardEl({ ...card, name: d.name || card.name, face: 'up', attacking: false, target: false }, { size: 'm' })),
    h('div', { class: 'info-main' },
      h('div', { class: 'info-name', text: d.name || card.name || card.slug }),
      h('div', { class: 'info-kind' }, h('span', { class: `kind-dot kind-${kind}` }), d.kind_label || kind, ...badges),
      stats.length ? h('div', { class: 'info-stats' }, stats) : null,
      loc ? h('div', { class: 'info-where muted', text: loc }) : null,
      card.face === 'down' ? h('div', { class: 'info-where peek-note', text: t('your_face_down') }) : null,
      h('p', { class: 'info-text', text: d.text || '' }),
      info.why ? h('p', { class: 'info-why', dataset: { code: info.why.code } },
        h('span', { class: 'info-why-label', text: t('why_label') }), info.why.text) : null),
  ];
}

function pileInfo(v, info) {
  const p = v.players[info.seat];
  const who = seatName(info.seat);
  const title = (key) => h('div', { class: 'info-name', text: `${who} · ${t(key)}` });
  if (info.pile === 'main' || info.pile === 'tactics') {
    const count = info.pile === 'main' ? p.main_deck : p.tactics_deck;
    const list = info.pile === 'main' ? Object.entries(p.deck.main) : Object.entries(p.deck.tactics);
    return [h('div', { class: 'info-main wide' },
      title(info.pile === 'main' ? 'main_deck' : 'tactics_deck'),
      h('div', { class: 'info-count', text: t('left_in_deck', { n: count }) }),
      h('div', { class: 'info-where muted', text: `${p.deck.name}` }),
      h('div', { class: 'info-sub', text: t('deck_list_public') }),
      info.pile === 'main' ? deckListEl(list, [], true) : deckListEl([], list, true))];
  }
  const cards = info.pile === 'retreat' ? p.retreat : p.excluded;
  const list = h('ol', { class: 'pile-list' }, cards.map((c, i) => {
    const li = h('li', { class: `pile-item kind-${c.kind}` }, h('span', { class: `kind-dot kind-${c.kind}` }), h('span', { text: c.name }), h('span', { class: 'muted', text: ` ${kindLabel(c.kind, c.slug)}` }));
    return infoable(li, { type: 'card', card: c, seat: info.seat, zone: info.pile, index: i });
  }));
  return [h('div', { class: 'info-main wide' },
    title(info.pile),
    h('div', { class: 'info-count', text: t('n_cards', { n: cards.length }) }),
    cards.length ? list : h('p', { class: 'muted', text: t('pile_empty') }))];
}

function scoreLine(v) {
  const bottom = me();
  return `${seatName(bottom)} ${v.match.wins[bottom]} – ${v.match.wins[1 - bottom]} ${seatName(1 - bottom)}`;
}

export function showGameOver(index) {
  const v = S.view;
  const r = v.match.results[index];
  const ends = v.log.filter((e) => e.kind === 'game_end');
  const line = ends.length ? ends[ends.length - 1].text : '';
  const win = r.winner === me() && !isSpectator();
  const box = h('div', { class: `modal game-over ${r.winner < 0 ? 'tie' : win ? 'win' : 'lose'}`, role: 'dialog' },
    h('div', { class: 'modal-kicker', text: t('game_over', { n: index + 1 }) }),
    h('div', { class: 'modal-title', text: resultText(r) }),
    h('p', { class: 'modal-line', text: line }),
    h('div', { class: 'modal-score', text: scoreLine(v) }),
    h('div', { class: 'modal-buttons' },
      h('button', { type: 'button', class: 'primary', id: 'overlay-continue', text: t('continue'), onclick: closeOverlay })));
  openOverlay('game', box);
  if (v.session.mode === 'com_vs_com') {
    clearTimeout(S.overlayTimer);
    S.overlayTimer = setTimeout(() => { if (S.overlay === 'game') closeOverlay(); }, 2500);
  }
}

export function showMatchOver() {
  const v = S.view;
  if (!v || !v.match.over) return;
  const w = v.match.winner;
  let title;
  if (isSpectator()) title = t('match_win_seat', { who: seatName(w) });
  else title = w === me() ? t('match_win_you') : t('match_win_opp');
  const win = !isSpectator() && w === me();
  const results = h('ol', { class: 'modal-results' }, v.match.results.map((r, i) => h('li', null,
    h('span', { class: 'r-game', text: t('game_no', { n: i + 1 }) }),
    h('span', { class: 'r-win', text: resultText(r) }),
    h('span', { class: 'muted', text: ` ${reasonText(r.reason)} · ${t('turns_n', { n: r.turns })}` }))));
  const box = h('div', { class: `modal match-over ${win ? 'win' : isSpectator() ? 'neutral' : 'lose'}`, role: 'dialog' },
    h('div', { class: 'modal-kicker', text: t('match_over') }),
    h('div', { class: 'modal-title', text: title }),
    h('div', { class: 'modal-score', text: scoreLine(v) }),
    results,
    h('div', { class: 'modal-buttons' },
      h('button', { type: 'button', class: 'primary', id: 'overlay-again', text: t('again'), onclick: playAgain }),
      h('button', { type: 'button', id: 'overlay-start', text: t('to_start'), onclick: leaveGame }),
      h('button', { type: 'button', id: 'overlay-board', text: t('see_board'), onclick: () => { S.dismissedMatch = v.session.id; closeOverlay(); } })));
  openOverlay('match', box);
}

