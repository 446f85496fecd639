// Seats and names: whose view this is, how a seat is named (あなた/相手, P1/P2, COM), and
// whether the viewer may act now.

import { $ } from './dom.js';
import { hasText, t } from './i18n.js';
import { S } from './state.js';

export function me() {
  const v = S.view;
  if (!v) return 0;
  return v.session.you ?? (v.viewer ?? 0);
}

export function isSpectator() {
  return !S.view || S.view.session.you == null;
}

/** True once the match (Kōbō) or the game (TWGP) of a view is over. */
export function isOver(v) {
  if (!v) return true;
  if (v.session && v.session.ended) return true; // resigned or lost on time too
  return v.match ? !!v.match.over : !!v.outcome;
}

export function seatName(seat) {
  if (seat == null || seat < 0) return '?';
  if (isSpectator()) return `P${seat + 1}`;
  return seat === me() ? t('you') : t('opp');
}

/** A seat as the owner of something, for any ruleset: 「あなたの」「相手の」「P1の」, "Your",
 * "Opponent's", "P1's" (`lower` for the middle of an English sentence). Texts put it where a
 * possessive goes (`{whose} turn`): appending "'s" to a seat name would make "You's". */
export function whoseOf(seat, lower = false) {
  const name = seatName(seat);
  if (S.settings.lang === 'ja') return `${name}の`;
  if (!isSpectator() && seat === me()) return lower ? 'your' : 'Your';
  return `${name}'s`;
}

export function seatLabel(seat) {
  const v = S.view;
  const com = v && v.session.com && v.session.com[String(seat)];
  // A replay names seats P1/P2 (the viewed seat may be COM's): the log says whose view it is.
  if (S.replay) {
    const name = !isSpectator() && seat === me() ? t('seat_viewing', { n: seat + 1 }) : `P${seat + 1}`;
    return `${name}${com ? ' · COM' : ''}`;
  }
  if (isSpectator()) return `P${seat + 1}${com ? ' · COM' : ''}`;
  return seat === me() ? t('you') : t('opp') + (com ? t('com_suffix') : '');
}

export function isMyPrompt(v) {
  return !!(v && v.pending && v.pending.legal && !isSpectator() && v.pending.seat === v.session.you && v.history.live);
}

export function online() {
  return !!(S.ws && S.ws.readyState === WebSocket.OPEN);
}

export function levelName(level, short = false) {
  const name = level && hasText(`com_${level}`) ? t(`com_${level}`) : (level || '?');
  return short ? name.replace(/\s*[（(].*[)）]$/, '') : name;
}

