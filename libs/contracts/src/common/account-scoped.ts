import { IsBoolean, IsDefined, IsOptional, IsString, Matches } from 'class-validator';

/** Every command/query from the gateway names the authenticated account; services filter by it. */
export class AccountScoped {
  @IsDefined()
  @IsString()
  @Matches(/^acct_[0-9a-z]+$/)
  accountId: string;
}

export class AccountScopedEnv extends AccountScoped {
  /** True for `dk_test_` keys: synthetic results, never charged. */
  @IsBoolean()
  sandbox: boolean;

  @IsOptional()
  @IsString()
  apiKeyId?: string;
}
