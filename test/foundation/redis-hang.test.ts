// A Redis that accepts commands and never answers must not hang requests: the rate limiter falls back
// to counting in this process once REDIS_COMMAND_TIMEOUT_MS passes. The "Redis" here is a TCP server on
// 127.0.0.1 that answers the client's handshake and then nothing.
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis, createRateLimiter, REDIS_COMMAND_TIMEOUT_MS } from '../../src/infra/rate-limit-store.ts';

let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((socket) => {
    // Answers the handshake (HELLO as RESP2, CLIENT SETINFO, the INFO ready check), then nothing.
    socket.on('data', (chunk) => {
      for (const [, name] of chunk.toString().matchAll(/\*\d+\r\n\$\d+\r\n(\w+)/g)) {
        const cmd = name.toLowerCase();
        if (cmd === 'hello') socket.write('*4\r\n$6\r\nserver\r\n$5\r\nredis\r\n$5\r\nproto\r\n:2\r\n');
        else if (cmd === 'client' || cmd === 'select') socket.write('+OK\r\n');
        else if (cmd === 'info') {
          const info = '# Server\r\nloading:0\r\n';
          socket.write(`$${Buffer.byteLength(info)}\r\n${info}\r\n`);
        }
      }
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  url = `redis://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

describe('rate limits on a hanging Redis', () => {
  it('answer within the command time-out, counting locally', async () => {
    const redis = await connectRedis(url);
    await new Promise<void>((ok) => redis.once('ready', () => ok()));
    const limiter = createRateLimiter(redis, 'test');
    try {
      const started = Date.now();
      const decisions = [];
      for (let i = 0; i < 3; i++) decisions.push(await limiter.consume('live', 2, 'k1'));
      expect(Date.now() - started).toBeLessThan(3 * REDIS_COMMAND_TIMEOUT_MS + 2000);
      expect(decisions.map((d) => d.allowed)).toEqual([true, true, false]);
    } finally {
      redis.disconnect();
    }
  });
});
