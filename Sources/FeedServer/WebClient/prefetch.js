// The `aware` prefetch, the web client's default (?prefetch=window for the fixed window), as PrefetchSim's
// RetentionPrefetch models it (docs/simulator.md): a neighbour is buffered only as far as its viewers are likely to
// watch, and a new player starts at the rung that the measured bandwidth fetches quickly. Pure functions, so the page
// and its Chromium test share them.
"use strict";

window.ReelPrefetch = (() => {
  /// A neighbour keeps the whole seconds k from 0 with r(k) / r(0) at least this.
  const keep = 0.7;
  /// Bounds on a neighbour's buffer, in seconds, whatever its curve says (3: the window's).
  const lowestCap = 1;
  const highestCap = 3;
  /// Share of the harmonic-mean throughput a starting rung must fit in (hls.js's own ABR uses about 0.8).
  const cautiousShare = 0.5;
  /// Samples the harmonic mean is over, and the smallest fetch that is one: a smaller one is mostly waiting.
  const samplesKept = 5;
  const smallestSampleBytes = 16 * 1024;

  /// Seconds to buffer a neighbour whose retention curve is `retention` (the share still watching at each second,
  /// from /v1/videos/{id}/stats); no curve gets the window's 3 s.
  function neighbourCapSeconds(retention) {
    if (!Array.isArray(retention) || retention.length === 0) return highestCap;
    // Nobody watching from the start: the least, as the simulator gives.
    if (!(retention[0] > 0)) return lowestCap;
    let seconds = 0;
    while (seconds < highestCap) {
      // Past the curve's end its last share holds, as in the simulator (ShortVideo.retention(atSecond:)).
      const share = retention[Math.min(seconds, retention.length - 1)];
      if (!(share / retention[0] >= keep)) break;
      seconds += 1;
    }
    return Math.min(highestCap, Math.max(lowestCap, seconds));
  }

  /// Keeps a fetch of `bytes` over `milliseconds` as a throughput sample in `samples` (the newest last), unless it
  /// is too small to measure the link.
  function addSample(samples, bytes, milliseconds) {
    if (!(bytes >= smallestSampleBytes) || !(milliseconds > 0)) return samples;
    samples.push((bytes * 8 * 1000) / milliseconds);
    if (samples.length > samplesKept) samples.splice(0, samples.length - samplesKept);
    return samples;
  }

  /// The harmonic mean of the samples, in bits/s; 0 without any.
  function harmonicMean(samples) {
    if (samples.length === 0) return 0;
    return samples.length / samples.reduce((sum, bps) => sum + 1 / bps, 0);
  }

  /// The index of the highest level whose rate fits in half of `bitsPerSecond`; the lowest when none does, and -1
  /// (hls.js chooses) without a measurement. `levels` are hls.js's: `averageBitrate` (AVERAGE-BANDWIDTH) when the
  /// playlist has it, else `bitrate`.
  function startLevel(levels, bitsPerSecond) {
    if (!(bitsPerSecond > 0) || !Array.isArray(levels) || levels.length === 0) return -1;
    const budget = bitsPerSecond * cautiousShare;
    let best = -1;
    let lowest = 0;
    levels.forEach((level, index) => {
      const rate = level.averageBitrate || level.bitrate;
      const lowestRate = levels[lowest].averageBitrate || levels[lowest].bitrate;
      if (rate < lowestRate) lowest = index;
      if (rate <= budget && (best < 0 || rate > (levels[best].averageBitrate || levels[best].bitrate))) best = index;
    });
    return best < 0 ? lowest : best;
  }

  return Object.freeze({ neighbourCapSeconds, addSample, harmonicMean, startLevel, keep, cautiousShare });
})();
