import { useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { opensAnApp, redirectWith, repeatedAuthorizationParams, type AuthorizationParams } from '../../../contract/oauth';
import { errorMessage, UNREACHABLE } from '../../api/errors';
import { isFullyVerified } from '../../app/guards';
import { stringifySearch } from '../../app/search-params';
import { useSession } from '../../app/session-context';
import { LoadingScreen } from '../../ui/LoadingScreen';
import { RetryCard } from '../../ui/RetryCard';
import { useAsyncAction } from '../../ui/use-async-action';
import { checkAuthorization, NoAnswer, requestCode, type CheckResult } from './authorization-api';
import { AuthorizationErrorPage } from './AuthorizationErrorPage';
import { ConsentCard } from './ConsentCard';
import { HandedToAppCard } from './HandedToAppCard';
import { hadStep, markStep } from './request-steps';

// An app's own scheme opens the app, and this tab stays: after this long, say so.
const HAND_OFF_WAIT_MS = 2_000;

/** The error under a "cannot be reached" title, unless it only says that again. */
const beyondTitle = (message: string) => (message === UNREACHABLE ? undefined : message);

/**
 * /auth: the authorization endpoint. The request is checked before anyone signs in; a bad
 * client or redirect_uri is shown here, other errors go back to the service.
 */
export function ConsentPage({ params }: { params: AuthorizationParams }) {
  const session = useSession();
  const { activeAccount, signInRequired, accounts, profile, hasAuthenticated } = useSnapshot(session.state);
  const navigate = useNavigate();
  const [request] = useState(params); // read once: later navigation does not change the request
  // The router keeps a repeated parameter's first value; the server refuses the request for it.
  const [repeated] = useState(() => repeatedAuthorizationParams(window.location.search));
  const [result, setResult] = useState<CheckResult | null>(null);
  const [leaving, setLeaving] = useState<string | null>(null);
  const [handedOff, setHandedOff] = useState(false);
  const [unreachable, setUnreachable] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  // The account the consent screen asks for: one that has not approved this request before.
  const [askingFor, setAskingFor] = useState<string | null>(null);
  const rememberedTried = useRef<string | null>(null);
  // An account the service's groups leave out: Allow would only be refused again.
  const [refusedFor, setRefusedFor] = useState<string | null>(null);
  const allowing = useAsyncAction('Allowing the service');
  const returnPath = `/auth${stringifySearch(request)}`;

  const leave = (url: string) => {
    setLeaving(url);
    window.location.assign(url);
  };

  useEffect(() => {
    if (!leaving || !opensAnApp(leaving)) return;
    const timer = setTimeout(() => setHandedOff(true), HAND_OFF_WAIT_MS);
    return () => clearTimeout(timer);
  }, [leaving]);

  useEffect(() => {
    let current = true;
    setUnreachable(null);
    checkAuthorization(request, repeated).then(
      (answer) => current && setResult(answer),
      (error: unknown) => {
        if (!current) return;
        // fetch rejects only when no answer came: the request may be fine, so wait, don't refuse
        if (error instanceof TypeError || error instanceof NoAnswer) setUnreachable(errorMessage(error));
        else setResult({ ok: false, error: { error: 'server_error', error_description: errorMessage(error) } });
      },
    );
    return () => {
      current = false;
    };
  }, [request, attempt]);

  const check = result?.ok ? result.check : null;
  /** An error back to the service (its redirect_uri was verified by the check). */
  const back = (error: string, description?: string) => {
    if (check) leave(redirectWith(check.redirect_uri, { error, error_description: description, state: check.state, iss: check.issuer }));
  };

  /**
   * A fresh sign-in of the chosen account (prompt=login, max_age), asked by itself once per
   * request. Allow clicked after the sign-in grew too old (the screen read for longer than
   * max_age) asks again: the person is there to sign in.
   */
  const signInAgain = async (afterAllow = false) => {
    if (hadStep('fresh-login', returnPath) && !afterAllow) return back('login_required');
    markStep('fresh-login', returnPath);
    await session.chooseAnotherAccount();
    await navigate({ to: '/auth/login', search: { from: returnPath } });
  };

  const allow = (clicked = false) =>
    allowing.run(async () => {
      const answer = await requestCode(session.connection, request);
      if (answer.ok) return leave(answer.redirectTo);
      if (answer.error.redirect_to) return leave(answer.error.redirect_to);
      if (answer.error.error === 'login_required') return signInAgain(clicked);
      throw new Error(answer.error.error_description ?? answer.error.error);
    });

  /** An approval the person gave before, not withdrawn since: no screen, straight back. */
  const allowIfApproved = async (accountId: string) => {
    allowing.setOutcome(null); // what the screen said to another account
    const answer = await requestCode(session.connection, { ...request, if_approved: true }).catch(() => null);
    if (answer?.ok) return leave(answer.redirectTo);
    if (answer?.error.redirect_to) return leave(answer.error.redirect_to);
    if (answer?.error.error === 'login_required') return signInAgain();
    // Refused outright (not in the service's groups): the screen says why at once; Cancel goes back.
    if (answer?.status === 403) {
      allowing.setOutcome({ kind: 'error', message: answer.error.error_description ?? answer.error.error });
      setRefusedFor(accountId);
    }
    setAskingFor(accountId); // not approved (or no answer): the screen asks, and Allow tells any error
  };

  // What the request needs next, whenever the request or the account changes.
  useEffect(() => {
    if (!result || leaving) return;
    if (!result.ok) {
      if (result.error.redirect_to) leave(result.error.redirect_to);
      return;
    }
    const c = result.check;
    const selectAccount = c.prompt.includes('select_account');
    // max_age=0 asks for a fresh sign-in as prompt=login does (OIDC Core §3.1.2.1).
    const login = c.prompt.includes('login') || (c.max_age === 0 && !c.prompt.includes('none'));
    if (signInRequired || !activeAccount) {
      if (c.prompt.includes('none')) return void back('login_required');
      // The picker or the sign-in form is where the person chooses: prompt=select_account is met.
      if (selectAccount) markStep('account-chosen', returnPath);
      // A sign-in this request starts with is the fresh one prompt=login asks for: not a second.
      if (login) markStep('fresh-login', returnPath);
      void navigate({ to: accounts.length > 0 && !login ? '/auth/authenticate' : '/auth/login', search: { from: returnPath } });
      return;
    }
    if (selectAccount && !hadStep('account-chosen', returnPath)) return void session.chooseAnotherAccount();
    // A hint picks the account unless the person was asked to pick one.
    const hinted = selectAccount ? undefined : (accounts.find((a) => a.accountId === c.hinted_subject) ?? accounts.find((a) => !!c.login_hint && a.email.toLowerCase() === c.login_hint.toLowerCase()));
    if (hinted && hinted.accountId !== activeAccount.accountId) return void session.switchAccount(hinted.accountId);
    if (!hasAuthenticated) return void session.ensureAuthenticated();
    if (profile && !isFullyVerified(profile)) {
      // The verification pages are an interaction prompt=none rules out (OIDC Core §3.1.2.6).
      if (c.prompt.includes('none')) return void back('interaction_required', 'The account must finish its verification first');
      return void navigate({ to: '/verify', search: { from: returnPath } });
    }
    if (login && !hadStep('fresh-login', returnPath)) return void signInAgain();
    if (c.prompt.includes('none')) return void allow();
    if (c.prompt.includes('consent')) return setAskingFor(activeAccount.accountId);
    if (rememberedTried.current === activeAccount.accountId) return;
    rememberedTried.current = activeAccount.accountId;
    void allowIfApproved(activeAccount.accountId);
  }, [result, signInRequired, activeAccount?.accountId, hasAuthenticated, profile]);

  if (unreachable) {
    return <RetryCard title="Home Guard cannot be reached" message="The sign-in request is kept: it goes on as soon as the connection is back." detail={beyondTitle(unreachable)} onRetry={() => setAttempt((n) => n + 1)} />;
  }
  if (result && !result.ok && !result.error.redirect_to) return <AuthorizationErrorPage error={result.error} />;
  if (leaving && handedOff) return <HandedToAppCard service={check?.service.name} url={leaving} />;
  if (check && !leaving && activeAccount && hasAuthenticated && !profile) {
    // The account's profile did not load: whether it may go on (verified) is not known yet.
    return <RetryCard title="Home Guard cannot be reached" message="The sign-in request is kept: it goes on as soon as the connection is back." onRetry={() => void session.reloadProfile()} />;
  }
  // prompt=none shows no screen: a code request that got no answer says so, or the page would wait for ever.
  if (check?.prompt.includes('none') && !leaving && !allowing.busy && allowing.outcome?.kind === 'error') {
    return <RetryCard title="Home Guard cannot be reached" message="The sign-in request is kept: it goes on as soon as the connection is back." detail={beyondTitle(allowing.outcome.message)} onRetry={() => void allow()} />;
  }
  if (!check || leaving || !activeAccount || !profile || askingFor !== activeAccount.accountId) {
    return <LoadingScreen label={leaving ? `Returning to ${check?.service.name ?? 'the service'}...` : 'Checking the sign-in request...'} />;
  }
  return (
    <ConsentCard
      check={check}
      account={{ email: activeAccount.email, label: profile.full_name, picture: profile.profile_picture }}
      busy={allowing.busy}
      refused={refusedFor === activeAccount.accountId}
      otherAccountHinted={request.id_token_hint !== undefined && check.hinted_subject !== activeAccount.accountId}
      outcome={allowing.outcome}
      onAllow={() => void allow(true)}
      onCancel={() => back('access_denied', 'The user did not allow the request')}
      onChangeAccount={() => void session.chooseAnotherAccount()}
    />
  );
}
