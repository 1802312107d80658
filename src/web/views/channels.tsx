import { count } from './format.js';
import { PostForm } from './layout.js';

export interface ChannelRow {
  uid: string;
  name: string;
  unread: number;
  feeds: number;
}

/** The channels admin: rename, reorder with up/down buttons, delete, create. */
export function ChannelsView(props: { channels: ChannelRow[]; csrf: string }) {
  const movable = props.channels.filter((ch) => ch.uid !== 'notifications');
  return (
    <section class="panel">
      <h1>Channels</h1>
      <p class="hint">
        Channels are folders of subscriptions; the reader's sidebar shows them in this order. Notifications
        always comes first.
      </p>
      <ol class="channel-list" data-channel-list>
        {props.channels.map((ch) => (
          <ChannelItem
            channel={ch}
            csrf={props.csrf}
            first={ch.uid === movable[0]?.uid}
            last={ch.uid === movable[movable.length - 1]?.uid}
          />
        ))}
      </ol>
      <h2>New channel</h2>
      <PostForm action="/channels" csrf={props.csrf} class="row">
        <input
          type="text"
          name="name"
          required
          maxlength={200}
          aria-label="Channel name"
          placeholder="Name"
        />
        <button type="submit" class="primary">
          Create
        </button>
      </PostForm>
    </section>
  );
}

function ChannelItem(props: { channel: ChannelRow; csrf: string; first: boolean; last: boolean }) {
  const { channel, csrf } = props;
  const base = `/channels/${encodeURIComponent(channel.uid)}`;
  const isSpecial = channel.uid === 'notifications';
  return (
    <li class="channel-row" data-channel-row={channel.uid}>
      <PostForm action={`${base}/rename`} csrf={csrf} class="row grow">
        <input type="text" name="name" value={channel.name} required maxlength={200} aria-label="Name" />
        <button type="submit">Rename</button>
      </PostForm>
      <span class="muted">
        {count(channel.feeds, 'feed', 'feeds')} · {channel.unread} unread
      </span>
      {!isSpecial && (
        <span class="row">
          <PostForm action={`${base}/move`} csrf={csrf} class="inline">
            <input type="hidden" name="direction" value="up" />
            <button
              type="submit"
              disabled={props.first}
              aria-label={`Move ${channel.name} up`}
              data-move="up"
            >
              ↑
            </button>
          </PostForm>
          <PostForm action={`${base}/move`} csrf={csrf} class="inline">
            <input type="hidden" name="direction" value="down" />
            <button
              type="submit"
              disabled={props.last}
              aria-label={`Move ${channel.name} down`}
              data-move="down"
            >
              ↓
            </button>
          </PostForm>
          <PostForm action={`${base}/delete`} csrf={csrf} class="inline" dataAction="confirm">
            <button
              type="submit"
              class="danger"
              data-confirm={`Delete the channel ${channel.name} and its subscriptions?`}
            >
              Delete
            </button>
          </PostForm>
        </span>
      )}
    </li>
  );
}
