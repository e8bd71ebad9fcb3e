import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { invoicePdf } from './invoice.test-helper.js';
import { launchChromium, ensureDashboardBuilt, REPO_ROOT } from './browser.test-helper.js';
import { expectEventually } from '@docket/testing';
import { apiHelpers, basic, useE2eStack } from './stack.test-helper.js';

// Invented text. `account_manager` is printed under a label the engine does not know ("Handled by") and is required:
// the first result needs review; once corrected, layout memory reads the next document of this layout right.
const layout = (number: string, manager: string, total: string) => [
  'Supplier: Bramblewood Joinery',
  `Invoice Number: ${number}`,
  'Invoice Date: 2025-06-02',
  `Handled by: ${manager}`,
  `Total: EUR ${total}`,
];
const FIELDS = [
  { key: 'invoice_number', label: 'Invoice Number', data_type: 'string' },
  { key: 'invoice_date', label: 'Invoice Date', data_type: 'date' },
  { key: 'total', label: 'Total', data_type: 'currency' },
  { key: 'account_manager', label: 'Account manager', data_type: 'string', required: true },
];

// An invented operator token: the stack runs with admin mode on.
const ADMIN_TOKEN = 'dashboard-e2e-operator-token-0123456789';

const SHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? join(REPO_ROOT, 'docs', 'dashboard') : mkdtempSync(join(tmpdir(), 'docket-shots-'));

jest.setTimeout(300_000);

describe('Dashboard in Chromium against the started stack', () => {
  const suite = useE2eStack('Dashboard', { ADMIN_TOKEN });
  const { api } = apiHelpers(suite);
  let browser: Browser;
  let page: Page;
  let base: string;
  let pdf: Buffer;
  let nextPdf: Buffer;
  const pageErrors: string[] = [];

  /** Horizontal overflow of the page and the innermost elements that stick out (wide tables scroll in their box). */
  const overflow = () =>
    page.evaluate<{ px: number; culprits: string[] }>(`(() => {
      const w = window.innerWidth;
      const out = [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > w + 0.5)
        .filter((e) => !e.closest('.table-scroll') && ![...e.children].some((c) => c.getBoundingClientRect().right > w + 0.5))
        .slice(0, 5).map((e) => e.tagName.toLowerCase() + '.' + e.className + ' ' + (e.textContent || '').slice(0, 40));
      return { px: Math.max(0, document.documentElement.scrollWidth - w), culprits: out };
    })()`);
  const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    ensureDashboardBuilt();
    pdf = await invoicePdf(layout('BJ-3301', 'Ottoline Quarry', '1,980.00'));
    nextPdf = await invoicePdf(layout('BJ-3302', 'Peregrine Ashdown', '240.00'));
    base = suite.stack.api.replace(/\/api\/v1$/, '');
    await api().post('/templates/').set('authorization', suite.live).send({ name: 'Joinery invoices', fields: FIELDS }).expect(201);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (e) => pageErrors.push(e.message));
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('signs in with key and secret (kept for the tab), shows the live badge', async () => {
    await page.goto(`${base}/app/`);
    await page.getByLabel('API key').fill(suite.acct.live.api_key);
    await page.getByLabel('Secret').fill('wrong-secret');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').getByText('Key or secret not accepted').waitFor();
    await shot('sign-in');
    await page.getByLabel('Secret').fill(suite.acct.live.secret);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByTestId('env-badge').textContent()).resolves.toBe('live');
    const stored = await page.evaluate('[sessionStorage.length, localStorage.length]');
    expect(stored).toEqual([1, 0]);
  });

  it('uploads a PDF with a template and follows its status live', async () => {
    await page.getByLabel('Template').selectOption({ label: 'Joinery invoices' });
    await page.getByTestId('file-input').setInputFiles({ name: 'joinery-invoice.pdf', mimeType: 'application/pdf', buffer: pdf });
    await page.getByTestId('job-status').getByText('success').waitFor({ timeout: 120_000 });
    await shot('upload');
  });

  it('shows the result with field boxes over the page image; a field and its box highlight each other', async () => {
    await page.getByRole('button', { name: 'View result' }).click();
    await page.locator('canvas').waitFor();
    const boxes = page.locator('.box');
    await boxes.first().waitFor({ timeout: 30_000 });
    expect(await boxes.count()).toBeGreaterThan(0);
    const field = await boxes.first().getAttribute('data-field');
    await boxes.first().click();
    await expect(page.locator(`tr[data-field-row="${field}"]`).getAttribute('class')).resolves.toBe('selected');
    await shot('result');
  });

  it('corrects a value in the review queue and stores it as version 2', async () => {
    await page.getByRole('button', { name: 'Review', exact: true }).click();
    await page.getByLabel('Value of account_manager').fill('Ottoline Quarry');
    await page.getByRole('button', { name: 'Save corrections' }).click();
    await page.getByRole('status').getByText('Saved as version 2').waitFor();
    await page.getByText('v2 · correction').waitFor();
    await page.locator('.box').first().waitFor();
    await shot('review');

    const queue = (await api().get('/review').set('authorization', suite.live).expect(200)).body;
    expect(queue.total).toBe(0);
    const jobs = (await api().get('/artifacts/').set('authorization', suite.live).expect(200)).body.items;
    const record = (await api().get(`/artifacts/${jobs[0].id}`).set('authorization', suite.live).expect(200)).body;
    const job = (await api().get(`/job/${record.jobs[0].job_id}`).set('authorization', suite.live).expect(200)).body;
    expect(job).toMatchObject({ result_version: 2, needs_review: false, result: { account_manager: 'Ottoline Quarry' } });
  });

  it('lists jobs with filters and paging, and fits a phone-sized viewport', async () => {
    await page.getByRole('button', { name: 'Jobs', exact: true }).click();
    await page.getByRole('button', { name: 'joinery-invoice.pdf' }).waitFor();
    await shot('jobs');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'joinery-invoice.pdf' }).click();
    await page.locator('.box').first().waitFor();
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await shot('result-phone');
    await page.getByRole('button', { name: 'Review', exact: true }).click();
    await page.getByText('Nothing waits for review.').waitFor();
  });

  it('the next document of that layout comes out right (layout memory), and the Memory page lists what was learned', async () => {
    await expectEventually(
      async () => expect((await api().get('/memory/exemplars').set('authorization', suite.live).expect(200)).body.total).toBe(1),
      { timeoutMs: 60_000, intervalMs: 250, what: 'exemplar learned' },
    );
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByLabel('Template').selectOption({ label: 'Joinery invoices' });
    await page.getByTestId('file-input').setInputFiles({ name: 'joinery-invoice-2.pdf', mimeType: 'application/pdf', buffer: nextPdf });
    await page.getByTestId('job-status').getByText('success').waitFor({ timeout: 120_000 });
    await page.getByRole('button', { name: 'View result' }).click();
    await page.locator('tr[data-field-row="account_manager"]').getByText('Peregrine Ashdown').waitFor();
    await shot('result-memory');

    await page.getByRole('button', { name: 'Memory', exact: true }).click();
    await page.getByRole('button', { name: /^Forget exemplar / }).waitFor();
    await expect(page.getByLabel(/memory on/).isChecked()).resolves.toBe(true);
    await shot('memory');
  });

  it('shows templates, webhooks and the wallet with its usage chart, at 1280 px and phone width', async () => {
    await page.getByRole('button', { name: 'Templates', exact: true }).click();
    await page.getByRole('button', { name: 'Joinery invoices' }).click();
    await page.getByRole('table', { name: 'Fields of Joinery invoices' }).getByText('account_manager').waitFor();
    await shot('templates');
    // Clone (a new draft, selected), activate it, archive it: it leaves the list unless archived ones are shown.
    await page.getByRole('button', { name: 'Clone', exact: true }).click();
    await page.getByRole('table', { name: 'Fields of Joinery invoices (clone)' }).waitFor();
    await page.getByRole('button', { name: 'Activate' }).click();
    await page.getByRole('button', { name: 'Archive' }).click();
    await page.getByRole('button', { name: 'Joinery invoices (clone)' }).waitFor({ state: 'detached' });
    await page.getByLabel('Show archived').check();
    await page.getByRole('button', { name: 'Joinery invoices (clone)' }).waitFor();

    await page.getByRole('button', { name: 'Webhooks', exact: true }).click();
    await page.getByLabel('Endpoint URL (HTTPS)').fill(suite.stack.receiverUrl);
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByTestId('webhook-secret').textContent()).resolves.toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'Rotate signing secret' }).click();
    await page.getByRole('status', { name: 'Signing secret, shown once' }).nth(1).waitFor();
    await shot('webhooks');

    await page.getByRole('button', { name: 'Wallet', exact: true }).click();
    await page.getByRole('img', { name: /Jobs and credits spent/ }).waitFor();
    await shot('wallet');
    await page.setViewportSize({ width: 390, height: 844 });
    for (const tab of ['Templates', 'Webhooks', 'Wallet', 'Memory']) {
      await page.getByRole('button', { name: tab, exact: true }).click();
      const o = await overflow();
      expect({ tab, ...o }).toEqual({ tab, px: 0, culprits: [] });
    }
    await shot('memory-phone');
  });

  it('admin mode: refuses a wrong token, issues a secret (shown once) and revokes it', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Admin token').fill('not-the-operator-token');
    await page.getByRole('button', { name: 'Enter admin mode' }).click();
    await page.getByRole('alert').getByText('Admin token not accepted').waitFor();
    await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Enter admin mode' }).click();
    await expect(page.getByTestId('env-badge').textContent()).resolves.toBe('admin');

    const key = suite.acct.live.api_key;
    await page.getByRole('button', { name: 'Dashboard customer' }).click();
    await page.getByTestId('admin-wallet').waitFor();
    await page.getByRole('button', { name: `Issue a new secret for ${key}` }).click();
    const secret = (await page.getByTestId('shown-secret').textContent())!;
    expect(secret).toMatch(/^sk_/);
    await api().get('/wallet').set('authorization', basic(key, secret)).expect(200);
    await shot('admin');

    const listed = (await api().get(`/admin/keys/${key}/secrets`).set('authorization', `Bearer ${ADMIN_TOKEN}`).expect(200)).body;
    const issued = listed.secrets.at(-1).secret_id as string;
    await page.getByRole('button', { name: `Revoke secret ${issued}` }).click();
    await page.getByRole('button', { name: `Revoke secret ${issued}` }).waitFor({ state: 'detached' });
    await expectEventually(() => api().get('/wallet').set('authorization', basic(key, secret)).expect(401));
    // The account's own secret is untouched.
    await api().get('/wallet').set('authorization', suite.live).expect(200);

    await page.setViewportSize({ width: 390, height: 844 });
    expect(await overflow()).toEqual({ px: 0, culprits: [] });
    await shot('admin-phone');
  });

  it('the page raised no script error', () => {
    expect(pageErrors).toEqual([]);
  });
});
