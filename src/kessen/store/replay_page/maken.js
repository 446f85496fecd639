// Project Maken (プロジェクト魔剣): attack fields as stacks (top card last), counts, situation,
// support field in opening order, helper field, the bet waiting for payment and the judge.
addTexts({
  ja: {hand:"手札", field:"攻撃場", support:"補助場", helper:"ヘルパー", dust:"ダスト",
       lp:"LP", stamina:"スタミナ", gauge:"ゲージ", damage:"ダメージ", total:"攻撃値合計",
       tp:"TP", defenceless:"無防備", even:"拮抗", guarding:"ガードしている",
       guarded:"ガードさせている", no_situation:"—", bet:"ベット", judge:"ジャッジ",
       prompt:"局面", copy:"伏せ（写し）", hit:"ヒット"},
  en: {hand:"hand", field:"attack field", support:"support", helper:"helper", dust:"dust",
       lp:"LP", stamina:"stamina", gauge:"gauge", damage:"damage", total:"attack total",
       tp:"TP", defenceless:"defenceless", even:"even", guarding:"guarding",
       guarded:"being guarded", no_situation:"—", bet:"bet", judge:"judge",
       prompt:"prompt", copy:"face-down copy", hit:"hit"}
});
function mkTitle(c) {
  return c && c.name ? ` title="${esc(c.name + (c.text ? "\n" + c.text : ""))}"` : "";
}
function mkChips(cards) {
  return `<div class="chips">${cards.map(c => c.name
    ? `<span${mkTitle(c)}>${esc(c.name)}</span>` : `<span>${t("down")}</span>`).join("")}</div>`;
}
function mkFieldCard(c, top) {
  const cls = ["slot", "card", c.face === "down" ? "down" : "", top ? "attacking" : ""];
  if (c.face === "down") {
    const of = c.copy_of ? esc(c.copy_of) : "";
    return `<div class="${cls.join(" ")}"><i>${t("copy")}</i> ${of}` +
      `<span class="lv">${esc(c.atk ?? "")}</span></div>`;
  }
  const d = c.data || {};
  const hit = c.hit ? ` <small>(${t("hit")})</small>` : "";
  return `<div class="${cls.join(" ")}"${mkTitle(c)}><span class="lv">${esc(d.atk ?? "")}</span>` +
    `${esc(c.name)}${hit}<br><small>S${esc(d.spd ?? "")} · ${esc(c.distance ?? "")}</small></div>`;
}
function mkSituation(v, seat) {
  const s = v.situation || {};
  if (s.kind === "even") return t("even");
  if (s.kind === "guard") return s.guarding === seat ? t("guarding") : t("guarded");
  return t("no_situation");
}
function mkSide(p, v) {
  const turn = p.tp && !v.outcome ? " turn" : "";
  const state = mkSituation(v, p.seat) + (p.defenceless ? " · " + t("defenceless") : "");
  const field = p.field.length
    ? p.field.map((c, i) => mkFieldCard(c, i === p.field.length - 1)).join("")
    : `<div class="slot"></div>`;
  const support = p.support.length
    ? p.support.map(c => c.face === "down" && !c.name ? `<div class="slot card down"><i>${t("down")}</i></div>`
      : `<div class="slot card ${c.face === "down" ? "down" : ""}"${mkTitle(c)}>${esc(c.name)}` +
        `${c.order ? ` <small>#${esc(c.order)}</small>` : ""}</div>`).join("")
    : `<div class="slot"></div>`;
  const hand = p.hand.cards ? mkChips(p.hand.cards) : `<b>${esc(p.hand.count)}</b>`;
  const rows = [
    `<div class="meta"><b>${seatName(p.seat)} ${esc(p.character.name)}</b>` +
      (p.tp ? `<span>${t("tp")}</span>` : "") +
      `<span>${t("lp")}: ${esc(p.lp)}</span><span>${t("stamina")}: ${esc(p.stamina)}</span>` +
      `<span>${t("gauge")}: ${esc(p.gauge)}</span><span>${t("damage")}: ${esc(p.damage)}</span>` +
      `<span>${t("dust")}: ${p.dust.length}</span><span>${esc(state)}</span></div>`,
    row("field", field + `<span class="label">${t("total")} ${esc(p.total)}</span>`),
    row("support", support),
    row("hand", `<div>${hand}</div>`),
  ];
  if (p.helper.length) rows.push(row("helper", mkChips(p.helper)));
  return `<div class="side s${p.seat}${turn}">${rows.join("")}</div>`;
}
function mkCenter(v) {
  const parts = [];
  const b = v.bet;
  if (b) {
    parts.push(`<div>${t("bet")}: ${seatName(b.seat)} ${esc(b.kind)} ${esc(b.card)}` +
      `${b.option ? " " + esc(b.option) : ""} (${esc(b.cost)})</div>`);
  }
  const j = v.judge;
  if (j) parts.push(`<div>${t("judge")}: ${esc(j.kind)} → ${seatName(j.hitter)}</div>`);
  const p = v.pending;
  if (p) {
    const codes = p.legal ? p.legal.map(x => `<code>${esc(x)}</code>`).join("") : "";
    const legal = p.legal ? `<div class="legal">${t("legal")}: ${codes}</div>` : "";
    parts.push(`<div>${t("waits")}: <b>${seatName(p.seat)}</b> — ${esc(p.prompt)}</div>` + legal);
  }
  const o = v.outcome;
  if (o) {
    const who = o.winner === null ? t("none") : t("winner") + ": " + seatName(o.winner);
    parts.push(`<div><b>${who}</b> (${esc(o.reason)})</div>`);
  }
  return parts.length ? `<div class="center">${parts.join("")}</div>` : "";
}
BOARDS.maken = function (v) {
  const bottom = viewer === "1" ? 1 : 0;
  const head = `<div class="meta"><span>${t("turn")} ${esc(v.turn)}</span>` +
    `<span>${t("tp")}: ${seatName(v.tp)}</span><span>${t("prompt")}: ${esc(v.phase)}</span></div>`;
  return head + mkSide(v.players[1 - bottom], v) + mkCenter(v) + mkSide(v.players[bottom], v);
};
