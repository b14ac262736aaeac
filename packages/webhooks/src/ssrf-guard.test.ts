import { assertTargetAllowed, isPrivateAddress, WebhookRefusedError } from './ssrf-guard';

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::7f00:1',
    '::127.0.0.1',
    '::ffff:0:7f00:1',
    '64:ff9b::7f00:1',
    '64:ff9b:1::a00:1',
    'fec0::1',
    'feff::1',
    '2002:7f00:1::1',
    '2001:0:4136:e378::1',
  ])('when the address is %s, then it is private', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'when the address is %s, then it is public',
    (address) => {
      expect(isPrivateAddress(address)).toBe(false);
    },
  );
});

describe('assertTargetAllowed', () => {
  it('when a literal private IP is not allow-listed, then it is refused before any connection', () => {
    expect(() => assertTargetAllowed(new URL('http://169.254.169.254/latest'), [])).toThrow(WebhookRefusedError);
    expect(() => assertTargetAllowed(new URL('http://[::1]:80/'), [])).toThrow(WebhookRefusedError);
  });

  it.each(['http://[::7f00:1]/', 'http://[64:ff9b::a9fe:a9fe]/', 'http://[2002:a9fe:a9fe::1]/', 'http://[fec0::1]/'])(
    'when a literal IPv6 host %s embeds or reaches a private network, then it is refused',
    (url) => {
      expect(() => assertTargetAllowed(new URL(url), [])).toThrow(WebhookRefusedError);
    },
  );

  it('when a public IPv6 host is given literally, then it passes', () => {
    expect(assertTargetAllowed(new URL('http://[2606:4700:4700::1111]/'), [])).toBe(false);
  });

  it('when the host is allow-listed, then it passes', () => {
    expect(assertTargetAllowed(new URL('http://127.0.0.1:8080/'), ['127.0.0.1'])).toBe(true);
  });

  it('when the scheme is not http(s), then it is refused', () => {
    expect(() => assertTargetAllowed(new URL('file:///etc/passwd'), ['127.0.0.1'])).toThrow(WebhookRefusedError);
  });
});
