import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  devConnectionUrl,
  natsAdvice,
  removeDevConnection,
  sameNatsServer,
  withDevConnection,
  withoutCredentials,
  writeDevConnection,
} from './admin.connection.js';

const invented = {
  NATS_URL: 'nats://127.0.0.1:4999',
  NATS_USER: 'admin',
  NATS_PASSWORD: 'invented-password',
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5999/docket',
};
const fileIn = () => join(mkdtempSync(join(tmpdir(), 'docket-admin-conn-')), 'admin-connection.json');

describe('admin CLI: the connection file npm start writes', () => {
  it('is written owner-only (0600), also over an older file with wider rights', () => {
    const file = fileIn();
    writeFileSync(file, '{}', { mode: 0o644 });
    writeDevConnection(invented, file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(devConnectionUrl(file)).toBe(invented.NATS_URL);
  });

  it('fills in the NATS server, admin user and database when the environment names no NATS server or user', () => {
    const file = fileIn();
    writeDevConnection(invented, file);
    expect(withDevConnection({ LOG_LEVEL: 'warn' }, file)).toEqual({ env: { LOG_LEVEL: 'warn', ...invented }, source: file });
  });

  it('keeps a variable the environment sets (DATABASE_URL)', () => {
    const file = fileIn();
    writeDevConnection(invented, file);
    expect(withDevConnection({ DATABASE_URL: 'postgres://elsewhere/db' }, file).env.DATABASE_URL).toBe('postgres://elsewhere/db');
  });

  it.each([
    { NATS_URL: 'nats://ops.example:4222' },
    { NATS_URL: 'nats://127.0.0.1:4998' },
    { NATS_URL: 'nats://127.0.0.1:4999,nats://ops.example:4999' },
    { NATS_URL: 'nats://someone:guess@127.0.0.1:4999' },
    { NATS_USER: 'admin' },
    { NATS_URL: 'nats://127.0.0.1:4999', NATS_USER: 'billing' },
  ])('is ignored when the environment sets %p (another server, or a user of its own)', (env) => {
    const file = fileIn();
    writeDevConnection(invented, file);
    expect(withDevConnection(env, file)).toEqual({ env });
  });

  it.each([
    'nats://127.0.0.1:4999',
    '127.0.0.1:4999',
    'localhost:4999',
    'nats://LOCALHOST:4999/',
    'nats://[::1]:4999',
    'tls://127.0.0.1:4999',
  ])('fills in the admin user, its password and the database when NATS_URL=%s names the file`s server', (url) => {
    const file = fileIn();
    writeDevConnection(invented, file);
    expect(withDevConnection({ NATS_URL: url }, file)).toEqual({ env: { ...invented, NATS_URL: url }, source: file });
  });

  it('keeps what the environment sets beside a matching NATS_URL (NATS_PASSWORD, DATABASE_URL)', () => {
    const file = fileIn();
    writeDevConnection(invented, file);
    const env = { NATS_URL: 'localhost:4999', NATS_PASSWORD: 'mine', DATABASE_URL: 'postgres://elsewhere/db' };
    expect(withDevConnection(env, file).env).toEqual({ ...env, NATS_USER: 'admin' });
  });

  it('ignores a file it cannot read when NATS_URL is set', () => {
    const file = fileIn();
    writeFileSync(file, 'not json');
    expect(withDevConnection({ NATS_URL: 'nats://127.0.0.1:4999' }, file)).toEqual({ env: { NATS_URL: 'nats://127.0.0.1:4999' } });
  });

  it('changes nothing without a file (after npm start stopped and removed it)', () => {
    const file = fileIn();
    writeDevConnection(invented, file);
    removeDevConnection(file);
    expect(withDevConnection({}, file)).toEqual({ env: {} });
    expect(devConnectionUrl(file)).toBeUndefined();
  });

  it('names the file when it is not one npm start wrote', () => {
    const file = fileIn();
    writeFileSync(file, 'not json');
    expect(() => withDevConnection({}, file)).toThrow(`${file} is not a connection file written by npm start`);
  });
});

describe('admin CLI: which NATS server a URL names', () => {
  it.each([
    ['nats://127.0.0.1:4999', 'nats://127.0.0.1:4999', true],
    ['127.0.0.1:4999', 'nats://localhost:4999', true],
    ['nats://[::1]:4999', '127.0.0.1:4999', true],
    ['nats://127.0.0.1', 'nats://localhost:4222', true],
    [' nats://127.0.0.1:4999 , localhost:4999', 'nats://127.0.0.1:4999', true],
    ['nats://ops.example:4999', 'nats://OPS.example:4999', true],
    ['nats://127.0.0.1:4999', 'nats://127.0.0.1:4998', false],
    ['nats://10.0.0.7:4999', 'nats://127.0.0.1:4999', false],
    ['nats://127.0.0.1:4999,nats://10.0.0.7:4999', 'nats://127.0.0.1:4999', false],
    ['nats://u:p@127.0.0.1:4999', 'nats://127.0.0.1:4999', false],
    ['not a url', 'nats://127.0.0.1:4999', false],
    ['nats://127.0.0.1:4999', 'not a url', false],
  ])('%s is %s: %s', (url, server, same) => {
    expect(sameNatsServer(url, server)).toBe(same);
  });

  it('shows URLs without their user and password', () => {
    expect(withoutCredentials('nats://u:invented-password@127.0.0.1:4999,u:p@h:1,nats://h:2')).toBe('nats://127.0.0.1:4999,h:1,nats://h:2');
  });
});

describe('admin CLI: advice when NATS refuses it or nothing answers', () => {
  it('tells a caller without a user to set NATS_USER=admin and NATS_PASSWORD, or to run from npm start`s checkout', () => {
    const advice = natsAdvice({ problem: 'unauthorized', natsUrl: 'nats://u:invented-password@127.0.0.1:4999' });
    expect(advice).toContain('The NATS server at nats://127.0.0.1:4999 requires a user: set NATS_USER=admin and NATS_PASSWORD');
    expect(advice).toContain('or run the CLI from the checkout whose `npm start` is running');
    expect(advice).not.toContain('invented-password');
  });

  it('tells a caller with a user to check its password (naming the connection file it came from), never showing it', () => {
    const advice = natsAdvice({
      problem: 'unauthorized',
      natsUrl: 'nats://127.0.0.1:4999',
      user: 'admin',
      source: '/x/.data/admin-connection.json',
    });
    expect(advice).toBe(
      'The NATS server at nats://127.0.0.1:4999 refused user "admin": check NATS_PASSWORD (taken from /x/.data/admin-connection.json: is the npm start that wrote it still running?).',
    );
  });

  it('asks whether the stack runs behind the server when nothing answers, and where npm start`s server is', () => {
    const advice = natsAdvice({ problem: 'no_responders', natsUrl: 'nats://127.0.0.1:4222' });
    expect(advice).toContain('Is the stack running behind the NATS server at nats://127.0.0.1:4222?');
    expect(advice).toContain('run the CLI from that checkout, or set NATS_URL to that server');
  });
});
