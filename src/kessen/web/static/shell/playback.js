// Stepped playback of a resolution, for any game: the pace setting (settings menu), the clock
// that moves from frame to frame, the log held at the frame on screen, the skip, and the result
// banner that stays after the playback until it is dismissed or the player's next decision.
//
// A game builds the frames of a resolution from its view's record (each frame: `logUntil`, the
// number of log entries it reveals; optionally `banner` = {title, sub, tone, outcome}; anything
// else the game draws) and calls `startPlayback`; while `currentFrame()` is not null its render
// draws that frame instead of the view's board. The shell redraws at every step.

import { $, h, put } from './dom.js';
import { t } from './i18n.js';
import { holdLog } from './log.js';
import { isSpectator, me } from './seats.js';
import { S, saveSettings, scheduleRender } from './state.js';

/** Milliseconds per playback step for each pace of the settings menu. */
export const PACES = { off: 0, fast: 450, normal: 900, slow: 1500 };

/** The played record per session, the running playback (or null), the banner kept after it. */
export const PB = { played: new Map(), run: null, banner: null };

/** Milliseconds per step at the chosen pace (0: no stepping, results at once). */
export function paceMs() {
  const p = S.settings.resolvePace || 'normal';
  return PACES[p] ?? PACES.normal;
}

/** Whether the record `key` of session `sid` was seen before (played or skipped). */
export function playedBefore(sid, key) {
  return PB.played.get(sid) === key;
}

/** Note the record `key` of session `sid` as seen, without playing it. */
export function markPlayed(sid, key) {
  PB.played.set(sid, key);
}

/** Play `frames` of the record `key` of session `sid` (once per record). With the pace set to
 *  off, nothing steps but the last frame's banner is shown; with the screen's motion off, the
 *  last frame alone is held. `gameEnd` holds the last frame longer. Returns whether a
 *  playback started. */
export function startPlayback({ sid, key, frames: all, gameEnd = false }) {
  const still = document.body.classList.contains('motion-off');
  const frames = still ? all.slice(-1) : all;
  if (playedBefore(sid, key) || !frames.length) return false;
  markPlayed(sid, key);
  finishPlayback();
  const last = frames[frames.length - 1];
  if (paceMs() <= 0) {
    keepBanner(last.banner, sid);
    scheduleRender();
    return false;
  }
  PB.run = { sid, key, frames, index: 0, timer: null, onEnd: [], gameEnd };
  S.opsSig = '';
  tick();
  return true;
}

/** The running playback of record `key` gets the frames of its record as it grew (a step
 *  the other seat chose a moment later); frames already shown stay as they were. Returns
 *  whether it was running (else the caller updates what it keeps). */
export function extendPlayback(key, frames) {
  const run = PB.run;
  if (!run || run.key !== key) return false;
  if (document.body.classList.contains('motion-off')) {
    run.frames = frames.slice(-1);
    run.index = 0;
  } else if (run.index < run.frames.length - 1 && frames.length >= run.frames.length) {
    run.frames = frames;
  } else {
    Object.assign(run.frames[run.frames.length - 1], { banner: frames[frames.length - 1].banner });
  }
  return true;
}

/** Whether a playback runs. */
export function playing() {
  return !!PB.run;
}

/** The frame on screen, or null. */
export function currentFrame() {
  return PB.run ? PB.run.frames[PB.run.index] : null;
}

/** The frame's place: {index, count}, or null. */
export function frameIndex() {
  return PB.run ? { index: PB.run.index, count: PB.run.frames.length } : null;
}

/** How many of the view's log entries the frame on screen reveals (null: all). */
export function logShown() {
  const f = currentFrame();
  return f && f.logUntil != null ? f.logUntil : null;
}

/** Draw the frame on screen, then hold it for the pace's time counted from when it was drawn
 *  (a slow render must not shorten the next step's time on screen). */
function tick() {
  const run = PB.run;
  if (!run) return;
  const last = run.index >= run.frames.length - 1;
  const wait = paceMs() * (last ? (run.gameEnd ? 2 : 1.4) : 1);
  scheduleRender();
  // Registered after the render's frame callback, so this runs once the frame is drawn.
  requestAnimationFrame(() => {
    if (PB.run !== run) return;
    run.timer = setTimeout(() => {
      if (PB.run !== run) return;
      if (!last) {
        run.index += 1;
        tick();
        return;
      }
      for (const fn of run.onEnd.splice(0)) fn();
      holdWhileOverlay(run);
    }, wait);
  });
}

/** After a game's end, the final frame stays under the dialog until it is closed. */
function holdWhileOverlay(run) {
  if (PB.run !== run) return;
  if (S.overlay && run.gameEnd) {
    run.timer = setTimeout(() => holdWhileOverlay(run), 250);
    return;
  }
  finishPlayback();
}

/** End the playback now (skip): the view's own board is drawn again, the banner stays. */
export function finishPlayback() {
  const run = PB.run;
  if (!run) return;
  clearTimeout(run.timer);
  PB.run = null;
  holdLog(null);
  keepBanner(run.frames[run.frames.length - 1].banner, run.sid);
  for (const fn of run.onEnd.splice(0)) fn();
  S.opsSig = '';
  scheduleRender();
}

/** Run `fn` after the playback (at once when none runs). */
export function afterPlayback(fn) {
  if (PB.run) PB.run.onEnd.push(fn);
  else fn();
}

/** Forget the playback and the banner (a new game, a replay, leaving). */
export function resetPlayback() {
  if (PB.run) clearTimeout(PB.run.timer);
  PB.run = null;
  PB.banner = null;
  holdLog(null);
}

/* ---------------------------------------------------------------- result banner */

/** Keep `banner` on screen after the playback, until dismissed or until the viewer's next
 *  decision is answered (the viewer's own prompt: another seat's moves do not take it away;
 *  a spectator keeps it until the next prompt after the one pending now is answered). */
function keepBanner(banner, sid) {
  if (!banner) return;
  PB.banner = { ...banner, sid, prompt: null };
  notePrompt(S.view);
}

/** The prompt the kept banner waits for: the first decision of the viewer's from now on. */
function notePrompt(v) {
  const kept = PB.banner;
  if (!kept || !v || !v.pending || kept.prompt != null) return;
  const mine = isSpectator() || v.pending.seat === me();
  if (mine) kept.prompt = v.pending.prompt_id;
}

/** Dismiss the kept banner. */
export function dismissBanner() {
  PB.banner = null;
  renderBanner(S.view);
}

/** Draw `#result-banner`: the frame's banner during a playback, the kept one after it (while
 *  the same decision is pending), nothing otherwise. Called by the shell at every render. */
export function renderBanner(v) {
  const box = $('#result-banner');
  if (!box) return;
  const f = currentFrame();
  let b = f ? f.banner : null;
  if (!f && PB.banner) {
    const kept = PB.banner;
    notePrompt(v);
    const pid = v && v.pending ? v.pending.prompt_id : null;
    const stale = !v || S.replay || v.session.id !== kept.sid || (kept.prompt != null && pid !== kept.prompt);
    if (stale) PB.banner = null;
    else b = kept;
  }
  const sig = JSON.stringify([b, S.settings.lang]);
  if (box.dataset.sig === sig) return;
  box.dataset.sig = sig;
  box.hidden = !b;
  box.className = `result-banner${b ? ` tone-${b.tone || 'info'}` : ''}`;
  if (!b) {
    put(box);
    delete box.dataset.outcome;
    return;
  }
  box.dataset.outcome = JSON.stringify(b.outcome ?? null);
  // Over the top of the board, under the top bar however many rows it has at this width.
  const table = $('#table');
  box.style.top = `${Math.round((table ? table.getBoundingClientRect().top : 48) + 8)}px`;
  put(box,
    h('div', { class: 'rb-text' },
      h('strong', { class: 'rb-title', text: b.title }),
      b.sub ? h('span', { class: 'rb-sub', text: b.sub }) : null),
    f ? null : h('button', {
      type: 'button', class: 'rb-close', 'aria-label': t('banner_close'), title: t('banner_close'), text: '×',
      onclick: dismissBanner,
    }));
}

/* ---------------------------------------------------------------- settings menu */

/** Add the pace choice to the settings menu (once, at boot); its labels follow the language. */
export function initPaceSetting() {
  const menu = $('#settings-menu');
  if (!menu || $('#resolve-pace', menu)) return;
  const group = h('div', { class: 'menu-group', id: 'resolve-pace' },
    h('div', { class: 'menu-title', id: 'resolve-pace-title' }),
    Object.keys(PACES).map((p) => h('label', null,
      h('input', {
        type: 'radio', name: 'resolve-pace', value: p,
        onchange: () => { S.settings.resolvePace = p; saveSettings(); labelPaceSetting(); },
      }),
      h('span', { dataset: { pace: p } }))));
  menu.append(group);
  labelPaceSetting();
}

/** The pace menu's labels in the current language, its choice checked. */
export function labelPaceSetting() {
  const title = $('#resolve-pace-title');
  if (!title) return;
  title.textContent = t('rpace_title');
  for (const span of document.querySelectorAll('#resolve-pace [data-pace]')) span.textContent = t(`rpace_${span.dataset.pace}`);
  const now = S.settings.resolvePace || 'normal';
  for (const r of document.querySelectorAll('#resolve-pace input')) r.checked = r.value === now;
}
