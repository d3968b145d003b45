// The Play page: a setup form, then the seat to move's view as the server draws it. The
// browser knows no rules: it sends the chosen action's text and shows what comes back (the
// next view, or the engine's reason for refusing). Between two human players at one screen it
// shows a "pass the screen" step that hides everything until the next player is ready. The
// game's id stays in the address, so the reload after a saved edit goes on with the game.
(() => {
  const root = document.getElementById("play");
  const game = root.dataset.game;
  const lang = root.dataset.lang; // the page's language: the seats' views are drawn in it
  const words = JSON.parse(root.dataset.words);
  const player = (seat) => words.player.replace("{n}", String(seat + 1));
  const $ = (id) => document.getElementById(id);
  const setup = $("setup");
  const table = $("table");
  const pass = $("pass");
  const message = $("message");
  const seats = $("seats");
  const bots = seats.dataset.bots.split(" ");
  let current = null;
  let shown = null;
  let mover = null; // the person who moved last at this screen (Undo asks for them until the next is shown)

  const say = (text) => {
    message.textContent = text || "";
    message.hidden = !text;
  };
  const modeInput = () => setup.elements.mode;
  const counts = () => {
    const input = modeInput();
    const option = input.tagName === "SELECT" ? input.selectedOptions[0] : input;
    return option.dataset.players.split(" ").map(Number);
  };
  const fillPlayers = () => {
    const select = setup.elements.players;
    const before = Number(select.value);
    select.replaceChildren(...counts().map((n) => new Option(String(n), String(n))));
    if (counts().includes(before)) select.value = String(before);
    fillSeats();
  };
  const fillSeats = () => {
    const n = Number(setup.elements.players.value);
    const old = [...seats.querySelectorAll("select")].map((s) => s.value);
    seats.replaceChildren();
    for (let seat = 0; seat < n; seat++) {
      const label = document.createElement("label");
      const select = document.createElement("select");
      select.name = `seat-${seat}`;
      select.append(new Option(words.person, "human"));
      for (const bot of bots) select.append(new Option(words.bots[bot], bot));
      select.value = old[seat] || (seat === 0 ? "human" : bots[bots.length - 1]);
      label.append(`${player(seat)} `, select);
      seats.append(label);
    }
  };

  const call = async (url, body) => {
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: body === undefined ? "{}" : JSON.stringify(body),
    });
    const answer = await response.json();
    if (!response.ok) throw new Error(answer.error);
    return answer;
  };
  const attempt = async (work) => {
    try {
      await work();
    } catch (error) {
      say(error.message);
    }
  };

  const go = async (status) => {
    current = status;
    history.replaceState(null, "", `#${status.session}`); // a reload (after a save) goes on
    for (const other of document.querySelectorAll(".languages a")) other.hash = status.session; // and so does the other language
    $("controls").hidden = false;
    $("new-game").open = false;
    // Before the end, the log is the shown player's view of the game (set when it is shown)
    $("download").href = `/_serve/table/${status.session}/log`;
    $("download").hidden = !status.over;
    const seat = status.over ? (status.humans.includes(shown) ? shown : status.humans[0]) : status.turn;
    if (seat === undefined || seat === null) {
      table.replaceChildren();
      say(words.nobody_plays);
      return;
    }
    if (status.humans.length > 1 && seat !== shown && !status.over) {
      table.replaceChildren(); // nothing of the last player stays on the screen
      shown = null;
      $("pass-to").textContent = words.pass_to.replace("{player}", player(seat));
      $("pass-ready").textContent = words.ready.replace("{player}", player(seat));
      $("pass-ready").onclick = () => attempt(() => show(seat));
      pass.hidden = false;
      $("pass-ready").focus();
      return;
    }
    await show(seat);
  };
  const show = async (seat) => {
    const response = await fetch(`/_serve/table/${current.session}?seat=${seat}&lang=${lang}`);
    if (!response.ok) {
      const text = await response.text();
      let said = text;
      try { said = JSON.parse(text).error; } catch { /* a plain sentence */ }
      throw new Error(said);
    }
    pass.hidden = true;
    table.innerHTML = await response.text();
    shown = seat;
    $("download").href = `/_serve/table/${current.session}/log?seat=${seat}`;
    $("download").hidden = false;
    for (const button of table.querySelectorAll("button.action")) {
      button.addEventListener("click", () => attempt(async () => {
        say("");
        mover = seat;
        await go(await call(`/_serve/table/${current.session}/act`, { action: button.dataset.action }));
      }));
    }
    const first = table.querySelector("button.action") || table.querySelector("h2");
    if (first) {
      if (first.tagName === "H2") first.tabIndex = -1;
      first.focus({ preventScroll: true });
    }
  };

  setup.addEventListener("change", (event) => {
    if (event.target.name === "mode") fillPlayers();
    if (event.target.name === "players") fillSeats();
  });
  setup.addEventListener("submit", (event) => {
    event.preventDefault();
    say("");
    shown = null;
    const chosen = [...seats.querySelectorAll("select")].map((s) => s.value);
    attempt(async () => go(await call(`/_serve/play/${game}/new`, {
      mode: modeInput().value,
      players: chosen.length,
      seats: chosen,
      seed: Number(setup.elements.seed.value),
    })));
  });
  $("undo").addEventListener("click", () => attempt(async () => {
    say("");
    const seat = shown !== null ? shown : mover;
    const status = await call(`/_serve/table/${current.session}/undo`, seat === null ? {} : { seat });
    shown = null;
    await go(status);
  }));
  $("restart").addEventListener("click", () => attempt(async () => {
    say("");
    shown = null;
    await go(await call(`/_serve/table/${current.session}/restart`));
  }));
  $("upload").elements.log.addEventListener("change", (event) => attempt(async () => {
    const file = event.target.files[0];
    if (!file) return;
    say("");
    shown = null;
    const response = await fetch(`/_serve/play/${game}/upload`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: await file.text(),
    });
    const answer = await response.json();
    if (!response.ok) throw new Error(`${file.name}: ${answer.error}`);
    await go(answer);
  }));
  fillPlayers();
  if (location.hash.length > 1) {
    attempt(async () => {
      const response = await fetch(`/_serve/table/${location.hash.slice(1)}/status`);
      const answer = await response.json();
      if (!response.ok) throw new Error(answer.error);
      await go(answer);
    });
  }
})();
