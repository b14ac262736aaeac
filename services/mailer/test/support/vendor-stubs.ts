import { sendJson, startHttpStub, type HttpStub, type RecordedRequest } from '@platform/testkit';

/** Keys the stand-ins refuse, to exercise vendor failures. */
export const BAD_MAILGUN_KEY = 'key-revoked';
export const BAD_SENDGRID_KEY = 'SG.revoked';
/** Keys whose account is having an outage: 503 for every send. */
export const DOWN_MAILGUN_KEY = 'key-outage';
export const DOWN_SENDGRID_KEY = 'SG.outage';
/** Keys whose sends are never answered (the client's timeout has to end them). */
export const HANGING_MAILGUN_KEY = 'key-hang';
export const HANGING_SENDGRID_KEY = 'SG.hang';
/** Keys whose sends are answered one byte every 100 ms, for ever (no idle timeout ends them). */
export const TRICKLING_MAILGUN_KEY = 'key-trickle';
export const TRICKLING_SENDGRID_KEY = 'SG.trickle';
/** A recipient both vendors refuse as a bad message (400): no other provider would take it either. */
export const REJECTED_RECIPIENT = 'invalid-mailbox@example.com';

type Outcome = 'ok' | 'down' | 'hang' | 'trickle';
const outcomeOf = (key: string, down: string, hang: string): Outcome =>
  key === down
    ? 'down'
    : key === hang
      ? 'hang'
      : key === TRICKLING_MAILGUN_KEY || key === TRICKLING_SENDGRID_KEY
        ? 'trickle'
        : 'ok';

/** A 200 whose body never ends: a byte every 100 ms until the client goes away. */
function trickle(res: import('node:http').ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"id":"');
  const timer = setInterval(() => res.write('x'), 100);
  res.on('close', () => clearInterval(timer));
}

/** The fields of a multipart/form-data body (what mailgun.js sends). */
export function formFields(req: RecordedRequest): Record<string, string[]> {
  const boundary = /boundary=([^;]+)/.exec(String(req.headers['content-type']))?.[1];
  const fields: Record<string, string[]> = {};
  if (!boundary) return fields;
  for (const part of req.rawBody.split(`--${boundary}`)) {
    const match = /name="([^"]+)"[^\r\n]*\r\n(?:[^\r\n]+\r\n)*\r\n([\s\S]*)\r\n$/.exec(part);
    if (match) (fields[match[1]] ??= []).push(match[2]);
  }
  return fields;
}

let counter = 0;

/** Mailgun's messages API: POST /v3/{domain}/messages, Basic auth api:<key>, multipart body. */
export function startMailgunStub(): Promise<HttpStub> {
  return startHttpStub((req, res) => {
    const domain = /^\/v3\/([^/]+)\/messages$/.exec(req.path)?.[1];
    if (req.method !== 'POST' || !domain) return sendJson(res, 404, { message: 'Not Found' });
    const auth = Buffer.from(String(req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
    if (auth !== `api:${auth.slice(4)}` || auth.slice(4) === BAD_MAILGUN_KEY) {
      res.writeHead(401, { 'content-type': 'text/plain' });
      res.end('Forbidden');
      return;
    }
    const outcome = outcomeOf(auth.slice(4), DOWN_MAILGUN_KEY, HANGING_MAILGUN_KEY);
    if (outcome === 'hang') return;
    if (outcome === 'trickle') return trickle(res);
    if (outcome === 'down') return sendJson(res, 503, { message: 'Service Unavailable' });
    const fields = formFields(req);
    if (!fields.to || !fields.from) return sendJson(res, 400, { message: "'to' parameter is missing" });
    if (fields.to.includes(REJECTED_RECIPIENT))
      return sendJson(res, 400, { message: "'to' parameter is not a valid address" });
    counter += 1;
    sendJson(res, 200, { id: `<20261122.${counter}.${Date.now()}@${domain}>`, message: 'Queued. Thank you.' });
  });
}

/** SendGrid's v3 mail send: Bearer key, JSON body, 202 with X-Message-Id. */
export function startSendgridStub(): Promise<HttpStub> {
  return startHttpStub((req, res) => {
    if (req.method !== 'POST' || req.path !== '/v3/mail/send')
      return sendJson(res, 404, { errors: [{ message: 'not found' }] });
    const key = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!key || key === BAD_SENDGRID_KEY) {
      return sendJson(res, 401, {
        errors: [
          { message: 'The provided authorization grant is invalid, expired, or revoked', field: null, help: null },
        ],
      });
    }
    const outcome = outcomeOf(key, DOWN_SENDGRID_KEY, HANGING_SENDGRID_KEY);
    if (outcome === 'hang') return;
    if (outcome === 'trickle') return trickle(res);
    if (outcome === 'down') return sendJson(res, 503, { errors: [{ message: 'Service Unavailable' }] });
    const to = (req.body as { personalizations?: { to?: { email?: string }[] }[] })?.personalizations?.[0]?.to?.[0]
      ?.email;
    if (to === REJECTED_RECIPIENT) {
      return sendJson(res, 400, {
        errors: [{ message: 'Does not contain a valid address.', field: 'personalizations.0.to' }],
      });
    }
    counter += 1;
    res.writeHead(202, { 'x-message-id': `sgMsg${counter}x${Date.now().toString(36)}` });
    res.end();
  });
}
