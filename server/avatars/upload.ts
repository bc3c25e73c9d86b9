import type { FastifyError, FastifyRequest } from 'fastify';
import { AVATAR_FIELD, AVATAR_MAX_BYTES } from '../../contract/verification';
import { AppError } from '../errors';

const TOO_MANY_PARTS = new Set(['FST_FIELDS_LIMIT', 'FST_FILES_LIMIT', 'FST_PARTS_LIMIT']);

/**
 * Uploads being read, waiting to be decoded or decoded, from every account at once. Each holds
 * up to AVATAR_MAX_BYTES in memory, and pictures are decoded one at a time: without a bound, a few
 * hundred uploads at once held a gigabyte and waited minutes. More are refused (503) unread.
 */
export const MAX_UPLOADS_AT_ONCE = 8;
/**
 * Of those, one account's: a person uploads one picture at a time (two with a second tab), so one
 * account cannot hold every place while other people's uploads are turned away.
 */
export const MAX_UPLOADS_PER_ACCOUNT = 2;
let uploadsInProgress = 0;
const accountUploads = new Map<string, number>();
/** The refusal: load shed on purpose, so logged as a warning, not as a fault (see avatarRoutes). */
export const UPLOADS_BUSY = AppError.uploadsBusy(5);

/** Uploads under way: everyone's, or one account's. */
export const uploadsUnderWay = (userId?: string) => (userId === undefined ? uploadsInProgress : (accountUploads.get(userId) ?? 0));

/** Runs an upload of `userId`'s within both bounds, or refuses it: 429 past the account's, UPLOADS_BUSY past everyone's. */
export async function admittingUpload<T>(userId: string, upload: () => Promise<T>): Promise<T> {
  const own = accountUploads.get(userId) ?? 0;
  if (own >= MAX_UPLOADS_PER_ACCOUNT) throw AppError.ownUploadsBusy(5);
  if (uploadsInProgress >= MAX_UPLOADS_AT_ONCE) throw UPLOADS_BUSY;
  uploadsInProgress += 1;
  accountUploads.set(userId, own + 1);
  try {
    return await upload();
  } finally {
    uploadsInProgress -= 1;
    const left = accountUploads.get(userId)! - 1;
    if (left === 0) accountUploads.delete(userId);
    else accountUploads.set(userId, left);
  }
}

/**
 * The bytes of the picture sent as the form's image field, its only part. Every part is read: one
 * after the picture is refused as one before it is (reading stopped at the picture, and anything
 * after it was taken with a 200).
 */
export async function readPicture(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart()) throw AppError.notAnImage();
  try {
    let picture: Buffer | undefined;
    for await (const part of request.parts()) {
      if (picture !== undefined || part.type !== 'file' || part.fieldname !== AVATAR_FIELD) {
        // Nothing taken yet, and a file, or the image field as text: not a picture, as the spec words it.
        throw picture === undefined && (part.type === 'file' || part.fieldname === AVATAR_FIELD) ? AppError.notAnImage() : AppError.tooManyUploadParts();
      }
      picture = await part.toBuffer();
    }
    if (picture === undefined) throw AppError.notAnImage();
    return picture;
  } catch (error) {
    // busboy's parse errors are plain Errors without a status; anything raised while reading the body is about the body.
    if (error instanceof AppError || (error as FastifyError).statusCode !== undefined) throw error;
    const refusal = AppError.incompleteUpload();
    refusal.cause = error;
    throw refusal;
  }
}

/**
 * What to answer for a failed upload: the spec's one message, or what else is wrong with the
 * upload itself. Undefined for what keeps its own answer: a missing token, throttling, faults.
 */
export function uploadRefusal(error: FastifyError): AppError | undefined {
  const status = error.statusCode ?? 500;
  if (status < 400 || status >= 500 || status === 401 || status === 403 || status === 429) return undefined;
  if (error instanceof AppError) return error;
  if (error.code === 'FST_MP_PREMATURE_CLOSE') return AppError.incompleteUpload();
  if (error.code === 'FST_REQ_FILE_TOO_LARGE') return AppError.pictureTooLarge(AVATAR_MAX_BYTES);
  if (TOO_MANY_PARTS.has(error.code)) return AppError.tooManyUploadParts();
  // Anything else is no picture: a JSON or text body past the server's limit too.
  return AppError.notAnImage();
}
