import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { AppError } from '../errors';
import { API_HEADER_LINES, API_HEADERS } from './security-headers';

/** Node's own refusals of a request it could not take in, in the catalogue's words. */
function refusalFor(code: string | undefined): AppError {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return AppError.requestTimedOut();
  if (code === 'HPE_HEADER_OVERFLOW') return AppError.headersTooLarge();
  return AppError.notHttp();
}

/**
 * Answers what Node refuses before Fastify sees a request (a request that stops arriving, headers
 * too large, bytes that are not HTTP) in the API's shape and with its headers, as Fastify's own
 * handler would in its shape, then closes the connection: what is left of it cannot be read.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  // A connection the client reset, or one already closed, has no one to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const refusal = refusalFor(error.code);
    const body = JSON.stringify({ error: refusal.message });
    socket.write(`HTTP/1.1 ${refusal.statusCode} ${STATUS_CODES[refusal.statusCode]}\r\n${API_HEADER_LINES}Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy(error);
}

/**
 * Answers an Expect header other than 100-continue (RFC 9110 §10.1.1), which Node refuses with a
 * bare 417, in the API's shape. The body the client may send anyway is not read: the connection
 * closes after the answer.
 */
export function answerUnmetExpectation(_request: IncomingMessage, response: ServerResponse): void {
  const refusal = AppError.unmetExpectation();
  const body = JSON.stringify({ error: refusal.message });
  response.writeHead(refusal.statusCode, { ...API_HEADERS, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), Connection: 'close' });
  response.end(body);
}
