import { randomUUID } from 'node:crypto';
import { sendJson, startHttpStub, type HttpStub } from '@platform/testkit';

export interface SentEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface StandInOptions {
  /** How long each answer takes (a vendor is never instant; keeps work in flight for the fault suite). */
  delayMs?: number;
}

const pause = (ms: number) => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : undefined);

/** SendGrid's v3 mail send, enough for the Mailer's SDK: records each email. */
export async function startSendgridStandIn(options: StandInOptions = {}): Promise<HttpStub & { emails: SentEmail[] }> {
  const emails: SentEmail[] = [];
  const stub = await startHttpStub(async (req, res) => {
    await pause(options.delayMs ?? 0);
    if (req.method === 'POST' && req.path.startsWith('/v3/mail/send')) {
      const body = req.body as {
        personalizations: { to: { email: string }[] }[];
        subject: string;
        content?: { type: string; value: string }[];
      };
      const content = (type: string) => body.content?.find((c) => c.type === type)?.value ?? '';
      for (const p of body.personalizations) {
        for (const to of p.to)
          emails.push({ to: to.email, subject: body.subject, text: content('text/plain'), html: content('text/html') });
      }
      res.writeHead(202, { 'x-message-id': randomUUID() });
      res.end();
      return;
    }
    sendJson(res, 404, { errors: [{ message: 'not found' }] });
  });
  return Object.assign(stub, { emails });
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
