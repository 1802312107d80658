import type { Params } from './params.js';

/**
 * The scopes each request needs; any one of the listed scopes suffices. The Microsub spec names the
 * scopes (read, follow, mute, block, channels) but not which action needs which, so tidings follows
 * Aperture, the reference server, where it is clear:
 *
 * - read: listing channels, reading timelines, search, preview and events;
 * - channels: creating, renaming, ordering and deleting channels, and `timeline` `remove` (it changes
 *   what a channel holds for good);
 * - mark_read and mark_unread: `read` or `channels` (Aperture accepts `channels`, and a token that can
 *   read a timeline should be able to keep its place in it);
 * - follow: following and unfollowing; listing what a channel follows needs `read` or `follow`;
 * - mute, block: changing and listing those rules (`read` lists them as well);
 * - search for feeds to follow (no channel) and preview: `read` or `follow`, since clients offer them
 *   while following; searching entries (with a channel) needs `read`.
 */
export function requiredScopes(
  action: string,
  httpMethod: 'GET' | 'POST',
  params: Params,
): readonly string[] {
  const method = params.one('method');
  switch (action) {
    case 'channels':
      return httpMethod === 'GET' ? ['read'] : ['channels'];
    case 'timeline':
      if (httpMethod === 'GET') return ['read'];
      return method === 'remove' ? ['channels'] : ['read', 'channels'];
    case 'follow':
      return httpMethod === 'GET' ? ['read', 'follow'] : ['follow'];
    case 'unfollow':
      return ['follow'];
    case 'mute':
    case 'unmute':
      return httpMethod === 'GET' && action === 'mute' ? ['read', 'mute'] : ['mute'];
    case 'block':
    case 'unblock':
      return httpMethod === 'GET' && action === 'block' ? ['read', 'block'] : ['block'];
    case 'search':
      return params.one('channel') === undefined ? ['read', 'follow'] : ['read'];
    case 'preview':
      return ['read', 'follow'];
    default:
      return ['read'];
  }
}
