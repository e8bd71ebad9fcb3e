import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { WalletStatusResponseDto } from '@docket/contracts';
import { ApiErrors } from '../http/api-errors.decorator.js';
import { AdminGuard } from './admin-token.js';
import {
  AccountParamDto,
  AccountsPageDto,
  AdminAccountsQueryDto,
  ADMIN_PAGE_DEFAULT_SIZE,
  CreateAccountBodyDto,
  CreatedAccountDto,
  DepositBodyDto,
  FreezeBodyDto,
  KeyRateLimitDto,
  KeySecretsDto,
  RateLimitBodyDto,
  RevokedKeyDto,
  RevokedSecretDto,
  RotatedSecretDto,
} from './admin.dto.js';
import { AdminOperations } from './admin.operations.js';

export const ADMIN_TAG = 'Admin (operator only)';
export const ADMIN_BEARER = 'admin-token';
const ACCOUNT_ID = { name: 'account_id', example: 'acct_01jd3q8y4n6z2xk7m5t9w0abcd' };
const API_KEY = { name: 'api_key', example: 'dk_live_4f9Qm2Lx8Rt7Vz1Kp3Nw6Hy5' };
const SECRET_ID = { name: 'secret_id', example: 'sec_01jd3q8y4n6z2xk7m5t9w0abcd' };
/** Every admin route answers these besides its own (404: admin mode off, or the account/key is unknown). */
const ADMIN_ERRORS = [401, 403, 404, 422] as const;

/**
 * The admin CLI's operations over HTTP, for the dashboard's admin mode (a Docket extension, ADR 0015). Guarded by the
 * operator token `ADMIN_TOKEN` (Bearer), never an API key; off (404) when the gateway has no token. Thin: one
 * `AdminOperations` call per route, the same class the CLI runs.
 */
@ApiTags(ADMIN_TAG)
@ApiBearerAuth(ADMIN_BEARER)
@UseGuards(AdminGuard)
@Controller('admin')
export class AdminController {
  constructor(@Inject(AdminOperations) private readonly ops: AdminOperations) {}

  @Get('accounts')
  @ApiOperation({ summary: 'Accounts with their API keys, newest first', description: 'Admin only. Never a secret.' })
  @ApiOkResponse({ type: AccountsPageDto })
  @ApiErrors(...ADMIN_ERRORS)
  list(@Query() q: AdminAccountsQueryDto): Promise<AccountsPageDto> {
    return this.ops.listAccounts(q.page ?? 1, q.size ?? ADMIN_PAGE_DEFAULT_SIZE);
  }

  @Post('accounts')
  @ApiOperation({
    summary: 'Create an account with sandbox and live credentials and its wallet',
    description: 'Admin only. Each secret is in this response only (stored as a SHA-256 digest): hand it over now. All or nothing.',
  })
  @ApiCreatedResponse({ type: CreatedAccountDto })
  @ApiErrors(400, ...ADMIN_ERRORS)
  create(@Body() body: CreateAccountBodyDto): Promise<CreatedAccountDto> {
    return this.ops.createAccount(body.name, body.credits ?? 0);
  }

  @Get('accounts/:account_id/wallet')
  @ApiOperation({ summary: 'An account’s wallet', description: 'Admin only. Unknown account: 404 `wallet_not_found`.' })
  @ApiParam(ACCOUNT_ID)
  @ApiOkResponse({ type: WalletStatusResponseDto })
  @ApiErrors(...ADMIN_ERRORS)
  wallet(@Param() { account_id: accountId }: AccountParamDto): Promise<WalletStatusResponseDto> {
    return this.ops.wallet(accountId);
  }

  @Post('accounts/:account_id/deposit')
  @HttpCode(200)
  @ApiOperation({ summary: 'Add credits to an account’s wallet', description: 'Admin only. Returns the wallet.' })
  @ApiParam(ACCOUNT_ID)
  @ApiOkResponse({ type: WalletStatusResponseDto })
  @ApiErrors(...ADMIN_ERRORS)
  deposit(@Param() { account_id: accountId }: AccountParamDto, @Body() body: DepositBodyDto): Promise<WalletStatusResponseDto> {
    return this.ops.deposit(accountId, body.credits);
  }

  @Post('accounts/:account_id/freeze')
  @HttpCode(200)
  @ApiOperation({ summary: 'Freeze an account’s wallet', description: 'Admin only. New submissions get 402 until unfrozen.' })
  @ApiParam(ACCOUNT_ID)
  @ApiBody({ type: FreezeBodyDto, required: false })
  @ApiOkResponse({ type: WalletStatusResponseDto })
  @ApiErrors(...ADMIN_ERRORS)
  freeze(@Param() { account_id: accountId }: AccountParamDto, @Body() body: FreezeBodyDto = {}): Promise<WalletStatusResponseDto> {
    return this.ops.freeze(accountId, body?.reason);
  }

  @Post('accounts/:account_id/unfreeze')
  @HttpCode(200)
  @ApiOperation({ summary: 'Unfreeze an account’s wallet', description: 'Admin only.' })
  @ApiParam(ACCOUNT_ID)
  @ApiOkResponse({ type: WalletStatusResponseDto })
  @ApiErrors(...ADMIN_ERRORS)
  unfreeze(@Param() { account_id: accountId }: AccountParamDto): Promise<WalletStatusResponseDto> {
    return this.ops.unfreeze(accountId);
  }

  @Get('keys/:api_key/secrets')
  @ApiOperation({ summary: 'A key’s secrets (ids and dates, never the secret)', description: 'Admin only. Revoked ones included.' })
  @ApiParam(API_KEY)
  @ApiOkResponse({ type: KeySecretsDto })
  @ApiErrors(400, ...ADMIN_ERRORS)
  secrets(@Param('api_key') apiKey: string): Promise<KeySecretsDto> {
    return this.ops.listSecrets(apiKey);
  }

  @Post('keys/:api_key/secrets')
  @ApiOperation({
    summary: 'Issue a new secret for a key (rotate)',
    description: 'Admin only. The secret is in this response only. The old secrets stay valid until revoked (spec §5.5).',
  })
  @ApiParam(API_KEY)
  @ApiCreatedResponse({ type: RotatedSecretDto })
  @ApiErrors(400, ...ADMIN_ERRORS, 409)
  rotate(@Param('api_key') apiKey: string): Promise<RotatedSecretDto> {
    return this.ops.rotateSecret(apiKey);
  }

  @Delete('keys/:api_key/secrets/:secret_id')
  @ApiOperation({ summary: 'Revoke one secret of a key', description: 'Admin only. Effective on the next request; idempotent.' })
  @ApiParam(API_KEY)
  @ApiParam(SECRET_ID)
  @ApiOkResponse({ type: RevokedSecretDto })
  @ApiErrors(400, ...ADMIN_ERRORS)
  revokeSecret(@Param('api_key') apiKey: string, @Param('secret_id') secretId: string): Promise<RevokedSecretDto> {
    return this.ops.revokeSecret(apiKey, secretId);
  }

  @Delete('keys/:api_key')
  @ApiOperation({ summary: 'Revoke a key and all its secrets', description: 'Admin only. Effective on the next request; idempotent.' })
  @ApiParam(API_KEY)
  @ApiOkResponse({ type: RevokedKeyDto })
  @ApiErrors(400, ...ADMIN_ERRORS)
  revokeKey(@Param('api_key') apiKey: string): Promise<RevokedKeyDto> {
    return this.ops.revokeKey(apiKey);
  }

  @Put('keys/:api_key/rate-limit')
  @ApiOperation({
    summary: 'Set or drop a key’s requests-per-minute override',
    description: 'Admin only. `per_minute: null` returns the key to the environment default (`RATE_LIMIT_*`).',
  })
  @ApiParam(API_KEY)
  @ApiOkResponse({ type: KeyRateLimitDto })
  @ApiErrors(400, ...ADMIN_ERRORS)
  rateLimit(@Param('api_key') apiKey: string, @Body() body: RateLimitBodyDto): Promise<KeyRateLimitDto> {
    return this.ops.setRateLimit(apiKey, body.per_minute);
  }
}
