import { lineDiff } from '../web/src/pages/cms/line-diff';
import { checkSchema } from '../web/src/pages/cms/schema-check';

describe('the content type schema check of the CMS pages', () => {
  it('when the text is not JSON, then the complaint says so with its line and column', () => {
    const check = checkSchema('{\n  "type": "object",\n  oops\n}');
    expect(check.ok).toBe(false);
    expect(!check.ok && check.message).toMatch(/^Not valid JSON: .*line 3, column 3/);
  });

  it('when the JSON is not a JSON Schema, then the deepest wrong place is named', () => {
    const check = checkSchema('{"type":"object","properties":{"headline":{"type":"strin"}}}');
    expect(!check.ok && check.message).toMatch(/^Not a valid JSON Schema at \/properties\/headline\/type: /);
    expect(checkSchema('{"required":"headline"}')).toMatchObject({
      ok: false,
      message: expect.stringContaining('/required'),
    });
  });

  it('when a pattern is not a regular expression, then the schema is refused before it is sent', () => {
    expect(checkSchema('{"properties":{"code":{"pattern":"("}}}')).toMatchObject({
      ok: false,
      message: expect.stringContaining('/properties/code/pattern'),
    });
  });

  it('when the schema is an array or a bare value, then it is refused: a content type is an object schema', () => {
    expect(checkSchema('[]').ok).toBe(false);
    expect(checkSchema('true').ok).toBe(false);
  });

  it('when the schema is valid, then it is handed back parsed', () => {
    expect(checkSchema('{"type":"object","required":["headline"]}')).toEqual({
      ok: true,
      schema: { type: 'object', required: ['headline'] },
    });
  });
});

describe('the revision diff of the CMS pages', () => {
  it('when one line changed, then it is one removal and one addition between the lines kept', () => {
    expect(lineDiff('a\nb\nc', 'a\nB\nc')).toEqual([
      { kind: 'same', text: 'a' },
      { kind: 'removed', text: 'b' },
      { kind: 'added', text: 'B' },
      { kind: 'same', text: 'c' },
    ]);
  });

  it('when lines are only added or only removed, then the others stay as they are', () => {
    expect(lineDiff('a\nc', 'a\nb\nc').map((line) => line.kind)).toEqual(['same', 'added', 'same']);
    expect(lineDiff('a\nb\nc', 'c').map((line) => line.kind)).toEqual(['removed', 'removed', 'same']);
  });

  it('when the texts are too long to compare line by line, then the old is shown removed and the new added', () => {
    const long = Array.from({ length: 3000 }, (_, index) => `line ${index}`).join('\n');
    const diff = lineDiff(long, `${long}\nmore`);
    expect(diff.filter((line) => line.kind === 'removed')).toHaveLength(3000);
    expect(diff.filter((line) => line.kind === 'added')).toHaveLength(3001);
  });
});
