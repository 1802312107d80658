import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StoredFeed } from '../model/stored.js';
import { whyNotPolled } from './poll-feeds.js';

const RUN_STARTED_AT = '2026-03-01T12:00:00.000Z';

function feed(overrides: Partial<StoredFeed> = {}): StoredFeed {
  return {
    id: 3,
    url: 'https://example.org/feed.xml',
    originalUrl: 'https://example.org/feed.xml',
    errorCount: 0,
    nextCheckAt: '2026-03-01T11:00:00.000Z',
    paused: false,
    trustsValidators: false,
    pendingMoveCount: 0,
    diagnostics: [],
    createdAt: '2026-02-01T00:00:00.000Z',
    ...overrides,
  };
}

describe('whyNotPolled', () => {
  it('says a feed no channel follows is not polled, rather than blaming another process', () => {
    const unfollowed = feed({ unfollowedAt: '2026-02-20T08:00:00.000Z' });
    assert.equal(
      whyNotPolled(unfollowed, unfollowed, RUN_STARTED_AT, true),
      'feed 3 is followed by no channel since 2026-02-20, so it is not polled',
    );
  });

  it('still blames another process for a followed, due feed the run did not poll', () => {
    const due = feed();
    assert.equal(whyNotPolled(due, due, RUN_STARTED_AT, false), 'feed 3 was being polled by another process');
  });

  it('says nothing for a feed the run polled', () => {
    const polled = feed({ lastCheckedAt: '2026-03-01T12:00:01.000Z' });
    assert.equal(whyNotPolled(feed(), polled, RUN_STARTED_AT, false), undefined);
  });
});
