import type { RequestOptions } from 'node:http';
import { context, propagation, ROOT_CONTEXT } from '@opentelemetry/api';
import type { UndiciRequest } from '@opentelemetry/instrumentation-undici';
import { inSpan } from '../src/tracing';
import { startInMemoryTracing, type InMemoryTracing } from '../src/in-memory';
import { passOverUnsampledFetch, passOverUnsampledRequest } from '../src/unsampled-calls';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const callerContext = (flags: '00' | '01') =>
  propagation.extract(ROOT_CONTEXT, { traceparent: `00-${TRACE_ID}-00f067aa0ba902b7-${flags}` });

let tracing: InMemoryTracing;

beforeAll(() => {
  tracing = startInMemoryTracing();
});

afterAll(async () => {
  await tracing.stop();
});

const fetchRequest = (): UndiciRequest & { added: [string, string][] } => {
  const added: [string, string][] = [];
  return {
    origin: 'http://vendor.test',
    method: 'POST',
    path: '/v1/chat',
    headers: [],
    addHeader: (name: string, value: string) => added.push([name, value]),
    added,
  } as unknown as UndiciRequest & { added: [string, string][] };
};

describe('outgoing calls outside a sampled trace', () => {
  it('when a call is made inside a sampled trace, then it is left to the instrumentation (its client span)', async () => {
    await inSpan('request', { parent: callerContext('01') }, async () => {
      const options: RequestOptions = { headers: { accept: 'application/json' } };
      expect(passOverUnsampledRequest(options)).toBe(false);
      expect(options.headers).toEqual({ accept: 'application/json' });
      expect(passOverUnsampledFetch(fetchRequest())).toBe(false);
    });
  });

  it('when a call is made inside an unsampled trace, then no span is made and the trace goes on, unsampled', async () => {
    await inSpan('request', { parent: callerContext('00') }, async () => {
      const callerHeaders = { accept: 'application/json' };
      const options: RequestOptions = { headers: callerHeaders };
      expect(passOverUnsampledRequest(options)).toBe(true);
      expect(options.headers).toMatchObject({ accept: 'application/json' });
      expect(String((options.headers as Record<string, string>).traceparent)).toMatch(
        new RegExp(`^00-${TRACE_ID}-[0-9a-f]{16}-00$`),
      );
      // The caller's own headers object is not written to.
      expect(callerHeaders).toEqual({ accept: 'application/json' });

      const request = fetchRequest();
      expect(passOverUnsampledFetch(request)).toBe(true);
      expect(request.added).toEqual([
        ['traceparent', expect.stringMatching(new RegExp(`^00-${TRACE_ID}-[0-9a-f]{16}-00$`))],
      ]);
    });
  });

  it('when a call is made outside any trace, then it goes out as it was', () => {
    context.with(ROOT_CONTEXT, () => {
      const options: RequestOptions = { headers: { accept: 'application/json' } };
      expect(passOverUnsampledRequest(options)).toBe(true);
      expect(options.headers).toEqual({ accept: 'application/json' });
      const request = fetchRequest();
      expect(passOverUnsampledFetch(request)).toBe(true);
      expect(request.added).toEqual([]);
    });
  });
});
