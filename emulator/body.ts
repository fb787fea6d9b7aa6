// A request's body, bounded: both emulators (the provider's and the cash registers') read theirs this way.
import type { IncomingMessage } from 'node:http';

/** A request's body as text, refused (the connection dropped) beyond `max` bytes. */
export function readBody(req: IncomingMessage, max: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > max) {
        req.destroy();
        reject(new Error('body too large'));
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
