import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A span as the receiver decoded it (ids in hex, attribute values as JSON values). */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
  /** The wire format it came in: `json` or `protobuf`. */
  encoding: 'json' | 'protobuf';
}

export interface OtlpReceiver {
  /** OTEL_EXPORTER_OTLP_ENDPOINT for the services. */
  url: string;
  spans: ReceivedSpan[];
  /** Metric names received, by `service.name`. */
  metricNames: Map<string, Set<string>>;
  close(): Promise<void>;
}

// ---- protobuf wire format, enough for opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest

type Field = { number: number; wire: number; value: bigint | Buffer };

function* fieldsOf(buffer: Buffer): Generator<Field> {
  let at = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const byte = buffer[at++];
      if (byte === undefined) throw new Error('truncated varint');
      result |= BigInt(byte & 0x7f) << shift;
      if (!(byte & 0x80)) return result;
      shift += 7n;
    }
  };
  while (at < buffer.length) {
    const key = Number(varint());
    const number = key >>> 3;
    const wire = key & 7;
    if (wire === 0) yield { number, wire, value: varint() };
    else if (wire === 1) yield { number, wire, value: buffer.subarray(at, (at += 8)) };
    else if (wire === 5) yield { number, wire, value: buffer.subarray(at, (at += 4)) };
    else if (wire === 2) {
      const length = Number(varint());
      yield { number, wire, value: buffer.subarray(at, (at += length)) };
    } else throw new Error(`unsupported wire type ${wire}`);
  }
}

const bytes = (field: Field) => field.value as Buffer;

function anyValueOf(buffer: Buffer): unknown {
  for (const field of fieldsOf(buffer)) {
    switch (field.number) {
      case 1:
        return bytes(field).toString('utf8');
      case 2:
        return field.value === 1n;
      case 3:
        return Number(BigInt.asIntN(64, field.value as bigint));
      case 4:
        return bytes(field).readDoubleLE(0);
      case 5:
        return [...fieldsOf(bytes(field))].filter((f) => f.number === 1).map((f) => anyValueOf(bytes(f)));
      case 7:
        return bytes(field).toString('hex');
    }
  }
  return null;
}

function keyValueOf(buffer: Buffer): [string, unknown] {
  let key = '';
  let value: unknown = null;
  for (const field of fieldsOf(buffer)) {
    if (field.number === 1) key = bytes(field).toString('utf8');
    if (field.number === 2) value = anyValueOf(bytes(field));
  }
  return [key, value];
}

function decodeProtobufSpans(body: Buffer): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of fieldsOf(body)) {
    if (resourceSpans.number !== 1) continue;
    const resource: Record<string, unknown> = {};
    const scopes: Buffer[] = [];
    for (const field of fieldsOf(bytes(resourceSpans))) {
      if (field.number === 1)
        for (const attribute of fieldsOf(bytes(field)))
          if (attribute.number === 1) Object.assign(resource, Object.fromEntries([keyValueOf(bytes(attribute))]));
      if (field.number === 2) scopes.push(bytes(field));
    }
    for (const scope of scopes) {
      for (const spanField of fieldsOf(scope)) {
        if (spanField.number !== 2) continue;
        const span: ReceivedSpan = {
          traceId: '',
          spanId: '',
          parentSpanId: '',
          name: '',
          kind: 0,
          attributes: {},
          resource,
          encoding: 'protobuf',
        };
        for (const field of fieldsOf(bytes(spanField))) {
          if (field.number === 1) span.traceId = bytes(field).toString('hex');
          if (field.number === 2) span.spanId = bytes(field).toString('hex');
          if (field.number === 4) span.parentSpanId = bytes(field).toString('hex');
          if (field.number === 5) span.name = bytes(field).toString('utf8');
          if (field.number === 6) span.kind = Number(field.value);
          if (field.number === 9) {
            const [key, value] = keyValueOf(bytes(field));
            span.attributes[key] = value;
          }
        }
        spans.push(span);
      }
    }
  }
  return spans;
}

// ---- OTLP/JSON

interface JsonAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: JsonAnyValue[] };
}
type JsonKeyValue = { key: string; value: JsonAnyValue };

function jsonValueOf(value: JsonAnyValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(jsonValueOf);
  return null;
}

const jsonAttributes = (list: JsonKeyValue[] | undefined) =>
  Object.fromEntries((list ?? []).map(({ key, value }) => [key, jsonValueOf(value)]));

function decodeJsonSpans(body: Buffer): ReceivedSpan[] {
  const request = JSON.parse(body.toString('utf8')) as {
    resourceSpans?: {
      resource?: { attributes?: JsonKeyValue[] };
      scopeSpans?: {
        spans?: {
          traceId: string;
          spanId: string;
          parentSpanId?: string;
          name: string;
          kind: number;
          attributes?: JsonKeyValue[];
        }[];
      }[];
    }[];
  };
  return (request.resourceSpans ?? []).flatMap((resourceSpans) => {
    const resource = jsonAttributes(resourceSpans.resource?.attributes);
    return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId ?? '',
        name: span.name,
        kind: span.kind,
        attributes: jsonAttributes(span.attributes),
        resource,
        encoding: 'json' as const,
      })),
    );
  });
}

function metricNamesOfJson(body: Buffer): { service: string; names: string[] }[] {
  const request = JSON.parse(body.toString('utf8')) as {
    resourceMetrics?: {
      resource?: { attributes?: JsonKeyValue[] };
      scopeMetrics?: { metrics?: { name: string }[] }[];
    }[];
  };
  return (request.resourceMetrics ?? []).map((resourceMetrics) => ({
    service: String(jsonAttributes(resourceMetrics.resource?.attributes)['service.name']),
    names: (resourceMetrics.scopeMetrics ?? []).flatMap((scope) => (scope.metrics ?? []).map((m) => m.name)),
  }));
}

const bodyOf = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

/**
 * An OTLP/HTTP endpoint for tests: decodes trace exports in both encodings (http/protobuf and
 * http/json) into spans, and notes the metric names of JSON metric exports. Anything it cannot
 * decode is answered 400, so a broken export fails the test instead of passing unseen.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const metricNames = new Map<string, Set<string>>();
  const server = createServer((req, res) => {
    bodyOf(req)
      .then((body) => {
        const json = String(req.headers['content-type'] ?? '').startsWith('application/json');
        if (req.url === '/v1/traces') spans.push(...(json ? decodeJsonSpans(body) : decodeProtobufSpans(body)));
        else if (req.url === '/v1/metrics' && json)
          for (const { service, names } of metricNamesOfJson(body)) {
            const known = metricNames.get(service) ?? new Set<string>();
            names.forEach((name) => known.add(name));
            metricNames.set(service, known);
          }
        res.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
        res.end(json ? '{}' : undefined);
      })
      .catch((error: unknown) => {
        res.writeHead(400, { 'content-type': 'text/plain' });
        res.end(String(error));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    metricNames,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
