import { describe, expect, it } from 'vitest';
import { maskedUrl } from './masked-url';

describe('maskedUrl', () => {
  it.each([
    ['postgres://hg:S3cret@db:5432/hg', 'postgres://hg:***@db:5432/hg'],
    ['postgres://hg:my@S3cret@db/hg', 'postgres://hg:***@db/hg'],
    ['postgres://hg:S3cret#x@db/hg', 'postgres://hg:***@db/hg'],
    ['postgres://hg:my S3cret\t@db/hg', 'postgres://hg:***@db/hg'],
    ['hg:S3cret@db:5432/hg', 'hg:***@db:5432/hg'],
    // No scheme in front: a URL further on is not taken for one.
    ['hg:S3cret@db/hg?application_name=https://id.example.com', 'hg:***@db/hg?application_name=https://id.example.com'],
    // pg reads these from the query too.
    ['postgres://hg@db/hg?password=S3cret', 'postgres://hg@db/hg?password=***'],
    ['postgres://hg@db/hg?sslmode=verify-full&sslpassword=S3cret&application_name=x', 'postgres://hg@db/hg?sslmode=verify-full&sslpassword=***&application_name=x'],
    ['postgres://hg:S3cret@db/hg?PASSWORD=S3cret', 'postgres://hg:***@db/hg?PASSWORD=***'],
    ['postgres://hg@/hg?host=/run/postgresql&password=S3cret', 'postgres://hg@/hg?host=/run/postgresql&password=***'],
    ['smtp://mailer:S3cret@mail:587', 'smtp://mailer:***@mail:587'],
  ])('hides the password in %s', (value, shown) => {
    expect(maskedUrl(value)).toBe(shown);
  });

  it.each(['postgres://hg@db:5432/hg', 'postgres://hg@/hg?host=/run/postgresql', 'smtp://mail:25', 'https://id.example.com', 'not a url', 'postgres://hg@db/hg?application_name=ops:team@home'])('leaves %s as it is: no password in it', (value) => {
    expect(maskedUrl(value)).toBe(value);
  });
});
