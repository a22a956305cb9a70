"use strict";
// Playing on the table: each legal move (its notation, as the server lists it) is a path of
// table keys (the `data-key` render.js puts on cards, piles, herds, squares), e.g. Herding
// Cats' `o@2` is the orange cat in the hand, then herd 2. A click on a keyed element either
// plays the one move it finishes (the element carries that move's notation in `data-move`,
// and it as a tooltip) or selects it, as the first of two clicks; an element no legal move
// goes through is `.off` (aria-disabled, no pointer). Where every move left goes on through
// the same next element (the one cat of Cat Earth), that click is made for the person.
// Cat Cards' sets are chosen card by card from the hand (any order), then "Form the set".
// It also marks the last move of each seat on the table (`.last-move`, a short animation
// for a move not seen before) with its words from the log.
(function () {
  const { h, seatName, SEAT_COLOURS, CE_CARDS } = window.CatRender;
  const CE_CHAR = {};
  for (const [ch, name] of Object.entries(CE_CARDS)) CE_CHAR[name] = ch;
  Object.assign(CE_CHAR, { TP: "T", CN: "N", HS: "S", Teleport: "T", "Cat Nip": "N", "House Swap": "S" });
  const CC_SET = /^[0-9a-eSPML]{5}$/;
  const ACT_LABELS = {
    wait: "Wait", stop: "Call Stop!", pass: "Pass", end: "End the turn", form: "Form the set",
    N: "Head north ↑", E: "Head east →", S: "Head south ↓", W: "Head west ←",
  };

  // the keys a move goes through; null: not on the table (played by notation only)
  function path(game, move, seat) {
    let m;
    if (game === "herding-cats") {
      if ((m = /^([OPBGS])$/.exec(move))) return [`card:${m[1]}`];
      if ((m = /^([opbgW])@(\d+)$/.exec(move))) return [`card:${m[1]}`, `herd:${m[2]}`];
      if ((m = /^x(.)$/.exec(move))) return [`card:${m[1]}`, "discard"];
    } else if (game === "the-cat") {
      if (move === "wait" || move === "stop") return [`act:${move}`];
      if ((m = /^pick(\d)$/.exec(move))) return [`pile:${seat}:${m[1]}`];
      if ((m = /^swap(\d)(\d)$/.exec(move))) return [`held:${m[1]}`, `centre:${m[2]}`];
    } else if (game === "cat-cards") {
      if (move === "pass") return ["act:pass"];
      if ((m = /^(?:put|take)(\d)$/.exec(move))) return [`ccpile:${m[1]}`];
    } else if (game === "cat-earth") {
      if (move === "end") return ["act:end"];
      if ((m = /^[HT]:([a-g][1-7])$/.exec(move))) return [`sq:${m[1]}`];
      if ((m = /^TP:([a-g][1-7])-([a-g][1-7])$/.exec(move))) return ["card:T", `sq:${m[1]}`, `sq:${m[2]}`];
      if ((m = /^HS:([a-g][1-7])-([a-g][1-7])$/.exec(move))) return ["card:S", `sq:${m[1]}`, `sq:${m[2]}`];
      if ((m = /^CN:([a-g][1-7])$/.exec(move))) return ["card:N", `sq:${m[1]}`];
      if ((m = /^x:(\w+)$/.exec(move)) && CE_CHAR[m[1]]) return [`card:${CE_CHAR[m[1]]}`, "discard"];
      if ((m = /^([FLR]+):([a-g][1-7])([NESW])$/.exec(move)) && CE_CHAR[m[1]]) return [`card:${CE_CHAR[m[1]]}`, `sq:${m[2]}`, `act:${m[3]}`];
    }
    return null;
  }

  const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
  const startsWith = (p, pre) => pre.length <= p.length && pre.every((x, i) => x === p[i]);
  const sortCards = (cs) => [...cs].sort().join("");

  let sel = { ply: null, prefix: [], cards: [] };   // the person's selection so far
  let ctx = null;                                    // {p, board, play, paths, sets}

  // the prefix after a click on `key`: the clicks every move left shares are made too
  function extend(prefix, paths) {
    const pre = [...prefix];
    for (;;) {
      const left = paths.filter((x) => startsWith(x.path, pre));
      if (left.length === 0 || left.some((x) => x.path.length === pre.length)) return { pre, left };
      const next = new Set(left.map((x) => x.path[pre.length]));
      if (next.size !== 1) return { pre, left };
      pre.push([...next][0]);
    }
  }

  // what a click on `key` does now: {move} plays it, {prefix} selects, null: nothing
  function outcome(key) {
    const { pre, left } = extend([...sel.prefix, key], ctx.paths);
    if (left.length === 0) return null;
    const done = left.filter((x) => x.path.length === pre.length);
    if (done.length >= 1 && left.length === done.length) return { move: done[0].move };
    return { prefix: pre };
  }

  function setOutcome(key) {    // Cat Cards' sets: a hand card added to the selection
    const c = key.slice(5);
    const want = sortCards([...sel.cards, c]);
    return ctx.sets.some((st) => isSub(want, st)) ? { card: c } : null;
  }

  function isSub(small, big) {        // the multiset of `small` is within `big`'s
    const counts = {};
    for (const c of big) counts[c] = (counts[c] || 0) + 1;
    for (const c of small) { if (!counts[c]) return false; counts[c] -= 1; }
    return true;
  }

  function formedSet() {
    const have = sortCards(sel.cards);
    return sel.cards.length === 5 ? ctx.sets.find((st) => sortCards(st) === have) || null : null;
  }

  function actionsBar() {
    const acts = new Set();
    for (const x of ctx.paths) {
      if (startsWith(x.path, sel.prefix) && x.path.length > sel.prefix.length && x.path[sel.prefix.length].startsWith("act:")) {
        acts.add(x.path[sel.prefix.length]);
      }
    }
    const formed = formedSet();
    if (ctx.sets.length) acts.add("act:form");
    const bar = h("div", { class: "table-actions" },
      sel.prefix.length || sel.cards.length ? h("button", { type: "button", class: "table-act cancel", "data-key": "cancel" }, "Cancel") : null,
      [...acts].map((k) => h("button", { type: "button", class: "table-act", "data-key": k }, ACT_LABELS[k.slice(4)] || k.slice(4))));
    if (formed) bar.querySelector('[data-key="act:form"]').dataset.move = formed;
    return bar;
  }

  // mark every keyed element of the board: playable (data-move), selectable, or off
  function mark() {
    const { board } = ctx;
    board.querySelector(".table-actions")?.remove();
    if (ctx.paths.length || ctx.sets.length) board.prepend(actionsBar());
    const selectedLeft = [...sel.cards];
    board.classList.toggle("choosing", sel.prefix.length > 0 || sel.cards.length > 0);
    for (const el of board.querySelectorAll("[data-key]")) {
      const key = el.dataset.key;
      el.classList.remove("off", "selectable", "playable", "selected");
      el.removeAttribute("aria-disabled");
      if (el.dataset.title !== undefined) el.setAttribute("title", el.dataset.title);
      if (key === "cancel") continue;
      if (!el.matches(".table-act")) delete el.dataset.move;
      if (!ctx.paths.length && !ctx.sets.length) continue;
      let out;
      if (key === "act:form") out = formedSet() ? { move: formedSet() } : null;
      else if (ctx.sets.length && key.startsWith("hand:")) {
        const i = selectedLeft.indexOf(key.slice(5));
        if (i >= 0) { selectedLeft.splice(i, 1); el.classList.add("selected"); }
        out = el.classList.contains("selected") ? { unpick: true } : setOutcome(key);
      } else if (sel.prefix.includes(key)) {
        el.classList.add("selected");
        out = { unselect: true };
      } else out = outcome(key);
      if (!out) {
        el.classList.add("off");
        el.setAttribute("aria-disabled", "true");
        if (!el.matches(".table-act")) delete el.dataset.move;
      } else if (out.move) {
        el.dataset.move = out.move;
        el.classList.add("playable");
        if (el.dataset.title === undefined) el.dataset.title = el.getAttribute("title") || "";
        el.setAttribute("title", `${el.dataset.title ? el.dataset.title + " — " : ""}play ${out.move}`);
      } else {
        el.classList.add("selectable");
      }
    }
  }

  function click(e) {
    if (!ctx) return;
    const el = e.target.closest("[data-key]");
    if (!el || !ctx.board.contains(el) || el.classList.contains("off")) return;
    e.stopPropagation();
    const key = el.dataset.key;
    if (key === "cancel") { sel.prefix = []; sel.cards = []; mark(); return; }
    if (el.dataset.move) { const m = el.dataset.move; sel.prefix = []; sel.cards = []; ctx.play(m); return; }
    if (ctx.sets.length && key.startsWith("hand:")) {
      const c = key.slice(5);
      if (el.classList.contains("selected")) sel.cards.splice(sel.cards.indexOf(c), 1);
      else sel.cards.push(c);
      mark();
      return;
    }
    if (sel.prefix.includes(key)) { sel.prefix = sel.prefix.slice(0, sel.prefix.indexOf(key)); mark(); return; }
    const out = outcome(key);
    if (out && out.prefix) { sel.prefix = out.prefix; mark(); }
  }

  // -- the last move of each seat ----------------------------------------------------------
  let seenPly = null;      // the log's last ply already animated

  function lastKeys(game, text, seat, fields) {
    const head = text.split(/[+,:!]/)[0];
    let m;
    if (game === "herding-cats") {
      if ((m = /^(?:[opbgW]|cat)@(\d+)$/.exec(head))) return [`herd:${m[1]}`];
      if (/^[OPBG]$/.test(head) && fields.herds !== "-") return [`herd:${fields.herds.split(",").length - 1}`];
      if (/^(x.|S)$/.test(head)) return ["discard"];
    } else if (game === "the-cat") {
      const tick = text.split(":")[1] || "";
      const eff = tick.split(",")[seat] || "";
      if ((m = /^swap\d(\d)/.exec(eff))) return [`centre:${m[1]}`];
      if ((m = /^pick(\d)/.exec(eff))) return [`pile:${seat}:${m[1]}`];
    } else if (game === "cat-cards") {
      if ((m = /^put(\d)$/.exec(head))) return [`ccpile:${m[1]}`];
      if (/^take\d$/.test(head)) return [`handarea:${seat}`];
      if (CC_SET.test(head)) return [`sets:${seat}`];
    } else if (game === "cat-earth") {
      if ((m = /^(?:[HT]|CN):([a-g][1-7])$/.exec(head))) return [`sq:${m[1]}`];
      if ((m = /^TP:[a-g][1-7]-([a-g][1-7])$/.exec(text))) return [`sq:${m[1]}`];
      if ((m = /^HS:([a-g][1-7])-([a-g][1-7])$/.exec(text))) return [`sq:${m[1]}`, `sq:${m[2]}`];
      if (/^x:/.test(text)) return ["discard"];
    }
    return [];
  }

  function showLast(p, board) {
    const lastOf = {};
    let tick = null;    // The Cat: the last resolved tick tells every seat's effect
    for (const e of p.log) {
      lastOf[e.seat] = e;
      if (p.game === "the-cat" && e.text.includes(":") && !e.text.includes("scored=")) tick = e;
    }
    const newest = p.log.length ? p.log[p.log.length - 1].ply : 0;
    const fresh = (e) => seenPly !== null && e.ply > seenPly;
    for (const [seat, e] of Object.entries(lastOf)) {
      const q = Number(seat);
      const src = p.game === "the-cat" && tick ? tick : e;
      for (const key of lastKeys(p.game, src.text, q, p.view.fields)) {
        for (const el of board.querySelectorAll(`[data-key="${key}"]`)) {
          el.classList.add("last-move");
          el.style.setProperty("--seat-colour", SEAT_COLOURS[q] || "#999");
          if (fresh(src)) el.classList.add("arrive");
        }
      }
      const row = board.querySelector(`.seat[data-seat="${q}"] .seat-body`);
      if (row) {
        row.append(h("div", { class: `last-words${fresh(e) ? " arrive" : ""}`, title: e.text, "data-last-seat": q },
          h("span", { class: "last-label" }, "last: "), e.words || e.text));
      }
    }
    seenPly = newest;
  }

  // Wire the board drawn for payload `p`: its moves on the table, `play(move)` to play one.
  function wire(board, p, play) {
    if (sel.ply !== p.ply) sel = { ply: p.ply, prefix: [], cards: [] };
    const paths = [];
    const sets = [];
    const waiting = Boolean(document.getElementById("app")?.dataset.auto);  // The Cat's auto-wait
    for (const move of waiting ? [] : p.legal || []) {
      if (p.game === "cat-cards" && CC_SET.test(move)) { sets.push(move); continue; }
      const keys = path(p.game, move, p.seat);
      if (keys) paths.push({ move, path: keys });
    }
    ctx = { p, board, play, paths, sets };
    showLast(p, board);
    mark();
    if (!board.dataset.wired) {
      board.addEventListener("click", click);
      board.dataset.wired = "1";
    }
  }

  // For tests and tools: the key to click next on the way to `move`, null when none is left
  // (the move is then played by the last click).
  function nextKey(move) {
    if (!ctx) return null;
    if (ctx.sets.includes(move)) {
      const need = [...move];
      for (const c of sel.cards) need.splice(need.indexOf(c), 1);
      return need.length ? `hand:${need[0]}` : "act:form";
    }
    const x = ctx.paths.find((y) => y.move === move);
    if (!x || !startsWith(x.path, sel.prefix)) return null;
    return x.path[sel.prefix.length] || null;     // a click on it makes the shared ones too
  }

  // A box to type a move's notation in (Enter plays it).
  function typeBox(p, play) {
    if (!p.your_turn || !p.legal.length) return null;
    const input = h("input", { type: "text", id: "move-text", list: "move-options", autocomplete: "off",
      placeholder: "or type a move (e.g. " + p.legal[0] + ")", "aria-label": "a move's notation" });
    return h("form", { class: "type-move", onsubmit: (e) => { e.preventDefault(); if (input.value.trim()) play(input.value.trim()); } },
      input, h("button", { type: "submit" }, "Play"));
  }

  // A move is on its way: nothing on the table plays until the next payload is drawn.
  function disarm() {
    if (!ctx) return;
    for (const el of ctx.board.querySelectorAll("[data-move]")) {
      delete el.dataset.move;
      el.classList.remove("playable", "selectable");
      el.classList.add("off");
    }
    ctx.paths = [];
    ctx.sets = [];
    ctx.board.querySelector(".table-actions")?.remove();
  }

  window.CatTable = { wire, path, nextKey, typeBox, disarm };
})();
