// Reel's feed client: a vertical feed over /v1/feed, played by a fixed pool of <video> elements.
// The model is PrefetchSim's phone client (ClientConfiguration), with the same parameter names: a pool of
// `players` (3-5), a prefetch window of `ahead` next and `behind` previous items, each neighbour buffered to about
// `neighbourBufferSeconds`, and the next page requested `pageTriggerDistance` items before the end.
"use strict";

(() => {
  const params = new URLSearchParams(location.search);

  function intParam(name, low, high, fallback) {
    const text = params.get(name);
    if (text === null) return fallback;
    const value = Number(text);
    if (!Number.isInteger(value) || value < low || value > high) {
      console.warn(`reel: ?${name}=${text} is not a whole number from ${low} to ${high}; using ${fallback}`);
      return fallback;
    }
    return value;
  }

  const config = Object.freeze({
    players: intParam("players", 3, 5, 3),
    ahead: 2,
    behind: 1,
    neighbourBufferSeconds: 3,
    currentBufferSeconds: 10,
    pageSize: intParam("pageSize", 1, 50, 10),
    pageTriggerDistance: 3,
    retryBaseMilliseconds: 500,
    retryAttempts: 6,
    debug: params.get("debug") === "1",
    // "aware", the default (prefetch.js): each neighbour's buffer from its retention curve, and each new player's
    // first rung from the measured throughput; in Chromium it fetched 0.79-0.96x the window's bytes with no worse
    // starts (docs/benchmarks.md). "window": every neighbour buffered to neighbourBufferSeconds at hls.js's own
    // starting rung. hls.js only: native HLS leaves buffering to the browser.
    prefetch: prefetchParam(),
  });

  function prefetchParam() {
    const text = params.get("prefetch");
    if (text === null || text === "window" || text === "aware") return text || "aware";
    console.warn(`reel: ?prefetch=${text} is not window or aware; using aware`);
    return "aware";
  }

  const feedElement = document.getElementById("feed");
  const poolElement = document.getElementById("pool");
  const statusElement = document.getElementById("status");
  const soundButton = document.getElementById("sound");
  const debugElement = document.getElementById("debug");
  const hlsJSURL = document.querySelector('meta[name="reel-hls-js-url"]').content;

  const state = {
    engine: "none",          // "native" | "hls.js" | "none"
    growingEngine: "none",   // the engine for a playable post's growing (EVENT) playlist
    items: [],               // feed items, in order
    sections: [],            // one <section> per item
    nextCursor: undefined,   // undefined: first page not loaded; null: the feed has no more pages
    pageInFlight: false,
    pageRequests: [],        // {page, current, loaded, at}
    current: -1,
    muted: true,
    players: [],
    playersCreated: 0,
    posterShownAt: {},       // item index -> ms since navigation start
    firstFrameAt: {},        // item index -> ms, the first frame presented while it was current
    becameCurrentAt: {},     // item index -> ms
    startups: [],            // ms from becoming current to the first frame, per item played
    stalls: 0,
    stallLog: [],            // the last stalls: where and on what (for the overlay and the tests)
    growingRetries: 0,       // native players attached again after a growing playlist failed
    handovers: 0,            // current posts moved to their ladder by a second player (handOver), not a reload
    lastHandover: null,      // how the last one ended, its target second, the old one's second, and when
    mediaBytes: 0,
    errors: [],
    view: null,              // the current item's view, for viewer events (see beginView)
    bytesSinceView: {},      // item index -> media bytes fetched for it since its last view ended
    mediaFolders: [],        // item index -> the absolute URL of its master playlist's folder
    ids: new Set(),          // the ids in `items`
    neighbourCaps: {},       // item index -> seconds to buffer it as a neighbour (aware; from its retention curve)
    throughput: [],          // bits/s of the last segment fetches (prefetch.js's addSample)
    capsAsked: new Set(),    // item indexes whose retention curve was asked for
  };

  // Viewer events (events.js): views, stalls, progress, segment fetches and errors, sent in the background.
  const events = window.ReelEvents ? new window.ReelEvents.Reporter({ beforeSend: beforeEventsSend }) : null;

  function emit(build) {
    if (events) events.record(build(window.ReelEvents.make));
  }

  // ---- the player pool: made once, at start-up ----

  function makePlayer(slot) {
    const video = document.createElement("video");
    state.playersCreated += 1;
    video.className = "player";
    video.muted = true;
    video.loop = true;
    video.playsInline = true;
    video.disablePictureInPicture = true;
    video.preload = "auto";
    video.setAttribute("aria-hidden", "true");
    video.dataset.slot = String(slot);
    poolElement.appendChild(video);
    // handover: while this player loads a post's ladder for another to hand over to (handOver), that post's index;
    // its `item` stays null until it takes over, so the pool and the stall count pass it by.
    const player = { slot, video, item: null, hls: null, waiting: false, loops: 0, lastTime: 0, handover: undefined };
    video.addEventListener("timeupdate", () => {
      if (video.currentTime + 1 < player.lastTime) player.loops += 1;  // back to the start: it looped
      player.lastTime = video.currentTime;
      if (player.item === state.current) countWatched(video);
    });
    video.addEventListener("loadeddata", () => {
      if (player.item !== null) video.classList.add("shown");
    });
    video.addEventListener("waiting", () => {
      player.waiting = true;
      if (player.item !== null && mayRetryGrowing(player, player.item)) {
        // Chromium's own player can stop for good at the end of the segments a growing playlist first listed: one
        // still waiting a second later is attached again from where it is, on the playlist as it is now.
        const index = player.item, retries = player.retries;
        setTimeout(() => {
          if (player.item === index && player.retries === retries && player.waiting) retryGrowing(player);
        }, 1000);
      }
      if (player.item === state.current && state.firstFrameAt[player.item] !== undefined && !video.seeking) {
        state.stalls += 1;
        state.stallLog = [...state.stallLog.slice(-9), {
          item: player.item, slot: player.slot, time: Number(video.currentTime.toFixed(2)),
          master: player.master, readyState: video.readyState, at: Math.round(performance.now()),
        }];
        const view = state.view;
        if (view && view.index === player.item && view.startupMs !== undefined && view.stalledSince === null) {
          view.stalledSince = performance.now();
        }
      }
    });
    video.addEventListener("playing", () => {
      player.waiting = false;
      if (player.item === state.current) endStall();
    });
    video.addEventListener("error", () => {
      if (player.item === null || !video.error) return;
      if (retryGrowing(player)) return;
      const message = `video ${state.items[player.item].id} cannot play: ${mediaErrorName(video.error.code)}` +
        (video.error.message ? ` (${video.error.message})` : "");
      recordError(message, state.items[player.item].id);
      state.sections[player.item].classList.add("failed");
      state.sections[player.item].querySelector(".note").textContent = "This video cannot play here.";
    });
    return player;
  }

  // Without hls.js, a playable post plays natively, where a growing playlist can fail while it is still short
  // (chooseGrowingEngine) or stop at the end of what it first listed: it is attached again from where it was, with
  // exponential back-off, before it counts as failed.
  function mayRetryGrowing(player, index) {
    return player.item === index && state.items[index].state === "playable" && player.engine === "native" &&
      player.retries < 4;
  }

  function retryGrowing(player) {
    const index = player.item;
    if (!mayRetryGrowing(player, index)) return false;
    const retries = player.retries + 1;
    const at = player.video.currentTime;
    state.growingRetries += 1;
    setTimeout(() => {
      if (player.item !== index) return;
      release(player);
      attach(player, index, at, retries);
      if (index === state.current) playCurrent(player);
    }, 250 * 2 ** (retries - 1));
    return true;
  }

  function mediaErrorName(code) {
    return ["", "aborted", "network error", "decode error", "format not supported"][code] || `error ${code}`;
  }

  function recordError(message, video) {
    state.errors.push(message);
    console.error("reel: " + message);
    emit((make) => make.error(message, video));
  }

  // Native HLS where the browser has it; else hls.js, if the operator offered it. `?engine=hls.js` prefers hls.js
  // (it keeps each neighbour's buffer to the window's few seconds, where a native player picks its own).
  function chooseEngine(probe) {
    const native = probe.canPlayType("application/vnd.apple.mpegurl") !== "";
    if (native && !(params.get("engine") === "hls.js" && hlsJSURL)) return Promise.resolve("native");
    return loadSupportedHlsJs().then((loaded) => (loaded ? "hls.js" : "none"));
  }

  function loadSupportedHlsJs() {
    if (!hlsJSURL) return Promise.resolve(false);
    return loadHlsJs(hlsJSURL).then((Hls) => {
      if (!Hls || !Hls.isSupported()) return false;
      window.Hls = Hls;
      return true;
    });
  }

  // A playable post's playlist grows (EVENT, no ENDLIST yet). Chromium's own HLS player takes that for a live
  // stream: it skips ahead by however long the player waited to start, and fails (DEMUXER_ERROR_COULD_NOT_PARSE)
  // when that passes the segments listed so far. hls.js starts such a playlist at its beginning, so a page playing
  // natively still loads hls.js, when offered, for these posts alone (docs/quirks.md).
  function chooseGrowingEngine() {
    if (state.engine !== "native") return Promise.resolve(state.engine);
    return loadSupportedHlsJs().then((loaded) => (loaded ? "hls.js" : "native"), () => "native");
  }

  function engineFor(item) {
    return item.state === "playable" ? state.growingEngine : state.engine;
  }

  // hls.js ships both as a classic script (window.Hls) and as an ES module (default export).
  function loadHlsJs(url) {
    if (/\.mjs(\?|$)/.test(url)) return import(url).then((module) => module.default);
    return new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = url;
      script.onload = () => resolve(window.Hls);
      script.onerror = () => reject(new Error(`hls.js did not load from ${url}`));
      document.head.appendChild(script);
    });
  }

  /// `startAt`: the second to start from (a post whose ladder replaced its provisional rendition mid-play).
  /// `retries`: how many times this post was attached again after its growing playlist failed (retryGrowing).
  function attach(player, index, startAt = 0, retries = 0) {
    const item = state.items[index];
    const video = player.video;
    player.item = index;
    player.master = item.master_url;
    player.viewerPaused = false;  // set by a tap (togglePause)
    player.retries = retries;
    player.waiting = false;
    player.loops = 0;
    player.lastTime = 0;
    video.classList.remove("shown");
    video.muted = state.muted;
    video.preload = "auto";
    state.sections[index].querySelector(".stage").appendChild(video);
    video.setAttribute("aria-hidden", "false");
    player.engine = engineFor(item);
    if (player.engine === "hls.js") {
      const isCurrent = index === state.current;
      const buffer = isCurrent ? config.currentBufferSeconds : neighbourBufferSeconds(index);
      // A playable post's provisional playlist may still grow (EVENT): it starts at the beginning, not at its live
      // edge.
      const options = { maxBufferLength: buffer, maxMaxBufferLength: buffer, startLevel: -1, startPosition: startAt };
      const measured = config.prefetch === "aware" ? window.ReelPrefetch.harmonicMean(state.throughput) : 0;
      // hls.js's ABR then starts from this link's throughput instead of its 500 kbit/s guess.
      if (measured > 0) options.abrEwmaDefaultEstimate = measured;
      player.hls = new window.Hls(options);
      if (measured > 0) {
        player.hls.on(window.Hls.Events.MANIFEST_PARSED, (_, data) => {
          const level = window.ReelPrefetch.startLevel(data.levels, measured);
          if (level >= 0 && player.item === index) player.hls.startLevel = level;
        });
      }
      player.hls.on(window.Hls.Events.FRAG_LOADED, (_, data) => {
        const stats = data.frag.stats;
        if (!stats) return;
        const bytes = stats.loaded || stats.total || 0;
        state.mediaBytes += bytes;
        countFetched(index, bytes, stats.loading.end - stats.loading.start);
      });
      player.hls.on(window.Hls.Events.ERROR, (_, data) => {
        if (data.fatal) recordError(`hls.js: ${data.type} ${data.details} for video ${item.id}`, item.id);
      });
      player.hls.loadSource(item.master_url);
      player.hls.attachMedia(video);
    } else {
      video.src = item.master_url;
      if (startAt > 0) video.addEventListener("loadedmetadata", () => { video.currentTime = startAt; }, { once: true });
    }
    video.load();
  }

  function neighbourBufferSeconds(index) {
    if (config.prefetch !== "aware") return config.neighbourBufferSeconds;
    return state.neighbourCaps[index] ?? config.neighbourBufferSeconds;
  }

  // The retention curves of the window and the item after it, asked for once the current item shows its first
  // frame, so they never compete with the first item's segments on a slow link. The item after the window has its
  // cap before it is attached; a player already holding a neighbour takes its cap when it arrives.
  function loadNeighbourCaps() {
    if (config.prefetch !== "aware" || state.engine !== "hls.js") return;
    const last = Math.min(state.items.length - 1, state.current + config.ahead + 1);
    for (let index = Math.max(0, state.current - config.behind); index <= last; index += 1) {
      if (state.capsAsked.has(index)) continue;
      state.capsAsked.add(index);
      loadNeighbourCap(index);
    }
  }

  async function loadNeighbourCap(index) {
    const id = state.items[index].id;
    let retention = null;
    try {
      const response = await fetch(`/v1/videos/${encodeURIComponent(id)}/stats`, {
        headers: { Accept: "application/json" }, priority: "low",
      });
      if (response.ok) retention = (await response.json()).retention;
    } catch (error) {
      // No figures: the window's cap stands.
    }
    state.neighbourCaps[index] = window.ReelPrefetch.neighbourCapSeconds(retention);
    for (const player of state.players) {
      if (player.item === index && index !== state.current && player.hls) {
        player.hls.config.maxBufferLength = state.neighbourCaps[index];
        player.hls.config.maxMaxBufferLength = state.neighbourCaps[index];
      }
    }
  }

  function release(player) {
    const video = player.video;
    video.pause();
    if (player.hls) {
      player.hls.destroy();
      player.hls = null;
    }
    video.removeAttribute("src");
    video.load();  // drops the buffered media and stops any download
    video.classList.remove("shown");
    video.setAttribute("aria-hidden", "true");
    poolElement.appendChild(video);
    player.item = null;
    player.handover = undefined;
  }

  /// Items that should hold a player: the current one first, then the nearest neighbours inside the window.
  function wantedItems() {
    const low = Math.max(0, state.current - config.behind);
    const high = Math.min(state.items.length - 1, state.current + config.ahead);
    const order = [state.current];
    for (let distance = 1; distance <= Math.max(config.ahead, config.behind); distance += 1) {
      order.push(state.current + distance, state.current - distance);
    }
    return order.filter((index) => index >= low && index <= high).slice(0, config.players);
  }

  function assignPlayers() {
    if (state.current < 0 || state.engine === "none") return;
    const wanted = wantedItems();
    const free = state.players.filter(
      (player) => player.handover === undefined && (player.item === null || !wanted.includes(player.item)));
    for (const index of wanted) {
      if (state.players.some((player) => player.item === index)) continue;
      const player = free.shift();
      if (!player) break;  // one is loading a ladder for a handover; it comes back when that is done
      if (player.item !== null) release(player);
      attach(player, index);
    }
    for (const player of state.players) {
      if (player.item === state.current) {
        if (player.hls) {
          player.hls.config.maxBufferLength = config.currentBufferSeconds;
          player.hls.config.maxMaxBufferLength = config.currentBufferSeconds;
        }
        if (!player.viewerPaused) playCurrent(player);
      } else if (player.item !== null) {
        player.video.pause();
      }
    }
  }

  function playCurrent(player) {
    const video = player.video;
    const index = player.item;
    video.muted = state.muted;
    const started = video.play();
    if (started) {
      started.catch((error) => {
        // AbortError: the source changed before playback began, which swiping does on purpose.
        if (error.name === "NotAllowedError" && !video.muted) {
          setMuted(true);
          video.play().catch(() => {});
        } else if (error.name === "NotSupportedError" && mayRetryGrowing(player, index)) {
          // retryGrowing, on the element's error event, attaches it again.
        } else if (error.name !== "AbortError" && error.name !== "NotAllowedError") {
          recordError(`play() of video ${state.items[index].id}: ${error.name} ${error.message}`, state.items[index].id);
        }
      });
    }
    watchFirstFrame(player, index);
  }

  // The first frame presented while `index` is current: the item's first ever (firstFrameAt, startups) and this
  // view's (its view_start event). A view of an item seen before starts from that item's kept buffer.
  function watchFirstFrame(player, index) {
    const view = state.view;
    const viewWaits = () => view !== null && state.view === view && view.index === index && view.startupMs === undefined;
    if (state.firstFrameAt[index] !== undefined && !viewWaits()) return;
    const video = player.video;
    const presented = () => {
      if (player.item !== index || state.current !== index) return;
      if (state.firstFrameAt[index] !== undefined && !viewWaits()) return;
      if (video.paused || video.currentTime <= 0) {
        video.requestVideoFrameCallback ? video.requestVideoFrameCallback(presented) : setTimeout(presented, 50);
        return;
      }
      const at = performance.now();
      if (state.firstFrameAt[index] === undefined) {
        state.firstFrameAt[index] = at;
        state.startups.push(Math.round(at - state.becameCurrentAt[index]));
      }
      if (viewWaits()) startView(view, player, at);
      video.classList.add("shown");
      loadNeighbourCaps();
    };
    if (video.requestVideoFrameCallback) video.requestVideoFrameCallback(presented);
    else video.addEventListener("timeupdate", presented);
  }

  // ---- the feed: pages, items and the current item ----

  async function fetchWithBackoff(url) {
    let delay = config.retryBaseMilliseconds;
    for (let attempt = 1; ; attempt += 1) {
      try {
        const response = await fetch(url, { headers: { Accept: "application/json" } });
        if (response.ok) return await response.json();
        const body = await response.json().catch(() => ({}));
        const message = `${url} answered ${response.status}${body.error ? ": " + body.error.message : ""}`;
        if (response.status < 500 && response.status !== 429) {
          throw Object.assign(new Error(message), { final: true, expired: response.status === 410 });
        }
        if (attempt >= config.retryAttempts) throw new Error(message);
        const retryAfter = Number(response.headers.get("Retry-After"));
        if (retryAfter > 0) delay = Math.max(delay, retryAfter * 1000);
      } catch (error) {
        if (error.final || attempt >= config.retryAttempts) throw error;
      }
      showStatus(`Feed unavailable; trying again in ${(delay / 1000).toFixed(1)} s`);
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay *= 2;
    }
  }

  async function loadPage() {
    if (state.pageInFlight || state.nextCursor === null) return;
    state.pageInFlight = true;
    feedElement.setAttribute("aria-busy", "true");
    const cursor = state.nextCursor;
    state.pageRequests.push({
      page: state.pageRequests.length, current: state.current, loaded: state.items.length,
      at: Math.round(performance.now()),
    });
    const url = `/v1/feed?limit=${config.pageSize}` + (cursor ? `&cursor=${encodeURIComponent(cursor)}` : "");
    let restart = false;
    try {
      const page = await fetchWithBackoff(url);
      state.nextCursor = page.next_cursor;
      const first = state.items.length;
      for (const item of page.items) {
        if (!state.ids.has(item.id)) addItem(item);  // after a restart, the videos already in the feed stay put
      }
      if (state.items.length === 0) waitForFirstVideos();
      else showStatus("");
      if (first === 0 && state.items.length > 0) setCurrent(0);
      else assignPlayers();
    } catch (error) {
      if (error.expired && cursor) {
        // 410: the ranking this cursor paged through is gone (`--feed-order engaging` keeps them an hour). Start
        // again from the first page, leaving out the videos already in the feed.
        state.nextCursor = undefined;
        restart = true;
      } else {
        recordError(`the feed did not load: ${error.message}`);
        showStatus("The feed did not load. Reload the page to try again.");
      }
    } finally {
      state.pageInFlight = false;
      feedElement.setAttribute("aria-busy", "false");
    }
    if (restart) loadPage();
    else requestPageIfNeeded();
  }

  // An empty feed asks again, less and less often, so a page opened before the first publish fills in by itself.
  let emptyDelay = 1000;
  function waitForFirstVideos() {
    showStatus("No videos yet. Drop some into the inbox; this page shows them as they are published.");
    state.nextCursor = undefined;
    setTimeout(loadPage, emptyDelay);
    emptyDelay = Math.min(emptyDelay * 2, 16000);
  }

  function requestPageIfNeeded() {
    if (state.current >= 0 && state.current >= state.items.length - config.pageTriggerDistance) loadPage();
  }

  function addItem(item) {
    const index = state.items.length;
    state.items.push(item);
    state.ids.add(item.id);
    state.mediaFolders.push(new URL(item.master_url, location.href).href.replace(/[^/]*$/, ""));
    const section = document.createElement("section");
    section.className = "item";
    section.dataset.index = String(index);
    section.setAttribute("aria-posinset", String(index + 1));
    section.setAttribute("aria-setsize", "-1");
    section.setAttribute("aria-label", `Video ${index + 1}, ${Math.round(item.duration_s)} seconds`);
    section.tabIndex = -1;

    const stage = document.createElement("div");
    stage.className = "stage";
    const picture = document.createElement("picture");
    const webp = document.createElement("source");
    webp.type = "image/webp";
    webp.srcset = item.poster_webp_url;
    const image = document.createElement("img");
    image.className = "poster";
    image.alt = "";
    image.src = item.poster_jpeg_url;
    image.decoding = "async";
    image.loading = index < config.pageSize ? "eager" : "lazy";
    image.addEventListener("load", () => {
      if (state.posterShownAt[index] === undefined) state.posterShownAt[index] = performance.now();
    }, { once: true });
    picture.append(webp, image);
    stage.appendChild(picture);

    const caption = document.createElement("div");
    caption.className = "caption";
    fillCaption(caption, item, index);
    const note = document.createElement("p");
    note.className = "note";
    section.append(stage, caption, note);
    feedElement.appendChild(section);
    state.sections.push(section);
    visibility.observe(section);
  }

  /// Who posted it, its title and caption (issue 65), then a line of facts; a playable post (issue 64) says that its
  /// ladder is still being made. Text only, never markup: a caption is whatever its creator typed.
  function fillCaption(element, item, index) {
    const lines = [];
    for (const [key, className] of [["creator", "creator"], ["title", "title"], ["caption", "text"]]) {
      if (typeof item[key] !== "string" || item[key] === "") continue;
      const line = document.createElement("p");
      line.className = className;
      line.textContent = key === "creator" ? `@${item[key]}` : item[key];
      lines.push(line);
    }
    const facts = document.createElement("p");
    facts.className = "facts";
    const published = new Date(item.published_at).toLocaleDateString();
    const making = item.state === "playable" ? " · processing" : "";
    facts.textContent = `${index + 1} · ${item.duration_s.toFixed(0)} s · ${published}${making}`;
    element.replaceChildren(...lines, facts);
  }

  // ---- a post of one's own (issue 64): shown as soon as it plays, its ladder swapped in when it is done ----

  /// Starts the feed again in the page (no reload) with `item` first, so a creator sees the post just sent whatever
  /// the feed's order; the players go back to the pool, which stays as it is.
  function showPost(item) {
    const known = state.items.findIndex((entry) => entry.id === item.id);
    if (known >= 0) {
      updatePost(item);
      go(known - state.current);
      return;
    }
    endView();
    for (const player of state.players) if (player.item !== null) release(player);
    for (const section of state.sections) {
      visibility.unobserve(section);
      section.remove();
    }
    Object.assign(state, {
      items: [], sections: [], mediaFolders: [], ids: new Set(), current: -1, nextCursor: undefined,
      posterShownAt: {}, firstFrameAt: {}, becameCurrentAt: {}, bytesSinceView: {}, neighbourCaps: {},
      capsAsked: new Set(), shownPost: item.id,
    });
    addItem(item);
    state.sections[0].scrollIntoView({ block: "start" });
    setCurrent(0);
    loadPage();
  }

  /// A post already in the feed whose facts changed (its ladder replaced its provisional rendition): a player
  /// holding it goes on from where it was, on the new master. The current post does so without a break (handOver);
  /// any other is simply attached again, out of sight.
  function updatePost(item) {
    const index = state.items.findIndex((entry) => entry.id === item.id);
    if (index < 0) return;
    const before = state.items[index];
    state.items[index] = item;
    state.mediaFolders[index] = new URL(item.master_url, location.href).href.replace(/[^/]*$/, "");
    fillCaption(state.sections[index].querySelector(".caption"), item, index);
    if (before.master_url === item.master_url) return;
    const player = state.players.find((candidate) => candidate.item === index);
    if (!player) return;
    if (index === state.current && handOver(player, index)) return;
    reattach(player, index);
  }

  /// Attaches `player` again to its post's master, where it was; a post the viewer paused stays paused.
  function reattach(player, index) {
    const at = player.video.currentTime, paused = player.viewerPaused && player.video.paused;
    release(player);
    attach(player, index, at);
    player.viewerPaused = paused;
    if (index === state.current && !paused) playCurrent(player);
  }

  // Attaching the new master to the playing element stalled every time (it must load and seek before it shows a
  // frame again). Instead a second player loads the new master from a little ahead, out of sight, and takes over
  // when the first reaches that point, where its own media is already buffered. When the first passes that point
  // before the second is ready (a loaded machine), the second aims further ahead, twice as far each time.
  const handoverLeadSeconds = 1.5;
  const handoverLimitMs = 30000;

  /// Starts moving the current post `index` from `from` to its new master; false when no player can be spared.
  function handOver(from, index) {
    const spare = sparePlayer(index);
    if (!spare) return false;
    let lead = handoverLeadSeconds;
    // The second to take over at, and the loop of the old player it falls in. Near the end, it is the next loop's
    // start: the old rendition plays to its end while the new one loads its beginning.
    const aim = () => {
      const duration = Number.isFinite(from.video.duration) ? from.video.duration : 0;
      const ahead = from.video.currentTime + lead;
      return duration > 0 && ahead > duration - 0.5 ? { second: 0, loop: from.loops + 1 }
        : { second: ahead, loop: from.loops };
    };
    let target = aim();
    attach(spare, index, target.second);
    spare.item = null;
    spare.handover = index;
    spare.video.setAttribute("aria-hidden", "true");
    const master = state.items[index].master_url;
    const started = performance.now();
    let lastTime = from.video.currentTime, movedAt = started;
    const timer = setInterval(() => {
      if (spare.handover !== index) {  // released meanwhile (the feed started again)
        clearInterval(timer);
        return;
      }
      const time = from.video.currentTime;
      if (time !== lastTime) [lastTime, movedAt] = [time, performance.now()];
      // An old player that stopped moving (Chromium's own player can stop at the end of a playlist it took for live,
      // under load, instead of looping) or that the viewer paused has no second to meet: the new one takes over from
      // where it waits, and a paused post stays paused.
      const paused = from.viewerPaused && from.video.paused;
      const stopped = paused || performance.now() - movedAt > 1000;
      const there = from.loops === target.loop && time >= target.second;
      // Out of sight, it goes to where the old one stopped, once it knows its duration: the start when that was the
      // end (a native player stopped at 15.07 s of a 15 s clip, and a seek there failed the new one).
      const end = spare.video.duration;
      const resume = Number.isFinite(end) && time >= end - 0.5 ? 0 : time;
      if (stopped && spare.video.readyState >= 1 && Math.abs(spare.video.currentTime - resume) > 0.25) {
        spare.video.currentTime = resume;
      }
      const ready = ((there && time < target.second + 1) || stopped) && spare.video.readyState >= 3 &&
        !spare.video.seeking;
      const moot = from.item !== index || state.current !== index || state.items[index].master_url !== master;
      if (!ready && !moot && !spare.video.error && performance.now() - started < handoverLimitMs) {
        const missed = from.loops > target.loop || (there && time >= target.second + 1);
        if (missed && spare.video.readyState >= 1) {
          lead = Math.min(lead * 2, 8);
          target = aim();
          spare.video.currentTime = target.second;
        }
        return;
      }
      clearInterval(timer);
      state.lastHandover = {
        outcome: ready ? (paused ? "took over a paused player" : stopped ? "took over a stopped player" : "took over")
          : moot ? "moot"
          : spare.video.error ? "failed" : "too slow",
        target: Number(target.second.toFixed(2)), time: Number(time.toFixed(2)), lead,
        spareTime: Number(spare.video.currentTime.toFixed(2)), spareReadyState: spare.video.readyState,
        at: Math.round(performance.now()),
      };
      if (!ready) {
        // Swiped away, failed or too slow: the post moves to its new master the plain way.
        release(spare);
        if (from.item === index && state.items[index].master_url === master) reattach(from, index);
        assignPlayers();
        return;
      }
      spare.handover = undefined;
      spare.item = index;
      spare.loops = from.loops;
      spare.viewerPaused = paused;
      // It waits at its target and takes over within a poll of the old one passing it: a seek to the old one's second
      // fired `waiting` (a counted stall) even within what was buffered, so it seeks only when that poll came late.
      if (!stopped && time - spare.video.currentTime > 0.25) spare.video.currentTime = time;
      spare.video.classList.add("shown");
      spare.video.setAttribute("aria-hidden", "false");
      release(from);
      state.handovers += 1;
      if (!paused) playCurrent(spare);
      assignPlayers();
    }, 50);
    return true;
  }

  /// A player for a handover: an idle one, or one holding a post the window no longer wants, or else the farthest
  /// neighbour's (it gets a player back once the handover is done).
  function sparePlayer(index) {
    const wanted = wantedItems();
    const candidates = state.players.filter((player) => player.handover === undefined && player.item !== index);
    const spare = candidates.find((player) => player.item === null || !wanted.includes(player.item)) ||
      [...wanted].reverse().map((item) => candidates.find((player) => player.item === item)).find(Boolean);
    if (spare && spare.item !== null) release(spare);
    return spare || null;
  }

  function setCurrent(index) {
    if (index === state.current || index < 0 || index >= state.items.length) return;
    const previous = state.sections[state.current];
    if (previous) previous.removeAttribute("aria-current");
    endView();
    for (const player of state.players) player.viewerPaused = false;  // a post swiped back to plays again
    state.current = index;
    state.sections[index].setAttribute("aria-current", "true");
    state.becameCurrentAt[index] = performance.now();
    beginView(index);
    assignPlayers();
    requestPageIfNeeded();
  }

  // The item that covers most of the viewport is the current one, however the viewer got there (swipe, wheel,
  // keys or a screen reader moving focus).
  const visibility = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (entry.isIntersecting && entry.intersectionRatio >= 0.6) setCurrent(Number(entry.target.dataset.index));
    }
  }, { root: feedElement, threshold: [0.6] });

  function go(delta) {
    const target = Math.max(0, Math.min(state.items.length - 1, state.current + delta));
    const section = state.sections[target];
    if (!section) return;
    const smooth = !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    section.scrollIntoView({ behavior: smooth ? "smooth" : "instant", block: "start" });
    section.focus({ preventScroll: true });
  }

  function currentPlayer() {
    return state.players.find((player) => player.item === state.current && player.item !== null);
  }

  function togglePause() {
    const player = currentPlayer();
    if (!player) return;
    player.viewerPaused = !player.video.paused;
    if (player.viewerPaused) player.video.pause();
    else playCurrent(player);
  }

  function setMuted(muted) {
    state.muted = muted;
    for (const player of state.players) player.video.muted = muted;
    soundButton.setAttribute("aria-pressed", String(!muted));
    soundButton.textContent = muted ? "Sound off" : "Sound on";
  }

  function showStatus(text) {
    statusElement.textContent = text;
    statusElement.hidden = text === "";
  }

  // ---- input ----

  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest && event.target.closest("input, textarea, select, button, dialog")) return;  // typing
    switch (event.key) {
      case "ArrowDown": case "PageDown": case "j": go(1); break;
      case "ArrowUp": case "PageUp": case "k": go(-1); break;
      case "Home": go(-state.current); break;
      case " ": togglePause(); break;
      case "m": setMuted(!state.muted); break;
      default: return;
    }
    event.preventDefault();
  });

  // One wheel gesture moves one item, as a swipe does; a trackpad's many small deltas add up to one gesture.
  const wheel = { sum: 0, idleTimer: 0, lockedUntil: 0 };
  feedElement.addEventListener("wheel", (event) => {
    if (event.ctrlKey) return;  // pinch-zoom
    event.preventDefault();
    clearTimeout(wheel.idleTimer);
    wheel.idleTimer = setTimeout(() => { wheel.sum = 0; }, 200);
    wheel.sum += event.deltaMode === 1 ? event.deltaY * 40 : event.deltaY;
    if (Math.abs(wheel.sum) < 50 || performance.now() < wheel.lockedUntil) return;
    go(Math.sign(wheel.sum));
    wheel.sum = 0;
    wheel.lockedUntil = performance.now() + 500;
  }, { passive: false });

  // A tap turns the sound on the first time (the design: muted until the viewer taps), then pauses and resumes.
  feedElement.addEventListener("click", (event) => {
    if (!event.target.closest(".stage")) return;
    if (state.muted) setMuted(false);
    else togglePause();
  });
  soundButton.addEventListener("click", () => setMuted(!state.muted));

  // ---- viewer events: a view is one stay on an item, from its first frame to moving on ----

  function beginView(index) {
    state.view = {
      index, id: state.items[index].id, startedAt: performance.now(), startupMs: undefined,
      watched: 0, lastTime: 0, completed: false, stalledSince: null, reported: -1,
    };
  }

  // Rungs are named by their short side (360p, 720p, 1080p), in portrait as in landscape.
  function renditionName(player) {
    let width = player.video.videoWidth;
    let height = player.video.videoHeight;
    if (player.hls && player.hls.currentLevel >= 0) {
      const level = player.hls.levels[player.hls.currentLevel];
      width = level.width;
      height = level.height;
    }
    return width && height ? `${Math.min(width, height)}p` : "unknown";
  }

  function startView(view, player, at) {
    view.startupMs = at - view.startedAt;
    view.lastTime = player.video.currentTime;
    emit((make) => make.viewStart(view.id, renditionName(player), view.startupMs));
  }

  // Seconds of the current view actually played: a jump of 2 s or more is a seek, not watching; a jump back
  // to the start is the loop, which also means the viewer reached the end.
  function countWatched(video) {
    const view = state.view;
    if (!view || view.index !== state.current || view.startupMs === undefined) return;
    const time = video.currentTime;
    const step = time - view.lastTime;
    if (step >= 0) {
      if (step < 2) view.watched += step;
    } else if (step < -1) {
      view.watched += Math.min(2, Math.max(0, (video.duration || 0) - view.lastTime)) + Math.min(2, time);
      view.completed = true;
    }
    if (video.duration && time >= video.duration - 0.25) view.completed = true;
    view.lastTime = time;
  }

  function endStall() {
    const view = state.view;
    if (!view || view.stalledSince === null) return;
    const since = view.stalledSince;
    view.stalledSince = null;
    emit((make) => make.stall(view.id, performance.now() - since));
  }

  // A stay that ended before its first frame is not a view (the startup bench measures those).
  function endView() {
    const view = state.view;
    if (!view) return;
    if (view.startupMs !== undefined) {
      const player = currentPlayer();
      if (player) countWatched(player.video);
      endStall();
      const bytes = state.bytesSinceView[view.index] || 0;
      state.bytesSinceView[view.index] = 0;
      emit((make) => make.viewEnd(view.id, view.watched, view.completed, bytes));
    }
    state.view = null;
  }

  // Before each send: a progress event for the current view if it played on since the last one; when the page is
  // being left, the view's end.
  function beforeEventsSend(reason) {
    const view = state.view;
    if (!view || view.startupMs === undefined) return;
    if (reason === "pagehide") {
      endView();
      return;
    }
    const player = currentPlayer();
    if (player) countWatched(player.video);
    if (view.watched === view.reported) return;
    view.reported = view.watched;
    emit((make) => make.progress(view.id, player ? player.video.currentTime : view.lastTime, view.watched));
  }

  // A page restored from the back-forward cache after pagehide ended its view: the item on screen starts another.
  window.addEventListener("pageshow", (event) => {
    if (!event.persisted || state.current < 0) return;
    state.becameCurrentAt[state.current] = performance.now();
    beginView(state.current);
    const player = currentPlayer();
    if (player) watchFirstFrame(player, state.current);
  });

  /// One media fetch for item `index`: its bytes count towards the item's next view end, and it is a throughput sample.
  function countFetched(index, bytes, milliseconds) {
    if (!(bytes > 0) || index < 0 || index >= state.items.length) return;
    state.bytesSinceView[index] = (state.bytesSinceView[index] || 0) + bytes;
    if (window.ReelPrefetch) window.ReelPrefetch.addSample(state.throughput, bytes, milliseconds);
    emit((make) => make.segment(state.items[index].id, bytes, milliseconds));
  }

  // Which item a media URL belongs to: each item's files sit in its master playlist's folder.
  function itemOfMediaURL(url) {
    for (let index = state.mediaFolders.length - 1; index >= 0; index -= 1) {
      if (url.startsWith(state.mediaFolders[index])) return index;
    }
    return -1;
  }

  // ---- what the overlay and the tests read ----

  function bufferedAhead(video) {
    const time = video.currentTime;
    for (let range = 0; range < video.buffered.length; range += 1) {
      if (video.buffered.start(range) <= time + 0.1 && video.buffered.end(range) > time) {
        return video.buffered.end(range) - time;
      }
    }
    return 0;
  }

  function playerState(player) {
    const video = player.video;
    if (player.item === null) return "idle";
    if (video.error) return "error";
    if (!video.paused && player.waiting) return "waiting";
    if (!video.paused) return "playing";
    return video.readyState >= 2 ? "ready" : "loading";
  }

  function rendition(player) {
    if (player.hls && player.hls.currentLevel >= 0) {
      const level = player.hls.levels[player.hls.currentLevel];
      return `${level.width}x${level.height} ${Math.round(level.bitrate / 1000)} kb/s`;
    }
    const video = player.video;
    return video.videoWidth ? `${video.videoWidth}x${video.videoHeight}` : "";
  }

  function snapshot() {
    return {
      engine: state.engine,
      config,
      current: state.current,
      loaded: state.items.length,
      ids: state.items.map((item) => item.id),
      states: state.items.map((item) => item.state),
      masters: state.items.map((item) => item.master_url),
      nextCursor: state.nextCursor === undefined ? "" : state.nextCursor,
      players: state.players.map((player) => ({
        slot: player.slot,
        item: player.item,
        id: player.item === null ? null : state.items[player.item].id,
        state: playerState(player),
        engine: player.item === null ? null : player.engine,
        master: player.item === null ? null : player.master,
        bufferedSeconds: player.item === null ? 0 : Number(bufferedAhead(player.video).toFixed(2)),
        currentTime: Number(player.video.currentTime.toFixed(2)),
        readyState: player.video.readyState,
        loops: player.loops,
        rendition: player.item === null ? "" : rendition(player),
      })),
      videoElements: document.getElementsByTagName("video").length,
      playersCreated: state.playersCreated,
      pageRequests: state.pageRequests,
      posterShownAt: state.posterShownAt,
      firstFrameAt: state.firstFrameAt,
      becameCurrentAt: state.becameCurrentAt,
      startups: state.startups,
      stalls: state.stalls,
      stallLog: state.stallLog,
      growingRetries: state.growingRetries,
      handovers: state.handovers,
      lastHandover: state.lastHandover,
      growingEngine: state.growingEngine,
      prefetch: config.prefetch,
      neighbourCaps: state.neighbourCaps,
      throughputBps: window.ReelPrefetch ? Math.round(window.ReelPrefetch.harmonicMean(state.throughput)) : 0,
      mediaBytes: state.mediaBytes,
      muted: state.muted,
      errors: state.errors,
      view: state.view === null ? null : {
        index: state.view.index, startupMs: state.view.startupMs === undefined ? null : Math.round(state.view.startupMs),
        watched: Number(state.view.watched.toFixed(2)), completed: state.view.completed,
        stalled: state.view.stalledSince !== null,
      },
      events: events ? events.snapshot() : null,
    };
  }

  function median(values) {
    if (values.length === 0) return 0;
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)];
  }

  function renderDebug() {
    const view = snapshot();
    const rows = view.players.map((player) =>
      `<tr><td>${player.slot}</td><td>${player.item === null ? "–" : player.item + 1}</td>` +
      `<td>${player.state}</td><td>${player.bufferedSeconds.toFixed(1)} s</td><td>${player.rendition}</td></tr>`);
    debugElement.innerHTML =
      `<table><caption>${view.engine} · ${config.players} players · window −${config.behind}/+${config.ahead}</caption>` +
      "<thead><tr><th>player</th><th>item</th><th>state</th><th>buffered</th><th>rendition</th></tr></thead>" +
      `<tbody>${rows.join("")}</tbody></table>` +
      `<p>item ${view.current + 1} of ${view.loaded} · pages ${view.pageRequests.length} · stalls ${view.stalls}` +
      ` · startup ${view.startups.length ? view.startups[view.startups.length - 1] : "–"} ms` +
      ` (median ${median(view.startups)} ms) · fetched ${(view.mediaBytes / 1e6).toFixed(2)} MB</p>`;
  }

  // Media bytes as the browser counts them (resource timing); hls.js adds its fragments' sizes itself. With native
  // HLS, each segment fetch is also a throughput sample (a CDN's sizes show only with Timing-Allow-Origin).
  function countMediaBytes() {
    if (!("PerformanceObserver" in window)) return;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (state.engine === "hls.js") continue;
        const bytes = entry.transferSize || entry.encodedBodySize || 0;
        if (entry.name.includes("/media/")) state.mediaBytes += bytes;
        if (/\.(m4s|mp4|ts|m4a|aac)(\?|$)/.test(entry.name)) {
          countFetched(itemOfMediaURL(entry.name), bytes, entry.responseEnd - entry.startTime);
        }
      }
    }).observe({ type: "resource", buffered: true });
    // A full buffer would stop new entries; the observer has already seen them.
    performance.addEventListener("resourcetimingbufferfull", () => performance.clearResourceTimings());
  }

  // ---- start ----

  async function start() {
    for (let slot = 0; slot < config.players; slot += 1) state.players.push(makePlayer(slot));
    setMuted(true);
    try {
      state.engine = await chooseEngine(state.players[0].video);
    } catch (error) {
      recordError(error.message);
      state.engine = "none";
    }
    state.growingEngine = state.engine;
    chooseGrowingEngine().then((engine) => { state.growingEngine = engine; });
    if (state.engine === "none") {
      showStatus("This browser cannot play HLS. The server's operator can offer hls.js with reel serve --hls-js-url.");
    }
    countMediaBytes();
    if (config.debug) {
      debugElement.hidden = false;
      setInterval(renderDebug, 250);
    }
    window.reel = { config, snapshot, go, showPost, updatePost };
    await loadPage();
  }

  start();
})();
