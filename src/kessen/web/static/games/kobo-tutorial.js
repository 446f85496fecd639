// Kōbō's guided first match (チュートリアル): starting it, offering it to a first visit, and the
// coach marks over the real board.
//
// The server deals the guided match (POST /api/tutorial: fixed decks and seed, the gentle
// scripted COM; src/kessen/games/kobo/tutorial.py). This module only reads the views: each
// render it finds the lessons the log shows done (`lessonsReached`, the same reading as the
// Python `lessons_reached`), the choice to point at (`guide`, the same rules as
// src/kessen/games/kobo/tutorial_guide.py: keep the two in step) and draws one mark: a ring on
// the board place and on the operation panel's button of that choice, and a bubble placed where
// it covers neither of them nor the other choices. A lesson advances only when the view shows
// it done. The element a mark asks to press carries `data-coach-press` (the tests press it).
//
// Whether this browser has finished or skipped the tutorial is kept in localStorage
// (`kobo.tutorial`): the start screen offers it until then; the rules screen always does.

import { cardDef, cardName } from './kobo-board.js';
import { P } from './kobo-fight.js';
import { $, $$, h, put, revealIn } from '../shell/dom.js';
import { texts } from '../shell/i18n.js';
import { toast } from '../shell/overlay.js';
import { isMyPrompt, me, online } from '../shell/seats.js';
import { beginGame } from '../shell/session.js';
import { newGame } from '../shell/start.js';
import { fetchJson, S, saveGame } from '../shell/state.js';

export const T = texts({
  ja: {
    tu_lesson: 'レッスン {n}/{of}：{name}', tu_ls_standby: 'スタンバイ（盤面づくり）', tu_ls_attack: '攻撃宣言',
    tu_ls_chain: '攻防連鎖', tu_ls_retreat: '解決と撤退', tu_ls_win: '勝利', tu_title: 'チュートリアル',
    tu_intro: 'ようこそ！対COMの短い1ゲームで、攻防の遊び方を実際の盤面で覚えます。吹き出しが指す所を押して進めてください。',
    tu_begin: 'はじめる', tu_next: '次へ', tu_skip: 'スキップ', tu_skip_title: 'チュートリアルの案内をやめる（対戦はそのまま続けられます）',
    tu_pick_character: '手札のキャラ「{name}」（Lv{lv}）を選びましょう。キャラはバトルエリアに出して戦います。メイン手札は1枚ずつ、全部処理します（残り{n}枚）。',
    tu_pick_deploy: '展開カード「{name}」を選びましょう。展開カードはスタンバイ中だけ使え、キャラを強化するなどします。',
    tu_pick_trap: '罠「{name}」を選びましょう。罠は作戦エリアに裏向きで伏せておき、攻防連鎖の中で発動します。',
    tu_place: 'バトルエリアの{n}番に出しましょう。バトルエリアは1〜5番の固定枠です。カード左上の数字がLv（攻撃力）です。',
    tu_deploy: '「使う」を押して効果を使いましょう（使わずに捨てることもできます）。',
    tu_deploy_target: '「{name}」（Lv{lv}）を選んで強化しましょう。展開カードで上がったLvは永続です。',
    tu_set: '作戦エリアの{n}番に裏向きで伏せましょう。伏せた罠は相手には見えません。',
    tu_wait_standby: '相手（COM）も同じように盤面を作っています…', tu_wait_tactics: '相手が戦術手札を選んでいます…',
    tu_tactics: '戦術手札を選びます（先攻は5枚）。戦術カードは攻防連鎖の中で使います。「{name}」を取りましょう（あと{n}枚）。',
    tu_turn_first: 'あなたのターンです。これがあなたのアタッカーのLvです：「{name}」はLv{lv}。このキャラで攻撃しましょう。',
    tu_declare_first: '攻撃対象を選びます。相手の「{name}」（Lv{lv}）を狙いましょう。攻撃側のLvが上回れば、攻撃対象が撤退します。',
    tu_wait_defender: '防御側が先に応答します。相手（防御側）が罠・戦術を使うかパスするのを待ちましょう…',
    tu_answer: '相手が「{card}」で応答しました（連鎖{link}）。このままでは攻撃側{a} 対 防御側{d}で勝てません。戦術「{name}」で応答しましょう（連鎖{next}）。',
    tu_wait_alternate: '攻防連鎖では両者が交互に1枚ずつ発動します。相手の応答を待ちましょう…',
    tu_close: '相手が「{card}」を発動しました（連鎖{link}）。両者が続けてパスすると連鎖が閉じます。チェーンは最後のカードから解決します：連鎖{order}の順。パスしましょう。',
    tu_resolving: 'チェーンは最後のカードから解決します：連鎖{order}の順に効果が出ます…',
    tu_retreat_won: '攻撃結果：攻撃側{a} 対 防御側{d}。攻撃側が上回ったので、攻撃対象「{name}」が撤退しました（撤退エリアへ）。',
    tu_retreat_lost: '攻撃結果：攻撃側{a} 対 防御側{d}。防御側が上回ったので、攻撃したキャラ「{name}」が撤退しました（撤退エリアへ）。',
    tu_retreat_other: '「{name}」が撤退しました（撤退エリアへ）。撤退したキャラは戻りません。',
    tu_turn_win: '相手のキャラをすべて撤退させれば勝ちです（残り{n}体）。「{name}」（Lv{lv}）で攻撃しましょう。',
    tu_declare_win: '相手の「{name}」（Lv{lv}）を攻撃対象にしましょう。',
    tu_pass_chain: '相手はパスしました。あなたもパスすると連鎖が閉じ、攻撃結果が出ます。',
    tu_wait_turn: '相手のターンです…', tu_resolving_plain: '攻撃の結果を処理しています…', tu_wait: '相手（COM）を待っています…',
    tu_generic: '「{label}」を選びましょう。', tu_confirm: 'パスを確定しましょう。',
    tu_done_title: 'チュートリアル完了',
    tu_done_win: 'おめでとうございます！スタンバイ、攻撃宣言、攻防連鎖、解決と撤退、そして勝利まで、ひと通り遊びました。次は本番の対戦（3本勝負）です。',
    tu_done_lost: 'スタンバイから攻撃結果まで、ひと通りの流れを体験しました。次は本番の対戦（3本勝負）です。',
    tu_play_real: '対戦を始める', tu_read_rules: 'ルールを読む', tu_close_done: '閉じる',
    tu_offer_title: 'はじめての方へ', tu_offer_text: '実際の盤面で1ゲーム、案内つきで遊び方を覚えられます（約5分）。',
    tu_offer_start: 'チュートリアルを始める', tu_offer_later: '今はしない', tu_err: 'チュートリアルを開始できません',
    tu_rules_note: '実際の盤面で1ゲーム、吹き出しの案内に従って遊べます。',
  },
  en: {
    tu_lesson: 'Lesson {n}/{of}: {name}', tu_ls_standby: 'Standby (your board)', tu_ls_attack: 'Declaring an attack',
    tu_ls_chain: 'The chain', tu_ls_retreat: 'Resolution and retreat', tu_ls_win: 'Winning', tu_title: 'Tutorial',
    tu_intro: 'Welcome! In one short game against COM you learn Kōbō on the real board. Press what each bubble points at.',
    tu_begin: 'Let’s start', tu_next: 'Next', tu_skip: 'Skip', tu_skip_title: 'Stop the guide (the match goes on)',
    tu_pick_character: 'Pick the character “{name}” (Lv {lv}). Characters fight from the battle area. You process your main hand one card at a time, all of it ({n} left).',
    tu_pick_deploy: 'Pick the deploy card “{name}”. Deploy cards are used only during the standby: they strengthen characters and more.',
    tu_pick_trap: 'Pick the trap “{name}”. A trap is set face down in the strategy area and activated later, in a chain.',
    tu_place: 'Put it in slot {n} of the battle area. Its five slots are fixed, 1 to 5. The number at a card’s top left is its Lv (its attack power).',
    tu_deploy: 'Press “Use” to use its effect (you could also discard it unused).',
    tu_deploy_target: 'Choose “{name}” (Lv {lv}) to strengthen it. Lv gained from a deploy card is permanent.',
    tu_set: 'Set it face down in slot {n} of the strategy area. COM cannot see it.',
    tu_wait_standby: 'COM builds its board the same way…', tu_wait_tactics: 'COM is choosing its tactics hand…',
    tu_tactics: 'Choose your tactics hand (5 cards when you move first). Tactics are played in a chain. Take “{name}” ({n} to go).',
    tu_turn_first: 'Your turn. This is your attacker’s Lv: “{name}” is Lv {lv}. Attack with it.',
    tu_declare_first: 'Choose the target: COM’s “{name}” (Lv {lv}). If the attacking side’s Lv is higher, the target retreats.',
    tu_wait_defender: 'The defender answers first. Wait while COM (the defender) plays a trap or a tactic, or passes…',
    tu_answer: 'COM answered with “{card}” (link {link}). As it stands you do not win: attack {a} against defence {d}. Answer with the tactic “{name}” (link {next}).',
    tu_wait_alternate: 'In a chain both players answer in turn, one card at a time. Wait for COM’s answer…',
    tu_close: 'COM activated “{card}” (link {link}). When both players pass in a row, the chain closes. The chain resolves from the last card: link {order}. Pass.',
    tu_resolving: 'The chain resolves from the last card: its effects come in the order link {order}…',
    tu_retreat_won: 'The attack result: attack {a} against defence {d}. The attacking side is higher, so the target “{name}” retreats (to the retreat area).',
    tu_retreat_lost: 'The attack result: attack {a} against defence {d}. The defending side is higher, so your attacker “{name}” retreats (to the retreat area).',
    tu_retreat_other: '“{name}” retreated (to the retreat area). A character that retreats does not come back.',
    tu_turn_win: 'Make every COM character retreat to win ({n} left). Attack with “{name}” (Lv {lv}).',
    tu_declare_win: 'Target COM’s “{name}” (Lv {lv}).',
    tu_pass_chain: 'COM passed. Pass too: the chain closes and the attack result comes.',
    tu_wait_turn: 'COM’s turn…', tu_resolving_plain: 'Resolving the attack…', tu_wait: 'Waiting for COM…',
    tu_generic: 'Choose “{label}”.', tu_confirm: 'Confirm the pass.',
    tu_done_title: 'Tutorial complete',
    tu_done_win: 'Well done! You have played it all once: the standby, an attack, a chain, its resolution and a retreat, and a win. Next, a real match (best of three).',
    tu_done_lost: 'You have played the whole flow once, from the standby to the attack result. Next, a real match (best of three).',
    tu_play_real: 'Start a real match', tu_read_rules: 'Read the rules', tu_close_done: 'Close',
    tu_offer_title: 'New to Kōbō?', tu_offer_text: 'Learn to play in one guided game on the real board (about 5 minutes).',
    tu_offer_start: 'Start the tutorial', tu_offer_later: 'Not now', tu_err: 'The tutorial could not start',
    tu_rules_note: 'Play one game on the real board, guided by bubbles step by step.',
  },
});

/** The lessons, in the order the guided match meets them (tutorial.py's LESSONS). */
export const LESSONS = ['standby', 'attack', 'chain', 'retreat', 'win'];
const CHAIN_LINKS = 3;
// The coach's rules (tutorial_guide.py).
const TACTICS_ORDER = ['total-war', 'power-surge', 'last-stand', 'swift-step', 'weaken', 'hinder', 'counter-spell', 'target-change', 'ceasefire', 'mass-jamming'];
const BUFFS = ['total-war', 'power-surge', 'last-stand', 'swift-step'];
const STANDBY_ORDER = ['character', 'deploy', 'trap'];

const STORE = 'kobo.tutorial';
const STORE_ACKS = 'kobo.tutorial.acks';

/* ================================================================== this browser's record */

/** 'done', 'skipped' or null: what this browser did with the tutorial. */
export function tutorialState() {
  try {
    const kept = JSON.parse(localStorage.getItem(STORE) || 'null');
    return kept && (kept.state === 'done' || kept.state === 'skipped') ? kept.state : null;
  } catch {
    return null;
  }
}

function setTutorialState(state) {
  try {
    localStorage.setItem(STORE, JSON.stringify({ state, at: new Date().toISOString() }));
  } catch { /* storage may be unavailable */ }
}

/** The info marks of session `sid` already acknowledged (they survive a reload). */
function acks(sid) {
  try {
    const kept = JSON.parse(localStorage.getItem(STORE_ACKS) || 'null');
    return new Set(kept && kept.sid === sid && Array.isArray(kept.acks) ? kept.acks : []);
  } catch {
    return new Set();
  }
}

function acknowledge(sid, key) {
  const known = acks(sid);
  known.add(key);
  try {
    localStorage.setItem(STORE_ACKS, JSON.stringify({ sid, acks: [...known] }));
  } catch { /* ignore */ }
}

/* ================================================================== starting it */

/** A real match against COM as the start screen would begin it by default. */
function realMatchConfig() {
  const meta = (S.meta && S.meta.rulesets && S.meta.rulesets.kobo) || {};
  const cfg = { ruleset: 'kobo', mode: 'vs_com', com: meta.default_com || 'heuristic' };
  if (Array.isArray(meta.default_decks)) cfg.decks = meta.default_decks;
  return cfg;
}

/** Start the guided match: the server deals it; this page remembers that it is the tutorial
 *  (もう一度 afterwards starts a real match). */
export async function startTutorial() {
  try {
    const res = await fetchJson('/api/tutorial', { method: 'POST' });
    beginGame(res, realMatchConfig());
    S.game.tutorial = true;
    saveGame(S.game);
  } catch (err) {
    toast(T('tu_err'), String(err.message || err), 'error');
  }
}

/** The start screen's offer (#tutorial-offer), shown while this browser has neither finished
 *  nor skipped the tutorial. */
export function renderTutorialOffer() {
  const box = $('#tutorial-offer');
  if (!box) return;
  if (tutorialState()) {
    box.hidden = true;
    put(box);
    return;
  }
  box.hidden = false;
  box.setAttribute('aria-label', T('tu_offer_title'));
  put(box,
    h('div', { class: 'tuo-text' },
      h('strong', { class: 'tuo-title', text: T('tu_offer_title') }),
      h('span', { text: T('tu_offer_text') })),
    h('div', { class: 'tuo-buttons' },
      h('button', { type: 'button', class: 'primary', id: 'tutorial-start', text: T('tu_offer_start'), onclick: startTutorial }),
      h('button', { type: 'button', class: 'secondary', id: 'tutorial-later', text: T('tu_offer_later'), onclick: () => { setTutorialState('skipped'); renderTutorialOffer(); } })));
}

/** Hide the offer (another game is picked on the start screen). */
export function hideTutorialOffer() {
  const box = $('#tutorial-offer');
  if (box) box.hidden = true;
}

/** The rules screen's way in: a note and 「チュートリアルを始める」 (always offered). */
export function tutorialCallout() {
  return h('aside', { class: 'tutorial-callout', id: 'rules-tutorial' },
    h('span', { text: T('tu_rules_note') }),
    h('button', { type: 'button', class: 'primary', id: 'rules-tutorial-start', text: T('tu_offer_start'), onclick: startTutorial }));
}

/* ================================================================== reading the view */

/** The lessons the view shows done, in order (tutorial.py's `lessons_reached`). */
export function lessonsReached(v) {
  const mine = v.viewer;
  const tests = [
    (e) => e.kind === 'standby_end' && e.seat === mine,
    (e) => e.kind === 'declare' && e.seat === mine,
    (e) => e.kind === 'activate' && Number(e.link || 0) >= CHAIN_LINKS,
    (e) => e.kind === 'retreat',
  ];
  const log = v.log || [];
  const done = [];
  let at = 0;
  for (let k = 0; k < tests.length; k++) {
    let found = -1;
    for (let i = at; i < log.length; i++) if (tests[k](log[i])) { found = i; break; }
    if (found < 0) return { done, retreatAt: null };
    done.push(LESSONS[k]);
    at = found + 1;
  }
  const retreatAt = at - 1;
  if (v.match && v.match.over && v.match.winner === mine) done.push('win');
  return { done, retreatAt };
}

function kindOf(slug) {
  const d = cardDef(slug);
  return d ? d.kind : null;
}

function chars(v, seat) {
  const m = new Map();
  v.players[seat].battle.forEach((c, i) => { if (c) m.set(i + 1, c.lv); });
  return m;
}

/** The slot of `slots` with the highest Lv (the lowest slot among equals), or null. */
function strongest(lvs, slots) {
  let best = null;
  for (const s of slots) {
    if (!lvs.has(s)) continue;
    if (best == null || lvs.get(s) > lvs.get(best) || (lvs.get(s) === lvs.get(best) && s < best)) best = s;
  }
  return best;
}

function numbers(legal, verb) {
  return legal.filter((a) => a.startsWith(`${verb} `)).map((a) => Number(a.split(' ')[1]));
}

const RULES = {
  standby(v, mine, legal) {
    const picks = legal.filter((a) => a.startsWith('pick '));
    for (const kind of STANDBY_ORDER) {
      const found = picks.find((a) => kindOf(a.slice(5)) === kind);
      if (found) return found;
    }
    return null;
  },
  deploy: (v, mine, legal) => (legal.includes('use') ? 'use' : null),
  deploy_target(v, mine, legal) {
    const ctx = v.pending.context || {};
    const slot = strongest(chars(v, ctx.side ?? mine), numbers(legal, 'slot'));
    return slot == null ? null : `slot ${slot}`;
  },
  tactics: (v, mine, legal) => TACTICS_ORDER.map((s) => `take ${s}`).find((a) => legal.includes(a)) || null,
  turn(v, mine, legal) {
    const my = chars(v, mine);
    const theirs = chars(v, 1 - mine);
    const slot = strongest(my, numbers(legal, 'attack'));
    if (slot != null && [...theirs.values()].some((lv) => lv < my.get(slot))) return `attack ${slot}`;
    return legal.includes('pass') ? 'pass' : null;
  },
  declare(v, mine, legal) {
    const total = Number((v.pending.context || {}).total || 0);
    const theirs = chars(v, 1 - mine);
    const targets = numbers(legal, 'target');
    const beaten = targets.filter((s) => (theirs.has(s) ? theirs.get(s) : 99) < total);
    if (beaten.length) return `target ${strongest(theirs, beaten)}`;
    const lv = (s) => (theirs.has(s) ? theirs.get(s) : 99);
    const weakest = targets.slice().sort((a, b) => lv(a) - lv(b) || a - b)[0];
    return weakest == null ? null : `target ${weakest}`;
  },
  chain(v, mine, legal) {
    const attack = v.attack || {};
    const chain = v.chain || [];
    const pv = (v.exchange && v.exchange.preview) || {};
    const losing = pv.exact && pv.outcome !== 'attacker_wins';
    if (attack.seat === mine && chain.length && chain[chain.length - 1].seat !== mine && losing) {
      const found = BUFFS.map((s) => `play ${s}`).find((a) => legal.includes(a));
      if (found) return found;
    }
    return legal.includes('pass') ? 'pass' : null;
  },
  target(v, mine, legal) {
    const ctx = v.pending.context || {};
    const side = ctx.side ?? mine;
    const attack = v.attack;
    const slots = numbers(legal, 'slot');
    if (attack) {
      const wanted = side === attack.seat ? attack.attackers : [attack.target];
      const found = wanted.find((s) => slots.includes(s));
      if (found != null) return `slot ${found}`;
    }
    const slot = strongest(chars(v, side), slots);
    return slot == null ? null : `slot ${slot}`;
  },
};

/** The choice the coach points at in `v` (the viewer's own view), or null when the viewer
 *  decides nothing (tutorial_guide.py's `guided_action`). */
export function guide(v) {
  const p = v.pending;
  const mine = v.viewer;
  if (!p || mine == null || p.seat !== mine || !p.legal || !p.legal.length) return null;
  const rule = RULES[p.prompt];
  const choice = rule ? rule(v, mine, p.legal) : null;
  return choice && p.legal.includes(choice) ? choice : p.legal[0];
}

/* ================================================================== the marks */

/** The coach's memory for the session on screen: the last mark drawn, and whether its end
 *  was closed. */
const C = { key: '', sid: null, closed: null };

function isTutorial(v) {
  return !!(S.game && S.game.tutorial && !S.replay && v && v.session && v.session.id === S.game.id && v.session.mode === 'vs_com');
}

const battle = (seat, slot) => `#board [data-zone="battle"][data-seat="${seat}"][data-slot="${slot}"]`;
const button = (action) => `#ops button.act[data-action="${CSS.escape(action)}"]`;
const place = (action) => `#game .selectable[data-act="${CSS.escape(action)}"]`;

function charOf(v, seat, slot) {
  return v.players[seat] && v.players[seat].battle[slot - 1];
}

function linkOrder(n) {
  return Array.from({ length: n }, (_, i) => n - i).join(' → ');
}

/** The retreat the retreat lesson explains: who retreated, and the result's numbers. */
function retreatInfo(v, at) {
  const log = v.log || [];
  const e = log[at];
  let result = null;
  for (let i = at; i >= 0; i--) {
    if (log[i].kind === 'result') { result = log[i]; break; }
    if (log[i].kind === 'declare') break;
  }
  const name = cardName(e.card);
  if (result && result.outcome === 'attacker_wins' && e.seat !== me()) return T('tu_retreat_won', { a: result.attack, d: result.defence, name });
  if (result && result.outcome === 'defender_wins' && e.seat === me()) return T('tu_retreat_lost', { a: result.attack, d: result.defence, name });
  return T('tu_retreat_other', { name });
}

/** What to say (and point at) for the player's own decision `action`. */
function promptMark(v, action, lesson) {
  const p = v.pending;
  const mine = v.viewer;
  const [verb, arg] = [action.split(' ')[0], action.split(' ').slice(1).join(' ')];
  const n = Number(arg);
  const focus = $(place(action)) ? place(action) : null;
  const mark = { kind: 'press', press: button(action), focus, action };
  const ctx = p.context || {};
  switch (p.prompt) {
    case 'standby': {
      const kind = kindOf(arg) || 'character';
      const d = cardDef(arg) || {};
      return { ...mark, text: T(`tu_pick_${kind}`, { name: cardName(arg), lv: d.lv ?? '', n: v.players[mine].hand.count }) };
    }
    case 'place': return { ...mark, text: T('tu_place', { n }) };
    case 'deploy': return { ...mark, text: T('tu_deploy') };
    case 'deploy_target': {
      const c = charOf(v, ctx.side ?? mine, n) || {};
      return { ...mark, text: T('tu_deploy_target', { name: c.name || '', lv: c.lv ?? '' }) };
    }
    case 'set': return { ...mark, text: T('tu_set', { n }) };
    case 'tactics': return { ...mark, text: T('tu_tactics', { name: cardName(arg), n: ctx.left ?? '' }) };
    case 'turn': {
      if (verb !== 'attack') break;
      const c = charOf(v, mine, n) || {};
      const left = v.players[1 - mine].battle.filter(Boolean).length;
      const key = lesson === 'attack' ? 'tu_turn_first' : 'tu_turn_win';
      return { ...mark, focus: battle(mine, n), lv: true, text: T(key, { name: c.name || '', lv: c.lv ?? '', n: left }) };
    }
    case 'declare': {
      const c = charOf(v, 1 - mine, n) || {};
      const key = lesson === 'attack' ? 'tu_declare_first' : 'tu_declare_win';
      return { ...mark, focus: battle(1 - mine, n), text: T(key, { name: c.name || '', lv: c.lv ?? '' }) };
    }
    case 'chain': {
      const chain = v.chain || [];
      const last = chain[chain.length - 1];
      if (verb === 'play' && last) {
        const pv = (v.exchange && v.exchange.preview) || {};
        return {
          ...mark,
          text: T('tu_answer', { card: last.name || cardName(last.slug), link: last.link, a: pv.attack ?? '', d: pv.defence ?? '', name: cardName(arg), next: chain.length + 1 }),
        };
      }
      if (action === 'pass' && chain.length >= CHAIN_LINKS && last && last.seat !== mine) {
        return { ...mark, focus: '#lane-chain', text: T('tu_close', { card: last.name || cardName(last.slug), link: last.link, order: linkOrder(chain.length) }) };
      }
      if (action === 'pass') return { ...mark, text: T('tu_pass_chain') };
      break;
    }
    default: break;
  }
  const b = $(button(action));
  const label = b ? b.textContent.trim() : action;
  return { ...mark, text: T('tu_generic', { label }) };
}

/** What to say while the other seat decides. */
function waitMark(v, lesson) {
  const p = v.pending;
  const mark = { kind: 'wait', press: null, focus: null };
  if (!p) return { ...mark, text: T('tu_wait') };
  if (p.prompt === 'tactics') return { ...mark, text: T('tu_wait_tactics') };
  if (v.turn === 0) return { ...mark, text: T('tu_wait_standby') };
  // The CHAIN list once it holds a link, the whole lane before.
  const lane = (v.chain || []).length ? '#lane-chain' : '#lane';
  if (p.prompt === 'chain' && v.attack && v.attack.seat === v.viewer) {
    const first = !(v.chain || []).length;
    return { ...mark, focus: lane, text: T(first ? 'tu_wait_defender' : 'tu_wait_alternate') };
  }
  if (lesson === 'chain' && p.prompt === 'target') return { ...mark, focus: lane, text: T('tu_wait_alternate') };
  return { ...mark, text: T('tu_wait_turn') };
}

/** The mark for view `v`, or null for none. */
function markFor(v) {
  const { done, retreatAt } = lessonsReached(v);
  const lesson = LESSONS[Math.min(done.length, LESSONS.length - 1)];
  // The standby phase (the tactics hands too) is shown as the standby's lesson.
  const head = { lesson: v.turn === 0 ? 'standby' : lesson, done };
  const sid = v.session.id;
  const known = acks(sid);
  if (v.session.ended && !v.match.over) return null; // resigned: nothing is left to guide
  if (P.run) {
    const links = (v.resolution && v.resolution.links) ? v.resolution.links.length : 0;
    const text = links ? T('tu_resolving', { order: linkOrder(links) }) : T('tu_resolving_plain');
    // The playback of the exchange the retreat lesson explains belongs to that lesson.
    const shown = done.includes('retreat') && !known.has('retreat') ? 'retreat' : head.lesson;
    return { ...head, lesson: shown, key: `resolving:${links}`, kind: 'wait', press: null, focus: '#lane', text };
  }
  if (v.match.over) {
    return { ...head, key: 'done', kind: 'done', won: v.match.winner === v.viewer, press: '#coach-real', focus: null };
  }
  if (!known.has('intro')) {
    return { ...head, key: 'intro', kind: 'info', ack: 'intro', ok: T('tu_begin'), press: '#coach-ok', focus: null, text: T('tu_intro') };
  }
  if (retreatAt != null && !known.has('retreat')) {
    const e = v.log[retreatAt];
    const pile = e.seat === me() ? '#piles-bottom [data-pile="retreat"]' : '#piles-top [data-pile="retreat"]';
    return { ...head, lesson: 'retreat', key: 'retreat', kind: 'info', ack: 'retreat', ok: T('tu_next'), press: '#coach-ok', focus: pile, text: retreatInfo(v, retreatAt) };
  }
  if (S.confirm && v.pending && S.confirm.promptId === v.pending.prompt_id) {
    return { ...head, key: `confirm:${v.pending.prompt_id}`, kind: 'press', press: '#ops .confirm-yes', focus: null, text: T('tu_confirm') };
  }
  if (isMyPrompt(v) && online()) {
    const action = guide(v);
    if (action) return { ...head, key: `${v.pending.prompt_id}:${action}`, ...promptMark(v, action, lesson) };
  }
  return { ...head, key: `wait:${v.pending ? v.pending.prompt_id : 'none'}`, ...waitMark(v, lesson) };
}

/* ================================================================== drawing */

function coachBox() {
  let box = $('#coach');
  if (!box) {
    box = h('div', { id: 'coach', class: 'coach', role: 'dialog', 'aria-live': 'polite', 'data-layer': 'coach', hidden: true });
    document.body.append(box);
  }
  return box;
}

function clearRings() {
  for (const e of $$('.coach-focus, .coach-press, .coach-lv')) e.classList.remove('coach-focus', 'coach-press', 'coach-lv');
  for (const e of $$('[data-coach-press]')) delete e.dataset.coachPress;
}

function hideCoach() {
  const box = $('#coach');
  if (box) box.hidden = true;
  clearRings();
  document.body.classList.remove('coaching');
}

/** Skip the rest of the guide (of this match, for good): this browser counts the tutorial
 *  as skipped. */
function skip() {
  if (S.view) acknowledge(S.view.session.id, 'skip');
  if (tutorialState() !== 'done') setTutorialState('skipped');
  hideCoach();
}

function lessonLine(mark) {
  const index = LESSONS.indexOf(mark.lesson);
  const dots = LESSONS.map((l, i) => h('span', { class: `coach-dot${mark.done.includes(l) ? ' done' : ''}${i === index && !mark.done.includes(l) ? ' now' : ''}`, title: T(`tu_ls_${l}`) }));
  return h('div', { class: 'coach-head' },
    h('span', { class: 'coach-step', text: T('tu_lesson', { n: index + 1, of: LESSONS.length, name: T(`tu_ls_${mark.lesson}`) }) }),
    h('span', { class: 'coach-dots', 'aria-hidden': 'true' }, dots),
    h('button', { type: 'button', class: 'coach-skip link', title: T('tu_skip_title'), text: T('tu_skip'), onclick: skip }));
}

function doneBox(mark, v) {
  return [
    h('div', { class: 'coach-head' }, h('strong', { class: 'coach-step', text: T('tu_done_title') })),
    h('p', { class: 'coach-text', text: T(mark.won ? 'tu_done_win' : 'tu_done_lost') }),
    h('div', { class: 'coach-buttons' },
      h('button', { type: 'button', class: 'primary', id: 'coach-real', text: T('tu_play_real'), onclick: () => { hideCoach(); newGame(realMatchConfig()); } }),
      h('button', { type: 'button', id: 'coach-rules', text: T('tu_read_rules'), onclick: () => $('#btn-rules').click() }),
      h('button', { type: 'button', id: 'coach-close', text: T('tu_close_done'), onclick: () => { C.closed = v.session.id; hideCoach(); } })),
  ];
}

/** Draw the coach for view `v` (every render of the game screen; Kōbō's render calls it). */
export function renderCoach(v) {
  if (!isTutorial(v) || document.body.dataset.screen !== 'game') {
    hideCoach();
    return;
  }
  if (C.sid !== v.session.id) {
    C.sid = v.session.id;
    C.key = '';
  }
  // The tutorial's own ending replaces the match-over dialog (結果を見る still opens it).
  S.dismissedMatch = v.session.id;
  if (acks(v.session.id).has('skip') || C.closed === v.session.id) {
    hideCoach();
    return;
  }
  const mark = markFor(v);
  const box = coachBox();
  clearRings();
  if (!mark) {
    hideCoach();
    return;
  }
  if (mark.kind === 'done' && tutorialState() !== 'done') setTutorialState('done');
  box.setAttribute('aria-label', T('tu_title'));
  box.dataset.mark = mark.key;
  box.dataset.kind = mark.kind;
  box.dataset.lesson = mark.lesson;
  box.dataset.lessons = mark.done.join(',');
  box.dataset.press = mark.press || '';
  const sig = JSON.stringify([mark.key, mark.text, S.settings.lang, mark.done]);
  if (box.dataset.sig !== sig) {
    box.dataset.sig = sig;
    if (mark.kind === 'done') put(box, doneBox(mark, v));
    else {
      put(box,
        lessonLine(mark),
        h('p', { class: 'coach-text', text: mark.text }),
        mark.kind === 'info' ? h('div', { class: 'coach-buttons' },
          h('button', { type: 'button', class: 'primary', id: 'coach-ok', text: mark.ok, onclick: () => { acknowledge(v.session.id, mark.ack); box.dataset.sig = ''; renderCoach(S.view); } })) : null,
        h('div', { class: 'coach-arrow', 'aria-hidden': 'true' }));
    }
  }
  box.hidden = false;
  box.classList.toggle('centered', mark.kind === 'done');
  document.body.classList.add('coaching');
  const fresh = C.key !== mark.key;
  C.key = mark.key;
  ring(mark, fresh);
  requestAnimationFrame(() => position(mark));
}

/** Ring the mark's places; the element to press gets `data-coach-press`. */
function ring(mark, fresh) {
  const press = mark.press ? $(mark.press) : null;
  const focus = mark.focus ? $(mark.focus) : null;
  if (press) {
    press.dataset.coachPress = '1';
    if (!press.closest('#coach')) press.classList.add('coach-press');
    // A choice folded under the bar's handle: the handle leads to it.
    if (press.classList.contains('beyond')) { const more = $('#ops-more'); if (more) more.classList.add('coach-press'); }
    if (fresh && press.closest('#ops-body')) revealIn(press.closest('.ops-body'), press);
  }
  if (focus) {
    focus.classList.add('coach-focus');
    if (mark.lv) { const lv = $('.card-lv', focus); if (lv) lv.classList.add('coach-lv'); }
    if (fresh) revealBoard(focus);
  }
}

/** Scroll the board (not the page) so that `el` shows, where the board scrolls (a phone). */
function revealBoard(el) {
  for (let box = el.parentElement; box && box !== document.body; box = box.parentElement) {
    const style = getComputedStyle(box);
    if (/(auto|scroll)/.test(style.overflowY) && box.scrollHeight > box.clientHeight + 1) {
      const b = el.getBoundingClientRect();
      const o = box.getBoundingClientRect();
      const sheet = $('#ops');
      const bottom = sheet && getComputedStyle(sheet).position === 'fixed' ? Math.min(o.bottom, sheet.getBoundingClientRect().top) : o.bottom;
      if (b.top < o.top) box.scrollTop -= o.top - b.top + 12;
      else if (b.bottom > bottom) box.scrollTop += b.bottom - bottom + 12;
      return;
    }
  }
}

/* ---------------------------------------------------------------- placing the bubble */

const GAP = 14;
const EDGE = 8;

function visibleRect(el) {
  if (!el || el.hidden || el.offsetParent === null) return null;
  const r = el.getBoundingClientRect();
  if (r.width <= 0 || r.height <= 0) return null;
  if (r.bottom <= 0 || r.right <= 0 || r.top >= innerHeight || r.left >= innerWidth) return null;
  return r;
}

function overlap(a, b) {
  const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
  const hgt = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return w > 0 && hgt > 0 ? w * hgt : 0;
}

function rectAt(left, top, w, hgt) {
  return { left, top, right: left + w, bottom: top + hgt, width: w, height: hgt };
}

/** Where the bubble goes: next to its anchor (the ringed place), where it covers none of the
 *  places it names and none of the choices of the operation panel; else the spot that covers
 *  the least of them. */
function position(mark) {
  const box = $('#coach');
  if (!box || box.hidden) return;
  const vw = document.documentElement.clientWidth;
  const vh = innerHeight;
  if (mark.kind === 'done') {
    box.style.left = `${Math.max(EDGE, (vw - box.offsetWidth) / 2)}px`;
    box.style.top = `${Math.max(EDGE, (vh - box.offsetHeight) / 2)}px`;
    box.dataset.side = 'center';
    return;
  }
  const press = mark.press && !mark.press.startsWith('#coach') ? visibleRect($(mark.press)) : null;
  const focus = mark.focus ? visibleRect($(mark.focus)) : null;
  const avoid = [press, focus].filter(Boolean);
  for (const b of $$('#ops-body button.act, #ops-body .confirm, #ops-more, #option-preview, #result-banner, #kb-fight-box')) {
    const r = visibleRect(b);
    if (r) avoid.push(r);
  }
  const top = $('#topbar');
  const floor = top ? Math.min(top.getBoundingClientRect().bottom, vh / 3) : 0;
  const w = box.offsetWidth;
  const hgt = box.offsetHeight;
  const anchor = focus || press;
  const clampX = (x) => Math.min(Math.max(EDGE, x), vw - w - EDGE);
  const clampY = (y) => Math.min(Math.max(floor + EDGE, y), vh - hgt - EDGE);
  const spots = [];
  if (anchor) {
    const cx = anchor.left + anchor.width / 2 - w / 2;
    const cy = anchor.top + anchor.height / 2 - hgt / 2;
    spots.push(['above', clampX(cx), anchor.top - GAP - hgt]);
    spots.push(['below', clampX(cx), anchor.bottom + GAP]);
    spots.push(['left', anchor.left - GAP - w, clampY(cy)]);
    spots.push(['right', anchor.right + GAP, clampY(cy)]);
  }
  // Free spots of the screen, top first, for a place too large to sit beside.
  for (const y of [floor + EDGE, vh / 2 - hgt / 2, vh - hgt - EDGE]) {
    for (const x of [EDGE, vw / 2 - w / 2, vw - w - EDGE]) spots.push(['free', x, y]);
  }
  let best = null;
  for (const [side, x, y] of spots) {
    if (x < EDGE - 0.5 || y < floor + EDGE - 0.5 || x + w > vw - EDGE + 0.5 || y + hgt > vh - EDGE + 0.5) continue;
    const r = rectAt(x, y, w, hgt);
    const cost = avoid.reduce((sum, a) => sum + overlap(r, a), 0);
    if (!best || cost < best.cost) best = { side, x, y, cost };
    if (cost === 0) break;
  }
  if (!best) best = { side: 'free', x: clampX(EDGE), y: clampY(floor + EDGE), cost: 0 };
  box.style.left = `${Math.round(best.x)}px`;
  box.style.top = `${Math.round(best.y)}px`;
  box.dataset.side = anchor ? best.side : 'free';
  const arrow = $('.coach-arrow', box);
  if (arrow && anchor && ['above', 'below'].includes(best.side)) {
    const x = Math.min(Math.max(14, anchor.left + anchor.width / 2 - best.x), w - 14);
    arrow.style.left = `${Math.round(x)}px`;
    arrow.style.top = '';
  } else if (arrow && anchor && ['left', 'right'].includes(best.side)) {
    const y = Math.min(Math.max(14, anchor.top + anchor.height / 2 - best.y), hgt - 14);
    arrow.style.top = `${Math.round(y)}px`;
    arrow.style.left = '';
  }
}

/** Once at boot: the coach follows the screen (it hides off the game screen) and its size. */
export function initTutorial() {
  const again = () => {
    const box = $('#coach');
    if (box && !box.hidden && S.view && isTutorial(S.view)) {
      const mark = markFor(S.view);
      if (mark) requestAnimationFrame(() => position(mark));
    }
  };
  // Another screen hides the coach; the phone's sheet of choices, sliding over the board,
  // moves the bubble off the choices it shows (again once the slide is over).
  new MutationObserver(() => {
    if (document.body.dataset.screen !== 'game') hideCoach();
    again();
    setTimeout(again, 320);
  }).observe(document.body, { attributes: true, attributeFilter: ['data-screen', 'data-sheet'] });
  window.addEventListener('resize', again);
  document.addEventListener('scroll', again, { capture: true, passive: true });
}
