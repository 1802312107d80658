/**
 * Every way a fetch can fail, with what it means and the message template shown to people.
 * The fetch layer fills `{placeholders}` (a missing value renders as nothing); the CLI, the web UI and the
 * tests share this table. Add a kind here before using it.
 */
export const FETCH_ERROR_KINDS = {
  // before any byte is sent
  invalid_url: { summary: 'the URL cannot be parsed', template: 'fetch: {url} is not a valid URL' },
  unsupported_scheme: {
    summary: 'only http and https URLs are fetched',
    template: 'fetch: {scheme} URLs are not fetched, only http and https ({url})',
  },
  private_address: {
    summary: 'the host resolves to a private or local address (SSRF guard)',
    template: 'fetch: refused to connect to {host}: {address} is a private or local address',
  },
  // network
  dns: {
    summary: 'the host name could not be resolved',
    template: 'fetch: could not resolve {host} ({detail})',
  },
  connection_refused: {
    summary: 'nothing listens on that port',
    template: 'fetch: {host} refused the connection',
  },
  connection_reset: {
    summary: 'the server closed the connection mid-request',
    template: 'fetch: {host} closed the connection unexpectedly',
  },
  tls: {
    summary: 'the TLS handshake or certificate failed',
    template: 'fetch: TLS error with {host}: {detail}',
  },
  timeout: {
    summary: 'the server did not answer in time',
    template: 'fetch: timed out after {seconds} s {phase} {host}',
  },
  aborted: { summary: 'the fetch was cancelled', template: 'fetch: the request to {host} was cancelled' },
  network: { summary: 'another network failure', template: 'fetch: network error with {host} ({detail})' },
  protocol: {
    summary: 'the server sent something that is not valid HTTP',
    template: 'fetch: {host} sent a malformed HTTP response ({detail})',
  },
  // the body
  too_large: {
    summary: 'the body is larger than the limit',
    template: 'fetch: the body exceeds {limit}{detail}',
  },
  content_encoding: {
    summary: 'the compressed body could not be decoded',
    template: 'fetch: could not decode the {encoding} body ({detail})',
  },
  // redirects
  redirect_loop: {
    summary: 'a redirect leads back to a URL already visited',
    template: 'fetch: redirect loop: {target} was already visited',
  },
  too_many_redirects: {
    summary: 'more redirects than the limit',
    template: 'fetch: more than {limit} redirects (the last to {target})',
  },
  bad_redirect: {
    summary: 'a redirect without a usable Location',
    template: 'fetch: the server answered {status} {statusText} {detail}',
  },
  // HTTP statuses
  not_found: {
    summary: 'the feed is not there (404)',
    template: 'fetch: the server answered {status} {statusText}',
  },
  forbidden: {
    summary: 'the server refuses access (401, 403)',
    template: 'fetch: the server answered {status} {statusText}',
  },
  bot_challenge: {
    summary: 'a bot-protection page answered instead of the feed',
    template:
      'fetch: the server answered {status} {statusText} with a bot challenge ({detail}) that a feed reader cannot pass',
  },
  rate_limited: {
    summary: 'too many requests (429)',
    template: 'fetch: the server answered {status} {statusText}{retry}',
  },
  unavailable: {
    summary: 'the server is temporarily unavailable (503)',
    template: 'fetch: the server answered {status} {statusText}{retry}',
  },
  http_client_error: {
    summary: 'another 4xx status',
    template: 'fetch: the server answered {status} {statusText}',
  },
  http_server_error: {
    summary: 'a 5xx status: the server failed',
    template: 'fetch: the server answered {status} {statusText}',
  },
  unexpected_status: {
    summary: 'a status a feed fetch does not expect (1xx, 300, 305)',
    template: 'fetch: the server answered {status} {statusText}',
  },
} as const satisfies Record<string, { summary: string; template: string }>;

export type FetchErrorKind = keyof typeof FETCH_ERROR_KINDS;
