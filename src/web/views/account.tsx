import { PostForm } from './layout.js';

/** The signed-in user's own page: who they are, and their password. */
export function AccountView(props: {
  name: string;
  isAdmin: boolean;
  csrf: string;
  error?: string | undefined;
}) {
  return (
    <section class="panel narrow">
      <h1>Your account</h1>
      <p>
        Signed in as <strong data-account-name>{props.name}</strong>
        {props.isAdmin ? ', an admin' : ''}.
      </p>
      <h2>Change your password</h2>
      <p class="hint">Your other browsers and devices are signed out; this one stays signed in.</p>
      {props.error && (
        <p class="error" role="alert">
          {props.error}
        </p>
      )}
      <PostForm action="/account/password" csrf={props.csrf} class="stack">
        <input type="text" name="username" value={props.name} autocomplete="username" hidden readonly />
        <label>
          Current password
          <input type="password" name="current" required autocomplete="current-password" />
        </label>
        <label>
          New password
          <input type="password" name="password" required minlength={8} autocomplete="new-password" />
        </label>
        <label>
          New password again
          <input type="password" name="again" required minlength={8} autocomplete="new-password" />
        </label>
        <button type="submit" class="primary">
          Change password
        </button>
      </PostForm>
    </section>
  );
}
