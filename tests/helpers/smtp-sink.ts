import { SMTPServer } from 'smtp-server';
import { freePort } from './free-port';

export interface ReceivedMail {
  to: string[];
  subject: string;
  messageId: string;
  /** the name the sending client gave in EHLO (nodemailer's `name`, settable in SMTP_URL as ?name=) */
  client: string;
  raw: string;
}

export interface SmtpSink {
  port: number;
  /** SMTP_URL for the server under test; `name` sets the EHLO name, which tells processes apart. */
  url(name?: string): string;
  messages: ReceivedMail[];
  /** How long each message is answered after it arrived (a slow server, so concurrent senders overlap). */
  delayMs: number;
  /** Stops listening: a client now gets ECONNREFUSED (a mail server that is down). */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
}

/**
 * A real SMTP server on 127.0.0.1 (the `smtp-server` package) that keeps every message it accepts; it can be stopped
 * and started again on the same port, as a mail server that goes down for a while.
 */
export async function startSmtpSink(opts: { delayMs?: number } = {}): Promise<SmtpSink> {
  const port = await freePort();
  const messages: ReceivedMail[] = [];
  let server: SMTPServer | null = null;
  const header = (raw: string, name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'mi').exec(raw)?.[1]?.trim() ?? '';
  const make = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          setTimeout(() => {
            messages.push({
              to: session.envelope.rcptTo.map((r) => r.address),
              subject: header(raw, 'Subject'),
              messageId: header(raw, 'Message-ID'),
              client: session.hostNameAppearsAs,
              raw,
            });
            callback();
          }, sink.delayMs);
        });
      },
    });
  const sink: SmtpSink = {
    port,
    url: (name) => `smtp://127.0.0.1:${port}${name ? `?name=${encodeURIComponent(name)}` : ''}`,
    messages,
    delayMs: opts.delayMs ?? 0,
    async start() {
      if (server) return;
      const s = make();
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.listen(port, '127.0.0.1', () => resolve());
      });
      server = s;
    },
    async stop() {
      const s = server;
      server = null;
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
  };
  await sink.start();
  return sink;
}
