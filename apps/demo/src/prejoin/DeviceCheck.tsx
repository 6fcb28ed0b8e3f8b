import { useState } from 'react';
import TRTC from '@conclave/sdk';
import type { DeviceDetectorResult } from '@conclave/sdk/plugins/device-detector';
import { explainError } from '../errors';
import { useLang, useT, type MessageKey } from '../i18n';

type CheckState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'running' }
  | { readonly kind: 'done'; readonly result: DeviceDetectorResult }
  | { readonly kind: 'closed' }
  | { readonly kind: 'error'; readonly text: string };

const PARTS: readonly (readonly ['camera' | 'microphone' | 'speaker', MessageKey])[] = [
  ['camera', 'device.camera'], ['microphone', 'device.microphone'], ['speaker', 'device.speaker'],
];

/**
 * "Check my devices": runs the SDK's DeviceDetector plugin (its own dialog: camera, microphone, speaker, then a
 * report) on a TRTC client of its own, in the demo's language, and shows what it found. The plugin is imported
 * on the first click, so it is a chunk of its own.
 */
export function DeviceCheck() {
  const t = useT();
  const lang = useLang();
  const [state, setState] = useState<CheckState>({ kind: 'idle' });

  const run = async () => {
    setState({ kind: 'running' });
    const trtc = TRTC.create();
    try {
      const { DeviceDetector } = await import('@conclave/sdk/plugins/device-detector');
      trtc.use(DeviceDetector);
      const result = (await trtc.startPlugin('DeviceDetector', { language: lang, allowSkip: true })) as DeviceDetectorResult | undefined;
      setState(result ? { kind: 'done', result } : { kind: 'closed' });
    } catch (error) {
      setState({ kind: 'error', text: t('check.error', { reason: explainError(error) }) });
    } finally {
      trtc.destroy();
    }
  };

  return (
    <div className="device-check" data-testid="device-check" data-state={state.kind}>
      <button type="button" className="button button-secondary" data-testid="run-device-check" disabled={state.kind === 'running'}
        aria-busy={state.kind === 'running'} onClick={() => void run()}>
        {state.kind === 'running' ? t('check.running') : t('check.run')}
      </button>
      {state.kind === 'done' && (
        <ul className="check-result" data-testid="device-check-result" aria-label={t('check.result')}>
          {PARTS.map(([part, label]) => {
            const ok = state.result[part].isSuccess;
            return (
              <li key={part} data-part={part} data-ok={ok} className={ok ? 'ok' : 'bad'}>
                <span aria-hidden="true">{ok ? '✓' : '✗'}</span> {t(label)}: {ok ? t('check.passed') : t('check.failed')}
                {state.result[part].device.label && <span className="check-device"> · {state.result[part].device.label}</span>}
              </li>
            );
          })}
        </ul>
      )}
      {state.kind === 'closed' && <p className="hint" data-testid="device-check-closed">{t('check.closed')}</p>}
      {state.kind === 'error' && <p className="chat-error" role="alert" data-testid="device-check-error">{state.text}</p>}
    </div>
  );
}
