// The in-page half of hls_variants_browser.py: what MediaSource says about each variant's CODECS, which variants
// hls.js keeps, and each kept one pinned in a player of its own and played to its end. It reports; it never judges.
import Hls from '/__reel__/hls.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The master's variants as written: URI (relative to the master), CODECS and RESOLUTION. */
async function readMaster(url) {
    const text = await (await fetch(url, { cache: 'no-store' })).text();
    const lines = text.split('\n').map((line) => line.trim());
    const variants = [];
    lines.forEach((line, index) => {
        if (!line.startsWith('#EXT-X-STREAM-INF:')) return;
        const codecs = /CODECS="([^"]*)"/.exec(line)?.[1] ?? null;
        const resolution = /RESOLUTION=(\d+x\d+)/.exec(line)?.[1] ?? null;
        const uri = lines.slice(index + 1).find((next) => next && !next.startsWith('#'));
        variants.push({ uri, codecs, resolution });
    });
    return variants;
}

/** The playlist's path relative to the master's folder, so the report names variants as the master does. */
function relative(url, master) {
    const base = new URL('.', master).pathname;
    const path = new URL(url, master).pathname;
    return path.startsWith(base) ? path.slice(base.length) : path;
}

function describe(data) {
    return { fatal: !!data.fatal, type: data.type, details: data.details,
             reason: data.reason ?? (data.error ? String(data.error) : undefined),
             url: data.frag?.url ?? data.url ?? data.context?.url };
}

/** MediaSource's answer for every variant's CODECS, and the levels hls.js keeps after parsing the master. */
export async function survey(master) {
    const variants = await readMaster(master);
    for (const variant of variants) {
        variant.typeSupported = MediaSource.isTypeSupported(`video/mp4; codecs="${variant.codecs}"`);
    }
    const hls = new Hls({ autoStartLoad: false });
    const errors = [];
    hls.on(Hls.Events.ERROR, (_, data) => errors.push(describe(data)));
    const parsed = new Promise((resolve) => {
        hls.on(Hls.Events.MANIFEST_PARSED, resolve);
        hls.on(Hls.Events.ERROR, (_, data) => { if (data.fatal) resolve(); });
    });
    hls.loadSource(master);
    await parsed;
    const levels = hls.levels.map((level, index) => ({
        index, uri: relative(level.url, master), width: level.width, height: level.height,
        videoCodec: level.videoCodec ?? null, audioCodec: level.audioCodec ?? null }));
    hls.destroy();
    return { hlsjs: Hls.version, variants, levels, errors };
}

/**
 * Level `index` pinned in a fresh player (its own <video>, ABR off) and played at `rate` to its end, or until a
 * fatal error or `timeoutMs`: where it got to, the sizes it showed, the frames it decoded, the fragments it loaded.
 */
export async function play(master, index, rate, timeoutMs) {
    const video = document.createElement('video');
    video.muted = true;
    video.playsInline = true;
    document.body.replaceChildren(video);
    const hls = new Hls({ startLevel: index, capLevelToPlayerSize: false });
    const result = { index, errors: [], switchedTo: [], fragments: {}, sizes: [] };
    const noteSize = () => {
        const size = `${video.videoWidth}x${video.videoHeight}`;
        if (video.videoWidth && !result.sizes.includes(size)) result.sizes.push(size);
    };
    video.addEventListener('resize', noteSize);
    hls.on(Hls.Events.ERROR, (_, data) => result.errors.push(describe(data)));
    hls.on(Hls.Events.LEVEL_SWITCHED, (_, data) => result.switchedTo.push(data.level));
    hls.on(Hls.Events.FRAG_LOADED, (_, data) => {
        if (data.frag.type !== 'main') return;
        const key = relative(hls.levels[data.frag.level].url, master);
        const list = result.fragments[key] ?? (result.fragments[key] = []);
        if (!list.includes(data.frag.sn)) list.push(data.frag.sn);
    });
    const parsed = new Promise((resolve) => hls.on(Hls.Events.MANIFEST_PARSED, resolve));
    hls.loadSource(master);
    hls.attachMedia(video);
    await Promise.race([parsed, sleep(timeoutMs)]);
    if (hls.levels[index]) {
        hls.currentLevel = index;  // a manual level: ABR stays off
        result.uri = relative(hls.levels[index].url, master);
    }
    video.playbackRate = rate;
    video.play().catch((error) => { result.playError = String(error); });
    const deadline = performance.now() + timeoutMs;
    while (performance.now() < deadline && !video.ended && !result.errors.some((error) => error.fatal)) {
        await sleep(50);
    }
    noteSize();
    const quality = video.getVideoPlaybackQuality();
    Object.assign(result, {
        ended: video.ended, currentTime: video.currentTime, duration: video.duration,
        videoWidth: video.videoWidth, videoHeight: video.videoHeight, currentLevel: hls.currentLevel,
        decodedFrames: quality.totalVideoFrames, droppedFrames: quality.droppedVideoFrames,
        mediaError: video.error ? { code: video.error.code, message: video.error.message } : null });
    hls.destroy();
    video.remove();
    return result;
}
