import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { entryMediaOf, formatDuration, mediaKindOf, toEntryMedia } from './media.js';

describe('media', () => {
  it('keeps Media RSS content with numbers read, and reads it back from stored JSON', () => {
    const media = toEntryMedia({
      content: [
        { url: 'https://a.example/ep.mp3', type: 'audio/mpeg', duration: '754', fileSize: '1200000' },
      ],
      thumbnails: [{ url: 'https://a.example/t.jpg' }],
    });
    assert.deepEqual(media, {
      items: [{ url: 'https://a.example/ep.mp3', type: 'audio/mpeg', durationSeconds: 754, bytes: 1200000 }],
      thumbnail: 'https://a.example/t.jpg',
    });
    assert.deepEqual(entryMediaOf(JSON.parse(JSON.stringify({ media }))), media);
    assert.equal(toEntryMedia({ keywords: ['x'] }), undefined);
    assert.deepEqual(entryMediaOf({ media: { items: [{ url: 7 }, 'x'], thumbnail: 3 } }), { items: [] });
    assert.equal(entryMediaOf({}), undefined);
  });

  it('tells image, audio and video apart by type, medium, then extension; a player page is none', () => {
    assert.equal(mediaKindOf({ url: 'https://a.example/x', type: 'audio/mpeg' }), 'audio');
    assert.equal(mediaKindOf({ url: 'https://a.example/x', medium: 'video' }), 'video');
    assert.equal(mediaKindOf({ href: 'https://a.example/x.m4a?dl=1' }), 'audio');
    assert.equal(
      mediaKindOf({ url: 'https://youtube.com/v/x', type: 'application/x-shockwave-flash', medium: 'video' }),
      undefined,
    );
  });

  it('formats durations from seconds or clock strings', () => {
    assert.equal(formatDuration(754), '12:34');
    assert.equal(formatDuration('3723'), '1:02:03');
    assert.equal(formatDuration('1:02:03'), '1:02:03');
    assert.equal(formatDuration('soon'), undefined);
  });
});
