"use strict";
// What players expect beside the table (issue 37): every seat's points, a hint, a takeback,
// the record's download, the other people's links, and The Cat's pace (idle ticks pass by
// themselves) and keyboard shortcuts. play.js calls CatExtras.show(payload, hooks) after
// every payload it draws; hooks = { play(move), show(payload), busy() }.
window.CatExtras = (function () {
  const { h, seatName } = window.CatRender;
  const $ = (id) => document.getElementById(id);
  const app = document.getElementById("app");
  const api = `/api/game/${encodeURIComponent(app.dataset.game)}`;
  const PACE_KEY = "catsearch.pace";        // the idle tick's delay, ms; 0: off
  const PACE_DEFAULT = 1000;
  let hooks = null;
  let last = null;
  let paceTimer = null;
  let hintFor = null;       // the ply the hint shown is for
  let digits = "";          // The Cat: the digits typed so far (a pick or a swap)

  function pace() {
    const v = Number(localStorage.getItem(PACE_KEY));
    return Number.isFinite(v) && localStorage.getItem(PACE_KEY) !== null ? v : PACE_DEFAULT;
  }

  function pointsBox(p) {
    const scores = p.over && p.result ? p.result.scores : p.scores;
    return [h("span", { class: "label" }, "Points: "),
      ...scores.map((sc, i) => h("span", { class: i === p.seat ? "points you" : "points",
        "data-seat": i, "data-points": sc }, `${seatName(i, p.seat)} ${sc}`))];
  }

  async function post(path) {
    const resp = await fetch(`${api}/${path}`, { method: "POST" });
    const data = await resp.json().catch(() => ({ error: resp.statusText }));
    return { ok: resp.ok, data };
  }

  async function askHint() {
    if (!last || !last.your_turn) return;
    const box = $("hint-box");
    box.replaceChildren(h("span", { class: "spinner" }), " Working out a hint…");
    const { ok, data } = await post("hint");
    if (!ok) { box.textContent = `No hint: ${data.error}`; return; }
    hintFor = last.ply;
    box.replaceChildren(h("span", {}, "The AI's top moves (its value for you, 0 to 1):"),
      h("ol", { class: "hint-moves" }, data.moves.map((m) =>
        h("li", { "data-hint": m.move }, h("code", {}, m.move),
          m.value === null ? "" : ` ${m.value.toFixed(3)} (${m.visits.toLocaleString()} visits)`))));
  }

  async function takeback() {
    if (!last || !last.can_takeback) return;
    const { ok, data } = await post("takeback");
    if (!ok) { $("status").textContent = `No takeback: ${data.error}`; return; }
    $("hint-box").replaceChildren();
    hooks.show(data);
  }

  function paceBox(p) {
    if (p.game !== "the-cat" || p.over) return null;
    const ms = pace();
    return h("label", { class: "pace", title: "your idle ticks (wait) are played for you after this delay, unless you act first" },
      "Idle ticks pass by themselves after ",
      h("select", { id: "pace", onchange: (e) => { localStorage.setItem(PACE_KEY, e.target.value); schedulePace(last); } },
        [0, 300, 600, 1000, 1500, 2500, 4000].map((v) => {
          const o = new Option(v === 0 ? "never (off)" : `${v / 1000} s`, String(v));
          o.selected = v === ms;
          return o;
        })),
      h("span", { class: "hint" }, " · keys: Space wait, W wait until something changes, S stop, digits pick/swap (pick2 = 2, swap13 = 1 3)"));
  }

  function schedulePace(p) {
    clearTimeout(paceTimer);
    paceTimer = null;
    const ms = pace();
    if (!p || p.game !== "the-cat" || !p.your_turn || !p.legal.includes("wait") || ms <= 0) return;
    const ply = p.ply;
    app.dataset.pace = String(ms);
    paceTimer = setTimeout(() => {
      if (last && last.ply === ply && last.your_turn && !hooks.busy() && digits === "") hooks.play("wait");
    }, ms);
  }

  function linksBox(p) {
    const seats = Object.keys(p.links || {});
    if (seats.length === 0) return null;
    return h("details", { class: "links", open: p.ply === 0 ? "" : null },
      h("summary", {}, "Links for the other people at this table"),
      h("p", { class: "hint" }, "Each link plays its seat and shows that seat's cards only: give it to that person alone."),
      h("ul", {}, seats.map((s) => {
        const url = new URL(p.links[s], location.href).href;
        return h("li", {}, `Seat ${s}: `, h("a", { href: url, "data-seat-link": s, target: "_blank" }, url));
      })));
  }

  function show(p, hk) {
    hooks = hk;
    last = p;
    $("points").replaceChildren(...pointsBox(p));
    if (hintFor !== null && hintFor !== p.ply) { $("hint-box").replaceChildren(); hintFor = null; }
    const people = (p.humans || [p.seat]).length;
    const tools = [];
    if (!p.over && !p.error) {
      tools.push(h("button", { type: "button", id: "hint", disabled: p.your_turn ? null : "",
        title: "the AI's top moves here, with their values (key H)", onclick: askHint }, "Hint (H)"));
      if (people === 1) {
        tools.push(h("button", { type: "button", id: "takeback", disabled: p.can_takeback ? null : "",
          title: "undo to your previous turn (key U)", onclick: takeback }, "Take back (U)"));
      }
    }
    if (p.over) {
      tools.push(h("a", { id: "download", href: `${api}/record`, download: "" }, "Download the game record"),
        " · ", h("a", { href: "/replay" }, "Open a record in the replay viewer"));
    }
    if (p.takebacks > 0) tools.push(h("span", { class: "hint" }, ` Takebacks: ${p.takebacks}.`));
    $("tools").replaceChildren(...tools);
    $("extras-more").replaceChildren(...[paceBox(p), linksBox(p)].filter((x) => x));
    schedulePace(p);
  }

  document.addEventListener("keydown", (e) => {
    if (!last || e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement
        || e.ctrlKey || e.metaKey || e.altKey) return;
    const k = e.key;
    if ((k === "h" || k === "H") && last.your_turn) askHint();
    else if ((k === "u" || k === "U") && last.can_takeback) takeback();
    if (last.game !== "the-cat" || !last.your_turn || hooks.busy()) return;
    const legal = last.legal;
    if (k === " " && legal.includes("wait")) { e.preventDefault(); hooks.play("wait"); }
    else if ((k === "s" || k === "S") && legal.includes("stop")) hooks.play("stop");
    else if (k === "Escape") digits = "";
    else if (/^[0-9]$/.test(k)) {
      digits += k;
      if (legal.includes(`pick${digits}`)) { const m = `pick${digits}`; digits = ""; hooks.play(m); }
      else if (legal.includes(`swap${digits}`)) { const m = `swap${digits}`; digits = ""; hooks.play(m); }
      else if (!legal.some((m) => m.startsWith(`swap${digits}`))) digits = "";
    }
  });

  return { show };
})();
