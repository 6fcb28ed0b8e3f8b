import type { SupportResult } from '../types.js';

/** Reads the browser's name and major version from the user agent. */
export function browserInfo(ua: string = typeof navigator !== 'undefined' ? navigator.userAgent : ''): { name: string; version: number } {
  const match = (re: RegExp) => Number(re.exec(ua)?.[1] ?? 0);
  if (/MSIE|Trident/.test(ua)) return { name: 'ie', version: match(/(?:MSIE |rv:)(\d+)/) };
  if (/Edge\/\d+/.test(ua)) return { name: 'legacy-edge', version: match(/Edge\/(\d+)/) };
  if (/UCBrowser/.test(ua)) return { name: 'uc', version: match(/UCBrowser\/(\d+)/) };
  if (/Edg\//.test(ua)) return { name: 'edge', version: match(/Edg\/(\d+)/) };
  if (/Firefox\//.test(ua)) return { name: 'firefox', version: match(/Firefox\/(\d+)/) };
  if (/Chrome\//.test(ua)) return { name: 'chrome', version: match(/Chrome\/(\d+)/) };
  if (/Safari\//.test(ua)) return { name: 'safari', version: match(/Version\/(\d+)/) };
  return { name: 'unknown', version: 0 };
}

/** docs/behaviour.md §9: old IE, legacy Edge, UC, Edg below 80 and Firefox below 56 are unsupported. */
export function isBrowserSupported(ua?: string): boolean {
  const { name, version } = browserInfo(ua);
  if (name === 'ie' || name === 'legacy-edge' || name === 'uc') return false;
  if (name === 'edge' && version < 80) return false;
  if (name === 'firefox' && version < 56) return false;
  return true;
}

/** docs/behaviour.md §9: no small stream on WeChat, iOS, or Chrome below 63. */
export function isSmallStreamSupported(ua: string = typeof navigator !== 'undefined' ? navigator.userAgent : ''): boolean {
  if (/MicroMessenger/i.test(ua) || /iPhone|iPad|iPod/.test(ua)) return false;
  const { name, version } = browserInfo(ua);
  return !(name === 'chrome' && version < 63);
}

function hasCodec(kind: 'send' | 'receive', mime: string): boolean {
  const api = kind === 'send' ? globalThis.RTCRtpSender : globalThis.RTCRtpReceiver;
  const codecs = api?.getCapabilities?.('video')?.codecs ?? [];
  return codecs.some((c) => c.mimeType.toLowerCase() === mime);
}

/** What this browser can do (TRTC.isSupported()). */
export async function checkSupport(): Promise<SupportResult> {
  const isWebRTCSupported = typeof RTCPeerConnection !== 'undefined' && typeof RTCRtpSender !== 'undefined';
  const isMediaDevicesSupported = typeof navigator !== 'undefined' && !!navigator.mediaDevices?.getUserMedia;
  const detail: SupportResult['detail'] = {
    isBrowserSupported: isBrowserSupported(),
    isWebRTCSupported,
    isWebCodecsSupported: typeof (globalThis as { VideoEncoder?: unknown }).VideoEncoder !== 'undefined' &&
      typeof (globalThis as { VideoDecoder?: unknown }).VideoDecoder !== 'undefined',
    isMediaDevicesSupported,
    isScreenShareSupported: isMediaDevicesSupported && typeof navigator.mediaDevices.getDisplayMedia === 'function',
    isSmallStreamSupported: isWebRTCSupported && isSmallStreamSupported(),
    isH264EncodeSupported: hasCodec('send', 'video/h264'),
    isH264DecodeSupported: hasCodec('receive', 'video/h264'),
    isVp8EncodeSupported: hasCodec('send', 'video/vp8'),
    isVp8DecodeSupported: hasCodec('receive', 'video/vp8'),
  };
  const result = detail.isBrowserSupported && detail.isWebRTCSupported && detail.isMediaDevicesSupported &&
    (detail.isH264EncodeSupported || detail.isVp8EncodeSupported) && (detail.isH264DecodeSupported || detail.isVp8DecodeSupported);
  return { result, detail };
}
