"use strict";
// The report's pulka table sorts by a column when its heading is pressed (again: the other way round).
// A long one shows its first PAGE rows (the rows the page marked "more" wait) and a button for all of them.
const PAGE = 20;
for (const table of document.querySelectorAll("table.pulkas")) {
  const heads = [...table.tHead.rows[0].cells];
  const count = table.tBodies[0].rows.length;
  if (count > PAGE) {
    const all = document.createElement("button");
    all.type = "button";
    all.className = "all";
    const say = () => { const paged = table.classList.contains("paged");
      all.textContent = paged ? `Show all ${count} pulkas` : `Show the first ${PAGE}`;
      all.setAttribute("aria-expanded", paged ? "false" : "true"); };
    all.addEventListener("click", () => { table.classList.toggle("paged"); say(); });
    table.classList.add("paged");
    say();
    table.closest(".tw").after(all);
  }
  heads.forEach((th, col) => th.querySelector("button").addEventListener("click", () => {
    const down = th.getAttribute("aria-sort") === "ascending";
    const num = th.dataset.kind === "num";
    const key = tr => { const td = tr.cells[col]; return num ? +(td.dataset.sort || td.textContent) : td.textContent.trim(); };
    const body = table.tBodies[0], rows = [...body.rows];
    rows.sort((a, b) => { const x = key(a), y = key(b);
      const c = num ? x - y : x.localeCompare(y, undefined, {numeric: true, sensitivity: "base"});
      return down ? -c : c; });
    rows.forEach((r, i) => { body.appendChild(r); r.classList.toggle("more", i >= PAGE); });
    for (const h of heads) h.removeAttribute("aria-sort");
    th.setAttribute("aria-sort", down ? "descending" : "ascending");
  }));
}
