/**
 * A URL, or what was meant as one, with every password in it replaced by ***, for log lines and
 * error messages: the user's (`user:password@`, up to the last @, as pg reads it, so a stray @ in
 * the password cannot leak its tail) and those pg also takes from the query (`?password=`,
 * `?sslpassword=`, the client key's).
 */
export function maskedUrl(value: string): string {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(value)?.[0] ?? '';
  const rest = value.slice(scheme.length).replace(/^([^:/?#@]*):[\s\S]*@/, (_match, user: string) => `${user}:***@`);
  return scheme + rest.replace(/([?&](?:ssl)?password=)[^&#]*/gi, '$1***');
}
