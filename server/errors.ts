import { changedMeanwhile } from '../contract/admin';
import { MAX_PATH_PART_LENGTH } from './http/allowed-methods';

/**
 * The closed catalogue of errors the first-party API answers with. Handlers throw one of
 * these constructors; anything else becomes a logged 500 with no detail leaked.
 * The body is always `{"error": "<sentence>"}`, plus `field` when one field of the request is
 * to blame: a validation failure, and refusals such as a common password or a wrong code (the UI
 * reads it: `code` shows the sign-in's code field, `secret` the two-step setup's Start again).
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly field?: string,
    readonly headers: Record<string, string> = {},
    /** For the metrics: a refusal that is a step of a sign-in, not a failure. */
    readonly expected = false,
  ) {
    super(message);
    this.name = 'AppError';
  }

  static validation(field: string, message: string) {
    return new AppError(400, field ? `${field}: ${message}` : message, field || undefined);
  }
  static invalidJson() {
    return new AppError(400, 'The request body is not valid JSON');
  }
  static prototypeKey() {
    return new AppError(400, 'The request body may not have a "__proto__" key, nor "constructor" holding "prototype"');
  }
  static bodyNotObject() {
    return new AppError(400, 'The request body must be a JSON object');
  }
  static unsupportedMediaType() {
    return new AppError(415, 'The request body must be JSON (Content-Type: application/json)');
  }
  static compressedBody() {
    return new AppError(415, 'The request body must not be compressed: send it without Content-Encoding', undefined, { 'Accept-Encoding': 'identity' });
  }
  static payloadTooLarge() {
    return new AppError(413, 'The request body is too large');
  }
  /** Any other 4xx, with its status kept: the request was not what the endpoint reads. */
  static notProcessed(statusCode = 400) {
    return new AppError(statusCode, 'The request could not be processed');
  }
  static brokenAddress() {
    return new AppError(400, 'The address is not valid: it has a broken %-escape');
  }
  static requestTimedOut() {
    return new AppError(408, 'The request did not arrive in time; send it again');
  }
  static headersTooLarge() {
    return new AppError(431, 'The request headers are too large');
  }
  static notHttp() {
    return new AppError(400, 'The request could not be read as HTTP');
  }
  static missingHost() {
    return new AppError(400, 'The request has no Host header, which HTTP/1.1 requires');
  }
  static unmetExpectation() {
    return new AppError(417, 'The Expect header asks for what this server does not do: it knows 100-continue alone');
  }
  static addressTooLong() {
    return new AppError(414, `The address is too long: no part of it between slashes is over ${MAX_PATH_PART_LENGTH} characters`);
  }
  static notUtf8() {
    return new AppError(400, 'The request body is not UTF-8 text: some of its bytes are no character');
  }
  static loneSurrogate() {
    return new AppError(400, 'The request body has a \\u escape of half a character (a surrogate without its pair), which no field accepts');
  }
  static nulCharacter() {
    return new AppError(400, 'The request contains a NUL character, which no field accepts');
  }
  static commonPassword() {
    return new AppError(400, 'This password is one of the most common, which guessers try first; choose another', 'password');
  }
  static currentPasswordWrong() {
    return new AppError(400, 'The current password is wrong', 'current_password');
  }
  static resetLinkInvalid() {
    return new AppError(400, 'This link has expired or was already used. Ask for a new one.');
  }
  static authenticatorCodeRequired() {
    return new AppError(401, 'Enter the 6-digit code from your authenticator app', 'code', {}, true);
  }
  static authenticatorCodeWrong(status: 400 | 401 = 401) {
    return new AppError(status, 'The code is not correct; check that the app shows Home Guard and try the newest code', 'code');
  }
  static authenticatorCodeReused() {
    return new AppError(401, 'This code was already used; wait for the next one', 'code');
  }
  static recoveryCodeWrong() {
    return new AppError(401, 'This recovery code is not correct, or it was already used', 'code');
  }
  static twoStepOff() {
    return new AppError(409, 'Two-step sign-in is off; turn it on to get recovery codes');
  }
  static twoStepNeedsVerifiedEmail() {
    return new AppError(409, 'Verify your email before turning on two-step sign-in');
  }
  static twoStepSetupStale() {
    return new AppError(400, 'This setup key is no longer valid: it is over an hour old, or a newer setup replaced it. Start again with a new one', 'secret');
  }
  static twoStepAlreadyOn() {
    return new AppError(409, 'Two-step sign-in is already on');
  }
  static invalidCredentials() {
    return new AppError(401, 'Invalid email or password');
  }
  static unauthenticated() {
    return new AppError(401, 'Authentication required', undefined, { 'WWW-Authenticate': 'Bearer' });
  }
  static invalidToken() {
    return new AppError(401, 'The token is invalid or has expired', undefined, {
      'WWW-Authenticate': 'Bearer error="invalid_token"',
    });
  }
  static forbidden() {
    return new AppError(403, 'You are not allowed to do this');
  }
  static notFound(what = 'resource') {
    return new AppError(404, `${what} not found`);
  }
  static methodNotAllowed(method: string, allowed: string[]) {
    return new AppError(405, `This address does not take ${method}; it takes ${allowed.join(', ')}`, undefined, { Allow: allowed.join(', ') });
  }
  static thisDevice() {
    return new AppError(409, 'This is the device you are using; sign out from Home instead');
  }
  static emailTaken() {
    return new AppError(409, 'email is already registered');
  }
  static usernameTaken() {
    return new AppError(409, 'username is already taken');
  }
  static publicClientHasNoSecret() {
    return new AppError(409, 'A public client has no secret; make it confidential first');
  }
  static registrationClosed() {
    return new AppError(403, 'registration is closed; ask an administrator for an account');
  }
  static tooManyAttempts(retryAfterSeconds: number) {
    return new AppError(429, `Too many failed attempts; try again ${inTime(retryAfterSeconds)}`, undefined, retryAfter(retryAfterSeconds));
  }
  static resetsAskedTooOften(retryAfterSeconds: number) {
    return new AppError(429, `Too many password reset links have been asked for; you can ask again ${inTime(retryAfterSeconds)}`, undefined, retryAfter(retryAfterSeconds));
  }
  static codeExpired() {
    return new AppError(400, 'The code has expired or was never sent; request a new one');
  }
  static codeWrong() {
    return new AppError(400, 'The code is not correct');
  }
  static codeUsedUp() {
    return new AppError(400, 'Too many wrong codes; request a new one');
  }
  static resendTooSoon(retryAfterSeconds: number) {
    return new AppError(429, 'A code was sent a moment ago; wait a minute before asking for another', undefined, retryAfter(retryAfterSeconds));
  }
  static codesSentTooOften(retryAfterSeconds: number) {
    return new AppError(429, `Too many codes have been sent; you can ask for a new one ${inTime(retryAfterSeconds)}`, undefined, retryAfter(retryAfterSeconds));
  }
  static codeGuessesUsedUp(retryAfterSeconds: number) {
    return new AppError(429, `Too many wrong codes today; you can try again ${inTime(retryAfterSeconds)}`, undefined, retryAfter(retryAfterSeconds));
  }
  static alreadyVerified(what: string) {
    return new AppError(409, `${what} is already verified`);
  }
  static mailFailed() {
    return new AppError(503, 'The verification email could not be sent; try again later');
  }
  static notAnImage() {
    return new AppError(400, 'Please select an image file.', 'image');
  }
  static pictureTooManyPixels(maxPixels: number) {
    return new AppError(400, `The picture is larger than ${maxPixels / 1_000_000} megapixels; choose a smaller one.`, 'image');
  }
  static pictureTooLarge(maxBytes: number) {
    return new AppError(413, `The picture is larger than ${maxBytes / 1024 / 1024} MB; choose a smaller one.`, 'image');
  }
  static uploadsBusy(retryAfterSeconds: number) {
    return new AppError(503, 'Many pictures are being uploaded right now; try again in a moment', undefined, retryAfter(retryAfterSeconds));
  }
  static ownUploadsBusy(retryAfterSeconds: number) {
    return new AppError(429, 'Your other pictures are still being uploaded; try again once they are done', undefined, retryAfter(retryAfterSeconds));
  }
  /** A body that is not whole multipart: no boundary, no closing boundary, cut off mid-part. */
  static incompleteUpload() {
    return new AppError(400, 'The upload is not a complete multipart/form-data body; send the picture as the image field of a form', 'image');
  }
  static tooManyUploadParts() {
    return new AppError(400, 'The upload has too many fields or files; send one picture, as the image field', 'image');
  }
  // An administrator's own session must not take their account: these ask for the current password elsewhere (ASVS 3.7.1).
  static ownSignInElsewhere() {
    return new AppError(409, 'Change your own password or two-step sign-in from Personal Info, which asks for your current password');
  }
  static ownEmailNeedsPassword() {
    return new AppError(400, 'Type your current password to change your own email', 'current_password');
  }
  static verificationIncomplete() {
    return new AppError(409, 'Verify your email and profile picture first');
  }
  static accountDisabled() {
    return new AppError(403, 'This account is disabled; ask an administrator to enable it');
  }
  static ownSignOutElsewhere() {
    return new AppError(409, 'Sign your own other devices out from Personal Info, which keeps this one signed in');
  }
  static cannotDisableSelf() {
    return new AppError(409, 'You cannot disable your own account');
  }
  static changedMeanwhile(record: 'account' | 'service') {
    return new AppError(409, changedMeanwhile(record));
  }
  static cannotDeleteSelf() {
    return new AppError(409, 'You cannot delete your own account');
  }
  static creationKeyUsed() {
    return new AppError(409, 'The service sent with this Idempotency-Key was created already (over an hour ago, or with other settings): open it from the API Services list');
  }
  static lastAdministrator() {
    return new AppError(409, 'The last administrator cannot be demoted, disabled or deleted');
  }
  static unavailable() {
    return new AppError(503, 'The service is temporarily unavailable; try again shortly', undefined, retryAfter(OUTAGE_RETRY_SECONDS));
  }
}

// Retry-After when the database cannot answer: long enough for a restart or a failover.
const OUTAGE_RETRY_SECONDS = 5;

/** Retry-After in whole seconds, at least one. */
const retryAfter = (seconds: number) => ({ 'Retry-After': String(Math.max(1, Math.ceil(seconds))) });

/** 'in a minute', 'in 40 minutes', 'in 13 hours': a wait rounded up, for refusals that last up to a day. */
function inTime(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  if (minutes <= 1) return 'in a minute';
  return minutes <= 90 ? `in ${minutes} minutes` : `in ${Math.ceil(minutes / 60)} hours`;
}
