import { renderSource, TemplateCache, templateProblems } from './template-engine';

const source = { subject: 'Hi {{name}}', html: '<b>{{name}}</b>', text: 'Hi {{name}}' };

describe('template engine', () => {
  it('when data holds markup, then only html escapes it', () => {
    expect(renderSource(source, { name: '<i>&</i>' })).toEqual({
      subject: 'Hi <i>&</i>',
      html: '<b>&lt;i&gt;&amp;&lt;/i&gt;</b>',
      text: 'Hi <i>&</i>',
    });
  });

  it('when data puts a line break into the subject, then the subject stays one line', () => {
    expect(renderSource(source, { name: 'a\r\nBcc: x@example.com' }).subject).toBe('Hi a Bcc: x@example.com');
  });

  it('when a template has a syntax error or an unknown helper, then each field is named', () => {
    expect(templateProblems({ subject: '{{#if x}}', html: '{{nope 1}}', text: 'ok {{x}}' }).map((p) => p.path)).toEqual(
      ['subject', 'html'],
    );
    expect(templateProblems(source)).toEqual([]);
  });

  it('when a template calls the log helper, then it is refused and nothing reaches our logs', () => {
    const consoleSpies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((level) =>
      jest.spyOn(console, level).mockImplementation(() => undefined),
    );
    try {
      expect(
        templateProblems({ subject: 'ok', html: '{{log "tenant text" level="error"}}' }).map((p) => p.path),
      ).toEqual(['html']);
      expect(() => renderSource({ subject: '{{log name}}', html: '', text: null }, { name: 'tenant text' })).toThrow(
        /log/,
      );
      for (const spy of consoleSpies) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of consoleSpies) spy.mockRestore();
    }
  });

  it('when data reaches for the prototype, then nothing leaks', () => {
    expect(renderSource({ subject: '{{constructor.name}}', html: '{{__proto__}}', text: null }, {})).toEqual({
      subject: '',
      html: '',
      text: null,
    });
  });

  it('when a template is rendered again unchanged, then it is not compiled again; a new updatedAt recompiles', () => {
    const cache = new TemplateCache(10);
    const updatedAt = new Date('2026-01-01T00:00:00.000Z');
    const template = { id: 't1', updatedAt, ...source };
    expect(cache.render(template, { name: 'A' }).html).toBe('<b>A</b>');
    // Same id and updatedAt: the compiled copy is used, so changed source text is not even looked at.
    expect(cache.render({ ...template, html: '<i>{{name}}</i>' }, { name: 'A' }).html).toBe('<b>A</b>');
    const edited = { ...template, html: '<i>{{name}}</i>', updatedAt: new Date(updatedAt.getTime() + 1) };
    expect(cache.render(edited, { name: 'A' }).html).toBe('<i>A</i>');
  });

  it('when the cache is full, then the oldest template is dropped', () => {
    const cache = new TemplateCache(2);
    for (const id of ['a', 'b', 'c']) cache.render({ id, updatedAt: new Date(0), ...source }, {});
    expect(cache.size).toBe(2);
  });
});
