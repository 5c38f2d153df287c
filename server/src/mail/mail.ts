/**
 * Outgoing mail (docs/emails.md, "Mail"). The app only needs to hand a message to a transport;
 * which transport is a setting (MAIL_TRANSPORT). The one there is, `log`, sends nothing: it
 * writes the recipient and subject to the log (the body, which holds one-time links, only at
 * debug level), so a deployment without a mail server works and says what it would have sent.
 */
import type { Config } from '../config.ts';

export interface MailMessage {
  to: string;
  subject: string;
  /** Plain text. */
  text: string;
  /** Extra headers, e.g. List-Unsubscribe. */
  headers?: Record<string, string>;
}

export interface MailTransport {
  send(message: MailMessage & { from: string }): Promise<void>;
}

/** What the log transport writes to: the app's logger (pino) or anything with its two levels. */
export interface MailLog {
  info(details: object, message: string): void;
  debug(details: object, message: string): void;
}

/** Sends nothing; logs what would have been sent. */
export class LogMailTransport implements MailTransport {
  constructor(private readonly log: MailLog) {}

  async send(message: MailMessage & { from: string }): Promise<void> {
    this.log.info({ mail: { to: message.to, from: message.from, subject: message.subject } }, 'mail not sent (MAIL_TRANSPORT=log)');
    this.log.debug({ mail: { to: message.to, text: message.text, headers: message.headers ?? {} } }, 'mail body');
  }
}

/** The transport the settings name. */
export function mailTransportFor(config: Pick<Config, 'emails'>, log: MailLog): MailTransport {
  switch (config.emails.mailTransport) {
    case 'log':
      return new LogMailTransport(log);
  }
}

/** A transport keeping what it was given, for tests and scripts that read the mail back. */
export class MemoryMailTransport implements MailTransport {
  readonly sent: Array<MailMessage & { from: string }> = [];

  async send(message: MailMessage & { from: string }): Promise<void> {
    this.sent.push(message);
  }
}
