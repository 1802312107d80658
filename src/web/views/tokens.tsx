import type { StoredToken } from '../../store/index.js';
import { TOKEN_SCOPES } from '../../store/index.js';
import { Time } from './health.js';
import { ItemTable } from './item-table.js';
import { PostForm } from './layout.js';

export interface TokensProps {
  tokens: StoredToken[];
  csrf: string;
  now: Date;
  /** A token just created: shown this once, never again. */
  created?: { token: string; label?: string | undefined } | undefined;
  /** The Microsub endpoint's URL, for the client setup hint. */
  endpoint: string;
}

/** Microsub tokens: create (shown once) and revoke. */
export function TokensView(props: TokensProps) {
  return (
    <section class="panel wide">
      <h1>Tokens</h1>
      <p class="hint">
        Microsub clients use a token to reach your endpoint at <code>{props.endpoint}</code>. Only a hash of
        each token is stored.
      </p>
      {props.created && (
        <div class="created-token" role="status">
          <p>
            Your new token{props.created.label ? ` for ${props.created.label}` : ''}. Copy it now: it will not
            be shown again.
          </p>
          <input type="text" readonly value={props.created.token} aria-label="New token" data-token />
        </div>
      )}
      <h2>New token</h2>
      <NewTokenForm csrf={props.csrf} />
      <h2>Tokens</h2>
      <TokenTable {...props} />
    </section>
  );
}

function TokenTable(props: TokensProps) {
  return (
    <ItemTable
      columns={['Label', 'Scopes', 'Created', 'Last used', '']}
      count={props.tokens.length}
      empty="No tokens yet."
    >
      {props.tokens.map((token) => (
        <tr data-token-row={String(token.id)}>
          <td>{token.label ?? <span class="muted">no label</span>}</td>
          <td>{token.scope}</td>
          <td>
            <Time iso={token.createdAt} now={props.now} />
          </td>
          <td>
            <Time iso={token.lastUsedAt} now={props.now} />
          </td>
          <td>
            {token.revokedAt ? (
              <span class="muted">revoked</span>
            ) : (
              <PostForm
                action={`/tokens/${token.id}/revoke`}
                csrf={props.csrf}
                class="inline"
                dataAction="confirm"
              >
                <button
                  type="submit"
                  class="danger"
                  data-confirm="Revoke this token? Clients using it stop working."
                >
                  Revoke
                </button>
              </PostForm>
            )}
          </td>
        </tr>
      ))}
    </ItemTable>
  );
}

/** Label and scopes of a new token (every scope ticked: what Microsub clients ask for). */
function NewTokenForm(props: { csrf: string }) {
  return (
    <PostForm action="/tokens" csrf={props.csrf} class="stack">
      <label>
        Label <input type="text" name="label" maxlength={200} placeholder="e.g. Monocle on my phone" />
      </label>
      <fieldset class="row">
        <legend>Scopes</legend>
        {TOKEN_SCOPES.map((scope) => (
          <label>
            <input type="checkbox" name="scope" value={scope} checked /> {scope}
          </label>
        ))}
      </fieldset>
      <button type="submit" class="primary">
        Create token
      </button>
    </PostForm>
  );
}
