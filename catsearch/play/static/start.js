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
    $("level").append(new Option(lv.label || lv.name, lv.name, false, lv.name === data.default_level));
  }
  function fill(select, lo, hi, value) {
    const keep = select.value === "" ? value : Number(select.value);
    select.replaceChildren();
    for (let i = lo; i <= hi; i++) select.append(new Option(String(i), String(i)));
    select.value = String(Math.min(Math.max(keep, lo), hi));
  }
  // the game's options (GameSpec.options): empty fields keep the default; the server checks
  // them (a 400 naming the option and the value)
  let optionsOf = null;
  function options(g) {
    if (optionsOf === g.id) return;
    optionsOf = g.id;
    const box = $("option-fields");
    box.replaceChildren();
    for (const o of g.options) {
      let input;
      if (o.kind === "choice" || o.kind === "bool") {
        input = document.createElement("select");
        for (const c of (o.kind === "bool" ? ["true", "false"] : o.choices)) {
          input.append(new Option(c === o.default ? `${c} (default)` : c, c, false, c === o.default));
        }
      } else {
        input = document.createElement("input");
        input.placeholder = o.default;
        if (o.kind === "int") input.inputMode = "numeric";
      }
      input.name = `opt.${o.name}`;
      input.id = `opt-${o.name}`;
      const label = document.createElement("label");
      label.append(`${o.name} `, input);
      const doc = document.createElement("p");
      doc.className = "hint";
      doc.textContent = o.doc;
      box.append(label, doc);
    }
    $("options").hidden = g.options.length === 0;
  }
  function people() {
    const n = Number($("players").value), me = Number($("seat").value);
    const keep = new Set($("humans").value.split(",").filter((x) => x !== "").map(Number));
    const box = $("people-seats");
    box.replaceChildren();
    for (let s = 0; s < n; s++) {
      if (s === me) continue;
      const cb = document.createElement("input");
      cb.type = "checkbox";
      cb.id = `person-${s}`;
      cb.dataset.seat = String(s);
      cb.checked = keep.has(s);
      cb.addEventListener("change", sync);
      const label = document.createElement("label");
      label.append(cb, ` seat ${s}`);
      box.append(label);
    }
    sync();
  }
  function sync() {
    $("humans").value = [...document.querySelectorAll("#people-seats input:checked")]
      .map((cb) => cb.dataset.seat).join(",");
  }
  function update() {
    const g = games[$("game").value];
    fill($("players"), g.min_players, g.max_players, g.default_players);
    fill($("seat"), 0, Number($("players").value) - 1, 0);
    options(g);
    people();
    const lv = data.levels.find((l) => l.name === $("level").value);
    // a level plays its game's own rung: say that one, not the common ladder's
    const rung = lv ? g.ladder[Number(lv.spec.split("=").pop()) - 1] : "";
    $("level-doc").textContent = lv ? `${lv.name}: ${rung || lv.description} (${lv.spec})` : "";
  }
  $("game").addEventListener("change", update);
  $("players").addEventListener("change", update);
  $("level").addEventListener("change", update);
  $("seat").addEventListener("change", people);
  if (data.seed_links) {      // the server deals from a given seed too (empty: a secret one)
    $("seed-field").hidden = false;
    $("seed-doc").hidden = false;
    $("seed").disabled = false;
  }
  // a refused game (a bad option) says why on the page, not as a JSON page
  $("start").addEventListener("submit", async (e) => {
    e.preventDefault();
    const body = new URLSearchParams(new FormData($("start")));
    const resp = await fetch("/play", { method: "POST", body });
    if (resp.ok && resp.redirected) { location.assign(resp.url); return; }
    const err = await resp.json().catch(() => ({ error: resp.statusText }));
    $("start-error").textContent = `Not started: ${err.error}`;
    $("start-error").hidden = false;
  });
  update();
})();
