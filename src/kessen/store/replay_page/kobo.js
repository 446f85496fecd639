// Kōbō (攻防): strategy and battle rows, hands, the attack and the 攻防連鎖.
addTexts({
  ja: {hand:"手札", thand:"戦術手札", battle:"バトル", strategy:"作戦", main:"山札",
       tdeck:"戦術デッキ", retreat:"撤退", excluded:"除外", passes:"パス", game:"ゲーム",
       wins:"勝利", chain:"チェーン", attack:"攻撃", reveal:"公開"},
  en: {hand:"hand", thand:"tactics hand", battle:"Battle", strategy:"Strategy", main:"deck",
       tdeck:"tactics deck", retreat:"retreat", excluded:"excluded", passes:"passes",
       game:"Game", wins:"wins", chain:"chain", attack:"attack", reveal:"revealed"}
});
function slot(c, kind) {
  if (!c) return `<div class="slot"></div>`;
  if (kind === "battle") {
    const cls = ["slot", "card", c.attacking ? "attacking" : "", c.target ? "target" : ""];
    const mod = c.lv !== c.printed ? ` <small>(${esc(c.printed)})</small>` : "";
    return `<div class="${cls.join(" ")}"${cardTitle(c)}>` +
      `<span class="lv">${esc(c.lv)}</span>${esc(c.name)}${mod}</div>`;
  }
  const down = c.face === "down";
  const name = c.name ? esc(c.name) : `<i>${t("down")}</i>`;
  const note = down && c.name ? ` <small>(${t("down")})</small>` : "";
  return `<div class="slot card ${down ? "down" : ""}"${cardTitle(c)}>${name}${note}</div>`;
}
function hidden(h) {
  if (!h) return "";
  return h.cards ? `<span class="chips">${h.cards.map(chip).join("")}</span>`
    : `<b>${esc(h.count)}</b>`;
}
function chips(cards) {
  return `<div class="chips">${cards.map(c => c.name ? chip(c) : `<span>${t("down")}</span>`)
    .join("")}</div>`;
}
function side(p, v) {
  const turn = v.turn_player === p.seat && !v.match.over ? " turn" : "";
  const deck = p.deck ? (p.deck.name || p.deck.slug || "") : "";
  const rows = [
    `<div class="meta"><b>${seatName(p.seat)}</b><span>${esc(deck)}</span>` +
      `<span>${t("main")}: ${p.main_deck}</span>` +
      `<span>${t("tdeck")}: ${p.tactics_deck}</span>` +
      `<span>${t("passes")}: ${p.passes}</span>` +
      `<span>${t("wins")}: ${v.match.wins[p.seat]}</span></div>`,
    row("strategy", p.strategy.map(c => slot(c, "strategy")).join("")),
    row("battle", p.battle.map(c => slot(c, "battle")).join("")),
    row("hand", `<div>${hidden(p.hand)}</div>`),
    row("thand", `<div>${hidden(p.tactics_hand)}</div>`),
  ];
  if (p.reveal && p.reveal.length) rows.push(row("reveal", chips(p.reveal)));
  if (p.retreat.length) rows.push(row("retreat", chips(p.retreat)));
  if (p.excluded.length) rows.push(row("excluded", chips(p.excluded)));
  return `<div class="side s${p.seat}${turn}">${rows.join("")}</div>`;
}
function center(v) {
  const parts = [];
  const a = v.attack;
  if (a) {
    parts.push(`<div>${t("attack")}: ${seatName(a.seat)} [${esc(a.attackers.join(", "))}] → ` +
      `${esc(a.target ?? "—")}${a.negated ? " ✕" : ""}</div>`);
  }
  if (v.chain && v.chain.length) {
    const links = v.chain.map(l =>
      `${l.link}. ${seatName(l.seat)} ${chip(l)}${l.negated ? " ✕" : ""}`);
    parts.push(`<div>${t("chain")}: ${links.join(" · ")}</div>`);
  }
  const p = v.pending;
  if (p) {
    const codes = p.legal ? p.legal.map(x => `<code>${esc(x)}</code>`).join("") : "";
    const legal = p.legal ? `<div class="legal">${t("legal")}: ${codes}</div>` : "";
    parts.push(`<div>${t("waits")}: <b>${seatName(p.seat)}</b> — ${esc(p.prompt)}</div>` + legal);
  }
  const m = v.match;
  if (m && m.over) {
    const who = m.winner === null ? t("none") : t("winner") + ": " + seatName(m.winner);
    parts.push(`<div><b>${who}</b></div>`);
  }
  return parts.length ? `<div class="center">${parts.join("")}</div>` : "";
}
BOARDS.kobo = function (v) {
  const bottom = viewer === "1" ? 1 : 0;
  const m = v.match || {};
  const head = `<div class="meta">` +
    `<span>${t("game")} ${m.game ?? "?"} / ${m.best_of ?? "?"}</span>` +
    `<span>${t("turn")} ${v.turn}${v.turn_limit ? " / " + v.turn_limit : ""}</span>` +
    `<span>${t("turn")}: ${seatName(v.turn_player)}</span></div>`;
  return head + side(v.players[1 - bottom], v) + center(v) + side(v.players[bottom], v);
};
