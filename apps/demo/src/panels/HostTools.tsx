import type { AdminClient } from '../admin/api';
import { useT } from '../i18n';
import { useRecording } from './useRecording';

/** The host's recording switch (admin API): the room's state, start or stop, and a failure in words. */
export function HostTools({ client, roomKey }: { client: AdminClient; roomKey: string }) {
  const t = useT();
  const recording = useRecording(client, roomKey);
  const { state } = recording;
  const busy = state === 'starting' || state === 'stopping';
  const running = state === 'on' || state === 'waiting';
  return (
    <div className="host-recording">
      <p className="record-state" data-testid="recording-state" data-state={state} data-polls={recording.polls} role="status">
        <span className={`state-dot state-${state === 'on' ? 'recording' : busy || state === 'waiting' ? 'connecting' : 'disconnected'}`} aria-hidden="true" />
        {t(`record.${state}`)}
      </p>
      <button type="button" className="button button-secondary" data-testid="toggle-recording" disabled={busy} aria-busy={busy}
        onClick={() => void (running ? recording.stop() : recording.start())}>
        {running ? t('record.stop') : t('record.start')}
      </button>
      {recording.error && <p className="chat-error" role="alert" data-testid="recording-error">{t('record.failed', { reason: recording.error })}</p>}
    </div>
  );
}
