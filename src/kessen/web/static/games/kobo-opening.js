// Kōbō (攻防) opening switches for designers (rules §4, games/kobo/opening.py): the start
// screen's advanced settings for the opening tactics counts of each seat and the pass
// penalty's schedule. The switches, their values and their names come from the catalogue
// (`opening`); the seed's value of each is marked as the standard, and any other value is
// labelled a variant. Only the switches set away from the standard go into the start config,
// so a standard game's config is the same as without this module; the server checks every
// value (a refused one comes back as the start screen's error).

import { cat } from './kobo-board.js';
import { t } from './kobo-strings.js';
import { $, $$, h } from '../shell/dom.js';

/** The catalogue's opening switches (key, default, values, value_names, name, text). */
function switches() {
  return cat().opening || [];
}

/** The switches' selects in the start screen. */
function selects(box) {
  return $$('select[data-opening]', box);
}

/** The names of the switches set away from the standard, for the variant line. */
function variantNames(box) {
  const byKey = Object.fromEntries(switches().map((s) => [s.key, s]));
  return selects(box)
    .filter((sel) => byKey[sel.name] && sel.value !== JSON.stringify(byKey[sel.name].default))
    .map((sel) => byKey[sel.name].name);
}

/** Show which switches make the game a variant (or that it is the standard). */
function showVariant(box) {
  const names = variantNames(box);
  const note = $('#kb-opening-note', box);
  if (!note) return;
  note.textContent = names.length ? t('op_variant', { names: names.join(t('list_sep')) }) : t('op_standard_game');
  note.classList.toggle('variant', names.length > 0);
  const details = $('#kb-opening', box);
  if (details) details.classList.toggle('variant', names.length > 0);
}

/** Draw (or redraw, keeping the chosen values) the opening switches in the Kōbō options box. */
export function renderOpeningOptions(box) {
  const list = switches();
  const old = $('#kb-opening', box);
  if (!list.length) {
    if (old) old.hidden = true;
    return;
  }
  const keep = {};
  for (const sel of old ? selects(old) : []) keep[sel.name] = sel.value;
  const row = h('details', { class: 'kb-options kb-opening', id: 'kb-opening', open: old ? old.open : false },
    h('summary', { text: t('op_title') }),
    h('p', { class: 'hint', text: t('op_hint') }),
    list.map((s) => {
      const standard = JSON.stringify(s.default);
      const cur = s.key in keep ? keep[s.key] : standard;
      return h('label', { class: 'kb-switch' },
        h('span', { text: `${s.name} — ${s.text}` }),
        h('select', { name: s.key, dataset: { opening: s.key }, onchange: () => showVariant(box) },
          s.values.map((v, i) => {
            const value = JSON.stringify(v);
            const name = s.value_names[i];
            return h('option', { value, text: value === standard ? t('op_standard', { value: name }) : name, selected: value === cur });
          })));
    }),
    h('p', { class: 'hint kb-opening-note', id: 'kb-opening-note', 'aria-live': 'polite' }));
  if (old) old.replaceWith(row);
  else box.append(row);
  showVariant(box);
}

/** The start config with the switches set away from the standard added (`config.<key>`). */
export function withOpening(cfg) {
  const box = $('#kobo-options');
  const byKey = Object.fromEntries(switches().map((s) => [s.key, s]));
  const extra = {};
  for (const sel of box ? selects(box) : []) {
    const s = byKey[sel.name];
    if (s && sel.value !== JSON.stringify(s.default)) extra[s.key] = JSON.parse(sel.value);
  }
  if (!Object.keys(extra).length) return cfg;
  return { ...cfg, config: { ...(cfg.config || {}), ...extra } };
}
