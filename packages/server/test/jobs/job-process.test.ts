import { readFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../support/engine-peers.js';
import { JobProcess } from '../../src/jobs/job-process.js';

const SPEC = { kind: 'relay' as const, width: 160, height: 90, fps: 5, videoBitrate: 100, gop: 2, audioBitrate: 32, audioSampleRate: 48000, audioChannels: 1 as const, background: 0 };

describe('the media job process', () => {
  it('38.low RTMP stream keys are not in the job\'s command line or environment (what `ps` shows any local user)', async () => {
    // An RTMP "server" that accepts and says nothing: the job stays up, connecting.
    const sockets = new Set<Socket>();
    const server = createServer((socket) => { sockets.add(socket); socket.on('error', () => undefined); });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const key = 'SECRET-STREAM-KEY-0123456789';
    const job = new JobProcess({ ...SPEC, outputs: [{ type: 'rtmp', url: `rtmp://127.0.0.1:${port}/live/${key}?txSecret=${key}` }] });
    try {
      const pid = job.pid!;
      const read = (what: string) => readFileSync(`/proc/${pid}/${what}`).toString('latin1');
      // Once the job has its spec, it dials the target: by then its command line and environment are final.
      await waitFor(() => sockets.size > 0, 10_000, 'the job dialled its target');
      expect(read('cmdline')).toContain('gst-job.py');
      expect(read('cmdline')).not.toContain(key);
      expect(read('environ')).not.toContain(key);
    } finally {
      await job.stop(2000);
      for (const socket of sockets) socket.destroy();
      server.close();
    }
  }, 20_000);
});
