// The balance runs tab of the design screen (バランス検証): a form for a new run (the game, one
// card data or two for an A/B run, decks, COM levels, games per matchup, a seed, rule switches),
// the list of the runs the server's store keeps (the command line's too) with their live
// progress, and one run's page: its progress bar with the time left, cancel and resume, and its
// results (design/results.js). The server plays the games (server/balance_api): this page only
// asks it, once a second while something runs, so a reload finds every run where it is.
//
// Addresses: #/design/runs (the form and the list), #/design/runs/new?ruleset=kobo&a=v3&b=NAME
// (the form filled in: an A/B run of set NAME against its parent, say), #/design/runs/<id>.
// Set and run names are the designer's own text: shown with textContent only.

import { $, h, put } from '../shell/dom.js';
import { toast } from '../shell/overlay.js';
import { deckName, gameName } from '../shell/registry.js';
import { levelName } from '../shell/seats.js';
import { S } from '../shell/state.js';
import { designPath, dt } from './design.js';
import { renderResults } from './results.js';

const POLL_MS = 1000;
const DEFAULT_GAMES = 20;

const R = {
  body: null,
  view: 'list', // 'list' | a run's id
  form: null, // the server's choices for the form (/api/balance/form)
  formKey: '',
  values: null,
  problems: [],
  starting: false,
  runs: null,
  listError: '',
  run: null, // the open run's status
  results: null,
  drawn: null, // what lies below the open run's status (its results object, or a word)
  resultsKey: '',
  partial: false,
  timer: null,
  seq: 0,
};

/** A JSON request to the balance API; an Error carrying the server's problems on refusal. */
async function api(method, url, body) {
  const r = await fetch(url, {
    method,
    headers: body === undefined ? undefined : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await r.json().catch(() => null);
  if (r.ok) return data;
  const detail = data && data.detail;
  let problems;
  if (detail && Array.isArray(detail.problems)) problems = detail.problems;
  else if (typeof detail === 'string') problems = [{ path: '', en: detail, ja: detail }];
  else if (Array.isArray(detail)) problems = detail.map((d) => ({ path: (d.loc || []).slice(1).join('.'), en: d.msg, ja: d.msg }));
  else problems = [{ path: '', en: r.statusText || String(r.status), ja: r.statusText || String(r.status) }];
  const err = new Error(problems.map(said).join('\n'));
  err.problems = problems;
  throw err;
}

/** A problem of the server in the page's language. */
function said(p) {
  return (S.settings.lang === 'en' ? p.en : p.ja) || p.en || '';
}

const onDesign = () => document.body.dataset.screen === 'design' && R.body && R.body.isConnected;

/* ================================================================== time */

export function duration(seconds) {
  const s = Math.max(0, Math.round(seconds));
  if (s >= 3600) return dt('time_h_m', { h: Math.floor(s / 3600), m: Math.floor((s % 3600) / 60) });
  if (s >= 60) return dt('time_min_s', { m: Math.floor(s / 60), s: s % 60 });
  return dt('time_s', { s });
}

function when(stamp) {
  try {
    return new Date(stamp * 1000).toLocaleString(S.settings.lang === 'en' ? 'en-GB' : 'ja-JP', { dateStyle: 'short', timeStyle: 'short' });
  } catch {
    return '';
  }
}

/* ================================================================== the form */

function rulesets() {
  return S.meta ? Object.keys(S.meta.rulesets) : ['kobo'];
}

function freshValues(ruleset) {
  return {
    ruleset, mode: 'one', a: '', b: '', decks: null, players: null,
    games: DEFAULT_GAMES, seed: Math.floor(Math.random() * 1e6), best_of: 1, mirror: false,
    turn_limit: '', switches: {}, name: '',
  };
}

/** The form's values from an address's query (`ruleset`, `a`, `b`, `games`, `seed`). */
function valuesFrom(query) {
  const q = new URLSearchParams(query);
  const wanted = q.get('ruleset');
  const ruleset = rulesets().includes(wanted) ? wanted : (R.values ? R.values.ruleset : rulesets()[0]);
  const v = freshValues(ruleset);
  if (q.get('a')) v.a = q.get('a');
  if (q.get('b')) { v.b = q.get('b'); v.mode = 'ab'; }
  const games = Number(q.get('games'));
  if (Number.isInteger(games) && games > 0) v.games = games;
  const seed = Number(q.get('seed'));
  if (q.get('seed') && Number.isInteger(seed) && seed >= 0) v.seed = seed;
  return v;
}

async function loadForm() {
  const v = R.values;
  const q = new URLSearchParams({ ruleset: v.ruleset, lang: S.settings.lang });
  if (v.a) q.set('a', v.a);
  if (v.mode === 'ab' && v.b) q.set('b', v.b);
  const key = q.toString();
  if (key === R.formKey && R.form) return;
  const seq = ++R.seq;
  try {
    const form = await api('GET', `/api/balance/form?${q}`);
    if (seq !== R.seq) return;
    R.form = form;
    R.formKey = key;
    settle(form);
  } catch (err) {
    if (seq !== R.seq) return;
    R.form = null;
    R.problems = err.problems || [{ path: '', en: String(err.message), ja: String(err.message) }];
  }
  renderForm();
}

/** Bring the values in line with the server's choices (defaults for what is not chosen). */
function settle(form) {
  const v = R.values;
  const values = form.sources.map((s) => s.value);
  if (!values.includes(v.a)) v.a = values[0] || '';
  if (!values.includes(v.b)) v.b = values.find((x) => x !== v.a) || '';
  if (!values.length) v.mode = 'one';
  const slugs = form.decks.map((d) => d.slug);
  v.decks = v.decks ? v.decks.filter((d) => slugs.includes(d)) : slugs.slice();
  if (!v.decks.length) v.decks = slugs.slice();
  if (!v.players || !v.players.every((p) => form.players.includes(p))) {
    v.players = form.players.includes('heuristic') ? ['heuristic'] : form.players.slice(0, 1);
    if (!form.has_decks && form.players.includes('random')) v.players = [...v.players, 'random'];
  }
  const keys = form.switches.map((s) => s.key);
  for (const k of Object.keys(v.switches)) if (!keys.includes(k)) delete v.switches[k];
}

function sourceLabel(source, first) {
  if (source.kind === 'set') return dt('rf_set', { name: source.value });
  return first ? dt('rf_shipped_now', { label: source.value }) : dt('rf_shipped', { label: source.value });
}

function switchValueName(sw, value, i) {
  if (sw.value_names && sw.value_names[i] != null) return String(sw.value_names[i]);
  if (value === true) return dt('rf_on');
  if (value === false) return dt('rf_off');
  return String(value);
}

function matchupCount() {
  const f = R.form;
  const v = R.values;
  if (!f) return 0;
  const entrants = (f.has_decks ? v.decks.length : 1) * v.players.length;
  return v.mirror ? (entrants * (entrants + 1)) / 2 : (entrants * (entrants - 1)) / 2;
}

function totalLine() {
  const v = R.values;
  const games = Number(v.games) || 0;
  const ab = v.mode === 'ab';
  const matchups = matchupCount();
  return dt('rf_total', { total: matchups * games * (ab ? 2 : 1), matchups, games, ab: ab ? dt('rf_total_ab') : '' });
}

function field(label, control, cls = '') {
  return h('label', { class: `rf-field ${cls}` }, h('span', { class: 'rf-label', text: label }), control);
}

function checks(id, legend, items, chosen, onChange) {
  return h('fieldset', { class: 'rf-checks', id },
    h('legend', { text: legend }),
    items.map((item) => h('label', { class: 'rf-check' },
      h('input', {
        type: 'checkbox', value: item.value, checked: chosen.includes(item.value),
        onchange: (ev) => onChange(item.value, ev.target.checked),
      }),
      h('span', { text: item.text }))));
}

function renderForm() {
  const box = R.body && R.body.querySelector('#rf-box');
  if (!box) return;
  const v = R.values;
  const f = R.form;
  const games = rulesets().map((r) => h('option', { value: r, text: gameName(r), selected: r === v.ruleset }));
  const parts = [
    h('h2', { class: 'rn-h2', text: dt('rf_title') }),
    field(dt('rf_game'), h('select', { id: 'rf-game', onchange: (ev) => changeGame(ev.target.value) }, games)),
  ];
  if (!f) {
    parts.push(h('p', { class: 'muted', text: dt('r_loading') }));
    parts.push(problemsBox());
    put(box, parts);
    return;
  }
  const sources = f.sources;
  if (sources.length) {
    const mode = (value, text) => h('label', { class: 'rf-check' },
      h('input', { type: 'radio', name: 'rf-mode', value, checked: v.mode === value, onchange: () => { v.mode = value; loadForm(); } }),
      h('span', { text }));
    parts.push(h('fieldset', { class: 'rf-checks rf-mode' }, h('legend', { text: dt('rf_mode') }),
      mode('one', dt('rf_mode_one')), mode('ab', dt('rf_mode_ab'))));
    const select = (id, value, onchange) => h('select', { id, onchange },
      sources.map((s, i) => h('option', { value: s.value, text: sourceLabel(s, i === 0 && s.kind === 'shipped'), selected: s.value === value })));
    const sides = [field(v.mode === 'ab' ? dt('rf_side_a') : dt('rf_side_one'), select('rf-a', v.a, (ev) => { v.a = ev.target.value; loadForm(); }), 'rf-side')];
    if (v.mode === 'ab') sides.push(field(dt('rf_side_b'), select('rf-b', v.b, (ev) => { v.b = ev.target.value; loadForm(); }), 'rf-side'));
    parts.push(h('div', { class: 'rf-sides' }, sides));
  } else {
    parts.push(h('p', { class: 'rf-hint', text: dt('rf_no_data') }));
  }
  if (f.has_decks) {
    parts.push(checks('rf-decks', dt('rf_decks'), f.decks.map((d) => ({ value: d.slug, text: d.name })), v.decks, (slug, on) => {
      v.decks = on ? [...new Set([...v.decks, slug])] : v.decks.filter((x) => x !== slug);
      updateTotal();
    }));
  }
  parts.push(checks('rf-levels', dt('rf_levels'), f.players.map((p) => ({ value: p, text: levelName(p) })), v.players, (p, on) => {
    v.players = on ? f.players.filter((x) => x === p || v.players.includes(x)) : v.players.filter((x) => x !== p);
    updateTotal();
  }));
  parts.push(h('div', { class: 'rf-row' },
    field(dt('rf_games'), h('input', {
      id: 'rf-games', type: 'number', min: '1', max: '10000', step: '1', inputmode: 'numeric', value: String(v.games),
      oninput: (ev) => { v.games = ev.target.value; updateTotal(); },
    })),
    field(dt('rf_seed'), h('input', {
      id: 'rf-seed', type: 'number', min: '0', step: '1', inputmode: 'numeric', value: String(v.seed),
      oninput: (ev) => { v.seed = ev.target.value; },
    }))));
  parts.push(h('p', { id: 'rf-total', class: 'rf-total', 'aria-live': 'polite', text: totalLine() }));
  parts.push(moreSettings(f));
  parts.push(field(dt('rf_name'), h('input', {
    id: 'rf-name', type: 'text', maxlength: '60', autocomplete: 'off', value: v.name,
    oninput: (ev) => { v.name = ev.target.value; },
  })));
  const where = f.backend.kind === 'ray' ? dt('rf_where_ray') : dt('rf_where_local', { n: f.backend.workers });
  parts.push(h('p', { class: 'rf-hint', text: where }));
  parts.push(problemsBox());
  parts.push(h('div', { class: 'rf-actions' },
    h('button', { type: 'submit', id: 'rf-start', class: 'primary', disabled: R.starting, text: R.starting ? dt('rf_starting') : dt('rf_start') })));
  put(box, h('form', { id: 'rf-form', class: 'rf-form', autocomplete: 'off', onsubmit: startRun }, parts));
}

function moreSettings(f) {
  const v = R.values;
  const inner = [];
  if (f.best_of) {
    inner.push(field(dt('rf_best_of'), h('select', { id: 'rf-best-of', onchange: (ev) => { v.best_of = Number(ev.target.value); } },
      [1, 3, 5].map((n) => h('option', { value: String(n), text: dt('rf_best_of_n', { n }), selected: v.best_of === n })))));
    inner.push(field(dt('rf_turn_limit'), h('input', {
      id: 'rf-turn-limit', type: 'number', min: '1', max: '1000', step: '1', inputmode: 'numeric', value: v.turn_limit,
      oninput: (ev) => { v.turn_limit = ev.target.value; },
    })));
  }
  inner.push(h('label', { class: 'rf-check' },
    h('input', { type: 'checkbox', id: 'rf-mirror', checked: v.mirror, onchange: (ev) => { v.mirror = ev.target.checked; updateTotal(); } }),
    h('span', { text: dt('rf_mirror') })));
  if (f.switches.length) {
    inner.push(h('fieldset', { class: 'rf-switches', id: 'rf-switches' }, h('legend', { text: dt('rf_switches') }),
      f.switches.map((sw) => {
        const chosen = sw.key in v.switches ? v.switches[sw.key] : sw.default;
        const select = h('select', {
          'data-key': sw.key,
          onchange: (ev) => {
            const value = JSON.parse(ev.target.value);
            if (JSON.stringify(value) === JSON.stringify(sw.default)) delete v.switches[sw.key];
            else v.switches[sw.key] = value;
          },
        }, sw.values.map((value, i) => h('option', {
          value: JSON.stringify(value),
          text: switchValueName(sw, value, i) + (i === 0 ? dt('rf_standard') : ''),
          selected: JSON.stringify(value) === JSON.stringify(chosen),
        })));
        return h('label', { class: 'rf-field rf-switch', title: sw.text }, h('span', { class: 'rf-label', text: sw.name }), select);
      })));
  }
  const open = R.values.switchesOpen || Object.keys(v.switches).length > 0;
  return h('details', { class: 'rf-more', open, ontoggle: (ev) => { R.values.switchesOpen = ev.target.open; } },
    h('summary', { text: dt('rf_more') }), inner);
}

function problemsBox() {
  if (!R.problems.length) return h('div', { id: 'rf-problems', class: 'rf-problems', role: 'alert' });
  return h('div', { id: 'rf-problems', class: 'rf-problems', role: 'alert' },
    h('strong', { text: dt('rf_problems') }),
    h('ul', {}, R.problems.map((p) => h('li', { text: p.path ? `${p.path}: ${said(p)}` : said(p) }))));
}

function updateTotal() {
  const el = R.body && R.body.querySelector('#rf-total');
  if (el) el.textContent = totalLine();
}

function changeGame(ruleset) {
  const keep = R.values;
  R.values = freshValues(ruleset);
  R.values.games = keep.games;
  R.values.seed = keep.seed;
  R.problems = [];
  R.form = null;
  loadForm();
}

function runBody() {
  const v = R.values;
  const f = R.form;
  const body = {
    ruleset: v.ruleset,
    sides: f.sources.length ? (v.mode === 'ab' ? [v.a, v.b] : [v.a]) : [''],
    decks: f.has_decks ? v.decks : [],
    players: v.players,
    games: Number(v.games),
    seed: Number(v.seed) || 0,
    mirror: !!v.mirror,
    options: { ...v.switches },
    name: v.name.trim(),
  };
  if (f.best_of) body.best_of = v.best_of;
  if (f.best_of && String(v.turn_limit).trim()) body.turn_limit = Number(v.turn_limit);
  return body;
}

async function startRun(ev) {
  ev.preventDefault();
  if (R.starting || !R.form) return;
  R.starting = true;
  R.problems = [];
  renderForm();
  try {
    const run = await api('POST', '/api/balance/runs', runBody());
    R.starting = false;
    R.values.name = '';
    R.values.seed = Math.floor(Math.random() * 1e6);
    openRun(run.id, run);
  } catch (err) {
    R.starting = false;
    R.problems = err.problems || [{ path: '', en: String(err.message), ja: String(err.message) }];
    renderForm();
  }
}

/* ================================================================== progress */

/** A run's progress: a bar and a line (games, rate, time left). */
export function progressBox(run) {
  const pct = run.total ? Math.min(100, (100 * run.done) / run.total) : 0;
  const fill = h('div', { class: 'rn-bar-fill' });
  fill.style.width = `${pct.toFixed(1)}%`;
  const bar = h('div', {
    class: 'rn-bar', role: 'progressbar', 'aria-valuemin': '0', 'aria-valuemax': String(run.total),
    'aria-valuenow': String(run.done), 'aria-label': dt('rl_progress'), 'data-state': run.state,
  }, fill);
  const bits = [dt('rl_games', { done: run.done, total: run.total })];
  if (run.state === 'running') {
    if (run.rate) bits.push(dt('rl_rate', { rate: run.rate.toFixed(run.rate < 10 ? 1 : 0) }));
    bits.push(run.eta_seconds != null ? dt('rl_eta', { time: duration(run.eta_seconds) }) : dt('rl_eta_wait'));
  }
  return h('div', { class: 'rn-progress' }, bar, h('p', { class: 'rn-progress-line', text: bits.join(' · ') }));
}

function stateBadge(run) {
  const key = run.state === 'stopped' && run.cancelled ? 'st_cancelled' : `st_${run.state}`;
  return h('span', { class: 'rn-state', 'data-state': run.state, text: dt(key) });
}

function sidesText(run) {
  if (run.kind === 'ab') return `A ${run.sides[0].label} / B ${run.sides[1].label}`;
  return run.sides[0].label;
}

function actions(run) {
  const out = [];
  if (run.state === 'queued' || run.state === 'running') {
    out.push(h('button', { type: 'button', class: 'tool rn-cancel', 'data-run': String(run.id), text: dt('rl_cancel'), onclick: () => act(run.id, 'cancel') }));
  } else if ((run.state === 'stopped' || run.state === 'failed') && run.done < run.total) {
    out.push(h('button', { type: 'button', class: 'tool rn-resume', 'data-run': String(run.id), text: dt('rl_resume'), onclick: () => act(run.id, 'resume') }));
  }
  return out;
}

async function act(id, what) {
  try {
    const run = await api('POST', `/api/balance/runs/${id}/${what}`);
    if (R.view === id) R.run = run;
    if (R.runs) R.runs = R.runs.map((x) => (x.id === id ? run : x));
    if (what === 'resume') { R.results = null; R.resultsKey = ''; }
    render();
  } catch (err) {
    toast(dt('err_action'), err.message, 'error');
  }
  poll();
}

/* ================================================================== the list */

function runCard(run) {
  const head = h('div', { class: 'rn-run-head' },
    h('button', { type: 'button', class: 'link rn-open', 'data-run': String(run.id), onclick: () => openRun(run.id) },
      h('span', { class: 'rn-run-title', text: run.name })),
    stateBadge(run));
  const meta = [gameName(run.ruleset), run.kind === 'ab' ? dt('rl_ab') : dt('rl_single'), sidesText(run), dt('rl_created', { when: when(run.created) })];
  return h('li', { class: 'rn-run', 'data-run-id': String(run.id), 'data-state': run.state },
    head,
    h('p', { class: 'rn-run-meta', text: meta.join(' · ') }),
    progressBox(run),
    run.error ? h('p', { class: 'rn-error', text: dt('rl_failed', { why: run.error }) }) : null,
    h('div', { class: 'rn-run-actions' }, actions(run)));
}

function renderList() {
  const box = R.body && R.body.querySelector('#rl-box');
  if (!box) return;
  const parts = [h('h2', { class: 'rn-h2', text: dt('rl_title') })];
  if (R.listError) parts.push(h('p', { class: 'rn-error', text: `${dt('err_runs')}: ${R.listError}` }));
  if (!R.runs) parts.push(h('p', { class: 'muted', text: dt('r_loading') }));
  else if (!R.runs.length) parts.push(h('p', { class: 'muted', text: dt('rl_empty') }));
  else parts.push(h('ul', { class: 'rn-runs', id: 'rn-runs' }, R.runs.map(runCard)));
  put(box, parts);
}

async function loadList() {
  try {
    const data = await api('GET', '/api/balance/runs');
    R.runs = data.runs;
    R.listError = '';
  } catch (err) {
    R.listError = err.message;
  }
  if (R.view === 'list') renderList();
}

/* ================================================================== one run */

export function openRun(id, known = null) {
  stopPoll();
  R.view = id;
  R.run = known;
  R.results = null;
  R.resultsKey = '';
  R.partial = false;
  designPath(`runs/${id}`);
  render();
  poll();
}

function renderRun() {
  const box = R.body && R.body.querySelector('#rn-detail');
  if (!box) return;
  const run = R.run;
  if (!box.querySelector('#rn-back')) {
    put(box,
      h('button', { type: 'button', class: 'tool', id: 'rn-back', text: dt('rl_back'), onclick: backToList }),
      h('div', { id: 'rn-status', class: 'rn-status' }),
      h('div', { id: 'rn-below', class: 'rn-below' }));
    R.drawn = null;
  }
  const status = box.querySelector('#rn-status');
  const below = box.querySelector('#rn-below');
  if (!run) {
    put(status, h('p', { class: 'muted', text: R.listError || dt('r_loading') }));
    return;
  }
  const head = h('header', { class: 'rn-detail-head' },
    h('h2', { class: 'rn-h2 rn-run-title', text: run.name }),
    stateBadge(run),
    h('p', { class: 'rn-run-meta', text: [gameName(run.ruleset), run.kind === 'ab' ? dt('ab_title') : dt('rl_single'), sidesText(run), dt('rl_created', { when: when(run.created) })].join(' · ') }));
  const comma = S.settings.lang === 'en' ? ', ' : '、';
  const settings = [
    run.decks.length ? `${dt('rf_decks')}: ${run.decks.map((d) => deckName(run.ruleset, d)).join(comma)}` : null,
    `${dt('rf_levels')}: ${run.players.map((p) => levelName(p, true)).join(comma)}`,
    `${dt('rf_games')}: ${run.games}`,
    `${dt('rf_seed')}: ${run.seed}`,
    ...Object.entries(run.options || {}).map(([k, v]) => `${k}=${JSON.stringify(v)}`),
  ].filter(Boolean);
  const notes = [h('p', { class: 'rn-run-meta rn-settings', text: settings.join(' · ') })];
  if (run.error) notes.push(h('p', { class: 'rn-error', text: dt('rl_failed', { why: run.error }) }));
  if (run.state === 'stopped' && run.done < run.total) notes.push(h('p', { class: 'rf-hint', text: dt('rl_stopped_note') }));
  put(status, head, notes, progressBox(run), h('div', { class: 'rn-run-actions' }, actions(run)));
  // What lies below the status is drawn again only when it changes: a poll keeps the results
  // (and how far their game list was opened) as they are.
  const live = run.state === 'queued' || run.state === 'running';
  const want = live && !R.partial ? `wait|${run.done > 0}` : run.done === 0 ? 'none' : R.results || 'loading';
  if (want === R.drawn) return;
  R.drawn = want;
  if (want === 'none') {
    put(below);
  } else if (typeof want === 'string' && want.startsWith('wait')) {
    put(below, h('div', { class: 'rn-wait' }, h('p', { class: 'muted', text: dt('rl_results_wait') }),
      run.done > 0 ? h('button', { type: 'button', class: 'tool', id: 'rn-partial', text: dt('rl_partial_show'), onclick: () => { R.partial = true; loadResults(true); } }) : null));
  } else if (want === 'loading') {
    put(below, h('div', { id: 'rn-results', class: 'rn-results' }, h('p', { class: 'muted', text: dt('r_loading') })));
  } else {
    const results = h('div', { id: 'rn-results', class: 'rn-results' });
    put(below, results);
    renderResults(results, R.results);
  }
}

async function loadResults(force = false) {
  const run = R.run;
  if (!run) return;
  const key = `${run.id}|${run.done}|${run.state}|${S.settings.lang}`;
  if (!force && key === R.resultsKey && R.results) return;
  R.resultsKey = key;
  try {
    const data = await api('GET', `/api/balance/runs/${run.id}/results?lang=${S.settings.lang}`);
    if (R.view !== run.id) return;
    R.results = data;
  } catch (err) {
    toast(dt('err_runs'), err.message, 'error');
  }
  renderRun();
}

function backToList() {
  stopPoll();
  R.view = 'list';
  R.run = null;
  R.results = null;
  designPath('runs');
  render();
  poll();
}

/* ================================================================== polling */

function stopPoll() {
  clearTimeout(R.timer);
  R.timer = null;
}

async function poll() {
  stopPoll();
  if (!onDesign()) return;
  let live = false;
  if (R.view === 'list') {
    await loadList();
    live = !!(R.runs && R.runs.some((r) => r.state === 'queued' || r.state === 'running'));
  } else {
    const id = R.view;
    try {
      const run = await api('GET', `/api/balance/runs/${id}`);
      if (R.view !== id) return;
      const was = R.run ? R.run.state : null;
      R.run = run;
      R.listError = '';
      live = run.state === 'queued' || run.state === 'running';
      renderRun();
      if (!live && run.done > 0 && (was !== run.state || !R.results)) await loadResults(true);
      else if (live && R.partial && R.results && run.done - (R.results.status ? R.results.status.done : 0) >= Math.max(10, run.total / 20)) loadResults(true);
    } catch (err) {
      if (R.view !== id) return;
      R.listError = err.message;
      renderRun();
      return;
    }
  }
  if (live && onDesign()) R.timer = setTimeout(poll, POLL_MS);
}

/* ================================================================== the tab */

function render() {
  if (!R.body) return;
  if (R.view === 'list') {
    put(R.body, h('div', { class: 'rn-layout' },
      h('section', { class: 'rn-form-box', id: 'rf-box', 'aria-label': dt('rf_title') }),
      h('section', { class: 'rn-list-box', id: 'rl-box', 'aria-label': dt('rl_title') })));
    renderForm();
    renderList();
  } else {
    put(R.body, h('section', { class: 'rn-detail', id: 'rn-detail' }));
    renderRun();
  }
}

/** The design screen's tab (design/design.js). */
export const runsTab = {
  id: 'runs',
  label: () => dt('tab_runs'),
  open(body, rest) {
    R.body = body;
    stopPoll();
    const [path, query] = String(rest || '').split('?');
    const id = Number(path);
    if (path && Number.isInteger(id) && id > 0) {
      openRun(id);
      return;
    }
    R.view = 'list';
    if (path === 'new' || !R.values) {
      R.values = valuesFrom(query || '');
      R.form = null;
      R.formKey = '';
      R.problems = [];
    }
    render();
    loadForm();
    poll();
  },
  render() {
    R.formKey = '';
    R.resultsKey = '';
    render();
    if (R.view === 'list') loadForm();
    else if (R.results && R.run) loadResults(true); // names of decks and cards in the new language
    poll();
  },
  leave() {
    stopPoll();
  },
};
