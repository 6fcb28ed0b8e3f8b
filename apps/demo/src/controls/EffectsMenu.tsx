import { useSyncExternalStore } from 'react';
import { LABEL_KEYS, VOICE_TYPES, type EffectName } from '../effects';
import { useT, type MessageKey } from '../i18n';
import type { RoomSession } from '../session';
import { Popover } from './Popover';

const EFFECTS: readonly EffectName[] = ['blur', 'beauty', 'denoise'];

/** The effects button of the control bar: switches for the SDK's effect plugins, and the voice changer's voices. */
export function EffectsMenu({ session, disabled }: { session: RoomSession; disabled: boolean }) {
  const effects = useSyncExternalStore(session.effects.subscribe, session.effects.getSnapshot);
  const t = useT();
  const anyOn = EFFECTS.some((effect) => effects[effect] === 'on') || effects.voice !== 0;
  return (
    <Popover label={t('effects.label')} testId="effects-menu" trigger={{ icon: 'sparkles', active: anyOn, disabled }}>
      {EFFECTS.map((effect) => {
        const state = effects[effect];
        return (
          <label key={effect} className="check effect">
            <input type="checkbox" role="switch" data-testid={`effect-${effect}`} data-state={state}
              checked={state === 'on' || state === 'starting'} aria-busy={state === 'starting' || state === 'stopping'}
              disabled={state === 'starting' || state === 'stopping'} onChange={() => void session.effects.toggle(effect)} />
            <span>{t(LABEL_KEYS[effect])}{state === 'starting' ? t('effects.starting') : ''}</span>
          </label>
        );
      })}
      <label className="picker">
        <span>{t('effects.voice')}</span>
        <select data-testid="pick-voice" value={effects.voice} data-busy={effects.voiceBusy} aria-busy={effects.voiceBusy}
          disabled={effects.voiceBusy} onChange={(event) => void session.effects.setVoice(Number(event.target.value))}>
          {VOICE_TYPES.map((voice) => <option key={voice} value={voice}>{t(`voice.${voice}` as MessageKey)}</option>)}
        </select>
      </label>
      {effects.error && <p className="effect-error" role="alert" data-testid="effect-error">{effects.error}</p>}
    </Popover>
  );
}
