// The official suites' unscored client auth scenarios against byhand's client (test/conformance/client-under-test.mjs),
// each run singly with the conformance CLI: the extension grants (client credentials with a secret and
// with private_key_jwt, enterprise-managed authorization, workload identity), DPoP with and without
// nonces, and the 2025-03-26 fallbacks, in 0.2.0-alpha.12 and (where it has them) 0.1.16. Workload
// identity is also run with the context's expired and wrong-audience JWTs: the client must stop with
// the authorization server's error, without retrying or switching grants.

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from './support/node-test.js';
import { collect, conformance, passed, repoRoot, suite2026, suiteLegacy, type ScenarioResult } from './conformance/suite.js';

const client = `${process.execPath} ${join(repoRoot, 'test', 'conformance', 'client-under-test.mjs')}`;
const scratch = mkdtempSync(join(tmpdir(), 'byhand-conformance-client-auth-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

// Every secret the mocks hand out or take: none may be printed.
const SECRETS = /test-token|cc-token|test-auth-code|conformance-test-secret|conformance-test-xaa-secret|test-client-secret|BEGIN PRIVATE KEY|eyJ[\w-]{10,}\.eyJ/;

const SCENARIOS_2026 = [
  'auth/client-credentials-basic',
  'auth/client-credentials-jwt',
  'auth/enterprise-managed-authorization',
  'auth/wif-jwt-bearer',
  'auth/dpop',
  'auth/dpop-nonce',
  'auth/2025-03-26-oauth-metadata-backcompat',
  'auth/2025-03-26-oauth-endpoint-fallback',
];
const SCENARIOS_LEGACY = [
  'auth/client-credentials-basic',
  'auth/client-credentials-jwt',
  'auth/cross-app-access-complete-flow',
  'auth/2025-03-26-oauth-metadata-backcompat',
  'auth/2025-03-26-oauth-endpoint-fallback',
];

interface Run {
  result: ScenarioResult | undefined;
  ids: Map<string, string[]>;
  printed: string;
}

async function run(suite: string, label: string, scenario: string, env = ''): Promise<Run> {
  const out = join(scratch, label, `${scenario.replace(/\//g, '_')}${env.replace(/\W+/g, '-')}`);
  await conformance(suite, ['client', '--command', `${env}${client}`, '--scenario', scenario, '-o', out, '--timeout', '30000']);
  const dir = join(out, scenario.split('/')[0]);
  const name = scenario.split('/').at(-1)!;
  const found = existsSync(dir) ? readdirSync(dir).find((e) => e.startsWith(`${name}-`)) : undefined;
  const read = (file: string) => (found && existsSync(join(dir, found, file)) ? readFileSync(join(dir, found, file), 'utf8') : '');
  const ids = new Map<string, string[]>();
  for (const check of found ? (JSON.parse(read('checks.json') || '[]') as { id: string; status: string }[]) : []) {
    ids.set(check.id, [...(ids.get(check.id) ?? []), check.status]);
  }
  return { result: collect(dir, label, () => false, '').get(name), ids, printed: read('stdout.txt') + read('stderr.txt') };
}

function assertClean(scenario: string, { result, printed }: Run): void {
  assert.ok(result, `${scenario}: produced no checks`);
  assert.ok(passed(result) && (result.counts.WARNING ?? 0) === 0 && (result.counts.SUCCESS ?? 0) > 0, `${scenario}: ${result.failures.join('; ') || 'no successful check'}`);
  assert.doesNotMatch(printed, /byhand-conformance:/, `${scenario}: the client failed: ${printed.slice(0, 400)}`);
  assert.doesNotMatch(printed, SECRETS, `${scenario}: the client printed a token, assertion or secret`);
}

test('0.2.0-alpha.12: client credentials, enterprise-managed authorization, workload identity, DPoP and the 2025-03-26 fallbacks pass', { timeout: 240_000 }, async () => {
  const expected: Record<string, string[]> = {
    'auth/client-credentials-basic': ['client-credentials-basic-auth'],
    'auth/client-credentials-jwt': ['client-credentials-jwt-verified'],
    'auth/enterprise-managed-authorization': ['complete-flow-token-exchange', 'complete-flow-jwt-bearer'],
    'auth/wif-jwt-bearer': ['wif-assertion-verified'],
    'auth/dpop': ['sep-1932-client-token-request-proof', 'sep-1932-client-dpop-auth-scheme', 'sep-1932-client-fresh-proof'],
    'auth/dpop-nonce': ['sep-1932-client-token-request-proof', 'sep-1932-client-dpop-auth-scheme', 'sep-1932-client-fresh-proof', 'sep-1932-client-as-nonce', 'sep-1932-client-rs-nonce'],
    'auth/2025-03-26-oauth-metadata-backcompat': ['authorization-server-metadata', 'client-registration', 'authorization-request', 'token-request'],
    'auth/2025-03-26-oauth-endpoint-fallback': ['client-registration', 'authorization-request', 'token-request'],
  };
  for (const scenario of SCENARIOS_2026) {
    const outcome = await run(suite2026, '2026', scenario);
    assertClean(scenario, outcome);
    // The scenario's own checks, not only the absence of failures: each must have been reached and passed.
    for (const id of expected[scenario]) assert.deepEqual([...new Set(outcome.ids.get(id))], ['SUCCESS'], `${scenario}: ${id}`);
  }
});

test('0.1.16: client credentials, cross-app access and the 2025-03-26 fallbacks pass', { timeout: 180_000 }, async () => {
  for (const scenario of SCENARIOS_LEGACY) assertClean(scenario, await run(suiteLegacy, '0.1.16', scenario));
});

test('workload identity: an expired or wrong-audience JWT ends in the server\'s invalid_grant, with no retry and no other grant', { timeout: 120_000 }, async () => {
  for (const [jwt, check] of [['expired_jwt', 'wif-assertion-expired'], ['wrong_audience_jwt', 'wif-assertion-audience']] as const) {
    const { ids, printed } = await run(suite2026, '2026', 'auth/wif-jwt-bearer', `BYHAND_WIF_JWT=${jwt} `);
    assert.deepEqual(ids.get(check), ['FAILURE'], `${jwt}: the mock should have seen that assertion once`);
    assert.equal(ids.get('wif-no-retry'), undefined, `${jwt}: the client retried`);
    assert.equal(ids.get('wif-grant-fallback'), undefined, `${jwt}: the client switched grants`);
    assert.match(printed, /^byhand-conformance: auth: .*refused the JWT bearer grant \(HTTP 400: invalid_grant/m);
    assert.doesNotMatch(printed, SECRETS);
  }
});
