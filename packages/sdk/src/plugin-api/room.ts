/**
 * The signalling part of the plugin context: plugins that drive server features (CDN publishing, mix
 * transcoding) send their own commands on the room's WebSocket, beside the core's.
 */

/** A refusal from the server: its reply code and message. */
export interface PluginSignalFailure {
  /** The server's reply code; 0 when the channel failed (closed, timed out). */
  code: number;
  message: string;
}

/** The Error a plugin's signalling request rejects with (a PluginSignalFailure that is also an Error). */
export class PluginSignalError extends Error implements PluginSignalFailure {
  override readonly name = 'PluginSignalError';
  readonly code: number;

  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

/** What a plugin may do on the room's signalling channel. */
export interface PluginSignal {
  /** True while the client is in a room (commands need a joined session). */
  joined(): boolean;
  /**
   * Sends a command and resolves with the reply data; rejects with a PluginSignalError, an Error whose `code` is
   * the server's reply code, or 0 when the channel is closed or the reply does not come within `timeoutMs`.
   */
  request(cmd: string, data: object, timeoutMs?: number): Promise<unknown>;
}

/** What the core's signalling channel offers (SignalChannel, loosely typed for commands outside CommandMap). */
interface Channel {
  request(cmd: never, data: never, timeoutMs?: number): Promise<unknown>;
}

/** Builds the plugin signal over the room's current channel (undefined when not joined). */
export function pluginSignal(channel: () => Channel | undefined): PluginSignal {
  return {
    joined: () => channel() !== undefined,
    async request(cmd, data, timeoutMs) {
      const current = channel();
      if (!current) throw new PluginSignalError(0, 'not in a room');
      const send = current.request.bind(current) as (cmd: string, data: object, timeoutMs?: number) => Promise<unknown>;
      try {
        return await send(cmd, data, timeoutMs);
      } catch (error) {
        const code = typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : 0;
        throw new PluginSignalError(code, error instanceof Error ? error.message : String(error));
      }
    },
  };
}
