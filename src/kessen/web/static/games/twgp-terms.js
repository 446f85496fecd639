// TWGP トランプ版: the words of its glossary (data/glossary.toml) marked where they appear in a
// sentence of the board or the panel, so that each shows its explanation on hover, focus or
// tap (shell/glossary.js). A word is marked inside the text around it, never as a label of its
// own: a word standing alone would be a target smaller than a finger.

import { term } from '../shell/glossary.js';
import { S } from '../shell/state.js';

/** The words looked for in a sentence: [Japanese, English, the glossary word]. */
const WORDS = [
  ['ダメージ・ルーティン', 'damage routine', (x) => term('damage_routine', x)],
  ['ビルド・フェイズ', 'build phase', (x) => term('build_phase', x)],
  ['バトル・フェイズ', 'battle phase', (x) => term('battle_phase', x)],
  ['ヴァイタル効果', 'vital effect', (x) => term('vital_effect', x)],
  ['ヴァイタル', 'vital', (x) => term('vital', x)],
  ['セットアップ', 'set up', (x) => term('setup', x)],
  ['リ=アクティヴ', 're-active', (x) => term('reactive', x)],
  ['リ=ロード', 'reload', (x) => term('reload', x)],
  ['フル=チャージ', 'full-charge', (x) => term('full_charge', x)],
  ['リ=ビルド', 're-build', (x) => term('rebuild', x)],
  ['チャージ・ブースト', 'charge boost', (x) => term('boost', x)],
  ['カウンター召喚', 'counter-drive', (x) => term('counter_drive', x)],
  ['パワー召喚', 'power-drive', (x) => term('power_drive', x)],
  ['チャージ召喚', 'charge-drive', (x) => term('charge_drive', x)],
  ['ステルス召喚', 'stealth-drive', (x) => term('stealth_drive', x)],
  ['インターセプト', 'intercept', (x) => term('intercept', x)],
  ['割り込', 'interrupt', (x) => term('intercept', x)],
  ['サージ・ダイレクト', 'surge-direct', (x) => term('surge_direct', x)],
  ['チャージ', 'charge', (x) => term('charge', x)],
  ['ダウンロード', 'download', (x) => term('download', x)],
  ['ウェポン', 'weapon', (x) => term('weapon', x)],
  ['サージ', 'surge', (x) => term('surge', x)],
  ['ストレージ', 'storage', (x) => term('storage', x)],
  ['スタック', 'stack', (x) => term('stack', x)],
  ['アサルト', 'assault', (x) => term('assault', x)],
  ['ダイレクト', 'direct', (x) => term('direct', x)],
  ['Gブラスト', 'G-blast', (x) => term('grid_blast', x)],
  ['グリッド・ブラスト', 'grid blast', (x) => term('grid_blast', x)],
  ['応戦', 'accept', (x) => term('response', x)],
  ['タテ置き', 'upright', (x) => term('active', x)],
  ['ヨコ置き', 'sideways', (x) => term('save', x)],
  ['潜伏', 'stealth', (x) => term('stealth', x)],
  ['ロックオン', 'lock-on', (x) => term('lock_on', x)],
  ['00制限', '00 rule', (x) => term('zero_rule', x)],
  ['基本パワー', 'base power', (x) => term('base', x)],
  ['コア', 'core', (x) => term('core', x)],
];

/** `text` as nodes, the first place of each glossary word in it marked with `term` (a word
 *  that is the whole text stays plain: it is a label, not a sentence). */
export function termify(text) {
  if (!text) return [text || ''];
  const en = S.settings.lang === 'en';
  const low = en ? text.toLowerCase() : text;
  const found = [];
  for (const [ja, word, make] of WORDS) {
    const w = en ? word : ja;
    const i = low.indexOf(w);
    if (i >= 0 && w.length < text.trim().length) found.push({ i, n: w.length, make });
  }
  found.sort((a, b) => a.i - b.i || b.n - a.n);
  const out = [];
  const used = new Set();
  let at = 0;
  for (const f of found) {
    if (f.i < at || used.has(f.make)) continue;
    out.push(text.slice(at, f.i), f.make(text.slice(f.i, f.i + f.n)));
    used.add(f.make);
    at = f.i + f.n;
  }
  out.push(text.slice(at));
  return out.filter((x) => x !== '');
}
