// TWGP トランプ版 board: the three grids per player, stacks, poses, surge, storage, vitals and
// the response window, drawn from the TWGP view the server sends.
//
// app.js owns the page (connection, top bar tools, log, settings, overlays) and hands a view
// whose `ruleset` is "twgp" to this module. Like the Kōbō board, it never decides what is
// legal: every choice is one of `view.pending.legal`, sent back as it is. The board only maps
// an action's words (squares, card names) to the places they name, so the places light up
// and a click on a place narrows the offered choices to those that involve it.

import {
  S, h, put, $, $$, fetchJson, seatName, seatLabel, whoseOf, me, isSpectator, isMyPrompt, online,
  choose, infoable, openOverlay, closeOverlay, playAgain, leaveGame, scheduleRender,
} from './app.js';

/* ================================================================== texts */

const TX = {
  ja: {
    title: 'TWGP トランプ版', brand: 'TWGP',
    tagline: 'トランプ1組で遊ぶTWGPハーフ・バトル。相手のヴァイタル3枚を失効させ、さらにダメージを与えた側の勝ち。',
    quick_start: 'ランダム配布で始める（構築を省略）',
    quick_start_hint: 'オフなら、プール26枚からヴァイタル3枚・除外3枚・初期手札0〜6枚を自分で選んで構築します。',
    switches: 'ルール・スイッチ', grid_width: 'グリッドの横幅',
    battle_row: 'バトル', vital_row: 'ヴァイタル', charge_row: 'チャージ',
    surge: 'サージ', storage: 'ストレージ', pile: '山札', hand: '手札', aside: 'ゲーム外', pool: '構築プール',
    vitals_left: 'ヴァイタル {n}/3', hand_n: '手札 {n}', aside_n: 'ゲーム外 {n}', pile_n: '山札 {n}',
    sq: 'マス{n}', charge_n: 'チャージ{n}', vital_n: 'ヴァイタル{n}',
    pose_active: 'アクティヴ', pose_save: 'セーヴ', pose_stealth: 'ステルス', pose_gb: 'GB宣言',
    posed_active: '表向き・タテ置き：攻撃を宣言できる', posed_save: '表向き・ヨコ置き：行動済み',
    posed_stealth: '裏向き・タテ置き：潜伏中（ロックオンされない）', posed_gb: '裏向き・ヨコ置き：グリッド・ブラスト宣言中',
    vs_hidden: '有効（裏タテ）', vs_lost: '失効（表ヨコ）', vs_effect: 'ヴァイタル効果（表タテ）',
    effect_tag: '効果', lost_tag: '失効', cache_tag: '残したウェポン', cache_note: 'ユニットが捨札になっても残したウェポン。次にこのマスに置く自分のユニットのものになります。',
    zero_tag: '裏ヴァイタル0：次のダメージで負け', zero_note: '裏置きのヴァイタルが尽きました。次のターン以降にダメージを受けると負けます。', attacker: '攻撃', target: '標的', interrupter: '割り込み',
    frames: 'フレーム', weapons: 'ウェポン', pow: 'パワー', base: '基本パワー', gb_turn: 'ターン{n}に宣言',
    w_setup: '構築', w_build: 'ビルド', w_battle: 'バトル', w_response: '応答', w_damage: 'ダメージ',
    vital_effect: 'ヴァイタル効果', no_effect: 'なし', effect_inert: '（変則ルールがオフのため効果なし）',
    effect_of: '{card}（{who}）',
    at_assault: 'アサルト', at_boost: 'チャージ・ブースト', at_direct: 'ダイレクト', at_direct_intr: 'ダイレクト（割り込みでアサルトに）',
    attack_line: '{who}の{type}：マス{a} {u}（パワー{pa}）→ {target}',
    attack_target_sq: '{whose}マス{t} {u}（パワー{pt}）', attack_target_v: '{whose}ヴァイタル（パワー01扱い）',
    attack_surge_a: '攻撃側サージ{n}枚', attack_surge_d: '防御側サージ{n}枚', attack_dl: '＋{n}ダウンロード',
    attack_intr: 'マス{n}が割り込み', attack_lost: 'ロックオン喪失',
    resp_window: '応答ウィンドウ', resp_you: 'あなたが応戦するまで攻撃は解決しません。召喚・ウェポン・潜伏解除・サージで対抗できます。',
    resp_them: '{who}が応答しています。応戦すると攻撃が解決します。',
    building: '{who}は構築中です（プール{n}枚）', built_wait: '構築を終えました。相手を待っています…',
    pool_title: 'あなたの構築プール（相手には見えません）',
    stage_vitals: 'ヴァイタルにするカード（あと{n}枚）', stage_aside: 'ゲームで使わないカード（あと{n}枚）',
    stage_hand: '初期手札（{n}/6枚）。残りは山札になります',
    hidden_card: '非公開のカード', face_down: '裏向きのカード', face_down_hidden: 'このカードの内容は非公開です。',
    your_secret: '裏向き（あなたにだけ見えています）', public_down: '裏向きですが、表向きだった時に公開されています',
    kind_unit: 'ユニット', kind_weapon: 'ウェポン',
    empty_sq: '空きマス', n_cards: '{n}枚', none: 'なし', top_first: '上から',
    where_battle: '{whose}バトル・グリッド マス{n}', where_vital: '{whose}ヴァイタル{n}', where_charge: '{whose}チャージ{n}',
    where_hand: '{whose}手札', where_pool: '{whose}構築プール', where_surge: '{whose}サージ', where_storage: '{whose}ストレージ',
    where_pile: '{whose}山札', where_aside: '{whose}ゲーム外',
    pile_hidden: '山札の順序と内容は非公開です。', surge_note: '捨札は6枚まで表向きでサージに並び、溢れるとストレージへ。基本パワー06以上のアサルトでサージ3枚を消費するとサージ・ダイレクト。',
    storage_note: 'サージに置けない捨札と消費したサージ。', aside_note: '構築でゲームから外した裏向きのカード。',
    hand_hidden: '手札の内容は非公開です。',
    role_attacker: '攻撃中', role_target: '攻撃の標的',
    over: 'ゲーム終了', win_you: 'あなたの勝ち！', win_opp: '相手の勝ち', win_seat: '{who}の勝ち', draw: '引き分け',
    reason_vitals: 'ヴァイタル切れ', reason_quiet: '12ターン動きなし', reason_turn_limit: 'ターン上限',
    turns_n: '{n}ターン', in_progress: '進行中', game: 'ゲーム',
    over_ops: 'ゲームは終了しました。', show_result: '結果を見る', again: 'もう一度', to_start: 'スタート画面へ', see_board: '盤面を見る',
    your_move: 'あなたの番です', your_response: 'あなたの応答です', opp_thinking: '相手（COM）が考えています…',
    opp_responding: '相手（COM）が応答しています…', waiting_seat: '{who}の選択を待っています…', spectating: '観戦中',
    history_view: '履歴を表示中（{step} / {steps}）', replay: 'リプレイ', step: 'ステップ {step} / {steps}',
    turn: 'ターン{n}', seat_turn: '{whose}ターン', first: '先攻：{who}', setup_phase: '構築フェイズ',
    ph_build: 'ビルド・フェイズ', ph_battle: 'バトル・フェイズ',
    focus: '選択中：', clear_focus: '選択を解除', matching: 'この選択を含む操作', show_all_n: 'すべて表示（{n}件）', hide_group: 'たたむ',
    pick_hint: '盤面の光っている場所を押すと、それに関わる操作だけに絞り込めます。',
    no_action: '今は選ぶものがありません。',
    toggles_left: '裏返し・戻しの操作は残り{n}回',
    damage_done_steps: '済み：{list}', step_reload: 'リ=ロード', step_full_charge: 'フル=チャージ', step_setup: 'セットアップ',
    step_rebuild: 'リ=ビルド', step_reactive: 'リ=アクティヴ',
    pt_build: '構築', pt_setup: 'セットアップ', pt_build_window: 'ビルド・ウィンドウ', pt_battle_window: 'バトル・ウィンドウ',
    pt_response: '応答ウィンドウ', pt_recharge: 'リ=チャージ', pt_vital: 'ヴァイタル失効', pt_effect: 'ヴァイタル効果',
    pt_damage: 'ダメージ・ルーティン', pt_cache: 'ウェポンの扱い', pt_order: '捨札の順番', pt_reload: 'リロード', pt_damage_reload: 'リ=ロード',
    pr_build_vitals: 'ヴァイタルにするカードを選んでください（あと{n}枚）。ヴァイタルは裏向きで置かれ、相手には見えません。',
    pr_build_aside: 'ゲームで使わないカードを選んでください（あと{n}枚）。',
    pr_build_hand: '初期手札にするカードを選んでください（いま{n}枚、6枚まで）。「構築を終える」で残りが山札になります。',
    pr_setup: '相手のターンの始め：チャージのカードを手札にできます（手札は6枚まで）。',
    pr_setup_own: 'ビルド・フェイズの始め：チャージのカードを手札にできます（手札は6枚まで）。ほかの行動をする前の、このときだけです。',
    pr_build_window: 'ビルド・フェイズ：召喚・ウェポン・リ=アクティヴなどを好きな順に。終えたら「バトル・フェイズへ」。',
    pr_build_window_anytime: 'ビルド・フェイズ：召喚・ウェポン・セットアップ・リ=アクティヴなどを好きな順に。終えたら「バトル・フェイズへ」。',
    pr_order: '捨札になったスタックのカード（{list}）の順番を決めます。次にサージへ置くカードを選んでください（サージに入るのはあと{n}枚、残りはストレージへ）。',
    pr_battle_window: 'バトル・フェイズ：攻撃を宣言するか、召喚などを続けるか、ターンを終えます。',
    pr_response: '相手の攻撃に応答できます。終えたら「応戦する」で攻撃が解決します。',
    pr_recharge: 'チャージ・ブーストの不足分を手札からリ=チャージします（あと{n}枚）。',
    pr_vital: '失効させるヴァイタルを選んでください（{n}枚）。',
    pr_effect: '新しいヴァイタル効果にするカードを選んでください。',
    pr_damage: 'ダメージ・ルーティン：リ=ロード、フル=チャージ、セットアップ、リ=ビルド、リ=アクティヴを各1回、好きな順に。',
    pr_cache: '捨札になったユニットのウェポンをマスに残しますか？',
    pr_reload: 'さらに手札を山札の下へ戻すか、山札の上から取る枚数を選びます。',
    pr_damage_reload: 'さらに手札を山札の下へ戻すか、戻した枚数だけ山札の上から取ります。',
    gr_flow: '進行', gr_build: '構築', gr_summon: '召喚', gr_attack: '攻撃', gr_weapon: 'ウェポン', gr_pose: '表示の変更',
    gr_charge: '手札・チャージ', gr_vital: 'ヴァイタル', gr_surge: 'サージ', gr_other: 'その他',
    a_vital: '{c} をヴァイタルに', a_aside: '{c} をゲーム外に', a_hand: '{c} を初期手札に',
    a_done_build: '構築を終える（残りは山札へ）', a_done_setup: 'セットアップを終える', a_done_damage: 'ダメージ・ルーティンを終える', a_done: '終える',
    a_setup: 'チャージ{n}（{c}）を手札に', a_reactive: 'マス{n} {u} をリ=アクティヴ',
    a_charge_drive: '{c} をマス{n}にチャージ召喚（表）', a_stealth_drive: '{c} をマス{n}にステルス召喚（裏）',
    a_power_drive: '{c} をパワー召喚：核 マス{n}{mats}', a_mats: '＋素材 {list}', a_keep_gb: '（GB宣言を引き継ぐ）',
    a_counter_drive: '{c} をカウンター召喚：素材 {list}', a_from_hand: '{c}（手札）',
    a_attach: '{c} をマス{n} {u} に装備', a_weapon_back: '{c} を手札に戻す', a_weapon_move: '{c} をマス{n} {u} へ移す',
    a_stealth: 'マス{n} {u} を潜伏（裏タテ）', a_unstealth: 'マス{n} {u} の潜伏を解除', a_as_interrupter: '（割り込み）',
    a_declare_gb: 'マス{n} {u} でGブラスト宣言', a_grid_blast: 'マス{n} {u} のGブラストを実行',
    a_assault: 'アサルト：マス{a} {u}（{pa}）→ 相手マス{t} {tu}（{pt}）', a_surge_pay: '・サージ{n}枚',
    a_boost: 'ブースト：マス{a} {u}（{pa}＋{d}）→ 相手マス{t} {tu}（{pt}）',
    a_direct: 'ダイレクト：マス{a} {u}（{pa}）→ 相手のヴァイタル',
    a_surge: 'サージ{n}枚を支払う（サイトオン）', a_accept: '応戦する（攻撃を解決）', a_recharge: '{c} をリ=チャージ',
    a_battle: 'バトル・フェイズへ', a_end: 'ターン終了',
    a_flip: 'ヴァイタル{n}（{c}）を失効させる', a_effect: 'ヴァイタル{n}（{c}）をヴァイタル効果に',
    a_reload: 'リ=ロード：{c} を山札の下へ', a_shuffle: '山札をシャッフル', a_full_charge: 'フル=チャージ：{n}枚ダウンロード',
    a_keep_weapons: 'ウェポンをマスに残す', a_drop_weapons: 'ウェポンを捨てる',
    a_log_out: '{c} を次にサージへ', a_log_out_storage: '{c} を次にストレージへ', s_log_out: '{c} を先に捨札へ',
    a_reload_bottom: '{c} を山札の下へ', a_reload_take: '山札の上から{n}枚取る',
    s_vital: '{c} をヴァイタルに', s_aside: '{c} をゲーム外に', s_hand: '{c} を初期手札に', s_done: '終える',
    s_setup: 'チャージ{n}を手札に', s_reactive: 'マス{n}をリ=アクティヴ', s_charge_drive: '{c} をマス{n}にチャージ召喚',
    s_stealth_drive: '{c} をマス{n}にステルス召喚', s_power_drive: '{c} をマス{n}にパワー召喚',
    s_counter_drive: '{c} をカウンター召喚', s_attach: '{c} をマス{n}に装備', s_weapon_back: '{c} を手札に',
    s_weapon_move: '{c} をマス{n}へ', s_stealth: 'マス{n}を潜伏', s_unstealth: 'マス{n}の潜伏を解除',
    s_declare_gb: 'マス{n}でGブラスト宣言', s_grid_blast: 'マス{n}のGブラスト実行', s_assault: 'マス{a}でマス{t}にアサルト',
    s_accept: '応戦', s_end: 'ターン終了', s_battle: 'バトル・フェイズへ',
    s_boost: 'マス{a}でマス{t}にブースト', s_direct: 'マス{a}でダイレクト',
  },
  en: {
    title: 'TWGP playing-card edition', brand: 'TWGP',
    tagline: 'The TWGP half battle with one pack of playing cards. Make all three of the opponent\'s vitals lost, then deal one more damage.',
    quick_start: 'Deal at random (skip building)',
    quick_start_hint: 'Off: build from your 26-card pool — 3 vitals, 3 cards set aside, a starting hand of 0–6.',
    switches: 'Rule switches', grid_width: 'Grid width',
    battle_row: 'Battle', vital_row: 'Vital', charge_row: 'Charge',
    surge: 'Surge', storage: 'Storage', pile: 'Pile', hand: 'Hand', aside: 'Set aside', pool: 'Build pool',
    vitals_left: 'Vitals {n}/3', hand_n: 'Hand {n}', aside_n: 'Aside {n}', pile_n: 'Pile {n}',
    sq: 'square {n}', charge_n: 'charge {n}', vital_n: 'vital {n}',
    pose_active: 'Active', pose_save: 'Save', pose_stealth: 'Stealth', pose_gb: 'G-blast',
    posed_active: 'Face up, upright: may declare attacks', posed_save: 'Face up, sideways: has acted',
    posed_stealth: 'Face down, upright: stealthed (cannot be locked on)', posed_gb: 'Face down, sideways: a declared G-blast',
    vs_hidden: 'Valid (face down, upright)', vs_lost: 'Lost (face up, sideways)', vs_effect: 'The vital effect (face up, upright)',
    effect_tag: 'Effect', lost_tag: 'Lost', cache_tag: 'Weapons left', cache_note: 'Weapons kept in the square after their unit was discarded; the next own unit placed here takes them.',
    zero_tag: 'No hidden vitals: next damage loses', zero_note: 'The face-down vitals are gone. Damage in a later turn loses the game.', attacker: 'Attacker', target: 'Target', interrupter: 'Interrupter',
    frames: 'Frames', weapons: 'Weapons', pow: 'Power', base: 'Base power', gb_turn: 'declared on turn {n}',
    w_setup: 'Setup', w_build: 'Build', w_battle: 'Battle', w_response: 'Response', w_damage: 'Damage',
    vital_effect: 'Vital effect', no_effect: 'none', effect_inert: '(the variant is off: no effect)',
    effect_of: '{card} ({who})',
    at_assault: 'assault', at_boost: 'charge boost', at_direct: 'direct', at_direct_intr: 'direct (interrupted: now an assault)',
    attack_line: "{who}: {type} with square {a} {u} (power {pa}) → {target}",
    attack_target_sq: "{whose} square {t} {u} (power {pt})", attack_target_v: "{whose} vitals (counted as power 01)",
    attack_surge_a: 'attacker paid {n} surge', attack_surge_d: 'defender paid {n} surge', attack_dl: '+{n} downloads',
    attack_intr: 'square {n} interrupts', attack_lost: 'lock-on lost',
    resp_window: 'Response window', resp_you: 'The attack resolves only when you accept. Answer with summons, weapons, un-stealth or surge.',
    resp_them: '{who} is responding. The attack resolves when they accept.',
    building: '{who} is building ({n} cards in the pool)', built_wait: 'Built. Waiting for the opponent…',
    pool_title: 'Your build pool (hidden from the opponent)',
    stage_vitals: 'Vitals ({n} more)', stage_aside: 'Cards set aside ({n} more)', stage_hand: 'Starting hand ({n}/6); the rest becomes the pile',
    hidden_card: 'a hidden card', face_down: 'Face-down card', face_down_hidden: 'Its identity is hidden.',
    your_secret: 'Face down (only you see it)', public_down: 'Face down, but it was public while face up',
    kind_unit: 'Unit', kind_weapon: 'Weapon',
    empty_sq: 'Empty square', n_cards: '{n} cards', none: 'none', top_first: 'top first',
    where_battle: '{whose} battle grid, square {n}', where_vital: '{whose} vital {n}', where_charge: '{whose} charge {n}',
    where_hand: '{whose} hand', where_pool: '{whose} build pool', where_surge: '{whose} surge', where_storage: '{whose} storage',
    where_pile: '{whose} pile', where_aside: '{whose} cards set aside',
    pile_hidden: 'The order and contents of the pile are hidden.', surge_note: 'Up to 6 discards lie face up in the surge; the rest go to the storage. An assault by a base-06+ unit may spend 3 surge for a surge-direct.',
    storage_note: 'Discards that did not fit in the surge, and spent surge.', aside_note: 'Face-down cards left out of the game when building.',
    hand_hidden: 'The hand is hidden.',
    role_attacker: 'Attacking', role_target: 'Target of the attack',
    over: 'Game over', win_you: 'You win!', win_opp: 'The opponent wins', win_seat: '{who} wins', draw: 'Draw',
    reason_vitals: 'out of vitals', reason_quiet: '12 quiet turns', reason_turn_limit: 'turn limit',
    turns_n: '{n} turns', in_progress: 'in progress', game: 'Game',
    over_ops: 'The game is over.', show_result: 'Show result', again: 'Play again', to_start: 'Start screen', see_board: 'See the board',
    your_move: 'Your move', your_response: 'Your response', opp_thinking: 'COM is thinking…',
    opp_responding: 'COM is responding…', waiting_seat: 'Waiting for {who}…', spectating: 'Spectating',
    history_view: 'Viewing history ({step} / {steps})', replay: 'Replay', step: 'Step {step} / {steps}',
    turn: 'Turn {n}', seat_turn: '{whose} turn', first: 'First: {who}', setup_phase: 'Building',
    ph_build: 'Build phase', ph_battle: 'Battle phase',
    focus: 'Selected: ', clear_focus: 'Clear', matching: 'Actions with this selection', show_all_n: 'Show all ({n})', hide_group: 'Fold',
    pick_hint: 'Press a glowing place on the board to see only the actions that involve it.',
    no_action: 'Nothing to choose right now.',
    toggles_left: '{n} reversing moves left this turn',
    damage_done_steps: 'Done: {list}', step_reload: 'reload', step_full_charge: 'full-charge', step_setup: 'set-up',
    step_rebuild: 're-build', step_reactive: 're-active',
    pt_build: 'Building', pt_setup: 'Set-up', pt_build_window: 'Build window', pt_battle_window: 'Battle window',
    pt_response: 'Response window', pt_recharge: 'Re-charge', pt_vital: 'Losing vitals', pt_effect: 'Vital effect',
    pt_damage: 'Damage routine', pt_cache: 'Weapons left behind', pt_order: 'Order of a discard', pt_reload: 'Reload', pt_damage_reload: 'Reload',
    pr_build_vitals: 'Choose your vitals ({n} more). They lie face down; the opponent cannot see them.',
    pr_build_aside: 'Choose cards to leave out of the game ({n} more).',
    pr_build_hand: 'Choose your starting hand ({n} so far, at most 6). "Finish building" makes the rest your pile.',
    pr_setup: "At the start of the opponent's turn you may move charge cards into your hand (at most 6).",
    pr_setup_own: 'Start of your build phase: you may move charge cards into your hand (at most 6), only now, before any other action.',
    pr_build_window: 'Build phase: summon, attach weapons, re-active… in any order. Then go to the battle phase.',
    pr_build_window_anytime: 'Build phase: summon, attach weapons, set up, re-active… in any order. Then go to the battle phase.',
    pr_order: "Order the discarded stack's cards ({list}): choose the card that goes next into the surge ({n} more fit there; the rest go to the storage).",
    pr_battle_window: 'Battle phase: declare an attack, keep building, or end the turn.',
    pr_response: "Answer the opponent's attack. Accept to let it resolve.",
    pr_recharge: 'The boost needs more downloads: re-charge hand cards ({n} more).',
    pr_vital: 'Choose the vitals you lose ({n}).',
    pr_effect: 'Choose the card that becomes the vital effect.',
    pr_damage: 'Damage routine: reload, full-charge, set-up, re-build and re-active, each at most once, in any order.',
    pr_cache: "Keep the discarded unit's weapons in its square?",
    pr_reload: 'Put more hand cards on the pile bottom, or choose how many to take from the top.',
    pr_damage_reload: 'Put more hand cards on the pile bottom, or take as many from the top as you put.',
    gr_flow: 'Flow', gr_build: 'Building', gr_summon: 'Summon', gr_attack: 'Attack', gr_weapon: 'Weapons', gr_pose: 'Poses',
    gr_charge: 'Hand and charge', gr_vital: 'Vitals', gr_surge: 'Surge', gr_other: 'Other',
    a_vital: '{c} as a vital', a_aside: 'Set {c} aside', a_hand: '{c} into the starting hand',
    a_done_build: 'Finish building (the rest becomes the pile)', a_done_setup: 'Done setting up', a_done_damage: 'End the damage routine', a_done: 'Done',
    a_setup: 'Charge {n} ({c}) into the hand', a_reactive: 'Re-active {u} (square {n})',
    a_charge_drive: 'Charge-drive {c} into square {n} (face up)', a_stealth_drive: 'Stealth-drive {c} into square {n} (face down)',
    a_power_drive: 'Power-drive {c}: core square {n}{mats}', a_mats: ' + materials {list}', a_keep_gb: ' (keeps the G-blast)',
    a_counter_drive: 'Counter-drive {c}: materials {list}', a_from_hand: '{c} (hand)',
    a_attach: 'Attach {c} to {u} (square {n})', a_weapon_back: 'Return {c} to the hand', a_weapon_move: 'Move {c} to {u} (square {n})',
    a_stealth: 'Stealth {u} (square {n})', a_unstealth: 'Un-stealth {u} (square {n})', a_as_interrupter: ' (interrupt)',
    a_declare_gb: 'Declare a G-blast with {u} (square {n})', a_grid_blast: 'Execute the G-blast of {u} (square {n})',
    a_assault: "Assault: square {a} {u} ({pa}) → opponent's square {t} {tu} ({pt})", a_surge_pay: ', {n} surge',
    a_boost: "Boost: square {a} {u} ({pa}+{d}) → opponent's square {t} {tu} ({pt})",
    a_direct: "Direct: square {a} {u} ({pa}) → the opponent's vitals",
    a_surge: 'Pay {n} surge (sight-on)', a_accept: 'Accept (resolve the attack)', a_recharge: 'Re-charge {c}',
    a_battle: 'To the battle phase', a_end: 'End the turn',
    a_flip: 'Lose vital {n} ({c})', a_effect: 'Vital {n} ({c}) becomes the vital effect',
    a_reload: 'Reload: {c} to the pile bottom', a_shuffle: 'Shuffle the pile', a_full_charge: 'Full-charge: download {n}',
    a_keep_weapons: 'Keep the weapons in the square', a_drop_weapons: 'Discard the weapons',
    a_log_out: 'Put {c} next into the surge', a_log_out_storage: 'Put {c} next into the storage', s_log_out: 'Discard {c} next',
    a_reload_bottom: '{c} to the pile bottom', a_reload_take: 'Take {n} from the pile top',
    s_vital: '{c} as a vital', s_aside: 'Set {c} aside', s_hand: '{c} into the hand', s_done: 'Done',
    s_setup: 'Set up charge {n}', s_reactive: 'Re-active square {n}', s_charge_drive: 'Charge-drive {c} into square {n}',
    s_stealth_drive: 'Stealth-drive {c} into square {n}', s_power_drive: 'Power-drive {c} in square {n}',
    s_counter_drive: 'Counter-drive {c}', s_attach: 'Attach {c} in square {n}', s_weapon_back: '{c} back to the hand',
    s_weapon_move: '{c} to square {n}', s_stealth: 'Stealth square {n}', s_unstealth: 'Un-stealth square {n}',
    s_declare_gb: 'Declare a G-blast in square {n}', s_grid_blast: 'Execute the G-blast of square {n}',
    s_accept: 'Accept', s_end: 'End the turn', s_battle: 'To the battle phase',
    s_assault: 'Assault square {t} with square {a}', s_boost: 'Boost against square {t} with square {a}', s_direct: 'Direct with square {a}',
  },
};

/** A TWGP text in the current language, `{name}` parameters filled in. */
export function tx(key, params) {
  const table = TX[S.settings.lang] || TX.ja;
  let s = table[key] ?? TX.ja[key] ?? key;
  if (params) for (const [k, v] of Object.entries(params)) s = s.split(`{${k}}`).join(String(v));
  return s;
}

/* ================================================================== local state */

const T = {
  catalogs: {},
  loading: {},
  focus: [], // board places (refs) the player has picked to narrow the choices
  focusKey: '', // the prompt the focus belongs to
  hover: null,
  opsSig: '',
  open: new Set(), // folded groups the player opened
  prevSigs: new Map(),
};

const DIRECT_PROMPTS = new Set(['build', 'setup', 'vital', 'effect', 'recharge']);
const GROUP_FOLD = 8;
const GROUPS = ['flow', 'build', 'vital', 'charge', 'summon', 'weapon', 'pose', 'attack', 'surge', 'other'];
const GROUP_OF = {
  battle: 'flow', end: 'flow', accept: 'flow', done: 'flow', 'keep-weapons': 'flow', 'drop-weapons': 'flow',
  'log-out': 'flow',
  'reload-take': 'flow', shuffle: 'charge',
  vital: 'build', aside: 'build', hand: 'build',
  flip: 'vital', effect: 'vital',
  setup: 'charge', recharge: 'charge', reload: 'charge', 'reload-bottom': 'charge', 'full-charge': 'charge',
  'charge-drive': 'summon', 'stealth-drive': 'summon', 'power-drive': 'summon', 'power-drive-gb': 'summon', 'counter-drive': 'summon',
  attach: 'weapon', 'weapon-back': 'weapon', 'weapon-move': 'weapon',
  reactive: 'pose', stealth: 'pose', unstealth: 'pose',
  'declare-gb': 'attack', 'grid-blast': 'attack', assault: 'attack', 'surge-assault': 'attack', boost: 'attack', direct: 'attack',
  surge: 'surge',
};

/* ================================================================== catalogue */

/** The TWGP catalogue (cards with their texts, rule switches) in `lang`, fetched once. */
export async function ensureCatalog(lang) {
  if (T.catalogs[lang]) return T.catalogs[lang];
  if (!T.loading[lang]) {
    T.loading[lang] = fetchJson(`/api/catalog/twgp?lang=${lang}`).then((c) => {
      T.catalogs[lang] = c;
      T.opsSig = '';
      scheduleRender();
      return c;
    }).catch((err) => {
      delete T.loading[lang];
      throw err;
    });
  }
  return T.loading[lang];
}

function cat() {
  return T.catalogs[S.settings.lang] || T.catalogs.ja || null;
}

/** Catalogue facts of a card by slug (label, name, kind, base, suit, text), or null. */
function cdef(slug) {
  const c = cat();
  return (c && c.cards[slug]) || (T.catalogs.ja && T.catalogs.ja.cards[slug]) || null;
}

/** The short label of a card (♠3), `…` for a hidden one. */
function label(slug) {
  if (!slug || slug === '…') return tx('hidden_card');
  const d = cdef(slug);
  return d ? d.label : slug;
}

function suitOf(card) {
  const slug = card.slug || '';
  if (slug.startsWith('joker')) return 'j';
  const d = cdef(slug);
  return (d && d.suit && d.suit.length === 1 ? d.suit : slug[0]) || 'x';
}

/* ================================================================== small helpers */

function isNum(word) {
  return /^-?\d+$/.test(word);
}

function words(action) {
  return action.split(' ');
}

function two(n) {
  return n == null ? '??' : String(n).padStart(2, '0');
}

/** The unit shown in square `n` of `seat` ("♠3" or "？"), and its power. */
function unitAt(v, seat, n) {
  const st = v.players[seat] && v.players[seat].battle[n - 1];
  if (!st) return { u: '', pow: '?' };
  return { u: st.unit ? st.unit.label : '？', pow: st.pow ?? '?' };
}

function weaponSquare(v, seat, slug) {
  const row = v.players[seat].battle;
  for (let i = 0; i < row.length; i++) {
    const st = row[i];
    if (st && st.weapons.some((w) => w.slug === slug)) return i + 1;
  }
  return null;
}

/** The seat whose decision is pending, or the bottom seat. */
function actor(v) {
  return v.pending ? v.pending.seat : me();
}

/* ================================================================== action texts */

/** The board places an action names (refs of `data-ref` elements). Geometry only. */
function refsOf(action, v) {
  const mine = actor(v);
  const opp = 1 - mine;
  const [verb, ...args] = words(action);
  const sq = (n, seat = mine) => `b:${seat}:${n}`;
  const hand = (slug) => `h:${mine}:${slug}`;
  switch (verb) {
    case 'vital': case 'aside': case 'hand': return [`p:${mine}:${args[0]}`];
    case 'setup': return [`c:${mine}:${args[0]}`];
    case 'reactive': case 'stealth': case 'unstealth': case 'declare-gb': case 'grid-blast': return [sq(args[0])];
    case 'charge-drive': case 'stealth-drive': return [hand(args[0]), sq(args[1])];
    case 'power-drive': case 'power-drive-gb': return [sq(args[0]), hand(args[1]), ...args.slice(2).map((n) => sq(n))];
    case 'counter-drive': {
      const refs = [hand(args[0]), ...args.slice(1).map((m) => (isNum(m) ? sq(m) : hand(m)))];
      if (v.attack && v.attack.target) refs.push(sq(v.attack.target));
      return refs;
    }
    case 'attach': return [hand(args[0]), sq(args[1])];
    case 'weapon-back': { const n = weaponSquare(v, mine, args[0]); return n ? [sq(n)] : []; }
    case 'weapon-move': { const n = weaponSquare(v, mine, args[0]); return [...(n ? [sq(n)] : []), sq(args[1])]; }
    case 'assault': case 'surge-assault': case 'boost': return [sq(args[0]), sq(args[1], opp)];
    case 'direct': return [sq(args[0]), `vg:${opp}`];
    case 'surge': case 'log-out': return [`surge:${mine}`];
    case 'recharge': case 'reload': case 'reload-bottom': return [hand(args[0])];
    case 'flip': case 'effect': return [`v:${mine}:${args[0]}`];
    case 'full-charge': case 'shuffle': case 'reload-take': return [`pile:${mine}`];
    default: return [];
  }
}

/** The label of one offered action, with the cards and powers it concerns. */
function actionLabel(action, v) {
  const p = v.pending;
  const mine = p.seat;
  const [verb, ...a] = words(action);
  const c = (slug) => label(slug);
  const at = (n, seat = mine) => unitAt(v, seat, Number(n));
  switch (verb) {
    case 'vital': return tx('a_vital', { c: c(a[0]) });
    case 'aside': return tx('a_aside', { c: c(a[0]) });
    case 'hand': return tx('a_hand', { c: c(a[0]) });
    case 'done':
      if (p.prompt === 'build') return tx('a_done_build');
      if (p.prompt === 'setup') return tx('a_done_setup');
      if (p.prompt === 'damage') return tx('a_done_damage');
      return tx('a_done');
    case 'setup': {
      const card = v.players[mine].charge[Number(a[0]) - 1];
      return tx('a_setup', { n: a[0], c: card && card.slug ? card.label : '?' });
    }
    case 'reactive': return tx('a_reactive', { n: a[0], u: at(a[0]).u });
    case 'charge-drive': return tx('a_charge_drive', { c: c(a[0]), n: a[1] });
    case 'stealth-drive': return tx('a_stealth_drive', { c: c(a[0]), n: a[1] });
    case 'power-drive': case 'power-drive-gb': {
      const mats = a.slice(2).map((n) => `${tx('sq', { n })} ${at(n).u}`).join('・');
      const text = tx('a_power_drive', { c: c(a[1]), n: `${a[0]} ${at(a[0]).u}`, mats: mats ? tx('a_mats', { list: mats }) : '' });
      return verb === 'power-drive-gb' ? text + tx('a_keep_gb') : text;
    }
    case 'counter-drive': {
      const list = a.slice(1).map((m) => (isNum(m) ? `${tx('sq', { n: m })} ${at(m).u}` : tx('a_from_hand', { c: c(m) }))).join('・');
      return tx('a_counter_drive', { c: c(a[0]), list });
    }
    case 'attach': return tx('a_attach', { c: c(a[0]), n: a[1], u: at(a[1]).u });
    case 'weapon-back': return tx('a_weapon_back', { c: c(a[0]) });
    case 'weapon-move': return tx('a_weapon_move', { c: c(a[0]), n: a[1], u: at(a[1]).u });
    case 'stealth': return tx('a_stealth', { n: a[0], u: at(a[0]).u });
    case 'unstealth': {
      const text = tx('a_unstealth', { n: a[0], u: at(a[0]).u });
      return v.attack && v.attack.type === 'direct' && v.attack.seat !== mine ? text + tx('a_as_interrupter') : text;
    }
    case 'declare-gb': return tx('a_declare_gb', { n: a[0], u: at(a[0]).u });
    case 'grid-blast': return tx('a_grid_blast', { n: a[0], u: at(a[0]).u });
    case 'assault': case 'surge-assault': {
      const x = at(a[0]);
      const y = at(a[1], 1 - mine);
      const text = tx('a_assault', { a: a[0], u: x.u, pa: x.pow, t: a[1], tu: y.u, pt: y.pow });
      return verb === 'surge-assault' ? text + tx('a_surge_pay', { n: 3 * Number(a[2]) }) : text;
    }
    case 'boost': {
      const x = at(a[0]);
      const y = at(a[1], 1 - mine);
      return tx('a_boost', { a: a[0], u: x.u, pa: x.pow, d: a[2], t: a[1], tu: y.u, pt: y.pow });
    }
    case 'direct': { const x = at(a[0]); return tx('a_direct', { a: a[0], u: x.u, pa: x.pow }); }
    case 'surge': return tx('a_surge', { n: 3 * Number(a[0]) });
    case 'accept': return tx('a_accept');
    case 'recharge': return tx('a_recharge', { c: c(a[0]) });
    case 'battle': return tx('a_battle');
    case 'end': return tx('a_end');
    case 'flip': case 'effect': {
      const vital = v.players[mine].vitals[Number(a[0]) - 1];
      return tx(`a_${verb}`, { n: a[0], c: vital && vital.slug ? vital.label : '?' });
    }
    case 'reload': return tx('a_reload', { c: c(a[0]) });
    case 'shuffle': return tx('a_shuffle');
    case 'full-charge': return tx('a_full_charge', { n: a[0] });
    case 'keep-weapons': return tx('a_keep_weapons');
    case 'drop-weapons': return tx('a_drop_weapons');
    case 'log-out': return tx((p.context || {}).surge > 0 ? 'a_log_out' : 'a_log_out_storage', { c: c(a[0]) });
    case 'reload-bottom': return tx('a_reload_bottom', { c: c(a[0]) });
    case 'reload-take': return tx('a_reload_take', { n: a[0] });
    default: return action;
  }
}

/** A short text for an action taken by anyone at any time (no view needed): for COM's
 * reasons and the replay viewer. A card hidden from the reader arrives as `…`. */
export function actionText(action) {
  if (!action) return '';
  const [verb, ...a] = words(action);
  const c = (slug) => label(slug);
  switch (verb) {
    case 'vital': case 'aside': case 'hand': return tx(`s_${verb}`, { c: c(a[0]) });
    case 'done': return tx('s_done');
    case 'setup': case 'reactive': case 'stealth': case 'unstealth': case 'declare-gb': case 'grid-blast':
      return tx(`s_${verb.replace('-', '_')}`, { n: a[0] });
    case 'charge-drive': case 'stealth-drive': return tx(`s_${verb.replace('-', '_')}`, { c: c(a[0]), n: a[1] });
    case 'power-drive': case 'power-drive-gb': return tx('s_power_drive', { c: c(a[1]), n: a[0] });
    case 'counter-drive': return tx('s_counter_drive', { c: c(a[0]) });
    case 'attach': return tx('s_attach', { c: c(a[0]), n: a[1] });
    case 'weapon-back': return tx('s_weapon_back', { c: c(a[0]) });
    case 'weapon-move': return tx('s_weapon_move', { c: c(a[0]), n: a[1] });
    case 'assault': case 'surge-assault': return tx('s_assault', { a: a[0], t: a[1] }) + (verb === 'surge-assault' ? tx('a_surge_pay', { n: 3 * Number(a[2]) }) : '');
    case 'boost': return tx('s_boost', { a: a[0], t: a[1] });
    case 'direct': return tx('s_direct', { a: a[0] });
    case 'surge': return tx('a_surge', { n: 3 * Number(a[0]) });
    case 'accept': return tx('s_accept');
    case 'recharge': return tx('a_recharge', { c: c(a[0]) });
    case 'battle': return tx('s_battle');
    case 'end': return tx('s_end');
    case 'flip': return tx('vital_n', { n: a[0] });
    case 'effect': return `${tx('vital_effect')}: ${tx('vital_n', { n: a[0] })}`;
    case 'reload': return tx('a_reload', { c: c(a[0]) });
    case 'shuffle': return tx('a_shuffle');
    case 'full-charge': return tx('a_full_charge', { n: a[0] });
    case 'keep-weapons': return tx('a_keep_weapons');
    case 'drop-weapons': return tx('a_drop_weapons');
    case 'log-out': return tx('s_log_out', { c: c(a[0]) });
    case 'reload-bottom': return tx('a_reload_bottom', { c: c(a[0]) });
    case 'reload-take': return tx('a_reload_take', { n: a[0] });
    default: return action;
  }
}

/** The name of a prompt kind. */
export function promptName(prompt) {
  return TX.ja[`pt_${prompt}`] ? tx(`pt_${prompt}`) : prompt;
}

function promptText(v) {
  const p = v.pending;
  const ctx = p.context || {};
  const mine = v.players[p.seat];
  switch (p.prompt) {
    case 'build': {
      if (ctx.stage === 'vitals') return tx('pr_build_vitals', { n: mine.vitals.filter((x) => x.face === 'empty').length });
      if (ctx.stage === 'aside') return tx('pr_build_aside', { n: Math.max(0, (v.config.jokers ? 4 : 3) - mine.aside.count) });
      return tx('pr_build_hand', { n: mine.hand.count });
    }
    case 'recharge': return tx('pr_recharge', { n: ctx.left ?? '' });
    case 'setup': return tx(p.seat === v.turn_player ? 'pr_setup_own' : 'pr_setup');
    case 'build_window': return tx(v.config.setupAnytime ? 'pr_build_window_anytime' : 'pr_build_window');
    case 'order': return tx('pr_order', { list: (ctx.cards || []).map((x) => label(x.slug)).join(S.settings.lang === 'en' ? ', ' : '・'), n: ctx.surge ?? 0 });
    case 'vital': return tx('pr_vital', { n: ctx.count ?? 1 });
    default: return TX.ja[`pr_${p.prompt}`] ? tx(`pr_${p.prompt}`) : '';
  }
}

/* ================================================================== windows and banner */

/** Which window of the turn a prompt belongs to (the stepper of the center strip). */
function windowOf(v) {
  const p = v.pending;
  if (v.outcome) return null;
  if (v.phase === 'setup') return 'setup';
  if (!p) return v.phase === 'battle' ? 'battle' : 'build';
  switch (p.prompt) {
    case 'build': return 'setup';
    case 'setup': case 'build_window': case 'reload': return 'build';
    case 'battle_window': case 'recharge': return 'battle';
    case 'response': return 'response';
    case 'vital': case 'effect': case 'damage': return 'damage';
    case 'cache': return v.attack ? 'response' : v.phase;
    default: return v.phase === 'battle' ? 'battle' : 'build';
  }
}

function bannerInfo(v) {
  const hist = v.history;
  if (S.replay) {
    const head = `${tx('replay')} · ${tx('step', { step: hist.step, steps: hist.steps })}`;
    if (v.outcome) return { cls: 'history over', text: head, sub: `${tx('over')} — ${outcomeTitle(v)}` };
    const p = v.pending;
    return { cls: 'history', text: head, sub: p ? `${seatName(p.seat)} · ${promptName(p.prompt)}` : '' };
  }
  if (v.session.mode === 'com_vs_com' && !hist.live) {
    return { cls: 'history', text: tx('history_view', { step: hist.step, steps: hist.steps }) };
  }
  if (v.outcome) return { cls: 'over', text: `${tx('over')} — ${outcomeTitle(v)}` };
  const p = v.pending;
  if (!p) return { cls: 'wait', text: '' };
  const name = promptName(p.prompt);
  if (isSpectator()) {
    return { cls: `spect ${p.seat === me() ? 'mine' : 'theirs'}`, text: `${tx('spectating')} · ${tx('waiting_seat', { who: seatName(p.seat) })}`, sub: name };
  }
  if (p.seat === me()) return { cls: 'mine', text: p.prompt === 'response' ? tx('your_response') : tx('your_move'), sub: name };
  return { cls: 'theirs', text: p.prompt === 'response' ? tx('opp_responding') : tx('opp_thinking'), sub: name };
}

/* ================================================================== cards */

/** A playing card: face up (`card` known, not face down), a back, or a back that the viewer
 * may peek at (its own face-down card, or a public face-down unit). */
function cardEl(card, opts = {}) {
  const size = opts.size || 'm';
  const down = !card || !card.slug || opts.down;
  if (down) {
    const el = h('div', { class: `tw-card back tw-${size}` }, h('div', { class: 'tw-back-mark', text: 'TW' }));
    if (card && card.slug) {
      el.classList.add('peek', `suit-${suitOf(card)}`);
      el.append(h('div', { class: 'tw-peek', text: card.label || label(card.slug) }));
    }
    return el;
  }
  const suit = suitOf(card);
  const kind = card.kind || (cdef(card.slug) || {}).kind || 'unit';
  const text = card.label || label(card.slug);
  const symbol = text.slice(0, 1);
  const rank = text.slice(1) || text;
  const el = h('div', { class: `tw-card face tw-${size} suit-${suit} kind-${kind}`, dataset: { slug: card.slug } },
    h('div', { class: 'tw-corner' }, h('span', { class: 'tw-rank', text: rank }), h('span', { class: 'tw-suit', text: symbol })),
    h('div', { class: 'tw-center-pip', text: kind === 'weapon' ? rank : symbol }),
    kind === 'unit' ? h('div', { class: 'tw-basepow', text: two(card.base) }) : h('div', { class: 'tw-basepow weapon', text: '+1' }));
  return el;
}

/* ================================================================== board */

function sig(key, value) {
  const before = T.prevSigs.get(key);
  T.nextSigs.set(key, value);
  return before !== undefined && before !== value && value !== '';
}

function squareNo(n) {
  return h('span', { class: 'tw-sq-no', text: n });
}

function stackEl(v, seat, n, st) {
  const known = !!st.unit;
  const down = st.face === 'down';
  const body = h('div', { class: `tw-stack pose-${st.pose}`, style: `--nw:${st.weapons.length}` });
  const frames = Math.min(st.frames.length, 3);
  for (let i = frames; i > 0; i--) body.append(h('div', { class: 'tw-frame-shadow', style: `--i:${i}` }));
  st.weapons.forEach((w, i) => {
    body.append(h('div', { class: `tw-weapon suit-${suitOf(w)}`, style: `--i:${i + 1}`, title: w.label },
      h('span', { text: (w.label || '').slice(1) })));
  });
  body.append(cardEl(known ? st.unit : null, { size: 'l', down }));
  if (st.pose === 'gb') body.append(h('div', { class: 'tw-gb-mark', text: 'GB' }));
  return body;
}

function battleSquare(v, seat, n, st) {
  const ref = `b:${seat}:${n}`;
  const sq = h('div', { class: 'tw-sq tw-bsq', dataset: { ref, zone: 'battle', seat, square: n } }, squareNo(n));
  const cached = (v.players[seat].cache && v.players[seat].cache[n - 1]) || [];
  if (!st && cached.length) {
    // Switch weaponCache: weapons left in an emptied square for the next unit placed there.
    sq.classList.add('cached');
    sq.append(h('div', { class: 'tw-cache', title: tx('cache_note') },
      h('span', { class: 'tw-tag cache', text: tx('cache_tag') }),
      h('div', null, cached.map((w) => h('span', { class: `tw-mini suit-${suitOf(w)}`, text: w.label })))));
  }
  if (st) {
    sq.classList.add('filled', `pose-${st.pose}`);
    if (st.role) sq.classList.add(`role-${st.role}`);
    sq.append(stackEl(v, seat, n, st));
    const tags = [h('span', { class: `tw-tag pose pose-${st.pose}`, text: tx(`pose_${st.pose}`) })];
    if (st.role === 'attacker') tags.push(h('span', { class: 'tw-tag atk', text: tx('attacker') }));
    if (st.role === 'target') {
      const intr = v.attack && v.attack.interrupter === n && v.attack.seat !== seat;
      tags.push(h('span', { class: 'tw-tag tgt', text: intr ? tx('interrupter') : tx('target') }));
    }
    sq.append(h('div', { class: 'tw-tags' }, tags));
    const chips = [];
    if (st.pow != null) {
      const plus = st.weapons.length ? ` (${two(st.base)}+${st.weapons.length})` : '';
      chips.push(h('span', { class: 'tw-chip pow', title: `${tx('pow')} ${st.pow}${plus}`, text: `${tx('pow')} ${st.pow}` }));
    }
    if (st.frames.length) chips.push(h('span', { class: 'tw-chip frames', title: tx('frames'), text: `F${st.frames.length}` }));
    if (st.weapons.length) chips.push(h('span', { class: 'tw-chip weapons', title: tx('weapons'), text: `W${st.weapons.length}` }));
    sq.append(h('div', { class: 'tw-chips' }, chips));
    infoable(sq, { type: 'tw', what: 'stack', seat, n });
  }
  const value = st ? `${st.pose}|${st.unit ? st.unit.slug : '?'}|${st.frames.length}|${st.weapons.length}` : '';
  if (sig(ref, value)) sq.classList.add('enter');
  return sq;
}

function vitalSquare(v, seat, n, vital) {
  const ref = `v:${seat}:${n}`;
  const sq = h('div', { class: 'tw-sq tw-vsq', dataset: { ref, zone: 'vital', seat, square: n } }, squareNo(n));
  if (vital.face === 'empty') return sq;
  sq.classList.add('filled');
  if (vital.face === 'down') {
    sq.classList.add('v-hidden');
    sq.append(cardEl(vital.slug ? vital : null, { size: 's', down: true }));
  } else {
    sq.classList.add(vital.status === 'effect' ? 'v-effect' : 'v-lost');
    sq.append(h('div', { class: 'tw-vital-card' }, cardEl(vital, { size: 's' })));
    sq.append(h('div', { class: 'tw-tags' }, h('span', { class: `tw-tag ${vital.status === 'effect' ? 'effect' : 'lost'}`, text: vital.status === 'effect' ? tx('effect_tag') : tx('lost_tag') })));
  }
  infoable(sq, { type: 'tw', what: 'vital', seat, n });
  if (sig(ref, `${vital.face}|${vital.status || ''}|${vital.slug || ''}`)) sq.classList.add('enter');
  return sq;
}

function chargeSquare(v, seat, n, card) {
  const ref = `c:${seat}:${n}`;
  const sq = h('div', { class: 'tw-sq tw-csq', dataset: { ref, zone: 'charge', seat, square: n } }, squareNo(n));
  if (card) {
    sq.classList.add('filled');
    sq.append(cardEl(card.slug ? card : null, { size: 's', down: true }));
    infoable(sq, { type: 'tw', what: 'charge', seat, n });
  }
  if (sig(ref, card ? `x${card.slug || ''}` : '')) sq.classList.add('enter');
  return sq;
}

function rowEl(kind, label_, cells, width) {
  return h('div', { class: `tw-row tw-row-${kind}`, style: `--w:${width}` },
    h('span', { class: 'tw-row-label', text: label_ }), cells);
}

function vitalsRow(v, seat) {
  const p = v.players[seat];
  const w = v.width;
  const cells = [];
  const offset = Math.max(0, Math.floor((w - p.vitals.length) / 2));
  for (let i = 0; i < w; i++) {
    const k = i - offset;
    if (k >= 0 && k < p.vitals.length) cells.push(vitalSquare(v, seat, k + 1, p.vitals[k]));
    else cells.push(h('div', { class: 'tw-sq tw-void' }));
  }
  const row = rowEl('vital', tx('vital_row'), cells, w);
  row.dataset.ref = `vg:${seat}`;
  return row;
}

function pileEl(v, seat) {
  const p = v.players[seat];
  const el = h('div', { class: 'tw-pile tw-deck', dataset: { ref: `pile:${seat}` } },
    h('div', { class: 'tw-pile-stack' }, p.pile > 0 ? cardEl(null, { size: 's' }) : h('div', { class: 'tw-card empty tw-s' })),
    h('div', { class: 'tw-pile-label' }, h('span', { text: tx('pile') }), h('b', { text: p.pile })));
  return infoable(el, { type: 'tw', what: 'pile', seat });
}

function storageEl(v, seat) {
  const p = v.players[seat];
  const top = p.storage.length ? p.storage[p.storage.length - 1] : null;
  const el = h('div', { class: 'tw-pile tw-storage', dataset: { ref: `storage:${seat}` } },
    h('div', { class: 'tw-pile-stack' }, top ? cardEl(top, { size: 's' }) : h('div', { class: 'tw-card empty tw-s' })),
    h('div', { class: 'tw-pile-label' }, h('span', { text: tx('storage') }), h('b', { text: p.storage.length })));
  return infoable(el, { type: 'tw', what: 'storage', seat });
}

function surgeEl(v, seat) {
  const p = v.players[seat];
  const col = h('div', { class: 'tw-surge-cards', style: `--n:${Math.max(1, p.surge.length)}` },
    p.surge.length ? p.surge.map((c, i) => h('div', { class: 'tw-surge-card', style: `--i:${i}` }, cardEl(c, { size: 'xs' })))
      : h('div', { class: 'tw-card empty tw-xs' }));
  const el = h('div', { class: `tw-surge${p.surge.length >= 6 ? ' full' : ''}`, dataset: { ref: `surge:${seat}` } },
    h('div', { class: 'tw-pile-label' }, h('span', { text: tx('surge') }), h('b', { text: `${p.surge.length}/6` })), col);
  if (sig(`surge:${seat}`, String(p.surge.length))) el.classList.add('enter');
  return infoable(el, { type: 'tw', what: 'surge', seat });
}

function headEl(v, seat) {
  const p = v.players[seat];
  const mine = seat === me();
  const pips = [];
  for (let i = 0; i < 3; i++) pips.push(h('i', { class: i < p.hidden_vitals ? 'on' : '' }));
  const turn = v.turn > 0 && v.turn_player === seat && !v.outcome;
  return h('div', { class: `tw-head ${mine ? 'mine' : 'theirs'}${turn ? ' turn' : ''}` },
    h('div', { class: 'tw-head-name' }, seatLabel(seat), turn ? h('span', { class: 'tw-turn-dot', title: tx('seat_turn', { whose: whoseOf(seat) }), text: '●' }) : null),
    h('div', { class: 'tw-pips', title: tx('vitals_left', { n: p.hidden_vitals }) }, pips, h('span', { text: tx('vitals_left', { n: p.hidden_vitals }) })),
    infoable(h('div', { class: 'tw-head-line', dataset: { ref: `hc:${seat}` } }, tx('hand_n', { n: p.hand.count })), { type: 'tw', what: 'hand', seat }),
    infoable(h('div', { class: 'tw-head-line muted' }, tx('aside_n', { n: p.aside.count })), { type: 'tw', what: 'aside', seat }),
    p.zero_turn != null && !v.outcome ? h('div', { class: 'tw-head-line tw-zero', title: tx('zero_note'), text: tx('zero_tag') }) : null);
}

function handRow(v, seat, bottom) {
  const p = v.players[seat];
  const box = h('div', { class: `tw-hand ${bottom ? 'bottom' : 'top'}`, dataset: { seat } });
  if (p.hand.cards) {
    for (const c of p.hand.cards) {
      const ref = `h:${seat}:${c.slug}`;
      const el = h('div', { class: 'tw-hand-card', dataset: { ref, slug: c.slug } }, cardEl(c, { size: bottom ? 'h' : 'xs' }));
      infoable(el, { type: 'tw', what: 'card', card: c, seat, zone: 'hand' });
      box.append(el);
    }
    if (!p.hand.cards.length) box.append(h('span', { class: 'tw-hand-empty muted', text: `${tx('hand')}: 0` }));
  } else {
    const backs = h('div', { class: 'tw-hand-backs' });
    for (let i = 0; i < p.hand.count; i++) backs.append(cardEl(null, { size: 'xs' }));
    box.append(infoable(h('div', { class: 'tw-hand-hidden', dataset: { ref: `hc:${seat}` } }, backs,
      h('span', { class: 'tw-count', text: tx('hand_n', { n: p.hand.count }) })), { type: 'tw', what: 'hand', seat }));
  }
  return box;
}

function poolPanel(v, seat) {
  const p = v.players[seat];
  const ctx = (v.pending && v.pending.seat === seat && v.pending.context) || {};
  const stage = ctx.stage || 'hand';
  const left = stage === 'vitals' ? p.vitals.filter((x) => x.face === 'empty').length
    : stage === 'aside' ? Math.max(0, (v.config.jokers ? 4 : 3) - p.aside.count) : p.hand.count;
  let suit = null;
  const cards = h('div', { class: 'tw-pool-cards' }, (p.pool.cards || []).map((c) => {
    const el = h('div', { class: 'tw-pool-card', dataset: { ref: `p:${seat}:${c.slug}`, slug: c.slug } }, cardEl(c, { size: 'p' }));
    if (suit !== null && suitOf(c) !== suit) el.classList.add('suit-gap');
    suit = suitOf(c);
    return infoable(el, { type: 'tw', what: 'card', card: c, seat, zone: 'pool' });
  }));
  const aside = p.aside.cards && p.aside.cards.length
    ? h('div', { class: 'tw-pool-aside' }, h('span', { class: 'muted', text: `${tx('aside')}: ` }), p.aside.cards.map((c) => h('span', { class: `tw-mini suit-${suitOf(c)}`, text: c.label })))
    : null;
  return h('div', { class: 'tw-pool' },
    h('div', { class: 'tw-pool-head' }, h('strong', { text: seat === me() && !isSpectator() ? tx('pool_title') : tx('where_pool', { whose: whoseOf(seat) }) }),
      h('span', { class: `tw-stage stage-${stage}`, text: tx(`stage_${stage}`, { n: left }) })),
    cards, aside);
}

function halfEl(v, seat, pos) {
  const p = v.players[seat];
  const w = v.width;
  const bottom = pos === 'bottom';
  const attack = v.attack;
  const defending = attack && attack.seat !== seat && !v.outcome;
  const half = h('div', {
    class: `tw-half ${pos}${defending ? ' defending' : ''}${attack && attack.seat === seat && !v.outcome ? ' attacking' : ''}`,
    dataset: { seat },
  });
  // Seen from its owner, as the seed lays it out: battle, vital and charge grids from the
  // center outwards; storage, pile and surge beside them (on the right for the bottom seat,
  // point-symmetric for the top seat).
  half.append(
    rowEl('battle', tx('battle_row'), p.battle.map((st, i) => battleSquare(v, seat, i + 1, st)), w),
    vitalsRow(v, seat),
    rowEl('charge', tx('charge_row'), p.charge.map((c, i) => chargeSquare(v, seat, i + 1, c)), w),
    handRow(v, seat, bottom),
    storageEl(v, seat),
    pileEl(v, seat),
    surgeEl(v, seat),
    headEl(v, seat));
  const building = p.pool && v.phase === 'setup';
  if (building && p.pool.cards) half.append(poolPanel(v, seat));
  else if (building && p.pool.count > 0) {
    half.append(h('div', { class: 'tw-pool waiting' }, h('span', { class: 'spinner' }), tx('building', { who: seatName(seat), n: p.pool.count })));
  }
  return half;
}

function attackLine(v) {
  const a = v.attack;
  if (!a) return null;
  const atk = unitAt(v, a.seat, a.attacker);
  const def = 1 - a.seat;
  let target;
  if (a.type === 'direct' && !a.interrupter) target = tx('attack_target_v', { whose: whoseOf(def, true) });
  else {
    const tgt = a.target ? unitAt(v, def, a.target) : { u: '', pow: '?' };
    target = tx('attack_target_sq', { whose: whoseOf(def, true), t: a.target ?? '?', u: tgt.u, pt: tgt.pow });
  }
  const extra = [];
  if (a.surge_a) extra.push(tx('attack_surge_a', { n: 3 * a.surge_a }));
  if (a.surge_d) extra.push(tx('attack_surge_d', { n: 3 * a.surge_d }));
  if (a.downloads) extra.push(tx('attack_dl', { n: a.downloads }));
  if (a.lost) extra.push(tx('attack_lost'));
  const type = a.type === 'direct' && a.interrupter ? tx('at_direct_intr') : tx(`at_${a.type}`);
  const text = tx('attack_line', { who: seatName(a.seat), type, a: a.attacker, u: atk.u, pa: atk.pow, target });
  return h('div', { class: `tw-attack ${a.seat === me() ? 'mine' : 'theirs'}` },
    h('span', { class: 'tw-attack-icon', text: '⚔' }), h('span', { class: 'tw-attack-text', text }),
    extra.length ? h('span', { class: 'tw-attack-extra', text: extra.join(' · ') }) : null);
}

function effectLine(v) {
  const e = v.vital_effect;
  const text = e ? tx('effect_of', { card: e.card.label, who: seatName(e.seat) }) : tx('no_effect');
  const inert = e && !v.config.vitalEffect;
  const el = h('div', { class: `tw-effect${e ? ' on' : ''}${inert ? ' inert' : ''}`, title: inert ? tx('effect_inert') : null },
    h('span', { class: 'tw-effect-label', text: tx('vital_effect') }),
    h('strong', { text }));
  if (e) infoable(el, { type: 'tw', what: 'vital', seat: e.seat, n: v.players[e.seat].vitals.findIndex((x) => x.status === 'effect') + 1 });
  return el;
}

function centerEl(v) {
  const win = windowOf(v);
  const b = bannerInfo(v);
  const response = !!(v.pending && v.pending.prompt === 'response' && !v.outcome && v.history.live);
  const steps = ['setup', 'build', 'battle', 'response', 'damage'].map((w) => h('span', {
    class: `tw-step${w === win ? ' on' : ''}${w === 'response' ? ' resp' : ''}`, dataset: { window: w }, text: tx(`w_${w}`),
  }));
  const kids = [
    h('div', { class: 'tw-center-top' },
      h('div', { class: 'tw-steps' }, steps),
      h('div', { class: `tw-banner banner ${b.cls}` }, h('span', { class: 'banner-dot' }), h('span', { class: 'banner-text', text: b.text }),
        b.sub ? h('span', { class: 'banner-sub', text: b.sub }) : null),
      effectLine(v)),
  ];
  const line = attackLine(v);
  if (response) {
    const yours = !isSpectator() && v.pending.seat === me();
    kids.push(h('div', { class: 'tw-resp', title: yours ? tx('resp_you') : tx('resp_them', { who: seatName(v.pending.seat) }) },
      h('span', { class: 'tw-resp-label', text: tx('resp_window') }),
      line));
  } else if (line) kids.push(h('div', { class: 'tw-resp quiet' }, line));
  return h('div', { class: `tw-center${response ? ' response' : ''}${v.attack ? ' has-attack' : ''}`, id: 'tw-center' }, kids);
}

function renderBoard(v) {
  const bottom = me();
  const top = 1 - bottom;
  T.nextSigs = new Map();
  const board = $('#tw-board');
  board.style.setProperty('--w', String(v.width));
  put(board, halfEl(v, top, 'top'), centerEl(v), halfEl(v, bottom, 'bottom'));
  T.prevSigs = T.nextSigs;
}

/* ================================================================== top bar and results */

function outcomeTitle(v) {
  const o = v.outcome;
  if (!o) return '';
  if (o.winner == null || o.winner < 0) return tx('draw');
  if (isSpectator()) return tx('win_seat', { who: seatName(o.winner) });
  return o.winner === me() ? tx('win_you') : tx('win_opp');
}

function reasonText(reason) {
  return TX.ja[`reason_${reason}`] ? tx(`reason_${reason}`) : reason;
}

/** The scoreboard and turn line of the top bar. */
export function renderTopInfo(v) {
  const bottom = me();
  const top = 1 - bottom;
  const pips = (seat) => {
    const n = v.players[seat].hidden_vitals;
    return h('span', { class: 'tw-sb-pips', title: tx('vitals_left', { n }) }, [0, 1, 2].map((i) => h('i', { class: i < n ? 'on' : '' })));
  };
  put($('#scoreboard'),
    h('span', { class: 'sb-game', text: tx('title') }),
    h('span', { class: 'sb-score' },
      h('span', { class: 'sb-name mine', text: seatName(bottom) }), pips(bottom),
      h('span', { class: 'sb-dash', text: '–' }), pips(top),
      h('span', { class: 'sb-name theirs', text: seatName(top) })));
  const parts = [];
  if (v.phase === 'setup') parts.push(h('span', { class: 'ti-phase', text: tx('setup_phase') }));
  else {
    parts.push(h('span', { class: 'ti-turn', text: tx('turn', { n: v.turn }) }));
    parts.push(h('span', { class: `ti-who ${v.turn_player === bottom ? 'mine' : 'theirs'}`, text: tx('seat_turn', { whose: whoseOf(v.turn_player) }) }));
    if (!v.outcome) parts.push(h('span', { class: 'ti-phase muted', text: tx(`ph_${v.phase}`) }));
  }
  if (v.first_player != null) parts.push(h('span', { class: 'ti-first muted', text: tx('first', { who: seatName(v.first_player) }) }));
  if (v.session.mode === 'com_vs_com' || S.replay) parts.push(h('span', { class: 'ti-step muted', text: tx('step', { step: v.history.step, steps: v.history.steps }) }));
  put($('#turninfo'), ...parts);
}

function renderResults(v) {
  const o = v.outcome;
  const item = o
    ? h('li', { class: `result ${o.winner == null || o.winner < 0 ? 'tie' : o.winner === me() ? 'mine' : 'theirs'}` },
      h('span', { class: 'r-game', text: tx('game') }),
      h('span', { class: 'r-win', text: outcomeTitle(v) }),
      h('span', { class: 'r-why muted', text: `${reasonText(o.reason)} · ${tx('turns_n', { n: v.turn })}` }))
    : h('li', { class: 'result current' }, h('span', { class: 'r-game', text: tx('game') }), h('span', { class: 'r-win muted', text: tx('in_progress') }));
  put($('#results'), item);
}

/* ================================================================== operation panel */

function focusKey(v) {
  const p = v.pending;
  return p ? `${v.session.id}|${p.prompt_id}|${v.history.step}` : '';
}

function matching(v, legal) {
  if (!T.focus.length) return legal;
  return legal.filter((a) => {
    const refs = refsOf(a, v);
    return T.focus.every((r) => refs.includes(r));
  });
}

function refName(ref, v) {
  const [kind, seat, x] = ref.split(':');
  switch (kind) {
    case 'b': { const u = unitAt(v, Number(seat), Number(x)).u; return `${tx('sq', { n: x })}${u ? ` ${u}` : ''}`; }
    case 'h': case 'p': return label(x);
    case 'c': return tx('charge_n', { n: x });
    case 'v': return tx('vital_n', { n: x });
    case 'vg': return tx('where_vital', { whose: whoseOf(Number(seat)), n: '' }).trim();
    case 'surge': return tx('surge');
    case 'pile': return tx('pile');
    default: return ref;
  }
}

function opsSignature(v) {
  const p = v.pending;
  return JSON.stringify([
    S.settings.lang, v.lang, v.session.id, p && p.prompt_id, p && p.seat, p && p.legal, p && p.context,
    S.awaiting, !!v.outcome, v.history.live, v.history.step, v.session.you, online(), T.focus, [...T.open],
    !!cat(), v.players.map((x) => x.battle.map((st) => st && `${st.pow}${st.unit ? st.unit.slug : ''}`)),
  ]);
}

function actionButton(a, v, extraClass = '') {
  const [verb] = words(a);
  return h('button', {
    type: 'button',
    class: `act tw-act verb-${verb} group-${GROUP_OF[verb] || 'other'}${extraClass}`,
    dataset: { action: a },
    disabled: S.awaiting != null || !online(),
    title: a,
    onclick: () => choose(a),
    onmouseenter: () => setHover(a),
    onmouseleave: () => setHover(null),
    onfocus: () => setHover(a),
    onblur: () => setHover(null),
  }, h('span', { class: 'act-label', text: actionLabel(a, v) }));
}

function renderOps(v) {
  const sig = opsSignature(v);
  if (sig === T.opsSig && $('#ops-body').dataset.ruleset === 'twgp') return;
  T.opsSig = sig;
  const body = $('#ops-body');
  body.dataset.ruleset = 'twgp';
  const p = v.pending;
  if (v.outcome) {
    put(body,
      h('div', { class: 'ops-prompt' }, h('div', { class: 'ops-title', text: tx('over') }), h('p', { text: `${outcomeTitle(v)} — ${reasonText(v.outcome.reason)}` })),
      h('div', { class: 'ops-actions' }, h('button', { type: 'button', class: 'act-secondary', text: tx('show_result'), onclick: () => { S.dismissedMatch = null; showGameOver(v); } })));
    return;
  }
  if (!p) {
    put(body, h('p', { class: 'muted', text: tx('no_action') }));
    return;
  }
  if (!isMyPrompt(v)) {
    const b = bannerInfo(v);
    const kids = [h('div', { class: `ops-prompt waiting${p.prompt === 'response' ? ' tw-resp-wait' : ''}` },
      h('div', { class: 'ops-title' }, v.history.live ? h('span', { class: 'spinner' }) : null, b.text),
      h('p', { class: 'muted', text: `${seatName(p.seat)} · ${promptName(p.prompt)}` }))];
    if (v.phase === 'setup' && v.players[me()].pool == null && !isSpectator()) kids.push(h('p', { class: 'muted', text: tx('built_wait') }));
    put(body, ...kids);
    return;
  }
  const ctx = p.context || {};
  const head = h('div', { class: `ops-prompt${p.prompt === 'response' ? ' tw-resp-prompt' : ''}` },
    h('div', { class: 'ops-title', text: promptName(p.prompt) }),
    h('p', { class: 'ops-expl', text: promptText(v) }));
  if (p.prompt === 'response') {
    const line = attackLine(v);
    if (line) head.append(line);
  }
  if (p.prompt === 'damage' && ctx.finished && ctx.finished.length) {
    head.append(h('p', { class: 'ops-note', text: tx('damage_done_steps', { list: ctx.finished.map((s) => tx(`step_${s}`)).join('・') }) }));
  }
  if (typeof ctx.toggles_left === 'number' && ctx.toggles_left < 3) {
    head.append(h('p', { class: 'ops-note muted', text: tx('toggles_left', { n: ctx.toggles_left }) }));
  }
  const kids = [head];
  const legal = p.legal;
  const hits = new Set(matching(v, legal));
  if (T.focus.length) {
    kids.push(h('div', { class: 'tw-focus' },
      h('span', { class: 'muted', text: tx('focus') }),
      T.focus.map((r) => h('span', { class: 'tw-focus-chip', text: refName(r, v) })),
      h('button', { type: 'button', class: 'link tw-clear-focus', text: tx('clear_focus'), onclick: clearFocus })));
  } else if (legal.length > GROUP_FOLD) {
    kids.push(h('p', { class: 'ops-note muted tw-pick-hint', text: tx('pick_hint') }));
  }
  const groups = new Map();
  for (const a of legal) {
    const g = GROUP_OF[words(a)[0]] || 'other';
    if (!groups.has(g)) groups.set(g, []);
    groups.get(g).push(a);
  }
  const box = h('div', { class: 'ops-actions tw-groups' });
  for (const g of GROUPS) {
    const items = groups.get(g);
    if (!items) continue;
    const shown = T.focus.length ? items.filter((a) => hits.has(a)) : items;
    const folded = !T.focus.length && g !== 'flow' && items.length > GROUP_FOLD && !T.open.has(g);
    const section = h('div', { class: `tw-group g-${g}${folded ? ' folded' : ''}${T.focus.length && !shown.length ? ' filtered' : ''}`, dataset: { group: g } });
    if (g !== 'flow') {
      section.append(h('div', { class: 'tw-group-head' },
        h('span', { class: 'tw-group-name', text: tx(`gr_${g}`) }),
        h('span', { class: 'tw-group-count', text: T.focus.length ? `${shown.length}/${items.length}` : String(items.length) }),
        items.length > GROUP_FOLD && !T.focus.length ? h('button', {
          type: 'button', class: 'link tw-group-toggle', dataset: { group: g },
          text: folded ? tx('show_all_n', { n: items.length }) : tx('hide_group'),
          onclick: () => { if (T.open.has(g)) T.open.delete(g); else T.open.add(g); T.opsSig = ''; scheduleRender(); },
        }) : null));
    }
    for (const a of items) {
      const btn = actionButton(a, v, hits.has(a) ? '' : ' tw-filtered');
      if (T.focus.length && hits.size === 1 && hits.has(a)) btn.classList.add('tw-only');
      section.append(btn);
    }
    box.append(section);
  }
  kids.push(box);
  put(body, ...kids);
  if (T.opsPid !== p.prompt_id) {
    T.opsPid = p.prompt_id;
    body.scrollTop = 0; // a new question starts at its top
  }
}

/* ================================================================== selecting on the board */

function setHover(action) {
  T.hover = action;
  applyHover();
}

function applyHover() {
  for (const e of $$('#tw-board .tw-hint')) e.classList.remove('tw-hint');
  const v = S.view;
  if (!T.hover || !v || !v.pending || !isMyPrompt(v)) return;
  for (const ref of refsOf(T.hover, v)) {
    const el = $(`#tw-board [data-ref="${CSS.escape(ref)}"]`);
    if (el) el.classList.add('tw-hint');
  }
}

function markSelectable(v) {
  for (const e of $$('#tw-board .tw-sel, #tw-board .tw-focused')) e.classList.remove('tw-sel', 'tw-focused');
  if (!isMyPrompt(v) || S.awaiting != null || !online()) return;
  const reachable = new Set();
  for (const a of matching(v, v.pending.legal)) for (const r of refsOf(a, v)) reachable.add(r);
  for (const r of T.focus) {
    const el = $(`#tw-board [data-ref="${CSS.escape(r)}"]`);
    if (el) el.classList.add('tw-focused');
  }
  for (const r of reachable) {
    if (T.focus.includes(r)) continue;
    const el = $(`#tw-board [data-ref="${CSS.escape(r)}"]`);
    if (el) el.classList.add('tw-sel');
  }
}

/** A click on a board place: narrow the choices to those involving it (or widen again);
 * a pure "pick one" prompt (building, choosing a vital) sends the only matching choice. */
export function onBoardClick(el) {
  const v = S.view;
  if (!v || !isMyPrompt(v) || S.awaiting != null || !online()) return;
  const ref = el.dataset.ref;
  if (!ref) return;
  if (T.focus.includes(ref)) {
    T.focus = T.focus.filter((r) => r !== ref);
  } else if (el.classList.contains('tw-sel')) {
    const next = [...T.focus, ref];
    const legal = v.pending.legal;
    const hits = legal.filter((a) => { const refs = refsOf(a, v); return next.every((r) => refs.includes(r)); });
    if (!hits.length) return;
    if (DIRECT_PROMPTS.has(v.pending.prompt) && hits.length === 1) {
      T.focus = [];
      choose(hits[0]);
      return;
    }
    T.focus = next;
  } else return;
  T.opsSig = '';
  scheduleRender();
}

/** Forget the places picked on the board. */
export function clearFocus() {
  if (!T.focus.length) return false;
  T.focus = [];
  T.opsSig = '';
  scheduleRender();
  return true;
}

/* ================================================================== CARD INFORMATION */

function cardFacts(card, extra = []) {
  const d = cdef(card.slug) || {};
  const kind = card.kind || d.kind || 'unit';
  const stats = [];
  if (kind === 'unit') stats.push(h('span', { class: 'stat' }, `${tx('base')} `, h('b', { text: two(card.base ?? d.base) })));
  return [
    h('div', { class: 'info-card' }, cardEl(card, { size: 'i' })),
    h('div', { class: 'info-main' },
      h('div', { class: 'info-name', text: `${card.label || d.label || ''} ${d.name || card.name || ''}` }),
      h('div', { class: 'info-kind' }, h('span', { class: `tw-kind-dot kind-${kind}` }), tx(`kind_${kind}`)),
      stats.length ? h('div', { class: 'info-stats' }, stats) : null,
      ...extra,
      h('p', { class: 'info-text', text: d.text || '' })),
  ];
}

function hiddenFacts(where, note) {
  return [
    h('div', { class: 'info-card' }, cardEl(null, { size: 'i' })),
    h('div', { class: 'info-main' },
      h('div', { class: 'info-name', text: tx('face_down') }),
      where ? h('div', { class: 'info-where muted', text: where }) : null,
      h('p', { class: 'info-text muted', text: note || tx('face_down_hidden') })),
  ];
}

function listFacts(title, cards, note) {
  const list = h('ol', { class: 'pile-list tw-list' }, cards.map((c, i) => {
    const li = h('li', { class: 'pile-item' }, h('span', { class: `tw-mini suit-${suitOf(c)}`, text: c.label }), ' ', h('span', { text: c.name }));
    return infoable(li, { type: 'tw', what: 'card', card: c, zone: 'list', index: i });
  }));
  return [h('div', { class: 'info-main wide' },
    h('div', { class: 'info-name', text: title }),
    h('div', { class: 'info-count', text: tx('n_cards', { n: cards.length }) }),
    note ? h('p', { class: 'info-sub', text: note }) : null,
    cards.length ? list : null)];
}

/** Where a card lies now, as far as the view shows it ('' when it shows nowhere). */
function locate(v, slug) {
  for (const [seat, p] of v.players.entries()) {
    const whose = whoseOf(seat);
    const has = (cards) => !!cards && cards.some((c) => c && c.slug === slug);
    if (has(p.hand.cards)) return tx('where_hand', { whose });
    if (p.pool && has(p.pool.cards)) return tx('where_pool', { whose });
    if (has(p.aside.cards)) return tx('where_aside', { whose });
    if (has(p.surge)) return tx('where_surge', { whose });
    if (has(p.storage)) return tx('where_storage', { whose });
    for (const [i, c] of p.charge.entries()) if (c && c.slug === slug) return tx('where_charge', { whose, n: i + 1 });
    for (const [i, c] of p.vitals.entries()) if (c && c.slug === slug) return tx('where_vital', { whose, n: i + 1 });
    for (const [i, st] of p.battle.entries()) {
      if (st && ((st.unit && st.unit.slug === slug) || has(st.frames) || has(st.weapons))) return tx('where_battle', { whose, n: i + 1 });
    }
  }
  return '';
}

/** CARD INFORMATION for a place or card of the TWGP board, read again from the current view. */
export function renderInfo(v, info) {
  const p = v.players[info.seat] || v.players[0];
  const whose = whoseOf(info.seat);
  switch (info.what) {
    case 'stack': {
      const st = p.battle[info.n - 1];
      const where = tx('where_battle', { whose, n: info.n });
      if (!st) return [h('div', { class: 'info-main wide' }, h('div', { class: 'info-name', text: tx('empty_sq') }), h('div', { class: 'info-where muted', text: where }))];
      const extra = [
        h('div', { class: 'info-where muted', text: where }),
        h('div', { class: 'tw-info-pose' }, h('span', { class: `tw-tag pose pose-${st.pose}`, text: tx(`pose_${st.pose}`) }), ' ', tx(`posed_${st.pose}`),
          st.gb_turn != null ? ` · ${tx('gb_turn', { n: st.gb_turn })}` : ''),
      ];
      if (st.role) extra.push(h('div', { class: `tw-info-role ${st.role}`, text: tx(`role_${st.role}`) }));
      if (st.pow != null) {
        extra.push(h('div', { class: 'info-stats' },
          h('span', { class: 'stat' }, `${tx('pow')} `, h('b', { text: st.pow })),
          h('span', { class: 'stat muted', text: `= ${two(st.base)} + ${st.weapons.length}` })));
      }
      extra.push(h('div', { class: 'tw-info-list' }, `${tx('weapons')}：`, st.weapons.length ? st.weapons.map((w) => h('span', { class: `tw-mini suit-${suitOf(w)}`, text: w.label })) : tx('none')));
      extra.push(h('div', { class: 'tw-info-list' }, `${tx('frames')}：`, st.frames.length ? st.frames.map((f) => h('span', { class: `tw-mini suit-${suitOf(f)}`, text: f.label })) : tx('none')));
      if (!st.unit) {
        const [face, main] = hiddenFacts(where);
        main.append(...extra.slice(1));
        return [face, main];
      }
      if (st.face === 'down') extra.push(h('div', { class: 'info-where peek-note', text: info.seat === me() && !isSpectator() ? tx('your_secret') : tx('public_down') }));
      return cardFacts(st.unit, extra);
    }
    case 'vital': {
      const vital = p.vitals[info.n - 1];
      const where = tx('where_vital', { whose, n: info.n });
      if (!vital || vital.face === 'empty') return [h('div', { class: 'info-main wide' }, h('div', { class: 'info-name', text: tx('empty_sq') }), h('div', { class: 'info-where muted', text: where }))];
      const status = vital.face === 'down' ? 'hidden' : vital.status;
      const extra = [h('div', { class: 'info-where muted', text: where }), h('div', { class: 'tw-info-pose', text: tx(`vs_${status}`) })];
      if (!vital.slug) return hiddenFacts(where, `${tx('vs_hidden')} · ${tx('face_down_hidden')}`);
      if (vital.face === 'down') extra.push(h('div', { class: 'info-where peek-note', text: tx('your_secret') }));
      return cardFacts(vital, extra);
    }
    case 'charge': {
      const card = p.charge[info.n - 1];
      const where = tx('where_charge', { whose, n: info.n });
      if (!card) return [h('div', { class: 'info-main wide' }, h('div', { class: 'info-name', text: tx('empty_sq') }), h('div', { class: 'info-where muted', text: where }))];
      if (!card.slug) return hiddenFacts(where);
      return cardFacts(card, [h('div', { class: 'info-where muted', text: where }), h('div', { class: 'info-where peek-note', text: tx('your_secret') })]);
    }
    case 'card': {
      const where = locate(v, info.card.slug);
      return cardFacts(info.card, where ? [h('div', { class: 'info-where muted', text: where })] : []);
    }
    case 'surge': return listFacts(tx('where_surge', { whose }), p.surge, tx('surge_note'));
    case 'storage': return listFacts(tx('where_storage', { whose }), p.storage, tx('storage_note'));
    case 'pile': return [h('div', { class: 'info-main wide' },
      h('div', { class: 'info-name', text: tx('where_pile', { whose }) }),
      h('div', { class: 'info-count', text: tx('n_cards', { n: p.pile }) }),
      h('p', { class: 'info-sub', text: tx('pile_hidden') }))];
    case 'hand':
      if (p.hand.cards) return listFacts(tx('where_hand', { whose }), p.hand.cards);
      return [h('div', { class: 'info-main wide' }, h('div', { class: 'info-name', text: tx('where_hand', { whose }) }),
        h('div', { class: 'info-count', text: tx('n_cards', { n: p.hand.count }) }), h('p', { class: 'info-sub', text: tx('hand_hidden') }))];
    case 'aside':
      if (p.aside.cards) return listFacts(tx('where_aside', { whose }), p.aside.cards, tx('aside_note'));
      return [h('div', { class: 'info-main wide' }, h('div', { class: 'info-name', text: tx('where_aside', { whose }) }),
        h('div', { class: 'info-count', text: tx('n_cards', { n: p.aside.count }) }), h('p', { class: 'info-sub', text: tx('aside_note') }))];
    default: return [];
  }
}

/* ================================================================== the end of a game */

/** Show the end of the game once, when the live view first has an outcome. */
export function detectEnd(prev, v) {
  if (!v.history.live || !v.outcome) return;
  const sameGame = prev && prev.session.id === v.session.id && prev.history.live;
  if ((!sameGame || !prev.outcome) && S.dismissedMatch !== v.session.id) showGameOver(v);
}

function showGameOver(v) {
  if (!v || !v.outcome) return;
  const o = v.outcome;
  const draw = o.winner == null || o.winner < 0;
  // The deciding exchange (or, for a draw, why nobody won).
  const ends = v.log.filter((e) => e.kind === (draw ? 'game_over' : 'result'));
  const line = ends.length ? ends[ends.length - 1].text : '';
  const win = !draw && !isSpectator() && o.winner === me();
  const box = h('div', { class: `modal match-over tw-over ${draw ? 'tie' : win ? 'win' : isSpectator() ? 'neutral' : 'lose'}`, role: 'dialog' },
    h('div', { class: 'modal-kicker', text: `${tx('title')} · ${tx('over')}` }),
    h('div', { class: 'modal-title', text: outcomeTitle(v) }),
    h('p', { class: 'modal-line', text: line }),
    h('div', { class: 'modal-score', text: `${reasonText(o.reason)} · ${tx('turns_n', { n: v.turn })}` }),
    h('div', { class: 'modal-buttons' },
      h('button', { type: 'button', class: 'primary', id: 'overlay-again', text: tx('again'), onclick: playAgain }),
      h('button', { type: 'button', id: 'overlay-start', text: tx('to_start'), onclick: leaveGame }),
      h('button', { type: 'button', id: 'overlay-board', text: tx('see_board'), onclick: () => { S.dismissedMatch = v.session.id; closeOverlay(); } })));
  openOverlay('match', box);
}

/* ================================================================== start screen */

/** The TWGP part of the start screen: the quick-start switch and the other rule switches. */
export function renderStartOptions(box, defaults) {
  const c = cat();
  const keep = {};
  for (const input of $$('input, select', box)) keep[input.name] = input.type === 'checkbox' ? input.checked : input.value;
  const value = (key) => (key in keep ? keep[key] : defaults[key]);
  const switches = c ? Object.values(c.switches) : [];
  const other = switches.filter((s) => s.key !== 'quickStart' && s.key !== 'gridWidth');
  const width = c && c.switches.gridWidth;
  put(box,
    h('label', { class: 'choice tw-quick' },
      h('input', { type: 'checkbox', name: 'quickStart', id: 'tw-quick', checked: !!value('quickStart') }),
      h('span', { text: tx('quick_start') })),
    h('p', { class: 'hint', text: tx('quick_start_hint') }),
    h('details', { class: 'tw-switches' },
      h('summary', { text: tx('switches') }),
      width ? h('label', { class: 'tw-switch' }, h('span', { text: `${tx('grid_width')} — ${width.text}` }),
        h('select', { name: 'gridWidth', id: 'tw-width' },
          [5, 3].map((n) => h('option', { value: String(n), text: String(n), selected: String(value('gridWidth')) === String(n) })))) : null,
      other.map((s) => h('label', { class: 'tw-switch check' },
        h('input', { type: 'checkbox', name: s.key, checked: !!value(s.key) }),
        h('span', { text: `${s.key} — ${s.text}` })))));
}

/** The config the TWGP options of the start screen ask for (only switches that differ). */
export function startConfig(box, defaults) {
  const config = {};
  for (const input of $$('input, select', box)) {
    const v = input.type === 'checkbox' ? input.checked : Number(input.value);
    if (defaults[input.name] !== v) config[input.name] = v;
  }
  return config;
}

/* ================================================================== entry point */

/** Draw a TWGP view: board, top bar, results, operation panel and the glowing places. */
export function render(v) {
  if (!cat()) ensureCatalog(S.settings.lang).catch(() => {});
  const key = focusKey(v);
  if (key !== T.focusKey) {
    T.focusKey = key;
    T.focus = [];
    T.hover = null;
  }
  renderTopInfo(v);
  renderBoard(v);
  renderResults(v);
  if (!S.replay) renderOps(v);
  else T.opsSig = '';
  markSelectable(v);
  applyHover();
}

/** Forget what was drawn (a new game, a language switch). */
export function reset() {
  T.opsSig = '';
  T.focus = [];
  T.hover = null;
  T.prevSigs = new Map();
}
