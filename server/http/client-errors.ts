import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { AppError } from '../errors';
import { API_HEADER_LINES } from './security-headers';

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
