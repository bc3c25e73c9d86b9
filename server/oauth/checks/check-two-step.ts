import type { ApiServiceRow } from '../../api-services/api-services-repository';
import { OAuthError } from '../oauth-error';

/** Whether a service takes a sign-in made this way (`amr`): one that asks for two steps needs `mfa`. */
export const takesSignIn = (service: Pick<ApiServiceRow, 'require_two_step'>, amr: string): boolean =>
  service.require_two_step !== 1 || amr.split(' ').includes('mfa');

/** What the consent screen tells a person whose sign-in a two-step service does not take. */
export function twoStepRefusal(service: Pick<ApiServiceRow, 'name'>, twoStepOn: boolean): OAuthError {
  const next = twoStepOn ? "sign out, then sign in again with your authenticator app's code" : 'turn it on under Personal Info, then sign out and sign in again';
  return new OAuthError('access_denied', `${service.name} asks for two-step sign-in: ${next}`, 403);
}
