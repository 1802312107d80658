/**
 * The sign-in form: a name and a password. The name may be left empty while tidings has one user
 * (scripts that post only `password` keep working then).
 */
export function LoginForm(props: {
  nonce: string;
  next: string;
  error?: string | undefined;
  username?: string | undefined;
}) {
  return (
    <section class="panel narrow">
      <h1>Sign in</h1>
      {props.error && (
        <p class="error" role="alert">
          {props.error}
        </p>
      )}
      <form method="post" action="/login" class="stack">
        <input type="hidden" name="_csrf" value={props.nonce} />
        <input type="hidden" name="next" value={props.next} />
        <label>
          Name
          <input
            type="text"
            name="username"
            value={props.username ?? ''}
            autocomplete="username"
            autocapitalize="none"
            spellcheck={false}
            maxlength={64}
            autofocus={!props.username}
          />
        </label>
        <label>
          Password
          <input
            type="password"
            name="password"
            autocomplete="current-password"
            required
            autofocus={Boolean(props.username)}
          />
        </label>
        <button type="submit" class="primary">
          Sign in
        </button>
      </form>
    </section>
  );
}

/** Shown instead of the UI until some user has a password, set on the server. */
export function SetPasswordFirst() {
  return (
    <section class="panel narrow">
      <h1>Set a password first</h1>
      <p>
        tidings has no user with a password yet, so the web interface stays closed. On the server, in the same
        environment as <code>tidings serve</code> (same <code>TIDINGS_DATABASE_URL</code>), run:
      </p>
      <pre>
        <code>tidings password</code>
      </pre>
      <p>
        It creates the first user, an admin named <code>admin</code>, and asks for the password twice. To
        choose the name, run <code>tidings user add NAME</code> instead. From a script, pipe the password in:
      </p>
      <pre>
        <code>printf '%s\n' "$PASSWORD" | tidings user add NAME</code>
      </pre>
      <p>Then reload this page.</p>
    </section>
  );
}
