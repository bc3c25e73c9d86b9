import { AVATAR_MAX_BYTES, AVATAR_MAX_PIXELS } from '../../../contract/verification';

// The server keeps a 512 px square; twice that leaves it room to crop and scale well.
const LONGEST_SIDE = 1024;

/**
 * A picture over the upload limits (a phone photo often is: over 5 MB, or a 50-megapixel one
 * under it) is drawn smaller here first, so any photo the browser can show can be sent. One it
 * cannot decode goes as it is, for the server to judge and explain.
 */
export async function fitPicture(file: File): Promise<File> {
  if (file.size <= AVATAR_MAX_BYTES && (await pixelsOf(file)) <= AVATAR_MAX_PIXELS) return file;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file); // turned upright by its EXIF orientation
  } catch {
    return file;
  }
  const scale = Math.min(1, LONGEST_SIDE / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(bitmap.width * scale);
  canvas.height = Math.round(bitmap.height * scale);
  const context = canvas.getContext('2d');
  context?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  if (!context) return file; // never a blank picture
  // WebP keeps transparency at a photo's size; a browser without it answers PNG.
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/webp', 0.9));
  if (!blob) return file;
  return new File([blob], blob.type === 'image/webp' ? 'avatar.webp' : 'avatar.png', { type: blob.type });
}

/** How many pixels a picture has, read from its header (nothing is decoded to tell); 0 if it is none. */
function pixelsOf(file: File): Promise<number> {
  const url = URL.createObjectURL(file);
  const image = new Image();
  return new Promise<number>((resolve) => {
    image.onload = () => resolve(image.naturalWidth * image.naturalHeight);
    image.onerror = () => resolve(0);
    image.src = url;
  }).finally(() => URL.revokeObjectURL(url));
}
