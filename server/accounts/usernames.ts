import { USERNAME_MAX_LENGTH } from '../../contract/fields';

// Room for the "-2"… that tells apart people whose emails begin alike.
const BASE_MAX_LENGTH = USERNAME_MAX_LENGTH - 5;

// Latin letters that NFKD leaves whole (they are letters of their own, not accented ones), spelt as
// their languages spell them without the letter.
const SPELLED_OUT: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ð: 'd', þ: 'th', ł: 'l', ı: 'i', ħ: 'h', ŧ: 't' };

/**
 * Names Gitea keeps for its own pages, which it refuses as usernames (models/user/user.go,
 * reservedUsernames and reservedUserPatterns): made from an email, such a name would fail the
 * person's first sign-in to Gitea, so it counts as taken ("admin@…" gives "admin-2").
 */
const GITEA_RESERVED = new Set(['admin', 'api', 'assets', 'attachments', 'avatar', 'avatars', 'captcha', 'commits', 'debug', 'error', 'explore', 'favicon.ico', 'ghost', 'issues', 'login', 'manifest.json', 'metrics', 'milestones', 'new', 'notifications', 'org', 'pulls', 'raw', 'repo', 'repo-avatars', 'robots.txt', 'search', 'serviceworker.js', 'ssh_info', 'swagger.v1.json', 'user', 'v2', 'gitea-actions']);
const GITEA_RESERVED_ENDING = /\.(keys|gpg|rss|atom|png)$/;
const reservedByGitea = (name: string) => GITEA_RESERVED.has(name) || GITEA_RESERVED_ENDING.test(name);

/**
 * A username in the contract's rule, made from an email's local part: "Jane.Doe+news@…" gives
 * "jane.doe-news", "Zoë@…" gives "zoe", "Groß@…" gives "gross", and one with nothing usable gives "member".
 */
export function usernameFromEmail(email: string): string {
  const local = email.slice(0, Math.max(0, email.lastIndexOf('@'))) || email;
  const base = local
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[ßæœøđðþłıħŧ]/g, (letter) => SPELLED_OUT[letter]!)
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/[._-]{2,}/g, (run) => run[0]!)
    .replace(/^[._-]+/, '')
    .slice(0, BASE_MAX_LENGTH)
    .replace(/[._-]+$/, '');
  return base || 'member';
}

/** The first of `base`, `base-2`, `base-3`… that `taken` does not hold and Gitea does not keep. */
export function firstFreeUsername(base: string, taken: (name: string) => boolean): string {
  const free = (name: string) => !taken(name) && !reservedByGitea(name);
  if (free(base)) return base;
  for (let n = 2; ; n++) if (free(`${base}-${n}`)) return `${base}-${n}`;
}
