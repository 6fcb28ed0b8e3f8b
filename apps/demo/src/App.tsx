import { useCallback, useState } from 'react';
import { getLang, translate, type MessageKey } from './i18n';
import { JoinForm } from './JoinForm';
import { readUrlPrefill, type FormValues, type JoinParams } from './joinParams';
import { Room } from './Room';
import { RoomSession } from './session';
import { useDevApp, type DevAppState } from './useDevApp';

const KICK_REASONS: Readonly<Record<string, MessageKey>> = { kick: 'end.kick', banned: 'end.banned', room_disband: 'end.closed' };

export function App() {
  const devApp = useDevApp();
  const [prefill] = useState(() => readUrlPrefill(window.location.search));
  const [values, setValues] = useState<FormValues>(prefill.values);
  const [autoJoin, setAutoJoin] = useState(prefill.autoJoin);
  const [session, setSession] = useState<RoomSession | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  // Once the dev-app check answers, fill in its SDKAppID unless the URL named one. Done while
  // rendering (not in an effect) so that the form, and an auto-join, see it in the same pass.
  const [seenDevApp, setSeenDevApp] = useState<DevAppState>(devApp);
  if (seenDevApp !== devApp) {
    setSeenDevApp(devApp);
    if (devApp.status === 'available' && !prefill.hasSdkAppId && values.sdkAppId.trim() === '') {
      setValues({ ...values, sdkAppId: String(devApp.app.sdkAppId) });
    }
  }

  const join = useCallback(async (params: JoinParams) => {
    setNotice(null);
    const next = new RoomSession(params);
    next.onEnded((end) => {
      setSession((current) => (current === next ? null : current));
      setNotice(`${translate(getLang(), KICK_REASONS[end.detail] ?? 'end.kick')} (${end.detail})`);
    });
    await next.enter();
    setSession(next);
  }, []);

  const onLeft = useCallback(() => setSession(null), []);
  const onAutoJoinHandled = useCallback(() => setAutoJoin(false), []);

  if (session) return <Room session={session} onLeft={onLeft} />;
  return (
    <JoinForm
      values={values}
      setValues={setValues}
      devApp={devApp}
      autoJoin={autoJoin}
      onAutoJoinHandled={onAutoJoinHandled}
      onJoin={join}
      notice={notice}
    />
  );
}
