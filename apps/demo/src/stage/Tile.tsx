import { useEffect, useRef, type CSSProperties, type ReactNode, type Ref } from 'react';
import { initials } from '../initials';
import { Icon } from '../Icon';
import { useT } from '../i18n';
import { QualityBars } from '../NetworkBars';
import type { TileRect } from './layout';

export interface TileProps {
  /** The name shown on the tile. */
  readonly name: string;
  /** A short tag beside the name, e.g. `You` or `Screen`. */
  readonly tag?: string;
  readonly kind: 'camera' | 'screen';
  /** The video plays: hides the placeholder. */
  readonly videoOn: boolean;
  readonly placeholder: string;
  /** Whether sound comes from this participant (a crossed microphone when false). */
  readonly audioOn: boolean;
  /** 0–100 from the audio-volume event. */
  readonly volume: number;
  /** The loudest speaker right now: the tile gets a ring. */
  readonly activeSpeaker: boolean;
  /** Network quality 0–6 (0 unknown); null hides the bars. */
  readonly quality: number | null;
  readonly qualityLabel: string;
  /** Receives the element handed to the SDK as `view`; the SDK owns its children. */
  readonly viewRef: Ref<HTMLDivElement>;
  /** Where the stage puts the tile; null hides it (another page, or no room in the strip). */
  readonly rect: TileRect | null;
  readonly pinned: boolean;
  readonly onPin: () => void;
  readonly tileTestId: string;
  readonly nameTestId: string;
  readonly videoTestId: string;
  readonly userId?: string;
  /** Controls shown in the tile's top corner on hover or keyboard focus. */
  readonly menu?: ReactNode;
  /** Statistics overlay (shown when "stats for nerds" is on). */
  readonly stats?: ReactNode;
  /** Told the tile's width when it changes (big/small stream by tile size). */
  readonly onWidth?: (width: number) => void;
}

/**
 * One video on the stage, absolutely placed by the stage's layout: the SDK's view, a placeholder when
 * there is no video, a name plate with the microphone state at the bottom left, network bars at the
 * bottom right and the tile's controls at the top right, so that none covers another.
 */
export function Tile(props: TileProps) {
  const { name, tag, kind, videoOn, placeholder, audioOn, volume, activeSpeaker, rect, pinned, onPin, onWidth } = props;
  const t = useT();
  const width = rect?.width ?? 0;
  const reported = useRef(-1);
  useEffect(() => {
    if (rect && reported.current !== width) {
      reported.current = width;
      onWidth?.(width);
    }
  }, [rect, width, onWidth]);

  const style: CSSProperties = rect
    ? { transform: `translate(${rect.x}px, ${rect.y}px)`, width: rect.width, height: rect.height }
    : {};
  const speaking = audioOn && volume >= 8;
  const label = tag ? `${name} (${tag})` : name;
  return (
    <article
      className={`tile tile-${kind}${videoOn ? ' has-video' : ''}${activeSpeaker ? ' is-speaker' : ''}${pinned ? ' is-pinned' : ''}`}
      style={style}
      hidden={!rect}
      data-testid={props.tileTestId}
      data-user-id={props.userId}
      data-video={videoOn ? 'on' : 'off'}
      data-active-speaker={activeSpeaker ? 'true' : 'false'}
      data-pinned={pinned ? 'true' : 'false'}
      aria-label={label}
    >
      <div className="tile-video" ref={props.viewRef} data-testid={props.videoTestId} />
      <div className="tile-placeholder" hidden={videoOn} data-testid="video-placeholder">
        <span className="avatar" aria-hidden="true">{initials(name)}</span>
        <span className="visually-hidden">{placeholder}</span>
      </div>
      <div className="tile-menu">
        {props.menu}
        <button type="button" className="tile-button" data-testid="pin-tile" aria-pressed={pinned}
          aria-label={pinned ? t('people.unpin', { userId: label }) : t('people.pin', { userId: label })}
          title={pinned ? t('tile.unpinTitle') : t('tile.pinTitle')} onClick={onPin}>
          <Icon name="pin" />
        </button>
      </div>
      <div className="tile-bottom">
        <span className="nameplate">
          {kind === 'camera' && <span className={`mic-state${speaking ? ' is-speaking' : ''}`} data-testid="tile-mic" data-state={audioOn ? 'on' : 'off'}
            role="img" aria-label={audioOn ? t('people.micOn') : t('people.micOff')}>
            <Icon name={audioOn ? 'mic' : 'mic-off'} />
          </span>}
          <span className="tile-name" data-testid={props.nameTestId}>{name}</span>
          {tag && <span className="tile-tag">{tag}</span>}
        </span>
        {props.quality !== null && <QualityBars quality={props.quality} label={props.qualityLabel} />}
      </div>
      {props.stats}
    </article>
  );
}
