/**
 * Slow clients cannot hold sockets (issue 15: 1,600 connections with half-sent headers stayed
 * open past 15 s). With short timeouts, through a listening server: half-sent headers, a
 * stalled body, a silent connection and an idle keep-alive connection are each closed by the
 * server, all but the last with a 408 envelope. The test waits for the server's own close (the
 * event), with no assertion on elapsed time.
 */
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { checkingIntervalOf, httpServerOptions } from '../../src/server/timeouts.js';
import { FakeCrm } from './fake-crm.js';

let app: ReturnType<typeof buildApp>;
let port: number;

beforeAll(async () => {
  app = buildApp({ crm: new FakeCrm(), timeouts: { headersMs: 300, requestMs: 600, idleMs: 300 } });
  await app.listen({ host: '127.0.0.1', port: 0 });
  port = (app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await app.close();
});

/** Opens a connection, writes `text`, and resolves with what the server sent once IT closes the connection. */
function untilServerCloses(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('connect', () => {
      if (text !== '') socket.write(text);
    });
    socket.on('data', (d) => (received += d.toString()));
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
  });
}

describe('HTTP timeouts', () => {
  it('half-sent headers are answered 408 and closed, for many connections at once', async () => {
    const answers = await Promise.all(Array.from({ length: 200 }, () => untilServerCloses('GET /v4/people/1 HTTP/1.1\r\nHost: x\r\nX-Slow: ')));
    for (const a of answers) {
      expect(a).toMatch(/^HTTP\/1\.1 408 /);
      expect(a).toContain('"code":"REQUEST_TIMEOUT"');
    }
  });

  it('a body that stalls is answered 408 and closed', async () => {
    const a = await untilServerCloses('POST /v4/people/find HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"firstName":');
    expect(a).toMatch(/408/);
  });

  it('a connection that sends nothing is answered 408 and closed', async () => {
    expect(await untilServerCloses('')).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('an idle keep-alive connection is closed after its request', async () => {
    const a = await untilServerCloses('GET /v4/nothing-here HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(a).toMatch(/^HTTP\/1\.1 404 /); // answered, then closed while idle (no second answer)
    expect(a.match(/HTTP\/1\.1/g)).toHaveLength(1);
  });

  it('Node checks the timeouts often enough, and never headers after the whole request', () => {
    expect(checkingIntervalOf({ headersMs: 10_000, requestMs: 30_000, idleMs: 30_000 })).toBe(1000);
    expect(httpServerOptions({ headersMs: 50_000, requestMs: 20_000, idleMs: 5 })).toMatchObject({
      headersTimeout: 20_000,
      requestTimeout: 20_000,
      keepAliveTimeout: 5,
    });
  });
});
