// The operation panel's sheet: the panel never scrolls inside itself. When the current
// decision's choices do not all fit it (a phone's bar fixed to the bottom of the screen, a
// tablet's band, a desktop's column), a handle under them says how many more there are and
// opens the panel as a sheet that slides up over the board with every choice. A new decision,
// a tap on the dimmed board, the handle again or Escape close it. On the phone the module also
// keeps --ops-h at the bar's height (the board ends where the bar begins) and folds the top
// bar's less used tools into a menu. shell/shell.css draws all of it; this module only measures
// and toggles.
import { $, $$ } from './dom.js';
import { t } from './i18n.js';

const PHONE = window.matchMedia('(max-width: 599px)');
// Every button of the panel: a choice, a confirmation, a group's 「すべて表示」 toggle.
const CHOICES = '#ops-body button';
const DECISION = ':has(button.act, .confirm)'; // the same test as shell.css's clipping rule

let openedAt = null; // the prompt the sheet was opened on
let pending = 0;

/** Whether the sheet is open. */
export function sheetOpen() {
  return document.body.dataset.sheet === 'open';
}

/** Open (true) or close (false) the sheet of choices. */
export function setSheet(open) {
  const body = document.body;
  if (open) {
    body.dataset.sheet = 'open';
    openedAt = body.dataset.promptId || null;
  } else {
    delete body.dataset.sheet;
    openedAt = null;
    $('#ops-body').scrollTop = 0;
  }
  $('#sheet-scrim').hidden = !sheetOpen();
  $('#ops-more').setAttribute('aria-expanded', String(sheetOpen()));
  measureSoon();
}

/** The choices of the bar that are not wholly in view. */
function cutChoices() {
  const limit = $('#ops-body').getBoundingClientRect().bottom + 1;
  return $$(CHOICES).filter((b) => b.offsetParent !== null && b.getBoundingClientRect().bottom > limit);
}

function measure() {
  pending = 0;
  fold();
  if (sheetOpen()) return; // the sheet lies over the board: the board keeps its height
  const root = document.documentElement;
  if (PHONE.matches) root.style.setProperty('--ops-h', `${$('#ops').offsetHeight}px`);
  else root.style.removeProperty('--ops-h');
}

/** Hide the choices cut by the panel's fold and say how many under the handle. */
function fold() {
  const more = $('#ops-more');
  const hideCut = (cut) => { for (const b of $$(CHOICES)) b.classList.toggle('beyond', cut.includes(b)); };
  if (sheetOpen()) {
    more.hidden = false;
    more.textContent = t('sheet_close');
    hideCut([]);
    return;
  }
  // Only a decision is folded (shell.css clips the panel then); a replay's controls or a
  // waiting note scroll as they are.
  if (!$('#ops-body').matches(DECISION)) {
    more.hidden = true;
    hideCut([]);
    return;
  }
  // Two passes: the handle, once shown, takes room from the choices above it. A choice cut
  // by the fold is hidden whole (half a button is no button); the sheet shows it. Classes
  // change only when they must, so the observer below does not measure for ever.
  more.hidden = true;
  let cut = cutChoices();
  if (cut.length) {
    more.hidden = false;
    cut = cutChoices();
    more.textContent = t('more_choices', { n: cut.filter((b) => b.classList.contains('act')).length || cut.length });
  }
  hideCut(cut);
  // An armed choice (a board place tapped on a touch screen) is never left under the fold.
  const armed = $('#ops-body button.tap-armed');
  if (armed && cut.includes(armed)) setSheet(true);
}

/** Measure again after the browser has laid out the latest change. */
export function measureSoon() {
  if (!pending) pending = requestAnimationFrame(measure);
}

function setMenu(open) {
  document.body.classList.toggle('menu-open', open);
  $('#btn-menu').setAttribute('aria-expanded', String(open));
}

export function bindSheet() {
  $('#ops-more').addEventListener('click', () => setSheet(!sheetOpen()));
  $('#sheet-scrim').addEventListener('click', () => setSheet(false));
  document.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape' && sheetOpen()) setSheet(false);
    if (ev.key === 'Escape' && document.body.classList.contains('menu-open')) setMenu(false);
  });
  new MutationObserver(measureSoon).observe($('#ops-body'), { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ['class', 'hidden'] });
  // A new decision closes the sheet (its choices are the last decision's no more); another
  // screen closes the menu too.
  let screen = document.body.dataset.screen;
  new MutationObserver(() => {
    if (sheetOpen() && document.body.dataset.promptId !== openedAt) setSheet(false);
    if (document.body.dataset.screen !== screen) {
      screen = document.body.dataset.screen;
      setMenu(false);
    }
  }).observe(document.body, { attributes: true, attributeFilter: ['data-prompt-id', 'data-screen'] });
  // The panel, and the part that folds: the band of choices changes height without a change
  // inside it when the prompt above it rewraps, and its buttons change width when a font arrives.
  const resized = new ResizeObserver(measureSoon);
  resized.observe($('#ops'));
  resized.observe($('#ops-body'));
  document.fonts?.addEventListener('loadingdone', measureSoon);
  PHONE.addEventListener('change', () => { setMenu(false); setSheet(false); });
  window.addEventListener('resize', measureSoon);

  $('#btn-menu').addEventListener('click', () => setMenu(!document.body.classList.contains('menu-open')));
  // A tool used from the menu closes it; not the settings (they open their own menu) nor a
  // tool its press has just armed (新しい対戦 during a match, 投了): it asks to be pressed
  // again, so it stays in sight. (The tool's own handler has run: it is armed now or not.)
  $('#topbar-tools').addEventListener('click', (ev) => {
    const tool = ev.target.closest('button');
    if (!tool || tool.id === 'btn-settings' || tool.closest('#settings-menu')) return;
    if (!tool.classList.contains('armed')) setMenu(false);
  });
  measureSoon();
}
