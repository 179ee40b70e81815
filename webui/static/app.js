/* Subdivision scorer page: photo upload, board diagram with one-tap corrections, score
 * breakdown, legality and legal moves. Plain JavaScript; talks only to the JSON API:
 * POST /api/read (photo, with corners marked by hand or not), /api/preview (the photo to mark
 * them on), /api/score and /api/check (board text). */
(function () {
  "use strict";

  const $ = (sel, root = document) => root.querySelector(sel);
  const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));
  const SVG_NS = "http://www.w3.org/2000/svg";
  const FILES = "ABCDEFGHIJKL";
  const CELL = `[${FILES[0]}-${FILES[FILES.length - 1]}](1[0-2]|[1-9])`; // A1 .. L12
  const CELL_NAME = new RegExp(`^${CELL}$`);
  const CELL_NAMES_IN_TEXT = new RegExp(`\\b${CELL}\\b`, "g");
  const COLOURS = JSON.parse($("#colour-letters").textContent); // [{name, letter}]
  const NAME_OF = Object.fromEntries(COLOURS.map((c) => [c.letter, c.name]));
  const LETTER_OF = Object.fromEntries(COLOURS.map((c) => [c.name, c.letter]));
  const FILL = {
    red: "#d7263d", yellow: "#f4c20d", orange: "#f57c00", green: "#2e9d44", cyan: "#17b3c8",
    blue: "#2a5fd6", purple: "#7c3fb8", clear: "#dfe8ef", black: "#262626", white: "#fbfbfb",
  };
  const LIGHT_COLOURS = new Set(["yellow", "clear", "white", "cyan"]);
  const UNSURE_BELOW = 0.95; // the reader's flag threshold, for readings saved before the API sent it
  const SIZE_NAME = { 1: "small", 2: "medium", 3: "large" };
  const MAX_PHOTO_BYTES = 25000000;
  const STORAGE_KEY = "subdivision-scorer.v1";
  const UNSEEN = "(unseen)"; // the move chooser's entry for a player with no piece on the board
  // "tap" said "click" where the pointer is a mouse (a walkthrough on a laptop was told to tap)
  const TOUCH = window.matchMedia("(pointer: coarse)").matches;

  const state = {
    rows: 0, cols: 0, cells: null,   // cells[row][col] = token; row 0 is the bottom row
    reading: null,                   // {byCell: {A1: {...}}, notes: [...]} of the last photo
    readTokens: null,                // what the reader said, to mark corrections
    score: null, check: null,
    highlight: new Set(), pinned: null,
    moveColour: null, movePips: null,
    turnFollowed: null,              // the player to move the mid-game card's player last followed
    boardFollowed: null,             // the board (its text) the card's size was last fitted to the turn on
    boardNote: null,                 // {text, info, action, board}: the note under the board (showBoardNote), its button as data, and the board (its text) it speaks of
    checkedFor: null,                // what the last check answered (checkAsked, as JSON)
    optionsFromBoard: false,         // players and stash were set by "New empty board", not by the player
    stashFromCheck: false,           // the stash was set by the reader's stash check for that photo, not by the player
    seats: [],                       // the order of play the player tapped in, first player first (colour names)
    textDirty: false,
    textBase: null,                  // the board (its tokens) the text was edited from, while no other board replaced it (mergeTextEdits)
    pendingBoard: null,              // the board kept from the last visit, while the server cannot be reached to show it
    pendingNote: null,               // the note under that board (restoredNote), said once it is shown
    photo: null,                     // {size: [w, h], squares: {A1: [[x, y] x 4]}} of the overlay shown
    upload: null,                    // the XMLHttpRequest of a photo being read
    uploadKey: null,                 // the options and marks that upload was sent with
    lastPhoto: null,                 // the last photo sent, for "read again" (kept in memory only)
    lastMarked: null,                // {corners, squares} the last photo was read with, if marked by hand
    onMarkingCancelled: null,        // what cancelling the marking of a photo with no board found puts back
    marks: [], mark: null,           // corners tapped so far (preview px); {scale, size} of the preview
    markOpener: null,                // what had the keyboard's focus when the marking opened: it goes back there if cancelled
    drag: null,                      // {index, pointer} of the corner being dragged
    pressing: null,                  // the pointer of a finger pressing on the photo to place a corner
    placedOnLift: -Infinity,         // when (performance.now()) a finger last placed a corner as it lifted
    toastTimer: null,                // hides the toast of a correction's new outcome
    cardOrder: [],                   // the players' colours in the order their score cards were shown
    newSizeFollowed: null,           // the board size "New empty board"'s menu last followed
    watched: null,                   // {order, squares, board, skipAt?, previous?, lastAt?}: the colours and squares placed one by one here since the board was empty, typed or read from a photo (a square null: a move taken back, its place open), the board after, the watch before the last move, the move made last if not the last in order (watchChange)
    seatsWatched: false,             // the order of play was set from the game watched here, not tapped in
    seatsAskedFor: null,             // the board (its text) the order of play was asked for again on ("change")
    seq: 0,
    analysing: null,                 // the last scoring asked (analyse's promise), which a tap waits on
    boardGen: 0,                     // counts the boards put in place other than by a tap: a tap still waiting its turn is then dropped
    putAside: null,                  // the board "New empty board" or a new photo last put aside (boardPutAside)
    released: null,                  // {before, after, gen}: the options a new photo was sent without (releaseForPhoto)
    bulkConfirm: null,               // the last one-tap confirmation of unsure squares, one tap from undone while the board and its doubts are as it left them (confirmUnsureSquares)
    colourAnswer: null,              // the last colour check answered, one tap from undone while the board and its doubts are as it left them (answeredColour)
    sorting: null,                   // two colours sorted piece by piece on the reading shown: {colours, reading, ending?} (startSorting)
  };

  // --- small helpers --------------------------------------------------------------------
  const cellName = (col, row) => FILES[col] + (row + 1);
  const parseCell = (name) => ({ col: FILES.indexOf(name[0]), row: parseInt(name.slice(1), 10) - 1 });
  const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
  // ``word`` ("tap", "Tap", "one tap") as said on this device: "click" where the pointer is a mouse.
  const tapWord = (word) => (TOUCH ? word : word.replace(/\b([Tt])ap\b/, (_, t) => (t === "T" ? "Click" : "click")));
  // The server's one-line error as a sentence: "photo: not an image (...)" -> "The photo: not an image (...)."
  const serverSays = (error) => {
    const text = cap(String(error).replace(/^photo: /, "the photo: "));
    return /[.!?]$/.test(text) ? text : `${text}.`;
  };
  const isPyramid = (t) => typeof t === "string" && t.length === 2 && !!NAME_OF[t[0]] && "123".includes(t[1]); // "r3"
  const counted = (n, noun) => `${n} ${noun}${Math.abs(n) === 1 ? "" : "s"}`; // "1 piece", "3 pieces"
  const points = (n) => counted(n, "point");
  const signed = (n) => (n > 0 ? "+" + n : n < 0 ? "\u2212" + Math.abs(n) : "0");
  const minusSigned = (n) => (n < 0 ? "\u2212" + Math.abs(n) : String(n)); // a total: no plus, the lines' minus

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  // ``text`` said to a screen reader (a status line of its own, apart from the scoring's): the
  // outcome of a control whose change shows only on the board.
  const ANNOUNCED_MS = 10000; // time enough to be read out
  let announced = null; // the timer letting the last go
  function announce(text) {
    const status = $("#page-status");
    status.textContent = status.textContent === text ? `${text}\u00a0` : text; // the same words again: a change still
    // once read out, let go: left there, a screen reader's user reading the page meets it long after
    clearTimeout(announced);
    announced = setTimeout(() => { status.textContent = ""; }, ANNOUNCED_MS);
  }

  // The live region ``node``'s content replaced by ``children`` (strings and nodes) only where
  // its words change: set again to the same words, a screen reader would read them out again.
  function replaceLive(node, ...children) {
    const next = el("span", {}, ...children);
    if (node.textContent !== next.textContent) node.replaceChildren(...next.childNodes);
  }

  function svg(tag, attrs) {
    const node = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    return node;
  }

  function describe(token) {
    if (!token || token === ".") return "empty";
    if (token === "#") return "park";
    return `${NAME_OF[token[0]] || token[0]} ${token[1]}-pip`;
  }

  // "a", "a and b", "a, b and c" (``word``: "and", "or").
  function listed(items, word) {
    return items.length > 1 ? `${items.slice(0, -1).join(", ")} ${word} ${items[items.length - 1]}` : items.join("");
  }

  function swatch(colour) {
    return el("span", { class: `swatch colour-${colour}`, "aria-hidden": "true" });
  }

  // --- board text -------------------------------------------------------------------------
  function tokensFromText(text) {
    const lines = text.split(/\r?\n/).map((l) => l.split(/(?:^|\s);/)[0].trim()).filter((l) => l); // as Board.from_text's comments
    const top = lines.map((l) => l.split(/\s+/).map((t) => t.toLowerCase())); // R3 is r3, as the server reads it
    return top.reverse(); // row 0 = bottom
  }

  // The board's text (of the board shown, or of ``cells``, row 0 the bottom one).
  function boardText(cells = state.cells) {
    return cells.slice().reverse().map((line) => line.join(" ")).join("\n") + "\n";
  }

  // Another board put in place other than by a tap: a tap still waiting its turn is dropped, and
  // a text being edited is no longer an edit of the board shown.
  function boardReplaced() {
    state.boardGen += 1;
    state.textBase = null;
  }

  function setBoardFromText(text) {
    if (!state.cells) state.boardGen += 1; // the first board shown (the one kept from the last visit: its text's edits stay its)
    else if (text !== boardText()) boardReplaced(); // another board, not this one scored
    const cells = tokensFromText(text);
    state.cells = cells;
    state.rows = cells.length;
    state.cols = cells.length ? cells[0].length : 0;
  }

  // Whether square ``name`` holds another value than the photo's reading gave it, its colour
  // group named as it is now (a group renamed is one answer, not a correction of each square).
  function isCorrected(name) {
    const read = readNowAt(name);
    return read !== undefined && read !== tokenAt(name) && !placedSincePhoto(name);
  }

  // Whether square ``name`` holds a pyramid placed as the game went on after the photo: one the
  // game watched here took for a move (``watchChange``); on a board no longer watched, one on a
  // square the reader was sure was empty (a piece it missed is flagged unsure: a correction).
  function placedSincePhoto(name) {
    const token = tokenAt(name), watched = watchOf(boardText());
    return readTokenAt(name) === "." && !!token && token.length === 2
      && (watched ? watched.squares.includes(name) : readSurely(name, "."));
  }

  // Whether the reader read square ``name`` as ``token`` ("." empty) and was sure of it,
  // or was told since that it was (a piece it missed, put there and confirmed, stays one it missed).
  function readSurely(name, token) {
    const reading = state.reading || {};
    const doubted = Array.isArray(reading.doubted) ? reading.doubted : reading.unsure || []; // (a reading saved before)
    return readTokenAt(name) === token && !doubted.includes(name);
  }

  // The reader's doubts about squares ``names`` answered as it read them: they are sure now.
  function doubtsAnswered(names) {
    if (Array.isArray(state.reading.doubted)) state.reading.doubted = state.reading.doubted.filter((cell) => !names.includes(cell));
  }

  // How many pyramids were placed since the photo (``placedSincePhoto``).
  function placedSinceCount() {
    if (!state.cells) return 0;
    return state.cells.reduce((n, row, r) => n + row.filter((t, c) => placedSincePhoto(cellName(c, r))).length, 0);
  }

  // Whether square ``name`` holds what the photo's reading gave it, its colour group named as
  // it is now (false without a reading).
  function stillAsRead(name) {
    return readNowAt(name) === tokenAt(name);
  }

  // What the reader gave square ``name``, a pyramid in the colour its group is named now.
  function readNowAt(name) {
    const read = readTokenAt(name);
    const group = read && read.length === 2 && groupOfCell(name);
    return group && LETTER_OF[group.colour] ? LETTER_OF[group.colour] + read[1] : read;
  }

  function groupOfCell(name) {
    return ((state.reading && state.reading.colourGroups) || []).find((g) => Array.isArray(g.cells) && g.cells.includes(name));
  }

  // The reader's colour groups the player has named otherwise.
  function renamedGroups() {
    return ((state.reading && state.reading.colourGroups) || []).filter((g) => {
      const read = readLetterOf(g);
      return read && LETTER_OF[g.colour] && read !== LETTER_OF[g.colour];
    });
  }

  // The colour letter the reader gave a colour group's pieces (undefined without a reading).
  function readLetterOf(group) {
    const read = Array.isArray(group.cells) && group.cells.length ? readTokenAt(group.cells[0]) : undefined;
    return read && read.length === 2 ? read[0] : undefined;
  }

  // Whether colour group ``group``, one of ``renamed``, swapped names with another of them.
  function swappedAmong(group, renamed) {
    const [a, b] = [readLetterOf(group), LETTER_OF[group.colour]];
    return renamed.some((o) => o !== group && readLetterOf(o) === b && LETTER_OF[o.colour] === a);
  }

  // Squares changed since the photo was read, each colour group renamed counting one and two
  // groups that swapped names one between them (one tap on a player's colour menu).
  function correctionCount() {
    if (!state.cells) return 0;
    const renamed = renamedGroups();
    return renamed.length - Math.floor(renamed.filter((g) => swappedAmong(g, renamed)).length / 2)
      + state.cells.reduce((n, row, r) => n + row.filter((t, c) => isCorrected(cellName(c, r))).length, 0);
  }

  function tokenAt(name) {
    return tokenIn(state.cells, name);
  }

  // The token on square ``name`` of ``cells`` (rows of tokens, row 0 the bottom), undefined off them.
  function tokenIn(cells, name) {
    const { col, row } = parseCell(name);
    return cells && cells[row] ? cells[row][col] : undefined;
  }

  // --- options and persistence ------------------------------------------------------------
  function options() {
    return {
      players: $("#opt-players").value,
      stash: ($('#options input[name="stash"]:checked') || { value: "auto" }).value, // auto, standard, threehouse
      colours: $$('#opt-colours input:checked').map((i) => i.value), // the players' colours ticked
      private_parks: $("#opt-private-parks").checked,
      loose_parks: $("#opt-private-parks").checked && $("#opt-loose-parks").checked,
    };
  }

  function setOptions(opts) {
    if (!opts) return;
    const players = $("#opt-players");
    if ([...players.options].some((o) => o.value === String(opts.players))) players.value = String(opts.players);
    setStash(threehouseOption(opts)); // options saved before "auto" existed have no stash: auto
    $("#opt-private-parks").checked = !!opts.private_parks;
    $("#opt-loose-parks").checked = !!opts.loose_parks;
    const ticked = new Set(Array.isArray(opts.colours) ? opts.colours : []);
    for (const box of $$("#opt-colours input")) box.checked = ticked.has(box.value);
    syncOptionsShown();
  }

  // The players' colours to read a photo with: two to four ticked, else none (read without them).
  function coloursToSend(o) {
    return o.colours && o.colours.length >= 2 && o.colours.length <= 4 ? o.colours : null;
  }

  // true, false or "auto" (the server infers it from the board's size and parks)
  function threehouseOption(o) {
    return { standard: false, threehouse: true }[o.stash] ?? "auto";
  }

  // A photo's board is checked with the stash it was read with (the reader inferred it on auto).
  function checkedStash(o) {
    const option = threehouseOption(o);
    return option === "auto" && state.reading && state.readTokens ? state.reading.threehouse : option;
  }

  function nameOfStash(threehouse) {
    return threehouse ? "ThreeHouse" : "standard";
  }

  // Players and stash set by "New empty board" for its game, not by the player: back on auto
  // for another game.
  function releaseOptionsFromBoard() {
    $("#opt-players").value = "auto";
    setStash("auto");
    state.optionsFromBoard = false;
  }

  // A new photo is read with the players and stash a new board or a stash check set on auto:
  // they were for the game shown. Kept (state.released) until the photo is read, to be put back
  // if it is not (putReleasedBack).
  function releaseForPhoto() {
    if (!state.optionsFromBoard && !state.stashFromCheck) return; // nothing to release (or released for a photo still on its way)
    const before = { players: $("#opt-players").value, stash: options().stash,
      optionsFromBoard: state.optionsFromBoard, stashFromCheck: state.stashFromCheck };
    if (state.optionsFromBoard) releaseOptionsFromBoard();
    else setStash("auto");
    state.stashFromCheck = false;
    state.released = { before, after: JSON.stringify(options()), gen: state.boardGen };
    save();
  }

  // The options as they stand, with the players and stash as they were ``before`` a photo
  // released them (state.released.before).
  function optionsBeforeRelease(before) {
    return { ...options(), players: before.players, stash: before.stash };
  }

  // The photo sent was not read: the reading shown keeps the options released for it, where
  // nothing has changed since (no option set, no board typed, made or read; ``anyBoard``: the
  // board put right meanwhile, the same game).
  function putReleasedBack({ anyBoard = false } = {}) {
    const released = state.released;
    state.released = null;
    if (!released || (!anyBoard && released.gen !== state.boardGen) || JSON.stringify(options()) !== released.after
      || state.optionsFromBoard || state.stashFromCheck) {
      save();
      return;
    }
    const { players, stash, optionsFromBoard, stashFromCheck } = released.before;
    $("#opt-players").value = players;
    setStash(threehouseOption({ stash }));
    Object.assign(state, { optionsFromBoard, stashFromCheck });
    save();
    renderWarnings();
    // (a tap while the photo was read had the board checked with them released)
    if (state.cells && state.checkedFor !== JSON.stringify(checkAsked(boardText()))) rescore();
  }

  function setStash(threehouse) {
    $("#opt-stash-auto").checked = threehouse === "auto";
    $("#opt-threehouse").checked = threehouse === true;
    $("#opt-standard").checked = threehouse === false;
  }

  // What the Game options show that follows from the others: the loose reading only with
  // Private Parks, and the note beside the Colours ticks.
  function syncOptionsShown() {
    $("#opt-loose-parks").disabled = !$("#opt-private-parks").checked;
    syncColoursUsed();
  }

  // Beside the Colours option: ticks that are not used (one, or more than four), and ticks
  // that differ from those the photo shown was read with (they count from the next read).
  function syncColoursUsed() {
    const ticked = options().colours, sent = coloursToSend({ colours: ticked });
    const readWith = state.reading && state.lastPhoto ? state.reading.coloursTold || null : undefined;
    let note = "";
    if (ticked.length && !sent) note = `${ticked.length} ticked: photos are read without colours until two to four are.`;
    else if (readWith !== undefined && JSON.stringify([...(sent || [])].sort()) !== JSON.stringify([...(readWith || [])].sort())) {
      note = "The photo shown was read with other colours: read it again to use these.";
    }
    $("#colours-used").textContent = note;
  }

  // "New empty board"'s size menu as it stands: the setup chosen (size, players, ThreeHouse) and the other size's rows and columns.
  function newSizeChosen() {
    const option = $("#new-size").selectedOptions[0] || {};
    const { players, threehouse } = option.dataset || {};
    return { value: option.value, players, threehouse, rows: $("#new-rows").value, cols: $("#new-cols").value };
  }

  // The most watches before the game watched here kept across a reload (a watch's ``previous``
  // chain is one a move at most: four players' stashes hold 60 pieces).
  const MAX_WATCHES_BEFORE = 100;

  // The game watched here as kept from the last visit ({order, squares, board, skipAt?,
  // previous?}), each watch before it checked too, else null.
  function restoredWatch(watched, depth = 0) {
    if (!(watched && typeof watched.board === "string" && Array.isArray(watched.order) && watched.order.every((c) => LETTER_OF[c])
        && Array.isArray(watched.squares) && watched.squares.length === watched.order.length
        && watched.squares.every((name) => name === null || CELL_NAME.test(name)))) return null;
    const previous = depth < MAX_WATCHES_BEFORE ? restoredWatch(watched.previous, depth + 1) : null;
    return { order: watched.order, squares: watched.squares, board: watched.board,
      ...(Number.isInteger(watched.skipAt) && { skipAt: watched.skipAt }), ...(previous && { previous }),
      ...(Number.isInteger(watched.lastAt) && { lastAt: watched.lastAt }) };
  }

  function save() {
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify({
        options: options(),
        text: $("#board-text").value,
        textDirty: state.textDirty,
        textBase: state.textBase && boardText(state.textBase),
        released: state.released && { before: state.released.before, after: state.released.after }, // put back at a reload: the photo let go
        board: state.cells ? boardText() : state.pendingBoard, // a kept board not shown yet stays kept
        readTokens: state.readTokens,
        reading: state.reading,
        optionsFromBoard: state.optionsFromBoard,
        stashFromCheck: state.stashFromCheck,
        seats: state.seats,
        move: [state.moveColour, state.movePips, state.turnFollowed], // the mid-game card's player and size
        cardOrder: state.cardOrder,
        watched: state.watched, // with the watches before it, for taking its moves back
        seatsWatched: state.seatsWatched,
        newSizeFollowed: state.newSizeFollowed,
        newSize: newSizeChosen(), // "New empty board"'s size menu
        putAside: state.putAside && { ...state.putAside, photo: null }, // the photo itself is not kept
        sorting: state.sorting && !state.sorting.ending ? { colours: state.sorting.colours, changedBefore: state.sorting.changedBefore } : null,
        boardNote: !$("#board-note").hidden && state.cells && state.boardNote.board === boardText() ? state.boardNote
          : !state.cells ? state.pendingNote : null, // a kept board's note, kept with it
      }));
    } catch (err) { /* private mode or full storage: the page still works */ }
  }

  function restore() {
    let saved = null;
    try { saved = JSON.parse(localStorage.getItem(STORAGE_KEY) || "null"); } catch (err) { saved = null; }
    sayPhotoNotRead(); // (before any photo chosen meanwhile)
    if (!saved) return;
    setOptions(saved.options);
    if (typeof saved.text === "string") $("#board-text").value = saved.text;
    state.textDirty = !!saved.textDirty;
    state.textBase = state.textDirty && typeof saved.textBase === "string" ? tokensFromText(saved.textBase) : null;
    state.readTokens = Array.isArray(saved.readTokens) && saved.readTokens.every(Array.isArray) ? saved.readTokens : null;
    state.reading = wellFormedReading(saved.reading) ? saved.reading : null;
    if (state.reading && !state.reading.notes) { // saved before the notes: its warnings, all of them
      state.reading.notes = state.reading.warnings;
      delete state.reading.warnings;
    }
    if (state.reading && !(Array.isArray(state.reading.noteKinds) && state.reading.noteKinds.length === state.reading.notes.length)) {
      state.reading.noteKinds = []; // saved before the kinds, or damaged: every note is shown
    }
    if (!state.reading) state.readTokens = null;
    else settleRenamedGroups(typeof saved.board === "string" ? coloursIn(tokensFromText(saved.board)) : new Set());
    state.optionsFromBoard = saved.optionsFromBoard === true;
    state.stashFromCheck = saved.stashFromCheck === true;
    const released = saved.released && saved.released.before; // sent with a photo the reload let go, nothing set since
    if (released && typeof released.players === "string" && JSON.stringify(saved.options) === saved.released.after) {
      setOptions(optionsBeforeRelease(released));
      state.optionsFromBoard = released.optionsFromBoard === true;
      state.stashFromCheck = released.stashFromCheck === true;
    }
    state.seats = Array.isArray(saved.seats) && saved.seats.every((c) => typeof c === "string" && LETTER_OF[c]) ? saved.seats : [];
    if (Array.isArray(saved.move)) { // a player the board no longer has falls back when the card is drawn
      if (typeof saved.move[0] === "string") state.moveColour = saved.move[0];
      if ([1, 2, 3].includes(saved.move[1])) state.movePips = saved.move[1];
      if (typeof saved.move[2] === "string") state.turnFollowed = saved.move[2];
    }
    if (Array.isArray(saved.cardOrder) && saved.cardOrder.every((c) => typeof c === "string")) state.cardOrder = saved.cardOrder;
    state.watched = restoredWatch(saved.watched);
    state.seatsWatched = saved.seatsWatched === true;
    if (typeof saved.newSizeFollowed === "string") state.newSizeFollowed = saved.newSizeFollowed;
    const size = saved.newSize;
    const option = size && [...$("#new-size").options].find((o) => o.value === size.value
      && (o.value === "custom" || (o.dataset.players === size.players && o.dataset.threehouse === size.threehouse)));
    if (option) {
      option.selected = true;
      $("#custom-size").hidden = option.value !== "custom";
      if (typeof size.rows === "string" && typeof size.cols === "string") [$("#new-rows").value, $("#new-cols").value] = [size.rows, size.cols];
    }
    state.putAside = restoredAside(saved.putAside);
    state.pendingNote = restoredNote(saved.boardNote);
    const sorting = saved.sorting; // (two colours being sorted: it goes on)
    const colours = sorting && sorting.colours, before = sorting && sorting.changedBefore;
    if (state.reading && Array.isArray(colours) && colours.length === 2 && colours[0] !== colours[1]
      && colours.every((c) => typeof c === "string" && Object.hasOwn(LETTER_OF, c))) {
      const changedBefore = Array.isArray(before) ? before.filter((name) => typeof name === "string" && CELL_NAME.test(name)) : [];
      state.sorting = { colours, reading: state.reading, changedBefore };
    }
    if (typeof saved.board === "string" && saved.board.trim()) {
      // The photo is not kept across a reload; its marks and checks are, and say so at the top.
      restoreBoard(saved.board).then(returnToPlace);
    }
  }

  // The note under the board as kept from the last visit (showBoardNote's fields), else null; one
  // offering back a board put aside only while that board is still kept.
  function restoredNote(note) {
    const action = note && note.action;
    const valid = action === null
      || (action && ["take_back", "park_back"].includes(action.kind) && CELL_NAME.test(action.name)
        && isPyramid(action.value)
        && (action.kind === "take_back" ? action.next === undefined || (Array.isArray(action.next) && action.next.every((c) => LETTER_OF[c])
          && ["rule", "turn"].includes(action.reason)) : action.watched === null || restoredWatch(action.watched)))
      || (action && action.kind === "put_back" && state.putAside)
      || (action && action.kind === "as_move" && CELL_NAME.test(action.name) && isPyramid(action.value));
    if (!(note && typeof note.text === "string" && typeof note.board === "string" && typeof note.info === "boolean" && valid)) return null;
    return { text: note.text, info: note.info, board: note.board,
      action: action && action.kind === "park_back" ? { ...action, watched: restoredWatch(action.watched) } : action };
  }

  // A reload (a phone's browser reloads a page left in the background) comes back to the card
  // at the top of the screen, once the board kept is drawn again: the browser's own restoring
  // came before the cards were there, and landed in the options. Each card on the screen is
  // kept, top first, so that one not shown again (the photo's: the photo is not kept) gives way
  // to the next where it stood.
  const PLACE_KEY = "subdivision-scorer.place";

  // What this tab's session keeps under ``key`` (JSON), else ``fallback`` (none, or damaged).
  function sessionValue(key, fallback) {
    try {
      const kept = sessionStorage.getItem(key);
      return kept === null ? fallback : JSON.parse(kept);
    } catch (err) { return fallback; } // (private mode: the page still works)
  }

  // ``value`` kept under ``key`` for this tab's session (JSON; null: nothing kept).
  function keepForSession(key, value) {
    try {
      if (value === null) sessionStorage.removeItem(key);
      else sessionStorage.setItem(key, JSON.stringify(value));
    } catch (err) { /* private mode: the page still works */ }
  }

  function rememberPlace() {
    const shown = $$("#summary, .card[id]").filter((node) => node.getClientRects().length);
    const onScreen = window.scrollY > 0 ? shown.filter((node) => {
      const { top, bottom } = node.getBoundingClientRect();
      return bottom > 0 && top < window.innerHeight;
    }) : [];
    keepForSession(PLACE_KEY, onScreen.map((node) => ({ id: node.id, top: node.getBoundingClientRect().top })));
  }

  function returnToPlace() {
    const places = sessionValue(PLACE_KEY, []);
    for (const place of Array.isArray(places) ? places : [places]) { // (one place, as a page before kept it)
      const node = place && typeof place.id === "string" && document.getElementById(place.id);
      if (!node || !node.getClientRects().length || !Number.isFinite(place.top)) continue;
      window.scrollTo(0, window.scrollY + node.getBoundingClientRect().top - place.top);
      return;
    }
  }

  // A photo still being read when the page was left (a reload, a phone's browser reloading a
  // page left in the background), or one with no board found waiting for its corners to be
  // marked, is said on the page's return where photos are chosen, with the way to choose it
  // again: its file is not kept. ``file``: the photo sent, else null (read, refused, let go, its
  // marking closed); ``stage``: "reading" or "marking".
  const READING_KEY = "subdivision-scorer.reading";
  let leavingPage = false; // (a page left aborts its upload: no photo let go)

  function noteReading(file, stage = "reading") {
    keepForSession(READING_KEY, file ? { name: typeof file.name === "string" ? file.name : "", stage } : null);
  }

  // The photo noted (noteReading): {name, stage}, else null.
  function notedPhoto() {
    const noted = sessionValue(READING_KEY, null);
    return noted && typeof noted.name === "string" ? noted : null;
  }

  // The photo noted said in the photo card (the note let go: said once), until another photo is
  // chosen (``show`` false: taken down).
  function sayPhotoNotRead(show = true) {
    const box = $("#photo-lost");
    if (!show) {
      box.hidden = true;
      return;
    }
    const lost = notedPhoto();
    noteReading(null);
    if (!lost) return;
    const name = lost.name ? ` (${lost.name.slice(0, 80)})` : "";
    fillMessage(box, lost.stage === "marking"
      ? `No board was found on the photo${name}, and its corners were still to be marked when the page was left; the photo is not kept: choose it again to mark them.`
      : `The photo${name} was still being read when the page was left, and is not kept: choose it again to read it.`,
    { label: "Choose the photo again", onclick: () => $("#file-input").click() });
  }

  // The board kept from the last visit, scored again (a reading kept with it says what to check,
  // unless a photo sent meanwhile has its own message to show).
  // The note under it (a move against the rules, a board put aside) is said again, not alerted.
  function restoreBoard(text) {
    const photo = state.lastPhoto;
    return analyse(text, { quiet: true, restoring: true }).then((ok) => {
      if (ok && state.reading && state.lastPhoto === photo) showReadingMessage({ restored: true });
      const note = state.pendingNote;
      if (ok === undefined || (!ok && !state.cells)) return; // (not shown yet: kept for "Try again")
      state.pendingNote = null;
      if (note && state.cells && boardText() === note.board) {
        showBoardNote(note.text, note.action, { reveal: false, info: note.info, restored: true });
      }
    });
  }

  // A reading saved by this page has these fields; one damaged in storage is dropped, not drawn.
  function wellFormedReading(r) {
    const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
    const isList = (v, item) => Array.isArray(v) && v.every(item);
    return isObject(r) && isObject(r.byCell) && Object.values(r.byCell).every(isObject)
      && isList(r.unsure, (c) => typeof c === "string")
      && isList(r.notes || r.warnings, (w) => typeof w === "string")
      && (r.settled === undefined || isList(r.settled, (c) => typeof c === "string"))
      && isList(r.colourGroups, (g) => isObject(g) && typeof g.colour === "string"
        && isList(g.cells, (c) => typeof c === "string"));
  }

  // --- messages and progress --------------------------------------------------------------
  // ``action``: {label, onclick}, a button after the text. ``messagesShown`` counts them, so
  // that work answering later (a scoring) clears only a message older than itself.
  let messagesShown = 0;
  // ``reveal``: an error scrolled into view (false for one about work in the background, a
  // scoring after a correction: the player stays where they are). ``alert``: false for one the
  // keyboard's focus is about to be put on, which a screen reader reads then (alerted as well,
  // it was said twice over).
  function showMessage(text, kind, action, { reveal = true, alert = true } = {}) {
    messagesShown += 1;
    const box = $("#message");
    // guidance shown again as it stands (after each move, say) is not alerted again
    const same = kind === "info" && !box.hidden && box.className === "message info"
      && box.textContent === (action ? `${text} ${action.label}` : text);
    if (same) return;
    if (alert) box.setAttribute("role", "alert");
    else box.removeAttribute("role");
    fillMessage(box, text, action);
    box.className = "message" + (kind ? " " + kind : "");
    // An error answers what was just tapped: on a phone the box may sit a screen below it.
    if (!kind && reveal) scrollIntoViewIfOut(box, "center");
  }

  // ``box`` shown saying ``text``, with ``action``'s button after it where given.
  function fillMessage(box, text, action) {
    keepFocusWithin(box, () => {
      box.textContent = text;
      if (action) box.append(" ", el("button", { type: "button", class: "button", onclick: action.onclick }, action.label));
    });
    box.hidden = false;
  }

  // What a placement did wrong (a rule it breaks, a move out of turn), a board put aside, or what
  // a photo of the game carried on brought (``info``: news, not a problem), said under the board,
  // where the eyes are (on a phone the top message is screens above), as long as the board
  // stays the one it speaks of (``renderDiagram`` lets it go), a reload included. ``action``: its
  // button, as data kept across a reload (noteButton). ``reveal``: scrolled into view.
  function showBoardNote(text, action = null, { reveal = true, info = false, restored = false } = {}) {
    const note = $("#board-note");
    if (restored) note.removeAttribute("role"); // said again after a reload: not news to alert
    else note.setAttribute("role", "alert");
    fillMessage(note, text, action && noteButton(action));
    note.className = "message board-note" + (info ? " info" : ""); // news, not a problem
    state.boardNote = { text, info, action, board: boardText() };
    save();
    renderPutBack(); // (its link while the note does not offer that board)
    if (action && action.next && state.check) { // whose turn: once the piece is taken back (and no dots meanwhile)
      renderMidgame();
      renderDiagram();
    }
    if (reveal) scrollIntoViewIfOut(note, "nearest");
  }

  // The button of the note under the board from its data: ``take_back`` the piece ``value`` off
  // square ``name``; ``park_back``: the park on ``name`` where ``value`` was put by mistake, and
  // the game ``watched`` as it was (sayOnPark); ``put_back`` the board put aside (boardPutAside).
  function noteButton(action) {
    if (action.kind === "take_back") return takeBack(action.name, action.value);
    if (action.kind === "park_back") return parkBack(action.name, action.value, action.watched);
    if (action.kind === "as_move") return { label: "It is a move", onclick: () => retakeAsMove(action.name, action.value) };
    return { label: "Put the last board back", onclick: putLastBoardBack };
  }

  // The note under the board offering back the board ``aside`` put aside (boardPutAside) by a
  // new photo (``kind`` "photo") or "New empty board" ("new").
  function showAsideNote(aside, kind) {
    const what = { photo: "A new photo: the last board", new: "A new empty board: the last one",
      back: "The last board is back, and the one shown" }[kind];
    showBoardNote(`${what}, with ${counted(aside.pieces, "piece")}, is put aside.`, { kind: "put_back" }, { info: true }); // news: a new game is no fault
  }

  // The board put aside as kept from the last visit (boardPutAside's fields), else null.
  function restoredAside(aside) {
    const isFlag = (v) => v === undefined || typeof v === "boolean";
    if (!(aside && Number.isInteger(aside.pieces) && aside.pieces > 0 && typeof aside.text === "string"
      && Array.isArray(aside.seats) && aside.seats.every((c) => typeof c === "string" && LETTER_OF[c])
      && aside.options && typeof aside.options === "object" && isFlag(aside.seatsWatched)
      && isFlag(aside.optionsFromBoard) && isFlag(aside.stashFromCheck))) return null;
    const read = wellFormedReading(aside.reading) && Array.isArray(aside.readTokens) && aside.readTokens.every(Array.isArray)
      ? { reading: aside.reading, readTokens: aside.readTokens } : {}; // a photo's board: its reading, damaged dropped
    return { pieces: aside.pieces, text: aside.text, seats: aside.seats, seatsWatched: !!aside.seatsWatched,
      watched: restoredWatch(aside.watched), options: aside.options, optionsFromBoard: !!aside.optionsFromBoard,
      stashFromCheck: !!aside.stashFromCheck, ...read };
  }

  // ``node`` scrolled to (``block`` as scrollIntoView takes it) when any of it is off the screen.
  function scrollIntoViewIfOut(node, block) {
    const { top, bottom } = node.getBoundingClientRect();
    if (top < 0 || bottom > window.innerHeight) bringIntoView(node, block);
  }

  // ``node`` scrolled to, smoothly unless the system asks for less motion.
  function bringIntoView(node, block) {
    const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    node.scrollIntoView({ behavior: still ? "auto" : "smooth", block });
  }

  // ``node`` scrolled to the top of the screen and, where ``follow``, the keyboard's focus moved
  // there too (onto its first heading shown, else itself): a keyboard lands where the eyes do.
  function goTo(node, follow = true) {
    bringIntoView(node, "start");
    if (!follow) return;
    focusOn(Array.from(node.querySelectorAll("h2, h3")).find((h) => h.offsetParent !== null) || node);
  }

  // The keyboard's focus put on ``node``, the page not scrolled; a node that takes no focus of
  // its own (a heading, a box) is made to take it from script alone (tabindex -1).
  function focusOn(node) {
    if (!node.matches("a[href], button, input, select, textarea, [tabindex]")) node.setAttribute("tabindex", "-1");
    node.focus({ preventScroll: true });
  }

  // Whether the keyboard's focus is on nothing or on the control that sent a board or a photo
  // off (it would stay behind, off the screen, once the page goes to the results).
  function focusLeftBehind() {
    const on = document.activeElement;
    return !on || on === document.body || ["apply-text", "file-input", "camera-input"].includes(on.id);
  }

  // The note by the board text box; ``refused``: the text itself was refused, which the box says
  // to a screen reader too (aria-invalid, and the note as its description).
  function textStatus(text, refused = false) {
    $("#text-status").textContent = text;
    if (refused) $("#board-text").setAttribute("aria-invalid", "true");
    else $("#board-text").removeAttribute("aria-invalid");
  }

  function clearMessage() { keepFocusWithin($("#message"), () => { $("#message").hidden = true; }); }

  // ``redraw`` run on ``box``; where the keyboard's focus was inside it and the redraw took it
  // away (the button gone), it goes to the box's first control, else to the box itself, or,
  // the box hidden, to the board: never lost to the page.
  function keepFocusWithin(box, redraw) {
    const had = box.contains(document.activeElement);
    redraw();
    if (!had || (!box.hidden && box.contains(document.activeElement))) return; // a hidden box lets go of it later
    const control = box.hidden ? null : box.querySelector("button:not([disabled]), select, input, textarea, a[href]");
    const target = control || (box.hidden ? $('#diagram .sq[tabindex="0"]') : box);
    if (target) focusOn(target);
  }

  function progress(text, percent) {
    const wrap = $("#progress");
    const bar = $("#progress-bar");
    if (text === null) { wrap.hidden = true; return; }
    // shown once per reading, where a tap far down the page ("read again") can see it
    if (wrap.hidden) {
      wrap.hidden = false;
      scrollIntoViewIfOut(wrap, "center");
    }
    $("#progress-text").textContent = text;
    if (percent === undefined) bar.removeAttribute("value");
    else bar.value = percent;
  }

  // --- API --------------------------------------------------------------------------------
  // A 200 that is not JSON: a login page or proxy answered in the scorer's place.
  const NOT_THE_SCORERS_ANSWER = "The answer did not come from the scorer (a login page or proxy in the way?): "
    + "what you entered is kept; try again.";

  // A 200 said to be JSON whose body does not parse was cut off on the way (a dropped
  // connection, a busy Wi-Fi): scoring and checking change nothing, so it is asked once more.
  const CUT_OFF = "The scorer's answer was cut off on the way: what you entered is kept; try again.";

  async function postJSON(url, body, retried = false) {
    let response;
    try {
      response = await fetch(url, {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
      });
    } catch (err) {
      throw Object.assign(new Error("Could not reach the scorer: check the connection and try again."), { unreachable: true });
    }
    let data = null;
    try { data = await response.json(); } catch (err) { data = null; }
    if (!response.ok) {
      throw new Error(data && data.error ? serverSays(data.error) : `The server answered ${response.status}.`);
    }
    if (!data || typeof data !== "object") {
      if (!/json/i.test(response.headers.get("Content-Type") || "")) throw new Error(NOT_THE_SCORERS_ANSWER);
      if (!retried) return postJSON(url, body, true);
      throw new Error(CUT_OFF);
    }
    return data;
  }

  // What /api/check is asked of board ``text`` with the options (``o``: as they stand) and order of play.
  function checkAsked(text, o = options()) {
    return { board: text, players: o.players, threehouse: checkedStash(o), seats: seatsToSend(text) };
  }

  // Score and check board ``text``; the run is kept (``state.analysing``) for a tap to wait on.
  function analyse(text, opts = {}) {
    state.analysing = scoreAndCheck(text, opts);
    return state.analysing;
  }

  async function scoreAndCheck(text, opts) {
    const seq = ++state.seq;
    const shownBefore = messagesShown;
    if (!opts.correction) $("#score-toast").hidden = true; // another board: the last one's outcome is old news
    const o = options();
    textStatus("Scoring\u2026");
    try {
      const [score, check] = await Promise.all([
        postJSON("api/score", { board: text, private_parks: o.private_parks, loose_parks: o.loose_parks }),
        postJSON("api/check", checkAsked(text)),
      ]);
      if (seq !== state.seq) return;
      state.score = score;
      state.check = check;
      setBoardFromText(score.board);
      state.checkedFor = JSON.stringify(checkAsked(boardText()));
      const missedFound = settleMissedPieceDoubts(check);
      state.pendingBoard = null;
      if (!state.textDirty || opts.fromText) {
        if (!opts.fromText) $("#board-text").value = score.board;
        state.textDirty = false;
      }
      textStatus(state.textDirty ? "The text above has edits not applied yet." : "");
      if (!opts.quiet && messagesShown === shownBefore) clearMessage(); // not one shown since it was asked (a photo's error)
      $("#results").classList.remove("stale");
      renderAll();
      save();
      if (missedFound.length) sayMissedPiecesFound(missedFound);
      if (opts.scroll) goTo($("#results"), focusLeftBehind());
      return true;
    } catch (err) {
      if (seq !== state.seq) return undefined; // a newer scoring has taken over
      state.colourMenuFocus = null; // no menu drawn anew to go back to
      // The reason by the text box itself when it was the text that failed; the message below says it too.
      const pagesOwn = err instanceof TypeError || err instanceof RangeError; // not the text's fault
      const refused = opts.fromText && !pagesOwn;
      textStatus(refused ? `The text above is not applied: ${err.message.replace(/^Board text: /, "")}`
        : opts.fromText || state.textDirty ? "The text above is not applied: see the message below." : "", refused);
      if (pagesOwn) {  // the page's own fault, not the answer's
        console.error(err);
        showMessage("Something went wrong drawing the board; what you entered is kept. Reload the page to try again.");
      } else if (opts.restoring && err.unreachable) { // kept, to be shown once the server answers
        state.pendingBoard = text;
        showMessage("Could not reach the scorer to show the board kept from your last visit (it is still kept): "
          + "check the connection.", "", { label: "Try again", onclick: () => restoreBoard(text) });
      } else if (opts.restoring) {
        showMessage(`The board kept from your last visit could not be shown (${err.message.replace(/\.$/, "")}). Read a photo or enter a board to go on.`);
      } else if (opts.fromText) {
        showMessage(err.message);
      } else {
        // The board on screen has changed but its score has not: say so until it is scored.
        if (state.score) $("#results").classList.add("stale");
        // A player's card is the last scored board's: its colour menu could name a colour gone.
        for (const menu of $$("#players select.name")) menu.disabled = true;
        showMessage(`${err.message} The score shown is from before the last change.`, "", { label: "Try again", onclick: rescore },
          { reveal: false });
      }
      return false;
    }
  }

  // Score the board on screen again (after a change, or after the server could not be
  // reached), keeping the reading and its guidance up to date.
  function rescore() {
    if (!state.cells) return;
    const shownBefore = messagesShown;
    const outcomeBefore = $("#outcome").dataset.result;
    return analyse(boardText(), { quiet: true, correction: true }).then((ok) => {
      if (ok && messagesShown === shownBefore && !(state.reading && showReadingMessage())) clearMessage();
      // Only a finished game's: mid-game the lead changes move by move (a game played on the page,
      // or carried on from a photo), and the toast would cover the next player's squares.
      const final = state.reading && state.check && state.check.game_over;
      if (ok && final && $("#outcome").dataset.result !== outcomeBefore) toastOutcome();
      return ok;
    });
  }

  const TOAST_MS = 6000;

  // A correction of a finished game's photo that changed the outcome, said at the foot of the screen
  // where neither the summary nor the score card's outcome is in sight (on a phone, the board
  // or photo fills it).
  function toastOutcome() {
    const toast = $("#score-toast");
    const summary = $("#summary-text").textContent || $("#outcome").dataset.sentence;
    if (!summary || [$("#summary"), $("#outcome")].some(inSight)) { // said where it is seen: an older toast goes
      toast.hidden = true;
      return;
    }
    toast.textContent = `Now: ${summary}`;
    toast.hidden = false;
    clearTimeout(state.toastTimer);
    state.toastTimer = setTimeout(() => { toast.hidden = true; }, TOAST_MS);
  }

  function inSight(node) {
    if (!node.getClientRects().length) return false;
    const { top, bottom } = node.getBoundingClientRect();
    return bottom > 0 && top < window.innerHeight;
  }

  // The board text box shows the board, unless it holds text typed and not applied.
  function syncBoardText() {
    if (!state.textDirty && state.cells) $("#board-text").value = boardText();
  }

  // Read a photo; ``marked`` ({corners in photo px, squares "8x8"}) reads the board marked by
  // hand instead of the one the reader finds.
  function uploadPhoto(file, marked = null) {
    if (!file) return;
    clearMessage();
    sayPhotoNotRead(false); // (another photo chosen)
    state.onMarkingCancelled = null;
    // A file the reader refuses: the way on, another, one tap away.
    const another = { label: "Choose another photo", onclick: () => $("#file-input").click() };
    if (file.size > MAX_PHOTO_BYTES) {
      showMessage(`This photo is ${(file.size / 1e6).toFixed(1)} MB; photos up to 25 MB are accepted.`, undefined, another);
      return;
    }
    if (file !== state.lastPhoto) releaseForPhoto();
    const o = options();
    const colours = coloursToSend(o);
    if (colours && o.players !== "auto" && Number(o.players) !== colours.length) { // one of them left from another game
      putReleasedBack(); // not sent
      showMessage(`Players is set to ${o.players} under Game, but ${colours.length} colours are ticked there (${listed(colours, "and")}).`,
        undefined, { label: "Read with Players on auto", onclick: () => {
          $("#opt-players").value = "auto";
          save();
          uploadPhoto(file, marked);
        } });
      return;
    }
    const key = JSON.stringify([o.players, threehouseOption(o), colours, marked]);
    if (state.upload && file === state.lastPhoto && key === state.uploadKey) return; // a double tap: already on its way
    const shown = state.reading && state.reading.file instanceof Blob ? [state.reading.file, state.lastMarked] : [null, null];
    if (file !== state.lastPhoto) { closeMarking(); state.lastMarked = null; }
    state.lastPhoto = file;
    // A photo that could not be read: "read again" and "mark the corners" go on with the
    // photo whose reading is shown.
    const keepShown = () => { if (shown[0] && file !== shown[0]) [state.lastPhoto, state.lastMarked] = shown; };
    // Not read (refused, failed, unreachable, no board marked): the reading shown stays, and the options released for it.
    const notRead = () => { keepShown(); putReleasedBack(); };
    state.uploadKey = key;
    const form = new FormData();
    form.append("photo", file, file.name || "photo.jpg");
    form.append("players", o.players);
    form.append("threehouse", String(threehouseOption(o))); // "auto": the reader infers it
    if (colours) form.append("colours", colours.join(","));
    if (marked) {
      form.append("corners", JSON.stringify(marked.corners));
      form.append("squares", marked.squares);
    }
    const replaced = state.upload;
    const xhr = new XMLHttpRequest();
    state.upload = xhr;
    if (replaced) replaced.abort(); // a newer photo replaces one still being read
    xhr.onabort = () => { // let go (dropUpload)
      if (state.upload !== xhr || leavingPage) return;
      noteReading(null);
      progress(null);
      if (marked && !$("#mark-card").hidden && file !== shown[0]) closeMarking(); // its marks go with it
      keepShown();
      state.released = null; // let go for a board made or typed: the options as they stand are its
      save();
    };
    xhr.onloadend = () => { if (state.upload === xhr) state.upload = null; };
    $("#mark-error").hidden = true; // (said again if these marks are refused too)
    xhr.open("POST", "api/read");
    xhr.responseType = "json";
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) progress(`Uploading\u2026 ${Math.round((100 * e.loaded) / e.total)}%`, (100 * e.loaded) / e.total);
    };
    xhr.upload.onload = () => progress("Reading the board\u2026");
    xhr.onerror = () => {
      if (leavingPage) return;
      noteReading(null);
      progress(null);
      notRead();
      sayNotRead("Could not reach the scorer: check the connection and try again.");
    };
    xhr.onload = () => {
      noteReading(null);
      progress(null);
      const data = xhr.response;
      if (xhr.status !== 200 || !data) {
        if (xhr.status === 422 && data && data.error && !marked && data.field !== "photo") { // (a strip: taken again)
          // No board found: the photo is fine, so let the player show the reader where it is.
          // Cancelled, "read again" and "mark the corners" go on with the reading shown.
          showMessage(`${serverSays(data.error)} Mark the board's four corners on the photo below to read it.`);
          openMarking();
          noteReading(file, "marking");
          state.onMarkingCancelled = () => { notRead(); showMessage(serverSays(data.error)); };
          return;
        }
        if (marked && !$("#mark-card").hidden && file !== shown[0]) {
          // Marks on a photo with no reading of its own: the marking stays on that photo.
          state.onMarkingCancelled = () => { notRead(); clearMessage(); };
        } else notRead();
        const refused = data && data.field === "photo" ? another : undefined; // the file itself refused
        if (data && data.error) sayNotRead(serverSays(data.error), refused);
        else if (xhr.status === 200) sayNotRead(NOT_THE_SCORERS_ANSWER);
        else if (xhr.status === 413) sayNotRead("The photo is too large: photos up to 25 MB and 80 megapixels are accepted.", another);
        else sayNotRead(`The photo could not be read (the server answered ${xhr.status}).`);
        return;
      }
      // what "read again" sends: the marks of the reading shown (that board, read again, is the same game)
      state.lastMarked = marked && { corners: marked.corners, squares: marked.squares };
      if (marked) closeMarking({ refocus: false });
      showReading(data, { samePhoto: file === shown[0], anotherBoard: !!(marked && marked.another) });
      state.released = null; // read: the options it was sent with are this reading's
      save();
    };
    progress("Uploading\u2026", 0);
    noteReading(file);
    xhr.send(form);

    // Why the photo was not read: said in the marking card where it was read from marks made
    // there (the message at the top, the reading's own or the marking's instruction, stays), else at the top.
    function sayNotRead(text, action) {
      if (!marked || $("#mark-card").hidden) {
        showMessage(text, undefined, action);
        return;
      }
      fillMessage($("#mark-error"), text, action);
      state.markErrorFor = JSON.stringify(state.marks); // (gone once they change)
      scrollIntoViewIfOut($("#mark-error"), "nearest");
    }
  }

  // A board typed or made while a photo is still being read is the one wanted: the photo is
  // let go, so that its reading does not replace the board when it lands.
  // ``sameGame``: the board shown put right (one square typed, the photo's board corrected as
  // text): the options released for the photo come back; else another board: forgotten.
  function dropUpload({ sameGame = false } = {}) {
    const upload = state.upload, released = state.released;
    if (upload) upload.abort();
    if (sameGame) { // (a photo not on its way, its board left to be marked, keeps what was released for it)
      state.released = released;
      if (upload) putReleasedBack({ anyBoard: true });
    } else if (released) {
      state.released = null;
      save();
    }
  }

  // ``samePhoto``: the board shown read again from its photo (read again, its play area or
  // corners marked, other options): the same game.
  function showReading(data, { samePhoto = false, anotherBoard = false } = {}) {
    // what was entered here (a board played or typed, corrections, moves since the last photo or
    // seen on photos of the game), kept aside where this photo's board does not hold it
    const aside = samePhoto ? null : boardPutAside({ entered: true });
    // the same photo read again: the squares of the colour groups the player named (answered or
    // renamed), which stay so named where the reading was told no other colours
    const named = samePhoto && state.reading ? playerNamedSquares() : new Set();
    const toldBefore = JSON.stringify((state.reading && state.reading.coloursTold) || null);
    const last = lastBoardSeen();
    state.checkedFor = null; // (the last board's scoring answers for this reading's board no more: its outcome not said with these doubts)
    const doubtedBefore = last ? last.doubted : new Set(); // the last board's own doubts: no sure piece of it
    const reading = data.reading || {};
    const byCell = {};
    for (const c of reading.cells || []) byCell[c.cell] = c;
    const unsure = new Set(data.uncertain || []);
    const settled = (reading.cells || []).filter((c) => c.settled_by).map((c) => c.cell);
    state.reading = { byCell, unsure: Array.from(unsure), doubted: Array.from(unsure), unsureRead: unsure.size, unsureBelow: data.unsure_below || UNSURE_BELOW, ...readerNotes(reading), settled,
      colourGroups: reading.colour_groups || [], stashUnsure: !!reading.stash_unsure,
      stashDoubt: typeof reading.stash_doubt === "string" ? reading.stash_doubt : null, threehouse: !!reading.threehouse,
      blurred: !!reading.blurred, gridUnsure: !!(reading.grid && reading.grid.unsure),
      unsureBoard: (reading.warnings || []).find((w, i) => (reading.warning_kinds || [])[i] === "unsure_board") || null,
      anotherBoard: !!(reading.grid && reading.grid.another_board),
      area: reading.play_area || null, areaUnsure: !!(reading.play_area && reading.play_area.ambiguous),
      rowOneTurns: reading.row_one_alternative, coloursTold: Array.isArray(reading.colours_told) ? reading.colours_told : null,
      grid: reading.grid || null, file: state.lastPhoto, marked: state.lastMarked };
    state.photo = data.overlay ? { size: data.overlay_size, squares: data.squares || {} } : null;
    $("#overlay").src = data.overlay || "";
    showPhotoPane(!!data.overlay);
    $("#read-again").hidden = !state.lastPhoto;
    $("#mark-open").hidden = !state.lastPhoto;
    renderWarnings();
    if (!data.board) {
      state.readTokens = null;
      $("#results").hidden = false;
      $("#results").classList.add("photo-only"); // the board shown before is not this photo's
      $("#skip-to-board").hidden = true;
      showMessage("The board was found but its squares could not be read. Enter the board by hand, or try another photo.");
      return;
    }
    const [before, sizeBefore, cellsBefore] = [pieceCount(state.cells || []), `${state.rows}x${state.cols}`, state.cells];
    setBoardFromText(data.board);
    const gone = cellsBefore ? piecesGone(cellsBefore, state.cells, { doubted: doubtedBefore, unsure }) : { changed: 0, gone: 0, sure: 0, turns: 0 };
    // another board marked in the photo, another photo with fewer pieces than the board shown,
    // of another size, or without two of its pieces on squares neither reading doubted (pieces
    // are never moved; the photo may be taken from another side), or none of the seated players' colours
    // (one of them may be misread, its question not yet answered): another game
    const otherBoard = pieceCount(state.cells) < before || `${state.rows}x${state.cols}` !== sizeBefore
      || gone.sure > SURE_MISREADS;
    state.readTokens = state.cells.map((r) => r.slice());
    state.watched = { order: [], squares: [], board: boardText() }; // the game goes on from the photo
    if (samePhoto && last) {
      keepAsDrawn(last);
      // the colours the player named stand (a walkthrough: a colour answered, then the grid marked, was asked again)
      if (sameShape(last.cells, state.cells) && named.size && JSON.stringify(state.reading.coloursTold) === toldBefore) {
        nameGroupsAsBefore((name) => tokenIn(last.cells, name), (name) => named.has(name));
      }
    }
    // a photo of the game carried on since the last board: read onto it
    const sameGame = last && !samePhoto && !anotherBoard && !otherBoard;
    const carried = sameGame && carriedOnFrom(last, gone.turns, unsure) ? carryOn(last, gone.turns) : null;
    // the same game from another side of the table, too far on to be carried on (photos
    // skipped): drawn as the last board was all the same, its game watched from there
    const turnedToMatch = sameGame && !carried && gone.turns > 0;
    if (turnedToMatch) turnQuarters((4 - gone.turns) % 4); // (its read tokens and watch turned with it)
    if (anotherBoard || (otherBoard && !samePhoto) || !state.seats.some(piecesOf)) state.seats = [];
    // another game: no piece chosen in its mid-game card yet, so no square dotted for one, and a piece put
    // on a square is a move only as the photo's reading says (a walkthrough: a size tapped on the last
    // game's card dotted this one's squares, and the pieces an arm hid, put right, were taken as moves)
    if (anotherBoard || (otherBoard && !samePhoto) || !last) state.movePips = null;
    state.seatsWatched = false; // an order kept from this game's last board stands as if tapped in
    syncBoardText();
    save();
    const lacking = aside && !carried && gone.changed; // (carried on: what differs is marked and said)
    if (lacking) {
      state.putAside = aside;
      showAsideNote(aside, "photo");
      save();
    }
    analyse(boardText()).then((ok) => {
      if (!ok) return;
      if (carried && !lacking) sayCarriedOn(carried);
      if (turnedToMatch && !lacking) {
        showBoardNote("The photo, taken from another side of the table, is turned to match the last board.", null, { reveal: false, info: true });
      }
      const follow = focusLeftBehind();
      showReadingMessage({ focused: follow });
      goTo($("#message").hidden ? $("#results") : $("#message"), follow);
    });
  }

  // The board shown, as a new photo of it is read (showReading): its tokens and text, the squares
  // still in doubt on it, those of colour groups whose name is (``colourDoubted``), what its
  // reader read (``read``, named as now), the game watched on it and its last move, the quarter
  // turns it was drawn at from its reading, the rules it broke and whose turn it was (``turns``:
  // the player to move, or those who might; its check with the options it had, before any released for the photo);
  // null without a board, or where the last photo's squares could not be read (its doubts gone).
  function lastBoardSeen() {
    if (!state.cells || (state.reading && !state.readTokens)) return null;
    const text = boardText(), before = state.released && state.released.before;
    const asked = [checkAsked(text)].concat(before ? [checkAsked(text, optionsBeforeRelease(before))] : []);
    const check = asked.some((a) => state.checkedFor === JSON.stringify(a)) ? state.check : null;
    const groups = (state.reading && state.reading.colourGroups) || [];
    const named = check ? turnsNamed(check) : null, turns = !named || named.newcomers ? [] : named.turns;
    return { cells: state.cells.map((line) => line.slice()), text, doubted: new Set(uncheckedUnsure()), watched: watchOf(text),
      colourDoubted: new Set(groups.filter((g) => g.unsure).flatMap((g) => g.cells)), turned: turnsFromRead(), turnedHere: turnedHere(),
      read: state.readTokens ? state.cells.map((line, r) => line.map((_, c) => readNowAt(cellName(c, r)))) : null,
      lastMove: lastPlacedMove(), broken: new Set(((check && check.violations) || []).map((v) => v.rule)), turns };
  }

  // The board shown read again from its photo (``last``: lastBoardSeen) turned as it was drawn,
  // and, where it comes out the same, its game watched going on (read again with other options,
  // say): its moves still to be taken back.
  function keepAsDrawn(last) {
    if (last.turned % 2 && state.rows !== state.cols) return;
    turnQuarters(last.turned);
    if (state.reading) state.reading.turnedHere = last.turnedHere;
    if (last.watched && boardText() === last.text) state.watched = { ...last.watched, board: boardText() };
  }

  const MOST_NEW_ON_A_PHOTO = 4; // pyramids a photo of the game carried on may add: a round of four players
  // More, up to three rounds of four players (photos skipped), where the last board had at least
  // SIZES_SEEN_AGAIN pyramids and the reader reads SIZES_AGREE of them the same size now, sure or
  // not (pieces never move; another game's pieces on those squares match a size a third of the
  // time, where there are pieces there at all; a doubt of a piece's colour, white or clear, is
  // no doubt of its size).
  const MOST_NEW_AFTER_ROUNDS = 12;
  const SIZES_SEEN_AGAIN = 4;
  const SIZES_AGREE = 0.75;

  // Whether the photo's board (``state.cells``, ``unsure`` its reader's doubts) is the last
  // board's game (``last``: lastBoardSeen, turned ``turns`` quarter turns onto it) carried on a
  // few moves, of the last board's squares bar those it doubted: at least half its pieces and
  // parks seen again (a pyramid as a pyramid, a park as a park, sure or not: a doubt of its colour
  // or size is no doubt that something stands there), no park where the reader is sure of an
  // empty square or a pyramid nor the other way round, and at most MOST_NEW_ON_A_PHOTO pyramids,
  // sure or not, on its empty squares (or MOST_NEW_AFTER_ROUNDS where its pyramids are read again
  // their size). Not a photo the reader is unsure of nearly everywhere (no game, perhaps).
  function carriedOnFrom(last, turns, unsure) {
    if (state.reading.unsureBoard) return false;
    let grid = last.cells, doubts = grid.map((line, r) => line.map((_, c) => last.doubted.has(cellName(c, r))));
    for (let k = 0; k < turns; k++) [grid, doubts] = [quarterTurned(grid), quarterTurned(doubts)];
    if (!sameShape(grid, state.cells)) return false;
    let fresh = 0, held = 0, seen = 0, pyramids = 0, sameSize = 0;
    for (let row = 0; row < state.rows; row++) {
      for (let col = 0; col < state.cols; col++) {
        const was = grid[row][col], now = state.cells[row][col], sure = !unsure.has(cellName(col, row));
        if (doubts[row][col]) continue;
        if (was === ".") fresh += now.length === 2 ? 1 : 0;
        else held += 1;
        if (sure && (was === "#") !== (now === "#")) return false;
        if (was !== "." && (was === "#") === (now === "#") && now !== ".") seen += 1;
        if (was.length === 2) pyramids += 1;
        if (was.length === 2 && now.length === 2 && now[1] === was[1]) sameSize += 1; // (a doubt of its colour leaves its size)
      }
    }
    const rounds = pyramids >= SIZES_SEEN_AGAIN && sameSize >= SIZES_AGREE * pyramids && fresh <= MOST_NEW_AFTER_ROUNDS;
    return (fresh <= MOST_NEW_ON_A_PHOTO || rounds) && 2 * seen >= held;
  }

  // A new photo of the game shown, carried on since (``last``: lastBoardSeen), read onto the
  // board as the game stands. Taken from another side of the table (``turns``: quarter turns of
  // the last board onto the photo's, piecesGone's) it is turned as the last board was drawn. The
  // reader's colour groups are named as the last board's pieces on their squares; a square the
  // last board held as the player left it (not one still in doubt there) keeps that where the
  // reader is unsure of it now and read it so last time, the player putting that right (pieces
  // never move, and parks never come); where the reader reads it otherwise, it is marked unsure
  // (``disputed``: {name: the last board's token}), the photo's value shown. The last move
  // gone from the photo was taken back (``takenBack``; play goes on as before it: ``from``). The
  // pyramids on squares the last board held empty are new: ``fresh``, taken as moves where they
  // can be (watchFresh: ``moved``). {fresh, moved, from, takenBack, disputed, turned} (``turned``:
  // null, "here" where the photo is turned as the player turned the last board, else "side").
  function carryOn(last, turns) {
    const back = (4 - turns) % 4;
    turnQuarters(back);
    const reading = state.reading;
    const wasAt = (name) => tokenIn(last.cells, name);
    const vetted = (name) => !last.doubted.has(name);
    nameGroupsAsBefore(wasAt, (name) => !last.colourDoubted.has(name));
    const unsure = new Set(reading.unsure), answered = [], doubtedAgain = [], fresh = [];
    for (let row = 0; row < state.rows; row++) {
      for (let col = 0; col < state.cols; col++) {
        const name = cellName(col, row), was = last.cells[row][col], now = state.cells[row][col];
        if (!vetted(name) || (was === now && !unsure.has(name))) continue;
        if (was === now) answered.push(name);
        else if (was === "." && now.length === 2) fresh.push(name);
        else if (unsure.has(name) && last.read && last.read[row][col] === now) { // the misread put right last time
          state.cells[row][col] = was;
          answered.push(name);
        } else doubtedAgain.push(name);
      }
    }
    // the last move gone from the photo: taken off the table (found against the rules, say); its player places again
    const move = last.lastMove, takenBack = move && doubtedAgain.includes(move.name) && tokenAt(move.name) === ".";
    const from = takenBack ? { ...last, watched: last.watched && last.watched.previous, turns: [move.colour], broken: new Set() } : last;
    const disputed = doubtedAgain.filter((name) => !(takenBack && name === move.name));
    reading.unsure = reading.unsure.filter((cell) => !answered.includes(cell) && !doubtedAgain.includes(cell)).concat(disputed);
    doubtsAnswered(answered.filter(stillAsRead));
    reading.doubted = (reading.doubted || []).concat(disputed);
    reading.disputed = disputed;
    const order = watchFresh(from, fresh), moved = !!order;
    if (!moved) state.watched = { order: [], squares: [], board: boardText() }; // the game goes on from the photo
    // turned as the player turned the last board here: a photo from the same side as the last
    // one, which was read as the board is drawn
    const turned = !back ? null : back === last.turnedHere ? "here" : "side";
    return { fresh: order || byPlayer(fresh, from.turns.length === 1 ? from.turns[0] : null), moved, from, takenBack: takenBack ? move : null, turned,
      disputed: Object.fromEntries(disputed.map((name) => [name, wasAt(name)])) };
  }

  // The squares of the reading's colour groups whose name the player gave: a check answered or a group renamed.
  function playerNamedSquares() {
    const renamed = renamedGroups();
    return new Set(state.reading.colourGroups.filter((g) => g.answered || renamed.includes(g)).flatMap((g) => g.cells));
  }

  // The reader's colour groups named as the last board's pieces on their squares (``wasAt``:
  // square name to token; ``vetted``: whether the player left its colour so), where most of a group's
  // such pieces, two at least or all of them, are of one colour and no two groups come to one name: the
  // player's answers stand, and a group so named has its question answered.
  function nameGroupsAsBefore(wasAt, vetted) {
    const groups = state.reading.colourGroups;
    const named = groups.map((g) => {
      const seen = {};
      for (const cell of g.cells) {
        const was = vetted(cell) ? wasAt(cell) : undefined;
        if (was && was.length === 2 && NAME_OF[was[0]]) seen[NAME_OF[was[0]]] = (seen[NAME_OF[was[0]]] || 0) + 1;
      }
      const [colour, n] = Object.entries(seen).sort((a, b) => b[1] - a[1])[0] || [null, 0];
      const total = Object.values(seen).reduce((a, b) => a + b, 0);
      return (n >= 2 || n === total) && 2 * n > total ? colour : null;
    });
    const names = groups.map((g, i) => named[i] || g.colour);
    if (new Set(names).size < names.length) return;
    groups.forEach((g, i) => {
      const [from, to] = [LETTER_OF[g.colour], LETTER_OF[names[i]]];
      if (from === to) return;
      for (const cell of g.cells) {
        const { col, row } = parseCell(cell), token = state.cells[row] && state.cells[row][col];
        if (token && token.length === 2 && token[0] === from) state.cells[row][col] = to + token[1];
      }
      g.colour = names[i];
    });
    const renamed = renamedGroups();
    groups.forEach((g, i) => {
      if (named[i] && g.unsure) settleGroup(g, renamed.includes(g) ? letterRenames(g, renamed) : {});
    });
  }

  // The pyramids ``fresh`` (square names) new on a photo of the game carried on since the last
  // board (``last``) taken as moves: one alone whatever its player, several where they are the
  // next turns' in the order of play from the player whose turn it was (a round or more: a photo
  // skipped), one a turn; of a player's several, which came first is not known (taken in the
  // reader's order). The moves before them stay, each still to be taken back (none new: the game
  // watched goes on). The squares in the order taken, or null where they were not taken so.
  function watchFresh(last, fresh) {
    const seats = state.seats, from = last.turns.length === 1 ? seats.indexOf(last.turns[0]) : -1;
    const left = from >= 0 ? fresh.slice() : [], inOrder = [];
    for (let i = 0; left.length; i++) { // each turn's player's piece, while there is one
      const at = left.findIndex((name) => colourAt(name) === seats[(from + i) % seats.length]);
      if (at < 0) break;
      inOrder.push(...left.splice(at, 1));
    }
    const inTurn = from >= 0 && inOrder.length === fresh.length;
    if (fresh.length > 1 && !inTurn) return null;
    const order = inTurn ? inOrder : fresh;
    const values = Object.fromEntries(order.map((name) => [name, tokenAt(name)]));
    for (const name of order) state.cells[parseCell(name).row][parseCell(name).col] = ".";
    state.watched = { ...(last.watched || { order: [], squares: [] }), board: boardText() };
    for (const name of order) {
      const before = boardText(), { col, row } = parseCell(name);
      state.cells[row][col] = values[name];
      watchChange(name, ".", values[name], before, false, [colourAt(name)], { seen: true });
    }
    return order;
  }

  // Squares ``names`` (pieces on them) grouped by player: in the order of play from ``first``'s
  // turn where it is known, else as each colour first comes; within a player, as they came.
  function byPlayer(names, first = null) {
    const at = state.seats.indexOf(first), seats = at > 0 ? state.seats.slice(at).concat(state.seats.slice(0, at)) : state.seats;
    const colours = [...new Set(seats.concat(names.map(colourAt)))];
    return names.slice().sort((a, b) => colours.indexOf(colourAt(a)) - colours.indexOf(colourAt(b)));
  }

  // The colour of the pyramid on square ``name`` (undefined for none).
  function colourAt(name) {
    const token = tokenAt(name);
    return token ? NAME_OF[token[0]] : undefined;
  }

  // What a photo of the game carried on brought (``carried``: carryOn's), said under the board: a
  // move that breaks a rule or was out of turn as a tapped one is, else the pieces new since the
  // last photo (or none), the squares it reads otherwise than the last board, and a photo turned
  // to match the board.
  function sayCarriedOn(carried) {
    const { fresh, moved, from, takenBack, disputed, turned } = carried;
    const placed = fresh.filter((name) => tokenAt(name) && tokenAt(name).length === 2);
    // (a piece the reader is unsure of is checked first: its message says so)
    const judged = moved ? placed.filter((name) => !state.reading.unsure.includes(name)) : [];
    if (judged.some((name) => sayPlacementBroke(name, tokenAt(name), from.broken, from.turns))) return;
    if (judged.length === 1 && placed.length === 1 && sayOutOfTurn(judged[0], tokenAt(judged[0]), from.turns)) return;
    const seen = watchedSeats();
    if (seen && !state.seats.length) setSeats(seen, { watched: true });
    const turnedNote = (turned === "side" ? "The photo, taken from another side of the table, is turned to match the board. "
      : turned === "here" ? "The photo is turned as the board was turned here. " : "")
      + (takenBack ? `The ${describe(takenBack.value)} on ${takenBack.name} is taken back: this photo has none there. ` : "");
    const what = placed.length ? `New on this photo: ${listed(placed.map((name) => `the ${describe(tokenAt(name))} on ${name}`), "and")}.`
      : "Nothing is new on this photo.";
    const differ = Object.entries(disputed).map(([name, was]) => `${name} ${was === "." ? "was empty" : `held a ${describe(was)}`}`);
    const check = differ.length ? ` On the last board ${listed(differ, "and")}, and this photo reads ${differ.length > 1 ? "them" : "it"} `
      + `otherwise: check ${differ.length > 1 ? "them" : "it"} (dashed orange).` : "";
    const turn = from.turns.length === 1 ? from.turns[0] : null;
    const unordered = !moved && placed.length > 1 && state.seats.includes(turn)
      ? ` They do not follow the order of play from ${cap(turn)}'s turn, one a turn: check who placed them.` : "";
    showBoardNote(turnedNote + what + unordered + check, null, { reveal: false, info: !unordered && !check });
  }

  // Nearly every square in doubt and none checked since: perhaps no Subdivision game at all (said
  // so until the player checks a square).
  function unsureBoardStands() {
    const reading = state.reading;
    return !!(reading && reading.unsureBoard
      && uncheckedUnsure().length >= (reading.unsureRead === undefined ? reading.unsure.length : reading.unsureRead));
  }

  // What each of the game's constraints that settle a square is, in a player's words (a walkthrough: jargon)
  const SETTLED_SAID = { "stash counts": " (how many pieces of each size a player has)", "turn order": " (players take turns)",
    "parks' symmetry": " (parks are laid out symmetrically)" };
  const LEAST_SURE = 0.5; // an unsure square read at odds under this is likelier wrong than right
  const LEAST_SURE_NAMED = 4; // the most of them the top message names (the rest counted)
  const CROWDED_SHARE = 0.5; // unsure of more than this share of the board's squares, no one tap confirms them

  // How sure the reader is at odds ``p``: "72% sure", rounded down (a square under the unsure
  // line, 95%, never shows as 95% sure), "under 1% sure" where that rounds to none.
  function percentSure(p) {
    return p < 0.01 ? "under 1% sure" : `${floorPercent(p)}% sure`;
  }

  // Odds ``p`` as a whole percentage, rounded down (sums such as 0.6 + 0.3 not a hair under).
  function floorPercent(p) {
    return Math.floor(p * 100 + 1e-6);
  }

  // The squares a photo of the game carried on reads otherwise than the last board, not checked since.
  function disputedUnchecked() {
    const disputed = Array.isArray(state.reading.disputed) ? state.reading.disputed : [];
    return uncheckedUnsure().filter((name) => disputed.includes(name));
  }

  // The unsure squares not checked since that the reader read at odds under LEAST_SURE, least sure
  // first: among many unsure squares all marked alike, those to check first.
  function leastSure() {
    const odds = (name) => confidenceNow(name);
    return uncheckedUnsure().filter((name) => typeof odds(name) === "number" && odds(name) < LEAST_SURE)
      .sort((a, b) => odds(a) - odds(b));
  }

  // The reader's unsure squares not corrected since.
  function uncheckedUnsure() {
    return state.reading ? state.reading.unsure.filter(stillAsRead) : [];
  }

  // The top message after a reading: how many uncertain squares are left to check (not
  // corrected since), and which one-tap checks wait below. False when there is nothing to say.
  // ``restored``: the reading came back with the board after a reload, without its photo.
  // ``focused``: the keyboard's focus goes to the message next (not alerted as well).
  function showReadingMessage({ restored = false, focused = false } = {}) {
    if (state.sorting && !state.sorting.ending) { // one message while sorting, not one a tap (each read out)
      showMessage(`Sorting the ${listed(state.sorting.colours, "and")} pieces on the board: the other checks wait until it is done.`, "info");
      return true;
    }
    const n = uncheckedUnsure().length;
    const pending = readerChecks();
    const topics = pending.map((c) => c.topic).filter(Boolean);
    const colours = topics.filter((t) => t.colour).map((t) => t.colour);
    const byColour = colours.length ? settledByColourAnswer() : new Set();
    const othersLeft = n > 0 || pending.slice(1).some((c) => c.topic);
    const toldFirst = pending[0] && pending[0].kind === "colours_told" && othersLeft;
    const stashFirst = pending[0] && pending[0].kind === "stash" && pending[0].oneTap && othersLeft;
    const gridFirst = pending[0] && pending[0].kind === "grid" && othersLeft;
    const first = toldFirst || stashFirst || gridFirst ? [pending[0].topic] : [];
    const checks = first
      .concat(colours.length ? [`the colour of the ${listed(colours, "and")} pieces`] : [])
      .concat(topics.filter((t) => typeof t === "string" && !first.includes(t)));
    // A colour's answer clears the marks its doubt alone put on squares: before tapping them.
    // Colours ticked that the photo doubts come before all: the reading made with them may be
    // another game's colours, and read again without them the other questions may change; so
    // does a stash read again as the other (stashAskedFirst).
    const colourFirst = toldFirst ? " Check the colours ticked first: reading again without them may answer the rest."
      : gridFirst ? " Check the grid first: marking its corners reads the photo again, and the other questions are asked again."
      : stashFirst ? ` Check the stash first: if it is ${nameOfStash(!state.reading.threehouse)}, the photo is read again and the rest asked anew.`
        : byColour.size ? ` Answer the colour question${colours.length > 1 ? "s" : ""} first: ${colours.length > 1 ? "they" : "it"} may settle `
          + `${n === 1 ? "that square" : byColour.size < n ? `${byColour.size} of these squares` : n === 2 ? "both of these squares" : "all of these squares"}.` : "";
    const below = pending.every((c) => c.oneTap !== false) ? tapWord("one tap below") : "below";
    const checkNote = checks.length ? ` Check ${listed(checks, "and")} (${below}).${colourFirst}` : "";
    const retake = (unsureBoardStands() ? `${cap(state.reading.unsureBoard)}. ` : "")
      + (state.reading.blurred ? "The photo is blurred: take it again, holding the phone still, for a surer reading. " : "");
    // Once no colour, grid or play area is in question (their answers may change or clear the
    // squares), the squares found right on the photo are one tap together.
    const settledFirst = pending.some((c) => ["colour_check", "colours_told", "grid", "play_area", "another_board"].includes(c.kind));
    // The squares read at under even odds (not those the colour answer settles) are named, and
    // left out of the one tap that confirms the rest: likelier wrong than right, each is checked;
    // so are those a photo of the game carried on reads otherwise than the last board (said under it).
    const least = leastSure().filter((name) => !byColour.has(name));
    const apart = disputedUnchecked().filter((name) => !least.includes(name));
    // (no one tap where most of the board is unsure: the reader's mistakes are among them, and a
    // photo taken again reads surer; nor where nearly every square is: perhaps no game at all)
    const crowded = n > CROWDED_SHARE * state.rows * state.cols;
    const others = n - least.length - apart.length;
    const allRight = settledFirst || state.reading.unsureBoard || crowded || !others ? undefined : {
      label: !least.length && !apart.length ? (n > 1 ? `All ${n} are right` : "It is right") : others > 1 ? `The other ${others} are right` : "The other is right",
      onclick: () => confirmUnsureSquares(least.concat(apart)),
    };
    const undo = allRight ? undefined : bulkConfirmUndo();
    const confirmedNote = undo ? ` ${counted(state.bulkConfirm.cells.length, "square")} confirmed at ${tapWord("one tap")}.` : "";
    const action = allRight || undo;
    const apartNote = apart.length ? ` ${listed(apart, "and")} ${apart.length > 1 ? "are" : "is"} read otherwise than on the last board: `
      + `check ${apart.length > 1 ? "them" : "it"} too.` : "";
    const photoAdvice = state.reading.notes.find((w, i) => (state.reading.noteKinds || [])[i] === "photo"); // its first, named as the board is now
    const crowdedNote = crowded && !unsureBoardStands()
      ? ` That is most of the board: ${photoAdvice || "a photo taken again, from higher above and in even light, may read surer"}.` : "";
    // (not an invitation to send it again: a photo sent is read anew, the corrections made since dropped)
    const photoGone = restored ? " The photo itself is not kept when the page reloads; the board, its marks and your corrections are." : "";
    const leastNote = least.length === n && n <= LEAST_SURE_NAMED // (few, and all of them: those dashed)
      ? ` ${n > 1 ? "Each" : "It"} is read at under even odds: likelier wrong than right.`
      : least.length ? ` The reader is least sure of ${listed(least.slice(0, LEAST_SURE_NAMED).concat(least.length > LEAST_SURE_NAMED
      ? [`${least.length - LEAST_SURE_NAMED} more`] : []), "and")} (under even odds): check ${least.length > 1 ? "those" : "that"} first.` : "";
    const said = { alert: !focused };
    if (n) showMessage(`${retake}${n} square${n > 1 ? "s are" : " is"} uncertain (dashed orange): ${tapWord("tap")} to check ${n > 1 ? "them" : "it"}.`
      + `${crowdedNote}${leastNote}${apartNote}${checkNote}${photoGone}${confirmedNote}`, "info", action, said);
    else if (retake || checkNote || photoGone) showMessage((retake + checkNote + photoGone + confirmedNote).trim(), "info", action, said);
    return Boolean(n || checkNote || retake || photoGone);
  }

  // The unsure squares not checked since that naming the unsure colour groups as read would
  // settle: where there are some, the colour questions are answered first (where white and clear
  // both play, a piece's other guess is often the other player's, which a name does not settle).
  function settledByColourAnswer() {
    const onBoard = onBoardColours(), open = new Set(uncheckedUnsure());
    return new Set((state.reading.colourGroups || []).filter((g) => g.unsure)
      .flatMap((g) => [...settledByName(g, {}, onBoard).keys()]).filter((cell) => open.has(cell)));
  }

  // --- corners marked by hand ---------------------------------------------------------------
  // The four corners, in preview px, start where the reader put the board's outline (when it
  // found one on this photo) or are tapped one by one; each can then be dragged, with a loupe
  // showing what is under the finger, and the squares they imply are drawn between them.
  const LOUPE_ZOOM = 3;     // the loupe's magnification of the photo as shown
  const HANDLE_PX = [12, 22]; // a corner is picked up this far (CSS px) from its dot: while
                              // corners are still being tapped, and once all four are there
  const LOUPE_GAP = 28;       // CSS px between the finger and the loupe
  const LIFT_CLICK_MS = 1000; // a tap's click after a corner placed as its finger lifted, not another
  const MARKED_SLACK = 0.25;  // how far past the photo's edge a corner may be moved, in its longer side (grid.MARKED_SLACK)
  // By keyboard (the photo focused): the arrow keys move a cross by this share of the photo's
  // longer side (the first with Shift held), Enter places a corner under it, N picks up the
  // next corner placed, to move with the arrows (Enter or Escape leaves it there).
  const CURSOR_STEPS = [0.002, 0.01];

  // ``playArea``: start from the play area the reader guessed (to mark the squares in play),
  // not from the whole checkerboard; ``anotherBoard``: mark a board other than the one read,
  // from no marks, 8 x 8. Either says what to do until the marking is read or cancelled.
  function openMarking(playArea = false, anotherBoard = false) {
    const file = state.lastPhoto;
    if (!file) return;
    const instruction = playArea === true ? "Drag the four corners to the outer corners of the squares in play and set their number, then read."
      : anotherBoard ? `${tapWord("Tap")} the four outer corners of the other board's squares, then read.` : null;
    if (instruction) showMessage(instruction, "info");
    state.markingInstruction = instruction ? messagesShown : null;
    state.markingAnother = anotherBoard;
    endDrag();
    state.marks = [];
    state.mark = null;
    state.markCursor = null;
    state.keyMark = null;
    renderMarking();
    $("#mark-photo").removeAttribute("src");
    const card = $("#mark-card");
    if (card.hidden) state.markOpener = document.activeElement;
    card.hidden = false;
    // the card sits above the buttons that open it: the focus goes to it, but not from a text being typed
    if (focusLeftBehind() || document.activeElement.matches("button")) focusOn($("#mark-title"));
    const form = new FormData();
    form.append("photo", file, file.name || "photo.jpg");
    fetch("api/preview", { method: "POST", body: form }).then(async (response) => {
      const data = await response.json().catch(() => null);
      if (state.lastPhoto !== file) return;
      if (!response.ok || !data || !data.preview) {
        closeMarking();
        showMessage(data && data.error ? serverSays(data.error)
          : response.ok && !data ? NOT_THE_SCORERS_ANSWER : `The photo could not be shown (the server answered ${response.status}).`);
        return;
      }
      const photo = $("#mark-photo");
      photo.onload = () => { // taps count once the photo is there to tap on
        photo.onload = null;
        state.mark = { scale: data.scale, size: data.preview_size };
        if (anotherBoard) $("#mark-squares").value = "8x8";
        else startFromReadGrid(file, playArea === true);
        renderMarking();
        bringIntoView($("#mark-card"), "start");
      };
      photo.src = data.preview;
    }).catch(() => {
      closeMarking();
      showMessage("Could not reach the scorer: check the connection and try again.");
    });
  }

  // The corners of the grid read from this photo, as marks to drag, and its size in the menu
  // when the menu has it (a grid found on part of a board, 8 x 5, gives 8 x 8).
  function startFromReadGrid(file, playArea = false) {
    const read = state.reading && state.reading.file === file ? state.reading : null;
    const grid = read && (playArea ? read.area : read.grid);
    if (!grid || !Array.isArray(grid.corners) || grid.corners.length !== 4) return;
    const k = state.mark.scale;
    state.marks = grid.corners.map(([x, y]) => [x / k, y / k]);
    const size = `${grid.cols}x${grid.rows}`;
    const menu = $("#mark-squares");
    menu.value = Array.from(menu.options).some((o) => o.value === size) ? size : "8x8";
  }

  // ``refocus``: the keyboard's focus, if in the card, goes back where the marking was opened
  // from (else to the board); not when the photo is read with the corners (the reading takes it).
  function closeMarking({ refocus = true } = {}) {
    const card = $("#mark-card"), opener = state.markOpener;
    $("#mark-error").hidden = true;
    // (its photo's preview let go as the page is left closes it too: the photo is still to be said)
    if (!leavingPage && (notedPhoto() || {}).stage === "marking") noteReading(null);
    const focused = card.contains(document.activeElement);
    card.hidden = true;
    state.markOpener = null;
    if (focused && refocus) {
      const back = opener && opener.isConnected && opener.offsetParent !== null ? opener : $('#diagram .sq[tabindex="0"]');
      if (back) focusOn(back);
    }
    state.marks = [];
    state.markCursor = null;
    state.keyMark = null;
    endDrag();
  }

  // Corners in order around their centre, so that any tapping order outlines the board.
  function marksAround() {
    const n = state.marks.length;
    const cx = state.marks.reduce((a, p) => a + p[0], 0) / n;
    const cy = state.marks.reduce((a, p) => a + p[1], 0) / n;
    return state.marks.slice().sort((p, q) => Math.atan2(p[1] - cy, p[0] - cx) - Math.atan2(q[1] - cy, q[0] - cx));
  }

  // The projective map of the unit square onto a quadrilateral (corners in order around it),
  // so that the squares' lines are drawn as the camera sees them; null for a quadrilateral no
  // camera sees a square as (one corner inside the others' triangle).
  function unitSquareTo([p0, p1, p2, p3]) {
    const sx = p0[0] - p1[0] + p2[0] - p3[0], sy = p0[1] - p1[1] + p2[1] - p3[1];
    const dx1 = p1[0] - p2[0], dx2 = p3[0] - p2[0], dy1 = p1[1] - p2[1], dy2 = p3[1] - p2[1];
    const det = dx1 * dy2 - dx2 * dy1;
    const g = det ? (sx * dy2 - dx2 * sy) / det : 0;
    const h = det ? (dx1 * sy - sx * dy1) / det : 0;
    const a = p1[0] - p0[0] + g * p1[0], b = p3[0] - p0[0] + h * p3[0];
    const d = p1[1] - p0[1] + g * p1[1], e = p3[1] - p0[1] + h * p3[1];
    if (!(1 + g > 0 && 1 + h > 0 && 1 + g + h > 0)) return null;
    return (u, v) => {
      const z = g * u + h * v + 1;
      return [(a * u + b * v + p0[0]) / z, (d * u + e * v + p0[1]) / z];
    };
  }

  // Photo px per CSS px of the marking view (1 before the photo is laid out).
  function previewPerCssPx() {
    const box = $("#mark-photo").getBoundingClientRect();
    return state.mark && box.width ? state.mark.size[0] / box.width : 1;
  }

  function renderMarking() {
    const n = state.marks.length;
    if (JSON.stringify(state.marks) !== state.markErrorFor) $("#mark-error").hidden = true; // (said of other marks)
    if (state.keyMark != null && state.keyMark >= n) state.keyMark = null; // undone
    const byKeyboard = state.markCursor && $("#mark-wrap").matches(":focus-visible");
    $("#mark-status").textContent = !state.mark ? "Loading the photo\u2026"
      : `${n} of 4 corners` + (!byKeyboard ? ""
        : state.keyMark != null ? `; moving corner ${state.keyMark + 1} (Enter leaves it there)`
        : n < 4 ? `; Enter places corner ${n + 1} under the cross` : "; N picks up a corner to move");
    $("#mark-read").disabled = n !== 4;
    $("#mark-undo").disabled = n === 0;
    const dots = $("#mark-dots");
    if (!state.mark) { dots.replaceChildren(); return; }
    const [w, h] = state.mark.size;
    dots.setAttribute("viewBox", `0 0 ${w} ${h}`);
    const r = Math.max(w, h) / 90;
    const shapes = [];
    if (n >= 3) {
      const around = marksAround();
      shapes.push(svg("polygon", { class: "mark-outline", points: around.map((p) => p.join(",")).join(" ") }));
      if (n === 4) {
        const [cols, rows] = $("#mark-squares").value.split("x").map(Number);
        const at = unitSquareTo(around);
        const line = (p, q) => svg("line", { class: "mark-line", x1: p[0], y1: p[1], x2: q[0], y2: q[1] });
        for (let i = 1; at && i < cols; i++) shapes.push(line(at(i / cols, 0), at(i / cols, 1)));
        for (let j = 1; at && j < rows; j++) shapes.push(line(at(0, j / rows), at(1, j / rows)));
      }
    }
    const grab = HANDLE_PX[n === 4 ? 1 : 0] * previewPerCssPx();
    state.marks.forEach(([x, y], i) => {
      shapes.push(svg("circle", { class: "mark-dot", cx: x, cy: y, r }));
      shapes.push(svg("circle", { class: "mark-handle", cx: x, cy: y, r: grab, "data-index": i }));
    });
    if (byKeyboard) {
      const [x, y] = state.markCursor;
      shapes.push(svg("path", { class: "mark-cursor", d: `M${x - 3 * r} ${y}H${x + 3 * r}M${x} ${y - 3 * r}V${y + 3 * r}` }));
    }
    dots.replaceChildren(...shapes);
  }

  function markKey(e) {
    if (!state.mark || e.altKey || e.ctrlKey || e.metaKey) return;
    const [w, h] = state.mark.size;
    if (!state.markCursor) state.markCursor = [w / 2, h / 2];
    const step = CURSOR_STEPS[e.shiftKey ? 0 : 1] * Math.max(w, h);
    const arrow = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
    if (arrow) {
      const [x, y] = state.markCursor;
      // (a corner moved may go past the edge)
      state.markCursor = keptOnPhoto([x + arrow[0] * step, y + arrow[1] * step], state.keyMark != null ? MARKED_SLACK : 0);
      if (state.keyMark != null) state.marks[state.keyMark] = state.markCursor.slice();
    } else if (e.key === "Enter" || e.key === " ") {
      if (state.keyMark != null) state.keyMark = null;
      else if (state.marks.length < 4) state.marks.push(state.markCursor.slice());
    } else if (e.key.toLowerCase() === "n" && state.marks.length) {
      state.keyMark = state.keyMark == null ? 0 : (state.keyMark + 1) % state.marks.length;
      state.markCursor = state.marks[state.keyMark].slice();
    } else if (e.key === "Escape" && state.keyMark != null) {
      state.keyMark = null;
    } else return;
    e.preventDefault();
    renderMarking();
    drawLoupe(state.markCursor);
  }

  // Where pointer event ``e`` is on the photo (preview px), kept within it, or within ``past``
  // of its longer side beyond its edges (a corner dragged past them).
  function previewPoint(e, past = 0) {
    const box = $("#mark-photo").getBoundingClientRect();
    if (!box.width || !box.height || !state.mark) return null;
    const [w, h] = state.mark.size;
    return keptOnPhoto([((e.clientX - box.left) / box.width) * w, ((e.clientY - box.top) / box.height) * h], past);
  }

  // Preview point ``[x, y]`` kept within the photo, or within ``past`` of its longer side beyond its edges.
  function keptOnPhoto([x, y], past) {
    const [w, h] = state.mark.size, out = past * Math.max(w, h);
    return [Math.min(Math.max(x, -out), w + out), Math.min(Math.max(y, -out), h + out)];
  }

  // A click on the photo places a corner there, but the click of a tap whose finger placed one as it lifted.
  function clickToPlace(e) {
    if (e.pointerType !== "mouse" && performance.now() - state.placedOnLift < LIFT_CLICK_MS) state.placedOnLift = -Infinity;
    else markAt(e);
  }

  function markAt(e) {
    if (!state.mark || state.marks.length >= 4) return;
    const point = previewPoint(e);
    if (!point) return;
    state.marks.push(point);
    renderMarking();
  }

  function startDrag(e) {
    const handle = e.target.closest(".mark-handle");
    if (!handle || !state.mark || state.drag || e.button !== 0) return;
    e.preventDefault();
    state.drag = { index: Number(handle.dataset.index), pointer: e.pointerId };
    $("#mark-wrap").setPointerCapture(e.pointerId);
    drawLoupe(state.marks[state.drag.index]);
  }

  // A finger about to place a corner sees what is under it (the loupe) while it presses; the
  // corner is placed where it lifts (not where it first touched, where the tap's click is), and
  // the loupe goes then, or when the page scrolls instead.
  function pressToPlace(e) {
    if (e.pointerType === "mouse" || !state.mark || state.marks.length >= 4 || state.drag) return;
    const point = previewPoint(e);
    if (!point) return;
    state.pressing = e.pointerId;
    drawLoupe(point);
  }

  function moveDrag(e) {
    if (state.pressing !== null && e.pointerId === state.pressing) {
      const point = previewPoint(e);
      if (point) drawLoupe(point);
      return;
    }
    if (!state.drag || e.pointerId !== state.drag.pointer) return;
    const point = previewPoint(e, MARKED_SLACK);
    if (!point) return;
    state.marks[state.drag.index] = point;
    renderMarking();
    drawLoupe(point);
  }

  function endDrag(e) {
    if (e && state.drag && e.pointerId !== state.drag.pointer) return; // another finger
    if (e && e.type === "pointerup" && state.pressing !== null && e.pointerId === state.pressing) {
      state.pressing = null;
      markAt(e);
      state.placedOnLift = performance.now(); // the tap's click that follows places nothing more
    }
    state.drag = null;
    state.pressing = null;
    $("#mark-loupe").hidden = true;
  }

  // The photo under the finger, magnified, with cross-hairs on the corner being placed; it
  // sits above the finger and to one side (beside it near the photo's top).
  function drawLoupe([x, y]) {
    const loupe = $("#mark-loupe");
    const photo = $("#mark-photo");
    loupe.hidden = false;
    const css = loupe.clientWidth || 114;
    const outer = loupe.offsetWidth || 120;
    const perCss = previewPerCssPx();
    const [fx, fy] = [x / perCss, y / perCss]; // the finger, CSS px in the photo
    const across = photo.clientWidth;
    loupe.style.left = `${fx + LOUPE_GAP + outer <= across || fx < across / 2 ? fx + LOUPE_GAP : fx - LOUPE_GAP - outer}px`;
    loupe.style.top = `${fy - LOUPE_GAP - outer >= 0 ? fy - LOUPE_GAP - outer : Math.max(0, fy - outer / 2)}px`;
    const ratio = window.devicePixelRatio || 1;
    loupe.width = loupe.height = Math.round(css * ratio);
    const span = (css / LOUPE_ZOOM) * perCss; // preview px across the loupe
    const ctx = loupe.getContext("2d");
    ctx.fillStyle = "#777";
    ctx.fillRect(0, 0, loupe.width, loupe.height);
    ctx.drawImage(photo, x - span / 2, y - span / 2, span, span, 0, 0, loupe.width, loupe.height);
    const c = loupe.width / 2;
    ctx.strokeStyle = "rgba(255, 214, 0, .95)";
    ctx.lineWidth = Math.max(1, ratio);
    ctx.beginPath();
    ctx.moveTo(c, 0); ctx.lineTo(c, loupe.height);
    ctx.moveTo(0, c); ctx.lineTo(loupe.width, c);
    ctx.stroke();
  }

  function readMarked() {
    if (state.marks.length !== 4 || !state.mark) return;
    if (!confirmDroppingCorrections("Reading the photo with these corners", "Read it?")) return;
    const k = state.mark.scale;
    uploadPhoto(state.lastPhoto, {
      corners: state.marks.map(([x, y]) => [Math.round(x * k * 10) / 10, Math.round(y * k * 10) / 10]),
      squares: $("#mark-squares").value,
      ...(state.markingAnother && { another: true }), // another board in the photo: another game
    });
  }

  function showPhotoPane(shown) {
    if (!shown) state.photo = null;
    $("#photo-pane").hidden = !shown;
    $("#results").classList.toggle("has-photo", shown);
    syncColoursUsed(); // a photo's reading shown or gone: the colours it was read with with it
  }

  // The reader's warnings shown as notes ({notes, noteKinds}: their texts and their kinds, as
  // the reader's warning_kinds), less those the page keeps up to date itself: its list of
  // unsure squares and of squares the game's counts or rules settled (``liveNotes``), its
  // colour checks, ambiguous play area and guessed row 1, each a check with its fix
  // (``renderReaderChecks``), the blur and a board nearly all unsure that its top message
  // names, and the counts over a stash or the setup's parks, which the Legality card and the
  // check's notes give for the board shown.
  function readerNotes(reading) {
    const kinds = reading.warning_kinds || [];
    const kept = (reading.warnings || []).map((w, i) => [String(w), kinds[i] || null])
      .filter(([, kind]) => !["unsure_squares", "unsure_board", "colour_check", "play_area", "row_one", "blurred", "settled", "constraints"].includes(kind));
    return { notes: kept.map(([w]) => w), noteKinds: kept.map(([, kind]) => kind) };
  }

  // The reader's notes, less one saying what a check shown below says too (the grid, the
  // stash) and its doubt about the stash once the player has set it; the squares the game's
  // counts or rules settled, and its unsure squares, not corrected since.
  function liveNotes() {
    if (!state.reading) return [];
    const checked = new Set(readerChecks().map((c) => c.kind));
    if (!$("#opt-stash-auto").checked) checked.add("stash");
    if (state.reading.toldKept) checked.add("colours_told"); // said right by the player
    if (state.reading.gridKept) checked.add("grid");
    const kinds = state.reading.noteKinds || [];
    const notes = state.reading.notes.filter((w, i) => !checked.has(kinds[i]))
      // (the grid said right: the reader's "or the grid is off the board" answered)
      .map((w) => (state.reading.gridKept ? w.replace(/, or the grid is off the board \(check it first\)$/, "") : w));
    // (while in doubt: not once confirmed, a walkthrough found it said after)
    const settled = (state.reading.settled || []).filter((cell) => stillAsRead(cell) && state.reading.byCell[cell]
      && state.reading.unsure.includes(cell))
      .map((cell) => `${cell}: read as ${describe(tokenAt(cell))} only to fit the ${state.reading.byCell[cell].settled_by}`);
    const unsure = uncheckedUnsure().sort((a, b) => parseCell(a).row - parseCell(b).row || parseCell(a).col - parseCell(b).col);
    return notes.concat(settled, unsure.length ? [`unsure about ${listed(unsure, "and")}`] : []); // how many: the top message
  }

  // The reader's notes and checks, and the outcome, which says what of them is left to check.
  function renderWarnings() {
    renderReaderNotes();
    // (by a scoring of the board shown)
    if (state.score && state.checkedFor === JSON.stringify(checkAsked(boardText()))) renderOutcome();
  }

  function renderReaderNotes() {
    const items = liveNotes().map((w) => el("li", { text: w }));
    const notes = items.length <= 3 ? el("ul", { class: "warnings" }, items)
      : el("details", {}, el("summary", { text: `${items.length} notes from the reader` }), el("ul", { class: "warnings" }, items));
    $("#reading-warnings").replaceChildren(notes);
    renderReaderChecks();
  }

  // The reader's close calls, each with a one-tap fix, shown under the top message: a colour
  // group it was unsure of (clear or white, blue or purple), while that colour is still on the
  // board, renamed whole; a stash inferred from parks that fit the other one nearly as well,
  // while the Stash option is on auto, read again as the other; colours ticked under Game that
  // the photo does not bear out, unticked and the photo read again; a grid the finder was
  // unsure of, its corners marked by hand.
  function renderReaderChecks() {
    const box = $("#reader-checks");
    // (while sorting they wait, still counted as open: none started or answered under it)
    const checks = state.sorting && !state.sorting.ending ? [] : readerChecks().map((c) => c.node());
    const answered = box.contains(document.activeElement); // by keyboard, or a tap on one of its buttons
    box.replaceChildren(...checks);
    box.hidden = !checks.length;
    renderColourAnswer(); // under the checks: the way back from a wrong tap
    if (answered) { // the focus goes on to the next check (its text, so a held key answers nothing), or to the board
      const target = box.firstElementChild || $('#diagram .sq[tabindex="0"]');
      if (target) focusOn(target);
      // by keyboard (not a tap, which the page must not scroll away from), brought into view
      if (target && target.matches(":focus-visible")) target.scrollIntoView({ block: "nearest" });
    }
  }

  // The close calls open now, each {kind, topic, node}: the reader's warning kind it answers,
  // the topic as the top message names it (a colour group's as {colour}; none for a row 1
  // already turned), a function making the check to show, and oneTap false where its fix is
  // not one tap (the photo gone after a reload).
  function readerChecks() {
    if (!state.reading) return [];
    const onBoard = onBoardColours();
    // (while any of the group's pieces is still of its colour: those corrected since are the player's)
    const left = (g) => piecesStillOfGroup(g).length;
    const groups = (state.reading.colourGroups || []).filter((g) => g.unsure && onBoard.has(g.colour) && left(g));
    const checks = groups.map((g) => ({
      kind: "colour_check", topic: { colour: g.colour },
      node: () => el("p", { class: "colour-check", "data-colour": g.colour },
        swatch(g.colour), `${counted(left(g), "piece")} read as ${g.colour} (${percentSure(g.confidence)}). `,
        el("button", { type: "button", class: "button confirm-colour", onclick: () => confirmColour(g) },
          swatch(g.colour), `Yes, ${g.colour}`),
        renameChoices(g).map((a) => el("button", {
          type: "button", class: "button recolour-to", "data-colour": a.colour,
          onclick: () => renameGroup(g, a.colour),
        }, swatch(a.colour), `They are ${a.colour}`
          // another unsure group of that name takes this one's: the button says the two swap
          + (groups.some((o) => o !== g && o.colour === a.colour) ? `: swap with the ${a.colour} ones` : ""))),
        sortingButton(g)),
    }));
    if (state.reading.stashUnsure && $("#opt-stash-auto").checked) {
      const [read, other] = [nameOfStash(state.reading.threehouse), nameOfStash(!state.reading.threehouse)];
      // (one tap only while the photo is at hand: after a reload it is not kept)
      checks.push({ kind: "stash", topic: "the stash", oneTap: !!state.lastPhoto, node: () => el("p", { class: "stash-check" },
        // (why: the parks seen against each setup's, or the squares its counts read against their look)
        `Read as a ${read} game, but the photo leaves the stash in doubt${typeof state.reading.stashDoubt === "string" ? `: ${state.reading.stashDoubt}` : ""}. `,
        // as read: the stash set so for this photo (the board scored again, not read again)
        el("button", { type: "button", class: "button", onclick: () => keepStashRead() }, `It is ${read}`), " ",
        state.lastPhoto ? el("button", { type: "button", class: "button", onclick: () => readAgainAs(!state.reading.threehouse) },
          `It is ${other}: read again`)
          // the photo is not kept across a reload: the way back to it is the player's own
          : `If it is ${other}, set the stash under Game and send the photo again (it is not kept after a reload).`) });
    }
    // Colours ticked under Game that the photo does not bear out (most likely the last game's,
    // left ticked): the reader's own words, and one tap to untick them and read the photo again.
    const toldDoubts = state.reading.notes.filter((w, i) => (state.reading.noteKinds || [])[i] === "colours_told");
    if (toldDoubts.length && state.lastPhoto && !state.reading.toldKept) { // first: the other checks come of a reading with those colours
      checks.unshift({ kind: "colours_told", topic: "the colours ticked under Game", node: () => el("p", { class: "colours-told-check" },
        toldDoubts.map((w) => `${cap(w)}. `).join(""),
        el("button", { type: "button", class: "button", onclick: () => keepChecked("toldKept", "The colours ticked are confirmed.") },
          "They are right"), " ",
        el("button", { type: "button", class: "button", onclick: readAgainWithoutColours }, "Untick them and read again")) });
    }
    // Which edge is row 1: the reader's choice and the runner-up, either way one tap from the other.
    const runnerUp = rowOneTurns(), turned = turnsFromRead();
    if (runnerUp && state.readTokens && (turned === 0 || turned === runnerUp) && !(state.reading.rowOneKept && turned === 0)) {
      const back = turned !== 0;
      checks.push({ kind: "row_one", topic: back ? null : "which edge is row 1", node: () => el("p", { class: "row-one-check" },
        back ? "Row 1 is now the other edge the reader weighed. "
          : "The board is turned near 45\u00b0 in the photo, so which edge is row 1 was a guess (the score is the same). ",
        back ? "" : el("button", { type: "button", class: "button", onclick: () => keepChecked("rowOneKept", "Row 1 is confirmed.") },
          "Row 1 is right"), back ? "" : " ",
        el("button", { type: "button", class: "button", onclick: () => turnBoard(back ? 4 - runnerUp : runnerUp) },
          back ? "Turn it back" : "Make the other edge row 1")) });
    }
    if (state.reading.gridUnsure && !state.reading.gridKept && state.lastPhoto) {
      // (its corners right, it is said so at one tap: a walkthrough had a right grid marked and read again to clear it)
      checks.push({ kind: "grid", topic: "the grid on the photo", node: () => el("p", { class: "grid-check" }, "The grid drawn on the photo may not cover the whole board. ",
        el("button", { type: "button", class: "button", onclick: () => markShownPhoto() }, "Mark its corners"), " ",
        el("button", { type: "button", class: "button", onclick: gridSaidRight }, "It covers it")) });
    }
    if (state.reading.anotherBoard && state.lastPhoto) {  // not in the top message: the board read is the likelier one
      checks.push({ kind: "another_board", topic: null, node: () => el("p", { class: "another-board-check" },
        "The photo shows more than one board: the one read is in the middle of the photo. ",
        el("button", { type: "button", class: "button", onclick: () => markShownPhoto(false, true) }, "Mark another board's corners")) });
    }
    if (state.reading.areaUnsure) {
      checks.push({ kind: "play_area", topic: "which squares are in play", oneTap: !!state.lastPhoto, node: () => el("p", { class: "area-check" }, "Which squares are in play was a guess: too few pieces and parks to tell. "
        + "Setting the players (under Game) and reading the photo again settles most boards. ",
        state.lastPhoto ? el("button", { type: "button", class: "button", onclick: () => markShownPhoto(true) }, "Mark the play area's corners") : "") });
    }
    return gridAskedFirst(stashAskedFirst(checks, toldDoubts));
  }

  // The player says the grid drawn on the photo covers the whole board: its check answered.
  function gridSaidRight() {
    state.reading.gridKept = true;
    save();
    renderWarnings();
    renderDiagram();
    if (!showReadingMessage()) clearMessage();
  }

  // The grid asked first (after the colours ticked, which its photo is read with) while the photo
  // is at hand: its corners marked read the photo again, and every other answer is asked anew (a
  // walkthrough answered a colour on a grid two squares off, and lost it).
  function gridAskedFirst(checks) {
    const at = checks.findIndex((c) => c.kind === "grid");
    const to = checks.length && checks[0].kind === "colours_told" ? 1 : 0;
    if (at <= to) return checks;
    const [grid] = checks.splice(at, 1);
    checks.splice(to, 0, grid);
    return checks;
  }

  // The stash asked before the colour questions while the photo is at hand: its other answer
  // reads the photo again, and the answers given before it are asked anew. Before the colours
  // ticked too where all the photo doubts of them is the players the board is set up for, which
  // the stash read otherwise may change (``toldDoubts``: the reader's notes of the colours told).
  function stashAskedFirst(checks, toldDoubts) {
    const at = checks.findIndex((c) => c.kind === "stash");
    if (at <= 0 || !state.lastPhoto) return checks;
    const setupOnly = toldDoubts.every((w) => /\bset up for \d players\b/.test(w));
    const to = checks[0].kind === "colours_told" && !setupOnly ? 1 : 0;
    const [stash] = checks.splice(at, 1);
    checks.splice(to, 0, stash);
    return checks;
  }

  // A close call of the reading's said right by the player (``flag``, kept with the reading): its
  // check goes.
  function keepChecked(flag, confirmed) {
    state.reading[flag] = true;
    save();
    renderWarnings();
    sayConfirmed(confirmed);
  }

  // The squares of the reader's colour group ``g`` whose piece is still of the group's colour.
  function piecesStillOfGroup(g) {
    return g.cells.filter((cell) => {
      const token = tokenAt(cell) || "";
      return token.length === 2 && token[0] === LETTER_OF[g.colour];
    });
  }

  // The other names an unsure colour group is offered in one tap: the reader's alternatives,
  // bar its own name (a player card may have given it one of them), those at odds that show
  // as 0%, and the name of another group already settled (read surely, or answered): two
  // players are never made one.
  function renameChoices(group) {
    const taken = new Set(state.reading.colourGroups.filter((g) => g === group || !g.unsure).map((g) => g.colour));
    return (group.alternatives || []).filter((a) => !taken.has(a.colour)
      && !(typeof a.confidence === "number" && Math.round(a.confidence * 100) === 0));
  }

  // The stash as the reader read it, said right: set so for this photo's game.
  function keepStashRead() {
    setStash(state.reading.threehouse);
    state.stashFromCheck = true;
    save();
    renderWarnings();
    rescore().then((ok) => { if (ok) sayConfirmed(`The ${nameOfStash(state.reading.threehouse)} stash is confirmed.`); });
  }

  function readAgainAs(threehouse) {
    if (!confirmDroppingCorrections()) return;
    setStash(threehouse);
    state.stashFromCheck = true;
    save();
    readAgain();
  }

  function readAgainWithoutColours() {
    if (!confirmDroppingCorrections()) return;
    for (const box of $$("#opt-colours input")) box.checked = false;
    save();
    readAgain();
  }

  // The photo whose reading is shown, read again with the options (and marks) it was read
  // with; a photo with no board being marked is let go first.
  function readAgain() {
    if (state.onMarkingCancelled) cancelMarking();
    uploadPhoto(state.lastPhoto, state.lastMarked);
  }

  // The marking closed; one open on a later photo where no board was found is cancelled, so
  // that the reading shown's own buttons ("read again", its marking) go on with its photo.
  function cancelMarking() {
    closeMarking();
    if (state.markingInstruction === messagesShown && !(state.reading && showReadingMessage())) clearMessage(); // nothing said since
    state.markingInstruction = null;
    const putBack = state.onMarkingCancelled;
    state.onMarkingCancelled = null;
    if (putBack) putBack();
  }

  // The marking for the reading shown, on its own photo.
  function markShownPhoto(playArea = false, anotherBoard = false) {
    if (state.onMarkingCancelled) { cancelMarking(); clearMessage(); } // that message was the other photo's
    openMarking(playArea, anotherBoard);
  }

  // False when the player has corrected squares or placed pieces since the photo and does not
  // want them dropped: ``doing``, what replaces the board, and ``ask``, the question.
  function confirmDroppingCorrections(doing = "Reading the photo again", ask = "Read it again?") {
    const n = correctionCount(), placed = placedSinceCount();
    const lost = [n && `your ${n} correction${n > 1 ? "s" : ""}`,
      placed && `the ${placed > 1 ? `${placed} pieces` : "piece"} placed since the photo`].filter(Boolean);
    return !lost.length || window.confirm(`${doing} replaces the board, and ${lost.join(" and ")} with it. ${ask}`);
  }

  function onBoardColours() {
    return coloursIn(state.cells || []);
  }

  // How many pyramids of colour ``colour`` the board holds.
  function piecesOf(colour) {
    return (state.cells || []).reduce((n, row) => n + row.filter((t) => t.length === 2 && t[0] === LETTER_OF[colour]).length, 0);
  }

  // How many pyramids ``cells`` (rows of tokens) hold.
  function pieceCount(cells) {
    return cells.reduce((n, row) => n + row.filter((t) => t.length === 2).length, 0);
  }

  // The colour names of the pyramids in ``cells`` (rows of tokens).
  function coloursIn(cells) {
    const names = new Set();
    for (const row of cells) for (const t of row) if (t.length === 2 && NAME_OF[t[0]]) names.add(NAME_OF[t[0]]);
    return names;
  }

  // The user says a colour group's name is right: the check goes, and so does the dashed mark
  // of each of its squares that is sure enough once the other colours are ruled out.
  function confirmColour(group) {
    if (!state.reading) return;
    const before = colourDoubts(), choices = nameChoices();
    settleGroup(group);
    const also = settleGroupsLeftNoChoice(choices);
    answeredColour(`You said the pieces read ${group.colour} are ${group.colour}${soAlso(also, ", so")}.`, before);
    save();
    sayConfirmed(`The ${group.colour} pieces are confirmed`
      + (also.length ? `, and so are the ${listed(also, "and")} ones: no other colour is left for them.` : "."));
    renderWarnings();
    renderDiagram();
  }

  // The colour groups ``also`` settled with an answer (settleGroupsLeftNoChoice), said after it
  // (``joined`` by ", so"): ", so the white ones are white"; nothing where none.
  function soAlso(also, joined) {
    return also.length ? `${joined} the ${listed(also.map((c) => `${c} ones are ${c}`), "and")}` : "";
  }

  // How many other names each unsure colour group is offered now (renameChoices).
  function nameChoices() {
    return new Map(state.reading.colourGroups.filter((g) => g.unsure).map((g) => [g, renameChoices(g).length]));
  }

  // The unsure colour groups on the board that an answer left no other name (``before``:
  // nameChoices before it; every name the reader weighed for them now another player's, settled:
  // clear confirmed, the white group's one other name was clear) settled as named: their check
  // would offer only "Yes". Their names.
  function settleGroupsLeftNoChoice(before) {
    const onBoard = onBoardColours();
    const forced = state.reading.colourGroups.filter((g) => g.unsure && onBoard.has(g.colour)
      && piecesStillOfGroup(g).length && before.get(g) > 0 && !renameChoices(g).length);
    for (const g of forced) settleGroup(g);
    return forced.map((g) => g.colour);
  }

  // The user names an unsure colour group ``to``: its check is answered, and so is the check
  // of another unsure group of that colour, which takes the group's old name (the two swap).
  // Only the squares the reader put in the groups change (``recolour``), and a square whose
  // doubt was not only the group's name (its size, a park) keeps its mark.
  function renameGroup(group, to) {
    const before = colourDoubts(), choices = nameChoices(), from = group.colour;
    const groups = state.reading.colourGroups.filter((g) => g === group || (g.unsure && g.colour === to));
    recolour(from, to, groups);
    const also = settleGroupsLeftNoChoice(choices);
    answeredColour(`You said the ${from} pieces are ${to}${groups.length > 1 ? ` (and the ${to} ones ${from})` : ""}`
      + `${soAlso(also, groups.length > 1 ? "; so" : ", so")}.`, before, [to, from, groups]);
    save();
    renderWarnings();
    renderDiagram();
  }

  // The colour groups' doubts as they stand (the groups and whether each is unsure, the unsure
  // squares): what undoing a colour answer puts back.
  function colourDoubts() {
    return { groups: state.reading.colourGroups.map((g) => [g, g.unsure]), unsure: state.reading.unsure.slice() };
  }

  // A colour check answered (``text``: the answer, as said back), one tap from undone while the
  // board stays as the answer left it (a wrong tap swapped a whole player): the doubts as they
  // were (``before``: colourDoubts) and, for a rename, recolour's arguments turning it back.
  function answeredColour(text, before, rename = null, unsort = null) {
    state.colourAnswer = { text, board: boardText(), reading: state.reading, unsure: state.reading.unsure.join(), before, rename, unsort };
  }

  // Whether the colour ``answer`` (answeredColour's) stands to be undone: its reading still
  // shown, the board and the squares in doubt as it left them (nothing checked since).
  function standingAnswer(answer) {
    return !!answer && answer.reading === state.reading && answer.board === boardText()
      && answer.unsure === state.reading.unsure.join();
  }

  // Under the checks, the last colour answer while it stands, with its Undo.
  function renderColourAnswer() {
    const answer = state.colourAnswer, undo = $("#colour-answered");
    const stands = standingAnswer(answer) && !answer.unsort; // (a sorting's: in its bar, by the board)
    if (!stands && undo.hidden) return;
    keepFocusWithin(undo, () => {
      undo.hidden = !stands;
      undo.replaceChildren(...(stands ? [`${answer.text} `,
        el("button", { type: "button", class: "button", onclick: undoColourAnswer }, "Undo")] : []));
    });
  }

  // The colour on the board that colour group ``group``'s pieces may be mixed with piece by piece:
  // the likeliest other name the reader weighed for it that another player's pieces have (white
  // and clear in a dim photo: a walkthrough's board had 6 of each in the other's group, which no
  // answer about a whole group puts right), else null.
  function sortingPartner(group) {
    const onBoard = onBoardColours();
    const other = (group.alternatives || []).find((a) => a.colour !== group.colour && onBoard.has(a.colour));
    return other ? other.colour : null;
  }

  // A colour check's button that sorts group ``group``'s colour and its sortingPartner, if any.
  function sortingButton(group) {
    const partner = sortingPartner(group);
    return partner && el("button", { type: "button", class: "button sort-colours", onclick: () => startSorting([group.colour, partner]) },
      `Some are ${partner}: sort them`);
  }

  // Sort ``colours`` (two) piece by piece: each tap on a piece of either on the board makes it the
  // other, until "Done" (the rest are right) or "Stop". It goes on while the reading is shown
  // (the board turned too), and ends, said, once neither colour is on the board.
  function startSorting(colours) {
    state.sorting = { colours, reading: state.reading };
    state.sorting.changedBefore = sortedSquares(state.sorting).map(([name]) => name); // (the player's own: not the sorting's)
    save();
    renderDiagram(); // (the bar with it)
    renderWarnings();
    showReadingMessage();
    bringIntoView($("#board-pane"), "start");
    focusOn($("#sort-bar").firstElementChild); // its words said, its buttons and the board next by Tab
  }

  // Whether ``token`` is a piece of the colours ``sorting`` sorts (state.sorting's, if not given).
  function ofSorted(token, sorting = state.sorting) {
    return !!sorting && isPyramid(token) && sorting.colours.includes(NAME_OF[token[0]]);
  }

  // Whether a tap on square ``name`` sorts its piece: one of the two colours read as one of them
  // (not a move since the photo, nor a piece the player gave one of them), not once "Done" or
  // "Stop" is pressed.
  function sortable(name) {
    return ofSorted(tokenAt(name)) && ofSorted(readNowAt(name)) && !placedSincePhoto(name) && !state.sorting.ending;
  }

  // The piece ``token`` of one colour ``sorting`` sorts as the other.
  function sortedAs(token, sorting = state.sorting) {
    const [a, b] = sorting.colours;
    return LETTER_OF[NAME_OF[token[0]] === a ? b : a] + token[1];
  }

  // A tap on square ``name`` while sorting: its piece made the other colour, in its turn (one
  // still waiting when "Done" is pressed is told first).
  function sortTap(name) {
    const sorting = state.sorting;
    inTurn(name, sortedAs(tokenAt(name), sorting), () => {
      const token = tokenAt(name); // (a tap made before "Done" is told all the same)
      if (state.sorting !== sorting || !ofSorted(token, sorting)) return undefined;
      const value = sortedAs(token, sorting);
      const done = setSquare(name, value); // (its drawing draws the bar's count again)
      announce(`${name}: ${describe(value)}.`);
      return done;
    });
  }

  // The bar over the board while sorting, then with the sorting's answer while it stands (its
  // Undo), else hidden; sorting ends where its reading is gone or neither colour is left on the
  // board (said).
  function renderSortBar() {
    const bar = $("#sort-bar"), sorting = state.sorting;
    if (sorting && !sorting.ending && (sorting.reading !== state.reading || !sorting.colours.some((c) => piecesOf(c)))) {
      state.sorting = null;
      save();
      announce(`Sorting ${sorting.colours.join(" and ")} ended: ${sorting.reading !== state.reading ? "another board is shown" : "neither is on the board"}.`);
    }
    $("#diagram").classList.toggle("sorting", !!state.sorting);
    const answer = !state.sorting && state.colourAnswer && state.colourAnswer.unsort && standingAnswer(state.colourAnswer)
      ? state.colourAnswer : null;
    if (!state.sorting && !answer) {
      keepFocusWithin(bar, () => { bar.hidden = true; bar.replaceChildren(); });
      return;
    }
    let words = answer && answer.text;
    if (!answer) {
      const [a, b] = state.sorting.colours, n = sortedSquares(state.sorting).length;
      words = `Sorting ${a} and ${b}: ${tapWord("tap")} each ${a} piece that is ${b} and each ${b} one that is ${a}, to change it`
        + ` (${n ? `${counted(n, "piece")} changed` : "none changed yet"}). Anything else: stop first.`;
    }
    const text = bar.firstElementChild;
    if (text && text.textContent === words) return;
    keepFocusWithin(bar, () => {
      bar.hidden = false;
      bar.replaceChildren(el("p", {}, words), el("div", { class: "row" }, answer
        ? el("button", { type: "button", class: "button", onclick: undoColourAnswer }, "Undo")
        : [el("button", { type: "button", class: "button primary", onclick: () => finishSorting(true) }, "Done: the rest are right"),
          el("button", { type: "button", class: "button", onclick: () => finishSorting(false) }, "Stop")]));
    });
  }

  // Sorting ended, once the taps still waiting are told: ``done``, the player has looked at every
  // piece of the two colours, so both groups' names stand and their squares' dashed marks go, but
  // where the reader doubted more than a piece's colour (its value's odds with those of the same
  // size in either colour still short of sure): those stay to check. The answer is said in the bar, one
  // tap from undone (the pieces as read, the doubts back), as a colour check's.
  function finishSorting(done) {
    const sorting = state.sorting;
    if (!sorting || sorting.ending) return;
    sorting.ending = true; // (a tap from now on opens the picker)
    tapsBefore.then(() => endSorting(sorting, done));
  }

  function endSorting(sorting, done) {
    if (state.sorting !== sorting) return;
    state.sorting = null;
    const [a, b] = sorting.colours;
    if (done && state.reading === sorting.reading) {
      const before = colourDoubts(), pair = sorting.colours.map((c) => LETTER_OF[c]);
      for (const g of state.reading.colourGroups) if (sorting.colours.includes(g.colour)) { g.unsure = false; g.answered = true; }
      const sizeDoubted = [];
      const confirmed = state.reading.unsure.filter((name) => {
        const token = tokenAt(name), info = state.reading.byCell[name];
        if (!isPyramid(token) || !pair.includes(token[0]) || !stillAsRead(name) || !info || typeof info.confidence !== "number") return false;
        // (its odds once its colour is known: the read letters as named now, the two colours' as one)
        const letters = readingNamedNow(name, info).letters || {};
        const asOne = Object.fromEntries(COLOURS.map(({ letter }) => {
          const named = letters[letter] || letter;
          return [letter, pair.includes(named) ? pair[0] : named];
        }));
        if (oddsOnceNamed(info, asOne) >= (state.reading.unsureBelow || UNSURE_BELOW)) return true;
        sizeDoubted.push(name);
        return false;
      });
      state.reading.unsure = state.reading.unsure.filter((name) => !confirmed.includes(name));
      const unsort = sortedSquares(sorting), n = unsort.length;
      answeredColour(`You sorted the ${a} and ${b} pieces: ${n ? `${counted(n, "piece")} changed` : "none changed"}`
        + `${sizeDoubted.length ? `; still to check for more than their colour: ${listed(sizeDoubted, "and")}` : ""}.`, before, null, unsort);
    } else {
      announce(`Sorting ${a} and ${b} stopped; the pieces changed stay so.`);
    }
    save();
    renderWarnings();
    renderDiagram();
    if (!showReadingMessage()) {
      if (done) sayConfirmed(`The ${a} and ${b} pieces are sorted.`); else clearMessage();
    }
    const bar = $("#sort-bar");
    if (done && !bar.hidden) focusOn(bar.firstElementChild); // what was done, its Undo next
  }

  // The squares read as a piece of one colour ``sorting`` sorts that hold it in the other, each
  // with its piece as read: [[name, value], ...].
  function sortedSquares(sorting) {
    const squares = [];
    for (let row = 0; row < state.rows; row++) {
      for (let col = 0; col < state.cols; col++) {
        const name = cellName(col, row), read = readNowAt(name);
        if (ofSorted(read, sorting) && tokenAt(name) === sortedAs(read, sorting) && !(sorting.changedBefore || []).includes(name)) squares.push([name, read]);
      }
    }
    return squares;
  }

  function undoColourAnswer() {
    const answer = state.colourAnswer;
    const byUndo = $("#colour-answered").contains(document.activeElement) || $("#sort-bar").contains(document.activeElement);
    state.colourAnswer = null;
    if (standingAnswer(answer)) {
      if (answer.rename) recolour(...answer.rename);
      if (answer.unsort) unsortSquares(answer.unsort);
      for (const [g, unsure] of answer.before.groups) g.unsure = unsure;
      state.reading.unsure = answer.before.unsure;
      save();
      renderWarnings();
      renderDiagram();
      showReadingMessage();
    }
    renderColourAnswer();
    // the keyboard on the check come back (its text), or the board
    const target = $("#reader-checks").firstElementChild || $('#diagram .sq[tabindex="0"]');
    if (target && byUndo) focusOn(target);
  }

  // The pieces a sorting changed (``squares``: [[name, value as read], ...]) put back as read, the
  // game watched here told of each, the board scored again once.
  function unsortSquares(squares) {
    for (const [name, value] of squares) {
      const { col, row } = parseCell(name), before = boardText(), was = state.cells[row][col];
      state.cells[row][col] = value;
      watchChange(name, was, value, before, false);
    }
    syncBoardText();
    rescore();
  }

  // A reading saved before a renamed group's squares kept their marks (each square then counted
  // as corrected, which hid them): its groups renamed since drop the marks their names explain,
  // as a rename now does (again, for a reading saved since: the same marks, already gone).
  // (``onBoard``: the colours of the board kept, not drawn yet after a reload)
  function settleRenamedGroups(onBoard) {
    const renamed = renamedGroups();
    for (const g of renamed) dropSettledMarks(g, letterRenames(g, renamed), onBoard);
  }

  // How colour group ``g``, one of ``renamed``, renames the reader's letters (as
  // dropSettledMarks takes them): its read letter becomes its name's, and so does the name's own
  // (the other colour it was weighed against is answered), unless two groups swapped names.
  function letterRenames(g, renamed) {
    const [a, b] = [readLetterOf(g), LETTER_OF[g.colour]];
    return swappedAmong(g, renamed) ? { [a]: b, [b]: a } : { [a]: b, [b]: b };
  }

  // Square ``name``'s reading (``info``: its value and alternatives) in the colour names the
  // player has given the groups since (a next best in another group's colour is a piece of that
  // group: named as it is now): alternatives that come to the same value merged, and none that
  // is the value.
  function readingNamedNow(name, info) {
    const renamed = renamedGroups(), group = groupOfCell(name);
    const others = Object.fromEntries(renamed.map((g) => [readLetterOf(g), LETTER_OF[g.colour]]));
    const letters = { ...others, ...(group && renamed.includes(group) ? letterRenames(group, renamed) : {}) };
    const named = (v) => (typeof v === "string" && v.length === 2 && letters[v[0]] ? letters[v[0]] + v[1] : v);
    const value = named(info.value);
    // its group's name answered: the names it was weighed against that are no player's, every player's
    // colour known, are no next best (a walkthrough: clear offered after "Yes, white" where no one played clear)
    const players = group && group.answered ? playersColours() : null;
    const ruledOut = players && players.allKnown
      ? new Set((group.alternatives || []).map((a) => a.colour).filter((c) => c !== group.colour && !players.known.has(c))) : new Set();
    const alternatives = [];
    for (const a of alternativesOf(info)) {
      const v = named(a.value);
      if (v === value || (typeof v === "string" && v.length === 2 && ruledOut.has(NAME_OF[v[0]]))) continue;
      const same = alternatives.find((b) => b.value === v);
      if (!same) alternatives.push({ ...a, value: v });
      else if (typeof a.confidence === "number") same.confidence = (same.confidence || 0) + a.confidence;
    }
    return { value, alternatives, letters };
  }

  // The players' colours known: those on the board and those told (ticked, unless a colour on
  // the board is not among the ticks, left from another game; the order of play); ``allKnown``
  // unless there are fewer of them than players (a player yet to place a piece, whose colour
  // only they know) or none.
  function playersColours() {
    const onBoard = onBoardColours(), ticked = options().colours;
    const told = [...onBoard].every((c) => ticked.includes(c)) ? ticked : [];
    const known = new Set([...onBoard, ...told, ...state.seats]);
    const players = state.check && state.check.players;
    return { known, allKnown: known.size > 0 && !(players > 0 && known.size < players) };
  }

  // Colour group ``group``'s name settled (its check answered): the marks it explains dropped
  // (``renamed``: as dropSettledMarks takes it).
  function settleGroup(group, renamed = {}) {
    dropSettledMarks(group, renamed);
    group.unsure = false;
    group.answered = true; // (not a group the reader was sure of: its other names are no answer)
  }

  // Drop the dashed mark of each square of colour group ``group`` that is sure enough once its
  // name is settled: the odds of its value, with those of its alternatives that come to the
  // same value once read letters are renamed as ``renamed`` says (a letter to a letter), over
  // what its alternatives in other colours leave, bar the colours of other players on the board:
  // the group's name settled, whether the piece is theirs is not. A piece whose own colour went
  // unseen (``colour_disputed``) is in doubt of belonging to the group at all and keeps its mark.
  // (The alternatives carry the decoder's odds, the cell its calibrated confidence, which is
  // never above them: this errs towards keeping a mark.)
  function dropSettledMarks(group, renamed, onBoard = onBoardColours()) {
    const settled = settledByName(group, renamed, onBoard);
    for (const [cell, odds] of settled) state.reading.byCell[cell].colourSettled = odds; // what its picker says it is sure of now
    state.reading.unsure = state.reading.unsure.filter((cell) => !settled.has(cell));
  }

  // The squares of colour group ``group`` that its name settled (as dropSettledMarks takes
  // them), each with its odds then: {cell: odds}.
  function settledByName(group, renamed, onBoard = onBoardColours()) {
    const settled = new Map();
    for (const cell of group.cells) {
      const info = state.reading.byCell[cell];
      if (!info || typeof info.confidence !== "number" || info.colour_disputed === true) continue;
      const odds = oddsOnceNamed(info, renamed, onBoard);
      if (odds >= (state.reading.unsureBelow || UNSURE_BELOW)) settled.set(cell, odds);
    }
    return settled;
  }

  // For square ``name`` (``info``: its reading; ``now``: as readingNamedNow names it) in a colour
  // group whose name is in doubt, where its alternatives hold its piece in the group's other
  // names: those names and the odds of them all (" Clear or white (its group's colour is in
  // doubt): 49%."), which a likelier alternative in another colour can hide; else "".
  function groupNameInDoubt(name, info, now) {
    const group = groupOfCell(name);
    if (!group || !group.unsure || typeof info.confidence !== "number" || now.value.length !== 2) return "";
    const names = renameChoices(group).map((a) => a.colour); // (not one another player holds, nor at 0%)
    const inGroup = now.alternatives.filter((a) => a.value[1] === now.value[1] && names.includes(NAME_OF[a.value[0]]));
    if (!inGroup.length) return "";
    const odds = inGroup.reduce((sum, a) => sum + (a.confidence || 0), info.confidence);
    const named = [group.colour, ...inGroup.map((a) => NAME_OF[a.value[0]])];
    return ` ${cap(listed(named, "or"))} (its group's colour is in doubt): ${floorPercent(odds)}%.`;
  }

  // The odds of square reading ``info``'s value once its colour group's name is settled, read
  // letters renamed as ``renamed`` says (a letter to a letter): its own odds with those of its
  // alternatives that come to the same value, over what its alternatives in colours no player
  // has on the board (``onBoard``) leave.
  function oddsOnceNamed(info, renamed, onBoard = onBoardColours()) {
    const renamedToken = (t) => (t.length === 2 && renamed[t[0]] ? renamed[t[0]] + t[1] : t);
    const players = new Set([...onBoard].map((c) => LETTER_OF[c]));
    const own = renamedToken(info.value || "");
    let same = info.confidence, otherColours = 0;
    for (const alternative of alternativesOf(info)) {
      const value = renamedToken(alternative.value || "");
      if (value === own) same += alternative.confidence || 0;
      else if (value.length === 2 && value[0] !== own[0] && !players.has(value[0])) otherColours += alternative.confidence || 0;
    }
    return same / Math.max(1e-9, 1 - otherColours);
  }

  // How sure the reader is of square ``name`` now (``info``: its reading): where the player
  // has answered its colour group's name, as that answer leaves it (``oddsOnceNamed``).
  function confidenceNow(name, info = state.reading.byCell[name]) {
    if (!info || typeof info.confidence !== "number") return info ? info.confidence : undefined;
    if (typeof info.colourSettled === "number" && !state.reading.unsure.includes(name)) return info.colourSettled;
    const group = groupOfCell(name);
    const answered = group && group.answered === true && info.colour_disputed !== true;
    return answered ? oddsOnceNamed(info, readingNamedNow(name, info).letters) : info.confidence;
  }

  // Every piece of colour ``from`` becomes ``to``; if ``to`` is on the board too, the two swap,
  // and so do the names of the reader's colour groups. ``groups``: the only groups whose
  // squares change, less those the player gave another colour or emptied (a size the player
  // fixed takes the new name: default every square, every group).
  // An unsure group so named has its check answered, and its squares keep only the marks
  // its name does not explain.
  function recolour(from, to, groups = null) {
    const a = LETTER_OF[from], b = LETTER_OF[to];
    if (!a || !b || a === b || !state.cells) return;
    const swap = { [a]: b, [b]: a };
    const only = groups && new Set(groups.flatMap(piecesStillOfGroup));
    const changing = groups || (state.reading && state.reading.colourGroups) || [];
    // The letters read as the answer leaves them: two groups swap, or a group's name and the
    // one it was thought to have instead become one.
    const swapping = changing.some((g) => g.colour === to);
    const letters = swapping ? swap : { [a]: b, [b]: b };
    // Every piece of the two colours swaps, or the reader's groups alone: then ``to`` keeps its
    // own pieces unless a group of that name swaps too. The moves since the photo, the order of
    // play and the cards go with them.
    const swapName = !only || swapping ? (c) => (c === from ? to : c === to ? from : c) : (c) => (c === from ? to : c);
    for (const g of changing) {
      const named = swapName(g.colour);
      if (named !== g.colour && g.unsure) settleGroup(g, letters);
      g.colour = named;
    }
    state.seats = state.seats.map(swapName);
    if (new Set(state.seats).size < state.seats.length) state.seats = []; // merged into a player's colour: asked again
    state.cardOrder = [...new Set(state.cardOrder.map(swapName))];
    if (state.turnFollowed) state.turnFollowed = swapName(state.turnFollowed); // the same turn, renamed
    if (state.moveColour) state.moveColour = swapName(state.moveColour);
    const watching = watchOf(boardText());
    for (const cell of (only && watching && watching.squares.filter(Boolean)) || []) {
      const colour = NAME_OF[(tokenAt(cell) || "")[0]];
      if (colour && swapName(colour) !== colour) only.add(cell);
    }
    state.cells = state.cells.map((row, r) => row.map((t, c) => (
      t.length === 2 && swap[t[0]] && (!only || only.has(cellName(c, r))) ? swap[t[0]] + t[1] : t)));
    state.watched = watching ? { ...watching, order: watching.order.map(swapName), board: boardText() } : null;
    syncBoardText();
    save(); // kept even if the server cannot be reached to score it
    renderWarnings();
    renderDiagram();
    rescore();
  }

  // --- turning the board ------------------------------------------------------------------
  // ``turns`` clockwise quarter turns of the board as drawn (Board.rotated's): the top row
  // becomes the right-hand column. Only the cell names change, never the score; all that is
  // kept by cell name turns with the board: the reader's values and alternatives, its marks
  // and notes, the corrections, the squares on the photo.
  function turnBoard(turns) {
    if (!state.cells || !state.rows) return;
    const quarters = ((turns % 4) + 4) % 4;
    if (quarters) boardReplaced(); // the squares' names change
    const sorting = state.sorting && state.sorting.reading === state.reading ? state.sorting : null;
    turnQuarters(quarters);
    if (sorting) sorting.reading = state.reading; // (the same reading, its squares renamed: sorting goes on)
    if (state.reading) state.reading.turnedHere = (turnedHere() + quarters) % 4;
    letGoOfLines();
    syncBoardText();
    save(); // kept even if the server cannot be reached to score it
    if (state.score) renderAll(); // the reader's notes with it
    else renderWarnings();
    if (quarters) announce(`The board is turned ${["", "a quarter clockwise", "half round", "a quarter anticlockwise"][quarters]}: the squares' names change, the score does not.`);
    rescore();
  }

  // When which edge is row 1 was a close call: the clockwise quarter turns from the reader's
  // choice to the runner-up (1, 2 or 3); otherwise null.
  function rowOneTurns() {
    const turns = state.reading && state.reading.rowOneTurns;
    return [1, 2, 3].includes(turns) ? turns : null;
  }

  // Clockwise quarter turns of the board since it was read (0 for a reading saved before turns were kept).
  function turnsFromRead() {
    const turns = state.reading && state.reading.turnedFromRead;
    return Number.isInteger(turns) ? turns : 0;
  }

  // Of those, the ones the player made here (turnBoard), not those that turned a photo of the
  // game to match the board drawn (carryOn).
  function turnedHere() {
    const turns = state.reading && state.reading.turnedHere;
    return Number.isInteger(turns) ? turns : 0;
  }

  // The board shown and all kept by cell name turned ``quarters`` quarter turns clockwise
  // (turnQuarter), the reading's turn since it was read counted on.
  function turnQuarters(quarters) {
    for (let k = 0; k < quarters; k++) turnQuarter();
    if (state.reading) state.reading.turnedFromRead = (turnsFromRead() + quarters) % 4;
  }

  function turnQuarter() {
    const cols = state.cols;
    const turnedName = (name) => { const { col, row } = parseCell(name); return cellName(row, cols - 1 - col); };
    if (state.sorting && state.sorting.changedBefore) state.sorting.changedBefore = state.sorting.changedBefore.map(turnedName);
    state.readTokens = state.readTokens && sameShape(state.readTokens, state.cells) ? quarterTurned(state.readTokens) : null;
    const watching = watchOf(boardText());
    state.cells = quarterTurned(state.cells);
    [state.rows, state.cols] = [state.cols, state.rows];
    state.watched = watching ? { ...watching, squares: watching.squares.map((name) => name && turnedName(name)), board: boardText() } : null;
    if (diagramCursor) diagramCursor = turnedName(diagramCursor); // the keyboard's square turns with the board
    // The reading, the squares on the photo, and the last score and check (shown until the
    // server answers for the turned board, or kept if it cannot be reached).
    for (const key of ["reading", "photo", "score", "check"]) state[key] = withCellNames(state[key], turnedName);
    if (state.reading) state.reading.notes = state.reading.notes.map((w) => w.replace(CELL_NAMES_IN_TEXT, turnedName));
  }

  // Whether grids ``a`` and ``b`` (rows of tokens) have as many rows, each as long.
  function sameShape(a, b) {
    return a.length === b.length && a.every((line, r) => line.length === b[r].length);
  }

  // Grid ``grid`` (rows of tokens, row 0 the bottom) turned a quarter clockwise: its row r,
  // column c is the old row c, column cols - 1 - r.
  function quarterTurned(grid) {
    const cols = grid.length ? grid[0].length : 0;
    return Array.from({ length: cols }, (_, r) => grid.map((line) => line[cols - 1 - r]));
  }

  // The pyramids of ``before`` that ``after`` does not hold as they are, the two boards turned
  // as they fit best (a photo from another side of the table; ``turns``: clockwise quarter turns
  // of ``before`` onto ``after``, the fewest of those that fit alike): ``changed``; ``gone``, those whose
  // squares hold none of their colour (a size put right is the same piece); and ``sure``, those
  // gone on squares neither ``doubted`` on ``before`` nor ``unsure`` on ``after`` (names on each).
  function piecesGone(before, after, { doubted = new Set(), unsure = new Set() } = {}) {
    let best = null, grid = before;
    let doubts = before.map((line, r) => line.map((_, c) => doubted.has(cellName(c, r))));
    for (let q = 0; q < 4; q++, grid = quarterTurned(grid), doubts = quarterTurned(doubts)) {
      if (!sameShape(grid, after)) continue;
      const gone = { changed: 0, gone: 0, sure: 0, turns: q };
      grid.forEach((line, r) => line.forEach((t, c) => {
        const now = after[r][c];
        if (t.length !== 2 || now === t) return;
        gone.changed += 1;
        if (now.length === 2 && now[0] === t[0]) return;
        gone.gone += 1;
        if (!doubts[r][c] && !unsure.has(cellName(c, r))) gone.sure += 1;
      }));
      if (!best || gone.changed < best.changed) best = gone;
    }
    const pieces = pieceCount(before);
    return best || { changed: pieces, gone: pieces, sure: pieces, turns: 0 };
  }

  // ``value`` with every cell name in it (a plain object's key or a whole string) put through ``rename``.
  function withCellNames(value, rename) {
    if (typeof value === "string") return CELL_NAME.test(value) ? rename(value) : value;
    if (Array.isArray(value)) return value.map((v) => withCellNames(v, rename));
    if (value && Object.getPrototypeOf(value) === Object.prototype) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [withCellNames(k, rename), withCellNames(v, rename)]));
    }
    return value; // numbers, null, the photo's File
  }

  // --- the diagram ------------------------------------------------------------------------
  const S = 60, LEFT = 26, BOTTOM = 26, TOP = 4, RIGHT = 4;
  let diagramCursor = null; // the board's square the keyboard was last on: its one Tab stop
  const ARROW_STEPS = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };

  // The board's square ``g`` the focus is on becomes its one Tab stop.
  function makeTabStop(g) {
    for (const sq of $$('#diagram .sq[tabindex="0"]')) sq.setAttribute("tabindex", "-1");
    g.setAttribute("tabindex", "0");
    diagramCursor = g.dataset.cell;
  }

  function renderDiagram() {
    const note = $("#board-note");
    if (!note.hidden && state.boardNote.board !== boardText()) keepFocusWithin(note, () => { note.hidden = true; });
    renderColourAnswer(); // (a board changed, its scoring failed or not: the answer no longer stands)
    renderPutBack();
    renderSortBar(); // (sorting ends with its board)
    const wrap = $("#diagram");
    const width = LEFT + state.cols * S + RIGHT;
    const height = TOP + state.rows * S + BOTTOM;
    const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "group", "aria-label": "The board (arrow keys move between its squares)" });
    const violations = violationCells();
    const unsure = new Set((state.reading && state.reading.unsure) || []);
    const legal = new Set(legalSquares() || []);
    const lastPlaced = (lastPlacedMove() || {}).name; // the last move in a game placed here, tinted
    const focused = wrap.contains(document.activeElement) ? document.activeElement.dataset.cell : null;
    for (let row = state.rows - 1; row >= 0; row--) {
      for (let col = 0; col < state.cols; col++) {
        const name = cellName(col, row);
        const waiting = waitingOn(name); // a tap waiting its turn shows its piece
        const token = waiting ? waiting.value : state.cells[row][col];
        const x = LEFT + col * S, y = TOP + (state.rows - 1 - row) * S;
        const corrected = isCorrected(name), sorts = sortable(name);
        const doubted = unsure.has(name) && stillAsRead(name); // the reader unsure, the square not changed since
        // what the marks show, said too
        const marks = [doubted && "unsure", corrected && "corrected", placedSincePhoto(name) && "placed since the photo",
          violations.has(name) && "breaks a rule", legal.has(name) && !waiting && "the chosen piece may go here",
          name === lastPlaced && "the last move", waiting && "waiting to be placed",
          !waiting && sorts && `choose to make it ${describe(sortedAs(token))}`,
          state.highlight.has(name) && "lit"].filter(Boolean); // "lit" last, as setHighlight keeps it
        const g = svg("g", {
          class: "sq" + (waiting ? " waiting" : "") + (sorts ? " sortable" : ""), "data-cell": name, "data-value": token, tabindex: "-1", role: "button",
          "aria-label": [`${name}: ${describe(token)}`, ...marks].join(", "), transform: `translate(${x},${y})`,
        });
        g.append(svg("rect", { class: "cell " + ((col + row) % 2 === 0 ? "dark" : "light"), width: S, height: S }));
        if (name === lastPlaced) g.append(svg("rect", { class: "last-move", width: S, height: S }));
        g.append(svg("rect", { class: "lit-frame", x: 1.5, y: 1.5, width: S - 3, height: S - 3 })); // shown while lit
        drawContent(g, token);
        if (legal.has(name) && !waiting) g.append(svg("circle", { class: "legal-dot", cx: S / 2, cy: S / 2, r: S * 0.13 }));
        if (waiting) g.append(svg("rect", { class: "mark waiting", x: 6, y: 6, width: S - 12, height: S - 12, rx: 4 }));
        if (doubted) g.append(svg("rect", { class: "mark uncertain", x: 3, y: 3, width: S - 6, height: S - 6, rx: 4 }));
        // inside the rule's red frame where the square has both, so that both show
        const inset = corrected && violations.has(name) ? 9 : 3;
        if (corrected) g.append(svg("rect", { class: "mark corrected", x: inset, y: inset, width: S - 2 * inset, height: S - 2 * inset, rx: 4 }));
        if (violations.has(name)) {
          g.append(svg("rect", { class: "mark violation", x: 2.5, y: 2.5, width: S - 5, height: S - 5, rx: 3 }));
          const t = svg("text", { class: "badge bad", x: S - 12, y: 16, "aria-hidden": "true" }); t.textContent = "!"; g.append(t);
        }
        if (doubted) {
          const t = svg("text", { class: "badge unsure", x: 7, y: 17, "aria-hidden": "true" }); t.textContent = "?"; g.append(t);
        }
        const owner = g.querySelector(".owner");
        if (owner) g.append(owner); // over the frames: the player's letter is never hidden by them
        if (state.highlight.has(name)) g.classList.add("hl");
        root.append(g);
      }
    }
    for (let col = 0; col < state.cols; col++) {
      const t = svg("text", { class: "axis", x: LEFT + col * S + S / 2, y: TOP + state.rows * S + BOTTOM / 2 + 1 });
      t.textContent = FILES[col];
      root.append(t);
    }
    for (let row = 0; row < state.rows; row++) {
      const t = svg("text", { class: "axis", x: LEFT / 2, y: TOP + (state.rows - 1 - row) * S + S / 2 });
      t.textContent = String(row + 1);
      root.append(t);
    }
    wrap.replaceChildren(root);
    const cursor = wrap.querySelector(`.sq[data-cell="${focused || diagramCursor}"]`) || wrap.querySelector(".sq");
    if (cursor) {
      cursor.setAttribute("tabindex", "0"); // one Tab stop for the board: the square last on
      if (focused) cursor.focus({ preventScroll: true }); // the keyboard stays on the square it was on
    }
    renderPhotoMarks(legal);
  }

  // Marks on the photo: corrected squares (their new value), highlights, legal squares; a tap
  // on a square of the photo opens the picker like a tap on the diagram.
  function renderPhotoMarks(legal) {
    const marks = $("#photo-marks");
    if (!state.photo || !state.photo.size) { marks.replaceChildren(); return; }
    const [w, h] = state.photo.size;
    marks.setAttribute("viewBox", `0 0 ${w} ${h}`);
    const unsure = new Set((state.reading && state.reading.unsure) || []);
    const nodes = [];
    const quads = Object.values(state.photo.squares);
    const middle = [0, 1].map((i) => quads.reduce((s, q) => s + q.reduce((t, p) => t + p[i], 0) / 4, 0) / Math.max(1, quads.length));
    // Row 1's two end squares are named at their outer corners, so the photo shows which edge
    // is row 1 and which way the letters run.
    const named = new Set([cellName(0, 0), cellName(state.cols - 1, 0)]);
    for (const [name, quad] of Object.entries(state.photo.squares)) {
      const token = tokenAt(name);
      if (token === undefined) continue;
      const corrected = isCorrected(name);
      const poly = svg("polygon", { class: "ps", "data-cell": name, points: quad.map((p) => p.join(",")).join(" ") });
      if (corrected) poly.classList.add("corrected");
      else if (unsure.has(name) && stillAsRead(name)) poly.classList.add("uncertain");
      if (state.highlight.has(name)) poly.classList.add("hl");
      nodes.push(poly);
      const cx = quad.reduce((s, p) => s + p[0], 0) / 4, cy = quad.reduce((s, p) => s + p[1], 0) / 4;
      const side = Math.hypot(quad[1][0] - quad[0][0], quad[1][1] - quad[0][1]);
      // A square corrected, or of a colour group renamed since, or a piece placed since, shows
      // its value now over the reader's drawing (which names what was read).
      const read = readTokenAt(name);
      if (corrected || (read !== undefined && token !== read)) {
        const kind = corrected ? "" : placedSincePhoto(name) ? " placed" : " renamed"; // (renamed: in the drawing's own colours)
        const label = svg("text", { class: "ps-label" + kind, x: cx, y: cy, "font-size": side * (kind === " renamed" ? 0.3 : 0.4) });
        label.textContent = token;
        nodes.push(label);
      } else if (legal.has(name)) {
        nodes.push(svg("circle", { class: "ps-dot", cx, cy, r: side * 0.15 }));
      }
      if (named.has(name)) {
        const outer = quad.reduce((a, b) => (Math.hypot(b[0] - middle[0], b[1] - middle[1]) > Math.hypot(a[0] - middle[0], a[1] - middle[1]) ? b : a));
        const tag = svg("text", { class: "ps-name", x: cx + 0.6 * (outer[0] - cx), y: cy + 0.6 * (outer[1] - cy), "font-size": side * 0.3 });
        tag.textContent = name;
        nodes.push(tag);
      }
    }
    marks.replaceChildren(...nodes);
  }

  function drawContent(g, token) {
    if (!token || token === ".") return;
    if (token === "#") {
      g.append(svg("circle", { class: "park-stone", cx: S / 2, cy: S / 2, r: S * 0.3 }));
      g.append(svg("circle", { class: "park-ring", cx: S / 2, cy: S / 2, r: S * 0.2 }));
      return;
    }
    const colour = NAME_OF[token[0]];
    const pips = parseInt(token[1], 10);
    const base = S * [0, 0.4, 0.56, 0.72][pips];
    const tall = S * [0, 0.42, 0.58, 0.74][pips];
    const cx = S / 2, by = S * 0.5 + tall / 2 + 2;
    const apex = `${cx},${by - tall}`;
    g.append(svg("polygon", { class: `pyramid colour-${colour}`, points: `${cx - base / 2},${by} ${cx + base / 2},${by} ${apex}`, fill: FILL[colour] || "#888" }));
    g.append(svg("polygon", { class: "pyramid-shade", points: `${cx},${by} ${cx + base / 2},${by} ${apex}` }));
    if (colour === "clear") { // see-through, with a glint: not to be taken for white
      g.append(svg("line", { class: "pyramid-glint", x1: cx - base * 0.12, y1: by - tall * 0.72, x2: cx - base * 0.3, y2: by - 3 }));
    }
    // the player's letter (as in the board text) beside the piece: not the colour alone (red and green, say)
    const owner = svg("text", { class: "owner", x: 4, y: S / 2 + 4, "aria-hidden": "true" }); // the square's label names it
    owner.textContent = token[0];
    g.append(owner);
    const dot = LIGHT_COLOURS.has(colour) ? "#333" : "#fff";
    for (let i = 0; i < pips; i++) {
      const px = cx + (i - (pips - 1) / 2) * 7;
      g.append(svg("circle", { class: "pip", cx: px, cy: by - 6, r: 2.4, fill: dot }));
    }
  }

  // A read cell's next-best values as {value, confidence} (readings saved by older pages
  // may hold bare values).
  function alternativesOf(info) {
    return ((info && info.alternatives) || []).map((a) => (typeof a === "string" ? { value: a } : a));
  }

  function readTokenAt(name) {
    if (!state.readTokens) return undefined;
    const { col, row } = parseCell(name);
    return state.readTokens[row] ? state.readTokens[row][col] : undefined;
  }

  function setHighlight(cells) {
    state.highlight = new Set(cells || []);
    for (const g of $$("#diagram .sq")) {
      const lit = state.highlight.has(g.dataset.cell);
      g.classList.toggle("hl", lit);
      g.setAttribute("aria-label", g.getAttribute("aria-label").replace(/, lit$/, "") + (lit ? ", lit" : "")); // for screen readers
    }
    for (const p of $$("#photo-marks .ps")) p.classList.toggle("hl", state.highlight.has(p.dataset.cell));
  }

  // The breakdown's lit line, if any, let go: its squares go dark (the lines are drawn anew
  // after every change, and a line lit before may no longer name the same squares).
  function letGoOfLines() {
    if (state.pinned) pinLine(state.pinned, false);
    state.pinned = null;
    setHighlight([]);
    $("#lit-on-board").hidden = true;
  }

  // Whether there are lit squares on the board and none of them is on the screen (a phone,
  // scrolled down to the breakdown).
  function litOutOfSight() {
    const lit = $$("#diagram .sq.hl");
    return lit.length > 0 && lit.every((sq) => {
      const { top, bottom } = sq.getBoundingClientRect();
      return bottom < 0 || top > window.innerHeight;
    });
  }

  // Items in the breakdown light up their squares on hover; a tap pins them.
  // A breakdown line shown lit (its squares lit on the board) or not; a screen reader hears it as current.
  function pinLine(node, on) {
    node.classList.toggle("active", on);
    if (on) node.setAttribute("aria-current", "true");
    else node.removeAttribute("aria-current");
  }

  // A line of the breakdown lighting ``cells`` on the board, pointed at or tapped (pinned). Its
  // list's lines are one Tab stop, the arrow keys moving between them (oneTabStop).
  function hoverable(node, cells) {
    node.classList.add("hoverable");
    node.tabIndex = -1;
    node.setAttribute("aria-describedby", "line-hint");
    node.addEventListener("mouseenter", () => { if (!state.pinned) setHighlight(cells); });
    node.addEventListener("mouseleave", () => { if (!state.pinned) setHighlight([]); });
    node.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); node.click(); }
      const lines = [...node.parentElement.querySelectorAll(":scope > .hoverable")], at = lines.indexOf(node);
      const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: lines.length - 1 }[e.key];
      if (to === undefined || !lines[to]) return;
      e.preventDefault();
      node.tabIndex = -1;
      lines[to].tabIndex = 0;
      lines[to].focus();
    });
    node.addEventListener("click", () => {
      const again = state.pinned === node;
      if (state.pinned) pinLine(state.pinned, false);
      state.pinned = again ? null : node;
      pinLine(node, !again);
      setHighlight(again ? [] : cells);
      $("#lit-on-board").hidden = again || !litOutOfSight();
    });
    return node;
  }

  // What of the reading is still in doubt, as words ("12 unsure squares and 1 question"), or "".
  function stillToCheck() {
    const squares = uncheckedUnsure().length, questions = readerChecks().filter((c) => c.topic).length;
    return listed([squares && counted(squares, "unsure square"), questions && counted(questions, "question")].filter(Boolean), "and");
  }

  // --- score breakdown --------------------------------------------------------------------
  // The outcome above the breakdown and in the summary, from the scoring and check shown and
  // what of the reading is still in doubt; returns the ranking drawn, its leaders and the summary.
  function renderOutcome() {
    const score = state.score;
    const players = score.players || {};
    const ranked = score.ranking && score.ranking.length
      ? score.ranking
      : Object.keys(players).map((colour) => ({ colour, total: players[colour].total, rank: null }));
    // Players level on points keep the order their cards had (a renamed colour its own place),
    // so that a card the player just changed does not jump past another.
    const before = (c) => (state.cardOrder.includes(c) ? state.cardOrder.indexOf(c) : Infinity);
    const ranking = ranked.slice().sort((x, y) => y.total - x.total || before(x.colour) - before(y.colour));
    state.cardOrder = ranking.map((r) => r.colour);
    const winners = ranking.map((r) => r.colour).filter((c) => (score.winners || []).includes(c));
    // Mid-game the leader has not won yet; nor on a board that breaks the rules.
    const broken = ((state.check && state.check.violations) || []).length > 0;
    const over = (!state.check || state.check.game_over) && !broken;
    const outcome = $("#outcome");
    if (!ranking.length) outcome.textContent = "No pyramids on the board yet.";
    else if (winners.length === 1) outcome.textContent = `${cap(winners[0])} ${over ? "wins" : "leads"} with ${points(players[winners[0]].total)}.`;
    else if (winners.length > 1) outcome.textContent = `${over ? "Tie" : "Tied for the lead"}: ${listed(winners.map(cap), "and")} with ${points(players[winners[0]].total)} each.`;
    else outcome.textContent = "";
    const result = outcome.textContent;
    if (ranking.length && unsureBoardStands()) {
      outcome.textContent = `If the reading is right (it is unsure of nearly every square): ${outcome.textContent}`;
    } else if (ranking.length && outcome.textContent) { // (a walkthrough: "Black wins" said as fact, 33 squares in doubt)
      const open = stillToCheck();
      if (open) outcome.textContent = `${outcome.textContent.replace(/\.$/, "")} (as read, with ${open} still to check).`;
    }
    const breaks = ranking.length && broken ? " The board breaks a rule." : "";
    const sentence = outcome.textContent + breaks;
    outcome.dataset.sentence = sentence;
    outcome.dataset.result = result + breaks; // (less what is left to check)
    if (ranking.length && broken) {  // the Legality card may be screens below
      outcome.textContent = sentence.replace(/\.$/, ": ");
      outcome.append(el("button", { type: "button", class: "button link", onclick: () => goTo($("#legality")) }, "see Legality"));
    }
    const totals = ranking.map((r) => `${r.colour} ${minusSigned(players[r.colour].total)}`).join(", ");
    const summary = ranking.length ? `${sentence} Totals: ${totals}.` : "";
    $("#summary-text").textContent = summary;
    const toast = $("#score-toast"); // (a toast still shown says the summary as it is now: what is left to check changes it)
    if (!toast.hidden && summary) toast.textContent = `Now: ${summary}`;
    $("#summary").hidden = !ranking.length;
    $("#summary-rules").hidden = !(ranking.length && broken);
    return { ranking, winners, summary };
  }

  let redrawingCards = false; // the score cards are being drawn anew (a focused menu's blur is no choice)

  function renderScore() {
    letGoOfLines();
    const score = state.score;
    const players = score.players || {};
    const { ranking, winners, summary } = renderOutcome();
    // mid-game, the moves card is screens below on a phone
    $("#summary-moves").hidden = !state.check || state.check.game_over;
    const browsed = document.activeElement && document.activeElement.matches("#players select.name[data-browsing]")
      ? { colour: document.activeElement.dataset.colour, value: document.activeElement.value } : null;
    redrawingCards = true; // (the menu being browsed is let go of: not a choice made)
    try {
      $("#players").replaceChildren(...ranking.map((r) => playerCard(r, players[r.colour], winners.includes(r.colour))));
    } finally {
      redrawingCards = false;
    }
    const again = browsed && $(`#players select.name[data-colour="${browsed.colour}"]`);
    if (again) { // browsed on where it was
      again.value = browsed.value;
      again.dataset.browsing = "1";
      again.focus();
    }
    const menuChanged = state.colourMenuFocus;
    state.colourMenuFocus = null;
    if (menuChanged && document.activeElement === document.body) { // the menu the keyboard changed a player's colour
      const menu = $(`#players article[data-colour="${menuChanged}"] select.name`); // with, drawn anew (not if it moved on)
      if (menu) menu.focus();
    }
    $("#score-status").textContent = summary ? `Scored. ${summary}` : "Scored: no pyramids on the board yet.";
    const parks = score.private_parks ? score.park_results || [] : [];
    $("#park-results").replaceChildren(...(parks.length ? [
      el("h3", { text: "Private Parks" }),
      oneTabStop(el("ul", { class: "park-list" }, parks.map((p) => hoverable(el("li", {},
        el("strong", { text: `${p.park}: ` }), p.owner ? `${cap(p.owner)} +${p.points}` : "nobody", ` (${p.reason})`),
        [p.park, ...p.cells])))),
    ] : []));
  }

  function playerCard(rank, p, winner) {
    const rows = [];
    const line = (label, points, cls, cells) => {
      const tr = el("tr", { class: cls || null }, el("td", {}, label), el("td", { class: "pts" }, points));
      if (cells) hoverable(tr, cells);
      rows.push(tr);
    };
    const bySize = p.pips_by_size || {};
    for (const size of ["3", "2", "1"]) {
      const pips = bySize[size] || 0;
      const count = pips / Number(size);
      line(`${count} ${SIZE_NAME[size]} \u00d7 ${size} pip${size === "1" ? "" : "s"}`, signed(pips), null, colourCells(rank.colour, Number(size)));
    }
    const groups = p.groups || [];
    const groupPoints = groups.reduce((s, g) => s + (g.points || 0), 0);
    line(`${groups.length} group${groups.length === 1 ? "" : "s"}`, signed(groupPoints), "group-head", groups.flatMap((g) => g.cells));
    groups.forEach((g, i) => line(`group ${i + 1}: ${g.cells.join(" ")}`, signed(g.points), "sub group", g.cells));
    const deductions = p.deductions || [];
    if (deductions.length) {
      const total = deductions.reduce((s, d) => s + (d.points || 0), 0);
      line("1-pips Near 3-pips", signed(total), "deduction-head", deductions.flatMap((d) => [d.cell, ...(d.one_pips || [])]));
      for (const d of deductions) {
        const ones = d.one_pips || [];
        // (the server's ``capped``: more Near than the most a 3-pip loses, 3)
        const note = ones.length ? `${ones.length} 1-pip${ones.length === 1 ? "" : "s"} Near: ${ones.join(" ")}, the first free${d.capped === true ? ", at most 3" : ""}`
          : "no 1-pips Near";
        line(`${d.cell}: ${note}`, signed(d.points), "sub deduction", [d.cell, ...ones]);
      }
    }
    const parks = p.parks || [];
    if (parks.length || p.park_bonus) {
      line("Private Parks", signed(p.park_bonus || 0), "park-head", parks.flatMap((park) => [park.park, ...park.cells]));
      for (const park of parks) line(`park ${park.park}: ${park.cells.join(" ")}`, signed(park.points), "sub park", [park.park, ...park.cells]);
    }
    line("Total", minusSigned(p.total), "total-row", null);
    const head = el("tr", {}, el("th", { scope: "col", text: "Line" }), el("th", { scope: "col", text: "Points" }));
    return el("article", { class: "player" + (winner ? " winner" : ""), "data-colour": rank.colour, "aria-label": `${cap(rank.colour)}'s score` },
      el("header", {}, swatch(rank.colour), colourSelect(rank.colour),
        rank.rank ? el("span", { class: "visually-hidden", text: "placed " }) : null, // "placed #1, total 4"
        rank.rank ? el("span", { class: "rank", text: `#${rank.rank}` }) : null,
        el("span", { class: "visually-hidden", text: ", total " }),
        el("span", { class: "total", text: minusSigned(p.total) })),
      el("table", { "aria-label": `${cap(rank.colour)}'s score, line by line` }, el("thead", { class: "visually-hidden" }, head), oneTabStop(el("tbody", {}, rows))));
  }

  // ``list`` with its first line of the breakdown (hoverable) its one Tab stop.
  function oneTabStop(list) {
    const first = list.querySelector(":scope > .hoverable");
    if (first) first.tabIndex = 0;
    return list;
  }

  // A player's colour menu. Browsed by keyboard (on Windows and Linux the arrows change a closed
  // menu's value at each step) it renames the player once, at Enter or on leaving the menu, not
  // at each colour passed (each a swap with the player of that colour, the next swapping again).
  // (Escape puts the colour back; the menu drawn anew by a scoring meanwhile goes on being browsed:
  // renderScore.) ``stay``: the keyboard stays on the menu, drawn anew with the card (not when it left).
  function colourSelect(colour) {
    const used = onBoardColours();
    const apply = (menu, stay) => {
      delete menu.dataset.browsing;
      if (menu.value === colour) return;
      if (stay) state.colourMenuFocus = menu.value;
      recolour(colour, menu.value);
    };
    return el("select", {
      class: "name", "aria-label": `Colour of the ${colour} pieces`, "data-colour": colour,
      title: "Change this player's colour (all their pieces); a colour another player has swaps with them",
      onkeydown: (e) => {
        if (e.key === "Enter") apply(e.target, true);
        else if (e.key === "Escape" && e.target.dataset.browsing) {
          e.target.value = colour;
          delete e.target.dataset.browsing;
        } else if (/^(Arrow|Page)|^(Home|End)$/.test(e.key) || (e.key.length === 1 && e.key !== " ")) e.target.dataset.browsing = "1";
      },
      onchange: (e) => { if (!e.target.dataset.browsing) apply(e.target, true); },
      onblur: (e) => { if (e.target.dataset.browsing && !redrawingCards) apply(e.target, false); },
    }, COLOURS.map((c) => el("option", { value: c.name, selected: c.name === colour,
      text: c.name === colour || !used.has(c.name) ? c.name : `${c.name} (swap)` })));
  }

  function colourCells(colour, pips) {
    const letter = LETTER_OF[colour];
    if (!letter) return [];
    const token = letter + pips;
    const out = [];
    for (let row = 0; row < state.rows; row++)
      for (let col = 0; col < state.cols; col++) if (state.cells[row][col] === token) out.push(cellName(col, row));
    return out;
  }

  // --- legality and mid-game ----------------------------------------------------------------
  function violationCells() {
    const out = new Set();
    for (const v of (state.check && state.check.violations) || []) {
      if (v.cell) out.add(v.cell);
      for (const c of v.cells || []) out.add(c);
    }
    return out;
  }

  function renderLegality() {
    const box = $("#violations");
    const list = (state.check && state.check.problems) || []; // each broken rule once (a pair of 3-pips is one)
    if (!list.length) {
      box.replaceChildren(el("p", { class: "ok", text: "No violations: legal play can reach this position." }));
      return;
    }
    box.replaceChildren(
      el("p", { text: `${list.length} problem${list.length === 1 ? "" : "s"}${violationCells().size ? ", marked in red on the board" : ""}:` }),
      oneTabStop(el("ul", { class: "violations" }, list.map((v) => {
        const cells = [v.cell, ...(v.cells || [])].filter(Boolean);
        // the turns counted over the whole board: any square misread may be the piece too many or too few
        // (less the bare squares doubted only for a piece missed, counted apart)
        const doubted = v.rule === "turn_order" ? uncheckedUnsure().filter((cell) => !missedPieceDoubt(cell)) : cells;
        const notes = [placedNote(cells), doubtedNote(doubted),
          ...(v.rule === "turn_order" ? [missedNote(), retakingNote()] : [])].filter(Boolean);
        return hoverable(el("li", {}, el("strong", { text: v.cell ? v.cell + ": " : "" }), v.message || v.rule,
          notes.length ? `. ${notes.join(" ")}` : ""), cells);
      }))));
  }

  // Whether the reader doubted square ``name`` only as one a piece it missed may stand on: read
  // bare, sure by its look (its ``missed_piece``), still bare, and with nothing else to doubt.
  function missedPieceDoubt(name) {
    const info = state.reading && !state.reading.blurred && state.reading.byCell[name];
    return !!info && info.missed_piece === true && tokenAt(name) === "."
      && !["partly_hidden", "blends_in", "washed_out", "covered", "out_of_photo"].some((flag) => info[flag] === true);
  }

  // Once the pieces on the board can come from players taking turns (``check`` finds no turn-order
  // problem) by the player's corrections alone (no move played since the photo), the pieces the reader
  // thought missed are placed (or were never there): the squares it doubted only for them are sure, as
  // their look is (a walkthrough: 17 bare squares stayed marked after the missed piece was put on its
  // square, to be confirmed one by one); kept apart (``missedSettled``), they are doubted again when
  // the turn-order problem comes back (that piece taken off again, say). The squares settled now.
  function settleMissedPieceDoubts(check) {
    const reading = state.reading;
    if (!reading) return [];
    const broken = (check.violations || []).some((v) => v.rule === "turn_order");
    if (broken && reading.missedSettled) {
      const back = reading.missedSettled.filter((name) => tokenAt(name) === "." && !reading.unsure.includes(name));
      reading.unsure = reading.unsure.concat(back);
      reading.doubted = (reading.doubted || []).concat(back.filter((name) => !(reading.doubted || []).includes(name)));
      reading.missedSettled = null;
      return [];
    }
    if (broken || placedSinceCount() > 0) return [];
    const settled = reading.unsure.filter(missedPieceDoubt);
    if (!settled.length) return [];
    reading.unsure = reading.unsure.filter((name) => !settled.includes(name));
    doubtsAnswered(settled);
    reading.missedSettled = (reading.missedSettled || []).concat(settled);
    return settled;
  }

  function sayMissedPiecesFound(names) {
    const text = `The pieces on the board can come from players taking turns now, so the ${names.length === 1 ? "bare square"
      : `${names.length} bare squares`} the reader doubted only as places a piece it missed might stand ${names.length === 1 ? "is" : "are"} sure.`;
    const note = state.boardNote;
    if (!note || note.board !== boardText() || note.info) showBoardNote(text, null, { reveal: false, info: true });
    else announce(text); // (said once: the note under the board is an alert)
  }

  // Where the reader took a turn order broken for pieces it missed: how many bare squares it doubted for them.
  function missedNote() {
    const bare = uncheckedUnsure().filter(missedPieceDoubt).length;
    return bare ? `The reader took it for pieces it missed: one may stand on any of the ${bare} bare squares marked`
      + " unsure for that." : "";
  }

  // A turn order broken while a move taken back here waits to be made again: why, and when it mends.
  function retakingNote() {
    const player = retakingPlayer();
    return player ? `A piece of ${player}'s was taken back: the turns fit again once ${player} places again.` : "";
  }

  // A rule broken on squares of ``cells`` holding pieces placed since the photo (a walkthrough: a stash
  // over its count after a move said only that the reader was unsure of another square): which.
  function placedNote(cells) {
    const placed = [...new Set(cells)].filter(placedSincePhoto);
    return placed.length ? `${listed(fewNamed(placed), "and")} ${placed.length > 1 ? "were" : "was"} placed since the photo.` : "";
  }

  const DOUBTED_NAMED = 6; // squares a violation's note names before "and N more" (a colour too many: every piece)

  // ``names`` to list in a violation's note: the first DOUBTED_NAMED of many, then "N more".
  function fewNamed(names) {
    return names.length > DOUBTED_NAMED + 1 ? [...names.slice(0, DOUBTED_NAMED), `${names.length - DOUBTED_NAMED} more`] : names;
  }

  // A rule broken on squares the reader was unsure of, not checked since, is likelier a misreading:
  // which of ``cells`` to look at first (those read so only to fill the stash counts named so).
  function doubtedNote(cells) {
    const unsure = new Set(uncheckedUnsure());
    const doubted = [...new Set(cells)].filter((cell) => unsure.has(cell)).map((cell) => {
      const settled = state.reading.byCell[cell] && state.reading.byCell[cell].settled_by;
      return settled ? `${cell} (read so by the ${settled})` : cell;
    });
    if (!doubted.length) return "";
    return `The reader was unsure of ${listed(fewNamed(doubted), "and")}: check ${doubted.length > 1 ? "them" : "it"} first.`;
  }

  // Parks on the empty squares of ``cells`` (names); the squares already holding something stay.
  function placeParks(cells) {
    if (!state.cells) return;
    for (const name of cells) {
      const { col, row } = parseCell(name);
      if (state.cells[row] && state.cells[row][col] === ".") state.cells[row][col] = "#";
    }
    syncBoardText();
    save();
    renderDiagram();
    rescore();
  }

  // --- the order of play ---------------------------------------------------------------------
  // Players whose turn the piece counts cannot tell apart (three or four players, usually)
  // tap the order they sit in, first player first; the check then knows whose turn it is.

  // How many players the order names: the Players option, else the colours ``onBoard``.
  function seatCount(onBoard = onBoardColours()) {
    const players = parseInt($("#opt-players").value, 10);
    return players >= 2 ? players : Math.max(2, onBoard.size);
  }

  // The order of play to send with a check of board ``text``, or null: only a whole order
  // naming every colour on that board.
  function seatsToSend(text) {
    const seats = state.seats;
    const onBoard = coloursIn(tokensFromText(text));
    if (!seats.length || seats.length !== seatCount(onBoard) || seats.length > 4) return null;
    return [...onBoard].every((c) => seats.includes(c)) ? seats : null;
  }

  function renderSeats() { keepFocusWithin($("#seats"), drawSeats); }

  function drawSeats() {
    const box = $("#seats");
    const check = state.check || {};
    const given = check.seats || null;
    if (given) {
      // an order set by hand that the moves watched here do not bear out is said beside it (a
      // keyboard walkthrough met it only on the Legality card), the order seen one tap away
      const seen = watchedSeats(), against = seen && String(seen) !== String(given) ? seen : null;
      box.replaceChildren(el("p", { class: "seats" }, "Order of play: ",
        ...given.flatMap((c, i) => [i ? " \u2192 " : "", swatch(c), " ", cap(c)]), " ",
        el("button", { type: "button", class: "button link", "aria-label": "change the order of play", onclick: () => {
          state.seatsAskedFor = boardText(); // asked for again, though the counts say whose turn it is
          setSeats([]);
        } }, "change"),
        ...(against ? [el("span", { class: "notice", text: ` The moves seen here went ${against.map(cap).join(" \u2192 ")}. ` }),
          el("button", { type: "button", class: "button link", onclick: () => setSeats(against, { watched: true }) }, "use that order")] : [])));
      return;
    }
    const candidates = candidatesSeen(check);
    const ambiguous = candidates.length + (check.unseen_player_may_move ? 1 : 0) > 1 && !check.game_over;
    // whose turn it is is known: no order to ask for, unless "change" asked for it on this board
    if (!ambiguous && state.seatsAskedFor !== boardText()) { box.replaceChildren(); return; }
    const onBoard = COLOURS.map((c) => c.name).filter((c) => onBoardColours().has(c)); // (equals in the colours' usual order)
    const needed = seatCount();
    if (state.seats.length >= needed || state.seats.some((c) => !onBoard.includes(c) && onBoard.length >= needed)) {
      box.replaceChildren(el("p", { class: "seats" }, `The order of play set before (${state.seats.map(cap).join(" \u2192 ")}) does not fit this board. `,
        el("button", { type: "button", class: "button link", onclick: () => setSeats([]) }, "set it again")));
      return;
    }
    // In turn order the players who have played this round hold one piece more than the rest, so
    // the seats from the first run from the most pieces to the fewest: the players on the board
    // by their piece count (those the counts allow to move, as "To move" lists them, last among
    // equals, and the player seen placing last after them: the last of their round); then, for a
    // player with no piece yet, every other colour.
    const last = lastSeenMover();
    const ranked = onBoard.map((c, i) => [c, piecesOf(c), candidates.includes(c) + 2 * (c === last), i])
      .sort((a, b) => b[1] - a[1] || a[2] - b[2] || a[3] - b[3]).map(([c]) => c);
    const offered = onBoard.length >= needed ? ranked : ranked.concat(COLOURS.map((c) => c.name).filter((c) => !onBoard.includes(c)));
    const tap = (c) => {
      const next = state.seats.concat([c]);
      const left = offered.filter((x) => !next.includes(x));
      if (next.length === needed - 1 && left.length === 1) next.push(left[0]); // the last seat is forced
      announce(`Order of play${next.length < needed ? " so far" : ""}: ${next.map(cap).join(", ")}.`);
      setSeats(next);
    };
    box.replaceChildren(el("div", { class: "seats-chooser" },
      el("span", { text: state.seats.length
        ? `Order of play so far: ${state.seats.map(cap).join(" \u2192 ")}; who plays next?`
        : `Who plays first? ${tapWord("Tap")} the ${needed} players in the order they play, to see whose turn it is.` }),
      ...offered.filter((c) => !state.seats.includes(c)).map((c) => el("button", {
        type: "button", class: "button seat", "data-colour": c, onclick: () => tap(c) }, swatch(c), cap(c))),
      state.seats.length ? el("button", { type: "button", class: "button link", onclick: () => setSeats([]) }, "start again") : ""));
  }

  function setSeats(seats, { watched = false } = {}) {
    state.seats = seats;
    state.seatsWatched = watched;
    save();
    if (seats.length && seats.length < seatCount()) renderSeats();
    else rescore();
  }

  // The players of the stash table and the mid-game Player menu: in the order of play where it
  // was given, else in the order the game watched here saw them first place, the others in the
  // colours' usual order.
  function stashColours() {
    const check = state.check || {}, watched = state.cells && watchOf(boardText());
    const names = new Set([...Object.keys(check.stash || {}), ...Object.keys(check.legal_moves || {})]);
    const first = check.seats || (watched ? watched.order : []);
    const seen = [...new Set(first)].filter((n) => names.has(n));
    return seen.concat(COLOURS.map((c) => c.name).filter((n) => names.has(n) && !seen.includes(n)));
  }

  // Whose turn it is in the game watched here: the player of a move taken back, to place again
  // (``retaking``), else the next seat after the last placement seen whose player has a legal
  // move now (the board has not changed since, so any player between had none and passed). Null
  // unless the order of play is given (or a move was taken back) and the board is the one watched.
  function watchedTurn() {
    const check = state.check || {}, seats = check.seats;
    if (check.game_over) return null;
    const retaking = retakingPlayer();
    if (retaking && !(check.must_pass || []).includes(retaking)) return retaking;
    if (!lastSeenMover() || !seats) return null;
    const last = seats.indexOf(lastSeenMover());
    if (last < 0) return null;
    for (let i = 1; i <= seats.length; i++) {
      const player = seats[(last + i) % seats.length];
      if (!(check.must_pass || []).includes(player)) return player;
    }
    return null;
  }

  // Whether player ``colour`` has no piece left in the stash ``check`` gives.
  function placedEverything(check, colour) {
    const left = (check.stash || {})[colour];
    return !!left && Object.values(left).every((n) => !n);
  }

  // The player the game watched here saw place last (of the pieces on the board), or null.
  function lastSeenMover() {
    const move = lastMove();
    return move ? move.colour : null;
  }

  // The last move in the order of play the game watched here saw whose piece is still there
  // ({name, value, colour}), or null.
  function lastMove() {
    const watched = watchOf(boardText());
    return watched ? moveAt(watched, watched.squares.map(Boolean).lastIndexOf(true)) : null;
  }

  // The move the game watched here saw placed last in time, whose piece is still there: a move
  // taken back and made again in its place (``lastAt``) after a later player's, else the last in
  // the order of play. The one tinted, and taken back first.
  function lastPlacedMove() {
    const watched = watchOf(boardText());
    return (watched && watched.lastAt !== undefined && moveAt(watched, watched.lastAt)) || lastMove();
  }

  // Move ``at`` of ``watched`` where its piece is still on the board ({name, value, colour}), else null.
  function moveAt(watched, at) {
    const name = at >= 0 ? watched.squares[at] : null, value = name && tokenAt(name);
    return value && NAME_OF[value[0]] === watched.order[at] ? { name, value, colour: watched.order[at] } : null;
  }

  // The piece the note under the board offers to take back (against the rules, or placed out
  // of turn) while it stands there still, as the note's action ({name, value, next, reason}:
  // ``next``, the players who place once it is taken back; ``reason``, "rule" or "turn"); else null.
  function heldForTakeBack() {
    const note = state.boardNote, action = note && note.action;
    return action && action.kind === "take_back" && action.next && action.next.length && !$("#board-note").hidden
      && note.board === boardText() && tokenAt(action.name) === action.value ? action : null;
  }

  // Whether a piece the note under the board says breaks a rule waits to be taken back.
  function heldAgainstRules() {
    const held = heldForTakeBack();
    return !!held && held.reason === "rule";
  }

  // The player of the earliest move the game watched here saw taken back since (its place still
  // open), who places again before play goes on; or null.
  function retakingPlayer() {
    const watched = watchOf(boardText());
    const open = watched ? watched.squares.indexOf(null) : -1;
    return open >= 0 ? watched.order[open] : null;
  }

  // Who may move by the piece counts (``check``'s candidates), less the player the game watched
  // here saw place last: play goes round, so they place again only when all the others pass.
  function candidatesSeen(check) {
    const candidates = check.to_move_candidates || [], last = lastSeenMover();
    const others = candidates.filter((c) => c !== last);
    return others.length && !others.every((c) => (check.must_pass || []).includes(c)) ? others : candidates;
  }

  // Who the page names to move by ``check``: ``turns``, the one player it can name, else those
  // the counts allow; ``newcomers``, whether a player with no piece yet may move as well.
  function turnsNamed(check) {
    const { sure, candidates } = turnNow(check);
    return sure ? { turns: [sure], newcomers: false } : { turns: candidates, newcomers: !!check.unseen_player_may_move };
  }

  // Whose turn it is as the page tells it, from ``check``: ``sure``, the one player it can name
  // (the game watched here knows its passes and who placed last; else the piece counts);
  // ``candidates``, those the counts allow, less the player seen placing last; ``likeliest``,
  // the one of them to move if nobody passed more than the counts show.
  function turnNow(check) {
    const candidates = candidatesSeen(check);
    const alone = candidates.length === 1 && !check.unseen_player_may_move ? candidates[0] : null;
    const likeliest = candidates.includes(check.to_move_likeliest) ? check.to_move_likeliest : null;
    return { sure: watchedTurn() || check.to_move || alone, candidates, likeliest };
  }

  function renderMidgame() {
    const check = state.check || {};
    const toMove = $("#to-move");
    const { sure, candidates, likeliest } = turnNow(check);
    const passing = check.game_over ? [] : check.must_pass || [];
    const spent = passing.filter((c) => placedEverything(check, c)), stuck = passing.filter((c) => !spent.includes(c));
    const has = (players) => `${listed(players.map(cap), "and")} ${players.length === 1 ? "has" : "have"}`;
    const passes = (stuck.length ? ` ${has(stuck)} no legal move and must pass.` : "")
      + (spent.length ? ` ${has(spent)} placed every piece.` : "");
    const placed = pieceCount(state.cells || []);
    const who = candidates.map(cap).concat(check.unseen_player_may_move ? ["a player with no piece yet"] : []);
    // a piece to take back whose player, or the player whose turn it took, is to place then, not
    // whoever is next on the board as it stands (unless the same)
    const held = heldForTakeBack(), heldTurn = held && String(held.next) !== String([sure]) ? held : null;
    const again = !!heldTurn && held.next.includes(NAME_OF[held.value[0]]);
    if (heldTurn) {
      const rule = held.reason === "rule";
      const stays = !rule && sure ? `; if it stays, ${cap(sure)}` : ""; // out of turn: the players may play on
      replaceLive(toMove, ...(held.next.length === 1 ? [swatch(held.next[0]), " "] : []),
        el("strong", { text: listed(held.next.map(cap), "or") }),
        ` to ${again ? "place again" : "move"} once the ${describe(held.value)} on ${held.name} is taken back: `
        + `${rule ? "it breaks a rule" : "it was placed out of turn"}${stays}.`);
    } else if (check.game_over) {
      const full = Object.keys(check.stash || {}).every((c) => placedEverything(check, c));
      replaceLive(toMove, el("strong", { text: "Game over: " }), full ? "every pyramid is placed." : "no player has a legal move left.");
    } else if (sure) {
      const again = sure === retakingPlayer() ? " to move again: a piece of theirs was taken back." : " to move.";
      replaceLive(toMove, swatch(sure), " ", el("strong", { text: cap(sure) }), `${again}${passes}`);
    }
    else if (likeliest) { // who moves if nobody passed; the players know whether anyone did
      const others = who.filter((c) => c !== cap(likeliest));
      replaceLive(toMove, swatch(likeliest), " ", el("strong", { text: cap(likeliest) }),
        ` to move, or ${listed(others, "or")} after a pass the piece counts do not show.${passes}`);
    }
    else if (!candidates.length && check.unseen_player_may_move && !placed) {
      replaceLive(toMove, "No piece is down yet: any player may start.");
    } else if (who.length) {
      replaceLive(toMove, (who.length > 1
        ? `To move: ${listed(who, "or")} (the piece counts allow ${who.length > 2 ? "any of them" : "either"}).` : `To move: ${who[0]}.`) + passes);
    } else replaceLive(toMove, "Whose turn it is cannot be told from the pieces on the board.");
    // the last move one tap from being taken back (and the one before it after that)
    const last = lastPlacedMove(), undo = $("#undo-move");
    keepFocusWithin(undo, () => {
      undo.hidden = !last;
      undo.textContent = last ? `take back the ${describe(last.value)} on ${last.name} \u21b6` : "";
    });
    // the summary at the top says whose turn it is too (on a phone this card is screens below):
    // while a piece waits to be taken back, the one player to place then, whose squares are shown
    const heldRule = heldTurn && held.reason === "rule", heldNext = heldRule && held.next.length === 1 ? held.next[0] : null;
    const told = heldTurn ? heldNext : sure;
    $("#summary-moves").textContent = `${told ? `${cap(told)} to ${again ? "place again" : "move"}: ` : ""}where each piece may go ↓`;
    renderSeats();
    const notes = (check.notes || []).map((n) => el("li", { text: n }));
    // A new game short of parks: one tap beside the board lays them out (or tap squares for your own).
    const usual = check.usual_parks && check.usual_parks.length ? check.usual_parks : null;
    keepFocusWithin($("#place-parks"), () => { // pressed by keyboard and gone: the keyboard goes to the board
      $("#place-parks").hidden = !usual;
      $("#place-parks").textContent = usual ? `place the usual parks (${listed(usual, "and")})` : "";
    });
    keepFocusWithin($("#check-notes"), () => $("#check-notes").replaceChildren(...notes));

    const stashName = nameOfStash(check.threehouse);
    // a close call between the stashes (said in full in the mid-game notes) is flagged here too
    $("#stash-used").textContent = !$("#opt-stash-auto").checked ? ""
      : check.stash_unsure ? `(${stashName} for this board, a close call: see Mid-game)` : `(${stashName} for this board)`;
    const colours = stashColours();
    const stash = check.stash || {};
    if (colours.length && Object.keys(stash).length) {
      $("#stash").replaceChildren(el("table", { class: "stash" },
        el("thead", {}, el("tr", {}, el("th", { text: `Left in stash (${stashName})` }), el("th", { text: "1-pip" }), el("th", { text: "2-pip" }), el("th", { text: "3-pip" }))),
        el("tbody", {}, colours.filter((c) => stash[c]).map((c) => el("tr", {},
          el("td", {}, swatch(c), " ", c), ...["1", "2", "3"].map((s) => el("td", { text: String(stash[c][s] ?? "") })))))));
    } else {
      $("#stash").replaceChildren(el("p", { class: "hint", text: "Put pyramids on the board to see each player's stash." }));
    }

    const select = $("#move-colour");
    const choices = colours.slice();
    if (check.unseen_legal_moves) choices.push(UNSEEN);
    // Whose squares are shown follows the turn as it moves on (a piece placed, the order of play
    // tapped); a player picked by hand stays until then. Where the next is not known, the player
    // seen placing last gives way to one who may place next.
    // (while a piece against the rules waits to be taken back, the player to place then: not the
    // next on the board as it stands; one out of turn may stay, and the next then is that one)
    const followed = heldRule ? heldNext
      : sure || likeliest || (state.moveColour === lastSeenMover() ? candidates[0] : null);
    const turn = followed && choices.includes(followed) ? followed : null;
    if (turn && turn !== state.turnFollowed) state.moveColour = turn;
    // the size kept where the player to move may place one, else the first size it may place:
    // when the turn moves on, or comes back to the same player (the others passed)
    if (turn && state.moveColour === turn && (turn !== state.turnFollowed || boardText() !== state.boardFollowed)) {
      const moves = (check.legal_moves || {})[turn] || {};
      const placeable = [1, 2, 3].filter((pips) => (moves[String(pips)] || []).length);
      if (state.movePips && placeable.length && !placeable.includes(state.movePips)) state.movePips = placeable[0];
    }
    state.turnFollowed = turn;
    state.boardFollowed = boardText();
    if (!choices.includes(state.moveColour)) state.moveColour = turn || choices[0] || null;
    select.replaceChildren(...choices.map((c) => el("option", {
      value: c, text: c === UNSEEN ? "a player with no piece yet" : cap(c), selected: c === state.moveColour,
    })));
    select.disabled = !choices.length;
    keepFocusWithin($("#midgame .moves-chooser"), () => { // no piece can go anywhere: nothing to choose
      $("#midgame .moves-chooser").hidden = !!check.game_over;
    });
    // a size the chosen player has none left of is marked so (still a button: it says so)
    const left = (check.stash || {})[state.moveColour];
    for (const b of $$(".size-buttons .size")) {
      b.setAttribute("aria-pressed", String(Number(b.dataset.pips) === state.movePips));
      const spent = !!left && left[b.dataset.pips] === 0;
      b.classList.toggle("spent", spent);
      if (spent) b.setAttribute("aria-label", `${b.dataset.pips}-pip, none left`); else b.removeAttribute("aria-label");
    }
    renderMoves();
  }

  // Whether ``value`` put on square ``name`` (``was`` before: as the reader read it, which it was
  // unsure of) is one of the reader's next best there: the square put right as it asked (its
  // top message names squares to check), not a move, though the mid-game card's piece or the
  // next player's.
  function correctsDoubt(name, value, was = tokenAt(name)) {
    const info = state.reading && state.reading.unsure.includes(name) && state.reading.byCell[name];
    return !!info && was === readNowAt(name) && readingNamedNow(name, info).alternatives.some((a) => a.value === value);
  }

  // The piece chosen in the mid-game card (``r2``) where square ``name`` is one of its dotted
  // squares, else null.
  function dottedPiece(name) {
    return state.moveColour && state.moveColour !== UNSEEN && state.movePips && (legalSquares() || []).includes(name)
      ? LETTER_OF[state.moveColour] + state.movePips : null;
  }

  function legalSquares() {
    const check = state.check;
    if (!check || !state.moveColour || !state.movePips) return null;
    if (heldAgainstRules()) return []; // no square is shown while it stands
    const moves = state.moveColour === UNSEEN ? check.unseen_legal_moves : (check.legal_moves || {})[state.moveColour];
    if (!moves) return [];
    return moves[String(state.movePips)] || [];
  }

  function renderMoves() {
    const out = $("#moves");
    const check = state.check || {};
    const pips = state.movePips;
    if (!state.moveColour) { replaceLive(out); return; }
    const colour = state.moveColour === UNSEEN ? "new player" : state.moveColour;
    const piece = `${state.moveColour === UNSEEN ? "a new player's" : (/^[aeiou]/.test(colour) ? "an " : "a ") + colour} ${pips}-pip`;
    if (check.game_over) { // said once, on the "to move" line
      replaceLive(out);
      return;
    }
    if ((check.must_pass || []).includes(colour)) {
      replaceLive(out, el("span", { class: "notice" }, el("strong", { text: cap(colour) }),
        placedEverything(check, colour) ? " has placed every piece." : " has no legal move and must pass."));
      return;
    }
    const held = heldForTakeBack(); // a piece to take back: against the rules, no squares; out of turn, those where it stays
    if (held && held.reason === "rule") {
      replaceLive(out, el("span", { class: "notice", text: `Take back the ${describe(held.value)} on ${held.name} first: it breaks a rule.` }));
      return;
    }
    if (!pips) { replaceLive(out, "Choose a piece size to see where it may go."); return; }
    const left = state.moveColour === UNSEEN ? undefined : ((check.stash || {})[colour] || {})[String(pips)];
    const squares = legalSquares() || [];
    if (left === 0) {
      replaceLive(out, el("span", { class: "notice", text: `${cap(colour)} has no ${pips}-pips left in the stash.` }));
    } else if (!squares.length) {
      replaceLive(out, el("span", { class: "notice", text: `No square is legal for ${piece} now; another size may still fit.` }));
    } else {
      const standing = held ? ` if the ${describe(held.value)} on ${held.name} stays` : "";
      replaceLive(out, el("strong", { text: `${squares.length} legal square${squares.length === 1 ? "" : "s"}` }),
        ` for ${piece}${standing} (green dots): ${squares.join(" ")} `,
        // on a phone the board is screens above this card
        el("button", { type: "button", class: "button link", id: "moves-on-board",
          onclick: () => showOnBoard(".legal-dot") }, "see them on the board ↑"));
    }
  }

  // The board scrolled to, and the keyboard put on the square of the first mark matching
  // ``selector`` (a lit square, a legal dot): it goes with the eye, not back to the page's top.
  function showOnBoard(selector) {
    bringIntoView($("#board-pane"), "start");
    const mark = $(`#diagram ${selector}`);
    const square = mark && mark.closest(".sq");
    if (square) square.focus({ preventScroll: true });
  }

  function renderAll() {
    $("#results").hidden = false;
    $("#skip-to-board").hidden = false;
    $("#results").classList.remove("photo-only");
    placeMidgameCard();
    renderMidgame(); // first: it picks the player whose legal squares the board dots
    renderDiagram();
    renderScore();
    renderLegality();
    renderReaderNotes(); // the reader's notes and checks follow the board and the options (the outcome drawn with the score)
    followNewSize();
  }

  // "New empty board" offers the setup of the board on screen (a 7x7 read: 7x7, 3 players),
  // so that the next game starts as this one did; it follows only a board of another size (not
  // the options: a size picked meanwhile is not taken back by a scoring that answers late), so a
  // size picked by hand stays while this board is played on.
  function followNewSize() {
    const { rows, cols } = state;
    const { players, threehouse } = state.check;
    const key = JSON.stringify([rows, cols]);
    if (key === state.newSizeFollowed) return;
    state.newSizeFollowed = key;
    const choices = [...$("#new-size").options];
    const sized = choices.filter((o) => o.value === `${rows}x${cols}`);
    const chosen = sized.find((o) => Number(o.dataset.players) === players && (o.dataset.threehouse === "1") === !!threehouse)
      || sized[0] || choices.find((o) => o.value === "custom");
    chosen.selected = true;
    $("#custom-size").hidden = chosen.value !== "custom";
    if (chosen.value === "custom") [$("#new-rows").value, $("#new-cols").value] = [rows, cols];
    save();
  }

  // While the game goes on, the mid-game card (whose turn, where a piece may go) comes right
  // after the board, beside it on a wide screen; once it is over, the score does. The cards are
  // moved in the page, not only drawn elsewhere, so that Tab and a screen reader take them in
  // the order they are seen.
  function placeMidgameCard() {
    const inPlay = !!state.check && !state.check.game_over;
    $("#results").classList.toggle("in-play", inPlay);
    const cards = (inPlay ? ["#midgame", "#legality", "#score"] : ["#score", "#legality", "#midgame"]).map((id) => $(id));
    const board = $("#board-pane");
    if (cards.every((card, i) => card.previousElementSibling === (i ? cards[i - 1] : board))) return;
    const focused = cards.some((card) => card.contains(document.activeElement)) ? document.activeElement : null;
    board.after(...cards);
    if (focused) focused.focus();
  }

  // --- the square picker ------------------------------------------------------------------
  let pickerCell = null;

  // A tap on square ``name`` (the diagram's or the photo's): while sorting two colours, a piece of
  // either made the other; else the picker.
  function tapSquare(name) {
    if (sortable(name)) sortTap(name); else openPicker(name);
  }

  function openPicker(name) {
    pickerCell = name;
    const waiting = waitingOn(name); // (a tap before it, still waiting its turn: the square as it will be)
    const current = waiting ? waiting.value : tokenAt(name);
    $("#picker-title").textContent = `${name}: ${describe(current)}${waiting ? ", waiting to be placed" : ""}`;
    const info = state.reading && state.reading.byCell[name];
    const suggestions = new Set();
    if (placedSincePhoto(name)) { // a move, not the reader's doing: what it read there is beside the point
      $("#picker-reading").textContent = "Placed since the photo: Empty takes it back.";
    } else if (info) {
      const now = readingNamedNow(name, info);
      const alts = now.alternatives;
      alts.forEach((a) => suggestions.add(a.value));
      // (its colour group answered: how sure it is once that is known)
      const odds = confidenceNow(name, info);
      const answered = typeof odds === "number" && floorPercent(odds) !== floorPercent(info.confidence) && now.value === tokenAt(name)
        ? `, ${floorPercent(odds)}% with its colour answered` : "";
      const conf = typeof info.confidence === "number" ? ` (${percentSure(info.confidence)}${answered})` : "";
      const altText = alts.length ? `; next best: ${alts.map((a) => describe(a.value) + (typeof a.confidence === "number" ? ` ${a.confidence < 0.005 ? "under 1" : Math.round(a.confidence * 100)}%` : "")).join(", ")}` : "";
      const inDoubt = groupNameInDoubt(name, info, now);
      // A value chosen over likelier-looking ones says what chose it.
      // (its confidence weighs what chose it, so the look's own doubt is said apart)
      const settled = typeof info.settled_by === "string" ? ` It was read so to fit the ${info.settled_by}${SETTLED_SAID[info.settled_by] || ""}: by its look alone, something else is likelier.` : "";
      // A pyramid the piece in front partly hides: a small one may be that piece's side, a taller one shows only its top.
      const hidden = info.partly_hidden === true ? " A piece in front of it hides part of its base in the photo." : "";
      // A piece the colour of its square (or a black or see-through one seen from straight above on a black one) shows little outline.
      const blends = info.blends_in === true ? " It melts into the square under it (its colour is close to the square's, or it is seen from straight above on a black square), so its edges and its size are hard to see." : "";
      // A piece with no colour of its own to see, given a group's colour its look disputes.
      const disputed = info.colour_disputed === true ? " Its own colour could not be seen in the photo, and it does not look like the colour it was given." : "";
      // A lamp's or window's reflection on the board leaves little of the square to see.
      const washed = info.washed_out === true ? " A reflection of a light washes this square out in the photo." : "";
      // A hand or an arm over the board hides the square altogether.
      const covered = info.covered === true ? " Something lies over this square in the photo (a hand or an arm?)." : "";
      // A square the photo's edge cuts off: nothing of it was seen.
      const outside = info.out_of_photo === true ? " This square is outside the photo: what is on it is a guess, so set it as it is on the table." : "";
      $("#picker-reading").textContent = `Read as ${describe(now.value)}${conf}${altText}.${inDoubt}${settled}${hidden}${blends}${disputed}${washed}${covered}${outside}`;
    } else {
      $("#picker-reading").textContent = "";
    }
    $("#picker-key").hidden = ![...suggestions].some((v) => v !== current);
    const { known, allKnown } = playersColours();
    const showAll = !allKnown;
    const offered = new Set(known); // and the reader's next best
    for (const v of suggestions) if (v && v.length === 2 && NAME_OF[v[0]]) offered.add(NAME_OF[v[0]]);
    $("#picker-colours").classList.toggle("all", showAll);
    $("#picker-more").hidden = showAll;
    for (const row of $$(".picker-colour")) row.classList.toggle("hidden-colour", !offered.has(row.dataset.colour));
    const barred = pickerBarred = barredPieces(name, current);
    renderBarredKey();
    // a square dotted for the piece chosen in the mid-game card: that piece marked, and focused
    // (not where it is the reader's next best on a square it asked to check: a correction)
    const dotted = dottedPiece(name), move = dotted && !correctsDoubt(name, dotted) ? dotted : null;
    $("#picker-move-key").hidden = !move;
    for (const b of $$("#picker .choice")) {
      b.classList.toggle("current", b.dataset.value === current);
      b.setAttribute("aria-current", String(b.dataset.value === current));
      b.classList.toggle("suggested", suggestions.has(b.dataset.value) && b.dataset.value !== current);
      b.classList.toggle("barred", barred.has(b.dataset.value));
      b.classList.toggle("move", b.dataset.value === move);
      // (its own rule, said on hover and to screen readers)
      if (barred.has(b.dataset.value)) b.title = `would break a rule here: ${barred.get(b.dataset.value)}`;
      else b.removeAttribute("title");
    }
    const dialog = $("#picker");
    if (typeof dialog.showModal === "function") dialog.showModal(); else dialog.setAttribute("open", "");
    // the keyboard starts from the piece chosen for the move, else the value as it stands, not from the first button
    const currentChoice = dialog.querySelector(".choice.move") || dialog.querySelector(".choice.current");
    if (currentChoice && currentChoice.offsetParent !== null) currentChoice.focus();
  }

  // Where square ``name`` holds a park no pyramid should go on: one of the game's parks watched
  // here once a move was made (before any, a park may be a piece put right), or one the reader
  // was sure of on the photo (a walkthrough's piece put on one was taken for a park misread,
  // unsaid); never a park the reader was unsure of. {watched: the game watched here, or null;
  // read: the reader's park}, else null.
  function parkInPlay(name) {
    const { col, row } = parseCell(name);
    if (state.cells[row][col] !== "#" || (state.reading && state.reading.unsure.includes(name))) return null;
    const watching = watchOf(boardText());
    if (watching && watching.order.length > 0) return { watched: watching, read: false };
    return readSurely(name, "#") ? { watched: watching, read: true } : null;
  }

  // On an empty square of a game going on, the pieces that may not be placed there (not legal
  // there, none left in the stash, a colour more than the game has players), and on a park of a
  // game going on here every pyramid: picker value ("r1") -> the rule it would break, in a few
  // words. Still offered: the picker also puts right what a photo shows, whatever the rules say.
  const ON_PARK = "pieces go on empty squares only, not on a park";
  const outOfPlay = (check) => `a colour more than the game's ${check.players} players`;
  let pickerBarred = new Map(); // the picker's square's barredPieces
  function barredPieces(name, current) {
    const check = state.check, barred = new Map();
    const everyPiece = COLOURS.flatMap(({ letter }) => ["1", "2", "3"].map((pips) => letter + pips));
    if (parkInPlay(name)) {
      for (const value of everyPiece) barred.set(value, ON_PARK);
      return barred;
    }
    if (current !== "." || !check || check.game_over || !check.legal_moves) return barred;
    for (const { name: colour, letter } of COLOURS) {
      // a colour not in play: a new player's squares, or none where every player is on the board
      const moves = check.legal_moves[colour] || check.unseen_legal_moves;
      const left = (check.stash || {})[colour] || {};
      for (const pips of ["1", "2", "3"]) {
        if (moves && (moves[pips] || []).includes(name)) continue;
        // (the rules' order: the stash first, then the piece's own rule; a 2-pip may go on any empty square)
        barred.set(letter + pips, !moves ? outOfPlay(check)
          : left[pips] === 0 ? `none left in the ${colour} stash`
            : pips === "3" ? `Near a ${colour} 3-pip`
              : pips === "1" ? "no 1-pip or 3-pip of another colour Near" : "it breaks a rule");
      }
    }
    return barred;
  }

  // The picker's key to its "!" marks: the rule each barred piece of the colours shown would
  // break ("red and blue 1-pips (no 1-pip or 3-pip of another colour Near), ...").
  function renderBarredKey() {
    const barred = pickerBarred, check = state.check || {}, shownAll = $("#picker-colours").classList.contains("all");
    const shown = (value) => shownAll || !$(`#picker .picker-colour[data-colour="${NAME_OF[value[0]]}"]`).classList.contains("hidden-colour");
    const byRule = new Map();
    for (const [value, rule] of barred) if (shown(value)) byRule.set(rule, (byRule.get(rule) || []).concat([value]));
    const said = [...byRule].map(([rule, values]) => {
      if (rule === ON_PARK) return rule; // (every piece)
      if (rule === outOfPlay(check)) return `other colours (${rule})`; // (all their pieces)
      const sizes = [...new Set(values.map((v) => v[1]))].map((pips) => {
        const colours = values.filter((v) => v[1] === pips).map((v) => NAME_OF[v[0]]);
        return `${listed(colours, "and")} ${pips}-pip${colours.length > 1 ? "s" : ""}`;
      });
      return `${listed(sizes, "and")} (${rule})`;
    });
    $("#picker-barred-key").hidden = !said.length; // (none of the colours shown: said once they are)
    $("#picker-barred").textContent = `would break a rule here${said.length ? `: ${said.join(", ")}` : ""}`;
  }

  function closePicker() {
    const dialog = $("#picker");
    if (typeof dialog.close === "function") dialog.close(); else dialog.removeAttribute("open");
  }

  function choose(value) {
    const name = pickerCell;
    closePicker();
    if (name) inTurn(name, value, () => put(name, value));
  }

  // Taps are told one after another, each once the board it was made on is scored (at most
  // SETTLE_MS): whether a piece is a move, whose turn it was and what it broke are the check's
  // of that board, not of one before it (taps faster than the scoring).
  const SETTLE_MS = 4000;
  let tapsBefore = Promise.resolve();
  // A tap still waiting its turn after WAITING_SHOWN_MS shows its piece on its square, faded
  // (``waitingTaps``: square name -> {value, tap, gen}), until it is told or dropped; one told
  // sooner shows none (no flicker), nor one on a board since replaced (``gen``: its boardGen).
  const WAITING_SHOWN_MS = 150;
  const waitingTaps = new Map();
  let tapsMade = 0;

  // The tap waiting its turn to put a piece on square ``name`` of the board shown, if any.
  function waitingOn(name) {
    const waiting = waitingTaps.get(name);
    return waiting && waiting.gen === state.boardGen ? waiting : null;
  }

  // ``job``, the tap putting ``value`` on square ``name``, in its turn. A tap made on a board
  // since replaced (another board typed, read, made or turned) is dropped.
  function inTurn(name, value, job) {
    const gen = state.boardGen, tap = ++tapsMade;
    const shown = setTimeout(() => {
      if (gen !== state.boardGen) return; // (a board since replaced: dropped, never shown)
      waitingTaps.set(name, { value, tap, gen });
      renderDiagram();
    }, WAITING_SHOWN_MS);
    const told = () => { // whether its waiting piece was shown (and is no more)
      clearTimeout(shown);
      const mine = (waitingTaps.get(name) || {}).tap === tap;
      if (mine) waitingTaps.delete(name);
      return mine;
    };
    const settled = () => {
      let timer;
      const waited = new Promise((done) => { timer = setTimeout(done, SETTLE_MS); });
      return Promise.race([state.analysing, waited]).finally(() => clearTimeout(timer));
    };
    const run = tapsBefore.then(settled).then(() => {
      if (told()) renderDiagram();
      return gen === state.boardGen ? job() : undefined;
    });
    tapsBefore = run.catch((err) => { // the page's own fault: said, and still an error of the page's
      if (told()) renderDiagram();
      showMessage("Something went wrong placing that piece; what you entered is kept. Reload the page to try again.");
      setTimeout(() => { throw err; });
    });
    return run;
  }

  // The arrow keys move between the picker's choices as on a grid (a keyboard walkthrough: up to 21 Tabs
  // to a piece): Empty and Park, then a row for each colour shown, its 1, 2 and 3 pips.
  function pickerArrow(e) {
    const step = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] }[e.key];
    if (!step || e.altKey || e.ctrlKey || e.metaKey || !e.target.matches("#picker .choice")) return;
    const rows = $$("#picker .picker-row, #picker .picker-colour")
      .map((row) => [...row.querySelectorAll(".choice")].filter((b) => b.offsetParent !== null))
      .filter((row) => row.length);
    const at = rows.findIndex((row) => row.includes(e.target));
    if (at < 0) return;
    e.preventDefault();
    const row = rows[at + step[0]];
    if (row) row[Math.min(Math.max(rows[at].indexOf(e.target) + step[1], 0), row.length - 1)].focus();
  }

  // The picker's ``value`` put on square ``name``.
  function put(name, value) {
    const { col, row } = parseCell(name);
    if (state.cells[row][col] === value) {
      confirmSquare(name);
      return;
    }
    const placed = state.cells[row][col] === "." && value.length === 2;
    const correction = placed && correctsDoubt(name, value);
    const onPark = value.length === 2 ? parkInPlay(name) : null; // a slip, likeliest
    const brokenBefore = new Set(((state.check && state.check.violations) || []).map((v) => v.rule));
    // whose turn it was, where the check on hand answers for the board and options as they stand
    // (not for a move back, still being scored)
    const named = state.checkedFor === JSON.stringify(checkAsked(boardText())) ? turnsNamed(state.check || {})
      : { turns: [], newcomers: false };
    // an unsure square put back as the reader read it (a wrong pick undone): the player has looked
    const backAsRead = !!state.reading && state.reading.unsure.includes(name) && readNowAt(name) === value;
    if (backAsRead) {
      state.reading.unsure = state.reading.unsure.filter((cell) => cell !== name);
      doubtsAnswered([name]);
    }
    setSquare(name, value).then((ok) => {
      if (!ok) return;
      if (backAsRead) sayConfirmed(`${name} is confirmed.`);
      if (onPark) sayOnPark(name, value, onPark);
      // a placement said to be wrong sets no order of play
      // (a piece the reader missed, put right, that breaks a rule: the board as read does, and the
      // Legality card says so; it is no placement to take back unless taken as a move)
      const watched = watchOf(boardText()), missed = correction && !(watched && watched.squares.includes(name));
      const turns = named.newcomers ? [] : named.turns; // (the players to place once a piece is taken back: named ones)
      if (placed && ((!missed && sayPlacementBroke(name, value, brokenBefore, turns))
        || sayOutOfTurn(name, value, named.turns, named.newcomers))) return;
      // taken as a piece the reader missed (it doubted the square) though it was not its next best
      // there and its player may move: one tap to make it the move it may be (a walkthrough: a move
      // on a doubted square taken for a correction, the turn lost)
      const moved = watched && watched.squares.includes(name);
      const bareDoubted = !!state.readTokens && readTokenAt(name) === "." && !readSurely(name, "."); // (read bare, and doubted)
      if (placed && !correction && !moved && bareDoubted && named.turns.includes(NAME_OF[value[0]])) {
        showBoardNote(`The ${describe(value)} on ${name} is taken as a piece the reader missed, as it was unsure of ${name}.`,
          { kind: "as_move", name, value }, { info: true });
      }
      const seen = watchedSeats();
      if (seen && !state.seats.length) setSeats(seen, { watched: true });
    });
  }

  // The piece ``value`` on square ``name``, taken as one the reader missed, made a move since the
  // photo instead ("It is a move"): taken off the board (the watch told, nothing drawn) and placed
  // again, as a move.
  function retakeAsMove(name, value) {
    if (tokenAt(name) !== value) return;
    const { col, row } = parseCell(name), before = boardText();
    state.cells[row][col] = ".";
    watchChange(name, value, ".", before, false);
    const note = $("#board-note");
    keepFocusWithin(note, () => { note.hidden = true; });
    setSquare(name, value, { asMove: true }).then((ok) => { if (ok) announce(`The ${describe(value)} on ${name} is taken as a move.`); });
  }

  // ``value`` put on square ``name`` by the player (the picker, "Take it back"; ``asMove``: taken
  // as a move whatever the reading): the game watched here told, the board drawn, kept and scored
  // again (rescore's promise).
  function setSquare(name, value, { asMove = false } = {}) {
    const { col, row } = parseCell(name);
    const before = boardText(), was = state.cells[row][col], fromEmpty = pieceCount(state.cells) === 0;
    // who might place next as the page said before this change: the player to move, else those
    // the counts allow and any player with no piece yet
    const check = state.check || {}, turn = turnNow(check);
    const newcomers = check.unseen_player_may_move ? COLOURS.map((c) => c.name).filter((c) => !piecesOf(c)) : [];
    const next = turn.sure ? [turn.sure] : turn.candidates.concat(newcomers);
    state.cells[row][col] = value;
    watchChange(name, was, value, before, fromEmpty, next, { seen: asMove });
    if (state.textDirty) textStatus("The text above has edits not applied yet.");
    syncBoardText();
    save(); // kept even if the server cannot be reached to score it
    renderDiagram();
    return rescore();
  }

  // The game watched here (the colours and squares placed one by one since the board was empty
  // or the photo read) told of square ``name`` going from ``was`` to ``value`` on the board that
  // was ``before`` (its text), ``next`` being the players who might place next as the page said
  // then: a placement adds one, a move (on a photo's board, where the reader was sure the square
  // was empty, the mid-game card's piece on one of its dotted squares, or once play has gone on
  // a piece of a player who might place next (neither of these two where the reader doubted the
  // square and gave the piece as its next best there: ``correctsDoubt``), or a piece ``seen`` new
  // on a photo of the game carried on; else a piece the reader missed, a correction);
  // a move taken back or put right (another piece on its square) changes it, and with it an
  // order of play the watch gave from the first moves now changed; an earlier move taken off
  // leaves its place open (its square null) to its player's next piece (a piece found against
  // the rules after the next player had moved), until another player places; a photo's reading
  // corrected elsewhere, or any other board's pieces and parks other than its moves, leaves the
  // moves as they were; a pyramid put on a park once a move was made ends the watch (sayOnPark). The
  // first move from which the turns may have skipped a player (one made while a player had to
  // pass, or where a place left open closed) is noted (``skipAt``): the first moves then say no
  // order of play.
  function watchChange(name, was, value, before, fromEmpty, next = [], { seen = false } = {}) {
    const watched = watchOf(before) || (fromEmpty ? { order: [], squares: [] } : null);
    const colour = value.length === 2 ? NAME_OF[value[0]] : null;
    const fromPhoto = !!state.readTokens;
    // the mid-game card's piece put on one of its dotted squares (the check before this change)
    const asDotted = value === dottedPiece(name);
    const at = watched ? watched.squares.indexOf(name) : -1; // the move changed, if any
    const last = watched && at >= 0 && at === watched.squares.length - 1;
    const aMove = seen || !fromPhoto || readSurely(name, ".")
      || (!correctsDoubt(name, value, was) && (asDotted || (watched && watched.order.length > 0 && next.includes(colour))));
    const open = watched && colour ? watched.squares.findIndex((s, i) => s === null && watched.order[i] === colour) : -1;
    const placed = watched && was === "." && colour && aMove;
    // the watch after the change: {order, squares, skipAt?, previous?, lastAt?} (``previous``: the
    // watch before the last move added, which taking it back returns to: places it closed open
    // again; ``lastAt``: the move made last in time, where not the last in order)
    let after = null;
    const same = watched && { skipAt: watched.skipAt, previous: watched.previous };
    if (placed && open >= 0) { // a move taken back, made again (the last placed, if not the last in order)
      after = { ...same, order: watched.order, squares: watched.squares.map((s, i) => (i === open ? name : s)), lastAt: open };
    } else if (placed) { // another player's move closes the places left open
      const base = closeOpenPlaces(watched);
      const passing = ((state.check && state.check.must_pass) || []).length > 0;
      after = { order: base.order.concat([colour]), squares: base.squares.concat([name]), previous: watched,
        skipAt: passing ? Math.min(base.skipAt ?? Infinity, base.order.length) : base.skipAt };
    } else if (last && !colour && watched.previous && watched.previous.board === boardText()) {
      after = watched.previous; // the last move taken back
    } else if (last) { // the last move taken back or put right
      after = { ...same, order: watched.order.slice(0, -1), squares: watched.squares.slice(0, -1) };
      if (colour) [after.order, after.squares] = [after.order.concat([colour]), after.squares.concat([name])];
    } else if (at >= 0 && colour) { // an earlier move put right: another piece there
      after = { ...same, order: watched.order.map((c, i) => (i === at ? colour : c)), squares: watched.squares };
    } else if (at >= 0) { // an earlier move taken off: its place kept for its player's next piece
      after = { ...same, order: watched.order, squares: watched.squares.map((s, i) => (i === at ? null : s)) };
    } else if (watched && (fromPhoto || !(was === "#" && colour && watched.order.length))) { // the board put right elsewhere (not a piece on a park in play: sayOnPark)
      // (the watches before each move put right too, so that taking those moves back still finds them)
      const putRight = (w) => w && { ...w, board: withToken(w.board, name, value), previous: putRight(w.previous) };
      after = { ...same, previous: putRight(watched.previous), order: watched.order, squares: watched.squares };
    }
    const { order, squares, skipAt, previous, lastAt } = after || {};
    state.watched = after ? { order, squares, board: boardText(), ...(skipAt < order.length && { skipAt }),
      ...(previous && { previous }), ...(lastAt !== undefined && { lastAt }) } : null;
    // one of the first moves changed: the order of play they gave stands only if they still give it
    if (after && at >= 0 && state.seatsWatched && at < state.seats.length
        && String(watchedSeats()) !== String(state.seats)) state.seats = [];
  }

  // Board text ``text`` with ``token`` on square ``name``.
  function withToken(text, name, token) {
    const cells = tokensFromText(text), { col, row } = parseCell(name);
    if (cells[row] && cells[row][col] !== undefined) cells[row][col] = token;
    return boardText(cells);
  }

  // ``watched`` with the places its moves taken back left open closed: the turns may have
  // skipped a player from the first of them (``skipAt``).
  function closeOpenPlaces(watched) {
    const open = watched.squares.indexOf(null);
    if (open < 0) return watched;
    return { ...watched, order: watched.order.filter((c, i) => watched.squares[i]),
      squares: watched.squares.filter(Boolean), skipAt: Math.min(watched.skipAt ?? Infinity, open) };
  }

  // The game watched here where the board's text is ``text`` (the board it was left on), else null.
  function watchOf(text) {
    return state.watched && state.watched.board === text ? state.watched : null;
  }

  // The order of play seen in the game watched here: its first moves go round the players in
  // turn, nobody passing (from an empty board a 2-pip goes on any empty square; a photo's players
  // had placed as many pieces each, or one fewer, as play in turn leaves them), once every player
  // of the check's count has moved, or all but one whose colour is the one other on the board;
  // the players a piece behind when the watch began move first in it, and sit last in the order.
  // Null until then, where the counts or the moves fit no such round, where a player had to pass
  // during those moves, or where the board has changed otherwise since.
  function watchedSeats() {
    const watched = watchOf(boardText()), check = state.check || {}, n = check.players;
    // a player count only guessed from the colours on the board (no setup's size) is no count to fill
    if (!watched || !n || check.players_source === "colours on board" || watched.skipAt < n) return null;
    const moves = watched.order.slice(0, n);
    if (moves.length < n - 1 || new Set(moves).size < moves.length) return null;
    const others = [...onBoardColours()].filter((c) => !moves.includes(c));
    const round = moves.length === n ? moves : others.length === 1 ? moves.concat(others) : null;
    if (!round) return null;
    const atStart = round.map((c) => piecesOf(c) - watched.order.filter((m, i) => m === c && watched.squares[i]).length);
    const most = Math.max(...atStart);
    const behind = atStart.filter((k) => k === most - 1).length;
    const fits = atStart.every((k, i) => k === (i < behind ? most - 1 : most));
    return fits ? round.slice(behind).concat(round.slice(0, behind)) : null;
  }

  // A piece placed on an empty square that breaks a rule there, or a whole-board rule the board
  // did not break before it (``brokenBefore``: the rules broken then), is said at once, with its undoing
  // one tap away (else play went on from a board no game can reach, the next player's squares
  // drawn from it). Whether it was said.
  function sayPlacementBroke(name, value, brokenBefore, turns) {
    if (tokenAt(name) !== value) return false; // changed again meanwhile
    const broken = ((state.check && state.check.violations) || []).filter((v) => v.cell === name
      || (v.cell === null && !brokenBefore.has(v.rule) && (v.cells || []).includes(name)));
    if (!broken.length) return false;
    // every rule it breaks (a walkthrough: a 3-pip Near another and over its stash's count said only the first)
    const messages = [...new Set(broken.map((v) => v.message))];
    // once taken back, its own player places again, or, placed out of turn, the player whose turn it was
    const colour = NAME_OF[value[0]], next = turns.includes(colour) ? [colour] : turns;
    showBoardNote(messages.length > 1 ? `That placement breaks ${messages.length} rules. ${messages.map((m) => `${cap(m)}.`).join(" ")}`
      : `That placement breaks a rule: ${messages[0]}.`, { kind: "take_back", name, value, ...(next.length && { next, reason: "rule" }) });
    return true;
  }

  // A move placed by another player than the one the page said was to move (``turns``: that
  // player, or those who might; ``newcomers``: a player with no piece yet might too; neither:
  // not judged) is said at once, with its undoing one tap away. Whether it was said.
  function sayOutOfTurn(name, value, turns, newcomers = false) {
    const colour = NAME_OF[value[0]], watched = watchOf(boardText());
    if ((!turns.length && !newcomers) || turns.includes(colour) || tokenAt(name) !== value
      || !(watched && watched.squares.includes(name))) return false;
    if (newcomers && piecesOf(colour) === 1) return false; // its player's first piece: a player new to the board
    const whose = listed(turns.map((c) => `${cap(c)}'s`), "or");
    const it = !newcomers ? `${whose} turn` : turns.length ? `${whose} turn or that of a player with no piece yet`
      : "the turn of a player with no piece yet";
    showBoardNote(`It was ${it}, not ${cap(colour)}'s: that piece was placed out of turn.`,
      { kind: "take_back", name, value, next: newcomers ? [] : turns, reason: "turn" });
    return true;
  }

  // A pyramid ``value`` put on the park on square ``name`` (parkInPlay's: the game ``watched``,
  // the park ``read`` on the photo): said (pieces go on empty squares), with the park and the game
  // as they were one tap away; the piece stays where the park was the mistake.
  function sayOnPark(name, value, { watched, read }) {
    if (tokenAt(name) !== value) return;
    showBoardNote(read ? `The photo shows a park on ${name}, and pieces go on empty squares only (a piece the reader took for a park: leave it).`
      : `${name} held a park, and pieces go on empty squares only (a park put there by mistake: leave the piece).`,
    { kind: "park_back", name, value, watched });
  }

  // The message button that puts the park back on square ``name`` where the piece ``value`` was
  // put by mistake (if still there), with the game as it was before the slip (``watched``).
  function parkBack(name, value, watched) {
    return {
      label: "Put the park back",
      onclick: () => {
        if (tokenAt(name) !== value) return;
        setSquare(name, "#");
        state.watched = watched; // the game's moves as before the slip, each still to be taken back
        save();
        showOnBoard(`.sq[data-cell="${name}"]`);
      },
    };
  }

  // The message button that takes the piece ``value`` off square ``name`` (if still there).
  function takeBack(name, value) {
    return {
      label: "Take it back",
      onclick: () => {
        if (tokenAt(name) !== value) return;
        setSquare(name, ".");
        showOnBoard(`.sq[data-cell="${name}"]`);
      },
    };
  }

  // The user says an unsure square was read right (picked as it is): its dashed mark goes.
  function confirmSquare(name) {
    if (!state.reading || !state.reading.unsure.includes(name)) { // nothing to confirm: the message as it stands
      if (state.reading) sayConfirmed(null);
      return;
    }
    state.reading.unsure = state.reading.unsure.filter((cell) => cell !== name);
    if (stillAsRead(name)) doubtsAnswered([name]);
    save();
    renderConfirmed();
    sayConfirmed(`${name} is confirmed.`);
  }

  // What a check answered changes: the marks, the notes, and what the outcome and the
  // violations say of the reader's doubts.
  function renderConfirmed() {
    renderReaderNotes();
    renderDiagram();
    if (!state.score) return;
    renderOutcome();
    renderLegality();
  }

  // The user says every unsure square not corrected since was read right: their marks go.
  // The unsure squares not checked since confirmed as read, but those ``kept`` (left to check).
  function confirmUnsureSquares(kept = []) {
    if (!state.reading) return;
    const confirmed = uncheckedUnsure().filter((cell) => !kept.includes(cell)), n = confirmed.length;
    const before = { unsure: state.reading.unsure, doubted: state.reading.doubted };
    doubtsAnswered(confirmed);
    state.reading.unsure = state.reading.unsure.filter((cell) => !confirmed.includes(cell));
    state.bulkConfirm = { cells: confirmed, before, reading: state.reading, board: boardText(), unsure: state.reading.unsure.join() };
    save();
    renderConfirmed();
    sayConfirmed(n > 1 ? `The ${n} uncertain squares are confirmed.` : "The uncertain square is confirmed.");
  }

  // Whether the last one-tap confirmation stands to be undone: its reading still shown, the board
  // and the squares in doubt as it left them (nothing checked since).
  function bulkConfirmStands() {
    const done = state.bulkConfirm;
    return !!done && done.reading === state.reading && done.board === boardText() && done.unsure === state.reading.unsure.join();
  }

  // The message button that undoes the last one-tap confirmation while it stands; else undefined.
  function bulkConfirmUndo() {
    return bulkConfirmStands() ? { label: "Undo", onclick: undoBulkConfirm } : undefined;
  }

  // The last one-tap confirmation undone: its squares in doubt again, marked and left to check.
  function undoBulkConfirm() {
    const done = state.bulkConfirm, stands = bulkConfirmStands();
    state.bulkConfirm = null;
    if (!stands) return;
    state.reading.unsure = done.before.unsure;
    state.reading.doubted = done.before.doubted;
    save();
    renderConfirmed();
    showReadingMessage();
  }

  // The top message after a check answered: what is left to check, else ``confirmed`` (none:
  // no message). While the score shown is from before the last change (the server could not
  // be reached), its message and "Try again" stay instead, until a check succeeds.
  function sayConfirmed(confirmed) {
    if ($("#results").classList.contains("stale") || showReadingMessage()) return;
    // the last doubt answered: the player is done, and the score stands
    if (confirmed) showMessage(`${confirmed} Nothing the reader doubted is left to check: ${$("#outcome").dataset.sentence || ""}`.trim(), "info", bulkConfirmUndo());
    else clearMessage();
  }

  const TYPO_SQUARES = 2; // squares a typed board may change and stay the same game (its order of play kept)
  const SURE_MISREADS = 1; // pieces of the last board a photo of the same game may lack on squares neither reading doubted

  // A typed board (``typed``: its rows of tokens) taken as another board than the one shown:
  // not the photo's (most of its squares changed, or another size), nor, when it is another
  // size, the new board's the options were set for, nor, with fewer pieces or another size,
  // the same game as its order of play. Returns what puts all that back, for a text the server
  // does not take.
  function takeAsAnotherBoard(typed) {
    const before = { reading: state.reading, readTokens: state.readTokens, seats: state.seats,
      options: options(), optionsFromBoard: state.optionsFromBoard };
    state.reading = null;
    state.readTokens = null;
    const otherSize = typed.length !== state.rows || (typed[0] || []).length !== state.cols;
    if (state.optionsFromBoard && otherSize) releaseOptionsFromBoard();
    // Another size, or fewer pieces and more than a slip of the keys changed: another game.
    const changed = otherSize || !state.cells ? Infinity
      : typed.reduce((n, line, r) => n + line.filter((t, c) => t !== state.cells[r][c]).length, 0);
    const fewer = pieceCount(typed) < pieceCount(state.cells || []);
    // (pieces are never moved: more than a slip's of them gone is another game, however many are added)
    const gone = otherSize || !state.cells ? Infinity : piecesGone(state.cells, typed).gone;
    if (otherSize || gone > TYPO_SQUARES || (fewer && (changed > TYPO_SQUARES || pieceCount(typed) === 0))) state.seats = [];
    return () => {
      ({ reading: state.reading, readTokens: state.readTokens, seats: state.seats, optionsFromBoard: state.optionsFromBoard } = before);
      setOptions(before.options);
    };
  }

  // A text edited from the board shown before taps changed it (a move tapped meanwhile): the
  // squares the text changed, put on the board as it stands now, so that the taps are kept;
  // null where the board is as the text started from, or the text is of another size or
  // another board (more squares changed than a few edits: one pasted over it).
  function mergeTextEdits(typed) {
    const base = state.textDirty && state.textBase, cells = state.cells;
    if (!base || !cells || !sameShape(base, typed) || !sameShape(base, cells) || boardText(base) === boardText()) return null;
    const edited = base.reduce((n, line, r) => n + line.filter((t, c) => typed[r][c] !== t).length, 0);
    if (edited > Math.max(TYPO_SQUARES, pieceCount(base) / 2)) return null;
    return typed.map((line, r) => line.map((t, c) => (t !== base[r][c] ? t : cells[r][c])));
  }

  // Whether every move of the game ``watched`` still holds its piece in the board ``typed`` (its
  // tokens, of the board's size).
  function movesStillIn(watched, typed) {
    return watched.squares.filter(Boolean).every((cell) => {
      const { col, row } = parseCell(cell);
      return typed[row][col] === tokenAt(cell);
    });
  }

  // --- wiring -----------------------------------------------------------------------------
  function newBoard() {
    const choice = $("#new-size").value;
    let rows, cols;
    if (choice === "custom") {
      rows = Number($("#new-rows").value);
      cols = Number($("#new-cols").value);
      if (![rows, cols].every((n) => Number.isInteger(n) && n >= 3 && n <= 12)) { // (3.5 is no board either)
        showMessage("A board has 3 to 12 rows and 3 to 12 columns, in whole numbers.");
        return;
      }
    }
    if (!confirmDroppingCorrections("A new empty board", "Start one?")) return;
    // (a board with nothing entered on it, a photo's as read, leaves the one put aside before: a second
    // tap on an empty board offers it again, and otherwise it stays one tap away by the board's title)
    const fresh = boardPutAside();
    const aside = fresh || (state.cells && !state.reading && !pieceCount(state.cells) ? state.putAside : null);
    state.putAside = fresh || state.putAside;
    let said = "";
    if (choice === "custom") {
      clearMessage();
      if (state.optionsFromBoard) releaseOptionsFromBoard(); // set for a listed board's game, not this one's
    } else {
      [rows, cols] = choice.split("x").map(Number);
      clearMessage();
      const opt = $("#new-size").selectedOptions[0];
      const before = JSON.stringify(options());
      $("#opt-players").value = opt.dataset.players;
      setStash(opt.dataset.threehouse === "1");
      if (JSON.stringify(options()) !== before) {
        state.optionsFromBoard = true;
        said = `Game options set for this board: ${opt.dataset.players} players, ${nameOfStash(opt.dataset.threehouse === "1")} stash `
          + "(for this board only: the next photo is read with players and stash on auto again).";
      }
    }
    if (said) showMessage(said, "info");
    dropUpload();
    state.seats = []; // another game
    state.newSizeFollowed = JSON.stringify([rows, cols]); // its size, as chosen: not picked again when it is scored
    const line = Array(cols).fill(".").join(" ");
    const text = Array(rows).fill(line).join("\n") + "\n";
    state.reading = null;
    state.readTokens = null;
    showPhotoPane(false);
    setBoardFromText(text); // shown now: a scoring that fails is tried again on this board
    renderDiagram();
    if (!state.textDirty) $("#board-text").value = text; // else the typed text stays, noted as not applied
    // under the board, as long as it stays the new one (a scoring that fails, an option changed, aside)
    if (aside) {
      showAsideNote(aside, "new");
      save();
    }
    analyse(text, { scroll: true, quiet: true });
  }

  // A board played or typed here (not a photo's as read: reading it again brings that back), with
  // its game, put aside by "New empty board" or a new photo until the next change, one tap from coming back.
  // ``entered``: a photo's board too where the player changed it (corrections, moves since, moves seen on photos since),
  // with its reading (its marks and corrections) and, until the page reloads, its photo.
  function boardPutAside({ entered = false } = {}) {
    const watched = state.cells && watchOf(boardText()), moves = watched && watched.squares.some(Boolean);
    const changed = !state.reading || (entered && (correctionCount() || placedSinceCount() || moves));
    const pieces = state.cells && changed ? pieceCount(state.cells) : 0;
    const before = state.released && state.released.before; // released for the photo being read: this board's
    const opts = before ? optionsBeforeRelease(before) : options();
    const flags = before || state;
    const reading = state.reading && state.readTokens
      ? { reading: state.reading, readTokens: state.readTokens, photo: shownPhoto() } : {};
    return pieces ? { pieces, text: boardText(), seats: state.seats, seatsWatched: state.seatsWatched,
      watched: state.watched, options: opts, optionsFromBoard: flags.optionsFromBoard, stashFromCheck: flags.stashFromCheck,
      ...reading } : null;
  }

  // The photo of the reading shown, as its board put aside keeps it in memory (a reload lets it
  // go): the file read again by "read again", its marks, the overlay drawn; null where not shown.
  function shownPhoto() {
    const file = state.reading && state.reading.file;
    if (!(file instanceof Blob) || $("#photo-pane").hidden) return null;
    return { file, marked: state.reading.marked || null, overlay: $("#overlay").src, shown: state.photo };
  }

  // The board last put aside back (its note's button, or the link by the board's title while the
  // note is gone: a walkthrough lost three moves and two corrections to the first square changed
  // on the new board), and the board shown, where anything was entered on it, put aside in its place.
  function putLastBoardBack() {
    const aside = state.putAside;
    if (!aside) return;
    const shown = boardPutAside({ entered: true });
    putBoardBack(aside);
    if (shown) {
      state.putAside = shown;
      save();
      showAsideNote(shown, "back");
    }
  }

  // The link by the board's title to the board put aside, while one is and its note is not shown.
  function renderPutBack() {
    const link = $("#put-back"), note = state.boardNote;
    const noted = !$("#board-note").hidden && note && note.action && note.action.kind === "put_back";
    keepFocusWithin(link, () => { link.hidden = !state.putAside || noted; });
    if (state.putAside) link.textContent = `last board back (${counted(state.putAside.pieces, "piece")}) \u21a9`;
  }

  function putBoardBack(aside) {
    dropUpload();
    state.putAside = null;
    if (aside.reading) { // a photo's board: its reading back, and its photo unless the page reloaded since
      const photo = aside.photo;
      state.reading = aside.reading;
      state.readTokens = aside.readTokens;
      [state.lastPhoto, state.lastMarked] = photo ? [photo.file, photo.marked] : [null, null];
      $("#overlay").src = photo ? photo.overlay : "";
      showPhotoPane(!!photo);
      state.photo = photo ? photo.shown : null;
      $("#read-again").hidden = $("#mark-open").hidden = !photo;
      renderWarnings();
    } else if (state.reading) { // the photo shown is not this board's
      state.reading = null;
      state.readTokens = null;
      state.lastPhoto = state.lastMarked = null;
      showPhotoPane(false);
      renderWarnings();
    }
    setOptions(aside.options);
    ({ seats: state.seats, seatsWatched: state.seatsWatched, watched: state.watched,
      optionsFromBoard: state.optionsFromBoard, stashFromCheck: state.stashFromCheck } = aside);
    clearMessage();
    setBoardFromText(aside.text);
    renderDiagram();
    if (!state.textDirty) $("#board-text").value = aside.text; // else the typed text stays, noted as not applied
    analyse(aside.text, { scroll: true, quiet: true }).then((ok) => {
      if (ok && state.reading) showReadingMessage({ restored: !state.lastPhoto }); // what is still to check on it
    });
  }

  function wire() {
    for (const id of ["#camera-input", "#file-input"]) {
      $(id).addEventListener("change", (e) => {
        const file = e.target.files && e.target.files[0];
        e.target.value = "";
        uploadPhoto(file);
      });
    }
    const zone = $("#dropzone");
    ["dragenter", "dragover"].forEach((t) => zone.addEventListener(t, (e) => { e.preventDefault(); zone.classList.add("dragging"); }));
    ["dragleave", "drop"].forEach((t) => zone.addEventListener(t, (e) => { e.preventDefault(); zone.classList.remove("dragging"); }));
    zone.addEventListener("drop", (e) => uploadPhoto(e.dataTransfer.files && e.dataTransfer.files[0]));
    // A photo dropped anywhere else must not make the browser leave the page.
    window.addEventListener("dragover", (e) => e.preventDefault());
    window.addEventListener("drop", (e) => e.preventDefault());

    $("#turn-board").addEventListener("click", () => turnBoard(1));
    $("#put-back").addEventListener("click", putLastBoardBack);
    $("#place-parks").addEventListener("click", () => { if (state.check && state.check.usual_parks) placeParks(state.check.usual_parks); });
    $("#summary-more").addEventListener("click", () => goTo($("#score")));
    $("#summary-moves").addEventListener("click", () => goTo($("#midgame")));
    $("#summary-rules").addEventListener("click", () => goTo($("#legality")));
    $("#lit-on-board").addEventListener("click", () => {
      $("#lit-on-board").hidden = true;
      showOnBoard(".sq.hl"); // (a square itself)
    });
    // scrolled up to the lit squares by hand: no need of the way there
    window.addEventListener("scroll", () => { if (!$("#lit-on-board").hidden && !litOutOfSight()) $("#lit-on-board").hidden = true; },
      { passive: true });
    $("#read-again").addEventListener("click", () => { if (confirmDroppingCorrections()) readAgain(); });
    $("#mark-open").addEventListener("click", () => markShownPhoto());
    $("#mark-photo").addEventListener("click", clickToPlace);
    $("#mark-photo").addEventListener("pointerdown", pressToPlace);
    $("#mark-photo").addEventListener("contextmenu", (e) => e.preventDefault()); // a long press places, not saves
    $("#mark-wrap").addEventListener("keydown", markKey);
    $("#mark-wrap").addEventListener("focus", () => {
      if (state.mark && !state.markCursor) state.markCursor = state.mark.size.map((v) => v / 2);
      renderMarking();
    });
    $("#mark-wrap").addEventListener("blur", () => { state.keyMark = null; $("#mark-loupe").hidden = true; renderMarking(); });
    $("#mark-dots").addEventListener("pointerdown", startDrag);
    $("#mark-wrap").addEventListener("pointermove", moveDrag);
    ["pointerup", "pointercancel"].forEach((t) => $("#mark-wrap").addEventListener(t, endDrag));
    $("#mark-squares").addEventListener("change", renderMarking);
    $("#mark-undo").addEventListener("click", () => {
      endDrag();
      state.marks.pop();
      renderMarking();
      // none left to undo: on to the card's title (a key pressed again there places nothing), the photo next but one
      if ($("#mark-undo").disabled) focusOn($("#mark-title"));
    });
    $("#mark-cancel").addEventListener("click", cancelMarking);
    $("#mark-card").addEventListener("keydown", (e) => { // (the photo's own Escape lets go of a corner picked up)
      if (e.key === "Escape" && !e.defaultPrevented) cancelMarking();
    });
    $("#mark-read").addEventListener("click", readMarked);
    $("#options").addEventListener("change", (e) => {
      if (e.target.matches('#opt-players, input[name="stash"]')) state.optionsFromBoard = false; // the player's own choice now
      if (e.target.matches('input[name="stash"]')) state.stashFromCheck = false;
      syncOptionsShown();
      save();
      rescore();
    });
    $("#new-size").addEventListener("change", () => { $("#custom-size").hidden = $("#new-size").value !== "custom"; save(); });
    for (const input of [$("#new-rows"), $("#new-cols")]) input.addEventListener("input", save);
    $("#new-board").addEventListener("click", newBoard);
    $("#board-text").addEventListener("input", () => {
      if (!state.textDirty) state.textBase = state.cells && state.cells.map((line) => line.slice()); // the board the text showed
      state.textDirty = true;
      save();
    });
    $("#apply-text").addEventListener("click", () => {
      let text = $("#board-text").value;
      if (!text.trim()) {
        textStatus(""); // an earlier text's reason no longer applies
        showMessage("Type or paste a board first, or make a new empty board.");
        return;
      }
      let typed = tokensFromText(text);
      const read = state.readTokens;
      const wellFormed = typed.every((line) => line.length === typed[0].length
        && line.every((t) => t === "." || t === "#" || isPyramid(t)));
      const merged = wellFormed && mergeTextEdits(typed);
      if (merged) {
        typed = merged;
        text = boardText(merged);
        $("#board-text").value = text;
      }
      const sameSize = wellFormed && state.cells && typed.length === state.rows && typed[0].length === state.cols;
      const changed = sameSize
        ? typed.flatMap((line, r) => line.map((t, c) => [cellName(c, r), t]).filter(([, t], c) => t !== state.cells[r][c])) : [];
      // one square typed otherwise: as if tapped and picked (a move, its rules and turn said, or a
      // correction), the text then written as the board's (a text with comments is kept as typed)
      if (changed.length === 1 && !text.includes(";")) {
        dropUpload({ sameGame: true });
        inTurn(...changed[0], () => {
          state.textDirty = false;
          textStatus("");
          put(...changed[0]);
        });
        return;
      }
      state.boardGen += 1; // the board typed replaces the one a tap still waiting was made on (its text's base forgotten once taken)
      const asRead = read && sameShape(typed, read);
      // The photo's board corrected, or another board of its size: most of the pyramids read still there.
      const kept = asRead ? typed.reduce((n, line, r) => n + line.filter((t, c) => t.length === 2 && t === readNowAt(cellName(c, r))).length, 0) : 0;
      if (state.reading && asRead && kept * 2 >= pieceCount(read)) {
        // The read board corrected as text: the reading stays, each square changed counting as a
        // correction, and the board is checked as the picker's corrections are (the photo's stash);
        // the game watched goes on where its moves are still there.
        const watching = watchOf(boardText());
        if (watching && movesStillIn(watching, typed)) {
          state.watched = { ...watching, board: boardText(typed) };
        }
        analyse(text, { fromText: true, scroll: true }).then((ok) => {
          if (!ok && watching) state.watched = watching; // the board not taken: the watch stays on it
          if (ok) dropUpload({ sameGame: true });
          if (ok && !showReadingMessage()) clearMessage();
        });
        return;
      }
      // Another board: the photo's reading goes, and the player's corrections to it with it (not
      // asked of a text that will not parse, which changes nothing).
      if (state.reading && wellFormed && !confirmDroppingCorrections("Scoring another board", "Score it?")) return;
      const putBack = takeAsAnotherBoard(typed);
      // the game watched goes on where its moves are still there, else a game goes on from this board
      const watching = state.cells && watchOf(boardText());
      if (wellFormed) {
        state.watched = watching && sameSize && movesStillIn(watching, typed)
          ? { ...watching, board: boardText(typed) } : { order: [], squares: [], board: boardText(typed) };
      }
      analyse(text, { fromText: true, scroll: true }).then((ok) => {
        if (ok) {
          dropUpload(); // taken: a photo still being read would replace it (a text that does not parse keeps it)
          showPhotoPane(false);
          renderDiagram(); // without the photo's marks
        } else if (ok === false && !state.reading) {
          putBack(); // a text that does not parse changes nothing
          state.watched = watching;
        }
      });
    });

    $("#diagram").addEventListener("click", (e) => {
      const g = e.target.closest(".sq");
      if (g) tapSquare(g.dataset.cell);
    });
    $("#photo-marks").addEventListener("click", (e) => {
      const square = e.target.closest(".ps");
      if (square) tapSquare(square.dataset.cell);
    });
    $("#diagram").addEventListener("keydown", (e) => {
      const g = e.target.closest(".sq");
      if (!g) return;
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); tapSquare(g.dataset.cell); }
      const step = ARROW_STEPS[e.key];
      if (step) {
        e.preventDefault();
        const { col, row } = parseCell(g.dataset.cell);
        const [c, r] = [col + step[0], row + step[1]];
        if (c >= 0 && c < state.cols && r >= 0 && r < state.rows) $(`#diagram .sq[data-cell="${cellName(c, r)}"]`).focus();
      }
    });
    $("#diagram").addEventListener("focusin", (e) => {
      const g = e.target.closest(".sq");
      if (g) makeTabStop(g); // by arrow key, tap, Tab or a check answered
    });
    $("#picker").addEventListener("keydown", pickerArrow);
    $("#picker").addEventListener("click", (e) => {
      const b = e.target.closest(".choice");
      if (b) choose(b.dataset.value);
      else if (e.target === $("#picker")) closePicker(); // a tap on the backdrop
    });
    $("#picker-more").addEventListener("click", () => {
      $("#picker-colours").classList.add("all");
      $("#picker-more").hidden = true; // the keyboard goes on to the first colour it brought
      renderBarredKey(); // the rules its pieces would break too
      const shown = $("#picker-colours .picker-colour.hidden-colour .choice");
      if (shown) shown.focus();
    });

    $("#undo-move").addEventListener("click", () => {
      const last = lastPlacedMove();
      if (!last) return;
      setSquare(last.name, ".");
      // said: the button stays, offering the move before it (only the scoring's status changed)
      announce(`The ${describe(last.value)} on ${last.name} is taken back.`);
    });
    $("#skip-to-board").addEventListener("click", (e) => {
      e.preventDefault();
      const square = $('#diagram .sq[tabindex="0"]');
      bringIntoView($("#board-pane"), "start");
      if (square) square.focus({ preventScroll: true });
    });
    $("#move-colour").addEventListener("change", (e) => { state.moveColour = e.target.value; renderMidgame(); renderDiagram(); save(); });
    for (const b of $$(".size-buttons .size")) {
      b.addEventListener("click", () => {
        state.movePips = Number(b.dataset.pips);
        renderMidgame();
        renderDiagram();
        save();
      });
    }
  }

  // The second click of a double click that lands on another control than the first (the first
  // hid a box or closed a menu, and the page moved under the pointer) is dropped: it was not aimed.
  let firstClick = null;
  document.addEventListener("click", (event) => {
    if (event.detail <= 1) { firstClick = event.target; return; }
    if (firstClick && firstClick !== event.target && !(firstClick instanceof Node && firstClick.contains(event.target))) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }, true);

  for (const verb of $$(".tap-verb")) verb.textContent = tapWord(verb.textContent);
  syncOptionsShown();
  wire();
  if ("scrollRestoration" in history) history.scrollRestoration = "manual"; // returnToPlace instead
  window.addEventListener("pagehide", () => { leavingPage = true; rememberPlace(); });
  window.addEventListener("pageshow", (e) => { if (e.persisted) leavingPage = false; }); // back from the browser's cache
  // (a phone's browser may discard a page in the background without a pagehide)
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "hidden") rememberPlace(); });
  restore();
})();
