// The card editor's words (design/editor*.js), Japanese and English: the screen's own texts,
// the names of the schema's fields, and the names of the values the game's card text does not
// name itself (the server's form sends those it does: kinds, timings, conditions, characters).
// A field or value with no word here shows its schema name.

import { texts } from '../shell/i18n.js';

const E = {
  ja: {
    tab_editor: 'カードエディタ',
    // sets
    ed_sets: 'カードセット',
    ed_no_sets: 'セットはまだありません。同梱のカードデータから作ってください。',
    ed_derive: '新しいセットを作る', ed_derive_name: 'セットの名前', ed_derive_from: '元にするカードデータ',
    ed_derive_game: 'ゲーム', ed_derive_go: '作る', ed_deriving: '作成中…', ed_derive_note: '{from} から作成',
    ed_import: 'TOMLファイルから読み込む', ed_import_file: 'ファイル（TOMLで書き出したもの）', ed_import_name: 'セットの名前', ed_import_hint_new: '新しいセットになります。', ed_import_hint_next: '「{name}」の次のリビジョンになります。', ed_import_go: '読み込む', ed_importing: '読み込み中…', ed_import_note: '{file} から読み込み', ed_import_pick: 'ファイルを選んでください。',
    ed_shipped: '同梱 {label}', ed_shipped_one: '同梱のカードデータ', ed_set_src: 'セット「{name}」', ed_parent: '元：{parent}',
    ed_revision: 'リビジョン {n}', ed_export: 'TOMLで書き出す', ed_play: 'このセットでCOMと対戦', ed_loading: '読み込み中…',
    // list
    ed_cards: 'カード', ed_search: 'カードを探す（名前・slug）', ed_decks: 'スターターデッキ',
    ed_no_match: '当てはまるカードはありません。', ed_n_problems: '問題{n}', ed_edited: '変更あり',
    ed_list_label: 'カードとデッキの一覧',
    // the card
    ed_face: 'カードの表', ed_text: '生成されるカードテキスト', ed_text_ja: '日本語', ed_text_en: 'English',
    ed_text_wait: '（問題を直すとテキストが出ます）', ed_text_loading: '（生成中…）',
    ed_copies: 'スターターデッキに入れる枚数', ed_copies_deck: '{deck}（{section}）',
    ed_dup_card: 'このカードを複製', ed_del_card: 'このカードを削除', ed_del_card_confirm: 'カード「{name}」をセットから削除しますか？（保存するまで確定しません）',
    ed_dup_deck: 'このデッキを複製', ed_del_deck: 'このデッキを削除', ed_del_deck_confirm: 'デッキ「{name}」を削除しますか？（保存するまで確定しません）',
    ed_add: '追加', ed_remove: '削除', ed_up: '上へ', ed_down: '下へ', ed_none: '（なし）', ed_has: 'あり',
    ed_item: '{field} {n}', ed_list_hint: 'カンマ区切り', ed_add_item: '{field}を追加',
    ed_here_problems: 'この{what}の問題', ed_what_card: 'カード', ed_what_deck: 'デッキ',
    ed_set_problems: 'セットのほかの場所の問題（{n}件）', ed_go: '開く',
    // decks
    ed_deck_total: '{n} / {size}枚', ed_pick_card: '加えるカード',
    ed_count: '{name}の枚数', ed_unknown_card: '（セットにないカード {key}）', ed_deck_name: 'デッキ {name}',
    // saving
    ed_note: '変更メモ（任意）', ed_save: '保存', ed_saving: '保存中…', ed_saved: '保存しました：リビジョン {n}',
    ed_nothing_changed: '変更はありませんでした（同じ内容です）。', ed_unsaved: '未保存の変更があります',
    ed_clean: '保存済み', ed_cannot_save: '保存できません。問題が{n}件あります（各項目に表示）。',
    ed_changes: 'この保存での変更', ed_log: '変更履歴', ed_log_entry: 'リビジョン {n}・{when}', ed_log_none: '（変更なし）',
    ed_ab: '親とA/B比較', ed_ab_hint: '保存した内容を、元のカードデータ（{parent}）と同じシードで対戦させて比べます。',
    ed_ab_unsaved: '先に保存してください。', ed_restored: '保存していない変更を復元しました。',
    ed_discard: '変更を取り消す', ed_discard_confirm: '保存していない変更をすべて取り消しますか？',
    ed_error: '操作できませんでした',
    // fields (both games)
    f_slug: 'slug（英小文字の識別名）', f_kind: '種類', f_name_ja: '名前（日本語）', f_name_en: '名前（英語）',
    f_icon: '絵柄', f_lv: 'Lv', f_limited: '【制限】（1枚まで）', f_chain_again: '【連続発動】',
    f_when: '発動できる時', f_target: '対象', f_side: '側', f_scope: '範囲', f_steps: '効果の手順',
    f_verb: '効果', f_amount: '量', f_surprise: '【！】能力', f_on: '条件',
    f_style_ja: '説明（日本語）', f_style_en: '説明（英語）', f_requires: '必要なルールスイッチ',
    f_main: 'メインデッキ', f_tactics: '戦術デッキ',
    f_id: 'ID', f_character: 'キャラ', f_spd: '速度', f_front: '先間合', f_back: '後間合', f_atk: '攻撃値',
    f_cost: 'ゲージ消費', f_gain: 'ゲージ増加', f_labels: 'ラベル', f_tags: 'タグ', f_duration: '持続',
    f_abilities: '能力', f_timing: 'タイミング', f_if: '条件', f_tag: '条件のタグ', f_effect: '効果',
    f_stat: 'データ', f_n: '量', f_cards: 'カード',
    // values the card text does not name
    'v_verb_modify_lv': 'Lvを変える', 'v_verb_retreat_if_zero': 'Lv0なら撤退', 'v_verb_change_target': '攻撃対象を変える',
    'v_verb_negate_attack': '攻撃を無効', 'v_verb_negate_last': '直前のカードを無効', 'v_verb_draw': 'カードを引く',
    'v_verb_summon_top': 'デッキ上のキャラを召喚', 'v_verb_nominate': '3体から相手が選んで召喚',
    'v_side_own': '自分', 'v_side_opponent': '相手', 'v_side_defending': '防御側', 'v_side_attacking': '攻撃側',
    'v_scope_chosen': '1体を選ぶ', 'v_scope_participants': '攻防に参加中', 'v_scope_all': '全員',
    'v_requires_surprise': 'サプライズ置場',
    'v_kind_attack': '攻撃カード', 'v_kind_support': '補助カード', 'v_duration_turn': 'ターン', 'v_duration_lasting': '持続',
    'v_if_guarded': '相手がガード中', 'v_if_rv': 'RVのとき', 'v_if_top': '自分のトップのタグ', 'v_if_chain': '直下の表向きカードのタグ',
    'v_if_costly': 'ゲージ消費1以上のベット', 'v_if_multi': 'ダブル／トリプルアタック',
    'v_effect_mod': 'データを変える', 'v_effect_draw': 'ドロー', 'v_effect_gauge': 'ゲージ増加', 'v_effect_drain': '相手のゲージをダストへ',
  },
  en: {
    tab_editor: 'Card editor',
    ed_sets: 'Card sets',
    ed_no_sets: 'No sets yet. Make one from the shipped card data.',
    ed_derive: 'Make a new set', ed_derive_name: 'Name of the set', ed_derive_from: 'Card data to start from',
    ed_derive_game: 'Game', ed_derive_go: 'Make', ed_deriving: 'Making…', ed_derive_note: 'made from {from}',
    ed_import: 'Import a TOML file', ed_import_file: 'File (as exported as TOML)', ed_import_name: 'Name of the set', ed_import_hint_new: 'It becomes a new set.', ed_import_hint_next: 'It becomes the next revision of “{name}”.', ed_import_go: 'Import', ed_importing: 'Importing…', ed_import_note: 'imported from {file}', ed_import_pick: 'Choose a file first.',
    ed_shipped: 'shipped {label}', ed_shipped_one: 'the shipped card data', ed_set_src: 'set “{name}”', ed_parent: 'from {parent}',
    ed_revision: 'revision {n}', ed_export: 'Export as TOML', ed_play: 'Play COM with this set', ed_loading: 'Loading…',
        ed_cards: 'Cards', ed_search: 'Find a card (name, slug)', ed_decks: 'Starter decks',
    ed_no_match: 'No card matches.', ed_n_problems: 'problems: {n}', ed_edited: 'edited',
    ed_list_label: 'Cards and decks',
    ed_face: 'Card face', ed_text: 'Generated card text', ed_text_ja: '日本語', ed_text_en: 'English',
    ed_text_wait: '(the text shows once the problems are fixed)', ed_text_loading: '(generating…)',
    ed_copies: 'Copies in the starter decks', ed_copies_deck: '{deck} ({section})',
    ed_dup_card: 'Duplicate this card', ed_del_card: 'Delete this card', ed_del_card_confirm: 'Delete card “{name}” from the set? (Nothing is final until you save.)',
    ed_dup_deck: 'Duplicate this deck', ed_del_deck: 'Delete this deck', ed_del_deck_confirm: 'Delete deck “{name}”? (Nothing is final until you save.)',
    ed_add: 'Add', ed_remove: 'Remove', ed_up: 'Up', ed_down: 'Down', ed_none: '(none)', ed_has: 'present',
    ed_item: '{field} · {n}', ed_list_hint: 'comma-separated', ed_add_item: 'Add to {field}',
    ed_here_problems: 'Problems of this {what}', ed_what_card: 'card', ed_what_deck: 'deck',
    ed_set_problems: 'Problems elsewhere in the set ({n})', ed_go: 'Open',
    ed_deck_total: '{n} / {size} cards', ed_pick_card: 'Card to add',
    ed_count: 'Copies of {name}', ed_unknown_card: '(card {key} is not in the set)', ed_deck_name: 'Deck {name}',
    ed_note: 'Note on the change (optional)', ed_save: 'Save', ed_saving: 'Saving…', ed_saved: 'Saved: revision {n}',
    ed_nothing_changed: 'Nothing changed (the same data).', ed_unsaved: 'Unsaved changes',
    ed_clean: 'Saved', ed_cannot_save: 'Cannot save: {n} problems (shown on their fields).',
    ed_changes: 'Changes in this save', ed_log: 'Changelog', ed_log_entry: 'Revision {n} · {when}', ed_log_none: '(no change)',
    ed_ab: 'A/B against the parent', ed_ab_hint: 'Plays the saved set against its parent card data ({parent}) on the same seeds.',
    ed_ab_unsaved: 'Save first.', ed_restored: 'Unsaved changes were restored.',
    ed_discard: 'Discard changes', ed_discard_confirm: 'Discard every unsaved change?',
    ed_error: 'That did not work',
    f_slug: 'slug (lowercase id)', f_kind: 'Kind', f_name_ja: 'Name (Japanese)', f_name_en: 'Name (English)',
    f_icon: 'Picture', f_lv: 'Lv', f_limited: '[Limited] (1 copy)', f_chain_again: '[Consecutive activation]',
    f_when: 'When it can be activated', f_target: 'Target', f_side: 'Side', f_scope: 'Scope', f_steps: 'Effect steps',
    f_verb: 'Effect', f_amount: 'Amount', f_surprise: '【！】 abilities', f_on: 'Condition',
    f_style_ja: 'Description (Japanese)', f_style_en: 'Description (English)', f_requires: 'Rule switches it needs',
    f_main: 'Main deck', f_tactics: 'Tactics deck',
    f_id: 'ID', f_character: 'Character', f_spd: 'Speed', f_front: 'Front distance', f_back: 'Back distance', f_atk: 'Attack',
    f_cost: 'Gauge cost', f_gain: 'Gauge gain', f_labels: 'Labels', f_tags: 'Tags', f_duration: 'Duration',
    f_abilities: 'Abilities', f_timing: 'Timing', f_if: 'Condition', f_tag: 'Condition’s tag', f_effect: 'Effect',
    f_stat: 'Stat', f_n: 'Amount', f_cards: 'Cards',
    'v_verb_modify_lv': 'Change Lv', 'v_verb_retreat_if_zero': 'Retreat at Lv 0', 'v_verb_change_target': 'Change the attack target',
    'v_verb_negate_attack': 'Negate the attack', 'v_verb_negate_last': 'Negate the last card', 'v_verb_draw': 'Draw cards',
    'v_verb_summon_top': 'Summon from the deck top', 'v_verb_nominate': 'Opponent picks 1 of 3 to summon',
    'v_side_own': 'own', 'v_side_opponent': 'opponent', 'v_side_defending': 'defending', 'v_side_attacking': 'attacking',
    'v_scope_chosen': 'one chosen', 'v_scope_participants': 'in the exchange', 'v_scope_all': 'all',
    'v_requires_surprise': 'surprise zone',
    'v_kind_attack': 'Attack card', 'v_kind_support': 'Support card', 'v_duration_turn': 'Turn', 'v_duration_lasting': 'Lasting',
    'v_if_guarded': 'opponent guarding', 'v_if_rv': 'on an RV', 'v_if_top': 'tag of your top card', 'v_if_chain': 'tag of the face-up card below',
    'v_if_costly': 'bet costs gauge', 'v_if_multi': 'double / triple attack',
    'v_effect_mod': 'Change a stat', 'v_effect_draw': 'Draw', 'v_effect_gauge': 'Gauge +', 'v_effect_drain': 'Dust the opponent’s gauge',
  },
};

/** A text of the card editor in the page's language. */
export const et = texts(E);

/** Whether the table has a word for `key`. */
export function hasWord(key) {
  return key in E.ja;
}
