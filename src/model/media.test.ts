import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  entryMediaOf,
  formatDuration,
  isPlayerPage,
  mediaKindOf,
  pictureKey,
  pictureWidthOf,
  plausibleBytes,
  toEntryMedia,
} from './media.js';

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

  it('takes a page with a player for no media, whatever the feed says; its files stay media', () => {
    for (const url of [
      'https://www.youtube.com/embed/abc123',
      'https://youtu.be/abc123',
      'https://m.youtube.com/watch?v=abc123',
      'https://vimeo.com/12345',
      'https://example.com/player.html?id=3',
    ]) {
      assert.equal(isPlayerPage(url), true, url);
      assert.equal(mediaKindOf({ url, medium: 'video' }), undefined, url);
      assert.equal(mediaKindOf({ url, type: 'video/mp4' }), undefined, url);
    }
    assert.equal(isPlayerPage('https://player.vimeo.com/external/1.hd.mp4?s=x'), false);
    assert.equal(mediaKindOf({ url: 'https://player.vimeo.com/external/1.hd.mp4?s=x' }), 'video');
    assert.equal(mediaKindOf({ url: 'https://cdn.example/ep', type: 'audio/mpeg' }), 'audio');
    assert.equal(isPlayerPage('not a url'), false);
  });

  it('reads lengths under 1 KiB as placeholders', () => {
    for (const placeholder of ['0', '1', '-1', 123, '', 'unknown', undefined])
      assert.equal(plausibleBytes(placeholder), undefined, String(placeholder));
    assert.equal(plausibleBytes('12345678'), 12345678);
    assert.equal(plausibleBytes(2048), 2048);
  });

  it('gives the URLs of one picture at different sizes one key, and reads the width they name', () => {
    const guardian = (w: number) =>
      `https://i.guim.co.uk/img/media/ab/0_0_5000_3000/master/5000.jpg?width=${w}&quality=85&auto=format&fit=max&s=sig${w}`;
    assert.equal(pictureKey(guardian(140)), pictureKey(guardian(460)));
    assert.equal(pictureWidthOf(guardian(460)), 460);
    const wp = 'https://blog.example/wp-content/uploads/2026/01/harbour';
    assert.equal(pictureKey(`${wp}-1024x683.jpg`), pictureKey(`${wp}.jpg`));
    assert.equal(pictureKey(`${wp}@2x.jpg`), pictureKey(`${wp}.jpg`));
    assert.equal(pictureWidthOf(`${wp}-1024x683.jpg`), 1024);
    assert.equal(pictureWidthOf(`${wp}.jpg`), Number.POSITIVE_INFINITY);
    assert.equal(pictureWidthOf('https://i0.wp.com/a.example/p.jpg?resize=300%2C200'), 300);
    // different pictures keep different keys
    assert.notEqual(
      pictureKey('https://a.example/image.php?id=1'),
      pictureKey('https://a.example/image.php?id=2'),
    );
    assert.notEqual(pictureKey(`${wp}.jpg`), pictureKey(`${wp}-2.jpg`));
  });
});
