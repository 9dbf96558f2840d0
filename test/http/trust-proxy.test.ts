/**
 * TRUST_PROXY: the client address a request is limited by (sign-in attempts, the landing page's search) must not be
 * chosen by the client. With `on` (one proxy in front) a forged leftmost X-Forwarded-For hop is ignored.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import { appOptions } from '../helper.js';

async function clientAddress(trustProxyEnv: string, headers: Record<string, string>, remoteAddress = '127.0.0.1'): Promise<{ ip: string; protocol: string }> {
  const app = await buildApp({ ...appOptions(), trustProxy: loadConfig({ TRUST_PROXY: trustProxyEnv }).trustProxy, maxEventLoopDelayMs: 0 });
  app.get('/test/whoami', async (request) => ({ ip: request.ip, protocol: request.protocol }));
  try {
    return (await app.inject({ method: 'GET', url: '/test/whoami', headers, remoteAddress })).json();
  } finally {
    await app.close();
  }
}

describe('TRUST_PROXY', () => {
  const forged = { 'x-forwarded-for': '6.6.6.6, 203.0.113.7', 'x-forwarded-proto': 'https' };

  it('off: the socket address, whatever the headers say', async () => {
    assert.deepEqual(await clientAddress('off', forged), { ip: '127.0.0.1', protocol: 'http' });
  });

  it('on: the address the one proxy in front saw (the last hop), not a hop the client wrote', async () => {
    assert.deepEqual(await clientAddress('on', forged), { ip: '203.0.113.7', protocol: 'https' });
  });

  it('a hop count: that many proxies are believed', async () => {
    assert.equal((await clientAddress('2', { 'x-forwarded-for': '6.6.6.6, 198.51.100.1, 10.0.0.2' })).ip, '198.51.100.1');
  });

  it('proxy addresses: headers are believed only from those proxies, hop by hop', async () => {
    const headers = { 'x-forwarded-for': '6.6.6.6, 198.51.100.1, 10.0.0.2' };
    assert.equal((await clientAddress('10.0.0.0/8,127.0.0.1', headers)).ip, '198.51.100.1');
    assert.equal((await clientAddress('10.0.0.0/8', headers, '192.0.2.9')).ip, '192.0.2.9', 'a request not from a listed proxy');
  });
});
