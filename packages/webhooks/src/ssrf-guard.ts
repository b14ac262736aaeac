import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/** Private, loopback, link-local, shared, reserved and multicast ranges: never a webhook target. */
const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
// Forms that embed or tunnel to an IPv4 address are refused whole: which IPv4 host they reach
// is up to a translator or relay we cannot see.
for (const [network, prefix] of [
  ['::', 96], // unspecified, loopback and IPv4-compatible (::7f00:1)
  ['::ffff:0:0:0', 96], // SIIT IPv4-translated
  ['64:ff9b::', 96], // NAT64 well-known prefix
  ['64:ff9b:1::', 48], // NAT64 local-use prefix
  ['2001::', 32], // Teredo
  ['2002::', 16], // 6to4
  ['fec0::', 10], // site-local (deprecated, still routed inside some networks)
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

export class WebhookRefusedError extends Error {
  override readonly name = 'WebhookRefusedError';
}

export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Why a target is refused. It names neither the host nor what it resolved to: the refusal is
 * recorded where the tenant reads it, and must not tell them the addresses of internal names.
 */
export const TARGET_NOT_ALLOWED = 'target not allowed: private, loopback and link-local addresses are refused';

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request that refuses hosts resolving to a private address unless the
 * host is allow-listed. The connection goes to the very address checked here, so a second
 * DNS answer cannot swap in an internal one (rebinding).
 */
export function guardedLookup(allowed: boolean) {
  return (hostname: string, options: { all?: boolean; family?: number }, callback: LookupCallback): void => {
    dnsLookup(hostname, { family: options.family ?? 0, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const refused = addresses.find((a) => isPrivateAddress(a.address));
      if (refused && !allowed) {
        return callback(new WebhookRefusedError(TARGET_NOT_ALLOWED), []);
      }
      if (options.all) return callback(null, addresses);
      return callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/** Literal IP hosts skip DNS entirely, so they are checked before connecting. */
export function assertTargetAllowed(url: URL, allowedHosts: string[]): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const allowed = allowedHosts.map((h) => h.toLowerCase()).includes(host);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new WebhookRefusedError(`unsupported scheme ${url.protocol}`);
  if (!allowed && isIP(host) && isPrivateAddress(host)) throw new WebhookRefusedError(TARGET_NOT_ALLOWED);
  return allowed;
}
