"use strict";
// preflog serve: the start form and the live entry of a pulka's next deal. Data comes from the page's
// <script type="application/json" id="data">; every text is set with textContent (never parsed as HTML)
// except the sheet's SVG, which the server drew with its texts escaped. Writes send the page's CSRF token
// (the join link's pass to write is the server's HttpOnly cookie: the page never holds the table token).
(function () {
  var data = JSON.parse(document.getElementById("data").textContent);
  var $ = function (id) { return document.getElementById(id); };
  // the path the app is served under (preflog serve --root-path), before every address it asks
  var ROOT = document.querySelector("meta[name=preflog-root]").getAttribute("content");

  function headers() {
    var h = {"Content-Type": "application/json", "X-CSRF-Token": data.csrf};
    return h;
  }
  function post(url, body) {
    return fetch(url, {method: "POST", headers: headers(), body: JSON.stringify(body),
                       credentials: "same-origin"}).then(function (r) {
      return r.json().then(function (j) { return {status: r.status, body: j}; },
                           function () { return {status: r.status, body: {error: "HTTP " + r.status}}; });
    });
  }
  function button(text, onClick) {
    var b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    b.setAttribute("aria-pressed", "false");
    b.addEventListener("click", onClick);
    return b;
  }
  // shared with the card-level entry (serve_cards.js, joined after this script on the pulka page)
  window.preflogServe = {post: post, button: button};
  // a row of one seat's buttons under the player's name, appended to parent: returns the buttons' grid
  function seatRow(parent, s) {
    var row = document.createElement("div");
    row.className = "row";
    var name = document.createElement("b");
    name.textContent = state.players[s];
    var grid = document.createElement("div");
    grid.className = "grid";
    row.appendChild(name);
    row.appendChild(grid);
    parent.appendChild(row);
    return grid;
  }
  function press(group, chosen) {
    Array.prototype.forEach.call(group.children, function (b) {
      b.setAttribute("aria-pressed", b === chosen ? "true" : "false");
    });
  }
  function say(text, ok) {
    var m = $("msg");
    m.textContent = text;
    m.className = "msg " + (ok ? "ok" : "err");
  }

  var STATUS = {imported: _("imported"), duplicate: _("already stored")};
  // --- the archive: import a record file ---------------------------------------------------------
  // "3 audit findings, the first at line 42 (deal 3): …" (a JSON record has no lines: its deal only)
  function findingsText(it) {
    var f = it.first_finding || {};
    var where = f.line ? _("line %(line)s (deal %(deal)s)", {line: f.line, deal: f.deal}) : _("deal %(n)s", {n: f.deal});
    return _("audit findings: %(n)s, the first at %(where)s:", {n: it.findings, where: where}) + " " + f.message;
  }
  if ($("upload")) {
    $("send").addEventListener("click", function () {
      var file = $("upload").files[0];
      if (!file) { say(_("Choose a record file first"), false); return; }
      var h = headers();
      h["Content-Type"] = "application/octet-stream";
      h["X-File-Name"] = encodeURIComponent(file.name);
      file.arrayBuffer().then(function (buf) {
        return fetch(ROOT + "/api/import", {method: "POST", headers: h, body: buf, credentials: "same-origin"});
      }).then(function (r) {
        return r.json().then(function (j) { return {status: r.status, body: j}; },
                             function () { return {status: r.status, body: {error: "HTTP " + r.status}}; });
      }).then(function (r) {
        var list = $("imported");
        list.textContent = "";
        (r.body.items || []).forEach(function (it) {
          if (it.status === "error") { return; }
          var li = document.createElement("li");
          var a = document.createElement("a");
          a.href = ROOT + "/pulka/" + encodeURIComponent(it.id);
          a.textContent = it.id;
          li.appendChild(a);
          li.appendChild(document.createTextNode(" " + (STATUS[it.status] || it.status) + " · " + _("deals: %(n)s", {n: it.deals})));
          if (it.findings) { li.appendChild(document.createTextNode(" · " + findingsText(it))); }
          list.appendChild(li);
        });
        var flagged = (r.body.items || []).filter(function (it) { return it.findings; });
        // the import's headline, as the store's ledger keeps it: "12 deals clean, 1 with findings: …"
        var headline = r.body.ledger ? " — " + r.body.ledger.headline : "";
        if (r.status === 201 && flagged.length) {
          say(_("Pulkas imported: %(n)s", {n: r.body.items.length}) + headline + "; " + flagged[0].id + ": " +
              findingsText(flagged[0]), false);
        } else if (r.status === 201) { say(_("Pulkas imported: %(n)s", {n: r.body.items.length}) + headline, true); }
        else { say(r.body.error, false); }
      });
    });
    return;
  }

  // --- the start form ---------------------------------------------------------------------------
  if ($("start")) {
    // one tap fills the last table's players, in their seats (the fourth field emptied at three)
    if ($("last-table")) {
      $("last-table").addEventListener("click", function () {
        [0, 1, 2, 3].forEach(function (i) { $("p" + i).value = (data.last_table || [])[i] || ""; });
      });
    }
    // the chosen preset's options (its family's, as the server's Rules list them), in their sections
    var preset = function () { return (data.rules || {})[$("rules").value] || {family: null, pool: true, values: {}}; };
    var shown = [];
    var optionValue = function (o) {
      var el = $("opt-" + o.name);
      return o.kind === "flag" ? (el.checked ? "true" : "false") : el.value.trim();
    };
    var spec = function () {
      var values = preset().values;
      var changed = shown.filter(function (o) { return optionValue(o) !== values[o.name]; });
      $("changed").textContent = changed.length ? "· " + _("changed: %(n)s", {n: changed.length}) : "";
      // each section's own count, so a closed section still says what it holds that differs
      Array.prototype.forEach.call($("options").querySelectorAll("details"), function (d) {
        var n = changed.filter(function (o) { return d.dataset.names.split(" ").indexOf(o.name) >= 0; }).length;
        d.querySelector(".n").textContent = n ? "· " + _("changed: %(n)s", {n: n}) : "";
      });
      return [$("rules").value].concat(changed.map(function (o) { return o.name + "=" + optionValue(o); })).join("+");
    };
    var showSpec = function () { $("spec").textContent = spec(); };
    var optionRow = function (o, value) {
      var row = document.createElement("div");
      row.className = "opt";
      var label = document.createElement("label");
      var name = document.createElement("span");
      name.className = "name";
      name.textContent = o.name;
      var input;
      if (o.kind === "flag") {
        input = document.createElement("input");
        input.type = "checkbox";
        input.checked = value === "true";
        label.className = "check";
        label.appendChild(input);
        label.appendChild(name);
      } else {
        if (o.kind === "choice") {
          input = document.createElement("select");
          o.choices.forEach(function (c) {
            var opt = document.createElement("option");
            opt.textContent = c;
            input.appendChild(opt);
          });
        } else {
          input = document.createElement("input");
          input.autocomplete = "off";
          if (o.kind === "number") { input.type = "number"; input.inputMode = "numeric"; }
        }
        input.value = value;
        label.appendChild(name);
        label.appendChild(input);
      }
      input.id = "opt-" + o.name;
      input.addEventListener("change", showSpec);
      input.addEventListener("input", showSpec);
      row.appendChild(label);
      var doc = document.createElement("small");
      doc.textContent = o.doc;
      row.appendChild(doc);
      return row;
    };
    var drawOptions = function () {
      var p = preset();
      var box = $("options");
      box.textContent = "";
      shown = [];
      (data.options || []).forEach(function (section) {
        var options = section.options.filter(function (o) { return o.family === null || o.family === p.family; });
        if (!options.length) { return; }
        // a section opens on its own (a phone shows the section titles, not 60 options at once)
        var set = document.createElement("details");
        set.className = "sect";
        set.dataset.names = options.map(function (o) { return o.name; }).join(" ");
        var summary = document.createElement("summary");
        summary.textContent = section.title + " ";
        var count = document.createElement("span");
        count.className = "n";
        summary.appendChild(count);
        set.appendChild(summary);
        options.forEach(function (o) { set.appendChild(optionRow(o, p.values[o.name])); shown.push(o); });
        box.appendChild(set);
      });
      $("pool-row").className = p.pool ? "" : "hidden";  // a family whose sheet has no pool (Croatian: the start)
      showSpec();
    };
    $("rules").addEventListener("change", drawOptions);
    drawOptions();
    $("start").addEventListener("click", function () {
      var players = [0, 1, 2, 3].map(function (i) { return $("p" + i).value; });
      var form = {players: players, rules: spec(), whist_price: $("price").value, date: $("date").value};
      if (preset().pool) { form.pool = parseInt($("pool").value, 10); }
      post(ROOT + "/api/pulkas", form).then(function (r) {
        if (r.status === 201) {
          window.location.href = ROOT + r.body.url;
        } else {
          say(r.body.error, false);
        }
      });
    });
    return;
  }

  // --- a pulka's page: the next deal --------------------------------------------------------------
  var state = data.state;
  var entry = {};

  // an entry's own id: sent again (its answer lost), the server counts it once
  function newId() {
    var bytes = new Uint8Array(12);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }
  function reset() {
    entry = {kind: null, dealer: state.dealer, declarer: null, contract: null, calls: {}, contra: [], tricks: {},
             fix: null, seq: state.seq,  // the log as this entry saw it: another entry made meanwhile is a conflict (409)
             id: newId()};
  }
  // the seats dealt in, clockwise from first hand, for the entry's dealer (the server's seating)
  function seatsIn() {
    return entry.dealer !== null && state.seats_of[entry.dealer] ? state.seats_of[entry.dealer] : state.seats_in;
  }
  // the family's entry terms (the server's Family.entry): call words, the all-pass deal, the contra chain
  // the words of the entry's calls and of the history's kinds, as the page's language says them (a family
  // word of its own, such as igram, stays its own; the English names are the catalog's)
  var CALLS = {whist: _("whist"), pass: _("pass"), half: _("half-whist"), invite: _("invite"), concede: _("concede")};
  function callWord(call) {
    var own = terms().calls[call];
    return own === undefined || own === call ? CALLS[call] || call : own;
  }
  var KINDS = {entered: _("entered"), correction: _("correction"), strike: _("struck out")};
  function terms() { return state.terms || {calls: {}, all_pass: _("All pass"), all_pass_tricks: true, contra: []}; }
  // the defenders' calls on the chosen contract, by name (none: nobody calls, a misère)
  function contractCalls() {
    // the engine's answer where it has one: no calls on a checked ten
    if (state.paper && (state.paper.unwhisted || []).indexOf(entry.contract) >= 0) { return []; }
    var c = state.contracts.filter(function (x) { return x.text === entry.contract; })[0];
    return c ? (c.calls || (c.whist ? ["whist", "pass", "half"] : [])) : [];
  }
  function needsWhist() { return contractCalls().length > 0; }
  function tapped() { return Object.keys(entry.tricks).length > 0; }
  // the tricks as the form shows them: those tapped, and the one seat dealt in left blank filled in with
  // what the others leave of 10 (the server fills it in the same way: application/entry.py tricks_taken)
  function tricksShown() {
    var counts = {}, blank = [], left = 10;
    seatsIn().forEach(function (s) {
      if (entry.tricks[s] === undefined) { blank.push(s); } else { counts[s] = entry.tricks[s]; left -= entry.tricks[s]; }
    });
    var auto = blank.length === 1 && left >= 0 && left <= 10 ? blank[0] : null;
    if (auto !== null) { counts[auto] = left; }
    return {counts: counts, auto: auto};
  }
  function named(seats) {
    var names = seats.map(function (s) { return state.players[s]; });
    return names.length > 1 ? _("%(some)s and %(last)s", {some: names.slice(0, -1).join(", "), last: names[names.length - 1]})
      : names[0];
  }
  // what the deal still lacks, in a sentence (the server refuses the same: never a silent 0 or pass)
  function missing() {
    if (entry.kind === "contract") {
      if (entry.declarer === null) { return _("Tap the declarer"); }
      if (entry.contract === null) { return _("Tap the contract"); }
      var silent = needsWhist() && !entry.conceded ? defenders().filter(function (s) { return !entry.calls[s]; }) : [];
      if (silent.length) {
        var words = contractCalls().slice(0, 2).map(callWord);
        return _("No call from %(names)s on %(contract)s: tap %(first)s or %(second)s for each defender",
                 {names: named(silent), contract: entry.contract, first: words[0], second: words[1]});
      }
    }
    if (needsTricks() && (entry.kind === "raspasy" || tapped())) {
      var shown = tricksShown().counts;
      var blank = seatsIn().filter(function (s) { return shown[s] === undefined; });
      if (blank.length) {
        return _("The tricks of %(names)s are not entered: tap them (the last count is filled in from the others)", {names: named(blank)});
      }
    }
    return "";
  }
  function defenders() {
    var seats = seatsIn(), k = seats.indexOf(entry.declarer);
    if (k < 0) { return []; }
    return seats.slice(k + 1).concat(seats.slice(0, k));
  }
  function needsTricks() {
    if (entry.kind === "raspasy") { return terms().all_pass_tricks; }  // raspasy: tricks; refe: none
    if (entry.kind !== "contract" || entry.contract === null || entry.declarer === null) { return false; }
    if (entry.conceded) { return false; }  // «без трёх»: the deal ends without play
    if (entry.returned_by !== undefined && entry.returned_by !== null) { return true; }  // a returned whist
    if (!needsWhist()) { return true; }  // a misère: its tricks
    // a defended game: its tricks; nobody whisting, or a half-whist, is written without them
    return defenders().some(function (s) { return entry.calls[s] === "whist" || entry.calls[s] === "invite"; });
  }

  function drawSheet() {
    var holder = $("sheet");  // drawn by the server, every text in it escaped: as on paper, and for a phone
    holder.querySelector(".paper").innerHTML = state.svg;
    holder.querySelector(".portrait").innerHTML = state.portrait;
    var table = $("settle");
    var cols = terms().settle || [["player", ""], ["exact", ""], ["method1", ""], ["method2", ""], ["money", ""]];
    var heads = {player: _("Player"), exact: _("Exact"), method1: _("Method 1"), method2: _("Method 2"), money: _("Money")};
    var head = document.createElement("tr");
    cols.forEach(function (c) {
      var th = document.createElement("th");
      th.textContent = heads[c[0]] + (c[0] === "exact" && terms().points ? " (" + terms().points + ")" : "");
      head.appendChild(th);
    });
    table.tHead.textContent = "";
    table.tHead.appendChild(head);
    var body = table.tBodies[0];
    body.textContent = "";
    var names = terms().names || state.players;  // as the sheet shortens a name too long for the column
    state.players.forEach(function (p, i) {
      var tr = document.createElement("tr");
      cols.map(function (c) { return c[0] === "player" ? names[i] : ((state.settlement_shown || state.settlement)[c[0]] || {})[p]; }).forEach(function (v, k) {
        var td = document.createElement("td");
        td.textContent = v === undefined ? "" : String(v);
        if (cols[k][0] === "player" && names[i] !== p) { td.title = p; }
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
    $("last").textContent = state.last_entry || _("none yet");
    $("over").className = state.ended ? "msg" : "msg hidden";
    var hist = $("history");
    hist.textContent = "";
    state.history.forEach(function (h) {
      var li = document.createElement("li");
      li.textContent = _("deal %(n)s", {n: h.number}) + " · " + (KINDS[h.kind] || h.kind) + (h.at ? " · " + h.at : "") +
        (h.removed_by ? " · " + _("no longer counts") + " (" + (h.removed_at ? _("changed at %(at)s", {at: h.removed_at}) : _("changed")) + ")" : "");
      var pre = document.createElement("pre");
      pre.textContent = h.text;
      li.appendChild(pre);
      hist.appendChild(li);
    });
    var list = $("findings");
    list.textContent = "";
    (state.findings.length ? state.findings : [null]).forEach(function (f) {
      var li = document.createElement("li");
      li.textContent = f ? _("deal %(n)s", {n: f.deal}) + ": " + f.message : _("clean: no findings");
      list.appendChild(li);
    });
  }

  function drawEntry() {
    var section = $("entry");
    // a read-only link (or a public page without the join link) watches: no entry
    var closed = !data.write || state.ended || !state.live || state.dealer === null;
    section.className = closed ? "hidden" : "";
    if (closed) { return; }
    $("entryhead").textContent = entry.fix ? _("Correct deal") : _("Next deal");
    $("dealno").textContent = String(entry.fix || state.deals + 1);
    var fix = $("fix");
    fix.textContent = "";
    state.sheet_dealers.forEach(function (d, k) {
      var b = button(String(k + 1), function () {
        var again = entry.fix === k + 1;
        reset();
        if (!again) { entry.fix = k + 1; entry.dealer = d; }
        drawEntry();
      });
      b.setAttribute("aria-pressed", entry.fix === k + 1 ? "true" : "false");
      fix.appendChild(b);
    });
    $("strike").className = entry.fix ? "" : "hidden";
    $("enter").textContent = entry.fix ? _("Enter the correction") : _("Enter the deal");
    var dealer = $("dealer");
    dealer.textContent = "";
    (entry.fix ? [entry.dealer] : state.dealers).forEach(function (s) {
      var b = button(state.players[s], function () { entry.dealer = s; press(dealer, b); drawEntry(); });
      b.setAttribute("aria-pressed", s === entry.dealer ? "true" : "false");
      b.disabled = entry.fix !== null || state.dealers.length === 1;
      dealer.appendChild(b);
    });
    Array.prototype.forEach.call($("kind").children, function (b) {
      b.setAttribute("aria-pressed", b.getAttribute("data-kind") === entry.kind ? "true" : "false");
      if (b.getAttribute("data-kind") === "raspasy") { b.textContent = terms().all_pass; }
    });
    $("contract-part").className = entry.kind === "contract" ? "" : "hidden";
    var seats = seatsIn();
    var decl = $("declarer");
    decl.textContent = "";
    seats.forEach(function (s) {
      var b = button(state.players[s], function () { entry.declarer = s; entry.calls = {}; entry.contra = []; drawEntry(); });
      b.setAttribute("aria-pressed", s === entry.declarer ? "true" : "false");
      decl.appendChild(b);
    });
    var cs = $("contracts");
    cs.textContent = "";
    state.contracts.forEach(function (c) {
      var b = button(c.text, function () { entry.contract = c.text; drawEntry(); });
      b.setAttribute("aria-pressed", c.text === entry.contract ? "true" : "false");
      cs.appendChild(b);
    });
    var calls = $("calls");
    calls.textContent = "";
    if (entry.declarer !== null && entry.contract !== null && needsWhist()) {
      defenders().forEach(function (s) {
        var grid = seatRow(calls, s);
        contractCalls().forEach(function (call) {
          if (call === "half" && !halfOffered(s)) { return; }
          var b = button(callWord(call), function () { entry.calls[s] = call; drawEntry(); });
          b.setAttribute("data-seat", String(s));
          b.setAttribute("data-call", call);
          b.setAttribute("aria-pressed", entry.calls[s] === call ? "true" : "false");
          grid.appendChild(b);
        });
      });
      drawContra(calls);
    }
    drawAfterCalls();
    var tricks = $("tricks");
    tricks.textContent = "";
    if (needsTricks()) {
      var head = document.createElement("b");
      head.textContent = _("Tricks taken");
      tricks.appendChild(head);
      var shown = tricksShown();
      seats.forEach(function (s) {
        var grid = seatRow(tricks, s);
        grid.setAttribute("data-tricks", String(s));
        for (var t = 0; t <= 10; t++) {
          (function (t) {
            var b = button(String(t), function () { entry.tricks[s] = t; drawEntry(); });
            b.setAttribute("aria-pressed", shown.counts[s] === t ? "true" : "false");
            if (shown.auto === s && shown.counts[s] === t) {
              b.className = "auto";
              b.title = _("filled in: 10 tricks in all");
            }
            grid.appendChild(b);
          })(t);
        }
      });
    }
  }

  // the contra chain (kontra, rekontra …) where the family has one: each tap on a player adds his call
  function drawContra(parent) {
    var words = terms().contra || [];
    if (!words.length) { return; }
    var row = document.createElement("div");
    row.className = "row";
    row.id = "contra";
    var head = document.createElement("b");
    head.textContent = entry.contra.length ? entry.contra.map(function (s, k) {
      return words[Math.min(k, words.length - 1)] + ": " + state.players[s];
    }).join(" · ") : words[0] + "?";
    var grid = document.createElement("div");
    grid.className = "grid";
    var next = words[Math.min(entry.contra.length, words.length - 1)];
    defenders().concat([entry.declarer]).forEach(function (s) {
      var b = button(next + " " + state.players[s], function () { entry.contra.push(s); drawEntry(); });
      b.setAttribute("data-seat", String(s));
      grid.appendChild(b);
    });
    if (entry.contra.length) {
      grid.appendChild(button("×", function () { entry.contra = []; drawEntry(); }));
    }
    row.appendChild(head);
    row.appendChild(grid);
    parent.appendChild(row);
  }

  function payload() {
    var deal = {kind: entry.kind, dealer: entry.dealer};
    if (entry.kind === "contract") {
      deal.declarer = entry.declarer;
      deal.contract = entry.contract;
      deal.calls = {};
      if (needsWhist()) {  // the calls tapped: one left out is refused, never taken as a pass
        defenders().forEach(function (s) { if (entry.calls[s]) { deal.calls[s] = entry.calls[s]; } });
      }
      if (entry.contra.length) { deal.contra = entry.contra.slice(); }
    }
    if (entry.kind === "contract") { afterCallsPayload(deal); }
    // a contract's tricks once any is tapped (a game won without play has none); raspasy's always
    if (needsTricks() && (entry.kind === "raspasy" || tapped())) {
      // the counts shown (the last filled in); one still blank is null (refused), a seat not dealt in took 0
      var counts = tricksShown().counts, dealt = seatsIn();
      deal.tricks = state.players.map(function (_, s) {
        return counts[s] !== undefined ? counts[s] : dealt.indexOf(s) >= 0 ? null : 0;
      });
    }
    if (entry.fix) { return {expected_seq: entry.seq, deal: entry.fix, entry: deal, entry_id: entry.id}; }
    return {expected_seq: entry.seq, deal: deal, entry_id: entry.id};
  }

  // --- after the defenders' first calls: a returned whist, open or closed play, «без трёх» ------------
  // Each is offered only where the server's state.paper says the rules allow it (asked of the family's
  // deal machine there); what is entered is still audited by the engine, which refuses with its sentence.
  function paper() { return state.paper || {}; }
  function whisted() {  // the contract's defenders call whist or pass (not a misère, not a checked ten)
    return (paper().whisted || []).indexOf(entry.contract) >= 0;
  }
  function given(v) { return v !== undefined && v !== null; }
  // who may whist after the first calls, and how that row is headed
  function laterWhist() {
    var p = paper(), ds = defenders();
    if (ds.length !== 2 || !whisted()) { return {seats: [], head: ""}; }
    var c0 = entry.calls[ds[0]], c1 = entry.calls[ds[1]], four = state.players.length === 4;
    if (c0 === "pass" && c1 === "half") {
      var seats = p.returns ? [ds[0]] : [];
      if (four && p.dealer_returns) { seats.push(entry.dealer); }
      return {seats: seats, head: _("Whist returned after the half-whist")};
    }
    if (c0 === "half" && c1 === "pass" && four && p.dealer_returns) {  // half_whist_by=either
      return {seats: [entry.dealer], head: _("Whist returned after the half-whist")};
    }
    if (c0 === "pass" && c1 === "pass" && four && p.dealer_whists) {
      return {seats: [entry.dealer], head: _("The dealer whists (both passed)")};
    }
    return {seats: [], head: ""};
  }
  // the lone whister (one whist, or the whist returned), who may play open or closed
  function loneWhister() {
    if (given(entry.returned_by)) { return entry.returned_by; }
    if (defenders().some(function (s) { return !entry.calls[s]; })) { return null; }  // a call still to come
    var w = defenders().filter(function (s) { return entry.calls[s] === "whist"; });
    return w.length === 1 ? w[0] : null;
  }
  function extraRow(parent, head, id) {
    var row = document.createElement("div");
    row.className = "row";
    var b = document.createElement("b");
    b.textContent = head;
    var grid = document.createElement("div");
    grid.className = "grid";
    grid.id = id;
    row.appendChild(b);
    row.appendChild(grid);
    parent.appendChild(row);
    return grid;
  }
  // half-whist is offered to the first defender or to the second where the rules allow it on this contract
  function halfOffered(s) {
    var p = paper();
    if (!p.half_second) { return true; }  // a state without the engine's answer: offer it, the audit decides
    var list = defenders().indexOf(s) === 0 ? p.half_first : p.half_second;
    return list.indexOf(entry.contract) >= 0 || entry.calls[s] === "half";
  }
  function drawAfterCalls() {
    var box = $("after-calls");
    if (!box) { return; }
    box.textContent = "";
    var p = paper();
    var on = entry.kind === "contract" && entry.declarer !== null && entry.contract !== null && whisted();
    if (!on || !p.concede) { entry.conceded = false; }
    var later = on && !entry.conceded ? laterWhist() : {seats: [], head: ""};
    if (later.seats.indexOf(entry.returned_by) < 0) { entry.returned_by = null; }
    var lone = on && !entry.conceded && p.open_closed ? loneWhister() : null;
    if (lone === null) { entry.mode = null; }
    if (later.seats.length) {
      var back = extraRow(box, later.head, "returned");
      var no = button(_("no"), function () { entry.returned_by = null; drawEntry(); });
      no.setAttribute("aria-pressed", given(entry.returned_by) ? "false" : "true");
      back.appendChild(no);
      later.seats.forEach(function (s) {
        var b = button(state.players[s], function () { entry.returned_by = s; drawEntry(); });
        b.setAttribute("aria-pressed", entry.returned_by === s ? "true" : "false");
        back.appendChild(b);
      });
    }
    if (lone !== null) {
      var play = extraRow(box, _("%(name)s plays", {name: state.players[lone]}), "mode");
      ["open", "closed"].forEach(function (m) {
        var b = button(m === "open" ? _("open") : _("closed"), function () { entry.mode = entry.mode === m ? null : m; drawEntry(); });
        b.setAttribute("aria-pressed", entry.mode === m ? "true" : "false");
        play.appendChild(b);
      });
    }
    if (on && p.concede) {
      var give = extraRow(box, _("%(name)s concedes", {name: state.players[entry.declarer]}), "concede");
      var c = button(_("down three"), function () { entry.conceded = !entry.conceded; drawEntry(); });
      c.setAttribute("aria-pressed", entry.conceded ? "true" : "false");
      give.appendChild(c);
    }
  }
  function afterCallsPayload(deal) {
    if (given(entry.returned_by)) { deal.returned_by = entry.returned_by; }
    if (entry.mode) { deal.mode = entry.mode; }
    if (entry.conceded) { deal.conceded = true; }
  }

  function show(newState) {
    state = newState;
    $("conflict").className = "hidden";
    reset();
    drawSheet();
    drawEntry();
    document.dispatchEvent(new CustomEvent("preflog:state", {detail: state}));  // the card-level entry's
  }
  document.addEventListener("preflog:show", function (e) { show(e.detail); });  // a card-level deal entered

  Array.prototype.forEach.call($("kind").children, function (b) {
    b.addEventListener("click", function () { entry.kind = b.getAttribute("data-kind"); drawEntry(); });
  });
  // --- no lost taps -------------------------------------------------------------------------------
  // An entry is kept (localStorage, by pulka) from its Enter until the server answers it. Refused as stale
  // (409: another device entered first) the taps stay, beside what was entered, to enter as the next deal
  // or discard. Not sent (no connection, or the server is down: 5xx) it waits, and is sent again when the
  // connection is back, with its expected seq and id (counted once: the server answers 200 to a repeat).
  var WORDS = {
    waiting: function (n) { return _("Not sent yet: deal %(n)s waits for the connection and is sent when it is back", {n: n}); },
    mine: function (n, fix) {
      return fix ? _("Enter my correction of deal %(n)s again", {n: fix}) : _("Enter mine as deal %(n)s", {n: n});
    },
    entered: function (n, fix) { return fix ? _("Deal %(n)s corrected", {n: fix}) : _("Deal %(n)s entered", {n: n}); }
  };
  var KEY = "preflog-pending:" + state.id;
  function keep(p) { try { window.localStorage.setItem(KEY, JSON.stringify(p)); } catch (e) { /* private mode */ } }
  function kept() {
    try { return JSON.parse(window.localStorage.getItem(KEY) || "null"); } catch (e) { return null; }
  }
  function drop() { try { window.localStorage.removeItem(KEY); } catch (e) { /* private mode */ } }
  var retry = {timer: null, tries: 0};
  function pendingEntry() {
    return {path: entry.fix ? "/correct" : "/deals", body: payload(), entry: JSON.parse(JSON.stringify(entry))};
  }
  function waiting(p) {
    keep(p);
    $("pending").className = "msg wait";
    $("pending").textContent = WORDS.waiting(p.entry.fix || state.deals + 1);
    $("enter").disabled = true;
    window.clearTimeout(retry.timer);
    retry.timer = window.setTimeout(function () { send(p); }, Math.min(30000, 1000 * Math.pow(2, retry.tries++)));
  }
  function sent() {
    drop();
    window.clearTimeout(retry.timer);
    retry.tries = 0;
    $("pending").className = "msg wait hidden";
    $("enter").disabled = false;
  }
  function send(p) {
    $("enter").disabled = true;
    keep(p);
    post(ROOT + "/api/pulka/" + encodeURIComponent(state.id) + p.path, p.body).then(function (r) {
      if (r.status === 0 || r.status >= 500) { waiting(p); return; }
      sent();
      if (r.status === 201 || (r.status === 200 && r.body.state)) {  // 200: it was entered already, once
        show(r.status === 201 ? r.body : r.body.state);
        say(WORDS.entered(state.deals, p.entry.fix), true);
      } else if (r.status === 409 && r.body.state) {
        conflict(r.body, p.entry);
      } else {
        say(r.body.error, false);  // refused with its sentence: the taps stay, to put right
      }
    }, function () { waiting(p); });
  }
  function conflict(body, draft) {
    state = body.state;
    drawSheet();
    entry = draft;   // the taps as they were
    drawEntry();
    var since = $("since");
    since.textContent = "";
    (body.since || []).forEach(function (h) {
      var pre = document.createElement("pre");
      pre.textContent = h.text;
      since.appendChild(pre);
    });
    $("mine").textContent = WORDS.mine(state.deals + 1, entry.fix);
    $("conflict").className = "";
    say(body.error, false);
  }
  $("mine").addEventListener("click", function () {
    $("conflict").className = "hidden";
    entry.seq = state.seq;   // on the sheet as it stands now; the server checks it again
    if (!entry.fix && state.dealers.indexOf(entry.dealer) < 0) { entry.dealer = state.dealer; }
    drawEntry();
    send(pendingEntry());
  });
  $("discard").addEventListener("click", function () {
    $("conflict").className = "hidden";
    reset();
    drawEntry();
    say("", true);
  });
  window.addEventListener("online", function () {
    var p = kept();
    if (p) { window.clearTimeout(retry.timer); send(p); }
  });

  $("enter").addEventListener("click", function () {
    if (!entry.kind) { say(_("Choose a contract or %(all_pass)s first", {all_pass: terms().all_pass.toLowerCase()}), false); return; }
    var lacks = missing();
    if (lacks) { say(lacks, false); return; }  // said before sending; the server refuses it too
    $("conflict").className = "hidden";
    send(pendingEntry());
  });

  // Striking a deal out (undo) takes two taps, as ending does.
  var strikeArmed = false;
  $("strike").addEventListener("click", function () {
    var n = entry.fix;
    if (!strikeArmed) {
      strikeArmed = true;
      $("strike").textContent = _("Tap again to strike deal %(n)s out", {n: n});
      return;
    }
    strikeArmed = false;
    $("strike").textContent = _("Strike this deal out");
    post(ROOT + "/api/pulka/" + encodeURIComponent(state.id) + "/correct",
         {expected_seq: entry.seq, deal: n, entry: null}).then(function (r) {
      if (r.status === 201) {
        show(r.body);
        say(_("Deal %(n)s struck out", {n: n}), true);
      } else {
        if (r.status === 409 && r.body.state) { show(r.body.state); }
        say(r.body.error, false);
      }
    });
  });

  // Ending takes two taps: the first asks, the second ends ("closed" when every pulya is, else "stopped").
  var endArmed = false;
  $("end").addEventListener("click", function () {
    if (!endArmed) {
      endArmed = true;
      $("end").textContent = _("Tap again to end the pulka");
      return;
    }
    endArmed = false;
    $("end").textContent = _("End the pulka");
    post(ROOT + "/api/pulka/" + encodeURIComponent(state.id) + "/end", {expected_seq: state.seq}).then(function (r) {
      if (r.status === 201) {
        show(r.body);
      } else {
        if (r.status === 409 && r.body.state) { show(r.body.state); }
        say(r.body.error, false);
      }
    });
  });

  // Other phones at the table: the server says when the log grew (server-sent events, the log's length);
  // the page then fetches the state and redraws. Where no stream can be had (no EventSource, or the server
  // refused one: 503 when too many are open) it asks every few seconds instead.
  function refresh() {
    return fetch(ROOT + "/api/pulka/" + encodeURIComponent(state.id), {credentials: "same-origin"}).then(function (r) {
      return r.ok ? r.json() : null;
    }).then(function (s) {
      if (!s || s.seq === state.seq) { return; }
      if (entry.kind !== null || entry.fix !== null) {
        state = s;   // a deal is being entered here: the sheet redraws, the taps stay (entering it is then 409)
        drawSheet();
      } else {
        show(s);
      }
      say(_("The sheet was updated from another device"), true);
    }, function () {});
  }
  var polling = null;
  function poll() {
    if (polling === null) { polling = window.setInterval(refresh, data.poll_ms); }
  }
  if (window.EventSource) {
    var stream = new EventSource(ROOT + "/api/pulka/" + encodeURIComponent(state.id) + "/stream");
    stream.addEventListener("length", function (e) {
      if (parseInt(e.data, 10) !== state.seq) { refresh(); }
    });
    stream.addEventListener("error", function () {
      if (stream.readyState === EventSource.CLOSED) { poll(); }  // refused: it will not reconnect
    });
  } else {
    poll();
  }

  reset();
  var left = kept();   // an entry not yet answered when the page was left (or reloaded offline): sent now
  if (left) {
    entry = left.entry;
    drawEntry();
    send(left);
  } else {
    drawEntry();
  }
})();
