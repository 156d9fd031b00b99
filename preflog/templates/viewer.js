"use strict";
const D = JSON.parse(document.getElementById("data").textContent);
const P = D.players, N = P.length, S = D.steps, W = D.words, SHORT = D.short || P;
const SUITS = ["\u2660", "\u2663", "\u2666", "\u2665"], RANKS = ["7","8","9","10","J","Q","K","A"];
let at = 0;
function el(tag, cls, text) { const e = document.createElement(tag); if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text; return e; }
function cardEl(c) { const e = el("span", "card" + ((c >> 3) >= 2 ? " red" : ""), RANKS[c & 7] + SUITS[c >> 3]);
  e.dataset.card = c; return e; }
function cardsOf(mask) { const out = []; if (mask === null || mask === undefined) return out;
  for (let s = 0; s < 4; s++) for (let r = 7; r >= 0; r--) { const c = s * 8 + r;
    if (Math.floor(mask / 2 ** c) % 2 === 1) out.push(c); } return out; }
function cardRow(cards) { const r = el("div", "cards"); for (const c of cards) r.appendChild(cardEl(c)); return r; }
const MK = new Map(); for (const s of S) if (s.mark) MK.set(`${s.deal}:${s.card}`, s.mark);
function markedCard(c) { const e = cardEl(c), m = MK.get(`${S[at].deal}:${c}`);
  if (m) { e.classList.add("mistake"); e.title = m; } return e; }
function playedRow(pairs, id) { const r = el("div", "cards"); r.id = id;
  for (const [p, c] of pairs) { const w = el("span", "played"); w.appendChild(markedCard(c));
    w.appendChild(el("span", "", SHORT[p])); r.appendChild(w); } return r; }
function box(title, content) { const b = el("div", "box"); b.appendChild(el("h3", "", title));
  if (typeof content === "string") b.appendChild(el("div", "", content)); else b.appendChild(content); return b; }
function isTrickEnd(i) { const s = S[i]; return s.kind === "card" && s.trick && s.trick.length === 0 ||
  (s.done && !(i > 0 && S[i - 1].done && S[i - 1].deal === s.deal)); }
function draw() {
  const s = S[at], t = document.getElementById("table"); t.innerHTML = "";
  document.getElementById("pos").textContent = `event ${at + 1}/${S.length}` +
    (s.dealNo ? ` · deal ${s.dealNo} · tricks ${s.completed}` : "");
  document.getElementById("pos").dataset.deal = s.dealNo || 0;
  document.getElementById("pos").dataset.completed = s.completed || 0;
  document.getElementById("pos").dataset.seq = s.seq;
  if (s.dealNo) {
    const head = el("div", "", `Deal ${s.dealNo} · dealer ${P[s.dealer]} · ${s.phase}` +
      (s.contract ? ` · contract ${P[s.declarer]} ${s.contract}` + (s.open ? " (open)" : "")
        : s.phase === "play" ? ` · all passed: ${W.allPass}` : ""));
    head.id = "dealHead"; t.appendChild(head);
    const felt = el("div"); felt.id = "felt"; t.appendChild(felt);
    const PLACES = N === 3 ? ["left", "right", "bottom"] : ["left", "top", "right", "bottom"];
    for (let p = 0; p < N; p++) {
      const seat = el("div", "seat " + PLACES[p] + (p === s.declarer ? " declarer" : "")); seat.dataset.seat = p;
      seat.style.gridArea = PLACES[p];
      seat.appendChild(el("span", "name", P[p]));
      const bits = [];
      if (p === s.dealer) bits.push("dealer");
      if (p === s.declarer) bits.push("declarer");
      if (s.calls[p]) bits.push(s.calls[p]);
      bits.push(`tricks ${s.tricks[p]}`);
      const info = el("span", "info", bits.join(" · ")); info.dataset.tricks = s.tricks[p]; seat.appendChild(info);
      if (s.paper) seat.appendChild(el("div", "cards", "(paper record: no cards)"));
      else seat.appendChild(cardRow(cardsOf(s.hands[p])));
      felt.appendChild(seat);
    }
    const centre = el("div", "centre"); centre.appendChild(el("div", "", "trick in play"));
    centre.appendChild(playedRow(s.trick, "trick")); felt.appendChild(centre);
    const mid = el("div"); mid.id = "middle";
    const auc = s.auction.map(([p, b]) => `${P[p]} ${b}`).join(", ");
    mid.appendChild(box("auction", auc || "—"));
    if (s.talon !== null && s.talon !== undefined) mid.appendChild(box("talon", cardRow(cardsOf(s.talon))));
    if (s.discard !== null && s.discard !== undefined) mid.appendChild(box("discard", cardRow(cardsOf(s.discard))));
    if (s.last.length) mid.appendChild(box(`last trick` + (s.winner >= 0 ? ` (to ${P[s.winner]})` : ""),
      playedRow(s.last, "lastTrick")));
    t.appendChild(mid);
  } else { t.appendChild(el("div", "", s.text)); }
  const cur = document.getElementById("current"); cur.textContent = s.text;
  cur.className = s.findings ? "bad" : "";
  if (s.notes) for (const n of s.notes) cur.appendChild(el("div", "note", "; " + n));
  if (s.mark) cur.appendChild(el("div", "mistake", s.mark));
  if (s.findings) for (const k of s.findings) { const f = D.findings[k];
    cur.appendChild(el("div", "finding", `${f.code}: ${f.message}`)); }
  const sc = document.getElementById("score"); sc.innerHTML = "";
  if (s.score) sc.appendChild(wrapped(sheetTable(s.score, true))); else sc.textContent = "—";
  const sh = document.getElementById("sheet"); sh.innerHTML = "";
  if (s.sheet !== undefined) sh.appendChild(wrapped(sheetTable(D.sheets[s.sheet], false)));
  for (const e of document.querySelectorAll("#log div")) e.classList.toggle("cur", +e.dataset.i === at);
  const c = document.querySelector("#log div.cur"); if (c) keepInLog(c);
  for (const e of document.querySelectorAll("#findings .finding")) e.classList.toggle("cur", +e.dataset.seq === s.seq);
}
function wrapped(table) { const w = el("div", "tw"); w.appendChild(table); return w; }
function keepInLog(c) {
  // Scroll the event list alone to the current line: scrollIntoView would scroll the page too, and on a
  // phone, where the list stands below the table, every step would jump to it.
  const log = document.getElementById("log"), top = c.offsetTop;
  if (top < log.scrollTop) log.scrollTop = top;
  else if (top + c.offsetHeight > log.scrollTop + log.clientHeight) log.scrollTop = top + c.offsetHeight - log.clientHeight;
}
function sheetTable(sh, delta) {
  // The family's own words: pulya and gora and visty "on" a player, or stupac and juha (no gora).
  const tb = el("table"); const hr = el("tr"); tb.appendChild(hr);
  // four players' columns would not fit beside the table: their heads are initials (the full name on hover)
  const on = j => W.visty.replace("{}", (N === 4 ? D.initials : SHORT)[j]);
  const heads = ["", W.pool, ...(W.gora ? [W.gora] : []), ...P.map((q, j) => on(j))];
  heads.forEach((h, k) => { const th = el("th", "", h); if (k >= heads.length - N) th.title = P[k - heads.length + N];
    hr.appendChild(th); });
  for (let p = 0; p < N; p++) { const tr = el("tr"); const th = el("th", "", SHORT[p]); th.title = P[p];
    tr.appendChild(th);
    const cells = [["pulya", sh.p[p]], ...(W.gora ? [["gora", sh.g[p]]] : []),
      ...P.map((q, j) => ["on " + q, j === p ? "" : sh.v[p][j]])];
    for (const [area, v] of cells) { const td = el("td", "", v); td.dataset.player = P[p]; td.dataset.area = area;
      tr.appendChild(td); }
    tb.appendChild(tr); }
  if (delta && sh.note) { const cap = el("caption", "", sh.note); tb.appendChild(cap); }
  tb.className = delta ? "delta" : "totals"; return tb;
}
function go(i) { at = Math.max(0, Math.min(S.length - 1, i)); draw(); }
function nextWhere(pred) { for (let i = at + 1; i < S.length; i++) if (pred(i)) return go(i); go(S.length - 1); }
function prevWhere(pred) { for (let i = at - 1; i >= 0; i--) if (pred(i)) return go(i); go(0); }
const dealStart = i => S[i].kind === "deal_started";
const trickEnd = i => isTrickEnd(i) || dealStart(i);
const acts = {
  nextEvent: () => go(at + 1), prevEvent: () => go(at - 1),
  nextTrick: () => nextWhere(trickEnd), prevTrick: () => prevWhere(trickEnd),
  nextDeal: () => nextWhere(dealStart), prevDeal: () => prevWhere(dealStart),
  firstBtn: () => go(0), lastBtn: () => go(S.length - 1),
};
for (const [id, f] of Object.entries(acts)) document.getElementById(id).addEventListener("click", f);
const KEYS = {ArrowRight: "nextEvent", ArrowLeft: "prevEvent", ArrowDown: "nextTrick", ArrowUp: "prevTrick",
  PageDown: "nextDeal", PageUp: "prevDeal", "]": "nextDeal", "[": "prevDeal", Home: "firstBtn", End: "lastBtn"};
document.addEventListener("keydown", e => { const a = KEYS[e.key]; if (a) { e.preventDefault(); acts[a](); } });
const log = document.getElementById("log");
S.forEach((s, i) => { const d = el("div", s.findings ? "bad" : "", `${s.seq}: ${s.text}`); d.dataset.i = i;
  if (s.mark) { d.classList.add("mistake"); d.title = s.mark; }
  d.addEventListener("click", () => go(i)); log.appendChild(d); });
const fl = document.getElementById("findings");
if (!D.findings.length) fl.textContent = "none";
D.findings.forEach(f => { const a = el("a", "finding", `deal ${f.deal}, event ${f.seq}: ${f.code} — ${f.message}`);
  a.href = "#seq-" + f.seq; a.dataset.seq = f.seq;
  a.addEventListener("click", e => { e.preventDefault(); go(S.findIndex(s => s.seq === f.seq)); });
  fl.appendChild(a); });
const m = /^#seq-(\d+)$/.exec(location.hash);
go(m ? S.findIndex(s => s.seq === +m[1]) : 0);
