import { type Dispatcher, request } from 'undici';
import {
  checkTarget,
  DEFAULT_USER_AGENT,
  FETCH_DEFAULTS,
  FetchError,
  fetchMessageAs,
  getSharedAgent,
  oneLineMessage,
  readAnswerSample,
} from '../../fetch/index.js';

/** What a hub said to a subscription request. */
export type HubAnswer = { ok: true; status: number; hubUrl: string } | { ok: false; message: string };

export interface HubRequestOptions {
  allowPrivateAddresses: boolean;
  timeoutMs: number;
  /** Replaces the shared guarded Agent (tests). */
  dispatcher?: Dispatcher;
}

const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 307, 308]);

/**
 * POSTs a subscription request (application/x-www-form-urlencoded) to a hub, through the SSRF guard of
 * feed fetches (every hop: scheme, literal and resolved addresses). A hub that redirects (301, 302, 307,
 * 308) gets the same request at its new address (websub.rocks 203, 204). A 2xx is the hub's acceptance
 * (202: it will verify); anything else is a failure in words.
 */
export async function askHub(
  hubUrl: string,
  form: Record<string, string>,
  options: HubRequestOptions,
): Promise<HubAnswer> {
  const body = new URLSearchParams(form).toString();
  let url: URL;
  try {
    url = new URL(hubUrl);
  } catch {
    return { ok: false, message: `websub: the hub ${JSON.stringify(hubUrl)} is not a URL` };
  }
  const dispatcher =
    options.dispatcher ?? getSharedAgent(options.allowPrivateAddresses, FETCH_DEFAULTS.connectTimeoutMs);
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const refused = checkTarget(url, options.allowPrivateAddresses);
    if (refused !== undefined) return { ok: false, message: fetchMessageAs('websub', refused) };
    let response: Dispatcher.ResponseData;
    try {
      response = await request(url, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': DEFAULT_USER_AGENT },
        dispatcher,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (error) {
      if (error instanceof FetchError) return { ok: false, message: fetchMessageAs('websub', error) };
      return { ok: false, message: `websub: cannot reach the hub ${url.host}: ${oneLineMessage(error)}` };
    }
    const status = response.statusCode;
    const location = response.headers['location'];
    const sample = await readAnswerSample(response.body);
    if (status >= 200 && status < 300) return { ok: true, status, hubUrl: url.href };
    if (REDIRECTS.has(status) && typeof location === 'string' && URL.canParse(location, url.href)) {
      url = new URL(location, url);
      continue;
    }
    return {
      ok: false,
      message: `websub: the hub ${url.host} answered HTTP ${status}${sample ? `: ${sample}` : ''}`,
    };
  }
  return { ok: false, message: `websub: the hub redirected more than ${MAX_REDIRECTS} times` };
}
