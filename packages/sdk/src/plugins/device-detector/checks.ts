/** The media side of the device check: the devices behind tracks, the microphone level, the test tone. */

/** The MediaDeviceInfo a track was captured from (or a stand-in naming the kind when none is listed). */
export async function deviceOf(track: MediaStreamTrack | undefined, kind: MediaDeviceKind): Promise<MediaDeviceInfo> {
  const devices = await navigator.mediaDevices.enumerateDevices().catch(() => [] as MediaDeviceInfo[]); // no list: the stand-in below names the kind
  const id = track?.getSettings().deviceId;
  const found = devices.find((d) => d.kind === kind && (id === undefined || d.deviceId === id)) ?? devices.find((d) => d.kind === kind);
  return found ?? standIn(kind);
}

/** A plain MediaDeviceInfo-shaped object (headless browsers often list no speaker). */
export function standIn(kind: MediaDeviceKind): MediaDeviceInfo {
  const info = { deviceId: 'default', groupId: '', kind, label: '' };
  return { ...info, toJSON: () => info } as MediaDeviceInfo;
}

/** A live level (0–1) of a microphone track, read on demand; close() releases it. */
export class LevelMeter {
  private readonly _ctx: AudioContext;
  private readonly _analyser: AnalyserNode;
  private readonly _data: Float32Array<ArrayBuffer>;

  constructor(track: MediaStreamTrack) {
    this._ctx = new AudioContext();
    this._ctx.resume().catch(() => undefined); // a context the page may not start yet: the meter reads 0 until it does
    const source = this._ctx.createMediaStreamSource(new MediaStream([track]));
    this._analyser = this._ctx.createAnalyser();
    this._analyser.fftSize = 1024;
    this._data = new Float32Array(this._analyser.fftSize);
    source.connect(this._analyser);
  }

  /** RMS of the last ~20 ms, scaled so speech fills most of the bar. */
  level(): number {
    this._analyser.getFloatTimeDomainData(this._data);
    let sum = 0;
    for (const v of this._data) sum += v * v;
    return Math.min(1, Math.sqrt(sum / this._data.length) * 4);
  }

  close(): void {
    this._ctx.close().catch(() => undefined); // closed already: nothing to release
  }
}

/** Plays a 1 s 440 Hz test tone on the default speaker. */
export async function playTestTone(): Promise<void> {
  const ctx = new AudioContext();
  try {
    await ctx.resume();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 440;
    gain.gain.value = 0.2;
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 1);
    await new Promise<void>((resolve) => {
      osc.onended = () => resolve();
    });
  } finally {
    await ctx.close().catch(() => undefined); // closed already: nothing to release
  }
}
