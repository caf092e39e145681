import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';

/**
 * The visitor's address: the socket peer, or the forwarded address only when Fastify's `trustProxy`
 * (TRUST_PROXY) trusts the peer. A forwarded value that is not an IP address never counts.
 */
export function clientAddress(req: FastifyRequest): string {
  const ip = req.ip;
  if (ip && isIP(ip) !== 0) return normaliseIp(ip);
  return normaliseIp(req.socket.remoteAddress ?? '0.0.0.0');
}

function normaliseIp(ip: string): string {
  return ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
}
