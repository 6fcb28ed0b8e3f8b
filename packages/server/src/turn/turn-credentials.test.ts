import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { turnCredential, turnIceServers } from './turn-credentials.js';

describe('TURN REST credentials (coturn use-auth-secret)', () => {
  it('username is expiry:userId and the password is base64 HMAC-SHA1 of it', () => {
    const { username, credential } = turnCredential('s3cret-s3cret', 'alice', 1_700_000_000.7);
    expect(username).toBe('1700000000:alice');
    expect(credential).toBe(createHmac('sha1', 's3cret-s3cret').update('1700000000:alice').digest('base64'));
  });

  it('hands out the configured URLs with a credential expiring ttlSeconds from now, and nothing without TURN', () => {
    const [server] = turnIceServers({ urls: ['turn:127.0.0.1:3478'], secret: 'abcdefgh', ttlSeconds: 600 }, 'bob', 1_000_000);
    expect(server.urls).toEqual(['turn:127.0.0.1:3478']);
    expect(server.username).toBe(`${1000 + 600}:bob`);
    expect(turnIceServers(undefined, 'bob')).toEqual([]);
  });
});
