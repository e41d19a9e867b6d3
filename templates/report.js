/* Sort any table.sortable by a click on its header; filter the question table by its
   facets, with the view kept in the URL's # part (#questions?show=all&kind=table&sort=2-desc)
   so that a link shows the same rows. Optional: without this script every table is
   complete and readable, and the filters stay hidden. */
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
  function sortTable(table, column, ascending) {
    var header = table.tHead.rows[0];
    Array.prototype.forEach.call(header.cells, function (other) {
      other.removeAttribute("aria-sort");
    });
    header.cells[column].setAttribute("aria-sort", ascending ? "ascending" : "descending");
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (x, y) {
      var order = compare(key(x.cells[column]), key(y.cells[column]));
      return ascending ? order : -order;
    });
    rows.forEach(function (row) { body.appendChild(row); });
  }
  document.querySelectorAll("table.sortable").forEach(function (table) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, column) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "sort";
      while (th.firstChild) { button.appendChild(th.firstChild); }
      th.appendChild(button);
      button.addEventListener("click", function () {
        sortTable(table, column, th.getAttribute("aria-sort") !== "ascending");
        table.dispatchEvent(new CustomEvent("sorted"));
      });
    });
  });

  var form = document.getElementById("question-filters");
  var table = document.getElementById("question-table");
  if (!form || !table) { return; }
  var PREFIX = "#questions?";
  var count = form.querySelector("output");
  var fallback = form.getAttribute("data-default");
  var fields = Array.prototype.slice.call(form.querySelectorAll("select, input"));
  var headers = table.tHead.rows[0].cells;

  function currentSort() {
    for (var i = 0; i < headers.length; i += 1) {
      var order = headers[i].getAttribute("aria-sort");
      if (order) { return i + "-" + (order === "ascending" ? "asc" : "desc"); }
    }
    return "";
  }
  function matches(row) {
    return fields.every(function (field) {
      var value = field.value.trim().toLowerCase();
      if (field.name === "show") {
        return value !== "attention" || row.getAttribute("data-attention") === "1";
      }
      if (value === "") { return true; }
      if (field.name === "q") { return row.textContent.toLowerCase().indexOf(value) >= 0; }
      var have = (row.getAttribute("data-" + field.name) || "").toLowerCase();
      if (field.name === "slice") { return have.split("|").indexOf(value) >= 0; }
      return have === value;
    });
  }
  function apply() {
    var rows = table.tBodies[0].rows;
    var shown = 0;
    Array.prototype.forEach.call(rows, function (row) {
      row.hidden = !matches(row);
      if (!row.hidden) { shown += 1; }
    });
    count.textContent = shown + " of " + rows.length + " questions shown";
  }
  function save() {
    var params = new URLSearchParams();
    fields.forEach(function (field) {
      var value = field.value.trim();
      if (field.name === "show" ? value !== fallback : value !== "") {
        params.set(field.name, value);
      }
    });
    var sort = currentSort();
    if (sort) { params.set("sort", sort); }
    var text = params.toString();
    history.replaceState(null, "", text ? PREFIX + text : "#questions");
  }
  function load() {
    var hash = window.location.hash;
    var params = new URLSearchParams(hash.indexOf(PREFIX) === 0 ? hash.slice(PREFIX.length) : "");
    fields.forEach(function (field) {
      var wanted = params.get(field.name);
      if (field.name === "show") { wanted = wanted || fallback; }
      if (wanted === null) { wanted = ""; }
      if (field.tagName === "SELECT" &&
          !Array.prototype.some.call(field.options, function (o) { return o.value === wanted; })) {
        wanted = field.name === "show" ? fallback : "";
      }
      field.value = wanted;
    });
    var sort = /^(\d+)-(asc|desc)$/.exec(params.get("sort") || "");
    if (sort && Number(sort[1]) < headers.length) {
      sortTable(table, Number(sort[1]), sort[2] === "asc");
    }
    apply();
    return hash.indexOf(PREFIX) === 0;
  }
  form.hidden = false;
  form.addEventListener("submit", function (event) { event.preventDefault(); });
  fields.forEach(function (field) {
    field.addEventListener(field.tagName === "SELECT" ? "change" : "input", function () {
      apply();
      save();
    });
  });
  table.addEventListener("sorted", save);
  window.addEventListener("hashchange", load);
  if (load()) { document.getElementById("questions").scrollIntoView(); }
})();
