import type { Transporter } from 'nodemailer';

/** Sends alert emails; one per sender, closed with it. */
export interface Mailer {
  /** Sends a plain-text message; resolves with the server's answer ("250 2.0.0 Ok: queued as ..."). */
  send(message: { to: string; subject: string; text: string }): Promise<string>;
  close(): void;
}

/**
 * A mailer for TIDINGS_SMTP_URL (`smtp://[user:pass@]host:port`, `smtps://` for TLS from the start;
 * smtp:// takes STARTTLS when the server offers it) from TIDINGS_MAIL_FROM. nodemailer (39 modules) is
 * loaded with the first email, not by every process that polls or serves.
 */
export function smtpMailer(smtpUrl: string, from: string, timeoutMs: number): Mailer {
  let transport: Promise<Transporter> | undefined;
  const open = async () => {
    const { createTransport } = await import('nodemailer');
    return createTransport({
      url: smtpUrl,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
    });
  };
  return {
    async send(message) {
      transport ??= open();
      const info = await (await transport).sendMail({ from, ...message });
      return String(info.response ?? 'sent');
    },
    close() {
      void transport?.then((opened) => opened.close()).catch(() => {});
    },
  };
}

/**
 * The mailer TIDINGS_SMTP_URL and TIDINGS_MAIL_FROM make, or undefined without a mail server. Without a
 * From address each email fails with a message that says so, rather than going out as nobody.
 */
export function configuredMailer(
  config: { smtpUrl?: string | undefined; mailFrom?: string | undefined },
  timeoutMs: number,
): Mailer | undefined {
  if (config.smtpUrl === undefined) return undefined;
  if (config.mailFrom === undefined)
    return {
      send: () => Promise.reject(new Error('TIDINGS_MAIL_FROM is not set: say whom alert emails come from')),
      close() {},
    };
  return smtpMailer(config.smtpUrl, config.mailFrom, timeoutMs);
}
