import Ajv2020 from 'ajv/dist/2020';
import { lintableSchema } from './openapi-schemas';

// The mailer's send body as joi-to-json writes it: html xor templateId, and text only without a template.
const send = {
  type: 'object',
  properties: {
    to: { type: 'string' },
    html: { type: 'string' },
    text: { type: 'string' },
    templateId: { type: 'string' },
  },
  required: ['to'],
  allOf: [
    {
      if: { propertyNames: { enum: ['html', 'templateId'] }, minProperties: 2 },
      then: false,
      else: { oneOf: [{ required: ['html'] }, { required: ['templateId'] }] },
    },
    { if: { required: ['templateId'] }, then: { not: { anyOf: [{ required: ['html'] }, { required: ['text'] }] } } },
  ],
};

describe('lintableSchema', () => {
  const rewritten = lintableSchema(send) as typeof send;

  it('when a condition is a boolean or requires names it does not declare, then it is an object declaring them', () => {
    expect(rewritten.allOf[0].then).toEqual({ not: {} });
    expect(rewritten.allOf[0].else).toEqual({
      oneOf: [
        { required: ['html'], properties: { html: {} } },
        { required: ['templateId'], properties: { templateId: {} } },
      ],
    });
    expect(rewritten.properties).toEqual(send.properties);
    expect(send.allOf[0].then).toBe(false);
  });

  it('when values are checked, then the rewritten schema accepts and refuses exactly what the original does', () => {
    const ajv = new Ajv2020({ strict: false });
    const before = ajv.compile(send);
    const after = ajv.compile(rewritten);
    const bodies = [
      { to: 'a', html: '<p>' },
      { to: 'a', templateId: 't' },
      { to: 'a', html: '<p>', templateId: 't' },
      { to: 'a' },
      { to: 'a', templateId: 't', text: 'x' },
      { to: 'a', html: '<p>', text: 'x' },
    ];
    expect(bodies.map((body) => after(body))).toEqual(bodies.map((body) => before(body)));
    expect(bodies.map((body) => before(body))).toEqual([true, true, false, false, false, true]);
  });

  it('when a required name is missing outside a condition, then it is left for the linter to report', () => {
    expect(lintableSchema({ type: 'object', required: ['a'] })).toEqual({ type: 'object', required: ['a'] });
  });
});
