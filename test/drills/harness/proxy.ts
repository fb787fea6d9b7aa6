// A TCP relay between Tolem and the provider's emulator: the provider "goes down" for Tolem when the relay
// stops listening and cuts the connections it carries (connection refused, then resets), and comes back
// when it listens again on the same port. The emulator itself keeps running with its state, as the real
// provider does when only the way to it is broken; its customers (test/payment/scan, confirm) reach it
// directly all along.
import { createServer, connect, type Server, type Socket } from 'node:net';

export class TcpRelay {
  private server?: Server;
  private readonly sockets = new Set<Socket>();

  private constructor(
    readonly port: number,
    private target: number,
  ) {}

  static async start(target: number): Promise<TcpRelay> {
    const relay = new TcpRelay(0, target);
    await relay.up();
    return relay;
  }

  async up(): Promise<void> {
    const server = createServer((inbound) => {
      const outbound = connect(this.target, '127.0.0.1');
      for (const s of [inbound, outbound]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => {
          inbound.destroy();
          outbound.destroy();
        });
      }
      inbound.pipe(outbound).pipe(inbound);
    });
    await new Promise<void>((r) => server.listen(this.port, '127.0.0.1', r));
    (this as { port: number }).port = (server.address() as { port: number }).port;
    this.server = server;
  }

  async down(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const s of this.sockets) s.destroy();
    await new Promise((r) => (server ? server.close(r) : r(undefined)));
  }

  close(): Promise<void> {
    return this.down();
  }
}
