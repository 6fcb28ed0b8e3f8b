import WebSocket from 'ws';

/**
 * Resolves with the close code of `socket` once it has closed (`knownCode`, the code its owner recorded, when it
 * is closed already; 0 if none was); rejects after `timeoutMs`.
 */
export function socketClosed(socket: WebSocket, knownCode: number | undefined, timeoutMs = 10_000): Promise<number> {
  if (socket.readyState === WebSocket.CLOSED) return Promise.resolve(knownCode ?? 0);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for the close (${timeoutMs} ms)`)), timeoutMs);
    socket.once('close', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}
