import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One email the test server took. */
export interface ReceivedMail {
  from: string;
  to: string[];
  /** Header names lower case; a folded header unfolded; encoded words (RFC 2047) left as they are. */
  headers: Record<string, string>;
  /** The body, its transfer encoding (quoted-printable, base64) undone, as UTF-8 with \n line ends. */
  text: string;
}

export interface TestSmtpServer {
  /** `smtp://user:pass@127.0.0.1:PORT`. */
  url: string;
  mails: ReceivedMail[];
  /** The logins the server accepted. */
  logins: string[];
  close(): Promise<void>;
}

/**
 * A real SMTP server (smtp-server) on 127.0.0.1 with a free port. It takes the login user/pass and
 * offers no STARTTLS (a local test server has no certificate).
 */
export async function startSmtpServer(): Promise<TestSmtpServer> {
  const mails: ReceivedMail[] = [];
  const logins: string[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    // the test's own password travels in clear on the loopback interface
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (auth.username === 'user' && auth.password === 'pass') {
        logins.push(auth.username);
        callback(null, { user: auth.username });
      } else callback(new Error('bad login'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          ...parseMessage(Buffer.concat(chunks).toString('utf8')),
        });
        callback(null, 'Message accepted by the test server');
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://user:pass@127.0.0.1:${port}`,
    mails,
    logins,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function parseMessage(raw: string): Pick<ReceivedMail, 'headers' | 'text'> {
  const text = raw.replace(/\r\n/g, '\n');
  const split = text.indexOf('\n\n');
  const head = text.slice(0, split).replace(/\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of head.split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = text.slice(split + 2);
  const encoding = (headers['content-transfer-encoding'] ?? '').toLowerCase();
  if (encoding === 'base64') return { headers, text: Buffer.from(body, 'base64').toString('utf8') };
  if (encoding !== 'quoted-printable') return { headers, text: body };
  const bytes = Buffer.from(
    body
      .replace(/=\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    'latin1',
  );
  return { headers, text: bytes.toString('utf8') };
}

/** A header's encoded words (=?UTF-8?B?...?= and =?UTF-8?Q?...?=) decoded. */
export function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?([BQ])\?([^?]*)\?=/gi, (_, kind: string, data: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : Buffer.from(
            data
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (__, hex: string) =>
                String.fromCharCode(Number.parseInt(hex, 16)),
              ),
            'latin1',
          ).toString('utf8'),
    );
}
