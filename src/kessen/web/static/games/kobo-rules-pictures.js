// Pictures in Kōbō's rules screen (ルール), drawn by the board's own module from small fixed
// example views: the board with its zones, a chain of three links with the order it resolves
// in, and the attack result (攻撃側 X 対 防御側 Y → who retreats). Nothing here is a screenshot
// or a hand-drawn picture: the rows, cards, piles and lane links are what kobo-board.js and
// shell/lane.js draw during a match, so a picture changes when the board does. The examples
// are the guided match's own first exchange (games/kobo-tutorial.js). Also puts the rules
// screen's way into the tutorial at the top of the rules.

import { cardEl, cardName, iconEl, renderPiles, renderSide } from './kobo-board.js';
import { tutorialCallout } from './kobo-tutorial.js';
import { $$, h } from '../shell/dom.js';
import { texts } from '../shell/i18n.js';
import { laneItem } from '../shell/lane.js';

const T = texts({
  ja: {
    rp_board_title: '図1　盤面', rp_board_caption: '上が相手、下があなたの盤面です。左右対称に、バトルエリア（キャラを出す1〜5番の固定枠）、作戦エリア（罠と戦術の5枠）、手札、右に山札・撤退エリア・除外があります。',
    rp_opp_side: '相手の盤面', rp_my_side: 'あなたの盤面', rp_piles: '山札・撤退・除外',
    rp_chain_title: '図2　攻防連鎖（3枚）と解決の順', rp_chain_caption: '発動は連鎖1→2→3の順。解決は最後のカードから、連鎖3→2→1の順です。',
    rp_activated: '発動した順', rp_resolves: '解決する順', rp_order: '{n}番目に解決',
    rp_link1: '相手（防御側）· 攻撃側に−2', rp_link2: 'あなた（攻撃側）· 自分の参加キャラに+3', rp_link3: '相手 · 攻撃キャラに−1',
    rp_fx: '{name} Lv{from} → {to}',
    rp_chain_result: '解決後：攻撃側 7 対 防御側 6 → 攻撃対象が撤退',
    rp_res_title: '図3　攻撃結果', rp_res_caption: 'すべての効果を解決した後、攻撃側の合計Lvと攻撃対象のLvを比べます。',
    rp_attacking: '攻撃側', rp_defending: '防御側', rp_vs: '対', rp_retreats: '撤退',
    rp_res_win: '攻撃側が上回る：攻撃対象が撤退', rp_res_lose: '防御側が上回る：攻撃したキャラがすべて撤退',
    rp_res_tie: '単騎で同数：両方の元Lvが永続で1下がる', rp_minus: '元Lv−1',
  },
  en: {
    rp_board_title: 'Figure 1. The board', rp_board_caption: 'COM’s side is at the top, yours at the bottom. Each side has a battle area (five fixed slots, 1 to 5, for characters), a strategy area (five slots for traps and tactics), its hands, and at the right its decks, retreat area and excluded cards.',
    rp_opp_side: 'COM’s side', rp_my_side: 'Your side', rp_piles: 'Decks, retreat, excluded',
    rp_chain_title: 'Figure 2. A chain of three links, and the order it resolves in', rp_chain_caption: 'Cards are activated as links 1, 2, 3. They resolve from the last card: links 3, 2, 1.',
    rp_activated: 'Activated', rp_resolves: 'Resolves', rp_order: 'resolves {n}.',
    rp_link1: 'COM (defending) · −2 to the attacking side', rp_link2: 'You (attacking) · +3 to your participants', rp_link3: 'COM · −1 to the attacker',
    rp_fx: '{name} Lv {from} → {to}',
    rp_chain_result: 'Resolved: attack 7 against defence 6 → the target retreats',
    rp_res_title: 'Figure 3. The attack result', rp_res_caption: 'Once every effect has resolved, the attackers’ total Lv is compared with the target’s Lv.',
    rp_attacking: 'Attacking', rp_defending: 'Defending', rp_vs: 'vs', rp_retreats: 'Retreats',
    rp_res_win: 'The attacking side is higher: the target retreats', rp_res_lose: 'The defending side is higher: every attacker retreats',
    rp_res_tie: 'Equal, one attacker: both lose 1 base Lv for good', rp_minus: 'Base Lv −1',
  },
});

/** A view card of a character (its Lv now, its base Lv, printed Lv from the catalogue). */
function chara(slug, lv, extra = {}) {
  return { slug, name: cardName(slug), kind: 'character', printed: lv, base: lv, lv, attacking: false, target: false, ...extra };
}

function side(seat, fields) {
  return {
    seat,
    deck: { name: '' },
    main_deck: 0,
    tactics_deck: 0,
    hand: { count: 0, cards: [] },
    tactics_hand: { count: 0, cards: null },
    battle: [null, null, null, null, null],
    strategy: [null, null, null, null, null],
    retreat: [],
    excluded: [],
    reveal: [],
    processing: [],
    passes: 0,
    remaining: 0,
    ...fields,
  };
}

/** A fixed example view: the guided match's board at its first attack, before the chain. */
function exampleView(players) {
  return {
    pending: null, why_not: null, exchange: null, attack: null, chain: [], resolved: [],
    turn: 1, turn_player: 0, session: { com: { 1: 'tutorial' }, you: 0 }, players,
  };
}

function boardView() {
  const you = side(0, {
    battle: [chara('crimson-cavalier', 3), chara('warrior-monk', 4), chara('iron-castellan', 7, { base: 7, printed: 5 }), chara('oni-warlord', 5), null],
    strategy: [{ face: 'down', slug: 'battle-cry', name: cardName('battle-cry'), kind: 'trap' }, null, null, null, null],
    tactics_hand: { count: 5, cards: ['total-war', 'total-war', 'power-surge', 'swift-step', 'swift-step'].map((slug) => ({ slug, name: cardName(slug), kind: 'tactic' })) },
    main_deck: 11,
    tactics_deck: 10,
    remaining: 16,
  });
  const com = side(1, {
    battle: [chara('ashigaru-recruit', 6, { printed: 4 }), chara('spear-ashigaru', 3), chara('messenger-tanuki', 2), null, null],
    strategy: [{ face: 'down' }, null, null, null, null],
    tactics_hand: { count: 7, cards: null },
    main_deck: 12,
    tactics_deck: 8,
    remaining: 16,
  });
  return exampleView([you, com]);
}

/** The board module's drawing of `seat`'s side of `v` (the rows it names by `rows`). */
function sideNodes(v, seat, pos, rows) {
  const keys = new Map();
  const nodes = renderSide(v, seat, pos, keys).filter((n) => rows.some((r) => n.classList.contains(r)));
  for (const n of nodes) for (const e of [n, ...$$('.enter', n)]) e.classList.remove('enter');
  return nodes;
}

function pileGrid(v, seat) {
  return renderPiles(v, seat).find((n) => n.classList.contains('pile-grid'));
}

function figure(id, title, caption, ...body) {
  return h('figure', { class: 'rules-figure', id, dataset: { figure: id } },
    h('figcaption', null, h('strong', { text: title }), h('span', { text: caption })),
    h('div', { class: 'rf-body' }, body));
}

function boardFigure() {
  const v = boardView();
  return figure('figure-board', T('rp_board_title'), T('rp_board_caption'),
    h('div', { class: 'rf-board' },
      h('div', { class: 'rf-side side top' }, h('div', { class: 'rf-label theirs', text: T('rp_opp_side') }), sideNodes(v, 1, 'top', ['hand-row', 'strategy', 'battle'])),
      h('div', { class: 'rf-piles' }, pileGrid(v, 1), h('div', { class: 'rf-label', text: T('rp_piles') })),
      h('div', { class: 'rf-side side bottom' }, sideNodes(v, 0, 'bottom', ['battle', 'strategy', 'hand-row']), h('div', { class: 'rf-label mine', text: T('rp_my_side') })),
      h('div', { class: 'rf-piles' }, pileGrid(v, 0))));
}

/** The example chain: 一斉妨害 (COM), 総力戦 (you), 足止め (COM) on an attack of 鉄壁の城代 (Lv 7)
 *  against Lv 6; `fx`: the attacker's Lv before and after each link resolves (last first). */
const LINKS = [
  { no: 1, seat: 1, slug: 'mass-jamming', meta: 'rp_link1', fx: [9, 7] },
  { no: 2, seat: 0, slug: 'total-war', meta: 'rp_link2', fx: [6, 9] },
  { no: 3, seat: 1, slug: 'hinder', meta: 'rp_link3', fx: [7, 6] },
];

function laneLink(link, meta) {
  const li = laneItem({ no: link.no, seat: link.seat, kind: 'tactic', negated: false, name: cardName(link.slug), meta });
  const pict = iconEl(link.slug, 'link-pict');
  if (pict) li.querySelector('.link-body').prepend(pict);
  return li;
}

function chainFigure() {
  const v = boardView();
  v.players[1].strategy = [{ face: 'down' }, { face: 'up', slug: 'mass-jamming', name: cardName('mass-jamming'), kind: 'tactic' }, { face: 'up', slug: 'hinder', name: cardName('hinder'), kind: 'tactic' }, null, null];
  v.players[0].strategy = [{ face: 'down', slug: 'battle-cry', name: cardName('battle-cry'), kind: 'trap' }, { face: 'up', slug: 'total-war', name: cardName('total-war'), kind: 'tactic' }, null, null, null];
  v.players[0].battle[2] = { ...v.players[0].battle[2], attacking: true };
  v.players[1].battle[0] = { ...v.players[1].battle[0], target: true };
  const activated = h('ol', { class: 'lane-list rf-lane', 'aria-label': T('rp_activated') }, LINKS.map((l) => laneLink(l, T(l.meta))));
  const resolving = h('ol', { class: 'lane-list rf-lane', 'aria-label': T('rp_resolves') }, [...LINKS].reverse().map((l, i) => {
    const li = laneLink(l, T('rp_fx', { name: cardName('iron-castellan'), from: l.fx[0], to: l.fx[1] }));
    li.prepend(h('span', { class: 'rf-order', text: String(i + 1), title: T('rp_order', { n: i + 1 }) }));
    return li;
  }));
  return figure('figure-chain', T('rp_chain_title'), T('rp_chain_caption'),
    h('div', { class: 'rf-chain' },
      h('div', { class: 'rf-rows' },
        h('div', { class: 'rf-side side top' }, sideNodes(v, 1, 'top', ['strategy', 'battle'])),
        h('div', { class: 'rf-side side bottom' }, sideNodes(v, 0, 'bottom', ['battle', 'strategy']))),
      h('div', { class: 'rf-lanes lane' },
        h('div', { class: 'lane-part' }, h('div', { class: 'lane-title', text: `CHAIN · ${T('rp_activated')} ↓` }), activated),
        h('div', { class: 'lane-part' }, h('div', { class: 'lane-title', text: `RESOLVE · ${T('rp_resolves')} ↓` }), resolving),
        h('p', { class: 'rf-result', text: T('rp_chain_result') }))));
}

/** One attack result: the attackers, the target, the numbers and who retreats. */
function outcome(kind, attackers, target, a, d, gone) {
  const mark = (c, out) => {
    const el = h('div', { class: `rf-card${out === 'retreat' ? ' out' : ''}` }, cardEl(c, { size: 's' }));
    if (out === 'retreat') el.append(h('span', { class: 'tag tgt rf-tag', text: T('rp_retreats') }));
    if (out === 'minus') el.append(h('span', { class: 'tag atk rf-tag', text: T('rp_minus') }));
    return el;
  };
  return h('div', { class: `rf-outcome outcome-${kind}`, dataset: { outcome: kind } },
    h('div', { class: 'rf-fight' },
      h('div', { class: 'rf-cards' }, attackers.map((c) => mark({ ...c, attacking: true }, gone.attackers))),
      h('div', { class: 'kb-now' },
        h('span', { class: 'kb-side atk' }, h('span', { class: 'kb-side-label', text: T('rp_attacking') }), h('b', { class: 'kb-num', text: String(a) })),
        h('span', { class: 'kb-vs', text: T('rp_vs') }),
        h('span', { class: 'kb-side def' }, h('span', { class: 'kb-side-label', text: T('rp_defending') }), h('b', { class: 'kb-num', text: String(d) }))),
      h('div', { class: 'rf-cards' }, mark({ ...target, target: true }, gone.target))),
    h('p', { class: 'rf-verdict', text: T(`rp_res_${kind}`) }));
}

function resolutionFigure() {
  return figure('figure-result', T('rp_res_title'), T('rp_res_caption'),
    h('div', { class: 'rf-outcomes' },
      outcome('win', [chara('iron-castellan', 7)], chara('ashigaru-recruit', 6), 7, 6, { target: 'retreat' }),
      outcome('lose', [chara('crimson-cavalier', 3), chara('messenger-tanuki', 2)], chara('ashigaru-recruit', 6), 5, 6, { attackers: 'retreat' }),
      outcome('tie', [chara('warrior-monk', 4)], chara('shadow-shinobi', 4), 4, 4, { attackers: 'minus', target: 'minus' })));
}

/** Put `node` into the rules after the first paragraph of the section headed `id` (at the
 *  heading itself when the section opens with something else); nothing when there is none. */
function insertInSection(root, id, node) {
  const heading = root.querySelector(`#${id}`);
  if (!heading) return;
  const next = heading.nextElementSibling;
  const after = next && next.tagName === 'P' ? next : heading;
  after.after(node);
}

/** Kōbō's additions to its rules screen (shell/help.js calls the game's `decorateRules`):
 *  the way into the tutorial, and the three pictures at the sections they illustrate
 *  (2: cards, decks and areas; 6: the chain; 8: the attack result). */
export function decorateRules(doc) {
  const root = doc.querySelector('.rules-doc') || doc;
  root.prepend(tutorialCallout());
  insertInSection(root, 'sec-2', boardFigure());
  insertInSection(root, 'sec-6', chainFigure());
  insertInSection(root, 'sec-8', resolutionFigure());
}
