// The replay page's shell: data decoding, texts, controls, the log; boards come from the game modules.
const D = JSON.parse(document.getElementById("kessen-data").textContent);
// The page's texts: the shell's here, each game's added by its module (addTexts).
const TEXTS = {
  ja: {speed:"速度", seat:"視点", log:"ログ", step:"手", start:"開始", turn:"ターン",
       waits:"待ち", legal:"選択肢", winner:"勝者", none:"勝者なし", all:"全体", down:"伏せ"},
  en: {speed:"speed", seat:"view", log:"Log", step:"step", start:"start", turn:"Turn",
       waits:"waits for", legal:"choices", winner:"winner", none:"no winner", all:"all",
       down:"face down"}
};
function addTexts(more) {
  for (const lang of Object.keys(more)) Object.assign(TEXTS[lang] || (TEXTS[lang] = {}), more[lang]);
}
// Each game's module registers the function that draws its board from one view.
const BOARDS = {};
const t = k => (TEXTS[D.lang] || {})[k] || esc(k);
const cache = new Array(D.values.length);
function dec(i) {
  if (cache[i] !== undefined) return cache[i];
  const k = D.kinds[i], v = D.values[i];
  let out;
  if (k === "d") { out = {}; for (const key in v) out[key] = dec(v[key]); }
  else if (k === "l") { out = v.map(dec); }
  else out = v;
  cache[i] = out;
  return out;
}
const N = D.views.all.length;
let step = 0, viewer = "all", timer = null;
const $ = id => document.getElementById(id);
const ESC = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"};
function esc(s) { return String(s).replace(/[&<>"']/g, c => ESC[c]); }
const seatName = s => (s === 0 || s === 1) ? "P" + (s + 1) : "—";
function cardTitle(c) {
  const info = c && c.slug && D.cards[c.slug];
  if (!info) return "";
  const lv = info.lv ? " Lv" + info.lv : "";
  return ` title="${esc(info.name + lv + "\n" + (info.text || ""))}"`;
}
function chip(c) {
  return c ? `<span${cardTitle(c)}>${esc(c.name || c.slug || "?")}</span>` : "";
}
function row(label, body) {
  return `<div class="row"><span class="label">${t(label)}</span>${body}</div>`;
}
function board(v) {
  const draw = BOARDS[D.ruleset];
  if (!v.players || !draw) return `<pre>${esc(JSON.stringify(v, null, 1))}</pre>`;
  return draw(v);
}
function logAt(i) {
  const o = D.log_overrides[viewer][String(i)];
  if (o) return o;
  return D.logs[viewer].slice(0, D.log_lengths[viewer][i]);
}
function show() {
  const v = dec(D.views[viewer][step]);
  $("board").innerHTML = board(v);
  const log = logAt(step), before = step > 0 ? logAt(step - 1).length : 0;
  $("log").innerHTML = log.map(([k, s], i) =>
    `<li class="k-${esc(k)}${i >= before ? " new" : ""}">${esc(s)}</li>`).join("");
  const last = $("log").lastElementChild;
  if (last) last.scrollIntoView({block: "nearest"});
  const st = step > 0 ? D.steps[step - 1] : null;
  $("action").textContent =
    st ? `${t("step")} ${step}: ${seatName(st.actor)} → ${st.action[viewer]}` : t("start");
  $("seek").value = step;
  $("stepno").textContent = `${step} / ${N - 1}`;
}
function go(i) { step = Math.max(0, Math.min(N - 1, i)); show(); if (step >= N - 1) pause(); }
function pause() { if (timer) clearInterval(timer); timer = null; $("play").textContent = "▶"; }
function play() {
  if (timer) return pause();
  if (step >= N - 1) step = 0;
  $("play").textContent = "❚❚";
  timer = setInterval(() => go(step + 1), Number($("speed").value));
}
document.querySelectorAll("[data-l]").forEach(e => { e.textContent = t(e.dataset.l); });
$("viewer").options[2].textContent = t("all");
$("seek").max = N - 1;
$("first").onclick = () => go(0);
$("prev").onclick = () => go(step - 1);
$("next").onclick = () => go(step + 1);
$("last").onclick = () => go(N - 1);
$("play").onclick = play;
$("seek").oninput = e => go(Number(e.target.value));
$("speed").onchange = () => { if (timer) { pause(); play(); } };
$("viewer").onchange = e => { viewer = e.target.value; show(); };
document.addEventListener("keydown", e => {
  if (e.target.tagName === "SELECT" || e.target.tagName === "INPUT") return;
  if (e.key === "ArrowRight") go(step + 1);
  else if (e.key === "ArrowLeft") go(step - 1);
  else if (e.key === "Home") go(0);
  else if (e.key === "End") go(N - 1);
  else if (e.key === " ") { e.preventDefault(); play(); }
});
const o = D.outcome;
const result = o ? (o.winner === null ? t("none") : `${t("winner")}: ${seatName(o.winner)}`) +
  ` (${o.reason})` : "…";
$("summary").textContent = `${D.ruleset} · seed ${D.seed} · ${N - 1} ${t("step")} · ${result}`;
$("foot").textContent = `engine ${D.version} · cards ${String(D.data_hash).slice(0, 12)}`;
