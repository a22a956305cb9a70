"use strict";
(async function () {
  const $ = (id) => document.getElementById(id);
  const data = await (await fetch("/api/games")).json();
  const games = {};
  for (const g of data.games) {
    games[g.id] = g;
    $("game").append(new Option(g.name, g.id));
  }
  for (const lv of data.levels) {
    $("level").append(new Option(lv.name, lv.name, false, lv.name === data.default_level));
  }
  function fill(select, lo, hi, value) {
    const keep = select.value === "" ? value : Number(select.value);
    select.replaceChildren();
    for (let i = lo; i <= hi; i++) select.append(new Option(String(i), String(i)));
    select.value = String(Math.min(Math.max(keep, lo), hi));
  }
  function update() {
    const g = games[$("game").value];
    fill($("players"), g.min_players, g.max_players, g.default_players);
    fill($("seat"), 0, Number($("players").value) - 1, 0);
    const lv = data.levels.find((l) => l.name === $("level").value);
    $("level-doc").textContent = lv ? `${lv.name}: ${lv.description} (${lv.spec})` : "";
  }
  $("game").addEventListener("change", update);
  $("players").addEventListener("change", update);
  $("level").addEventListener("change", update);
  if (data.seed_links) {      // the server deals from a given seed too (empty: a secret one)
    $("seed-field").hidden = false;
    $("seed-doc").hidden = false;
    $("seed").disabled = false;
  }
  update();
})();
