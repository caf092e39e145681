import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Global unicast (RFC 4291 2000::/3): the only IPv6 block a public host can sit in, apart from the IPv4 forms below. */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];

/**
 * The IPv4 address an IPv6 address carries, for the forms a client can use to reach an IPv4 host: IPv4-mapped
 * (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d, deprecated but still routed by some stacks), 6to4 (2002:AABB:CCDD::/16)
 * and Teredo (2001::/32, client address stored inverted in the last 32 bits). `null` when the address is none of them.
 */
function embeddedIPv4(v6: ipaddr.IPv6): ipaddr.IPv4[] | null {
  const p = v6.parts;
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  const range = v6.range();
  if (range === 'ipv4Mapped') return [v6.toIPv4Address()];
  if (p.slice(0, 6).every((x) => x === 0) && (p[6] !== 0 || p[7]! > 1)) return [v4(p[6]!, p[7]!)];
  if (range === '6to4') return [v4(p[1]!, p[2]!)];
  if (range === 'teredo') return [v4(p[2]!, p[3]!), v4(~p[6]! & 0xffff, ~p[7]! & 0xffff)];
  return null;
}

/**
 * Whether an address is anything but a public unicast one, by ipaddr.js's range classification. IPv4: every special
 * range (loopback, private, link-local, CGNAT, unspecified, broadcast, multicast, reserved, documentation, …). IPv6:
 * the forms that carry an IPv4 address are judged by that address; every other address must be plain `unicast` inside
 * global unicast 2000::/3, which refuses the whole reserved ::/8 (IPv4-translated ::ffff:0:a.b.c.d and the unnamed
 * ::ffff:0:0/96-style spellings included), 100::/64 discard, NAT64 64:ff9b::/96 and 64:ff9b:1::/48 (whatever IPv4 they
 * embed), unique-local fc00::/7, link-local fe80::/10, site-local fec0::/10, multicast ff00::/8, documentation
 * 2001:db8::/32 and 3fff::/20, the IETF protocol block 2001::/23 (benchmarking, ORCHID, AMT, AS112, …) and SRv6 5f00::/16.
 * Anything that does not parse counts as private.
 */
export function isPrivateAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return true;
  const addr = ipaddr.parse(ip);
  if (addr.kind() === 'ipv4') return addr.range() !== 'unicast';
  const v6 = addr as ipaddr.IPv6;
  const inner = embeddedIPv4(v6);
  if (inner) return inner.some((v4) => v4.range() !== 'unicast');
  return v6.range() !== 'unicast' || !v6.match(GLOBAL_UNICAST);
}

export class SsrfError extends Error {}

/** Checks a webhook URL's form: http(s), no credentials. */
export function checkUrlShape(raw: string): URL {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new SsrfError('url is not a valid URL');
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new SsrfError('url must use https (or http)');
  if (u.username || u.password) throw new SsrfError('url must not contain credentials');
  return u;
}

/** Resolves the host and refuses private addresses unless allowed. */
export async function checkUrlTarget(u: URL, allowPrivate: boolean): Promise<void> {
  if (allowPrivate) return;
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const addrs = isIP(host) ? [host] : (await resolveAll(host)).map((a) => a.address);
  if (addrs.length === 0) throw new SsrfError(`cannot resolve ${host}`);
  if (addrs.some(isPrivateAddress))
    throw new SsrfError(
      `${host} resolves to a loopback or private address; an administrator must allow private webhook URLs first`,
    );
}

function resolveAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve) => dnsLookup(host, { all: true }, (err, a) => resolve(err ? [] : a)));
}

/**
 * A `lookup` for http.request that refuses private addresses at connect time, so a DNS answer that changes
 * between the check and the connection (rebinding) cannot reach the internal network.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (
    hostname: string,
    options: object,
    cb: (err: Error | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addrs) => {
      if (err) return cb(err, '', 4);
      const ok = allowPrivate ? addrs : addrs.filter((a) => !isPrivateAddress(a.address));
      if (ok.length === 0) return cb(new SsrfError(`${hostname} resolves to a private address`), '', 4);
      if ((options as { all?: boolean }).all) return cb(null, ok);
      return cb(null, ok[0]!.address, ok[0]!.family);
    });
  };
}
