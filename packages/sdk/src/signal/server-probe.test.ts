import { describe, expect, it } from 'vitest';
import { healthUrlOf } from './server-probe.js';

describe('the probe asks the signalling host itself', () => {
  it('maps the signalling URL to its health route (ws → http, wss → https), and nothing for an unreadable one', () => {
    expect(healthUrlOf('wss://rtc.example.com/signal')).toBe('https://rtc.example.com/healthz');
    expect(healthUrlOf('ws://127.0.0.1:8080/signal?x=1')).toBe('http://127.0.0.1:8080/healthz');
    expect(healthUrlOf('not a url')).toBeUndefined();
    expect(healthUrlOf('')).toBeUndefined();
  });
});
