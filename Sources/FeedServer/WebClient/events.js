// Viewer events for POST /v1/events (docs/analytics.md): the feed page records them, this queue sends them.
// Playback never waits on it: record() only appends, a timer sends a batch every 10 s at low priority, a failed send
// backs off exponentially (honouring Retry-After), and a page being hidden or left sends what is queued with a
// keepalive fetch, which outlives the page.
// Every batch carries the tab's session token (Reel-Session), which POST /v1/sessions hands out and renews: the
// server takes events only from sessions it issued, and only as application/json (docs/security.md).
"use strict";

window.ReelEvents = (() => {
  const limits = Object.freeze({
    batchEvents: 100,            // the route's limit per batch
    batchBytes: 60000,           // under the route's 64 KB
    queuedEvents: 2000,          // past this the oldest unsent events are dropped (and counted): an offline tab stays small
    flushMilliseconds: 10000,
    retryBaseMilliseconds: 2000,
    retryMaxMilliseconds: 120000,
    keepaliveBytes: 60000,       // the bodies of keepalive fetches in flight may total 64 KB (the Fetch standard)
    milliseconds: 600000,        // the route's bounds, so one odd measurement never costs a whole batch a 400
    seconds: 3600,
    bytes: 1e10,
    message: 500,
  });

  const identifier = /^[A-Za-z0-9_-]{1,64}$/;
  const utf8 = new TextEncoder();

  // The tab's session token, kept in sessionStorage (per tab, and it survives reloading it) until a quarter of its
  // life is left, then renewed for the same session. Without storage, one per load.
  function keptToken() {
    try {
      const kept = JSON.parse(sessionStorage.getItem("reel-session-token") || "null");
      if (kept && typeof kept.token === "string" && identifier.test(kept.session) && kept.expiresAt > Date.now()) return kept;
    } catch (error) {
      // Unreadable: a new session.
    }
    return null;
  }

  function keepToken(token) {
    try {
      sessionStorage.setItem("reel-session-token", JSON.stringify(token));
    } catch (error) {
      // Not kept: the next load starts a new session.
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
    constructor({ endpoint = "/v1/events", sessions = "/v1/sessions", beforeSend = () => {} } = {}) {
      this.endpoint = endpoint;
      this.sessions = sessions;
      this.token = keptToken();  // { token, session, expiresAt, renewAt } (client milliseconds)
      this.asking = null;        // the POST /v1/sessions in flight
      this.flightBytes = 0;      // the body of the timer's fetch in flight
      this.beforeSend = beforeSend;
      this.queue = [];
      this.sending = 0;          // the first `sending` events of the queue are in a fetch now
      this.failures = 0;
      this.retryTimer = 0;
      this.counts = { recorded: 0, sent: 0, keptAlive: 0, dropped: 0, refused: 0, retries: 0, batches: 0, sessions: 0 };
      this.lastRefusal = "";
      this.ensureSession();
      setInterval(() => this.send("interval"), limits.flushMilliseconds);
      document.addEventListener("visibilitychange", () => {
        if (document.visibilityState === "hidden") this.send("hidden");
      });
      window.addEventListener("pagehide", () => this.send("pagehide"));
    }

    record(event) {
      if (event.video !== undefined && !identifier.test(event.video)) return;  // not an id the route takes
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
      else this.sendOnLeaving();
    }

    /// A token that is good for a while yet: the kept one, or one asked for now (renewing the kept one while it is
    /// valid, so the session stays the same). Null when the server could not be asked.
    async ensureSession() {
      if (this.token && Date.now() < this.token.renewAt) return this.token;
      if (!this.asking) {
        this.asking = (async () => {
          try {
            const headers = this.token && Date.now() < this.token.expiresAt ? { "Reel-Session": this.token.token } : {};
            const response = await fetch(this.sessions, { method: "POST", headers, credentials: "omit" });
            if (response.status !== 200) return null;
            const body = await response.json();
            const lifetime = Number(body.expires_in) * 1000;
            if (typeof body.token !== "string" || !identifier.test(body.session) || !(lifetime > 0)) return null;
            this.token = { token: body.token, session: body.session, expiresAt: Date.now() + lifetime,
                           renewAt: Date.now() + lifetime * 0.75 };
            this.counts.sessions += 1;
            keepToken(this.token);
            return this.token;
          } catch (error) {
            return null;  // offline: asked again before the next send
          } finally {
            this.asking = null;
          }
        })();
      }
      await this.asking;
      return this.token && Date.now() < this.token.expiresAt ? this.token : null;
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
        const token = await this.ensureSession();
        if (token) {
          // keepalive: a batch in flight when the page goes away still arrives. Its bytes count against the
          // browser's keepalive allowance until it is answered.
          this.flightBytes = utf8.encode(batch.body).length;
          const response = await fetch(this.endpoint, {
            method: "POST", headers: { "Content-Type": "application/json", "Reel-Session": token.token },
            body: batch.body, keepalive: true, priority: "low", credentials: "omit",
          });
          if (response.status === 204) {
            this.counts.sent += batch.count;
            this.counts.batches += 1;
            sent = true;
          } else if (response.status === 401) {
            // Expired, or signed with a key this server no longer has: the next try starts a new session.
            if (this.token && this.token.token === token.token) {
              this.token = null;
              keepToken(null);
            }
          } else if ([400, 413, 415, 422].includes(response.status)) {
            // Sending it again would be refused again: it is dropped, and said once.
            const body = await response.json().catch(() => ({}));
            this.lastRefusal = `${response.status}: ${body.error ? body.error.message : "no reason given"}`;
            this.counts.refused += batch.count;
            sent = true;
          } else {
            retryAfter = Number(response.headers.get("Retry-After")) || 0;
          }
        }
      } catch (error) {
        // Offline, or the server is unreachable: kept for the next try.
      }
      this.flightBytes = 0;
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

    /// What is not already in a fetch, in batches, by keepalive fetches that outlive the page, as far as the
    /// browser's keepalive allowance goes; the rest stays queued (for the timer, if the page is only hidden). It needs
    /// a token at hand: the page cannot wait for one while it goes.
    sendOnLeaving() {
      const token = this.token && Date.now() < this.token.expiresAt ? this.token : null;
      if (!token) return;
      let bytes = this.flightBytes;
      while (this.queue.length > this.sending) {
        const batch = this.nextBatch(this.sending);
        const size = utf8.encode(batch.body).length;
        if (bytes + size > limits.keepaliveBytes) break;
        bytes += size;
        try {
          fetch(this.endpoint, {
            method: "POST", headers: { "Content-Type": "application/json", "Reel-Session": token.token },
            body: batch.body, keepalive: true, credentials: "omit",
          }).catch(() => {});
        } catch (error) {
          break;  // the browser took no more
        }
        this.queue.splice(this.sending, batch.count);
        this.counts.keptAlive += batch.count;
      }
    }

    snapshot() {
      const session = this.token ? this.token.session : null;
      return { session, queued: this.queue.length, ...this.counts, lastRefusal: this.lastRefusal };
    }
  }

  return Object.freeze({ Reporter, make, limits });
})();
