import express from 'express';
import OpenAI from 'openai';
// The gateway's own fetch and the shared stack's JSON body reader, from their files: not part of
// their packages' exports.
import { httpFetch } from '@platform/llm/src/vendors/http-fetch';
import { directJsonBodies } from '@platform/http/src/performance';
import { listenService, type Listening } from './listen';

/**
 * The least a gateway on this design's stack can do: Express reading the JSON body as the
 * shared stack reads it (`directJsonBodies`, body-parser for anything unusual), the
 * official OpenAI SDK (with the gateway's own fetch) calling `baseUrl`, and the answer's bytes
 * written on as they come (a whole answer: the SDK's answer as JSON); no keys, checks, limits or logs. Measured beside the gateway, it
 * shows what the stack costs a stream before the gateway does anything of its own.
 */
export async function listenSdkRelay(baseUrl: string, apiKey: string): Promise<Listening> {
  const sdk = new OpenAI({ apiKey, baseURL: baseUrl, maxRetries: 0, fetch: httpFetch });
  const app = express();
  app.use(directJsonBodies(express.json(), 1024 * 1024));
  app.post('/v1/chat/completions', async (req, res) => {
    const controller = new AbortController();
    res.on('close', () => controller.abort());
    if (!req.body.stream) {
      res.json(await sdk.chat.completions.create(req.body, { signal: controller.signal }));
      return;
    }
    const answer = await sdk.chat.completions
      .create({ ...req.body, stream: true }, { signal: controller.signal })
      .asResponse();
    res.status(answer.status).setHeader('content-type', 'text/event-stream');
    for await (const bytes of answer.body as unknown as AsyncIterable<Uint8Array>) res.write(bytes);
    res.end();
  });
  return listenService(app);
}
