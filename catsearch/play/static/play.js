"use strict";
// The play page: polls the seat's payload, draws it, and plays the person's clicks.
(function () {
  const { h, renderGame, seatName } = window.CatRender;
  const app = document.getElementById("app");
  const gid = app.dataset.game;
  const api = `/api/game/${encodeURIComponent(gid)}`;
  const $ = (id) => document.getElementById(id);
  let busy = false;       // a move is on its way
  let timer = null;
  let last = null;        // the last payload
  let replayAt = null;    // the replay frame shown
  let auto = null;        // The Cat's "wait until something changes": {ticks, stop}
  // at most this many wait ticks a click (a round of The Cat has at most 200 ticks)
  const AUTO_MAX_TICKS = 200;
  const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

  function schedule(ms) {
    clearTimeout(timer);
    timer = setTimeout(poll, ms);
  }

  async function poll() {
    let resp;
    try {
      resp = await fetch(api, { cache: "no-store" });
    } catch (e) {
      $("status").textContent = "The server cannot be reached; retrying…";
      schedule(2000);
      return;
    }
    if (!resp.ok) {
      const err = await resp.json().catch(() => ({ error: resp.statusText }));
      $("status").textContent = `This game is gone: ${err.error}`;
      $("moves").replaceChildren(h("a", { href: "/" }, "Start a new game"));
      return;
    }
    show(await resp.json());
  }

  async function play(move) {
    if (busy || auto) return;
    busy = true;
    window.CatTable.disarm();
    $("moves").replaceChildren(h("p", { class: "hint" }, `Playing ${move}…`));
    try {
      const resp = await fetch(`${api}/move`, {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ move }),
      });
      const data = await resp.json();
      if (!resp.ok) {
        $("status").textContent = `Refused: ${data.error}`;
        busy = false;
        poll();
        return;
      }
      busy = false;
      show(data);
    } catch (e) {
      busy = false;
      $("status").textContent = "The move could not be sent; retrying…";
      schedule(1000);
    }
  }

  function statusLine(p) {
    if (p.error) return h("span", { class: "error" }, p.error);
    if (p.over) return h("strong", {}, "The game is over.");
    if (p.your_turn) return h("strong", { class: "your-turn" }, "Your turn: play on the table (or pick a move below).");
    if (p.thinking) {
      // the count comes from the search's progress reports (about ten a second): a quick
      // search is over before the first one, and then no count is shown
      const n = p.thinking.iterations;
      return h("span", { class: "thinking" }, h("span", { class: "spinner" }),
        `${seatName(p.thinking.seat, p.seat)} is thinking…`,
        n > 0 ? h("span", { "data-iterations": n }, ` ${n.toLocaleString()} iterations`) : null);
    }
    if (p.to_move === p.seat) return h("span", {}, "Your turn is coming…");
    return h("span", {}, p.to_move >= 0 ? `${seatName(p.to_move, p.seat)} to move…` : "Waiting…");
  }

  // What "something changes" means in The Cat: the centre, your own piles (a card, what is
  // known of them, the one in your hand), the round, the scores. Another seat picking a
  // pile up does not stop the waiting (its swap changes the centre, and does).
  function tableKey(p) {
    const f = p.view.fields, me = p.seat;
    return [f.centre, f.piles.split("/")[me], f.known.split("/")[me], f.held.split(",")[me],
      f.round, f.scores].join(" ");
  }

  async function fetchPayload() {
    const resp = await fetch(api, { cache: "no-store" });
    if (!resp.ok) throw new Error(`the server answered ${resp.status}`);
    return resp.json();
  }

  // Play `wait` tick after tick, each time the person's turn comes back, until the table
  // changes, the round or the game ends, wait is no longer offered, the person stops it, or
  // AUTO_MAX_TICKS ticks went by.
  async function autoWait() {
    if (busy || auto || !last || !last.your_turn || !last.legal.includes("wait")) return;
    const start = tableKey(last);
    auto = { ticks: 0, stop: false };
    app.dataset.auto = "running";     // while it runs (tests wait for it to go)
    clearTimeout(timer);
    $("moves").replaceChildren(...autoBox(last));
    try {
      while (!auto.stop && auto.ticks < AUTO_MAX_TICKS) {
        const resp = await fetch(`${api}/move`, {
          method: "POST", headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ move: "wait" }),
        });
        let p = await resp.json();
        if (!resp.ok) { $("status").textContent = `Refused: ${p.error}`; break; }
        auto.ticks += 1;
        for (let k = 0; k < 3000 && !p.your_turn && !p.over && !p.error; k++) {
          await sleep(p.thinking ? 100 : 30);
          p = await fetchPayload();
        }
        show(p);
        if (p.over || p.error || !p.your_turn || !p.legal.includes("wait") || tableKey(p) !== start) break;
      }
    } catch (e) {
      $("status").textContent = "The server cannot be reached; retrying…";
    }
    auto = null;
    delete app.dataset.auto;
    poll();
  }

  function autoBox(p) {
    if (auto) {
      return [h("p", { class: "hint auto" }, `Waiting until something changes… ${auto.ticks} tick${auto.ticks === 1 ? "" : "s"} `,
        h("button", { type: "button", id: "auto-stop", onclick: () => { if (auto) auto.stop = true; } }, "Stop waiting"))];
    }
    if (!p.your_turn || !p.legal.includes("wait")) return [];
    return [h("button", { type: "button", class: "auto-wait", id: "auto-wait", "data-auto": "wait",
      title: "play wait, tick after tick, until the centre or a pile changes or the round ends (key W)",
      onclick: autoWait }, "Wait until something changes (W)")];
  }

  function movesBox(p) {
    if (auto) return autoBox(p);
    if (!p.your_turn || p.legal.length === 0) {
      if (p.over || p.error || p.to_move === p.seat) return [];
      return [h("p", { class: "hint" }, "Waiting for the other seats.")];
    }
    return [h("h2", {}, "Your move: click a card, pile or square on the table"), ...autoBox(p),
      window.CatTable.typeBox(p, play),
      h("details", { class: "by-notation", open: true }, h("summary", {}, `All moves by notation (${p.legal.length})`),
        h("div", { class: "move-list" }, p.legal.map((m) =>
          h("button", { type: "button", class: "move", "data-move": m, onclick: () => play(m) }, m))))];
  }

  function logBox(p) {
    return p.log.map((e) => h("li", { class: e.seat === p.seat ? "mine" : "" },
      h("span", { class: "words", title: e.text }, e.words || e.text)));
  }

  function showFrame(p, i) {
    const frames = p.result.replay;
    replayAt = Math.max(0, Math.min(frames.length - 1, i));
    const fr = frames[replayAt];
    const fields = Object.fromEntries(fr.text.split(" ").map((kv) => {
      const k = kv.indexOf("=");
      return [kv.slice(0, k), kv.slice(k + 1)];
    }));
    const box = $("replay-frame");
    box.replaceChildren(
      h("p", {}, fr.move === null ? "The deal (every card shown)." :
        `Move ${fr.ply} of ${frames.length - 1}: ${seatName(fr.seat, p.seat)} played `, fr.move === null ? null : h("code", {}, fr.move)),
      renderGame(p.render, fields, { seat: p.seat, toMove: -1 }),
      h("details", {}, h("summary", {}, "Text view"), h("pre", {}, fr.picture)));
    $("replay-pos").value = String(replayAt);
  }

  function resultBox(p) {
    const r = p.result;
    const best = Math.max(...r.returns);
    const winners = r.returns.map((v, i) => (v === best && best > 0 ? i : null)).filter((x) => x !== null);
    const verdict = winners.includes(p.seat)
      ? (winners.length > 1 ? "You share the win!" : "You win!")
      : `${winners.map((w) => seatName(w, p.seat)).join(" and ")} ${winners.length > 1 ? "share the win" : "wins"}.`;
    const frames = r.replay.length;
    return [
      h("h2", {}, "Result"),
      h("p", { class: "verdict" }, verdict),
      h("p", { class: "reason", "data-reason": r.reason }, `The game ended: ${r.reason}.`),
      h("p", { class: "final-scores" }, "Final scores: ",
        r.scores.map((sc, i) => `${seatName(i, p.seat)} ${sc}`).join(" · ")),
      h("table", { class: "scores", "data-result": JSON.stringify(r.scores) },
        h("tr", {}, h("th", {}, "Seat"), h("th", {}, "Score"), h("th", {}, "Share of the win")),
        r.scores.map((sc, i) => h("tr", { class: i === p.seat ? "you" : "" },
          h("td", {}, seatName(i, p.seat)), h("td", {}, String(sc)), h("td", {}, r.returns[i].toFixed(2))))),
      h("h3", {}, "Every hand, revealed"),
      renderGame(p.render, r.fields, { seat: p.seat, toMove: -1, scores: r.scores }),
      h("h3", {}, "Replay"),
      h("div", { class: "replay-controls" },
        h("button", { type: "button", onclick: () => showFrame(p, 0) }, "first"),
        h("button", { type: "button", onclick: () => showFrame(p, replayAt - 1) }, "◀ back"),
        h("input", { type: "range", id: "replay-pos", min: 0, max: frames - 1, value: 0,
          oninput: (e) => showFrame(p, Number(e.target.value)) }),
        h("button", { type: "button", onclick: () => showFrame(p, replayAt + 1) }, "next ▶"),
        h("button", { type: "button", onclick: () => showFrame(p, frames - 1) }, "last")),
      h("div", { id: "replay-frame" }),
      h("p", { class: "deal" }, r.seed === null ? "" : `The deal's seed: ${r.seed}. `,
        r.link ? h("a", { href: r.link }, "Play this deal again") : null, r.link ? " · " : null,
        h("a", { href: "/" }, "New game")),
    ];
  }

  function show(p) {
    last = p;
    document.title = `${p.game_name}: seat ${p.seat}`;
    $("title").textContent = `${p.game_name} — ${p.players} players, you are seat ${p.seat}, opponents: ${p.level}`;
    $("status").replaceChildren(statusLine(p));
    $("board").replaceChildren(renderGame(p.render, p.view.fields, { seat: p.seat, toMove: p.over ? -1 : p.to_move, scores: p.scores }));
    window.CatTable.wire($("board"), p, play);
    $("moves").replaceChildren(...movesBox(p));
    $("log").replaceChildren(...logBox(p));
    $("log").scrollTop = $("log").scrollHeight;
    $("picture").textContent = p.view.picture;
    if (window.CatExtras) window.CatExtras.show(p, extrasHooks);   // extras.js
    if (p.over && p.result) {
      if ($("result").hidden) {
        $("result").replaceChildren(...resultBox(p));
        $("result").hidden = false;
        showFrame(p, 0);
      }
      return;
    }
    if (!p.your_turn && !p.error && !auto) schedule(p.thinking ? 200 : 60);
  }

  const extrasHooks = { play, show, busy: () => busy || auto !== null };

  // W: wait until something changes (The Cat); Escape stops it
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "w" || e.key === "W") autoWait();
    else if (e.key === "Escape" && auto) auto.stop = true;
  });

  // The page going away closes the game: the server stops the AI's search.
  window.addEventListener("pagehide", () => {
    navigator.sendBeacon(`${api}/close`);
  });

  poll();
})();
