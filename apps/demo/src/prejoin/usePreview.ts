import TRTC from '@conclave/sdk';
import { useEffect, useRef, useState } from 'react';
import { explainError } from '../errors';
import type { DeviceOption } from '../localMedia';

export interface PreviewDevices {
  readonly cameras: readonly DeviceOption[];
  readonly microphones: readonly DeviceOption[];
  readonly speakers: readonly DeviceOption[];
}

export interface PreviewState {
  /** The camera preview, null while off, starting or failed. */
  readonly stream: MediaStream | null;
  /** Why the camera / microphone could not start, in words. */
  readonly cameraError: string | null;
  readonly micError: string | null;
  readonly devices: PreviewDevices;
}

const NO_DEVICES: PreviewDevices = { cameras: [], microphones: [], speakers: [] };

/** Device lists from the SDK (TRTC.getCameraList…), read after a capture was allowed so they carry labels. */
async function readDevices(): Promise<PreviewDevices> {
  // A list the browser refuses shows as empty: the picker then offers the default device only.
  const list = async (get: () => Promise<MediaDeviceInfo[]>) => (await get().catch(() => []))
    .map((device) => ({ deviceId: device.deviceId, label: device.label }));
  const [cameras, microphones, speakers] = await Promise.all([
    list(() => TRTC.getCameraList(false)), list(() => TRTC.getMicrophoneList(false)), list(() => TRTC.getSpeakerList(false)),
  ]);
  return { cameras, microphones, speakers };
}

/**
 * The pre-join screen's camera preview and microphone check: captures with getUserMedia while the toggle
 * is on (and only then), explains a refusal in words, and calls `onLevel` with the microphone level (0–1)
 * about 15 times a second. Everything is released on unmount, before the room's own capture starts.
 */
export function usePreview(camera: boolean, cameraId: string, mic: boolean, microphoneId: string, onLevel: (level: number) => void): PreviewState {
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [cameraError, setCameraError] = useState<string | null>(null);
  const [micError, setMicError] = useState<string | null>(null);
  const [devices, setDevices] = useState<PreviewDevices>(NO_DEVICES);
  const levelRef = useRef(onLevel);
  levelRef.current = onLevel;

  useEffect(() => {
    void readDevices().then(setDevices);
    const refresh = () => void readDevices().then(setDevices);
    navigator.mediaDevices?.addEventListener('devicechange', refresh);
    return () => navigator.mediaDevices?.removeEventListener('devicechange', refresh);
  }, []);

  useEffect(() => {
    if (!camera) {
      setStream(null);
      setCameraError(null);
      return;
    }
    let cancelled = false;
    let captured: MediaStream | null = null;
    setCameraError(null);
    navigator.mediaDevices.getUserMedia({ video: cameraId ? { deviceId: { exact: cameraId } } : true })
      .then((media) => {
        captured = media;
        if (cancelled) {
          media.getTracks().forEach((track) => track.stop());
          return;
        }
        setStream(media);
        void readDevices().then(setDevices);
      })
      .catch((error: unknown) => {
        if (!cancelled) setCameraError(explainError(error, 'camera'));
      });
    return () => {
      cancelled = true;
      captured?.getTracks().forEach((track) => track.stop());
    };
  }, [camera, cameraId]);

  useEffect(() => {
    if (!mic) {
      setMicError(null);
      levelRef.current(0);
      return;
    }
    let cancelled = false;
    let captured: MediaStream | null = null;
    let context: AudioContext | null = null;
    let timer: ReturnType<typeof setInterval> | undefined;
    setMicError(null);
    navigator.mediaDevices.getUserMedia({ audio: microphoneId ? { deviceId: { exact: microphoneId } } : true })
      .then((media) => {
        captured = media;
        if (cancelled) {
          media.getTracks().forEach((track) => track.stop());
          return;
        }
        context = new AudioContext();
        const analyser = context.createAnalyser();
        analyser.fftSize = 1024;
        context.createMediaStreamSource(media).connect(analyser);
        const samples = new Float32Array(analyser.fftSize);
        // Root mean square of the last window, scaled so that speech fills most of the meter.
        timer = setInterval(() => {
          analyser.getFloatTimeDomainData(samples);
          let sum = 0;
          for (const sample of samples) sum += sample * sample;
          levelRef.current(Math.min(1, Math.sqrt(sum / samples.length) * 4));
        }, 66);
        void readDevices().then(setDevices);
      })
      .catch((error: unknown) => {
        if (!cancelled) setMicError(explainError(error, 'microphone'));
      });
    return () => {
      cancelled = true;
      clearInterval(timer);
      captured?.getTracks().forEach((track) => track.stop());
      void context?.close();
    };
  }, [mic, microphoneId]);

  return { stream, cameraError, micError, devices };
}
