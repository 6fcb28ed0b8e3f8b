import { autoplayDialog } from './autoplay-dialog-loader.js';
import { resumeAudioContext } from './audio-player.js';

/** A player the browser refused to start. */
export interface BlockedPlayer {
  userId: string;
  mediaType: 'audio' | 'video' | 'screen';
  resume: () => Promise<void>;
}

/**
 * What happens when the browser blocks playback (SPEC §2): with the dialog on, the autoplay dialog,
 * whose Resume (or backdrop) resumes every blocked player; with it off, the next click anywhere on
 * the page resumes them. Either way the client emits autoplay-failed with a resume().
 */
export class AutoplayGuard {
  readonly #blocked = new Set<BlockedPlayer>();
  readonly #dialogEnabled: () => boolean;
  readonly #emit: (event: BlockedPlayer) => void;
  #clickListener: (() => void) | undefined;

  constructor(dialogEnabled: () => boolean, emit: (event: BlockedPlayer) => void) {
    this.#dialogEnabled = dialogEnabled;
    this.#emit = emit;
  }

  /** A player was refused. */
  blocked(player: BlockedPlayer): void {
    this.#blocked.add(player);
    this.#emit({
      userId: player.userId,
      mediaType: player.mediaType,
      resume: () => {
        this.#blocked.delete(player);
        return player.resume();
      },
    });
    if (typeof document === 'undefined') return;
    if (this.#dialogEnabled()) {
      autoplayDialog.show((resumed) => (resumed ? this.resumeAll() : this.#armClick()));
    } else {
      this.#armClick();
    }
  }

  /** The next click anywhere on the page resumes the blocked players. */
  #armClick(): void {
    if (this.#clickListener || this.#blocked.size === 0) return;
    const listener = () => this.resumeAll();
    this.#clickListener = listener;
    document.addEventListener('click', listener, true);
  }

  /** Resumes every blocked player (from a user gesture). */
  resumeAll(): void {
    resumeAudioContext();
    const players = [...this.#blocked];
    this.#blocked.clear();
    this.#removeClick();
    for (const player of players) void player.resume();
  }

  /** Forgets players (they stopped). */
  forget(userId: string): void {
    for (const player of [...this.#blocked]) if (player.userId === userId) this.#blocked.delete(player);
    if (this.#blocked.size === 0) this.#removeClick();
  }

  #removeClick(): void {
    if (!this.#clickListener) return;
    document.removeEventListener('click', this.#clickListener, true);
    this.#clickListener = undefined;
  }
}
