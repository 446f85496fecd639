// An exported replay (`kessen store html`, src/kessen/store/html_replay.py): the app itself,
// in one HTML file that carries a recorded match, opened from disk with no server and no
// network.
//
// The file holds, in <script type="application/json" id="kessen-export">, the answers of the
// routes the replay viewer reads, as the server made them (/api/matches/{id}, its whole
// /replay for each seat and language the record allows, /api/meta, the catalogues, glossaries,
// rules and credits), each gzip-compressed and base64-encoded. This module answers the page's
// fetches from them: a step (/step/{n}) from its seat's whole replay, as the server's /step
// answers it; anything else is refused here, without touching the network. Without that
// element (the app served by the server) it does nothing.
//
// It imports nothing, so shell/main.js, which imports it first, has it in place before any
// other module runs.

const ELEMENT = document.getElementById('kessen-export');
const DATA = ELEMENT ? JSON.parse(ELEMENT.textContent) : null;
const decoded = new Map();

/** The exported match (`{id, lang}`: its id and the language it opens in), or null when the
 *  page is served by the app's server. */
export function exportedMatch() {
  return DATA ? { id: DATA.match, lang: DATA.lang } : null;
}

/** The key of an embedded answer: the path, and the `seat` and `lang` of the query (the only
 *  parameters that change an answer the file carries). */
function keyOf(path, params) {
  const q = new URLSearchParams();
  for (const name of ['seat', 'lang']) if (params.has(name)) q.set(name, params.get(name));
  const query = q.toString();
  return query ? `${path}?${query}` : path;
}

/** The embedded answer under `key`, decoded once (a promise of its JSON), or null. */
function answer(key) {
  if (!Object.prototype.hasOwnProperty.call(DATA.answers, key)) return null;
  if (!decoded.has(key)) {
    const text = atob(DATA.answers[key]);
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i += 1) bytes[i] = text.charCodeAt(i);
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
    decoded.set(key, new Response(stream).text().then((json) => JSON.parse(json)));
  }
  return decoded.get(key);
}

/** Step `n` of match `id` as `seat` saw it, from that seat's whole replay: the server's
 *  /step answer without `base`/`log_from` (the whole log, from entry 0). */
async function stepAnswer(id, n, seat, lang) {
  const whole = answer(`/api/matches/${id}/replay?seat=${seat}&lang=${lang}`);
  if (!whole) return null;
  const R = await whole;
  if (!(n >= 0 && n <= R.steps)) return null;
  const length = R.log_lengths[n];
  const log = length >= 0 ? R.log.slice(0, length) : R.log_overrides[String(n)];
  return {
    match: id,
    ...R.frames[n],
    steps: R.steps,
    seat,
    lang,
    log_start: 0,
    log_total: log.length,
    view: { ...R.views[n], log },
  };
}

function reply(status, body) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** What the page is told of a request the file cannot answer, in the page's language. */
function refusal(lang) {
  return lang === 'en'
    ? 'This exported replay does not hold that (it opens without a server).'
    : 'この書き出したリプレイには含まれていません（サーバーなしで開いています）。';
}

async function exportedFetch(input, init = {}) {
  const url = new URL(typeof input === 'string' ? input : input.url, 'http://exported.invalid/');
  const method = String(init.method || (typeof input === 'string' ? 'GET' : input.method) || 'GET').toUpperCase();
  const lang = url.searchParams.get('lang') || document.documentElement.lang;
  let body = null;
  if (method === 'GET') {
    const step = /^\/api\/matches\/(\d+)\/step\/(\d+)$/.exec(url.pathname);
    if (step) {
      const seat = url.searchParams.get('seat') || '0';
      body = await stepAnswer(Number(step[1]), Number(step[2]), seat, url.searchParams.get('lang') || 'ja');
    } else {
      const found = answer(keyOf(url.pathname, url.searchParams));
      body = found ? await found : null;
    }
  }
  return body === null ? reply(404, { detail: refusal(lang) }) : reply(200, body);
}

if (DATA) window.fetch = exportedFetch;
