import { isIPv4, isIPv6 } from 'node:net';

/** How many leading bits of an IPv6 address name one client: a /64 is one site's subnet. */
export const IPV6_CLIENT_PREFIX = 64;

const IPV4_MAPPED = /^::ffff:(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/i;

/** The eight 16-bit groups of a valid IPv6 address (an embedded IPv4 tail included). */
function ipv6Groups(address: string): number[] {
  let text = address;
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail.slice(1).map(Number);
    text = `${text.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split('::');
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const front = part(head);
  const back = part(rest);
  const gap = rest === undefined ? [] : new Array<number>(8 - front.length - back.length).fill(0);
  return [...front, ...gap, ...back];
}

/**
 * The key that names one client for per-address limits: an IPv4 address as it is (an IPv4 client
 * of a dual-stack listener arrives IPv4-mapped, `::ffff:a.b.c.d`, and is that IPv4 address), an
 * IPv6 address by its /64 (`2001:db8:1:2::/64`), since one host may use a whole /64.
 * Not express-rate-limit's `ipKeyGenerator`: it keys every IPv4-mapped address by `::/56`, one
 * key for every IPv4 client (the README names the version checked).
 */
export function clientAddressKey(ip: string | undefined): string {
  if (!ip) return 'unknown';
  if (isIPv4(ip)) return ip;
  // The common case on a dual-stack listener, without taking the address apart.
  const mapped = IPV4_MAPPED.exec(ip);
  if (mapped && isIPv4(mapped[1])) return mapped[1];
  const address = ip.replace(/%.*$/, '');
  if (!isIPv6(address)) return ip;
  const groups = ipv6Groups(address.toLowerCase());
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return `${groups[6] >> 8}.${groups[6] & 0xff}.${groups[7] >> 8}.${groups[7] & 0xff}`;
  }
  return `${groups
    .slice(0, IPV6_CLIENT_PREFIX / 16)
    .map((g) => g.toString(16))
    .join(':')}::/${IPV6_CLIENT_PREFIX}`;
}
