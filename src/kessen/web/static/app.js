// Kessen browser UI: start screen, the Kōbō (攻防) board, operation panel, chain log and lanes.
//
// The page talks to the server over one WebSocket per game and renders the view it receives.
// It never decides what is legal: the buttons and the glowing board elements are exactly the
// action texts of `view.pending.legal`, and clicking one sends that text back.
// A view of another ruleset is drawn by that ruleset's module (twgp.js for TWGP トランプ版);
// this file keeps the shared parts (connection, top bar tools, log, COM's reasons, settings).
// The match history and its replay viewer live in history.js and reuse these board renderers.

import {
  backToList, bindHistory, historyButton, leaveReplayToStart, onReplayKey,
  renderHistoryScreen, renderReplayOps, replayLangChanged, routeFromHash, setHash,
} from './history.js';
import * as TW from './twgp.js';

/* ================================================================== i18n */

const I18N = {
  ja: {
    tagline: '罠と戦術で応酬する二人用カードバトル。先に2勝した側がマッチの勝者です。',
    game: 'ゲーム', game_kobo: '攻防 Kōbō', game_twgp: 'TWGP トランプ版',
    game_kobo_desc: '罠と戦術のカードバトル（3本勝負）', game_twgp_desc: 'トランプ1組で遊ぶTWGPハーフ・バトル',
    f_game: 'ゲーム', setup_label: '構築', log_title_twgp: 'ログ', lane_highlight_twgp: '攻撃と応答ウィンドウの強調表示',
    mode_hint_vs_twgp: 'あなたは下側を操作します。COMの手札・チャージ・裏向きのカードは見えません。',
    mode: '対戦モード', mode_vs_com: '対COM', mode_com_vs_com: 'COM同士',
    mode_hint_vs: 'あなたは下側を操作します。COMの手札と伏せ罠は見えません。',
    mode_hint_cc: '両者をCOMが操作し、マッチ終了まで観戦します（下側の視点）。',
    mode_hint_cc_twgp: '両者をCOMが操作し、ゲーム終了まで観戦します（下側の視点）。',
    deck_you: 'あなたのデッキ', deck_opp: '相手（COM）のデッキ',
    deck_p1: '下側（P1）のデッキ', deck_p2: '上側（P2）のデッキ',
    view_list: 'デッキリストを見る', close: '閉じる',
    com_level: 'COMの強さ', com_random: 'ランダム（弱い）', com_heuristic: 'ヒューリスティック（標準）',
    advanced: '詳細設定', pace: 'COMの速さ（1手の間隔）', pace_default: 'サーバー既定',
    seed: 'シード（空欄でランダム）', start: '対戦開始', starting: '開始中…',
    undo: '一つ戻る', redo: '一つ進む', live: 'ライブに戻る', show_all: 'すべて表示',
    settings: '演出設定', motion: '画面の動き', motion_on: '通常', motion_reduced: '控えめ',
    motion_off: 'オフ', lane_highlight: '処理レーンの強調表示', show_log: '攻防連鎖ログを表示',
    show_history: '対戦履歴を表示', new_match: '新しい対戦', quit_confirm: 'もう一度押すと終了',
    log_title: '攻防連鎖', history_title: '対戦履歴', ops_title: '操作',
    you: 'あなた', opp: '相手', com_suffix: '（COM）',
    game_no: '第{n}ゲーム', best_of: '{n}本勝負', turn: 'ターン{n}', first: '先攻：{who}',
    seat_turn: '{whose}ターン', standby_phase: 'スタンバイフェイズ',
    passes: 'パス {n}回', remaining: '罠・戦術 残り{n}',
    battle_area: 'バトルエリア', strategy_area: '作戦エリア',
    negates_n: '連鎖{n}を無効', pile_main: 'メイン', pile_tactics: '戦術', pile_retreat: '撤退', pile_excluded: '除外',
    hand: 'メイン手札', thand: '戦術手札', main_deck: 'メインデッキ', tactics_deck: '戦術デッキ',
    retreat: '撤退エリア', excluded: '除外', n_cards: '{n}枚',
    info_empty: '盤面のカードや山札を押すと、ここに詳細が表示されます。',
    face_down: '裏向きのカード', face_down_hidden: 'このカードの内容は非公開です。',
    your_face_down: '伏せている罠（相手には見えません）',
    base_lv: '元Lv', cur_lv: '攻撃力', printed_lv: '印刷Lv', limited: '制限', chain_again: '連続発動',
    deck_list_public: 'デッキリスト（公開情報。順序は非公開）', left_in_deck: '残り {n}枚',
    pile_empty: 'カードはありません。', attacking: '攻撃中', targeted: '攻撃対象', chosen: '攻撃に参加',
    text_title: '本文', where_battle: '{whose}バトルエリア {n}番', where_strategy: '{whose}作戦エリア {n}番',
    where_hand: '{whose}手札', where_reveal: '{whose}公開カード', where_chain: '連鎖{n}',
    processing: '処理中', revealed: '公開中', last_exchange: '直前の攻防',
    waiting_opp: '相手の応答を待っています…', opp_thinking: '相手（COM）が考えています…',
    waiting_seat: '{who}の選択を待っています…', your_move: 'あなたの番です', your_response: 'あなたの応答です',
    priority: '優先権：{who}', spectating: '観戦中', history_view: '履歴を表示中（{step} / {steps}）',
    negated_attack: 'この攻撃は無効', match_over: 'マッチ終了', game_over: '第{n}ゲーム終了',
    winner_you: 'あなたの勝ち！', winner_opp: '相手の勝ち', winner_seat: '{who}の勝ち',
    draw_replay: '完全に同点 — 再試合', match_win_you: 'マッチ勝利！', match_win_opp: 'マッチ敗北',
    match_win_seat: '{who}のマッチ勝利', score: 'スコア', continue: '続ける', again: 'もう一度',
    to_start: 'スタート画面へ', see_board: '盤面を見る', show_result: '結果を見る',
    turns_n: '{n}ターン', in_progress: '進行中', reconnecting: '再接続中…（{n}回目）',
    connecting: '接続中…', confirm_pass_title: 'パスしますか？',
    confirm_pass_body: 'これは{n}回目のパスです。パスするとこのターンは攻撃せずに終わります。',
    confirm_pass_pen: '除外ペナルティ：{k}枚（戦術デッキの上から。尽きたら戦術手札、次に伏せた罠から選んで除外）。',
    confirm_pass_free: '除外ペナルティはありません（2回目以降のパスから発生します）。',
    confirm_yes: 'パスする', confirm_no: 'やめる',
    undo_none: '戻せる操作がありません', redo_none: '進める操作がありません',
    undo_opponent: '相手が判断した時点より前には戻れません',
    undo_learned: '新しく知った情報（引いた・公開されたカード、ランダムな結果）より前には戻れません',
    undo_over: 'マッチは終了しました。戻すことはできません（記録から再生・分岐できます）',
    undo_first: 'これ以上は戻れません', redo_live: 'ライブ表示中です',
    boundary: 'ここより前には戻れません', step: 'ステップ {step} / {steps}',
    err_refused: '受け付けられませんでした', err_malformed: '不正なメッセージ', err_invalid: '不正なメッセージ',
    err_too_large: 'メッセージが大きすぎます', err_unknown_game: '対戦が見つかりません',
    err_evicted: 'この対戦は終了し、サーバーから閉じられました（対戦記録から見られます）',
    err_rate_limited: '操作が多すぎます。少し待ってください', err_too_deep: '不正なメッセージ',
    err_binary: '不正なメッセージ', err_internal: 'サーバーエラー',
    err_start: '対戦を開始できません', err_network: '接続エラー', err_generic: 'エラー',
    dismiss: '閉じる', named: '指名済み：{list}', chosen_attackers: '攻撃キャラ：{list}（合計Lv{total}）',
    cap_note: '2体以上で攻撃するときは、合計Lvが攻撃対象のLv＋1以下でなければなりません。',
    no_action: '今は選ぶものがありません。', match_over_ops: 'マッチは終了しました。',
    reason_wipeout: '全滅', reason_both_wiped: '両者全滅（残りの罠・戦術の枚数で判定）',
    reason_exhausted: '罠・戦術が尽きた（攻撃力合計で判定）', reason_turn_limit: 'ターン上限（攻撃力合計で判定）',
    pt_standby: 'スタンバイ', pt_place: '配置', pt_set: '罠を伏せる', pt_deploy: '展開カード',
    pt_deploy_target: '対象を選ぶ', pt_nominate: '援軍指名', pt_blind: '伏せカードを選ぶ',
    pt_tactics: '戦術手札を選ぶ', pt_turn: '攻撃またはパス', pt_declare: '攻撃宣言',
    pt_chain: '攻防連鎖', pt_target: '対象を選ぶ', pt_tie: '攻撃結果（同数）', pt_penalty: '除外ペナルティ',
    pr_standby: 'メイン手札から次に処理するカードを選んでください（残り{n}枚）。',
    pr_place: '「{card}」を出すバトルエリアの空き枠を選んでください。',
    pr_set: '罠「{card}」を伏せる作戦エリアの枠を選ぶか、使わずに撤退エリアへ置きます。',
    pr_deploy: '展開カード「{card}」を使いますか？',
    pr_deploy_target: '「{card}」の対象にするキャラを選んでください。',
    pr_nominate: '援軍指名：メインデッキのキャラを、名前の異なる3体まで1体ずつ指名します（{n}体目）。',
    pr_blind: '相手の援軍指名：裏向きのカードから1枚を選んでください。選んだキャラが相手の場に召喚されます。',
    pr_tactics: '戦術デッキから戦術手札にするカードを選んでください（あと{n}枚）。',
    pr_turn: '攻撃するキャラを選ぶか、パスします。',
    pr_declare: '攻撃キャラを追加するか、攻撃対象を選んでください。',
    pr_chain: '罠・戦術カードを発動するか、パスします。',
    pr_target: '「{card}」の対象を選んでください。',
    pr_tie: '撤退させる攻撃キャラを1体選んでください。',
    pr_penalty: '除外するカードを選んでください（あと{n}枚）。',
    pr_unknown: '選択してください。',
    a_pick: '「{name}」', a_place: 'バトルエリア {n}番に出す', a_set: '作戦エリア {n}番に伏せる',
    a_discard: '使わずに撤退エリアへ置く', a_use: '使う', a_choose: '{side}{n}番「{name}」（Lv{lv}）',
    side_own: '自分', side_opp: '相手', a_name: '「{name}」を指名', a_blind: '{n}枚目を選ぶ',
    a_take: '「{name}」', a_attack_with: '{n}番「{name}」（Lv{lv}）で攻撃',
    a_add: '{n}番「{name}」（Lv{lv}）を攻撃に加える', a_target: '相手{n}番「{name}」（Lv{lv}）を攻撃',
    a_pass_turn: 'パス（攻撃しない）', a_pass_chain: 'パス（発動しない）',
    a_play: '戦術「{name}」を発動', a_trap: '罠「{name}」を発動（{n}番）',
    a_tie: '{n}番「{name}」を撤退させる', a_exclude: '「{name}」を除外',
    a_exclude_trap: '伏せた罠 {n}番「{name}」を除外', slot_n: '{n}番',
    matches_title: '対戦記録', back: '戻る', back_to_game: '対戦に戻る',
    f_deck: 'デッキ', f_result: '結果', f_source: '種類', f_since: '開始日', f_until: '終了日',
    f_clear: '条件をクリア', f_all: 'すべて',
    r_p1: 'P1の勝ち', r_p2: 'P2の勝ち', r_none: '勝者なし', r_open: '進行中', r_abandoned: '中断',
    src_server: '対戦', src_branch: '続き', src_sim: 'シミュレーション', src_import: '取り込み', src_play: '記録',
    branch_of: '#{id}の{step}手目から',
    col_when: '日時', col_decks: 'デッキ', col_players: '対戦者', col_result: '結果', col_steps: '手数', col_source: '種類',
    n_steps: '{n}手', human: 'あなた', prev_page: '‹ 前へ', next_page: '次へ ›', page_range: '{from}–{to}件目',
    mh_empty: '条件に合う対戦はありません。', mh_loading: '読み込み中…', open: '開く',
    replay: 'リプレイ', replay_title: '再生', replay_step: 'ステップ {step} / {steps}',
    turn_label: '第{g}ゲーム · ターン{n}', standby_label: '第{g}ゲーム · スタンバイ',
    rp_seek: 'ステップ', rp_prev_turn: '前のターン (PageUp)', rp_next_turn: '次のターン (PageDown)',
    rp_prev: '一つ戻る (←)', rp_next: '一つ進む (→)', rp_play: '再生 (Space)', rp_pause: '一時停止 (Space)',
    rp_turn: 'ターン', rp_speed: '速さ', rp_seat: '視点', seat_p1: 'P1', seat_p2: 'P2', seat_all: 'すべて',
    rp_all_locked: '「すべて」はマッチ終了後に選べます。', rp_all_why: '非公開のカードを守るため、「すべて」はマッチ終了後に選べます。',
    rp_seat_locked: '対戦中のCOMの視点は見られません（手札が見えてしまうため）。',
    rp_start: '開始時の局面', rp_move: '{who}：{action}',
    rp_continue: 'この局面から対戦', rp_continue_note: 'あなた：{seat} ／ 相手：COM（{com}）', seat_viewing: 'P{n}（視点）',
    rp_continue_over: 'この局面ではマッチが終わっています。',
    // The same texts for a record of single games (TWGP: no best-of match): history.js `rt`.
    rp_all_locked_game: '「すべて」はゲーム終了後に選べます。', rp_all_why_game: '非公開のカードを守るため、「すべて」はゲーム終了後に選べます。',
    rp_seat_locked_game: '対戦中のCOMの視点は見られません（手札が見えてしまうため）。',
    rp_continue_over_game: 'この局面ではゲームが終わっています。',
    err_replay: 'リプレイを開けません', err_continue: 'この局面から始められません', err_history: '対戦記録を読み込めません',
    why_title: 'COMの判断', show_why: 'COMの判断を表示', why_none: 'COMはまだ判断していません。',
    why_chose: '選んだ手', why_hidden: 'COMの手札に関わる判断のため候補は非表示',
    why_no_cands: 'このCOMは候補を記録しません。', why_visits: '探索回数', why_value: '評価値',
    act_pass: 'パス', act_attack: '{n}番で攻撃', act_target: '相手の{n}番を攻撃', act_trap: '罠を発動（{n}番）',
    act_play: '戦術「{name}」', act_slot: '{n}番', act_pick: '「{name}」', act_pick_n: '{n}枚目',
    act_take: '「{name}」を取る', act_name: '「{name}」を指名', act_use: '使う', act_discard: '使わない',
    act_exclude: '「{name}」を除外', act_exclude_trap: '伏せた罠 {n}番を除外', act_secret: '非公開の選択',
  },
  en: {
    tagline: 'A two-player card battle of traps and tactics. The first to win two games wins the match.',
    game: 'Game', game_kobo: 'Kōbō (攻防)', game_twgp: 'TWGP playing-card edition',
    game_kobo_desc: 'A card battle of traps and tactics (best of three)', game_twgp_desc: 'The TWGP half battle with one pack of playing cards',
    f_game: 'Game', setup_label: 'Building', log_title_twgp: 'Log', lane_highlight_twgp: 'Highlight attacks and the response window',
    mode_hint_vs_twgp: "You play the bottom seat. COM's hand, charge and face-down cards stay hidden.",
    mode: 'Mode', mode_vs_com: 'vs COM', mode_com_vs_com: 'COM vs COM',
    mode_hint_vs: "You play the bottom seat. COM's hands and face-down traps stay hidden.",
    mode_hint_cc: "COM plays both seats; watch the match to the end (bottom seat's view).",
    mode_hint_cc_twgp: "COM plays both seats; watch the game to the end (bottom seat's view).",
    deck_you: 'Your deck', deck_opp: "Opponent's (COM) deck",
    deck_p1: 'Bottom (P1) deck', deck_p2: 'Top (P2) deck',
    view_list: 'View deck list', close: 'Close',
    com_level: 'COM strength', com_random: 'Random (weak)', com_heuristic: 'Heuristic (standard)',
    advanced: 'Advanced', pace: 'COM pace (seconds per move)', pace_default: 'Server default',
    seed: 'Seed (blank: random)', start: 'Start match', starting: 'Starting…',
    undo: 'Undo', redo: 'Redo', live: 'Back to live', show_all: 'Show all',
    settings: 'Display', motion: 'Screen motion', motion_on: 'On', motion_reduced: 'Reduced',
    motion_off: 'Off', lane_highlight: 'Highlight the resolve lane', show_log: 'Show the chain log',
    show_history: 'Show the match history', new_match: 'New match', quit_confirm: 'Press again to leave',
    log_title: 'Chain log', history_title: 'Match history', ops_title: 'Actions',
    you: 'You', opp: 'Opponent', com_suffix: ' (COM)',
    game_no: 'Game {n}', best_of: 'Best of {n}', turn: 'Turn {n}', first: 'First: {who}',
    seat_turn: '{whose} turn', standby_phase: 'Standby phase',
    passes: 'Passes: {n}', remaining: 'Traps+tactics: {n}',
    battle_area: 'Battle area', strategy_area: 'Strategy area',
    negates_n: 'negates {n}', pile_main: 'Main', pile_tactics: 'Tactics', pile_retreat: 'Retreat', pile_excluded: 'Excluded',
    hand: 'Main hand', thand: 'Tactics hand', main_deck: 'Main deck', tactics_deck: 'Tactics deck',
    retreat: 'Retreat', excluded: 'Excluded', n_cards: '{n} cards',
    info_empty: 'Press a card or a deck on the board to see its details here.',
    face_down: 'Face-down card', face_down_hidden: 'Its identity is hidden.',
    your_face_down: 'Your face-down trap (hidden from the opponent)',
    base_lv: 'Base Lv', cur_lv: 'Lv', printed_lv: 'Printed Lv', limited: 'Limited', chain_again: 'Consecutive',
    deck_list_public: 'Deck list (public; the order is hidden)', left_in_deck: '{n} cards left',
    pile_empty: 'No cards.', attacking: 'Attacking', targeted: 'Target', chosen: 'Attacker',
    text_title: 'Card text', where_battle: '{whose} battle slot {n}', where_strategy: '{whose} strategy slot {n}',
    where_hand: '{whose} hand', where_reveal: '{whose} revealed cards', where_chain: 'Link {n}',
    processing: 'Processing', revealed: 'Revealed', last_exchange: 'Last exchange',
    waiting_opp: "Waiting for the opponent's response…", opp_thinking: 'COM is thinking…',
    waiting_seat: 'Waiting for {who}…', your_move: 'Your move', your_response: 'Your response',
    priority: 'Priority: {who}', spectating: 'Spectating', history_view: 'Viewing history ({step} / {steps})',
    negated_attack: 'Attack negated', match_over: 'Match over', game_over: 'Game {n} over',
    winner_you: 'You win!', winner_opp: 'The opponent wins', winner_seat: '{who} wins',
    draw_replay: 'Complete tie — replayed', match_win_you: 'You won the match!', match_win_opp: 'You lost the match',
    match_win_seat: '{who} wins the match', score: 'Score', continue: 'Continue', again: 'Play again',
    to_start: 'Start screen', see_board: 'See the board', show_result: 'Show result',
    turns_n: '{n} turns', in_progress: 'in progress', reconnecting: 'Reconnecting… (attempt {n})',
    connecting: 'Connecting…', confirm_pass_title: 'Pass this turn?',
    confirm_pass_body: 'This will be pass number {n}. Your turn ends without an attack.',
    confirm_pass_pen: 'Exclusion penalty: {k} card(s) (from the top of your tactics deck; when it is empty, chosen from your tactics hand, then your face-down traps).',
    confirm_pass_free: 'No exclusion penalty (it starts with your 2nd pass).',
    confirm_yes: 'Pass', confirm_no: 'Cancel',
    undo_none: 'Nothing to undo', redo_none: 'Nothing to redo',
    undo_opponent: "Cannot undo past the opponent's decision",
    undo_learned: 'Cannot undo past something you learned (a card drawn or shown, a random outcome)',
    undo_over: 'The match is over: nothing can be undone (replay or branch it from its record)',
    undo_first: 'Already at the first step', redo_live: 'Already live',
    boundary: 'Undo stops here', step: 'Step {step} / {steps}',
    err_refused: 'Refused', err_malformed: 'Invalid message', err_invalid: 'Invalid message',
    err_too_large: 'Message too large', err_unknown_game: 'Game not found',
    err_evicted: 'This match has ended and was closed on the server (see the match history)',
    err_rate_limited: 'Too many actions: wait a moment', err_too_deep: 'Invalid message',
    err_binary: 'Invalid message', err_internal: 'Server error',
    err_start: 'Could not start the match', err_network: 'Connection error', err_generic: 'Error',
    dismiss: 'Dismiss', named: 'Named: {list}', chosen_attackers: 'Attackers: {list} (total Lv {total})',
    cap_note: "With two or more attackers, their total Lv may be at most the target's Lv + 1.",
    no_action: 'Nothing to choose right now.', match_over_ops: 'The match is over.',
    reason_wipeout: 'wipe-out', reason_both_wiped: 'both wiped out (remaining traps and tactics)',
    reason_exhausted: 'out of traps and tactics (total Lv)', reason_turn_limit: 'turn limit (total Lv)',
    pt_standby: 'Standby', pt_place: 'Placement', pt_set: 'Set a trap', pt_deploy: 'Deploy card',
    pt_deploy_target: 'Choose a character', pt_nominate: 'Reinforcement Call', pt_blind: 'Blind pick',
    pt_tactics: 'Tactics hand', pt_turn: 'Attack or pass', pt_declare: 'Attack declaration',
    pt_chain: 'Chain', pt_target: 'Choose a target', pt_tie: 'Attack result (tie)', pt_penalty: 'Exclusion penalty',
    pr_standby: 'Choose the next card of your main hand to process ({n} left).',
    pr_place: 'Choose an empty battle slot for {card}.',
    pr_set: 'Set the trap {card} face down in a strategy slot, or discard it unused.',
    pr_deploy: 'Use the deploy card {card}?',
    pr_deploy_target: 'Choose the character for {card}.',
    pr_nominate: 'Reinforcement Call: name characters of your main deck, three different names, one at a time (#{n}).',
    pr_blind: "The opponent's Reinforcement Call: pick one of the face-down cards. It is summoned to the opponent's side.",
    pr_tactics: 'Choose cards of your tactics deck for your tactics hand ({n} more).',
    pr_turn: 'Choose a character to attack with, or pass.',
    pr_declare: 'Add another attacker, or choose the attack target.',
    pr_chain: 'Activate a trap or a tactic, or pass.',
    pr_target: 'Choose the target of {card}.',
    pr_tie: 'Choose one attacker to retreat.',
    pr_penalty: 'Choose a card to exclude ({n} more).',
    pr_unknown: 'Make a choice.',
    a_pick: '{name}', a_place: 'Battle slot {n}', a_set: 'Strategy slot {n}',
    a_discard: 'Discard unused', a_use: 'Use it', a_choose: '{side} slot {n}: {name} (Lv {lv})',
    side_own: 'Your', side_opp: "Opponent's", a_name: 'Name {name}', a_blind: 'Pick card {n}',
    a_take: '{name}', a_attack_with: 'Attack with {name} (slot {n}, Lv {lv})',
    a_add: 'Add {name} (slot {n}, Lv {lv})', a_target: 'Attack {name} (slot {n}, Lv {lv})',
    a_pass_turn: 'Pass (no attack)', a_pass_chain: 'Pass (activate nothing)',
    a_play: 'Play the tactic {name}', a_trap: 'Activate the trap {name} (slot {n})',
    a_tie: 'Retreat {name} (slot {n})', a_exclude: 'Exclude {name}',
    a_exclude_trap: 'Exclude the face-down trap {name} (slot {n})', slot_n: 'slot {n}',
    matches_title: 'Recorded matches', back: 'Back', back_to_game: 'Back to the game',
    f_deck: 'Deck', f_result: 'Result', f_source: 'Kind', f_since: 'From', f_until: 'To',
    f_clear: 'Clear filters', f_all: 'All',
    r_p1: 'P1 won', r_p2: 'P2 won', r_none: 'No winner', r_open: 'In progress', r_abandoned: 'Abandoned',
    src_server: 'Game', src_branch: 'Continued', src_sim: 'Simulation', src_import: 'Imported', src_play: 'Recorded',
    branch_of: 'from #{id}, step {step}',
    col_when: 'Date', col_decks: 'Decks', col_players: 'Players', col_result: 'Result', col_steps: 'Steps', col_source: 'Kind',
    n_steps: '{n} steps', human: 'You', prev_page: '‹ Previous', next_page: 'Next ›', page_range: '{from}–{to}',
    mh_empty: 'No match fits these filters.', mh_loading: 'Loading…', open: 'Open',
    replay: 'Replay', replay_title: 'Replay', replay_step: 'Step {step} / {steps}',
    turn_label: 'Game {g} · Turn {n}', standby_label: 'Game {g} · Standby',
    rp_seek: 'Step', rp_prev_turn: 'Previous turn (PageUp)', rp_next_turn: 'Next turn (PageDown)',
    rp_prev: 'Step back (←)', rp_next: 'Step forward (→)', rp_play: 'Play (Space)', rp_pause: 'Pause (Space)',
    rp_turn: 'Turn', rp_speed: 'Speed', rp_seat: 'View', seat_p1: 'P1', seat_p2: 'P2', seat_all: 'All',
    rp_all_locked: '"All" opens once the match is over.', rp_all_why: '"All" opens once the match is over: hidden cards stay hidden until then.',
    rp_seat_locked: "A COM seat's view stays closed while the match is on (it would show its hand).",
    rp_start: 'The opening position', rp_move: '{who}: {action}',
    rp_continue: 'Play on from here', rp_continue_note: 'You: {seat} · opponent: COM ({com})', seat_viewing: 'P{n} (view)',
    rp_continue_over: 'The match is over at this step.',
    rp_all_locked_game: '"All" opens once the game is over.', rp_all_why_game: '"All" opens once the game is over: hidden cards stay hidden until then.',
    rp_seat_locked_game: "A COM seat's view stays closed while the game is on (it would show its hand).",
    rp_continue_over_game: 'The game is over at this step.',
    err_replay: 'Cannot open the replay', err_continue: 'Cannot start from this step', err_history: 'Cannot load the recorded matches',
    why_title: "COM's reasoning", show_why: "Show COM's reasoning", why_none: 'COM has not decided anything yet.',
    why_chose: 'Chose', why_hidden: "Candidates hidden: they would reveal COM's cards",
    why_no_cands: 'This COM level keeps no candidate list.', why_visits: 'visits', why_value: 'value',
    act_pass: 'Pass', act_attack: 'Attack with slot {n}', act_target: 'Attack slot {n}', act_trap: 'Trap (slot {n})',
    act_play: 'Tactic {name}', act_slot: 'Slot {n}', act_pick: '{name}', act_pick_n: 'Card {n}',
    act_take: 'Take {name}', act_name: 'Name {name}', act_use: 'Use', act_discard: 'Discard',
    act_exclude: 'Exclude {name}', act_exclude_trap: 'Exclude the face-down trap {n}', act_secret: 'a hidden choice',
  },
};

const KIND_ORDER = ['character', 'deploy', 'trap', 'tactic'];
const STORE_SETTINGS = 'kobo.settings';
const STORE_GAME = 'kobo.game';
const STORE_TOKENS = 'kobo.tokens';

/* ================================================================== state */

const S = {
  settings: loadSettings(),
  meta: null,
  catalogs: {},
  view: null,
  game: null, // {id, token, seat, cfg}
  ws: null,
  wsSerial: 0,
  reconnectAttempt: 0,
  reconnectTimer: null,
  awaiting: null, // prompt id we answered and wait to see replaced
  confirm: null, // {action, promptId}
  hover: null, // action text under the pointer in the operation panel
  info: null, // what CARD INFORMATION shows
  infoMap: new WeakMap(),
  opsSig: '',
  logSig: '',
  prevKeys: new Map(),
  renderQueued: false,
  overlay: null,
  dismissedMatch: null,
  replay: null, // the replay viewer (history.js) while it is open
  whySig: '',
};

function loadSettings() {
  const base = { lang: 'ja', motion: 'auto', lane: true, logOpen: true, histOpen: true, whyOpen: true, replaySpeed: 1, game: 'kobo' };
  try {
    return { ...base, ...JSON.parse(localStorage.getItem(STORE_SETTINGS) || '{}') };
  } catch {
    return base;
  }
}

function saveSettings() {
  try {
    localStorage.setItem(STORE_SETTINGS, JSON.stringify(S.settings));
  } catch { /* storage may be unavailable */ }
}

function loadGame() {
  try {
    const g = JSON.parse(localStorage.getItem(STORE_GAME) || 'null');
    return g && g.id && g.token ? g : null;
  } catch {
    return null;
  }
}

/** The tokens of this browser's recent games: they open its own unfinished matches' records. */
function ownTokens() {
  try {
    const kept = JSON.parse(localStorage.getItem(STORE_TOKENS) || '[]');
    return Array.isArray(kept) ? kept.filter((x) => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

function saveGame(game) {
  try {
    if (game && game.token) {
      const kept = [game.token, ...ownTokens().filter((x) => x !== game.token)].slice(0, 16);
      localStorage.setItem(STORE_TOKENS, JSON.stringify(kept));
    }
    if (game) localStorage.setItem(STORE_GAME, JSON.stringify(game));
    else localStorage.removeItem(STORE_GAME);
  } catch { /* ignore */ }
}

/* ================================================================== helpers */

const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

function h(tag, props, ...kids) {
  const e = document.createElement(tag);
  if (props) {
    for (const [k, v] of Object.entries(props)) {
      if (v == null || v === false) continue;
      if (k === 'class') e.className = v;
      else if (k === 'text') e.textContent = v;
      else if (k === 'dataset') Object.assign(e.dataset, v);
      else if (k === 'style') e.style.cssText = String(v); // CSSOM: allowed by the CSP, unlike a style attribute
      else if (k.startsWith('on') && typeof v === 'function') e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? '' : String(v));
    }
  }
  for (const kid of kids.flat(3)) {
    if (kid == null || kid === false) continue;
    e.append(kid instanceof Node ? kid : String(kid));
  }
  return e;
}

/** Replace the children of `el`, skipping null/false (replaceChildren would print "null"). */
function put(el, ...kids) {
  el.replaceChildren(...kids.flat(3).filter((k) => k != null && k !== false));
  return el;
}

function t(key, params) {
  const table = I18N[S.settings.lang] || I18N.ja;
  let s = table[key] ?? I18N.ja[key] ?? key;
  if (params) for (const [k, v] of Object.entries(params)) s = s.split(`{${k}}`).join(String(v));
  return s;
}

function cat() {
  return S.catalogs[S.settings.lang] || S.catalogs.ja || { cards: {}, decks: {} };
}

function cardDef(slug) {
  return cat().cards[slug] || (S.catalogs.ja && S.catalogs.ja.cards[slug]) || null;
}

function cardName(slug) {
  const d = cardDef(slug);
  return d ? d.name : slug;
}

function splitAction(text) {
  const i = text.indexOf(' ');
  return i < 0 ? [text, ''] : [text.slice(0, i), text.slice(i + 1)];
}

/* ============================================================ seats and names */

function me() {
  const v = S.view;
  if (!v) return 0;
  return v.session.you ?? (v.viewer ?? 0);
}

function isSpectator() {
  return !S.view || S.view.session.you == null;
}

/** The ruleset a view belongs to ("kobo" for views that do not say). */
function rulesetOf(v) {
  return (v && v.ruleset) || 'kobo';
}

/** True once the match (Kōbō) or the game (TWGP) of a view is over. */
function isOver(v) {
  if (!v) return true;
  return v.match ? !!v.match.over : !!v.outcome;
}

/** The name of a prompt kind in the current language, for any ruleset. */
function promptLabel(prompt, ruleset) {
  if (ruleset === 'twgp') return TW.promptName(prompt);
  return t(`pt_${prompt}`);
}

/** A short text for an action taken, for any ruleset. */
function anyActionText(text, prompt, ruleset) {
  return ruleset === 'twgp' ? TW.actionText(text) : actionText(text, prompt);
}

function seatName(seat) {
  if (seat == null || seat < 0) return '?';
  if (isSpectator()) return `P${seat + 1}`;
  return seat === me() ? t('you') : t('opp');
}

/** A seat as the owner of something, for any ruleset: 「あなたの」「相手の」「P1の」, "Your",
 * "Opponent's", "P1's" (`lower` for the middle of an English sentence). Texts put it where a
 * possessive goes (`{whose} turn`): appending "'s" to a seat name would make "You's". */
function whoseOf(seat, lower = false) {
  const name = seatName(seat);
  if (S.settings.lang === 'ja') return `${name}の`;
  if (!isSpectator() && seat === me()) return lower ? 'your' : 'Your';
  return `${name}'s`;
}

function seatLabel(seat) {
  const v = S.view;
  const com = v && v.session.com && v.session.com[String(seat)];
  // A replay names seats P1/P2 (the viewed seat may be COM's): the log says whose view it is.
  if (S.replay) {
    const name = !isSpectator() && seat === me() ? t('seat_viewing', { n: seat + 1 }) : `P${seat + 1}`;
    return `${name}${com ? ' · COM' : ''}`;
  }
  if (isSpectator()) return `P${seat + 1}${com ? ' · COM' : ''}`;
  return seat === me() ? t('you') : t('opp') + (com ? t('com_suffix') : '');
}

/* ================================================================== settings */

function effectiveMotion() {
  if (S.settings.motion && S.settings.motion !== 'auto') return S.settings.motion;
  const reduce = window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  return reduce ? 'reduced' : 'on';
}

function applySettings() {
  const b = document.body;
  for (const m of ['on', 'reduced', 'off']) b.classList.toggle(`motion-${m}`, effectiveMotion() === m);
  b.classList.toggle('lane-hl', !!S.settings.lane);
  $('#log-panel').classList.toggle('folded', !S.settings.logOpen);
  $('#hist-panel').classList.toggle('folded', !S.settings.histOpen);
  $('#why-panel').classList.toggle('folded', !S.settings.whyOpen);
  const allFolded = !S.settings.logOpen && !S.settings.histOpen && (!S.settings.whyOpen || !!S.replay);
  $('#left').classList.toggle('collapsed', allFolded);
  $('#table').classList.toggle('left-collapsed', allFolded);
  for (const r of $$('input[name=motion]')) r.checked = r.value === effectiveMotion();
  $('#set-lane').checked = !!S.settings.lane;
  $('#set-log').checked = !!S.settings.logOpen;
  $('#set-hist').checked = !!S.settings.histOpen;
  $('#set-why').checked = !!S.settings.whyOpen;
  document.documentElement.lang = S.settings.lang;
  for (const c of $$('[data-lang]')) c.classList.toggle('on', c.dataset.lang === S.settings.lang);
  applyRuleset();
}

/** Texts and layout of the game screen that depend on the ruleset on screen. */
function applyRuleset() {
  const twgp = rulesetOf(S.view) === 'twgp' && !$('#game').hidden;
  document.body.classList.toggle('rs-twgp', twgp);
  $('#brand-mark').textContent = twgp ? 'TWGP' : '攻防';
  $('#log-title').textContent = twgp ? t('log_title_twgp') : t('log_title');
  $('#lane-label').textContent = twgp ? t('lane_highlight_twgp') : t('lane_highlight');
  document.title = twgp ? 'TWGP トランプ版 — Kessen' : '攻防 Kōbō — Kessen';
}

function applyStaticTexts() {
  for (const e of $$('[data-i18n]')) e.textContent = t(e.dataset.i18n);
  $('#log-head').title = t('log_title');
  $('#hist-head').title = t('history_title');
  $('#why-head').title = t('why_title');
}

async function setLang(lang) {
  if (!I18N[lang]) return;
  S.settings.lang = lang;
  saveSettings();
  applySettings();
  applyStaticTexts();
  await Promise.all([ensureCatalog(lang), TW.ensureCatalog(lang).catch(() => null)]);
  TW.reset();
  applyRuleset();
  if (S.ws && S.ws.readyState === WebSocket.OPEN) send({ type: 'lang', lang });
  renderStart();
  renderHistoryScreen();
  replayLangChanged();
  S.opsSig = '';
  S.logSig = '';
  S.whySig = '';
  scheduleRender();
}

/* ================================================================== network */

async function fetchJson(url, init) {
  const r = await fetch(url, init);
  const body = await r.json().catch(() => null);
  if (!r.ok) {
    const detail = body && body.detail ? (typeof body.detail === 'string' ? body.detail : JSON.stringify(body.detail)) : r.statusText;
    throw new Error(detail);
  }
  return body;
}

async function ensureCatalog(lang) {
  if (!S.catalogs[lang]) S.catalogs[lang] = await fetchJson(`/api/catalog/kobo?lang=${lang}`);
  return S.catalogs[lang];
}

function wsUrl(game) {
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${proto}://${location.host}/ws/${encodeURIComponent(game.id)}?token=${encodeURIComponent(game.token)}`;
}

function send(msg) {
  if (!S.ws || S.ws.readyState !== WebSocket.OPEN) {
    toast(t('err_network'), t('reconnecting', { n: S.reconnectAttempt || 1 }), 'warn');
    return false;
  }
  S.ws.send(JSON.stringify(msg));
  return true;
}

function connect() {
  const game = S.game;
  if (!game) return;
  clearTimeout(S.reconnectTimer);
  const serial = ++S.wsSerial;
  let ws;
  try {
    ws = new WebSocket(wsUrl(game));
  } catch (err) {
    scheduleReconnect();
    return;
  }
  S.ws = ws;
  document.body.dataset.conn = 'connecting';
  ws.onopen = () => {
    if (serial !== S.wsSerial) return;
    S.reconnectAttempt = 0;
    $('#reconnect').hidden = true;
    document.body.dataset.conn = 'open';
    if (S.settings.lang !== 'ja') ws.send(JSON.stringify({ type: 'lang', lang: S.settings.lang }));
    if (S.game && S.game.showAll) ws.send(JSON.stringify({ type: 'show_all', on: true }));
  };
  ws.onmessage = (ev) => {
    if (serial !== S.wsSerial) return;
    let msg;
    try {
      msg = JSON.parse(ev.data);
    } catch {
      return;
    }
    if (msg.type === 'state') onState(msg.view);
    else if (msg.type === 'error') onError(msg);
  };
  ws.onclose = (ev) => {
    if (serial !== S.wsSerial) return;
    S.ws = null;
    S.awaiting = null;
    S.opsSig = '';
    document.body.dataset.conn = 'closed';
    scheduleRender();
    if (ev.code === 4404 || ev.code === 4410 || !S.game) return; // no such game / closed after its end
    scheduleReconnect();
  };
  ws.onerror = () => { /* onclose follows */ };
}

function scheduleReconnect() {
  if (!S.game) return;
  S.reconnectAttempt += 1;
  const delay = Math.min(10000, 400 * 2 ** (S.reconnectAttempt - 1));
  const box = $('#reconnect');
  box.textContent = t('reconnecting', { n: S.reconnectAttempt });
  box.hidden = false;
  clearTimeout(S.reconnectTimer);
  S.reconnectTimer = setTimeout(connect, delay);
}

function disconnect() {
  S.wsSerial += 1;
  clearTimeout(S.reconnectTimer);
  if (S.ws) {
    try { S.ws.close(); } catch { /* ignore */ }
  }
  S.ws = null;
  $('#reconnect').hidden = true;
}

function onError(msg) {
  S.awaiting = null;
  S.opsSig = '';
  if (msg.code === 'unknown_game' || msg.code === 'evicted') {
    leaveGame();
    toast(t(`err_${msg.code}`), msg.message, 'error');
    return;
  }
  const key = `err_${msg.code}`;
  const title = I18N.ja[key] ? t(key) : t('err_generic');
  toast(title, msg.message, 'error');
  scheduleRender();
}

function onState(view) {
  const prev = S.view;
  S.view = view;
  S.stateSeq = (S.stateSeq || 0) + 1;
  if (S.game) {
    S.game.showAll = !!view.session.show_all;
  }
  const pid = view.pending ? view.pending.prompt_id : null;
  const prevPid = prev && prev.pending ? prev.pending.prompt_id : null;
  if (pid !== prevPid || !prev) {
    S.awaiting = null;
    S.hover = null;
    if (S.confirm && S.confirm.promptId !== pid) S.confirm = null;
  } else if (S.awaiting != null && prev && prev.history.step !== view.history.step) {
    S.awaiting = null;
  }
  detectEnds(prev, view);
  showScreen('game');
  scheduleRender();
}

function detectEnds(prev, view) {
  if (rulesetOf(view) === 'twgp') {
    TW.detectEnd(prev, view);
    return;
  }
  if (!view.history.live) return;
  const sameGame = prev && prev.session.id === view.session.id && prev.history.live;
  if (view.match.over) {
    if (!sameGame || !prev.match.over) {
      if (S.dismissedMatch !== view.session.id) showMatchOver();
    }
    return;
  }
  if (sameGame && view.match.results.length > prev.match.results.length) {
    showGameOver(view.match.results.length - 1);
  }
}

/* ================================================================== screens */

function showScreen(name) {
  $('#start').hidden = name !== 'start';
  $('#game').hidden = name !== 'game';
  $('#history').hidden = name !== 'history';
  document.body.classList.toggle('replaying', name === 'game' && !!S.replay);
  applySettings(); // the why panel is not part of a replay
  if (name !== 'history' && name !== 'game') setHash('');
  document.body.dataset.screen = name;
  document.body.classList.remove('booting');
}

function leaveGame() {
  disconnect();
  S.replay = null;
  S.game = null;
  S.view = null;
  S.info = null;
  S.confirm = null;
  S.awaiting = null;
  S.opsSig = '';
  S.logSig = '';
  S.prevKeys.clear();
  TW.reset();
  saveGame(null);
  closeOverlay();
  showScreen('start');
  renderStart();
}

/* ================================================================== start screen */

/** The game chosen on the start screen (a ruleset the server offers). */
function selectedGame() {
  const checked = $('#start-form input[name=game]:checked');
  const game = checked ? checked.value : 'kobo';
  return S.meta && S.meta.rulesets[game] ? game : 'kobo';
}

function renderStart() {
  if (!S.meta) return;
  const form = $('#start-form');
  const mode = form.mode.value;
  const game = selectedGame();
  const twgp = game === 'twgp';
  for (const r of $$('#start-form input[name=game]')) r.closest('label').hidden = !S.meta.rulesets[r.value];
  $('#kobo-options').hidden = twgp;
  $('#twgp-options').hidden = !twgp;
  $('#start-logo').textContent = twgp ? 'TWGP' : '攻防';
  $('#start-logo-sub').textContent = twgp ? 'トランプ版' : 'Kōbō';
  $('#start-tagline').textContent = twgp ? TW.tx('tagline') : t('tagline');
  document.body.dataset.game = game;
  if (mode === 'vs_com') $('#mode-hint').textContent = twgp ? t('mode_hint_vs_twgp') : t('mode_hint_vs');
  else $('#mode-hint').textContent = twgp ? t('mode_hint_cc_twgp') : t('mode_hint_cc');
  const levels = (S.meta.rulesets[game] && S.meta.rulesets[game].com_levels) || ['heuristic'];
  const comSel = $('#com-level');
  const curCom = levels.includes(comSel.value) ? comSel.value : (levels.includes('heuristic') ? 'heuristic' : levels[levels.length - 1]);
  put(comSel, ...levels.map((l) => h('option', { value: l, text: I18N.ja[`com_${l}`] ? t(`com_${l}`) : l })));
  comSel.value = curCom;
  const paceSel = $('#pace');
  paceSel.options[0].textContent = `${t('pace_default')} (${S.meta.pace} s)`;
  if (twgp) {
    $('#deck-preview').hidden = true;
    TW.renderStartOptions($('#twgp-options'), S.meta.rulesets.twgp.default_config || {});
    return;
  }
  $('#deck-label-0').textContent = mode === 'vs_com' ? t('deck_you') : t('deck_p1');
  $('#deck-label-1').textContent = mode === 'vs_com' ? t('deck_opp') : t('deck_p2');
  const decks = Object.values(cat().decks || {});
  const defaults = (S.meta.rulesets.kobo && S.meta.rulesets.kobo.default_decks) || [];
  for (const side of [0, 1]) {
    const sel = $(`#deck-${side}`);
    const current = sel.value || defaults[side] || (decks[side] && decks[side].slug);
    put(sel, ...decks.map((d) => h('option', { value: d.slug, text: d.name })));
    if (current) sel.value = current;
    const deck = cat().decks[sel.value];
    $(`#deck-style-${side}`).textContent = deck ? deck.style : '';
  }
  const preview = $('#deck-preview');
  if (!preview.hidden && preview.dataset.side) showDeckPreview(Number(preview.dataset.side), true);
}

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

function showDeckPreview(side, keep) {
  const preview = $('#deck-preview');
  if (!keep && !preview.hidden && preview.dataset.side === String(side)) {
    preview.hidden = true;
    return;
  }
  const deck = cat().decks[$(`#deck-${side}`).value];
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

async function startMatch(ev) {
  ev.preventDefault();
  const form = $('#start-form');
  const game = selectedGame();
  const cfg = { ruleset: game, mode: form.mode.value, com: $('#com-level').value };
  if (game === 'twgp') cfg.config = TW.startConfig($('#twgp-options'), S.meta.rulesets.twgp.default_config || {});
  else cfg.decks = [$('#deck-0').value, $('#deck-1').value];
  const pace = $('#pace').value;
  if (pace !== '') cfg.pace = Number(pace);
  const seed = $('#seed').value.trim();
  if (seed !== '') cfg.seed = Number(seed);
  await newGame(cfg);
}

async function newGame(cfg) {
  const button = $('#start-button');
  button.disabled = true;
  button.textContent = t('starting');
  try {
    const res = await fetchJson('/api/games', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(cfg),
    });
    beginGame(res, cfg);
  } catch (err) {
    toast(t('err_start'), String(err.message || err), 'error');
    showScreen('start');
  } finally {
    button.disabled = false;
    button.textContent = t('start');
  }
}

/** Play the game the server just made (`res`: id, token, seat); `cfg` is what もう一度 repeats. */
function beginGame(res, cfg) {
  closeOverlay();
  disconnect();
  S.replay = null;
  S.view = null;
  S.info = null;
  S.confirm = null;
  S.awaiting = null;
  S.opsSig = '';
  S.logSig = '';
  S.whySig = '';
  S.prevKeys.clear();
  TW.reset();
  S.dismissedMatch = null;
  S.game = { id: res.id, token: res.token, seat: res.seat, cfg, showAll: false };
  saveGame(S.game);
  showScreen('game');
  renderConnecting();
  connect();
}

/** Come back to the live game set aside by the match history. */
function resumeGame() {
  S.replay = null;
  S.view = null;
  S.info = null;
  S.confirm = null;
  S.awaiting = null;
  S.opsSig = '';
  S.logSig = '';
  S.whySig = '';
  S.prevKeys.clear();
  TW.reset();
  showScreen('game');
  renderConnecting();
  connect();
}

function renderConnecting() {
  put($('#banner'), h('span', { class: 'banner-text', text: t('connecting') }));
}

/* ================================================================== cards */

function kindLabel(kind, slug) {
  const d = slug ? cardDef(slug) : null;
  if (d) return d.kind_label;
  const any = Object.values(cat().cards).find((c) => c.kind === kind);
  return any ? any.kind_label : kind;
}

/** A card face (or back). `card` is a view card: {slug, name, kind, lv?, base?, printed?, face?}. */
function cardEl(card, opts = {}) {
  const size = opts.size || 'm';
  const hidden = !card || !card.slug;
  if (hidden || (card.face === 'down' && !opts.peek && !opts.showFaceDown)) {
    const back = h('div', { class: `card back size-${size}` }, h('div', { class: 'back-mark', text: '攻' }));
    return back;
  }
  const kind = card.kind || (cardDef(card.slug) || {}).kind || 'character';
  const name = card.name || cardName(card.slug);
  const classes = ['card', `kind-${kind}`, `size-${size}`];
  if (card.face === 'down') classes.push('peek');
  if (card.attacking) classes.push('attacking');
  if (card.target) classes.push('targeted');
  const el = h('div', { class: classes.join(' '), dataset: { slug: card.slug } });
  el.append(h('div', { class: 'card-band' }));
  if (kind === 'character') {
    const lv = card.lv ?? (cardDef(card.slug) || {}).lv;
    const badge = h('div', { class: 'card-lv', text: String(lv ?? '') });
    if (card.base != null && card.lv != null) {
      if (card.lv > card.base) badge.classList.add('up');
      else if (card.lv < card.base) badge.classList.add('down');
    }
    el.append(badge);
    if (card.base != null && card.printed != null && card.base !== card.printed) {
      el.append(h('div', { class: `card-base ${card.base > card.printed ? 'up' : 'down'}`, text: `${t('base_lv')}${card.base}` }));
    }
  } else {
    el.append(h('div', { class: 'card-icon', text: kindGlyph(kind) }));
  }
  el.append(h('div', { class: 'card-art', text: Array.from(name)[0] || '' }));
  el.append(h('div', { class: 'card-name', text: name }));
  el.append(h('div', { class: 'card-kind', text: kindLabel(kind, card.slug) }));
  if (card.face === 'down') el.append(h('div', { class: 'peek-tag', text: '伏' }));
  return el;
}

function kindGlyph(kind) {
  return { deploy: '展', trap: '罠', tactic: '戦', character: '兵' }[kind] || '';
}

function infoable(el, info) {
  el.classList.add('infoable');
  S.infoMap.set(el, info);
  return el;
}

/* ================================================================== rendering */

function scheduleRender() {
  if (S.renderQueued) return;
  S.renderQueued = true;
  requestAnimationFrame(() => {
    S.renderQueued = false;
    render();
  });
}

function render() {
  const v = S.view;
  if (!v || $('#game').hidden) return;
  const started = performance.now();
  applyRuleset();
  if (rulesetOf(v) === 'twgp') {
    renderTools(v);
    TW.render(v);
    renderLog(v);
    renderWhy(v);
    if (S.replay) renderReplayOps();
    renderInfo();
    finishRender(v, started);
    return;
  }
  const bottom = me();
  const top = 1 - bottom;
  const keys = new Map();
  renderTopbar(v);
  put($('#side-top'), ...renderSide(v, top, 'top', keys));
  put($('#side-bottom'), ...renderSide(v, bottom, 'bottom', keys));
  put($('#piles-top'), ...renderPiles(v, top));
  put($('#piles-bottom'), ...renderPiles(v, bottom));
  renderCenter(v, keys);
  renderLane(v);
  renderLog(v);
  renderResults(v);
  renderWhy(v);
  renderOps(v);
  renderInfo();
  markSelectable(v);
  applyHover();
  S.prevKeys = keys;
  finishRender(v, started);
}

/** What every render ends with: the page's state for tests, and timings. */
function finishRender(v, started) {
  document.body.dataset.promptId = v.pending ? String(v.pending.prompt_id) : 'none';
  document.body.dataset.myTurn = isMyPrompt(v) && online() ? '1' : '0';
  document.body.dataset.rendered = String(S.stateSeq || 0);
  S.renderMs = performance.now() - started;
  S.renders = (S.renders || 0) + 1;
  S.renderTotal = (S.renderTotal || 0) + S.renderMs;
}

function isMyPrompt(v) {
  return !!(v && v.pending && v.pending.legal && !isSpectator() && v.pending.seat === v.session.you && v.history.live);
}

function online() {
  return !!(S.ws && S.ws.readyState === WebSocket.OPEN);
}

function renderTopbar(v) {
  const bottom = me();
  const replay = !!S.replay;
  const top = 1 - bottom;
  const m = v.match;
  put($('#scoreboard'), 
    h('span', { class: 'sb-game', text: t('game_no', { n: m.game }) }),
    h('span', { class: 'sb-bo', text: t('best_of', { n: m.best_of }) }),
    h('span', { class: 'sb-score' },
      h('span', { class: 'sb-name mine', text: seatName(bottom) }),
      h('span', { class: 'sb-num', text: `${m.wins[bottom]}` }),
      h('span', { class: 'sb-dash', text: '–' }),
      h('span', { class: 'sb-num', text: `${m.wins[top]}` }),
      h('span', { class: 'sb-name theirs', text: seatName(top) })),
  );
  const parts = [];
  if (v.turn === 0) parts.push(h('span', { class: 'ti-phase', text: t('standby_phase') }));
  else {
    parts.push(h('span', { class: 'ti-turn', text: t('turn', { n: v.turn }) }));
    parts.push(h('span', { class: `ti-who ${v.turn_player === bottom ? 'mine' : 'theirs'}`, text: t('seat_turn', { whose: whoseOf(v.turn_player) }) }));
  }
  parts.push(h('span', { class: 'ti-first muted', text: t('first', { who: seatName(v.first_player) }) }));
  if (v.session.mode === 'com_vs_com' || replay) parts.push(h('span', { class: 'ti-step muted', text: t('step', { step: v.history.step, steps: v.history.steps }) }));
  put($('#turninfo'), ...parts);
  renderTools(v);
}

/** The history buttons of the top bar (undo, redo, live, show all), for any ruleset. */
function renderTools(v) {
  const replay = !!S.replay;
  for (const id of ['#btn-undo', '#btn-redo']) $(id).hidden = replay;
  $('#ops .panel-title').textContent = replay ? t('replay_title') : t('ops_title');
  if (replay) {
    $('#btn-live').hidden = true;
    $('#btn-showall').hidden = true;
    return;
  }

  const hist = v.history;
  const undo = $('#btn-undo');
  const redo = $('#btn-redo');
  const spectator = isSpectator();
  const canAct = v.session.mode === 'com_vs_com' || !spectator;
  undo.disabled = !canAct || !hist.can_undo;
  redo.disabled = !canAct || !hist.can_redo;
  undo.title = hist.can_undo ? t('undo') : undoReason(hist);
  redo.title = hist.can_redo ? t('redo') : (v.session.mode === 'com_vs_com' ? t('redo_live') : t('redo_none'));
  $('#btn-live').hidden = v.session.mode !== 'com_vs_com' || hist.live;
  const sa = $('#btn-showall');
  sa.hidden = !(v.session.mode === 'com_vs_com' || isOver(v));
  sa.setAttribute('aria-pressed', v.session.show_all ? 'true' : 'false');
  sa.classList.toggle('on', !!v.session.show_all);
}

/** Why 一つ戻る is disabled, from the server's reason code (never from its English text). */
function undoReason(hist) {
  const code = hist.undo_code;
  if (!hist.undo_blocked) return S.view && S.view.session.mode === 'com_vs_com' ? t('undo_first') : t('undo_none');
  const key = { nothing: 'undo_none', opponent: 'undo_opponent', learned: 'undo_learned', over: 'undo_over' }[code];
  return key ? t(key) : hist.undo_blocked;
}

function slotKey(seat, zone, n) {
  return `${seat}:${zone}:${n}`;
}

function withEnter(el, key, sig, keys) {
  keys.set(key, sig);
  const before = S.prevKeys.get(key);
  if (before !== undefined && before !== sig && sig) el.classList.add('enter');
  return el;
}

function renderSide(v, seat, pos, keys) {
  const p = v.players[seat];
  const mine = seat === me();
  const declaring = v.pending && v.pending.prompt === 'declare' && v.pending.seat === seat ? (v.pending.context.attackers || []) : [];

  const battle = h('div', { class: 'brow battle', dataset: { seat } });
  p.battle.forEach((c, i) => {
    const n = i + 1;
    const slot = h('div', { class: 'slot battle-slot', dataset: { zone: 'battle', seat, slot: n } },
      h('span', { class: 'slot-no', text: n }));
    if (c) {
      const card = cardEl(c, { size: 'l' });
      if (declaring.includes(n)) card.classList.add('chosen');
      slot.append(card);
      slot.classList.add('filled');
      if (c.attacking || c.target) slot.classList.add('sideways');
      if (declaring.includes(n)) slot.classList.add('declaring');
      const tags = [];
      if (c.attacking) tags.push(h('span', { class: 'tag atk', text: t('attacking') }));
      if (c.target) tags.push(h('span', { class: 'tag tgt', text: t('targeted') }));
      if (declaring.includes(n)) tags.push(h('span', { class: 'tag atk', text: t('chosen') }));
      if (tags.length) slot.append(h('div', { class: 'tags' }, tags));
      infoable(slot, { type: 'card', card: c, seat, zone: 'battle', slot: n });
    }
    withEnter(slot, slotKey(seat, 'b', n), c ? `${c.slug}` : '', keys);
    battle.append(slot);
  });

  const strategy = h('div', { class: 'brow strategy', dataset: { seat } });
  p.strategy.forEach((c, i) => {
    const n = i + 1;
    const slot = h('div', { class: 'slot strat-slot', dataset: { zone: 'strategy', seat, slot: n } },
      h('span', { class: 'slot-no', text: n }));
    if (c) {
      slot.append(cardEl(c, { size: 's', peek: !!c.slug }));
      slot.classList.add('filled', c.face === 'up' ? 'face-up' : 'face-down');
      infoable(slot, { type: 'card', card: c, seat, zone: 'strategy', slot: n });
    }
    withEnter(slot, slotKey(seat, 's', n), c ? `${c.face}:${c.slug || ''}` : '', keys);
    strategy.append(slot);
  });

  const hands = h('div', { class: 'hands' });
  hands.append(renderHand(v, seat, 'thand', p.tactics_hand));
  if (p.hand.count > 0 || (p.hand.cards && p.hand.cards.length)) hands.append(renderHand(v, seat, 'hand', p.hand));
  const handRow = h('div', { class: 'hand-row' }, hands);

  battle.prepend(h('div', { class: 'row-label', text: t('battle_area') }));
  strategy.prepend(h('div', { class: 'row-label', text: t('strategy_area') }));
  return pos === 'top' ? [handRow, strategy, battle] : [battle, strategy, handRow];
}

function renderHand(v, seat, zone, hand) {
  const title = t(zone);
  const box = h('div', { class: `hand hand-${zone}`, dataset: { seat, zone } });
  box.append(h('div', { class: 'hand-title' }, title, h('span', { class: 'count', text: hand.count })));
  const cards = h('div', { class: 'hand-cards' });
  if (hand.cards) {
    hand.cards.forEach((c, i) => {
      const wrap = h('div', { class: 'hand-card', dataset: { zone, seat, index: i + 1, slug: c.slug } }, cardEl(c, { size: 's' }));
      infoable(wrap, { type: 'card', card: c, seat, zone });
      cards.append(wrap);
    });
  } else {
    const n = Math.min(hand.count, 10);
    for (let i = 0; i < n; i++) cards.append(h('div', { class: 'hand-card back-only' }, cardEl(null, { size: 'xs' })));
  }
  cards.style.setProperty('--n', String(Math.max(1, hand.cards ? hand.cards.length : Math.min(hand.count, 10))));
  box.append(cards);
  return box;
}

function renderPiles(v, seat) {
  const p = v.players[seat];
  const pile = (kind, count, face, label) => {
    const el = h('div', { class: `pile pile-${kind}`, dataset: { pile: kind, seat } },
      h('div', { class: 'pile-stack' }, face),
      h('div', { class: 'pile-label' }, h('span', { text: label }), h('span', { class: 'pile-count', text: count })));
    infoable(el, { type: 'pile', pile: kind, seat });
    return el;
  };
  const topRetreat = p.retreat.length ? cardEl(p.retreat[p.retreat.length - 1], { size: 'xs' }) : h('div', { class: 'card empty size-xs' });
  const topExcl = p.excluded.length ? cardEl(p.excluded[p.excluded.length - 1], { size: 'xs' }) : h('div', { class: 'card empty size-xs' });
  const back = (n) => (n > 0 ? cardEl(null, { size: 'xs' }) : h('div', { class: 'card empty size-xs' }));
  const mine = seat === me();
  const head = h('div', { class: `side-head ${mine ? 'mine' : 'theirs'}` },
    h('span', { class: 'side-name', text: seatLabel(seat), title: v.session.com[String(seat)] ? `COM: ${v.session.com[String(seat)]}` : null }),
    h('span', { class: 'side-deck muted', text: p.deck.name }),
    h('span', { class: `side-pass${p.passes >= 2 ? ' warn' : ''}`, text: t('passes', { n: p.passes }) }),
    h('span', { class: 'side-rem muted', text: t('remaining', { n: p.remaining }) }),
    v.turn_player === seat && v.turn > 0 ? h('span', { class: 'side-turn', title: t('seat_turn', { whose: whoseOf(seat) }), text: '●' }) : null);
  const grid = h('div', { class: 'pile-grid' },
      pile('main', p.main_deck, back(p.main_deck), t('pile_main')),
      pile('tactics', p.tactics_deck, back(p.tactics_deck), t('pile_tactics')),
      pile('retreat', p.retreat.length, topRetreat, t('pile_retreat')),
      pile('excluded', p.excluded.length, topExcl, t('pile_excluded')));
  return mine ? [grid, head] : [head, grid];
}

function renderCenter(v, keys) {
  const banner = $('#banner');
  const b = bannerInfo(v);
  banner.className = `banner ${b.cls}`;
  put(banner, 
    h('span', { class: 'banner-dot' }),
    h('span', { class: 'banner-text', text: b.text }),
    b.sub ? h('span', { class: 'banner-sub', text: b.sub }) : null);
  const staging = $('#staging');
  const parts = [];
  for (const seat of [1 - me(), me()]) {
    const p = v.players[seat];
    if (p.processing.length) {
      parts.push(h('div', { class: `stage-group ${seat === me() ? 'mine' : 'theirs'}` },
        h('div', { class: 'stage-label', text: `${seatName(seat)} · ${t('processing')}` }),
        h('div', { class: 'stage-cards' }, p.processing.map((c, i) => {
          const w = h('div', { class: 'stage-card', dataset: { zone: 'processing', seat, index: i + 1 } }, cardEl(c, { size: 's' }));
          return c.slug ? infoable(w, { type: 'card', card: c, seat, zone: 'processing' }) : w;
        }))));
    }
    if (p.reveal.length) {
      parts.push(h('div', { class: `stage-group ${seat === me() ? 'mine' : 'theirs'}` },
        h('div', { class: 'stage-label', text: `${seatName(seat)} · ${t('revealed')}` }),
        h('div', { class: 'stage-cards' }, p.reveal.map((c, i) => {
          const w = h('div', { class: 'stage-card', dataset: { zone: 'reveal', seat, index: i + 1 } },
            cardEl(c.face === 'up' ? c : null, { size: 's' }), h('span', { class: 'stage-no', text: i + 1 }));
          return c.slug ? infoable(w, { type: 'card', card: c, seat, zone: 'reveal' }) : w;
        }))));
    }
  }
  put(staging, ...parts);
  keys.set('staging', String(parts.length));
}

function bannerInfo(v) {
  const h_ = v.history;
  if (S.replay) {
    const head = `${t('replay')} · ${t('step', { step: h_.step, steps: h_.steps })}`;
    const p = v.pending;
    if (v.match.over) {
      const w = v.match.winner;
      const who = isSpectator() ? t('match_win_seat', { who: seatName(w) }) : w === me() ? t('match_win_you') : t('match_win_opp');
      return { cls: 'history over', text: head, sub: `${t('match_over')} — ${who}` };
    }
    return { cls: 'history', text: head, sub: p ? `${seatName(p.seat)} · ${t(`pt_${p.prompt}`)}` : '' };
  }
  if (v.session.mode === 'com_vs_com' && !h_.live) {
    return { cls: 'history', text: t('history_view', { step: h_.step, steps: h_.steps }) };
  }
  if (v.match.over) {
    const w = v.match.winner;
    let text;
    if (isSpectator()) text = t('match_win_seat', { who: seatName(w) });
    else text = w === me() ? t('match_win_you') : t('match_win_opp');
    return { cls: 'over', text: `${t('match_over')} — ${text}` };
  }
  const p = v.pending;
  if (!p) return { cls: 'wait', text: '' };
  const sub = v.priority != null ? t('priority', { who: seatName(v.priority) }) : (v.attack && v.attack.negated ? t('negated_attack') : '');
  if (isSpectator()) {
    return { cls: p.seat === me() ? 'spect mine' : 'spect theirs', text: `${t('spectating')} · ${t('waiting_seat', { who: seatName(p.seat) })}`, sub: `${t(`pt_${p.prompt}`)}${sub ? ` · ${sub}` : ''}` };
  }
  if (p.seat === me()) {
    return { cls: 'mine', text: p.prompt === 'chain' ? t('your_response') : t('your_move'), sub: sub || t(`pt_${p.prompt}`) };
  }
  const text = p.prompt === 'chain' ? t('waiting_opp') : t('opp_thinking');
  return { cls: 'theirs', text, sub };
}

/* ---------------------------------------------------------------- lanes */

function laneItem(link, opts = {}) {
  const mine = link.seat === me();
  const li = h('li', { class: `lane-link ${mine ? 'mine' : 'theirs'} kind-${link.kind}${link.negated ? ' negated' : ''}${opts.dim ? ' dim' : ''}` },
    h('span', { class: 'link-no', text: link.link }),
    h('span', { class: 'link-body' },
      h('span', { class: 'link-name', text: link.name || cardName(link.slug) }),
      h('span', { class: 'link-meta', text: linkMeta(link) })));
  infoable(li, { type: 'card', card: { slug: link.slug, kind: link.kind, name: link.name }, zone: 'chain', link: link.link });
  return li;
}

function linkMeta(link) {
  const who = seatName(link.seat);
  let extra = '';
  if (link.target && link.target.slot) extra = ` → ${seatName(link.target.seat)} ${t('slot_n', { n: link.target.slot })}`;
  else if (link.negates) extra = ` · ${t('negates_n', { n: link.negates })}`;
  return who + extra;
}

function lastExchangeFromLog(v) {
  const log = v.log;
  let start = -1;
  for (let i = log.length - 1; i >= 0; i--) {
    if (log[i].kind === 'declare') { start = i; break; }
    if (log[i].kind === 'game_start') break;
  }
  if (start < 0) return null;
  const chain = [];
  const resolved = [];
  let closed = false;
  for (let i = start + 1; i < log.length; i++) {
    const e = log[i];
    if (e.kind === 'activate') {
      chain.push({ link: e.link, seat: e.seat, slug: e.card, kind: (cardDef(e.card) || {}).kind, name: cardName(e.card),
        target: e.target_slot ? { seat: e.target_seat, slot: e.target_slot } : null, negates: e.negates, negated: false });
    } else if (e.kind === 'chain_closed') closed = true;
    else if (e.kind === 'resolve') resolved.push({ link: e.link, slug: e.card, negated: !!e.negated });
  }
  if (!closed || !resolved.length) return null;
  const bySeat = new Map(chain.map((c) => [c.link, c]));
  const res = resolved.map((r) => ({ ...(bySeat.get(r.link) || { seat: -1, kind: (cardDef(r.slug) || {}).kind }), link: r.link, slug: r.slug, name: cardName(r.slug), negated: r.negated }));
  return { chain, resolved: res };
}

function renderLane(v) {
  const chainEl = $('#lane-chain');
  const resEl = $('#lane-resolve');
  let chain = v.chain;
  let resolved = v.resolved;
  let dim = false;
  if (!chain.length && !resolved.length) {
    const last = lastExchangeFromLog(v);
    if (last) {
      chain = [];
      resolved = last.resolved;
      dim = true;
    }
  }
  put(chainEl, ...chain.map((l) => laneItem(l)));
  put(resEl, ...resolved.map((l, i) => {
    const li = laneItem(l, { dim });
    if (i === resolved.length - 1 && !dim) li.classList.add('latest');
    return li;
  }));
  $('#lane').classList.toggle('has-chain', chain.length > 0);
  $('#lane').classList.toggle('has-resolve', resolved.length > 0);
  const note = $('#lane .lane-note');
  if (dim) {
    if (!note) $('#lane').append(h('div', { class: 'lane-note', text: t('last_exchange') }));
    else note.textContent = t('last_exchange');
  } else if (note) note.remove();
}

/* ---------------------------------------------------------------- log and results */

function renderLog(v) {
  const log = v.log;
  const boundary = v.history.boundary_log;
  const sig = `${S.settings.lang}|${log.length}|${boundary}|${log.length ? log[log.length - 1].text : ''}|${v.session.id}`;
  if (sig === S.logSig) return;
  S.logSig = sig;
  const frag = document.createDocumentFragment();
  const bottom = me();
  for (let i = log.length - 1; i >= 0; i--) {
    const e = log[i];
    if (boundary != null && i === boundary && v.session.mode !== 'com_vs_com') {
      frag.append(h('li', { class: 'boundary', text: t('boundary') }));
    }
    const who = typeof e.seat === 'number' ? (e.seat === bottom ? 'mine' : 'theirs') : 'none';
    frag.append(h('li', { class: `entry k-${e.kind} s-${who}`, dataset: { index: i } }, e.text || e.kind));
  }
  const ol = $('#log');
  put(ol, frag);
  ol.scrollTop = 0;
}

function reasonText(reason) {
  const key = `reason_${reason}`;
  return I18N.ja[key] ? t(key) : reason;
}

function resultText(r) {
  if (r.winner == null || r.winner < 0) return t('draw_replay');
  if (isSpectator()) return t('winner_seat', { who: seatName(r.winner) });
  return r.winner === me() ? t('winner_you') : t('winner_opp');
}

function renderResults(v) {
  const items = v.match.results.map((r, i) => h('li', { class: `result ${r.winner === me() ? 'mine' : r.winner < 0 ? 'tie' : 'theirs'}` },
    h('span', { class: 'r-game', text: t('game_no', { n: i + 1 }) }),
    h('span', { class: 'r-win', text: resultText(r) }),
    h('span', { class: 'r-why muted', text: `${reasonText(r.reason)} · ${t('turns_n', { n: r.turns })}` })));
  if (!v.match.over) {
    items.push(h('li', { class: 'result current' },
      h('span', { class: 'r-game', text: t('game_no', { n: v.match.results.length + 1 }) }),
      h('span', { class: 'r-win muted', text: t('in_progress') })));
  }
  put($('#results'), ...items);
}

/* ---------------------------------------------------------------- COM's reasoning */

function levelName(level, short = false) {
  const name = level && I18N.ja[`com_${level}`] ? t(`com_${level}`) : (level || '?');
  return short ? name.replace(/\s*[（(].*[)）]$/, '') : name;
}

/** A short text for an action taken (by anyone, at any time): no view needed. */
function actionText(text, prompt) {
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
    default: return text;
  }
}

function pct(x) {
  return `${Math.round(Math.max(0, Math.min(1, x || 0)) * 100)}%`;
}

/** The "why" panel: COM's last decision, and its top candidates when they reveal nothing. */
function renderWhy(v) {
  const panel = $('#why-panel');
  panel.hidden = !!S.replay;
  if (S.replay) return;
  const w = v.com_why;
  const sig = JSON.stringify([S.settings.lang, v.session.id, me(), w]);
  if (sig === S.whySig) return;
  S.whySig = sig;
  const box = $('#why');
  if (!w) {
    put(box, h('p', { class: 'why-empty muted', text: t('why_none') }));
    return;
  }
  const kids = [
    h('div', { class: `why-who ${w.seat === me() ? 'mine' : 'theirs'}`, text: `${seatName(w.seat)} · ${levelName(w.level, true)}`, title: levelName(w.level) }),
    h('div', { class: 'why-action', title: `${t('why_chose')}: ${w.action}` },
      h('span', { class: 'muted', text: `${promptLabel(w.prompt, rulesetOf(v))} → ` }),
      h('strong', { text: anyActionText(w.action, w.prompt, rulesetOf(v)) })),
  ];
  const cands = w.candidates;
  if (cands && cands.length) {
    const most = Math.max(1, ...cands.map((c) => c.visits || 0));
    const signed = cands.some((c) => typeof c.value === 'number' && c.value < 0);
    const scale = (x) => (typeof x !== 'number' ? 0 : signed ? (x + 1) / 2 : x);
    kids.push(h('ol', { class: 'why-cands' }, cands.map((c) => h('li', {
      class: `why-cand${c.action === w.action ? ' chosen' : ''}`,
      title: `${c.action} — ${t('why_visits')} ${c.visits ?? '–'} · ${t('why_value')} ${c.value ?? '–'}`,
    },
    h('span', { class: 'why-label', text: anyActionText(c.action, w.prompt, rulesetOf(v)) }),
    h('span', { class: 'why-bars' },
      h('span', { class: 'bar visits' }, h('i', { style: `width:${pct((c.visits || 0) / most)}` })),
      h('span', { class: 'bar value' }, h('i', { style: `width:${pct(scale(c.value))}` }))),
    h('span', { class: 'why-nums', text: `${c.visits ?? '–'} · ${typeof c.value === 'number' ? c.value.toFixed(2) : '–'}` })))));
    kids.push(h('div', { class: 'why-legend muted' },
      h('span', { class: 'key visits' }), t('why_visits'), h('span', { class: 'key value' }), t('why_value')));
  } else if (!cands && (w.hidden || 0) > 0) {
    kids.push(h('p', { class: 'why-hidden', text: t('why_hidden') }));
  } else {
    kids.push(h('p', { class: 'why-none muted', text: t('why_no_cands') }));
  }
  put(box, ...kids);
}

/* ---------------------------------------------------------------- operation panel */

function targetSeatFor(v, cardSlug) {
  const p = v.pending;
  const mine = p.seat;
  if (p.context && typeof p.context.side === 'number') return p.context.side;
  // The view does not (yet) say which side a `slot N` answer refers to: the card's generated
  // text names it. This only maps answers to board positions; the legal list stays the server's.
  const text = (S.catalogs.ja && S.catalogs.ja.cards[cardSlug] && S.catalogs.ja.cards[cardSlug].text) || '';
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
    default: return action;
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
      return I18N.ja[key] ? t(key, { card }) : t('pr_unknown');
    }
  }
}

function opsSignature(v) {
  const p = v.pending;
  return JSON.stringify([
    S.settings.lang, v.lang, v.session.id, p && p.prompt_id, p && p.seat, p && p.legal, p && p.context,
    S.awaiting, S.confirm, v.match.over, v.history.live, v.session.you, online(),
    p && p.prompt === 'declare' ? v.players.map((x) => x.battle.map((c) => c && c.lv)) : null,
  ]);
}

function renderOps(v) {
  if (S.replay) {
    S.opsSig = '';
    renderReplayOps();
    return;
  }
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
  if (!p) {
    put(body, h('p', { class: 'muted', text: t('no_action') }));
    return;
  }
  if (!isMyPrompt(v)) {
    const b = bannerInfo(v);
    kids.push(h('div', { class: 'ops-prompt waiting' },
      h('div', { class: 'ops-title' }, v.history.live ? h('span', { class: 'spinner' }) : null, b.text),
      h('p', { class: 'muted', text: `${seatName(p.seat)} · ${t(`pt_${p.prompt}`)}` })));
    if (p.context && p.context.card) kids.push(textBox(p.context.card));
    put(body, ...kids);
    return;
  }

  const ctx = p.context || {};
  const prompt = h('div', { class: 'ops-prompt' },
    h('div', { class: 'ops-title', text: t(`pt_${p.prompt}`) }),
    h('p', { class: 'ops-expl', text: promptText(v) }));
  if (p.prompt === 'declare') {
    const list = (ctx.attackers || []).map((n) => {
      const c = v.players[p.seat].battle[n - 1];
      return c ? `${n}「${c.name}」` : `${n}`;
    }).join(' ');
    prompt.append(h('p', { class: 'ops-note', text: t('chosen_attackers', { list, total: ctx.total ?? 0 }) }));
    prompt.append(h('p', { class: 'ops-note muted', text: t('cap_note') }));
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
    for (const a of p.legal) {
      const c = cardOf(a, v);
      const kind = c ? (c.kind || (cardDef(c.slug) || {}).kind) : null;
      const [verb] = splitAction(a);
      const btn = h('button', {
        type: 'button',
        class: `act verb-${verb}${kind ? ` kind-${kind}` : ''}`,
        dataset: { action: a },
        disabled: S.awaiting != null || !online(),
        title: a,
        onclick: () => choose(a),
        onmouseenter: () => setHover(a),
        onmouseleave: () => setHover(null),
        onfocus: () => setHover(a),
        onblur: () => setHover(null),
      },
      kind ? h('span', { class: `kind-dot kind-${kind}` }) : null,
      h('span', { class: 'act-label', text: actionLabel(a, v) }));
      actions.append(btn);
    }
    kids.push(actions);
  }
  const focus = defaultFocus(v);
  kids.push(h('div', { class: 'ops-text', id: 'ops-text' }, focus ? textInner(focus) : null));
  put(body, ...kids);
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
    h('div', { class: 'ops-text-title' }, t('text_title'), '：', h('strong', { text: d.name })),
    h('div', { class: 'ops-text-body', text: d.text }),
  ];
}

function textBox(card) {
  return h('div', { class: 'ops-text' }, textInner(card));
}

function setHover(action) {
  S.hover = action;
  applyHover();
  const v = S.view;
  const box = $('#ops-text');
  if (!v || !v.pending || !box) return;
  const c = action ? cardOf(action, v) : null;
  const focus = c && c.slug ? c : defaultFocus(v);
  put(box, ...(focus ? textInner(focus) : []));
}

function applyHover() {
  for (const e of $$('.hint')) e.classList.remove('hint');
  const v = S.view;
  if (!S.hover || !v || !v.pending || !isMyPrompt(v)) return;
  for (const sel of refsOf(S.hover, v)) for (const e of $$(sel, $('#game'))) e.classList.add('hint');
}

function markSelectable(v) {
  for (const e of $$('.selectable')) {
    e.classList.remove('selectable');
    delete e.dataset.act;
  }
  if (!isMyPrompt(v) || S.awaiting != null || !online()) return;
  for (const a of v.pending.legal) {
    for (const sel of refsOf(a, v)) {
      for (const e of $$(sel, $('#game'))) {
        e.classList.add('selectable');
        e.dataset.act = a;
      }
    }
  }
}

function choose(action) {
  const v = S.view;
  if (!isMyPrompt(v) || S.awaiting != null || !online()) return;
  if (!v.pending.legal.includes(action)) return;
  S.confirm = null;
  if (action === 'pass' && v.pending.prompt === 'turn') {
    S.confirm = { action, promptId: v.pending.prompt_id };
    S.opsSig = '';
    scheduleRender();
    return;
  }
  act(action);
}

function act(action) {
  const v = S.view;
  if (!isMyPrompt(v)) return;
  if (send({ type: 'act', prompt_id: v.pending.prompt_id, action })) {
    S.awaiting = v.pending.prompt_id;
    S.hover = null;
    // Nothing may be chosen twice: disable every choice at once, before the next frame.
    for (const b of $$('#ops button.act')) b.disabled = true;
    for (const e of $$('.selectable')) e.classList.remove('selectable');
    document.body.dataset.myTurn = '0';
    S.opsSig = '';
    scheduleRender();
  }
}

/* ---------------------------------------------------------------- CARD INFORMATION */

function showInfo(info) {
  S.info = info;
  renderInfo();
}

function renderInfo() {
  const body = $('#cardinfo-body');
  const info = S.info;
  const v = S.view;
  if (!info || !v) {
    put(body, h('p', { class: 'muted info-empty', text: t('info_empty') }));
    return;
  }
  if (info.type === 'tw') {
    if (rulesetOf(v) === 'twgp') put(body, ...TW.renderInfo(v, info));
    else put(body, h('p', { class: 'muted info-empty', text: t('info_empty') }));
    return;
  }
  if (info.type === 'pile') {
    put(body, ...pileInfo(v, info));
    return;
  }
  // Re-read a board card from the current view so Lv changes show.
  let card = info.card;
  if (info.zone === 'battle' && info.slot) card = v.players[info.seat].battle[info.slot - 1] || card;
  if (info.zone === 'strategy' && info.slot) card = v.players[info.seat].strategy[info.slot - 1] || card;
  put(body, ...cardInfo(card, info));
}

function where(info) {
  const whose = whoseOf(info.seat);
  switch (info.zone) {
    case 'battle': return t('where_battle', { whose, n: info.slot });
    case 'strategy': return t('where_strategy', { whose, n: info.slot });
    case 'reveal': return t('where_reveal', { whose });
    case 'chain': return t('where_chain', { n: info.link });
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
      stats.push(h('span', { class: 'stat' }, `${t('cur_lv')} `, h('b', { text: card.lv })));
      stats.push(h('span', { class: 'stat' }, `${t('base_lv')} `, h('b', { text: card.base })));
      stats.push(h('span', { class: 'stat muted' }, `${t('printed_lv')} ${card.printed}`));
    } else {
      stats.push(h('span', { class: 'stat' }, 'Lv ', h('b', { text: d.lv })));
    }
  }
  const badges = [];
  if (d.limited) badges.push(h('span', { class: 'badge limited', text: t('limited') }));
  if (d.chain_again) badges.push(h('span', { class: 'badge chain', text: t('chain_again') }));
  if (card.attacking) badges.push(h('span', { class: 'badge atk', text: t('attacking') }));
  if (card.target) badges.push(h('span', { class: 'badge tgt', text: t('targeted') }));
  return [
    h('div', { class: 'info-card' }, cardEl({ ...card, face: 'up', attacking: false, target: false }, { size: 'm' })),
    h('div', { class: 'info-main' },
      h('div', { class: 'info-name', text: d.name || card.name || card.slug }),
      h('div', { class: 'info-kind' }, h('span', { class: `kind-dot kind-${kind}` }), d.kind_label || kind, ...badges),
      stats.length ? h('div', { class: 'info-stats' }, stats) : null,
      loc ? h('div', { class: 'info-where muted', text: loc }) : null,
      card.face === 'down' ? h('div', { class: 'info-where peek-note', text: t('your_face_down') }) : null,
      h('p', { class: 'info-text', text: d.text || '' })),
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

/* ================================================================== overlays and toasts */

function closeOverlay() {
  const o = $('#overlay');
  o.hidden = true;
  put(o, );
  S.overlay = null;
  clearTimeout(S.overlayTimer);
}

function openOverlay(kind, box) {
  const o = $('#overlay');
  put(o, box);
  o.hidden = false;
  o.dataset.kind = kind;
  S.overlay = kind;
}

function scoreLine(v) {
  const bottom = me();
  return `${seatName(bottom)} ${v.match.wins[bottom]} – ${v.match.wins[1 - bottom]} ${seatName(1 - bottom)}`;
}

function showGameOver(index) {
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

function showMatchOver() {
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

function playAgain() {
  const cfg = S.game && S.game.cfg;
  if (!cfg) {
    leaveGame();
    return;
  }
  const again = { ...cfg };
  delete again.seed; // a new match deals new cards
  newGame(again);
}

function toast(title, message, kind = 'info') {
  const box = $('#toasts');
  const el = h('div', { class: `toast ${kind}`, role: 'status' },
    h('div', { class: 'toast-body' }, h('strong', { text: title }), message ? h('div', { class: 'toast-msg', text: message }) : null),
    h('button', { type: 'button', class: 'toast-x', 'aria-label': t('dismiss'), title: t('dismiss'), text: '×', onclick: () => el.remove() }));
  box.append(el);
  while (box.children.length > 4) box.firstElementChild.remove();
  setTimeout(() => el.remove(), 7000);
}

/* ================================================================== events */

function bindEvents() {
  $('#start-form').addEventListener('submit', startMatch);
  $('#start-form').addEventListener('change', (ev) => {
    if (ev.target.name === 'game') {
      S.settings.game = ev.target.value;
      saveSettings();
    }
    if (ev.target.name === 'mode' || ev.target.name === 'game' || ev.target.id.startsWith('deck-')) renderStart();
  });
  for (const b of $$('[data-show-deck]')) b.addEventListener('click', () => showDeckPreview(Number(b.dataset.showDeck)));
  for (const b of $$('[data-lang]')) b.addEventListener('click', () => setLang(b.dataset.lang));

  bindHistory();
  $('#btn-history').addEventListener('click', () => historyButton());
  $('#btn-undo').addEventListener('click', () => send({ type: 'undo' }));
  $('#btn-redo').addEventListener('click', () => send({ type: 'redo' }));
  $('#btn-live').addEventListener('click', () => send({ type: 'live' }));
  $('#btn-showall').addEventListener('click', () => {
    const on = !(S.view && S.view.session.show_all);
    if (S.game) S.game.showAll = on;
    send({ type: 'show_all', on });
  });
  // 新しい対戦 leaves the match on a second press (the first one asks).
  $('#btn-quit').addEventListener('click', () => {
    const b = $('#btn-quit');
    if (S.replay) {
      leaveReplayToStart();
      return;
    }
    const over = isOver(S.view);
    if (over || b.classList.contains('armed')) {
      b.classList.remove('armed');
      b.textContent = t('new_match');
      leaveGame();
      return;
    }
    b.classList.add('armed');
    b.textContent = t('quit_confirm');
    clearTimeout(S.quitTimer);
    S.quitTimer = setTimeout(() => { b.classList.remove('armed'); b.textContent = t('new_match'); }, 3000);
  });

  const menu = $('#settings-menu');
  $('#btn-settings').addEventListener('click', (ev) => {
    ev.stopPropagation();
    menu.hidden = !menu.hidden;
    $('#btn-settings').setAttribute('aria-expanded', String(!menu.hidden));
  });
  document.addEventListener('click', (ev) => {
    if (!menu.hidden && !menu.contains(ev.target) && ev.target !== $('#btn-settings')) {
      menu.hidden = true;
      $('#btn-settings').setAttribute('aria-expanded', 'false');
    }
  });
  for (const r of $$('input[name=motion]')) {
    r.addEventListener('change', () => { S.settings.motion = r.value; saveSettings(); applySettings(); });
  }
  $('#set-lane').addEventListener('change', (ev) => { S.settings.lane = ev.target.checked; saveSettings(); applySettings(); });
  // Folding both the log and the results folds the whole left column (the why panel too).
  const leftFolds = () => {
    if (!S.settings.logOpen && !S.settings.histOpen) S.settings.whyOpen = false;
    saveSettings();
    applySettings();
  };
  $('#set-log').addEventListener('change', (ev) => { S.settings.logOpen = ev.target.checked; leftFolds(); });
  $('#set-hist').addEventListener('change', (ev) => { S.settings.histOpen = ev.target.checked; leftFolds(); });
  $('#set-why').addEventListener('change', (ev) => { S.settings.whyOpen = ev.target.checked; saveSettings(); applySettings(); });
  $('#why-head').addEventListener('click', () => { S.settings.whyOpen = !S.settings.whyOpen; saveSettings(); applySettings(); });
  $('#log-head').addEventListener('click', () => { S.settings.logOpen = !S.settings.logOpen; leftFolds(); });
  $('#hist-head').addEventListener('click', () => { S.settings.histOpen = !S.settings.histOpen; leftFolds(); });

  // Board and lanes: a glowing element sends its action; any card or pile shows its details.
  $('#table').addEventListener('click', (ev) => {
    const sel = ev.target.closest('.selectable[data-act]');
    const infoEl = ev.target.closest('.infoable');
    if (infoEl && S.infoMap.has(infoEl)) showInfo(S.infoMap.get(infoEl));
    if (sel && $('#game').contains(sel)) choose(sel.dataset.act);
    const place = ev.target.closest('#tw-board [data-ref]');
    if (place && (place.classList.contains('tw-sel') || place.classList.contains('tw-focused'))) TW.onBoardClick(place);
  });
  $('#table').addEventListener('mouseover', (ev) => {
    const sel = ev.target.closest('.selectable[data-act]');
    if (sel) {
      if (S.hover !== sel.dataset.act) setHover(sel.dataset.act);
    }
  });
  $('#table').addEventListener('mouseout', (ev) => {
    const sel = ev.target.closest('.selectable[data-act]');
    if (sel && !sel.contains(ev.relatedTarget)) setHover(null);
  });
  document.addEventListener('keydown', (ev) => {
    if (S.replay && !ev.ctrlKey && !ev.metaKey && !ev.altKey && $('#settings-menu').hidden && onReplayKey(ev)) return;
    if (ev.key === 'Escape' && S.replay && $('#settings-menu').hidden) {
      backToList();
      return;
    }
    if (ev.key === 'Escape') {
      if (TW.clearFocus()) return;
      if (S.confirm) { S.confirm = null; S.opsSig = ''; scheduleRender(); }
      else if (S.overlay === 'game') closeOverlay();
      $('#settings-menu').hidden = true;
    }
  });
  if (window.matchMedia) {
    const mq = window.matchMedia('(prefers-reduced-motion: reduce)');
    if (mq.addEventListener) mq.addEventListener('change', applySettings);
  }
}

/* ================================================================== boot */

async function boot() {
  applySettings();
  applyStaticTexts();
  bindEvents();
  try {
    const [meta] = await Promise.all([fetchJson('/api/meta'), ensureCatalog('ja'), ensureCatalog(S.settings.lang)]);
    S.meta = meta;
    if (meta.rulesets.twgp) await Promise.all([TW.ensureCatalog('ja'), TW.ensureCatalog(S.settings.lang)]).catch(() => null);
    const remembered = $(`#start-form input[name=game][value="${S.settings.game}"]`);
    if (remembered && meta.rulesets[S.settings.game]) remembered.checked = true;
  } catch (err) {
    showScreen('start');
    toast(t('err_network'), String(err.message || err), 'error');
    return;
  }
  renderStart();
  for (const b of $$('[data-open-history], #btn-history')) b.hidden = !S.meta.store;
  const stored = loadGame();
  if (S.meta.store && /^#\/matches/.test(location.hash)) {
    S.game = stored; // set aside: 対戦に戻る rejoins it
    routeFromHash();
  } else if (stored) {
    S.game = stored;
    showScreen('game');
    renderConnecting();
    connect();
  } else {
    showScreen('start');
  }
  // Other languages' catalogue in the background, for a quick switch.
  for (const lang of Object.keys(I18N)) {
    ensureCatalog(lang).catch(() => {});
    if (S.meta.rulesets.twgp) TW.ensureCatalog(lang).catch(() => {});
  }
}

// A read-only handle for tests and debugging: the last view and the connection status.
window.kobo = {
  get view() { return S.view; },
  get game() { return S.game ? { id: S.game.id, seat: S.game.seat } : null; },
  get settings() { return { ...S.settings, effectiveMotion: effectiveMotion() }; },
  get awaiting() { return S.awaiting; },
  get stateSeq() { return S.stateSeq || 0; },
  get perf() { return { renders: S.renders || 0, last: S.renderMs || 0, total: S.renderTotal || 0 }; },
  get connected() { return !!(S.ws && S.ws.readyState === WebSocket.OPEN); },
  get replay() {
    const R = S.replay;
    return R ? { id: R.id, step: R.step, target: R.target, steps: R.steps, seat: R.seat, playing: R.playing, speed: R.speed, seats: R.info.seats } : null;
  },
  // What anyone could type in the developer tools: send a raw message, or drop the socket
  // (the page then reconnects with backoff, as after a network failure).
  send(msg) { return send(msg); },
  dropConnection() { if (S.ws) S.ws.close(4000, 'dropped'); },
};

export {
  S, I18N, h, put, t, $, $$, fetchJson, toast, showScreen, scheduleRender, cat, seatName, whoseOf, actionText,
  beginGame, leaveGame, resumeGame, disconnect, closeOverlay, saveSettings, levelName,
  seatLabel, me, isSpectator, isMyPrompt, online, choose, infoable, openOverlay, playAgain,
  rulesetOf, isOver, promptLabel, anyActionText, ownTokens,
};

boot();
