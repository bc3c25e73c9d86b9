import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { jpegWithGps, pngOf } from '../../tests/support/images';
import { AVATAR_SIZE, normaliseAvatar, picturesDecoding } from './avatar-image';

describe('normaliseAvatar', () => {
  it('makes a square WebP without the metadata it came with', async () => {
    const { bytes, contentType } = await normaliseAvatar(await jpegWithGps());
    const metadata = await sharp(bytes).metadata();
    expect(contentType).toBe('image/webp');
    expect([metadata.format, metadata.width, metadata.height, metadata.exif]).toEqual(['webp', AVATAR_SIZE, AVATAR_SIZE, undefined]);
  });

  it('keeps the first frame of an animated picture, as a still one', async () => {
    const frames = await Promise.all(['red', 'blue', 'green'].map((background) => sharp({ create: { width: 64, height: 64, channels: 3, background } }).png().toBuffer()));
    const animated = await sharp(frames, { join: { animated: true } }).gif().toBuffer();
    expect((await sharp(animated).metadata()).pages).toBe(3);
    const { bytes } = await normaliseAvatar(animated);
    const metadata = await sharp(bytes).metadata();
    expect([metadata.pages ?? 1, metadata.width, metadata.height]).toEqual([1, AVATAR_SIZE, AVATAR_SIZE]);
    const { dominant } = await sharp(bytes).stats();
    expect(dominant.r).toBeGreaterThan(200);
    expect(dominant.b).toBeLessThan(50);
  });

  it('decodes one picture at a time, so uploads at once leave the thread pool to sign-ins', async () => {
    const pictures = await Promise.all([pngOf(2000, 1500), pngOf(1500, 2000), pngOf(1800, 1800)]);
    let most = 0;
    const watcher = setInterval(() => (most = Math.max(most, picturesDecoding())), 1);
    const made = await Promise.all(pictures.map((picture) => normaliseAvatar(picture)));
    clearInterval(watcher);
    expect(made.map((avatar) => avatar.contentType)).toEqual(['image/webp', 'image/webp', 'image/webp']);
    expect(most).toBe(1);
    expect(picturesDecoding()).toBe(0);
  });

  it("turns libvips' operation cache off: no two pictures are the same, so it would only hold memory", async () => {
    await normaliseAvatar(await pngOf(640, 480));
    expect(sharp.cache()).toMatchObject({ memory: { max: 0 }, files: { max: 0 }, items: { max: 0 } });
  });
});
