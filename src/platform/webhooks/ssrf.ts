import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

// Loopback, private, link-local, CGNAT, unspecified, multicast, reserved and documentation ranges.
const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96], ['2001:db8::', 32]] as const) blocked.addSubnet(net, bits, 'ipv6');

export function isPrivateAddress(ip: string): boolean {
  const v = isIP(ip);
  if (v === 4) return blocked.check(ip, 'ipv4');
  if (v === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
    if (mapped) return blocked.check(mapped[1]!, 'ipv4');
    return blocked.check(ip, 'ipv6');
  }
  return true;
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
  if (addrs.some(isPrivateAddress)) throw new SsrfError(`${host} resolves to a loopback or private address; an administrator must allow private webhook URLs first`);
}

function resolveAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve) => dnsLookup(host, { all: true }, (err, a) => resolve(err ? [] : a)));
}

/**
 * A `lookup` for http.request that refuses private addresses at connect time, so a DNS answer that changes
 * between the check and the connection (rebinding) cannot reach the internal network.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: object, cb: (err: Error | null, address: string | LookupAddress[], family?: number) => void): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addrs) => {
      if (err) return cb(err, '', 4);
      const ok = allowPrivate ? addrs : addrs.filter((a) => !isPrivateAddress(a.address));
      if (ok.length === 0) return cb(new SsrfError(`${hostname} resolves to a private address`), '', 4);
      if ((options as { all?: boolean }).all) return cb(null, ok);
      return cb(null, ok[0]!.address, ok[0]!.family);
    });
  };
}
