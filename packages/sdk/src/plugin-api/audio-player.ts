/**
 * The AudioPlayer plugin's public types (5.18; the plugin is plugins/audio-player/): its options, and the player
 * startPlugin('AudioPlayer') resolves with. They live on the core's side because the client's startPlugin /
 * updatePlugin overloads name them (the core never imports a plugin).
 */

/** PCM latency control: with `discardAll`, data waiting longer than `maxDelay` ms (300) is dropped when more comes. */
export interface RealtimeOption {
  maxDelay?: number;
  discardAll?: boolean;
}

/** The callbacks a player calls (times in seconds, to 2 decimals). */
export interface AudioPlayerCallbacks {
  /** PCM only: an input() that could not be used, with the input's number (0 for the first input of the player). */
  onInputError?: (errMsg: string, inputIndex: number) => void;
  /** url: the file's duration once known; pcm: the length of what was fed, at each change. */
  onDurationChange?: (duration: number) => void;
  /** url: (position, duration); pcm: (played, fed so far). */
  onTimeUpdate?: (currentTime: number, durationTime: number) => void;
  /** url: the file played to its end; pcm: what was fed has all been played (or stop()). */
  onEnded?: () => void;
}

/** startPlugin('AudioPlayer', …): one player, named by `id` (a new start with the same id replaces it). */
export interface AudioPlayerOptions extends AudioPlayerCallbacks {
  id: string;
  /** 'pcm', 'url' or 'track' (the plugin's AudioSourceType members are these strings). */
  sourceType: 'pcm' | 'url' | 'track';
  /** sourceType 'url': an mp3, ogg, wav or flac file, or a blob: / data: URL. */
  url?: string;
  /** sourceType 'track': the audio track to play. */
  track?: MediaStreamTrack;
  /** Also mixed into what the microphone publishes (default false: heard locally only). */
  publish?: boolean;
  /** PCM only (default true): pause and stop drop what was fed; false keeps it (stop then start replays it). */
  realtime?: boolean | RealtimeOption;
  /** url only. */
  loop?: boolean;
  /** url and track: 0–1 (default 1). */
  volume?: number;
  /** url only (default 1). */
  playbackRate?: number;
  /** PCM only: the channel count of interleaved input (default 1), mixed down to mono (the original's samples pass it). */
  channels?: number;
}

/** updatePlugin('AudioPlayer', …): the fields to change on player `id`. */
export interface AudioPlayerUpdateOptions extends AudioPlayerCallbacks {
  id: string;
  publish?: boolean;
  realtime?: boolean | RealtimeOption;
  loop?: boolean;
  volume?: number;
  playbackRate?: number;
  /** url only: moves to this position (seconds). */
  seekFrom?: number;
  /** url only. @deprecated the player's pause() / resume() / stop(). */
  operation?: 'pause' | 'resume' | 'stop';
  channels?: number;
}

/** stopPlugin('AudioPlayer', …): the player to destroy, or `'*'` for all of them. */
export interface AudioPlayerStopOptions {
  id: string;
}

/** A player of the AudioPlayer plugin, what startPlugin('AudioPlayer') resolves with (5.18's AudioPlayerContext). */
export interface AudioPlayerContext {
  readonly id: string;
  readonly sourceType: 'pcm' | 'url' | 'track';
  /** Seconds played (2 decimals). */
  readonly currentTime: number;
  /** url: the file's duration; pcm: what was fed (seconds, 2 decimals). */
  readonly duration: number;
  readonly isStop: boolean;
  readonly isPause: boolean;
  readonly isPlayEnd: boolean;
  /** 0–1: url and track players. */
  volume: number;
  /** url players. */
  loop: boolean;
  /** url players. */
  playbackRate: number;
  /** Also heard by the room (mixed into the published microphone); switching is immediate. */
  publish: boolean;
  /** pcm players: samples at `sampleRate`, before start() too. */
  input(pcmData: Float32Array | Int16Array, sampleRate: number): void;
  /** pcm players: forgets what was fed and not played yet. */
  clearInput(): void;
  start(): Promise<void>;
  pause(): void;
  resume(): void;
  stop(): void;
  /** url players: moves to `time` seconds. */
  seek(time: number): void;
}
