import type { ErrorDetail } from '@platform/tenancy';
import {
  renderSource,
  safeRender,
  TemplateCache,
  TemplateRenderError,
  templateProblems,
  type RenderedEmail,
  type TemplateSource,
} from './template-engine';

/** What the main thread asks a render thread: the problems of a template, or a rendering. */
export type RenderRequest =
  | { kind: 'problems'; source: Partial<TemplateSource> }
  | {
      kind: 'render';
      /** A stored template (cached compiled by id and version), or text to compile now. */
      template: TemplateSource & { id?: string; updatedAtMs?: number };
      data: object;
      maxOutputChars: number;
    };

export type RenderReply =
  | { kind: 'problems'; problems: ErrorDetail[] }
  | { kind: 'rendered'; email: RenderedEmail }
  | { kind: 'failed'; message: string }
  | { kind: 'tooLarge'; chars: number };

const outputChars = (email: RenderedEmail) => email.subject.length + email.html.length + (email.text?.length ?? 0);

function render(cache: TemplateCache, request: Extract<RenderRequest, { kind: 'render' }>): RenderReply {
  const { template, data } = request;
  let email: RenderedEmail;
  try {
    email =
      template.id !== undefined && template.updatedAtMs !== undefined
        ? safeRender(cache, { ...template, id: template.id, updatedAt: new Date(template.updatedAtMs) }, data)
        : renderSource(template, data);
  } catch (error) {
    if (error instanceof TemplateRenderError) return { kind: 'failed', message: error.message };
    return { kind: 'failed', message: (error as Error).message.split('\n')[0]!.slice(0, 300) };
  }
  const chars = outputChars(email);
  // Only the size is sent back when it is over: copying a huge string out costs the main thread too.
  return chars > request.maxOutputChars ? { kind: 'tooLarge', chars } : { kind: 'rendered', email };
}

/** A render thread's handler, with its own compiled-template cache. */
export function renderHandler(cache: TemplateCache): (request: RenderRequest) => RenderReply {
  return (request) =>
    request.kind === 'problems'
      ? { kind: 'problems', problems: templateProblems(request.source) }
      : render(cache, request);
}
