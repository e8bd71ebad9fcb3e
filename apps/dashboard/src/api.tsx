/** The public API, called with the signed-in key and secret (Basic auth). Same origin: the gateway serves /app. */
export const API = '/api/v1';
const STORE = 'docket.credentials';

export interface Credentials {
  key: string;
  secret: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/** Kept for this tab's session only (sessionStorage), never in localStorage or a cookie. */
export function loadCredentials(): Credentials | null {
  const raw = sessionStorage.getItem(STORE);
  return raw ? (JSON.parse(raw) as Credentials) : null;
}

export function saveCredentials(c: Credentials | null): void {
  if (c) sessionStorage.setItem(STORE, JSON.stringify(c));
  else sessionStorage.removeItem(STORE);
}

export const isSandbox = (c: Credentials) => c.key.startsWith('dk_test_');

function authHeader(c: Credentials): string {
  return `Basic ${btoa(`${c.key}:${c.secret}`)}`;
}

export async function call<T>(c: Credentials, method: string, path: string, body?: unknown): Promise<T> {
  // X-Requested-With: the gateway then answers a 401 without a Basic challenge (no browser credentials dialog).
  const headers: Record<string, string> = { authorization: authHeader(c), 'x-requested-with': 'docket-dashboard' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${API}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  const json = text ? JSON.parse(text) : undefined;
  if (!res.ok) throw new ApiError(res.status, json?.code ?? 'error', json?.message ?? res.statusText, json?.details);
  return json as T;
}

export const TERMINAL = ['success', 'failed', 'cancelled', 'expired'];

export interface FieldMeta {
  confidence: number;
  page?: number;
  bbox?: [number, number, number, number];
  errors?: string[];
}

export interface Job {
  job_id: string;
  artifact_id: string;
  status: string;
  created_at: string;
  completed_at?: string;
  result?: Record<string, unknown>;
  result_version?: number;
  needs_review?: boolean;
  error?: string;
}

export interface ResultVersion {
  version: number;
  source: 'engine' | 'correction';
  api_key_id: string | null;
  created_at: string;
  changed_fields: string[];
  result: Record<string, unknown>;
}

export interface ResultVersions {
  job_id: string;
  needs_review: boolean;
  reviewed_at: string | null;
  reviewed_by: string | null;
  fields: Record<string, FieldMeta>;
  versions: ResultVersion[];
}

export interface ArtifactRecord {
  id: string;
  filename: string;
  artifact_type: string;
  status: string;
  confidence: number | null;
  needs_review: boolean;
  jobs: { job_id: string; status: string; created_at: string }[];
}

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  size: number;
  pages: number;
}

export interface FieldDef {
  key: string;
  label?: string;
  data_type: string;
}

/** Uploads one file through the main flow: submit, PUT to storage, confirm. Returns the job id. */
export async function uploadFile(c: Credentials, file: File, templateId: string): Promise<{ job_id: string; artifact_id: string }> {
  const type = file.type || 'application/octet-stream';
  const sub = await call<{ job_id: string; artifact_id: string; upload_url: string }>(c, 'POST', '/extract', {
    filename: file.name.replace(/[^A-Za-z0-9._-]/g, '_'),
    artifact_type: type,
    artifact_size: file.size,
    ...(templateId ? { template_id: templateId } : {}),
  });
  const put = await fetch(sub.upload_url, { method: 'PUT', headers: { 'content-type': type }, body: file });
  if (!put.ok) throw new ApiError(put.status, 'upload_refused', `Storage refused the upload (HTTP ${put.status})`);
  await call(c, 'POST', `/artifacts/${sub.artifact_id}/confirm-upload`);
  return sub;
}

const ADMIN_STORE = 'docket.admin';

/** The operator token of admin mode (ADMIN_TOKEN), kept like the credentials: this tab's session only. */
export function loadAdminToken(): string | null {
  return sessionStorage.getItem(ADMIN_STORE);
}

export function saveAdminToken(token: string | null): void {
  if (token) sessionStorage.setItem(ADMIN_STORE, token);
  else sessionStorage.removeItem(ADMIN_STORE);
}

/** An admin route (`/admin/…`) with the operator token as Bearer; errors as `call`'s. */
export async function adminCall<T>(token: string, method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'x-requested-with': 'docket-dashboard' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${API}/admin${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  const json = text ? JSON.parse(text) : undefined;
  if (!res.ok) throw new ApiError(res.status, json?.code ?? 'error', json?.message ?? res.statusText, json?.details);
  return json as T;
}

export interface IssuedSecret {
  api_key: string;
  secret_id: string;
  secret: string;
}

export interface AdminAccount {
  account_id: string;
  name: string;
  created_at: string;
  keys: { api_key: string; environment: 'sandbox' | 'live'; created_at: string; revoked_at: string | null }[];
}

export interface WalletStatus {
  balance: number;
  spendable: number;
  is_frozen: boolean;
  frozen_reason: string | null;
}

/** An error for display: the envelope's message, with its code. */
export const errorText = (err: unknown) => (err instanceof ApiError ? `${err.message} (${err.code})` : String(err));
