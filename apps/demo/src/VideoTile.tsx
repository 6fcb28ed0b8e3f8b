import type { ReactNode, Ref } from 'react';
import { Icon } from './Icon';

export interface VideoTileProps {
  /** The name shown on the tile (the userId). */
  readonly name: string;
  /** A short tag beside the name, e.g. `You`. */
  readonly tag?: string;
  /** The video plays: hides the camera-off placeholder. */
  readonly videoOn: boolean;
  /** Text of the placeholder while there is no video. */
  readonly placeholder: string;
  /** Whether sound comes from this participant (shows a muted badge when false). */
  readonly audioOn: boolean;
  /** Receives the element handed to the SDK as `view`; the SDK owns its children. */
  readonly viewRef: Ref<HTMLDivElement>;
  readonly local?: boolean;
  readonly tileTestId: string;
  readonly nameTestId: string;
  readonly videoTestId: string;
  readonly userId?: string;
  /** Extra controls in the tile's corner. */
  readonly actions?: ReactNode;
}

function initials(name: string): string {
  const letters = name.replace(/^user[_-]/i, '').replace(/[^a-z0-9]/gi, '');
  return (letters.slice(0, 2) || '?').toUpperCase();
}

/** One participant: the SDK's video view, a placeholder over it when there is no video, a name label. */
export function VideoTile(props: VideoTileProps) {
  const { name, tag, videoOn, placeholder, audioOn, viewRef, local, actions } = props;
  return (
    <article
      className={`tile${local ? ' tile-local' : ''}${videoOn ? ' has-video' : ''}`}
      data-testid={props.tileTestId}
      data-user-id={props.userId}
      data-video={videoOn ? 'on' : 'off'}
      aria-label={tag ? `${name} (${tag})` : name}
    >
      <div className="tile-video" ref={viewRef} data-testid={props.videoTestId} />
      <div className="tile-placeholder" hidden={videoOn} data-testid="video-placeholder">
        <span className="avatar" aria-hidden="true">
          {initials(name)}
        </span>
        <span className="placeholder-text">
          <Icon name="camera-off" />
          {placeholder}
        </span>
      </div>
      <div className="tile-label">
        {!audioOn && (
          <span className="badge-muted" title="Muted" role="img" aria-label="Muted">
            <Icon name="mic-off" />
          </span>
        )}
        <span className="tile-name" data-testid={props.nameTestId}>
          {name}
        </span>
        {tag && <span className="tile-tag">{tag}</span>}
      </div>
      {actions && <div className="tile-actions">{actions}</div>}
    </article>
  );
}
