import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { log, setLevel } from './logger.js';
import { encodeBody, LOG_UPLOAD, LogUploader, uploadUrl } from './upload.js';

describe('log upload', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
    setLevel(2, true);
  });

  it('gzips bodies above 2800 characters only', async () => {
    const small = await encodeBody({ timestamp: 1, sdkAppId: 1, userId: 'u', version: 'v', log: 'x'.repeat(100) }, LOG_UPLOAD.GZIP_ABOVE_CHARS);
    expect(small.gzip).toBe(false);
    const body = { timestamp: 1, sdkAppId: 1, userId: 'u', version: 'v', log: 'line\n'.repeat(1000) };
    const big = await encodeBody(body, LOG_UPLOAD.GZIP_ABOVE_CHARS);
    expect(big.gzip).toBe(true);
    expect(JSON.parse(gunzipSync(big.data as Uint8Array).toString())).toEqual(body);
  });

  it('the URL carries random, sdkappid and cmdtype', () => {
    const url = new URL(uploadUrl('https://logs.example.com/', 1400000001, 'jssdk_log'));
    expect(url.pathname).toBe('/v5/AVQualityReportSvc/C2S');
    expect(url.searchParams.get('sdkappid')).toBe('1400000001');
    expect(url.searchParams.get('cmdtype')).toBe('jssdk_log');
    expect(url.searchParams.get('random')).toMatch(/^\d+$/);
  });

  it('uploads batches of at most 50 lines every 5 s, retrying 3 times 2 s apart', async () => {
    vi.useFakeTimers();
    const calls: { url: string; log: string }[] = [];
    let fail = 0;
    vi.stubGlobal('fetch', async (url: string, init: { body: string }) => {
      calls.push({ url, log: JSON.parse(init.body).log });
      return { ok: fail-- <= 0 };
    });
    setLevel(5, true); // a quiet console; uploads still take INFO and above
    const uploader = new LogUploader();
    uploader.start({ origin: 'http://x', sdkAppId: 7, userId: 'u', version: '5.10.1', roomId: 1 });
    for (let i = 0; i < 60; i++) log.info(`line ${i}`);
    log.debug('not uploaded');
    await vi.advanceTimersByTimeAsync(LOG_UPLOAD.INTERVAL_MS);
    expect(calls).toHaveLength(1);
    expect(calls[0].log.split('\n')).toHaveLength(50);
    expect(calls[0].log).toContain('[INFO] line 0');
    fail = 2;
    await vi.advanceTimersByTimeAsync(LOG_UPLOAD.INTERVAL_MS);
    await vi.advanceTimersByTimeAsync(2 * LOG_UPLOAD.RETRY_DELAY_MS);
    expect(calls).toHaveLength(4);
    expect(calls[3].log.split('\n')).toHaveLength(10);
    expect(calls.some((c) => c.log.includes('not uploaded'))).toBe(false);
    await uploader.stop();
  });

  it('uploads nothing when disabled by setLogLevel', async () => {
    vi.useFakeTimers();
    const fetch = vi.fn(async () => ({ ok: true }));
    vi.stubGlobal('fetch', fetch);
    setLevel(5, false);
    const uploader = new LogUploader();
    uploader.start({ origin: 'http://x', sdkAppId: 7, userId: 'u', version: '5.10.1' });
    log.info('secret');
    await vi.advanceTimersByTimeAsync(LOG_UPLOAD.INTERVAL_MS);
    expect(fetch).not.toHaveBeenCalled();
    await uploader.stop();
  });
});

describe('failure-event upload and statistics beacon', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('uploads a jssdk_event with errorInfo 2 s after an error, once, ignoring failures', async () => {
    vi.useFakeTimers();
    const calls: { url: string; body: { errorInfo?: { message?: string } } }[] = [];
    vi.stubGlobal('fetch', async (url: string, init: { body: string }) => {
      calls.push({ url, body: JSON.parse(init.body) });
      return { ok: false };
    });
    const uploader = new LogUploader();
    uploader.start({ origin: 'http://x', sdkAppId: 7, userId: 'u', version: '5.10.1' });
    uploader.reportError({ message: 'boom', stack: 'at x', code: 5500 });
    await vi.advanceTimersByTimeAsync(LOG_UPLOAD.EVENT_DELAY_MS - 1);
    expect(calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(10_000);
    const events = calls.filter((c) => c.url.includes('cmdtype=jssdk_event'));
    expect(events).toHaveLength(1);
    expect(events[0].body.errorInfo?.message).toBe('boom');
    vi.stubGlobal('fetch', async () => ({ ok: true }));
    await uploader.stop();
  });

  it('sends the key-value statistics with navigator.sendBeacon, gzip, else a keepalive fetch', async () => {
    const beacons: { url: string; body: Blob }[] = [];
    vi.stubGlobal('navigator', { sendBeacon: (url: string, body: Blob) => { beacons.push({ url, body }); return true; } });
    vi.stubGlobal('fetch', async () => ({ ok: true }));
    const uploader = new LogUploader();
    uploader.start({ origin: 'http://x/', sdkAppId: 7, userId: 'u', version: '5.10.1' });
    uploader.count(1);
    uploader.count(1);
    await uploader.sendBeacon();
    expect(beacons).toHaveLength(1);
    expect(beacons[0].url).toBe('http://x/api/v1/stats');
    const body = JSON.parse(gunzipSync(new Uint8Array(await beacons[0].body.arrayBuffer())).toString());
    expect(body).toMatchObject({ sdkAppId: 7, userId: 'u', stats_count: [{ key: 1, count: 2 }], msg_sdk_basic_info: { sdkVersion: '5.10.1', terminalType: 15 } });
    const fetches: { keepalive?: boolean }[] = [];
    vi.stubGlobal('navigator', { sendBeacon: () => false });
    vi.stubGlobal('fetch', async (_url: string, init: { keepalive?: boolean }) => { fetches.push(init); return { ok: true }; });
    await uploader.sendBeacon();
    expect(fetches[0]?.keepalive).toBe(true);
    await uploader.stop();
  });
});
