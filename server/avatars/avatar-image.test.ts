import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { jpegWithGps, pngOf } from '../../tests/support/images';
import { AVATAR_SIZE, normaliseAvatar } from './avatar-image';

describe('normaliseAvatar', () => {
  it('makes a square WebP without the metadata it came with', async () => {
    const { bytes, contentType } = await normaliseAvatar(await jpegWithGps());
    const metadata = await sharp(bytes).metadata();
    expect(contentType).toBe('image/webp');
    expect([metadata.format, metadata.width, metadata.height, metadata.exif]).toEqual(['webp', AVATAR_SIZE, AVATAR_SIZE, undefined]);
  });

  it("turns libvips' operation cache off: no two pictures are the same, so it would only hold memory", async () => {
    await normaliseAvatar(await pngOf(640, 480));
    expect(sharp.cache()).toMatchObject({ memory: { max: 0 }, files: { max: 0 }, items: { max: 0 } });
  });
});
