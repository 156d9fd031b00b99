"use strict";
const D = JSON.parse(document.getElementById("data").textContent);
const P = D.players, N = P.length, S = D.steps, W = D.words, SHORT = D.short || P;
const A = D.analysis || null;  // analyze --html: the double-dummy figures per deal
const SUITS = ["\u2660", "\u2663", "\u2666", "\u2665"], RANKS = ["7","8","9","10","J","Q","K","A"];
// The page writes a field of a step only where it changed (views/viewer.py, pack_steps): carry the rest.
const CARRIED = ["deal", "dealNo", "dealer", "phase", "paper", "hands", "talon", "discard", "auction", "contract",
  "turn", "trump", "declarer", "calls", "open", "trick", "last", "winner", "tricks", "completed", "done", "sheet"];
for (let i = 1; i < S.length; i++) for (const k of CARRIED) if (!(k in S[i]) && k in S[i - 1]) S[i][k] = S[i - 1][k];
for (const s of S) for (const k of CARRIED) if (s[k] === null && k !== "talon" && k !== "discard" && k !== "hands") delete s[k];
let at = 0, seatView = -1;
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
const LAST_STEP = new Map();  // deal number → index of its last step
S.forEach((s, i) => { if (s.dealNo) LAST_STEP.set(s.dealNo, i); });
const DEAL_START = new Map();  // deal number → index of its first step
S.forEach((s, i) => { if (s.kind === "deal_started" && !DEAL_START.has(s.dealNo)) DEAL_START.set(s.dealNo, i); });
function playedBefore(i) {
  // the cards each seat has played in the deal of step i, up to and with it
  const out = P.map(() => []), deal = S[i].deal;
  for (let k = i; k >= 0 && S[k].deal === deal; k--) if (S[k].play) out[S[k].play[0]].unshift(S[k].play[1]);
  return out;
}
function ddValues() {
  // analyze --html: the double-dummy value of every card the player to move could play now; at a card
  // that lost tricks, of every card he could have played instead
  if (!A) return null;
  const s = S[at], nx = at + 1 < S.length ? S[at + 1] : null;
  const step = s.mark && s.play ? s : nx && nx.play ? nx : null;
  const v = step ? A.values[step.seq] : null; if (!v) return null;
  return {seat: step.play[0], card: step === s ? s.play[1] : -1, whose: v[0], cards: new Map(v[1]), best: v[2]};
}
function handRow(p, s, played, dd) {
  const r = el("div", "cards"), held = cardsOf(s.hands[p]), gone = played[p];
  const all = held.concat(gone).sort((a, b) => (a >> 3) - (b >> 3) || (b & 7) - (a & 7));
  for (const c of all) {
    const e = cardEl(c);
    if (s.trump >= 0 && (c >> 3) === s.trump) e.classList.add("trump");
    if (gone.includes(c) && !(dd && dd.card === c)) { e.classList.add("gone"); e.title = _("played"); }
    else if (dd && dd.seat === p && dd.cards.has(c)) {
      if (dd.card === c) e.classList.add("gone", "ddplayed");
      const v = dd.cards.get(c), best = v === dd.best;
      e.classList.add(best ? "ddbest" : "ddworse");
      e.title = _("double dummy: %(name)s's tricks: %(n)s", {name: P[dd.whose], n: v}) + (best ? " " + _("(best)") : "");
      e.setAttribute("aria-label", `${e.textContent}, ${e.title}`);
      e.appendChild(el("sub", "dd", String(v)));
    }
    r.appendChild(e);
  }
  return r;
}
function auctionTable(s) {
  // the auction in seat columns, in the order the seats bid
  if (!s.auction.length) return "—";
  const first = s.auction[0][0], order = [];
  for (let k = 0, q = first; k < N; k++, q = (q + 1) % N) order.push(q);
  const t = el("table", "auction"), hr = el("tr"); t.appendChild(hr);
  for (const q of order) { const th = el("th", "", SHORT[q]); th.title = P[q]; th.scope = "col"; hr.appendChild(th); }
  let row = null, col = N;
  for (const [q, b] of s.auction) {
    const c = order.indexOf(q);
    if (row === null || c <= col) { row = el("tr"); for (let k = 0; k < N; k++) row.appendChild(el("td")); t.appendChild(row); }
    row.children[c].textContent = b; col = c;
  }
  return t;
}
// the phases of a deal (the engine's names) as the page's language says them
const PHASES = {auction: _("auction"), discard: _("discard"), contract: _("contract"), whist: _("whist calls"),
  play_mode: _("open or closed"), play: _("play"), result: _("result"), done: _("done")};
function dealHeadText(s) {
  const parts = [_("Deal %(n)s", {n: s.dealNo}), _("dealer %(name)s", {name: P[s.dealer]}), PHASES[s.phase] || s.phase];
  if (s.contract) parts.push(_("contract %(name)s %(contract)s", {name: P[s.declarer], contract: s.contract}) +
    (s.open ? " " + _("(open)") : ""));
  else if (s.phase === "play") parts.push(_("all passed: %(all_pass)s", {all_pass: W.allPass}));
  if (s.trump >= 0 && s.phase === "play") parts.push(_("trump %(suit)s", {suit: SUITS[s.trump]}));
  return parts.join(" · ");
}
function draw() {
  const s = S[at], t = document.getElementById("table"); t.innerHTML = "";
  const pos = document.getElementById("pos");
  pos.textContent = _("event %(n)s/%(of)s", {n: at + 1, of: S.length}) +
    (s.dealNo ? " · " + _("deal %(n)s", {n: s.dealNo}) + " · " + _("tricks %(n)s", {n: s.completed}) : "");
  pos.dataset.deal = s.dealNo || 0; pos.dataset.completed = s.completed || 0; pos.dataset.seq = s.seq;
  if (s.dealNo) {
    const head = el("div", "", dealHeadText(s)); head.id = "dealHead"; t.appendChild(head);
    const res = D.results[s.dealNo];
    if (s.done && res) { const r = el("div", "result", res); r.id = "dealResult"; t.appendChild(r); }
    const felt = el("div"); felt.id = "felt"; t.appendChild(felt);
    const PLACES = N === 3 ? ["left", "right", "bottom"] : ["left", "top", "right", "bottom"];
    const played = s.paper ? null : playedBefore(at), dd = ddValues();
    for (let p = 0; p < N; p++) {
      const place = PLACES[seatView < 0 ? p : (p - seatView + 2 * N - 1) % N];
      const turn = p === s.turn;
      const seat = el("div", "seat " + place + (p === s.declarer ? " declarer" : "") + (turn ? " turn" : ""));
      seat.dataset.seat = p; seat.style.gridArea = place;
      if (turn) { const m = el("span", "turnmark", "\u25b6"); m.title = _("to move"); m.setAttribute("aria-label", _("to move"));
        seat.appendChild(m); }
      seat.appendChild(el("span", "name", P[p]));
      const bits = [];
      if (p === s.dealer) bits.push(_("dealer"));
      if (p === s.declarer) bits.push(_("declarer"));
      if (s.calls[p]) bits.push(s.calls[p]);
      bits.push(_("tricks %(n)s", {n: s.tricks[p]}));
      const info = el("span", "info", bits.join(" · ")); info.dataset.tricks = s.tricks[p]; seat.appendChild(info);
      if (s.paper) seat.appendChild(el("div", "cards", _("(paper record: no cards)")));
      else if (seatView >= 0 && p !== seatView) {
        const n = cardsOf(s.hands[p]).length; seat.appendChild(el("div", "cards hidden", _("cards: %(n)s (hidden)", {n: n})));
      } else seat.appendChild(handRow(p, s, played, dd));
      felt.appendChild(seat);
    }
    const centre = el("div", "centre"); centre.appendChild(el("div", "", _("trick in play")));
    centre.appendChild(playedRow(s.trick, "trick")); felt.appendChild(centre);
    const mid = el("div"); mid.id = "middle";
    const auc = box(_("auction"), auctionTable(s)); auc.classList.add("auc"); mid.appendChild(auc);
    if (s.talon !== null && s.talon !== undefined) mid.appendChild(box(_("talon"), cardRow(cardsOf(s.talon))));
    if (s.discard !== null && s.discard !== undefined) mid.appendChild(box(_("discard"), cardRow(cardsOf(s.discard))));
    if (s.last.length) mid.appendChild(box(_("last trick") + (s.winner >= 0 ? " " + _("(to %(name)s)", {name: P[s.winner]}) : ""),
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
  drawPaper(s);
  drawAnalysis(s);
  for (const e of document.querySelectorAll("#log div")) e.classList.toggle("cur", +e.dataset.i === at);
  const c = document.querySelector("#log div.cur"); if (c) keepIn(document.getElementById("log"), c);
  for (const e of document.querySelectorAll("#deals a")) {
    const on = +e.dataset.deal === (s.dealNo || 0); e.classList.toggle("cur", on);
    if (on) { e.setAttribute("aria-current", "true"); keepIn(document.getElementById("deals"), e); }
    else e.removeAttribute("aria-current");
  }
  for (const e of document.querySelectorAll("#findings .finding")) e.classList.toggle("cur", +e.dataset.seq === s.seq);
}
function wrapped(table) { const w = el("div", "tw"); w.appendChild(table); return w; }
function keepIn(box, c) {
  // Scroll the list alone to the current line: scrollIntoView would scroll the page too, and on a
  // phone, where the list stands below the table, every step would jump to it.
  const top = c.offsetTop;  // the list is the offsetParent (position: relative)
  if (top < box.scrollTop) box.scrollTop = top;
  else if (top + c.offsetHeight > box.scrollTop + box.clientHeight) box.scrollTop = top + c.offsetHeight - box.clientHeight;
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
function drawPaper(s) {
  // The paper sheet as it stands after the current deal: every zone's running entries, as written on paper
  // ("0. 2. 4"); the current deal's new ones marked; each entry links to the deal that wrote it.
  const box = document.getElementById("paper"); box.innerHTML = "";
  const upto = s.dealNo ? (s.done ? s.dealNo : s.dealNo - 1) : (at === S.length - 1 ? Infinity : 0);
  for (let p = 0; p < N; p++) {
    const card = el("div", "pp"); card.appendChild(el("div", "pname", P[p]));
    const zones = [["p", -1, W.pool], ...(W.gora ? [["g", -1, W.gora]] : []),
      ...P.map((q, j) => ["v", j, W.visty.replace("{}", SHORT[j])]).filter(z => z[1] !== p)];
    for (const [zone, other, label] of zones) {
      const line = el("div", "pz"); line.dataset.zone = zone; line.appendChild(el("span", "plabel", label + ": "));
      const entries = D.paper.filter(e => e[0] === p && e[1] === zone && e[2] === other && e[3] <= upto);
      if (!entries.length) line.appendChild(el("span", "pnone", "—"));
      entries.forEach((e, k) => {
        const a = el("a", "pe" + (e[3] === s.dealNo && s.done ? " new" : ""), e[4] + (k < entries.length - 1 ? "." : ""));
        a.href = e[3] ? `#deal-${e[3]}` : "#deal-1"; a.dataset.deal = e[3];
        a.title = e[3] ? _("deal %(n)s", {n: e[3]}) : _("the start of the sheet");
        line.appendChild(a); line.appendChild(document.createTextNode(" "));
      });
      card.appendChild(line);
    }
    box.appendChild(card);
  }
}
function drawAnalysis(s) {
  const box = document.getElementById("analysis"); if (!A || !box) return;
  box.innerHTML = "";
  const a = s.dealNo ? A.deals[s.dealNo] : null;
  if (!a) { box.appendChild(el("p", "", s.dealNo ? _("Deal %(n)s: not in this analysis.", {n: s.dealNo}) :
    _("Step to a deal to see its analysis."))); return; }
  // the contract as the viewer writes it (6♠), where the analysis has the scorer's label (6s)
  const written = S[LAST_STEP.get(s.dealNo)].contract;
  box.appendChild(el("p", "ahead", a.contract && written ? a.head.replace(a.contract, written) : a.head));
  if (a.skipped) { const m = el("p", "skipped", _("Not analysed: %(why)s.", {why: a.skipped})); m.setAttribute("role", "note");
    box.appendChild(m); return; }
  const dl = el("dl");
  for (const [k, v] of a.facts) { dl.appendChild(el("dt", "", k)); dl.appendChild(el("dd", "", v)); }
  box.appendChild(dl);
  if (a.mistakes.length) {
    box.appendChild(el("h3", "", _("Cards that lost tricks")));
    const ul = el("ul");
    for (const [seq, text] of a.mistakes) { const li = el("li"), l = el("a", "", text); l.href = `#seq-${seq}`;
      li.appendChild(l); ul.appendChild(li); }
    box.appendChild(ul);
  }
}
function go(i, record) {
  at = Math.max(0, Math.min(S.length - 1, i)); draw();
  if (record !== false) history.replaceState(null, "", `#seq-${S[at].seq}`);
}
function nextWhere(pred) { for (let i = at + 1; i < S.length; i++) if (pred(i)) return go(i); go(S.length - 1); }
function prevWhere(pred) { for (let i = at - 1; i >= 0; i--) if (pred(i)) return go(i); go(0); }
const dealStart = i => S[i].kind === "deal_started";
const trickEnd = i => isTrickEnd(i) || dealStart(i);
// a mistake: a card that lost tricks (the value of every card its player could have played shows then)
const mistakeAt = i => !!S[i].mark;
const acts = {
  nextEvent: () => go(at + 1), prevEvent: () => go(at - 1),
  nextTrick: () => nextWhere(trickEnd), prevTrick: () => prevWhere(trickEnd),
  nextDeal: () => nextWhere(dealStart), prevDeal: () => prevWhere(dealStart),
  firstBtn: () => go(0), lastBtn: () => go(S.length - 1),
  nextMistake: () => { for (let i = at + 1; i < S.length; i++) if (mistakeAt(i)) return go(i); },
  prevMistake: () => { for (let i = at - 1; i >= 0; i--) if (mistakeAt(i)) return go(i); },
  helpBtn: () => toggleHelp(),
};
for (const [id, f] of Object.entries(acts)) { const b = document.getElementById(id); if (b) b.addEventListener("click", f); }
const KEYS = {ArrowRight: "nextEvent", ArrowLeft: "prevEvent", ArrowDown: "nextTrick", ArrowUp: "prevTrick",
  PageDown: "nextDeal", PageUp: "prevDeal", "]": "nextDeal", "[": "prevDeal", Home: "firstBtn", End: "lastBtn",
  "?": "helpBtn"};
if (A) { KEYS.n = "nextMistake"; KEYS.p = "prevMistake"; }
const helpBox = document.getElementById("help");
function toggleHelp(show) {
  const on = show === undefined ? helpBox.hidden : show;
  helpBox.hidden = !on;
  document.getElementById(on ? "helpClose" : "helpBtn").focus();
}
const helpClose = document.getElementById("helpClose");
helpClose.addEventListener("click", () => toggleHelp(false));
helpBox.addEventListener("click", e => { if (e.target === helpBox) toggleHelp(false); });   // the backdrop
document.addEventListener("keydown", e => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (!helpBox.hidden) {   // a modal dialog: its one control keeps the focus, the keys behind it rest
    if (e.key === "Escape" || e.key === "?") { e.preventDefault(); toggleHelp(false); }
    else if (e.key === "Tab") { e.preventDefault(); helpClose.focus(); }
    return;
  }
  const tag = (e.target && e.target.tagName) || "";
  if (tag === "SELECT" && e.key.startsWith("Arrow")) return;   // the seat chooser keeps its own keys
  const a = KEYS[e.key]; if (a) { e.preventDefault(); acts[a](); }
});
const seatSel = document.getElementById("seatView");
P.forEach((q, p) => { const o = el("option", "", _("%(name)s's seat", {name: q})); o.value = p; seatSel.appendChild(o); });
seatSel.addEventListener("change", () => { seatView = +seatSel.value; draw(); });
// swipe on the table: left for the next event, right for the one before
let touch = null;
const table = document.getElementById("table");
table.addEventListener("touchstart", e => { if (e.touches.length === 1) touch = [e.touches[0].clientX, e.touches[0].clientY]; },
  {passive: true});
table.addEventListener("touchend", e => {
  if (!touch || !e.changedTouches.length) return;
  const dx = e.changedTouches[0].clientX - touch[0], dy = e.changedTouches[0].clientY - touch[1]; touch = null;
  if (Math.abs(dx) >= 40 && Math.abs(dx) > 1.5 * Math.abs(dy)) go(dx < 0 ? at + 1 : at - 1);
}, {passive: true});
const log = document.getElementById("log");
S.forEach((s, i) => { const d = el("div", s.findings ? "bad" : "", `${s.seq}: ${s.text}`); d.dataset.i = i;
  if (s.mark) { d.classList.add("mistake"); d.title = s.mark; }
  d.addEventListener("click", () => go(i)); log.appendChild(d); });
const dl = document.getElementById("deals");
for (const [deal, i] of DEAL_START) {
  const li = el("li"), a = el("a", "", `${deal}. ${D.results[deal] || _("not finished")}`);
  a.href = `#deal-${deal}`; a.dataset.deal = deal; li.appendChild(a); dl.appendChild(li);
}
if (!DEAL_START.size) dl.appendChild(el("li", "", _("no deals")));
const fl = document.getElementById("findings");
if (!D.findings.length) fl.textContent = _("none");
D.findings.forEach(f => { const a = el("a", "finding", _("deal %(n)s, event %(seq)s:", {n: f.deal, seq: f.seq}) + ` ${f.code} — ${f.message}`);
  a.href = "#seq-" + f.seq; a.dataset.seq = f.seq; fl.appendChild(a); });
function fromHash(h) {
  let m = /^#seq-(\d+)$/.exec(h); if (m) { const i = S.findIndex(s => s.seq === +m[1]); return i < 0 ? null : i; }
  m = /^#deal-(\d+)$/.exec(h); if (m && DEAL_START.has(+m[1])) return DEAL_START.get(+m[1]);
  return null;
}
// links inside the page (deal list, paper entries, findings, mistakes) move the viewer, not the page
document.addEventListener("click", e => {
  const a = e.target.closest && e.target.closest("a[href^='#']"); if (!a) return;
  const i = fromHash(a.getAttribute("href")); if (i === null) return;
  e.preventDefault(); go(i);
});
window.addEventListener("hashchange", () => { const i = fromHash(location.hash); if (i !== null) go(i, false); });
const startAt = fromHash(location.hash);
go(startAt !== null ? startAt : DEAL_START.size ? DEAL_START.values().next().value : 0, startAt === null ? false : true);
