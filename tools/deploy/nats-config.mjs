#!/usr/bin/env node
// Prints the nats-server `authorization` block of Docket's per-service users (libs/contracts
// servicePermissions), for the passwords in a JSON file { "<user>": "<password or bcrypt hash>" }:
//
//   node tools/deploy/nats-config.mjs passwords.json > auth.conf
//   node tools/deploy/nats-config.mjs --generate passwords.json   # writes random passwords (0600) first
//
// Users: gateway, artifact, template, billing, extraction-worker, webhook-dispatcher, admin (the operator CLI).
// Run `npm run build` first (reads libs/contracts/dist).
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { NATS_USERS, renderNatsAuthorization } from '../../libs/contracts/dist/index.js';

const args = process.argv.slice(2);
const generate = args[0] === '--generate';
const file = generate ? args[1] : args[0];
if (!file) {
  console.error('usage: node tools/deploy/nats-config.mjs [--generate] <passwords.json>');
  process.exit(2);
}
if (generate && !existsSync(file)) {
  writeFileSync(file, JSON.stringify(Object.fromEntries(NATS_USERS.map((u) => [u, randomBytes(24).toString('base64url')])), null, 2), {
    mode: 0o600,
  });
}
const passwords = JSON.parse(readFileSync(file, 'utf8'));
const missing = NATS_USERS.filter((u) => !passwords[u]);
if (missing.length) {
  console.error(`no password for: ${missing.join(', ')}`);
  process.exit(1);
}
process.stdout.write(renderNatsAuthorization(passwords));
