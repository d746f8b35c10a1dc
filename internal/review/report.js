"use strict";
(function () {
  var list = document.getElementById("change-list");
  var data = JSON.parse(document.getElementById("changes-data").textContent || "[]");
  var groups = JSON.parse(document.getElementById("group-modules").textContent || "{}");
  var search = document.getElementById("search");
  var fAction = document.getElementById("f-action");
  var fModule = document.getElementById("f-module");
  var fType = document.getElementById("f-type");
  var shown = document.getElementById("shown");
  var items = new Array(data.length); // the list entries made so far
  var byID = {};
  for (var k = 0; k < data.length; k++) byID[data[k].id] = k;
  var made = 0; // entries 0..made-1 are in the list
  var texts = null; // lower-case address and diff of each change, made on the first search
  var CHUNK = 400;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  // make builds the entry of change i (textContent only: nothing from
  // the plan is parsed as HTML).
  function make(i) {
    var r = data[i];
    var li = el("li", "change" + (r.x ? " destructive" : ""));
    li.id = "c-" + r.id;
    li.dataset.action = r.a; li.dataset.module = r.m; li.dataset.type = r.t; li.dataset.addr = r.addr;
    var sum = el("div", "sum");
    sum.tabIndex = 0;
    sum.setAttribute("role", "button");
    sum.setAttribute("aria-expanded", "false");
    sum.appendChild(el("span", "act act-" + r.a, r.l));
    sum.appendChild(document.createTextNode(" "));
    sum.appendChild(el("code", "", r.addr));
    if (r.n) sum.appendChild(el("span", "in", " in " + r.n));
    li.appendChild(sum);
    li.hidden = !matches(i);
    items[i] = li;
    return li;
  }
  function makeUpTo(n) {
    var frag = document.createDocumentFragment();
    for (; made < n && made < data.length; made++) frag.appendChild(make(made));
    list.appendChild(frag);
    if (made >= data.length) list.dataset.complete = "true";
  }
  function more() {
    makeUpTo(made + CHUNK);
    if (made < data.length) setTimeout(more, 0);
  }
  // open shows the diff of an entry, made the first time.
  function open(li, yes) {
    var pre = li.querySelector("pre");
    if (yes && !pre) {
      pre = el("pre", "diff");
      var lines = data[byID[li.id.slice(2)]].d.split("\n");
      for (var i = 0; i < lines.length; i++) {
        var line = lines[i], t = line.replace(/^ +/, ""), cls = "";
        if (/^(-\/\+|\+\/-|~)/.test(t)) cls = "chg";
        else if (t.charAt(0) === "+") cls = "add";
        else if (t.charAt(0) === "-") cls = "del";
        var text = line + (i < lines.length - 1 ? "\n" : "");
        pre.appendChild(cls ? el("span", cls, text) : document.createTextNode(text));
      }
      li.appendChild(pre);
    }
    li.classList.toggle("open", yes);
    li.querySelector(".sum").setAttribute("aria-expanded", String(yes));
  }
  list.addEventListener("click", function (ev) {
    var sum = ev.target.closest(".sum");
    if (sum) open(sum.parentNode, !sum.parentNode.classList.contains("open"));
  });
  list.addEventListener("keydown", function (ev) {
    var sum = ev.target.closest(".sum");
    if (sum && (ev.key === "Enter" || ev.key === " ")) {
      ev.preventDefault();
      open(sum.parentNode, !sum.parentNode.classList.contains("open"));
    }
  });

  function matches(i) {
    var r = data[i], q = search.value.trim().toLowerCase();
    if (fAction.value && r.a !== fAction.value) return false;
    if (fModule.value && r.m !== fModule.value) return false;
    if (fType.value && r.t !== fType.value) return false;
    if (!q) return true;
    if (texts === null) texts = data.map(function (r) { return (r.addr + "\n" + r.d).toLowerCase(); });
    return texts[i].indexOf(q) >= 0;
  }
  function apply() {
    var n = 0;
    for (var i = 0; i < data.length; i++) {
      var ok = matches(i);
      if (ok) n++;
      if (i < made && items[i].hidden === ok) items[i].hidden = !ok;
    }
    shown.textContent = n + " of " + data.length + " changes shown";
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
    open(li, true);
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
    var i = byID[key];
    if (i === undefined) return;
    makeUpTo(i + 1);
    if (items[i].hidden) { clearFilters(); apply(); }
    select(items[i]);
  });
  apply();
  makeUpTo(CHUNK);
  if (made < data.length) window.addEventListener("load", function () { setTimeout(more, 0); });
})();
