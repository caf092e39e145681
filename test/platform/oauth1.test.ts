// @integration: the OAuth nonce replay cache lives in Redis when REDIS_URL is set
import { describe, expect, it } from 'vitest';
import {
  baseString,
  parseOAuthHeader,
  parseQuery,
  percentEncode,
  phpView,
  sign,
  verifySignature,
} from '../../src/platform/auth/oauth1.js';
import { SecretBox } from '../../src/platform/auth/secret-box.js';

describe('OAuth 1.0a pieces', () => {
  it('RFC 5849 §3.4.1 example base string and RFC 3986 encoding', () => {
    expect(percentEncode("a b!*'()~")).toBe('a%20b%21%2A%27%28%29~');
    const params = parseQuery(
      'b5=%3D%253D&a3=a&c%40=&a2=r%20b&oauth_consumer_key=9djdj82h48djs9d2&oauth_token=kkk9d7dh3k39sjv7&oauth_signature_method=HMAC-SHA1&oauth_timestamp=137131201&oauth_nonce=7d8f3e4a&c2=&a3=2+q',
    );
    expect(baseString('POST', 'http://example.com/request', params)).toBe(
      'POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D%26c2%3D%26oauth_consumer_key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D137131201%26oauth_token%3Dkkk9d7dh3k39sjv7',
    );
  });
  it('Authorization: OAuth header parameters (realm left out); other schemes are not OAuth', () => {
    expect(parseOAuthHeader('OAuth realm="x", oauth_consumer_key="ck_1", oauth_signature="a%2Bb%3D"')).toEqual([
      ['oauth_consumer_key', 'ck_1'],
      ['oauth_signature', 'a+b='],
    ]);
    expect(parseOAuthHeader('Basic abc')).toBeNull();
  });
  it("PHP's view: a repeated name keeps its last value, name[] entries are numbered", () => {
    expect(
      phpView([
        ['a', '1'],
        ['a', '2'],
        ['ids[]', '5'],
        ['ids[]', '6'],
      ]),
    ).toEqual([
      ['ids[0]', '5'],
      ['ids[1]', '6'],
      ['a', '2'],
    ]);
  });
  it('verifies the RFC way and the PHP way; anything else fails', () => {
    const req = { method: 'GET', baseUrl: 'http://h/p', params: parseQuery('ids[]=1&ids[]=2&x=1') };
    const rfc = sign('HMAC-SHA256', baseString('GET', 'http://h/p', req.params), 'cs_s');
    const php = sign('HMAC-SHA1', baseString('GET', 'http://h/p', phpView(req.params)), 'cs_s');
    expect(verifySignature(req, 'HMAC-SHA256', 'cs_s', rfc)).toBe(true);
    expect(verifySignature(req, 'HMAC-SHA1', 'cs_s', php)).toBe(true);
    expect(verifySignature(req, 'HMAC-SHA256', 'cs_other', rfc)).toBe(false);
    expect(verifySignature({ ...req, method: 'POST' }, 'HMAC-SHA256', 'cs_s', rfc)).toBe(false);
  });
});

describe('SecretBox (AES-256-GCM, key from ROVA_SECRET)', () => {
  const box = new SecretBox('x'.repeat(40), 'wc-consumer-secret');
  it('opens what it sealed, for the same aad only; tampering or another root secret gives null', () => {
    const sealed = box.seal('cs_secret', 'row-1');
    expect(sealed).not.toContain('cs_secret');
    expect(box.open(sealed, 'row-1')).toBe('cs_secret');
    expect(box.open(sealed, 'row-2')).toBeNull();
    const parts = sealed.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(box.open(parts.join('.'), 'row-1')).toBeNull();
    expect(new SecretBox('y'.repeat(40), 'wc-consumer-secret').open(sealed, 'row-1')).toBeNull();
    expect(box.open('garbage', 'row-1')).toBeNull();
  });
});
