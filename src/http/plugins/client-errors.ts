// Failures of the HTTP exchange itself, before Fastify has a request: headers or URL over the limit,
// a request Node's parser refuses (Content-Length with Transfer-Encoding, a broken request line), a
// request that never finished arriving. Node hands these to the server's clientError handler with the
// bare socket, so the envelope and its X-Request-Id are written here as a raw HTTP response.
import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import { AppError, errorBody } from '../../errors.ts';

/** What each of Node's parser errors is, as an error of the envelope. */
function asAppError(err: Error & { code?: string }): AppError {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new AppError('headers_too_large', 'request headers (with the URL) are over the limit of 16 KiB');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return new AppError('request_timeout', 'the request did not arrive in time');
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
    case 'HPE_INVALID_TRANSFER_ENCODING':
      return new AppError('invalid_parameter', 'Content-Length and Transfer-Encoding may not both be sent');
    default:
      return new AppError('invalid_parameter', 'the request is not valid HTTP');
  }
}

export function clientErrorHandler(nextRequestId: () => string) {
  return (err: Error & { code?: string }, socket: Socket): void => {
    // A peer that went away has nobody to answer.
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const e = asAppError(err);
    const id = nextRequestId();
    const body = JSON.stringify(errorBody(e.code, e.status, e.message, id));
    socket.end(
      `HTTP/1.1 ${e.status} ${STATUS_CODES[e.status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${id}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  };
}
