// A balance run's result page (design/runs.js opens it): drawn from the figures the server
// computes (server/balance_results), plots in hand-made SVG, every number also as text.
//
// One card data: the matchups as a heat map (the row deck's win rate, its Wilson 95% interval
// and the games), each deck's overall score and the first player's rate with their intervals,
// the game lengths as a histogram, per-card figures (the seat-games in which a card was played
// or drawn, and the win rate then) and every game, linked to its replay.
// A/B: the same figures of both card data side by side, each difference B − A with its interval
// and its test (paired by seed where the games pair up), the significant ones marked ★ and
// listed first, so "did my change fix the deck?" has its answer at the top.

import { h, put } from '../shell/dom.js';
import { levelName } from '../shell/seats.js';
import { S } from '../shell/state.js';
import { dt } from './design.js';

const PAGE = 50;
const SVG = 'http://www.w3.org/2000/svg';

/* ================================================================== formatting */

const pct = (x) => `${(100 * x).toFixed(1)}%`;
const span = (ci) => `[${(100 * ci[0]).toFixed(1)}–${(100 * ci[1]).toFixed(1)}]`;
const points = (d) => `${d > 0 ? '+' : d < 0 ? '−' : '±'}${Math.abs(100 * d).toFixed(1)}pt`;
const signed = (d, digits = 2) => `${d > 0 ? '+' : d < 0 ? '−' : '±'}${Math.abs(d).toFixed(digits)}`;
const pValue = (p) => (p < 0.001 ? '<0.001' : p.toFixed(3));
const num = (x, digits = 1) => (x == null ? '—' : Number(x).toFixed(digits).replace(/\.0+$/, ''));

function rateText(rate) {
  return rate && rate.n ? `${pct(rate.rate)} ${span(rate.ci95)}` : '—';
}

/** Names for the page: entrants (deck and COM level), cards. */
function namesOf(data) {
  const players = new Set(data.entrants.map((e) => e.player));
  const decks = data.deck_names || {};
  const entrant = (i) => {
    const e = data.entrants[i];
    if (!e) return '?';
    const level = levelName(e.player, true);
    if (e.deck == null) return level;
    const deck = decks[e.deck] || e.deck;
    return players.size > 1 ? `${deck} · ${level}` : deck;
  };
  const card = (slug) => (data.card_names && data.card_names[slug]) || slug;
  return { entrant, card, levels: [...players].map((p) => levelName(p, true)) };
}

/* ================================================================== SVG pieces */

function svg(tag, attrs, ...kids) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  for (const kid of kids.flat()) if (kid) e.append(kid);
  return e;
}

/** An interval on an axis (no text: the numbers stand beside it). `lo`, `hi`, `at` in
 *  [min, max]; a dashed line marks `centre`. */
function intervalPlot(lo, hi, at, { min = 0, max = 1, centre = 0.5, sig = false } = {}) {
  const x = (v) => (100 * (Math.min(max, Math.max(min, v)) - min)) / (max - min);
  return svg('svg', { class: `rs-interval${sig ? ' sig' : ''}`, viewBox: '0 0 100 16', preserveAspectRatio: 'none', 'aria-hidden': 'true', focusable: 'false' },
    svg('line', { x1: 0, y1: 8, x2: 100, y2: 8, class: 'rs-axis' }),
    svg('line', { x1: x(centre), y1: 1, x2: x(centre), y2: 15, class: 'rs-centre' }),
    svg('rect', { x: x(lo), y: 5.5, width: Math.max(0.6, x(hi) - x(lo)), height: 5, class: 'rs-whisker' }),
    svg('rect', { x: x(at) - 0.8, y: 1.5, width: 1.6, height: 13, class: 'rs-point' }));
}

/** A histogram of game lengths (one series or two side by side on shared bins), with its
 *  numbers as text below. */
function histogram(series) {
  const all = series.flatMap((s) => s.values);
  if (!all.length) return h('p', { class: 'muted', text: '—' });
  const lo = Math.min(...all);
  const hi = Math.max(...all);
  const width = Math.max(1, Math.ceil((hi - lo + 1) / 30));
  const bins = Math.floor((hi - lo) / width) + 1;
  const counts = series.map((s) => {
    const c = new Array(bins).fill(0);
    for (const v of s.values) c[Math.floor((v - lo) / width)] += 1;
    return c;
  });
  const top = Math.max(1, ...counts.flat());
  const W = 100 * bins;
  const bars = [];
  counts.forEach((c, k) => {
    const w = 90 / series.length;
    c.forEach((n, i) => {
      if (!n) return;
      const height = (96 * n) / top;
      bars.push(svg('rect', { x: 100 * i + 5 + k * w, y: 100 - height, width: w, height, class: `rs-bar rs-bar-${k}` }));
    });
  });
  const plot = svg('svg', { class: 'rs-hist', viewBox: `0 0 ${W} 100`, preserveAspectRatio: 'none', 'aria-hidden': 'true', focusable: 'false' },
    svg('line', { x1: 0, y1: 100, x2: W, y2: 100, class: 'rs-axis' }), bars);
  const mid = lo + width * Math.floor(bins / 2);
  return h('figure', { class: 'rs-hist-box' },
    h('div', { class: 'rs-hist-top', text: dt('r_count', { n: top }) }),
    plot,
    h('div', { class: 'rs-hist-axis' }, h('span', { text: String(lo) }), bins > 2 ? h('span', { text: String(mid) }) : null, h('span', { text: String(lo + width * (bins - 1)) })),
    series.length > 1 ? h('div', { class: 'rs-legend' }, series.map((s, k) => h('span', { class: `rs-key rs-key-${k}`, text: s.label }))) : null,
    h('figcaption', { class: 'rs-note', text: dt('r_hist_note') }));
}

/* ================================================================== heat maps */

function mix(a, b, t) {
  return a.map((x, i) => Math.round(x + (b[i] - x) * t));
}

/** The colour of a win rate (red below ½, blue above) or of a difference (−½ … +½). */
function heat(rate) {
  const r = Math.min(1, Math.max(0, rate));
  const low = [176, 64, 58];
  const mid = [42, 52, 65];
  const high = [38, 100, 168];
  const c = r < 0.5 ? mix(low, mid, r / 0.5) : mix(mid, high, (r - 0.5) / 0.5);
  return `rgb(${c.join(',')})`;
}

/** Row entrant i's rate against column entrant j from the matchups (null where none). */
function cellOf(matchups, i, j, pick) {
  const m = matchups.find((x) => (x.a === i && x.b === j) || (x.a === j && x.b === i));
  if (!m) return null;
  return pick(m, m.a === i);
}

function matrix(data, names, pick, { diff = false, caption }) {
  const n = data.entrants.length;
  const head = h('tr', {}, h('th', { scope: 'col', class: 'rs-corner', text: '' }),
    Array.from({ length: n }, (_, j) => h('th', { scope: 'col', text: names.entrant(j) })));
  const rows = Array.from({ length: n }, (_, i) => h('tr', {},
    h('th', { scope: 'row', text: names.entrant(i) }),
    Array.from({ length: n }, (_, j) => {
      const cell = cellOf(data.halves[0].matchups, i, j, pick);
      if (!cell) return h('td', { class: 'rs-cell rs-empty', text: '—' });
      const td = h('td', { class: `rs-cell${cell.sig ? ' sig' : ''}`, 'data-row': String(i), 'data-col': String(j) },
        h('span', { class: 'rs-cell-main', text: (cell.sig ? '★' : '') + (diff ? points(cell.value) : pct(cell.value)) }),
        cell.ci ? h('span', { class: 'rs-cell-ci', text: diff ? `[${signed(100 * cell.ci[0], 1)}, ${signed(100 * cell.ci[1], 1)}]` : span(cell.ci) }) : null,
        cell.n != null ? h('span', { class: 'rs-cell-n', text: `n=${cell.n}` }) : null);
      td.style.backgroundColor = heat(diff ? 0.5 + cell.value : cell.value);
      return td;
    })));
  return h('figure', { class: 'rs-matrix-box' },
    h('figcaption', { class: 'rs-caption', text: caption }),
    h('div', { class: 'rs-scroll', tabindex: '0', role: 'region', 'aria-label': caption },
      h('table', { class: 'rs-matrix' }, h('thead', {}, head), h('tbody', {}, rows))));
}

const winRate = (half) => (m, asA) => {
  const r = half.matchups.find((x) => x.a === m.a && x.b === m.b).games;
  if (!r.n) return null;
  return asA ? { value: r.rate, ci: r.ci95, n: r.n } : { value: 1 - r.rate, ci: [1 - r.ci95[1], 1 - r.ci95[0]], n: r.n };
};

function diffPick(compare) {
  return (m, asA) => {
    const c = compare.matchups.find((x) => x.pair[0] === m.a && x.pair[1] === m.b);
    if (!c || !c.n) return null;
    const sign = asA ? 1 : -1;
    const ci = asA ? c.diff_ci95 : [-c.diff_ci95[1], -c.diff_ci95[0]];
    return { value: sign * c.diff, ci, n: c.n, sig: c.test.significant };
  };
}

/* ================================================================== tables */

function table(cls, heads, rows) {
  return h('div', { class: 'rs-scroll', tabindex: '0', role: 'region', 'aria-label': heads[0] || cls },
    h('table', { class: `rs-table ${cls}` },
      h('thead', {}, h('tr', {}, heads.map((x) => h('th', { scope: 'col', text: x })))),
      h('tbody', {}, rows)));
}

function rateCell(rate) {
  return h('td', { class: 'rs-rate' },
    h('span', { class: 'rs-rate-text', text: rateText(rate) }),
    rate && rate.n ? h('span', { class: 'rs-n', text: `n=${rate.n}` }) : null,
    rate && rate.n ? intervalPlot(rate.ci95[0], rate.ci95[1], rate.rate) : null);
}

function section(id, title, ...kids) {
  return h('section', { class: 'rs-section', id }, h('h3', { class: 'rs-h3', text: title }), kids);
}

function cardsTable(data, names) {
  const cards = data.halves[0].cards;
  const slugs = Object.keys(cards).sort((x, y) => cards[y].played.n - cards[x].played.n || cards[y].draw.n - cards[x].draw.n);
  if (!slugs.length) return h('p', { class: 'muted', text: dt('r_no_cards') });
  const rows = slugs.map((slug) => {
    const c = cards[slug];
    return h('tr', { 'data-card': slug },
      h('th', { scope: 'row', text: names.card(slug) }),
      h('td', { class: 'rs-num', text: String(c.played.n) }), rateCell(c.played),
      h('td', { class: 'rs-num', text: String(c.draw.n) }), rateCell(c.draw));
  });
  return [h('p', { class: 'rs-note', text: dt('r_cards_note') }),
    table('rs-cards', [dt('r_card'), dt('r_played_n'), dt('r_played_rate'), dt('r_drawn_n'), dt('r_drawn_rate')], rows)];
}

function replayLink(result) {
  if (!result || result.match_id == null) return null;
  return h('a', {
    class: 'rs-replay', href: `/#/matches/${result.match_id}`, target: '_blank', rel: 'noopener',
    'data-match': String(result.match_id), text: `${dt('r_replay')} #${result.match_id}`,
  });
}

function seatsOf(game) {
  return game.seat_a === 0 ? [game.a, game.b] : [game.b, game.a];
}

function winnerText(game, result, names) {
  if (!result) return '—';
  if (result.winner == null || result.winner < 0) return dt('r_no_winner');
  return names.entrant(seatsOf(game)[result.winner]);
}

function turnsText(result) {
  if (!result) return '—';
  return result.games.map((g) => (g.turns == null ? '—' : String(g.turns))).join(' / ');
}

function gamesList(data, names, shown) {
  const ab = data.kind === 'ab';
  const games = data.games.slice(0, shown.n);
  const rows = games.map((g) => {
    const [s0, s1] = seatsOf(g);
    const cells = [
      h('td', { class: 'rs-num', text: String(g.index + 1) }),
      h('td', { text: names.entrant(s0) }),
      h('td', { text: names.entrant(s1) }),
    ];
    if (!ab) {
      const r = g.results[0];
      cells.push(h('td', { text: winnerText(g, r, names) }), h('td', { class: 'rs-num', text: turnsText(r) }), h('td', {}, replayLink(r)));
    } else {
      for (const r of g.results) cells.push(h('td', {}, h('span', { class: 'rs-winner', text: `${winnerText(g, r, names)} (${turnsText(r)})` }), replayLink(r)));
      const [ra, rb] = g.results;
      const changed = ra && rb && ra.winner !== rb.winner;
      cells.push(h('td', { class: changed ? 'rs-changed' : 'muted', text: ra && rb ? dt(changed ? 'ab_changed' : 'ab_same') : '—' }));
    }
    return h('tr', { 'data-index': String(g.index) }, cells);
  });
  const heads = ab
    ? ['#', dt('r_seat0'), dt('r_seat1'), `A: ${data.halves[0].side.label}`, `B: ${data.halves[1].side.label}`, dt('ab_changed')]
    : ['#', dt('r_seat0'), dt('r_seat1'), dt('r_winner'), dt('r_turns_col'), dt('r_replay')];
  const out = [table('rs-games', heads, rows)];
  const left = data.games.length - games.length;
  if (left > 0) {
    out.push(h('button', {
      type: 'button', class: 'tool rs-more', text: dt('r_more_games', { n: left }),
      onclick: (ev) => {
        shown.n += PAGE;
        const box = ev.target.closest('.rs-section');
        put(box, h('h3', { class: 'rs-h3', text: dt('r_games') }), ab ? h('p', { class: 'rs-note', text: dt('ab_games_note') }) : null, gamesList(data, names, shown));
      },
    }));
  }
  return out;
}

function turnsOf(data, half) {
  return data.games.flatMap((g) => {
    const r = g.results[half];
    return r ? r.games.map((x) => x.turns).filter((x) => x != null) : [];
  });
}

function incomplete(data) {
  const st = data.status;
  if (!st || st.done >= st.total) return null;
  return h('p', { class: 'rs-incomplete', text: dt('r_incomplete', { done: st.done, total: st.total }) });
}

/* ================================================================== one card data */

function singlePage(data, names) {
  const half = data.halves[0];
  const sides = half.sides;
  const turns = half.turns;
  const summary = h('dl', { class: 'rs-summary' },
    h('div', {}, h('dt', { text: dt('r_summary') }), h('dd', { text: `${dt('r_games_n', { n: half.games })} · ${half.side.label} · ${names.levels.join(', ')}` })),
    h('div', {}, h('dt', { text: dt('r_first') }), h('dd', {}, h('span', { id: 'rs-first', text: rateText(half.first_player) }), half.first_player.n ? intervalPlot(half.first_player.ci95[0], half.first_player.ci95[1], half.first_player.rate) : null)),
    h('div', {}, h('dt', { text: dt('r_draws') }), h('dd', { text: sides.n ? `${pct(sides.draws.rate)} (${sides.draws.count})` : '—' })),
    h('div', {}, h('dt', { text: dt('r_turns') }), h('dd', { text: turns.n ? dt('r_turns_line', { mean: num(turns.mean), median: num(turns.median), p90: num(turns.p90) }) : '—' })));
  const entrants = half.entrants.map((rate, i) => h('tr', {}, h('th', { scope: 'row', text: names.entrant(i) }), rateCell(rate)));
  const shown = { n: PAGE };
  return [
    incomplete(data),
    summary,
    section('rs-matrix', dt('r_matrix'), matrix(data, names, winRate(half), { caption: dt('r_matrix_note') })),
    section('rs-entrants', dt('r_entrants'), table('rs-entrant-table', [dt('r_entrant'), dt('r_rate')], entrants)),
    section('rs-lengths', dt('r_turns'), histogram([{ label: half.side.label, values: turnsOf(data, 0) }])),
    section('rs-cards', dt('r_cards'), cardsTable(data, names)),
    section('rs-games', dt('r_games'), gamesList(data, names, shown)),
  ];
}

/* ================================================================== A/B */

function verdict(test) {
  return h('td', { class: `rs-verdict${test.significant ? ' sig' : ''}`, 'data-significant': test.significant ? '1' : '0', text: test.significant ? dt('ab_sig') : dt('ab_not') });
}

/** One figure of both card data: A, B, the difference with its interval, p, the verdict. */
function pairRow(heads, label, row, { rates = true, digits = 1 } = {}) {
  const a = rates ? rateCell(row.rate_a) : h('td', { class: 'rs-num', text: num(row.a, digits) });
  const b = rates ? rateCell(row.rate_b) : h('td', { class: 'rs-num', text: num(row.b, digits) });
  const lo = row.diff_ci95 ? row.diff_ci95[0] : null;
  const hi = row.diff_ci95 ? row.diff_ci95[1] : null;
  const diffText = rates ? points(row.diff) : signed(row.diff, digits);
  const ciText = lo == null ? '' : rates ? `[${signed(100 * lo, 1)}, ${signed(100 * hi, 1)}]` : `[${signed(lo, digits)}, ${signed(hi, digits)}]`;
  const range = rates ? 0.5 : Math.max(1, Math.abs(lo || 0), Math.abs(hi || 0), Math.abs(row.diff));
  const plot = lo == null ? null : intervalPlot(lo, hi, row.diff, { min: -range, max: range, centre: 0, sig: row.test.significant });
  const diff = h('td', { class: 'rs-diff' }, h('span', { class: 'rs-rate-text', text: `${diffText} ${ciText}` }), plot);
  const p = h('td', { class: 'rs-num rs-p', text: pValue(row.test.p) });
  // A phone shows each row as a block: every cell says what it is (design.css).
  const judged = verdict(row.test);
  [a, b, diff, p, judged].forEach((cell, i) => { cell.dataset.label = heads[i + 1]; });
  return h('tr', { class: row.test.significant ? 'sig' : '', 'data-significant': row.test.significant ? '1' : '0' },
    h('th', { scope: 'row', text: label }), a, b, diff, p, judged);
}

function abHeads(data) {
  return [dt('ab_row'), `A: ${data.halves[0].side.label}`, `B: ${data.halves[1].side.label}`, dt('ab_diff'), dt('ab_p'), dt('ab_verdict')];
}

function significantList(data, names) {
  const c = data.compare;
  const found = [];
  const line = (label, row, rates = true) => `${label}: ${rates ? `${pct(row.rate_a.rate)} → ${pct(row.rate_b.rate)}` : `${num(row.a)} → ${num(row.b)}`} (${rates ? points(row.diff) : signed(row.diff, 1)}, p ${pValue(row.test.p)})`;
  for (const m of c.matchups) if (m.test.significant) found.push(line(`${names.entrant(m.pair[0])} vs ${names.entrant(m.pair[1])}`, m));
  for (const e of c.entrants) if (e.test.significant) found.push(line(names.entrant(e.entrant), e));
  if (c.first_player.test.significant) found.push(line(dt('r_first'), c.first_player));
  if (c.draws.test.significant) found.push(line(dt('r_draws'), c.draws));
  if (c.turns.test.significant) found.push(line(dt('r_turns'), c.turns, false));
  for (const [slug, row] of Object.entries(c.played || {})) if (row.test.significant) found.push(line(names.card(slug), { ...row, diff_ci95: null }));
  return h('div', { class: `rs-verdicts${found.length ? ' sig' : ''}`, id: 'ab-significant' },
    h('h3', { class: 'rs-h3', text: dt('ab_sig_list') }),
    found.length ? h('ul', {}, found.map((x) => h('li', { text: `★ ${x}` }))) : h('p', { text: dt('ab_sig_none') }));
}

function abCards(data, names) {
  const played = data.compare.played || {};
  const slugs = Object.keys(played).sort((x, y) => (played[y].test.significant - played[x].test.significant) || Math.abs(played[y].diff) - Math.abs(played[x].diff));
  if (!slugs.length) return h('p', { class: 'muted', text: dt('r_no_cards') });
  const rows = slugs.map((slug) => {
    const row = played[slug];
    const tr = pairRow(abHeads(data), names.card(slug), { ...row, diff_ci95: null });
    tr.dataset.card = slug;
    return tr;
  });
  return [h('p', { class: 'rs-note', text: `${dt('r_cards_note')} (${dt('ab_unpaired')})` }),
    table('rs-cards rs-ab', [dt('r_card'), ...abHeads(data).slice(1)], rows)];
}

function abPage(data, names) {
  const c = data.compare;
  const [ha, hb] = data.halves;
  const heads = abHeads(data);
  const figures = [
    pairRow(heads, dt('r_first'), c.first_player),
    pairRow(heads, dt('r_draws'), c.draws),
    pairRow(heads, dt('r_turns'), c.turns, { rates: false }),
    ...c.entrants.map((e) => pairRow(heads, names.entrant(e.entrant), e)),
  ];
  const matchups = c.matchups.map((m) => pairRow(heads, `${names.entrant(m.pair[0])} vs ${names.entrant(m.pair[1])}`, m));
  const t = c.turns;
  const shown = { n: PAGE };
  return [
    incomplete(data),
    h('p', { class: 'rs-ab-head', id: 'ab-head', text: `A = ${ha.side.label}  ·  B = ${hb.side.label}  ·  ${names.levels.join(', ')}` }),
    h('p', { class: 'rs-note', text: `${dt('ab_pairs', { n: c.paired_games })} ${dt('ab_sig_rule', { alpha: c.alpha })}` }),
    significantList(data, names),
    section('ab-figures', dt('r_summary'), table('rs-ab rs-figures', abHeads(data), figures)),
    section('ab-matrix', dt('r_matrix'),
      h('div', { class: 'rs-matrices' },
        matrix(data, names, winRate(ha), { caption: `A: ${ha.side.label}` }),
        matrix(data, names, winRate(hb), { caption: `B: ${hb.side.label}` }),
        matrix(data, names, diffPick(c), { diff: true, caption: dt('ab_matrix_diff') })),
      h('p', { class: 'rs-note', text: dt('r_matrix_note') })),
    section('ab-matchups', dt('ab_matchups'), table('rs-ab rs-matchups', abHeads(data), matchups)),
    section('ab-lengths', dt('r_turns'),
      h('p', { class: 'rs-note', text: `${dt('ab_turns_line', { a: num(t.a, 2), b: num(t.b, 2), diff: signed(t.diff, 2), lo: signed(t.diff_ci95[0], 2), hi: signed(t.diff_ci95[1], 2), p: pValue(t.test.p) })} · ${dt('ab_median', { a: num(t.median_a), b: num(t.median_b) })}` }),
      histogram([{ label: `A: ${ha.side.label}`, values: turnsOf(data, 0) }, { label: `B: ${hb.side.label}`, values: turnsOf(data, 1) }])),
    section('ab-cards', dt('r_cards'), abCards(data, names)),
    section('rs-games', dt('r_games'), h('p', { class: 'rs-note', text: dt('ab_games_note') }), gamesList(data, names, shown)),
  ];
}

/** Draw a run's results (the server's figures, `GET /api/balance/runs/{id}/results`) in `box`. */
export function renderResults(box, data) {
  const names = namesOf(data);
  box.dataset.kind = data.kind;
  box.dataset.lang = S.settings.lang;
  put(box, data.kind === 'ab' ? abPage(data, names) : singlePage(data, names));
}
