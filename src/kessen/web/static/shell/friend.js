// Two people at one table (mode vs_human): the start screen's 友達と対戦 options, joining by a
// shared link, and the game screen's table bar: the invite and spectator links with copy
// buttons, both clocks, an opponent who lost the connection, undo requests and their answers,
// 投了 (resign, confirmed once), and a match lost on time or resigned. Game-agnostic: it reads only `view.session` (see
// docs/two-player.md for the server's side).

import { send } from './connection.js';
import { $, h, put } from './dom.js';
import { texts } from './i18n.js';
import { toast } from './overlay.js';
import { isOver, isSpectator, me } from './seats.js';
import { beginGame } from './session.js';
import { fetchJson, loadGame, S } from './state.js';

const T = texts({
  ja: {
    mode_hint_vh: '対戦を作ると招待リンクができます。最初にリンクを開いた人が相手の席に着きます（そのあとは観戦）。',
    clock: '持ち時間', clock_none: 'なし', clock_hint: '1手ごとに加算。0になった側の負け',
    invite_title: '友達にこのリンクを送ってください', invite_hint: '最初に開いた人が相手の席に着きます。二人目以降は観戦になります。',
    waiting: '相手の参加を待っています…', copy: 'コピー', copied: 'コピーしました', copy_failed: 'コピーできませんでした。リンクを選択してコピーしてください',
    spectate_link: '観戦用リンク', spectate_copy: '観戦リンクをコピー',
    away: '{who}の接続が切れました。あと{n}秒待ちます', away_clock: '{who}の接続が切れています（持ち時間が減っています）',
    away_wait: '{who}の接続が切れています。戻るのを待っています',
    undo_asked: '{who}が「一つ戻る」を求めています', undo_accept: '承諾', undo_refuse: '拒否',
    undo_waiting: '相手の返事を待っています（一つ戻る）', undo_accepted: '相手が「一つ戻る」を承諾しました',
    undo_refused: '相手が「一つ戻る」を断りました', undo_you_accepted: '「一つ戻る」を承諾しました',
    undo_you_refused: '「一つ戻る」を断りました', undo_other: '{who}の「一つ戻る」: {answer}',
    answer_yes: '承諾', answer_no: '拒否',
    timeout_win: '時間切れ：{who}の勝ち', timeout_you_win: '相手の時間切れ：あなたの勝ち', timeout_you_lose: '時間切れ：あなたの負け',
    watching: '観戦中', watching_msg: 'この招待リンクの席はすでに埋まっています。観戦します（どちらの手札も見えません）。',
    watching_link: '観戦用リンクから観戦します（どちらの手札も見えません）。',
    joined_as: '対戦に参加しました', join_failed: '参加できません', you_are: 'あなたは{seat}です',
    clock_label: '{who}の持ち時間',
    resign: '投了', resign_confirm: 'もう一度押すと投了します', resign_title: '投了する（この対戦は相手の勝ちになります）',
    resign_win: '{loser}が投了：{who}の勝ち', resign_you_win: '相手が投了しました：あなたの勝ち', resign_you_lose: '投了しました：あなたの負け',
  },
  en: {
    mode_hint_vh: 'Creating the match gives an invite link. Whoever opens it first takes the other seat (later visitors watch).',
    clock: 'Clock', clock_none: 'None', clock_hint: 'plus the increment per decision; at zero you lose',
    invite_title: 'Send this link to your friend', invite_hint: 'Whoever opens it first takes the other seat; anyone after that watches.',
    waiting: 'Waiting for your opponent to join…', copy: 'Copy', copied: 'Copied', copy_failed: 'Could not copy: select the link and copy it',
    spectate_link: 'Spectator link', spectate_copy: 'Copy spectator link',
    away: '{who} lost the connection. Waiting {n} s more', away_clock: "{who} is still away (their clock is running)",
    away_wait: '{who} lost the connection. Waiting for them to come back',
    undo_asked: '{who} asks to undo', undo_accept: 'Accept', undo_refuse: 'Refuse',
    undo_waiting: 'Waiting for the opponent to answer your undo request', undo_accepted: 'Your opponent accepted the undo',
    undo_refused: 'Your opponent refused the undo', undo_you_accepted: 'You accepted the undo',
    undo_you_refused: 'You refused the undo', undo_other: "{who}'s undo: {answer}",
    answer_yes: 'accepted', answer_no: 'refused',
    timeout_win: 'Out of time: {who} wins', timeout_you_win: 'Your opponent ran out of time: you win', timeout_you_lose: 'Out of time: you lose',
    watching: 'Watching', watching_msg: "This invite's seat is taken: you watch (neither hand is shown).",
    watching_link: 'You watch through the spectator link (neither hand is shown).',
    joined_as: 'You joined the match', join_failed: 'Cannot join', you_are: 'You play {seat}',
    clock_label: "{who}'s clock",
    resign: 'Resign', resign_confirm: 'Press again to resign', resign_title: 'Resign: your opponent wins this match',
    resign_win: '{loser} resigned: {who} wins', resign_you_win: 'Your opponent resigned: you win', resign_you_lose: 'You resigned: you lose',
  },
});

/** The clock presets of the start screen: value `bank+increment` in seconds ('' is none). */
const CLOCKS = ['', '60+5', '180+5', '300+5', '600+10'];

const F = { view: null, at: 0, sig: '', notice: null, timer: null, armed: null };

function seatWord(seat) {
  if (isSpectator()) return `P${seat + 1}`;
  return seat === me() ? T('you') : T('opp');
}

/** The link that opens `code` of game `id` (the part after # never reaches a server log). A
 *  page open at this machine's own name links the server's network address when it serves
 *  other machines (`kessen play --host`): 127.0.0.1 would mean the friend's own machine. */
export function friendLink(id, code) {
  const local = ['127.0.0.1', 'localhost', '[::1]'].includes(location.hostname);
  const origin = local && S.meta && S.meta.share ? S.meta.share : location.origin;
  return `${origin}/#join=${id}.${code}`;
}

/* ------------------------------------------------------------------ start screen */

/** Show the friend options (and hide COM's) when 友達と対戦 is picked. */
export function renderFriendStart(mode) {
  const friend = mode === 'vs_human';
  const row = $('#friend-options');
  if (!row) return;
  row.hidden = !friend;
  const com = $('#com-level') && $('#com-level').closest('fieldset');
  if (com) com.hidden = friend;
  const pace = $('#pace') && $('#pace').closest('label');
  if (pace) pace.hidden = friend;
  if (friend) $('#mode-hint').textContent = T('mode_hint_vh');
  const sel = $('#clock');
  const was = sel.value;
  put(sel, CLOCKS.map((c) => {
    const [bank, inc] = c.split('+');
    const text = c ? `${Number(bank) / 60}${S.settings.lang === 'ja' ? '分' : ' min'} + ${inc}${S.settings.lang === 'ja' ? '秒' : ' s'}` : T('clock_none');
    return h('option', { value: c, text });
  }));
  sel.value = CLOCKS.includes(was) ? was : '';
  $('#clock-label').textContent = T('clock');
  $('#clock-hint').textContent = T('clock_hint');
}

/** The start config's additions for a match between two people (its clock). */
export function friendStartConfig(mode) {
  if (mode !== 'vs_human') return {};
  const sel = $('#clock');
  const value = sel ? sel.value : '';
  if (!value) return {};
  const [bank, increment] = value.split('+').map(Number);
  return { clock: { bank, increment } };
}

/** Join the match of a shared link (`#join=<id>.<code>`) if the page was opened with one;
 *  true when a game begins. A browser that already plays or watches that match (its creator
 *  opening the invite by mistake, a reload) resumes its own seat and spends nothing. */
export async function joinFromLink() {
  const m = /^#join=([A-Za-z0-9]{1,64})\.([A-Za-z0-9_-]{1,64})$/.exec(location.hash);
  if (!m) return false;
  history.replaceState(null, '', location.pathname + location.search);
  const own = loadGame();
  if (own && own.id === m[1]) return false;
  try {
    const res = await fetchJson(`/api/games/${m[1]}/join`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: m[2] }),
    });
    beginGame({ id: res.id, token: res.token, seat: res.seat }, { ruleset: res.ruleset, mode: 'vs_human' });
    // The spectator link's code is the spectator's token; a used invite's is not.
    if (res.seat < 0) toast(T('watching'), T(res.token === m[2] ? 'watching_link' : 'watching_msg'), 'info');
    else toast(T('joined_as'), T('you_are', { seat: `P${res.seat + 1}` }), 'info');
    return true;
  } catch (err) {
    toast(T('join_failed'), String(err.message || err), 'error');
    return false;
  }
}

/* ------------------------------------------------------------------ game screen */

async function copy(input) {
  input.select();
  try {
    if (navigator.clipboard && window.isSecureContext) await navigator.clipboard.writeText(input.value);
    else if (!document.execCommand('copy')) throw new Error('copy');
    toast(T('copied'), input.value, 'info');
  } catch {
    toast(T('copy_failed'), '', 'warn');
  }
}

function linkRow(id, label, value) {
  const input = h('input', { id, class: 'fb-link', type: 'text', readonly: true, value, 'aria-label': label });
  return h('div', { class: 'fb-row' },
    h('label', { class: 'fb-label', for: id, text: label }),
    input,
    h('button', { type: 'button', class: 'tool fb-copy', id: `${id}-copy`, text: T('copy'), onclick: () => copy(input) }));
}

function mmss(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** Seconds left of each seat's clock now (the running one counted down since the view came). */
function clockNow(table) {
  const c = table.clock;
  const gone = (performance.now() - F.at) / 1000;
  return c.left.map((x, s) => (s === c.running ? Math.max(0, x - gone) : x));
}

function graceNow(table, seat) {
  const left = table.grace[String(seat)];
  return left == null ? null : Math.max(0, left - (performance.now() - F.at) / 1000);
}

/** The words of the presence line for a seat that is away, or null. */
function awayText(table, seat) {
  if (!table.joined || table.present[seat] || table.ended) return null;
  const left = graceNow(table, seat);
  const who = seatWord(seat);
  if (left != null && left > 0) return T('away', { who, n: Math.ceil(left) });
  return table.clock ? T('away_clock', { who }) : T('away_wait', { who });
}

function tickBar() {
  const v = F.view;
  if (!v || !v.session.table || $('#friend-bar').hidden) return;
  const table = v.session.table;
  if (table.clock) {
    const left = clockNow(table);
    for (const el of document.querySelectorAll('#friend-bar .fb-clock')) {
      el.querySelector('.fb-time').textContent = mmss(left[Number(el.dataset.seat)]);
      el.classList.toggle('low', left[Number(el.dataset.seat)] <= 10);
    }
  }
  for (const el of document.querySelectorAll('#friend-bar .fb-away')) {
    el.textContent = awayText(table, Number(el.dataset.seat)) || '';
  }
}

function undoLine(table) {
  const asker = table.undo_request;
  if (asker == null) return null;
  if (isSpectator()) return h('div', { class: 'fb-row fb-undo', text: T('undo_asked', { who: `P${asker + 1}` }) });
  if (asker === me()) return h('div', { class: 'fb-row fb-undo', id: 'undo-waiting', text: T('undo_waiting') });
  return h('div', { class: 'fb-row fb-undo', role: 'alert' },
    h('span', { text: T('undo_asked', { who: T('opp') }) }),
    h('button', { type: 'button', class: 'tool accent', id: 'undo-accept', text: T('undo_accept'), onclick: () => send({ type: 'undo_answer', accept: true }) }),
    h('button', { type: 'button', class: 'tool', id: 'undo-refuse', text: T('undo_refuse'), onclick: () => send({ type: 'undo_answer', accept: false }) }));
}

function endedLine(table) {
  const end = table.ended;
  if (!end) return null;
  const resigned = end.reason === 'resign';
  let text = resigned ? T('resign_win', { who: `P${end.winner + 1}`, loser: `P${2 - end.winner}` }) : T('timeout_win', { who: `P${end.winner + 1}` });
  if (!isSpectator()) {
    const won = end.winner === me();
    if (resigned) text = won ? T('resign_you_win') : T('resign_you_lose');
    else text = won ? T('timeout_you_win') : T('timeout_you_lose');
  }
  return h('div', { class: 'fb-row fb-ended', id: 'friend-ended', role: 'alert', text });
}

/** 投了: the first press arms the button (for a few seconds), the second resigns. */
function resignButton() {
  const b = h('button', { type: 'button', class: 'tool fb-resign', id: 'friend-resign', text: T('resign'), title: T('resign_title') });
  b.addEventListener('click', () => {
    if (b.classList.contains('armed')) {
      clearTimeout(F.armed);
      b.disabled = true;
      send({ type: 'resign' });
      return;
    }
    b.classList.add('armed');
    b.textContent = T('resign_confirm');
    clearTimeout(F.armed);
    F.armed = setTimeout(() => { b.classList.remove('armed'); b.textContent = T('resign'); }, 4000);
  });
  return b;
}

/** Tell each seat once how an undo request was answered. */
function noticeOnce(v, table) {
  const n = table.undo_notice;
  const key = `${v.session.id}:${n ? n.n : 0}`;
  if (F.notice === null || !n || F.notice.split(':')[0] !== v.session.id) {
    F.notice = key;
    return;
  }
  if (F.notice === key) return;
  F.notice = key;
  let text;
  if (isSpectator()) text = T('undo_other', { who: `P${n.by + 1}`, answer: n.accepted ? T('answer_yes') : T('answer_no') });
  else if (n.by === me()) text = n.accepted ? T('undo_accepted') : T('undo_refused');
  else text = n.accepted ? T('undo_you_accepted') : T('undo_you_refused');
  toast(text, '', n.accepted ? 'info' : 'warn');
}

/** Draw the table bar for a view of a match between two people (hidden otherwise). */
export function renderFriend(v) {
  const bar = $('#friend-bar');
  if (!bar) return;
  const table = v && !S.replay && v.session && v.session.table;
  document.body.classList.toggle('friend-match', !!table);
  if (!table) {
    bar.hidden = true;
    F.view = null;
    return;
  }
  if (v !== F.view) {
    F.view = v;
    F.at = performance.now();
  }
  noticeOnce(v, table);
  const sig = JSON.stringify([v.session.id, S.settings.lang, isSpectator() ? -1 : me(), table.invite, table.joined,
    table.present, Object.keys(table.grace), !!table.clock, table.clock && table.clock.running, table.undo_request, table.ended, isOver(v)]);
  bar.hidden = false;
  if (!F.timer) F.timer = setInterval(tickBar, 250);
  if (sig === F.sig && bar.childElementCount) {
    tickBar();
    return;
  }
  F.sig = sig;
  const parts = [];
  if (table.invite) {
    parts.push(h('div', { class: 'fb-title', text: T('invite_title') }));
    parts.push(linkRow('friend-invite', T('invite_title'), friendLink(v.session.id, table.invite)));
    parts.push(h('p', { class: 'fb-hint', text: T('invite_hint') }));
    parts.push(linkRow('friend-spectate', T('spectate_link'), friendLink(v.session.id, table.spectate)));
    parts.push(h('div', { class: 'fb-waiting', id: 'friend-waiting', text: T('waiting') }));
  } else if (!table.joined) {
    parts.push(h('div', { class: 'fb-waiting', id: 'friend-waiting', text: T('waiting') }));
  }
  const line = [];
  if (table.clock) {
    const order = isSpectator() ? [0, 1] : [me(), 1 - me()];
    for (const s of order) {
      line.push(h('span', {
        class: `fb-clock${table.clock.running === s ? ' running' : ''}`,
        dataset: { seat: String(s) },
        'aria-label': T('clock_label', { who: seatWord(s) }),
      }, h('span', { class: 'fb-who', text: seatWord(s) }), h('span', { class: 'fb-time', text: '' })));
    }
  }
  for (const s of [0, 1]) {
    if (!isSpectator() && s === me()) continue;
    if (awayText(table, s)) line.push(h('span', { class: 'fb-away', id: `friend-away-${s}`, dataset: { seat: String(s) }, role: 'status' }));
  }
  if (table.joined && !table.invite && table.spectate) {
    const hidden = h('input', { class: 'fb-link sr-only', type: 'text', readonly: true, tabindex: '-1', 'aria-hidden': 'true', value: friendLink(v.session.id, table.spectate) });
    line.push(h('button', { type: 'button', class: 'tool fb-copy', id: 'friend-spectate-copy', text: T('spectate_copy'), onclick: () => copy(hidden) }), hidden);
  }
  if (!isSpectator() && table.joined && !table.ended && !isOver(v)) line.push(resignButton());
  if (line.length) parts.push(h('div', { class: 'fb-row fb-line' }, line));
  parts.push(undoLine(table));
  parts.push(endedLine(table));
  put(bar, parts);
  bar.classList.toggle('inviting', !!table.invite);
  tickBar();
}
