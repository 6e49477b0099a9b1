// Reel's upload form: a video or photo goes up over tus 1.0.0 with plain fetch (POST, then PATCH in chunks,
// resuming from the server's offset after a network error), then its job is polled until it is published.
"use strict";

(() => {
  const MB = 1000 * 1000;
  const limits = { video: 50 * MB, image: 20 * MB };  // the product's limits; the server checks them too
  const chunkBytes = 2 * MB;
  const retryBaseMilliseconds = 500;
  const retryAttempts = 8;

  const dialog = document.getElementById("upload");
  const form = document.getElementById("upload-form");
  const tokenInput = document.getElementById("upload-token");
  const fileInput = document.getElementById("upload-file");
  const captionInput = document.getElementById("upload-caption");
  const visibilityInput = document.getElementById("upload-visibility");
  const progress = document.getElementById("upload-progress");
  const statusLine = document.getElementById("upload-status");
  const sendButton = document.getElementById("upload-send");
  const reloadButton = document.getElementById("upload-reload");
  const state = { phase: "idle", offset: 0, size: 0, job: null, jobState: null, error: null };
  window.reelUpload = { state };

  document.getElementById("upload-open").addEventListener("click", () => {
    tokenInput.value = sessionStorage.getItem("reel-upload-token") || tokenInput.value;
    dialog.showModal();
  });
  document.getElementById("upload-close").addEventListener("click", () => dialog.close());
  reloadButton.addEventListener("click", () => location.reload());

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const file = fileInput.files[0];
    const token = tokenInput.value.trim();
    if (!file || !token) return;
    sessionStorage.setItem("reel-upload-token", token);
    sendButton.disabled = true;
    reloadButton.hidden = true;
    Object.assign(state, {
      phase: "uploading", offset: 0, size: file.size, job: null, jobState: null, error: null, uploadedAt: null,
      playableAt: null, publishedAt: null,
    });
    try {
      const job = await upload(file, token, captionInput.value.trim(), visibilityInput.value);
      state.job = job;
      state.phase = "processing";
      await follow(job, file.name);
    } catch (error) {
      state.phase = "failed";
      state.error = error.message;
      show(error.message);
    } finally {
      sendButton.disabled = false;
    }
  });

  function show(text, percent) {
    statusLine.textContent = text;
    progress.hidden = percent === undefined;
    if (percent !== undefined) progress.value = percent;
  }

  function base64(text) {
    let binary = "";
    for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
    return btoa(binary);
  }

  function megabytes(bytes) {
    return `${(bytes / MB).toFixed(1)} MB`;
  }

  const sleep = (milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds));

  /// An error the server answered on purpose (4xx other than 409 and 429): retrying cannot help.
  class Refusal extends Error {}

  async function refusal(response, what) {
    const body = await response.json().catch(() => ({}));
    const detail = body.error ? `${body.error.message} (${body.error.code})` : `HTTP ${response.status}`;
    return new Refusal(`${what}: ${detail}`);
  }

  /// fetch with exponential backoff on network errors, 5xx and 429 (honouring Retry-After); 4xx answers return.
  async function send(url, options, what) {
    let delay = retryBaseMilliseconds;
    for (let attempt = 1; ; attempt += 1) {
      let response = null;
      try {
        response = await fetch(url, options);
        if (response.status < 500 && response.status !== 429) return response;
      } catch (error) {
        if (attempt >= retryAttempts) throw new Error(`${what}: the server cannot be reached (${error.message})`);
      }
      if (response && attempt >= retryAttempts) throw await refusal(response, what);
      const retryAfter = response ? Number(response.headers.get("Retry-After")) : 0;
      const wait = Math.max(delay, retryAfter > 0 ? retryAfter * 1000 : 0);
      show(`${what}: trying again in ${(wait / 1000).toFixed(1)} s`, state.size ? (100 * state.offset) / state.size : undefined);
      await sleep(wait);
      delay *= 2;
    }
  }

  async function upload(file, token, caption, visibility) {
    const kind = file.type.startsWith("image/") ? "image" : "video";
    if (file.size === 0) throw new Refusal(`${file.name} is empty`);
    if (file.size > limits[kind]) {
      throw new Refusal(`${file.name} is ${megabytes(file.size)}; ${kind}s are limited to ${limits[kind] / MB} MB`);
    }
    const tus = { "Tus-Resumable": "1.0.0", Authorization: `Bearer ${token}` };
    let metadata = `filename ${base64(file.name)},filetype ${base64(file.type || "application/octet-stream")}`;
    // The creator is the token's name; the server checks the caption's limits and names what it refuses.
    if (caption !== "") metadata += `,caption ${base64(caption)}`;
    if (visibility !== "public") metadata += `,visibility ${base64(visibility)}`;
    const created = await send("/v1/uploads", {
      method: "POST", headers: { ...tus, "Upload-Length": String(file.size), "Upload-Metadata": metadata },
    }, "starting the upload");
    if (created.status !== 201) throw await refusal(created, "starting the upload");
    const location = created.headers.get("Location");
    let job = null;
    let failures = 0;
    while (state.offset < file.size) {
      show(`Uploading ${file.name}: ${megabytes(state.offset)} of ${megabytes(file.size)}`, (100 * state.offset) / file.size);
      const chunk = file.slice(state.offset, state.offset + chunkBytes);
      let response;
      try {
        response = await fetch(location, {
          method: "PATCH", body: chunk,
          headers: { ...tus, "Upload-Offset": String(state.offset), "Content-Type": "application/offset+octet-stream" },
        });
      } catch {
        response = null;  // the network dropped: ask the server where to resume
      }
      if (response && response.status === 204) {
        state.offset = Number(response.headers.get("Upload-Offset"));
        job = response.headers.get("Reel-Job") || job;
        failures = 0;
        continue;
      }
      if (response && response.status !== 409 && response.status !== 429 && response.status < 500) {
        throw await refusal(response, `uploading ${file.name}`);
      }
      failures += 1;
      if (failures > retryAttempts) throw new Error(`uploading ${file.name}: gave up after ${retryAttempts} tries`);
      await sleep(retryBaseMilliseconds * 2 ** (failures - 1));
      const head = await send(location, { method: "HEAD", headers: tus }, "resuming the upload");
      if (head.status !== 200) throw await refusal(head, "resuming the upload");
      state.offset = Number(head.headers.get("Upload-Offset"));
      job = head.headers.get("Reel-Job") || job;
      if (job) break;
    }
    if (!job) throw new Error(`the server did not name a job for ${file.name}`);
    state.uploadedAt = performance.now();
    return job;
  }

  /// The post's feed item, shown first in the feed (app.js) as soon as it plays, then again with its ladder. Asked
  /// for with the upload's token: a private post's item answers only its uploader, with signed media URLs.
  async function showPost(id, update) {
    const token = sessionStorage.getItem("reel-upload-token") || "";
    const response = await send(`/v1/videos/${encodeURIComponent(id)}`,
      { headers: { Accept: "application/json", Authorization: `Bearer ${token}` } }, "loading the post");
    if (response.status !== 200) throw await refusal(response, "loading the post");
    const item = await response.json();
    if (!window.reel) return false;
    if (update) window.reel.updatePost(item);
    else window.reel.showPost(item);
    return true;
  }

  /// Polls the job until it is published, rejected or failed: every quarter second until the post plays (it is
  /// meant to within a second or two), then as the server's Retry-After says, backing off.
  async function follow(job, name) {
    let delay = 1000;
    const eager = performance.now() + 30000;
    for (;;) {
      const response = await send(job, { headers: { Accept: "application/json" } }, "checking the job");
      if (response.status !== 200) throw await refusal(response, "checking the job");
      const body = await response.json();
      state.jobState = body.state;
      if (body.state === "published") {
        const shown = body.kind === "video" && (await showPost(body.media_id, state.playableAt !== null));
        state.phase = "published";
        state.publishedAt = performance.now();
        const where = visibilityInput.value === "public" ? "it is first in the feed now"
          : "it is shown here first; it is in no feed";
        show(`${name} is published: ${where}.`, 100);
        reloadButton.hidden = shown;
        return;
      }
      if (body.kind !== "image" && body.media_id && state.playableAt === null && body.state === "processing") {
        // Playable (issue 64): the post is in the feed while its ladder is made.
        await showPost(body.media_id, false);
        state.phase = "playable";
        state.playableAt = performance.now();
        dialog.close();
      }
      if (body.state === "rejected" || body.state === "failed") {
        throw new Error(`${name} was ${body.state}: ${body.error || body.reason}`);
      }
      const playing = state.playableAt !== null ? ": playing in the feed while it is processed" : "";
      show(`${name}: ${body.state}, ${body.progress_percent}%${playing}`, body.progress_percent);
      if (state.playableAt === null && performance.now() < eager) {
        await sleep(250);
        continue;
      }
      const retryAfter = Number(response.headers.get("Retry-After"));
      await sleep(Math.max(retryAfter > 0 ? retryAfter * 1000 : 0, delay));
      delay = Math.min(delay * 2, 8000);
    }
  }
})();
