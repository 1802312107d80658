/** The sign-in form. */
export function LoginForm(props: { nonce: string; next: string; error?: string | undefined }) {
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
          Password
          <input type="password" name="password" autocomplete="current-password" required autofocus />
        </label>
        <button type="submit" class="primary">
          Sign in
        </button>
      </form>
    </section>
  );
}

/** Shown instead of the UI until the owner has set a password on the server. */
export function SetPasswordFirst() {
  return (
    <section class="panel narrow">
      <h1>Set a password first</h1>
      <p>
        tidings has no owner password yet, so the web interface stays closed. On the server, in the same
        environment as <code>tidings serve</code> (same <code>TIDINGS_DATABASE_URL</code>), run:
      </p>
      <pre>
        <code>tidings password</code>
      </pre>
      <p>It asks for the password twice. From a script, pipe it in instead:</p>
      <pre>
        <code>printf '%s\n' "$PASSWORD" | tidings password</code>
      </pre>
      <p>Then reload this page.</p>
    </section>
  );
}
