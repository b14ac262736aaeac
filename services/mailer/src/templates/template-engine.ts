import Handlebars from 'handlebars';
import type { ErrorDetail } from '@platform/tenancy';

/** A private Handlebars environment: helpers or partials registered elsewhere never leak in. */
const hb = Handlebars.create();
// `log` would write tenant text into our logs; a template using it is refused as an unknown helper
// (the compiler would otherwise inline its call as a known helper).
hb.unregisterHelper('log');
const KNOWN_HELPERS = { log: false };

export interface TemplateSource {
  subject: string;
  html: string;
  text: string | null;
}

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string | null;
}

type Delegate = Handlebars.TemplateDelegate;

interface CompiledTemplate {
  subject: Delegate;
  html: Delegate;
  text: Delegate | null;
}

// HTML output is escaped; subject and text are plain text, so escaping would show `&amp;`.
const HTML_OPTIONS: CompileOptions = { knownHelpers: KNOWN_HELPERS };
const PLAIN_OPTIONS: CompileOptions = { noEscape: true, knownHelpers: KNOWN_HELPERS };

function compileAll(source: TemplateSource): CompiledTemplate {
  return {
    subject: hb.compile(source.subject, PLAIN_OPTIONS),
    html: hb.compile(source.html, HTML_OPTIONS),
    text: source.text === null ? null : hb.compile(source.text, PLAIN_OPTIONS),
  };
}

function run(compiled: CompiledTemplate, data: object): RenderedEmail {
  return {
    // A subject is one header line: line breaks from data must not start a new header.
    subject: compiled
      .subject(data)
      .replace(/[\r\n]+/g, ' ')
      .trim(),
    html: compiled.html(data),
    text: compiled.text ? compiled.text(data) : null,
  };
}

/**
 * Problems that would stop a template from rendering (syntax errors, unknown helpers or
 * partials), one per field; empty when it is usable.
 */
export function templateProblems(source: Partial<TemplateSource>): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  for (const field of ['subject', 'html', 'text'] as const) {
    const value = source[field];
    if (typeof value !== 'string') continue;
    try {
      // compile() is lazy: calling the result once with no data surfaces both compile and
      // missing-helper errors now rather than at the first send.
      hb.compile(value, field === 'html' ? HTML_OPTIONS : PLAIN_OPTIONS)({});
    } catch (error) {
      problems.push({ path: field, message: `Template does not compile: ${firstLine((error as Error).message)}` });
    }
  }
  return problems;
}

function firstLine(message: string): string {
  return message.split('\n').filter(Boolean).slice(0, 3).join(' ').slice(0, 300);
}

/** Renders a template that is not stored (built-in defaults, previews of unsaved text). */
export function renderSource(source: TemplateSource, data: object): RenderedEmail {
  return run(compileAll(source), data);
}

export interface CacheableTemplate extends TemplateSource {
  id: string;
  updatedAt: Date;
}

/**
 * Compiled templates by id, valid for one `updatedAt`: an edited template is recompiled on its
 * next use, an unchanged one is never compiled twice. Bounded; the oldest entry goes first.
 */
export class TemplateCache {
  private readonly entries = new Map<string, { version: number; compiled: CompiledTemplate }>();

  constructor(private readonly maxEntries = 1000) {}

  render(template: CacheableTemplate, data: object): RenderedEmail {
    return run(this.compiled(template), data);
  }

  get size(): number {
    return this.entries.size;
  }

  private compiled(template: CacheableTemplate): CompiledTemplate {
    const version = template.updatedAt.getTime();
    const hit = this.entries.get(template.id);
    if (hit && hit.version === version) return hit.compiled;
    const compiled = compileAll(template);
    if (!hit && this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(template.id, { version, compiled });
    return compiled;
  }
}

/** Render-time failures (e.g. data that a helper rejects) are the caller's input problem. */
export class TemplateRenderError extends Error {}

export function safeRender(cache: TemplateCache, template: CacheableTemplate, data: object): RenderedEmail {
  try {
    return cache.render(template, data);
  } catch (error) {
    throw new TemplateRenderError(firstLine((error as Error).message));
  }
}
