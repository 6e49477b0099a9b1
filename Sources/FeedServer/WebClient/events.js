// Viewer events for POST /v1/events (docs/analytics.md): the feed page records them, this queue sends them.
// Playback never waits on it: record() only appends, a timer sends a batch every 10 s at low priority, a failed send
// backs off exponentially (honouring Retry-After), and a page being hidden or left hands what is queued to
// navigator.sendBeacon, which outlives the page.
"use strict";

window.ReelEvents = (() => {
  const limits = Object.freeze({
    batchEvents: 100,            // the route's limit per batch
    batchBytes: 60000,           // under the route's 64 KB
    queuedEvents: 2000,          // past this the oldest unsent events are dropped (and counted): an offline tab stays small
    flushMilliseconds: 10000,
    retryBaseMilliseconds: 2000,
    retryMaxMilliseconds: 120000,
    milliseconds: 600000,        // the route's bounds, so one odd measurement never costs a whole batch a 400
    seconds: 3600,
    bytes: 1e10,
    message: 500,
  });

  const identifier = /^[A-Za-z0-9_-]{1,64}$/;
  const utf8 = new TextEncoder();

  function randomSession() {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);  // crypto.randomUUID needs a secure context; plain http pages have this
    return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  }

  // One anonymous id per tab: sessionStorage is per tab and survives reloading it. Without storage, one per load.
  function tabSession() {
    try {
      const kept = sessionStorage.getItem("reel-session");
      if (kept && identifier.test(kept)) return kept;
      const made = randomSession();
      sessionStorage.setItem("reel-session", made);
      return made;
    } catch (error) {
      return randomSession();
    }
  }

  const clampInteger = (value, low, high) => Math.min(high, Math.max(low, Math.round(Number(value) || 0)));
  const clampSeconds = (value) => Math.min(limits.seconds, Math.max(0, Math.round((Number(value) || 0) * 100) / 100));

  /// Events of the route's types, each made valid for the route (ids checked, numbers clamped to its bounds).
  const make = {
    viewStart: (video, rendition, startupMs) => ({
      type: "view_start", video, rendition: identifier.test(rendition) ? rendition.slice(0, 32) : "unknown",
      startup_ms: clampInteger(startupMs, 0, limits.milliseconds),
    }),
    stall: (video, durationMs) => ({ type: "stall", video, duration_ms: clampInteger(durationMs, 0, limits.milliseconds) }),
    progress: (video, positionS, watchedS) => ({
      type: "progress", video, position_s: clampSeconds(positionS), watched_s: clampSeconds(watchedS),
    }),
    viewEnd: (video, watchedS, completed, bytes) => ({
      type: "view_end", video, watched_s: clampSeconds(watchedS), completed: Boolean(completed),
      bytes: clampInteger(bytes, 0, limits.bytes),
    }),
    segment: (video, bytes, ms) => ({
      type: "segment", video, bytes: clampInteger(bytes, 1, limits.bytes), ms: clampInteger(ms, 1, limits.milliseconds),
    }),
    error: (message, video) => {
      const event = { type: "error", message: String(message).slice(0, limits.message) };
      if (video !== undefined && video !== null) event.video = video;
      return event;
    },
  };

  class Reporter {
    /// - beforeSend(reason): called with "interval", "hidden" or "pagehide" just before queued events go, so the
    ///   page can add what it knows by then (a progress event, or the current view's end).
    constructor({ endpoint = "/v1/events", beforeSend = () => {} } = {}) {
      this.endpoint = endpoint;
      this.session = tabSession();
      this.beforeSend = beforeSend;
      this.queue = [];
      this.sending = 0;          // the first `sending` events of the queue are in a fetch now
      this.failures = 0;
      this.retryTimer = 0;
      this.counts = { recorded: 0, sent: 0, beaconed: 0, dropped: 0, refused: 0, retries: 0, batches: 0 };
      this.lastRefusal = "";
      setInterval(() => this.send("interval"), limits.flushMilliseconds);
      document.addEventListener("visibilitychange", () => {
        if (document.visibilityState === "hidden") this.send("hidden");
      });
      window.addEventListener("pagehide", () => this.send("pagehide"));
    }

    record(event) {
      if (event.video !== undefined && !identifier.test(event.video)) return;  // not an id the route takes
      event.session = this.session;
      this.queue.push(event);
      this.counts.recorded += 1;
      if (this.queue.length - this.sending > limits.queuedEvents) {
        this.queue.splice(this.sending, 1);
        this.counts.dropped += 1;
      }
    }

    send(reason) {
      try {
        this.beforeSend(reason);
      } catch (error) {
        console.error("reel: recording events before sending them failed: " + error.message);
      }
      if (reason === "interval") this.flush();
      else this.beacon();
    }

    /// The events from index `from` that fit one batch (counted in UTF-8 bytes, as the route counts), as JSON text.
    nextBatch(from) {
      const parts = [];
      let bytes = 2;
      for (let index = from; index < this.queue.length && parts.length < limits.batchEvents; index += 1) {
        const text = JSON.stringify(this.queue[index]);
        const size = utf8.encode(text).length + 1;
        if (bytes + size > limits.batchBytes && parts.length > 0) break;
        parts.push(text);
        bytes += size;
      }
      return { count: parts.length, body: "[" + parts.join(",") + "]" };
    }

    async flush() {
      if (this.sending > 0 || this.retryTimer || this.queue.length === 0) return;
      const batch = this.nextBatch(0);
      this.sending = batch.count;
      let retryAfter = 0;
      let sent = false;
      try {
        // keepalive: a batch in flight when the page goes away still arrives.
        const response = await fetch(this.endpoint, {
          method: "POST", headers: { "Content-Type": "application/json" }, body: batch.body, keepalive: true,
          priority: "low", credentials: "omit",
        });
        if (response.status === 204) {
          this.counts.sent += batch.count;
          this.counts.batches += 1;
          sent = true;
        } else if (response.status === 400 || response.status === 413) {
          // Sending it again would be refused again: it is dropped, and said once.
          const body = await response.json().catch(() => ({}));
          this.lastRefusal = `${response.status}: ${body.error ? body.error.message : "no reason given"}`;
          this.counts.refused += batch.count;
          sent = true;
        } else {
          retryAfter = Number(response.headers.get("Retry-After")) || 0;
        }
      } catch (error) {
        // Offline, or the server is unreachable: kept for the next try.
      }
      this.queue.splice(0, sent ? this.sending : 0);
      this.sending = 0;
      if (sent) {
        this.failures = 0;
        if (this.queue.length >= limits.batchEvents) setTimeout(() => this.flush(), 0);
      } else {
        this.backOff(retryAfter);
      }
    }

    backOff(retryAfterSeconds) {
      this.failures += 1;
      this.counts.retries += 1;
      const exponential = limits.retryBaseMilliseconds * 2 ** Math.min(this.failures - 1, 10);
      const jittered = Math.min(limits.retryMaxMilliseconds, exponential) * (0.8 + 0.4 * Math.random());
      const delay = Math.max(jittered, retryAfterSeconds * 1000);
      this.retryTimer = setTimeout(() => {
        this.retryTimer = 0;
        this.flush();
      }, delay);
    }

    /// Everything not already in a fetch, in beacon-sized batches; what the browser will not take stays queued.
    beacon() {
      if (!navigator.sendBeacon) return;
      while (this.queue.length > this.sending) {
        const batch = this.nextBatch(this.sending);
        const blob = new Blob([batch.body], { type: "text/plain;charset=UTF-8" });
        if (!navigator.sendBeacon(this.endpoint, blob)) break;
        this.queue.splice(this.sending, batch.count);
        this.counts.beaconed += batch.count;
      }
    }

    snapshot() {
      return { session: this.session, queued: this.queue.length, ...this.counts, lastRefusal: this.lastRefusal };
    }
  }

  return Object.freeze({ Reporter, make, limits });
})();
