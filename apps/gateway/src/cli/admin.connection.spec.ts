import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { devConnectionUrl, removeDevConnection, withDevConnection, writeDevConnection } from './admin.connection.js';

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

  it.each([{ NATS_URL: 'nats://ops.example:4222' }, { NATS_USER: 'admin' }])('is ignored when the environment sets %p', (env) => {
    const file = fileIn();
    writeDevConnection(invented, file);
    expect(withDevConnection(env, file)).toEqual({ env });
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
