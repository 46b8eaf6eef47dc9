/* Sortable tables: click a header; numeric columns sort by data-v, names by their full text
   (data-full of a name cut in the middle). Copying a cut name copies the full one.
   No network, no libraries. */
(function () {
  function key(td, numeric) {
    if (!td) return numeric ? -Infinity : "";
    if (numeric) {
      var v = parseFloat(td.getAttribute("data-v"));
      return isNaN(v) ? -Infinity : v;
    }
    return (td.getAttribute("data-full") || td.textContent).toLowerCase();
  }
  document.addEventListener("copy", function (e) {
    var sel = window.getSelection(), node = sel && sel.anchorNode;
    var td = node && (node.nodeType === 1 ? node : node.parentElement);
    td = td && td.closest ? td.closest("td.el") : null;
    if (!td || !e.clipboardData || !td.contains(sel.focusNode)) return;
    e.clipboardData.setData("text/plain", td.getAttribute("data-full"));
    e.preventDefault();
  });
  function sort(th) {
    var table = th.closest("table"), tbody = table.tBodies[0];
    var col = Array.prototype.indexOf.call(th.parentNode.children, th);
    var numeric = th.classList.contains("n");
    var asc = th.getAttribute("aria-sort") !== "ascending";
    var rows = Array.prototype.slice.call(tbody.rows);
    rows.sort(function (a, b) {
      var x = key(a.cells[col], numeric), y = key(b.cells[col], numeric);
      return (x < y ? -1 : x > y ? 1 : 0) * (asc ? 1 : -1);
    });
    rows.forEach(function (r) { tbody.appendChild(r); });
    Array.prototype.forEach.call(th.parentNode.children, function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", asc ? "ascending" : "descending");
  }
  document.querySelectorAll("table.sortable th").forEach(function (th) {
    th.addEventListener("click", function () { sort(th); });
  });
})();
