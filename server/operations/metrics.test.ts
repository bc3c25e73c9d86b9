import { expect, it } from 'vitest';
import { Metrics } from './metrics';

it('renders counters in the Prometheus text format, with a label value that would break a line made harmless', () => {
  const metrics = new Metrics();
  metrics.count('home_guard_logins_total', 'Sign-ins by result.', { result: 'success' });
  metrics.count('home_guard_logins_total', 'Sign-ins by result.', { result: 'success' }, 2);
  metrics.count('home_guard_logins_total', 'Sign-ins by result.', { result: 'failure' });
  metrics.count('http_requests_total', 'Requests by route and status.', { method: 'GET', route: '/a"b\\c\nd' });
  expect(metrics.render()).toBe(
    [
      '# HELP home_guard_logins_total Sign-ins by result.',
      '# TYPE home_guard_logins_total counter',
      'home_guard_logins_total{result="success"} 3',
      'home_guard_logins_total{result="failure"} 1',
      '# HELP http_requests_total Requests by route and status.',
      '# TYPE http_requests_total counter',
      'http_requests_total{method="GET",route="/a_b_c_d"} 1',
      '# HELP http_request_duration_seconds Time to answer, by route.',
      '# TYPE http_request_duration_seconds histogram',
      '',
    ].join('\n'),
  );
});

it('counts each duration in every bucket whose bound it does not pass, and sums them', () => {
  const metrics = new Metrics();
  const route = { method: 'POST', route: '/api/v1/auth/login' };
  for (const seconds of [0.003, 0.05, 0.3, 7]) metrics.observeDuration(route, seconds);
  metrics.observeDuration({ method: 'GET', route: '/healthz' }, 0.001);
  const lines = metrics.render().split('\n');
  const login = lines.filter((line) => line.includes('/api/v1/auth/login'));
  expect(login).toEqual([
    ...[
      ['0.005', 1],
      ['0.01', 1],
      ['0.025', 1],
      ['0.05', 2], // a bound is the largest duration its bucket counts
      ['0.1', 2],
      ['0.25', 2],
      ['0.5', 3],
      ['1', 3],
      ['2.5', 3],
      ['5', 3],
      ['+Inf', 4],
    ].map(([bound, count]) => `http_request_duration_seconds_bucket{method="POST",route="/api/v1/auth/login",le="${bound}"} ${count}`),
    'http_request_duration_seconds_sum{method="POST",route="/api/v1/auth/login"} 7.353',
    'http_request_duration_seconds_count{method="POST",route="/api/v1/auth/login"} 4',
  ]);
  expect(lines).toContain('http_request_duration_seconds_bucket{method="GET",route="/healthz",le="0.005"} 1');
  expect(lines.slice(0, 2)).toEqual(['# HELP http_request_duration_seconds Time to answer, by route.', '# TYPE http_request_duration_seconds histogram']);
});
