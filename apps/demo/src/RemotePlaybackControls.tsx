import './remotePlayback.css';
import { useId, useSyncExternalStore } from 'react';
import { useT, type MessageKey } from './i18n';
import type { RemotePlayback } from './remotePlayback';

const CHOICE_LABEL = { auto: 'playback.auto', big: 'playback.big', small: 'playback.small' } as const;
const CHOICE_TITLE = { auto: 'playback.autoTitle', big: 'playback.bigTitle', small: 'playback.smallTitle' } as const;
const STATE_LABEL: Readonly<Record<string, MessageKey>> = { PLAYING: 'play.PLAYING', PAUSED: 'play.PAUSED', STOPPED: 'play.STOPPED' };

/**
 * A remote user's playback controls: big/small stream (automatic by tile size, or fixed), volume (0–150 %; above 100 amplifies),
 * and the audio/video play states the SDK reports.
 */
export function RemotePlaybackControls({ playback, userId, videoOn }: { playback: RemotePlayback; userId: string; videoOn: boolean }) {
  useSyncExternalStore(playback.subscribe, playback.getSnapshot);
  const state = playback.of(userId);
  const volumeId = useId();
  const t = useT();
  return (
    <div className="remote-playback" data-testid="remote-playback" data-user-id={userId} data-small={state.small ? 'true' : 'false'}>
      <div className="stream-choice" role="group" aria-label={t('playback.quality', { userId })}>
        {(['auto', 'big', 'small'] as const).map((choice) => (
          <button
            key={choice}
            type="button"
            className="stream-chip"
            data-testid={`remote-stream-${choice}`}
            aria-pressed={state.choice === choice}
            disabled={state.switching}
            title={t(CHOICE_TITLE[choice])}
            onClick={() => {
              if (state.choice !== choice) void playback.choose(userId, choice, videoOn);
            }}
          >
            {t(CHOICE_LABEL[choice])}
          </button>
        ))}
      </div>
      <label className="remote-volume" htmlFor={volumeId} title={t('playback.volume', { userId })}>
        <span className="visually-hidden">{t('playback.volume', { userId })}</span>
        <input
          id={volumeId}
          type="range"
          min={0}
          max={150}
          step={5}
          value={state.volume}
          data-testid="remote-volume"
          aria-valuetext={`${state.volume} %`}
          onChange={(event) => playback.setVolume(userId, Number(event.target.value))}
        />
      </label>
      <span className="play-states" data-testid="remote-play-state" aria-live="polite">
        {(['audio', 'video'] as const).map((kind) => {
          const { state: playState, reason } = state[kind];
          const size = kind === 'video' && state.firstFrame && playState === 'PLAYING' ? ` ${state.firstFrame.width}×${state.firstFrame.height}` : '';
          const word = STATE_LABEL[playState];
          const label = `${t(kind === 'audio' ? 'playback.audio' : 'playback.video')} ${word ? t(word) : playState}${reason ? ` (${reason})` : ''}${size}`;
          return (
            <span key={kind} className="play-state" data-kind={kind} data-state={playState} title={label} aria-label={label} role="img">
              {t(kind === 'audio' ? 'playback.audioShort' : 'playback.videoShort')}
            </span>
          );
        })}
      </span>
      {state.error && <span className="remote-playback-error" role="alert">{state.error}</span>}
    </div>
  );
}
