"use strict";
// The report's pulka table sorts by a column when its heading is pressed (again: the other way round).
for (const table of document.querySelectorAll("table.pulkas")) {
  const heads = [...table.tHead.rows[0].cells];
  heads.forEach((th, col) => th.querySelector("button").addEventListener("click", () => {
    const down = th.getAttribute("aria-sort") === "ascending";
    const num = th.dataset.kind === "num";
    const key = tr => { const td = tr.cells[col]; return num ? +(td.dataset.sort || td.textContent) : td.textContent.trim(); };
    const body = table.tBodies[0], rows = [...body.rows];
    rows.sort((a, b) => { const x = key(a), y = key(b);
      const c = num ? x - y : x.localeCompare(y, undefined, {numeric: true, sensitivity: "base"});
      return down ? -c : c; });
    for (const r of rows) body.appendChild(r);
    for (const h of heads) h.removeAttribute("aria-sort");
    th.setAttribute("aria-sort", down ? "descending" : "ascending");
  }));
}
