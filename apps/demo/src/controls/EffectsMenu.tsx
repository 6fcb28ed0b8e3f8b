import { useSyncExternalStore } from 'react';
import { LABELS, type EffectName } from '../effects';
import type { RoomSession } from '../session';
import { Popover } from './Popover';

const EFFECTS: readonly EffectName[] = ['blur', 'beauty', 'denoise'];

/** The effects button of the control bar: a menu of switches for the SDK's effect plugins. */
export function EffectsMenu({ session, disabled }: { session: RoomSession; disabled: boolean }) {
  const effects = useSyncExternalStore(session.effects.subscribe, session.effects.getSnapshot);
  const anyOn = EFFECTS.some((effect) => effects[effect] === 'on');
  return (
    <Popover label="Effects" testId="effects-menu" trigger={{ icon: 'sparkles', active: anyOn, disabled }}>
      {EFFECTS.map((effect) => {
        const state = effects[effect];
        return (
          <label key={effect} className="check effect">
            <input type="checkbox" role="switch" data-testid={`effect-${effect}`} data-state={state}
              checked={state === 'on' || state === 'starting'} aria-busy={state === 'starting' || state === 'stopping'}
              disabled={state === 'starting' || state === 'stopping'} onChange={() => void session.effects.toggle(effect)} />
            <span>{LABELS[effect]}{state === 'starting' ? ' (starting…)' : ''}</span>
          </label>
        );
      })}
      {effects.error && <p className="effect-error" role="alert" data-testid="effect-error">{effects.error}</p>}
    </Popover>
  );
}
