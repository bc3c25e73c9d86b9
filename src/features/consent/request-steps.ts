// Remembers, for this tab, which authorization requests already had a step they ask for once: a
// fresh sign-in (prompt=login, max_age) or the account picker (prompt=select_account). Asked once,
// a step never loops, and the person's choice there is not undone.
type Step = 'fresh-login' | 'account-chosen';

function done(step: Step): string[] {
  try {
    return JSON.parse(sessionStorage.getItem(`guard-${step}`) ?? '[]') as string[];
  } catch {
    return [];
  }
}

export const hadStep = (step: Step, request: string) => done(step).includes(request);

export function markStep(step: Step, request: string): void {
  sessionStorage.setItem(`guard-${step}`, JSON.stringify([...done(step).slice(-20), request]));
}
