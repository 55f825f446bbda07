// The booklet on a phone (screen.html): the cover when the address names no part, and the
// tapes' crossed boxes and the log kept in this browser, under this booklet's own key.
(function () {
  "use strict";
  var key = document.body.getAttribute("data-store");
  var state = load();
  var crossed = new Set(state.crossed);

  function load() {
    try {
      var saved = JSON.parse(window.localStorage.getItem(key));
      if (saved && Array.isArray(saved.crossed)) {
        return saved;
      }
    } catch (e) {
      // No storage (a private window) or a garbled entry: start with no box crossed.
    }
    return { crossed: [], log: "" };
  }

  function save() {
    state.crossed = Array.from(crossed).sort();
    try {
      window.localStorage.setItem(key, JSON.stringify(state));
    } catch (e) {
      // No storage: the marks last while the page is open.
    }
  }

  document.querySelectorAll("button.tape-box").forEach(function (box) {
    box.setAttribute("aria-pressed", String(crossed.has(box.dataset.key)));
  });

  document.addEventListener("click", function (event) {
    var box = event.target.closest("button.tape-box");
    if (!box) {
      return;
    }
    var on = box.getAttribute("aria-pressed") !== "true";
    box.setAttribute("aria-pressed", String(on));
    if (on) {
      crossed.add(box.dataset.key);
    } else {
      crossed.delete(box.dataset.key);
    }
    save();
  });

  var log = document.getElementById("log-text");
  log.value = state.log || "";
  log.addEventListener("input", function () {
    state.log = log.value;
    save();
  });

  // Only the part the address names is shown (screen.css): with none, the cover.
  if (!window.location.hash) {
    window.location.replace("#cover");
  }
})();
