import { autoplayDialog } from './autoplay-dialog-loader.js';
import { resumeAudioContext } from './audio-player.js';

/** A player the browser refused to start. */
export interface BlockedPlayer {
  userId: string;
  mediaType: 'audio' | 'video' | 'screen';
  resume: () => Promise<void>;
}

/**
 * What happens when the browser blocks playback (docs/behaviour.md §2): with the dialog on, the autoplay dialog,
 * whose Resume (or backdrop) resumes every blocked player; with it off, the next click anywhere on
 * the page resumes them. Either way the client emits autoplay-failed with a resume().
 */
export class AutoplayGuard {
  private readonly _blocked = new Set<BlockedPlayer>();
  private readonly _dialogEnabled: () => boolean;
  private readonly _emit: (event: BlockedPlayer) => void;
  private _clickListener: (() => void) | undefined;

  constructor(dialogEnabled: () => boolean, emit: (event: BlockedPlayer) => void) {
    this._dialogEnabled = dialogEnabled;
    this._emit = emit;
  }

  /** A player was refused. */
  blocked(player: BlockedPlayer): void {
    this._blocked.add(player);
    this._emit({
      userId: player.userId,
      mediaType: player.mediaType,
      resume: () => {
        this._blocked.delete(player);
        return player.resume();
      },
    });
    if (typeof document === 'undefined') return;
    if (this._dialogEnabled()) {
      autoplayDialog.show((resumed) => (resumed ? this.resumeAll() : this._armClick()));
    } else {
      this._armClick();
    }
  }

  /** The next click anywhere on the page resumes the blocked players. */
  private _armClick(): void {
    if (this._clickListener || this._blocked.size === 0) return;
    const listener = () => this.resumeAll();
    this._clickListener = listener;
    document.addEventListener('click', listener, true);
  }

  /** Resumes every blocked player (from a user gesture). */
  resumeAll(): void {
    resumeAudioContext();
    const players = [...this._blocked];
    this._blocked.clear();
    this._removeClick();
    for (const player of players) void player.resume();
  }

  /** Forgets players (they stopped). */
  forget(userId: string): void {
    for (const player of [...this._blocked]) if (player.userId === userId) this._blocked.delete(player);
    if (this._blocked.size === 0) this._removeClick();
  }

  private _removeClick(): void {
    if (!this._clickListener) return;
    document.removeEventListener('click', this._clickListener, true);
    this._clickListener = undefined;
  }
}
