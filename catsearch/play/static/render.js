"use strict";
// Drawing the four games from the fields of a state's notation (a seat's view while the
// game is on; the full state at the end and in the replay). Plain DOM and SVG, no library.

const SVG_NS = "http://www.w3.org/2000/svg";

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "style") el.style.cssText = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, String(v));
  for (const c of children.flat()) {
    if (c === null || c === undefined) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

const SEAT_COLOURS = ["#d9534f", "#337ab7", "#3c9a4b", "#8e5cc4"];

function seatName(seat, you) {
  return seat === you ? `Seat ${seat} (you)` : `Seat ${seat}`;
}

function cardEl(text, cls, title, style) {
  return h("span", { class: `card ${cls || ""}`, title: title || null, style: style || null }, text);
}

// `el` with the table key `key` (what a click on it is about: table.js makes it play)
function keyed(el, key) {
  el.dataset.key = key;
  return el;
}

function backEl() {
  return cardEl("?", "back", "a card you cannot see");
}

function chars(str) {
  return !str || str === "-" ? [] : Array.from(str);
}

function seatRow(seat, opts, ...content) {
  const cls = ["seat"];
  if (seat === opts.seat) cls.push("you");
  if (seat === opts.toMove) cls.push("to-move");
  return h("div", { class: cls.join(" "), "data-seat": seat },
    h("div", { class: "seat-name", style: `border-color:${SEAT_COLOURS[seat]}` },
      seatName(seat, opts.seat), seat === opts.toMove ? h("span", { class: "turn-dot" }, " ● to move") : null),
    h("div", { class: "seat-body" }, ...content));
}

function pileCount(label, n) {
  return h("div", { class: "stack" }, h("span", { class: "card back stack-card" }, String(n)), h("small", {}, label));
}

// -- Herding Cats ------------------------------------------------------------------------
const HC = {
  o: ["orange cat", "hc-o"], p: ["purple cat", "hc-p"], b: ["blue cat", "hc-b"], g: ["green cat", "hc-g"],
  O: ["orange cowdog", "hc-o dog"], P: ["purple cowdog", "hc-p dog"], B: ["blue cowdog", "hc-b dog"],
  G: ["green cowdog", "hc-g dog"], S: ["Stampede", "hc-s"], W: ["Wild Cat Lady", "hc-w"],
};

function hcCard(ch) {
  if (ch === "?") return backEl();
  const [name, cls] = HC[ch] || [ch, ""];
  const label = ch === "S" ? "Stampede" : ch === "W" ? "WCL" : (ch === ch.toUpperCase() ? "Dog" : "Cat");
  return cardEl(label, cls, `${name} (${ch})`);
}

function renderHerdingCats(f, opts) {
  const hands = f.hands.split("/");
  const won = f.won.split(",");
  const herds = f.herds === "-" ? [] : f.herds.split(",");
  return h("div", { class: "game hc" },
    h("div", { class: "table-row" },
      pileCount("deck", f.deck === "-" ? 0 : f.deck.length),
      h("div", { class: "area" }, h("h3", {}, "Herds on the table"),
        herds.length ? herds.map((hd, i) => h("div", { class: "herd", "data-key": `herd:${i}` }, h("small", {}, `[${i}]`), chars(hd).map(hcCard)))
          : h("em", {}, "none")),
      h("div", { class: "area discard-area", "data-key": "discard" }, h("h3", {}, "Discard pile"), chars(f.discard).map(hcCard))),
    hands.map((hand, seat) => seatRow(seat, opts,
      h("div", { class: "hand" }, chars(hand).map((c) => (seat === opts.seat && c !== "?" ? keyed(hcCard(c), `card:${c}`) : hcCard(c)))),
      h("div", { class: "score" }, `herds won: ${won[seat]}`))));
}

// -- The Cat -----------------------------------------------------------------------------
function tcCard(ch, known) {
  if (ch === "?") return backEl();
  const mood = parseInt(ch, 16);
  return cardEl(String(mood), `tc-card mood-${mood}${known ? " public" : ""}`, `mood ${mood}`,
    `--hue:${(mood * 27) % 360}`);
}

function renderTheCat(f, opts) {
  const piles = f.piles.split("/");
  const held = f.held.split(",");
  const scores = f.scores.split(",");
  const chosen = f.chosen.split(",");
  return h("div", { class: "game tc" },
    h("div", { class: "table-row" },
      h("div", { class: "area" }, h("h3", {}, "Centre"), h("div", { class: "centre" },
        chars(f.centre).map((c, j) => h("span", { class: "slot" }, keyed(tcCard(c, true), `centre:${j}`), h("small", {}, `slot ${j}`))))),
      h("div", { class: "area info" }, `Round ${f.round}, tick ${f.tick}; first to ${f.target} points`)),
    piles.map((ps, seat) => seatRow(seat, opts,
      h("div", { class: "piles" }, ps.split(",").map((pile, k) =>
        h("div", { class: `pile${String(k) === held[seat] ? " held" : ""}`, "data-key": `pile:${seat}:${k}` },
          h("small", {}, String(k) === held[seat] ? `pile ${k} (in hand)` : `pile ${k}`),
          h("div", {}, chars(pile).map((c, i) => (seat === opts.seat && String(k) === held[seat]
            ? keyed(tcCard(c, false), `held:${i}`) : tcCard(c, false))))))),
      h("div", { class: "score" }, `score ${scores[seat]}`,
        chosen[seat] && chosen[seat] !== "-" ? ` · chose ${chosen[seat] === "?" ? "(hidden)" : chosen[seat]}` : ""))));
}

// -- Cat Cards ---------------------------------------------------------------------------
const CC_COLOURS = [[1, "#f0a030", "orange"], [2, "#f4f4f4", "white"], [4, "#333", "black"], [8, "#4a7bd0", "blue"]];
const CC_SPECIAL = { 0: "Sphynx", S: "Siamese", P: "Post", M: "Mouse", L: "Laser" };

function ccCard(ch) {
  if (ch === "?") return backEl();
  if (ch in CC_SPECIAL && ch !== "0") {
    const toy = ch !== "S";
    return cardEl(CC_SPECIAL[ch], toy ? "cc-toy" : "cc-siamese", toy ? `${CC_SPECIAL[ch]} (toy)` : "Siamese");
  }
  const mask = parseInt(ch, 16);
  if (mask === 0) return cardEl("Sphynx", "cc-sphynx", "Sphynx (no colour)");
  const cols = CC_COLOURS.filter(([b]) => mask & b);
  const stops = cols.map(([, c], i) => `${c} ${(i * 100) / cols.length}% ${((i + 1) * 100) / cols.length}%`).join(", ");
  return cardEl("Cat", "cc-cat", `${cols.map((c) => c[2]).join("/")} cat`, `background: linear-gradient(90deg, ${stops})`);
}

function renderCatCards(f, opts) {
  const hands = f.hands.split("/");
  const sets = f.sets.split("/");
  const piles = f.piles.split(",");
  return h("div", { class: "game cc" },
    h("div", { class: "table-row" },
      pileCount("deck", f.deck === "-" ? 0 : f.deck.length),
      h("div", { class: "area" }, h("h3", {}, "Revealed"), f.revealed && f.revealed !== "-" ? ccCard(f.revealed) : h("em", {}, "none")),
      piles.map((p, i) => h("div", { class: "area cc-pile", "data-key": `ccpile:${i}` }, h("h3", {}, `Pile ${i}`), chars(p).map(ccCard)))),
    h("p", { class: "info" }, `Cat values (one/two/three-colour, Sphynx, Siamese): ${f.values || ""}; toys in hand: -2 each`),
    hands.map((hand, seat) => {
      const [pub, priv] = hand.split(":");
      const mine = (c) => (seat === opts.seat && c !== "?" ? keyed(ccCard(c), `hand:${c}`) : ccCard(c));
      return seatRow(seat, opts,
        h("div", { class: "hand", "data-key": `handarea:${seat}` }, chars(pub).map(mine),
          chars(priv).length ? h("span", { class: "private-label" }, "private:") : null, chars(priv).map(mine)),
        h("div", { class: "sets", "data-key": `sets:${seat}` }, "sets: ",
          sets[seat] === "-" ? h("em", {}, "none") : sets[seat].split(",").map((st) => h("span", { class: "set" }, chars(st).map(ccCard)))),
        opts.scores ? h("div", { class: "score", "data-points": opts.scores[seat] }, `points: ${opts.scores[seat]}`) : null);
    }));
}

// -- Cat Earth ---------------------------------------------------------------------------
const CE_CARDS = {
  1: "F", 2: "FF", 3: "FFF", 4: "FR", 5: "FL", 6: "FFR", 7: "FFL", 8: "FRL", 9: "FLR",
  T: "Teleport", N: "Cat Nip", S: "House Swap",
};

function ceCard(ch) {
  if (ch === "?") return backEl();
  return cardEl(CE_CARDS[ch] || ch, "ce-card", `${CE_CARDS[ch] || ch} (${ch})`);
}

function ceBoard(board) {
  const rows = board.split("/");
  const size = 7, cell = 48, pad = 24;
  const svg = s("svg", { viewBox: `0 0 ${size * cell + 2 * pad} ${size * cell + 2 * pad}`, class: "ce-board", role: "img",
    "aria-label": "the board" });
  const files = "abcdefg";
  for (let r = 0; r < size; r++) {
    const rank = 7 - r;
    svg.append(s("text", { x: pad / 2, y: pad + r * cell + cell / 2 + 5, "text-anchor": "middle", class: "coord" }, rank));
    for (let c = 0; c < size; c++) {
      const x = pad + c * cell, y = pad + r * cell;
      const ch = (rows[r] || "")[c] || ".";
      const centre = files[c] === "d" && rank === 4;
      svg.append(s("rect", { x, y, width: cell, height: cell, class: `sq${centre ? " paw" : ""}`,
        "data-square": `${files[c]}${rank}`, "data-key": `sq:${files[c]}${rank}` }));
      const cx = x + cell / 2, cy = y + cell / 2;
      if (ch === "T") {
        svg.append(s("g", { class: "tree" }, s("title", {}, `tree on ${files[c]}${rank}`),
          s("rect", { x: cx - 3, y: cy + 6, width: 6, height: 12, fill: "#7a5230" }),
          s("circle", { cx, cy: cy - 2, r: 14, fill: "#3f8f3f" })));
      } else if (ch === "C") {
        svg.append(s("g", { class: "cat" }, s("title", {}, `cat on ${files[c]}${rank}`),
          s("path", { d: `M${cx - 14} ${cy + 14} V${cy - 8} L${cx - 9} ${cy - 16} L${cx - 4} ${cy - 8} H${cx + 4} L${cx + 9} ${cy - 16} L${cx + 14} ${cy - 8} V${cy + 14} Z`, fill: "#e8913a", stroke: "#7a4a10" }),
          s("circle", { cx: cx - 5, cy: cy - 1, r: 2.5, fill: "#222" }), s("circle", { cx: cx + 5, cy: cy - 1, r: 2.5, fill: "#222" })));
      } else if (/[0-9]/.test(ch)) {
        const seat = Number(ch);
        svg.append(s("g", { class: "house", "data-seat": seat }, s("title", {}, `seat ${seat}'s house on ${files[c]}${rank}`),
          s("path", { d: `M${cx - 14} ${cy + 14} V${cy - 2} L${cx} ${cy - 15} L${cx + 14} ${cy - 2} V${cy + 14} Z`,
            fill: SEAT_COLOURS[seat] || "#999", stroke: "#222" }),
          s("text", { x: cx, y: cy + 10, "text-anchor": "middle", class: "house-label" }, seat)));
      }
    }
  }
  for (let c = 0; c < size; c++) {
    svg.append(s("text", { x: pad + c * cell + cell / 2, y: pad + size * cell + 17, "text-anchor": "middle", class: "coord" }, files[c]));
  }
  return svg;
}

function renderCatEarth(f, opts) {
  const hands = f.hands.split("/");
  const houses = Array(hands.length).fill(0);
  for (const ch of f.board) if (/[0-9]/.test(ch)) houses[Number(ch)] += 1;
  return h("div", { class: "game ce" },
    h("div", { class: "table-row" },
      h("div", { class: "area" }, ceBoard(f.board)),
      h("div", { class: "area" },
        h("p", { class: "info" }, `Phase: ${f.phase}, round ${f.round}; cards played this turn: ${f.played}`),
        pileCount("deck", f.deck === "-" ? 0 : f.deck.length),
        h("div", { class: "discard-area", "data-key": "discard" }, h("h3", {}, "Discard pile"),
          h("div", { class: "discard" }, chars(f.discard).map(ceCard))))),
    hands.map((hand, seat) => seatRow(seat, opts,
      h("div", { class: "hand" }, chars(hand).length ? chars(hand).map((c) => (seat === opts.seat && c !== "?"
        ? keyed(ceCard(c), `card:${c}`) : ceCard(c))) : h("em", {}, "no cards")),
      h("div", { class: "score", style: `color:${SEAT_COLOURS[seat]}` }, `houses on the board: ${houses[seat]}`))));
}

const RENDERERS = {
  "herding-cats": renderHerdingCats,
  "the-cat": renderTheCat,
  "cat-cards": renderCatCards,
  "cat-earth": renderCatEarth,
};

// The drawing of a game that declares none (GameSpec.render): every notation field, cards
// shown one by one ("?" a card this seat cannot see), a row a seat where a field has one
// part a seat ("a/b/c").
function renderGeneric(f, opts) {
  const rows = [];
  const players = Number(f.players) || 0;
  for (const [key, value] of Object.entries(f)) {
    if (key === "players" || key === "rng" || key === "view") continue;
    const parts = value.split("/");
    if (players > 1 && parts.length === players) {
      rows.push(h("h3", {}, key));
      parts.forEach((part, seat) => rows.push(seatRow(seat, opts,
        h("div", { class: "hand" }, chars(part).map((c) => h("span", { class: "card generic" }, c))))));
    } else {
      rows.push(h("p", { class: "info" }, h("strong", {}, `${key}: `), value));
    }
  }
  return h("div", { class: "game generic" }, rows);
}

// Draw `fields` (a state's notation fields) with the drawing named `render` (the game's
// GameSpec.render; none: the generic drawing); opts: {seat, toMove}.
function renderGame(render, fields, opts) {
  const fn = RENDERERS[render] || renderGeneric;
  try {
    return fn(fields, opts);
  } catch (e) {
    return h("p", { class: "error render-error" }, `(could not draw this position: ${e}; see the text view)`);
  }
}

window.CatRender = { h, renderGame, seatName, SEAT_COLOURS, CE_CARDS };
