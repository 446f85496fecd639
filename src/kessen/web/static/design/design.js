// The design screen (デザイン): the frame of the designers' tools beside the deck builder. A
// header (the way back, the title, the language switch), one tab per tool and the addresses
// `#/design/<tab>/...`, so a reload comes back to the same place. Tools are tabs: balance runs
// (design/runs.js) and the card editor (design/editor.js); another tool adds its tab object
// to TABS ({id, label(), open(body, rest), render(), leave()}). Served only to the browsers of the server's own machine, as the
// saved decks are: the start screen shows the way in to them only.
//
// The design screen's own words are the table D (Japanese and English), read with dt().

import { $, h, put } from '../shell/dom.js';
import { resumeGame, showScreen } from '../shell/session.js';
import { newGame, renderStart } from '../shell/start.js';
import { setHash } from '../shell/history.js';
import { t, texts } from '../shell/i18n.js';
import { S } from '../shell/state.js';
import { runsTab } from './runs.js';
import { editorTab } from './editor.js';

export const D = {
  ja: {
    design_title: 'デザイン', design_tabs: 'デザインの道具', tab_runs: 'バランス検証',
    // the run form
    rf_title: '新しいラン', rf_game: 'ゲーム', rf_mode: 'カードデータ', rf_mode_one: '1つを検証',
    rf_mode_ab: 'A/B比較（同じシードで2つを比べる）', rf_side_a: 'A', rf_side_b: 'B', rf_side_one: 'カードデータ',
    rf_shipped: '同梱 {label}', rf_shipped_now: '同梱 {label}（現行）', rf_set: 'セット「{name}」',
    rf_no_data: 'このゲームに選べるカードデータはありません（ルールスイッチで比べられます）。',
    rf_decks: 'デッキ', rf_levels: 'COMの強さ', rf_games: '組み合わせごとの対戦数', rf_seed: 'シード',
    rf_more: '詳細設定', rf_best_of: '本勝負', rf_best_of_n: '{n}本勝負', rf_mirror: '同じデッキ同士も対戦させる',
    rf_turn_limit: 'ターン上限（空欄で既定）', rf_switches: 'ルールスイッチ', rf_standard: '（標準）',
    rf_on: 'オン', rf_off: 'オフ', rf_name: 'ランの名前（空欄で自動）', rf_total: '合計 {total}戦（{matchups}組 × {games}戦{ab}）',
    rf_total_ab: ' × A/B', rf_start: 'ランを開始', rf_starting: '開始中…', rf_where_local: '対戦はこのマシンの {n}プロセスで行います（サーバーより低い優先度）。',
    rf_where_ray: '対戦はRayクラスタで行います。', rf_problems: 'ランを開始できません',
    // the list and a run
    rl_title: 'ラン一覧', rl_empty: 'ランはまだありません。', rl_cancel: '中止',
    rl_resume: '再開', rl_back: '← ラン一覧', st_queued: '順番待ち', st_running: '実行中', st_done: '完了',
    st_stopped: '停止中', st_failed: '失敗', st_cancelled: '中止しました', rl_games: '{done} / {total}戦',
    rl_rate: '{rate}戦/秒', rl_eta: '残り約{time}', rl_eta_wait: '残り時間を計測中…', rl_ab: 'A/B',
    rl_single: '単独', rl_created: '開始 {when}', rl_failed: '失敗しました：{why}',
    rl_stopped_note: 'このランは止まっています（中止、またはサーバーの停止）。再開すると残りの対戦だけを行います。',
    rl_partial_show: '途中の結果を見る', rl_results_wait: 'ランが終わると結果が表示されます。',
    rl_progress: '進み具合', time_min_s: '{m}分{s}秒', time_s: '{s}秒', time_h_m: '{h}時間{m}分', err_runs: 'ランを読み込めません',
    err_action: '操作できませんでした',
    // results
    r_loading: '結果を読み込み中…', r_games_n: '{n}戦', r_summary: '概要', r_first: '先攻の勝率',
    r_draws: '引き分け', r_turns: 'ゲームの長さ（ターン）', r_turns_line: '平均 {mean} ・ 中央値 {median} ・ 90%点 {p90}',
    r_matrix: '相性表（行のデッキの勝率）', r_matrix_note: 'セルは行のデッキの勝率、[ ]はWilsonの95%区間、nは対戦数です。',
    r_entrants: 'デッキ・COM別の勝率（全相手）', r_entrant: 'デッキ・COM', r_rate: '勝率 [95%区間]', r_cards: 'カード別', r_cards_note: '使用：伏せた・発動した・配置した・展開したゲーム（席ごと）。勝率はその席の勝率です。',
    r_card: 'カード', r_played_n: '使用', r_played_rate: '使用時の勝率', r_drawn_n: '引いた', r_drawn_rate: '引いた時の勝率',
    r_no_cards: 'このゲームにはカード別の統計がありません。', r_games: '対戦一覧', r_replay: 'リプレイ',
    r_seat0: '先手席', r_seat1: '後手席', r_winner: '勝者', r_turns_col: 'ターン',
    r_no_winner: '勝者なし', r_more_games: 'さらに表示（残り{n}戦）', r_incomplete: '途中までの結果です（{done} / {total}戦）。',
    r_hist_note: '横軸：ターン数、縦軸：ゲーム数', r_count: '{n}ゲーム',
    // A/B
    ab_title: 'A/B比較', ab_pairs: '同じシードの対戦 {n}組を対にして比べています。', ab_sig_rule: '★有意：p < {alpha}（対になった対戦の符号検定／McNemar）。カードは対にならないため2標本のz検定です。',
    ab_sig_list: '有意に変わったもの', ab_sig_none: '有意に変わったものはありません。', ab_diff: '差 B−A', ab_p: 'p値',
    ab_verdict: '判定', ab_sig: '★有意', ab_not: '有意でない', ab_matrix_diff: '差（B−A）', ab_matchups: '組み合わせ別',
    ab_changed: '変化', ab_same: '同じ', ab_games_note: '同じ行は同じシード・同じ席の対戦です。', ab_unpaired: '対でない',
    ab_turns_line: '平均 A {a} ・ B {b} ・ 差 {diff} [{lo}, {hi}] ・ p {p}', ab_median: '中央値 A {a} ・ B {b}',
    ab_row: '項目',
  },
  en: {
    design_title: 'Design', design_tabs: 'Design tools', tab_runs: 'Balance runs',
    rf_title: 'New run', rf_game: 'Game', rf_mode: 'Card data', rf_mode_one: 'Test one',
    rf_mode_ab: 'A/B (compare two on the same seeds)', rf_side_a: 'A', rf_side_b: 'B', rf_side_one: 'Card data',
    rf_shipped: 'shipped {label}', rf_shipped_now: 'shipped {label} (current)', rf_set: 'set “{name}”',
    rf_no_data: 'This game has no card data to choose (its rule switches can be compared).',
    rf_decks: 'Decks', rf_levels: 'COM levels', rf_games: 'Games per matchup', rf_seed: 'Seed',
    rf_more: 'More settings', rf_best_of: 'Match length', rf_best_of_n: 'best of {n}', rf_mirror: 'Also play each deck against itself',
    rf_turn_limit: 'Turn limit (empty: default)', rf_switches: 'Rule switches', rf_standard: ' (standard)',
    rf_on: 'on', rf_off: 'off', rf_name: 'Run name (empty: automatic)', rf_total: '{total} games in all ({matchups} matchups × {games}{ab})',
    rf_total_ab: ' × A/B', rf_start: 'Start the run', rf_starting: 'Starting…', rf_where_local: 'Games run in {n} processes of this machine (at a lower priority than the server).',
    rf_where_ray: 'Games run on the Ray cluster.', rf_problems: 'The run cannot start',
    rl_title: 'Runs', rl_empty: 'No runs yet.', rl_cancel: 'Cancel',
    rl_resume: 'Resume', rl_back: '← Runs', st_queued: 'Queued', st_running: 'Running', st_done: 'Done',
    st_stopped: 'Stopped', st_failed: 'Failed', st_cancelled: 'Cancelled', rl_games: '{done} / {total} games',
    rl_rate: '{rate} games/s', rl_eta: 'about {time} left', rl_eta_wait: 'measuring the time left…', rl_ab: 'A/B',
    rl_single: 'single', rl_created: 'started {when}', rl_failed: 'Failed: {why}',
    rl_stopped_note: 'This run is stopped (cancelled, or the server stopped). Resuming plays only the games it lacks.',
    rl_partial_show: 'Show the results so far', rl_results_wait: 'The results show when the run ends.',
    rl_progress: 'Progress', time_min_s: '{m} min {s} s', time_s: '{s} s', time_h_m: '{h} h {m} min', err_runs: 'Cannot load the runs',
    err_action: 'That did not work',
    r_loading: 'Loading the results…', r_games_n: '{n} games', r_summary: 'Summary', r_first: 'First player wins',
    r_draws: 'Draws', r_turns: 'Game length (turns)', r_turns_line: 'mean {mean} · median {median} · p90 {p90}',
    r_matrix: 'Matchups (the row deck’s win rate)', r_matrix_note: 'Each cell is the row deck’s win rate, [ ] its Wilson 95% interval, n the games.',
    r_entrants: 'Win rate of each deck and level (against all)', r_entrant: 'Deck · level', r_rate: 'Win rate [95% interval]', r_cards: 'Cards', r_cards_note: 'Played: the seat-games in which the card was set, activated, placed or deployed; the win rate is that seat’s.',
    r_card: 'Card', r_played_n: 'Played', r_played_rate: 'Win rate when played', r_drawn_n: 'Drawn', r_drawn_rate: 'Win rate when drawn',
    r_no_cards: 'This game has no per-card statistics.', r_games: 'Games', r_replay: 'Replay',
    r_seat0: 'Seat 1', r_seat1: 'Seat 2', r_winner: 'Winner', r_turns_col: 'Turns',
    r_no_winner: 'no winner', r_more_games: 'Show more ({n} left)', r_incomplete: 'Results so far ({done} / {total} games).',
    r_hist_note: 'across: turns; up: games', r_count: '{n} games',
    ab_title: 'A/B comparison', ab_pairs: '{n} pairs of games with the same seeds are compared.', ab_sig_rule: '★ significant: p < {alpha} (sign test on the paired games / McNemar). Cards are not paired: two-proportion z test.',
    ab_sig_list: 'Changed significantly', ab_sig_none: 'Nothing changed significantly.', ab_diff: 'B − A', ab_p: 'p',
    ab_verdict: 'Verdict', ab_sig: '★ significant', ab_not: 'not significant', ab_matrix_diff: 'Difference (B − A)', ab_matchups: 'Matchups',
    ab_changed: 'changed', ab_same: 'same', ab_games_note: 'A row is the same seed and the same seats in both.', ab_unpaired: 'not paired',
    ab_turns_line: 'mean A {a} · B {b} · B − A {diff} [{lo}, {hi}] · p {p}', ab_median: 'median A {a} · B {b}',
    ab_row: 'Figure',
  },
};

/** A text of the design screen in the page's language. */
export const dt = texts(D);

const TABS = [runsTab, editorTab];
const F = { tab: null, rest: '' };

/** Whether this browser may use the design screen: a server with a store, and a browser of
 *  its own machine (the server refuses the others: server/balance_api, server/design_api). */
export function designAllowed() {
  return !!(S.meta && S.meta.store && S.meta.saved_decks !== false);
}

/** The start screen's way in: shown to the browsers that may use it. */
export function designEntry() {
  const b = $('#open-design');
  if (b) b.hidden = !designAllowed();
}

/** Keep the address in step: `#/design/<path>`. */
export function designPath(path) {
  setHash(`#/design/${path}`);
}

function tabOf(id) {
  return TABS.find((x) => x.id === id) || TABS[0];
}

function frame() {
  const tabs = $('#design-tabs');
  put(tabs, TABS.map((tab) => h('button', {
    type: 'button',
    class: `chip design-tab${F.tab === tab ? ' on' : ''}`,
    'aria-pressed': F.tab === tab ? 'true' : 'false',
    'data-tab': tab.id,
    text: tab.label(),
    onclick: () => openDesign(tab.id),
  })));
  tabs.setAttribute('aria-label', dt('design_tabs'));
  $('#design-title').textContent = dt('design_title');
  $('#design-back').textContent = S.game ? `← ${t('back_to_game')}` : `← ${t('back')}`;
}

/** Open the design screen on tab `id` at its address `rest` (e.g. `12`, `new?ruleset=kobo`). */
export function openDesign(id = TABS[0].id, rest = '') {
  if (!designAllowed()) return;
  const tab = tabOf(id);
  if (F.tab && F.tab !== tab && F.tab.leave) F.tab.leave();
  F.tab = tab;
  F.rest = rest;
  showScreen('design');
  $('#design').hidden = false;
  frame();
  designPath(rest ? `${tab.id}/${rest}` : tab.id);
  tab.open($('#design-body'), rest);
}

/** Open what the address names (`#/design`, `#/design/runs/12`); false when it names nothing. */
export function routeDesign() {
  const m = /^#\/design(?:\/([a-z]+)(?:\/(.*))?)?$/.exec(location.hash);
  if (!m || !designAllowed()) return false;
  openDesign(m[1] || TABS[0].id, m[2] || '');
  return true;
}

/** Redraw in the page's language. */
export function renderDesign() {
  if ($('#design').hidden || document.body.dataset.screen !== 'design' || !F.tab) return;
  frame();
  F.tab.render();
}

/** Leave the design screen for a new match against COM played with card set `name` of
 *  `ruleset` (its saved revision; the start screen's COM level by default). */
export async function playWithSet(ruleset, name) {
  if (F.tab && F.tab.leave) F.tab.leave();
  $('#design').hidden = true;
  setHash('');
  const meta = S.meta && S.meta.rulesets && S.meta.rulesets[ruleset];
  const com = (meta && meta.default_com) || 'heuristic';
  await newGame({ ruleset, mode: 'vs_com', com, config: { card_set: name } });
}

function leaveDesign() {
  if (F.tab && F.tab.leave) F.tab.leave();
  $('#design').hidden = true;
  setHash('');
  if (S.game) {
    resumeGame();
    return;
  }
  showScreen('start');
  renderStart();
}

/** Once at boot: the start screen's button and the way back. */
export function bindDesign() {
  const open = $('#open-design');
  if (open) open.addEventListener('click', () => openDesign());
  $('#design-back').addEventListener('click', leaveDesign);
}
