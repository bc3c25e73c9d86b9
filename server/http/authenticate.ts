import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors';

/** The credential of an `Authorization: Bearer …` header, or undefined. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
  return match?.[1];
}

export function requireBearer(request: FastifyRequest): string {
  const token = bearerToken(request);
  if (!token) throw AppError.unauthenticated();
  return token;
}
