import { providerOfModel } from './routing';

describe('providerOfModel', () => {
  it.each([
    ['gpt-4o', 'openai'],
    ['o1-preview', 'openai'],
    ['o3', 'openai'],
    ['o4-mini', 'openai'],
    ['chatgpt-4o-latest', 'openai'],
    ['claude-3-5-haiku-latest', 'anthropic'],
  ])('when the model is %s, then the vendor is %s', (model, provider) => {
    expect(providerOfModel(model)).toBe(provider);
  });

  it.each(['llama-3', 'gemini-pro', 'GPT-4o', 'claude', 'o2-mini', ''])(
    'when the model is %j, then no vendor serves it',
    (model) => {
      expect(providerOfModel(model)).toBeUndefined();
    },
  );
});
