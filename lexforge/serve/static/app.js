// The lexforge page: three tabs over the JSON API (/api/lexicons/{lexicon}/{query}).
// The query lives in the URL's fragment (#tab=rack&lexicon=fr&letters=…), so a result can be
// shared: opening the URL fills the form and asks again. Plain JavaScript, no build step.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const TABS = ["rack", "grid", "scrabble"];
const MULTIPLIERS = ["", "dl", "tl", "dw", "tw"];
const PREMIUM_NAME = { l: "DL", L: "TL", w: "DW", W: "TW", "*": "★" };

const state = {
  tab: "rack",
  layout: [],         // Scrabble premium squares: [row][col] → "." "l" "L" "w" "W" "*"
  gridWords: [],      // the last grid answer's results
  moves: [],          // the last Scrabble answer's results
  chosenMove: null,
};

// --- the API ---------------------------------------------------------------------------

async function api(path, params) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params || {})) {
    if (value === null || value === undefined || value === "") continue;
    for (const item of Array.isArray(value) ? value : [value]) query.append(key, item);
  }
  const url = params ? `${path}?${query}` : path;
  const response = await fetch(url);
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || `HTTP ${response.status}`);
  return body;
}

function lexicon() {
  return $("lexicon").value;
}

function status(id, text, isError = false) {
  const node = $(id);
  node.textContent = text;
  node.classList.toggle("error", isError);
}

function plural(count, word) {
  return `${count.toLocaleString("en")} ${word}${count === 1 ? "" : "s"}`;
}

// --- the URL ---------------------------------------------------------------------------

function saveUrl(fields) {
  const params = new URLSearchParams({ tab: state.tab, lexicon: lexicon(), ...fields });
  history.replaceState(null, "", `#${params}`);
}

function readUrl() {
  return new URLSearchParams(location.hash.slice(1));
}

// --- tabs ------------------------------------------------------------------------------

function showTab(name, focus = false) {
  state.tab = name;
  for (const tab of TABS) {
    const button = $(`tab-${tab}`);
    const selected = tab === name;
    button.setAttribute("aria-selected", String(selected));
    button.tabIndex = selected ? 0 : -1;
    $(tab).hidden = !selected;
    if (selected && focus) button.focus();
  }
}

function setUpTabs() {
  for (const tab of TABS) {
    const button = $(`tab-${tab}`);
    button.addEventListener("click", () => {
      showTab(tab);
      saveUrl({});
    });
    button.addEventListener("keydown", (event) => {
      const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
      if (!step) return;
      const next = TABS[(TABS.indexOf(tab) + step + TABS.length) % TABS.length];
      showTab(next, true);
      saveUrl({});
    });
  }
}

// --- racks -----------------------------------------------------------------------------

function wordItem(shown, word, score, extra) {
  // A word as a button: jokers (lowercase in `shown`) marked, its score beside.
  const item = document.createElement("li");
  const button = document.createElement("button");
  button.type = "button";
  button.className = "word";
  button.dataset.word = word;
  const letters = document.createElement("span");
  letters.className = "letters";
  for (const letter of shown) {
    const span = document.createElement("span");
    span.textContent = letter.toUpperCase();
    if (letter !== letter.toUpperCase()) span.className = "joker";
    letters.append(span);
  }
  const points = document.createElement("span");
  points.className = "score";
  points.textContent = score;
  button.append(letters, points);
  if (extra) button.append(extra);
  item.append(button);
  return item;
}

async function solveRack() {
  const letters = $("rack-letters").value.trim();
  if (!letters) return;
  const params = {
    letters,
    sort: $("rack-sort").value,
    contains: $("rack-contains").value.trim(),
    min_length: $("rack-min").value,
    max_length: $("rack-max").value,
    exact: $("rack-exact").checked ? "true" : "",
  };
  saveUrl(Object.fromEntries(Object.entries(params).filter(([, v]) => v !== "")));
  status("rack-status", "Searching…");
  const list = $("rack-results");
  try {
    const answer = await api(`/api/lexicons/${encodeURIComponent(lexicon())}/anagram`, params);
    list.replaceChildren(...answer.results.map((m) => wordItem(m.shown, m.word, m.score)));
    status("rack-status", `${plural(answer.results.length, "word")} from ${letters}`);
  } catch (error) {
    list.replaceChildren();
    status("rack-status", error.message, true);
  }
}

// --- grids -----------------------------------------------------------------------------

function gridSize() {
  const clamp = (v) => Math.max(1, Math.min(20, parseInt(v, 10) || 4));
  return [clamp($("grid-rows").value), clamp($("grid-cols").value)];
}

function buildGridEditor(cells) {
  // cells: rows of {letters, multiplier} (kept where the new size overlaps the old grid)
  const [rows, cols] = gridSize();
  const editor = $("grid-editor");
  const ruzzle = $("grid-game").value === "ruzzle";
  editor.style.gridTemplateColumns = `repeat(${cols}, minmax(0, 3.2rem))`;
  editor.replaceChildren();
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const old = (cells[r] || [])[c] || { letters: "", multiplier: "" };
      const cell = document.createElement("div");
      cell.className = "grid-cell";
      const input = document.createElement("input");
      input.className = "grid-letter";
      input.dataset.row = r;
      input.dataset.col = c;
      input.maxLength = 4;
      input.autocomplete = "off";
      input.spellcheck = false;
      input.setAttribute("autocapitalize", "characters");
      input.setAttribute("aria-label", `row ${r + 1}, column ${c + 1}`);
      input.value = old.letters;
      input.addEventListener("input", () => gridTyped(input));
      input.addEventListener("keydown", (event) => moveInGrid(event, r, c, rows, cols));
      cell.append(input);
      if (ruzzle) {
        const select = document.createElement("select");
        select.className = "grid-multiplier";
        select.setAttribute("aria-label", `multiplier of row ${r + 1}, column ${c + 1}`);
        for (const m of MULTIPLIERS) select.add(new Option(m ? m.toUpperCase() : "—", m));
        select.value = old.multiplier;
        cell.append(select);
      }
      editor.append(cell);
    }
  }
}

function gridCells() {
  // The editor's cells as rows of {letters, multiplier}.
  const [rows, cols] = gridSize();
  const cells = Array.from({ length: rows }, () => []);
  for (const cell of $("grid-editor").children) {
    const input = cell.querySelector("input");
    const select = cell.querySelector("select");
    const r = +input.dataset.row;
    const c = +input.dataset.col;
    if (r < rows && c < cols) {
      cells[r][c] = { letters: input.value.trim(), multiplier: select ? select.value : "" };
    }
  }
  return cells;
}

function cellText(letters) {
  // A cell as the grid format writes it: first letter uppercase, the rest lowercase (Qu).
  return letters.charAt(0).toUpperCase() + letters.slice(1).toLowerCase();
}

function gridText(cells) {
  return cells
    .map((row) => row.map((cell) => cellText(cell.letters) + cell.multiplier).join(" "))
    .join("/");
}

function gridTyped(input) {
  const value = input.value.replace(/[\s/]/g, "");
  input.value = cellText(value);
  // One letter typed (not Q, which usually wants its u): on to the next cell.
  if (value.length === 1 && value.toUpperCase() !== "Q") focusGridCell(+input.dataset.row, +input.dataset.col + 1);
  if (value.length === 2 && value.toUpperCase() === "QU") focusGridCell(+input.dataset.row, +input.dataset.col + 1);
}

function focusGridCell(r, c) {
  const [rows, cols] = gridSize();
  if (c >= cols) {
    r += 1;
    c = 0;
  }
  if (r >= rows || r < 0 || c < 0) return;
  const input = $("grid-editor").querySelector(`input[data-row="${r}"][data-col="${c}"]`);
  if (input) {
    input.focus();
    input.select();
  }
}

function moveInGrid(event, r, c, rows, cols) {
  if (event.key === "Enter") {
    event.preventDefault(); // the cells are outside the form: Enter solves all the same
    solveGrid();
    return;
  }
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  const move = moves[event.key];
  if (!move) return;
  const [nr, nc] = [r + move[0], c + move[1]];
  if (nr < 0 || nc < 0 || nr >= rows || nc >= cols) return;
  event.preventDefault();
  focusGridCell(nr, nc);
}

function loadGridText(text, game) {
  // A board as /api answers write it ("ABCD/EFGH…", or spaced cells with multipliers).
  const rows = text.split("/").filter((row) => row.trim());
  const cells = rows.map((row) => {
    const parts = row.includes(" ") ? row.trim().split(/\s+/) : row.match(/Qu|./g);
    return parts.map((part) => {
      const match = /^(.*?)(dl|tl)?(dw|tw)?$/.exec(part);
      const multiplier = game === "ruzzle" ? (match[2] || match[3] || "") : "";
      return { letters: game === "ruzzle" ? match[1] : part, multiplier };
    });
  });
  $("grid-rows").value = cells.length;
  $("grid-cols").value = Math.max(...cells.map((row) => row.length));
  buildGridEditor(cells);
}

function drawGrid(cells, path) {
  // The grid as SVG: a rect and a letter per cell; the path's cells marked ("on-path",
  // data-step) and joined by a polyline.
  const size = 64;
  const rows = cells.length;
  const cols = Math.max(...cells.map((row) => row.length));
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${cols * size + 16} ${rows * size + 16}`);
  svg.setAttribute("role", "img");
  const word = path && path.length ? path.map(([r, c]) => cellText(cells[r][c].letters)).join("") : "";
  svg.setAttribute("aria-label", word ? `the grid, with the path of ${word.toUpperCase()}` : "the grid");
  const steps = new Map((path || []).map(([r, c], i) => [`${r},${c}`, i + 1]));
  const add = (parent, name, attributes, text) => {
    const node = document.createElementNS(SVG, name);
    for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
    if (text !== undefined) node.textContent = text;
    parent.append(node);
    return node;
  };
  const cellGroup = add(svg, "g", {});
  const letterGroup = document.createElementNS(SVG, "g"); // over the path, never hidden by it
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cells[r].length; c++) {
      const step = steps.get(`${r},${c}`);
      const x = 8 + c * size;
      const y = 8 + r * size;
      const group = add(cellGroup, "g", { class: step ? "cell on-path" : "cell", "data-row": r, "data-col": c });
      if (step) group.setAttribute("data-step", step);
      if (step === 1) group.classList.add("start");
      add(group, "rect", { x: x + 2, y: y + 2, width: size - 4, height: size - 4, rx: 9 });
      add(letterGroup, "text", { x: x + size / 2, y: y + size / 2 + 10, class: "letter" }, cellText(cells[r][c].letters));
      if (cells[r][c].multiplier) {
        add(group, "text", { x: x + size - 7, y: y + 17, class: "multiplier" }, cells[r][c].multiplier.toUpperCase());
      }
    }
  }
  if (path && path.length) {
    const points = path.map(([r, c]) => `${8 + c * size + size / 2},${8 + r * size + size / 2}`);
    add(svg, "polyline", { class: "path", points: points.join(" ") });
    svg.append(letterGroup);
    path.forEach(([r, c], i) => {
      add(svg, "text", { x: 8 + c * size + 13, y: 8 + r * size + 19, class: "step" }, i + 1);
    });
  } else {
    svg.append(letterGroup);
  }
  $("grid-board").replaceChildren(svg);
}

function showPath(index) {
  const word = state.gridWords[index];
  for (const button of $("grid-results").querySelectorAll("button.word")) {
    button.classList.toggle("chosen", +button.dataset.index === index);
  }
  drawGrid(gridCells(), word ? word.path : []);
  if (word) {
    const fields = Object.fromEntries(readUrl());
    saveUrl({ ...fields, word: word.word });
  }
}

async function solveGrid(chosenWord) {
  const game = $("grid-game").value;
  const cells = gridCells();
  if (cells.some((row) => row.some((cell) => !cell.letters))) {
    status("grid-status", "Fill every cell of the grid first.", true);
    return;
  }
  const grid = gridText(cells);
  saveUrl({ game, grid });
  status("grid-status", "Searching…");
  const params = game === "boggle" ? { grid, paths: "true" } : { grid };
  const list = $("grid-results");
  try {
    const answer = await api(`/api/lexicons/${encodeURIComponent(lexicon())}/${game}`, params);
    state.gridWords = answer.results;
    list.replaceChildren(
      ...answer.results.map((w, index) => {
        const item = wordItem(w.word, w.word, w.score);
        const button = item.firstChild;
        button.dataset.index = index;
        button.addEventListener("mouseenter", () => showPath(index));
        button.addEventListener("focus", () => showPath(index));
        button.addEventListener("click", () => showPath(index));
        return item;
      }),
    );
    const total = answer.grids[0].total;
    status("grid-status", `${plural(answer.results.length, "word")}, ${plural(total, "point")} in all`);
    const wanted = answer.results.findIndex((w) => w.word === chosenWord);
    showPath(answer.results.length ? Math.max(0, wanted) : -1);
  } catch (error) {
    state.gridWords = [];
    list.replaceChildren();
    drawGrid(cells, []);
    status("grid-status", error.message, true);
  }
}

async function randomGrid() {
  const [rows, cols] = gridSize();
  const game = $("grid-game").value;
  const params = { rows, cols, multipliers: game === "ruzzle" ? "true" : "" };
  try {
    const answer = await api(`/api/lexicons/${encodeURIComponent(lexicon())}/generate`, params);
    loadGridText(answer.results[0].board, game);
    await solveGrid();
  } catch (error) {
    status("grid-status", error.message, true);
  }
}

// --- Scrabble --------------------------------------------------------------------------

function boardInputs() {
  return $("scrabble-board").querySelectorAll("input");
}

function boardSquare(r, c) {
  return $("scrabble-board").querySelector(`input[data-row="${r}"][data-col="${c}"]`);
}

function buildScrabbleBoard() {
  const board = $("scrabble-board");
  const size = state.layout.length;
  board.style.gridTemplateColumns = `repeat(${size}, 1fr)`;
  board.replaceChildren();
  for (let r = 0; r < size; r++) {
    for (let c = 0; c < size; c++) {
      const premium = state.layout[r][c];
      const input = document.createElement("input");
      input.className = `square p-${premium === "*" ? "start" : premium === "." ? "plain" : premium}`;
      input.dataset.row = r;
      input.dataset.col = c;
      input.maxLength = 1;
      input.autocomplete = "off";
      input.spellcheck = false;
      input.placeholder = PREMIUM_NAME[premium] || "";
      input.setAttribute("autocapitalize", "characters");
      input.setAttribute("aria-label", `${String.fromCharCode(65 + c)}${r + 1}`);
      input.addEventListener("keydown", (event) => boardKey(event, input, r, c));
      input.addEventListener("input", () => {
        const letter = input.value.replace(/[^\p{L}]/gu, "").slice(-1);
        setTile(input, letter.toUpperCase(), false);
        clearPreview();
        if (letter) boardSquare(r, c + 1)?.focus();
      });
      board.append(input);
    }
  }
}

function setTile(input, letter, blank) {
  input.value = letter;
  input.classList.toggle("tile", Boolean(letter));
  input.classList.toggle("blank", Boolean(letter) && blank);
}

function boardKey(event, input, r, c) {
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (event.key === "Enter") {
    event.preventDefault();
    solveScrabble();
  } else if (moves[event.key]) {
    event.preventDefault();
    boardSquare(r + moves[event.key][0], c + moves[event.key][1])?.focus();
  } else if (event.key === "*" && input.value) {
    event.preventDefault();
    setTile(input, input.value, !input.classList.contains("blank"));
    clearPreview();
  } else if (event.key === "Backspace" && !input.value) {
    event.preventDefault();
    const back = boardSquare(r, c - 1);
    if (back) {
      setTile(back, "", false);
      back.focus();
    }
  }
}

function boardText() {
  // The board as the API reads it: rows joined by "/", "." empty, lowercase for blanks.
  const size = state.layout.length;
  const rows = Array.from({ length: size }, () => Array(size).fill("."));
  for (const input of boardInputs()) {
    if (!input.value || input.classList.contains("new")) continue;
    const letter = input.classList.contains("blank") ? input.value.toLowerCase() : input.value;
    rows[+input.dataset.row][+input.dataset.col] = letter;
  }
  return rows.map((row) => row.join("")).join("/");
}

function loadBoardText(text) {
  // Rows separated by "/", a character per square or squares separated by spaces.
  const rows = text.split("/").map((row) => (row.includes(" ") ? row.trim().split(/\s+/) : [...row]));
  for (const input of boardInputs()) {
    const letter = (rows[+input.dataset.row] || [])[+input.dataset.col] || "";
    const tile = letter && letter !== "." ? letter : "";
    setTile(input, tile.toUpperCase(), tile !== tile.toUpperCase());
  }
}

function clearPreview() {
  for (const input of $("scrabble-board").querySelectorAll("input.new")) {
    input.classList.remove("new", "tile", "blank");
    input.value = "";
  }
  state.chosenMove = null;
  $("scrabble-play").disabled = true;
  for (const button of $("scrabble-results").querySelectorAll("button.chosen")) {
    button.classList.remove("chosen");
  }
}

function showMove(index) {
  clearPreview();
  const move = state.moves[index];
  if (!move) return;
  state.chosenMove = move;
  for (const [r, c, letter] of move.placed) {
    const input = boardSquare(r, c);
    setTile(input, letter.toUpperCase(), letter !== letter.toUpperCase());
    input.classList.add("new");
  }
  $("scrabble-results").querySelector(`button[data-index="${index}"]`)?.classList.add("chosen");
  $("scrabble-play").disabled = false;
}

function playMove() {
  const move = state.chosenMove;
  if (!move) return;
  for (const input of $("scrabble-board").querySelectorAll("input.new")) input.classList.remove("new");
  // Take the tiles played off the rack (a blank played is a * or ? of the rack).
  let rack = $("scrabble-rack").value.toUpperCase();
  for (const [, , letter] of move.placed) {
    const wanted = letter === letter.toUpperCase() ? letter : null;
    const at = wanted && rack.includes(wanted) ? rack.indexOf(wanted) : rack.search(/[*?]/);
    if (at >= 0) rack = rack.slice(0, at) + rack.slice(at + 1);
  }
  $("scrabble-rack").value = rack;
  state.moves = [];
  state.chosenMove = null;
  $("scrabble-results").replaceChildren();
  $("scrabble-play").disabled = true;
  status("scrabble-status", `Played ${move.word} at ${move.position} for ${move.score}.`);
  saveUrl({ board: boardText(), rack });
}

async function solveScrabble() {
  clearPreview();
  const rack = $("scrabble-rack").value.trim();
  if (!rack) return;
  const board = boardText();
  saveUrl({ board, rack });
  status("scrabble-status", "Searching…");
  const list = $("scrabble-results");
  try {
    const answer = await api(`/api/lexicons/${encodeURIComponent(lexicon())}/scrabble`, { board, rack, top: 30 });
    state.moves = answer.results;
    list.replaceChildren(
      ...answer.results.map((m, index) => {
        const where = document.createElement("span");
        where.className = "position";
        where.textContent = m.position;
        const item = wordItem(m.word, m.word, m.score, where);
        const button = item.firstChild;
        button.dataset.index = index;
        button.addEventListener("click", () => showMove(index));
        button.addEventListener("focus", () => showMove(index));
        return item;
      }),
    );
    const shown = answer.results.length;
    status("scrabble-status", `${plural(answer.moves, "legal move")}${shown ? `; the best ${shown}` : ""}`);
    if (shown) showMove(0);
  } catch (error) {
    state.moves = [];
    list.replaceChildren();
    status("scrabble-status", error.message, true);
  }
}

// --- start -----------------------------------------------------------------------------

function runTab() {
  if (state.tab === "rack" && $("rack-letters").value.trim()) return solveRack();
  if (state.tab === "grid" && gridCells().every((row) => row.every((cell) => cell.letters))) return solveGrid();
  if (state.tab === "scrabble" && $("scrabble-rack").value.trim()) return solveScrabble();
}

async function start() {
  setUpTabs();
  const url = readUrl();
  const [lexicons, layout] = await Promise.all([api("/api/lexicons"), api("/api/layout")]);
  const select = $("lexicon");
  for (const found of lexicons.results) {
    select.add(new Option(`${found.name} (${found.words.toLocaleString("en")} words)`, found.name));
  }
  const names = lexicons.results.map((found) => found.name);
  select.value = names.includes(url.get("lexicon")) ? url.get("lexicon") : names.includes("en") ? "en" : names[0];
  select.addEventListener("change", () => runTab());

  const size = Math.max(...layout.results.map((square) => Math.max(square.row, square.col))) + 1;
  state.layout = Array.from({ length: size }, () => Array(size).fill("."));
  for (const square of layout.results) state.layout[square.row][square.col] = square.square;
  buildScrabbleBoard();

  $("rack-form").addEventListener("submit", (event) => {
    event.preventDefault();
    solveRack();
  });
  $("grid-form").addEventListener("submit", (event) => {
    event.preventDefault();
    solveGrid();
  });
  $("scrabble-form").addEventListener("submit", (event) => {
    event.preventDefault();
    solveScrabble();
  });
  for (const id of ["grid-rows", "grid-cols", "grid-game"]) {
    $(id).addEventListener("change", () => buildGridEditor(gridCells()));
  }
  $("grid-random").addEventListener("click", randomGrid);
  $("scrabble-play").addEventListener("click", playMove);
  $("scrabble-clear").addEventListener("click", () => {
    loadBoardText("");
    clearPreview();
  });

  // The query in the URL, if any.
  const tab = TABS.includes(url.get("tab")) ? url.get("tab") : "rack";
  showTab(tab);
  $("rack-letters").value = url.get("letters") || "";
  $("rack-sort").value = url.get("sort") || "length";
  $("rack-contains").value = url.get("contains") || "";
  $("rack-min").value = url.get("min_length") || "";
  $("rack-max").value = url.get("max_length") || "";
  $("rack-exact").checked = url.get("exact") === "true";
  $("grid-game").value = url.get("game") === "ruzzle" ? "ruzzle" : "boggle";
  if (url.get("grid")) loadGridText(url.get("grid"), $("grid-game").value);
  else buildGridEditor([]);
  if (url.get("board")) loadBoardText(url.get("board"));
  $("scrabble-rack").value = url.get("rack") || "";
  if (tab === "grid" && url.get("grid")) await solveGrid(url.get("word"));
  else await runTab();
  document.body.dataset.ready = "true";
}

start().catch((error) => {
  document.body.dataset.ready = "true";
  status("rack-status", `The page could not start: ${error.message}`, true);
});
