import { ipKeyGenerator } from 'express-rate-limit';
import { clientAddressKey } from './client-address';

describe('clientAddressKey', () => {
  it('when an IPv4 client reaches a dual-stack listener, then its key is its IPv4 address', () => {
    expect(clientAddressKey('::ffff:127.0.0.2')).toBe('127.0.0.2');
    expect(clientAddressKey('::FFFF:10.1.2.3')).toBe('10.1.2.3');
    expect(clientAddressKey('0:0:0:0:0:ffff:7f00:3')).toBe('127.0.0.3');
    expect(clientAddressKey('::ffff:127.0.0.2')).not.toBe(clientAddressKey('::ffff:127.0.0.3'));
  });

  it('when express-rate-limit 8.2.1 keys IPv4-mapped addresses, then every IPv4 client shares one key (why it is wrapped)', () => {
    expect(ipKeyGenerator('::ffff:127.0.0.2')).toBe(ipKeyGenerator('::ffff:127.0.0.3'));
  });

  it('when the address is plain IPv4, then it is kept as it is', () => {
    expect(clientAddressKey('192.0.2.7')).toBe('192.0.2.7');
  });

  it('when the address is IPv6, then addresses of one /64 share a key and other /64s do not', () => {
    const a = clientAddressKey('2001:db8:1:2::1');
    expect(a).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe(a);
    expect(clientAddressKey('2001:DB8:1:2:0:0:0:9')).toBe(a);
    expect(clientAddressKey('2001:db8:1:3::1')).not.toBe(a);
    expect(clientAddressKey('::1')).toBe('0:0:0:0::/64');
    expect(clientAddressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('when there is no address, then one "unknown" key is used', () => {
    expect(clientAddressKey(undefined)).toBe('unknown');
    expect(clientAddressKey('')).toBe('unknown');
  });
});
