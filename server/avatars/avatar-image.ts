import { AVATAR_MAX_PIXELS } from '../../contract/verification';
import { AppError } from '../errors';
import { workSlots } from '../operations/work-slots';

// libvips costs 19 MB of resident memory from the moment it loads: only once a picture comes.
// Its operation cache (up to 100 operations, 50 MB) is off: every picture is a new one, so it
// would only hold memory.
let loadedSharp: Promise<typeof import('sharp')['default']> | undefined;
const loadSharp = () =>
  (loadedSharp ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    return sharp;
  }));

/** Formats accepted as pictures. SVG is refused: it is a document that can carry scripts. */
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'heif', 'tiff']);
export const AVATAR_SIZE = 512;

/**
 * Decodes an uploaded picture and re-encodes it as a square WebP: turned upright, centre-cropped,
 * and with every piece of metadata (EXIF, GPS, ICC comments) left behind.
 */
export function normaliseAvatar(bytes: Buffer): Promise<{ bytes: Buffer; contentType: string }> {
  return decoding.run(() => decode(bytes));
}

// One picture at a time: a large one costs most of a second of a pool thread and some 50 MB,
// and uploads at once would hold the pool that sign-ins hash and sign on (see workSlots).
const decoding = workSlots(1);
/** How many pictures are being decoded right now. */
export const picturesDecoding = () => decoding.running();

async function decode(bytes: Buffer): Promise<{ bytes: Buffer; contentType: string }> {
  const sharp = await loadSharp();
  try {
    const image = sharp(bytes, { limitInputPixels: AVATAR_MAX_PIXELS, failOn: 'warning', animated: false });
    const { format } = await image.metadata();
    if (!format || !ACCEPTED_FORMATS.has(format)) throw AppError.notAnImage();
    const output = await image.rotate().resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover', position: 'centre' }).webp({ quality: 86 }).toBuffer();
    return { bytes: output, contentType: 'image/webp' };
  } catch (error) {
    if (error instanceof AppError) throw error;
    // Its header says it is too large to decode (read no further): told so, not "not an image".
    if (error instanceof Error && /exceeds pixel limit/.test(error.message)) throw AppError.pictureTooManyPixels(AVATAR_MAX_PIXELS);
    throw AppError.notAnImage();
  }
}
