// The guest's join screen of a match between two people: opened from an invite link, it shows
// the game, the creator's settings in words (never their secret build), the clock, and a picker
// for the guest's own deck, build or character (the starters and this machine's saved decks,
// as the start screen offers them; the server says which of them this match can take), then
// 参加する. A choice the server refuses is shown in the dialog, which stays open: the invite
// is still unused. Game-agnostic: a game's starters come from its `decks()` hook, its saved
// decks from the deck builder (shell/decks.js), its rule switches from its catalogue.

import { loadSavedDecks } from './decks.js';
import { h, put } from './dom.js';
import { t, texts } from './i18n.js';
import { closeOverlay, openOverlay } from './overlay.js';
import { gameOf, known } from './registry.js';
import { showScreen } from './session.js';
import { fetchJson, S } from './state.js';

const T = texts({
  ja: {
    jn_title: '友達との対戦に招待されています', jn_host: '相手（P1）のデッキ：{deck}', jn_setting: '{text}：{value}', jn_host_secret: '相手（P1）の構築は相手だけの秘密です',
    jn_rules: '相手が決めたルール', jn_standard: '標準のルール', jn_clock: '持ち時間', jn_clock_none: 'なし',
    jn_clock_value: '{min}分 + 1手ごとに{inc}秒', jn_pick: 'あなた（P2）のデッキ', jn_pick_twgp: 'あなた（P2）の構築',
    jn_pick_maken: 'あなた（P2）のキャラクター', jn_only: '{pick}：{choice}', jn_host_char: '相手（P1）のキャラクター：{deck}',
    jn_starters: '基本デッキ', jn_saved: '保存したデッキ', jn_join: '参加する', jn_cancel: 'やめる', jn_joining: '参加しています…',
    jn_refused: 'この選択では参加できません', jn_failed: '招待を開けません', jn_on: 'あり', jn_off: 'なし',
    jn_none_ok: '選べるものがありません。相手に別の設定で対戦を作り直してもらってください',
  },
  en: {
    jn_title: 'You are invited to a match', jn_host: 'Your opponent’s deck (P1): {deck}', jn_setting: '{text}: {value}', jn_host_secret: 'Your opponent’s build (P1) is their secret',
    jn_rules: 'Rules your opponent chose', jn_standard: 'Standard rules', jn_clock: 'Clock', jn_clock_none: 'None',
    jn_clock_value: '{min} min + {inc} s per decision', jn_pick: 'Your deck (P2)', jn_pick_twgp: 'Your build (P2)',
    jn_pick_maken: 'Your character (P2)', jn_only: '{pick}: {choice}', jn_host_char: 'Your opponent’s character (P1): {deck}',
    jn_starters: 'Starter decks', jn_saved: 'Saved decks', jn_join: 'Join', jn_cancel: 'Cancel', jn_joining: 'Joining…',
    jn_refused: 'You cannot join with this choice', jn_failed: 'Cannot open the invite', jn_on: 'on', jn_off: 'off',
    jn_none_ok: 'Nothing can be chosen: ask your friend to create the match again with other rules',
  },
});

/** The join in progress: the game, the code, the invitation and the choices offered. */
const J = { id: null, code: null, info: null, choices: [] };

async function post(url, body) {
  return fetchJson(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/** What the invite `code` of game `id` opens, the `options` checked by the server. */
export function readInvite(id, code, options = []) {
  return post(`/api/games/${id}/invite`, { code, options });
}

/** The choices a guest may be offered for `ruleset`: the starters, this machine's saved
 *  decks (those without problems) and none (a build made in the game), as {value, label,
 *  group, detail}. The server then says which of them the match can take. */
async function candidates(ruleset, settings) {
  const g = gameOf(ruleset);
  const out = [];
  // None: a build made in the game (TWGP), or, with its quick start, the cards dealt at random.
  if (g.deckBuilder) out.push({ value: null, label: g.t(settings.quickStart ? 'quick_start' : 'bd_in_game'), group: '' });
  for (const d of g.decks ? g.decks() : []) out.push({ value: d.slug, label: d.name, group: 'starters', detail: d.style || '' });
  if (g.deckBuilder && S.meta && S.meta.store && S.meta.saved_decks !== false) {
    const saved = await loadSavedDecks(ruleset).catch(() => []);
    for (const d of saved || []) {
      if (!(d.problems || []).length) out.push({ value: { saved: d.id }, label: d.name, group: 'saved' });
    }
  }
  return out;
}

/** A creator's deck as the guest reads it: a starter's name, or a saved deck's own name. */
function deckLabel(ruleset, entry) {
  if (entry == null) return '';
  if (typeof entry === 'string') return known(ruleset) && gameOf(ruleset).deckName ? gameOf(ruleset).deckName(entry) : entry;
  return entry[`name_${S.settings.lang}`] || entry.name_ja || entry.name || '';
}

function valueWord(value) {
  if (value === true) return T('jn_on');
  if (value === false || value === null) return T('jn_off');
  return String(value);
}

/** The creator's settings in words: the match length, each option or rule switch set apart
 *  from the game's default (named by the game's catalogue), never a config key. */
function settingLines(ruleset, settings, catalog) {
  const defaults = (S.meta && S.meta.rulesets[ruleset] && S.meta.rulesets[ruleset].default_config) || {};
  const lines = [];
  if (Number.isInteger(settings.best_of) && ruleset === 'kobo') lines.push(t('best_of', { n: settings.best_of }));
  const switches = (catalog && catalog.switches) || {};
  const options = (catalog && catalog.options) || {};
  for (const [key, value] of Object.entries(settings)) {
    const sw = switches[key];
    const opt = options[key];
    if (sw && sw.text) {
      const base = key in defaults ? defaults[key] : sw.default;
      if (JSON.stringify(value) !== JSON.stringify(base)) lines.push(T('jn_setting', { text: sw.text, value: valueWord(value) }));
    } else if (opt && opt.label && value === true) {
      lines.push(T('jn_setting', { text: opt.label, value: T('jn_on') }));
    }
  }
  return lines;
}

function clockLine(clock) {
  if (!clock) return T('jn_clock_none');
  return T('jn_clock_value', { min: Math.round((clock.bank / 60) * 10) / 10, inc: clock.increment });
}

function pickLabel(ruleset) {
  return ruleset === 'twgp' ? T('jn_pick_twgp') : ruleset === 'maken' ? T('jn_pick_maken') : T('jn_pick');
}

/** The picker: the choices the server accepted, in their groups, the seat's default first
 *  chosen. */
function picker(info, choices) {
  const sel = h('select', { id: 'join-deck', 'aria-labelledby': 'join-deck-label' });
  const groups = { '': [], starters: [], saved: [] };
  choices.forEach((c, i) => groups[c.group].push(h('option', { value: String(i), text: c.label, dataset: { choice: JSON.stringify(c.value) } })));
  put(sel, groups[''],
    groups.starters.length ? h('optgroup', { label: T('jn_starters') }, groups.starters) : null,
    groups.saved.length ? h('optgroup', { label: T('jn_saved') }, groups.saved) : null);
  const wanted = choices.findIndex((c) => JSON.stringify(c.value) === JSON.stringify(info.default));
  sel.value = String(wanted >= 0 ? wanted : 0);
  const detail = h('p', { class: 'jn-detail muted', id: 'join-deck-detail' });
  const show = () => { detail.textContent = (choices[Number(sel.value)] || {}).detail || ''; };
  sel.addEventListener('change', show);
  show();
  return h('div', { class: 'jn-pick' },
    h('label', { class: 'jn-label', id: 'join-deck-label', for: 'join-deck', text: pickLabel(info.ruleset) }), sel, detail);
}

/** Draw the join dialog (again after a language switch). */
function render() {
  const { info, choices, catalog } = J;
  if (!info) return;
  const ruleset = info.ruleset;
  const g = gameOf(ruleset);
  const rules = settingLines(ruleset, info.settings || {}, catalog);
  const only = choices.length === 1 && choices[0].value === null;
  const host = info.secret ? T('jn_host_secret') : T(ruleset === 'maken' ? 'jn_host_char' : 'jn_host', { deck: deckLabel(ruleset, info.host) });
  const box = h('div', { class: 'modal jn-box', role: 'dialog', id: 'join-dialog', dataset: { ruleset } },
    h('div', { class: 'modal-kicker', text: g.t('game_name') }),
    h('div', { class: 'modal-title', text: T('jn_title') }),
    info.secret || info.host != null ? h('p', { class: 'modal-line', id: 'join-host', text: host }) : null,
    h('dl', { class: 'jn-facts' },
      h('dt', { text: T('jn_rules') }),
      h('dd', { id: 'join-rules' }, rules.length ? h('ul', null, rules.map((r) => h('li', { text: r }))) : T('jn_standard')),
      h('dt', { text: T('jn_clock') }),
      h('dd', { id: 'join-clock', text: clockLine(info.clock) })),
    !choices.length ? h('p', { class: 'jn-none', text: T('jn_none_ok') })
      : only ? h('p', { class: 'jn-none', id: 'join-only', text: T('jn_only', { pick: pickLabel(ruleset), choice: choices[0].label }) })
        : picker(info, choices),
    h('p', { class: 'jn-error', id: 'join-error', role: 'alert', hidden: true }),
    h('div', { class: 'modal-buttons' },
      h('button', { type: 'button', class: 'primary', id: 'join-submit', text: T('jn_join'), disabled: !choices.length, onclick: submit }),
      h('button', { type: 'button', id: 'join-cancel', text: T('jn_cancel'), onclick: cancel })));
  openOverlay('join', box);
}

function cancel() {
  J.info = null;
  closeOverlay();
  showScreen('start');
}

/** 参加する: join with the chosen entry. A refusal stays in the dialog (the invite is still
 *  unused); a seat taken meanwhile makes this browser a spectator. */
async function submit() {
  const button = document.getElementById('join-submit');
  const error = document.getElementById('join-error');
  const sel = document.getElementById('join-deck');
  const choice = sel ? J.choices[Number(sel.value)] : J.choices[0];
  button.disabled = true;
  button.textContent = T('jn_joining');
  try {
    const body = { code: J.code, ...(choice ? { deck: choice.value } : {}) };
    const res = await post(`/api/games/${J.id}/join`, body);
    J.info = null;
    J.done(res);
  } catch (err) {
    error.hidden = false;
    put(error, h('strong', { text: T('jn_refused') }), h('span', { text: ` ${String(err.message || err)}` }));
    button.disabled = false;
    button.textContent = T('jn_join');
  }
}

/** Open the join screen of game `id` for the unused invite `code` (its invitation `info`);
 *  `done(res)` runs with the server's answer once joined. */
export async function openJoin(id, code, info, done) {
  const offered = await candidates(info.ruleset, info.settings || {});
  const checked = await readInvite(id, code, offered.map((c) => c.value));
  if (checked.seat !== 1) { // used meanwhile: the spectator's view
    done(await post(`/api/games/${id}/join`, { code }));
    return;
  }
  const catalog = await fetchJson(`/api/catalog/${info.ruleset}?lang=${S.settings.lang}`).catch(() => null);
  Object.assign(J, {
    id, code, info: checked, catalog, done,
    choices: offered.filter((_, i) => checked.options && checked.options[i] && checked.options[i].ok),
  });
  showScreen('start');
  render();
}

/** Whether the join dialog is open. */
export function joining() {
  return !!J.info;
}
