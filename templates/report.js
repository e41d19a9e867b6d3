/* Sort any table.sortable by a click on its header; filter table.filterable by text.
   Optional: every table is complete and readable without this script. */
(function () {
  "use strict";
  function key(cell) {
    var text = cell.getAttribute("data-value");
    if (text === null) { text = cell.textContent.trim(); }
    var number = parseFloat(text);
    return isNaN(number) ? text.toLowerCase() : number;
  }
  function compare(a, b) {
    if (typeof a === typeof b) { return a < b ? -1 : a > b ? 1 : 0; }
    return typeof a === "number" ? -1 : 1;
  }
  document.querySelectorAll("table.sortable").forEach(function (table) {
    var header = table.tHead.rows[0];
    Array.prototype.forEach.call(header.cells, function (th, column) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "sort";
      while (th.firstChild) { button.appendChild(th.firstChild); }
      th.appendChild(button);
      button.addEventListener("click", function () {
        var ascending = th.getAttribute("aria-sort") !== "ascending";
        Array.prototype.forEach.call(header.cells, function (other) {
          other.removeAttribute("aria-sort");
        });
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (x, y) {
          var order = compare(key(x.cells[column]), key(y.cells[column]));
          return ascending ? order : -order;
        });
        rows.forEach(function (row) { body.appendChild(row); });
      });
    });
  });
  document.querySelectorAll("table.filterable").forEach(function (table) {
    var label = document.createElement("label");
    label.className = "filter";
    label.textContent = "Filter questions ";
    var input = document.createElement("input");
    input.type = "search";
    input.placeholder = "id, kind, chunk id, cell…";
    label.appendChild(input);
    table.parentNode.parentNode.insertBefore(label, table.parentNode);
    input.addEventListener("input", function () {
      var query = input.value.trim().toLowerCase();
      Array.prototype.forEach.call(table.tBodies[0].rows, function (row) {
        row.hidden = query !== "" && row.textContent.toLowerCase().indexOf(query) < 0;
      });
    });
  });
})();
