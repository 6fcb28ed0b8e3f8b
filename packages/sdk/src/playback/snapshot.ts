/** A PNG data URL of the frame a video element shows; '' when it shows none. */
export function snapshotOf(element: HTMLVideoElement | undefined): string {
  if (!element || element.videoWidth === 0) return '';
  const canvas = document.createElement('canvas');
  canvas.width = element.videoWidth;
  canvas.height = element.videoHeight;
  canvas.getContext('2d')?.drawImage(element, 0, 0);
  return canvas.toDataURL('image/png');
}
