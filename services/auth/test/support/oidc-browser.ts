import type { Express } from 'express';
import request from 'supertest';

type Jar = Map<string, Map<string, string>>;

function remember(jar: Jar, host: string, setCookies: string[] | undefined): void {
  const cookies = jar.get(host) ?? new Map<string, string>();
  for (const line of setCookies ?? []) {
    const [pair, ...attributes] = line.split(';');
    const [name, ...value] = pair.trim().split('=');
    const expired = attributes.some((a) => /^\s*(max-age=0|expires=thu, 01 jan 1970)/i.test(a));
    if (expired) cookies.delete(name);
    else cookies.set(name, value.join('='));
  }
  jar.set(host, cookies);
}

const cookieHeader = (jar: Jar, host: string) =>
  [...(jar.get(host) ?? new Map<string, string>())].map(([name, value]) => `${name}=${value}`).join('; ');

interface Answer {
  status: number;
  location?: string;
  body: string;
}

/**
 * A browser over HTTP with a cookie jar: requests to `serviceOrigin` go to the Express app of
 * the service (supertest), the others over the network (the test's issuer). It follows
 * redirects by hand and stops at the first URL `stopAt` accepts.
 */
export class HttpBrowser {
  private readonly jar: Jar = new Map();

  constructor(
    private readonly app: Express,
    private readonly serviceOrigin: string,
  ) {}

  async request(url: string, init: { method?: 'GET' | 'POST'; form?: Record<string, string> } = {}): Promise<Answer> {
    const target = new URL(url);
    const method = init.method ?? 'GET';
    const cookie = cookieHeader(this.jar, target.host);
    if (target.origin === this.serviceOrigin) {
      let call =
        method === 'GET'
          ? request(this.app).get(target.pathname + target.search)
          : request(this.app).post(target.pathname);
      if (cookie) call = call.set('cookie', cookie);
      const res = init.form ? await call.type('form').send(init.form) : await call;
      remember(this.jar, target.host, res.headers['set-cookie'] as unknown as string[] | undefined);
      return { status: res.status, location: res.headers.location, body: res.text };
    }
    const res = await fetch(url, {
      method,
      redirect: 'manual',
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: init.form ? new URLSearchParams(init.form).toString() : undefined,
    });
    remember(this.jar, target.host, res.headers.getSetCookie());
    const location = res.headers.get('location');
    return {
      status: res.status,
      location: location ? new URL(location, url).toString() : undefined,
      body: await res.text(),
    };
  }

  /** GETs `url` and follows redirects until `stopAt` accepts a URL (returned) or a page answers (returned as such). */
  async follow(url: string, stopAt: (url: string) => boolean): Promise<{ url: string; page?: Answer }> {
    let current = url;
    for (let hops = 0; hops < 20; hops++) {
      if (stopAt(current)) return { url: current };
      const answer = await this.request(current);
      if (answer.status >= 300 && answer.status < 400 && answer.location) {
        current = answer.location;
        continue;
      }
      return { url: current, page: answer };
    }
    throw new Error('too many redirects');
  }
}

/** The action and hidden fields of the first form of a page. */
export function formOf(html: string, pageUrl: string): { action: string; fields: Record<string, string> } {
  const action = /<form[^>]*action="([^"]+)"/i.exec(html)?.[1];
  if (!action) throw new Error(`no form in page: ${html.slice(0, 300)}`);
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input[^>]*type="hidden"[^>]*>/gi)) {
    const name = /name="([^"]+)"/.exec(match[0])?.[1];
    const value = /value="([^"]*)"/.exec(match[0])?.[1] ?? '';
    if (name) fields[name] = value;
  }
  return { action: new URL(action.replace(/&amp;/g, '&'), pageUrl).toString(), fields };
}
