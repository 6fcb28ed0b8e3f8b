import { describe, expect, it } from 'vitest';
import { validateTrackQuery } from './client.js';

describe('getVideoTrack / getAudioTrack query', () => {
  it('defaults to the local main stream, unprocessed', () => {
    expect(validateTrackQuery(undefined, 'getVideoTrack')).toEqual({ userId: '', streamType: 'main', processed: false });
    expect(validateTrackQuery('bob', 'getVideoTrack')).toEqual({ userId: 'bob', streamType: 'main', processed: false });
  });

  it('reads processed as the original does (truthy), beside userId and streamType', () => {
    expect(validateTrackQuery({ processed: true }, 'getVideoTrack')).toEqual({ userId: '', streamType: 'main', processed: true });
    expect(validateTrackQuery({ streamType: 'sub', processed: false }, 'getVideoTrack')).toEqual({ userId: '', streamType: 'sub', processed: false });
    expect(validateTrackQuery({ processed: 1 as unknown as boolean }, 'getVideoTrack').processed).toBe(true);
  });

  it('rejects a bad streamType with INVALID_PARAMETER', () => {
    expect(() => validateTrackQuery({ streamType: 'side' as 'main' }, 'getVideoTrack')).toThrow(expect.objectContaining({ code: 5000 }));
  });
});
