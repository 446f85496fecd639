// The card editor's form, drawn from the ruleset's schema (the server's form,
// server/design_forms.py): a select for a value of a closed list (kinds, verbs, sides,
// conditions...), a number field for a whole number (its range from the schema), a check box
// for a yes/no keyword, check boxes for a list of values, a text field for a name or a list of
// words, a list of sub-forms for a list of objects (effect steps, 【！】 abilities, Maken's
// abilities: add, remove, reorder), a sub-form for an object that may be absent (a target),
// and a card list with counts for a deck's section. The form edits the object it is given in
// place; it never judges a value: the server's checks do, and placeProblems() puts each
// problem under the field its path names (`cards[12].lv`, `decks[0].main.oni-warlord`).
//
// Every field's box carries its path (data-path); every control a focus key (data-fkey), so a
// form drawn again (a select that changes which fields apply) keeps the focus where it was.

import { h } from '../shell/dom.js';
import { S } from '../shell/state.js';
import { et, hasWord } from './editor-strings.js';

let UID = 0;
const uid = () => `ed-f${++UID}`;

/** The name of a schema field in the page's language (the field's own name if none). */
export function fieldLabel(name) {
  return hasWord(`f_${name}`) ? et(`f_${name}`) : name;
}

/** The word for `value` of the field at hint path `hint` (e.g. `steps.verb`): the game's own
 *  word from the form, else the editor's, else the value itself. */
export function valueLabel(form, hint, value) {
  const own = form.words && form.words[hint] && form.words[hint][value];
  if (own) return own[S.settings.lang] || own.ja;
  const name = hint.split('.').pop();
  const key = `v_${name}_${value}`;
  return hasWord(key) ? et(key) : String(value);
}

/** `path` lies at or under `prefix` (`cards[3].steps[0]` under `cards[3]`). */
export function under(path, prefix) {
  return path === prefix || path.startsWith(`${prefix}.`) || path.startsWith(`${prefix}[`);
}

/** A key of an object as a path part (as the server's paths write it: quoted unless bare). */
export function keyPart(key) {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : `"${key}"`;
}

function optionText(form, hint, value) {
  const word = valueLabel(form, hint, value);
  return word === String(value) ? word : `${word} — ${value}`;
}

/** The box of one field: its label, its control and the place for its messages. */
function box(path, label, control, cls = '') {
  const msg = h('div', { class: 'ed-msg', id: `${control.id || uid()}-msg`, 'aria-live': 'polite' });
  if (control.id) control.setAttribute('aria-describedby', msg.id);
  return h('div', { class: `ed-field ${cls}`, dataset: { path } },
    h('label', { class: 'ed-label', for: control.id, text: label }), control, msg);
}

/** A group's box (a fieldset: a list of sub-forms, check boxes, a deck section). */
function group(path, legend, kids, cls = '', extra = null) {
  return h('fieldset', { class: `ed-field ed-group ${cls}`, dataset: { path } },
    h('legend', { class: 'ed-legend' }, h('span', { text: legend }), extra),
    kids,
    h('div', { class: 'ed-msg', 'aria-live': 'polite' }));
}

/** A new item of a list: its required fields at their first allowed value. */
function newItem(ctx, schema, hint) {
  if (schema.type !== 'object') return schema.enum ? schema.enum[0] : (schema.type === 'integer' ? 0 : '');
  const item = {};
  for (const key of schema.order || Object.keys(schema.properties)) {
    const sub = schema.properties[key];
    if (!(schema.required || []).includes(key)) continue;
    const allowed = choicesOf(ctx, sub, `${hint}.${key}`);
    if (allowed.length) item[key] = allowed[0];
    else if (sub.type === 'integer') item[key] = Math.max(sub.minimum ?? 0, Math.min(1, sub.maximum ?? 1));
    else if (sub.type === 'string') item[key] = '';
    else if (sub.type === 'array') item[key] = [];
  }
  settleShown(ctx, item, hint);
  return item;
}

/** The values a select offers: the schema's, narrowed by the form's hints for the card's kind. */
function choicesOf(ctx, schema, hint) {
  const all = schema.enum || [];
  const narrowed = ctx.form.choices && ctx.form.choices[hint];
  if (!narrowed) return all;
  return narrowed[ctx.kind] || [];
}

/** The fields of `obj` that apply only for some value of a sibling: added (at their starting
 *  value) when they come to apply, removed when they stop. */
function settleShown(ctx, obj, hint) {
  for (const [path, rule] of Object.entries(ctx.form.shown || {})) {
    const at = path.lastIndexOf('.');
    if (path.slice(0, at) !== hint) continue;
    const key = path.slice(at + 1);
    const applies = Object.prototype.hasOwnProperty.call(rule.in, obj[rule.when]);
    if (applies && obj[key] == null) obj[key] = rule.in[obj[rule.when]];
    if (!applies && key in obj) delete obj[key];
  }
}

function applies(ctx, obj, hint, key) {
  const rule = ctx.form.shown && ctx.form.shown[hint ? `${hint}.${key}` : key];
  return !rule || Object.prototype.hasOwnProperty.call(rule.in, obj[rule.when]);
}

/** Set (or, for `undefined`, remove) `obj[key]`, then tell the editor. */
function assign(ctx, obj, key, value, structural) {
  if (value === undefined) delete obj[key];
  else obj[key] = value;
  if (structural) ctx.onStructure();
  else ctx.onInput();
}

/* ================================================================== the controls */

function selectField(ctx, obj, key, schema, path, hint) {
  const id = uid();
  const allowed = choicesOf(ctx, schema, hint);
  const current = obj[key];
  const values = current != null && !allowed.includes(current) ? [...allowed, current] : allowed;
  const opts = [];
  if (schema.nullable || current == null) opts.push(h('option', { value: '', text: et('ed_none'), selected: current == null }));
  for (const v of values) opts.push(h('option', { value: String(v), text: optionText(ctx.form, hint, v), selected: v === current }));
  const select = h('select', {
    id, dataset: { fkey: `${path}` },
    onchange: (ev) => {
      const value = ev.target.value === '' ? undefined : values.find((v) => String(v) === ev.target.value);
      if (key === 'kind' && ctx.top && ctx.form.kinds) {
        const keep = ctx.form.kinds[value] || [];
        for (const k of Object.keys(obj)) if (!keep.includes(k) && k !== 'kind') delete obj[k];
      }
      if (value === undefined) delete obj[key];
      else obj[key] = value;
      settleShown(ctx, obj, hint.slice(0, Math.max(0, hint.lastIndexOf('.'))));
      ctx.onStructure();
    },
  }, opts);
  return box(path, fieldLabel(key), select, 'ed-select');
}

function iconField(ctx, obj, key, path) {
  const id = uid();
  const names = Object.keys(ctx.form.icons);
  const current = obj[key];
  const select = h('select', {
    id, dataset: { fkey: path },
    onchange: (ev) => assign(ctx, obj, key, ev.target.value || undefined, false),
  },
  h('option', { value: '', text: et('ed_none'), selected: current == null }),
  names.map((n) => h('option', { value: n, text: n, selected: n === current })),
  current != null && !names.includes(current) ? h('option', { value: current, text: current, selected: true }) : null);
  return box(path, fieldLabel(key), select, 'ed-select');
}

function numberField(ctx, obj, key, schema, path) {
  const id = uid();
  const input = h('input', {
    id, type: 'number', step: '1', inputmode: 'numeric',
    min: schema.minimum != null ? String(schema.minimum) : null,
    max: schema.maximum != null ? String(schema.maximum) : null,
    value: obj[key] != null ? String(obj[key]) : '',
    dataset: { fkey: path },
    oninput: (ev) => {
      const raw = ev.target.value.trim();
      assign(ctx, obj, key, raw === '' ? undefined : Number(raw), false);
    },
  });
  return box(path, fieldLabel(key), input, 'ed-number');
}

function textField(ctx, obj, key, schema, path) {
  const id = uid();
  const isKey = ctx.top && key === ctx.form.key;
  let committed = obj[key];
  const long = /^style_/.test(key); // a deck's description: a sentence or two
  const now = obj[key] != null ? String(obj[key]) : '';
  const input = h(long ? 'textarea' : 'input', {
    id, type: long ? null : 'text', rows: long ? '2' : null, autocomplete: 'off', spellcheck: 'false',
    value: long ? null : now, text: long ? now : null,
    maxlength: schema.maxLength != null ? String(schema.maxLength) : '200',
    dataset: { fkey: path },
    oninput: (ev) => assign(ctx, obj, key, ev.target.value, false),
    onchange: (ev) => {
      if (isKey && ctx.onRename && committed !== ev.target.value) ctx.onRename(committed, ev.target.value);
      committed = ev.target.value;
    },
  });
  const cls = /^style_/.test(key) ? 'ed-text ed-full' : /^name_/.test(key) ? 'ed-text ed-wide' : 'ed-text';
  return box(path, fieldLabel(key), input, cls);
}

function checkField(ctx, obj, key, path) {
  const id = uid();
  const input = h('input', {
    id, type: 'checkbox', checked: !!obj[key], dataset: { fkey: path },
    onchange: (ev) => assign(ctx, obj, key, ev.target.checked ? true : undefined, false),
  });
  const msg = h('div', { class: 'ed-msg', id: `${id}-msg`, 'aria-live': 'polite' });
  input.setAttribute('aria-describedby', msg.id);
  return h('div', { class: 'ed-field ed-check', dataset: { path } },
    h('label', { class: 'ed-check-label', for: id }, input, h('span', { text: fieldLabel(key) })), msg);
}

function multiField(ctx, obj, key, schema, path, hint) {
  const values = schema.items.enum;
  const chosen = Array.isArray(obj[key]) ? obj[key] : [];
  const boxes = values.map((v) => {
    const id = uid();
    return h('label', { class: 'ed-check-label', for: id },
      h('input', {
        id, type: 'checkbox', value: String(v), checked: chosen.includes(v), dataset: { fkey: `${path}=${v}` },
        onchange: (ev) => {
          const now = Array.isArray(obj[key]) ? obj[key] : [];
          const next = values.filter((x) => (x === v ? ev.target.checked : now.includes(x)));
          assign(ctx, obj, key, next.length || key in obj ? next : undefined, false);
        },
      }),
      h('span', { text: optionText(ctx.form, hint, v) }));
  });
  return group(path, fieldLabel(key), h('div', { class: 'ed-checks' }, boxes), 'ed-multi');
}

function wordsField(ctx, obj, key, path) {
  const id = uid();
  const input = h('input', {
    id, type: 'text', autocomplete: 'off', value: (obj[key] || []).join(', '), dataset: { fkey: path },
    placeholder: et('ed_list_hint'),
    oninput: (ev) => {
      const words = ev.target.value.split(/[,、，]/).map((w) => w.trim()).filter(Boolean);
      assign(ctx, obj, key, words.length || key in obj ? words : undefined, false);
    },
  });
  return box(path, fieldLabel(key), input, 'ed-text');
}

function tool(text, label, onclick, disabled = false, fkey = '') {
  return h('button', { type: 'button', class: 'tool ed-tool', text, 'aria-label': label, title: label, disabled, onclick, dataset: fkey ? { fkey } : {} });
}

function listField(ctx, obj, key, schema, path, hint) {
  const items = Array.isArray(obj[key]) ? obj[key] : [];
  const name = fieldLabel(key);
  const move = (i, j) => {
    const next = items.slice();
    [next[i], next[j]] = [next[j], next[i]];
    obj[key] = next;
    ctx.onStructure();
  };
  const rows = items.map((item, i) => {
    const at = `${path}[${i}]`;
    const title = et('ed_item', { field: name, n: i + 1 });
    const tools = h('span', { class: 'ed-item-tools' },
      tool('↑', `${title}: ${et('ed_up')}`, () => move(i, i - 1), i === 0, `${at}^`),
      tool('↓', `${title}: ${et('ed_down')}`, () => move(i, i + 1), i === items.length - 1, `${at}v`),
      tool('×', `${title}: ${et('ed_remove')}`, () => {
        obj[key] = items.filter((_, j) => j !== i);
        ctx.onStructure();
      }, false, `${at}x`));
    const inner = schema.items.type === 'object'
      ? objectFields(ctx, item, schema.items, at, hint)
      : [];
    const headId = uid();
    return h('div', { class: 'ed-field ed-item', role: 'group', 'aria-labelledby': headId, dataset: { path: at } },
      h('div', { class: 'ed-item-head' }, h('span', { class: 'ed-item-title', id: headId, text: title }), tools),
      h('div', { class: 'ed-grid' }, inner),
      h('div', { class: 'ed-msg', 'aria-live': 'polite' }));
  });
  const add = h('button', {
    type: 'button', class: 'tool ed-add', text: `＋ ${et('ed_add_item', { field: name })}`, dataset: { fkey: `${path}+` },
    onclick: () => {
      obj[key] = [...items, newItem(ctx, schema.items, hint)];
      ctx.onStructure();
    },
  });
  return group(path, name, [h('div', { class: 'ed-items' }, rows), add], 'ed-seq');
}

function optionalObject(ctx, obj, key, schema, path, hint) {
  const id = uid();
  const present = obj[key] != null;
  const toggle = h('label', { class: 'ed-check-label ed-has', for: id },
    h('input', {
      id, type: 'checkbox', checked: present, dataset: { fkey: `${path}?` },
      onchange: (ev) => {
        if (ev.target.checked) obj[key] = newItem(ctx, { ...schema, type: 'object' }, hint);
        else delete obj[key];
        ctx.onStructure();
      },
    }),
    h('span', { text: et('ed_has') }));
  const inner = present ? h('div', { class: 'ed-grid' }, objectFields(ctx, obj[key], schema, path, hint)) : null;
  return group(path, fieldLabel(key), [toggle, inner], 'ed-object');
}

/** The fields of one object of the schema, in the schema's order (`only`: the fields to show,
 *  for a card of a kind). */
export function objectFields(ctx, obj, schema, path, hint, only = null) {
  const out = [];
  const order = schema.order || Object.keys(schema.properties);
  for (const key of order) {
    if (only && !only.includes(key)) continue;
    const sub = schema.properties[key];
    if (!sub || !applies(ctx, obj, hint, key)) continue;
    const at = path ? `${path}.${keyPart(key)}` : keyPart(key);
    const subHint = hint ? `${hint}.${key}` : key;
    const inner = { ...ctx, top: ctx.top && !hint };
    out.push(field(inner, obj, key, sub, at, subHint));
  }
  return out;
}

function field(ctx, obj, key, schema, path, hint) {
  if (schema.additionalProperties) return ctx.countMap(obj, key, schema, path);
  if (key === 'icon' && ctx.form.icons && Object.keys(ctx.form.icons).length) return iconField(ctx, obj, key, path);
  if (schema.enum) return selectField(ctx, obj, key, schema, path, hint);
  switch (schema.type) {
    case 'integer': return numberField(ctx, obj, key, schema, path);
    case 'boolean': return checkField(ctx, obj, key, path);
    case 'array':
      if (schema.items.enum) return multiField(ctx, obj, key, schema, path, hint);
      if (schema.items.type === 'object') return listField(ctx, obj, key, schema, path, hint);
      return wordsField(ctx, obj, key, path);
    case 'object': return optionalObject(ctx, obj, key, schema, path, hint);
    default: return textField(ctx, obj, key, schema, path);
  }
}

/* ================================================================== problems */

/** A problem in the page's language. */
export function said(p) {
  return (S.settings.lang === 'en' ? p.en : p.ja) || p.en || '';
}

/** Put each problem under the field its path names (the deepest field of `root` at or above
 *  the path); mark the controls invalid. Returns the problems no field of `root` holds. */
export function placeProblems(root, problems) {
  for (const msg of root.querySelectorAll('.ed-msg')) msg.replaceChildren();
  for (const c of root.querySelectorAll('[aria-invalid]')) c.removeAttribute('aria-invalid');
  for (const f of root.querySelectorAll('.ed-field.bad')) f.classList.remove('bad');
  const fields = Array.from(root.querySelectorAll('.ed-field[data-path]'));
  const left = [];
  for (const p of problems) {
    let best = null;
    for (const f of fields) {
      const at = f.dataset.path;
      if (under(p.path, at) && (!best || at.length > best.dataset.path.length)) best = f;
    }
    if (!best) {
      left.push(p);
      continue;
    }
    const msg = Array.from(best.children).find((c) => c.classList.contains('ed-msg'));
    const rest = p.path.slice(best.dataset.path.length).replace(/^\./, '');
    if (msg) msg.append(h('p', { class: 'ed-problem', dataset: { path: p.path } }, rest ? `${rest}: ${said(p)}` : said(p)));
    best.classList.add('bad');
    const control = Array.from(best.children).find((c) => /^(INPUT|SELECT|TEXTAREA)$/.test(c.tagName));
    if (control) control.setAttribute('aria-invalid', 'true');
  }
  return left;
}

/** The element of `root` whose focus key is `fkey` (to focus it again after a redraw). */
export function byFocusKey(root, fkey) {
  if (!fkey) return null;
  return Array.from(root.querySelectorAll('[data-fkey]')).find((e) => e.dataset.fkey === fkey) || null;
}
