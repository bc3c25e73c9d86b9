// Remembers, for this tab, which authorization requests already got their fresh sign-in
// (prompt=login, max_age), so a request asks for it once and never loops.
const KEY = 'guard-fresh-login';

function done(): string[] {
  try {
    return JSON.parse(sessionStorage.getItem(KEY) ?? '[]') as string[];
  } catch {
    return [];
  }
}

export const hadFreshLogin = (request: string) => done().includes(request);

export function markFreshLogin(request: string): void {
  sessionStorage.setItem(KEY, JSON.stringify([...done().slice(-20), request]));
}
