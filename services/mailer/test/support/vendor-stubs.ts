import { sendJson, startHttpStub, type HttpStub, type RecordedRequest } from '@platform/testkit';

/** Keys the stand-ins refuse, to exercise vendor failures. */
export const BAD_MAILGUN_KEY = 'key-revoked';
export const BAD_SENDGRID_KEY = 'SG.revoked';

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
    const fields = formFields(req);
    if (!fields.to || !fields.from) return sendJson(res, 400, { message: "'to' parameter is missing" });
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
    counter += 1;
    res.writeHead(202, { 'x-message-id': `sgMsg${counter}x${Date.now().toString(36)}` });
    res.end();
  });
}
