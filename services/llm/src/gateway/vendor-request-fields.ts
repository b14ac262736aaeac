import { Joi, parse } from '@platform/tenancy';

/**
 * The words a vendor-shaped request's problems are reported in (`details[].message`, the first
 * one's path as OpenAI's `param`): JSON Schema's, as the gateway has reported them to the OpenAI
 * and Anthropic SDKs from the start.
 */
const MESSAGES: Joi.LanguageMessages = {
  'any.required': 'is required',
  'any.unknown': 'is not allowed here',
  'any.only': 'must be one of {#valids}',
  'alternatives.any': 'matches none of the forms it may take',
  'alternatives.match': 'matches none of the forms it may take',
  'string.base': 'must be string',
  'string.empty': 'must NOT have fewer than 1 characters',
  'string.min': 'must NOT have fewer than {#limit} characters',
  'string.max': 'must NOT have more than {#limit} characters',
  'string.pattern.name': 'must match pattern "{#name}"',
  'number.base': 'must be number',
  'number.integer': 'must be integer',
  'number.min': 'must be >= {#limit}',
  'number.max': 'must be <= {#limit}',
  'boolean.base': 'must be boolean',
  'array.base': 'must be array',
  'array.min': 'must NOT have fewer than {#limit} items',
  'array.max': 'must NOT have more than {#limit} items',
  'object.base': 'must be object',
  'object.max': 'must NOT have more than {#limit} properties',
};

/**
 * A vendor's request body: `keys` in order (problems are reported in that order), any other
 * field dropped unless `open`; problems in the words above. Words are set here only: set on a
 * part, joi would merge them on every call. The parts below read numbers and booleans as sent.
 */
export function vendorRequest<T>(keys: Joi.PartialSchemaMap<T>, open = false): Joi.ObjectSchema<T> {
  const body = Joi.object<T>(keys).prefs({ messages: MESSAGES, errors: { wrap: { array: false } } });
  return open ? body.unknown(true) : body;
}

/** A field of an object schema, as joi keeps it. */
interface KeyTerm {
  key: string;
  schema: Joi.Schema;
}

/**
 * A narrower schema for a field's common form: `holds` tells the form, and `schema` must check a
 * value of that form exactly as the field's own schema does (same result, same problems), only
 * without the conditions the form has settled.
 */
export interface FieldForm {
  holds(value: unknown): boolean;
  schema: Joi.Schema;
}

// The most field sets kept per request schema: past them a body is checked against the whole schema.
const MAX_FIELD_SETS = 64;
const byFieldSet = new WeakMap<Joi.Schema, Map<string, Joi.Schema>>();

/**
 * `schema` with only the fields `body` holds and the required ones, in the same order, words and
 * flags, and a field of a form in `forms` checked by the form's schema. Joi checks every field it
 * lists on every call, a field left out included, and each condition on a sibling: that was most
 * of the check's work on a request of a few fields.
 */
function forFieldsOf(schema: Joi.ObjectSchema, body: object, forms: Record<string, FieldForm>): Joi.Schema {
  const terms = schema.$_terms.keys as KeyTerm[] | null;
  if (!terms) return schema;
  let set = '';
  for (const { key, schema: field } of terms) {
    if (Object.hasOwn(body, key)) {
      const value = (body as Record<string, unknown>)[key];
      set += Object.hasOwn(forms, key) && forms[key].holds(value) ? `${key}:form,` : `${key},`;
    } else if (field.$_getFlag('presence') === 'required') set += `${key},`;
  }
  let sets = byFieldSet.get(schema);
  if (!sets) byFieldSet.set(schema, (sets = new Map()));
  let narrowed = sets.get(set);
  if (!narrowed) {
    if (sets.size >= MAX_FIELD_SETS) return schema;
    const kept = new Set(set.split(','));
    const fieldsKept = terms.flatMap(({ key, schema: field }) =>
      kept.has(key) ? [[key, field]] : kept.has(`${key}:form`) ? [[key, forms[key].schema]] : [],
    );
    narrowed = schema.keys({}).keys(Object.fromEntries(fieldsKept));
    sets.set(set, narrowed);
  }
  return narrowed;
}

/** A vendor request body checked against its schema (`parse`, as every service checks its input). */
export function parseVendorRequest<T>(
  schema: Joi.ObjectSchema<T>,
  input: unknown,
  forms: Record<string, FieldForm> = {},
): T {
  const body = input !== null && typeof input === 'object' && !Array.isArray(input) ? input : null;
  return parse(body ? (forFieldsOf(schema, body, forms) as Joi.ObjectSchema<T>) : schema, input);
}

/** `schema`, the problems of the given codes told in the given words; only a refused value pays for it. */
function saying<S extends Joi.Schema>(schema: S, words: Record<string, string>): S {
  return schema.error((reports) => {
    for (const report of reports) if (words[report.code]) report.message = words[report.code];
    return reports;
  }) as S;
}

/** An object of the listed fields; any other field is dropped. */
export const fields = (keys: Joi.PartialSchemaMap) => Joi.object(keys);

/** An object of the listed fields that keeps the others as sent (the vendor reads them). */
export const openFields = (keys: Joi.PartialSchemaMap = {}) => Joi.object(keys).unknown(true);

/** A string of at most `max` characters, which may be empty. */
export const text = (max: number) => Joi.string().allow('').max(max);

/** A string of at least one character. */
export const word = (max?: number) => (max ? Joi.string().max(max) : Joi.string());

/** A model name: at least one character that is not a space (names are trimmed after). */
export const modelName = word(200).pattern(/\S/, { name: '\\S' });

/** A function's name, as OpenAI takes it (an empty one fails the pattern, as any other). */
const FUNCTION_NAME = '^[a-zA-Z0-9_-]{1,64}$';
export const functionName = saying(Joi.string().pattern(new RegExp(FUNCTION_NAME), { name: FUNCTION_NAME }), {
  'string.empty': `must match pattern "${FUNCTION_NAME}"`,
});

/** One of `values`. */
export const oneOf = (...values: string[]) => Joi.string().valid(...values);

/** Exactly `value`. */
export const constant = (value: string) => saying(Joi.valid(value), { 'any.only': 'must be equal to constant' });

/** A JSON number between `min` and `max`; a string is not read as one. */
export const number = (min: number, max: number) => Joi.number().unsafe().min(min).max(max).strict();

/** A JSON integer between `min` and `max`. */
export const integer = (min: number, max = Number.MAX_VALUE) =>
  saying(Joi.number().unsafe().integer().min(min).max(max).strict(), { 'number.base': 'must be integer' });

/** true or false; a string is not read as one. */
export const boolean = () => Joi.boolean().strict();

/**
 * `schema` or null; a value of another type is reported with both (`must be number,null`).
 * `type` is the JSON type the schema takes (`integer` for an integer).
 */
export function nullable<S extends Joi.Schema>(schema: S, type: string): S {
  const message = `must be ${type},null`;
  const words: Record<string, string> = { [`${schema.type}.base`]: message };
  if (type === 'integer') words['number.integer'] = message;
  return saying(schema.allow(null) as S, words);
}

/** Refuses any value, saying `message`. */
const refused = (message: string) => saying(Joi.forbidden(), { 'any.unknown': message });

/**
 * A string or an array, each checked by its own schema (`must be string,array` when it is
 * neither; `null` too when `nullable`).
 */
export function stringOrArray(forString: Joi.Schema, forArray: Joi.Schema, nullable = false) {
  const either = Joi.alternatives().conditional(Joi.string().allow(''), {
    then: forString,
    otherwise: Joi.alternatives().conditional(Joi.array(), {
      then: forArray,
      otherwise: refused(`must be string,array${nullable ? ',null' : ''}`),
    }),
  });
  return nullable ? either.allow(null) : either;
}

/**
 * Present and not null, one problem when null (`must be <types>`): the other side of a condition
 * on a nullable field.
 */
export const presentNotNull = (types: string) =>
  Joi.required()
    .invalid(null)
    .error((reports) => {
      const isNull = reports.find((report) => report.code === 'any.invalid');
      if (!isNull) return reports;
      isNull.message = `must be ${types}`;
      return [isNull];
    });

/** A value of one of several forms, one problem when it matches none. */
export const eitherForm = (...schemas: Joi.Schema[]) => Joi.alternatives(...schemas).match('one');

/** A list of at most `max` of `item`. */
export const listOf = (item: Joi.Schema, max: number) => Joi.array().items(item).max(max);
