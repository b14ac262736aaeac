import { scrubSecret } from './vendor-errors';

describe('scrubSecret', () => {
  it('when a vendor message echoes the key, then the key is replaced', () => {
    expect(scrubSecret('401 Incorrect API key provided: mykey-1234.', 'mykey-1234')).toBe(
      '401 Incorrect API key provided: [REDACTED].',
    );
  });

  it('when a message holds something shaped like a vendor key, then it is replaced too', () => {
    expect(scrubSecret('bad key sk-proj-abcdefghijkl and sk-ant-api03-xyzxyzxyz')).toBe(
      'bad key [REDACTED] and [REDACTED]',
    );
  });
});
