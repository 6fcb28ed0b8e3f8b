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
