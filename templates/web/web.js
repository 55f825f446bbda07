// The pages of `towerpress serve`: an option changed renders again (the server checks it, as
// the command line does), a render in the queue is followed until it is done, and a seed can
// be rolled. Plain JavaScript, this file only; every page works without it too.
"use strict";

const POLL_MS = 400;

function follow(result, url) {
  const error = result.querySelector(".error");
  const progress = result.querySelector(".progress");
  const text = result.querySelector(".progress-text");
  const done = result.querySelector(".done");
  const token = (result.dataset.token = String(Math.random()));
  async function step() {
    if (result.dataset.token !== token) return; // a newer render took over
    const response = await fetch(url, { headers: { Accept: "application/json" } });
    const job = await response.json();
    if (result.dataset.token !== token) return;
    result.dataset.state = job.state;
    error.hidden = job.state !== "failed";
    progress.hidden = job.state === "done" || job.state === "failed";
    if (job.state === "failed") {
      error.textContent = job.error;
      done.replaceChildren();
    } else if (job.state === "done") {
      done.innerHTML = job.html;
    } else {
      text.textContent = job.state === "queued"
        ? `Waiting: ${job.ahead} ${job.ahead === 1 ? "render" : "renders"} ahead`
        : `Rendering… ${Math.round(job.seconds)} s`;
      setTimeout(step, POLL_MS);
    }
  }
  step();
}

function query(form) {
  const params = new URLSearchParams();
  for (const [name, value] of new FormData(form)) params.set(name, value);
  return params.toString();
}

async function rerender(form, result) {
  const q = query(form);
  history.replaceState(null, "", `${form.action}?${q}`);
  result.querySelector(".done").replaceChildren();
  result.querySelector(".progress").hidden = false;
  const response = await fetch(`${form.dataset.render}?${q}`);
  const job = await response.json();
  if (job.url) follow(result, job.url);
  else {
    result.dataset.state = "failed";
    result.querySelector(".progress").hidden = true;
    const error = result.querySelector(".error");
    error.textContent = job.error;
    error.hidden = false;
  }
}

document.addEventListener("DOMContentLoaded", () => {
  const result = document.querySelector(".result");
  if (result && result.dataset.job && !["done", "failed"].includes(result.dataset.state)) {
    follow(result, `/jobs/${result.dataset.job}`);
  }
  const form = document.querySelector("form.options");
  if (!form) return;
  form.addEventListener("change", (event) => {
    if (event.target.hasAttribute("data-reload")) form.submit(); // other options apply
    else rerender(form, result);
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    rerender(form, result);
  });
  for (const button of form.querySelectorAll("[data-roll]")) {
    button.addEventListener("click", () => {
      const input = form.elements[button.dataset.roll];
      input.value = String(1 + (crypto.getRandomValues(new Uint32Array(1))[0] % 999999));
      rerender(form, result);
    });
  }
});
