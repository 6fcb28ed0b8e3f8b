/**
 * Waits until ICE gathering completes so the SDP we send carries every candidate
 * (the server does not trickle). Bounded: after `timeoutMs` the candidates found so far are used.
 */
export function waitForIceGathering(pc: RTCPeerConnection, timeoutMs = 2000): Promise<void> {
  if (pc.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      pc.removeEventListener('icegatheringstatechange', onChange);
      resolve();
    };
    const onChange = () => {
      if (pc.iceGatheringState === 'complete') done();
    };
    const timer = setTimeout(done, timeoutMs);
    pc.addEventListener('icegatheringstatechange', onChange);
  });
}

/** Puts codecs whose mimeType is in `preferred` first, keeping the browser's order otherwise. */
export function preferCodecs(transceiver: RTCRtpTransceiver, kind: 'audio' | 'video', preferred: string[]): void {
  const capabilities = RTCRtpSender.getCapabilities?.(kind);
  if (!capabilities || typeof transceiver.setCodecPreferences !== 'function') return;
  const rank = (mime: string) => {
    const index = preferred.indexOf(mime.toLowerCase());
    return index === -1 ? preferred.length : index;
  };
  const codecs = [...capabilities.codecs].sort((a, b) => rank(a.mimeType) - rank(b.mimeType));
  try {
    transceiver.setCodecPreferences(codecs);
  } catch {
    // Some browsers refuse preferences they consider invalid; the default order still works.
  }
}
