import { useCallback, useEffect, useRef, useState } from 'react';
import type { AdminClient, AdminJob } from '../admin/api';

/** `waiting`: asked for, but the server starts the job only once someone in the room publishes. */
export type RecordingState = 'off' | 'starting' | 'waiting' | 'on' | 'stopping';

export interface RecordingTools {
  readonly state: RecordingState;
  readonly error: string | null;
  /** How many times the job list was read (tests wait on it). */
  readonly polls: number;
  readonly start: () => Promise<void>;
  readonly stop: () => Promise<void>;
}

const POLL_MS = 2000;
const live = (job: AdminJob, roomKey: string) =>
  job.roomKey === roomKey && job.kind.startsWith('record-') && job.state !== 'stopped' && job.state !== 'failed';

/**
 * The host's recording switch, through the server's admin API: start is `POST …/rooms/{roomKey}/recordings`
 * (a mixed MP4 of the room), stop is `DELETE …/rooms/{roomKey}/recordings` (its jobs end, files finalised), and the state
 * is read from the job list every 2 s, so a recording started or stopped elsewhere shows too.
 */
export function useRecording(client: AdminClient | null, roomKey: string): RecordingTools {
  const [jobs, setJobs] = useState<readonly AdminJob[]>([]);
  const [pending, setPending] = useState<'starting' | 'waiting' | 'stopping' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [polls, setPolls] = useState(0);
  const clientRef = useRef(client);
  clientRef.current = client;

  const refresh = useCallback(async () => {
    const current = clientRef.current;
    if (!current) return [];
    try {
      const list = (await current.jobs()).filter((job) => live(job, roomKey));
      setJobs(list);
      setPolls((n) => n + 1);
      return list;
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
      return [];
    }
  }, [roomKey]);

  useEffect(() => {
    if (!client) return;
    void refresh();
    const timer = setInterval(() => void refresh(), POLL_MS);
    return () => clearInterval(timer);
  }, [client, refresh]);

  // A job showing up ends "starting"/"waiting"; its end ends "stopping".
  useEffect(() => {
    if (jobs.length > 0 && (pending === 'starting' || pending === 'waiting')) setPending(null);
    if (jobs.length === 0 && pending === 'stopping') setPending(null);
  }, [jobs, pending]);

  const start = useCallback(async () => {
    if (!client) return;
    setError(null);
    setPending('starting');
    try {
      await client.startRecording(roomKey);
      const list = await refresh();
      setPending(list.length > 0 ? null : 'waiting');
    } catch (caught) {
      setPending(null);
      setError(caught instanceof Error ? caught.message : String(caught));
    }
  }, [client, roomKey, refresh]);

  const stop = useCallback(async () => {
    if (!client) return;
    setError(null);
    setPending('stopping');
    try {
      await client.stopRecording(roomKey);
      await refresh();
      setPending(null);
    } catch (caught) {
      setPending(null);
      setError(caught instanceof Error ? caught.message : String(caught));
    }
  }, [client, roomKey, refresh]);

  const state: RecordingState = pending ?? (jobs.length > 0 ? 'on' : 'off');
  return { state, error, polls, start, stop };
}
