// TWGP トランプ版: cards by their label (♠3); stacks with pow, pose, frames and weapons.
addTexts({
  ja: {hand:"手札", battle:"バトル", attack:"攻撃", pile:"山札", surge:"サージ",
       storage:"ストレージ", vitals:"ヴァイタル", charge:"チャージ", aside:"除外",
       frames:"フレーム", quiet:"動きのないターン", phase_setup:"構築", phase_build:"ビルド",
       phase_battle:"バトル", phase_over:"終了", pose_active:"表タテ", pose_save:"表ヨコ",
       pose_stealth:"潜伏", pose_gb:"Gブラスト宣言", lost:"失効", effect:"ヴァイタル効果"},
  en: {hand:"hand", battle:"Battle", attack:"attack", pile:"pile", surge:"surge",
       storage:"storage", vitals:"vitals", charge:"charge", aside:"set aside",
       frames:"frames", quiet:"quiet turns", phase_setup:"building", phase_build:"build phase",
       phase_battle:"battle phase", phase_over:"over", pose_active:"active", pose_save:"save",
       pose_stealth:"stealth", pose_gb:"G-blast declared", lost:"lost", effect:"vital effect"}
});
const tw = c => c ? (c.label || c.name || c.slug || "?") : "?";
function twChips(cards) {
  return `<div class="chips">${cards.map(c =>
    `<span${cardTitle(c)}>${c.label ? esc(tw(c)) : t("down")}</span>`).join("")}</div>`;
}
function twHidden(h) {
  if (!h) return "";
  return h.cards ? twChips(h.cards) : `<b>${esc(h.count)}</b>`;
}
function twStack(s) {
  if (!s) return `<div class="slot"></div>`;
  const cls = ["slot", "card", s.face === "down" ? "down" : "",
    s.role === "attacker" ? "attacking" : "", s.role === "target" ? "target" : ""];
  const pose = `<small>${t("pose_" + s.pose)}</small>`;
  if (!s.unit) return `<div class="${cls.join(" ")}"><i>${t("down")}</i> ${pose}</div>`;
  let extra = "";
  if (s.frames.length) extra += `<br><small>${t("frames")} ${s.frames.map(tw).join(" ")}</small>`;
  if (s.weapons.length) extra += `<br><small>+ ${s.weapons.map(tw).join(" ")}</small>`;
  return `<div class="${cls.join(" ")}"${cardTitle(s.unit)}><span class="lv">${esc(s.pow)}</span>` +
    `${esc(tw(s.unit))} ${pose}${extra}</div>`;
}
function twCard(c, empty) {
  if (!c || c.face === "empty") return `<div class="slot">${empty || ""}</div>`;
  const down = c.face === "down";
  const name = c.label ? esc(tw(c)) : `<i>${t("down")}</i>`;
  const status = c.status ? ` <small>(${t(c.status)})</small>` : "";
  return `<div class="slot card ${down ? "down" : ""}"${cardTitle(c)}>${name}${status}</div>`;
}
function twSide(p, v) {
  const turn = v.turn_player === p.seat && !v.outcome ? " turn" : "";
  const rows = [
    `<div class="meta"><b>${seatName(p.seat)}</b>` +
      `<span>${t("pile")}: ${p.pile}</span><span>${t("hand")}: ${p.hand.count}</span>` +
      `<span>${t("surge")}: ${p.surge.length}</span>` +
      `<span>${t("storage")}: ${p.storage.length}</span></div>`,
    row("vitals", p.vitals.map(c => twCard(c)).join("")),
    row("battle", p.battle.map(twStack).join("")),
    row("charge", p.charge.map(c => twCard(c)).join("")),
    row("hand", `<div>${twHidden(p.hand)}</div>`),
  ];
  if (p.aside && p.aside.cards) rows.push(row("aside", twChips(p.aside.cards)));
  if (p.surge.length) rows.push(row("surge", twChips(p.surge)));
  if (p.storage.length) rows.push(row("storage", twChips(p.storage)));
  return `<div class="side s${p.seat}${turn}">${rows.join("")}</div>`;
}
function twCenter(v) {
  const parts = [];
  const a = v.attack;
  if (a) {
    parts.push(`<div>${t("attack")}: ${seatName(a.seat)} ${esc(a.type)} ${esc(a.attacker)} → ` +
      `${esc(a.target ?? "—")}${a.cancelled || a.lost ? " ✕" : ""}</div>`);
  }
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
BOARDS.twgp = function (v) {
  const bottom = viewer === "1" ? 1 : 0;
  const ve = v.vital_effect;
  const effect = ve ? `<span>${t("effect")}: ${seatName(ve.seat)} ${esc(tw(ve.card))}</span>` : "";
  const head = `<div class="meta"><span>${t("turn")} ${v.turn}</span>` +
    `<span>${t("turn")}: ${seatName(v.turn_player)}</span>` +
    `<span>${t("phase_" + v.phase)}</span><span>${t("quiet")}: ${v.quiet}</span>${effect}</div>`;
  return head + twSide(v.players[1 - bottom], v) + twCenter(v) + twSide(v.players[bottom], v);
};
