import { randomUUID } from 'node:crypto';
import { sendJson, startHttpStub, type HttpStub } from '@platform/testkit';

export interface SentEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The sending process, when its SENDGRID_API_BASE ends with `/from/<sender>` (see `sendgridBaseFor`). */
  sender?: string;
  /** When the request came in and when the stand-in answered: SendGrid takes an e-mail whose sender dies in between. */
  arrivedAt: number;
  answeredAt: number;
}

export interface StandInOptions {
  /** How long each answer takes (a vendor is never instant; keeps work in flight for the fault suite). */
  delayMs?: number;
}

const pause = (ms: number) => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : undefined);

export interface SendgridStandIn extends HttpStub {
  emails: SentEmail[];
  /** Sends the stand-in is answering right now (of one sender, or of all). */
  inFlight(sender?: string): number;
}

/** A SENDGRID_API_BASE for one sending process, so the stand-in knows who sent each e-mail. */
export const sendgridBaseFor = (standIn: HttpStub, sender: string) => `${standIn.url}/from/${sender}/`;

/** SendGrid's v3 mail send, enough for the Mailer's SDK: records each email. */
export async function startSendgridStandIn(options: StandInOptions = {}): Promise<SendgridStandIn> {
  const emails: SentEmail[] = [];
  const inFlight = new Map<string, number>();
  const count = (sender: string, by: number) => inFlight.set(sender, (inFlight.get(sender) ?? 0) + by);
  const stub = await startHttpStub(async (req, res) => {
    const send = /^(?:\/from\/([^/]+))?\/v3\/mail\/send/.exec(req.path);
    if (req.method !== 'POST' || !send) {
      await pause(options.delayMs ?? 0);
      sendJson(res, 404, { errors: [{ message: 'not found' }] });
      return;
    }
    const arrivedAt = Date.now();
    count(send[1] ?? '', 1);
    await pause(options.delayMs ?? 0);
    count(send[1] ?? '', -1);
    const body = req.body as {
      personalizations: { to: { email: string }[] }[];
      subject: string;
      content?: { type: string; value: string }[];
    };
    const content = (type: string) => body.content?.find((c) => c.type === type)?.value ?? '';
    for (const p of body.personalizations) {
      for (const to of p.to)
        emails.push({
          to: to.email,
          subject: body.subject,
          text: content('text/plain'),
          html: content('text/html'),
          sender: send[1],
          arrivedAt,
          answeredAt: Date.now(),
        });
    }
    res.writeHead(202, { 'x-message-id': randomUUID() });
    res.end();
  });
  return Object.assign(stub, {
    emails,
    inFlight: (sender?: string) =>
      sender === undefined ? [...inFlight.values()].reduce((a, b) => a + b, 0) : (inFlight.get(sender) ?? 0),
  });
}

/** OpenAI's chat completions and models list. */
export async function startOpenAiStandIn(options: StandInOptions = {}): Promise<HttpStub> {
  return startHttpStub(async (req, res) => {
    await pause(options.delayMs ?? 0);
    if (req.method === 'GET' && req.path.endsWith('/models')) {
      sendJson(res, 200, {
        object: 'list',
        data: [{ id: 'gpt-4o-mini', object: 'model', created: 0, owned_by: 'openai' }],
      });
      return;
    }
    if (req.method === 'POST' && req.path.endsWith('/chat/completions')) {
      const body = req.body as { model: string; messages: { content: string }[] };
      const last = body.messages[body.messages.length - 1]?.content ?? '';
      // "slow 3000ms ...": a long vendor call, to be in flight when a replica is stopped.
      const slow = /^slow (\d+)ms/.exec(last);
      if (slow) await pause(Number(slow[1]));
      sendJson(res, 200, {
        id: `chatcmpl-${randomUUID()}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content: `echo: ${last}` }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 },
      });
      return;
    }
    sendJson(res, 404, { error: { message: 'not found', type: 'invalid_request_error' } });
  });
}

/** The token in an emailed link (`...?token=...`). */
export function tokenFrom(email: SentEmail): string {
  const match = /token=([A-Za-z0-9_\-.%]+)/.exec(`${email.text} ${email.html}`);
  if (!match) throw new Error(`no token link in email "${email.subject}"`);
  return decodeURIComponent(match[1]);
}
