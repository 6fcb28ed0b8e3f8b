import { useState, useSyncExternalStore } from 'react';
import { useT } from '../i18n';
import type { RoomSession } from '../session';

/**
 * The CDN relay: an RTMP URL (a setting of this page) and, once set, a switch that relays my camera and
 * microphone there with the CDNStreaming plugin. Offered to whoever is on stage (an audience publishes nothing).
 */
export function CdnSettings({ session }: { session: RoomSession }) {
  const cdn = useSyncExternalStore(session.cdn.subscribe, session.cdn.getSnapshot);
  const { role, handRaised } = useSyncExternalStore(session.subscribe, session.getSnapshot);
  const t = useT();
  const [draft, setDraft] = useState(cdn.url);
  const [valid, setValid] = useState(true);
  const onStage = session.params.scene === 'rtc' || (role === 'anchor' && !handRaised);
  const busy = cdn.state === 'starting' || cdn.state === 'stopping';
  return (
    <>
      <h3>{t('cdn.title')}</h3>
      <label className="picker">
        <span>{t('settings.cdnUrl')}</span>
        <input data-testid="cdn-url" type="url" inputMode="url" autoComplete="off" spellCheck={false} value={draft}
          placeholder="rtmp://cdn.example.com/live/room" aria-invalid={!valid} aria-describedby="cdn-hint" disabled={cdn.state !== 'off'}
          onChange={(event) => {
            setDraft(event.target.value);
            setValid(session.cdn.setUrl(event.target.value));
          }} />
      </label>
      <p className="hint" id="cdn-hint">{t('settings.cdnHint')}</p>
      {cdn.url && valid && onStage && (
        <button type="button" className="button button-secondary" data-testid="toggle-cdn" data-state={cdn.state} disabled={busy} aria-busy={busy}
          onClick={() => void session.cdn.toggle()}>
          {cdn.state === 'on' || cdn.state === 'stopping' ? t('cdn.stop') : cdn.state === 'starting' ? t('cdn.starting') : t('cdn.start')}
        </button>
      )}
      {cdn.state === 'on' && <p className="hint" data-testid="cdn-state">{t('cdn.on', { url: cdn.url })}</p>}
      {cdn.error && <p className="chat-error" role="alert" data-testid="cdn-error">{t('cdn.failed', { reason: cdn.error })}</p>}
    </>
  );
}
