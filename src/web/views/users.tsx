import type { StoredUser } from '../../store/index.js';
import { count } from './format.js';
import { ItemTable } from './item-table.js';
import { PostForm } from './layout.js';

export interface UsersProps {
  users: StoredUser[];
  /** The admin looking: they cannot remove themselves. */
  selfId: number;
  csrf: string;
  error?: string | undefined;
  /** What the add form had, shown again after a refusal (never the password). */
  typed?: { name: string; isAdmin: boolean } | undefined;
}

/** The admins' page: every user with their subscriptions, and forms to add, reset and remove. */
export function UsersView(props: UsersProps) {
  return (
    <section class="panel wide">
      <h1>Users</h1>
      <p class="hint">
        Everyone reads on their own: their channels, subscriptions, read and saved entries, tokens and app
        passwords are theirs alone. A feed several people follow is fetched once.
      </p>
      {props.error && (
        <p class="error" role="alert">
          {props.error}
        </p>
      )}
      <ItemTable
        columns={['Name', 'Admin', 'Subscriptions', 'New password', '']}
        count={props.users.length}
        class="users"
      >
        {props.users.map((user) => (
          <UserRow user={user} isSelf={user.id === props.selfId} csrf={props.csrf} />
        ))}
      </ItemTable>
      <h2>Add a user</h2>
      <PostForm action="/admin/users" csrf={props.csrf} class="stack">
        <label>
          Name{' '}
          <input
            type="text"
            name="name"
            required
            maxlength={64}
            autocapitalize="none"
            spellcheck={false}
            value={props.typed?.name ?? ''}
          />
          <span class="muted small"> letters, digits, dots, dashes, underscores</span>
        </label>
        <label>
          Password{' '}
          <input type="password" name="password" required minlength={8} autocomplete="new-password" />
        </label>
        <label>
          <input type="checkbox" name="admin" value="1" checked={props.typed?.isAdmin === true} /> Admin (may
          manage users and see every feed)
        </label>
        <button type="submit" class="primary">
          Add user
        </button>
      </PostForm>
    </section>
  );
}

function UserRow(props: { user: StoredUser; isSelf: boolean; csrf: string }) {
  const { user } = props;
  return (
    <tr data-user={user.name}>
      <td>
        {user.name}
        {props.isSelf && <span class="muted small"> (you)</span>}
      </td>
      <td>{user.isAdmin ? 'admin' : ''}</td>
      <td class="num">{user.subscriptions}</td>
      <td>
        <PostForm action={`/admin/users/${user.id}/password`} csrf={props.csrf} class="inline">
          <input
            type="password"
            name="password"
            required
            minlength={8}
            autocomplete="new-password"
            aria-label={`New password for ${user.name}`}
          />{' '}
          <button type="submit">Reset</button>
        </PostForm>
      </td>
      <td>
        {!props.isSelf && (
          <PostForm action={`/admin/users/${user.id}/remove`} csrf={props.csrf} class="inline">
            <button type="submit" class="danger">
              Remove…
            </button>
          </PostForm>
        )}
      </td>
    </tr>
  );
}

/** Asks once more before a user and everything of theirs go. */
export function RemoveUserView(props: { user: StoredUser; csrf: string }) {
  const { user } = props;
  return (
    <section class="panel narrow">
      <h1>Remove {user.name}?</h1>
      <p>
        {user.name}'s channels, {count(user.subscriptions, 'subscription', 'subscriptions')}, read and saved
        entries, tokens and app password are deleted, and {user.name} is signed out everywhere. Feeds nobody
        else follows stop being fetched. This cannot be undone.
      </p>
      <PostForm action={`/admin/users/${user.id}/remove`} csrf={props.csrf} class="stack">
        <input type="hidden" name="confirm" value="yes" />
        <button type="submit" class="danger">
          Remove {user.name}
        </button>
      </PostForm>
      <p>
        <a href="/admin/users">Keep {user.name}</a>
      </p>
    </section>
  );
}
