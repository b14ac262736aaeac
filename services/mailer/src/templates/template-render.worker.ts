import { workerData } from 'node:worker_threads';
import { serveBudgetRequests } from '@platform/runtime/src/budget-thread';
import { TemplateCache } from './template-engine';
import { renderHandler, type RenderReply, type RenderRequest } from './template-render.thread';

/** A template render thread (template-budget.ts): compiles and renders tenants' templates off the main thread. */
const { cacheSize } = workerData as { cacheSize: number };
const handle = renderHandler(new TemplateCache(cacheSize));
// Handlebars' compiler runs once before the first timed request: loading it is not part of any budget.
handle({ kind: 'problems', source: { subject: '{{a}}', html: '{{#each b}}{{#if this}}{{this}}{{/if}}{{/each}}' } });
// Rendering is pure JavaScript over a cache: stopped at its budget, the thread stays consistent and is kept.
serveBudgetRequests<RenderRequest, RenderReply>(handle, { interruptible: true });
