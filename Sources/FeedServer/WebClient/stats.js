// Reel's viewer stats page (/stats): one video's figures from GET /v1/videos/{id}/stats, its retention curve and its
// startup histogram drawn as SVG. The videos to choose from are the feed's first pages; ?video=ID picks one.
"use strict";

(() => {
  const svgNS = "http://www.w3.org/2000/svg";
  const pick = document.getElementById("stats-video");
  const statusElement = document.getElementById("stats-status");
  const figuresElement = document.getElementById("stats-figures");
  const retentionElement = document.getElementById("stats-retention");
  const startupElement = document.getElementById("stats-startup");
  const state = { videos: [], video: null, stats: null, rendered: 0, errors: [] };
  const pagesToList = 4;   // up to 200 videos, newest first
  const retryAttempts = 4;

  async function fetchJSON(url) {
    let delay = 500;
    for (let attempt = 1; ; attempt += 1) {
      let message;
      try {
        const response = await fetch(url, { headers: { Accept: "application/json" } });
        if (response.ok) return await response.json();
        const body = await response.json().catch(() => ({}));
        message = `${url} answered ${response.status}${body.error ? ": " + body.error.message : ""}`;
        if (response.status < 500 && response.status !== 429) throw Object.assign(new Error(message), { final: true });
      } catch (error) {
        if (error.final) throw error;
        message = message || `${url}: ${error.message}`;
      }
      if (attempt >= retryAttempts) throw new Error(message);
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay *= 2;
    }
  }

  function showStatus(text) {
    statusElement.textContent = text;
  }

  function element(name, attributes = {}, text) {
    const node = document.createElementNS(svgNS, name);
    for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function chart(width, height, label) {
    const svg = element("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": label });
    svg.appendChild(element("title", {}, label));
    return svg;
  }

  const percent = (value) => `${(value * 100).toFixed(value < 0.1 && value > 0 ? 1 : 0)} %`;

  function renderFigures(stats) {
    const rows = [
      ["Views", String(stats.views)],
      ["Sessions", String(stats.sessions)],
      ["Startup p50", stats.startup_median_ms === undefined ? "–" : `${stats.startup_median_ms} ms`],
      ["Startup p90", stats.startup_p90_ms === undefined ? "–" : `${stats.startup_p90_ms} ms`],
      ["Rebuffering", percent(stats.rebuffer_ratio)],
      ["Watched", percent(stats.mean_watched_fraction)],
      ["Completed", percent(stats.completion_rate)],
      ["Per view", `${(stats.bytes_per_view / 1000).toFixed(0)} KB`],
    ];
    figuresElement.replaceChildren(...rows.map(([name, value]) => {
      const box = document.createElement("div");
      const term = document.createElement("dt");
      term.textContent = name;
      const detail = document.createElement("dd");
      detail.textContent = value;
      box.append(term, detail);
      return box;
    }));
  }

  // The share still watching (0-1) at each second: a step curve, as the roll-up counts whole seconds.
  function renderRetention(retention) {
    const width = 640, height = 260, left = 48, right = 16, top = 14, bottom = 34;
    const plotWidth = width - left - right, plotHeight = height - top - bottom;
    const seconds = Math.max(1, retention.length - 1);
    const x = (second) => left + (second / seconds) * plotWidth;
    const y = (share) => top + (1 - share) * plotHeight;
    const last = retention.length ? retention[retention.length - 1] : 0;
    const svg = chart(width, height, retention.length
      ? `Retention over ${seconds} s: ${percent(last)} of views still watching at the end`
      : "Retention: no views yet");
    for (const share of [0, 0.25, 0.5, 0.75, 1]) {
      svg.appendChild(element("line", { class: "grid", x1: left, x2: width - right, y1: y(share), y2: y(share) }));
      svg.appendChild(element("text", { class: "label", x: left - 6, y: y(share) + 4, "text-anchor": "end" },
        `${share * 100}%`));
    }
    const step = seconds <= 15 ? 1 : seconds <= 30 ? 5 : 10;
    for (let second = 0; second <= seconds; second += step) {
      svg.appendChild(element("text", { class: "label", x: x(second), y: height - bottom + 18, "text-anchor": "middle" },
        `${second} s`));
    }
    svg.appendChild(element("line", { class: "axis", x1: left, x2: left, y1: top, y2: top + plotHeight }));
    svg.appendChild(element("line", { class: "axis", x1: left, x2: width - right, y1: top + plotHeight, y2: top + plotHeight }));
    if (retention.length) {
      const points = [];
      retention.forEach((share, second) => {
        if (second > 0) points.push(`${x(second).toFixed(1)},${y(retention[second - 1]).toFixed(1)}`);
        points.push(`${x(second).toFixed(1)},${y(share).toFixed(1)}`);
      });
      const base = `${x(retention.length - 1).toFixed(1)},${y(0)} ${x(0).toFixed(1)},${y(0)}`;
      svg.appendChild(element("polygon", { class: "area", points: points.join(" ") + " " + base }));
      svg.appendChild(element("polyline", { class: "curve", points: points.join(" "), "data-seconds": retention.length }));
    }
    retentionElement.replaceChildren(svg);
  }

  function bucketName(bucket) {
    const unit = (ms) => (ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`);
    if (bucket.to_ms === undefined) return `≥ ${unit(bucket.from_ms)}`;
    if (bucket.from_ms === 0) return `< ${unit(bucket.to_ms)}`;
    return `${unit(bucket.from_ms)}–${unit(bucket.to_ms)}`;
  }

  function renderStartup(histogram) {
    const width = 640, height = 240, left = 16, right = 16, top = 22, bottom = 34;
    const plotWidth = width - left - right, plotHeight = height - top - bottom;
    const most = Math.max(1, ...histogram.map((bucket) => bucket.views));
    const total = histogram.reduce((sum, bucket) => sum + bucket.views, 0);
    const svg = chart(width, height, total
      ? `Startup histogram of ${total} views: ` + histogram.map((b) => `${bucketName(b)} ${b.views}`).join(", ")
      : "Startup histogram: no views yet");
    const slot = plotWidth / Math.max(1, histogram.length);
    histogram.forEach((bucket, index) => {
      const barHeight = (bucket.views / most) * plotHeight;
      const x = left + index * slot + slot * 0.12;
      svg.appendChild(element("rect", {
        class: "bar", x: x.toFixed(1), y: (top + plotHeight - barHeight).toFixed(1), width: (slot * 0.76).toFixed(1),
        height: barHeight.toFixed(1), "data-views": bucket.views,
      }));
      svg.appendChild(element("text", { class: "count", x: (x + slot * 0.38).toFixed(1),
        y: (top + plotHeight - barHeight - 6).toFixed(1), "text-anchor": "middle" }, String(bucket.views)));
      svg.appendChild(element("text", { class: "label", x: (left + index * slot + slot / 2).toFixed(1),
        y: height - bottom + 18, "text-anchor": "middle" }, bucketName(bucket)));
    });
    svg.appendChild(element("line", { class: "axis", x1: left, x2: width - right, y1: top + plotHeight, y2: top + plotHeight }));
    startupElement.replaceChildren(svg);
  }

  async function show(video) {
    state.video = video;
    showStatus("Loading…");
    try {
      const stats = await fetchJSON(`/v1/videos/${encodeURIComponent(video)}/stats`);
      state.stats = stats;
      renderFigures(stats);
      renderRetention(stats.retention);
      renderStartup(stats.startup_histogram);
      showStatus(stats.views ? "" : "No views yet: the figures fill in once viewers watch it (they are rolled up every minute).");
      state.rendered += 1;
    } catch (error) {
      state.errors.push(error.message);
      showStatus(`The figures did not load: ${error.message}`);
    }
  }

  async function listVideos() {
    let cursor = null;
    for (let page = 0; page < pagesToList; page += 1) {
      const url = "/v1/feed?limit=50" + (cursor ? `&cursor=${encodeURIComponent(cursor)}` : "");
      const body = await fetchJSON(url);
      state.videos.push(...body.items);
      cursor = body.next_cursor;
      if (!cursor) break;
    }
  }

  async function start() {
    window.reelStats = { state };
    const wanted = new URLSearchParams(location.search).get("video");
    try {
      await listVideos();
    } catch (error) {
      state.errors.push(error.message);
      showStatus(`The feed did not load: ${error.message}`);
      return;
    }
    const ids = state.videos.map((item) => item.id);
    if (wanted && !ids.includes(wanted)) ids.unshift(wanted);  // an older video, named in the address
    if (ids.length === 0) {
      showStatus("No videos are published yet.");
      return;
    }
    pick.replaceChildren(...ids.map((id, index) => {
      const option = document.createElement("option");
      const item = state.videos.find((candidate) => candidate.id === id);
      option.value = id;
      option.textContent = item ? `${index + 1}. ${id} · ${Math.round(item.duration_s)} s` : id;
      return option;
    }));
    pick.value = wanted || ids[0];
    pick.addEventListener("change", () => {
      history.replaceState(null, "", `?video=${encodeURIComponent(pick.value)}`);
      show(pick.value);
    });
    await show(pick.value);
  }

  start();
})();
