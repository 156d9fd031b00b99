// preflog serve: the card-level entry of the next deal (optional). The hands are tapped from a 32-card
// grid seat by seat (the last hand or the talon, whichever is left, is completed by the server); then each
// step is tapped from what the server offers: the bids, the discard, the contract, the whist calls, and the
// cards, only the legal ones active. The server asks the engine for all of it (POST .../cards/draft) and
// refuses a step with the audit's sentence; every text is set with textContent.
(function () {
  if (!document.getElementById("cards")) { return; }
  var data = JSON.parse(document.getElementById("data").textContent);
  var $ = function (id) { return document.getElementById(id); };
  // the path the app is served under (preflog serve --root-path), before every address it asks
  var ROOT = document.querySelector("meta[name=preflog-root]").getAttribute("content");
  var state = data.state;
  var deck = data.deck;
  var SUITS = {s: "\u2660", c: "\u2663", d: "\u2666", h: "\u2665"};
  var draft, view, stage, seat, asked = 0;

  var post = window.preflogServe.post;   // serve.js's, which runs first
  function say(text, ok) {
    var m = $("c-msg");
    m.textContent = text;
    m.className = "msg " + (ok ? "ok" : "err");
  }
  var button = window.preflogServe.button;
  // a call as the family writes it, its strain letter shown as a suit symbol (6s -> 6♠)
  function bidText(t) {
    return t.replace(/^([0-9]+)([scdh])(?![A-Za-z])/, function (_, n, s) { return n + SUITS[s]; });
  }
  function cardText(c) { return deck[c].rank + deck[c].suit; }
  function name(s) { return state.players[s]; }

  function fresh() {
    var n = state.players.length;
    draft = {dealer: state.dealer, hands: [], talon: [], steps: [], seq: state.seq};
    for (var s = 0; s < n; s++) { draft.hands.push([]); }
    view = null;
    stage = "hands";
    seat = null;
    picked = [];
  }
  var picked = [];   // the discard's cards tapped so far

  function dealt() { return view ? view.dealt : state.seats_of[draft.dealer]; }
  function slot(k) { return k === "talon" ? draft.talon : draft.hands[k]; }
  function limit(k) { return k === "talon" ? 2 : 10; }
  function holder(c) {
    if (draft.talon.indexOf(c) >= 0) { return "talon"; }
    for (var s = 0; s < draft.hands.length; s++) { if (draft.hands[s].indexOf(c) >= 0) { return s; } }
    return null;
  }
  // the next seat (or the talon) still short of cards, from the one after k
  function nextShort(k) {
    var order = dealt().concat(["talon"]);
    var i = order.indexOf(k);
    for (var j = 1; j <= order.length; j++) {
      var o = order[(i + j) % order.length];
      if (slot(o).length < limit(o)) { return o; }
    }
    return k;
  }

  var busy = false;   // a step is with the server: taps wait for its answer (they act on what it says)
  function ask() {
    var mine = ++asked;
    busy = true;
    $("cards").setAttribute("aria-busy", "true");
    var body = {draft: {dealer: draft.dealer, hands: draft.hands, talon: draft.talon, steps: draft.steps}};
    return post(ROOT + "/api/pulka/" + encodeURIComponent(state.id) + "/cards/draft", body).then(function (r) {
      if (mine !== asked) { return; }
      busy = false;
      $("cards").setAttribute("aria-busy", "false");
      if (r.status === 200) {
        view = r.body;
        say("", true);
      } else {
        if (stage === "play" && draft.steps.length) { draft.steps.pop(); }   // the refused tap
        say(r.body.error, false);
      }
      draw();
    }, function () {
      busy = false;
      $("cards").setAttribute("aria-busy", "false");
      say(_("The server did not answer"), false);
    });
  }

  function tapCard(c) {
    if (stage === "hands") {
      var k = slot(seat), at = k.indexOf(c);
      if (at >= 0) { k.splice(at, 1); }
      else if (holder(c) === null && k.length < limit(seat)) {
        k.push(c);
        if (k.length === limit(seat)) { seat = nextShort(seat); }
      }
      ask();
      return;
    }
    if (busy || !view) { return; }
    if (view.phase === "discard") {
      var i = picked.indexOf(c);
      if (i >= 0) { picked.splice(i, 1); draw(); return; }
      picked.push(c);
      if (picked.length < 2) { draw(); return; }
      draft.steps.push(["discard", view.declarer, picked]);
      picked = [];
    } else {
      draft.steps.push(["card", view.to_move, c]);
    }
    ask();
  }

  function drawDealer() {
    var box = $("c-dealer");
    $("c-dealer-row").className = stage === "hands" ? "row" : "hidden";
    box.textContent = "";
    state.dealers.forEach(function (s) {
      var b = button(name(s), function () { draft.dealer = s; ask(); });
      b.setAttribute("aria-pressed", s === draft.dealer ? "true" : "false");
      b.disabled = stage !== "hands" || state.dealers.length === 1;
      box.appendChild(b);
    });
  }

  function drawSeats() {
    var box = $("c-seats");
    box.textContent = "";
    if (stage !== "hands") { return; }
    dealt().concat(["talon"]).forEach(function (k) {
      var label = (k === "talon" ? _("Talon") : name(k)) + " " + slot(k).length + "/" + limit(k);
      var b = button(label, function () { seat = k; draw(); });
      b.setAttribute("data-seat", String(k));
      b.setAttribute("aria-pressed", k === seat ? "true" : "false");
      box.appendChild(b);
    });
  }

  function drawGrid() {
    var grid = $("c-grid");
    grid.textContent = "";
    var active = {}, left = {};
    if (stage === "play" && view) {
      (view.cards || []).forEach(function (c) { active[c] = true; });
      view.left.forEach(function (h) { h.forEach(function (c) { left[c] = true; }); });
      (view.phase === "discard" ? view.cards : []).forEach(function (c) { left[c] = true; });
    }
    var shown = stage === "hands" && view && view.complete ? view : null;
    for (var s = 0; s < 4; s++) {
      for (var r = 7; r >= 0; r--) {
        (function (c) {
          var b = button("", function () { tapCard(c); });
          var span = document.createElement("span");
          span.textContent = cardText(c);
          if (deck[c].s >= 2) { span.className = "red"; }
          b.appendChild(span);
          b.setAttribute("data-card", deck[c].text);
          b.setAttribute("aria-label", deck[c].text);
          if (stage === "hands") {
            var h = holder(c);
            if (h === null && shown) {   // completed by the server: the last hand or the talon
              h = shown.talon.indexOf(c) >= 0 ? "talon" : null;
              shown.hands.forEach(function (cards, k) { if (cards.indexOf(c) >= 0) { h = k; } });
            }
            b.setAttribute("aria-pressed", h === seat && h !== null ? "true" : "false");
            b.disabled = h !== null && h !== seat;
            if (h !== null && h !== seat) { b.title = h === "talon" ? _("Talon") : name(h); }
          } else {
            b.setAttribute("aria-pressed", picked.indexOf(c) >= 0 ? "true" : "false");
            b.disabled = !active[c];
            if (!left[c]) { b.style.visibility = "hidden"; }
          }
          grid.appendChild(b);
        })(s * 8 + r);
      }
    }
  }

  function drawTable() {
    var box = $("c-table");
    box.textContent = "";
    if (stage !== "play" || !view) {
      $("c-help").textContent = stage === "hands" ?
        _("Tap each player's ten cards (then the talon's two); the last hand or the talon fills itself.") : "";
      return;
    }
    var help = view.done ? _("The deal is complete: enter it.") :
      (view.to_move !== null ? name(view.to_move) + ": " : "") +
      (view.phase === "discard" ? _("tap the two cards discarded") :
       view.phase === "play" ? _("tap the card played") : _("tap the call"));
    $("c-help").textContent = help;
    if (view.phase === "play") {
      var line = document.createElement("div");
      line.id = "c-trick";
      line.textContent = _("Trick %(n)s:", {n: view.completed + 1}) + " " +
        (view.trick.map(function (p) { return name(p[0]) + " " + cardText(p[1]); }).join(", ") || "—");
      box.appendChild(line);
      if (view.talon_leads) {   // open raspasy: the talon's card leads this trick, nobody plays it
        var led = document.createElement("div");
        led.id = "c-talon";
        led.textContent = _("The talon (%(cards)s) leads this trick: follow %(suits)s",
                            {cards: view.talon_leads.talon.map(cardText).join(" "), suits: view.talon_leads.suits.join(" / ")});
        box.appendChild(led);
      }
    }
    var taken = document.createElement("div");
    taken.id = "c-taken";
    taken.textContent = _("Tricks:") + " " + view.dealt.map(function (s) { return name(s) + " " + view.taken[s]; }).join(", ");
    box.appendChild(taken);
  }

  function drawOptions() {
    var box = $("c-options");
    box.textContent = "";
    if (stage !== "play" || !view) { return; }
    view.options.forEach(function (o) {
      box.appendChild(button(bidText(o.label), function () {
        if (busy) { return; }
        draft.steps.push(o.step);
        ask();
      }));
    });
  }

  var claim = {}, claiming = false;
  function drawClaim() {
    var box = $("c-claim");
    box.textContent = "";
    if (stage !== "play" || !view || !view.claim) { claiming = false; return; }
    var open = button(_("Claim the tricks left: %(n)s", {n: view.remaining}), function () {
      claiming = !claiming;
      drawClaim();
    });
    open.id = "c-claim-open";
    open.setAttribute("aria-expanded", claiming ? "true" : "false");
    box.appendChild(open);
    if (!claiming) { return; }
    view.dealt.forEach(function (s) {
      var row = document.createElement("div");
      row.className = "row";
      var who = document.createElement("b");
      who.textContent = name(s);
      var grid = document.createElement("div");
      grid.className = "grid";
      grid.setAttribute("data-claim", String(s));
      for (var t = 0; t <= view.remaining; t++) {
        (function (t) {
          var b = button(String(t), function () { claim[s] = t; drawClaim(); });
          b.setAttribute("aria-pressed", claim[s] === t ? "true" : "false");
          grid.appendChild(b);
        })(t);
      }
      row.appendChild(who);
      row.appendChild(grid);
      box.appendChild(row);
    });
    box.appendChild(button(_("Claim"), function () {
      if (busy) { return; }
      draft.steps.push(["claim", state.players.map(function (_, s) { return claim[s] || 0; })]);
      claim = {};
      claiming = false;
      ask();
    }));
  }

  function draw() {
    $("c-dealno").textContent = String(state.deals + 1);
    drawDealer();
    drawSeats();
    drawTable();
    drawOptions();
    drawGrid();
    drawClaim();
    var text = $("c-text");
    text.textContent = view && view.text ? view.text : "";
    text.className = view && view.text ? "" : "hidden";
    $("c-done").className = stage === "hands" ? "" : "hidden";
    $("c-done").disabled = !(view && view.complete);
    $("c-save").disabled = !(stage === "play" && view && view.done);
  }

  function open() {
    fresh();
    seat = dealt()[0];
    draw();
  }

  $("cards-open").addEventListener("click", function () {
    var section = $("cards"), shown = section.className !== "hidden";
    section.className = shown ? "hidden" : "";
    // one entry at a time: the paper entry (its dealer, its Enter button) waits while the cards are open
    $("paper-entry").className = shown ? "" : "hidden";
    $("cards-open").setAttribute("aria-expanded", shown ? "false" : "true");
    if (!shown) { open(); }
  });
  $("c-done").addEventListener("click", function () {
    if (!(view && view.complete)) { return; }
    draft.hands = view.hands;   // the completed layout
    draft.talon = view.talon;
    stage = "play";
    ask();
  });
  $("c-undo").addEventListener("click", function () {
    if (busy) { return; }
    if (stage === "play" && picked.length) { picked = []; draw(); return; }
    if (stage === "play" && draft.steps.length) { draft.steps.pop(); ask(); return; }
    if (stage === "play") { stage = "hands"; draw(); return; }
    var k = slot(seat);
    if (k.length) { k.pop(); ask(); }
  });
  $("c-save").addEventListener("click", function () {
    $("c-save").disabled = true;
    var body = {expected_seq: draft.seq,
                draft: {dealer: draft.dealer, hands: draft.hands, talon: draft.talon, steps: draft.steps}};
    post(ROOT + "/api/pulka/" + encodeURIComponent(state.id) + "/cards", body).then(function (r) {
      if (r.status === 201) {
        var n = state.deals + 1;
        $("cards").className = "hidden";
        $("paper-entry").className = "";
        $("cards-open").setAttribute("aria-expanded", "false");
        document.dispatchEvent(new CustomEvent("preflog:show", {detail: r.body}));
        var m = $("msg");
        m.textContent = _("Deal %(n)s entered card by card", {n: n});
        m.className = "msg ok";
      } else {
        if (r.status === 409 && r.body.state) {   // another phone entered this deal: start afresh
          document.dispatchEvent(new CustomEvent("preflog:show", {detail: r.body.state}));
          open();
        }
        say(r.body.error, false);
        draw();
      }
    }, function () { say(_("The server did not answer"), false); draw(); });
  });
  document.addEventListener("preflog:state", function (e) {
    state = e.detail;
    if (draft && !draft.steps.length && !draft.hands.some(function (h) { return h.length; })) { fresh(); seat = dealt()[0]; }
    if (draft) { draw(); }
  });
})();
