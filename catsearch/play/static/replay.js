"use strict";
// The replay viewer: opens any record file (the terminal's JSON format), has the server replay
// it (POST /api/replay: nothing is kept), and steps through it with every card shown.
// Each move shows its plain-language account (frame.narration, from catsearch.play.narrate
// once it lands) or else its notation.
(function () {
  const { h, renderGame, seatName } = window.CatRender;
  const $ = (id) => document.getElementById(id);
  let data = null;
  let at = 0;

  function describe(fr) {
    if (fr.move === null) return ["The deal (every card shown)."];
    const who = `Move ${fr.ply} of ${data.frames.length - 1}: ${seatName(fr.seat, -1)} `;
    return fr.narration ? [who, h("span", { class: "narration" }, fr.narration), " ", h("code", { title: "notation" }, `(${fr.move})`)]
      : [who + "played ", h("code", {}, fr.move)];
  }

  function showFrame(i) {
    at = Math.max(0, Math.min(data.frames.length - 1, i));
    const fr = data.frames[at];
    $("frame-move").replaceChildren(...describe(fr));
    $("frame-move").dataset.ply = String(fr.ply);
    $("frame-points").replaceChildren("Points: ", ...fr.scores.map((sc, s) =>
      h("span", { class: "points", "data-seat": s, "data-points": sc }, `${seatName(s, -1)} ${sc} `)));
    $("frame-board").replaceChildren(renderGame(data.render, fr.fields, { seat: -1, toMove: -1, scores: fr.scores }));
    $("frame-picture").textContent = fr.picture;
    $("pos").value = String(at);
    $("end").textContent = at === data.frames.length - 1
      ? (data.over ? `The game ended: ${data.reason}. Final scores: ${data.scores.join(", ")}.` : "The game was left before its end.")
      : "";
  }

  async function open(file) {
    $("viewer").hidden = true;
    $("replay-status").textContent = `Reading ${file.name}…`;
    const resp = await fetch("/api/replay", { method: "POST", headers: { "Content-Type": "application/json" }, body: await file.text() });
    const out = await resp.json().catch(() => ({ error: resp.statusText }));
    if (!resp.ok) { $("replay-status").textContent = `Cannot replay ${file.name}: ${out.error}`; return; }
    data = out;
    $("title").textContent = `Replay: ${data.game_name}, ${data.players} players`;
    const opts = Object.entries(data.options || {}).map(([k, v]) => `${k}=${v}`).join(" ");
    $("about").textContent = `Seats: ${data.seats.map((s, i) => `${i}: ${s}`).join(" · ")}` +
      (opts ? ` · options: ${opts}` : "") + (data.seed !== null ? ` · seed ${data.seed}` : "") +
      (data.takebacks && data.takebacks.length ? ` · takebacks: ${data.takebacks.length}` : "");
    $("replay-status").textContent = `${file.name}: ${data.frames.length - 1} moves. Keys: ← → step, Home/End.`;
    $("pos").max = String(data.frames.length - 1);
    $("viewer").hidden = false;
    document.body.dataset.replay = "ready";
    showFrame(0);
  }

  $("file").addEventListener("change", (e) => { if (e.target.files[0]) open(e.target.files[0]); });
  $("first").onclick = () => showFrame(0);
  $("prev").onclick = () => showFrame(at - 1);
  $("next").onclick = () => showFrame(at + 1);
  $("last").onclick = () => showFrame(data.frames.length - 1);
  $("pos").oninput = (e) => showFrame(Number(e.target.value));
  document.addEventListener("keydown", (e) => {
    if (!data || e.target instanceof HTMLInputElement && e.target.type !== "range") return;
    if (e.key === "ArrowRight") showFrame(at + 1);
    else if (e.key === "ArrowLeft") showFrame(at - 1);
    else if (e.key === "Home") showFrame(0);
    else if (e.key === "End") showFrame(data.frames.length - 1);
  });
})();
