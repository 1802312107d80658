import { PostForm } from './layout.js';

export interface ApiAccessProps {
  csrf: string;
  /** The API user name, when an API password was set. */
  user?: string | undefined;
  /** The signed-in user's name: what the apps sign in with. */
  userName: string;
  /** Where the apps reach the Google Reader and Fever APIs. */
  greaderUrl: string;
  feverUrl: string;
}

/** The sync APIs for reading apps: the URLs to type into an app, and the API password (issue 15). */
export function ApiAccessView(props: ApiAccessProps) {
  return (
    <section class="panel wide" id="api">
      <h1>Reading apps</h1>
      <p class="hint">
        Apps such as NetNewsWire, Reeder, Read You, FocusReader and Fluent Reader sync through the Google
        Reader API at <code>{props.greaderUrl}</code> (choose "FreshRSS" or "Google Reader API") or the Fever
        API at <code>{props.feverUrl}</code>.{' '}
        {props.user ? (
          <>
            The API user is <strong>{props.user}</strong>.
          </>
        ) : (
          'No API password is set yet: apps cannot sign in.'
        )}
      </p>
      <p class="hint">
        Fever's key is the MD5 of "user:password" and works like the password itself: use an API password that
        you use nowhere else. Setting a new one signs every app out.
      </p>
      <PostForm action="/tokens/api-password" csrf={props.csrf} class="stack">
        <label>
          User{' '}
          <input
            type="text"
            name="user"
            required
            maxlength={100}
            value={props.user ?? props.userName}
            autocomplete="username"
          />
        </label>
        <label>
          API password{' '}
          <input type="password" name="password" required minlength={8} autocomplete="new-password" />
        </label>
        <button type="submit" class="primary">
          {props.user ? 'Replace API password' : 'Set API password'}
        </button>
      </PostForm>
    </section>
  );
}
