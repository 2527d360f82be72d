import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { describeEachDatabase } from '../helpers/db';
import { testDeps } from '../helpers/app';
import { buildApp } from '../../server/app';
import { readConfig } from '../../server/config';

/** Issue 20, finding 9: connections sending their headers slowly stayed open 60 s, and nothing capped them. */
describeEachDatabase('slow clients', (ctx) => {
  let app: FastifyInstance;
  let port: number;
  beforeAll(async () => {
    const deps = testDeps(ctx());
    app = await buildApp({ ...deps, config: { ...deps.config, headersTimeoutMs: 1500, requestTimeoutMs: 3000, maxConnections: 3 } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await app?.close();
  });

  const connect = () =>
    new Promise<net.Socket>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
      socket.on('error', reject);
    });

  it('defaults: headers within 10 s, a request within 30 s, 1024 connections', () => {
    const config = readConfig({});
    expect([config.headersTimeoutMs, config.requestTimeoutMs, config.maxConnections]).toEqual([10_000, 30_000, 1024]);
  });

  it('a client that trickles its headers (slowloris) is answered 408 and dropped once the headers time is up', async () => {
    const socket = await connect();
    let answer = '';
    socket.on('data', (d) => (answer += d));
    const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now())));
    const started = Date.now();
    socket.write('GET /storefront-config.json HTTP/1.1\r\nHost: localhost\r\n');
    const trickle = setInterval(() => {
      if (!socket.destroyed) socket.write(`X-Slow-${Date.now()}: 1\r\n`);
    }, 200);
    const at = await closed;
    clearInterval(trickle);
    expect(at - started).toBeLessThan(1500 + 2500);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('connections beyond the cap are refused while the others are served', async () => {
    const open = await Promise.all([connect(), connect(), connect()]);
    const extra = await connect();
    const dropped = await new Promise<boolean>((resolve) => {
      extra.on('close', () => resolve(true));
      extra.write('GET /storefront-config.json HTTP/1.1\r\nHost: localhost\r\n\r\n');
      setTimeout(() => resolve(false), 2000);
    });
    expect(dropped).toBe(true);
    for (const s of open) s.destroy();
    await new Promise((r) => setTimeout(r, 100));
    const res = await fetch(`http://127.0.0.1:${port}/storefront-config.json`);
    expect(res.status).toBe(200);
  });
});
