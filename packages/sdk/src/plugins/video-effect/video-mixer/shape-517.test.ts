import { describe, expect, it } from 'vitest';
import { from517, type SourceHooks } from './shape-517.js';

const at = { x: 0, y: 0, width: 100, height: 100, zIndex: 1 };
const track = (name: string) => ({ name }) as unknown as MediaStreamTrack;
const hooks: SourceHooks = {
  isPublishedCamera: (source) => !source.cameraId || source.cameraId === 'front',
  captureScreen: (source) => source.id === 'denied' ? Promise.reject(new Error('NotAllowedError')) : Promise.resolve(track(`screen:${source.id}`)),
  captureCamera: (source) => source.cameraId === 'broken' ? Promise.reject(new Error('NotReadableError')) : Promise.resolve(track(source.cameraId!)),
  loadVideo: (source) => source.url.endsWith('.webm') ? Promise.resolve(track(source.url)) : Promise.reject(new Error(`load video failed: ${source.url}`)),
  loadImage: (source) => source.url === 'bad' ? Promise.reject(new Error('load image failed')) : Promise.resolve(),
};
const makeError = (id: string, message: string) => new Error(`${id}: ${message}`);

describe("VideoMixer's 5.17 shape", () => {
  it('the published camera is a camera layer; another cameraId and a video file become track layers', async () => {
    const t = await from517({
      camera: [{ id: 'a', layout: at }, { id: 'b', cameraId: 'back', layout: { ...at, x: 100 } }],
      video: [{ id: 'v', url: '/clip.webm', layout: at }],
    }, hooks, makeError);
    expect(t.options.camera).toMatchObject({ x: 0, zOrder: 1 });
    expect(t.trackLists.camera?.map((l) => (l.track as unknown as { name: string }).name)).toEqual(['back']);
    expect(t.trackLists.video?.map((l) => (l.track as unknown as { name: string }).name)).toEqual(['/clip.webm']);
    expect(t.failed).toEqual([]);
    expect(t.allFailed).toBe(false);
  });
  it("the first screen source is the client's screen share; further ones are captured by the mixer, a refused capture fails alone", async () => {
    const t = await from517({ screen: [{ id: 's1', layout: at }, { id: 's2', layout: { ...at, x: 100 } }, { id: 'denied', layout: at }] }, hooks, makeError);
    expect(t.options.screen).toMatchObject({ x: 0, zOrder: 1 });
    expect(t.trackLists.screen?.map((l) => (l.track as unknown as { name: string }).name)).toEqual(['screen:s2']);
    expect(t.failed.map((d) => [d.id, d.error.message])).toEqual([['denied', 'denied: NotAllowedError']]);
  });
  it('a camera list without the published camera hides it', async () => {
    const t = await from517({ camera: [{ id: 'b', cameraId: 'back', layout: at }] }, hooks, makeError);
    expect(t.options.camera).toEqual({ hidden: true });
  });
  it('a failing source is refused alone; when every list given failed entirely: allFailed', async () => {
    const some = await from517({ camera: [{ id: 'x', cameraId: 'broken', layout: at }], image: [{ id: 'i', url: 'ok', layout: at }] }, hooks, makeError);
    expect(some.failed.map((d) => d.id)).toEqual(['x']);
    expect(some.success.image?.map((i) => i.id)).toEqual(['i']);
    expect(some.allFailed).toBe(false);
    const all = await from517({ video: [{ id: 'v', url: '/missing.mp4', layout: at }], image: [{ id: 'i', url: 'bad', layout: at }] }, hooks, makeError);
    expect(all.failed.map((d) => [d.id, d.error.message])).toEqual([['i', 'i: load image failed'], ['v', 'v: load video failed: /missing.mp4']]);
    expect(all.allFailed).toBe(true);
    expect((await from517({ text: [] }, hooks, makeError)).allFailed).toBe(false);
  });
});
