"""The deal viewer: one self-contained HTML page that steps through a pulka event by event.

``viewer_html(loaded)`` replays the log with the audit engine (:class:`preflog.engine.replay.Auditor`, not
strict, so a finding does not stop the replay) and keeps, after every event, what a person at the table
sees: the hands and the talon as cards, the auction, the discard, the contract and the whist calls, the
trick in progress and the last one taken, the tricks per player, the score lines the deal wrote and the
sheet so far. The page holds those steps as JSON and a small script draws them; it loads nothing
(no network, no external script, style or font). Keys: ←/→ an event, ↑/↓ a trick, PageUp/PageDown (or
``[``/``]``) a deal, Home/End the start and the end; the buttons do the same. Every audit finding is a
link to the event where it happened, shown highlighted. Paper-level deals show what is known: the
contract, the calls and the tricks, no cards.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING
from typing import Any

from ..engine.families import family_named
from ..engine.families import family_of
from ..engine.replay import Auditor
from ..model.calls import CALL_NAMES
from ..model.calls import MODE_NAMES
from ..model.cards import format_cards
from ..model.events import BidMade
from ..model.events import CardPlayed
from ..model.events import Claimed
from ..model.events import ContraCalled
from ..model.events import ContractDeclared
from ..model.events import DealStarted
from ..model.events import Discarded
from ..model.events import Event
from ..model.events import PaperResult
from ..model.events import PlayModeChosen
from ..model.events import PulkaEnded
from ..model.events import PulkaStarted
from ..model.events import ScoreRecorded
from ..model.events import TalonRevealed
from ..model.events import TenChecked
from ..model.events import WhistCalled
from ..render.sheet_svg import render_svg
from ..scoring.sheet import DealScore
from ..scoring.sheet import Sheet
from ..workspace import Audited
from ..workspace import Loaded
from .json import contract_text
from .json import frac
from .json import sheet_json

if TYPE_CHECKING:
    from ..engine.pulka import PulkaState


def _describe(ev: Event, players: tuple[str, ...], pulka: PulkaState | None) -> str:
    """One line of the record for an event, with the players named."""
    def who(seat: int) -> str:
        return players[seat] if 0 <= seat < len(players) else f"seat {seat}"

    rules = pulka.rules if pulka is not None else None
    if isinstance(ev, PulkaStarted):
        return f"Pulka: {', '.join(ev.players)} · {ev.rules} · pool {ev.pool}"
    if isinstance(ev, DealStarted):
        return f"Deal: dealer {who(ev.dealer)}" + (" (paper level)" if ev.hands is None else "")
    if isinstance(ev, BidMade):
        bids = family_of(rules).bids if rules is not None else None
        return f"{who(ev.player)} bids {bids.format(ev.bid) if bids else ev.bid}"
    if isinstance(ev, TalonRevealed):
        return f"Talon: {format_cards(ev.cards, 'unicode')}"
    if isinstance(ev, Discarded):
        return f"{who(ev.player)} discards {format_cards(ev.cards, 'unicode')}"
    if isinstance(ev, ContractDeclared):
        return f"{who(ev.player)} declares {contract_text(rules, ev.contract)}"
    if isinstance(ev, WhistCalled):
        return f"{who(ev.player)}: {CALL_NAMES.get(ev.call, str(ev.call))}"
    if isinstance(ev, PlayModeChosen):
        return f"{who(ev.player)} plays {MODE_NAMES.get(ev.mode, str(ev.mode))}"
    if isinstance(ev, ContraCalled):
        return f"{who(ev.player)}: contra"
    if isinstance(ev, CardPlayed):
        return f"{who(ev.player)} plays {format_cards(1 << ev.card, 'unicode')}"
    if isinstance(ev, Claimed | TenChecked | PaperResult):
        word = {Claimed: "Claim", TenChecked: "Ten checked", PaperResult: "Tricks"}[type(ev)]
        return f"{word}: " + ", ".join(f"{who(s)} {t}" for s, t in enumerate(ev.tricks))
    if isinstance(ev, ScoreRecorded):
        visty = " ".join(f"{who(j)}={frac(v)}" for j, v in enumerate(ev.visty) if j != ev.player)
        return f"Score written by {who(ev.player)}: pulya {frac(ev.pulya)} gora {frac(ev.gora)} visty {visty}"
    if isinstance(ev, PulkaEnded):
        return f"Pulka ended ({ev.reason})"
    return ev.KIND


def _sheet(sheet: Sheet) -> dict[str, Any]:
    return {"p": [str(frac(v)) for v in sheet.pulya], "g": [str(frac(v)) for v in sheet.gora],
            "v": [[str(frac(v)) for v in row] for row in sheet.visty]}


def _score(score: DealScore) -> dict[str, Any]:
    return {"p": [str(frac(v)) for v in score.pulya], "g": [str(frac(v)) for v in score.gora],
            "v": [[str(frac(v)) for v in row] for row in score.visty], "note": score.note}


def viewer_data(loaded: Loaded, marks: Mapping[int, str] | None = None) -> dict[str, Any]:
    """The steps of the viewer: the table after every event of the log, with the audit's findings.
    ``marks``: event seq of a card → a title (``preflog analyze --html`` marks the cards that lost
    tricks, the title naming what each cost)."""
    a = Auditor(strict=False)
    steps: list[dict[str, Any]] = []
    sheets: list[dict[str, Any]] = []
    last_sheet = ""
    last_trick: list[list[int]] = []
    winner = -1
    deal_index = 0
    for i, ev in enumerate(loaded.events):
        d_before = a.pulka.deal if a.pulka is not None else None
        before = list(zip(d_before.trick_seats, d_before.trick_cards, strict=False)) if d_before else []
        tricks_before = list(d_before.tricks) if d_before else []
        seq = i + 1   # the store's numbering
        a.step(i, ev.to_row(), ev)
        p = a.pulka
        players = p.players if p is not None else ()
        d = p.deal if p is not None else None
        if isinstance(ev, DealStarted):
            deal_index += 1
            last_trick, winner = [], -1
        step: dict[str, Any] = {"seq": seq, "kind": ev.KIND, "text": _describe(ev, players, p), "deal": deal_index}
        if marks and seq in marks and isinstance(ev, CardPlayed):
            step["mark"] = marks[seq]
            step["card"] = ev.card
        if isinstance(ev, CardPlayed) and d is not None and d is d_before and not d.trick_cards and before:
            last_trick = [[s, c] for s, c in before] + [[ev.player, ev.card]]
            winner = next((s for s in range(len(d.tricks)) if d.tricks[s] > tricks_before[s]), -1)
        if d is not None:
            history = getattr(d.auction, "history", [])
            fmt = family_of(d.rules).bids.format
            step.update({
                "dealNo": d.deal, "dealer": d.dealer, "phase": d.phase_name, "paper": d.paper,
                "hands": None if d.paper else list(d.hands),
                "talon": d.talon, "discard": d.discard_mask,
                "auction": [[s, fmt(b)] for s, b in history],
                "contract": contract_text(d.rules, d.contract) if d.contract else "",
                "declarer": d.declarer, "calls": [CALL_NAMES.get(c, "") if c >= 0 else "" for c in d.calls],
                "open": bool(d.open_play),
                "trick": [[s, c] for s, c in zip(d.trick_seats, d.trick_cards, strict=False)],
                "last": last_trick, "winner": winner, "tricks": list(d.tricks), "completed": d.completed,
                "done": bool(d.done),
            })
            summary = a.summary
            if d.done and summary is not None and summary.score is not None:
                step["score"] = _score(summary.score)
        if p is not None and p.scorer is not None:
            sh = _sheet(p.scorer.sheet)
            key = json.dumps(sh)
            if key != last_sheet:
                sheets.append(sh)
                last_sheet = key
            step["sheet"] = len(sheets) - 1
        steps.append(step)
    a.close_log(len(loaded.events))
    result = a.result()
    final = sheet_json(Audited(loaded, result))
    findings = [{"code": f.code, "deal": f.deal, "seq": f.seq, "message": f.message} for f in result.findings]
    for k, found in enumerate(result.findings):
        seq = found.seq  # the store's numbering: steps[seq - 1] is that event
        if 1 <= seq <= len(steps):
            steps[seq - 1].setdefault("findings", []).append(k)
    terms = family_named(final.get("family")).sheet  # the sheet's words: Croatian column and juha, no gora
    return {"id": loaded.id, "players": list(result.players),
            "words": {"pulya": terms.pulya, "gora": terms.gora, "visty": terms.visty}, "steps": steps, "sheets": sheets,
            "findings": findings, "final": {"totals": final["totals"], "settlement": final["settlement"]},
            "svg": render_svg(final)}


def viewer_html(loaded: Loaded, marks: Mapping[int, str] | None = None) -> str:
    """The self-contained deal viewer page of one pulka (``marks``: see :func:`viewer_data`)."""
    data = viewer_data(loaded, marks)
    svg = data.pop("svg")
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    title = escape(f"preflog · {loaded.id}")
    return (PAGE.replace("{{title}}", title).replace("{{svg}}", svg)
            .replace("{{data}}", payload))


def write_viewers(loaded: Sequence[Loaded], folder: Path, relative_to: Path) -> list[tuple[str, str]]:
    """Write a viewer page per pulka into ``folder`` (``<id>.html``, the id made safe for a file name);
    return ``(pulka id, link)`` pairs with links relative to the folder ``relative_to`` (the report's)."""
    folder.mkdir(parents=True, exist_ok=True)
    links = []
    for ld in loaded:
        name = re.sub(r"[^\w.-]", "_", ld.id) + ".html"
        (folder / name).write_text(viewer_html(ld), encoding="utf-8")
        links.append((ld.id, os.path.relpath(folder / name, relative_to).replace(os.sep, "/")))
    return links


PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy"
 content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>{{title}}</title>
<style>
body{font-family:"DejaVu Sans",Verdana,Arial,sans-serif;margin:0;background:#eef1ec;color:#111}
header{background:#234;color:#fff;padding:8px 16px;display:flex;gap:16px;align-items:center;flex-wrap:wrap}
header h1{font-size:18px;margin:0}
#nav button{font-size:14px;margin:0 2px;padding:3px 8px}
main{display:grid;grid-template-columns:minmax(560px,1fr) 420px;gap:12px;padding:12px}
#table{background:#0b6b3a;border-radius:14px;padding:12px;color:#fff;position:relative;min-height:420px}
.seat{background:rgba(0,0,0,.18);border-radius:8px;padding:6px 8px;margin:6px 0}
.seat.declarer{outline:2px solid #ffd34d}
.seat .name{font-weight:bold}.seat .info{font-size:12px;opacity:.9;margin-left:8px}
.cards{display:flex;flex-wrap:wrap;gap:3px;margin-top:4px;min-height:34px}
.card{display:inline-block;background:#fff;color:#111;border-radius:4px;border:1px solid #999;
 padding:4px 5px;min-width:26px;text-align:center;font-weight:bold;font-size:15px}
.card.red{color:#c00}.card.played{opacity:.35}
#felt{display:grid;grid-template-columns:1fr minmax(150px,.8fr) 1fr;gap:8px;align-items:start;
 grid-template-areas:"top top top" "left centre right" "bottom bottom bottom"}
#felt .centre{grid-area:centre;text-align:center;background:rgba(0,0,0,.25);border-radius:50%/30%;
 padding:14px 6px;min-height:90px}
#felt .centre .cards{justify-content:center}
.played{display:inline-flex;flex-direction:column;align-items:center;font-size:11px;gap:2px}
.seat.top,.seat.bottom{justify-self:center;min-width:50%}
#middle{display:flex;gap:16px;flex-wrap:wrap;margin:8px 0}
#middle .box{background:rgba(0,0,0,.18);border-radius:8px;padding:6px 8px;min-width:140px}
.box h3{font-size:12px;margin:0 0 4px;font-weight:normal;opacity:.85;text-transform:uppercase}
aside{background:#fff;border-radius:8px;padding:8px 12px;font-size:13px}
aside h2{font-size:14px;margin:8px 0 4px}
#log{max-height:260px;overflow:auto;font-family:monospace;font-size:12px;border:1px solid #ddd;padding:4px}
#log div{padding:1px 3px;cursor:pointer}#log div.cur{background:#ffe58a}
#log div.bad,.finding.cur{background:#ffd0d0}
#current.bad{background:#ffd0d0;outline:2px solid #c00}
#current{padding:6px;border-radius:6px;background:#f4f4f4;margin:6px 0;font-weight:bold}
table{border-collapse:collapse;font-size:12px}td,th{border:1px solid #ccc;padding:2px 4px;text-align:right}
th{background:#f2f2f2}.finding{display:block;color:#900;margin:2px 0}
#svg{grid-column:1/3;background:#fff;border-radius:8px;padding:8px;overflow:auto}
#svg summary{cursor:pointer;font-weight:bold}
.card.mistake{outline:3px solid #e0218a;outline-offset:1px}
#log div.mistake,#current .mistake{color:#a0115f;font-weight:bold}
</style></head><body>
<header><h1>{{title}}</h1>
<div id="nav">
<button id="firstBtn" title="Home">|◀ start</button>
<button id="prevDeal" title="PageUp or [">◀ deal</button>
<button id="prevTrick" title="↑">◀ trick</button>
<button id="prevEvent" title="←">◀ event</button>
<button id="nextEvent" title="→">event ▶</button>
<button id="nextTrick" title="↓">trick ▶</button>
<button id="nextDeal" title="PageDown or ]">deal ▶</button>
<button id="lastBtn" title="End">end ▶|</button>
</div><span id="pos"></span></header>
<main>
<section id="table"></section>
<aside>
<div id="current"></div>
<h2>Score lines of this deal (recomputed)</h2><div id="score">—</div>
<h2>Sheet so far</h2><div id="sheet"></div>
<h2>Audit findings</h2><div id="findings"></div>
<h2>Events</h2><div id="log"></div>
</aside>
<details id="svg"><summary>The sheet at the end of the pulka</summary>{{svg}}</details>
</main>
<script id="data" type="application/json">{{data}}</script>
<script>
"use strict";
const D = JSON.parse(document.getElementById("data").textContent);
const P = D.players, N = P.length, S = D.steps, W = D.words;
const SUITS = ["\\u2660", "\\u2663", "\\u2666", "\\u2665"], RANKS = ["7","8","9","10","J","Q","K","A"];
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
    w.appendChild(el("span", "", P[p])); r.appendChild(w); } return r; }
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
        : s.phase === "play" ? " · all passed: raspasy" : ""));
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
  if (s.mark) cur.appendChild(el("div", "mistake", s.mark));
  if (s.findings) for (const k of s.findings) { const f = D.findings[k];
    cur.appendChild(el("div", "finding", `${f.code}: ${f.message}`)); }
  const sc = document.getElementById("score"); sc.innerHTML = "";
  if (s.score) sc.appendChild(sheetTable(s.score, true)); else sc.textContent = "—";
  const sh = document.getElementById("sheet"); sh.innerHTML = "";
  if (s.sheet !== undefined) sh.appendChild(sheetTable(D.sheets[s.sheet], false));
  for (const e of document.querySelectorAll("#log div")) e.classList.toggle("cur", +e.dataset.i === at);
  const c = document.querySelector("#log div.cur"); if (c) c.scrollIntoView({block: "nearest"});
  for (const e of document.querySelectorAll("#findings .finding")) e.classList.toggle("cur", +e.dataset.seq === s.seq);
}
function sheetTable(sh, delta) {
  const tb = el("table"); const hr = el("tr"); tb.appendChild(hr);
  for (const h of ["", W.pulya, ...(W.gora ? [W.gora] : []), ...P.map(q => W.visty + " on " + q)])
    hr.appendChild(el("th", "", h));
  for (let p = 0; p < N; p++) { const tr = el("tr"); tr.appendChild(el("th", "", P[p]));
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
const m = /^#seq-(\\d+)$/.exec(location.hash);
go(m ? S.findIndex(s => s.seq === +m[1]) : 0);
</script></body></html>
"""
