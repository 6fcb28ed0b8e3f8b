import { useEffect, useRef, useState, type Dispatch, type FormEvent, type SetStateAction } from 'react';
import TRTC from '@conclave/sdk';
import { describeError, explainError, type ErrorInfo } from './errors';
import { Icon } from './Icon';
import { useLang, useT, type MessageKey } from './i18n';
import { LanguagePicker } from './LanguagePicker';
import { PreviewCard } from './prejoin/PreviewCard';
import './prejoin/prejoin.css';
import {
  randomUserId,
  type DeviceChoice,
  validateForm,
  type FieldName,
  type FormValues,
  type JoinParams,
} from './joinParams';
import { devUserSig, type DevAppState } from './useDevApp';

export interface JoinFormProps {
  readonly values: FormValues;
  readonly setValues: Dispatch<SetStateAction<FormValues>>;
  readonly devApp: DevAppState;
  /** Join without a click once the form can (from `?autojoin=1`). */
  readonly autoJoin: boolean;
  readonly onAutoJoinHandled: () => void;
  /** Enters the room; rejects with the SDK's RtcError. */
  readonly onJoin: (params: JoinParams) => Promise<void>;
  /** Why the last stay ended (e.g. kicked out), shown above the form. */
  readonly notice: string | null;
}

type FormError =
  | { readonly kind: 'invalid'; readonly field: FieldName; readonly message: MessageKey; readonly vars?: Readonly<Record<string, string | number>> }
  | { readonly kind: 'join'; readonly info: ErrorInfo; readonly raw: unknown };

const FIELD_IDS: Record<FieldName, string> = {
  sdkAppId: 'join-sdkappid',
  userId: 'join-userid',
  roomId: 'join-roomid',
  userSig: 'join-usersig',
};

export function JoinForm({ values, setValues, devApp, autoJoin, onAutoJoinHandled, onJoin, notice }: JoinFormProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<FormError | null>(null);
  const [devices, setDevices] = useState<DeviceChoice>({ cameraId: '', microphoneId: '', speakerId: '' });
  const busyRef = useRef(false);
  const autoJoinStarted = useRef(false);
  const t = useT();
  const lang = useLang();

  const devMode = devApp.status === 'available' && values.sdkAppId.trim() === String(devApp.app.sdkAppId);
  const invalidField = error?.kind === 'invalid' ? error.field : null;

  const update = <K extends keyof FormValues>(key: K, value: FormValues[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    if (error?.kind === 'invalid' && error.field === key) setError(null);
  };

  const fail = (field: FieldName, message: MessageKey, vars?: Readonly<Record<string, string | number>>) => {
    setError({ kind: 'invalid', field, message, vars });
    document.getElementById(FIELD_IDS[field])?.focus();
  };

  const submit = async () => {
    if (busyRef.current) return;
    setError(null);
    const checked = validateForm(values);
    if (!checked.ok) {
      fail(checked.error.field, checked.error.message, checked.error.vars);
      return;
    }
    const pasted = values.userSig.trim();
    if (!devMode && pasted === '') {
      fail('userSig', 'join.needUserSig');
      return;
    }
    busyRef.current = true;
    setBusy(true);
    try {
      const userSig =
        devMode && devApp.status === 'available' ? await devUserSig(devApp.app, checked.userId) : pasted;
      await onJoin({
        sdkAppId: checked.sdkAppId,
        userId: checked.userId,
        userSig,
        room: checked.room,
        camera: values.camera,
        mic: values.mic,
        scene: values.scene,
        role: values.role,
        devices,
      });
    } catch (caught) {
      setError({ kind: 'join', info: describeError(caught), raw: caught });
    } finally {
      busyRef.current = false;
      setBusy(false);
    }
  };

  useEffect(() => {
    if (!autoJoin || devApp.status === 'loading' || autoJoinStarted.current) return;
    autoJoinStarted.current = true;
    onAutoJoinHandled();
    void submit();
    // Runs once, when the dev-app check has settled; `submit` reads this render's values.
  }, [autoJoin, devApp.status]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void submit();
  };

  const chooseDevices = (next: DeviceChoice) => {
    setDevices(next);
    // The speaker is the page's output, not a capture: set it now so the room plays through it.
    // A refused speaker (no setSinkId, a device gone) leaves the default output: the room still plays.
    if (next.speakerId !== devices.speakerId && next.speakerId) void TRTC.setCurrentSpeaker(next.speakerId).catch(() => undefined);
  };

  const stringRoom = values.roomMode === 'string';
  const describedBy = (field: FieldName, hint?: string) =>
    [hint, invalidField === field ? 'join-error' : undefined].filter(Boolean).join(' ') || undefined;

  return (
    <main className="join-page">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true" />
        <span className="brand-name">Conclave</span>
        <span className="brand-sub">{t('brand.sub')}</span>
        <LanguagePicker />
      </div>

      <div className="prejoin">
        <PreviewCard
          name={values.userId}
          camera={values.camera}
          mic={values.mic}
          setCamera={(on) => update('camera', on)}
          setMic={(on) => update('mic', on)}
          devices={devices}
          setDevices={chooseDevices}
        />

        <form className="card join-card" data-testid="join-form" onSubmit={onSubmit} noValidate aria-labelledby="join-title">
          <h1 id="join-title">{t('join.title')}</h1>
          <p className="lede">{t('join.lede')}</p>

          {notice && (
            <div className="alert alert-info" role="status" data-testid="room-notice">
              {notice}
            </div>
          )}

          <div className="field">
            <label htmlFor={FIELD_IDS.userId}>{t('join.name')}</label>
            <div className="input-row">
              <input
                id={FIELD_IDS.userId}
                data-testid="input-userid"
                autoComplete="off"
                spellCheck={false}
                maxLength={32}
                value={values.userId}
                aria-invalid={invalidField === 'userId'}
                aria-describedby={describedBy('userId')}
                onChange={(event) => update('userId', event.target.value)}
              />
              <button
                type="button"
                className="icon-button"
                aria-label={t('join.randomName')}
                title={t('join.randomName')}
                onClick={() => update('userId', randomUserId())}
              >
                <Icon name="shuffle" />
              </button>
            </div>
          </div>

          <div className="field">
            <div className="label-row">
              <label htmlFor={FIELD_IDS.roomId}>{stringRoom ? t('join.roomName') : t('join.room')}</label>
              <label className="switch">
                <input
                  type="checkbox"
                  data-testid="toggle-str-roomid"
                  checked={stringRoom}
                  onChange={(event) => {
                    update('roomMode', event.target.checked ? 'string' : 'number');
                    if (invalidField === 'roomId') setError(null);
                  }}
                />
                <span className="switch-track" aria-hidden="true" />
                <span>{t('join.textRoom')}</span>
              </label>
            </div>
            <input
              id={FIELD_IDS.roomId}
              data-testid="input-roomid"
              data-room-mode={values.roomMode}
              inputMode={stringRoom ? 'text' : 'numeric'}
              autoComplete="off"
              spellCheck={false}
              maxLength={stringRoom ? 64 : 10}
              value={stringRoom ? values.strRoomId : values.roomId}
              aria-invalid={invalidField === 'roomId'}
              aria-describedby={describedBy('roomId', 'hint-roomid')}
              onChange={(event) => update(stringRoom ? 'strRoomId' : 'roomId', event.target.value)}
            />
            <p className="hint" id="hint-roomid">
              {stringRoom ? t('join.hintStrRoom') : t('join.hintRoom')}
            </p>
          </div>

          <fieldset className="options segmented">
            <legend>{t('join.roomType')}</legend>
            <label className="segment">
              <input type="radio" name="scene" data-testid="scene-rtc" checked={values.scene === 'rtc'} onChange={() => update('scene', 'rtc')} />
              <span>{t('join.meeting')}</span>
            </label>
            <label className="segment">
              <input type="radio" name="scene" data-testid="scene-live" checked={values.scene === 'live'} onChange={() => update('scene', 'live')} />
              <span>{t('join.live')}</span>
            </label>
          </fieldset>
          {values.scene === 'live' && (
            <label className="field-inline">
              {t('join.joinAs')}{' '}
              <select data-testid="input-role" value={values.role} onChange={(event) => update('role', event.target.value === 'audience' ? 'audience' : 'anchor')}>
                <option value="anchor">{t('join.asAnchor')}</option>
                <option value="audience">{t('join.asAudience')}</option>
              </select>
            </label>
          )}

          <details className="advanced" open={!devMode && devApp.status !== 'loading'}>
            <summary>{t('join.connection')}</summary>
            <div className="field">
              <label htmlFor={FIELD_IDS.sdkAppId}>SDKAppID</label>
              <input
                id={FIELD_IDS.sdkAppId}
                data-testid="input-sdkappid"
                inputMode="numeric"
                autoComplete="off"
                spellCheck={false}
                value={values.sdkAppId}
                aria-invalid={invalidField === 'sdkAppId'}
                aria-describedby={describedBy('sdkAppId', 'hint-sdkappid')}
                onChange={(event) => update('sdkAppId', event.target.value)}
              />
              <p className="hint" id="hint-sdkappid">
                {devApp.status === 'loading' && t('join.devChecking')}
                {devApp.status === 'available' &&
                  (devMode ? t('join.devBuiltIn') : t('join.devOther', { sdkAppId: devApp.app.sdkAppId }))}
                {devApp.status === 'unavailable' && t('join.appIdHint')}
              </p>
            </div>
            {devApp.status !== 'loading' &&
              (devMode ? (
                <p className="devmode-note" data-testid="usersig-devmode">
                  <span className="chip">{t('join.devMode')}</span> {t('join.devNote')}
                </p>
              ) : (
                <div className="field">
                  <label htmlFor={FIELD_IDS.userSig}>userSig</label>
                  <input
                    id={FIELD_IDS.userSig}
                    data-testid="input-usersig"
                    autoComplete="off"
                    spellCheck={false}
                    value={values.userSig}
                    aria-invalid={invalidField === 'userSig'}
                    aria-describedby={describedBy('userSig', 'hint-usersig')}
                    onChange={(event) => update('userSig', event.target.value)}
                  />
                  <p className="hint" id="hint-usersig">{t('join.userSigHint')}</p>
                </div>
              ))}
          </details>

          {error && (
            <div
              className="alert alert-error"
              id="join-error"
              role="alert"
              data-testid="join-error"
              data-code={error.kind === 'join' ? error.info.code : undefined}
              data-extra-code={error.kind === 'join' ? error.info.extraCode : undefined}
            >
              {error.kind === 'join' ? (
                <>
                  <strong>{t('join.failed')}</strong> <span className="error-message">{explainError(error.raw, 'camera', lang)}</span>
                  {(error.info.code !== undefined || error.info.extraCode !== undefined) && (
                    <span className="error-codes">
                      {' '}
                      {error.info.code !== undefined && <code>code {error.info.code}</code>}{' '}
                      {error.info.extraCode !== undefined && <code>extraCode {error.info.extraCode}</code>}
                    </span>
                  )}
                </>
              ) : (
                <span className="error-message">{t(error.message, error.vars)}</span>
              )}
            </div>
          )}

          <button
            type="submit"
            className="button button-primary button-block"
            data-testid="join-button"
            disabled={busy || devApp.status === 'loading'}
            aria-busy={busy}
          >
            {busy ? t('join.joining') : t('join.join')}
          </button>
        </form>
      </div>
    </main>
  );
}
