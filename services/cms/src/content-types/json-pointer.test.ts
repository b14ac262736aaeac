import { pointerParts } from './json-pointer';

describe('pointerParts', () => {
  it('when a pointer has escaped names, then each part is decoded (~1 is a slash, ~0 a tilde)', () => {
    expect(pointerParts('/items/0/a~1b/c~0d/~01')).toEqual(['items', '0', 'a/b', 'c~d', '~1']);
  });

  it('when the pointer is the whole document, then it has no parts', () => {
    expect(pointerParts('')).toEqual([]);
  });
});
