// The lexforge page: five tabs over the JSON API (/api/lexicons/{lexicon}/{query} and
// …/game/{action}). The query lives in the URL's fragment (#tab=rack&lexicon=fr&letters=…), so
// a result can be shared. Plain JavaScript, no build step, nothing inline (the server's
// Content-Security-Policy allows scripts and styles from /static/ only).
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const TABS = ["start", "rack", "boggle", "ruzzle", "scrabble"];
const MULTIPLIERS = ["", "dl", "tl", "dw", "tw"];
const MULTIPLIER_NAME = { "": "plain", dl: "double letter", tl: "triple letter", dw: "double word", tw: "triple word" };
const PREMIUM_NAME = { l: "DL", L: "TL", w: "DW", W: "TW", "*": "★" };
const PAGE_SIZE = 100;

const state = { tab: "start", layout: [], tileSets: new Map() };

function el(name, attributes = {}, ...children) {
  const node = document.createElement(name);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}

// --- the API ---------------------------------------------------------------------------

async function api(path, params) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params || {})) {
    if (value === null || value === undefined || value === "") continue;
    for (const item of Array.isArray(value) ? value : [value]) query.append(key, item);
  }
  const url = params ? `${path}?${query}` : path;
  return answerOf(await fetch(url));
}

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return answerOf(response);
}

async function answerOf(response) {
  let body;
  try {
    body = await response.json();
  } catch {
    throw new Error(`HTTP ${response.status}`);
  }
  if (!response.ok) throw new Error(body.error || `HTTP ${response.status}`);
  return body;
}

function lexicon() {
  return $("lexicon").value;
}

function lexiconPath(query) {
  return `/api/lexicons/${encodeURIComponent(lexicon())}/${query}`;
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

// --- tabs and theme --------------------------------------------------------------------

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
  if (name === "boggle" || name === "ruzzle") boards[name].fit();
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

function setTheme(theme) {
  document.documentElement.dataset.theme = theme;
  $("theme").setAttribute("aria-pressed", String(theme === "dark"));
}

function setUpTheme() {
  let saved = null;
  try {
    saved = localStorage.getItem("lexforge-theme");
  } catch {
    saved = null; // storage refused: the system's choice alone
  }
  const dark = window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
  setTheme(saved || (dark ? "dark" : "light"));
  $("theme").addEventListener("click", () => {
    const theme = document.documentElement.dataset.theme === "dark" ? "light" : "dark";
    setTheme(theme);
    try {
      localStorage.setItem("lexforge-theme", theme);
    } catch {
      // not remembered, still applied
    }
  });
}

// --- a list of answers of any size -----------------------------------------------------
// Grouped by length (a chip per length with its count), filtered (starts, ends, contains),
// shown a page at a time (PAGE_SIZE words: 93,000 words never become 93,000 buttons), copied
// or exported as text.

class WordList {
  constructor(root, { onChoose = null, label = (item) => `${item.word}, ${plural(item.score, "point")}`, extra = null } = {}) {
    this.root = root;
    this.onChoose = onChoose;
    this.label = label;
    this.extra = extra;
    this.items = [];
    this.shown = [];
    this.page = 0;
    this.length = 0; // 0: every length
    this.chosen = -1;
    const id = root.id;
    this.status = el("p", { class: "status", id: `${id}-status`, role: "status", "aria-live": "polite" });
    const filter = (name, text) => {
      const input = el("input", { id: `${id}-${name}`, autocomplete: "off", spellcheck: "false", size: "5", autocapitalize: "characters" });
      input.addEventListener("input", () => this.refilter());
      return [el("label", {}, `${text} `, input), input];
    };
    const [starts, startsInput] = filter("starts", "Starts");
    const [ends, endsInput] = filter("ends", "Ends");
    const [contains, containsInput] = filter("has", "Contains");
    this.inputs = { starts: startsInput, ends: endsInput, contains: containsInput };
    this.copyButton = el("button", { type: "button", text: "Copy" });
    this.exportButton = el("button", { type: "button", text: "Export" });
    this.copyButton.addEventListener("click", () => this.copy());
    this.exportButton.addEventListener("click", () => this.export());
    this.toolbar = el("div", { class: "list-tools" }, starts, ends, contains, this.copyButton, this.exportButton);
    this.chips = el("div", { class: "chips", role: "group", "aria-label": "Lengths" });
    this.list = el("ol", { class: "words", id: `${id}-list` });
    this.prev = el("button", { type: "button", text: "Previous" });
    this.next = el("button", { type: "button", text: "Next" });
    this.where = el("span", { class: "where" });
    this.prev.addEventListener("click", () => this.goTo(this.page - 1));
    this.next.addEventListener("click", () => this.goTo(this.page + 1));
    this.pager = el("div", { class: "pager" }, this.prev, this.where, this.next);
    this.body = el("div", { class: "list-body" }, this.toolbar, this.chips, this.list, this.pager);
    this.body.hidden = true;
    root.replaceChildren(this.status, this.body);
  }

  setItems(items, text) {
    this.items = items;
    this.chosen = -1;
    this.length = 0;
    for (const input of Object.values(this.inputs)) input.value = "";
    const counts = new Map();
    for (const item of items) {
      const n = item.tiles ? item.tiles.length : [...item.word].length;
      item.length = n;
      counts.set(n, (counts.get(n) || 0) + 1);
    }
    const chip = (n, count) => {
      const button = el("button", { type: "button", class: "chip", "aria-pressed": String(n === 0) },
        n ? `${n} letters` : "All", el("span", { class: "count", text: count.toLocaleString("en") }));
      button.dataset.length = n;
      button.setAttribute("aria-label", `${n ? `${n} letters` : "all lengths"}: ${plural(count, "word")}`);
      button.addEventListener("click", () => {
        this.length = n;
        for (const other of this.chips.children) other.setAttribute("aria-pressed", String(other === button));
        this.refilter();
      });
      return button;
    };
    const lengths = [...counts.keys()].sort((a, b) => b - a);
    this.chips.replaceChildren(chip(0, items.length), ...lengths.map((n) => chip(n, counts.get(n))));
    this.body.hidden = items.length === 0;
    status(this.status.id, text);
    this.refilter();
  }

  clear(message, isError = false) {
    this.items = [];
    this.shown = [];
    this.list.replaceChildren();
    this.body.hidden = true;
    status(this.status.id, message, isError);
  }

  refilter() {
    const starts = this.inputs.starts.value.trim().toUpperCase();
    const ends = this.inputs.ends.value.trim().toUpperCase();
    const contains = this.inputs.contains.value.trim().toUpperCase();
    this.shown = [];
    for (let i = 0; i < this.items.length; i++) {
      const item = this.items[i];
      const word = item.word.toUpperCase();
      if (this.length && item.length !== this.length) continue;
      if (starts && !word.startsWith(starts)) continue;
      if (ends && !word.endsWith(ends)) continue;
      if (contains && !word.includes(contains)) continue;
      this.shown.push(i);
    }
    this.goTo(0);
  }

  pages() {
    return Math.max(1, Math.ceil(this.shown.length / PAGE_SIZE));
  }

  goTo(page) {
    this.page = Math.max(0, Math.min(page, this.pages() - 1));
    const start = this.page * PAGE_SIZE;
    const slice = this.shown.slice(start, start + PAGE_SIZE);
    const grouped = this.items.length > 0 && isByLength(this.items);
    const nodes = [];
    let last = null;
    for (const index of slice) {
      const item = this.items[index];
      if (grouped && item.length !== last) {
        last = item.length;
        nodes.push(el("li", { class: "group", role: "presentation", text: `${item.length} letters` }));
      }
      nodes.push(this.item(item, index));
    }
    this.list.replaceChildren(...nodes);
    const end = Math.min(start + PAGE_SIZE, this.shown.length);
    this.where.textContent = this.shown.length
      ? `${(start + 1).toLocaleString("en")}–${end.toLocaleString("en")} of ${this.shown.length.toLocaleString("en")}`
      : "no word matches";
    this.prev.disabled = this.page === 0;
    this.next.disabled = this.page >= this.pages() - 1;
    this.pager.hidden = this.shown.length <= PAGE_SIZE;
  }

  item(item, index) {
    const button = el("button", { type: "button", class: "word" });
    button.dataset.word = item.word;
    button.dataset.index = index;
    button.setAttribute("aria-label", this.label(item));
    const letters = el("span", { class: "letters", "aria-hidden": "true" });
    const tiles = item.tiles || [...(item.shown || item.word)];
    for (const tile of tiles) {
      const span = el("span", { text: tile.toUpperCase() });
      if (tile !== tile.toUpperCase()) span.className = "joker";
      if (tile.length > 1) span.classList.add("multi");
      letters.append(span);
    }
    button.append(letters, el("span", { class: "score", "aria-hidden": "true", text: item.score }));
    if (this.extra) button.append(this.extra(item));
    if (index === this.chosen) button.classList.add("chosen");
    if (this.onChoose) {
      button.addEventListener("click", () => this.choose(index));
      button.addEventListener("focus", () => this.choose(index, false));
    }
    return el("li", {}, button);
  }

  choose(index, scroll = false) {
    this.chosen = index;
    let position = this.shown.indexOf(index);
    if (position < 0) { // filtered out: show every word again
      for (const input of Object.values(this.inputs)) input.value = "";
      this.length = 0;
      for (const chip of this.chips.children) chip.setAttribute("aria-pressed", String(chip.dataset.length === "0"));
      this.refilter();
      position = this.shown.indexOf(index);
    }
    const page = Math.floor(position / PAGE_SIZE);
    if (page !== this.page) this.goTo(page);
    for (const button of this.list.querySelectorAll("button.word")) {
      button.classList.toggle("chosen", +button.dataset.index === index);
    }
    const button = this.list.querySelector(`button[data-index="${index}"]`);
    if (scroll && button) button.scrollIntoView({ block: "nearest" });
    if (this.onChoose) this.onChoose(this.items[index], index);
  }

  words() {
    return this.shown.map((i) => this.items[i].word);
  }

  async copy() {
    const text = this.words().join("\n");
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      const area = el("textarea", { class: "offscreen" });
      area.value = text;
      document.body.append(area);
      area.select();
      document.execCommand("copy");
      area.remove();
    }
    status(this.status.id, `Copied ${plural(this.shown.length, "word")}.`);
  }

  export() {
    const blob = new Blob([this.words().join("\n") + "\n"], { type: "text/plain" });
    download(blob, `${lexicon()}-words.txt`);
  }
}

function isByLength(items) {
  for (let i = 1; i < items.length; i++) if (items[i].length > items[i - 1].length) return false;
  return true;
}

function download(blob, name) {
  const link = el("a", { href: URL.createObjectURL(blob), download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

// --- racks -----------------------------------------------------------------------------

let rackList;

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
  rackList.clear("Searching…");
  try {
    const answer = await api(lexiconPath("anagram"), params);
    const items = answer.results.map((m) => ({ word: m.word, shown: m.shown, score: m.score }));
    rackList.setItems(items, `${plural(items.length, "word")} from ${letters}`);
  } catch (error) {
    rackList.clear(error.message, true);
  }
}

// --- letter boards (Boggle, Ruzzle) ----------------------------------------------------
// One board: the cells are the inputs, and the chosen word's path is drawn over them.

function cellText(letters) {
  // A cell as the grid format writes it: first letter uppercase, the rest lowercase (Qu).
  return letters.charAt(0).toUpperCase() + letters.slice(1).toLowerCase();
}

class LetterBoard {
  constructor(game) {
    this.game = game;
    this.root = $(`${game}-board`);
    this.cells = [];
    this.rows = 4;
    this.cols = 4;
    this.locked = false;
    this.path = [];
    this.overlay = document.createElementNS(SVG, "svg");
    this.overlay.setAttribute("class", "path-overlay");
    this.overlay.setAttribute("aria-hidden", "true");
    window.addEventListener("resize", () => this.fit());
  }

  multiCells() {
    const set = state.tileSets.get(lexicon());
    const cells = new Set(["QU"]);
    for (const cell of (set && set.multi_letter_cells) || []) cells.add(cell.toUpperCase());
    for (const tile of (set && set.multi_letter_tiles) || []) cells.add(tile.toUpperCase());
    return cells;
  }

  size() {
    const clamp = (v) => Math.max(1, Math.min(20, parseInt(v, 10) || 4));
    return [clamp($(`${this.game}-rows`).value), clamp($(`${this.game}-cols`).value)];
  }

  build(cells) {
    // cells: rows of {letters, multiplier} (kept where the new size overlaps the old board)
    [this.rows, this.cols] = this.size();
    const old = cells || this.read();
    this.cells = [];
    const nodes = [];
    for (let r = 0; r < this.rows; r++) {
      for (let c = 0; c < this.cols; c++) {
        const was = (old[r] || [])[c] || { letters: "", multiplier: "" };
        const input = el("input", {
          class: "cell-letter", autocomplete: "off", spellcheck: "false", autocapitalize: "characters", maxlength: "8",
        });
        input.dataset.row = r;
        input.dataset.col = c;
        input.value = was.letters;
        input.readOnly = this.multiplierMode();
        const cell = el("div", { class: "cell" }, input);
        cell.dataset.row = r;
        cell.dataset.col = c;
        const cellState = { input, cell, multiplier: was.multiplier || "" };
        input.addEventListener("beforeinput", (event) => this.typed(event, cellState));
        input.addEventListener("keydown", (event) => this.key(event, cellState));
        input.addEventListener("click", () => this.tapped(cellState));
        input.addEventListener("focus", () => input.select());
        this.cells.push(cellState);
        this.decorate(cellState);
        nodes.push(cell);
      }
    }
    this.root.replaceChildren(...nodes, this.overlay);
    this.root.style.setProperty("--cols", this.cols);
    this.root.style.setProperty("--rows", this.rows);
    this.fit();
    this.draw([]);
  }

  fit() {
    // Cells as large as the space allows (at least 2.6rem: a finger's width; the board
    // scrolls sideways inside its frame rather than shrink its letters).
    const frame = this.root.parentElement;
    if (!frame || !frame.clientWidth) return;
    const room = frame.clientWidth - 8;
    const size = Math.max(42, Math.min(96, Math.floor(room / this.cols)));
    this.root.style.setProperty("--cell", `${size}px`);
  }

  cellAt(r, c) {
    return this.cells[r * this.cols + c];
  }

  decorate(cellState) {
    const { input, cell, multiplier } = cellState;
    const letters = input.value;
    cell.classList.toggle("multi", [...letters].length > 1);
    for (const m of MULTIPLIERS.slice(1)) cell.classList.toggle(`m-${m}`, m === multiplier);
    cell.dataset.multiplier = multiplier ? multiplier.toUpperCase() : "";
    const r = +cell.dataset.row + 1;
    const c = +cell.dataset.col + 1;
    const square = this.game === "ruzzle" && multiplier ? `, ${MULTIPLIER_NAME[multiplier]}` : "";
    input.setAttribute("aria-label", `row ${r}, column ${c}${letters ? `: ${letters}` : ""}${square}`);
  }

  multiplierMode() {
    return this.game === "ruzzle" && $("ruzzle-mode-multipliers").checked;
  }

  tapped(cellState) {
    if (!this.multiplierMode() || this.locked) return;
    const next = MULTIPLIERS[(MULTIPLIERS.indexOf(cellState.multiplier) + 1) % MULTIPLIERS.length];
    cellState.multiplier = next;
    this.decorate(cellState);
  }

  typed(event, cellState) {
    // Every change is ours: a letter replaces the cell's letter, or completes a cell of
    // several letters (Q then U: Qu) when the cell was just typed into.
    event.preventDefault();
    if (this.locked || this.multiplierMode()) return;
    const { input } = cellState;
    if (event.inputType.startsWith("delete")) {
      input.value = "";
      this.decorate(cellState);
      return;
    }
    const text = (event.data || "").replace(/[^\p{L}]/gu, "");
    if (!text) return;
    let here = cellState;
    for (const letter of text) {
      const joined = (here.input.value + letter).toUpperCase();
      const multi = this.multiCells();
      if (here === this.lastTyped && here.input.value && multi.has(joined)) {
        here.input.value = cellText(joined);
      } else if (here === this.lastTyped && here.input.value) {
        const next = this.after(here);
        if (!next) break;
        here = next;
        here.input.value = letter.toUpperCase();
      } else {
        here.input.value = letter.toUpperCase();
      }
      this.decorate(here);
      this.lastTyped = here;
    }
    // on to the next cell unless this one may take another letter (Q: Qu)
    const prefix = [...this.multiCells()].some((m) => m.length > here.input.value.length && m.startsWith(here.input.value.toUpperCase()));
    if (!prefix) {
      const next = this.after(here);
      if (next) {
        this.lastTyped = null;
        next.input.focus();
      }
    } else if (here !== cellState) {
      here.input.focus();
      this.lastTyped = here;
    }
  }

  after(cellState) {
    const index = this.cells.indexOf(cellState) + 1;
    return index < this.cells.length ? this.cells[index] : null;
  }

  key(event, cellState) {
    if (event.key === "Enter") {
      event.preventDefault();
      solveBoard(this.game);
      return;
    }
    if (event.key === " " && this.multiplierMode()) {
      event.preventDefault();
      this.tapped(cellState);
      return;
    }
    if (event.key === "Backspace" && !cellState.input.value && !this.locked) {
      event.preventDefault();
      const index = this.cells.indexOf(cellState);
      if (index > 0) {
        const back = this.cells[index - 1];
        back.input.value = "";
        this.decorate(back);
        back.input.focus();
      }
      return;
    }
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const move = moves[event.key];
    if (!move) return;
    const r = +cellState.cell.dataset.row + move[0];
    const c = +cellState.cell.dataset.col + move[1];
    if (r < 0 || c < 0 || r >= this.rows || c >= this.cols) return;
    event.preventDefault();
    this.lastTyped = null;
    this.cellAt(r, c).input.focus();
  }

  read() {
    const cells = [];
    for (const { input, multiplier } of this.cells) {
      const r = +input.dataset.row;
      (cells[r] = cells[r] || []).push({ letters: input.value.trim(), multiplier });
    }
    return cells;
  }

  text() {
    return this.read()
      .map((row) => row.map((cell) => cellText(cell.letters) + cell.multiplier).join(" "))
      .join("/");
  }

  full() {
    return this.cells.length > 0 && this.cells.every(({ input }) => input.value.trim());
  }

  load(text) {
    // A board as /api answers write it ("ABCD/EFGH…", or spaced cells with multipliers).
    const rows = text.split("/").filter((row) => row.trim());
    const cells = rows.map((row) => {
      const parts = row.includes(" ") ? row.trim().split(/\s+/) : row.match(/Qu|./g);
      return parts.map((part) => {
        const match = /^(.*?)(dl|tl|dw|tw)?$/.exec(part);
        return { letters: match[1], multiplier: match[2] || "" };
      });
    });
    let cols = 1;
    for (const row of cells) cols = Math.max(cols, row.length);
    $(`${this.game}-rows`).value = Math.min(20, cells.length);
    $(`${this.game}-cols`).value = Math.min(20, cols);
    this.build(cells);
  }

  draw(path) {
    // The path: its cells marked (on-path, data-step) and a line through their centres.
    this.path = path || [];
    const steps = new Map(this.path.map(([r, c], i) => [`${r},${c}`, i + 1]));
    for (const { cell } of this.cells) {
      const step = steps.get(`${cell.dataset.row},${cell.dataset.col}`);
      cell.classList.toggle("on-path", Boolean(step));
      cell.classList.toggle("start", step === 1);
      if (step) cell.dataset.step = step;
      else delete cell.dataset.step;
    }
    this.overlay.setAttribute("viewBox", `0 0 ${this.cols} ${this.rows}`);
    this.overlay.setAttribute("preserveAspectRatio", "none");
    this.overlay.replaceChildren();
    if (this.path.length > 1) {
      const line = document.createElementNS(SVG, "polyline");
      line.setAttribute("class", "path");
      line.setAttribute("points", this.path.map(([r, c]) => `${c + 0.5},${r + 0.5}`).join(" "));
      this.overlay.append(line);
    }
  }
}

const boards = {};
const lists = {};

function showPath(game, item) {
  boards[game].draw(item ? item.path : []);
  if (item) {
    const fields = Object.fromEntries(readUrl());
    saveUrl({ ...fields, word: item.word });
  }
}

async function solveBoard(game, chosenWord) {
  const board = boards[game];
  const list = lists[game];
  if (game === "boggle" && round.timer) {
    status("boggle-play-status", "The round is on: the words come when it ends.", true);
    return null;
  }
  if (!board.full()) {
    list.clear("Fill every cell of the board first.", true);
    return null;
  }
  const grid = board.text();
  const fields = { grid };
  if (game === "ruzzle") fields.sort = $("ruzzle-sort").value;
  saveUrl(fields);
  list.clear("Searching…");
  const params = game === "boggle" ? { grid, paths: "true" } : { grid, sort: $("ruzzle-sort").value };
  try {
    const answer = await api(lexiconPath(game), params);
    const items = answer.results.map((w) => ({ word: w.word, score: w.score, path: w.path }));
    const total = answer.grids[0].total;
    list.setItems(items, `${plural(items.length, "word")}, ${plural(total, "point")} in all`);
    const wanted = items.findIndex((w) => w.word === chosenWord);
    if (items.length) list.choose(Math.max(0, wanted), wanted > 0);
    else board.draw([]);
    return items;
  } catch (error) {
    board.draw([]);
    list.clear(error.message, true);
    return null;
  }
}

async function randomBoard(game) {
  const [rows, cols] = boards[game].size();
  const params = { rows, cols, multipliers: game === "ruzzle" ? "true" : "" };
  try {
    const answer = await api(lexiconPath("generate"), params);
    boards[game].load(answer.results[0].board);
    return await solveBoard(game);
  } catch (error) {
    lists[game].clear(error.message, true);
    return null;
  }
}

// --- a Boggle round --------------------------------------------------------------------

const round = { words: new Map(), found: [], timer: null, end: 0, score: 0 };

async function playRound() {
  clearInterval(round.timer);
  const board = boards.boggle;
  board.locked = false;
  lists.boggle.clear("Drawing a board…");
  const [rows, cols] = board.size();
  let answer;
  try {
    answer = await api(lexiconPath("generate"), { rows, cols, min_words: Math.min(rows * cols, 20) });
  } catch (error) {
    lists.boggle.clear(error.message, true);
    return;
  }
  board.load(answer.results[0].board);
  const grid = board.text();
  let solved;
  try {
    solved = await api(lexiconPath("boggle"), { grid, paths: "true" });
  } catch (error) {
    lists.boggle.clear(error.message, true);
    return;
  }
  round.words = new Map(solved.results.map((w) => [w.word, w]));
  round.found = [];
  round.score = 0;
  board.locked = true;
  board.root.classList.add("locked");
  lists.boggle.clear(`A round: find as many of the board's words as you can (${plural(round.words.size, "word")} to find).`);
  $("boggle-game").hidden = false;
  $("boggle-found").replaceChildren();
  status("boggle-play-status", "");
  $("boggle-guess").value = "";
  $("boggle-guess").disabled = false;
  saveUrl({ grid });
  round.end = Date.now() + (+$("boggle-minutes").value) * 60000;
  tick();
  round.timer = setInterval(tick, 250);
  $("boggle-guess").focus();
}

function tick() {
  const left = Math.max(0, round.end - Date.now());
  const seconds = Math.ceil(left / 1000);
  $("boggle-timer").textContent = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
  $("boggle-timer").classList.toggle("late", seconds <= 10);
  if (left <= 0) endRound();
}

function guessTyped() {
  const guess = $("boggle-guess").value.trim().toUpperCase();
  const input = $("boggle-guess");
  const known = round.words.get(guess);
  input.classList.toggle("valid", Boolean(known) && !round.found.includes(guess));
  input.classList.toggle("invalid", guess.length >= 3 && !known);
  boards.boggle.draw(known ? known.path : []);
}

function guessWord(event) {
  event.preventDefault();
  const input = $("boggle-guess");
  const guess = input.value.trim().toUpperCase();
  if (!guess || input.disabled) return;
  const known = round.words.get(guess);
  if (round.found.includes(guess)) status("boggle-play-status", `${guess}: already found.`, true);
  else if (!known) status("boggle-play-status", `${guess}: not a word of this board.`, true);
  else {
    round.found.push(guess);
    round.score += known.score;
    $("boggle-found").append(el("li", { text: `${guess} +${known.score}` }));
    status("boggle-play-status", `${guess}: +${plural(known.score, "point")} (score ${round.score}).`);
  }
  input.value = "";
  guessTyped();
}

function endRound() {
  clearInterval(round.timer);
  round.timer = null;
  $("boggle-guess").disabled = true;
  boards.boggle.locked = false;
  boards.boggle.root.classList.remove("locked");
  const missed = [...round.words.values()].filter((w) => !round.found.includes(w.word));
  const best = [...round.words.values()].reduce((sum, w) => sum + w.score, 0);
  const items = missed.map((w) => ({ word: w.word, score: w.score, path: w.path }));
  status("boggle-play-status",
    `Time! You found ${plural(round.found.length, "word")} of ${round.words.size}: ${plural(round.score, "point")} of ${best}.`);
  lists.boggle.setItems(items, `The ${plural(items.length, "word")} you missed (choose one to see its path):`);
}

// --- Scrabble: the board ---------------------------------------------------------------

function tileSet() {
  return state.tileSets.get(lexicon());
}

async function loadTileSet(name) {
  if (state.tileSets.has(name)) return state.tileSets.get(name);
  try {
    const set = await api(`/api/lexicons/${encodeURIComponent(name)}/game/tiles`);
    state.tileSets.set(name, set);
    return set;
  } catch {
    state.tileSets.set(name, null); // a language without tiles: no Scrabble, the rest works
    return null;
  }
}

function multiTiles() {
  const set = tileSet();
  return set ? set.multi_letter_tiles : [];
}

function tileValue(tile) {
  const set = tileSet();
  if (!set || tile === "?" || tile !== tile.toUpperCase()) return 0;
  const found = set.tiles.find((t) => t.tile === tile);
  return found ? found.value : 0;
}

function parseRackText(text) {
  // [CH] in brackets is one tile; * and ? blanks; other characters one tile each.
  const tiles = [];
  for (const token of text.toUpperCase().match(/\[[^\]]*\]|\S/g) || []) {
    if (token === "*" || token === "?") tiles.push("?");
    else tiles.push(token.replace(/[[\]]/g, ""));
  }
  return tiles;
}

function rackText(tiles) {
  return tiles.map((t) => (t.length > 1 ? `[${t}]` : t)).join("");
}

const squares = new Map(); // "r,c" → {input, tile ("" / "A" / "CH" / "a": blank), fresh}

function square(r, c) {
  return squares.get(`${r},${c}`);
}

function buildScrabbleBoard() {
  const board = $("scrabble-board");
  const size = state.layout.length;
  board.style.setProperty("--size", size);
  squares.clear();
  const nodes = [];
  for (let r = 0; r < size; r++) {
    for (let c = 0; c < size; c++) {
      const premium = state.layout[r][c];
      const input = el("input", {
        class: `square p-${premium === "*" ? "start" : premium === "." ? "plain" : premium}`,
        autocomplete: "off", spellcheck: "false", autocapitalize: "characters",
      });
      input.dataset.row = r;
      input.dataset.col = c;
      input.dataset.premium = PREMIUM_NAME[premium] || "";
      input.placeholder = input.dataset.premium;
      const sq = { input, tile: "", fresh: false, r, c };
      squares.set(`${r},${c}`, sq);
      input.addEventListener("beforeinput", (event) => boardTyped(event, sq));
      input.addEventListener("keydown", (event) => boardKey(event, sq));
      input.addEventListener("focus", () => { state.focused = sq; });
      nodes.push(input);
      setTile(sq, "");
    }
  }
  board.replaceChildren(...nodes);
}

function squareName(r, c) {
  return `${String.fromCharCode(65 + c)}${r + 1}`;
}

function setTile(sq, tile, fresh = false) {
  sq.tile = tile;
  sq.fresh = Boolean(tile) && fresh;
  const { input } = sq;
  input.value = tile.toUpperCase();
  input.classList.toggle("tile", Boolean(tile));
  input.classList.toggle("blank", Boolean(tile) && tile !== tile.toUpperCase());
  input.classList.toggle("multi", tile.length > 1);
  input.classList.toggle("fresh", sq.fresh);
  const what = tile ? `${tile.toUpperCase()}${tile !== tile.toUpperCase() ? " (blank)" : ""}` : input.dataset.premium ? `empty, ${input.dataset.premium}` : "empty";
  input.setAttribute("aria-label", `${squareName(sq.r, sq.c)}: ${what}`);
  input.readOnly = Boolean(game.active && tile && !sq.fresh);
}

function boardTiles(withFresh = false) {
  const tiles = [];
  for (const sq of squares.values()) if (sq.tile && (withFresh || !sq.fresh)) tiles.push([sq.r, sq.c, sq.tile]);
  return tiles;
}

function freshTiles() {
  const tiles = [];
  for (const sq of squares.values()) if (sq.fresh) tiles.push([sq.r, sq.c, sq.tile]);
  return tiles;
}

function boardTyped(event, sq) {
  event.preventDefault();
  if (event.inputType.startsWith("delete")) {
    clearSquare(sq);
    return;
  }
  const text = (event.data || "").replace(/[^\p{L}*?]/gu, "");
  for (const char of text) typeOnBoard(sq, char);
}

function typeOnBoard(sq, char) {
  // A letter on the board: in a game, a tile of the rack (a blank if the rack lacks the
  // letter); the letter after C (for CH) joins it when the set has that tile.
  if (game.active && sq.tile && !sq.fresh) return moveOn(sq);
  if (char === "*" || char === "?") {
    if (sq.tile) toggleBlank(sq);
    return;
  }
  const letter = char.toUpperCase();
  const prev = state.lastSquare;
  if (prev && prev.tile && prev.fresh === Boolean(game.active) && prev.tile.length < 3) {
    const joined = prev.tile.toUpperCase() + letter;
    if (multiTiles().includes(joined) && state.lastNext === sq) {
      const blank = prev.tile !== prev.tile.toUpperCase();
      if (!game.active) {
        setTile(prev, blank ? joined.toLowerCase() : joined);
        return;
      }
      giveBack(prev.tile);
      const took = takeFromRack(joined);
      if (took) {
        setTile(prev, took, true);
        renderRack();
        return;
      }
      takeFromRack(prev.tile === prev.tile.toUpperCase() ? prev.tile : "?", prev.tile);
    }
  }
  if (game.active) {
    if (sq.tile) clearSquare(sq);
    const took = takeFromRack(letter);
    if (!took) {
      status("scrabble-status", `Your rack has no ${letter} and no blank.`, true);
      return;
    }
    setTile(sq, took, true);
    renderRack();
  } else {
    setTile(sq, letter);
    clearPreview();
  }
  moveOn(sq);
}

function moveOn(sq) {
  const across = state.direction !== "down";
  const next = across ? square(sq.r, sq.c + 1) : square(sq.r + 1, sq.c);
  state.lastSquare = sq;
  state.lastNext = next;
  if (next) next.input.focus();
  state.lastSquare = sq; // focus handlers do not reset these
  state.lastNext = next;
}

function toggleBlank(sq) {
  if (game.active) return;
  const blank = sq.tile !== sq.tile.toUpperCase();
  setTile(sq, blank ? sq.tile.toUpperCase() : sq.tile.toLowerCase());
}

function clearSquare(sq) {
  if (!sq.tile) return;
  if (game.active) {
    if (!sq.fresh) return;
    giveBack(sq.tile);
    setTile(sq, "");
    renderRack();
  } else {
    setTile(sq, "");
    clearPreview();
  }
}

function boardKey(event, sq) {
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (event.key === "Enter") {
    event.preventDefault();
    if (game.active) playHuman();
    else analyse();
  } else if (moves[event.key]) {
    event.preventDefault();
    state.direction = event.key === "ArrowDown" || event.key === "ArrowUp" ? "down" : "across";
    state.lastSquare = null;
    square(sq.r + moves[event.key][0], sq.c + moves[event.key][1])?.input.focus();
  } else if (game.active && sq.tile && !sq.fresh && /^\p{L}$/u.test(event.key)) {
    event.preventDefault(); // a tile already on the board: typing its letter goes through it
    moveOn(sq);
  } else if (event.key === "Backspace" && !sq.tile) {
    event.preventDefault();
    const back = state.direction === "down" ? square(sq.r - 1, sq.c) : square(sq.r, sq.c - 1);
    if (back) {
      clearSquare(back);
      back.input.focus();
    }
  }
}

function setUpDigraphs() {
  const tiles = multiTiles();
  const box = $("digraphs");
  box.hidden = !tiles.length;
  box.replaceChildren(...tiles.map((tile) => {
    const button = el("button", { type: "button", class: "tile-button multi", text: tile, "aria-label": `the ${tile} tile` });
    button.addEventListener("mousedown", (event) => event.preventDefault()); // keep the square focused
    button.addEventListener("click", () => {
      const sq = state.focused;
      if (!sq) return;
      if (game.active) {
        if (sq.tile) clearSquare(sq);
        const took = takeFromRack(tile);
        if (!took) {
          status("scrabble-status", `Your rack has no ${tile} and no blank.`, true);
          return;
        }
        setTile(sq, took, true);
        renderRack();
      } else {
        setTile(sq, tile);
      }
      moveOn(sq);
    });
    return button;
  }));
}

// --- Scrabble: best moves of a position ------------------------------------------------

let moveList;
const preview = { placed: [] };

function moveLabel(m) {
  const leave = m.leave && m.leave.length ? `, keeps ${rackText(m.leave)}` : "";
  return `${m.word}, ${plural(m.score, "point")}, ${m.position}${leave}, equity ${m.equity}`;
}

function moveExtra(m) {
  const box = el("span", { class: "move-info", "aria-hidden": "true" });
  box.append(el("span", { class: "position", text: m.position }));
  box.append(el("span", { class: "leave", text: m.leave.length ? `keeps ${rackText(m.leave)}` : "keeps nothing" }));
  box.append(el("span", { class: "equity", text: `eq ${m.equity}` }));
  if (m.variants > 1) box.append(el("span", { class: "variants", text: `${m.variants} ways` }));
  return box;
}

function clearPreview() {
  for (const [r, c] of preview.placed) {
    const sq = square(r, c);
    if (sq && sq.input.classList.contains("preview")) {
      sq.input.classList.remove("preview");
      if (!game.active) setTile(sq, "");
      else if (!sq.fresh) setTile(sq, sq.tile);
    }
  }
  preview.placed = [];
}

function showMove(m) {
  clearPreview();
  if (game.active) recallTiles();
  for (const [r, c, tile] of m.placed) {
    const sq = square(r, c);
    if (game.active) {
      const took = takeFromRack(tile.toUpperCase() === tile ? tile : "?", tile);
      if (took) setTile(sq, took, true);
    } else {
      setTile(sq, tile);
      sq.input.classList.add("preview");
    }
  }
  preview.placed = m.placed;
  if (game.active) renderRack();
}

async function listMoves(rack) {
  moveList.clear("Searching…");
  try {
    const answer = await post(lexiconPath("game/moves"), { board: boardTiles(), rack, top: 30 });
    const items = answer.results.map((m) => ({ ...m, length: m.tiles.length }));
    moveList.setItems(items, `${plural(answer.moves, "legal move")}, ${plural(answer.plays, "distinct play")}; the best ${items.length} by equity`);
    if (items.length && !game.active) moveList.choose(0);
  } catch (error) {
    moveList.clear(error.message, true);
  }
}

async function analyse() {
  clearPreview();
  const text = $("scrabble-rack").value.trim();
  if (!text) return;
  const board = boardTiles();
  saveUrl({ board: JSON.stringify(board), rack: text });
  await listMoves(parseRackText(text));
}

// --- Scrabble: a game against the computer ---------------------------------------------
// The page holds the game (bag, racks, record); the server answers the computer's turn and
// judges plays (lexforge.players.Equity, lexforge.plays), statelessly.

const NICKS = ["player", "computer"];
const game = { active: false };
let undoStack = [];

function makeRandom(seed) {
  // mulberry32: the same seed, the same bag (tests and shared games)
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle(tiles) {
  for (let i = tiles.length - 1; i > 0; i--) {
    const j = Math.floor(game.random() * (i + 1));
    [tiles[i], tiles[j]] = [tiles[j], tiles[i]];
  }
}

function fullSet() {
  const tiles = [];
  for (const { tile, count } of tileSet().tiles) for (let i = 0; i < count; i++) tiles.push(tile);
  for (let i = 0; i < tileSet().blanks; i++) tiles.push("?");
  return tiles;
}

function sortRack(tiles) {
  return [...tiles].sort((a, b) => (a === "?") - (b === "?") || (a < b ? -1 : a > b ? 1 : 0));
}

function draw(player) {
  const rack = game.racks[player];
  while (rack.length < tileSet().rack_size && game.bag.length) rack.push(game.bag.pop());
}

function startGame(seed) {
  if (!tileSet()) {
    status("scrabble-status", `${lexicon()}: this language has no Scrabble tiles.`, true);
    return;
  }
  clearPreview();
  Object.assign(game, {
    active: true, over: false, seed, random: makeRandom(seed), racks: [[], []], scores: [0, 0],
    events: [], scoreless: 0, turn: 0, lastPlay: null, exchanging: false, selected: new Set(),
  });
  game.bag = fullSet();
  shuffle(game.bag);
  draw(0);
  draw(1);
  undoStack = [];
  for (const sq of squares.values()) setTile(sq, "");
  enterGameMode();
  status("scrabble-status", "Your turn: type a word on the board from your rack, then Play.");
  moveList.clear("");
  saveUrl({ game: "1", seed: String(seed) });
  refreshGame();
}

function enterGameMode() {
  $("analyse-form").hidden = true;
  $("game-controls").hidden = false;
  $("scoreboard").hidden = false;
  $("unseen-box").hidden = false;
  $("log-box").hidden = false;
}

function leaveGameMode() {
  game.active = false;
  $("analyse-form").hidden = false;
  $("game-controls").hidden = true;
  $("scoreboard").hidden = true;
  $("unseen-box").hidden = true;
  $("log-box").hidden = true;
  for (const sq of squares.values()) setTile(sq, sq.tile);
  moveList.clear("");
  status("scrabble-status", "Type a position and a rack to see its best moves.");
}

function snapshot() {
  const copy = { ...game, racks: game.racks.map((r) => [...r]), bag: [...game.bag], scores: [...game.scores],
    events: game.events.map((e) => ({ ...e })), selected: new Set(), board: boardTiles() };
  delete copy.random;
  return copy;
}

function takeFromRack(tile, asBlank) {
  // The rack's tile for a letter: the tile itself, else a blank (then lowercase; asBlank:
  // the letter a blank is played as).
  const rack = game.racks[0];
  if (tile !== "?") {
    const at = rack.indexOf(tile);
    if (at >= 0) {
      rack.splice(at, 1);
      return tile;
    }
  }
  const blank = rack.indexOf("?");
  if (blank < 0) return null;
  rack.splice(blank, 1);
  return (asBlank || tile).toLowerCase();
}

function giveBack(tile) {
  game.racks[0].push(tile === tile.toUpperCase() ? tile : "?");
}

function recallTiles() {
  for (const sq of squares.values()) {
    if (sq.fresh) {
      giveBack(sq.tile);
      setTile(sq, "");
    }
  }
  renderRack();
}

function renderRack() {
  const rack = $("game-rack");
  rack.replaceChildren(...game.racks[0].map((tile, i) => {
    const button = el("button", { type: "button", class: `tile-button${tile.length > 1 ? " multi" : ""}` },
      el("span", { class: "face", text: tile === "?" ? "" : tile }), el("span", { class: "value", text: tile === "?" ? "" : tileValue(tile) }));
    button.setAttribute("aria-label", tile === "?" ? "blank" : `${tile}, ${plural(tileValue(tile), "point")}`);
    button.setAttribute("aria-pressed", String(game.selected.has(i)));
    button.addEventListener("click", () => {
      if (!game.exchanging) return;
      if (game.selected.has(i)) game.selected.delete(i);
      else game.selected.add(i);
      renderRack();
    });
    return button;
  }));
}

function unseenTiles() {
  const left = new Map();
  for (const tile of fullSet()) left.set(tile, (left.get(tile) || 0) + 1);
  const take = (tile) => left.set(tile, (left.get(tile) || 0) - 1);
  for (const [, , tile] of boardTiles(false)) take(tile === tile.toUpperCase() ? tile : "?");
  for (const tile of game.racks[0]) take(tile);
  for (const sq of squares.values()) if (sq.fresh) take(sq.tile === sq.tile.toUpperCase() ? sq.tile : "?");
  return left;
}

function refreshGame() {
  $("score-0").textContent = game.scores[0];
  $("score-1").textContent = game.scores[1];
  $("bag-count").textContent = game.bag.length;
  renderRack();
  const left = unseenTiles();
  let count = 0;
  const nodes = [];
  for (const [tile, n] of left) {
    if (n <= 0) continue;
    count += n;
    nodes.push(el("span", { class: `unseen-tile${tile.length > 1 ? " multi" : ""}`, text: `${tile === "?" ? "?" : tile}${n > 1 ? `×${n}` : ""}` }), " ");
  }
  $("unseen").replaceChildren(...nodes);
  $("unseen-count").textContent = `${count}: the bag's ${game.bag.length} and the computer's ${game.racks[1].length}`;
  $("game-log").replaceChildren(...game.events.map((e) => el("li", { text: eventText(e) })));
  const mine = game.active && !game.over && game.turn === 0;
  for (const id of ["game-play", "game-recall", "game-pass", "game-hint"]) $(id).disabled = !mine;
  $("game-exchange").disabled = !mine || game.bag.length < tileSet().rack_size;
  $("game-exchange").textContent = game.exchanging ? "Exchange the chosen tiles" : "Exchange…";
  $("game-challenge").disabled = !mine || !game.lastPlay || game.lastPlay.player !== 1 || game.lastPlay.challenged;
  $("game-undo").disabled = !undoStack.length;
}

function eventText(e) {
  const who = e.player === 0 ? "You" : "Computer";
  const total = ` (${e.cumulative})`;
  switch (e.kind) {
    case "play": return `${who}: ${e.position} ${e.shown || e.word.replace(/[[\]]/g, "")} +${e.score}${total}`;
    case "exchange": return `${who}: exchanged ${e.tiles.startsWith("-") ? e.tiles : e.tiles.length > 0 ? plural(parseRackText(e.tiles).length, "tile") : ""}${total}`;
    case "pass": return `${who}: passed${total}`;
    case "withdrawn": return `${who}: play challenged off, ${e.score}${total}`;
    case "challenge": return `${who}: +${e.score} for a play challenged in vain${total}`;
    case "end-rack": return `${who}: +${e.score} for the tiles left (${e.tiles})${total}`;
    case "rack-penalty": return `${who}: ${e.score} for the tiles left (${e.tiles})${total}`;
    default: return `${who}: ${e.kind} ${e.score}${total}`;
  }
}

function addEvent(player, kind, score, fields = {}, rack = game.racks[player]) {
  game.scores[player] += score;
  const event = { player, kind, rack: rackText(sortRack(rack)), score, cumulative: game.scores[player], ...fields };
  game.events.push(event);
  return event;
}

function rackValue(rack) {
  return rack.reduce((sum, tile) => sum + tileValue(tile), 0);
}

function endTurn(player, scored) {
  // After a turn: the end of the game (a rack played out with the bag empty, or six
  // scoreless turns), else the other player's turn.
  if (!game.racks[player].length && !game.bag.length) {
    const other = 1 - player;
    const left = game.racks[other];
    if (left.length) {
      addEvent(player, "end-rack", rackValue(left), { tiles: rackText(sortRack(left)) }, []);
      addEvent(other, "rack-penalty", -rackValue(left), { tiles: rackText(sortRack(left)) });
    }
    return finish();
  }
  game.scoreless = scored ? 0 : game.scoreless + 1;
  if (game.scoreless >= 6) {
    for (const p of [0, 1]) {
      const rack = game.racks[p];
      if (rack.length) addEvent(p, "rack-penalty", -rackValue(rack), { tiles: rackText(sortRack(rack)) });
    }
    return finish();
  }
  game.turn = 1 - player;
  refreshGame();
  if (game.turn === 1) return computerTurn();
  return null;
}

function finish() {
  game.over = true;
  game.turn = -1;
  refreshGame();
  const [mine, theirs] = game.scores;
  const verdict = mine > theirs ? "You win" : mine < theirs ? "The computer wins" : "A draw";
  status("scrabble-status", `The game is over. ${verdict}, ${mine} to ${theirs}.`);
  moveList.clear("");
}

async function playHuman() {
  if (!game.active || game.over || game.turn !== 0) return;
  if (game.exchanging) return exchange();
  const placed = freshTiles();
  if (!placed.length) {
    status("scrabble-status", "Type your word on the board first (or choose one of your moves).", true);
    return;
  }
  let judged;
  try {
    judged = await post(lexiconPath("game/judge"), { board: boardTiles(), placed });
  } catch (error) {
    status("scrabble-status", error.message, true);
    return;
  }
  undoStack.push(snapshotBefore(placed));
  const move = judged.move;
  const rackBefore = [...game.racks[0], ...placed.map(([, , t]) => (t === t.toUpperCase() ? t : "?"))];
  const event = addEvent(0, "play", move.score, { position: move.position, word: move.gcg_word, shown: move.word }, rackBefore);
  const phony = judged.words.filter((w) => !w.valid).map((w) => w.word);
  if (phony.length) {
    // the computer challenges a phony off the board: the tiles go back, the turn is lost
    addEvent(0, "withdrawn", -event.score, {}, rackBefore);
    recallTiles();
    status("scrabble-status", `The computer challenged ${phony.join(", ")}: not in the lexicon. Your play is withdrawn.`, true);
    return endTurn(0, false);
  }
  for (const [r, c, tile] of placed) setTile(square(r, c), tile, false);
  draw(0);
  game.lastPlay = { player: 0, placed, score: move.score };
  status("scrabble-status", `You played ${move.word} at ${move.position} for ${move.score}.`);
  moveList.clear("");
  return endTurn(0, move.score > 0);
}

function snapshotBefore(placed) {
  const copy = snapshot();
  copy.board = boardTiles();
  copy.racks[0] = [...game.racks[0], ...placed.map(([, , t]) => (t === t.toUpperCase() ? t : "?"))];
  return copy;
}

async function exchange() {
  if (!game.exchanging) {
    recallTiles();
    game.exchanging = true;
    game.selected = new Set();
    status("scrabble-status", "Choose the tiles to put back, then Exchange the chosen tiles.");
    refreshGame();
    return null;
  }
  const chosen = [...game.selected].sort((a, b) => b - a);
  game.exchanging = false;
  if (!chosen.length) {
    status("scrabble-status", "No tile chosen: nothing exchanged.");
    refreshGame();
    return null;
  }
  undoStack.push(snapshot());
  const before = [...game.racks[0]];
  const out = chosen.map((i) => game.racks[0].splice(i, 1)[0]);
  draw(0);
  game.bag.push(...out);
  shuffle(game.bag);
  addEvent(0, "exchange", 0, { tiles: rackText(sortRack(out)) }, before);
  game.selected = new Set();
  game.lastPlay = null;
  status("scrabble-status", `You exchanged ${plural(out.length, "tile")}.`);
  return endTurn(0, false);
}

function pass() {
  if (game.turn !== 0 || game.over) return null;
  recallTiles();
  undoStack.push(snapshot());
  addEvent(0, "pass", 0);
  game.lastPlay = null;
  status("scrabble-status", "You passed.");
  return endTurn(0, false);
}

async function challenge() {
  const last = game.lastPlay;
  if (!last || last.player !== 1 || game.turn !== 0) return;
  recallTiles();
  const board = boardTiles().filter(([r, c]) => !last.placed.some(([pr, pc]) => pr === r && pc === c));
  let judged;
  try {
    judged = await post(lexiconPath("game/judge"), { board, placed: last.placed });
  } catch (error) {
    status("scrabble-status", error.message, true);
    return;
  }
  undoStack.push(snapshot());
  last.challenged = true;
  const phony = judged.words.filter((w) => !w.valid).map((w) => w.word);
  if (phony.length) {
    addEvent(1, "withdrawn", -last.score, {}, last.rack);
    for (const [r, c] of last.placed) setTile(square(r, c), "");
    game.bag.push(...game.racks[1].splice(last.rack.length - last.placed.length));
    game.racks[1] = [...last.rack];
    status("scrabble-status", `Challenged off: ${phony.join(", ")} is not a word.`);
  } else {
    addEvent(1, "challenge", 5);
    status("scrabble-status", `${judged.words.map((w) => w.word).join(", ")}: in the lexicon. The computer gets 5 points.`);
  }
  refreshGame();
}

async function computerTurn() {
  status("scrabble-status", "The computer is thinking…");
  let action;
  try {
    action = await post(lexiconPath("game/computer"), {
      board: boardTiles(), rack: game.racks[1], bag: game.bag.length, scores: [game.scores[0], game.scores[1]], scoreless: game.scoreless,
      strength: $("game-strength").value,
    });
  } catch (error) {
    status("scrabble-status", `The computer could not move: ${error.message}`, true);
    game.turn = 0;
    refreshGame();
    return;
  }
  const rack = [...game.racks[1]];
  if (action.kind === "play") {
    for (const [r, c, tile] of action.placed) {
      setTile(square(r, c), tile);
      const at = game.racks[1].indexOf(tile === tile.toUpperCase() ? tile : "?");
      game.racks[1].splice(at, 1);
    }
    draw(1);
    addEvent(1, "play", action.score, { position: action.position, word: action.gcg_word, shown: action.word }, rack);
    game.lastPlay = { player: 1, placed: action.placed, score: action.score, rack };
    markLast(action.placed);
    status("scrabble-status", `The computer played ${action.word} at ${action.position} for ${action.score}. Your turn.`);
    return endTurn(1, action.score > 0);
  }
  game.lastPlay = null;
  if (action.kind === "exchange") {
    for (const tile of action.tiles) game.racks[1].splice(game.racks[1].indexOf(tile), 1);
    draw(1);
    game.bag.push(...action.tiles);
    shuffle(game.bag);
    addEvent(1, "exchange", 0, { tiles: rackText(sortRack(action.tiles)) }, rack);
    status("scrabble-status", `The computer exchanged ${plural(action.tiles.length, "tile")}. Your turn.`);
  } else {
    addEvent(1, "pass", 0, {}, rack);
    status("scrabble-status", "The computer passed. Your turn.");
  }
  return endTurn(1, false);
}

function markLast(placed) {
  for (const sq of squares.values()) sq.input.classList.remove("last");
  for (const [r, c] of placed) square(r, c).input.classList.add("last");
}

function undo() {
  const before = undoStack.pop();
  if (!before) return;
  for (const sq of squares.values()) setTile(sq, "");
  const seed = game.seed;
  Object.assign(game, before);
  game.random = makeRandom(seed + game.events.length); // a fresh shuffle from here on
  for (const [r, c, tile] of before.board) setTile(square(r, c), tile);
  markLast([]);
  status("scrabble-status", "Undone: your turn again.");
  refreshGame();
}

async function exportGame() {
  if (!game.events || !game.events.length) {
    status("scrabble-status", "No game to export yet: play a turn first.", true);
    return;
  }
  try {
    const answer = await post(lexiconPath("game/gcg"), {
      players: NICKS, events: game.events.map(({ shown, ...event }) => event), rack: game.over ? "" : rackText(sortRack(game.racks[0])),
    });
    download(new Blob([answer.gcg], { type: "text/plain" }), `lexforge-${lexicon()}.gcg`);
    status("scrabble-status", "The game is saved as a GCG file.");
  } catch (error) {
    status("scrabble-status", error.message, true);
  }
}

async function importGame(text) {
  let answer;
  try {
    answer = await post(lexiconPath("game/replay"), { gcg: text });
  } catch (error) {
    status("scrabble-status", error.message, true);
    return;
  }
  const seed = Date.now() >>> 0;
  startGame(seed);
  for (const sq of squares.values()) setTile(sq, "");
  for (const [r, c, tile] of answer.board) setTile(square(r, c), tile);
  // The bag: the set less the board; the racks dealt from it (the record's rack if it has it).
  const left = fullSet();
  const take = (tile) => {
    const at = left.indexOf(tile);
    if (at >= 0) left.splice(at, 1);
  };
  for (const [, , tile] of answer.board) take(tile === tile.toUpperCase() ? tile : "?");
  game.racks = [[], []];
  const toMove = answer.player === 1 ? 1 : 0;
  for (const tile of answer.rack) {
    take(tile);
    game.racks[toMove].push(tile);
  }
  game.bag = left;
  shuffle(game.bag);
  draw(0);
  draw(1);
  game.events = answer.events;
  game.scores = answer.scores;
  game.turn = toMove;
  undoStack = [];
  refreshGame();
  if (answer.over) return finish();
  status("scrabble-status", `Game loaded: ${plural(game.events.length, "event")}. ${toMove === 0 ? "Your turn." : ""}`);
  if (toMove === 1) return computerTurn();
  return null;
}

// --- start -----------------------------------------------------------------------------

const EXAMPLES = {
  rack: { tab: "rack", letters: "RATES**", sort: "length" },
  boggle: { tab: "boggle", grid: "PERS/LATG/SINE/TERS" },
  "boggle-play": { tab: "boggle", play: "1" },
  ruzzle: { tab: "ruzzle", grid: "Qutw E Adl R/S Tdw O N/L A Ttl E/R S E D" },
  scrabble: { tab: "scrabble", game: "1" },
  "scrabble-analyse": {
    tab: "scrabble",
    rack: "EIRSTA?",
    board: Array.from({ length: 15 }, (_, r) => (r === 7 ? "....JUMBO......" : ".".repeat(15))).join("/"),
  },
};

async function openExample(name) {
  const fields = EXAMPLES[name];
  history.replaceState(null, "", `#${new URLSearchParams({ lexicon: lexicon(), ...fields })}`);
  await fromUrl();
}

async function fromUrl() {
  const url = readUrl();
  const tab = TABS.includes(url.get("tab")) ? url.get("tab") : "start";
  showTab(tab);
  if (tab === "rack") {
    $("rack-letters").value = url.get("letters") || "";
    $("rack-sort").value = url.get("sort") || "length";
    $("rack-contains").value = url.get("contains") || "";
    $("rack-min").value = url.get("min_length") || "";
    $("rack-max").value = url.get("max_length") || "";
    $("rack-exact").checked = url.get("exact") === "true";
    if ($("rack-letters").value) await solveRack();
  } else if (tab === "boggle" || tab === "ruzzle") {
    if (tab === "ruzzle" && url.get("sort")) $("ruzzle-sort").value = url.get("sort");
    if (tab === "boggle" && url.get("play")) await playRound();
    else if (url.get("grid")) {
      boards[tab].load(url.get("grid"));
      await solveBoard(tab, url.get("word"));
    }
  } else if (tab === "scrabble") {
    await loadTileSet(lexicon());
    setUpDigraphs();
    if (url.get("game")) {
      const seed = parseInt(url.get("seed"), 10);
      startGame(Number.isFinite(seed) ? seed : Math.floor(Math.random() * 2 ** 31));
    } else if (url.get("board")) {
      leaveGameMode();
      loadBoard(url.get("board"));
      $("scrabble-rack").value = url.get("rack") || "";
      if ($("scrabble-rack").value) await analyse();
    }
  }
}

function loadBoard(text) {
  // [[row, col, tile], …] as JSON, or rows separated by "/" (a character per square, or
  // bracketed tiles: [CH]; lowercase: a blank)
  for (const sq of squares.values()) setTile(sq, "");
  let tiles = [];
  try {
    tiles = JSON.parse(text);
  } catch {
    text.split("/").forEach((row, r) => {
      (row.match(/\[[^\]]*\]|\S/g) || []).forEach((token, c) => {
        if (token !== ".") tiles.push([r, c, token.replace(/[[\]]/g, "")]);
      });
    });
  }
  for (const [r, c, tile] of tiles) if (square(r, c)) setTile(square(r, c), tile);
}

async function lexiconChanged() {
  await loadTileSet(lexicon());
  setUpDigraphs();
  if (state.tab === "rack" && $("rack-letters").value.trim()) return solveRack();
  if ((state.tab === "boggle" || state.tab === "ruzzle") && boards[state.tab].full()) return solveBoard(state.tab);
  if (state.tab === "scrabble" && game.active) startGame(game.seed);
  return null;
}

async function start() {
  setUpTheme();
  setUpTabs();
  const url = readUrl();
  const [lexicons, layout] = await Promise.all([api("/api/lexicons"), api("/api/layout")]);
  const select = $("lexicon");
  for (const found of lexicons.results) {
    select.add(new Option(`${found.name} (${found.words.toLocaleString("en")} words)`, found.name));
  }
  const names = lexicons.results.map((found) => found.name);
  select.value = names.includes(url.get("lexicon")) ? url.get("lexicon") : names.includes("en") ? "en" : names[0];
  select.addEventListener("change", lexiconChanged);
  await loadTileSet(lexicon());

  let size = 0;
  for (const sq of layout.results) size = Math.max(size, sq.row + 1, sq.col + 1);
  state.layout = Array.from({ length: size }, () => Array(size).fill("."));
  for (const sq of layout.results) state.layout[sq.row][sq.col] = sq.square;
  buildScrabbleBoard();
  setUpDigraphs();

  rackList = new WordList($("rack-results"));
  for (const game of ["boggle", "ruzzle"]) {
    boards[game] = new LetterBoard(game);
    lists[game] = new WordList($(`${game}-results`), { onChoose: (item) => showPath(game, item) });
    boards[game].build([]);
    $(`${game}-form`).addEventListener("submit", (event) => {
      event.preventDefault();
      solveBoard(game);
    });
    for (const id of [`${game}-rows`, `${game}-cols`]) $(id).addEventListener("change", () => boards[game].build());
    $(`${game}-random`).addEventListener("click", () => randomBoard(game));
  }
  $("ruzzle-sort").addEventListener("change", () => boards.ruzzle.full() && solveBoard("ruzzle"));
  for (const radio of document.querySelectorAll("input[name=ruzzle-mode]")) {
    radio.addEventListener("change", () => {
      const squares = $("ruzzle-mode-multipliers").checked;
      $("ruzzle-board").classList.toggle("multiplier-mode", squares);
      // a tap changes the square: no keyboard pops up on a phone
      for (const { input } of boards.ruzzle.cells) input.readOnly = squares;
    });
  }
  moveList = new WordList($("scrabble-moves"), { onChoose: (m) => showMove(m), label: moveLabel, extra: moveExtra });

  $("rack-form").addEventListener("submit", (event) => {
    event.preventDefault();
    solveRack();
  });
  $("boggle-play").addEventListener("click", playRound);
  $("boggle-guess-form").addEventListener("submit", guessWord);
  $("boggle-guess").addEventListener("input", guessTyped);
  $("boggle-stop").addEventListener("click", endRound);
  $("analyse-form").addEventListener("submit", (event) => {
    event.preventDefault();
    analyse();
  });
  $("scrabble-clear").addEventListener("click", () => {
    for (const sq of squares.values()) setTile(sq, "");
    moveList.clear("");
  });
  $("game-new").addEventListener("click", () => {
    startGame(Math.floor(Math.random() * 2 ** 31));
  });
  $("game-analyse").addEventListener("click", leaveGameMode);
  $("game-play").addEventListener("click", playHuman);
  $("game-recall").addEventListener("click", () => {
    recallTiles();
    refreshGame();
  });
  $("game-pass").addEventListener("click", pass);
  $("game-exchange").addEventListener("click", exchange);
  $("game-challenge").addEventListener("click", challenge);
  $("game-undo").addEventListener("click", undo);
  $("game-hint").addEventListener("click", () => {
    recallTiles();
    listMoves(game.racks[0]);
  });
  $("game-export").addEventListener("click", exportGame);
  $("game-import").addEventListener("change", async () => {
    const file = $("game-import").files[0];
    if (!file) return;
    if (file.size > 60000) {
      status("scrabble-status", `${file.name}: over 60,000 bytes, not a game record.`, true);
      return;
    }
    showTab("scrabble");
    await importGame(await file.text());
    $("game-import").value = "";
  });
  for (const button of document.querySelectorAll("button.example")) {
    button.addEventListener("click", () => openExample(button.dataset.example));
  }
  $("home").addEventListener("click", (event) => {
    event.preventDefault();
    showTab("start");
    saveUrl({});
  });
  leaveGameMode();
  await fromUrl();
  document.body.dataset.ready = "true";
}

start().catch((error) => {
  document.body.dataset.ready = "true";
  const box = el("p", { class: "status error", role: "alert", text: `The page could not start: ${error.message}` });
  document.querySelector("main").prepend(box);
});
