// Shared texts of the page (Japanese by default, English available) and the way each game
// module adds its own: `texts(table)` makes a game's translator that reads the game's table
// first and falls back to the shell's.

import { S } from './state.js';

/** The shell's texts: start screen, connection, tools, settings, log, history, replay. */
export const I18N = {
  ja: {
    tagline: '罠と戦術で応酬する二人用カードバトル。先に2勝した側がマッチの勝者です。', game: 'ゲーム', f_game: 'ゲーム', mode: '対戦モード',
    mode_vs_com: '対COM', mode_com_vs_com: 'COM同士', mode_vs_human: '友達と対戦', 'opp_thinking@vs_human': '相手が考えています…', 'opp_responding@vs_human': '相手が応答しています…', mode_hint_vs: 'あなたは下側を操作します。COMの手札と伏せ罠は見えません。',
    mode_hint_cc: '両者をCOMが操作し、マッチ終了まで観戦します（下側の視点）。', view_list: 'デッキリストを見る', com_level: 'COMの強さ',
    com_random: 'ランダム（練習用）', com_heuristic: '定石（すぐ指す）', 'com_ismcts-easy': 'やさしい',
    'com_ismcts-normal': 'ふつう', 'com_ismcts-strong': 'つよい', com_tutorial: 'チュートリアル', com_other: 'そのほか', advanced: '詳細設定', pace: 'COMの速さ（1手の間隔）',
    pace_default: 'サーバー既定', seconds: '{n}秒', pace_default_n: 'サーバー既定（{amount}）', seed: 'シード（空欄でランダム。指定すると練習用の公開配札）', start: '対戦開始', starting: '開始中…', undo: '一つ戻る', redo: '一つ進む',
    live: 'ライブに戻る', show_all: 'すべて表示', settings: '演出設定', motion: '画面の動き', motion_on: '通常',
    motion_reduced: '控えめ', motion_off: 'オフ', lane_highlight: '処理レーンの強調表示', show_log: '攻防連鎖ログを表示',
    show_history: '対戦履歴を表示', new_match: '新しい対戦', quit_confirm: 'もう一度押すと終了', log_title: '攻防連鎖',
    history_title: '対戦履歴', ops_title: '操作', you: 'あなた', opp: '相手', com_suffix: '（COM）', best_of: '{n}本勝負',
    turn: 'ターン{n}', info_empty: '盤面のカードや山札を押すと、ここに詳細が表示されます。', reconnecting: '再接続中…（{n}回目）', moving: '別のサーバーで再開中…（{n}回目）',
    connecting: '接続中…', undo_none: '戻せる操作がありません', redo_none: '進める操作がありません',
    undo_opponent: '相手が判断した時点より前には戻れません', undo_learned: '新しく知った情報（引いた・公開されたカード、ランダムな結果）より前には戻れません',
    undo_over: 'マッチは終了しました。戻すことはできません（記録から再生・分岐できます）', undo_first: 'これ以上は戻れません', redo_live: 'ライブ表示中です',
    boundary: 'ここより前には戻れません', err_refused: '受け付けられませんでした', err_malformed: '不正なメッセージ', err_invalid: '不正なメッセージ',
    err_too_large: 'メッセージが大きすぎます', err_unknown_game: '対戦が見つかりません',
    err_evicted: 'この対戦は終了し、サーバーから閉じられました（対戦記録から見られます）', err_rate_limited: '操作が多すぎます。少し待ってください',
    err_too_deep: '不正なメッセージ', err_binary: '不正なメッセージ', err_internal: 'サーバーエラー', err_start: '対戦を開始できません',
    err_network: '接続エラー', err_generic: 'エラー', dismiss: '閉じる', matches_title: '対戦記録', back: '戻る',
    back_to_game: '対戦に戻る', f_deck: 'デッキ', f_result: '結果', f_source: '種類', f_since: '開始日', f_until: '終了日',
    f_clear: '条件をクリア', f_all: 'すべて', r_p1: 'P1の勝ち', r_p2: 'P2の勝ち', r_none: '勝者なし', r_open: '対戦中', f_state: '状態', st_live: '対戦中', st_abandoned: '放棄', st_finished: '終了',
    mh_pick: 'この記録を選ぶ', mh_pick_page: 'このページをすべて選ぶ', mh_selected: '{n}件を選択中', mh_delete: '選んだ記録を削除', mh_delete_confirm: 'もう一度押すと {n}件を完全に削除', mh_deleted: '{n}件の記録を削除しました。', mh_delete_err: '記録を削除できませんでした', mh_unselect: '選択を解除', mh_live_note: '対戦中の記録は削除できません（対戦を終えるか離れてから）。',
    r_abandoned: '放棄', drawer_log: 'ログ・COM', drawer_info: 'カード情報', menu: 'メニュー', more_choices: '他の選択肢 {n}件 ▲', sheet_close: '閉じる ▼', open_deal: '公開配札（練習）', open_deal_short: '練習', list_dot: '・', open_deal_note: 'この対戦の配札は画面側で決めたもの（シード指定など）です。公正な対戦としては扱われません。', src_server: '対戦', src_branch: '続き', src_sim: 'シミュレーション', src_import: '取り込み',
    src_play: '記録', branch_of: '#{id}の{step}手目から', col_when: '日時', col_decks: 'デッキ', col_players: '対戦者',
    col_result: '結果', col_steps: '手数', col_source: '種類', n_steps: '{n}手', human: 'あなた', prev_page: '‹ 前へ',
    next_page: '次へ ›', page_range: '{from}–{to}件目', mh_empty: '条件に合う対戦はありません。', mh_guest_choosing: '（相手がデッキを選択中）', mh_loading: '読み込み中…',
    open: '開く', replay: 'リプレイ', replay_title: '再生', replay_step: 'ステップ {step} / {steps}', rp_seek: 'ステップ',
    rp_prev_turn: '前のターン (PageUp)', rp_next_turn: '次のターン (PageDown)', rp_prev: '一つ戻る (←)',
    rp_next: '一つ進む (→)', rp_play: '再生 (Space)', rp_pause: '一時停止 (Space)', rp_turn: 'ターン', rp_speed: '速さ',
    rp_seat: '視点', seat_p1: 'P1', seat_p2: 'P2', seat_all: 'すべて', rp_all_locked: '「すべて」はマッチ終了後に選べます。',
    rp_all_why: '非公開のカードを守るため、「すべて」はマッチ終了後に選べます。', rp_seat_locked: '対戦中のCOMの視点は見られません（手札が見えてしまうため）。',
    rp_start: '開始時の局面', rp_move: '{who}：{action}', rp_continue: 'この局面から対戦', rp_continue_open: 'この対戦が終わってから続けられます（今続けると、相手の見えないカードをCOMが使ってしまいます）。', rp_continue_person: '人との対戦は続けられません（相手の見えないカードをCOMが使ってしまいます）。',
    rp_continue_note: 'あなた：{seat} ／ 相手：COM（{com}）', seat_viewing: 'P{n}（視点）',
    rp_continue_over: 'この局面ではマッチが終わっています。', rp_all_locked_game: '「すべて」はゲーム終了後に選べます。',
    rp_all_why_game: '非公開のカードを守るため、「すべて」はゲーム終了後に選べます。',
    rp_seat_locked_game: '対戦中のCOMの視点は見られません（手札が見えてしまうため）。', rp_continue_over_game: 'この局面ではゲームが終わっています。',
    err_replay: 'リプレイを開けません', err_continue: 'この局面から始められません', err_history: '対戦記録を読み込めません', why_title: 'COMの判断',
    show_why: 'COMの判断を表示', why_none: 'COMはまだ判断していません。', why_chose: '選んだ手',
    why_hidden: 'COMの手札に関わる判断のため候補は非表示', why_no_cands: 'このCOMは候補を記録しません。', why_visits: '探索回数',
    why_value: '評価値', r_you: 'あなたの勝ち', r_com: 'COMの勝ち', rules: 'ルール', credits: 'クレジット',
    help_toc: '目次', rules_of: 'ルール：{game}', help_tabs: 'ルールとクレジット', lang_switch: '表示言語', help_loading: '読み込み中…', help_error: '読み込めませんでした', help_keys: 'キーボード操作',
    help_screen_guide: '画面の見方', keys_tab: '選択肢・盤面の光っている場所・ボタンへ順に移動',
    keys_enter: 'フォーカスしている選択肢・場所を選ぶ', keys_num: '操作パネルの上から n 番目の選択肢を選ぶ',
    keys_confirm: '確認が出ているときは「はい」（パスの確認など）', keys_escape: '確認・盤面での絞り込みを取り消す／この画面を閉じる',
    keys_undo: '一つ戻る', keys_redo: '一つ進む', keys_help: 'ルール（この画面）を開く', keys_ops: '操作パネルの最初の選択肢へ移動',
    keys_replay: 'リプレイ：← → で一手ずつ、PageUp / PageDown でターンごと、Space で再生・停止',
    cr_intro: 'このアプリで使っている素材とそのライセンスです。', cr_license: 'ライセンス', cr_authors: '作者',
    cr_icons: 'アイコン {n}点', cr_none: '外部の素材は使っていません。', cr_by: '{name}（作者：{author}）',
    cr_full_text: 'ライセンス全文', cr_home: '配布元', log_live: '新しいログ', skip_ops: '操作パネルへ',
    // the deck builder (shell/decks.js)
    decks_title: 'デッキ構築', design_title: 'デザイン', db_saved: '保存したデッキ', db_none_saved: '保存したデッキはまだありません。',
    db_no_store: 'このサーバーはデッキを保存しません（記録なしで起動しています）。確認・インポート・エクスポートは使えます。',
    db_remote: '保存したデッキは、このサーバーを動かしているマシンのプレイヤーのものです。確認・インポート・エクスポートは使えます。',
    db_new_from: '新しく作る', db_blank: '空のデッキから', db_from_starter: '「{name}」から', db_new: '新規作成',
    db_name: 'デッキ名', db_untitled: '新しいデッキ', db_save: '上書き保存', db_save_first: '保存', db_save_new: '新規保存',
    db_rename: '名前変更', db_copy: 'コピー', db_delete: '削除', db_delete_confirm: 'もう一度押すと削除', db_open: '開く',
    db_ok: '決定', db_cancel: 'やめる', db_import: 'インポート', db_export: 'エクスポート',
    db_import_hint: 'デッキファイル（.toml）の中身を貼り付けるか、ファイルを選んでください。', db_import_file: 'ファイルを選ぶ',
    db_import_go: '読み込む', db_import_errors: 'このデッキファイルは読み込めません：', db_import_too_large: 'ファイルが大きすぎます（{n}文字まで）。',
    db_valid: '使用可能', db_valid_warn: '使用可能（注意 {n}件）', db_valid_warn_one: '使用可能（注意 1件）', db_problems: '問題 {n}件', db_problem_one: '問題 1件', db_checking: '確認中…', db_unsaved: '未保存の変更あり',
    db_not_saved: '未保存', db_saved_as: '保存済み：{name}', db_discard_confirm: '変更を破棄して続ける？', db_pool: 'カードプール',
    db_deck: '編集中のデッキ', db_copy_name: '{name}のコピー', db_err: 'デッキを保存・変更できませんでした',
    db_saved_ok: '「{name}」を保存しました。', db_renamed: '名前を「{name}」に変更しました。', db_copied: '「{name}」を作りました。',
    db_deleted: '「{name}」を削除しました。', db_opened: '「{name}」を開きました。', db_imported: '「{name}」を読み込みました（まだ保存していません）。',
    db_exported: '{file} を書き出しました。',
    why_sending: '送信中です。', why_offline: 'サーバーとの接続が切れています。',
    resign: '投了', resign_confirm: 'もう一度押すと投了', resign_title: '投了する（この対戦は相手の勝ちになります）',
    end_you_win: 'あなたの勝ち', end_you_lose: 'あなたの負け', end_wins: '{who}の勝ち',
    end_resign_won: '相手が投了しました。', end_resign_lost: 'あなたが投了しました。',
    end_timeout_won: '相手の持ち時間が切れました。', end_timeout_lost: 'あなたの持ち時間が切れました。',
    end_resigned_by: '{who}が投了しました。', end_timeout_of: '{who}の持ち時間が切れました。',
    end_abandon_won: '相手が対戦を離れ、戻りませんでした。', end_abandon_lost: 'あなたが対戦を離れ、猶予のうちに戻りませんでした。',
    end_abandoned_by: '{who}が対戦を離れ、戻りませんでした。', end_over: '対戦終了', end_show_result: '結果を見る',
    end_again: 'もう一度（同じ設定）', end_to_start: 'スタート画面へ', end_see_board: '盤面を見る',
    err_over: 'この対戦はもう終わっています（対戦記録から再生や続きができます）',
    rpace_title: '解決の再生速度', rpace_off: 'なし（すぐ表示）', rpace_fast: '速い', rpace_normal: 'ふつう', rpace_slow: 'ゆっくり',
    banner_close: '結果を閉じる', pv_title: 'この選択の見通し', pv_tap_again: 'もう一度タップで決定', pv_none: '',
    gl_title: '用語集', gl_intro: 'ゲームに出てくる言葉の意味です。画面では点線の下線の付いた言葉にカーソルを合わせる（タップする）と説明が出ます。',
  },
  en: {
    tagline: 'A two-player card battle of traps and tactics. The first to win two games wins the match.',
    game: 'Game', f_game: 'Game', mode: 'Mode', mode_vs_com: 'vs COM', mode_com_vs_com: 'COM vs COM', mode_vs_human: 'Play a friend', 'opp_thinking@vs_human': 'Your opponent is thinking…', 'opp_responding@vs_human': 'Your opponent is responding…',
    mode_hint_vs: "You play the bottom seat. COM's hands and face-down traps stay hidden.",
    mode_hint_cc: "COM plays both seats; watch the match to the end (bottom seat's view).",
    view_list: 'View deck list', com_level: 'COM strength', com_random: 'Random (practice)',
    com_heuristic: 'Rule-based (quick)', 'com_ismcts-easy': 'Easy', 'com_ismcts-normal': 'Normal',
    'com_ismcts-strong': 'Strong', com_tutorial: 'Tutorial', com_other: 'Other', advanced: 'Advanced', pace: 'COM pace (seconds per move)',
    pace_default: 'Server default', seconds: '{n} s', pace_default_n: 'Server default ({amount})', seed: 'Seed (blank: random; a chosen seed makes a practice open deal)', start: 'Start match', starting: 'Starting…',
    undo: 'Undo', redo: 'Redo', live: 'Back to live', show_all: 'Show all', settings: 'Display',
    motion: 'Screen motion', motion_on: 'On', motion_reduced: 'Reduced', motion_off: 'Off',
    lane_highlight: 'Highlight the resolve lane', show_log: 'Show the chain log',
    show_history: 'Show the match history', new_match: 'New match', quit_confirm: 'Press again to leave',
    log_title: 'Chain log', history_title: 'Match history', ops_title: 'Actions', you: 'You', opp: 'Opponent',
    com_suffix: ' (COM)', best_of: 'Best of {n}', turn: 'Turn {n}',
    info_empty: 'Press a card or a deck on the board to see its details here.',
    reconnecting: 'Reconnecting… (attempt {n})', moving: 'Resuming on another server… (attempt {n})', connecting: 'Connecting…', undo_none: 'Nothing to undo',
    redo_none: 'Nothing to redo', undo_opponent: "Cannot undo past the opponent's decision",
    undo_learned: 'Cannot undo past something you learned (a card drawn or shown, a random outcome)',
    undo_over: 'The match is over: nothing can be undone (replay or branch it from its record)',
    undo_first: 'Already at the first step', redo_live: 'Already live', boundary: 'Undo stops here',
    err_refused: 'Refused', err_malformed: 'Invalid message', err_invalid: 'Invalid message',
    err_too_large: 'Message too large', err_unknown_game: 'Game not found',
    err_evicted: 'This match has ended and was closed on the server (see the match history)',
    err_rate_limited: 'Too many actions: wait a moment', err_too_deep: 'Invalid message',
    err_binary: 'Invalid message', err_internal: 'Server error', err_start: 'Could not start the match',
    err_network: 'Connection error', err_generic: 'Error', dismiss: 'Dismiss',
    matches_title: 'Recorded matches', back: 'Back', back_to_game: 'Back to the game', f_deck: 'Deck',
    f_result: 'Result', f_source: 'Kind', f_since: 'From', f_until: 'To', f_clear: 'Clear filters',
    f_all: 'All', r_p1: 'P1 won', r_p2: 'P2 won', r_none: 'No winner', r_open: 'Being played', f_state: 'State', st_live: 'Being played', st_abandoned: 'Abandoned', st_finished: 'Finished',
    mh_pick: 'Select this record', mh_pick_page: 'Select this page', mh_selected: '{n} selected', mh_delete: 'Delete the selected records', mh_delete_confirm: 'Press again to delete {n} for good', mh_deleted: 'Deleted {n} records.', mh_delete_err: 'The records could not be deleted', mh_unselect: 'Clear the selection', mh_live_note: 'A match being played cannot be deleted (finish or leave it first).',
    r_abandoned: 'Abandoned', drawer_log: 'Log · COM', drawer_info: 'Card info', menu: 'Menu', more_choices: '{n} more choices ▲', sheet_close: 'Close ▼', open_deal: 'open deal (practice)', open_deal_short: 'practice', list_dot: ' · ', open_deal_note: 'This match was dealt as the page asked (a chosen seed, say): practice, not a fair match.', src_server: 'Game', src_branch: 'Continued', src_sim: 'Simulation',
    src_import: 'Imported', src_play: 'Recorded', branch_of: 'from #{id}, step {step}', col_when: 'Date',
    col_decks: 'Decks', col_players: 'Players', col_result: 'Result', col_steps: 'Steps', col_source: 'Kind',
    n_steps: '{n} steps', human: 'You', prev_page: '‹ Previous', next_page: 'Next ›',
    page_range: '{from}–{to}', mh_empty: 'No match fits these filters.', mh_guest_choosing: '(the guest is choosing)', mh_loading: 'Loading…', open: 'Open',
    replay: 'Replay', replay_title: 'Replay', replay_step: 'Step {step} / {steps}', rp_seek: 'Step',
    rp_prev_turn: 'Previous turn (PageUp)', rp_next_turn: 'Next turn (PageDown)', rp_prev: 'Step back (←)',
    rp_next: 'Step forward (→)', rp_play: 'Play (Space)', rp_pause: 'Pause (Space)', rp_turn: 'Turn',
    rp_speed: 'Speed', rp_seat: 'View', seat_p1: 'P1', seat_p2: 'P2', seat_all: 'All',
    rp_all_locked: '"All" opens once the match is over.',
    rp_all_why: '"All" opens once the match is over: hidden cards stay hidden until then.',
    rp_seat_locked: "A COM seat's view stays closed while the match is on (it would show its hand).",
    rp_start: 'The opening position', rp_move: '{who}: {action}', rp_continue: 'Play on from here', rp_continue_open: 'You can play on from here once it has ended (now COM would play your opponent\'s hidden cards).', rp_continue_person: 'Play against a person cannot be continued against COM (COM would play their hidden cards).',
    rp_continue_note: 'You: {seat} · opponent: COM ({com})', seat_viewing: 'P{n} (view)',
    rp_continue_over: 'The match is over at this step.',
    rp_all_locked_game: '"All" opens once the game is over.',
    rp_all_why_game: '"All" opens once the game is over: hidden cards stay hidden until then.',
    rp_seat_locked_game: "A COM seat's view stays closed while the game is on (it would show its hand).",
    rp_continue_over_game: 'The game is over at this step.', err_replay: 'Cannot open the replay',
    err_continue: 'Cannot start from this step', err_history: 'Cannot load the recorded matches',
    why_title: "COM's reasoning", show_why: "Show COM's reasoning",
    why_none: 'COM has not decided anything yet.', why_chose: 'Chose',
    why_hidden: "Candidates hidden: they would reveal COM's cards",
    why_no_cands: 'This COM level keeps no candidate list.', why_visits: 'visits', why_value: 'value',
    r_you: 'You won', r_com: 'COM won', rules: 'Rules', credits: 'Credits', help_toc: 'Contents', rules_of: 'Rules: {game}', help_tabs: 'Rules and credits', lang_switch: 'Language',
    help_loading: 'Loading…', help_error: 'Could not load this page', help_keys: 'Keyboard',
    help_screen_guide: 'Using the screen', keys_tab: 'Move between the choices, the glowing places of the board and the buttons',
    keys_enter: 'Choose the focused choice or place', keys_num: 'Choose the n-th choice of the actions panel',
    keys_confirm: 'Answer yes to a confirmation (such as passing)', keys_escape: 'Cancel a confirmation or a selection on the board; close this screen',
    keys_undo: 'Undo', keys_redo: 'Redo', keys_help: 'Open the rules (this screen)', keys_ops: 'Move to the first choice of the actions panel',
    keys_replay: 'Replay: ← → one step, PageUp / PageDown one turn, Space plays or pauses',
    cr_intro: 'The assets this app uses and their licences.', cr_license: 'Licence', cr_authors: 'Authors',
    cr_icons: '{n} icons', cr_none: 'No outside assets.', cr_by: '{name} by {author}', cr_full_text: 'Full licence text',
    cr_home: 'Source', log_live: 'New log entries', skip_ops: 'To the actions',
    // the deck builder (shell/decks.js)
    decks_title: 'Deck builder', design_title: 'Design', db_saved: 'Saved decks', db_none_saved: 'No saved decks yet.',
    db_no_store: 'This server keeps no decks (it runs without a store). Checking, import and export still work.',
    db_remote: 'Saved decks belong to the player at the machine that runs this server. Checking, import and export still work.',
    db_new_from: 'New deck', db_blank: 'From scratch', db_from_starter: 'From “{name}”', db_new: 'Create',
    db_name: 'Deck name', db_untitled: 'New deck', db_save: 'Save', db_save_first: 'Save', db_save_new: 'Save as new',
    db_rename: 'Rename', db_copy: 'Copy', db_delete: 'Delete', db_delete_confirm: 'Press again to delete', db_open: 'Open',
    db_ok: 'OK', db_cancel: 'Cancel', db_import: 'Import', db_export: 'Export',
    db_import_hint: 'Paste a deck file (.toml) or choose one.', db_import_file: 'Choose a file',
    db_import_go: 'Import', db_import_errors: 'This deck file cannot be read:', db_import_too_large: 'The file is too large (at most {n} characters).',
    db_valid: 'Valid', db_valid_warn: 'Valid ({n} warnings)', db_valid_warn_one: 'Valid (1 warning)', db_problems: '{n} problems', db_problem_one: '1 problem', db_checking: 'Checking…', db_unsaved: 'Unsaved changes',
    db_not_saved: 'Not saved', db_saved_as: 'Saved as {name}', db_discard_confirm: 'Discard changes?', db_pool: 'Card pool',
    db_deck: 'Your deck', db_copy_name: 'Copy of {name}', db_err: 'The deck could not be saved or changed',
    db_saved_ok: 'Saved “{name}”.', db_renamed: 'Renamed to “{name}”.', db_copied: 'Made “{name}”.',
    db_deleted: 'Deleted “{name}”.', db_opened: 'Opened “{name}”.', db_imported: 'Imported “{name}” (not saved yet).',
    db_exported: 'Exported {file}.',
    why_sending: 'Sending your choice.', why_offline: 'The connection to the server is lost.',
    resign: 'Resign', resign_confirm: 'Press again to resign', resign_title: 'Resign: your opponent wins this match',
    end_you_win: 'You win', end_you_lose: 'You lose', end_wins: '{who} wins',
    end_resign_won: 'Your opponent resigned.', end_resign_lost: 'You resigned.',
    end_timeout_won: "Your opponent's time ran out.", end_timeout_lost: 'Your time ran out.',
    end_resigned_by: '{who} resigned.', end_timeout_of: "{who}'s time ran out.",
    end_abandon_won: 'Your opponent left the match and did not come back.', end_abandon_lost: 'You left the match and did not come back in time.',
    end_abandoned_by: '{who} left the match and did not come back.', end_over: 'Match over', end_show_result: 'Show the result',
    end_again: 'Again (same settings)', end_to_start: 'Back to the start screen', end_see_board: 'See the board',
    err_over: 'This match is over (replay or continue it from the match history)',
    rpace_title: 'Resolution playback', rpace_off: 'Off (instant)', rpace_fast: 'Fast', rpace_normal: 'Normal', rpace_slow: 'Slow',
    banner_close: 'Close the result', pv_title: 'What this choice does', pv_tap_again: 'Tap again to choose', pv_none: '',
    gl_title: 'Glossary', gl_intro: "The words of the game. On the board, hover over (or tap) a word with a dotted underline to read its meaning.",
  },
};

/** The languages the page speaks. */
export const LANGS = Object.keys(I18N);

function fill(s, params) {
  if (params) for (const [k, v] of Object.entries(params)) s = s.split(`{${k}}`).join(String(v));
  return s;
}

/** A shell text in the current language, `{name}` parameters filled in. */
export function t(key, params) {
  const table = I18N[S.settings.lang] || I18N.ja;
  return fill(table[key] ?? I18N.ja[key] ?? key, params);
}

/** Whether the shell has a text for `key`. */
export function hasText(key) {
  return key in I18N.ja;
}

/** A translator for a game's own table ({ja: {...}, en: {...}}), falling back to the shell's
 *  texts; its `has(key)` says whether either table knows the key. In a match between two
 *  people, a shell text `<key>@vs_human` replaces the game's `<key>` (a game's "COM is
 *  thinking" is a person thinking there). */
export function texts(table) {
  const tr = (key, params) => {
    const mode = S.view && !S.replay && S.view.session ? S.view.session.mode : null;
    if (mode === 'vs_human' && hasText(`${key}@vs_human`)) return t(`${key}@vs_human`, params);
    const own = table[S.settings.lang] || table.ja;
    const s = own[key] ?? table.ja[key];
    return s == null ? t(key, params) : fill(s, params);
  };
  tr.has = (key) => key in table.ja || hasText(key);
  return tr;
}
