"use strict";
(function () {
  var list = document.getElementById("change-list");
  var items = Array.prototype.slice.call(list.querySelectorAll("li.change"));
  var search = document.getElementById("search");
  var fAction = document.getElementById("f-action");
  var fModule = document.getElementById("f-module");
  var fType = document.getElementById("f-type");
  var shown = document.getElementById("shown");
  var groups = JSON.parse(document.getElementById("group-modules").textContent || "{}");
  var texts = null; // lower-case address and diff of each item, made on the first search

  function apply() {
    var q = search.value.trim().toLowerCase();
    var a = fAction.value, m = fModule.value, t = fType.value;
    if (q && texts === null) {
      texts = items.map(function (li) { return li.textContent.toLowerCase(); });
    }
    var n = 0;
    for (var i = 0; i < items.length; i++) {
      var li = items[i], d = li.dataset;
      var ok = (!a || d.action === a) && (!m || d.module === m) && (!t || d.type === t) &&
        (!q || texts[i].indexOf(q) >= 0);
      if (li.hidden === ok) li.hidden = !ok;
      if (ok) n++;
    }
    shown.textContent = n + " of " + items.length + " changes shown";
  }
  search.addEventListener("input", apply);
  fAction.addEventListener("change", apply);
  fModule.addEventListener("change", apply);
  fType.addEventListener("change", apply);

  function clearFilters() {
    search.value = ""; fAction.value = ""; fModule.value = ""; fType.value = "";
  }
  function select(li) {
    var prev = list.querySelectorAll("li.selected");
    for (var i = 0; i < prev.length; i++) prev[i].classList.remove("selected");
    li.classList.add("selected");
    li.querySelector("details").open = true;
    li.scrollIntoView({ block: "center" });
  }
  document.addEventListener("click", function (ev) {
    var g = ev.target.closest && ev.target.closest("svg g.node");
    if (!g || !g.id) return;
    var key = g.id.replace(/^g-/, "");
    if (Object.prototype.hasOwnProperty.call(groups, key)) {
      clearFilters();
      fModule.value = groups[key];
      apply();
      document.getElementById("changes").scrollIntoView();
      return;
    }
    var li = document.getElementById("c-" + key);
    if (!li) return;
    if (li.hidden) { clearFilters(); apply(); }
    select(li);
  });
  apply();
})();
