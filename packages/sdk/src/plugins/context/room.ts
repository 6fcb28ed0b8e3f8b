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

/** What a plugin may do on the room's signalling channel. */
export interface PluginSignal {
  /** True while the client is in a room (commands need a joined session). */
  joined(): boolean;
  /**
   * Sends a command and resolves with the reply data; rejects with a PluginSignalFailure (the server's code,
   * or 0 when the channel is closed or the reply does not come within `timeoutMs`).
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
      if (!current) throw { code: 0, message: 'not in a room' } satisfies PluginSignalFailure;
      const send = current.request.bind(current) as (cmd: string, data: object, timeoutMs?: number) => Promise<unknown>;
      try {
        return await send(cmd, data, timeoutMs);
      } catch (error) {
        const code = typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : 0;
        throw { code, message: error instanceof Error ? error.message : String(error) } satisfies PluginSignalFailure;
      }
    },
  };
}
