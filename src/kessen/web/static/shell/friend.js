// Two people at one table (mode vs_human): the start screen's 友達と対戦 options (the creator
// picks only their own deck: the friend picks theirs on joining, shell/join.js), joining by a
// shared link, the waiting room until the friend has joined, and the game screen's table bar:
// the invite and spectator links with copy buttons, both clocks, an opponent who lost the
// connection, undo requests and their answers, 投了 (resign, confirmed once), a match lost on
// time or resigned, and 再戦 (a rematch both seats accept; both pages and the spectators then
// move to it). Game-agnostic: it reads only `view.session` (see docs/two-player.md for the
// server's side).

import { send } from './connection.js';
import { $, h, put } from './dom.js';
import { endedWords } from './ending.js';
import { texts } from './i18n.js';
import { openJoin, readInvite } from './join.js';
import { toast } from './overlay.js';
import { isOver, isSpectator, me } from './seats.js';
import { beginGame } from './session.js';
import { fetchJson, loadGame, S } from './state.js';

const T = texts({
  ja: {
    mode_hint_vh: '対戦を作ると招待リンクができます。最初にリンクを開いた人が自分のデッキを選んで相手の席に着きます（そのあとは観戦）。',
    clock: '持ち時間', clock_none: 'なし', clock_hint: '1手ごとに加算。0になった側の負け',
    invite_title: '友達にこのリンクを送ってください', invite_hint: '最初に開いた人が自分のデッキを選んで相手の席に着きます。二人目以降は観戦になります。',
    waiting: '友達の参加を待っています', copy: 'コピー', copied: 'コピーしました', copy_failed: 'コピーできませんでした。リンクを選択してコピーしてください',
    spectate_link: '観戦用リンク', spectate_copy: '観戦リンクをコピー',
    away: '{who}の接続が切れました。あと{n}秒待ちます', away_clock: '{who}の接続が切れています（持ち時間が減っています）',
    away_wait: '{who}の接続が切れています。戻るのを待っています',
    undo_asked: '{who}が「一つ戻る」を求めています', undo_accept: '承諾', undo_refuse: '拒否',
    undo_waiting: '相手の返事を待っています（一つ戻る）', undo_accepted: '相手が「一つ戻る」を承諾しました',
    undo_refused: '相手が「一つ戻る」を断りました', undo_you_accepted: '「一つ戻る」を承諾しました',
    undo_you_refused: '「一つ戻る」を断りました', undo_other: '{who}の「一つ戻る」: {answer}',
    answer_yes: '承諾', answer_no: '拒否',
    watching: '観戦中', watching_msg: 'この招待リンクの席はすでに埋まっています。観戦します（どちらの手札も見えません）。',
    watching_link: '観戦用リンクから観戦します（どちらの手札も見えません）。',
    joined_as: '対戦に参加しました', join_failed: '参加できません', you_are: 'あなたは{seat}です',
    clock_label: '{who}の持ち時間',
    resign: '投了', resign_confirm: 'もう一度押すと投了します', resign_title: '投了する（この対戦は相手の勝ちになります）',
    rematch: '再戦', rematch_title: '同じ設定で、席を入れ替えてもう一度対戦します（両者の承諾で始まります）',
    rematch_asked: '相手が再戦を申し込んでいます', rematch_accept: '受ける', rematch_decline: '断る',
    rematch_waiting: '再戦の返事を待っています', rematch_withdraw: '取り消す', rematch_declined: '相手が再戦を断りました',
    rematch_left: '相手は退出しました', rematch_you_declined: '再戦を断りました', rematch_moving: '再戦を始めます…',
    rematch_started: '再戦が始まりました', rematch_failed: '再戦を始められません', rematch_seat_asked: '{who}が再戦を申し込んでいます',
    rematch_accept_title: '再戦を受ける',
  },
  en: {
    mode_hint_vh: 'Creating the match gives an invite link. Whoever opens it first chooses their own deck and takes the other seat (later visitors watch).',
    clock: 'Clock', clock_none: 'None', clock_hint: 'plus the increment per decision; at zero you lose',
    invite_title: 'Send this link to your friend', invite_hint: 'Whoever opens it first picks their own deck and takes the other seat; anyone after that watches.',
    waiting: 'Waiting for your friend to join', copy: 'Copy', copied: 'Copied', copy_failed: 'Could not copy: select the link and copy it',
    spectate_link: 'Spectator link', spectate_copy: 'Copy spectator link',
    away: '{who} lost the connection. Waiting {n} s more', away_clock: "{who} is still away (their clock is running)",
    away_wait: '{who} lost the connection. Waiting for them to come back',
    undo_asked: '{who} asks to undo', undo_accept: 'Accept', undo_refuse: 'Refuse',
    undo_waiting: 'Waiting for the opponent to answer your undo request', undo_accepted: 'Your opponent accepted the undo',
    undo_refused: 'Your opponent refused the undo', undo_you_accepted: 'You accepted the undo',
    undo_you_refused: 'You refused the undo', undo_other: "{who}'s undo: {answer}",
    answer_yes: 'accepted', answer_no: 'refused',
    watching: 'Watching', watching_msg: "This invite's seat is taken: you watch (neither hand is shown).",
    watching_link: 'You watch through the spectator link (neither hand is shown).',
    joined_as: 'You joined the match', join_failed: 'Cannot join', you_are: 'You play {seat}',
    clock_label: "{who}'s clock",
    resign: 'Resign', resign_confirm: 'Press again to resign', resign_title: 'Resign: your opponent wins this match',
    rematch: 'Rematch', rematch_title: 'Play again with the same settings, seats swapped (starts once both accept)',
    rematch_asked: 'Your opponent asks for a rematch', rematch_accept: 'Accept', rematch_decline: 'Decline',
    rematch_waiting: 'Waiting for your opponent to answer the rematch', rematch_withdraw: 'Withdraw', rematch_declined: 'Your opponent declined the rematch',
    rematch_left: 'Your opponent has left', rematch_you_declined: 'You declined the rematch', rematch_moving: 'Starting the rematch…',
    rematch_started: 'The rematch has started', rematch_failed: 'Cannot start the rematch', rematch_seat_asked: '{who} asks for a rematch',
    rematch_accept_title: 'Accept the rematch',
  },
});

/** The clock presets of the start screen: value `bank+increment` in seconds ('' is none). */
const CLOCKS = ['', '60+5', '180+5', '300+5', '600+10'];

const F = { view: null, at: 0, sig: '', notice: null, timer: null, armed: null, rematchNotice: null, following: null };

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
  // The friend picks their own deck on joining: the other seat's picker goes (friend.css).
  $('#start-form').classList.toggle('friend-start', friend);
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
 *  true when a game begins or the join screen opens (shell/join.js: the guest picks their own
 *  deck, then joins). A browser that already plays or watches that match (its creator opening
 *  the invite by mistake, a reload) resumes its own seat and spends nothing. */
export async function joinFromLink() {
  const m = /^#join=([A-Za-z0-9]{1,64})\.([A-Za-z0-9_-]{1,64})$/.exec(location.hash);
  if (!m) return false;
  history.replaceState(null, '', location.pathname + location.search);
  const own = loadGame();
  if (own && own.id === m[1]) return false;
  const [, id, code] = m;
  try {
    const info = await readInvite(id, code);
    if (info.seat === 1 && info.choose) {
      await openJoin(id, code, info, (res) => joined(res, code));
      return true;
    }
    joined(await fetchJson(`/api/games/${id}/join`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    }), code);
    return true;
  } catch (err) {
    toast(T('join_failed'), String(err.message || err), 'error');
    return false;
  }
}

/** Joined (the server's answer `res` to the invite or spectator `code`): play or watch. */
function joined(res, code) {
  beginGame({ id: res.id, token: res.token, seat: res.seat }, { ruleset: res.ruleset, mode: 'vs_human' });
  // The spectator link's code is the spectator's token; a used invite's is not.
  if (res.seat < 0) toast(T('watching'), T(res.token === code ? 'watching_link' : 'watching_msg'), 'info');
  else toast(T('joined_as'), T('you_are', { seat: `P${res.seat + 1}` }), 'info');
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
  // After the end the rematch line says who left (rematchLine).
  if (!table.joined || table.present[seat] || table.ended || isOver(F.view)) return null;
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

function waitingLine() {
  return h('div', { class: 'fb-waiting', id: 'friend-waiting', role: 'status' }, h('span', { class: 'spinner' }), h('span', { text: T('waiting') }));
}

function endedLine(table) {
  const end = table.ended;
  if (!end) return null;
  const words = endedWords(end); // resigned, on time or abandoned, in the viewer's words
  return h('div', { class: 'fb-row fb-ended', id: 'friend-ended', role: 'alert', text: `${words.title} — ${words.line}` });
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

/* ------------------------------------------------------------------ rematch */

async function post(url, body) {
  return fetchJson(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/** 再戦: ask for a rematch or accept the other seat's (`accept`), or decline it or withdraw
 *  one's own; the next match, once made, is followed at once. */
async function answerRematch(accept) {
  const v = F.view;
  if (!v || !S.game) return;
  try {
    const res = await post(`/api/games/${v.session.id}/rematch`, { token: S.game.token, accept });
    if (res.next && F.following !== res.next.id) {
      F.following = res.next.id;
      startNext(res.next);
    }
  } catch (err) {
    toast(T('rematch_failed'), String(err.message || err), 'error');
  }
}

/** The rematch was made: move there. A seat asks once more for its own token of it (no view
 *  carries a token); a spectator watches it with its spectator code. */
async function followRematch(v, next) {
  if (F.following === next.id) return;
  F.following = next.id;
  try {
    const res = isSpectator()
      ? await post(`/api/games/${next.id}/join`, { code: next.spectate })
      : (await post(`/api/games/${v.session.id}/rematch`, { token: S.game.token, accept: true })).next;
    if (!res) throw new Error(T('rematch_failed'));
    startNext(res);
  } catch (err) {
    toast(T('rematch_failed'), String(err.message || err), 'error');
  }
}

function startNext(res) {
  const ruleset = res.ruleset || (F.view && F.view.ruleset);
  beginGame({ id: res.id, token: res.token, seat: res.seat }, { ruleset, mode: 'vs_human' });
  toast(T('rematch_started'), res.seat >= 0 ? T('you_are', { seat: `P${res.seat + 1}` }) : T('watching'), 'info');
}

/** Where the rematch stands for the viewer: {next, mine, theirs, left, spectatorAsked}. */
function rematchState(v, table) {
  const r = table.rematch || { asked: [], next: null };
  const you = isSpectator() ? null : me();
  return {
    next: r.next,
    mine: you != null && r.asked.includes(you),
    theirs: you != null && r.asked.includes(1 - you),
    left: you != null && !table.present[1 - you],
    asked: r.asked,
  };
}

/** The table bar's rematch line once the match is over (a spectator reads who asked). */
function rematchLine(v, table) {
  if (!table.joined || !isOver(v)) return null;
  const r = rematchState(v, table);
  const row = (...kids) => h('div', { class: 'fb-row fb-rematch', id: 'friend-rematch', role: 'status' }, ...kids);
  if (r.next) return row(h('span', { text: T('rematch_moving') }));
  if (isSpectator()) return r.asked.length ? row(h('span', { text: T('rematch_seat_asked', { who: `P${r.asked[0] + 1}` }) })) : null;
  const button = (id, key, accept, cls = 'tool') => h('button', { type: 'button', class: cls, id, text: T(key), onclick: () => answerRematch(accept) });
  if (r.theirs && !r.mine) {
    return row(h('span', { class: 'fb-undo', text: T('rematch_asked') }),
      button('friend-rematch-accept', 'rematch_accept', true, 'tool accent'), button('friend-rematch-decline', 'rematch_decline', false));
  }
  if (r.mine) return row(h('span', { text: T(r.left ? 'rematch_left' : 'rematch_waiting') }), button('friend-rematch-withdraw', 'rematch_withdraw', false));
  const ask = button('friend-rematch-ask', 'rematch', true, 'tool accent');
  ask.title = T('rematch_title');
  return row(ask, r.left ? h('span', { class: 'fb-away', text: T('rematch_left') }) : null);
}

/** Tell the asker once that the other seat declined (and the other seat that it did). */
function rematchNoticeOnce(v, table) {
  const n = table.rematch && table.rematch.notice;
  const key = `${v.session.id}:${n ? n.n : 0}`;
  if (F.rematchNotice === null || !n || F.rematchNotice.split(':')[0] !== v.session.id) {
    F.rematchNotice = key;
    return;
  }
  if (F.rematchNotice === key) return;
  F.rematchNotice = key;
  if (!isSpectator()) toast(T(n.by === me() ? 'rematch_you_declined' : 'rematch_declined'), '', n.by === me() ? 'info' : 'warn');
}

/** The result dialog of a match between two people (any game's, and the off-board one of
 *  shell/ending.js): its もう一度 becomes 再戦, which asks the other seat, and a line says
 *  where the rematch stands; a spectator gets neither. */
function decorateResult() {
  const v = F.view;
  const dialog = $('#overlay .match-over');
  if (!dialog || !v || S.replay || !v.session || !v.session.table || v.waiting) return;
  const again = $('#overlay-again', dialog);
  const buttons = $('.modal-buttons', dialog);
  if (isSpectator() || !buttons) {
    if (again) again.remove();
    return;
  }
  let ask = $('#overlay-rematch-ask', dialog);
  if (!ask) { // replaces もう一度 (its listener goes with it): a new match alone would be the creator's
    ask = h('button', { type: 'button', class: 'primary', id: 'overlay-rematch-ask', title: T('rematch_title'), onclick: () => answerRematch(true) });
    if (again) again.replaceWith(ask);
    else buttons.prepend(ask);
    for (const b of buttons.querySelectorAll('button.primary')) if (b !== ask) b.classList.remove('primary');
    buttons.before(h('p', { class: 'modal-line fb-rematch-status', id: 'overlay-rematch', role: 'status' }));
  }
  const r = rematchState(v, v.session.table);
  let status = '';
  if (r.next) status = T('rematch_moving');
  else if (r.theirs && !r.mine) status = T('rematch_asked');
  else if (r.left) status = T('rematch_left');
  else if (r.mine) status = T('rematch_waiting');
  $('#overlay-rematch', dialog).textContent = status;
  ask.textContent = r.theirs && !r.mine ? T('rematch_accept_title') : T('rematch');
  ask.disabled = !!r.next || r.mine;
  let decline = $('#overlay-rematch-decline', dialog);
  if (r.theirs && !r.mine && !r.next) {
    if (!decline) {
      decline = h('button', { type: 'button', id: 'overlay-rematch-decline', text: T('rematch_decline'), onclick: () => answerRematch(false) });
      ask.after(decline);
    }
  } else if (decline) {
    decline.remove();
  }
}

let watchingOverlay = false;

/** Decorate a result dialog as soon as a game opens it (the dialogs are the games' own). */
function watchOverlay() {
  const o = $('#overlay');
  if (watchingOverlay || !o) return;
  watchingOverlay = true;
  new MutationObserver(() => decorateResult()).observe(o, { childList: true });
}

/** Draw the table bar for a view of a match between two people (hidden otherwise). */
export function renderFriend(v) {
  const bar = $('#friend-bar');
  if (!bar) return;
  const table = v && !S.replay && v.session && v.session.table;
  document.body.classList.toggle('friend-match', !!table);
  // Waiting for the friend to join: no game yet, the bar is the whole table (friend.css).
  document.body.classList.toggle('friend-waiting', !!table && !!v.waiting);
  watchOverlay();
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
  rematchNoticeOnce(v, table);
  decorateResult();
  if (table.rematch && table.rematch.next) followRematch(v, table.rematch.next);
  const sig = JSON.stringify([v.session.id, S.settings.lang, isSpectator() ? -1 : me(), table.invite, table.joined,
    table.present, Object.keys(table.grace), !!table.clock, table.clock && table.clock.running, table.undo_request, table.ended, isOver(v),
    table.rematch, !!v.waiting]);
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
    parts.push(waitingLine());
  } else if (!table.joined) {
    parts.push(waitingLine());
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
  parts.push(rematchLine(v, table));
  put(bar, parts);
  bar.classList.toggle('inviting', !!table.invite);
  tickBar();
}
