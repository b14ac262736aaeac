/**
 * Mailer: rendering a realistic template (loops, nested conditionals) through the service's
 * compiled-template cache, against plain Handlebars calling the same template precompiled once,
 * in the same run. Target: at least 90% of the plain throughput. Also reported (no target):
 * the preview endpoint over HTTP, keys and database lookup included.
 */
import { createRequire } from 'node:module';
import { createTestService, median } from '@platform/testkit';
import { mailerService, TemplateCache } from '@platform/mailer';
import { benchDatabaseServer } from './lib/database';
import { listenService } from './lib/listen';
import { compare, formatComparison, runLoad, type LoadResult } from './lib/load';

// The same handlebars the service uses, resolved from the service's own package.
const Handlebars = createRequire(require.resolve('@platform/mailer'))('handlebars') as typeof import('handlebars');

const template = {
  subject: 'Your order {{order.number}} {{#if order.paid}}is confirmed{{else}}awaits payment{{/if}}',
  html: `<html><body>
<h1>Thank you, {{customer.firstName}}!</h1>
{{#if order.paid}}<p>We received your payment of {{order.total}} {{order.currency}}.</p>{{else}}<p>Please pay {{order.total}} {{order.currency}} by {{order.dueDate}}.</p>{{/if}}
<table>
{{#each order.items}}
  <tr class="{{#if @odd}}odd{{else}}even{{/if}}">
    <td>{{@index}}</td><td>{{name}}</td><td>{{quantity}}</td><td>{{price}}</td>
    <td>{{#if discount}}<s>{{listPrice}}</s> -{{discount}}%{{/if}}</td>
    <td>{{#each tags}}<span>{{this}}</span>{{/each}}</td>
  </tr>
{{/each}}
</table>
{{#if customer.address}}<address>{{customer.address.street}}<br>{{customer.address.zip}} {{customer.address.city}}</address>{{/if}}
{{#unless order.giftWrap}}<p>No gift wrap.</p>{{/unless}}
<p><a href="{{links.track}}">Track your order</a> · <a href="{{links.unsubscribe}}">Unsubscribe</a></p>
</body></html>`,
  text: `Thank you, {{customer.firstName}}!
{{#each order.items}}- {{name}} x{{quantity}}: {{price}}{{#if discount}} (-{{discount}}%){{/if}}
{{/each}}Total: {{order.total}} {{order.currency}}
Track: {{links.track}}`,
};

const data = {
  customer: { firstName: 'Ann <& Co>', address: { street: 'Main St 1', zip: '10115', city: 'Berlin' } },
  order: {
    number: 'A-1042',
    paid: true,
    total: '249.90',
    currency: 'EUR',
    dueDate: '2026-12-01',
    giftWrap: false,
    items: Array.from({ length: 20 }, (_, i) => ({
      name: `Item "${i}" & more`,
      quantity: (i % 3) + 1,
      price: `${(9.99 + i).toFixed(2)}`,
      listPrice: `${(12.99 + i).toFixed(2)}`,
      discount: i % 4 === 0 ? 15 : 0,
      tags: i % 2 ? ['new', 'sale'] : ['classic'],
    })),
  },
  links: { track: 'https://shop.example.com/track?o=A-1042&t=1', unsubscribe: 'https://shop.example.com/u?id=1' },
};

/** Calls `render` for `seconds`, in batches; renders per second and per-render latency percentiles. */
function measure(render: () => void, seconds: number): LoadResult {
  const batch = 200;
  const perRenderMs: number[] = [];
  let count = 0;
  const end = process.hrtime.bigint() + BigInt(Math.round(seconds * 1e9));
  const start = process.hrtime.bigint();
  let now = start;
  while (now < end) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < batch; i++) render();
    now = process.hrtime.bigint();
    perRenderMs.push(Number(now - t0) / 1e6 / batch);
    count += batch;
  }
  perRenderMs.sort((a, b) => a - b);
  const pct = (p: number) =>
    Number(perRenderMs[Math.min(perRenderMs.length - 1, Math.floor(perRenderMs.length * p))].toFixed(4));
  return {
    requestsPerSecond: count / (Number(now - start) / 1e9),
    p50Ms: pct(0.5),
    p99Ms: pct(0.99),
    non2xx: 0,
    errors: 0,
  };
}

/** Alternates rounds of both, so that CPU frequency or a noisy neighbour hits both alike. */
function alternate(a: () => void, b: () => void, seconds: number): [LoadResult, LoadResult] {
  const rounds = 6;
  const results: [LoadResult[], LoadResult[]] = [[], []];
  measure(a, 0.3);
  measure(b, 0.3);
  for (let r = 0; r < rounds; r++) {
    results[0].push(measure(a, seconds / rounds));
    results[1].push(measure(b, seconds / rounds));
  }
  const merge = (list: LoadResult[]): LoadResult => {
    return {
      requestsPerSecond: list.reduce((s, x) => s + x.requestsPerSecond, 0) / list.length,
      p50Ms: median(list.map((x) => x.p50Ms)),
      p99Ms: Math.max(...list.map((x) => x.p99Ms)),
      non2xx: 0,
      errors: 0,
    };
  };
  return [merge(results[0]), merge(results[1])];
}

async function renderingComparison(seconds: number): Promise<string[]> {
  const cache = new TemplateCache();
  const stored = {
    id: '9d7c1d9e-0000-4000-8000-000000000001',
    updatedAt: new Date('2026-11-22T10:00:00.000Z'),
    ...template,
  };
  const plain = {
    subject: Handlebars.compile(template.subject, { noEscape: true }),
    html: Handlebars.compile(template.html),
    text: Handlebars.compile(template.text, { noEscape: true }),
  };
  // Both sides must produce the same email, or the comparison means nothing.
  const viaCache = cache.render(stored, data);
  if (
    viaCache.html !== plain.html(data) ||
    viaCache.text !== plain.text(data) ||
    viaCache.subject !== plain.subject(data)
  ) {
    throw new Error('cache and plain Handlebars render different output');
  }
  let sink = 0;
  const [subject, baseline] = alternate(
    () => {
      sink += cache.render(stored, data).html.length;
    },
    () => {
      sink += plain.subject(data).length + plain.html(data).length + plain.text(data).length;
    },
    seconds,
  );
  if (sink === 0) throw new Error('nothing rendered');
  const comparison = compare(
    'mailer template render from the cache vs plain precompiled Handlebars (renders/s)',
    subject,
    baseline,
    0.9,
  );
  return [formatComparison(comparison).replace(/ req\/s/g, ' renders/s')];
}

async function previewOverHttp(seconds: number): Promise<string[]> {
  const server = await benchDatabaseServer();
  process.env.TEST_DATABASE_URL = server.url;
  const svc = await createTestService(mailerService);
  const { url, close } = await listenService(svc.app);
  try {
    const project = await svc.createProject();
    const headers = { ...project.headers, 'content-type': 'application/json' };
    const created = await fetch(`${url}/v1/templates`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'Order', ...template }),
    }).then((r) => r.json() as Promise<{ id: string }>);
    const result = await runLoad({
      url: `${url}/v1/templates/${created.id}/preview`,
      method: 'POST',
      headers: project.headers,
      body: { data },
      connections: 20,
      durationSeconds: seconds,
    });
    return [
      `INFO  mailer POST /v1/templates/{id}/preview over HTTP (keys, database lookup, cached render): ${result.requestsPerSecond.toFixed(0)} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms${result.non2xx ? ` (${result.non2xx} non-2xx)` : ''}`,
    ];
  } finally {
    await close();
    await svc.close();
    await server.stop();
  }
}

export default async function mailerBench(): Promise<string[]> {
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  return [...(await renderingComparison(seconds)), ...(await previewOverHttp(seconds))];
}
